"""The one interface of every runner, and of the function a runner answers tasks with."""

from __future__ import annotations

from typing import Protocol

from pysolver.parallel.merge import Merger
from pysolver.parallel.plan import Task
from pysolver.protocol import CancelCheck, ProgressCallback


class AnswerTask(Protocol):
    """Answers one task given and returned as JSON text (``pysolver.api.answer_task``).

    Runners receive it explicitly; runners in other processes (worker processes, Dask) send it
    there, so it must be picklable: a module-level function."""

    def __call__(
        self,
        text: str,
        cancel: CancelCheck | None = None,
        progress: ProgressCallback | None = None,
    ) -> str: ...


class Runner(Protocol):
    """Runs the tasks of a request somewhere and tells the merger about them.

    ``run`` calls ``merger.done(index, response)`` once for every task (``merge.stopped()``
    for a task it did not start, ``merge.not_run(reason)`` for one that failed), passes
    progress reports on with ``merger.progress`` and calls ``merger.check()`` now and then,
    and stops tasks for which ``merger.should_stop(index)`` holds.
    """

    # The response's ``parallel.executor``.
    name: str
    # Tasks planned per worker (``plan.TASKS_PER_JOB`` unless a test cuts finer or coarser).
    tasks_per_job: int
    # Whether a request is first searched serially here, to be split only when it is not
    # about to end (``pysolver.parallel.serial_start``): runners whose start costs a
    # noticeable time (worker processes) do.
    starts_serially: bool

    def workers(self) -> int:
        """How many tasks it runs at once (a request without ``jobs`` gets that many)."""
        ...

    def grant(self, jobs: int) -> int:
        """How many of ``jobs`` asked for it runs at once (worker processes: at most the
        cores; a cluster or the page's pool: all of them, their workers queue the rest)."""
        ...

    def warm_up(self, compiled: bool) -> None:
        """Get ready for tasks while the request is planned (the process pool starts its fork
        server, which loads what workers need: the compiled walk's kernel too, when
        ``compiled``, the tasks may run it); nothing for the other runners."""
        ...

    def run(self, tasks: list[Task], merger: Merger) -> None: ...
