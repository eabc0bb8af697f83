"""Every registered kind fulfils the kind contract of pysolver.kinds (KindModule)."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path
from types import ModuleType

import pytest

from pysolver.kinds import KINDS, EngineModule, KindModule, kind_module
from pysolver.midend.plan import Plan
from pysolver.midend.registry import kind as midend_kind
from pysolver.protocol import SolveError

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("kind", KINDS)
def test_registered_module_is_the_kind_of_that_name(kind: str) -> None:
    module = importlib.import_module(KINDS[kind])
    assert kind_module(kind) is module
    assert module.__name__ == f"pysolver.kinds.{kind}"


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
    # What a new kind costs besides its module (pysolver/kinds/__init__.py): none may be missing.
    facts = kind_module(kind).facts()
    assert facts["title"] and facts["help"], "facts need a title and a help line"
    # The page's part: the kind's folder, whose index.js exports its editor and renderer
    # (web/kinds/contract.js; tests/test_web_kinds.py runs it).
    index = (ROOT / "web" / "kinds" / kind / "index.js").read_text(encoding="utf-8")
    assert re.search(r"^export const kind = \{ editor: \w+, renderer\b", index, re.MULTILINE)
    assert (ROOT / "tests" / f"test_{kind}.py").is_file()
    kinds_page = (ROOT / "docs" / "kinds.md").read_text(encoding="utf-8")
    assert f"\n## {facts['title']}\n" in kinds_page, "a docs/kinds.md section titled as the kind"
