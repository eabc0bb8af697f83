"""N-queens: the known counts, an independent brute force, placed queens, errors, random, trace,
heatmap and parallel search."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from pysolver import api, parallel, solve
from pysolver.engines import trace
from pysolver.kinds import queens

ENGINES = queens.ENGINES
# OEIS A000170, n = 1 .. 12.
KNOWN_COUNTS = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200]


def run(puzzle: Any, **request: Any) -> dict[str, Any]:
    response = solve({"kind": "queens", "puzzle": puzzle, **request})
    assert response["ok"], response
    return response


def error_of(puzzle: Any, **request: Any) -> dict[str, str]:
    response = solve({"kind": "queens", "puzzle": puzzle, **request})
    assert not response["ok"], response
    return response["error"]


def brute_force(n: int, placed: list[list[int]] = ()) -> list[list[list[int]]]:
    """Every solution in the kind's JSON form, by plain backtracking: row after row, every
    column that no queen above attacks (the placed queen's column in its row), in order."""
    fixed = {r: c for r, c in placed}
    found = []
    cols: list[int] = []

    def place_row(r: int) -> None:
        if r == n:
            found.append([[row, col] for row, col in enumerate(cols)])
            return
        for c in [fixed[r]] if r in fixed else range(n):
            if all(c != col and abs(c - col) != r - row for row, col in enumerate(cols)):
                cols.append(c)
                place_row(r + 1)
                cols.pop()

    place_row(0)
    return found


def assert_valid(n: int, solution: list[list[int]]) -> None:
    assert len(solution) == n and solution == sorted(solution)
    for first, second in itertools.combinations(solution, 2):
        assert queens.attack(tuple(first), tuple(second)) is None, (first, second)


@pytest.mark.parametrize("engine", ENGINES)
def test_counts_match_an_independent_brute_force(engine: str) -> None:
    for n in range(1, 9):
        expected = brute_force(n)  # in row order, as sorted solutions are
        assert len(expected) == KNOWN_COUNTS[n - 1]
        counted = run({"n": n}, mode="count", limit=None, engine=engine)
        assert (counted["count"], counted["complete"]) == (len(expected), True), n
        listed = run({"n": n}, limit=None, engine=engine)
        assert sorted(listed["solutions"]) == expected, n


@pytest.mark.parametrize("n", [9, 10])
def test_counts_of_nine_and_ten_match_the_brute_force(n: int) -> None:
    assert run({"n": n}, mode="count", limit=None)["count"] == len(brute_force(n))


@pytest.mark.slow  # seconds; nine and ten are checked by brute force in the quick run
def test_count_of_twelve_is_the_known_one() -> None:
    assert run({"n": 12}, mode="count", limit=None)["count"] == 14200


@pytest.mark.slow
def test_count_of_fourteen_is_the_known_one() -> None:
    # About 12 s of CPU with bitset, split over two worker processes.
    response = run({"n": 14}, mode="count", limit=None, jobs=2)
    assert (response["count"], response["complete"]) == (365_596, True)


def test_solutions_are_sorted_by_row_and_valid() -> None:
    response = run({"n": 8}, limit=5)
    assert response["count"] == 5 and not response["complete"]
    for solution in response["solutions"]:
        assert_valid(8, solution)


@pytest.mark.parametrize("engine", ENGINES)
def test_placed_queens_shrink_the_matrix_and_keep_the_count_right(engine: str) -> None:
    board = queens.parse_puzzle({"n": 8, "queens": [[0, 0]]})
    encoding = queens.encode(board)
    # Row 0 and column 0 leave, and every cell the queen attacks: 49 cells minus 7 diagonal.
    assert encoding.problem.primary == 14
    assert len(encoding.problem.options) == 49 - 7
    for placed in ([[0, 0]], [[3, 5], [0, 1]], [[1, 1]], [[2, 0], [0, 1]]):
        expected = brute_force(8, placed)
        response = run({"n": 8, "queens": placed}, limit=None, engine=engine)
        assert sorted(response["solutions"]) == expected, placed
        for solution in response["solutions"]:
            assert all(queen in solution for queen in placed)


def test_a_full_placement_is_its_own_solution() -> None:
    placed = [[2, 0], [0, 1], [3, 2], [1, 3]]
    response = run({"n": 4, "queens": placed}, mode="count")
    assert (response["count"], response["complete"]) == (1, True)
    assert run({"n": 4, "queens": placed})["solutions"] == [sorted(placed)]


def test_n_has_its_limit() -> None:
    run({"n": queens.MAX_N})
    assert error_of({"n": queens.MAX_N + 1}) == {
        "code": "too_large",
        "message": f"puzzle.n is {queens.MAX_N + 1}; the largest board has side {queens.MAX_N}",
        "path": "puzzle.n",
    }


@pytest.mark.parametrize(
    ("puzzle", "path", "words"),
    [
        ({}, "puzzle.n", 'needs "n"'),
        ({"n": 0}, "puzzle.n", "at least 1"),
        ({"n": "8"}, "puzzle.n", "must be an integer"),
        ({"n": 8, "queens": {}}, "puzzle.queens", "must be a list"),
        ({"n": 8, "queens": [[1]]}, "puzzle.queens[0]", "[row, col]"),
        ({"n": 8, "queens": [[1, 2], 5]}, "puzzle.queens[1]", "must be a list"),
        ({"n": 8, "queens": [[1, 8]]}, "puzzle.queens[0][1]", "at most 7"),
        ({"n": 8, "queens": [[-1, 0]]}, "puzzle.queens[0][0]", "at least 0"),
        ({"n": 8, "queens": [[1, True]]}, "puzzle.queens[0][1]", "must be an integer"),
        ({"n": 8, "queens": [[1, 2], [1, 2]]}, "puzzle.queens[1]", "the same cell"),
        ({"n": 8, "queens": [[1, 2], [1, 6]]}, "puzzle.queens[1]", "the same row"),
        ({"n": 8, "queens": [[0, 0], [1, 3], [7, 3]]}, "puzzle.queens[2]", "the same column"),
        ({"n": 8, "queens": [[1, 2], [4, 5]]}, "puzzle.queens[1]", "the same diagonal"),
        ({"n": 8, "queens": [[1, 2], [3, 0]]}, "puzzle.queens[1]", "the same diagonal"),
    ],
)
def test_bad_puzzles_are_refused_with_their_paths(puzzle: Any, path: str, words: str) -> None:
    error = error_of(puzzle)
    assert (error["code"], error["path"]) == ("invalid_puzzle", path)
    assert words in error["message"], error["message"]


def test_attacking_queens_are_both_named() -> None:
    message = error_of({"n": 8, "queens": [[0, 0], [1, 3], [6, 6]]})["message"]
    assert message == (
        "the queen at row 7, column 7 is on the same diagonal as the queen at row 1, column 1; "
        "placed queens must not attack each other"
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_random_mode_is_seeded_and_gives_distinct_valid_solutions(engine: str) -> None:
    first = run({"n": 8}, mode="random", seed=5, limit=10, engine=engine)
    again = run({"n": 8}, mode="random", seed=5, limit=10, engine=engine)
    other = run({"n": 8}, mode="random", seed=6, limit=10, engine=engine)
    assert first["solutions"] == again["solutions"]
    assert first["solutions"] != other["solutions"]
    assert len({str(solution) for solution in first["solutions"]}) == 10
    every = run({"n": 8}, limit=None)["solutions"]
    assert all(solution in every for solution in first["solutions"])
    shuffled = run({"n": 8}, mode="random", seed=5, limit=None, engine=engine)["solutions"]
    assert sorted(shuffled) == sorted(every) and shuffled != every


@pytest.mark.parametrize("placed", [[], [[0, 1]]])
def test_trace_replays_to_the_solutions_and_names_lines(placed: list[list[int]]) -> None:
    response = run({"n": 6, "queens": placed}, mode="trace", limit=None, max_steps=100_000)
    assert response["complete"] and not response["truncated"]
    assert response["count"] == len(brute_force(6, placed)) > 0
    boards = trace.replay(response["steps"])
    from_steps = [sorted([*placed, *(place["queen"] for place in board)]) for board in boards]
    assert from_steps == response["solutions"]
    chosen = [step["item"] for step in response["steps"] if step["type"] == "choose"]
    assert all(list(item) in (["row"], ["col"]) for item in chosen)
    assert response["steps"][0]["text"].startswith(("Row ", "Column "))
    first_try = next(step for step in response["steps"] if step["type"] == "try")
    row, col = first_try["place"]["queen"]
    # Words count rows and columns from 1; the JSON stays 0-based.
    assert first_try["text"].startswith(f"Try a queen on row {row + 1}, column {col + 1} for ")


def test_trace_respects_max_steps() -> None:
    response = run({"n": 8}, mode="trace", limit=None, max_steps=50)
    assert response["truncated"] and not response["complete"]
    assert len(response["steps"]) == 50


@pytest.mark.parametrize("engine", ENGINES)
def test_heatmap_counts_queens_per_cell_over_every_solution(engine: str) -> None:
    placed = [[0, 2]]
    solutions = brute_force(7, placed)
    expected = [[0] * 7 for _ in range(7)]
    for solution in solutions:
        for r, c in solution:
            expected[r][c] += 1
    response = run({"n": 7, "queens": placed}, mode="count", heatmap=True, engine=engine)
    assert response["count"] == len(solutions) > 1
    assert response["heatmap"] == {"queen": expected}
    capped = run({"n": 7}, mode="count", heatmap=True, limit=3)
    assert capped["count"] == 3 and not capped["complete"]
    assert sum(map(sum, capped["heatmap"]["queen"])) == 3 * 7


# Worker pools take seconds to start: the quick run checks count and random, the slow solve.
@pytest.mark.parametrize("mode", ["count", pytest.param("solve", marks=pytest.mark.slow), "random"])
def test_parallel_search_equals_the_serial_one(mode: str) -> None:
    for puzzle in ({"n": 8}, {"n": 9, "queens": [[4, 4]]}):
        request = {"kind": "queens", "mode": mode, "limit": None, "seed": 3, "puzzle": puzzle}
        serial = solve(request)
        for runner in (parallel.InlineRunner(api.answer_task), None):
            if runner is None:
                merged = solve(dict(request, jobs=2))  # jobs 2: a pool of worker processes
            else:
                merged = solve(dict(request, jobs=2), runner=runner)
            assert merged["ok"], merged
            assert merged["count"] == serial["count"] and merged["complete"]
            if mode == "random":
                assert sorted(merged["solutions"]) == sorted(serial["solutions"])
            else:
                assert merged["solutions"] == serial["solutions"]
