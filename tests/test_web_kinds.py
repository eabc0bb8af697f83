"""Each puzzle kind's part of the page is its folder web/kinds/KIND/, which the page imports by the
name facts.json lists (web/kinds/contract.js): every kind Python registers has one whose index.js
gives the page a kind (run in Node.js: the contract's own check, pageKind), New puzzle where
Python generates and a game where it is played; no other folder is there; and no file outside a
kind's folder is named after the kind or imports from its folder by name, so the page holds no
list of kinds of its own. Skipped without Node.js, as test_web_parsers.py says.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from pysolver.facts import site_facts
from pysolver.kinds import kind_names
from tests.node_page import require_node, run_module

KINDS = kind_names()

require_node("the kinds' folders")

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
# import ... from "x", export ... from "x", import "x" and import("x") with a plain string.
IMPORTED = re.compile(
    r"""\bfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']""",
    re.MULTILINE,
)

RUNNER = """
import { isKindName, pageKind } from "./web/kinds/contract.js";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { names } = JSON.parse(input);
const attempt = async (read) => {
  try { return await read(); } catch (error) { return { error: error.message }; }
};
const kinds = {};
for (const name of names) {
  kinds[name] = await attempt(async () => {
    const module = await import(`./web/kinds/${name}/index.js`);
    const entry = pageKind(name, module);
    const { editor, sizeFields, game } = module.kind;
    return { id: entry.id, editor: typeof entry.editor, wrapped: entry.editor !== editor,
      sizeFields: typeof sizeFields, game: typeof game };
  });
}
const draw = () => {};
const editor = () => null;
process.stdout.write(JSON.stringify({
  kinds,
  names: ["sudoku", "exact_cover", "../app", "kinds/sudoku", "Sudoku", ""].map(isKindName),
  refused: [
    await attempt(() => pageKind("none", {})),
    await attempt(() => pageKind("half", { kind: { editor } })),
    await attempt(() => pageKind("odd", { kind: { editor, renderer: { cellAt: draw } } })),
    await attempt(() => pageKind("game", { kind: { editor, renderer: { draw }, game: draw } })),
  ],
}));
"""


def test_every_kind_has_a_folder_whose_index_gives_the_page_a_kind() -> None:
    facts = site_facts()["kinds"]
    result = run_module(RUNNER, {"names": list(KINDS)})
    for name in KINDS:
        entry = result["kinds"][name]
        assert "error" not in entry, f"web/kinds/{name}/index.js: {entry}"
        assert (entry["id"], entry["editor"]) == (name, "function")
        # New puzzle where Python generates (the editor then wrapped by play/session.js); a
        # game only there.
        generates = "generate" in facts[name]
        assert (entry["sizeFields"] == "function") == generates, name
        assert entry["wrapped"] == generates, name
        assert entry["game"] in ("function", "undefined"), name
        assert generates or entry["game"] == "undefined", name
    assert result["names"] == [True, True, False, False, False, False]
    none, half, odd, game = (refusal["error"] for refusal in result["refused"])
    assert "exports no kind editor nor renderer" in none
    assert "exports no kind renderer" in half
    assert "renderer must have a draw function" in odd
    assert "has a game but no sizeFields" in game


def test_the_kinds_folder_holds_the_registered_kinds_only() -> None:
    folders = {path.name for path in (WEB / "kinds").iterdir() if path.is_dir()}
    assert folders == set(KINDS)
    for name in KINDS:
        assert (WEB / "kinds" / name / "index.js").is_file(), name


def web_modules() -> list[Path]:
    return sorted(path for path in WEB.rglob("*") if path.suffix in (".js", ".mjs"))


def owner(path: Path) -> str | None:
    """The kind whose folder holds a file under web/, or None for a file of the page's own."""
    parts = path.relative_to(WEB).parts
    return parts[1] if len(parts) > 2 and parts[0] == "kinds" and parts[1] in KINDS else None


def test_no_file_outside_a_kinds_folder_is_named_after_it() -> None:
    named = [
        path.relative_to(ROOT).as_posix()
        for path in WEB.rglob("*")
        if path.is_file() and owner(path) is None and any(kind in path.name for kind in KINDS)
    ]
    assert not named, f"these belong in their kind's folder, web/kinds/KIND/: {named}"


def imported_folders(folder: str, text: str) -> set[str]:
    """The kinds whose folders a module's text imports from, by a path written in it; folder: the
    module's folder under web/ ("watch")."""
    kinds = set()
    for match in IMPORTED.finditer(text):
        target = next(group for group in match.groups() if group)
        if not target.startswith("."):
            continue
        parts = posixpath.normpath(posixpath.join(folder, target)).split("/")
        if len(parts) > 2 and parts[0] == "kinds" and parts[1] in KINDS:
            kinds.add(parts[1])
    return kinds


def test_only_a_kinds_own_folder_imports_from_it() -> None:
    strays = {}
    for path in web_modules():
        text = path.read_text(encoding="utf-8")
        folders = imported_folders(path.relative_to(WEB).parent.as_posix(), text)
        if folders - {owner(path)}:
            strays[path.relative_to(ROOT).as_posix()] = sorted(folders - {owner(path)})
    assert not strays, f"modules that import a kind's folder by name: {strays}"


def test_imported_folders_reads_static_and_dynamic_imports() -> None:
    # The check above sees a folder named in any form of import, and only as a resolved path.
    text = (
        'import { a } from "../kinds/sudoku/editor.js";\n'
        'export { b } from "../kinds/contract.js";\n'
        'const c = await import("../kinds/queens/render.js");\n'
        "const d = await import(`../kinds/${name}/index.js`);\n"
        'import "./sudoku.js";\n'
        'import { e } from "./kinds/domino/render.js";\n'
    )
    assert imported_folders("watch", text) == {"sudoku", "queens"}
    assert imported_folders(".", text) == {"domino"}
