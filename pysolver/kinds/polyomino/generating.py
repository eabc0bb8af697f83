"""Generating polyomino puzzles (Katamino-style challenges) with one tiling up to symmetry.

Request: ``{"kind": "polyomino", "mode": "generate", "seed": 4, "puzzle": {"rows": 5,
"cols": 6}}``: a ``rows`` x ``cols`` rectangle of ``rows * cols / 5`` cells per pentomino, 3 to
``MAX_PIECES`` pentominoes. The answer's puzzle is the board and a subset of the twelve
pentominoes, each used once, that tile it in exactly one way up to the rectangle's rotations
and reflections.

The generator translates; the kind's own search (``prepare`` with ``"symmetry": "distinct"``,
passed in by ``pysolver.kinds.polyomino``, which calls this module) counts the tilings up to
symmetry with limit 2:

1. **Draw** the subsets of the pentominoes in an order shuffled by ``random.Random(seed)``
   (every subset of the right size, in the set's fixed order, then shuffled).
2. **Count** its distinct tilings; exactly one (the search exhausted) makes the puzzle.
3. **Grade** by the nodes of that count (the exact cover engine's, over every symmetry
   branch): ``easy`` at most 50, ``medium`` at most 200, ``hard`` at most 1000, ``expert``
   more. The number grows with the board (5x3: about 7, 5x6: 50-200, 5x8: 300-2500), so a level
   beyond a board's reach is answered with the nearest found and a ``note``; the drawing goes
   on until the level is met or ``MAX_ATTEMPTS[pieces]`` subsets were counted (all of them
   for 3 pieces, about half for 4 and 5, where few subsets tile in one way).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from pysolver.kinds.polyomino.pieces import SETS
from pysolver.midend.plan import GenerateArgs, Generated, Plan, SearchArgs
from pysolver.protocol import Query, puzzle_error, require_dict, require_int

DIFFICULTIES = ("easy", "medium", "hard", "expert")
# The most nodes a level's count may take (None: no cap).
LEVELS: dict[str, int | None] = {"easy": 50, "medium": 200, "hard": 1000, "expert": None}
PIECE_CELLS = 5
MIN_PIECES = 3
# Past 8 pieces unique subsets are rare and each count takes seconds.
MAX_PIECES = 8
# Subsets counted at most, per number of pieces (a count takes ~5 ms for 3 pieces, ~15 ms for
# 4, ~0.2 s for 8): every subset of 3 (220), half those of 4 (495), 250 of 5 (the 5x5 square
# has few subsets with one tiling), fewer above.
MAX_ATTEMPTS = {3: 220, 4: 250, 5: 250, 6: 50, 7: 30, 8: 20}

# The boards the page offers (5 rows, 3 to 8 pentominoes across) that cannot make every level,
# and the levels they make: measured over the subsets seeds 0 and 1 count (the unique ones'
# nodes, ``level_of``). 5x3 14 easy; 5x4 9 easy; 5x5 8 easy, 3 medium; 5x6 4 medium, 5 hard;
# 5x7 3 medium, 4 hard; 5x8 one unique subset in 40, expert.
LEVELS_BY_BOARD = {
    "5x3": ("easy",),
    "5x4": ("easy",),
    "5x5": ("easy", "medium"),
    "5x6": ("medium", "hard"),
    "5x7": ("medium", "hard"),
    "5x8": ("expert",),
}

Prepare = Callable[[Any, Query, str], Plan]


def read_board(puzzle: Any) -> tuple[int, int]:
    """The ``rows`` and ``cols`` of a generate request's puzzle: a rectangle of 3 to
    ``MAX_PIECES`` pentominoes' area."""
    puzzle = require_dict(puzzle, "puzzle")
    sides = []
    for name in ("rows", "cols"):
        if name not in puzzle:
            raise puzzle_error('generate mode needs the puzzle\'s "rows" and "cols"', "puzzle")
        sides.append(require_int(puzzle[name], f"puzzle.{name}", minimum=1, maximum=40))
    rows, cols = sides
    area = rows * cols
    if area % PIECE_CELLS or not MIN_PIECES <= area // PIECE_CELLS <= MAX_PIECES:
        raise puzzle_error(
            f"a {rows} x {cols} board has {area} cells; generate mode tiles boards of "
            f"{MIN_PIECES} to {MAX_PIECES} pentominoes ({MIN_PIECES * PIECE_CELLS} to "
            f"{MAX_PIECES * PIECE_CELLS} cells, a multiple of 5), e.g. 5 x 4",
            "puzzle",
        )
    return rows, cols


def level_of(nodes: int) -> str:
    """The level of a puzzle whose count took ``nodes``."""
    for level, most in LEVELS.items():
        if most is None or nodes <= most:
            return level
    raise AssertionError("the last level has no cap")


def generate(puzzle: Any, prepare: Prepare, engine: str, args: GenerateArgs) -> Generated:
    """A board and a pentomino subset with one tiling up to symmetry (see the module
    docstring); ``prepare`` and ``engine``: the kind's search and its default engine."""
    rows, cols = read_board(puzzle)
    board = ["." * cols] * rows
    names = list(SETS["pentominoes"])
    pieces = rows * cols // PIECE_CELLS
    query = Query(mode="count", limit=2, extra={"symmetry": "distinct"}, cancel=args.monitor.cancel)
    target = DIFFICULTIES.index(args.difficulty)
    subsets = list(itertools.combinations(names, pieces))
    args.rng.shuffle(subsets)
    attempts = MAX_ATTEMPTS[pieces]
    best: tuple[int, list[str], Any, int] | None = None
    made = 0
    for made, subset in enumerate(subsets[:attempts], start=1):
        chosen = list(subset)
        stage = args.stage()
        plan = prepare({"board": board, "pieces": chosen}, query, engine)
        result = plan.run(
            SearchArgs(
                engine=engine,
                limit=2,
                keep_solutions=True,
                max_kept=2,
                rng=None,
                monitor=stage,
            )
        )
        args.stop_if_cancelled(stage)
        nodes = int(result.stats.get("nodes", 0))
        args.advance(nodes, made / attempts)
        if result.count != 1 or not result.complete:
            continue
        distance = abs(target - DIFFICULTIES.index(level_of(nodes)))
        if best is None or distance < best[0]:
            best = (distance, chosen, plan.decode(result.solutions[0]), nodes)
        if distance == 0:
            break
    if best is None:
        raise puzzle_error(
            f"no {pieces} pentominoes of the {made} subsets counted tile the {rows} x {cols} "
            "board in exactly one way; try another seed or board",
            "puzzle",
        )
    distance, chosen, solution, nodes = best
    level = level_of(nodes)
    note = None
    if distance:
        note = (
            f"no {args.difficulty} {rows} x {cols} puzzle was found in {made} attempts; this "
            f"is the nearest found ({level}); try another seed or board"
        )
    return Generated(
        puzzle={"board": board, "pieces": chosen},
        solution=solution,
        grade={"level": level, "nodes": nodes, "pieces": len(chosen)},
        attempts=made,
        note=note,
    )
