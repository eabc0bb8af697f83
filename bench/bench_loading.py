"""Loading benchmark: time to ready and bytes served, first and warm visits, with and without
the service worker (web/sw.js), a visit with the server stopped, and where the worker's start
went (its phases).

    .venv/bin/python -m bench.bench_loading [--repeats N] [--before DIST_COPY] [--fresh-python]

Needs what ``python3 build.py test`` installs (.venv with Playwright, Debian's Chromium). Builds
dist/, serves it (cross-origin isolated) on a free 127.0.0.1 port and, in a fresh browser profile
with a disk cache (as a person's browser has), measures:

- first visit: navigation to ``window.pysolver.ready``; its bytes include what the service
  worker fetches to keep the site offline (it starts once Python is ready); the visit lasts
  until the site is kept offline (with the service worker) and the worker has kept its Python
  snapshot (web/runtime/snapshot.js), as a person's first visit does;
- warm visits (two): the same, new tabs of the same profile;
- offline visit (service worker only): the server is stopped, a new tab loads from the cache.

"without sw" repeats the first two in another profile with service workers blocked (the HTTP
cache alone). ``--before`` serves a copy of an earlier dist/ (``cp -a dist /tmp/before`` before
a change) in rounds alternating with the current build, so both meet the same machine load.
``--fresh-python`` deletes the worker's Python snapshot before each warm visit: the phases of an
ordinary start (Pyodide's own start, the wheel, the import) with warm caches.
Each figure is the median (and the least) over ``--repeats`` rounds: the machine is shared, so
times are noisy; bytes are exact. Ready is the page's own clock (navigation start to the
moment ``window.pysolver.ready`` resolved).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.bench_browser import ByteCounter, counting_server
from bench.browser import CHROMIUM, CHROMIUM_ARGS, start_server, watch
from buildtools.repo import DIST
from buildtools.site import build_site

KEPT_OFFLINE_JS = (
    "() => document.documentElement.dataset.offline === 'ready'"
    " && navigator.serviceWorker.controller !== null"
)
# Notes the moment window.pysolver.ready resolves, on the page's clock (set before app.js runs).
READY_CLOCK_JS = """
Object.defineProperty(window, "pysolver", {
  configurable: true,
  set(value) {
    Object.defineProperty(window, "pysolver", { value, writable: true, configurable: true });
    const noteReady = () => { window.pysolverReadyAt = performance.now(); };
    Promise.resolve(value.ready).then(noteReady, () => {});
  },
});
"""
# The worker's report of its kept snapshot, once there is one (builds without snapshots: null).
SNAPSHOT_KEPT_JS = """async (timeout) => {
    const info = await window.pysolver.ready;
    if (!("fromSnapshot" in info) || info.fromSnapshot) return null;
    const deadline = performance.now() + timeout;
    while (info.snapshot === undefined && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return info.snapshot ?? null;
}"""
TIMEOUT_MS = 180_000


DROP_SNAPSHOT_JS = 'async () => { await caches.delete("python-heap-snapshots"); }'


def visit(context: Any, url: str, first: bool, with_sw: bool, fresh: bool) -> dict[str, Any]:
    """Open url in a new tab of context; seconds to ready, and the worker's own account."""
    page = context.new_page()
    if fresh and not first:
        page.goto(url + "manifest.webmanifest")  # the site's origin, without starting Python
        page.evaluate(DROP_SNAPSHOT_JS)
    page.goto(url)
    page.wait_for_function("() => window.pysolverReadyAt !== undefined", timeout=TIMEOUT_MS)
    info = page.evaluate("window.pysolver.ready")
    ready = page.evaluate("window.pysolverReadyAt") / 1000
    kept = None
    if first:
        # Stay as a person would until the worker has kept its snapshot and (with the service
        # worker) the site is kept offline: what the next visits start from.
        kept = page.evaluate(SNAPSHOT_KEPT_JS, TIMEOUT_MS)
        if with_sw:
            page.wait_for_function(KEPT_OFFLINE_JS, timeout=TIMEOUT_MS)
    page.close()
    return {
        "ready_s": ready,
        "worker_s": info["seconds"],
        "snapshot": info.get("fromSnapshot"),
        "phases": info.get("phases", {}),
        "kept": kept,  # the worker's report of the snapshot it made and kept (first visits)
    }


def measure(
    playwright: Any, directory: Path, service_workers: str, fresh: bool
) -> list[tuple[str, dict]]:
    counter = ByteCounter()
    server = counting_server(counter, directory)
    url = start_server(server)
    with_sw = service_workers == "allow"
    rows = []
    with tempfile.TemporaryDirectory(prefix="pysolver-bench-") as profile:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
            headless=True,
            service_workers=service_workers,
        )
        context.add_init_script(READY_CLOCK_JS)
        # Routing would turn the HTTP cache off, so requests are only watched (the host
        # resolver rules in CHROMIUM_ARGS keep them on the machine anyway).
        outside = watch(context)
        for name in ("first", "warm", "warm"):
            counter.reset()
            figures = visit(context, url, first=name == "first", with_sw=with_sw, fresh=fresh)
            figures["bytes"], figures["requests"], _ = counter.reset()
            rows.append((name, figures))
        server.shutdown()
        server.server_close()
        if with_sw:
            figures = visit(context, url, first=False, with_sw=True, fresh=fresh)
            figures["bytes"], figures["requests"] = 0, 0
            rows.append(("offline", figures))
        context.close()
    if outside:
        raise RuntimeError(f"requests tried to leave the machine: {outside}")
    return rows


def summary(values: list[float]) -> str:
    return f"{statistics.median(values):>6.2f} {min(values):>5.2f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3, help="rounds (median and least)")
    parser.add_argument("--before", type=Path, help="a copy of an earlier dist/ to compare")
    parser.add_argument(
        "--fresh-python", action="store_true", help="drop the Python snapshot before warm visits"
    )
    args = parser.parse_args()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("Playwright is missing: run python3 build.py test once, then use .venv/bin/python")
        return 2
    build_site(quiet=True)
    builds = [("before", args.before)] if args.before else []
    builds.append(("after" if args.before else "now", DIST))
    # (build, service workers, visit) -> the figures of each round
    rounds: dict[tuple[str, str, str], list[dict]] = {}
    with sync_playwright() as playwright:
        for round_number in range(args.repeats):
            for build, directory in builds:
                for label, setting in (("with sw", "allow"), ("without sw", "block")):
                    started = time.perf_counter()
                    visits = measure(playwright, directory, setting, args.fresh_python)
                    for name, figures in visits:
                        rounds.setdefault((build, label, name), []).append(figures)
                    took = time.perf_counter() - started
                    print(f"round {round_number + 1}: {build} {label} ({took:.0f} s)", flush=True)
    print()
    print(f"{args.repeats} rounds; seconds as median and least")
    print(
        f"{'build':<7} {'service worker':<15} {'visit':<8} {'ready (s)':>12} "
        f"{'worker (s)':>12} {'bytes sent':>12} {'requests':>9} {'snapshot':>9}"
    )
    for (build, label, name), figures in rounds.items():
        print(
            f"{build:<7} {label:<15} {name:<8} {summary([f['ready_s'] for f in figures])} "
            f"{summary([f['worker_s'] for f in figures])} {figures[-1]['bytes']:>12,} "
            f"{figures[-1]['requests']:>9} {str(figures[-1]['snapshot']):>9}"
        )
    print()
    print("The worker's phases (seconds from its start, median over rounds):")
    for (build, label, name), figures in rounds.items():
        if name == "offline":
            continue
        steps: dict[str, list[float]] = {}
        for figure in figures:
            for step, seconds in figure["phases"].items():
                steps.setdefault(step, []).append(seconds)
        ordered = sorted(steps.items(), key=lambda item: statistics.median(item[1]))
        text = ", ".join(f"{step} {statistics.median(times):.2f}" for step, times in ordered)
        kept = [figure["kept"] for figure in figures if figure["kept"]]
        if kept:
            seconds = statistics.median(report["seconds"] for report in kept)
            size = kept[-1]["bytes"]
            text += f"; then the snapshot ({size:,} bytes) made and kept in {seconds:.2f}"
        print(f"  {build} {label} {name}: {text or '(not reported by this build)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
