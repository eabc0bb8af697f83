"""The Python library: one small class per puzzle kind, and the exact cover functions, over
``pysolver.solve``.

Each kind's folder holds its part (``pysolver/kinds/<kind>/library.py``, named in its
``__all__``), and this module and ``pysolver`` export every kind's names: ``Sudoku``,
``Polyomino``, ``Shikaku``, ``Dominoes``, ``Queens``, and the exact cover kind's ``covers``
(Algorithm X as a lazy iterator in the caller's own thread: each solution comes as soon as the
search finds it, and leaving the loop ends the search, with nothing left running), ``count``
and ``estimate``. Here is what they share: ``Puzzle``, the base of the puzzle classes, which
build protocol requests and answer through ``pysolver.solve``, so they obey every rule of the
protocol (engines, limits, the listing cap, seeds); ``Solution``, which prints as the kind's
picture; ``Estimate`` (how big a count would be before running it: Knuth's random paths); and
``SolverError`` (a ``ValueError``), raised for bad input with the protocol's code, message and
path.

Progress and cancel work as in the protocol: ``progress`` is called about every 100 ms with
``{"nodes", "solutions", "fraction", "seconds"}``, ``cancel`` is polled and stops the search
when it returns True. The search runs in the calling thread, so Ctrl-C
(``KeyboardInterrupt``) stops it where it is and leaves nothing running.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar, Generic, Self, TypedDict, TypeVar, cast

from pysolver import pictures
from pysolver.api import solve
from pysolver.kinds import kind_module, kind_names, kind_part
from pysolver.protocol import SolveError

Progress = Callable[[dict[str, Any]], Any]
Cancel = Callable[[], bool]


class SolverError(ValueError):
    """A request the solver refused: ``code`` and ``path`` as in the protocol's errors."""

    def __init__(self, code: str, message: str, path: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.path = path


def answer(request: dict[str, Any], progress: Progress | None, cancel: Cancel | None) -> Any:
    """The response of ``pysolver.solve``; ``SolverError`` for an error response."""
    response = solve(request, progress=progress, cancel=cancel)
    if not response["ok"]:
        error = response["error"]
        raise SolverError(error["code"], error["message"], error.get("path", ""))
    return response


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


class Step(TypedDict):
    """One step of an explanation (``explain``) or a hint (``hint``), a dict as the protocol
    answers it: the ``technique`` it uses (``"hidden single"``; ``"mistake"`` for a hint that
    names wrong entries), what it ``place``s (Sudoku ``[row, col, digit]``; Shikaku ``{"clue":
    i, "rect": [top, left, height, width]}``) and ``eliminate``s (Sudoku ``[row, col,
    digit]``), the ``cells`` it looks at (``[row, col]``, 0-based) and its ``text`` for a
    person (rows and columns counted from 1)."""

    technique: str
    place: list[Any]
    eliminate: list[Any]
    cells: list[list[int]]
    text: str


class Grade(TypedDict, total=False):
    """How hard a puzzle is: its ``level`` (``"easy"``, ``"medium"``, ``"hard"``,
    ``"expert"``; Sudoku also ``"fiendish"``, between the last two) and the kind's measures:
    ``score`` and ``techniques`` (the uses of each) for Sudoku and Shikaku, ``givens`` or
    ``clues``, the search's ``nodes`` for polyomino and Star Battle tilings (with ``pieces``,
    ``effort``)."""

    level: str
    score: int
    techniques: dict[str, int]
    givens: int
    clues: int
    nodes: int
    pieces: int
    effort: float


class Explanation(TypedDict):
    """The answer of ``explain``: the ``steps`` from the givens to the solution, each one
    named technique, and the path's ``grade``."""

    steps: list[Step]
    grade: Grade


# ---------------------------------------------------------------- puzzle classes

# What one solution is a list of: a Sudoku's rows, a Shikaku's rectangles, a queen's cell.
Item = TypeVar("Item")


class Solution(Generic[Item]):
    """One solution of a puzzle: ``data`` is its protocol JSON (a list: a Sudoku's rows of
    digits, a Shikaku's rectangles, the queens' cells, the tiling's placed pieces), which the
    solution indexes and iterates as a list does; it prints as a picture.

    >>> solution = Queens(4).solve()
    >>> solution[0], len(solution)
    ([0, 2], 4)
    """

    def __init__(self, kind: str, puzzle: dict[str, Any], data: list[Item]) -> None:
        self.kind = kind
        self.puzzle = puzzle
        self.data = data

    def __getitem__(self, index: int) -> Item:
        return self.data[index]

    def __iter__(self) -> Iterator[Item]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)

    def __str__(self) -> str:
        return pictures.solution_text(self.kind, self.puzzle, self.data)

    def __repr__(self) -> str:
        return f"<{self.kind} solution>\n{self}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Solution) and (self.kind, self.data) == (other.kind, other.data)

    def __hash__(self) -> int:
        return hash((self.kind, repr(self.data)))

    def _repr_svg_(self) -> str | None:
        return pictures.solution_svg(self.kind, self.puzzle, self.data)


# The solutions a puzzle class answers with (``Solution`` of its kind's items, or a subclass).
SolutionType = TypeVar("SolutionType", bound=Solution[Any])


class Puzzle(Generic[SolutionType]):
    """What every puzzle class shares: a protocol puzzle and the modes of the protocol.

    Each method takes ``progress`` and ``cancel`` as ``pysolver.solve`` does. The constructor
    checks the puzzle as the protocol reads it and raises ``SolverError`` for an invalid one
    (the search runs later, in the method called).
    """

    kind: ClassVar[str]
    # The class of this kind's solutions (a subclass adds what its kind's solutions offer).
    solution_class: ClassVar[type[Solution[Any]]] = Solution

    def __init__(self, puzzle: dict[str, Any], engine: str | None = None, jobs: int = 1) -> None:
        # The kind's own reading of its puzzle (what a request's would meet first), when it
        # has one: an invalid puzzle is refused where it is written, not at a later call.
        parse = getattr(kind_module(self.kind), "parse_puzzle", None)
        try:
            if parse is not None:
                parse(puzzle)
        except SolveError as error:
            raise SolverError(error.code, error.message, error.path) from None
        self.puzzle = puzzle
        self.engine = engine
        self.jobs = jobs
        # The kind's own request fields (the polyomino ``symmetry``).
        self.options: dict[str, Any] = {}
        # A generated puzzle's grade (``generate``): level, score, techniques.
        self.grade: Grade | None = None

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
        response = answer(request, progress, cancel)
        made = cls.from_puzzle(response["puzzle"])
        made.grade = response.get("grade")
        return made

    def explain(
        self, *, progress: Progress | None = None, cancel: Cancel | None = None
    ) -> Explanation:
        """The path of named techniques from the givens to the solution (explain mode): an
        ``Explanation`` (a dict) of ``steps`` (each a ``Step``: technique, place, eliminate,
        cells and text) and ``grade`` (level, score, techniques). ``SolverError`` for a kind
        that does not explain."""
        request = {"kind": self.kind, "mode": "explain", "puzzle": self.puzzle}
        response = answer(request, progress, cancel)
        return {"steps": response["steps"], "grade": response["grade"]}

    def hint(
        self,
        entries: Any = None,
        candidates: Any = None,
        *,
        progress: Progress | None = None,
        cancel: Cancel | None = None,
    ) -> Step:
        """The next step from a player's state (hint mode), a ``Step`` (a dict): ``entries``
        as hint mode reads them (a Sudoku grid of the player's digits; Shikaku rectangles as
        top, left, height and width), ``candidates`` a Sudoku player's pencil marks. A wrong
        entry gives a step whose technique is ``mistake``, with the wrong cells."""
        puzzle = dict(self.puzzle)
        for name, value in (("entries", entries), ("candidates", candidates)):
            if value is not None:
                puzzle[name] = value
        request = {"kind": self.kind, "mode": "hint", "puzzle": puzzle}
        hint: Step = answer(request, progress, cancel)["hint"]
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

    def _solutions(self, response: dict[str, Any]) -> list[SolutionType]:
        made = self.solution_class
        return [
            cast(SolutionType, made(self.kind, self.puzzle, data)) for data in response["solutions"]
        ]

    def solutions(
        self,
        limit: int | None = None,
        *,
        progress: Progress | None = None,
        cancel: Cancel | None = None,
    ) -> list[SolutionType]:
        """The first ``limit`` solutions in search order (all when None, up to the listing
        cap of ``pysolver.budget``)."""
        response = answer(self.request("solve", limit=limit), progress, cancel)
        return self._solutions(response)

    def solve(
        self, *, progress: Progress | None = None, cancel: Cancel | None = None
    ) -> SolutionType:
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
        return int(answer(self.request("count", limit=limit), progress, cancel)["count"])

    def random(
        self,
        n: int = 1,
        seed: int | None = None,
        *,
        progress: Progress | None = None,
        cancel: Cancel | None = None,
    ) -> list[SolutionType]:
        """Up to ``n`` distinct solutions in a random order fixed by ``seed``."""
        fields: dict[str, Any] = {"limit": n}
        if seed is not None:
            fields["seed"] = seed
        return self._solutions(answer(self.request("random", **fields), progress, cancel))

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
        steps: list[dict[str, Any]] = answer(request, progress, cancel)["steps"]
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
        return Estimate.from_response(answer(self.request("estimate", **fields), progress, cancel))

    def _blank(self) -> Any:
        """The puzzle before solving, in the form of a solution (for its picture)."""
        raise NotImplementedError

    def __str__(self) -> str:
        return pictures.solution_text(self.kind, self.puzzle, self._blank())

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>\n{self}"

    def _repr_svg_(self) -> str | None:
        return pictures.solution_svg(self.kind, self.puzzle, self._blank())


# ---------------------------------------------------------------- every kind's names


@cache
def kind_exports() -> dict[str, Any]:
    """Every name the kinds' library modules list in their ``__all__``, in registry order."""
    exports: dict[str, Any] = {}
    for kind in kind_names():
        module = kind_part(kind, "library")
        for name in getattr(module, "__all__", ()):
            if name in exports:
                raise ImportError(f"two kinds' library modules export {name!r}")
            exports[name] = getattr(module, name)
    return exports


def __getattr__(name: str) -> Any:
    # The kinds' names, found on first use: importing the library imports no kind.
    if not name.startswith("__"):
        found = kind_exports().get(name)
        if found is not None:
            return found
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
