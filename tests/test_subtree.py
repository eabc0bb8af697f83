"""Splitting exact cover and partition searches into subtrees: the parts make the whole."""

from __future__ import annotations

import pytest

from pysolver.engines import exact_cover, singles
from pysolver.engines.exact_cover import ExactCoverProblem
from pysolver.engines.subtree import InvalidPath


def _run(engine: str):
    if engine == "singles":
        return lambda problem, **kw: singles.search(problem, **kw)
    return lambda problem, **kw: exact_cover.search(problem, engine, **kw)


def _parts(problem: ExactCoverProblem, engine: str, wanted: int, **kw):
    """The serial answer rebuilt from the subtrees of a split, in their order."""
    run = _run(engine)
    is_singles = engine == "singles"
    split = exact_cover.split(problem, wanted, singles=is_singles)
    solutions: list[list[int]] = []
    count = 0
    for subtree in split.subtrees:
        result = exact_cover.search_subtree(
            problem, subtree.path, lambda sub: run(sub, **kw), singles=is_singles
        )
        solutions.extend(result.solutions)
        count += result.count
    return split, count, solutions


@pytest.mark.parametrize("engine", ["dlx", "bitset", "singles"])
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


@pytest.mark.parametrize("engine", ["dlx", "bitset", "singles"])
def test_queens_split_counts_and_order(engine, queens):
    problem = queens(7)
    serial = _run(engine)(problem)
    split, count, solutions = _parts(problem, engine, 16)
    assert len(split.subtrees) >= 16
    assert count == serial.count == 40
    assert solutions == serial.solutions


def test_heaviest_subtree_is_expanded_first():
    # Item 0 has two options; below option 1 item 1 has three. A split into 4 expands the
    # root (weights 1/2, 1/2), then the heavier first of the ties in search order.
    problem = ExactCoverProblem(2, 0, [[0, 1], [0], [1], [1], [1]])
    split = exact_cover.split(problem, 4)
    assert [s.path for s in split.subtrees] == [[0], [1, 2], [1, 3], [1, 4]]
    assert [s.weight for s in split.subtrees] == [0.5, 1 / 6, 1 / 6, 1 / 6]


def test_a_path_off_the_search_tree_is_refused(queens):
    problem = queens(5)
    split = exact_cover.split(problem, 4)
    first = split.subtrees[0].path
    with pytest.raises(InvalidPath) as error:
        exact_cover.reduce(problem, [*first[:-1], len(problem.options) + 3])
    assert error.value.step == len(first) - 1
