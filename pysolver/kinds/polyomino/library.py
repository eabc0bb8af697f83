"""The polyomino kind in the Python library: ``Polyomino``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pysolver.kinds.polyomino.pictures import letters
from pysolver.library import Puzzle, Solution

__all__ = ["Polyomino"]


class Polyomino(Puzzle[Solution[dict[str, Any]]]):
    """A polyomino tiling: ``board`` rows of ``.`` (a cell) and ``#`` (no cell), ``pieces`` as
    the protocol names them (``"pentominoes"``, ``"O4"``, or ``{"name", "cells", "count"}``).
    ``symmetry``: the protocol's (``"all"``, the default, counts every tiling; ``"distinct"``
    counts tilings up to the board's symmetries; ``trace`` needs ``"all"``). A solution lists
    its placed pieces, each ``{"piece": name, "cells": [[r, c], ...]}``.

    >>> Polyomino(["........"] * 8, ["pentominoes", "O4"]).count(limit=10)
    10
    """

    kind = "polyomino"

    def __init__(
        self,
        board: Sequence[str] | str,
        pieces: Sequence[Any] | str,
        *,
        reflections: bool = True,
        symmetry: str | None = None,
        engine: str | None = None,
        jobs: int = 1,
    ) -> None:
        rows = board.split() if isinstance(board, str) else list(board)
        piece_list = [pieces] if isinstance(pieces, str) else list(pieces)
        puzzle = {"board": rows, "pieces": piece_list, "reflections": reflections}
        super().__init__(puzzle, engine, jobs)
        if symmetry is not None:
            self.options["symmetry"] = symmetry

    def _blank(self) -> list[dict[str, Any]]:
        return []

    def __str__(self) -> str:
        return letters(self.puzzle, [])
