"""The generic propagation engine on toy problems that are not Shikaku."""

from __future__ import annotations

import itertools
import random

import pytest

from pysolver.engines.monitor import Monitor
from pysolver.engines.propagate import PartitionProblem, search


def mask(*cells: int) -> int:
    return sum(1 << cell for cell in set(cells))


def brute_force(problem: PartitionProblem) -> list[list[int]]:
    """Every choice of one candidate index per variable whose cells partition the grid."""
    full = (1 << problem.cells) - 1
    found = []
    for choice in itertools.product(*(range(len(c)) for c in problem.candidates)):
        covered = 0
        for variable, index in enumerate(choice):
            cells = problem.candidates[variable][index]
            if covered & cells:
                break
            covered |= cells
        else:
            if covered == full:
                found.append(list(choice))
    return sorted(found)


def dominoes_on_2x3() -> PartitionProblem:
    """Three labelled dominoes, each free to lie anywhere on a 2x3 board (cells row by row)."""
    placements = [
        mask(0, 1),
        mask(1, 2),
        mask(3, 4),
        mask(4, 5),
        mask(0, 3),
        mask(1, 4),
        mask(2, 5),
    ]
    return PartitionProblem(6, [placements[:] for _ in range(3)])


def test_labelled_dominoes_count_is_tilings_times_orderings() -> None:
    # The 2x3 board has 3 domino tilings; 3 distinct labels can be assigned 3! ways.
    result = search(dominoes_on_2x3())
    assert result.count == 18
    assert result.complete
    assert sorted(result.solutions) == brute_force(dominoes_on_2x3())


def test_random_small_problems_match_brute_force() -> None:
    rng = random.Random(4)
    for _ in range(150):
        cells = rng.randint(1, 7)
        variables = rng.randint(1, 4)
        candidates = []
        for _variable in range(variables):
            pool = {rng.randrange(1, 1 << cells) for _ in range(rng.randint(0, 6))}
            candidates.append(sorted(pool))
        problem = PartitionProblem(cells, candidates)
        expected = brute_force(problem)
        result = search(problem)
        assert sorted(result.solutions) == expected
        assert result.count == len(expected)
        assert result.complete
        counted = search(problem, keep_solutions=False)
        assert counted.count == len(expected)
        assert counted.solutions == []
        shuffled = search(problem, rng=random.Random(9))
        assert sorted(shuffled.solutions) == expected


def test_overlap_rule_deletes_candidate_meeting_every_candidate_of_another() -> None:
    # X's candidate {0, 1} meets Y's {0, 3} and Y's {1, 4}: X can never take it. Nothing else
    # is deleted by the overlap rule (Y has no common cell, X's core is empty).
    problem = PartitionProblem(
        5,
        [
            [mask(0, 1), mask(2)],  # X
            [mask(0, 3), mask(1, 4)],  # Y
            [mask(1, 4), mask(0, 3)],  # Z
        ],
    )
    result = search(problem)
    assert result.stats["candidates_initial"] == 6
    assert result.stats["candidates_after_overlap"] == 5
    # With X fixed to {2}, Y and Z split {0, 3} and {1, 4} between them both ways.
    assert sorted(result.solutions) == [[1, 0, 0], [1, 1, 1]]


def test_fixed_variable_removes_overlapping_candidates() -> None:
    # A is fixed to {0}: B loses {0, 1} and is fixed to {1}, which in turn removes C's {1, 2}.
    problem = PartitionProblem(3, [[mask(0)], [mask(0, 1), mask(1)], [mask(2), mask(1, 2)]])
    result = search(problem)
    assert result.stats["candidates_initial"] == 5
    assert result.stats["candidates_after_overlap"] == 3
    assert result.solutions == [[0, 1, 0]]
    assert result.complete


def test_coverage_rule_forces_the_only_variable_able_to_cover_a_cell() -> None:
    # Cell 3 is only in A's candidate {2, 3}: A is forced there at the root without branching.
    problem = PartitionProblem(4, [[mask(0, 1), mask(2, 3)], [mask(0, 1), mask(2)]])
    result = search(problem)
    assert result.stats["candidates_after_overlap"] == 4
    assert result.stats["candidates_after_propagation"] == 2
    assert result.solutions == [[1, 0]]
    assert result.stats["nodes"] == 1


def test_no_solution_cases_are_complete_with_count_zero() -> None:
    uncoverable = PartitionProblem(3, [[mask(0)], [mask(1)]])
    empty_domain = PartitionProblem(2, [[mask(0, 1)], []])
    clash = PartitionProblem(2, [[mask(0)], [mask(0)]])
    for problem in (uncoverable, empty_domain, clash):
        result = search(problem)
        assert (result.count, result.complete, result.solutions) == (0, True, [])


def test_empty_problem_has_the_empty_solution() -> None:
    result = search(PartitionProblem(0, []))
    assert (result.count, result.solutions, result.complete) == (1, [[]], True)


def test_limit_stops_early_and_reports_incomplete() -> None:
    result = search(dominoes_on_2x3(), limit=5)
    assert result.count == 5
    assert len(result.solutions) == 5
    assert not result.complete
    everything = search(dominoes_on_2x3(), limit=18)
    assert everything.count == 18


def test_cancel_stops_the_search() -> None:
    result = search(dominoes_on_2x3(), monitor=Monitor(cancel=lambda: True))
    assert result.cancelled
    assert not result.complete
    assert result.count == 0


def test_progress_reports_end_with_fraction_one() -> None:
    reports = []
    monitor = Monitor(progress=reports.append)
    monitor.interval = 0.0
    result = search(dominoes_on_2x3(), monitor=monitor)
    assert result.complete
    fractions = [report["fraction"] for report in reports]
    assert fractions == sorted(fractions)
    assert all(0.0 <= fraction < 1.0 for fraction in fractions[:-1])
    assert reports[-1]["done"] and reports[-1]["fraction"] == 1.0
    assert reports[-1]["solutions"] == 18


def test_random_order_is_fixed_by_the_seed() -> None:
    first = search(dominoes_on_2x3(), rng=random.Random(3)).solutions
    again = search(dominoes_on_2x3(), rng=random.Random(3)).solutions
    assert first == again
    assert sorted(first) == brute_force(dominoes_on_2x3())


def test_bad_candidates_raise_value_error() -> None:
    with pytest.raises(ValueError, match="same candidate twice"):
        search(PartitionProblem(2, [[mask(0), mask(0)]]))
    with pytest.raises(ValueError, match="outside"):
        search(PartitionProblem(2, [[mask(0, 5)]]))


def side_by_side(*problems: PartitionProblem) -> PartitionProblem:
    """Independent problems on disjoint cells: the variables of each keep their own cells."""
    candidates = []
    offset = 0
    for problem in problems:
        candidates.extend([m << offset for m in c] for c in problem.candidates)
        offset += problem.cells
    return PartitionProblem(offset, candidates)


def test_independent_components_multiply_and_match_brute_force() -> None:
    problem = side_by_side(dominoes_on_2x3(), dominoes_on_2x3())
    result = search(problem)
    assert result.count == 18 * 18
    assert result.complete
    assert result.stats["splits"] >= 1
    assert sorted(result.solutions) == brute_force(problem)
    counted = search(problem, keep_solutions=False)
    assert (counted.count, counted.complete, counted.solutions) == (324, True, [])
    shuffled = search(problem, rng=random.Random(5))
    assert sorted(shuffled.solutions) == brute_force(problem)


def test_split_search_respects_the_limit() -> None:
    problem = side_by_side(dominoes_on_2x3(), dominoes_on_2x3())
    every = set(map(tuple, brute_force(problem)))
    capped = search(problem, limit=100)
    assert capped.count == 100 and not capped.complete
    assert len(set(map(tuple, capped.solutions))) == 100
    assert set(map(tuple, capped.solutions)) <= every
    counted = search(problem, limit=100, keep_solutions=False)
    assert (counted.count, counted.complete) == (100, False)
    exact = search(problem, limit=324)
    assert (exact.count, exact.complete) == (324, True)


def test_a_component_without_solution_fails_the_whole_problem() -> None:
    # A 2-cell gap that only a 3-cell candidate could fill, beside two solvable components.
    impossible = PartitionProblem(2, [[mask(0, 1)], [mask(0), mask(1)]])
    problem = side_by_side(dominoes_on_2x3(), dominoes_on_2x3(), impossible)
    result = search(problem)
    assert (result.count, result.complete, result.solutions) == (0, True, [])
