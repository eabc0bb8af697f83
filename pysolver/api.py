"""``solve(request)``: the one entry point of the worker, the CLI and the tests.

A thin door to the midend (``pysolver.midend.requests.solve``), which reads the request, runs
the kind's search and builds the response.
"""

from __future__ import annotations

from pysolver.midend.requests import solve

__all__ = ["solve"]
