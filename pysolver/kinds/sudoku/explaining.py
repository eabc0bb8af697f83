"""Explaining Sudoku puzzles and giving hints (``"mode": "explain"``, ``"mode": "hint"``).

Requests: ``{"kind": "sudoku", "mode": "explain", "puzzle": {"grid": ...}}`` and
``{"kind": "sudoku", "mode": "hint", "puzzle": {"grid": givens, "entries": the player's
digits (the grid's format, blanks where the player wrote nothing), "candidates": pencil
marks}}``. ``candidates`` is optional: n rows of n lists of digits; an empty list is a cell
without marks. Jigsaw regions and Sudoku X diagonals are houses like boxes; killer cages are
refused. Steps give rows and columns 0-based and digits 1..n, as solutions and trace steps do:
``place`` and ``eliminate`` are ``[r, c, d]``, ``cells`` ``[r, c]``; sentences count from 1.

This module translates; the techniques, the path, the guesses and the grade are
``pysolver.logic``'s. The solution a path reaches is the grid it fills when it needs no guess
(the techniques alone prove it the only solution), else the ``masks`` engine's search of the
board at the first guess (the steps before it are sound, so its solutions are the puzzle's).
A hint searches the givens with the kind's ``Solver`` (its encoding, passed in by
``pysolver.kinds.sudoku``, which this module does not import) and first compares the player's
state with the solution (one consistent with the entries when the puzzle has several): a wrong
digit, or pencil marks without the right digit, give the step ``mistake``; a full right grid
gives ``solved``; else the hint is the path's next step from the player's board, marks
applied.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pysolver.engines import masks
from pysolver.kinds.sudoku import path as sudoku_path
from pysolver.kinds.sudoku.board import Grid, step_json
from pysolver.kinds.sudoku.cages import masks_cages
from pysolver.kinds.sudoku.techniques import PLAIN_TECHNIQUES, TECHNIQUES
from pysolver.logic.step import Step
from pysolver.midend.plan import ExplainArgs, Explained, Hinted
from pysolver.protocol import puzzle_error, require_int, require_list

# Up to two solutions of the values (row by row, 0 blank) and the engine's nodes: the kind's
# encoding searched by its default engine. The values may clash (a player's wrong entries):
# then no solution.
Solver = Callable[[list[int], ExplainArgs], list[list[int]]]


@dataclass
class Board:
    """A parsed puzzle: its ``grid`` of houses with the givens placed, the givens, and the
    kind's ``solve``."""

    n: int
    grid: Grid
    givens: list[int]
    solve: Solver


def solution_of(board: Board, values: list[int], args: ExplainArgs) -> tuple[list[int], bool]:
    """The first solution of ``values`` and whether it is the only one; no solution is an
    ``invalid_puzzle`` error."""
    solutions = board.solve(values, args)
    if not solutions:
        raise puzzle_error(
            "this puzzle has no solution, so there is no path to explain", "puzzle.grid"
        )
    return solutions[0], len(solutions) == 1


def explain(board: Board, args: ExplainArgs) -> Explained:
    """The whole path from the givens, its grade and the solution it reaches. The engine
    searches only when the path needs a guess (or the givens clash), from the board as the
    path has narrowed it: a path of techniques alone reaches the only solution."""
    found: list[tuple[list[int], bool]] = []

    def solve(grid: Grid) -> tuple[list[int], bool]:
        if not found:
            found.append(solution_from(grid, args))
        return found[0]

    grid = board.grid.copy()
    techniques = TECHNIQUES if grid.cages else PLAIN_TECHNIQUES
    steps = sudoku_path.explain_lazily(grid, solve, args.advance, techniques)
    if found or not filled_right(grid):
        solution, unique = solve(grid)
    else:
        solution, unique = grid.values, True
    n = board.n
    return Explained(
        steps=[step_json(step, n) for step in steps],
        grade=sudoku_path.grade(steps),
        solution=[solution[row * n : (row + 1) * n] for row in range(n)],
        unique=unique,
    )


def solution_from(grid: Grid, args: ExplainArgs) -> tuple[list[int], bool]:
    """The first solution of ``grid``'s candidates (the ``masks`` engine's search over its
    houses and killer cages) and whether it is the only one; none is an ``invalid_puzzle``
    error."""
    n = grid.n
    stage = args.stage()
    if grid.cages:
        cages = masks_cages(grid.shape, grid.values, grid.cages)
        problem = masks.CellsProblem(n * n, n, grid.candidates.copy(), grid.houses, cages)
        result = masks.search(problem, limit=2, monitor=stage)
    else:
        # The grid's own boards are the root ``search`` would lay out from the candidates.
        boards, solved = grid.settled_boards()
        result = masks.search_boards(boards, solved, grid.shape.layout, limit=2, monitor=stage)
    args.nodes += result.stats["nodes"]
    args.stop_if_cancelled(stage)
    if not result.solutions:
        raise puzzle_error(
            "this puzzle has no solution, so there is no path to explain", "puzzle.grid"
        )
    return result.solutions[0], result.count == 1


def filled_right(grid: Grid) -> bool:
    """Whether every house of a full ``grid`` holds every digit (placements never clash;
    givens may)."""
    full = (1 << grid.n) - 1
    values = grid.values
    for cells in grid.houses:
        seen = 0
        for cell in cells:
            seen |= 1 << (values[cell] - 1)
        if seen != full:
            return False
    return True


def read_marks(value: Any, n: int) -> list[int]:
    """``candidates``: n rows of n lists of digits, as a mask per cell (0: no marks)."""
    rows = require_list(value, "puzzle.candidates")
    if len(rows) != n:
        raise puzzle_error(
            f"candidates has {len(rows)} rows; the grid has {n}", "puzzle.candidates"
        )
    masks = []
    for r, row in enumerate(rows):
        path = f"puzzle.candidates[{r}]"
        row = require_list(row, path)
        if len(row) != n:
            raise puzzle_error(f"row {r + 1} of candidates has {len(row)} cells, not {n}", path)
        for c, cell in enumerate(row):
            mask = 0
            for index, digit in enumerate(require_list(cell, f"{path}[{c}]")):
                digit = require_int(digit, f"{path}[{c}][{index}]", minimum=1, maximum=n)
                mask |= 1 << (digit - 1)
            masks.append(mask)
    return masks


def hint(board: Board, entries: list[int], marks: list[int] | None, args: ExplainArgs) -> Hinted:
    """The next step from the player's ``entries`` (values row by row, 0 blank) and pencil
    ``marks`` (a mask per cell, 0 for none), or the mistake in them."""
    n = board.n
    solution, unique = solution_of(board, board.givens, args)
    entered = [cell for cell, digit in enumerate(entries) if digit and digit != board.givens[cell]]
    wrong = [cell for cell in entered if entries[cell] != solution[cell]]
    if wrong and not unique:
        # Several solutions: the entries are right when one of them holds them all.
        values = [digit or entries[cell] for cell, digit in enumerate(board.givens)]
        found = board.solve(values, args)
        if found:
            solution, wrong = found[0], []
    grid = board.grid.copy()
    if not wrong:
        for cell in entered:
            grid.place(cell, entries[cell])
    if wrong:
        return mistake(
            board.grid,
            wrong,
            ("holds a digit that does not belong there", "hold digits that do not belong there"),
            n,
        )
    if marks is not None:
        missed = [
            cell
            for cell, mask in enumerate(marks)
            if mask and not grid.values[cell] and not mask >> (solution[cell] - 1) & 1
        ]
        if missed:
            return mistake(
                board.grid,
                missed,
                (
                    "has pencil marks without the digit that belongs there",
                    "have pencil marks without the digits that belong there",
                ),
                n,
            )
        for cell, mask in enumerate(marks):
            if mask and not grid.values[cell]:
                grid.restrict(cell, mask)
    steps = [step_json(step, n) for step in sudoku_path.hint(grid, solution, unique)]
    if not steps:
        solved = Step("solved", [], [], [], "The grid is full and every digit is right.")
        return Hinted(step_json(solved, n), [])
    return Hinted(steps[0], steps)


def mistake(grid: Grid, cells: list[int], what: tuple[str, str], n: int) -> Hinted:
    """The ``mistake`` step naming ``cells``; ``what`` they do wrong (one cell, several)."""
    shown = cells[:5]
    more = f" (and {len(cells) - 5} more)" if len(cells) > 5 else ""
    subject = grid.cells_named(shown)
    verb = what[0] if len(cells) == 1 else what[1]
    text = f"{subject[0].upper()}{subject[1:]}{more} {verb}."
    step = step_json(Step("mistake", [], [], cells, text), n)
    return Hinted(step, [])
