"""Sudoku benchmark: top95 with a uniqueness check (limit 2), one table row per engine.

    python bench/bench_sudoku.py [--repeat 3] [--engines singles,dlx,bitset] [--file top95.txt]

Each puzzle goes through ``pysolver.solve`` (parse, clash check, matrix build, search, decode),
so the times are what a caller sees. With --repeat N every engine runs the whole set N times and
the best total is kept (the machine is shared; the minimum is the least noisy figure); "cpu s"
is the process CPU time of that run, which other processes disturb less. Target:
the default engine under 0.3 s for all 95 puzzles.
"""

from __future__ import annotations

import argparse
import gc
import sys
from pathlib import Path
from time import perf_counter, process_time

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pysolver import solve  # noqa: E402
from pysolver.kinds import sudoku  # noqa: E402

DEFAULT_FILE = Path("/work/shared/data/sudoku/top95.txt")


def read_puzzles(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text().splitlines() if line.strip()]


def run_once(puzzles: list[str], engine: str) -> tuple[float, float, list[float], int]:
    """Wall seconds, CPU seconds, seconds per puzzle, nodes; checks every answer is unique."""
    times = []
    nodes = 0
    gc.disable()  # collector pauses would land on random puzzles and blur the slowest one
    try:
        started = perf_counter()
        cpu_started = process_time()
        for index, grid in enumerate(puzzles):
            before = perf_counter()
            response = solve(
                {"kind": "sudoku", "limit": 2, "engine": engine, "puzzle": {"grid": grid}}
            )
            times.append(perf_counter() - before)
            if not response["ok"] or not response["unique"]:
                raise SystemExit(f"{engine}: puzzle {index} gave {response}")
            nodes += response["stats"]["nodes"]
        total = perf_counter() - started
        cpu = process_time() - cpu_started
    finally:
        gc.enable()
    return total, cpu, times, nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, default=DEFAULT_FILE)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--engines", default=",".join(sudoku.ENGINES))
    args = parser.parse_args()
    puzzles = read_puzzles(args.file)

    print(f"{len(puzzles)} puzzles from {args.file.name}, uniqueness check (limit 2),")
    print(f"best of {args.repeat} runs; default engine: {sudoku.ENGINES[0]}")
    print()
    header = (
        f"{'engine':<9} {'total s':>8} {'cpu s':>7} {'puzzles/s':>10} {'slowest':>16} {'nodes':>9}"
    )
    print(header)
    print("-" * len(header))
    for engine in args.engines.split(","):
        best = None
        for _ in range(args.repeat):
            run = run_once(puzzles, engine)
            if best is None or run[0] < best[0]:
                best = run
        total, cpu, times, nodes = best
        slowest = max(range(len(times)), key=times.__getitem__)
        slowest_text = f"#{slowest} {times[slowest] * 1000:.1f} ms"
        print(
            f"{engine:<9} {total:>8.3f} {cpu:>7.3f} {len(puzzles) / total:>10.0f} "
            f"{slowest_text:>16} {nodes:>9,}"
        )


if __name__ == "__main__":
    main()
