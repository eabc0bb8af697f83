"""pysolver: puzzle solvers in pure Python behind one JSON protocol.

``solve(request)`` takes a request dict (see ``pysolver.protocol``) and returns a response dict;
it never raises on bad input.

The Python library (``pysolver.library``) sits on top: ``covers(options, primary, secondary)``
yields exact covers lazily, ``count(...)`` counts them exactly, ``estimate(...)`` says how big
the count would be before running it, and ``Sudoku``, ``Polyomino``, ``Shikaku``, ``Dominoes`` and
``Queens`` have ``solutions()``, ``count()``, ``estimate()``, ``random()`` and ``trace()``, and
print as pictures.
"""

from pysolver.api import solve
from pysolver.library import (
    Dominoes,
    Estimate,
    Polyomino,
    Queens,
    Shikaku,
    Solution,
    SolverError,
    Sudoku,
    count,
    covers,
    estimate,
)

__version__ = "0.1.0"
__all__ = [
    "Dominoes",
    "Estimate",
    "Polyomino",
    "Queens",
    "Shikaku",
    "Solution",
    "SolverError",
    "Sudoku",
    "__version__",
    "count",
    "covers",
    "estimate",
    "solve",
]
