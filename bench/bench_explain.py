"""Explain mode: every top95 Sudoku explained (a path of named techniques to the solution),
and the 12x12 Shikaku seed.

    python -m bench.bench_explain [harness options, see python -m bench.harness --help]

Each puzzle goes through ``pysolver.solve`` (parse, the engine's solution, the path, its
grade), so a row's seconds are what a caller waits for all of them. The answer counts the
paths whose placements fill the grid with the solution; the counters add up the steps and
the guesses the paths needed.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.bench_sudoku import read_puzzles
from bench.harness import Case, Measured, WrongAnswer, main
from pysolver import solve

SEED12 = Path(__file__).resolve().parent.parent / "tests" / "data" / "seed12.json"


def explain_all(kind: str, puzzles: list[Any]) -> list[dict[str, Any]]:
    return [solve({"kind": kind, "mode": "explain", "puzzle": puzzle}) for puzzle in puzzles]


def sudoku_filled(response: dict[str, Any]) -> bool:
    """Whether the path's placements and the givens make the solution (each cell once)."""
    solution = response["solutions"][0]
    placed = {(r, c) for step in response["steps"] for r, c, _digit in step["place"]}
    right = all(solution[r][c] == d for step in response["steps"] for r, c, d in step["place"])
    return right and len(placed) == sum(1 for step in response["steps"] for _ in step["place"])


def shikaku_filled(response: dict[str, Any]) -> bool:
    placed = {spot["clue"]: spot["rect"] for step in response["steps"] for spot in step["place"]}
    return [placed.get(clue) for clue in range(len(placed))] == response["solutions"][0]


def read_paths(kind: str, responses: list[dict[str, Any]]) -> Measured:
    steps = guesses = 0
    filled = sudoku_filled if kind == "sudoku" else shikaku_filled
    for index, response in enumerate(responses):
        if not response["ok"]:
            raise WrongAnswer(f"puzzle {index}: {response['error']['message']}")
        if not filled(response):
            raise WrongAnswer(f"puzzle {index}: the path does not reach the solution")
        steps += len(response["steps"])
        guesses += response["grade"]["techniques"].get("guess", 0)
    return Measured(f"{len(responses)} explained", {"steps": steps, "guesses": guesses})


def cases() -> Iterator[Case]:
    sudokus = [{"grid": grid} for grid in read_puzzles()]
    yield Case(
        name="sudoku top95 explain",
        engine="logic",
        run=lambda: explain_all("sudoku", sudokus),
        read=lambda responses: read_paths("sudoku", responses),
        expected="95 explained",
    )
    shikaku = [json.loads(SEED12.read_text(encoding="utf-8"))["puzzle"]]
    yield Case(
        name="shikaku 12x12 seed explain",
        engine="logic",
        run=lambda: explain_all("shikaku", shikaku),
        read=lambda responses: read_paths("shikaku", responses),
        expected="1 explained",
    )


if __name__ == "__main__":
    sys.exit(main(sources=[cases]))
