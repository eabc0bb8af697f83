"""The site's precompressed files: build.py writes a ".gz" beside each text file and the
WebAssembly runtime, and ``build.py serve`` sends it to a browser that accepts gzip (issue 21:
the first visit's bytes over the wire)."""

from __future__ import annotations

import gzip
import http.client
from collections.abc import Iterator

import pytest

from bench.browser import start_server
from buildtools.repo import DIST
from buildtools.server import make_server
from buildtools.site import COMPRESSIBLE, GZIP_SUFFIX, build_site


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[str, int]]:
    build_site(quiet=True)
    server = make_server(port=0)
    start_server(server)
    try:
        yield server.server_address[:2]
    finally:
        server.shutdown()
        server.server_close()


def fetch(site: tuple[str, int], path: str, headers: dict[str, str]) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection(*site, timeout=30)
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    response.body = response.read()  # type: ignore[attr-defined]
    connection.close()
    return response


def test_every_compressible_file_has_its_gzip_beside_it(site) -> None:
    originals = [
        path for path in DIST.rglob("*") if path.is_file() and path.name.endswith(COMPRESSIBLE)
    ]
    assert any(path.suffix == ".wasm" for path in originals)
    for path in originals:
        packed = path.with_name(path.name + GZIP_SUFFIX)
        assert gzip.decompress(packed.read_bytes()) == path.read_bytes(), path


@pytest.mark.parametrize("path", ["/", "/app.js", "/facts.json", "/style.css"])
def test_the_server_sends_gzip_to_who_accepts_it(site, path: str) -> None:
    plain = fetch(site, path, {})
    packed = fetch(site, path, {"Accept-Encoding": "gzip, deflate, br"})
    assert plain.status == packed.status == 200
    assert plain.getheader("Content-Encoding") is None
    assert packed.getheader("Content-Encoding") == "gzip"
    assert packed.getheader("Vary") == "Accept-Encoding"
    assert packed.getheader("Content-Type") == plain.getheader("Content-Type")
    assert packed.getheader("Cross-Origin-Embedder-Policy") == "require-corp"
    assert gzip.decompress(packed.body) == plain.body
    assert len(packed.body) < len(plain.body)
    # A revalidation answers 304 for the compressed copy too.
    again = fetch(
        site,
        path,
        {"Accept-Encoding": "gzip", "If-Modified-Since": packed.getheader("Last-Modified")},
    )
    assert again.status == 304


def test_pictures_and_wheels_are_sent_as_they_are(site) -> None:
    response = fetch(site, "/icons/icon-192.png", {"Accept-Encoding": "gzip"})
    assert response.status == 200 and response.getheader("Content-Encoding") is None


def test_serve_takes_a_host_for_trying_the_page_on_a_phone() -> None:
    import build

    args = build.parser().parse_args(["serve", "--host", "0.0.0.0", "--port", "0"])
    assert (args.host, args.port) == ("0.0.0.0", 0)
    assert build.parser().parse_args(["serve"]).host == "127.0.0.1"
    server = make_server(port=0, host="0.0.0.0")
    try:
        assert server.server_address[0] == "0.0.0.0"
    finally:
        server.server_close()
