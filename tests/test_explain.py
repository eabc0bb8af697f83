"""Explain and hint modes for Sudoku: every path replayed from the givens by an independent
checker reaches the solution with every placement right and no right candidate removed; each
technique fires on a hand-made board; hints name mistakes; answers are reproducible; bad
requests are refused clearly."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import pysolver
from pysolver.kinds.sudoku import techniques as sudoku_techniques
from pysolver.kinds.sudoku.board import Grid
from pysolver.kinds.sudoku.path import grade
from pysolver.logic.step import LEVELS, Step
from pysolver.pasted import request_from_text

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent
TOP95 = (DATA / "top95.txt").read_text().split()
EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def explain(puzzle: dict[str, Any]) -> dict[str, Any]:
    response = pysolver.solve({"kind": "sudoku", "mode": "explain", "puzzle": puzzle})
    assert response["ok"], response
    return response


def hint(puzzle: dict[str, Any]) -> dict[str, Any]:
    response = pysolver.solve({"kind": "sudoku", "mode": "hint", "puzzle": puzzle})
    assert response["ok"], response
    return response["hint"]


# ---------------------------------------------------------------- an independent replay


def houses(n: int, box: tuple[int, int], regions: list[str] | None, diagonals: bool) -> list:
    """Every house as a list of (row, column), from the puzzle's own description."""
    found = [[(r, c) for c in range(n)] for r in range(n)]
    found += [[(r, c) for r in range(n)] for c in range(n)]
    if regions is None:
        rows, cols = box
        for top in range(0, n, rows):
            for left in range(0, n, cols):
                found.append([(top + r, left + c) for r in range(rows) for c in range(cols)])
    else:
        labels = sorted({label for row in regions for label in row})
        for label in labels:
            found.append([(r, c) for r in range(n) for c in range(n) if regions[r][c] == label])
    if diagonals:
        found.append([(i, i) for i in range(n)])
        found.append([(i, n - 1 - i) for i in range(n)])
    return found


def replay(
    givens: list[list[int]],
    steps: list[dict[str, Any]],
    solution: list[list[int]],
    box: tuple[int, int],
    regions: list[str] | None = None,
    diagonals: bool = False,
) -> None:
    """Apply ``steps`` to candidates worked out from the givens: every placement is the
    solution's digit and still a candidate, every elimination removes a candidate that is not
    the solution's, and the board ends as the solution."""
    n = len(givens)
    peers: dict[tuple[int, int], set[tuple[int, int]]] = {
        (r, c): set() for r in range(n) for c in range(n)
    }
    for house in houses(n, box, regions, diagonals):
        for cell in house:
            peers[cell].update(house)
    candidates = {cell: set(range(1, n + 1)) for cell in peers}
    board = {cell: 0 for cell in peers}

    def put(cell: tuple[int, int], digit: int) -> None:
        board[cell] = digit
        candidates[cell] = {digit}
        for peer in peers[cell] - {cell}:
            candidates[peer].discard(digit)

    for r, row in enumerate(givens):
        for c, digit in enumerate(row):
            if digit:
                put((r, c), digit)
    for step in steps:
        assert step["technique"] and step["text"] and step["cells"], step
        assert step["place"] or step["eliminate"], step
        for r, c, digit in step["eliminate"]:
            assert digit != solution[r][c], f"removes the right digit: {step}"
            assert digit in candidates[r, c] and not board[r, c], f"removes nothing: {step}"
            candidates[r, c].discard(digit)
        for r, c, digit in step["place"]:
            assert digit == solution[r][c], f"places a wrong digit: {step}"
            assert digit in candidates[r, c] and not board[r, c], step
            put((r, c), digit)
    assert [[board[r, c] for c in range(n)] for r in range(n)] == solution


def read(text: str, n: int) -> list[list[int]]:
    symbols = "123456789ABCDEFG"
    values = [0 if char in ".0" else symbols.index(char) + 1 for char in text]
    return [values[r * n : (r + 1) * n] for r in range(n)]


BOXES = {4: (2, 2), 6: (2, 3), 9: (3, 3), 12: (3, 4), 16: (4, 4)}


def test_every_top95_path_replays_to_the_solution() -> None:
    levels = set()
    for text in TOP95:
        response = explain({"grid": text})
        solution = response["solutions"][0]
        replay(read(text, 9), response["steps"], solution, (3, 3))
        assert response["unique"] and response["complete"]
        levels.add(response["grade"]["level"])
        assert response["grade"] == grade_of(response["steps"])
    assert {"medium", "hard", "expert"} <= levels


def grade_of(steps: list[dict[str, Any]]) -> dict[str, Any]:
    """The grade as docs/explaining.md defines it, from the steps alone."""
    by_name = {
        technique.name: technique
        for technique in (*sudoku_techniques.TECHNIQUES, sudoku_techniques.GUESS)
    }
    times: dict[str, int] = {}
    for step in steps:
        times[step["technique"]] = times.get(step["technique"], 0) + 1
    order = list(by_name)
    levels = LEVELS
    hardest = max((levels.index(by_name[name].level) for name in times), default=0)
    return {
        "level": levels[hardest],
        "score": sum(by_name[name].points * count for name, count in times.items()),
        "techniques": dict(sorted(times.items(), key=lambda item: order.index(item[0]))),
    }


@pytest.mark.parametrize("size", [4, 6, 9, 12, 16])
def test_generated_puzzles_of_every_size_replay(size: int) -> None:
    for seed, difficulty in ((1, "easy"), (2, "hard"), (3, "expert")):
        if size == 16 and difficulty != "easy":
            continue  # a 16x16 above easy takes seconds to generate
        made = pysolver.solve(
            {
                "kind": "sudoku",
                "mode": "generate",
                "seed": seed,
                "difficulty": difficulty,
                "puzzle": {"size": size},
            }
        )
        response = explain(made["puzzle"])
        assert response["solutions"] == made["solutions"]
        replay(
            read(made["puzzle"]["grid"], size), response["steps"], made["solutions"][0], BOXES[size]
        )


def test_variants_replay_with_their_houses() -> None:
    cases = json.loads((DATA / "sudoku_variants.json").read_text())
    replayed = 0
    for case in cases:
        puzzle = case["puzzle"]
        response = explain(puzzle)
        replay(
            read(puzzle["grid"], 9) if isinstance(puzzle["grid"], str) else puzzle["grid"],
            response["steps"],
            case["solution"],
            (3, 3),
            puzzle.get("regions"),
            bool(puzzle.get("diagonals")),
        )
        replayed += 1
    assert replayed >= 2


def test_a_puzzle_with_several_solutions_is_explained_to_one_of_them() -> None:
    response = explain({"grid": "1..............."})
    assert response["unique"] is False and response["complete"] is False
    replay(read("1...............", 4), response["steps"], response["solutions"][0], (2, 2))
    guesses = [step for step in response["steps"] if step["technique"] == "guess"]
    assert guesses and "more than one solution" in guesses[0]["text"]


# ---------------------------------------------------------------- each technique, by hand


def open_grid() -> Grid:
    """A 9x9 board with every candidate open: a finder sees only what a test removes."""
    return Grid.standard(9, 3, 3)


def keep_only(grid: Grid, digit: int, cells: list[tuple[int, int]], house: list[int]) -> None:
    """Remove ``digit`` from every cell of ``house`` except ``cells``."""
    kept = {r * 9 + c for r, c in cells}
    for cell in house:
        if cell not in kept:
            grid.eliminate(cell, digit)


def row(r: int) -> list[int]:
    return [r * 9 + c for c in range(9)]


def column(c: int) -> list[int]:
    return [r * 9 + c for r in range(9)]


def at(r: int, c: int) -> int:
    return r * 9 + c


def removed(step: Step | None) -> set[tuple[int, int, int]]:
    assert step is not None
    return {(*divmod(cell, 9), digit) for cell, digit in step.eliminate}


def find(name: str, grid: Grid) -> Step | None:
    technique = next(t for t in sudoku_techniques.TECHNIQUES if t.name == name)
    step = technique.find(grid)
    assert step is None or step.technique == name
    return step


def test_naked_and_hidden_singles() -> None:
    grid = open_grid()
    assert find("naked single", grid) is None and find("hidden single", grid) is None
    grid.restrict(at(4, 4), 1 << 6)
    step = find("naked single", grid)
    assert step is not None and step.place == [(at(4, 4), 7)]
    grid = open_grid()
    keep_only(grid, 3, [(2, 5)], row(2))
    step = find("hidden single", grid)
    assert step is not None and step.place == [(at(2, 5), 3)] and "row 3" in step.text


def test_pointing_and_claiming() -> None:
    grid = open_grid()
    # Box 1: 5 only in its first row, so not in the rest of row 1.
    keep_only(grid, 5, [(0, 0), (0, 1), (0, 2)], [at(r, c) for r in range(3) for c in range(3)])
    assert removed(find("pointing", grid)) == {(0, c, 5) for c in range(3, 9)}
    grid = open_grid()
    # Row 1: 5 only in box 1, so not in the rest of box 1.
    keep_only(grid, 5, [(0, 0), (0, 1), (0, 2)], row(0))
    assert find("pointing", grid) is None
    assert removed(find("claiming", grid)) == {(r, c, 5) for r in (1, 2) for c in range(3)}


@pytest.mark.parametrize("size", [2, 3, 4])
def test_naked_subsets(size: int) -> None:
    name = {2: "naked pair", 3: "naked triple", 4: "naked quad"}[size]
    grid = open_grid()
    digits = sum(1 << d for d in range(size))  # 1..size
    for c in range(size):
        grid.restrict(at(6, c * 2 + 1), digits)  # columns 2, 4, 6, 8: no two in one box
    expected = {
        (6, c, d + 1) for c in range(9) if c not in range(1, 2 * size, 2) for d in range(size)
    }
    assert removed(find(name, grid)) == expected


@pytest.mark.parametrize("size", [2, 3])
def test_a_naked_subset_in_a_box_and_a_line_empties_both_in_one_step(size: int) -> None:
    name = {2: "naked pair", 3: "naked triple"}[size]
    grid = open_grid()
    digits = sum(1 << d for d in range(size))  # 1..size
    group = [(3, 3 + c) for c in range(size)]  # row 4, in box 5
    for r, c in group:
        grid.restrict(at(r, c), digits)
    box = {(r, c) for r in range(3, 6) for c in range(3, 6)}
    line = {(3, c) for c in range(9)}
    expected = {(r, c, d + 1) for r, c in (box | line) - set(group) for d in range(size)}
    step = find(name, grid)
    assert removed(step) == expected
    assert step is not None and "row 4 and box 5" in step.text


@pytest.mark.parametrize("size", [2, 3, 4])
def test_hidden_subsets(size: int) -> None:
    name = {2: "hidden pair", 3: "hidden triple", 4: "hidden quad"}[size]
    grid = open_grid()
    places = [(3, 1 + 2 * index) for index in range(size)]
    for digit in range(1, size + 1):
        keep_only(grid, digit, places, row(3))
    expected = {(r, c, d) for r, c in places for d in range(size + 1, 10)}
    assert removed(find(name, grid)) == expected


def test_fish() -> None:
    shapes = {
        "x-wing": {0: (1, 6), 4: (1, 6)},
        "swordfish": {0: (1, 4), 3: (4, 7), 6: (1, 7)},
        "jellyfish": {0: (0, 2), 2: (2, 4), 4: (4, 6), 6: (6, 0)},
    }
    for name, lines in shapes.items():
        grid = open_grid()
        for r, columns in lines.items():
            keep_only(grid, 7, [(r, c) for c in columns], row(r))
        used = {c for columns in lines.values() for c in columns}
        expected = {(r, c, 7) for c in used for r in range(9) if r not in lines}
        assert removed(find(name, grid)) == expected, name
        # The same fish with columns as the base lines.
        grid = open_grid()
        for c, rows in lines.items():
            keep_only(grid, 7, [(r, c) for r in rows], column(c))
        assert removed(find(name, grid)) == {(c, r, 7) for r, c, _d in expected}, name


def test_xy_wing() -> None:
    grid = open_grid()
    grid.restrict(at(0, 0), 0b011)  # pivot 1/2
    grid.restrict(at(0, 5), 0b101)  # pincer 1/3 in its row
    grid.restrict(at(5, 0), 0b110)  # pincer 2/3 in its column
    step = find("xy-wing", grid)
    assert removed(step) == {(5, 5, 3)}
    assert step is not None and step.cells == [at(0, 0), at(0, 5), at(5, 0)]


def test_xyz_wing() -> None:
    grid = open_grid()
    grid.restrict(at(0, 0), 0b111)  # pivot 1/2/3
    grid.restrict(at(0, 1), 0b101)  # pincer 1/3 in its row and box
    grid.restrict(at(4, 0), 0b110)  # pincer 2/3 in its column
    assert find("xy-wing", grid) is None
    assert removed(find("xyz-wing", grid)) == {(1, 0, 3), (2, 0, 3)}


def keep_places(grid: Grid, digit: int, house: list[int], places: list[tuple[int, int]]) -> None:
    """``digit`` only at ``places`` in ``house`` (a conjugate pair when two)."""
    keep_only(grid, digit, places, house)


def box(b: int) -> list[int]:
    top, left = 3 * (b // 3), 3 * (b % 3)
    return [at(top + r, left + c) for r in range(3) for c in range(3)]


def sees(first: tuple[int, int], second: tuple[int, int]) -> bool:
    (r1, c1), (r2, c2) = first, second
    return first != second and (r1 == r2 or c1 == c2 or (r1 // 3, c1 // 3) == (r2 // 3, c2 // 3))


def test_simple_colouring_traps_a_cell_seeing_both_colours() -> None:
    grid = open_grid()
    # 5's pairs: box 1 (r1c1, r3c3), row 3 (r3c3, r3c7), column 7 (r3c7, r7c7): colours
    # {r1c1, r3c7} and {r3c3, r7c7}.
    keep_places(grid, 5, box(0), [(0, 0), (2, 2)])
    keep_places(grid, 5, row(2), [(2, 2), (2, 6)])
    keep_places(grid, 5, column(6), [(2, 6), (6, 6)])
    step = find("simple colouring", grid)
    colours = ([(0, 0), (2, 6)], [(2, 2), (6, 6)])
    expected = {
        (r, c, 5)
        for r in range(9)
        for c in range(9)
        if grid.candidates[at(r, c)] >> 4 & 1
        and (r, c) not in colours[0] + colours[1]
        and any(sees((r, c), cell) for cell in colours[0])
        and any(sees((r, c), cell) for cell in colours[1])
    }
    assert expected and removed(step) == expected  # r7c1 among them
    assert step is not None and {(r, c) for r, c, _d in removed(step)} >= {(6, 0)}


def test_simple_colouring_drops_a_colour_twice_in_a_house() -> None:
    grid = open_grid()
    # 5's pairs: row 1 (r1c1, r1c5), box 2 (r1c5, r2c4), column 4 (r2c4, r6c4), row 6
    # (r6c4, r6c1): r1c1, r2c4 and r6c1 share a colour, and r1c1 and r6c1 share column 1.
    keep_places(grid, 5, row(0), [(0, 0), (0, 4)])
    keep_places(grid, 5, box(1), [(0, 4), (1, 3)])
    keep_places(grid, 5, column(3), [(1, 3), (5, 3)])
    keep_places(grid, 5, row(5), [(5, 3), (5, 0)])
    step = find("simple colouring", grid)
    assert removed(step) == {(0, 0, 5), (1, 3, 5), (5, 0, 5)}
    assert step is not None and "column 1" in step.text


def test_x_chain() -> None:
    grid = open_grid()
    # 7 in row 1 only at r1c2 and r1c5, in row 6 only at r6c2 and r6c4 (a skyscraper): one of
    # r1c5 and r6c4 is 7.
    keep_places(grid, 7, row(0), [(0, 1), (0, 4)])
    keep_places(grid, 7, row(5), [(5, 1), (5, 3)])
    step = find("x-chain", grid)
    assert removed(step) == {(1, 3, 7), (2, 3, 7), (3, 4, 7), (4, 4, 7)}
    assert step is not None and step.cells == [at(0, 4), at(0, 1), at(5, 1), at(5, 3)]


def test_xy_chain() -> None:
    grid = open_grid()
    chain = {(0, 0): 0b0011, (0, 4): 0b0110, (4, 4): 0b1100, (4, 8): 0b1001}  # 1/2 2/3 3/4 4/1
    for (r, c), digits in chain.items():
        grid.restrict(at(r, c), digits)
    step = find("xy-chain", grid)
    assert removed(step) == {(0, 8, 1), (4, 0, 1)}
    assert step is not None and step.cells == [at(r, c) for r, c in chain]


def test_forcing_chain_from_a_bivalue_cell() -> None:
    grid = open_grid()
    grid.restrict(at(0, 0), 0b011)  # 1/2
    grid.restrict(at(0, 4), 0b101)  # 1/3: 3 when r1c1 is 1
    grid.restrict(at(4, 0), 0b110)  # 2/3: 3 when r1c1 is 2
    step = find("forcing chain", grid)
    assert removed(step) == {(4, 4, 3)}
    assert step is not None and "If it is 1" in step.text and "If it is 2" in step.text


def test_forcing_chain_drops_a_branch_that_contradicts() -> None:
    grid = open_grid()
    grid.restrict(at(0, 0), 0b011)  # 1/2
    grid.restrict(at(0, 4), 0b101)  # 1/3
    grid.restrict(at(0, 8), 0b101)  # 1/3: with r1c1 1, r1c5 and r1c9 both 3
    step = find("forcing chain", grid)
    assert step is not None and step.place == [(at(0, 0), 2)] and not step.eliminate
    assert "impossible" in step.text


def test_tathams_extreme_sudoku_need_no_guess() -> None:
    """Solo's 'extreme' level (forcing chains, no guessing): ``sgt-solo --generate 20 3x3de``
    (tests/data/tatham_extreme.txt). At least 18 of the 20 are explained with no guess, and
    every path replays to the solution."""
    ids = (DATA / "tatham_extreme.txt").read_text().split()
    without_guess = 0
    for game_id in ids:
        request = request_from_text(game_id)
        assert request is not None
        response = explain(request["puzzle"])
        replay(request["puzzle"]["grid"], response["steps"], response["solutions"][0], (3, 3))
        without_guess += "guess" not in response["grade"]["techniques"]
    assert len(ids) == 20 and without_guess >= 18


def test_finders_looking_where_cells_changed_find_what_a_full_look_finds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Subsets, wings and xy-chains look only near the cells changed since they last found
    nothing (``Grid.changed_since``, ``Grid.board_changes``), and chains read each digit's
    conjugate pairs remembered from an earlier state with the same board of that digit
    (``Grid.remember``); with every cell counted as changed and nothing remembered they look
    everywhere and work everything out afresh, and the paths are the same step for step
    (Tatham's 'extreme' puzzles, which need every level, and the first top95 puzzles)."""
    puzzles = [
        request_from_text(game_id)
        for game_id in (DATA / "tatham_extreme.txt").read_text().split()[:8]
    ]
    grids = [request["puzzle"] for request in puzzles if request is not None]
    grids += [{"grid": grid} for grid in TOP95[:4]]
    paths = [explain(puzzle)["steps"] for puzzle in grids]
    monkeypatch.setattr(Grid, "changed_since", lambda grid, finder: (1 << grid.n**2) - 1)
    monkeypatch.setattr(Grid, "board_changes", lambda grid, finder: None)
    monkeypatch.setattr(Grid, "remember", lambda grid, key, value: None)
    assert [explain(puzzle)["steps"] for puzzle in grids] == paths
    assert any(step["technique"] == "xy-chain" for path in paths for step in path)


def test_a_guess_names_the_alternatives_that_fail() -> None:
    response = explain({"grid": TOP95[44]})  # needs three guesses, even with chains
    guesses = [step for step in response["steps"] if step["technique"] == "guess"]
    assert len(guesses) == 3 and response["grade"]["level"] == "expert"
    for step in guesses:
        (r, c, digit), alternatives = step["place"][0], step["alternatives"]
        assert alternatives and all([r, c] == spot[:2] for spot in alternatives)
        assert digit not in [spot[2] for spot in alternatives]
        assert step["text"].startswith("No technique applies: guess")
        assert f"row {r + 1}, column {c + 1}" in step["text"]
    # Each alternative fails: the givens, the path's placements before the guess and the
    # alternative have no solution (dancing links counts them).
    board = read(TOP95[44], 9)
    for step in response["steps"]:
        if step["technique"] == "guess":
            for r, c, digit in step["alternatives"]:
                trial = [row.copy() for row in board]
                trial[r][c] = digit
                counted = pysolver.solve(
                    {"kind": "sudoku", "mode": "count", "engine": "dlx", "puzzle": {"grid": trial}}
                )
                assert counted.get("count", 0) == 0, step
        for r, c, digit in step["place"]:
            board[r][c] = digit


def test_levels_follow_the_hardest_technique() -> None:
    easy = explain({"grid": EASY})["grade"]
    assert easy["level"] == "easy" and set(easy["techniques"]) <= {"naked single", "hidden single"}
    assert grade([]) == {"level": "easy", "score": 0, "techniques": {}}
    step = Step("x-wing", [], [(0, 1)], [0], "")
    assert grade([step, Step("pointing", [], [(0, 2)], [0], "")])["level"] == "hard"


# ---------------------------------------------------------------- hints


def test_a_wrong_entry_is_named() -> None:
    solution = explain({"grid": EASY})["solutions"][0]
    entries = list(EASY)
    wrong = solution[0][2] % 9 + 1
    entries[2] = str(wrong)
    step = hint({"grid": EASY, "entries": "".join(entries)})
    assert step["technique"] == "mistake" and step["cells"] == [[0, 2]]
    assert "row 1, column 3" in step["text"].lower()
    # Several wrong entries are all named; right ones are not.
    last = EASY.rindex(".")
    r, c = divmod(last, 9)
    entries[3] = str(solution[0][3])
    entries[last] = str(solution[r][c] % 9 + 1)
    step = hint({"grid": EASY, "entries": "".join(entries)})
    assert step["cells"] == [[0, 2], [r, c]]


def test_pencil_marks_without_the_right_digit_are_a_mistake() -> None:
    solution = explain({"grid": EASY})["solutions"][0]
    marks: list[list[list[int]]] = [[[] for _ in range(9)] for _ in range(9)]
    marks[0][2] = [d for d in range(1, 10) if d != solution[0][2]]
    step = hint({"grid": EASY, "candidates": marks})
    assert step["technique"] == "mistake" and step["cells"] == [[0, 2]]
    assert "pencil marks" in step["text"]


def test_a_hint_is_the_next_step_from_the_players_board() -> None:
    response = explain({"grid": TOP95[3]})
    solution = response["solutions"][0]
    # The player has filled in the first ten placements of the path.
    entries = read(TOP95[3], 9)
    placed = 0
    for step in response["steps"]:
        for r, c, digit in step["place"]:
            if placed < 10:
                entries[r][c] = digit
                placed += 1
    answer = pysolver.solve(
        {"kind": "sudoku", "mode": "hint", "puzzle": {"grid": TOP95[3], "entries": entries}}
    )
    assert answer["hint"] == answer["steps"][0] and answer["steps"][-1]["place"]
    assert all(not step["place"] for step in answer["steps"][:-1])
    assert "solutions" not in answer
    for step in answer["steps"]:
        for r, c, digit in step["place"]:
            assert solution[r][c] == digit and not entries[r][c]
        for r, c, digit in step["eliminate"]:
            assert solution[r][c] != digit


def test_marks_are_the_hints_starting_candidates() -> None:
    solution = explain({"grid": EASY})["solutions"][0]
    # Marks leaving only the right digit in one cell make that cell the next naked single.
    marks: list[list[list[int]]] = [[[] for _ in range(9)] for _ in range(9)]
    marks[0][2] = [solution[0][2]]
    step = hint({"grid": EASY, "candidates": marks})
    assert step["technique"] == "naked single" and step["place"] == [[0, 2, solution[0][2]]]


def test_a_full_right_grid_is_solved() -> None:
    solution = explain({"grid": EASY})["solutions"][0]
    step = hint({"grid": EASY, "entries": solution})
    assert step == {
        "technique": "solved",
        "place": [],
        "eliminate": [],
        "cells": [],
        "text": "The grid is full and every digit is right.",
    }


def test_small_grids_hint_and_explain() -> None:
    response = explain({"grid": [[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]]})
    assert response["solutions"][0][0][0] == 1
    step = hint({"grid": "1...\n..3.\n.4..\n...2", "entries": "12..\n..3.\n.4..\n...2"})
    assert step["technique"] in ("mistake", "naked single", "hidden single", "guess")


# ---------------------------------------------------------------- protocol


@pytest.mark.parametrize(
    "request_",
    [
        {"kind": "sudoku", "mode": "explain", "puzzle": {"grid": TOP95[3]}},
        {
            "kind": "shikaku",
            "mode": "explain",
            "puzzle": json.loads((DATA / "seed12.json").read_text())["puzzle"],
        },
    ],
    ids=["sudoku", "shikaku"],
)
def test_answers_are_the_same_in_another_process(request_: dict[str, Any]) -> None:
    here = pysolver.solve(request_)
    script = (
        "import json, sys, pysolver; r = pysolver.solve(json.loads(sys.argv[1])); "
        "print(json.dumps([r['steps'], r['grade']]))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "123", "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", script, json.dumps(request_)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout
    assert json.loads(out) == [here["steps"], here["grade"]]
    assert here == {**pysolver.solve(request_), "stats": here["stats"]}


@pytest.mark.parametrize(
    ("request_fields", "path"),
    [
        ({"engine": "dlx"}, "engine"),
        ({"limit": 2}, "limit"),
        ({"seed": 3}, "seed"),
        ({"jobs": 2}, "jobs"),
        ({"difficulty": "easy"}, "difficulty"),
    ],
)
def test_fields_explain_does_not_read_are_refused(
    request_fields: dict[str, Any], path: str
) -> None:
    response = pysolver.solve(
        {"kind": "sudoku", "mode": "explain", "puzzle": {"grid": EASY}, **request_fields}
    )
    assert response["error"]["code"] == "invalid_request" and response["error"]["path"] == path


def test_hint_fields_only_in_hint_mode_and_kinds_without_explain() -> None:
    response = pysolver.solve(
        {"kind": "sudoku", "mode": "explain", "puzzle": {"grid": EASY, "entries": EASY}}
    )
    assert response["error"]["path"] == "puzzle.entries"
    response = pysolver.solve({"kind": "domino", "mode": "hint", "puzzle": {"rows": 2, "cols": 2}})
    assert (
        response["error"]["code"] == "invalid_request" and "sudoku" in response["error"]["message"]
    )
    bad = pysolver.solve(
        {"kind": "sudoku", "mode": "hint", "puzzle": {"grid": EASY, "entries": "12"}}
    )
    assert bad["error"]["code"] == "invalid_puzzle" and bad["error"]["path"] == "puzzle.entries"
    bad = pysolver.solve(
        {"kind": "sudoku", "mode": "hint", "puzzle": {"grid": EASY, "candidates": [[[10]]]}}
    )
    assert bad["error"]["code"] == "invalid_puzzle"
    # Row 1, column 1 has no candidate: 2 and 3 in its row, 4 in its column, 1 in its box.
    dead = {"grid": ".23.\n.1..\n4...\n...."}
    unsolvable = pysolver.solve({"kind": "sudoku", "mode": "explain", "puzzle": dead})
    assert unsolvable["error"]["code"] == "invalid_puzzle"


def test_explain_reports_progress_and_stops_when_cancelled() -> None:
    reports: list[dict[str, Any]] = []
    calls = 0

    def cancel() -> bool:
        nonlocal calls
        calls += 1
        return calls > 5

    response = pysolver.solve(
        {"kind": "sudoku", "mode": "explain", "puzzle": {"grid": "." * 256}},
        progress=reports.append,
        cancel=cancel,
    )
    assert response["ok"] and response.get("cancelled") is True
    assert response["stats"]["seconds"] < 3


def test_a_puzzle_with_no_solution_is_refused_though_it_has_no_clash() -> None:
    # Row 1 holds 1-8 and needs 9 at its end, which row 5's 9 in column 9 rules out: the path
    # runs until it must guess, and the search from there finds nothing.
    grid = list("12345678." + "." * 72)
    grid[4 * 9 + 8] = "9"
    response = pysolver.solve(
        {"kind": "sudoku", "mode": "explain", "puzzle": {"grid": "".join(grid)}}
    )
    assert not response["ok"] and response["error"]["code"] == "invalid_puzzle"
    assert "no solution" in response["error"]["message"]
