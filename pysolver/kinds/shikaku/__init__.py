"""Shikaku: cut the grid into rectangles, one per clue, each holding its clue cell and as many
cells as the clue says.

Puzzle::

    {"rows": 12, "cols": 12, "clues": [[row, col, n], ...]}
    {"url": "https://puzz.link/p?shikaku/<cols>/<rows>/<data>"}

A solution is a list of ``[top, left, height, width]``, one per clue, in clue order.

Each clue becomes a variable whose candidates are the rectangles of its area that hold its cell,
stay in the grid and hold no other clue. Two engines solve that:

* ``propagate``: the generic propagation + distribution engine (``pysolver.engines.propagate``),
  a rectangle being a cell bitmask;
* ``dlx``: exact cover on the shared core (items: every cell, every clue; one option per
  candidate rectangle).

Both give the same solution sets; ``random`` mode shuffles the candidate order by the seed.

Trace mode: with ``propagate``, the candidate sets' story first (rectangles of the right area
holding their clue, those holding no other clue, after the overlap rule, after all rules: 345,
218, 156, 140 on the 12x12 seed), then propagate / force / split / try / backtrack / solution
steps; with ``dlx``, the exact cover steps. ``place`` is ``{"clue": i, "rect": [top, left,
height, width]}``. Heatmap (count mode): per clue index as a string, per cell, how many
solutions give that cell to the clue.

Limits: at most ``MAX_SIDE`` (100) rows and columns, so at most 10,000 cells; URLs of at most
``MAX_URL_CHARS`` characters. Clues must add up to the grid's area. Each engine's memory is
estimated before it is built and checked against ``pysolver.budget``: ``dlx`` needs a link per
(rectangle, cell), so big clues with many candidates (a 100 x 100 grid of four 2500 clues) are
refused there with ``too_large`` naming ``propagate``, which holds one mask per rectangle.

URLs are puzz.link's format, read and written by ``pasted`` (over ``pysolver.puzzlink``);
``to_url`` gives the share link of a puzzle.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from pysolver import budget
from pysolver.engines import cover, dlx, propagate, trace
from pysolver.engines.cover import ExactCoverProblem
from pysolver.engines.monitor import Monitor, SearchResult
from pysolver.engines.subtree import Split
from pysolver.facts import engine_facts
from pysolver.kinds.shikaku import explaining as shikaku_explain
from pysolver.kinds.shikaku import generating as shikaku_generate
from pysolver.kinds.shikaku import logic as shikaku_logic
from pysolver.kinds.shikaku import pasted as shikaku_pasted
from pysolver.kinds.shikaku.pasted import URL_PATH, Clue, format_url, parse_url
from pysolver.kinds.shikaku.pictures import puzzle_text as puzzle_text
from pysolver.kinds.shikaku.pictures import solution_svg as solution_svg
from pysolver.kinds.shikaku.pictures import solution_text as solution_text
from pysolver.logic.step import techniques_facts
from pysolver.midend.plan import (
    ExplainArgs,
    Explained,
    GenerateArgs,
    Generated,
    Hinted,
    Plan,
    SearchArgs,
    TraceArgs,
)
from pysolver.protocol import (
    TOO_LARGE,
    Query,
    SolveError,
    empty_grid,
    puzzle_error,
    require_dict,
    require_int,
    require_list,
    require_str,
    shown,
)
from pysolver.puzzlink import MAX_URL_CHARS

# The kind's place in the registry: its tab, its place in menus and lists of kinds.
ORDER = 30
# A small puzzle with a few solutions (the tests and benchmarks of every kind run it).
EXAMPLE: dict[str, Any] = {
    "kind": "shikaku",
    "puzzle": {"rows": 2, "cols": 4, "clues": [[0, 0, 4], [1, 3, 4]]},
}

ENGINE_MODULES = {"propagate": propagate, "dlx": dlx}
ENGINES = tuple(ENGINE_MODULES)
PUZZLE_FIELDS = ("rows", "cols", "clues", "url")
# Generate mode (``generate`` below): the puzzle's fields, the levels, and the request's
# option, which only generate mode takes.
GENERATE_FIELDS = ("rows", "cols")
# The puzzle of a small generate request (made in well under a second), for generic tests.
GENERATE_EXAMPLE: dict[str, Any] = {"rows": 5, "cols": 5}
# The puzzle of ``pysolver generate shikaku`` without --size: the size most people play.
GENERATE_DEFAULT: dict[str, Any] = {"rows": 10, "cols": 10}
DIFFICULTIES = shikaku_generate.DIFFICULTIES
GENERATE_OPTIONS = ("difficulty",)
# What generate mode accepts, published in facts.json for the page's "New puzzle" fields.
GENERATE_LIMITS = {
    "min_side": shikaku_generate.MIN_GENERATE_SIDE,
    "max_side": shikaku_generate.MAX_GENERATE_SIDE,
}
OPTIONS: tuple[str, ...] = GENERATE_OPTIONS
SPLITTABLE = True
# Hint mode (``hint`` below): the rectangles the player has drawn.
HINT_FIELDS = ("entries",)

MAX_SIDE = 100

Rectangle = tuple[int, int, int, int]


def read_pasted(text: str) -> dict[str, Any] | None:
    """The kind's paste reader (``pasted.read_pasted``: Rectangles game IDs, puzz.link URLs),
    sides up to ``MAX_SIDE``."""
    return shikaku_pasted.read_pasted(text, MAX_SIDE)


def facts() -> dict[str, Any]:
    """What the page needs to know about this kind (see ``pysolver.facts``)."""
    return {
        "title": "Shikaku",
        "help": (
            "Divide the grid into rectangles, each holding exactly one number equal to its area. "
            "The default engine works by propagation and distribution: rules remove impossible "
            "rectangles from each clue's candidates, then it splits on a clue; dancing links also "
            "solves it as an exact cover."
        ),
        **engine_facts(ENGINE_MODULES),
        "limits": {"max_rows": MAX_SIDE, "max_cols": MAX_SIDE, "max_url_chars": MAX_URL_CHARS},
    }


# ---------------------------------------------------------------- reading puzzles


def parse_puzzle(puzzle: Any) -> tuple[int, int, list[Clue]]:
    """Validate a puzzle (grid form or URL form) into ``(rows, cols, clues)``."""
    puzzle = require_dict(puzzle, "puzzle")
    if "url" in puzzle:
        rows, cols, clues = parse_url(require_str(puzzle["url"], URL_PATH))
        for name, side in (("columns", cols), ("rows", rows)):
            if side > MAX_SIDE:
                raise SolveError(
                    TOO_LARGE,
                    f"the URL's {name} is {shown(side)}; the largest grid side is {MAX_SIDE}",
                    URL_PATH,
                )
        clue_path = URL_PATH
    else:
        for name in ("rows", "cols", "clues"):
            if name not in puzzle:
                raise puzzle_error(
                    f'the puzzle needs "rows", "cols" and "clues" (or a "url"); "{name}" is '
                    "missing",
                    f"puzzle.{name}",
                )
        rows = _read_side(puzzle["rows"], "puzzle.rows")
        cols = _read_side(puzzle["cols"], "puzzle.cols")
        clues = []
        for index, clue in enumerate(require_list(puzzle["clues"], "puzzle.clues")):
            path = f"puzzle.clues[{index}]"
            clue = require_list(clue, path)
            if len(clue) != 3:
                raise puzzle_error(
                    f"{path} must be [row, col, n], a list of 3 integers, not {len(clue)} values",
                    path,
                )
            row = require_int(clue[0], f"{path}[0]", 0, rows - 1)
            col = require_int(clue[1], f"{path}[1]", 0, cols - 1)
            # No rectangle is larger than the grid (and the sum below stays a small number).
            size = require_int(clue[2], f"{path}[2]", 1, rows * cols)
            clues.append((row, col, size))
        clue_path = "puzzle.clues"
    _check_clues(rows, cols, clues, clue_path)
    return rows, cols, clues


def _read_side(value: Any, path: str) -> int:
    side = require_int(value, path, minimum=1)
    if side > MAX_SIDE:
        raise SolveError(
            TOO_LARGE, f"{path} is {shown(side)}; the largest grid side is {MAX_SIDE}", path
        )
    return side


def _check_clues(rows: int, cols: int, clues: list[Clue], path: str) -> None:
    seen: dict[tuple[int, int], int] = {}
    for index, (row, col, _size) in enumerate(clues):
        first = seen.setdefault((row, col), index)
        if first != index:
            where = f"{path}[{index}]" if path == "puzzle.clues" else path
            raise puzzle_error(
                f"clue {index + 1} is on the same cell (row {row + 1}, column {col + 1}) as "
                f"clue {first + 1} (clues, rows and columns count from 1); a cell holds at most "
                "one clue",
                where,
            )
    total = sum(size for _row, _col, size in clues)
    if total != rows * cols:
        raise puzzle_error(
            f"the clues add up to {total} but the grid has {rows * cols} cells "
            f"({rows} x {cols}); every cell must belong to exactly one clue's rectangle",
            path,
        )


def to_url(puzzle: dict[str, Any]) -> str:
    """The puzz.link URL of a puzzle (validated first), for share links."""
    return format_url(*parse_puzzle(puzzle))


# ---------------------------------------------------------------- candidates


def candidate_rectangles(
    rows: int, cols: int, clues: list[Clue], monitor: Monitor | None = None
) -> tuple[list[list[Rectangle]], list[list[int]], int]:
    """Per clue, its candidate rectangles and their cell bitmasks (bit ``row * cols + col``).

    Also returns how many rectangles of the right area hold their clue cell before those
    holding another clue are dropped (a statistic). ``monitor`` cancels (``Cancelled``).
    """
    monitor = monitor or Monitor()
    clue_cells = 0
    for row, col, _size in clues:
        clue_cells |= 1 << (row * cols + col)
    # repeat[h] has bit 0 of each of h consecutive rows: a w-wide row strip times repeat[h] is
    # the h x w rectangle (no carries, since w <= cols).
    repeat = [0]
    for height in range(1, rows + 1):
        repeat.append(repeat[-1] | 1 << ((height - 1) * cols))
    rectangles: list[list[Rectangle]] = []
    masks: list[list[int]] = []
    in_area = 0
    for row, col, size in clues:
        others = clue_cells & ~(1 << (row * cols + col))
        clue_rectangles: list[Rectangle] = []
        clue_masks: list[int] = []
        for height in range(1, min(size, rows) + 1):
            width, remainder = divmod(size, height)
            if remainder or width > cols:
                continue
            shape = ((1 << width) - 1) * repeat[height]
            for top in range(max(0, row - height + 1), min(row, rows - height) + 1):
                monitor.checkpoint()
                for left in range(max(0, col - width + 1), min(col, cols - width) + 1):
                    in_area += 1
                    mask = shape << (top * cols + left)
                    if not mask & others:
                        clue_rectangles.append((top, left, height, width))
                        clue_masks.append(mask)
        rectangles.append(clue_rectangles)
        masks.append(clue_masks)
    return rectangles, masks, in_area


# ---------------------------------------------------------------- solving

# A solution: one [top, left, height, width] per clue, in clue order.
Solution = list[list[int]]


def prepare(puzzle: Any, query: Query, engine: str) -> Plan:
    """The search of a Shikaku request for the midend (see the module docstring)."""
    rows, cols, clues = parse_puzzle(puzzle)
    rectangles, masks, in_area = candidate_rectangles(
        rows, cols, clues, Monitor(query.progress, query.cancel)
    )
    cells = rows * cols

    def run(args: SearchArgs) -> SearchResult[list[int]]:
        return _SEARCHES[args.engine](cells, masks, **args.search_options())

    def split(engine: str, wanted: int, monitor: Monitor) -> list[Split | None]:
        if engine == "propagate":
            problem = propagate.PartitionProblem(cells, masks)
            return [propagate.split(problem, wanted, monitor)]
        return [cover.split(encode(cells, masks)[0], wanted, monitor=monitor)]

    def sum_heatmap(solutions: list[list[int]]) -> dict[str, list[list[int]]]:
        decoded = [decode(rectangles, choices) for choices in solutions]
        return heatmap(rows, cols, len(clues), decoded)

    fields: dict[str, Any] = {}
    if isinstance(puzzle, dict) and "url" in puzzle:
        # The caller only has the URL: give back what it means, so clues can be drawn.
        fields["puzzle"] = {"rows": rows, "cols": cols, "clues": [list(c) for c in clues]}
    return Plan(
        run=run,
        decode=partial(decode, rectangles),
        # A listed solution: the engine's choice per clue, a rectangle list per clue, JSON text.
        listed_bytes=budget.list_bytes(len(clues), budget.INT_BYTES + budget.list_bytes(4))
        + 20 * len(clues),
        listed_chars=20 * len(clues),
        split=split,
        trace=partial(trace_search, rows, cols, clues, rectangles, masks, in_area),
        heatmap=sum_heatmap,
        needed_bytes=lambda name: _ESTIMATES[name](cells, masks),
        too_large=f"the {{engine}} engine on {sum(map(len, masks)):,} candidate rectangles",
        shrink="use smaller clues or a smaller grid",
        stats={
            "candidates_area": in_area,
            "candidates": sum(len(clue_masks) for clue_masks in masks),
        },
        fields=fields,
        exact_cover=lambda: [encode(cells, masks, Monitor(query.progress, query.cancel))[0]],
    )


def generate(puzzle: Any, args: GenerateArgs) -> Generated:
    """Generate mode: a puzzle of ``puzzle["rows"]`` x ``puzzle["cols"]`` with one solution at
    ``args.difficulty`` (see ``pysolver.kinds.shikaku.generating``, which searches through this
    module's candidate rectangles)."""
    return shikaku_generate.generate(puzzle, candidate_rectangles, args)


def explain_facts() -> dict[str, Any]:
    """The rules explain mode names, easiest first, with their levels (facts.json)."""
    return techniques_facts(shikaku_logic.ALL)


def explain_board(puzzle: Any) -> shikaku_explain.Board:
    """The explain board of a puzzle: its clues' candidate rectangles, and a solver of them."""
    rows, cols, clues = parse_puzzle(puzzle)
    rectangles, masks, _in_area = candidate_rectangles(rows, cols, clues)
    field = shikaku_logic.Field(rows, cols, clues, rectangles, masks)

    def solve(allowed: list[list[int]], args: ExplainArgs) -> list[list[int]]:
        kept = [[masks[clue][index] for index in indices] for clue, indices in enumerate(allowed)]
        stage = args.stage()
        problem = propagate.PartitionProblem(rows * cols, kept)
        result = propagate.search(problem, limit=2, monitor=stage)
        args.nodes += result.stats["nodes"]
        args.stop_if_cancelled(stage)
        return [
            [allowed[clue][choice] for clue, choice in enumerate(choices)]
            for choices in result.solutions
        ]

    return shikaku_explain.Board(field, solve)


def explain(puzzle: Any, args: ExplainArgs) -> Explained:
    """Explain mode: the path from the clues to the solution (see
    ``pysolver.kinds.shikaku.explaining``)."""
    return shikaku_explain.explain(explain_board(puzzle), args)


def hint(puzzle: Any, args: ExplainArgs) -> Hinted:
    """Hint mode: the next step from the rectangles the player has drawn (``entries``)."""
    board = explain_board(puzzle)
    entries = puzzle.get("entries")
    drawn = (
        []
        if entries is None
        else shikaku_explain.read_entries(entries, board.field.rows, board.field.cols)
    )
    return shikaku_explain.hint(board, drawn, args)


def decode(rectangles: list[list[Rectangle]], choices: list[int]) -> Solution:
    """A solution's JSON from the candidate chosen for each clue."""
    return [list(rectangles[clue][choice]) for clue, choice in enumerate(choices)]


def encode(
    cells: int, masks: list[list[int]], monitor: Monitor | None = None
) -> tuple[ExactCoverProblem, list[tuple[int, int]]]:
    """The exact cover matrix of the candidates, and each option's (clue, candidate).

    Items: cells ``0 .. cells-1`` then one per clue, all primary; an option per rectangle.
    (The ``propagate`` engine takes the candidate masks as they are.) ``monitor`` cancels.
    """
    monitor = monitor or Monitor()
    options: list[list[int]] = []
    owner: list[tuple[int, int]] = []
    for clue, clue_masks in enumerate(masks):
        for choice, mask in enumerate(clue_masks):
            monitor.checkpoint()
            option = [cells + clue]
            while mask:
                low = mask & -mask
                option.append(low.bit_length() - 1)
                mask ^= low
            options.append(option)
            owner.append((clue, choice))
    return ExactCoverProblem(cells + len(masks), 0, options), owner


def _search_partition(
    cells: int,
    masks: list[list[int]],
    path: list[Any] | None = None,
    **search: Any,
) -> SearchResult[list[int]]:
    """The ``propagate`` engine: a solution is the candidate chosen for each clue. ``path``:
    only the subtree below it (a parallel task)."""
    problem = propagate.PartitionProblem(cells, masks)
    if path is None:
        return propagate.search(problem, **search)
    return propagate.search_subtree(problem, path, lambda sub: propagate.search(sub, **search))


def _search_exact_cover(
    cells: int,
    masks: list[list[int]],
    **search: Any,
) -> SearchResult[list[int]]:
    """The ``dlx`` engine on ``encode``'s matrix; its option lists become candidate choices.
    ``search`` may hold ``path``, a subtree in the matrix's option indices."""
    problem, owner = encode(cells, masks, search["monitor"])
    result = cover.search(problem, "dlx", **search)
    return result.map(lambda chosen: _choices(owner, len(masks), chosen))


def _choices(owner: list[tuple[int, int]], clues: int, chosen: list[int]) -> list[int]:
    """The candidate chosen for each clue, from the options of ``encode``'s matrix chosen."""
    choice_of = [0] * clues
    for option in chosen:
        clue, choice = owner[option]
        choice_of[clue] = choice
    return choice_of


# Engine name -> how to search the candidates with it: (cells, masks, **search) -> one candidate
# index per clue. Keys as in ENGINE_MODULES.
_SEARCHES: dict[str, Callable[..., SearchResult[list[int]]]] = {
    "propagate": _search_partition,
    "dlx": _search_exact_cover,
}


def _partition_bytes(cells: int, masks: list[list[int]]) -> int:
    return propagate.estimated_bytes(propagate.PartitionProblem(cells, masks))


def _exact_cover_bytes(cells: int, masks: list[list[int]]) -> int:
    """``encode``'s matrix (an int object per entry) and the dancing links over it."""
    options = sum(map(len, masks))
    entries = sum(
        len(clue_masks) * (clue_masks[0].bit_count() + 1) for clue_masks in masks if clue_masks
    )
    matrix = budget.list_bytes(options, budget.LIST_BYTES) + entries * (
        budget.INT_BYTES + budget.POINTER_BYTES
    )
    return matrix + dlx.links_bytes(cells + len(masks), options, entries)


# Engine name -> the bytes it needs for (cells, masks), known before it builds anything.
_ESTIMATES: dict[str, Callable[[int, list[list[int]]], int]] = {
    "propagate": _partition_bytes,
    "dlx": _exact_cover_bytes,
}


# ---------------------------------------------------------------- trace mode and heatmaps


def trace_search(
    rows: int,
    cols: int,
    clues: list[Clue],
    rectangles: list[list[Rectangle]],
    masks: list[list[int]],
    in_area: int,
    args: TraceArgs,
) -> SearchResult[list[int]]:
    """Trace mode. ``propagate``: the candidate sets' story first (rectangles of the right area
    holding their clue cell, those holding no other clue, after the overlap rule, after all
    rules: 345, 218, 156, 140 on the seed 12x12), then propagate / force / split / try /
    backtrack / solution steps. ``dlx``: the exact cover steps (items: cells and clues).
    ``place`` is ``{"clue": index, "rect": [top, left, height, width]}``."""

    def clue_label(clue: int) -> str:
        row, col, size = clues[clue]
        return f"clue {clue + 1} (the {size} at {trace.cell_words(row, col)})"

    def place(clue: int, candidate: int) -> dict[str, Any]:
        return {"clue": clue, "rect": list(rectangles[clue][candidate])}

    def rect_text(clue: int, candidate: int) -> str:
        top, left, height, width = rectangles[clue][candidate]
        return f"the {height}x{width} rectangle at {trace.cell_words(top, left)}"

    engine, recorder, monitor = args.engine, args.recorder, args.monitor
    candidates = sum(len(clue_masks) for clue_masks in masks)
    result: SearchResult[list[int]]
    if engine == "propagate":
        recorder.describe = _propagation_describer(clue_label, place, rect_text)
        try:
            recorder.add({"type": "propagate", "depth": 0, "rule": "area", "candidates": in_area})
            recorder.add(
                {
                    "type": "propagate",
                    "depth": 0,
                    "rule": "clues",
                    "removed": in_area - candidates,
                    "candidates": candidates,
                }
            )
        except trace.TraceFull:
            pass
        if recorder.truncated:
            result = SearchResult(complete=False)
        else:
            budget.check(
                _partition_bytes(rows * cols, masks) + recorder.max_steps * trace.STEP_BYTES,
                f"the trace of propagation on {candidates:,} candidate rectangles "
                f"({recorder.max_steps:,} steps at most)",
                "use smaller clues or a smaller grid, or ask for fewer max_steps",
            )
            result = propagate.search(
                propagate.PartitionProblem(rows * cols, masks),
                limit=args.limit,
                max_kept=args.max_kept,
                monitor=monitor,
                recorder=recorder,
            )
    else:
        cells = rows * cols
        problem, owner = encode(cells, masks, monitor)

        def item_label(item: int) -> str:
            if item >= cells:
                return clue_label(item - cells)
            return f"the cell at {trace.cell_words(*divmod(item, cols))}"

        def item_value(item: int) -> dict[str, Any]:
            return {"clue": item - cells} if item >= cells else {"cell": list(divmod(item, cols))}

        recorder.describe = trace.exact_cover_describer(
            item_label,
            lambda option: f"{rect_text(*owner[option])} of {clue_label(owner[option][0])}",
            lambda option: place(*owner[option]),
            item_value,
        )
        traced = trace.search(
            problem, recorder, limit=args.limit, monitor=monitor, max_kept=args.max_kept
        )
        result = traced.map(lambda chosen: _choices(owner, len(masks), chosen))
    return result


def _propagation_describer(
    clue_label: Callable[[int], str],
    place: Callable[[int, int], dict[str, Any]],
    rect_text: Callable[[int, int], str],
) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """The protocol's steps from the propagation engine's raw steps, in Shikaku terms."""

    def describe(raw: dict[str, Any]) -> dict[str, Any]:
        kind = raw["type"]
        step: dict[str, Any] = {"type": kind, "depth": raw["depth"]}
        if kind == "propagate":
            step["rule"] = raw["rule"]
            step["candidates"] = raw["candidates"]
            removed = raw.get("removed", 0)
            if "removed" in raw:
                step["removed"] = removed
            if raw["rule"] == "area":
                step["text"] = (
                    f"{raw['candidates']} rectangles have a clue's area and hold its cell"
                )
            elif raw["rule"] == "clues":
                step["text"] = (
                    f"Dropping the {removed} that hold another clue leaves {raw['candidates']}"
                )
            elif raw["rule"] == "overlap":
                step["text"] = (
                    f"The overlap rule removes {removed} (each overlaps every rectangle left "
                    f"to another clue): {raw['candidates']} left"
                )
            elif raw.get("contradiction"):
                step["contradiction"] = True
                step["text"] = (
                    "Propagation finds a clue with no rectangle left or a cell no rectangle "
                    "can cover: a dead end"
                )
            else:
                step["text"] = (
                    f"Propagation (overlap and coverage rules) removes {removed}: "
                    f"{raw['candidates']} left"
                )
        elif kind in ("try", "force"):
            step["place"] = place(raw["variable"], raw["candidate"])
            where = rect_text(raw["variable"], raw["candidate"])
            if kind == "force":
                label = trace.capital(clue_label(raw["variable"]))
                step["text"] = f"{label} has one rectangle left: {where}"
            else:
                step["text"] = f"First part: {clue_label(raw['variable'])} takes {where}"
        elif kind == "split":
            step["clue"] = raw["variable"]
            step["first"] = place(raw["variable"], raw["candidate"])["rect"]
            step["rest"] = raw["rest"]
            step["rects"] = [place(raw["variable"], index)["rect"] for index in raw["candidates"]]
            first = rect_text(raw["variable"], raw["candidate"])
            others = "the other one" if raw["rest"] == 1 else f"one of the other {raw['rest']}"
            step["text"] = f"Split {clue_label(raw['variable'])}: {first}, or {others}"
        elif kind == "backtrack":
            step["text"] = f"Back up to depth {raw['depth']}: take the other part of the split"
        else:
            step["number"] = raw["number"]
            step["text"] = f"Solution {raw['number']}: every clue has its rectangle"
        return step

    return describe


def heatmap(
    rows: int, cols: int, clues: int, solutions: list[list[list[int]]]
) -> dict[str, list[list[int]]]:
    """Per clue index (as a string), per cell: how many solutions give that cell to the clue.
    Every clue has its grid, of zeros when there is no solution (as every kind's heatmap)."""
    counts = {str(clue): empty_grid(rows, cols) for clue in range(clues)}
    for solution in solutions:
        for clue, (top, left, height, width) in enumerate(solution):
            grid = counts[str(clue)]
            for row in range(top, top + height):
                line = grid[row]
                for col in range(left, left + width):
                    line[col] += 1
    return counts
