"""Cells with candidate sets, units that hold each symbol once: a bit-parallel propagation search.

The problem (``CellsProblem``): ``cells`` cells, each to hold one of the symbols ``1 ..
symbols``; ``candidates[c]``, the symbols cell ``c`` may hold, as a mask (bit ``s - 1`` for
symbol ``s``; a given is a one-bit mask); ``units``, lists of exactly ``symbols`` cells that
hold every symbol exactly once (a Sudoku's rows, columns and boxes, a jigsaw's regions, an X's
diagonals); ``cages``, groups of cells that hold distinct symbols making up one of the cage's
admissible ``sets`` (a killer cage: the digit sets of its size adding up to its sum). A
solution is the list of the cells' symbols, ints ``1 .. symbols``, cell by cell. The engine
knows nothing of grids.

The state of a search node is one mask per *symbol* over the cells (``boards[s - 1]``: the
cells that may still hold ``s``, bit ``c`` for cell ``c``; a cell placed keeps its one bit)
and the mask of the cells placed. A placement of ``s`` at ``c`` is two operations: every other
board loses ``c``, board ``s`` loses ``c``'s peers (the cells sharing a unit or a cage with
``c``, one precomputed mask). Copying a node is copying ``symbols`` ints. The rules, applied to
the fixpoint at every node (``_settle``):

* **naked singles**, for all cells at once: summing the boards bit-sliced (``once``: in at
  least one board, ``twice``: in two) gives the cells with no candidate left (the node is
  dead) and the cells with exactly one, which are placed together, a board at a time;
* **hidden singles**, a symbol at a time, only for the symbols whose board changed since it was
  last looked at: a unit where the symbol's board has one cell places it there, a unit where it
  has none kills the node;
* **cages**, once the singles are stuck: a cage's admissible sets that still fit (they hold the
  symbols placed in the cage and only symbols its cells may still take) bar every other symbol
  from its cells; no set left kills the node. With its cells all placed, distinct (they are
  peers) and inside a set of their size, they are that set. Only the cages with a cell changed
  since the rule last held on them are looked at again (a child's: its branching cell, that
  cell's peers, and what the rules changed since), and a cage's allowed symbols are kept per
  state of the cage (the symbols possible and placed in it).

Locked candidates (pointing, claiming) are not applied: measured on the hard Sudoku set of
``bench/bench_sudoku.py`` they saved fewer nodes than they cost time.

Branching: the open cell with the fewest candidates (two, when there is one: found bit-sliced
for all cells at once, like the singles), the lowest cell number among equals; its symbols are
tried in increasing order, or in an order shuffled by ``rng`` (random mode). Solutions therefore
come in the lexicographic order of the branch choices, and a node count (``stats.nodes``)
counts the branching choices tried, not the forced placements (as the ``singles`` exact cover
engine counts). The search is iterative, with an explicit stack (Pyodide's stack is small).

``search`` is the algorithm, in Knuth's style of labelled steps (C1-C6). ``split`` cuts the
same tree at its first branch points into subtrees (``pysolver.engines.subtree``), a choice
named ``cell * symbols + symbol - 1``, and ``search(path=...)`` searches below one.
``search_boards`` runs the same steps from a node a caller settled on boards of its own
(``settle_boards``), as a generator's uniqueness proofs do.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import chain
from typing import Any

from pysolver import budget
from pysolver.engines.monitor import CHECK_EVERY, Monitor, SearchResult
from pysolver.engines.subtree import InvalidPath, Split, split_tree
from pysolver.protocol import shown

# How the page names this engine (see pysolver.facts): a menu title and one sentence.
TITLE = "Candidate masks, singles, then branching"
SUMMARY = (
    "Keeps each symbol's possible cells as one bit mask, places naked and hidden singles for "
    "all cells at once, then branches on a cell with the fewest candidates."
)

# The cell bits of a board are read in chunks of this many bits: an int of at most 30 bits is
# one "digit" of CPython's ints, whose operations are cheaper than a wider int's (in Pyodide,
# where a wide int's &, | or ^ costs about 2.6 times CPython's, a one-digit int's about 1.5).
CHUNK_BITS = 30
CHUNK = (1 << CHUNK_BITS) - 1
# Per cage, the states whose allowed symbols are kept (``_place_cages``): a 9x9 killer's
# search meets a few hundred a cage; the bound keeps a long search of a large one in memory
# (``estimated_bytes`` counts them full: two ints and a dict slot each).
CAGE_STATES_KEPT = 1024
CAGE_STATE_BYTES = 2 * budget.INT_BYTES + 3 * budget.POINTER_BYTES
# Board layouts kept (``_shaped_layout``): one per grid shape and set of cages in use.
LAYOUTS_KEPT = 32
# Nodes between two monitor checks: CHECK_EVERY on grids of up to CHECK_CELLS cells (9x9, a
# node about 20 µs), fewer as the square of the cells grows (a node's boards grow about so: a
# 36x36 node took 3 ms), so a cancel is still heard within a few milliseconds.
CHECK_CELLS = 81


@dataclass(frozen=True)
class Cage:
    """Cells holding distinct symbols that make up one of ``sets`` (symbol masks, each of as
    many symbols as the cage has cells)."""

    cells: tuple[int, ...]
    sets: tuple[int, ...]


@dataclass
class CellsProblem:
    """See the module docstring: fill every cell with a symbol so that each unit holds every
    symbol once and each cage one of its sets."""

    cells: int
    symbols: int
    # Per cell: the mask of symbols it may hold (bit s - 1: symbol s).
    candidates: list[int]
    # Each unit: ``symbols`` distinct cells holding every symbol exactly once.
    units: list[list[int]]
    cages: list[Cage] = field(default_factory=list)
    # The board layout, kept by ``_layout`` (shared with ``with_candidates``' twins).
    layout: _Layout | None = field(default=None, init=False, repr=False, compare=False)

    def with_candidates(self, candidates: list[int]) -> CellsProblem:
        """The same cells, units and cages with other ``candidates`` (one mask per cell),
        neither checked nor laid out again: a generator's thousands of searches on one grid."""
        _layout(self)  # laid out once, here, for every twin
        twin = copy.copy(self)
        twin.candidates = candidates
        return twin

    def __post_init__(self) -> None:
        if len(self.candidates) != self.cells:
            raise ValueError("candidates must have one mask per cell")
        for unit in self.units:
            if len(unit) != self.symbols or len(set(unit)) != self.symbols:
                raise ValueError(f"a unit must have {self.symbols} distinct cells: {unit}")
        for cage in self.cages:
            if any(mask.bit_count() != len(cage.cells) for mask in cage.sets):
                raise ValueError("a cage's sets must each have as many symbols as it has cells")


@dataclass
class _Layout:
    """Where a cell's bits lie in a board, and what the search reads at every node; built once
    per problem.

    A board holds every cell more than once: one *field* of ``symbols`` bits per unit (the
    unit's cells in its order), with a guard bit above it, and above all fields one bit per
    cell in cell order (the *cell bits*). The copies of a cell are always changed together, so
    a board is still one set of cells; the fields let one subtraction look at every unit at
    once (``_settle``), the cell bits give the cell order.
    """

    symbols: int
    all_bits: int  # every copy of every cell
    guards: int  # the guard bit of every field
    lows: int  # the lowest bit of every field
    cell_base: int  # the bit of cell c is cell_base + c
    cell_bits: int  # the mask of the cell bits
    cell_copies: tuple[int, ...]  # per cell, every copy of it
    copies: dict[int, int]  # any bit of a cell -> every copy of it
    peers: dict[int, int]  # any bit of a cell -> every copy of its peers (not itself)
    # The same two by ``bit.bit_length()`` (the bit's position + 1; 0 unused), for the search:
    # a wide int's bit_length and a list index cost a third of a dict's hashing of it.
    copies_at: list[int]
    peers_at: list[int]
    symbol_bits: tuple[int, ...]  # 1 << index, per symbol index
    # Per cage: every copy of its cells, its sets, and the symbols its sets allow per state
    # of the cage seen (symbols possible, then placed, in one int; ``_place_cages``).
    cages: list[tuple[int, tuple[int, ...], dict[int, int]]]

    def cell_mask(self, cells: list[int] | tuple[int, ...]) -> int:
        mask = 0
        for cell in cells:
            mask |= self.cell_copies[cell]
        return mask


def _layout(problem: CellsProblem) -> _Layout:
    """The layout of ``problem``'s boards: the same for every puzzle of a shape, so kept.

    The cache key is flat (the units' cells one after another, each cage's size then its
    cells): a long-lived tuple of tuples would leave the garbage collector's count of tracked
    objects a few lower after each of the next collections (it untracks one level of nested
    tuples a pass), which the page's memory report reads as objects freed."""
    if problem.layout is not None:
        return problem.layout
    units = tuple(chain.from_iterable(problem.units))
    cages = tuple(chain.from_iterable((len(cage.cells), *cage.cells) for cage in problem.cages))
    layout = _shaped_layout(problem.cells, problem.symbols, units, cages)
    if problem.cages:
        layout = replace(
            layout,
            cages=[(layout.cell_mask(cage.cells), cage.sets, {}) for cage in problem.cages],
        )
    problem.layout = layout
    return layout


@lru_cache(maxsize=LAYOUTS_KEPT)
def _shaped_layout(
    cells: int, symbols: int, unit_cells: tuple[int, ...], cage_cells: tuple[int, ...]
) -> _Layout:
    """The layout of boards for these units and cages (see ``_Layout``; the flat key of
    ``_layout``), the cages' sets left out."""
    step = max(symbols, 1)
    units = [unit_cells[start : start + step] for start in range(0, len(unit_cells), step)]
    cages = []
    start = 0
    while start < len(cage_cells):
        size = cage_cells[start]
        cages.append(cage_cells[start + 1 : start + 1 + size])
        start += 1 + size
    width = symbols + 1
    cell_base = len(units) * width
    copies = [1 << (cell_base + cell) for cell in range(cells)]
    guards = lows = 0
    for number, unit in enumerate(units):
        offset = number * width
        guards |= 1 << (offset + symbols)
        lows |= 1 << offset
        for position, cell in enumerate(unit):
            copies[cell] |= 1 << (offset + position)
    peer_cells = [0] * cells
    for group in (*units, *cages):
        mask = 0
        for cell in group:
            mask |= copies[cell]
        for cell in group:
            peer_cells[cell] |= mask
    copies_of: dict[int, int] = {}
    peers_of: dict[int, int] = {}
    copies_at = [0] * (cell_base + cells + 1)
    peers_at = [0] * (cell_base + cells + 1)
    for cell, mask in enumerate(copies):
        peers = peer_cells[cell] & ~mask
        bits = mask
        while bits:
            low = bits & -bits
            bits ^= low
            copies_of[low] = mask
            peers_of[low] = peers
            copies_at[low.bit_length()] = mask
            peers_at[low.bit_length()] = peers
    all_bits = 0
    for mask in copies:
        all_bits |= mask
    return _Layout(
        symbols=symbols,
        all_bits=all_bits,
        guards=guards,
        lows=lows,
        cell_base=cell_base,
        cell_bits=((1 << cells) - 1) << cell_base,
        cell_copies=tuple(copies),
        copies=copies_of,
        peers=peers_of,
        copies_at=copies_at,
        peers_at=peers_at,
        symbol_bits=tuple(1 << index for index in range(symbols)),
        cages=[],
    )


def unit_layout(cells: int, symbols: int, units: list[list[int]]) -> _Layout:
    """The layout of boards for ``units`` and no cages (see ``_Layout``), as the search keeps
    it: for logic that reads and writes the same boards (the Sudoku technique finder,
    ``pysolver.kinds.sudoku.board``), where a unit's field gives the places of a symbol in it."""
    return _shaped_layout(cells, symbols, tuple(cell for unit in units for cell in unit), ())


def estimated_bytes(problem: CellsProblem) -> int:
    """What ``search`` allocates at most: its tables, per branching level (at most one per
    cell) a frame with a copy of the boards, and the cages' kept states."""
    bits = (len(problem.units) + 1) * (problem.symbols + 1) + problem.cells
    board = budget.INT_BYTES + bits // 8
    tables = problem.cells * 4 * (2 * board + 2 * budget.POINTER_BYTES)
    tables += 2 * budget.list_bytes(bits + 1)  # copies_at and peers_at: the same ints again
    frame = budget.list_bytes(problem.symbols) + problem.symbols * board + budget.LIST_BYTES
    kept = len(problem.cages) * CAGE_STATES_KEPT * CAGE_STATE_BYTES
    return tables + problem.cells * frame + kept


def _place_cages(
    boards: list[int],
    solved: int,
    cages: list[tuple[int, tuple[int, ...], dict[int, int]]],
    dirty: int,
) -> int:
    """The cage rule once over every cage with a copy in ``dirty`` (see the module docstring):
    the mask of the symbols whose boards it changed, or -1 when a cage has no set left. A
    cage whose cells kept their candidates and placements since the rule last held on it
    holds the same sets: it would change nothing. The symbols a cage's sets allow depend on
    its symbols possible and placed alone: worked out once per such pair and kept (a search
    meets the same few again and again)."""
    changed = 0
    symbols = len(boards)
    for cells, sets, known in cages:
        if not cells & dirty:
            continue
        possible = placed = 0
        bit = 1
        for board in boards:
            where = board & cells
            if where:
                possible |= bit
                if where & solved:
                    placed |= bit
            bit <<= 1
        state = possible << symbols | placed
        allowed = known.get(state)
        if allowed is None:
            allowed = 0
            for digits in sets:
                if digits & placed == placed and not digits & ~possible:
                    allowed |= digits
            if len(known) >= CAGE_STATES_KEPT:
                known.clear()
            known[state] = allowed
        if not allowed:
            return -1
        barred = possible & ~allowed
        while barred:
            low = barred & -barred
            barred ^= low
            boards[low.bit_length() - 1] &= ~cells
            changed |= low
    return changed


def _settle(
    boards: list[int], solved: int, changed: int, layout: _Layout, dirty: int | None = None
) -> int:
    """Apply the rules to the fixpoint on a node (``boards`` is changed in place); return every
    copy of the cells placed, or -1 when the node is dead. ``changed``: the symbols (a mask,
    bit s - 1) whose boards changed since their hidden singles were last looked for.
    ``dirty``: the copies of the cells whose candidates or placement changed since every
    cage's rule last held (a child: its branching cell and that cell's peers); None, every
    cell. The cage rule looks only at cages with a cell changed since (``_place_cages``)."""
    all_bits = layout.all_bits
    guards = layout.guards
    lows = layout.lows
    width = layout.symbols
    cell_bits = layout.cell_bits
    copies = layout.copies_at
    peers = layout.peers_at
    symbol_bits = layout.symbol_bits
    symbols = range(len(boards))
    cages = layout.cages
    if cages:
        # The boards and placements the cages were last settled on: what changed since
        # marks the cages to look at again.
        seen, seen_solved = boards.copy(), solved
        if dirty is None:
            dirty = all_bits
    while True:
        # Naked singles, every cell at once: ``once`` holds the cells some board has,
        # ``twice`` those two boards have.
        once = twice = 0
        for board in boards:
            twice |= once & board
            once |= board
        if once != all_bits:
            return -1  # a cell with no candidate left
        # A placed cell is in its board alone, so ``solved`` lies inside once ^ twice (and
        # this form, like the others below, keeps off ``~``: a negative wide int costs more).
        singles = once ^ twice ^ solved
        if singles:
            solved |= singles
            singles &= cell_bits  # one bit per cell
            for index in symbols:
                placed = boards[index] & singles
                if placed:
                    struck = 0
                    while placed:
                        low = placed & -placed
                        struck |= peers[low.bit_length()]
                        placed ^= low
                    board = boards[index]
                    hit = board & struck
                    if hit:
                        boards[index] = board ^ hit
                        changed |= symbol_bits[index]
            continue
        # Hidden singles of each changed symbol, every unit at once: per field, (board | guard)
        # - low keeps the guard when the field is not empty, and board & that is the field
        # less its lowest bit. Back to the naked singles once every changed symbol is seen.
        found = False
        while changed:
            low = changed & -changed
            changed ^= low
            index = low.bit_length() - 1
            board = boards[index]
            less = (board | guards) - lows
            if less & guards != guards:
                return -1  # a unit where the symbol has no place left
            single = guards ^ (guards & (((board & less) | guards) - lows))
            if not single:
                continue
            hidden = board & (single - (single >> width))
            hidden ^= hidden & solved
            if hidden:
                found = True
                struck = placed = 0
                while hidden:
                    cell = hidden & -hidden
                    hidden ^= cell
                    if not cell & placed:
                        at = cell.bit_length()
                        placed |= copies[at]
                        struck |= peers[at]
                solved |= placed
                changed |= low
                for other in symbols:  # ``index`` too: its board is set below
                    hit = boards[other] & placed
                    if hit:
                        boards[other] ^= hit
                        changed |= symbol_bits[other]
                boards[index] = board ^ (board & struck)
        if found:
            continue
        if not cages:
            return solved
        assert dirty is not None
        dirty |= solved ^ seen_solved
        for index in symbols:
            dirty |= seen[index] ^ boards[index]
        seen, seen_solved = boards.copy(), solved
        barred = _place_cages(boards, solved, cages, dirty)
        if barred <= 0:
            return -1 if barred else solved
        changed = barred
        dirty = 0


def _branch_cell(boards: list[int], solved: int, layout: _Layout) -> int:
    """The cell bit of the open cell with the fewest candidates, the lowest cell among
    equals."""
    once = twice = thrice = 0
    for board in boards:
        thrice |= twice & board
        twice |= once & board
        once |= board
    pairs = (twice ^ thrice) & layout.cell_bits
    if pairs:
        return pairs & -pairs
    # No cell with two (a killer's search often has none): the counts bit-sliced on, a
    # level per candidate, over the cell bits alone shifted down (narrow ints): ``levels[k]``
    # holds the cells with more than k candidates.
    base = layout.cell_base
    open_cells = (once & ~solved) >> base
    count = len(boards)
    levels = [0] * (count + 1)
    for board in boards:
        board >>= base
        for level in range(count, 0, -1):
            levels[level] |= levels[level - 1] & board
        levels[0] |= board
    for level in range(2, count):
        exact = levels[level] & ~levels[level + 1] & open_cells
        if exact:
            return (exact & -exact) << base
    return (open_cells & -open_cells) << base


def _symbols_of(boards: list[int], layout: _Layout, cells: int) -> list[int]:
    """A solved node's symbols, cell by cell (1-based)."""
    filled = [0] * cells
    base = layout.cell_base
    for index, board in enumerate(boards, 1):
        board >>= base
        first = -1  # the cell of the chunk's bit 1, less one
        while board:
            chunk = board & CHUNK
            board >>= CHUNK_BITS
            while chunk:
                low = chunk & -chunk
                chunk ^= low
                filled[first + low.bit_length()] = index
            first += CHUNK_BITS
    return filled


def _placed_dirty(cell: int, layout: _Layout) -> int | None:
    """``_settle``'s ``dirty`` for a child of a settled node placed at the cell of bit
    ``cell`` (``_place``: the cell's candidates, and its symbol at its peers, changed); None
    without cages (nothing to mark)."""
    if not layout.cages:
        return None
    at = cell.bit_length()
    return layout.copies_at[at] | layout.peers_at[at]


def _place(boards: list[int], cell: int, index: int, layout: _Layout) -> int:
    """Place symbol ``index + 1`` at the cell of bit ``cell`` in ``boards``; the mask of the
    boards changed."""
    at = cell.bit_length()
    bits = layout.copies_at[at]
    symbol_bits = layout.symbol_bits
    changed = symbol_bits[index]
    for other, board in enumerate(boards):
        if board & cell and other != index:
            boards[other] = board ^ bits  # a cell's copies come and go together
            changed |= symbol_bits[other]
    board = boards[index]
    boards[index] = board ^ (board & layout.peers_at[at])
    return changed


def initial_boards(problem: CellsProblem, layout: _Layout) -> list[int]:
    """Per symbol, every copy of the cells whose candidates hold it."""
    boards = [0] * problem.symbols
    every = (1 << problem.symbols) - 1
    anything = 0  # the cells that may hold any symbol (blanks, mostly)
    for bits, mask in zip(layout.cell_copies, problem.candidates, strict=True):
        if mask == every:
            anything |= bits
            continue
        while mask:
            low = mask & -mask
            mask ^= low
            boards[low.bit_length() - 1] |= bits
    return [board | anything for board in boards]


def _root(problem: CellsProblem, layout: _Layout) -> tuple[list[int], int]:
    """The settled root: its boards and placed cells (-1: dead)."""
    boards = initial_boards(problem, layout)
    return boards, _settle(boards, 0, (1 << problem.symbols) - 1, layout)


def settle(problem: CellsProblem) -> list[int] | None:
    """Each cell's candidates (a symbol mask) once the rules (singles, cages) reach their
    fixpoint with no branching, or None when they kill the root (no solution). A cell with
    one candidate then is placed; every cell with one is a solution proved unique by the rules
    alone. Logic graders call it between their own techniques."""
    layout = _layout(problem)
    boards, solved = _root(problem, layout)
    if solved < 0:
        return None
    cells = problem.cells
    if solved == layout.all_bits:
        return [1 << (symbol - 1) for symbol in _symbols_of(boards, layout, cells)]
    candidates = [0] * cells
    base = layout.cell_base
    for index, board in enumerate(boards):
        bit = 1 << index
        board >>= base
        first = -1  # the cell of the chunk's bit 1, less one
        while board:
            chunk = board & CHUNK
            board >>= CHUNK_BITS
            while chunk:
                low = chunk & -chunk
                chunk ^= low
                candidates[first + low.bit_length()] |= bit
            first += CHUNK_BITS
    return candidates


def settle_boards(
    boards: list[int], solved: int, layout: _Layout, changed: int | None = None
) -> int:
    """``settle`` on boards kept by the caller in ``layout`` (``unit_layout``'s; changed in
    place, every symbol's hidden singles looked at), for logic that reads and writes the same
    boards between its own techniques (the Sudoku generator's grading): every copy of the
    cells placed, ``solved`` included, or -1 when the rules kill it. ``changed``: when the
    boards were settled before and only these symbols' boards (a mask, bit s - 1) lost cells
    since, the hidden singles of the others are not looked for again (none: all of them)."""
    if changed is None:
        changed = (1 << len(boards)) - 1
    return _settle(boards, solved, changed, layout)


def _children(
    layout: _Layout, boards: list[int], solved: int
) -> list[tuple[int, list[int], int]] | None:
    """A settled node's branches in search order: (choice, boards, placed cells) per symbol
    of its branching cell, the choice ``cell * symbols + symbol - 1``; None for a dead or
    solved node (no branch point)."""
    if solved < 0 or solved == layout.all_bits:
        return None
    cell = _branch_cell(boards, solved, layout)
    number = cell.bit_length() - 1 - layout.cell_base
    branches = []
    for index, board in enumerate(boards):
        if board & cell:
            child = boards.copy()
            changed = _place(child, cell, index, layout)
            placed = _settle(
                child, solved | layout.copies[cell], changed, layout, _placed_dirty(cell, layout)
            )
            branches.append((number * layout.symbols + index, child, placed))
    return branches


def _descend(
    problem: CellsProblem, layout: _Layout, boards: list[int], solved: int, path: list[Any]
) -> tuple[list[int], int]:
    """The node at the end of ``path`` (branch choices from the root, as ``split`` names
    them)."""
    for step, choice in enumerate(path):
        branches = _children(layout, boards, solved)
        if branches is None:
            where = "a branch that has no solutions" if solved < 0 else "a solution"
            raise InvalidPath(step, f"the path goes on below {where}")
        taken = [branch for branch in branches if branch[0] == choice]
        if not taken:
            cell = branches[0][0] // problem.symbols
            raise InvalidPath(
                step,
                f"{shown(choice)} is not a choice of cell {cell}, where the search branches at "
                f"step {step} (choices are cell * {problem.symbols} + symbol - 1)",
            )
        _choice, boards, solved = taken[0]
    return boards, solved


def split(problem: CellsProblem, wanted: int, monitor: Monitor | None = None) -> Split:
    """Cut the search tree into about ``wanted`` subtrees in search order (see
    ``pysolver.engines.subtree``); a path is the branch choices from the root, each
    ``cell * symbols + symbol - 1``, as ``search(path=...)`` reads them."""
    layout = _layout(problem)
    boards, solved = _root(problem, layout)

    def children(
        state: tuple[list[int], int],
    ) -> list[tuple[int, tuple[list[int], int] | None, float]] | None:
        branches = _children(layout, *state)
        if branches is None:
            return None
        share = 1 / len(branches)
        return [
            (choice, None if placed < 0 else (child, placed), share)
            for choice, child, placed in branches
        ]

    return split_tree(None if solved < 0 else (boards, solved), children, wanted, monitor)


def search(
    problem: CellsProblem,
    *,
    limit: int | None = None,
    keep_solutions: bool = True,
    max_kept: int | None = None,
    rng: random.Random | None = None,
    monitor: Monitor | None = None,
    path: list[Any] | None = None,
) -> SearchResult[list[int]]:
    """Find up to ``limit`` solutions of ``problem`` (all when None); see the module doc.

    keep_solutions: False to only count. max_kept: keep at most this many (the search goes on
    counting). rng: try each branching cell's symbols in an order shuffled by it. path: search
    only the subtree below these branch choices (``split``'s paths; ``InvalidPath`` for one
    the search never takes). stats: ``nodes``, the branching choices tried.
    """
    layout = _layout(problem)
    # C1. [Initialize.] The root's boards (every symbol's hidden singles are looked for), or
    # the node at the end of ``path``.
    boards, solved = _root(problem, layout)
    if path:
        boards, solved = _descend(problem, layout, boards, solved, path)
    return _search_from(
        boards, solved, layout, limit, keep_solutions, max_kept, rng, monitor or Monitor()
    )


def search_boards(
    boards: list[int],
    solved: int,
    layout: _Layout,
    *,
    limit: int | None = None,
    keep_solutions: bool = True,
    max_kept: int | None = None,
    monitor: Monitor | None = None,
) -> SearchResult[list[int]]:
    """``search`` from a node the caller has settled on boards of its own (``settle_boards``'
    boards, in ``layout``; not changed): a generator's uniqueness proofs, whose
    puzzles it has already settled, skip building and settling the root again. ``solved``:
    every copy of the cells placed there, or -1 for a dead node. The same tree, nodes and
    solutions as ``search`` on the problem of those boards' candidates (the rules' fixpoint is
    one, whatever order they fire in)."""
    return _search_from(
        boards.copy(), solved, layout, limit, keep_solutions, max_kept, None, monitor or Monitor()
    )


def _search_from(
    boards: list[int],
    solved: int,
    layout: _Layout,
    limit: int | None,
    keep_solutions: bool,
    max_kept: int | None,
    rng: random.Random | None,
    monitor: Monitor,
) -> SearchResult[list[int]]:
    """Steps C2-C6 of ``search`` from the settled node ``boards``, ``solved`` (the boards are
    changed)."""
    cells = len(layout.cell_copies)
    solutions: list[list[int]] = []
    count = 0
    nodes = 0
    explored = 0.0  # Knuth's estimate: the summed weights of the subtrees finished

    def fraction() -> float:
        return explored

    # The stack of branch points, each [boards, solved, cell, symbols to try, next, weight]:
    # invariant, every frame's boards are settled and its cell open; the subtrees of its
    # symbols before ``next`` are finished (their weight is in ``explored``).
    stack: list[list[Any]] = []
    weight = 1.0
    stopped = cancelled = False
    check_every = max(1, CHECK_EVERY * CHECK_CELLS**2 // max(cells, CHECK_CELLS) ** 2)
    next_check = check_every
    while True:
        # Invariant here: ``boards``, ``solved`` are a settled node of weight ``weight``
        # (``solved`` -1: dead), not yet counted in ``explored``.
        if solved < 0:
            explored += weight  # C2. [Dead.] Nothing below.
        elif solved == layout.all_bits:
            # C3. [Visit.] Every cell placed, every rule holds: a solution.
            count += 1
            explored += weight
            if monitor.wants_recent:
                monitor.found(_symbols_of(boards, layout, cells))
            if keep_solutions and (max_kept is None or len(solutions) < max_kept):
                solutions.append(_symbols_of(boards, layout, cells))
            if limit is not None and count >= limit:
                stopped = True
                break
        else:
            # C4. [Branch.] On the open cell with the fewest candidates.
            cell = _branch_cell(boards, solved, layout)
            choices = [index for index, board in enumerate(boards) if board & cell]
            if rng is not None:
                rng.shuffle(choices)
            stack.append([boards, solved, cell, choices, 0, weight / len(choices)])
        # C5. [Next choice.] The deepest branch point with a symbol left to try.
        if not stack:
            break
        frame = stack[-1]
        parent, solved, cell, choices, index, weight = frame
        if index + 1 == len(choices):
            stack.pop()
            boards = parent  # the last child takes over its parent's boards
        else:
            frame[4] = index + 1
            boards = parent.copy()
        # C6. [Place and settle.] Symbol ``choices[index] + 1`` at ``cell``, then the rules.
        nodes += 1
        changed = _place(boards, cell, choices[index], layout)
        solved = _settle(
            boards, solved | layout.copies[cell], changed, layout, _placed_dirty(cell, layout)
        )
        if nodes >= next_check:
            next_check = nodes + check_every
            if monitor.check(nodes, count, fraction):
                stopped = cancelled = True
                break
    complete = not stopped
    monitor.finish(nodes, count, complete)
    return SearchResult(solutions, count, complete, cancelled, {"nodes": nodes})
