"""buildtools' parts of the offline site: the precache list and version the service worker
imports (dist/precache.js), and the README and docs/ as pages (dist/readme.html, dist/docs/) with
GitHub's anchors."""

from __future__ import annotations

import json
from pathlib import Path

from buildtools import markdown, site

ROOT = Path(__file__).resolve().parents[1]


def precache_data(script: str) -> dict:
    head = "self.PRECACHE = "
    start = script.index(head) + len(head)
    return json.loads(script[start : script.rindex(";")])


def test_precache_lists_the_page_and_every_file(tmp_path) -> None:
    (tmp_path / "index.html").write_text("<!doctype html>")
    (tmp_path / "wheels").mkdir()
    (tmp_path / "wheels" / "a.whl").write_bytes(b"wheel")
    data = precache_data(site.precache_script(tmp_path, ["wheels/a.whl", "index.html"]))
    assert data["files"] == ["./", "index.html", "wheels/a.whl"]
    assert "wheels/" in data["immutable"]
    assert all(not prefix.startswith("/") for prefix in data["immutable"])


def test_precache_version_follows_the_content(tmp_path) -> None:
    page = tmp_path / "index.html"
    page.write_text("one")
    first = precache_data(site.precache_script(tmp_path, ["index.html"]))["version"]
    assert precache_data(site.precache_script(tmp_path, ["index.html"]))["version"] == first
    page.write_text("two")
    assert precache_data(site.precache_script(tmp_path, ["index.html"]))["version"] != first


def test_heading_anchors_as_on_github() -> None:
    assert markdown.heading_anchor("Polyomino tiling") == "polyomino-tiling"
    title = "Offline, installing, dark mode"
    assert markdown.heading_anchor(title) == "offline-installing-dark-mode"
    assert markdown.heading_anchor("In the browser") == "in-the-browser"


def test_readme_page_keeps_sections_code_and_tables() -> None:
    page = markdown.readme_html(
        "# Title\n\nSome `a < b` and **bold** [link](#x).\n\n### Domino tilings\n\n"
        "```sh\necho '<tag>'\n```\n\n| a | b |\n| --- | --- |\n| `1` | 2 |\n\n"
        "- one\n  more\n- two\n"
    )
    assert '<h1 id="title">Title</h1>' in page
    assert '<h3 id="domino-tilings">Domino tilings</h3>' in page
    assert "<code>a &lt; b</code>" in page and "<strong>bold</strong>" in page
    assert '<a href="#x">link</a>' in page
    assert "<pre><code>echo &#x27;&lt;tag&gt;&#x27;</code></pre>" in page
    assert "<th>a</th>" in page and "<td><code>1</code></td>" in page
    assert "<li>one more</li><li>two</li>" in page


def test_the_kinds_page_has_a_section_per_kind() -> None:
    from pysolver.facts import site_facts

    source = ROOT / "docs" / "kinds.md"
    page = site.markdown_page("docs/kinds.html", source, set(site.markdown_pages()))
    for kind in site_facts()["kinds"].values():
        anchor = markdown.heading_anchor(kind["title"])
        assert f'<h2 id="{anchor}">{kind["title"]}</h2>' in page
