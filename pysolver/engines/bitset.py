"""Exact cover by Algorithm X on Python-int bitsets.

Option ``o`` is one bit (``position_of[o]``) of every mask. Each item has the mask of the
options that contain it; each option has a *compatible* mask: the options sharing no item with
it (so not itself). A
search state is one list, ``rest``: for each primary item not yet covered, in item order, the
mask of its options still compatible with the choices made (its "live" options). Choosing
option ``o`` is one AND per entry (``live & compatible[o]``): the items ``o`` covers drop to 0
and are filtered out, and any other entry dropping to 0 marks a dead end at once.

Item choice is MRV: the uncovered primary item with the fewest live options, the first such
item on ties, so this engine walks the same tree as ``dlx`` and counts the same nodes (a dead
end counts as a node, as in dancing links). Secondary items are never chosen; they only make
options incompatible, which is exactly "at most once". Colours (XCC) change nothing but the
compatible masks: an option giving item ``x`` colour ``c`` conflicts only with the options
using ``x`` uncoloured or in another colour. Compatibility is pairwise (options that agree two
by two on every colour agree all together), so the ANDs of the search stay exact.

Why it is fast in CPython: the per-node work is a handful of big-int operations run in C
(``min(rest, key=int.bit_count)`` is MRV; ``map(compatible[o].__and__, rest)`` makes the child),
with no per-item Python loop. The walk is depth first over an explicit stack: a node makes all
its children at once and pushes the live ones, so a dead end costs one AND per item and nothing
more. Bits are ordered so that options likely to die early take the high bits (see
``_bit_positions``): the live masks deep in the tree are then narrow ints, which makes
``bit_count`` and ``&`` cheaper. Most children are dead ends, so before a child is made a
check ANDs the option into the few items with the fewest live options only, and stops at the
first that drops to 0 (``all``); the option's own bit is kept there so that the items it
covers stay nonzero. Counting everything (no limit, no solutions kept, no shuffle) takes a
leaner walk, ``_count_all``, over the same tree. Near the leaves a shortcut counts a whole
last level at once: when no more primary items remain than the smallest option covers, every
live option of the chosen item covers all of them and is a solution.

Multiplicities (Knuth's MCC) take a walk of their own, ``_search_multiplicities``: Algorithm M
as ``dlx`` walks it (the same tree, order and node count), with a mask of live options and per
primary item a count of the options it may still take, instead of the ``rest`` list above.

Memory: two masks of all options per option, about options^2 / 4 bytes, and the live masks of
the children waiting on the stack, which grow with depth times width: ``estimated_bytes``
bounds both, and kinds refuse (or pick ``dlx``) when the bound is over the budget.
"""

from __future__ import annotations

import importlib.util
import os
import random
from collections.abc import Callable
from functools import cache, partial
from types import ModuleType

from pysolver import budget
from pysolver.engines.cover import ExactCoverProblem
from pysolver.engines.monitor import (
    CHECK_EVERY,
    Monitor,
    SearchResult,
    entries_work,
    fraction_done,
)

# How the page names this engine (see pysolver.facts): a menu title and one sentence.
TITLE = "Bitsets"
SUMMARY = "Algorithm X with one Python-integer bitmask per item; fastest on tilings."

# How many of the items with the fewest live options the dead end check tries before a child
# is made: most children are dead ends, and nearly always one of these items is what is left
# without options (6x10 pentominoes: the first 0 comes ~11% of the way down the sorted items).
TIGHTEST_ITEMS = 6


def _mask_bytes(options: int) -> int:
    """An int of one bit per option: a header and 4 bytes per 30 bits."""
    return budget.INT_BYTES + options // 7


def _fixed_bytes(problem: ExactCoverProblem) -> int:
    """The masks made before the search: two per option, one per item (each held in lists)
    and, with colours, one per (item, colour) pair some option uses (held in a dict by a
    tuple key, and built first as a bytearray of the same size)."""
    per_mask = _mask_bytes(len(problem.options)) + 2 * budget.POINTER_BYTES
    masks = 2 * len(problem.options) + problem.items
    needed = masks * per_mask
    if problem.colours is not None:
        pairs = len(
            {
                (item, colour)
                for option, colours in zip(problem.options, problem.colours, strict=True)
                for item, colour in zip(option, colours, strict=True)
                if colour
            }
        )
        per_pair = 2 * _mask_bytes(len(problem.options)) + 64 + 3 * budget.POINTER_BYTES
        needed += pairs * per_pair
    return needed


def estimated_bytes(problem: ExactCoverProblem) -> int:
    """What ``search`` allocates before and just after it starts: the fixed masks and the
    children of the first two levels (MRV's shortest column of live masks, one per primary
    item, each). Deeper levels add to the stack as the search goes; ``search`` stops with
    ``too_large`` when the stack would outgrow the budget (a bound that holds for every tree
    is far too pessimistic: MRV's columns shrink fast on real problems). With multiplicities,
    the masks and per-level counters of Algorithm M (``_multiplicity_bytes``)."""
    if problem.multiplicities is not None:
        return _multiplicity_bytes(problem)
    lengths = [0] * problem.primary
    for option in problem.options:
        for item in option:
            if item < problem.primary:
                lengths[item] += 1
    branches = min(lengths, default=0)
    live = 2 * branches * problem.primary
    return _fixed_bytes(problem) + live * (_mask_bytes(len(problem.options)) + budget.POINTER_BYTES)


def _live_cap(problem: ExactCoverProblem) -> int:
    """How many live masks the stack may hold within the budget, next to the fixed masks."""
    room = budget.budget_bytes() - _fixed_bytes(problem)
    return max(0, room) // (_mask_bytes(len(problem.options)) + budget.POINTER_BYTES)


def _too_deep(problem: ExactCoverProblem, live: int) -> None:
    """Raise ``too_large``: the stack of live masks has outgrown the budget."""
    budget.check(
        _fixed_bytes(problem) + live * (_mask_bytes(len(problem.options)) + budget.POINTER_BYTES),
        f"the bitset engine's search state ({live:,} live masks of "
        f"{len(problem.options):,} options each)",
        "make the puzzle smaller (fewer options)",
        fits="dlx",
    )


def search(
    problem: ExactCoverProblem,
    *,
    limit: int | None = None,
    keep_solutions: bool = True,
    max_kept: int | None = None,
    rng: random.Random | None = None,
    monitor: Monitor | None = None,
) -> SearchResult[list[int]]:
    """Find up to ``limit`` exact covers of ``problem`` (all when ``limit`` is None).

    Stats: ``nodes`` (search tree nodes, including the root and each solution) and
    ``mask_ops`` (the unit of work here: per option tried, one big-int AND per uncovered item;
    an upper bound, as a dead end found by the early check costs only a few).

    The steps are Knuth's Algorithm X (TAOCP 7.2.2.1), labelled in the comments as in ``dlx``:
    X1 initialise, X2 enter a level, X3 choose an item, X4-X5 cover it and try its branches
    (here: make every child at once, one AND per item), X6-X8 try again, backtrack and leave
    the level (here: popping the stack, as a child's ``rest`` is a fresh list with nothing to
    undo). The loop is one function for speed (locals are the fastest names in CPython).
    """
    if monitor is None:
        monitor = Monitor()
    if problem.multiplicities is not None:
        return _search_multiplicities(problem, limit, keep_solutions, max_kept, rng, monitor)
    # Random mode stays in Python: a seed then picks the same covers in the CLI, the library and
    # the page (numba's generator would draw other ones).
    fast = compiled_walk() if rng is None else None
    if fast is not None:
        answer = _compiled_search(fast, problem, limit, keep_solutions, max_kept, rng, monitor)
        if answer is not None:
            return answer
    primary = problem.primary
    options = problem.options

    # X1. [Initialise.] The masks: per item its options, per option the compatible ones.
    position_of = _bit_positions(problem)
    option_at = [0] * len(options)
    for option, position in enumerate(position_of):
        option_at[position] = option
    item_masks = _item_masks(problem, position_of)
    compatible, cover_size, smallest_cover = _compatible_masks(
        problem, position_of, item_masks, monitor
    )

    max_depth = primary + 1
    size_at = [0] * max_depth  # per depth: the branch count there
    index_at = [0] * max_depth  # per depth: the branch being explored
    chosen_at = [0] * max_depth  # per depth: its option

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
    # The same with the option's own bit kept: the items it covers keep that bit instead of
    # dropping to 0, so there a 0 means an item left without options and nothing else.
    and_keeping_self = [
        (compatible[option] | 1 << position).__and__ for option, position in enumerate(position_of)
    ]
    shuffle = rng.shuffle if rng is not None else None

    # ``rest``: for each uncovered primary item, in item order, the mask of its live options.
    root = item_masks[:primary]
    # The whole-tree count forms no solutions, so a caller asking for recent ones never gets
    # this walk.
    if limit is None and not keep_solutions and shuffle is None and not monitor.wants_recent:
        nodes, count, mask_ops, cancelled = _count_all(
            problem,
            root,
            [and_compatible[option] for option in option_at],
            [and_keeping_self[option] for option in option_at],
            [cover_size[option] for option in option_at],
            smallest_cover,
            node_weight,
            monitor,
        )
        monitor.finish(nodes, count, not cancelled)
        return SearchResult(
            solutions=solutions,
            count=count,
            complete=not cancelled,
            cancelled=cancelled,
            stats={"nodes": nodes, "mask_ops": mask_ops},
        )
    # Depth-first with an explicit stack of children still to enter, each as (rest, option
    # chosen, depth, branch index, dead ends before it). A node makes all its children at once;
    # a child that leaves an item without options is a dead end: counted as a node where the
    # walk would reach it (``dead ends before`` the next live sibling, or a trailing entry
    # whose rest is None), so node counts match ``dlx`` even when a search stops early.
    stack: list[tuple[list[int] | None, int, int, int, int]] = []
    # Live masks held by the stack, and how many the budget allows (see ``estimated_bytes``).
    live = 0
    live_cap = _live_cap(problem)
    if all(root):
        stack.append((root, -1, 0, 0, 0))
        live = len(root)
    else:
        nodes = 1  # an item without options makes the root a dead end
    # Invariants of the loop:
    # - every stack entry whose ``rest`` is not None is a node to enter at ``depth``: ``rest``
    #   holds, for each primary item its path leaves uncovered, in item order, the nonzero mask
    #   of the options compatible with every option chosen on that path;
    # - when an entry at ``depth`` is popped, chosen_at[:depth - 1] and index_at[:depth - 1]
    #   already hold the choices above it: everything popped since its parent lies beside it
    #   or below, and writes only from index depth - 1 on;
    # - ``live`` is the number of masks the stack holds, at most ``live_cap``;
    # - ``nodes`` counts the nodes ``dlx`` would have entered by now in the same order: a
    #   dead end is counted where the walk passes it (``dead_before``, or a None entry).
    while stack:
        # X2. [Enter level l.] The next node in depth-first order (X6-X8 are this pop).
        rest, option, depth, index, dead_before = stack.pop()
        if rest is not None:
            live -= len(rest)
        nodes += dead_before
        countdown -= dead_before * node_weight
        if rest is not None:
            if depth:
                chosen_at[depth - 1] = option
                index_at[depth - 1] = index
            nodes += 1
            countdown -= node_weight
        if countdown <= 0:
            countdown = CHECK_EVERY
            if monitor.check(nodes, count, partial(fraction_done, index_at, size_at, depth)):
                cancelled = True
                break
        if rest is None:
            continue
        if not rest:
            # X2 (continued). Every primary item is covered: visit the solution.
            count += 1
            if monitor.wants_recent:
                monitor.found(sorted(chosen_at[:depth]))
            if keep_solutions and (max_kept is None or len(solutions) < max_kept):
                solutions.append(sorted(chosen_at[:depth]))
            if limit is not None and count >= limit:
                stopped_by_limit = True
                break
            continue
        # X3. [Choose i.] MRV: ``sorted`` is stable, so ties go to the first item. The items
        # with the fewest options are also the likeliest to be left without any: dead end
        # checks try them.
        by_size = sorted(rest, key=bit_count)
        candidates = by_size[0]
        best = bit_count(candidates)
        if len(rest) <= smallest_cover:
            # Every candidate covers all of ``rest``: each is a solution (a leaf).
            taken = _last_level(
                candidates,
                chosen_at,
                depth,
                option_at,
                count,
                limit,
                shuffle,
                solutions if keep_solutions else None,
                max_kept,
                monitor,
            )
            nodes += taken
            countdown -= taken
            count += taken
            if limit is not None and count >= limit:
                stopped_by_limit = True
                break
            continue
        # X4-X5. [Cover i, try each x_l.] Make every child at once: one AND per item.
        size_at[depth] = best
        order = _options_of(candidates, option_at)
        if shuffle is not None:
            shuffle(order)
        mask_ops += best * len(rest)
        tightest = by_size[:TIGHTEST_ITEMS]
        width = len(rest)
        children = []
        dead = 0
        child_depth = depth + 1
        for index, option in enumerate(order):
            if all(map(and_keeping_self[option], tightest)):
                # The items the option covers drop to 0; any other 0 is an item left without
                # options: a dead end.
                child = list(filter(None, map(and_compatible[option], rest)))
                if len(child) == width - cover_size[option]:
                    children.append((child, option, child_depth, index, dead))
                    live += len(child)
                    dead = 0
                    continue
            dead += 1
        if not children:
            nodes += dead  # all dead ends, visited right after their parent
            countdown -= dead * node_weight
            continue
        if dead:
            stack.append((None, 0, depth, 0, dead))  # visited after the last live sibling
        children.reverse()
        stack.extend(children)
        if live > live_cap:
            _too_deep(problem, live)

    complete = not cancelled and not stopped_by_limit
    monitor.finish(nodes, count, complete)
    return SearchResult(
        solutions=solutions,
        count=count,
        complete=complete,
        cancelled=cancelled,
        stats={"nodes": nodes, "mask_ops": mask_ops},
    )


@cache
def _numba_installed() -> bool:
    return importlib.util.find_spec("numba") is not None


def compiled_walk() -> ModuleType | None:
    """``pysolver.engines.compiled`` when the walks should run compiled: in CPython with numba
    installed (the ``fast`` extra), unless ``PYSOLVER_PURE=1``; else None (pure Python, and
    always in Pyodide, where the module is never imported)."""
    if budget.IN_PYODIDE or os.environ.get("PYSOLVER_PURE") == "1" or not _numba_installed():
        return None
    from pysolver.engines import compiled

    return compiled


def _compiled_search(
    fast: ModuleType,
    problem: ExactCoverProblem,
    limit: int | None,
    keep_solutions: bool,
    max_kept: int | None,
    rng: random.Random | None,
    monitor: Monitor,
) -> SearchResult[list[int]] | None:
    """``search`` by the compiled walk (None when it declines: the pure walk runs). A whole
    count takes this engine's bit positions (narrow masks deep in the tree); a search, whose
    order is the options', puts option ``o`` at bit ``o``."""
    whole_count = limit is None and not keep_solutions and rng is None
    count = len(problem.options)
    position_of = _bit_positions(problem) if whole_count else list(range(count))
    option_at = [0] * count
    for option, position in enumerate(position_of):
        option_at[position] = option
    item_masks = _item_masks(problem, position_of)
    compatible, _, smallest_cover = _compatible_masks(problem, position_of, item_masks, monitor)
    root = item_masks[: problem.primary]
    if not all(root):  # an item without options makes the root a dead end
        monitor.finish(1, 0, True)
        return SearchResult(stats={"nodes": 1, "mask_ops": 0, "kernel": fast.KERNEL})
    result: SearchResult[list[int]] | None
    if whole_count:
        result = fast.count(
            root,
            [compatible[option] for option in option_at],
            [],
            smallest_cover,
            problem.items,
            monitor,
            lambda positions: sorted(option_at[position] for position in positions),
        )
    else:
        result = fast.search(
            root,
            compatible,
            smallest_cover,
            problem.items,
            monitor,
            limit=limit,
            keep_solutions=keep_solutions,
            max_kept=max_kept,
            rng=rng,
        )
    return result


def _compatible_masks(
    problem: ExactCoverProblem, position_of: list[int], item_masks: list[int], monitor: Monitor
) -> tuple[list[int], list[int], int]:
    """Per option, the mask of the options sharing no item with it (with colours: sharing
    none but the items they give the same colour) and how many primary items it covers; and
    the fewest primary items any branchable option covers."""
    primary = problem.primary
    every_option = (1 << len(problem.options)) - 1
    compatible = []
    cover_size = []
    smallest_cover = primary
    colours = problem.colours
    same_colour = _same_colour_masks(problem, position_of) if colours is not None else {}
    for index, option_items in enumerate(problem.options):
        monitor.checkpoint(entries_work(len(option_items)))  # options may be long
        conflict = 0
        if colours is None:
            for item in option_items:
                conflict |= item_masks[item]
        else:
            # x:c conflicts with the options using x, except those giving it colour c too.
            for item, colour in zip(option_items, colours[index], strict=True):
                mask = item_masks[item]
                conflict |= mask & ~same_colour[item, colour] if colour else mask
        compatible.append(every_option & ~conflict)
        size = sum(1 for item in option_items if item < primary)
        cover_size.append(size)
        if 0 < size < smallest_cover:
            smallest_cover = size
    return compatible, cover_size, smallest_cover


def _bit_positions(problem: ExactCoverProblem) -> list[int]:
    """Per option, its bit in every mask.

    Big-int operations cost by the width of their operands, so the search wants the live masks
    narrow: options likely to die early get the high bits. MRV breaks ties toward the first
    item, so the search tends to cover items in order; an option dies with its first item, so
    options are ranked by their first item, the latest first in the lowest bits.
    """
    ranked = sorted(
        range(len(problem.options)),
        key=lambda option: -min(problem.options[option], default=problem.items),
    )
    positions = [0] * len(ranked)
    for position, option in enumerate(ranked):
        positions[option] = position
    return positions


def _item_masks(problem: ExactCoverProblem, position_of: list[int]) -> list[int]:
    """Per item, the mask of the options containing it (built as bytes: linear, not quadratic)."""
    byte_count = (len(problem.options) + 7) // 8
    option_bytes = [bytearray(byte_count) for _ in range(problem.items)]
    for index, option in enumerate(problem.options):
        byte, bit = divmod(position_of[index], 8)
        for item in option:
            option_bytes[item][byte] |= 1 << bit
    return [int.from_bytes(data, "little") for data in option_bytes]


def _same_colour_masks(
    problem: ExactCoverProblem, position_of: list[int]
) -> dict[tuple[int, int], int]:
    """Per (item, colour) used by some option: the mask of the options giving it that colour
    (built as bytes, as in ``_item_masks``)."""
    byte_count = (len(problem.options) + 7) // 8
    masks: dict[tuple[int, int], bytearray] = {}
    option_colours = problem.colours or []
    for index, (option, colours) in enumerate(zip(problem.options, option_colours, strict=True)):
        byte, bit = divmod(position_of[index], 8)
        for item, colour in zip(option, colours, strict=True):
            if colour:
                data = masks.get((item, colour))
                if data is None:
                    data = masks[item, colour] = bytearray(byte_count)
                data[byte] |= 1 << bit
    return {key: int.from_bytes(data, "little") for key, data in masks.items()}


def _options_of(mask: int, option_at: list[int]) -> list[int]:
    """The options whose bits are set in ``mask``, in option order (``dlx``'s column order)."""
    found = []
    while mask:
        # From the top: ``bit_length`` is free, and each step leaves a narrower int.
        position = mask.bit_length() - 1
        found.append(option_at[position])
        mask ^= 1 << position
    found.sort()
    return found


def _last_level(
    candidates: int,
    chosen_at: list[int],
    depth: int,
    option_at: list[int],
    count: int,
    limit: int | None,
    shuffle: Callable[[list[int]], None] | None,
    kept: list[list[int]] | None,
    max_kept: int | None,
    monitor: Monitor,
) -> int:
    """A last level, where each candidate covers every item left and so is a solution (a
    leaf): how many of them the search takes (all, or up to the limit). Their solutions,
    formed only when needed, go to ``kept`` (up to ``max_kept`` in all); a monitor that wants
    recent solutions hears of the last one taken (kept or not: a count with a heatmap keeps
    them, and shows what it finds as a plain count does)."""
    if kept is None and shuffle is None:
        taken = candidates.bit_count()
        if limit is not None:
            taken = min(taken, limit - count)
        if monitor.wants_recent and taken:
            last = option_at[candidates.bit_length() - 1]
            monitor.found(sorted([*chosen_at[:depth], last]))
        return taken
    order = _options_of(candidates, option_at)
    if shuffle is not None:
        shuffle(order)
    if limit is not None and count + len(order) > limit:
        del order[limit - count :]
    if kept is not None:
        chosen = chosen_at[:depth]
        room = len(order) if max_kept is None else max(0, max_kept - len(kept))
        kept.extend(sorted([*chosen, option]) for option in order[:room])
    if monitor.wants_recent and order:
        monitor.found(sorted([*chosen_at[:depth], order[-1]]))
    return len(order)


def _count_all(
    problem: ExactCoverProblem,
    root: list[int],
    and_at: list[Callable[[int], int]],
    and_keeping_self_at: list[Callable[[int], int]],
    cover_at: list[int],
    smallest_cover: int,
    node_weight: int,
    monitor: Monitor,
) -> tuple[int, int, int, bool]:
    """Count every solution and node: (nodes, solutions, mask_ops, cancelled).

    With no limit, no solutions kept and no shuffle, the order of siblings changes none of the
    totals, so this walk skips what ``search`` does to keep ``dlx``'s order (sorting each
    node's options, placing dead ends among their live siblings): options are read straight
    from their bits (the lists are indexed by bit), and dead ends are counted at their parent.
    Same tree and totals; only the progress fraction and the node count at a cancel differ.
    """
    if not all(root):
        return 1, 0, 0, False  # an item without options makes the root a dead end
    bit_count = int.bit_count
    size_at = [0] * (len(root) + 1)  # per depth: the branch count there
    index_at = [0] * (len(root) + 1)  # per depth: the branch being explored
    nodes = 0
    count = 0
    mask_ops = 0
    countdown = CHECK_EVERY
    # Children still to enter, each as (rest, depth, branch index).
    stack: list[tuple[list[int], int, int]] = [(root, 0, 0)]
    pop = stack.pop
    push = stack.append
    live = len(root)  # live masks held by the stack (see ``search``)
    live_cap = _live_cap(problem)
    while stack:
        rest, depth, index = pop()
        live -= len(rest)
        nodes += 1
        countdown -= node_weight
        if depth:
            index_at[depth - 1] = index
        if countdown <= 0:
            countdown = CHECK_EVERY
            if monitor.check(nodes, count, partial(fraction_done, index_at, size_at, depth)):
                return nodes, count, mask_ops, True
        if not rest:
            count += 1
            continue
        by_size = sorted(rest, key=bit_count)  # stable: MRV ties go to the first item
        candidates = by_size[0]
        best = bit_count(candidates)
        width = len(rest)
        if width <= smallest_cover:
            # Every candidate covers all of ``rest``: each is a solution (a leaf).
            nodes += best
            countdown -= best
            count += best
            continue
        size_at[depth] = best
        mask_ops += best * width
        tightest = by_size[:TIGHTEST_ITEMS]
        child_depth = depth + 1
        dead = 0
        while candidates:
            position = candidates.bit_length() - 1
            candidates ^= 1 << position
            best -= 1  # branch indexes count down: the stack pops the last pushed first
            if all(map(and_keeping_self_at[position], tightest)):
                child = list(filter(None, map(and_at[position], rest)))
                if len(child) == width - cover_at[position]:
                    push((child, child_depth, best))
                    live += len(child)
                    continue
            dead += 1
        if live > live_cap:
            _too_deep(problem, live)
        nodes += dead
        countdown -= dead * node_weight
    return nodes, count, mask_ops, False


# ---------------------------------------------------------------- multiplicities (Algorithm M)


def _multiplicity_bytes(problem: ExactCoverProblem) -> int:
    """What ``_search_multiplicities`` allocates: per item its mask and per option the mask of
    the options its secondary items allow, then per level of the walk a live mask and the
    level's counters (each primary item's bound, the active items, the branches). A level
    chooses one option or retires one item, so there are at most options + primary levels."""
    options = len(problem.options)
    mask = _mask_bytes(options) + budget.POINTER_BYTES
    fixed = (problem.items + options) * mask + options * budget.LIST_BYTES
    counters = 3 * problem.primary * budget.POINTER_BYTES + 3 * budget.LIST_BYTES
    levels = min(options, sum(high for _, high in problem.multiplicities or [])) + problem.primary
    return fixed + (levels + 1) * (mask + counters)


def _allowed_masks(
    problem: ExactCoverProblem, item_masks: list[int], monitor: Monitor
) -> list[int]:
    """Per option (bit = option index), the options its secondary items allow beside it: not
    itself, none using one of its uncoloured secondary items, none giving one of its coloured
    items another colour (or none). Primary items are left to the counters of the search."""
    every_option = (1 << len(problem.options)) - 1
    same_colour = (
        _same_colour_masks(problem, list(range(len(problem.options))))
        if problem.colours is not None
        else {}
    )
    allowed = []
    for option, items in enumerate(problem.options):
        monitor.checkpoint(entries_work(len(items)))  # options may be long
        conflict = 1 << option
        colours = problem.colours[option] if problem.colours is not None else [0] * len(items)
        for item, colour in zip(items, colours, strict=True):
            if item >= problem.primary:
                mask = item_masks[item]
                conflict |= mask & ~same_colour[item, colour] if colour else mask
        allowed.append(every_option & ~conflict)
    return allowed


def _search_multiplicities(
    problem: ExactCoverProblem,
    limit: int | None,
    keep_solutions: bool,
    max_kept: int | None,
    rng: random.Random | None,
    monitor: Monitor,
) -> SearchResult[list[int]]:
    """``search`` for a problem with multiplicities: Knuth's Algorithm M (``dlx``'s
    ``_walk_multiplicities``) over bitmasks, the same tree in the same order (without ``rng``).

    A node is ``live`` (the mask of the options still choosable; bit = option index), per
    primary item its ``bound`` (how many more options may cover it) and ``active``, the items
    still open, in item order. The item branched on is the one of least branch degree, as in
    ``dlx`` (ties: smaller slack, longer column, first item). Its branches are its live options
    in column order, the k-th finding the sets that hold it and none of the k - 1 before it
    (Knuth's tweak: they leave ``live``), and, when its lower bound is met, a null branch that
    takes none of them and retires the item. So every set of options is found once. Choosing
    an option ANDs in what its secondary items allow (colours as in ``search``) and lowers the
    bound of each primary item it covers; an item at 0 is closed and its other options leave
    ``live``. The walk is depth first over an explicit stack of levels, no recursion.
    """
    primary = problem.primary
    options = problem.options
    item_masks = _item_masks(problem, list(range(len(options))))
    allowed = _allowed_masks(problem, item_masks, monitor)
    primaries_of = [[item for item in items if item < primary] for items in options]
    multiplicities = problem.multiplicities or []
    slack_of = [high - low for low, high in multiplicities]
    bit_count = int.bit_count
    option_at = list(range(len(options)))  # bit = option index here

    def branch_item(live: int, bound: list[int], active: list[int]) -> tuple[int, int] | None:
        """Algorithm M's choice (M3): (item, its column mask); (-1, 0) at a dead end; None at
        a solution (no active item has a live option). The rule of ``dlx``'s M3, inline for
        speed (see the comment there)."""
        best_key: tuple[bool, int, int, int] | None = None
        best = (-1, 0)
        for item in active:
            column = live & item_masks[item]
            length = bit_count(column)
            item_bound = bound[item]
            item_slack = min(slack_of[item], item_bound)
            degree = length + item_slack - item_bound + 1
            if degree <= 0:
                return -1, 0
            if length:
                unconstrained = item_slack == item_bound and length <= item_bound
                key = (unconstrained, degree, item_slack, -length)
                if best_key is None or key < best_key:
                    best_key = key
                    best = (item, column)
        return None if best_key is None else best

    solutions: list[list[int]] = []
    count = 0
    nodes = 0
    mask_ops = 0  # one AND per active item at each node (its column)
    countdown = CHECK_EVERY
    cancelled = False
    stopped_by_limit = False
    # Per level: the item branched on, its branches (an option, or -1 for the null branch),
    # the node's live mask, bounds and active items; and the branch being explored. ``chosen``
    # holds the option of each level that chose one.
    item_at: list[int] = []
    branches_at: list[list[int]] = []
    node_at: list[tuple[int, list[int], list[int]]] = []
    index_at: list[int] = []
    size_at: list[int] = []
    chosen: list[int] = []
    # The node to enter next: (live, bound, active); None when the levels hold the next one.
    entering: tuple[int, list[int], list[int]] | None = (
        (1 << len(options)) - 1,
        [high for _, high in multiplicities],
        list(range(primary)),
    )
    # Invariants: ``entering`` (when set) is the child of the last level's current branch (or
    # the root); at level k, node_at[k] is the node it branches, index_at[k] the branch being
    # explored, and ``chosen`` lists the options of the levels' current branches, in order.
    while True:
        if entering is not None:
            # M2. [Enter level l.]
            live, bound, active = entering
            entering = None
            nodes += 1
            # A node ANDs a mask of every option per active item (``branch_item``): on big
            # matrices it counts as several, one per ~1M bits, as in ``search``.
            countdown -= 1 + (len(active) * len(options) >> 20)
            if countdown <= 0:
                countdown = CHECK_EVERY
                progress = partial(fraction_done, index_at, size_at, len(index_at))
                if monitor.check(nodes, count, progress):
                    cancelled = True
                    break
            mask_ops += len(active)
            choice = branch_item(live, bound, active)
            if choice is None:
                # Every active item is settled: a solution.
                count += 1
                if monitor.wants_recent:
                    monitor.found(sorted(chosen))
                if keep_solutions and (max_kept is None or len(solutions) < max_kept):
                    solutions.append(sorted(chosen))
                if limit is not None and count >= limit:
                    stopped_by_limit = True
                    break
            elif choice[0] >= 0:
                # M4-M5. The branches: the column's options while enough are left to reach
                # the item's lower bound, then the null branch when that bound is met.
                item, column = choice
                order = _options_of(column, option_at)
                # Listing a column walks its bits in Python: one more unit per 32 options
                # (0:3000|a over 3,000 options: 512 such nodes took 5 s).
                countdown -= len(order) >> 5
                if rng is not None:
                    rng.shuffle(order)
                after = bound[item] - 1
                needed = after - slack_of[item]
                branches = [
                    option
                    for position, option in enumerate(order)
                    if len(order) - position > needed
                ]
                if after < slack_of[item]:
                    branches.append(-1)
                item_at.append(item)
                branches_at.append(branches)
                node_at.append((live, bound, active))
                index_at.append(-1)
                size_at.append(len(branches))
        # M6-M9: the next branch of the deepest level that has one, leaving exhausted levels.
        while item_at:
            index = index_at[-1]
            branches = branches_at[-1]
            if index >= 0 and branches[index] >= 0:
                chosen.pop()
            index += 1
            if index == len(branches):
                item_at.pop()
                branches_at.pop()
                node_at.pop()
                index_at.pop()
                size_at.pop()
                continue
            index_at[-1] = index
            item = item_at[-1]
            live, bound, active = node_at[-1]
            if index:
                # Tweak: the option of the branch before this one leaves ``live`` for good
                # at this level (the node keeps the mask with every earlier one gone).
                live &= ~(1 << branches[index - 1])
                node_at[-1] = (live, bound, active)
            option = branches[index]
            if option < 0:
                # The null branch: the item takes no more options and is retired.
                entering = (
                    live & ~item_masks[item],
                    bound,
                    [other for other in active if other != item],
                )
            else:
                live &= allowed[option]
                bound = list(bound)
                closed = []
                for covered in primaries_of[option]:
                    bound[covered] -= 1
                    if not bound[covered]:
                        live &= ~item_masks[covered]
                        closed.append(covered)
                chosen.append(option)
                entering = (
                    live,
                    bound,
                    [other for other in active if other not in closed] if closed else active,
                )
            break
        if entering is None:
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
