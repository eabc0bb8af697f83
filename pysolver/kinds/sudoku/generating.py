"""Generating Sudoku puzzles with one solution at a chosen difficulty (``"mode": "generate"``).

Request: ``{"kind": "sudoku", "mode": "generate", "seed": 7, "difficulty": "hard",
"puzzle": {"size": 9}}``, sizes ``SIZES`` with their standard boxes; ``"symmetry": "none"``
drops the default rotational symmetry of the givens (a given's partner turned half a circle
about the centre is a given too). ``"variant"`` in the puzzle (``VARIANTS``, default
``standard``) makes a variant of ``pysolver.kinds.sudoku.variants``: ``jigsaw`` (seeded random
connected regions replace the boxes; the response's puzzle has their ``regions``) or ``x`` (both
diagonals hold each digit once; the puzzle has ``"diagonals": true``) or ``killer`` (cages with
sums and no givens: ``pysolver.kinds.sudoku.killer_generating`` makes it).

The generator translates; the ``masks`` engine (``pysolver.engines.masks``) does every
search and the singles, ``pysolver.logic``'s techniques grade:

0. **Layout** (jigsaw only, each attempt): the standard boxes, then ``REGION_SWAPS[n]`` random
   swaps of two cells of neighbouring regions, each kept when both regions stay connected
   (``random_regions``).
1. **Fill**: the engine's first solution of the grid, its branches shuffled by the seed's
   ``random.Random``, from boxes no house joins (``independent_boxes``: a standard grid's
   diagonal boxes; not a jigsaw's) filled with shuffled digits: a random full grid. A fill
   search stops after ``FILL_BUDGET`` nodes and starts again with other branch orders, up to
   ``FILL_TRIES`` times (a jigsaw layout, or a start of random boxes, may have no full grid
   at all); the attempt then starts again.
2. **Carve** (``carve``, ``try_blank``): the givens' symmetry orbits (a cell and its partner)
   in an order shuffled by the same source; each orbit is blanked and kept blank while the
   puzzle stays solvable at the level asked, as Tatham's Solo carves: the techniques up to the
   level fill the grid, which proves it unique with no search; ``expert`` (a guess) carves
   while the puzzle stays unique. Cheapest proof first: the orbit's cells are naked singles at
   once (``forced``); a refusal with no search when the givens would miss a whole set of
   ``digit_swaps`` (cells where two digits of the solution can trade places: 34 sets on a
   9x9 on average, which refuse 42-46% of the tries a search would refuse), or of the cells
   where a second solution found by an earlier search differed; the singles fill the grid
   (``masks.settle``), or put the orbit back (their fixpoint is the one before: level
   unchanged); the uniqueness searches
   (``unique_after_blanking``: one search per blanked cell for a solution with another digit
   there, limit 1, never a search of the whole puzzle again, each from the singles' settled
   boards with that digit struck (``masks.search_boards``); a variant's stops at
   ``UNIQUE_BUDGET`` nodes and the orbit is then kept), then the techniques (``logic_level``:
   the path's own order of steps, with the singles run in bit operations between them).
3. **Swap** (``swap``): a carve ends at a minimal puzzle, which is mostly easy (77% of 9x9 ones
   and nearly every 6x6 one); one easier than asked gets a blank orbit back and a given one
   blanked, for up to ``MAX_SWAPS`` pairs that can be unique (the orbit given back meets the
   cells where the second solution that kept the other one given differed; each trial's
   singles settle from those of the puzzle without the blanked orbit, worked out once for
   all the orbits given back against it: ``given_back``), and is carved
   on from the first pair that makes it harder; when none does, from one of the pairs that
   keep it unique: drawn at random, or for ``expert`` the one whose techniques score the most
   points (``logic_grade``: the hardest within its level, nearer one needing a guess). An
   ``expert`` swap grades its unique trials after the pairs are tried, those the singles leave
   the most cells open in first, ``EXPERT_GRADES`` of them, and walks on only to a graded one
   not easier than the puzzle it started from (``MAX_EXPERT_SWAPS`` pairs). A pair
   that keeps it unique but makes it harder than asked gets up to ``EASE_TRIES`` blank orbits
   given back, one at a time (``ease``: a given more keeps it unique), and counts as harder
   when one brings it within the level asked (that puzzle is then not minimal).
4. **Grade** (``grade``): explain mode's grade (``pysolver.kinds.sudoku.path``): the level of
   the hardest technique the path needs. ``easy``: naked and hidden singles alone; ``medium``:
   also locked candidates and naked or hidden subsets; ``hard``: also fish (X-wing, swordfish,
   jellyfish) and wings (XY-wing, XYZ-wing); ``fiendish``: also chains (colouring, X- and
   XY-chains, forcing chains); ``expert``: a guess. The grade also counts the ``givens``.
5. **Retry**: a puzzle still off the level starts a new attempt from a new fill, up to
   ``MAX_ATTEMPTS[size]``; past them the answer is the attempt nearest the level (easier
   preferred), with a ``note``. Small grids rarely need more than singles (a 4x4 never
   does: ``LEVELS_BY_SIZE``, where a level out of reach is answered by the first puzzle
   made).

Determinism: the only source of chance is ``GenerateArgs.rng``, seeded again with the seed
and the level (``seed * len(DIFFICULTIES) + level``: one seed's levels start from different
grids); the
engine's branch order and the techniques' scan order are fixed; no set or dict of strings is
iterated and no float decides anything.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from pysolver.engines import masks
from pysolver.engines.monitor import StageMonitor
from pysolver.kinds.sudoku import killer_generating
from pysolver.kinds.sudoku import path as sudoku_path
from pysolver.kinds.sudoku.board import Grid, linked
from pysolver.kinds.sudoku.techniques import ALL, TECHNIQUES
from pysolver.kinds.sudoku.variants import sides
from pysolver.logic.step import LEVELS as TECHNIQUE_LEVELS
from pysolver.logic.step import Technique
from pysolver.midend.plan import GenerateArgs, Generated
from pysolver.protocol import (
    INVALID_REQUEST,
    SolveError,
    puzzle_error,
    require_dict,
    require_int,
    require_str,
    shown,
)

# The sizes generated, each with its standard box (``sudoku.facts()["sizes"]``).
SIZES = (4, 6, 9, 12, 16)
DIFFICULTIES = ("easy", "medium", "hard", "fiendish", "expert")
SYMMETRIES = ("rotational", "none")
# The puzzle's ``variant``: plain boxes, a jigsaw of random regions, Sudoku X.
VARIANTS = ("standard", "jigsaw", "x", "killer")
# The sizes each variant is generated in: a random 16x16 jigsaw layout's fill can run for
# minutes (measured: over 5 minutes for one layout), so jigsaws stop at 12x12.
VARIANT_SIZES = {
    "standard": SIZES,
    "jigsaw": (4, 6, 9, 12),
    "x": SIZES,
    "killer": killer_generating.SIZES,
}
# Swaps tried when drawing a jigsaw's regions. Measured over 5 seeds: a 9x9 jigsaw's regions
# then share 49 of 81 cells with their box's, a 12x12's 86 of 144 (the rest of each box is spread
# over other regions).
REGION_SWAPS = {n: 12 * n * n for n in SIZES}
# Region labels of a generated jigsaw, region k (numbered in reading order) written LABELS[k].
LABELS = "ABCDEFGHIJKLMNOP"
# Branch nodes each of a fill's ``FILL_TRIES`` searches may take before it starts again with
# other branch orders; past them the start is given up (a jigsaw layout or a start of random
# boxes may have no full grid). Random fills have heavy tails: on 20 random layouts each, one
# search of 20,000 nodes filled 8 of 12x12 jigsaws and 16 of 9x9 ones (0.28 s and 0.08 s a
# layout), 20 searches of 1,000 nodes 18 and 20 (0.20 s and 0.03 s). A standard 9x9 fill
# takes a few dozen nodes.
FILL_BUDGET = 1_000
FILL_TRIES = 20
# Branch nodes a variant's uniqueness search may take in the carve: past them the blanked cells
# are given back, as for a second solution. Some carved 12x12 jigsaws took minutes to prove
# unique; a 9x9 carve's searches take a few dozen nodes.
UNIQUE_BUDGET = 2_000
# Attempts (a fill, a carve and its swaps each) before answering the nearest puzzle found.
# Measured per attempt: 4x4 under 1 ms, 6x6 ~5 ms, 9x9 5-40 ms, 12x12 ~70 ms, 16x16 0.1-2 s.
MAX_ATTEMPTS = {4: 50, 6: 400, 9: 200, 12: 40, 16: 4}
# The sizes that cannot make every level, and the levels they make (``GENERATE_LEVELS_BY_SIZE``
# in facts.json). Measured (medium, hard and expert asked, seeds 0-9, both symmetries, 50
# attempts each with their swaps): no 4x4 puzzle needed more than the singles. A 6x6 makes
# medium in 1 to 27 attempts (seeds 0-9), fiendish in 3 and 7 (seeds 0, 1), but a 6x6 that
# needs a guess after the chains took 221 and 231 attempts (12 s each): not offered, the
# first fiendish one answers with a note.
LEVELS_BY_SIZE = {4: ("easy",), 6: ("easy", "medium", "hard", "fiendish")}
# Pairs of orbits (one given back, one blanked) tried on a carved puzzle easier than asked, per
# size (``swap``). Measured on 20 seeds: 6x6 medium took at most 354 attempts with 40 pairs
# and no walk, 70 with the walk and 100 pairs, 25 with 300; 9x9 (ms a puzzle, medium / hard /
# expert) 39 / 101 / 41 with 30 pairs, 36 / 111 / 44 with 60, 26 / 83 / 41 with 120, no
# better with 250 or 500; 12x12 hard (5 seeds) 0.29 s median with 40, 0.38 s with 120.
MAX_SWAPS = {4: 10, 6: 300, 9: 120, 12: 40, 16: 20}
# The same for ``expert`` where it differs. Measured on 9x9 expert, seeds 0-59, interleaved in
# one run (ms a puzzle, median / mean): 77 / 118 with 120 pairs, 71 / 111 with 240; an
# earlier run 80 / 122 with 120, 75 / 115 with 240, 74 / 122 with 500.
MAX_EXPERT_SWAPS = {9: 240}
# Blank orbits given back, one at a time, to a swap's trial that is unique but harder than
# asked (``ease``). Measured on 9x9 hard, seeds 0-99, twice: median 29.5 / 28.8 ms a puzzle
# with none, 25.5 / 26.6 with 3 (mean 41 -> 38); fiendish unchanged, medium 13.1 -> 12.0.
EASE_TRIES = 3
# The trials of an ``expert`` swap that keep the puzzle unique and are graded, those whose
# singles leave the most open cells first (``swap_once``). Measured on 9x9 expert, seeds 0-59,
# interleaved in one run (ms a puzzle, median / mean): 70 / 109 grading 4, 88 / 113 grading 1,
# 76 / 104 grading 2; another run 71 / 111 with 4, 73 / 113 with 3, 73 / 113 with 5.
EXPERT_GRADES = 4
# Each technique by its name (a step names its technique).
TECHNIQUE_NAMES = {technique.name: technique for technique in ALL}

# The kind's translation, bound to the grid's size and boxes by ``pysolver.kinds.sudoku``
# (which this module does not import: it calls this one): per cell its candidates (a digit
# mask, a given's one bit) -> the ``masks`` engine's problem; givens -> the grid text of a
# solve request.
Cells = Callable[[list[int]], masks.CellsProblem]
Writer = Callable[[list[int]], str]


@dataclass
class Translation:
    """The kind's functions the generator calls (see ``Cells``, ``Writer``) and the empty
    board of the grid's houses the techniques read (``pysolver.logic``)."""

    cells: Cells
    write: Writer
    houses: Grid
    # The puzzle's variant fields beside its grid: ``regions`` or ``diagonals``.
    fields: dict[str, Any] = field(default_factory=dict)


# A translation per layout: jigsaw region numbers per cell (None: the boxes).
Translator = Callable[[tuple[int, ...] | None], Translation]


def read_size(puzzle: Any) -> int:
    """The ``size`` of a generate request's puzzle: one of ``SIZES``."""
    puzzle = require_dict(puzzle, "puzzle")
    if "size" not in puzzle:
        raise puzzle_error(
            f'generate mode needs the puzzle\'s "size", one of {", ".join(map(str, SIZES))}'
        )
    size = require_int(puzzle["size"], "puzzle.size")
    if size not in SIZES:
        raise puzzle_error(
            f"puzzle.size {shown(size)} cannot be generated; choose one of "
            f"{', '.join(map(str, SIZES))}",
            "puzzle.size",
        )
    return size


def read_variant(puzzle: dict[str, Any]) -> str:
    """The puzzle's ``variant`` (default ``standard``): one of ``VARIANTS``."""
    variant = require_str(puzzle.get("variant", "standard"), "puzzle.variant")
    if variant not in VARIANTS:
        raise puzzle_error(
            f"unknown variant {shown(variant)}; choose one of {', '.join(VARIANTS)}",
            "puzzle.variant",
        )
    return variant


def check_variant_size(variant: str, n: int) -> None:
    """Refuse a size the variant is not generated in (``VARIANT_SIZES``)."""
    sizes = VARIANT_SIZES[variant]
    if n not in sizes:
        raise puzzle_error(
            f"a {n}x{n} {variant} cannot be generated; choose a size of "
            f"{', '.join(map(str, sizes))}",
            "puzzle.size",
        )


def connected(cells: list[int], n: int) -> bool:
    """Whether ``cells`` (positions of an n x n grid) are connected through shared sides."""
    inside = [False] * (n * n)
    for cell in cells:
        inside[cell] = True
    reached = [cells[0]]
    inside[cells[0]] = False
    for cell in reached:
        for neighbour in sides(cell, n):
            if inside[neighbour]:
                inside[neighbour] = False
                reached.append(neighbour)
    return len(reached) == len(cells)


def random_regions(n: int, box_rows: int, box_cols: int, rng: random.Random) -> tuple[int, ...]:
    """n connected regions of n cells, a region number per cell (numbered in reading order of
    their first cell): the boxes, then ``REGION_SWAPS[n]`` tries to swap a cell with a cell of
    a neighbouring region, kept when both regions stay connected."""
    across = n // box_cols
    region = [(p // n // box_rows) * across + p % n // box_cols for p in range(n * n)]
    for _ in range(REGION_SWAPS[n]):
        moved = rng.randrange(n * n)
        home = region[moved]
        others = [cell for cell in sides(moved, n) if region[cell] != home]
        if not others:
            continue
        away = region[others[rng.randrange(len(others))]]
        # A cell of the other region that touches this one takes the moved cell's place.
        back = [
            cell
            for cell in range(n * n)
            if region[cell] == away and any(region[side] == home for side in sides(cell, n))
        ]
        partner = back[rng.randrange(len(back))]
        region[moved], region[partner] = away, home
        if not all(
            connected([cell for cell in range(n * n) if region[cell] == number], n)
            for number in (home, away)
        ):
            region[moved], region[partner] = home, away
    numbers: list[int] = []
    for number in region:
        if number not in numbers:
            numbers.append(number)
    return tuple(numbers.index(number) for number in region)


def region_rows(regions: tuple[int, ...], n: int) -> list[str]:
    """A solve request's ``regions``: one string per row, region k labelled ``LABELS[k]``."""
    return ["".join(LABELS[regions[r * n + c]] for c in range(n)) for r in range(n)]


def read_symmetry(options: dict[str, Any]) -> str:
    """The request's ``symmetry`` of the givens (default ``rotational``)."""
    symmetry = options.get("symmetry", "rotational")
    symmetry = require_str(symmetry, "symmetry", code=INVALID_REQUEST)
    if symmetry not in SYMMETRIES:
        raise SolveError(
            INVALID_REQUEST,
            f"unknown symmetry {shown(symmetry)}; choose one of {', '.join(SYMMETRIES)}",
            "symmetry",
        )
    return symmetry


def techniques_up_to(level: str) -> tuple[Technique[Grid], ...]:
    """The techniques above the singles up to ``level`` (``pysolver.logic``): the singles, the
    techniques of the first level, are the ``masks`` engine's rules (``logic_level``)."""
    most = TECHNIQUE_LEVELS.index(level)
    return tuple(t for t in TECHNIQUES if 0 < TECHNIQUE_LEVELS.index(t.level) <= most)


def grade(kind: Translation, values: list[int], solution: list[int]) -> dict[str, Any]:
    """Explain mode's grade of a unique puzzle (``level``, ``score``, ``techniques``) and its
    number of ``givens``."""
    grid = kind.houses.copy()
    for cell, value in enumerate(values):
        if value:
            grid.place(cell, value)
    steps = sudoku_path.explain(grid, solution, True)
    return {**sudoku_path.grade(steps), "givens": len(values) - values.count(0)}


# Per byte, ASCII 0 for 0 and 1 for any other (``given_cells``).
GIVEN_DIGITS = bytes([ord("0")] + [ord("1")] * 255)


def given_cells(values: list[int]) -> int:
    """The cells (a mask, bit c for cell c) where ``values`` (digits up to 255) has a
    digit: read as a binary numeral, last cell first (a C loop, where the carve's tries
    spent a few per cent of their time in a Python one)."""
    return int(bytes(values).translate(GIVEN_DIGITS)[::-1], 2)


def givens_mask(n: int, values: list[int]) -> list[int]:
    """Per cell its candidates: a given's digit alone, every digit for a blank."""
    every = (1 << n) - 1
    return [1 << (value - 1) if value else every for value in values]


def logic_level(
    kind: Translation,
    values: list[int],
    most: str,
    settled: tuple[list[int], int] | None = None,
) -> str | None:
    """``logic_grade``'s level alone."""
    return logic_grade(kind, values, most, settled)[0]


def logic_grade(
    kind: Translation,
    values: list[int],
    most: str,
    settled: tuple[list[int], int] | None = None,
) -> tuple[str | None, int]:
    """The level explain's path grades ``values`` at when the techniques up to ``most`` fill
    the grid (which proves its solution unique), else None.

    The path applies the easiest technique that fires, so it reaches every fixpoint of the
    singles before a harder step; here the ``masks`` engine's rules reach that fixpoint in
    bit operations on the board's own masks (``masks.settle_boards``), the board is set to
    it at once (``Grid.load_settled``), and only then do the harder finders look at the board,
    in the path's order. The level is that of the hardest step taken (easy: none); beside it,
    the points of the steps above the singles (``Technique.points``): how hard the puzzle is
    within its level, which the swaps climb (``swap_once``). ``settled``: ``singles``' boards
    and cells placed for ``values`` when the caller has them (not changed)."""
    harder = techniques_up_to(most)
    reached = points = 0
    grid = kind.houses.copy()
    if settled is None:
        boards, placed = singles_fixpoint(kind, values)
    else:
        boards, placed = settled[0].copy(), settled[1]
    while True:
        if placed < 0:
            return None, points  # no solution: never the case for a carved solution grid
        grid.load_settled(boards, placed)
        if grid.solved():
            return TECHNIQUE_LEVELS[reached], points
        step = sudoku_path.next_step(grid, harder)
        if step is None:
            return None, points
        technique = TECHNIQUE_NAMES[step.technique]
        reached = max(reached, TECHNIQUE_LEVELS.index(technique.level))
        points += technique.points
        grid.apply(step)
        boards, placed = grid.settled_boards()


def forced(grid: Grid, values: list[int], orbit: tuple[int, ...], solution: list[int]) -> bool:
    """Whether each cell of the blanked ``orbit`` sees every digit but its own among the
    givens: naked singles put the orbit back first, so the puzzle is as solvable as before (a
    check of a few peers, where the carve's first tries would settle the whole grid)."""
    every = (1 << grid.n) - 1
    for cell in orbit:
        seen = 1 << (solution[cell] - 1)
        peers = grid.peer_mask[cell]
        while peers:
            low = peers & -peers
            peers ^= low
            value = values[low.bit_length() - 1]
            if value:
                seen |= 1 << (value - 1)
        if seen != every:
            return False
    return True


def singles_fixpoint(kind: Translation, values: list[int]) -> tuple[list[int], int]:
    """The boards (in ``Shape.layout``) and every copy of the cells placed once naked and
    hidden singles are done: the ``masks`` engine's rules on boards built from the givens (a
    puzzle of a solution grid never dies there). A cell is placed there exactly when it has
    one candidate left (the singles' fixpoint)."""
    shape = kind.houses.shape
    copies = shape.copies
    blank = 0
    boards = [0] * shape.n
    for cell, value in enumerate(values):
        if value:
            boards[value - 1] |= copies[cell]
        else:
            blank |= copies[cell]
    boards = [board | blank for board in boards]
    placed = masks.settle_boards(boards, 0, shape.layout)
    assert placed >= 0, "the rules killed a puzzle that has a solution"
    return boards, placed


def blanked_fixpoint(
    kind: Translation, values: list[int], orbit: tuple[int, ...], solution: list[int]
) -> Callable[[tuple[int, ...]], tuple[list[int], int]]:
    """A function of cells given back: ``singles_fixpoint`` of ``values`` (as they are now)
    with ``orbit`` blanked and those cells given (``given_back``). The fixpoint with the orbit
    blanked is worked out on the first call and kept for the others (a swap tries many orbits
    given back against one blanked)."""
    blanked = values.copy()
    for cell in orbit:
        blanked[cell] = 0
    found: list[tuple[list[int], int]] = []

    def with_given(cells: tuple[int, ...]) -> tuple[list[int], int]:
        if not found:
            found.append(singles_fixpoint(kind, blanked))
        return given_back(kind, found[0], cells, solution)

    return with_given


def given_back(
    kind: Translation,
    settled: tuple[list[int], int],
    cells: tuple[int, ...],
    solution: list[int],
) -> tuple[list[int], int]:
    """``settled`` (the singles' boards and cells placed; not changed) with ``cells`` given
    their digits of ``solution``: the cells' other candidates struck, and the rules settled
    again. The rules reach one fixpoint whatever the order, so it is the one
    ``singles_fixpoint`` finds from scratch for the puzzle with those cells given, at a
    fraction of the cost."""
    boards = settled[0].copy()
    shape = kind.houses.shape
    changed = 0
    for cell in cells:
        keep = solution[cell] - 1
        spot, others = shape.copies[cell], shape.keep_cell[cell]
        for index, board in enumerate(boards):
            if index != keep and board & spot:
                boards[index] = board & others
                changed |= 1 << index
    placed = settled[1]
    if changed:
        placed = masks.settle_boards(boards, placed, kind.houses.shape.layout, changed)
    return boards, placed


def unique_after_blanking(
    kind: Translation,
    settled: tuple[list[int], int],
    orbit: tuple[int, ...],
    solution: list[int],
    args: GenerateArgs,
) -> int | None:
    """None when the puzzle (unique before ``orbit`` was blanked; ``settled``, its boards and
    cells placed after the singles) still has one solution, else the cells where a second
    solution differs from ``solution`` (a mask; 0 when a variant's search ran out of budget).
    A second solution differs at a cell of the orbit (else it solved the puzzle before), and
    not at one the singles placed, so one search per other cell of the orbit looks for a
    solution with another digit there (the orbit's earlier cells keeping theirs), from the
    singles' candidates: no search from scratch, and each stops at its first solution. A
    variant's search stops after ``UNIQUE_BUDGET`` nodes, as if it had found one (the carve
    then keeps the cells: never wrong).

    Each search starts from the singles' boards (``masks.search_boards``) with the cell's digit
    struck and the rules settled again, not from candidates laid out and settled from scratch:
    the rules reach one fixpoint whatever the order, so the tree and its solutions are the
    same (the settled boards' other symbols need no new look for hidden singles). An earlier
    cell's digit is put back, for the next search only, by striking its other candidates and
    settling."""
    boards, placed = settled
    copies = kind.houses.shape.copies
    # Every solution has the singles' digit at a cell they placed: no search there.
    searched = [cell for cell in orbit if not placed & copies[cell]]
    layout = kind.houses.shape.layout
    budget = UNIQUE_BUDGET if kind.fields else None
    for position, cell in enumerate(searched):
        index = solution[cell] - 1
        trial = boards.copy()
        trial[index] &= ~copies[cell]
        start = masks.settle_boards(trial, placed, layout, 1 << index)
        stage = StageMonitor(args.monitor, args.nodes, 0, (args.fraction, args.fraction), budget)
        result = masks.search_boards(trial, start, layout, limit=1, monitor=stage)
        args.stop_if_cancelled(stage)
        args.nodes += result.stats["nodes"]
        if result.solutions:
            other = result.solutions[0]
            return sum(1 << at for at, digit in enumerate(other) if digit != solution[at])
        if not result.complete:
            return 0
        if position + 1 < len(searched):
            boards, placed = given_back(kind, (boards, placed), (cell,), solution)
    return None


def digit_swaps(grid: Grid, solution: list[int]) -> list[int]:
    """Sets of cells (masks) one of which every unique puzzle of ``solution`` gives: for two
    digits a and b, the cells holding them, joined where two share a house, fall into groups
    that each house meets in both its cells of a and b or in neither; swapping a and b in one
    group is another solution, so a puzzle with no given in a group has two. (The carve's
    second solutions are such sets too, found one search each; these cost no search.)"""
    n = grid.n
    where = [0] * n
    for cell, digit in enumerate(solution):
        where[digit - 1] |= 1 << cell
    peers = grid.peer_mask
    found = []
    for a in range(n):
        for b in range(a + 1, n):
            left = where[a] | where[b]
            both = left
            while left:
                group = new = left & -left
                while new:
                    new = linked(new, peers) & both & ~group
                    group |= new
                found.append(group)
                left &= ~group
    return found


def independent_boxes(grid: Grid) -> list[list[int]]:
    """Boxes of ``grid``, first first, no two of which hold cells sharing a house (a row, a
    column, a diagonal): on a standard grid the boxes on its diagonal."""
    n = grid.n
    chosen = []
    seen = 0  # the cells sharing a house with a chosen box's cells
    for box in grid.houses[2 * n : 3 * n]:
        cells = 0
        for cell in box:
            cells |= 1 << cell
        if not cells & seen:
            chosen.append(box)
            for cell in box:
                seen |= grid.peer_mask[cell] | 1 << cell
    return chosen


def fill(n: int, kind: Translation, args: GenerateArgs) -> list[int] | None:
    """A random full grid: the engine's first solution of the grid, branches shuffled, from
    ``independent_boxes`` filled at random (not a jigsaw's); up to ``FILL_TRIES`` searches of
    ``FILL_BUDGET`` nodes; None when none finds one (or there is none)."""
    candidates = givens_mask(n, [0] * (n * n))
    if "regions" not in kind.fields:
        # Boxes no house joins (a standard grid's on the diagonal) take any digits in any
        # order: the search starts from there. A start with no full grid (some 4x4 ones) is
        # given up like a variant's layout (``FILL_TRIES``), and the attempt starts again.
        # One box always has full grids (any digits are a relabelling of any others); two
        # random 4x4 boxes often have none (4 attempts for one puzzle over 20 seeds), so a
        # 4x4 starts from one.
        boxes = independent_boxes(kind.houses)
        for box in boxes if n > 4 else boxes[:1]:
            digits = list(range(n))
            args.rng.shuffle(digits)
            for cell, digit in zip(box, digits, strict=True):
                candidates[cell] = 1 << digit
    problem = kind.cells(candidates)
    for _ in range(FILL_TRIES):
        stage = StageMonitor(
            args.monitor, args.nodes, 0, (args.fraction, args.fraction), FILL_BUDGET
        )
        result = masks.search(problem, limit=1, rng=args.rng, monitor=stage)
        args.stop_if_cancelled(stage)
        args.advance(result.stats["nodes"], args.fraction)
        if result.solutions:
            return result.solutions[0]
        if result.complete:
            return None  # the whole tree searched: this start has no full grid
    return None


def orbits(n: int, symmetry: str) -> list[tuple[int, ...]]:
    """The cells blanked together: a cell and its half-turn partner, or each cell alone."""
    cells = n * n
    if symmetry == "none":
        return [(cell,) for cell in range(cells)]
    return [
        (cell,) if cell == cells - 1 - cell else (cell, cells - 1 - cell)
        for cell in range(cells)
        if cell <= cells - 1 - cell
    ]


@dataclass
class Carving:
    """A carve's puzzle (``values``, 0 blank), its ``level`` when known (an expert carve's
    after a uniqueness search alone is not), and per orbit whose blanking made it not unique,
    the cells where the second solution found differs from the solution (a mask: a set of
    cells one of which every unique puzzle of this solution must give)."""

    values: list[int]
    level: str | None
    witnesses: dict[tuple[int, ...], int] = field(default_factory=dict)
    # ``digit_swaps`` of the solution and the second solutions' cells found since (shared by
    # an attempt's carvings): a try that blanks every cell of one is refused with no search.
    unavoidable: list[int] = field(default_factory=list)
    # With a known level: the points of its techniques above the singles (``logic_grade``).
    points: int = 0
    # Whether ``level`` and ``points`` are this puzzle's own, not a bound: a swap's trial
    # starts with those of the puzzle it came from, one given fewer (``swap_once``).
    exact: bool = True
    # Whether a try on it was refused as unique but harder than asked (a swap tries each
    # trial once, then ``ease``).
    over: bool = False
    # The open cells the singles leave, when ``try_blank`` proved it unique with a search.
    opened: int = 0


def try_blank(
    kind: Translation,
    carving: Carving,
    orbit: tuple[int, ...],
    solution: list[int],
    args: GenerateArgs,
    fixpoint: Callable[[], tuple[list[int], int]] | None = None,
) -> bool:
    """Blank ``orbit`` in ``carving`` when the puzzle stays unique and (below ``expert``) no
    harder than asked; whether it did. Cheapest proof first: the orbit's cells are naked
    singles at once, singles fill the grid, then the uniqueness searches (cheaper than the
    techniques' look at a puzzle with a second solution, which the carve's last tries mostly
    are), then the techniques up to the level asked; the last two start from the singles'
    boards. ``fixpoint``: ``singles_fixpoint`` of the puzzle with the orbit blanked, the
    caller's cheaper way (``given_back``)."""
    values = carving.values
    kept = [values[cell] for cell in orbit]
    for cell in orbit:
        values[cell] = 0
    capped = args.difficulty != DIFFICULTIES[-1]
    if forced(kind.houses, values, orbit, solution):
        return True  # the same puzzle to every technique after its first singles
    given = given_cells(values)
    if any(not cells & given for cells in carving.unavoidable):
        for cell, value in zip(orbit, kept, strict=True):
            values[cell] = value
        return False  # a second solution swaps two digits on blank cells
    found_singles = fixpoint() if fixpoint is not None else singles_fixpoint(kind, values)
    placed = found_singles[1]
    if placed == kind.houses.shape.layout.all_bits:
        carving.level, carving.points, carving.exact = DIFFICULTIES[0], 0, True
        return True
    copies = kind.houses.shape.copies
    if (carving.exact or carving.level is None) and all(placed & copies[cell] for cell in orbit):
        # The singles put the orbit back: their fixpoint is the one before it was blanked,
        # so the puzzle is unique and every technique sees what it saw (same level, points).
        return True
    if args.difficulty != DIFFICULTIES[0]:
        witness = unique_after_blanking(kind, found_singles, orbit, solution, args)
        if witness is None:
            carving.opened = (kind.houses.shape.layout.cell_bits & ~placed).bit_count()
            found, points = (
                logic_grade(kind, values, args.difficulty, found_singles) if capped else (None, 0)
            )
            if not capped or found is not None:
                carving.level, carving.points, carving.exact = found, points, True
                return True
            carving.over = True  # unique, but harder than asked
        elif witness:
            carving.witnesses[orbit] = witness
            if witness not in carving.unavoidable:
                # The second solution fits any puzzle of this solution that gives none of
                # these cells: the attempt's later tries are refused by it with no search.
                carving.unavoidable.append(witness)
    for cell, value in zip(orbit, kept, strict=True):
        values[cell] = value
    return False


def carve(
    kind: Translation,
    carving: Carving,
    order: list[tuple[int, ...]],
    solution: list[int],
    args: GenerateArgs,
    share: tuple[float, float],
) -> None:
    """Blank the orbits of ``order`` one at a time where ``try_blank`` may (for levels below
    ``expert``: while the techniques up to the level asked fill the grid, which proves it
    unique with no search; for ``expert`` while it stays unique). ``share``: this carve's part
    of the reported progress."""
    low, high = share
    for done, orbit in enumerate(order):
        try_blank(kind, carving, orbit, solution, args)
        args.advance(0, low + (high - low) * (done + 1) / len(order))


def level_of(kind: Translation, carving: Carving) -> str:
    """The carved puzzle's level (the techniques' run when the carve did not know it)."""
    if carving.level is None:
        level, carving.points = logic_grade(kind, carving.values, DIFFICULTIES[-2])
        carving.level, carving.exact = level or DIFFICULTIES[-1], True
    return carving.level


def swap_budget(kind: Translation, args: GenerateArgs) -> int:
    """The pairs ``swap`` tries (``MAX_SWAPS``, ``MAX_EXPERT_SWAPS``)."""
    n = kind.houses.n
    if args.difficulty == DIFFICULTIES[-1]:
        return MAX_EXPERT_SWAPS.get(n, MAX_SWAPS[n])
    return MAX_SWAPS[n]


def swap(
    kind: Translation,
    carving: Carving,
    all_orbits: list[tuple[int, ...]],
    solution: list[int],
    args: GenerateArgs,
) -> Carving | None:
    """A puzzle at the level asked near a carved one easier than asked (the carve's minimal
    puzzles are mostly easy: 77% of 9x9 ones, nearly all 6x6 ones): a blank orbit given back
    and a given one blanked, then carved on. Only pairs that can be unique are tried: the
    orbit given back meets the cells where the second solution found when the other was
    blanked differed (its witness), and the givens meet every such set of cells found so far
    (each holds a given of every unique puzzle of this solution). A swap that makes the puzzle
    harder but not yet at the level, or (when none does) one drawn among those that keep it
    unique and no harder, gives the puzzle the swaps go on from. At most ``MAX_SWAPS`` pairs;
    None when none lands on the level."""
    target = DIFFICULTIES.index(args.difficulty)
    known = {*carving.unavoidable, *carving.witnesses.values()}
    tried = 0
    while tried < swap_budget(kind, args):
        start = DIFFICULTIES.index(level_of(kind, carving))
        moved = swap_once(kind, carving, all_orbits, solution, args, known, start)
        if moved is None:
            return None
        carving, pairs = moved
        tried += pairs
        if DIFFICULTIES.index(level_of(kind, carving)) == target:
            return carving
    return None


def swap_once(
    kind: Translation,
    carving: Carving,
    all_orbits: list[tuple[int, ...]],
    solution: list[int],
    args: GenerateArgs,
    known: set[int],
    start: int,
) -> tuple[Carving, int] | None:
    """The first swap of ``swap`` that makes ``carving`` harder than level ``start``, else one
    drawn among those that keep it unique, carved on, and the pairs tried; None when no pair
    keeps it unique within ``MAX_SWAPS``. ``known``: the witnesses found so far, extended
    with the trials'."""
    blank = [orbit for orbit in all_orbits if not carving.values[orbit[0]]]
    tried = 0
    sideways: list[tuple[Carving, tuple[int, ...]]] = []
    # ``expert``: the unique trials not yet graded (above ``easy``, where any one the singles
    # do not fill is harder).
    uncapped = args.difficulty == DIFFICULTIES[-1]
    unique: list[tuple[Carving, tuple[int, ...]]] = []
    givens = given_cells(carving.values)
    for removed, witness in list(carving.witnesses.items()):
        if not carving.values[removed[0]]:
            continue
        kept = givens & ~sum(1 << cell for cell in removed)
        # The known sets only ``removed`` gives in (the others keep a given whatever comes
        # back): a pair is tried when ``back`` meets each of them.
        bare = [cells for cells in known if not cells & kept]
        without = blanked_fixpoint(kind, carving.values, removed, solution)
        for back in blank:
            back_cells = sum(1 << cell for cell in back)
            if not witness & back_cells:
                continue
            if tried == swap_budget(kind, args):
                break
            if any(not cells & back_cells for cells in bare):
                continue  # a known second solution fits its givens
            # No harder than the puzzle with ``back`` given back; the carve's try says more.
            trial = Carving(
                carving.values.copy(),
                carving.level,
                points=carving.points,
                unavoidable=carving.unavoidable,
                exact=False,
            )
            for cell in back:
                trial.values[cell] = solution[cell]
            tried += 1
            fixpoint = partial(without, back)
            blanked = try_blank(kind, trial, removed, solution, args, fixpoint)
            for cells in trial.witnesses.values():
                if cells not in known and not cells & kept:
                    bare.append(cells)
            known.update(trial.witnesses.values())
            if not blanked and trial.over and EASE_TRIES:
                blanked = ease(kind, trial, removed, back, all_orbits, solution, args, start)
            if not blanked:
                continue  # not unique, or too hard
            if uncapped and trial.level is None and start:
                unique.append((trial, back))
                continue
            if trial.level is None:  # unique, and the singles do not fill it: medium at least
                harder = start == 0 or DIFFICULTIES.index(level_of(kind, trial)) > start
            else:
                harder = DIFFICULTIES.index(trial.level) > start
            if not harder:
                sideways.append((trial, back))
                continue
            return carve_on(kind, carving, trial, back, all_orbits, solution, args, known), tried
    # A puzzle that needs a guess leaves many cells open after the singles (measured on the
    # unique trials of 9x9 expert swaps from fiendish puzzles: 39-53 against 34 on average
    # for the fiendish ones; the expert one had the most of its swap's trials graded up to
    # it in 12 of 13), so those are graded first, and the rest not at all.
    unique.sort(key=lambda pair: -pair[0].opened)
    for trial, back in unique[:EXPERT_GRADES]:
        if DIFFICULTIES.index(level_of(kind, trial)) > start:
            return carve_on(kind, carving, trial, back, all_orbits, solution, args, known), tried
        sideways.append((trial, back))
    if uncapped:
        # Graded and not easier: a trial whose orbit was forced (the puzzle with ``back``
        # given back) carries the level and points it started with, a bound; from a
        # puzzle the swaps climbed to, one easier walks back down (measured: fiendish
        # puzzles swapped to easy ones, which the carve kept easy).
        sideways = [
            pair
            for pair in sideways
            if pair[0].exact and DIFFICULTIES.index(level_of(kind, pair[0])) >= start
        ]
    if not sideways:
        return None
    if uncapped:
        # The hardest within its level (the first among equals): the next swaps start nearer
        # a puzzle that needs a guess. Not below: a capped level's hardest puzzles lie next
        # to ones above the level, which the carve refuses (measured: hard took 10% longer).
        trial, back = max(sideways, key=lambda pair: pair[0].points)
    else:
        trial, back = sideways[args.rng.randrange(len(sideways))]
    return carve_on(kind, carving, trial, back, all_orbits, solution, args, known), tried


def ease(
    kind: Translation,
    trial: Carving,
    removed: tuple[int, ...],
    back: tuple[int, ...],
    all_orbits: list[tuple[int, ...]],
    solution: list[int],
    args: GenerateArgs,
    start: int,
) -> bool:
    """``trial`` with ``removed`` blanked is unique but harder than asked: give back one blank
    orbit at a time (a given more keeps it unique: no search), up to ``EASE_TRIES`` drawn at
    random among those with a cell the singles leave open, until the techniques up to the
    level asked fill it at a level above ``start``; whether one did (``trial`` is then that
    puzzle, its level and points set)."""
    values = trial.values
    for cell in removed:
        values[cell] = 0
    # An orbit whose cells the singles place anyway leaves their fixpoint, so the path, as it
    # was: not given back.
    placed = singles_fixpoint(kind, values)[1]
    copies = kind.houses.shape.copies
    blank = [
        orbit
        for orbit in all_orbits
        if not values[orbit[0]]
        and orbit != removed
        and any(not placed & copies[cell] for cell in orbit)
    ]
    for _ in range(min(EASE_TRIES, len(blank))):
        orbit = blank.pop(args.rng.randrange(len(blank)))
        for cell in orbit:
            values[cell] = solution[cell]
        found, points = logic_grade(kind, values, args.difficulty)
        if found is not None and DIFFICULTIES.index(found) > start:
            trial.level, trial.points, trial.exact = found, points, True
            return True
        for cell in orbit:
            values[cell] = 0
    for cell in removed:
        values[cell] = solution[cell]
    return False


def carve_on(
    kind: Translation,
    carving: Carving,
    trial: Carving,
    back: tuple[int, ...],
    all_orbits: list[tuple[int, ...]],
    solution: list[int],
    args: GenerateArgs,
    known: set[int],
) -> Carving:
    """``trial`` (``carving`` with the orbit ``back`` given back and another blanked) carved
    on unless it is known to be at the level asked, with ``carving``'s witnesses and its own
    (an ``expert`` carve's level is found after the carve: one technique run)."""
    if trial.level != args.difficulty:
        rest = [orbit for orbit in all_orbits if trial.values[orbit[0]] and orbit != back]
        args.rng.shuffle(rest)
        carve(kind, trial, rest, solution, args, (args.fraction, args.fraction))
    trial.witnesses = {**carving.witnesses, **trial.witnesses}
    known.update(trial.witnesses.values())
    return trial


def generate(
    n: int,
    box: tuple[int, int],
    variant: str,
    translate: Translator,
    symmetry: str,
    args: GenerateArgs,
) -> Generated:
    """A Sudoku of size ``n`` (standard ``box`` shape) and ``variant`` with one solution,
    graded at the level asked if reachable within ``MAX_ATTEMPTS`` (see the module
    docstring); ``translate`` is the kind's translation of a layout."""
    target = DIFFICULTIES.index(args.difficulty)
    # The level takes part in the seed, so one seed's levels start from different grids.
    args.rng.seed(args.seed * len(DIFFICULTIES) + target)
    # A level the size cannot make (LEVELS_BY_SIZE, measured on standard grids): the first
    # puzzle made, with a note.
    reachable = variant != "standard" or args.difficulty in LEVELS_BY_SIZE.get(n, DIFFICULTIES)
    attempts = MAX_ATTEMPTS[n]
    best: tuple[int, list[int], list[int], Translation] | None = None
    fixed = None if variant == "jigsaw" else translate(None)
    for attempt in range(attempts):
        share = (attempt / attempts, (attempt + 1) / attempts)
        kind = fixed or translate(random_regions(n, *box, args.rng))
        solution = fill(n, kind, args)
        if solution is None:
            continue
        order = orbits(n, symmetry)
        args.rng.shuffle(order)
        carving = Carving(
            solution.copy(), DIFFICULTIES[0], unavoidable=digit_swaps(kind.houses, solution)
        )
        carve(kind, carving, order, solution, args, share)
        if reachable and DIFFICULTIES.index(level_of(kind, carving)) < target:
            carving = swap(kind, carving, orbits(n, symmetry), solution, args) or carving
        values = carving.values
        distance = target - DIFFICULTIES.index(level_of(kind, carving))
        if (
            best is None
            or abs(distance) < abs(best[0])
            or (abs(distance) == abs(best[0]) and distance > best[0])
        ):
            best = (distance, values, solution, kind)
        if distance == 0 or not reachable:
            break
    if best is None:
        raise puzzle_error(
            f"no {n}x{n} {variant} grid was found in {attempts} attempts; try another seed",
            "puzzle.variant",
        )
    distance, values, solution, kind = best
    graded = grade(kind, values, solution)
    note = None
    if graded["level"] != args.difficulty and not reachable:
        note = (
            f"{n}x{n} puzzles are made at {', '.join(LEVELS_BY_SIZE[n])} only; this is the "
            f"nearest found ({graded['level']})"
        )
    elif graded["level"] != args.difficulty:
        note = (
            f"no {args.difficulty} {n}x{n} puzzle was found in {attempt + 1} attempts; this is "
            f"the nearest found ({graded['level']}); try another seed"
        )
    return Generated(
        puzzle={"grid": kind.write(values), **kind.fields},
        solution=[solution[row * n : (row + 1) * n] for row in range(n)],
        grade=graded,
        attempts=attempt + 1,
        note=note,
    )
