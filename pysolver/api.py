"""``solve(request)``: the one entry point of the worker, the CLI and the tests.

A thin door to the midend (``pysolver.midend.requests``), which reads the request, runs the
kind's search (serially, or split into tasks for a runner) and builds the response.
``answer_task`` is what every parallel runner executes for one task.
"""

from __future__ import annotations

from pysolver.midend.requests import answer_task, solve

__all__ = ["answer_task", "solve"]
