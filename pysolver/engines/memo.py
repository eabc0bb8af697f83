"""Exact cover counting made for tilings: memoised sub-boards and the board's symmetry at the root.

The algorithm is the ``bitset`` engine's (Algorithm X, MRV item choice over cells and pieces
alike, one big-int AND per uncovered item to make a child); what changes is the whole count,
the mode that dominates tiling work (every tiling of 6x10 pentominoes, 8x8 with the square):

- **Memoised sub-boards** (Knuth's DXZ idea). The count below a node depends only on the items
  covered so far: the live options are exactly those disjoint from them. Two different partial
  tilings that cover the same cells with the same pieces leave the same sub-board, so the count
  of each sub-board is kept in a dict keyed by its covered-items bitmask and found again rather
  than searched again. Entries cost memory, so the dict stops growing at its share of the
  memory budget (``memo_cap``); past it, lookups still hit and the search stays exact. On
  matrices whose sub-boards rarely repeat (N queens: its diagonals make nearly every covered
  set new) the entries only cost time, so the memo is turned off (no more entries, no more
  lookups) when, at a probe every ``HIT_PROBE`` entries, fewer than one lookup in
  ``MIN_HIT_SHARE`` entries has hit, or the entries are estimated to save fewer than
  ``MIN_SAVED_QUARTERS`` / 4 nodes each (Langford pairs: small subtrees, cheaper to walk).
- **Symmetry at the root.** When the problem says where its cell items lie on a grid
  (``ExactCoverProblem.item_cells``), the engine tries the eight rotations and reflections of
  the grid and keeps those that map the *matrix* onto itself: every option's cells, moved, are
  the cells of an option with the same other items (``matrix_symmetries``; the check is on the
  matrix, so a wrong hint can only cost speed). The symmetries fix every non-cell item, so they
  permute the options of one piece item ``R``; options of ``R`` in one orbit have equally many
  completions (a symmetry maps the completions of one onto the other's). So the root branches
  on one option per orbit and weighs its count by the orbit's size: the count of all tilings
  of 6x10 pentominoes then searches a quarter of the tree. ``R`` is the non-cell primary item
  with the fewest orbits.

- **Dead options struck.** An option that would leave some primary item with no live option
  is in no cover; the walk's cheap check finds that each time the option is a candidate, but
  until then it widens the masks it is in, inflates its items' counts and misleads the item
  choice. So before the walk such options are struck, to a fixpoint (striking one can strand
  another item), and the masks are laid out again over the options left
  (``strike_dead_options``); nodes down to ``STRIKE_DEPTH`` strike theirs too, for their whole
  subtree. In a tiling these are the placements that wall off a cell no piece can then reach.
  Measured (the polyomino kind, counts of distinct tilings, CPU s, best of 3), root only:
  4x15 pentominoes 0.44 -> 0.33, 5x12 1.70 -> 1.32, 6x10 1.77 -> 1.68, 8x8 with a centre hole
  0.125 -> 0.118; see ``STRIKE_DEPTH`` for the nodes'.

- **Narrow boards swept in order.** When the cells fill a rectangle longer than it is wide
  (``sweep_order``), the walk branches on the first uncovered cell down the short side, column
  after column, and its dead end check looks at the next items of that order: no sort at each
  node, and a front of cells that rarely strands a hole behind it. Measured (pure walk, CPU
  s, median of 3 interleaved runs, MRV -> swept): 6x10 X fixed 1.75 -> 1.08, 5x12 X fixed
  1.06 -> 0.47; the compiled kernel walks the same tree (0.32 -> 0.26, 0.19 -> 0.12). The 8x8
  board with a hole keeps MRV (swept, the issue's prototype took 4x longer there).

Only a whole count (no limit, no solutions kept, no shuffle, no colours) takes this walk; every
other search is the ``bitset`` engine's own, so solutions, their order, random mode and traces
are exactly the bitset engine's. The memo and the root weights change node counts, never
counts. Subtree searches (parallel tasks) run on reduced problems, which carry no cell hint:
they count their subtree with the memo only.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from functools import partial

from pysolver import budget
from pysolver.engines import bitset
from pysolver.engines.cover import ExactCoverProblem
from pysolver.engines.monitor import (
    CHECK_EVERY,
    Monitor,
    SearchResult,
    entries_work,
    fraction_done,
)

# How the page names this engine (see pysolver.facts): a menu title and one sentence.
TITLE = "Memoised counts"
SUMMARY = (
    "Bitset Algorithm X that counts with memoised sub-boards and the board's symmetry; "
    "fastest on tiling counts."
)

# The memo may take this share of the memory budget left after the bitset masks.
MEMO_SHARE = 2
# One memo entry: a covered-items key (an int of one bit per item), a small count and the
# dict's slot (hash, key, value, index), with room for the dict's growth (measured: about 123
# bytes an entry at the peak of the 6x10 count, masks included).
MEMO_ENTRY_BYTES = budget.INT_BYTES + 3 * budget.POINTER_BYTES + 64
# The memo is turned off (no more entries, no more lookups) when fewer than 1 in MIN_HIT_SHARE
# of its entries has been hit, looked at every HIT_PROBE entries (measured: 6x10 pentominoes hit
# ~1 in 8 from the start, Langford pairs 1 in 4, 12 queens 1 in 130; stopping made 12 queens'
# count 1.18x -> ~1.0x bitset's time), or when an entry saves fewer than MIN_SAVED_QUARTERS / 4
# nodes, estimated as its hit share times the mean subtree (nodes) of the entries: Langford
# pairs hit as often as the boards, but on subtrees of a few nodes, cheaper to walk than to
# hash (measured at the first probe: Langford n=11 0.97, random 30x200 2-5 1.73, 2-4 4.6,
# 6x10 3.4, 5x12 5.6; the compiled Langford count 0.21 s with the memo, 0.155 s without).
MIN_HIT_SHARE = 32
MIN_SAVED_QUARTERS = 5
HIT_PROBE = 1 << 14
# How many of the tightest items (fewest live options) after the chosen one the dead end
# check ANDs an option into before its child is made. The chosen item itself never fails the
# check (the option's own bit is kept), so it is skipped: as many ANDs as bitset's check of the
# first ``bitset.TIGHTEST_ITEMS``, one more useful.
TIGHTEST_AFTER_CHOSEN = bitset.TIGHTEST_ITEMS
# Nodes this deep or shallower strike their dead options too (the root's are struck before the
# walk; one round at a node, not the fixpoint), as long as the subtrees of the nodes at their
# depth so far average STRIKE_SUBTREE nodes: a strike costs about as much as 10-20 nodes and
# pays only above large subtrees. Measured against striking at the root only (CPU s, best of
# 5, one process): 6x10 X in one quadrant 1.78 -> 1.70, all 6x10 tilings 1.91 -> 1.67,
# distinct 5x12 1.32 -> 1.03, distinct 4x15 0.378 -> 0.337; small searches lose a little
# (8x8 with a centre hole 0.102 -> 0.114, 3x20 0.037 -> 0.045). Depth 3 cost more than it saved.
STRIKE_DEPTH = 2
STRIKE_SUBTREE = 500
# On a narrow board swept in order (``sweep_order``) the nodes at depth 2 strike too little to
# pay. Measured (pure walk, CPU s, one run): 6x10 X fixed, depth 0/1/2 1.16/1.02/1.47;
# 5x12 X fixed 0.44/0.46/0.80 (MRV with depth 2: 1.67 and 1.05).
SWEEP_STRIKE_DEPTH = 1
# Recursion depth is the number of options in a tiling; deeper problems take the bitset walk
# (the page's Pyodide has a small C stack).
MAX_DEPTH = 300

Cell = tuple[int, int]


def _grid_move(swap: bool, sign_r: int, sign_c: int, r: int, c: int) -> Cell:
    return (sign_r * c, sign_c * r) if swap else (sign_r * r, sign_c * c)


# The eight rotations and reflections of the square grid (the identity first).
GRID_MOVES: tuple[Callable[[int, int], Cell], ...] = tuple(
    partial(_grid_move, swap, sign_r, sign_c)
    for swap in (False, True)
    for sign_r in (1, -1)
    for sign_c in (1, -1)
)


def estimated_bytes(problem: ExactCoverProblem) -> int:
    """The bitset engine's masks and first levels (the memo fits in what is left: ``memo_cap``)."""
    return bitset.estimated_bytes(problem)


def memo_cap(problem: ExactCoverProblem) -> int:
    """How many sub-board counts the memo may keep: its share of the budget left over."""
    keys = MEMO_ENTRY_BYTES + problem.items // 7
    room = budget.budget_bytes() - bitset.estimated_bytes(problem)
    return max(0, room // MEMO_SHARE // keys)


def search(
    problem: ExactCoverProblem,
    *,
    limit: int | None = None,
    keep_solutions: bool = True,
    max_kept: int | None = None,
    rng: random.Random | None = None,
    monitor: Monitor | None = None,
) -> SearchResult[list[int]]:
    """Find up to ``limit`` exact covers (all when None); the family's interface.

    A whole count takes the memoised walk (``count``); anything else is ``bitset.search``.
    """
    if monitor is None:
        monitor = Monitor()
    whole_count = limit is None and not keep_solutions and rng is None
    if not whole_count or problem.colours is not None or _deepest(problem) > MAX_DEPTH:
        return bitset.search(
            problem,
            limit=limit,
            keep_solutions=keep_solutions,
            max_kept=max_kept,
            rng=rng,
            monitor=monitor,
        )
    return count(problem, monitor)


def _deepest(problem: ExactCoverProblem) -> int:
    """An upper bound on the options of one solution: primary items over the fewest per option."""
    fewest = min(
        (sum(1 for item in option if item < problem.primary) for option in problem.options),
        default=1,
    )
    return problem.primary // max(1, fewest)


class _Tables:
    """The bitset engine's tables of a problem: each option's bit position (and the option at
    each position), each item's mask of options, each option's compatible mask and primary
    item count, and the fewest primary items an option covers."""

    def __init__(self, problem: ExactCoverProblem, monitor: Monitor) -> None:
        self.position_of = bitset._bit_positions(problem)
        self.option_at = [0] * len(problem.options)
        for option, position in enumerate(self.position_of):
            self.option_at[position] = option
        self.item_masks = bitset._item_masks(problem, self.position_of)
        self.compatible, self.cover_size, self.smallest_cover = bitset._compatible_masks(
            problem, self.position_of, self.item_masks, monitor
        )

        # ``count``'s lists by bit position, made at its first call (a worker's tasks share
        # the tables: 9 ms a task on 6x10 pentominoes): see ``_walk_lists``.
        self.walk_lists: tuple[list[int], list[int], list[int], list[int]] | None = None

    def compatible_at(self) -> list[int]:
        """Per bit position: its option's compatible mask."""
        return [self.compatible[option] for option in self.option_at]


def _walk_lists(
    tables: _Tables, kept: ExactCoverProblem
) -> tuple[list[int], list[int], list[int], list[int]]:
    """Per bit position: its option's compatible mask, that mask with the option's own bit
    kept (the dead end check), how many primary items it covers and the items it covers (a
    mask: the memo's keys). ``kept``: the struck problem the tables were made of."""
    compatible_at = tables.compatible_at()
    keeping_at = [mask | 1 << position for position, mask in enumerate(compatible_at)]
    cover_at = [tables.cover_size[option] for option in tables.option_at]
    covers_at = [sum(1 << item for item in kept.options[option]) for option in tables.option_at]
    return compatible_at, keeping_at, cover_at, covers_at


def strike_dead_options(
    root: list[int], compatible_at: list[int], monitor: Monitor | None, rounds: int = -1
) -> tuple[list[int], int]:
    """The root's masks without the options that leave some item without options, and how
    many were struck (``compatible_at[position]``: the mask of the options compatible with the
    option at that bit position).

    The options that strand an item conflict with every option of it (its own options aside):
    the AND of its options' conflict masks, stopped as soon as it is empty (an item with
    options in several places has none). An option stranding an item against the masks of one
    round does so against the masks after it (masks only lose bits), so each later round looks
    only at the items that lost options in the one before.
    """
    live = 0
    for mask in root:
        live |= mask
    looked_at = root
    struck = 0
    while rounds and all(looked_at):
        rounds -= 1
        dead = 0
        for mask in looked_at:
            if monitor is not None:  # before the search: a walk checks its monitor itself
                monitor.checkpoint(entries_work(mask.bit_count()))
            stranding = live & ~mask
            options = mask
            while options and stranding:
                position = options.bit_length() - 1
                options ^= 1 << position
                stranding &= ~compatible_at[position]
            dead |= stranding
        if not dead:
            break
        struck += dead.bit_count()
        live &= ~dead
        stripped = [mask & live for mask in root]
        looked_at = [new for new, old in zip(stripped, root, strict=True) if new != old]
        root = stripped
    return root, struck


class _Stop(Exception):
    """Unwinds the recursive walk when the monitor asks to stop."""


def matrix_symmetries(problem: ExactCoverProblem) -> list[list[int]]:
    """The grid moves that map the matrix onto itself, each as a permutation of the options
    (the identity first); just the identity without a cell hint or with repeated options."""
    return [options for options, _ in grid_symmetries(problem)]


def grid_symmetries(problem: ExactCoverProblem) -> list[tuple[list[int], list[int]]]:
    """``matrix_symmetries``, each with its permutation of the items: (options, items).

    A move maps the cell items by their coordinates (``item_cells``, shifted back onto the
    cells' bounding box) and fixes every other item; it is a symmetry of the matrix when every
    option, moved, is an option.
    """
    identity = list(range(len(problem.options)))
    items = list(range(problem.items))
    cells = problem.item_cells
    if not cells:
        return [(identity, items)]
    cell_count = len(cells)
    at = {cell: item for item, cell in enumerate(cells)}
    option_of = {tuple(sorted(option)): index for index, option in enumerate(problem.options)}
    if len(option_of) != len(problem.options):
        return [(identity, items)]
    found = [(identity, items)]
    for move in GRID_MOVES[1:]:
        moved = [move(r, c) for r, c in cells]
        top = min(r for r, _ in cells) - min(r for r, _ in moved)
        left = min(c for _, c in cells) - min(c for _, c in moved)
        image = [at.get((r + top, c + left)) for r, c in moved]
        cell_image = [item for item in image if item is not None]
        if len(cell_image) != cell_count:
            continue
        permutation = []
        for option in problem.options:
            moved_option = tuple(sorted(cell_image[i] if i < cell_count else i for i in option))
            target = option_of.get(moved_option)
            if target is None:
                break
            permutation.append(target)
        else:
            found.append((permutation, cell_image + items[cell_count:]))
    return found


def root_orbits(
    problem: ExactCoverProblem, symmetries: list[list[int]] | None = None
) -> list[tuple[int, int]] | None:
    """The root's branches under the matrix's symmetries (``matrix_symmetries``, unless the
    caller has them): (option, orbit size) per orbit of the options of the non-cell primary
    item with the fewest orbits; None without symmetry."""
    if symmetries is None:
        symmetries = matrix_symmetries(problem)
    if len(symmetries) == 1:
        return None
    cell_count = len(problem.item_cells or ())
    options_of: dict[int, list[int]] = {}
    for index, items in enumerate(problem.options):
        for item in items:
            if cell_count <= item < problem.primary:
                options_of.setdefault(item, []).append(index)
    best: list[tuple[int, int]] | None = None
    for options in options_of.values():
        seen: set[int] = set()
        orbits: list[tuple[int, int]] = []
        for option in options:
            if option not in seen:
                orbit = {permutation[option] for permutation in symmetries}
                seen |= orbit
                orbits.append((option, len(orbit)))
        if best is None or len(orbits) < len(best):
            best = orbits
    return best


def sweep_order(problem: ExactCoverProblem) -> list[int] | None:
    """The primary items in the order a narrow board is swept, None elsewhere (MRV).

    A board is narrow when its cells (``item_cells``, the kind's hint) fill a rectangle longer
    than it is wide: then the walk branches on the first uncovered cell down the columns
    across the short side, one column after another along the long side (the other primary
    items, its pieces, last), and its dead end check looks at the next items of that order.
    A cell at the sweep's front has few placements, so this is nearly MRV's choice without
    the sort; on other boards (holes, squares) and bare matrices MRV wins. Measured: see
    the module doc.
    """
    cells = problem.item_cells
    if not cells or len(cells) > problem.primary:
        return None
    rows = {r for r, _ in cells}
    columns = {c for _, c in cells}
    if len(rows) == len(columns) or len(rows) * len(columns) != len(set(cells)):
        return None
    if max(rows) - min(rows) + 1 != len(rows) or max(columns) - min(columns) + 1 != len(columns):
        return None
    if len(rows) < len(columns):
        along = sorted(range(len(cells)), key=lambda item: (cells[item][1], cells[item][0]))
    else:
        along = sorted(range(len(cells)), key=lambda item: cells[item])
    return along + list(range(len(cells), problem.primary))


StruckTables = tuple[_Tables, ExactCoverProblem, list[int], int]


def strike_and_lay_out(problem: ExactCoverProblem, monitor: Monitor) -> StruckTables:
    """The tables the walk runs on: the problem without its dead options (``kept``), the
    masks laid out again over the options left (narrower masks: every AND and bit count of the
    walk is over them), each option of ``kept`` by its index in ``problem`` (``original``) and
    how many were struck."""
    tables = _Tables(problem, monitor)
    primary = problem.primary
    root, struck = strike_dead_options(tables.item_masks[:primary], tables.compatible_at(), monitor)
    kept = problem
    original = list(range(len(problem.options)))
    if struck:
        alive = 0
        for mask in root:
            alive |= mask
        original = bitset._options_of(alive, tables.option_at)
        kept = replace(problem, options=[problem.options[option] for option in original])
        del tables, root  # the old masks go before the new ones are made (the budget's peak)
        tables = _Tables(kept, monitor)
    return tables, kept, original, struck


def count(
    problem: ExactCoverProblem,
    monitor: Monitor,
    *,
    starts: list[tuple[list[int], int]] | None = None,
    memo: dict[int, int] | None = None,
    struck_tables: StruckTables | None = None,
    known_cap: int | None = None,
) -> SearchResult[list[int]]:
    """Count every exact cover: the bitset engine's tree with memoised sub-boards and, where
    the matrix has symmetries, weighted orbit representatives at the root.

    ``starts`` (parallel tasks, ``memo_tasks``): count instead, for each (options, weight),
    the covers holding all those options (indices in ``problem``), times the weight; the root
    orbits are then the planner's. ``memo``: the sub-board counts to start from and to add to
    (a worker's, kept across the tasks it runs: keys are covered items of ``problem``, so they
    hold for any task of the same problem). ``struck_tables``: ``strike_and_lay_out(problem)``
    when already made (a worker's, for its tasks); ``known_cap``: ``memo_cap(problem)`` likewise.

    Stats: ``nodes`` (nodes entered and dead ends, as in ``bitset``; a sub-board found in the
    memo is not entered), ``memo_hits``, ``memo_entries`` and ``options_struck`` (by
    ``strike_dead_options``, at the root and at nodes down to ``STRIKE_DEPTH``).
    """
    primary = problem.primary
    if struck_tables is None:
        struck_tables = strike_and_lay_out(problem, monitor)
    tables, kept, original, struck = struck_tables
    options = kept.options
    position_of = tables.position_of
    option_at = tables.option_at
    smallest_cover = tables.smallest_cover
    # Everything below is indexed by bit position, as the masks are.
    if tables.walk_lists is None:
        tables.walk_lists = _walk_lists(tables, kept)
    compatible_at, keeping_at, cover_at, covers_at = tables.walk_lists
    and_at = [mask.__and__ for mask in compatible_at]
    orbits = root_orbits(kept) if starts is None else None
    sweep = sweep_order(kept)
    # The compiled walk counts whole searches only: a task's starting subtrees and a memo
    # carried over from earlier tasks are the pure walk's (pysolver.engines.memo_tasks).
    fast = bitset.compiled_walk() if starts is None and memo is None else None
    root = tables.item_masks[:primary]
    strike_depth = STRIKE_DEPTH
    if sweep is not None:
        root = [root[item] for item in sweep]  # ``rest`` keeps this order at every node
        strike_depth = SWEEP_STRIKE_DEPTH
    swept = sweep is not None
    if fast is not None and not all(root):
        monitor.finish(1, 0, True)  # an item without options makes the root a dead end
        stats = {"nodes": 1, "memo_hits": 0, "memo_entries": 0, "options_struck": struck}
        return SearchResult(stats={**stats, "kernel": fast.KERNEL})
    if fast is not None:
        answer: SearchResult[list[int]] | None = fast.count(
            root,
            compatible_at,
            covers_at,
            smallest_cover,
            problem.items,
            monitor,
            lambda positions: sorted(original[option_at[position]] for position in positions),
            memo=(
                memo_cap(problem),
                strike_depth,
                STRIKE_SUBTREE,
                MIN_HIT_SHARE,
                MIN_SAVED_QUARTERS,
                HIT_PROBE,
            ),
            orbits=None if orbits is None else [(position_of[o], size) for o, size in orbits],
            sweep=sweep is not None,
        )
        if answer is not None:
            answer.stats["options_struck"] += struck
            return answer

    bit_count = int.bit_count
    if memo is None:
        memo = {}
    memo_get = memo.get
    no_memo: dict[int, int] = {}  # asked once the memo is off: every lookup misses
    cap = memo_cap(problem) if known_cap is None else known_cap
    # A memo carried over from earlier tasks: its hit rate is probed on this run's entries.
    carried = len(memo)
    probe_at = carried + HIT_PROBE
    max_depth = primary + 2
    size_at = [0] * max_depth
    index_at = [0] * max_depth
    chosen_at = [0] * max_depth
    node_weight = max(1, primary * len(options) >> 20)
    tightest_end = 1 + TIGHTEST_AFTER_CHOSEN
    # Counters the walk updates: nodes, memo hits, countdown to the next check, and the
    # tilings found so far (weighted by the root orbit being searched) for progress reports.
    nodes = 0
    hits = 0
    subtree_nodes = 0  # the nodes under the memo's entries (nested ones counted in each)
    countdown = CHECK_EVERY
    found = 0
    weight = 1

    # Per depth down to STRIKE_DEPTH: the node count when its last node was entered, and the
    # nodes spent under (and between) its earlier nodes, and how many (a running subtree size).
    entered_at = [-1] * (strike_depth + 1)
    spent_at = [0] * (strike_depth + 1)
    subtrees_at = [0] * (strike_depth + 1)

    def walk(rest: list[int], covered: int, depth: int) -> int:
        """The number of exact covers below a node: ``rest`` its live masks (uncovered primary
        items, in item order), ``covered`` its covered items."""
        nonlocal nodes, hits, subtree_nodes, countdown, found, cap, probe_at, struck, memo_get
        nodes += 1
        countdown -= node_weight
        if countdown <= 0:
            countdown = CHECK_EVERY
            if monitor.check(nodes, found, partial(fraction_done, index_at, size_at, depth)):
                raise _Stop
        if not rest:
            found += weight
            if monitor.wants_recent:
                monitor.found(sorted(original[option] for option in chosen_at[:depth]))
            return 1
        if 0 < depth <= strike_depth:
            # Options dead at this node stay dead in its whole subtree (see the module doc),
            # which pays where subtrees at this depth have been large so far.
            if entered_at[depth] >= 0:
                subtrees_at[depth] += 1
                spent_at[depth] += nodes - entered_at[depth]
            entered_at[depth] = nodes
            if spent_at[depth] >= STRIKE_SUBTREE * subtrees_at[depth]:
                rest, struck_here = strike_dead_options(rest, compatible_at, None, 1)
                if struck_here:
                    struck += struck_here
                    if not all(rest):
                        return 0
        # MRV (a stable sort: ties go to the first item), or the sweep's first uncovered item.
        by_size = rest if swept else sorted(rest, key=bit_count)
        candidates = by_size[0]
        width = len(rest)
        if width <= smallest_cover:
            # Every candidate covers all of ``rest``: each is a solution (a leaf).
            leaves = bit_count(candidates)
            nodes += leaves
            found += leaves * weight
            if monitor.wants_recent and leaves:
                last = option_at[candidates.bit_length() - 1]
                monitor.found(sorted(original[option] for option in [*chosen_at[:depth], last]))
            return leaves
        size_at[depth] = bit_count(candidates)
        tightest = by_size[1:tightest_end]
        total = 0
        index = 0
        while candidates:
            position = candidates.bit_length() - 1
            candidates ^= 1 << position
            index_at[depth] = index
            index += 1
            # Most children are dead ends, found by the cheap check before the memo is asked
            # (a dead end is never in the memo: the covered items decide the check). Plain
            # loops, not ``all(map(...))`` and ``list(filter(None, map(...)))``: measured
            # (CPU s, best of 3, CPython 3.11, pure walk) 0.80-0.90 of their time on every
            # matrix of bench.peers --suite (6x10 and 5x12 X fixed, 8x8 with a hole, Langford
            # n=11, random 30x200).
            keeping = keeping_at[position]
            for mask in tightest:
                if not mask & keeping:
                    break
            else:
                key = covered | covers_at[position]
                known = memo_get(key)
                if known is not None:
                    hits += 1
                    total += known
                    found += known * weight
                    continue
                compatible = compatible_at[position]
                child = []
                for mask in rest:
                    mask &= compatible
                    if mask:
                        child.append(mask)
                if len(child) == width - cover_at[position]:
                    chosen_at[depth] = option_at[position]
                    before = nodes
                    below = walk(child, key, depth + 1)
                    if len(memo) < cap:
                        memo[key] = below
                        subtree_nodes += nodes - before
                        if len(memo) == probe_at:
                            probe_at += HIT_PROBE
                            entries = len(memo) - carried
                            if (
                                hits * MIN_HIT_SHARE < entries
                                or 4 * hits * subtree_nodes < MIN_SAVED_QUARTERS * entries**2
                            ):
                                # Sub-boards rarely repeat here, or are cheaper to walk: off.
                                cap = 0
                                memo_get = no_memo.get
                    total += below
                    continue
            nodes += 1  # a dead end
        return total

    def start(rest: list[int], chosen: list[int | None]) -> tuple[list[int], int] | None:
        """The live masks and covered items of the node below the ``chosen`` options (kept
        indices), None when that is a dead end (an option struck, or not live where chosen)."""
        covered = 0
        for option in chosen:
            if option is None:
                return None
            position = position_of[option]
            if not any(mask >> position & 1 for mask in rest):
                return None
            child = list(filter(None, map(and_at[position], rest)))
            if len(child) != len(rest) - cover_at[position]:
                return None
            rest, covered = child, covered | covers_at[position]
        return rest, covered

    total = 0
    cancelled = False
    try:
        if not all(root):
            nodes = 1  # an item without options makes the root a dead end
        elif starts is not None:
            kept_at = {option: index for index, option in enumerate(original)}
            for chosen, start_weight in starts:
                weight = start_weight
                below = start(root, [kept_at.get(option) for option in chosen])
                if below is None:
                    nodes += 1  # a dead end (a struck option is in no cover)
                    continue
                rest, covered = below
                chosen_at[: len(chosen)] = [kept_at[option] for option in chosen]
                # Progress counts within the task: one branch taken at each level above it.
                size_at[: len(chosen)] = [1] * len(chosen)
                total += start_weight * walk(rest, covered, len(chosen))
        elif orbits is None:
            total = walk(root, 0, 0)
        else:
            nodes = 1
            size_at[0] = len(orbits)
            for index, (option, orbit_size) in enumerate(orbits):
                index_at[0] = index
                weight = orbit_size
                position = position_of[option]
                child = list(filter(None, map(and_at[position], root)))
                if len(child) == len(root) - cover_at[position]:
                    chosen_at[0] = option
                    total += orbit_size * walk(child, covers_at[position], 1)
                else:
                    nodes += 1
    except _Stop:
        cancelled = True
        total = found
    monitor.finish(nodes, total, not cancelled)
    return SearchResult(
        count=total,
        complete=not cancelled,
        cancelled=cancelled,
        stats={
            "nodes": nodes,
            "memo_hits": hits,
            "memo_entries": len(memo),
            "options_struck": struck,
        },
    )
