"""Polyomino tiling benchmark: known counts and random sampling, for each exact cover engine.

    python bench/bench_polyomino.py            # default: every case but the 129,168-tiling count
    python bench/bench_polyomino.py --quick    # small cases only, both engines
    python bench/bench_polyomino.py --full     # also count all 129,168 tilings of 8x8 + square
    python bench/bench_polyomino.py --engines bitset --cases 8x8+O4

Prints one row per (case, engine): the answer, whether it matches the known value, search nodes
and seconds. Timings are wall-clock on a shared machine: treat them as rough.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from time import perf_counter
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pysolver import solve  # noqa: E402
from pysolver.kinds.polyomino import ENGINES  # noqa: E402

SQUARE = ["........"] * 8
HOLE = ["........"] * 3 + ["...##..."] * 2 + ["........"] * 3
PENTOMINOES = ["pentominoes"]


def rectangle(rows: int, cols: int) -> list[str]:
    return ["." * cols] * rows


# name, board, pieces, mode, symmetry, limit, expected count, weight (quick / default / full)
CASES: list[tuple[str, list[str], list[str], str, str, int | None, int, str]] = [
    ("3x20 distinct", rectangle(3, 20), PENTOMINOES, "count", "distinct", None, 2, "quick"),
    ("8x8 hole distinct", HOLE, PENTOMINOES, "count", "distinct", None, 65, "quick"),
    ("8x8 hole all", HOLE, PENTOMINOES, "count", "all", None, 520, "quick"),
    ("random 100 8x8+O4", SQUARE, ["pentominoes", "O4"], "random", "all", 100, 100, "quick"),
    ("4x15 distinct", rectangle(4, 15), PENTOMINOES, "count", "distinct", None, 368, "default"),
    ("5x12 distinct", rectangle(5, 12), PENTOMINOES, "count", "distinct", None, 1010, "default"),
    ("6x10 distinct", rectangle(6, 10), PENTOMINOES, "count", "distinct", None, 2339, "default"),
    ("8x8+O4 distinct", SQUARE, ["pentominoes", "O4"], "count", "distinct", None, 16146, "default"),
    ("8x8+O4 all", SQUARE, ["pentominoes", "O4"], "count", "all", None, 129168, "full"),
]
WEIGHTS = {"quick": 0, "default": 1, "full": 2}


def run(case: tuple, engine: str) -> dict[str, Any]:
    name, board, pieces, mode, symmetry, limit, expected, _ = case
    request: dict[str, Any] = {
        "kind": "polyomino",
        "mode": mode,
        "engine": engine,
        "symmetry": symmetry,
        "puzzle": {"board": board, "pieces": pieces},
    }
    if limit is not None:
        request["limit"] = limit
        request["seed"] = 1
    started = perf_counter()
    response = solve(request)
    seconds = perf_counter() - started
    if not response["ok"]:
        return {"case": name, "engine": engine, "error": response["error"]["message"]}
    count = response["count"]
    if mode == "random":
        distinct = len({repr(s) for s in response["solutions"]})
        ok = distinct == count == expected
    else:
        ok = count == expected and response["complete"]
    return {
        "case": name,
        "engine": engine,
        "count": count,
        "ok": ok,
        "nodes": response["stats"]["nodes"],
        "seconds": seconds,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="small cases only")
    size.add_argument("--full", action="store_true", help="include the 129,168-tiling count")
    parser.add_argument("--engines", default=",".join(ENGINES), help="comma-separated engines")
    parser.add_argument("--cases", default="", help="only cases whose name contains this text")
    args = parser.parse_args(argv)
    level = 0 if args.quick else 2 if args.full else 1
    engines = [e for e in args.engines.split(",") if e]
    print(f"{'case':<20} {'engine':<7} {'count':>8} {'ok':<4} {'nodes':>10} {'seconds':>9}")
    failures = 0
    for case in CASES:
        if WEIGHTS[case[-1]] > level or args.cases not in case[0]:
            continue
        for engine in engines:
            row = run(case, engine)
            if "error" in row:
                print(f"{row['case']:<20} {engine:<7} error: {row['error']}")
                failures += 1
                continue
            failures += not row["ok"]
            print(
                f"{row['case']:<20} {engine:<7} {row['count']:>8} {'yes' if row['ok'] else 'NO':<4}"
                f" {row['nodes']:>10,} {row['seconds']:>9.2f}",
                flush=True,
            )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
