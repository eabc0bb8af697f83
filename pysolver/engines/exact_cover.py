"""The exact cover family: the problem shared by the ``dlx``, ``bitset`` and ``singles``
engines, and the table from their names to their modules.

Items are integers: ``0 .. primary-1`` are primary (covered exactly once), ``primary ..
primary+secondary-1`` are secondary (covered at most once). Each option is a list of distinct
item integers. Every engine of the family has ``search(problem, *, limit, keep_solutions,
max_kept, rng, monitor) -> SearchResult`` and gives the same counts and solution sets; a
solution is the sorted list of chosen option indices.
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from types import ModuleType

from pysolver import budget
from pysolver.engines.monitor import Monitor, SearchResult

# The family's engines: name -> module. Each imports ``ExactCoverProblem`` from here, so they
# are imported on first use (``engine_modules``) rather than at the top of this module.
_MODULES = {
    "dlx": "pysolver.engines.dlx",
    "bitset": "pysolver.engines.bitset",
    "singles": "pysolver.engines.singles",
}
ENGINES = tuple(_MODULES)

# Documented cap on matrix size: the total number of (option, item) entries. Above this the
# matrix alone would take hundreds of MB in a browser tab.
MAX_ENTRIES = 2_000_000


@dataclass
class ExactCoverProblem:
    primary: int
    secondary: int
    options: list[list[int]]

    @property
    def items(self) -> int:
        return self.primary + self.secondary


def engine_modules(*names: str) -> dict[str, ModuleType]:
    """The family's engine table for ``names`` (all when none), in that order: a kind's table.

    Raises ``ValueError`` for a name that is not an exact cover engine.
    """
    unknown = [name for name in names if name not in _MODULES]
    if unknown:
        raise ValueError(f"unknown exact cover engine {unknown[0]!r}; known: {', '.join(ENGINES)}")
    return {name: importlib.import_module(_MODULES[name]) for name in names or ENGINES}


def estimated_bytes(problem: ExactCoverProblem, engine: str) -> int:
    """What the named engine would allocate for ``problem`` (its ``estimated_bytes``)."""
    return int(engine_modules(engine)[engine].estimated_bytes(problem))


def engine_within_budget(
    problem: ExactCoverProblem,
    engine: str,
    engines: tuple[str, ...],
    named: bool,
    shrink: str,
    path: str = "puzzle",
) -> str:
    """``engine`` if its estimate fits the memory budget; else, when the request named no
    engine, the first of the kind's ``engines`` that fits; else ``too_large`` saying what to
    shrink (``shrink``) and naming an engine that would fit, if one would."""
    needed = estimated_bytes(problem, engine)
    if budget.fits(needed):
        return engine
    fitting = [
        other
        for other in engines
        if other != engine and budget.fits(estimated_bytes(problem, other))
    ]
    if fitting and not named:
        return fitting[0]
    budget.check(
        needed,
        f"the {engine} engine on this matrix ({len(problem.options):,} options, "
        f"{problem.primary:,} primary items)",
        shrink,
        path,
        fits=fitting[0] if fitting else "",
    )
    return engine


def search(
    problem: ExactCoverProblem,
    engine: str = "dlx",
    *,
    limit: int | None = None,
    keep_solutions: bool = True,
    max_kept: int | None = None,
    rng: random.Random | None = None,
    monitor: Monitor | None = None,
) -> SearchResult[list[int]]:
    """Run Algorithm X on ``problem`` with the named engine.

    limit: stop after this many solutions (None: explore everything).
    keep_solutions: False to only count (count mode), True to return the solutions found.
    max_kept: keep at most this many solutions; the search goes on counting past them (the
    response's listing cap, ``pysolver.budget.listed_cap``).
    rng: when given, options within each branch are tried in an order shuffled by it.
    monitor: progress reports and cancellation (see ``pysolver.engines.monitor``).
    """
    module = engine_modules(engine)[engine]
    result: SearchResult[list[int]] = module.search(
        problem,
        limit=limit,
        keep_solutions=keep_solutions,
        max_kept=max_kept,
        rng=rng,
        monitor=monitor or Monitor(),
    )
    return result
