"""The library as a programmer first meets it: the ways a Sudoku is written, errors where the
puzzle is written, solutions that index and iterate, typed explanations, bare-string options."""

from __future__ import annotations

import typing

import pytest

import pysolver
from pysolver.library import Explanation, Grade, Puzzle, Step

ROWS = [
    "53..7....",
    "6..195...",
    ".98....6.",
    "8...6...3",
    "4..8.3..1",
    "7...2...6",
    ".6....28.",
    "...419..5",
    "....8..79",
]


def is_solved(grid: list[list[int]], box: int = 3) -> bool:
    """Every row, column and box holds 1..n once (checked here, not by the solver)."""
    n = len(grid)
    digits = set(range(1, n + 1))
    columns = [[grid[r][c] for r in range(n)] for c in range(n)]
    boxes = [
        [grid[r][c] for r in range(top, top + box) for c in range(left, left + box)]
        for top in range(0, n, box)
        for left in range(0, n, box)
    ]
    return all(set(unit) == digits for unit in [*grid, *columns, *boxes])


def test_a_sudoku_from_row_strings_is_the_sudoku_of_the_joined_line() -> None:
    from_rows = pysolver.Sudoku(ROWS)
    from_line = pysolver.Sudoku("".join(ROWS))
    assert from_rows.solve() == from_line.solve()
    grid = from_rows.solve().grid
    assert is_solved(grid)
    for r, row in enumerate(ROWS):  # the givens kept
        assert all(ch == "." or int(ch) == grid[r][c] for c, ch in enumerate(row))


def test_a_sudoku_from_the_solo_id_game_id_writes() -> None:
    sudoku = pysolver.Sudoku(ROWS)
    game_id = sudoku.game_id()
    assert game_id.startswith("3x3:")
    again = pysolver.Sudoku(game_id)
    assert again.solve() == sudoku.solve()
    assert again.game_id() == game_id
    # A 6x6 ID keeps its boxes (3 wide, 2 tall) and an X ID its diagonals.
    six = pysolver.Sudoku.generate("easy", 3, size=6)
    six_again = pysolver.Sudoku(six.game_id())
    assert six_again.puzzle["box"] == [2, 3] and six_again.count(limit=2) == 1
    x = pysolver.Sudoku(pysolver.Sudoku("." * 81, diagonals=True).game_id())
    assert x.puzzle.get("diagonals") is True


def test_an_invalid_grid_fails_where_it_is_written() -> None:
    with pytest.raises(pysolver.SolverError) as caught:
        pysolver.Sudoku("5" * 80)
    assert "80 symbols" in str(caught.value) and caught.value.path == "puzzle.grid"
    with pytest.raises(pysolver.SolverError, match="two 5s in row 1"):
        pysolver.Sudoku("55" + "." * 79)
    with pytest.raises(pysolver.SolverError):
        pysolver.Sudoku(["53..7....", "6..195..."])
    with pytest.raises(pysolver.SolverError, match="same diagonal"):
        pysolver.Queens(4, queens=[(0, 0), (1, 1)])


def test_a_solution_indexes_iterates_and_has_a_typed_grid() -> None:
    solution = pysolver.Sudoku(ROWS).solve()
    assert len(solution) == 9
    assert solution[0] == solution.grid[0] == [5, 3, 4, 6, 7, 8, 9, 1, 2]
    assert solution[4][4] == 5
    assert list(solution) == solution.grid == solution.data
    assert [row[0] for row in solution] == [5, 6, 1, 8, 4, 7, 9, 2, 3]
    grid_type = typing.get_type_hints(type(solution).grid.fget)["return"]
    assert grid_type == list[list[int]]
    # Every kind's solution is a list of its items: queens' cells, Shikaku's rectangles.
    queens = pysolver.Queens(6).solve()
    assert len(queens) == 6 and sorted(r for r, _c in queens) == list(range(6))
    rectangles = pysolver.Shikaku(2, 2, [(0, 0, 2), (1, 1, 2)]).solutions()
    assert all(len(solution) == 2 for solution in rectangles)
    assert sorted(list(rect) for rect in rectangles[0]) in (
        [[0, 0, 1, 2], [1, 0, 1, 2]],
        [[0, 0, 2, 1], [0, 1, 2, 1]],
    )


def test_explain_and_hint_are_typed_dicts() -> None:
    hints = typing.get_type_hints(Puzzle.explain)
    assert hints["return"] is Explanation and typing.get_type_hints(Puzzle.hint)["return"] is Step
    assert set(Step.__annotations__) == {"technique", "place", "eliminate", "cells", "text"}
    assert typing.get_type_hints(Explanation)["grade"] is Grade
    sudoku = pysolver.Sudoku(ROWS)
    explained = sudoku.explain()
    assert isinstance(explained, dict) and explained["grade"]["level"] == "easy"
    for step in explained["steps"]:
        assert set(Step.__annotations__) <= set(step)
    hint = sudoku.hint()
    assert hint["technique"] == explained["steps"][0]["technique"]


def test_covers_refuses_a_bare_string_option() -> None:
    with pytest.raises(pysolver.SolverError) as caught:
        list(pysolver.covers([["a"], "bc"]))
    assert caught.value.path == "options[1]"
    assert "['bc']" in str(caught.value) and "['b', 'c']" in str(caught.value)
    with pytest.raises(pysolver.SolverError):
        pysolver.count([["a"], "bc"])
    with pytest.raises(pysolver.SolverError):
        pysolver.covers("ab")
    # Lists (and tuples) of names are as before.
    assert list(pysolver.covers([["a"], ("b", "c"), ["b"], ["c"]])) == [[0, 1], [0, 2, 3]]
