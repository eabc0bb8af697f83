"""puzz.link / pzprjs share links: the parts every puzzle type's URL has, and the number
encoding of its cells, read and written (each kind's ``pasted.py`` reads its own types).

URLs follow puzz.link / pzprjs (also pzv.jp, pzprxs.vercel.app, any host, http or https, or the
bare ``<type>/<cols>/<rows>/<data>``): cells row by row, a number as one hex digit (0-15),
``-`` + two hex digits (16-255), ``+`` + three (256-4095), ``=`` + three (4096 more) or ``%`` +
three (8192 more); ``g``..``z`` skip 1..20 blank cells. ``encode_numbers`` writes the same.

A clue is ``(row, col, n)``. Errors are ``SolveError`` with the path the caller gives; the
grid's size limits are the kind's to check.
"""

from __future__ import annotations

import re

from pysolver.protocol import TOO_LARGE, SolveError, puzzle_error, shown

MAX_URL_CHARS = 100_000
# A grid side written with more digits than this is refused before it is read as a number
# (Python refuses to read one of more than 4,300 digits; no grid has even a billion columns).
MAX_SIDE_DIGITS = 9

Clue = tuple[int, int, int]

# Prefix -> (hex digits that follow, value added): pzprjs' number encoding.
_NUMBER_PREFIXES = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "%": (3, 8192)}
_HEX = "0123456789abcdef"


def _is_whole_number(text: str) -> bool:
    """ASCII digits only: ``str.isdigit`` also accepts '²' (which ``int`` rejects) and
    Arabic-Indic digits (which ``int`` reads), and a share link has neither."""
    return bool(text) and text.isascii() and text.isdigit()


def url_parts(url: str, names: tuple[str, ...], title: str, path: str) -> tuple[int, int, str]:
    """The columns, rows and data of a pzprjs URL of one of the puzzle types ``names``."""
    if len(url) > MAX_URL_CHARS:
        raise SolveError(
            TOO_LARGE, f"the URL has {len(url):,} characters; the limit is {MAX_URL_CHARS:,}", path
        )
    text = url.strip()
    if "?" in text:
        text = text.split("?", 1)[1]
    text = text.split("#", 1)[0].strip("/")
    parts = text.split("/")
    kind = parts[0].lower().removesuffix("_edit")
    if kind not in names:
        raise puzzle_error(
            f"not a {title} URL: expected ...?{names[0]}/<cols>/<rows>/<data>, found "
            f"{shown(parts[0])} where the puzzle type should be",
            path,
        )
    # Skip flag tokens some editors insert before the size (e.g. "edit").
    fields = [part for part in parts[1:] if part]
    while fields and not _is_whole_number(fields[0]) and len(fields) > 3:
        fields.pop(0)
    if len(fields) < 2:
        raise puzzle_error(
            f"the URL lacks the grid size: expected {names[0]}/<cols>/<rows>/<data>", path
        )
    for name, value in (("columns", fields[0]), ("rows", fields[1])):
        if not _is_whole_number(value):
            raise puzzle_error(
                f"the URL's {name} {shown(value)} is not a whole number written with the digits "
                "0-9",
                path,
            )
        if len(value) > MAX_SIDE_DIGITS:
            raise SolveError(
                TOO_LARGE,
                f"the URL's {name} {shown(value)} has {len(value):,} digits; no grid is that large",
                path,
            )
    cols, rows = int(fields[0]), int(fields[1])
    for name, side in (("columns", cols), ("rows", rows)):
        if side < 1:
            raise puzzle_error(f"the URL's {name} must be at least 1, got {side}", path)
    return cols, rows, "/".join(fields[2:])


def decode_numbers(data: str, rows: int, cols: int, path: str) -> list[Clue]:
    """The clues a URL's data writes over a grid of ``rows`` x ``cols`` cells."""
    cells = rows * cols
    clues: list[Clue] = []
    cell = 0
    position = 0
    while position < len(data):
        char = data[position]
        if cell >= cells:
            raise puzzle_error(
                f"the URL data goes on past the last of the {cells} cells ({cols} x {rows}) at "
                f"character {position}; is the size right?",
                path,
            )
        if char in _HEX:
            clues.append((cell // cols, cell % cols, int(char, 16)))
            cell += 1
            position += 1
        elif char in _NUMBER_PREFIXES:
            digits, offset = _NUMBER_PREFIXES[char]
            chunk = data[position + 1 : position + 1 + digits]
            if len(chunk) != digits or any(c not in _HEX for c in chunk):
                raise puzzle_error(
                    f"the URL data has {shown(char)} at character {position} followed by "
                    f"{shown(chunk)}; it must be followed by {digits} hex digits",
                    path,
                )
            clues.append((cell // cols, cell % cols, int(chunk, 16) + offset))
            cell += 1
            position += 1 + digits
        elif "g" <= char <= "z":
            cell += int(char, 36) - 15
            position += 1
        elif char == ".":
            raise puzzle_error(
                f"the URL has a question-mark clue at row {cell // cols + 1}, column "
                f"{cell % cols + 1}; "
                "this solver needs every clue's number",
                path,
            )
        else:
            raise puzzle_error(
                f"the URL data has an unexpected character {shown(char)} at position {position}",
                path,
            )
    for row, col, size in clues:
        if size < 1:
            raise puzzle_error(
                f"the URL has a clue {size} at row {row + 1}, column {col + 1}; clues must be "
                "at least 1",
                path,
            )
    return clues


def encode_numbers(rows: int, cols: int, clues: list[Clue]) -> str:
    """The data part of a URL writing these clues (taken as valid) over ``rows`` x ``cols``."""
    by_cell = {row * cols + col: size for row, col, size in clues}
    pieces: list[str] = []
    blanks = 0
    for cell in range(rows * cols):
        size = by_cell.get(cell)
        if size is None:
            blanks += 1
            if blanks == 20:
                pieces.append("z")
                blanks = 0
            continue
        if blanks:
            pieces.append(chr(ord("f") + blanks))
            blanks = 0
        pieces.append(_encode_number(size))
    if blanks:
        pieces.append(chr(ord("f") + blanks))
    return "".join(pieces)


def _encode_number(size: int) -> str:
    if size < 16:
        return format(size, "x")
    if size < 256:
        return "-" + format(size, "02x")
    if size < 4096:
        return "+" + format(size, "03x")
    if size < 8192:
        return "=" + format(size - 4096, "03x")
    return "%" + format(size - 8192, "03x")


def url_type(text: str, bare: tuple[str, ...]) -> str | None:
    """The puzzle type a share link names (lower case, ``_edit`` dropped): ``text`` an http(s)
    address (any, whose type may be none of puzz.link's), or the bare ``<type>/...`` of one of
    the types ``bare``; None when it is neither."""
    names = "|".join(map(re.escape, bare))
    if not re.fullmatch(rf"https?://\S+|(?:{names})/\S+", text, re.IGNORECASE):
        return None
    query = text.split("?", 1)[1] if "?" in text else text
    return query.split("/", 1)[0].lower().removesuffix("_edit")
