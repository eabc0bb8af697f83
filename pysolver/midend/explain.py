"""Explain and hint modes (``"mode": "explain"``, ``"mode": "hint"``): the midend's side of
solving as a person does.

A kind that explains has, besides its contract (``pysolver.kinds``), module functions
``explain(puzzle, args: ExplainArgs) -> Explained`` and ``hint(puzzle, args: ExplainArgs) ->
Hinted`` (translation only: the techniques are ``pysolver.logic``'s), ``HINT_FIELDS`` (the
puzzle fields hint mode adds to ``PUZZLE_FIELDS``: the player's ``entries``...) and
``explain_facts()`` (its techniques with their levels, for facts.json).

The midend owns the rules: the modes for kinds with the hooks only; the request's fields (no
``engine``, ``limit``, ``seed``, ``jobs``, ``subtree``: a path is one, made by the kind's own
engine, the same on every run); the puzzle's fields; progress and cancel through one
``Monitor``; and the response:

- explain: ``steps`` (each ``technique``, ``place`` [[r, c, d]], ``eliminate`` [[r, c, d]],
  ``cells`` [[r, c]], ``text``; a guess adds ``alternatives``), ``grade`` (``level``, ``score``,
  ``techniques``), ``solutions`` (the solution the path reaches), ``count`` 1, ``unique`` and
  ``complete`` (false when the puzzle has more than one solution);
- hint: ``hint`` (one step; technique ``mistake`` when the player's state contradicts the
  solution, ``solved`` when it is the solution) and ``steps`` (the path from the player's
  state up to and including its first placement, ``hint`` first).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pysolver.engines.monitor import Monitor
from pysolver.midend.plan import ExplainArgs
from pysolver.protocol import INVALID_REQUEST, Query, SolveError

if TYPE_CHECKING:
    from pysolver.midend.registry import Kind

MODES = ("explain", "hint")
# Request fields these modes refuse: the path is one, made by the kind's own engine.
REFUSED_FIELDS = ("engine", "limit", "seed", "jobs", "subtree")


def explaining_kinds() -> list[str]:
    """The kinds with ``explain`` and ``hint`` hooks, in registry order."""
    from pysolver.kinds import kind_names
    from pysolver.midend.registry import kind

    return [name for name in kind_names() if kind(name).can_explain]


def check_request(the_kind: Kind, request: dict[str, Any], query: Query) -> None:
    """Refuse explain and hint modes for kinds without them, and the fields they do not read."""
    if query.mode not in MODES:
        return
    if not the_kind.can_explain:
        raise SolveError(
            INVALID_REQUEST,
            f"the {the_kind.name} kind has no {query.mode} mode; {query.mode} is for "
            f"{', '.join(explaining_kinds())}",
            "mode",
        )
    for name in REFUSED_FIELDS:
        if name in request:
            raise SolveError(
                INVALID_REQUEST,
                f"{query.mode} mode follows one logical path with the kind's own engine; "
                f"drop {name}",
                name,
            )


def puzzle_fields(the_kind: Kind, query: Query) -> tuple[str, ...]:
    """The puzzle fields of a request in ``query.mode`` (hint mode adds the player's state)."""
    module: Any = the_kind.module
    if query.mode == "hint":
        return (*module.PUZZLE_FIELDS, *module.HINT_FIELDS)
    fields: tuple[str, ...] = module.PUZZLE_FIELDS
    return fields


def run(the_kind: Kind, puzzle: Any, query: Query) -> dict[str, Any]:
    """The response fields of an explain or hint request (``ok``, ``kind``, ``mode`` and
    ``stats.seconds`` are added by ``pysolver.midend.requests.solve``)."""
    module: Any = the_kind.module
    monitor = Monitor(query.progress, query.cancel)
    args = ExplainArgs(monitor)
    if query.mode == "hint":
        hinted = module.hint(puzzle, args)
        monitor.finish(args.nodes, 0, True)
        return {
            "hint": hinted.hint,
            "steps": hinted.steps,
            "stats": {"nodes": args.nodes},
        }
    explained = module.explain(puzzle, args)
    monitor.finish(args.nodes, 1, True)
    return {
        "count": 1,
        "complete": explained.unique,
        "unique": explained.unique,
        "solutions": [explained.solution],
        "steps": explained.steps,
        "grade": explained.grade,
        "stats": {"nodes": args.nodes},
    }
