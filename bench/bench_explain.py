"""Explain mode: every top95 Sudoku explained (a path of named techniques to the solution),
the first 150 of the hard Sudoku set with the median per puzzle beside two peers, Tatham's
'extreme' Sudoku, and the 12x12 Shikaku seed.

    python -m bench.bench_explain [harness options, see python -m bench.harness --help]

Each puzzle goes through ``pysolver.solve`` (parse, the path, its grade, and the engine's
solution when the path needs a guess), so a row's seconds are what a caller waits for all of
them. The answer counts the paths whose placements fill the grid with the solution; the
counters add up the steps and the guesses the paths needed.

The hard row (``bench/data/sudoku_hard311.txt``, lines 1-150: magictour's top1465 sample)
also times each explain alone (CPU) and gives the median, ``median_ms`` (issue 30's target:
at most 3 ms), beside the peers on the same puzzles in the same run, each a CPU median per
puzzle of one process per puzzle (its start included, ``*_ms``) and the CPU mean per puzzle of
one process solving all of them (``*_batch_ms``): Tatham's Solo (``sgt-solo --print 1x1
--with-solutions`` reading the puzzles as Solo game IDs: it solves each to print its solution,
with its own human-style solver, guessing only past its 'extreme' techniques) and qqwing
(``qqwing --solve``, a logic solver with guessing). A peer not installed (``/usr/games/sgt-solo``,
``qqwing``) is skipped with a note. The 'extreme' row explains Tatham's 20 'extreme' Sudoku
(tests/data/tatham_extreme.txt, made by ``sgt-solo --generate 20 3x3de``) and counts those
explained without a guess (``no_guess``; the target of issue 33 is 18 or more).
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from time import process_time
from typing import Any

from bench.bench_sudoku import HARD_SET, read_puzzles
from bench.harness import Case, Measured, WrongAnswer, main
from pysolver import solve
from pysolver.kinds.sudoku.pasted import solo_id
from pysolver.pasted import request_from_text

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
SEED12 = DATA / "seed12.json"
EXTREME = DATA / "tatham_extreme.txt"
HARD_COUNT = 150
# The peers: the command, the way it reads puzzles on stdin, and what it writes per puzzle.
SOLO = "/usr/games/sgt-solo"
QQWING = "qqwing"


def explain_requests(kind: str, puzzles: list[Any]) -> list[dict[str, Any]]:
    return [{"kind": kind, "mode": "explain", "puzzle": puzzle} for puzzle in puzzles]


def explain_all(kind: str, puzzles: list[Any]) -> list[dict[str, Any]]:
    return [solve(request) for request in explain_requests(kind, puzzles)]


def hard_explain_requests(count: int = HARD_COUNT) -> list[dict[str, Any]]:
    """The hard row's requests: the first ``count`` of the hard Sudoku set explained."""
    return explain_requests("sudoku", [{"grid": grid} for grid in read_puzzles(HARD_SET)[:count]])


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


def timed_explain_all(requests: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[float]]:
    """Every request answered, and each one's CPU seconds."""
    responses, seconds = [], []
    for request in requests:
        started = process_time()
        responses.append(solve(request))
        seconds.append(process_time() - started)
    return responses, seconds


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def peer_input(peer: str, grid: str) -> str:
    """A puzzle as the peer reads it: a Solo game ID, or qqwing's 81 characters."""
    if peer == SOLO:
        values = [0 if char in ".0" else int(char) for char in grid]
        return solo_id(values, 3, 3)
    return grid.replace("0", ".")


def peer_command(peer: str) -> list[str] | None:
    """The peer's command line, or None when it is not installed."""
    if peer == SOLO:
        return [SOLO, "--print", "1x1", "--with-solutions"] if os.path.exists(SOLO) else None
    found = shutil.which(QQWING)
    return [found, "--solve", "--one-line"] if found else None


@cache
def peer_times(peer: str, count: int = HARD_COUNT) -> tuple[float, float] | None:
    """The peer's CPU median per puzzle, one process per puzzle, and its CPU mean per puzzle
    in one process for all, in milliseconds, on the hard row's puzzles; None when the peer is
    not installed (a note says so)."""
    command = peer_command(peer)
    if command is None:
        print(f"note: {peer} is not installed; its columns are skipped", file=sys.stderr)
        return None
    lines = [peer_input(peer, grid) for grid in read_puzzles(HARD_SET)[:count]]
    each = []
    for line in lines:
        before = child_cpu()
        subprocess.run(command, input=line + "\n", capture_output=True, text=True, check=True)
        each.append(child_cpu() - before)
    before = child_cpu()
    subprocess.run(
        command, input="\n".join(lines) + "\n", capture_output=True, text=True, check=True
    )
    batch = (child_cpu() - before) / len(lines)
    return statistics.median(each) * 1000, batch * 1000


def read_hard(answer: tuple[list[dict[str, Any]], list[float]]) -> Measured:
    responses, seconds = answer
    measured = read_paths("sudoku", responses)
    counters = dict(measured.counters)
    counters["median_ms"] = round(statistics.median(seconds) * 1000, 2)
    for name, peer in (("tatham", SOLO), ("qqwing", QQWING)):
        times = peer_times(peer)
        if times is not None:
            counters[f"{name}_ms"] = round(times[0], 2)
            counters[f"{name}_batch_ms"] = round(times[1], 3)
    return Measured(measured.answer, counters)


def read_extreme(responses: list[dict[str, Any]]) -> Measured:
    measured = read_paths("sudoku", responses)
    no_guess = sum(1 for response in responses if "guess" not in response["grade"]["techniques"])
    return Measured(measured.answer, {**measured.counters, "no_guess": no_guess})


def cases() -> Iterator[Case]:
    sudokus = [{"grid": grid} for grid in read_puzzles()]
    yield Case(
        name="sudoku top95 explain",
        engine="logic",
        run=lambda: explain_all("sudoku", sudokus),
        read=lambda responses: read_paths("sudoku", responses),
        expected="95 explained",
    )
    hard = hard_explain_requests()
    yield Case(
        name="sudoku hard150 explain",
        engine="logic",
        run=lambda: timed_explain_all(hard),
        read=read_hard,
        expected=f"{HARD_COUNT} explained",
    )
    extreme = [request_from_text(line)["puzzle"] for line in EXTREME.read_text().split()]
    yield Case(
        name="sudoku tatham extreme explain",
        engine="logic",
        run=lambda: explain_all("sudoku", extreme),
        read=lambda responses: read_extreme(responses),
        expected=f"{len(extreme)} explained",
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
