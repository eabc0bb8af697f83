"""Pictures of a polyomino tiling: letters, one per piece, as books print pentomino tilings, and
the pieces' borders (text) or fills (SVG) over the board (``pysolver.pictures``)."""

from __future__ import annotations

from string import ascii_lowercase, ascii_uppercase
from typing import Any

from pysolver.pictures import board_rows, placement_labels, regions_svg, regions_text


def letters(puzzle: dict[str, Any], tiling: list[dict[str, Any]]) -> str:
    """The tiling as letters, one per piece (its name's first letter; A, B... when two
    different pieces would share one), ``.`` for a hole, as books print pentomino tilings."""
    names = [str(placed["piece"]) for placed in tiling]
    initials = {name: name[0] for name in names}
    if len(set(initials.values())) < len(initials):
        initials = {
            name: ascii_lowercase[n % 26] if n >= 26 else ascii_uppercase[n]
            for n, name in enumerate(dict.fromkeys(names))
        }
    rows = board_rows(puzzle)
    picture = [[" " if cell == "#" else "." for cell in row] for row in rows]
    for placed in tiling:
        for r, c in placed["cells"]:
            picture[r][c] = initials[str(placed["piece"])]
    return "\n".join("".join(row).rstrip() for row in picture)


def solution_text(puzzle: dict[str, Any], tiling: list[dict[str, Any]]) -> str:
    """The letters, then the pieces' borders."""
    labels = placement_labels(board_rows(puzzle), [placed["cells"] for placed in tiling])
    return letters(puzzle, tiling) + "\n\n" + regions_text(labels)


def solution_svg(puzzle: dict[str, Any], tiling: list[dict[str, Any]]) -> str:
    """Each piece filled with a colour, its name in its first cell."""
    labels = placement_labels(board_rows(puzzle), [placed["cells"] for placed in tiling])
    texts = {
        (placed["cells"][0][0], placed["cells"][0][1]): str(placed["piece"]) for placed in tiling
    }
    return regions_svg(labels, texts)


def puzzle_text(puzzle: dict[str, Any]) -> str:
    """The board before tiling (``.`` a cell to cover) and the pieces to cover it with."""
    pieces = [
        piece if isinstance(piece, str) else str(piece.get("name", "?"))
        for piece in puzzle.get("pieces", [])
    ]
    return letters(puzzle, []) + "\npieces: " + ", ".join(pieces)
