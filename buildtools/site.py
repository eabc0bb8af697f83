"""dist/, the site: everything the page needs, from one origin, nothing fetched elsewhere.

The front end (every file under web/, walked recursively), the Pyodide runtime and the pysolver
wheel (Pyodide's own loader installs it: no package installer); dist/manifest.json tells the
worker which files to load (and their sizes, for the loading bar), dist/facts.json holds the
puzzle facts, dist/readme.html the README, dist/guide.html the guide for people using the page
(docs/guide.md), dist/docs/<name>.html the developers' pages (docs/<name>.md), dist/api.html the
API reference (from the docstrings: ``buildtools.apidocs``), and dist/precache.js lists the files
the service worker (web/sw.js) keeps at install (``kept_offline``) with a version hashed from
their contents.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import posixpath
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from buildtools import markdown
from buildtools.apidocs import api_markdown
from buildtools.downloads import PYODIDE_DIR, PYODIDE_FILES, PYODIDE_VERSION, pyodide_runtime
from buildtools.repo import DIST, DOCS, README, ROOT, WEB, log, sha256_of
from buildtools.wheel import build_pysolver_wheel, prune_old_wheels

# Files of immutable content (pinned runtime, content-named wheels) may be cached for good;
# everything else must be revalidated so an edit shows on reload.
IMMUTABLE_PREFIXES = (f"/{PYODIDE_DIR}/", "/wheels/")


def web_files() -> dict[str, Path]:
    """The front end: every file under web/ except hidden and editor files."""
    files: dict[str, Path] = {}
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


# Files sent compressed when the browser accepts it (as static hosts do): a ".gz" beside each
# (buildtools/server.py sends it). Text and WebAssembly shrink to a third or less; pictures,
# wheels and the runtime's stdlib zip are compressed already.
COMPRESSIBLE = (".html", ".js", ".mjs", ".css", ".json", ".svg", ".txt", ".webmanifest", ".wasm")
GZIP_SUFFIX = ".gz"


def write_gzip(path: Path) -> bool:
    """Write path + ".gz" unless it is already newer than path; True if it was written."""
    packed = path.with_name(path.name + GZIP_SUFFIX)
    if packed.exists() and packed.stat().st_mtime_ns >= path.stat().st_mtime_ns:
        return False
    # mtime=0: the same file always gives the same bytes.
    data = gzip.compress(path.read_bytes(), compresslevel=9, mtime=0)
    partial = packed.with_name(packed.name + ".partial")
    partial.write_bytes(data)
    partial.replace(packed)
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


def puzzle_facts() -> dict[str, Any]:
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
# The short guide for people using the page (docs/guide.md); the tabs' help links to it.
GUIDE = DOCS / "guide.md"
GUIDE_PAGE = "guide.html"
# The API reference, written from the library's docstrings (buildtools.apidocs).
API_PAGE = "api.html"
SERVICE_WORKER = "sw.js"


def markdown_pages() -> dict[str, Path]:
    """The site's pages made from the repository's Markdown, each with its source: the README,
    the guide (at the top, where the tabs' help links), and every other docs/<name>.md as
    docs/<name>.html, beside the pictures it shows."""
    pages = {README_PAGE: README, GUIDE_PAGE: GUIDE}
    for source in sorted(DOCS.glob("*.md")):
        if source != GUIDE:
            pages[f"docs/{source.stem}.html"] = source
    return pages


def docs_pictures() -> dict[str, Path]:
    """The pictures the README and docs/ show, at the same place on the site as in the checkout."""
    return {f"docs/{picture.name}": picture for picture in sorted(DOCS.glob("*.png"))}


def relinker(source: Path, page: str, served: set[str]) -> markdown.Relink:
    """How the links of ``source`` (a Markdown file of the checkout) read on ``page``: a link to
    another Markdown file goes to its page, a link to a file the site serves (a picture) to that
    file, both relative to the page's folder; a link to anything else of the checkout (source
    files, which GitHub shows) becomes plain text, and web addresses and a page's own anchors
    stay as written."""
    pages_by_source = {
        path.relative_to(ROOT).as_posix(): name for name, path in markdown_pages().items()
    }
    folder = source.parent.relative_to(ROOT).as_posix()

    def relink(target: str) -> str | None:
        if target.startswith("#") or re.match(r"[a-z][a-z0-9+.-]*:", target):
            return target
        path, hash_mark, anchor = target.partition("#")
        in_checkout = posixpath.normpath(posixpath.join(folder, path))
        on_site = pages_by_source.get(in_checkout, in_checkout)
        if on_site not in served:
            return None
        return posixpath.relpath(on_site, posixpath.dirname(page) or ".") + hash_mark + anchor

    return relink


def markdown_page(page: str, source: Path, served: set[str]) -> str:
    """The HTML of one of ``markdown_pages()``, its title its first heading's text."""
    text = source.read_text(encoding="utf-8")
    first = re.search(r"^# (.+)$", text, re.MULTILINE)
    title = "README" if page == README_PAGE else first.group(1) if first else source.stem
    root = "../" * page.count("/")
    return markdown.readme_html(text, title, relinker(source, page, served), root)


def kept_offline(relative: str) -> bool:
    """Whether the service worker keeps a file of the site at install: what the page needs (the
    page, the runtime, the wheel, the guide its help links to), not the developers' pages (the
    README, docs/, the API reference) and the README's pictures (half a megabyte a first visit
    would fetch for nothing; the worker still keeps them once visited), nor the worker itself."""
    developers = (SERVICE_WORKER, README_PAGE, API_PAGE)
    return relative not in developers and not relative.startswith("docs/")


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


# Start-up hints written into the page (index.html) at build time, before </head>: every module of
# app.js's static import graph, and of each kind's folder the page imports by name at run time
# (web/kinds/KIND/index.js, KIND a key of facts.json's "kinds"), as a modulepreload, so the
# browser fetches them at once instead of level by level (and not only once facts.json has
# named the kinds) and the worker that loads Python starts sooner; and the runtime's two big
# downloads as preloads, so they start while the page's own scripts still load (the worker's
# requests for them then find them in the HTTP cache, or join them while they stream).
PAGE = "index.html"
PAGE_SCRIPT = "app.js"
STATIC_IMPORT = re.compile(
    r"""^\s*(?:import|export)\b[^"'`;]*?\bfrom\s*["'](\.{1,2}/[^"']+)["']"""
    r"""|^\s*import\s*["'](\.{1,2}/[^"']+)["']""",
    re.MULTILINE,
)
BIG_DOWNLOADS = ("pyodide.asm.wasm", "python_stdlib.zip")


def static_imports(entry: str, files: dict[str, Path]) -> list[str]:
    """The modules ``entry`` (a path under web/) imports, directly or not, by static import or
    export-from statements (dynamic import() is left to run time), sorted; not ``entry``."""
    seen: set[str] = set()
    todo = [entry]
    while todo:
        name = todo.pop()
        if name in seen or name not in files:
            continue
        seen.add(name)
        for match in STATIC_IMPORT.finditer(files[name].read_text(encoding="utf-8")):
            target = posixpath.join(posixpath.dirname(name), match.group(1) or match.group(2))
            todo.append(posixpath.normpath(target))
    return sorted(seen - {entry})


def page_modules(files: dict[str, Path], kinds: list[str]) -> list[str]:
    """The modules the page loads at start-up: app.js's static import graph and, for each kind,
    its folder's index.js with that one's graph (the kinds without a folder left out: the page
    says so itself), sorted; not app.js."""
    modules = set(static_imports(PAGE_SCRIPT, files))
    for kind in kinds:
        entry = f"kinds/{kind}/index.js"
        if entry in files:
            modules |= {entry, *static_imports(entry, files)}
    return sorted(modules - {PAGE_SCRIPT})


def page_with_hints(page: str, modules: list[str], downloads: list[str]) -> str:
    """The page's HTML with a modulepreload link per module and a preload per big download."""
    links = [f'  <link rel="modulepreload" href="{module}">' for module in modules]
    links += [f'  <link rel="preload" href="{path}" as="fetch" crossorigin>' for path in downloads]
    if "</head>" not in page:
        raise ValueError(f"{PAGE} has no </head> to put the start-up hints before")
    return page.replace("</head>", "\n".join(links) + "\n</head>", 1)


@contextlib.contextmanager
def one_build_at_a_time(dist: Path) -> Iterator[None]:
    """Hold a lock for building ``dist`` while the block runs, so builds of one dist/ take turns.

    pytest-xdist's workers each bring dist/ up to date at start (the browser tests' fixture), and
    one build's sweep of files it does not know would delete another's half-written
    ``.partial`` file. The lock is a file in the temporary folder named after dist/'s path (not
    in dist/, which the server serves; not in the checkout, which git would list). Where
    ``fcntl`` is missing (Windows) builds do not take turns.
    """
    if sys.platform == "win32":
        yield
        return
    import fcntl

    key = hashlib.sha256(str(dist.resolve()).encode()).hexdigest()[:16]
    with open(Path(tempfile.gettempdir()) / f"pysolver-dist-{key}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def build_site(quiet: bool = False) -> dict[str, Any]:
    """Bring dist/ up to date with the sources; return the manifest. Fast when nothing changed.

    Builds of the same dist/ take turns (``one_build_at_a_time``)."""
    with one_build_at_a_time(DIST):
        return _build_site(quiet)


def _build_site(quiet: bool) -> dict[str, Any]:
    runtime = pyodide_runtime()
    pysolver_wheel = build_pysolver_wheel()
    wanted: dict[str, Path] = dict(web_files())
    for name in PYODIDE_FILES:
        wanted[f"{PYODIDE_DIR}/{name}"] = runtime / name
    wanted[f"wheels/{pysolver_wheel.name}"] = pysolver_wheel
    # The pictures of the README and docs/, for their pages.
    wanted.update(docs_pictures())
    manifest: dict[str, Any] = {
        "pyodide": {"version": PYODIDE_VERSION, "indexURL": f"{PYODIDE_DIR}/"},
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
                f"wheels/{pysolver_wheel.name}",
            )
        },
    }
    DIST.mkdir(exist_ok=True)
    changed = 0
    for relative, source in wanted.items():
        if relative != PAGE:
            changed += sync_file(source, DIST / relative)
    changed += write_json(DIST / "manifest.json", manifest)
    # The page itself, with its start-up hints (written over the copy when they change it).
    page = wanted[PAGE].read_text(encoding="utf-8")
    big = [f"{PYODIDE_DIR}/{name}" for name in BIG_DOWNLOADS]
    # The puzzle facts come from the package itself, so the page never types them again.
    facts = puzzle_facts()
    hinted = page_with_hints(page, page_modules(web_files(), list(facts["kinds"])), big)
    changed += write_text(DIST / PAGE, hinted)
    changed += write_json(DIST / "facts.json", facts)
    # The README, the guide and docs/ as pages; each tab's help links to its puzzle's guide
    # section. Their links go to what the site serves (a link to a source file stays text).
    pages = markdown_pages()
    generated = ["manifest.json", "facts.json", *pages, API_PAGE]
    served = {*wanted, *generated}
    for name, source in pages.items():
        (DIST / name).parent.mkdir(parents=True, exist_ok=True)
        changed += write_text(DIST / name, markdown_page(name, source, served))
    api = markdown.readme_html(api_markdown(), "API reference")
    changed += write_text(DIST / API_PAGE, api)
    offline = [name for name in [*wanted, *generated] if kept_offline(name)]
    changed += write_text(DIST / PRECACHE_SCRIPT, precache_script(DIST, offline))
    keep = set(wanted) | {*generated, PRECACHE_SCRIPT}
    packed = [name for name in keep if name.endswith(COMPRESSIBLE)]
    changed += sum(write_gzip(DIST / name) for name in packed)
    keep |= {name + GZIP_SUFFIX for name in packed}
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
        done = f"{changed} files written or removed" if changed else "nothing changed"
        log(f"dist/ is built ({done}), pysolver {version}")
    return manifest
