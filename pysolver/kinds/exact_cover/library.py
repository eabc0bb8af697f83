"""The exact cover kind in the Python library: ``covers`` (every exact cover, lazily, from the
``dlx`` engine's generator ``pysolver.engines.dlx.walk`` in the caller's own thread), ``count``
and ``estimate`` (through ``pysolver.solve``), and ``exact_cover_puzzle``, the puzzle JSON of
their arguments. ``pysolver`` and ``pysolver.library`` export them."""

from __future__ import annotations

import random as random_module
from collections.abc import Generator, Iterable, Sequence
from typing import Any

from pysolver.engines import dlx
from pysolver.engines.monitor import Cancelled, Monitor
from pysolver.kinds.exact_cover import parse_puzzle
from pysolver.library import Cancel, Estimate, Progress, SolverError, answer
from pysolver.protocol import SolveError, share_strings

__all__ = ["count", "covers", "estimate", "exact_cover_puzzle"]

# Options as lists of item names, or a 0/1 matrix (lists, or anything with ``tolist()``).
Options = Iterable[Sequence[Any]] | Any
# Per primary item, (u, v): covered at least u and at most v times; or v: exactly v times.
Multiplicities = dict[Any, tuple[int, int] | Sequence[int] | int]


def _is_matrix(rows: list[Any]) -> bool:
    """Whether ``rows`` is a 0/1 matrix rather than lists of item names."""
    return bool(rows) and all(
        not isinstance(entry, str) and entry in (0, 1) for row in rows for entry in row
    )


def _option_entries(row: Any, index: int) -> list[Any]:
    """Option ``index`` as a list of its entries; ``SolverError`` for a bare string, which
    would otherwise read as one item per character (``"bc"`` as ``b`` and ``c``)."""
    if isinstance(row, str):
        raise SolverError(
            "invalid_puzzle",
            f"option {index} is the string {row!r}, not a list of item names; write "
            f"[{row!r}] for one item of that name, or {list(row)!r} "
            "for one item per character",
            f"options[{index}]",
        )
    return list(row.tolist() if hasattr(row, "tolist") else row)


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
    if isinstance(given, str):
        raise SolverError(
            "invalid_puzzle",
            f"the options are the string {given!r}; give a list of options, each a list of "
            'item names: [["a", "b"], ["c"]]',
            "options",
        )
    rows = [_option_entries(row, index) for index, row in enumerate(given)]
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
        problem = parse_puzzle(puzzle)
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
    response = answer(request, progress, cancel)
    if response.get("cancelled"):
        raise SolverError("cancelled", f"cancelled after {response['count']} solutions")
    return int(response["count"])


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
    return Estimate.from_response(answer(request, progress, cancel))
