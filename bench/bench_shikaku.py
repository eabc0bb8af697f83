"""Shikaku: the 12x12 seed puzzle and generated grids, per engine, through ``pysolver.solve``.

    python -m bench.bench_shikaku [harness options, see python -m bench.harness --help]

Puzzles: the 12 x 12 seed puzzle of tests/data (unique) and generated 20 x 20, 30 x 30 and
50 x 50 grids (``bench.generators.shikaku_puzzle``, pieces of at most 12 cells; seed 0 in the
quick rows, seeds 1 and 2 too by default; these have several solutions). For each engine two
queries: ``limit 2`` (the uniqueness question: unique, several or none) and ``limit 1`` (the
first solution). Every solution is checked to tile the grid with one rectangle per clue, and
the seed puzzle's against its known tiling. Target: every puzzle up to 50 x 50 under 100 ms
with the default (first) engine.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.generators import shikaku_puzzle
from bench.harness import Case, Measured, WrongAnswer, main
from pysolver import solve
from pysolver.kinds.shikaku import ENGINES

SEED12 = Path(__file__).resolve().parent.parent / "tests" / "data" / "seed12.json"
MAX_AREA = 12


def check_tiling(puzzle: dict[str, Any], solution: list[list[int]]) -> None:
    """One rectangle per clue, holding its clue and of its area, covering every cell once."""
    covered: set[tuple[int, int]] = set()
    for (row, col, area), (top, left, height, width) in zip(puzzle["clues"], solution, strict=True):
        if height * width != area or not (top <= row < top + height and left <= col < left + width):
            raise WrongAnswer(f"the rectangle of clue {row, col, area} does not fit it")
        cells = {(r, c) for r in range(top, top + height) for c in range(left, left + width)}
        if covered & cells:
            raise WrongAnswer("two rectangles overlap")
        covered |= cells
    if covered != {(r, c) for r in range(puzzle["rows"]) for c in range(puzzle["cols"])}:
        raise WrongAnswer("the rectangles do not cover the grid")


def letters(puzzle: dict[str, Any], solution: list[list[int]]) -> list[str]:
    """The tiling drawn as in seed12.json: letter k marks the rectangle of clue k."""
    grid = [["?"] * puzzle["cols"] for _ in range(puzzle["rows"])]
    for index, (top, left, height, width) in enumerate(solution):
        for r in range(top, top + height):
            for c in range(left, left + width):
                grid[r][c] = chr(ord("a") + index)
    return ["".join(line) for line in grid]


def reader(puzzle: dict[str, Any], limit: int, tiling: list[str] | None) -> Any:
    def read(response: dict[str, Any]) -> Measured:
        if not response["ok"]:
            raise WrongAnswer(response["error"]["message"])
        for solution in response["solutions"]:
            check_tiling(puzzle, solution)
            if tiling is not None and letters(puzzle, solution) != tiling:
                raise WrongAnswer("the seed puzzle's solution is not its known tiling")
        count, complete = response["count"], response["complete"]
        if limit == 1:
            answer = "first" if count == 1 else "none" if complete else "?"
        elif complete and count < 2:
            answer = "unique" if count == 1 else "none"
        else:
            answer = "several" if count == 2 else "?"
        return Measured(answer, {"nodes": response["stats"]["nodes"]})

    return read


def puzzles() -> Iterator[tuple[str, dict[str, Any], str, list[str] | None, str]]:
    """name, puzzle, answer to limit 2, known tiling, level."""
    seed = json.loads(SEED12.read_text(encoding="utf-8"))
    yield "seed 12x12", seed["puzzle"], "unique", seed["expected"]["letters"], "quick"
    for number in range(3):
        for side in (20, 30, 50):
            puzzle = shikaku_puzzle(side, side, number, MAX_AREA)
            level = "quick" if number == 0 else "default"
            yield f"gen {side}x{side} s{number}", puzzle, "several", None, level


def cases() -> Iterator[Case]:
    for name, puzzle, uniqueness, tiling, level in puzzles():
        for engine in ENGINES:
            for limit in (2, 1):
                request = {"kind": "shikaku", "engine": engine, "limit": limit, "puzzle": puzzle}
                yield Case(
                    name=f"shikaku {name} limit {limit}",
                    engine=engine,
                    run=lambda request=request: solve(request),
                    read=reader(puzzle, limit, tiling),
                    expected=uniqueness if limit == 2 else "first",
                    level=level,
                )


if __name__ == "__main__":
    sys.exit(main(sources=[cases]))
