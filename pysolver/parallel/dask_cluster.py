"""Tasks on an existing Dask cluster (``dask.distributed``; the optional ``dask`` extra):
``python -m pysolver solve --scheduler tcp://HOST:PORT``."""

from __future__ import annotations

import contextlib
import logging
import uuid
from time import perf_counter, sleep
from typing import Any

from pysolver import protocol
from pysolver.parallel.merge import Merger, not_run, read_answer, stopped
from pysolver.parallel.plan import TASKS_PER_JOB, Task
from pysolver.parallel.processes import task_text
from pysolver.parallel.runner import AnswerTask
from pysolver.protocol import UNAVAILABLE, SolveError

# How long an error from Dask may take to show as a lost scheduler in the client's status.
LOST_GRACE_SECONDS = 2.0


class DaskRunner:
    """Tasks on an existing Dask cluster (``dask.distributed``; the optional ``dask`` extra).

    Workers need pysolver importable (installed, or on their PYTHONPATH). Running tasks send
    progress through a Dask ``Queue`` and poll a Dask ``Variable`` (the index from which tasks
    must stop; deleted when the run ends) about twice a second.
    """

    name = "dask"

    def __init__(
        self, address: str, answer_task: AnswerTask, tasks_per_job: int = TASKS_PER_JOB
    ) -> None:
        self.answer_task = answer_task
        self.tasks_per_job = tasks_per_job
        self.address = address
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

    def grant(self, jobs: int) -> int:
        return jobs

    def close(self) -> None:
        self.client.close()

    def run(self, tasks: list[Task], merger: Merger) -> None:
        try:
            self._run(tasks, merger)
        except Exception as exc:
            if not self._cluster_lost(exc):
                raise
            # Dask's client logs each failed reconnection with a traceback: the response
            # says what happened, in one sentence.
            for name in ("distributed", "distributed.client"):
                logging.getLogger(name).setLevel(logging.CRITICAL)
            for task in tasks:
                if merger.responses[task.index] is None:
                    merger.done(task.index, self._lost())

    def _run(self, tasks: list[Task], merger: Merger) -> None:
        """Submit the tasks and follow them; raises when the cluster is lost meanwhile."""
        from distributed import Queue, Variable, wait

        stop_name = f"pysolver-stop-{uuid.uuid4().hex}"
        progress = Queue(f"{stop_name}-progress", client=self.client)
        stop_variable = Variable(stop_name, client=self.client)
        stop_variable.set(len(tasks))
        shared_stop = len(tasks)
        # The request goes to the cluster once, as a task of its own whose result every task
        # takes (the scheduler keeps it, so a worker that dies holding it loses nothing); a
        # task is then only its index and its subtree.
        base = {key: value for key, value in tasks[0].request.items() if key != "subtree"}
        request_text = self.client.submit(
            _request_text, protocol.dumps(base), key=f"{stop_name}-request", pure=False
        )
        pending = {
            self.client.submit(
                answer_subtree_on_dask,
                self.answer_task,
                task.index,
                request_text,
                task.subtree,
                stop_name,
                key=f"{stop_name}-{task.index}",
                pure=False,
            ): task
            for task in tasks
        }
        while pending:
            try:
                finished = wait(list(pending), timeout=0.1, return_when="FIRST_COMPLETED")
                finished_futures = list(finished.done)
            except TimeoutError:  # none finished within the timeout: just poll again
                finished_futures = []
            if self._cluster_lost():
                raise ConnectionError("the scheduler stopped answering")
            for index, report in progress.get(batch=True):
                merger.progress(index, report)
            for future in finished_futures:
                task = pending.pop(future)
                merger.done(task.index, self._result(future))
            merger.check()
            if merger.stop_from != shared_stop:
                shared_stop = merger.stop_from
                stop_variable.set(shared_stop)
                stopping = [f for f, task in pending.items() if merger.should_stop(task.index)]
                self.client.cancel(stopping)
                for future in stopping:
                    merger.done(pending.pop(future).index, stopped())
        self.client.cancel([*pending, request_text])
        # Tasks still running on a worker see the variable gone and stop (see below).
        stop_variable.delete()
        progress.close()

    def _cluster_lost(self, error: Exception | None = None) -> bool:
        """The client has lost its scheduler (it is reconnecting, or gave up). After an
        ``error``, the client's status may take a moment to say so: wait for it briefly, and
        take Dask's own reason for cancelled futures as the answer too."""
        waited_until = perf_counter() + (LOST_GRACE_SECONDS if error is not None else 0.0)
        while True:
            if str(getattr(self.client, "status", "running")) != "running":
                return True
            if error is not None and "scheduler-connection-lost" in str(error):
                return True
            if perf_counter() >= waited_until:
                return False
            sleep(0.05)

    def _lost(self) -> dict[str, Any]:
        message = f"the Dask cluster at {self.address} was lost (its scheduler stopped answering)"
        return protocol.error_response(SolveError(UNAVAILABLE, message, "subtree"))

    def _result(self, future: Any) -> dict[str, Any]:
        try:
            return read_answer(future.result())
        except Exception as exc:
            if self._cluster_lost(exc):
                return self._lost()
            cause = protocol.shown(f"{type(exc).__name__}: {exc}")
            return not_run(f"the Dask worker running this task failed ({cause})")


def _request_text(text: str) -> str:
    """The request's JSON text, as the result every task of a run takes."""
    return text


def answer_subtree_on_dask(
    answer_task: AnswerTask, index: int, request_text: str, subtree: Any, stop_name: str
) -> str:
    """Runs on a Dask worker: the task ``index`` of the request (its JSON text, fetched once
    per worker) below ``subtree``."""
    text = task_text(request_text.rstrip()[:-1], subtree)
    return answer_on_dask(answer_task, index, text, stop_name)


def answer_on_dask(answer_task: AnswerTask, index: int, text: str, stop_name: str) -> str:
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

    return answer_task(text, cancel=cancel, progress=report)
