"""Generate mode (``"mode": "generate"``): the midend's side of making a puzzle.

A kind that generates has, besides its contract (``pysolver.kinds``), a module function
``generate(puzzle, args: GenerateArgs) -> Generated`` (translation only: the searches are its
engines'), ``GENERATE_FIELDS`` (the puzzle's fields in generate mode: ``size``, or ``rows`` and
``cols``), ``DIFFICULTIES`` (its levels, easiest first) and ``GENERATE_OPTIONS`` (the request
options only generate mode takes, ``difficulty`` first; also listed in its ``OPTIONS``).

The midend owns the rules: generate mode for kinds with the hook only; the request's fields
(no ``engine``, ``limit``, ``subtree``: a generator chooses its engines and makes one puzzle);
``difficulty`` one of the kind's levels (default: the first); the seed (the request's, or one
picked and reported); progress and cancel through one ``Monitor``; and the response:
``puzzle``, ``solutions`` (its one solution), ``count`` 1, ``complete``, ``grade``,
``difficulty`` (the level asked), ``level`` (the level the puzzle has: its grade's), ``note``
whenever the two differ (the kind's words, else the midend's), ``stats`` (``nodes``,
``attempts``).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from pysolver import protocol
from pysolver.engines.monitor import Monitor
from pysolver.midend.plan import GenerateArgs
from pysolver.protocol import INVALID_REQUEST, Query, SolveError, shown

if TYPE_CHECKING:
    from pysolver.midend.registry import Kind

# Request fields generate mode refuses: the generator picks its engines and makes one puzzle.
REFUSED_FIELDS = ("engine", "limit", "subtree")


def generating_kinds() -> list[str]:
    """The kinds with a ``generate`` hook, in registry order."""
    from pysolver.kinds import kind_names
    from pysolver.midend.registry import kind

    return [name for name in kind_names() if kind(name).can_generate]


def check_request(the_kind: Kind, request: dict[str, Any], query: Query) -> None:
    """Refuse what generate mode does not read, and the generate options in other modes."""
    module: Any = the_kind.module
    if query.mode != "generate":
        for name in getattr(module, "GENERATE_OPTIONS", ()):
            if name in request:
                raise SolveError(
                    INVALID_REQUEST,
                    f'{name} only applies to "mode": "generate" (this request has mode '
                    f"{shown(query.mode)})",
                    name,
                )
        return
    if not the_kind.can_generate:
        raise SolveError(
            INVALID_REQUEST,
            f"the {the_kind.name} kind has no generate mode; generate is for "
            f"{', '.join(generating_kinds())}",
            "mode",
        )
    for name in module.OPTIONS:
        if name in request and name not in module.GENERATE_OPTIONS:
            raise SolveError(
                INVALID_REQUEST,
                f"{name} does not apply to generate mode; drop it",
                name,
            )
    for name in REFUSED_FIELDS:
        if name in request:
            raise SolveError(
                INVALID_REQUEST,
                f"generate mode makes one puzzle with its own engines; drop {name}",
                name,
            )
    puzzle = protocol.require_dict(request.get("puzzle"), "puzzle")
    protocol.check_fields(puzzle, module.GENERATE_FIELDS, "puzzle")


def read_difficulty(the_kind: Kind, query: Query) -> str:
    """The request's ``difficulty``: one of the kind's ``DIFFICULTIES`` (default the first)."""
    levels: tuple[str, ...] = getattr(the_kind.module, "DIFFICULTIES")  # noqa: B009
    difficulty = query.extra.get("difficulty", levels[0])
    if not isinstance(difficulty, str) or difficulty not in levels:
        raise SolveError(
            INVALID_REQUEST,
            f"unknown difficulty {shown(difficulty)}; choose one of {', '.join(levels)}",
            "difficulty",
        )
    return difficulty


def run(the_kind: Kind, puzzle: Any, query: Query) -> dict[str, Any]:
    """The response fields of a generate request (``ok``, ``kind``, ``mode``, ``seed`` and
    ``stats.seconds`` are added by ``pysolver.midend.requests.solve``)."""
    module: Any = the_kind.module
    difficulty = read_difficulty(the_kind, query)
    assert query.seed is not None  # parse_query picks one in generate mode
    options = {
        name: query.extra[name]
        for name in module.GENERATE_OPTIONS
        if name != "difficulty" and name in query.extra
    }
    monitor = Monitor(query.progress, query.cancel)
    args = GenerateArgs(query.seed, difficulty, options, random.Random(query.seed), monitor)
    generated = module.generate(puzzle, args)
    monitor.finish(args.nodes, 1, True)
    fields: dict[str, Any] = {
        "engine": module.ENGINES[0],
        "count": 1,
        "complete": True,
        "solutions": [generated.solution],
        "puzzle": generated.puzzle,
        "difficulty": difficulty,
        "grade": generated.grade,
        "stats": {"nodes": args.nodes, "attempts": generated.attempts},
    }
    level = generated.grade["level"]
    fields["level"] = level
    if generated.note is not None:
        fields["note"] = generated.note
    elif level != difficulty:
        fields["note"] = (
            f"no {difficulty} puzzle of this size was found; this is the nearest found ({level})"
        )
    return fields
