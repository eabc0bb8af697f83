"""The registry from a request's ``kind`` to the module that translates it.

Every kind module provides:

``ENGINES``: tuple of engine names it can run; the first is its default (the faster one).
``solve(puzzle, query) -> dict``: validate the puzzle (raising ``SolveError`` with a
``puzzle...`` path), run the engine, and return the response fields ``count``, ``complete``,
``solutions`` and ``stats`` (plus any extras, such as ``engine``).
"""

from __future__ import annotations

import importlib
from types import ModuleType

KINDS = {
    "exact_cover": "pysolver.kinds.exact_cover",
    "polyomino": "pysolver.kinds.polyomino",
    "sudoku": "pysolver.kinds.sudoku",
    "shikaku": "pysolver.kinds.shikaku",
    "domino": "pysolver.kinds.domino",
}


def kind_module(kind: str) -> ModuleType:
    """The module of a registered kind (imported on first use). Raises KeyError if unknown."""
    return importlib.import_module(KINDS[kind])
