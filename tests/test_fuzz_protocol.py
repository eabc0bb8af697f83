"""Property-based fuzzing of the protocol and the command line (hypothesis).

``solve`` must answer every request, however odd: never raise, never ``internal_error``, never
a message over 500 characters, and within its stop. The requests are valid ones of every kind
(from the registry, ``pysolver.kinds.kind_names``) and mode, then mutated: a value anywhere replaced
by an odd one (huge integers, floats, Unicode text, containers), a field dropped or added,
``subtree`` paths, grids with Unicode characters.

The suite runs a fixed set of examples (the ``ci`` profile: derandomized, so a failure is
reproducible); ``PYSOLVER_FUZZ=explore`` runs fresh random ones, many more of them, and
``PYSOLVER_FUZZ=quick`` (``build.py test --quick``) a fixed few.

The command line is fuzzed with a few hundred malformed request files and odd options, run
in-process through ``pysolver.__main__.main`` (and a handful as real subprocesses): the exit
status is 1 (an error JSON on standard output) or 2 (one clear line on standard error), never a
traceback.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from time import perf_counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pysolver
from pysolver import __main__ as cli
from pysolver import pasted, protocol
from pysolver.kinds import kind_module, kind_names
from pysolver.kinds.sudoku import pasted as sudoku_pasted
from pysolver.midend.registry import kind as midend_kind

REPO = Path(__file__).resolve().parent.parent

settings.register_profile(
    "ci",
    max_examples=150,
    derandomize=True,
    database=None,
    deadline=None,  # timed by the test itself: the stop must hold, not hypothesis' clock
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "quick",
    max_examples=25,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "explore",
    max_examples=3000,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("PYSOLVER_FUZZ", "ci"))

# Valid small puzzles of the kinds that read several shapes; any other kind is fuzzed from its
# EXAMPLE (``seed_puzzles``).
SEED_PUZZLES: dict[str, list[dict[str, Any]]] = {
    "exact_cover": [
        {
            "items": ["a", "b", "c"],
            "secondary": ["x"],
            "options": [["a", "x:A"], ["b", "c"], ["c"], ["a", "b"], ["b", "x:B"], ["a"]],
        },
        {"text": "a b c | x\na x:A\nb c\nc\na b\nb x:B\na\n"},
    ],
    "sudoku": [
        {
            "grid": "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5"
            "....8..79"
        },
        {"grid": [[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]]},
        {"grid": "1...\n..3.\n.4..\n...2", "box": [2, 2]},
        # The variants: jigsaw regions, X diagonals, killer cages.
        {"grid": "....\n....\n....\n....", "regions": ["aabb", "aabb", "ccdd", "ccdd"]},
        {"grid": "1...\n....\n....\n....", "diagonals": True},
        {"grid": "................", "cages": [{"sum": 3, "cells": [[0, 0], [0, 1]]}]},
    ],
    "polyomino": [
        {
            "board": ["....", "...."],
            "pieces": [{"name": "L", "cells": [[0, 0], [1, 0], [1, 1], [1, 2]], "count": 2}],
        },
        {"board": ["...", "..."], "pieces": ["L3", "L3"]},
        {
            "board": ["#...", "....", "...#"],
            "pieces": [{"name": "D", "cells": [[0, 0], [0, 1]], "count": 5}],
            "reflections": False,
        },
    ],
    "shikaku": [
        {"rows": 3, "cols": 3, "clues": [[0, 0, 3], [1, 1, 3], [2, 2, 3]]},
        {"rows": 2, "cols": 4, "clues": [[0, 0, 4], [1, 3, 4]]},
    ],
    "domino": [
        {"rows": 4, "cols": 4},
        {"rows": 3, "cols": 4, "blocked": [[0, 0], [2, 3]]},
        {"board": ["..#", "...", "..."]},
    ],
    "queens": [{"n": 5}, {"n": 6, "queens": [[0, 1]]}],
}


def seed_puzzles(kind: str) -> list[dict[str, Any]]:
    """The valid puzzles a kind's requests are drawn from: its own list, else its EXAMPLE."""
    return SEED_PUZZLES.get(kind) or [kind_module(kind).EXAMPLE["puzzle"]]


# Kind-specific top-level fields (a kind's options beside the puzzle) and their valid values.
KIND_OPTIONS: dict[str, dict[str, list[Any]]] = {
    "polyomino": {"symmetry": ["all", "distinct"]},
}

# Generate mode: besides each generating kind's GENERATE_EXAMPLE, more small puzzles to make and its
# options' values; generate mode takes neither engine nor limit (tests/test_generate.py).
GENERATE_PUZZLES: dict[str, list[dict[str, Any]]] = {
    "sudoku": [
        {"size": 4},
        {"size": 6},
        {"size": 4, "variant": "jigsaw"},
        {"size": 6, "variant": "x"},
    ],
    "shikaku": [{"rows": 4, "cols": 5}, {"rows": 2, "cols": 7}],
    "polyomino": [{"rows": 5, "cols": 3}, {"rows": 3, "cols": 5}],
}
# Levels drawn per kind (default: all). A 5x3 pentomino board only reaches "easy": asking more
# counts every one of its 220 subsets (over a second), too slow for a hundred examples.
GENERATE_DIFFICULTIES: dict[str, list[str]] = {"polyomino": ["easy"]}
GENERATE_OPTIONS: dict[str, dict[str, list[Any]]] = {
    "sudoku": {"symmetry": ["rotational", "none"]},
}

HUGE = 10**5000  # past Python's 4,300-digit guard on int <-> str
ODD_INTEGERS = [-(2**63), -1, 0, 1, 2, 3, 7, 36, 101, 1001, 2**31, 2**63, 10**40]


def power_of_ten(digits: int) -> int:
    return 10**digits


# Made by a function: hypothesis writes the values of sampled_from, and cannot write these.
huge_integers = st.sampled_from([4300, 5000, -5000]).map(power_of_ten)
ODD_FLOATS = [0.0, -0.0, 0.5, 1.0, 2.0, 1e308, math.inf, -math.inf, math.nan]
# Characters that have tripped text handling: case changes that change length ("ﬀ" -> "FF",
# "ß" -> "SS") or script ("ı" -> "I"), combining marks, wide and zero-width characters, a
# surrogate half (JSON's "\\ud800" parses to one), control characters, separators.
ODD_CHARACTERS = "ﬀßıİſǅ\u0301\u200b\ufeff中🧩\ud800\x00\x1b\t\n |#.:_-+0AZaz"

odd_text = st.one_of(
    st.text(alphabet=ODD_CHARACTERS, max_size=12),
    st.text(max_size=8),
    st.sampled_from(["", "x" * 100_000, "a:b:c", "|", "pentominoes", "O4", "dlx", "bitset"]),
)
odd_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from(ODD_INTEGERS),
    huge_integers,
    st.integers(min_value=-5, max_value=12),
    st.sampled_from(ODD_FLOATS),
    odd_text,
)
odd_values = st.recursive(
    odd_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(odd_text, children, max_size=3),
    ),
    max_leaves=8,
)
subtree_paths = st.lists(
    st.one_of(
        st.integers(min_value=-1, max_value=20),
        st.lists(st.integers(min_value=-1, max_value=20), min_size=0, max_size=3),
        odd_scalars,
    ),
    max_size=4,
)


def container_paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every position inside a JSON value (keys of objects, indices of lists), root first."""
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found.extend(container_paths(child, (*prefix, key)))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found.extend(container_paths(child, (*prefix, index)))
    return found


def replace_at(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    """A copy of ``value`` with the position ``path`` holding ``new``."""
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = replace_at(copy[path[0]], path[1:], new)
    return copy


@st.composite
def valid_requests(draw: st.DrawFn, kind: str) -> dict[str, Any]:
    """A valid request of ``kind``: any mode, engine, small limit and the mode's fields."""
    mode = draw(st.sampled_from(protocol.MODES))
    if mode == "generate" and midend_kind(kind).can_generate:
        return draw(generate_requests(kind))
    if mode in ("explain", "hint") and midend_kind(kind).can_explain:
        # Explain and hint read the puzzle alone (no engine, limit or seed: tests/test_explain.py).
        puzzle = json.loads(json.dumps(draw(st.sampled_from(seed_puzzles(kind)))))
        return {"kind": kind, "mode": mode, "puzzle": puzzle}
    request: dict[str, Any] = {
        "kind": kind,
        "mode": mode,
        "puzzle": json.loads(json.dumps(draw(st.sampled_from(seed_puzzles(kind))))),
    }
    if draw(st.booleans()):
        request["engine"] = draw(st.sampled_from(kind_module(kind).ENGINES))
    if mode == "estimate":
        # Estimate mode takes no limit (it estimates the whole count); some random paths.
        if draw(st.booleans()):
            request["probes"] = draw(st.integers(min_value=1, max_value=50))
    else:
        request["limit"] = draw(st.integers(min_value=1, max_value=5))
    if mode == "random" or draw(st.booleans()):
        request["seed"] = draw(st.integers(min_value=0, max_value=99))
    if mode == "trace":
        request["max_steps"] = draw(st.integers(min_value=1, max_value=50))
    if mode == "count" and hasattr(kind_module(kind), "heatmap") and draw(st.booleans()):
        request["heatmap"] = True
    for field, values in KIND_OPTIONS.get(kind, {}).items():
        if draw(st.booleans()):
            request[field] = draw(st.sampled_from(values))
    return request


def generate_puzzles(kind: str) -> list[dict[str, Any]]:
    """The sizes a generating kind is fuzzed with: its GENERATE_EXAMPLE and any listed here."""
    module: Any = kind_module(kind)
    return [module.GENERATE_EXAMPLE, *GENERATE_PUZZLES.get(kind, [])]


@st.composite
def generate_requests(draw: st.DrawFn, kind: str) -> dict[str, Any]:
    """A valid generate request of a kind with a generator: a small size, a level, a seed."""
    module: Any = kind_module(kind)
    request: dict[str, Any] = {
        "kind": kind,
        "mode": "generate",
        "puzzle": dict(draw(st.sampled_from(generate_puzzles(kind)))),
        "seed": draw(st.integers(min_value=0, max_value=99)),
    }
    if draw(st.booleans()):
        levels = GENERATE_DIFFICULTIES.get(kind, list(module.DIFFICULTIES))
        request["difficulty"] = draw(st.sampled_from(levels))
    for field, values in GENERATE_OPTIONS.get(kind, {}).items():
        if draw(st.booleans()):
            request[field] = draw(st.sampled_from(values))
    return request


@st.composite
def mutated_requests(draw: st.DrawFn, kind: str) -> dict[str, Any]:
    """A valid request of ``kind`` with up to three mutations."""
    request: Any = draw(valid_requests(kind))
    for _ in range(draw(st.integers(min_value=0, max_value=3))):
        mutation = draw(
            st.sampled_from(["replace", "replace", "drop", "add", "subtree", "unicode grid"])
        )
        if mutation == "replace":
            path = draw(st.sampled_from(container_paths(request)))
            request = replace_at(request, path, draw(odd_values))
        elif mutation == "drop" and isinstance(request, dict) and request:
            request = dict(request)
            del request[draw(st.sampled_from(sorted(request, key=str)))]
        elif mutation == "add" and isinstance(request, dict):
            field = draw(st.one_of(st.sampled_from(protocol.REQUEST_FIELDS), odd_text))
            request = {**request, field: draw(odd_values)}
        elif mutation == "subtree" and isinstance(request, dict):
            subtree: Any = {"branch": draw(st.integers(-1, 3)), "path": draw(subtree_paths)}
            if draw(st.booleans()):
                subtree = replace_at(
                    subtree, draw(st.sampled_from(container_paths(subtree))), draw(odd_values)
                )
            request = {**request, "subtree": subtree}
        elif mutation == "unicode grid":
            request = with_odd_characters(draw, request)
    return request


def with_odd_characters(draw: st.DrawFn, request: Any) -> Any:
    """``request`` with an odd character put into one of its strings (grids, boards, names)."""
    strings = [path for path in container_paths(request) if isinstance(get(request, path), str)]
    if not strings:
        return request
    path = draw(st.sampled_from(strings))
    text = get(request, path)
    at = draw(st.integers(min_value=0, max_value=len(text)))
    character = draw(st.sampled_from(ODD_CHARACTERS))
    return replace_at(request, path, text[:at] + character + text[at + 1 :])


def get(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


# Every solve below is stopped after this long; answering takes at most SLACK more (the stop is
# checked about every 0.1 s, and the machine may be loaded).
STOP_AFTER = 1.0
SLACK = 4.0
MAX_MESSAGE_CHARS = 500


def check_answer(request: Any) -> dict[str, Any]:
    """Solve ``request`` with a stop after ``STOP_AFTER`` and check the answer's shape."""
    started = perf_counter()
    response = pysolver.solve(request, cancel=lambda: perf_counter() - started > STOP_AFTER)
    took = perf_counter() - started
    shown_request = protocol.shown(request)
    assert took < STOP_AFTER + SLACK, f"answered after {took:.1f} s: {shown_request}"
    assert isinstance(response, dict) and isinstance(response.get("ok"), bool)
    # The CLI writes every answer as UTF-8 JSON: it must be writable (no lone surrogates).
    protocol.dumps(response).encode("utf-8")
    if not response["ok"]:
        error = response["error"]
        assert set(error) == {"code", "message", "path"}
        assert error["code"] != protocol.INTERNAL_ERROR, f"{error} for {shown_request}"
        assert error["code"] in protocol.ERROR_CODES
        assert 0 < len(error["message"]) <= MAX_MESSAGE_CHARS, error["message"][:600]
        assert len(error["path"]) <= MAX_MESSAGE_CHARS, error["path"][:600]
    return response


def test_every_registered_kind_has_seed_puzzles() -> None:
    for kind in kind_names():
        for puzzle in seed_puzzles(kind):
            response = pysolver.solve({"kind": kind, "mode": "count", "puzzle": puzzle})
            assert response["ok"] and response["count"] > 0, (kind, response)


def test_every_generating_kind_has_generate_puzzles() -> None:
    # Generate mode is fuzzed like every mode of protocol.MODES: valid_requests draws it with
    # these sizes for kinds with a generator; other kinds refuse it as a request error.
    assert set(GENERATE_PUZZLES) <= {
        name for name in kind_names() if midend_kind(name).can_generate
    }
    assert "generate" in protocol.MODES
    for kind in kind_names():
        if not midend_kind(kind).can_generate:
            continue
        for puzzle in generate_puzzles(kind):
            request = {"kind": kind, "mode": "generate", "seed": 1, "puzzle": puzzle}
            assert pysolver.solve(request)["count"] == 1


@pytest.mark.parametrize("kind", sorted(kind_names()))
@given(data=st.data())
def test_mutated_requests_always_get_a_clear_answer(kind: str, data: st.DataObject) -> None:
    check_answer(data.draw(mutated_requests(kind)))


@pytest.mark.parametrize("kind", sorted(kind_names()))
@given(data=st.data())
def test_valid_requests_of_every_mode_answer_ok(kind: str, data: st.DataObject) -> None:
    request = data.draw(valid_requests(kind))
    response = check_answer(request)
    if not response["ok"]:
        # A kind may refuse a mode or an engine for a mode (dominoes' cftp samples only), but
        # says so as a request error, never about the (valid) puzzle.
        assert response["error"]["code"] in (protocol.INVALID_REQUEST, protocol.UNKNOWN_ENGINE)


@given(
    request_text=st.one_of(
        st.binary(max_size=64),
        st.text(alphabet=ODD_CHARACTERS + '{}[]",:0123456789.eE-', max_size=64),
    )
)
def test_arbitrary_request_text_gets_a_clear_answer(request_text: str | bytes) -> None:
    check_answer(request_text)


# ---------------------------------------------------------------- the command line


# Odd values that still make a valid request (not malformed, so not in the files below).
NULL_MEANS_DEFAULT = ("mode", "limit", "seed", "engine", "jobs")
STILL_VALID = [("limit", HUGE), ("seed", HUGE), ("subtree", {})]


def malformed_files() -> list[tuple[str, bytes]]:
    """A few hundred request files that are wrong in every way a file can be."""
    valid = json.dumps({"kind": "sudoku", "puzzle": SEED_PUZZLES["sudoku"][0]}).encode()
    files: list[tuple[str, bytes]] = [
        ("empty", b""),
        ("spaces", b"   \n\t "),
        ("byte order mark", b"\xef\xbb\xbf" + valid),
        ("utf-16", valid.decode().encode("utf-16")),
        ("latin-1", '{"kind": "sudoku", "puzzle": {"grid": "é"}}'.encode("latin-1")),
        ("lone surrogate", b'{"kind": "\\ud800", "puzzle": {}}'),
        ("surrogate in a grid", b'{"kind": "sudoku", "puzzle": {"grid": "\\udfff"}}'),
        ("nan", b'{"kind": "domino", "puzzle": {"rows": NaN, "cols": 2}}'),
        ("infinity", b'{"kind": "domino", "limit": Infinity, "puzzle": {"rows": 2, "cols": 2}}'),
        ("deep", b"[" * 100_000),
        ("deep object", b'{"a":' * 5_000 + b"1" + b"}" * 5_000),
        (
            "huge integer",
            b'{"kind": "domino", "puzzle": {"rows": ' + b"9" * 5000 + b', "cols": 2}}',
        ),
        ("not an object", b"[1, 2, 3]"),
        ("a string", b'"sudoku"'),
        ("null", b"null"),
        ("trailing garbage", valid + b" }"),
        ("two objects", valid + valid),
        ("nul bytes", b"\x00" * 100),
        ("binary", bytes(range(256))),
        ("comment", b"// a comment\n" + valid),
        ("single quotes", valid.replace(b'"', b"'")),
    ]
    for cut in range(1, len(valid), max(1, len(valid) // 60)):
        files.append((f"truncated at {cut}", valid[:cut]))
    for position in range(0, len(valid), max(1, len(valid) // 60)):
        files.append(
            (f"byte {position} flipped", valid[:position] + b"\xff" + valid[position + 1 :])
        )
    for kind in kind_names():
        puzzles = seed_puzzles(kind)
        for field in ("kind", "mode", "limit", "seed", "engine", "puzzle", "jobs", "subtree"):
            for odd in ("", None, -1, 1.5, HUGE, [], {}, "x" * 10_000):
                if (odd is None and field in NULL_MEANS_DEFAULT) or (field, odd) in STILL_VALID:
                    continue
                request = {"kind": kind, "puzzle": puzzles[0], field: odd}
                with protocol.unlimited_int_digits():
                    text = json.dumps(request).encode()
                files.append((f"{kind} {field}={protocol.shown(odd)}", text))
    return files


MALFORMED = malformed_files()
ODD_OPTIONS = [
    [],
    ["--limit", "0"],
    ["--limit", "x"],
    ["--timeout", "-1"],
    ["--timeout", "nan"],
    ["--jobs", "0"],
    ["--mode", "bogus"],
    ["--seed", "-5"],
    ["--engine", "x" * 1000],
    ["--scheduler", "foo"],
    ["--scheduler", "tcp://"],
    ["--indent", "x"],
]


def run_main(args: list[str]) -> tuple[int, str, str]:
    """``python -m pysolver`` in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = cli.main(args)
        except SystemExit as exit_:  # argparse's usage errors
            status = exit_.code if isinstance(exit_.code, int) else 2
    return status, out.getvalue(), err.getvalue()


def check_cli_failure(status: int, out: str, err: str, what: str) -> None:
    assert "Traceback" not in err and "Traceback" not in out, f"{what}: {err[-500:]}"
    assert status in (1, 2), f"{what}: exit status {status}; {out[:300]} {err[:300]}"
    if status == 1:
        response = json.loads(out)
        assert response["ok"] is False and response["error"]["code"] != protocol.INTERNAL_ERROR
        assert len(response["error"]["message"]) <= MAX_MESSAGE_CHARS
    else:
        lines = err.strip().splitlines()
        assert lines, f"{what}: exit status 2 with nothing on standard error"
        # Our own usage errors are one line; argparse prints its usage, then one error line.
        assert lines[-1].startswith("python -m pysolver"), f"{what}: {lines[-1]}"
        assert len(lines[-1]) <= MAX_MESSAGE_CHARS, f"{what}: {lines[-1][:600]}"
        assert out == "", what


def test_the_command_line_answers_malformed_files_clearly(tmp_path: Path) -> None:
    assert len(MALFORMED) >= 200
    for index, (what, content) in enumerate(MALFORMED):
        path = tmp_path / f"request-{index}.json"
        path.write_bytes(content)
        options = ODD_OPTIONS[index % len(ODD_OPTIONS)]
        status, out, err = run_main(["solve", *options, str(path)])
        check_cli_failure(status, out, err, f"{what} with {options}")
    for missing in (tmp_path / "missing.json", tmp_path):  # no file; a directory
        check_cli_failure(*run_main(["solve", str(missing)]), str(missing))


@pytest.mark.parametrize("what", ["empty", "lone surrogate", "deep", "huge integer", "binary"])
def test_the_real_command_line_answers_malformed_files_clearly(tmp_path: Path, what: str) -> None:
    path = tmp_path / "request.json"
    path.write_bytes(dict(MALFORMED)[what])
    done = subprocess.run(
        [sys.executable, "-m", "pysolver", "solve", str(path)],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=60,
    )
    check_cli_failure(done.returncode, done.stdout, done.stderr, what)


# ---------------------------------------------------------------- structure-aware fuzzing

# Fewer examples than the profile's for the structured requests below (a 36x36 grid takes a
# second): a quarter of them (37 in the ci profile, 750 when exploring).
STRUCTURED_EXAMPLES = max(10, settings().max_examples // 4)

# Sizes a pasted text may declare: small, at the kinds' limits, just past them, far past them,
# and more digits than Python reads as a number.
declared_sides = st.one_of(
    st.integers(min_value=0, max_value=12),
    st.sampled_from([35, 36, 37, 99, 100, 101, 9999, 12_000, 10**9]),
    st.integers(min_value=0, max_value=10**12),
).map(str) | st.sampled_from(["", "x", "1" * 5_000, "٣", "²"])
# Tatham's grid description: letters are runs of blanks, numbers clues, "_" between numbers.
tatham_pieces = st.one_of(
    st.sampled_from(list("abcz_")),
    st.integers(min_value=0, max_value=40).map(str),
    st.sampled_from(["z" * 100_000, "1" * 5_000, "9" * 6, "a1_2b", ","]),
)
# puzz.link's cell data: hex digits, "-"/"+"/"="/"%" prefixes, "g".."z" skips, odd characters.
puzzlink_pieces = st.one_of(
    st.sampled_from(list("0123456789abcdef-+=%ghz.")),
    st.sampled_from(["-10", "+100", "=000", "%fff", "z" * 50_000, "?", "/", "#"]),
)


@st.composite
def pasted_texts(draw: st.DrawFn) -> str:
    """A Solo or Rectangles game ID, a puzz.link URL or a grid address, sizes anywhere from
    valid to far past the limits, contents from well formed to garbled."""
    shape = draw(st.sampled_from(["game id", "game id", "puzz.link", "puzz.link", "address"]))
    if shape == "game id":
        size = draw(declared_sides)
        if draw(st.booleans()):
            size += "x" + draw(declared_sides)
        flags = draw(st.sampled_from(["", "x", "j", "k", "dh", "r4", "X"]))
        grid = "".join(draw(st.lists(tatham_pieces, max_size=12)))
        return f"{size}{flags}:{grid}" + draw(st.sampled_from(["", "", ",abc", ",1_2"]))
    if shape == "puzz.link":
        kind = draw(st.sampled_from(["sudoku", "shikaku", "sikaku", "sudoku_edit", "nurikabe"]))
        data = "".join(draw(st.lists(puzzlink_pieces, max_size=12)))
        sides = "/".join(draw(st.lists(declared_sides, min_size=0, max_size=3)))
        host = draw(st.sampled_from(["https://puzz.link/p?", "http://pzv.jp/p.html?", ""]))
        return f"{host}{kind}/{sides}/{data}"
    digits = draw(st.sampled_from(["0", "1", "9", "."])) * draw(
        st.sampled_from([16, 81, 162, 1296, 1297, 5_000_000])
    )
    name = draw(st.sampled_from(sudoku_pasted.GRID_PARAMETERS))
    return f"https://www.sudokuwiki.org/sudoku.htm?{name}={digits}"


@settings(max_examples=STRUCTURED_EXAMPLES * 2)
@given(text=pasted_texts())
def test_pasted_ids_and_urls_get_a_clear_answer_at_once(text: str) -> None:
    # Read as the command line reads a file (JSON, else a pasted puzzle): a request or a clear
    # error, in well under a second whatever size the text declares; then the request's answer.
    started = perf_counter()
    try:
        request = pasted.read_request(text)
    except protocol.SolveError as error:
        assert error.code != protocol.INTERNAL_ERROR
        assert 0 < len(error.message) <= MAX_MESSAGE_CHARS, error.message[:600]
        return
    finally:
        assert perf_counter() - started < 1.0, protocol.shown(text)
    check_answer(request)


def box_shapes(n: int) -> list[list[int]]:
    """The box shapes [rows, cols] of an n x n grid (rows * cols = n)."""
    return [[rows, n // rows] for rows in range(1, n + 1) if n % rows == 0]


@st.composite
def sudoku_variant_puzzles(draw: st.DrawFn) -> tuple[int, dict[str, Any]]:
    """A Sudoku of any size from 1 to 36 (mostly small) with boxes (default or given) or
    jigsaw regions, maybe the X diagonals and killer cages, maybe a few givens (which may
    clash): (n, puzzle)."""
    n = draw(st.one_of(st.integers(min_value=1, max_value=9), st.integers(1, 36)))
    values = [0] * (n * n)
    for _ in range(draw(st.integers(min_value=0, max_value=3))):
        values[draw(st.integers(0, n * n - 1))] = draw(st.integers(1, n))
    symbols = ".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    grid: Any = (
        "".join(symbols[value] for value in values)
        if n <= 35 and draw(st.booleans())
        else [values[row * n : (row + 1) * n] for row in range(n)]
    )
    puzzle: dict[str, Any] = {"grid": grid}
    layout = draw(st.sampled_from(["default", "box", "rows as regions", "columns as regions"]))
    if layout == "box":
        puzzle["box"] = draw(st.sampled_from(box_shapes(n)))
    elif layout == "rows as regions":
        puzzle["regions"] = [symbols[1 + row % 35] * n for row in range(n)] if n <= 35 else None
    elif layout == "columns as regions":
        puzzle["regions"] = ["".join(symbols[1 + col] for col in range(n))] * n if n <= 35 else None
    if puzzle.get("regions", 0) is None:
        del puzzle["regions"]
    if draw(st.booleans()):
        puzzle["diagonals"] = True
    cages = []
    for _ in range(draw(st.integers(min_value=0, max_value=2))):
        row, col = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        cells = [[row, col]] + ([[row, col + 1]] if col + 1 < n and draw(st.booleans()) else [])
        cages.append({"sum": draw(st.integers(1, 2 * n + 1)), "cells": cells})
    if cages:
        puzzle["cages"] = cages
    return n, puzzle


def units_of(n: int, puzzle: dict[str, Any], box: list[int]) -> list[list[tuple[int, int]]]:
    """The units a solution's every symbol appears once in: rows, columns, boxes or regions,
    the diagonals when asked."""
    units = [[(row, col) for col in range(n)] for row in range(n)]
    units += [[(row, col) for row in range(n)] for col in range(n)]
    if "regions" in puzzle:
        labels: dict[str, list[tuple[int, int]]] = {}
        for row, text in enumerate(puzzle["regions"]):
            for col, label in enumerate(text):
                labels.setdefault(label, []).append((row, col))
        units += list(labels.values())
    else:
        rows, cols = box
        units += [
            [(top + r, left + c) for r in range(rows) for c in range(cols)]
            for top in range(0, n, rows)
            for left in range(0, n, cols)
        ]
    if puzzle.get("diagonals"):
        units += [[(k, k) for k in range(n)], [(k, n - 1 - k) for k in range(n)]]
    return units


def check_sudoku_solution(n: int, puzzle: dict[str, Any], box: list[int], solution: Any) -> None:
    """A solution checked by the rules alone (not the solver's encoding): every unit holds
    1..n once, the givens are kept, each cage's digits differ and add up to its sum."""
    assert len(solution) == n and all(len(row) == n for row in solution)
    for unit in units_of(n, puzzle, box):
        assert sorted(solution[row][col] for row, col in unit) == list(range(1, n + 1)), unit
    grid = puzzle["grid"]
    symbols = ".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    for row in range(n):
        for col in range(n):
            given = symbols.index(grid[row * n + col]) if isinstance(grid, str) else grid[row][col]
            assert given in (0, solution[row][col])
    for cage in puzzle.get("cages", []):
        digits = [solution[row][col] for row, col in cage["cells"]]
        assert len(set(digits)) == len(digits) and sum(digits) == cage["sum"], cage


@settings(max_examples=STRUCTURED_EXAMPLES)
@given(
    drawn=sudoku_variant_puzzles(),
    mode=st.sampled_from(["solve", "count", "random", "trace", "estimate", "hint"]),
)
def test_sudoku_variants_of_every_size_answer_clearly_and_correctly(
    drawn: tuple[int, dict[str, Any]], mode: str
) -> None:
    n, puzzle = drawn
    request: dict[str, Any] = {"kind": "sudoku", "mode": mode, "puzzle": puzzle, "seed": 1}
    if mode not in ("estimate", "hint"):
        request["limit"] = 2
    response = check_answer(request)
    if not response["ok"]:
        # A puzzle the kind cannot take (a prime size without a box, clashing givens, an
        # impossible cage...) or a mode it refuses for variants.
        assert response["error"]["code"] in (protocol.INVALID_PUZZLE, protocol.INVALID_REQUEST)
        return
    if response.get("cancelled"):
        return
    if n == 1 or "box" in puzzle:
        box = puzzle.get("box", [1, 1])
    else:
        box = next(shape for shape in reversed(box_shapes(n)) if shape[0] <= math.isqrt(n))
    for solution in response.get("solutions") or []:
        check_sudoku_solution(n, puzzle, box, solution)


@st.composite
def multiplicity_puzzles(draw: st.DrawFn) -> dict[str, Any]:
    """A small exact cover with multiplicities: up to 4 primary items with bounds (u, v),
    maybe a secondary item, up to 9 options (so 512 subsets to check by brute force)."""
    primary = [f"p{index}" for index in range(draw(st.integers(1, 4)))]
    secondary = ["s"] if draw(st.booleans()) else []
    bounds = {}
    for name in primary:
        if draw(st.booleans()):
            high = draw(st.integers(1, 4))
            bounds[name] = [draw(st.integers(0, high)), high]
    names = primary + secondary
    options = draw(
        st.lists(
            st.lists(st.sampled_from(names), min_size=1, max_size=3, unique=True),
            min_size=1,
            max_size=9,
        )
    )
    return {"items": primary, "secondary": secondary, "options": options, "multiplicities": bounds}


def brute_force_covers(puzzle: dict[str, Any]) -> int:
    """How many sets of options cover each primary item within its bounds (1, 1 without)
    and each secondary item at most once: every subset, counted. An option of secondary
    items only is never chosen (Knuth's rule: the search branches on primary items)."""
    options = puzzle["options"]
    found = 0
    never = sum(
        1 << index for index, option in enumerate(options) if not set(option) & set(puzzle["items"])
    )
    for chosen in range(1 << len(options)):
        if chosen & never:
            continue
        times: dict[str, int] = {}
        for index, option in enumerate(options):
            if chosen >> index & 1:
                for name in option:
                    times[name] = times.get(name, 0) + 1
        within = all(
            low <= times.get(name, 0) <= high
            for name in puzzle["items"]
            for low, high in [puzzle["multiplicities"].get(name, [1, 1])]
        )
        found += within and all(times.get(name, 0) <= 1 for name in puzzle["secondary"])
    return found


@settings(max_examples=STRUCTURED_EXAMPLES * 2)
@given(
    puzzle=multiplicity_puzzles(),
    engine=st.sampled_from(["bitset", "dlx"]),
    mode=st.sampled_from(["count", "solve"]),
)
def test_multiplicities_count_what_brute_force_counts(
    puzzle: dict[str, Any], engine: str, mode: str
) -> None:
    request = {"kind": "exact_cover", "mode": mode, "engine": engine, "puzzle": puzzle}
    if mode == "solve":
        request["limit"] = 10**6
    response = check_answer(request)
    if not response["ok"]:
        # An option made only of the secondary item, or the same item twice: refused.
        assert response["error"]["code"] == protocol.INVALID_PUZZLE, response
        return
    assert response["count"] == brute_force_covers(puzzle)
    if mode == "solve":
        listed = {tuple(solution) for solution in response["solutions"]}
        assert len(listed) == len(response["solutions"]) == response["count"]
