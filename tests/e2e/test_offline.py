"""Offline for real: after one visit the service worker (web/sw.js) keeps the site and the
Pyodide runtime, so a reload with the server gone still loads Python and solves, cross-origin
isolated as before; the web app manifest and its icons make the page installable."""

from __future__ import annotations

import json
import threading
import urllib.request

import pytest
from conftest import load_app, wait_ready

from buildtools.repo import DIST
from buildtools.server import make_server
from pysolver import solve

SUDOKU = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
CONTROLLED_TIMEOUT_MS = 120_000


class StoppableSite:
    """buildtools.server's server for dist/ on a free port, for one test, that the test can stop.

    Setting ``rebuilt`` serves precache.js as a rebuild would (another version), without
    touching dist/.
    """

    def __init__(self) -> None:
        self.server = make_server(port=0)
        self.rebuilt = False
        self.served: list[str] = []  # paths asked for, in order
        site = self
        base = self.server.RequestHandlerClass

        class Handler(base):
            def do_GET(self) -> None:  # noqa: N802 (the base class's name)
                site.served.append(self.path.split("?")[0])
                if site.rebuilt and self.path.split("?")[0] == "/precache.js":
                    text = (DIST / "precache.js").read_text(encoding="utf-8")
                    body = text.replace('"version": "', '"version": "rebuilt-').encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "text/javascript; charset=utf-8")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                super().do_GET()

        self.server.RequestHandlerClass = Handler
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        self.running = True

    def stop(self) -> None:
        if self.running:
            self.server.shutdown()
            self.server.server_close()
            self.running = False


@pytest.fixture
def offline_context(new_guarded_context):
    """A guarded browser context that lets the page register its service worker."""
    return new_guarded_context(service_workers="allow")


@pytest.fixture
def stoppable_site(built_site):
    site = StoppableSite()
    yield site
    site.stop()


def wait_until_kept_offline(page) -> None:
    page.wait_for_function(
        "() => document.documentElement.dataset.offline === 'ready'"
        " && navigator.serviceWorker.controller !== null",
        timeout=CONTROLLED_TIMEOUT_MS,
    )


def test_reload_with_the_server_gone_still_solves(
    offline_context, new_guarded_page, stoppable_site
) -> None:
    page = load_app(new_guarded_page(offline_context), stoppable_site.url + f"#sudoku:{SUDOKU}")
    wait_until_kept_offline(page)
    assert page.is_visible("#offline-note")

    stoppable_site.stop()
    with pytest.raises(OSError):  # the server is really gone
        urllib.request.urlopen(stoppable_site.url, timeout=5)
    page.reload()
    info = wait_ready(page)
    assert info["crossOriginIsolated"] is True
    assert page.evaluate("crossOriginIsolated") is True

    page.click("#sudoku-solve")
    page.wait_for_function(
        "() => document.getElementById('sudoku-result').dataset.count !== undefined"
    )
    expected = solve({"kind": "sudoku", "limit": 2, "puzzle": {"grid": SUDOKU}})
    assert page.get_attribute("#sudoku-result", "data-count") == str(expected["count"])
    # A new tab of the same site works offline too, the guide the help links to included
    # (the developers' README is not kept at install: the page does not need it).
    guide = new_guarded_page(offline_context)
    guide.goto(stoppable_site.url + "guide.html#sudoku")
    assert guide.locator("h3#sudoku").is_visible()


def test_the_page_is_installable(offline_context, new_guarded_page, stoppable_site) -> None:
    page = new_guarded_page(offline_context)
    page.goto(stoppable_site.url)
    href = page.get_attribute("link[rel=manifest]", "href")
    response = page.request.get(stoppable_site.url + href)
    assert response.ok
    assert response.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(response.text())
    assert manifest["name"] and manifest["short_name"] and manifest["theme_color"]
    assert manifest["start_url"] == "./" and manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        image = page.request.get(stoppable_site.url + icon["src"])
        assert image.ok and image.headers["content-type"] == icon["type"], icon
    wait_ready(page)
    wait_until_kept_offline(page)
    kept = page.evaluate(
        """async () => {
            const names = (await caches.keys()).filter((name) => name.startsWith("pysolver-"));
            const cache = await caches.open(names[0]);
            return {names, count: (await cache.keys()).length};
        }"""
    )
    assert len(kept["names"]) == 1, kept
    assert kept["count"] > 20, kept


CACHES_JS = """async () => (await caches.keys()).filter((name) => name.startsWith("pysolver-"))"""


def test_a_rebuild_replaces_the_offline_copy(
    offline_context, new_guarded_page, stoppable_site
) -> None:
    page = load_app(new_guarded_page(offline_context), stoppable_site.url)
    wait_until_kept_offline(page)
    [first] = page.evaluate(CACHES_JS)
    served_before = len(stoppable_site.served)
    stoppable_site.rebuilt = True
    page.evaluate(
        """async () => {
            const registration = await navigator.serviceWorker.getRegistration();
            await registration.update();
        }"""
    )
    # The new worker installs a new cache, then drops the old one when it activates.
    names = page.evaluate(
        """async (timeout) => {
            const deadline = performance.now() + timeout;
            for (;;) {
                const names = (await caches.keys()).filter((name) => name.startsWith("pysolver-"));
                const done = names.length === 1 && names[0].startsWith("pysolver-rebuilt-");
                if (done || performance.now() > deadline) return names;
                await new Promise((resolve) => setTimeout(resolve, 100));
            }
        }""",
        CONTROLLED_TIMEOUT_MS,
    )
    [second] = names
    assert second == first.replace("pysolver-", "pysolver-rebuilt-", 1)
    # The new copy is whole: the runtime is in it (copied from the old cache, not fetched).
    kept = page.evaluate(
        """async (name) => {
            const cache = await caches.open(name);
            return (await cache.keys()).map((request) => new URL(request.url).pathname);
        }""",
        second,
    )
    assert any(path.endswith("/pyodide.asm.wasm") for path in kept), kept
    assert "/index.html" in kept and "/" in kept
    fetched = stoppable_site.served[served_before:]
    assert "/precache.js" in fetched
    assert not any(path.endswith("/pyodide.asm.wasm") for path in fetched), fetched
