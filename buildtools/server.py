"""The dev server for dist/: the right MIME types, cache headers (immutable for the pinned
runtime and content-named wheels, revalidated for everything else) and cross-origin isolation."""

from __future__ import annotations

import email.utils
import http.server
import os
import sys
from typing import Any, cast

from buildtools.repo import DIST, log
from buildtools.site import GZIP_SUFFIX, IMMUTABLE_PREFIXES, build_site

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
    ".webmanifest": "application/manifest+json",
}


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files of dist/ with the headers Pyodide and SharedArrayBuffer need."""

    protocol_version = "HTTP/1.1"
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    # Cross-origin isolation (COOP + COEP) makes SharedArrayBuffer available, which lets a
    # running solve be cancelled without killing the worker. The test server turns it off to
    # exercise the other path.
    isolated = True
    verbose = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # dist/ unless told (the loading benchmark also serves a copy of an earlier build).
        kwargs.setdefault("directory", str(DIST))
        super().__init__(*args, **kwargs)

    def send_head(self) -> Any:
        """The file's ".gz" (built beside it by buildtools/site.py) with Content-Encoding: gzip
        when the browser accepts gzip, as static hosts send precompressed files; else the
        file itself. A path no file can have (a NUL, a lone surrogate: ``%00``, ``%ed%a0%80``),
        which the file system calls refuse with a ValueError, is a bad request (400)."""
        try:
            return self._send_head()
        except ValueError:
            self.send_error(http.HTTPStatus.BAD_REQUEST, "Bad request: no file has this path")
            return None

    def list_directory(self, path: str | os.PathLike[str]) -> None:
        """No listings: a directory without an index.html is not found (404), as on a static
        host (the base class would list dist/'s folders: the runtime, the wheels, the docs)."""
        self.send_error(http.HTTPStatus.NOT_FOUND, "File not found")

    def _send_head(self) -> Any:
        packed = self._gzip_path()
        if packed is None:
            return super().send_head()
        stat = os.stat(packed)
        since = self.headers.get("If-Modified-Since")
        if since and "If-None-Match" not in self.headers:
            try:
                seen = email.utils.parsedate_to_datetime(since).timestamp()
                unchanged = seen >= int(stat.st_mtime)
            except (TypeError, ValueError, OverflowError):
                unchanged = False
            if unchanged:
                self.send_response(http.HTTPStatus.NOT_MODIFIED)
                self.send_header("Vary", "Accept-Encoding")
                self.end_headers()
                return None
        source = open(packed, "rb")  # noqa: SIM115 (copyfile reads it; the base class closes it)
        self.send_response(http.HTTPStatus.OK)
        self.send_header("Content-Type", self.guess_type(packed.removesuffix(GZIP_SUFFIX)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(stat.st_size))
        self.send_header("Last-Modified", self.date_time_string(int(stat.st_mtime)))
        self.end_headers()
        return source

    def _gzip_path(self) -> str | None:
        """The ".gz" to send for this request, or None (not accepted, none built, a range)."""
        accepted = self.headers.get("Accept-Encoding", "")
        if "gzip" not in [part.split(";")[0].strip() for part in accepted.split(",")]:
            return None
        if "Range" in self.headers:
            return None
        path = self.translate_path(self.path)
        if os.path.isdir(path) and self.path.split("?", 1)[0].endswith("/"):
            path = os.path.join(path, "index.html")  # the page itself, as "/" asks for it
        packed = path + GZIP_SUFFIX
        if not os.path.isfile(path) or not os.path.isfile(packed):
            return None
        return packed

    def end_headers(self) -> None:
        path = self.path.split("?", 1)[0]
        if path.startswith(IMMUTABLE_PREFIXES):
            self.send_header("Cache-Control", "public, max-age=31536000, immutable")
        else:
            self.send_header("Cache-Control", "no-cache")
        if self.isolated:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
            self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base class's name)
        if self.verbose:
            super().log_message(format, *args)


class SiteServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A browser that closes a connection mid-download is not an error worth a traceback.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


LOOPBACK = "127.0.0.1"


def make_server(
    port: int = 8000, isolated: bool = True, verbose: bool = False, host: str = LOOPBACK
) -> SiteServer:
    """A server for dist/ on host (127.0.0.1 unless asked; port 0 picks a free port); call
    serve_forever()."""
    handler = cast(
        "type[SiteHandler]",
        type("ConfiguredSiteHandler", (SiteHandler,), {"isolated": isolated, "verbose": verbose}),
    )
    return SiteServer((host, port), handler)


def serve(port: int, isolated: bool, verbose: bool, host: str = LOOPBACK) -> int:
    build_site()
    try:
        server = make_server(port, isolated, verbose, host)
    except OSError as exc:
        log(f"cannot listen on {host}:{port}: {exc.strerror}; try --port 0 for a free port")
        return 1
    url = f"http://{host}:{server.server_address[1]}/"
    mode = "cross-origin isolated" if isolated else "not cross-origin isolated"
    print(f"Serving dist/ at {url} ({mode}); press Ctrl+C to stop.", flush=True)
    if host != LOOPBACK:
        # Browsers give plain http only on localhost what the page's extras need.
        print(
            "Other devices reach it at this machine's address. Over plain http from another "
            "address the page works, but without offline use or cancelling in place (browsers "
            "keep service workers and cross-origin isolation for https and localhost).",
            flush=True,
        )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
