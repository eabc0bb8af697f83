"""Star Battle: place stars on a square board cut into regions so that every row, every column
and every region holds the same number of stars, and no two stars touch, not even diagonally.

Puzzle::

    {"regions": ["AABBB", "AABBC", ...], "stars": 1, "givens": [[row, col], ...]}

``regions``: n rows of n characters, each naming its cell's region (any visible character; or
one string, its rows separated by whitespace). There must be exactly n regions, each connected
through cell sides. ``stars``: how many stars each row, column and region holds, 1 to
(n + 1) // 2 (a row holds no more without two touching); 1 or 2 in most published puzzles.
``givens`` (optional): stars placed beforehand, none touching another and no line given more
than ``stars``; they are applied before the search (their lines need fewer stars, the cells
they touch leave the matrix). Errors name the row (``puzzle.regions[3]``), ``puzzle.stars`` or
the given star (``puzzle.givens[2]``).

A solution is the board as n strings of ``*`` (a star) and ``.`` (none).

Exact cover with multiplicities (``encoding``): rows, columns and regions are primary items
covered exactly ``stars`` times, every 2 x 2 block a secondary item covered at most once, an
option per cell. With one star the matrix is a plain exact cover one.

Engines: the exact cover family's ``bitset`` (default; Algorithm M on masks, Algorithm X with
one star) and ``dlx`` (the same trees on links), the two that take multiplicities. Every mode
the exact cover kinds have: solve, count (with a limit), random (seed), heatmap (key
``"star"``: per cell, how many solutions put a star there), trace (Algorithm X's steps with one
star, Algorithm M's with more; ``place`` is ``{"star": [row, col]}``, a ``choose`` step's
``item`` is ``{"row": r}``, ``{"col": c}`` or ``{"region": "A"}``), jobs (subtree tasks of the
same tree) and estimate (with more than one star only when the calibration count ends: the
random paths of ``pysolver.engines.estimate`` do not follow Algorithm M yet, and the midend
refuses the rest). Generate mode: ``generate`` (``pysolver.kinds.star_battle.generator``).
Share links: ``url`` (puzz.link ``starbattle``; ``read_pasted`` for the paste reader).

Limit: n at most ``MAX_N`` (30; ``board``): larger boards are ``too_large``. Published 10 x 10
two-star puzzles take 155-701 search nodes to prove unique (a hundredth of a second); a
published 15 x 15 with three stars took 3.2 million nodes (130 s on a loaded machine), and a
planted 11 x 11 two-star map with 35,448 solutions 26 s to count: Algorithm M branches widely
on such boards, so large counts are for a limit, the cancel button or a parallel search.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from pysolver.engines import cover, dlx, trace
from pysolver.engines.cover import engine_modules
from pysolver.engines.monitor import SearchResult
from pysolver.facts import engine_facts
from pysolver.kinds.star_battle import generator
from pysolver.kinds.star_battle.board import MAX_N, Board, parse_puzzle
from pysolver.kinds.star_battle.encoding import (
    Encoding,
    Solution,
    decode,
    encode,
    heatmap,
    solution_size,
)
from pysolver.kinds.star_battle.pictures import puzzle_text as puzzle_text
from pysolver.kinds.star_battle.pictures import solution_svg as solution_svg
from pysolver.kinds.star_battle.pictures import solution_text as solution_text
from pysolver.kinds.star_battle.url import read_pasted, read_url, write_url
from pysolver.midend.plan import GenerateArgs, Generated, Plan, SearchArgs, TraceArgs
from pysolver.protocol import Query

__all__ = [
    "Board",
    "Encoding",
    "Solution",
    "decode",
    "encode",
    "heatmap",
    "parse_puzzle",
    "read_pasted",
    "read_url",
    "write_url",
]

# The faster engine comes first: it is the default. CPU seconds of whole counts, bitset vs dlx
# (best of 2): planted 10 x 10 boards with two stars (95-215 solutions) 0.022-0.031 vs
# 0.037-0.052; planted 9 x 9 with one star (588-931) 0.005-0.007 vs 0.022-0.030; 9 x 9 in
# column stripes with one star (47,622) 0.25 vs 1.24.
ENGINE_MODULES = engine_modules("bitset", "dlx")
ENGINES = tuple(ENGINE_MODULES)

PUZZLE_FIELDS = ("regions", "stars", "givens")
GENERATE_FIELDS = ("size", "stars")
# The puzzle of a small generate request (made in well under a second), for generic tests.
GENERATE_EXAMPLE: dict[str, Any] = {"size": 5, "stars": 1}
# The puzzle of ``pysolver generate star_battle`` without --size: the size most people play.
GENERATE_DEFAULT: dict[str, Any] = {"size": 10, "stars": 2}
DIFFICULTIES = generator.DIFFICULTIES
GENERATE_OPTIONS = ("difficulty",)
GENERATE_LIMITS = {
    # The smallest side by stars (JSON keys are strings).
    "min_size": {str(stars): side for stars, side in generator.FIRST_SIDE_HOLDING.items()},
    # The largest side by stars (JSON keys are strings).
    "max_size": {str(stars): side for stars, side in generator.MAX_GENERATE_SIDE.items()},
}
# The boards that cannot make every level, named "<side>/<stars>" (facts.json's
# generate.levels_by_size).
GENERATE_LEVELS_BY_SIZE = {
    board: list(levels) for board, levels in generator.LEVELS_BY_BOARD.items()
}
OPTIONS: tuple[str, ...] = GENERATE_OPTIONS
SPLITTABLE = True
# Where the kind comes in the page's tabs and the facts (the registry's order).
ORDER = 70
# A small request of this kind (6 x 6, one star, two solutions: one cell away from generate
# mode's seed 7, medium, which has one),
# for generic tests and docs.
EXAMPLE: dict[str, Any] = {
    "kind": "star_battle",
    "puzzle": {
        "regions": ["AAABBB", "AAAEBC", "ADDECC", "DDDDCC", "DDDDCC", "FFDDCC"],
        "stars": 1,
    },
}


def facts() -> dict[str, Any]:
    """What the page needs to know about this kind (see ``pysolver.facts``)."""
    return {
        "title": "Star Battle",
        "help": (
            "Place stars so that every row, every column and every region holds the same "
            "number of them (1 or 2, as the puzzle says) and no two stars touch, not even "
            "diagonally. Knuth's Algorithm M covers rows, columns and regions that many times "
            "and every 2 x 2 block at most once (a secondary item), on bitsets or on dancing "
            "links."
        ),
        **engine_facts(ENGINE_MODULES),
        "limits": {"max_n": MAX_N},
    }


# ---------------------------------------------------------------- trace words


def item_label(encoding: Encoding, item: int) -> str:
    """An item in words, for trace steps: "row 3", "column 5", "region A", "the 2 x 2 block
    at rows 3-4, columns 5-6"."""
    what, k = encoding.items[item]
    if what == "block":
        r, c = divmod(k, encoding.board.n)
        return f"the 2 x 2 block at rows {r + 1}-{r + 2}, columns {c + 1}-{c + 2}"
    if what == "region":
        return f"region {encoding.board.names[k]}"
    return f"{'row' if what == 'row' else 'column'} {k + 1}"


def item_value(encoding: Encoding, item: int) -> dict[str, Any]:
    """A ``choose`` step's ``item`` (only primary items are chosen): ``{"row": r}``,
    ``{"col": c}`` or ``{"region": name}``, so the page can highlight the line or region."""
    what, k = encoding.items[item]
    if what == "region":
        return {"region": encoding.board.names[k]}
    return {what: k}


def option_label(encoding: Encoding, option: int) -> str:
    r, c = encoding.cells[option]
    return f"a star on {trace.cell_words(r, c)}"


# ---------------------------------------------------------------- the plan


def prepare(puzzle: Any, query: Query, engine: str) -> Plan:
    """The search of a Star Battle request for the midend: the exact cover engines on the
    encoded board, trace steps in Star Battle's words (see the module docstring)."""
    encoding = encode(parse_puzzle(puzzle))
    problem = encoding.problem

    def run(args: SearchArgs) -> SearchResult[list[int]]:
        return cover.search(problem, args.engine, **args.search_options())

    def traced(args: TraceArgs) -> SearchResult[list[int]]:
        args.recorder.describe = trace.exact_cover_describer(
            partial(item_label, encoding),
            partial(option_label, encoding),
            lambda option: {"star": list(encoding.cells[option])},
            partial(item_value, encoding),
        )
        return dlx.trace_cover(
            problem, args.recorder, limit=args.limit, max_kept=args.max_kept, monitor=args.monitor
        )

    solution_bytes, solution_chars = solution_size(encoding.board.n)
    return Plan(
        run=run,
        decode=partial(decode, encoding),
        listed_bytes=solution_bytes,
        listed_chars=solution_chars,
        split=lambda _engine, wanted, monitor: [cover.split(problem, wanted, monitor=monitor)],
        trace=traced,
        # The heatmap sums engine answers: decode them to boards first.
        heatmap=lambda answers: heatmap(encoding.board.n, [decode(encoding, a) for a in answers]),
        needed_bytes=partial(cover.estimated_bytes, problem),
        too_large=f"the {{engine}} engine on this board ({len(problem.options):,} options)",
        shrink="use a smaller board",
        exact_cover=lambda: [problem],
    )


def generate(puzzle: Any, args: GenerateArgs) -> Generated:
    """Generate mode: a puzzle of ``puzzle["size"]`` with ``puzzle["stars"]`` stars and one
    solution, at ``args.difficulty`` (see ``pysolver.kinds.star_battle.generator``)."""
    return generator.generate(puzzle, args)
