"""Tasks on a pool of worker processes (``concurrent.futures``, the standard library only)."""

from __future__ import annotations

import multiprocessing
import queue
import signal
from concurrent import futures
from typing import Any

from pysolver import protocol
from pysolver.parallel.merge import Merger, not_run, read_answer, stopped
from pysolver.parallel.plan import TASKS_PER_JOB, Task
from pysolver.parallel.runner import AnswerTask

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


def _answer_in_worker(answer_task: AnswerTask, index: int, text: str) -> str:
    def report(progress: dict[str, Any]) -> None:
        _PROGRESS.put((index, progress))

    return answer_task(text, cancel=lambda: _STOP_FROM.value <= index, progress=report)


class ProcessRunner:
    """A pool of ``jobs`` worker processes, each answering tasks with ``answer_task`` (sent to
    them by reference, so a module-level function)."""

    name = "processes"

    def __init__(
        self, jobs: int, answer_task: AnswerTask, tasks_per_job: int = TASKS_PER_JOB
    ) -> None:
        self.jobs = jobs
        self.answer_task = answer_task
        self.tasks_per_job = tasks_per_job

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
                pool.submit(
                    _answer_in_worker, self.answer_task, task.index, protocol.dumps(task.request)
                ): task
                for task in tasks
            }
            while pending:
                finished, _ = futures.wait(pending, timeout=0.05)
                self._drain(progress, merger)
                for future in finished:
                    task = pending.pop(future)
                    merger.done(task.index, self._result(future))
                merger.check()
                stop_from.value = merger.stop_from
                for future, task in list(pending.items()):
                    if merger.should_stop(task.index) and future.cancel():
                        del pending[future]
                        merger.done(task.index, stopped())
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
    def _result(future: futures.Future[str]) -> dict[str, Any]:
        try:
            return read_answer(future.result())
        except Exception as exc:  # a worker died or could not start: say so for this subtree
            return not_run(f"the worker running this task failed ({type(exc).__name__}: {exc})")
