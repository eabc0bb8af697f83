"""The one interface of every runner, and of the function a runner answers tasks with."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from pysolver.engines.memo_levels import Expanded, HeldLanes, Lanes, LevelWalk, Part
from pysolver.engines.monitor import Monitor
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


@runtime_checkable
class LaneRunner(Runner, Protocol):
    """A runner that also offers lanes to the memo count's levels (``memo_levels``): worker
    processes, Dask. The lanes are a context manager (its workers go when it ends) with
    ``fields()``, the response's ``parallel`` fields of the run beside ``jobs``."""

    def level_lanes(self, jobs: int, /) -> LevelLanes: ...


class LevelLanes(Lanes, Protocol):
    """``memo_levels.Lanes`` that are a context manager and say what they did."""

    def __enter__(self) -> LevelLanes: ...

    def __exit__(self, kind: Any, error: Any, trace: Any) -> None: ...

    def fields(self) -> dict[str, Any]: ...


@dataclass
class LaneRecord(HeldLanes):
    """What a run of the memo count's levels did, kept by the lanes for the response: each
    lane's nodes (this process's first: the levels it expands alone count there too), the
    levels sent to other lanes, and why lanes were lost (the count then went to the memo
    walk, ``memo_levels.LanesLost``)."""

    count: int
    nodes: list[int] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    levels_sent: int = 0

    def __post_init__(self) -> None:
        self.nodes = [0] * self.count

    def expand(self, walk: LevelWalk, parts: list[Part], monitor: Monitor) -> list[Expanded]:
        """A level's parts all expanded in this process (a small level)."""
        expanded = super().expand(walk, parts, monitor)
        self.nodes[0] += sum(answer.nodes for answer in expanded)
        return expanded

    def fields(self) -> dict[str, Any]:
        """The response's ``parallel`` fields of the run (beside ``jobs`` and ``executor``):
        ``tasks`` (the level parts sent to other lanes), ``largest_task_share`` (the busiest
        lane's share of the nodes), ``levels``: ``{"lanes", "sent"}``, and ``lost_lanes`` when
        lanes were lost."""
        total = sum(self.nodes)
        fields: dict[str, Any] = {
            "tasks": self.levels_sent * (self.count - 1),
            "largest_task_share": round(max(self.nodes) / total, 4) if total else 1.0,
            "levels": {"lanes": self.count, "sent": self.levels_sent},
        }
        if self.lost:
            fields["lost_lanes"] = list(self.lost)
        return fields
