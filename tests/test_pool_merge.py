"""The page's pool merges task progress and answers as Python's Merger does.

``web/runtime/pool.js`` schedules the page's Pyodide workers itself and keeps its own tally of their
tasks (``emptyTally``, ``withProgress``, ``withAnswer``, ``mergedProgress``, ``limitStop``):
the merged progress it shows and the task from which it stops starting or cancels tasks once
the first ones hold ``limit`` solutions. Python's ``pysolver.parallel.merge.Merger`` keeps the
same for its runners. Here real task answers (and their real progress reports) of several
kinds and modes, in order and interleaved, with cancelled and failed tasks among them, go
through both, and after every event the two must agree. Tasks whose worker died and that ran
again (``withRetry``, ``Merger.retried``) reach the merged answer as ``parallel.retried`` in the
same shape from the page's merge call as from Python's process pool.
"""

from __future__ import annotations

import json
import math
import random
import subprocess
from typing import Any

import pytest

from pysolver import api, parallel, protocol
from pysolver.engines import monitor
from pysolver.midend.registry import kind as midend_kind
from pysolver.parallel.merge import Merger, not_run, read_answer
from pysolver.protocol import parse_query
from tests.node_page import NODE, require_node, run_module

require_node("the page's pool")

# The one place naming the pool's module (web files may move to folders).
POOL_MODULE = "./web/runtime/pool.js"

# Reads [{"weights", "settled", "limit", "events": [["progress" | "answer" | "retry", index,
# text]]}] (a retry's text is why the worker died); writes, per scenario, the tally's state
# after each event and the tasks that ran again. Texts are parsed as the page parses what its
# workers send (parseJSON: BigInt past 2^53); big numbers go back as strings.
RUNNER = f"""
import {{
  emptyTally, withProgress, withAnswer, withRetry, retriedTasks, mergedProgress, limitStop,
}} from "{POOL_MODULE}";
import {{ parseJSON }} from "./web/runtime/solver.js";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const out = JSON.parse(input).map(({{ weights, settled, limit, events }}) => {{
  let tally = emptyTally(weights.length);
  let stopFrom = weights.length;
  const bound = limit === null ? null : BigInt(limit); // sent as text: it may pass 2^53
  const states = events.map(([event, index, text]) => {{
    if (event === "retry") tally = withRetry(tally, index, text);
    else if (event === "progress") tally = withProgress(tally, index, parseJSON(text));
    else tally = withAnswer(tally, index, parseJSON(text));
    stopFrom = Math.min(stopFrom, limitStop(tally.counts, bound));
    const {{ nodes, solutions, fraction }} = mergedProgress(tally, weights, settled);
    return {{ stop_from: stopFrom, nodes: String(nodes), solutions: String(solutions), fraction }};
  }});
  return {{ states, retried: retriedTasks(tally) }};
}});
process.stdout.write(JSON.stringify(out));
"""

# Reads {"request": JSON text, "answers": [text or null], "retries": [[index, reason]]}; writes
# the page's merge call for them (what runTasks hands Python after a run).
MERGE_CALL = f"""
import {{ emptyTally, withRetry, retriedTasks, mergeRequestText }} from "{POOL_MODULE}";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const {{ request, answers, retries }} = JSON.parse(input);
let tally = emptyTally(answers.length);
for (const [index, reason] of retries) tally = withRetry(tally, index, reason);
const call = mergeRequestText(request, false, answers, retriedTasks(tally));
process.stdout.write(JSON.stringify(call));
"""

# Eight of the pentominoes on a 5x8 rectangle: 100 tilings, split into a score of tasks, in a
# fraction of a second (the twelve on an 8x8 board with a hole, 520 tilings, took seconds).
EIGHT_PENTOMINOES = ["F", "I", "L", "N", "P", "T", "U", "V"]
BOARD_5X8 = ["........"] * 5
TILINGS_5X8 = 100
REPORTS_PER_TASK = 4


def pentominoes(board: list[str], mode: str = "count", **fields: Any) -> dict[str, Any]:
    # bitset by default: its tasks are cuts of the serial search (a memo count's are cut in
    # the memo walk's own tree, below its root orbits: memo_tasks).
    puzzle = {"board": board, "pieces": EIGHT_PENTOMINOES}
    return {"kind": "polyomino", "mode": mode, "engine": "bitset", "puzzle": puzzle, **fields}


def cancel_after(polls: int):
    """A cancel hook that asks the search to stop at its ``polls``-th look."""
    seen = 0

    def cancel() -> bool:
        nonlocal seen
        seen += 1
        return seen >= polls

    return cancel


def task_events(task: parallel.Task, cancel: Any = None) -> list[list[Any]]:
    """A task's real progress reports (a few, the last ones kept) and its answer, as JSON text."""
    reports: list[dict[str, Any]] = []
    text = api.answer_task(protocol.dumps(task.request), cancel=cancel, progress=reports.append)
    kept = reports[:: max(1, len(reports) // REPORTS_PER_TASK)][-REPORTS_PER_TASK:]
    events = [["progress", task.index, protocol.dumps(report)] for report in kept]
    return [*events, ["answer", task.index, text]]


def interleaved(per_task: list[list[list[Any]]], rng: random.Random) -> list[list[Any]]:
    """The tasks' events as workers running side by side deliver them: each task's in order."""
    queues = [list(events) for events in per_task]
    merged = []
    while any(queues):
        queue = rng.choice([queue for queue in queues if queue])
        merged.append(queue.pop(0))
    return merged


def scenario(
    request: dict[str, Any],
    wanted: int,
    *,
    order: str = "in order",
    cancel_task: int | None = None,
    fail_tasks: tuple[int, ...] = (),
    retry_tasks: tuple[int, ...] = (),
    scale: int = 1,
    seed: int = 1,
) -> dict[str, Any]:
    """A planned request and the events of its tasks: answered in order or interleaved; task
    ``cancel_task`` cancelled part way; ``fail_tasks`` answered with an error (a path the
    search never takes) or as a worker that died; ``retry_tasks`` reporting progress, losing
    their worker and running again from the start; counts times ``scale`` (big-count runs)."""
    query = parse_query(request)
    tasks, settled = parallel.plan(request, query, midend_kind(request["kind"]), wanted)
    assert len(tasks) > 2, "a scenario needs several tasks"
    per_task = []
    for task in tasks:
        if task.index in fail_tasks and task.index % 2:
            per_task.append([["answer", task.index, protocol.dumps(not_run("worker lost"))]])
            continue
        if task.index in fail_tasks:
            broken = dict(task.request, subtree={"branch": 0, "path": [10**6]})
            task = parallel.Task(task.index, broken, task.weight)
        cancel = cancel_after(3) if task.index == cancel_task else None
        events = task_events(task, cancel)
        if task.index in retry_tasks:
            died = ["retry", task.index, "ended by SIGKILL"]
            events = [*events[:-1], died, *events]  # its progress, the death, the rerun
        per_task.append(events)
    if scale != 1:
        per_task = [[scaled(event, scale) for event in events] for events in per_task]
    rng = random.Random(seed)
    events = interleaved(per_task, rng) if order == "interleaved" else sum(per_task, [])
    limit = query.search_limit
    return {
        "request": request,
        "query": query,
        "tasks": tasks,
        "weights": [task.weight for task in tasks],
        "settled": settled,
        "limit": limit,
        "events": events,
    }


def scaled(event: list[Any], scale: int) -> list[Any]:
    """An event with its solution counts times ``scale``: counts past 2^53, as 16x16 dominoes
    have, through the same rules."""
    kind, index, text = event
    message = read_answer(text)
    field = "solutions" if kind == "progress" else "count"
    if isinstance(message.get(field), int):
        message[field] *= scale
    return [kind, index, protocol.dumps(message)]


def python_states(case: dict[str, Any]) -> list[dict[str, Any]]:
    """Python's Merger after each event, as the runners feed it."""
    merger = Merger(case["tasks"], case["settled"], case["query"])
    states = []
    for kind, index, text in case["events"]:
        if kind == "retry":
            merger.retried(index, text)
        elif kind == "progress":
            merger.progress(index, read_answer(text))
        else:
            merger.done(index, read_answer(text))
        states.append(
            {
                "stop_from": merger.stop_from,
                "nodes": sum(merger.nodes),
                "solutions": sum(merger.found),
                "fraction": merger.fraction(),
            }
        )
    return states


def json_parse_flags() -> tuple[str, ...]:
    """Node.js options giving JSON.parse's reviver the source text (browsers have it; Node.js
    20 behind a V8 flag), which parseJSON needs to read counts past 2^53 exactly."""
    probe = 'JSON.parse("1", (k, v, c) => { if (!c) process.exit(1); return v; });'
    assert NODE is not None
    if subprocess.run([NODE, "-e", probe], check=False).returncode == 0:
        return ()
    return ("--harmony-json-parse-with-source",)


@pytest.fixture(scope="module")
def cases() -> dict[str, dict[str, Any]]:
    patch = pytest.MonkeyPatch()
    # Many progress reports a task (not only the throttled few), with recent solutions.
    patch.setattr(monitor.Monitor, "interval", 0.001)
    patch.setattr(monitor, "RECENT_INTERVAL", 0.0)
    try:
        empty_sudoku = {"kind": "sudoku", "puzzle": {"grid": "." * 81}}
        # Six clues of six in a 6x6 grid: eight tilings, a branch for each.
        clues = [[1, 1, 6], [1, 4, 6], [4, 1, 6], [4, 4, 6], [2, 2, 6], [3, 3, 6]]
        shikaku = {
            "kind": "shikaku",
            "mode": "count",
            "puzzle": {"rows": 6, "cols": 6, "clues": clues},
        }
        matrix = {
            "kind": "exact_cover",
            "mode": "solve",
            "limit": None,
            "puzzle": {"text": "a b c d | x\na b\nc d\na c x\nb d x\na\nb\nc\nd\nb c"},
        }
        return {
            "pentomino count": scenario(pentominoes(BOARD_5X8), 12),
            "pentomino count, interleaved": scenario(
                pentominoes(BOARD_5X8, recent=True), 12, order="interleaved"
            ),
            "sudoku count with a limit": scenario(
                dict(empty_sudoku, mode="count", limit=300), 12, order="interleaved", seed=2
            ),
            "pentomino solve with a limit": scenario(
                pentominoes(BOARD_5X8, mode="solve", limit=3), 8
            ),
            "sudoku solve with a limit, interleaved": scenario(
                dict(empty_sudoku, mode="solve", limit=40), 10, order="interleaved", seed=3
            ),
            "shikaku count": scenario(shikaku, 8, order="interleaved", seed=4),
            "exact cover listing": scenario(matrix, 6),
            # Random mode is never split: its tasks, if sent, are refused (invalid_request).
            "random mode tasks, refused": scenario(
                pentominoes(BOARD_5X8, mode="random", seed=5, limit=4), 8, order="interleaved"
            ),
            "heatmap tasks": scenario(pentominoes(BOARD_5X8, heatmap=True), 8),
            "a cancelled task": scenario(pentominoes(BOARD_5X8), 10, cancel_task=1),
            "tasks run again after their worker died": scenario(
                pentominoes(BOARD_5X8, recent=True), 10, order="interleaved", retry_tasks=(0, 3)
            ),
            "failed tasks and a limit": scenario(
                pentominoes(BOARD_5X8, mode="count", limit=60), 10, fail_tasks=(1, 2)
            ),
            "counts past 2^53": scenario(
                pentominoes(BOARD_5X8, mode="count", limit=2**60 * 60),
                12,
                order="interleaved",
                scale=2**60,
            ),
        }
    finally:
        patch.undo()


def test_the_page_tallies_tasks_as_python_merges_them(cases):
    payload = [
        {
            "weights": case["weights"],
            "settled": case["settled"],
            "limit": None if case["limit"] is None else str(case["limit"]),
            "events": case["events"],
        }
        for case in cases.values()
    ]
    page = run_module(RUNNER, payload, json_parse_flags())
    for (name, case), page_run in zip(cases.items(), page, strict=True):
        page_states = page_run["states"]
        expected = python_states(case)
        retries: dict[int, list[str]] = {}
        for kind, index, text in case["events"]:
            if kind == "retry":
                retries.setdefault(index, []).append(text)
        assert page_run["retried"] == [
            {"task": index, "reasons": reasons} for index, reasons in sorted(retries.items())
        ], name
        assert len(page_states) == len(expected) == len(case["events"])
        for step, (ours, theirs) in enumerate(zip(expected, page_states, strict=True)):
            where = f"{name}, event {step} ({case['events'][step][0]})"
            assert theirs["stop_from"] == ours["stop_from"], where
            assert int(theirs["nodes"]) == ours["nodes"], where
            assert int(theirs["solutions"]) == ours["solutions"], where
            assert math.isclose(theirs["fraction"], ours["fraction"], rel_tol=1e-12), where


def test_the_scenarios_cover_what_the_rules_are_about(cases):
    """The scenarios reach each rule: a limit that stops later tasks, a cancelled and a failed
    task, recent solutions, counts past 2^53, and a run that ends at the whole tree."""
    finals = {name: python_states(case)[-1] for name, case in cases.items()}
    stopped = [
        name for name, case in cases.items() if finals[name]["stop_from"] < len(case["tasks"])
    ]
    assert {"sudoku count with a limit", "pentomino solve with a limit"} <= set(stopped)
    answers = [
        read_answer(text)
        for case in cases.values()
        for kind, _, text in case["events"]
        if kind == "answer"
    ]
    assert any(answer.get("cancelled") for answer in answers)
    codes = {answer["error"]["code"] for answer in answers if not answer["ok"]}
    assert codes == {"invalid_request", "internal_error"}
    reports = [
        json.loads(text)
        for case in cases.values()
        for kind, _, text in case["events"]
        if kind == "progress"
    ]
    assert any("recent" in report for report in reports)
    assert finals["counts past 2^53"]["solutions"] > 2**53
    assert finals["pentomino count"]["fraction"] == pytest.approx(1.0)
    assert finals["pentomino count"]["solutions"] == TILINGS_5X8


def test_the_page_reports_tasks_run_again_as_the_process_pool_does():
    # One name and one shape for tasks whose worker died: parallel.retried, {"task", "subtree",
    # "reasons"} each, from the page's merge call as from Python's process pool.
    request = pentominoes(BOARD_5X8)
    tasks, settled = parallel.plan(request, parse_query(request), midend_kind("polyomino"), 8)
    answers = [api.answer_task(protocol.dumps(task.request)) for task in tasks]
    retries = [[1, "ended by SIGKILL"], [1, "ended by SIGKILL"], [4, "ran out of memory"]]
    merger = Merger(tasks, settled, parse_query(request))
    for index, reason in retries:  # as processes._Pool calls it when a worker dies
        merger.retried(index, reason)
    for task, answer in zip(tasks, answers, strict=True):
        merger.done(task.index, read_answer(answer))
    pool = merger.merged("processes", 2)
    assert [entry["task"] for entry in pool["parallel"]["retried"]] == [1, 4]
    payload = {"request": json.dumps(request), "answers": answers, "retries": retries}
    page = read_answer(parallel.merge_text(run_module(MERGE_CALL, payload), api.solve))
    assert page["ok"] and page["complete"] and page["count"] == pool["count"] == TILINGS_5X8
    assert page["parallel"]["retried"] == pool["parallel"]["retried"]
    assert pool["parallel"]["retried"][0] == {
        "task": 1,
        "subtree": tasks[1].subtree,
        "reasons": ["ended by SIGKILL", "ended by SIGKILL"],
    }
