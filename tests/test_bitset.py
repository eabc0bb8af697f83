"""The bitset engine against brute force and against dancing links, node for node."""

from __future__ import annotations

import random

from pysolver.engines import bitset, dlx
from pysolver.engines.cover import ExactCoverProblem


def test_matches_brute_force_on_random_matrices(reference_covers):
    for problem, expected in reference_covers:
        result = bitset.search(problem)
        assert result.complete and not result.cancelled
        assert result.count == len(expected), problem
        assert sorted(result.solutions) == sorted(expected), problem


def test_walks_the_same_tree_as_dlx(random_problems):
    # Same MRV rule and option order: same solutions in the same order, same node counts.
    for problem in random_problems:
        ours = bitset.search(problem)
        theirs = dlx.search(problem)
        assert ours.solutions == theirs.solutions, problem
        assert ours.stats["nodes"] == theirs.stats["nodes"], problem


def test_counting_walk_visits_the_same_nodes_as_dlx(random_problems, queens):
    # Counting everything takes its own walk (siblings in bit order, dead ends counted at
    # their parent); the tree and so the totals must not change.
    for problem in [*random_problems, queens(6)]:
        ours = bitset.search(problem, keep_solutions=False)
        theirs = dlx.search(problem, keep_solutions=False)
        assert ours.complete and ours.solutions == []
        assert ours.count == theirs.count, problem
        assert ours.stats["nodes"] == theirs.stats["nodes"], problem


def test_same_seed_gives_the_same_order_as_dlx(random_problems, monkeypatch):
    # Python's generator drives both shuffles; the compiled walk draws from numba's instead
    # (tests/test_compiled.py), so this compares the pure walks.
    monkeypatch.setenv("PYSOLVER_PURE", "1")
    for index, problem in enumerate(random_problems[:200]):
        ours = bitset.search(problem, rng=random.Random(index))
        theirs = dlx.search(problem, rng=random.Random(index))
        assert ours.solutions == theirs.solutions, problem


def test_last_level_shortcut_counts_every_leaf():
    # Each option covers both primary items: the root is a last level of 4 solutions.
    problem = ExactCoverProblem(2, 1, [[0, 1], [1, 0, 2], [0, 1], [0, 1, 2]])
    counted = bitset.search(problem, keep_solutions=False)
    assert counted.count == 4 and counted.solutions == []
    assert counted.stats["nodes"] == dlx.search(problem).stats["nodes"] == 5
    listed = bitset.search(problem, limit=3)
    assert listed.solutions == [[0], [1], [2]]
    assert not listed.complete
    capped = bitset.search(problem, limit=3, keep_solutions=False)
    assert capped.count == 3 and not capped.complete


def test_mask_ops_are_counted():
    problem = ExactCoverProblem(3, 0, [[0], [1], [2], [0, 1]])
    result = bitset.search(problem)
    assert result.count == 2
    assert result.stats["mask_ops"] > 0


def test_stops_at_the_same_node_as_dlx(random_problems, queens):
    # Dead ends are counted where the walk reaches them in both engines (bitset makes all the
    # children of a node at once, dlx looks ahead), so even a search cut short by its limit
    # has visited the same number of nodes.
    for problem in [*random_problems, queens(6), queens(8)]:
        for limit in (1, 2):
            ours = bitset.search(problem, limit=limit)
            theirs = dlx.search(problem, limit=limit)
            assert ours.solutions == theirs.solutions, problem
            assert ours.stats["nodes"] == theirs.stats["nodes"], problem


def test_matches_brute_force_with_colours(coloured_reference_covers):
    for problem, expected in coloured_reference_covers:
        result = bitset.search(problem)
        assert result.complete and not result.cancelled
        assert sorted(result.solutions) == expected, problem


def test_walks_the_same_tree_as_dlx_with_colours(coloured_reference_covers):
    # Colour-aware compatible masks against Knuth's purify: same live options per item at
    # every node, so the same MRV choices, solutions in the same order and the same nodes,
    # whether listing, counting (bitset's own walk) or stopping at a limit.
    for problem, _ in coloured_reference_covers:
        ours = bitset.search(problem)
        theirs = dlx.search(problem)
        assert ours.solutions == theirs.solutions, problem
        assert ours.stats["nodes"] == theirs.stats["nodes"], problem
        counted = bitset.search(problem, keep_solutions=False)
        assert (counted.count, counted.stats["nodes"]) == (theirs.count, theirs.stats["nodes"])
        ours = bitset.search(problem, limit=1)
        theirs = dlx.search(problem, limit=1)
        assert (ours.solutions, ours.stats["nodes"]) == (theirs.solutions, theirs.stats["nodes"])


def test_shuffles_like_dlx_with_colours(coloured_reference_covers, monkeypatch):
    # As test_same_seed_gives_the_same_order_as_dlx: Python's generator, the pure walks.
    monkeypatch.setenv("PYSOLVER_PURE", "1")
    for index, (problem, _) in enumerate(coloured_reference_covers):
        ours = bitset.search(problem, rng=random.Random(index))
        theirs = dlx.search(problem, rng=random.Random(index))
        assert ours.solutions == theirs.solutions, problem
