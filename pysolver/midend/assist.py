"""Assist mode (``"mode": "assist"``): the midend's side of helping a setter make a puzzle
with one solution.

A kind that assists has, besides its contract (``pysolver.kinds``), a module function
``assist(puzzle, args: AssistArgs) -> Assisted`` (translation and its own checks, each an
engine search with an ``args.stage()`` monitor). For the count it calls ``args.count(puzzle)``,
which the midend answers here by the count mode's own pipeline (``pipeline.run``: the
request's engine or the kind's default within the memory budget, the count rule, the heatmap
summed over the first ``limit`` solutions, progress and cancel), so a count in assist mode is
exactly a count with ``"heatmap": true``.

The midend owns the rules: assist mode for kinds with the hook only; the request's fields
(``limit``, default ``protocol.DEFAULT_ASSIST_LIMIT``, from 2 to ``MAX_HEATMAP_SOLUTIONS``;
``engine`` for the count; no ``seed``, ``jobs``, ``subtree``); progress and cancel through one
``Monitor``; and the response:

- ``count`` (at most ``limit``), ``complete`` (the count is exact and the case's answer whole),
  ``unique`` (when decided), ``engine`` (the count's);
- two or more solutions: ``add``, every candidate given the solutions disagree on, as
  ``{"cell": [r, c], "digit": d, "count": n}`` with ``n`` the solutions left if it were given,
  fewest first; ``add_exact`` (false when the count stopped at ``limit``: each ``n`` is then
  counted over the first ``limit`` solutions only, a lower bound, and a ``note`` says so);
- one solution: ``redundant``, the givens ``[r, c]`` whose removal keeps it unique, each on its
  own, and ``minimal`` (none is);
- no solution: ``conflict``, a minimal set of givens ``[r, c]`` that together have no solution
  (each one needed: without any one of them the rest has a solution);
- ``cancelled: true`` (and ``complete: false``) when stopped: the count so far, no case fields.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from pysolver import protocol
from pysolver.engines.monitor import Monitor
from pysolver.midend import pipeline
from pysolver.midend.plan import AssistArgs, Counted
from pysolver.protocol import INVALID_REQUEST, MAX_HEATMAP_SOLUTIONS, Query, SolveError

if TYPE_CHECKING:
    from pysolver.midend.registry import Kind

# Request fields assist mode refuses: its searches are its own, serial, in search order.
REFUSED_FIELDS = ("seed", "jobs", "subtree")
# The least limit: two solutions must be seen to tell where they differ.
MIN_LIMIT = 2


def assisting_kinds() -> list[str]:
    """The kinds with an ``assist`` hook, in registry order."""
    from pysolver.kinds import kind_names
    from pysolver.midend.registry import kind

    return [name for name in kind_names() if kind(name).can_assist]


def check_request(the_kind: Kind, request: dict[str, Any], query: Query) -> None:
    """Refuse assist mode for kinds without it, the fields it does not read, and a limit it
    cannot count to."""
    if query.mode != "assist":
        return
    if not the_kind.can_assist:
        raise SolveError(
            INVALID_REQUEST,
            f"the {the_kind.name} kind has no assist mode; assist is for "
            f"{', '.join(assisting_kinds())}",
            "mode",
        )
    for name in REFUSED_FIELDS:
        if name in request:
            raise SolveError(
                INVALID_REQUEST,
                f"assist mode runs its own searches, one after another; drop {name}",
                name,
            )
    if query.limit is None or not MIN_LIMIT <= query.limit <= MAX_HEATMAP_SOLUTIONS:
        raise SolveError(
            INVALID_REQUEST,
            f"assist mode counts from {MIN_LIMIT} (to see two solutions differ) to "
            f"{MAX_HEATMAP_SOLUTIONS:,} solutions (each one is kept for the heatmap); "
            f"got limit {protocol.shown(query.limit)}",
            "limit",
        )


def heatmap_count(the_kind: Kind, query: Query, args: AssistArgs, puzzle: Any) -> Counted:
    """``puzzle`` counted up to ``args.limit`` with its heatmap, as count mode would with
    ``"heatmap": true`` (see the module docstring), within the count's share of progress."""
    counting = replace(query, mode="count", heatmap=True, limit=args.limit)
    plan, engine = the_kind.plan(puzzle, counting)
    stage = args.stage()
    stage.share = (0.0, args.count_share)
    fields = pipeline.run(plan, counting, engine, the_kind.module.ENGINES, monitor=stage)
    protocol.cap_count(fields, counting)
    nodes = int(fields["stats"].get("nodes", 0))
    args.nodes += nodes
    cancelled = bool(fields.get("cancelled"))
    if not cancelled:
        args.advance(0, args.count_share)
    return Counted(
        count=fields["count"],
        complete=fields["complete"],
        heatmap=None if cancelled else fields.get("heatmap"),
        engine=fields["engine"],
        nodes=nodes,
        cancelled=cancelled,
    )


def run(the_kind: Kind, puzzle: Any, query: Query) -> dict[str, Any]:
    """The response fields of an assist request (``ok``, ``kind``, ``mode`` and
    ``stats.seconds`` are added by ``pysolver.midend.requests.solve``)."""
    module: Any = the_kind.module
    protocol.engine_for(query, module.ENGINES)  # an unknown engine is refused first
    monitor = Monitor(query.progress, query.cancel)
    assert query.limit is not None  # check_request refused a request without one

    def count(counted: Any) -> Counted:
        return heatmap_count(the_kind, query, args, counted)

    args = AssistArgs(monitor, query.limit, count)
    assisted = module.assist(puzzle, args)
    complete = assisted.complete and not assisted.cancelled
    monitor.finish(args.nodes, assisted.count, complete)
    fields: dict[str, Any] = {
        "engine": assisted.engine,
        "count": assisted.count,
        "complete": complete,
        **assisted.fields,
        **uniqueness(assisted.count, assisted.complete),
        **assisted.answer,
        "stats": {"nodes": args.nodes},
    }
    if assisted.cancelled:
        fields["cancelled"] = True
    return fields


def uniqueness(count: int, complete: bool) -> dict[str, bool]:
    """``unique``: decided once two solutions are counted or the count is exact."""
    if count >= MIN_LIMIT:
        return {"unique": False}
    if complete:
        return {"unique": count == 1}
    return {}
