"""A Sudoku board of candidates as bit masks, and its steps as the protocol's JSON.

Cells are numbered row by row (``cell = row * n + column``, 0-based); digits are 1..n. Houses
are the groups that hold each digit once: the n rows (houses 0..n-1, each listing its cells by
column), the n columns (houses n..2n-1, each by row), then the boxes or jigsaw regions, then
the two diagonals of a Sudoku X. Placing a digit removes it from every cell sharing a house
(its peers); that removal is part of the placement, never listed as an elimination.

A board keeps each open cell's candidates twice, kept equal by every change:

- ``candidates[cell]``: a digit mask (bit ``d - 1`` for digit d); a placed cell keeps its one
  digit's bit;
- ``boards[d - 1]``: where digit d may still go, in the ``masks`` engine's layout
  (``pysolver.engines.masks``): one field of n bits per house (a bit per position in the house,
  a guard bit above) and, above the fields, one bit per cell. One subtraction then looks at every
  house at once (``nonempty``), a house's field is the places of d in it, and
  ``board >> shape.base`` is the plain mask of the cells (bit c for cell c) that may hold d.
  Placed cells are in no board.

A finder reads the masks; a change goes through ``place``, ``eliminate`` or ``restrict``.

A killer board also has its ``cages`` (``variants.Cage``: a sum and cells), which the cage
techniques read (``pysolver.kinds.sudoku.cages``); they are not houses (a cage need not hold
every digit), so placing a digit does not remove it from the rest of its cage.

Sentences count rows and columns from 1 ("row 3, column 5"); boxes and regions too, in
reading order of their first cell.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from pysolver.engines import masks
from pysolver.kinds.sudoku.variants import Cage
from pysolver.logic.step import Step

# Grid shapes kept (``Grid.standard``): the tables of a shape are built once.
SHAPES_KEPT = 32
# ``Grid.spread`` works out 2 to this many places at once.
JOINT_SPREADS = 4
# Keys a board's ``memo`` holds before it is emptied (a generator reads thousands of boards).
MEMO_KEPT = 10_000


def step_json(step: Step, n: int) -> dict[str, Any]:
    """The protocol's Sudoku step: ``place`` and ``eliminate`` as ``[r, c, d]``, ``cells`` as
    ``[r, c]`` (rows and columns 0-based, as solutions and trace steps give them)."""
    rows, columns = rows_and_columns(n)
    shown: dict[str, Any] = {
        "technique": step.technique,
        "place": [[rows[cell], columns[cell], digit] for cell, digit in step.place],
        "eliminate": [[rows[cell], columns[cell], digit] for cell, digit in step.eliminate],
        "cells": [[rows[cell], columns[cell]] for cell in step.cells],
        "text": step.text,
    }
    if step.alternatives:
        shown["alternatives"] = [
            [rows[cell], columns[cell], digit] for cell, digit in step.alternatives
        ]
    return shown


@lru_cache(maxsize=SHAPES_KEPT)
def rows_and_columns(n: int) -> tuple[list[int], list[int]]:
    """Per cell of an n x n grid, its row and its column (0-based): a step's JSON reads them
    (two list reads cost less than a division and a remainder)."""
    cells = range(n * n)
    return [cell // n for cell in cells], [cell % n for cell in cells]


def bits(mask: int) -> list[int]:
    """The set bits of ``mask`` as indices, lowest first."""
    found: list[int] = []
    append = found.append
    while mask:
        low = mask & -mask
        append(low.bit_length() - 1)
        mask ^= low
    return found


def linked(mask: int, links: Sequence[int] | Mapping[int, int]) -> int:
    """The union of ``links[i]`` over the set bits ``i`` of ``mask``: one step of a flood over
    cells joined by ``links`` (peers, conjugate partners)."""
    reached = 0
    while mask:
        low = mask & -mask
        mask ^= low
        reached |= links[low.bit_length() - 1]
    return reached


def bit_masks(mask: int) -> list[int]:
    """The set bits of ``mask`` as masks of one bit, lowest first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low)
        mask ^= low
    return found


def digits_of(mask: int) -> list[int]:
    """The digits (1-based) of a candidate mask, smallest first."""
    return [bit + 1 for bit in bits(mask)]


def listed(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


class Shape:
    """The houses of one grid shape and the tables every board of it reads."""

    def __init__(self, n: int, houses: list[list[int]], house_names: list[str]) -> None:
        self.n = n
        self.houses = houses
        # "row 3", "column 5", "box 2", "region 4", "the main diagonal".
        self.house_names = house_names
        # "row 3, column 5" per cell (step texts name cells all the time).
        self.cell_names = [f"row {cell // n + 1}, column {cell % n + 1}" for cell in range(n * n)]
        self.full = (1 << n) - 1
        cells = n * n
        layout = masks.unit_layout(cells, n, houses)
        # The masks engine's layout of these boards (a search starts from them).
        self.layout = layout
        self.width = n + 1  # a field and its guard
        self.base = layout.cell_base
        self.guards = layout.guards
        self.lows = layout.lows
        # Per cell: its bits in a board (a position in each of its houses, its cell bit), and
        # those of its peers.
        self.copies = list(layout.cell_copies)
        self.peer_copies = [layout.peers[1 << (self.base + cell)] for cell in range(cells)]
        # Per cell, a board's bits but its copies, and but its peers' copies: what a placement
        # keeps, as a positive int (``board & ~copies`` would build a negative wide int first,
        # a dear step at each placement).
        self.keep_cell = [layout.all_bits ^ mask for mask in self.copies]
        self.keep_peers = [layout.all_bits ^ mask for mask in self.peer_copies]
        self.house_mask = [sum(1 << cell for cell in group) for group in houses]
        self.cell_houses: list[list[int]] = [[] for _ in range(cells)]
        for house, group in enumerate(houses):
            for cell in group:
                self.cell_houses[cell].append(house)
        # Per cell, its houses as a mask (bit h for house h).
        self.house_bits = [sum(1 << house for house in found) for found in self.cell_houses]
        self.peer_mask = [0] * cells
        for cell in range(cells):
            mask = 0
            for house in self.cell_houses[cell]:
                mask |= self.house_mask[house]
            self.peer_mask[cell] = mask & ~(1 << cell)
        self.box_guards = sum(
            1 << (house * self.width + n) for house in range(len(houses)) if self.is_box(house)
        )
        self.line_guards = self.guards & ~self.box_guards
        # Per house, its guard bit.
        self.house_guard = [1 << (house * self.width + n) for house in range(len(houses))]
        self.row_guards = sum(1 << (house * self.width + n) for house in range(n))
        self.column_guards = sum(1 << (house * self.width + n) for house in range(n, 2 * n))
        self.slots, self.crossings = self._crossing_slots()

    def is_box(self, house: int) -> bool:
        """A box or a jigsaw region (not a row, a column or a diagonal)."""
        return 2 * self.n <= house < 3 * self.n

    def _crossing_slots(self) -> tuple[list[int], list[list[tuple[int, int, list[int]]]]]:
        """Locked candidates' tables: per house, every other house sharing two cells or more
        with it (a box and a line), in house order, as (the other house, its cells outside
        this one as a cell mask, the shared cells); and per rank j in those lists a board
        mask (``slots[j]``) holding, in each house's field, the positions outside its j-th
        crossing (every position when it has none): a digit whose field misses that mask lies
        within the crossing."""
        sets = [set(group) for group in self.houses]
        crossings: list[list[tuple[int, int, list[int]]]] = []
        for house, group in enumerate(self.houses):
            found = []
            for other, others in enumerate(self.houses):
                shared = [cell for cell in group if cell in sets[other]]
                if house != other and len(shared) >= 2:
                    rest = sum(1 << cell for cell in others if cell not in sets[house])
                    found.append((other, rest, shared))
            crossings.append(found)
        slots = []
        for rank in range(max((len(found) for found in crossings), default=0)):
            mask = 0
            for house, found in enumerate(crossings):
                outside = self.full
                if rank < len(found):
                    for position, cell in enumerate(self.houses[house]):
                        if cell in found[rank][2]:
                            outside &= ~(1 << position)
                mask |= outside << (house * self.width)
            slots.append(mask)
        return slots, crossings

    def nonempty(self, board: int) -> int:
        """The guard bits of the houses whose field in ``board`` is not empty (per field,
        ``(field | guard) - 1`` keeps the guard unless the field is 0)."""
        guards = self.guards
        return ((board | guards) - self.lows) & guards

    def house_of(self, guard: int) -> int:
        """The house of a guard bit."""
        return (guard.bit_length() - 1) // self.width

    def field(self, board: int, house: int) -> int:
        """The positions (bit i: the house's i-th cell) that ``board`` holds in ``house``."""
        return (board >> (house * self.width)) & self.full


class Grid:
    """One board: the ``shape``'s houses and, per cell, its value (0: open) and candidates
    (the module docstring)."""

    def __init__(self, shape: Shape) -> None:
        self.shape = shape
        self.n = shape.n
        self.houses = shape.houses
        self.house_names = shape.house_names
        self.peer_mask = shape.peer_mask
        cells = self.n * self.n
        self.values = [0] * cells
        self.candidates = [shape.full] * cells
        every = 0
        for copies in shape.copies:
            every |= copies
        self.boards = [every] * self.n
        # Per digit, the copies of the cells that hold it (a board of the placed cells).
        self.filled = [0] * self.n
        self.open = (1 << cells) - 1  # the open cells, a cell mask
        # What finders work out from this state (``state``), dropped by every change.
        self._state: dict[Any, Any] | None = None
        # What finders know of a part of a state (``fruitless``), kept across changes and
        # shared by copies.
        self.memo: set[Any] = set()
        # What finders work out from a part of a state (``remembered``: e.g. one digit's
        # conjugate pairs from its board), kept across changes and shared by copies.
        self.known: dict[Any, Any] = {}
        # Per finder, the boards when it last found nothing (``changed_since``); a copy takes
        # its own.
        self.quiet: dict[str, tuple[int, ...]] = {}
        self.cages: tuple[Cage, ...] = ()  # a killer's (shared by copies: never changed)

    @classmethod
    def standard(
        cls,
        n: int,
        box_rows: int,
        box_cols: int,
        regions: tuple[int, ...] | None = None,
        diagonals: bool = False,
    ) -> Grid:
        """An open board of rows, columns, then boxes of ``box_rows`` x ``box_cols`` (or
        jigsaw ``regions``, a region number per cell), then the diagonals when
        ``diagonals``."""
        return cls(standard_shape(n, box_rows, box_cols, regions, diagonals))

    def copy(self) -> Grid:
        twin = object.__new__(Grid)
        twin.__dict__.update(self.__dict__)
        twin.values = self.values.copy()
        twin.candidates = self.candidates.copy()
        twin.boards = self.boards.copy()
        twin.filled = self.filled.copy()
        twin.quiet = self.quiet.copy()
        return twin

    def cell_name(self, cell: int) -> str:
        """``row 3, column 5`` (from 1)."""
        return self.shape.cell_names[cell]

    def cells_named(self, cells: list[int]) -> str:
        return listed([self.cell_name(cell) for cell in cells])

    def is_box(self, house: int) -> bool:
        """A box or a jigsaw region (not a row, a column or a diagonal)."""
        return self.shape.is_box(house)

    # ------------------------------------------------------------ changes

    def place(self, cell: int, digit: int) -> None:
        """Put ``digit`` at ``cell`` and remove it from the candidates of its peers."""
        shape = self.shape
        boards = self.boards
        index = digit - 1
        bit = 1 << index
        keep = shape.keep_cell[cell]
        mask = self.candidates[cell] | bit
        while mask:
            low = mask & -mask
            mask ^= low
            boards[low.bit_length() - 1] &= keep
        board = boards[index]
        hit = (board >> shape.base) & shape.peer_mask[cell]
        if hit:
            boards[index] = board & shape.keep_peers[cell]
            candidates = self.candidates
            others = shape.full ^ bit
            while hit:
                low = hit & -hit
                hit ^= low
                candidates[low.bit_length() - 1] &= others
        self.filled[index] |= shape.copies[cell]
        self.values[cell] = digit
        self.candidates[cell] = bit
        self.open &= ~(1 << cell)
        self._state = None

    def eliminate(self, cell: int, digit: int) -> None:
        index = digit - 1
        self.candidates[cell] &= ~(1 << index)
        self.boards[index] &= self.shape.keep_cell[cell]
        self._state = None

    def restrict(self, cell: int, mask: int) -> None:
        """Keep only the candidates of ``mask`` at the open ``cell``."""
        gone = self.candidates[cell] & ~mask
        while gone:
            low = gone & -gone
            gone ^= low
            self.eliminate(cell, low.bit_length())

    def apply(self, step: Step) -> None:
        for cell, digit in step.eliminate:
            self.eliminate(cell, digit)
        for cell, digit in step.place:
            self.place(cell, digit)

    def settled_boards(self) -> tuple[list[int], int]:
        """This board in the ``masks`` engine's layout (``Shape.layout``), each placed cell
        back in its digit's board, taken to the engine's rules' fixpoint: the boards and every
        copy of the cells placed (negative: no solution). ``masks.search_boards`` searches
        from them the tree ``masks.search`` lays out from the candidates (the fixpoint is one,
        whatever order the rules fire in); ``load_settled`` reads them back."""
        boards = [board | filled for board, filled in zip(self.boards, self.filled, strict=True)]
        placed = 0
        for filled in self.filled:
            placed |= filled
        return boards, masks.settle_boards(boards, placed, self.shape.layout)

    def load_settled(self, boards: list[int], placed: int) -> None:
        """Set this board to a fixpoint of the ``masks`` engine's rules reached from it:
        ``boards`` per digit in the shape's layout (a placed cell in its digit's board alone,
        each within this board's), ``placed`` every copy of the cells placed. The state
        ``place`` and ``eliminate`` reach a cell and a digit at a time, set at once (the
        Sudoku generator's grading settles the singles between the techniques' steps)."""
        base = self.shape.base
        every = (1 << len(self.values)) - 1
        placed_cells = (placed >> base) & every
        new = placed_cells & self.open
        open_cells = every ^ placed_cells
        values = self.values
        candidates = self.candidates
        fresh = self.open == every
        if fresh:
            # An open board: each open cell's candidates read off the boards.
            cells = open_cells
            while cells:
                low = cells & -cells
                cells ^= low
                candidates[low.bit_length() - 1] = 0
        for index, board in enumerate(boards):
            bit = 1 << index
            kept = board ^ (board & placed)
            if fresh:
                cells = (kept >> base) & every
                while cells:
                    low = cells & -cells
                    cells ^= low
                    candidates[low.bit_length() - 1] |= bit
            else:
                # Only the cells that lost the digit (the newly placed among them).
                cells = ((self.boards[index] ^ kept) >> base) & every
                while cells:
                    low = cells & -cells
                    cells ^= low
                    candidates[low.bit_length() - 1] &= ~bit
            self.filled[index] |= board & placed
            self.boards[index] = kept
            cells = (board >> base) & new
            while cells:
                low = cells & -cells
                cells ^= low
                cell = low.bit_length() - 1
                values[cell] = index + 1
                candidates[cell] = bit
        self.open = open_cells
        self._state = None

    # ------------------------------------------------------------ reading

    def cells_of(self, digit: int) -> int:
        """The open cells that may hold ``digit``, as a cell mask."""
        return self.boards[digit - 1] >> self.shape.base

    def state(self) -> dict[Any, Any]:
        """A dict for what finders work out from this state, emptied by every change."""
        if self._state is None:
            self._state = {}
        return self._state

    def fruitless(self, key: Any) -> bool:
        """Whether ``key`` (a finder's name and the part of the board it reads, e.g. one
        digit's board) was marked by ``mark_fruitless``: the finder found nothing there."""
        return key in self.memo

    def mark_fruitless(self, key: Any) -> None:
        if len(self.memo) >= MEMO_KEPT:
            self.memo.clear()
        self.memo.add(key)

    def remembered(self, key: Any) -> Any:
        """What ``remember`` stored under ``key`` (a finder's name and the part of the board
        it read), or None."""
        return self.known.get(key)

    def remember(self, key: Any, value: Any) -> None:
        if len(self.known) >= MEMO_KEPT:
            self.known.clear()
        self.known[key] = value

    def changed_since(self, finder: str) -> int:
        """The cells whose candidates changed (or that were placed) since ``finder`` last
        found nothing on this board (``mark_quiet``), as a cell mask; every cell when it never
        did. Candidates only ever go, so a finder whose steps need a changed cell (a subset in
        a house, a chain of bivalue cells) looks only where this mask says."""
        before = self.quiet.get(finder)
        if before is None:
            return (1 << (self.n * self.n)) - 1
        return self.changed_from(before)

    def changed_from(self, before: tuple[int, ...]) -> int:
        """The cells whose candidates changed (or that were placed) since the boards were
        ``before`` (a ``tuple(self.boards)`` taken then), as a cell mask."""
        changed = 0
        for old, board in zip(before, self.boards, strict=True):
            changed |= old ^ board
        return changed >> self.shape.base

    def board_changes(self, finder: str) -> list[int] | None:
        """Per digit index, the bits of its board that changed since ``finder`` last found
        nothing on this board (``mark_quiet``): a cell's change shows at its positions in its
        houses' fields and at its cell bit. None when it never did."""
        before = self.quiet.get(finder)
        if before is None:
            return None
        return [old ^ board for old, board in zip(before, self.boards, strict=True)]

    def mark_quiet(self, finder: str) -> None:
        """``finder`` found nothing on this board."""
        self.quiet[finder] = tuple(self.boards)

    def counts(self) -> list[int]:
        """``counts()[k]``: the open cells with at least k candidates, as a cell mask (k = 1 ..
        5; ``counts()[0]`` is every open cell); kept until the board changes."""
        state = self.state()
        found: list[int] | None = state.get("counts")
        if found is None:
            base = self.shape.base
            found = [self.open, *(board >> base for board in self.count_boards())]
            state["counts"] = found
        return found

    def count_boards(self) -> list[int]:
        """``count_boards()[k - 1]``: the open cells with at least k candidates (k = 1 .. 5) as
        a board (each cell at its positions in its houses' fields and its cell bit, as in every
        digit's board); kept until the board changes."""
        state = self.state()
        found: list[int] | None = state.get("count boards")
        if found is None:
            one = two = three = four = five = 0
            for board in self.boards:
                five |= four & board
                four |= three & board
                three |= two & board
                two |= one & board
                one |= board
            found = [one, two, three, four, five]
            state["count boards"] = found
        return found

    def spread(self, most: int) -> list[int]:
        """Per digit index, the guard bits of the houses where the digit has 2 to ``most``
        places (per field, ``x & ((x | guard) - 1)`` drops the lowest place: after ``most``
        drops a field still holding one had more); kept until the board changes."""
        state = self.state()
        found: list[int] | None = state.get(most)  # keyed by ``most`` (an int)
        if found is None:
            shape = self.shape
            guards, lows = shape.guards, shape.lows
            # Subsets, fish and forcing chains ask for 2, 3 and 4 on one state: the drops are
            # shared.
            wanted = range(2, JOINT_SPREADS + 1) if 2 <= most <= JOINT_SPREADS else [most]
            lists: list[list[int]] = [[] for _ in wanted]
            for board in self.boards:
                rest = board & ((board | guards) - lows)
                several = ((rest | guards) - lows) & guards
                dropped = 1
                for found_at, size in zip(lists, wanted, strict=True):
                    while dropped < size:
                        rest &= (rest | guards) - lows
                        dropped += 1
                    found_at.append(several & ~((rest | guards) - lows))
            for size, found_at in zip(wanted, lists, strict=True):
                state[size] = found_at
            found = state[most]
        return found

    def open_cells(self, house: int) -> list[int]:
        values = self.values
        return [cell for cell in self.houses[house] if not values[cell]]

    def places(self, house: int, digit: int) -> list[int]:
        """The open cells of ``house`` where ``digit`` is still a candidate."""
        cells = self.houses[house]
        return [cells[i] for i in bits(self.shape.field(self.boards[digit - 1], house))]

    def solved(self) -> bool:
        return not self.open

    def contradiction(self) -> str | None:
        """Why this board cannot be finished (an open cell without candidates, a house with no
        place left for a missing digit), or None when no such plain dead end shows."""
        empty = self.open & ~self.counts()[1]
        if empty:
            return (
                f"{self.cell_name((empty & -empty).bit_length() - 1)} would have no candidate left"
            )
        shape = self.shape
        first: tuple[int, int] | None = None
        for index, board in enumerate(self.boards):
            missing = shape.guards & ~shape.nonempty(board | self.filled[index])
            if missing:
                house = shape.house_of(missing & -missing)
                if first is None or house < first[0]:
                    first = (house, index + 1)
        if first is not None:
            return f"{self.house_names[first[0]]} would have no place for {first[1]}"
        return None


@lru_cache(maxsize=SHAPES_KEPT)
def standard_shape(
    n: int,
    box_rows: int,
    box_cols: int,
    regions: tuple[int, ...] | None = None,
    diagonals: bool = False,
) -> Shape:
    """The shape of ``Grid.standard``, built once per set of arguments."""
    houses = [[r * n + c for c in range(n)] for r in range(n)]
    houses += [[r * n + c for r in range(n)] for c in range(n)]
    names = [f"row {r + 1}" for r in range(n)] + [f"column {c + 1}" for c in range(n)]
    if regions is None:
        for top in range(0, n, box_rows):
            for left in range(0, n, box_cols):
                houses.append(
                    [(top + r) * n + left + c for r in range(box_rows) for c in range(box_cols)]
                )
        names += [f"box {b + 1}" for b in range(n)]
    else:
        numbers = sorted(set(regions), key=regions.index)
        for number in numbers:
            houses.append([cell for cell in range(n * n) if regions[cell] == number])
        names += [f"region {index + 1}" for index in range(len(numbers))]
    if diagonals:
        houses.append([i * n + i for i in range(n)])
        houses.append([i * n + n - 1 - i for i in range(n)])
        names += ["the main diagonal", "the anti-diagonal"]
    return Shape(n, houses, names)
