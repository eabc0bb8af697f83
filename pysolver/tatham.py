"""Simon Tatham's game IDs (his Portable Puzzle Collection's way of writing a puzzle), read and
written: ``CxR:grid`` or ``WxH:grid``, flags after the size, and for some games ``,`` and more.

In a grid description a letter is a run of blank cells (``a`` = 1 ... ``z`` = 26), a number is
a clue, and ``_`` separates two numbers. Which game an ID belongs to is the kinds' to decide
(each kind's ``pasted.py``: Solo's describes (C*R)^2 cells, Rectangles' W*H).
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass

from pysolver.protocol import puzzle_error, shown

# "CxR" or "N", flags (Solo: "x" diagonals, "j" jigsaw, "k" killer, "r4"/"m2" symmetry,
# "d..." difficulty), ":", the grid, and "," before what follows it (a jigsaw's regions).
# Both cases spelled out rather than IGNORECASE: a pasted grid of millions of characters is
# matched twice as fast.
GAME_ID = re.compile(r"^(\d+)(?:[xX](\d+))?([a-zA-Z][a-zA-Z0-9.]*)?:([a-zA-Z0-9_]+)(,.*)?$")
# A random-seed ID ("3x3#592385238", "7x7dh#seed"): the size and flags, "#", and the seed his
# program makes the puzzle from, with its own random generator (not the puzzle itself).
RANDOM_SEED_ID = re.compile(r"^(\d+)(?:[xX](\d+))?([a-zA-Z][a-zA-Z0-9.]*)?#(\S+)$")
MAX_SIDE_DIGITS = 4  # no game's side has more
# No clue of a game ID within the kinds' limits has more digits (a Rectangles clue is at most
# 100 x 100); a longer number is refused before it is read (Python refuses 4,301 digits).
MAX_CLUE_DIGITS = 5
_NUMBER = re.compile(r"\d+")
# Byte tables for ``cell_count`` and the long-number check, passes in C over the encoded grid:
# digits to "1" and all else to "0" (a number starts at each "01"), and per bit of a letter's
# run (a = 1 ... z = 26, either case) the bytes to delete to keep the letters with that bit.
_DIGIT_MASK = bytes(
    ord("1") if chr(byte).isdigit() and byte < 128 else ord("0") for byte in range(256)
)
_RUN_BITS = [
    bytes(
        byte
        for byte in range(256)
        if not (chr(byte) in string.ascii_letters and (ord(chr(byte).lower()) - 96) >> bit & 1)
    )
    for bit in range(5)
]


@dataclass(frozen=True)
class GameId:
    """A game ID's parts: its size (``second`` None for ``N`` alone), flags (lower case,
    ``""`` for none), its grid description, how many cells that describes, and what follows
    the grid.

    The cells themselves are read by ``cells``, once a kind has checked ``cell_count`` and the
    size against its limits: a description of a few characters per 26 cells ("3x3:" and 5
    million "z") would otherwise fill a list of 130 million cells before anything is checked.
    """

    first: int
    second: int | None
    flags: str
    grid: str
    cell_count: int
    rest: str

    def cells(self) -> list[int]:
        """The cells of the grid description, row by row (0 blank)."""
        return cells(self.grid)


def read_game_id(text: str) -> GameId | None:
    """The game ID ``text`` holds (white space anywhere ignored), None when it holds none.
    Raises ``SolveError`` for a side too long to be one or a number of more than
    ``MAX_CLUE_DIGITS`` digits."""
    match = GAME_ID.fullmatch("".join(text.split()))
    if match is None:
        return None
    first, second, flags, grid, rest = match.groups()
    for side in (first, second or ""):
        if len(side) > MAX_SIDE_DIGITS:
            raise puzzle_error(f"the game ID's size {shown(side)} is far too large")
    encoded = grid.encode("ascii")  # GAME_ID's grid is ASCII letters, digits and "_"
    digits = encoded.translate(_DIGIT_MASK)
    long_start = digits.find(b"1" * (MAX_CLUE_DIGITS + 1))
    if long_start >= 0:
        long_number = _NUMBER.match(grid, long_start)
        assert long_number is not None
        raise puzzle_error(
            f"the game ID has a number of {len(long_number[0]):,} digits at character "
            f"{long_start:,} of its grid; no clue has more than {MAX_CLUE_DIGITS}"
        )
    return GameId(
        first=int(first),
        second=None if second is None else int(second),
        flags=(flags or "").lower(),
        grid=grid,
        cell_count=_count_cells(encoded, digits),
        rest=rest or "",
    )


def unread_id_message(text: str, games: str) -> str | None:
    """What to say of a text that looks like one of Tatham's IDs that no kind read (``games``
    names the games the kinds read, for the message): a random-seed ID, or a game ID of
    another game; None for a text that looks like neither."""
    squeezed = "".join(text.split())
    if RANDOM_SEED_ID.fullmatch(squeezed):
        return (
            f"{shown(squeezed)} is a Simon Tatham random-seed ID: it names a puzzle by the seed "
            "his program makes it from, and only his program can make it again. In his game "
            "choose Game > Specific... (or Game > Game ID) and give the game ID it shows (like "
            "3x3:a5b1_2c...) instead; or make a new puzzle here with pysolver generate KIND"
        )
    if GAME_ID.fullmatch(squeezed):
        return (
            f"{shown(squeezed[:40])} looks like a Simon Tatham game ID, but not one of {games} "
            "of the size it gives (the games pysolver reads)"
        )
    return None


def cell_count(grid: str) -> int:
    """How many cells a grid description describes, without making them."""
    encoded = grid.encode("ascii")
    return _count_cells(encoded, encoded.translate(_DIGIT_MASK))


def _count_cells(encoded: bytes, digits: bytes) -> int:
    """``cell_count`` of an ASCII grid and its digit mask: the runs of blanks bit by bit (five
    passes in C, each keeping the letters whose run has that bit) and one cell per number (each
    "01" of the mask, and a number at the start): a few milliseconds per million characters,
    where reading the cells of 5 million "z" would make 130 million."""
    blanks = sum(
        len(encoded.translate(None, delete)) << bit for bit, delete in enumerate(_RUN_BITS)
    )
    return blanks + digits.count(b"01") + digits.startswith(b"1")


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
