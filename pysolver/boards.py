"""Boards drawn as text: rows of '.' (a cell to cover) and '#' (not part of the board).

Shared by the kinds that accept such a ``board`` (polyomino, domino); each turns the validated
rows into its own representation.
"""

from __future__ import annotations

from typing import Any

from pysolver.protocol import (
    TOO_LARGE,
    SolveError,
    puzzle_error,
    require_list,
    require_str,
    shown,
)


def read_board_rows(value: Any, path: str, max_side: int) -> list[str]:
    """Validate a board: a non-empty list of equally long rows of '.' and '#'.

    Rows and columns above ``max_side`` are refused as ``too_large``. Returns the rows.
    """
    rows = require_list(value, path)
    if not rows:
        raise puzzle_error(f"{path} is empty; give rows of '.' (cover) and '#' (no cell)", path)
    if len(rows) > max_side:
        raise SolveError(TOO_LARGE, f"{path} has {len(rows)} rows; the limit is {max_side}", path)
    width: int | None = None
    for r, text in enumerate(rows):
        row_path = f"{path}[{r}]"
        text = require_str(text, row_path)
        if not text:
            raise puzzle_error(f"{row_path} is empty; every row needs at least one cell", row_path)
        if len(text) > max_side:
            raise SolveError(
                TOO_LARGE, f"{row_path} has {len(text)} columns; the limit is {max_side}", row_path
            )
        if width is None:
            width = len(text)
        elif len(text) != width:
            # Rows and columns in words count from 1 (the path keeps the JSON's index).
            raise puzzle_error(
                f"row {r + 1} of the board has {len(text)} characters but row 1 has {width}; "
                "all rows must have the same length (use '#' for cells outside the board)",
                row_path,
            )
        column = next((i for i, ch in enumerate(text) if ch not in ".#"), None)
        if column is not None:
            raise puzzle_error(
                f"row {r + 1} of the board has {shown(text[column])} at column {column + 1}; "
                "use '.' for a cell to cover and '#' for no cell",
                row_path,
            )
    return rows
