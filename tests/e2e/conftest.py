"""Fixtures for browser tests: the built site on a local server, and Chromium pages on it.

Fixtures:
- ``site_url``: base URL (ending in "/") of dist/, built from the current sources and served by
  buildtools.server on a free 127.0.0.1 port with the COOP/COEP headers (cross-origin isolated).
- ``plain_site_url``: the same site served without those headers (not isolated), to exercise
  the terminate-and-restart path of cancel.
- ``app_page``: a fresh Playwright page at ``site_url``, guarded (below); it has waited for
  ``window.pysolver.ready``, and at teardown it asserts that nothing was blocked.
- ``shared_page``: like ``app_page`` but one page per test module (Pyodide loads once), for
  tests that only call ``window.pysolver``; checked for stray requests at module teardown.
- ``open_app(url)``: the same for another URL (returns the page); pages it opens are checked
  the same way at teardown.
- ``new_guarded_page(context)``: a fresh guarded page of any browser context, not navigated
  (for tests that break a download or watch the page load); checked the same way at teardown.
- ``new_guarded_context(**options)``: a fresh browser context (Playwright's new_context
  options, e.g. ``color_scheme="dark"``), closed at teardown; its pages come from
  ``new_guarded_page``. ``guarded_context(browser, **options)`` is the same as a context manager,
  for fixtures of a wider scope; it checks the pages ``new_page`` opened in it when it closes.

The network guard is defined once, in bench/browser.py (shared with the browser benchmarks and
docs/screenshots.py): ``is_local`` says what counts as local (the loopback names in
``LOCAL_HOSTS``, and data:, blob:, about:, file: URLs). Every page's requests go through
``guard_page``, which aborts the others and records them in ``page.blocked_requests``; and
Chromium itself resolves no host name but those (``--host-resolver-rules`` in
``CHROMIUM_ARGS``, built from the same ``LOCAL_HOSTS``), so a request the router misses (say,
from a worker) fails too.

Service workers are blocked in every context unless a test asks for them
(``new_guarded_context(service_workers="allow")``, for the offline copy of web/sw.js): a page a
service worker controls gets its files from the worker, out of the router's reach, so neither
the guard nor a test's own route (a download broken on purpose) would see them. Where they are
allowed, the host resolver rules above still keep every request on the machine.

Chromium is Debian's (/usr/bin/chromium, or $PYSOLVER_CHROMIUM); Playwright's own browser
download is never used. Without Playwright or Chromium the browser tests are skipped, except
under ``python3 build.py test``, which sets PYSOLVER_REQUIRE_E2E=1 and makes that an error.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest

from bench.browser import CHROMIUM, CHROMIUM_ARGS, guard, start_server
from buildtools.server import make_server
from buildtools.site import build_site

ROOT = Path(__file__).resolve().parents[2]
REQUIRED = os.environ.get("PYSOLVER_REQUIRE_E2E") == "1"
# See the module's docstring: contexts allow service workers only when a test asks.
NO_SERVICE_WORKERS = {"service_workers": "block"}
# Loading Pyodide takes a few seconds; a slow shared machine gets generous room.
READY_TIMEOUT_MS = 90_000


def _missing_browser_reason() -> str | None:
    if importlib.util.find_spec("playwright") is None:
        return "Playwright is not installed (python3 build.py test installs it into .venv)"
    if not Path(CHROMIUM).exists():
        return f"Chromium is missing at {CHROMIUM} (python3 build.py test installs it)"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    e2e_dir = Path(__file__).resolve().parent
    reason = _missing_browser_reason()
    for item in items:
        if e2e_dir not in Path(str(item.fspath)).resolve().parents:
            continue
        item.add_marker(pytest.mark.e2e)
        if reason is not None:
            if REQUIRED:
                raise pytest.UsageError(f"browser tests cannot run: {reason}")
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="session")
def built_site() -> dict:
    """dist/ brought up to date with the current sources; returns its manifest."""
    return build_site(quiet=True)


def _serve(isolated: bool) -> Iterator[str]:
    server = make_server(port=0, isolated=isolated)
    try:
        yield start_server(server)
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def site_url(built_site) -> Iterator[str]:
    yield from _serve(isolated=True)


@pytest.fixture(scope="session")
def plain_site_url(built_site) -> Iterator[str]:
    yield from _serve(isolated=False)


# pytest-playwright's fixtures, pointed at Debian's Chromium with a closed-network profile.
@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [*browser_type_launch_args.get("args", []), *CHROMIUM_ARGS],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict) -> dict:
    return {**browser_context_args, **NO_SERVICE_WORKERS}


def guard_page(page) -> list[str]:
    """Abort every request that leaves the machine and record its URL (bench.browser.guard);
    returns the record, also kept in page.blocked_requests."""
    page.blocked_requests = guard(page)
    return page.blocked_requests


# The page's Explore section (engine, step view, compare, heatmap) starts closed for a newcomer
# and remembers a person's choice; the tests drive its tools, so their pages start with it open
# (as a person who opened it once) unless they ask for a newcomer's page.
EXPLORE_OPEN = (
    "try { if (localStorage.getItem('pysolver-explore') === null) "
    "localStorage.setItem('pysolver-explore', 'open'); } catch (error) {}"
)


def new_page(context, explore_open: bool = True):
    """A new page of context, guarded, with console errors recorded in page.console_errors;
    its Explore section open unless explore_open is False (see EXPLORE_OPEN).

    The page is also listed in context.guarded_pages, for guarded_context's check."""
    page = context.new_page()
    if not hasattr(context, "guarded_pages"):
        context.guarded_pages = []
    context.guarded_pages.append(page)
    page.console_errors = []
    page.on(
        "console",
        lambda message: message.type == "error" and page.console_errors.append(message.text),
    )
    guard_page(page)
    if explore_open:
        page.add_init_script(EXPLORE_OPEN)
    return page


def load_app(page, url: str):
    """Navigate page to url and wait until the solver is ready (its info in page.ready_info)."""
    page.goto(url)
    page.ready_info = wait_ready(page)
    return page


def wait_ready(page, timeout_ms: int = READY_TIMEOUT_MS) -> dict:
    """Wait for window.pysolver.ready; returns the solver's info, or fails with its message."""
    page.wait_for_function("() => window.pysolver && window.pysolver.ready", timeout=timeout_ms)
    outcome = page.evaluate(
        """async (timeout) => {
            const timer = new Promise((_, reject) =>
                setTimeout(() => reject(new Error(`not ready after ${timeout} ms`)), timeout));
            try {
                const info = await Promise.race([window.pysolver.ready, timer]);
                return {ok: true, info: info ?? null};
            } catch (error) {
                return {ok: false, message: String(error && error.message || error)};
            }
        }""",
        timeout_ms,
    )
    assert outcome["ok"], f"the page did not become ready: {outcome['message']}"
    return outcome["info"]


# Driving the page as a person does, shared by the test modules (``from conftest import ...``).
SOLVE_TIMEOUT_MS = 60_000


def open_tab(page, kind: str) -> None:
    """Switch to a kind's tab and check that its panel shows."""
    page.click(f"#tab-{kind}")
    assert page.is_visible(f"#panel-{kind}")


def set_input(page, selector: str, value: str) -> None:
    """Type into a size field and commit it, as leaving the field does."""
    page.fill(selector, value)
    page.dispatch_event(selector, "change")


def wait_idle(page, timeout_ms: int = SOLVE_TIMEOUT_MS) -> None:
    """Wait until the page is no longer busy solving."""
    page.wait_for_function("() => document.body.dataset.state !== 'busy'", timeout=timeout_ms)


def click_and_wait(page, selector: str, timeout_ms: int = SOLVE_TIMEOUT_MS) -> None:
    """Click a solve button and wait until the page has shown the answer."""
    page.click(selector)
    wait_idle(page, timeout_ms)


def canvas_picture(page, kind: str) -> str:
    """The kind's board as a PNG data URL (to tell whether a drawing changed)."""
    return page.evaluate("(kind) => document.getElementById(`${kind}-canvas`).toDataURL()", kind)


# Requests for the page's pool of workers (test_pool.py, test_pool_faults.py). bitset: its tasks
# are cuts of the serial search (a memo count's are cut in its own tree: memo_tasks).
# 1,472 tilings of 4x15: a few seconds of search, split into 16+ tasks.
STRIP = {
    "kind": "polyomino",
    "mode": "count",
    "engine": "bitset",
    "puzzle": {"board": ["." * 15] * 4, "pieces": ["pentominoes"]},
}
# All 9,356 tilings of 6x10: several seconds in Pyodide, long enough to cancel or end a worker
# while both workers are busy.
RECTANGLE = {
    "kind": "polyomino",
    "mode": "count",
    "engine": "bitset",
    "puzzle": {"board": ["." * 10] * 6, "pieces": ["pentominoes"]},
}


@contextmanager
def guarded_context(browser, **options) -> Iterator[object]:
    """A new browser context (service workers blocked unless options allow them), closed at the
    end, which then fails if a page new_page opened in it tried to leave the machine."""
    context = browser.new_context(**{**NO_SERVICE_WORKERS, **options})
    context.guarded_pages = []
    try:
        yield context
    finally:
        blocked = [url for page in context.guarded_pages for url in page.blocked_requests]
        context.close()
    assert blocked == [], f"requests left the machine: {blocked}"


@pytest.fixture
def new_guarded_context(browser) -> Iterator[Callable[..., object]]:
    with ExitStack() as contexts:
        yield lambda **options: contexts.enter_context(guarded_context(browser, **options))


@pytest.fixture
def new_guarded_page() -> Iterator[Callable[[object], object]]:
    pages = []

    def open_page(context, explore_open: bool = True):
        page = new_page(context, explore_open)
        pages.append(page)
        return page

    yield open_page
    for page in pages:
        assert page.blocked_requests == [], f"requests left the machine: {page.blocked_requests}"


@pytest.fixture
def open_app(context, new_guarded_page) -> Callable[[str], object]:
    return lambda url: load_app(new_guarded_page(context), url)


@pytest.fixture
def app_page(open_app, site_url):
    return open_app(site_url)


@pytest.fixture(scope="module")
def shared_page(browser, site_url) -> Iterator[object]:
    with guarded_context(browser) as context:
        yield load_app(new_page(context), site_url)


def pytest_configure(config: pytest.Config) -> None:
    # pytest-playwright's base_url fixture trips a pytest 9 deprecation that is not ours to fix.
    config.addinivalue_line(
        "filterwarnings", "ignore:Session-scoped fixtures defined as instance methods"
    )


def without_timing(response: dict) -> dict:
    """A response minus the fields that differ run to run (seconds, random seeds) and the
    compiled walk's report (CPython with pysolver-studio[fast]; the page walks in Python)."""
    response = dict(response)
    if "stats" in response:
        volatile = ("seconds", "kernel", "jit_seconds")
        response["stats"] = {k: v for k, v in response["stats"].items() if k not in volatile}
    return response
