"""pysolver against compiled peers on the same exact cover matrices, in one run, as ratios.

    python -m bench.peers [--quick]

The peers are xcover (Algorithm X in numba; its JIT is warmed before timing) and exact-cover
(dancing links in a C extension). They are never dependencies of the package: this script
installs them into their own environment, ``.cache/bench-peers-venv``, on first use, and runs
them there in a child process (``--peer FILE``) on matrices written out by this process, so
both sides solve the very same matrix. ``PYSOLVER_BENCH_PEERS=0`` skips the peers (pysolver's
rows are still timed).

Rows (CPU seconds of the solving process, best of ``--repeat`` runs; the machine is shared, and
CPU time is the least disturbed figure):

- 6x10 pentominoes, all 9,356 tilings: the ``polyomino`` kind (its default engine) against the
  peers on the kind's matrix.
- 6x10 with X fixed to one quadrant (2,339 covers): the ``exact_cover`` kind (its default),
  the ``memo`` engine on the bare matrix (no board hint: memoised counting only), and peers.
- Sudoku top95 (tests/data/top95.txt), each proved unique (up to 2 solutions): the ``sudoku``
  kind against the peers on each puzzle's matrix (324 items; the options of the givens and
  every candidate that no given rules out).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from functools import partial
from pathlib import Path
from time import process_time
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PEERS_VENV = ROOT / ".cache" / "bench-peers-venv"
PEER_PACKAGES = ["xcover", "exact-cover"]
TOP95 = ROOT / "tests" / "data" / "top95.txt"
SIX_BY_TEN = {"board": ["." * 10] * 6, "pieces": ["pentominoes"]}

# A matrix for the peers: name, primary and secondary item counts, options (item numbers),
# how many solutions to find at most (None: all), and the expected count.
Matrix = dict[str, Any]


def best_cpu(run: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The least CPU seconds of ``repeat`` runs of ``run``, and its answer."""
    best = float("inf")
    answer = None
    for _ in range(repeat):
        start = process_time()
        answer = run()
        best = min(best, process_time() - start)
    return best, answer


# ---------------------------------------------------------------- the matrices


def sudoku_matrix(grid: str) -> tuple[int, list[list[int]]]:
    """The 9x9 Sudoku exact cover matrix of a puzzle: 324 primary items (cell, row-digit,
    column-digit, box-digit); the givens' options and every candidate no given rules out."""
    givens = {(i // 9, i % 9): int(ch) for i, ch in enumerate(grid) if ch not in ".0"}
    options = []
    for r in range(9):
        for c in range(9):
            box = r // 3 * 3 + c // 3
            for d in range(1, 10):
                given = givens.get((r, c))
                if given is not None and given != d:
                    continue
                if given is None and any(
                    value == d and (gr == r or gc == c or gr // 3 * 3 + gc // 3 == box)
                    for (gr, gc), value in givens.items()
                ):
                    continue
                k = d - 1
                options.append([r * 9 + c, 81 + r * 9 + k, 162 + c * 9 + k, 243 + box * 9 + k])
    return 324, options


def matrices(quick: bool) -> list[tuple[Matrix, Callable[[], int], str]]:
    """Each matrix for the peers, with pysolver's run on the same work and what runs it."""
    from pysolver import solve
    from pysolver.engines.exact_cover import search
    from pysolver.kinds.polyomino import build_problem

    rows: list[tuple[Matrix, Callable[[], int], str]] = []
    whole = build_problem(SIX_BY_TEN)
    rows.append(
        (
            {
                "name": "6x10 all tilings",
                "primary": whole.primary,
                "secondary": whole.secondary,
                "options": whole.options,
                "limit": None,
                "expected": 9356,
            },
            lambda: solve({"kind": "polyomino", "mode": "count", "puzzle": SIX_BY_TEN})["count"],
            "polyomino kind (default engine)",
        )
    )
    fixed = build_problem(SIX_BY_TEN, "distinct")
    matrix = {
        "name": "6x10 X in one quadrant",
        "primary": fixed.primary,
        "secondary": fixed.secondary,
        "options": fixed.options,
        "limit": None,
        "expected": 2339,
    }
    items = [f"i{n}" for n in range(fixed.primary)]
    request = {
        "kind": "exact_cover",
        "mode": "count",
        "puzzle": {"items": items, "options": [[items[i] for i in o] for o in fixed.options]},
    }
    rows.append((matrix, lambda: solve(request)["count"], "exact_cover kind (default engine)"))
    rows.append((matrix, lambda: search(fixed, "memo", keep_solutions=False).count, "memo engine"))
    grids = TOP95.read_text().split()
    if quick:
        grids = grids[:20]
    sudoku = {
        "name": f"Sudoku top95 ({len(grids)}), unique",
        "grids": grids,
        "limit": 2,
        "expected": len(grids),
    }

    def pysolver_sudoku() -> int:
        unique = 0
        for grid in grids:
            answer = solve({"kind": "sudoku", "limit": 2, "puzzle": {"grid": grid}})
            unique += answer["count"] == 1 and answer["complete"]
        return unique

    rows.append((sudoku, pysolver_sudoku, "sudoku kind (default engine)"))
    return rows


# ---------------------------------------------------------------- the peers (child process)


def peer_problems(matrix: Matrix) -> list[tuple[int, int, list[list[int]]]]:
    """The (primary, secondary, options) problems of one row (one per Sudoku puzzle)."""
    if "grids" in matrix:
        return [(*sudoku_matrix(grid)[:1], 0, sudoku_matrix(grid)[1]) for grid in matrix["grids"]]
    return [(matrix["primary"], matrix["secondary"], matrix["options"])]


def xcover_count(primary: int, secondary: int, options: list[list[int]], limit: int | None) -> int:
    from xcover import covers  # the peer environment's

    found = 0
    for _ in covers(
        options, primary=list(range(primary)), secondary=list(range(primary, primary + secondary))
    ):
        found += 1
        if limit is not None and found >= limit:
            break
    return found


def exact_cover_count(
    primary: int, secondary: int, options: list[list[int]], limit: int | None
) -> int:
    import exact_cover  # the peer environment's
    import numpy as np

    if secondary:
        raise ValueError("exact-cover has no secondary items")
    matrix = np.zeros((len(options), primary), dtype=bool)
    for row, option in enumerate(options):
        matrix[row, option] = True
    return int(exact_cover.get_solution_count(matrix))  # counts all: no limit to give it


PEERS: dict[str, Callable[[int, int, list[list[int]], int | None], int]] = {
    "xcover": xcover_count,
    "exact-cover": exact_cover_count,
}


def _peer_row(
    count: Callable[[int, int, list[list[int]], int | None], int],
    problems: list[tuple[int, int, list[list[int]]]],
    limit: int | None,
    single: bool,
) -> int:
    """One peer on one row: covers found (for a uniqueness row, the puzzles with one)."""
    answers = [count(*problem, limit) for problem in problems]
    return sum(a == 1 for a in answers) if single else sum(answers)


def run_peers(path: str, repeat: int) -> None:
    """In the peer environment: time each peer on each row of ``path``; print JSON."""
    rows = json.loads(Path(path).read_text())
    xcover_count(2, 0, [[0], [1], [0, 1]], None)  # warm numba's JIT (compiled on first call)
    timings: dict[str, dict[str, Any]] = {}
    for matrix in rows:
        problems = peer_problems(matrix)
        single = matrix["limit"] == 2  # a uniqueness proof: count the ones with one solution
        for peer, count in PEERS.items():
            run = partial(_peer_row, count, problems, matrix["limit"], single)
            try:
                seconds, answer = best_cpu(run, repeat)
                timings.setdefault(matrix["name"], {})[peer] = {
                    "seconds": seconds,
                    "answer": answer,
                }
            except Exception as error:  # a peer that cannot take the row says why
                timings.setdefault(matrix["name"], {})[peer] = {"error": str(error)}
    print(json.dumps(timings))


# ---------------------------------------------------------------- this process


def peer_python() -> Path | None:
    """The peers' Python, installing them on first use; None when skipped or not installable."""
    if os.environ.get("PYSOLVER_BENCH_PEERS", "1") == "0":
        return None
    python = PEERS_VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(PEERS_VENV)], check=True)
    check = [str(python), "-c", "import xcover, exact_cover"]
    if subprocess.run(check, capture_output=True).returncode != 0:
        install = [str(python), "-m", "pip", "install", "-q", *PEER_PACKAGES]
        if subprocess.run(install).returncode != 0:
            print("peers not installed (pip failed): pysolver rows only", file=sys.stderr)
            return None
    return python


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="20 of the top95 Sudoku")
    parser.add_argument("--repeat", type=int, default=1, help="runs per row; the best is kept")
    parser.add_argument("--peer", metavar="FILE", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.peer:
        run_peers(args.peer, args.repeat)
        return 0
    rows = matrices(args.quick)
    python = peer_python()
    peers: dict[str, dict[str, Any]] = {}
    if python is not None:
        shared = []
        for matrix, _, _ in rows:
            if all(matrix["name"] != other["name"] for other in shared):
                shared.append(matrix)
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
            json.dump(shared, file)
        command = [
            str(python),
            str(Path(__file__)),
            "--peer",
            file.name,
            "--repeat",
            str(args.repeat),
        ]
        done = subprocess.run(command, capture_output=True, text=True)
        os.unlink(file.name)
        if done.returncode != 0:
            print(done.stderr, file=sys.stderr)
            return 1
        peers = json.loads(done.stdout.strip().splitlines()[-1])
    print(
        f"{'row':<34} {'solver':<36} {'answer':>7} {'CPU s':>8} {'vs xcover':>9} "
        f"{'vs exact-cover':>14}"
    )
    wrong = False
    for matrix, run, label in rows:
        seconds, answer = best_cpu(run, args.repeat)
        wrong |= answer != matrix["expected"]
        ratios = []
        for peer in PEERS:
            timing = peers.get(matrix["name"], {}).get(peer, {})
            ratios.append(f"{seconds / timing['seconds']:.2f}x" if "seconds" in timing else "-")
        print(
            f"{matrix['name']:<34} {label:<36} {answer:>7} {seconds:>8.2f} {ratios[0]:>9} "
            f"{ratios[1]:>14}"
        )
    for name, timings in peers.items():
        for peer, timing in timings.items():
            shown = (
                f"{timing['answer']:>7} {timing['seconds']:>8.2f}"
                if "seconds" in timing
                else f"error: {timing['error']}"
            )
            print(f"{name:<34} {peer:<36} {shown}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
