"""Pictures of a Shikaku solution: its rectangles' borders (text) or fills (SVG), each clue in
its cell (``pysolver.pictures``)."""

from __future__ import annotations

from typing import Any

from pysolver.pictures import Labels, Texts, regions_svg, regions_text


def _parts(puzzle: dict[str, Any], rectangles: list[list[int]]) -> tuple[Labels, Texts]:
    labels: Labels = [[None] * int(puzzle["cols"]) for _ in range(int(puzzle["rows"]))]
    for index, (top, left, height, width) in enumerate(rectangles):
        for r in range(top, top + height):
            for c in range(left, left + width):
                labels[r][c] = index
    texts = {(int(r), int(c)): str(n) for r, c, n in puzzle["clues"]}
    return labels, texts


def solution_text(puzzle: dict[str, Any], rectangles: list[list[int]]) -> str:
    """The rectangles' borders, the clues in their cells."""
    return regions_text(*_parts(puzzle, rectangles))


def solution_svg(puzzle: dict[str, Any], rectangles: list[list[int]]) -> str:
    """Each rectangle filled with a colour, the clues in their cells."""
    return regions_svg(*_parts(puzzle, rectangles))


def puzzle_text(puzzle: dict[str, Any]) -> str:
    """The grid before solving: every cell walled, the clues in their cells."""
    cells = [[r, c, 1, 1] for r in range(int(puzzle["rows"])) for c in range(int(puzzle["cols"]))]
    return solution_text(puzzle, cells)
