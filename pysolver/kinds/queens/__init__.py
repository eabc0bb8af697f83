"""N-queens: place n queens on an n x n board so that no two attack each other, some of them
perhaps placed beforehand.

Puzzle::

    {"n": 8, "queens": [[row, col], ...]}      # "queens" optional: queens placed beforehand

A solution lists its n queens (the placed ones included) as ``[row, col]``, sorted by row.

Knuth's classic example of secondary items (TAOCP 7.2.2.1): every row and every column must
hold exactly one queen (primary items) and every diagonal at most one (secondary items: a
diagonal may stay empty). A queen on (r, c) is the option ``{row r, column c, diagonal r + c,
antidiagonal r - c}``. Queens placed beforehand are applied before the search: their rows and
columns leave the primary items, their diagonals the secondary ones, and every cell they attack
leaves the options, so the matrix the engines search shrinks. Placed queens must lie on the
board, and no two may attack each other (``invalid_puzzle`` naming the queen and the one it
attacks).

Rows and columns are listed middle first ("organ pipe" order, as Knuth does for this problem):
the engines branch on the first item among those with the fewest options, and a queen in the
middle of the board removes the most options. Solutions, counts and trees are the same in any
order; only the order the search meets them in changes.

Engines: the exact cover family's ``bitset`` (default, faster on bench/bench_queens.py) and
``dlx``. Trace mode gives the exact cover steps; ``place`` is ``{"queen": [row, col]}``, a
``choose`` step's ``item`` is ``{"row": r}`` or ``{"col": c}``. Heatmap (count mode): key
``"queen"``, per cell how many solutions put a queen there.

Limit: ``n`` at most ``MAX_N`` (32). The first solution of every empty board up to 32 takes at
most 402 search nodes (n = 31); past it the fixed branching order sometimes wanders (n = 36:
24,159 nodes; n = 45: none found in 170,000), and a board of 32 still fits the page. Counting
grows exponentially (n = 12: 14,200 solutions in 0.4 s of CPU; n = 14: 365,596 in 12 s), so
counts of big boards are for a limit, the cancel button or a parallel search.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from pysolver import budget
from pysolver.engines import cover, trace
from pysolver.engines.cover import ExactCoverProblem, engine_modules
from pysolver.engines.monitor import SearchResult
from pysolver.facts import engine_facts
from pysolver.kinds.queens.pictures import solution_svg as solution_svg
from pysolver.kinds.queens.pictures import solution_text as solution_text
from pysolver.midend.plan import Plan, SearchArgs, TraceArgs
from pysolver.protocol import (
    TOO_LARGE,
    Query,
    SolveError,
    empty_grid,
    puzzle_error,
    require_dict,
    require_int,
    require_list,
)

# The kind's place in the registry: its tab, its place in menus and lists of kinds.
ORDER = 60
# A small puzzle with a few solutions (the tests and benchmarks of every kind run it).
EXAMPLE: dict[str, Any] = {"kind": "queens", "puzzle": {"n": 6}}

# The faster engine on bench/bench_queens.py comes first: it is the default.
ENGINE_MODULES = engine_modules("bitset", "dlx")
ENGINES = tuple(ENGINE_MODULES)

# The fields of a queens puzzle (what strict requests accept in ``puzzle``).
PUZZLE_FIELDS = ("n", "queens")
OPTIONS: tuple[str, ...] = ()
SPLITTABLE = True

MAX_N = 32

Cell = tuple[int, int]
# A solution's JSON: its queens as [row, col], sorted by row.
Solution = list[list[int]]


def facts() -> dict[str, Any]:
    """What the page needs to know about this kind (see ``pysolver.facts``)."""
    return {
        "title": "N-queens",
        "help": (
            "Place n queens on an n x n board, some perhaps given, so that no two share a row, "
            "a column or a diagonal. Knuth's Algorithm X covers every row and column exactly "
            "once and every diagonal at most once (secondary items), on dancing links or on "
            "bitsets."
        ),
        **engine_facts(ENGINE_MODULES),
        "limits": {"max_n": MAX_N},
    }


# ---------------------------------------------------------------- the translation


@dataclass(frozen=True)
class Board:
    """A validated puzzle: the board's side and the queens placed beforehand, in input order."""

    n: int
    queens: tuple[Cell, ...]


@dataclass
class Encoding:
    """``encode``'s matrix, and what ``decode`` and trace labels need to read it back."""

    problem: ExactCoverProblem
    n: int
    placed: tuple[Cell, ...]
    # Per option, its cell; per item, what it stands for: ("row" | "col" | "diag" | "anti", k).
    cells: list[Cell]
    items: list[tuple[str, int]]


def parse_puzzle(puzzle: Any) -> Board:
    """Validate a puzzle into a ``Board``, or raise ``SolveError`` with the JSON path."""
    puzzle = require_dict(puzzle, "puzzle")
    if "n" not in puzzle:
        raise puzzle_error('a queens puzzle needs "n", the side of the board', "puzzle.n")
    n = require_int(puzzle["n"], "puzzle.n", minimum=1)
    if n > MAX_N:
        raise SolveError(
            TOO_LARGE, f"puzzle.n is {n}; the largest board has side {MAX_N}", "puzzle.n"
        )
    queens: list[Cell] = []
    for index, queen in enumerate(require_list(puzzle.get("queens", []), "puzzle.queens")):
        path = f"puzzle.queens[{index}]"
        queen = require_list(queen, path)
        if len(queen) != 2:
            raise puzzle_error(
                f"{path} must be [row, col], a list of 2 integers, not {len(queen)} values", path
            )
        cell = (
            require_int(queen[0], f"{path}[0]", 0, n - 1),
            require_int(queen[1], f"{path}[1]", 0, n - 1),
        )
        for earlier in queens:
            how = attack(earlier, cell)
            if how is not None:
                # Words for a person (rows and columns from 1, as the page's board and the
                # trace say them); the JSON path of the queen refused is the error's path.
                raise puzzle_error(
                    f"the queen at {trace.cell_words(*cell)} {how} the queen at "
                    f"{trace.cell_words(*earlier)}; placed queens must not attack each other",
                    path,
                )
        queens.append(cell)
    return Board(n, tuple(queens))


def attack(first: Cell, second: Cell) -> str | None:
    """How a queen on ``second`` attacks one on ``first`` (words for a message), or None."""
    (r1, c1), (r2, c2) = first, second
    if (r1, c1) == (r2, c2):
        return "is on the same cell as"
    if r1 == r2:
        return "is in the same row as"
    if c1 == c2:
        return "is in the same column as"
    if r1 + c1 == r2 + c2 or r1 - c1 == r2 - c2:
        return "is on the same diagonal as"
    return None


def organ_pipe(n: int) -> list[int]:
    """0 .. n-1 middle first, alternating outwards: 3, 4, 2, 5, 1, 6, 0, 7 for n = 8."""
    middle = (n - 1) // 2
    order = []
    for step in range(n):
        order.append(middle + (step + 1) // 2 if step % 2 else middle - step // 2)
    return order


def encode(board: Board) -> Encoding:
    """The exact cover matrix of ``board`` with its placed queens applied (see the docstring).

    Items: the free rows and columns (primary, middle first), then the free diagonals
    (secondary); an option per cell no placed queen attacks, in row-major order.
    """
    n = board.n
    rows = {r for r, _c in board.queens}
    cols = {c for _r, c in board.queens}
    diagonals = {r + c for r, c in board.queens}
    antidiagonals = {r - c for r, c in board.queens}
    items: list[tuple[str, int]] = []
    for line in organ_pipe(n):
        if line not in rows:
            items.append(("row", line))
        if line not in cols:
            items.append(("col", line))
    primary = len(items)
    items += [("diag", k) for k in range(2 * n - 1) if k not in diagonals]
    items += [("anti", k) for k in range(-(n - 1), n) if k not in antidiagonals]
    number = {item: index for index, item in enumerate(items)}
    options: list[list[int]] = []
    cells: list[Cell] = []
    for r in range(n):
        if r in rows:
            continue
        for c in range(n):
            if c in cols or r + c in diagonals or r - c in antidiagonals:
                continue
            options.append(
                [number["row", r], number["col", c], number["diag", r + c], number["anti", r - c]]
            )
            cells.append((r, c))
    problem = ExactCoverProblem(primary, len(items) - primary, options)
    return Encoding(problem, n, board.queens, cells, items)


def decode(encoding: Encoding, chosen: list[int]) -> Solution:
    """A solution's JSON: the placed queens and the chosen options' cells, sorted by row."""
    queens = [*encoding.placed, *(encoding.cells[option] for option in chosen)]
    return [list(cell) for cell in sorted(queens)]


def solution_size(n: int) -> tuple[int, int]:
    """What one listed solution costs at most, in bytes (the option indices the engine keeps,
    n [row, col] lists) and in JSON characters."""
    chars = 9 * n
    queens = budget.list_bytes(n, budget.list_bytes(2, budget.INT_BYTES))
    return budget.list_bytes(n, budget.INT_BYTES) + queens + chars, chars


def heatmap(n: int, solutions: list[Solution]) -> dict[str, list[list[int]]]:
    """Key ``"queen"``: per cell, how many of ``solutions`` put a queen there."""
    counts = empty_grid(n, n)
    for solution in solutions:
        for r, c in solution:
            counts[r][c] += 1
    return {"queen": counts}


def item_label(encoding: Encoding, item: int) -> str:
    """An item in words, for trace steps: "row 3", "column 5", "diagonal r + c = 7"."""
    what, k = encoding.items[item]
    return {
        "row": f"row {k + 1}",
        "col": f"column {k + 1}",
        # Rows and columns counted from 1: their sum is 2 more than the 0-based one.
        "diag": f"the diagonal where row + column = {k + 2}",
        "anti": f"the diagonal where row - column = {k}",
    }[what]


def item_value(encoding: Encoding, item: int) -> dict[str, int]:
    """A ``choose`` step's ``item``: ``{"row": r}`` or ``{"col": c}`` (only primary items are
    chosen), so the page can highlight the line."""
    what, k = encoding.items[item]
    return {what: k}


def option_label(encoding: Encoding, option: int) -> str:
    r, c = encoding.cells[option]
    return f"a queen on {trace.cell_words(r, c)}"


# ---------------------------------------------------------------- the plan


def prepare(puzzle: Any, query: Query, engine: str) -> Plan:
    """The search of a queens request for the midend: the exact cover engines on the encoded
    board, trace steps in queens' words (see the module docstring)."""
    encoding = encode(parse_puzzle(puzzle))

    def run(args: SearchArgs) -> SearchResult[list[int]]:
        return cover.search(encoding.problem, args.engine, **args.search_options())

    def traced(args: TraceArgs) -> SearchResult[list[int]]:
        args.recorder.describe = trace.exact_cover_describer(
            lambda item: item_label(encoding, item),
            lambda option: option_label(encoding, option),
            lambda option: {"queen": list(encoding.cells[option])},
            lambda item: item_value(encoding, item),
        )
        return trace.search(
            encoding.problem,
            args.recorder,
            limit=args.limit,
            monitor=args.monitor,
            max_kept=args.max_kept,
        )

    solution_bytes, solution_chars = solution_size(encoding.n)
    return Plan(
        run=run,
        decode=partial(decode, encoding),
        listed_bytes=solution_bytes,
        listed_chars=solution_chars,
        split=lambda _engine, wanted, monitor: [
            cover.split(encoding.problem, wanted, monitor=monitor)
        ],
        trace=traced,
        # The heatmap sums engine answers: decode them to queens first.
        heatmap=lambda answers: heatmap(encoding.n, [decode(encoding, a) for a in answers]),
        needed_bytes=partial(cover.estimated_bytes, encoding.problem),
        too_large=(
            f"the {{engine}} engine on this board ({len(encoding.problem.options):,} options)"
        ),
        shrink="use a smaller board",
        exact_cover=lambda: [encoding.problem],
    )
