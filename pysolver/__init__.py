"""pysolver: puzzle solvers in pure Python behind one JSON protocol.

``solve(request)`` takes a request dict (see ``pysolver.protocol``) and returns a response dict;
it never raises on bad input.

The Python library (``pysolver.library``) sits on top: ``covers(options, primary, secondary)``
yields exact covers lazily, ``count(...)`` counts them exactly, ``estimate(...)`` says how big
the count would be before running it, and ``Sudoku``, ``Polyomino``, ``Shikaku``, ``Dominoes`` and
``Queens`` have ``solutions()``, ``count()``, ``estimate()``, ``random()`` and ``trace()``, and
print as pictures. Each comes from its kind's folder (``pysolver/kinds/<kind>/library.py``): this
package exports every kind's names, found on first use, so importing it imports no kind.
"""

from importlib.util import find_spec
from typing import Any

from pysolver import library
from pysolver.api import solve as solve
from pysolver.library import Estimate as Estimate
from pysolver.library import Solution as Solution
from pysolver.library import SolverError as SolverError

__version__ = "0.1.0"
# The names that are no kind's; ``__all__`` adds every kind's (``library.kind_exports``).
_OWN = ("Estimate", "Solution", "SolverError", "__version__", "solve")


def __getattr__(name: str) -> Any:
    if name == "__all__":
        return sorted([*_OWN, *library.kind_exports()])
    # ``from pysolver import pasted`` asks here before it imports the submodule: a submodule's
    # name must not import every kind.
    if not name.startswith("__") and find_spec(f"{__name__}.{name}") is None:
        exports = library.kind_exports()
        if name in exports:
            return exports[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
