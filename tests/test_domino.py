"""The domino kind through pysolver.solve: counts, tilings, random tilings, errors."""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any

import pytest

from pysolver import budget, solve
from pysolver.engines import trace
from pysolver.protocol import dumps


def domino(puzzle: Any, **request: Any) -> dict[str, Any]:
    return solve({"kind": "domino", "puzzle": puzzle, **request})


def board_cells(board: list[str]) -> set[tuple[int, int]]:
    return {(r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch == "."}


def rect_cells(rows: int, cols: int, blocked: list[list[int]] = ()) -> set[tuple[int, int]]:
    holes = {tuple(cell) for cell in blocked}
    return {(r, c) for r in range(rows) for c in range(cols) if (r, c) not in holes}


def assert_tiling(tiling: list, cells: set[tuple[int, int]]) -> None:
    covered = []
    for first, second in tiling:
        assert first < second
        assert abs(first[0] - second[0]) + abs(first[1] - second[1]) == 1
        covered += [tuple(first), tuple(second)]
    assert len(covered) == len(set(covered))
    assert set(covered) == cells
    assert tiling == sorted(tiling)


def key(tiling: list) -> str:
    return json.dumps(tiling)


# ---------------------------------------------------------------- counting


@pytest.mark.parametrize(
    ("rows", "cols", "expected"),
    [
        (2, 3, 3),
        (2, 11, 144),
        (4, 11, 51205),
        (3, 3, 0),
        (8, 8, 12988816),
        (12, 12, 53060477521960000),
        (16, 16, 2444888770250892795802079170816),
    ],
)
def test_counts_of_rectangles(rows: int, cols: int, expected: int) -> None:
    response = domino({"rows": rows, "cols": cols}, mode="count")
    assert response["ok"] and response["count"] == expected and response["complete"]
    assert response["engine"] == "formula"
    dp = domino({"rows": rows, "cols": cols}, mode="count", engine="profile_dp")
    assert dp["count"] == expected and dp["engine"] == "profile_dp"


def test_holes_use_the_dp_and_both_forms_agree() -> None:
    board = ["#....", ".....", "...#.", "....."]
    blocked = [[0, 0], [2, 3]]
    by_board = domino({"board": board}, mode="count")
    by_cells = domino({"rows": 4, "cols": 5, "blocked": blocked}, mode="count")
    assert by_board["engine"] == "profile_dp"
    assert by_board["count"] == by_cells["count"] > 0
    listed = domino({"board": board}, limit=10_000)
    assert listed["count"] == by_board["count"] == listed["total"]


def test_count_limit_caps_the_count() -> None:
    capped = domino({"rows": 4, "cols": 4}, mode="count", limit=5)
    assert capped["count"] == 5 and capped["complete"] is False
    exact = domino({"rows": 4, "cols": 4}, mode="count", limit=36)
    assert exact["count"] == 36 and exact["complete"] is True
    holes = domino({"board": ["#...", "....", "...."]}, mode="count", limit=2)
    assert holes["count"] == 0 and holes["complete"] is True  # 11 cells: no tiling
    dp = domino({"board": ["##..", "....", "...."]}, mode="count", limit=3)
    assert dp["count"] == 3 and dp["complete"] is False


def test_odd_or_unbalanced_boards_have_no_tiling() -> None:
    for puzzle in (
        {"rows": 5, "cols": 5},
        {"board": [".#.", "..."]},
        {"rows": 4, "cols": 4, "blocked": [[0, 0], [3, 3]]},
    ):
        for mode in ("count", "solve", "random"):
            response = domino(puzzle, mode=mode)
            assert response["ok"], response
            assert response["count"] == 0 and response["complete"] is True
            assert response["solutions"] == []


def test_huge_counts_cross_json_whole() -> None:
    response = domino({"rows": 200, "cols": 200}, mode="count")
    assert response["ok"] and isinstance(response["count"], int)
    assert response["count"].bit_length() > 16000
    limit_before = sys.get_int_max_str_digits()
    text = dumps(response)
    assert sys.get_int_max_str_digits() == limit_before  # lifted only inside dumps
    start = text.index('"count": ') + len('"count": ')
    end = text.index(",", start)
    assert len(text[start:end]) == 5040
    assert domino({"rows": 100, "cols": 100}, mode="count")["count"] >= 10**1253


def test_odd_by_even_rectangle_formula() -> None:
    response = domino({"rows": 99, "cols": 100}, mode="count")
    assert response["ok"] and response["engine"] == "formula"
    assert 10**1240 <= response["count"] < 10**1241


def test_trimmed_border_still_counts_as_a_rectangle() -> None:
    board = ["######", "#....#", "#....#", "######"]
    response = domino({"board": board}, mode="count")
    assert response["engine"] == "formula" and response["count"] == 5


# ---------------------------------------------------------------- tilings


def test_solve_returns_valid_tilings_in_puzzle_coordinates() -> None:
    for board in (
        ["######", "#....#", "#....#", "######"],
        ["..........", "....#....."],  # wider than tall: the DP runs transposed
        ["#..", "...", "..#", "..."],
    ):
        response = domino({"board": board}, limit=3)
        assert response["ok"]
        assert response["count"] == min(3, response["total"])
        for tiling in response["solutions"]:
            assert_tiling(tiling, board_cells(board))
        assert len({key(t) for t in response["solutions"]}) == response["count"]


def test_solve_with_a_big_limit_lists_everything_and_says_complete() -> None:
    response = domino({"rows": 4, "cols": 4}, limit=100)
    assert response["count"] == 36 and response["total"] == 36 and response["complete"]
    assert len({key(t) for t in response["solutions"]}) == 36
    first = domino({"rows": 4, "cols": 4})
    assert first["count"] == 1 and first["complete"] is False
    assert first["solutions"][0] == response["solutions"][0]


def test_solve_on_rows_cols_with_blocked_cells() -> None:
    blocked = [[1, 1], [2, 3]]
    response = domino({"rows": 6, "cols": 5, "blocked": blocked}, limit=5)
    assert response["ok"] and response["count"] == 5
    for tiling in response["solutions"]:
        assert_tiling(tiling, rect_cells(6, 5, blocked))


def test_random_tilings_are_valid_distinct_and_reproducible() -> None:
    puzzle = {"rows": 8, "cols": 8, "blocked": [[0, 0], [0, 1]]}
    first = domino(puzzle, mode="random", seed=1, limit=5)
    again = domino(puzzle, mode="random", seed=1, limit=5)
    other = domino(puzzle, mode="random", seed=2, limit=5)
    assert first["seed"] == 1 and first["count"] == 5 and first["complete"] is False
    assert first["solutions"] == again["solutions"]
    assert first["solutions"] != other["solutions"]
    assert len({key(t) for t in first["solutions"]}) == 5
    for tiling in first["solutions"] + other["solutions"]:
        assert_tiling(tiling, rect_cells(8, 8, [[0, 0], [0, 1]]))


def test_random_with_limit_above_total_returns_all_in_random_order() -> None:
    ordered = domino({"rows": 2, "cols": 6}, limit=50)
    shuffled = domino({"rows": 2, "cols": 6}, mode="random", seed=4, limit=50)
    assert shuffled["count"] == 13 and shuffled["complete"] is True
    assert sorted(map(key, shuffled["solutions"])) == sorted(map(key, ordered["solutions"]))


def test_random_tilings_on_a_board_with_a_huge_count() -> None:
    # 16 x 16 has about 2.4e30 tilings: ranks are drawn past rng.sample's range.
    response = domino({"rows": 16, "cols": 16}, mode="random", seed=9, limit=2)
    assert response["ok"] and response["count"] == 2
    for tiling in response["solutions"]:
        assert_tiling(tiling, rect_cells(16, 16))


def test_random_tilings_are_uniform_on_4x4() -> None:
    # 4 x 4 has 36 tilings. Fixed seeds make this deterministic; a chi-square statistic far
    # below the 99.9% point for 35 degrees of freedom (66.6) says no tiling is favoured.
    draws = 36 * 60
    seen: Counter[str] = Counter()
    for seed in range(draws):
        response = domino({"rows": 4, "cols": 4}, mode="random", seed=seed)
        seen[key(response["solutions"][0])] += 1
    assert len(seen) == 36
    expected = draws / 36
    chi_square = sum((n - expected) ** 2 / expected for n in seen.values())
    assert chi_square < 66.6


# ---------------------------------------------------------------- progress and cancel


def test_cancel_and_progress() -> None:
    reports: list[dict] = []
    response = solve(
        {
            "kind": "domino",
            "mode": "count",
            "engine": "profile_dp",
            "puzzle": {"rows": 16, "cols": 16},
        },
        progress=reports.append,
        cancel=lambda: True,
    )
    assert response["ok"] and response["cancelled"] is True and response["complete"] is False
    done = solve(
        {"kind": "domino", "mode": "count", "puzzle": {"rows": 10, "cols": 10}},
        progress=reports.append,
    )
    assert done["count"] == 258584046368
    assert reports[-1]["done"] and reports[-1]["fraction"] == 1.0


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("request_fields", "code", "path", "words"),
    [
        ({"puzzle": {"rows": -1, "cols": 4}}, "invalid_puzzle", "puzzle.rows", "at least 1"),
        ({"puzzle": {"rows": 0, "cols": 4}}, "invalid_puzzle", "puzzle.rows", "at least 1"),
        ({"puzzle": {"rows": 4, "cols": 1001}}, "too_large", "puzzle.cols", "1000"),
        ({"puzzle": {"rows": "4", "cols": 4}}, "invalid_puzzle", "puzzle.rows", "integer"),
        ({"puzzle": {"rows": 4}}, "invalid_puzzle", "puzzle", "cols"),
        ({"puzzle": [4, 4]}, "invalid_puzzle", "puzzle", "object"),
        (
            {"puzzle": {"rows": 4, "cols": 4, "blocked": [[4, 0]]}},
            "invalid_puzzle",
            "puzzle.blocked[0][0]",
            "at most 3",
        ),
        (
            {"puzzle": {"rows": 4, "cols": 4, "blocked": [[1, 1], [1, 1]]}},
            "invalid_puzzle",
            "puzzle.blocked[1]",
            "second time",
        ),
        (
            {"puzzle": {"rows": 4, "cols": 4, "blocked": [[1, 1, 1]]}},
            "invalid_puzzle",
            "puzzle.blocked[0]",
            "pair",
        ),
        (
            {"puzzle": {"rows": 4, "cols": 4, "blocked": 3}},
            "invalid_puzzle",
            "puzzle.blocked",
            "list",
        ),
        ({"puzzle": {"board": ["...", ".."]}}, "invalid_puzzle", "puzzle.board[1]", "same length"),
        ({"puzzle": {"board": ["..", ".x"]}}, "invalid_puzzle", "puzzle.board[1]", "'x'"),
        ({"puzzle": {"board": []}}, "invalid_puzzle", "puzzle.board", "empty"),
        ({"puzzle": {"board": ["##", "##"]}}, "invalid_puzzle", "puzzle.board", "no open cell"),
        ({"puzzle": {"board": "...."}}, "invalid_puzzle", "puzzle.board", "list"),
        ({"puzzle": {"board": [".."], "rows": 1}}, "invalid_puzzle", "puzzle", "either"),
        (
            {"mode": "solve", "engine": "formula", "puzzle": {"rows": 4, "cols": 4}},
            "invalid_request",
            "engine",
            "only counts",
        ),
        (
            {"mode": "count", "engine": "formula", "puzzle": {"board": ["#.", ".."]}},
            "invalid_request",
            "engine",
            "profile_dp",
        ),
        (
            {"engine": "magic", "puzzle": {"rows": 2, "cols": 2}},
            "unknown_engine",
            "engine",
            "formula",
        ),
        (
            {"mode": "count", "puzzle": {"rows": 30, "cols": 30, "blocked": [[0, 0], [0, 1]]}},
            "too_large",
            "puzzle",
            "at most 20",
        ),
        (
            {"mode": "count", "puzzle": {"rows": 500, "cols": 500}},
            "too_large",
            "puzzle",
            "400 x 400",
        ),
        ({"mode": "solve", "puzzle": {"rows": 20, "cols": 20}}, "too_large", "puzzle", "MB"),
    ],
)
def test_errors(request_fields: dict, code: str, path: str, words: str) -> None:
    response = solve({"kind": "domino", **request_fields})
    assert response["ok"] is False, response
    assert response["error"]["code"] == code
    assert response["error"]["path"] == path
    assert words in response["error"]["message"]


# ---------------------------------------------------------------- trace mode


def test_trace_sweeps_every_open_cell_then_replays_the_tilings() -> None:
    board = ["#....", ".....", ".....", "....#"]
    response = domino({"board": board}, mode="trace", limit=None)
    assert response["ok"] and response["complete"] and not response["truncated"]
    cells = [step for step in response["steps"] if step["type"] == "cell"]
    # The DP runs with the shorter side across (here the board is transposed).
    assert sorted(tuple(step["cell"]) for step in cells) == sorted(board_cells(board))
    assert all(step["states"] >= 0 and step["depth"] == 0 for step in cells)
    assert response["count"] == response["total"] == domino({"board": board}, mode="count")["count"]
    boards = trace.replay(response["steps"])
    assert [sorted(place["cells"] for place in b) for b in boards] == response["solutions"]
    for tiling in response["solutions"]:
        assert_tiling(tiling, board_cells(board))
    solutions = [step for step in response["steps"] if step["type"] == "solution"]
    assert [step["number"] for step in solutions] == list(range(1, response["count"] + 1))
    assert {step["count"] for step in solutions} == {response["total"]}


def test_trace_of_4x4_ends_with_one_live_profile_and_36_tilings() -> None:
    response = domino({"rows": 4, "cols": 4}, mode="trace")
    cells = [step for step in response["steps"] if step["type"] == "cell"]
    assert len(cells) == 16 and cells[-1]["states"] == 1
    assert response["steps"][-1]["type"] == "solution" and response["steps"][-1]["count"] == 36
    assert response["count"] == 1 and not response["complete"]


def test_trace_respects_max_steps_and_refuses_the_formula() -> None:
    cut = domino({"rows": 6, "cols": 6}, mode="trace", max_steps=10)
    assert cut["truncated"] and not cut["complete"] and len(cut["steps"]) == 10
    assert cut["count"] == 0 and cut["solutions"] == []
    refused = domino({"rows": 6, "cols": 6}, mode="trace", engine="formula")
    assert not refused["ok"] and refused["error"]["path"] == "engine"
    no_heatmap = domino({"rows": 2, "cols": 2}, mode="count", heatmap=True)
    assert not no_heatmap["ok"] and no_heatmap["error"]["path"] == "heatmap"


# ---------------------------------------------------------------- engine cftp


def test_cftp_samples_valid_tilings_far_beyond_the_dp_width() -> None:
    board = ["." * 40] * 24 + ["#" * 10 + "." * 30] * 10
    response = domino({"board": board}, mode="random", engine="cftp", seed=5, limit=2)
    assert response["ok"] and response["engine"] == "cftp"
    assert response["count"] == 2 and not response["complete"]
    for tiling in response["solutions"]:
        assert_tiling(tiling, board_cells(board))
    again = domino({"board": board}, mode="random", engine="cftp", seed=5, limit=2)
    assert again["solutions"] == response["solutions"]


def test_cftp_drops_repeats_and_handles_boards_without_tilings() -> None:
    response = domino({"rows": 2, "cols": 3}, mode="random", engine="cftp", seed=1, limit=40)
    assert response["count"] == 3 and len({key(t) for t in response["solutions"]}) == 3
    none = domino({"board": ["##.#", "....", "#.##"]}, mode="random", engine="cftp")
    assert none["ok"] and none["count"] == 0 and none["complete"]


@pytest.mark.parametrize(
    ("request_fields", "puzzle", "code", "words"),
    [
        ({"mode": "count"}, {"rows": 4, "cols": 4}, "invalid_request", "only samples"),
        ({"mode": "random"}, {"board": ["....", ".##.", ".##.", "...."]}, "invalid_puzzle", "hole"),
        ({"mode": "random"}, {"rows": 301, "cols": 300}, "too_large", "at most 90,000"),
    ],
)
def test_cftp_refusals_are_clear(request_fields: dict, puzzle: dict, code: str, words: str) -> None:
    response = domino(puzzle, engine="cftp", **request_fields)
    assert not response["ok"]
    assert response["error"]["code"] == code and words in response["error"]["message"]


def test_random_mode_takes_cftp_by_default_only_where_the_dp_cannot_go() -> None:
    wide = domino({"rows": 30, "cols": 30}, mode="random", seed=3)
    assert wide["ok"] and wide["engine"] == "cftp" and wide["count"] == 1
    assert_tiling(wide["solutions"][0], board_cells(["." * 30] * 30))
    narrow = domino({"rows": 8, "cols": 30}, mode="random", seed=3)
    assert narrow["ok"] and narrow["engine"] == "profile_dp" and "total" in narrow
    counted = domino({"rows": 30, "cols": 30}, mode="count")
    assert counted["engine"] == "formula"
    # A hole keeps the default on the DP, which then says the board is too big for it.
    holed = ["." * 30] * 10 + ["." * 10 + "##" + "." * 18] + ["." * 30] * 19
    refused = domino({"board": holed}, mode="random")
    assert not refused["ok"] and refused["error"]["code"] == "too_large"


def test_cftp_draws_at_most_the_listing_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(budget, "MAX_LISTED", 3)
    response = domino({"rows": 6, "cols": 6}, mode="random", engine="cftp", seed=2, limit=50)
    assert response["ok"] and 0 < response["count"] <= 3 and not response["complete"]
    assert len(response["solutions"]) == response["count"]


@pytest.mark.parametrize("mode", ["solve", "random"])
def test_a_big_limit_lists_the_first_tilings_and_counts_them_all(mode: str) -> None:
    # 2 x 60 has 2,504,730,781,961 tilings (Fibonacci): far past the listing cap.
    response = solve(
        {"kind": "domino", "mode": mode, "seed": 1, "limit": 100_000,
         "puzzle": {"rows": 2, "cols": 60}}
    )  # fmt: skip
    assert response["ok"], response
    assert response["count"] == 100_000 and response["complete"] is False
    assert response["solutions_truncated"] is True
    assert 0 < len(response["solutions"]) <= budget.MAX_LISTED
    assert len({str(tiling) for tiling in response["solutions"]}) == len(response["solutions"])


@pytest.mark.parametrize(
    ("mode", "puzzle", "engine"),
    [
        ("count", {"rows": 8, "cols": 8}, "formula"),
        ("count", {"rows": 4, "cols": 4, "blocked": [[0, 0], [3, 3]]}, "profile_dp"),
        # Trimmed first: a blocked border column leaves a whole rectangle.
        ("count", {"rows": 4, "cols": 5, "blocked": [[r, 4] for r in range(4)]}, "formula"),
        ("random", {"rows": 8, "cols": 8}, "profile_dp"),
        ("random", {"rows": 30, "cols": 30}, "cftp"),
        ("solve", {"rows": 8, "cols": 8}, "profile_dp"),
    ],
)
def test_the_default_follows_the_rules_the_page_is_told(
    mode: str, puzzle: dict, engine: str
) -> None:
    from pysolver.facts import site_facts

    facts = site_facts()["kinds"]["domino"]
    rule = next((r["engine"] for r in facts["default_rules"] if r["mode"] == mode), None)
    names = [entry["name"] for entry in facts["engines"]]
    assert rule is None or rule in names
    response = domino(puzzle, mode=mode, limit=1, seed=1)
    assert response["ok"], response
    assert response["engine"] == engine
    # No rule fits: the first engine, which the facts name as the default.
    if engine == facts["default_engine"]:
        assert all(
            not (r["mode"] == mode and r["engine"] == engine) for r in facts["default_rules"]
        )
