"""The command line's pictures (``solve --format text``) and ``batch`` (order, --jobs)."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from bench.stop_audit import is_worker, process_tree, resident_bytes
from pysolver.parallel import processes
from tests.conftest import REPO
from tests.conftest import run_pysolver as run_cli
from tests.test_faults import _marked_processes

TOP95 = REPO / "tests" / "data" / "top95.txt"

# One small request per kind, and the picture its first solution must print.
PICTURES = {
    "sudoku": (
        {
            "kind": "sudoku",
            "puzzle": {
                "grid": "53..7....6..195....98....6.8...6...34..8.3..1"
                "7...2...6.6....28....419..5....8..79"
            },
        },
        "5 3 4 | 6 7 8 | 9 1 2\n6 7 2 | 1 9 5 | 3 4 8\n1 9 8 | 3 4 2 | 5 6 7\n"
        "------+-------+------\n8 5 9 | 7 6 1 | 4 2 3",
    ),
    "polyomino": (
        {
            "kind": "polyomino",
            "puzzle": {"board": ["...", ".#.", "..."], "pieces": ["L4", "L4"]},
        },
        None,  # checked below: letters, then the same tiling with box-drawing lines
    ),
    "shikaku": (
        {"kind": "shikaku", "puzzle": {"rows": 3, "cols": 3, "clues": [[0, 1, 3], [1, 1, 6]]}},
        "┌───────────┐\n│     3     │\n├───────────┤\n│     6     │\n│           │\n"
        "│           │\n└───────────┘",
    ),
    "domino": (
        {"kind": "domino", "puzzle": {"rows": 2, "cols": 2}},
        # The first tiling of a 2x2 square: two upright dominoes.
        "┌───┬───┐\n│   │   │\n│   │   │\n│   │   │\n└───┴───┘",
    ),
    "queens": (
        {"kind": "queens", "puzzle": {"n": 4}},
        ". . Q .\nQ . . .\n. . . Q\n. Q . .",
    ),
    "exact_cover": (
        {"kind": "exact_cover", "puzzle": {"items": ["a", "b"], "options": [["a", "b"], ["a"]]}},
        "0: a b",
    ),
}


@pytest.mark.parametrize("kind", list(PICTURES))
def test_format_text_prints_a_picture_for_every_kind(kind: str) -> None:
    request, picture = PICTURES[kind]
    result = run_cli("solve", "--format", "text", "-", stdin=json.dumps(request))
    assert result.returncode == 0, result.stderr
    summary, *pictures = result.stdout.rstrip("\n").split("\n\n")
    assert summary.startswith(f"{kind} solve: 1 solution")
    if picture is not None:
        assert pictures[0].startswith(picture)
        return
    letters, lines = pictures
    # Two L tetrominoes around a hole: both named L, so their cells are told apart by lines.
    assert letters == "LLL\nL L\nLLL"
    assert lines == "\n".join(
        [
            "┌───────────┐",
            "│           │",
            "│   ┌───┬───┤",
            "│   │   │   │",
            "├───┴───┘   │",
            "│           │",
            "└───────────┘",
        ]
    )


def test_format_json_stays_the_default_and_errors_print_as_text() -> None:
    request = json.dumps(PICTURES["queens"][0])
    assert json.loads(run_cli("solve", "-", stdin=request).stdout)["count"] == 1
    broken = run_cli("solve", "--format", "text", "-", stdin='{"kind": "queens"}')
    assert broken.returncode == 1
    assert broken.stdout.startswith("error (invalid_request): the request has no puzzle")


def mixed_batch(tmp_path: Path) -> tuple[Path, list[str]]:
    """Twelve top95 Sudokus, a comment, a blank line, a JSON request of each other kind and a
    broken line; and the puzzles of the Sudoku lines."""
    sudokus = TOP95.read_text().split()[:12]
    lines = ["# a comment", *sudokus[:6], ""]
    lines += [json.dumps(request) for request, _ in PICTURES.values() if "grid" not in str(request)]
    lines += ["not a request", *sudokus[6:]]
    path = tmp_path / "batch.txt"
    path.write_text("\n".join(lines) + "\n")
    return path, sudokus


def check_batch_answers(stdout: str, sudokus: list[str]) -> None:
    answers = [json.loads(line) for line in stdout.splitlines()]
    assert len(answers) == 12 + 5 + 1
    kinds = [answer.get("kind") for answer in answers]
    others = ["polyomino", "shikaku", "domino", "queens", "exact_cover"]
    assert kinds == ["sudoku"] * 6 + others + [None] + ["sudoku"] * 6
    assert answers[11]["error"]["code"] == "invalid_json"
    sudoku_answers = answers[:6] + answers[12:]
    for puzzle, answer in zip(sudokus, sudoku_answers, strict=True):
        solution = "".join(str(digit) for row in answer["solutions"][0] for digit in row)
        # Each answer is the solution of its own line: input order is kept.
        pairs = zip(puzzle, solution, strict=True)
        assert all(given in ".0" or given == found for given, found in pairs)


def test_batch_answers_each_line_in_input_order(tmp_path: Path) -> None:
    path, sudokus = mixed_batch(tmp_path)
    result = run_cli("batch", str(path))
    assert result.returncode == 1  # one line is not a request
    check_batch_answers(result.stdout, sudokus)
    assert "18/18 answered, 1 errors" in result.stderr


def test_batch_jobs_spread_the_lines_and_keep_the_order(tmp_path: Path) -> None:
    path, sudokus = mixed_batch(tmp_path)
    result = run_cli("batch", "--jobs", "3", str(path))
    assert result.returncode == 1
    check_batch_answers(result.stdout, sudokus)
    serial = run_cli("batch", "--quiet", str(path)).stdout.splitlines()
    for ours, theirs in zip(result.stdout.splitlines(), serial, strict=True):
        # The same answers as one process gives, line by line (only the seconds differ).
        ours_answer, their_answer = json.loads(ours), json.loads(theirs)
        ours_answer.pop("stats", None)
        their_answer.pop("stats", None)
        assert ours_answer == their_answer


def test_batch_overrides_and_text_format(tmp_path: Path) -> None:
    path = tmp_path / "two.txt"
    path.write_text("\n".join(TOP95.read_text().split()[:2]) + "\n")
    counted = run_cli("batch", "--mode", "count", "--quiet", str(path))
    assert [json.loads(line)["count"] for line in counted.stdout.splitlines()] == [1, 1]
    assert counted.stderr == ""
    text = run_cli("batch", "--format", "text", "--quiet", str(path))
    blocks = text.stdout.strip("\n").split("\n\n")
    assert blocks[0] == "sudoku solve: 1 solution" and blocks[2] == "sudoku solve: 1 solution"
    assert blocks[1].splitlines()[3] == "------+-------+------"


def test_batch_of_a_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    result = run_cli("batch", str(tmp_path / "none.txt"))
    assert result.returncode == 2 and "cannot read" in result.stderr


# ---------------------------------------------------------------- stops and budgets (issue 35)

EMPTY_COUNT = json.dumps({"kind": "sudoku", "mode": "count", "puzzle": {"grid": "." * 81}})


def batch_process(*args: str, stdin=None, stdout=subprocess.PIPE, silence: float | None = None):
    """``batch ARGS`` in its own process group, its processes marked; and the mark."""
    mark = f"pysolver-test-{uuid.uuid4().hex}"
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYSOLVER_TEST_MARK": mark}
    if silence is not None:
        env[processes.SILENCE_VARIABLE] = str(silence)
    run = subprocess.Popen(
        [sys.executable, "-m", "pysolver", "batch", *args],
        env=env,
        cwd=REPO,
        stdin=stdin,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    return run, mark


def finish(run: subprocess.Popen, mark: str, seconds: float) -> tuple[str, str]:
    """The output of ``run`` within ``seconds``; fails if it left a process running."""
    try:
        out, err = run.communicate(timeout=seconds)
    finally:
        for pid in _marked_processes(mark):
            os.kill(pid, signal.SIGKILL)
        if run.poll() is None:
            run.kill()
            run.communicate()
    time.sleep(0.3)
    assert _marked_processes(mark) == [], "processes were left running"
    return out, err


def test_a_line_that_raises_is_that_lines_error_and_the_rest_are_answered(tmp_path, monkeypatch):
    # Issue 35: a pasted ID with a 5,000-digit number raised ValueError and stopped the run
    # after 1 of 3 answers.
    sudokus = TOP95.read_text().split()[:2]
    path = tmp_path / "three.txt"
    path.write_text(f"{sudokus[0]}\n3x3:a{'1' * 5000}\n{sudokus[1]}\n")
    result = run_cli("batch", "--quiet", str(path))
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    first, bad, last = (json.loads(line) for line in result.stdout.splitlines())
    assert first["ok"] and last["ok"] and bad["ok"] is False
    # Whatever a reader raises is its line's answer (here in-process, a reader that breaks).
    from pysolver import batch

    def broken(line: str):
        raise ValueError("a reader's bug")

    monkeypatch.setattr(batch.pasted, "read_request", broken)
    answer = batch.answer_line(sudokus[0], {}, "json")
    assert answer.ok is False
    assert json.loads(answer.text)["error"]["message"].startswith("internal error (ValueError")


@pytest.mark.parametrize("jobs", ["1", pytest.param("2", marks=pytest.mark.slow)])
def test_batch_timeout_cuts_each_line(tmp_path, jobs):
    sudoku = TOP95.read_text().split()[0]
    path = tmp_path / "lines.txt"
    path.write_text(f"{EMPTY_COUNT}\n{sudoku}\n")
    started = time.monotonic()
    result = run_cli("batch", "--timeout", "0.5", "--jobs", jobs, str(path))
    assert time.monotonic() - started < 20
    assert result.returncode == 1, result.stderr
    counted, solved = (json.loads(line) for line in result.stdout.splitlines())
    assert counted["cancelled"] is True and counted["count"] > 0
    assert solved["ok"] and solved["count"] == 1
    assert "1 timed out" in result.stderr


@pytest.mark.slow
def test_batch_total_timeout_and_a_held_open_stdin_stop_with_a_summary():
    # The input pipe stays open after one line: the run's deadline still ends the wait.
    reading, writing = os.pipe()
    run, mark = batch_process("--total-timeout", "1.5", "-", stdin=reading)
    os.close(reading)
    started = time.monotonic()
    try:
        os.write(writing, (TOP95.read_text().split()[0] + "\n").encode())
        # Streamed: the first answer comes while the input is still open (main read it whole).
        assert run.stdout is not None
        assert json.loads(run.stdout.readline())["count"] == 1
        out, err = finish(run, mark, 30)
    finally:
        os.close(writing)
    assert time.monotonic() - started < 1.5 + 3
    assert run.returncode == 130
    assert "stopped by the 1.5 s timeout after 1 answers" in err


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_batch_on_workers_stops_on_a_signal_with_a_summary_and_no_worker_left(tmp_path, signum):
    # Issue 35: SIGTERM left 2 orphan workers alive 30 s later and no summary; SIGINT took 5.5 s.
    path = tmp_path / "many.txt"
    path.write_text(f"{TOP95.read_text().split()[0]}\n" * 3 + f"{EMPTY_COUNT}\n" * 4)
    run, mark = batch_process("--jobs", "2", str(path))
    assert run.stdout is not None
    for _ in range(3):
        assert json.loads(run.stdout.readline())["count"] == 1
    time.sleep(0.5)  # the endless counts are running on both workers
    os.killpg(run.pid, signum)
    stopped = time.monotonic()
    out, err = finish(run, mark, 30)
    assert time.monotonic() - stopped < 2
    assert run.returncode == 130 and out == ""
    assert "stopped by" in err and "after 3 answers" in err and "Traceback" not in err


@pytest.mark.slow
def test_batch_replaces_a_paused_worker_and_answers_every_line(tmp_path):
    sudokus = TOP95.read_text().split()[:20]
    path = tmp_path / "twenty.txt"
    path.write_text("\n".join(sudokus) + "\n")
    run, mark = batch_process("--jobs", "2", "--quiet", str(path), silence=1.0)
    assert run.stdout is not None
    assert json.loads(run.stdout.readline())["ok"]
    # Its workers: the processes below it but the fork server and the resource tracker.
    deadline = time.monotonic() + 30
    while not (workers := [pid for pid in process_tree(run.pid)[1:] if is_worker(pid)]):
        assert time.monotonic() < deadline, "no worker process"
        time.sleep(0.05)
    os.kill(workers[0], signal.SIGSTOP)
    out, err = finish(run, mark, 60)
    assert run.returncode == 0, err
    assert len(out.splitlines()) == 19 and all(json.loads(line)["ok"] for line in out.splitlines())


@pytest.mark.slow
def test_batch_of_many_lines_on_workers_stays_within_its_budget(tmp_path):
    # Issue 35: 300k lines with --jobs 2 took 859 MB (every line submitted at once).
    path = tmp_path / "many.txt"
    path.write_text("\n".join(TOP95.read_text().split()) * 1000 + "\n")  # 95,000 lines
    run, mark = batch_process(
        "--jobs", "2", "--quiet", "--total-timeout", "20", str(path), stdout=subprocess.DEVNULL
    )
    peak = 0
    while run.poll() is None:
        peak = max(peak, sum(resident_bytes(pid) for pid in process_tree(run.pid)))
        time.sleep(0.05)
    finish(run, mark, 30)
    assert run.returncode == 130
    assert peak < 200 * 2**20, peak / 2**20


def test_batch_that_cannot_start_workers_says_so_in_one_line(tmp_path, monkeypatch, capsys):
    # Issue 35: /tmp and /dev/shm full gave an ENOSPC traceback.
    from pysolver.__main__ import main

    def full(self):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(processes.WorkerPool, "start", full)
    path = tmp_path / "two.txt"
    path.write_text("\n".join(TOP95.read_text().split()[:2]) + "\n")
    assert main(["batch", "--jobs", "2", "--quiet", str(path)]) == 2
    captured = capsys.readouterr()
    [line] = captured.err.splitlines()
    assert "No space left on device" in line and "--jobs 1" in line
