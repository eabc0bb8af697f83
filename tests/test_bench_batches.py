"""bench/bench_browser.py's batches (issue 30's work, in CPython and in the page): the requests
are the bench modules' own, and a page answer that differs from CPython's is a wrong answer.
No browser here: the page's side is given as bench_browser.batch_in_page returns it."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bench import bench_browser, bench_explain, bench_sudoku
from bench.harness import WrongAnswer

CLASSIC = bench_browser.CLASSIC_SUDOKU


def test_the_batches_are_the_bench_modules_requests() -> None:
    found = {
        label: (requests, expected) for label, requests, _read, expected in bench_browser.batches()
    }
    hard = bench_sudoku.read_puzzles(bench_sudoku.HARD_SET)
    assert found["batch hard311 unique"] == (bench_sudoku.unique_requests(hard), "311 unique")
    explain = bench_explain.hard_explain_requests()
    assert found["batch explain hard150"] == (explain, "150 explained")
    generating = {label: requests for label, (requests, _) in found.items() if "generate" in label}
    assert len(generating) == 9  # five Sudoku levels, four Shikaku levels
    for label, requests in generating.items():
        level = label.rsplit(" ", 1)[1]
        assert {request["difficulty"] for request in requests} == {level}
        assert len({request["seed"] for request in requests}) == len(requests)


def page_result(responses: list[dict[str, Any]]) -> dict[str, Any]:
    """What batch_in_page gives for these responses: CPU seconds made up."""
    return {"responses": responses, "pageSeconds": 0.5, "cpu_s": 0.4, "worker_cpu_s": 0.3}


def test_a_page_batch_must_answer_as_cpython_did() -> None:
    paired = bench_browser.PairedBatches()
    requests = bench_sudoku.unique_requests([CLASSIC, CLASSIC])

    def read(responses: list[dict[str, Any]]) -> Any:
        return bench_sudoku.read_answers([CLASSIC, CLASSIC], responses)

    responses = paired.run_cpython("two", requests)
    assert read(responses).answer == "2 unique"
    same = copy.deepcopy(responses)
    for response in same:
        response["stats"]["seconds"] += 1.0  # times may differ
    measured = paired.page_reader("two", read)(page_result(same))
    assert measured.answer == "2 unique"
    assert measured.counters["x_cpython"] == round(0.3 / paired.cpython["two"], 2)
    assert "two" in paired.table()
    other = copy.deepcopy(responses)
    other[1]["stats"]["nodes"] += 1
    with pytest.raises(WrongAnswer):
        paired.page_reader("two", read)(page_result(other))
