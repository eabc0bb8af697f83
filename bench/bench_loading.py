"""Loading benchmark: time to ready and bytes served, first and second visit, with and without
the service worker (web/sw.js), and a visit with the server stopped.

    .venv/bin/python -m bench.bench_loading

Needs what ``python3 build.py test`` installs (.venv with Playwright, Debian's Chromium). Builds
dist/, serves it (cross-origin isolated) on a free 127.0.0.1 port and, in a fresh browser profile
with a disk cache (as a person's browser has), measures:

- first visit: navigation to ``window.pysolver.ready``; its bytes include what the service
  worker fetches to keep the site offline (it starts once Python is ready);
- second visit: the same, a new tab of the same profile;
- offline visit (service worker only): the server is stopped, a new tab loads from the cache.

"without sw" repeats the first two in another profile with service workers blocked (the HTTP
cache alone). The machine is shared: times are noisy, bytes are exact.
"""

from __future__ import annotations

import sys
import tempfile
import time

from bench.bench_browser import ByteCounter, counting_server
from bench.browser import CHROMIUM, CHROMIUM_ARGS, start_server, watch
from buildtools.site import build_site

KEPT_OFFLINE_JS = (
    "() => document.documentElement.dataset.offline === 'ready'"
    " && navigator.serviceWorker.controller !== null"
)


def visit(context, url: str, wait_offline: bool) -> dict:
    """Open url in a new tab of context; seconds to ready (and to kept offline, if asked)."""
    page = context.new_page()
    started = time.perf_counter()
    page.goto(url)
    page.wait_for_function("() => window.pysolver && window.pysolver.ready", timeout=180_000)
    info = page.evaluate("window.pysolver.ready")
    ready = time.perf_counter() - started
    if wait_offline:
        page.wait_for_function(KEPT_OFFLINE_JS, timeout=180_000)
    settled = time.perf_counter() - started
    page.close()
    return {
        "ready_s": ready,
        "settled_s": settled,
        "worker_s": info["seconds"],
        "isolated": info["crossOriginIsolated"],
    }


def measure(playwright, service_workers: str) -> list[tuple[str, dict]]:
    counter = ByteCounter()
    server = counting_server(counter)
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
        # Routing would turn the HTTP cache off, so requests are only watched (the host
        # resolver rules in CHROMIUM_ARGS keep them on the machine anyway).
        outside = watch(context)
        for name in ("first", "second"):
            counter.reset()
            figures = visit(context, url, wait_offline=with_sw)
            figures["bytes"], figures["requests"], figures["not_modified"] = counter.reset()
            rows.append((name, figures))
        server.shutdown()
        server.server_close()
        if with_sw:
            figures = visit(context, url, wait_offline=True)
            figures["bytes"], figures["requests"], figures["not_modified"] = 0, 0, 0
            rows.append(("offline", figures))
        context.close()
    if outside:
        raise RuntimeError(f"requests tried to leave the machine: {outside}")
    return rows


def main() -> int:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("Playwright is missing: run python3 build.py test once, then use .venv/bin/python")
        return 2
    build_site(quiet=True)
    print(
        f"{'service worker':<15} {'visit':<8} {'ready (s)':>10} {'settled (s)':>12} "
        f"{'bytes sent':>12} {'requests':>9} {'304s':>5} {'isolated':>9} {'worker (s)':>9}"
    )
    with sync_playwright() as playwright:
        for label, setting in (("with sw", "allow"), ("without sw", "block")):
            for name, figures in measure(playwright, setting):
                print(
                    f"{label:<15} {name:<8} {figures['ready_s']:>10.2f} "
                    f"{figures['settled_s']:>12.2f} {figures['bytes']:>12,} "
                    f"{figures['requests']:>9} {figures['not_modified']:>5} "
                    f"{str(figures['isolated']):>9} {figures['worker_s']:>9.2f}"
                )
    print()
    print("settled: ready, and (with sw) the site kept offline by the service worker.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
