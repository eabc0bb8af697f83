"""Simon Tatham's game IDs (his Portable Puzzle Collection's way of writing a puzzle), read and
written: ``CxR:grid`` or ``WxH:grid``, flags after the size, and for some games ``,`` and more.

In a grid description a letter is a run of blank cells (``a`` = 1 ... ``z`` = 26), a number is
a clue, and ``_`` separates two numbers. Which game an ID belongs to is the kinds' to decide
(each kind's ``pasted.py``: Solo's describes (C*R)^2 cells, Rectangles' W*H).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pysolver.protocol import puzzle_error, shown

# "CxR" or "N", flags (Solo: "x" diagonals, "j" jigsaw, "k" killer, "r4"/"m2" symmetry,
# "d..." difficulty), ":", the grid, and "," before what follows it (a jigsaw's regions).
GAME_ID = re.compile(r"^(\d+)(?:x(\d+))?([a-z][a-z0-9.]*)?:([a-z0-9_]+)(,.*)?$", re.IGNORECASE)
MAX_SIDE_DIGITS = 4  # no game's side has more


@dataclass(frozen=True)
class GameId:
    """A game ID's parts: its size (``second`` None for ``N`` alone), flags (lower case,
    ``""`` for none), the cells its grid describes (0 blank) and what follows the grid."""

    first: int
    second: int | None
    flags: str
    values: list[int]
    rest: str


def read_game_id(text: str) -> GameId | None:
    """The game ID ``text`` holds (white space anywhere ignored), None when it holds none.
    Raises ``SolveError`` for a side too long to be one."""
    match = GAME_ID.fullmatch(re.sub(r"\s+", "", text))
    if match is None:
        return None
    first, second, flags, grid, rest = match.groups()
    for side in (first, second or ""):
        if len(side) > MAX_SIDE_DIGITS:
            raise puzzle_error(f"the game ID's size {shown(side)} is far too large")
    return GameId(
        first=int(first),
        second=None if second is None else int(second),
        flags=(flags or "").lower(),
        values=cells(grid),
        rest=rest or "",
    )


def cells(grid: str) -> list[int]:
    """The cells of a grid description, row by row (0 blank)."""
    values: list[int] = []
    for token in re.findall(r"[a-z]|\d+|_", grid, re.IGNORECASE):
        if token == "_":
            continue
        if token.isdigit():
            values.append(int(token))
        else:
            values.extend([0] * (ord(token.lower()) - ord("a") + 1))
    return values


def grid_description(values: list[int]) -> str:
    """The grid description of cells row by row (0 blank), as Tatham's games write it."""
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
