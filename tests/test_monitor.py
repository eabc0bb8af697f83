"""Progress throttling, monotone fractions, cancel, and stage monitors."""

from __future__ import annotations

import pytest

from pysolver.engines.monitor import Monitor, StageMonitor, fraction_done


@pytest.fixture
def reports() -> list[dict]:
    return []


def test_reports_are_throttled_monotone_and_end_at_one(monkeypatch, reports) -> None:
    clock = iter([0.0] + [0.05 * i for i in range(1, 100)])
    monkeypatch.setattr("pysolver.engines.monitor.perf_counter", lambda: next(clock))
    monitor = Monitor(progress=reports.append)
    fractions = [0.1, 0.3, 0.2, 0.5, 1.0, 0.9]  # wobbly, as floating-point estimates can be
    for step, fraction in enumerate(fractions):
        assert monitor.check(step * 100, step, lambda f=fraction: f) is False
    # Checks came every 50 ms, so only every other one reports.
    assert len(reports) == 3
    sent = [report["fraction"] for report in reports]
    assert sent == sorted(sent) and all(f < 1.0 for f in sent)
    monitor.finish(600, 6, complete=True)
    assert reports[-1]["fraction"] == 1.0 and reports[-1]["done"] is True
    assert reports[-1]["nodes"] == 600 and reports[-1]["solutions"] == 6


def test_unfinished_search_does_not_claim_to_be_done(reports) -> None:
    monitor = Monitor(progress=reports.append)
    monitor.finish(10, 0, complete=False)
    assert reports[-1]["fraction"] < 1.0


def test_cancel_hook_stops_the_search() -> None:
    polls = iter([False, False, True])
    monitor = Monitor(cancel=lambda: next(polls))
    assert monitor.check(1, 0) is False
    assert monitor.check(2, 0) is False
    assert monitor.check(3, 0) is True and monitor.cancelled


def test_stage_offsets_counts_and_maps_its_share(monkeypatch, reports) -> None:
    outer = Monitor(progress=reports.append)
    outer.interval = outer.next_report = 0.0  # report at every check
    stage = StageMonitor(outer, nodes_before=1000, solutions_before=7, share=(0.5, 0.75))
    assert stage.check(10, 1, lambda: 0.5) is False
    assert reports[-1]["nodes"] == 1010 and reports[-1]["solutions"] == 8
    assert reports[-1]["fraction"] == pytest.approx(0.625)
    stage.finish(10, 1, complete=True)  # only the request's monitor ends the progress
    assert len(reports) == 1


def test_stage_stops_at_its_budget_and_forwards_cancel() -> None:
    stage = StageMonitor(Monitor(), 0, 0, budget=100)
    assert stage.check(100, 0) is False
    assert stage.check(101, 0) is True and stage.over_budget and not stage.cancelled
    cancelled = StageMonitor(Monitor(cancel=lambda: True), 0, 0)
    assert cancelled.check(1, 0) is True and cancelled.cancelled


def test_knuth_estimate_weighs_each_level_by_its_branch_sizes() -> None:
    # Branch 1 of 4 at the root, then branch 1 of 2: a quarter of the tree is done, plus
    # half of the current quarter.
    assert fraction_done([1, 1], [4, 2], 2) == pytest.approx(1 / 4 + 1 / 8)
    assert fraction_done([1, 1], [4, 2], 1) == pytest.approx(1 / 4)
    assert fraction_done([0, 0], [3, 5], 2) == 0.0


def test_recent_solutions_ride_along_at_most_once_a_second(monkeypatch, reports) -> None:
    now = [0.0]
    monkeypatch.setattr("pysolver.engines.monitor.perf_counter", lambda: now[0])
    monitor = Monitor(progress=reports.append, recent=lambda solution: {"decoded": solution})
    assert monitor.wants_recent  # the first solution found is asked for at once
    monitor.found([3, 1])
    assert not monitor.wants_recent
    for step in range(1, 16):  # 1.5 s of checks, one report each 0.1 s
        now[0] = 0.1 * step
        monitor.check(step, step)
        if monitor.wants_recent:
            monitor.found([step])
    recents = [(round(r["seconds"], 1), r["recent"]) for r in reports if "recent" in r]
    # The first at the first report; the next one found after 1 s, sent at the next report.
    assert recents == [(0.1, {"decoded": [3, 1]}), (1.1, {"decoded": [10]})]


def test_no_recent_solutions_without_a_decoder_or_progress() -> None:
    assert not Monitor(progress=lambda report: None).wants_recent
    assert not Monitor(recent=lambda solution: solution).wants_recent


def test_stage_decodes_its_solutions_for_the_request_monitor(reports) -> None:
    outer = Monitor(progress=reports.append, recent=lambda tiling: f"tiling {tiling}")
    stage = StageMonitor(outer, 0, 0, recent=lambda options: sum(options))
    assert stage.wants_recent
    stage.found([1, 2, 3])
    assert outer.kept == "tiling 6" and not outer.wants_recent and not stage.wants_recent
    # Without a decoder of its own a stage asks for none.
    assert not StageMonitor(outer, 0, 0).wants_recent
