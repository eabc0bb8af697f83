"""Pictures of a domino tiling: the dominoes' borders (text) or fills (SVG) over the board
(``pysolver.pictures``)."""

from __future__ import annotations

from typing import Any

from pysolver.pictures import board_rows, placement_labels, regions_svg, regions_text


def solution_text(puzzle: dict[str, Any], dominoes: list[list[list[int]]]) -> str:
    """The dominoes' borders."""
    return regions_text(placement_labels(board_rows(puzzle), dominoes))


def solution_svg(puzzle: dict[str, Any], dominoes: list[list[list[int]]]) -> str:
    """Each domino filled with a colour."""
    return regions_svg(placement_labels(board_rows(puzzle), dominoes))
