"""The command line, run as a real subprocess: ``python -m pysolver solve FILE``."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import pysolver
from pysolver import __main__ as cli
from pysolver import protocol
from tests.conftest import run_pysolver

REPO = Path(__file__).resolve().parent.parent

TRIANGLE = {
    "kind": "exact_cover",
    "mode": "solve",
    "limit": 10,
    "puzzle": {"items": ["a", "b", "c"], "options": [["a", "b"], ["b", "c"], ["c"], ["a"], ["b"]]},
}


def parse_big(text: str) -> dict:
    """JSON with integers of any length (Python refuses over 4,300 digits by default)."""
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return json.loads(text)
    finally:
        sys.set_int_max_str_digits(old)


@pytest.fixture
def triangle_file(tmp_path: Path) -> Path:
    path = tmp_path / "triangle.json"
    path.write_text(json.dumps(TRIANGLE))
    return path


def test_solve_file(triangle_file):
    done = run_pysolver("solve", str(triangle_file))
    assert done.returncode == 0, done.stderr
    response = json.loads(done.stdout)
    assert response["ok"] and response["kind"] == "exact_cover"
    assert sorted(response["solutions"]) == [[0, 2], [1, 3], [2, 3, 4]]
    assert response["complete"] is True
    # The CLI prints exactly what solve() answers, apart from the timing.
    direct = pysolver.solve(TRIANGLE)
    del direct["stats"]["seconds"], response["stats"]["seconds"]
    # And the compiled walk's first compile (or cache load), which each process pays once.
    direct["stats"].pop("jit_seconds", None), response["stats"].pop("jit_seconds", None)
    assert response == direct


def test_solve_stdin():
    done = run_pysolver("solve", "-", stdin=json.dumps({**TRIANGLE, "mode": "count"}))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["count"] == 3


def test_overrides_and_indent(triangle_file):
    done = run_pysolver(
        "solve", "--mode", "random", "--limit", "2", "--seed", "5", "--engine", "dlx",
        "--indent", "2", str(triangle_file),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "\n  " in done.stdout
    response = json.loads(done.stdout)
    assert (response["mode"], response["seed"], response["engine"]) == ("random", 5, "dlx")
    assert response["count"] == 2


def test_invalid_puzzle_exits_1_with_error_json(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps({"kind": "exact_cover", "puzzle": {"items": ["a"], "options": [[]]}})
    )
    done = run_pysolver("solve", str(path))
    assert done.returncode == 1
    error = json.loads(done.stdout)["error"]
    assert error["code"] == "invalid_puzzle" and error["path"] == "puzzle.options[0]"


@pytest.mark.parametrize("overrides", [(), ("--mode", "count")])
def test_invalid_json_exits_1_with_error_json(overrides):
    done = run_pysolver("solve", *overrides, "-", stdin="{not json")
    assert done.returncode == 1
    response = json.loads(done.stdout)
    assert response["ok"] is False and response["error"]["code"] == "invalid_json"


def test_override_on_a_request_that_is_not_an_object():
    done = run_pysolver("solve", "--limit", "3", "-", stdin="[1, 2]")
    assert done.returncode == 1
    assert json.loads(done.stdout)["error"]["code"] == "invalid_request"


def test_bad_override_value_is_reported_as_json():
    done = run_pysolver("solve", "--limit", "0", "-", stdin=json.dumps(TRIANGLE))
    assert done.returncode == 1
    assert json.loads(done.stdout)["error"]["path"] == "limit"


def test_help_and_usage_errors():
    helped = run_pysolver("--help")
    assert helped.returncode == 0 and "solve" in helped.stdout and "Exit status" in helped.stdout
    assert run_pysolver("solve", "--help").returncode == 0
    bare = run_pysolver()
    assert bare.returncode == 2 and "usage" in bare.stdout
    missing = run_pysolver("solve", "/nonexistent/request.json")
    assert missing.returncode == 2 and "cannot read" in missing.stderr
    assert run_pysolver("--version").stdout.strip() == f"pysolver {pysolver.__version__}"


def test_progress_goes_to_stderr():
    queens = {
        "kind": "exact_cover",
        "mode": "count",
        "puzzle": {"text": "r0 r1 r2 r3 c0 c1 c2 c3\n" + "\n".join(
            f"r{r} c{c}" for r in range(4) for c in range(4)
        )},
    }  # fmt: skip
    done = run_pysolver("solve", "--progress", "-", stdin=json.dumps(queens))
    assert done.returncode == 0
    assert json.loads(done.stdout)["count"] == 24  # rooks: 4! placements
    assert "100.00%" in done.stderr


def test_big_integers_are_printed_whole():
    # 16x16 dominoes is far beyond 2^53; 200x200 has 5,040 digits, past Python's str guard.
    small = run_pysolver("solve", "-", stdin='{"kind": "domino", "mode": "count", '
                    '"puzzle": {"rows": 16, "cols": 16}}')  # fmt: skip
    assert small.returncode == 0, small.stdout
    assert '"count": 2444888770250892795802079170816' in small.stdout
    big = run_pysolver("solve", "-", stdin='{"kind": "domino", "mode": "count", '
                  '"puzzle": {"rows": 200, "cols": 200}}')  # fmt: skip
    assert big.returncode == 0, big.stdout[:500]
    count = parse_big(big.stdout)["count"]
    assert 10**5039 <= count < 10**5040  # 5,040 digits, checked without converting to str


EMPTY_25 = {"kind": "sudoku", "mode": "count", "puzzle": {"grid": "." * 625}}


# An empty 9x9 grid has about 6.7e21 completions: the first arrive within milliseconds even on
# a loaded machine (the 25x25 matrix can take longer than the timeout just to build).
EMPTY_9 = {"kind": "sudoku", "mode": "count", "puzzle": {"grid": "." * 81}}


def test_timeout_stops_an_endless_count_and_prints_the_partial_answer() -> None:
    result = run_pysolver("solve", "--timeout", "1", "-", stdin=json.dumps(EMPTY_9))
    assert result.returncode == 130, result.stderr
    response = json.loads(result.stdout)
    assert response["ok"] and response["cancelled"] and response["complete"] is False
    assert response["count"] > 0


def test_ctrl_c_stops_the_search_cleanly() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(
        [sys.executable, "-m", "pysolver", "solve", "--progress", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env=env,
    )
    process.stdin.write(json.dumps(EMPTY_25))
    process.stdin.close()
    # The first progress report proves the search is running before we interrupt it.
    assert "nodes" in process.stderr.read(40)
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=30) == 130
    out, err = process.stdout.read(), process.stderr.read()
    response = json.loads(out)
    assert response["cancelled"] and response["complete"] is False
    assert "Traceback" not in err


def test_a_reader_that_goes_away_is_not_an_error() -> None:
    # `python -m pysolver solve big.json | head -c 10`: no traceback from the broken pipe.
    request = {"kind": "domino", "mode": "count", "puzzle": {"rows": 200, "cols": 200}}
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(
        [sys.executable, "-m", "pysolver", "solve", "--indent", "1", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
        env=env,
    )
    process.stdin.write(json.dumps(request).encode())
    process.stdin.close()
    assert process.stdout.read(10) == b'{\n "ok": t'
    process.stdout.close()
    err = process.stderr.read().decode()
    assert process.wait(timeout=30) == 0
    assert "Traceback" not in err and "BrokenPipe" not in err


def test_deeply_nested_input_gives_error_json_not_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 1000 + "]" * 1000)
    done = run_pysolver("solve", str(path))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert json.loads(done.stdout)["error"]["code"] == "too_large"


@pytest.mark.parametrize("seconds", ["nan", "-5", "0", "inf", "soon"])
def test_timeout_must_be_a_finite_positive_number(seconds: str) -> None:
    done = run_pysolver("solve", "--timeout", seconds, "-", stdin=json.dumps(TRIANGLE))
    assert done.returncode == 2
    assert "--timeout" in done.stderr and done.stdout == ""


# ---------------------------------------------------------------- signals, reading, usage

# bitset: its tasks are cuts of the serial search (a memo count's are memo_tasks' own).
PENTOMINO_6X10 = {
    "kind": "polyomino",
    "mode": "count",
    "engine": "bitset",
    "puzzle": {"board": ["." * 10] * 6, "pieces": ["pentominoes"]},
}


def child_pids(parent: int) -> set[int]:
    """The processes whose parent is ``parent`` (from /proc: Linux only)."""
    children = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # ended while we looked
            continue
        # The command name (field 2) is in parentheses and may hold spaces: split after it.
        if int(stat.rsplit(")", 1)[1].split()[1]) == parent:
            children.add(int(entry.name))
    return children


def alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_stop_a_parallel_run_like_ctrl_c(stop_signal: signal.Signals) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(
        [sys.executable, "-m", "pysolver", "solve", "--jobs", "2", "--progress", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env=env,
    )
    process.stdin.write(json.dumps(PENTOMINO_6X10))
    process.stdin.close()
    # A progress report with solutions in it: the pool's workers are searching.
    seen = ""
    while not re.search(r"solutions [1-9]", seen):
        character = process.stderr.read(1)
        assert character, "the CLI ended before reporting progress"
        seen = (seen + character)[-200:]
    workers = child_pids(process.pid)
    assert len(workers) >= 2  # the two pool workers (and multiprocessing's resource tracker)
    process.send_signal(stop_signal)
    assert process.wait(timeout=60) == 130
    out, err = process.stdout.read(), process.stderr.read()
    assert "Traceback" not in err
    response = json.loads(out)
    assert response["ok"] and response["cancelled"] and response["complete"] is False
    assert 0 < response["count"] < 9356 and response["parallel"]["jobs"] == 2
    assert "failed" not in response["parallel"]  # the workers were stopped, not killed
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in workers if alive(pid)], "a worker outlived the CLI"


def test_timeout_covers_a_request_still_being_read() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(
        [sys.executable, "-m", "pysolver", "solve", "--timeout", "2", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env=env,
    )
    started = time.monotonic()
    process.stdin.write('{"kind": "sudoku", ')  # ... and the rest never comes
    process.stdin.flush()
    try:
        assert process.wait(timeout=30) == 130
        waited = time.monotonic() - started
        out, err = process.stdout.read(), process.stderr.read()
    finally:
        process.stdin.close()
    assert waited < 3.5, f"answered {waited:.1f} s after start with --timeout 2"
    response = json.loads(out)
    assert response["cancelled"] and response["ok"] is False
    assert response["error"]["code"] == "cancelled"
    assert "2 s timeout while reading the request" in response["error"]["message"]
    assert "Traceback" not in err


# Runs the CLI with this process's standard input and prints the CLI's peak resident memory
# (in kB: Linux's ru_maxrss), so the generator feeding the pipe is not counted.
PEAK_OF_CLI = """
import resource, subprocess, sys
subprocess.run([sys.executable, "-m", "pysolver", "solve", "-"], stdout=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""

# Writes a 400,000,000-character request to standard output, a megabyte at a time.
HUGE_REQUEST = """
import os
out = os.fdopen(1, "wb", buffering=0)
chunk = b"a" * (1 << 20)
try:
    out.write(b'{"kind": "exact_cover", "puzzle": {"text": "')
    for _ in range(400_000_000 // len(chunk)):
        out.write(chunk)
    out.write(b'"}}')
except BrokenPipeError:
    pass
"""


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is in kB on Linux")
def test_a_request_far_over_the_limit_is_refused_before_it_is_read() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    generator = subprocess.Popen([sys.executable, "-c", HUGE_REQUEST], stdout=subprocess.PIPE)
    measured = subprocess.run(
        [sys.executable, "-c", PEAK_OF_CLI],
        stdin=generator.stdout,
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=120,
    )
    generator.stdout.close()
    generator.wait(timeout=60)
    peak_mb = int(measured.stdout) / 1024
    assert peak_mb < 100, f"the CLI peaked at {peak_mb:.0f} MB refusing the request"


def test_an_over_long_request_is_refused_too_large() -> None:
    done = run_pysolver("solve", "-", stdin=" " * 20_000_001)
    assert done.returncode == 1
    error = json.loads(done.stdout)["error"]
    assert error["code"] == "too_large" and "20,000,000" in error["message"]


def test_bounded_read_stops_one_character_past_the_limit() -> None:
    read_fd, write_fd = os.pipe()
    os.write(write_fd, "ﬀé".encode() * 3)
    os.close(write_fd)
    with pytest.raises(protocol.SolveError) as refused:
        cli.read_request_text(read_fd, limit=5)
    os.close(read_fd)
    assert refused.value.code == "too_large" and "limit of 5 characters" in refused.value.message
    read_fd, write_fd = os.pipe()
    os.write(write_fd, "ﬀé".encode() * 3)
    os.close(write_fd)
    assert cli.read_request_text(read_fd, limit=6) == "ﬀé" * 3
    os.close(read_fd)


def test_a_stopped_answer_lists_a_bounded_number_of_solutions() -> None:
    listed = cli.STOPPED_LISTING + 5
    response = {"ok": True, "cancelled": True, "count": listed, "solutions": [[1]] * listed}
    response["colors"] = [{}] * listed
    cli.trim_stopped_answer(response)
    assert len(response["solutions"]) == len(response["colors"]) == cli.STOPPED_LISTING
    assert response["solutions_truncated"] is True and response["count"] == listed
    finished = {"ok": True, "count": listed, "solutions": [[1]] * listed}
    cli.trim_stopped_answer(finished)
    assert len(finished["solutions"]) == listed


@pytest.mark.parametrize("address", ["foo", "tcp://host", "tcp://host:99999", "http://h:1"])
def test_a_malformed_scheduler_address_is_a_usage_error(address: str) -> None:
    done = run_pysolver("solve", "--scheduler", address, "-", stdin=json.dumps(TRIANGLE))
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert "not a scheduler address" in done.stderr and "Traceback" not in done.stderr


def test_closed_standard_input_is_a_usage_error() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-m", "pysolver", "solve", "-"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=60,
        preexec_fn=lambda: os.close(0),
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == "python -m pysolver: cannot read -: standard input is closed"


def catches(pid: int, signum: int) -> bool:
    """Whether process ``pid`` has a handler for ``signum`` (SigCgt in /proc: Linux only)."""
    status = (Path("/proc") / str(pid) / "status").read_text()
    caught = next(line for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(caught.split()[1], 16) >> (signum - 1) & 1)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_sigterm_while_the_request_is_read_answers_at_once() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(
        [sys.executable, "-m", "pysolver", "solve", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env=env,
    )
    try:
        process.stdin.write('{"kind": ')
        process.stdin.flush()
        # Once the CLI handles SIGTERM it is waiting for the rest of the request.
        deadline = time.monotonic() + 30
        while not catches(process.pid, signal.SIGTERM) and time.monotonic() < deadline:
            time.sleep(0.05)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 130
        out, err = process.stdout.read(), process.stderr.read()
    finally:
        process.stdin.close()
    response = json.loads(out)
    assert response["cancelled"] and response["error"]["code"] == "cancelled"
    assert "SIGTERM while reading the request" in response["error"]["message"]
    assert "Traceback" not in err
