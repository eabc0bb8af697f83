"""Shikaku: the seed puzzle, both engines agreeing, URL puzzles, generated puzzles, bad input.

The puzz.link codec itself is tested in test_puzzlink.py.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from bench.generators import shikaku_puzzle
from pysolver import solve
from pysolver.engines import trace
from pysolver.kinds import shikaku
from pysolver.kinds.shikaku import to_url
from pysolver.kinds.shikaku.pasted import parse_url

SEED12 = Path(__file__).resolve().parent / "data" / "seed12.json"
ENGINES = shikaku.ENGINES


def seed_fixture() -> dict[str, Any]:
    return json.loads(SEED12.read_text(encoding="utf-8"))


def run(puzzle: Any, **request: Any) -> dict[str, Any]:
    response = solve({"kind": "shikaku", "puzzle": puzzle, **request})
    assert response["ok"], response
    return response


def error_of(puzzle: Any, **request: Any) -> dict[str, str]:
    response = solve({"kind": "shikaku", "puzzle": puzzle, **request})
    assert not response["ok"], response
    return response["error"]


def letters(rows: int, cols: int, solution: list[list[int]]) -> list[str]:
    grid = [["?"] * cols for _ in range(rows)]
    for clue, (top, left, height, width) in enumerate(solution):
        for row in range(top, top + height):
            for col in range(left, left + width):
                grid[row][col] = chr(ord("a") + clue)
    return ["".join(line) for line in grid]


def assert_valid(puzzle: dict[str, Any], solution: list[list[int]]) -> None:
    """Each rectangle holds its own clue cell, has the clue's area, and they tile the grid."""
    rows, cols = puzzle["rows"], puzzle["cols"]
    owner = [[None] * cols for _ in range(rows)]
    assert len(solution) == len(puzzle["clues"])
    for clue, ((row, col, size), (top, left, height, width)) in enumerate(
        zip(puzzle["clues"], solution, strict=True)
    ):
        assert height * width == size
        assert top <= row < top + height and left <= col < left + width
        for r in range(top, top + height):
            for c in range(left, left + width):
                assert owner[r][c] is None
                owner[r][c] = clue
    assert all(cell is not None for line in owner for cell in line)


# ---------------------------------------------------------------- the seed puzzle


@pytest.mark.parametrize("engine", ENGINES)
def test_seed12_is_unique_and_matches_the_expected_tiling(engine: str) -> None:
    fixture = seed_fixture()
    puzzle = fixture["puzzle"]
    response = run(puzzle, engine=engine, limit=2)
    assert response["engine"] == engine
    assert (response["count"], response["complete"]) == (1, True)
    solution = response["solutions"][0]
    assert_valid(puzzle, solution)
    assert letters(12, 12, solution) == fixture["expected"]["letters"]
    assert response["stats"]["candidates_area"] == 345
    assert response["stats"]["candidates"] == 218


def test_seed12_candidate_figures_of_the_propagation_engine() -> None:
    stats = run(seed_fixture()["puzzle"], engine="propagate", limit=2)["stats"]
    assert stats["candidates_area"] == 345
    assert stats["candidates"] == 218
    assert stats["candidates_initial"] == 218
    assert stats["candidates_after_overlap"] == 156
    assert stats["candidates_after_propagation"] <= 156
    assert stats["nodes"] >= 1


def test_default_engine_is_the_first_listed() -> None:
    assert run(seed_fixture()["puzzle"])["engine"] == ENGINES[0]


# ---------------------------------------------------------------- engines agree


def solution_set(puzzle: dict[str, Any], engine: str, cap: int) -> tuple[set, bool]:
    response = run(puzzle, engine=engine, limit=cap)
    for solution in response["solutions"]:
        assert_valid(puzzle, solution)
    return {json.dumps(s) for s in response["solutions"]}, response["complete"]


def test_both_engines_give_identical_solution_sets_on_generated_puzzles() -> None:
    cap = 300
    compared = 0
    for seed in range(220):
        rng = random.Random(seed)
        rows, cols = rng.randint(1, 7), rng.randint(1, 7)
        puzzle = shikaku_puzzle(rows, cols, seed, max_area=rng.randint(2, 8))
        results = [solution_set(puzzle, engine, cap) for engine in ENGINES]
        (first, first_complete), (second, second_complete) = results
        assert first_complete == second_complete, (seed, puzzle)
        if first_complete:
            assert first == second, (seed, puzzle)
            assert len(first) >= 1  # the generator's own cut is a solution
            compared += 1
        else:
            assert len(first) == len(second) == cap
    assert compared >= 200


def test_count_mode_agrees_and_respects_the_limit() -> None:
    puzzle = shikaku_puzzle(6, 6, 11, max_area=6)
    counts = [run(puzzle, engine=e, mode="count")["count"] for e in ENGINES]
    assert counts[0] == counts[1] >= 1
    total = counts[0]
    for engine in ENGINES:
        capped = run(puzzle, engine=engine, mode="count", limit=1)
        assert capped["count"] == 1
        assert capped["solutions"] == []
        assert capped["complete"] == (total == 1)


def test_a_generated_puzzle_with_many_solutions_stops_at_the_limit() -> None:
    puzzle = shikaku_puzzle(16, 16, 0, max_area=4)  # small pieces: 160 solutions
    for engine in ENGINES:
        assert run(puzzle, engine=engine, mode="count")["count"] == 160
        response = run(puzzle, engine=engine, mode="count", limit=50)
        assert response["count"] == 50
        assert response["complete"] is False
        first = run(puzzle, engine=engine, limit=3)
        assert (first["count"], len(first["solutions"]), first["complete"]) == (3, 3, False)


def test_engines_agree_on_counts_of_puzzles_cut_into_small_pieces() -> None:
    # Many independent regions: the propagation engine multiplies their counts, DLX enumerates.
    for side, seed in ((10, 0), (12, 3), (12, 7), (14, 2)):
        puzzle = shikaku_puzzle(side, side, seed, max_area=4)
        counts = [run(puzzle, engine=e, mode="count")["count"] for e in ENGINES]
        assert counts[0] == counts[1] >= 1, (side, seed)
        firsts = [run(puzzle, engine=e, limit=counts[0])["solutions"] for e in ENGINES]
        assert sorted(map(json.dumps, firsts[0])) == sorted(map(json.dumps, firsts[1]))


@pytest.mark.parametrize("seed", [1, 25])
def test_large_grid_of_small_pieces_does_not_thrash(seed: int) -> None:
    # These 50x50 grids once took over 50,000 nodes (many seconds) without a first solution:
    # an unsolvable region was rediscovered under every choice made elsewhere.
    puzzle = shikaku_puzzle(50, 50, seed, max_area=4)
    response = run(puzzle, limit=2)
    assert response["count"] == 2
    for solution in response["solutions"]:
        assert_valid(puzzle, solution)
    assert response["stats"]["splits"] >= 1
    assert response["stats"]["nodes"] < 10_000


@pytest.mark.parametrize("engine", ENGINES)
def test_cancel_stops_a_large_count(engine: str) -> None:
    # Enough search nodes (hundreds) for every engine to reach a cancel check.
    puzzle = shikaku_puzzle(16, 16, 0, max_area=4)
    response = solve(
        {"kind": "shikaku", "engine": engine, "mode": "count", "puzzle": puzzle},
        cancel=lambda: True,
    )
    assert response["ok"]
    assert response["cancelled"] is True
    assert response["complete"] is False


@pytest.mark.parametrize("engine", ENGINES)
def test_random_mode_is_seeded_and_gives_distinct_valid_solutions(engine: str) -> None:
    puzzle = shikaku_puzzle(5, 5, 3, max_area=5)
    total = run(puzzle, mode="count")["count"]
    request = {"engine": engine, "mode": "random", "limit": 4}
    first = run(puzzle, seed=8, **request)
    again = run(puzzle, seed=8, **request)
    assert first["solutions"] == again["solutions"]
    assert first["count"] == min(4, total)
    assert len({json.dumps(s) for s in first["solutions"]}) == first["count"]
    for solution in first["solutions"]:
        assert_valid(puzzle, solution)


@pytest.mark.parametrize("engine", ENGINES)
def test_no_tiling_is_count_zero(engine: str) -> None:
    # Every clue has candidate rectangles, but they cannot tile the grid together.
    blocked = {"rows": 3, "cols": 3, "clues": [[0, 2, 2], [1, 1, 3], [0, 0, 2], [2, 0, 2]]}
    # The 3 cannot fit in a 2 x 2 grid at all.
    no_candidates = {"rows": 2, "cols": 2, "clues": [[0, 0, 3], [1, 1, 1]]}
    for puzzle in (blocked, no_candidates):
        response = run(puzzle, engine=engine, limit=2)
        assert (response["count"], response["complete"], response["solutions"]) == (0, True, [])


def test_single_clue_covering_the_grid() -> None:
    response = run({"rows": 3, "cols": 4, "clues": [[2, 1, 12]]}, limit=2)
    assert response["solutions"] == [[[0, 0, 3, 4]]]
    assert response["complete"]


# ---------------------------------------------------------------- the generator


def test_generator_is_seeded_and_cuts_the_whole_grid() -> None:
    assert shikaku_puzzle(9, 7, 4) == shikaku_puzzle(9, 7, 4)
    assert shikaku_puzzle(9, 7, 4) != shikaku_puzzle(9, 7, 5)
    for seed in range(30):
        puzzle = shikaku_puzzle(8, 11, seed, max_area=9)
        assert sum(size for _r, _c, size in puzzle["clues"]) == 88
        assert all(1 <= size <= 9 for _r, _c, size in puzzle["clues"])
        assert len({(r, c) for r, c, _size in puzzle["clues"]}) == len(puzzle["clues"])


# ---------------------------------------------------------------- URLs


@pytest.mark.parametrize(
    "url",
    [
        "https://puzz.link/p?shikaku/4/3/g6n6g",
        "http://puzz.link/p?shikaku/4/3/g6n6g",
        "puzz.link/p?shikaku/4/3/g6n6g",
        "https://pzprxs.vercel.app/p?shikaku/4/3/g6n6g",
        "http://pzv.jp/p.html?shikaku/4/3/g6n6g",
        "https://puzz.link/p?sikaku/4/3/g6n6g/",
        "shikaku/4/3/g6n6g",
        "  https://puzz.link/p?shikaku/4/3/g6n6g  ",
    ],
)
def test_url_host_variants(url: str) -> None:
    # 4 columns, 3 rows: blank, 6, blank x8, 6, blank.
    assert parse_url(url) == (3, 4, [(0, 1, 6), (2, 2, 6)])
    response = run({"url": url}, limit=2)
    assert response["count"] >= 1
    assert_valid({"rows": 3, "cols": 4, "clues": [[0, 1, 6], [2, 2, 6]]}, response["solutions"][0])


def test_seed12_through_its_url() -> None:
    fixture = seed_fixture()
    url = to_url(fixture["puzzle"])
    response = run({"url": url}, limit=2)
    assert (response["count"], response["complete"]) == (1, True)
    # The URL lists clues row by row, so compare tilings cell by cell, not clue by clue.
    rows, cols, clues = parse_url(url)
    by_url = {tuple(rect) for rect in response["solutions"][0]}
    direct = run(fixture["puzzle"])["solutions"][0]
    assert by_url == {tuple(rect) for rect in direct}
    assert len(clues) == len(fixture["puzzle"]["clues"])
    # The response tells a URL-only caller what the URL meant, so the clues can be drawn.
    assert response["puzzle"] == {"rows": rows, "cols": cols, "clues": [list(c) for c in clues]}
    assert sorted(map(tuple, response["puzzle"]["clues"])) == sorted(
        map(tuple, fixture["puzzle"]["clues"])
    )


@pytest.mark.parametrize(
    ("url", "fragment"),
    [
        ("https://puzz.link/p?nurikabe/4/3/g6n6g", "not a Shikaku URL"),
        ("https://puzz.link/p?shikaku/4", "lacks the grid size"),
        ("https://puzz.link/p?shikaku/x/3/g6n6g", "columns 'x' is not a whole number"),
        ("https://puzz.link/p?shikaku/4/0/g6n6g", "rows must be at least 1"),
        ("https://puzz.link/p?shikaku/4/3/g6n6gz", "goes on past the last of the 12 cells"),
        ("https://puzz.link/p?shikaku/4/3/h-6", "followed by 2 hex digits"),
        ("https://puzz.link/p?shikaku/4/3/h.i6h", "question-mark clue"),
        ("https://puzz.link/p?shikaku/4/3/h6!6h", "unexpected character '!'"),
        ("https://puzz.link/p?shikaku/4/3/0k", "clues must be at least 1"),
        ("https://puzz.link/p?shikaku/4/3/g5n6g", "add up to 11 but the grid has 12 cells"),
    ],
)
def test_bad_urls_say_what_is_wrong(url: str, fragment: str) -> None:
    error = error_of({"url": url})
    assert error["code"] == "invalid_puzzle"
    assert error["path"] == "puzzle.url"
    assert fragment in error["message"]


def test_oversized_url_grid_is_too_large() -> None:
    error = error_of({"url": "https://puzz.link/p?shikaku/101/3/"})
    assert error["code"] == "too_large"
    assert "100" in error["message"]


def test_url_must_be_a_string() -> None:
    error = error_of({"url": 12})
    assert (error["path"], error["code"]) == ("puzzle.url", "invalid_puzzle")


# ---------------------------------------------------------------- bad puzzles


@pytest.mark.parametrize(
    ("puzzle", "path", "fragment"),
    [
        ([], "puzzle", "must be an object"),
        ({"rows": 2, "cols": 2}, "puzzle.clues", '"clues" is missing'),
        ({"rows": "2", "cols": 2, "clues": []}, "puzzle.rows", "must be an integer"),
        ({"rows": 0, "cols": 2, "clues": []}, "puzzle.rows", "at least 1"),
        ({"rows": -3, "cols": 2, "clues": []}, "puzzle.rows", "at least 1"),
        ({"rows": 2, "cols": 2.5, "clues": []}, "puzzle.cols", "must be an integer"),
        ({"rows": 2, "cols": 2, "clues": {}}, "puzzle.clues", "must be a list"),
        ({"rows": 2, "cols": 2, "clues": [4]}, "puzzle.clues[0]", "must be a list"),
        ({"rows": 2, "cols": 2, "clues": [[0, 0]]}, "puzzle.clues[0]", "[row, col, n]"),
        ({"rows": 2, "cols": 2, "clues": [[2, 0, 4]]}, "puzzle.clues[0][0]", "at most 1"),
        ({"rows": 2, "cols": 2, "clues": [[0, -1, 4]]}, "puzzle.clues[0][1]", "at least 0"),
        ({"rows": 2, "cols": 2, "clues": [[0, 0, 0]]}, "puzzle.clues[0][2]", "at least 1"),
        ({"rows": 2, "cols": 2, "clues": [[0, 0, -4]]}, "puzzle.clues[0][2]", "at least 1"),
        ({"rows": 2, "cols": 2, "clues": [[0, 0, True]]}, "puzzle.clues[0][2]", "boolean"),
        (
            {"rows": 2, "cols": 2, "clues": [[0, 0, 2], [1, 1, 1], [0, 0, 1]]},
            "puzzle.clues[2]",
            "clue 3 is on the same cell (row 1, column 1) as clue 1",
        ),
        (
            {"rows": 3, "cols": 4, "clues": [[0, 0, 5], [2, 2, 6]]},
            "puzzle.clues",
            "add up to 11 but the grid has 12 cells (3 x 4)",
        ),
        ({"rows": 2, "cols": 2, "clues": []}, "puzzle.clues", "add up to 0 but the grid has 4"),
    ],
)
def test_bad_puzzles_are_reported_with_paths(puzzle: Any, path: str, fragment: str) -> None:
    error = error_of(puzzle)
    assert error["code"] == "invalid_puzzle"
    assert error["path"] == path
    assert fragment in error["message"]


def test_oversized_grid_is_too_large() -> None:
    error = error_of({"rows": 101, "cols": 5, "clues": [[0, 0, 505]]})
    assert (error["code"], error["path"]) == ("too_large", "puzzle.rows")
    assert "100" in error["message"]


def test_unknown_engine_is_an_error() -> None:
    response = solve({"kind": "shikaku", "engine": "magic", "puzzle": shikaku_puzzle(3, 3, 1)})
    assert response["error"]["code"] == "unknown_engine"
    assert "propagate" in response["error"]["message"]


def test_largest_grid_solves() -> None:
    response = run(shikaku_puzzle(100, 100, 1), limit=1)
    assert response["count"] == 1


# ---------------------------------------------------------------- trace mode and heatmaps


def replayed(puzzle: dict[str, Any], steps: list[dict[str, Any]]) -> list[list[list[int]]]:
    """Each solution step's board as a solution: the rectangle placed per clue."""
    solutions = []
    for board in trace.replay(steps):
        solution: list[list[int] | None] = [None] * len(puzzle["clues"])
        for place in board:
            assert solution[place["clue"]] is None
            solution[place["clue"]] = place["rect"]
        solutions.append(solution)
    return solutions


def test_seed12_trace_tells_the_candidate_story() -> None:
    response = run(seed_fixture()["puzzle"], mode="trace", engine="propagate", limit=2)
    story = [step["candidates"] for step in response["steps"][:4]]
    assert story == [345, 218, 156, 140]
    assert [step["type"] for step in response["steps"][:4]] == ["propagate"] * 4
    assert [step["rule"] for step in response["steps"][:4]] == ["area", "clues", "overlap", "all"]
    assert response["count"] == 1 and response["complete"] and not response["truncated"]
    assert replayed(seed_fixture()["puzzle"], response["steps"]) == response["solutions"]
    assert {"split", "try", "force", "backtrack"} <= {step["type"] for step in response["steps"]}


def test_split_steps_list_the_clues_surviving_rectangles() -> None:
    puzzle = seed_fixture()["puzzle"]
    rows, cols, clues = puzzle["rows"], puzzle["cols"], [tuple(c) for c in puzzle["clues"]]
    rectangles, _, _ = shikaku.candidate_rectangles(rows, cols, clues)
    steps = run(puzzle, mode="trace", engine="propagate")["steps"]
    splits = [(n, step) for n, step in enumerate(steps) if step["type"] == "split"]
    assert splits
    for n, step in splits:
        rects = step["rects"]
        assert rects[0] == step["first"] and len(rects) == step["rest"] + 1
        assert len({tuple(rect) for rect in rects}) == len(rects)
        assert all(tuple(rect) in rectangles[step["clue"]] for rect in rects)
        # The first part of the split follows it and takes the first rectangle.
        assert steps[n + 1]["type"] == "try"
        assert steps[n + 1]["place"] == {"clue": step["clue"], "rect": rects[0]}


@pytest.mark.parametrize("engine", ENGINES)
def test_traces_replay_to_every_solution(engine: str) -> None:
    for seed in range(12):
        puzzle = shikaku_puzzle(5, 6, seed, max_area=4)
        response = run(puzzle, mode="trace", engine=engine, limit=None, max_steps=100_000)
        assert response["complete"] and not response["truncated"], seed
        assert replayed(puzzle, response["steps"]) == response["solutions"], seed
        for solution in response["solutions"]:
            assert_valid(puzzle, solution)
        assert response["count"] == run(puzzle, mode="count", engine=engine)["count"], seed


def test_trace_respects_max_steps() -> None:
    puzzle = shikaku_puzzle(6, 6, 3, max_area=4)
    full = run(puzzle, mode="trace", limit=None, max_steps=100_000)
    total = len(full["steps"])
    cut = run(puzzle, mode="trace", limit=None, max_steps=total - 1)
    assert cut["truncated"] and not cut["complete"]
    assert cut["steps"] == full["steps"][:-1]
    assert cut["count"] == len(cut["solutions"]) == len(replayed(puzzle, cut["steps"]))
    tiny = run(puzzle, mode="trace", max_steps=1)
    assert tiny["truncated"] and [s["rule"] for s in tiny["steps"]] == ["area"]


def brute_force_solutions(puzzle: dict[str, Any]) -> list[list[list[int]]]:
    rows, cols = puzzle["rows"], puzzle["cols"]
    rectangles, _, _ = shikaku.candidate_rectangles(rows, cols, [tuple(c) for c in puzzle["clues"]])
    found = []
    for choice in itertools.product(*rectangles):
        cells = [
            (r, c)
            for top, left, height, width in choice
            for r in range(top, top + height)
            for c in range(left, left + width)
        ]
        if len(set(cells)) == rows * cols == len(cells):
            found.append([list(rect) for rect in choice])
    return found


@pytest.mark.parametrize("engine", ENGINES)
def test_heatmap_equals_counts_over_every_solution(engine: str) -> None:
    puzzle = {"rows": 4, "cols": 4, "clues": [[0, 0, 4], [1, 2, 4], [3, 0, 4], [3, 3, 4]]}
    solutions = brute_force_solutions(puzzle)
    assert len(solutions) > 1
    expected: dict[str, list[list[int]]] = {}
    for solution in solutions:
        for clue, (top, left, height, width) in enumerate(solution):
            grid = expected.setdefault(str(clue), [[0] * 4 for _ in range(4)])
            for r in range(top, top + height):
                for c in range(left, left + width):
                    grid[r][c] += 1
    response = run(puzzle, mode="count", heatmap=True, engine=engine)
    assert response["count"] == len(solutions)
    assert response["heatmap"] == expected
