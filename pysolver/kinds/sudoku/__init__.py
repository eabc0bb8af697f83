"""Sudoku of any box shape, as exact cover.

Puzzle::

    {"grid": "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"}
    {"grid": [[5, 3, 0, 0, 7, 0, 0, 0, 0], ...], "box": [3, 3]}

``grid`` is either a string of n*n symbols, row by row, or a list of n rows. Rows of a list are
lists of ints (0 is blank) or strings of n symbols.

String symbols: ``.``, ``0`` or ``_`` is a blank, ``1``-``9`` are 1-9 and letters are 10 and up
(``A`` = 10 ... ``Z`` = 35), case-insensitive. Whitespace and the box-drawing characters ``|``,
``-`` and ``+`` are ignored, so a grid pasted with line breaks, spaces or box lines (``--+--``)
works. The size n comes from the length: n*n symbols.

16x16 grids come in two styles, told apart by the optional ``"symbols"`` field or, by default
(``"auto"``), by this rule: a 256-symbol grid is **0-F style** when it contains a ``0``, at least
one ``.`` and no ``G``; otherwise it is **1-G style**. In 1-G style ``1``-``9`` and ``A``-``G``
are 1-16 and ``0``, ``.`` or ``_`` is a blank. In 0-F style ``0``-``9`` and ``A``-``F`` are the
16 symbols and only ``.`` or ``_`` is a blank. Either way solutions are ints 1..n: in 0-F style
symbol ``s`` becomes ``s + 1`` (``0`` is 1, ``F`` is 16). The response's ``symbols`` field says
which style was read, so a front end can print solutions back in the same style.

Boxes: ``"box": [rows, cols]`` with rows * cols = n. Without it, a square n uses square boxes and
other n use the most nearly square shape with rows <= cols and rows >= 2 (6: 2x3, 8: 2x4, 12:
3x4, 10: 2x5); a prime n needs an explicit box (``[1, n]`` makes a Latin square). Sizes go up
to n = 36 (``MAX_SIZE``); string grids up to 35 (the last letter is Z).

Encoding: items are "cell filled", "row has digit", "column has digit", "box has digit" (4 n^2 in
all), but givens are applied while the matrix is built: an option that clashes with a given is
never created and items a given already satisfies are not created, so the matrix holds only the
open cells' candidates.

Variants (Tatham's Solo): ``"regions"`` (jigsaw, replacing the boxes), ``"diagonals": true``
(Sudoku X) and ``"cages"`` (killer), in any combination; read, encoded and labelled by
``pysolver.kinds.sudoku.variants`` (``parse_variants`` and ``encode`` call it), and served by
every engine, trace, heatmap and split below unchanged. A jigsaw's response has no ``box``.

Engines: ``masks`` (default, ``pysolver.engines.masks``) searches the grid as cells with
candidate masks and units (rows, columns, boxes or regions, diagonals) that hold each digit once,
killer cages as digit sets, with the cages the rule of 45 implies (``masks_problem``,
``cages.masks_cages``): naked and hidden singles for all cells at once, then a branch on a
cell with the fewest candidates. Its answers are the filled grids
(``masks_plan``); trace and estimate modes, which walk an exact cover tree, run on
``MASKS_STANDIN`` (``singles``) instead, and so do grids larger than ``MASKS_DEFAULT_MOST``
(9x9) unless the request names masks; the response names the engine that ran. The other engines
search the exact cover (``encode``, ``exact_cover_plan``): ``singles`` forces naked and hidden
singles before each branch (``pysolver.engines.singles``); ``locked`` also strikes what locked
candidates (pointing, claiming) rule out, to the fixpoint with the singles
(``pysolver.engines.locked``): fewer nodes, each dearer; ``dlx`` and ``bitset`` are plain
Algorithm X. All give the same counts and solution sets (in each engine's search order).
Measured (CPU seconds, best of 3, README "Sudoku solve speed"): the 311 hard puzzles of
``bench/bench_sudoku.py`` proved unique, masks 0.34 s, singles 0.385 s, locked 0.365 s (about 6x
the plain C DLX's search); top95, masks 0.230 s, singles 0.217 s, locked 0.175 s. Their
``stats.nodes`` differ in meaning: masks, singles and locked count branching choices only, the
exact cover engines count every option chosen.

Response fields besides the protocol's: solutions are lists of rows of ints 1..n; ``unique`` is
true/false when the search decides it (two solutions found, or the search space exhausted: so
``limit`` >= 2 in solve mode, or count mode), ``size`` is n, ``box`` the box shape, ``symbols``
the string style read ("1-G" or "0-F" for 16x16, "digits" otherwise, "ints" for lists of ints).

Trace mode: the steps of the engine's tree (``pysolver.engines.trace``); with ``locked`` and
``singles``, forced digits (naked and hidden singles) are ``force`` steps. A ``choose`` step's
``item`` is ``{"cell": [r, c]}``, ``{"row": r, "digit": d}``, ``{"column": c, "digit": d}`` or
``{"box": b, "digit": d}`` (0-based, boxes row by row); ``place`` is ``{"cell": [r, c], "value":
d}``; the givens are not steps. Heatmap (count mode): per digit as a string, per cell, how many
solutions have it there (givens count in every solution).

Human messages count rows, columns and boxes from 1 (boxes row by row) and say so; JSON
solutions, like every kind, are plain rows of ints.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from functools import cache, lru_cache, partial
from itertools import repeat
from typing import Any

from pysolver import budget
from pysolver.engines import cover, masks, trace
from pysolver.engines.cover import ExactCoverProblem, engine_modules
from pysolver.engines.monitor import Monitor, SearchResult
from pysolver.engines.subtree import Split
from pysolver.facts import engine_facts
from pysolver.kinds.sudoku import assisting as sudoku_assist
from pysolver.kinds.sudoku import explaining as sudoku_explain
from pysolver.kinds.sudoku import generating as sudoku_generate
from pysolver.kinds.sudoku import killer_generating
from pysolver.kinds.sudoku import pasted as sudoku_pasted
from pysolver.kinds.sudoku import pictures as sudoku_pictures
from pysolver.kinds.sudoku import techniques as sudoku_techniques
from pysolver.kinds.sudoku import variants as sudoku_variants
from pysolver.kinds.sudoku.board import Grid, standard_shape
from pysolver.kinds.sudoku.cages import masks_cages
from pysolver.kinds.sudoku.pictures import SYMBOLS
from pysolver.kinds.sudoku.pictures import solution_svg as solution_svg
from pysolver.kinds.sudoku.pictures import solution_text as solution_text
from pysolver.kinds.sudoku.variants import PLAIN, Variants
from pysolver.logic.step import techniques_facts
from pysolver.midend.plan import (
    AssistArgs,
    Assisted,
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

# The kind's place in the registry: its tab, its place in menus and lists of kinds.
ORDER = 20
# A small puzzle with a few solutions (the tests and benchmarks of every kind run it).
EXAMPLE: dict[str, Any] = {"kind": "sudoku", "puzzle": {"grid": "1234" + "." * 12}}

ENGINE_MODULES = {"masks": masks, **engine_modules("singles", "locked", "dlx", "bitset")}
# The default engine searches cell masks, not an exact cover tree: trace mode (the step view
# reads exact cover steps) and estimate mode (its random paths follow exact cover trees) run
# on this exact cover engine instead.
MASKS_STANDIN = "singles"
# The default engine takes grids up to this size; larger ones run on MASKS_STANDIN unless the
# request names masks. Measured (CPU s, one request, limit 1 or 2): masks is 0.9x singles'
# time on hard 9x9 sets and 0.84x on a 9x9 count of 67,768 solutions, but on empty grids 2x at
# 12x12, 3x at 16x16 and 3.4x at 25x25 (every placement changes every symbol's board, and a
# board is about 4 n^3 bits: each hidden-single check costs more as n grows).
MASKS_DEFAULT_MOST = 9
ENGINES = tuple(ENGINE_MODULES)
# The puzzle's fields and the request's options beyond the protocol's (none): any other field
# is refused by the midend.
PUZZLE_FIELDS = ("grid", "box", "symbols", "regions", "diagonals", "cages")
# Generate mode (``generate`` below): the puzzle's fields, the levels, and the request's
# options, which only generate mode takes.
GENERATE_FIELDS = ("size", "variant")
# The puzzle of a small generate request (made in well under a second), for generic tests.
GENERATE_EXAMPLE: dict[str, Any] = {"size": 4}
# The puzzle of ``pysolver generate sudoku`` without --size: the size most people play.
GENERATE_DEFAULT: dict[str, Any] = {"size": 9}
DIFFICULTIES = sudoku_generate.DIFFICULTIES
GENERATE_OPTIONS = ("difficulty", "symmetry")
# What generate mode accepts, published in facts.json for the page's "New puzzle" fields.
GENERATE_LIMITS = {
    "sizes": list(sudoku_generate.SIZES),
    "variants": list(sudoku_generate.VARIANTS),
    "variant_sizes": {name: list(sizes) for name, sizes in sudoku_generate.VARIANT_SIZES.items()},
}
# The sizes that cannot make every level (facts.json's generate.levels_by_size): standard
# grids by size ("4"), killers by "killer:<size>" (the page looks a variant's key up first).
GENERATE_LEVELS_BY_SIZE = {
    **{str(size): list(levels) for size, levels in sudoku_generate.LEVELS_BY_SIZE.items()},
    **{f"killer:{size}": list(levels) for size, levels in killer_generating.LEVELS_BY_SIZE.items()},
}
OPTIONS: tuple[str, ...] = GENERATE_OPTIONS
SPLITTABLE = True
# Hint mode (``hint`` below): the player's digits and pencil marks beside the givens.
HINT_FIELDS = ("entries", "candidates")

MAX_SIZE = 36
BLANKS = ".0_"
# Blanks that stay blanks in the 0-F style of 16x16 grids (where "0" is a symbol).
ZERO_F_BLANKS = "._"
# Characters people draw boxes with in pasted grids ("--+--", "1 2 3 | 4 5 6"): ignored.
LAYOUT = "|-+"
_DROP_LAYOUT = str.maketrans("", "", LAYOUT)
STYLES = ("auto", "1-G", "0-F")
GRID_PATH = "puzzle.grid"
COUNT_FROM_ONE = "rows, columns and boxes count from 1"
# The sizes offered by name in messages and on the page; any n up to MAX_SIZE works with a box.
STANDARD_SIZES = (4, 6, 8, 9, 12, 16, 25)
# The box "shape" of a jigsaw (regions replace the boxes): a box of a whole row, which checks
# nothing the rows do not, so any n, prime ones too, has one.
JIGSAW = object()

# The 0-F style of 16x16 grids: the symbol of value v is ZERO_F_SYMBOLS[v - 1].
ZERO_F_SYMBOLS = "0123456789ABCDEF"


def read_pasted(text: str) -> dict[str, Any] | None:
    """The kind's paste reader (``pasted.read_pasted``: Sudoku lines, Solo game IDs, addresses,
    puzz.link URLs), sizes up to ``MAX_SIZE``."""
    return sudoku_pasted.read_pasted(text, MAX_SIZE)


def facts() -> dict[str, Any]:
    """What the page needs to know about this kind (see ``pysolver.facts``)."""
    return {
        "title": "Sudoku",
        "help": (
            "Fill the grid so that every row, column and box holds each symbol once. The default "
            "engine is propagation on bit masks: it places what is forced (naked and hidden "
            "singles, for all cells at once), then branches; the other engines search the grid "
            "as an exact cover (Algorithm X)."
        ),
        **engine_facts(ENGINE_MODULES),
        "limits": {"max_size": MAX_SIZE},
        "sizes": [{"n": n, "box": list(_box_shape(n, None))} for n in STANDARD_SIZES],
        "symbols": SYMBOLS[: MAX_SIZE - 1],
        "blanks": BLANKS,
        "layout": LAYOUT,
        # The two styles of 16x16 grids (see the module docstring): symbols, blanks, a label.
        "styles": {
            "1-G": {"symbols": SYMBOLS[:16], "blanks": BLANKS, "label": "1-9, A-G"},
            "0-F": {"symbols": ZERO_F_SYMBOLS, "blanks": ZERO_F_BLANKS, "label": "0-9, A-F"},
        },
    }


def puzzle_text(puzzle: Any) -> str:
    """The givens as a picture, ``.`` for a blank (``pictures.puzzle_text``: a generated
    puzzle in text): the boxes' lines, a jigsaw's region walls around the digits, or a
    killer's cage walls with each sum in its cage's first cell."""
    n, box_rows, box_cols, values, _style = parse_puzzle(puzzle)
    rows = [values[r * n : (r + 1) * n] for r in range(n)]
    if sudoku_variants.has_regions(puzzle):
        return sudoku_pictures.regions_text(puzzle["regions"], rows)
    if puzzle.get("cages"):
        return (
            sudoku_pictures.cages_text(puzzle["cages"], rows)
            + "\n(killer: each cage's sum is in its first cell; its digits differ and add up to"
            + " it; rows, columns and boxes hold every digit once)"
        )
    text = solution_text({**puzzle, "box": [box_rows, box_cols]}, rows)
    if puzzle.get("diagonals"):
        text += "\n(X: each diagonal holds every digit once too)"
    return text


def _symbol_value(char: str) -> int:
    """1-9 for digits, 10-35 for letters, 0 for a blank, -1 for anything else."""
    if char in BLANKS:
        return 0
    if "1" <= char <= "9":
        return ord(char) - 48
    # ASCII letters only: other letters may upper-case to an ASCII one ("ı" to "I") or to two
    # letters ("ﬀ" to "FF").
    if "A" <= char <= "Z":
        return ord(char) - 55
    if "a" <= char <= "z":
        return ord(char) - 87
    return -1


# ---------------------------------------------------------------- reading the grid

# ``_symbol_value`` of every symbol and blank (anything else is -1), looked up per character.
_SYMBOL_VALUES = {char: _symbol_value(char) for char in BLANKS + SYMBOLS + SYMBOLS[9:].lower()}


def _sizes_text() -> str:
    return ", ".join(f"{n * n} ({n}x{n})" for n in STANDARD_SIZES)


def _size_from_length(length: int, path: str) -> int:
    n = math.isqrt(length)
    if n * n != length or n < 1:
        raise puzzle_error(
            f"the grid has {length} symbols, which is not a square number; a grid needs n*n "
            f"symbols, e.g. {_sizes_text()} (blanks as '.', '0' or '_'; spaces, line breaks, "
            "'|', '-' and '+' ignored)",
            path,
        )
    return n


def _parse_string(
    text: str, style: str, box: Any, path: str
) -> tuple[int, tuple[int, int], list[int], str]:
    """Return (n, box shape, values row by row with 0 for blank, style read)."""
    symbols = "".join(text.split()).translate(_DROP_LAYOUT)
    if not symbols:
        raise puzzle_error("the grid is empty; give n*n symbols, e.g. 81 for 9x9", path)
    n = _size_from_length(len(symbols), path)
    if n > 35:
        raise puzzle_error(
            f"a {n}x{n} grid cannot be written as a string (the last symbol, Z, is 35); "
            "give it as a list of rows of ints",
            path,
        )
    # The shape first: a truncated paste of a 9x9 grid (say 9 symbols) should hear about sizes,
    # not about its digits being too large for a 3x3 grid.
    shape = _box_shape(n, box)
    if style == "auto":
        zero_based = n == 16 and "0" in symbols and "." in symbols and not {"G", "g"} & set(symbols)
    else:
        zero_based = style == "0-F"
        if zero_based and n != 16:
            raise puzzle_error(f'"symbols": "0-F" is for 16x16 grids; this one is {n}x{n}', path)
    read = "0-F" if zero_based else "1-G" if n == 16 else "digits"
    if not zero_based:
        # The common case by one table look-up per symbol; the loop below words what is wrong.
        values = list(map(_SYMBOL_VALUES.get, symbols, repeat(-1)))
        if min(values) >= 0 and max(values) <= n:
            return n, shape, values, read
    values = []
    append = values.append
    # Character by character: a string's upper case can be longer than the string ("ﬀ").
    for position, char in enumerate(symbols):
        value = _symbol_value(char)
        if zero_based and value >= 0 and char not in ZERO_F_BLANKS:
            # 0-F style: "0" is the first symbol, not a blank; everything shifts up by one.
            value = 1 if char == "0" else value + 1
        if value < 0 or value > n:
            row, col = divmod(position, n)
            if value < 0:
                reason = (
                    "is not a symbol: use '.' or '_' for blanks, 0-9 and A-F"
                    if zero_based
                    else "is not a symbol: use '.', '0' or '_' for blanks, 1-9 then A-Z above 9"
                )
            else:
                allowed = "0-9 and A-F" if zero_based else _allowed_symbols(n)
                reason = f"means {value}, but a {n}x{n} grid uses only {allowed}"
            raise puzzle_error(
                f"symbol {shown(char)} at row {row + 1}, column {col + 1} {reason} "
                f"({COUNT_FROM_ONE})",
                path,
            )
        append(value)
    return n, shape, values, read


def _allowed_symbols(n: int) -> str:
    if n <= 9:
        return f"1-{n}"
    return f"1-9 and A-{chr(55 + n)}"


def _parse_rows(
    rows: list[Any], style: str, box: Any, path: str
) -> tuple[int, tuple[int, int], list[int], str]:
    n = len(rows)
    if n == 0:
        raise puzzle_error("the grid has no rows", path)
    if all(isinstance(row, str) for row in rows):
        for r, row in enumerate(rows):
            length = len("".join(row.split()).translate(_DROP_LAYOUT))
            if length != n:
                raise puzzle_error(
                    f"row {r + 1} has {length} symbols, but a grid of {n} rows needs {n} in each "
                    f"({COUNT_FROM_ONE})",
                    f"{path}[{r}]",
                )
        return _parse_string("".join(rows), style, box, path)
    if n > MAX_SIZE:
        raise puzzle_error(
            f"the grid has {n} rows; the largest size is {MAX_SIZE}x{MAX_SIZE}", path
        )
    shape = _box_shape(n, box)
    values = []
    for r, row in enumerate(rows):
        row_path = f"{path}[{r}]"
        row = require_list(row, row_path)
        if len(row) != n:
            raise puzzle_error(
                f"row {r + 1} has {len(row)} entries, but a grid of {n} rows needs {n} in each "
                f"({COUNT_FROM_ONE})",
                row_path,
            )
        for c, value in enumerate(row):
            values.append(require_int(value, f"{row_path}[{c}]", minimum=0, maximum=n))
    return n, shape, values, "ints"


def _box_shape(n: int, box: Any) -> tuple[int, int]:
    if box is JIGSAW:
        return 1, n
    if box is None:
        if n == 1:
            return 1, 1
        rows = math.isqrt(n)
        while rows > 1 and n % rows:
            rows -= 1
        if rows < 2:
            raise puzzle_error(
                f"a {n}x{n} grid ({n * n} cells) has no standard box shape ({n} is prime); give "
                f'"box": [rows, cols] with rows * cols = {n}, e.g. [1, {n}] for a Latin square, '
                f"or use a size such as {_sizes_text()}",
                GRID_PATH,
            )
        return rows, n // rows
    box = require_list(box, "puzzle.box")
    if len(box) != 2:
        raise puzzle_error("box must be [rows, cols], two integers", "puzzle.box")
    rows = require_int(box[0], "puzzle.box[0]", minimum=1, maximum=n)
    cols = require_int(box[1], "puzzle.box[1]", minimum=1, maximum=n)
    if rows * cols != n:
        raise puzzle_error(
            f"a box of {rows}x{cols} holds {rows * cols} cells, but a {n}x{n} grid needs boxes of "
            f"{n} cells (rows * cols = {n})",
            "puzzle.box",
        )
    return rows, cols


@cache
def _cell_units(n: int, box_rows: int, box_cols: int) -> tuple[tuple[int, int, int], ...]:
    """Per cell, row by row: its (row, column, box), boxes numbered row by row; computed once
    per shape (a few hundred tuples at most, 1,296 for 36x36)."""
    boxes_across = n // box_cols
    return tuple(
        (r, c, (r // box_rows) * boxes_across + c // box_cols) for r in range(n) for c in range(n)
    )


# Masks of up to this many bits have their digits tabled (4,096 tuples for 12x12); wider ones
# are split bit by bit on each call.
TABLED_MASK_BITS = 12


def _bit_digits(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first, as 0-based digits."""
    digits = []
    while mask:
        low = mask & -mask
        mask ^= low
        digits.append(low.bit_length() - 1)
    return digits


@cache
def _mask_digits(n: int) -> Callable[[int], Sequence[int]]:
    """For an n-digit mask, its set bits lowest first: a table look-up up to
    ``TABLED_MASK_BITS`` digits (built once; encoding splits a mask per open cell and unit)."""
    if n > TABLED_MASK_BITS:
        return _bit_digits
    return tuple(tuple(_bit_digits(mask)) for mask in range(1 << n)).__getitem__


def parse_puzzle(puzzle: Any) -> tuple[int, int, int, list[int], str]:
    """Validate a puzzle: (n, box rows, box cols, values row by row with 0 blank, style read).

    Givens that clash are an error too (see ``check_givens``). A jigsaw (``"regions"``) reads
    as boxes of one row each; ``parse_variants`` reads its regions.
    """
    n, box_rows, box_cols, values, read = read_puzzle(puzzle)
    check_givens(n, box_rows, box_cols, values, read)
    return n, box_rows, box_cols, values, read


def read_puzzle(puzzle: Any) -> tuple[int, int, int, list[int], str]:
    """``parse_puzzle`` without the clash check: assist mode reads clashing givens to say
    which of them clash."""
    puzzle = require_dict(puzzle, "puzzle")
    if "grid" not in puzzle:
        raise puzzle_error('the puzzle has no "grid"', "puzzle")
    style = puzzle.get("symbols", "auto")
    style = require_str(style, "puzzle.symbols")
    if style not in STYLES:
        raise puzzle_error(
            f"unknown symbols style {shown(style)}; choose one of {', '.join(STYLES)}",
            "puzzle.symbols",
        )
    grid = puzzle["grid"]
    box = puzzle.get("box")
    if sudoku_variants.has_regions(puzzle):
        if box is not None:
            raise puzzle_error(
                'regions replace the boxes: leave out "box" in a jigsaw', "puzzle.box"
            )
        box = JIGSAW
    if isinstance(grid, str):
        n, shape, values, read = _parse_string(grid, style, box, GRID_PATH)
    elif isinstance(grid, list):
        n, shape, values, read = _parse_rows(grid, style, box, GRID_PATH)
    else:
        raise puzzle_error(
            f"the grid must be a string of n*n symbols or a list of n rows, not {_json_type(grid)}",
            GRID_PATH,
        )
    return n, shape[0], shape[1], values, read


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _describe(value: int, style: str) -> str:
    """How a person wrote ``value``: '5s', 'Bs', or '12s' for lists of ints."""
    if style == "ints" or value <= 9 and style != "0-F":
        return f"{value}s"
    if style == "0-F":
        return f"{ZERO_F_SYMBOLS[value - 1]}s"
    return f"{chr(55 + value)}s"


def check_givens(n: int, box_rows: int, box_cols: int, values: list[int], style: str) -> None:
    """Raise with a plain-words message if two givens clash in a row, column or box."""
    # The common case, no clash, by bit masks over the size's cached cell table; the slower
    # scan below finds the first clash and words it.
    row_used = [0] * n
    col_used = [0] * n
    box_used = [0] * n
    cells = _cell_units(n, box_rows, box_cols)
    for position, value in enumerate(values):
        if value:
            r, c, b = cells[position]
            bit = 1 << value
            if (row_used[r] | col_used[c] | box_used[b]) & bit:
                _name_clash(n, box_rows, box_cols, values, style)
            row_used[r] |= bit
            col_used[c] |= bit
            box_used[b] |= bit


def _name_clash(n: int, box_rows: int, box_cols: int, values: list[int], style: str) -> None:
    """Raise for the first clash of two givens, in reading order."""
    seen_row: dict[tuple[int, int], int] = {}
    seen_col: dict[tuple[int, int], int] = {}
    seen_box: dict[tuple[int, int], tuple[int, int]] = {}
    boxes_across = n // box_cols
    for position, value in enumerate(values):
        if not value:
            continue
        r, c = divmod(position, n)
        b = (r // box_rows) * boxes_across + c // box_cols
        what = _describe(value, style)
        if (r, value) in seen_row:
            raise puzzle_error(
                f"two {what} in row {r + 1} (columns {seen_row[r, value] + 1} and {c + 1}; "
                f"{COUNT_FROM_ONE})",
                GRID_PATH,
            )
        if (c, value) in seen_col:
            raise puzzle_error(
                f"two {what} in column {c + 1} (rows {seen_col[c, value] + 1} and {r + 1}; "
                f"{COUNT_FROM_ONE})",
                GRID_PATH,
            )
        if (b, value) in seen_box:
            r0, c0 = seen_box[b, value]
            raise puzzle_error(
                f"two {what} in box {b + 1} (row {r0 + 1} column {c0 + 1} and row {r + 1} "
                f"column {c + 1}; {COUNT_FROM_ONE}, boxes row by row)",
                GRID_PATH,
            )
        seen_row[r, value] = c
        seen_col[c, value] = r
        seen_box[b, value] = (r, c)


# ---------------------------------------------------------------- encoding


def parse_variants(puzzle: Any, n: int, values: list[int], check: bool = True) -> Variants:
    """The variant rules (jigsaw regions, X diagonals, killer cages) of a puzzle whose grid
    ``parse_puzzle`` has read (see ``pysolver.kinds.sudoku.variants``); ``check``: refuse
    givens that clash in a region, a diagonal or a cage."""
    return sudoku_variants.parse(puzzle, n, values, check)


def encode(
    n: int, box_rows: int, box_cols: int, values: list[int], variants: Variants = PLAIN
) -> tuple[ExactCoverProblem, list[int]]:
    """The exact cover matrix of the open cells, and each cell option's cell * n + (digit - 1).

    Givens must not clash (see ``check_givens``). Variants add items and, after the cell
    options, options without a code (a killer cage's digit sets): ``decode`` skips them.
    """
    if not variants.plain:
        matrix = sudoku_variants.encode(n, box_rows, box_cols, values, variants)
        return matrix.problem, matrix.option_codes
    cells = _cell_units(n, box_rows, box_cols)
    # Bit d-1 set: digit d is already placed in that row / column / box.
    row_used = [0] * n
    col_used = [0] * n
    box_used = [0] * n
    open_cells = []
    for position, value in enumerate(values):
        if value:
            bit = 1 << (value - 1)
            r, c, b = cells[position]
            row_used[r] |= bit
            col_used[c] |= bit
            box_used[b] |= bit
        else:
            open_cells.append(position)

    # Item numbers: open cells first, then each unit's missing digits. A unit's items are
    # addressed as unit_items[unit][digit - 1]; satisfied (unit, digit) pairs get none.
    item = len(open_cells)
    full = (1 << n) - 1
    digits_of = _mask_digits(n)
    per_kind = []
    for used in (row_used, col_used, box_used):
        unit_items = []
        for mask in used:
            numbers = [-1] * n
            for digit in digits_of(full & ~mask):
                numbers[digit] = item
                item += 1
            unit_items.append(numbers)
        per_kind.append(unit_items)
    row_items, col_items, box_items = per_kind

    options: list[list[int]] = []
    option_codes: list[int] = []
    add_option = options.append
    add_code = option_codes.append
    for cell_item, position in enumerate(open_cells):
        r, c, b = cells[position]
        free = full & ~(row_used[r] | col_used[c] | box_used[b])
        in_row, in_col, in_box, code_base = row_items[r], col_items[c], box_items[b], position * n
        for digit in digits_of(free):
            add_option([cell_item, in_row[digit], in_col[digit], in_box[digit]])
            add_code(code_base + digit)
    return ExactCoverProblem(item, 0, options), option_codes


def decode(
    n: int, values: list[int], option_codes: list[int], chosen: list[int]
) -> list[list[int]]:
    """The filled grid (rows of ints) of a solution's chosen options."""
    filled = values.copy()
    cell_options = len(option_codes)
    for option in chosen:
        if option >= cell_options:
            continue  # a variant's option that places no digit (a cage's digit set)
        position, digit = divmod(option_codes[option], n)
        filled[position] = digit + 1
    return [filled[r * n : (r + 1) * n] for r in range(n)]


# ---------------------------------------------------------------- the plan


def prepare(puzzle: Any, query: Query, engine: str) -> Plan:
    """The search of a Sudoku request for the midend (see the module docstring for the fields)."""
    n, box_rows, box_cols, values, style = parse_puzzle(puzzle)
    variants = parse_variants(puzzle, n, values)
    if engine == "masks":
        named_or_small = query.engine is not None or n <= MASKS_DEFAULT_MOST
        if named_or_small and query.mode not in ("trace", "estimate"):
            return masks_plan(n, box_rows, box_cols, values, style, variants)
        plan = exact_cover_plan(n, box_rows, box_cols, values, style, variants)
        plan.engine = MASKS_STANDIN
        return plan
    return exact_cover_plan(n, box_rows, box_cols, values, style, variants)


def masks_problem(
    n: int, box_rows: int, box_cols: int, values: list[int], variants: Variants = PLAIN
) -> masks.CellsProblem:
    """The grid for the ``masks`` engine: givens as one-symbol candidates, blanks open to all;
    rows, columns and boxes (or regions), and diagonals, as units; cages with their digit
    sets, and those the rule of 45 implies (see ``cages.masks_cages``)."""
    every = (1 << n) - 1
    candidates = [1 << (value - 1) if value else every for value in values]
    if not variants.cages:
        return _masks_grid(
            n, box_rows, box_cols, variants.regions, variants.diagonals
        ).with_candidates(candidates)
    shape = standard_shape(n, box_rows, box_cols, variants.regions, variants.diagonals)
    cages = masks_cages(shape, values, variants.cages)
    return masks.CellsProblem(
        n * n, n, candidates, masks_units(n, box_rows, box_cols, variants), cages
    )


# Grids kept by shape (a jigsaw's regions are part of its shape): a few suffice for a session.
MASKS_GRIDS_KEPT = 16


@lru_cache(maxsize=MASKS_GRIDS_KEPT)
def _masks_grid(
    n: int, box_rows: int, box_cols: int, regions: tuple[int, ...] | None, diagonals: bool
) -> masks.CellsProblem:
    """The cells and units of a grid of this shape, blank, checked and laid out once: a request
    is its twin with the puzzle's candidates (``CellsProblem.with_candidates``). Building and
    laying out the units at every request cost about 0.07 ms of a 9x9 request's ~1 ms in
    CPython, more in the page. The key is flat (see ``masks._layout``)."""
    units = masks_units(n, box_rows, box_cols, Variants(regions, diagonals))
    return masks.CellsProblem(n * n, n, [0] * (n * n), units)


def masks_units(n: int, box_rows: int, box_cols: int, variants: Variants) -> list[list[int]]:
    """The units of a grid for the ``masks`` engine: rows, columns, boxes or regions, and the
    diagonals of an X."""
    units = list(_grid_units(n, box_rows, box_cols, variants.regions is None))
    if variants.regions is not None:
        members: list[list[int]] = [[] for _ in range(n)]
        for position, region in enumerate(variants.regions):
            members[region].append(position)
        units += members
    if variants.diagonals:
        units.append([i * n + i for i in range(n)])
        units.append([i * n + n - 1 - i for i in range(n)])
    return units


@cache
def _grid_units(n: int, box_rows: int, box_cols: int, boxes: bool) -> tuple[list[int], ...]:
    """The rows, the columns and (``boxes``) the boxes of a grid, as lists of positions."""
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    columns = [[r * n + c for r in range(n)] for c in range(n)]
    if not boxes:
        return (*rows, *columns)
    box_cells: list[list[int]] = [[] for _ in range(n)]
    for position, (_r, _c, b) in enumerate(_cell_units(n, box_rows, box_cols)):
        box_cells[b].append(position)
    return (*rows, *columns, *box_cells)


def masks_plan(
    n: int, box_rows: int, box_cols: int, values: list[int], style: str, variants: Variants
) -> Plan:
    """The search of a Sudoku request on the ``masks`` engine: its answers are the filled
    grids, cell by cell."""
    problem = masks_problem(n, box_rows, box_cols, values, variants)
    budget.check(
        masks.estimated_bytes(problem), "the masks engine on this grid", "give a smaller grid"
    )

    def run(args: SearchArgs) -> SearchResult[list[int]]:
        return masks.search(
            problem,
            limit=args.limit,
            keep_solutions=args.keep_solutions,
            max_kept=args.max_kept,
            rng=args.rng,
            monitor=args.monitor,
            path=args.path,
        )

    solution_bytes = (
        budget.list_bytes(n * n) + budget.list_bytes(n, budget.list_bytes(n)) + 3 * n * n
    )

    def split(engine: str, wanted: int, monitor: Monitor) -> list[Split | None]:
        return [masks.split(problem, wanted, monitor)]

    return Plan(
        run=run,
        split=split,
        decode=partial(_grid_rows, n),
        listed_bytes=solution_bytes,
        listed_chars=3 * n * n,
        heatmap=partial(grid_heatmap, n),
        stats={"givens": n * n - values.count(0)},
        fields={"size": n, **shape_fields(box_rows, box_cols, variants), "symbols": style},
    )


def _grid_rows(n: int, filled: list[int]) -> list[list[int]]:
    return [filled[r * n : (r + 1) * n] for r in range(n)]


def grid_heatmap(n: int, solutions: list[list[int]]) -> dict[str, list[list[int]]]:
    """``heatmap`` of filled grids (the ``masks`` engine's answers)."""
    counts = {str(digit): empty_grid(n, n) for digit in range(1, n + 1)}
    for filled in solutions:
        for position, value in enumerate(filled):
            counts[str(value)][position // n][position % n] += 1
    return counts


def exact_cover_plan(
    n: int, box_rows: int, box_cols: int, values: list[int], style: str, variants: Variants
) -> Plan:
    """The search of a Sudoku request on an exact cover engine: its answers are option lists."""
    problem, option_codes = encode(n, box_rows, box_cols, values, variants)

    def run(args: SearchArgs) -> SearchResult[list[int]]:
        return cover.search(problem, args.engine, **args.search_options())

    def traced(args: TraceArgs) -> SearchResult[list[int]]:
        args.recorder.describe = trace_describer(
            n, box_rows, box_cols, values, option_codes, variants
        )
        return trace.search(
            problem,
            args.recorder,
            limit=args.limit,
            **cover.tree_of(args.engine),
            monitor=args.monitor,
            max_kept=args.max_kept,
        )

    # A listed solution: the engine's option list, the decoded rows and their JSON text.
    solution_bytes = (
        budget.list_bytes(values.count(0), budget.INT_BYTES)
        + budget.list_bytes(n, budget.list_bytes(n))
        + 3 * n * n
    )
    return Plan(
        run=run,
        decode=partial(decode, n, values, option_codes),
        listed_bytes=solution_bytes,
        listed_chars=3 * n * n,
        split=lambda engine, wanted, monitor: [
            cover.split(problem, wanted, **cover.tree_of(engine), monitor=monitor)
        ],
        trace=traced,
        heatmap=partial(heatmap, n, values, option_codes),
        needed_bytes=partial(_exact_cover_bytes, problem),
        too_large=(
            f"the {{engine}} engine on this matrix ({len(problem.options):,} options, "
            f"{problem.primary:,} primary items)"
        ),
        shrink="give more clues or a smaller grid",
        stats={
            "options": len(problem.options),
            "items": problem.primary,
            "givens": n * n - values.count(0),
        },
        fields={"size": n, **shape_fields(box_rows, box_cols, variants), "symbols": style},
        trace_fields={"size": n, **shape_fields(box_rows, box_cols, variants)},
        exact_cover=lambda: [problem],
    )


def _exact_cover_bytes(problem: ExactCoverProblem, engine: str) -> int:
    """``engine``'s memory on an exact cover plan; the masks engine never runs one (trace,
    estimate and subtree tasks walk an exact cover tree), so it never fits one."""
    if engine not in cover.ENGINES:
        return sys.maxsize
    return cover.estimated_bytes(problem, engine)


def generate(puzzle: Any, args: GenerateArgs) -> Generated:
    """Generate mode: a puzzle of ``puzzle["size"]`` and ``puzzle["variant"]`` with one
    solution at ``args.difficulty`` (see ``pysolver.kinds.sudoku.generating``, which searches
    through this module's encoding)."""
    n = sudoku_generate.read_size(puzzle)
    variant = sudoku_generate.read_variant(puzzle)
    sudoku_generate.check_variant_size(variant, n)
    symmetry = sudoku_generate.read_symmetry(args.options)
    box_rows, box_cols = _box_shape(n, None)
    if variant == "killer":
        killer = killer_generating.KillerTranslation(
            problem=lambda values, cages: masks_problem(
                n, box_rows, box_cols, values, Variants(cages=cages)
            ),
            houses=Grid.standard(n, box_rows, box_cols),
            write=lambda values: "".join(SYMBOLS[value - 1] if value else "." for value in values),
        )
        return killer_generating.generate(n, killer, args)
    diagonals = variant == "x"

    def translate(regions: tuple[int, ...] | None) -> sudoku_generate.Translation:
        variants = Variants(regions, diagonals)
        fields: dict[str, Any] = {"diagonals": True} if diagonals else {}
        if regions is not None:
            fields["regions"] = sudoku_generate.region_rows(regions, n)
        grid = masks.CellsProblem(
            n * n, n, [0] * (n * n), masks_units(n, box_rows, box_cols, variants)
        )
        return sudoku_generate.Translation(
            cells=grid.with_candidates,
            write=lambda values: "".join(SYMBOLS[value - 1] if value else "." for value in values),
            houses=Grid.standard(n, box_rows, box_cols, regions, diagonals),
            fields=fields,
        )

    return sudoku_generate.generate(n, (box_rows, box_cols), variant, translate, symmetry, args)


# ---------------------------------------------------------------- assist mode


def assist(puzzle: Any, args: AssistArgs) -> Assisted:
    """Assist mode: which givens to add, which can go, which clash (see
    ``pysolver.kinds.sudoku.assisting``). Clashing givens are read, not refused: they are
    the answer."""
    n, box_rows, box_cols, values, style = read_puzzle(puzzle)
    variants = parse_variants(puzzle, n, values, check=False)
    problem = partial(masks_problem, n, box_rows, box_cols, variants=variants)
    rules = problem([0] * (n * n))
    groups = [*rules.units, *(list(cage.cells) for cage in rules.cages)]
    fields = {"size": n, **shape_fields(box_rows, box_cols, variants), "symbols": style}
    setter = sudoku_assist.Setter(n, values, problem, groups, fields)
    return sudoku_assist.assist(setter, puzzle, args)


def assist_text(puzzle: Any, response: dict[str, Any]) -> str:
    """An assist response in words, rows and columns from 1 (``pysolver.pictures``)."""
    n, _box_rows, _box_cols, values, style = read_puzzle(puzzle)
    symbols = ZERO_F_SYMBOLS if style == "0-F" else SYMBOLS
    return sudoku_assist.assist_text(values, n, response, symbols)


# ---------------------------------------------------------------- explain and hint modes


def explain_facts() -> dict[str, Any]:
    """The techniques explain mode names, easiest first, with their levels (facts.json)."""
    return techniques_facts(sudoku_techniques.ALL)


def explain_board(puzzle: Any) -> tuple[sudoku_explain.Board, str, int, int]:
    """The explain board of a puzzle (givens placed, killer cages on it: the cage techniques
    of ``pysolver.kinds.sudoku.cages`` read them), the style its grid was read in and its box
    shape."""
    n, box_rows, box_cols, values, style = parse_puzzle(puzzle)
    variants = parse_variants(puzzle, n, values)
    grid = Grid.standard(n, box_rows, box_cols, variants.regions, variants.diagonals)
    grid.cages = variants.cages
    for cell, value in enumerate(values):
        if value:
            grid.place(cell, value)

    def solve(values: list[int], args: ExplainArgs) -> list[list[int]]:
        try:
            check_givens(n, box_rows, box_cols, values, style)
        except SolveError:
            return []
        stage = args.stage()
        if variants.cages:
            # The masks engine reads a cage as its digit sets: on killers with few givens it
            # takes thousands of nodes where the exact cover engines take millions.
            found = masks.search(
                masks_problem(n, box_rows, box_cols, values, variants), limit=2, monitor=stage
            )
            args.nodes += found.stats["nodes"]
            args.stop_if_cancelled(stage)
            return found.solutions
        problem, codes = encode(n, box_rows, box_cols, values, variants)
        result = cover.search(problem, "singles", limit=2, monitor=stage)
        args.nodes += result.stats["nodes"]
        args.stop_if_cancelled(stage)
        return [
            [value for row in decode(n, values, codes, chosen) for value in row]
            for chosen in result.solutions
        ]

    return sudoku_explain.Board(n, grid, values, solve), style, box_rows, box_cols


def explain(puzzle: Any, args: ExplainArgs) -> Explained:
    """Explain mode: the path from the givens to the solution (see
    ``pysolver.kinds.sudoku.explaining``)."""
    board, _style, _box_rows, _box_cols = explain_board(puzzle)
    return sudoku_explain.explain(board, args)


def hint(puzzle: Any, args: ExplainArgs) -> Hinted:
    """Hint mode: the next step from the player's ``entries`` and ``candidates``."""
    board, style, box_rows, box_cols = explain_board(puzzle)
    entries = board.givens
    if puzzle.get("entries") is not None:
        entries = read_entries(puzzle["entries"], board.n, style, box_rows, box_cols)
    marks = None
    if puzzle.get("candidates") is not None:
        marks = sudoku_explain.read_marks(puzzle["candidates"], board.n)
    return sudoku_explain.hint(board, entries, marks, args)


def read_entries(value: Any, n: int, style: str, box_rows: int, box_cols: int) -> list[int]:
    """A player's ``entries``: a grid of the puzzle's size in any grid format (digits may
    clash: a hint names the wrong ones)."""
    path = "puzzle.entries"
    shape = [box_rows, box_cols]
    style = style if style in ("1-G", "0-F") else "auto"
    if isinstance(value, str):
        size, _shape, values, _read = _parse_string(value, style, shape, path)
    elif isinstance(value, list):
        size, _shape, values, _read = _parse_rows(value, style, shape, path)
    else:
        raise puzzle_error(
            f"entries must be a grid like the puzzle's, not {_json_type(value)}", path
        )
    if size != n:
        raise puzzle_error(f"entries is a {size}x{size} grid; the puzzle is {n}x{n}", path)
    return values


# ---------------------------------------------------------------- trace mode and heatmaps


def item_labels(
    n: int, box_rows: int, box_cols: int, values: list[int]
) -> list[tuple[str, dict[str, Any]]]:
    """Per item of ``encode``'s matrix: a label for sentences and its JSON ``item``.

    Same numbering as ``encode``: open cells, then each row's, column's and box's
    missing digits. Sentences count rows, columns and boxes from 1; JSON from 0.
    """
    boxes_across = n // box_cols
    labels: list[tuple[str, dict[str, Any]]] = []
    for position, value in enumerate(values):
        if not value:
            r, c = divmod(position, n)
            labels.append((f"the cell at row {r + 1}, column {c + 1}", {"cell": [r, c]}))
    used: dict[str, list[set[int]]] = {
        unit: [set() for _ in range(n)] for unit in ("row", "column", "box")
    }
    for position, value in enumerate(values):
        if value:
            r, c = divmod(position, n)
            used["row"][r].add(value)
            used["column"][c].add(value)
            used["box"][(r // box_rows) * boxes_across + c // box_cols].add(value)
    for unit, sets in used.items():
        for number, present in enumerate(sets):
            for digit in range(1, n + 1):
                if digit not in present:
                    labels.append(
                        (f"the {digit} of {unit} {number + 1}", {unit: number, "digit": digit})
                    )
    return labels


def trace_describer(
    n: int,
    box_rows: int,
    box_cols: int,
    values: list[int],
    option_codes: list[int],
    variants: Variants = PLAIN,
) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """Trace mode's steps in Sudoku terms (``singles`` forces singles as ``force`` steps;
    ``dlx`` and ``bitset`` only branch). ``place`` is ``{"cell": [r, c], "value": d}`` (a
    killer cage's digit set: ``{"cage", "digits"}``); the givens are not steps, so a replayed
    board is the givens plus the placed digits."""
    if variants.plain:
        labels = item_labels(n, box_rows, box_cols, values)
    else:
        matrix = sudoku_variants.encode(n, box_rows, box_cols, values, variants)
        labels = matrix.item_labels(n)

    def place(option: int) -> dict[str, Any]:
        if option >= len(option_codes):
            return matrix.cage_set_place(option)  # {"cage": k, "digits": [...]}
        position, digit = divmod(option_codes[option], n)
        return {"cell": list(divmod(position, n)), "value": digit + 1}

    def option_label(option: int) -> str:
        spot = place(option)
        if "cage" in spot:  # a killer cage's digit set: "1 + 3 + 5"
            return " + ".join(map(str, spot["digits"]))
        r, c = spot["cell"]
        return f"{spot['value']} at row {r + 1}, column {c + 1}"

    return trace.exact_cover_describer(
        lambda item: labels[item][0], option_label, place, lambda item: labels[item][1]
    )


def heatmap(
    n: int, values: list[int], option_codes: list[int], solutions: list[list[int]]
) -> dict[str, list[list[int]]]:
    """Per digit (as a string), per cell: how many of the solutions put that digit there.

    Givens count in every solution."""
    counts = {str(digit): empty_grid(n, n) for digit in range(1, n + 1)}
    for position, value in enumerate(values):
        if value:
            r, c = divmod(position, n)
            counts[str(value)][r][c] = len(solutions)
    cell_options = len(option_codes)
    for chosen in solutions:
        for option in chosen:
            if option >= cell_options:
                continue  # a cage's digit set: its digits are counted at its cells
            position, digit = divmod(option_codes[option], n)
            r, c = divmod(position, n)
            counts[str(digit + 1)][r][c] += 1
    return counts


def shape_fields(box_rows: int, box_cols: int, variants: Variants) -> dict[str, Any]:
    """The response's ``box`` (the box shape), left out for a jigsaw, whose regions replace it."""
    return {} if variants.regions is not None else {"box": [box_rows, box_cols]}


def finish_fields(fields: dict[str, Any]) -> None:
    """The fields that depend on the whole answer (set again on a merged parallel answer, each
    task only knew its subtree): ``unique``."""
    fields.pop("unique", None)
    fields.update(uniqueness(fields["count"], fields["complete"]))


def uniqueness(count: int, complete: bool) -> dict[str, bool]:
    """``unique``: decidable once two solutions are known or the whole search is done."""
    if count >= 2:
        return {"unique": False}
    if complete:
        return {"unique": count == 1}
    return {}
