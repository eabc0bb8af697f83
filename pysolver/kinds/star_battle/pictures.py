"""Pictures of a Star Battle solution: the regions' walls with a star on each starred cell, as
text and as SVG (``pysolver.pictures``)."""

from __future__ import annotations

from typing import Any

from pysolver.pictures import Labels, Texts, regions_svg, regions_text


def _parts(puzzle: dict[str, Any], rows: list[str]) -> tuple[Labels, Texts]:
    """The regions (``puzzle["regions"]``, rows of region characters) as labels, and the
    solution's stars (rows of ``*`` and ``.``) as the cells' texts."""
    regions = puzzle["regions"]
    board = regions.split() if isinstance(regions, str) else [str(row) for row in regions]
    names = {name: index for index, name in enumerate(dict.fromkeys("".join(board)))}
    labels: Labels = [[names[name] for name in row] for row in board]
    stars = {(r, c): "*" for r, row in enumerate(rows) for c, mark in enumerate(row) if mark == "*"}
    return labels, stars


def solution_text(puzzle: dict[str, Any], rows: list[str]) -> str:
    """The regions drawn with walls, ``*`` on each star."""
    return regions_text(*_parts(puzzle, rows))


def solution_svg(puzzle: dict[str, Any], rows: list[str]) -> str:
    """The regions in colours, a star on each starred cell."""
    labels, stars = _parts(puzzle, rows)
    return regions_svg(labels, {cell: "★" for cell in stars})


def puzzle_text(puzzle: dict[str, Any]) -> str:
    """The regions before solving (with the given stars, if any), and how many stars each
    row, column and region takes."""
    stars = int(puzzle.get("stars", 1))
    rule = f"{stars} star{'' if stars == 1 else 's'} in every row, column and region"
    regions = puzzle["regions"]
    n = len(regions.split() if isinstance(regions, str) else regions)
    given = {(int(r), int(c)) for r, c in puzzle.get("givens", [])}
    rows = ["".join("*" if (r, c) in given else "." for c in range(n)) for r in range(n)]
    return solution_text(puzzle, rows) + "\n" + rule
