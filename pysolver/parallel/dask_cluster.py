"""Tasks on an existing Dask cluster (``dask.distributed``; the optional ``dask`` extra):
``python -m pysolver solve --scheduler tcp://HOST:PORT``."""

from __future__ import annotations

import contextlib
import uuid
from time import perf_counter
from typing import Any

from pysolver import protocol
from pysolver.parallel.merge import Merger, not_run, read_answer, stopped
from pysolver.parallel.plan import TASKS_PER_JOB, Task
from pysolver.parallel.runner import AnswerTask


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
        from distributed import Queue, Variable, wait

        stop_name = f"pysolver-stop-{uuid.uuid4().hex}"
        progress = Queue(f"{stop_name}-progress", client=self.client)
        stop_variable = Variable(stop_name, client=self.client)
        stop_variable.set(len(tasks))
        shared_stop = len(tasks)
        pending = {
            self.client.submit(
                answer_on_dask,
                self.answer_task,
                task.index,
                protocol.dumps(task.request),
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
                    merger.done(task.index, self._result(future))
                merger.check()
                if merger.stop_from != shared_stop:
                    shared_stop = merger.stop_from
                    stop_variable.set(shared_stop)
                    stopping = [f for f, task in pending.items() if merger.should_stop(task.index)]
                    self.client.cancel(stopping)
                    for future in stopping:
                        merger.done(pending.pop(future).index, stopped())
        finally:
            self.client.cancel(list(pending))
            # Tasks still running on a worker see the variable gone and stop (see below).
            stop_variable.delete()
            progress.close()

    @staticmethod
    def _result(future: Any) -> dict[str, Any]:
        try:
            return read_answer(future.result())
        except Exception as exc:
            cause = f"{type(exc).__name__}: {exc}"
            return not_run(f"the Dask worker running this task failed ({cause})")


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
