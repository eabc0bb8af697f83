"""Generating Sudoku puzzles with one solution at a chosen difficulty (``"mode": "generate"``).

Request: ``{"kind": "sudoku", "mode": "generate", "seed": 7, "difficulty": "hard",
"puzzle": {"size": 9}}``, sizes ``SIZES`` with their standard boxes; ``"symmetry": "none"``
drops the default rotational symmetry of the givens (a given's partner turned half a circle
about the centre is a given too).

The generator translates; the ``singles`` engine (``pysolver.engines.singles``) does every
search:

1. **Fill**: the engine's first solution of the empty grid, its branches shuffled by the seed's
   ``random.Random``: a random full grid.
2. **Carve**: the givens' symmetry orbits (a cell and its partner) in an order shuffled by the
   same source; each orbit is blanked and kept blank when the puzzle stays unique (the
   engine's search with limit 2 finds one solution and exhausts the tree) and its grade stays
   at most the level asked (at most ``LEVELS[level]``'s branch nodes). Blanking stops nowhere
   else, so the puzzle is minimal for its level: no orbit can be blanked without a second
   solution or a harder grade.
3. **Grade** (``grade``): the branch nodes ``B`` of that uniqueness search, the engine's
   ``stats.nodes``: the choices tried at branch points once naked and hidden singles are
   forced (0 when singles alone fill the grid). ``easy``: B = 0, singles alone; ``medium``:
   1 <= B <= 4; ``hard``: 5 <= B <= 11; ``expert``: B >= 12. The same integers on every
   machine, so the grade is reproducible.
4. **Retry**: a carved puzzle below the level asked (carving only caps the grade from above)
   starts a new attempt from a new fill, up to ``MAX_ATTEMPTS[size]``; past them the answer is
   the attempt nearest the level, with a ``note`` saying so. Small grids rarely need more than
   singles (a 4x4 almost never does), so "hard" there may not be reachable at all.

Determinism: the only source of chance is ``GenerateArgs.rng`` (``random.Random(seed)``); the
engine's branch order is fixed by its arrays; no set or dict of strings is iterated and no
float decides anything.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pysolver.engines import exact_cover
from pysolver.engines.exact_cover import ExactCoverProblem
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
DIFFICULTIES = ("easy", "medium", "hard", "expert")
SYMMETRIES = ("rotational", "none")
# The most branch nodes of the uniqueness search a level allows (None: no cap). A level's
# least is one past the level before it.
LEVELS: dict[str, int | None] = {"easy": 0, "medium": 4, "hard": 11, "expert": None}
# Attempts (a fill and a carve each) before answering the nearest puzzle found. Measured per
# attempt: 4x4 ~1 ms, 9x9 ~40 ms, 12x12 ~150 ms, 16x16 1-5 s.
MAX_ATTEMPTS = {4: 50, 6: 100, 9: 200, 12: 40, 16: 4}
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
    """The kind's functions the generator calls (see ``Encoder``, ``Decoder``, ``Writer``)."""

    encode: Encoder
    decode: Decoder
    write: Writer


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


def level_of(branch_nodes: int) -> str:
    """The level of a unique puzzle whose uniqueness search took ``branch_nodes``."""
    for level, most in LEVELS.items():
        if most is None or branch_nodes <= most:
            return level
    raise AssertionError("the last level has no cap")


def measure(
    kind: Translation, values: list[int], args: GenerateArgs, cap: int | None = None
) -> Measure:
    """The ``singles`` engine's uniqueness search (limit 2) of ``values``; with ``cap``, it
    stops soon after ``cap`` branch nodes (``complete`` is then False): the puzzle is too hard
    for the level already (the engine looks at its budget every few hundred nodes)."""
    problem, _codes = kind.encode(values)
    stage = args.stage()
    stage.budget = cap
    result = exact_cover.search(problem, ENGINE, limit=2, keep_solutions=False, monitor=stage)
    args.stop_if_cancelled(stage)
    return Measure(result.count, result.stats["nodes"], result.complete)


def fill(n: int, kind: Translation, args: GenerateArgs) -> list[int]:
    """A random full grid: the engine's first solution of the empty grid, branches shuffled."""
    values = [0] * (n * n)
    problem, codes = kind.encode(values)
    stage = args.stage()
    result = exact_cover.search(problem, ENGINE, limit=1, rng=args.rng, monitor=stage)
    args.stop_if_cancelled(stage)
    args.advance(result.stats["nodes"], args.fraction)
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


def carve(
    n: int,
    kind: Translation,
    solution: list[int],
    symmetry: str,
    cap: int | None,
    args: GenerateArgs,
    share: tuple[float, float],
) -> list[int]:
    """Blank orbits in a shuffled order while the puzzle stays unique within ``cap`` branch
    nodes; ``share``: this carve's part of the reported progress."""
    values = solution.copy()
    order = orbits(n, symmetry)
    args.rng.shuffle(order)
    low, high = share
    for done, orbit in enumerate(order):
        kept = [values[cell] for cell in orbit]
        for cell in orbit:
            values[cell] = 0
        found = measure(kind, values, args, cap)
        if not (found.complete and found.solutions == 1 and (cap is None or found.nodes <= cap)):
            for cell, value in zip(orbit, kept, strict=True):
                values[cell] = value
        args.advance(found.nodes, low + (high - low) * (done + 1) / len(order))
    return values


def generate(n: int, kind: Translation, symmetry: str, args: GenerateArgs) -> Generated:
    """A Sudoku of size ``n`` with one solution, graded at the level asked if reachable
    within ``MAX_ATTEMPTS`` (see the module docstring)."""
    target = DIFFICULTIES.index(args.difficulty)
    cap = LEVELS[args.difficulty]
    attempts = MAX_ATTEMPTS[n]
    best: tuple[int, list[int], list[int], Measure] | None = None
    for attempt in range(attempts):
        share = (attempt / attempts, (attempt + 1) / attempts)
        solution = fill(n, kind, args)
        values = carve(n, kind, solution, symmetry, cap, args, share)
        found = measure(kind, values, args)
        distance = target - DIFFICULTIES.index(level_of(found.nodes))
        if best is None or distance < best[0]:
            best = (distance, values, solution, found)
        if distance == 0:
            break
    assert best is not None  # every size has at least one attempt
    distance, values, solution, found = best
    level = level_of(found.nodes)
    note = None
    if distance:
        note = (
            f"no {args.difficulty} {n}x{n} puzzle was found in {attempt + 1} attempts; this is "
            f"the hardest found ({level}); try another seed"
        )
    return Generated(
        puzzle={"grid": kind.write(values)},
        solution=[solution[row * n : (row + 1) * n] for row in range(n)],
        grade={
            "level": level,
            "branch_nodes": found.nodes,
            "givens": n * n - values.count(0),
        },
        attempts=attempt + 1,
        note=note,
    )
