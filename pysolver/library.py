"""The Python library: exact covers as a lazy iterator, and one small class per puzzle kind.

``covers`` walks Algorithm X (the ``dlx`` engine's generator, ``pysolver.engines.dlx.walk``)
in the caller's own thread: each solution comes as soon as the search finds it, and leaving
the loop ends the search, with nothing left running. ``count`` and the puzzle classes
(``Sudoku``, ``Polyomino``, ``Shikaku``, ``Dominoes``, ``Queens``) build protocol requests and
answer through ``pysolver.solve``, so they obey every rule of the protocol (engines, limits,
the listing cap, seeds); ``estimate`` and the classes' ``estimate()`` say how big a count would
be before running it (Knuth's random paths). Bad input raises ``SolverError`` (a
``ValueError``) with the protocol's code, message and path.

Progress and cancel work as in the protocol: ``progress`` is called about every 100 ms with
``{"nodes", "solutions", "fraction", "seconds"}``, ``cancel`` is polled and stops the search
when it returns True. The search runs in the calling thread, so Ctrl-C
(``KeyboardInterrupt``) stops it where it is and leaves nothing running.
"""

from __future__ import annotations

import random as random_module
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from pysolver import pasted, pictures
from pysolver.api import solve
from pysolver.engines import dlx
from pysolver.engines.monitor import Cancelled, Monitor
from pysolver.kinds import kind_module
from pysolver.protocol import SolveError, share_strings

Progress = Callable[[dict[str, Any]], Any]
Cancel = Callable[[], bool]
# Options as lists of item names, or a 0/1 matrix (lists, or anything with ``tolist()``).
Options = Iterable[Sequence[Any]] | Any
# Per primary item, (u, v): covered at least u and at most v times; or v: exactly v times.
Multiplicities = dict[Any, tuple[int, int] | Sequence[int] | int]


class SolverError(ValueError):
    """A request the solver refused: ``code`` and ``path`` as in the protocol's errors."""

    def __init__(self, code: str, message: str, path: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.path = path


# ---------------------------------------------------------------- exact covers


def _is_matrix(rows: list[Any]) -> bool:
    """Whether ``rows`` is a 0/1 matrix rather than lists of item names."""
    return bool(rows) and all(
        not isinstance(entry, str) and entry in (0, 1) for row in rows for entry in row
    )


def _item_name(entry: Any) -> str:
    """The item an option entry names (``x:A`` names ``x``)."""
    return str(entry).split(":", 1)[0]


def exact_cover_puzzle(
    options: Options,
    primary: Iterable[Any] | None = None,
    secondary: Iterable[Any] | None = None,
    multiplicities: Multiplicities | None = None,
) -> dict[str, Any]:
    """The ``exact_cover`` puzzle JSON of ``covers``' arguments.

    A 0/1 matrix names its items by column number (``primary`` and ``secondary`` then list
    column numbers). Without ``primary``, every item not in ``secondary`` is primary, except
    that an item given a colour (``x:A``) is secondary; without ``secondary``, every item not in
    ``primary`` is secondary. Items are in order of first appearance. ``multiplicities`` maps a
    primary item to ``(u, v)`` (covered u to v times) or to ``v`` (exactly v times). Equal
    names are one str, as ``protocol.loads`` makes them (the reader counts any other copy).
    """
    given = options.tolist() if hasattr(options, "tolist") else options
    rows = [row.tolist() if hasattr(row, "tolist") else list(row) for row in given]
    if _is_matrix(rows):
        columns = max(map(len, rows))
        seen = [str(column) for column in range(columns)]
        rows = [[str(column) for column, entry in enumerate(row) if entry] for row in rows]
    else:
        rows = [[str(entry) for entry in row] for row in rows]
        seen = list(dict.fromkeys(_item_name(entry) for row in rows for entry in row))
    coloured = {_item_name(entry) for row in rows for entry in row if ":" in entry}
    primary_names = None if primary is None else [str(item) for item in primary]
    secondary_names = None if secondary is None else [str(item) for item in secondary]
    if primary_names is None:
        excluded = set(secondary_names or ()) | coloured
        primary_names = [item for item in seen if item not in excluded]
    if secondary_names is None:
        taken = set(primary_names)
        secondary_names = [item for item in seen if item not in taken]
    puzzle: dict[str, Any] = share_strings(
        {"items": primary_names, "secondary": secondary_names, "options": rows}
    )
    if multiplicities:
        puzzle["multiplicities"] = {
            str(item): [bounds, bounds] if isinstance(bounds, int) else list(bounds)
            for item, bounds in multiplicities.items()
        }
    return puzzle


def covers(
    options: Options,
    primary: Iterable[Any] | None = None,
    secondary: Iterable[Any] | None = None,
    *,
    multiplicities: Multiplicities | None = None,
    engine: str | None = None,
    seed: int | None = None,
    progress: Progress | None = None,
    cancel: Cancel | None = None,
) -> Generator[list[int], None, None]:
    """Every exact cover of ``options``, lazily, each as the sorted list of chosen option
    indices, in search order (or, with ``seed``, in a random order that seed fixes).

    ``options``: lists of item names (a secondary item written ``x:A`` has colour ``A``, as in
    Knuth's DLX2 and xcover), or a 0/1 matrix (a list of lists, a NumPy array). Primary items
    are covered exactly once, secondary items at most once (or by options that all give them
    the same colour). See ``exact_cover_puzzle`` for the defaults of ``primary`` and
    ``secondary``. ``multiplicities`` (Knuth's DLX3): ``{"a": (u, v)}`` has primary item
    ``a`` covered at least u and at most v times (``{"a": v}``: exactly v); each set of
    options still comes once. ``engine``: only ``"dlx"``, whose search can stop between two
    solutions.

    >>> list(covers([["a", "b"], ["a"], ["b"]]))
    [[0], [1, 2]]
    >>> list(covers([["a"], ["a"], ["a"]], multiplicities={"a": (2, 3)}))
    [[0, 1, 2], [0, 1], [0, 2], [1, 2]]
    """
    if engine not in (None, "dlx"):
        raise SolverError(
            "invalid_request",
            f"covers runs the dlx engine, which can pause between solutions; not {engine!r} "
            "(count() takes every engine)",
            "engine",
        )
    puzzle = exact_cover_puzzle(options, primary, secondary, multiplicities)
    try:
        # Through the registry, as the midend reaches kinds (the kind imports pysolver.facts,
        # which reads this package's version).
        problem = kind_module("exact_cover").parse_puzzle(puzzle)
    except SolveError as error:
        raise SolverError(error.code, error.message, error.path) from None
    return _walk(problem, seed, Monitor(progress, cancel))


def _walk(problem: Any, seed: int | None, monitor: Monitor) -> Generator[list[int], None, None]:
    state = dlx.WalkState()
    rng = None if seed is None else random_module.Random(seed)
    walk = dlx.walk(problem, rng=rng, monitor=monitor, state=state)
    complete = False
    try:
        yield from walk
        complete = not state.cancelled
    except Cancelled:  # cancelled while building the links: nothing found
        pass
    finally:
        walk.close()  # a caller leaving the loop ends the search here
        monitor.finish(state.nodes, state.count, complete)


def _answer(request: dict[str, Any], progress: Progress | None, cancel: Cancel | None) -> Any:
    response = solve(request, progress=progress, cancel=cancel)
    if not response["ok"]:
        error = response["error"]
        raise SolverError(error["code"], error["message"], error.get("path", ""))
    return response


def count(
    options: Options,
    primary: Iterable[Any] | None = None,
    secondary: Iterable[Any] | None = None,
    *,
    multiplicities: Multiplicities | None = None,
    engine: str | None = None,
    limit: int | None = None,
    jobs: int = 1,
    progress: Progress | None = None,
    cancel: Cancel | None = None,
) -> int:
    """The exact number of exact covers of ``options`` (arguments as for ``covers``), up to
    ``limit`` when given; ``engine``: ``"bitset"`` or ``"dlx"`` (default: the kind's choice);
    ``jobs``: worker processes to split the count over. A cancelled count raises
    ``SolverError`` with code ``cancelled``. With ``multiplicities`` it counts distinct sets
    of options (Knuth's "total solutions"), on dlx.

    >>> count([["a", "b"], ["a"], ["b"]])
    2
    >>> count([["a"], ["a"], ["a"]], multiplicities={"a": (2, 3)})
    4
    """
    request: dict[str, Any] = {
        "kind": "exact_cover",
        "mode": "count",
        "limit": limit,
        "jobs": jobs,
        "puzzle": exact_cover_puzzle(options, primary, secondary, multiplicities),
    }
    if engine is not None:
        request["engine"] = engine
    response = _answer(request, progress, cancel)
    if response.get("cancelled"):
        raise SolverError("cancelled", f"cancelled after {response['count']} solutions")
    return int(response["count"])


@dataclass(frozen=True)
class Estimate:
    """Knuth's estimate of a count before running it (``"mode": "estimate"`` of the protocol):
    the search tree's ``nodes``, its ``solutions``, the ``seconds`` the count would take here
    (at the engine's speed measured on this puzzle; None when cancelled first), the random
    paths taken (``probes``; 0 when ``exact``: the count was short enough to run whole) and
    the engine's measured ``nodes_per_second``."""

    nodes: int | None
    solutions: int | None
    seconds: float | None
    probes: int
    exact: bool
    nodes_per_second: int | None
    engine: str

    @classmethod
    def from_response(cls, response: dict[str, Any]) -> Estimate:
        """The estimate of a protocol response of ``"mode": "estimate"``."""
        found = response["estimate"]
        return cls(
            nodes=found["nodes"],
            solutions=found["solutions"],
            seconds=found["seconds"],
            probes=found["probes"],
            exact=bool(found.get("exact", False)),
            nodes_per_second=found["nodes_per_second"],
            engine=response["engine"],
        )


def estimate(
    options: Options,
    primary: Iterable[Any] | None = None,
    secondary: Iterable[Any] | None = None,
    *,
    engine: str | None = None,
    probes: int | None = None,
    seed: int | None = None,
    progress: Progress | None = None,
    cancel: Cancel | None = None,
) -> Estimate:
    """How big ``count`` of the same arguments would be, before running it: Knuth's estimate by
    ``probes`` random paths (default 1,000) fixed by ``seed``, through the tree of ``engine``
    (``"bitset"`` or ``"dlx"``). A cancelled estimate answers over the paths taken.

    >>> estimate([["a", "b"], ["a"], ["b"]]).solutions
    2
    """
    request: dict[str, Any] = {
        "kind": "exact_cover",
        "mode": "estimate",
        "puzzle": exact_cover_puzzle(options, primary, secondary),
    }
    fields = {"engine": engine, "probes": probes, "seed": seed}
    request.update({name: value for name, value in fields.items() if value is not None})
    return Estimate.from_response(_answer(request, progress, cancel))


# ---------------------------------------------------------------- puzzle classes


class Solution:
    """One solution of a puzzle: ``data`` is its protocol JSON; it prints as a picture."""

    def __init__(self, kind: str, puzzle: dict[str, Any], data: Any) -> None:
        self.kind = kind
        self.puzzle = puzzle
        self.data = data

    def __str__(self) -> str:
        return pictures.solution_text(self.kind, self.puzzle, self.data)

    def __repr__(self) -> str:
        return f"<{self.kind} solution>\n{self}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Solution) and (self.kind, self.data) == (other.kind, other.data)

    def __hash__(self) -> int:
        return hash((self.kind, repr(self.data)))

    def _repr_svg_(self) -> str:
        return pictures.SVG[self.kind](self.puzzle, self.data)


class Puzzle:
    """What every puzzle class shares: a protocol puzzle and the modes of the protocol.

    Each method takes ``progress`` and ``cancel`` as ``pysolver.solve`` does; an invalid puzzle
    raises ``SolverError`` at the first method call.
    """

    kind: ClassVar[str]

    def __init__(self, puzzle: dict[str, Any], engine: str | None = None, jobs: int = 1) -> None:
        self.puzzle = puzzle
        self.engine = engine
        self.jobs = jobs
        # The kind's own request fields (the polyomino ``symmetry``).
        self.options: dict[str, Any] = {}
        # A generated puzzle's grade (``generate``): level, score, techniques.
        self.grade: dict[str, Any] | None = None

    @classmethod
    def from_puzzle(cls, puzzle: dict[str, Any], engine: str | None = None, jobs: int = 1) -> Self:
        """This class over a protocol puzzle as it stands (a generated puzzle, a stored
        request's ``puzzle``), without the constructor's arguments."""
        made = cls.__new__(cls)
        Puzzle.__init__(made, puzzle, engine, jobs)
        return made

    @classmethod
    def generate(
        cls,
        difficulty: str | None = None,
        seed: int | None = None,
        *,
        progress: Progress | None = None,
        cancel: Cancel | None = None,
        **size: Any,
    ) -> Self:
        """A new puzzle with exactly one solution (the protocol's generate mode), its
        ``grade`` set. ``size`` holds the kind's puzzle fields for it: ``size=9`` for a
        Sudoku, ``rows=10, cols=10`` for a Shikaku, ``rows=5, cols=3`` for a polyomino
        challenge. ``SolverError`` for a kind that does not generate.

        >>> Sudoku.generate("easy", 7, size=4).count()
        1
        """
        request: dict[str, Any] = {"kind": cls.kind, "mode": "generate", "puzzle": dict(size)}
        if difficulty is not None:
            request["difficulty"] = difficulty
        if seed is not None:
            request["seed"] = seed
        response = _answer(request, progress, cancel)
        made = cls.from_puzzle(response["puzzle"])
        made.grade = response.get("grade")
        return made

    def explain(
        self, *, progress: Progress | None = None, cancel: Cancel | None = None
    ) -> dict[str, Any]:
        """The path of named techniques from the givens to the solution (explain mode): a
        dict of ``steps`` (each with technique, place, eliminate, cells and text) and
        ``grade`` (level, score, techniques). ``SolverError`` for a kind that does not
        explain."""
        request = {"kind": self.kind, "mode": "explain", "puzzle": self.puzzle}
        response = _answer(request, progress, cancel)
        return {"steps": response["steps"], "grade": response["grade"]}

    def hint(
        self,
        entries: Any = None,
        candidates: Any = None,
        *,
        progress: Progress | None = None,
        cancel: Cancel | None = None,
    ) -> dict[str, Any]:
        """The next step from a player's state (hint mode): ``entries`` as hint mode reads
        them (a Sudoku grid of the player's digits; Shikaku rectangles as top, left, height
        and width), ``candidates`` a Sudoku player's pencil marks. A wrong entry gives a step
        whose technique is ``mistake``, with the wrong cells."""
        puzzle = dict(self.puzzle)
        for name, value in (("entries", entries), ("candidates", candidates)):
            if value is not None:
                puzzle[name] = value
        request = {"kind": self.kind, "mode": "hint", "puzzle": puzzle}
        hint: dict[str, Any] = _answer(request, progress, cancel)["hint"]
        return hint

    def request(self, mode: str = "solve", **fields: Any) -> dict[str, Any]:
        """The protocol request of ``mode`` on this puzzle (for ``pysolver.solve``, the CLI)."""
        request: dict[str, Any] = {"kind": self.kind, "mode": mode, "puzzle": self.puzzle}
        if self.engine is not None:
            request["engine"] = self.engine
        if self.jobs != 1:
            request["jobs"] = self.jobs
        request.update(self.options)
        request.update(fields)
        return request

    def _solutions(self, response: dict[str, Any]) -> list[Solution]:
        return [Solution(self.kind, self.puzzle, data) for data in response["solutions"]]

    def solutions(
        self,
        limit: int | None = None,
        *,
        progress: Progress | None = None,
        cancel: Cancel | None = None,
    ) -> list[Solution]:
        """The first ``limit`` solutions in search order (all when None, up to the listing
        cap of ``pysolver.budget``)."""
        response = _answer(self.request("solve", limit=limit), progress, cancel)
        return self._solutions(response)

    def solve(self, *, progress: Progress | None = None, cancel: Cancel | None = None) -> Solution:
        """The first solution; ``SolverError`` (code ``no_solution``) when there is none."""
        found = self.solutions(1, progress=progress, cancel=cancel)
        if not found:
            raise SolverError("no_solution", f"this {self.kind} puzzle has no solution")
        return found[0]

    def count(
        self,
        limit: int | None = None,
        *,
        progress: Progress | None = None,
        cancel: Cancel | None = None,
    ) -> int:
        """The exact number of solutions (up to ``limit`` when given)."""
        return int(_answer(self.request("count", limit=limit), progress, cancel)["count"])

    def random(
        self,
        n: int = 1,
        seed: int | None = None,
        *,
        progress: Progress | None = None,
        cancel: Cancel | None = None,
    ) -> list[Solution]:
        """Up to ``n`` distinct solutions in a random order fixed by ``seed``."""
        fields: dict[str, Any] = {"limit": n}
        if seed is not None:
            fields["seed"] = seed
        return self._solutions(_answer(self.request("random", **fields), progress, cancel))

    def trace(
        self,
        max_steps: int = 1000,
        limit: int = 1,
        *,
        progress: Progress | None = None,
        cancel: Cancel | None = None,
    ) -> list[dict[str, Any]]:
        """The search's first ``max_steps`` steps while it finds ``limit`` solutions (each
        step with ``type``, ``depth``, ``text`` and, where it puts something, ``place``)."""
        request = self.request("trace", limit=limit, max_steps=max_steps)
        steps: list[dict[str, Any]] = _answer(request, progress, cancel)["steps"]
        return steps

    def estimate(
        self,
        probes: int | None = None,
        seed: int | None = None,
        *,
        progress: Progress | None = None,
        cancel: Cancel | None = None,
    ) -> Estimate:
        """How big ``count()`` would be, before running it (see ``pysolver.estimate``);
        ``SolverError`` for a kind whose engines walk no search tree (``Dominoes``)."""
        fields = {
            name: value for name, value in (("probes", probes), ("seed", seed)) if value is not None
        }
        return Estimate.from_response(_answer(self.request("estimate", **fields), progress, cancel))

    def _blank(self) -> Any:
        """The puzzle before solving, in the form of a solution (for its picture)."""
        raise NotImplementedError

    def __str__(self) -> str:
        return pictures.solution_text(self.kind, self.puzzle, self._blank())

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>\n{self}"

    def _repr_svg_(self) -> str:
        return pictures.SVG[self.kind](self.puzzle, self._blank())


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
            _n, box_rows, box_cols, values, _style = kind_module(self.kind).parse_puzzle(
                self.puzzle
            )
        except SolveError as error:
            raise SolverError(error.code, error.message, error.path) from None
        return pasted.solo_id(values, box_rows, box_cols, bool(self.puzzle.get("diagonals")))

    def _blank(self) -> list[list[int]]:
        grid = self.puzzle["grid"]
        if not isinstance(grid, str):
            return [list(row) for row in grid]
        size = round(len(grid) ** 0.5)
        digits = [0 if ch in ".0" else pictures.SYMBOLS.index(ch.upper()) + 1 for ch in grid]
        return [digits[r * size : (r + 1) * size] for r in range(size)]


class Polyomino(Puzzle):
    """A polyomino tiling: ``board`` rows of ``.`` (a cell) and ``#`` (no cell), ``pieces`` as
    the protocol names them (``"pentominoes"``, ``"O4"``, or ``{"name", "cells", "count"}``).
    ``symmetry``: the protocol's (``"all"``, the default, counts every tiling; ``"distinct"``
    counts tilings up to the board's symmetries; ``trace`` needs ``"all"``).

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
        return pictures.polyomino_letters(self.puzzle, [])


class Shikaku(Puzzle):
    """A Shikaku: ``clues`` as ``(row, col, area)``; a solution is one rectangle per clue."""

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
        return pasted.rectangles_id(self.puzzle["rows"], self.puzzle["cols"], clues)

    def _blank(self) -> list[list[int]]:
        return [
            [r, c, 1, 1] for r in range(self.puzzle["rows"]) for c in range(self.puzzle["cols"])
        ]


class Dominoes(Puzzle):
    """Domino tilings of a ``rows`` x ``cols`` board without the ``blocked`` cells.

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
            for r, row in enumerate(pictures.board_rows(self.puzzle))
            for c, cell in enumerate(row)
            if cell == "."
        ]


class Queens(Puzzle):
    """``n`` queens on an ``n`` x ``n`` board, none attacking another; ``queens``: placed
    ones, as ``(row, col)``.

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
