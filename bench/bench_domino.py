"""Domino tiling benchmark: prints a table of seconds and digits per board and engine.

    python bench/bench_domino.py            # everything (20 x 20 by the DP takes a while)
    python bench/bench_domino.py --quick    # skip 20 x 20

Targets: 16 x 16 by the profile DP under 1 s; 200 x 200 by the formula under 1 s (CPython).
Timings on a shared machine are noisy; each row is the best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from time import perf_counter

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pysolver import solve  # noqa: E402
from pysolver.protocol import unlimited_int_digits  # noqa: E402

CASES = [
    # (label, engine, mode, rows, cols, extra request fields)
    ("12x12", "profile_dp", "count", 12, 12, {}),
    ("16x16", "profile_dp", "count", 16, 16, {}),
    ("16x16 random x3", "profile_dp", "random", 16, 16, {"limit": 3, "seed": 1}),
    ("20x20", "profile_dp", "count", 20, 20, {}),
    ("100x100", "formula", "count", 100, 100, {}),
    ("99x100", "formula", "count", 99, 100, {}),
    ("200x200", "formula", "count", 200, 200, {}),
    ("196x196", "formula", "count", 196, 196, {}),
]


def digits(count: int) -> int:
    with unlimited_int_digits():
        return len(str(count))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the 20 x 20 DP run")
    parser.add_argument("--repeat", type=int, default=3, help="runs per case (best is shown)")
    args = parser.parse_args()

    print(f"{'board':<17} {'engine':<11} {'mode':<7} {'seconds':>9} {'digits':>7}  count")
    for label, engine, mode, rows, cols, extra in CASES:
        if args.quick and label == "20x20":
            continue
        request = {
            "kind": "domino",
            "mode": mode,
            "engine": engine,
            "puzzle": {"rows": rows, "cols": cols},
            **extra,
        }
        repeat = 1 if label == "20x20" else args.repeat
        best = float("inf")
        response: dict = {}
        for _ in range(repeat):
            started = perf_counter()
            response = solve(request)
            best = min(best, perf_counter() - started)
        if not response.get("ok"):
            print(f"{label:<17} {engine:<11} {mode:<7} error: {response['error']['message']}")
            continue
        total = response["count"] if mode == "count" else response["total"]
        with unlimited_int_digits():
            shown = str(total)
        if len(shown) > 24:
            shown = f"{shown[:10]}...{shown[-10:]}"
        print(f"{label:<17} {engine:<11} {mode:<7} {best:>9.3f} {digits(total):>7}  {shown}")


if __name__ == "__main__":
    main()
