"""The browser: Pyodide start-up, and the same requests in Chromium and in this CPython.

    .venv/bin/python -m bench.bench_browser [harness options, see python -m bench.harness --help]
    python3 build.py bench --browser            (the same rows after the CPython suite)

Needs what ``python3 build.py test`` installs (.venv with Playwright, Debian's Chromium). Builds
dist/, serves it cross-origin isolated on a free 127.0.0.1 port and measures:

- Page loads, from navigation to the first answer after ``window.pysolver.ready``: with a cold
  cache (a new browser context each run) and a warm one (a profile with a disk cache, as a
  person's browser has, that has loaded the page before). Counters: ``ready_s`` (navigation to
  ready, by the page's clock), ``first_ms`` (the cheapest round trip through Python after ready),
  the bytes the server sent, its responses and how many were 304 Not Modified.
- Requests: each once through ``pysolver.solve`` here (CPython) and once through
  ``window.pysolver.solve`` in the page (browser, round trip seen from Python); ``solver_s`` is
  the solver's own time (``stats.seconds``) of the best run, the figure to compare between the
  two rows. The rows include bench/peers.py's work (6x10 pentominoes counted, the 6x10 matrix
  with X in one quadrant counted as a plain exact cover, top95 each proved unique) so Pyodide's
  ratio to CPython can be read for the rows that compare with compiled peers. Wall seconds
  on a loaded machine say little, so a browser row also has ``cpu_s``: the CPU seconds the
  browser's processes (every descendant of this one: Playwright's driver and Chromium) spent
  during the request, read from /proc on Linux; compare it with the CPython row's CPU s.

A request of the page to a host other than the loopback is a wrong answer (and cannot resolve:
see bench/browser.py; requests are watched, not routed, since routing turns the cache off).
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
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
    const response = await window.pysolver.solve(request);
    return {ok: response.ok, count: String(response.count), complete: response.complete === true,
            seconds: response.stats ? response.stats.seconds : null,
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
    counters: dict[str, float] = {"solver_s": result["seconds"]}
    if result.get("cpu_s") is not None:
        counters["cpu_s"] = result["cpu_s"]
    return Measured(answer, counters)


def descendants_cpu_seconds() -> float | None:
    """CPU seconds (user + system) of every live descendant of this process, from /proc
    (None where there is no /proc): the browser's share of a request, paired with CPython's
    own CPU seconds on the same request."""
    proc = Path("/proc")
    if not proc.is_dir():
        return None
    parent_of: dict[int, int] = {}
    ticks_of: dict[int, int] = {}
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended while being read
        parent_of[int(entry.name)] = int(fields[1])
        ticks_of[int(entry.name)] = int(fields[11]) + int(fields[12])
    me = os.getpid()
    total = 0
    for pid, ticks in ticks_of.items():
        ancestor = parent_of.get(pid)
        while ancestor is not None and ancestor != me:
            ancestor = parent_of.get(ancestor)
        if ancestor == me:
            total += ticks
    return total / os.sysconf("SC_CLK_TCK")


def solve_in_page(page: Any, request: dict[str, Any]) -> dict[str, Any]:
    """The page's answer to ``request``, with the browser's CPU seconds for it (``cpu_s``)."""
    before = descendants_cpu_seconds()
    result: dict[str, Any] = page.evaluate(SOLVE_JS, request)
    after = descendants_cpu_seconds()
    result["cpu_s"] = None if before is None or after is None else after - before
    return result


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
            for label, request, expected in benchmark_requests():
                engine = solve(request)["engine"]
                yield Case(
                    f"{label}, CPython",
                    engine,
                    lambda request=request: solve(request),
                    read_native,
                    expected,
                )
                yield Case(
                    f"{label}, browser",
                    engine,
                    lambda request=request: solve_in_page(page, request),
                    read_in_browser,
                    expected,
                )
            if warm_outside:
                raise SystemExit(f"requests tried to leave the machine: {warm_outside}")
            warm_context.close()
            browser.close()
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    sys.exit(main(sources=[cases]))
