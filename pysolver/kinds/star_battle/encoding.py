"""Star Battle as exact cover with multiplicities (Knuth's MCC, his DLX3).

Primary items: every row, every column and every region, each covered exactly ``stars`` times
(multiplicity (k, k); with one star all are plain exact cover items and the problem has no
multiplicities). Secondary items: every 2 x 2 block of cells, covered at most once. An option
per cell: its row, its column, its region and the (up to four) 2 x 2 blocks holding it. Two
cells touch (by a side or a corner) exactly when some 2 x 2 block holds both, so "every block
at most once" is "no two stars touch".

A solution is the board as rows of ``*`` (a star) and ``.`` (no star).
"""

from __future__ import annotations

from dataclasses import dataclass

from pysolver import budget
from pysolver.engines.exact_cover import ExactCoverProblem
from pysolver.kinds.star_battle.board import Board, Cell
from pysolver.protocol import empty_grid

# A solution's JSON: n rows of n characters.
Solution = list[str]
STAR = "*"
EMPTY = "."


@dataclass
class Encoding:
    """``encode``'s matrix, and what ``decode`` and trace labels need to read it back."""

    problem: ExactCoverProblem
    board: Board
    # Per option, its cell; per item, what it stands for: ("row" | "col" | "region" |
    # "block", k), a block by its top-left cell's index r * n + c.
    cells: list[Cell]
    items: list[tuple[str, int]]


def encode(board: Board) -> Encoding:
    """The matrix of ``board`` (see the module docstring): items rows, columns, regions, then
    the blocks; an option per cell in reading order."""
    region = {name: index for index, name in enumerate(board.names)}
    regions = [[region[name] for name in row] for row in board.rows]
    problem, cells, items = star_matrix(board.n, board.stars, regions)
    return Encoding(problem, board, cells, items)


def star_matrix(
    n: int, stars: int, regions: list[list[int]] | None
) -> tuple[ExactCoverProblem, list[Cell], list[tuple[str, int]]]:
    """The matrix of an n x n board with ``stars`` per line, its option cells and item
    meanings; ``regions`` (per cell its region's index) None leaves the regions out (the
    generator's placements of stars in rows and columns only)."""
    items: list[tuple[str, int]] = [("row", r) for r in range(n)]
    items += [("col", c) for c in range(n)]
    if regions is not None:
        items += [("region", g) for g in range(n)]
    primary = len(items)
    items += [("block", r * n + c) for r in range(n - 1) for c in range(n - 1)]
    number = {item: index for index, item in enumerate(items)}
    options: list[list[int]] = []
    cells: list[Cell] = []
    for r in range(n):
        for c in range(n):
            option = [number["row", r], number["col", c]]
            if regions is not None:
                option.append(number["region", regions[r][c]])
            for top in (r - 1, r):
                for left in (c - 1, c):
                    if 0 <= top < n - 1 and 0 <= left < n - 1:
                        option.append(number["block", top * n + left])
            options.append(option)
            cells.append((r, c))
    multiplicities = None if stars == 1 else [(stars, stars)] * primary
    problem = ExactCoverProblem(
        primary, len(items) - primary, options, multiplicities=multiplicities
    )
    return problem, cells, items


def decode(encoding: Encoding, chosen: list[int]) -> Solution:
    """A solution's JSON: the board's rows with ``*`` on the chosen options' cells."""
    n = encoding.board.n
    grid = [[EMPTY] * n for _ in range(n)]
    for option in chosen:
        r, c = encoding.cells[option]
        grid[r][c] = STAR
    return ["".join(row) for row in grid]


def solution_size(n: int) -> tuple[int, int]:
    """What one listed solution costs at most, in bytes (the option indices the engine keeps,
    n strings of n characters) and in JSON characters."""
    stars = (n + 1) // 2 * n  # at most every other cell of every row
    strings = budget.list_bytes(n, 49 + n)  # a str's header and its ASCII characters
    return budget.list_bytes(stars, budget.INT_BYTES) + strings, n * (n + 3)


def heatmap(n: int, solutions: list[Solution]) -> dict[str, list[list[int]]]:
    """Key ``"star"``: per cell, how many of ``solutions`` put a star there."""
    counts = empty_grid(n, n)
    for solution in solutions:
        for r, row in enumerate(solution):
            for c, mark in enumerate(row):
                if mark == STAR:
                    counts[r][c] += 1
    return {"star": counts}
