"""Generating Shikaku puzzles with one solution (``"mode": "generate"``).

Request: ``{"kind": "shikaku", "mode": "generate", "seed": 3, "difficulty": "medium",
"puzzle": {"rows": 20, "cols": 20}}``, sides 2 to ``MAX_GENERATE_SIDE``.

The generator translates; the ``propagate`` engine (``pysolver.engines.propagate``) does every
search:

1. **Partition**: the grid cut into random rectangles: at the first uncovered cell in reading
   order, a rectangle of a shape drawn from those that fit the uncovered cells, of area 2 to
   the attempt's entry of ``MAX_AREA[level]`` (a 1x1 only where nothing larger fits). Each
   rectangle gets its clue (its area) at a drawn cell.
2. **Make it unique**: the engine's search with limit 2. While it finds a second solution, a
   rectangle of the intended partition that the other solution does not have is changed:
   merged with a neighbour when the two make a rectangle within the level's area, else its
   clue moves to another of its cells. Past ``FIXES_PER_RECTANGLE`` changes per rectangle the
   attempt is given up and a
   new partition drawn.
3. **Grade** (``grade``): explain mode's grade (``pysolver.kinds.shikaku.logic``): the level of the
   hardest rule the path needs. ``easy``: a clue with one rectangle left alone; ``medium``:
   also a cell only one clue reaches; ``hard``: also the overlap of a clue's rectangles;
   ``expert``: a guess. The grade also counts the ``clues``. Attempts are judged by the path's
   rules without guesses (``level_of``: the same steps as explain's path, so the same level);
   only the answer gets the whole path, guesses and their refutations included.
4. **Retry**: a puzzle of another level than the one asked starts a new attempt, with the
   rectangle areas that make the level likeliest (``MAX_AREA``: random partitions grade
   ``medium`` most often; small rectangles make ambiguous corners that need overlaps or
   guesses; only dominoes stay ``easy`` on large grids), up to ``MAX_ATTEMPTS``
   (``MAX_ATTEMPTS_LARGE`` above ``LARGE_CELLS`` cells); past them the answer is the nearest
   found (easier preferred), with a ``note``. Above ``LARGE_CELLS`` ``easy`` is out of reach
   (dominoes only take over a minute to make unique at 40x40; larger rectangles are never easy
   there): the answer is made as a ``medium`` one, with a ``note``. Small grids rarely need
   overlaps, so ``hard`` may be out of reach on them.

Determinism: ``GenerateArgs.rng`` is the only source of chance; choices are drawn from lists
in a fixed order; no float decides anything.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pysolver.engines import propagate
from pysolver.engines.monitor import Monitor
from pysolver.kinds.shikaku import logic as shikaku_logic
from pysolver.kinds.shikaku.logic import Field
from pysolver.midend.plan import GenerateArgs, Generated
from pysolver.protocol import TOO_LARGE, SolveError, puzzle_error, require_dict, require_int

DIFFICULTIES = ("easy", "medium", "hard", "expert")
# The largest side generated (the solver takes up to shikaku.MAX_SIDE).
MAX_GENERATE_SIDE = 60
MIN_GENERATE_SIDE = 2
# The largest rectangle a level's partition draws, by attempt: the attempts split evenly among
# the areas listed. Measured on single attempts (10x10 / 20x20 / 40x40, 6-60 seeds): no
# rectangle above 2 cells gives easy always (each domino clue keeps few rectangles) but costs
# the most fixes (~0.5 s an attempt at 20x20), 3-4 cells easy 10% / 0% / 0%; 9 cells medium
# 90% / 70%; 5 cells hard 0-5% / 45%; 3 cells expert 7% / 25% / 66%.
MAX_AREA = {"easy": (4, 3, 2, 2), "medium": (9,), "hard": (5,), "expert": (3,)}
MAX_ATTEMPTS = 24
# Grids of more cells than this make fewer attempts and no domino-only ones: an attempt costs
# ~1-2 s at 40x40 (dominoes over a minute: thousands of fixes, a search each).
LARGE_CELLS = 400
MAX_ATTEMPTS_LARGE = 6
# Changes (merges, moved clues) one attempt may make per rectangle before it is given up.
FIXES_PER_RECTANGLE = 2

Rectangle = tuple[int, int, int, int]  # top, left, height, width
Clue = tuple[int, int, int]  # row, col, area
# The kind's translation (``pysolver.kinds.shikaku.candidate_rectangles``, passed in by the
# kind, which calls this module): per clue its candidate rectangles and their cell masks.
Candidates = Callable[
    [int, int, list[Clue], Monitor], tuple[list[list[Rectangle]], list[list[int]], int]
]


def read_sides(puzzle: Any) -> tuple[int, int]:
    """The ``rows`` and ``cols`` of a generate request's puzzle."""
    puzzle = require_dict(puzzle, "puzzle")
    sides = []
    for name in ("rows", "cols"):
        if name not in puzzle:
            raise puzzle_error('generate mode needs the puzzle\'s "rows" and "cols"', "puzzle")
        side = require_int(puzzle[name], f"puzzle.{name}", minimum=MIN_GENERATE_SIDE)
        if side > MAX_GENERATE_SIDE:
            raise SolveError(
                TOO_LARGE,
                f"puzzle.{name} is {side}; generate mode makes grids of up to "
                f"{MAX_GENERATE_SIDE} x {MAX_GENERATE_SIDE}",
                f"puzzle.{name}",
            )
        sides.append(side)
    return sides[0], sides[1]


def field_of(
    rows: int, cols: int, clues: list[Clue], candidates: Candidates, monitor: Monitor
) -> Field:
    """Explain mode's board of a puzzle: its clues and their candidate rectangles."""
    rectangles, masks, _in_area = candidates(rows, cols, clues, monitor)
    return Field(rows, cols, clues, rectangles, masks)


def level_of(field: Field) -> str:
    """The level explain mode grades a unique puzzle: its path's hardest rule while a rule
    applies (the path takes the easiest that does), ``expert`` when none does before the end
    (the path then guesses)."""
    field = field.copy()
    steps = []
    while not field.solved():
        step = shikaku_logic.next_step(field)
        if step is None:
            return DIFFICULTIES[-1]
        field.apply(step)
        steps.append(step)
    level: str = shikaku_logic.grade(steps)["level"]
    return level


def grade(field: Field, rectangles: list[Rectangle]) -> dict[str, Any]:
    """Explain mode's grade of a unique puzzle (``level``, ``score``, ``techniques``) whose
    solution is ``rectangles`` (in clue order), and its number of ``clues``."""
    solution = [
        field.rectangles[clue].index(rectangle) for clue, rectangle in enumerate(rectangles)
    ]
    steps = shikaku_logic.explain(field.copy(), solution, True)
    return {**shikaku_logic.grade(steps), "clues": len(field.clues)}


def partition(rows: int, cols: int, most: int, args: GenerateArgs) -> list[Rectangle]:
    """Random rectangles covering the grid, each of area 2 to ``most`` where one fits."""
    covered = [[False] * cols for _ in range(rows)]
    rectangles: list[Rectangle] = []
    for top in range(rows):
        for left in range(cols):
            if covered[top][left]:
                continue
            # Free width from here along this row (rows above are covered already).
            free = 0
            while left + free < cols and not covered[top][left + free]:
                free += 1
            shapes = [
                (height, width)
                for height in range(1, min(most, rows - top) + 1)
                for width in range(1, min(most // height, free) + 1)
                if height * width >= 2
                and all(not covered[top + down][left + width - 1] for down in range(height))
                and all(not covered[top + height - 1][left + side] for side in range(width))
            ]
            height, width = args.rng.choice(shapes) if shapes else (1, 1)
            for down in range(height):
                for side in range(width):
                    covered[top + down][left + side] = True
            rectangles.append((top, left, height, width))
    return rectangles


def clue_cell(rectangle: Rectangle, args: GenerateArgs) -> tuple[int, int]:
    """A drawn cell of ``rectangle``."""
    top, left, height, width = rectangle
    spot = args.rng.randrange(height * width)
    return top + spot // width, left + spot % width


def merged(first: Rectangle, second: Rectangle) -> Rectangle | None:
    """The rectangle two side-by-side rectangles make together, or None."""
    top, left, height, width = first
    other_top, other_left, other_height, other_width = second
    stacked = top + height == other_top or other_top + other_height == top
    if left == other_left and width == other_width and stacked:
        return (min(top, other_top), left, height + other_height, width)
    side_by_side = left + width == other_left or other_left + other_width == left
    if top == other_top and height == other_height and side_by_side:
        return (top, min(left, other_left), height, width + other_width)
    return None


def unique_search(
    rows: int, cols: int, clues: list[Clue], candidates: Candidates, args: GenerateArgs
) -> tuple[dict[str, int], list[list[Rectangle]]]:
    """The engine's search with limit 2: its stats (``nodes``, ``candidates_initial``) and the
    solutions found (at most 2), each as the rectangles in clue order."""
    stage = args.stage()
    rectangles, masks, _in_area = candidates(rows, cols, clues, stage)
    result = propagate.search(
        propagate.PartitionProblem(rows * cols, masks), limit=2, monitor=stage
    )
    args.stop_if_cancelled(stage)
    solutions = [
        [rectangles[clue][choice] for clue, choice in enumerate(solution)]
        for solution in result.solutions
    ]
    return result.stats, solutions


def attempt(
    rows: int,
    cols: int,
    most: int,
    candidates: Candidates,
    args: GenerateArgs,
    share: tuple[float, float],
) -> tuple[list[Clue], list[Rectangle], dict[str, int]] | None:
    """One partition into rectangles of up to ``most`` cells made unique: (clues, rectangles
    in clue order, the uniqueness search's stats), or None when the fixes ran out."""
    rectangles = partition(rows, cols, most, args)
    cells = [clue_cell(rectangle, args) for rectangle in rectangles]
    fixes = FIXES_PER_RECTANGLE * len(rectangles)
    low, high = share
    for fix in range(fixes + 1):
        clues = [
            (row, col, height * width)
            for (row, col), (_top, _left, height, width) in zip(cells, rectangles, strict=True)
        ]
        stats, solutions = unique_search(rows, cols, clues, candidates, args)
        args.advance(stats["nodes"], low + (high - low) * fix / (fixes + 1))
        if len(solutions) == 1:
            return clues, rectangles, stats
        # The partition is one of the two solutions found: change a rectangle of it that the
        # other one does not have.
        other = set(solutions[1] if solutions[0] == rectangles else solutions[0])
        differing = [index for index, rectangle in enumerate(rectangles) if rectangle not in other]
        index = args.rng.choice(differing)
        neighbours = [
            (other_index, union)
            for other_index, candidate in enumerate(rectangles)
            if other_index != index
            for union in [merged(rectangles[index], candidate)]
            if union is not None and union[2] * union[3] <= most
        ]
        if neighbours:
            other_index, union = args.rng.choice(neighbours)
            for dropped in sorted((index, other_index), reverse=True):
                del rectangles[dropped]
                del cells[dropped]
            rectangles.append(union)
            cells.append(clue_cell(union, args))
        else:
            cells[index] = clue_cell(rectangles[index], args)
    return None


def generate(puzzle: Any, candidates: Candidates, args: GenerateArgs) -> Generated:
    """A Shikaku of the size asked with one solution, graded at ``args.difficulty`` if
    reachable within ``MAX_ATTEMPTS`` (see the module docstring)."""
    rows, cols = read_sides(puzzle)
    large = rows * cols > LARGE_CELLS
    attempts = MAX_ATTEMPTS_LARGE if large else MAX_ATTEMPTS
    # Easy out of reach (see the module docstring): the nearest is made as medium is.
    out_of_reach = large and args.difficulty == DIFFICULTIES[0]
    aim = DIFFICULTIES[1] if out_of_reach else args.difficulty
    target = DIFFICULTIES.index(aim)
    areas = MAX_AREA[aim]
    # (target minus the level's index, clues, rectangles, explain board)
    best: tuple[int, list[Clue], list[Rectangle], Field] | None = None
    made = 0
    for made in range(1, attempts + 1):
        share = ((made - 1) / attempts, made / attempts)
        most = areas[(made - 1) * len(areas) // attempts]
        found = attempt(rows, cols, most, candidates, args, share)
        if found is None:
            continue
        clues, rectangles, _stats = found
        stage = args.stage()
        field = field_of(rows, cols, clues, candidates, stage)
        args.stop_if_cancelled(stage)
        distance = target - DIFFICULTIES.index(level_of(field))
        if (
            best is None
            or abs(distance) < abs(best[0])
            or (abs(distance) == abs(best[0]) and distance > best[0])
        ):
            best = (distance, clues, rectangles, field)
        if distance == 0:
            break
    if best is None:
        raise SolveError(
            TOO_LARGE,
            f"no unique {rows} x {cols} Shikaku was made in {attempts} attempts; try "
            "another seed or size",
        )
    distance, clues, rectangles, field = best
    graded = grade(field, rectangles)
    note = None
    if out_of_reach:
        note = (
            f"{args.difficulty} Shikaku are made on grids of up to {LARGE_CELLS} cells; this "
            f"{rows} x {cols} puzzle is the nearest found ({graded['level']})"
        )
    elif distance:
        note = (
            f"no {args.difficulty} {rows} x {cols} puzzle was found in {made} attempts; this "
            f"is the nearest found ({graded['level']}); try another seed"
        )
    return Generated(
        puzzle={"rows": rows, "cols": cols, "clues": [list(clue) for clue in clues]},
        solution=[list(rectangle) for rectangle in rectangles],
        grade=graded,
        attempts=made,
        note=note,
    )
