"""The page's pool (web/runtime/pool.js): its plan and answer steps, as runners.

The page runs tasks on its own Pyodide workers, which Python cannot wait for: a worker's Python
answers synchronously. So the page asks in two steps, both through ``solve`` (passed in, as
``pysolver.api.solve``) and so through the same validation, planning and merging as the other
runners:

1. ``plan_text``: the request with a ``PlanRunner``, which records the tasks instead of running
   them. A request that is not split (random, trace, heatmap, dominoes, a root with no
   solution) or is wrong is answered right there, as the serial search or the error.
2. the page runs the tasks as ordinary requests, in order, on its workers;
3. ``merge_text``: the request again with an ``AnsweredRunner`` holding the task answers (JSON
   text as the workers wrote it: big counts stay exact) and the tasks the pool ran again after
   their worker died, which merges them: ``parallel.retried`` as the process pool lists it.
"""

from __future__ import annotations

from typing import Any, Protocol

from pysolver import protocol
from pysolver.engines.monitor import Monitor
from pysolver.parallel.merge import Merger, not_run, read_answer, stopped
from pysolver.parallel.plan import TASKS_PER_JOB, Task
from pysolver.parallel.runner import Runner
from pysolver.protocol import INTERNAL_ERROR, CancelCheck, ProgressCallback


class SolveWithRunner(Protocol):
    """``pysolver.api.solve``: a request answered with its tasks run by ``runner``."""

    def __call__(
        self,
        request: Any,
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
        runner: Runner | None = None,
    ) -> dict[str, Any]: ...


class PlanRunner:
    """Records the tasks of a request instead of running them (step 1 above)."""

    name = "plan"
    starts_serially = False

    def __init__(self, jobs: int, tasks_per_job: int = TASKS_PER_JOB) -> None:
        self.jobs = jobs
        self.tasks_per_job = tasks_per_job
        self.tasks: list[Task] | None = None
        self.settled = 0.0
        self.limit: int | None = None

    def workers(self) -> int:
        return self.jobs

    def grant(self, jobs: int) -> int:
        return jobs

    def warm_up(self, compiled: bool) -> None:
        return None

    def run(self, tasks: list[Task], merger: Merger) -> None:
        self.tasks = tasks
        self.settled = merger.settled
        self.limit = merger.limit
        merger.monitor = Monitor()  # nothing was searched: no progress report of the plan's
        for task in tasks:
            merger.done(task.index, stopped())


class AnsweredRunner:
    """Gives the merger the answers a pool outside Python found (step 3 above); None for a
    task the pool did not run (stopped after the limit, or cancelled). ``retried``: per task
    run again after its worker died, why each time (task index -> reasons)."""

    starts_serially = False

    def __init__(
        self,
        name: str,
        jobs: int,
        responses: list[dict[str, Any] | None],
        cancelled: bool,
        tasks_per_job: int = TASKS_PER_JOB,
        retried: dict[int, list[str]] | None = None,
    ) -> None:
        self.name = name
        self.jobs = jobs
        self.responses = responses
        self.cancelled = cancelled
        self.tasks_per_job = tasks_per_job
        self.retried = retried or {}

    def workers(self) -> int:
        return self.jobs

    def grant(self, jobs: int) -> int:
        return jobs

    def warm_up(self, compiled: bool) -> None:
        return None

    def run(self, tasks: list[Task], merger: Merger) -> None:
        if len(tasks) != len(self.responses):
            reason = (
                f"the pool answered {len(self.responses)} tasks but this request has "
                f"{len(tasks)}; send the request that was planned"
            )
            for task in tasks:
                merger.done(task.index, not_run(reason))
            return
        for task, response in zip(tasks, self.responses, strict=True):
            for reason in self.retried.get(task.index, []):
                merger.retried(task.index, reason)
            merger.done(task.index, stopped() if response is None else response)
        if self.cancelled:
            merger.cancelled = True


def plan_text(
    text: str,
    solve: SolveWithRunner,
    progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
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
            "tasks": [protocol.dumps(task.request) for task in runner.tasks],
            "weights": [task.weight for task in runner.tasks],
            "settled": runner.settled,
            "limit": runner.limit,
        }
    )


def merge_text(text: str, solve: SolveWithRunner, executor: str = "page workers") -> str:
    """Step 3 for a pool outside Python: ``{"request": ..., "responses": [response or null,
    ...], "cancelled": bool, "retried": [{"task": index, "reasons": [text, ...]}, ...]}``
    (responses in task order; ``retried`` optional) -> the merged response as JSON."""
    payload = read_answer(text)
    request: Any = payload.get("request") if isinstance(payload, dict) else None
    responses = payload.get("responses") if isinstance(payload, dict) else None
    if not isinstance(responses, list):
        error = protocol.SolveError(INTERNAL_ERROR, "a merge needs the task answers", "responses")
        return protocol.dumps(protocol.error_response(error))
    retried = _retried(payload.get("retried"))
    if retried is None:
        message = 'retried lists {"task": index, "reasons": [text, ...]} objects'
        error = protocol.SolveError(INTERNAL_ERROR, message, "retried")
        return protocol.dumps(protocol.error_response(error))
    runner = AnsweredRunner(executor, 1, responses, bool(payload.get("cancelled")), retried=retried)
    return protocol.dumps(solve(request, runner=runner))


def _retried(value: Any) -> dict[int, list[str]] | None:
    """A merge call's ``retried`` as task index -> reasons (none when absent); None when it
    is not that shape."""
    if value is None:
        return {}
    if not isinstance(value, list):
        return None
    retried: dict[int, list[str]] = {}
    for entry in value:
        task = entry.get("task") if isinstance(entry, dict) else None
        reasons = entry.get("reasons") if isinstance(entry, dict) else None
        if type(task) is not int or task < 0 or not isinstance(reasons, list):
            return None
        if not all(isinstance(reason, str) for reason in reasons):
            return None
        retried.setdefault(task, []).extend(reasons)
    return retried
