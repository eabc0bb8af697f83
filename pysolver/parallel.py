"""Parallel search: cut a request's search into subtree tasks, run them anywhere, merge exactly.

A request with ``"jobs": N`` (N > 1) is answered here. The kind cuts its search tree at the
first choices (``split(puzzle, query, wanted)`` in the kind module, built on the engine
family's ``split``) into about ``TASKS_PER_JOB * N`` subtrees, balanced by Knuth's estimate
(the heaviest subtree is cut first). Each subtree becomes a **task**: a plain JSON request,
the original one without ``jobs`` and with ``"subtree": {"branch": B, "path": [...]}`` (see
``protocol.SubtreeRequest``); an answered task is a plain JSON response. So a task can run in
this process, in a worker process, or on a Dask worker on another machine.

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
  or a worker that died) is listed in ``parallel.failed`` with its subtree, and the answer says
  ``complete: false`` (its count is then a lower bound, never a wrong total);
- progress is the merged fraction (task weights times task fractions); cancelling stops every
  task; once the first tasks hold ``limit`` solutions the later ones are stopped. With
  ``"recent": true`` the tasks send recent solutions (whole, in the puzzle's terms) and the
  merged progress passes the latest one on.

Not split, answered by one serial search (the response says why in ``parallel.note``):
``random`` mode (it samples the whole space with one seeded order, so the serial answer *is*
the reproducible one), ``trace`` mode (its steps are one walk from the root, in order),
``heatmap`` requests (a heatmap is summed over the counted solutions up to a cap, which a
split would apply per task) and kinds without ``split`` (dominoes: their engines are not
searches).
Polyomino ``symmetry: "distinct"`` searches whose tilings are de-duplicated by canonical form
run as one task each (equivalent tilings could fall into different subtrees).

Runners: ``InlineRunner`` (tasks one after another here: tests), ``ProcessRunner`` (a pool of
worker processes, the standard library only: the default), ``DaskRunner`` (an existing Dask
cluster, ``python -m pysolver solve --scheduler tcp://HOST:PORT``; Dask is an optional extra).
The page's pool of Pyodide workers (web/pool.js) runs the tasks itself, between ``plan_text``
and ``merge_text`` (see "a pool outside Python" below).
"""

from __future__ import annotations

import contextlib
import contextvars
import multiprocessing
import queue
import signal
import sys
import uuid
from concurrent import futures
from dataclasses import dataclass
from time import perf_counter
from typing import Any, Protocol

from pysolver import budget, protocol
from pysolver.engines.monitor import Monitor
from pysolver.engines.subtree import Split
from pysolver.protocol import (
    INTERNAL_ERROR,
    SOLUTION_FIELDS,
    CancelCheck,
    ProgressCallback,
    Query,
)

# Tasks per worker: enough that an unlucky heavy subtree does not leave the others idle for
# long (Knuth's estimate is rough), few enough that planning and start-up stay negligible.
TASKS_PER_JOB = 8

# Work counters of the engines that add up over tasks; other stats are the same in every task.
ADDITIVE_STATS = ("nodes", "updates", "mask_ops", "splits")


class PlannedKind(Protocol):
    """A kind as the midend hands it over (``pysolver.midend.registry.Kind``): this layer
    imports no kind and no midend."""

    name: str
    # False: the kind's searches are not cut into tasks (a request with jobs runs serially).
    splittable: bool

    def split(self, puzzle: Any, query: Query, wanted: int, /) -> list[Split | None]: ...

    def merge_fields(self, fields: dict[str, Any], /) -> None: ...

    def solve(self, puzzle: Any, query: Query, /) -> dict[str, Any]: ...


@dataclass
class Task:
    """One subtree to search: its request (plain JSON) and its Knuth weight in the whole."""

    index: int
    request: dict[str, Any]
    weight: float

    @property
    def subtree(self) -> dict[str, Any]:
        subtree: dict[str, Any] = self.request["subtree"]
        return subtree


def plan(
    request: dict[str, Any], query: Query, module: PlannedKind, wanted: int
) -> tuple[list[Task], float]:
    """The tasks of a request (about ``wanted``), in search order, and the weight already
    settled (dead ends met while cutting).

    ``module.split`` validates the puzzle as ``solve`` would, so bad input fails here, once.
    """
    splits = module.split(request["puzzle"], query, wanted)
    # A task keeps ``recent``: its progress reports then carry whole solutions (in the
    # puzzle's terms), and the merged progress passes the latest one on.
    base = {key: value for key, value in request.items() if key != "jobs"}
    share = 1 / len(splits)
    tasks: list[Task] = []
    settled = 0.0
    for branch, split in enumerate(splits):
        subtrees: list[tuple[list[Any], float]]
        if split is None:
            subtrees = [([], 1.0)]
        else:
            subtrees = [(subtree.path, subtree.weight) for subtree in split.subtrees]
            settled += share * split.settled_weight
        for path, weight in subtrees:
            task_request = dict(base, subtree={"branch": branch, "path": path})
            tasks.append(Task(len(tasks), task_request, share * weight))
    return tasks, settled


# ---------------------------------------------------------------- merging


class Merger:
    """Collects task progress and answers; decides which tasks must stop; merges the answer."""

    def __init__(
        self,
        tasks: list[Task],
        settled: float,
        query: Query,
    ) -> None:
        self.tasks = tasks
        self.settled = settled
        # Where the serial search would stop (one past ``limit`` in count mode).
        self.limit = query.search_limit
        self.keep = query.wants_solutions
        self.monitor = Monitor(query.progress, query.cancel)
        count = len(tasks)
        self.fractions = [0.0] * count
        self.nodes = [0] * count
        self.found = [0] * count
        self.responses: list[dict[str, Any] | None] = [None] * count
        # Tasks from this index on must stop: all of them on cancel; those after the first
        # tasks that already hold ``limit`` solutions otherwise.
        self.stop_from = count
        self.cancelled = False

    def progress(self, index: int, report: dict[str, Any]) -> None:
        if self.responses[index] is not None:
            return  # a late report from a task already answered
        self.fractions[index] = report.get("fraction", 0.0)
        self.nodes[index] = report.get("nodes", 0)
        self.found[index] = report.get("solutions", 0)
        if report.get("recent") is not None:
            self.monitor.kept = report["recent"]  # passed on with the next merged report

    def done(self, index: int, response: dict[str, Any]) -> None:
        self.responses[index] = response
        if response.get("ok"):
            self.fractions[index] = 1.0 if response.get("complete") else self.fractions[index]
            self.nodes[index] = response.get("stats", {}).get("nodes", 0)
            self.found[index] = response.get("count", 0)
        self._stop_after_limit()

    def _stop_after_limit(self) -> None:
        """Once the first tasks, all answered, hold ``limit`` solutions, the rest can stop."""
        if self.limit is None:
            return
        total = 0
        for index, response in enumerate(self.responses):
            if response is None or not response.get("ok"):
                return
            total += response.get("count", 0)
            if total >= self.limit:
                self.stop_from = min(self.stop_from, index + 1)
                return

    def fraction(self) -> float:
        pairs = zip(self.tasks, self.fractions, strict=True)
        return self.settled + sum(task.weight * fraction for task, fraction in pairs)

    def check(self) -> None:
        """Report merged progress (throttled) and turn a cancel request into stopping all."""
        if self.monitor.check(sum(self.nodes), sum(self.found), self.fraction):
            self.cancelled = True
            self.stop_from = 0

    def should_stop(self, index: int) -> bool:
        return index >= self.stop_from

    def merged(self, executor: str, jobs: int) -> dict[str, Any]:
        """The response fields of the whole request, from the task answers in search order."""
        count = 0
        solutions: list[Any] = []
        # Fields parallel to the solutions, in those tasks that have them (the same kind, so
        # all or none of the tasks do).
        per_solution: dict[str, list[Any]] = {}
        complete = True
        failed = []
        base: dict[str, Any] | None = None
        stats: dict[str, Any] = {}
        task_nodes = []
        prefix = True  # solve mode: solutions count only while every earlier task completed
        listing = True  # until a task's list was cut at the listing cap
        listed_cap = budget.MAX_LISTED
        for task, response in zip(self.tasks, self.responses, strict=True):
            if self.limit is not None and count >= self.limit:
                break
            if response is None or not response.get("ok"):
                complete = False
                prefix = False
                error = (response or {}).get("error") or {
                    "code": INTERNAL_ERROR,
                    "message": "the task never answered",
                }
                failed.append({"task": task.index, "subtree": task.subtree, "error": error})
                continue
            if base is None:
                base = response
                stats = dict(response.get("stats") or {})
                for name in ADDITIVE_STATS:
                    if name in stats:
                        stats[name] = 0
            task_stats = response.get("stats") or {}
            for name in ADDITIVE_STATS:
                if name in task_stats:
                    stats[name] = stats.get(name, 0) + task_stats[name]
            task_nodes.append(task_stats.get("nodes", 0))
            if self.keep:
                if prefix:
                    count += response["count"]
                    if listing:
                        listed = response.get("solutions", [])
                        solutions.extend(listed)
                        for name in SOLUTION_FIELDS:
                            if name in response:
                                per_solution.setdefault(name, []).extend(response[name])
                        if response.get("solutions_truncated"):
                            listing = False
                            listed_cap = min(listed_cap, len(listed))
            else:
                count += response["count"]
            if not response.get("complete"):
                complete = False
                prefix = False
        if self.limit is not None and count >= self.limit:
            count = self.limit
            del solutions[self.limit :]
            for values in per_solution.values():
                del values[self.limit :]
            complete = False
        kept = _listed_prefix(solutions, listed_cap)
        del solutions[kept:]
        for values in per_solution.values():
            del values[kept:]
        fields: dict[str, Any] = {}
        if base is not None:
            fields.update(
                (key, value)
                for key, value in base.items()
                if key not in ("ok", "kind", "mode", "seed", "cancelled", "solutions_truncated")
            )
        total_nodes = sum(task_nodes)
        stats.pop("seconds", None)
        fields.update(count=count, complete=complete, solutions=solutions, stats=stats)
        for name in SOLUTION_FIELDS:
            if name in fields or name in per_solution:
                fields[name] = per_solution.get(name, [])
        parallel = {
            "jobs": jobs,
            "tasks": len(self.tasks),
            "executor": executor,
            "largest_task_share": round(max(task_nodes) / total_nodes, 4) if total_nodes else 0.0,
        }
        if failed:
            parallel["failed"] = failed
        fields["parallel"] = parallel
        if self.cancelled:
            fields["cancelled"] = True
        self.monitor.finish(total_nodes, count, complete)
        return fields


def _listed_prefix(solutions: list[Any], cap: int) -> int:
    """How many of the merged ``solutions`` one response lists: at most ``cap`` and at most
    ``budget.MAX_LISTED_CHARS`` of JSON text (as a serial search would list)."""
    chars = 0
    for index, solution in enumerate(solutions[:cap]):
        chars += len(protocol.dumps(solution))
        if chars > budget.MAX_LISTED_CHARS:
            return max(1, index)
    return min(cap, len(solutions))


def _not_run(reason: str) -> dict[str, Any]:
    """The answer of a task that could not be run: an error naming the cause."""
    return protocol.error_response(protocol.SolveError(INTERNAL_ERROR, reason, "subtree"))


def _stopped() -> dict[str, Any]:
    """The answer of a task stopped before it started: nothing searched, nothing found."""
    return {"ok": True, "count": 0, "complete": False, "cancelled": True, "solutions": []}


# ---------------------------------------------------------------- answering one task


def answer(
    text: str, cancel: CancelCheck | None = None, progress: ProgressCallback | None = None
) -> str:
    """Answer one task given and returned as JSON text: what every runner executes."""
    from pysolver.api import solve

    return protocol.dumps(solve(text, progress=progress, cancel=cancel))


def _loads(text: str) -> dict[str, Any]:
    with protocol.unlimited_int_digits():
        loaded: dict[str, Any] = protocol.loads(text)
    return loaded


def _dumps(request: dict[str, Any]) -> str:
    return protocol.dumps(request)


# ---------------------------------------------------------------- runners


class InlineRunner:
    """Runs the tasks one after another in this process (tests, and platforms without
    processes such as Pyodide, where the page runs its own pool of workers instead)."""

    name = "inline"

    def workers(self) -> int:
        return 1

    def run(self, tasks: list[Task], merger: Merger) -> None:
        for task in tasks:
            merger.check()
            if merger.should_stop(task.index):
                merger.done(task.index, _stopped())
                continue

            def report(progress: dict[str, Any], index: int = task.index) -> None:
                merger.progress(index, progress)
                merger.check()

            def cancel(index: int = task.index) -> bool:
                return merger.should_stop(index)

            try:
                response = _loads(answer(_dumps(task.request), cancel=cancel, progress=report))
            except Exception as exc:  # as a worker process that died: this subtree failed
                response = _not_run(f"the task failed ({type(exc).__name__}: {exc})")
            merger.done(task.index, response)


# Set in each worker process by ``_start_worker``: where to send progress, and from which task
# index on to stop.
_PROGRESS: Any = None
_STOP_FROM: Any = None


def _start_worker(progress: Any, stop_from: Any) -> None:
    global _PROGRESS, _STOP_FROM
    _PROGRESS = progress
    _STOP_FROM = stop_from
    # Ctrl-C reaches the whole process group: the parent turns it into stopping every task,
    # which the workers then see through ``stop_from``.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _answer_in_worker(index: int, text: str) -> str:
    def report(progress: dict[str, Any]) -> None:
        _PROGRESS.put((index, progress))

    return answer(text, cancel=lambda: _STOP_FROM.value <= index, progress=report)


class ProcessRunner:
    """A pool of ``jobs`` worker processes (``concurrent.futures``, standard library only)."""

    name = "processes"

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs

    def workers(self) -> int:
        return self.jobs

    def run(self, tasks: list[Task], merger: Merger) -> None:
        # Spawned, not forked: the same behaviour on every platform, and no copy of a parent
        # that may hold threads or locks.
        context = multiprocessing.get_context("spawn")
        progress = context.Queue()
        stop_from = context.Value("q", len(tasks), lock=False)
        pool = futures.ProcessPoolExecutor(
            max_workers=min(self.jobs, len(tasks)),
            mp_context=context,
            initializer=_start_worker,
            initargs=(progress, stop_from),
        )
        try:
            pending = {
                pool.submit(_answer_in_worker, task.index, _dumps(task.request)): task
                for task in tasks
            }
            while pending:
                finished, _ = futures.wait(pending, timeout=0.05)
                self._drain(progress, merger)
                for future in finished:
                    task = pending.pop(future)
                    merger.done(task.index, self._result(future, task))
                merger.check()
                stop_from.value = merger.stop_from
                for future, task in list(pending.items()):
                    if merger.should_stop(task.index) and future.cancel():
                        del pending[future]
                        merger.done(task.index, _stopped())
            self._drain(progress, merger)
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
            progress.close()
            progress.join_thread()

    @staticmethod
    def _drain(progress: Any, merger: Merger) -> None:
        while True:
            try:
                index, report = progress.get_nowait()
            except queue.Empty:
                return
            merger.progress(index, report)

    @staticmethod
    def _result(future: futures.Future[str], task: Task) -> dict[str, Any]:
        try:
            return _loads(future.result())
        except Exception as exc:  # a worker died or could not start: say so for this subtree
            return _not_run(f"the worker running this task failed ({type(exc).__name__}: {exc})")


class DaskRunner:
    """Tasks on an existing Dask cluster (``dask.distributed``; the optional ``dask`` extra).

    Workers need pysolver importable (installed, or on their PYTHONPATH). Running tasks send
    progress through a Dask ``Queue`` and poll a Dask ``Variable`` (the index from which tasks
    must stop; deleted when the run ends) about twice a second.
    """

    name = "dask"

    def __init__(self, address: str) -> None:
        try:
            from distributed import Client
        except ImportError:
            raise RuntimeError(
                "running on a Dask cluster needs dask.distributed: pip install 'pysolver[dask]'"
            ) from None
        try:
            self.client = Client(address, timeout="10s")
        except (OSError, TimeoutError) as exc:
            raise RuntimeError(f"cannot reach the Dask scheduler at {address}: {exc}") from None

    def workers(self) -> int:
        threads: dict[str, int] = self.client.nthreads()
        return max(1, sum(threads.values()))

    def close(self) -> None:
        self.client.close()

    def run(self, tasks: list[Task], merger: Merger) -> None:
        from distributed import Queue, Variable, wait

        stop_name = f"pysolver-stop-{uuid.uuid4().hex}"
        progress = Queue(f"{stop_name}-progress", client=self.client)
        stop_variable = Variable(stop_name, client=self.client)
        stop_variable.set(len(tasks))
        shared_stop = len(tasks)
        pending = {
            self.client.submit(
                _answer_on_dask,
                task.index,
                _dumps(task.request),
                stop_name,
                key=f"{stop_name}-{task.index}",
                pure=False,
            ): task
            for task in tasks
        }
        try:
            while pending:
                try:
                    finished = wait(list(pending), timeout=0.1, return_when="FIRST_COMPLETED")
                except TimeoutError:  # none finished within the timeout: just poll again
                    finished_futures = []
                else:
                    finished_futures = list(finished.done)
                for index, report in progress.get(batch=True):
                    merger.progress(index, report)
                for future in finished_futures:
                    task = pending.pop(future)
                    merger.done(task.index, self._result(future, task))
                merger.check()
                if merger.stop_from != shared_stop:
                    shared_stop = merger.stop_from
                    stop_variable.set(shared_stop)
                    stopped = [f for f, task in pending.items() if merger.should_stop(task.index)]
                    self.client.cancel(stopped)
                    for future in stopped:
                        merger.done(pending.pop(future).index, _stopped())
        finally:
            self.client.cancel(list(pending))
            # Tasks still running on a worker see the variable gone and stop (see below).
            stop_variable.delete()
            progress.close()

    @staticmethod
    def _result(future: Any, task: Task) -> dict[str, Any]:
        try:
            return _loads(future.result())
        except Exception as exc:
            cause = f"{type(exc).__name__}: {exc}"
            return _not_run(f"the Dask worker running this task failed ({cause})")


def _answer_on_dask(index: int, text: str, stop_name: str) -> str:
    """Runs on a Dask worker: answer the task, polling the shared stop index now and then and
    sending progress reports to the client's queue (each is a round trip to the scheduler, so
    at most two a second)."""
    from distributed import Queue, Variable

    stop_variable = Variable(stop_name)
    progress_queue = Queue(f"{stop_name}-progress")
    # When to poll the stop index next, its last answer, when to send progress next, and the
    # latest recent solution not sent yet (reports in between are dropped, it is not).
    next_poll = 0.0
    stop = False
    next_report = 0.0
    recent: Any = None

    def report(progress: dict[str, Any]) -> None:
        nonlocal next_report, recent
        if progress.get("recent") is not None:
            recent = progress["recent"]
        now = perf_counter()
        if now >= next_report:
            next_report = now + 0.5
            fields = {name: progress[name] for name in ("fraction", "nodes", "solutions")}
            if recent is not None:  # passed on by the merged progress, as with other runners
                fields["recent"] = recent
                recent = None
            with contextlib.suppress(Exception):  # progress is best effort; answers are not
                progress_queue.put((index, fields), timeout=5)

    def cancel() -> bool:
        nonlocal next_poll, stop
        now = perf_counter()
        if now >= next_poll:
            next_poll = now + 0.5
            try:
                stop = bool(stop_variable.get(timeout=5) <= index)
            except Exception:  # the variable is gone: the client has finished with this run
                stop = True
        return stop

    return answer(text, cancel=cancel, progress=report)


# ---------------------------------------------------------------- a pool outside Python

# The page runs tasks on its own Pyodide workers (web/pool.js), which Python cannot wait for: a
# worker's Python answers synchronously. So the page asks in two steps, both through ``solve``
# and so through the same validation, planning and merging as the runners above:
#
# 1. ``plan_text``: the request with a ``PlanRunner``, which records the tasks instead of
#    running them. A request that is not split (random, trace, heatmap, dominoes, a root with
#    no solution) or is wrong is answered right there, as the serial search or the error.
# 2. the page runs the tasks as ordinary requests, in order, on its workers;
# 3. ``merge_text``: the request again with an ``AnsweredRunner`` holding the task answers
#    (JSON text as the workers wrote it: big counts stay exact), which merges them.


class PlanRunner:
    """Records the tasks of a request instead of running them (step 1 above)."""

    name = "plan"

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.tasks: list[Task] | None = None
        self.settled = 0.0
        self.limit: int | None = None

    def workers(self) -> int:
        return self.jobs

    def run(self, tasks: list[Task], merger: Merger) -> None:
        self.tasks = tasks
        self.settled = merger.settled
        self.limit = merger.limit
        merger.monitor = Monitor()  # nothing was searched: no progress report of the plan's
        for task in tasks:
            merger.done(task.index, _stopped())


class AnsweredRunner:
    """Gives the merger the answers a pool outside Python found (step 3 above); None for a
    task the pool did not run (stopped after the limit, or cancelled)."""

    def __init__(
        self, name: str, jobs: int, responses: list[dict[str, Any] | None], cancelled: bool
    ) -> None:
        self.name = name
        self.jobs = jobs
        self.responses = responses
        self.cancelled = cancelled

    def workers(self) -> int:
        return self.jobs

    def run(self, tasks: list[Task], merger: Merger) -> None:
        if len(tasks) != len(self.responses):
            reason = (
                f"the pool answered {len(self.responses)} tasks but this request has "
                f"{len(tasks)}; send the request that was planned"
            )
            for task in tasks:
                merger.done(task.index, _not_run(reason))
            return
        for task, response in zip(tasks, self.responses, strict=True):
            merger.done(task.index, _stopped() if response is None else response)
        if self.cancelled:
            merger.cancelled = True


def plan_text(
    text: str, progress: ProgressCallback | None = None, cancel: CancelCheck | None = None
) -> str:
    """Step 1 for a pool outside Python: ``{"tasks": [task request as JSON text, ...],
    "weights": [...], "settled": s, "limit": n | null}``, or ``{"response": ...}`` when the
    request was answered here (not split, or an error)."""
    runner = PlanRunner(1)
    response = solve(text, progress, cancel, runner=runner)
    if runner.tasks is None or not response.get("ok"):
        return protocol.dumps({"response": response})
    return protocol.dumps(
        {
            "tasks": [_dumps(task.request) for task in runner.tasks],
            "weights": [task.weight for task in runner.tasks],
            "settled": runner.settled,
            "limit": runner.limit,
        }
    )


def merge_text(text: str, executor: str = "page workers") -> str:
    """Step 3 for a pool outside Python: ``{"request": ..., "responses": [response or null,
    ...], "cancelled": bool}`` (responses in task order) -> the merged response as JSON."""
    payload = _loads(text)
    request: Any = payload.get("request") if isinstance(payload, dict) else None
    responses = payload.get("responses") if isinstance(payload, dict) else None
    if not isinstance(responses, list):
        error = protocol.SolveError(INTERNAL_ERROR, "a merge needs the task answers", "responses")
        return protocol.dumps(protocol.error_response(error))
    runner = AnsweredRunner(executor, 1, responses, bool(payload.get("cancelled")))
    return protocol.dumps(solve(request, runner=runner))


# ---------------------------------------------------------------- entry points

# What ``solve`` passes down to ``solve_split`` through ``api.solve``: the runner to use and the
# tasks per worker (tests vary it to cut the tree at several depths).
_SETTINGS: contextvars.ContextVar[tuple[Any, int]] = contextvars.ContextVar(
    "pysolver_parallel", default=(None, TASKS_PER_JOB)
)


def default_runner(jobs: int) -> ProcessRunner | InlineRunner:
    if sys.platform == "emscripten":  # Pyodide has no processes
        return InlineRunner()
    return ProcessRunner(jobs)


def solve_split(request: dict[str, Any], query: Query, module: PlannedKind) -> dict[str, Any]:
    """The response fields of a request with ``jobs`` > 1 (called by ``api.solve``)."""
    runner, tasks_per_job = _SETTINGS.get()
    jobs = query.jobs
    if runner is None:
        runner = default_runner(jobs)
    reason = None
    if query.mode == "random":
        reason = "random mode samples the whole space in one seeded search; it ran serially"
    elif query.mode == "trace":
        reason = "trace mode records one walk of the search from its root; it ran serially"
    elif query.heatmap:
        reason = "heatmaps are summed over the counted solutions in one search; it ran serially"
    elif not module.splittable:
        reason = "this kind's searches are not split into tasks; it ran serially"
    if reason is not None:
        fields = module.solve(request["puzzle"], query)
        fields["parallel"] = {"jobs": jobs, "tasks": 1, "executor": "serial", "note": reason}
        return fields
    tasks, settled = plan(request, query, module, max(1, jobs * tasks_per_job))
    if not tasks:  # dead at the root: the serial search answers at once, with all its fields
        fields = module.solve(request["puzzle"], query)
        note = "the search has no subtree to split (no solution below the root)"
        fields["parallel"] = {"jobs": jobs, "tasks": 0, "executor": "serial", "note": note}
        return fields
    merger = Merger(tasks, settled, query)
    runner.run(tasks, merger)
    fields = merger.merged(runner.name, jobs)
    # Fields a kind derives from the whole answer (Sudoku's "unique") are recomputed by it.
    module.merge_fields(fields)
    return fields


def solve(
    request: dict[str, Any] | str | bytes,
    progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
    *,
    runner: Any = None,
    tasks_per_job: int = TASKS_PER_JOB,
) -> dict[str, Any]:
    """``api.solve`` with the tasks run by ``runner`` (default: worker processes).

    When the request does not ask for more than one job, it gets as many as the runner has
    workers (at least 2, so the request is split).
    """
    from pysolver.api import solve as api_solve

    if isinstance(request, str | bytes | bytearray):
        try:
            request = protocol.loads(request)
        except protocol.SolveError as error:
            return protocol.error_response(error)
    if isinstance(request, dict):
        jobs = request.get("jobs")
        if jobs is None or (jobs == 1 and not isinstance(jobs, bool)):
            workers = runner.workers() if runner is not None else 2
            request = dict(request, jobs=max(2, workers))
    token = _SETTINGS.set((runner, tasks_per_job))
    try:
        return api_solve(request, progress, cancel)
    finally:
        _SETTINGS.reset(token)
