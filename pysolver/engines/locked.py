"""Exact cover with singles and locked candidates propagated before every branch.

The ``singles`` engine's search (``pysolver.engines.singles``, same problem, arguments, answers,
branching rule and node count: branches only) with one more rule applied to the fixpoint
before each branch, generic in exact cover terms:

* **Locked candidates**: when every live option of a primary item ``a`` also covers a primary
  item ``b``, whichever option covers ``a`` covers ``b`` too, so the options of ``b`` that do
  not cover ``a`` die. In Sudoku terms a box's digit whose places lie in one row or column is
  not elsewhere in that line (pointing), and a line's digit whose places lie in one box is not
  elsewhere in that box (claiming); in a tiling, a cell every placement of which also covers
  a second cell rules out the second cell's other placements.

Only items with at most ``singles.LOCKED_MOST`` (two) live options are looked at as ``a``,
and only when they lose an option: the rule can only newly hold there. Measured on top95 (95
hard Sudoku, each proved unique): 4,018 nodes instead of singles' 9,988, about 32 µs per node
instead of 17, so the search takes about a quarter less time; on easy puzzles (a few branches)
and on counts of many solutions (few dead ends to cut) the checks cost more than the nodes
they save (see the sudoku kind's docstring). ``bench/bench_sudoku.py`` has both rows.
"""

from __future__ import annotations

import random

from pysolver.engines import singles
from pysolver.engines.cover import ExactCoverProblem
from pysolver.engines.monitor import Monitor, SearchResult

# How the page names this engine (see pysolver.facts): a menu title and one sentence.
TITLE = "Singles and locked candidates, then branching"
SUMMARY = (
    "Takes forced options first and rules out what locked candidates (pointing, claiming) "
    "exclude, then branches."
)


def estimated_bytes(problem: ExactCoverProblem) -> int:
    """The ``singles`` engine's bound and the kept shared items of option tuples (the rule's
    other lists are short and per node)."""
    return singles.estimated_bytes(problem) + singles.SHARED_KEPT * singles.SHARED_BYTES


def search(
    problem: ExactCoverProblem,
    *,
    limit: int | None = None,
    keep_solutions: bool = True,
    max_kept: int | None = None,
    rng: random.Random | None = None,
    monitor: Monitor | None = None,
) -> SearchResult[list[int]]:
    """Find up to ``limit`` exact covers of ``problem`` (all when None); see the module doc."""
    return singles.search(
        problem,
        limit=limit,
        keep_solutions=keep_solutions,
        max_kept=max_kept,
        rng=rng,
        monitor=monitor,
        locked=True,
    )
