"""Pasted formats in Python (pysolver/pasted.py, which asks each kind's pasted.py) and on the
command line: Tatham's Solo and Rectangles game IDs, sudokuwiki addresses and puzz.link URLs.

The Solo and sudokuwiki rules are the page's too: the same texts go through the page's reader
(web/kinds/sudoku/paste.js, in Node.js) and through Python's, and give the same givens, boxes
and diagonals.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import pysolver
from pysolver import pasted, tatham
from pysolver.__main__ import main
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
    assert sudoku_pasted.parse_url(url) == (4, [1] + [0] * 14 + [4])
    request = pasted.request_from_text(url)
    assert request == {
        "kind": "sudoku",
        "puzzle": {"grid": [[1, 0, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]]},
    }
    with pytest.raises(SolveError, match="square"):
        sudoku_pasted.parse_url("https://puzz.link/p?sudoku/4/3/1")
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


RECTANGLES_RUNNER = """
import { readRectanglesId } from "./web/kinds/shikaku/paste.js";
let input = "";
for await (const chunk of process.stdin) input += chunk;
process.stdout.write(JSON.stringify(JSON.parse(input).map((text) => {
  try { return { puzzle: readRectanglesId(text) }; }
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
    page = run_module(RECTANGLES_RUNNER, ids)
    for game_id, answer in zip(ids, page, strict=True):
        try:
            request = pasted.request_from_text(game_id)
        except SolveError:
            assert "refused" in answer, (game_id, answer)
            continue
        assert request is not None and request["kind"] == "shikaku", game_id
        assert answer == {"puzzle": request["puzzle"]}, game_id
    assert "describes" in page[-1]["refused"]
    assert run_module(RECTANGLES_RUNNER, ["https://puzz.link/p?shikaku/3/3/3i3i3", "3x3"]) == [
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
