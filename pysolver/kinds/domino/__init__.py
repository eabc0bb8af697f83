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
- ``cftp``: coupling from the past (``pysolver.engines.cftp``), random mode only: exactly
  uniform tilings of simply connected boards (no holes, one piece) up to ``MAX_CFTP_CELLS``
  open cells, far beyond the DP's width; the default only where the DP cannot go.

With no ``engine`` in the request, count mode on a full rectangle uses ``formula``, random
mode on a board the DP cannot take (too wide, or too many stored counts) uses ``cftp`` when
cftp can (simply connected, at most ``MAX_CFTP_CELLS`` open cells), and everything else
``profile_dp``. Asking for ``formula`` on a board with holes, or in solve or
random mode, is an ``invalid_request`` error naming the alternative.

Modes:
- ``trace``: the DP's ``cell`` steps (``states``: live profiles after the cell), then the first
  ``limit`` tilings read back from the counts as ``force`` steps (``place``: ``{"cells": [[r1,
  c1], [r2, c2]]}``) each ending in a ``solution`` step with ``count``, the number of tilings.
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
within ``profile_dp.max_vector_bytes()``; listing tilings also needs the stored counts within
``profile_dp.max_tiling_bytes()`` (16 x 16 fits, 18 x 18 does not). A response lists at most
``pysolver.budget.listed_cap`` tilings (fewer when they are big); ``count`` still says how many
were asked for and exist, and ``solutions_truncated`` that the list is cut.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from pysolver import budget
from pysolver.boards import read_board_rows
from pysolver.engines import cftp, kasteleyn, profile_dp, trace
from pysolver.engines.monitor import SearchResult
from pysolver.facts import engine_facts
from pysolver.kinds.domino.pictures import solution_svg as solution_svg
from pysolver.kinds.domino.pictures import solution_text as solution_text
from pysolver.midend.plan import Plan, SearchArgs, TraceArgs
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
    shown,
)

# The kind's place in the registry: its tab, its place in menus and lists of kinds.
ORDER = 40
# A small puzzle with a few solutions (the tests and benchmarks of every kind run it).
EXAMPLE: dict[str, Any] = {"kind": "domino", "puzzle": {"rows": 4, "cols": 4}}

ENGINE_MODULES = {"profile_dp": profile_dp, "formula": kasteleyn, "cftp": cftp}
ENGINES = tuple(ENGINE_MODULES)
PUZZLE_FIELDS = ("rows", "cols", "blocked", "board")
OPTIONS: tuple[str, ...] = ()
# Its engines are not searches with branches: a request with jobs runs serially.
SPLITTABLE = False

MAX_SIDE = 1000
# The formula's cost grows like (shorter side)^2 x area (steps x length of the numbers): the cap
# is the work of 400 x 400, about 10 s in CPython (with progress and cancel); 1000 x 290 fits
# too (about 25 s). 400 x 1000 would take minutes.
MAX_FORMULA_WORK = 400**4
# cftp: 300 x 300 open cells at most (one tiling of 100 x 100 takes ~2 s in CPython, 200 x 200
# ~20 s, 300 x 300 about two minutes; cancellable throughout).
MAX_CFTP_CELLS = 90_000

# With no engine asked for, the first rule whose mode and board class fit picks the engine, else
# ENGINES[0]. The table is also a fact, so the page's engine menu can say what its "Default"
# does for the board shown (board classes: see _BOARD_CLASSES).
DEFAULT_RULES = (
    {"mode": "count", "board": "full_rectangle", "engine": "formula"},
    {"mode": "random", "board": "beyond_dp", "engine": "cftp"},
)
# rng.sample works on ranges up to sys.maxsize; above that draw ranks and reject repeats.
_SAMPLE_RANGE_LIMIT = 2**62


def facts() -> dict[str, Any]:
    """What the page needs to know about this kind (see ``pysolver.facts``)."""
    return {
        "title": "Domino tilings",
        "help": (
            "Cover the board with 1x2 dominoes: count every way to do it, or find tilings. Profile"
            " dynamic programming sweeps the board cell by cell, keeping one exact count per "
            "pattern of cells already covered at the frontier; full rectangles can also be counted"
            " by Kasteleyn's formula."
        ),
        **engine_facts(ENGINE_MODULES),
        "limits": {
            "max_rows": MAX_SIDE,
            "max_cols": MAX_SIDE,
            "max_dp_width": profile_dp.MAX_WIDTH,
            "max_cftp_cells": MAX_CFTP_CELLS,
        },
        "default_rules": [dict(rule) for rule in DEFAULT_RULES],
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
                TOO_LARGE,
                f"puzzle.{name} is {shown(value)}; the limit is {MAX_SIDE}",
                f"puzzle.{name}",
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
            raise puzzle_error(
                f"row {r + 1}, column {c + 1} is blocked a second time (rows and columns "
                "count from 1)",
                path,
            )
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
    """The engine to run: the requested one if it fits; with none requested, formula for
    counting rectangles, cftp for random tilings beyond the DP, else the profile DP."""
    if query.engine is None:
        for rule in DEFAULT_RULES:
            if rule["mode"] == query.mode and _BOARD_CLASSES[rule["board"]](board):
                return rule["engine"]
        return ENGINES[0]
    engine = engine_for(query, ENGINES)
    if engine == "cftp" and query.mode != "random":
        raise SolveError(
            INVALID_REQUEST,
            f"engine 'cftp' only samples random tilings; use mode 'random', or engine "
            f"'profile_dp' for mode {query.mode!r}",
            "engine",
        )
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


def _beyond_the_dp(board: Board) -> bool:
    """Whether the profile DP refuses to list this board's tilings (too wide or too big)."""
    if min(board.width, board.height) > profile_dp.MAX_WIDTH:
        return True
    oriented, _ = encode(board)
    return profile_dp.check_size(oriented.open_rows, oriented.width, True) is not None


def _cftp_takes(board: Board) -> bool:
    """Whether cftp samples this board: small enough, one piece and no holes."""
    return (
        board.cells <= MAX_CFTP_CELLS and cftp.holes_message(board.open_rows, board.width) is None
    )


# The board classes DEFAULT_RULES name: a full rectangle (no holes once fully blocked border
# rows and columns are trimmed), and a board whose tilings the DP cannot list but cftp samples.
_BOARD_CLASSES: dict[str, Callable[[Board], bool]] = {
    "full_rectangle": lambda board: board.is_full_rectangle,
    "beyond_dp": lambda board: _beyond_the_dp(board) and _cftp_takes(board),
}


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


def _dp_board(board: Board, wants_tilings: bool) -> tuple[Board, bool]:
    """``encode``'s board and whether it was transposed, once the DP is known to take it.

    Raises ``too_large`` when the DP cannot take it."""
    if min(board.width, board.height) > profile_dp.MAX_WIDTH:
        # Refuse before transposing a big board cell by cell.
        raise SolveError(
            TOO_LARGE,
            profile_dp.check_size([], min(board.width, board.height), wants_tilings)
            or "the board is too large for the profile DP",
            "puzzle",
        )
    oriented, transposed = encode(board)
    too_big = profile_dp.check_size(oriented.open_rows, oriented.width, wants_tilings)
    if too_big is not None:
        raise SolveError(TOO_LARGE, too_big, "puzzle")
    return oriented, transposed


def _ranks(total: int, wanted: int, rng: random.Random | None) -> list[int]:
    """Which tilings to return: the first ``wanted`` in order, or (``rng``: random mode)
    distinct random ones."""
    if rng is None:
        return list(range(wanted))
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


def prepare(puzzle: Any, query: Query, engine: str) -> Plan:
    """Count, list or sample the domino tilings of the puzzle's board, for the midend (see the
    module docstring). The engine is the kind's own choice (``choose_engine``): its engines
    are not one search family, so the midend's budget choice does not apply. ``run`` fills
    the ``total`` field when it is known."""
    board = parse_puzzle(puzzle)
    chosen = choose_engine(board, query)
    fields: dict[str, Any] = {}

    def run(args: SearchArgs) -> SearchResult[Solution]:
        if board.cells % 2 or board.colour_balance():
            # No tiling, whatever the engine: finished before it started.
            args.monitor.finish(0, 0, True)
            if query.mode != "count":
                fields["total"] = 0
            return SearchResult(stats={"nodes": 0, "shortcut": "cell colours"})
        result, total = _SEARCHES[args.engine](board, args)
        if total is not None:
            fields["total"] = total
        return result

    dominoes = board.cells // 2
    return Plan(
        run=run,
        decode=lambda solution: solution,
        listed_bytes=budget.LIST_BYTES + dominoes * _DOMINO_BYTES,
        listed_chars=20 * dominoes,
        trace=partial(trace_search, board, fields),
        fields=fields,
        trace_fields=fields,
        engine=chosen,
    )


# A listed domino: [[r1, c1], [r2, c2]] as lists and its JSON text.
_DOMINO_BYTES = budget.list_bytes(2, budget.list_bytes(2)) + 20


def _count_by_formula(board: Board, args: SearchArgs) -> tuple[SearchResult[Solution], int | None]:
    """Count the tilings of a full rectangle with Kasteleyn's formula (no ``total`` field)."""
    monitor = args.monitor
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
    # The whole total: the midend's count rule caps it at the request's limit.
    return SearchResult(count=total, stats=stats), None


def _run_profile_dp(board: Board, args: SearchArgs) -> tuple[SearchResult[Solution], int | None]:
    """Count tilings with the profile DP, or list / sample them (then ``total`` is given)."""
    limit, monitor = args.limit, args.monitor
    wants_tilings = args.keep_solutions
    oriented, transposed = _dp_board(board, wants_tilings)
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
        return SearchResult(count=total, stats=stats), None

    wanted = total if limit is None else min(total, limit)
    listed = wanted if args.max_kept is None else min(wanted, args.max_kept)
    found = dp.unrank(_ranks(total, listed, args.rng))
    stats["nodes"] = dp.steps
    if found is None:
        monitor.finish(dp.steps, 0, False)
        return SearchResult(complete=False, cancelled=True, stats=stats), total
    solutions = [decode(tiling, board, transposed) for tiling in found]
    monitor.finish(dp.steps, len(solutions), True)
    return SearchResult(solutions, wanted, wanted == total, False, stats), total


def _listed_cap(board: Board, key_bytes: int = 0) -> int:
    """How many tilings of ``board`` one response lists (``budget.listed_cap``). A listed
    domino: [[r1, c1], [r2, c2]] as lists, its JSON text and ``key_bytes`` more (cftp's
    de-duplication key)."""
    domino_bytes = budget.list_bytes(2, budget.list_bytes(2)) + 20 + key_bytes
    dominoes = board.cells // 2
    return budget.listed_cap(budget.LIST_BYTES + dominoes * domino_bytes, 20 * dominoes)


def _sample_uniform(board: Board, args: SearchArgs) -> tuple[SearchResult[Solution], int | None]:
    """Random mode with engine cftp: ``limit`` independent, exactly uniform tilings.

    Repeats are dropped (the protocol promises distinct tilings; they only happen on small
    boards), so ``count`` may fall short of ``limit``; ``complete`` is false unless the board
    has no tiling, since sampling never lists the whole space. No ``total`` (not counted).
    At most the listing cap of tilings are drawn (see ``_listed_cap``).
    """
    if board.cells > MAX_CFTP_CELLS:
        raise SolveError(
            TOO_LARGE,
            f"the board has {board.cells:,} open cells; cftp samples boards of at most "
            f"{MAX_CFTP_CELLS:,} (300 x 300)",
            "puzzle",
        )
    # Every tiling drawn is remembered (to drop repeats), so at most the listing cap are drawn,
    # as polyomino's random restarts do; a bigger limit answers that many, incomplete.
    monitor = args.monitor
    key_bytes = 80  # its str in the de-duplication key
    wanted = min(1 if args.limit is None else args.limit, _listed_cap(board, key_bytes))
    reason = cftp.holes_message(board.open_rows, board.width)
    if reason is not None:
        raise puzzle_error(f"{reason}; use engine 'profile_dp' if the board is narrow", "puzzle")
    sampler = cftp.Sampler(board.open_rows, board.width)
    if not sampler.tileable:
        monitor.finish(0, 0, True)
        return SearchResult(stats={"nodes": 0, "sweeps": 0}), None
    rng = args.rng or random.Random()
    # Distinct tilings, keyed by their dominoes, in the order drawn.
    found: dict[tuple[str, ...], Solution] = {}
    cancelled = False

    def should_stop() -> bool:
        # A long sample shows its progress: how far its chains have come together, and the
        # upper chain's tiling as the board's picture.
        if monitor.wants_recent and sampler.latest is not None:
            monitor.found(decode(sampler.unpack(sampler.latest), board, False))
        return monitor.check(
            sampler.sweeps, len(found), lambda: (len(found) + sampler.coalesced) / wanted
        )

    for _ in range(wanted):
        tiling = sampler.sample(rng, should_stop)
        if tiling is None:
            cancelled = True
            break
        dominoes = decode(tiling, board, False)
        found.setdefault(tuple(map(str, dominoes)), dominoes)
    stats = {"nodes": sampler.sweeps, "sweeps": sampler.sweeps, "samples": wanted}
    monitor.finish(sampler.sweeps, len(found), False)
    return SearchResult(list(found.values()), len(found), False, cancelled, stats), None


# Engine name -> how it answers a request on a board: (result, ``total`` field or None).
# Keys as in ENGINE_MODULES.
_SEARCHES: dict[str, Callable[[Board, SearchArgs], tuple[SearchResult[Solution], int | None]]] = {
    "profile_dp": _run_profile_dp,
    "formula": _count_by_formula,
    "cftp": _sample_uniform,
}


# ---------------------------------------------------------------- trace mode


def trace_search(board: Board, fields: dict[str, Any], args: TraceArgs) -> SearchResult[Solution]:
    """Trace mode (profile DP): a ``cell`` step per open cell in the DP's order, with
    ``states``, the number of live profiles after it; then, for each of the first ``limit``
    tilings in the DP's numbering, its dominoes read back from the counts (``force`` steps,
    ``place``: ``{"cells": [[r1, c1], [r2, c2]]}``) and a ``solution`` step with ``count``, the
    number of tilings. Cells are in the puzzle's coordinates. The number of tilings goes to
    ``fields["total"]``. Only the tilings the steps and the listing cap have room for are read
    back (each takes a step per domino and one more)."""
    oriented, transposed = _dp_board(board, True)
    recorder, monitor = args.recorder, args.monitor

    def cell(row: int, column: int) -> list[int]:
        if transposed:
            row, column = column, row
        return [row + board.row_offset, column + board.col_offset]

    def describe(raw: dict[str, Any]) -> dict[str, Any]:
        step: dict[str, Any] = {"type": raw["type"], "depth": raw["depth"]}
        if raw["type"] == "cell":
            step["cell"] = cell(raw["row"], raw["column"])
            step["states"] = raw["states"]
            r, c = step["cell"]
            live = raw["states"]
            step["text"] = (
                f"The cell at {trace.cell_words(r, c)} swept: {live:,} frontier "
                f"profile{'s' if live != 1 else ''} reached by some partial tiling"
            )
        elif raw["type"] == "force":
            first, second = (cell(*end) for end in raw["domino"])
            step["place"] = {"cells": sorted([first, second])}
            step["text"] = (
                f"Tiling {raw['tiling'] + 1}: a domino on {trace.cell_words(*first)} and "
                f"{trace.cell_words(*second)}, read back from the counts"
            )
        else:
            step["count"] = raw["count"]
            step["number"] = raw["number"]
            step["text"] = f"Tiling {raw['number']} of {raw['count']:,}"
        return step

    recorder.describe = describe
    dp = profile_dp.ProfileDP(
        oriented.open_rows, oriented.width, monitor, keep_rows=True, recorder=recorder
    )
    stats: dict[str, Any] = {"nodes": 0, "states": 1 << oriented.width}
    tilings: list[list[profile_dp.Domino]] = []
    cancelled = False
    try:
        if not dp.run():
            cancelled = True
        else:
            assert dp.total is not None
            wanted = dp.total if args.limit is None else min(dp.total, args.limit)
            room = recorder.max_steps // (board.cells // 2 + 1) + 1
            wanted = min(wanted, room, args.max_kept or wanted)
            found = dp.unrank(list(range(wanted)))
            if found is None:
                cancelled = True
            for number, tiling in enumerate(found or []):
                for depth, domino in enumerate(tiling):
                    recorder.add(
                        {"type": "force", "depth": depth, "domino": domino, "tiling": number}
                    )
                recorder.add(
                    {
                        "type": "solution",
                        "depth": len(tiling),
                        "number": number + 1,
                        "count": dp.total,
                    }
                )
                tilings.append(tiling)
    except trace.TraceFull:
        pass
    stats["nodes"] = dp.steps
    complete = dp.total is not None and len(tilings) == dp.total and not recorder.truncated
    monitor.finish(dp.steps, len(tilings), complete)
    if dp.total is not None:
        fields["total"] = dp.total
    return SearchResult(
        [decode(tiling, board, transposed) for tiling in tilings],
        len(tilings),
        complete,
        cancelled,
        stats,
    )
