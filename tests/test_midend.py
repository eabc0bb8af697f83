"""The midend's rules, once for every kind: the count rule, the listing cap (trace mode too),
one heatmap shape, strict requests, the kind objects parallel search receives, the budget read
at call time, and no import circle through the midend."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

import pysolver
from pysolver import budget
from pysolver.engines import monitor, profile_dp
from pysolver.kinds import kind_module, kind_names
from pysolver.midend.registry import heatmap_kinds, kind
from pysolver.protocol import REQUEST_FIELDS, parse_query

PACKAGE = Path(pysolver.__file__).parent

KINDS = kind_names()
# Per kind, a puzzle with a few solutions: its EXAMPLE (tests/test_kinds.py checks each has one).
SEVERAL: dict[str, dict[str, Any]] = {name: kind_module(name).EXAMPLE["puzzle"] for name in KINDS}

# Per heatmap kind, a puzzle without solutions (its givens, clues or pieces still valid).
NO_SOLUTION: dict[str, dict[str, Any]] = {
    # (0, 0) must be 1 (its row holds 2, 3, 4) but its column has a 1.
    "sudoku": {"grid": ".234" + "...." + "1..." + "...."},
    # The 3 has no room for a rectangle in a 2 x 2 grid.
    "shikaku": {"rows": 2, "cols": 2, "clues": [[0, 0, 1], [1, 1, 3]]},
    "polyomino": {"board": ["..#", "#.."], "pieces": ["O4"]},
    # Three queens cannot stand on a 3 x 3 board without two attacking each other.
    "queens": {"n": 3},
    # Region A is the corner cell alone, and neither way to put four untouching stars one a row
    # and column on a 4 x 4 board (columns 1 3 0 2 and 2 0 3 1) uses a corner.
    "star_battle": {"regions": ["ABBB", "CCBB", "CDDB", "CDDD"], "stars": 1},
}


def test_every_heatmap_kind_has_a_puzzle_without_solutions_here() -> None:
    assert set(NO_SOLUTION) == set(heatmap_kinds())


def total(name: str) -> int:
    response = pysolver.solve({"kind": name, "mode": "count", "puzzle": SEVERAL[name]})
    assert response["ok"] and response["complete"], response
    assert response["count"] >= 2, response
    count: int = response["count"]
    return count


@pytest.mark.parametrize("name", KINDS)
def test_the_count_rule_is_the_same_for_every_kind(name: str) -> None:
    whole = total(name)
    request = {"kind": name, "mode": "count", "puzzle": SEVERAL[name]}
    exact = pysolver.solve({**request, "limit": whole})
    assert (exact["count"], exact["complete"]) == (whole, True), exact
    below = pysolver.solve({**request, "limit": whole - 1})
    assert (below["count"], below["complete"]) == (whole - 1, False), below


@pytest.mark.parametrize("name", KINDS)
@pytest.mark.parametrize("mode", ["solve", "random", "trace"])
def test_the_listing_cap_holds_in_every_mode(
    name: str, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = total(name)
    monkeypatch.setattr(budget, "MAX_LISTED", 1)
    request = {"kind": name, "mode": mode, "limit": whole, "seed": 3, "puzzle": SEVERAL[name]}
    if mode == "trace":
        request["max_steps"] = 10_000
    response = pysolver.solve(request)
    assert response["ok"], response
    assert len(response["solutions"]) == 1, response
    if mode == "random":  # random mode draws at most the cap
        return
    if name == "domino" and mode == "trace":
        # The DP's trace reads back only the tilings it lists (``total`` counts them all).
        assert (response["count"], response["complete"], response["total"]) == (1, False, whole)
    else:
        assert response["count"] == whole and response["solutions_truncated"] is True


def test_a_trace_with_a_huge_limit_lists_only_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 23, item 3: trace mode kept every solution up to limit (9,179 tilings of 200
    # dominoes, 1 GB); the listing cap is the midend's, for trace mode too.
    monkeypatch.setattr(budget, "MAX_LISTED", 5)
    request = {
        "kind": "polyomino",
        "mode": "trace",
        "max_steps": 100_000,
        "limit": 1_000_000_000,
        "puzzle": {
            "board": ["...."] * 4,
            "pieces": [{"name": "D", "cells": [[0, 0], [0, 1]], "count": 8}],
        },
    }
    response = pysolver.solve(request)
    assert response["ok"], response
    assert response["count"] == 36 and len(response["solutions"]) == 5
    assert response["solutions_truncated"] is True and response["complete"] is True
    assert sum(step["type"] == "solution" for step in response["steps"]) == 36


@pytest.mark.parametrize("name", heatmap_kinds())
def test_a_heatmap_without_solutions_has_every_key_with_zero_grids(name: str) -> None:
    # Issue 23, item 9: Shikaku answered {} where polyomino answered zero grids.
    request = {"kind": name, "mode": "count", "heatmap": True, "puzzle": NO_SOLUTION[name]}
    empty = pysolver.solve(request)
    assert empty["ok"] and (empty["count"], empty["complete"]) == (0, True), empty
    assert empty["heatmap"], empty
    for grid in empty["heatmap"].values():
        assert grid and all(value == 0 for row in grid for value in row)
    # The same keys and grid shapes as a heatmap with solutions.
    full = pysolver.solve({**request, "puzzle": SEVERAL[name]})
    assert full["ok"] and any(any(any(row) for row in grid) for grid in full["heatmap"].values())
    if name == "shikaku":  # a grid per clue index, as with solutions
        assert set(empty["heatmap"]) == {"0", "1"}


@pytest.mark.parametrize(
    ("request_", "path", "nearest"),
    [
        ({"kind": "sudoku", "limt": 2, "puzzle": {"grid": "1" * 0 + "." * 16}}, "limt", "limit"),
        ({"kind": "sudoku", "puzzle": {"grid": "." * 16, "boxx": [2, 2]}}, "puzzle.boxx", "box"),
        (
            {"kind": "polyomino", "symetry": "distinct", "puzzle": SEVERAL["polyomino"]},
            "symetry",
            "symmetry",
        ),
        (
            {"kind": "sudoku", "subtree": {"branch": 0, "paht": []}, "puzzle": SEVERAL["sudoku"]},
            "subtree.paht",
            "path",
        ),
        (
            {
                "kind": "polyomino",
                "puzzle": {
                    "board": [".."],
                    "pieces": [{"name": "D", "cells": [[0, 0], [0, 1]], "cont": 1}],
                },
            },
            "puzzle.pieces[0].cont",
            "count",
        ),
        (
            {"kind": "domino", "puzzle": {"rows": 2, "cols": 2, "blokced": []}},
            "puzzle.blokced",
            "blocked",
        ),
    ],
)
def test_unknown_fields_are_refused_with_the_nearest_name(
    request_: dict[str, Any], path: str, nearest: str
) -> None:
    response = pysolver.solve(request_)
    assert not response["ok"], response
    error = response["error"]
    assert (error["code"], error["path"]) == ("invalid_request", path), error
    field = path.rsplit(".", 1)[-1]
    assert f"unknown field '{field}'" in error["message"]
    assert f"did you mean '{nearest}'?" in error["message"]


def test_an_option_of_one_kind_is_unknown_to_another() -> None:
    response = pysolver.solve({"kind": "sudoku", "symmetry": "all", "puzzle": SEVERAL["sudoku"]})
    assert response["error"]["path"] == "symmetry"


@pytest.mark.parametrize("name", KINDS)
def test_fields_the_page_cli_and_tasks_send_are_accepted(name: str) -> None:
    module = kind_module(name)
    request: dict[str, Any] = {
        "kind": name,
        "mode": "count",
        "limit": 5,
        "seed": 1,
        "engine": None,
        "jobs": 1,
        "recent": True,
        "heatmap": name in heatmap_kinds(),
        "puzzle": SEVERAL[name],
        # Options only generate mode takes are refused here (tests/test_generate.py).
        **{
            option: "all"
            for option in module.OPTIONS
            if option not in getattr(module, "GENERATE_OPTIONS", ())
        },
    }
    assert pysolver.solve(request)["ok"], request
    trace = {"kind": name, "mode": "trace", "max_steps": 50, "puzzle": SEVERAL[name]}
    assert pysolver.solve(trace)["ok"]
    if module.SPLITTABLE:
        task = {"kind": name, "mode": "count", "subtree": {"branch": 0, "path": []}}
        assert pysolver.solve({**task, "puzzle": SEVERAL[name]})["ok"]


def test_the_facts_publish_the_declared_fields() -> None:
    facts = pysolver.facts.site_facts()
    assert facts["request_fields"] == list(REQUEST_FIELDS)
    for name in KINDS:
        module = kind_module(name)
        assert facts["kinds"][name]["puzzle_fields"] == list(module.PUZZLE_FIELDS)
        assert facts["kinds"][name]["options"] == list(module.OPTIONS)
        assert facts["kinds"][name]["splittable"] == module.SPLITTABLE


@pytest.mark.parametrize("name", KINDS)
def test_the_kind_object_is_what_parallel_search_needs(name: str) -> None:
    planned = kind(name)
    request = {"kind": name, "mode": "count", "puzzle": SEVERAL[name]}
    if name == "polyomino":
        # bitset: the split of the serial search's tree (memo's is its own: memo_tasks).
        request["engine"] = "bitset"
    query = parse_query(request)
    splits = planned.split(SEVERAL[name], query, 4)
    assert isinstance(splits, list) and splits
    if planned.splittable:
        assert any(split is not None and split.subtrees for split in splits)
    else:
        assert splits == [None]
    fields = planned.solve(SEVERAL[name], query)
    assert fields["count"] == total(name)
    before = dict(fields)
    planned.merge_fields(fields)
    assert fields == before  # a serial answer already holds its whole-answer fields


def test_profile_dp_reads_the_budget_when_called(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [(1 << 12) - 1] * 12
    assert profile_dp.check_size(rows, 12, True) is None
    monkeypatch.setattr(budget, "BUDGET_BYTES", 2**16)
    refused = profile_dp.check_size(rows, 12, True)
    assert refused is not None and "limit is 0 MB" in refused
    response = pysolver.solve({"kind": "domino", "puzzle": {"rows": 12, "cols": 12}})
    assert response["error"]["code"] == "too_large", response


def _imports(path: Path) -> set[str]:
    """The pysolver modules a module imports at its top level (not inside functions)."""
    tree = ast.parse(path.read_text())
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("pysolver"):
            # ``from pysolver import protocol`` imports the module protocol (and the package,
            # already loaded: its own imports are not this module's).
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
            if node.module != "pysolver":
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("pysolver"))
    return found


def test_no_import_circle_through_the_midend() -> None:
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    graph = {name: {m for m in _imports(path) if m in modules} for name, path in modules.items()}

    def reaches(start: str, goal: str) -> bool:
        seen: set[str] = set()
        todo = list(graph[start])
        while todo:
            current = todo.pop()
            if current == goal:
                return True
            if current not in seen:
                seen.add(current)
                todo.extend(graph[current])
        return False

    midend = [name for name in modules if name.startswith("pysolver.midend")]
    assert midend
    for name in midend:
        assert not reaches(name, name), name
    # Kinds import only the plan of the midend; the midend's __init__ imports nothing.
    assert not graph["pysolver.midend"]
    for name in modules:
        if name.startswith("pysolver.kinds"):
            used = {m for m in graph[name] if m.startswith("pysolver.midend")}
            assert used <= {"pysolver.midend.plan"}, (name, used)


def test_a_count_with_a_heatmap_reports_recent_solutions(monkeypatch: pytest.MonkeyPatch) -> None:
    # The heatmap keeps the solutions it sums; one found lately still rides on a report, as in
    # a plain count, so the page can show the board while the count runs (3x20 pentominoes:
    # eight tilings, found at the searches' last level, where kept solutions are formed).
    # Reports and recent solutions as often as asked: a fast run would otherwise end before
    # its first report is due.
    monkeypatch.setattr(monitor, "RECENT_INTERVAL", 0.0)
    monkeypatch.setattr(monitor.Monitor, "interval", 0.0)
    reports: list[dict[str, Any]] = []
    puzzle = {"board": ["." * 20] * 3, "pieces": ["pentominoes"]}
    request = {"kind": "polyomino", "mode": "count", "recent": True, "puzzle": puzzle}
    response = pysolver.solve({**request, "heatmap": True}, progress=reports.append)
    assert response["ok"] and response["count"] == 8, response
    recents = [report["recent"] for report in reports if "recent" in report]
    assert recents
    listed = pysolver.solve({**request, "mode": "solve", "limit": 10})
    assert all(recent in listed["solutions"] for recent in recents)
