"""The puzzle kinds: the contract every kind module fulfils, and the registry of kinds.

A kind translates; engines search; the midend (``pysolver.midend``) runs the search and owns
every rule around it. A request flows: the midend reads it strictly -> the kind's
``prepare(puzzle, query, engine)`` (``parse_puzzle`` -> ``encode``) returns a ``Plan`` -> the
midend chooses the engine within the budget, runs ``plan.run`` (or ``plan.trace``) with the
limit, listing cap, seed, progress monitor and subtree it decides, decodes with
``plan.decode``, sums ``plan.heatmap`` and builds the response. The contract, ``KindModule``
below, is what every kind module provides at its top level:

``ENGINE_MODULES``
    The engine table: engine name -> engine module, the default (the faster one on the kind's
    benchmark) first. Every engine module has ``TITLE`` and ``SUMMARY`` (``EngineModule``),
    which the page shows, and ``MODES`` when it serves only some modes (``formula``: count;
    ``cftp``: random; see ``pysolver.facts.engine_facts``). Exact cover kinds take theirs
    from the family's table with
    ``pysolver.engines.exact_cover.engine_modules("bitset", "dlx")``.
``ENGINES``
    ``tuple(ENGINE_MODULES)``: the names, default first (what ``protocol.engine_for`` takes).
``PUZZLE_FIELDS``
    The names of the puzzle object's fields (``("grid", "box", "symbols")``). The midend
    refuses any other (``invalid_request``, naming the nearest); nested objects a kind reads
    (a polyomino piece) are checked by the kind with ``protocol.check_fields``. Published in
    facts.json as ``puzzle_fields``.
``OPTIONS``
    Top-level request fields of this kind beyond ``protocol.REQUEST_FIELDS`` (polyomino:
    ``("symmetry",)``; most kinds ``()``), read from ``query.extra``. Published as ``options``.
``SPLITTABLE``
    Whether a request with ``jobs`` is cut into subtree tasks (the plan then has ``split``);
    False runs it serially (``domino``: its engines are not branching searches).
``facts() -> dict``
    What the page must know and may not type again: ``title``, ``help`` (two or three sentences:
    what the puzzle is and which algorithm solves it; the README has a ``### <title>`` section
    the page links to), ``engine_facts(ENGINE_MODULES)`` (engines with titles and descriptions,
    the default), ``limits`` and kind-specific facts; plain JSON, gathered into ``facts.json`` by
    ``pysolver.facts.site_facts`` (which adds ``puzzle_fields``, ``options``, ``heatmap``).
``parse_puzzle(puzzle) -> validated puzzle``
    Reads the request's ``puzzle`` JSON into the kind's own types, raising ``SolveError`` (from
    ``pysolver.protocol``; ``puzzle_error`` for the usual ``invalid_puzzle``, ``too_large`` past
    a documented limit) with the JSON path of the offending value (``puzzle.grid[3]``).
``encode(...) -> the engine's problem``
    The validated puzzle as its engine family's problem (an ``ExactCoverProblem``, a
    ``PartitionProblem``, the rows of a profile DP), with whatever ``decode`` needs to map the
    engine's answers back. Arguments are the kind's own.
``decode(...) -> solution``
    One engine answer (option indices, candidate choices, DP tiling) back in the puzzle's
    terms. Arguments are the kind's own; the plan's ``decode`` binds them.
``prepare(puzzle, query, engine) -> pysolver.midend.plan.Plan``
    Parses and encodes, and says how to run the search; ``engine`` is the one asked for (the
    request's or the default). The ``Plan`` fields (see ``pysolver.midend.plan``):
    ``run(SearchArgs) -> SearchResult`` (pass ``args.engine``, ``limit``, ``keep_solutions``,
    ``max_kept``, ``rng``, ``monitor``, ``path``/``branch`` to the family's search),
    ``decode(answer) -> solution JSON``, ``listed_bytes`` and ``listed_chars`` (one listed
    solution's memory and JSON text: the listing cap), optional ``split(engine, wanted) ->
    list[Split | None]`` (the family's ``split``, one entry per search), ``trace(TraceArgs) ->
    SearchResult`` (set ``args.recorder.describe``, pass ``args.max_kept``), ``heatmap(answers)
    -> {key: grid}`` (every key present, zero grids without solutions), ``solution_fields``
    (fields parallel to the solutions, e.g. ``colors``), ``needed_bytes(engine)`` with
    ``too_large`` and ``shrink`` (the budget's engine choice), ``branches``, ``stats``,
    ``fields`` and ``trace_fields`` (the kind's own response fields) and ``engine`` (when the
    kind's own rule moved the engine). ``prepare`` never searches.
``heatmap(...)`` (optional)
    Present in a kind that sums heatmaps (its plan's ``heatmap`` binds it); the midend refuses
    ``"heatmap": true`` for a kind without it.
``generate(puzzle, args) -> pysolver.midend.plan.Generated`` (optional)
    Generate mode (``pysolver.midend.generate``): a puzzle with one solution at
    ``args.difficulty`` from ``args.rng`` (``random.Random(seed)``, the only source of chance),
    its searches run by the kind's engines with ``args.stage()`` monitors and counted with
    ``args.advance`` (progress and cancel). With it the kind declares ``GENERATE_FIELDS`` (the
    puzzle's fields in that mode: ``("size",)``), ``DIFFICULTIES`` (its levels, easiest first)
    and ``GENERATE_OPTIONS`` (request options only generate mode takes, ``difficulty`` first;
    also in ``OPTIONS``). The midend checks them and facts.json publishes them (``generate``).
``explain(puzzle, args) -> Explained`` and ``hint(puzzle, args) -> Hinted`` (optional, together)
    Explain and hint modes (``pysolver.midend.explain``): the path of named techniques from the
    givens to the solution with its grade, and the next step from a player's state (or the
    mistake in it), translated to and from ``pysolver.logic``, which holds the techniques.
    With them the kind declares ``HINT_FIELDS`` (the puzzle fields hint mode adds: the
    player's ``entries``) and ``explain_facts()`` (levels and techniques, for facts.json).
``finish_fields(fields) -> None`` (optional)
    Fields derived from the whole answer (Sudoku's ``unique``): set on the serial answer and
    again on a merged parallel one, where each task only knew its subtree. Counts, solutions,
    ``complete``, stats and ``protocol.SOLUTION_FIELDS`` are merged by ``pysolver.parallel``.

The midend wraps each module in a ``pysolver.midend.registry.Kind`` (``kind(name)``), with
``solve``, ``split``, ``merge_fields`` and ``splittable``: the object ``pysolver.parallel``
receives. No kind has ``solve``, ``split`` or ``trace_fields`` of its own.

A new kind, on the Python side, is therefore:

1. ``pysolver/kinds/<kind>.py`` (or a package ``pysolver/kinds/<kind>/`` when it grows),
   providing the names above, with the puzzle format and solution format in its docstring;
2. one line in ``KINDS`` below;
3. ``tests/test_<kind>.py`` and a README section. ``tests/test_kinds.py`` checks the contract
   of every registered kind, ``tests/test_facts.py`` its facts and ``tests/test_midend.py``
   the midend's rules on it.

A new engine is ``pysolver/engines/<engine>.py`` with ``TITLE``, ``SUMMARY`` and its family's
search function (one line in the family's table, e.g. ``exact_cover._MODULES``), and its test.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any, Protocol, cast, runtime_checkable

from pysolver.midend.plan import Plan
from pysolver.protocol import Query

# The registry: one line per kind, request ``kind`` -> module (imported on first use).
KINDS = {
    "exact_cover": "pysolver.kinds.exact_cover",
    "polyomino": "pysolver.kinds.polyomino",
    "sudoku": "pysolver.kinds.sudoku",
    "shikaku": "pysolver.kinds.shikaku",
    "domino": "pysolver.kinds.domino",
    "queens": "pysolver.kinds.queens",
    "star_battle": "pysolver.kinds.star_battle",
}


@runtime_checkable
class EngineModule(Protocol):
    """What every engine module shows the page (see ``pysolver.facts.engine_facts``); an engine
    serving only some modes also has ``MODES``, a tuple of them."""

    TITLE: str  # a menu title
    SUMMARY: str  # one sentence, ending with a full stop


@runtime_checkable
class KindModule(Protocol):
    """The contract of a kind module: see the module docstring for each name."""

    ENGINE_MODULES: Mapping[str, ModuleType]
    ENGINES: tuple[str, ...]
    PUZZLE_FIELDS: tuple[str, ...]
    OPTIONS: tuple[str, ...]
    SPLITTABLE: bool
    # Their arguments are each kind's own, so only their presence is part of the contract.
    encode: Callable[..., Any]
    decode: Callable[..., Any]

    def facts(self) -> dict[str, Any]: ...

    def parse_puzzle(self, puzzle: Any, /) -> Any: ...

    def prepare(self, puzzle: Any, query: Query, engine: str, /) -> Plan: ...


def kind_module(kind: str) -> KindModule:
    """The module of a registered kind (imported on first use). Raises KeyError if unknown."""
    # The contract is checked by tests/test_kinds.py for every registered kind.
    return cast(KindModule, importlib.import_module(KINDS[kind]))
