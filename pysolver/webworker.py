"""The Python side of the page's web worker (web/runtime/worker.mjs).

Once Pyodide has installed the wheel, the worker makes its answerer once with ``connect`` (its
two hooks below) and calls it for every ``{type: "solve", id, text, call}`` message; what it
returns is the ``text`` of the ``{type: "result"}`` message, and each progress report becomes a
``{type: "progress", id, text}`` message through ``post_progress``. Everything that crosses the
boundary is JSON text written by ``protocol.dumps``, so counts of any size arrive whole (Python
refuses int->str beyond 4,300 digits unless told otherwise, and a JavaScript number would round
them).

The worker passes its own JavaScript functions: ``post_progress(id, text)`` posts a message, and
``is_cancelled(id)`` reads the page's shared cancel flag. Without cross-origin isolation there is
no shared flag, the worker passes ``undefined`` (None here), and the page cancels by terminating
the worker instead.
"""

from __future__ import annotations

import gc
from collections.abc import Callable

from pysolver import parallel, protocol
from pysolver.api import solve
from pysolver.kinds import kind_module, kind_names
from pysolver.midend.requests import OUT_OF_MEMORY
from pysolver.protocol import TOO_LARGE, SolveError

# post_progress(request id, report as JSON text); what it returns is ignored.
PostProgress = Callable[[int, str], object]
# is_cancelled(request id) -> truthy once the page asked to cancel that request.
IsCancelled = Callable[[int], object]
# answer(request text, request id, call) -> the answer as JSON text (see connect).
Answer = Callable[[str, int, str], str]

# The calls a "solve" message may name: the pool of workers (web/runtime/pool.js) plans on one
# worker and merges the task answers there; everything else is an ordinary solve.
PLAN = "plan"
MERGE = "merge"
SOLVE = "solve"


# The too_large answer of a request that ran out of memory, written once at import so that
# answering it allocates nothing (the worker also sends it when Python's MemoryError escapes).
OUT_OF_MEMORY_TEXT = protocol.dumps(protocol.error_response(SolveError(TOO_LARGE, OUT_OF_MEMORY)))


def connect(post_progress: PostProgress, is_cancelled: IsCancelled | None) -> Answer:
    """The worker's answerer, made once with its two hooks: ``answer(request_text, request_id,
    call)`` answers one message (see ``run_solve``).

    Why once: a JavaScript function passed into Python becomes a new proxy at every call, and in
    the page a request with nothing to search cost 0.44 ms of worker CPU against 0.08 ms in
    CPython; the hooks made once, and the request's last report not posted when it is its only
    one, took a share of that off every request (docs/benchmarks.md).
    """

    def answer(request_text: str, request_id: int, call: str = SOLVE) -> str:
        posted = False

        def progress(report: dict[str, object]) -> None:
            nonlocal posted
            if not posted and report.get("done"):
                # The request ended before its first report was due (Monitor.interval): the
                # answer follows at once and says all the report would, so no message.
                return
            posted = True
            post_progress(request_id, protocol.dumps(report))

        def cancelled() -> bool:
            assert is_cancelled is not None
            return bool(is_cancelled(request_id))

        cancel = cancelled if is_cancelled is not None else None
        try:
            if call == PLAN:
                return parallel.plan_text(request_text, solve, progress=progress, cancel=cancel)
            if call == MERGE:
                return parallel.merge_text(request_text, solve)
            return protocol.dumps(solve(request_text, progress=progress, cancel=cancel))
        except MemoryError:
            # Out of memory outside the solve's own guard (writing the answer, the bridge): the
            # answer made at import, which needs no new memory.
            return OUT_OF_MEMORY_TEXT

    return answer


def run_solve(
    request_text: str,
    request_id: int,
    post_progress: PostProgress,
    is_cancelled: IsCancelled | None,
    call: str = SOLVE,
) -> str:
    """Answer one worker message: the response (or plan, or merged response) as JSON text.

    Never raises on bad input: the request's own errors are answered as ``ok: false``
    responses, as ``pysolver.solve`` answers them. Progress reports go to ``post_progress``
    from the first one due on (a request that ends before then posts none: its answer says
    all); ``connect`` makes the same answerer once for many requests.
    """
    return connect(post_progress, is_cancelled)(request_text, request_id, call)


def live_objects() -> int:
    """The objects Python tracks after a full garbage collection: what the solves so far kept.
    The worker sends it in its "memory" message, beside the size of Pyodide's WebAssembly memory
    (which only grows, so it says the most ever used, not what is kept)."""
    gc.collect()
    return len(gc.get_objects())


def warm_up() -> None:
    """Import every kind and the engines its table names, so no request pays for them.

    The worker calls this once, just after it has said it is ready (so the page's ready time
    does not grow). Without it the first request of each kind imported its modules: in CPython
    21.6 ms of CPU for the first Sudoku (3.7 ms once warm), 22.6 ms for the first polyomino
    (0.8 ms); the warm-up takes 120 ms of CPU for all six kinds, several times that in Pyodide.
    """
    for name in kind_names():
        kind_module(name)
