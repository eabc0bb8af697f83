"""Planning: cut a request's search into subtree tasks, balanced by Knuth's estimate."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from pysolver import budget
from pysolver.engines.monitor import Cancelled
from pysolver.engines.subtree import Split
from pysolver.protocol import CancelCheck, ProgressCallback, Query

# Tasks per worker: enough that an unlucky heavy subtree does not leave the others idle for
# long (Knuth's estimate is rough), few enough that planning and start-up stay negligible.
TASKS_PER_JOB = 8
# What one planned task holds besides its path (its request dict, sharing the puzzle with the
# others, its subtree dict and the Task): for the plan's share of the memory budget.
TASK_BYTES = 1024


class PreparedSearch(Protocol):
    """A request's puzzle, read once: its searches cut into subtrees, or run whole."""

    @property
    def compiled(self) -> bool:
        """Whether its searches may run the compiled walk (``bitset.compiled_walk``)."""
        ...

    def split(self, wanted: int, /) -> list[Split | None]:
        """The searches the request runs, in order, each cut into subtrees by its engine
        family's ``split`` (about ``wanted`` in all), None for a search that must run whole."""
        ...

    def solve(self) -> dict[str, Any]:
        """The response fields of the request's serial search."""
        ...

    def solve_watched(
        self, progress: ProgressCallback | None, cancel: CancelCheck | None, /
    ) -> dict[str, Any]:
        """``solve`` with these hooks in place of the request's progress and cancel."""
        ...


class PlannedKind(Protocol):
    """What parallel search needs of a kind: the seam with the midend, which supplies one per
    splittable kind (kinds whose searches are not split have none)."""

    def prepare(self, puzzle: Any, query: Query, /) -> PreparedSearch:
        """The request's searches; validates the puzzle as a serial solve does."""
        ...

    def merge_fields(self, fields: dict[str, Any], /) -> None:
        """Recompute, on the merged answer, the fields a task only knows for its own subtree
        (Sudoku's ``unique``); nothing for most kinds."""
        ...


@dataclass
class Task:
    """One subtree to search: its request (plain JSON) and its Knuth weight in the whole."""

    index: int
    request: dict[str, Any]
    weight: float
    # Tasks of one group share sub-searches that a worker's memo finds again (a memo count's
    # tasks below one root branch): a worker is given the tasks of its groups first
    # (``processes``). None: tasks share nothing a worker keeps, and go in order.
    group: tuple[int, Any] | None = None

    @property
    def subtree(self) -> dict[str, Any]:
        subtree: dict[str, Any] = self.request["subtree"]
        return subtree


def plan(
    request: dict[str, Any], query: Query, kind: PlannedKind, wanted: int
) -> tuple[list[Task], float]:
    """The tasks of a request (about ``wanted``), in search order (a whole count cut in one
    engine's own tree: heaviest first, see ``plan_prepared``), and the weight already
    settled (dead ends met while cutting). ``kind.prepare`` validates the puzzle as ``solve``
    would, so bad input fails here, once."""
    return plan_prepared(request, query, kind.prepare(request["puzzle"], query), wanted)


def plan_prepared(
    request: dict[str, Any], query: Query, prepared: PreparedSearch, wanted: int
) -> tuple[list[Task], float]:
    """``plan`` of a request whose puzzle is already read (``prepared``)."""
    return plan_splits(request, query, prepared.split(wanted))


def plan_splits(
    request: dict[str, Any], query: Query, splits: list[Split | None]
) -> tuple[list[Task], float]:
    """``plan`` of a request whose searches are already cut (``PreparedSearch.split``).

    No tasks when the kind has no search to run (every search dead at its root). The plan
    counts in the memory budget and stops (``Cancelled``) when the request is cancelled.
    """
    if not splits:
        return [], 1.0
    if query.cancel is not None and query.cancel():
        raise Cancelled
    paths = [len(subtree.path) for split in splits if split for subtree in split.subtrees]
    budget.check(
        (len(paths) + 1) * TASK_BYTES + budget.list_bytes(sum(paths)),
        f"the plan of {len(paths):,} subtree tasks",
        "ask for fewer jobs",
        "jobs",
    )
    # A task keeps ``recent``: its progress reports then carry whole solutions (in the
    # puzzle's terms), and the merged progress passes the latest one on.
    base = {key: value for key, value in request.items() if key != "jobs"}
    # A split of one engine's own tree (the memo count's) names that engine in its tasks: a
    # worker's share of the budget must not move them to an engine walking another tree.
    engines = {split.engine for split in splits if split is not None and split.engine}
    if engines:
        (base["engine"],) = engines
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
    if engines:
        # A whole count (the memo count's split): no solution order to keep, so the heaviest
        # tasks go first (by Knuth's estimate) and the light ones even out the end. 6x10, 2
        # workers, CPU s of their tasks: 1.07 + 1.36 in search order, 1.20 + 1.20 so.
        tasks.sort(key=lambda task: -task.weight)
        for index, task in enumerate(tasks):
            task.index = index
            # The memo's sub-boards are the covered items: tasks below different root
            # branches (different cells covered first) meet few of each other's, tasks below
            # one meet many (6x10 pentominoes, 22 tasks on two memos: 1.18x the serial nodes
            # when the root branches' tasks alternated, 1.00x in one memo).
            path = task.subtree["path"]
            task.group = (task.subtree["branch"], path[0] if path else None)
    return tasks, settled
