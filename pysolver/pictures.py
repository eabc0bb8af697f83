"""Pictures of solutions, as text (the CLI's ``--format text``, the library's ``str``) and SVG
(the library's ``_repr_svg_`` for Jupyter), from a request's puzzle JSON and one solution JSON.

Each kind draws its own (its hooks ``solution_text`` and ``solution_svg``, in its folder's
``pictures.py``) with what is here: most puzzles are a board cut into regions (a piece, a
rectangle, a domino), so ``regions_text`` draws the borders between regions with box-drawing
characters and ``regions_svg`` fills each region with a colour, texts in some cells.
``solution_text`` and ``solution_svg`` ask the kind; ``response_text`` writes a whole response.
"""

from __future__ import annotations

from html import escape
from typing import Any

from pysolver import protocol
from pysolver.kinds import kind_module

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
    """A board given as ``board`` rows, or as ``rows`` and ``cols`` less the ``blocked`` cells,
    as rows of ``.`` (a cell) and ``#`` (a hole)."""
    if "board" in puzzle:
        board = puzzle["board"]
        return board.split() if isinstance(board, str) else [str(row) for row in board]
    blocked = {(r, c) for r, c in puzzle.get("blocked", [])}
    return [
        "".join("#" if (r, c) in blocked else "." for c in range(int(puzzle["cols"])))
        for r in range(int(puzzle["rows"]))
    ]


def placement_labels(rows: list[str], groups: list[list[list[int]]]) -> Labels:
    """Per cell of the board, the index of the group of cells (piece, domino) covering it."""
    labels: Labels = [[None] * len(row) for row in rows]
    for index, cells in enumerate(groups):
        for r, c in cells:
            labels[r][c] = index
    return labels


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


def solution_text(kind: str, puzzle: dict[str, Any], solution: Any) -> str:
    """One solution of a ``kind`` puzzle as a text picture (its JSON for a kind that draws
    none)."""
    module: Any = kind_module(kind)
    if not hasattr(module, "solution_text"):
        return protocol.dumps(solution)
    text: str = module.solution_text(puzzle, solution)
    return text


def solution_svg(kind: str, puzzle: dict[str, Any], solution: Any) -> str | None:
    """One solution of a ``kind`` puzzle as an SVG picture; None for a kind that draws none."""
    module: Any = kind_module(kind)
    if not hasattr(module, "solution_svg"):
        return None
    svg: str = module.solution_svg(puzzle, solution)
    return svg


def puzzle_text(kind: str, puzzle: dict[str, Any]) -> str:
    """A puzzle before solving as a text picture (a Sudoku's givens with ``.`` blanks, a
    Shikaku's clues), through the kind's ``puzzle_text``; its JSON for a kind that has none."""
    module: Any = kind_module(kind)
    if not hasattr(module, "puzzle_text"):
        return protocol.dumps(puzzle)
    text: str = module.puzzle_text(puzzle)
    return text


def grade_text(grade: dict[str, Any], asked: str | None = None) -> str:
    """A grade in a phrase: ``level hard, score 158, givens 30`` (its level, the level
    ``asked`` when that differs, and its numbers)."""
    level = f"level {grade.get('level')}"
    if asked is not None and asked != grade.get("level"):
        level += f" (asked {asked})"
    numbers = [
        f"{name} {value:,}"
        for name, value in grade.items()
        if name != "level" and isinstance(value, int | float) and not isinstance(value, bool)
    ]
    return ", ".join([level, *numbers])


def generated_text(response: dict[str, Any]) -> str:
    """A generate answer: what was made (its level, the level asked when the two differ, and
    its seed), the note when the level asked was not found, and the puzzle with its blanks."""
    kind = str(response.get("kind"))
    grade = response.get("grade") or {}
    head = f"{kind} puzzle, {grade_text(grade, response.get('difficulty'))}"
    head += f", seed {response.get('seed')}"
    parts = [head]
    if response.get("note"):
        parts.append(f"note: {response['note']}")
    parts.append(puzzle_text(kind, response.get("puzzle") or {}))
    return "\n\n".join(parts)


def response_text(request: Any, response: dict[str, Any]) -> str:
    """A whole response as text: a summary line, then each listed solution's picture (or the
    error, or a trace's step count), blank lines between them."""
    if not response.get("ok"):
        error = response.get("error", {})
        return f"error ({error.get('code')}): {error.get('message')}"
    if "estimate" in response:
        return estimate_text(response)
    if response.get("mode") == "assist":
        return assist_text(request, response)
    if response.get("mode") == "generate" and "puzzle" in response:
        return generated_text(response)
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


def assist_text(request: Any, response: dict[str, Any]) -> str:
    """An assist response in words, by its kind (the kinds with assist mode write it)."""
    module: Any = kind_module(str(response.get("kind")))
    text: str = module.assist_text((request or {}).get("puzzle") or {}, response)
    return text


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
