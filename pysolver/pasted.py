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

from pysolver import protocol
from pysolver.kinds import kind_module, kind_names
from pysolver.protocol import SolveError


def read_request(text: str) -> Any:
    """A request from text: JSON, or else a puzzle in a kind's pasted format
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
