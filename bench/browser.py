"""Chromium for the browser benchmark and the browser tests: one launch set-up, one network guard.

Standard library only at import time (Playwright objects are passed in), so the e2e conftest
and bench/bench_browser.py can both import it:

- ``CHROMIUM``: Debian's Chromium (or ``$PYSOLVER_CHROMIUM``); Playwright's own download is
  never used.
- ``CHROMIUM_ARGS``: a quiet, closed-network profile (no background traffic, only the loopback
  resolves).
- ``is_local(url)`` says what counts as local: the loopback hosts and the URL schemes that never
  leave the page. ``guard(target)`` aborts every other request of a Playwright page or browser
  context and records its URL (the tests' guard). Routing requests turns Chromium's HTTP cache
  off, so where the cache is measured ``watch(target)`` only records them (the host resolver
  rules in ``CHROMIUM_ARGS`` still keep them from going anywhere).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent

CHROMIUM = os.environ.get("PYSOLVER_CHROMIUM", "/usr/bin/chromium")

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
]
# What "local" means for every browser test and benchmark: the loopback only, and URLs that
# never leave the page (file: for the page opened from disk).
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
LOCAL_SCHEMES = frozenset({"data", "blob", "about", "file"})
# Belt and braces with guard(): Chromium resolves no name but the loopback's.
CHROMIUM_ARGS.append(
    "--host-resolver-rules=MAP * ~NOTFOUND" + "".join(f" , EXCLUDE {host}" for host in LOCAL_HOSTS)
)


def is_local(url: str) -> bool:
    """True for a URL that stays on this machine: a loopback host over http(s)/ws(s), or a
    data:, blob:, about: or file: URL (urlsplit gives IPv6 hosts without brackets)."""
    parts = urlsplit(url)
    if parts.scheme in LOCAL_SCHEMES:
        return True
    return parts.scheme in ("http", "https", "ws", "wss") and parts.hostname in LOCAL_HOSTS


def guard(target: Any) -> list[str]:
    """Abort every request of a Playwright page or context that is not local; returns the list
    the blocked URLs are appended to (empty while nothing tried to leave the machine)."""
    blocked: list[str] = []

    def route(route_request: Any) -> None:
        url = route_request.request.url
        if is_local(url):
            route_request.continue_()
        else:
            blocked.append(url)
            route_request.abort("blockedbyclient")

    target.route("**/*", route)
    return blocked


def watch(target: Any) -> list[str]:
    """Record every request of a Playwright page or context that is not local, without routing
    (which would turn the HTTP cache off); returns the list the URLs are appended to."""
    outside: list[str] = []
    target.on(
        "request", lambda request: None if is_local(request.url) else outside.append(request.url)
    )
    return outside


def start_server(server: Any) -> str:
    """Serve with ``server`` (buildtools.server.make_server on port 0) from a daemon thread; its
    base URL.

    The caller stops it with ``server.shutdown()`` and ``server.server_close()``."""
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/"
