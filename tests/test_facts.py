"""The facts the page reads (facts.json) come from the kinds themselves and stay plain JSON."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pysolver import protocol, solve
from pysolver.facts import site_facts
from pysolver.kinds import kind_module, kind_names
from pysolver.kinds.polyomino.pieces import LIBRARY, SETS
from pysolver.midend.registry import heatmap_kinds


def test_every_kind_is_described_with_its_engines_in_order() -> None:
    facts = site_facts()
    assert list(facts["kinds"]) == list(kind_names())
    orders = [kind_module(name).ORDER for name in facts["kinds"]]
    assert orders == sorted(orders)
    for name, kind in facts["kinds"].items():
        engines = [engine["name"] for engine in kind["engines"]]
        assert engines == list(kind_module(name).ENGINES), name
        assert kind["default_engine"] == engines[0]
        for engine in kind["engines"]:
            assert engine["title"] and engine["description"].endswith("."), engine


def test_facts_are_plain_json_and_stable() -> None:
    text = json.dumps(site_facts(), sort_keys=True)
    assert json.loads(text) == site_facts()
    assert text == json.dumps(site_facts(), sort_keys=True)


def test_limits_match_the_kinds() -> None:
    kinds = site_facts()["kinds"]
    assert kinds["shikaku"]["limits"]["max_rows"] == kind_module("shikaku").MAX_SIDE
    assert kinds["polyomino"]["limits"]["max_rows"] == kind_module("polyomino").MAX_BOARD_SIDE
    assert kinds["sudoku"]["limits"]["max_size"] == kind_module("sudoku").MAX_SIZE
    assert kinds["domino"]["limits"]["max_rows"] == kind_module("domino").MAX_SIDE


def test_piece_library_with_cells_and_areas() -> None:
    polyomino = site_facts()["kinds"]["polyomino"]
    assert set(polyomino["pieces"]) == set(LIBRARY)
    assert polyomino["pieces"]["X"] == {
        "cells": [[0, 1], [1, 0], [1, 1], [1, 2], [2, 1]],
        "area": 5,
    }
    assert polyomino["pieces"]["O4"]["area"] == 4
    assert polyomino["sets"] == {name: list(members) for name, members in SETS.items()}


def test_sudoku_sizes_and_symbols() -> None:
    sudoku = site_facts()["kinds"]["sudoku"]
    assert {"n": 9, "box": [3, 3]} in sudoku["sizes"]
    assert {"n": 6, "box": [2, 3]} in sudoku["sizes"]
    assert sudoku["symbols"][:9] == "123456789"
    assert sudoku["symbols"][15] == "G"


def test_error_codes_list_python_and_page_codes() -> None:
    codes = site_facts()["error_codes"]
    for code in (protocol.INVALID_PUZZLE, protocol.TOO_LARGE, "cancelled", "unavailable"):
        assert codes[code]


def test_every_kind_has_help_naming_its_algorithm_and_a_guide_section() -> None:
    guide = (Path(__file__).resolve().parents[1] / "docs" / "guide.md").read_text(encoding="utf-8")
    algorithms = ("Algorithm X", "dancing links", "propagation", "dynamic programming")
    for name, kind in site_facts()["kinds"].items():
        sentences = re.split(r"(?<=\.) (?=[A-Z])", kind["help"])
        assert 2 <= len(sentences) <= 3 and kind["help"].endswith("."), (name, sentences)
        assert any(algorithm in kind["help"] for algorithm in algorithms), name
        # web/ui/help.js links each tab to the guide's heading of the kind's title.
        assert f"\n### {kind['title']}\n" in guide, name


def test_heatmaps_and_engine_modes_are_told() -> None:
    kinds = site_facts()["kinds"]
    # The kinds whose module sums heatmaps (tests/test_midend.py runs one on each).
    assert [name for name, kind in kinds.items() if kind["heatmap"]] == heatmap_kinds()
    modes = {engine["name"]: engine.get("modes") for engine in kinds["domino"]["engines"]}
    assert modes == {"profile_dp": None, "formula": ["count"], "cftp": ["random"]}


def test_trace_and_heatmap_caps_are_the_protocols() -> None:
    facts = site_facts()
    assert facts["trace"] == {
        "default_steps": protocol.DEFAULT_MAX_STEPS,
        "max_steps": protocol.MAX_TRACE_STEPS,
    }
    assert facts["max_heatmap_solutions"] == protocol.MAX_HEATMAP_SOLUTIONS
    # The page refuses longer request texts before posting them to a worker (web/runtime/solver.js).
    assert facts["max_request_chars"] == protocol.MAX_REQUEST_CHARS
    assert facts["max_request_depth"] == protocol.MAX_REQUEST_DEPTH


# Small puzzles besides each kind's EXAMPLE, solved and counted with every engine, to see every
# stats key.
SMALL_PUZZLES = {
    "sudoku": {"grid": "1234" + "." * 12},
    "shikaku": {"rows": 2, "cols": 2, "clues": [[0, 0, 4]]},
    "polyomino": {"board": ["...."], "pieces": ["I4"]},
    "domino": {"rows": 4, "cols": 4},
    "exact_cover": {"text": "A B\nA\nB\n"},
    "queens": {"n": 5, "queens": [[0, 0]]},
}


def test_every_stats_key_has_a_label() -> None:
    facts = site_facts()
    labels = facts["stats"]["labels"]
    assert set(facts["stats"]["headline"]) <= set(labels)
    seen: set[str] = set()
    for kind, puzzle in [
        *((name, kind_module(name).EXAMPLE["puzzle"]) for name in kind_names()),
        *SMALL_PUZZLES.items(),
    ]:
        for engine in facts["kinds"][kind]["engines"]:
            for mode in ("solve", "count", "random"):
                request = {"kind": kind, "mode": mode, "engine": engine["name"], "puzzle": puzzle}
                response = solve(request)
                if response["ok"]:
                    seen |= set(response["stats"])
    assert seen, "no request was answered"
    assert seen <= set(labels), sorted(seen - set(labels))
    assert all(label[0].isupper() for label in labels.values())
