"""Tasks on a pool of worker processes (``multiprocessing``, the standard library only).

A small pool of its own rather than ``concurrent.futures``: there one dead worker (killed, or
taken by the kernel's out-of-memory killer) breaks the whole pool and fails every task not yet
finished. Here each worker is a process with a pipe, the runner knows which task each one is
running, and when one dies its task runs again on a fresh worker (at most ``MAX_ATTEMPTS``
times; the response lists the retries in ``parallel.retried``). Tasks are plain JSON and
idempotent, so a rerun answers exactly as the first run would have.

The request is shipped to each worker once, as JSON text when the worker starts; a task is
then only its index and its ``subtree``, and the worker splices the two into the task's text.

One budget for the whole run: workers are capped by the cores this process may use, and each
gets ``budget.BUDGET_BYTES / (workers + 1)`` (the parent, which planned the run and merges
it, keeps one share). A task refused by its share is answered serially by the caller, with the
whole budget (``parallel.solve_split``).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

from pysolver import budget, protocol
from pysolver.parallel.merge import Merger, not_run, read_answer, stopped
from pysolver.parallel.plan import TASKS_PER_JOB, Task
from pysolver.parallel.runner import AnswerTask

# Times a task may be running on a worker that dies before it is given up.
MAX_ATTEMPTS = 3
# The signals that stop a run (a terminal's Ctrl-C, `timeout`, systemd, Docker, a closed
# terminal). They often reach the whole process group; the parent turns them into stopping
# every task, so the workers ignore them and answer the stop like any other.
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
# How long the parent waits for events before it checks progress and stops again.
POLL_SECONDS = 0.05
# How long a worker told to leave may take before it is terminated.
LEAVE_SECONDS = 2.0


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform has one)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def worker_budget(workers: int) -> int:
    """Each worker's share of the memory budget: the parent keeps one share."""
    return budget.budget_bytes() // (workers + 1)


def task_text(head: str, subtree: dict[str, Any]) -> str:
    """A task's JSON text: the request's text without its closing brace (``head``), plus the
    task's ``subtree``."""
    separator = "" if head.rstrip().endswith("{") else ", "
    return f'{head}{separator}"subtree": {protocol.dumps(subtree)}}}'


def _worker_main(
    connection: Connection,
    request_text: str,
    budget_bytes: int,
    stop_from: Any,
    answer_task: AnswerTask,
    parent: int,
) -> None:
    """A worker process: answer ``(index, subtree)`` tasks of the request until told to leave
    (None) or the parent is gone."""
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # blocked by the parent while it started us
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    budget.BUDGET_BYTES = budget_bytes
    head = request_text.rstrip()[:-1]
    del request_text
    while True:
        try:
            message = connection.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        if message is None:
            return
        index, subtree = message

        def report(progress: dict[str, Any], index: int = index) -> None:
            connection.send(("progress", index, progress))

        def cancel(index: int = index) -> bool:
            # A parent that died (killed outright) cannot stop us: stop on our own then.
            return stop_from.value <= index or os.getppid() != parent

        answer = answer_task(task_text(head, subtree), cancel=cancel, progress=report)
        connection.send(("answer", index, answer))


@contextmanager
def _stop_signals_blocked() -> Iterator[None]:
    """Block the stop signals while a worker starts: it inherits the mask and only unblocks
    them once it ignores them, so a signal to the process group in between cannot kill it.
    Signals that arrive meanwhile reach this process when the block ends."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@dataclass
class _Worker:
    process: Any  # multiprocessing's SpawnProcess
    connection: Connection
    task: Task | None = None


class ProcessRunner:
    """A pool of worker processes (at most ``jobs``, at most the usable cores), each answering
    tasks with ``answer_task`` (sent to them by reference, so a module-level function)."""

    name = "processes"

    def __init__(
        self, jobs: int, answer_task: AnswerTask, tasks_per_job: int = TASKS_PER_JOB
    ) -> None:
        self.jobs = max(1, min(jobs, usable_cores()))
        self.answer_task = answer_task
        self.tasks_per_job = tasks_per_job

    def workers(self) -> int:
        return self.jobs

    def grant(self, jobs: int) -> int:
        return min(jobs, self.jobs)

    def run(self, tasks: list[Task], merger: Merger) -> None:
        if not tasks:
            return
        _Pool(self, tasks, merger).run()


class _Pool:
    """One run of a ``ProcessRunner``: its workers, the tasks waiting and the retries."""

    def __init__(self, runner: ProcessRunner, tasks: list[Task], merger: Merger) -> None:
        self.answer_task = runner.answer_task
        self.merger = merger
        self.size = min(runner.jobs, len(tasks))
        self.budget_bytes = worker_budget(self.size)
        base = {key: value for key, value in tasks[0].request.items() if key != "subtree"}
        self.request_text = protocol.dumps(base)
        # Spawned, not forked: the same behaviour on every platform, and no copy of a parent
        # that may hold threads or locks.
        self.context = multiprocessing.get_context("spawn")
        self.stop_from = self.context.Value("q", len(tasks), lock=False)
        self.waiting: deque[Task] = deque(tasks)
        self.attempts = [0] * len(tasks)
        self.unanswered = len(tasks)
        self.workers: list[_Worker] = []

    def run(self) -> None:
        try:
            while self.unanswered:
                self._stop_waiting_tasks()
                self._hand_out()
                if not self.unanswered:
                    break
                connections = [worker.connection for worker in self.workers]
                sentinels = [worker.process.sentinel for worker in self.workers]
                wait([*connections, *sentinels], timeout=POLL_SECONDS)
                for worker in list(self.workers):
                    self._read(worker)
                    if worker.process.exitcode is not None:
                        self._read(worker)  # what it sent before it died
                        self._bury(worker)
                self.merger.check()
                self.stop_from.value = self.merger.stop_from
        finally:
            self.stop_from.value = 0
            self._dismiss()

    def _start(self) -> _Worker:
        parent_end, worker_end = self.context.Pipe(duplex=True)
        process = self.context.Process(
            target=_worker_main,
            args=(
                worker_end,
                self.request_text,
                self.budget_bytes,
                self.stop_from,
                self.answer_task,
                os.getpid(),
            ),
            name="pysolver-worker",
            daemon=True,
        )
        with _stop_signals_blocked():
            process.start()
        worker_end.close()
        worker = _Worker(process, parent_end)
        self.workers.append(worker)
        return worker

    def _stop_waiting_tasks(self) -> None:
        if any(self.merger.should_stop(task.index) for task in self.waiting):
            for task in [task for task in self.waiting if self.merger.should_stop(task.index)]:
                self.waiting.remove(task)
                self._answer(task.index, stopped())

    def _hand_out(self) -> None:
        """Give each idle worker the next waiting task, starting workers up to the pool's size
        (a worker always gets a task as it starts, so a worker that cannot start fails tasks,
        a bounded number of times, rather than looping)."""
        idle = [worker for worker in self.workers if worker.task is None]
        while self.waiting and (idle or len(self.workers) < self.size):
            worker = idle.pop() if idle else self._start()
            task = self.waiting.popleft()
            # One that died already is buried by the next loop, which retries the task.
            with suppress(OSError):
                worker.connection.send((task.index, task.subtree))
            worker.task = task

    def _read(self, worker: _Worker) -> None:
        try:
            while worker.connection.poll():
                kind, index, payload = worker.connection.recv()
                if kind == "progress":
                    self.merger.progress(index, payload)
                else:
                    worker.task = None
                    self._answer(index, read_answer(payload))
        except (EOFError, OSError):  # it died: _bury sees to its task
            return

    def _bury(self, worker: _Worker) -> None:
        """A worker died: its task runs again on a fresh worker, or is given up."""
        self.workers.remove(worker)
        worker.connection.close()
        worker.process.join()
        task = worker.task
        if task is None:
            return
        if self.merger.should_stop(task.index):
            self._answer(task.index, stopped())
            return
        self.attempts[task.index] += 1
        cause = _exit_cause(worker.process.exitcode)
        if self.attempts[task.index] < MAX_ATTEMPTS:
            self.merger.retried(task.index, cause)
            self.waiting.appendleft(task)
            return
        self._answer(
            task.index,
            not_run(
                f"the worker process running this task died {MAX_ATTEMPTS} times "
                f"(last {cause}); it was given up"
            ),
        )

    def _answer(self, index: int, response: dict[str, Any]) -> None:
        self.merger.done(index, response)
        self.unanswered -= 1

    def _dismiss(self) -> None:
        """End every worker: ask, then wait a little, then terminate."""
        for worker in self.workers:
            with suppress(OSError):
                worker.connection.send(None)
        for worker in self.workers:
            worker.process.join(LEAVE_SECONDS)
            if worker.process.exitcode is None:
                worker.process.kill()
                worker.process.join()
            worker.connection.close()
        self.workers.clear()


def _exit_cause(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            return f"ended by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"ended by signal {-exitcode}"
    return f"exited with status {exitcode}"
