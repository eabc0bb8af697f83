"""How many workers the page's pool runs (web/runtime/pool.js ``workerLimit``), and the words of
its notes, for navigators of several shapes (run in Node.js; the browser tests see one)."""

from __future__ import annotations

from tests.node_page import require_node, run_module

require_node("the page's pool")

RUNNER = """
import {
  workerLimit, limitNote, stopsNote, MAX_WORKERS, WORKER_MEMORY_MB,
} from "./web/runtime/pool.js";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { navigators, stops } = JSON.parse(input);
process.stdout.write(JSON.stringify({
  most: MAX_WORKERS,
  perWorker: WORKER_MEMORY_MB,
  limits: navigators.map((navigator) => workerLimit(navigator)),
  note: limitNote(64, workerLimit(navigators[0])),
  stops: stops.map(([restarts, lost]) => stopsNote(restarts, lost)),
}));
"""


def run(navigators: list[dict], stops: list[list]) -> dict:
    result: dict = run_module(RUNNER, {"navigators": navigators, "stops": stops})
    return result


def test_workers_are_capped_by_cores_memory_and_the_page_maximum() -> None:
    result = run(
        [
            {"hardwareConcurrency": 2, "deviceMemory": 8},
            {"hardwareConcurrency": 16, "deviceMemory": 8},
            {"hardwareConcurrency": 16, "deviceMemory": 1},
            {"hardwareConcurrency": 16},  # no deviceMemory: 4 GB assumed
            {"deviceMemory": 0.25},  # neither cores nor enough memory: one worker still
        ],
        [],
    )
    assert result["perWorker"] == 256 and result["most"] == 8
    workers = [limit["workers"] for limit in result["limits"]]
    # 8 GB: 4,096 MB for workers, 16 of 256 MB; 1 GB: 2; 4 GB assumed: 8.
    assert workers == [2, 8, 2, 8, 1]
    assert [limit["memoryKnown"] for limit in result["limits"]] == [True, True, True, False, True]
    assert result["note"] == (
        "64 workers were asked for; this page runs at most 2 here "
        "(2 cores, 8 GB of memory, 256 MB a worker, at most 8)"
    )


def test_notes_on_workers_that_died() -> None:
    stops = run([{}], [[0, []], [1, []], [2, [5]], [3, [1, 4]]])["stops"]
    assert stops[0] is None
    assert stops[1] == (
        "a worker stopped (out of memory, or a crash) and was restarted; "
        "the task it was running ran again, so the answer is whole"
    )
    assert stops[2].startswith("workers stopped 2 times (out of memory, or a crash)")
    assert "the tasks they were running" not in stops[2]  # given up, so not "whole"
    assert stops[3].endswith("the answer misses that part of the search (parallel.failed)")
    assert "task 5 stopped its worker 3 times and was given up" in stops[2]
    assert "tasks 1, 4 stopped" in stops[3]
