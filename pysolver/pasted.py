"""Puzzles as other programs and sites write them, read into requests (the command line's
``solve`` and ``batch`` take them where they take a JSON request).

Each kind reads its own (its ``read_pasted`` hook, in its folder's ``pasted.py``: Sudoku lines,
Solo game IDs, sudokuwiki addresses and puzz.link Sudoku URLs; Rectangles game IDs and puzz.link
Shikaku URLs); ``request_from_text`` asks every kind in registry order, and the first that knows
the text answers. The codecs several kinds share are ``pysolver.tatham`` and
``pysolver.puzzlink``.
"""

from __future__ import annotations

from typing import Any

from pysolver import protocol, tatham
from pysolver.kinds import kind_module, kind_names
from pysolver.protocol import SolveError

# What a line or file may hold, for the message on one that is none of them.
ACCEPTED = (
    'a JSON request ({"kind": "sudoku", "puzzle": {...}}), or a puzzle as other programs '
    "write it: an 81-character Sudoku line, a Solo or Rectangles game ID (3x3:..., 7x7:...), "
    "a sudokuwiki address or a puzz.link URL"
)


def read_request(text: str) -> Any:
    """A request from text: JSON, or else a puzzle in a kind's pasted format
    (``request_from_text``). Raises ``SolveError`` (``invalid_json``) for text that is none:
    the JSON error for text that starts as JSON does, else what the text looks like (a Tatham
    random-seed ID) and what to give instead."""
    try:
        return protocol.loads(text)
    except SolveError as error:
        if error.code != protocol.INVALID_JSON:
            raise
        request = request_from_text(text)
        if request is not None:
            return request
        if text.lstrip().startswith(("{", "[")):
            raise
        known = tatham.unread_id_message(text, "Solo's or Rectangles'")
        if known is not None:
            raise SolveError(protocol.INVALID_JSON, known) from None
        raise SolveError(
            protocol.INVALID_JSON,
            f"{protocol.shown(text.strip()[:40])} is not a request pysolver reads; give {ACCEPTED}",
        ) from None


def request_from_text(text: str) -> dict[str, Any] | None:
    """The request (kind and puzzle) of a pasted puzzle; None when no kind knows the text.
    Raises ``SolveError`` for one recognised but wrong (a Solo ID with too few cells, a
    jigsaw ID)."""
    for name in kind_names():
        module: Any = kind_module(name)
        if hasattr(module, "read_pasted"):
            request: dict[str, Any] | None = module.read_pasted(text)
            if request is not None:
                return request
    return None
