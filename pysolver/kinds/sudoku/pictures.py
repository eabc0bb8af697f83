"""Pictures of a Sudoku's grid (a solution, or the givens with 0 for a blank), as text with lines
between the boxes and as SVG with the boxes shaded in turn (``pysolver.pictures``)."""

from __future__ import annotations

import math
from typing import Any

from pysolver.pictures import Labels, regions_svg
from pysolver.pictures import regions_text as draw_regions

# The symbol of value v (1-based) in the default style: 1-9, then A-Z.
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def box_of(puzzle: dict[str, Any], size: int) -> tuple[int, int] | None:
    """The box shape of a Sudoku (the puzzle's ``box``, else the square root); None when the
    puzzle has regions of its own or the size is not a square."""
    if "regions" in puzzle:
        return None
    if "box" in puzzle:
        box_rows, box_cols = puzzle["box"]
        return int(box_rows), int(box_cols)
    root = math.isqrt(size)
    return (root, root) if root * root == size else None


def solution_text(puzzle: dict[str, Any], grid: list[list[int]]) -> str:
    """The grid with a line between boxes: ``5 3 4 | 6 7 8 | 9 1 2``."""
    size = len(grid)
    box = box_of(puzzle, size)
    lines = []
    for r, row in enumerate(grid):
        if box and r and r % box[0] == 0:
            lines.append("-+-".join("-" * (2 * box[1] - 1) for _ in range(size // box[1])))
        cells = [SYMBOLS[d - 1] if d else "." for d in row]
        if box:
            groups = [" ".join(cells[c : c + box[1]]) for c in range(0, size, box[1])]
            lines.append(" | ".join(groups))
        else:
            lines.append(" ".join(cells))
    return "\n".join(lines)


def solution_svg(puzzle: dict[str, Any], grid: list[list[int]]) -> str:
    """The grid as SVG, every other box shaded."""
    size = len(grid)
    box = box_of(puzzle, size)
    labels: Labels = [
        [((r // box[0]) + (c // box[1])) % 2 * 8 if box else 8 for c in range(size)]
        for r in range(size)
    ]
    texts = {(r, c): SYMBOLS[d - 1] for r, row in enumerate(grid) for c, d in enumerate(row) if d}
    return regions_svg(labels, texts)


def regions_text(regions: list[str] | str, grid: list[list[int]]) -> str:
    """A jigsaw's grid: walls between its regions (rows of one label a cell), the digits in
    their cells, ``.`` for a blank."""
    rows = regions.split() if isinstance(regions, str) else [str(row) for row in regions]
    names = {name: index for index, name in enumerate(dict.fromkeys("".join(rows)))}
    labels: Labels = [[names[name] for name in row] for row in rows]
    texts = {
        (r, c): SYMBOLS[d - 1] if d else "."
        for r, row in enumerate(grid)
        for c, d in enumerate(row)
    }
    return draw_regions(labels, texts)


def cages_text(cages: list[dict[str, Any]], grid: list[list[int]]) -> str:
    """A killer's grid: walls around its cages (cells in no cage form one more region), each
    cage's sum in its first cell in reading order, the other cells' digits or ``.``."""
    size = len(grid)
    labels: Labels = [[-1] * size for _ in range(size)]
    texts = {
        (r, c): SYMBOLS[d - 1] if d else "."
        for r, row in enumerate(grid)
        for c, d in enumerate(row)
    }
    for index, cage in enumerate(cages):
        cells = sorted((int(r), int(c)) for r, c in cage["cells"])
        for r, c in cells:
            labels[r][c] = index
        texts[cells[0]] = str(cage["sum"])
    return draw_regions(labels, texts)
