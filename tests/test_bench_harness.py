"""The benchmark harness: answers checked on every run, JSON out, ratios against a baseline.

No timing is asserted here (performance is read from the benchmark's table, never tested).
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from bench import harness
from bench.harness import Case, Measured, WrongAnswer


def counting_case(name: str, answers: list[object], expected: object = 3) -> Case:
    """A case whose runs give the listed answers in turn, with the run number as a counter."""
    runs = iter(range(len(answers)))
    return Case(
        name=name,
        engine="test",
        run=lambda: next(runs),
        read=lambda run: Measured(answers[run], {"run": run}),
        expected=expected,
    )


def test_every_run_is_checked_and_the_best_is_kept() -> None:
    row = harness.measure(counting_case("steady", [3, 3, 3]), repeat=3)
    assert (row.answer, row.runs, row.wrong) == ("3", 3, None)
    assert row.wall_s >= 0 and row.cpu_s >= 0
    assert row.counters["run"] in (0, 1, 2)
    # A wrong answer on a later run is caught, not hidden by a right first one.
    row = harness.measure(counting_case("flaky", [3, 3, 4]), repeat=3)
    assert row.answer == "WRONG"
    assert row.wrong == "expected 3, got 4"


def test_a_case_can_reject_an_invalid_solution() -> None:
    def reject(_result: object) -> Measured:
        raise WrongAnswer("the tiling leaves a cell uncovered")

    case = Case("invalid", "test", run=lambda: None, read=reject, expected=3)
    row = harness.measure(case, repeat=2)
    assert (row.answer, row.wrong) == ("WRONG", "the tiling leaves a cell uncovered")


def test_wrong_answer_fails_the_run_and_writes_no_json(tmp_path: Path, capsys) -> None:
    saved = tmp_path / "rows.json"
    sources = [lambda: [counting_case("right", [3]), counting_case("wrong", [5])]]
    status = harness.main(["--repeat", "1", "--json", str(saved)], sources)
    assert status == 1
    assert not saved.exists()
    captured = capsys.readouterr()
    assert "WRONG ANSWER: wrong [test]: expected 3, got 5" in captured.err
    assert "right" in captured.out


def test_json_then_baseline_gives_ratios_per_row(tmp_path: Path, capsys) -> None:
    saved = tmp_path / "rows.json"
    assert harness.main(["--repeat", "2", "--json", str(saved)], [lambda: [big_case()]]) == 0
    report = json.loads(saved.read_text())
    assert [(row["name"], row["engine"], row["runs"]) for row in report["rows"]] == [
        ("big count", "test", 2)
    ]
    assert report["rows"][0]["answer"] == "123456789012345678...345678901234567890"
    capsys.readouterr()
    sources = [lambda: [big_case(), counting_case("other", [3])]]
    assert harness.main(["--repeat", "1", "--baseline", str(saved)], sources) == 0
    lines = capsys.readouterr().out.splitlines()
    big = next(line for line in lines if line.startswith("big count"))
    other = next(line for line in lines if line.startswith("other"))
    assert "new" not in big and "new" in other
    assert any(line.startswith("against the baseline, 1 rows") for line in lines)


def big_case() -> Case:
    """A count too long for the table, shown by its ends."""
    number = int("1234567890" * 6)
    return Case("big count", "test", lambda: number, lambda n: Measured(n), expected=number)


def test_levels_and_filter_select_rows() -> None:
    cases = [
        Case("a quick row", "x", lambda: 1, Measured, 1, level="quick"),
        Case("a default row", "x", lambda: 1, Measured, 1, level="default"),
        Case("a full row", "y", lambda: 1, Measured, 1, level="full"),
    ]
    names = [case.name for case in harness.selected(cases, "default", "")]
    assert names == ["a quick row", "a default row"]
    assert [case.name for case in harness.selected(cases, "full", "y")] == ["a full row"]
    with pytest.raises(ValueError, match="level"):
        list(harness.selected([Case("odd", "x", lambda: 1, Measured, 1, level="huge")], "full", ""))


# Exact cover's cases take seconds to build (its word squares): the slow run checks them.
@pytest.mark.parametrize(
    "module",
    [
        pytest.param(module, marks=pytest.mark.slow)
        if module == "bench.bench_exact_cover"
        else module
        for module in harness.SUITE
    ],
)
def test_suite_rows_have_unique_names_and_known_levels(module: str) -> None:
    # The baseline matches rows by (name, engine); building the cases runs no benchmark.
    cases = list(importlib.import_module(module).cases())
    keys = [(case.name, case.engine) for case in cases]
    assert len(keys) == len(set(keys))
    assert {case.level for case in cases} <= set(harness.LEVELS)
    assert any(case.level == "quick" for case in cases)
