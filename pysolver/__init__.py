"""pysolver: puzzle solvers in pure Python behind one JSON protocol.

``solve(request)`` takes a request dict (see ``pysolver.protocol``) and returns a response dict;
it never raises on bad input.
"""

from pysolver.api import solve

__version__ = "0.1.0"
__all__ = ["solve", "__version__"]
