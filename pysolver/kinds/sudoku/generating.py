"""Generating Sudoku puzzles with one solution at a chosen difficulty (``"mode": "generate"``).

Request: ``{"kind": "sudoku", "mode": "generate", "seed": 7, "difficulty": "hard",
"puzzle": {"size": 9}}``, sizes ``SIZES`` with their standard boxes; ``"symmetry": "none"``
drops the default rotational symmetry of the givens (a given's partner turned half a circle
about the centre is a given too). ``"variant"`` in the puzzle (``VARIANTS``, default
``standard``) makes a variant of ``pysolver.kinds.sudoku.variants``: ``jigsaw`` (seeded random
connected regions replace the boxes; the response's puzzle has their ``regions``) or ``x`` (both
diagonals hold each digit once; the puzzle has ``"diagonals": true``) or ``killer`` (cages with
sums and no givens: ``pysolver.kinds.sudoku.killer_generating`` makes it).

The generator translates; the ``singles`` engine (``pysolver.engines.singles``) does every
search and ``pysolver.logic`` grades:

0. **Layout** (jigsaw only, each attempt): the standard boxes, then ``REGION_SWAPS[n]`` random
   swaps of two cells of neighbouring regions, each kept when both regions stay connected
   (``random_regions``).
1. **Fill**: the engine's first solution of the empty grid, its branches shuffled by the seed's
   ``random.Random``: a random full grid. A variant's fill stops after ``FILL_BUDGET`` nodes
   (a jigsaw layout may have no full grid at all); the attempt then starts again.
2. **Carve**: the givens' symmetry orbits (a cell and its partner) in an order shuffled by the
   same source; each orbit is blanked and kept blank while the puzzle stays unique (the
   engine's search with limit 2 finds one solution and exhausts the tree; a variant's search
   stops at ``UNIQUE_BUDGET`` nodes and the orbit is then kept). For the levels and
   sizes of ``CAPPED_FROM`` the carve also stays within the level asked: the level's
   techniques (and easier ones) must fill the grid, which proves it unique with no search.
3. **Grade** (``grade``): explain mode's grade (``pysolver.kinds.sudoku.path``): the level of
   the hardest technique the path needs. ``easy``: naked and hidden singles alone; ``medium``:
   also locked candidates and naked or hidden subsets; ``hard``: also fish (X-wing, swordfish,
   jellyfish) and wings (XY-wing, XYZ-wing); ``expert``: a guess. The grade also counts the
   ``givens``.
4. **Ease**: a puzzle harder than asked gets one blanked orbit back, trying up to
   ``MAX_EASING`` in a shuffled order, when that lands it on the level (a minimal 9x9 puzzle
   needing a guess gives a ``hard`` one this way about half the time).
5. **Retry**: a puzzle still off the level starts a new attempt from a new fill, up to
   ``MAX_ATTEMPTS[size]``; past them the answer is the attempt nearest the level (easier
   preferred), with a ``note``. Small grids rarely need more than singles (a 4x4 almost
   never does), so harder levels there may not be reachable at all.

Determinism: the only source of chance is ``GenerateArgs.rng`` (``random.Random(seed)``); the
engine's branch order and the techniques' scan order are fixed; no set or dict of strings is
iterated and no float decides anything.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pysolver.engines import cover
from pysolver.engines.cover import ExactCoverProblem
from pysolver.engines.monitor import StageMonitor
from pysolver.kinds.sudoku import killer_generating
from pysolver.kinds.sudoku import path as sudoku_path
from pysolver.kinds.sudoku.board import Grid
from pysolver.kinds.sudoku.techniques import TECHNIQUES
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
# Branch nodes a variant's fill may take before its layout is given up (a jigsaw layout with no
# full grid would otherwise search its whole tree); a 9x9 fill takes a few dozen.
FILL_BUDGET = 20_000
# Branch nodes a variant's uniqueness search may take in the carve: past them the blanked cells
# are given back, as for a second solution. Some carved 12x12 jigsaws took minutes to prove
# unique; a 9x9 carve's searches take a few dozen nodes.
UNIQUE_BUDGET = 2_000
# Attempts (a fill and a carve each) before answering the nearest puzzle found. Measured per
# attempt: 4x4 ~1 ms, 9x9 ~40 ms, 12x12 ~150 ms, 16x16 1-5 s.
MAX_ATTEMPTS = {4: 50, 6: 100, 9: 200, 12: 40, 16: 4}
# The levels whose carve stops short of harder puzzles, per size from which they do (the others
# carve to a minimal unique puzzle and give back an orbit when it came out harder than asked:
# see ``ease``). Measured: minimal unique puzzles are mostly easy on 9x9 (70%) and mostly
# expert on 16x16, where each uniqueness search also costs 10-30 ms.
CAPPED_FROM = {"easy": 4, "medium": 16, "hard": 16}
# Blanked orbits given back, one at a time, to bring a puzzle harder than asked to the level.
MAX_EASING = 12
ENGINE = "singles"

# The kind's translation, bound to the grid's size and boxes by ``pysolver.kinds.sudoku``
# (which this module does not import: it calls this one): givens (values row by row, 0 blank)
# -> the exact cover matrix and each cell option's code; givens, codes and chosen options ->
# the filled rows; givens -> the grid text of a solve request.
Encoder = Callable[[list[int]], tuple[ExactCoverProblem, list[int]]]
Decoder = Callable[[list[int], list[int], list[int]], list[list[int]]]
Writer = Callable[[list[int]], str]


@dataclass
class Translation:
    """The kind's functions the generator calls (see ``Encoder``, ``Decoder``, ``Writer``) and
    the empty board of the grid's houses the techniques read (``pysolver.logic``)."""

    encode: Encoder
    decode: Decoder
    write: Writer
    houses: Grid
    # The puzzle's variant fields beside its grid: ``regions`` or ``diagonals``.
    fields: dict[str, Any] = field(default_factory=dict)


# A translation per layout: jigsaw region numbers per cell (None: the boxes).
Translator = Callable[[tuple[int, ...] | None], Translation]


@dataclass
class Measure:
    """The facts of one uniqueness search: solutions found (at most 2) and branch nodes."""

    solutions: int
    nodes: int
    complete: bool


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


def sides(cell: int, n: int) -> list[int]:
    """The cells sharing a side with ``cell``: up, left, right, down."""
    r, c = divmod(cell, n)
    found = []
    if r:
        found.append(cell - n)
    if c:
        found.append(cell - 1)
    if c < n - 1:
        found.append(cell + 1)
    if r < n - 1:
        found.append(cell + n)
    return found


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
    """The techniques of ``level`` and the levels below it (``pysolver.logic``)."""
    most = TECHNIQUE_LEVELS.index(level)
    return tuple(t for t in TECHNIQUES if TECHNIQUE_LEVELS.index(t.level) <= most)


def board(kind: Translation, values: list[int]) -> Grid:
    """The techniques' board of ``values`` (row by row, 0 blank), givens placed."""
    grid = kind.houses.copy()
    for cell, value in enumerate(values):
        if value:
            grid.place(cell, value)
    return grid


def grade(kind: Translation, values: list[int], solution: list[int]) -> dict[str, Any]:
    """Explain mode's grade of a unique puzzle (``level``, ``score``, ``techniques``) and its
    number of ``givens``."""
    steps = sudoku_path.explain(board(kind, values), solution, True)
    return {**sudoku_path.grade(steps), "givens": len(values) - values.count(0)}


def measure(kind: Translation, values: list[int], args: GenerateArgs) -> Measure:
    """The ``singles`` engine's uniqueness search (limit 2) of ``values``; a variant's stops
    after ``UNIQUE_BUDGET`` nodes, incomplete (so the carve keeps the cell: never wrong)."""
    problem, _codes = kind.encode(values)
    budget = UNIQUE_BUDGET if kind.fields else None
    stage = StageMonitor(args.monitor, args.nodes, 0, (args.fraction, args.fraction), budget)
    result = cover.search(problem, ENGINE, limit=2, keep_solutions=False, monitor=stage)
    args.stop_if_cancelled(stage)
    return Measure(result.count, result.stats["nodes"], result.complete)


def fill(n: int, kind: Translation, args: GenerateArgs) -> list[int] | None:
    """A random full grid: the engine's first solution of the empty grid, branches shuffled;
    None when a variant's grid is not found within ``FILL_BUDGET`` nodes (or has none)."""
    values = [0] * (n * n)
    problem, codes = kind.encode(values)
    budget = FILL_BUDGET if kind.fields else None
    stage = StageMonitor(args.monitor, args.nodes, 0, (args.fraction, args.fraction), budget)
    result = cover.search(problem, ENGINE, limit=1, rng=args.rng, monitor=stage)
    args.stop_if_cancelled(stage)
    args.advance(result.stats["nodes"], args.fraction)
    if not result.solutions:
        return None
    rows = kind.decode(values, codes, result.solutions[0])
    return [value for row in rows for value in row]


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


def level_of(kind: Translation, values: list[int]) -> str:
    """The level of a unique puzzle: the easiest level whose techniques (and those below)
    fill it with no guess, else ``expert`` (explain mode's grade, without its sentences: the
    path applies the easiest technique that fires, so it needs no harder level than this)."""
    for level in DIFFICULTIES[:-1]:
        if sudoku_path.solvable_without_guess(board(kind, values), techniques_up_to(level)):
            return level
    return DIFFICULTIES[-1]


def is_level(kind: Translation, values: list[int], level: str) -> bool:
    """Whether a unique puzzle is exactly at ``level`` (two technique runs at most)."""
    index = DIFFICULTIES.index(level)
    if level != DIFFICULTIES[-1] and not sudoku_path.solvable_without_guess(
        board(kind, values), techniques_up_to(level)
    ):
        return False
    return index == 0 or not sudoku_path.solvable_without_guess(
        board(kind, values), techniques_up_to(DIFFICULTIES[index - 1])
    )


def carve(
    n: int,
    kind: Translation,
    solution: list[int],
    symmetry: str,
    args: GenerateArgs,
    share: tuple[float, float],
) -> list[int]:
    """Blank orbits in a shuffled order while the puzzle stays unique; ``share``: this
    carve's part of the reported progress."""
    values = solution.copy()
    order = orbits(n, symmetry)
    args.rng.shuffle(order)
    low, high = share
    from_size = CAPPED_FROM.get(args.difficulty)  # expert has no harder level to stop short of
    capped = from_size is not None and n >= from_size
    for done, orbit in enumerate(order):
        kept = [values[cell] for cell in orbit]
        for cell in orbit:
            values[cell] = 0
        if not fits(kind, values, capped, args):
            for cell, value in zip(orbit, kept, strict=True):
                values[cell] = value
        args.advance(0, low + (high - low) * (done + 1) / len(order))
    return values


def fits(kind: Translation, values: list[int], capped: bool, args: GenerateArgs) -> bool:
    """Whether ``values`` has one solution (``capped``: and is no harder than asked). Capped,
    no search is needed: the level's techniques filling the grid prove the solution unique;
    else the engine's uniqueness search decides."""
    if capped:
        return sudoku_path.solvable_without_guess(
            board(kind, values), techniques_up_to(args.difficulty)
        )
    found = measure(kind, values, args)
    args.nodes += found.nodes
    return found.complete and found.solutions == 1


def ease(
    n: int,
    kind: Translation,
    values: list[int],
    solution: list[int],
    symmetry: str,
    args: GenerateArgs,
) -> list[int] | None:
    """A puzzle at the level asked made from ``values`` (harder than it) by giving back one
    blanked orbit: the first of ``MAX_EASING`` tried, in a shuffled order, that lands on the
    level; None when none does."""
    blank = [orbit for orbit in orbits(n, symmetry) if not values[orbit[0]]]
    args.rng.shuffle(blank)
    for orbit in blank[:MAX_EASING]:
        eased = values.copy()
        for cell in orbit:
            eased[cell] = solution[cell]
        if is_level(kind, eased, args.difficulty):
            return eased
        args.advance(0, args.fraction)
    return None


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
    attempts = MAX_ATTEMPTS[n]
    best: tuple[int, list[int], list[int], Translation] | None = None
    fixed = None if variant == "jigsaw" else translate(None)
    for attempt in range(attempts):
        share = (attempt / attempts, (attempt + 1) / attempts)
        kind = fixed or translate(random_regions(n, *box, args.rng))
        solution = fill(n, kind, args)
        if solution is None:
            continue
        values = carve(n, kind, solution, symmetry, args, share)
        distance = target - DIFFICULTIES.index(level_of(kind, values))
        if distance < 0:
            eased = ease(n, kind, values, solution, symmetry, args)
            if eased is not None:
                values, distance = eased, 0
        if (
            best is None
            or abs(distance) < abs(best[0])
            or (abs(distance) == abs(best[0]) and distance > best[0])
        ):
            best = (distance, values, solution, kind)
        if distance == 0:
            break
    if best is None:
        raise puzzle_error(
            f"no {n}x{n} {variant} grid was found in {attempts} attempts; try another seed",
            "puzzle.variant",
        )
    distance, values, solution, kind = best
    graded = grade(kind, values, solution)
    note = None
    if distance:
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
