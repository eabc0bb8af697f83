"""Trace mode and cftp benchmark: prints steps per second per kind and engine, and seconds per
uniformly random domino tiling.

    python -m bench.bench_trace            # everything (200 x 200 by cftp takes ~20 s)
    python -m bench.bench_trace --quick    # skip 200 x 200

Targets (issue 10): a random tiling of 100 x 100 and an Aztec diamond of order 60 under 10 s.
Timings on a shared machine are noisy.
"""

from __future__ import annotations

import argparse
from time import perf_counter
from typing import Any

from bench.generators import aztec_diamond, shikaku_puzzle
from pysolver import solve

TOP95_FIRST = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
MAX_STEPS = 100_000


TRACES: list[tuple[str, dict[str, Any]]] = [
    (
        "pentominoes 3x20",
        {"kind": "polyomino", "puzzle": {"board": ["." * 20] * 3, "pieces": ["pentominoes"]}},
    ),
    (
        "pentominoes 6x10",
        {"kind": "polyomino", "puzzle": {"board": ["." * 10] * 6, "pieces": ["pentominoes"]}},
    ),
    (
        "pentominoes 6x10, all",
        {
            "kind": "polyomino",
            "limit": None,
            "puzzle": {"board": ["." * 10] * 6, "pieces": ["pentominoes"]},
        },
    ),
    ("sudoku top95 #1", {"kind": "sudoku", "puzzle": {"grid": TOP95_FIRST}}),
    (
        "shikaku 20x20 generated",
        {"kind": "shikaku", "puzzle": shikaku_puzzle(20, 20, 4, max_area=8)},
    ),
    ("domino 12x12", {"kind": "domino", "puzzle": {"rows": 12, "cols": 12}}),
]

ENGINES = {
    "polyomino": ["bitset", "dlx"],
    "sudoku": ["singles", "dlx"],
    "shikaku": ["propagate", "dlx"],
    "domino": ["profile_dp"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="skip 200 x 200 by cftp")
    args = parser.parse_args()

    print(f"Trace mode (max_steps {MAX_STEPS:,}, limit 1 unless 'all')")
    print(f"{'puzzle':26} {'engine':10} {'steps':>8} {'trunc':>6} {'seconds':>8} {'steps/s':>9}")
    for label, request in TRACES:
        for engine in ENGINES[request["kind"]]:
            started = perf_counter()
            response = solve({**request, "mode": "trace", "engine": engine, "max_steps": MAX_STEPS})
            seconds = perf_counter() - started
            assert response["ok"], response
            steps = len(response["steps"])
            print(
                f"{label:26} {engine:10} {steps:8,} {str(response['truncated']):>6} "
                f"{seconds:8.3f} {steps / seconds:9,.0f}"
            )

    print("\nUniformly random domino tilings, engine cftp (one tiling each)")
    print(f"{'board':26} {'cells':>8} {'sweeps':>8} {'seconds':>8}")
    boards: list[tuple[str, dict[str, Any]]] = [
        ("60x60", {"rows": 60, "cols": 60}),
        ("100x100", {"rows": 100, "cols": 100}),
        ("Aztec diamond, order 60", {"board": aztec_diamond(60)}),
    ]
    if not args.quick:
        boards.append(("200x200", {"rows": 200, "cols": 200}))
    for label, puzzle in boards:
        started = perf_counter()
        response = solve(
            {"kind": "domino", "mode": "random", "engine": "cftp", "seed": 1, "puzzle": puzzle}
        )
        seconds = perf_counter() - started
        assert response["ok"] and response["count"] == 1, response
        cells = 2 * len(response["solutions"][0])
        print(f"{label:26} {cells:8,} {response['stats']['sweeps']:8,} {seconds:8.2f}")


if __name__ == "__main__":
    main()
