"""Tasks one after another in this process (tests, and platforms without processes such as
Pyodide, where the page runs its own pool of workers instead)."""

from __future__ import annotations

from typing import Any

from pysolver import protocol
from pysolver.parallel.merge import Merger, not_run, read_answer, stopped
from pysolver.parallel.plan import TASKS_PER_JOB, Task
from pysolver.parallel.runner import AnswerTask


class InlineRunner:
    """Answers each task with ``answer_task`` here, in order, stopping when the merger says."""

    name = "inline"
    starts_serially = False

    def __init__(self, answer_task: AnswerTask, tasks_per_job: int = TASKS_PER_JOB) -> None:
        self.answer_task = answer_task
        self.tasks_per_job = tasks_per_job

    def workers(self) -> int:
        return 1

    def grant(self, jobs: int) -> int:
        return jobs

    def warm_up(self, compiled: bool) -> None:
        return None

    def run(self, tasks: list[Task], merger: Merger) -> None:
        for task in tasks:
            merger.check()
            if merger.should_stop(task.index):
                merger.done(task.index, stopped())
                continue

            def report(progress: dict[str, Any], index: int = task.index) -> None:
                merger.progress(index, progress)
                merger.check()

            def cancel(index: int = task.index) -> bool:
                return merger.should_stop(index)

            try:
                text = protocol.dumps(task.request)
                response = read_answer(self.answer_task(text, cancel=cancel, progress=report))
            except Exception as exc:  # as a worker process that died: this subtree failed
                response = not_run(f"the task failed ({type(exc).__name__}: {exc})")
            merger.done(task.index, response)
