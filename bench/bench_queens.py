"""N-queens counts per engine, through ``pysolver.solve``.

    python -m bench.bench_queens [harness options, see python -m bench.harness --help]

Counts of the empty n x n board for n = 8, 10 and 12 (quick rows) and 14 (365,596: about 12 s
of CPU with bitset and 41 with dlx, so ``--full`` rows), checked against the known totals (OEIS
A000170). The default engine of the kind is the faster one here.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

from bench.harness import Case, Measured, WrongAnswer, main
from pysolver import solve
from pysolver.kinds.queens import ENGINES

KNOWN = {8: 92, 10: 724, 12: 14_200, 14: 365_596}


def read(response: dict[str, Any]) -> Measured:
    if not response["ok"]:
        raise WrongAnswer(response["error"]["message"])
    if not response["complete"]:
        raise WrongAnswer("the count stopped early")
    counters = {key: value for key, value in response["stats"].items() if key != "seconds"}
    return Measured(response["count"], counters)


def cases() -> Iterator[Case]:
    for n, total in KNOWN.items():
        for engine in ENGINES:
            request = {"kind": "queens", "mode": "count", "limit": None, "engine": engine}
            request["puzzle"] = {"n": n}
            yield Case(
                name=f"queens count n={n}",
                engine=engine,
                run=lambda request=request: solve(request),
                read=read,
                expected=total,
                level="quick" if n < 14 else "full",
                repeat=1 if n == 14 else None,
            )


if __name__ == "__main__":
    sys.exit(main(sources=[cases]))
