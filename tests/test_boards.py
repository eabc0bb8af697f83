"""The shared board-rows validator, directly and through both kinds that read boards."""

from __future__ import annotations

from typing import Any

import pytest

from pysolver import solve
from pysolver.boards import read_board_rows
from pysolver.protocol import INVALID_PUZZLE, TOO_LARGE, SolveError


def test_valid_rows_come_back_unchanged() -> None:
    rows = ["..#", "#..", "..."]
    assert read_board_rows(rows, "puzzle.board", 10) == rows


@pytest.mark.parametrize(
    ("value", "code", "path", "fragment"),
    [
        ("...", INVALID_PUZZLE, "puzzle.board", "must be a list"),
        ([], INVALID_PUZZLE, "puzzle.board", "is empty"),
        (["..", 7], INVALID_PUZZLE, "puzzle.board[1]", "must be a string"),
        (["..", ""], INVALID_PUZZLE, "puzzle.board[1]", "at least one cell"),
        (
            ["..", "..."],
            INVALID_PUZZLE,
            "puzzle.board[1]",
            "row 2 of the board has 3 characters but row 1 has 2",
        ),
        (["..", ".x"], INVALID_PUZZLE, "puzzle.board[1]", "row 2 of the board has 'x' at column 2"),
        (["."] * 5, TOO_LARGE, "puzzle.board", "5 rows; the limit is 4"),
        (["....."], TOO_LARGE, "puzzle.board[0]", "5 columns; the limit is 4"),
    ],
)
def test_bad_boards_name_the_row_and_the_fix(
    value: Any, code: str, path: str, fragment: str
) -> None:
    with pytest.raises(SolveError) as caught:
        read_board_rows(value, "puzzle.board", 4)
    assert (caught.value.code, caught.value.path) == (code, path)
    assert fragment in caught.value.message


@pytest.mark.parametrize(
    ("kind", "puzzle"),
    [
        ("polyomino", {"board": ["..", "..."], "pieces": ["D2", "D2"]}),
        ("domino", {"board": ["..", "..."]}),
    ],
)
def test_both_kinds_report_the_same_board_error(kind: str, puzzle: dict[str, Any]) -> None:
    response = solve({"kind": kind, "puzzle": puzzle})
    assert not response["ok"]
    assert response["error"]["path"] == "puzzle.board[1]"
    assert "row 1 has 2" in response["error"]["message"]
