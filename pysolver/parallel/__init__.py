"""Parallel search: cut a request's search into subtree tasks, run them anywhere, merge exactly.

A request with ``"jobs": N`` (N > 1) is answered here. The kind reads the puzzle once
(``PlannedKind.prepare(puzzle, query)``) and cuts its search tree at the first choices (the
prepared search's ``split(wanted)``, built on the engine family's ``split``) into about
``TASKS_PER_JOB * N`` subtrees, balanced by Knuth's estimate (the heaviest subtree is cut
first); a search that is not cut runs serially on that same reading. Each subtree becomes a
**task**: a plain JSON request, the original one without ``jobs`` and with ``"subtree":
{"branch": B, "path": [...]}`` (see ``protocol.SubtreeRequest``); an answered task is a plain
JSON response. So a task can run in this process, in a worker process, or on a Dask worker on
another machine.

Merging is exact:

- counts add (Python ints); with a ``limit``, the merged count stops where the serial search
  stops (``Query.search_limit``: count mode looks one past ``limit``, so a total equal to
  ``limit`` answers complete, and ``api`` reports more as ``limit``, incomplete);
- solutions are taken task by task in search order, so ``solve`` with a ``limit`` returns the
  serial solutions in the serial order (a task finishes its subtree's first ``limit``); fields
  parallel to ``solutions`` (``protocol.SOLUTION_FIELDS``: exact cover's ``colors``) are taken
  with them. The listing cap holds for the whole answer: listing stops at the first task
  whose own list was cut (``solutions_truncated``; every task has the same cap, the puzzle's),
  and the merged list keeps at most that many, ``budget.MAX_LISTED`` and
  ``budget.MAX_LISTED_CHARS`` of JSON text; ``api`` then marks the answer truncated;
- ``complete`` is true only when every task completed; a task that fails (an error response,
  or a worker that died ``processes.MAX_ATTEMPTS`` times: a task whose worker died runs again
  on a fresh one, listed in ``parallel.retried``) is listed in ``parallel.failed`` with its
  subtree, and the answer says ``complete: false`` (its count is then a lower bound, never a
  wrong total); tasks lost with their Dask cluster make the answer ``unavailable``, keeping
  that partial count;
- a task that refuses the request itself (``too_large``, ``invalid_...``; ``merge.REFUSALS``)
  stops the run and the request is answered serially: a refusal is the serial one, and a task
  refused only by a worker's share of the budget gets the whole budget;
- progress is the merged fraction (task weights times task fractions); cancelling stops every
  task; once the first tasks hold ``limit`` solutions the later ones are stopped. With
  ``"recent": true`` the tasks send recent solutions (whole, in the puzzle's terms) and the
  merged progress passes the latest one on.

Not split, answered by one serial search (the response says why in ``parallel.note``):
``random`` mode (it samples the whole space with one seeded order, so the serial answer *is*
the reproducible one), ``trace`` mode (its steps are one walk from the root, in order),
``heatmap`` requests (a heatmap is summed over the counted solutions up to a cap, which a
split would apply per task), kinds without ``split`` (dominoes: their engines are not
searches). A whole count on the ``memo`` engine is cut in its own tree, below the root
orbits of the board's symmetry, and each worker keeps its memo across its tasks
(``pysolver.engines.memo_tasks``); its tasks name the ``memo`` engine, whatever a worker's
share of the budget. Polyomino ``symmetry: "distinct"`` searches whose tilings are
de-duplicated by canonical form run as one task each (equivalent tilings could fall into
different subtrees).

On the worker pool (``ProcessRunner.starts_serially``) a split costs forks, each worker's
reading of the puzzle and summed nodes above the serial ones, which a short search does not
win back. So there, when the tasks walk in pure Python, this process answers tasks itself
from the start, beside ``jobs - 1`` worker processes (``ProcessRunner.run_here``): a short
search ends (almost) all here, and a long one loses nothing (a serial start stopped to be
split threw its 0.1 s away). When they run compiled, the request is first searched serially
(``serial_start``): a search that ends, or is predicted to end, within
``SPLIT_PAYS_SECONDS`` is answered so, the others are stopped at their first progress report
and split.

Modules: ``plan`` (tasks, and ``PlannedKind``, what a kind supplies: ``prepare`` and
``merge_fields``), ``merge`` (the ``Merger``), ``runner`` (the ``Runner`` protocol every runner
implements, and ``AnswerTask``), and the runners: ``inline.InlineRunner`` (tasks one after
another here: tests), ``processes.ProcessRunner`` (a pool of worker processes, the standard
library only: the default; at most the usable cores, the memory budget shared between them,
the request shipped to each once, stop signals left to the parent; watched: a worker that
dies, goes silent or does not stop when told is killed and its task runs again),
``dask_cluster.DaskRunner`` (an existing Dask cluster, ``python -m pysolver solve --scheduler
tcp://HOST:PORT``; Dask is an optional extra) and ``page``'s
``PlanRunner`` and ``AnsweredRunner``: the page's pool of Pyodide workers (web/runtime/pool.js) runs
the tasks itself, between ``plan_text`` and ``merge_text``.

The package answers no request itself: ``pysolver.api.solve(request, progress, cancel,
runner)`` calls ``solve_split`` with the runner, and runners answering tasks are given the
function that does it (``pysolver.api.answer_task``). So nothing here imports ``api``, the
kinds or the midend.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from time import perf_counter
from typing import Any

from pysolver import protocol
from pysolver.engines import bitset, memo_levels
from pysolver.engines.monitor import Cancelled, Monitor
from pysolver.engines.subtree import Split
from pysolver.parallel import processes
from pysolver.parallel.inline import InlineRunner
from pysolver.parallel.merge import Merger
from pysolver.parallel.page import AnsweredRunner, PlanRunner, merge_text, plan_text
from pysolver.parallel.plan import (
    TASKS_PER_JOB,
    PlannedKind,
    PreparedSearch,
    Task,
    plan,
    plan_splits,
)
from pysolver.parallel.processes import ProcessRunner
from pysolver.parallel.runner import AnswerTask, LaneRunner, Runner
from pysolver.protocol import Query

__all__ = [
    "TASKS_PER_JOB",
    "AnswerTask",
    "AnsweredRunner",
    "InlineRunner",
    "Merger",
    "PlanRunner",
    "PlannedKind",
    "ProcessRunner",
    "Runner",
    "Task",
    "default_runner",
    "merge_text",
    "plan",
    "plan_text",
    "request_for_runner",
    "solve_split",
]


def start_early(request: Any) -> None:
    """Start the worker processes' fork server (``processes.warm_up``) as a request that
    asks to search with ``jobs`` arrives, before it is read, when no search can want the
    compiled walk's kernel (pure Python): the server imports the package beside this process
    reading the request and loading its kind. Measured, 6x10 pentominoes, the CLI's wall s
    with ``--jobs 2`` (pure walk): 0.70-0.74 when it started after the puzzle was read, the
    first worker waiting for it; 0.63-0.66 so."""
    if not isinstance(request, dict) or sys.platform == "emscripten":
        return
    jobs = request.get("jobs")
    searches = request.get("mode", "solve") in ("solve", "count")
    if type(jobs) is int and jobs > 1 and searches and bitset.compiled_walk() is None:
        processes.warm_up(False)


def default_runner(jobs: int, answer_task: AnswerTask) -> Runner:
    """Worker processes, or tasks one after another in Pyodide (which has no processes)."""
    if sys.platform == "emscripten":
        return InlineRunner(answer_task)
    return ProcessRunner(jobs, answer_task)


def request_for_runner(request: Any, runner: Runner) -> Any:
    """A request given a runner is split: when it does not ask for more than one job, it gets
    as many as the runner has workers (at least 2)."""
    if isinstance(request, dict):
        jobs = request.get("jobs")
        if jobs is None or (jobs == 1 and not isinstance(jobs, bool)):
            return dict(request, jobs=max(2, runner.workers()))
    return request


def serial_note(query: Query, kind: PlannedKind | None) -> str | None:
    """Why a request with ``jobs`` runs as one serial search, or None when it is split."""
    if query.mode == "random":
        return "random mode samples the whole space in one seeded search; it ran serially"
    if query.mode == "trace":
        return "trace mode records one walk of the search from its root; it ran serially"
    if query.heatmap:
        return "heatmaps are summed over the counted solutions in one search; it ran serially"
    if kind is None:
        return "this kind's searches are not split into tasks; it ran serially"
    return None


# A split pays when the search would run longer than this (predicted): below it a request with
# jobs is answered by its serial search (``serial_start``). Measured (2 cores, 2 workers, fork
# server running): a split costs about 0.1-0.25 s (forks, each worker reading the puzzle and
# building the walk's tables once, ~1 ms per later task, the summed nodes 1.1-1.2x the serial
# ones), so below ~0.5 s the split is not faster: the compiled 6x10 pentomino count, 0.24 s
# serially, took 0.35-0.7 s split.
SPLIT_PAYS_SECONDS = 0.5
# How long the serial start may run before it is judged, at most, when its search sends no
# progress report (a report comes every ``Monitor.interval``, 0.1 s, and it is judged then).
SERIAL_START_SECONDS = 0.2
# The environment variable that sets another serial start (seconds; 0: split at once, every
# task on a worker process, this process answering none). Tests set 0: their small searches
# would all run serially, or here.
SERIAL_START_VARIABLE = "PYSOLVER_SERIAL_START_SECONDS"


def serial_start_seconds() -> float:
    """``SERIAL_START_SECONDS``, or the environment's (0 or less: no serial start)."""
    text = os.environ.get(SERIAL_START_VARIABLE, "")
    try:
        return float(text)
    except ValueError:
        return SERIAL_START_SECONDS


def serial_start(prepared: PreparedSearch, query: Query) -> tuple[dict[str, Any], str] | None:
    """Start the request's serial search and judge it at its first progress report: when the
    rest is predicted (Knuth's fraction done, at the speed so far) to take less than
    ``SPLIT_PAYS_SECONDS`` it runs on to the end and its answer (with a note) is returned;
    else, or when no report came within ``serial_start_seconds()``, it is stopped and None
    returned (the request is split). A search that ends before its first report is answered
    too. The serial start costs a split request up to one report interval (0.1 s).

    A first report that comes late (the compiled walk's kernel loaded first, ~0.7 s) is not
    judged: the speed is taken between it and the next one."""
    judged: list[bool] = []  # [True]: run on; [False]: stop
    seen: list[tuple[float, float]] = []  # (seconds, fraction) of the reports before judging
    most = serial_start_seconds()
    started = perf_counter()

    def progress(report: dict[str, Any]) -> None:
        if not judged:
            seconds, fraction = report["seconds"], report["fraction"]
            seen.append((seconds, fraction))
            if len(seen) == 1 and seconds > 2 * Monitor.interval:
                return  # slow to start: judged at the next report, on the speed between
            since, before = seen[-2] if len(seen) > 1 else (0.0, 0.0)
            done = fraction - before
            rest = (seconds - since) * (1 - fraction) / done if done > 0 else float("inf")
            judged.append(rest < SPLIT_PAYS_SECONDS)
        if judged[0] and query.progress is not None:
            query.progress(report)

    stopped: list[bool] = []  # [True] once told to stop for the split

    def cancel() -> bool:
        if query.cancel is not None and query.cancel():
            return True
        if not judged and not seen and perf_counter() - started > most:
            judged.append(False)
        if judged and not judged[0]:
            stopped[:] = [True]
        return bool(stopped)

    def cancelled_by_request() -> bool:
        return query.cancel is not None and query.cancel()

    try:
        fields = prepared.solve_watched(progress, cancel)
    except Cancelled:
        # Stopped before its search began (building its tables looks at the cancel too).
        if stopped and not cancelled_by_request():
            return None
        raise
    if stopped and not cancelled_by_request():
        return None  # stopped to be split (a cancel of the request's own is answered so)
    note = (
        f"the search was about to end (predicted under {SPLIT_PAYS_SECONDS:g} s, less than a "
        "split costs); it ran serially"
    )
    return fields, note


def solve_split(
    request: dict[str, Any],
    query: Query,
    kind: PlannedKind | None,
    runner: Runner,
    solve_serially: Callable[[], dict[str, Any]],
) -> dict[str, Any]:
    """The response fields of a request with ``jobs`` > 1: its tasks run by ``runner`` and
    merged, or ``solve_serially()`` with ``parallel.note`` saying why it was not split.
    ``kind`` is None for a kind whose searches are not split.

    A task that refuses the request itself (too_large, invalid_...) stops the run and the
    request is answered serially: the serial refusal, or the serial answer when only a
    worker's share of the budget refused it. Tasks lost with their cluster make the answer
    ``unavailable``, keeping the count of those that completed."""
    asked = query.jobs
    jobs = runner.grant(asked)
    note = serial_note(query, kind)
    if note is not None or kind is None:
        return _serially(solve_serially, asked, jobs, note)
    # Read once: a search that is not cut runs serially on the same reading (at 17 MB of
    # request, reading again took about 1 s of CPU).
    prepared = kind.prepare(request["puzzle"], query)
    runner.warm_up(prepared.compiled)  # worker processes get ready while it is cut
    wanted = max(1, jobs * runner.tasks_per_job)
    if isinstance(runner, LaneRunner) and not prepared.compiled:
        # A memo count its level count takes runs by levels on the runner's lanes (the
        # split, seeing them offered, does not cut it: ``memo_tasks.split``).
        with runner.level_lanes(jobs) as lanes, memo_levels.offered(lanes):
            splits = prepared.split(wanted)
            if _by_levels(splits):
                fields = prepared.solve()
                parallel = {"jobs": jobs, "executor": runner.name, **lanes.fields()}
                _note_grant(parallel, asked, jobs)
                fields["parallel"] = parallel
                return fields
    else:
        splits = prepared.split(wanted)
    tasks, settled = plan_splits(request, query, splits)
    cut = bool(tasks) and not (len(tasks) == 1 and not tasks[0].subtree["path"])
    here = False
    if runner.starts_serially and serial_start_seconds() > 0:
        if cut and not prepared.compiled and isinstance(runner, ProcessRunner):
            # This process answers tasks too, from the start (``ProcessRunner.run_here``):
            # a search about to end is answered (almost) all here, and nothing is thrown
            # away when it is not.
            here = True
        else:
            # Not when the tasks run compiled: most compiled counts end within the judging's
            # 0.5 s, and tasks beside them made them slower (6x10: 0.29 -> 0.34 s).
            started = serial_start(prepared, query)
            if started is not None:
                fields, note = started
                return _serially(lambda: fields, asked, jobs, note)
    if not tasks:  # dead at the root: the serial search answers at once, with all its fields
        note = "the search has no subtree to split (no solution below the root)"
        return _serially(prepared.solve, asked, jobs, note, tasks=0)
    if len(tasks) == 1 and not tasks[0].subtree["path"]:
        # The one search could not be cut (its root is settled by the rules alone, or its
        # first choice has too many branches): one task would only ship the whole request to
        # one worker to run it there.
        if query.cancel is not None and query.cancel():
            raise Cancelled  # stopped while planning: no search is started
        fields = prepared.solve()
        if fields.get("stats", {}).get("nodes") == 0:
            note = "the search made no choice (its rules settled the puzzle at the root)"
        else:
            note = "the search's first choice has too many branches to cut into tasks"
        return _serially(lambda: fields, asked, jobs, f"{note}; it ran serially")
    # The tasks read the puzzle themselves: this process lets its reading go while they run.
    del prepared
    merger = Merger(tasks, settled, query)
    if here:
        assert isinstance(runner, ProcessRunner)
        runner.run_here(tasks, merger)
    else:
        runner.run(tasks, merger)
    if merger.refusal is not None and not merger.cancelled:
        reason = protocol.shown(merger.refusal.get("message", ""))
        note = f"a task was refused ({merger.refusal.get('code')}: {reason}); it ran serially"
        return _serially(solve_serially, asked, jobs, note)
    fields = merger.merged(runner.name, jobs)
    _note_grant(fields["parallel"], asked, jobs)
    # Fields a kind derives from the whole answer (Sudoku's "unique") are recomputed by it.
    kind.merge_fields(fields)
    lost = [
        failure
        for failure in fields["parallel"].get("failed", [])
        if failure["error"].get("code") == protocol.UNAVAILABLE
    ]
    if lost:
        # The response is an error that keeps the partial answer: ``api`` starts from
        # ``ok: true`` and these fields replace it.
        done = len(tasks) - len(fields["parallel"]["failed"])
        message = (
            f"{lost[0]['error']['message']}; {done:,} of {len(tasks):,} tasks completed, and the "
            f"count is theirs ({len(lost):,} lost, listed in parallel.failed)"
        )
        fields["ok"] = False
        fields["error"] = {"code": protocol.UNAVAILABLE, "message": message, "path": ""}
    return fields


def _by_levels(splits: list[Split | None]) -> bool:
    """Whether the request is one memo count that its level count takes (on lanes)."""
    return len(splits) == 1 and splits[0] is not None and splits[0].by_levels


def _serially(
    solve_serially: Callable[[], dict[str, Any]],
    asked: int,
    jobs: int,
    note: str | None,
    tasks: int = 1,
) -> dict[str, Any]:
    fields = solve_serially()
    parallel = {"jobs": jobs, "tasks": tasks, "executor": "serial", "note": note}
    _note_grant(parallel, asked, jobs)
    fields["parallel"] = parallel
    return fields


def _note_grant(parallel: dict[str, Any], asked: int, jobs: int) -> None:
    """Say so when fewer jobs ran than were asked for (``parallel.jobs`` is those granted)."""
    if jobs < asked:
        parallel["jobs_asked"] = asked
        grant = (
            f"{asked:,} jobs were asked for; {jobs} ran, as many worker processes as this "
            "machine has cores"
        )
        note = parallel.get("note")
        parallel["note"] = f"{grant}; {note}" if note else grant
