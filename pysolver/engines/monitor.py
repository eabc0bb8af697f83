"""Progress reports and cancellation shared by every search engine.

A search loop calls ``Monitor.check`` every few hundred nodes. The monitor throttles progress
reports to one per ``interval`` seconds, keeps the reported fraction monotone, and asks the
cancel hook whether to stop.

``SearchResult`` is the one answer type of every search: engines return it with engine-level
solutions (option indices, candidate indices...), kinds ``map`` it to solution JSON and
``pysolver.protocol.response_fields`` turns it into a response.

Recent solutions: a monitor made with ``recent`` (the kind's decoder from an engine-level
solution to its JSON) sets ``wants_recent`` about once a second (``RECENT_INTERVAL``); an engine
that finds a solution while it is set hands it to ``found``, and the next progress report
carries it, decoded, as ``"recent"``. So a long count can show what it finds, at the cost of
one attribute test per solution. Engines that count solutions without forming them (bitset's
whole-tree count) hand over none.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any, Generic, TypeVar

# How many search nodes may pass between two calls to Monitor.check. Cheap enough to keep the
# overhead negligible, small enough that even slow nodes (~50 us) stay well inside 100 ms.
CHECK_EVERY = 512
# The least time between two solutions passed along in progress reports.
RECENT_INTERVAL = 1.0
# How many units of work pass between two asks of the cancel hook at checkpoints, which sit
# in build loops (one per option, placement, tiling...), each a few microseconds of work (a
# loop whose steps are dearer passes its work in such units: ``checkpoint(work)``). The first
# ask comes after CHECKPOINT_GRACE units: a small build (well under a millisecond) is never
# interrupted, so a search that is cancelled at once still starts and reports.
CHECKPOINT_EVERY = 64
CHECKPOINT_GRACE = 1024
# A build loop over matrix entries (a fraction of a microsecond each) counts this many as one
# unit of work: ``checkpoint(entries_work(len(option)))``.
ENTRIES_PER_UNIT = 16


def entries_work(entries: int) -> int:
    """The checkpoint work of a step over ``entries`` matrix entries (at least one unit)."""
    return 1 + entries // ENTRIES_PER_UNIT


Solution = TypeVar("Solution")
Decoded = TypeVar("Decoded")


@dataclass
class SearchResult(Generic[Solution]):
    """What a search found: solutions kept (none when only counting), count, completeness."""

    solutions: list[Solution] = field(default_factory=list)
    count: int = 0
    # True when the whole search space was explored (not stopped by limit or cancel).
    complete: bool = True
    cancelled: bool = False
    # The engine's counters (``nodes`` at least), plain JSON values.
    stats: dict[str, Any] = field(default_factory=dict)

    def map(self, decode: Callable[[Solution], Decoded]) -> SearchResult[Decoded]:
        """The same result with every solution decoded (e.g. option indices -> solution JSON)."""
        return SearchResult(
            [decode(solution) for solution in self.solutions],
            self.count,
            self.complete,
            self.cancelled,
            self.stats,
        )


class Cancelled(Exception):
    """A phase outside the search loop (building a matrix, generating placements, reducing
    tilings by symmetry...) was cancelled; ``pysolver.api.solve`` answers it as a cancelled
    result with nothing found (``complete: false, cancelled: true``)."""


def fraction_done(index_at: list[int], size_at: list[int], depth: int) -> float:
    """Knuth's estimate of the share of the search tree already done.

    The sum over levels of (index of the current branch) / (product of the branch sizes down to
    that level): the tree left of the current path, if all subtrees at a level were alike.
    """
    done = 0.0
    weight = 1.0
    for level in range(depth):
        weight /= size_at[level]
        done += index_at[level] * weight
    return done


class Monitor:
    """Throttled progress reporting and a cancel check for one search."""

    interval = 0.1

    def __init__(
        self,
        progress: Callable[[dict[str, Any]], Any] | None = None,
        cancel: Callable[[], bool] | None = None,
        recent: Callable[[Any], Any] | None = None,
    ) -> None:
        self.progress = progress
        self.cancel = cancel
        self.started = perf_counter()
        self.next_report = self.started + self.interval
        self.fraction = 0.0
        self.cancelled = False
        # Recent solutions go only where progress reports go.
        self.recent = recent if progress is not None else None
        # True while the engine should hand the next solution it finds to ``found``.
        self.wants_recent = self.recent is not None
        self.next_recent = self.started
        self.kept: Any = None  # a solution found, decoded, waiting for the next report
        self.checkpoints = 0
        self.next_ask = 0  # the checkpoint count at which the cancel hook is asked next

    def found(self, solution: Any) -> None:
        """Keep an engine-level solution (asked for by ``wants_recent``) for the next report."""
        self.wants_recent = False
        self.next_recent = perf_counter() + RECENT_INTERVAL
        if self.recent is not None:
            self.kept = self.recent(solution)

    def elapsed(self) -> float:
        return perf_counter() - self.started

    def check(
        self, nodes: int, solutions: int, fraction: Callable[[], float] | None = None
    ) -> bool:
        """Report progress if it is time to; return True when the search must stop now."""
        now = perf_counter()
        if now >= self.next_report:
            self.next_report = now + self.interval
            if self.progress is not None:
                if fraction is not None:
                    # Knuth's estimate can wobble in floating point; users want it monotone and
                    # below 1 until the search has really ended.
                    self.fraction = min(max(self.fraction, fraction()), 0.999999)
                report = {
                    "nodes": nodes,
                    "solutions": solutions,
                    "fraction": self.fraction,
                    "seconds": now - self.started,
                }
                if self.kept is not None:
                    report["recent"] = self.kept
                    self.kept = None
                self.progress(report)
            if self.recent is not None and now >= self.next_recent:
                self.wants_recent = True
        if self.cancel is not None and self.cancel():
            self.cancelled = True
            return True
        return False

    def checkpoint(self, work: int = 1) -> None:
        """Raise ``Cancelled`` when the cancel hook asks to stop; for loops outside the search.

        Cheap enough for every iteration: the hook is asked once per ``CHECKPOINT_EVERY`` units
        of work, from the ``CHECKPOINT_GRACE``-th on. ``work``: how many units (a few
        microseconds each) the step just done took, for a loop whose steps are dearer (one per
        mask of a candidate list).
        """
        self.checkpoints += work
        if self.checkpoints >= self.next_ask:
            self.next_ask = self.checkpoints + CHECKPOINT_EVERY
            if self.checkpoints >= CHECKPOINT_GRACE and self.stop_asked():
                raise Cancelled

    def stop_asked(self) -> bool:
        """Ask the cancel hook now (no progress report); remember a stop."""
        if self.cancel is not None and self.cancel():
            self.cancelled = True
        return self.cancelled

    def finish(self, nodes: int, solutions: int, complete: bool) -> None:
        """Send the last report: fraction 1.0 when the search space was exhausted."""
        if complete:
            self.fraction = 1.0
        if self.progress is not None:
            self.progress(
                {
                    "nodes": nodes,
                    "solutions": solutions,
                    "fraction": self.fraction,
                    "seconds": self.elapsed(),
                    "done": True,
                }
            )


class StageMonitor(Monitor):
    """The monitor of one of several searches that answer one request; can stop at a budget.

    Checks are forwarded to the request's monitor with node and solution counts offset by the
    earlier stages and the fraction mapped into this stage's ``share`` of the whole; only the
    request's monitor sends the final report. ``budget``: stop (``over_budget``) once the stage
    has visited more nodes than this. ``recent``: the stage's decoder of its engine-level
    solutions into what the request's monitor decodes (its ``recent``), for recent solutions.
    """

    def __init__(
        self,
        outer: Monitor,
        nodes_before: int,
        solutions_before: int,
        share: tuple[float, float] = (0.0, 1.0),
        budget: int | None = None,
        recent: Callable[[Any], Any] | None = None,
    ) -> None:
        super().__init__()
        self.recent = recent if outer.recent is not None else None
        self.wants_recent = self.recent is not None and outer.wants_recent
        self.outer = outer
        self.nodes_before = nodes_before
        self.solutions_before = solutions_before
        self.share = share
        self.budget = budget
        self.over_budget = False

    def check(
        self, nodes: int, solutions: int, fraction: Callable[[], float] | None = None
    ) -> bool:
        low, high = self.share
        scaled = None if fraction is None else (lambda: low + (high - low) * fraction())
        if self.outer.check(self.nodes_before + nodes, self.solutions_before + solutions, scaled):
            self.cancelled = True
            return True
        self.wants_recent = self.recent is not None and self.outer.wants_recent
        if self.budget is not None and nodes > self.budget:
            self.over_budget = True
            return True
        return False

    def found(self, solution: Any) -> None:
        self.wants_recent = False
        if self.recent is not None:
            self.outer.found(self.recent(solution))

    def stop_asked(self) -> bool:
        if self.outer.stop_asked():
            self.cancelled = True
        return self.cancelled

    def finish(self, nodes: int, solutions: int, complete: bool) -> None:
        pass
