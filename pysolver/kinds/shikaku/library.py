"""The Shikaku kind in the Python library: ``Shikaku``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pysolver.kinds.shikaku.pasted import rectangles_id
from pysolver.library import Puzzle, Solution

__all__ = ["Shikaku"]


class Shikaku(Puzzle[Solution[list[int]]]):
    """A Shikaku: ``clues`` as ``(row, col, area)``, 0-based; a solution is one rectangle per
    clue, each ``[top, left, height, width]``."""

    kind = "shikaku"

    def __init__(
        self,
        rows: int,
        cols: int,
        clues: Iterable[Sequence[int]],
        *,
        engine: str | None = None,
        jobs: int = 1,
    ) -> None:
        puzzle = {"rows": rows, "cols": cols, "clues": [list(clue) for clue in clues]}
        super().__init__(puzzle, engine, jobs)

    def game_id(self) -> str:
        """Simon Tatham's Rectangles game ID of this Shikaku (``7x7:b4b2e3a2...``).

        >>> Shikaku(3, 3, [(0, 0, 3), (1, 1, 3), (2, 2, 3)]).game_id()
        '3x3:3c3c3'
        """
        clues = [(row, col, size) for row, col, size in self.puzzle["clues"]]
        return rectangles_id(self.puzzle["rows"], self.puzzle["cols"], clues)

    def _blank(self) -> list[list[int]]:
        return [
            [r, c, 1, 1] for r in range(self.puzzle["rows"]) for c in range(self.puzzle["cols"])
        ]
