"""Error paths of the protocol layer, through pysolver.solve: it answers, it never raises."""

from __future__ import annotations

import pytest

import pysolver
from pysolver.kinds import KINDS

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
    assert all(name in error["message"] for name in KINDS)


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
