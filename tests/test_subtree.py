"""Splitting exact cover and partition searches into subtrees: the parts make the whole."""

from __future__ import annotations

import random

import pytest

from bench.generators import shikaku_puzzle
from pysolver.engines import cover, propagate, singles
from pysolver.engines.cover import ExactCoverProblem
from pysolver.engines.subtree import InvalidPath
from pysolver.kinds import shikaku


def _run(engine: str):
    if engine == "singles":
        return lambda problem, **kw: singles.search(problem, **kw)
    if engine == "locked":
        return lambda problem, **kw: singles.search(problem, locked=True, **kw)
    return lambda problem, **kw: cover.search(problem, engine, **kw)


def _parts(problem: ExactCoverProblem, engine: str, wanted: int, **kw):
    """The serial answer rebuilt from the subtrees of a split, in their order."""
    run = _run(engine)
    tree = cover.tree_of(engine)
    split = cover.split(problem, wanted, **tree)
    solutions: list[list[int]] = []
    count = 0
    for subtree in split.subtrees:
        result = cover.search_subtree(problem, subtree.path, lambda sub: run(sub, **kw), **tree)
        solutions.extend(result.solutions)
        count += result.count
    return split, count, solutions


@pytest.mark.parametrize("engine", ["dlx", "bitset", "singles", "locked"])
@pytest.mark.parametrize("wanted", [1, 2, 3, 8, 40])
def test_subtrees_in_order_give_the_serial_solutions(random_problems, engine, wanted):
    run = _run(engine)
    for problem in random_problems[:200]:
        serial = run(problem)
        split, count, solutions = _parts(problem, engine, wanted)
        assert count == serial.count, problem
        assert solutions == serial.solutions, problem
        weights = sum(s.weight for s in split.subtrees) + split.settled_weight
        assert weights == pytest.approx(1.0), problem


@pytest.mark.parametrize("engine", ["dlx", "bitset", "singles", "locked"])
def test_queens_split_counts_and_order(engine, queens):
    problem = queens(7)
    serial = _run(engine)(problem)
    split, count, solutions = _parts(problem, engine, 16)
    assert len(split.subtrees) >= 16
    assert count == serial.count == 40
    assert solutions == serial.solutions


@pytest.mark.parametrize("engine", ["dlx", "bitset", "singles", "locked"])
@pytest.mark.parametrize("wanted", [2, 5, 40])
def test_coloured_subtrees_give_the_serial_solutions(coloured_reference_covers, engine, wanted):
    for problem, covers in coloured_reference_covers[:400]:
        serial = _run(engine)(problem)
        assert sorted(serial.solutions) == covers, problem
        split, count, solutions = _parts(problem, engine, wanted)
        assert (count, solutions) == (serial.count, serial.solutions), problem
        weights = sum(s.weight for s in split.subtrees) + split.settled_weight
        assert weights == pytest.approx(1.0), problem


@pytest.mark.parametrize("engine", ["dlx", "bitset", "singles", "locked"])
def test_word_squares_split_with_colours(engine, all_word_squares):
    problem = all_word_squares(2, 3)  # every 2x2 grid over 3 letters: 3 ** 4 = 81 squares
    serial = _run(engine)(problem)
    split, count, solutions = _parts(problem, engine, 12)
    assert len(split.subtrees) >= 12
    assert count == serial.count == 81
    assert solutions == serial.solutions


def test_reduce_keeps_the_options_that_agree_on_a_colour():
    # Items: p q (primary), x (secondary). Option 0 {p x:A}; the options of q give x colour A,
    # colour B, no colour, or leave it alone.
    problem = ExactCoverProblem(
        2,
        1,
        [[0, 2], [1, 2], [1, 2], [1, 2], [1]],
        [[0, 1], [0, 1], [0, 2], [0, 0], [0]],
    )
    reduction = cover.reduce(problem, [0])
    # x:A keeps options 1 (x:A) and 4 (no x); x is settled, so it leaves the subproblem.
    assert reduction.original == [1, 4]
    assert (reduction.problem.primary, reduction.problem.secondary) == (1, 0)
    assert reduction.problem.options == [[0], [0]]
    assert reduction.chosen == [0]
    # A colour that still matters stays: below option 0 of a problem whose q-options share y.
    problem = ExactCoverProblem(
        3, 2, [[0, 3], [1, 4], [2, 4], [2, 4]], [[0, 1], [0, 1], [0, 1], [0, 2]]
    )
    reduction = cover.reduce(problem, [0])
    assert reduction.original == [1, 2, 3]
    assert reduction.problem.options == [[0, 2], [1, 2], [1, 2]]
    assert reduction.problem.colours == [[0, 1], [0, 1], [0, 2]]


def test_heaviest_subtree_is_expanded_first():
    # Item 0 has two options; below option 1 item 1 has three. A split into 4 expands the
    # root (weights 1/2, 1/2), then the heavier first of the ties in search order.
    problem = ExactCoverProblem(2, 0, [[0, 1], [0], [1], [1], [1]])
    split = cover.split(problem, 4)
    assert [s.path for s in split.subtrees] == [[0], [1, 2], [1, 3], [1, 4]]
    assert [s.weight for s in split.subtrees] == [0.5, 1 / 6, 1 / 6, 1 / 6]


def test_a_path_off_the_search_tree_is_refused(queens):
    problem = queens(5)
    split = cover.split(problem, 4)
    first = split.subtrees[0].path
    with pytest.raises(InvalidPath) as error:
        cover.reduce(problem, [*first[:-1], len(problem.options) + 3])
    assert error.value.step == len(first) - 1


def _partition_parts(problem, wanted: int):
    split = propagate.split(problem, wanted)
    solutions: list[list[int]] = []
    count = 0
    for subtree in split.subtrees:
        result = propagate.search_subtree(problem, subtree.path, lambda sub: propagate.search(sub))
        solutions.extend(result.solutions)
        count += result.count
    return split, count, solutions


@pytest.mark.parametrize("wanted", [1, 2, 5, 16])
def test_partition_subtrees_in_order_give_the_serial_solutions(wanted):
    rng = random.Random(4)
    for _ in range(150):
        cells = rng.randint(1, 7)
        candidates = []
        for _variable in range(rng.randint(1, 4)):
            pool = {rng.randrange(1, 1 << cells) for _ in range(rng.randint(0, 6))}
            candidates.append(sorted(pool))
        problem = propagate.PartitionProblem(cells, candidates)
        serial = propagate.search(problem)
        split, count, solutions = _partition_parts(problem, wanted)
        assert (count, solutions) == (serial.count, serial.solutions), problem
        weights = sum(s.weight for s in split.subtrees) + split.settled_weight
        assert weights == pytest.approx(1.0), problem


@pytest.mark.parametrize("seed", range(6))
def test_shikaku_grids_split_like_the_serial_search(seed):
    puzzle = shikaku_puzzle(7, 7, seed, max_area=6)
    rows, cols, clues = shikaku.parse_puzzle(puzzle)
    _rectangles, masks, _ = shikaku.candidate_rectangles(rows, cols, clues)
    problem = propagate.PartitionProblem(rows * cols, masks)
    serial = propagate.search(problem)
    split, count, solutions = _partition_parts(problem, 12)
    assert (count, solutions) == (serial.count, serial.solutions)


def test_a_partition_path_off_the_search_tree_is_refused():
    # Three labelled dominoes on a 2x3 board (cells row by row).
    dominoes = [0b11, 0b110, 0b11000, 0b110000, 0b1001, 0b10010, 0b100100]
    problem = propagate.PartitionProblem(6, [dominoes[:] for _ in range(3)])
    split = propagate.split(problem, 4)
    assert len(split.subtrees) >= 4
    variable = split.subtrees[0].path[0][0]
    with pytest.raises(InvalidPath) as error:
        propagate.reduce(problem, [[variable + 1, 0]])
    assert error.value.step == 0
