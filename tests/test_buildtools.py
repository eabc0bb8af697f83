"""The build tools one piece at a time: the Markdown converter's output, the server's MIME types
and headers, the front end walked folder by folder, the precache list against the built site,
the pysolver wheel (deterministic, pure, no runtime dependencies), the download checks, and
build.py staying a thin command line over them."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import subprocess
import sys
import urllib.request
import zipfile
from pathlib import Path

import pytest

from bench.browser import start_server
from buildtools import downloads, markdown, server, site, wheel

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------- markdown


def test_markdown_inline_marks() -> None:
    assert markdown.inline_html("run `a < b` now") == "run <code>a &lt; b</code> now"
    assert markdown.inline_html("**bold** & [link](https://x.org/a)") == (
        '<strong>bold</strong> &amp; <a href="https://x.org/a">link</a>'
    )
    assert (
        markdown.inline_html("![alt text](docs/a.png)") == '<img src="docs/a.png" alt="alt text">'
    )
    # A picture written as HTML (to give it a width) passes through untouched.
    assert markdown.inline_html('<img src="a.png" width="300">') == '<img src="a.png" width="300">'


def test_markdown_blocks() -> None:
    page = markdown.readme_html(
        "# Title `x`\n"
        "\n"
        "One line\n"
        "and its continuation.\n"
        "\n"
        "- first\n"
        "  continued\n"
        "- second\n"
        "\n"
        "| a | b |\n"
        "| --- | :-: |\n"
        "| 1 | `2` |\n"
        "\n"
        "```\n"
        "<not a tag>\n"
        "```\n"
    )
    body = page[page.index("<main>\n") + len("<main>\n") : page.index("\n</main>")]
    assert body.split("\n") == [
        '<h1 id="title-x">Title <code>x</code></h1>',
        "<p>One line and its continuation.</p>",
        "<ul><li>first continued</li><li>second</li></ul>",
        "<table><thead><tr><th>a</th><th>b</th></tr></thead>"
        "<tbody><tr><td>1</td><td><code>2</code></td></tr></tbody></table>",
        "<pre><code>&lt;not a tag&gt;</code></pre>",
    ]
    assert page.startswith("<!doctype html>") and '<link rel="stylesheet" href="style.css">' in page


@pytest.fixture
def offline_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, dict]:
    """build_site run for real into a temporary dist/, with a stand-in for the runtime download
    (so it needs no network and no .cache/, as in a fresh copy); returns (dist, manifest)."""
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    for name in downloads.PYODIDE_FILES:
        (runtime / name).write_bytes(f"stand-in for {name}".encode())
    dist = tmp_path / "dist"
    monkeypatch.setattr(site, "pyodide_runtime", lambda: runtime)
    monkeypatch.setattr(wheel, "CACHE", tmp_path / "cache")
    monkeypatch.setattr(site, "DIST", dist)
    monkeypatch.setattr(server, "DIST", dist)
    return dist, site.build_site(quiet=True)


# ---------------------------------------------------------------- the server


def test_every_served_suffix_has_its_mime_type() -> None:
    suffixes = {Path(name).suffix for name in site.web_files()}
    suffixes |= {Path(name).suffix for name in downloads.PYODIDE_FILES} | {".whl"}
    missing = sorted(suffix for suffix in suffixes if suffix not in server.MIME_TYPES)
    assert missing == []
    handler_map = server.SiteHandler.extensions_map
    assert handler_map[".mjs"] == "text/javascript; charset=utf-8"
    assert handler_map[".wasm"] == "application/wasm"
    assert handler_map[".webmanifest"] == "application/manifest+json"


def fetch_headers(url: str) -> dict[str, str]:
    with urllib.request.urlopen(url) as response:
        response.read()
        return {name.lower(): value for name, value in response.headers.items()}


@pytest.mark.parametrize("isolated", [True, False])
def test_server_headers(offline_site: tuple[Path, dict], isolated: bool) -> None:
    manifest = offline_site[1]
    served = server.make_server(port=0, isolated=isolated)
    url = start_server(served)
    try:
        page = fetch_headers(url + "index.html")
        runtime = fetch_headers(url + manifest["pyodide"]["indexURL"] + "pyodide.asm.wasm")
        pysolver_wheel = fetch_headers(url + manifest["pysolver"]["wheel"])
    finally:
        served.shutdown()
        served.server_close()
    assert page["content-type"] == "text/html; charset=utf-8"
    assert page["cache-control"] == "no-cache"
    assert runtime["content-type"] == "application/wasm"
    assert runtime["cache-control"] == "public, max-age=31536000, immutable"
    assert pysolver_wheel["content-type"] == "application/zip"
    assert pysolver_wheel["cache-control"] == "public, max-age=31536000, immutable"
    isolation = {
        "cross-origin-opener-policy": "same-origin",
        "cross-origin-embedder-policy": "require-corp",
        "cross-origin-resource-policy": "same-origin",
    }
    for name, value in isolation.items():
        assert page.get(name) == (value if isolated else None)


def test_the_server_lists_no_directory_and_refuses_impossible_paths(
    offline_site: tuple[Path, dict], capsys: pytest.CaptureFixture[str]
) -> None:
    # Once: listings of dist/'s folders, and a traceback and a dropped connection for %00.
    import http.client

    manifest = offline_site[1]
    served = server.make_server(port=0)
    start_server(served)
    runtime = "/" + manifest["pyodide"]["indexURL"]
    asked = {
        "/": 200,
        runtime: 404,
        runtime.rstrip("/"): 301,  # to the folder's own address, then 404 as above
        "/index.html%00": 400,
        "/%ed%a0%80": 400,
        "/index.html": 200,
    }
    answered = {}
    try:
        for path in asked:
            connection = http.client.HTTPConnection(*served.server_address[:2], timeout=10)
            connection.request("GET", path, headers={"Accept-Encoding": "gzip"})
            response = connection.getresponse()
            body = response.read()
            answered[path] = response.status
            if response.status == 404:
                assert b"Directory listing" not in body and b"<li>" not in body
            connection.close()
    finally:
        served.shutdown()
        served.server_close()
    assert answered == asked
    assert "Traceback" not in capsys.readouterr().err


# ---------------------------------------------------------------- the site


def test_web_files_walks_every_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("index.html", "runtime/worker.mjs", "ui/kit/button.js", "ui/.hidden/x.js"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    (tmp_path / ".eslintcache").write_text("x")
    (tmp_path / "app.js~").write_text("x")
    (tmp_path / "ui" / ".app.js.swp").write_text("x")
    monkeypatch.setattr(site, "WEB", tmp_path)
    assert list(site.web_files()) == ["index.html", "runtime/worker.mjs", "ui/kit/button.js"]


def test_precache_covers_every_file_of_the_site(offline_site: tuple[Path, dict]) -> None:
    dist, manifest = offline_site
    script = (dist / site.PRECACHE_SCRIPT).read_text(encoding="utf-8")
    head = "self.PRECACHE = "
    data = json.loads(script[script.index(head) + len(head) : script.rindex(";")])
    on_disk = {path.relative_to(dist).as_posix() for path in dist.rglob("*") if path.is_file()}
    assert manifest["pysolver"]["wheel"] in on_disk and "facts.json" in on_disk
    # Everything on disk but the service worker, its own list, the gzip copies (the same
    # files, sent compressed by the server) and the developers' pages (README and docs/ with their
    # pictures, the API reference: the page never needs them); every web file (in whatever
    # folder); nothing that is not there. No package installer: Pyodide's loader installs the wheel.
    packed = {name for name in on_disk if name.endswith(site.GZIP_SUFFIX)}
    assert {name.removesuffix(site.GZIP_SUFFIX) for name in packed} <= on_disk
    readme = {site.README_PAGE, site.API_PAGE} | {
        name for name in on_disk if name.startswith("docs/")
    }
    assert site.README_PAGE in on_disk and site.API_PAGE in on_disk and len(readme) > 2
    expected = on_disk - {site.SERVICE_WORKER, site.PRECACHE_SCRIPT} - packed - readme
    assert set(site.web_files()) - {site.SERVICE_WORKER} <= set(data["files"])
    assert sorted(data["files"]) == sorted(["./", *expected])
    assert site.GUIDE_PAGE in data["files"]
    assert "micropip" not in manifest and not any("micropip" in name for name in on_disk)


def test_the_site_has_the_api_reference(offline_site: tuple[Path, dict]) -> None:
    dist, _manifest = offline_site
    page = (dist / site.API_PAGE).read_text(encoding="utf-8")
    assert "<title>pysolver: API reference</title>" in page
    assert '<h3 id="covers">covers</h3>' in page and '<h3 id="sudoku">Sudoku</h3>' in page


def test_the_site_has_the_readme_and_docs_with_working_links(
    offline_site: tuple[Path, dict],
) -> None:
    # Every Markdown page of the checkout is a page of the site, and every link and picture on
    # those pages (to pages, anchors, pictures) is there too.
    dist, _manifest = offline_site
    pages = site.markdown_pages()
    assert {site.README_PAGE, site.GUIDE_PAGE, "docs/kinds.html"} <= set(pages)
    broken = []
    for page in pages:
        text = (dist / page).read_text(encoding="utf-8")
        for link in re.findall(r'(?:href|src)="([^"#]*)(?:#([^"]*))?"', text):
            target, anchor = link
            if re.match(r"[a-z][a-z0-9+.-]*:", target):
                continue
            path = (dist / page).parent / target if target else dist / page
            if not path.resolve().is_file():
                broken.append(f"{page}: {target}")
            elif anchor and f'id="{anchor}"' not in path.read_text(encoding="utf-8"):
                broken.append(f"{page}: {target}#{anchor}")
    assert not broken


def test_write_text_reports_only_real_changes(tmp_path: Path) -> None:
    target = tmp_path / "a.json"
    assert site.write_json(target, {"a": 1}) is True
    assert site.write_json(target, {"a": 1}) is False
    assert site.write_json(target, {"a": 2}) is True
    assert json.loads(target.read_text(encoding="utf-8")) == {"a": 2}


def test_sync_file_copies_once(tmp_path: Path) -> None:
    source, target = tmp_path / "source.js", tmp_path / "deep" / "target.js"
    source.write_text("let a = 1;")
    assert site.sync_file(source, target) is True
    assert site.sync_file(source, target) is False
    assert target.read_text() == "let a = 1;"


# ---------------------------------------------------------------- the wheel


def test_wheel_is_pure_deterministic_and_has_no_dependencies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wheel, "CACHE", tmp_path / "first")
    first = wheel.build_pysolver_wheel()
    monkeypatch.setattr(wheel, "CACHE", tmp_path / "second")
    second = wheel.build_pysolver_wheel()
    assert first.name == second.name and first.read_bytes() == second.read_bytes()
    assert first.name.startswith(f"pysolver_studio-{wheel.package_version()}+")
    assert first.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(first) as archive:
        names = archive.namelist()
        dist_info = next(name.split("/")[0] for name in names if name.endswith("/METADATA"))
        metadata = archive.read(f"{dist_info}/METADATA").decode()
        record = archive.read(f"{dist_info}/RECORD").decode().splitlines()
        contents = {name: archive.read(name) for name in names}
    assert "Requires-Dist" not in metadata
    assert "Name: pysolver-studio\n" in metadata  # the distribution's name; imports say pysolver
    assert "Root-Is-Purelib: true" in contents[f"{dist_info}/WHEEL"].decode()
    package = [name for name in names if not name.startswith(dist_info)]
    assert package == [path.relative_to(ROOT).as_posix() for path in wheel.package_files()]
    assert all(name.startswith("pysolver/") and "__pycache__" not in name for name in package)
    for line in record:
        name, digest, size = line.rsplit(",", 2)
        if name == f"{dist_info}/RECORD":
            assert digest == size == ""
            continue
        assert digest == wheel.record_hash(contents[name]) and int(size) == len(contents[name])


def test_prune_keeps_the_newest_wheels(tmp_path: Path) -> None:
    for age in range(wheel.KEEP_OLD_WHEELS + 2):
        path = tmp_path / f"pysolver_studio-0.1.0+{age}-py3-none-any.whl"
        path.write_bytes(b"")
        os.utime(path, ns=(age * 10**9, age * 10**9))
    kept = wheel.prune_old_wheels(tmp_path)
    assert kept == set(tmp_path.glob("*.whl"))
    assert sorted(path.name.split("+")[1][0] for path in kept) == ["2", "3", "4", "5", "6"]


# ---------------------------------------------------------------- downloads and the command line


def test_sri_digest_is_the_registry_form(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    expected = base64.b64encode(hashlib.sha512(b"").digest()).decode()
    assert downloads.sri_digest(empty) == f"sha512-{expected}"
    assert downloads.PYODIDE_INTEGRITY.startswith("sha512-")


def test_build_py_is_a_thin_command_line() -> None:
    source = (ROOT / "build.py").read_text(encoding="utf-8")
    assert len(source.splitlines()) <= 250
    result = subprocess.run(
        [sys.executable, str(ROOT / "build.py"), "--help"], capture_output=True, text=True
    )
    assert result.returncode == 0
    for command in ("build", "serve", "test", "bench"):
        assert command in result.stdout
    result = subprocess.run(
        [sys.executable, str(ROOT / "build.py"), "serve", "--bogus"], capture_output=True, text=True
    )
    assert result.returncode == 2 and "unrecognized arguments: --bogus" in result.stderr


def test_the_page_carries_its_start_up_hints(offline_site: tuple[Path, dict]) -> None:
    dist, manifest = offline_site
    page = (dist / site.PAGE).read_text(encoding="utf-8")
    preloaded = set(re.findall(r'<link rel="modulepreload" href="([^"]+)">', page))
    # Every module the page script imports (here two levels down), every kind's folder the page
    # imports by name (and what that imports), and no worker-side one.
    wanted = {"runtime/pool.js", "ui/ui.js", "kinds/contract.js", "kinds/sudoku/paste.js"}
    assert wanted <= preloaded
    kinds = json.loads((dist / "facts.json").read_text(encoding="utf-8"))["kinds"]
    assert {f"kinds/{kind}/index.js" for kind in kinds} <= preloaded
    assert "runtime/worker.mjs" not in preloaded and site.PAGE_SCRIPT not in preloaded
    assert all((dist / module).is_file() for module in preloaded)
    index = manifest["pyodide"]["indexURL"]
    for name in site.BIG_DOWNLOADS:
        assert f'<link rel="preload" href="{index}{name}" as="fetch" crossorigin>' in page
    # Before the page's own scripts, in the head.
    assert page.index("modulepreload") < page.index("</head>") < page.index('src="app.js"')


def test_page_modules_add_each_kind_folder_the_page_imports_by_name(tmp_path: Path) -> None:
    sources = {
        "app.js": 'import { a } from "./ui/a.js";\nawait import(`./kinds/${name}/index.js`);\n',
        "ui/a.js": "export const a = 1;\n",
        "kinds/one/index.js": 'import { b } from "./b.js";\nimport { a } from "../../ui/a.js";\n',
        "kinds/one/b.js": "export const b = 1;\n",
        "kinds/unlisted/index.js": "export const kind = {};\n",
    }
    files = {}
    for name, text in sources.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
        files[name] = tmp_path / name
    # "missing" has no folder (the page says so itself); "unlisted" is no kind facts.json lists.
    assert site.page_modules(files, ["one", "missing"]) == [
        "kinds/one/b.js",
        "kinds/one/index.js",
        "ui/a.js",
    ]


def test_static_imports_follow_import_and_export_from(tmp_path: Path) -> None:
    sources = {
        "app.js": 'import { a } from "./ui/a.js";\nimport "./side.js";\nconst x = "from";\n',
        "ui/a.js": 'export { b } from "../b.js";\nimport {\n  c,\n} from "./c.js";\n',
        "b.js": "export const b = await import('./late.js');\n",
        "ui/c.js": "export const c = 1;\n",
        "side.js": "",
        "late.js": "",
    }
    files = {}
    for name, text in sources.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
        files[name] = tmp_path / name
    assert site.static_imports("app.js", files) == ["b.js", "side.js", "ui/a.js", "ui/c.js"]
