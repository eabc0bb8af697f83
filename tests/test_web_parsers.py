"""The page's two text parsers read what Python reads: both get the same inputs here.

The Sudoku editor reads grid text (web/kinds/sudoku.js, parseGrid) and the exact cover editor
reads Knuth's text (web/kinds/exact_cover.js, parseProblem) to draw the puzzle before it is
solved. Node.js runs those very functions (with facts from site_facts()); Python's kinds read
the same inputs. Without Node.js the test is skipped, except under ``python3 build.py test``
(PYSOLVER_REQUIRE_NODE=1), which needs Node.js anyway for the JavaScript linter.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from pysolver.facts import site_facts
from pysolver.kinds import exact_cover, shikaku, sudoku
from pysolver.protocol import SolveError

ROOT = Path(__file__).resolve().parents[1]
NODE = shutil.which("node")

if NODE is None:
    reason = "Node.js is not installed (the page's parsers run in it)"
    if os.environ.get("PYSOLVER_REQUIRE_NODE") == "1":
        raise RuntimeError(f"{reason}; python3 build.py test needs it")
    pytest.skip(reason, allow_module_level=True)

# Reads {"facts", "sudoku": [texts], "exact_cover": [texts]} on stdin; writes what the page's
# parsers make of each text (or the error they raise).
RUNNER = """
import { parseGrid } from "./web/kinds/sudoku.js";
import { parseProblem } from "./web/kinds/exact_cover.js";
import { shikakuUrl } from "./web/puzzlink.js";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { facts, sudoku, exact_cover, shikaku = [] } = JSON.parse(input);
const attempt = (read) => {
  try { return read(); } catch (error) { return { error: error.message }; }
};
const out = {
  sudoku: sudoku.map(([text, style]) => attempt(() => {
    const { size, givens, style: read } = parseGrid(text, facts.kinds.sudoku, style);
    return { n: size.n, box: size.box, givens, style: read };
  })),
  shikaku: shikaku.map(({ rows, cols, clues }) => shikakuUrl(rows, cols, clues)),
  exact_cover: exact_cover.map((text) => attempt(() => {
    const { items, secondaryCount, options } = parseProblem(text);
    return { items, secondaryCount, options };
  })),
};
process.stdout.write(JSON.stringify(out));
"""


def page_parsers(
    sudoku_texts: list[str],
    exact_cover_texts: list[str],
    styles: list[str] | None = None,
    shikaku_puzzles: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """What the page's parsers make of the texts (Sudoku texts read in the given styles)."""
    styles = styles or ["auto"] * len(sudoku_texts)
    payload = {
        "facts": site_facts(),
        "sudoku": [list(pair) for pair in zip(sudoku_texts, styles, strict=True)],
        "exact_cover": exact_cover_texts,
        "shikaku": shikaku_puzzles or [],
    }
    result = subprocess.run(
        [NODE, "--input-type=module", "-e", RUNNER],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


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
STYLED_TEXTS = [
    ("0123456789ABCDEF" * 16, "0-F"),
    ("123456789ABCDEFG" + "0" * 240, "1-G"),
    ("0" * 256, "0-F"),
    ("1" * 81, "0-F"),  # the 0-F style is for 16x16 only
]

KNUTH = "A B C D E F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n"
EXACT_COVER_TEXTS = [
    KNUTH,
    "| a comment\n\n" + KNUTH.replace("\n", "\r\n"),
    KNUTH.replace("\n", "\r"),
    "a b c | x y\n\ta  x\nb c\n  | an indented comment\nc y\nb\n",
    "p q |  r\np r\nq\n",
    json.dumps({"items": ["a", "b"], "secondary": ["s"], "options": [["a", "s"], ["b"]]}),
]


def python_sudoku(text: str, style: str = "auto") -> dict[str, Any]:
    try:
        n, box_rows, box_cols, values, read = sudoku.read_puzzle({"grid": text, "symbols": style})
    except SolveError as error:
        return {"error": error.message}
    return {"n": n, "box": [box_rows, box_cols], "givens": values, "style": read}


def python_exact_cover(text: str) -> dict[str, Any]:
    stripped = text.strip()
    puzzle = json.loads(stripped) if stripped.startswith("{") else {"text": text}
    problem = exact_cover.parse_puzzle(puzzle)
    return {"primary": problem.primary, "secondary": problem.secondary, "options": problem.options}


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
    page = page_parsers(texts, [], styles)["sudoku"]
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
    page = page_parsers([], [], [], SHIKAKU_PUZZLES)["shikaku"]
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
    # Compared on what Python accepts: Python also checks the text when it solves, and its
    # message (with the line number) is what the page shows for a text it rejects.
    page = page_parsers([], EXACT_COVER_TEXTS)["exact_cover"]
    for text, js in zip(EXACT_COVER_TEXTS, page, strict=True):
        assert "error" not in js, (text, js)
        number = {name: index for index, name in enumerate(js["items"])}
        as_python = {
            "primary": len(js["items"]) - js["secondaryCount"],
            "secondary": js["secondaryCount"],
            "options": [[number[name] for name in option] for option in js["options"]],
        }
        assert as_python == python_exact_cover(text), text
