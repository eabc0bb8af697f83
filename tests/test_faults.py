"""Faults around a parallel run: dead workers, stop signals, a lost cluster, many jobs, plans."""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from bench.stop_audit import few_first_choices, is_worker, process_tree, resident_bytes
from pysolver import api, budget, parallel
from pysolver.engines import monitor, subtree
from pysolver.midend.registry import kind as midend_kind
from pysolver.parallel import dask_cluster, processes
from pysolver.protocol import parse_query
from tests.dask_local import count_by_levels_on_dask, local_cluster

REPO = Path(__file__).resolve().parent.parent
HOLE_8X8 = ["........"] * 3 + ["...##...", "...##..."] + ["........"] * 3
SIX_BY_TEN = ["." * 10] * 6


def pentominoes(board: list[str], **fields) -> dict:
    # bitset by default: its tasks are cuts of the serial search (a memo count's are cut in
    # the memo walk's own tree, below its root orbits: memo_tasks).
    return {
        "kind": "polyomino",
        "mode": "count",
        "engine": "bitset",
        "puzzle": {"board": board, "pieces": ["pentominoes"]},
        **fields,
    }


def dying_below_a_choice(text: str, cancel=None, progress=None) -> str:
    """An answer_task whose worker process dies on every task below the first choice named by
    ``PYSOLVER_TEST_DEADLY_CHOICE`` (spawned workers import this module afresh, so the choice
    travels in the environment they inherit)."""
    deadly = int(os.environ["PYSOLVER_TEST_DEADLY_CHOICE"])
    if json.loads(text)["subtree"]["path"][:1] == [deadly]:
        os._exit(9)
    return api.answer_task(text, cancel, progress)


def _marked_processes(mark: str) -> list[int]:
    """Processes whose environment holds ``mark`` (a run's workers carry its environment)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if mark.encode() in (entry / "environ").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


# ---------------------------------------------------------------- a worker process dies


def killing_a_worker(past: float) -> tuple[Callable[[dict], None], list[int]]:
    """A progress callback that kills a worker process (SIGKILL) at the first report past the
    fraction ``past``, and the list of the process ids it killed."""
    killed: list[int] = []

    def kill_a_worker(report: dict) -> None:
        workers = [
            child for child in multiprocessing.active_children() if child.name == "pysolver-worker"
        ]
        if not killed and workers and report["fraction"] > past:
            killed.append(workers[0].pid)
            os.kill(workers[0].pid, signal.SIGKILL)

    return kill_a_worker, killed


@pytest.mark.parametrize(
    ("engine", "board", "count"), [("bitset", HOLE_8X8, 520), ("memo", SIX_BY_TEN, 9356)]
)
def test_a_killed_worker_process_is_replaced_and_the_count_stays_exact(engine, board, count):
    # memo: the task runs again on a fresh worker, with a fresh memo (issue 31's split; 6x10:
    # its tasks are long enough to report progress, when the worker is killed).
    kill_a_worker, killed = killing_a_worker(past=0.0)
    merged = api.solve(pentominoes(board, jobs=2, engine=engine), progress=kill_a_worker)
    assert killed, "no worker was running to be killed"
    assert merged["engine"] == engine
    assert (merged["count"], merged["complete"]) == (count, True), merged
    assert "failed" not in merged["parallel"]
    [retry] = merged["parallel"]["retried"]
    assert retry["reasons"] == ["ended by SIGKILL"]
    assert merged["parallel"]["executor"] == "processes"


def test_a_task_that_kills_its_worker_every_time_is_given_up_and_the_rest_complete(monkeypatch):
    request = pentominoes(["." * 20] * 3, jobs=2)
    tasks, _ = parallel.plan(request, parse_query(request), midend_kind("polyomino"), 16)
    deadly = tasks[0].subtree["path"][0]
    doomed = [task for task in tasks if task.subtree["path"][:1] == [deadly]]
    lost = sum(json.loads(api.answer_task(json.dumps(task.request)))["count"] for task in doomed)
    monkeypatch.setenv("PYSOLVER_TEST_DEADLY_CHOICE", str(deadly))
    merged = api.solve(request, runner=parallel.ProcessRunner(2, dying_below_a_choice))
    assert merged["ok"] and merged["complete"] is False
    assert merged["count"] == 8 - lost
    failed = merged["parallel"]["failed"]
    assert [failure["task"] for failure in failed] == [task.index for task in doomed]
    assert all(f"died {processes.MAX_ATTEMPTS} times" in f["error"]["message"] for f in failed)


def test_a_killed_lane_worker_leaves_the_count_to_the_memo_walk_and_it_stays_exact(monkeypatch):
    # The memo count by levels (pure Python, a board): the worker kept its lane's part, lost
    # with it, so the memo walk counts the board here; the response says why.
    monkeypatch.setenv("PYSOLVER_PURE", "1")
    monkeypatch.setattr(processes, "HERE_BELOW", 0)
    monkeypatch.setattr(processes, "ALONE_WHILE_STARTING_BELOW", 0)
    monkeypatch.setattr(monitor.Monitor, "interval", 0.0)
    kill_a_worker, killed = killing_a_worker(past=0.3)
    request = pentominoes(["." * 15] * 4, jobs=2, engine="memo")
    merged = api.solve(request, progress=kill_a_worker)
    assert killed, "no worker was running to be killed"
    assert (merged["count"], merged["complete"]) == (1472, True), merged
    assert merged["parallel"]["lost_lanes"] == ["ended by SIGKILL"]
    assert 0 < merged["parallel"]["levels"]["sent"] < 12
    assert merged["stats"]["nodes"] == api.solve(dict(request, jobs=1))["stats"]["nodes"]
    assert not multiprocessing.active_children()


# ---------------------------------------------------------------- stop signals to the group


# The same path for both signals: the quick run sends SIGTERM, the slow run SIGHUP too.
@pytest.mark.parametrize(
    "signum", [signal.SIGTERM, pytest.param(signal.SIGHUP, marks=pytest.mark.slow)]
)
def test_a_signal_to_the_process_group_gives_a_cancelled_partial_answer(tmp_path, signum):
    request = tmp_path / "6x10.json"
    request.write_text(json.dumps(pentominoes(SIX_BY_TEN)))
    mark = f"pysolver-test-{uuid.uuid4().hex}"
    run = subprocess.Popen(
        [sys.executable, "-m", "pysolver", "solve", "--jobs", "2", str(request)],
        # The pure walk: the compiled one counts 6x10 whole before the signal.
        env={
            **os.environ,
            "PYTHONPATH": str(REPO),
            "PYSOLVER_TEST_MARK": mark,
            "PYSOLVER_PURE": "1",
        },
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as under `timeout` or a job scheduler
    )
    deadline = time.monotonic() + 60
    while len(_marked_processes(mark)) < 3 and time.monotonic() < deadline:
        time.sleep(0.1)  # the CLI and its two workers
    time.sleep(1.5)  # the workers are searching by now
    os.killpg(run.pid, signum)
    out, err = run.communicate(timeout=60)
    assert run.returncode == 130, err
    response = json.loads(out)
    assert response["cancelled"] is True and response["complete"] is False
    assert 0 <= response["count"] < 9356
    assert "failed" not in response["parallel"], response["parallel"]
    time.sleep(0.5)
    assert _marked_processes(mark) == []  # every worker ended with the CLI


# ---------------------------------------------------------------- a worker that goes silent


def _cli_with_workers(request_path: Path, *args: str, silence: float = 1.0):
    """``solve --jobs 2 REQUEST ARGS`` in its own process group, its workers marked, busy
    searching by the time this returns; and the mark."""
    mark = f"pysolver-test-{uuid.uuid4().hex}"
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "PYSOLVER_TEST_MARK": mark,
        processes.SILENCE_VARIABLE: str(silence),
        # The pure walk: the compiled one (pysolver-studio[fast]) ends these counts before a
        # worker can be paused or silenced mid-search.
        "PYSOLVER_PURE": "1",
    }
    run = subprocess.Popen(
        [sys.executable, "-m", "pysolver", "solve", "--jobs", "2", *args, str(request_path)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        workers = _workers_of(run.pid)
        if len(workers) == 2 and all(_threads(pid) >= 2 for pid in workers):
            break
        time.sleep(0.05)
    time.sleep(0.3)  # the workers are searching by now
    return run, mark


def _workers_of(pid: int) -> list[int]:
    return [child for child in process_tree(pid) if is_worker(child)]


def _threads(pid: int) -> int:
    """The threads of a process: a worker runs its heartbeat thread once it has started."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    return int(status.split("Threads:", 1)[1].split()[0])


def _finish(run: subprocess.Popen, mark: str, seconds: float) -> tuple[str, str]:
    """The output of ``run`` within ``seconds``; every process it left is killed (and the
    test fails)."""
    try:
        out, err = run.communicate(timeout=seconds)
    finally:
        left = _marked_processes(mark)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        if run.poll() is None:
            run.kill()
            run.communicate()
    time.sleep(0.3)
    assert _marked_processes(mark) == [], "processes were left running"
    return out, err


@pytest.mark.slow
def test_a_paused_worker_is_killed_and_its_task_runs_again(tmp_path):
    # Issue 35: a worker paused with SIGSTOP hung the run for good (killed at 240 s).
    path = tmp_path / "hole.json"
    path.write_text(json.dumps(pentominoes(HOLE_8X8)))
    run, mark = _cli_with_workers(path)
    os.kill(_workers_of(run.pid)[0], signal.SIGSTOP)
    out, err = _finish(run, mark, 60)
    assert run.returncode == 0, err
    response = json.loads(out)
    assert (response["count"], response["complete"]) == (520, True)
    [retry] = response["parallel"]["retried"]
    assert "without a word" in retry["reasons"][0]


@pytest.mark.slow
@pytest.mark.parametrize("stop", ["timeout", "SIGTERM"])
def test_a_paused_worker_does_not_hold_up_a_stop(tmp_path, stop):
    # Issue 35: --timeout 30 was still running at 150 s, SIGTERM 129 s later, and --timeout 5
    # left the paused worker running. The silence limit is long here: the stop must not wait.
    path = tmp_path / "sudoku.json"
    path.write_text(json.dumps({"kind": "sudoku", "mode": "count", "puzzle": {"grid": "." * 81}}))
    args = ("--timeout", "3") if stop == "timeout" else ()
    run, mark = _cli_with_workers(path, *args, silence=600)
    os.kill(_workers_of(run.pid)[0], signal.SIGSTOP)
    paused = time.monotonic()
    if stop == "SIGTERM":
        os.killpg(run.pid, signal.SIGTERM)
    out, err = _finish(run, mark, 30)
    # Stopped within the grace a worker gets to stop, plus writing the answer.
    assert time.monotonic() - paused < 3 + processes.STOP_GRACE_SECONDS + 2
    assert run.returncode == 130, err
    response = json.loads(out)
    assert response["cancelled"] is True and "failed" not in response["parallel"]


@pytest.mark.slow
def test_workers_of_a_killed_parent_leave_without_a_traceback(tmp_path):
    # Issue 35: each worker printed a BrokenPipeError traceback as it left.
    path = tmp_path / "sudoku.json"
    path.write_text(json.dumps({"kind": "sudoku", "mode": "count", "puzzle": {"grid": "." * 81}}))
    run, mark = _cli_with_workers(path)
    workers = _workers_of(run.pid)
    os.kill(run.pid, signal.SIGKILL)
    _, err = _finish(run, mark, 30)  # the workers share its stderr: read to their end
    assert err == ""
    assert not [pid for pid in workers if _running(pid)]


def _running(pid: int) -> bool:
    """The process exists and is not a zombie (an orphan's is reaped by init in its time)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_worker_whose_parent_is_gone_leaves_quietly():
    # Off Linux no signal ends a worker with its parent: its sends fail and it leaves.
    parent_end, worker_end = multiprocessing.Pipe(duplex=True)
    channel = processes._Channel(worker_end, os.getpid())
    parent_end.close()
    assert channel.send(("progress", 0, {})) is False
    assert channel.leaving and channel.next_job() is None
    assert processes.Job(channel, 0).cancel() is True


def test_a_script_without_a_main_guard_is_told_what_to_do(tmp_path):
    # Issue 35: each worker importing the script answered internal_error with multiprocessing's
    # 900-character message.
    script = tmp_path / "no_guard.py"
    script.write_text(
        "import json, sys, pysolver\n"
        "request = {'kind': 'queens', 'mode': 'count', 'jobs': 2, 'puzzle': {'n': 6}}\n"
        # One write a line: the workers print too, and the environment may be unbuffered.
        "sys.stdout.write(json.dumps(pysolver.solve(request)) + '\\n')\n"
    )
    run = subprocess.run(
        [sys.executable, str(script)],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert answers[-1]["count"] == 4  # the script's own run
    refused = answers[:-1]  # the workers', as they import the script
    assert refused and all(answer["error"]["code"] == "internal_error" for answer in refused)
    assert all(answer["error"]["message"] == processes.NO_MAIN_GUARD for answer in refused)
    assert len(processes.NO_MAIN_GUARD) < 200 and "__main__" in processes.NO_MAIN_GUARD


# ---------------------------------------------------------------- one budget for many jobs


@pytest.mark.slow  # runs until its 5 s timeout
def test_jobs_64_runs_the_cores_worth_of_workers_within_the_budget(tmp_path):
    request = tmp_path / "sudoku.json"
    request.write_text(
        json.dumps({"kind": "sudoku", "mode": "count", "puzzle": {"grid": "." * 81}})
    )
    run = subprocess.Popen(
        [
            *(sys.executable, "-m", "pysolver", "solve"),
            *("--jobs", "64", "--timeout", "5"),
            str(request),
        ],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    most_processes = 0
    peak = 0
    while run.poll() is None:
        tree = process_tree(run.pid)
        # The workers (not the fork server, nor multiprocessing's resource tracker)
        workers = [pid for pid in tree if is_worker(pid)]
        most_processes = max(most_processes, len(workers))
        peak = max(peak, sum(resident_bytes(pid) for pid in tree))
        time.sleep(0.05)
    out, err = run.communicate()
    assert run.returncode == 130, err  # stopped by its timeout
    response = json.loads(out)
    cores = processes.usable_cores()
    assert response["parallel"]["jobs"] == min(64, cores)
    assert response["parallel"]["jobs_asked"] == 64 and "64 jobs" in response["parallel"]["note"]
    assert 1 <= most_processes <= cores
    assert peak <= budget.CPYTHON_BUDGET_BYTES + 64 * 2**20, peak / 2**20


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def test_a_worker_gets_its_share_of_the_budget_and_a_task_over_it_runs_serially():
    assert processes.worker_budget(2) == budget.budget_bytes() // 3
    request = {"kind": "polyomino", "mode": "count", "symmetry": "distinct"}
    request["puzzle"] = {
        "board": ["........"] * 8,
        "pieces": [{"name": "D", "cells": [[0, 0], [0, 1]], "count": 32}],
    }
    serial = api.solve(request)
    assert serial["ok"] is False and serial["error"]["code"] == "too_large"
    # Refused by a worker: refused as serially, not an ok answer with count 0 (issue 23 item 6).
    assert api.solve(dict(request, jobs=2)) == serial


# ---------------------------------------------------------------- planning


def test_a_split_with_no_search_answers_zero_and_complete():
    # Polyomino distinct symmetry, L3 on a 1x3 board: every search is dead at its root (the
    # planner divided by zero).
    request = {"kind": "polyomino", "mode": "count", "symmetry": "distinct", "jobs": 2}
    request["puzzle"] = {"board": ["..."], "pieces": ["L3"]}
    response = api.solve(request)
    assert response["ok"], response
    assert (response["count"], response["complete"]) == (0, True)


def test_planning_makes_a_bounded_number_of_tasks_and_ships_the_puzzle_once():
    # 2,000 options of 50 items over 100 items: the first choice has about 1,000 branches.
    names = [f"i{index}" for index in range(100)]
    options = [[names[(start * 7 + k) % 100] for k in range(50)] for start in range(2000)]
    request = {"kind": "exact_cover", "mode": "count", "engine": "dlx", "jobs": 2}
    request["puzzle"] = {"items": names, "options": options}
    query = parse_query(request)
    wanted = 2 * parallel.TASKS_PER_JOB
    tasks, _ = parallel.plan(request, query, midend_kind("exact_cover"), wanted)
    assert 1 <= len(tasks) <= max(subtree.MOST_FLOOR, subtree.MOST_PER_WANTED * wanted)
    # Tasks share the puzzle (one object), and a task's text is the request's plus its subtree.
    assert all(task.request["puzzle"] is request["puzzle"] for task in tasks)
    base = {key: value for key, value in tasks[0].request.items() if key != "subtree"}
    text = processes.task_text(json.dumps(base), tasks[-1].subtree)
    assert json.loads(text) == tasks[-1].request


def test_planning_stops_when_cancelled():
    request = pentominoes(HOLE_8X8, jobs=2)
    response = api.solve(
        request, cancel=lambda: True, runner=parallel.InlineRunner(api.answer_task)
    )
    assert response["ok"] and response["cancelled"] is True and response["complete"] is False


class CancelAfter:
    """A cancel hook that says stop from its call number ``after`` + 1 on, counting calls."""

    def __init__(self, after: float = float("inf")) -> None:
        self.after = after
        self.calls = 0

    def __call__(self) -> bool:
        self.calls += 1
        return self.calls > self.after


def few_first_request(options: int, per_option: int, items: int) -> dict:
    """An exact cover count whose first choice has 10 branches over a wide matrix."""
    puzzle = few_first_choices(options, per_option, items)
    return {"kind": "exact_cover", "mode": "count", "engine": "dlx", "jobs": 2, "puzzle": puzzle}


class NeverRun(parallel.InlineRunner):
    def run(self, tasks, merger) -> None:
        raise AssertionError("planning was cancelled: no task may run")


def test_a_cancel_while_cutting_a_big_matrix_stops_before_planning_ends():
    # Issue 23: reading, encoding and cutting a big matrix into tasks took seconds without a
    # look at the cancel hook. Count the hook's calls while reading and encoding alone, and
    # while planning as a whole (cutting included), then cancel halfway through the cutting.
    request = few_first_request(2_000, 20, 200)
    the_kind = midend_kind("exact_cover")
    reading = CancelAfter()
    the_kind.plan(request["puzzle"], parse_query(request, cancel=reading))
    planning = CancelAfter()
    the_kind.split(request["puzzle"], parse_query(request, cancel=planning), 16)
    assert planning.calls > reading.calls + 20, "cutting the tree never asks the cancel hook"
    cancel = CancelAfter((reading.calls + planning.calls) // 2)
    response = api.solve(request, cancel=cancel, runner=NeverRun(api.answer_task))
    assert response["ok"] and response["cancelled"] is True and response["complete"] is False
    assert cancel.calls == cancel.after + 1  # stopped at the first look after the cancel


SPLIT_REQUESTS = {
    "exact_cover": few_first_request(300, 10, 60),
    "sudoku singles": {"kind": "sudoku", "engine": "singles", "puzzle": {"grid": "." * 256}},
    "shikaku propagate": {
        "kind": "shikaku",
        "engine": "propagate",
        "puzzle": {
            "rows": 12,
            "cols": 12,
            "clues": [[r, c, 16] for r in (1, 5, 9) for c in (1, 5, 9)],
        },
    },
    "polyomino": pentominoes(SIX_BY_TEN),
    "queens": {"kind": "queens", "puzzle": {"n": 12}},
}


@pytest.mark.parametrize("name", SPLIT_REQUESTS)
def test_every_kind_cuts_its_tree_cancellably(name, monkeypatch):
    # The hook is asked at every checkpoint here, so small puzzles show where they are.
    monkeypatch.setattr(monitor, "CHECKPOINT_GRACE", 0)
    monkeypatch.setattr(monitor, "CHECKPOINT_EVERY", 1)
    request = dict(SPLIT_REQUESTS[name], mode="count")
    the_kind = midend_kind(request["kind"])
    counting = CancelAfter()
    the_kind.split(request["puzzle"], parse_query(request, cancel=counting), 16)
    prepared = CancelAfter()
    plan, engine = the_kind.plan(request["puzzle"], parse_query(request, cancel=prepared))
    assert plan.split is not None
    cutting = CancelAfter()
    plan.split(engine, 16, monitor.Monitor(cancel=cutting))
    assert cutting.calls > 4, f"{name}: cutting the tree never asks the cancel hook"
    with pytest.raises(monitor.Cancelled):
        plan.split(engine, 16, monitor.Monitor(cancel=CancelAfter(cutting.calls // 2)))
    with pytest.raises(monitor.Cancelled):
        the_kind.split(
            request["puzzle"], parse_query(request, cancel=CancelAfter(counting.calls - 2)), 16
        )


# ---------------------------------------------------------------- a Dask cluster that fails


@pytest.mark.slow
@pytest.mark.parametrize("victim", ["scheduler", "worker"])
def test_a_dask_run_that_loses_its_scheduler_or_a_worker(tmp_path, victim, monkeypatch):
    pytest.importorskip(
        "distributed", reason="the dask extra is not installed (pysolver-studio[dask])"
    )
    # The pure walk: the compiled one (pysolver-studio[fast]) can finish before the kill.
    monkeypatch.setenv("PYSOLVER_PURE", "1")
    with local_cluster(workers=2) as cluster:
        request = tmp_path / "6x10.json"
        request.write_text(json.dumps(pentominoes(SIX_BY_TEN)))
        run = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "pysolver",
                "solve",
                "--scheduler",
                cluster.address,
                str(request),
            ],
            env=cluster.env,
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        time.sleep(6)  # tasks are running on both workers by now
        (cluster.scheduler if victim == "scheduler" else cluster.workers[0]).kill()
        out, err = run.communicate(timeout=300)
    response = json.loads(out)
    if victim == "worker":  # Dask reschedules its tasks: exact and complete
        assert run.returncode == 0, err
        assert (response["count"], response["complete"]) == (9356, True)
        return
    assert run.returncode == 3, (err, out[:2000])
    assert response["ok"] is False and response["error"]["code"] == "unavailable"
    message = response["error"]["message"]
    assert "Dask cluster" in message and "lost" in message and len(message) < 300
    assert response["complete"] is False and 0 <= response["count"] < 9356
    failed = response["parallel"]["failed"]
    assert failed and all(f["error"]["code"] == "unavailable" for f in failed)
    assert "Traceback" not in err and len(err.splitlines()) == 1, err


@pytest.mark.slow
@pytest.mark.parametrize("fault", ["killed", "paused"])
def test_a_dask_worker_lost_in_a_count_by_levels_leaves_it_to_the_memo_walk(monkeypatch, fault):
    # Its actor held its lane's part: the level count cannot go on, and the memo walk counts
    # the board in this process, exactly; the response says why. A paused worker stays in the
    # scheduler's list for minutes: its missing heartbeats tell (it waited for ever before).
    count_by_levels_on_dask(monkeypatch)
    monkeypatch.setenv(processes.SILENCE_VARIABLE, "1")
    step = dask_cluster.DaskLanes.step
    paused: list[int] = []
    with local_cluster(workers=2) as cluster:

        def step_then_lose_a_worker(self, monitor_):
            if self.levels_sent == 3 and fault == "killed":
                # The worker's process and the nanny above it, at once: a nanny killed alone
                # leaves its worker to notice and stop in its own time (on a loaded machine
                # the lane answered five more levels first).
                for pid in process_tree(cluster.workers[0].pid):
                    os.kill(pid, signal.SIGKILL)
                cluster.workers[0].wait()
            elif self.levels_sent == 3 and not paused:
                paused.extend(process_tree(cluster.workers[0].pid))
                for pid in paused:
                    os.kill(pid, signal.SIGSTOP)
            return step(self, monitor_)

        monkeypatch.setattr(dask_cluster.DaskLanes, "step", step_then_lose_a_worker)
        runner = dask_cluster.DaskRunner(cluster.address, api.answer_task)
        started = time.monotonic()
        try:
            request = pentominoes(["." * 15] * 4, jobs=2, engine="memo")
            answer = api.solve(request, runner=runner)
        finally:
            runner.close()
            for pid in paused:
                os.kill(pid, signal.SIGKILL)
    assert (answer["count"], answer["complete"]) == (1472, True), answer
    assert answer["parallel"]["executor"] == "dask"
    lost = answer["parallel"]["lost_lanes"]
    assert lost, answer["parallel"]
    assert answer["parallel"]["levels"]["sent"] == 3
    if fault == "paused":
        assert "no heartbeat" in lost[-1], lost
        # Two seconds of silence (twice the limit set above), a look every half second, and
        # a margin for a loaded machine.
        assert time.monotonic() - started < 20


@pytest.mark.slow
@pytest.mark.parametrize("victim", ["scheduler", "worker"])
def test_a_dask_run_whose_scheduler_or_only_worker_is_paused_is_unavailable_in_time(
    tmp_path, victim
):
    # Issue 35: a paused worker or scheduler hung the run for minutes, --timeout 20 too.
    pytest.importorskip(
        "distributed", reason="the dask extra is not installed (pysolver-studio[dask])"
    )
    with local_cluster(workers=1) as cluster:
        request = tmp_path / "6x10.json"
        request.write_text(json.dumps(pentominoes(SIX_BY_TEN)))
        run = subprocess.Popen(
            [
                *(sys.executable, "-m", "pysolver", "solve", "--progress"),
                *("--scheduler", cluster.address, str(request)),
            ],
            env={**cluster.env, processes.SILENCE_VARIABLE: "1"},
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert run.stderr is not None
        seen = ""
        # Until a task has reported nodes (the first reports are the plan's, with none).
        while not re.search(r"nodes [1-9]", seen) and run.poll() is None:
            seen += run.stderr.read(1)
        target = cluster.scheduler if victim == "scheduler" else cluster.workers[0]
        paused = process_tree(target.pid)  # a worker's nanny and the worker it runs
        for pid in paused:
            os.kill(pid, signal.SIGSTOP)
        started = time.monotonic()
        try:
            out, err = run.communicate(timeout=60)
        finally:
            for pid in paused:
                os.kill(pid, signal.SIGKILL)
    # The worker: silent past twice the silence limit; the scheduler: a call unanswered. The
    # margin is for a loaded machine (13.5 s seen beside the whole suite); it hung for minutes.
    assert time.monotonic() - started < dask_cluster.CALL_SECONDS + 15
    assert run.returncode == 3, (err, out[:2000])
    response = json.loads(out)
    assert response["ok"] is False and response["error"]["code"] == "unavailable"
    assert 0 <= response["count"] < 9356 and response["complete"] is False
    said = [line for line in err.replace("\r", "\n").splitlines() if "nodes" not in line]
    assert "Traceback" not in err and len([line for line in said if line.strip()]) == 1, err


def test_a_task_refused_by_its_share_of_the_budget_makes_the_run_serial():
    # A worker's share of the budget refuses its task (too_large): the run stops and the
    # request is answered serially with the whole budget, as it would be without jobs.
    refused = []

    def over_its_share(text, cancel=None, progress=None):
        refused.append(text)
        error = {"code": "too_large", "message": "over this worker's share", "path": "puzzle"}
        return json.dumps({"ok": False, "error": error})

    request = pentominoes(HOLE_8X8)
    serial = api.solve(request)
    merged = api.solve(dict(request, jobs=2), runner=parallel.InlineRunner(over_its_share))
    assert len(refused) == 1  # the first refusal stopped every other task
    assert (merged["count"], merged["complete"]) == (serial["count"], True) == (520, True)
    assert merged["parallel"]["executor"] == "serial"
    assert "too_large" in merged["parallel"]["note"]


def test_the_cli_exits_3_with_a_line_when_parallel_tasks_were_lost(tmp_path, monkeypatch, capsys):
    from pysolver.__main__ import EXIT_TASKS_LOST, main

    request = pentominoes(["." * 20] * 3, jobs=2)
    tasks, _ = parallel.plan(request, parse_query(request), midend_kind("polyomino"), 16)
    monkeypatch.setenv("PYSOLVER_TEST_DEADLY_CHOICE", str(tasks[0].subtree["path"][0]))
    monkeypatch.setattr(
        parallel,
        "default_runner",
        lambda jobs, _answer: parallel.ProcessRunner(jobs, dying_below_a_choice),
    )
    path = tmp_path / "3x20.json"
    path.write_text(json.dumps(request))
    assert main(["solve", str(path)]) == EXIT_TASKS_LOST == 3
    captured = capsys.readouterr()
    response = json.loads(captured.out)
    assert response["ok"] is True and response["complete"] is False
    assert response["parallel"]["failed"]
    [line] = captured.err.splitlines()
    assert "failed" in line and "partial" in line
