"""Seeded random puzzles for the tests and benchmarks (kept out of the pysolver package).

Each generator returns the ``puzzle`` part of a request and is a function of its arguments: the
same seed gives the same puzzle on every machine.
"""

from __future__ import annotations

import random
from typing import Any


def shikaku_puzzle(rows: int, cols: int, seed: int, max_area: int = 12) -> dict[str, Any]:
    """A random Shikaku puzzle: the grid cut into rectangles of at most ``max_area`` cells
    (seeded), a clue at a random cell of each. It has at least that solution, often many more."""
    if rows < 1 or cols < 1 or max_area < 1:
        raise ValueError("rows, cols and max_area must be at least 1")
    rng = random.Random(seed)
    taken = [[False] * cols for _ in range(rows)]
    clues: list[list[int]] = []
    for row in range(rows):
        for col in range(cols):
            if taken[row][col]:
                continue
            # Cells left of and above a free cell in row-major order are taken, so any
            # rectangle whose top-left is here only has to avoid rectangles hanging down.
            max_width = 0
            while col + max_width < cols and not taken[row][col + max_width]:
                max_width += 1
            # Single cells make dull clues; allow them only when nothing else fits.
            for _attempt in range(4):
                width = rng.randint(1, min(max_width, max_area))
                max_height = min(rows - row, max_area // width)
                free_height = 1
                while free_height < max_height and not any(
                    taken[row + free_height][col : col + width]
                ):
                    free_height += 1
                height = rng.randint(1, free_height)
                if height * width > 1:
                    break
            for r in range(row, row + height):
                for c in range(col, col + width):
                    taken[r][c] = True
            clue_row = row + rng.randrange(height)
            clue_col = col + rng.randrange(width)
            clues.append([clue_row, clue_col, height * width])
    return {"rows": rows, "cols": cols, "clues": clues}


def aztec_diamond(order: int) -> list[str]:
    """The Aztec diamond of ``order`` as board rows ('.' a cell, '#' outside): 2 * order rows
    of 2, 4, ..., 2 * order, ..., 4, 2 cells, centred."""
    rows = []
    for k in range(2 * order):
        half = k + 1 if k < order else 2 * order - k
        pad = order - half
        rows.append("#" * pad + ".." * half + "#" * pad)
    return rows
