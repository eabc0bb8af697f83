"""Sudoku: all of top95 with a uniqueness check (limit 2), one row per engine; and the hard set
(bench/data/sudoku_hard311.txt, see bench/data/README.md) proved unique by the default engine
(masks), the exact cover engines with singles, and the C DLX (bench/c_dlx) in the same run.

    python -m bench.bench_sudoku [harness options, see python -m bench.harness --help]

The hard set's rows carry, as counters, the C DLX's search CPU seconds on the same puzzles
(measured once per run of this module, best of 3: ``c_dlx_s``) and the row's own CPU seconds
over it (``ratio_to_c_dlx``; the target of issue 30 is at most 8). The C DLX's own row times
its search alone, as ``bench.peers`` does (its process, reading and linking excluded).

Each puzzle goes through ``pysolver.solve`` (parse, clash check, matrix build, search, decode),
so a row's seconds are what a caller waits for all 95. The answer is the number of puzzles found
unique with a valid solution that keeps the givens (95 expected). Target: the default engine
under 0.3 s for all 95.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from time import process_time
from typing import Any

from bench import peers
from bench.harness import Case, Measured, WrongAnswer, main
from pysolver import solve
from pysolver.kinds import sudoku

TOP95 = Path(__file__).resolve().parent.parent / "tests" / "data" / "top95.txt"
HARD_SET = Path(__file__).resolve().parent / "data" / "sudoku_hard311.txt"
HARD_NAME = "hard Sudoku set, proved unique"
# The engines timed on the hard set: the default and the exact cover engines with singles
# (dlx and bitset, plain Algorithm X, take seconds there).
HARD_ENGINES = ("masks", "singles", "locked")


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


def unique_requests(puzzles: list[str], engine: str | None = None) -> list[dict[str, Any]]:
    """Each puzzle's uniqueness question (``limit`` 2), by ``engine`` or the kind's default."""
    chosen = {"engine": engine} if engine is not None else {}
    return [{"kind": "sudoku", "limit": 2, **chosen, "puzzle": {"grid": grid}} for grid in puzzles]


def solve_all(puzzles: list[str], engine: str) -> list[dict[str, Any]]:
    return [solve(request) for request in unique_requests(puzzles, engine)]


def read_answers(puzzles: list[str], responses: list[dict[str, Any]]) -> Measured:
    nodes = 0
    for index, (grid, response) in enumerate(zip(puzzles, responses, strict=True)):
        if not response["ok"]:
            raise WrongAnswer(f"puzzle {index}: {response['error']['message']}")
        if not response["unique"] or not check_solution(grid, response["solutions"][0]):
            raise WrongAnswer(f"puzzle {index}: not unique or an invalid solution")
        nodes += response["stats"]["nodes"]
    return Measured(f"{len(responses)} unique", {"nodes": nodes})


@cache
def c_dlx_seconds(path: Path = HARD_SET) -> tuple[float, int] | None:
    """The C DLX's search CPU seconds (best of 3) and nodes on the hard set, proved unique;
    None without a C compiler."""
    binary, note = peers.c_dlx_binary()
    if binary is None:
        print(note, file=sys.stderr)
        return None
    grids = read_puzzles(path)
    timing = peers.c_dlx_timing(binary, {"name": HARD_NAME, "grids": grids, "limit": 2}, 3)
    if timing["answer"] != len(grids):
        raise WrongAnswer(f"the C DLX found {timing['answer']} of {len(grids)} unique")
    return timing["seconds"], timing["nodes"]


def timed_solve_all(puzzles: list[str], engine: str) -> tuple[list[dict[str, Any]], float]:
    """``solve_all`` and its own CPU seconds (for the ratio to the C DLX)."""
    started = process_time()
    responses = solve_all(puzzles, engine)
    return responses, process_time() - started


def read_hard(puzzles: list[str], answer: tuple[list[dict[str, Any]], float]) -> Measured:
    responses, seconds = answer
    measured = read_answers(puzzles, responses)
    counters = dict(measured.counters)
    c_dlx = c_dlx_seconds()
    if c_dlx is not None:
        counters["c_dlx_s"] = round(c_dlx[0], 4)
        counters["ratio_to_c_dlx"] = round(seconds / c_dlx[0], 2)
    return Measured(measured.answer, counters)


def c_dlx_case(puzzles: list[str]) -> Case:
    """The C DLX's row: its search seconds as a counter (the harness times this process)."""

    def read(timing: tuple[float, int] | None) -> Measured:
        if timing is None:
            return Measured(f"{len(puzzles)} unique", {"skipped": 1})
        return Measured(f"{len(puzzles)} unique", {"search_s": timing[0], "nodes": timing[1]})

    return Case(
        name=HARD_NAME,
        engine=peers.C_DLX,
        run=c_dlx_seconds,
        read=read,
        expected=f"{len(puzzles)} unique",
        repeat=1,
    )


def cases() -> Iterator[Case]:
    puzzles = read_puzzles()
    hard = read_puzzles(HARD_SET)
    yield c_dlx_case(hard)
    for engine in HARD_ENGINES:
        yield Case(
            name=HARD_NAME,
            engine=engine,
            run=lambda engine=engine: timed_solve_all(hard, engine),
            read=lambda answer: read_hard(hard, answer),
            expected=f"{len(hard)} unique",
        )
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
