"""The one definition of "local" shared by the browser tests and benchmarks (bench/browser.py)."""

from __future__ import annotations

import pytest

from bench.browser import CHROMIUM_ARGS, LOCAL_HOSTS, is_local


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/index.html",
        "http://localhost/x",
        "http://[::1]:9/y",
        "ws://127.0.0.1:1/socket",
        "data:text/plain,hi",
        "blob:http://127.0.0.1:8000/abc",
        "about:blank",
        "file:///tmp/index.html",
    ],
)
def test_local_urls(url: str) -> None:
    assert is_local(url)


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/x.js",
        "http://127.0.0.1.example.com/y",
        "http://localhost.example.com/z",
        "ftp://127.0.0.1/file",
        "https://cdn.jsdelivr.net/pyodide/pyodide.js",
    ],
)
def test_urls_that_leave_the_machine(url: str) -> None:
    assert not is_local(url)


def test_chromium_resolves_only_the_loopback() -> None:
    (rules,) = [arg for arg in CHROMIUM_ARGS if arg.startswith("--host-resolver-rules=")]
    assert rules.startswith("--host-resolver-rules=MAP * ~NOTFOUND")
    for host in LOCAL_HOSTS:
        assert f"EXCLUDE {host}" in rules
