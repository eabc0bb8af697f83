"""The README stays a short door and docs/ holds the rest: the README's length and sections, the
set-up commands it names (and CI runs), every relative link and anchor of README.md and docs/
resolving in the checkout (as GitHub shows them) and on the site (as build.py writes them), and
a section per kind in docs/kinds.md and in the guide."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from buildtools import markdown, site
from pysolver.facts import site_facts

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
MAX_README_LINES = 300
# The README's sections, in this order (its title and first paragraphs come before them).
README_SECTIONS = [
    "Set-up",
    "The fast loop",
    "The request path",
    "The kind contract",
    "Adding a kind",
    "Layout",
    "Performance",
    "More",
]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)|<img [^>]*\bsrc=\"([^\"]+)\"")


def markdown_files() -> list[Path]:
    return [README, *sorted(DOCS.glob("*.md"))]


def prose(text: str) -> str:
    """The text without its code blocks and code spans (whose brackets are not links)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)
    return re.sub(r"`[^`\n]+`", "", text)


def links(path: Path) -> list[str]:
    text = prose(path.read_text(encoding="utf-8"))
    return [match.group(1) or match.group(2) for match in LINK.finditer(text)]


def anchors(path: Path) -> set[str]:
    """The anchors GitHub gives a Markdown file's headings."""
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)
    return {markdown.heading_anchor(title) for title in re.findall(r"^#{1,6} (.+)$", text, re.M)}


def headings(path: Path, level: int) -> list[str]:
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)
    return re.findall(rf"^{'#' * level} (.+)$", text, re.MULTILINE)


def test_the_readme_is_short_and_in_order() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_README_LINES, f"README.md has {len(lines)} lines: move some to docs/"
    assert headings(README, 2) == README_SECTIONS


def test_the_readme_names_the_set_up_ci_runs() -> None:
    text = README.read_text(encoding="utf-8")
    set_up = text[text.index("## Set-up") : text.index("## The fast loop")]
    commands = re.findall(r"^python3 build\.py [^#\n]*?(?=\s*(?:#|$))", set_up, re.MULTILINE)
    assert commands == ["python3 build.py serve", "python3 build.py test"]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.rstrip().splitlines()[-1] == "python3 build.py test"
    assert "python3 build.py test --quick" in text


def test_adding_a_kind_takes_ten_steps_or_fewer() -> None:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Adding a kind") : text.index("## Layout")]
    steps = re.findall(r"^(\d+)\. ", section, re.MULTILINE)
    assert steps == [str(number) for number in range(1, len(steps) + 1)]
    assert 1 <= len(steps) <= 10


def test_every_page_of_docs_is_linked_from_the_readme() -> None:
    linked = {(README.parent / link).resolve() for link in links(README)}
    assert set(DOCS.glob("*.md")) - linked == set()


def test_every_relative_link_resolves_in_the_checkout() -> None:
    broken = []
    for path in markdown_files():
        for link in links(path):
            if re.match(r"[a-z][a-z0-9+.-]*:", link):
                continue  # a web address
            target, _, anchor = link.partition("#")
            file = (path.parent / target).resolve() if target else path
            if not file.exists():
                broken.append(f"{path.relative_to(ROOT)}: {link} (no such file)")
            elif anchor and (file.suffix != ".md" or anchor not in anchors(file)):
                broken.append(f"{path.relative_to(ROOT)}: {link} (no such heading)")
    assert not broken, "\n".join(broken)


def test_every_link_resolves_on_the_site() -> None:
    pages = site.markdown_pages()
    served = {
        *site.web_files(),
        *pages,
        *site.docs_pictures(),
        site.API_PAGE,
        "facts.json",
        "manifest.json",
    }
    ids: dict[str, set[str]] = {}
    html: dict[str, str] = {}
    for page, source in pages.items():
        html[page] = site.markdown_page(page, source, served)
        ids[page] = set(re.findall(r' id="([^"]+)"', html[page]))
    broken = []
    for page, text in html.items():
        folder = posixpath.dirname(page)
        for link in re.findall(r'(?:href|src)="([^"]+)"', text):
            if re.match(r"[a-z][a-z0-9+.-]*:", link):
                continue
            target, _, anchor = link.partition("#")
            resolved = posixpath.normpath(posixpath.join(folder, target)) if target else page
            if resolved not in served:
                broken.append(f"{page}: {link}")
            elif anchor and anchor not in ids.get(resolved, set()):
                broken.append(f"{page}: {link} (no such anchor)")
    assert not broken, "\n".join(broken)
    assert 'href="docs/kinds.html"' in html[site.README_PAGE]
    assert 'href="../readme.html#more"' in html["docs/building.html"]


def test_every_kind_has_a_section_for_developers_and_in_the_guide() -> None:
    developers = headings(DOCS / "kinds.md", 2)
    guide = headings(DOCS / "guide.md", 3)
    for name, kind in site_facts()["kinds"].items():
        assert kind["title"] in developers, f"docs/kinds.md needs a '## {kind['title']}' ({name})"
        assert kind["title"] in guide, f"docs/guide.md needs a '### {kind['title']}' ({name})"


def test_a_link_to_a_source_file_is_text_on_the_site(tmp_path: Path) -> None:
    # The site serves no sources: such a link keeps its words and loses its target.
    page = tmp_path / "page.md"
    page.write_text("See [the contract](../pysolver/kinds/contract.py) and [kinds](kinds.md#x).")
    relink = site.relinker(DOCS / "page.md", "docs/page.html", {"docs/kinds.html"})
    html = markdown.readme_html(page.read_text(), "page", relink, "../")
    assert "See the contract and " in html and "contract.py" not in html
    assert '<a href="kinds.html#x">kinds</a>' in html
    assert '<link rel="stylesheet" href="../style.css">' in html
