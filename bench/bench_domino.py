"""Domino tilings through ``pysolver.solve``: counts by profile DP and by Kasteleyn's formula.

    python -m bench.bench_domino [harness options, see python -m bench.harness --help]

Counts of the m x n rectangle (OEIS A004003 for the squares, A099390 in general) by the profile
DP (12x12, 16x16; 20x20 in the default rows) and by the formula (100x100 to 200x200, thousands
of digits), and three random 16x16 tilings, checked to be distinct tilings of the board. Counts
too long for the table are shown as their first and last digits and their length, and checked
that way. Targets: 16 x 16 by the profile DP under 1 s; 200 x 200 by the formula under 1 s.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

from bench.harness import Case, Measured, WrongAnswer, main
from pysolver import solve
from pysolver.protocol import unlimited_int_digits

COUNT_16X16 = 2444888770250892795802079170816

# board, engine, rows, cols, expected count (in full, or as summarised), level
COUNTS = (
    ("12x12", "profile_dp", 12, 12, "53060477521960000", "quick"),
    ("16x16", "profile_dp", 16, 16, str(COUNT_16X16), "quick"),
    ("20x20", "profile_dp", 20, 20, "1269984011...8576249856 (49 digits)", "default"),
    ("100x100", "formula", 100, 100, "2112968495...8065924096 (1254 digits)", "quick"),
    ("99x100", "formula", 99, 100, "4880934844...6165251051 (1241 digits)", "quick"),
    ("200x200", "formula", 200, 200, "1176873089...4002333696 (5040 digits)", "quick"),
    ("196x196", "formula", 196, 196, "1041242714...4244568064 (4840 digits)", "quick"),
)
RANDOM_TILINGS = 3


def summary(count: int) -> str:
    """A count as the table shows it: whole up to 40 digits, else its ends and its length."""
    with unlimited_int_digits():
        text = str(count)
    return text if len(text) <= 40 else f"{text[:10]}...{text[-10:]} ({len(text)} digits)"


def read_count(response: dict[str, Any]) -> Measured:
    if not response["ok"]:
        raise WrongAnswer(response["error"]["message"])
    return Measured(summary(response["count"]), {"nodes": response["stats"]["nodes"]})


def read_random(response: dict[str, Any]) -> Measured:
    """Distinct tilings of the 16x16 board, and the total they were drawn from."""
    if not response["ok"]:
        raise WrongAnswer(response["error"]["message"])
    if response["total"] != COUNT_16X16:
        raise WrongAnswer(f"random tilings drawn from {summary(response['total'])} tilings")
    board = {(r, c) for r in range(16) for c in range(16)}
    for tiling in response["solutions"]:
        cells = [tuple(cell) for domino in tiling for cell in domino]
        adjacent = all(abs(a - c) + abs(b - d) == 1 for (a, b), (c, d) in tiling)
        if not adjacent or len(cells) != len(board) or set(cells) != board:
            raise WrongAnswer("a random tiling does not cover the board with dominoes")
    distinct = len({repr(sorted(map(repr, tiling))) for tiling in response["solutions"]})
    return Measured(f"{distinct} distinct tilings", {"nodes": response["stats"]["nodes"]})


def cases() -> Iterator[Case]:
    for board, engine, rows, cols, expected, level in COUNTS:
        request = {
            "kind": "domino",
            "mode": "count",
            "engine": engine,
            "puzzle": {"rows": rows, "cols": cols},
        }
        yield Case(
            name=f"domino {board} count",
            engine=engine,
            run=lambda request=request: solve(request),
            read=read_count,
            expected=expected,
            level=level,
            repeat=1 if board == "20x20" else None,
        )
    request = {
        "kind": "domino",
        "mode": "random",
        "engine": "profile_dp",
        "limit": RANDOM_TILINGS,
        "seed": 1,
        "puzzle": {"rows": 16, "cols": 16},
    }
    yield Case(
        name=f"domino 16x16 random x{RANDOM_TILINGS}",
        engine="profile_dp",
        run=lambda: solve(request),
        read=read_random,
        expected=f"{RANDOM_TILINGS} distinct tilings",
    )


if __name__ == "__main__":
    sys.exit(main(sources=[cases]))
