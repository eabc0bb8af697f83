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

Limits: at most ``MAX_SIDE`` (100) rows and columns, so at most 10,000 cells; URLs of at most
``MAX_URL_CHARS`` characters. Clues must add up to the grid's area. Each engine's memory is
estimated before it is built and checked against ``pysolver.budget``: ``dlx`` needs a link per
(rectangle, cell), so big clues with many candidates (a 100 x 100 grid of four 2500 clues) are
refused there with ``too_large`` naming ``propagate``, which holds one mask per rectangle.

URLs are puzz.link's format, read and written by ``pysolver.puzzlink``; ``to_url`` gives the
share link of a puzzle.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from pysolver import budget
from pysolver.engines import dlx, exact_cover, propagate
from pysolver.engines.exact_cover import ExactCoverProblem
from pysolver.engines.monitor import Monitor, SearchResult
from pysolver.facts import engine_facts
from pysolver.protocol import (
    TOO_LARGE,
    Query,
    SolveError,
    engine_for,
    puzzle_error,
    require_dict,
    require_int,
    require_list,
    require_str,
    response_fields,
)
from pysolver.puzzlink import MAX_URL_CHARS, URL_PATH, Clue, format_url, parse_url

ENGINE_MODULES = {"propagate": propagate, "dlx": dlx}
ENGINES = tuple(ENGINE_MODULES)

MAX_SIDE = 100

Rectangle = tuple[int, int, int, int]


def facts() -> dict[str, Any]:
    """What the page needs to know about this kind (see ``pysolver.facts``)."""
    return {
        "title": "Shikaku",
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
                    f"the URL's {name} is {side}; the largest grid side is {MAX_SIDE}",
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
            size = require_int(clue[2], f"{path}[2]", 1)
            clues.append((row, col, size))
        clue_path = "puzzle.clues"
    _check_clues(rows, cols, clues, clue_path)
    return rows, cols, clues


def _read_side(value: Any, path: str) -> int:
    side = require_int(value, path, minimum=1)
    if side > MAX_SIDE:
        raise SolveError(TOO_LARGE, f"{path} is {side}; the largest grid side is {MAX_SIDE}", path)
    return side


def _check_clues(rows: int, cols: int, clues: list[Clue], path: str) -> None:
    seen: dict[tuple[int, int], int] = {}
    for index, (row, col, _size) in enumerate(clues):
        first = seen.setdefault((row, col), index)
        if first != index:
            where = f"{path}[{index}]" if path == "puzzle.clues" else path
            raise puzzle_error(
                f"clue {index} is on the same cell (row {row}, col {col}) as clue {first}; "
                "a cell holds at most one clue",
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


def solve(puzzle: Any, query: Query) -> dict[str, Any]:
    """Cut the grid; see the module docstring for the puzzle, the engines and the fields."""
    rows, cols, clues = parse_puzzle(puzzle)
    engine = engine_for(query, ENGINES)
    monitor = Monitor(query.progress, query.cancel)
    rectangles, masks, in_area = candidate_rectangles(rows, cols, clues, monitor)
    needed = {name: estimate(rows * cols, masks) for name, estimate in _ESTIMATES.items()}
    if not budget.fits(needed[engine]):
        fitting = [name for name in ENGINES if budget.fits(needed[name])]
        if fitting and query.engine is None:
            engine = fitting[0]
        else:
            budget.check(
                needed[engine],
                f"the {engine} engine on {sum(map(len, masks)):,} candidate rectangles",
                "use smaller clues or a smaller grid",
                fits=fitting[0] if fitting else "",
            )
    search = _SEARCHES[engine]
    # A listed solution: the engine's choice per clue, a rectangle list per clue, JSON text.
    solution_bytes = budget.list_bytes(len(clues), budget.INT_BYTES + budget.list_bytes(4)) + (
        20 * len(clues)
    )
    result = search(
        rows * cols,
        masks,
        limit=query.search_limit,
        keep_solutions=query.wants_solutions,
        max_kept=budget.listed_cap(solution_bytes, 20 * len(clues)),
        rng=query.rng() if query.mode == "random" else None,
        monitor=monitor,
    )
    extra: dict[str, Any] = {}
    if isinstance(puzzle, dict) and "url" in puzzle:
        # The caller only has the URL: give back what it means, so clues can be drawn.
        extra["puzzle"] = {"rows": rows, "cols": cols, "clues": [list(c) for c in clues]}
    return response_fields(
        result.map(lambda choices: decode(rectangles, choices)),
        engine,
        stats={
            "candidates_area": in_area,
            "candidates": sum(len(clue_masks) for clue_masks in masks),
        },
        **extra,
    )


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
    **search: Any,
) -> SearchResult[list[int]]:
    """The ``propagate`` engine: a solution is the candidate chosen for each clue."""
    return propagate.search(propagate.PartitionProblem(cells, masks), **search)


def _search_exact_cover(
    cells: int,
    masks: list[list[int]],
    **search: Any,
) -> SearchResult[list[int]]:
    """The ``dlx`` engine on ``encode``'s matrix; its option lists become candidate choices."""
    problem, owner = encode(cells, masks, search["monitor"])
    result = exact_cover.search(problem, "dlx", **search)

    def choices(chosen: list[int]) -> list[int]:
        choice_of = [0] * len(masks)
        for option in chosen:
            clue, choice = owner[option]
            choice_of[clue] = choice
        return choice_of

    return result.map(choices)


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


# ---------------------------------------------------------------- generating


def generate(rows: int, cols: int, seed: int, max_area: int = 12) -> dict[str, Any]:
    """A random puzzle: the grid cut into rectangles of at most ``max_area`` cells (seeded),
    a clue at a random cell of each. It has at least that solution, often many more."""
    if rows < 1 or cols < 1 or max_area < 1:
        raise ValueError("rows, cols and max_area must be at least 1")
    rng = random.Random(seed)
    taken = [[False] * cols for _ in range(rows)]
    clues: list[list[int]] = []
    for row in range(rows):
        for col in range(cols):
            if taken[row][col]:
                continue
            # Cells left of and above a free cell in row-major order are taken, so any
            # rectangle whose top-left is here only has to avoid rectangles hanging down.
            max_width = 0
            while col + max_width < cols and not taken[row][col + max_width]:
                max_width += 1
            # Single cells make dull clues; allow them only when nothing else fits.
            for _attempt in range(4):
                width = rng.randint(1, min(max_width, max_area))
                max_height = min(rows - row, max_area // width)
                free_height = 1
                while free_height < max_height and not any(
                    taken[row + free_height][col : col + width]
                ):
                    free_height += 1
                height = rng.randint(1, free_height)
                if height * width > 1:
                    break
            for r in range(row, row + height):
                for c in range(col, col + width):
                    taken[r][c] = True
            clue_row = row + rng.randrange(height)
            clue_col = col + rng.randrange(width)
            clues.append([clue_row, clue_col, height * width])
    return {"rows": rows, "cols": cols, "clues": clues}
