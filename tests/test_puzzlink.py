"""The puzz.link codec (pysolver.puzzlink, through the Shikaku URLs of
pysolver.kinds.shikaku.pasted): round trips, number widths, blank runs, bad URLs.

Solving URL puzzles, and the errors of Shikaku's own checks on them, are in test_shikaku.py.
"""

from __future__ import annotations

from time import perf_counter

import pytest

from bench.generators import shikaku_puzzle
from pysolver.kinds.shikaku import to_url
from pysolver.kinds.shikaku.pasted import format_url, parse_url
from pysolver.kinds.sudoku import MAX_SIZE as SUDOKU_MAX_SIZE
from pysolver.kinds.sudoku.pasted import parse_url as parse_sudoku_url
from pysolver.protocol import SolveError
from pysolver.puzzlink import MAX_URL_CHARS


def test_url_round_trip_on_generated_puzzles() -> None:
    for seed in range(40):
        puzzle = shikaku_puzzle(1 + seed % 9, 1 + seed % 13, seed, max_area=30)
        url = to_url(puzzle)
        assert url.startswith("https://puzz.link/p?shikaku/")
        rows, cols, clues = parse_url(url)
        assert (rows, cols) == (puzzle["rows"], puzzle["cols"])
        assert sorted(clues) == sorted(tuple(clue) for clue in puzzle["clues"])


def test_url_numbers_of_every_width_round_trip() -> None:
    # 1 x 9000 is too wide, so use 90 x 100 with three clues: 15, 300 and 8685 cells.
    puzzle = {"rows": 90, "cols": 100, "clues": [[0, 0, 15], [0, 99, 300], [89, 50, 8685]]}
    url = to_url(puzzle)
    data = url.rsplit("/", 1)[1]
    assert data.startswith("f")
    assert "+12c" in data and "%" in data
    rows, cols, clues = parse_url(url)
    assert (rows, cols, sorted(clues)) == (90, 100, sorted(map(tuple, puzzle["clues"])))
    two_digit = {"rows": 4, "cols": 5, "clues": [[1, 2, 20]]}
    assert to_url(two_digit) == "https://puzz.link/p?shikaku/5/4/m-14r"
    big = {"rows": 70, "cols": 80, "clues": [[0, 0, 5600]]}
    assert parse_url(to_url(big))[2] == [(0, 0, 5600)]
    assert "=" in to_url(big)


def test_url_blank_runs_use_letters_up_to_twenty() -> None:
    puzzle = {"rows": 1, "cols": 45, "clues": [[0, 44, 45]]}
    assert to_url(puzzle) == "https://puzz.link/p?shikaku/45/1/zzj-2d"


def test_format_url_writes_the_clues_it_is_given() -> None:
    assert format_url(3, 4, [(0, 1, 6), (2, 2, 6)]) == "https://puzz.link/p?shikaku/4/3/g6n6g"


@pytest.mark.parametrize(
    ("url", "fragment"),
    [
        ("https://puzz.link/p?nurikabe/4/3/g6n6g", "not a Shikaku URL"),
        ("https://puzz.link/p?shikaku/4", "lacks the grid size"),
        ("https://puzz.link/p?shikaku/x/3/g6n6g", "columns 'x' is not a whole number"),
        ("https://puzz.link/p?shikaku/4/0/g6n6g", "rows must be at least 1"),
        ("https://puzz.link/p?shikaku/4/3/g6n6gz", "goes on past the last of the 12 cells"),
        ("https://puzz.link/p?shikaku/4/3/h-6", "followed by 2 hex digits"),
        ("https://puzz.link/p?shikaku/4/3/h.i6h", "question-mark clue at row 1, column 3"),
        ("https://puzz.link/p?shikaku/4/3/h6!6h", "unexpected character '!'"),
        (
            "https://puzz.link/p?shikaku/4/3/0k",
            "clue 0 at row 1, column 1; clues must be at least 1",
        ),
    ],
)
def test_parse_url_errors_point_at_the_url(url: str, fragment: str) -> None:
    with pytest.raises(SolveError) as caught:
        parse_url(url)
    assert (caught.value.code, caught.value.path) == ("invalid_puzzle", "puzzle.url")
    assert fragment in caught.value.message


def test_overlong_url_is_too_large() -> None:
    with pytest.raises(SolveError) as caught:
        parse_url("shikaku/4/3/" + "g" * MAX_URL_CHARS)
    assert caught.value.code == "too_large"


@pytest.mark.parametrize("size", ["²", "٣", "1²", "١٠"])
def test_sizes_are_ascii_digits_only(size: str) -> None:
    # str.isdigit accepts '²' (int rejects it) and Arabic-Indic digits (int reads them).
    with pytest.raises(SolveError) as caught:
        parse_url(f"https://puzz.link/p?shikaku/{size}/2/h")
    assert caught.value.code == "invalid_puzzle"
    assert "digits 0-9" in caught.value.message


@pytest.mark.parametrize("side", [37, 12_000, 999_999_999])
def test_a_sudoku_url_past_the_largest_size_is_refused_before_its_cells(side):
    # 12000 x 12000 once made 144 million cells (2.2 GB, 12 s) before the kind refused them.
    url = f"https://puzz.link/p?sudoku/{side}/{side}/"
    started = perf_counter()
    with pytest.raises(SolveError) as refused:
        parse_sudoku_url(url, SUDOKU_MAX_SIZE)
    assert perf_counter() - started < 0.5
    assert refused.value.code == "too_large"
    assert f"{SUDOKU_MAX_SIZE}x{SUDOKU_MAX_SIZE}" in refused.value.message
    largest = f"https://puzz.link/p?sudoku/{SUDOKU_MAX_SIZE}/{SUDOKU_MAX_SIZE}/"
    assert parse_sudoku_url(largest, SUDOKU_MAX_SIZE)[0] == SUDOKU_MAX_SIZE
