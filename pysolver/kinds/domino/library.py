"""The domino kind in the Python library: ``Dominoes``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pysolver.library import Puzzle, Solution
from pysolver.pictures import board_rows

__all__ = ["Dominoes"]


class Dominoes(Puzzle[Solution[list[list[int]]]]):
    """Domino tilings of a ``rows`` x ``cols`` board without the ``blocked`` cells; a
    solution lists its dominoes, each as its two cells ``[[r, c], [r, c]]``.

    >>> Dominoes(8, 8).count()
    12988816
    """

    kind = "domino"

    def __init__(
        self,
        rows: int,
        cols: int,
        *,
        blocked: Iterable[Sequence[int]] = (),
        engine: str | None = None,
        jobs: int = 1,
    ) -> None:
        puzzle: dict[str, Any] = {"rows": rows, "cols": cols}
        blocked_cells = [list(cell) for cell in blocked]
        if blocked_cells:
            puzzle["blocked"] = blocked_cells
        super().__init__(puzzle, engine, jobs)

    def _blank(self) -> list[list[list[int]]]:
        return [
            [[r, c]]
            for r, row in enumerate(board_rows(self.puzzle))
            for c, cell in enumerate(row)
            if cell == "."
        ]
