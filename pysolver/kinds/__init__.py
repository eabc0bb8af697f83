"""The puzzle kinds: the contract every kind module fulfils, and the registry of kinds.

A kind translates; engines search. A request flows ``solve(puzzle, query)`` -> ``parse_puzzle``
-> ``encode`` -> an engine of ``ENGINE_MODULES`` -> ``decode`` -> ``response_fields``. The
contract, ``KindModule`` below, is what every kind module provides at its top level:

``ENGINE_MODULES``
    The engine table: engine name -> engine module, the default (the faster one on the kind's
    benchmark) first. Every engine module has ``TITLE`` and ``SUMMARY`` (``EngineModule``),
    which the page shows, and ``MODES`` when it serves only some modes (``formula``: count;
    ``cftp``: random; see ``pysolver.facts.engine_facts``). Exact cover kinds take theirs
    from the family's table with
    ``pysolver.engines.exact_cover.engine_modules("bitset", "dlx")``.
``ENGINES``
    ``tuple(ENGINE_MODULES)``: the names, default first (what ``protocol.engine_for`` takes).
``facts() -> dict``
    What the page must know and may not type again: ``title``, ``help`` (two or three sentences:
    what the puzzle is and which algorithm solves it; the README has a ``### <title>`` section
    the page links to), ``engine_facts(ENGINE_MODULES)`` (engines with titles and descriptions,
    the default), ``limits`` and kind-specific facts; plain JSON, gathered into ``facts.json`` by
    ``pysolver.facts.site_facts``.
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
    terms: the solution JSON of the kind's docstring (or, for polyominoes, the placed pieces
    that symmetry reduction works on before ``solution_json``). Arguments are the kind's own.
``solve(puzzle, query) -> dict``
    The entry point ``pysolver.api`` calls, with the request's puzzle and its parsed ``Query``
    (mode, limit, seed, engine, progress and cancel hooks, extra fields). It picks the engine
    with ``engine_for(query, ENGINES)``, runs it with a ``Monitor(query.progress,
    query.cancel, recent)`` (``recent``: its ``decode`` of one engine answer when
    ``query.wants_recent``, so progress reports can carry a solution found lately; None for
    kinds whose engines hand over none), and returns
    ``response_fields(result.map(decode...), engine, ...)``: the
    fields ``count``, ``complete``, ``solutions``, ``stats``, ``engine`` (and ``cancelled``),
    plus any kind-specific extras. The API adds ``ok``, ``kind``, ``mode``, ``seed`` and
    ``stats.seconds``.

Trace mode and heatmaps are part of ``solve``: with ``query.mode == "trace"`` it answers, after
parsing and encoding, with its ``trace_fields`` (the steps of ``pysolver.engines.trace``, the
propagation engine's or the profile DP's, through a ``trace.Recorder``; fields from
``response_fields`` plus ``steps`` and ``truncated``). A kind that offers heatmaps provides
``heatmap(...)`` (its own arguments) and fills the ``heatmap`` field in count mode; the API
refuses ``"heatmap": true`` for a kind without that function.

Parallel search (``"jobs"``, ``pysolver.parallel``) uses two optional hooks:

``split(puzzle, query, wanted) -> list[Split | None]``
    The searches ``solve`` runs for this request, in order (most kinds run one; polyomino
    symmetry reduction runs several), each cut into subtrees by its engine family's ``split``
    (``pysolver.engines.exact_cover.split``, ``pysolver.engines.propagate.split``), about
    ``wanted`` in all; None for a search that must run whole. It validates the puzzle as
    ``solve`` does. ``solve`` then answers a task, a request with ``query.subtree``, by searching
    only below ``query.subtree_path()`` (or ``query.subtree.path`` of search
    ``query.subtree_branch(n)``), passing the path to the engine family's search. A kind with
    ``split`` is a ``SplittableKind``: ``exact_cover``, ``sudoku``, ``shikaku`` and
    ``polyomino``. Without it (``domino``) a request with ``jobs`` runs serially.
``merge_fields(fields) -> None``
    Recomputes, on the merged answer, fields a task can only know for its own subtree
    (Sudoku's ``unique``). Counts, solutions, ``complete``, stats and the fields parallel to
    the solutions (``protocol.SOLUTION_FIELDS``, e.g. exact cover's ``colors``) are merged by
    ``pysolver.parallel`` itself; other fields are taken from the first task. Only ``sudoku``
    has one.

A new kind, on the Python side, is therefore:

1. ``pysolver/kinds/<kind>.py`` (or a package ``pysolver/kinds/<kind>/`` when it grows),
   providing the names above, with the puzzle format and solution format in its docstring;
2. one line in ``KINDS`` below;
3. ``tests/test_<kind>.py``. ``tests/test_kinds.py`` checks the contract of every registered
   kind, and ``tests/test_facts.py`` its facts.

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
