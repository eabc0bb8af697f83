#!/usr/bin/env python3
"""Build, serve and test the pysolver web app. Standard library only.

    python3 build.py                  build the static site into dist/
    python3 build.py serve [--port N] build if needed, then serve dist/ on 127.0.0.1 (default 8000)
    python3 build.py test [ARGS]      set up .venv, Chromium and eslint (npm ci), run ruff,
                                      mypy, eslint and every test;
                                      ARGS go to pytest (e.g. -k sudoku)
    python3 build.py bench [ARGS]     run the benchmarks, one table (bench/harness.py; e.g.
                                      --quick, --json FILE, --baseline bench/baseline.json)

The site is everything the page needs, served from one origin and nothing fetched elsewhere:
the front end (web/), the Pyodide runtime (npm package ``pyodide``, pinned and checked against
its registry integrity hash), the micropip wheel (PyPI, pinned by sha256) and a pysolver wheel
written here from the current sources. Downloads happen once, into .cache/; later builds are
offline and take well under a second when nothing changed.

dist/manifest.json tells the worker which files to load (and their sizes, for the loading bar).
The pysolver wheel's version carries a hash of the sources (``0.1.0+<hash>``), so a changed
source gives a new file name and no browser cache can serve a stale wheel. dist/precache.js lists
every file for the service worker (web/sw.js) with a version hashed from their contents, and
dist/readme.html is README.md as a page (each tab's help links to its section).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import html
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
WEB = ROOT / "web"
PACKAGE = ROOT / "pysolver"
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"
VENV = ROOT / ".venv"
README = ROOT / "README.md"
DOCS = ROOT / "docs"

PYODIDE_VERSION = "314.0.7"
# The registry's integrity string for that version (npm view pyodide@314.0.7 dist.integrity).
PYODIDE_INTEGRITY = (
    "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+"
    "HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="
)
# What the worker needs from the npm package; the rest (types, source maps, consoles) stays out.
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
PYODIDE_DIR = f"pyodide-{PYODIDE_VERSION}"

MICROPIP_VERSION = "0.11.1"
MICROPIP_WHEEL = f"micropip-{MICROPIP_VERSION}-py3-none-any.whl"
MICROPIP_SHA256 = "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"
# Pyodide 314 runs CPython 3.14; pip picks the wheel for that interpreter, not ours.
PYODIDE_PYTHON = "3.14"

TEST_REQUIREMENTS = (
    "pytest==9.2.0",
    "playwright==1.65.2",
    "pytest-playwright==0.10.0",
    "ruff==0.17.5",
    "mypy==2.4.1",
    # Property-based fuzzing of the protocol (tests/test_fuzz_protocol.py).
    "hypothesis==6.170.15",
    # The optional "dask" extra of pyproject.toml (the same pin): the cluster tests use it.
    "dask[distributed]==2026.8.0",
)
CHROMIUM = os.environ.get("PYSOLVER_CHROMIUM", "/usr/bin/chromium")

# Files of immutable content (pinned runtime, content-named wheels) may be cached for good;
# everything else must be revalidated so an edit shows on reload.
IMMUTABLE_PREFIXES = (f"/{PYODIDE_DIR}/", "/wheels/")
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


class BuildError(Exception):
    """Something the person running the build must fix; the message says what."""


def log(message: str) -> None:
    print(f"build.py: {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------- downloads (once, into .cache/)


def sri_digest(path: Path) -> str:
    """The npm registry's integrity string (Subresource Integrity form) of a file."""
    digest = hashlib.sha512(path.read_bytes()).digest()
    return "sha512-" + base64.b64encode(digest).decode("ascii")


def fetch_pyodide() -> Path:
    """The pinned Pyodide tarball, fetched with npm once and checked against its integrity."""
    folder = CACHE / "pyodide"
    tarball = folder / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not tarball.exists():
        npm = shutil.which("npm")
        if npm is None:
            raise BuildError(
                "npm is needed once to fetch the Pyodide runtime (npm package pyodide@"
                f"{PYODIDE_VERSION}); install Node.js and npm, or put the tarball at {tarball}"
            )
        folder.mkdir(parents=True, exist_ok=True)
        log(f"fetching pyodide@{PYODIDE_VERSION} with npm pack (once)")
        result = subprocess.run(
            [npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", str(folder)],
            cwd=folder,
            capture_output=True,
            text=True,
        )
        if result.returncode != 0 or not tarball.exists():
            raise BuildError(f"npm pack pyodide@{PYODIDE_VERSION} failed:\n{result.stderr}")
    actual = sri_digest(tarball)
    if actual != PYODIDE_INTEGRITY:
        tarball.unlink()
        raise BuildError(
            f"{tarball.name} does not match its pinned integrity hash (got {actual}); "
            "the corrupt download was deleted, run the build again"
        )
    return tarball


def pyodide_runtime() -> Path:
    """The folder holding the runtime files, extracted from the tarball once."""
    folder = CACHE / "pyodide" / PYODIDE_VERSION
    if all((folder / name).exists() for name in PYODIDE_FILES):
        return folder
    tarball = fetch_pyodide()
    partial = folder.with_name(folder.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    with tarfile.open(tarball) as archive:
        for name in PYODIDE_FILES:
            member = archive.extractfile(f"package/{name}")
            if member is None:
                raise BuildError(f"the Pyodide package has no {name}")
            (partial / name).write_bytes(member.read())
    shutil.rmtree(folder, ignore_errors=True)
    partial.rename(folder)
    return folder


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fetch_micropip() -> Path:
    """The pinned micropip wheel from PyPI, downloaded with pip once and checked by sha256."""
    folder = CACHE / "wheels"
    wheel = folder / MICROPIP_WHEEL
    if not wheel.exists():
        folder.mkdir(parents=True, exist_ok=True)
        log(f"fetching micropip=={MICROPIP_VERSION} with pip download (once)")
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                "--only-binary=:all:",
                "--python-version",
                PYODIDE_PYTHON,
                "--disable-pip-version-check",
                f"micropip=={MICROPIP_VERSION}",
                "-d",
                str(folder),
            ],
            capture_output=True,
            text=True,
        )
        if result.returncode != 0 or not wheel.exists():
            raise BuildError(f"pip download micropip=={MICROPIP_VERSION} failed:\n{result.stderr}")
    if sha256_of(wheel) != MICROPIP_SHA256:
        wheel.unlink()
        raise BuildError(
            f"{MICROPIP_WHEEL} does not match its pinned sha256; "
            "the corrupt download was deleted, run the build again"
        )
    return wheel


# ---------------------------------------------------------------- the pysolver wheel


def package_files() -> list[Path]:
    """Every file of the pysolver package, in a stable order (no bytecode caches)."""
    return sorted(
        path
        for path in PACKAGE.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    )


def package_version() -> str:
    text = (PACKAGE / "__init__.py").read_text(encoding="utf-8")
    match = re.search(r"""^__version__\s*=\s*["']([^"']+)["']""", text, re.MULTILINE)
    if match is None:
        raise BuildError("pysolver/__init__.py has no __version__ = '...' line")
    return match.group(1)


def record_hash(data: bytes) -> str:
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


# Old pysolver wheels are kept for a while: several people may build in one working tree, and a
# page that loaded a manifest a moment ago must still find the wheel it names.
KEEP_OLD_WHEELS = 5


def prune_old_wheels(folder: Path) -> set[Path]:
    """Delete all but the newest few pysolver wheels in folder; return the ones kept."""
    wheels = sorted(folder.glob("pysolver-*.whl"), key=lambda path: path.stat().st_mtime_ns)
    for old in wheels[:-KEEP_OLD_WHEELS]:
        old.unlink(missing_ok=True)
    return set(wheels[-KEEP_OLD_WHEELS:])


def build_pysolver_wheel() -> Path:
    """A pure-Python wheel of the current sources, named by their content hash.

    Written directly with zipfile (a wheel is a zip with METADATA, WHEEL and RECORD): it is
    offline, takes milliseconds, and the same sources always give the same bytes.
    """
    files = package_files()
    source_hash = hashlib.sha256()
    for path in files:
        relative = path.relative_to(ROOT).as_posix()
        source_hash.update(relative.encode() + b"\0" + path.read_bytes() + b"\0")
    version = f"{package_version()}+{source_hash.hexdigest()[:12]}"
    folder = CACHE / "wheels"
    wheel = folder / f"pysolver-{version}-py3-none-any.whl"
    if wheel.exists():
        return wheel
    folder.mkdir(parents=True, exist_ok=True)
    prune_old_wheels(folder)
    dist_info = f"pysolver-{version}.dist-info"
    entries: list[tuple[str, bytes]] = [
        (path.relative_to(ROOT).as_posix(), path.read_bytes()) for path in files
    ]
    entries.append(
        (
            f"{dist_info}/METADATA",
            (
                "Metadata-Version: 2.1\n"
                "Name: pysolver\n"
                f"Version: {version}\n"
                "Summary: Puzzle solvers in pure Python behind one JSON protocol.\n"
                "License: MIT\n"
                "Requires-Python: >=3.11\n"
            ).encode(),
        )
    )
    entries.append(
        (
            f"{dist_info}/WHEEL",
            (
                b"Wheel-Version: 1.0\n"
                b"Generator: pysolver build.py\n"
                b"Root-Is-Purelib: true\n"
                b"Tag: py3-none-any\n"
            ),
        )
    )
    record = "".join(f"{name},{record_hash(data)},{len(data)}\n" for name, data in entries)
    record += f"{dist_info}/RECORD,,\n"
    entries.append((f"{dist_info}/RECORD", record.encode()))
    partial = wheel.with_suffix(".partial")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            # A fixed timestamp keeps the wheel's bytes a function of the sources alone.
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    partial.rename(wheel)
    return wheel


# ---------------------------------------------------------------- the site


def web_files() -> dict[str, Path]:
    """The front end: every file under web/ except hidden and editor files."""
    files = {}
    for path in sorted(WEB.rglob("*")):
        relative = path.relative_to(WEB)
        if not path.is_file() or any(part.startswith(".") for part in relative.parts):
            continue
        if path.name.endswith(("~", ".swp")):
            continue
        files[relative.as_posix()] = path
    return files


def sync_file(source: Path, target: Path) -> bool:
    """Copy source to target unless it is already there (same size and modification time)."""
    if target.exists():
        have, want = target.stat(), source.stat()
        if have.st_size == want.st_size and have.st_mtime_ns == want.st_mtime_ns:
            return False
    target.parent.mkdir(parents=True, exist_ok=True)
    # Copy then rename, so a server reading the file never sees half of it.
    partial = target.with_name(target.name + ".partial")
    shutil.copy2(source, partial)
    partial.replace(target)
    return True


def write_text(path: Path, text: str) -> bool:
    """Write text unless the file already holds exactly that; True if it was written."""
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    # Write then rename, so a server reading the file never sees half of it.
    partial = path.with_suffix(".partial")
    partial.write_text(text, encoding="utf-8")
    partial.replace(path)
    return True


def write_json(path: Path, data: object) -> bool:
    """Write data as JSON unless the file already holds exactly that; True if it was written."""
    return write_text(path, json.dumps(data, indent=2) + "\n")


def puzzle_facts() -> dict:
    """pysolver.facts.site_facts() from the sources in this checkout (not an installed copy)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from pysolver.facts import site_facts

    return site_facts()


# The service worker (web/sw.js) precaches the site for offline use. Its list and version come
# from the build, in a script it imports: a rebuild changes that script, which is what makes
# browsers install the new service worker (they compare a worker's scripts byte for byte).
PRECACHE_SCRIPT = "precache.js"
README_PAGE = "readme.html"
SERVICE_WORKER = "sw.js"


def precache_script(dist: Path, relatives: list[str]) -> str:
    """The text of dist/precache.js: the files to keep offline and a version naming their content.

    The version hashes every file's path and bytes, so any change to the site, the runtime or
    a wheel gives a new cache name and the previous cache is dropped.
    """
    version = hashlib.sha256()
    for relative in sorted(relatives):
        version.update(relative.encode() + b"\0" + (dist / relative).read_bytes() + b"\0")
    data = {
        "version": version.hexdigest()[:16],
        # "./" is the page itself, as a visitor navigates to it.
        "files": ["./", *sorted(relatives)],
        "immutable": [prefix.lstrip("/") for prefix in IMMUTABLE_PREFIXES],
    }
    return (
        "// Written by build.py: what web/sw.js keeps for offline use. Do not edit.\n"
        f"self.PRECACHE = {json.dumps(data, indent=2)};\n"
    )


def build_site(quiet: bool = False) -> dict:
    """Bring dist/ up to date with the sources; return the manifest. Fast when nothing changed."""
    runtime = pyodide_runtime()
    micropip = fetch_micropip()
    pysolver_wheel = build_pysolver_wheel()
    wanted: dict[str, Path] = dict(web_files())
    for name in PYODIDE_FILES:
        wanted[f"{PYODIDE_DIR}/{name}"] = runtime / name
    wanted[f"wheels/{micropip.name}"] = micropip
    wanted[f"wheels/{pysolver_wheel.name}"] = pysolver_wheel
    # The README's pictures, for readme.html.
    for picture in sorted(DOCS.glob("*.png")):
        wanted[f"docs/{picture.name}"] = picture
    manifest = {
        "pyodide": {"version": PYODIDE_VERSION, "indexURL": f"{PYODIDE_DIR}/"},
        "micropip": {
            "version": MICROPIP_VERSION,
            "wheel": f"wheels/{micropip.name}",
            "sha256": MICROPIP_SHA256,
        },
        "pysolver": {
            "version": pysolver_wheel.name.split("-")[1],
            "wheel": f"wheels/{pysolver_wheel.name}",
            "sha256": sha256_of(pysolver_wheel),
        },
        # Sizes of the files the worker downloads, so the page can show loading progress.
        "bytes": {
            relative: wanted[relative].stat().st_size
            for relative in (
                f"{PYODIDE_DIR}/pyodide.asm.wasm",
                f"{PYODIDE_DIR}/python_stdlib.zip",
                f"wheels/{micropip.name}",
                f"wheels/{pysolver_wheel.name}",
            )
        },
    }
    DIST.mkdir(exist_ok=True)
    changed = 0
    for relative, source in wanted.items():
        changed += sync_file(source, DIST / relative)
    changed += write_json(DIST / "manifest.json", manifest)
    # The puzzle facts come from the package itself, so the page never types them again.
    changed += write_json(DIST / "facts.json", puzzle_facts())
    # The README as a page, so each tab's help can link to its puzzle's section.
    changed += write_text(DIST / README_PAGE, readme_html(README.read_text(encoding="utf-8")))
    generated = ["manifest.json", "facts.json", README_PAGE]
    offline = [name for name in [*wanted, *generated] if name != SERVICE_WORKER]
    changed += write_text(DIST / PRECACHE_SCRIPT, precache_script(DIST, offline))
    keep = set(wanted) | {*generated, PRECACHE_SCRIPT}
    keep |= {f"wheels/{path.name}" for path in prune_old_wheels(DIST / "wheels")}
    for path in sorted(DIST.rglob("*"), reverse=True):
        relative = path.relative_to(DIST).as_posix()
        if path.is_file() and relative not in keep:
            path.unlink()
            changed += 1
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    if not quiet:
        version = manifest["pysolver"]["version"]
        log(f"dist/ is up to date ({changed} files written or removed), pysolver {version}")
    return manifest


# ---------------------------------------------------------------- the README as a page


def heading_anchor(title: str) -> str:
    """GitHub's anchor for a heading (lower case, punctuation dropped, spaces as hyphens).

    web/help.js links each tab to readme.html#<anchor of the kind's title>; the same link
    works on GitHub's rendering of README.md.
    """
    kept = "".join(char for char in title.strip().lower() if char.isalnum() or char in " -_")
    return kept.replace(" ", "-")


def inline_html(text: str) -> str:
    """Markdown's inline marks used in README.md (code, bold, links, images) as HTML.

    <img> tags written in the README (pictures with a width) pass through as they are.
    """
    pieces = re.split(r"(`[^`]+`|<img [^>]*>)", text)
    out = []
    for piece in pieces:
        if piece.startswith("`") and piece.endswith("`") and len(piece) > 1:
            out.append(f"<code>{html.escape(piece[1:-1])}</code>")
            continue
        if piece.startswith("<img "):
            out.append(piece)
            continue
        piece = html.escape(piece, quote=False)
        piece = re.sub(r"!\[([^\]]*)\]\(([^)\s]+)\)", r'<img src="\2" alt="\1">', piece)
        piece = re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", r'<a href="\2">\1</a>', piece)
        piece = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", piece)
        out.append(piece)
    return "".join(out)


def readme_html(markdown: str) -> str:
    """README.md as a page of the site: the subset of Markdown it uses (headings, paragraphs,
    lists, tables, code blocks, inline marks), headings anchored as on GitHub."""
    lines = markdown.splitlines()
    body: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("```"):
            end = index + 1
            while end < len(lines) and not lines[end].startswith("```"):
                end += 1
            body.append(
                "<pre><code>" + html.escape("\n".join(lines[index + 1 : end])) + "</code></pre>"
            )
            index = end + 1
        elif match := re.match(r"(#{1,6}) (.*)", line):
            level, title = len(match.group(1)), match.group(2)
            anchor = heading_anchor(title)
            body.append(f'<h{level} id="{anchor}">{inline_html(title)}</h{level}>')
            index += 1
        elif line.startswith("|"):
            rows = []
            while index < len(lines) and lines[index].startswith("|"):
                cells = [cell.strip() for cell in lines[index].strip().strip("|").split(" | ")]
                if not all(set(cell) <= set("-: ") for cell in cells):
                    rows.append(cells)
                index += 1
            head, *rest = rows
            table = ["<table><thead><tr>"]
            table += [f"<th>{inline_html(cell)}</th>" for cell in head]
            table.append("</tr></thead><tbody>")
            for row in rest:
                table.append("<tr>" + "".join(f"<td>{inline_html(c)}</td>" for c in row) + "</tr>")
            body.append("".join(table) + "</tbody></table>")
        elif line.startswith("- "):
            items = []
            while index < len(lines) and (
                lines[index].startswith("- ") or (items and lines[index].startswith("  "))
            ):
                if lines[index].startswith("- "):
                    items.append(lines[index][2:])
                else:
                    items[-1] += " " + lines[index].strip()
                index += 1
            body.append(
                "<ul>" + "".join(f"<li>{inline_html(item)}</li>" for item in items) + "</ul>"
            )
        elif line.strip():
            paragraph = []
            while (
                index < len(lines)
                and lines[index].strip()
                and not re.match(r"(#{1,6} |```|\||- )", lines[index])
            ):
                paragraph.append(lines[index].strip())
                index += 1
            body.append(f"<p>{inline_html(' '.join(paragraph))}</p>")
        else:
            index += 1
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "<title>pysolver: README</title>\n"
        '<link rel="stylesheet" href="style.css">\n</head>\n'
        '<body class="readme">\n<main>\n' + "\n".join(body) + "\n</main>\n</body>\n</html>\n"
    )


# ---------------------------------------------------------------- serving


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files of dist/ with the headers Pyodide and SharedArrayBuffer need."""

    protocol_version = "HTTP/1.1"
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    # Cross-origin isolation (COOP + COEP) makes SharedArrayBuffer available, which lets a
    # running solve be cancelled without killing the worker. The test server turns it off to
    # exercise the other path.
    isolated = True
    verbose = False

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, directory=str(DIST), **kwargs)

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

    def log_message(self, format: str, *args) -> None:  # noqa: A002 (the base class's name)
        if self.verbose:
            super().log_message(format, *args)


class SiteServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        # A browser that closes a connection mid-download is not an error worth a traceback.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def make_server(port: int = 8000, isolated: bool = True, verbose: bool = False) -> SiteServer:
    """A server for dist/ on 127.0.0.1 (port 0 picks a free port); call serve_forever()."""
    handler = type(
        "ConfiguredSiteHandler", (SiteHandler,), {"isolated": isolated, "verbose": verbose}
    )
    return SiteServer(("127.0.0.1", port), handler)


def serve(port: int, isolated: bool, verbose: bool) -> int:
    build_site()
    try:
        server = make_server(port, isolated, verbose)
    except OSError as exc:
        log(f"cannot listen on 127.0.0.1:{port}: {exc.strerror}; try --port 0 for a free port")
        return 1
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    mode = "cross-origin isolated" if isolated else "not cross-origin isolated"
    print(f"Serving dist/ at {url} ({mode}); press Ctrl+C to stop.", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


# ---------------------------------------------------------------- testing


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_venv() -> Path:
    """.venv with the pinned test tools; reused while its recorded requirements still match."""
    python = venv_python()
    stamp = VENV / "pysolver-requirements.txt"
    wanted = "\n".join(TEST_REQUIREMENTS) + "\n"
    if python.exists() and stamp.exists() and stamp.read_text(encoding="utf-8") == wanted:
        return python
    if not python.exists():
        log("creating .venv")
        result = subprocess.run([sys.executable, "-m", "venv", str(VENV)])
        if result.returncode != 0 or not python.exists():
            raise BuildError(
                "could not create .venv; on Debian or Ubuntu install python3-venv "
                "(apt-get install python3-venv) and run again"
            )
    log("installing " + " ".join(TEST_REQUIREMENTS) + " into .venv")
    result = subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            *TEST_REQUIREMENTS,
        ]
    )
    if result.returncode != 0:
        raise BuildError("pip could not install the test tools into .venv (see above)")
    stamp.write_text(wanted, encoding="utf-8")
    return python


def ensure_chromium() -> str:
    """Debian's Chromium for the browser tests, installed with apt-get when it is missing."""
    if Path(CHROMIUM).exists():
        return CHROMIUM
    apt_get = shutil.which("apt-get")
    is_root = hasattr(os, "geteuid") and os.geteuid() == 0
    if apt_get is None or not is_root:
        raise BuildError(
            f"the browser tests need Chromium at {CHROMIUM}, which is missing. Install it "
            "(Debian/Ubuntu: sudo apt-get install chromium) or point PYSOLVER_CHROMIUM at a "
            "Chromium or Chrome binary, then run again"
        )
    log("installing Debian's chromium with apt-get (once)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in ([apt_get, "update"], [apt_get, "install", "-y", "chromium"]):
        result = subprocess.run(command, env=env, stdin=subprocess.DEVNULL)
        if result.returncode != 0:
            raise BuildError(f"{' '.join(command)} failed (exit {result.returncode})")
    if not Path(CHROMIUM).exists():
        raise BuildError(f"apt-get installed chromium but {CHROMIUM} is still missing")
    return CHROMIUM


def ensure_js_lint() -> list[str]:
    """The pinned JavaScript linter (package.json + package-lock.json), installed with npm ci.

    Returns the command that lints web/. Reinstalled only when the lock file changed.
    """
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        raise BuildError(
            "Node.js and npm are needed to lint web/ (the pinned eslint in package.json); "
            "install them (Debian/Ubuntu: sudo apt-get install nodejs npm) and run again"
        )
    lock = ROOT / "package-lock.json"
    stamp = ROOT / "node_modules" / ".pysolver-lock-sha256"
    eslint = ROOT / "node_modules" / "eslint" / "bin" / "eslint.js"
    wanted = sha256_of(lock)
    if not (eslint.exists() and stamp.exists() and stamp.read_text(encoding="utf-8") == wanted):
        log("installing the pinned JavaScript linter with npm ci")
        result = subprocess.run(
            [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=ROOT
        )
        if result.returncode != 0 or not eslint.exists():
            raise BuildError("npm ci could not install the JavaScript linter (see above)")
        stamp.write_text(wanted, encoding="utf-8")
    return [node, str(eslint), "--max-warnings", "0", "web"]


def run_tests(pytest_args: list[str]) -> int:
    python = ensure_venv()
    chromium = ensure_chromium()
    eslint = ensure_js_lint()
    build_site()
    env = {
        **os.environ,
        "PYSOLVER_CHROMIUM": chromium,
        "PYSOLVER_REQUIRE_E2E": "1",
        "PYSOLVER_REQUIRE_NODE": "1",
    }
    failures = []
    for name, command in (
        ("ruff check", [str(python), "-m", "ruff", "check", "."]),
        ("ruff format --check", [str(python), "-m", "ruff", "format", "--check", "."]),
        # Files and strictness come from [tool.mypy] in pyproject.toml.
        ("mypy", [str(python), "-m", "mypy"]),
        ("eslint web", eslint),
    ):
        print(f"$ {name}", flush=True)
        if subprocess.run(command, cwd=ROOT, env=env).returncode != 0:
            failures.append(name)
    if failures:
        print(f"build.py: {' and '.join(failures)} failed (see above)", flush=True)
    # pytest runs last so its summary line closes the output.
    status = subprocess.run([str(python), "-m", "pytest", *pytest_args], cwd=ROOT, env=env)
    if status.returncode != 0:
        return status.returncode
    return 1 if failures else 0


# ---------------------------------------------------------------- benchmarks


def run_bench(bench_args: list[str]) -> int:
    """The benchmark suite (bench/harness.py), with this Python; the browser rows (--browser)
    run in .venv, which has Playwright, against Chromium."""
    python, env = Path(sys.executable), dict(os.environ)
    if "--browser" in bench_args:
        python = ensure_venv()
        env["PYSOLVER_CHROMIUM"] = ensure_chromium()
    command = [str(python), "-m", "bench.harness", *bench_args]
    return subprocess.run(command, cwd=ROOT, env=env).returncode


# ---------------------------------------------------------------- command line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 build.py",
        description="Build the pysolver site into dist/, serve it, or run every test.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.add_parser("build", help="build dist/ (the default)")
    serve_parser = commands.add_parser("serve", help="build, then serve dist/ on 127.0.0.1")
    serve_parser.add_argument("--port", type=int, default=8000, help="port (0: any free one)")
    serve_parser.add_argument(
        "--no-isolation",
        action="store_true",
        help="omit the COOP/COEP headers (cancel then restarts the worker)",
    )
    serve_parser.add_argument("--verbose", action="store_true", help="log every request")
    test_parser = commands.add_parser(
        "test",
        help="set up .venv, Chromium and eslint, run ruff, mypy, eslint and all tests; "
        "extra args go to pytest",
    )
    test_parser.add_argument("pytest_args", nargs=argparse.REMAINDER)
    bench_parser = commands.add_parser(
        "bench",
        add_help=False,  # --help goes to the harness, which lists its options
        help="run the benchmarks and print one table; args go to bench/harness.py "
        "(--quick, --full, --browser, --only TEXT, --repeat N, --json FILE, --baseline FILE)",
    )
    bench_parser.add_argument("bench_args", nargs=argparse.REMAINDER)
    args, extra = parser.parse_known_args(argv)
    try:
        if args.command == "test":
            return run_tests([*extra, *args.pytest_args])
        if args.command == "bench":
            return run_bench([*extra, *args.bench_args])
        if extra:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        if args.command == "serve":
            return serve(args.port, not args.no_isolation, args.verbose)
        build_site()
        return 0
    except BuildError as error:
        log(f"error: {error}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
