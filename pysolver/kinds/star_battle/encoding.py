"""Star Battle as exact cover with multiplicities (Knuth's MCC, his DLX3).

Primary items: every row, every column and every region, each covered exactly ``stars`` times
(multiplicity (k, k); with one star all are plain exact cover items and the problem has no
multiplicities), less the stars given in it (``star_matrix``). Secondary items: every 2 x 2
block of cells, covered at most once. An option per cell: its row, its column, its region and
the (up to four) 2 x 2 blocks holding it. Two cells touch (by a side or a corner) exactly
when some 2 x 2 block holds both, so "every block at most once" is "no two stars touch".

Items are listed rows, columns, regions: the order only breaks the engines' ties, and regions
first or the three interleaved changed the nodes of whole counts by -20% to +10% (three
published 10 x 10 two-star boards, a planted 11 x 11 and a 10 x 10 one-star board).

A solution is the board as rows of ``*`` (a star) and ``.`` (no star).
"""

from __future__ import annotations

from dataclasses import dataclass

from pysolver import budget
from pysolver.engines.cover import ExactCoverProblem
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
    problem, cells, items = star_matrix(board.n, board.stars, regions, board.givens)
    return Encoding(problem, board, cells, items)


def star_matrix(
    n: int, stars: int, regions: list[list[int]] | None, givens: tuple[Cell, ...] = ()
) -> tuple[ExactCoverProblem, list[Cell], list[tuple[str, int]]]:
    """The matrix of an n x n board with ``stars`` per line, its option cells and item
    meanings; ``regions`` (per cell its region's index) None leaves the regions out (the
    generator's placements of stars in rows and columns only).

    Given stars are applied before the search: a line keeps the stars it still needs as its
    multiplicity (and leaves the matrix when it needs none), the blocks holding a given star
    leave it, and so do the cells a given star touches or whose line is full.
    """
    kinds = ["row", "col"] if regions is None else ["row", "col", "region"]

    def lines_of(r: int, c: int) -> list[tuple[str, int]]:
        """The lines (items) of cell (r, c): its row, its column and its region."""
        found = [("row", r), ("col", c)]
        return found if regions is None else [*found, ("region", regions[r][c])]

    needed = {(what, k): stars for what in kinds for k in range(n)}
    for r, c in givens:
        for line in lines_of(r, c):
            needed[line] -= 1
    items = [item for item, left in needed.items() if left]
    primary = len(items)
    near_given = {(r + dr, c + dc) for r, c in givens for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
    items += [
        ("block", r * n + c)
        for r in range(n - 1)
        for c in range(n - 1)
        if not {(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)} & set(givens)
    ]
    number = {item: index for index, item in enumerate(items)}
    options: list[list[int]] = []
    cells: list[Cell] = []
    for r in range(n):
        for c in range(n):
            option = [number.get(line, -1) for line in lines_of(r, c)]
            if (r, c) in near_given or -1 in option:
                continue
            for top in (r - 1, r):
                for left in (c - 1, c):
                    if 0 <= top < n - 1 and 0 <= left < n - 1:
                        option.append(number["block", top * n + left])
            options.append(option)
            cells.append((r, c))
    bounds = [(needed[item], needed[item]) for item in items[:primary]]
    multiplicities = None if all(bound == (1, 1) for bound in bounds) else bounds
    problem = ExactCoverProblem(
        primary, len(items) - primary, options, multiplicities=multiplicities
    )
    return problem, cells, items


def decode(encoding: Encoding, chosen: list[int]) -> Solution:
    """A solution's JSON: the board's rows with ``*`` on the given stars and the chosen
    options' cells."""
    n = encoding.board.n
    grid = [[EMPTY] * n for _ in range(n)]
    for r, c in [*encoding.board.givens, *(encoding.cells[option] for option in chosen)]:
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
