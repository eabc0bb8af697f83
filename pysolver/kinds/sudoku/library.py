"""The Sudoku kind in the Python library: ``Sudoku``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pysolver.kinds.sudoku import parse_puzzle
from pysolver.kinds.sudoku.pasted import solo_id
from pysolver.kinds.sudoku.pictures import SYMBOLS
from pysolver.library import Puzzle, SolverError
from pysolver.protocol import SolveError

__all__ = ["Sudoku"]


class Sudoku(Puzzle):
    """A Sudoku: ``grid`` as 81 characters (``.`` or ``0`` blank) or rows of ints; ``box``
    (rows, cols) for other sizes; the variants' ``regions``, ``diagonals`` and ``cages``.

    >>> Sudoku("." * 81).count(limit=3)
    3
    """

    kind = "sudoku"

    def __init__(
        self,
        grid: str | Sequence[Sequence[int]],
        *,
        box: tuple[int, int] | None = None,
        regions: Sequence[str] | None = None,
        diagonals: bool = False,
        cages: Sequence[dict[str, Any]] | None = None,
        engine: str | None = None,
        jobs: int = 1,
    ) -> None:
        puzzle: dict[str, Any] = {"grid": grid if isinstance(grid, str) else [*map(list, grid)]}
        if box is not None:
            puzzle["box"] = list(box)
        if regions is not None:
            puzzle["regions"] = list(regions)
        if diagonals:
            puzzle["diagonals"] = True
        if cages is not None:
            puzzle["cages"] = list(cages)
        super().__init__(puzzle, engine, jobs)

    def game_id(self) -> str:
        """Simon Tatham's Solo game ID of this Sudoku (``3x3:a5b1_2c...``; ``3x3x:`` with the
        X diagonals); ``SolverError`` for a jigsaw or killer, which Solo writes otherwise, or
        an invalid grid.

        >>> Sudoku("1..." + "." * 11 + "4", box=(2, 2)).game_id()
        '2x2:1n4'
        """
        if "regions" in self.puzzle or "cages" in self.puzzle:
            raise SolverError(
                "invalid_request", "Solo writes jigsaw and killer game IDs in its own way"
            )
        try:
            _n, box_rows, box_cols, values, _style = parse_puzzle(self.puzzle)
        except SolveError as error:
            raise SolverError(error.code, error.message, error.path) from None
        return solo_id(values, box_rows, box_cols, bool(self.puzzle.get("diagonals")))

    def _blank(self) -> list[list[int]]:
        grid = self.puzzle["grid"]
        if not isinstance(grid, str):
            return [list(row) for row in grid]
        size = round(len(grid) ** 0.5)
        digits = [0 if ch in ".0" else SYMBOLS.index(ch.upper()) + 1 for ch in grid]
        return [digits[r * size : (r + 1) * size] for r in range(size)]
