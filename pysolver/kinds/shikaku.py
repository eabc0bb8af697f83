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
``MAX_URL_CHARS`` characters. Clues must add up to the grid's area.

URLs follow puzz.link / pzprjs (also pzv.jp, pzprxs.vercel.app, any host, http or https, or the
bare ``shikaku/<cols>/<rows>/<data>``): cells row by row, a number as one hex digit (0-15),
``-`` + two hex digits (16-255), ``+`` + three (256-4095), ``=`` + three (4096 more) or ``%`` +
three (8192 more); ``g``..``z`` skip 1..20 blank cells. ``to_url`` writes the same format.
"""

from __future__ import annotations

import random
from typing import Any

from pysolver.engines import dlx, propagate
from pysolver.engines.exact_cover import ExactCoverProblem
from pysolver.engines.exact_cover import search as exact_cover_search
from pysolver.engines.exact_cover import split as exact_cover_split
from pysolver.engines.monitor import Monitor, SearchResult
from pysolver.engines.subtree import Split
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
)

ENGINES = ("propagate", "dlx")

MAX_SIDE = 100
MAX_URL_CHARS = 100_000

Clue = tuple[int, int, int]
Rectangle = tuple[int, int, int, int]


def facts() -> dict[str, Any]:
    """What the page needs to know about this kind (see ``pysolver.facts``)."""
    return {
        "title": "Shikaku",
        **engine_facts({"propagate": propagate, "dlx": dlx}),
        "limits": {"max_rows": MAX_SIDE, "max_cols": MAX_SIDE, "max_url_chars": MAX_URL_CHARS},
    }


# ---------------------------------------------------------------- reading puzzles


def parse_puzzle(puzzle: Any) -> tuple[int, int, list[Clue]]:
    """Validate a puzzle (grid form or URL form) into ``(rows, cols, clues)``."""
    puzzle = require_dict(puzzle, "puzzle")
    if "url" in puzzle:
        url = require_str(puzzle["url"], "puzzle.url")
        rows, cols, clues = parse_url(url)
        clue_path = "puzzle.url"
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


def parse_url(url: str) -> tuple[int, int, list[Clue]]:
    """Read a puzz.link / pzprjs Shikaku URL into ``(rows, cols, clues)``."""
    path = "puzzle.url"
    if len(url) > MAX_URL_CHARS:
        raise SolveError(
            TOO_LARGE, f"the URL has {len(url):,} characters; the limit is {MAX_URL_CHARS:,}", path
        )
    text = url.strip()
    if "?" in text:
        text = text.split("?", 1)[1]
    text = text.split("#", 1)[0].strip("/")
    parts = text.split("/")
    kind = parts[0].lower().removesuffix("_edit")
    if kind not in ("shikaku", "sikaku"):
        raise puzzle_error(
            f"not a Shikaku URL: expected ...?shikaku/<cols>/<rows>/<data>, found {parts[0]!r} "
            "where the puzzle type should be",
            path,
        )
    # Skip flag tokens some editors insert before the size (e.g. "edit").
    fields = [part for part in parts[1:] if part]
    while fields and not fields[0].isdigit() and len(fields) > 3:
        fields.pop(0)
    if len(fields) < 2:
        raise puzzle_error(
            "the URL lacks the grid size: expected shikaku/<cols>/<rows>/<data>", path
        )
    for name, value in (("columns", fields[0]), ("rows", fields[1])):
        if not value.isdigit():
            raise puzzle_error(f"the URL's {name} {value!r} is not a whole number", path)
    cols, rows = int(fields[0]), int(fields[1])
    for name, side in (("columns", cols), ("rows", rows)):
        if side < 1:
            raise puzzle_error(f"the URL's {name} must be at least 1, got {side}", path)
        if side > MAX_SIDE:
            raise SolveError(
                TOO_LARGE, f"the URL's {name} is {side}; the largest grid side is {MAX_SIDE}", path
            )
    data = "/".join(fields[2:])
    return rows, cols, _decode_numbers(data, rows, cols)


# Prefix -> (hex digits that follow, value added): pzprjs' number encoding.
_NUMBER_PREFIXES = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "%": (3, 8192)}
_HEX = "0123456789abcdef"


def _decode_numbers(data: str, rows: int, cols: int) -> list[Clue]:
    path = "puzzle.url"
    cells = rows * cols
    clues: list[Clue] = []
    cell = 0
    position = 0
    while position < len(data):
        char = data[position]
        if cell >= cells:
            raise puzzle_error(
                f"the URL data goes on past the last of the {cells} cells ({cols} x {rows}) at "
                f"character {position}; is the size right?",
                path,
            )
        if char in _HEX:
            clues.append((cell // cols, cell % cols, int(char, 16)))
            cell += 1
            position += 1
        elif char in _NUMBER_PREFIXES:
            digits, offset = _NUMBER_PREFIXES[char]
            chunk = data[position + 1 : position + 1 + digits]
            if len(chunk) != digits or any(c not in _HEX for c in chunk):
                raise puzzle_error(
                    f"the URL data has {char!r} at character {position} followed by "
                    f"{chunk!r}; it must be followed by {digits} hex digits",
                    path,
                )
            clues.append((cell // cols, cell % cols, int(chunk, 16) + offset))
            cell += 1
            position += 1 + digits
        elif "g" <= char <= "z":
            cell += int(char, 36) - 15
            position += 1
        elif char == ".":
            raise puzzle_error(
                f"the URL has a question-mark clue at row {cell // cols}, col {cell % cols}; "
                "this solver needs every clue's number",
                path,
            )
        else:
            raise puzzle_error(
                f"the URL data has an unexpected character {char!r} at position {position}",
                path,
            )
    for row, col, size in clues:
        if size < 1:
            raise puzzle_error(
                f"the URL has a clue {size} at row {row}, col {col}; clues must be at least 1",
                path,
            )
    return clues


def to_url(puzzle: dict[str, Any]) -> str:
    """The puzz.link URL of a puzzle (validated first), for share links."""
    rows, cols, clues = parse_puzzle(puzzle)
    by_cell = {row * cols + col: size for row, col, size in clues}
    pieces: list[str] = []
    blanks = 0
    for cell in range(rows * cols):
        size = by_cell.get(cell)
        if size is None:
            blanks += 1
            if blanks == 20:
                pieces.append("z")
                blanks = 0
            continue
        if blanks:
            pieces.append(chr(ord("f") + blanks))
            blanks = 0
        pieces.append(_encode_number(size))
    if blanks:
        pieces.append(chr(ord("f") + blanks))
    return f"https://puzz.link/p?shikaku/{cols}/{rows}/{''.join(pieces)}"


def _encode_number(size: int) -> str:
    if size < 16:
        return format(size, "x")
    if size < 256:
        return "-" + format(size, "02x")
    if size < 4096:
        return "+" + format(size, "03x")
    if size < 8192:
        return "=" + format(size - 4096, "03x")
    return "%" + format(size - 8192, "03x")


# ---------------------------------------------------------------- candidates


def candidate_rectangles(
    rows: int, cols: int, clues: list[Clue]
) -> tuple[list[list[Rectangle]], list[list[int]], int]:
    """Per clue, its candidate rectangles and their cell bitmasks (bit ``row * cols + col``).

    Also returns how many rectangles of the right area hold their clue cell before those
    holding another clue are dropped (a statistic).
    """
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


def solve(puzzle: Any, query: Query) -> dict[str, Any]:
    rows, cols, clues = parse_puzzle(puzzle)
    engine = engine_for(query, ENGINES)
    rectangles, masks, in_area = candidate_rectangles(rows, cols, clues)
    monitor = Monitor(query.progress, query.cancel)
    rng = query.rng() if query.mode == "random" else None
    keep = query.wants_solutions
    stats: dict[str, Any] = {
        "candidates_area": in_area,
        "candidates": sum(len(clue_masks) for clue_masks in masks),
    }
    path = query.subtree_path()
    if engine == "propagate":

        def run(problem: propagate.PartitionProblem) -> SearchResult:
            return propagate.search(
                problem, limit=query.limit, keep_solutions=keep, rng=rng, monitor=monitor
            )

        partition = propagate.PartitionProblem(rows * cols, masks)
        if path is not None:  # a parallel task: one subtree of the search
            result = propagate.search_subtree(partition, path, run)
        else:
            result = run(partition)
        solutions = [
            [list(rectangles[clue][choice]) for clue, choice in enumerate(solution)]
            for solution in result.solutions
        ]
    else:
        result, solutions = _solve_exact_cover(rows * cols, rectangles, masks, query, rng, monitor)
    stats.update(result.stats)
    response: dict[str, Any] = {
        "engine": engine,
        "count": result.count,
        "complete": result.complete,
        "solutions": solutions,
        "stats": stats,
    }
    if result.cancelled:
        response["cancelled"] = True
    if isinstance(puzzle, dict) and "url" in puzzle:
        # The caller only has the URL: give back what it means, so clues can be drawn.
        response["puzzle"] = {"rows": rows, "cols": cols, "clues": [list(c) for c in clues]}
    return response


def _solve_exact_cover(
    cells: int,
    rectangles: list[list[Rectangle]],
    masks: list[list[int]],
    query: Query,
    rng: random.Random | None,
    monitor: Monitor,
) -> tuple[SearchResult, list[list[list[int]]]]:
    problem, owner = _exact_cover_problem(cells, masks)
    result = exact_cover_search(
        problem,
        "dlx",
        limit=query.limit,
        keep_solutions=query.wants_solutions,
        rng=rng,
        monitor=monitor,
        path=query.subtree_path(),
    )
    solutions = []
    for chosen in result.solutions:
        solution: list[list[int]] = [[] for _ in masks]
        for option in chosen:
            clue, choice = owner[option]
            solution[clue] = list(rectangles[clue][choice])
        solutions.append(solution)
    return result, solutions


def _exact_cover_problem(
    cells: int, masks: list[list[int]]
) -> tuple[ExactCoverProblem, list[tuple[int, int]]]:
    """Items: cells ``0 .. cells-1`` then one per clue, all primary; an option per rectangle
    (with its clue and candidate number)."""
    options: list[list[int]] = []
    owner: list[tuple[int, int]] = []
    for clue, clue_masks in enumerate(masks):
        for choice, mask in enumerate(clue_masks):
            option = [cells + clue]
            while mask:
                low = mask & -mask
                option.append(low.bit_length() - 1)
                mask ^= low
            options.append(option)
            owner.append((clue, choice))
    return ExactCoverProblem(cells + len(masks), 0, options), owner


def split(puzzle: Any, query: Query, wanted: int) -> list[Split | None]:
    """The search ``solve`` runs, cut into about ``wanted`` subtrees (see pysolver.parallel)."""
    rows, cols, clues = parse_puzzle(puzzle)
    engine = engine_for(query, ENGINES)
    _rectangles, masks, _in_area = candidate_rectangles(rows, cols, clues)
    if engine == "propagate":
        return [propagate.split(propagate.PartitionProblem(rows * cols, masks), wanted)]
    return [exact_cover_split(_exact_cover_problem(rows * cols, masks)[0], wanted)]


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
