"""Pictures of a queens solution: the board with its queens, as text and as a chequered SVG
(``pysolver.pictures``)."""

from __future__ import annotations

from typing import Any

from pysolver.pictures import Labels, regions_svg


def solution_text(puzzle: dict[str, Any], queens: list[list[int]]) -> str:
    """The board with ``Q`` on each queen and ``.`` elsewhere."""
    n = int(puzzle["n"])
    placed = {(r, c) for r, c in queens}
    return "\n".join(" ".join("Q" if (r, c) in placed else "." for c in range(n)) for r in range(n))


def solution_svg(puzzle: dict[str, Any], queens: list[list[int]]) -> str:
    """The chequered board, a queen on each queen's square."""
    n = int(puzzle["n"])
    labels: Labels = [[8 if (r + c) % 2 else 3 for c in range(n)] for r in range(n)]
    return regions_svg(labels, {(r, c): "♛" for r, c in queens})
