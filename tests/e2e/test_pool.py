"""The page's pool of Pyodide workers (web/runtime/pool.js): "jobs": N in the browser.

One page for the module: the extra worker loads once, on the first parallel request that is not
quick, and is reused afterwards.
"""

from __future__ import annotations

import json
import re

from conftest import RECTANGLE, STRIP, click_and_wait, open_tab, set_input

import pysolver

# A Sudoku with 34,244 completions: the usual example without its first eight givens.
SPARSE_SUDOKU = {
    "kind": "sudoku",
    "mode": "count",
    "limit": None,
    "puzzle": {"grid": "." * 20 + "8....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"},
}

# Run a request with window.pysolver; the response as JSON text (BigInt as {"bigint": digits})
# with the merged progress reports and the workers' states at the end.
SOLVE_JS = """async (request) => {
    const reports = [];
    const started = performance.now();
    const response = await window.pysolver.solve(request, {onProgress: (r) => reports.push(r)});
    const seconds = (performance.now() - started) / 1000;
    const fractions = reports.map((r) => r.fraction);
    return JSON.stringify({response, seconds, fractions, workers: window.pysolver.workers(),
                           most: Math.max(0, ...reports.map((r) => r.workers ?? 1))},
        (key, value) => typeof value === "bigint" ? {bigint: value.toString()} : value);
}"""

# Start a long parallel count, wait until every worker is busy, cancel, time the settling,
# look at the workers, then solve the next request.
CANCEL_JS = """async ([long, next, jobs]) => {
    const pending = window.pysolver.solve({...long, jobs});
    const deadline = performance.now() + 60000;
    while (window.pysolver.workers().filter((s) => s === "busy").length < jobs
           && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const busy = window.pysolver.workers();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const started = performance.now();
    window.pysolver.cancel();
    const cancelled = await pending;
    const cancelSeconds = (performance.now() - started) / 1000;
    const after = window.pysolver.workers();
    const nextResponse = await window.pysolver.solve(next);
    return JSON.stringify({busy, cancelled, cancelSeconds, after, next: nextResponse},
        (key, value) => typeof value === "bigint" ? {bigint: value.toString()} : value);
}"""


def solve(page, request: dict) -> dict:
    return json.loads(page.evaluate(SOLVE_JS, request))


def test_pool_count_equals_the_serial_count(shared_page) -> None:
    # On bitset, the search the tasks cut is the serial search itself, so their nodes add up
    # to its nodes. (The default memo engine's root symmetry and sub-board memo work on the
    # whole board: cut tasks count the same tilings with more nodes.)
    request = STRIP
    serial = solve(shared_page, request)["response"]
    assert serial["ok"] and serial["count"] == 1472 and "parallel" not in serial
    run = solve(shared_page, dict(request, jobs=2))
    merged = run["response"]
    assert merged["ok"], merged
    assert (merged["count"], merged["complete"]) == (1472, True)
    # The tasks' nodes add up (the few nodes above the cut are the plan's, not counted).
    assert 0.99 * serial["stats"]["nodes"] <= merged["stats"]["nodes"] <= serial["stats"]["nodes"]
    assert merged["parallel"]["executor"] == "page workers"
    assert merged["parallel"]["tasks"] >= 16
    # Merged progress only goes forward and ends whole.
    assert run["fractions"] == sorted(run["fractions"]) and run["fractions"][-1] <= 1.0 + 1e-9
    assert run["workers"] == ["idle", "idle"], run["workers"]
    sudoku = solve(shared_page, dict(SPARSE_SUDOKU, jobs=2))["response"]
    expected = pysolver.solve(SPARSE_SUDOKU)
    assert (sudoku["count"], sudoku["complete"]) == (expected["count"], True)
    assert sudoku["parallel"]["workers"] == 2  # the extra worker, loaded before, joins at once


def test_cancel_stops_every_worker_and_the_next_request_is_right(shared_page) -> None:
    small = {**SPARSE_SUDOKU, "jobs": 2}
    result = json.loads(shared_page.evaluate(CANCEL_JS, [RECTANGLE, small, 2]))
    assert result["busy"] == ["busy", "busy"], result["busy"]
    cancelled = result["cancelled"]
    assert cancelled["cancelled"] is True and cancelled["complete"] is False, cancelled
    assert result["cancelSeconds"] < 1.0
    assert result["after"] == ["idle", "idle"]
    expected = pysolver.solve(SPARSE_SUDOKU)
    assert (result["next"]["count"], result["next"]["complete"]) == (expected["count"], True)


def test_requests_that_are_not_split_run_on_the_first_worker(shared_page) -> None:
    drawn = solve(shared_page, {**STRIP, "mode": "random", "limit": 2, "seed": 4, "jobs": 2})
    response = drawn["response"]
    assert response["ok"] and response["count"] == 2
    assert "random" in response["parallel"]["note"]
    bad = solve(shared_page, {**STRIP, "jobs": 2, "puzzle": {"board": ["x"]}})["response"]
    assert not bad["ok"] and bad["error"]["path"].startswith("puzzle")


# A pool of the page's own whose extra workers cannot load (their script is missing): the
# tasks run on the first worker and the answer says why.
BROKEN_POOL_JS = """async (request) => {
    const { createPool } = await import("./runtime/pool.js");
    const { createSolver } = await import("./runtime/solver.js");
    let made = 0;
    const missing = new URL("./no-such-worker.mjs", location.href);
    const pool = createPool({makeSolver: () =>
        made++ === 0 ? createSolver() : createSolver({workerURL: missing})});
    await pool.ready;
    const response = await pool.solve(request);
    const again = await pool.solve(request);
    return JSON.stringify({response, again, states: pool.workerStates(), made},
        (key, value) => typeof value === "bigint" ? {bigint: value.toString()} : value);
}"""


def test_a_worker_that_cannot_load_leaves_the_tasks_to_the_others(shared_page) -> None:
    result = json.loads(shared_page.evaluate(BROKEN_POOL_JS, dict(STRIP, jobs=2)))
    response = result["response"]
    assert response["ok"] and (response["count"], response["complete"]) == (1472, True)
    assert response["parallel"]["workers"] == 1
    assert "a worker could not start" in response["parallel"]["note"]
    assert "worker script failed to start" in response["parallel"]["note"]
    assert result["states"] == ["idle", "failed"]
    # The next request does not try again: one failed start, and the same answer.
    assert result["made"] == 2
    assert result["again"]["count"] == 1472
    assert "could not start earlier" in result["again"]["parallel"]["note"]


def test_the_stats_line_names_the_workers_a_split_count_ran_on(shared_page) -> None:
    # The Workers control asks for two; the polyomino tab's board (6x10 pentominoes by default)
    # is counted (its 2,339 tilings up to symmetry) in tasks on both, and the stats line says so.
    page = shared_page
    set_input(page, "#workers", "2")
    open_tab(page, "polyomino")
    click_and_wait(page, "#polyomino-count")
    stats = page.text_content("#polyomino-stats") or ""
    assert page.get_attribute("#polyomino-result", "data-count") == "2339", stats
    assert re.search(r"Workers: 2 \(\d+ tasks\)", stats), stats
    # A Sudoku solved in milliseconds is not split: the first worker ran it, and says why.
    open_tab(page, "sudoku")
    click_and_wait(page, "#sudoku-solve")
    stats = page.text_content("#sudoku-stats") or ""
    assert "Workers: 1 (ran serially)" in stats, stats
    assert "Why one worker: the search made no choice" in stats, stats
    open_tab(page, "polyomino")
    set_input(page, "#workers", "1")
    click_and_wait(page, "#polyomino-count")
    assert "Workers:" not in (page.text_content("#polyomino-stats") or "")
