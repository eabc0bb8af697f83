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

Stats: ``nodes`` (search tree nodes, including the root, dead ends and solutions) and
``updates`` (Knuth's count of node unlinkings).
"""

from __future__ import annotations

import random
from functools import partial

from pysolver.engines.bitset import fraction_done
from pysolver.engines.exact_cover import ExactCoverProblem
from pysolver.engines.monitor import CHECK_EVERY, Monitor, SearchResult

# At ~0.2 us an update in CPython, about 10 ms of work between two monitor checks.
UPDATES_PER_CHECK = 50_000


def search(
    problem: ExactCoverProblem,
    *,
    limit: int | None = None,
    keep_solutions: bool = True,
    rng: random.Random | None = None,
    monitor: Monitor | None = None,
) -> SearchResult:
    """Find up to ``limit`` exact covers of ``problem`` (all when ``limit`` is None)."""
    if monitor is None:
        monitor = Monitor()
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
    # Per node, the tuple of all nodes of its option (one shared tuple per option).
    nodes_of: list[tuple[int, ...]] = [()] * (item_count + 1)
    option_of = [-1] * (item_count + 1)
    length = [0] * (item_count + 1)
    for index, option in enumerate(problem.options):
        start = len(top)
        option_nodes = tuple(range(start, start + len(option)))
        for item in option:
            header = item + 1
            node = len(top)
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

    # The link lists are bound as default arguments: fast locals in the innermost loops.
    def cover(
        item: int,
        left=left,
        right=right,
        up=up,
        down=down,
        length=length,
        top=top,
        nodes_of=nodes_of,
    ) -> int:
        """Remove ``item`` from the header list and every option using it from the other
        columns; return the number of nodes unlinked (Knuth's "updates")."""
        left_item = left[item]
        right_item = right[item]
        right[left_item] = right_item
        left[right_item] = left_item
        unlinked = 0
        row = down[item]
        while row != item:
            row_nodes = nodes_of[row]
            for node in row_nodes:
                if node != row:
                    above = up[node]
                    below = down[node]
                    down[above] = below
                    up[below] = above
                    length[top[node]] -= 1
            unlinked += len(row_nodes) - 1
            row = down[row]
        return unlinked

    def uncover(
        item: int,
        left=left,
        right=right,
        up=up,
        down=down,
        length=length,
        top=top,
        nodes_of=nodes_of,
    ) -> None:
        """Undo ``cover(item)``, in exactly the reverse order."""
        row = up[item]
        while row != item:
            for node in reversed(nodes_of[row]):
                if node != row:
                    down[up[node]] = node
                    up[down[node]] = node
                    length[top[node]] += 1
            row = up[row]
        left_item = left[item]
        right_item = right[item]
        right[left_item] = item
        left[right_item] = item

    # Per level: the item branched on, its option nodes in trial order, the branch index.
    item_at: list[int] = []
    branches_at: list[list[int]] = []
    index_at: list[int] = []
    size_at: list[int] = []

    solutions: list[list[int]] = []
    count = 0
    nodes = 0
    updates = 0
    countdown = CHECK_EVERY
    next_check_updates = UPDATES_PER_CHECK
    cancelled = False
    stopped_by_limit = False

    while True:
        # Enter a node of the search tree.
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
            count += 1
            if keep_solutions:
                solutions.append(
                    sorted(
                        option_of[branches_at[level][index_at[level]]]
                        for level in range(len(item_at))
                    )
                )
            if limit is not None and count >= limit:
                stopped_by_limit = True
                break
        else:
            # MRV: the first active primary item with the fewest remaining options.
            item = right[0]
            best_item = item
            best_length = length[item]
            while item and best_length:
                item_length = length[item]
                if item_length < best_length:
                    best_item = item
                    best_length = item_length
                item = right[item]
            if best_length:
                updates += cover(best_item)
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
        # Advance to the next branch, backing up through exhausted levels.
        entered = False
        while item_at:
            level = len(item_at) - 1
            branches = branches_at[level]
            index = index_at[level]
            if index >= 0:
                # Leave the branch tried last: uncover its other items in reverse order.
                row = branches[index]
                for node in reversed(nodes_of[row]):
                    if node != row:
                        uncover(top[node])
            index += 1
            if index < len(branches):
                index_at[level] = index
                row = branches[index]
                for node in nodes_of[row]:
                    if node != row:
                        updates += cover(top[node])
                entered = True
                break
            uncover(item_at.pop())
            branches_at.pop()
            index_at.pop()
            size_at.pop()
        if not entered:
            break

    complete = not cancelled and not stopped_by_limit
    monitor.finish(nodes, count, complete)
    return SearchResult(
        solutions=solutions,
        count=count,
        complete=complete,
        cancelled=cancelled,
        stats={"nodes": nodes, "updates": updates},
    )
