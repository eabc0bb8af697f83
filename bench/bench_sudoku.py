"""Sudoku: all of top95 with a uniqueness check (limit 2), one row per engine.

    python -m bench.bench_sudoku [harness options, see python -m bench.harness --help]

Each puzzle goes through ``pysolver.solve`` (parse, clash check, matrix build, search, decode),
so a row's seconds are what a caller waits for all 95. The answer is the number of puzzles found
unique with a valid solution that keeps the givens (95 expected). Target: the default engine
under 0.3 s for all 95.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.harness import Case, Measured, WrongAnswer, main
from pysolver import solve
from pysolver.kinds import sudoku

TOP95 = Path(__file__).resolve().parent.parent / "tests" / "data" / "top95.txt"


def read_puzzles(path: Path = TOP95) -> list[str]:
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def check_solution(grid: str, solution: list[list[int]]) -> bool:
    """A 9x9 solution: every row, column and box holds 1-9 once, and the givens are kept."""
    digits = set(range(1, 10))
    rows = [set(row) for row in solution]
    columns = [{solution[r][c] for r in range(9)} for c in range(9)]
    boxes = [
        {solution[r][c] for r in range(top, top + 3) for c in range(left, left + 3)}
        for top in (0, 3, 6)
        for left in (0, 3, 6)
    ]
    if any(group != digits for group in (*rows, *columns, *boxes)):
        return False
    return all(
        given in ".0" or int(given) == solution[index // 9][index % 9]
        for index, given in enumerate(grid)
    )


def solve_all(puzzles: list[str], engine: str) -> list[dict[str, Any]]:
    return [
        solve({"kind": "sudoku", "limit": 2, "engine": engine, "puzzle": {"grid": grid}})
        for grid in puzzles
    ]


def read_answers(puzzles: list[str], responses: list[dict[str, Any]]) -> Measured:
    nodes = 0
    for index, (grid, response) in enumerate(zip(puzzles, responses, strict=True)):
        if not response["ok"]:
            raise WrongAnswer(f"puzzle {index}: {response['error']['message']}")
        if not response["unique"] or not check_solution(grid, response["solutions"][0]):
            raise WrongAnswer(f"puzzle {index}: not unique or an invalid solution")
        nodes += response["stats"]["nodes"]
    return Measured(f"{len(responses)} unique", {"nodes": nodes})


def cases() -> Iterator[Case]:
    puzzles = read_puzzles()
    for engine in sudoku.ENGINES:
        yield Case(
            name="sudoku top95 limit 2",
            engine=engine,
            run=lambda engine=engine: solve_all(puzzles, engine),
            read=lambda responses: read_answers(puzzles, responses),
            expected="95 unique",
        )


if __name__ == "__main__":
    sys.exit(main(sources=[cases]))
