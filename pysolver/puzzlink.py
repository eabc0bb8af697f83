"""puzz.link / pzprjs share links of Shikaku puzzles (read and written) and Sudoku (read).

URLs follow puzz.link / pzprjs (also pzv.jp, pzprxs.vercel.app, any host, http or https, or the
bare ``shikaku/<cols>/<rows>/<data>``): cells row by row, a number as one hex digit (0-15),
``-`` + two hex digits (16-255), ``+`` + three (256-4095), ``=`` + three (4096 more) or ``%`` +
three (8192 more); ``g``..``z`` skip 1..20 blank cells. ``format_url`` writes the same format.

A clue is ``(row, col, n)``. Errors are ``SolveError`` with the path ``puzzle.url``; the grid's
size limits are the kind's to check (``pysolver.kinds.shikaku``).
"""

from __future__ import annotations

from pysolver.protocol import TOO_LARGE, SolveError, puzzle_error, shown

MAX_URL_CHARS = 100_000
URL_PATH = "puzzle.url"
# A grid side written with more digits than this is refused before it is read as a number
# (Python refuses to read one of more than 4,300 digits; no grid has even a billion columns).
MAX_SIDE_DIGITS = 9
# The largest Sudoku: the sudoku kind's MAX_SIZE, written here because importing the kind would
# close an import circle through pysolver.facts (tests/test_puzzlink.py checks that they agree).
MAX_SUDOKU_SIZE = 36

Clue = tuple[int, int, int]

# Prefix -> (hex digits that follow, value added): pzprjs' number encoding.
_NUMBER_PREFIXES = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "%": (3, 8192)}
_HEX = "0123456789abcdef"


def _is_whole_number(text: str) -> bool:
    """ASCII digits only: ``str.isdigit`` also accepts '²' (which ``int`` rejects) and
    Arabic-Indic digits (which ``int`` reads), and a share link has neither."""
    return bool(text) and text.isascii() and text.isdigit()


def parse_url(url: str) -> tuple[int, int, list[Clue]]:
    """Read a puzz.link / pzprjs Shikaku URL into ``(rows, cols, clues)``."""
    cols, rows, data = _url_parts(url, ("shikaku", "sikaku"), "Shikaku", URL_PATH)
    return rows, cols, _decode_numbers(data, rows, cols)


def parse_sudoku_url(url: str, path: str = "puzzle") -> tuple[int, list[int]]:
    """Read a puzz.link / pzprjs Sudoku URL (``sudoku/<n>/<n>/<data>``, numbers encoded as
    for Shikaku) into ``(n, values)``: the cells row by row, 0 blank."""
    cols, rows, data = _url_parts(url, ("sudoku",), "Sudoku", path)
    if cols != rows:
        raise puzzle_error(f"a Sudoku grid is square; this URL's is {cols} x {rows}", path)
    if cols > MAX_SUDOKU_SIZE:  # before any cell is made
        raise SolveError(
            TOO_LARGE,
            f"the URL's Sudoku is {cols} x {rows}; the largest size is "
            f"{MAX_SUDOKU_SIZE}x{MAX_SUDOKU_SIZE}",
            path,
        )
    values = [0] * (rows * cols)
    for row, col, value in _decode_numbers(data, rows, cols, path):
        values[row * cols + col] = value
    return rows, values


def _url_parts(url: str, names: tuple[str, ...], title: str, path: str) -> tuple[int, int, str]:
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


def _decode_numbers(data: str, rows: int, cols: int, path: str = URL_PATH) -> list[Clue]:
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


def format_url(rows: int, cols: int, clues: list[Clue]) -> str:
    """The puzz.link URL of a grid and its clues (taken as valid: see ``shikaku.to_url``)."""
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
    return f"https://puzz.link/p?shikaku/{cols}/{rows}/{''.join(pieces)}"


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
