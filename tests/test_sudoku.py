"""Sudoku: parsing, the encoding, every engine, and the error messages."""

from __future__ import annotations

import importlib.util
import itertools
import random
from pathlib import Path
from typing import Any

import pytest

from pysolver import solve
from pysolver.engines import trace
from pysolver.kinds import sudoku

TOP95 = Path(__file__).resolve().parent / "data" / "top95.txt"

# The exact cover engines live in their own modules; test them once they exist.
AVAILABLE_ENGINES = [
    engine
    for engine in sudoku.ENGINES
    if engine == "singles" or importlib.util.find_spec(f"pysolver.engines.{engine}") is not None
]

# Arto Inkala's 2012 "world's hardest" 9x9 (one solution).
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


def top95() -> list[str]:
    return [line.strip() for line in TOP95.read_text().splitlines() if line.strip()]


def request(grid: Any, **fields: Any) -> dict[str, Any]:
    puzzle = {"grid": grid}
    for key in ("box", "symbols"):
        if key in fields:
            puzzle[key] = fields.pop(key)
    return {"kind": "sudoku", "puzzle": puzzle, **fields}


def error_of(grid: Any, **fields: Any) -> dict[str, str]:
    response = solve(request(grid, **fields))
    assert response["ok"] is False, response
    return response["error"]


# ---------------------------------------------------------------- helpers: grids and checks


def pattern_grid(box_rows: int, box_cols: int) -> list[list[int]]:
    """A valid filled grid: the standard shifted-rows construction."""
    n = box_rows * box_cols
    return [
        [(box_cols * (r % box_rows) + r // box_rows + c) % n + 1 for c in range(n)]
        for r in range(n)
    ]


def shuffled_grid(box_rows: int, box_cols: int, rng: random.Random) -> list[list[int]]:
    """A valid filled grid with digits relabelled and rows/columns permuted within bands."""
    n = box_rows * box_cols
    base = pattern_grid(box_rows, box_cols)
    labels = list(range(1, n + 1))
    rng.shuffle(labels)
    bands = list(range(box_cols))  # there are n / box_rows = box_cols bands of box_rows rows
    rng.shuffle(bands)
    rows = [band * box_rows + r for band in bands for r in rng.sample(range(box_rows), box_rows)]
    stacks = list(range(box_rows))
    rng.shuffle(stacks)
    cols = [stack * box_cols + c for stack in stacks for c in rng.sample(range(box_cols), box_cols)]
    return [[labels[base[r][c] - 1] for c in cols] for r in rows]


def blank_out(grid: list[list[int]], fraction: float, rng: random.Random) -> list[list[int]]:
    return [[0 if rng.random() < fraction else value for value in row] for row in grid]


def assert_valid_solution(
    givens: list[list[int]], solution: list[list[int]], box_rows: int, box_cols: int
) -> None:
    n = len(givens)
    assert len(solution) == n and all(len(row) == n for row in solution)
    digits = set(range(1, n + 1))
    for r in range(n):
        assert set(solution[r]) == digits, f"row {r}"
        assert {solution[i][r] for i in range(n)} == digits, f"column {r}"
    for top in range(0, n, box_rows):
        for left in range(0, n, box_cols):
            box = {solution[top + i][left + j] for i in range(box_rows) for j in range(box_cols)}
            assert box == digits, f"box at {top},{left}"
    for r in range(n):
        for c in range(n):
            if givens[r][c]:
                assert solution[r][c] == givens[r][c]


def rows_of(text: str) -> list[list[int]]:
    symbols = "".join(text.split())
    n = int(len(symbols) ** 0.5)
    values = [0 if ch in ".0" else int(ch, 36) for ch in symbols]
    return [values[r * n : (r + 1) * n] for r in range(n)]


def reference_count(grid: list[list[int]], box_rows: int, box_cols: int, cap: int) -> int:
    """A tiny independent solver: backtracking on the cell with fewest candidates."""
    n = len(grid)
    cells = [row[:] for row in grid]

    def candidates(r: int, c: int) -> set[int]:
        used = set(cells[r]) | {cells[i][c] for i in range(n)}
        top, left = r - r % box_rows, c - c % box_cols
        used |= {cells[top + i][left + j] for i in range(box_rows) for j in range(box_cols)}
        return set(range(1, n + 1)) - used

    def count() -> int:
        best = None
        for r in range(n):
            for c in range(n):
                if not cells[r][c]:
                    options = candidates(r, c)
                    if best is None or len(options) < len(best[2]):
                        best = (r, c, options)
        if best is None:
            return 1
        r, c, options = best
        total = 0
        for value in sorted(options):
            cells[r][c] = value
            total += count()
            cells[r][c] = 0
            if total >= cap:
                break
        return total

    return min(count(), cap)


# ---------------------------------------------------------------- top95


def test_top95_all_unique_and_valid_with_default_engine() -> None:
    puzzles = top95()
    assert len(puzzles) == 95
    for index, text in enumerate(puzzles):
        response = solve(request(text, limit=2))
        assert response["ok"], (index, response)
        assert response["engine"] == sudoku.ENGINES[0]
        assert (response["count"], response["complete"], response["unique"]) == (1, True, True)
        assert_valid_solution(rows_of(text), response["solutions"][0], 3, 3)


@pytest.mark.parametrize("engine", AVAILABLE_ENGINES)
def test_every_engine_gives_the_same_answers_on_a_sample(engine: str) -> None:
    sample = top95()[::12] + [INKALA]
    for text in sample:
        default = solve(request(text, limit=2))
        other = solve(request(text, limit=2, engine=engine))
        assert other["ok"], other
        assert other["engine"] == engine
        for key in ("count", "complete", "unique", "solutions"):
            assert other[key] == default[key], (engine, key, text)


@pytest.mark.slow
@pytest.mark.parametrize("engine", AVAILABLE_ENGINES[1:])
def test_every_engine_on_all_of_top95(engine: str) -> None:
    for text in top95():
        default = solve(request(text, limit=2))
        other = solve(request(text, limit=2, engine=engine))
        assert other["solutions"] == default["solutions"]
        assert other["unique"] is True


@pytest.fixture(scope="module")
def multi_solution_grid() -> tuple[list[list[int]], int]:
    """A 9x9 grid with 131 completions (blanks drawn by a seeded generator), and its count."""
    rng = random.Random(11)
    givens = blank_out(shuffled_grid(3, 3, rng), 0.55, rng)
    return givens, reference_count(givens, 3, 3, cap=10_000)


@pytest.mark.parametrize("engine", AVAILABLE_ENGINES)
def test_every_engine_counts_a_multi_solution_grid_like_the_reference(
    engine: str, multi_solution_grid: tuple[list[list[int]], int]
) -> None:
    givens, expected = multi_solution_grid
    assert 1 < expected < 10_000  # a useful test needs several solutions
    response = solve(request(givens, mode="count", engine=engine))
    assert (response["count"], response["complete"], response["unique"]) == (
        expected,
        True,
        False,
    )
    listed = solve(request(givens, limit=expected + 1, engine=engine))
    assert listed["count"] == expected and listed["complete"]
    assert len({str(solution) for solution in listed["solutions"]}) == expected
    default = solve(request(givens, limit=expected + 1))
    assert sorted(listed["solutions"]) == sorted(default["solutions"])
    for solution in listed["solutions"][:5]:
        assert_valid_solution(givens, solution, 3, 3)


@pytest.fixture(scope="module")
def small_grids() -> list[tuple[list[list[int]], list[int], int]]:
    """4x4 and 6x6 grids with a few completions each: (givens, box, reference count)."""
    rng = random.Random(5)
    grids = []
    for box_rows, box_cols in [(2, 2), (2, 3), (3, 2), (2, 2), (2, 3)]:
        givens = blank_out(shuffled_grid(box_rows, box_cols, rng), 0.6, rng)
        count = reference_count(givens, box_rows, box_cols, cap=5_000)
        grids.append((givens, [box_rows, box_cols], count))
    return grids


@pytest.mark.parametrize("engine", AVAILABLE_ENGINES)
def test_every_engine_agrees_on_small_random_grids(
    engine: str, small_grids: list[tuple[list[list[int]], list[int], int]]
) -> None:
    for givens, box, expected in small_grids:
        response = solve(request(givens, box=box, mode="count", engine=engine))
        assert response["count"] == expected
        assert response["complete"]


# ---------------------------------------------------------------- sizes and formats


def test_4x4_string_with_line_breaks() -> None:
    text = "1...\n..2.\n.3..\n...4"
    response = solve(request(text, limit=2))
    assert response["ok"], response
    assert response["size"] == 4 and response["box"] == [2, 2]
    givens = rows_of(text)
    expected = reference_count(givens, 2, 2, cap=100)
    assert response["count"] == min(expected, 2)
    assert_valid_solution(givens, response["solutions"][0], 2, 2)


def test_empty_4x4_has_288_solutions_and_count_respects_the_cap() -> None:
    full = solve(request("." * 16, mode="count"))
    assert (full["count"], full["complete"], full["unique"]) == (288, True, False)
    capped = solve(request("0" * 16, mode="count", limit=100))
    assert (capped["count"], capped["complete"]) == (100, False)
    assert capped["solutions"] == []


def test_6x6_uses_2x3_boxes() -> None:
    rng = random.Random(3)
    full = shuffled_grid(2, 3, rng)
    givens = blank_out(full, 0.5, rng)
    text = "".join(str(v) if v else "." for row in givens for v in row)
    response = solve(request(text))
    assert response["box"] == [2, 3]
    assert_valid_solution(givens, response["solutions"][0], 2, 3)


def test_explicit_3x2_boxes_change_the_answer_shape() -> None:
    full = pattern_grid(3, 2)
    givens = blank_out(full, 0.4, random.Random(1))
    response = solve(request(givens, box=[3, 2]))
    assert response["box"] == [3, 2]
    assert_valid_solution(givens, response["solutions"][0], 3, 2)


def test_9x9_list_of_rows_and_list_of_strings() -> None:
    text = top95()[0]
    as_ints = solve(request(rows_of(text)))
    as_strings = solve(request([text[i : i + 9] for i in range(0, 81, 9)]))
    as_text = solve(request(text))
    assert as_ints["solutions"] == as_text["solutions"] == as_strings["solutions"]
    assert as_ints["symbols"] == "ints"


@pytest.mark.parametrize(("box_rows", "box_cols"), [(2, 4), (3, 4), (4, 4), (5, 5)])
def test_larger_grids_solve(box_rows: int, box_cols: int) -> None:
    rng = random.Random(box_rows * 10 + box_cols)
    givens = blank_out(shuffled_grid(box_rows, box_cols, rng), 0.45, rng)
    response = solve(request(givens))
    assert response["ok"], response
    assert response["box"] == [box_rows, box_cols]
    assert_valid_solution(givens, response["solutions"][0], box_rows, box_cols)


def test_16x16_in_both_styles_gives_the_same_ints() -> None:
    rng = random.Random(16)
    givens = blank_out(shuffled_grid(4, 4, rng), 0.5, rng)
    one_to_g = "".join("123456789ABCDEFG"[v - 1] if v else "0" for row in givens for v in row)
    zero_to_f = "".join("0123456789ABCDEF"[v - 1] if v else "." for row in givens for v in row)
    assert "0" in zero_to_f  # the auto rule needs a 0 digit to tell the styles apart
    first = solve(request(one_to_g))
    second = solve(request(zero_to_f))
    lower = solve(request(zero_to_f.lower()))
    assert (first["symbols"], second["symbols"]) == ("1-G", "0-F")
    assert first["solutions"] == second["solutions"] == lower["solutions"]
    assert_valid_solution(givens, first["solutions"][0], 4, 4)


def test_16x16_symbols_field_overrides_the_auto_rule() -> None:
    # A full 0-F grid has no '.', so the auto rule reads it as 1-G with '0' as the blank.
    full = shuffled_grid(4, 4, random.Random(17))
    text = "".join("0123456789ABCDEF"[v - 1] for row in full for v in row)
    explicit = solve(request(text, symbols="0-F", limit=2))
    assert explicit["symbols"] == "0-F"
    assert explicit["solutions"] == [full] and explicit["unique"]
    auto = solve(request(text, limit=2))
    assert auto["symbols"] == "1-G"
    # Read as 1-G, symbol s is the value s (0 blank, filled with the missing 16).
    assert auto["solutions"] == [[[(v - 2) % 16 + 1 for v in row] for row in full]]


def test_unsolvable_but_consistent_grid_counts_zero() -> None:
    # Row 1 holds 1-8 and column 9 already has its 9 lower down: cell (1, 9) has no candidate.
    text = "12345678." + "........9" + "." * 63
    for mode in ("solve", "count"):
        response = solve(request(text, mode=mode, limit=2))
        assert response["ok"], response
        assert (response["count"], response["complete"], response["unique"]) == (0, True, False)
        assert response["solutions"] == []


def test_deeper_contradiction_is_found_by_search() -> None:
    # Consistent givens, yet no completion: boxes 1 and 2 hold 1-3 in rows 1 and 2, so box 3
    # needs 1-3 in row 3, where the 4 leaves only two cells.
    text = "123......" + "...123..." + "......4.." + "." * 54
    response = solve(request(text, mode="count"))
    assert response["ok"]
    assert (response["count"], response["complete"]) == (0, True)


def test_a_full_valid_grid_is_its_own_unique_solution() -> None:
    grid = pattern_grid(3, 3)
    response = solve(request(grid, limit=2))
    assert (response["count"], response["unique"]) == (1, True)
    assert response["solutions"] == [grid]


def test_random_mode_gives_distinct_solutions_fixed_by_seed() -> None:
    first = solve(request("." * 81, mode="random", limit=4, seed=3))
    again = solve(request("." * 81, mode="random", limit=4, seed=3))
    other = solve(request("." * 81, mode="random", limit=4, seed=4))
    assert first["solutions"] == again["solutions"]
    assert first["solutions"] != other["solutions"]
    assert len({str(s) for s in first["solutions"]}) == 4
    for solution in first["solutions"]:
        assert_valid_solution([[0] * 9] * 9, solution, 3, 3)


def test_latin_square_with_1xn_boxes() -> None:
    response = solve(request("." * 49, box=[1, 7], limit=1))
    assert response["ok"], response
    assert_valid_solution([[0] * 7] * 7, response["solutions"][0], 1, 7)


def test_cancel_and_progress_through_the_api() -> None:
    reports: list[dict[str, Any]] = []
    response = solve(request("." * 81, mode="count"), progress=reports.append, cancel=lambda: True)
    assert response["ok"]
    assert response["cancelled"] is True
    assert response["complete"] is False
    # Two solutions were found before the cancel: not unique, whatever else remains.
    assert response["count"] >= 2 and response["unique"] is False
    assert reports and reports[-1]["done"] is True


# ---------------------------------------------------------------- errors


def test_wrong_length_names_the_length_and_valid_sizes() -> None:
    error = error_of("1" * 80)
    assert error["path"] == "puzzle.grid"
    assert "80" in error["message"] and "81 (9x9)" in error["message"]


def test_symbol_out_of_range() -> None:
    error = error_of("A" + "." * 80)
    assert error["path"] == "puzzle.grid"
    assert "'A'" in error["message"] and "means 10" in error["message"]
    assert "row 1, column 1" in error["message"]
    letter = error_of("." * 40 + "x" + "." * 40)
    assert "'x'" in letter["message"] and "row 5, column 5" in letter["message"]
    star = error_of("." * 80 + "*")
    assert "'*' at row 9, column 9 is not a symbol" in star["message"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("5...5" + "." * 76, "two 5s in row 1 (columns 1 and 5"),
        ("." * 11 + "7" + "." * 26 + "7" + "." * 42, "two 7s in column 3 (rows 2 and 5"),
        ("3" + "." * 9 + "3" + "." * 70, "two 3s in box 1"),
        ("." * 30 + "5" + "." * 19 + "5" + "." * 30, "two 5s in box 5"),
    ],
)
def test_clashing_givens_are_named_in_plain_words(text: str, words: str) -> None:
    error = error_of(text)
    assert error["code"] == "invalid_puzzle"
    assert error["path"] == "puzzle.grid"
    assert words in error["message"]
    assert "count from 1" in error["message"]


def test_clash_of_letters_in_16x16_uses_the_symbol() -> None:
    text = "B...B" + "." * 251
    assert "two Bs in row 1" in error_of(text)["message"]


def test_prime_size_needs_a_box() -> None:
    error = error_of("." * 49)
    assert "7x7" in error["message"] and "box" in error["message"]
    # A truncated paste hears about sizes, not about its digits being too large.
    short = error_of("5...5....")
    assert "3x3" in short["message"] and "81 (9x9)" in short["message"]


@pytest.mark.parametrize(
    ("box", "path", "words"),
    [
        ([2, 4], "puzzle.box", "rows * cols = 9"),
        ([3], "puzzle.box", "[rows, cols]"),
        ("3x3", "puzzle.box", "must be a list"),
        ([3, "3"], "puzzle.box[1]", "integer"),
    ],
)
def test_bad_box(box: Any, path: str, words: str) -> None:
    error = error_of("." * 81, box=box)
    assert error["path"] == path
    assert words in error["message"]


@pytest.mark.parametrize(
    ("grid", "path", "words"),
    [
        (81, "puzzle.grid", "string of n*n symbols or a list"),
        (None, "puzzle.grid", "null"),
        ([], "puzzle.grid", "no rows"),
        ([[0] * 9] * 8 + [[0] * 8], "puzzle.grid[8]", "row 9 has 8 entries"),
        ([[0] * 4] * 3 + [[0, 0, 5, 0]], "puzzle.grid[3][2]", "at most 4"),
        ([[0] * 4] * 3 + [[0, 0, True, 0]], "puzzle.grid[3][2]", "integer"),
        ([[0] * 4] * 3 + ["...."], "puzzle.grid[3]", "must be a list"),
        (["..", "..."], "puzzle.grid[1]", "row 2 has 3 symbols"),
        ("", "puzzle.grid", "empty"),
    ],
)
def test_wrong_types_and_shapes(grid: Any, path: str, words: str) -> None:
    error = error_of(grid)
    assert error["path"] == path, error
    assert words in error["message"], error


def test_puzzle_must_be_an_object_with_a_grid() -> None:
    response = solve({"kind": "sudoku", "puzzle": "...."})
    assert response["error"]["path"] == "puzzle"
    response = solve({"kind": "sudoku", "puzzle": {"cells": "...."}})
    assert "grid" in response["error"]["message"]


def test_symbols_field_is_checked() -> None:
    assert error_of("." * 81, symbols="0-F")["path"] == "puzzle.grid"
    assert error_of("." * 256, symbols="hex")["path"] == "puzzle.symbols"


def test_unknown_engine() -> None:
    response = solve(request("." * 16, engine="quantum"))
    assert response["error"]["code"] == "unknown_engine"


def test_too_large_list_grid() -> None:
    error = error_of([[0] * 40] * 40)
    assert "largest" in error["message"]


# ---------------------------------------------------------------- trace mode and heatmaps

EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def replayed_grids(grid: list[list[int]], steps: list[dict[str, Any]]) -> list[list[list[int]]]:
    """The givens plus the digits placed, at every solution step."""
    grids = []
    for board in trace.replay(steps):
        filled = [row[:] for row in grid]
        for place in board:
            r, c = place["cell"]
            assert filled[r][c] == 0
            filled[r][c] = place["value"]
        grids.append(filled)
    return grids


@pytest.mark.parametrize("engine", sudoku.ENGINES)
def test_trace_replays_to_the_reported_solutions(engine: str) -> None:
    grid = [[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]]
    response = solve(request(grid, mode="trace", limit=None, engine=engine))
    assert response["ok"] and response["complete"] and not response["truncated"]
    assert replayed_grids(grid, response["steps"]) == response["solutions"]
    assert response["count"] == solve(request(grid, mode="count", engine=engine))["count"]
    nodes = solve(request(grid, limit=None, engine=engine))["stats"]["nodes"]
    assert response["stats"]["nodes"] == nodes  # the same tree as the engine's


def test_singles_trace_of_an_easy_puzzle_is_all_forced() -> None:
    response = solve(request(EASY, mode="trace"))
    assert response["ok"] and response["count"] == 1
    types = [step["type"] for step in response["steps"]]
    assert set(types) == {"force", "solution"} and types.count("force") == 51
    assert "the only option left" in response["steps"][0]["text"]
    assert replayed_grids(rows_of(EASY), response["steps"]) == response["solutions"]


def test_dlx_trace_chooses_items_in_sudoku_terms() -> None:
    response = solve(request(EASY, mode="trace", engine="dlx"))
    chosen = [step["item"] for step in response["steps"] if step["type"] == "choose"]
    assert chosen and all(
        set(item) in ({"cell"}, {"row", "digit"}, {"column", "digit"}, {"box", "digit"})
        for item in chosen
    )


def brute_force_grids(grid: list[list[int]]) -> list[list[list[int]]]:
    """Every completion of a 4x4 grid (2x2 boxes), by trying row permutations."""
    rows = list(itertools.permutations(range(1, 5)))
    found = []
    for candidate in itertools.product(rows, repeat=4):
        if any(grid[r][c] and grid[r][c] != candidate[r][c] for r in range(4) for c in range(4)):
            continue
        columns_ok = all(len({candidate[r][c] for r in range(4)}) == 4 for c in range(4))
        boxes_ok = all(
            len({candidate[r][c] for r in (top, top + 1) for c in (left, left + 1)}) == 4
            for top in (0, 2)
            for left in (0, 2)
        )
        if columns_ok and boxes_ok:
            found.append([list(row) for row in candidate])
    return found


@pytest.mark.parametrize("engine", sudoku.ENGINES)
def test_heatmap_equals_counts_over_every_solution(engine: str) -> None:
    grid = [[1, 0, 0, 0], [0, 0, 3, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    solutions = brute_force_grids(grid)
    expected = {str(d): [[0] * 4 for _ in range(4)] for d in range(1, 5)}
    for solution in solutions:
        for r in range(4):
            for c in range(4):
                expected[str(solution[r][c])][r][c] += 1
    response = solve(request(grid, mode="count", heatmap=True, engine=engine))
    assert response["ok"] and response["count"] == len(solutions) > 1
    assert response["heatmap"] == expected


def test_trace_and_heatmap_fields_are_validated() -> None:
    for fields, path in (
        ({"mode": "trace", "max_steps": 0}, "max_steps"),
        ({"mode": "trace", "max_steps": 100_001}, "max_steps"),
        ({"mode": "trace", "max_steps": "10"}, "max_steps"),
        ({"mode": "solve", "max_steps": 10}, "max_steps"),
        ({"mode": "solve", "heatmap": True}, "heatmap"),
        ({"mode": "count", "heatmap": "yes"}, "heatmap"),
    ):
        response = solve(request(EASY, **fields))
        assert not response["ok"], fields
        assert response["error"]["code"] == "invalid_request"
        assert response["error"]["path"] == path
