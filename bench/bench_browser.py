"""The browser: Pyodide start-up, and the same requests in Chromium and in this CPython.

    .venv/bin/python -m bench.bench_browser [harness options, see python -m bench.harness --help]
    .venv/bin/python -m bench.bench_browser --micro     (the microbenchmarks' table alone)
    .venv/bin/python -m bench.bench_browser --only batch --repeat 2   (issue 30's batches alone)
    python3 build.py bench --browser            (the same rows after the CPython suite)

Needs what ``python3 build.py test`` installs (.venv with Playwright, Debian's Chromium). Builds
dist/, serves it cross-origin isolated on a free 127.0.0.1 port and measures:

- Page loads, from navigation to the first answer after ``window.pysolver.ready``: with a cold
  cache (a new browser context each run) and a warm one (a profile with a disk cache, as a
  person's browser has, that has loaded the page before). Counters: ``ready_s`` (navigation to
  ready, by the page's clock), ``first_ms`` (the cheapest round trip through Python after ready),
  the bytes the server sent, its responses and how many were 304 Not Modified.
- Requests: each once through ``pysolver.solve`` here (CPython) and once through
  ``window.pysolver.solve`` in the page (browser, round trip seen from Python, which on a busy
  machine is mostly Playwright's and the scheduler's latency); ``solver_s`` is the solver's own
  wall time (``stats.seconds``) of the best run, ``page_s`` the round trip as the page saw it.
  The rows include bench/peers.py's work (6x10 pentominoes counted, the 6x10 matrix with X in
  one quadrant counted as a plain exact cover, top95 each proved unique) so Pyodide's ratio to
  CPython can be read for the rows that compare with compiled peers. Wall seconds on a loaded
  machine say little, so a browser row also has CPU seconds from /proc on Linux (the
  scheduler's per-thread run times, to the nanosecond): ``cpu_s`` of the whole browser
  (Playwright's driver and Chromium: every descendant of this process) and ``worker_cpu_s`` of
  its web workers alone, where Python runs; ``x_cpython`` is ``worker_cpu_s`` over the CPython
  row's CPU s (best runs each): how much slower Pyodide is on that request. ``--full`` adds
  some rows again with the other engines that answer them (``other_engine_requests``).
- Batches (rows named ``batch ...``, issue 30's figures): the hard Sudoku set proved unique
  (all 311 of bench/data/sudoku_hard311.txt), 9x9 Sudoku and 20x20 Shikaku generation per
  level (seeds 0-2 and 0-4), and explain on the first 150 of the hard set: the requests of
  bench/bench_sudoku.py, bench_generate.py, bench_shikaku.py and bench_explain.py (and two
  batches of one small request 400 times, the page's cost per request), each batch
  once through ``pysolver.solve`` here and once in the page in one ``page.evaluate`` (the
  requests sent to ``window.pysolver.solve`` one after the other, each answer its JSON text),
  so Playwright's round trip is paid once per batch, not per request. The page's answers must
  equal CPython's (times aside). ``x_cpython`` is again the workers' CPU seconds over
  CPython's; a table of the batches (CPython s, page s, ratio; best runs) follows the rows.
  Issue 30's target: at most 1.6x.
- ``--micro`` (instead of the rows): bench/micro.py's operations (small and big int arithmetic,
  dicts, lists, calls, the engines' map/filter/sorted idioms), CPU nanoseconds per operation in
  CPython and in a Pyodide worker of the page, and their ratio, worst first: which operations
  make a hot loop slower in the page than its CPython ratio suggests.

A request of the page to a host other than the loopback is a wrong answer (and cannot resolve:
see bench/browser.py; requests are watched, not routed, since routing turns the cache off).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from time import process_time
from typing import Any

from bench.browser import CHROMIUM, CHROMIUM_ARGS, start_server, watch
from bench.harness import Case, Measured, WrongAnswer, main
from buildtools.server import make_server
from buildtools.site import build_site
from pysolver import solve

ROOT = Path(__file__).resolve().parent.parent
TOP95 = ROOT / "tests" / "data" / "top95.txt"
CLASSIC_SUDOKU = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
COUNT_16X16 = 2444888770250892795802079170816


def six_by_ten_matrix() -> dict[str, Any]:
    """bench/peers.py's second row: the 6x10 pentomino matrix with X in one quadrant, as a
    plain exact cover puzzle (item names only, no board)."""
    from pysolver.kinds.polyomino import build_problem

    fixed = build_problem({"board": ["." * 10] * 6, "pieces": ["pentominoes"]}, "distinct")
    items = [f"i{number}" for number in range(fixed.primary)]
    return {"items": items, "options": [[items[i] for i in option] for option in fixed.options]}


def top95_rows(every: int = 10) -> list[tuple[int, str]]:
    """Every ``every``-th top95 puzzle from the second (the first has its own row), numbered
    from 1: a sample of the uniqueness row without 95 rows."""
    grids = TOP95.read_text(encoding="utf-8").split()
    return [(number + 1, grids[number]) for number in range(1, len(grids), every)]


def benchmark_requests() -> list[tuple[str, dict[str, Any], str]]:
    """label, request, expected answer (see answer_of)."""
    first_of_top95 = TOP95.read_text(encoding="utf-8").split()[0]
    pentominoes = ["pentominoes"]
    return [
        (
            "sudoku classic limit 2",
            {"kind": "sudoku", "limit": 2, "puzzle": {"grid": CLASSIC_SUDOKU}},
            "count 1, complete",
        ),
        (
            "sudoku top95 #1 limit 2",
            {"kind": "sudoku", "limit": 2, "puzzle": {"grid": first_of_top95}},
            "count 1, complete",
        ),
        (
            "pentominoes 6x10 first",
            {"kind": "polyomino", "puzzle": {"board": ["." * 10] * 6, "pieces": pentominoes}},
            "count 1",
        ),
        (
            "pentominoes 3x20 count",
            {
                "kind": "polyomino",
                "mode": "count",
                "puzzle": {"board": ["." * 20] * 3, "pieces": pentominoes},
            },
            "count 8, complete",
        ),
        (
            "pentominoes 6x10 count",
            {
                "kind": "polyomino",
                "mode": "count",
                "puzzle": {"board": ["." * 10] * 6, "pieces": pentominoes},
            },
            "count 9356, complete",
        ),
        (
            "exact cover 6x10 X in one quadrant count",
            {"kind": "exact_cover", "mode": "count", "puzzle": six_by_ten_matrix()},
            "count 2339, complete",
        ),
        *(
            (
                f"sudoku top95 #{number} limit 2",
                {"kind": "sudoku", "limit": 2, "puzzle": {"grid": grid}},
                "count 1, complete",
            )
            for number, grid in top95_rows()
        ),
        (
            "domino 16x16 count",
            {"kind": "domino", "mode": "count", "puzzle": {"rows": 16, "cols": 16}},
            f"count {COUNT_16X16}, complete",
        ),
    ]


def other_engine_requests() -> list[tuple[str, dict[str, Any], str]]:
    """Some rows of ``benchmark_requests`` again with each other engine that answers them in
    seconds (``--full``): an engine whose Pyodide/CPython ratio is much better could be the
    better choice in the page. (dlx is left out where it takes over a minute in Pyodide.)"""
    by_label = {label: (request, expected) for label, request, expected in benchmark_requests()}
    engines = {
        "sudoku top95 #1 limit 2": ("dlx", "bitset"),
        "pentominoes 6x10 first": ("bitset", "dlx"),
        "pentominoes 3x20 count": ("bitset", "dlx"),
        "exact cover 6x10 X in one quadrant count": ("bitset",),
        "domino 16x16 count": ("profile_dp",),
    }
    return [
        (label, {**by_label[label][0], "engine": engine}, by_label[label][1])
        for label, names in engines.items()
        for engine in names
    ]


def answer_of(ok: bool, count: str, complete: bool, error: str = "") -> str:
    if not ok:
        raise WrongAnswer(error or "the solver answered with an error")
    return f"count {count}, complete" if complete else f"count {count}"


class ByteCounter:
    """Counts the body bytes the server sends and its responses (304s apart)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.bytes = self.responses = self.not_modified = 0

    def reset(self) -> tuple[int, int, int]:
        with self.lock:
            figures = (self.bytes, self.responses, self.not_modified)
            self.bytes = self.responses = self.not_modified = 0
        return figures


def counting_server(counter: ByteCounter, directory: Path | None = None) -> Any:
    """A server of dist/ (or of directory, say a copy of an earlier build) counting into counter."""
    server = make_server(port=0, isolated=True)
    base = server.RequestHandlerClass

    class CountingHandler(base):  # type: ignore[valid-type, misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            if directory is not None:
                kwargs["directory"] = str(directory)
            super().__init__(*args, **kwargs)

        def copyfile(self, source: Any, outputfile: Any) -> None:
            super().copyfile(source, outputfile)
            with counter.lock:
                counter.bytes += source.tell()

        def send_response(self, code: int, message: str | None = None) -> None:
            with counter.lock:
                counter.responses += 1
                counter.not_modified += code == 304
            super().send_response(code, message)

    server.RequestHandlerClass = CountingHandler
    return server


READY_JS = """async () => {
    const info = await window.pysolver.ready;
    const readyAt = performance.now();
    const started = performance.now();
    const first = await window.pysolver.solve(
        {kind: "no_such_kind", puzzle: {}});  // the cheapest full round trip through Python
    return {readyMs: readyAt, firstAnswerMs: performance.now() - started,
            answered: first.ok === false, isolated: crossOriginIsolated};
}"""

SOLVE_JS = """async (request) => {
    const started = performance.now();
    const response = await window.pysolver.solve(request);
    return {ok: response.ok, count: String(response.count), complete: response.complete === true,
            seconds: response.stats ? response.stats.seconds : null,
            pageSeconds: (performance.now() - started) / 1000,
            error: response.ok ? "" : response.error.message};
}"""


def visit(context: Any, url: str, counter: ByteCounter, outside: list[str]) -> dict[str, Any]:
    """Open the page in context, wait for ready and one answer; the page is closed after."""
    page = context.new_page()
    try:
        counter.reset()
        page.goto(url)
        page.wait_for_function("() => window.pysolver && window.pysolver.ready")
        figures = page.evaluate(READY_JS)
    finally:
        page.close()
    sent, responses, not_modified = counter.reset()
    return {
        **figures,
        "bytes": sent,
        "responses": responses,
        "not_modified": not_modified,
        "outside": list(outside),
    }


def read_visit(figures: dict[str, Any]) -> Measured:
    if figures["outside"]:
        raise WrongAnswer(f"requests tried to leave the machine: {figures['outside']}")
    if not figures["answered"]:
        raise WrongAnswer("the page did not answer a request after ready")
    answer = "ready, isolated" if figures["isolated"] else "ready, not isolated"
    counters = {
        "ready_s": figures["readyMs"] / 1000,
        "first_ms": figures["firstAnswerMs"],
        "bytes": figures["bytes"],
        "responses": figures["responses"],
        "304s": figures["not_modified"],
    }
    return Measured(answer, counters)


def read_native(response: dict[str, Any]) -> Measured:
    error = "" if response["ok"] else response["error"]["message"]
    answer = answer_of(response["ok"], str(response.get("count")), response.get("complete"), error)
    return Measured(answer, {"solver_s": response["stats"]["seconds"]})


def read_in_browser(result: dict[str, Any]) -> Measured:
    answer = answer_of(result["ok"], result["count"], result["complete"], result["error"])
    counters: dict[str, float] = {"solver_s": result["seconds"], "page_s": result["pageSeconds"]}
    for name in ("cpu_s", "worker_cpu_s"):
        if result.get(name) is not None:
            counters[name] = round(result[name], 4)
    return Measured(answer, counters)


def descendant_tasks() -> Iterator[Path]:
    """/proc's directory of every thread of every live descendant of this process (Playwright's
    driver and Chromium's processes); nothing where there is no /proc."""
    proc = Path("/proc")
    if not proc.is_dir():
        return
    parent_of: dict[int, int] = {}
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended while being read
        parent_of[int(entry.name)] = int(fields[1])
    me = os.getpid()
    for pid in parent_of:
        ancestor = parent_of.get(pid)
        while ancestor is not None and ancestor != me:
            ancestor = parent_of.get(ancestor)
        if ancestor == me:
            try:
                yield from (proc / str(pid) / "task").iterdir()
            except OSError:
                continue


def browser_cpu_seconds() -> tuple[float, float] | None:
    """CPU seconds of the browser (every thread of this process's descendants) and of its web
    workers alone (threads named DedicatedWorker: where Pyodide runs), from the scheduler's
    nanosecond run times in /proc (None where there are none): the browser's share of a request,
    paired with CPython's own CPU seconds on the same request. The workers' figure leaves out
    the page, Playwright and Chromium's background threads (which compile the WebAssembly)."""
    total = workers = 0
    found = False
    for task in descendant_tasks():
        try:
            nanoseconds = int((task / "schedstat").read_text().split()[0])
            name = (task / "comm").read_text()
        except (OSError, ValueError, IndexError):
            continue  # ended while being read, or no scheduler statistics
        found = True
        total += nanoseconds
        if name.startswith("DedicatedWorker"):
            workers += nanoseconds
    return (total / 1e9, workers / 1e9) if found else None


def solve_in_page(page: Any, request: dict[str, Any]) -> dict[str, Any]:
    """The page's answer to ``request``, with the CPU seconds the browser (``cpu_s``) and its
    workers (``worker_cpu_s``) spent on it."""
    before = browser_cpu_seconds()
    result: dict[str, Any] = page.evaluate(SOLVE_JS, request)
    after = browser_cpu_seconds()
    if before is not None and after is not None:
        result["cpu_s"] = after[0] - before[0]
        result["worker_cpu_s"] = after[1] - before[1]
    return result


class PairedCPU:
    """The best CPU seconds of each CPython row, by label, for its browser row's ratio."""

    def __init__(self) -> None:
        self.best: dict[str, float] = {}

    def timed(self, label: str, request: dict[str, Any]) -> dict[str, Any]:
        started = process_time()
        response = solve(request)
        spent = process_time() - started
        self.best[label] = min(spent, self.best.get(label, spent))
        return response

    def reader(self, label: str) -> Callable[[dict[str, Any]], Measured]:
        """read_in_browser, plus ``x_cpython``: the browser workers' CPU seconds over the
        CPython row's (best runs each), the figure the 1.5x target is about."""

        def read(result: dict[str, Any]) -> Measured:
            measured = read_in_browser(result)
            cpython = self.best.get(label)
            worker = measured.counters.get("worker_cpu_s")
            if cpython and worker is not None:
                measured.counters["x_cpython"] = round(worker / cpython, 2)
            return measured

        return read


BATCH_JS = """async (requests) => {
    const texts = [];
    const started = performance.now();
    for (const request of requests) texts.push(await window.pysolver.solve(request, {raw: true}));
    return {texts, pageSeconds: (performance.now() - started) / 1000};
}"""
# Seeds per level of the generation batches (0 .. n - 1).
SUDOKU_GENERATE_SEEDS = 3
SHIKAKU_GENERATE_SEEDS = 5


Reader = Callable[[list[dict[str, Any]]], Measured]


def batches() -> list[tuple[str, list[dict[str, Any]], Reader, str]]:
    """Issue 30's work as batches of requests: label, requests, the reader of their responses
    and the answer it must give."""
    from bench import bench_explain, bench_generate, bench_shikaku, bench_sudoku

    hard = bench_sudoku.read_puzzles(bench_sudoku.HARD_SET)
    rows: list[tuple[str, list[dict[str, Any]], Reader, str]] = [
        (
            f"batch hard{len(hard)} unique",
            bench_sudoku.unique_requests(hard),
            lambda responses: bench_sudoku.read_answers(hard, responses),
            f"{len(hard)} unique",
        )
    ]
    sudoku_9 = next(row for row in bench_generate.ROWS if row[0] == "sudoku-9")
    by_level: dict[str, list[dict[str, Any]]] = {}
    for level, request in bench_generate.requests(sudoku_9, SUDOKU_GENERATE_SEEDS):
        by_level.setdefault(level, []).append(request)
    for level, requests in by_level.items():
        label = f"batch 9x9 generate {level}"
        rows.append((label, requests, generated_reader(level), f"{len(requests)} generated"))
    for level in bench_shikaku.LEVELS:
        requests = [
            bench_shikaku.generate_request(20, 20, level, seed)
            for seed in range(SHIKAKU_GENERATE_SEEDS)
        ]
        label = f"batch shikaku 20x20 generate {level}"
        rows.append((label, requests, generated_reader(level), f"{len(requests)} generated"))
    for label, request in PER_REQUEST.items():
        rows.append(
            (
                f"batch {PER_REQUEST_COUNT} x {label}",
                [request] * PER_REQUEST_COUNT,
                answered_reader,
                f"{PER_REQUEST_COUNT} answered",
            )
        )
    explain = bench_explain.hard_explain_requests()
    rows.append(
        (
            f"batch explain hard{len(explain)}",
            explain,
            lambda responses: bench_explain.read_paths("sudoku", responses),
            f"{len(explain)} explained",
        )
    )
    return rows


# The page's cost per request beside CPython's (the worker's message, the call into Python,
# the answer's JSON text and its message back): a request with nothing to search, answered
# with an error, and the smallest solve; many of each in one batch.
PER_REQUEST_COUNT = 400
PER_REQUEST: dict[str, dict[str, Any]] = {
    "unknown kind": {"kind": "no_such_kind", "puzzle": {}},
    "4x4 sudoku solve": {"kind": "sudoku", "puzzle": {"grid": "1.....2..3.....4"}},
}


def answered_reader(responses: list[dict[str, Any]]) -> Measured:
    """How many requests of a batch were answered (ok or with the protocol's error)."""
    errors = sum(1 for response in responses if not response["ok"])
    return Measured(f"{len(responses)} answered", {"errors": errors})


def generated_reader(level: str) -> Reader:
    """The answer to a batch of generate requests: how many puzzles, and how many were graded
    at ``level`` (a counter)."""

    def read(responses: list[dict[str, Any]]) -> Measured:
        for response in responses:
            if not response["ok"]:
                raise WrongAnswer(response["error"]["message"])
        reached = sum(1 for response in responses if response["grade"]["level"] == level)
        return Measured(f"{len(responses)} generated", {"reached": reached})

    return read


def without_times(value: Any) -> Any:
    """A response with its timings (``seconds`` anywhere) left out: what CPython's answer and
    the page's must share."""
    if isinstance(value, dict):
        return {key: without_times(item) for key, item in value.items() if key != "seconds"}
    if isinstance(value, list):
        return [without_times(item) for item in value]
    return value


def batch_in_page(page: Any, requests: list[dict[str, Any]]) -> dict[str, Any]:
    """The page's responses to ``requests`` (one ``page.evaluate``), with the CPU seconds of the
    browser (``cpu_s``) and of its workers (``worker_cpu_s``) over the batch."""
    before = browser_cpu_seconds()
    result: dict[str, Any] = page.evaluate(BATCH_JS, requests)
    after = browser_cpu_seconds()
    result["responses"] = [json.loads(text) for text in result.pop("texts")]
    if before is not None and after is not None:
        result["cpu_s"] = after[0] - before[0]
        result["worker_cpu_s"] = after[1] - before[1]
    return result


class PairedBatches:
    """Each batch's CPython responses and best CPU seconds, and the page's best worker CPU
    seconds, by label: the browser row's ratio and the table after the rows."""

    def __init__(self) -> None:
        self.cpython: dict[str, float] = {}
        self.page: dict[str, float] = {}
        self.answers: dict[str, list[Any]] = {}

    def run_cpython(self, label: str, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
        started = process_time()
        responses = [solve(request) for request in requests]
        spent = process_time() - started
        self.cpython[label] = min(spent, self.cpython.get(label, spent))
        self.answers[label] = without_times(responses)
        return responses

    def page_reader(self, label: str, read: Reader) -> Callable[[dict[str, Any]], Measured]:
        def read_page(result: dict[str, Any]) -> Measured:
            responses = result["responses"]
            measured = read(responses)
            if label in self.answers and without_times(responses) != self.answers[label]:
                raise WrongAnswer("the page's responses differ from CPython's")
            counters = {**measured.counters, "page_s": round(result["pageSeconds"], 4)}
            worker = result.get("worker_cpu_s")
            if worker is not None:
                counters["cpu_s"] = round(result["cpu_s"], 4)
                counters["worker_cpu_s"] = round(worker, 4)
                self.page[label] = min(worker, self.page.get(label, worker))
                cpython = self.cpython.get(label)
                if cpython:
                    counters["x_cpython"] = round(worker / cpython, 2)
            return Measured(measured.answer, counters)

        return read_page

    def table(self) -> str:
        """CPython's CPU seconds, the page workers' and their ratio per batch (best runs)."""
        lines = [
            "batches, best runs: CPython CPU s, the page's workers' CPU s, page / CPython",
            f"{'batch':<36} {'CPython s':>9} {'page s':>9} {'ratio':>6}",
        ]
        for label, page_seconds in self.page.items():
            cpython = self.cpython[label]
            lines.append(
                f"{label:<36} {cpython:>9.3f} {page_seconds:>9.3f} {page_seconds / cpython:>6.2f}"
            )
        return "\n".join(lines)


def batch_cases(page: Any) -> Iterator[Case]:
    """A CPython row and a browser row per batch (see the module docstring), then the table."""
    paired = PairedBatches()
    for label, requests, read, expected in batches():
        yield Case(
            f"{label}, CPython",
            "default",
            lambda label=label, requests=requests: paired.run_cpython(label, requests),
            read,
            expected,
            "default",
        )
        yield Case(
            f"{label}, browser",
            "default",
            lambda requests=requests: batch_in_page(page, requests),
            paired.page_reader(label, read),
            expected,
            "default",
        )
    if paired.page:
        print(paired.table(), flush=True)


# A bare Pyodide worker for the microbenchmarks (bench/micro.py): the page's runtime and wheel,
# started from a blob URL by the page (so it is a worker thread of the page's renderer, as the
# page's own solver is). window.benchPython(code) runs Python there: {ok, text}.
BENCH_WORKER_JS = """async ({indexURL, wheelURL}) => {
    const source = `
        import { loadPyodide } from ${JSON.stringify(indexURL + "pyodide.mjs")};
        const pyodide = await loadPyodide({ indexURL: ${JSON.stringify(indexURL)} });
        await pyodide.loadPackage(${JSON.stringify(wheelURL)}, { messageCallback: () => {} });
        self.onmessage = (event) => {
            try {
                self.postMessage({ ok: true, text: String(pyodide.runPython(event.data)) });
            } catch (error) {
                self.postMessage({ ok: false, text: String(error) });
            }
        };
        self.postMessage({ ok: true, text: "ready" });`;
    const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
    const worker = new Worker(url, { type: "module" });
    let waiting = null;
    const next = () => new Promise((resolve, reject) => { waiting = { resolve, reject }; });
    worker.onmessage = (event) => waiting.resolve(event.data);
    worker.onerror = (event) => waiting.reject(new Error(event.message || "the worker failed"));
    const ready = next();
    window.benchPython = (code) => {
        const answer = next();
        worker.postMessage(code);
        return answer;
    };
    return await ready;
}"""


def run_in_worker(page: Any, code: str) -> str:
    """The value of ``code``'s last expression, run by the bench worker's Python, as text."""
    answer = page.evaluate("(code) => window.benchPython(code)", code)
    if not answer["ok"]:
        raise RuntimeError(f"Python in the page's worker raised: {answer['text']}")
    return str(answer["text"])


def micro_table(page: Any, base_url: str, runs: int) -> None:
    """bench/micro.py's operations in CPython and in Pyodide: CPU nanoseconds per unit (best of
    ``runs``; the page's from its worker thread's CPU time) and their ratio, worst first."""
    from bench import micro

    manifest = json.loads((ROOT / "dist" / "manifest.json").read_text(encoding="utf-8"))
    indexes = {
        "indexURL": base_url + manifest["pyodide"]["indexURL"],
        "wheelURL": base_url + manifest["pysolver"]["wheel"],
    }
    page.evaluate(BENCH_WORKER_JS, indexes)
    source = (ROOT / "bench" / "micro.py").read_text(encoding="utf-8")
    run_in_worker(
        page,
        "import sys, types\n"
        "module = types.ModuleType('bench_micro')\n"
        f"exec(compile({source!r}, 'bench/micro.py', 'exec'), module.__dict__)\n"
        "sys.modules['bench_micro'] = module\n"
        "import bench_micro, gc; gc.disable(); sys.version",
    )
    native = micro.nanoseconds_per_unit(runs=runs)
    in_page: dict[str, float] = {}
    for name in micro.BENCHMARKS:
        best = float("inf")
        for _ in range(runs):
            before = browser_cpu_seconds()
            run_in_worker(page, f"bench_micro.run_one({name!r}, {micro.UNITS})")
            after = browser_cpu_seconds()
            if before is None or after is None:
                raise SystemExit("the microbenchmarks need /proc's per-thread CPU times (Linux)")
            best = min(best, after[1] - before[1])
        in_page[name] = best / micro.UNITS * 1e9
    print(f"{'operation':<30} {'CPython ns':>10} {'Pyodide ns':>10} {'ratio':>6}")
    for name in sorted(micro.BENCHMARKS, key=lambda name: native[name] / in_page[name]):
        ratio = in_page[name] / native[name]
        print(f"{name:<30} {native[name]:>10.1f} {in_page[name]:>10.1f} {ratio:>6.2f}")


def micro_main(runs: int) -> int:
    """``--micro``: the microbenchmark table alone."""
    from playwright.sync_api import sync_playwright

    build_site(quiet=True)
    server = make_server(port=0, isolated=True)
    url = start_server(server)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context()
            outside = watch(context)
            page = context.new_page()
            page.goto(url)
            micro_table(page, url, runs)
            browser.close()
            if outside:
                raise SystemExit(f"requests tried to leave the machine: {outside}")
    finally:
        server.shutdown()
        server.server_close()
    return 0


def cases() -> Iterator[Case]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise SystemExit(
            "Playwright is missing: run python3 build.py test once (it sets up .venv), then "
            "use .venv/bin/python or python3 build.py bench --browser"
        ) from None
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"Chromium is missing at {CHROMIUM}: python3 build.py test installs it")
    build_site(quiet=True)
    counter = ByteCounter()
    server = counting_server(counter)
    url = start_server(server)
    try:
        with (
            sync_playwright() as playwright,
            tempfile.TemporaryDirectory(prefix="pysolver-bench-") as profile,
        ):
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            # A persistent profile has a disk cache, as a person's browser does; a new
            # (incognito) context starts with an empty cache: the cold case.
            warm_context = playwright.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
            )
            warm_outside = watch(warm_context)

            def cold_visit() -> dict[str, Any]:
                context = browser.new_context()
                try:
                    return visit(context, url, counter, watch(context))
                finally:
                    context.close()

            yield Case("browser load, cold cache", "-", cold_visit, read_visit, "ready, isolated")
            visit(warm_context, url, counter, warm_outside)  # fills the disk cache
            yield Case(
                "browser load, warm cache",
                "-",
                lambda: visit(warm_context, url, counter, warm_outside),
                read_visit,
                "ready, isolated",
            )
            page = warm_context.new_page()
            page.goto(url)
            page.wait_for_function("() => window.pysolver && window.pysolver.ready")
            paired = PairedCPU()
            rows = [(*row, "quick") for row in benchmark_requests()]
            rows += [(*row, "full") for row in other_engine_requests()]
            for label, request, expected, level in rows:
                engine = solve(request)["engine"]
                key = f"{label} [{engine}]"
                yield Case(
                    f"{label}, CPython",
                    engine,
                    lambda key=key, request=request: paired.timed(key, request),
                    read_native,
                    expected,
                    level,
                )
                yield Case(
                    f"{label}, browser",
                    engine,
                    lambda request=request: solve_in_page(page, request),
                    paired.reader(key),
                    expected,
                    level,
                )
            yield from batch_cases(page)
            if warm_outside:
                raise SystemExit(f"requests tried to leave the machine: {warm_outside}")
            warm_context.close()
            browser.close()
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    if "--micro" in sys.argv[1:]:
        sys.exit(micro_main(runs=3))
    sys.exit(main(sources=[cases]))
