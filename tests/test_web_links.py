"""The page's pure helpers for numbers and share IDs, run in Node.js.

web/ui/numbers.js writes long counts in short form (``shortForm``), compared here with Python's
decimal rounding; web/kinds/polyomino/link.js writes and reads polyomino share IDs, which must
round-trip every puzzle Python reads and keep reading the old base64 links. Skipped without
Node.js, except under ``python3 build.py test`` (PYSOLVER_REQUIRE_NODE=1).
"""

from __future__ import annotations

import base64
import json
from decimal import ROUND_HALF_UP, Decimal, localcontext
from pathlib import Path
from typing import Any

from pysolver.facts import site_facts
from tests.node_page import require_node, run_module

ROOT = Path(__file__).resolve().parents[1]

require_node("the page's helpers")

# Reads {"numbers": [digit strings], "tilings": [puzzles], "links": [ids], "sets": {...}} on
# stdin; writes the short forms, each tiling's ID and what it reads back, and what each ID reads.
RUNNER = """
import { shortForm } from "./web/ui/numbers.js";
import { decodeTiling, encodeTiling } from "./web/kinds/polyomino/link.js";
globalThis.atob ??= (text) => Buffer.from(text, "base64").toString("binary");
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { numbers, tilings, links, sets } = JSON.parse(input);
const attempt = (read) => {
  try { return read(); } catch (error) { return { error: error.message }; }
};
const out = {
  numbers: numbers.map((digits) => shortForm(digits)),
  tilings: tilings.map((tiling) => {
    const id = encodeTiling(tiling, sets);
    return { id, back: decodeTiling(id) };
  }),
  links: links.map((id) => attempt(() => decodeTiling(id))),
};
process.stdout.write(JSON.stringify(out));
"""


def run_page(payload: dict[str, Any]) -> dict[str, Any]:
    return run_module(RUNNER, payload)


SETS = site_facts()["kinds"]["polyomino"]["sets"]


def python_short_form(digits: str) -> dict[str, Any]:
    exponent = len(digits) - 1
    with localcontext() as context:
        context.prec = len(digits) + 5  # exact: no rounding before the one asked for
        value = Decimal(digits).scaleb(-exponent)
        mantissa = value.quantize(Decimal("1.0000"), rounding=ROUND_HALF_UP)
    if mantissa >= 10:
        mantissa, exponent = mantissa / 10, exponent + 1
    text = f"{mantissa:f}".rstrip("0").rstrip(".")
    return {"mantissa": text, "exponent": exponent, "digits": len(digits)}


def test_short_form_rounds_like_python_decimal() -> None:
    numbers = [
        "1" + "0" * 50,
        "117687308958845869995" + "7" * 30,
        "999995" + "0" * 40,  # rounds up into one more digit
        "999994" + "9" * 40,
        "123449" + "9" * 40,
        "123450" + "0" * 40,
        "42",
        "7",
        "5" * 5040,
    ]
    page = run_page({"numbers": numbers, "tilings": [], "links": [], "sets": SETS})["numbers"]
    for digits, js in zip(numbers, page, strict=True):
        assert js == python_short_form(digits), digits


TILINGS = [
    {"board": ["." * 10] * 6, "pieces": SETS["pentominoes"], "reflections": True},
    {
        "board": ["........", "...##...", "#......#"],
        "pieces": [*SETS["pentominoes"], "O4"],
        "reflections": False,
        "symmetry": "all",
    },
    {
        "board": ["##..", "#..."],
        "pieces": [
            {"name": "D2", "count": 2},
            {"name": "Bar piece", "cells": [[0, 0], [0, 1]]},
            {"name": "é*,=:", "cells": [[0, 0], [1, 0], [1, 1]], "count": 3},
        ],
        "reflections": True,
    },
]


def test_polyomino_ids_round_trip_and_are_short() -> None:
    page = run_page({"numbers": [], "tilings": TILINGS, "links": [], "sets": SETS})["tilings"]
    for tiling, js in zip(TILINGS, page, strict=True):
        back = js["back"]
        assert back["board"] == tiling["board"], js["id"]
        assert back["reflections"] == tiling["reflections"]
        assert back["symmetry"] == tiling.get("symmetry", "distinct")
        expanded = [
            name
            for piece in back["pieces"]
            for name in (SETS.get(piece, [piece]) if isinstance(piece, str) else [piece])
        ]
        assert expanded == tiling["pieces"], js["id"]
        old = base64.urlsafe_b64encode(json.dumps(tiling).encode()).decode().rstrip("=")
        assert len(js["id"]) < len(old) / 2, js["id"]
    assert page[0]["id"] == "6x10:pentominoes"
    assert page[1]["id"] == "8/3-2-3/0-1-6-1:pentominoes,O4:noreflect,all"


def test_old_polyomino_links_and_bad_ids() -> None:
    old = {"board": ["...."], "pieces": ["I4"], "reflections": False, "symmetry": "all"}
    old_id = base64.urlsafe_b64encode(json.dumps(old).encode()).decode().rstrip("=")
    links = [old_id, "3x3:I4:mirror", "3-x/2:I4", "2x2:A=0.0;x", "not a link"]
    page = run_page({"numbers": [], "tilings": [], "links": links, "sets": SETS})["links"]
    assert page[0] == old
    assert "unknown option" in page[1]["error"]
    assert "run lengths" in page[2]["error"]
    assert "row.column" in page[3]["error"]
    assert "error" in page[4]
