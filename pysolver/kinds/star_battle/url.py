"""puzz.link / pzprjs share links of Star Battle puzzles, read and written.

A link is ``https://puzz.link/p?starbattle/<cols>/<rows>/<stars>/<borders>`` (any host, http or
https, or the bare ``starbattle/...``; pzv.jp and pzprxs write the same). ``<borders>`` is
pzprjs's border encoding: one bit per wall between two cells side by side, first the walls
between horizontally adjacent cells (row by row, left to right), then those between
vertically adjacent cells (row by row), each list packed 5 bits to a base-32 digit (``0``-``9``,
``a``-``v``), the first bit the most significant, the last digit padded with zeros. The regions
are the parts the walls cut the board into; they are named ``A``, ``B``, ... in reading order.
"""

from __future__ import annotations

import re
from typing import Any

from pysolver.kinds.star_battle.board import MAX_N, Board
from pysolver.protocol import TOO_LARGE, SolveError, puzzle_error, shown
from pysolver.puzzlink import MAX_URL_CHARS

PUZZLE_TYPE = "starbattle"
# The region names a link's regions get, in reading order (more than MAX_N of them).
REGION_NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_DIGITS = "0123456789abcdefghijklmnopqrstuv"
# ``[scheme://host/path?]starbattle/<cols>/<rows>/<stars>[/<borders>]``, editors' ``_edit``
# suffix allowed; the sizes are checked as numbers below.
_LINK = re.compile(
    r"(?:https?://[^?\s]*\?)?starbattle(?:_edit)?/([0-9]+)/([0-9]+)/([0-9]+)(?:/([0-9a-v]*))?/?",
    re.IGNORECASE,
)
_PATH = "puzzle"


def is_link(text: str) -> bool:
    """Whether ``text`` looks like a Star Battle share link (to read with ``read_url``)."""
    return (
        re.match(r"\s*(?:https?://[^?\s]*\?)?starbattle(?:_edit)?/", text, re.IGNORECASE)
        is not None
    )


def read_url(url: str) -> dict[str, Any]:
    """The puzzle JSON (``regions``, ``stars``) of a Star Battle link; ``SolveError``
    (``invalid_puzzle`` or ``too_large``, path ``puzzle``) for a link that is none or is
    broken. The board itself is checked when the puzzle is read (``board.parse_puzzle``)."""
    if len(url) > MAX_URL_CHARS:
        raise SolveError(
            TOO_LARGE,
            f"the link has {len(url):,} characters; the limit is {MAX_URL_CHARS:,}",
            _PATH,
        )
    match = _LINK.fullmatch(url.strip().split("#", 1)[0])
    if match is None:
        raise puzzle_error(
            "not a Star Battle link: expected https://puzz.link/p?starbattle/<cols>/<rows>/"
            "<stars>/<borders>",
            _PATH,
        )
    cols_text, rows_text, stars_text, borders = match.groups()
    for name, text in (("columns", cols_text), ("rows", rows_text), ("stars", stars_text)):
        if len(text) > 4 or int(text) > MAX_N:
            raise SolveError(
                TOO_LARGE,
                f"the link's {name} {shown(text)} is more than {MAX_N}, the largest board",
                _PATH,
            )
    cols, rows, stars = int(cols_text), int(rows_text), int(stars_text)
    if cols != rows or cols < 1:
        raise puzzle_error(f"a Star Battle board is square; this link's is {cols} x {rows}", _PATH)
    walls = _read_walls((borders or "").lower(), cols)
    return {"regions": _regions(cols, walls), "stars": stars}


def _read_walls(data: str, n: int) -> tuple[list[bool], list[bool]]:
    """The walls between horizontally adjacent cells (n - 1 per row) and between vertically
    adjacent ones (n per row but the last), from the link's border digits."""
    across = (n - 1) * n
    down = n * (n - 1)
    first = -(-across // 5)
    expected = first + -(-down // 5)
    if len(data) > expected:
        raise puzzle_error(
            f"the link's borders have {len(data)} characters; a {n} x {n} board has {expected}",
            _PATH,
        )
    bits = [_bits(data[:first], across), _bits(data[first:], down)]
    return bits[0], bits[1]


def _bits(digits: str, count: int) -> list[bool]:
    """``count`` bits from base-32 digits, 5 a digit, most significant first; missing digits
    are zeros (pzprjs reads a short link that way)."""
    bits: list[bool] = []
    for digit in digits:
        value = _DIGITS.index(digit)
        bits.extend(bool(value >> shift & 1) for shift in (4, 3, 2, 1, 0))
    bits = bits[:count]
    return bits + [False] * (count - len(bits))


def _regions(n: int, walls: tuple[list[bool], list[bool]]) -> list[str]:
    """The region map the walls cut an n x n board into: each part gets the next name."""
    across, down = walls
    label: dict[tuple[int, int], int] = {}
    parts = 0
    for start in ((r, c) for r in range(n) for c in range(n)):
        if start in label:
            continue
        label[start] = parts
        stack = [start]
        while stack:
            r, c = stack.pop()
            steps = [
                ((r, c + 1), c < n - 1 and not across[r * (n - 1) + c]),
                ((r, c - 1), c > 0 and not across[r * (n - 1) + c - 1]),
                ((r + 1, c), r < n - 1 and not down[r * n + c]),
                ((r - 1, c), r > 0 and not down[(r - 1) * n + c]),
            ]
            for other, open_side in steps:
                if open_side and other not in label:
                    label[other] = parts
                    stack.append(other)
        parts += 1
    if parts > len(REGION_NAMES):
        raise puzzle_error(
            f"the link's borders cut the board into {parts} regions; a {n} x {n} board has {n}",
            _PATH,
        )
    return ["".join(REGION_NAMES[label[r, c]] for c in range(n)) for r in range(n)]


def write_url(board: Board) -> str:
    """The puzz.link link of a board (walls between cells of different regions)."""
    n, rows = board.n, board.rows
    across = [rows[r][c] != rows[r][c + 1] for r in range(n) for c in range(n - 1)]
    down = [rows[r][c] != rows[r + 1][c] for r in range(n - 1) for c in range(n)]
    return (
        f"https://puzz.link/p?{PUZZLE_TYPE}/{n}/{n}/{board.stars}/{_digits(across)}{_digits(down)}"
    )


def _digits(bits: list[bool]) -> str:
    """Bits packed 5 to a base-32 digit, most significant first, the last padded."""
    out = []
    for start in range(0, len(bits), 5):
        chunk = bits[start : start + 5]
        value = sum(1 << (4 - shift) for shift, bit in enumerate(chunk) if bit)
        out.append(_DIGITS[value])
    return "".join(out)


def read_pasted(text: str) -> dict[str, Any] | None:
    """The request of a pasted Star Battle link (``{"kind": "star_battle", "puzzle": ...}``),
    or None when the text is not one; for the generic paste reader (``pysolver.pasted``)."""
    if not is_link(text):
        return None
    return {"kind": "star_battle", "puzzle": read_url(text.strip())}
