"""The rules around every search, once for all kinds: a ``Plan`` (``pysolver.midend.plan``) in,
the response fields out.

- The engine: the request's, or the kind's default, moved to another of the kind's engines that
  fits the memory budget when the request named none (``choose_engine``).
- The count rule: count mode searches one past ``limit`` (``Query.search_limit``) and reports
  more as ``limit``, incomplete (``protocol.cap_count``, applied by ``pysolver.midend.solve``).
- The listing cap: a response lists at most ``listed_cap(plan)`` solutions in every mode, trace
  included (``budget.listed_cap``); past it they are counted and the response says
  ``solutions_truncated``.
- Heatmaps: counted one past ``limit`` up to the budget's heatmap cap, summed over the first
  ``limit`` kept solutions, every key of the kind present (zero grids without solutions).
- Seeds (``Query.rng``), progress (a ``Monitor`` with the kind's decoder for recent solutions),
  subtree tasks (``SearchArgs.path`` and ``branch``), trace steps and the response fields.
"""

from __future__ import annotations

from typing import Any

from pysolver import budget, protocol
from pysolver.engines import trace
from pysolver.engines.monitor import Monitor
from pysolver.midend.plan import Plan, SearchArgs, TraceArgs
from pysolver.protocol import Query, SolveError


def choose_engine(plan: Plan, engine: str, engines: tuple[str, ...], named: bool) -> str:
    """``engine`` if its estimate fits the memory budget; else, when the request named no
    engine, the first of ``engines`` that fits; else ``too_large`` saying what to shrink and
    naming an engine that would fit, if one would."""
    if plan.needed_bytes is None:
        return engine
    needed = plan.needed_bytes(engine)
    if budget.fits(needed):
        return engine
    fitting = [
        other for other in engines if other != engine and budget.fits(plan.needed_bytes(other))
    ]
    if fitting and not named:
        return fitting[0]
    budget.check(
        needed,
        plan.too_large.format(engine=engine),
        plan.shrink,
        fits=fitting[0] if fitting else "",
    )
    return engine


def listed_cap(plan: Plan) -> int:
    """How many solutions the response lists, in every mode (see ``budget.listed_cap``)."""
    return budget.listed_cap(plan.listed_bytes, plan.listed_chars)


def recent_decoder(plan: Plan, query: Query) -> Any:
    """Progress reports carry a recent solution, decoded as the response's, when asked."""
    return plan.decode if query.wants_recent else None


def run(
    plan: Plan,
    query: Query,
    engine: str,
    engines: tuple[str, ...],
    monitor: Monitor | None = None,
) -> dict[str, Any]:
    """The response fields of one request's search (``ok``, ``kind``... are added by
    ``pysolver.midend.solve``). ``monitor``: the search is a stage of a longer answer (assist
    mode's count), reported through it; else the request's own."""
    if query.mode == "trace":
        return run_trace(plan, query, engine)
    engine = choose_engine(plan, engine, engines, query.engine is not None)
    if monitor is None:
        monitor = Monitor(query.progress, query.cancel, recent_decoder(plan, query))
    heatmap_cap = budget.heatmap_cap(plan.heatmap_bytes or plan.listed_bytes)
    wants_heatmap = query.heatmap and plan.heatmap is not None
    branch = 0
    path = None
    if query.subtree is not None:
        branch = query.subtree_branch(plan.branches) or 0
        path = query.subtree.path
    result = plan.run(
        SearchArgs(
            engine=engine,
            limit=protocol.heatmap_limit(query, heatmap_cap)
            if wants_heatmap
            else query.search_limit,
            keep_solutions=query.wants_solutions or wants_heatmap,
            # A heatmap sums every solution it counts (up to its own cap); a listing is capped.
            max_kept=None if wants_heatmap else listed_cap(plan),
            rng=query.rng() if query.mode == "random" else None,
            monitor=monitor,
            path=path,
            branch=branch,
        )
    )
    extra: dict[str, Any] = {}
    if wants_heatmap and plan.heatmap is not None:
        summed = protocol.heatmap_solutions(result.solutions, result.count, query, heatmap_cap)
        extra["heatmap"] = plan.heatmap(summed)
        result.solutions = []
    if plan.solution_fields is not None:
        extra.update(plan.solution_fields(result.solutions))
    return protocol.response_fields(
        result.map(plan.decode), engine, stats=plan.stats, **plan.fields, **extra
    )


def run_trace(plan: Plan, query: Query, engine: str) -> dict[str, Any]:
    """Trace mode: the steps of the search from its root, solutions under the listing cap."""
    if plan.trace is None:
        raise SolveError(protocol.INVALID_REQUEST, "this kind has no trace mode", "mode")
    recorder = trace.Recorder(query.max_steps)
    result = plan.trace(
        TraceArgs(
            engine=engine,
            limit=query.limit,
            max_kept=listed_cap(plan),
            recorder=recorder,
            monitor=Monitor(query.progress, query.cancel),
        )
    )
    extra = {} if plan.solution_fields is None else plan.solution_fields(result.solutions)
    return protocol.response_fields(
        result.map(plan.decode),
        engine,
        stats={**plan.stats, "steps": len(recorder.steps)},
        **extra,
        steps=recorder.steps,
        truncated=recorder.truncated,
        **plan.trace_fields,
    )
