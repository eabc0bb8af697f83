"""The two exact cover engines counting pentomino tilings (the engine alone, no request).

    python -m bench.bench_exact_cover [harness options, see python -m bench.harness --help]

Three classic matrices, built by the polyomino kind before any clock starts:

- 8x8 board with a 2x2 hole in the centre, all tilings: 520 (quick rows)
- 6x10 rectangle, one piece's symmetry fixed (Knuth's restriction): 2,339 (default rows)
- 6x10 rectangle, all tilings: 9,356 (full rows)

Both engines walk the same search tree (same MRV rule, same option order), so the node counts
agree and the seconds compare the cost per node. The work counters are each engine's own unit:
dancing links pays every link update in Python bytecode (about 130 per node here, dead ends
being caught by a look-ahead before any covering), the bitset engine a few dozen big-int ANDs
run in C.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

from bench.harness import Case, Measured, main
from pysolver.engines.exact_cover import ENGINES, search
from pysolver.kinds.polyomino import build_problem

RECTANGLE = {"board": ["." * 10] * 6, "pieces": ["pentominoes"]}
HOLED = {"board": ["." * 8] * 3 + ["...##..."] * 2 + ["." * 8] * 3, "pieces": ["pentominoes"]}

# name, puzzle, symmetry, expected count, level; the slow dancing-links runs are measured once.
CASES = (
    ("8x8 hole all", HOLED, "all", 520, "quick"),
    ("6x10 fixed", RECTANGLE, "distinct", 2339, "default"),
    ("6x10 all", RECTANGLE, "all", 9356, "full"),
)


def read_result(result: Any) -> Measured:
    # The engine's own unit of work: link updates (dlx) or big-int ANDs (bitset).
    unit = "updates" if "updates" in result.stats else "mask_ops"
    return Measured(result.count, {"nodes": result.stats["nodes"], unit: result.stats[unit]})


def cases() -> Iterator[Case]:
    for name, puzzle, symmetry, count, level in CASES:
        # Built here, before any clock starts (a few milliseconds each).
        problem = build_problem(puzzle, symmetry)
        for engine in ENGINES:
            yield Case(
                name=f"exact cover {name}",
                engine=engine,
                run=lambda problem=problem, engine=engine: search(
                    problem, engine, keep_solutions=False
                ),
                read=read_result,
                expected=count,
                level=level,
                # dancing links takes many seconds on these: one run is enough to compare.
                repeat=1 if engine == "dlx" and level != "quick" else None,
            )


if __name__ == "__main__":
    sys.exit(main(sources=[cases]))
