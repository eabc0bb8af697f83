"""Pictures of solutions, as text (the CLI's ``--format text``, the library's ``str``) and SVG
(the library's ``_repr_svg_`` for Jupyter), from a request's puzzle JSON and one solution JSON.

Every kind but Sudoku and queens is a board cut into regions (a polyomino piece, a Shikaku
rectangle, a domino): ``regions_text`` draws the borders between regions with box-drawing
characters, ``regions_svg`` fills each region with a colour. Polyomino tilings are also shown
as letters (``polyomino_letters``), the way tilings are printed in books.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from html import escape
from typing import Any

# Digit d of a Sudoku is SYMBOLS[d - 1], as the sudoku kind reads them (1-9, then A-Z).
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

# Box-drawing characters by the arms they have: (up, down, left, right).
_CORNERS = {
    (False, False, False, False): " ",
    (True, False, False, False): "╵",
    (False, True, False, False): "╷",
    (False, False, True, False): "╴",
    (False, False, False, True): "╶",
    (True, True, False, False): "│",
    (False, False, True, True): "─",
    (False, True, False, True): "┌",
    (False, True, True, False): "┐",
    (True, False, False, True): "└",
    (True, False, True, False): "┘",
    (True, True, False, True): "├",
    (True, True, True, False): "┤",
    (False, True, True, True): "┬",
    (True, False, True, True): "┴",
    (True, True, True, True): "┼",
}

# Region fills of the SVG pictures: light colours under dark text and lines.
_PALETTE = (
    "#f4a3a3",
    "#a3c9f4",
    "#b5e6a3",
    "#f4d8a3",
    "#d2b0f0",
    "#a3eee4",
    "#f0b0d8",
    "#e0e0a0",
    "#c8c8c8",
    "#f7c6a0",
)
_CELL = 28  # SVG pixels per cell

Labels = list[list[int | None]]  # per cell, its region (None: not part of the board)
Texts = dict[tuple[int, int], str]  # text written in some cells


def board_rows(puzzle: dict[str, Any]) -> list[str]:
    """A polyomino or domino board as rows of ``.`` (a cell) and ``#`` (a hole)."""
    if "board" in puzzle:
        board = puzzle["board"]
        return board.split() if isinstance(board, str) else [str(row) for row in board]
    blocked = {(r, c) for r, c in puzzle.get("blocked", [])}
    return [
        "".join("#" if (r, c) in blocked else "." for c in range(int(puzzle["cols"])))
        for r in range(int(puzzle["rows"]))
    ]


def regions_text(labels: Labels, texts: Texts | None = None) -> str:
    """The board with a line between every two cells of different regions (and around the
    board), each cell three characters wide with its text centred."""
    texts = texts or {}
    rows = len(labels)
    cols = max((len(row) for row in labels), default=0)

    def label(r: int, c: int) -> int | None:
        return labels[r][c] if 0 <= r < rows and 0 <= c < len(labels[r]) else None

    def wall(a: tuple[int, int], b: tuple[int, int]) -> bool:
        first, second = label(*a), label(*b)
        return first != second

    lines = []
    for r in range(rows + 1):
        corners = []
        for c in range(cols + 1):
            up = wall((r - 1, c - 1), (r - 1, c))
            down = wall((r, c - 1), (r, c))
            left = wall((r - 1, c - 1), (r, c - 1))
            right = wall((r - 1, c), (r, c))
            corners.append(_CORNERS[(up, down, left, right)])
            if c < cols:
                corners.append("───" if right else "   ")
        lines.append("".join(corners).rstrip())
        if r == rows:
            break
        cells = []
        for c in range(cols + 1):
            cells.append("│" if wall((r, c - 1), (r, c)) else " ")
            if c < cols:
                cells.append(texts.get((r, c), "").center(3)[:3])
        lines.append("".join(cells).rstrip())
    return "\n".join(lines)


def regions_svg(labels: Labels, texts: Texts | None = None) -> str:
    """The board as SVG: each region filled with a colour of its own, texts in their cells."""
    texts = texts or {}
    rows = len(labels)
    cols = max((len(row) for row in labels), default=0)
    shapes = []
    for r, row in enumerate(labels):
        for c, region in enumerate(row):
            if region is None:
                continue
            fill = _PALETTE[region % len(_PALETTE)]
            shapes.append(
                f'<rect x="{c * _CELL}" y="{r * _CELL}" width="{_CELL}" height="{_CELL}" '
                f'fill="{fill}" stroke="#666" stroke-width="0.5"/>'
            )
    shapes.extend(_svg_texts(texts))
    return _svg(cols, rows, shapes)


def _svg_texts(texts: Texts) -> list[str]:
    return [
        f'<text x="{(c + 0.5) * _CELL}" y="{(r + 0.5) * _CELL}" text-anchor="middle" '
        f'dominant-baseline="central" font-family="sans-serif" font-size="{_CELL * 0.6:g}">'
        f"{escape(text)}</text>"
        for (r, c), text in texts.items()
    ]


def _svg(cols: int, rows: int, shapes: list[str]) -> str:
    width, height = cols * _CELL, rows * _CELL
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">' + "".join(shapes) + "</svg>"
    )


# ---------------------------------------------------------------- per kind: labels and texts


def sudoku_box(puzzle: dict[str, Any], size: int) -> tuple[int, int] | None:
    """The box shape of a Sudoku (the puzzle's ``box``, else the square root); None when the
    puzzle has regions of its own or the size is not a square."""
    if "regions" in puzzle:
        return None
    if "box" in puzzle:
        box_rows, box_cols = puzzle["box"]
        return int(box_rows), int(box_cols)
    root = math.isqrt(size)
    return (root, root) if root * root == size else None


def sudoku_text(puzzle: dict[str, Any], grid: list[list[int]]) -> str:
    """The grid with a line between boxes: ``5 3 4 | 6 7 8 | 9 1 2``."""
    size = len(grid)
    box = sudoku_box(puzzle, size)
    lines = []
    for r, row in enumerate(grid):
        if box and r and r % box[0] == 0:
            lines.append("-+-".join("-" * (2 * box[1] - 1) for _ in range(size // box[1])))
        cells = [SYMBOLS[d - 1] if d else "." for d in row]
        if box:
            groups = [" ".join(cells[c : c + box[1]]) for c in range(0, size, box[1])]
            lines.append(" | ".join(groups))
        else:
            lines.append(" ".join(cells))
    return "\n".join(lines)


def sudoku_svg(puzzle: dict[str, Any], grid: list[list[int]]) -> str:
    size = len(grid)
    box = sudoku_box(puzzle, size)
    labels: Labels = [
        [((r // box[0]) + (c // box[1])) % 2 * 8 if box else 8 for c in range(size)]
        for r in range(size)
    ]
    texts = {(r, c): SYMBOLS[d - 1] for r, row in enumerate(grid) for c, d in enumerate(row) if d}
    return regions_svg(labels, texts)


def _placement_labels(rows: list[str], groups: list[list[list[int]]]) -> Labels:
    """Per cell of the board, the index of the group of cells (piece, domino) covering it."""
    labels: Labels = [[None] * len(row) for row in rows]
    for index, cells in enumerate(groups):
        for r, c in cells:
            labels[r][c] = index
    return labels


def polyomino_letters(puzzle: dict[str, Any], tiling: list[dict[str, Any]]) -> str:
    """The tiling as letters, one per piece (its name's first letter; A, B... when two
    different pieces would share one), ``.`` for a hole, as books print pentomino tilings."""
    names = [str(placed["piece"]) for placed in tiling]
    initials = {name: name[0] for name in names}
    if len(set(initials.values())) < len(initials):
        initials = {
            name: SYMBOLS[9 + n % 26].lower() if n >= 26 else SYMBOLS[9 + n]
            for n, name in enumerate(dict.fromkeys(names))
        }
    rows = board_rows(puzzle)
    picture = [[" " if cell == "#" else "." for cell in row] for row in rows]
    for placed in tiling:
        for r, c in placed["cells"]:
            picture[r][c] = initials[str(placed["piece"])]
    return "\n".join("".join(row).rstrip() for row in picture)


def polyomino_text(puzzle: dict[str, Any], tiling: list[dict[str, Any]]) -> str:
    letters = polyomino_letters(puzzle, tiling)
    labels = _placement_labels(board_rows(puzzle), [placed["cells"] for placed in tiling])
    return letters + "\n\n" + regions_text(labels)


def polyomino_svg(puzzle: dict[str, Any], tiling: list[dict[str, Any]]) -> str:
    labels = _placement_labels(board_rows(puzzle), [placed["cells"] for placed in tiling])
    texts = {
        (placed["cells"][0][0], placed["cells"][0][1]): str(placed["piece"]) for placed in tiling
    }
    return regions_svg(labels, texts)


def _shikaku_parts(puzzle: dict[str, Any], rectangles: list[list[int]]) -> tuple[Labels, Texts]:
    labels: Labels = [[None] * int(puzzle["cols"]) for _ in range(int(puzzle["rows"]))]
    for index, (top, left, height, width) in enumerate(rectangles):
        for r in range(top, top + height):
            for c in range(left, left + width):
                labels[r][c] = index
    texts = {(int(r), int(c)): str(n) for r, c, n in puzzle["clues"]}
    return labels, texts


def shikaku_text(puzzle: dict[str, Any], rectangles: list[list[int]]) -> str:
    return regions_text(*_shikaku_parts(puzzle, rectangles))


def shikaku_svg(puzzle: dict[str, Any], rectangles: list[list[int]]) -> str:
    return regions_svg(*_shikaku_parts(puzzle, rectangles))


def domino_text(puzzle: dict[str, Any], dominoes: list[list[list[int]]]) -> str:
    return regions_text(_placement_labels(board_rows(puzzle), dominoes))


def domino_svg(puzzle: dict[str, Any], dominoes: list[list[list[int]]]) -> str:
    return regions_svg(_placement_labels(board_rows(puzzle), dominoes))


def queens_text(puzzle: dict[str, Any], queens: list[list[int]]) -> str:
    """The board with ``Q`` on each queen and ``.`` elsewhere."""
    n = int(puzzle["n"])
    placed = {(r, c) for r, c in queens}
    return "\n".join(" ".join("Q" if (r, c) in placed else "." for c in range(n)) for r in range(n))


def queens_svg(puzzle: dict[str, Any], queens: list[list[int]]) -> str:
    n = int(puzzle["n"])
    labels: Labels = [[8 if (r + c) % 2 else 3 for c in range(n)] for r in range(n)]
    return regions_svg(labels, {(r, c): "♛" for r, c in queens})


def _star_battle_parts(puzzle: dict[str, Any], rows: list[str]) -> tuple[Labels, Texts]:
    """A Star Battle's regions (``puzzle["regions"]``, rows of region characters) and its
    solution's stars (rows of ``*`` and ``.``)."""
    regions = puzzle["regions"]
    board = regions.split() if isinstance(regions, str) else [str(row) for row in regions]
    names = {name: index for index, name in enumerate(dict.fromkeys("".join(board)))}
    labels: Labels = [[names[name] for name in row] for row in board]
    stars = {(r, c): "*" for r, row in enumerate(rows) for c, mark in enumerate(row) if mark == "*"}
    return labels, stars


def star_battle_text(puzzle: dict[str, Any], rows: list[str]) -> str:
    return regions_text(*_star_battle_parts(puzzle, rows))


def star_battle_svg(puzzle: dict[str, Any], rows: list[str]) -> str:
    labels, stars = _star_battle_parts(puzzle, rows)
    return regions_svg(labels, {cell: "★" for cell in stars})


def exact_cover_text(puzzle: dict[str, Any], chosen: list[int]) -> str:
    """The chosen options, one a line: ``3: a b x:A``."""
    options = puzzle.get("options")
    if options is None:  # Knuth's text format: options are the lines after the items line
        lines = [
            line
            for line in str(puzzle.get("text", "")).splitlines()
            if line.strip() and not line.lstrip().startswith("|")
        ]
        options = [line.split() for line in lines[1:]]
    return "\n".join(f"{index}: {' '.join(map(str, options[index]))}" for index in chosen)


# kind -> (text picture, SVG picture) of one solution of a puzzle.
TEXT: dict[str, Callable[[dict[str, Any], Any], str]] = {
    "sudoku": sudoku_text,
    "polyomino": polyomino_text,
    "shikaku": shikaku_text,
    "domino": domino_text,
    "queens": queens_text,
    "exact_cover": exact_cover_text,
    "star_battle": star_battle_text,
}
SVG: dict[str, Callable[[dict[str, Any], Any], str]] = {
    "sudoku": sudoku_svg,
    "polyomino": polyomino_svg,
    "shikaku": shikaku_svg,
    "domino": domino_svg,
    "queens": queens_svg,
    "star_battle": star_battle_svg,
}


def solution_text(kind: str, puzzle: dict[str, Any], solution: Any) -> str:
    """One solution of a ``kind`` puzzle as a text picture."""
    return TEXT[kind](puzzle, solution)


def response_text(request: Any, response: dict[str, Any]) -> str:
    """A whole response as text: a summary line, then each listed solution's picture (or the
    error, or a trace's step count), blank lines between them."""
    if not response.get("ok"):
        error = response.get("error", {})
        return f"error ({error.get('code')}): {error.get('message')}"
    if "estimate" in response:
        return estimate_text(response)
    if response.get("mode") == "hint" and "hint" in response:
        return (
            f"{response['kind']} hint ({response['hint']['technique']}): {response['hint']['text']}"
        )
    count = response.get("count", 0)
    complete = response.get("complete")
    summary = f"{response.get('kind')} {response.get('mode')}: {count} solution" + (
        "" if count == 1 else "s"
    )
    if response.get("cancelled"):
        summary += " (stopped)"
    elif complete and response.get("mode") in ("solve", "trace"):
        summary += " (all there are)"
    parts = [summary]
    if response.get("mode") == "explain" and "grade" in response:
        grade = response["grade"]
        parts.append(f"level {grade['level']}, score {grade['score']}")
        parts.append(
            "\n".join(
                f"{number}. {step['text']}" for number, step in enumerate(response["steps"], 1)
            )
        )
    elif "steps" in response:
        parts.append(f"{len(response['steps'])} trace steps")
    # A generated puzzle comes in the response; otherwise the request has it.
    puzzle = response.get("puzzle") or (request or {}).get("puzzle") or {}
    kind = str(response.get("kind"))
    for solution in response.get("solutions", []):
        parts.append(solution_text(kind, puzzle, solution))
    return "\n\n".join(parts)


def estimate_text(response: dict[str, Any]) -> str:
    """An estimate response in a sentence: nodes, solutions and the time the count would take."""
    found = response["estimate"]
    head = f"{response.get('kind')} estimate ({response.get('engine')}"
    if found.get("exact"):
        head += ", counted whole"
    else:
        head += f", {found.get('probes', 0):,} random paths"
    head += ")"
    if found.get("nodes") is None:
        return head + ": stopped before any estimate"
    text = f"{head}: about {found['nodes']:,} nodes and {found['solutions']:,} solutions"
    if found.get("exact"):
        text = f"{head}: {found['nodes']:,} nodes and {found['solutions']:,} solutions"
    if found.get("seconds") is not None:
        text += f"; a count takes about {duration_text(found['seconds'])}"
    if response.get("cancelled"):
        text += " (stopped)"
    return text


def duration_text(seconds: float) -> str:
    """A time as people say it: 0.4 s, 37 s, 12 minutes, 3.5 hours, 2.1 days, 4.3 years."""
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600)):
        if seconds >= 2 * size:
            return f"{seconds / size:,.1f} {unit}"
    if seconds >= 120:
        return f"{seconds / 60:.0f} minutes"
    if seconds >= 10:
        return f"{seconds:.0f} s"
    return f"{seconds:.2g} s"
