"""Merging: task progress and answers into the progress and answer of the whole request.

The rules (see the package docstring): counts add, solutions are taken task by task in search
order, the listing cap holds for the whole answer, ``complete`` only when every task completed,
a failed task is listed in ``parallel.failed``; once the first tasks hold ``limit`` solutions
the later ones may stop. ``web/runtime/pool.js`` applies the same progress and stop rules to its own
workers (tests/test_pool_merge.py compares the two).
"""

from __future__ import annotations

from typing import Any

from pysolver import budget, protocol
from pysolver.engines.monitor import Monitor
from pysolver.parallel.plan import Task
from pysolver.protocol import INTERNAL_ERROR, SOLUTION_FIELDS, Query

# Error codes of a task that refuse the request itself (the same for every task of it), as
# opposed to a task that could not run (internal_error, unavailable) or was stopped.
REFUSALS = frozenset(
    {
        protocol.INVALID_JSON,
        protocol.INVALID_REQUEST,
        protocol.INVALID_PUZZLE,
        protocol.UNKNOWN_KIND,
        protocol.UNKNOWN_MODE,
        protocol.UNKNOWN_ENGINE,
        protocol.TOO_LARGE,
    }
)

# Work counters of the engines that add up over tasks; other stats are the same in every task.
ADDITIVE_STATS = ("nodes", "updates", "mask_ops", "splits")


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
        # Tasks run again after their worker died: {"task", "subtree", "reasons"} each.
        self.retries: dict[int, list[str]] = {}
        # The first task answer that refuses the request itself (too_large, invalid_...): the
        # serial search would refuse it too, or (a worker's smaller share of the budget) can
        # answer it, so the caller answers serially. Every task stops.
        self.refusal: dict[str, Any] | None = None

    def progress(self, index: int, report: dict[str, Any]) -> None:
        if self.responses[index] is not None:
            return  # a late report from a task already answered
        # A field a report leaves out keeps its last value (web/runtime/pool.js's withProgress too).
        self.fractions[index] = report.get("fraction", self.fractions[index])
        self.nodes[index] = report.get("nodes", self.nodes[index])
        self.found[index] = report.get("solutions", self.found[index])
        if report.get("recent") is not None:
            self.monitor.kept = report["recent"]  # passed on with the next merged report

    def retried(self, index: int, reason: str) -> None:
        """The worker running task ``index`` died (``reason``); the task runs again from its
        start (web/runtime/pool.js's withRetry too)."""
        self.retries.setdefault(index, []).append(reason)
        self.fractions[index] = 0.0
        self.nodes[index] = 0
        self.found[index] = 0

    def done(self, index: int, response: dict[str, Any]) -> None:
        self.responses[index] = response
        error = response.get("error") or {}
        refuses = error.get("code") in REFUSALS and not str(error.get("path", "")).startswith(
            "subtree"
        )  # a wrong subtree is that task's own failure, not the request's
        if refuses and self.refusal is None:
            self.refusal = error
            self.stop_from = 0
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
        if self.retries:
            parallel["retried"] = [
                {"task": index, "subtree": self.tasks[index].subtree, "reasons": reasons}
                for index, reasons in sorted(self.retries.items())
            ]
        fields["parallel"] = parallel
        # A cancel that came after every task had answered stopped nothing: the count is whole,
        # and a serial search finished before the cancel does not say cancelled either.
        if self.cancelled and not complete:
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


def not_run(reason: str) -> dict[str, Any]:
    """The answer of a task that could not be run: an error naming the cause."""
    return protocol.error_response(protocol.SolveError(INTERNAL_ERROR, reason, "subtree"))


def stopped() -> dict[str, Any]:
    """The answer of a task stopped before it started: nothing searched, nothing found."""
    return {"ok": True, "count": 0, "complete": False, "cancelled": True, "solutions": []}


def read_answer(text: str) -> dict[str, Any]:
    """A task answer from its JSON text (counts of any size stay exact)."""
    with protocol.unlimited_int_digits():
        loaded: dict[str, Any] = protocol.loads(text)
    return loaded
