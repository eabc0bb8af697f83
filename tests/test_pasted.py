"""Pasted formats in Python (pysolver/pasted.py, which asks each kind's pasted.py) and on the
command line: Tatham's Solo and Rectangles game IDs, sudokuwiki addresses and puzz.link URLs.

The Solo and sudokuwiki rules are the page's too: the same texts go through the page's reader
(web/kinds/sudoku/paste.js, in Node.js) and through Python's, and give the same givens, boxes
and diagonals.
"""

from __future__ import annotations

import json
from pathlib import Path
from time import perf_counter
from typing import Any

import pytest

import pysolver
from pysolver import pasted, tatham
from pysolver.__main__ import main
from pysolver.facts import site_facts
from pysolver.kinds import sudoku
from pysolver.kinds.shikaku import pasted as shikaku_pasted
from pysolver.kinds.sudoku import pasted as sudoku_pasted
from pysolver.protocol import SolveError
from tests.node_page import require_node, run_module
from tests.test_web_sudoku_paste import CLASSIC, CLASSIC_GIVENS, read, solo_id

TOP95 = Path(__file__).parent / "data" / "top95.txt"
CLASSIC_SOLUTION = [
    [5, 3, 4, 6, 7, 8, 9, 1, 2],
    [6, 7, 2, 1, 9, 5, 3, 4, 8],
    [1, 9, 8, 3, 4, 2, 5, 6, 7],
    [8, 5, 9, 7, 6, 1, 4, 2, 3],
    [4, 2, 6, 8, 5, 3, 7, 9, 1],
    [7, 1, 3, 9, 2, 4, 8, 5, 6],
    [9, 6, 1, 5, 3, 7, 2, 8, 4],
    [2, 8, 7, 4, 1, 9, 6, 3, 5],
    [3, 4, 5, 2, 8, 6, 1, 7, 9],
]


def python_reading(text: str) -> dict[str, Any]:
    """What Python reads from a pasted text, in the page reader's terms (givens, box,
    diagonals), or its refusal."""
    try:
        request = pasted.request_from_text(text)
    except SolveError as error:
        return {"refused": error.message}
    assert request is not None and request["kind"] == "sudoku", text
    puzzle = request["puzzle"]
    _n, _rows, _cols, values, _style = sudoku.parse_puzzle(puzzle)
    return {"givens": values, "box": puzzle.get("box"), "diagonals": puzzle.get("diagonals", False)}


def test_python_reads_solo_ids_and_addresses_as_the_page_does():
    require_node("the page's paste reader")
    six = [1, 2, 3, 4, 5, 6] + [0] * 24 + [6, 5] + [0] * 4
    sixteen = list(range(1, 17)) + [0] * 240
    texts = [
        solo_id(CLASSIC),
        solo_id(CLASSIC, "3x3dt"),  # a difficulty after the size
        solo_id("".join("." if v == 0 else str(v) for v in six), "3x2"),
        sudoku_pasted.solo_id(sixteen, 4, 4),
        solo_id("1..." + "." * 11 + "4", "2x2x"),
        "https://www.sudokuwiki.org/sudoku.htm?bd=" + CLASSIC.replace(".", "0"),
        "https://example.org/solve?puzzle=" + CLASSIC + "&x=1",
        "9j:a1b2,ab",  # a jigsaw: recognised, refused
        "3x3:a5",  # too few cells
        "2x2:5o",  # a 5 in a 4x4 game
    ]
    page = read(texts)
    for text, answer in zip(texts, page, strict=True):
        ours = python_reading(text)
        if "refused" in answer:
            assert "refused" in ours, (text, ours)
            assert ours["refused"].split(";")[0] == answer["refused"].split(";")[0], text
            continue
        assert ours["givens"] == answer["givens"], text
        assert ours["box"] == answer.get("box"), text
        assert ours["diagonals"] == answer.get("diagonals", False), text
    assert python_reading(texts[0])["givens"] == CLASSIC_GIVENS


def test_solo_and_rectangles_ids_round_trip():
    for line in TOP95.read_text().split()[:20]:
        values = [0 if ch in ".0" else int(ch) for ch in line]
        request = pasted.request_from_text(sudoku_pasted.solo_id(values, 3, 3))
        assert request is not None
        assert [v for row in request["puzzle"]["grid"] for v in row] == values
    x_values = [1] + [0] * 14 + [4]
    request = pasted.request_from_text(sudoku_pasted.solo_id(x_values, 2, 2, diagonals=True))
    assert request == {
        "kind": "sudoku",
        "puzzle": {
            "grid": [[1, 0, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]],
            "box": [2, 2],
            "diagonals": True,
        },
    }
    clues = [(0, 0, 4), (0, 3, 12), (2, 1, 2), (3, 0, 3), (4, 4, 4)]
    game_id = shikaku_pasted.rectangles_id(5, 5, clues)
    assert game_id == "5x5:4b12g2c3h4"
    request = pasted.request_from_text(game_id)
    assert request == {
        "kind": "shikaku",
        "puzzle": {"rows": 5, "cols": 5, "clues": [list(clue) for clue in clues]},
    }
    # Runs of more than 26 blanks take several letters; two numbers in a row an underscore.
    long_run = tatham.grid_description([0] * 30 + [3, 5])
    assert long_run == "zd3_5"


def test_a_solo_id_is_solved_like_its_grid():
    request = pasted.request_from_text(solo_id(CLASSIC))
    assert request is not None
    response = pysolver.solve(request)
    assert response["ok"] and response["solutions"] == [CLASSIC_SOLUTION], response


def test_puzzlink_sudoku_urls():
    # pzprjs writes Sudoku clues as Shikaku's: hex digits, g..z for runs of 1..20 blanks.
    url = "https://puzz.link/p?sudoku/4/4/1t4"
    assert sudoku_pasted.parse_url(url, sudoku.MAX_SIZE) == (4, [1] + [0] * 14 + [4])
    request = pasted.request_from_text(url)
    assert request == {
        "kind": "sudoku",
        "puzzle": {"grid": [[1, 0, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]]},
    }
    with pytest.raises(SolveError, match="square"):
        sudoku_pasted.parse_url("https://puzz.link/p?sudoku/4/3/1", sudoku.MAX_SIZE)
    shikaku = pasted.request_from_text("https://puzz.link/p?shikaku/3/3/3i3i3")
    assert shikaku == {
        "kind": "shikaku",
        "puzzle": {"url": "https://puzz.link/p?shikaku/3/3/3i3i3"},
    }


def sudoku_url(values: list[int], n: int, prefix: str = "https://puzz.link/p?") -> str:
    """A puzz.link Sudoku URL: pzprjs writes its clues as Shikaku's."""
    clues = [(cell // n, cell % n, value) for cell, value in enumerate(values) if value]
    return prefix + shikaku_pasted.format_url(n, n, clues).split("?", 1)[1].replace(
        "shikaku", "sudoku"
    )


def refusal_words(message: str) -> str:
    """A refusal's words before the first quoted value (Python quotes with ', the page with ")."""
    return message.split(";")[0].split("'")[0].split('"')[0]


def test_the_page_reads_puzzlink_sudoku_urls_as_python_does() -> None:
    require_node("the page's paste reader")
    sixteen = list(range(1, 17)) + [0] * 239 + [1]
    texts = [
        sudoku_url(CLASSIC_GIVENS, 9),
        sudoku_url(CLASSIC_GIVENS, 9, "http://pzv.jp/p.html?"),
        sudoku_url(CLASSIC_GIVENS, 9, ""),  # the bare path
        sudoku_url(CLASSIC_GIVENS, 9).replace("sudoku/", "sudoku_edit/", 1),  # the editor's
        "https://puzz.link/p?sudoku/4/4/1t4#answer",
        sudoku_url(sixteen, 16),  # 16 written "-10"
        "https://puzz.link/p?sudoku/4/3/1",  # not square
        "https://puzz.link/p?sudoku/4/4/1t4zz",  # past the last cell
        "https://puzz.link/p?sudoku/4/4/-1",  # a prefix without its hex digits
        "https://puzz.link/p?sudoku/4/4/1!",  # a character pzprjs never writes
    ]
    assert "-10" in texts[5]
    page = read(texts)
    for text, answer in zip(texts, page, strict=True):
        ours = python_reading(text)
        if "refused" in ours:
            assert "refused" in answer, (text, answer)
            assert refusal_words(answer["refused"]) == refusal_words(ours["refused"]), text
            continue
        assert answer.get("source") == "puzzlink", (text, answer)
        assert answer.get("givens") == ours["givens"], (text, answer)
    assert page[0]["givens"] == CLASSIC_GIVENS and page[5]["n"] == 16


# What the Shikaku editor hands the reader: its facts.json limits.
RECTANGLES_LIMITS = {"max_rows": 100, "max_cols": 100}

RECTANGLES_RUNNER = """
import { readRectanglesId } from "./web/kinds/shikaku/paste.js";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { limits, texts } = JSON.parse(input);
process.stdout.write(JSON.stringify(texts.map((text) => {
  try { return { puzzle: readRectanglesId(text, limits) }; }
  catch (error) { return { refused: error.message }; }
})));
"""


def test_the_page_reads_rectangles_ids_as_python_does() -> None:
    require_node("the page's Rectangles ID reader")
    ids = [
        shikaku_pasted.rectangles_id(
            5, 5, [(0, 0, 4), (0, 3, 12), (2, 1, 2), (3, 0, 3), (4, 4, 4)]
        ),
        shikaku_pasted.rectangles_id(3, 3, [(0, 0, 3), (1, 1, 3), (2, 2, 3)]),
        shikaku_pasted.rectangles_id(
            4, 7, [(0, 0, 10), (0, 1, 12), (3, 6, 6)]
        ),  # 7 wide, "_" between
        shikaku_pasted.rectangles_id(30, 30, [(29, 29, 900)]),  # runs of more than 26 blanks
        " 7x7:b4b2e3a2\n" + "z" * 2,  # too few cells
    ]
    page = run_module(RECTANGLES_RUNNER, {"limits": RECTANGLES_LIMITS, "texts": ids})
    for game_id, answer in zip(ids, page, strict=True):
        try:
            request = pasted.request_from_text(game_id)
        except SolveError:
            assert "refused" in answer, (game_id, answer)
            continue
        assert request is not None and request["kind"] == "shikaku", game_id
        assert answer == {"puzzle": request["puzzle"]}, game_id
    assert "describes" in page[-1]["refused"]
    texts = ["https://puzz.link/p?shikaku/3/3/3i3i3", "3x3"]
    assert run_module(RECTANGLES_RUNNER, {"limits": RECTANGLES_LIMITS, "texts": texts}) == [
        {"puzzle": None},
        {"puzzle": None},
    ]


def test_other_text_is_not_a_pasted_puzzle():
    for text in ("hello", "https://example.com/?q=1", '{"kind": "sudoku"}', "3x3"):
        assert pasted.request_from_text(text) is None, text


def test_the_command_line_solves_pasted_formats(tmp_path, capsys):
    solo = tmp_path / "solo.txt"
    solo.write_text(solo_id(CLASSIC) + "\n")
    assert main(["solve", str(solo)]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["ok"] and answer["solutions"] == [CLASSIC_SOLUTION]
    lines = tmp_path / "lines.txt"
    lines.write_text(
        "\n".join(
            [
                solo_id(CLASSIC),
                "https://www.sudokuwiki.org/sudoku.htm?bd=" + CLASSIC.replace(".", "0"),
                "https://puzz.link/p?shikaku/3/3/3i3i3",
                shikaku_pasted.rectangles_id(3, 3, [(0, 0, 3), (1, 1, 3), (2, 2, 3)]),
                "https://puzz.link/p?sudoku/4/4/1t4",
                "not a puzzle",
            ]
        )
    )
    assert main(["batch", "--quiet", str(lines)]) == 1  # the last line is an error
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [answer["ok"] for answer in answers] == [True] * 5 + [False]
    assert answers[0]["solutions"] == answers[1]["solutions"] == [CLASSIC_SOLUTION]
    assert [answer["kind"] for answer in answers[:5]] == [
        "sudoku",
        "sudoku",
        "shikaku",
        "shikaku",
        "sudoku",
    ]
    assert answers[2]["solutions"] == answers[3]["solutions"]
    assert answers[5]["error"]["code"] == "invalid_json"


def test_the_library_writes_game_ids_that_read_back():
    game = pysolver.Sudoku(CLASSIC)
    request = pasted.request_from_text(game.game_id())
    assert request is not None and request["puzzle"]["box"] == [3, 3]
    assert pysolver.solve(request)["solutions"] == [CLASSIC_SOLUTION]
    x_game = pysolver.Sudoku("1..." + "." * 11 + "4", box=(2, 2), diagonals=True)
    assert x_game.game_id() == "2x2x:1n4"
    with pytest.raises(pysolver.SolverError, match="jigsaw and killer"):
        pysolver.Sudoku("." * 16, regions=["AABB", "AABB", "CCDD", "CCDD"]).game_id()
    shikaku = pysolver.Shikaku(3, 3, [(0, 0, 3), (1, 1, 3), (2, 2, 3)])
    request = pasted.request_from_text(shikaku.game_id())
    assert request == {"kind": "shikaku", "puzzle": shikaku.puzzle}


# Pasted texts whose declared size or numbers are past the limits: refused before a cell is
# made (each line once took gigabytes or seconds, or raised a ValueError traceback).
@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        ("https://puzz.link/p?sudoku/12000/12000/", "too_large", "largest size is 36x36"),
        ("sudoku/37/37/", "too_large", "largest size"),
        ("3x3:" + "z" * 5_000_000, "invalid_puzzle", "130,000,000 cells; a 9x9 game has 81"),
        ("3x3:a" + "1" * 5_000, "invalid_puzzle", "5,000 digits"),
        ("3x3:a" + "1" * 6, "invalid_puzzle", "6 digits"),
        ("9999x9999:" + "z" * 5_000_000, "too_large", "too large"),
        # Neither Rectangles' W*H cells nor within Solo's size.
        ("7x6:" + "z" * 1_000, "too_large", "at most 36 symbols"),
        ("100x100:" + "z" * 5_000_000, "too_large", "at most 36 symbols"),
        # Rectangles' W*H cells, past its largest side.
        ("101x1:" + "c" * 33 + "b", "too_large", "at most 100 x 100"),
        ("37:a", "too_large", "too large"),
        ("https://www.sudokuwiki.org/sudoku.htm?bd=" + "0" * 5_000_000, "too_large", "5,000,000"),
    ],
)
def test_pasted_sizes_past_the_limits_are_refused_at_once(text, code, words):
    started = perf_counter()
    with pytest.raises(SolveError) as refused:
        pasted.read_request(text)
    assert perf_counter() - started < 1.0
    assert refused.value.code == code, refused.value
    assert words in refused.value.message, refused.value


def test_a_game_ids_cells_are_counted_as_they_are_read() -> None:
    # The kinds check tatham's cell_count before they read the cells: the two agree.
    for grid in ["a", "z", "3", "12_3", "a5b1_2c", "Zz9_10b", "", "_", "a" * 100 + "26" * 3]:
        assert tatham.cell_count(grid) == len(tatham.cells(grid)), grid


def test_ids_at_the_limits_are_still_read():
    # The largest Solo game (6x6 boxes, 36 symbols) and Rectangles grid (100 x 100).
    solo = pasted.read_request("6x6:" + "z" * 49 + "v")  # 1,296 blanks
    assert len(solo["puzzle"]["grid"]) == 36
    rectangles = pasted.read_request("100x100:" + "z" * 384 + "o" + "10000")
    assert rectangles["kind"] == "shikaku"
    assert rectangles["puzzle"]["clues"] == [[99, 99, 10000]]
    assert pasted.read_request("3x3:a" + "9" + "z" * 3 + "a")["puzzle"]["grid"][0][1] == 9


def test_a_batch_answers_every_line_around_a_bad_id(tmp_path, capsys):
    lines = [CLASSIC, "3x3:a" + "1" * 5_000, "3x3:" + "z" * 100_000, CLASSIC]
    path = tmp_path / "lines.txt"
    path.write_text("\n".join(lines) + "\n")
    assert main(["batch", str(path)]) == 1
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [answer["ok"] for answer in answers] == [True, False, False, True]
    assert [answer["error"]["code"] for answer in answers[1:3]] == ["invalid_puzzle"] * 2


LIMITS_RUNNER = """
import { readRectanglesId } from "./web/kinds/shikaku/paste.js";
import { readPastedGrid } from "./web/kinds/sudoku/paste.js";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { solo, rectangles, sudokuLimits, shikakuLimits } = JSON.parse(input);
const outcome = (read, text) => {
  const started = performance.now();
  try { read(text); return { read: true }; }
  catch (error) { return { refused: error.message, ms: performance.now() - started }; }
};
const readSolo = (pasted) => readPastedGrid(pasted, sudokuLimits.max_size);
const readRectangles = (pasted) => readRectanglesId(pasted, shikakuLimits);
process.stdout.write(JSON.stringify({
  solo: solo.map((text) => outcome(readSolo, text)),
  rectangles: rectangles.map((text) => outcome(readRectangles, text)),
}));
"""


@pytest.mark.slow
def test_the_page_refuses_sizes_past_the_limits_as_python_does() -> None:
    # The page's readers once filled 144 million cells for sudoku/12000/12000/ and 130 million
    # for 3x3: and 5 million "z"; their limits are Python's kinds'.
    from pysolver.kinds import shikaku

    require_node("the page's pasted readers")
    solo = [
        "https://puzz.link/p?sudoku/12000/12000/",
        "3x3:" + "z" * 5_000_000,
        "3x3:a" + "1" * 5_000,
        "37:a",
    ]
    rectangles = [
        "9999x9999:" + "z" * 5_000_000,
        "100x100:" + "z" * 5_000_000,
        "7x6:" + "z" * 1_000,
    ]
    # The page reads its limits from facts.json, which Python writes from the kinds' own.
    kinds = site_facts()["kinds"]
    assert kinds["sudoku"]["limits"]["max_size"] == sudoku.MAX_SIZE
    assert kinds["shikaku"]["limits"]["max_rows"] == shikaku.MAX_SIDE
    limits = {
        "sudokuLimits": kinds["sudoku"]["limits"],
        "shikakuLimits": kinds["shikaku"]["limits"],
    }
    page = run_module(LIMITS_RUNNER, {"solo": solo, "rectangles": rectangles, **limits})
    for text, answer in zip(solo + rectangles, page["solo"] + page["rectangles"], strict=True):
        assert "refused" in answer and answer["ms"] < 1000, (text[:40], answer)
        with pytest.raises(SolveError):
            pasted.read_request(text)
