"""Error paths of the protocol layer, through pysolver.solve: it answers, it never raises."""

from __future__ import annotations

import pytest

import pysolver
from pysolver import protocol
from pysolver.kinds import kind_names

PUZZLE = {"items": ["a"], "options": [["a"]]}


def error_of(request) -> dict:
    response = pysolver.solve(request)
    assert response["ok"] is False, response
    assert set(response) == {"ok", "error"}
    assert set(response["error"]) == {"code", "message", "path"}
    assert response["error"]["message"]
    return response["error"]


@pytest.mark.parametrize("text", ["", "{", '{"kind": }', "nul", "[1, 2", b"\xff\xfe"])
def test_text_that_is_not_json(text):
    error = error_of(text)
    assert error["code"] == "invalid_json"


def test_json_error_says_where():
    error = error_of('{"kind": "exact_cover",\n "puzzle": ]}')
    assert "line 2" in error["message"]


@pytest.mark.parametrize("request_value", [[], [PUZZLE], "3", "null", 7, None, '"kind"'])
def test_request_that_is_not_an_object(request_value):
    error = error_of(request_value)
    assert error["code"] == "invalid_request" and error["path"] == "request"


@pytest.mark.parametrize("kind", [None, "", "sudok", 3, ["exact_cover"], "EXACT_COVER"])
def test_unknown_kind(kind):
    request = {"puzzle": PUZZLE} if kind is None else {"kind": kind, "puzzle": PUZZLE}
    error = error_of(request)
    assert error["code"] == "unknown_kind" and error["path"] == "kind"
    assert all(name in error["message"] for name in kind_names())


@pytest.mark.parametrize("mode", ["", "solve_all", 1, True, ["count"], "COUNT"])
def test_unknown_mode(mode):
    error = error_of({"kind": "exact_cover", "mode": mode, "puzzle": PUZZLE})
    assert error["code"] == "unknown_mode" and error["path"] == "mode"


def test_null_mode_means_solve():
    response = pysolver.solve({"kind": "exact_cover", "mode": None, "puzzle": PUZZLE})
    assert response["ok"] and response["mode"] == "solve"


@pytest.mark.parametrize("engine", ["simplex", "DLX", ""])
def test_unknown_engine(engine):
    error = error_of({"kind": "exact_cover", "engine": engine, "puzzle": PUZZLE})
    assert error["code"] == "unknown_engine" and error["path"] == "engine"


@pytest.mark.parametrize("engine", [1, True, ["dlx"], {"name": "dlx"}])
def test_engine_that_is_not_a_string(engine):
    error = error_of({"kind": "exact_cover", "engine": engine, "puzzle": PUZZLE})
    assert error["code"] == "invalid_request" and error["path"] == "engine"


@pytest.mark.parametrize("field", ["limit", "seed"])
@pytest.mark.parametrize(
    ("value", "words"),
    [(-1, "at least"), (1.5, "integer"), ("3", "integer"), (True, "integer"), (False, "integer"),
     ([1], "integer"), ({}, "integer")],
)  # fmt: skip
def test_bad_limit_and_seed(field, value, words):
    error = error_of({"kind": "exact_cover", field: value, "puzzle": PUZZLE})
    assert error["code"] == "invalid_request" and error["path"] == field
    assert words in error["message"]


def test_zero_limit_is_refused_but_zero_seed_is_fine():
    assert error_of({"kind": "exact_cover", "limit": 0, "puzzle": PUZZLE})["path"] == "limit"
    response = pysolver.solve({"kind": "exact_cover", "seed": 0, "puzzle": PUZZLE})
    assert response["ok"] and response["seed"] == 0


def test_null_limit_means_no_cap():
    response = pysolver.solve(
        {"kind": "exact_cover", "limit": None, "puzzle": {"items": ["a"], "options": [["a"]] * 3}}
    )
    assert response["ok"] and response["count"] == 3 and response["complete"] is True


def test_missing_puzzle():
    error = error_of({"kind": "exact_cover", "mode": "count"})
    assert error["code"] == "invalid_request" and error["path"] == "puzzle"


def test_random_mode_reports_the_seed_it_picked():
    response = pysolver.solve({"kind": "exact_cover", "mode": "random", "puzzle": PUZZLE})
    assert response["ok"] and isinstance(response["seed"], int)


def test_huge_integer_literal_does_not_raise():
    # Longer than Python's int-from-string guard (4,300 digits): an error, not an exception.
    response = pysolver.solve('{"kind": "exact_cover", "limit": ' + "9" * 5000 + ', "puzzle": {}}')
    assert response["ok"] is False


def test_deeply_nested_json_does_not_raise():
    response = pysolver.solve("[" * 100_000 + "]" * 100_000)
    assert response["ok"] is False


def test_accepts_bytes_and_text():
    request = '{"kind": "exact_cover", "puzzle": {"items": ["a"], "options": [["a"]]}}'
    assert pysolver.solve(request)["ok"]
    assert pysolver.solve(request.encode())["ok"]


def test_missing_kind_is_said_in_words():
    error = error_of({"puzzle": {}})
    assert error["code"] == "unknown_kind"
    assert error["message"].startswith("the request has no kind")
    assert "None" not in error["message"]


@pytest.mark.parametrize("field", ["kind", "mode", "engine"])
def test_echoed_input_is_cut_to_a_readable_length(field):
    request = {"kind": "sudoku", "puzzle": {"grid": "." * 81}, field: "x" * 10_000_000}
    error = error_of(request)
    assert error["path"] == field
    assert len(error["message"]) < 200


HUGE_NAME = "N" * 1_000_000


@pytest.mark.parametrize(
    "request_",
    [
        {"kind": "polyomino", "puzzle": {"board": ["..."], "pieces": [HUGE_NAME]}},
        {"kind": "polyomino", "puzzle": {"board": ["..."], "pieces": [{HUGE_NAME: 1}]}},
        {"kind": "polyomino", "puzzle": {"board": ["..."], "pieces": ["I3"], HUGE_NAME: 1}},
        {
            "kind": "polyomino",
            "puzzle": {"board": ["..."], "pieces": ["I3"]},
            "symmetry": HUGE_NAME,
        },
        {"kind": "exact_cover", "puzzle": {"items": ["a"], "options": [[HUGE_NAME]]}},
        {"kind": "exact_cover", "puzzle": {"text": "a\n" + HUGE_NAME + "|x\n"}},
        {"kind": "exact_cover", "puzzle": PUZZLE, "subtree": {"path": [HUGE_NAME]}},
        {"kind": "exact_cover", "puzzle": PUZZLE, "subtree": {HUGE_NAME: 1}},
        {"kind": "exact_cover", "puzzle": PUZZLE, "subtree": {"path": [10**4000]}},
        {"kind": "sudoku", "puzzle": {"grid": "." * 81, "symbols": HUGE_NAME}},
        {"kind": "domino", "puzzle": {"board": ["..", HUGE_NAME]}},
        {"kind": "shikaku", "puzzle": {"url": "https://puzz.link/p?" + HUGE_NAME + "/4/3/g"}},
        {
            "kind": "shikaku",
            "puzzle": {"url": "https://puzz.link/p?shikaku/" + "9" * 5000 + "/3/g"},
        },
        {"kind": "shikaku", "puzzle": {"rows": 3, "cols": 3, "clues": [[0, 0, 10**4300]]}},
        {"kind": "shikaku", "puzzle": {"rows": 10**5000, "cols": 3, "clues": []}},
    ],
    ids=protocol.shown,
)
def test_every_message_quoting_the_request_is_capped(request_: dict) -> None:
    error = error_of(request_)
    assert error["code"] != "internal_error", error
    assert len(error["message"]) < 300, error["message"][:300]
    assert "N" * protocol.MAX_ECHO_CHARS not in error["message"]
    assert len(error["path"]) < 100, error["path"][:300]


def test_shown_cuts_strings_containers_and_huge_integers() -> None:
    assert protocol.shown("abc") == "'abc'"
    cut = protocol.shown("x" * 1000)
    assert len(cut) == protocol.MAX_ECHO_CHARS + 2 and cut.endswith("…'")
    assert protocol.shown("a\nb") == "'a\\nb'"  # control characters stay on one line
    assert protocol.shown([1, 2]) == "[1, 2]"
    assert len(protocol.shown(list(range(10**6)))) == protocol.MAX_ECHO_CHARS
    assert protocol.shown(10**5000) == "an integer of about 5,001 digits"
    assert protocol.shown({"a": [10**5000]}) == "an object holding a huge integer"


@pytest.mark.parametrize("kind", ["exact_cover", "polyomino", "shikaku"])
@pytest.mark.parametrize("step", [1.0, "1", None, True, -1, [0, 1.0], [0, -1], {"a": 1}])
def test_a_subtree_path_step_that_is_not_an_integer_or_list_of_them_is_refused(
    kind: str, step: object
) -> None:
    puzzles = {
        "exact_cover": PUZZLE,
        "polyomino": {"board": ["..."], "pieces": ["I3"]},
        "shikaku": {"rows": 2, "cols": 2, "clues": [[0, 0, 4]]},
    }
    request_ = {"kind": kind, "engine": "dlx", "puzzle": puzzles[kind], "subtree": {"path": [step]}}
    if kind == "polyomino":
        del request_["engine"]
    error = error_of(request_)
    assert error["code"] == "invalid_request"
    assert error["path"].startswith("subtree.path[0]")


@pytest.mark.parametrize("field", ["limit", "seed", "jobs", "max_steps"])
def test_an_integer_past_4300_digits_is_refused_not_an_internal_error(field: str) -> None:
    request_ = {"kind": "exact_cover", "puzzle": PUZZLE, field: 10**5000}
    if field == "max_steps":
        request_["mode"] = "trace"
    response = pysolver.solve(request_)
    if response["ok"]:  # an unbounded field: a huge limit is a valid request
        assert field in ("limit", "seed")
        return
    assert response["error"]["code"] == "invalid_request"
    assert "5,001 digits" in response["error"]["message"]


def test_request_text_over_the_limit_is_refused_before_it_is_parsed() -> None:
    error = error_of(" " * (protocol.MAX_REQUEST_CHARS + 1))
    assert error["code"] == "too_large" and "20,000,001 characters" in error["message"]
    too_long_to_decode = b" " * (protocol.MAX_REQUEST_CHARS * protocol.MAX_UTF8_BYTES_PER_CHAR + 1)
    error = error_of(too_long_to_decode)
    assert error["code"] == "too_large" and "longer than the limit" in error["message"]


# ---------------------------------------------------------------- trace mode and heatmaps


def test_trace_mode_and_its_fields_are_read() -> None:
    query = protocol.parse_query({"mode": "trace"})
    assert query.mode == "trace" and query.limit == 1
    assert query.max_steps == protocol.DEFAULT_MAX_STEPS == 2000
    assert not query.heatmap and query.wants_solutions
    query = protocol.parse_query({"mode": "trace", "max_steps": protocol.MAX_TRACE_STEPS})
    assert query.max_steps == 100_000
    assert protocol.parse_query({"mode": "count", "heatmap": True}).heatmap


@pytest.mark.parametrize(
    ("request_fields", "path", "words"),
    [
        ({"mode": "trace", "max_steps": 0}, "max_steps", "at least 1"),
        ({"mode": "trace", "max_steps": 100_001}, "max_steps", "at most 100000"),
        ({"mode": "trace", "max_steps": True}, "max_steps", "integer"),
        ({"mode": "count", "max_steps": 5}, "max_steps", '"mode": "trace"'),
        ({"mode": "count", "heatmap": 1}, "heatmap", "true or false"),
        ({"mode": "random", "heatmap": True}, "heatmap", '"mode": "count"'),
    ],
)
def test_bad_trace_and_heatmap_fields(request_fields: dict, path: str, words: str) -> None:
    with pytest.raises(protocol.SolveError) as caught:
        protocol.parse_query(request_fields)
    assert caught.value.code == protocol.INVALID_REQUEST
    assert caught.value.path == path and words in caught.value.message


def test_heatmaps_over_too_many_solutions_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(protocol, "MAX_HEATMAP_SOLUTIONS", 3)
    request = {"kind": "sudoku", "mode": "count", "heatmap": True, "puzzle": {"grid": "." * 16}}
    response = pysolver.solve(request)
    assert not response["ok"] and response["error"]["code"] == protocol.TOO_LARGE
    assert "at most 3 solutions" in response["error"]["message"]
    limited = pysolver.solve({**request, "limit": 3})
    assert limited["ok"] and limited["count"] == 3 and not limited["complete"]
    assert sum(sum(row) for row in limited["heatmap"]["1"]) == 3 * 4


J_PIECE = {"name": "J", "cells": [[0, 0], [0, 1], [0, 2], [1, 2]]}  # with L4: 4 tilings of 2x4


@pytest.mark.parametrize(
    "request_",
    [
        {"kind": "sudoku", "puzzle": {"grid": "1" + "." * 15}},  # 72 grids
        {"kind": "shikaku", "puzzle": {"rows": 2, "cols": 4, "clues": [[0, 0, 4], [1, 3, 4]]}},
        {"kind": "polyomino", "puzzle": {"board": ["...."] * 2, "pieces": ["L4", J_PIECE]}},
    ],
    ids=["sudoku", "shikaku", "polyomino"],
)
def test_heatmap_counts_follow_the_count_rule(request_: dict) -> None:
    # With or without a heatmap, a count whose limit equals the total is complete, and one
    # below it is not; the heatmap sums exactly the solutions counted.
    request = {**request_, "mode": "count", "heatmap": True}
    whole = pysolver.solve(request)
    assert whole["ok"] and whole["complete"], whole
    total = whole["count"]
    exact = pysolver.solve({**request, "limit": total})
    assert (exact["count"], exact["complete"]) == (total, True)
    assert exact["heatmap"] == whole["heatmap"]
    assert pysolver.solve({**request, "heatmap": False, "limit": total})["complete"] is True
    if total > 1:
        short = pysolver.solve({**request, "limit": total - 1})
        assert (short["count"], short["complete"]) == (total - 1, False)
        summed = sum(sum(map(sum, grid)) for grid in short["heatmap"].values())
        assert summed * total == sum(sum(map(sum, grid)) for grid in whole["heatmap"].values()) * (
            total - 1
        )


def test_recent_solutions_in_progress_reports_only_when_asked() -> None:
    from pysolver import solve

    board = {"board": ["." * 10] * 6, "pieces": ["pentominoes"]}
    for kind, puzzle in (("sudoku", {"grid": "." * 81}), ("polyomino", board)):
        for engine in ("dlx", "bitset"):
            asked: list[dict] = []
            request = {"kind": kind, "mode": "count", "engine": engine, "puzzle": puzzle}
            solve(
                {**request, "recent": True},
                progress=asked.append,
                cancel=lambda a=asked: len(a) > 3,
            )
            recent = [report["recent"] for report in asked if "recent" in report]
            assert recent, (kind, engine)
            if kind == "sudoku":
                grid = recent[0]
                assert all(sorted(row) == list(range(1, 10)) for row in grid)
                assert all(sorted(col) == list(range(1, 10)) for col in zip(*grid, strict=True))
            else:
                cells = sorted(tuple(cell) for piece in recent[0] for cell in piece["cells"])
                assert cells == [(r, c) for r in range(6) for c in range(10)]
            plain: list[dict] = []
            solve(request, progress=plain.append, cancel=lambda p=plain: len(p) > 3)
            assert plain and not any("recent" in report for report in plain)


@pytest.mark.parametrize("char", ["ﬀ", "ı", "ſ", "ß", "İ"])
def test_sudoku_letters_whose_case_changes_length_or_script_are_not_symbols(char: str) -> None:
    # "ﬀ".upper() is "FF" and "ı".upper() is "I": neither is one of the grid's symbols.
    error = error_of({"kind": "sudoku", "puzzle": {"grid": "." * 15 + char + "." * 240}})
    assert error["code"] == "invalid_puzzle"
    assert f"symbol {char!r} at row 1, column 16 is not a symbol" in error["message"]
