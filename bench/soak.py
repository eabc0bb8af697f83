"""Soak: many mixed requests in one process, and its resident memory at the start and the end.

    python -m bench.soak                 # 10,000 requests
    python -m bench.soak --quick         # 1,000
    python -m bench.soak --requests 50000 --json soak.json

The requests cycle through every registered kind (``pysolver.kinds.kind_names``) in every mode
(``pysolver.protocol.MODES``) on small puzzles, with heatmaps and a subtree task where the kind
has them, and through requests that must be refused (bad JSON, an unknown kind, a wrong field,
an over-long request text, a bad puzzle of every kind). Every answer is checked (a valid
request answers ok, a refused one with its error code, none with ``internal_error``); a wrong
answer is reported and the exit status is 1.

Printed: one row per group (each kind, and ``errors``): requests, total seconds, mean and
slowest milliseconds; then the resident memory at the start (before any request), after the
first round of every request (imports and caches warm), at the end, and the peak. A steady
end minus the warm figure says nothing is kept from request to request. The garbage
collector runs as it would in a long-lived worker (not disabled, not forced).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from time import perf_counter
from typing import Any

from pysolver import protocol, solve
from pysolver.engines import estimate
from pysolver.kinds import kind_module, kind_names

LEVELS = {"quick": 1_000, "default": 10_000}

# Small puzzles, each mode of which answers in milliseconds; a kind not here runs its EXAMPLE.
PUZZLES: dict[str, dict[str, Any]] = {
    "exact_cover": {
        "items": ["a", "b", "c", "d"],
        "secondary": ["x"],
        "options": [["a", "x:A"], ["b", "c"], ["c", "d"], ["a", "b"], ["d"], ["b", "x:B"], ["c"]],
    },
    "sudoku": {
        "grid": "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    },
    "polyomino": {"board": ["....", "....", "...."], "pieces": ["L3", "L3", "I3", "I3"]},
    "shikaku": {"rows": 4, "cols": 4, "clues": [[0, 0, 4], [1, 2, 4], [3, 0, 4], [3, 3, 4]]},
    "domino": {"rows": 4, "cols": 5},
    "queens": {"n": 6, "queens": [[0, 1]]},
}


# A puzzle of every kind that must be refused as invalid.
BAD_PUZZLES: dict[str, dict[str, Any]] = {
    "exact_cover": {"items": ["a"], "options": [["b"]]},
    "sudoku": {"grid": "55" + "." * 79},
    "polyomino": {"board": ["..."], "pieces": ["pentominoes"]},
    "shikaku": {"rows": 2, "cols": 2, "clues": [[5, 5, 4]]},
    "domino": {"rows": 0, "cols": 2},
    "queens": {"n": 5, "queens": [[0, 0], [1, 1]]},
}

ERROR_GROUP = "errors"


@dataclass(frozen=True)
class Request:
    group: str  # the kind, or ERROR_GROUP
    request: dict[str, Any] | str
    # None: the answer must be ok; else the error code it must carry.
    expected_error: str | None


def valid_requests(kind: str) -> list[Request]:
    """Every solving mode of ``kind`` on its small puzzle, with a heatmap and a subtree task
    where the kind has them; generation (the kind's ``GENERATE_EXAMPLE``) where it generates;
    explain and hint where it explains."""
    module = kind_module(kind)
    puzzle = PUZZLES.get(kind) or module.EXAMPLE["puzzle"]
    found = []
    if hasattr(module, "generate"):
        # The kind's small generate request (the contract's GENERATE_EXAMPLE).
        puzzle_made = module.GENERATE_EXAMPLE
        request = {"kind": kind, "mode": "generate", "seed": 5, "puzzle": puzzle_made}
        found.append(Request(kind, request, None))
    for mode in protocol.MODES:
        if mode == "generate":
            continue  # a generate request has its own puzzle fields (above)
        if mode in ("explain", "hint"):
            # One logical path, no limit; for the kinds that explain (the others refuse).
            if hasattr(module, "explain"):
                found.append(Request(kind, {"kind": kind, "mode": mode, "puzzle": puzzle}, None))
            continue
        if mode == "assist":
            # The setter's questions, for the kinds that answer them (the others refuse).
            request = {"kind": kind, "mode": mode, "puzzle": puzzle, "limit": 3}
            if hasattr(module, "assist"):
                found.append(Request(kind, request, None))
            else:
                found.append(Request(ERROR_GROUP, request, protocol.INVALID_REQUEST))
            continue
        if mode == "estimate":
            # No limit (the whole count is estimated); a kind without a tree engine refuses.
            request = {"kind": kind, "mode": mode, "puzzle": puzzle, "probes": 20, "seed": 3}
            if any(name in estimate.ENGINES for name in module.ENGINES):
                found.append(Request(kind, request, None))
            else:
                found.append(Request(ERROR_GROUP, request, protocol.INVALID_REQUEST))
            continue
        request: dict[str, Any] = {"kind": kind, "mode": mode, "puzzle": puzzle, "limit": 3}
        if mode == "random":
            request["seed"] = 7
        if mode == "trace":
            request["max_steps"] = 200
        found.append(Request(kind, request, None))
    if hasattr(module, "heatmap"):
        found.append(
            Request(kind, {"kind": kind, "mode": "count", "heatmap": True, "puzzle": puzzle}, None)
        )
    if module.SPLITTABLE:
        task = {"kind": kind, "mode": "count", "puzzle": puzzle, "subtree": {"path": []}}
        found.append(Request(kind, task, None))
    return found


def refused_requests() -> list[Request]:
    """Requests every layer must refuse: the text, the request fields, each kind's puzzle."""
    first = kind_names()[0]
    first_puzzle = PUZZLES.get(first) or kind_module(first).EXAMPLE["puzzle"]
    found = [
        Request(ERROR_GROUP, '{"kind": "sudoku", ', protocol.INVALID_JSON),
        Request(ERROR_GROUP, " " * (protocol.MAX_REQUEST_CHARS + 1), protocol.TOO_LARGE),
        # 100 KB of brackets: too deep for json's reader (in Pyodide it would overflow the stack).
        Request(ERROR_GROUP, "[" * 100_000, protocol.TOO_LARGE),
        Request(ERROR_GROUP, {"kind": "nope", "puzzle": {}}, protocol.UNKNOWN_KIND),
        Request(ERROR_GROUP, {"kind": first, "mode": "nope", "puzzle": {}}, protocol.UNKNOWN_MODE),
        Request(
            ERROR_GROUP,
            {"kind": first, "engine": "nope", "puzzle": first_puzzle},
            protocol.UNKNOWN_ENGINE,
        ),
        Request(
            ERROR_GROUP,
            {"kind": first, "limit": 0, "puzzle": first_puzzle},
            protocol.INVALID_REQUEST,
        ),
    ]
    for kind, puzzle in BAD_PUZZLES.items():
        found.append(Request(ERROR_GROUP, {"kind": kind, "puzzle": puzzle}, None))
    return found


def mixed_requests() -> list[Request]:
    """One round: every kind's valid requests and the refused ones, interleaved."""
    rounds = [valid_requests(kind) for kind in kind_names()] + [refused_requests()]
    mixed = []
    for position in range(max(len(group) for group in rounds)):
        mixed.extend(group[position] for group in rounds if position < len(group))
    return mixed


def check(item: Request, response: dict[str, Any]) -> str | None:
    """What is wrong with ``response`` to ``item``, or None."""
    if not response.get("ok"):
        code = response["error"]["code"]
        if code == protocol.INTERNAL_ERROR or item.group != ERROR_GROUP:
            return f"{code}: {response['error']['message']}"
        if item.expected_error is not None and code != item.expected_error:
            return f"expected {item.expected_error}, got {code}"
        return None
    if item.group == ERROR_GROUP:
        return "answered ok a request that must be refused"
    return None


def resident_mb() -> float:
    """This process's resident memory now (Linux: /proc; elsewhere the peak)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except OSError:
        return peak_mb()
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def peak_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 2**10  # bytes there, kB here


@dataclass
class Group:
    requests: int = 0
    seconds: float = 0.0
    slowest: float = 0.0


def soak(total: int) -> tuple[dict[str, Group], dict[str, float], list[str]]:
    """Run ``total`` requests; (per-group times, memory figures in MB, wrong answers)."""
    memory = {"start": resident_mb()}
    one_round = mixed_requests()
    groups: dict[str, Group] = defaultdict(Group)
    wrong: list[str] = []
    for index in range(total):
        item = one_round[index % len(one_round)]
        started = perf_counter()
        response = solve(item.request)
        took = perf_counter() - started
        group = groups[item.group]
        group.requests += 1
        group.seconds += took
        group.slowest = max(group.slowest, took)
        problem = check(item, response)
        if problem is not None and len(wrong) < 20:
            wrong.append(f"{protocol.shown(item.request)}: {problem}")
        if index + 1 == len(one_round):
            memory["warm"] = resident_mb()
    memory.setdefault("warm", resident_mb())
    memory["end"] = resident_mb()
    # (The peak from rusage and the current figure from /proc round differently.)
    memory["peak"] = max(peak_mb(), memory["end"])
    return groups, memory, wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.soak", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--quick", action="store_true", help=f"{LEVELS['quick']:,} requests")
    parser.add_argument("--requests", type=int, help="how many (default 10,000)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    total = args.requests or LEVELS["quick" if args.quick else "default"]
    started = perf_counter()
    groups, memory, wrong = soak(total)
    seconds = perf_counter() - started
    print(f"{total:,} requests in {seconds:.1f} s ({len(mixed_requests())} distinct, cycled)")
    print(f"{'group':<12} {'requests':>9} {'total s':>8} {'mean ms':>8} {'slowest ms':>11}")
    for name, group in sorted(groups.items()):
        mean_ms = 1000 * group.seconds / group.requests
        print(
            f"{name:<12} {group.requests:>9,} {group.seconds:>8.2f} {mean_ms:>8.2f} "
            f"{1000 * group.slowest:>11.1f}"
        )
    print(
        "resident MB: "
        + ", ".join(f"{name} {value:.1f}" for name, value in memory.items())
        + f" (end - warm: {memory['end'] - memory['warm']:+.1f})"
    )
    for problem in wrong:
        print(f"WRONG {problem}")
    if args.json is not None:
        figures = {
            "requests": total,
            "seconds": round(seconds, 3),
            "groups": {name: vars(group) for name, group in groups.items()},
            "memory_mb": {name: round(value, 1) for name, value in memory.items()},
            "wrong": wrong,
        }
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
