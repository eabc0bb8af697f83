"""Estimate mode (``"mode": "estimate"``): how big a search is, before running it.

The kind prepares its plan as for a count; the plan's ``exact_cover`` hook gives the matrices
its searches walk, and Knuth's random paths (``pysolver.engines.estimate``) estimate their trees'
nodes and solutions for the engine the count would run. The time is the estimated nodes at the
speed this engine measures on this puzzle, here and now: a calibration run of the real count,
stopped after ``CALIBRATION_SECONDS`` (a search that ends sooner gives its own time).

The midend owns the rules: estimate mode for kinds whose plans have the hook only (dominoes'
engines walk no search tree, and count exactly anyway); an engine whose tree is estimated
(``dlx``, ``bitset``, ``singles``): the request's, or the first such of the kind's engines when
it names none; the request's fields (no ``limit``, ``subtree``: the estimate is of the
whole count); ``probes`` (``protocol.DEFAULT_PROBES``, at most ``MAX_PROBES``); ``jobs`` (the
time on that many workers besides the time on one: ``seconds_with_jobs``); the seed
(the request's, or one picked and reported); progress and cancel; and the response:
``estimate`` {``nodes``, ``solutions``, ``seconds``, ``probes``, ``nodes_per_second``},
``engine``, ``complete`` (every probe taken), and ``stats`` (``probe_nodes``,
``calibration_nodes``, ``calibration_seconds``).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pysolver.engines import estimate as tree_estimate
from pysolver.engines.monitor import Monitor, SearchResult
from pysolver.midend import pipeline
from pysolver.midend.plan import Plan, SearchArgs
from pysolver.protocol import INVALID_REQUEST, Query, SolveError, engine_for, shown

if TYPE_CHECKING:
    from pysolver.midend.registry import Kind

# Request fields estimate mode refuses: it estimates the whole count (``jobs`` is read: the
# time on that many workers).
REFUSED_FIELDS = ("limit", "subtree")
# The calibration run: stopped after this long, once it has reported twice (the first report
# comes after building the engine's structures, so the speed is the search's own), and after
# CALIBRATION_MOST_SECONDS whatever it reported.
CALIBRATION_SECONDS = 0.3
CALIBRATION_MOST_SECONDS = 3.0
# Share of the progress bar the calibration fills; the probes fill the rest.
CALIBRATION_SHARE = 0.1


def check_request(the_kind: Kind, request: dict[str, Any], query: Query) -> None:
    """Refuse what estimate mode does not read (``probes`` outside it: ``parse_query``)."""
    if query.mode != "estimate":
        return
    for name in REFUSED_FIELDS:
        if name in request:
            raise SolveError(
                INVALID_REQUEST,
                f"estimate mode estimates the whole count; drop {name}",
                name,
            )


def tree_engines(the_kind: Kind) -> list[str]:
    """The kind's engines whose search trees estimate mode follows, default first."""
    return [name for name in the_kind.module.ENGINES if name in tree_estimate.ENGINES]


def estimating_kinds() -> list[str]:
    """The kinds with estimate mode, in registry order (those with a tree engine)."""
    from pysolver.kinds import kind_names
    from pysolver.midend.registry import kind

    return [name for name in kind_names() if tree_engines(kind(name))]


def choose_engine(the_kind: Kind, plan: Plan, asked: str, query: Query) -> str:
    """The engine whose tree is estimated: ``asked`` (the request's or the kind's default, as
    the kind's rules moved it) when it walks one, else the kind's first that does; within the
    memory budget as a count's would be."""
    engines = tree_engines(the_kind)
    if plan.exact_cover is None or not engines:
        raise SolveError(
            INVALID_REQUEST,
            f"the {the_kind.name} kind's engines walk no search tree to estimate (its count "
            f"is exact and fast); estimate mode is for {', '.join(estimating_kinds())}",
            "mode",
        )
    named = query.engine is not None
    if asked not in engines:
        if named:
            raise SolveError(
                INVALID_REQUEST,
                f"the {shown(asked)} engine does not walk a search tree that random paths can "
                f"estimate; estimate with {', '.join(engines)}",
                "engine",
            )
        asked = engines[0]
    return pipeline.choose_engine(plan, asked, tuple(engines), named)


def run(the_kind: Kind, puzzle: Any, query: Query) -> dict[str, Any]:
    """The response fields of an estimate request (``ok``, ``kind``, ``mode``, ``seed`` and
    ``stats.seconds`` are added by ``pysolver.midend.requests.solve``)."""
    engine_for(query, the_kind.module.ENGINES)  # an unknown engine is refused first
    plan, asked = the_kind.plan(puzzle, query)
    engine = choose_engine(the_kind, plan, asked, query)
    monitor = Monitor(query.progress, query.cancel)
    calibration = calibrate(plan, engine, monitor)
    stats: dict[str, Any] = {
        "calibration_nodes": calibration.nodes,
        "calibration_seconds": round(calibration.seconds, 6),
    }
    estimate: dict[str, Any] = {"nodes": None, "solutions": None, "seconds": None, "probes": 0}
    cancelled = calibration.cancelled
    if calibration.result is not None and calibration.result.complete:
        # The whole count ran within the calibration: its figures are exact.
        estimate.update(
            nodes=calibration.nodes,
            solutions=calibration.result.count,
            seconds=round(calibration.seconds, 3),
            exact=True,
        )
    elif not cancelled:
        nodes, solutions, probes, visited, cancelled = _probe(plan, engine, query, monitor)
        stats["probe_nodes"] = visited
        if probes:
            estimate.update(nodes=nodes, solutions=solutions)
        estimate.update(probes=probes, exact=False)
        if not cancelled:
            estimate["seconds"] = round(calibration.seconds_for(nodes), 3)
            if query.jobs > 1:
                # The count split over ``jobs`` workers, if its subtrees kept them all busy.
                estimate["seconds_with_jobs"] = round(estimate["seconds"] / query.jobs, 3)
                estimate["jobs"] = query.jobs
    estimate["nodes_per_second"] = round(calibration.speed()) if calibration.nodes else None
    monitor.finish(calibration.nodes + stats.get("probe_nodes", 0), 0, not cancelled)
    fields: dict[str, Any] = {
        "engine": engine,
        "complete": not cancelled,
        "estimate": estimate,
        "stats": {**plan.stats, **stats},
        **plan.fields,
    }
    if cancelled:
        fields["cancelled"] = True
    return fields


def _probe(
    plan: Plan, engine: str, query: Query, monitor: Monitor
) -> tuple[int, int, int, int, bool]:
    """Knuth's estimate over the plan's searches, ``query.probes`` random paths each: (nodes,
    solutions, probes taken, nodes the probes visited, cancelled). The searches' trees are
    disjoint, so their estimates add."""
    assert plan.exact_cover is not None  # choose_engine refused a plan without it
    problems = plan.exact_cover()
    if any(problem.multiplicities is not None for problem in problems):
        # The probes follow Algorithm X's tree; Algorithm M branches on how often an item is
        # covered, which they do not model (a count that ends within the calibration is exact).
        raise SolveError(
            INVALID_REQUEST,
            "estimate mode does not follow a search with multiplicities (Algorithm M) yet; "
            "count it instead",
            "puzzle.multiplicities",
        )
    rng = query.rng()
    nodes = Fraction(0)
    solutions = Fraction(0)
    visited = 0
    taken = query.probes
    for number, problem in enumerate(problems):
        # Each search's probes fill an equal part of the probes' share of the progress bar.
        def share(done: int, number: int = number) -> float:
            part = (number + done / query.probes) / len(problems)
            return CALIBRATION_SHARE + (1 - CALIBRATION_SHARE) * part

        found = tree_estimate.probe_tree(
            problem, engine, query.probes, rng, monitor, progress=share
        )
        nodes += found.mean_nodes
        solutions += found.mean_solutions
        visited += found.visited
        taken = min(taken, found.probes)
        if found.cancelled:
            return round(nodes), round(solutions), taken, visited, True
    return round(nodes), round(solutions), taken, visited, False


class Calibration(Monitor):
    """The monitor of the calibration run: it notes when the search reports (nodes, time) and
    stops it after ``CALIBRATION_SECONDS`` (see there), or when the request's cancel asks."""

    def __init__(self, outer: Monitor) -> None:
        super().__init__()
        self.outer = outer
        # (seconds since the start, nodes) at the search's first and latest reports.
        self.first: tuple[float, int] | None = None
        self.latest: tuple[float, int] = (0.0, 0)
        self.reports = 0
        self.stopped_by_time = False
        self.nodes = 0
        self.seconds = 0.0
        self.result: SearchResult[Any] | None = None

    def check(
        self, nodes: int, solutions: int, fraction: Callable[[], float] | None = None
    ) -> bool:
        seconds = self.elapsed()
        self.reports += 1
        if self.first is None:
            self.first = (seconds, nodes)
        self.latest = (seconds, nodes)
        progress = CALIBRATION_SHARE * min(1.0, seconds / CALIBRATION_SECONDS)
        if self.outer.check(nodes, solutions, lambda: progress):
            self.cancelled = True
            return True
        if seconds >= CALIBRATION_MOST_SECONDS or (
            seconds >= CALIBRATION_SECONDS and self.reports >= 2
        ):
            self.stopped_by_time = True
            return True
        return False

    def stop_asked(self) -> bool:
        if self.outer.stop_asked():
            self.cancelled = True
        return self.cancelled

    def finish(self, nodes: int, solutions: int, complete: bool) -> None:
        """The search's end: its nodes and time (a whole search measures itself)."""
        self.nodes = nodes
        self.seconds = self.elapsed()

    def speed(self) -> float:
        """Nodes a second: between the first and the latest reports when the search reported
        twice (building its structures excluded), else over the whole run."""
        if self.first is not None and self.latest[0] > self.first[0]:
            return (self.latest[1] - self.first[1]) / (self.latest[0] - self.first[0])
        return self.nodes / max(self.seconds, 1e-9)

    def seconds_for(self, nodes: int) -> float:
        """The time of a count visiting ``nodes`` nodes: a run that ended by itself took what
        it took; else the building time before the first report plus the nodes at ``speed``."""
        if not self.stopped_by_time:
            return self.seconds
        speed = max(self.speed(), 1e-9)
        first_seconds, first_nodes = self.first or (0.0, 0)
        building = max(0.0, first_seconds - first_nodes / speed)
        return building + nodes / speed


def calibrate(plan: Plan, engine: str, outer: Monitor) -> Calibration:
    """Run the count this estimate is for, briefly, and measure its speed (see ``Calibration``)."""
    calibration = Calibration(outer)
    calibration.result = plan.run(
        SearchArgs(
            engine=engine,
            limit=None,
            keep_solutions=False,
            max_kept=0,
            rng=None,
            monitor=calibration,
        )
    )
    return calibration
