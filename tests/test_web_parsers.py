"""The page's two text parsers read what Python reads: both get the same inputs here.

The Sudoku editor reads grid text (web/kinds/sudoku/editor.js, parseGrid) and the exact cover editor
reads Knuth's text (web/kinds/exact_cover/editor.js, parseProblem) to draw the puzzle before it is
solved. Node.js runs those very functions (with facts from site_facts()); Python's kinds read
the same inputs. Without Node.js the test is skipped, except under ``python3 build.py test``
(PYSOLVER_REQUIRE_NODE=1), which needs Node.js anyway for the JavaScript linter.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pysolver.facts import site_facts
from pysolver.kinds import exact_cover, shikaku, sudoku
from pysolver.protocol import SolveError
from tests.node_page import require_node, run_module

ROOT = Path(__file__).resolve().parents[1]

require_node("the page's parsers")

# Reads {"facts", "limits", "sudoku": [texts], "exact_cover": [texts]} on stdin; writes what
# the page's parsers make of each text (or the error they raise), and the exact cover presets.
RUNNER = """
import { parseGrid } from "./web/kinds/sudoku/editor.js";
import { parseProblem } from "./web/kinds/exact_cover/parse.js";
import { EXAMPLES } from "./web/kinds/exact_cover/editor.js";
import { shikakuUrl } from "./web/kinds/shikaku/paste.js";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { facts, limits, sudoku, exact_cover, shikaku = [] } = JSON.parse(input);
const attempt = (read) => {
  try { return read(); } catch (error) {
    return { error: error.message, path: error.path ?? "json", code: error.code ?? "invalid_json" };
  }
};
const out = {
  sudoku: sudoku.map(([text, style]) => attempt(() => {
    const { size, givens, style: read } = parseGrid(text, facts.kinds.sudoku, style);
    return { n: size.n, box: size.box, givens, style: read };
  })),
  shikaku: shikaku.map(({ rows, cols, clues }) => shikakuUrl(rows, cols, clues)),
  exact_cover: exact_cover.map((text) => attempt(() => {
    const problem = parseProblem(text, limits);
    const { items, primaryCount, options, colours, colourNames, multiplicities } = problem;
    return { items, primaryCount, options, colours, colourNames, multiplicities };
  })),
  examples: Object.fromEntries(Object.entries(EXAMPLES).map(([key, { text }]) => [key, text])),
};
process.stdout.write(JSON.stringify(out));
"""


def page_parsers(
    sudoku_texts: list[str],
    exact_cover_texts: list[str],
    limits: dict[str, int] | None = None,
    styles: list[str] | None = None,
    shikaku_puzzles: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """What the page's parsers make of the texts (Sudoku texts read in the given styles)."""
    facts = site_facts()
    styles = styles or ["auto"] * len(sudoku_texts)
    payload = {
        "facts": facts,
        "limits": limits or facts["kinds"]["exact_cover"]["limits"],
        "sudoku": [list(pair) for pair in zip(sudoku_texts, styles, strict=True)],
        "exact_cover": exact_cover_texts,
        "shikaku": shikaku_puzzles or [],
    }
    return run_module(RUNNER, payload)


CLASSIC = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
ROW_16 = "123456789ABCDEFG"
SUDOKU_TEXTS = [
    CLASSIC,
    "\n".join(" ".join(CLASSIC[r * 9 : r * 9 + 9]) for r in range(9)) + "\n",  # spaced rows
    CLASSIC.replace(".", "0"),
    "1234" + "." * 12,  # 4x4
    "12" + "." * 34,  # 6x6 (boxes 2x3)
    "12345678" + "." * 56,  # 8x8 (boxes 2x4)
    "123456789ABC" + "." * 132,  # 12x12 (boxes 3x4)
    ROW_16 + "." * 240,  # 16x16, 1-G
    ROW_16.lower() + "0" * 240,  # lower-case letters, 0 as blank
    "0123456789ABCDEF" + "." * 240,  # 16x16 in the 0-F style (0 and ., no G)
    "P" + "." * 624,  # 25x25
    "5" + "." * 15,  # 4x4: 5 does not fit
    "x" + "." * 80,  # not a symbol
    "_" + "." * 80,  # not a blank in Python's reading
    "G" + "." * 80,  # a letter above 9 in a 9x9 grid
    "." * 80,  # not a square
    "",
    # Layouts people copy: box lines, bars, underscores as blanks.
    "\n".join(
        " | ".join(" ".join(CLASSIC[r * 9 + c : r * 9 + c + 3]) for c in (0, 3, 6))
        + ("\n------+-------+------" if r in (2, 5) else "")
        for r in range(9)
    ),
    CLASSIC.replace(".", "_"),
    "+---+---+\n" + "|12|..|\n|..|..|\n+---+---+\n|..|..|\n|..|.4|\n+---+---+",  # 4x4
    "0123456789abcdef" + "_" * 240,  # 0-F with "_" blanks (and a ".": see below) is 1-G here
    "0123456789ABCDEF" + "." * 239 + "_",  # 0-F, "_" is a blank too
    "12" + "." * 22 + "*" + "." * 56,  # a wrong character: named with its place
    "1234" + "." * 11 + "x",  # a wrong character in the last cell of a 4x4
]
# The same texts read with an explicit 16x16 style.
# A whole 16x16 Sudoku in the 0-F style (the usual shifted rows): every symbol, no clash (Python
# refuses clashing givens; the page marks them instead, so clashes are not compared here).
FULL_ZERO_F = "".join(
    "0123456789ABCDEF"[(4 * r + r // 4 + c) % 16] for r in range(16) for c in range(16)
)
STYLED_TEXTS = [
    (FULL_ZERO_F, "0-F"),
    ("123456789ABCDEFG" + "0" * 240, "1-G"),
    ("0" + "_" * 255, "0-F"),
    ("1" * 81, "0-F"),  # the 0-F style is for 16x16 only
]

KNUTH = "A B C D E F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n"
# Knuth's example of exact covering with colours (TAOCP 7.2.2.1).
KNUTH_COLOURS = "p q r | x y\np q x y:A\np r x:A y\np x:B\nq x:A\nr y:B\n"
EXACT_COVER_TEXTS = [
    KNUTH,
    "| a comment\n\n" + KNUTH.replace("\n", "\r\n"),
    KNUTH.replace("\n", "\r"),
    "a b c | x y\n\ta  x\nb c\n  | an indented comment\nc y\nb\n",
    "p q |  r\np r\nq\n",
    "p q\n",  # no options
    json.dumps({"items": ["a", "b"], "secondary": ["s"], "options": [["a", "s"], ["b"]]}),
    KNUTH_COLOURS,
    KNUTH_COLOURS.replace("\n", "\r\n"),
    "p q r | x y z\np x:red y:Blue\nq x:red z\nr y:Blue z:red\nq y\n",  # colours numbered as met
    "p | x\np x:A\np x:A\np x:é\n",  # any non-space colour name
    json.dumps({"items": ["p", "q"], "secondary": ["x"], "options": [["p", "x:A"], ["q", "x:A"]]}),
    json.dumps({"text": KNUTH_COLOURS}),
    json.dumps({"items": ["p", " "], "options": [["p"], [" "]]}),  # JSON names may hold spaces
    # Where Python's str.split/strip/splitlines and JavaScript's \s differ:
    "p\x1fq | x\x85p x:A\x1fq\n",  # \x1c-\x1f are spaces in Python, \x85 a line break
    "p q | x\x1cp x:A\x1dq\n",  # ... and \x1c-\x1e line breaks too
    "p \ufeffq\np\n\ufeffq\n",  # a byte order mark is not a space in Python
    # Knuth's multiplicities (DLX3): u:v|A and v|A on primary items; 1|A is a plain item.
    "A B 2:3|C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n",
    "0:2|a 2|b 1|c\na b\nb c\n",
    "1:1|a\na\n",
    json.dumps(
        {"items": ["a", "b"], "options": [["a"], ["a", "b"]], "multiplicities": {"a": [0, 2]}}
    ),
]
# Every way the text or JSON can be wrong, colours above all: Python and the page reject each.
EXACT_COVER_REJECTED = [
    "p q r | x y\np:A q\n",  # colour on a primary item
    "p | x\np x:\n",  # empty colour
    "p | x\np :A\n",  # empty item
    "p | x\np x:A:B\n",  # more than one ':'
    "p | x\np ::\n",
    "p | x\np y:A\n",  # coloured item not declared
    "p | x\np x x:A\n",  # the same item twice in an option
    "p | x\np x:A x:B\n",
    "p | x\np x:A x:A\n",
    "p | x:A\np x\n",  # ':' in a declared secondary item
    "p:q | x\np:q\n",  # ':' in a declared primary item
    "p | x\np x:A|B\n",  # '|' inside a token
    "p | x | y\n",  # two bars
    "p\np | q\n",  # a bar in an option
    "p p\np\n",  # an item listed twice
    "p | p\np\n",
    "p\n\np q\n",  # an undeclared item
    "| x\n",  # a comment only: no items line
    "",
    "| x y\np x\nx y\n",  # a comment first, so 'p x' is the items line and y undeclared
    json.dumps({"items": ["p"], "secondary": ["x"], "options": [["p", "x:"]]}),
    json.dumps({"items": ["p"], "options": [["p:A"]]}),
    json.dumps({"items": ["p"], "secondary": ["x:A"], "options": [["p"]]}),
    json.dumps({"items": ["p"], "secondary": ["x"], "options": [["p", "y:A"]]}),
    json.dumps({"items": ["p"], "secondary": ["x"], "options": [["p", "x", "x:A"]]}),
    json.dumps({"items": ["p"], "options": [[1]]}),
    json.dumps({"items": "p", "options": []}),
    json.dumps({"items": ["p"], "secondary": None, "options": [["p"]]}),
    json.dumps({"items": ["p"], "options": [[]]}),
    json.dumps({"items": [], "options": []}),
    json.dumps({"options": [["p"]]}),
    json.dumps({"items": ["p"]}),
    json.dumps({"text": "p\np\n", "items": ["p"]}),
    json.dumps({"text": 5}),
    json.dumps({"secondary": ["x"]}),
    '{"items": ["p"], "options": [["p"]]',  # not JSON
    # Multiplicities written wrong
    "2:1|a\na\n",  # u above v
    "0|a\na\n",  # v = 0
    "x|a\na\n",  # not numbers
    "2|\na\n",  # no name
    "1|2|a\na\n",
    "a | 2|x\na\n",  # on a secondary item
    "99999999|a\na\n",  # beyond the limit
    "a\n2|a\n",  # on an option line
    json.dumps({"items": ["a"], "options": [["a"]], "multiplicities": {"a": [2, 1]}}),
    json.dumps({"items": ["a"], "options": [["a"]], "multiplicities": {"a": [1]}}),
    json.dumps({"items": ["a"], "options": [["a"]], "multiplicities": {"a": [-1, 1]}}),
    json.dumps({"items": ["a"], "options": [["a"]], "multiplicities": {"a": [True, 1]}}),
    json.dumps({"items": ["a"], "options": [["a"]], "multiplicities": {"b": [1, 1]}}),
    json.dumps(
        {"items": ["a"], "secondary": ["x"], "options": [["a"]], "multiplicities": {"x": [0, 1]}}
    ),
    json.dumps({"items": ["a"], "options": [["a"]], "multiplicities": [["a", 1, 1]]}),
    json.dumps({"items": ["a"], "options": [["a"]], "multiplicities": {"a": [0, 300000]}}),
    json.dumps({"text": "a\na\n", "multiplicities": {"a": [1, 2]}}),
]
# The size limits, made small (Python's constants patched, the page given the same facts).
SMALL_LIMITS = {"max_items": 4, "max_options": 3, "max_entries": 6}
TOO_LARGE_TEXTS = [
    "a b c d\na\nb\nc d\n",  # at the limits: accepted
    "a b c d e\na\n",  # items
    "a\na\na\na\na\n",  # options
    "a b c d\na b c\nd a b c\n",  # entries
    json.dumps({"items": ["a", "b", "c"], "secondary": ["x", "y"], "options": []}),
    json.dumps({"items": ["a"], "options": [["a"]] * 4}),
    json.dumps({"items": ["a", "b", "c", "d"], "options": [["a", "b", "c", "d"], ["a", "b", "c"]]}),
]


def python_sudoku(text: str, style: str = "auto") -> dict[str, Any]:
    try:
        n, box_rows, box_cols, values, read = sudoku.parse_puzzle({"grid": text, "symbols": style})
    except SolveError as error:
        return {"error": error.message}
    return {"n": n, "box": [box_rows, box_cols], "givens": values, "style": read}


def python_exact_cover(text: str) -> dict[str, Any]:
    """What Python reads from the page's text box: JSON when it starts with "{" (as the page
    decides), else Knuth's text; in the shape the page's parser answers."""
    stripped = text.strip()
    try:
        puzzle = json.loads(stripped) if stripped.startswith("{") else {"text": text}
        problem, names = exact_cover.parse_named(puzzle)
    except json.JSONDecodeError as error:
        return {"error": str(error), "path": "json", "code": "invalid_json"}
    except SolveError as error:
        return {"error": error.message, "path": error.path, "code": error.code}
    return {
        "items": names,
        "primaryCount": problem.primary,
        "options": problem.options,
        "colours": problem.colours,
        "colourNames": getattr(problem, "colour_names", []),
        "multiplicities": (
            None
            if problem.multiplicities is None
            else [list(pair) for pair in problem.multiplicities]
        ),
    }


def assert_read_alike(text: str, js: dict[str, Any], py: dict[str, Any]) -> None:
    """Both accept with the same reading, or both reject it at the same place (JSON path and,
    in Knuth's text, line number) with the same error code; the messages are each side's own."""
    assert ("error" in js) == ("error" in py), (text, js, py)
    if "error" not in py:
        assert js == py, text
        return
    assert (js["code"], js["path"]) == (py["code"], py["path"]), (text, js, py)
    line = re.match(r"line \d+:", py["error"])
    assert js["error"].startswith(line.group(0) if line else ""), (text, js, py)
    assert len(js["error"]) > 20, js  # a sentence, not a bare code


def test_sudoku_grid_text_is_read_alike() -> None:
    page = page_parsers(SUDOKU_TEXTS, [])["sudoku"]
    for text, js in zip(SUDOKU_TEXTS, page, strict=True):
        py = python_sudoku(text)
        assert ("error" in js) == ("error" in py), (text, js, py)
        if "error" not in py:
            assert js == py, text
        else:  # both name the wrong character and its place
            place = re.search(r"row \d+, column \d+", py["error"])
            if place:
                assert place.group(0) in js["error"], (js, py)


def test_sudoku_styles_are_read_alike() -> None:
    texts = [text for text, _ in STYLED_TEXTS]
    styles = [style for _, style in STYLED_TEXTS]
    page = page_parsers(texts, [], styles=styles)["sudoku"]
    for (text, style), js in zip(STYLED_TEXTS, page, strict=True):
        py = python_sudoku(text, style)
        assert ("error" in js) == ("error" in py), (text, style, js, py)
        if "error" not in py:
            assert js == py, (text, style)


# Valid puzzles (Python checks them before writing a URL): every number encoding and long runs.
SHIKAKU_PUZZLES = [
    {
        "rows": 7,
        "cols": 7,
        "clues": [
            [0, 2, 9],
            [0, 3, 4],
            [0, 5, 4],
            [1, 6, 3],
            [4, 0, 12],
            [4, 6, 4],
            [5, 3, 8],
            [5, 5, 2],
            [6, 3, 3],
        ],
    },
    {"rows": 1, "cols": 45, "clues": [[0, 44, 45]]},  # runs of 20 blanks and more
    {
        "rows": 100,
        "cols": 100,
        "clues": [
            [0, 0, 15],
            [0, 1, 16],
            [1, 0, 255],
            [2, 0, 256],
            [3, 0, 4095],
            [4, 0, 4096],
            [5, 0, 1267],
        ],
    },
    {"rows": 100, "cols": 100, "clues": [[0, 0, 8192], [99, 99, 1808]]},
    {"rows": 3, "cols": 3, "clues": [[1, 1, 9]]},
]


def test_shikaku_url_is_written_alike() -> None:
    page = page_parsers([], [], shikaku_puzzles=SHIKAKU_PUZZLES)["shikaku"]
    for puzzle, url in zip(SHIKAKU_PUZZLES, page, strict=True):
        assert url == shikaku.to_url(puzzle), puzzle
        # and Python reads it back as the same puzzle
        rows, cols, clues = shikaku.parse_puzzle({"url": url})
        assert (rows, cols, sorted(map(tuple, clues))) == (
            puzzle["rows"],
            puzzle["cols"],
            sorted(map(tuple, puzzle["clues"])),
        )


def test_sudoku_sizes_the_page_offers_are_pythons() -> None:
    # Python also reads sizes the page does not offer (10x10 with a box); the page says which
    # sizes it takes, all of them from facts.
    ten = "1" + "." * 99
    assert "error" not in python_sudoku(ten)
    js = page_parsers([ten], [])["sudoku"][0]
    sizes = [entry["n"] for entry in site_facts()["kinds"]["sudoku"]["sizes"]]
    assert all(f"({n}x{n})" in js["error"] for n in sizes), js


def test_knuth_text_and_json_are_read_alike() -> None:
    page = page_parsers([], EXACT_COVER_TEXTS)["exact_cover"]
    for text, js in zip(EXACT_COVER_TEXTS, page, strict=True):
        assert "error" not in js, (text, js)
        assert_read_alike(text, js, python_exact_cover(text))


def test_knuths_colour_example_is_read_with_its_colours() -> None:
    js = page_parsers([], [KNUTH_COLOURS])["exact_cover"][0]
    assert js["items"] == ["p", "q", "r", "x", "y"]
    assert js["primaryCount"] == 3
    assert js["options"] == [[0, 1, 3, 4], [0, 2, 3, 4], [0, 3], [1, 3], [2, 4]]
    assert js["colourNames"] == ["A", "B"]
    assert js["colours"] == [[0, 0, 0, 1], [0, 0, 1, 0], [0, 2], [0, 1], [0, 2]]


def test_malformed_text_and_json_are_rejected_alike() -> None:
    page = page_parsers([], EXACT_COVER_REJECTED)["exact_cover"]
    for text, js in zip(EXACT_COVER_REJECTED, page, strict=True):
        py = python_exact_cover(text)
        assert "error" in py, (text, py)
        assert_read_alike(text, js, py)


def test_size_limits_are_pythons(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exact_cover, "MAX_ITEMS", SMALL_LIMITS["max_items"])
    monkeypatch.setattr(exact_cover, "MAX_OPTIONS", SMALL_LIMITS["max_options"])
    monkeypatch.setattr(exact_cover, "MAX_ENTRIES", SMALL_LIMITS["max_entries"])
    page = page_parsers([], TOO_LARGE_TEXTS, SMALL_LIMITS)["exact_cover"]
    for text, js in zip(TOO_LARGE_TEXTS, page, strict=True):
        py = python_exact_cover(text)
        assert_read_alike(text, js, py)
    assert ["code" in python_exact_cover(text) for text in TOO_LARGE_TEXTS] == [False, *[True] * 6]


def test_the_pages_presets_are_read_alike() -> None:
    examples = page_parsers([], [])["examples"]
    page = page_parsers([], list(examples.values()))["exact_cover"]
    for (key, text), js in zip(examples.items(), page, strict=True):
        assert "error" not in js, key
        assert_read_alike(text, js, python_exact_cover(text))
    assert any(js["colours"] for js in page), "a preset with colours"
