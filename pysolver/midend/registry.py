"""``kind(name)``: a registered kind as the midend and the parallel layer see it.

A ``Kind`` wraps a kind module (``pysolver.kinds``) with what every kind shares: the serial
answer of a request (``solve``: ``prepare`` and ``pipeline.run``), the searches cut into subtree
tasks (``split``), both from one reading of the puzzle (``prepare``, a ``Prepared``), fields
recomputed on a merged parallel answer (``merge_fields``) and whether the kind splits at all
(``splittable``). It is the object ``pysolver.parallel`` receives (its
``PlannedKind`` protocol), so the parallel layer never imports a kind or the midend.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from pysolver.engines import bitset
from pysolver.engines.monitor import Monitor
from pysolver.engines.subtree import Split
from pysolver.kinds import kind_module, kind_names
from pysolver.kinds.contract import KindModule
from pysolver.midend import pipeline
from pysolver.midend.plan import Plan
from pysolver.protocol import CancelCheck, ProgressCallback, Query, engine_for


class Kind:
    """One kind, with the midend's pipeline around its module's translation."""

    def __init__(self, name: str, module: KindModule) -> None:
        self.name = name
        self.module = module
        self.splittable: bool = module.SPLITTABLE
        self.has_heatmap: bool = hasattr(module, "heatmap")
        # Generate mode (``pysolver.midend.generate``): a kind with a ``generate`` hook.
        self.can_generate: bool = hasattr(module, "generate")
        # Explain and hint modes (``pysolver.midend.explain``): a kind with both hooks.
        self.can_explain: bool = hasattr(module, "explain") and hasattr(module, "hint")
        # Assist mode (``pysolver.midend.assist``): a kind with an ``assist`` hook.
        self.can_assist: bool = hasattr(module, "assist")

    def plan(self, puzzle: Any, query: Query) -> tuple[Plan, str]:
        """The kind's plan of ``query`` on ``puzzle`` and the engine asked for (the request's,
        or the kind's default; the kind's own rules may have moved it)."""
        engine = engine_for(query, self.module.ENGINES)
        plan = self.module.prepare(puzzle, query, engine)
        return plan, plan.engine or engine

    def prepare(self, puzzle: Any, query: Query) -> Prepared:
        """``puzzle`` read once for ``query``: its searches, to cut into tasks or run whole."""
        plan, engine = self.plan(puzzle, query)
        return Prepared(self, plan, engine, query)

    def solve(self, puzzle: Any, query: Query) -> dict[str, Any]:
        """The response fields of one serial search (``ok``, ``kind``, ``mode`` and the count
        rule are ``pysolver.midend.requests.solve``'s)."""
        return self.prepare(puzzle, query).solve()

    def split(self, puzzle: Any, query: Query, wanted: int) -> list[Split | None]:
        """The searches ``solve`` runs, each cut into subtrees (about ``wanted`` in all); None
        for a search that must run whole. Validates the puzzle and the engine as ``solve``
        does, so bad input fails once, before any task runs."""
        return self.prepare(puzzle, query).split(wanted)

    def merge_fields(self, fields: dict[str, Any]) -> None:
        """Fields derived from the whole answer (Sudoku's ``unique``): set on a serial answer,
        recomputed on a merged parallel one (a task only knew its subtree)."""
        finish = getattr(self.module, "finish_fields", None)
        if finish is not None:
            finish(fields)


@dataclass
class Prepared:
    """A kind's plan of one request (its puzzle read and encoded once): ``split`` cuts its
    searches into subtrees and ``solve`` runs them whole, so a request that cannot be cut
    runs serially without reading its puzzle again (``pysolver.parallel.solve_split``)."""

    kind: Kind
    plan: Plan
    engine: str
    query: Query

    def solve(self) -> dict[str, Any]:
        """``Kind.solve``'s response fields."""
        fields = pipeline.run(self.plan, self.query, self.engine, self.kind.module.ENGINES)
        self.kind.merge_fields(fields)
        return fields

    @property
    def compiled(self) -> bool:
        """Whether its searches may run the compiled walk: on the engines that hand their
        walks to it (``bitset`` and ``memo``), where it runs (``bitset.compiled_walk``)."""
        return self.engine in ("bitset", "memo") and bitset.compiled_walk() is not None

    def solve_watched(
        self, progress: ProgressCallback | None, cancel: CancelCheck | None
    ) -> dict[str, Any]:
        """``solve`` with these progress and cancel hooks in place of the request's (a
        parallel request's serial start: ``pysolver.parallel``)."""
        query = replace(self.query, progress=progress, cancel=cancel)
        return replace(self, query=query).solve()

    def split(self, wanted: int) -> list[Split | None]:
        """``Kind.split``'s searches, each cut into about ``wanted`` subtrees or None."""
        plan, query = self.plan, self.query
        engines = self.kind.module.ENGINES
        engine = pipeline.choose_engine(plan, self.engine, engines, query.engine is not None)
        if plan.split is None:
            return [None] * plan.branches
        # Cutting walks the first levels of the tree outside any search: its checkpoints
        # raise ``Cancelled`` on a cancel, as a kind's reading and encoding do.
        return plan.split(engine, wanted, Monitor(cancel=query.cancel))


@cache
def kind(name: str) -> Kind:
    """The kind ``name``. Raises KeyError if unknown."""
    return Kind(name, kind_module(name))


def heatmap_kinds() -> list[str]:
    """The kinds that sum heatmaps, in registry order."""
    return [name for name in kind_names() if kind(name).has_heatmap]
