"""Shikaku as a person solves it: each clue's candidate rectangles, narrowed by three rules,
and a guess where none applies.

The board (``Field``) holds, per clue, the candidate rectangles still possible (indices into
the clue's list: those of its area holding its cell and no other clue) and the one placed.
Placing a rectangle removes every other clue's candidates that overlap it; that removal is
part of the placement, never listed as an elimination. A step's ``place`` and ``eliminate``
are ``(clue, candidate)`` pairs; its ``cells`` are cell numbers (``row * cols + col``).

The rules, easiest first (``TECHNIQUES``):

- **one rectangle left**: a clue with one candidate left takes it (``easy``);
- **only one clue reaches a cell**: an open cell that the candidates of just one clue cover
  belongs to it, so that clue's candidates missing the cell go (``medium``);
- **overlap**: the cells every candidate of a clue covers are that clue's, so the other clues'
  candidates covering them go (``hard``);
- **guess** (``expert``): the open clue with the fewest candidates (the first among ties)
  takes the solution's rectangle; the step names the others as ``alternatives``, each shown
  to fail by a dead end the rules reach from it when they do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pysolver.logic import step as steps_module
from pysolver.logic.step import Step, Technique

Rectangle = tuple[int, int, int, int]  # top, left, height, width
Clue = tuple[int, int, int]  # row, col, area
# The most rule steps a guess's alternative is followed to find its dead end.
MAX_REFUTATION_STEPS = 200
# The most of a guess's alternatives followed to a dead end (the others: "the search shows").
MAX_REFUTED = 4


class Field:
    """A Shikaku grid's clues, their candidate rectangles, and what is placed so far."""

    def __init__(
        self,
        rows: int,
        cols: int,
        clues: list[Clue],
        rectangles: list[list[Rectangle]],
        masks: list[list[int]],
    ) -> None:
        self.rows = rows
        self.cols = cols
        self.clues = clues
        self.rectangles = rectangles
        self.masks = masks
        self.alive = [list(range(len(clue_masks))) for clue_masks in masks]
        self.placed: list[int | None] = [None] * len(clues)
        self.covered = 0

    def copy(self) -> Field:
        twin = object.__new__(Field)
        twin.__dict__.update(self.__dict__)
        twin.alive = [candidates.copy() for candidates in self.alive]
        twin.placed = self.placed.copy()
        return twin

    def cell_name(self, cell: int) -> str:
        row, col = divmod(cell, self.cols)
        return f"row {row + 1}, column {col + 1}"

    def clue_name(self, clue: int) -> str:
        row, col, area = self.clues[clue]
        return f"the {area} at row {row + 1}, column {col + 1}"

    def clue_cell(self, clue: int) -> int:
        row, col, _area = self.clues[clue]
        return row * self.cols + col

    def rectangle_name(self, clue: int, candidate: int) -> str:
        return rectangle_words(self.rectangles[clue][candidate])

    def open_clues(self) -> list[int]:
        return [clue for clue, placed in enumerate(self.placed) if placed is None]

    def reach(self, clue: int) -> int:
        """The cells some candidate of ``clue`` covers."""
        mask = 0
        for candidate in self.alive[clue]:
            mask |= self.masks[clue][candidate]
        return mask

    def place(self, clue: int, candidate: int) -> None:
        mask = self.masks[clue][candidate]
        self.placed[clue] = candidate
        self.alive[clue] = [candidate]
        self.covered |= mask
        for other in self.open_clues():
            masks = self.masks[other]
            self.alive[other] = [index for index in self.alive[other] if not masks[index] & mask]

    def apply(self, step: Step) -> None:
        for clue, candidate in step.eliminate:
            self.alive[clue].remove(candidate)
        for clue, candidate in step.place:
            self.place(clue, candidate)

    def solved(self) -> bool:
        return None not in self.placed

    def contradiction(self) -> str | None:
        """Why this board cannot be finished (a clue without candidates, an open cell no clue
        reaches), or None when no such plain dead end shows."""
        reached = self.covered
        for clue in self.open_clues():
            if not self.alive[clue]:
                return f"{self.clue_name(clue)} would have no rectangle left"
            reached |= self.reach(clue)
        unreached = ((1 << (self.rows * self.cols)) - 1) & ~reached
        if unreached:
            cell = (unreached & -unreached).bit_length() - 1
            return f"{self.cell_name(cell)} could belong to no clue"
        return None


def rectangle_words(rectangle: Rectangle) -> str:
    """``rows 2-4, column 5``: a rectangle in words, counting from 1."""
    top, left, height, width = rectangle
    rows = f"row {top + 1}" if height == 1 else f"rows {top + 1}-{top + height}"
    cols = f"column {left + 1}" if width == 1 else f"columns {left + 1}-{left + width}"
    return f"{rows}, {cols}"


def more_cells(count: int) -> str:
    """`` and 3 more cells`` after the first of ``count`` cells named."""
    if count <= 1:
        return ""
    return f" and {count - 1} more cell{'s' if count > 2 else ''}"


def cells_of(mask: int) -> list[int]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def one_rectangle_left(field: Field) -> Step | None:
    """A clue with one candidate left takes it."""
    for clue in field.open_clues():
        if len(field.alive[clue]) == 1:
            candidate = field.alive[clue][0]
            text = (
                f"{field.clue_name(clue).capitalize()} has one rectangle left: "
                f"{field.rectangle_name(clue, candidate)}."
            )
            return Step(
                "one rectangle left", [(clue, candidate)], [], [field.clue_cell(clue)], text
            )
    return None


def only_clue(field: Field) -> Step | None:
    """Open cells only one clue's candidates reach are that clue's: its candidates missing
    any of them go."""
    once = twice = 0
    clues = field.open_clues()
    reaches = {clue: field.reach(clue) for clue in clues}
    for reach in reaches.values():
        twice |= once & reach
        once |= reach
    clue_cells = sum(1 << field.clue_cell(clue) for clue in clues)
    # A clue's own cell is in all its rectangles: it justifies nothing.
    alone = once & ~twice & ~field.covered & ~clue_cells
    for clue in clues:
        own = alone & reaches[clue]
        if not own:
            continue
        masks = field.masks[clue]
        removed = [(clue, index) for index in field.alive[clue] if masks[index] & own != own]
        if removed:
            cells = cells_of(own)
            text = (
                f"Only {field.clue_name(clue)} can reach {field.cell_name(cells[0])}"
                f"{more_cells(len(cells))}, so its rectangles that miss "
                f"{'it' if len(cells) == 1 else 'them'} go ({len(removed)} of "
                f"{len(field.alive[clue])})."
            )
            return Step("only one clue reaches a cell", [], removed, cells, text)
    return None


def overlap(field: Field) -> Step | None:
    """The cells every candidate of a clue covers are that clue's: other clues' candidates
    covering them go."""
    clues = field.open_clues()
    for clue in clues:
        if len(field.alive[clue]) < 2:
            continue
        core = -1
        for index in field.alive[clue]:
            core &= field.masks[clue][index]
        core &= ~(1 << field.clue_cell(clue))
        if not core:
            continue
        removed = [
            (other, index)
            for other in clues
            if other != clue
            for index in field.alive[other]
            if field.masks[other][index] & core
        ]
        if removed:
            cells = cells_of(core)
            text = (
                f"Every rectangle left for {field.clue_name(clue)} covers "
                f"{field.cell_name(cells[0])}{more_cells(len(cells))}, so other clues' "
                f"rectangles covering {'it' if len(cells) == 1 else 'them'} go ({len(removed)})."
            )
            return Step("overlap", [], removed, cells, text)
    return None


TECHNIQUES: tuple[Technique[Field], ...] = (
    Technique(
        "one rectangle left", one_rectangle_left, "easy", 1, "a clue with one rectangle left"
    ),
    Technique(
        "only one clue reaches a cell",
        only_clue,
        "medium",
        3,
        "a cell only one clue can reach belongs to it",
    ),
    Technique(
        "overlap", overlap, "hard", 5, "the cells all of a clue's rectangles cover are its own"
    ),
)
GUESS: Technique[Field] = Technique(
    "guess",
    lambda field: None,
    "expert",
    20,
    "no rule applies: a branch of the search, the other rectangles failing",
)
ALL = (*TECHNIQUES, GUESS)


def rule_level(field: Field) -> str:
    """The level explain mode grades ``field``'s path (``rule_closure``; ``expert`` when the
    rules get stuck: the path then guesses)."""
    return rule_closure(field)[0] or GUESS.level


def rule_closure(field: Field, highest: str = "hard") -> tuple[str | None, list[int], int]:
    """The level ``explain`` grades ``field``'s path: the easiest level whose rules (it and
    those below) place every rectangle, or None when the rules up to ``highest`` get stuck;
    with the clues they leave open and the cells placed. The same level as following
    ``next_step`` (a unit test compares them),
    computed as each level's fixpoint on the candidates' masks without building steps: the
    rules only remove candidates that no solution has, so the order they apply in changes
    no fixpoint, and the path takes a rule of a level only at the fixpoint of the easier
    ones."""
    alive = [
        [field.masks[clue][index] for index in indices] for clue, indices in enumerate(field.alive)
    ]
    own = [1 << field.clue_cell(clue) for clue in range(len(field.clues))]
    open_clues = field.open_clues()
    # What each clue's candidates could cover at the start (they only lose candidates): a
    # clue out of a rectangle's reach keeps its candidates without looking at them.
    spread = [0] * len(alive)
    for clue in open_clues:
        for mask in alive[clue]:
            spread[clue] |= mask
    covered = field.covered
    level = 0
    while True:
        # One rectangle left: place it; the others' candidates overlapping it go.
        placed: set[int] = set()
        for clue in open_clues:
            if len(alive[clue]) != 1:
                continue  # (none left: a contradiction, the clue stays open)
            mask = alive[clue][0]
            covered |= mask
            placed.add(clue)
            for other in open_clues:
                if spread[other] & mask and other not in placed:
                    alive[other] = [m for m in alive[other] if not m & mask]
        if placed:
            open_clues = [clue for clue in open_clues if clue not in placed]
            continue
        if not open_clues:
            return steps_module.LEVELS[level], [], covered
        if level >= 1 and _only_clue_masks(alive, own, open_clues, covered):
            continue
        if level >= 2 and _overlap_masks(alive, own, spread, open_clues):
            continue
        if level == min(2, steps_module.LEVELS.index(highest)):
            return None, open_clues, covered
        level += 1


def _only_clue_masks(
    alive: list[list[int]], own: list[int], open_clues: list[int], covered: int
) -> bool:
    """``only_clue`` on every clue at once; whether a candidate went."""
    once = twice = clue_cells = 0
    reaches = []
    for clue in open_clues:
        reach = 0
        for mask in alive[clue]:
            reach |= mask
        reaches.append(reach)
        twice |= once & reach
        once |= reach
        clue_cells |= own[clue]
    alone = once & ~twice & ~covered & ~clue_cells
    changed = False
    if alone:
        for clue, reach in zip(open_clues, reaches, strict=True):
            needed = alone & reach
            if needed:
                kept = [mask for mask in alive[clue] if mask & needed == needed]
                if len(kept) < len(alive[clue]):
                    alive[clue] = kept
                    changed = True
    return changed


def _overlap_masks(
    alive: list[list[int]], own: list[int], spread: list[int], open_clues: list[int]
) -> bool:
    """``overlap`` on every clue at once; whether a candidate went."""
    changed = False
    for clue in open_clues:
        candidates = alive[clue]
        if len(candidates) < 2:
            continue
        core = -1
        for mask in candidates:
            core &= mask
        core &= ~own[clue]
        if not core:
            continue
        for other in open_clues:
            if other != clue and spread[other] & core:
                kept = [mask for mask in alive[other] if not mask & core]
                if len(kept) < len(alive[other]):
                    alive[other] = kept
                    changed = True
    return changed


def next_step(field: Field) -> Step | None:
    for technique in TECHNIQUES:
        step = technique.find(field)
        if step is not None:
            return step
    return None


def guess(field: Field, solution: list[int], unique: bool) -> Step:
    """A branch of the search: the solution's rectangle for the open clue with the fewest."""
    clue = min(field.open_clues(), key=lambda clue: (len(field.alive[clue]), clue))
    right = solution[clue]
    others = [index for index in field.alive[clue] if index != right]
    sentences = [
        f"No rule applies: guess {field.rectangle_name(clue, right)} for "
        f"{field.clue_name(clue)}, one of its {len(field.alive[clue])} rectangles left."
    ]
    refuted = 0
    for index, other in enumerate(others):
        dead_end = refute(field, clue, other) if index < MAX_REFUTED else None
        if dead_end is not None:
            refuted += 1
            sentences.append(
                f"With {field.rectangle_name(clue, other)} instead, the rules reach a dead end: "
                f"{dead_end}."
            )
    if unique and refuted < len(others):
        sentences.append("The search shows that the other rectangles lead to no solution.")
    if not unique:
        sentences.append(
            "The puzzle has more than one solution; this path follows the one found first."
        )
    return Step(
        GUESS.name,
        [(clue, right)],
        [],
        [field.clue_cell(clue)],
        " ".join(sentences),
        [(clue, other) for other in others],
    )


def refute(field: Field, clue: int, candidate: int) -> str | None:
    """The dead end the rules reach after ``candidate`` is placed for ``clue``, or None."""
    trial = field.copy()
    trial.place(clue, candidate)
    for _ in range(MAX_REFUTATION_STEPS):
        dead_end = trial.contradiction()
        if dead_end is not None:
            return dead_end
        step = next_step(trial)
        if step is None:
            return None
        trial.apply(step)
    return None


def explain(
    field: Field,
    solution: list[int],
    unique: bool,
    advance: Callable[[float], None] | None = None,
) -> list[Step]:
    """The steps from ``field`` to ``solution`` (a candidate index per clue), applied to it;
    ``advance`` hears the share of the clues placed before each step (progress, cancel)."""
    steps = []
    total = len(field.clues) or 1
    while not field.solved():
        if advance is not None:
            advance(1 - len(field.open_clues()) / total)
        step = next_step(field) or guess(field, solution, unique)
        field.apply(step)
        steps.append(step)
    return steps


def hint(field: Field, solution: list[int], unique: bool) -> list[Step]:
    """The steps from a player's board up to and including the first that places a
    rectangle (the hint is the first); applied to ``field``, empty when it is solved."""
    steps: list[Step] = []
    while not field.solved():
        step = next_step(field) or guess(field, solution, unique)
        field.apply(step)
        steps.append(step)
        if step.place:
            break
    return steps


def grade(steps: list[Step]) -> dict[str, Any]:
    """``level``, ``score`` and ``techniques`` of a path (``pysolver.logic.step.grade``)."""
    return steps_module.grade(steps, ALL)
