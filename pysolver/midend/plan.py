"""What a kind hands the midend: a ``Plan`` of its search, in the engine family's terms.

A kind's ``prepare(puzzle, query, engine)`` parses and encodes the puzzle and returns a
``Plan``: how to run its search (``run``, with the arguments the midend fills in: ``SearchArgs``),
how to cut it into subtrees (``split``), how to trace it (``trace``), how to decode an engine
answer into solution JSON (``decode``), what a listed solution costs (``listed_bytes``,
``listed_chars``), how to sum a heatmap (``heatmap``), and the kind's own response fields. The
midend (``pysolver.midend.pipeline``) owns every rule around it: the engine within the memory
budget, the count rule, the listing cap, heatmap limits, seeds, progress and the response.
This module imports no kind and no midend module, so kinds import it freely.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pysolver.engines.cover import ExactCoverProblem
from pysolver.engines.monitor import Cancelled, Monitor, SearchResult, StageMonitor
from pysolver.engines.subtree import Split
from pysolver.engines.trace import Recorder


@dataclass
class SearchArgs:
    """What the midend decides for one run of a kind's search; the kind passes these on to
    its engine family's search (``cover.search``, ``propagate.search``...)."""

    engine: str
    # Stop after this many solutions (None: all); count mode looks one past ``limit``.
    limit: int | None
    # False: only count (count mode without a heatmap).
    keep_solutions: bool
    # Keep at most this many (the listing cap); the search goes on counting past them.
    max_kept: int | None
    # Random mode's source, fixed by the request's seed; None: search order.
    rng: random.Random | None
    monitor: Monitor
    # A parallel task: search only below this path of search ``branch``; None: the whole tree.
    path: list[Any] | None = None
    branch: int = 0

    def search_options(self) -> dict[str, Any]:
        """The keyword arguments every engine family's search takes, as decided here:
        ``search(problem, args.engine, **args.search_options())``."""
        return {
            "limit": self.limit,
            "keep_solutions": self.keep_solutions,
            "max_kept": self.max_kept,
            "rng": self.rng,
            "monitor": self.monitor,
            "path": self.path,
        }


@dataclass
class TraceArgs:
    """What the midend decides for a trace run: the steps go to ``recorder`` (the kind gives
    it its describer with ``recorder.describe = ...``)."""

    engine: str
    limit: int | None
    # The listing cap holds in trace mode as in every mode: at most this many solutions kept.
    max_kept: int | None
    recorder: Recorder
    monitor: Monitor


SearchRun = Callable[[SearchArgs], SearchResult[Any]]


@dataclass
class Plan:
    """One request's search, as its kind prepared it (see the module docstring).

    ``run`` answers with engine answers (what ``decode`` reads); ``heatmap`` sums kept engine
    answers into ``{key: grid of counts}`` with every key present (zero grids when no solution
    was kept). ``needed_bytes(engine)``: what that engine would allocate, for the midend's
    engine choice within the budget (None: the kind chose its engine itself); ``too_large``
    says what needs the memory (``{engine}`` is filled in) and ``shrink`` what to make smaller.
    ``branches``: how many searches ``run`` runs in order (a subtree names one).
    ``split(engine, wanted, monitor)``: the searches cut into about ``wanted`` subtrees; the
    monitor's checkpoints (in every long loop of the cut) stop it when the request is
    cancelled. ``fields``: the kind's own response fields (``trace_fields`` in trace mode);
    ``stats`` added to the engine's. ``engine``: set when the kind's own rules moved the
    engine asked for. ``exact_cover``: the exact cover matrices ``run`` searches, one per
    search in its order (built on first use), for estimate mode
    (``pysolver.midend.estimate``); None for a kind whose engines walk no exact cover tree.
    """

    run: SearchRun
    decode: Callable[[Any], Any]
    listed_bytes: int
    listed_chars: int
    split: Callable[[str, int, Monitor], list[Split | None]] | None = None
    trace: Callable[[TraceArgs], SearchResult[Any]] | None = None
    heatmap: Callable[[list[Any]], dict[str, Any]] | None = None
    # Response fields parallel to the solutions (``protocol.SOLUTION_FIELDS``), from the kept
    # engine answers: exact cover's ``colors``.
    solution_fields: Callable[[list[Any]], dict[str, list[Any]]] | None = None
    # The memory of a solution a heatmap keeps (default: ``listed_bytes``).
    heatmap_bytes: int | None = None
    needed_bytes: Callable[[str], int] | None = None
    too_large: str = "the {engine} engine on this puzzle"
    shrink: str = "make the puzzle smaller"
    branches: int = 1
    stats: dict[str, Any] = field(default_factory=dict)
    fields: dict[str, Any] = field(default_factory=dict)
    trace_fields: dict[str, Any] = field(default_factory=dict)
    engine: str | None = None
    exact_cover: Callable[[], list[ExactCoverProblem]] | None = None


@dataclass
class GenerateArgs:
    """What the midend decides for one ``"mode": "generate"`` request; a kind's ``generate``
    hook reads them. ``rng`` is ``random.Random(seed)``, the generator's only source of
    chance (so the same seed, difficulty and size give the same puzzle everywhere);
    ``difficulty`` is one of the kind's ``DIFFICULTIES``; ``options`` the kind's other
    ``GENERATE_OPTIONS`` given (``symmetry``); ``monitor`` reports progress and cancels."""

    seed: int
    difficulty: str
    options: dict[str, Any]
    rng: random.Random
    monitor: Monitor
    # The engines' nodes so far, and the share of the work done (the generator's estimate).
    nodes: int = 0
    fraction: float = 0.0

    def stage(self) -> StageMonitor:
        """The monitor of one engine search of the generator: its progress continues the
        request's, and a cancel stops it."""
        return StageMonitor(self.monitor, self.nodes, 0, (self.fraction, self.fraction))

    def stop_if_cancelled(self, stage: StageMonitor) -> None:
        """Raise ``Cancelled`` when the cancel hook stopped the search ``stage`` monitored (a
        stage stopped by its node ``budget`` is not cancelled)."""
        if stage.cancelled:
            raise Cancelled

    def advance(self, nodes: int, fraction: float) -> None:
        """Count a finished search's ``nodes``, move the reported share of the work done to
        ``fraction`` (kept monotone, below 1 until the end), report progress when due and
        raise ``Cancelled`` when the cancel hook asks to stop."""
        self.nodes += nodes
        self.fraction = min(max(self.fraction, fraction), 0.999)
        if self.monitor.check(self.nodes, 0, lambda: self.fraction):
            raise Cancelled


@dataclass
class Generated:
    """A kind's generated puzzle: ``puzzle`` (the JSON of a solve request's puzzle), its one
    ``solution`` (solution JSON, as a solve response lists it), ``grade`` (``level``, one of
    the kind's ``DIFFICULTIES``, and the measured facts it was decided from), the ``attempts``
    made, and a ``note`` when the asked level was not reached
    within the generator's attempts (the puzzle is then the nearest one found)."""

    puzzle: dict[str, Any]
    solution: Any
    grade: dict[str, Any]
    attempts: int
    note: str | None = None


@dataclass
class ExplainArgs:
    """What the midend decides for one ``"mode": "explain"`` or ``"hint"`` request; a kind's
    ``explain`` and ``hint`` hooks read them. ``monitor`` reports progress and cancels (pass
    ``stage()`` to an engine search, call ``advance`` between steps); ``nodes`` counts the
    engine's nodes (``stats.nodes``)."""

    monitor: Monitor
    nodes: int = 0
    fraction: float = 0.0

    def stage(self) -> StageMonitor:
        """The monitor of one engine search (finding the solution the path reaches)."""
        return StageMonitor(self.monitor, self.nodes, 0, (self.fraction, self.fraction))

    def stop_if_cancelled(self, stage: StageMonitor) -> None:
        """Raise ``Cancelled`` when the cancel hook stopped the search ``stage`` monitored."""
        if stage.cancelled:
            raise Cancelled

    def advance(self, fraction: float) -> None:
        """Move the reported share of the path done to ``fraction`` (kept below 1 until the
        end), report progress when due and raise ``Cancelled`` when asked to stop."""
        self.fraction = min(max(self.fraction, fraction), 0.999)
        if self.monitor.check(self.nodes, 0, lambda: self.fraction):
            raise Cancelled


@dataclass
class Explained:
    """A kind's explanation: ``steps`` (step JSON, see ``pysolver.midend.explain``), ``grade``
    (``level``, ``score``, ``techniques``), the ``solution`` the path reaches (solution JSON)
    and whether it is the puzzle's only one (``unique``)."""

    steps: list[dict[str, Any]]
    grade: dict[str, Any]
    solution: Any
    unique: bool


@dataclass
class Hinted:
    """A kind's hint: the next step from the player's state (``hint``) and the ``steps`` from
    that state up to and including the first that places something (``hint`` first)."""

    hint: dict[str, Any]
    steps: list[dict[str, Any]]


@dataclass
class Counted:
    """The midend's count of a puzzle for assist mode, under every rule of count mode (the
    engine within the budget, the count rule, the heatmap's limits): ``count`` (at most the
    limit), ``complete`` (the count is exact), ``heatmap`` (per digit / key, per cell, how many
    of the first ``limit`` solutions put it there; None when cancelled), the ``engine`` that
    ran, its ``nodes`` and whether the count was ``cancelled``."""

    count: int
    complete: bool
    heatmap: dict[str, list[list[int]]] | None
    engine: str
    nodes: int
    cancelled: bool


@dataclass
class AssistArgs:
    """What the midend decides for one ``"mode": "assist"`` request; a kind's ``assist`` hook
    reads them. ``limit``: the most solutions counted (at least 2). ``count(puzzle)``: the
    midend's heatmap count of a puzzle (the request's, or one the kind derived from it), run
    within the share of progress ``count_share``; the kind's own searches take ``stage()``
    monitors and ``advance`` between them; ``nodes`` counts their nodes (``stats.nodes``)."""

    monitor: Monitor
    limit: int
    count: Callable[[Any], Counted]
    count_share: float = 0.3
    nodes: int = 0
    fraction: float = 0.0

    def stage(self) -> StageMonitor:
        """The monitor of one engine search of the kind's checks."""
        return StageMonitor(self.monitor, self.nodes, 0, (self.fraction, self.fraction))

    def advance(self, nodes: int, fraction: float) -> None:
        """Count a finished check's ``nodes``, move the share of the work done to ``fraction``
        (kept below 1 until the end), report progress when due and raise ``Cancelled`` when
        the cancel hook asks to stop."""
        self.nodes += nodes
        self.fraction = min(max(self.fraction, fraction), 0.999)
        if self.monitor.check(self.nodes, 0, lambda: self.fraction):
            raise Cancelled


@dataclass
class Assisted:
    """A kind's answer to a setter: the ``count`` (at most the limit; ``complete`` when exact)
    and the ``engine`` that counted, then the fields of its case (see
    ``pysolver.midend.assist``): ``add`` and ``add_exact`` (two or more solutions),
    ``redundant`` and ``minimal`` (one), ``conflict`` (none), a ``note``; ``fields``: the
    kind's own response fields (the grid's size...). ``cancelled``: stopped after the count,
    the case's fields left out."""

    count: int
    complete: bool
    engine: str
    answer: dict[str, Any]
    fields: dict[str, Any] = field(default_factory=dict)
    cancelled: bool = False
