"""The registry finds every kind folder, in ORDER, and every kind fulfils the kind contract
(pysolver.kinds.contract.KindModule)."""

from __future__ import annotations

import importlib
import inspect
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import pysolver
from pysolver.kinds import is_kind, kind_folders, kind_module, kind_names, kind_part
from pysolver.kinds.contract import EngineModule, KindModule
from pysolver.midend.plan import Plan
from pysolver.midend.registry import kind as midend_kind
from pysolver.protocol import SolveError

ROOT = Path(__file__).resolve().parents[1]


KINDS = kind_names()


def test_every_folder_of_the_kinds_package_is_a_kind() -> None:
    package = Path(pysolver.__file__).parent / "kinds"
    folders = {path.parent.name for path in package.glob("*/__init__.py")}
    assert set(kind_folders()) == folders
    assert set(KINDS) == folders and len(KINDS) == len(folders)
    assert not is_kind("contract") and not is_kind("nope") and not is_kind(None)
    with pytest.raises(KeyError):
        kind_module("contract")
    with pytest.raises(KeyError):
        kind_part("nope", "library")


def test_kinds_come_in_their_order() -> None:
    orders = [kind_module(kind).ORDER for kind in KINDS]
    assert all(isinstance(order, int) for order in orders)
    assert orders == sorted(orders) and len(set(orders)) == len(orders), "no two kinds share one"
    assert KINDS[:6] == ("polyomino", "sudoku", "shikaku", "domino", "exact_cover", "queens")


def test_finding_the_kinds_imports_none() -> None:
    # A fresh interpreter: the names and is_kind come from the folders; only kind_names,
    # which reads each ORDER, imports the kind modules.
    script = (
        "import sys\n"
        "from pysolver.kinds import is_kind, kind_folders, kind_names\n"
        "names = kind_folders()\n"
        "assert all(is_kind(name) for name in names)\n"
        "cold = [name for name in names if f'pysolver.kinds.{name}' in sys.modules]\n"
        "kind_names()\n"
        "warm = [name for name in names if f'pysolver.kinds.{name}' in sys.modules]\n"
        "print(len(names), len(cold), len(warm))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    names, cold, warm = map(int, done.stdout.split())
    assert names >= 6 and cold == 0 and warm == names


@pytest.mark.parametrize("kind", KINDS)
def test_module_is_the_kind_of_that_name(kind: str) -> None:
    module = importlib.import_module(f"pysolver.kinds.{kind}")
    assert kind_module(kind) is module
    assert module.__name__ == f"pysolver.kinds.{kind}"


@pytest.mark.parametrize("kind", KINDS)
def test_kind_has_an_example_with_a_few_solutions(kind: str) -> None:
    module = kind_module(kind)
    assert hasattr(module, "EXAMPLE"), (
        f"pysolver/kinds/{kind}/__init__.py needs an EXAMPLE: a request (kind and puzzle) of a "
        "small puzzle with a few solutions, which the tests of every kind run"
    )
    assert set(module.EXAMPLE) == {"kind", "puzzle"} and module.EXAMPLE["kind"] == kind
    response = pysolver.solve({**module.EXAMPLE, "mode": "count"})
    assert response["ok"] and response["complete"] and response["count"] >= 2, response


@pytest.mark.parametrize("kind", KINDS)
def test_kind_provides_every_name_of_the_contract(kind: str) -> None:
    module = kind_module(kind)
    assert isinstance(module, KindModule)
    for name in ("facts", "parse_puzzle", "encode", "decode", "prepare"):
        assert callable(getattr(module, name)), name
    assert list(inspect.signature(module.prepare).parameters) == ["puzzle", "query", "engine"]
    assert len(inspect.signature(module.parse_puzzle).parameters) >= 1
    # The pipeline is the midend's: a kind only translates.
    for name in ("solve", "split", "trace_fields", "merge_fields"):
        assert not hasattr(module, name), name
    assert isinstance(module.PUZZLE_FIELDS, tuple) and module.PUZZLE_FIELDS
    assert isinstance(module.OPTIONS, tuple)
    assert inspect.signature(module.prepare).return_annotation in (Plan, "Plan")


@pytest.mark.parametrize("kind", KINDS)
def test_parallel_hooks_are_the_documented_ones(kind: str) -> None:
    # Whether a kind splits is its module's declaration (tests/test_midend.py splits a puzzle
    # of every splittable kind); finish_fields is Sudoku's only.
    module = kind_module(kind)
    planned = midend_kind(kind)
    assert planned.splittable == module.SPLITTABLE
    assert list(inspect.signature(planned.split).parameters) == ["puzzle", "query", "wanted"]
    assert list(inspect.signature(planned.merge_fields).parameters) == ["fields"]
    assert hasattr(module, "finish_fields") == (kind == "sudoku")


@pytest.mark.parametrize("kind", KINDS)
def test_engine_table_lists_engine_modules_default_first(kind: str) -> None:
    module = kind_module(kind)
    table = module.ENGINE_MODULES
    assert table, "a kind needs at least one engine"
    assert tuple(table) == module.ENGINES
    for name, engine in table.items():
        assert isinstance(engine, ModuleType) and isinstance(engine, EngineModule), name
        assert engine.__name__.startswith("pysolver.engines."), name
        assert engine.SUMMARY.endswith("."), name
    facts = module.facts()
    assert [engine["name"] for engine in facts["engines"]] == list(module.ENGINES)
    assert facts["default_engine"] == module.ENGINES[0]


@pytest.mark.parametrize("kind", KINDS)
def test_parse_puzzle_rejects_a_non_object_with_its_path(kind: str) -> None:
    with pytest.raises(SolveError) as caught:
        kind_module(kind).parse_puzzle(["not", "an", "object"])
    assert (caught.value.code, caught.value.path) == ("invalid_puzzle", "puzzle")


@pytest.mark.parametrize("kind", KINDS)
def test_kind_has_its_facts_page_tab_tests_and_docs_section(kind: str) -> None:
    # What a new kind costs besides its folder (pysolver/kinds/<kind>/): none may be missing.
    facts = kind_module(kind).facts()
    assert facts["title"] and facts["help"], "facts need a title and a help line"
    # The page's part: the kind's folder, whose index.js exports its editor and renderer
    # (web/kinds/contract.js; tests/test_web_kinds.py runs it).
    index = (ROOT / "web" / "kinds" / kind / "index.js").read_text(encoding="utf-8")
    assert re.search(r"^export const kind = \{ editor: \w+, renderer\b", index, re.MULTILINE)
    assert (ROOT / "tests" / f"test_{kind}.py").is_file()
    kinds_page = (ROOT / "docs" / "kinds.md").read_text(encoding="utf-8")
    assert f"\n## {facts['title']}\n" in kinds_page, "a docs/kinds.md section titled as the kind"
