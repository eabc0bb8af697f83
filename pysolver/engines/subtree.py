"""Cutting a search tree at its first choices into independent subtrees (parallel search).

An engine family that can be split provides ``split(problem, wanted)``, which walks the first
levels of the tree exactly as its serial search would (same branching rule, same order of the
branches), and a way to run the search inside one subtree given its ``path``: the choices made
at the branch points from the root down to it. The subtrees of a split are disjoint and cover
the whole tree, so their answers merge into the serial answer (counts add; solutions, taken
subtree by subtree in search order, come in the serial order).

Balance uses Knuth's estimate, the one that drives progress: a subtree's ``weight`` is
1 / (product of the branch counts on its path), its estimated share of the whole tree. The split
expands the heaviest subtree first until there are enough of them.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pysolver.engines.monitor import Monitor

# At most this many times ``wanted`` subtrees: a node with more branches than that room is
# kept whole rather than cut (an exact cover item with 1,000 options would otherwise make
# 1,000 tasks for 2 workers, each paying to rebuild the puzzle). Never fewer than
# ``MOST_FLOOR``: a small ``wanted`` still cuts an ordinary first choice.
MOST_PER_WANTED = 4
MOST_FLOOR = 64

State = TypeVar("State")
# How an engine family names the choice at a branch point (an option, a [variable, part]).
Choice = TypeVar("Choice", bound=Hashable)


class InvalidPath(ValueError):
    """A subtree path that the serial search never takes; ``step`` is the offending position."""

    def __init__(self, step: int, message: str) -> None:
        super().__init__(message)
        self.step = step


@dataclass
class Subtree:
    """One independent part of a search tree."""

    # The choices at the branch points, root first, as the engine family names them.
    path: list[Any]
    # Knuth's estimate of the subtree's share of the tree: 1 / product of branch counts.
    weight: float
    # The branch index taken at each level: sorting by it puts subtrees in search order.
    order: tuple[int, ...] = field(default=())


@dataclass
class Split:
    """The subtrees of a tree, in search order, and the weight of branches known to be empty."""

    subtrees: list[Subtree]
    # Dead branches met while splitting: no solutions, already settled (progress counts them).
    settled_weight: float = 0.0
    # The engine whose own tree was cut (the memo count's, cut below its root orbits), which
    # its tasks must then run on; None: any engine of the family walks these paths alike.
    engine: str | None = None
    # The memo count's level count takes the problem (``memo_levels.suits``): runners with
    # lanes count it by levels instead of running these subtrees (``pysolver.parallel``).
    by_levels: bool = False


def split_tree(
    root: State | None,
    children: Callable[[State], list[tuple[Choice, State | None, float]] | None],
    wanted: int,
    monitor: Monitor | None = None,
) -> Split:
    """Expand the heaviest open subtree until there are at least ``wanted`` of them (never
    more than ``MOST_PER_WANTED * wanted``, or ``MOST_FLOOR``: a node whose branches would
    pass that stays whole).

    ``children(state)`` lists a node's branches in search order as (choice, child state, share
    of the parent's weight), the child None for a dead branch; it returns None for a node that
    is not to be cut (a solution, or a node the engine does not branch at). ``root`` None means
    the root is dead. ``monitor``: a checkpoint per node expanded (``Cancelled`` when the
    request is cancelled while planning; the engine family's ``children`` checkpoints its own
    long loops with the same monitor).
    """
    monitor = monitor or Monitor()
    if root is None:
        return Split([], 1.0)
    settled = 0.0
    # Max-heap on weight; ties broken by search order so the split is deterministic.
    heap: list[tuple[float, tuple[int, ...], list[Any], State]] = [(-1.0, (), [], root)]
    leaves: list[Subtree] = []
    most = max(MOST_FLOOR, wanted * MOST_PER_WANTED)
    while heap and len(heap) + len(leaves) < wanted:
        monitor.checkpoint()
        negative_weight, order, path, state = heapq.heappop(heap)
        weight = -negative_weight
        branches = children(state)
        live = 0 if branches is None else sum(child is not None for _, child, _ in branches)
        if branches is None or len(heap) + len(leaves) + live > most:
            leaves.append(Subtree(path, weight, order))
            continue
        if not branches:
            settled += weight
        for index, (choice, child, share) in enumerate(branches):
            if child is None:
                settled += weight * share
            else:
                heapq.heappush(heap, (-weight * share, (*order, index), [*path, choice], child))
    leaves.extend(Subtree(path, -weight, order) for weight, order, path, _ in heap)
    leaves.sort(key=lambda subtree: subtree.order)
    return Split(leaves, settled)
