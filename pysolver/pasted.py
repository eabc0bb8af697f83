"""Puzzles as other programs and sites write them, read into requests (the command line's
``solve`` and ``batch`` take them where they take a JSON request).

- A plain Sudoku line: n*n characters (``.`` or ``0`` blank), as in top95.txt and ``.sdk`` files.
- Simon Tatham's game IDs: Solo (Sudoku) ``3x3:a5b1_2c...`` (``3x3x:`` with the X diagonals)
  and Rectangles (Shikaku) ``7x7:b4b2e3a2...``, read and written. In both, a letter is a run of
  blank cells (``a`` = 1 ... ``z`` = 26), a number is a clue, and ``_`` separates two numbers.
  Solo's ``CxR`` gives boxes C columns wide and R rows tall (``N`` alone: one row tall), so
  (C*R)^2 cells; Rectangles' ``WxH`` a grid W wide and H tall: the cell count tells them apart.
- sudokuwiki.org addresses with ``?bd=`` (81 digits, ``0`` blank), or any address whose ``bd``,
  ``puzzle``, ``grid`` or ``p`` parameter holds a grid.
- puzz.link / pzprjs URLs of Shikaku and Sudoku (``pysolver.puzzlink``).

The Solo and sudokuwiki rules are those of the page's paste reader (web/kinds/sudoku_paste.js);
tests/test_pasted.py runs both on the same texts and compares the givens.
"""

from __future__ import annotations

import math
import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

from pysolver import protocol, puzzlink
from pysolver.protocol import TOO_LARGE, SolveError, puzzle_error, shown

# Solo: "CxR" or "N", flags ("x" diagonals, "j" jigsaw, "k" killer, "r4"/"m2" symmetry,
# "d..." difficulty), ":", the grid, and "," before the regions or cages of a jigsaw or killer.
# Both cases spelled out rather than IGNORECASE: a pasted grid of millions of characters is
# matched twice as fast.
GAME_ID = re.compile(r"^(\d+)(?:[xX](\d+))?([a-zA-Z][a-zA-Z0-9.]*)?:([a-zA-Z0-9_]+)(,.*)?$")
GRID_PARAMETERS = ("bd", "puzzle", "grid", "p")
ADDRESS_GRID = re.compile(r"^[0-9.]{16,}$")
MAX_SIDE_DIGITS = 4  # no Solo box or Rectangles side has more
# No clue of a game ID within the kinds' limits has more digits (a Rectangles clue is at most
# 100 x 100); a longer number is refused before it is read (Python refuses 4,301 digits).
MAX_CLUE_DIGITS = 5
# The largest Solo game (symbols) and Rectangles grid side: the sudoku and shikaku kinds' MAX_SIZE
# and MAX_SIDE, written here because importing the kinds would close an import circle through
# pysolver.facts (tests/test_pasted.py checks that they agree).
MAX_SOLO_SIZE = puzzlink.MAX_SUDOKU_SIZE
MAX_RECTANGLES_SIDE = 100


def read_request(text: str) -> Any:
    """A request from text: JSON, or else a plain Sudoku line, a game ID or an address
    (``request_from_text``). Raises ``SolveError``: the JSON error for text that is none."""
    try:
        return protocol.loads(text)
    except SolveError as error:
        if error.code != protocol.INVALID_JSON:
            raise
        request = request_from_text(text)
        if request is None:
            raise
        return request


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


def request_from_text(text: str) -> dict[str, Any] | None:
    """The request (kind and puzzle) of a pasted game ID or address; None when the text is
    none of them. Raises ``SolveError`` for one recognised but wrong (a Solo ID with too few
    cells, a jigsaw ID)."""
    if is_sudoku_line(text.strip()):
        return {"kind": "sudoku", "puzzle": {"grid": text.strip()}}
    compact = "".join(text.split())
    match = GAME_ID.fullmatch(compact)
    if match is not None:
        return read_game_id(match)
    stripped = text.strip()
    if not re.fullmatch(r"https?://\S+|(?:shikaku|sikaku|sudoku)/\S+", stripped, re.IGNORECASE):
        return None
    query = stripped.split("?", 1)[1] if "?" in stripped else stripped
    puzzle_type = query.split("/", 1)[0].lower().removesuffix("_edit")
    if puzzle_type in ("shikaku", "sikaku"):
        return {"kind": "shikaku", "puzzle": {"url": stripped}}
    if puzzle_type == "sudoku":
        n, values = puzzlink.parse_sudoku_url(stripped)
        return {"kind": "sudoku", "puzzle": {"grid": _rows(values, n)}}
    grid = grid_from_address(stripped)
    if grid is None:
        return None
    return {"kind": "sudoku", "puzzle": {"grid": grid}}


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
            if len(value) > 2 * MAX_SOLO_SIZE**2:  # sudokuwiki's 162 for 81 cells
                raise SolveError(
                    TOO_LARGE,
                    f"the address's {name} parameter has {len(value):,} characters; no grid "
                    f"up to {MAX_SOLO_SIZE}x{MAX_SOLO_SIZE} has more than "
                    f"{2 * MAX_SOLO_SIZE**2:,}",
                    "puzzle",
                )
            return value[:81] if len(value) == 162 else value
    return None


def _clues(grid: str, most: int) -> list[int]:
    """The cells of a Tatham grid description: a letter is a run of blanks (0), a number a
    clue; ``_`` separates two numbers. Refused (``invalid_puzzle``) as soon as it passes
    ``most`` cells or meets a number of more than ``MAX_CLUE_DIGITS`` digits, so a long
    description costs no more than ``most`` cells."""
    values: list[int] = []
    for match in re.finditer(r"[a-z]|\d+|_", grid, re.IGNORECASE):
        token = match[0]
        if token == "_":
            continue
        if token.isdigit():
            if len(token) > MAX_CLUE_DIGITS:
                raise puzzle_error(
                    f"the game ID has a number of {len(token):,} digits at character "
                    f"{match.start():,} of its grid; no clue has more than {MAX_CLUE_DIGITS}"
                )
            values.append(int(token))
        else:
            values.extend([0] * (ord(token.lower()) - ord("a") + 1))
        if len(values) > most:
            raise puzzle_error(
                f"the game ID's grid describes more than {most:,} cells, more than its size holds"
            )
    return values


def read_game_id(match: re.Match[str]) -> dict[str, Any]:
    """A Tatham game ID (``GAME_ID`` matched): Solo when it describes (C*R)^2 cells, else
    Rectangles when W*H, else Solo's own message."""
    first, second, flags, grid, rest = match.groups()
    for side in (first, second or ""):
        if len(side) > MAX_SIDE_DIGITS:
            raise puzzle_error(f"the game ID's size {shown(side)} is far too large")
    cols = int(first)
    rows = 1 if second is None else int(second)
    n = cols * rows
    # The sizes against the kinds' limits before a cell is read: a Solo game of n x n cells,
    # or (with two sides) a Rectangles grid of cols x rows.
    solo_fits = 1 <= n <= MAX_SOLO_SIZE
    rectangles_fits = second is not None and 1 <= max(cols, rows) <= MAX_RECTANGLES_SIDE
    if not solo_fits and not rectangles_fits:
        raise SolveError(
            TOO_LARGE,
            f"the game ID's size {cols}x{rows} is too large: a Solo game has at most "
            f"{MAX_SOLO_SIZE} symbols (CxR with C*R <= {MAX_SOLO_SIZE}) and a Rectangles "
            f"grid at most {MAX_RECTANGLES_SIDE} x {MAX_RECTANGLES_SIDE} cells",
            "puzzle",
        )
    values = _clues(grid, max(n * n if solo_fits else 0, n if rectangles_fits else 0))
    if len(values) != n * n and second is not None and len(values) == cols * rows:
        if rest:
            raise puzzle_error("a Rectangles game ID has nothing after its grid")
        clues = [[cell // cols, cell % cols, value] for cell, value in enumerate(values) if value]
        return {"kind": "shikaku", "puzzle": {"rows": rows, "cols": cols, "clues": clues}}
    lower = re.sub(r"d[a-z]+$", "", (flags or "").lower())  # a difficulty's letters: no flags
    if "j" in lower or "k" in lower or (rest and len(rest) > 1):
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


def grid_description(values: list[int]) -> str:
    """Tatham's grid description of cells row by row (0 blank), as his games write it."""
    parts: list[str] = []
    blanks = 0
    after_number = False
    for value in values:
        if not value:
            blanks += 1
            continue
        while blanks:
            run = min(blanks, 26)
            parts.append(chr(ord("a") + run - 1))
            blanks -= run
            after_number = False
        if after_number:
            parts.append("_")
        parts.append(str(value))
        after_number = True
    while blanks:
        run = min(blanks, 26)
        parts.append(chr(ord("a") + run - 1))
        blanks -= run
    return "".join(parts)


def solo_id(values: list[int], box_rows: int, box_cols: int, diagonals: bool = False) -> str:
    """The Solo game ID of a Sudoku: its cells row by row (0 blank), boxes ``box_rows`` tall
    and ``box_cols`` wide, with the X diagonals or not."""
    return f"{box_cols}x{box_rows}{'x' if diagonals else ''}:{grid_description(values)}"


def rectangles_id(rows: int, cols: int, clues: list[tuple[int, int, int]]) -> str:
    """The Rectangles game ID of a Shikaku: its size and clues ``(row, col, n)``."""
    values = [0] * (rows * cols)
    for row, col, size in clues:
        values[row * cols + col] = size
    return f"{cols}x{rows}:{grid_description(values)}"
