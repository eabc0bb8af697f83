"""Offline for real: after one visit the service worker (web/sw.js) keeps the site and the
Pyodide runtime, so a reload with the server gone still loads Python and solves, cross-origin
isolated as before; the web app manifest and its icons make the page installable."""

from __future__ import annotations

import json
import threading
import urllib.request

import pytest
from conftest import guard_page, wait_ready

from pysolver import solve

SUDOKU = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
CONTROLLED_TIMEOUT_MS = 120_000


class StoppableSite:
    """build.py's server for dist/ on a free port, for one test, that the test can stop."""

    def __init__(self, build_module) -> None:
        self.server = build_module.make_server(port=0)
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
def stoppable_site(build_module, built_site):
    site = StoppableSite(build_module)
    yield site
    site.stop()


def wait_until_kept_offline(page) -> None:
    page.wait_for_function(
        "() => document.documentElement.dataset.offline === 'ready'"
        " && navigator.serviceWorker.controller !== null",
        timeout=CONTROLLED_TIMEOUT_MS,
    )


def test_reload_with_the_server_gone_still_solves(context, stoppable_site) -> None:
    page = context.new_page()
    guard_page(page)
    page.goto(stoppable_site.url + f"#sudoku:{SUDOKU}")
    wait_ready(page)
    wait_until_kept_offline(page)

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
    # A new tab of the same site works offline too, the README page included.
    readme = context.new_page()
    guard_page(readme)
    readme.goto(stoppable_site.url + "readme.html#sudoku")
    assert readme.locator("h3#sudoku").is_visible()
    assert page.blocked_requests == [] and readme.blocked_requests == []


def test_the_page_is_installable(context, stoppable_site) -> None:
    page = context.new_page()
    guard_page(page)
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
