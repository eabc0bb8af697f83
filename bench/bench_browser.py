"""Browser benchmark: Pyodide start-up and the same requests in Chromium vs CPython.

    .venv/bin/python bench/bench_browser.py [--repeat 3] [--no-isolation]

Needs what ``python3 build.py test`` installs (.venv with Playwright, Debian's Chromium). Builds
dist/, serves it on a free 127.0.0.1 port and prints two tables:

1. Loading: time from navigation to ``window.pysolver.ready`` with a cold cache (new browser
   context) and a warm one (same context, second visit), the first answer after ready, and the
   bytes the server sent for each visit (a warm visit revalidates the page but takes the
   content-named runtime and wheels from the cache).
2. Requests: for each request, the best of --repeat runs of the solver's own time
   (``stats.seconds``) in the browser and in this CPython, the round trip seen by the page,
   and the ratio browser / CPython.

The machine is shared: figures are noisy, take the ratios as rough.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pysolver import solve  # noqa: E402
from pysolver.kinds import KINDS  # noqa: E402

TOP95 = Path("/work/shared/data/sudoku/top95.txt")
CLASSIC_SUDOKU = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
# Arto Inkala's "world's hardest Sudoku", used when the top95 file is not at hand.
HARD_SUDOKU = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


def load_build_module():
    spec = importlib.util.spec_from_file_location("pysolver_build", ROOT / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def hard_sudoku() -> tuple[str, str]:
    if TOP95.exists():
        first = TOP95.read_text().split()[0]
        return "sudoku top95 #1, unique?", first
    return "sudoku 'hardest', unique?", HARD_SUDOKU


def benchmark_requests() -> list[tuple[str, dict[str, Any]]]:
    label, grid = hard_sudoku()
    requests = [
        (
            "sudoku classic, unique?",
            {"kind": "sudoku", "limit": 2, "puzzle": {"grid": CLASSIC_SUDOKU}},
        ),
        (label, {"kind": "sudoku", "limit": 2, "puzzle": {"grid": grid}}),
        (
            "pentominoes 6x10, first",
            {"kind": "polyomino", "puzzle": {"board": ["." * 10] * 6, "pieces": ["pentominoes"]}},
        ),
        (
            "pentominoes 3x20, count",
            {
                "kind": "polyomino",
                "mode": "count",
                "puzzle": {"board": ["." * 20] * 3, "pieces": ["pentominoes"]},
            },
        ),
        (
            "domino 16x16, count",
            {"kind": "domino", "mode": "count", "puzzle": {"rows": 16, "cols": 16}},
        ),
    ]
    return [(name, request) for name, request in requests if kind_written(request["kind"])]


def kind_written(kind: str) -> bool:
    return kind in KINDS and importlib.util.find_spec(KINDS[kind]) is not None


class ByteCounter:
    """Counts the body bytes the server sends, per status code."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.bytes = 0
        self.requests = 0
        self.not_modified = 0

    def reset(self) -> tuple[int, int, int]:
        with self.lock:
            figures = (self.bytes, self.requests, self.not_modified)
            self.bytes = self.requests = self.not_modified = 0
        return figures


def counting_server(build, isolated: bool, counter: ByteCounter):
    server = build.make_server(port=0, isolated=isolated)
    base = server.RequestHandlerClass

    class CountingHandler(base):
        def copyfile(self, source, outputfile) -> None:
            super().copyfile(source, outputfile)
            with counter.lock:
                counter.bytes += source.tell()

        def send_response(self, code, message=None) -> None:
            with counter.lock:
                counter.requests += 1
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
    return {readyMs: readyAt, firstAnswerMs: performance.now() - started, ok: first.ok, info};
}"""

SOLVE_JS = """async (request) => {
    const started = performance.now();
    const response = await window.pysolver.solve(request);
    return {roundTrip: (performance.now() - started) / 1000, ok: response.ok,
            seconds: response.stats ? response.stats.seconds : null,
            count: String(response.count)};
}"""


def visit(context, url: str, counter: ByteCounter, outside: list[str]) -> dict[str, Any]:
    page = context.new_page()
    page.on(
        "request",
        lambda request: (
            None
            if request.url.startswith(("http://127.0.0.1", "data:", "blob:"))
            else outside.append(request.url)
        ),
    )
    counter.reset()
    started = time.perf_counter()
    page.goto(url)
    page.wait_for_function("() => window.pysolver && window.pysolver.ready")
    figures = page.evaluate(READY_JS)
    wall = time.perf_counter() - started
    sent, requests, not_modified = counter.reset()
    return {
        "page": page,
        "ready_s": figures["readyMs"] / 1000,
        "wall_s": wall,
        "first_ms": figures["firstAnswerMs"],
        "bytes": sent,
        "requests": requests,
        "not_modified": not_modified,
        "info": figures["info"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per request; best is kept")
    parser.add_argument("--no-isolation", action="store_true", help="serve without COOP/COEP")
    args = parser.parse_args(argv)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("Playwright is missing: run python3 build.py test once, then use .venv/bin/python")
        return 2
    build = load_build_module()
    build.build_site(quiet=True)
    counter = ByteCounter()
    server = counting_server(build, not args.no_isolation, counter)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    outside: list[str] = []
    sys.path.insert(0, str(ROOT / "tests" / "e2e"))
    from conftest import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as playwright:
        # A persistent profile has a disk cache, as a person's browser does; an incognito
        # context keeps only a small memory cache that drops the 9.6 MB WebAssembly module.
        profile = tempfile.TemporaryDirectory(prefix="pysolver-bench-")
        context = playwright.chromium.launch_persistent_context(
            profile.name, executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        cold = visit(context, url, counter, outside)
        cold["page"].close()
        warm = visit(context, url, counter, outside)
        page = warm["page"]
        print(
            f"Pyodide {cold['info']['pyodide']}, pysolver {cold['info']['wheel']}, "
            f"cross-origin isolated: {cold['info']['crossOriginIsolated']}"
        )
        print()
        print(
            f"{'visit':<6} {'ready (s)':>10} {'wall (s)':>9} {'1st answer (ms)':>16} "
            f"{'bytes sent':>12} {'requests':>9} {'304s':>5}"
        )
        for name, figures in (("cold", cold), ("warm", warm)):
            print(
                f"{name:<6} {figures['ready_s']:>10.2f} {figures['wall_s']:>9.2f} "
                f"{figures['first_ms']:>16.1f} {figures['bytes']:>12,} {figures['requests']:>9} "
                f"{figures['not_modified']:>5}"
            )
        print()
        print(
            f"{'request':<28} {'CPython (s)':>12} {'browser (s)':>12} {'round trip (s)':>15} "
            f"{'ratio':>6}"
        )
        for name, request in benchmark_requests():
            native = min(
                solve(json.loads(json.dumps(request)))["stats"]["seconds"]
                for _ in range(args.repeat)
            )
            runs = [page.evaluate(SOLVE_JS, request) for _ in range(args.repeat)]
            if not all(run["ok"] for run in runs):
                print(f"{name:<28} failed in the browser: {runs[0]}")
                continue
            in_browser = min(run["seconds"] for run in runs)
            round_trip = min(run["roundTrip"] for run in runs)
            print(
                f"{name:<28} {native:>12.4f} {in_browser:>12.4f} {round_trip:>15.4f} "
                f"{in_browser / native:>6.2f}"
            )
        context.close()
        profile.cleanup()
    server.shutdown()
    if outside:
        print(f"\nrequests that tried to leave the machine: {outside}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
