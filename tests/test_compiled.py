"""The compiled walk (numba, ``pysolver.engines.compiled``) against the pure-Python walks it
stands in for: the same counts, node counts, memo figures and solutions in the same order, on
the random matrices and boards the engine tests use.

Skipped when numba is not installed, except under ``python3 build.py test``
(PYSOLVER_REQUIRE_NUMBA=1), whose environment installs it.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from test_memo import random_tiling_problems

from pysolver import budget, solve
from pysolver.engines import bitset, memo
from pysolver.engines.cover import ExactCoverProblem
from pysolver.engines.monitor import Monitor, SearchResult, StageMonitor
from pysolver.kinds.polyomino.encoding import encode
from pysolver.kinds.polyomino.parsing import parse_puzzle
from tests.conftest import queens_problem

try:
    import numba  # noqa: F401
except ImportError:
    if os.environ.get("PYSOLVER_REQUIRE_NUMBA") == "1":
        raise RuntimeError(
            "numba is not installed; python3 build.py test installs it (the fast extra)"
        ) from None
    pytest.skip("numba is not installed (the fast extra)", allow_module_level=True)

HOLE = ["." * 8] * 3 + ["...##..."] * 2 + ["." * 8] * 3


@pytest.fixture
def both(monkeypatch: pytest.MonkeyPatch) -> Callable[..., tuple[Any, Any]]:
    """``both(run)``: ``run()`` in pure Python and compiled, the two results."""

    def run_both(run: Callable[[], SearchResult[list[int]]]) -> tuple[Any, Any]:
        monkeypatch.setenv("PYSOLVER_PURE", "1")
        pure = run()
        monkeypatch.setenv("PYSOLVER_PURE", "0")
        fast = run()
        assert "kernel" not in pure.stats
        assert fast.stats["kernel"] == "numba"
        return pure, fast

    return run_both


def same(pure: SearchResult[list[int]], fast: SearchResult[list[int]], *keys: str) -> None:
    assert fast.count == pure.count
    assert fast.solutions == pure.solutions
    assert (fast.complete, fast.cancelled) == (pure.complete, pure.cancelled)
    for key in ("nodes", *keys):
        assert fast.stats[key] == pure.stats[key], key


def queens(size: int) -> ExactCoverProblem:
    return queens_problem(size)


def holed_board() -> ExactCoverProblem:
    return encode(parse_puzzle({"board": HOLE, "pieces": ["pentominoes"]})).problem


def test_searches_find_the_same_solutions_in_the_same_order(random_problems, both) -> None:
    for problem in [*random_problems, queens(6), queens(8)]:
        same(*both(partial(bitset.search, problem)), "mask_ops")
        for limit in (1, 2):
            same(*both(partial(bitset.search, problem, limit=limit)))
        same(*both(partial(bitset.search, problem, max_kept=1)))


def test_counts_walk_the_same_tree(random_problems, both) -> None:
    for problem in [*random_problems, queens(6), queens(9)]:
        same(*both(partial(bitset.search, problem, keep_solutions=False)), "mask_ops")
        same(*both(partial(bitset.search, problem, limit=3, keep_solutions=False)))


def test_colours_walk_the_same_tree(coloured_reference_covers, both) -> None:
    for problem, expected in coloured_reference_covers[:600]:
        pure, fast = both(partial(bitset.search, problem))
        same(pure, fast)
        assert sorted(fast.solutions) == sorted(expected)


def coverable(problem: ExactCoverProblem) -> bool:
    """Whether every primary item has an option (else the root is a dead end, answered
    before any walk)."""
    used = {item for option in problem.options for item in option}
    return all(item in used for item in range(problem.primary))


def test_memo_counts_agree_node_for_node(random_problems, both) -> None:
    plain = [problem for problem in random_problems if not problem.secondary and coverable(problem)]
    for problem in [*plain, *random_tiling_problems(150, 11)]:
        pure, fast = both(partial(memo.count, problem, Monitor()))
        same(pure, fast, "memo_hits", "memo_entries", "options_struck")


def test_memo_with_root_orbits_and_strikes_agrees(both) -> None:
    board = holed_board()
    pure, fast = both(lambda: memo.search(board, keep_solutions=False))
    same(pure, fast, "memo_hits", "memo_entries", "options_struck")
    assert fast.count == 520 and fast.stats["options_struck"] > 152  # strikes below the root
    fixed = encode(parse_puzzle({"board": ["." * 12] * 5, "pieces": ["pentominoes"]})).problem
    assert memo.root_orbits(fixed) is not None
    pure, fast = both(lambda: memo.search(fixed, keep_solutions=False))
    same(pure, fast, "memo_hits", "memo_entries", "options_struck")


def test_random_mode_draws_in_python_as_the_page_does(reference_covers, monkeypatch) -> None:
    # A seed picks the same covers with the extra as without it (and in Pyodide).
    for index, (problem, expected) in enumerate(reference_covers[:300]):
        monkeypatch.setenv("PYSOLVER_PURE", "1")
        pure = bitset.search(problem, limit=2, rng=random.Random(index))
        monkeypatch.setenv("PYSOLVER_PURE", "0")
        first = bitset.search(problem, limit=2, rng=random.Random(index))
        assert first.solutions == pure.solutions and "kernel" not in first.stats
        assert first.count == min(2, len(expected))
        assert all(solution in expected for solution in first.solutions)
        listed = bitset.search(problem, rng=random.Random(index))
        assert sorted(listed.solutions) == sorted(expected)


def test_the_solution_buffer_drains_and_max_kept_caps(monkeypatch) -> None:
    # 9 queens: 352 solutions, more than a small buffer holds at once.
    from pysolver.engines import compiled

    monkeypatch.setattr(compiled, "SOLUTION_ROWS", 8)
    monkeypatch.setenv("PYSOLVER_PURE", "1")
    pure = bitset.search(queens(9))
    monkeypatch.setenv("PYSOLVER_PURE", "0")
    fast = bitset.search(queens(9))
    assert fast.solutions == pure.solutions and len(fast.solutions) == 352
    capped = bitset.search(queens(9), max_kept=5)
    assert capped.count == 352 and capped.solutions == pure.solutions[:5]


def test_the_memo_table_grows_and_stops_at_the_budget(monkeypatch, both) -> None:
    from pysolver.engines import compiled

    board = holed_board()
    monkeypatch.setattr(compiled, "FIRST_SLOTS", 8)  # grows many times
    pure, fast = both(lambda: memo.search(board, keep_solutions=False))
    same(pure, fast, "memo_hits", "memo_entries")
    # A budget that holds the kernel's arrays but not a big table: the memo stops growing
    # early, the count stays exact.
    monkeypatch.setenv("PYSOLVER_PURE", "0")
    walk_bytes = compiled.kernel_bytes(board.primary, board.items, len(board.options), 6, 400)
    monkeypatch.setattr(budget, "BUDGET_BYTES", walk_bytes + 4096)
    tight = memo.search(board, keep_solutions=False)
    assert tight.count == 520
    if tight.stats.get("kernel"):
        assert tight.stats["memo_entries"] < fast.stats["memo_entries"]


def test_pure_python_runs_when_the_arrays_do_not_fit(monkeypatch) -> None:
    monkeypatch.setenv("PYSOLVER_PURE", "0")
    monkeypatch.setattr(budget, "BUDGET_BYTES", 20_000)
    result = bitset.search(queens(6), keep_solutions=False)
    assert result.count == 4 and "kernel" not in result.stats


def test_a_count_past_two_to_the_63_falls_back_to_python(monkeypatch) -> None:
    # 64 items with two options each: 2**64 covers, counted at once by the memo.
    problem = ExactCoverProblem(64, 0, [[item] for item in range(64) for _ in range(2)])
    monkeypatch.setenv("PYSOLVER_PURE", "0")
    result = memo.search(problem, keep_solutions=False)
    assert result.count == 2**64 and "kernel" not in result.stats


def test_cancel_progress_and_recent_solutions(monkeypatch) -> None:
    from pysolver.engines import compiled

    monkeypatch.setenv("PYSOLVER_PURE", "0")
    monkeypatch.setattr(compiled, "QUOTA", 64)
    board = holed_board()
    reports: list[dict[str, Any]] = []
    recent: list[list[int]] = []
    # Cancelled once a recent solution has come (the first solution is handed over at once).
    monitor = Monitor(reports.append, lambda: bool(recent), recent.append)
    monitor.interval = 0.0
    result = memo.search(board, keep_solutions=False, monitor=monitor)
    assert result.cancelled and not result.complete and result.stats["kernel"] == "numba"
    assert 0 < result.count < 520
    assert reports and all(0 <= report["fraction"] < 1 for report in reports[:-1])
    assert len(recent) == 1
    for options in recent:  # recent solutions are real tilings
        items = sorted(item for option in options for item in board.options[option])
        assert items[: board.primary] == list(range(board.primary))
    # A search's stop at a node budget, as the midend's stages use it.
    outer = Monitor()
    stage = StageMonitor(outer, 0, 0, budget=1000)
    stopped = bitset.search(queens(10), monitor=stage)
    assert stopped.cancelled and stage.over_budget


def test_requests_say_which_walk_ran(monkeypatch) -> None:
    # Langford pairs n=4 (2 covers) as an exact_cover request: a whole count on memo.
    items = [str(k) for k in range(1, 5)] + [f"p{i}" for i in range(8)]
    options = [[str(k), f"p{i}", f"p{i + k + 1}"] for k in range(1, 5) for i in range(7 - k)]
    puzzle = {"items": items, "options": options}
    request = {"kind": "exact_cover", "mode": "count", "puzzle": puzzle}
    monkeypatch.setenv("PYSOLVER_PURE", "0")
    fast = solve(request)
    monkeypatch.setenv("PYSOLVER_PURE", "1")
    pure = solve(request)
    assert fast["count"] == pure["count"] == 2
    assert fast["engine"] == pure["engine"] == "memo"
    assert fast["stats"]["kernel"] == "numba" and "kernel" not in pure["stats"]


def test_the_first_search_reports_the_jit_time(monkeypatch) -> None:
    from pysolver.engines import compiled

    monkeypatch.setenv("PYSOLVER_PURE", "0")
    monkeypatch.setattr(compiled, "_warmed", {})
    first = bitset.search(queens(6), keep_solutions=False)
    second = bitset.search(queens(6), keep_solutions=False)
    assert first.stats["jit_seconds"] >= 0 and "jit_seconds" not in second.stats
