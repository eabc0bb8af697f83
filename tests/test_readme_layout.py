"""The layout shows the house room by room: README's "Layout" section and docs/layout.md name every
file and folder of the package, its engines, midend, parallel runners and logic, the front end
(every folder of web/), the build tools and the benchmarks. A new file without its line there
fails here, and the message says which names to add and where they live.

A kind's own files are not listed: everything about a kind lives in its folders
(pysolver/kinds/<kind>/, web/kinds/<kind>/), whose shape the kind contract states, so adding a
kind adds no line to the layout. A file is a kind's when its name is the kind's or begins with
it (``sudoku/``, ``sudoku_variants.py``, ``sudoku.js``), wherever it is."""

from __future__ import annotations

import re
from pathlib import Path

from pysolver.facts import site_facts

ROOT = Path(__file__).resolve().parents[1]
# The folders whose every child (file or folder) the layout names; web/ with all its subfolders.
LISTED = (
    "pysolver",
    "pysolver/engines",
    "pysolver/kinds",
    "pysolver/midend",
    "pysolver/parallel",
    "pysolver/logic",
    "buildtools",
    "bench",
)
LISTED_RECURSIVELY = ("web",)
# Not part of the sources: Python's bytecode caches, and hidden or editor files.
IGNORED = ("__pycache__",)


def layout_text() -> str:
    """README's "## Layout" section and docs/layout.md, which together name every file."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"^## Layout\n(.*?)(?=^## |\Z)", readme, re.MULTILINE | re.DOTALL)
    assert match is not None, 'README.md has no "## Layout" section'
    return match.group(1) + (ROOT / "docs" / "layout.md").read_text(encoding="utf-8")


def kinds_own(path: Path, kinds: list[str]) -> bool:
    """Whether a file or folder is a kind's: named as a kind, or beginning with its name."""
    stem = path.name.split(".")[0]
    return any(stem == kind or stem.startswith(kind + "_") for kind in kinds)


def children(folder: Path) -> list[Path]:
    return sorted(
        path
        for path in folder.iterdir()
        if path.name not in IGNORED
        and not path.name.startswith(".")
        and not path.name.endswith(("~", ".swp", ".pyc"))
    )


def listed_paths(kinds: list[str]) -> list[Path]:
    """Every file and folder the layout must name (not the kinds' own)."""
    paths = [child for name in LISTED for child in children(ROOT / name)]
    pending = [ROOT / name for name in LISTED_RECURSIVELY]
    while pending:
        folder = pending.pop()
        for child in children(folder):
            if kinds_own(child, kinds):
                continue
            paths.append(child)
            if child.is_dir():
                pending.append(child)
    return sorted(path for path in set(paths) if not kinds_own(path, kinds))


def token(path: Path) -> str:
    """How the layout writes a path's name: a file as itself, a folder with its slash."""
    return path.name + "/" if path.is_dir() else path.name


def named(text: str, name: str) -> bool:
    """True if name stands in text as a whole word (not inside a longer name: 'app.js' is not
    named by 'webapp.js' or 'app.json'); a folder may be written inside a path ('web/kinds/')."""
    # Not after a name's own characters; a file not before more of a name ("app.js" + "on").
    after = "" if name.endswith("/") else r"(?![\w-]|\.\w)"
    return re.search(r"(?<![\w.-])" + re.escape(name) + after, text) is not None


def test_named_matches_whole_names_only() -> None:
    assert named("app.js (the page)", "app.js")
    assert named("web/kinds/ editors", "kinds/")
    assert named("sw.js + offline.js.", "offline.js")
    assert not named("webapp.js", "app.js")
    assert not named("app.json", "app.js")
    assert not named("app.js.map", "app.js")
    assert not named("kinds (no slash)", "kinds/")


def test_a_kinds_own_files_are_its_own() -> None:
    kinds = ["sudoku", "exact_cover"]
    assert kinds_own(Path("web/kinds/sudoku"), kinds)
    assert kinds_own(Path("pysolver/kinds/sudoku_variants.py"), kinds)
    assert kinds_own(Path("web/render/exact_cover.js"), kinds)
    assert not kinds_own(Path("web/kinds/contract.js"), kinds)
    assert not kinds_own(Path("pysolver/kinds/sudokus.py"), kinds)


def test_layout_names_every_file_and_folder() -> None:
    text = layout_text()
    missing = [
        path.relative_to(ROOT).as_posix() + ("/" if path.is_dir() else "")
        for path in listed_paths(list(site_facts()["kinds"]))
        if not named(text, token(path))
    ]
    assert not missing, (
        "docs/layout.md does not name these (add each name, a folder with its trailing slash, "
        "on its folder's line):\n  " + "\n  ".join(missing)
    )
