"""Messages for people, run through the command line as a real subprocess: cells named as
"row 2, column 2" (counted from 1) with the JSON path kept in the error's ``path``, and
a line that is no request (a Tatham random-seed ID, plain words) told what to give instead."""

from __future__ import annotations

import json
import re

from tests.conftest import run_pysolver

# A JSON path or a 0-based pair in a message: what people were shown before.
DEVELOPER_WORDS = re.compile(r"\[\d+, \d+\]|puzzle\.[a-z]+\[")


def error_of(request: dict) -> dict:
    done = run_pysolver("solve", "-", stdin=json.dumps(request))
    assert done.returncode == 1
    error: dict = json.loads(done.stdout)["error"]
    return error


def test_clashing_cells_are_named_by_row_and_column_from_1() -> None:
    cases = [
        (
            {"kind": "queens", "puzzle": {"n": 4, "queens": [[0, 0], [1, 1]]}},
            "the queen at row 2, column 2 is on the same diagonal as the queen at row 1, column 1",
            "puzzle.queens[1]",
        ),
        (
            {
                "kind": "star_battle",
                "puzzle": {
                    "regions": ["AAB", "ACB", "CCB"],
                    "stars": 1,
                    "givens": [[0, 0], [1, 1]],
                },
            },
            "the star at row 2, column 2 touches the star at row 1, column 1",
            "puzzle.givens[1]",
        ),
        (
            {"kind": "domino", "puzzle": {"rows": 3, "cols": 3, "blocked": [[0, 2], [0, 2]]}},
            "row 1, column 3 is blocked a second time",
            "puzzle.blocked[1]",
        ),
        (
            {"kind": "polyomino", "puzzle": {"board": ["..", ".x"], "pieces": ["D2"]}},
            "row 2 of the board has 'x' at column 2",
            "puzzle.board[1]",
        ),
    ]
    for request, words, path in cases:
        error = error_of(request)
        assert error["message"].startswith(words), error["message"]
        assert not DEVELOPER_WORDS.search(error["message"]), error["message"]
        assert error["path"] == path  # the machine's field keeps the JSON path
    text = run_pysolver("solve", "--format", "text", "-", stdin=json.dumps(cases[0][0])).stdout
    assert "row 2, column 2" in text and "[1, 1]" not in text


def test_batch_says_what_a_tatham_random_seed_id_is_and_what_to_give_instead() -> None:
    done = run_pysolver("batch", "--quiet", "-", stdin="3x3#592385238\n")
    assert done.returncode == 1
    message = json.loads(done.stdout)["error"]["message"]
    assert "Extra data" not in message and "not valid JSON" not in message
    assert "random-seed ID" in message
    assert "game ID" in message and "Game > Specific" in message
    assert "pysolver generate" in message
    # The same in text, and from solve.
    done = run_pysolver("batch", "--quiet", "--format", "text", "-", stdin="7x7de#12345\n")
    assert "random-seed ID" in done.stdout
    done = run_pysolver("solve", "-", stdin="3x3#592385238")
    assert "random-seed ID" in json.loads(done.stdout)["error"]["message"]


def test_a_line_that_is_no_request_is_told_what_a_line_may_be() -> None:
    done = run_pysolver("batch", "--quiet", "-", stdin="hello there\n")
    message = json.loads(done.stdout)["error"]["message"]
    assert "Extra data" not in message and "Expecting value" not in message
    assert "'hello there' is not a request" in message
    for accepted in ("JSON request", "81-character Sudoku line", "Solo or Rectangles game ID"):
        assert accepted in message
    # Text that starts as JSON keeps the JSON error and its position.
    done = run_pysolver("batch", "--quiet", "-", stdin='{"kind": \n')
    assert (
        "not valid JSON: Expecting value at line 1" in json.loads(done.stdout)["error"]["message"]
    )
