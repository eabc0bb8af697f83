"""Exact cover by Algorithm X on Python-int bitsets.

Option ``o`` is bit ``o`` of every mask. Each item has the mask of the options that contain it;
each option has a *compatible* mask: the options sharing no item with it (so not itself). A
search state is one list, ``rest``: for each primary item not yet covered, in item order, the
mask of its options still compatible with the choices made (its "live" options). Choosing
option ``o`` is one AND per entry (``live & compatible[o]``): the items ``o`` covers drop to 0
and are filtered out, and any other entry dropping to 0 marks a dead end at once.

Item choice is MRV: the uncovered primary item with the fewest live options, the first such
item on ties, so this engine walks the same tree as ``dlx`` and counts the same nodes (a dead
end counts as a node, as in dancing links). Secondary items are never chosen; they only make
options incompatible, which is exactly "at most once".

Why it is fast in CPython: the per-node work is a handful of big-int operations run in C
(``map(int.bit_count, rest)`` gives every branch size at once; ``map(compatible[o].__and__,
rest)`` makes the child), with no per-item Python loop. Near the leaves a shortcut counts a
whole last level at once: when no more primary items remain than the smallest option covers,
every live option of the chosen item covers all of them and is a solution.

Memory: one mask of all options per option, about options^2 / 8 bytes (the exact cover kind
sends big matrices to ``dlx`` instead).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial

from pysolver.engines.exact_cover import ExactCoverProblem
from pysolver.engines.monitor import CHECK_EVERY, Monitor, SearchResult


def search(
    problem: ExactCoverProblem,
    *,
    limit: int | None = None,
    keep_solutions: bool = True,
    rng: random.Random | None = None,
    monitor: Monitor | None = None,
) -> SearchResult:
    """Find up to ``limit`` exact covers of ``problem`` (all when ``limit`` is None).

    Stats: ``nodes`` (search tree nodes, including the root and each solution) and
    ``mask_ops`` (big-int AND operations, the unit of work here).
    """
    if monitor is None:
        monitor = Monitor()
    primary = problem.primary
    options = problem.options

    item_masks = _item_masks(problem)
    every_option = (1 << len(options)) - 1
    compatible = []
    cover_size = []  # per option: how many primary items it covers
    smallest_cover = primary  # fewest primary items any branchable option covers
    for option in options:
        conflict = 0
        for item in option:
            conflict |= item_masks[item]
        compatible.append(every_option & ~conflict)
        size = sum(1 for item in option if item < primary)
        cover_size.append(size)
        if 0 < size < smallest_cover:
            smallest_cover = size

    # Per depth: the uncovered items' live masks on entry and the branch being tried there.
    max_depth = primary + 1
    rest_at: list[list[int]] = [[] for _ in range(max_depth)]
    order_at: list[list[int]] = [[] for _ in range(max_depth)]  # candidates in trial order
    size_at = [0] * max_depth
    index_at = [0] * max_depth
    chosen_at = [0] * max_depth

    solutions: list[list[int]] = []
    count = 0
    nodes = 0
    mask_ops = 0
    countdown = CHECK_EVERY
    # A node costs about one AND per primary item over all options; on big matrices count each
    # node as several, so cancellation stays prompt (~1M bits of AND per unit).
    node_weight = max(1, primary * len(options) >> 20)
    cancelled = False
    stopped_by_limit = False
    bit_count = int.bit_count
    and_compatible = [mask.__and__ for mask in compatible]
    shuffle = rng.shuffle if rng is not None else None

    depth = 0
    # ``rest``: for each uncovered primary item, in item order, the mask of its live options.
    rest = item_masks[:primary]
    entering = all(rest)  # an item without options makes the root a dead end
    if not entering:
        nodes = 1
    while True:
        if entering:
            nodes += 1
            countdown -= node_weight
            if countdown <= 0:
                countdown = CHECK_EVERY
                if monitor.check(nodes, count, partial(fraction_done, index_at, size_at, depth)):
                    cancelled = True
                    break
            if not rest:
                count += 1
                if keep_solutions:
                    solutions.append(sorted(chosen_at[:depth]))
                if limit is not None and count >= limit:
                    stopped_by_limit = True
                    break
            else:
                counts = list(map(bit_count, rest))
                best = min(counts)
                candidates = rest[counts.index(best)]
                if len(rest) <= smallest_cover:
                    # Every candidate covers all of ``rest``: each is a solution (a leaf).
                    if keep_solutions or shuffle is not None:
                        found = _last_level(candidates, best, count, limit, shuffle)
                        taken = len(found)
                        if keep_solutions:
                            chosen = chosen_at[:depth]
                            solutions.extend(sorted([*chosen, option]) for option in found)
                    else:
                        taken = best if limit is None else min(best, limit - count)
                    nodes += taken
                    countdown -= taken
                    count += taken
                    if limit is not None and count >= limit:
                        stopped_by_limit = True
                        break
                else:
                    rest_at[depth] = rest
                    size_at[depth] = best
                    index_at[depth] = -1
                    order = _bits(candidates)
                    if shuffle is not None:
                        shuffle(order)
                    order_at[depth] = order
                    depth += 1
        # Move to the next untried branch, backing up through exhausted levels.
        entering = False
        while depth:
            level = depth - 1
            index = index_at[level] + 1
            if index == size_at[level]:
                depth = level
                continue
            index_at[level] = index
            option = order_at[level][index]
            chosen_at[level] = option
            parent = rest_at[level]
            rest = list(map(and_compatible[option], parent))
            mask_ops += len(parent)
            # The items the option covers drop to 0; any other 0 is an item left without
            # options, a dead end, which is counted as a node but never entered.
            if rest.count(0) == cover_size[option]:
                rest = list(filter(None, rest))
                entering = True
                break
            nodes += 1
            countdown -= node_weight
            if countdown <= 0:
                countdown = CHECK_EVERY
                if monitor.check(nodes, count, partial(fraction_done, index_at, size_at, depth)):
                    cancelled = True
                    break
        if not entering:
            break

    complete = not cancelled and not stopped_by_limit
    monitor.finish(nodes, count, complete)
    return SearchResult(
        solutions=solutions,
        count=count,
        complete=complete,
        cancelled=cancelled,
        stats={"nodes": nodes, "mask_ops": mask_ops},
    )


def _item_masks(problem: ExactCoverProblem) -> list[int]:
    """Per item, the mask of the options containing it (built as bytes: linear, not quadratic)."""
    byte_count = (len(problem.options) + 7) // 8
    option_bytes = [bytearray(byte_count) for _ in range(problem.items)]
    for index, option in enumerate(problem.options):
        byte, bit = divmod(index, 8)
        for item in option:
            option_bytes[item][byte] |= 1 << bit
    return [int.from_bytes(data, "little") for data in option_bytes]


def fraction_done(index_at: list[int], size_at: list[int], depth: int) -> float:
    """Knuth's estimate of the share of the search tree already done.

    The sum over levels of (index of the current branch) / (product of the branch sizes down to
    that level): the tree left of the current path, if all subtrees at a level were alike.
    """
    done = 0.0
    weight = 1.0
    for level in range(depth):
        weight /= size_at[level]
        done += index_at[level] * weight
    return done


def _bits(mask: int) -> list[int]:
    """The positions of the set bits of ``mask``, lowest first."""
    positions = []
    while mask:
        low = mask & -mask
        positions.append(low.bit_length() - 1)
        mask ^= low
    return positions


def _last_level(
    candidates: int,
    size: int,
    count: int,
    limit: int | None,
    shuffle: Callable[[list[int]], None] | None,
) -> list[int]:
    """The candidate options of a last level, in search order, cut at the limit."""
    order = _bits(candidates)
    if shuffle is not None:
        shuffle(order)
    if limit is not None and count + size > limit:
        del order[limit - count :]
    return order
