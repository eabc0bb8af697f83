"""The tracing Algorithm X: the same tree as dlx, bitset and singles, honest steps, colours."""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest

from pysolver.engines import bitset, dlx, singles, trace
from pysolver.engines.cover import ExactCoverProblem
from pysolver.engines.monitor import Monitor
from pysolver.kinds import sudoku


def raw_place(step: dict) -> dict:
    """Raw engine steps carry ``option``; replay reads ``place``."""
    if step["type"] in ("try", "force"):
        return {**step, "place": step["option"]}
    return step


TOP95 = (Path(__file__).parent / "data" / "top95.txt").read_text().split()


def sudoku_problem(grid: str) -> ExactCoverProblem:
    """The sudoku kind's matrix of a 9x9 grid."""
    puzzle = {"grid": grid}
    n, box_rows, box_cols, values, _ = sudoku.parse_puzzle(puzzle)
    return sudoku.encode(n, box_rows, box_cols, values, sudoku.parse_variants(puzzle, n, values))[0]


def traced(problem: ExactCoverProblem, **options) -> tuple:
    recorder = trace.Recorder(10**6)
    result = trace.search(problem, recorder, **options)
    return result, recorder


@pytest.mark.parametrize("limit", [None, 1, 2])
def test_walks_the_tree_of_dlx_and_bitset(random_problems, limit) -> None:
    for problem in random_problems:
        expected = dlx.search(problem, limit=limit)
        result, _ = traced(problem, limit=limit)
        assert result.solutions == expected.solutions, problem
        assert result.stats["nodes"] == expected.stats["nodes"], problem
        assert result.stats["nodes"] == bitset.search(problem, limit=limit).stats["nodes"]


@pytest.mark.parametrize("limit", [None, 1, 3])
def test_walks_the_tree_of_singles_when_asked(random_problems, limit) -> None:
    for problem in random_problems:
        expected = singles.search(problem, limit=limit)
        result, _ = traced(problem, limit=limit, singles=True)
        assert result.solutions == expected.solutions, problem
        assert result.stats["nodes"] == expected.stats["nodes"], problem


@pytest.mark.parametrize("limit", [None, 1, 3])
def test_walks_the_tree_of_locked_when_asked(random_problems, limit) -> None:
    for problem in random_problems:
        expected = singles.search(problem, limit=limit, locked=True)
        result, _ = traced(problem, limit=limit, singles=True, locked=True)
        assert result.solutions == expected.solutions, problem
        assert result.stats["nodes"] == expected.stats["nodes"], problem


def test_locked_walks_the_tree_of_the_engine_on_hard_sudoku() -> None:
    # Where locked candidates strike often: the first top95 puzzles that branch under them.
    for grid in TOP95[3:8]:
        problem = sudoku_problem(grid)
        expected = singles.search(problem, limit=2, locked=True)
        result, recorder = traced(problem, limit=2, singles=True, locked=True)
        assert (result.solutions, result.stats) == (expected.solutions, expected.stats)
        trace.replay([raw_place(step) for step in recorder.steps])


def test_same_nodes_as_the_engines_on_eight_queens(queens) -> None:
    problem = queens(8)
    for limit in (None, 5):
        assert traced(problem, limit=limit)[0].stats == {
            "nodes": dlx.search(problem, limit=limit).stats["nodes"]
        }
        assert (
            traced(problem, limit=limit, singles=True)[0].stats
            == singles.search(problem, limit=limit).stats
        )


@pytest.mark.parametrize("use_singles", [False, True])
def test_replaying_the_steps_gives_every_solution(random_problems, use_singles) -> None:
    for problem in random_problems:
        result, recorder = traced(problem, limit=None, singles=use_singles)
        boards = trace.replay([raw_place(step) for step in recorder.steps])
        assert [sorted(board) for board in boards] == result.solutions, problem


def test_steps_have_the_documented_shapes(queens) -> None:
    _, recorder = traced(queens(6), limit=None)
    types = {step["type"] for step in recorder.steps}
    assert types == {"choose", "try", "backtrack", "solution"}
    for step in recorder.steps:
        assert step["depth"] >= 0
        if step["type"] == "try":
            assert 0 <= step["index"] < step["of"]
    _, recorder = traced(queens(6), limit=None, singles=True)
    assert "force" in {step["type"] for step in recorder.steps}


def test_a_full_recorder_stops_the_search_and_says_so(queens) -> None:
    problem = queens(8)
    _, full = traced(problem, limit=None)
    total = len(full.steps)
    assert not full.truncated
    exact = trace.Recorder(total)
    result = trace.search(problem, exact, limit=None)
    assert not exact.truncated and result.complete and result.count == 92
    short = trace.Recorder(total - 1)
    result = trace.search(problem, short, limit=None)
    assert short.truncated and not result.complete
    assert short.steps == full.steps[: total - 1]
    assert result.count == sum(step["type"] == "solution" for step in short.steps)


def test_the_root_dead_end_is_one_choose_step() -> None:
    problem = ExactCoverProblem(2, 0, [[0]])
    result, recorder = traced(problem)
    assert result.count == 0 and result.complete
    assert recorder.steps == [{"type": "choose", "depth": 0, "item": 1, "options": 0}]


def test_cancel_stops_the_trace(queens) -> None:
    monitor = Monitor(cancel=lambda: True)
    result = trace.search(queens(10), trace.Recorder(10**6), limit=None, monitor=monitor)
    assert result.cancelled and not result.complete


# ---------------------------------------------------------------- colours


def coloured_covers(problem: ExactCoverProblem, colours: list[dict[int, str]]) -> list[list[int]]:
    """Brute force with Knuth's colours: a secondary item is used by options that all give it
    the same colour, or by one uncoloured option."""
    covers = []
    for size in range(len(problem.options) + 1):
        for chosen in itertools.combinations(range(len(problem.options)), size):
            uses: dict[int, list] = {}
            for option in chosen:
                for item in problem.options[option]:
                    uses.setdefault(item, []).append(colours[option].get(item))
            primary_ok = all(len(uses.get(item, [])) == 1 for item in range(problem.primary))
            secondary_ok = all(
                len(shades) == 1 or (None not in shades and len(set(shades)) == 1)
                for item, shades in uses.items()
                if item >= problem.primary
            )
            every_has_primary = all(
                any(item < problem.primary for item in problem.options[option]) for option in chosen
            )
            if primary_ok and secondary_ok and every_has_primary:
                covers.append(list(chosen))
    return sorted(covers)


def test_colours_agree_with_brute_force() -> None:
    rng = random.Random(44)
    for _ in range(300):
        primary = rng.randint(1, 5)
        secondary = rng.randint(1, 3)
        options = []
        colours = []
        for _ in range(rng.randint(1, 9)):
            items = rng.sample(
                range(primary + secondary), min(rng.randint(1, 3), primary + secondary)
            )
            options.append(items)
            colours.append(
                {item: rng.choice("AB") for item in items if item >= primary and rng.random() < 0.7}
            )
        problem = ExactCoverProblem(primary, secondary, options)
        result, recorder = traced(problem, limit=None, colours=colours)
        assert sorted(result.solutions) == coloured_covers(problem, colours), (options, colours)
        boards = trace.replay([raw_place(step) for step in recorder.steps])
        assert [sorted(board) for board in boards] == result.solutions


def test_replay_refuses_a_skipped_level() -> None:
    with pytest.raises(ValueError, match="skips a level"):
        trace.replay([{"type": "try", "depth": 1, "place": 0}])


# Every grid kind's trace, with the words its first steps must say: rows and columns count
# from 1 in words (as Sudoku's always did), clues too; the JSON (place) stays 0-based.
WORDED_TRACES = [
    (
        {
            "kind": "shikaku",
            "engine": "propagate",
            "puzzle": {"rows": 3, "cols": 3, "clues": [[0, 0, 3], [1, 1, 3], [2, 2, 3]]},
        },
        "Split clue 1 (the 3 at row 1, column 1): the 1x3 rectangle at row 1, column 1, or "
        "the other one",
    ),
    (
        {
            "kind": "shikaku",
            "engine": "dlx",
            "puzzle": {"rows": 1, "cols": 2, "clues": [[0, 1, 2]]},
        },
        "Try the 1x2 rectangle at row 1, column 1 of clue 1 (the 2 at row 1, column 2) for the "
        "cell at row 1, column 1 (option 1 of 1)",
    ),
    (
        {"kind": "polyomino", "puzzle": {"board": ["....", "...."], "pieces": ["O4", "I4"]}},
        "Try O4 at row 1, column 1 for the cell at row 1, column 1 (option 1 of 2)",
    ),
    (
        {"kind": "queens", "puzzle": {"n": 4}},
        "Try a queen on row 2, column 1 for row 2 (option 1 of 4)",
    ),
    (
        {"kind": "domino", "puzzle": {"rows": 2, "cols": 3}},
        "Tiling 1: a domino on row 1, column 1 and row 2, column 1, read back from the counts",
    ),
    (
        {"kind": "domino", "puzzle": {"rows": 2, "cols": 3}},
        "The cell at row 1, column 3 swept: 1 frontier profile reached by some partial tiling",
    ),
]


@pytest.mark.parametrize(("request_", "words"), WORDED_TRACES)
def test_trace_words_count_rows_columns_and_clues_from_one(request_: dict, words: str) -> None:
    from pysolver import solve

    response = solve({**request_, "mode": "trace", "max_steps": 200})
    texts = [step["text"] for step in response["steps"]]
    assert words in texts, texts[:12]
    for text in texts:
        # No programmer's "(0, 2)" pair, and no clue numbered 0, anywhere a person reads.
        assert not re.search(r"\(\d+, \d+\)", text), text
        assert not re.search(r"\b[Cc]lue 0\b", text), text


@pytest.mark.slow
def test_a_cancel_stops_the_trace_of_an_empty_36x36_sudoku_within_half_a_second() -> None:
    # A node there scans 5,184 items per step: the 512 nodes between checks took 2 s. The
    # cancel comes after the matrix is built (0.3 s), where the search's own checks answer.
    from time import perf_counter

    import pysolver

    started = perf_counter()
    response = pysolver.solve(
        # The most steps a trace takes: the default 2,000 took 0.66 s on a quiet machine.
        {
            "kind": "sudoku",
            "mode": "trace",
            "max_steps": 100_000,
            "puzzle": {"grid": [[0] * 36 for _ in range(36)]},
        },
        cancel=lambda: perf_counter() - started > 1.0,
    )
    assert perf_counter() - started < 1.5
    assert response["ok"] and response["cancelled"] is True and response["complete"] is False
