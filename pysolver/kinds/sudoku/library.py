"""The Sudoku kind in the Python library: ``Sudoku``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pysolver.kinds.sudoku import parse_puzzle, read_pasted
from pysolver.kinds.sudoku.pasted import solo_id
from pysolver.kinds.sudoku.pictures import SYMBOLS
from pysolver.library import Cancel, Progress, Puzzle, Solution, SolverError, answer
from pysolver.pictures import response_text
from pysolver.protocol import SolveError

__all__ = ["Addition", "Assistance", "Sudoku", "SudokuSolution"]


@dataclass(frozen=True)
class Addition:
    """A given a setter could add (``Sudoku.assist``): ``digit`` at ``row``, ``col`` (from 0)
    leaves ``count`` solutions (at least so many when ``Assistance.add_exact`` is false)."""

    row: int
    col: int
    digit: int
    count: int


@dataclass(frozen=True)
class Assistance:
    """What ``Sudoku.assist`` answers (the protocol's assist mode), cells as (row, col) from 0.

    ``count``: the solutions, counted up to the limit (``exact`` when that is all of them and
    nothing was cut short);
    ``unique``: one solution (None while undecided: a cancelled count). Then by case: two or
    more solutions, ``add`` (the givens the solutions disagree on, fewest left first); one,
    ``redundant`` (the givens that can go, each on its own) and ``minimal``; none,
    ``conflict`` (a minimal set of clashing givens). ``note`` explains a count stopped at the
    limit or an empty conflict; ``cancelled``: stopped, the case's answer left out. ``str``
    gives it in words, as the CLI's ``--format text``."""

    count: int
    exact: bool
    unique: bool | None
    add: tuple[Addition, ...] = ()
    add_exact: bool = True
    redundant: tuple[tuple[int, int], ...] = ()
    minimal: bool | None = None
    conflict: tuple[tuple[int, int], ...] | None = None
    note: str | None = None
    cancelled: bool = False
    text: str = ""

    def __str__(self) -> str:
        return self.text


class SudokuSolution(Solution[list[int]]):
    """A solved Sudoku: its rows of digits (1 to n), which it indexes and iterates
    (``solution[0][2]`` is row 1, column 3), and ``grid``, the same rows as a list.

    >>> Sudoku("1..." + "." * 11 + "4", box=(2, 2)).solve().grid[0]
    [1, 2, 3, 4]
    """

    @property
    def grid(self) -> list[list[int]]:
        """The solved grid: one list of digits per row, top to bottom."""
        return self.data


class Sudoku(Puzzle[SudokuSolution]):
    """A Sudoku: ``grid`` as one string of n*n characters (``.`` or ``0`` blank), a list of
    row strings (``["53..7....", "6..195...", ...]``) or rows of ints (0 blank); a Simon
    Tatham Solo game ID (``"3x3:a5b1_2c..."``, as ``game_id`` writes it), a sudokuwiki
    address or a puzz.link Sudoku URL read as the puzzle it holds; ``box`` (rows, cols) for
    other sizes; the variants' ``regions``, ``diagonals`` and ``cages``. An invalid grid (80
    characters, two 5s in a row) raises ``SolverError`` here.

    >>> Sudoku("." * 81).count(limit=3)
    3
    """

    kind = "sudoku"
    solution_class = SudokuSolution

    def __init__(
        self,
        grid: str | Sequence[str] | Sequence[Sequence[int]],
        *,
        box: tuple[int, int] | None = None,
        regions: Sequence[str] | None = None,
        diagonals: bool = False,
        cages: Sequence[dict[str, Any]] | None = None,
        engine: str | None = None,
        jobs: int = 1,
    ) -> None:
        puzzle: dict[str, Any] = grid_puzzle(grid)
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

    def assist(
        self,
        limit: int | None = None,
        *,
        progress: Progress | None = None,
        cancel: Cancel | None = None,
    ) -> Assistance:
        """What a setter asks of this grid (assist mode): with several solutions, which given
        to add (``add``); with one, which givens can go (``redundant``); with none, which clash
        (``conflict``). ``limit``: count up to this many solutions (default 1,000).

        >>> Sudoku("1234" + "." * 11 + "1", box=(2, 2)).assist().add[0]
        Addition(row=1, col=0, digit=4, count=1)
        """
        fields = {} if limit is None else {"limit": limit}
        request = self.request("assist", **fields)
        request.pop("jobs", None)  # assist mode's searches run one after another
        response = answer(request, progress, cancel)
        conflict = response.get("conflict")
        return Assistance(
            count=response["count"],
            exact=bool(response["complete"]),
            unique=response.get("unique"),
            add=tuple(
                Addition(entry["cell"][0], entry["cell"][1], entry["digit"], entry["count"])
                for entry in response.get("add", ())
            ),
            add_exact=bool(response.get("add_exact", True)),
            redundant=tuple((r, c) for r, c in response.get("redundant", ())),
            minimal=response.get("minimal"),
            conflict=None if conflict is None else tuple((r, c) for r, c in conflict),
            note=response.get("note"),
            cancelled=bool(response.get("cancelled")),
            text=response_text(request, response),
        )

    def _blank(self) -> list[list[int]]:
        grid = self.puzzle["grid"]
        if not isinstance(grid, str):
            return [list(row) for row in grid]
        size = round(len(grid) ** 0.5)
        digits = [0 if ch in ".0" else SYMBOLS.index(ch.upper()) + 1 for ch in grid]
        return [digits[r * size : (r + 1) * size] for r in range(size)]


def grid_puzzle(grid: str | Sequence[str] | Sequence[Sequence[int]]) -> dict[str, Any]:
    """The puzzle fields of ``Sudoku``'s ``grid``: a string as the CLI reads it (a grid, a
    Solo game ID with its box and diagonals, an address), row strings joined into one
    grid, rows of ints as lists."""
    if isinstance(grid, str):
        try:
            pasted = read_pasted(grid)
        except SolveError as error:
            raise SolverError(error.code, error.message, error.path) from None
        return dict(pasted["puzzle"]) if pasted is not None else {"grid": grid}
    rows = list(grid)
    if rows and all(isinstance(row, str) for row in rows):
        return {"grid": "".join(str(row).strip() for row in rows)}
    return {"grid": [list(row) for row in rows]}
