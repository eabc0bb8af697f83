"""The page's Sudoku variant helpers (web/kinds/sudoku/variants.js), run in Node.js: a puzzle
read from a request, written into a share link and read back gives Python the same puzzle, and
broken link parts are refused in words. Skipped without Node.js, except under
``python3 build.py test`` (PYSOLVER_REQUIRE_NODE=1)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pysolver import solve
from tests.node_page import require_node, run_module

require_node("the page's Sudoku variant helpers")

DATA = Path(__file__).resolve().parent / "data" / "sudoku_variants.json"

# Reads {"puzzles": [puzzle], "links": [parts after the grid]} on stdin; writes, per puzzle,
# its link text and the puzzle fields read back from it, and what each link reads.
RUNNER = """
import {
  decodeVariants, encodeVariants, readVariantFields, variantFields,
} from "./web/kinds/sudoku/variants.js";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { puzzles, links } = JSON.parse(input);
const out = {
  puzzles: puzzles.map((puzzle) => {
    const view = { size: 9, ...readVariantFields(puzzle, 9) };
    const link = encodeVariants(view);
    const back = { size: 9, ...decodeVariants(link.split("/").slice(1), 9) };
    return { link, fields: variantFields(back) };
  }),
  links: links.map((parts) => {
    try { return decodeVariants(parts, 4); } catch (error) { return { error: error.message }; }
  }),
};
process.stdout.write(JSON.stringify(out));
"""


def stored() -> list[dict[str, Any]]:
    return json.loads(DATA.read_text())


def test_links_carry_every_stored_variant_puzzle():
    entries = stored()
    out = run_module(RUNNER, {"puzzles": [e["puzzle"] for e in entries], "links": []})
    for entry, answer in zip(entries, out["puzzles"], strict=True):
        puzzle = {"grid": entry["puzzle"]["grid"], **answer["fields"]}
        response = solve({"kind": "sudoku", "limit": 2, "puzzle": puzzle})
        assert response["unique"] and response["solutions"] == [entry["solution"]], entry["name"]
        assert ("/K" in answer["link"]) == ("cages" in entry["puzzle"])
        assert ("/R" in answer["link"]) == ("regions" in entry["puzzle"])
        assert ("/X" in answer["link"]) == ("diagonals" in entry["puzzle"])


def test_broken_link_parts_are_refused_in_words():
    links = [["Q"], ["K3.0"], ["Kx.0001"], ["X", "RAABBAABBCCDDCCDD", "K3.0001,7.0405"]]
    out = run_module(RUNNER, {"puzzles": [], "links": links})["links"]
    assert "not regions (/R), diagonals (/X) or cages (/K)" in out[0]["error"]
    assert "pairs of base-36 digits" in out[1]["error"]
    assert "pairs of base-36 digits" in out[2]["error"]
    assert out[3] == {
        "regions": [0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3],
        "diagonals": True,
        "cages": [{"sum": 3, "cells": [0, 1]}, {"sum": 7, "cells": [4, 5]}],
    }
