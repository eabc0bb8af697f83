"""Exact cover by Knuth's Algorithm X on dancing links, in flat integer lists.

Node layout (as in Knuth's DLX1, but with one list per field instead of a record per node):

- node 0 is the root; nodes ``1 .. items`` are the item headers. The active primary items form
  the circular horizontal list ``left``/``right`` through the root. Secondary items sit in
  their own circular list headed by node ``items + 1`` (an extra header that is never an item),
  so they are never chosen for branching; covering them when an option uses them is what makes
  them "at most once".
- option nodes follow, one per (option, item) entry, options stored consecutively, each node
  linked vertically (``up``/``down``) into its item's column; ``top`` is the item of a node,
  ``nodes_of`` the nodes of its option, ``option_of`` its option index.
- ``length[i]`` is the number of options still in item ``i``'s column.

The search is iterative: per level, the chosen item and the list of its option nodes (in
column order, or shuffled by ``rng``) with the index of the branch being tried. Item choice is
MRV: the active primary item with the fewest options, the first on ties.

Work avoided compared with a textbook DLX, without changing the tree (``bitset`` walks the same
one, node for node):

- Dead ends are never entered. Most branches on pentomino-like matrices leave some item without
  options (two thirds of the 6x10 tree). Before covering a branch, a bounded look-ahead walks
  the active columns for one whose every option conflicts with the branch; failing that, the
  covering itself stops at the first column that empties an item. Either way the dead end is
  counted as a node and undone at once, with no MRV scan; and since entered nodes never hold
  an empty column, the MRV scan stops at the first column of length 1.
- The items of a chosen option are covered together: an option conflicting with several of
  them is hidden once, and only from the columns outside the option (the option's own columns
  are about to go). The unlinked nodes are logged, and the undo relinks them in exactly the
  reverse order, without walking the columns again.

Colours (Knuth's DLX2, XCC): a chosen option that gives secondary item ``x`` colour ``c``
*purifies* ``x`` instead of covering it: the options giving ``x`` colour ``c`` stay, every other
option using ``x`` is hidden. Here purifying is two steps that reuse the covering above: first
the nodes of colour ``c`` are unlinked from ``x``'s column alone (logged like any unlink, so the
undo restores them), then ``x`` is covered with the option's other items, which hides exactly
what is left in its column. The options that keep colour ``c`` stay linked in every other
column and can be chosen later; when one is, ``x`` is already marked as being covered and is
skipped, as Knuth skips the nodes his purify marked. Uncoloured problems never take this path.

Multiplicities (Knuth's DLX3, MCC: a primary item covered between u and v times) take a walk
of their own, ``_walk_multiplicities``: Knuth's Algorithm M on the same links, one option at a
time (no look-ahead, no covering together), with per item a ``bound`` (options it may still
take) and a ``slack`` (v - u), and Knuth's *tweak*, which takes each option tried out of the
branch item's column so that no set of options is found twice. ``walk`` chooses it when the
problem has multiplicities; plain exact cover never reaches that code.

Stats: ``nodes`` (search tree nodes, including the root, dead ends and solutions) and
``updates`` (Knuth's count of node unlinkings, the ones actually done; with colours they include
the nodes that purifying sets aside).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple

from pysolver import budget
from pysolver.engines import trace
from pysolver.engines.cover import ExactCoverProblem
from pysolver.engines.monitor import (
    CHECK_EVERY,
    Monitor,
    SearchResult,
    entries_work,
    fraction_done,
)
from pysolver.engines.trace import Recorder, TraceFull

# How the page names this engine (see pysolver.facts): a menu title and one sentence.
TITLE = "Dancing links (Knuth)"
SUMMARY = "Algorithm X on Knuth's dancing links, kept in flat integer lists."

# At ~0.2 us an update in CPython, about 10 ms of work between two monitor checks.
UPDATES_PER_CHECK = 50_000


def links_bytes(items: int, options: int, entries: int) -> int:
    """What the links of a matrix of this size take, known before the matrix is built.

    Per entry: eight list slots (``up``, ``down``, ``top``, ``nodes_of``, ``option_of``,
    ``hidden_in``, ``items_of_node`` and, at worst, the unlink log), the node's own int (the
    only one: the build shares the header's) and its place in two per-option tuples; per
    option, those tuples; per item, its header slots. Lists grown by appending over-allocate
    and the search makes ints of its own, hence the factor of two: tracemalloc measures about
    105 bytes per entry for the built links (20,000 options of 100 items).
    """
    per_entry = 2 * (8 * budget.POINTER_BYTES + budget.INT_BYTES + 2 * budget.POINTER_BYTES)
    per_option = 2 * budget.LIST_BYTES
    per_item = 8 * budget.POINTER_BYTES + budget.INT_BYTES
    return entries * per_entry + options * per_option + items * per_item


def estimated_bytes(problem: ExactCoverProblem) -> int:
    """What ``search`` allocates for ``problem`` (see ``links_bytes``). With colours, also a
    colour slot per node and, per option, the look-ahead's set of its uncoloured headers; with
    multiplicities, Algorithm M's per-node colours and per-item bounds."""
    entries = sum(map(len, problem.options))
    needed = links_bytes(problem.items, len(problem.options), entries)
    if problem.colours is not None:
        frozenset_bytes = 216  # an empty frozenset; each entry adds a hash slot and its header
        needed += entries * (budget.POINTER_BYTES + 2 * budget.POINTER_BYTES)
        needed += len(problem.options) * frozenset_bytes
    if problem.multiplicities is not None:
        # Algorithm M: a colour slot per node (its own copy), a bound and a slack per item.
        needed += (entries + 2 * problem.items) * budget.POINTER_BYTES
    return needed


@dataclass
class _Links:
    """The dancing links of one problem (layout in the module's docstring), and the scratch
    state ``cover``/``uncover``/``set_aside`` share with the search."""

    primary: int
    left: list[int]
    right: list[int]
    up: list[int]
    down: list[int]
    top: list[int]
    # Per node, the tuple of all nodes of its option (one shared tuple per option).
    nodes_of: list[tuple[int, ...]]
    option_of: list[int]
    length: list[int]
    # Per node, the colour its option gives its item (0 = none); empty without colours.
    node_colour: list[int]
    # Per option, the headers of its items; per node, those of its option.
    option_items: list[tuple[int, ...]]
    items_of_node: list[tuple[int, ...]]
    # Primary items whose column length dropped to 0 during the last ``cover``: how a dead end
    # is seen before the search descends into it.
    emptied: list[int] = field(default_factory=list)
    # Per header: True while its column is being covered together with others (see ``cover``).
    covering: list[bool] = field(default_factory=list)
    # Per option (indexed by its first node): the number of the ``cover`` call that hid it.
    # An option hidden by an earlier call is out of every column that call left active, so a
    # fresh number per call is enough to tell "already hidden by this call".
    hidden_in: list[int] = field(default_factory=list)
    cover_calls: list[int] = field(default_factory=lambda: [0])
    # Every node unlinked by the active covers, in order: ``uncover`` relinks a suffix of it
    # in reverse, exactly undoing the unlinks without walking the columns again.
    unlinked_nodes: list[int] = field(default_factory=list)


def _build_links(problem: ExactCoverProblem, monitor: Monitor) -> _Links:
    """Knuth's step X1 (Initialise): the header rings and the columns, in input order."""
    primary = problem.primary
    item_count = problem.items
    secondary_head = item_count + 1

    # Horizontal links of the headers: root .. primary items, and the secondary list.
    header_count = item_count + 2
    left = [0] * header_count
    right = [0] * header_count
    primary_ring = [0, *range(1, primary + 1)]
    secondary_ring = [secondary_head, *range(primary + 1, item_count + 1)]
    for ring in (primary_ring, secondary_ring):
        for position, node in enumerate(ring):
            right[node] = ring[(position + 1) % len(ring)]
            left[node] = ring[position - 1]

    up = list(range(item_count + 1))
    down = list(range(item_count + 1))
    top = [0] * (item_count + 1)
    nodes_of: list[tuple[int, ...]] = [()] * (item_count + 1)
    option_of = [-1] * (item_count + 1)
    length = [0] * (item_count + 1)
    option_colours = problem.colours or []
    coloured = problem.colours is not None
    node_colour = [0] * (item_count + 1) if coloured else []
    option_items: list[tuple[int, ...]] = []
    items_of_node: list[tuple[int, ...]] = [()] * (item_count + 1)
    header_of_item = list(range(1, item_count + 1))  # one int per header, shared by its nodes
    for index, option in enumerate(problem.options):
        monitor.checkpoint(entries_work(len(option)))  # 2M links take seconds: cancellable
        start = len(top)
        option_nodes = tuple(range(start, start + len(option)))
        headers = tuple([header_of_item[item] for item in option])
        option_items.append(headers)
        items_of_node.extend([headers] * len(option))
        # The tuples' own ints, not fresh ones (an int above 256 is a 32-byte object of its
        # own): one int per entry (its node) instead of four, 190 MB fewer at 2,000,000.
        for header, node in zip(headers, option_nodes, strict=True):
            top.append(header)
            nodes_of.append(option_nodes)
            option_of.append(index)
            # Append at the bottom of the column, so columns keep the input order.
            bottom = up[header]
            up.append(bottom)
            down.append(header)
            down[bottom] = node
            up[header] = node
            length[header] += 1
        if coloured:
            node_colour.extend(option_colours[index])
    return _Links(
        primary=primary,
        left=left,
        right=right,
        up=up,
        down=down,
        top=top,
        nodes_of=nodes_of,
        option_of=option_of,
        length=length,
        node_colour=node_colour,
        option_items=option_items,
        items_of_node=items_of_node,
        covering=[False] * header_count,
        hidden_in=[0] * len(top),
    )


# The signatures of cover(heads) and set_aside(option nodes), and of uncover(heads, mark).
Cover = Callable[[tuple[int, ...]], None]
Uncover = Callable[[tuple[int, ...], int], None]


def _link_operations(links: _Links) -> tuple[Cover, Uncover, Cover]:
    """``cover``, ``uncover`` and ``set_aside`` on ``links`` (Knuth's X4-X6 link surgery).

    The link lists are bound as default arguments: fast locals in the innermost loops.
    """
    unlinked_nodes = links.unlinked_nodes

    def cover(
        heads: tuple[int, ...],
        left: list[int] = links.left,
        right: list[int] = links.right,
        up: list[int] = links.up,
        down: list[int] = links.down,
        length: list[int] = links.length,
        top: list[int] = links.top,
        nodes_of: list[tuple[int, ...]] = links.nodes_of,
        covering: list[bool] = links.covering,
        hidden_in: list[int] = links.hidden_in,
        cover_calls: list[int] = links.cover_calls,
        emptied: list[int] = links.emptied,
        unlinked_append: Callable[[int], None] = unlinked_nodes.append,
        primary: int = links.primary,
    ) -> None:
        """Cover the items ``heads`` together: remove them from the header lists and hide every
        option using one of them from the columns of the other items.

        Covering them together (not one after the other, as Knuth's DLX does for the items of a
        chosen option) unlinks an option once and only from columns outside ``heads``: those
        columns are about to disappear anyway. Stops after the first column that leaves a
        primary item outside ``heads`` without options (the branch is a dead end), since the
        caller undoes it at once.
        """
        call = cover_calls[0] + 1
        cover_calls[0] = call
        for head in heads:
            covering[head] = True
            left_head = left[head]
            right_head = right[head]
            right[left_head] = right_head
            left[right_head] = left_head
        del emptied[:]
        for head in heads:
            row = down[head]
            while row != head:
                row_nodes = nodes_of[row]
                first = row_nodes[0]
                if hidden_in[first] != call:
                    hidden_in[first] = call
                    for node in row_nodes:
                        other = top[node]
                        if not covering[other]:
                            above = up[node]
                            below = down[node]
                            down[above] = below
                            up[below] = above
                            remaining = length[other] - 1
                            length[other] = remaining
                            unlinked_append(node)
                            if not remaining and other <= primary:
                                emptied.append(other)
                row = down[row]
            if emptied:
                break

    def uncover(
        heads: tuple[int, ...],
        mark: int,
        left: list[int] = links.left,
        right: list[int] = links.right,
        up: list[int] = links.up,
        down: list[int] = links.down,
        length: list[int] = links.length,
        top: list[int] = links.top,
        covering: list[bool] = links.covering,
        unlinked_nodes: list[int] = unlinked_nodes,
    ) -> None:
        """Undo ``cover(heads)``, whose unlinks start at ``mark`` in ``unlinked_nodes``."""
        for node in reversed(unlinked_nodes[mark:]):
            down[up[node]] = node
            up[down[node]] = node
            length[top[node]] += 1
        del unlinked_nodes[mark:]
        for position in range(len(heads) - 1, -1, -1):
            head = heads[position]
            covering[head] = False
            left_head = left[head]
            right_head = right[head]
            right[left_head] = head
            left[right_head] = head

    def set_aside(
        option_nodes: tuple[int, ...],
        up: list[int] = links.up,
        down: list[int] = links.down,
        length: list[int] = links.length,
        top: list[int] = links.top,
        covering: list[bool] = links.covering,
        node_colour: list[int] = links.node_colour,
        unlinked_append: Callable[[int], None] = unlinked_nodes.append,
    ) -> None:
        """The first half of purifying the coloured items of a chosen option: unlink, from the
        column of each such item not yet covered, the nodes giving it the option's colour (the
        option's own included). Covering the item afterwards hides the rest of its column:
        the options that use it uncoloured or in another colour.

        Walking the column visits only the options still active; lists of each colour's nodes
        measured slower, as by then most of them are hidden already."""
        for node in option_nodes:
            colour = node_colour[node]
            head = top[node]
            if colour and not covering[head]:
                row = down[head]
                while row != head:
                    if node_colour[row] == colour:
                        above = up[row]
                        below = down[row]
                        down[above] = below
                        up[below] = above
                        length[head] -= 1
                        unlinked_append(row)
                    row = down[row]

    return cover, uncover, set_aside


def _exclusive_heads(
    option_items: list[tuple[int, ...]], option_colours: Sequence[Sequence[int]]
) -> list[frozenset[int]]:
    """Per option, the headers the look-ahead treats as conflicts with colours: only its primary
    and uncoloured items. Sharing a coloured item may be allowed, and the look-ahead may miss a
    conflict (covering then finds the dead end) but must never invent one. (An exact test,
    counting shared items against shared (item, colour) pairs, measured slower on word squares
    than the covers it saves.)"""
    return [
        frozenset(header for header, colour in zip(headers, colours, strict=True) if not colour)
        for headers, colours in zip(option_items, option_colours, strict=True)
    ]


def search(
    problem: ExactCoverProblem,
    *,
    limit: int | None = None,
    keep_solutions: bool = True,
    max_kept: int | None = None,
    rng: random.Random | None = None,
    monitor: Monitor | None = None,
) -> SearchResult[list[int]]:
    """Find up to ``limit`` exact covers of ``problem`` (all when ``limit`` is None): the
    solutions ``walk`` yields, counted, kept up to ``max_kept`` and stopped at ``limit``."""
    if monitor is None:
        monitor = Monitor()
    state = WalkState()
    solutions: list[list[int]] = []
    stopped_by_limit = False
    walk_problem = walk(problem, rng=rng, monitor=monitor, state=state, form=keep_solutions)
    for solution in walk_problem:
        if keep_solutions and (max_kept is None or len(solutions) < max_kept):
            solutions.append(solution)
        if limit is not None and state.count >= limit:
            stopped_by_limit = True
            walk_problem.close()  # leave the walk now, not when the generator is collected
            break
    complete = not state.cancelled and not stopped_by_limit
    monitor.finish(state.nodes, state.count, complete)
    return SearchResult(
        solutions=solutions,
        count=state.count,
        complete=complete,
        cancelled=state.cancelled,
        stats={"nodes": state.nodes, "updates": state.updates},
    )


@dataclass
class WalkState:
    """What ``walk`` has done so far, up to date at each solution it yields and at its end."""

    nodes: int = 0
    updates: int = 0
    count: int = 0
    # True when the monitor's cancel hook stopped the walk.
    cancelled: bool = False


# Yielded for each solution when ``walk`` is told not to form them (counting).
_UNFORMED: list[int] = []


def walk(
    problem: ExactCoverProblem,
    *,
    rng: random.Random | None = None,
    monitor: Monitor | None = None,
    state: WalkState | None = None,
    form: bool = True,
) -> Generator[list[int], None, None]:
    """Yield every exact cover of ``problem``, as sorted option indices, as the search finds
    it: the search is suspended between two solutions, and closing the generator ends it (no
    work is left running). ``state`` receives the counters; ``form=False`` yields one shared
    empty list per solution instead of forming it (counting). A cancel from ``monitor`` ends
    the walk with ``state.cancelled`` set; the caller sends ``monitor.finish``.

    The steps are Knuth's Algorithm X (TAOCP 7.2.2.1), labelled X1-X8 in the comments: X1
    initialise, X2 enter a level, X3 choose an item, X4 cover it, X5 try a branch, X6 try
    again, X7 backtrack, X8 leave the level. The loop is one function for speed (locals are
    the fastest names in CPython); the link surgery is in ``_link_operations``.
    """
    if monitor is None:
        monitor = Monitor()
    if state is None:
        state = WalkState()
    if problem.multiplicities is not None:
        # Knuth's Algorithm M, a walk of its own: plain exact cover never pays for it.
        yield from _walk_multiplicities(problem, rng, monitor, state, form)
        return
    # X1. [Initialise.] The links, and the operations on them.
    links = _build_links(problem, monitor)
    cover, uncover, set_aside = _link_operations(links)
    primary = links.primary
    right = links.right
    down = links.down
    length = links.length
    nodes_of = links.nodes_of
    option_of = links.option_of
    option_items = links.option_items
    items_of_node = links.items_of_node
    covering = links.covering
    emptied = links.emptied
    unlinked_nodes = links.unlinked_nodes
    coloured = problem.colours is not None
    if coloured:
        exclusive_heads = _exclusive_heads(option_items, problem.colours or [])

    # Per level: the item branched on, its option nodes in trial order, the branch index, the
    # branch count, and what ``cover`` did for the current branch (heads, its first unlink).
    item_at: list[int] = []
    branches_at: list[list[int]] = []
    index_at: list[int] = []
    size_at: list[int] = []
    covered_at: list[tuple[tuple[int, ...], int] | None] = []
    mark_at: list[int] = []  # where the branch item's unlinks start in ``unlinked_nodes``

    count = 0
    nodes = 0
    updates = 0
    countdown = CHECK_EVERY
    next_check_updates = UPDATES_PER_CHECK
    cancelled = False

    # Invariants of the loop, with l = len(item_at) the current level:
    # - the per-level lists all have length l; at each level k < l, item_at[k] is covered (its
    #   unlinks start at mark_at[k]) and, for k < l - 1, covered_at[k] holds the cover of the
    #   branch branches_at[k][index_at[k]] being explored; the marks increase with k, so
    #   ``unlinked_nodes`` is a stack and each uncover pops exactly its own suffix;
    # - the options of the branches being explored are disjoint and cover exactly the primary
    #   items outside the header ring;
    # - ``updates`` is the number of unlinks done so far (Knuth's count);
    # - below the root, no active primary item has an empty column when a node is entered,
    #   because every branch that empties one is recognised as a dead end on the way down (by
    #   the look-ahead or while covering) and counted without being entered. Covering the
    #   branch item itself cannot empty an item j that a branch leaves active: j's options
    #   would all lie in the branch item's column, and MRV chose the branch item, so j has no
    #   fewer options than it: the columns are equal and every branch covers j. So MRV may stop
    #   at length 1.
    if any(length[header] == 0 for header in range(1, primary + 1)):
        state.nodes = 1
        return

    while True:
        # X2. [Enter level l.] Count the node; every so often, report and heed a cancel.
        nodes += 1
        countdown -= 1
        # Nodes can be costly (thousands of link updates each on big matrices): check also
        # after every UPDATES_PER_CHECK updates, so cancellation stays prompt.
        if countdown <= 0 or updates >= next_check_updates:
            countdown = CHECK_EVERY
            next_check_updates = updates + UPDATES_PER_CHECK
            progress = partial(fraction_done, index_at, size_at, len(index_at))
            if monitor.check(nodes, count, progress):
                cancelled = True
                break
        if right[0] == 0:
            # X2 (continued). Every primary item is covered: visit the solution, then X8.
            # (Read inline: with a helper function here instead, the loop itself unchanged, a
            # whole count of the 8x8 board measured 6% slower in CPython 3.11, in paired runs;
            # keep it so unless a benchmark says otherwise.)
            count += 1
            if monitor.wants_recent:
                monitor.found(
                    sorted(option_of[branches_at[lv][index_at[lv]]] for lv in range(len(item_at)))
                )
            state.nodes = nodes
            state.updates = updates
            state.count = count
            if form:
                yield sorted(option_of[branches_at[lv][index_at[lv]]] for lv in range(len(item_at)))
            else:
                yield _UNFORMED
        else:
            # X3. [Choose i.] MRV: the first active primary item with the fewest remaining
            # options. No column is empty here (see the invariants), so a length of 1 ends
            # the scan.
            best_item = right[0]
            best_length = length[best_item]
            item = right[best_item]
            while best_length > 1 and item:
                item_length = length[item]
                if item_length < best_length:
                    best_item = item
                    best_length = item_length
                item = right[item]
            # X4. [Cover i.] And open the level: its branches in column (or shuffled) order.
            mark = len(unlinked_nodes)
            cover((best_item,))
            updates += len(unlinked_nodes) - mark
            mark_at.append(mark)
            branches = []
            row = down[best_item]
            while row != best_item:
                branches.append(row)
                row = down[row]
            if rng is not None:
                rng.shuffle(branches)
            item_at.append(best_item)
            branches_at.append(branches)
            index_at.append(-1)
            size_at.append(best_length)
            covered_at.append(None)
        # Advance to the next branch, backing up through exhausted levels. A branch that
        # empties a primary item it does not cover is a dead end: counted as a node, never
        # entered (no MRV scan), and its covering stops at the first column that shows it.
        entered = False
        while item_at:
            level = len(item_at) - 1
            branches = branches_at[level]
            # X6. [Try again.] Leave the branch tried last: uncover what it covered.
            covered = covered_at[level]
            if covered:
                uncover(*covered)
                covered_at[level] = None
            index = index_at[level] + 1
            if index < len(branches):
                # X5. [Try x_l.] Cover the other items of the branch's option, unless the
                # look-ahead or the covering shows a dead end.
                index_at[level] = index
                row = branches[index]
                if coloured:
                    # Items already being covered: the branch item, and coloured items that
                    # earlier choices purified with this option's colour (any other use of an
                    # item being covered would have hidden the option).
                    heads = tuple(
                        header for header in option_items[option_of[row]] if not covering[header]
                    )
                    option_heads = exclusive_heads[option_of[row]]
                else:
                    branch_item = item_at[level]
                    heads = tuple(
                        header for header in option_items[option_of[row]] if header != branch_item
                    )
                    option_heads = frozenset(option_items[option_of[row]])
                # Look ahead: an active item whose options all conflict with this branch
                # would be emptied by it. Spend at most about what covering would cost
                # (the rows in the branch's columns), so the check never dominates on
                # matrices where it rarely finds anything.
                alive = True
                budget = sum(map(length.__getitem__, heads))
                item = right[0]
                while item and budget > 0:
                    if item not in option_heads:
                        other = down[item]
                        while other != item:
                            budget -= 1
                            if option_heads.isdisjoint(items_of_node[other]):
                                break
                            other = down[other]
                        else:
                            alive = False
                            break
                    item = right[item]
                if alive:
                    # Cover the branch; it may still prove a dead end the look-ahead missed.
                    mark = len(unlinked_nodes)
                    if coloured:
                        set_aside(nodes_of[row])
                    cover(heads)
                    updates += len(unlinked_nodes) - mark
                    covered_at[level] = (heads, mark)
                    alive = not emptied
                if alive:
                    entered = True  # l <- l + 1, back to X2
                    break
                # A dead end: a node of the tree, counted here and left at once (X6 again).
                nodes += 1
                countdown -= 1
                if countdown <= 0 or updates >= next_check_updates:
                    countdown = CHECK_EVERY
                    next_check_updates = updates + UPDATES_PER_CHECK
                    progress = partial(fraction_done, index_at, size_at, len(index_at))
                    if monitor.check(nodes, count, progress):
                        cancelled = True
                        break
                continue
            # X7. [Backtrack.] Every branch tried: uncover the level's item.
            uncover((item_at.pop(),), mark_at.pop())
            # X8. [Leave level l.] l <- l - 1, then X6 at the level below (or the end at 0).
            branches_at.pop()
            index_at.pop()
            size_at.pop()
            covered_at.pop()
        if cancelled or not entered:
            break

    state.nodes = nodes
    state.updates = updates
    state.count = count
    state.cancelled = cancelled


# ---------------------------------------------------------------- multiplicities (Algorithm M)


class _MultisetOperations(NamedTuple):
    """Knuth's link surgery for Algorithm M, one option at a time (see ``_multiset_operations``)."""

    hide: Callable[[int], None]
    unhide: Callable[[int], None]
    cover: Callable[[int], None]
    uncover: Callable[[int], None]
    commit: Callable[[int], None]
    uncommit: Callable[[int], None]


def _multiset_operations(
    links: _Links, bound: list[int], colour: list[int], unlinks: list[int]
) -> _MultisetOperations:
    """Algorithm M's operations on ``links``: ``hide``/``unhide`` an option (given by one of
    its nodes) in every column but that node's; ``cover``/``uncover`` an item (hide every
    option of its column; a primary item also leaves the active list); ``commit``/``uncommit``
    a node of a chosen option (a primary item's ``bound``, the options it may still take,
    goes down and it is covered at 0; a secondary item is covered, or purified when the node
    is coloured). Each undo runs the exact reverse of its operation.

    ``colour`` is per node (0 = none); purifying marks the nodes that keep the item's colour
    with -1, as Knuth does: they stay in the purified column, which only unpurify walks, and a
    chosen option commits nothing for them. ``unlinks[0]`` counts the node unlinkings.
    """
    left, right, up, down = links.left, links.right, links.up, links.down
    top, nodes_of, length = links.top, links.nodes_of, links.length
    primary = links.primary

    def hide(option_node: int) -> None:
        for node in nodes_of[option_node]:
            if node != option_node and colour[node] >= 0:
                above = up[node]
                below = down[node]
                down[above] = below
                up[below] = above
                length[top[node]] -= 1
                unlinks[0] += 1

    def unhide(option_node: int) -> None:
        for node in reversed(nodes_of[option_node]):
            if node != option_node and colour[node] >= 0:
                down[up[node]] = node
                up[down[node]] = node
                length[top[node]] += 1

    def cover(head: int) -> None:
        if head <= primary:
            right[left[head]] = right[head]
            left[right[head]] = left[head]
        row = down[head]
        while row != head:
            hide(row)
            row = down[row]

    def uncover(head: int) -> None:
        row = up[head]
        while row != head:
            unhide(row)
            row = up[row]
        if head <= primary:
            right[left[head]] = head
            left[right[head]] = head

    def purify(node: int) -> None:
        head = top[node]
        wanted = colour[node]
        row = down[head]
        while row != head:
            if colour[row] == wanted:
                colour[row] = -1
            else:
                hide(row)
            row = down[row]

    def unpurify(node: int) -> None:
        head = top[node]
        wanted = colour[node]
        row = up[head]
        while row != head:
            if colour[row] < 0:
                colour[row] = wanted
            else:
                unhide(row)
            row = up[row]

    def commit(node: int) -> None:
        head = top[node]
        if head <= primary:
            bound[head] -= 1
            if bound[head] == 0:
                cover(head)
        elif colour[node] == 0:
            cover(head)
        elif colour[node] > 0:
            purify(node)

    def uncommit(node: int) -> None:
        head = top[node]
        if head <= primary:
            if bound[head] == 0:
                uncover(head)
            bound[head] += 1
        elif colour[node] == 0:
            uncover(head)
        elif colour[node] > 0:
            unpurify(node)

    return _MultisetOperations(hide, unhide, cover, uncover, commit, uncommit)


def _shuffle_columns(links: _Links, rng: random.Random) -> None:
    """Relink every primary column in an order shuffled by ``rng`` (random mode): Algorithm M
    tries a column's options top down, so this is its random order of branches."""
    up, down = links.up, links.down
    for head in range(1, links.primary + 1):
        column = []
        row = down[head]
        while row != head:
            column.append(row)
            row = down[row]
        rng.shuffle(column)
        ring = [head, *column]
        for position, node in enumerate(ring):
            down[node] = ring[(position + 1) % len(ring)]
            up[node] = ring[position - 1]


def _walk_multiplicities(
    problem: ExactCoverProblem,
    rng: random.Random | None,
    monitor: Monitor,
    state: WalkState,
    form: bool,
    record: Callable[[dict[str, Any]], None] | None = None,
) -> Generator[list[int], None, None]:
    """``walk`` for a problem with multiplicities: Knuth's Algorithm M (TAOCP 7.2.2.1, his
    DLX3), labelled M1-M9 in the comments. Each set of options is found once.

    How a set is never found twice: at a level that branches on item i, the options of i's
    column are tried top down, and each one tried is *tweaked* (taken out of i's column and,
    unless i is covered, hidden from every other column) before it is tried and stays out
    while the later branches of the level are explored. So the k-th branch finds the sets
    that hold the k-th option and none of the earlier ones; a last, *null* branch (when i's
    lower bound is already met) finds the sets with none of them, and retires i. The
    branches partition the sets, level by level.

    Item choice (M3) is Knuth's branch degree: for an active primary item with column length
    l, bound b (options it may still take) and s = min(slack, b), the branches are
    theta = l + s - b + 1. theta <= 0 is a dead end; the least theta is chosen, ties going to
    the smaller s, then the longer column, then the first item. An item with nothing left
    (l = 0, lower bound met) needs no choice; an unconstrained one (s = b >= l: any subset of
    its column is allowed) is chosen only when no constrained item is left, and a node with no
    item to choose is a solution. Plain exact cover items (u = v = 1) give theta = l: MRV.

    ``record``: given, it receives the steps of ``pysolver.engines.trace`` (``choose`` with
    the branch degree as ``options``, ``try``, ``backtrack``, ``solution``), with items and
    options numbered as in ``problem``; ``depth`` counts the options chosen, so a null branch
    (which chooses none) records no step of its own.
    """
    # M1. [Initialise.] The links; per primary header its bound (v) and slack (v - u).
    links = _build_links(problem, monitor)
    if rng is not None:
        _shuffle_columns(links, rng)
    primary = links.primary
    left, right, up, down, length = links.left, links.right, links.up, links.down, links.length
    nodes_of, option_of = links.nodes_of, links.option_of
    bound = [0] * (primary + 1)
    slack = [0] * (primary + 1)
    for header, (low, high) in enumerate(problem.multiplicities or [], start=1):
        bound[header] = high
        slack[header] = high - low
    colour = list(links.node_colour) if links.node_colour else [0] * len(links.top)
    unlinks = [0]
    hide, unhide, cover, uncover, commit, uncommit = _multiset_operations(
        links, bound, colour, unlinks
    )

    def tweak(node: int, head: int) -> None:
        """Take ``node``, the top of ``head``'s column, out of it; while ``head`` is not
        covered, its option also leaves every other column (cover did that otherwise)."""
        if bound[head]:
            hide(node)
        below = down[node]
        down[head] = below
        up[below] = head
        length[head] -= 1
        unlinks[0] += 1

    def untweak(first: int, head: int) -> None:
        """Undo the tweaks of a level, the last first: the tweaked nodes still chain by their
        ``down`` links from ``first`` to the column's present top."""
        chain = []
        node = first
        present_top = down[head]
        while node != present_top:
            chain.append(node)
            node = down[node]
        for node in reversed(chain):
            down[up[node]] = node
            up[down[node]] = node
            length[head] += 1
            if bound[head]:
                unhide(node)

    # Per level: the item branched on, the branch being tried (an option node, or the item's
    # header for the null branch), the first node tweaked (0: the level covers its item and
    # does not tweak), and for progress the branch index and the branch degree theta.
    # ``placed``: how many options the branches being explored have chosen (for ``record``).
    item_at: list[int] = []
    placed = 0
    choice_at: list[int] = []
    first_tweak_at: list[int] = []
    index_at: list[int] = []
    size_at: list[int] = []
    count = 0
    nodes = 0
    countdown = CHECK_EVERY
    # M3 scans every active primary item at each node (20,000 on a big matrix: 512 nodes took
    # seconds), and tweaks, covers and hides can move thousands of links: a node counts as one
    # more per 256 primary items, and a check comes after UPDATES_PER_CHECK unlinks too.
    node_weight = 1 + (primary >> 8)
    next_check_updates = UPDATES_PER_CHECK
    cancelled = False

    # Invariants, with l = len(item_at): for k < l, item_at[k] had its bound lowered by one at
    # level k, and choice_at[k] is the branch being explored there: its option committed (its
    # other items' bounds lowered, covered at 0; its secondary items covered or purified) or,
    # for a null branch, the item retired; the options tweaked at level k chain from
    # first_tweak_at[k] down to the column's top. The options of the branches are distinct
    # and, with the bounds, account for every item: a primary item of original bounds (u, v)
    # has been covered by v - bound options. Every operation is undone in reverse order, so
    # leaving level k restores the links exactly as level k found them.
    while True:
        # M2. [Enter level l.] Count the node; every so often, report and heed a cancel.
        nodes += 1
        countdown -= node_weight
        if countdown <= 0 or unlinks[0] >= next_check_updates:
            countdown = CHECK_EVERY
            next_check_updates = unlinks[0] + UPDATES_PER_CHECK
            progress = partial(fraction_done, index_at, size_at, len(index_at))
            if monitor.check(nodes, count, progress):
                cancelled = True
                break
        # M3. [Choose i.] The least branch degree (see the docstring); none left: a solution.
        # The rule is also written out in bitset's ``branch_item`` and exact_cover's
        # ``_multi_branch``, on purpose: one function for the three, fed the active items
        # through a generator or a key call per item, cost dlx 1-12% more CPU and bitset 3-25%
        # on tests/test_multiplicities.py's instances (measured 2026-11-25).
        best_item = 0
        best_key: tuple[bool, int, int, int] | None = None
        dead = False
        item = right[0]
        while item:
            item_bound = bound[item]
            item_length = length[item]
            item_slack = min(slack[item], item_bound)
            degree = item_length + item_slack - item_bound + 1
            if degree <= 0:
                dead = True
                if record is not None:
                    # ``short``: the item has options, but too few for its lower bound.
                    dead_end = {"type": "choose", "depth": placed, "item": item - 1, "options": 0}
                    record(dict(dead_end, short=True) if item_length else dead_end)
                break
            if item_length:
                unconstrained = item_slack == item_bound and item_length <= item_bound
                key = (unconstrained, degree, item_slack, -item_length)
                if best_key is None or key < best_key:
                    best_item, best_key = item, key
            item = right[item]
        opened = False
        if dead:
            pass  # a dead end: a node of the tree, left at once (M9)
        elif best_key is None:
            # Every primary item is settled: visit the solution, then M9.
            count += 1
            chosen = sorted(
                option_of[choice]
                for head, choice in zip(item_at, choice_at, strict=True)
                if choice != head
            )
            if monitor.wants_recent:
                monitor.found(chosen)
            if record is not None:
                record({"type": "solution", "depth": placed, "options": chosen, "number": count})
            state.nodes = nodes
            state.updates = unlinks[0]
            state.count = count
            yield chosen if form else _UNFORMED
        else:
            # M4. [Prepare to branch on i.] The item takes one more option (or retires): its
            # bound goes down, and at 0 it is covered. Unless it is a plain exact cover item
            # (bound 0 and no slack), its options will be tweaked.
            head = best_item
            bound[head] -= 1
            first = down[head]
            if bound[head] == 0:
                cover(head)
            if record is not None:
                record(
                    {"type": "choose", "depth": placed, "item": head - 1, "options": best_key[1]}
                )
            item_at.append(head)
            choice_at.append(first)
            first_tweak_at.append(first if bound[head] or slack[head] else 0)
            index_at.append(0)
            size_at.append(best_key[1])
            opened = True
        # M5-M9: the next branch to enter, backing up through exhausted levels.
        entered = False
        while item_at:
            head = item_at[-1]
            choice = choice_at[-1]
            tweaking = first_tweak_at[-1] != 0
            exhausted = False
            if not opened:
                # M7. [Try again.] Take back the branch tried last.
                if choice == head:
                    # The null branch: the item returns to the active list (unless covered).
                    if bound[head]:
                        right[left[head]] = head
                        left[right[head]] = head
                    exhausted = True
                else:
                    for node in reversed(nodes_of[choice]):
                        if node != choice:
                            uncommit(node)
                    placed -= 1
                    if record is not None:
                        record({"type": "backtrack", "depth": placed})
                    choice = down[choice]
                    choice_at[-1] = choice
                    index_at[-1] += 1
            opened = False
            if not exhausted:
                # M5. [Possibly tweak x_l.] Stop when the column is used up, or (tweaking)
                # when too few options are left to reach the item's lower bound.
                if not tweaking:
                    exhausted = choice == head
                elif length[head] <= bound[head] - slack[head]:
                    exhausted = True
                elif choice != head:
                    tweak(choice, head)
                elif bound[head]:
                    # The null branch: the item is settled with no more options.
                    right[left[head]] = right[head]
                    left[right[head]] = left[head]
            if not exhausted:
                # M6. [Try x_l.] Commit the option's other items; l <- l + 1, back to M2.
                if choice != head:
                    for node in nodes_of[choice]:
                        if node != choice:
                            commit(node)
                    if record is not None:
                        record(
                            {
                                "type": "try",
                                "depth": placed,
                                "option": option_of[choice],
                                "item": head - 1,
                                "index": index_at[-1],
                                "of": size_at[-1],
                            }
                        )
                    placed += 1
                entered = True
                break
            # M8. [Restore i.]
            if tweaking:
                untweak(first_tweak_at[-1], head)
            if bound[head] == 0:
                uncover(head)
            bound[head] += 1
            # M9. [Leave level l.] l <- l - 1, then M7 at the level below (or the end at 0).
            item_at.pop()
            choice_at.pop()
            first_tweak_at.pop()
            index_at.pop()
            size_at.pop()
        if not entered:
            break

    state.nodes = nodes
    state.updates = unlinks[0]
    state.count = count
    state.cancelled = cancelled


def trace_cover(
    problem: ExactCoverProblem,
    recorder: Recorder,
    *,
    limit: int | None = 1,
    max_kept: int | None = None,
    monitor: Monitor | None = None,
    colours: list[dict[int, str]] | None = None,
) -> SearchResult[list[int]]:
    """Trace mode on any exact cover problem: with multiplicities Algorithm M records its own
    steps (the tree solve and count walk), otherwise ``trace.search`` walks Algorithm X
    (``colours``: the secondary items' colour per option, Knuth's XCC)."""
    if problem.multiplicities is not None:
        return trace_multiplicities(
            problem, recorder.add, limit=limit, max_kept=max_kept, monitor=monitor
        )
    return trace.search(
        problem, recorder, limit=limit, colours=colours, monitor=monitor, max_kept=max_kept
    )


def trace_multiplicities(
    problem: ExactCoverProblem,
    record: Callable[[dict[str, Any]], None],
    *,
    limit: int | None = 1,
    max_kept: int | None = None,
    monitor: Monitor | None = None,
) -> SearchResult[list[int]]:
    """Algorithm M on a problem with multiplicities, every step given to ``record`` (trace
    mode's steps, see ``_walk_multiplicities``): up to ``limit`` solutions, ``max_kept`` kept.
    ``record`` raising ``TraceFull`` (the recorder is full) stops the walk, incomplete."""
    if monitor is None:
        monitor = Monitor()
    state = WalkState()
    solutions: list[list[int]] = []
    stopped = False
    steps = _walk_multiplicities(problem, None, monitor, state, True, record)
    try:
        for solution in steps:
            if max_kept is None or len(solutions) < max_kept:
                solutions.append(solution)
            if limit is not None and state.count >= limit:
                stopped = True
                break
    except TraceFull:
        stopped = True
    finally:
        steps.close()
    complete = not state.cancelled and not stopped
    monitor.finish(state.nodes, state.count, complete)
    return SearchResult(
        solutions=solutions,
        count=state.count,
        complete=complete,
        cancelled=state.cancelled,
        stats={"nodes": state.nodes, "updates": state.updates},
    )
