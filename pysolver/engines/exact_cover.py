"""The exact cover family: the problem shared by the ``dlx``, ``bitset`` and ``singles``
engines, and the table from their names to their modules.

Items are integers: ``0 .. primary-1`` are primary (covered exactly once), ``primary ..
primary+secondary-1`` are secondary (covered at most once). Each option is a list of distinct
item integers. Every engine of the family has ``search(problem, *, limit, keep_solutions, rng,
monitor) -> SearchResult`` and gives the same counts and solution sets; a solution is the sorted
list of chosen option indices.

Knuth's colours (XCC, his DLX2): an option may give a secondary item a colour, and then any
number of chosen options may share that item as long as they all give it the same colour; an
option using the item uncoloured still excludes every other use of it. Equivalently, two
options are compatible when they share no primary item and every secondary item they share is
coloured, with the same colour, in both. Colours are positive integers in ``colours``, a list
parallel to ``options`` (0 = uncoloured); a problem without colours leaves it None, and the
engines then take their plain code paths and pay nothing for the feature.
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from types import ModuleType

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
    # Per option, per entry: the colour given to that item (0 = none); None when uncoloured.
    colours: list[list[int]] | None = None

    def __post_init__(self) -> None:
        if self.colours is None:
            return
        if len(self.colours) != len(self.options):
            raise ValueError("colours must have one list per option")
        for index, (option, colours) in enumerate(zip(self.options, self.colours, strict=True)):
            if len(colours) != len(option):
                raise ValueError(f"option {index}: one colour per item is needed (0 = none)")
            for item, colour in zip(option, colours, strict=True):
                if colour < 0 or (colour and item < self.primary):
                    raise ValueError(
                        f"option {index}: colour {colour} on item {item}; colours are "
                        "positive and only secondary items can have one"
                    )

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


def search(
    problem: ExactCoverProblem,
    engine: str = "dlx",
    *,
    limit: int | None = None,
    keep_solutions: bool = True,
    rng: random.Random | None = None,
    monitor: Monitor | None = None,
) -> SearchResult[list[int]]:
    """Run Algorithm X on ``problem`` with the named engine.

    limit: stop after this many solutions (None: explore everything).
    keep_solutions: False to only count (count mode), True to return the solutions found.
    rng: when given, options within each branch are tried in an order shuffled by it.
    monitor: progress reports and cancellation (see ``pysolver.engines.monitor``).
    """
    module = engine_modules(engine)[engine]
    result: SearchResult[list[int]] = module.search(
        problem,
        limit=limit,
        keep_solutions=keep_solutions,
        rng=rng,
        monitor=monitor or Monitor(),
    )
    return result
