"""pysolver: puzzle solvers in pure Python behind one JSON protocol.

``solve(request)`` takes a request dict (see ``pysolver.protocol``) and returns a response dict;
it never raises on bad input.

The Python library (``pysolver.library``) sits on top: ``covers(options, primary, secondary)``
yields exact covers lazily, ``count(...)`` counts them exactly, and ``Sudoku``, ``Polyomino``,
``Shikaku``, ``Dominoes`` and ``Queens`` have ``solutions()``, ``count()``, ``random()`` and
``trace()``, and print as pictures.
"""

from pysolver.api import solve
from pysolver.library import (
    Dominoes,
    Polyomino,
    Queens,
    Shikaku,
    Solution,
    SolverError,
    Sudoku,
    count,
    covers,
)

__version__ = "0.1.0"
__all__ = [
    "Dominoes",
    "Polyomino",
    "Queens",
    "Shikaku",
    "Solution",
    "SolverError",
    "Sudoku",
    "__version__",
    "count",
    "covers",
    "solve",
]
