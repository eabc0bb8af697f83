"""Exact cover with forced moves ("singles") propagated before every branch.

Same problem, arguments and answers as the ``dlx`` and ``bitset`` engines (see
``pysolver.engines.cover``): a solution is the sorted list of chosen option indices. The
difference is the shape of the search:

* Whenever a primary item is left with exactly one live option, that option is chosen at once,
  without counting a search node; whenever one is left with none, the branch dies. In Sudoku
  terms a cell item with one option is a *naked single* and a row/column/box item with one
  option is a *hidden single*, but this module knows nothing of Sudoku.
* Branching happens only on an item with the fewest live options (at least two).
* With ``locked=True`` (the ``locked`` engine, ``pysolver.engines.locked``) locked candidates
  are applied too, to the fixpoint with singles (``_lock``).
* The state of a branch is two flat arrays, copied when a node branches instead of being undone
  on backtrack: ``counts`` (live options per item) and ``status`` (per option: dead, live,
  chosen). On problems whose matrices are a few hundred options wide (Sudoku after its givens)
  copying two short arrays in C is cheaper than undoing the moves one by one in Python.

Colours (XCC): choosing an option kills, per item of it, the live options it excludes there:
every other option using the item, except, for an item it gives colour ``c``, the options that
give it ``c`` too. These exclusion lists are built once per (item, colour) and shared; without
colours they are the items' option lists themselves.

Covered items and secondary items hold a count of ``COVERED`` so that ``min(counts)`` (a C loop)
finds the branching item and a value of ``COVERED // 2`` or more means every primary item is
covered. The search is iterative (an explicit stack of frames), honours ``Monitor.check`` every
``CHECK_EVERY`` nodes and reports Knuth's estimate of the fraction of the tree explored.
"""

from __future__ import annotations

import random
from typing import Any

from pysolver import budget
from pysolver.engines.cover import LOCKED_MOST, ExactCoverProblem
from pysolver.engines.monitor import (
    CHECK_EVERY,
    CHECKPOINT_EVERY,
    ENTRIES_PER_UNIT,
    Monitor,
    SearchResult,
)

# How the page names this engine (see pysolver.facts): a menu title and one sentence.
TITLE = "Singles, then branching"
SUMMARY = "Takes forced options first (naked and hidden singles), then branches."

# Count of an item that is covered (or secondary, which is never forced and never branched on).
# Far above any real count, and far enough above COVERED // 2 that decrements never reach it.
COVERED = 1 << 40
HALF_COVERED = COVERED // 2

DEAD, LIVE, CHOSEN = 0, 1, 2
# With ``locked``: at most this many option tuples keep their shared items (``_lock``), about
# 200 bytes each. A count of 67,768 Sudoku solutions (140,000 nodes) met 1,101 tuples.
SHARED_KEPT = 1 << 12
SHARED_BYTES = 200
# Matrix entries read between two checkpoints while building the per-item option lists: the
# work of CHECKPOINT_EVERY options of ENTRIES_PER_UNIT entries (see pysolver.engines.monitor).
CHECKPOINT_ENTRIES = CHECKPOINT_EVERY * ENTRIES_PER_UNIT


def _assign(
    option: int,
    forced: list[int],
    counts: list[int],
    status: bytearray,
    option_items: list[list[int]],
    item_options: list[list[int]],
    excluded_by: list[list[list[int]]],
    watched: list[int],
    most: int,
) -> bool:
    """Choose ``option`` (or, if it is -1, start from the ``forced`` items) and every single.

    ``excluded_by[option]``: per item of the option, the options that choosing it excludes
    there. Returns False when some primary item is left without options (the branch is dead).
    The ``forced`` list holds items whose count fell to one; it is consumed. Items whose count
    falls to 2 .. ``most`` are appended to ``watched`` (for ``_lock``; ``most`` 1: none are).
    """
    # The hottest loop of the engine: status values are written as literals (0 dead, 1 live,
    # 2 chosen) and the constants bound to locals, because global lookups cost here.
    covered = COVERED
    push = forced.append
    watch = watched.append
    while True:
        if option >= 0:
            status[option] = 2
            items = option_items[option]
            for item in items:
                counts[item] = covered
            for excluded in excluded_by[option]:
                for other in excluded:
                    if status[other] == 1:
                        status[other] = 0
                        for touched in option_items[other]:
                            left = counts[touched] - 1
                            counts[touched] = left
                            if left <= most:
                                if left < 2:
                                    if not left:
                                        return False
                                    push(touched)
                                else:
                                    watch(touched)
        # The next single: a forced item not covered since it was queued.
        while forced:
            item = forced.pop()
            if counts[item] == 1:
                break
        else:
            return True
        for option in item_options[item]:  # noqa: B007 - the loop finds the live option
            if status[option] == 1:
                break


def _lock(
    counts: list[int],
    status: bytearray,
    option_items: list[list[int]],
    item_options: list[list[int]],
    excluded_by: list[list[list[int]]],
    watched: list[int],
    most: int,
    shared_by: dict[tuple[int, ...], list[int]],
) -> bool:
    """Locked candidates, to the fixpoint with singles: when every live option of an item
    ``a`` also covers an item ``b``, the option that covers ``a`` covers ``b``, so ``b``'s live
    options without ``a`` die. Only the ``watched`` items (their count fell to 2 .. ``most``)
    are looked at as ``a``: the rule can only newly hold where ``a`` lost options.

    In Sudoku terms: a box's digit whose places lie in one row or column is not elsewhere in
    that line (pointing), and a line's digit whose places lie in one box is not elsewhere in
    that box (claiming). Returns False when a branch dies.

    ``shared_by``: the items common to a tuple of options, kept for the whole search (the same
    few pairs of options come back in node after node).
    """
    covered = HALF_COVERED
    forced: list[int] = []
    push = forced.append
    watch = watched.append
    while watched:
        batch = set(watched)
        watched.clear()
        for item in batch:
            live_count = counts[item]
            if live_count < 2 or live_count > most:
                continue
            live = tuple([o for o in item_options[item] if status[o] == 1])
            shared = shared_by.get(live)
            if shared is None:
                common = set(option_items[live[0]]).intersection(
                    *[option_items[o] for o in live[1:]]
                )
                shared = sorted(common)
                if len(shared_by) < SHARED_KEPT:
                    shared_by[live] = shared
            if len(shared) == 1:  # the item itself
                continue
            for other in shared:
                if not live_count < counts[other] < covered:
                    continue  # the item itself, a secondary item, or the same options
                for option in item_options[other]:
                    if status[option] == 1 and item not in option_items[option]:
                        # Struck as _assign strikes an excluded option (inline for speed).
                        status[option] = 0
                        for touched in option_items[option]:
                            left = counts[touched] - 1
                            counts[touched] = left
                            if left <= most:
                                if left < 2:
                                    if not left:
                                        return False
                                    push(touched)
                                else:
                                    watch(touched)
            if forced and not _assign(
                -1, forced, counts, status, option_items, item_options, excluded_by, watched, most
            ):
                return False
    return True


def estimated_bytes(problem: ExactCoverProblem) -> int:
    """What ``search`` allocates at most: the per-item option lists, and per branching level a
    copy of ``counts`` and ``status``. Every level chooses an option covering at least the
    fewest primary items any option covers, which bounds the depth."""
    entries = sum(map(len, problem.options))
    if problem.secondary:
        primary = problem.primary
        covers = [sum(1 for item in option if item < primary) for option in problem.options]
    else:
        # Every item is primary: an option covers its length (a C loop; this bound is taken
        # before every search, and on a Sudoku it was a twentieth of the whole solve).
        covers = list(map(len, problem.options))
    smallest = min(filter(None, covers), default=1)
    depth = problem.primary // smallest + 1
    frame = budget.list_bytes(problem.items) + len(problem.options) + budget.LIST_BYTES
    needed = budget.list_bytes(entries) + problem.items * budget.LIST_BYTES + depth * frame
    if problem.colours is not None:
        # The (option, item) -> colour dict (a tuple key and a slot per entry), and per (item,
        # colour) used an exclusion list of at most the item's options.
        column = [0] * problem.items
        for option in problem.options:
            for item in option:
                column[item] += 1
        pairs = {
            (item, colour)
            for option, colours in zip(problem.options, problem.colours, strict=True)
            for item, colour in zip(option, colours, strict=True)
            if colour
        }
        needed += entries * (64 + 3 * budget.POINTER_BYTES)
        needed += sum(budget.list_bytes(column[item]) for item, _colour in pairs)
    return needed


def search(
    problem: ExactCoverProblem,
    *,
    limit: int | None = None,
    keep_solutions: bool = True,
    max_kept: int | None = None,
    rng: random.Random | None = None,
    monitor: Monitor | None = None,
    locked: bool = False,
) -> SearchResult[list[int]]:
    """Find up to ``limit`` exact covers of ``problem`` (all when None); see the module doc."""
    monitor = monitor or Monitor()
    option_items = problem.options
    item_count = problem.items
    item_options: list[list[int]] = [[] for _ in range(item_count)]
    # Per option, per item of it, that item's option list (filled by this same loop: the lists
    # are shared, not copied). The uncoloured exclusion lists (see ``_exclusions``); built here
    # in one pass because on a Sudoku this set-up was a tenth of a whole request.
    columns_of: list[list[list[int]]] = []
    add_columns = columns_of.append
    column_at = item_options.__getitem__
    # One checkpoint per chunk of options of about CHECKPOINT_ENTRIES entries in all, not per
    # option: on a Sudoku (four entries an option) the calls were a third of this set-up.
    longest = max(map(len, option_items), default=1)
    chunk = max(1, CHECKPOINT_ENTRIES // max(longest, 1))
    for start in range(0, len(option_items), chunk):
        options = option_items[start : start + chunk]
        monitor.checkpoint(len(options) + sum(map(len, options)) // ENTRIES_PER_UNIT)
        for option, items in enumerate(options, start):
            columns = list(map(column_at, items))
            for column in columns:
                column.append(option)
            add_columns(columns)
    colours = problem.colours
    excluded_by = columns_of if colours is None else _exclusions(problem, colours, item_options)
    # Without ``locked`` no item is watched (``most`` 1) and ``settled`` takes singles only.
    most = LOCKED_MOST if locked else 1
    shared_by: dict[tuple[int, ...], list[int]] = {}

    def settled(
        option: int, forced: list[int], watched: list[int], counts: list[int], status: bytearray
    ) -> bool:
        """Choose ``option`` (-1: none, the root), force singles and, with ``locked``, apply
        locked candidates to the fixpoint; False when the branch dies. (The state is passed
        in, not closed over: the search loop reads it at every node, and a closed-over local
        is a slower one.)"""
        if not _assign(
            option, forced, counts, status, option_items, item_options, excluded_by, watched, most
        ):
            return False
        if not watched:  # no item lost options down to LOCKED_MOST (or not ``locked``)
            return True
        return _lock(
            counts, status, option_items, item_options, excluded_by, watched, most, shared_by
        )

    counts = list(map(len, item_options))
    counts[problem.primary :] = [COVERED] * problem.secondary
    status = bytearray([LIVE]) * len(option_items)
    solutions: list[list[int]] = []
    count = 0
    nodes = 0
    explored = 0.0  # Knuth's estimate: summed weights of finished subtrees

    def fraction() -> float:
        return explored

    # The root: an uncoverable primary item means no solution at all; singles are forced.
    root_ok = problem.primary == 0 or min(counts[: problem.primary]) > 0
    if root_ok:
        forced = [item for item in range(problem.primary) if counts[item] == 1]
        watched = (
            [item for item in range(problem.primary) if 1 < counts[item] <= most]
            if locked
            else []  # none without ``locked`` (``most`` 1); skipped, as on every request
        )
        root_ok = settled(-1, forced, watched, counts, status)
    if not root_ok:
        monitor.finish(nodes, count, True)
        return SearchResult([], 0, True, False, {"nodes": nodes})

    # A frame: the state before branching, the options to try, the next one, a child's weight.
    # Frames are mutable lists [counts, status, choices, next index, child weight].
    stack: list[list[Any]] = []
    state: tuple[list[int], bytearray] | None = (counts, status)
    weight = 1.0
    stopped = False
    # Like dlx and bitset: a stop asked by the monitor is a cancel, whatever kind of monitor.
    cancelled = False
    # A node copies its counts and statuses and forces its singles: on a 36x36 Sudoku (46,656
    # options) 512 of them took a second or more; there a node counts as one per 4,096 options.
    checked_nodes = max(1, CHECK_EVERY // max(1, len(option_items) >> 12))
    next_check = checked_nodes
    while True:
        if state is not None:
            counts, status = state
            state = None
            smallest = min(counts) if counts else COVERED
            if smallest >= HALF_COVERED:
                count += 1
                explored += weight
                if monitor.wants_recent:
                    monitor.found([o for o, s in enumerate(status) if s == CHOSEN])
                if keep_solutions and (max_kept is None or len(solutions) < max_kept):
                    solutions.append([o for o, s in enumerate(status) if s == CHOSEN])
                if limit is not None and count >= limit:
                    stopped = True
                    break
            else:
                item = counts.index(smallest)
                choices = [o for o in item_options[item] if status[o] == LIVE]
                if rng is not None:
                    rng.shuffle(choices)
                stack.append([counts, status, choices, 0, weight / len(choices)])
        if not stack:
            break
        frame = stack[-1]
        parent_counts, parent_status, choices, index, weight = frame
        if index + 1 == len(choices):
            # The last child may take over the parent's arrays: nobody needs them afterwards.
            stack.pop()
            counts, status = parent_counts, parent_status
        else:
            frame[3] = index + 1
            counts, status = parent_counts.copy(), parent_status[:]
        nodes += 1
        if settled(choices[index], [], [], counts, status):
            state = (counts, status)
        else:
            explored += weight
        if nodes >= next_check:
            next_check = nodes + checked_nodes
            if monitor.check(nodes, count, fraction):
                stopped = cancelled = True
                break

    complete = not stopped
    monitor.finish(nodes, count, complete)
    return SearchResult(solutions, count, complete, cancelled, {"nodes": nodes})


def _exclusions(
    problem: ExactCoverProblem, colours: list[list[int]], item_options: list[list[int]]
) -> list[list[list[int]]]:
    """Per option, per item of it, the options that choosing it excludes through that item, in
    a problem with ``colours`` (without, ``search`` takes the items' option lists).

    Uncoloured entries exclude every option using the item (its option list, shared). An entry
    giving ``x`` colour ``c`` excludes the options using ``x`` uncoloured or in another colour:
    one list per (item, colour), shared by every option giving ``x`` that colour.
    """
    colour_at: dict[tuple[int, int], int] = {}  # (option, item): the colour given
    for option, (items, given) in enumerate(zip(problem.options, colours, strict=True)):
        for item, colour in zip(items, given, strict=True):
            colour_at[option, item] = colour
    shared: dict[tuple[int, int], list[int]] = {}
    excluded_by = []
    for items, given in zip(problem.options, colours, strict=True):
        lists = []
        for item, colour in zip(items, given, strict=True):
            if not colour:
                lists.append(item_options[item])
                continue
            excluded = shared.get((item, colour))
            if excluded is None:
                excluded = shared[item, colour] = [
                    other for other in item_options[item] if colour_at[other, item] != colour
                ]
            lists.append(excluded)
        excluded_by.append(lists)
    return excluded_by
