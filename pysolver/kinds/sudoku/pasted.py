"""Sudoku as other programs and sites write it, read into requests (the ``read_pasted`` hook;
``pysolver.pasted`` asks every kind), and Solo game IDs written.

- A plain Sudoku line: n*n characters (``.`` or ``0`` blank), as in top95.txt and ``.sdk`` files.
- Simon Tatham's Solo game IDs (``pysolver.tatham``), read and written: ``3x3:a5b1_2c...``
  (``3x3x:`` with the X diagonals); ``CxR`` gives boxes C columns wide and R rows tall (``N``
  alone: one row tall), so (C*R)^2 cells. An ID of another shape is left to the other kinds
  (Rectangles' ``WxH`` describes W*H cells).
- sudokuwiki.org addresses with ``?bd=`` (81 digits, ``0`` blank), or any address whose ``bd``,
  ``puzzle``, ``grid`` or ``p`` parameter holds a grid.
- puzz.link / pzprjs Sudoku URLs (``sudoku/<n>/<n>/<data>``, ``pysolver.puzzlink``).

The Solo and sudokuwiki rules are those of the page's paste reader (web/kinds/sudoku/paste.js);
tests/test_pasted.py runs both on the same texts and compares the givens.
"""

from __future__ import annotations

import math
import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

from pysolver import puzzlink, tatham
from pysolver.protocol import puzzle_error

GRID_PARAMETERS = ("bd", "puzzle", "grid", "p")
ADDRESS_GRID = re.compile(r"^[0-9.]{16,}$")


def read_pasted(text: str) -> dict[str, Any] | None:
    """The request of a pasted Sudoku line, Solo game ID, address or puzz.link URL; None when
    the text is none of them. Raises ``SolveError`` for one recognised but wrong (a Solo ID
    with too few cells, a jigsaw ID)."""
    if is_sudoku_line(text.strip()):
        return {"kind": "sudoku", "puzzle": {"grid": text.strip()}}
    game = tatham.read_game_id(text)
    if game is not None:
        return read_solo_id(game)
    stripped = text.strip()
    puzzle_type = puzzlink.url_type(stripped, ("sudoku",))
    if puzzle_type is None:
        return None
    if puzzle_type == "sudoku":
        n, values = parse_url(stripped)
        return {"kind": "sudoku", "puzzle": {"grid": _rows(values, n)}}
    grid = grid_from_address(stripped)
    if grid is None:
        return None
    return {"kind": "sudoku", "puzzle": {"grid": grid}}


def is_sudoku_line(line: str) -> bool:
    """Whether ``line`` is a plain Sudoku: n*n characters (n a square, 4 to 25), digits,
    letters, ``.`` and ``0`` only."""
    size = math.isqrt(len(line))
    root = math.isqrt(size)
    return (
        size * size == len(line)
        and root * root == size
        and 4 <= size <= 25
        and all(ch.isalnum() or ch == "." for ch in line)
    )


def grid_from_address(address: str) -> str | None:
    """The grid text in an address's ``bd`` (sudokuwiki), ``puzzle``, ``grid`` or ``p``
    parameter (81 digits and dots or more; the first 81 of sudokuwiki's 162, whose second half
    is its candidates); None when there is none."""
    if not re.fullmatch(r"https?://\S+", address, re.IGNORECASE):
        return None
    parameters = parse_qs(urlsplit(address).query)
    for name in GRID_PARAMETERS:
        values = parameters.get(name)
        if values and ADDRESS_GRID.fullmatch(values[0]):
            value = values[0]
            return value[:81] if len(value) == 162 else value
    return None


def read_solo_id(game: tatham.GameId) -> dict[str, Any] | None:
    """The request of a Solo game ID; None for an ID of Rectangles' shape (W*H cells, not
    (C*R)^2), else Solo's own message for one it cannot read."""
    cols = game.first
    rows = 1 if game.second is None else game.second
    values = game.values
    n = cols * rows
    if len(values) != n * n and game.second is not None and len(values) == cols * rows:
        return None
    lower = re.sub(r"d[a-z]+$", "", game.flags)  # a difficulty's letters: no flags
    if "j" in lower or "k" in lower or len(game.rest) > 1:
        raise puzzle_error(
            "this is a Solo jigsaw or killer game ID; give the grid itself, with its "
            '"regions" or "cages"'
        )
    if len(values) != n * n:
        raise puzzle_error(
            f"this Solo game ID describes {len(values)} cells; a {n}x{n} game has {n * n}"
        )
    too_big = next((value for value in values if value > n), None)
    if too_big is not None:
        raise puzzle_error(f"this Solo game ID has a {too_big}, more than a {n}x{n} grid holds")
    puzzle: dict[str, Any] = {"grid": _rows(values, n), "box": [rows, cols]}
    if "x" in lower:
        puzzle["diagonals"] = True
    return {"kind": "sudoku", "puzzle": puzzle}


def _rows(values: list[int], n: int) -> list[list[int]]:
    return [values[row * n : (row + 1) * n] for row in range(n)]


def parse_url(url: str, path: str = "puzzle") -> tuple[int, list[int]]:
    """Read a puzz.link / pzprjs Sudoku URL (``sudoku/<n>/<n>/<data>``, numbers encoded as
    for Shikaku) into ``(n, values)``: the cells row by row, 0 blank."""
    cols, rows, data = puzzlink.url_parts(url, ("sudoku",), "Sudoku", path)
    if cols != rows:
        raise puzzle_error(f"a Sudoku grid is square; this URL's is {cols} x {rows}", path)
    values = [0] * (rows * cols)
    for row, col, value in puzzlink.decode_numbers(data, rows, cols, path):
        values[row * cols + col] = value
    return rows, values


def solo_id(values: list[int], box_rows: int, box_cols: int, diagonals: bool = False) -> str:
    """The Solo game ID of a Sudoku: its cells row by row (0 blank), boxes ``box_rows`` tall
    and ``box_cols`` wide, with the X diagonals or not."""
    return f"{box_cols}x{box_rows}{'x' if diagonals else ''}:{tatham.grid_description(values)}"
