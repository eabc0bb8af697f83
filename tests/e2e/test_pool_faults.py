"""Faults the page's workers survive (web/runtime/solver.js, web/runtime/pool.js; issues 20, 22).

A worker ended from outside mid-count (``worker.terminate()`` fires no event: the page learns of
it through the Web Lock the worker holds) is restarted, its task runs again and the count stays
exact, the task listed in ``parallel.retried`` as Python's process pool lists it; a task that
kills its worker every time is given up and the answer says so; a single solve whose worker dies
answers in plain words and the next solve runs on a fresh worker. A request asking for more
workers than the device allows says so, and a request text over the protocol's limit is refused
before it is posted to a worker, as is one nested too deep for Pyodide's stack. Python really
crashing in its worker (that text, sent by a solver without the depth check: a stack overflow
inside Pyodide, not terminate()) answers plainly and the next solve runs.
"""

from __future__ import annotations

import json

from conftest import RECTANGLE, STRIP

from pysolver import protocol, solve

# BigInt counts as {"bigint": digits} so the JSON crosses to Python whole.
REPLACER = "(key, value) => typeof value === 'bigint' ? {bigint: value.toString()} : value"

# Start a parallel count, wait until `busy` workers run tasks, end worker `victim` from outside,
# and wait for the answer; also what the Workers control says afterwards.
KILL_JS = f"""async ([request, victim]) => {{
    const pool = window.__pysolverPool;
    const pending = window.pysolver.solve(request);
    const deadline = performance.now() + 90000;
    const busy = () => window.pysolver.workers().filter((s) => s === "busy").length;
    while (busy() < request.jobs && performance.now() < deadline) {{
        await new Promise((resolve) => setTimeout(resolve, 100));
    }}
    const before = window.pysolver.workers();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ended = pool.workers()[victim];
    ended.terminate();
    const response = await pending;
    const note = document.getElementById("workers-note");
    return JSON.stringify({{before, response, after: window.pysolver.workers(),
                           replaced: pool.workers()[victim] !== ended,
                           note: note.hidden ? null : note.textContent}}, {REPLACER});
}}"""


def kill_during(page, request: dict, victim: int) -> dict:
    return json.loads(page.evaluate(KILL_JS, [request, victim]))


def test_an_extra_worker_ended_mid_count_is_restarted_and_the_count_stays_exact(
    shared_page,
) -> None:
    result = kill_during(shared_page, {**RECTANGLE, "jobs": 2}, victim=1)
    assert result["before"] == ["busy", "busy"], result["before"]
    response = result["response"]
    assert response["ok"], response
    assert (response["count"], response["complete"]) == (9356, True)
    [retry] = response["parallel"]["retried"]
    assert set(retry) == {"task", "subtree", "reasons"} and len(retry["reasons"]) == 1
    assert retry["reasons"][0].startswith("Python stopped while solving")
    assert "failed" not in response["parallel"]
    assert "a worker stopped" in response["parallel"]["note"]
    assert result["replaced"]
    assert result["note"].startswith("A worker stopped (out of memory, or a crash)")
    assert result["note"].endswith("so the answer is whole.")
    # The next parallel run goes without a note: nothing died in it.
    quick = json.loads(
        shared_page.evaluate(
            f"""async (request) => JSON.stringify({{response: await window.pysolver.solve(request),
                hidden: document.getElementById("workers-note").hidden}}, {REPLACER})""",
            {**STRIP, "jobs": 2},
        )
    )
    assert quick["response"]["count"] == 1472 and "retried" not in quick["response"]["parallel"]
    assert quick["hidden"] is True


def test_the_first_worker_ended_mid_count_is_restarted_and_merges(shared_page) -> None:
    result = kill_during(shared_page, {**RECTANGLE, "jobs": 2}, victim=0)
    response = result["response"]
    assert response["ok"], response
    assert (response["count"], response["complete"]) == (9356, True)
    assert len(response["parallel"]["retried"]) == 1
    assert result["after"] == ["idle", "idle"]


# A pool whose workers "die" (answer as a dead worker does, and call onLost) every time they
# are given the first task: the task is tried MAX_TASK_ATTEMPTS times, then given up.
CURSED_POOL_JS = f"""async (request) => {{
    const {{ createPool, MAX_TASK_ATTEMPTS }} = await import("./runtime/pool.js");
    const {{ createSolver, failedResponse }} = await import("./runtime/solver.js");
    let cursed = null;
    let tries = 0;
    const dying = (solver) => {{
        return {{
            get ready() {{ return solver.ready; }},
            get info() {{ return solver.info; }},
            get status() {{ return solver.status; }},
            get worker() {{ return solver.worker; }},
            get maxRequestChars() {{ return solver.maxRequestChars; }},
            get canCancelCleanly() {{ return solver.canCancelCleanly; }},
            cancel: () => solver.cancel(),
            onStatus: (callback) => solver.onStatus(callback),
            solve(text, options = {{}}) {{
                if ((options.call ?? "solve") === "solve") cursed ??= text;
                if (text !== cursed) return solver.solve(text, options);
                tries += 1;
                const lost = failedResponse("unavailable", "Python stopped while solving (a test)");
                options.onLost?.();
                return Promise.resolve(JSON.stringify(lost));
            }},
        }};
    }};
    const pool = createPool({{makeSolver: () => dying(createSolver())}});
    await pool.ready;
    const response = await pool.solve(request);
    return JSON.stringify({{response, tries, most: MAX_TASK_ATTEMPTS}}, {REPLACER});
}}"""


def test_a_task_that_kills_its_worker_every_time_is_given_up_and_the_answer_says_so(
    shared_page,
) -> None:
    result = json.loads(shared_page.evaluate(CURSED_POOL_JS, {**STRIP, "jobs": 2}))
    response = result["response"]
    assert result["tries"] == result["most"] == 3
    assert response["ok"] and response["complete"] is False, response
    assert 0 < response["count"] < 1472
    [failed] = response["parallel"]["failed"]
    assert failed["task"] == 0 and failed["error"]["code"] == "internal_error"
    # Run again twice before it was given up, as the process pool lists such a task.
    [retry] = response["parallel"]["retried"]
    assert retry["task"] == 0 and retry["reasons"] == ["Python stopped while solving (a test)"] * 2
    assert "stopped 3 times" in failed["error"]["message"]
    note = response["parallel"]["note"]
    assert "task 0 stopped its worker 3 times and was given up" in note
    assert "misses that part of the search" in note


SINGLE_KILL_JS = f"""async ([request, next]) => {{
    const pool = window.__pysolverPool;
    const pending = window.pysolver.solve(request);
    const deadline = performance.now() + 90000;
    while (window.pysolver.workers()[0] !== "busy" && performance.now() < deadline) {{
        await new Promise((resolve) => setTimeout(resolve, 100));
    }}
    await new Promise((resolve) => setTimeout(resolve, 300));
    pool.workers()[0].terminate();
    const response = await pending;
    const state = window.pysolver.workers()[0];
    const again = await window.pysolver.solve(next);
    return JSON.stringify({{response, state, again}}, {REPLACER});
}}"""


def test_a_single_solve_whose_worker_dies_answers_plainly_and_the_next_runs(shared_page) -> None:
    result = json.loads(shared_page.evaluate(SINGLE_KILL_JS, [RECTANGLE, STRIP]))
    response = result["response"]
    assert not response["ok"] and response["error"]["code"] == "unavailable", result
    message = response["error"]["message"]
    assert message.startswith("Python stopped while solving (the browser ended its worker;")
    assert "has been restarted" in message and len(message) < 200
    assert result["state"] == "restarting"
    assert (result["again"]["count"], result["again"]["complete"]) == (1472, True)


# Without Web Locks a worker ended from outside is noticed by the watchdog: silence while solving.
WATCHDOG_JS = f"""async ([request, next]) => {{
    const {{ createSolver }} = await import("./runtime/solver.js");
    const solver = createSolver({{locks: null, watchdogMs: 2000}});
    await solver.ready;
    const pending = solver.solve(request);
    await new Promise((resolve) => setTimeout(resolve, 500));
    solver.worker.terminate();
    const started = performance.now();
    const response = await pending;
    const seconds = (performance.now() - started) / 1000;
    const again = await solver.solve(next);
    return JSON.stringify({{response, seconds, stops: solver.stops, again}}, {REPLACER});
}}"""


def test_without_web_locks_the_watchdog_notices_a_silent_worker(shared_page) -> None:
    result = json.loads(shared_page.evaluate(WATCHDOG_JS, [RECTANGLE, STRIP]))
    response = result["response"]
    assert response["error"]["code"] == "unavailable"
    assert "its worker sent nothing for 2 s" in response["error"]["message"]
    assert 1.0 < result["seconds"] < 5.0
    assert result["stops"] == 1
    assert result["again"]["count"] == 1472


# window.pysolver.solve with more workers than the page allows: the answer says how many ran.
LIMIT_JS = f"""async (request) => {{
    const {{ workerLimit }} = await import("./runtime/pool.js");
    const response = await window.pysolver.solve(request);
    return JSON.stringify({{response, limit: workerLimit(), cores: navigator.hardwareConcurrency,
                           states: window.pysolver.workers()}}, {REPLACER});
}}"""


def test_a_request_for_more_workers_than_the_device_allows_says_so(shared_page) -> None:
    result = json.loads(shared_page.evaluate(LIMIT_JS, {**STRIP, "jobs": 64}))
    response, limit = result["response"], result["limit"]
    assert response["ok"] and response["count"] == 1472
    assert limit["workers"] <= result["cores"] and limit["workers"] <= 8
    assert response["parallel"]["jobs"] == limit["workers"]
    assert len(result["states"]) <= limit["workers"]
    assert (
        f"64 workers were asked for; this page runs at most {limit['workers']} here"
        in (response["parallel"]["note"])
    )


# A request text one character over the limit (read from facts.json), with and without "jobs":
# refused as too_large, and no message that long is posted to any worker.
TOO_LARGE_JS = f"""async (extra) => {{
    const facts = await (await fetch("./facts.json")).json();
    const limit = facts.max_request_chars;
    const posted = [];
    for (const worker of window.__pysolverPool.workers()) {{
        const post = worker.postMessage.bind(worker);
        worker.postMessage = (message, ...rest) => {{
            posted.push(message.text?.length ?? 0);
            return post(message, ...rest);
        }};
    }}
    const answers = [];
    for (const jobs of ["", ', "jobs": 2']) {{
        const head = `{{"kind": "sudoku"${{jobs}}, "puzzle": {{"grid": "`;
        const text = head + ".".repeat(limit + 1 - head.length - 3) + '"}}}}';
        const started = performance.now();
        const response = await window.pysolver.solve(text);
        const seconds = (performance.now() - started) / 1000;
        answers.push({{length: text.length, response, seconds}});
    }}
    const fine = await window.pysolver.solve(extra);
    return JSON.stringify({{limit, answers, posted, fine}}, {REPLACER});
}}"""


def test_a_request_over_the_limit_is_refused_before_it_is_posted(shared_page) -> None:
    result = json.loads(shared_page.evaluate(TOO_LARGE_JS, STRIP))
    assert result["limit"] == protocol.MAX_REQUEST_CHARS
    for answer in result["answers"]:
        assert answer["length"] == protocol.MAX_REQUEST_CHARS + 1
        error = answer["response"]["error"]
        assert error["code"] == "too_large"
        assert error["message"] == protocol.request_too_large(length=answer["length"]).message
        assert answer["seconds"] < 2.0
    # Only the small request reached a worker.
    assert result["posted"] and max(result["posted"]) < 1000
    assert result["fine"]["count"] == 1472


# JSON nested 100,000 deep (100 KB): CPython's reader raises RecursionError (too_large); in
# Pyodide it overflows the worker's stack, a real crash of Python ("Pyodide has suffered a fatal
# error"), so the page refuses it before posting it. Just within the depth limit it reaches Python.
TOO_DEEP = "[" * 100_000
DEEP_JS = f"""async ([deep, within, next]) => {{
    const answers = [];
    for (const text of [deep, `{{"kind": "queens", "jobs": 2, "puzzle": ${{deep}}}}`, within]) {{
        answers.push(await window.pysolver.solve(text));
    }}
    const after = await window.pysolver.solve(next);
    return JSON.stringify({{answers, after, states: window.pysolver.workers()}}, {REPLACER});
}}"""
QUEENS = {"kind": "queens", "mode": "count", "puzzle": {"n": 6}}


def test_a_request_nested_too_deep_is_refused_in_python_words_before_it_is_posted(
    shared_page,
) -> None:
    within = "[" * protocol.MAX_REQUEST_DEPTH + "]" * protocol.MAX_REQUEST_DEPTH
    result = json.loads(shared_page.evaluate(DEEP_JS, [TOO_DEEP, within, QUEENS]))
    deep, deep_jobs, within_answer = result["answers"]
    for answer in (deep, deep_jobs):
        assert answer["error"] == protocol.error_response(protocol.request_too_deep())["error"]
    # CPython answers both the same way, by its own RecursionError.
    assert solve(TOO_DEEP)["error"]["code"] == protocol.TOO_LARGE
    assert within_answer["error"] == solve(within)["error"]
    assert result["after"]["count"] == 4
    assert "failed" not in result["states"]


# A solver of its own without the depth check, sent the same text: Python in its worker really
# crashes (the worker's "fatal" message), the solve answers in plain words, the worker is started
# again and the next solve runs on it.
CRASH_JS = f"""async ([deep, next]) => {{
    const {{ createSolver }} = await import("./runtime/solver.js");
    const solver = createSolver({{maxRequestDepth: null}});
    await solver.ready;
    const first = solver.worker;
    const response = await solver.solve(deep);
    const state = solver.status.state;
    const again = await solver.solve(next);
    const replaced = solver.worker !== first;
    solver.worker.terminate();
    return JSON.stringify({{response, state, again, replaced, stops: solver.stops}}, {REPLACER});
}}"""


def test_python_crashing_in_its_worker_is_restarted_with_a_plain_message(shared_page) -> None:
    result = json.loads(shared_page.evaluate(CRASH_JS, [TOO_DEEP, QUEENS]))
    error = result["response"]["error"]
    assert error["code"] == "unavailable", result
    assert error["message"].startswith(
        "Python stopped while solving (Maximum call stack size exceeded;"
    )
    assert "has been restarted: solve again" in error["message"] and len(error["message"]) < 200
    assert result["state"] == "restarting" and result["replaced"] and result["stops"] == 1
    assert (result["again"]["count"], result["again"]["complete"]) == (4, True)


# Python out of memory for real: a test-only worker (served by this test's route, never part of
# the site) runs the page's worker.mjs and, asked to, takes all of Pyodide's WebAssembly memory up
# to its 4 GB maximum with the runtime's own malloc (untouched pages: little of it is resident),
# and later gives it back. Python's allocations then fail as MemoryError, which the midend answers
# as too_large: the worker does not crash, and once memory is free again the next solve runs.
EXHAUSTING_WORKER = """
import "./worker.mjs";

let wasm = null; // Pyodide's WebAssembly exports: malloc, free, memory
for (const name of ["instantiate", "instantiateStreaming"]) {
  const original = WebAssembly[name];
  WebAssembly[name] = async function (...args) {
    const result = await original.apply(this, args);
    const instance = result.instance ?? result;
    if (!wasm && instance.exports?.malloc) wasm = instance.exports;
    return result;
  };
}
const taken = [];
const serve = self.onmessage;
self.onmessage = (event) => {
  if (event.data.type === "exhaust") {
    for (let size = 1 << 30; size >= 1 << 12; ) {
      const block = wasm.malloc(size);
      if (block) taken.push(block);
      else size >>>= 1;
    }
    const heap = wasm.memory.buffer.byteLength;
    self.postMessage({ type: "exhausted", blocks: taken.length, heap });
  } else if (event.data.type === "release") {
    taken.splice(0).forEach((block) => wasm.free(block));
    self.postMessage({ type: "released" });
  } else {
    serve.call(self, event);
  }
};
"""
EXHAUST_JS = f"""async ([starving, next]) => {{
    const {{ createSolver }} = await import("./runtime/solver.js");
    const solver = createSolver({{workerURL: new URL("./runtime/test-exhausting-worker.mjs",
                                                     location.href)}});
    await solver.ready;
    const ask = (type, reply) => new Promise((resolve) => {{
        const listen = (event) => {{
            if (event.data.type !== reply) return;
            solver.worker.removeEventListener("message", listen);
            resolve(event.data);
        }};
        solver.worker.addEventListener("message", listen);
        solver.worker.postMessage({{type}});
    }});
    const exhausted = await ask("exhaust", "exhausted");
    const starved = await solver.solve(starving);
    await ask("release", "released");
    const again = await solver.solve(next);
    const result = {{exhausted, starved, again, stops: solver.stops, state: solver.status.state}};
    solver.worker.terminate();
    return JSON.stringify(result, {REPLACER});
}}"""


# A solve that needs fresh memory whatever the worker has warmed up (its kinds are imported just
# after it says ready, so a small solve may live in Python's free pools): an empty 25x25 Sudoku
# allocates about 22 MB in CPython.
STARVING = {"kind": "sudoku", "puzzle": {"grid": "." * 625}}


def test_python_out_of_webassembly_memory_answers_too_large_and_recovers(shared_page) -> None:
    def serve_worker(route) -> None:
        isolation = {
            "Cross-Origin-Embedder-Policy": "require-corp",
            "Cross-Origin-Resource-Policy": "same-origin",
        }
        route.fulfill(body=EXHAUSTING_WORKER, content_type="text/javascript", headers=isolation)

    pattern = "**/runtime/test-exhausting-worker.mjs"
    shared_page.route(pattern, serve_worker)
    try:
        result = json.loads(shared_page.evaluate(EXHAUST_JS, [STARVING, QUEENS]))
    finally:
        shared_page.unroute(pattern, serve_worker)
    # WebAssembly's 32-bit memory at its maximum (4 GB less one 64 KB page, as Pyodide asks).
    assert result["exhausted"]["heap"] == 2**32 - 2**16
    assert result["starved"]["error"] == {
        "code": "too_large",
        "message": "the puzzle needs more memory than is available; make it smaller",
        "path": "",
    }
    assert (result["again"]["count"], result["again"]["complete"]) == (4, True)
    assert result["stops"] == 0 and result["state"] == "ready"
