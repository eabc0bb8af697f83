"""Generating Shikaku puzzles with one solution (``"mode": "generate"``).

Request: ``{"kind": "shikaku", "mode": "generate", "seed": 3, "difficulty": "medium",
"puzzle": {"rows": 20, "cols": 20}}``, sides 2 to ``MAX_GENERATE_SIDE``.

The generator translates; the rules of explain mode (``pysolver.kinds.shikaku.logic``) and the
``propagate`` engine (``pysolver.engines.propagate``) judge its puzzles. Puzzles are made as
Tatham's Rectangles makes them: no 1-clues, about as many clues (a partition has 20 on
10 x 10, 45 on 20 x 20 on average; Tatham's 21 and 48) and rectangles of 2 up to a sixth
of the grid.

1. **Partition** (``partition``): at each uncovered cell in a drawn order, a rectangle drawn
   evenly among those of 2 to ``cells // AREA_SHARE`` uncovered cells holding it (at least
   ``MIN_MOST``); where none fits, the 1 x 1 left joins a neighbour (``without_singles``).
2. **Clues** (``clue_cell``): each rectangle's clue at a cell drawn by the level's
   ``PLACEMENT``: a corner for ``easy`` (its rectangle has fewer alternatives), anywhere for
   ``medium``, the middle for ``hard`` and ``expert`` (more alternatives).
3. **Make it unique** (``attempt``): the rules of explain mode run to their fixpoint on the
   candidate masks (``logic.rule_level``, the level explain mode's path grades). When they
   place every rectangle the puzzle is unique and its level known, without a search. When
   they get stuck, the engine searches with limit 2: one solution makes an ``expert``
   puzzle; two move the clue of a rectangle the other solution gives its clue differently to
   a cell of it outside that other rectangle (``move_clue``), and the rules run again. Past
   ``FIXES_PER_RECTANGLE`` moves per rectangle the attempt is given up.
4. **Easy** attempts first move clues (``make_easy``): where the easy rule gets stuck, a clue
   it left open goes to a cell of its rectangle where that rectangle is the only one of its
   area left; the easy rule then mostly places every rectangle.
   **Hard and expert** puzzles hold a puzzle of their own at that level (``level_block``: on a
   square of ``BLOCKS``' side, of rectangles of its most cells, made by the same attempts) at
   a drawn place; the rest is drawn around it. The rules, placing the rectangles around it,
   wall it in and need on it what it needs on its own: at 20 x 20 one attempt in fifteen is
   hard and one in fifty expert without it, most of them with it.
5. **Retry**: a puzzle of another level than the one asked starts a new attempt, up to
   ``MAX_ATTEMPTS`` (more on small grids: ``ATTEMPT_CELLS``); past them the answer is the
   nearest found (easier preferred), with a ``note``. Small grids (5 x 6) rarely need
   overlaps or guesses, so ``hard`` and ``expert`` may be out of reach on them.
6. **Grade** (``grade``): explain mode's grade of the answer (its whole path, guesses and
   their refutations included), and its number of ``clues``.

Determinism: ``GenerateArgs.rng`` is the only source of chance; choices are drawn from lists
in a fixed order; no float decides anything.
"""

from __future__ import annotations

import bisect
import itertools
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
# The largest rectangle drawn is the grid's cells divided by this (at least ``MIN_MOST``), as
# in Tatham's Rectangles (up to 16 cells on 10 x 10, 66 on 20 x 20).
AREA_SHARE = 6
MIN_MOST = 4
# Where a rectangle's clue goes, by level (see the module docstring).
PLACEMENT = {"easy": "corner", "medium": "anywhere", "hard": "middle", "expert": "middle"}
# Attempts before the nearest level found is the answer: ATTEMPT_CELLS // cells, at least
# MAX_ATTEMPTS (an attempt costs about its cells: 2 ms at 10 x 10, 7 ms at 20 x 20).
MAX_ATTEMPTS = 60
ATTEMPT_CELLS = 20_000
# Shapes drawn for a cell before its fitting rectangles are counted (``partition``).
DRAWS_BEFORE_COUNTING = 8
# A hard or expert puzzle on a grid of sides above its block's holds a puzzle of its own of
# that level (``level_block``) on a square of BLOCKS' side, of rectangles of BLOCKS' most
# cells at most, made in BLOCK_ATTEMPTS attempts at most and used for BLOCK_REUSE attempts.
BLOCKS = {"hard": (6, 6), "expert": (5, 3)}
BLOCK_ATTEMPTS = 400
BLOCK_REUSE = 8
# Clue moves per rectangle an easy attempt may make (``make_easy``).
EASY_MOVES_PER_RECTANGLE = 1
# Partitions drawn per attempt until one has no 1 x 1 rectangle left after the repairs.
MAX_PARTITIONS = 20
# Clue moves one attempt may make per rectangle before it is given up.
FIXES_PER_RECTANGLE = 3

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


def grade(field: Field, rectangles: list[Rectangle]) -> dict[str, Any]:
    """Explain mode's grade of a unique puzzle (``level``, ``score``, ``techniques``) whose
    solution is ``rectangles`` (in clue order), and its number of ``clues``."""
    solution = [
        field.rectangles[clue].index(rectangle) for clue, rectangle in enumerate(rectangles)
    ]
    steps = shikaku_logic.explain(field.copy(), solution, True)
    return {**shikaku_logic.grade(steps), "clues": len(field.clues)}


def free_run(free: int, cols: int, row: int, col: int) -> tuple[int, int] | None:
    """The first and last column of the free cells of ``row`` around ``col``, or None when
    ``col`` is not free there."""
    base = row * cols
    if not free >> (base + col) & 1:
        return None
    first = last = col
    while first > 0 and free >> (base + first - 1) & 1:
        first -= 1
    while last < cols - 1 and free >> (base + last + 1) & 1:
        last += 1
    return first, last


def placements(
    rows: int, cols: int, free: int, cell: int, most: int
) -> tuple[list[tuple[int, int, int, int, int]], int]:
    """The rectangles of 2 to ``most`` free cells holding ``cell``, counted by their rows:
    ``(top, height, first, last, count)``, ``count`` of them within columns ``first`` to
    ``last``, and their total."""
    row, col = divmod(cell, cols)
    # Free runs of the rows upwards and downwards from the cell's, while its column is free.
    above: list[tuple[int, int]] = []
    for line in range(row, -1, -1):
        run = free_run(free, cols, line, col)
        if run is None:
            break
        above.append(run)
    below: list[tuple[int, int]] = []
    for line in range(row, rows):
        run = free_run(free, cols, line, col)
        if run is None:
            break
        below.append(run)
    counted = []
    total = 0
    upper_first, upper_last = 0, cols - 1
    for up, (run_first, run_last) in enumerate(above):
        upper_first, upper_last = max(upper_first, run_first), min(upper_last, run_last)
        first, last = upper_first, upper_last
        for down, (run_first, run_last) in enumerate(below):
            height = up + down + 1
            if height > most:
                break
            first, last = max(first, run_first), min(last, run_last)
            count = 0
            for width in range(1, min(last - first + 1, most // height) + 1):
                if height * width >= 2:
                    count += min(col, last - width + 1) - max(first, col - width + 1) + 1
            if count:
                counted.append((row - up, height, first, last, count))
                total += count
    return counted, total


def nth_placement(
    counted: list[tuple[int, int, int, int, int]], pick: int, col: int, most: int
) -> Rectangle:
    """The ``pick``-th rectangle that ``placements`` counted (column ``col`` holds the cell)."""
    for top, height, first, last, count in counted:
        if pick >= count:
            pick -= count
            continue
        for width in range(1, min(last - first + 1, most // height) + 1):
            if height * width < 2:
                continue
            lowest = max(first, col - width + 1)
            count = min(col, last - width + 1) - lowest + 1
            if pick < count:
                return top, lowest + pick, height, width
            pick -= count
    raise ValueError("pick is past the placements counted")


def partition(
    rows: int, cols: int, most: int, args: GenerateArgs, taken: int = 0
) -> list[Rectangle]:
    """Random rectangles covering the grid: at each uncovered cell in a drawn order, one
    drawn evenly among the rectangles of 2 to ``most`` uncovered cells holding it (a 1 x 1
    where none fits).

    The draw first tries ``DRAWS_BEFORE_COUNTING`` times a shape and an offset drawn evenly
    among those of every shape (each shape weighs its area, its number of offsets): the first
    that fits the uncovered cells is even among those that do. Past them ``placements``
    counts the fitting ones and draws among them."""
    repeat = [0]
    for height in range(1, rows + 1):
        repeat.append(repeat[-1] | 1 << ((height - 1) * cols))
    shapes = [
        (height, width)
        for height in range(1, rows + 1)
        for width in range(1, cols + 1)
        if 2 <= height * width <= most
    ]
    ends = list(itertools.accumulate(height * width for height, width in shapes))
    free = ((1 << (rows * cols)) - 1) & ~taken
    order = list(range(rows * cols))
    args.rng.shuffle(order)
    rectangles: list[Rectangle] = []
    for cell in order:
        if not free >> cell & 1:
            continue
        row, col = divmod(cell, cols)
        rectangle = None
        for _draw in range(DRAWS_BEFORE_COUNTING if shapes else 0):
            pick = args.rng.randrange(ends[-1])
            shape = bisect.bisect_right(ends, pick)
            height, width = shapes[shape]
            offset = pick - (ends[shape] - height * width)
            top, left = row - offset // width, col - offset % width
            if top < 0 or left < 0 or top + height > rows or left + width > cols:
                continue
            mask = ((1 << width) - 1) * repeat[height] << (top * cols + left)
            if free & mask == mask:
                rectangle = (top, left, height, width)
                break
        if rectangle is None:
            counted, total = placements(rows, cols, free, cell, most)
            if not total:
                free &= ~(1 << cell)
                rectangles.append((row, col, 1, 1))
                continue
            rectangle = nth_placement(counted, args.rng.randrange(total), col, most)
        top, left, height, width = rectangle
        free &= ~(((1 << width) - 1) * repeat[height] << (top * cols + left))
        rectangles.append(rectangle)
    return rectangles


def without_singles(rectangles: list[Rectangle], args: GenerateArgs) -> list[Rectangle] | None:
    """``rectangles`` with each 1 x 1 joined to a neighbour: the neighbour is cut into strips
    across the side they share, the strip beside the single cell taking it in (a neighbour
    one cell thick just grows; the neighbours cut in the fewest pieces are drawn from). None
    when a single cell has no neighbour to join without leaving another single cell."""
    rectangles = list(rectangles)
    while True:
        singles = [
            index for index, (_t, _l, height, width) in enumerate(rectangles) if height * width == 1
        ]
        if not singles:
            return rectangles
        single = singles[0]
        row, col, _height, _width = rectangles[single]
        choices = []
        for index, (top, left, height, width) in enumerate(rectangles):
            if left + width == col or left == col + 1:
                if not top <= row < top + height:
                    continue
                # Side by side: rows above the cell's, the cell's row with it, rows below.
                pieces = [(row, min(left, col), 1, width + 1)]
                if row > top:
                    pieces.append((top, left, row - top, width))
                if row < top + height - 1:
                    pieces.append((row + 1, left, top + height - 1 - row, width))
            elif top + height == row or top == row + 1:
                if not left <= col < left + width:
                    continue
                pieces = [(min(top, row), col, height + 1, 1)]
                if col > left:
                    pieces.append((top, left, height, col - left))
                if col < left + width - 1:
                    pieces.append((top, col + 1, height, left + width - 1 - col))
            else:
                continue
            if all(height * width >= 2 for _t, _l, height, width in pieces):
                choices.append((index, pieces))
        if not choices:
            return None
        # The fewest pieces: as few clues added as can be.
        fewest = min(len(pieces) for _index, pieces in choices)
        index, pieces = args.rng.choice(
            [(index, pieces) for index, pieces in choices if len(pieces) == fewest]
        )
        rectangles = [
            rectangle for other, rectangle in enumerate(rectangles) if other not in (single, index)
        ] + pieces


def clue_cell(rectangle: Rectangle, placement: str, args: GenerateArgs) -> tuple[int, int]:
    """A drawn cell of ``rectangle``: at a corner, anywhere, or in the middle (one of the
    middle rows and columns)."""
    top, left, height, width = rectangle
    if placement == "corner":
        return top + args.rng.choice((0, height - 1)), left + args.rng.choice((0, width - 1))
    if placement == "middle":
        return (
            top + (height - 1 + args.rng.randrange(2)) // 2,
            left + (width - 1 + args.rng.randrange(2)) // 2,
        )
    spot = args.rng.randrange(height * width)
    return top + spot // width, left + spot % width


class Boards:
    """Explain boards of puzzles of one size, from each clue's rectangles of its area holding
    its cell (the kind's ``candidates`` of the clue alone, kept across the attempts' many
    puzzles), less those holding another clue: the kind's candidates of the whole puzzle."""

    def __init__(self, rows: int, cols: int, candidates: Candidates) -> None:
        self.rows = rows
        self.cols = cols
        self.candidates = candidates
        self.known: dict[Clue, tuple[list[Rectangle], list[int]]] = {}

    def alone(self, clue: Clue, monitor: Monitor) -> tuple[list[Rectangle], list[int]]:
        """The rectangles of the clue's area holding its cell, and their masks."""
        if clue not in self.known:
            alone, alone_masks, _in_area = self.candidates(self.rows, self.cols, [clue], monitor)
            self.known[clue] = alone[0], alone_masks[0]
        return self.known[clue]

    def field(self, clues: list[Clue], monitor: Monitor) -> Field:
        cols = self.cols
        clue_cells = 0
        for row, col, _area in clues:
            clue_cells |= 1 << (row * cols + col)
        rectangles = []
        masks = []
        for clue in clues:
            every, every_mask = self.alone(clue, monitor)
            others = clue_cells & ~(1 << (clue[0] * cols + clue[1]))
            kept = [index for index, mask in enumerate(every_mask) if not mask & others]
            rectangles.append([every[index] for index in kept])
            masks.append([every_mask[index] for index in kept])
        return Field(self.rows, cols, clues, rectangles, masks)


def level_block(
    aim: str, candidates: Candidates, args: GenerateArgs
) -> list[tuple[Rectangle, Clue]]:
    """The rectangles and clues of a puzzle of its own at level ``aim`` on a square of
    ``BLOCKS[aim]``'s side, of rectangles of its most cells; none when none came in
    ``BLOCK_ATTEMPTS`` attempts."""
    side, most = BLOCKS[aim]
    small = Boards(side, side, candidates)
    for _attempt in range(BLOCK_ATTEMPTS):
        found = attempt(side, side, aim, small, args, (args.fraction,) * 2, most=most)
        if found is not None and found[0] == aim:
            _level, clues, rectangles, _field = found
            return list(zip(rectangles, clues, strict=True))
    return []


def attempt(
    rows: int,
    cols: int,
    aim: str,
    boards: Boards,
    args: GenerateArgs,
    share: tuple[float, float],
    block: list[tuple[Rectangle, Clue]] | None = None,
    most: int | None = None,
) -> tuple[str, list[Clue], list[Rectangle], Field] | None:
    """One partition made unique by moving clues: (its level, the clues, the rectangles in
    clue order, its explain board), or None when the fixes ran out. ``block``: a
    ``level_block`` placed first at a drawn place; ``most``: the largest rectangle (else a
    ``AREA_SHARE`` of the grid)."""
    most = most or max(MIN_MOST, rows * cols // AREA_SHARE)
    given: dict[Rectangle, tuple[int, int]] = {}
    taken = 0
    if block:
        side = max(top + height for (top, _left, height, _width), _clue in block)
        down = args.rng.randrange(rows - side + 1)
        right = args.rng.randrange(cols - side + 1)
        for (top, left, height, width), (row, col, _area) in block:
            given[top + down, left + right, height, width] = row + down, col + right
            for line in range(top + down, top + down + height):
                taken |= ((1 << width) - 1) << (line * cols + left + right)
    rectangles = None
    for _drawn in range(MAX_PARTITIONS):
        drawn = list(given) + partition(rows, cols, most, args, taken)
        rectangles = without_singles(drawn, args)
        if rectangles is not None:
            break
    if rectangles is None:
        return None
    cells = [
        given.get(rectangle) or clue_cell(rectangle, PLACEMENT[aim], args)
        for rectangle in rectangles
    ]
    if aim == DIFFICULTIES[0]:
        make_easy(rectangles, cells, boards, args)
    fixes = FIXES_PER_RECTANGLE * len(rectangles)
    low, high = share
    for fix in range(fixes + 1):
        clues = [
            (row, col, height * width)
            for (row, col), (_top, _left, height, width) in zip(cells, rectangles, strict=True)
        ]
        stage = args.stage()
        field = boards.field(clues, stage)
        args.stop_if_cancelled(stage)
        level = shikaku_logic.rule_level(field)
        if level != DIFFICULTIES[-1]:
            # The rules place every rectangle: the puzzle has no other solution.
            args.advance(0, low + (high - low) * fix / (fixes + 1))
            return level, clues, rectangles, field
        stage = args.stage()
        result = propagate.search(
            propagate.PartitionProblem(rows * cols, field.masks), limit=2, monitor=stage
        )
        args.stop_if_cancelled(stage)
        args.advance(result.stats["nodes"], low + (high - low) * fix / (fixes + 1))
        solutions = [
            [field.rectangles[clue][choice] for clue, choice in enumerate(solution)]
            for solution in result.solutions
        ]
        if len(solutions) == 1:
            return level, clues, rectangles, field
        # The partition is one of the two solutions found.
        other = solutions[1] if solutions[0] == rectangles else solutions[0]
        move_clue(rectangles, other, cells, args)
    return None


def make_easy(
    rectangles: list[Rectangle], cells: list[tuple[int, int]], boards: Boards, args: GenerateArgs
) -> bool:
    """Move clues (in ``cells``) until the easy rule (one rectangle left) alone places every
    rectangle, and say whether it does: where it gets stuck, a clue it left open moves to a
    cell of its rectangle where that rectangle is the only one of its area holding no other
    clue and no placed cell. Up to ``EASY_MOVES_PER_RECTANGLE`` moves per rectangle."""
    cols = boards.cols
    for _move in range(EASY_MOVES_PER_RECTANGLE * len(rectangles) + 1):
        clues = [
            (row, col, height * width)
            for (row, col), (_top, _left, height, width) in zip(cells, rectangles, strict=True)
        ]
        stage = args.stage()
        field = boards.field(clues, stage)
        args.stop_if_cancelled(stage)
        level, open_clues, covered = shikaku_logic.rule_closure(field, DIFFICULTIES[0])
        if level is not None:
            return True
        clue_cells = 0
        for row, col in cells:
            clue_cells |= 1 << (row * cols + col)
        moves = []
        for clue in open_clues:
            top, left, height, width = rectangles[clue]
            row, col = cells[clue]
            blocked = covered | clue_cells & ~(1 << (row * cols + col))
            for spot_row in range(top, top + height):
                for spot_col in range(left, left + width):
                    _every, masks = boards.alone((spot_row, spot_col, height * width), stage)
                    if sum(1 for mask in masks if not mask & blocked) == 1:
                        moves.append((clue, (spot_row, spot_col)))
            if moves:
                break
        if not moves:
            return False
        clue, cell = args.rng.choice(moves)
        cells[clue] = cell
    return False


def move_clue(
    rectangles: list[Rectangle],
    other: list[Rectangle],
    cells: list[tuple[int, int]],
    args: GenerateArgs,
) -> None:
    """Move the clue of a drawn rectangle that the ``other`` solution gives its clue
    differently to a drawn cell of it out of that other rectangle (in ``cells``)."""
    index = args.rng.choice(
        [index for index, rectangle in enumerate(rectangles) if other[index] != rectangle]
    )
    top, left, height, width = rectangles[index]
    other_top, other_left, other_height, other_width = other[index]
    cells[index] = args.rng.choice(
        [
            (row, col)
            for row in range(top, top + height)
            for col in range(left, left + width)
            if not (
                other_top <= row < other_top + other_height
                and other_left <= col < other_left + other_width
            )
        ]
    )


def generate(puzzle: Any, candidates: Candidates, args: GenerateArgs) -> Generated:
    """A Shikaku of the size asked with one solution, graded at ``args.difficulty`` if
    reachable within ``MAX_ATTEMPTS`` (see the module docstring)."""
    rows, cols = read_sides(puzzle)
    target = DIFFICULTIES.index(args.difficulty)
    boards = Boards(rows, cols, candidates)
    attempts = max(MAX_ATTEMPTS, ATTEMPT_CELLS // (rows * cols))
    blocks = args.difficulty in BLOCKS and min(rows, cols) > BLOCKS[args.difficulty][0]
    block: list[tuple[Rectangle, Clue]] | None = None
    # (target minus the level's index, clues, rectangles, explain board)
    best: tuple[int, list[Clue], list[Rectangle], Field] | None = None
    made = 0
    for made in range(1, attempts + 1):
        share = ((made - 1) / attempts, made / attempts)
        if blocks and made % BLOCK_REUSE == 1:
            block = level_block(args.difficulty, candidates, args) or None
        found = attempt(rows, cols, args.difficulty, boards, args, share, block)
        if found is None:
            continue
        level, clues, rectangles, field = found
        distance = target - DIFFICULTIES.index(level)
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
    if distance:
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
