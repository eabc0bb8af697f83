"""README's "Layout" section shows the house room by room: it names every file and folder of the
package, its engines and kinds, the front end (every folder of web/), the build tools and the
benchmarks. A new file without its line there fails here, and the message says which names to add
and where they live."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The folders whose every child (file or folder) the Layout names; web/ with all its subfolders.
LISTED = ("pysolver", "pysolver/engines", "pysolver/kinds", "buildtools", "bench")
LISTED_RECURSIVELY = ("web",)
# Not part of the sources: Python's bytecode caches, and hidden or editor files.
IGNORED = ("__pycache__",)


def layout_section() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"^## Layout\n(.*?)(?=^## |\Z)", readme, re.MULTILINE | re.DOTALL)
    assert match is not None, 'README.md has no "## Layout" section'
    return match.group(1)


def children(folder: Path) -> list[Path]:
    return sorted(
        path
        for path in folder.iterdir()
        if path.name not in IGNORED
        and not path.name.startswith(".")
        and not path.name.endswith(("~", ".swp", ".pyc"))
    )


def listed_paths() -> list[Path]:
    """Every file and folder the Layout must name."""
    paths = [child for name in LISTED for child in children(ROOT / name)]
    pending = [ROOT / name for name in LISTED_RECURSIVELY]
    while pending:
        folder = pending.pop()
        for child in children(folder):
            paths.append(child)
            if child.is_dir():
                pending.append(child)
    return sorted(set(paths))


def token(path: Path) -> str:
    """How the Layout writes a path's name: a file as itself, a folder with its slash."""
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


def test_layout_names_every_file_and_folder() -> None:
    text = layout_section()
    missing = [
        path.relative_to(ROOT).as_posix() + ("/" if path.is_dir() else "")
        for path in listed_paths()
        if not named(text, token(path))
    ]
    assert not missing, (
        'README.md\'s "Layout" section does not name these (add each name, a folder with its '
        "trailing slash, on its folder's line):\n  " + "\n  ".join(missing)
    )
