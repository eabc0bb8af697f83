"""Browser benchmark of the page's pool of Pyodide workers (web/runtime/pool.js): memory and speed.

    .venv/bin/python -m bench.bench_pool [--workers 2] [--full] [--rounds 3]

Needs what ``python3 build.py test`` installs (.venv with Playwright, Debian's Chromium). Builds
dist/, serves it cross-origin isolated on a free 127.0.0.1 port, opens the page and prints:

1. Memory: what each extra worker costs, measured two ways before and after the pool starts
   its extra workers: ``performance.measureUserAgentSpecificMemory()`` (the page's and its
   workers' JavaScript and WebAssembly memory, by worker), and the proportional set size (PSS)
   of all of Chromium's processes of this run (from /proc; Linux only).
2. Per worker: its start time (from ``new Worker()`` to ready, as the page waited, and the
   worker's own load time) and its Python heap (Pyodide's WebAssembly memory, which only grows:
   the most it used), after the warm-up and again after the counts; and the JavaScript heaps of
   the workers (``measureUserAgentSpecificMemory``'s breakdown, which does not say which worker
   is which: listed largest first).
3. Speed: each count with jobs 1 (one worker) and jobs N in the page, in two cases a person
   meets: *warm*, the pool's workers already loaded by an earlier solve (a second request; each
   worker counted another problem since, so no memo of this one is left: the speed-up is the
   split's, not a cache's), and *cold*, the page just loaded with only its first worker, so
   the pool starts its extra workers during the count (the first request). Per round: a cold
   pool run on a freshly loaded page, then one worker, then the warm pool run; medians of
   ``--rounds``. Wall seconds as the page sees them, and since two workers cannot have two
   cores on a machine that other jobs load, the CPU seconds of each worker thread (from /proc,
   as bench_browser reads them): ``cpu x`` is the one worker's CPU seconds over the busiest
   pool worker's, the speed-up the pool gives where each worker has a core of its own (the
   busiest worker's seconds are the run's critical path: planning, its tasks, merging). The
   default run has 6x10 (all 9,356) and the 16,146 distinct 8x8 + square tilings; --full adds
   all 129,168.

The machine is shared (2 cores, several jobs): figures are noisy; the load average is printed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.bench_browser import descendant_tasks
from bench.bench_parallel import pentominoes
from bench.browser import CHROMIUM, CHROMIUM_ARGS, start_server
from buildtools.server import make_server
from buildtools.site import build_site

# name, request, expected count, in the default run
CASES: list[tuple[str, dict[str, Any], int, bool]] = [
    ("6x10 all", pentominoes(["." * 10] * 6), 9356, True),
    ("8x8+O4 distinct", pentominoes(["." * 8] * 8, "distinct", ("O4",)), 16146, True),
    ("8x8+O4 all", pentominoes(["." * 8] * 8, "all", ("O4",)), 129168, False),
]

# A count long enough that the pool starts its extra workers (they start for runs not quick).
WARM_UP = pentominoes(["." * 15] * 4)

MEASURE_JS = """async () => {
    if (typeof performance.measureUserAgentSpecificMemory !== "function") return null;
    const result = await performance.measureUserAgentSpecificMemory();
    const workers = result.breakdown
        .filter((entry) => entry.bytes > 0)
        .map((entry) => ({bytes: entry.bytes,
                          scope: entry.attribution.map((a) => a.scope).join(",")}));
    return {bytes: result.bytes, workers};
}"""

WORKERS_JS = """async () => ({states: window.pysolver.workers(),
                                info: window.__pysolverPool.workerInfo(),
                                heaps: (await window.__pysolverPool.workerMemory())
                                    .map((heap) => heap.bytes)})"""

SOLVE_JS = """async (request) => {
    const started = performance.now();
    const response = await window.pysolver.solve(request);
    const seconds = (performance.now() - started) / 1000;
    return {ok: response.ok, count: String(response.count), complete: response.complete,
            error: response.error ?? null, parallel: response.parallel ?? null, seconds,
            nodes: Number(response.stats?.nodes ?? 0)};
}"""


# The cheapest round trip through Python: after it, a freshly loaded worker has warmed up.
TRIVIAL: dict[str, Any] = {"kind": "no_such_kind", "puzzle": {}}


def worker_threads_cpu() -> dict[str, float]:
    """CPU seconds of each web worker thread of this run's browser (where Pyodide runs), by
    its /proc task directory (bench_browser.browser_cpu_seconds sums the same threads)."""
    seconds: dict[str, float] = {}
    for task in descendant_tasks():
        try:
            if not (task / "comm").read_text().startswith("DedicatedWorker"):
                continue
            seconds[str(task)] = int((task / "schedstat").read_text().split()[0]) / 1e9
        except (OSError, ValueError, IndexError):
            continue  # ended while being read
    return seconds


@dataclass
class Run:
    """One solve in the page: its answer, wall seconds as the page saw them, and the CPU seconds
    of the busiest worker thread over it (0 where /proc has none)."""

    ok: bool
    count: str
    complete: bool
    seconds: float
    parallel: dict[str, Any]
    busiest_cpu: float
    nodes: int


def timed_solve(page: Any, request: dict[str, Any]) -> Run:
    """``request`` solved in the page, with the CPU seconds its busiest worker spent."""
    before = worker_threads_cpu()
    answer = page.evaluate(SOLVE_JS, request)
    after = worker_threads_cpu()
    spent = [seconds - before.get(task, 0.0) for task, seconds in after.items()]
    return Run(
        ok=answer["ok"],
        count=answer["count"],
        complete=answer["complete"],
        seconds=answer["seconds"],
        parallel=answer["parallel"] or {},
        busiest_cpu=max(spent, default=0.0),
        nodes=answer["nodes"],
    )


def chromium_pss_kib(marker: str) -> int:
    """Proportional set size of every process whose command line holds ``marker`` (our
    profile directory: this run's Chromium, not the other browsers on the machine)."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if marker not in (entry / "cmdline").read_bytes().decode(errors="replace"):
                continue
            for line in (entry / "smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
        except OSError:
            continue  # the process ended meanwhile, or is not ours to read
    return total


def print_workers(workers: dict[str, Any], memory: dict[str, Any] | None) -> None:
    """One line a worker: its state and start times; then each worker heap's memory."""
    print("worker  state       start s (page)  load s (worker)  Python heap (MB)")
    rows = zip(workers["states"], workers["info"], workers["heaps"], strict=True)
    for index, (state, info, heap) in enumerate(rows):
        page_s = f"{info['startSeconds']:.1f}" if info else "-"
        worker_s = f"{info['seconds']:.1f}" if info else "-"
        heap_mb = f"{heap / 2**20:.1f}" if heap else "-"
        print(f"{index:>6}  {state:<10} {page_s:>15} {worker_s:>16} {heap_mb:>17}")
    if memory:
        heaps = sorted(
            (entry["bytes"] for entry in memory["workers"] if "Worker" in entry["scope"]),
            reverse=True,
        )
        listed = ", ".join(f"{heap / 2**20:.1f}" for heap in heaps)
        print(f"workers' JavaScript heaps (MB, largest first): {listed}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2, help="jobs of the parallel runs")
    parser.add_argument("--full", action="store_true", help="also all 129,168 8x8 + square")
    parser.add_argument("--rounds", type=int, default=1, help="rounds; medians (default 1)")
    parser.add_argument("--only", help="only the counts whose name holds this (e.g. 8x8)")
    args = parser.parse_args(argv)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("Playwright is missing: run python3 build.py test once, then use .venv/bin/python")
        return 2
    build_site(quiet=True)
    server = make_server(port=0, isolated=True)
    url = start_server(server)
    # Memory measurement answers at the next garbage collection unless told to be eager.
    chromium_args = [*CHROMIUM_ARGS, "--enable-blink-features=ForceEagerMeasureMemory"]
    with sync_playwright() as playwright:
        profile = tempfile.TemporaryDirectory(prefix="pysolver-bench-pool-")
        context = playwright.chromium.launch_persistent_context(
            profile.name, executable_path=CHROMIUM, args=chromium_args, headless=True
        )
        page = context.new_page()
        page.goto(url)
        page.wait_for_function("() => window.pysolver && window.pysolver.ready")
        page.evaluate("() => window.pysolver.ready")
        isolated = page.evaluate("crossOriginIsolated")
        before = page.evaluate(MEASURE_JS)
        pss_before = chromium_pss_kib(profile.name)
        warm = page.evaluate(SOLVE_JS, dict(WARM_UP, jobs=args.workers))
        states = page.evaluate("window.pysolver.workers()")
        after = page.evaluate(MEASURE_JS)
        pss_after = chromium_pss_kib(profile.name)
        extra = len(states) - 1
        print(f"cross-origin isolated: {isolated}; workers after warm-up: {states}")
        print(f"warm-up ({warm['count']} tilings, jobs {args.workers}): {warm['seconds']:.1f} s")
        print()
        print("memory               before (MB)  after (MB)  per extra worker (MB)")
        if before and after and extra:
            mb_before, mb_after = before["bytes"] / 2**20, after["bytes"] / 2**20
            print(
                f"{'measureUserAgent…':<20} {mb_before:>11.1f} {mb_after:>11.1f} "
                f"{(mb_after - mb_before) / extra:>22.1f}"
            )
            for entry in after["workers"]:
                print(f"    {entry['scope'] or '?':<32} {entry['bytes'] / 2**20:>8.1f} MB")
        else:
            print("measureUserAgentSpecificMemory: not available here")
        if pss_before and extra:
            kib = (pss_after - pss_before) / extra
            print(
                f"{'Chromium PSS':<20} {pss_before / 1024:>11.1f} {pss_after / 1024:>11.1f} "
                f"{kib / 1024:>22.1f}"
            )
        print()
        print_workers(page.evaluate(WORKERS_JS), after)
        print()
        print(
            f"speed ({args.rounds} rounds, medians; cpu x: one worker's CPU s over the busiest "
            "pool worker's)"
        )
        print(
            f"{'count':<16} {'expected':>9} {'case':<5} {'1 worker s':>10} "
            f"{f'jobs {args.workers} s':>9} {'speed-up':>8} {'cpu x':>6} {'tasks':>6} "
            f"{'workers':>7} {'load':>5}"
        )
        for name, request, expected, default in CASES:
            if (not default and not args.full) or (args.only and args.only not in name):
                continue
            figures: dict[str, list[Run]] = {"serial": [], "cold": [], "warm": []}
            for _ in range(args.rounds):
                # Cold: a freshly loaded page, its first worker only; then one worker; then
                # warm: the extra workers loaded, and each has counted another problem since.
                page.reload()
                page.wait_for_function("() => window.pysolver && window.pysolver.ready")
                page.evaluate(SOLVE_JS, TRIVIAL)  # the first worker's warm-up has run
                cases = [("cold", dict(request, jobs=args.workers)), ("serial", request)]
                cases += [("forget", dict(WARM_UP, jobs=args.workers))]
                cases += [("warm", dict(request, jobs=args.workers))]
                for case, sent in cases:
                    run = timed_solve(page, sent)
                    if case == "forget":
                        continue
                    if not run.ok or run.count != str(expected) or not run.complete:
                        print(f"{name}, {case}: wrong answer {run}")
                        return 1
                    figures[case].append(run)
            one = statistics.median(run.seconds for run in figures["serial"])
            one_cpu = statistics.median(run.busiest_cpu for run in figures["serial"])
            for case in ("warm", "cold"):
                runs = figures[case]
                pool = statistics.median(run.seconds for run in runs)
                pool_cpu = statistics.median(run.busiest_cpu for run in runs)
                parallel = runs[-1].parallel
                print(
                    f"{name:<16} {expected:>9,} {case:<5} {one:>10.1f} {pool:>9.1f} "
                    f"{one / pool:>8.2f} {one_cpu / pool_cpu:>6.2f} "
                    f"{parallel.get('tasks', 0):>6} {parallel.get('workers', 0):>7} "
                    f"{os.getloadavg()[0]:>5.1f}"
                )
            if args.rounds > 1:
                for case in ("warm", "cold"):
                    pairs = zip(figures["serial"], figures[case], strict=True)
                    rounds = " ".join(
                        f"{one.seconds:.1f}/{pool.seconds:.1f}"
                        f" ({one.busiest_cpu:.1f}/{pool.busiest_cpu:.1f} cpu)"
                        for one, pool in pairs
                    )
                    print(f"{'':16} {case}: rounds (1 worker / pool, s): {rounds}")
                nodes = "/".join(
                    f"{run.nodes:,}" for run in figures["warm"][:1] + figures["serial"][:1]
                )
                print(f"{'':16} nodes, warm pool / one worker (first round): {nodes}")
        print()
        print("after the counts:")
        print_workers(page.evaluate(WORKERS_JS), page.evaluate(MEASURE_JS))
        context.close()
        profile.cleanup()
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
