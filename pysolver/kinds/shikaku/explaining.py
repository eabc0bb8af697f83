"""Explaining Shikaku puzzles and giving hints (``"mode": "explain"``, ``"mode": "hint"``).

Requests: ``{"kind": "shikaku", "mode": "explain", "puzzle": {"rows", "cols", "clues"}}`` (or
a ``url``) and ``{"kind": "shikaku", "mode": "hint", "puzzle": {..., "entries": [[top, left,
height, width], ...]}}``, the rectangles the player has drawn. A step's ``place``,
``eliminate`` and a guess's ``alternatives`` are ``{"clue": i, "rect": [top, left, height,
width]}`` (clue indices in clue order, rows and columns 0-based: as trace steps give them),
``cells`` are ``[r, c]``; sentences count from 1.

This module translates; the rules, the path and the grade are ``pysolver.kinds.shikaku.logic``'s
and the solution a path reaches is the ``propagate`` engine's (a ``Solver`` passed in by
``pysolver.kinds.shikaku``, which this module does not import). A hint first checks the drawn
rectangles against the solution (one holding them all when the puzzle has several): a
rectangle that is not one of its rectangles is a ``mistake``; all of them drawn is ``solved``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pysolver.kinds.shikaku import logic as shikaku
from pysolver.kinds.shikaku.logic import Field, Rectangle
from pysolver.logic.step import Step
from pysolver.midend.plan import ExplainArgs, Explained, Hinted
from pysolver.protocol import puzzle_error, require_int, require_list

# Up to two solutions (a candidate index per clue) of the field's candidates restricted to
# the given ones per clue (None: all), searched by the kind's engine.
Solver = Callable[[list[list[int]], ExplainArgs], list[list[int]]]


@dataclass
class Board:
    """A parsed puzzle: its ``field`` of candidates and the kind's ``solve``."""

    field: Field
    solve: Solver


def step_json(field: Field, step: Step) -> dict[str, Any]:
    """The protocol's Shikaku step (see the module docstring)."""

    def rectangles(pairs: list[tuple[int, int]]) -> list[dict[str, Any]]:
        return [
            {"clue": clue, "rect": list(field.rectangles[clue][candidate])}
            for clue, candidate in pairs
        ]

    shown: dict[str, Any] = {
        "technique": step.technique,
        "place": rectangles(step.place),
        "eliminate": rectangles(step.eliminate),
        "cells": [list(divmod(cell, field.cols)) for cell in step.cells],
        "text": step.text,
    }
    if step.alternatives:
        shown["alternatives"] = rectangles(step.alternatives)
    return shown


def solution_of(
    board: Board, allowed: list[list[int]], args: ExplainArgs
) -> tuple[list[int], bool]:
    """The first solution within ``allowed`` and whether it is the only one; none is an
    ``invalid_puzzle`` error."""
    solutions = board.solve(allowed, args)
    if not solutions:
        raise puzzle_error("this puzzle has no solution, so there is no path to explain", "puzzle")
    return solutions[0], len(solutions) == 1


def explain(board: Board, args: ExplainArgs) -> Explained:
    """The whole path from the clues, its grade and the solution it reaches."""
    field = board.field.copy()
    solution, unique = solution_of(board, field.alive, args)
    steps = shikaku.explain(field, solution, unique, args.advance)
    return Explained(
        steps=[step_json(field, step) for step in steps],
        grade=shikaku.grade(steps),
        solution=[list(field.rectangles[clue][index]) for clue, index in enumerate(solution)],
        unique=unique,
    )


def read_entries(value: Any, rows: int, cols: int) -> list[Rectangle]:
    """``entries``: the drawn rectangles, each ``[top, left, height, width]`` inside the grid."""
    entries = []
    for index, item in enumerate(require_list(value, "puzzle.entries")):
        path = f"puzzle.entries[{index}]"
        item = require_list(item, path)
        if len(item) != 4:
            raise puzzle_error(f"{path} must be [top, left, height, width]", path)
        top = require_int(item[0], f"{path}[0]", 0, rows - 1)
        left = require_int(item[1], f"{path}[1]", 0, cols - 1)
        height = require_int(item[2], f"{path}[2]", 1, rows - top)
        width = require_int(item[3], f"{path}[3]", 1, cols - left)
        entries.append((top, left, height, width))
    return entries


def hint(board: Board, entries: list[Rectangle], args: ExplainArgs) -> Hinted:
    """The next step from the drawn ``entries``, or the mistake among them."""
    field = board.field.copy()
    solution, unique = solution_of(board, field.alive, args)
    # Each drawn rectangle as (clue, candidate) when it is a candidate of a clue, else None.
    drawn: list[tuple[int, int] | None] = []
    for rectangle in entries:
        owners = [
            (clue, field.rectangles[clue].index(rectangle))
            for clue in range(len(field.clues))
            if rectangle in field.rectangles[clue]
        ]
        drawn.append(owners[0] if owners else None)
    wrong = [
        index for index, pair in enumerate(drawn) if pair is None or solution[pair[0]] != pair[1]
    ]
    if wrong and not unique and all(pair is not None for pair in drawn):
        # Several solutions: the drawing is right when one of them holds every rectangle.
        allowed = [candidates.copy() for candidates in field.alive]
        for pair in drawn:
            assert pair is not None
            allowed[pair[0]] = [index for index in allowed[pair[0]] if index == pair[1]]
        found = board.solve(allowed, args)
        if found:
            solution, wrong = found[0], []
    if wrong:
        return mistake(field, [entries[index] for index in wrong])
    for pair in drawn:
        assert pair is not None
        if field.placed[pair[0]] is None:
            field.place(*pair)
    steps = [step_json(field, step) for step in shikaku.hint(field, solution, unique)]
    if not steps:
        solved = Step("solved", [], [], [], "Every rectangle is drawn and right.")
        return Hinted(step_json(field, solved), [])
    return Hinted(steps[0], steps)


def mistake(field: Field, rectangles: list[Rectangle]) -> Hinted:
    """The ``mistake`` step: the cells of the wrong rectangles."""
    cells = []
    for top, left, height, width in rectangles:
        cells += [(top + r) * field.cols + left + c for r in range(height) for c in range(width)]
    where = shikaku.rectangle_words(rectangles[0])
    more = f" (and {len(rectangles) - 1} more)" if len(rectangles) > 1 else ""
    text = f"The rectangle at {where}{more} is not part of the solution."
    return Hinted(step_json(field, Step("mistake", [], [], sorted(set(cells)), text)), [])
