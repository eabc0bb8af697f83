"""Shikaku benchmark: milliseconds and search nodes per engine.

Puzzles: the 12 x 12 seed puzzle (unique) and generated 20 x 20, 30 x 30 and 50 x 50 grids
(``pysolver.kinds.shikaku.generate``; these usually have many solutions). For each engine two
queries: ``limit 2`` (the uniqueness question) and ``limit 1`` (first solution). Times are the
best of ``--repeat`` runs of the whole request through ``pysolver.solve`` (parsing, candidate
generation and search), on a shared machine, so expect noise.

Run: ``python bench/bench_shikaku.py [--repeat 3] [--seeds 3] [--max-area 12]``; a small
``--max-area`` (4) cuts the grids into many small pieces, the hard case for the search.
Target: every puzzle up to 50 x 50 under 100 ms with the default (first) engine.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from time import perf_counter
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.generators import shikaku_puzzle as generate  # noqa: E402
from pysolver import solve  # noqa: E402
from pysolver.kinds.shikaku import ENGINES  # noqa: E402

SEED12 = Path("/work/shared/data/shikaku/seed12.json")


def puzzles(seeds: int, max_area: int) -> list[tuple[str, dict[str, Any]]]:
    found = []
    if SEED12.exists():
        found.append(("seed 12x12", json.loads(SEED12.read_text())["puzzle"]))
    for side in (20, 30, 50):
        for seed in range(seeds):
            found.append((f"gen {side}x{side} s{seed}", generate(side, side, seed, max_area)))
    return found


def measure(puzzle: dict[str, Any], engine: str, limit: int, repeat: int) -> tuple[float, dict]:
    best = float("inf")
    response: dict[str, Any] = {}
    for _ in range(repeat):
        started = perf_counter()
        response = solve({"kind": "shikaku", "engine": engine, "limit": limit, "puzzle": puzzle})
        best = min(best, perf_counter() - started)
    return best * 1000, response


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per query; the best counts")
    parser.add_argument("--seeds", type=int, default=3, help="generated puzzles per size")
    parser.add_argument("--max-area", type=int, default=12, help="largest generated piece")
    args = parser.parse_args()

    header = (
        f"{'puzzle':<16} {'engine':<10} {'limit':>5} {'ms':>8} {'nodes':>7} {'count':>5}  answer"
    )
    print(header)
    print("-" * len(header))
    worst = dict.fromkeys(ENGINES, 0.0)
    for name, puzzle in puzzles(args.seeds, args.max_area):
        for engine in ENGINES:
            for limit in (2, 1):
                ms, response = measure(puzzle, engine, limit, args.repeat)
                if not response.get("ok"):
                    message = response["error"]["message"][:60]
                    print(f"{name:<16} {engine:<10} {limit:>5} {'error':>8}  {message}")
                    worst[engine] = float("inf")
                    continue
                worst[engine] = max(worst[engine], ms)
                if limit == 2:
                    answer = "unique" if response["count"] == 1 and response["complete"] else ""
                    answer = answer or ("none" if response["count"] == 0 else "several")
                else:
                    answer = "first"
                nodes = response["stats"].get("nodes", "")
                print(
                    f"{name:<16} {engine:<10} {limit:>5} {ms:>8.1f} {nodes:>7} "
                    f"{response['count']:>5}  {answer}"
                )
    print()
    for engine in ENGINES:
        default = " (default)" if engine == ENGINES[0] else ""
        print(f"worst {engine}{default}: {worst[engine]:.1f} ms (target < 100 ms)")


if __name__ == "__main__":
    main()
