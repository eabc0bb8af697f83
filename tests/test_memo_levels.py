"""The memo count by levels: counts equal to dlx and the memo walk on random narrow boards and
matrices with secondary items, the same nodes on any number of lanes, the lanes' share of a
level, the fallbacks (a level too wide, lanes lost), cancel and progress."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pysolver.engines import cover, memo, memo_levels
from pysolver.engines.cover import ExactCoverProblem, search
from pysolver.engines.memo_levels import Expanded, HeldLanes, Level, LevelWalk, Part
from pysolver.engines.monitor import Monitor
from pysolver.kinds.polyomino.encoding import encode
from pysolver.kinds.polyomino.parsing import parse_puzzle
from pysolver.kinds.polyomino.pieces import LIBRARY
from tests.test_memo import random_tiling_problems

SMALL_PIECES = [name for name, shape in LIBRARY.items() if 3 <= len(shape) <= 4]


def tiling(board: list[str], pieces: list[Any]) -> ExactCoverProblem:
    return encode(parse_puzzle({"board": board, "pieces": pieces})).problem


def random_narrow_puzzle(rng: random.Random) -> dict[str, Any]:
    """A rectangle 2-3 cells wide and longer than wide, with random pieces of 3-4 cells (some
    in copies) whose areas add up to the board's: a board the level count takes."""
    while True:
        rows = rng.randint(2, 3)
        cols = rng.randint(rows + 1, 8)
        board = ["." * cols] * rows
        if rng.random() < 0.5:
            board = ["." * rows] * cols  # tall: swept along its rows
        left = rows * cols
        pieces: list[Any] = []
        while left > 0:
            fitting = [name for name in SMALL_PIECES if len(LIBRARY[name]) <= left]
            if not fitting:
                break
            name = rng.choice(fitting)
            size = len(LIBRARY[name])
            copies = rng.randint(1, max(1, left // size // 2))
            cells = [list(cell) for cell in LIBRARY[name]]
            pieces.append({"name": f"{name}{len(pieces)}", "cells": cells, "count": copies})
            left -= size * copies
        if not left:
            return {"board": board, "pieces": pieces}


def random_narrow_tilings(count: int, seed: int) -> list[ExactCoverProblem]:
    rng = random.Random(seed)
    return [
        tiling(**random_narrow_puzzle(rng))  # type: ignore[arg-type]
        for _ in range(count)
    ]


def with_secondary_items(problem: ExactCoverProblem, rng: random.Random) -> ExactCoverProblem:
    """The problem with 3 secondary items given to random options (at most once per cover)."""
    first = problem.primary + problem.secondary
    options = [
        [*option, *(first + s for s in range(3) if rng.random() < 0.15)]
        for option in problem.options
    ]
    return ExactCoverProblem(
        problem.primary, problem.secondary + 3, options, item_cells=problem.item_cells
    )


def dlx_count(problem: ExactCoverProblem) -> int:
    result = search(problem, "dlx", keep_solutions=False)
    assert result.complete
    return result.count


class SplitHere(HeldLanes):
    """``count`` lanes, every part expanded in this process (each with its own lane's walk)."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.sizes: list[list[int]] = []

    def expand(self, walk: LevelWalk, parts: list[Part], monitor: Monitor) -> list[Expanded]:
        self.sizes.append([len(set().union(*part)) for part in parts])
        return super().expand(walk, parts, monitor)


def test_counts_match_dlx_on_random_narrow_tilings() -> None:
    for problem in random_narrow_tilings(25, seed=1):
        assert memo_levels.suits(problem)
        counted = memo_levels.count(problem, Monitor())
        assert counted.complete
        assert counted.count == dlx_count(problem) == memo.count(problem, Monitor()).count


def test_counts_match_dlx_with_secondary_items() -> None:
    rng = random.Random(2)
    for problem in random_narrow_tilings(15, seed=2):
        problem = with_secondary_items(problem, rng)
        assert memo_levels.count(problem, Monitor()).count == dlx_count(problem)


def test_pentomino_counts_with_the_root_orbits() -> None:
    # 3x20 and 4x15 pentominoes: 8 and 1,472 tilings, symmetric ones included (each tiling's
    # orbit under the board's symmetry counted whole).
    for board, expected in ((["." * 20] * 3, 8), (["." * 15] * 4, 1472)):
        counted = memo_levels.count(tiling(board, ["pentominoes"]), Monitor())
        assert (counted.count, counted.complete) == (expected, True)
        assert counted.stats["levels"] == 12  # one piece placed (the orbits) to all 12


@pytest.mark.parametrize("lanes", [2, 3, 5])
def test_any_number_of_lanes_expands_each_sub_board_once(lanes: int) -> None:
    # The lanes own disjoint sub-boards: the nodes are the one-lane count's, whatever the lanes.
    for problem in random_narrow_tilings(6, seed=3) + [tiling(["." * 15] * 4, ["pentominoes"])]:
        alone = memo_levels.count(problem, Monitor())
        split = SplitHere(lanes)
        counted = memo_levels.count(problem, Monitor(), split)
        assert (counted.count, counted.stats["nodes"]) == (alone.count, alone.stats["nodes"])


def test_a_level_is_shared_out_evenly() -> None:
    split = SplitHere(2)
    memo_levels.count(tiling(["." * 15] * 4, ["pentominoes"]), Monitor(), split)
    wide = [sizes for sizes in split.sizes if sum(sizes) > 500]
    assert wide
    for first, second in wide:
        assert 0.4 < first / (first + second) < 0.6, wide


def test_boards_take_levels_and_bare_matrices_do_not() -> None:
    assert memo_levels.suits(tiling(["." * 10] * 6, ["pentominoes"]))
    assert memo_levels.suits(tiling(["." * 8] * 8, ["pentominoes", "O4"]))  # by anti-diagonals
    problem = tiling(["." * 10] * 6, ["pentominoes"])
    bare = ExactCoverProblem(problem.primary, problem.secondary, problem.options)
    assert not memo_levels.suits(bare)  # no cells: no order of its own
    coloured = ExactCoverProblem(1, 1, [[0, 1]], colours=[[0, 1]], item_cells=[(0, 0)])
    assert not memo_levels.suits(coloured)


def test_counts_match_dlx_on_random_boards_with_holes_and_squares() -> None:
    for problem in random_tiling_problems(40, seed=5):
        if memo_levels.suits(problem):
            assert memo_levels.count(problem, Monitor()).count == dlx_count(problem)


def walk_count(walk: LevelWalk) -> tuple[int, int]:
    """The count and nodes of a level count on one lane with ``walk``'s tables."""
    found = nodes = 0
    level = [dict(walk.first_level)]
    while level[0]:
        expanded = walk.expand(level, 1, Monitor())
        found, nodes = found + expanded.found, nodes + expanded.nodes
        level = expanded.parts
    return found, nodes


def test_boards_not_swept_branch_on_the_tightest_first_item_with_the_same_count() -> None:
    branched = 0
    for problem in random_tiling_problems(40, seed=6):
        if not memo_levels.suits(problem):
            continue
        walk = LevelWalk(problem)
        assert walk.fewest_first == (memo.sweep_order(problem) is None)
        if not walk.fewest_first:
            continue
        branched += 1
        tightest = walk_count(walk)
        walk.fewest_first = False
        walk.next_free = memo_levels.next_free(memo_levels.CHECKED_AFTER_FIRST)
        first = walk_count(walk)
        assert tightest[0] == first[0]
        assert tightest[1] <= first[1]
        assert tightest[0] == dlx_count(problem)
    assert branched >= 10


def test_the_mirror_keeps_cells_on_their_lines_and_changes_no_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 6x10 swept by columns: the flip top to bottom; 8x8 by anti-diagonals: the transpose.
    for board, pieces, moved in (
        (["." * 10] * 6, ["pentominoes"], lambda r, c: (5 - r, c)),
        (["." * 8] * 8, ["pentominoes", "O4"], lambda r, c: (c, r)),
    ):
        problem = tiling(board, pieces)
        cells = problem.item_cells
        assert cells is not None
        order, lines = memo_levels.level_order(problem) or ([], [])
        _, items = memo_levels._mirror(problem, lines, memo.grid_symmetries(problem))
        assert [cells[items[item]] for item in range(len(cells))] == [moved(*c) for c in cells]
    problem = tiling(["." * 15] * 4, ["pentominoes"])
    mirrored = memo_levels.count(problem, Monitor())
    walk = LevelWalk(problem)
    identity = list(range(problem.items))
    monkeypatch.setattr(
        memo_levels, "_mirror", lambda p, lines, symmetries: (list(range(len(p.options))), identity)
    )
    plain = memo_levels.count(problem, Monitor())
    assert mirrored.count == plain.count == 1472
    assert mirrored.stats["nodes"] < 0.9 * plain.stats["nodes"]
    assert walk.mirrored_key_of != walk.key_of


def test_the_memo_engine_counts_by_levels_only_on_offered_lanes() -> None:
    problem = tiling(["." * 15] * 4, ["pentominoes"])
    walked = search(problem, "memo", keep_solutions=False)
    assert "levels" not in walked.stats
    with memo_levels.offered(SplitHere(2)):
        levelled = search(problem, "memo", keep_solutions=False)
        listed = search(problem, "memo", limit=3)  # not a whole count: the walk's
    assert (levelled.count, levelled.stats["lanes"]) == (walked.count, 2)
    assert "levels" not in listed.stats and len(listed.solutions) == 3
    assert memo_levels.offered_lanes() is None


def test_a_level_too_wide_for_the_budget_is_counted_by_the_memo_walk(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    problem = tiling(["." * 15] * 4, ["pentominoes"])
    monkeypatch.setattr(memo_levels, "memo_cap", lambda _problem: 100)
    with pytest.raises(memo_levels.TooWide):
        memo_levels.count(problem, Monitor())
    with memo_levels.offered(SplitHere(2)):
        counted = search(problem, "memo", keep_solutions=False)
    assert counted.count == 1472 and "levels" not in counted.stats


class LostAfter(HeldLanes):
    """Lanes that lose their level after ``steps`` steps (a cluster gone)."""

    count = 2

    def __init__(self, steps: int) -> None:
        self.steps = steps

    def step(self, monitor: Monitor) -> Level:
        if not self.steps:
            raise memo_levels.LanesLost("the cluster was lost")
        self.steps -= 1
        return super().step(monitor)


def test_lanes_lost_mid_count_leave_it_to_the_memo_walk() -> None:
    problem = tiling(["." * 15] * 4, ["pentominoes"])
    with memo_levels.offered(LostAfter(4)):
        counted = cover.search(problem, "memo", keep_solutions=False)
    assert (counted.count, counted.complete) == (1472, True)
    assert "levels" not in counted.stats


def test_cancel_and_progress() -> None:
    problem = tiling(["." * 12] * 5, ["pentominoes"])
    reports: list[dict[str, Any]] = []
    Monitor.interval, interval = 0.0, Monitor.interval
    try:
        counted = memo_levels.count(problem, Monitor(reports.append))
        looks = [0]

        def cancel() -> bool:
            looks[0] += 1
            return looks[0] > 3

        stopped = memo_levels.count(problem, Monitor(cancel=cancel))
    finally:
        Monitor.interval = interval
    assert (counted.count, counted.complete) == (4040, True)
    fractions = [report["fraction"] for report in reports]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0 and len(fractions) > 5
    assert reports[-1]["solutions"] == 4040
    assert (stopped.complete, stopped.cancelled) == (False, True)
    assert stopped.count < 4040
