"""The memo count by levels: every sub-board of one depth at once, shared out between lanes.

The memo walk (``memo.count``) counts a sub-board once and finds it again in its memo. Cut
into tasks, each worker has a memo of its own, and the sub-boards two workers both reach are
counted twice: on a narrow board swept column by column, partial tilings that differ behind
the sweep's front meet again once it has passed, so every split of the 6x10 pentomino count
summed 1.13-1.2x the serial nodes, and two cores could not give it 1.6x (issue 31).

So the same count is also made *forwards*, one level at a time (a level: the sub-boards with
as many options placed). A level is a dict from a sub-board's key (its covered items, as in
the memo) to the number of ways to reach it (times the root orbit's weight). Expanding a
sub-board places every live option on its first uncovered item, as the swept walk branches
(off a narrow board's sweep, on the tightest of its first few uncovered items), and adds its
number of ways to each child's; the children of a level are the next level, and
a sub-board with every primary item covered is a cover. Each sub-board is expanded once,
whichever partial tilings reach it: the memo's saving, with no memo to keep (only two levels
live at a time). And a level can be shared out: a sub-board belongs to one lane (``lane_of``, a
hash of its key), each lane expands its own, and the children go to their owners'
next level, so no sub-board is expanded by two lanes and the lanes' nodes add up to a serial
level count's.

A sub-board's live options are those that touch none of its covered items, so they are not
kept with it: they are worked out again from the key, as the OR of the options of each of its
covered items, taken ``CHUNK_BITS`` items at a time from tables of every pattern
(``LevelWalk.dead_by_chunk``). A level is then plain ints, cheap to send between processes.

The order (``level_order``) matters, as the memo walk's MRV does: a level holds the
sub-boards the order's fronts make. A narrow board is swept by columns, as the memo walk
sweeps it (6x10 pentominoes: 47,792 sub-boards at the widest); any other board by
anti-diagonals, branching on the tightest of a sub-board's first seven uncovered items (8x8
with the square: 0.61 million at the widest, where rows made 1.03). A mirror symmetry counts
a sub-board and its image as one, and the masks are laid out for the order (``LevelWalk``).
On one lane, CPU s: 6x10 0.52 (the memo walk 0.9), 8x8 with the square 6.2-6.4 (8.7), in
1.47x the memo walk's nodes (its MRV looks at every item, at 3.4 µs a node against 1.7). A
request without ``jobs`` still counts with the memo walk: its progress reports Knuth's
fraction and recent tilings, its memo is capped by the budget (a level must be held whole),
and a count stopped early is a lower bound (a level count finds its covers last).

``count`` runs the levels on ``Lanes``: this process alone (one lane), or worker processes
and Dask workers beside it (``pysolver.parallel``). The parallel runners offer their lanes
to the count through ``offered`` (a context variable), so the request still flows through
the midend, the kind and this engine as a serial count does, and the kind makes its response.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache, partial
from typing import Protocol

from pysolver.engines import bitset
from pysolver.engines.cover import ExactCoverProblem
from pysolver.engines.memo import (
    MAX_DEPTH,
    _deepest,
    grid_symmetries,
    memo_cap,
    root_orbits,
    strike_and_lay_out,
    sweep_order,
)
from pysolver.engines.monitor import Cancelled, Monitor, SearchResult

# A sub-board's lane: its key mod this prime (every bit of the key moves it: the low bits
# alone are the first cells of the sweep, the same for most of a level), times LANE_MIX mod
# 2 ** 32 (the residues of keys that differ in a few high bits differ by small multiples of
# 2 ** 32 mod the prime, 5: on their own, even ones fell 2:1 into one of two lanes), scaled to
# the lanes by its top bits (Knuth's multiplicative hashing).
LANE_MODULUS = 4_294_967_291
LANE_MIX = 0x9E3779B1
# Items per table of ``LevelWalk.dead_by_chunk`` (2 ** CHUNK_BITS patterns each). Working out
# a sub-board's live options is half the expansion's time; measured on the 179,225 sub-boards
# of the 6x10 pentomino count (CPU s): 8 bits 0.37, 10 0.34, 11 0.30, 12 0.27. At 12, a
# problem of 72 items keeps 6 tables of 4,096 masks (6 MB; made in 31 ms).
CHUNK_BITS = 12
CHUNK_MASK = (1 << CHUNK_BITS) - 1
# Sub-boards expanded between two looks at the monitor (a few milliseconds).
CHECK_EVERY = 1024
# How many uncovered items after the first one the dead end check looks at, on a narrow
# board swept by columns (the memo walk's ``TIGHTEST_AFTER_CHOSEN`` is 6). Measured, 6x10
# pentominoes, CPU s, two runs each: 6: 0.835, 0.819; 4: 0.790, 0.775; 3: 0.812, 0.801;
# 2: 0.878 (more dead sub-boards expanded against fewer ANDs for each).
CHECKED_AFTER_FIRST = 4
# On other boards (anti-diagonals), the sub-board branches on the item with the fewest live
# options among its first uncovered one and the next CHECKED_AFTER_FIRST_DIAGONAL (the
# others are checked): a cell of an anti-diagonal is often the tighter one further along it.
# Measured on 8x8 with the square, one lane, nodes and CPU s: the first item, 4 checked:
# 5,565,971, 6.84; the fewest of 1 + 4: 3,908,411, 6.50; of 1 + 6: 3,732,952, 6.17; of
# 1 + 8: 3,704,310, 6.13 (the memo walk, MRV over every item: 2,542,259, 8.6). On 6x10
# pentominoes swept by columns it cost time (0.53 -> 0.64 s): the sweep's first item is
# the tight one there, and the sub-boards are no longer fronts, which the mirror pairs less.
CHECKED_AFTER_FIRST_DIAGONAL = 6
# The uncovered items checked are found in a window of NEXT_BITS key bits from the first
# one (its own bit first, always clear): per pattern of the window, the offsets of its next
# clear bits (at most ``checked``; fewer when the window has fewer). A table lookup in place
# of four rounds of bit tricks on the key. With the early end of a sub-board whose chosen
# item has no option left, CPU s: 6x10 pentominoes 0.63 -> 0.58, 8x8 with the square 8.1 ->
# 7.2 (a window of 16 bits: the same times, a table 16 times larger).
NEXT_BITS = 12
NEXT_MASK = (1 << NEXT_BITS) - 1


@cache
def next_free(checked: int) -> list[tuple[int, ...]]:
    """The table of the window's next clear bits (see NEXT_BITS), at most ``checked``."""
    return [
        tuple(offset for offset in range(1, NEXT_BITS) if not pattern >> offset & 1)[:checked]
        for pattern in range(1 << NEXT_BITS)
    ]


@dataclass
class Expanded:
    """A part of a level expanded: its children, by the lane that owns each (``parts[lane]``:
    key -> ways), the covers it completed (weighted) and its nodes (sub-boards expanded and
    options that failed the dead end check, as the memo walk counts them)."""

    parts: list[dict[int, int]]
    found: int = 0
    nodes: int = 0


# A lane's part of a level: the dicts of its sub-boards the lanes sent it, one each (a
# sub-board reached by two lanes is in two of them; their ways add up).
Part = list[dict[int, int]]


@dataclass
class Level:
    """What the count sees of a level its lanes expanded: the covers completed (weighted), the
    nodes, and the next level's size (sub-boards, in the dicts sent: one two lanes reached
    counts twice)."""

    found: int
    nodes: int
    next_size: int


class Lanes(Protocol):
    """Where the levels are expanded and held: lane ``i`` expands the sub-boards it owns
    (``lane_of``) and holds the children the lanes send it, the next level's part ``i``."""

    @property
    def count(self) -> int:
        """How many lanes (parts a level is cut into)."""
        ...

    def open(self, problem: ExactCoverProblem) -> None:
        """Get the lanes ready for ``problem`` (workers started, making their tables while
        this process makes its own)."""
        ...

    def start(self, walk: LevelWalk, parts: list[Part]) -> None:
        """Hold the first level (part ``i`` for lane ``i``)."""
        ...

    def step(self, monitor: Monitor) -> Level:
        """Expand the level held (``walk.expand`` of each part on its lane) and hold the next.
        Raises ``Cancelled`` when the monitor's cancel hook asks to stop."""
        ...


class HeldLanes:
    """Lanes whose levels this process holds: ``expand`` runs a level's parts, wherever."""

    count = 1
    walk: LevelWalk | None = None
    parts: list[Part] | None = None

    def open(self, problem: ExactCoverProblem) -> None:
        return None

    def start(self, walk: LevelWalk, parts: list[Part]) -> None:
        self.walk, self.parts = walk, parts

    def step(self, monitor: Monitor) -> Level:
        assert self.walk is not None and self.parts is not None, "started first"
        answers = self.expand(self.walk, self.parts, monitor)
        self.parts = [[answer.parts[lane] for answer in answers] for lane in range(self.count)]
        return Level(
            sum(answer.found for answer in answers),
            sum(answer.nodes for answer in answers),
            level_size(self.parts),
        )

    def expand(self, walk: LevelWalk, parts: list[Part], monitor: Monitor) -> list[Expanded]:
        """Each part expanded on its lane, in order (here: all in this process)."""
        return [walk.expand(part, self.count, monitor) for part in parts]


def level_size(parts: list[Part]) -> int:
    """A level's sub-boards, in the dicts its parts hold (one two lanes reached counts twice)."""
    return sum(len(states) for part in parts for states in part)


_offered: ContextVar[Lanes | None] = ContextVar("pysolver_level_lanes", default=None)


@contextmanager
def offered(lanes: Lanes) -> Iterator[None]:
    """Counts that ``suits`` run on these lanes inside the block (``offered_lanes``)."""
    token = _offered.set(lanes)
    try:
        yield
    finally:
        _offered.reset(token)


def offered_lanes() -> Lanes | None:
    """The lanes a parallel runner offers to the count running now, if any."""
    return _offered.get()


def suits(problem: ExactCoverProblem) -> bool:
    """Whether the level count takes this problem: the memo walk's whole count (no colours, no
    multiplicities, not too deep) on a board (items that are cells: ``level_order``)."""
    return (
        problem.colours is None
        and problem.multiplicities is None
        and level_order(problem) is not None
        and _deepest(problem) <= MAX_DEPTH
    )


def level_order(problem: ExactCoverProblem) -> tuple[list[int], list[int]] | None:
    """The order in which a sub-board's items are covered (its primary items; the first
    uncovered one is branched on) and, per cell item, its line across that order (the
    sweep's column, or anti-diagonal), or None for a matrix without cells.

    A narrow board is swept column by column down its short side (``memo.sweep_order``); any
    other board, by anti-diagonals from a corner, each from its top: on 8x8 with the square,
    2.26 million sub-boards in all and 0.77 million at the widest, where a sweep by rows made
    2.8 and 1.03 million (9.1 and 11.3 s of CPU; the memo walk, MRV, 8.9 s)."""
    cells = problem.item_cells
    if not cells or len(cells) > problem.primary:
        return None
    order = sweep_order(problem)
    if order is not None:
        across = 1 if len({c for _, c in cells}) > len({r for r, _ in cells}) else 0
        return order, [cell[across] for cell in cells]
    lines = [r + c for r, c in cells]
    order = sorted(range(len(cells)), key=lambda item: (lines[item], cells[item][0]))
    return order + list(range(len(cells), problem.primary)), lines


def lane_of(key: int, lanes: int) -> int:
    """The lane that owns a sub-board (see the module doc)."""
    return (key % LANE_MODULUS * LANE_MIX & 0xFFFFFFFF) * lanes >> 32


def _or_table(masks: list[int]) -> list[int]:
    """Per pattern of ``len(masks)`` bits, the OR of the masks its bits pick."""
    table = [0] * (1 << len(masks))
    for pattern in range(1, len(table)):
        low = pattern & -pattern
        table[pattern] = table[pattern ^ low] | masks[low.bit_length() - 1]
    return table


def _positions(problem: ExactCoverProblem, bit_of: list[int]) -> tuple[list[int], list[int]]:
    """Per option its bit in the walk's masks, and per bit its option: the options whose first
    item in the order comes latest get the lowest bits. A sub-board's dead options are then
    the high bits of its masks (every option behind the front), and a big-int operation costs
    by the width of its operands: its live masks narrow as the order advances, as the bitset
    engine's do (``bitset._bit_positions``, by item number). Measured, CPU s, against the
    bitset engine's layout: 6x10 pentominoes 0.58 -> 0.52, 8x8 with the square 7.2 -> 6.8."""
    first_bit = [min(bit_of[item] for item in option) for option in problem.options]
    option_at = sorted(range(len(problem.options)), key=lambda option: -first_bit[option])
    position_of = [0] * len(option_at)
    for position, option in enumerate(option_at):
        position_of[option] = position
    return position_of, option_at


def _mirror(
    problem: ExactCoverProblem, lines: list[int], symmetries: list[tuple[list[int], list[int]]]
) -> tuple[list[int], list[int]]:
    """A symmetry of the matrix (options, items; ``grid_symmetries``) that keeps every cell on
    its line and is its own inverse (``LevelWalk``'s mirror), or the identity."""
    for options, items in symmetries[1:]:
        if all(lines[items[cell]] == line for cell, line in enumerate(lines)) and all(
            items[items[item]] == item for item in range(problem.items)
        ):
            return options, items
    return list(range(len(problem.options))), list(range(problem.items))


@dataclass
class LevelWalk:
    """The tables of a level count, made of the problem once per process.

    Keys number the items in ``level_order`` (the primary items first, in the order they are
    covered, then the secondary ones), so a sub-board's first uncovered item is its key's
    lowest zero bit.

    **A mirror.** A symmetry of the matrix maps the covers of a sub-board one to one onto the
    covers of its image, so a sub-board and its image may be counted as one: a level keeps
    the smaller of the two keys, with the ways of both (exact, whatever the root orbits
    weighed). Only a symmetry that keeps every cell on its line across the order does it
    (the sweep's columns flipped top to bottom; the anti-diagonals, by the transpose): it
    maps a sub-board of the sweep to one (another's image would be a front the sweep never
    makes, and a level of both kinds holds more). Measured, sub-boards in all and CPU s:
    6x10 pentominoes 179,225 -> 142,936 (0.72 -> 0.63), 8x8 with the square 2.26 -> 1.78
    million (9.1 -> 8.1). The image of a child is the parent's image with the option's
    image's items, so it costs one OR a child; a sub-board's own image is read from tables,
    as its dead options are.
    """

    problem: ExactCoverProblem
    # Per bit position: the options compatible with its option and the option itself (the
    # dead end check), and the key bits of its items and of its image's.
    keeping_at: list[int] = field(init=False)
    key_of: list[int] = field(init=False)
    mirrored_key_of: list[int] = field(init=False)
    # Per key bit: the mask of its item's options.
    options_of: list[int] = field(init=False)
    every_option: int = field(init=False)
    # Per chunk of CHUNK_BITS key bits, per pattern of them: the OR of their items' options,
    # and of their images' key bits (without a mirror, their own).
    dead_by_chunk: list[list[int]] = field(init=False)
    mirror_by_chunk: list[list[int]] = field(init=False)
    # From each chunk on, both tables (``zip(dead_by_chunk, mirror_by_chunk)[start:]``); below
    # each chunk, the OR of every item's options and of their images' bits (the chunks below a
    # sub-board's first uncovered item are whole: fewer lookups, the more so the further the
    # sweep has gone).
    tables_from: list[list[tuple[list[int], list[int]]]] = field(init=False)
    dead_below: list[int] = field(init=False)
    mirrored_below: list[int] = field(init=False)
    all_primary: int = field(init=False)
    # Whether a sub-board branches on the tightest of its first uncovered items (not on a
    # narrow board's sweep: ``CHECKED_AFTER_FIRST_DIAGONAL``), and the window's table for its
    # dead end check (``next_free``).
    fewest_first: bool = field(init=False)
    next_free: list[tuple[int, ...]] = field(init=False)
    # The root orbits (key of the option's items, weight), or the empty board, weight 1.
    first_level: dict[int, int] = field(init=False)
    # How many sub-boards a level may hold (the memo's share of the budget).
    cap: int = field(init=False)

    def __post_init__(self) -> None:
        problem = self.problem
        monitor = Monitor()
        _, kept, _, _ = strike_and_lay_out(problem, monitor)
        ordered = level_order(kept)
        if ordered is None:
            raise ValueError("the level count needs a board (items that are cells)")
        order, lines = ordered
        order += range(problem.primary, problem.items)
        self.fewest_first = sweep_order(kept) is None
        self.next_free = next_free(
            CHECKED_AFTER_FIRST_DIAGONAL if self.fewest_first else CHECKED_AFTER_FIRST
        )
        bit_of = [0] * problem.items
        for bit, item in enumerate(order):
            bit_of[item] = bit
        # The masks laid out for this order (``_positions``), the bitset engine's way for its.
        position_of, option_at = _positions(kept, bit_of)
        item_masks = bitset._item_masks(kept, position_of)
        compatible, _, _ = bitset._compatible_masks(kept, position_of, item_masks, monitor)
        self.keeping_at = [compatible[option] | 1 << at for at, option in enumerate(option_at)]
        self.key_of = [
            sum(1 << bit_of[item] for item in kept.options[option]) for option in option_at
        ]
        self.options_of = [item_masks[item] for item in order]
        self.every_option = (1 << len(kept.options)) - 1
        # Found once for the mirror and the root orbits (each took 7 ms of a 6x10 walk's 48,
        # in every lane's process).
        symmetries = grid_symmetries(kept)
        options_mirrored, items_mirrored = _mirror(kept, lines, symmetries)
        self.mirrored_key_of = [
            self.key_of[position_of[options_mirrored[option]]] for option in option_at
        ]
        mirrored_bits = [1 << bit_of[items_mirrored[item]] for item in order]
        self.dead_by_chunk = [
            _or_table(self.options_of[start : start + CHUNK_BITS])
            for start in range(0, problem.items, CHUNK_BITS)
        ]
        self.mirror_by_chunk = [
            _or_table(mirrored_bits[start : start + CHUNK_BITS])
            for start in range(0, problem.items, CHUNK_BITS)
        ]
        pairs = list(zip(self.dead_by_chunk, self.mirror_by_chunk, strict=True))
        self.tables_from = [pairs[start:] for start in range(len(pairs))]
        self.dead_below, self.mirrored_below = [0], [0]
        for dead, mirrored in pairs[:-1]:
            self.dead_below.append(self.dead_below[-1] | dead[-1])
            self.mirrored_below.append(self.mirrored_below[-1] | mirrored[-1])
        self.all_primary = (1 << problem.primary) - 1
        orbits = root_orbits(kept, [options for options, _ in symmetries])
        self.first_level = {}
        if orbits is None:
            self.first_level[0] = 1
        else:
            # Only options the strike kept: a struck one is in no cover.
            for option, weight in orbits:
                position = position_of[option]
                key = min(self.key_of[position], self.mirrored_key_of[position])
                self.first_level[key] = self.first_level.get(key, 0) + weight
        self.cap = memo_cap(problem)

    def expand(self, part: Part, lanes: int, monitor: Monitor) -> Expanded:
        """Expand a lane's sub-boards of one level (``part``: key -> ways, in the dicts the
        lanes sent; merged here, in the lane's own process): their children, cut by lane.

        For each sub-board:
        E1. [Live options.] Those that touch none of its covered items: every option but the
            OR of the covered items' options, read from the chunk tables; and its mirror
            image's key, from the same patterns.
        E2. [Choose.] Its first uncovered primary item, or (``fewest_first``) the one with
            the fewest live options among it and the next ones the window gives; the live
            options of the others for the dead end check. One of them without a live
            option: a dead end, no children. Every primary item covered: a cover, its ways
            found.
        E3. [Branch.] Each live option of the chosen item that leaves every checked item an
            option adds the sub-board's ways to its child's (key: covered | the option's, or
            its image's when smaller).
        """
        states = merged(part)
        children: dict[int, int] = {}
        get = children.get
        found = 0
        nodes = 0
        every_option = self.every_option
        tables_from = self.tables_from
        dead_below = self.dead_below
        mirrored_below = self.mirrored_below
        mirrored_key_of = self.mirrored_key_of
        options_of = self.options_of
        keeping_at = self.keeping_at
        key_of = self.key_of
        all_primary = self.all_primary
        primary = self.problem.primary
        next_free = self.next_free
        fewest_first = self.fewest_first
        check = CHECK_EVERY
        for covered, ways in states.items():
            nodes += 1
            check -= 1
            if not check:
                check = CHECK_EVERY
                monitor.checkpoint(CHECK_EVERY)
            free = ~covered & all_primary
            if not free:  # E2: a cover
                found += ways
                continue
            # E1: the chunks below the first uncovered item are whole (``dead_below``).
            low = free & -free
            first = low.bit_length() - 1
            whole = first // CHUNK_BITS
            dead = dead_below[whole]
            image = mirrored_below[whole]
            rest = covered >> whole * CHUNK_BITS
            for dead_table, mirror_table in tables_from[whole]:
                pattern = rest & CHUNK_MASK
                dead |= dead_table[pattern]
                image |= mirror_table[pattern]
                rest >>= CHUNK_BITS
            live = every_option & ~dead
            # E2
            candidates = options_of[first] & live
            if not candidates:
                nodes += 1  # a dead end: the chosen item has no option left
                continue
            checked = []
            fewest = candidates.bit_count() if fewest_first else 1
            for offset in next_free[covered >> first & NEXT_MASK]:
                item = first + offset
                if item >= primary:
                    break
                mask = options_of[item] & live
                if not mask:
                    candidates = 0  # a dead end
                    break
                if fewest > 1:
                    size = mask.bit_count()
                    if size < fewest:  # branch on this one, check the one before
                        fewest = size
                        checked.append(candidates)
                        candidates = mask
                        continue
                checked.append(mask)
            # E3
            while candidates:
                position = candidates.bit_length() - 1
                candidates ^= 1 << position
                keeping = keeping_at[position]
                for mask in checked:
                    if not mask & keeping:
                        nodes += 1  # a dead end child
                        break
                else:
                    key = covered | key_of[position]
                    mirrored = image | mirrored_key_of[position]
                    if mirrored < key:
                        key = mirrored
                    children[key] = get(key, 0) + ways
        if lanes == 1:
            return Expanded([children], found, nodes)
        parts: list[dict[int, int]] = [{} for _ in range(lanes)]
        for key, ways in children.items():  # by ``lane_of``, written out (a call a child)
            parts[(key % LANE_MODULUS * LANE_MIX & 0xFFFFFFFF) * lanes >> 32][key] = ways
        return Expanded(parts, found, nodes)


def merged(part: Part) -> dict[int, int]:
    """A lane's sub-boards from the dicts the lanes sent it, ways added: the largest dict is
    added to in place (a part's dicts are its lane's, read once: a copy cost 5-10 ms a lane
    on the widest levels of 8x8 with the square)."""
    if len(part) == 1:
        return part[0]
    by_size = sorted(part, key=len, reverse=True)
    whole = by_size[0]
    get = whole.get
    for other in by_size[1:]:
        for key, ways in other.items():
            whole[key] = get(key, 0) + ways
    return whole


class LanesLost(Exception):
    """The lanes lost a level they held (a cluster gone): the level count cannot go on."""


class TooWide(Exception):
    """A level holds more sub-boards than the memo's share of the budget allows."""


def count(
    problem: ExactCoverProblem, monitor: Monitor, lanes: Lanes | None = None
) -> SearchResult[list[int]]:
    """Count every exact cover level by level (see the module doc) on ``lanes`` (default: this
    process alone). Stats: ``nodes``, ``levels`` and ``widest_level`` (sub-boards).

    Raises ``TooWide`` when a level would pass the memo's share of the budget (the caller
    counts with the memo walk instead, which keeps a capped memo)."""
    lanes = lanes or HeldLanes()
    lanes.open(problem)
    walk = LevelWalk(problem)
    width = lanes.count
    parts: list[Part] = [[{}] for _ in range(width)]
    for key, ways in walk.first_level.items():
        parts[lane_of(key, width)][0][key] = ways
    total = nodes = levels = 0
    size = widest = len(walk.first_level)
    deepest = max(1, _deepest(problem))
    cancelled = False
    lanes.start(walk, parts)
    del parts
    try:
        while size:
            widest = max(widest, size)
            if size > walk.cap:
                raise TooWide(f"a level of {size:,} sub-boards")
            levels += 1
            level = lanes.step(monitor)
            total += level.found
            nodes += level.nodes
            size = level.next_size
            if monitor.check(nodes, total, partial(min, levels / deepest, 0.99)):
                raise Cancelled
    except Cancelled:
        cancelled = True
    monitor.finish(nodes, total, not cancelled)
    stats = {"nodes": nodes, "levels": levels, "widest_level": widest, "lanes": width}
    return SearchResult(count=total, complete=not cancelled, cancelled=cancelled, stats=stats)


__all__ = [
    "Expanded",
    "HeldLanes",
    "Level",
    "Lanes",
    "LanesLost",
    "Part",
    "LevelWalk",
    "TooWide",
    "count",
    "lane_of",
    "level_size",
    "merged",
    "offered",
    "offered_lanes",
    "suits",
]
