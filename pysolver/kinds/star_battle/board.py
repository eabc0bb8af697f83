"""A Star Battle board: the region map and the stars per line, read and checked.

The board is ``n`` rows of ``n`` characters, each naming the region of its cell; a region is
every cell written with one character. A valid board has exactly ``n`` regions, each of them
connected (cells joined through sides, not corners). Errors name the JSON path of the first
offending value: the row (``puzzle.regions[3]``), the stars (``puzzle.stars``) or a given star
(``puzzle.givens[2]``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pysolver.protocol import (
    TOO_LARGE,
    SolveError,
    puzzle_error,
    require_dict,
    require_int,
    require_list,
    require_str,
    shown,
)

# The largest side: 900 cells, 900 options of at most 7 items; a 30 x 30 board still fits
# the page, and regions past 30 run out of characters people tell apart.
MAX_N = 30

Cell = tuple[int, int]


@dataclass(frozen=True)
class Board:
    """A validated puzzle: the region map (rows of characters), the region characters in order
    of first appearance (reading order), the stars each row, column and region holds, and the
    stars given (placed beforehand), in input order."""

    rows: tuple[str, ...]
    names: tuple[str, ...]
    stars: int
    givens: tuple[Cell, ...] = ()

    @property
    def n(self) -> int:
        return len(self.rows)

    def region_of(self, cell: Cell) -> int:
        """The index (in ``names``) of the region of ``cell``."""
        return self.names.index(self.rows[cell[0]][cell[1]])


def most_stars(n: int) -> int:
    """The most stars a line of ``n`` cells holds with no two touching: every other cell."""
    return (n + 1) // 2


def parse_puzzle(puzzle: Any) -> Board:
    """Validate a puzzle into a ``Board``, or raise ``SolveError`` with the JSON path."""
    puzzle = require_dict(puzzle, "puzzle")
    if "regions" not in puzzle:
        raise puzzle_error(
            'a Star Battle puzzle needs "regions", its rows with one character per cell naming '
            "the cell's region",
            "puzzle.regions",
        )
    rows = read_rows(puzzle["regions"])
    n = len(rows)
    if "stars" not in puzzle:
        raise puzzle_error(
            'a Star Battle puzzle needs "stars", how many stars each row, column and region '
            "holds (1 or 2 in most puzzles)",
            "puzzle.stars",
        )
    stars = require_int(puzzle["stars"], "puzzle.stars", minimum=1)
    if stars > most_stars(n):
        raise puzzle_error(
            f"puzzle.stars is {stars}; a row of {n} cells holds at most {most_stars(n)} stars "
            "that do not touch",
            "puzzle.stars",
        )
    names = tuple(dict.fromkeys("".join(rows)))
    check_regions(rows, names)
    givens = read_givens(puzzle.get("givens", []), rows, stars)
    return Board(rows, names, stars, givens)


def read_rows(value: Any) -> tuple[str, ...]:
    """The region map's rows: a list of strings (or one string, its rows separated by
    whitespace), n rows of n characters, none of them whitespace."""
    path = "puzzle.regions"
    if isinstance(value, str):
        rows = value.split()
    else:
        rows = [require_str(row, f"{path}[{r}]") for r, row in enumerate(require_list(value, path))]
    if not rows:
        raise puzzle_error("puzzle.regions has no rows; a board has at least one", path)
    n = len(rows)
    if n > MAX_N:
        raise SolveError(
            TOO_LARGE, f"puzzle.regions has {n} rows; the largest board is {MAX_N} x {MAX_N}", path
        )
    for r, row in enumerate(rows):
        if len(row) != n:
            raise puzzle_error(
                f"row {r + 1} of puzzle.regions has {len(row)} characters; the board has {n} "
                f"rows, so every row needs {n} (a square board, one character per cell)",
                f"{path}[{r}]",
            )
        blank = next((ch for ch in row if ch.isspace()), None)
        if blank is not None:
            raise puzzle_error(
                f"row {r + 1} of puzzle.regions has the blank {shown(blank)}; every cell "
                "names its region with a visible character",
                f"{path}[{r}]",
            )
    return tuple(rows)


def check_regions(rows: tuple[str, ...], names: tuple[str, ...]) -> None:
    """Exactly n regions, each connected; else ``invalid_puzzle`` at the row of a cell."""
    n = len(rows)
    path = "puzzle.regions"
    if len(names) != n:
        raise puzzle_error(
            f"puzzle.regions has {len(names)} regions ({', '.join(map(shown, names))}); a board "
            f"of {n} rows needs exactly {n}",
            path,
        )
    for name in names:
        cells = [(r, c) for r in range(n) for c in range(n) if rows[r][c] == name]
        parts = components(cells)
        if len(parts) > 1:
            r, c = min(parts[1])
            raise puzzle_error(
                f"region {shown(name)} is in {len(parts)} separate parts; the cell at row "
                f"{r + 1}, column {c + 1} is not joined to the cell at row {parts[0][0][0] + 1}, "
                f"column {parts[0][0][1] + 1} (a region is connected through cell sides)",
                f"{path}[{r}]",
            )


def read_givens(value: Any, rows: tuple[str, ...], stars: int) -> tuple[Cell, ...]:
    """The given stars ``[[row, col], ...]``: on the board, no two on one cell or touching, and
    no row, column or region given more than ``stars`` of them."""
    n = len(rows)
    givens: list[Cell] = []
    lines: dict[tuple[str, int | str], int] = {}
    for index, given in enumerate(require_list(value, "puzzle.givens")):
        path = f"puzzle.givens[{index}]"
        given = require_list(given, path)
        if len(given) != 2:
            raise puzzle_error(
                f"{path} must be [row, col], a list of 2 integers, not {len(given)} values", path
            )
        cell = (
            require_int(given[0], f"{path}[0]", 0, n - 1),
            require_int(given[1], f"{path}[1]", 0, n - 1),
        )
        for earlier in givens:
            if max(abs(cell[0] - earlier[0]), abs(cell[1] - earlier[1])) <= 1:
                how = "is on the same cell as" if cell == earlier else "touches"
                # Words for a person (rows and columns from 1); the path names the star.
                raise puzzle_error(
                    f"the star at row {cell[0] + 1}, column {cell[1] + 1} {how} the star at "
                    f"row {earlier[0] + 1}, column {earlier[1] + 1}; no two stars may touch",
                    path,
                )
        region = rows[cell[0]][cell[1]]
        for line, named in (
            (("row", cell[0]), f"row {cell[0] + 1}"),
            (("column", cell[1]), f"column {cell[1] + 1}"),
            (("region", region), f"region {shown(region)}"),
        ):
            lines[line] = lines.get(line, 0) + 1
            if lines[line] > stars:
                raise puzzle_error(f"{named} is given {lines[line]} stars; it holds {stars}", path)
        givens.append(cell)
    return tuple(givens)


def neighbours(cell: Cell) -> list[Cell]:
    """The cells sharing a side with ``cell`` (on the board or not)."""
    r, c = cell
    return [(r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)]


def components(cells: Iterable[Cell]) -> list[list[Cell]]:
    """The parts of ``cells`` connected through sides, each sorted, in order of their first
    cell (reading order)."""
    left = set(cells)
    parts: list[list[Cell]] = []
    for start in sorted(left):
        if start not in left:
            continue
        left.discard(start)
        part = [start]
        stack = [start]
        while stack:
            for other in neighbours(stack.pop()):
                if other in left:
                    left.discard(other)
                    part.append(other)
                    stack.append(other)
        parts.append(sorted(part))
    return parts
