"""What every puzzle family's path is made of: ``Step``, ``Technique`` and the grade.

A step's ``place`` and ``eliminate`` are pairs in the family's own terms (Sudoku: ``(cell,
digit)``; Shikaku: ``(clue, candidate rectangle)``), its ``cells`` are cell numbers (row by
row); the kinds write them as the protocol's JSON.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

Board = TypeVar("Board")
LEVELS = ("easy", "medium", "hard", "fiendish", "expert")


@dataclass
class Step:
    """One step of a path: the ``technique`` that found it, what it ``place``s and
    ``eliminate``s, the ``cells`` that justify it, a sentence; a guess also names its
    ``alternatives``, the other choices of its cell or clue, which fail."""

    technique: str
    place: list[tuple[int, int]]
    eliminate: list[tuple[int, int]]
    cells: list[int]
    text: str
    alternatives: list[tuple[int, int]] = field(default_factory=list)


@dataclass(frozen=True)
class Technique(Generic[Board]):
    """A named finder (``find(board)``: the first step it sees, or None), the level it belongs
    to, the points it adds to a score and one line on what it is (facts.json,
    docs/explaining.md)."""

    name: str
    find: Callable[[Board], Step | None]
    level: str
    points: int
    summary: str


def grade(steps: list[Step], techniques: tuple[Technique[Any], ...]) -> dict[str, Any]:
    """``level`` (the level of the hardest technique used; ``easy`` for no step), ``score``
    (the points of every step) and ``techniques`` ({name: times}, in the order of
    ``techniques``) of a path."""
    times: dict[str, int] = {}
    for step in steps:
        times[step.technique] = times.get(step.technique, 0) + 1
    used = [technique for technique in techniques if technique.name in times]
    level = max((LEVELS.index(technique.level) for technique in used), default=0)
    return {
        "level": LEVELS[level],
        "score": sum(technique.points * times[technique.name] for technique in used),
        "techniques": {technique.name: times[technique.name] for technique in used},
    }


def techniques_facts(techniques: tuple[Technique[Any], ...]) -> dict[str, Any]:
    """The levels the techniques use and the techniques (name, level, summary), easiest
    first, for facts.json."""
    used = {technique.level for technique in techniques}
    return {
        "levels": [level for level in LEVELS if level in used],
        "techniques": [
            {"name": technique.name, "level": technique.level, "summary": technique.summary}
            for technique in techniques
        ],
    }
