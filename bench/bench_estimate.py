"""How close estimate mode comes to the truth, over seeds, at the default probes.

    python -m bench.bench_estimate [--seeds N] [--rows NAME,...]

Per row: the truth (nodes and solutions of the count the estimate is for), the estimates'
minimum, median and maximum over seeds 1..N (default 10), the worst factor off the truth, and
the CPU seconds of one estimate request (calibration included). The truths of the two tilings
are fixed figures (the 6x10 count takes half a minute, the 8x8 board's tens of minutes); the
Sudoku and queens rows count theirs first.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass
from typing import Any

from pysolver import solve

SUDOKU_MANY = ".2..5..8..56........91.3...2.4..7.9....8......91..4....45.......78....4.9........"


@dataclass
class Row:
    name: str
    kind: str
    puzzle: dict[str, Any]
    # (nodes, solutions) when fixed; None: counted here (nodes None: not known).
    truth: tuple[int | None, int] | None = None


ROWS = [
    Row(
        "6x10 pentominoes",
        "polyomino",
        {"board": ["." * 10] * 6, "pieces": ["pentominoes"]},
        (3_620_988, 9356),
    ),
    Row(
        "8x8 + 2x2 square",
        "polyomino",
        {"board": ["." * 8] * 8, "pieces": ["pentominoes", "O4"]},
        (None, 129_168),
    ),
    Row("Sudoku, 22 givens", "sudoku", {"grid": SUDOKU_MANY}),
    Row("12 queens", "queens", {"n": 12}),
]


def truth(row: Row) -> tuple[int | None, int]:
    if row.truth is not None:
        return row.truth
    response = solve({"kind": row.kind, "mode": "count", "limit": None, "puzzle": row.puzzle})
    assert response["ok"] and response["complete"], response
    return response["stats"]["nodes"], response["count"]


def spread(values: list[int], exact: int | None) -> str:
    low, middle, high = min(values), statistics.median(values), max(values)
    text = f"{low:,}-{high:,} (median {round(middle):,})"
    if exact:
        worst = max(exact / max(low, 1), high / exact)
        text += f", within {worst:.2f}x"
    return text


def measure(row: Row, seeds: int) -> str:
    nodes_truth, solutions_truth = truth(row)
    nodes: list[int] = []
    solutions: list[int] = []
    seconds: list[float] = []
    engine = ""
    for seed in range(1, seeds + 1):
        started = time.process_time()
        response = solve({"kind": row.kind, "mode": "estimate", "seed": seed, "puzzle": row.puzzle})
        seconds.append(time.process_time() - started)
        assert response["ok"] and response["complete"], response
        engine = response["engine"]
        nodes.append(response["estimate"]["nodes"])
        solutions.append(response["estimate"]["solutions"])
    known_nodes = f"{nodes_truth:,} nodes" if nodes_truth is not None else "nodes not counted"
    return (
        f"| {row.name}, {engine} | {known_nodes}, {solutions_truth:,} solutions "
        f"| nodes {spread(nodes, nodes_truth)} | solutions {spread(solutions, solutions_truth)} "
        f"| {min(seconds):.1f}-{max(seconds):.1f} s |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=10, help="seeds 1..N (default 10)")
    parser.add_argument("--rows", help="row name starts, e.g. 6x10,Sudoku")
    arguments = parser.parse_args()
    wanted = arguments.rows.split(",") if arguments.rows else None
    print(f"| search | truth | estimate, seeds 1-{arguments.seeds} | | CPU per estimate |")
    print("| --- | --- | --- | --- | --- |")
    for row in ROWS:
        if wanted is None or any(row.name.startswith(word) for word in wanted):
            print(measure(row, arguments.seeds), flush=True)


if __name__ == "__main__":
    main()
