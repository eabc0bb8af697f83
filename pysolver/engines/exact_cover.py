"""The exact cover problem shared by the ``dlx`` and ``bitset`` engines.

Items are integers: ``0 .. primary-1`` are primary (covered exactly once), ``primary ..
primary+secondary-1`` are secondary (covered at most once). Each option is a list of distinct
item integers. Both engines take the same arguments and give the same counts and solution sets;
a solution is the sorted list of chosen option indices.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from pysolver.engines.monitor import Monitor, SearchResult
from pysolver.engines.subtree import InvalidPath, Split, split_tree

ENGINES = ("dlx", "bitset")

# Documented cap on matrix size: the total number of (option, item) entries. Above this the
# matrix alone would take hundreds of MB in a browser tab.
MAX_ENTRIES = 2_000_000


@dataclass
class ExactCoverProblem:
    primary: int
    secondary: int
    options: list[list[int]]

    @property
    def items(self) -> int:
        return self.primary + self.secondary


def search(
    problem: ExactCoverProblem,
    engine: str = "dlx",
    *,
    limit: int | None = None,
    keep_solutions: bool = True,
    rng: random.Random | None = None,
    monitor: Monitor | None = None,
    path: list[int] | None = None,
) -> SearchResult:
    """Run Algorithm X on ``problem`` with the named engine.

    limit: stop after this many solutions (None: explore everything).
    keep_solutions: False to only count (count mode), True to return the solutions found.
    rng: when given, options within each branch are tried in an order shuffled by it.
    monitor: progress reports and cancellation (see ``pysolver.engines.monitor``).
    path: search only the subtree below these branch choices (see ``split``); solutions are
    still in the indices of ``problem``.
    """
    if path is not None:
        return search_subtree(
            problem,
            path,
            lambda sub: search(
                sub, engine, limit=limit, keep_solutions=keep_solutions, rng=rng, monitor=monitor
            ),
        )
    if engine == "dlx":
        from pysolver.engines import dlx as module
    elif engine == "bitset":
        from pysolver.engines import bitset as module
    else:
        raise ValueError(f"unknown exact cover engine {engine!r}")
    return module.search(
        problem,
        limit=limit,
        keep_solutions=keep_solutions,
        rng=rng,
        monitor=monitor or Monitor(),
    )


# ---------------------------------------------------------------- subtrees (parallel search)


@dataclass
class _Node:
    """A node of the search tree seen from outside the engines: what is chosen and what is left.

    ``live``: the options compatible with every choice, in option order (the order in which
    both engines keep them). ``covered``: the items the choices cover. ``chosen``: the options
    chosen so far, branch choices and (with singles) forced ones.
    """

    live: list[int]
    covered: set[int]
    chosen: list[int]


def _choose(problem: ExactCoverProblem, node: _Node, option: int) -> _Node:
    covered = node.covered.union(problem.options[option])
    live = [o for o in node.live if covered.isdisjoint(problem.options[o])]
    return _Node(live, covered, [*node.chosen, option])


def _live_counts(problem: ExactCoverProblem, node: _Node) -> dict[int, int]:
    """Per uncovered primary item, how many live options contain it."""
    counts = {item: 0 for item in range(problem.primary) if item not in node.covered}
    for option in node.live:
        for item in problem.options[option]:
            if item in counts:
                counts[item] += 1
    return counts


def _force_singles(problem: ExactCoverProblem, node: _Node) -> _Node | None:
    """Choose every option that is the last one of some item (the ``singles`` engine's rule);
    None when an item is left without options. The fixpoint does not depend on the order."""
    while True:
        counts = _live_counts(problem, node)
        if any(count == 0 for count in counts.values()):
            return None
        singles = {item for item, count in counts.items() if count == 1}
        if not singles:
            return node
        # Take every forced option of this round at once (a round per propagation step, not
        # per option). Two of them sharing an item would leave that item's other forced
        # option without a place: the same dead end the engine meets one option at a time.
        forced = [o for o in node.live if not singles.isdisjoint(problem.options[o])]
        taken: set[int] = set()
        for option in forced:
            if not taken.isdisjoint(problem.options[option]):
                return None
            taken.update(problem.options[option])
        for option in forced:
            node = _choose(problem, node, option)


def _branch(problem: ExactCoverProblem, node: _Node) -> tuple[int, list[int]] | None:
    """The item the search branches on at ``node`` and its options in the order tried: MRV,
    the first item on ties, options in option order (``dlx``, ``bitset`` and ``singles``
    agree on both). None at a solution; an empty list at a dead end."""
    counts = _live_counts(problem, node)
    if not counts:
        return None
    item = min(counts, key=counts.__getitem__)  # dicts keep item order: first on ties
    return item, [o for o in node.live if item in problem.options[o]]


def _root(problem: ExactCoverProblem, singles: bool) -> _Node | None:
    node = _Node(list(range(len(problem.options))), set(), [])
    return _force_singles(problem, node) if singles else node


def _child(problem: ExactCoverProblem, node: _Node, option: int, singles: bool) -> _Node | None:
    child = _choose(problem, node, option)
    if singles:
        return _force_singles(problem, child)
    counts = _live_counts(problem, child)
    return None if any(count == 0 for count in counts.values()) else child


def split(problem: ExactCoverProblem, wanted: int, *, singles: bool = False) -> Split:
    """Cut the search tree of ``problem`` into at least ``wanted`` subtrees (fewer when the
    tree is smaller), in search order. A subtree's path is the list of options chosen at the
    branch points. ``singles``: the tree of the ``singles`` engine (forced options are taken
    before every branch and are not part of paths)."""

    def children(node: _Node) -> list[tuple[int, _Node | None, float]] | None:
        branch = _branch(problem, node)
        if branch is None:
            return None
        options = branch[1]
        return [
            (option, _child(problem, node, option, singles), 1 / len(options)) for option in options
        ]

    return split_tree(_root(problem, singles), children, wanted)


@dataclass
class Reduction:
    """The subproblem below a path: what is left, and how its options map back."""

    problem: ExactCoverProblem
    # The options chosen on the way down (path, plus forced options with singles).
    chosen: list[int]
    # Per option of ``problem``, its index in the original problem.
    original: list[int]


def reduce(problem: ExactCoverProblem, path: list[int], *, singles: bool = False) -> Reduction:
    """Choose the options of ``path`` as the serial search does and return the subproblem.

    Raises ``InvalidPath`` when a step is not a branch the search takes at that point. Items
    and options keep their relative order, so the engines search the subproblem exactly as
    they search that subtree of the whole tree.
    """
    node = _root(problem, singles)
    for step, option in enumerate(path):
        if node is None:
            raise InvalidPath(step, "the path goes on below a branch that has no solutions")
        branch = _branch(problem, node)
        if branch is None:
            raise InvalidPath(step, "the path goes on below a solution")
        item, options = branch
        if option not in options:
            raise InvalidPath(
                step,
                f"option {option!r} is not one of the options of item {item}, where the search "
                f"branches at step {step}",
            )
        node = _child(problem, node, option, singles)
    if node is None:
        # A dead branch: an empty subproblem with one item and no option, so engines find none.
        return Reduction(ExactCoverProblem(1, 0, []), list(path), [])
    primary_left = [item for item in range(problem.primary) if item not in node.covered]
    secondary_left = [
        item for item in range(problem.primary, problem.items) if item not in node.covered
    ]
    number = {item: n for n, item in enumerate(primary_left + secondary_left)}
    options = [[number[item] for item in problem.options[o]] for o in node.live]
    sub = ExactCoverProblem(len(primary_left), len(secondary_left), options)
    return Reduction(sub, node.chosen, list(node.live))


def search_subtree(
    problem: ExactCoverProblem,
    path: list[int],
    run: Callable[[ExactCoverProblem], SearchResult],
    *,
    singles: bool = False,
) -> SearchResult:
    """``run`` (a search) on the subtree below ``path``, its solutions in original indices."""
    reduction = reduce(problem, path, singles=singles)
    result = run(reduction.problem)
    original = reduction.original
    result.solutions = [
        sorted([*reduction.chosen, *(original[o] for o in solution)])
        for solution in result.solutions
    ]
    return result
