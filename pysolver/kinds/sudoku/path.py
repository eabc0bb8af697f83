"""The Sudoku path from a board to its solution, its grade, and the next step from a player's
board (a hint).

``explain``: while the board is open, the first technique of ``TECHNIQUES`` that fires makes
the next step; when none does, a **guess**: the open cell with the fewest candidates (the first
in reading order among ties) gets its digit from the solution, and the step names the other
candidates as ``alternatives``, each shown to fail: by a dead end that naked and hidden singles
reach from it when they do (``MAX_REFUTED`` of them are followed), else by the search (the
puzzle has one solution). Every step keeps the solution on the board, so the path reaches it.

``explain_lazily`` asks for the solution only at the first guess: a path of techniques alone
(every one a sound deduction) proves the grid it fills the only solution.

``grade``: ``techniques`` counts each technique's steps (in the order of ``TECHNIQUES``, guess
last), ``score`` adds their points, and ``level`` is the level of the hardest technique used
(``easy`` when singles alone solve the puzzle, ``fiendish`` when it needs chains, ``expert``
when it needs a guess).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pysolver.kinds.sudoku.board import Grid, digits_of, listed
from pysolver.kinds.sudoku.techniques import ALL, GUESS, TECHNIQUES, hidden_single, naked_single
from pysolver.logic import step as steps_module
from pysolver.logic.step import Step, Technique

# The most singles a guess's alternative is followed to find its dead end, and the most
# alternatives followed (a guess is made at a cell with the fewest candidates: two, mostly;
# an empty 25x25 grid would otherwise follow 24 alternatives at every guess).
MAX_REFUTATION_STEPS = 400
MAX_REFUTED = 3


def next_step(grid: Grid, techniques: tuple[Technique[Grid], ...] = TECHNIQUES) -> Step | None:
    """The first step the first technique that fires finds, or None (a guess is needed)."""
    for technique in techniques:
        step = technique.find(grid)
        if step is not None:
            return step
    return None


def explain(
    grid: Grid,
    solution: list[int],
    unique: bool,
    advance: Callable[[float], None] | None = None,
    techniques: tuple[Technique[Grid], ...] = TECHNIQUES,
) -> list[Step]:
    """The steps from ``grid`` to ``solution`` (values row by row), applied to ``grid``;
    ``advance`` hears the share of the open cells filled before each step (progress, cancel)."""
    return explain_lazily(grid, lambda _grid: (solution, unique), advance, techniques)


def explain_lazily(
    grid: Grid,
    solve: Callable[[Grid], tuple[list[int], bool]],
    advance: Callable[[float], None] | None = None,
    techniques: tuple[Technique[Grid], ...] = TECHNIQUES,
) -> list[Step]:
    """``explain``, calling ``solve`` (the solution of the board it is given and whether it is
    the only one) only when a guess needs it: a path of techniques alone proves its end the
    only solution. Every step is sound, so the board at the first guess has the puzzle's
    solutions, with fewer candidates to search."""
    steps = []
    open_at_start = grid.open.bit_count() or 1
    known: tuple[list[int], bool] | None = None
    while not grid.solved():
        if advance is not None:
            advance(1 - grid.open.bit_count() / open_at_start)
        step = next_step(grid, techniques)
        if step is None:
            if known is None:
                known = solve(grid)
            step = guess(grid, *known)
        grid.apply(step)
        steps.append(step)
    return steps


def solvable_without_guess(grid: Grid, techniques: tuple[Technique[Grid], ...]) -> bool:
    """Whether ``techniques`` alone fill ``grid`` (applied to it)."""
    while not grid.solved():
        step = next_step(grid, techniques)
        if step is None:
            return False
        grid.apply(step)
    return True


def guess(grid: Grid, solution: list[int], unique: bool) -> Step:
    """A branch of the search: the solution's digit at the open cell with fewest candidates."""
    cell = min(
        (cell for cell, value in enumerate(grid.values) if not value),
        key=lambda cell: (bin(grid.candidates[cell]).count("1"), cell),
    )
    digit = solution[cell]
    others = [other for other in digits_of(grid.candidates[cell]) if other != digit]
    name = grid.cell_name(cell)
    sentences = [
        f"No technique applies: guess {digit} at {name}, one of its candidates "
        f"{listed([str(d) for d in digits_of(grid.candidates[cell])])}."
    ]
    for index, other in enumerate(others):
        dead_end = refute(grid, cell, other) if index < MAX_REFUTED else None
        if dead_end is not None:
            sentences.append(f"With {other} there instead, singles reach a dead end: {dead_end}.")
        elif unique:
            sentences.append(f"With {other} there instead, the search finds no solution.")
    if not unique:
        sentences.append(
            "The puzzle has more than one solution; this path follows the one found first."
        )
    return Step(
        GUESS.name,
        [(cell, digit)],
        [],
        [cell],
        " ".join(sentences),
        [(cell, other) for other in others],
    )


def refute(grid: Grid, cell: int, digit: int) -> str | None:
    """The dead end naked and hidden singles reach after ``digit`` is put at ``cell``, or None
    when they stop (or run ``MAX_REFUTATION_STEPS``) without one."""
    trial = grid.copy()
    trial.place(cell, digit)
    for _ in range(MAX_REFUTATION_STEPS):
        dead_end = trial.contradiction()
        if dead_end is not None:
            return dead_end
        step = naked_single(trial) or hidden_single(trial)
        if step is None:
            return None
        trial.apply(step)
    return None


def grade(steps: list[Step]) -> dict[str, Any]:
    """``level``, ``score`` and ``techniques`` ({name: times}) of a path (module docstring)."""
    return steps_module.grade(steps, ALL)


def hint(grid: Grid, solution: list[int], unique: bool) -> list[Step]:
    """The steps from a player's board up to and including the first that places a digit
    (the hint is the first; the eliminations before a placement matter to a player who keeps
    no pencil marks). Applied to ``grid``; empty when the board is full."""
    steps: list[Step] = []
    while not grid.solved():
        step = next_step(grid) or guess(grid, solution, unique)
        grid.apply(step)
        steps.append(step)
        if step.place:
            break
    return steps
