"""Domino tilings: count them exactly, list them, or draw them uniformly at random.

Puzzle: ``{"rows": m, "cols": n, "blocked": [[r, c], ...]}`` (``blocked`` optional) or
``{"board": ["....", "#..."]}`` with '.' a cell to cover and '#' no cell, as for polyominoes.
A solution (tiling) is a list of dominoes ``[[r1, c1], [r2, c2]]``, each with its first cell
the smaller in reading order, sorted by that cell.

Engines (``ENGINES``):
- ``profile_dp``: broken-profile DP (``pysolver.engines.profile_dp``) over any board; counts,
  lists and samples tilings.
- ``formula``: Kasteleyn's product evaluated exactly (``pysolver.engines.kasteleyn``); counts
  full rectangles only (no holes after trimming fully blocked border rows and columns).
With no ``engine`` in the request, count mode on a full rectangle uses ``formula`` and
everything else ``profile_dp``. Asking for ``formula`` on a board with holes, or in solve or
random mode, is an ``invalid_request`` error naming the alternative.

Modes:
- ``count``: the number of tilings; ``limit`` caps it (count = min(total, limit), complete =
  total <= limit).
- ``solve``: the first ``limit`` tilings (default 1) in the DP's own numbering (tiling 0, 1, ...);
  the response adds ``total``, the exact number of tilings.
- ``random``: ``min(limit, total)`` distinct tilings, each uniformly distributed, in an order
  fixed by ``seed`` (ranks drawn without replacement, then unranked through the DP's counts);
  also adds ``total``.
A board with an odd number of cells, or with unequal numbers of black and white cells in the
checkerboard colouring, has no tiling: count 0, complete true.

Caps (errors name them): rows and cols at most ``MAX_SIDE`` (1000). The formula: (shorter
side)^2 x rows x cols at most ``MAX_FORMULA_WORK`` (400 x 400, or 1000 x 290). The DP: the
shorter side of the trimmed board at most ``profile_dp.MAX_WIDTH`` (20) and its state vector
within ``profile_dp.MAX_VECTOR_BYTES``; listing tilings also needs the stored counts within
``profile_dp.MAX_TILING_BYTES`` (16 x 16 fits, 18 x 18 does not). A response lists at most
``pysolver.budget.listed_cap`` tilings (fewer when they are big); ``count`` still says how many
were asked for and exist, and ``solutions_truncated`` that the list is cut.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pysolver import budget
from pysolver.boards import read_board_rows
from pysolver.engines import kasteleyn, profile_dp
from pysolver.engines.monitor import Monitor, SearchResult
from pysolver.facts import engine_facts
from pysolver.protocol import (
    INVALID_REQUEST,
    TOO_LARGE,
    Query,
    SolveError,
    engine_for,
    puzzle_error,
    require_dict,
    require_int,
    require_list,
    response_fields,
)

ENGINE_MODULES = {"profile_dp": profile_dp, "formula": kasteleyn}
ENGINES = tuple(ENGINE_MODULES)

MAX_SIDE = 1000
# The formula's cost grows like (shorter side)^2 x area (steps x length of the numbers): the cap
# is the work of 400 x 400, about 10 s in CPython (with progress and cancel); 1000 x 290 fits
# too (about 25 s). 400 x 1000 would take minutes.
MAX_FORMULA_WORK = 400**4
# rng.sample works on ranges up to sys.maxsize; above that draw ranks and reject repeats.
_SAMPLE_RANGE_LIMIT = 2**62


def facts() -> dict[str, Any]:
    """What the page needs to know about this kind (see ``pysolver.facts``)."""
    return {
        "title": "Domino tilings",
        **engine_facts(ENGINE_MODULES),
        "limits": {
            "max_rows": MAX_SIDE,
            "max_cols": MAX_SIDE,
            "max_dp_width": profile_dp.MAX_WIDTH,
        },
    }


@dataclass
class Board:
    """The open cells, trimmed to their bounding box: one bitmask per row (bit c = column c)."""

    open_rows: list[int]
    width: int
    row_offset: int  # position of the trimmed box in the puzzle's coordinates
    col_offset: int

    @property
    def height(self) -> int:
        return len(self.open_rows)

    @property
    def cells(self) -> int:
        return sum(row.bit_count() for row in self.open_rows)

    @property
    def is_full_rectangle(self) -> bool:
        full = (1 << self.width) - 1
        return all(row == full for row in self.open_rows)

    def colour_balance(self) -> int:
        """Black cells minus white cells in the checkerboard colouring."""
        balance = 0
        even_columns = int("01" * ((self.width + 1) // 2), 2) & ((1 << self.width) - 1)
        for r, row in enumerate(self.open_rows):
            same = (row & (even_columns if r % 2 == 0 else ~even_columns)).bit_count()
            balance += 2 * same - row.bit_count()
        return balance

    def transposed(self) -> Board:
        columns = [0] * self.width
        for r, row in enumerate(self.open_rows):
            c = 0
            while row:
                if row & 1:
                    columns[c] |= 1 << r
                row >>= 1
                c += 1
        return Board(columns, self.height, self.col_offset, self.row_offset)


# ---------------------------------------------------------------- parsing


def _parse_grid(puzzle: dict[str, Any]) -> tuple[int, int, list[int], str]:
    """(rows, cols, open row masks, path of the cells) from either puzzle form."""
    has_board = "board" in puzzle
    has_size = any(key in puzzle for key in ("rows", "cols", "blocked"))
    if has_board and has_size:
        raise puzzle_error(
            "give either a board or rows/cols (with optional blocked cells), not both", "puzzle"
        )
    if has_board:
        return _parse_board_rows(puzzle["board"], "puzzle.board")
    if "rows" not in puzzle or "cols" not in puzzle:
        raise puzzle_error(
            'give "rows" and "cols" (and optional "blocked": [[r, c], ...]) or a "board" of '
            "'.' and '#' rows",
            "puzzle",
        )
    rows = require_int(puzzle["rows"], "puzzle.rows", minimum=1)
    cols = require_int(puzzle["cols"], "puzzle.cols", minimum=1)
    for name, value in (("rows", rows), ("cols", cols)):
        if value > MAX_SIDE:
            raise SolveError(
                TOO_LARGE, f"puzzle.{name} is {value}; the limit is {MAX_SIDE}", f"puzzle.{name}"
            )
    full = (1 << cols) - 1
    open_rows = [full] * rows
    blocked = require_list(puzzle.get("blocked", []), "puzzle.blocked")
    for i, entry in enumerate(blocked):
        path = f"puzzle.blocked[{i}]"
        pair = require_list(entry, path)
        if len(pair) != 2:
            raise puzzle_error(f"{path} must be a pair [row, col], not {len(pair)} values", path)
        r = require_int(pair[0], f"{path}[0]", minimum=0, maximum=rows - 1)
        c = require_int(pair[1], f"{path}[1]", minimum=0, maximum=cols - 1)
        if not open_rows[r] >> c & 1:
            raise puzzle_error(f"{path} blocks cell [{r}, {c}] a second time", path)
        open_rows[r] &= ~(1 << c)
    return rows, cols, open_rows, "puzzle.blocked"


def _parse_board_rows(value: Any, path: str) -> tuple[int, int, list[int], str]:
    rows = read_board_rows(value, path, MAX_SIDE)
    # Reversed so that column c is bit c.
    open_rows = [int(text[::-1].replace(".", "1").replace("#", "0"), 2) for text in rows]
    return len(rows), len(rows[0]), open_rows, path


def _trim(open_rows: list[int], path: str) -> Board:
    used_rows = [r for r, row in enumerate(open_rows) if row]
    if not used_rows:
        raise puzzle_error("the board has no open cell to cover", path)
    columns = 0
    for row in open_rows:
        columns |= row
    first_col = (columns & -columns).bit_length() - 1
    width = columns.bit_length() - first_col
    kept = [row >> first_col for row in open_rows[used_rows[0] : used_rows[-1] + 1]]
    return Board(kept, width, used_rows[0], first_col)


def parse_puzzle(puzzle: Any) -> Board:
    """The trimmed board of a domino puzzle (raises SolveError with a JSON path)."""
    puzzle = require_dict(puzzle, "puzzle")
    _, _, open_rows, path = _parse_grid(puzzle)
    return _trim(open_rows, path)


# ---------------------------------------------------------------- solving


def choose_engine(board: Board, query: Query) -> str:
    """The engine to run: the requested one if it fits, else formula for counting rectangles."""
    if query.engine is None:
        return "formula" if query.mode == "count" and board.is_full_rectangle else "profile_dp"
    engine = engine_for(query, ENGINES)
    if engine == "formula":
        if query.mode != "count":
            raise SolveError(
                INVALID_REQUEST,
                f"engine 'formula' only counts tilings; use mode 'count', or engine "
                f"'profile_dp' for mode {query.mode!r}",
                "engine",
            )
        if not board.is_full_rectangle:
            raise SolveError(
                INVALID_REQUEST,
                "engine 'formula' counts full rectangles only and this board has holes; "
                "use engine 'profile_dp'",
                "engine",
            )
    return engine


# A solution: its dominoes [[r1, c1], [r2, c2]] in the puzzle's coordinates, sorted.
Solution = list[list[list[int]]]


def encode(board: Board) -> tuple[Board, bool]:
    """The board the profile DP sweeps: the trimmed board with its shorter side across (the
    DP's cost grows exponentially with its width), and whether that meant transposing it."""
    transposed = board.width > board.height
    return (board.transposed() if transposed else board), transposed


def decode(tiling: list[profile_dp.Domino], board: Board, transposed: bool) -> Solution:
    """A DP tiling of ``encode``'s board in the puzzle's coordinates, sorted."""
    dominoes = []
    for first, second in tiling:
        cells = []
        for r, c in (first, second):
            if transposed:
                r, c = c, r
            cells.append([r + board.row_offset, c + board.col_offset])
        cells.sort()
        dominoes.append(cells)
    dominoes.sort()
    return dominoes


def _ranks(total: int, wanted: int, query: Query) -> list[int]:
    """Which tilings to return: the first ``wanted`` in order, or distinct random ones."""
    if query.mode != "random":
        return list(range(wanted))
    rng = query.rng()
    if total <= _SAMPLE_RANGE_LIMIT:
        return rng.sample(range(total), wanted)
    drawn: list[int] = []
    seen: set[int] = set()
    while len(drawn) < wanted:
        rank = rng.randrange(total)
        if rank not in seen:
            seen.add(rank)
            drawn.append(rank)
    return drawn


def solve(puzzle: Any, query: Query) -> dict[str, Any]:
    """Count, list or sample the domino tilings of the puzzle's board (see the module docstring)."""
    board = parse_puzzle(puzzle)
    engine = choose_engine(board, query)
    monitor = Monitor(query.progress, query.cancel)
    if board.cells % 2 or board.colour_balance():
        # No tiling, whatever the engine: finished before it started.
        monitor.finish(0, 0, True)
        result: SearchResult[Solution] = SearchResult(
            stats={"nodes": 0, "shortcut": "cell colours"}
        )
        total: int | None = None if query.mode == "count" else 0
    else:
        result, total = _SEARCHES[engine](board, query, monitor)
    extra: dict[str, Any] = {} if total is None else {"total": total}
    return response_fields(result, engine, **extra)


def _count_by_formula(
    board: Board, query: Query, monitor: Monitor
) -> tuple[SearchResult[Solution], int | None]:
    """Count the tilings of a full rectangle with Kasteleyn's formula (no ``total`` field)."""
    short = min(board.height, board.width)
    work = short**2 * board.height * board.width
    if work > MAX_FORMULA_WORK:
        raise SolveError(
            TOO_LARGE,
            f"the rectangle is {board.height} x {board.width}; the exact formula's work "
            "grows as (shorter side)^2 x area and is capped at that of 400 x 400 "
            f"(this one needs {work / MAX_FORMULA_WORK:.1f} times as much)",
            "puzzle",
        )
    stats: dict[str, Any] = {"rectangle": [board.height, board.width]}
    total = kasteleyn.rectangle_tilings(board.height, board.width, monitor, stats)
    if total is None:
        monitor.finish(stats["nodes"], 0, False)
        return SearchResult(complete=False, cancelled=True, stats=stats), None
    monitor.finish(stats["nodes"], 1, True)
    return _capped_count(total, query.limit, stats), None


def _capped_count(total: int, limit: int | None, stats: dict[str, Any]) -> SearchResult[Solution]:
    """Count mode's answer: ``limit`` caps the count; complete when the cap was not reached."""
    count = total if limit is None else min(total, limit)
    return SearchResult(count=count, complete=limit is None or total <= limit, stats=stats)


def _run_profile_dp(
    board: Board, query: Query, monitor: Monitor
) -> tuple[SearchResult[Solution], int | None]:
    """Count tilings with the profile DP, or list / sample them (then ``total`` is given)."""
    limit = query.limit
    if min(board.width, board.height) > profile_dp.MAX_WIDTH:
        # Refuse before transposing a big board cell by cell.
        raise SolveError(
            TOO_LARGE,
            profile_dp.check_size([], min(board.width, board.height), query.mode != "count")
            or "the board is too large for the profile DP",
            "puzzle",
        )
    oriented, transposed = encode(board)
    wants_tilings = query.mode != "count"
    too_big = profile_dp.check_size(oriented.open_rows, oriented.width, wants_tilings)
    if too_big is not None:
        raise SolveError(TOO_LARGE, too_big, "puzzle")
    dp = profile_dp.ProfileDP(oriented.open_rows, oriented.width, monitor, keep_rows=wants_tilings)
    stats: dict[str, Any] = {
        "nodes": 0,
        "states": 1 << oriented.width,
        "field_bits": dp.field_bits,
    }
    if not dp.run():
        stats["nodes"] = dp.steps
        monitor.finish(dp.steps, 0, False)
        return SearchResult(complete=False, cancelled=True, stats=stats), None
    total = dp.total
    assert total is not None
    if not wants_tilings:
        stats["nodes"] = dp.steps
        monitor.finish(dp.steps, 1, True)
        return _capped_count(total, limit, stats), None

    wanted = total if limit is None else min(total, limit)
    # A listed domino: [[r1, c1], [r2, c2]] as lists, and its JSON text.
    domino_bytes = budget.list_bytes(2, budget.list_bytes(2)) + 20
    dominoes = board.cells // 2
    listed = min(
        wanted, budget.listed_cap(budget.LIST_BYTES + dominoes * domino_bytes, 20 * dominoes)
    )
    found = dp.unrank(_ranks(total, listed, query))
    stats["nodes"] = dp.steps
    if found is None:
        monitor.finish(dp.steps, 0, False)
        return SearchResult(complete=False, cancelled=True, stats=stats), total
    solutions = [decode(tiling, board, transposed) for tiling in found]
    monitor.finish(dp.steps, len(solutions), True)
    return SearchResult(solutions, wanted, wanted == total, False, stats), total


# Engine name -> how it answers a request on a board: (result, ``total`` field or None).
# Keys as in ENGINE_MODULES.
_SEARCHES: dict[
    str, Callable[[Board, Query, Monitor], tuple[SearchResult[Solution], int | None]]
] = {
    "profile_dp": _run_profile_dp,
    "formula": _count_by_formula,
}
