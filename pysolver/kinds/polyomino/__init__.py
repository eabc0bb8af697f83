"""Polyomino tiling as exact cover.

Puzzle::

    {"board": ["........", "...##...", ...], "pieces": ["pentominoes", "O4"], "reflections": true}

Board rows: ``.`` a cell to cover, ``#`` not part of the board; any shape, holes anywhere. Pieces:
a set name (``pentominoes``, ``tetrominoes``, ``trominoes``, ``hexominoes``), a library name
(see ``pieces``), or ``{"name": "A", "cells": [[0, 0], [0, 1]], "count": 2}``. A name given twice
adds up its counts.
The board's area must equal the total area of the pieces. A solution is a list of
``{"piece": "F", "cells": [[r, c], ...]}`` (cells sorted), pieces in the order they were given.

The package follows the path of a request: ``parsing`` (puzzle JSON -> ``Tiling``),
``encoding`` (``Tiling`` -> exact cover matrix, and solutions back), ``symmetry`` (the searches
that count tilings up to symmetry), and here the modes that run those searches and ``solve``.

Symmetry (request field ``"symmetry"``): ``"all"`` (default) counts every tiling; ``"distinct"``
counts tilings up to the symmetries of the problem (rotations and reflections that keep the
board and every piece's allowed orientations; see ``symmetry`` for the group and for Knuth's
method). ``"distinct"`` also works in ``solve`` and ``random`` modes: the tilings returned are
pairwise non-equivalent (one representative per class; random mode samples over the one-level
restricted matrix and maps each tiling to its class representative before de-duplicating).

Random mode: restarts. Each restart runs a fresh search whose option order is shuffled by a
sub-seed drawn from the request's seed and keeps its first tiling; repeats are dropped. Compared
with taking ``limit`` neighbouring tilings of one shuffled search (which share most pieces), this
spreads the sample over the whole space. A restart that runs past a node budget is abandoned and
the budget doubled (heavy-tailed first-solution times). When repeats pile up (fewer tilings
exist than were asked for), one shuffled search enumerates the rest and the answer is complete.
Every tiling drawn must be remembered to drop repeats, so restarts draw at most the response's
listing cap (``pysolver.budget.listed_cap``); a larger ``limit`` answers that many, incomplete.

Trace mode (symmetry ``"all"`` only): the exact cover steps (``pysolver.engines.trace``, the
engine's own tree); a ``choose`` step's ``item`` is ``{"cell": [r, c]}`` or ``{"piece": name,
"copy": j}``, ``place`` is ``{"piece": name, "cells": [[r, c], ...]}``. Heatmap (count mode):
per piece name, per cell of the board grid, how many of the counted tilings cover the cell with
that piece (with ``"distinct"``: one representative tiling per class).

Caps (``too_large`` errors): at most ``MAX_BOARD_CELLS`` cells to cover, a board grid of at most
``MAX_BOARD_SIDE`` rows and columns, ``MAX_COPIES`` copies of a piece, and at most
``cover.MAX_ENTRIES`` (option, item) entries in the matrix. Counting ``distinct`` keeps
the tilings of branches fixed by symmetry for de-duplication: more than ``MAX_KEPT_TILINGS`` of
them, or more than half the memory budget holds (``kept_tilings_cap``), is refused (only likely
when no piece is used exactly once, e.g. dominoes alone). Matrices are checked against the
memory budget before the search (the midend's engine choice, ``pysolver.midend.pipeline``);
building them, reducing tilings by symmetry and the random restarts all stay cancellable.
"""

from __future__ import annotations

import random
from functools import cache, partial
from typing import Any

from pysolver import budget, protocol
from pysolver.engines import trace
from pysolver.engines.cover import (
    ExactCoverProblem,
    engine_modules,
    estimated_bytes,
    search,
    split_for,
)
from pysolver.engines.monitor import Monitor, SearchResult, StageMonitor
from pysolver.engines.subtree import Split
from pysolver.facts import engine_facts
from pysolver.kinds.polyomino import generating
from pysolver.kinds.polyomino.encoding import Placement, Solution, decode, encode, item_labels
from pysolver.kinds.polyomino.parsing import (
    MAX_BOARD_CELLS,
    MAX_BOARD_SIDE,
    MAX_COPIES,
    PUZZLE_FIELDS,
    SYMMETRIES,
    Tiling,
    parse_puzzle,
    parse_symmetry,
)
from pysolver.kinds.polyomino.pictures import puzzle_text as puzzle_text
from pysolver.kinds.polyomino.pictures import solution_svg as solution_svg
from pysolver.kinds.polyomino.pictures import solution_text as solution_text
from pysolver.kinds.polyomino.pieces import LIBRARY, MAX_COORDINATE, MAX_PIECE_CELLS, SETS
from pysolver.kinds.polyomino.symmetry import (
    Branch,
    count_branches,
    random_branch,
    symmetry_plan,
)
from pysolver.midend.plan import GenerateArgs, Generated, Plan, SearchArgs, TraceArgs
from pysolver.protocol import (
    INVALID_REQUEST,
    TOO_LARGE,
    Query,
    SolveError,
    empty_grid,
)

# The kind's place in the registry: its tab, its place in menus and lists of kinds.
ORDER = 10
# A small puzzle with a few solutions (the tests and benchmarks of every kind run it).
EXAMPLE: dict[str, Any] = {
    "kind": "polyomino",
    "puzzle": {
        "board": ["....", "...."],
        "pieces": ["L4", {"name": "J", "cells": [[0, 0], [0, 1], [0, 2], [1, 2]]}],
    },
}

# Default first: tiling counts fastest on bench/bench_polyomino.py (and is bitset elsewhere).
ENGINE_MODULES = engine_modules("memo", "bitset", "dlx")
ENGINES = tuple(ENGINE_MODULES)
# Generate mode (``generate`` below): the puzzle's fields, the levels, and the request's
# option, which only generate mode takes.
GENERATE_FIELDS = ("rows", "cols")
# The puzzle of a small generate request (made in well under a second), for generic tests.
GENERATE_EXAMPLE: dict[str, Any] = {"rows": 3, "cols": 5}
# The puzzle of ``pysolver generate polyomino`` without --size: the size most people play.
GENERATE_DEFAULT: dict[str, Any] = {"rows": 5, "cols": 4}
DIFFICULTIES = generating.DIFFICULTIES
GENERATE_OPTIONS = ("difficulty",)
# What generate mode accepts (a rectangle of min to max pentominoes' area), published in
# facts.json for the page's "New puzzle" fields.
GENERATE_LIMITS = {
    "piece_cells": generating.PIECE_CELLS,
    "min_pieces": generating.MIN_PIECES,
    "max_pieces": generating.MAX_PIECES,
}
# The boards that cannot make every level, named "<rows>x<cols>" (facts.json's
# generate.levels_by_size).
GENERATE_LEVELS_BY_SIZE = {
    board: list(levels) for board, levels in generating.LEVELS_BY_BOARD.items()
}
# Request options beyond the protocol's: "symmetry" ("all" or "distinct"), and generate's.
OPTIONS = ("symmetry", *GENERATE_OPTIONS)
SPLITTABLE = True

# Tilings kept in memory to de-duplicate a branch fixed by symmetry (see ``kept_tilings_cap``).
MAX_KEPT_TILINGS = 200_000

__all__ = [
    "ENGINES",
    "ENGINE_MODULES",
    "MAX_BOARD_CELLS",
    "MAX_BOARD_SIDE",
    "MAX_COPIES",
    "MAX_KEPT_TILINGS",
    "OPTIONS",
    "PUZZLE_FIELDS",
    "SPLITTABLE",
    "SYMMETRIES",
    "build_problem",
    "decode",
    "encode",
    "facts",
    "generate",
    "heatmap",
    "parse_puzzle",
    "prepare",
]


def facts() -> dict[str, Any]:
    """What the page needs to know about this kind (see ``pysolver.facts``)."""
    return {
        "title": "Polyomino tiling",
        "help": (
            "Cover every cell of the board with the chosen pieces, each copy used once, turned and"
            " (if allowed) flipped. Each placement is an option covering its cells and its piece, "
            "so the tiling is an exact cover solved by Knuth's Algorithm X on bitsets or dancing "
            "links."
        ),
        **engine_facts(ENGINE_MODULES),
        "limits": {
            "max_rows": MAX_BOARD_SIDE,
            "max_cols": MAX_BOARD_SIDE,
            "max_cells": MAX_BOARD_CELLS,
            "max_copies": MAX_COPIES,
            "max_piece_cells": MAX_PIECE_CELLS,
            "max_coordinate": MAX_COORDINATE,
        },
        "symmetries": list(SYMMETRIES),
        "pieces": {
            name: {"cells": [list(cell) for cell in shape], "area": len(shape)}
            for name, shape in LIBRARY.items()
        },
        "sets": {name: list(members) for name, members in SETS.items()},
    }


def build_problem(puzzle: dict[str, Any], symmetry: str = "all") -> ExactCoverProblem:
    """The exact cover matrix of a polyomino puzzle (validated here; errors are SolveError).

    With ``symmetry="distinct"`` the restricted piece keeps one placement per orbit. Its count
    is the number of distinct tilings whenever no kept placement has a non-trivial stabiliser
    (6x10, 8x8 with the 2x2 square...); ``solve`` de-duplicates the other branches.
    """
    tiling = parse_puzzle(puzzle)
    symmetry = parse_symmetry(symmetry)
    if symmetry == "all":
        return encode(tiling).problem
    plan = symmetry_plan(tiling)
    if plan.piece is None:
        return encode(tiling).problem
    return encode(tiling, {plan.piece: plan.free | set(plan.fixed)}).problem


# ---------------------------------------------------------------- memory


def tiling_bytes(tiling: Tiling) -> int:
    """What one tiling kept for de-duplication costs: the engine's option list, the decoded
    placements, the class representative (its cells re-sorted) and its dictionary key."""
    pieces = sum(piece.count for piece in tiling.pieces)
    cells_each = -(-len(tiling.cells) // pieces)
    per_piece = (
        budget.INT_BYTES
        + 4 * budget.POINTER_BYTES
        + 2 * budget.LIST_BYTES
        + budget.list_bytes(cells_each)
    )
    return 3 * budget.LIST_BYTES + pieces * per_piece


def listed_bytes(tiling: Tiling) -> int:
    """What one listed tiling costs: per piece, its option in the engine's list, its decoded
    (name, cells) pair, its JSON dict with a list of the shared [row, col] lists (see
    ``solution_json``) and its JSON text."""
    pieces = sum(piece.count for piece in tiling.pieces)
    cells_each = -(-len(tiling.cells) // pieces)
    per_piece = (
        budget.INT_BYTES
        + budget.POINTER_BYTES
        + budget.LIST_BYTES
        + 2 * budget.POINTER_BYTES
        + 4 * budget.LIST_BYTES
        + budget.list_bytes(cells_each)
        + 12 * cells_each
    )
    return 3 * budget.LIST_BYTES + pieces * per_piece


def kept_tilings_cap(tiling: Tiling) -> int:
    """How many tilings a symmetry de-duplication may keep: half the budget, at most
    ``MAX_KEPT_TILINGS``."""
    return max(1, min(MAX_KEPT_TILINGS, budget.budget_bytes() // 2 // tiling_bytes(tiling)))


# ---------------------------------------------------------------- modes


def run_branches(
    branches: list[Branch],
    engine: str,
    limit: int | None,
    keep: bool,
    monitor: Monitor,
    path: list[int] | None = None,
    max_kept: int | None = None,
    kept_cap: int = MAX_KEPT_TILINGS,
) -> SearchResult[Solution]:
    """Solve or count over disjoint branches: the first ``limit`` classes in search order.

    path: search only below these choices (a parallel task over one branch).
    max_kept: solutions listed at most (the rest are counted); kept_cap: tilings a
    de-duplication may keep (``kept_tilings_cap``).
    """
    outcome: SearchResult[Solution] = SearchResult()
    nodes = 0
    for number, branch in enumerate(branches):
        remaining = None if limit is None else limit - outcome.count
        if remaining == 0:
            outcome.complete = False
            break
        share = (number / len(branches), (number + 1) / len(branches))
        # Recent solutions: this branch's option indices -> placed pieces (the monitor's own
        # decoder makes them solution JSON).
        stage = StageMonitor(
            monitor, nodes, outcome.count, share, recent=partial(decode, branch.encoding)
        )
        problem = branch.encoding.problem
        room = None if max_kept is None else max(0, max_kept - len(outcome.solutions))
        if branch.reduce is None:
            result = search(
                problem,
                engine,
                limit=remaining,
                keep_solutions=keep,
                max_kept=room,
                monitor=stage,
                path=path,
            )
            found = [decode(branch.encoding, s) for s in result.solutions]
            taken = result.count
        else:
            # A class has at most ``fold`` members here, so this many tilings hold at least
            # ``remaining`` classes.
            wanted = None if remaining is None else remaining * branch.fold
            cap = kept_cap if wanted is None else min(wanted, kept_cap)
            result = search(
                problem, engine, limit=cap, keep_solutions=True, monitor=stage, path=path
            )
            hit_memory_cap = result.count >= cap and (wanted is None or wanted > cap)
            if hit_memory_cap and (remaining is None or remaining > cap):
                # Fewer classes than tilings kept: known short before any is reduced.
                raise _too_many_to_reduce(kept_cap)
            classes: dict[tuple[tuple[str, Placement], ...], Solution] = {}
            for options in result.solutions:
                monitor.checkpoint()
                representative = branch.reduce(decode(branch.encoding, options))
                classes.setdefault(tuple(representative), representative)
            if hit_memory_cap and (remaining is None or len(classes) < remaining):
                raise _too_many_to_reduce(kept_cap)
            found = list(classes.values())
            taken = len(found)
            if remaining is not None and taken > remaining:
                found = found[:remaining]
                taken = remaining
                outcome.complete = False
        nodes += result.stats.get("nodes", 0)
        outcome.count += taken
        if keep:
            outcome.solutions.extend(found[:room])
        if result.cancelled or stage.cancelled:
            outcome.cancelled = True
        if not result.complete:
            outcome.complete = False
            break
    outcome.stats["nodes"] = nodes
    return outcome


def _too_many_to_reduce(kept_cap: int) -> SolveError:
    return SolveError(
        TOO_LARGE,
        f"more than {kept_cap:,} tilings would have to be kept to count them up to symmetry "
        "(that many fit the memory budget); count with symmetry 'all' instead, or use some "
        "piece exactly once so that its placements can be restricted",
        "symmetry",
    )


def run_random(
    branch: Branch, engine: str, limit: int | None, rng: random.Random, monitor: Monitor
) -> SearchResult[Solution]:
    """Up to ``limit`` distinct classes by restarted shuffled searches (see module docstring;
    the caller caps ``limit`` at the listing cap)."""
    outcome: SearchResult[Solution] = SearchResult(complete=False, stats={"nodes": 0})
    found: dict[tuple[tuple[str, Placement], ...], Solution] = {}
    budget = 4096
    repeats = 0
    # Repeats among L restarts from N tilings run near L * L / 2N, so more than L / 10 of them
    # says N is under about 5 L: then one enumeration is cheaper than more restarts.
    repeat_cap = 3 + (limit or 0) // 10
    problem = branch.encoding.problem
    reduce = branch.reduce or sorted

    def enumerate_rest() -> None:
        # Few classes left to find: one shuffled search lists them all (or enough of them).
        cap = None if limit is None else limit * branch.fold
        stage = StageMonitor(monitor, outcome.stats["nodes"], len(found))
        result = search(
            problem, engine, limit=cap, rng=random.Random(rng.getrandbits(64)), monitor=stage
        )
        outcome.stats["nodes"] += result.stats.get("nodes", 0)
        outcome.cancelled = result.cancelled or stage.cancelled
        every: dict[tuple[tuple[str, Placement], ...], Solution] = {}
        for options in result.solutions:
            representative = reduce(decode(branch.encoding, options))
            every.setdefault(tuple(representative), representative)
        for key, representative in every.items():
            if limit is not None and len(found) >= limit:
                break
            found.setdefault(key, representative)
        outcome.complete = result.complete and len(every) == len(found)

    if limit is None:
        enumerate_rest()
    while limit is not None and len(found) < limit:
        # A restart may be far shorter than the engine's CHECK_EVERY nodes: check here too.
        if monitor.check(outcome.stats["nodes"], len(found)):
            outcome.cancelled = True
            break
        share = (len(found) / limit, (len(found) + 1) / limit)
        stage = StageMonitor(monitor, outcome.stats["nodes"], len(found), share, budget)
        sub_rng = random.Random(rng.getrandbits(64))
        result = search(problem, engine, limit=1, rng=sub_rng, monitor=stage)
        outcome.stats["nodes"] += result.stats.get("nodes", 0)
        if stage.cancelled:
            outcome.cancelled = True
            break
        if stage.over_budget:
            budget *= 2
            continue
        if not result.solutions:
            outcome.complete = True  # the whole space was searched: no tiling exists
            break
        representative = reduce(decode(branch.encoding, result.solutions[0]))
        key = tuple(representative)
        if key in found:
            repeats += 1
            if repeats > repeat_cap:
                enumerate_rest()
                break
        else:
            found[key] = representative
    outcome.solutions = list(found.values())
    outcome.count = len(outcome.solutions)
    return outcome


def solution_json(
    tiling: Tiling, solution: Solution, cell_lists: list[list[int]] | None = None
) -> list[dict[str, Any]]:
    """Pieces in the order given (copies by position), cells sorted as [row, col].

    cell_lists: each board cell as [row, col], made once and shared by the solutions of one
    response (they are only written out): listing hundreds of big tilings after a cancel is
    then a third cheaper.
    """
    if cell_lists is None:
        cell_lists = [list(cell) for cell in tiling.cells]
    order = {piece.name: i for i, piece in enumerate(tiling.pieces)}
    placed = sorted(solution, key=lambda item: (order[item[0]], item[1]))
    return [{"piece": name, "cells": [cell_lists[i] for i in spot]} for name, spot in placed]


def generate(puzzle: Any, args: GenerateArgs) -> Generated:
    """Generate mode: a ``rows`` x ``cols`` board and pentominoes that tile it in one way up to
    symmetry (``pysolver.kinds.polyomino.generating``, which counts with ``prepare``)."""
    return generating.generate(puzzle, prepare, ENGINES[0], args)


# The searches of the last parallel task's puzzle in this process, by its JSON text: a worker
# runs many tasks of one request, and building them again (symmetry plan and encodings) took
# 50 ms a task on the distinct 8x8 + square (66 tasks: 3.4 s of CPU, a third of the serial
# count). Serial requests never keep theirs.
_last_task_branches: list[tuple[str, list[Branch]]] = []
# Their ``needed_bytes`` per engine (the midend asks at every task: 3.5 ms on 6x10).
_last_task_needed: dict[str, int] = {}


def _task_branches(puzzle: Any, tiling: Tiling, symmetry: str, monitor: Monitor) -> list[Branch]:
    """``count_branches`` of a parallel task, kept for the next task on the same puzzle."""
    key = protocol.dumps([puzzle, symmetry])
    if _last_task_branches and _last_task_branches[0][0] == key:
        return _last_task_branches[0][1]
    _last_task_branches.clear()  # another puzzle's go first
    _last_task_needed.clear()
    built = count_branches(tiling, symmetry, monitor)
    _last_task_branches.append((key, built))
    return built


def prepare(puzzle: Any, query: Query, engine: str) -> Plan:
    """The searches of a polyomino request for the midend: one per symmetry branch, in order
    (see the module docstring for the puzzle, symmetry and random modes)."""
    symmetry = parse_symmetry(query.extra.get("symmetry", "all"))
    tiling = parse_puzzle(puzzle)
    building = Monitor(query.progress, query.cancel)
    if query.mode == "trace" and symmetry != "all":
        raise SolveError(
            INVALID_REQUEST,
            'trace mode shows the search over every tiling: use "symmetry": "all"',
            "symmetry",
        )

    @cache
    def branches() -> list[Branch]:
        """The searches this request runs (built once, on first use: trace mode needs none)."""
        if query.mode == "random":
            return [random_branch(tiling, symmetry, building)]
        if query.subtree is not None:
            return _task_branches(puzzle, tiling, symmetry, building)
        return count_branches(tiling, symmetry, building)

    def run(args: SearchArgs) -> SearchResult[Solution]:
        if query.mode == "random":
            assert args.rng is not None
            drawn = args.max_kept if args.limit is None else min(args.limit, args.max_kept or 0)
            outcome = run_random(branches()[0], args.engine, drawn, args.rng, args.monitor)
        else:
            searched = branches()
            if args.path is not None:  # a parallel task: one subtree of one of the searches
                searched = [searched[args.branch]]
            outcome = run_branches(
                searched,
                args.engine,
                args.limit,
                args.keep_solutions,
                args.monitor,
                args.path,
                max_kept=args.max_kept,
                kept_cap=kept_tilings_cap(tiling),
            )
        args.monitor.finish(outcome.stats["nodes"], outcome.count, outcome.complete)
        return outcome

    def split(engine: str, wanted: int, monitor: Monitor) -> list[Split | None]:
        """A search whose tilings are de-duplicated by canonical form is not cut (None):
        equivalent tilings could fall into different subtrees, so it runs as one task.

        A whole count on ``memo`` is cut in the memo walk's own tree, below its root orbits
        of the board's symmetry (``cover.split_for``), so its tasks keep the orbits; each
        worker keeps its memo across its tasks (6x10 pentominoes, jobs 2: the tasks sum about
        1.1x the serial nodes, where cuts of the plain tree summed 4.5x)."""
        counting = query.mode == "count" and query.limit is None and not query.heatmap
        cuttable = sum(1 for branch in branches() if branch.reduce is None)
        each = -(-wanted // max(1, cuttable))
        if engine == "memo" and counting:
            # The searches differ in size by 10x and more (the distinct 8x8 + square: the one
            # of X's free placements has 68% of the nodes, cut into 4 it left its tasks the
            # largest), and a memo task costs little beyond its nodes (a worker keeps its
            # tables): each search is cut into as many tasks as all of them would be.
            each = wanted
        return [
            split_for(branch.encoding.problem, engine, each, counting=counting, monitor=monitor)
            if branch.reduce is None
            else None
            for branch in branches()
        ]

    def needed_bytes(engine: str) -> int:
        searched = branches()
        kept = bool(_last_task_branches) and _last_task_branches[0][1] is searched
        if kept and engine in _last_task_needed:
            return _last_task_needed[engine]
        # No branch at all: the symmetry plan found no placement for its piece (no tiling).
        needed = max(
            (estimated_bytes(branch.encoding.problem, engine) for branch in searched),
            default=0,
        )
        if kept:
            _last_task_needed[engine] = needed
        return needed

    fields: dict[str, Any] = {"symmetry": symmetry}
    if query.mode == "estimate" and symmetry == "distinct":
        fields["note"] = (
            "estimated by random paths, solutions counts the tilings the searches find: a "
            "class of tilings with symmetries of its own may be found more than once"
        )
    cell_lists = [list(cell) for cell in tiling.cells]
    # JSON text per tiling: {"piece": "F", "cells": [[r, c], ...]} per piece.
    text = sum(piece.count * (26 + 10 * len(piece.shape)) for piece in tiling.pieces)
    return Plan(
        run=run,
        decode=lambda solution: solution_json(tiling, solution, cell_lists),
        listed_bytes=listed_bytes(tiling),
        listed_chars=text,
        split=split,
        trace=partial(trace_search, tiling),
        heatmap=partial(heatmap, tiling, puzzle["board"]),
        needed_bytes=needed_bytes,
        too_large="the {engine} engine on this puzzle's matrix",
        shrink="use a smaller board or fewer pieces",
        branches=1 if query.mode == "trace" or query.subtree is None else len(branches()),
        fields=fields,
        trace_fields={"symmetry": symmetry},
        exact_cover=lambda: [branch.encoding.problem for branch in branches()],
    )


# ---------------------------------------------------------------- trace mode and heatmaps


def trace_search(tiling: Tiling, args: TraceArgs) -> SearchResult[Solution]:
    """Trace mode: the steps of the exact cover search over the whole matrix (symmetry "all").

    A ``choose`` step's ``item`` is ``{"cell": [r, c]}`` or ``{"piece": name, "copy": j}``;
    ``place`` is ``{"piece": name, "cells": [[r, c], ...]}``.
    """
    encoding = encode(tiling, monitor=args.monitor)
    labels = item_labels(tiling, encoding)

    def place(option: int) -> dict[str, Any]:
        cells = [list(tiling.cells[i]) for i in encoding.option_cells[option]]
        return {"piece": encoding.option_piece[option], "cells": cells}

    def option_label(option: int) -> str:
        r, c = tiling.cells[encoding.option_cells[option][0]]
        return f"{encoding.option_piece[option]} at {trace.cell_words(r, c)}"

    args.recorder.describe = trace.exact_cover_describer(
        lambda item: labels[item][0], option_label, place, lambda item: labels[item][1]
    )
    result = trace.search(
        encoding.problem,
        args.recorder,
        limit=args.limit,
        monitor=args.monitor,
        max_kept=args.max_kept,
    )
    return result.map(partial(decode, encoding))


def heatmap(
    tiling: Tiling, board: list[str], solutions: list[Solution]
) -> dict[str, list[list[int]]]:
    """Per piece name, per cell of the board grid: how many of the tilings cover it with that
    piece. With ``symmetry: "distinct"`` the tilings are the class representatives counted."""
    counts = {piece.name: empty_grid(len(board), len(board[0])) for piece in tiling.pieces}
    for solution in solutions:
        for name, spot in solution:
            grid = counts[name]
            for index in spot:
                r, c = tiling.cells[index]
                grid[r][c] += 1
    return counts
