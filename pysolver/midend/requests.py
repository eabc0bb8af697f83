"""``solve(request)``: a request in, a response out, for every kind (``pysolver.api`` delegates).

Reads the request strictly (the fields of ``protocol.REQUEST_FIELDS`` and the kind's
``OPTIONS`` at the top, the kind's ``PUZZLE_FIELDS`` in the puzzle: any other is refused, with
the nearest known name), runs the kind's search serially (``registry.Kind.solve``) or split
into tasks (``pysolver.parallel.solve_split``), applies the count rule and the listing cap's
``solutions_truncated``, and builds the response (``ok``, ``kind``, ``mode``, ``seed``,
``stats.seconds``). Bad input never raises out of ``solve``.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from time import perf_counter
from typing import TYPE_CHECKING, Any

from pysolver import protocol
from pysolver.engines.monitor import Cancelled, SearchResult
from pysolver.engines.subtree import InvalidPath
from pysolver.kinds import is_kind, kind_names
from pysolver.midend import assist, estimate, explain, generate
from pysolver.midend.registry import Kind, heatmap_kinds, kind
from pysolver.protocol import (
    INTERNAL_ERROR,
    INVALID_REQUEST,
    REQUEST_FIELDS,
    TOO_LARGE,
    UNKNOWN_KIND,
    CancelCheck,
    ProgressCallback,
    Query,
    SolveError,
)

if TYPE_CHECKING:
    from pysolver.parallel import Runner


# What a request that ran out of memory is answered (here, and by the page's worker bridge).
OUT_OF_MEMORY = "the puzzle needs more memory than is available; make it smaller"


def solve(
    request: dict[str, Any] | str | bytes,
    progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
    runner: Runner | None = None,
) -> dict[str, Any]:
    """Answer one request (a dict, or JSON text) with a response dict. Never raises on bad input.

    progress: called at most every ~100 ms with ``{"nodes", "solutions", "fraction", "seconds"}``
    (plus ``"recent"``, a solution found lately, when the request says ``"recent": true``); a
    search's last report adds ``"done": true``.
    cancel: polled during the search; when it returns True the search stops cleanly and the
    response says ``complete: false, cancelled: true``.
    runner: runs the subtree tasks of a request with ``jobs`` (``pysolver.parallel``; default:
    worker processes); a request given one is split, with ``jobs`` defaulting to its workers.
    """
    started = perf_counter()
    try:
        if isinstance(request, str | bytes | bytearray):
            request = protocol.loads(request)
        if runner is not None:
            from pysolver import parallel  # the pool machinery loads only when parallel

            request = parallel.request_for_runner(request, runner)
        return _solve(request, progress, cancel, started, runner)
    except SolveError as error:
        return protocol.error_response(error)
    except InvalidPath as error:  # a subtree task whose path the search never takes
        path = f"subtree.path[{error.step}]"
        return protocol.error_response(SolveError(INVALID_REQUEST, f"{path}: {error}", path))
    except MemoryError:
        return protocol.error_response(SolveError(TOO_LARGE, OUT_OF_MEMORY))
    except RecursionError:
        return protocol.error_response(
            SolveError(TOO_LARGE, "the puzzle is nested too deeply to read; make it smaller")
        )
    except Exception as exc:  # a bug of ours: say so plainly rather than crash the caller
        return protocol.error_response(
            SolveError(
                INTERNAL_ERROR, f"internal error ({type(exc).__name__}: {exc}); please report it"
            )
        )


@contextmanager
def _no_cyclic_gc() -> Iterator[None]:
    """Pause Python's cycle collector during a solve.

    A solve allocates up to millions of objects (kept solutions, their JSON), none in reference
    cycles: reference counting frees them all. The cycle collector still walks the whole heap
    every so many allocations, which made decoding 941 listed tilings of 200 dominoes take
    1.5 s instead of 0.4 s, and a cancelled solve answer seconds late.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def read_kind(request: dict[str, Any]) -> Kind:
    """The request's kind, or ``unknown_kind`` naming the kinds there are."""
    name = request.get("kind")
    if name is None:
        raise SolveError(
            UNKNOWN_KIND,
            f"the request has no kind; choose one of {', '.join(kind_names())}",
            "kind",
        )
    if not isinstance(name, str) or not is_kind(name):
        raise SolveError(
            UNKNOWN_KIND,
            f"unknown kind {protocol.shown(name)}; choose one of {', '.join(kind_names())}",
            "kind",
        )
    return kind(name)


def read_request(
    request: Any, progress: ProgressCallback | None, cancel: CancelCheck | None
) -> tuple[Kind, Query, Any]:
    """The kind, the parsed query and the puzzle of a request, every field checked."""
    request = protocol.require_dict(request, "request", code=INVALID_REQUEST)
    the_kind = read_kind(request)
    protocol.check_fields(request, (*REQUEST_FIELDS, *the_kind.module.OPTIONS))
    query = protocol.parse_query(request, progress, cancel)
    if "puzzle" not in request:
        raise SolveError(INVALID_REQUEST, "the request has no puzzle", "puzzle")
    puzzle = request["puzzle"]
    generate.check_request(the_kind, request, query)
    estimate.check_request(the_kind, request, query)
    explain.check_request(the_kind, request, query)
    assist.check_request(the_kind, request, query)
    if query.mode == "generate":
        return the_kind, query, puzzle
    known = explain.puzzle_fields(the_kind, query)
    # A puzzle with none of the kind's fields is another puzzle altogether: the kind's own
    # message says what it needs ("a Sudoku puzzle needs a grid").
    if isinstance(puzzle, dict) and not puzzle.keys().isdisjoint(known):
        protocol.check_fields(puzzle, known, "puzzle")
    if query.heatmap and not the_kind.has_heatmap:
        raise SolveError(
            INVALID_REQUEST,
            f"the {the_kind.name} kind has no heatmap; heatmaps are for "
            f"{', '.join(heatmap_kinds())}",
            "heatmap",
        )
    return the_kind, query, puzzle


def _solve(
    request: Any,
    progress: ProgressCallback | None,
    cancel: CancelCheck | None,
    started: float,
    runner: Runner | None,
) -> dict[str, Any]:
    if runner is None and isinstance(request, dict) and request.get("jobs", 1) != 1:
        from pysolver import parallel  # the pool machinery loads only when parallel

        parallel.start_early(request)
    the_kind, query, puzzle = read_request(request, progress, cancel)
    with _no_cyclic_gc():
        try:
            if query.mode == "generate":
                fields = generate.run(the_kind, puzzle, query)
            elif query.mode == "estimate":
                fields = estimate.run(the_kind, puzzle, query)
            elif query.mode in explain.MODES:
                fields = explain.run(the_kind, puzzle, query)
            elif query.mode == "assist":
                fields = assist.run(the_kind, puzzle, query)
            elif query.jobs > 1 and query.subtree is None:
                from pysolver import parallel  # the pool machinery loads only when parallel

                fields = parallel.solve_split(
                    request,
                    query,
                    the_kind if the_kind.splittable else None,
                    runner or parallel.default_runner(query.jobs, answer_task),
                    lambda: the_kind.solve(puzzle, query),
                )
            else:
                fields = the_kind.solve(puzzle, query)
        except Cancelled:
            # Stopped while building (a matrix, placements, a symmetry reduction): nothing
            # found. Caught inside the ``with``, so the frames the exception held are freed
            # before the cycle collector is back (it would walk all they hold first).
            engines = the_kind.module.ENGINES
            engine = query.engine if query.engine in engines else engines[0]
            fields = protocol.response_fields(
                SearchResult(complete=False, cancelled=True, stats={"nodes": 0}), engine
            )
    protocol.cap_count(fields, query)
    if query.wants_solutions and len(fields["solutions"]) < fields["count"]:
        # Past the listing cap (pysolver.budget.listed_cap) solutions are counted, not listed.
        fields["solutions_truncated"] = True
    response: dict[str, Any] = {"ok": True, "kind": the_kind.name, "mode": query.mode}
    if query.seed is not None:
        response["seed"] = query.seed
    response.update(fields)
    stats = dict(response.get("stats") or {})
    stats["seconds"] = round(perf_counter() - started, 6)
    response["stats"] = stats
    return response


def answer_task(
    text: str, cancel: CancelCheck | None = None, progress: ProgressCallback | None = None
) -> str:
    """Answer one subtree task given and returned as JSON text: what every runner executes
    (module-level, so worker processes and Dask workers receive it by reference)."""
    return protocol.dumps(solve(text, progress=progress, cancel=cancel))
