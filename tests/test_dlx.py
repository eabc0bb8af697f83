"""The dancing-links engine against brute force, plus what only it has (updates, links)."""

from __future__ import annotations

from pysolver.engines import dlx
from pysolver.engines.cover import ExactCoverProblem


def test_matches_brute_force_on_random_matrices(reference_covers):
    for problem, expected in reference_covers:
        result = dlx.search(problem)
        assert result.complete and not result.cancelled
        assert result.count == len(expected), problem
        assert sorted(result.solutions) == sorted(expected), problem


def test_counts_updates_like_knuth():
    # Items a, b; options {a b}, {a}, {b}: covering a unlinks the b node of {a b}, once.
    problem = ExactCoverProblem(2, 0, [[0, 1], [0], [1]])
    result = dlx.search(problem)
    assert result.solutions == [[0], [1, 2]]
    assert result.stats == {"nodes": 4, "updates": 1}


def test_links_are_restored_after_a_full_search(random_problems):
    # A second search on the same problem object rebuilds nothing shared, and gives the same.
    for problem in random_problems[:50]:
        first = dlx.search(problem)
        again = dlx.search(problem)
        assert first.solutions == again.solutions
        assert first.stats == again.stats


def test_mrv_takes_the_first_item_on_ties():
    # Both items have two options. Branching on item 0 tries option 1 first and finds [1];
    # branching on item 1 would have tried option 0 first and found [0, 2] first.
    problem = ExactCoverProblem(2, 0, [[1], [0, 1], [0]])
    result = dlx.search(problem)
    assert result.solutions == [[1], [0, 2]]
    assert result.stats["nodes"] == 4


def test_dead_ends_are_counted_but_cost_no_updates():
    # Items a b c d; options 0 {a b}, 1 {a c}, 2 {b d}, 3 {b c d}. MRV branches on a (two
    # options, first of the ties with c and d). Option {a b} conflicts with every option left
    # to c and d: a dead end, counted as a node and found without covering anything.
    problem = ExactCoverProblem(4, 0, [[0, 1], [0, 2], [1, 3], [1, 2, 3]])
    result = dlx.search(problem)
    assert result.solutions == [[1, 2]]
    # Root, the dead end {a b}, the node after {a c}, the solution after {b d}.
    assert result.stats["nodes"] == 4
    # Covering a unlinks b of {a b} and c of {a c}; covering c for {a c} unlinks b and d of
    # {b c d}; covering b at the next node unlinks d of {b d}. Textbook DLX would also cover b
    # for the dead end.
    assert result.stats["updates"] == 5


def test_matches_brute_force_with_colours(coloured_reference_covers):
    for problem, expected in coloured_reference_covers:
        result = dlx.search(problem)
        assert result.complete and not result.cancelled
        assert sorted(result.solutions) == expected, problem


def test_an_option_sharing_a_purified_colour_skips_the_item():
    # Items p q | x; options {p x:A}, {q x:A}, {q x:B}. After {p x:A}, x is purified with A:
    # {q x:B} is hidden, {q x:A} stays and is chosen without touching x again.
    problem = ExactCoverProblem(2, 1, [[0, 2], [1, 2], [1, 2]], [[0, 1], [0, 1], [0, 2]])
    result = dlx.search(problem)
    assert result.solutions == [[0, 1]]
    # Root, then the node after {p x:A} (q has one option left), then the solution.
    assert result.stats["nodes"] == 3
