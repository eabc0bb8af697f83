"""Everything Python knows about a kind is in its folder, pysolver/kinds/<kind>/: no file
elsewhere under pysolver/ is named after a kind, and no module elsewhere imports a kind by name
(the rest reaches kinds through the registry, pysolver.kinds). The same naming rule holds for
web/ once the page's kinds have folders of their own (web/kinds/<kind>/)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pysolver.kinds import kind_names
from tests.test_import_graph import import_graph, modules

ROOT = Path(__file__).resolve().parents[1]
IGNORED = ("__pycache__",)


def named_after(kind: str, top: Path, home: Path) -> list[str]:
    """The files and folders under ``top``, outside ``home``, whose names hold ``kind`` (as
    paths from ``top``'s parent: ``pysolver/...``)."""
    return sorted(
        path.relative_to(top.parent).as_posix()
        for path in top.rglob("*")
        if kind in path.name
        and not any(part in IGNORED for part in path.parts)
        and path != home
        and home not in path.parents
    )


def test_the_rules_see_what_they_look_for(tmp_path: Path) -> None:
    # A file named after a kind outside its folder is found; the folder and its files are not.
    top = tmp_path / "pysolver"
    (top / "kinds" / "queens").mkdir(parents=True)
    (top / "kinds" / "queens" / "queens_board.py").write_text("")
    (top / "queens_pictures.py").write_text("")
    assert named_after("queens", top, top / "kinds" / "queens") == ["pysolver/queens_pictures.py"]
    # The import graph names a kind's package when a module imports it (from ... import too).
    assert "pysolver.kinds.sudoku.pasted" in import_graph()["pysolver.kinds.sudoku"]


@pytest.mark.parametrize("kind", kind_names())
def test_no_file_under_pysolver_is_named_after_a_kind_outside_its_folder(kind: str) -> None:
    home = ROOT / "pysolver" / "kinds" / kind
    assert home.is_dir()
    wrong = named_after(kind, ROOT / "pysolver", home)
    assert not wrong, f"move these into pysolver/kinds/{kind}/ or rename them: {wrong}"


@pytest.mark.parametrize("kind", kind_names())
def test_no_module_outside_a_kind_imports_it(kind: str) -> None:
    package = f"pysolver.kinds.{kind}"
    assert package in modules()
    wrong = {
        name: sorted(t for t in targets if t == package or t.startswith(package + "."))
        for name, targets in import_graph().items()
        if not (name == package or name.startswith(package + "."))
    }
    wrong = {name: targets for name, targets in wrong.items() if targets}
    assert not wrong, f"reach {kind} through the registry (pysolver.kinds.kind_module): {wrong}"


@pytest.mark.parametrize("kind", kind_names())
def test_no_web_file_is_named_after_a_kind_outside_its_folder(kind: str) -> None:
    home = ROOT / "web" / "kinds" / kind
    if not home.is_dir():
        pytest.skip(f"web/kinds/{kind}/ does not exist yet: the page's files are not moved")
    wrong = named_after(kind, ROOT / "web", home)
    assert not wrong, f"move these into web/kinds/{kind}/ or rename them: {wrong}"
