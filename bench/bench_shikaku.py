"""Shikaku: the 12x12 seed puzzle and generated grids, per engine, through ``pysolver.solve``;
and generate mode against Tatham's Rectangles.

    python -m bench.bench_shikaku [harness options, see python -m bench.harness --help]
    python -m bench.bench_shikaku --generate [--seeds 5]

Puzzles: the 12 x 12 seed puzzle of tests/data (unique) and generated 20 x 20, 30 x 30 and
50 x 50 grids (``bench.generators.shikaku_puzzle``, pieces of at most 12 cells; seed 0 in the
quick rows, seeds 1 and 2 too by default; these have several solutions). For each engine two
queries: ``limit 2`` (the uniqueness question: unique, several or none) and ``limit 1`` (the
first solution). Every solution is checked to tile the grid with one rectangle per clue, and
the seed puzzle's against its known tiling. Target: every puzzle up to 50 x 50 under 100 ms
with the default (first) engine.

``--generate``: generate mode on 10 x 10, 20 x 20 and 40 x 40 grids, every level, seeds 0 to
``--seeds`` - 1 (CPU seconds of one request: median and worst; the levels reached; clues per
puzzle, 1-clues, largest rectangle), next to Tatham's Rectangles in the same run
(``sgt-rect --generate N WxH``, its default settings: unique puzzles, no levels; from Debian's
``sgt-puzzles``, installed with apt-get when missing and possible, else skipped with a note):
CPU seconds per puzzle over ``TATHAM_PUZZLES`` puzzles of one process, its clues per puzzle
(mean, least and most), 1-clues and largest rectangle. Issue 30's target: 20 x 20 at most
0.5 s median at every level; issue 33's: no 1-clues and at most 1.5x Tatham's mean clues.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import time
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


# ---------------------------------------------------------------- generate mode vs Rectangles

GENERATE_SIZES = ((10, 10), (20, 20), (40, 40))
TATHAM = "/usr/games/sgt-rect"
TATHAM_PUZZLES = 100
LEVELS = ("easy", "medium", "hard", "expert")


def tatham_clues(description: str) -> list[tuple[int, int, int]]:
    """The clues ``(row, col, area)`` of a Rectangles game ID (``WxH:`` then per cell in
    reading order a letter for a run of 1-26 empty cells or a number, ``_`` between two
    numbers)."""
    size, body = description.split(":")
    cols = int(size.split("x")[0])
    cells: list[int] = []
    at = 0
    while at < len(body):
        if body[at].isalpha():
            cells += [0] * (ord(body[at]) - ord("a") + 1)
            at += 1
        elif body[at] == "_":
            at += 1
        else:
            end = at
            while end < len(body) and body[end].isdigit():
                end += 1
            cells.append(int(body[at:end]))
            at = end
    return [(index // cols, index % cols, area) for index, area in enumerate(cells) if area]


def tatham_program() -> str | None:
    """sgt-rect's path, installed with apt-get when missing and possible; None if absent."""
    if shutil.which(TATHAM) is None and shutil.which("apt-get") is not None:
        subprocess.run(
            ["apt-get", "install", "-y", "-q", "sgt-puzzles"], capture_output=True, check=False
        )
    return TATHAM if shutil.which(TATHAM) else None


def tatham_row(program: str, rows: int, cols: int) -> dict[str, float]:
    """CPU seconds per puzzle and clue figures of ``TATHAM_PUZZLES`` Rectangles puzzles."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    made = subprocess.run(
        [program, "--generate", str(TATHAM_PUZZLES), f"{cols}x{rows}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    counts = [len(tatham_clues(description)) for description in made]
    areas = [area for description in made for _r, _c, area in tatham_clues(description)]
    return {
        "seconds": seconds / len(made),
        "clues": statistics.mean(counts),
        "least": min(counts),
        "most": max(counts),
        "ones": areas.count(1) / len(made),
        "largest": max(areas),
    }


def generate_request(rows: int, cols: int, level: str, seed: int) -> dict[str, Any]:
    """One generate request of the ``--generate`` table."""
    return {
        "kind": "shikaku",
        "mode": "generate",
        "seed": seed,
        "difficulty": level,
        "puzzle": {"rows": rows, "cols": cols},
    }


def generate_table(seeds: int) -> None:
    """The table of ``--generate`` (see the module docstring)."""
    program = tatham_program()
    if program is None:
        print(f"note: {TATHAM} is missing (Debian's sgt-puzzles): Tatham's columns are skipped")
    print(f"generate mode, seeds 0-{seeds - 1}: CPU seconds of a request, median / worst")
    header = (
        f"{'size':<6} {'level':<7} {'median':>7} {'worst':>7} {'reached':>7} {'clues':>6} "
        f"{'1-clues':>7} {'largest':>7} | {'Tatham s':>8} {'clues':>5} {'least-most':>10} "
        f"{'largest':>7} {'ratio':>6}"
    )
    print(header)
    for rows, cols in GENERATE_SIZES:
        tatham = tatham_row(program, rows, cols) if program else None
        for level in LEVELS:
            seconds, counts, ones, largest, reached = [], [], 0, 0, 0
            for seed in range(seeds):
                started = time.process_time()
                response = solve(generate_request(rows, cols, level, seed))
                seconds.append(time.process_time() - started)
                if not response["ok"]:
                    raise SystemExit(f"{rows}x{cols} {level} seed {seed}: {response['error']}")
                clues = response["puzzle"]["clues"]
                counts.append(len(clues))
                ones += sum(1 for clue in clues if clue[2] == 1)
                largest = max(largest, max(clue[2] for clue in clues))
                reached += response["grade"]["level"] == level
            median = statistics.median(seconds)
            line = (
                f"{rows}x{cols:<3} {level:<7} {median:7.3f} {max(seconds):7.3f} "
                f"{reached:>4}/{seeds:<2} {statistics.mean(counts):6.1f} "
                f"{ones / seeds:7.1f} {largest:7d} |"
            )
            if tatham is not None:
                spread = f"{tatham['least']:.0f}-{tatham['most']:.0f}"
                line += (
                    f" {tatham['seconds']:8.4f} {tatham['clues']:5.1f} {spread:>10} "
                    f"{tatham['largest']:7.0f} {median / tatham['seconds']:5.0f}x"
                )
            print(line, flush=True)


if __name__ == "__main__":
    if "--generate" in sys.argv[1:]:
        parser = argparse.ArgumentParser(description="generate mode against Tatham's Rectangles")
        parser.add_argument("--generate", action="store_true")
        parser.add_argument("--seeds", type=int, default=5, help="seeds per size and level")
        generate_table(parser.parse_args().seeds)
        sys.exit(0)
    sys.exit(main(sources=[cases]))
