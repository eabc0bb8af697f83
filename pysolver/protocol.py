"""The JSON protocol shared by the worker, the CLI and the tests.

Request::

    {"kind": "sudoku", "mode": "solve", "limit": 1, "seed": 7, "engine": "dlx", "puzzle": {...}}

Response::

    {"ok": true, "kind": "sudoku", "mode": "solve", "engine": "dlx", "count": 1,
     "complete": true, "solutions": [...], "stats": {"seconds": 0.004, "nodes": 81}}

Trace mode (``"mode": "trace"``, optional ``"max_steps"``, default ``DEFAULT_MAX_STEPS``, at
most ``MAX_TRACE_STEPS``) adds ``"steps"`` and ``"truncated"``; ``"heatmap": true`` in count
mode adds ``"heatmap"`` (kinds with a ``heatmap`` function). See docs/protocol.md.

Parallel search (see ``pysolver.parallel``): ``"jobs": N`` (an integer from 1 to ``MAX_JOBS``,
default 1) splits the search into subtree tasks run by N workers; a task is the request with
``"subtree": {"branch": B, "path": [...]}`` (``SubtreeRequest``), which searches only there.
Random mode, trace mode, heatmaps and kinds without ``split`` (dominoes) are not split: with
``jobs`` they run as one serial search and the response says so in ``parallel.note``. Past the
listing cap the response adds ``"solutions_truncated": true`` (``pysolver.budget``).

Errors::

    {"ok": false, "error": {"code": "invalid_puzzle", "message": "...", "path": "puzzle.grid"}}

This module holds what every kind needs to read a request: the error type, the parsed
``Query`` (mode, limit, seed, engine, progress and cancel hooks) and small validators that raise
``SolveError`` with the JSON path of the offending value, so every message can point at it.
"""

from __future__ import annotations

import difflib
import json
import math
import random
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from pysolver.engines.monitor import SearchResult

MODES = ("solve", "count", "random", "trace", "generate", "explain", "hint", "estimate", "assist")

# Trace mode: steps recorded by default, and the documented cap (about 30 MB of steps).
DEFAULT_MAX_STEPS = 2000
MAX_TRACE_STEPS = 100_000
# Estimate mode (``pysolver.midend.estimate``): random paths taken by default, and at most.
DEFAULT_PROBES = 1000
MAX_PROBES = 100_000
# A heatmap is summed over the solutions, kept while counting: at most this many of them.
MAX_HEATMAP_SOLUTIONS = 100_000
# Assist mode (``pysolver.midend.assist``): solutions counted by default, exactly, to tell a
# setter which givens to add; a limit below 2 could not see two solutions differ.
DEFAULT_ASSIST_LIMIT = 1000

# Response fields that are lists parallel to ``solutions`` (one entry per solution): a parallel
# search merges them with the solutions.
SOLUTION_FIELDS = ("colors",)

# Error codes; the message says what to fix, the path says where.
INVALID_JSON = "invalid_json"
INVALID_REQUEST = "invalid_request"
INVALID_PUZZLE = "invalid_puzzle"
UNKNOWN_KIND = "unknown_kind"
UNKNOWN_MODE = "unknown_mode"
UNKNOWN_ENGINE = "unknown_engine"
TOO_LARGE = "too_large"
INTERNAL_ERROR = "internal_error"
# Stopped before there was anything to answer: the page's client, and the CLI when its
# --timeout or a signal comes while the request is still being read.
CANCELLED = "cancelled"
# The runtime or the cluster answering the request is gone: the page's Python runtime, or the
# Dask cluster of a parallel run (the response then keeps the partial answer of the tasks that
# completed, and ``parallel.failed`` names those lost).
UNAVAILABLE = "unavailable"

# Every error code a response can carry, with what it means to a person. The first group comes
# from ``solve``; the last three are made around it, by the page's JavaScript client (and
# ``cancelled`` also by the CLI, ``pysolver.__main__``), but live here so both sides read one
# list (facts.json).
ERROR_CODES = {
    INVALID_JSON: "The request is not valid JSON.",
    INVALID_REQUEST: "A field of the request (mode, limit, seed, engine...) is wrong.",
    INVALID_PUZZLE: "The puzzle itself is wrong; the path says where.",
    UNKNOWN_KIND: "No puzzle kind has that name.",
    UNKNOWN_MODE: "No mode has that name.",
    UNKNOWN_ENGINE: "This kind has no engine of that name.",
    TOO_LARGE: "The puzzle is larger than the documented limits; the message says what to shrink.",
    INTERNAL_ERROR: "A bug in pysolver; please report it with the request.",
    CANCELLED: "The solve was stopped before there was an answer (the page's cancel; the CLI's "
    "--timeout or a signal while the request was still being read).",
    UNAVAILABLE: "The Python runtime (page) or the Dask cluster (--scheduler) was lost; a "
    "parallel run keeps the count of the tasks that completed, with complete: false.",
    "client_error": "(page only) The page could not send the request or read the answer.",
}

ProgressCallback = Callable[[dict[str, Any]], Any]
CancelCheck = Callable[[], bool]


class SolveError(Exception):
    """Bad input, reported to the user as ``{"ok": false, "error": {...}}``."""

    def __init__(self, code: str, message: str, path: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.path = path

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message, "path": self.path}


# Longest piece of user input a message repeats: a 10 MB piece name must not make a 10 MB
# message. Every message that quotes the request goes through ``shown``.
MAX_ECHO_CHARS = 60
# Integers longer than this many bits are described, not written: writing one costs time
# quadratic in its length, and past 4,300 digits Python refuses to (``ValueError``).
MAX_ECHO_INT_BITS = 200


def shown(value: Any) -> str:
    """A value from the request as a message repeats it: a string as Python quotes it
    (control characters escaped), anything else as JSON, cut to ``MAX_ECHO_CHARS`` with an
    ellipsis (without writing out a huge value)."""
    if isinstance(value, str):
        # Cut before repr: a huge string is not copied whole; repr escapes control characters.
        return (
            repr(value[:MAX_ECHO_CHARS])
            if len(value) <= MAX_ECHO_CHARS
            else (repr(value[: MAX_ECHO_CHARS - 1] + "…"))
        )
    if isinstance(value, int) and not isinstance(value, bool):
        if value.bit_length() > MAX_ECHO_INT_BITS:
            digits = int(value.bit_length() * math.log10(2)) + 1
            return f"an integer of about {digits:,} digits"
        return _cut(str(value))
    text = ""
    try:
        for piece in json.JSONEncoder(ensure_ascii=False, default=repr).iterencode(value):
            text += piece
            if len(text) > MAX_ECHO_CHARS:
                break
    except ValueError:  # an integer past Python's 4,300 digits inside a list or object
        return f"{_type_name(value)} holding a huge integer"
    return _cut(text)


def field_path(parent: str, key: Any) -> str:
    """The JSON path of a field the request named (an unknown one, say), its name cut as
    ``shown`` cuts it: ``subtree.<key>``."""
    return f"{parent}.{_cut(key) if isinstance(key, str) else shown(key)}"


def _cut(text: str) -> str:
    if len(text) > MAX_ECHO_CHARS:
        return text[: MAX_ECHO_CHARS - 1] + "…"
    return text


def puzzle_error(message: str, path: str = "puzzle") -> SolveError:
    """The usual error of a kind: the puzzle itself is wrong."""
    return SolveError(INVALID_PUZZLE, message, path)


@dataclass
class SubtreeRequest:
    """A part of the search tree (request field ``subtree``, written by ``pysolver.parallel``).

    ``branch``: which of the kind's searches, in the order the serial solve runs them (most
    kinds run one; polyomino symmetry runs several). ``path``: the choices at the branch points
    from the root, in the engine family's terms (exact cover: option indices; propagation:
    ``[variable, 0]`` for a variable's first candidate, ``[variable, 1]`` for the rest).
    """

    branch: int = 0
    path: list[Any] = field(default_factory=list)


@dataclass
class Query:
    """Everything about a request except the puzzle itself."""

    mode: str = "solve"
    # Most solutions to return (solve, random) or to count (count); None means no cap.
    limit: int | None = 1
    seed: int | None = None
    # None means the kind's default engine; kinds resolve it with ``engine_for``.
    engine: str | None = None
    progress: ProgressCallback | None = None
    cancel: CancelCheck | None = None
    # Extra top-level request fields, for kind-specific options (e.g. polyomino "symmetry").
    extra: dict[str, Any] = field(default_factory=dict)
    # Trace mode: the most steps to record (see pysolver.engines.trace).
    max_steps: int = DEFAULT_MAX_STEPS
    # Count mode: also answer per piece / digit / clue how many solutions cover each cell.
    heatmap: bool = False
    # Workers to split the search over ("jobs"; see pysolver.parallel). 1: search serially.
    jobs: int = 1
    # Only this subtree of the search ("subtree"): how parallel tasks are written.
    subtree: SubtreeRequest | None = None

    def subtree_path(self) -> list[Any] | None:
        """The path to search below, for a kind that runs one search; None: the whole tree."""
        if self.subtree is None:
            return None
        self.subtree_branch(1)
        return self.subtree.path

    def subtree_branch(self, branches: int) -> int | None:
        """The search (of a kind's ``branches`` searches, in order) the subtree lies in."""
        if self.subtree is None:
            return None
        if self.subtree.branch >= branches:
            raise SolveError(
                INVALID_REQUEST,
                f"subtree.branch is {self.subtree.branch} but this request runs "
                f"{branches} search{'es' if branches > 1 else ''} (branches 0 to {branches - 1})",
                "subtree.branch",
            )
        return self.subtree.branch

    @property
    def wants_solutions(self) -> bool:
        """The response lists solutions (count mode counts them; a hint keeps them hidden;
        an estimate has none)."""
        return self.mode not in ("count", "hint", "estimate", "assist")

    # Progress reports carry a solution found lately ("recent": true).
    recent: bool = False
    # Estimate mode: how many random paths to take ("probes").
    probes: int = DEFAULT_PROBES

    @property
    def wants_recent(self) -> bool:
        """The request asks for recent solutions in its progress reports (``"recent": true``)."""
        return self.progress is not None and self.recent

    @property
    def search_limit(self) -> int | None:
        """The limit an engine searches to. Count mode looks one solution past ``limit``: a
        total equal to ``limit`` is then known to be the whole total (``complete: true``), and
        one more says there are more (``cap_count`` reports ``limit``, ``complete: false``)."""
        if self.mode == "count" and self.limit is not None:
            return self.limit + 1
        return self.limit

    def rng(self) -> random.Random:
        """The random source of ``random`` mode, fixed by ``seed``."""
        return random.Random(self.seed)


def heatmap_limit(query: Query, cap: int = MAX_HEATMAP_SOLUTIONS) -> int:
    """The limit a heatmap count runs with: one past the request's, as every count looks one
    past ``limit`` (``Query.search_limit``), or one past the cap (to see it hit). The heatmap
    sums only the first ``limit`` solutions (``heatmap_solutions``).

    cap: how many solutions the heatmap may keep (``MAX_HEATMAP_SOLUTIONS``, or fewer where the
    memory budget says so: ``budget.heatmap_cap``)."""
    if query.limit is None or query.limit > cap:
        return cap + 1
    return query.limit + 1


def heatmap_solutions(solutions: list[Any], count: int, query: Query, cap: int) -> list[Any]:
    """The solutions a heatmap sums: the first ``limit`` of those a heatmap count kept, after
    refusing (``check_heatmap_count``) a heatmap over more than ``cap``."""
    check_heatmap_count(count if query.limit is None else min(count, query.limit), cap)
    return solutions[: query.limit]


def check_heatmap_count(count: int, cap: int = MAX_HEATMAP_SOLUTIONS) -> None:
    """Refuse a heatmap over more solutions than ``cap`` (see ``heatmap_limit``)."""
    if count > cap:
        raise SolveError(
            TOO_LARGE,
            f"a heatmap of this puzzle sums at most {cap:,} solutions (it keeps each one) and "
            "this puzzle has more; count without the heatmap, set a limit, or constrain the "
            "puzzle further",
            "heatmap",
        )


def empty_grid(rows: int, cols: int) -> list[list[int]]:
    """A heatmap grid of zeros (a list of rows)."""
    return [[0] * cols for _ in range(rows)]


# ---------------------------------------------------------------- validators


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def check_fields(value: dict[str, Any], known: Iterable[str], path: str = "") -> None:
    """Refuse (``invalid_request``) a field of the object at ``path`` (``""``: the request)
    that is not one of ``known``, naming its path and the nearest known name."""
    known = tuple(known)
    for name in value:
        if name in known:
            continue
        text = str(name)
        if len(text) > MAX_ECHO_CHARS:
            text = text[: MAX_ECHO_CHARS - 1] + "…"
        message = f"unknown field '{text}'" + (f" in {path}" if path else "")
        message += did_you_mean(str(name), known) or f"; the fields are {', '.join(known)}"
        raise SolveError(INVALID_REQUEST, message, f"{path}.{text}" if path else text)


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` with the known name nearest a misspelt ``name``, or ``""``."""
    nearest = difflib.get_close_matches(name, tuple(known), n=1)
    return f"; did you mean '{nearest[0]}'?" if nearest else ""


def require_dict(value: Any, path: str, code: str = INVALID_PUZZLE) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise SolveError(code, f"{path} must be an object, not {_type_name(value)}", path)
    return value


def require_list(value: Any, path: str, code: str = INVALID_PUZZLE) -> list[Any]:
    if not isinstance(value, list):
        raise SolveError(code, f"{path} must be a list, not {_type_name(value)}", path)
    return value


def require_str(value: Any, path: str, code: str = INVALID_PUZZLE) -> str:
    if not isinstance(value, str):
        raise SolveError(code, f"{path} must be a string, not {_type_name(value)}", path)
    return value


def require_bool(value: Any, path: str, code: str = INVALID_PUZZLE) -> bool:
    if not isinstance(value, bool):
        raise SolveError(code, f"{path} must be true or false, not {_type_name(value)}", path)
    return value


def require_int(
    value: Any,
    path: str,
    minimum: int | None = None,
    maximum: int | None = None,
    code: str = INVALID_PUZZLE,
) -> int:
    """An integer (not a boolean, not a float) within [minimum, maximum]."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise SolveError(code, f"{path} must be an integer, not {_type_name(value)}", path)
    if minimum is not None and value < minimum:
        raise SolveError(code, f"{path} must be at least {minimum}, got {shown(value)}", path)
    if maximum is not None and value > maximum:
        raise SolveError(code, f"{path} must be at most {maximum}, got {shown(value)}", path)
    return value


def engine_for(query: Query, engines: tuple[str, ...]) -> str:
    """The engine a kind should run: the requested one if the kind has it, else its default.

    ``engines[0]`` is the kind's default (the faster one on its benchmark).
    """
    if query.engine is None:
        return engines[0]
    if query.engine not in engines:
        raise SolveError(
            UNKNOWN_ENGINE,
            f"unknown engine {shown(query.engine)} for this kind; choose one of "
            f"{', '.join(engines)}",
            "engine",
        )
    return query.engine


# ---------------------------------------------------------------- responses


def response_fields(
    result: SearchResult[Any],
    engine: str,
    stats: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A kind's response fields from its search result (solutions already decoded to JSON).

    ``count``, ``complete``, ``solutions``, ``stats`` (the engine's, plus the kind's ``stats``),
    ``engine``, ``cancelled: true`` when the search was cancelled, and the kind's ``extra``
    fields. ``solve`` adds ``ok``, ``kind``, ``mode``, ``seed`` and ``stats.seconds``.
    """
    fields: dict[str, Any] = {
        "engine": engine,
        "count": result.count,
        "complete": result.complete,
        "solutions": result.solutions,
        "stats": {**result.stats, **(stats or {})},
    }
    if result.cancelled:
        fields["cancelled"] = True
    fields.update(extra)
    return fields


def cap_count(fields: dict[str, Any], query: Query) -> None:
    """Count mode: a count past ``limit`` (see ``Query.search_limit``) is reported as ``limit``,
    incomplete."""
    if query.mode == "count" and query.limit is not None and fields["count"] > query.limit:
        fields["count"] = query.limit
        fields["complete"] = False


# ---------------------------------------------------------------- requests

# The request's own fields, for every kind (each kind adds its ``OPTIONS``, e.g. polyomino's
# ``symmetry``); any other field is refused (``check_fields``). ``recent``: progress reports
# carry a solution found lately.
REQUEST_FIELDS = (
    "kind",
    "mode",
    "limit",
    "seed",
    "engine",
    "puzzle",
    "max_steps",
    "heatmap",
    "jobs",
    "subtree",
    "recent",
    "probes",
)
SUBTREE_FIELDS = ("branch", "path")

# Most workers a request may ask for: far above any machine's cores, low enough to stop a typo
# (jobs: 80000) from starting thousands of processes.
MAX_JOBS = 1024


def parse_query(
    request: dict[str, Any],
    progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
) -> Query:
    """Read mode, limit, seed and engine from a request (the kind and puzzle are read elsewhere)."""
    mode = request.get("mode", "solve")
    if mode is None:
        mode = "solve"
    if not isinstance(mode, str) or mode not in MODES:
        raise SolveError(
            UNKNOWN_MODE,
            f"unknown mode {shown(mode)}; choose one of {', '.join(MODES)}",
            "mode",
        )
    default_limit = {"count": None, "assist": DEFAULT_ASSIST_LIMIT}.get(mode, 1)
    limit = request.get("limit", default_limit)
    if limit is not None:
        limit = require_int(limit, "limit", minimum=1, code=INVALID_REQUEST)
    seed = request.get("seed")
    if seed is not None:
        seed = require_int(seed, "seed", minimum=0, code=INVALID_REQUEST)
    elif mode in ("random", "generate", "estimate"):
        # No seed given: pick one and report it, so the answer can be reproduced.
        seed = random.SystemRandom().randrange(2**31)
    engine = request.get("engine")
    if engine is not None and not isinstance(engine, str):
        raise SolveError(INVALID_REQUEST, "engine must be a string naming an engine", "engine")
    extra = {k: v for k, v in request.items() if k not in REQUEST_FIELDS}
    max_steps = request.get("max_steps")
    if max_steps is None:
        max_steps = DEFAULT_MAX_STEPS
    else:
        if mode != "trace":
            raise SolveError(
                INVALID_REQUEST, 'max_steps only applies to "mode": "trace"', "max_steps"
            )
        max_steps = require_int(
            max_steps, "max_steps", minimum=1, maximum=MAX_TRACE_STEPS, code=INVALID_REQUEST
        )
    heatmap = request.get("heatmap", False)
    if heatmap is None:
        heatmap = False
    heatmap = require_bool(heatmap, "heatmap", code=INVALID_REQUEST)
    if heatmap and mode != "count":
        raise SolveError(
            INVALID_REQUEST,
            f'heatmap only applies to "mode": "count" (this request has mode {shown(mode)})',
            "heatmap",
        )
    jobs = request.get("jobs", 1)
    jobs = 1 if jobs is None else require_int(jobs, "jobs", 1, MAX_JOBS, code=INVALID_REQUEST)
    subtree = _parse_subtree(request["subtree"]) if "subtree" in request else None
    if subtree is not None and mode == "random":
        raise SolveError(
            INVALID_REQUEST,
            "random mode samples the whole search space; drop subtree or choose solve or count",
            "subtree",
        )
    if subtree is not None and mode == "trace":
        raise SolveError(
            INVALID_REQUEST,
            "trace mode records the whole search from its root; drop subtree",
            "subtree",
        )
    recent = request.get("recent", False)
    recent = False if recent is None else require_bool(recent, "recent", code=INVALID_REQUEST)
    probes = request.get("probes")
    if probes is None:
        probes = DEFAULT_PROBES
    else:
        if mode != "estimate":
            raise SolveError(
                INVALID_REQUEST,
                f'probes only applies to "mode": "estimate" (this request has mode {shown(mode)})',
                "probes",
            )
        probes = require_int(probes, "probes", 1, MAX_PROBES, code=INVALID_REQUEST)
    return Query(
        mode,
        limit,
        seed,
        engine,
        progress,
        cancel,
        extra,
        max_steps,
        heatmap,
        jobs,
        subtree,
        recent,
        probes,
    )


def _parse_subtree(value: Any) -> SubtreeRequest:
    value = require_dict(value, "subtree", code=INVALID_REQUEST)
    check_fields(value, SUBTREE_FIELDS, "subtree")
    branch = require_int(value.get("branch", 0), "subtree.branch", 0, code=INVALID_REQUEST)
    path = require_list(value.get("path", []), "subtree.path", code=INVALID_REQUEST)
    for index, step in enumerate(path):
        _check_path_step(step, f"subtree.path[{index}]")
    return SubtreeRequest(branch, path)


def _check_path_step(step: Any, path: str) -> None:
    """A step of a subtree path is what an engine family names a choice by: an integer (exact
    cover: an option) or a list of integers (propagation: [variable, part]), none negative."""
    if isinstance(step, list):
        for index, number in enumerate(step):
            require_int(number, f"{path}[{index}]", minimum=0, code=INVALID_REQUEST)
        return
    if isinstance(step, bool) or not isinstance(step, int):
        raise SolveError(
            INVALID_REQUEST,
            f"{path} must be an integer or a list of integers, not {_type_name(step)} "
            f"{shown(step)}",
            path,
        )
    require_int(step, path, minimum=0, code=INVALID_REQUEST)


# ---------------------------------------------------------------- JSON with big integers


@contextmanager
def unlimited_int_digits() -> Iterator[None]:
    """Let int <-> str conversions exceed Python's 4,300-digit guard.

    Exact counts (200x200 domino tilings have 5,040 digits) must cross JSON whole; the guard
    exists against quadratic-time parsing of untrusted input, so it is lifted only around our
    own serialisation, and requests are size-capped before they get here.
    """
    if not hasattr(sys, "get_int_max_str_digits"):
        yield
        return
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)


# A lone surrogate: JSON's "\ud800" escape in a request parses to one, and a response may repeat
# it (in a message, a piece name), but it has no UTF-8 encoding.
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def dumps(obj: Any, indent: int | None = None) -> str:
    """JSON text of a response, integers of any size written whole; encodable as UTF-8 (lone
    surrogates written as JSON's escapes, which is what the request had)."""
    with unlimited_int_digits():
        text = json.dumps(obj, indent=indent, ensure_ascii=False)
    if LONE_SURROGATE.search(text) is None:
        return text
    return LONE_SURROGATE.sub(lambda match: f"\\u{ord(match[0]):04x}", text)


MAX_REQUEST_CHARS = 20_000_000
# UTF-8 spends at most this many bytes on a character: longer bytes are over the limit unread.
MAX_UTF8_BYTES_PER_CHAR = 4


def request_too_large(limit: int = MAX_REQUEST_CHARS, length: int | None = None) -> SolveError:
    """The refusal of a request text over ``limit`` characters (its ``length`` when known: a
    bounded read stops one character past the limit)."""
    if length is None:
        size = f"longer than the limit of {limit:,} characters"
    else:
        size = f"{length:,} characters; the limit is {limit:,}"
    return SolveError(TOO_LARGE, f"request is {size}; send a smaller one")


# The deepest a request's arrays and objects may nest. json's reader recurses once per level:
# CPython raises RecursionError about a thousand levels down (answered too_large below), but in
# Pyodide a few thousand levels overflow the worker's stack first, which ends Python; so the page
# refuses deeper texts before posting them (web/runtime/solver.js reads this from facts.json).
# No puzzle nests more than a handful of levels.
MAX_REQUEST_DEPTH = 500


def request_too_deep() -> SolveError:
    """The answer to a request nested deeper than the reader can follow."""
    return SolveError(TOO_LARGE, "the request is nested too deeply to read; flatten it")


def share_strings(obj: dict[str, Any], seen: dict[str, str] | None = None) -> dict[str, Any]:
    """``obj`` with every str in its lists, and in the lists inside them, replaced by the first
    equal str met (``seen``: ``loads`` passes one per text, as its object hook).

    JSON's reader makes a new str for every occurrence of a string: an exact cover's options
    at the caps name a few thousand items 2,000,000 times, 110 MB of copies, which die here as
    the parse goes instead of living as long as the request. Each list is replaced by an equal
    one whose inner lists holding strs are fresh copies (list(): an exact fit), all made before
    any parsed one goes: the parsed lists sat between the copies in the allocator's pools, and
    replaced one at a time the new lists land in those pools and keep them from the system
    (2M entries: 191 MB resident after reading, not 71). Inner lists without strs are kept."""
    share = ({} if seen is None else seen).setdefault
    for key, value in obj.items():
        if type(value) is list:
            obj[key] = [
                share(entry, entry)
                if type(entry) is str
                else list([share(name, name) if type(name) is str else name for name in entry])
                if type(entry) is list and str in map(type, entry)
                else entry
                for entry in value
            ]
    return obj


def loads(text: str | bytes) -> Any:
    """Parse request JSON, raising ``SolveError(invalid_json)`` with the position on failure.
    Equal strings in its lists are one str (``share_strings``).

    Text over ``MAX_REQUEST_CHARS`` characters is refused (``too_large``) before it is
    parsed, and bytes too long to decode within the limit before they are decoded."""
    if isinstance(text, bytes | bytearray):
        if len(text) > MAX_REQUEST_CHARS * MAX_UTF8_BYTES_PER_CHAR:
            raise request_too_large()
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SolveError(INVALID_JSON, f"request is not UTF-8 text: {exc.reason}") from None
    if len(text) > MAX_REQUEST_CHARS:
        raise request_too_large(length=len(text))
    try:
        return json.loads(text, object_hook=partial(share_strings, seen={}))
    except json.JSONDecodeError as exc:
        raise SolveError(
            INVALID_JSON,
            f"request is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}",
        ) from None
    except ValueError as exc:  # e.g. an integer literal longer than the digit guard
        raise SolveError(INVALID_JSON, f"request is not valid JSON: {exc}") from None
    except RecursionError:
        # json's decoder recurses per nesting level (see MAX_REQUEST_DEPTH).
        raise request_too_deep() from None


def error_response(error: SolveError) -> dict[str, Any]:
    return {"ok": False, "error": error.to_dict()}
