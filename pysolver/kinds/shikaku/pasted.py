"""Shikaku as other programs and sites write it: puzz.link / pzprjs share links (read and
written; ``pysolver.puzzlink``) and Simon Tatham's Rectangles game IDs (read and written;
``pysolver.tatham``), and the ``read_pasted`` hook (``pysolver.pasted`` asks every kind).

A puzz.link Shikaku URL is ``shikaku/<cols>/<rows>/<data>`` (``sikaku`` too) on any host, or
bare. A Rectangles ID is ``WxH:grid``, a grid W wide and H tall, so W*H cells (an ID of
(W*H)^2 cells is Solo's: the sudoku kind reads it). A clue is ``(row, col, n)``; URL errors
have the path ``puzzle.url``, and the grid's size limits are the kind's to check.
"""

from __future__ import annotations

from typing import Any

from pysolver import puzzlink, tatham
from pysolver.protocol import TOO_LARGE, SolveError, puzzle_error

URL_PATH = "puzzle.url"
URL_TYPES = ("shikaku", "sikaku")

Clue = tuple[int, int, int]


def read_pasted(text: str, max_side: int) -> dict[str, Any] | None:
    """The request of a pasted Rectangles game ID or puzz.link Shikaku URL; None when the text
    is neither. A game ID's sides past ``max_side`` (the kind's ``MAX_SIDE``, which the kind's
    hook passes: its module imports this one) are refused before a cell is made; a URL's are
    the kind's to check, as for a URL in a request."""
    game = tatham.read_game_id(text)
    if game is not None:
        return read_rectangles_id(game, max_side)
    stripped = text.strip()
    if puzzlink.url_type(stripped, URL_TYPES) in URL_TYPES:
        return {"kind": "shikaku", "puzzle": {"url": stripped}}
    return None


def read_rectangles_id(game: tatham.GameId, max_side: int) -> dict[str, Any] | None:
    """The request of a Rectangles game ID: ``WxH`` and W*H cells (None for any other shape,
    Solo's among them). The size is checked before a cell is made."""
    cols = game.first
    if game.second is None:
        return None
    rows = game.second
    count = game.cell_count
    if count != cols * rows or count == (cols * rows) ** 2:
        return None
    if game.rest:
        raise puzzle_error("a Rectangles game ID has nothing after its grid")
    if max(cols, rows) > max_side:
        raise SolveError(
            TOO_LARGE,
            f"the game ID's size {cols}x{rows} is too large: a Rectangles grid has at most "
            f"{max_side} x {max_side} cells",
            "puzzle",
        )
    values = game.cells()
    clues = [[cell // cols, cell % cols, value] for cell, value in enumerate(values) if value]
    return {"kind": "shikaku", "puzzle": {"rows": rows, "cols": cols, "clues": clues}}


def rectangles_id(rows: int, cols: int, clues: list[tuple[int, int, int]]) -> str:
    """The Rectangles game ID of a Shikaku: its size and clues ``(row, col, n)``."""
    values = [0] * (rows * cols)
    for row, col, size in clues:
        values[row * cols + col] = size
    return f"{cols}x{rows}:{tatham.grid_description(values)}"


def parse_url(url: str) -> tuple[int, int, list[Clue]]:
    """Read a puzz.link / pzprjs Shikaku URL into ``(rows, cols, clues)``."""
    cols, rows, data = puzzlink.url_parts(url, URL_TYPES, "Shikaku", URL_PATH)
    return rows, cols, puzzlink.decode_numbers(data, rows, cols, URL_PATH)


def format_url(rows: int, cols: int, clues: list[Clue]) -> str:
    """The puzz.link URL of a grid and its clues (taken as valid: see ``shikaku.to_url``)."""
    return f"https://puzz.link/p?shikaku/{cols}/{rows}/{puzzlink.encode_numbers(rows, cols, clues)}"
