"""Polyomino tilings through ``pysolver.solve``: known counts and random sampling, per engine.

    python -m bench.bench_polyomino [harness options, see python -m bench.harness --help]

Counts of pentomino boards whose numbers are well known (3x20: 2, 8x8 with a centre hole: 65
distinct, 520 in all; 4x15: 368, 5x12: 1,010, 6x10: 2,339 distinct, 9,356 in all; 8x8 with the
2x2 square: 16,146 distinct, 129,168 in all) and 100 random tilings of the 8x8 board with the
square, checked to be distinct tilings of the board with every piece once.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

from bench.harness import Case, Measured, WrongAnswer, main
from pysolver import solve
from pysolver.kinds.polyomino import ENGINES

SQUARE = ["." * 8] * 8
HOLE = ["." * 8] * 3 + ["...##..."] * 2 + ["." * 8] * 3
PENTOMINOES = ["pentominoes"]
WITH_SQUARE = ["pentominoes", "O4"]
WITH_SQUARE_PIECES = 13  # the twelve pentominoes and the square


def rectangle(rows: int, cols: int) -> list[str]:
    return ["." * cols] * rows


# name, board, pieces, mode, symmetry, expected count, level
CASES: list[tuple[str, list[str], list[str], str, str, int, str]] = [
    ("3x20 distinct", rectangle(3, 20), PENTOMINOES, "count", "distinct", 2, "quick"),
    ("8x8 hole distinct", HOLE, PENTOMINOES, "count", "distinct", 65, "quick"),
    ("8x8 hole all", HOLE, PENTOMINOES, "count", "all", 520, "quick"),
    ("random 100 8x8+O4", SQUARE, WITH_SQUARE, "random", "all", 100, "quick"),
    ("4x15 distinct", rectangle(4, 15), PENTOMINOES, "count", "distinct", 368, "default"),
    ("5x12 distinct", rectangle(5, 12), PENTOMINOES, "count", "distinct", 1010, "default"),
    ("6x10 distinct", rectangle(6, 10), PENTOMINOES, "count", "distinct", 2339, "default"),
    ("6x10 all", rectangle(6, 10), PENTOMINOES, "count", "all", 9356, "default"),
    ("8x8+O4 distinct", SQUARE, WITH_SQUARE, "count", "distinct", 16146, "default"),
    ("8x8+O4 all", SQUARE, WITH_SQUARE, "count", "all", 129168, "full"),
]


def check_tiling(board: list[str], solution: list[dict[str, Any]], pieces: int) -> None:
    """Every open cell covered once, every piece used once."""
    open_cells = {
        (r, c) for r, line in enumerate(board) for c, mark in enumerate(line) if mark == "."
    }
    covered = [tuple(cell) for placed in solution for cell in placed["cells"]]
    if len(covered) != len(set(covered)) or set(covered) != open_cells:
        raise WrongAnswer("a random tiling does not cover the board exactly once")
    if len({placed["piece"] for placed in solution}) != pieces or len(solution) != pieces:
        raise WrongAnswer("a random tiling does not use every piece once")


def reader(board: list[str], mode: str) -> Any:
    def read(response: dict[str, Any]) -> Measured:
        if not response["ok"]:
            raise WrongAnswer(response["error"]["message"])
        counters = {"nodes": response["stats"]["nodes"]}
        if mode == "random":
            solutions = response["solutions"]
            for solution in solutions:
                check_tiling(board, solution, WITH_SQUARE_PIECES)
            distinct = len({repr(sorted(map(repr, solution))) for solution in solutions})
            return Measured(f"{distinct} distinct tilings", counters)
        if not response["complete"]:
            raise WrongAnswer("the count did not finish")
        return Measured(response["count"], counters)

    return read


def cases() -> Iterator[Case]:
    for name, board, pieces, mode, symmetry, count, level in CASES:
        for engine in ENGINES:
            request: dict[str, Any] = {
                "kind": "polyomino",
                "mode": mode,
                "engine": engine,
                "symmetry": symmetry,
                "puzzle": {"board": board, "pieces": pieces},
            }
            if mode == "random":
                request.update(limit=count, seed=1)
            slow = engine == "dlx" and level != "quick"
            yield Case(
                name=f"polyomino {name}",
                engine=engine,
                run=lambda request=request: solve(request),
                read=reader(board, mode),
                expected=f"{count} distinct tilings" if mode == "random" else count,
                level=level,
                # dancing links takes many seconds on the bigger counts: one run compares.
                repeat=1 if slow else None,
            )


if __name__ == "__main__":
    sys.exit(main(sources=[cases]))
