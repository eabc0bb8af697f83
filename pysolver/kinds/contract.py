"""The contract every kind module fulfils (``pysolver.kinds`` finds the kinds: every folder of
it is one).

A kind translates; engines search; the midend (``pysolver.midend``) runs the search and owns
every rule around it. A request flows: the midend reads it strictly -> the kind's
``prepare(puzzle, query, engine)`` (``parse_puzzle`` -> ``encode``) returns a ``Plan`` -> the
midend chooses the engine within the budget, runs ``plan.run`` (or ``plan.trace``) with the
limit, listing cap, seed, progress monitor and subtree it decides, decodes with
``plan.decode``, sums ``plan.heatmap`` and builds the response. The contract, ``KindModule``
below, is what every kind module (``pysolver/kinds/<kind>/__init__.py``, which may re-export
from the folder's other modules) provides at its top level:

``ORDER``
    The kind's place in the registry (``pysolver.kinds.kind_names``), so in facts.json, the
    page's tabs and menus and every list of kinds: polyomino 10, sudoku 20, shikaku 30, domino
    40, exact_cover 50, queens 60; a new kind takes the next ten. No two kinds share one.
``EXAMPLE``
    A request (``kind`` and ``puzzle``) of a small puzzle with a few solutions (at least two,
    counted in milliseconds): the tests and benchmarks that run every kind run it.
``ENGINE_MODULES``
    The engine table: engine name -> engine module, the default (the faster one on the kind's
    benchmark) first. Every engine module has ``TITLE`` and ``SUMMARY`` (``EngineModule``),
    which the page shows, and ``MODES`` when it serves only some modes (``formula``: count;
    ``cftp``: random; see ``pysolver.facts.engine_facts``). Exact cover kinds take theirs
    from the family's table with
    ``pysolver.engines.cover.engine_modules("bitset", "dlx")``.
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
    what the puzzle is and which algorithm solves it; docs/guide.md has a ``### <title>``
    section the page links to, docs/kinds.md a ``## <title>`` one),
    ``engine_facts(ENGINE_MODULES)`` (engines with titles and descriptions, the default),
    ``limits`` and kind-specific facts; plain JSON, gathered into ``facts.json`` by
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
    ``GENERATE_LEVELS_BY_SIZE`` (optional, default ``{}``) names the sizes that cannot make
    every level: the size as the page names it (a Sudoku's ``"4"``, a polyomino board's
    ``"5x3"``, a Star Battle's ``"8/2"``: side and stars) -> the levels it makes, measured
    (tests/test_generate.py generates each small size at each level it lists, and at one it
    leaves out, to a ``note``); a size it does not name makes every level. Published as
    ``generate.levels_by_size``; the answer's ``level`` is always the puzzle's own, with a
    ``note`` when it is not the level asked.
    ``GENERATE_EXAMPLE`` is the puzzle of a small generate request (made in well under a
    second), which the generic tests and the soak run; ``GENERATE_DEFAULT`` the puzzle of
    ``pysolver generate KIND`` without ``--size`` (the size most people play).
``explain(puzzle, args) -> Explained`` and ``hint(puzzle, args) -> Hinted`` (optional, together)
    Explain and hint modes (``pysolver.midend.explain``): the path of named techniques from the
    givens to the solution with its grade, and the next step from a player's state (or the
    mistake in it), translated to and from the techniques (``pysolver.logic.step`` and the
    folder's own board and finders).
    With them the kind declares ``HINT_FIELDS`` (the puzzle fields hint mode adds: the
    player's ``entries``) and ``explain_facts()`` (levels and techniques, for facts.json).
``solution_text(puzzle, solution) -> str`` and ``solution_svg(puzzle, solution) -> str`` (optional)
    Pictures of one solution (the request's puzzle JSON and one solution JSON), as text (the
    CLI's ``--format text``, the library's ``str``) and as SVG (the library's ``_repr_svg_``),
    drawn with ``pysolver.pictures`` (``regions_text``, ``regions_svg``); the folder's
    ``pictures.py`` by custom. A kind without ``solution_text`` prints its solutions as JSON.
``puzzle_text(puzzle) -> str`` (optional; a kind that generates has it)
    The puzzle before solving as a text picture (a Sudoku's givens with ``.`` blanks, a
    Shikaku's clues): how ``pysolver generate`` and ``--format text`` show a generated puzzle.
``read_pasted(text) -> request | None`` (optional)
    The kind's pasted formats (other programs' and sites' ways of writing its puzzles: game IDs,
    share links), the folder's ``pasted.py`` by custom: the request (``kind`` and ``puzzle``)
    the text holds, None when it is none of them, ``SolveError`` for one recognised but wrong.
    ``pysolver.pasted.read_request`` asks each kind in registry order; the first answer wins.
``finish_fields(fields) -> None`` (optional)
    Fields derived from the whole answer (Sudoku's ``unique``): set on the serial answer and
    again on a merged parallel one, where each task only knew its subtree. Counts, solutions,
    ``complete``, stats and ``protocol.SOLUTION_FIELDS`` are merged by ``pysolver.parallel``.

Beside the kind module, the folder may hold ``library.py``: the kind's classes and functions
for the Python library (a puzzle class is a ``pysolver.library.Puzzle`` with ``kind`` set),
named in its ``__all__``, which ``pysolver.library`` and ``pysolver`` export. The kind module
never imports it (the library sits on ``pysolver.solve``, above the midend).

The midend wraps each module in a ``pysolver.midend.registry.Kind`` (``kind(name)``), with
``solve``, ``split``, ``merge_fields`` and ``splittable``: the object ``pysolver.parallel``
receives. No kind has ``solve``, ``split`` or ``trace_fields`` of its own.

A new kind is therefore:

1. the folder ``pysolver/kinds/<kind>/``, its ``__init__.py`` providing the names above (with
   ``ORDER`` and ``EXAMPLE``), the puzzle and solution formats in its docstring; nothing to
   register: ``pysolver.kinds`` finds the folder, and facts.json, the CLI, the tests and the
   benchmarks that run every kind take it up;
2. optionally ``pictures.py``, ``pasted.py`` and ``library.py`` in it (the hooks above);
3. its editor and renderer in ``web/kinds/<kind>/`` (``web/kinds/contract.js`` states that side);
4. ``tests/test_<kind>.py``, a ``## <title>`` section in docs/kinds.md and a ``### <title>``
   one in docs/guide.md (tests/test_docs.py). ``tests/test_kinds.py``
   checks the contract of every kind, ``tests/test_facts.py`` its facts,
   ``tests/test_midend.py`` the midend's rules on its ``EXAMPLE`` and ``tests/test_layout.py``
   that nothing outside its folder names it.

A new engine is ``pysolver/engines/<engine>.py`` with ``TITLE``, ``SUMMARY`` and its family's
search function (one line in the family's table, e.g. ``cover._MODULES``), and its test.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

from pysolver.midend.plan import Plan
from pysolver.protocol import Query


@runtime_checkable
class EngineModule(Protocol):
    """What every engine module shows the page (see ``pysolver.facts.engine_facts``); an engine
    serving only some modes also has ``MODES``, a tuple of them."""

    TITLE: str  # a menu title
    SUMMARY: str  # one sentence, ending with a full stop


@runtime_checkable
class KindModule(Protocol):
    """The contract of a kind module: see the module docstring for each name."""

    ORDER: int
    EXAMPLE: dict[str, Any]
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
