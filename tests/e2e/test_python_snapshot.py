"""The worker's snapshot of Python's warmed-up heap (web/runtime/snapshot.js, worker.mjs): the
first start makes and keeps it, the next starts from it and answers as Python started afresh
does; a snapshot of another build is never used (and is dropped), and a broken one is dropped
and Python starts the ordinary way."""

from __future__ import annotations

import json

from conftest import load_app, without_timing

from pysolver import solve

SNAPSHOT_CACHE = "python-heap-snapshots"
KEPT_TIMEOUT_MS = 60_000

# What the cache holds: [{url, bytes}], bytes from the entry's length header.
KEPT_JS = f"""async () => {{
    const cache = await caches.open("{SNAPSHOT_CACHE}");
    const kept = [];
    for (const request of await cache.keys()) {{
        const response = await cache.match(request);
        kept.push({{url: request.url, bytes: Number(response.headers.get("x-snapshot-bytes"))}});
    }}
    return kept;
}}"""

# Put bytes of the given length (all zeros: not a snapshot) under url, as a kept snapshot.
PUT_JS = f"""async ([url, length]) => {{
    const cache = await caches.open("{SNAPSHOT_CACHE}");
    const headers = {{"x-snapshot-bytes": String(length)}};
    await cache.put(url, new Response(new Uint8Array(length), {{headers}}));
}}"""

SUDOKU = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
# Requests of several kinds and modes, as the page sends them (answers compared with CPython's).
REQUESTS = [
    {"kind": "sudoku", "mode": "explain", "puzzle": {"grid": SUDOKU}},
    {"kind": "domino", "mode": "count", "puzzle": {"rows": 6, "cols": 6}},
    {
        "kind": "polyomino",
        "mode": "count",
        "limit": 3,
        "puzzle": {"board": ["." * 10] * 6, "pieces": ["pentominoes"]},
    },
    {"kind": "queens", "mode": "count", "puzzle": {"n": 7}},
]
SOLVE_ALL_JS = """async (requests) => {
    const answers = [];
    for (const request of requests) answers.push(await window.pysolver.solve(request));
    return JSON.stringify(answers);
}"""


def snapshot_key(site_url: str, manifest: dict, sha256: str | None = None) -> str:
    """The key web/runtime/snapshot.js keeps this build's snapshot under."""
    version = manifest["pyodide"]["version"]
    return f"{site_url}python-snapshot/{version}/{sha256 or manifest['pysolver']['sha256']}/1"


def wait_kept(page, key: str) -> list[dict]:
    """Wait until the worker says it kept its snapshot; the cache then holds that one only."""
    report = page.evaluate(
        """async (timeout) => {
            const info = await window.pysolver.ready;
            const deadline = performance.now() + timeout;
            while (info.snapshot === undefined && performance.now() < deadline) {
                await new Promise((resolve) => setTimeout(resolve, 100));
            }
            return info.snapshot ?? null;
        }""",
        KEPT_TIMEOUT_MS,
    )
    assert report is not None, "the worker did not report its snapshot"
    assert report["kept"] is True and report["bytes"] > 1e6, report
    kept = page.evaluate(KEPT_JS)
    assert kept == [{"url": key, "bytes": report["bytes"]}]
    return kept


def test_the_next_start_restores_the_warmed_up_python(
    new_guarded_context, new_guarded_page, site_url, built_site
) -> None:
    context = new_guarded_context()
    first = load_app(new_guarded_page(context), site_url)
    assert first.ready_info["fromSnapshot"] is False
    kept = wait_kept(first, snapshot_key(site_url, built_site))
    first.close()

    page = load_app(new_guarded_page(context), site_url)
    info = page.ready_info
    assert info["fromSnapshot"] is True and info["crossOriginIsolated"] is True
    assert info["wheel"] == built_site["pysolver"]["version"]
    # The phases of a start from the snapshot: no import, it is in the heap.
    assert "snapshot found" in info["phases"] and "pysolver imported" not in info["phases"]
    answers = json.loads(page.evaluate(SOLVE_ALL_JS, REQUESTS))
    for request, answer in zip(REQUESTS, answers, strict=True):
        assert without_timing(answer) == without_timing(solve(request)), request["kind"]
    # The worker that started from the snapshot keeps it as it was (no second copy).
    assert page.evaluate(KEPT_JS) == kept
    assert page.console_errors == []


def test_other_builds_and_broken_snapshots_are_dropped(
    new_guarded_context, new_guarded_page, site_url, built_site
) -> None:
    context = new_guarded_context()
    page = new_guarded_page(context)
    page.goto(site_url + "guide.html")  # the site's origin, without starting Python
    key = snapshot_key(site_url, built_site)
    other_build = snapshot_key(site_url, built_site, sha256="0" * 64)
    page.evaluate(PUT_JS, [other_build, 4096])

    load_app(page, site_url)
    assert page.ready_info["fromSnapshot"] is False
    [kept] = wait_kept(page, key)  # the other build's is gone

    # Not a snapshot at all (zeros where Pyodide's magic number is): dropped, Python starts afresh.
    page.evaluate(PUT_JS, [key, kept["bytes"]])
    load_app(page, site_url)
    assert page.ready_info["fromSnapshot"] is False
    wait_kept(page, key)
    answer = page.evaluate("async (r) => window.pysolver.solve(r)", REQUESTS[3])
    assert answer["count"] == 40 and answer["complete"] is True

    # A snapshot cut short (fewer bytes than it says) is dropped at reading.
    page.evaluate(
        f"""async (key) => {{
            const cache = await caches.open("{SNAPSHOT_CACHE}");
            const headers = {{"x-snapshot-bytes": "2000"}};
            await cache.put(key, new Response(new Uint8Array(1000), {{headers}}));
        }}""",
        key,
    )
    load_app(page, site_url)
    assert page.ready_info["fromSnapshot"] is False
    wait_kept(page, key)

    load_app(page, site_url)
    assert page.ready_info["fromSnapshot"] is True
