"""The page's paste reader (web/kinds/sudoku/paste.js) in Node.js: other programs' layouts.

HoDoKu and Sudoku Explainer frames, "*" and "x" blanks, CSV rows, "=" rule lines, sudokuwiki
addresses with "?bd=" and Simon Tatham's Solo game IDs all become grid text that the page's
parseGrid and Python's sudoku kind then read alike (the same givens); text that is no grid
comes back for parseGrid's own message.
"""

from __future__ import annotations

from typing import Any

from pysolver.facts import site_facts
from pysolver.kinds import sudoku
from tests.node_page import require_node, run_module

require_node("the page's paste reader")

RUNNER = """
import { readPastedGrid } from "./web/kinds/sudoku/paste.js";
import { parseGrid } from "./web/kinds/sudoku/editor.js";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { facts, texts } = JSON.parse(input);
process.stdout.write(JSON.stringify(texts.map((text) => {
  let read;
  try { read = readPastedGrid(text, facts.kinds.sudoku.limits.max_size); }
  catch (error) { return { refused: error.message }; }
  try {
    const { size, givens } = parseGrid(read.text, facts.kinds.sudoku);
    return { ...read, n: size.n, givens };
  } catch (error) { return { ...read, error: error.message }; }
})));
"""

CLASSIC = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
CLASSIC_GIVENS = [0 if ch == "." else int(ch) for ch in CLASSIC]


def rows(text: str, n: int = 9) -> list[str]:
    return [text[r * n : (r + 1) * n] for r in range(n)]


def hodoku_frame(text: str) -> str:
    """The frame HoDoKu and Sudoku Explainer print (``*-----------*``, "|" between boxes)."""
    lines = ["*-----------*"]
    for r, row in enumerate(rows(text)):
        lines.append("|" + "|".join(row[c : c + 3] for c in (0, 3, 6)) + "|")
        if r in (2, 5):
            lines.append("|---+---+---|")
    lines.append("*-----------*")
    return "\n".join(lines)


def equals_rules(text: str) -> str:
    """Spaced rows with "=" rule lines between the bands and "||" between the stacks."""
    lines = []
    for r, row in enumerate(rows(text)):
        lines.append(" || ".join(" ".join(row[c : c + 3]) for c in (0, 3, 6)))
        if r in (2, 5):
            lines.append("=======++=======++=======")
    return "\n".join(lines)


def solo_id(text: str, params: str = "3x3") -> str:
    """A Tatham Solo game ID: letters are runs of blanks, "_" between adjacent numbers."""
    out, run, previous_number = [], 0, False
    for ch in text:
        if ch == ".":
            run += 1
            continue
        while run:
            step = min(run, 26)
            out.append(chr(96 + step))
            run -= step
            previous_number = False
        if previous_number:
            out.append("_")
        out.append(str(int(ch, 36)))
        previous_number = True
    while run:
        step = min(run, 26)
        out.append(chr(96 + step))
        run -= step
    return f"{params}:{''.join(out)}"


def read(texts: list[str]) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = run_module(RUNNER, {"facts": site_facts(), "texts": texts})
    return result


def python_givens(text: str) -> list[int]:
    _n, _rows, _cols, values, _style = sudoku.parse_puzzle({"grid": text})
    return values


def test_other_programs_layouts_give_the_classic_grid() -> None:
    texts = {
        "frame": hodoku_frame(CLASSIC),
        "stars": CLASSIC.replace(".", "*"),
        "crosses": CLASSIC.replace(".", "x"),
        "csv": "\n".join(",".join("" if ch == "." else ch for ch in row) for row in rows(CLASSIC)),
        "semicolons": "\n".join(";".join(row.replace(".", "0")) for row in rows(CLASSIC)),
        "equals": equals_rules(CLASSIC),
        "sudokuwiki": "https://www.sudokuwiki.org/sudoku.htm?bd=" + CLASSIC.replace(".", "0"),
        "solo": solo_id(CLASSIC),
    }
    for (name, text), answer in zip(texts.items(), read(list(texts.values())), strict=True):
        assert answer.get("givens") == CLASSIC_GIVENS, (name, text, answer)
        # Python reads the grid text the page made in the same way.
        assert python_givens(answer["text"]) == CLASSIC_GIVENS, (name, answer)
    answers = read([texts["solo"], texts["sudokuwiki"], texts["frame"], texts["csv"]])
    assert [answer["source"] for answer in answers] == ["solo", "address", "frame", "rows"]
    assert answers[0]["box"] == [3, 3] and answers[0]["diagonals"] is False


def test_solo_ids_of_other_sizes_and_flags() -> None:
    six = "123456" + "." * 24 + "65" + "." * 4
    sixteen = "123456789ABCDEFG" + "." * 240
    x_four = "1..." + "." * 11 + "4"
    answers = read(
        [
            solo_id(six, "3x2"),
            solo_id(sixteen, "4x4"),
            solo_id(x_four, "2x2x"),
            solo_id(CLASSIC, "3x3dt"),  # a difficulty after the size
            "9j:a1b2,ab...",  # a jigsaw: recognised, not read
            "3x3:a5",  # too few cells
        ]
    )
    assert answers[0]["box"] == [2, 3] and answers[0]["n"] == 6
    assert answers[0]["givens"][:6] == [1, 2, 3, 4, 5, 6] and answers[0]["givens"][30:32] == [6, 5]
    assert answers[1]["n"] == 16 and answers[1]["givens"][:16] == list(range(1, 17))
    assert answers[2]["diagonals"] is True and answers[2]["givens"][-1] == 4
    assert answers[3]["givens"] == CLASSIC_GIVENS
    assert "jigsaw or killer" in answers[4]["refused"]
    assert "describes 2 cells" in answers[5]["refused"]


def test_text_that_is_no_grid_gets_parse_grids_words() -> None:
    answers = read(["hello world", CLASSIC[:80] + "!", "https://example.com/?q=1"])
    assert "has 10 symbols" in answers[0]["error"]
    assert '"!"' in answers[1]["error"] and "row 9, column 9" in answers[1]["error"]
    assert "has" in answers[2]["error"] and answers[2]["source"] == "plain"
