"""The queens kind in the Python library: ``Queens``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pysolver.library import Puzzle, Solution

__all__ = ["Queens"]


class Queens(Puzzle[Solution[list[int]]]):
    """``n`` queens on an ``n`` x ``n`` board, none attacking another; ``queens``: placed
    ones, as ``(row, col)``, 0-based. A solution lists the queens' cells ``[row, col]``.

    >>> Queens(8).count()
    92
    """

    kind = "queens"

    def __init__(
        self,
        n: int,
        *,
        queens: Iterable[Sequence[int]] = (),
        engine: str | None = None,
        jobs: int = 1,
    ) -> None:
        puzzle: dict[str, Any] = {"n": n}
        placed = [list(queen) for queen in queens]
        if placed:
            puzzle["queens"] = placed
        super().__init__(puzzle, engine, jobs)

    def _blank(self) -> list[list[int]]:
        return [list(queen) for queen in self.puzzle.get("queens", [])]
