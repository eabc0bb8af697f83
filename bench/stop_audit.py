"""Peak memory and stop latency of requests that are valid but too big (issue: bounded memory).

Each row runs ``python -m pysolver solve --timeout T`` (with ``--jobs N`` for the parallel
rows) in a child process on one request a curious user could send, and prints the child's peak
resident memory (from ``os.wait4``'s rusage, so the CLI process alone), the peak of the whole
process tree (the CLI and its worker processes: their resident memory summed, read from /proc
every 20 ms), the most worker processes seen at once, and how long after the timeout it
answered, and the CPU seconds the tree used after the timeout ("late CPU s": on a loaded
machine the stop's own work, which the wall-clock lateness multiplies by the load; an upper
bound, since the CLI's clock starts after its imports). A child still running ``--kill-after``
seconds past its timeout is killed and reported as such.

    python bench/stop_audit.py                 # every row, --timeout 5
    python bench/stop_audit.py --timeout 2 --only sudoku
    python bench/stop_audit.py --json audit.json

Rows named "... on stdin" send their request through the CLI's standard input from a separate
writer process, which streams it in 1 MB pieces (the 400-million-character request, never held
whole by anyone) or writes half a request and then holds the pipe open past the timeout.

The fault rows (``FAULT_ROWS``, issue 35) run a command (``solve --jobs 2``, ``solve
--scheduler`` on a local Dask cluster, ``batch``, a script) and do something to its process tree
once it is busy: pause a worker (SIGSTOP), send SIGTERM or SIGINT to the CLI, SIGKILL it, pause
a Dask worker or scheduler. They print the tree's peak, how long the run took after the fault,
the exit status, the processes of the tree still running half a second after it ended, whether
standard error held a traceback, and how the run ended.

    python bench/stop_audit.py --only paused   # the fault rows whose name says so
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def empty_sudoku(n: int) -> dict[str, Any]:
    # Above 35 symbols a grid can only be written as rows of ints.
    return {"grid": "." * (n * n)} if n <= 25 else {"grid": [[0] * n for _ in range(n)]}


def board(rows: int, cols: int) -> list[str]:
    return ["." * cols] * rows


def shikaku_blocks(side: int, block: int) -> dict[str, Any]:
    """A side x side grid cut into block x block squares, one clue at each square's centre."""
    clues = [
        [top + block // 2, left + block // 2, block * block]
        for top in range(0, side, block)
        for left in range(0, side, block)
    ]
    return {"rows": side, "cols": side, "clues": clues}


def wide_exact_cover(options: int, per_option: int, items: int) -> dict[str, Any]:
    """Options of consecutive items (wrapping), so the matrix has options x per_option entries."""
    names = [f"i{index}" for index in range(items)]
    return {
        "items": names,
        "options": [
            [names[(start * 7 + k) % items] for k in range(per_option)] for start in range(options)
        ],
    }


def few_first_choices(options: int, per_option: int, items: int) -> dict[str, Any]:
    """``wide_exact_cover`` plus a first item in 10 of the options (its last entry): the
    search branches on it first, so cutting the tree into tasks builds 10 children over the
    whole matrix (seconds at 20,000 options of 100)."""
    puzzle = wide_exact_cover(options, per_option, items)
    for option in puzzle["options"][:10]:
        option[-1] = "first"
    puzzle["items"].insert(0, "first")
    return puzzle


def dominoes(rows: int, cols: int, count: int) -> dict[str, Any]:
    """A rows x cols board and ``count`` dominoes (one piece D, used ``count`` times)."""
    return {
        "board": board(rows, cols),
        "pieces": [{"name": "D", "cells": [[0, 0], [0, 1]], "count": count}],
    }


def pentominoes(rows: int, cols: int) -> dict[str, Any]:
    return {"board": board(rows, cols), "pieces": ["pentominoes"]}


def pasted(text: str, repeated: str = "", times: int = 0, after: str = "") -> str:
    """A pasted puzzle (a game ID, an address): ``text``, ``repeated`` ``times`` times,
    then ``after``."""
    return text + repeated * times + after


def multiplicities(options: int, upper: int) -> dict[str, Any]:
    """One primary item ``a`` covered 0 to ``upper`` times and ``options`` options ``[a]``:
    every set of at most ``upper`` options is a solution, each as long as the set."""
    return {"items": ["a"], "multiplicities": {"a": [0, upper]}, "options": [["a"]] * options}


def many_multiplicities(items: int, options: int) -> dict[str, Any]:
    """``wide_exact_cover``'s options of 5 items, each item covered 0 to 5 times: Algorithm M
    scans every item at every node."""
    puzzle = wide_exact_cover(options, 5, items)
    puzzle["multiplicities"] = {name: [0, 5] for name in puzzle["items"]}
    return puzzle


@dataclass(frozen=True)
class Row:
    """A row of the audit: its name (one ending in ``jobs N`` runs with ``--jobs N``; one
    ending in ``on stdin`` is streamed by ``stream_request`` and has no request here) and its
    request, the ``fields`` beside the kind and the puzzle that ``puzzle`` builds (in the
    writer process only: see ``run_row``), or the pasted ``text`` (a game ID, an address) the
    CLI reads in its place."""

    name: str
    kind: str = ""
    puzzle: Callable[[], dict[str, Any]] = dict
    fields: dict[str, Any] = field(default_factory=dict)
    text: Callable[[], str] | None = None

    def request(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.fields, "puzzle": self.puzzle()}

    def request_text(self) -> str:
        """What the writer puts in the request file: the pasted text, or the request's JSON."""
        return self.text() if self.text is not None else json.dumps(self.request())


# The fields of the rows that share them (``Row.request`` copies them).
BITSET_COUNT = {"mode": "count", "engine": "bitset"}
DLX_COUNT = {"mode": "count", "engine": "dlx"}
DISTINCT_COUNT = {"mode": "count", "symmetry": "distinct"}
COUNT = {"mode": "count"}
DLX = {"engine": "dlx"}
ESTIMATE = {"mode": "estimate"}

ROWS = (
    Row("sudoku 9x9 empty, solve limit 1e9", "sudoku", partial(empty_sudoku, 9),
        {"limit": 10**9}),
    Row("sudoku 9x9 empty, random limit 1e6", "sudoku", partial(empty_sudoku, 9),
        {"mode": "random", "seed": 1, "limit": 10**6}),
    Row("polyomino 20x20, 200 dominoes, solve limit 1e9", "polyomino",
        partial(dominoes, 20, 20, 200), {"limit": 10**9}),
    Row("polyomino 20x20, 200 dominoes, count distinct", "polyomino",
        partial(dominoes, 20, 20, 200), DISTINCT_COUNT),
    Row("sudoku 25x25 empty, count, bitset", "sudoku", partial(empty_sudoku, 25), BITSET_COUNT),
    Row("sudoku 36x36 empty, count, bitset", "sudoku", partial(empty_sudoku, 36), BITSET_COUNT),
    Row("shikaku 100x100, four 2500 clues, dlx", "shikaku", partial(shikaku_blocks, 100, 50),
        DLX),
    Row("shikaku 100x100, 25 clues of 400, dlx", "shikaku", partial(shikaku_blocks, 100, 20),
        DLX),
    Row("exact cover 20k options, 2M entries, dlx", "exact_cover",
        partial(wide_exact_cover, 20_000, 100, 2_000), DLX_COUNT),
    Row("exact cover 200k options (the caps), dlx", "exact_cover",
        partial(wide_exact_cover, 200_000, 10, 20_000), DLX_COUNT),
    Row("polyomino 2x2, 2 dominoes, random limit 1e9", "polyomino", partial(dominoes, 2, 2, 2),
        {"mode": "random", "seed": 3, "limit": 10**9}),
    Row("polyomino 8x8, 32 dominoes, count distinct", "polyomino", partial(dominoes, 8, 8, 32),
        DISTINCT_COUNT),
    Row("sudoku 9x9 empty, count, jobs 64", "sudoku", partial(empty_sudoku, 9), COUNT),
    Row("pentominoes 6x10, count, jobs 2", "polyomino", partial(pentominoes, 6, 10), COUNT),
    Row("exact cover 2k options of 50 (695 KB), dlx, jobs 2", "exact_cover",
        partial(wide_exact_cover, 2_000, 50, 100), DLX_COUNT),
    Row("exact cover 20k options of 100 (17 MB), dlx, jobs 2", "exact_cover",
        partial(wide_exact_cover, 20_000, 100, 2_000), DLX_COUNT),
    Row("exact cover 20k options of 100, a first choice of 10, dlx, jobs 2", "exact_cover",
        partial(few_first_choices, 20_000, 100, 2_000), DLX_COUNT),
    Row("polyomino 8x8, 32 dominoes, count distinct, jobs 2", "polyomino",
        partial(dominoes, 8, 8, 32), DISTINCT_COUNT),
    Row("sudoku 25x25 empty, estimate", "sudoku", partial(empty_sudoku, 25), ESTIMATE),
    Row("sudoku 16x16 empty, estimate", "sudoku", partial(empty_sudoku, 16), ESTIMATE),
    Row("sudoku 12x12 empty, estimate", "sudoku", partial(empty_sudoku, 12), ESTIMATE),
    Row("puzz.link sudoku/12000/12000/ (pasted)",
        text=partial(pasted, "https://puzz.link/p?sudoku/12000/12000/")),
    Row("puzz.link shikaku/99999/99999/ (pasted)",
        text=partial(pasted, "https://puzz.link/p?shikaku/99999/99999/")),
    Row("Solo ID 3x3: + 5M z (pasted)", text=partial(pasted, "3x3:", "z", 5_000_000)),
    Row("Solo ID 3x3: + 19M z (pasted)", text=partial(pasted, "3x3:", "z", 19_000_000)),
    Row("Solo ID 3x3:a + 5,000-digit number (pasted)",
        text=partial(pasted, "3x3:a", "1", 5_000)),
    Row("Rectangles ID 9999x9999: + 5M z (pasted)",
        text=partial(pasted, "9999x9999:", "z", 5_000_000)),
    Row("sudokuwiki ?bd= + 5M digits (pasted)",
        text=partial(pasted, "https://www.sudokuwiki.org/sudoku.htm?bd=", "0", 5_000_000)),
    Row("multiplicities 0:3000|a, 3000 options, solve limit 1e4", "exact_cover",
        partial(multiplicities, 3_000, 3_000), {"limit": 10_000}),
    Row("multiplicities 0:200000|a, 200k options, solve limit 1e5", "exact_cover",
        partial(multiplicities, 200_000, 200_000), {"limit": 100_000}),
    Row("multiplicities 0:200000|a, 200k options, count, dlx", "exact_cover",
        partial(multiplicities, 200_000, 200_000), DLX_COUNT),
    Row("multiplicities 0:5 on 5,000 items, 20k options of 5, count, dlx", "exact_cover",
        partial(many_multiplicities, 5_000, 20_000), DLX_COUNT),
    Row("sudoku grid '.' with diagonals", "sudoku",
        partial(dict, grid=".", diagonals=True)),
    Row("Solo ID 1x1x:1 (pasted)", text=partial(pasted, "1x1x:1")),
    # Streamed by a writer process (see ``stream_request``).
    Row("request of 400M characters on stdin"),
    Row("stdin held open past the timeout on stdin"),
)  # fmt: skip


# The request a streamed row sends: a Sudoku grid of this many characters (20 times the limit).
STREAMED_CHARS = 400_000_000
CHUNK = 1 << 20


def stream_request(name: str, timeout: float) -> None:
    """Write a streamed row's request to standard output (run as its own writer process)."""
    out = sys.stdout.buffer
    if name.startswith("stdin held open"):
        out.write(b'{"kind": "sudoku", "puzzle": {"grid": "')
        out.flush()
        time.sleep(2 * timeout + 2)  # the pipe stays open well past the CLI's timeout
        return
    out.write(b'{"kind": "sudoku", "puzzle": {"grid": "')
    chunk = b"." * CHUNK
    try:
        for _ in range(STREAMED_CHARS // CHUNK):
            out.write(chunk)
        out.write(b'"}}')
    except BrokenPipeError:
        pass  # the CLI refused the request before the end: what the row measures


def jobs_of(name: str) -> list[str]:
    """The ``--jobs`` arguments of a row (its name ends in ``jobs N``), or none."""
    words = name.split()
    return ["--jobs", words[-1]] if len(words) >= 2 and words[-2] == "jobs" else []


def process_tree(root: int) -> list[int]:
    """``root`` and every process below it, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            # The parent pid is the second field after the command name, which may hold spaces.
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry.name))
    tree, stack = [], [root]
    while stack:
        pid = stack.pop()
        tree.append(pid)
        stack.extend(children.get(pid, []))
    return tree


def resident_bytes(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(tree: list[int]) -> float:
    """CPU seconds used so far by the processes of ``tree`` (its root first), with the
    children its root has already reaped (the workers that ended)."""
    total = 0
    for position, pid in enumerate(tree):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        # utime and stime are fields 14 and 15 of the line (11 and 12 after the command);
        # cutime and cstime, the reaped children's, follow.
        total += int(fields[11]) + int(fields[12])
        if position == 0:
            total += int(fields[13]) + int(fields[14])
    return total / TICKS


def is_worker(pid: int) -> bool:
    """A worker process of the pool (named so by ``processes.WORKER_NAME`` once it runs; a
    spawned one's command line says so from its start), not the fork server that forks them
    nor multiprocessing's resource tracker."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
        name = Path(f"/proc/{pid}/comm").read_bytes().strip()
    except OSError:
        return False
    return b"spawn_main" in command or name == b"pysolver-worker"


@dataclass(frozen=True)
class Measured:
    """What ``run_row`` measured of a row (columns of the table, fields of ``--json``)."""

    peak_mb: float  # the CLI's peak resident memory
    tree_peak_mb: float  # the peak of the CLI and its workers, summed
    workers: int  # the most worker processes at once
    seconds: float
    late: float  # seconds past the timeout
    late_cpu: float  # CPU seconds the tree used past the timeout
    ending: str


def run_row(index: int, timeout: float, kill_after: float) -> Measured:
    """Run request ``index`` in a child CLI; its peak memory (the CLI's and the whole tree's),
    most workers at once, answer time and how it ended."""
    name = ROWS[index].name
    streamed = name.endswith("on stdin")
    with tempfile.TemporaryDirectory() as folder:
        request_path = Path(folder) / "request.json"
        feeder = None
        if streamed:
            # The writer streams into the CLI's standard input as the CLI reads it.
            stream = [sys.executable, __file__, "--stream", str(index), str(timeout)]
            feeder = subprocess.Popen(stream, stdout=subprocess.PIPE)
        else:
            # Another process writes the request: Linux carries a parent's peak memory into
            # the children it forks, so this process must never hold a big request itself.
            writer = [sys.executable, __file__, "--write", str(index), str(request_path)]
            subprocess.run(writer, check=True)
        answer_path = Path(folder) / "answer.json"
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        command = [sys.executable, "-m", "pysolver", "solve", "--timeout", str(timeout)]
        command += jobs_of(name)
        started = time.perf_counter()
        with answer_path.open("wb") as answer:
            child = subprocess.Popen(
                [*command, "-" if streamed else str(request_path)],
                stdin=feeder.stdout if feeder is not None else None,
                stdout=answer,
                stderr=subprocess.DEVNULL,
                env=env,
                cwd=ROOT,
            )
            if feeder is not None and feeder.stdout is not None:
                feeder.stdout.close()  # the CLI holds the only reading end now
            # Reap with wait4 ourselves: it gives this child's own rusage (peak memory).
            killed = False
            tree_peak = 0
            most_workers = 0
            cpu_at_timeout = None
            while True:
                tree = process_tree(child.pid)
                tree_peak = max(tree_peak, sum(resident_bytes(pid) for pid in tree))
                most_workers = max(most_workers, sum(is_worker(pid) for pid in tree))
                if cpu_at_timeout is None and time.perf_counter() - started >= timeout:
                    cpu_at_timeout = cpu_seconds(tree)
                pid, _, usage = os.wait4(child.pid, os.WNOHANG)
                if pid:
                    break
                if time.perf_counter() - started > timeout + kill_after:
                    child.send_signal(signal.SIGKILL)
                    _, _, usage = os.wait4(child.pid, 0)
                    killed = True
                    break
                time.sleep(0.02)
            child.returncode = 0  # reaped above; keep Popen from waiting again
        if feeder is not None:
            feeder.kill()
            feeder.wait()
        seconds = time.perf_counter() - started
        cpu = usage.ru_utime + usage.ru_stime  # the CLI's and the workers it reaped
        late_cpu = 0.0 if cpu_at_timeout is None else max(0.0, cpu - cpu_at_timeout)
        output = answer_path.read_bytes()
    ending = "killed"
    if not killed:
        try:
            response = json.loads(output)
        except ValueError:
            response = None
        if not isinstance(response, dict):
            ending = "no JSON answer"  # a traceback, or nothing
            response = {}
        elif response.get("ok") is False:
            ending = response.get("error", {}).get("code", "error")
        elif response.get("cancelled"):
            ending = f"partial ({response.get('count')} found)"
        else:
            ending = f"answered ({response.get('count')})"
        if response.get("parallel", {}).get("note") and "serially" in response["parallel"]["note"]:
            ending += ", serially"
    return Measured(
        peak_mb=round(usage.ru_maxrss / 1024, 1),
        tree_peak_mb=round(tree_peak / 2**20, 1),
        workers=most_workers,
        seconds=round(seconds, 2),
        late=round(max(0.0, seconds - timeout), 2),
        late_cpu=round(late_cpu, 2),
        ending=ending,
    )


# ---------------------------------------------------------------- faults to the process tree

# Seconds after the first worker process appears (or after the start, for runs without one)
# at which a row's faults begin; one second between two faults of a row.
FAULT_AFTER = 2.0
FAULT_AFTER_DASK = 8.0


def pentomino_count(board: list[str]) -> dict[str, Any]:
    puzzle = {"board": board, "pieces": ["pentominoes"]}
    return {"kind": "polyomino", "mode": "count", "engine": "bitset", "puzzle": puzzle}


HOLE_8X8 = ["........"] * 3 + ["...##...", "...##..."] + ["........"] * 3
EMPTY_COUNT = {"kind": "sudoku", "mode": "count", "puzzle": empty_sudoku(9)}
# Tatham's Solo ID of an empty 25x25 Sudoku: 625 blanks, 26 to a "z".
EMPTY_SOLO_25 = "5x5:" + "z" * 24 + "a"
TOP95 = ROOT / "tests" / "data" / "top95.txt"
NO_GUARD_SCRIPT = (
    "import json, sys, pysolver\n"
    "request = {'kind': 'queens', 'mode': 'count', 'jobs': 2, 'puzzle': {'n': 8}}\n"
    "sys.stdout.write(json.dumps(pysolver.solve(request)) + '\\n')\n"
)


def request_file(request: dict[str, Any]) -> Callable[[Path], None]:
    return lambda path: path.write_text(json.dumps(request))


def lines_file(lines: Callable[[], Any]) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        with path.open("w") as file:
            for line in lines():
                file.write(line + "\n")

    return write


def sudoku_lines(count: int) -> Any:
    puzzles = TOP95.read_text().split()
    return (puzzles[index % len(puzzles)] for index in range(count))


@dataclass(frozen=True)
class FaultRow:
    """A fault row: ``args`` after ``python -m pysolver`` (``python`` alone for a script), in
    which ``{input}`` is the input ``write`` makes, ``{timeout}`` the audit's timeout (plus
    ``FAULT_AFTER_DASK`` for a Dask row) and
    ``{scheduler}`` the address of a local Dask cluster of ``dask_workers`` workers; and the
    faults done to the run once it is busy."""

    name: str
    args: tuple[str, ...]
    write: Callable[[Path], None]
    faults: tuple[str, ...] = ()
    script: bool = False
    dask_workers: int = 0


JOBS_2_COUNT = ("solve", "--jobs", "2", "{input}")
FAULT_ROWS = (
    FaultRow("jobs 2 count, a worker paused", JOBS_2_COUNT,
             request_file(pentomino_count(HOLE_8X8)), ("pause worker",)),
    FaultRow("jobs 2 count, a worker paused, --timeout", ("solve", "--jobs", "2", "--timeout",
             "{timeout}", "{input}"), request_file(EMPTY_COUNT), ("pause worker",)),
    FaultRow("jobs 2 count, a worker paused, then SIGTERM", JOBS_2_COUNT,
             request_file(EMPTY_COUNT), ("pause worker", "SIGTERM")),
    FaultRow("jobs 2 count, the parent killed (SIGKILL)", JOBS_2_COUNT,
             request_file(EMPTY_COUNT), ("SIGKILL",)),
    FaultRow("Dask count, the only worker paused", ("solve", "--scheduler", "{scheduler}",
             "{input}"), request_file(pentomino_count(["." * 10] * 6)), ("pause dask worker",),
             dask_workers=1),
    FaultRow("Dask count, the scheduler paused, --timeout", ("solve", "--scheduler",
             "{scheduler}", "--timeout", "{timeout}", "{input}"),
             request_file(pentomino_count(["." * 10] * 6)), ("pause dask scheduler",),
             dask_workers=2),
    FaultRow("batch 300k lines, jobs 2, --total-timeout", ("batch", "--jobs", "2", "--quiet",
             "--total-timeout", "{timeout}", "{input}"),
             lines_file(partial(sudoku_lines, 300_000))),
    FaultRow("batch jobs 2, SIGTERM", ("batch", "--jobs", "2", "{input}"),
             lines_file(lambda: [json.dumps(EMPTY_COUNT)] * 6), ("SIGTERM",)),
    FaultRow("batch jobs 2, SIGINT", ("batch", "--jobs", "2", "{input}"),
             lines_file(lambda: [json.dumps(EMPTY_COUNT)] * 6), ("SIGINT",)),
    FaultRow("batch, an empty 25x25 Solo ID, count, --timeout", ("batch", "--mode", "count",
             "--timeout", "{timeout}", "{input}"), lines_file(lambda: [EMPTY_SOLO_25])),
    FaultRow("batch, a 5,000-digit Solo ID between two lines", ("batch", "{input}"),
             lines_file(lambda: [*sudoku_lines(1), "3x3:a" + "1" * 5000, *sudoku_lines(1)])),
    FaultRow("batch jobs 2, a worker paused", ("batch", "--jobs", "2", "{input}"),
             lines_file(partial(sudoku_lines, 4000)), ("pause worker",)),
    FaultRow("script without a __main__ guard, jobs 2", ("{input}",),
             lambda path: path.write_text(NO_GUARD_SCRIPT), script=True),
)  # fmt: skip


@dataclass(frozen=True)
class FaultMeasured:
    """What ``run_fault_row`` measured (columns of the table, fields of ``--json``)."""

    tree_peak_mb: float
    workers: int
    seconds: float
    after_fault: float | None  # seconds from the first fault to the end
    status: int | None  # the exit status (None: killed by the audit)
    left: int  # processes of the tree still running after it ended
    traceback: bool  # standard error held a traceback
    ending: str


def is_running(pid: int) -> bool:
    """The process exists and is not a zombie."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def fault_ending(row: FaultRow, output: str, errors: str) -> str:
    """How a fault row's run ended, in a few words."""
    if row.args[0] == "batch":
        answers = [line for line in output.splitlines() if line.startswith("{")]
        last = errors.replace("\r", "\n").strip().splitlines()[-1:] or [""]
        return f"{len(answers)} answers; {last[0][:60]}"
    responses = []
    for line in output.splitlines():
        with contextlib.suppress(ValueError):
            responses.append(json.loads(line))
    if row.script:
        messages = [r["error"]["message"] for r in responses if not r.get("ok")]
        longest = max((len(message) for message in messages), default=0)
        return f"{len(responses)} answers, worker messages up to {longest} characters"
    if not responses:
        return "no answer"
    response = responses[-1]
    ending = (
        response.get("error", {}).get("code", "error")
        if response.get("ok") is False
        else (
            f"partial ({response.get('count')} found)"
            if response.get("cancelled")
            else f"answered ({response.get('count')})"
        )
    )
    retried = (response.get("parallel") or {}).get("retried")
    return ending + (f", {len(retried)} task(s) retried" if retried else "")


def do_fault(fault: str, child: subprocess.Popen, tree: list[int], cluster: Any) -> list[int]:
    """Do one fault; the processes it paused (killed when the row ends)."""
    if fault == "pause worker":
        workers = [pid for pid in tree if is_worker(pid)]
        os.kill(workers[0], signal.SIGSTOP)
        return workers[:1]
    if fault.startswith("pause dask"):
        target = cluster.scheduler if fault.endswith("scheduler") else cluster.workers[0]
        paused = process_tree(target.pid)
        for pid in paused:
            os.kill(pid, signal.SIGSTOP)
        return paused
    child.send_signal(getattr(signal, fault))
    return []


def run_fault_row(row: FaultRow, timeout: float, kill_after: float) -> FaultMeasured:
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stack:
        input_path = Path(folder) / ("script.py" if row.script else "input.txt")
        row.write(input_path)
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        cluster = None
        if row.dask_workers:
            from tests.dask_local import local_cluster

            cluster = stack.enter_context(local_cluster(workers=row.dask_workers))
            env = cluster.env
        # A Dask row's timeout counts from its fault: the run has to be busy by then.
        row_timeout = timeout + (FAULT_AFTER_DASK if cluster is not None else 0.0)
        values = {"input": str(input_path), "timeout": f"{row_timeout:g}"}
        if cluster is not None:
            values["scheduler"] = cluster.address
        args = [arg.format(**values) for arg in row.args]
        command = [sys.executable, *([] if row.script else ["-m", "pysolver"]), *args]
        out_path, err_path = Path(folder) / "out", Path(folder) / "err"
        started = time.perf_counter()
        with out_path.open("w") as out, err_path.open("w") as err:
            child = subprocess.Popen(command, stdout=out, stderr=err, env=env, cwd=ROOT)
        seen: set[int] = set()
        paused: list[int] = []
        faults = list(row.faults)
        first_worker = None
        fault_at = None
        tree_peak = most_workers = 0
        status: int | None = None
        while True:
            now = time.perf_counter()
            tree = process_tree(child.pid)
            seen.update(tree)
            tree_peak = max(tree_peak, sum(resident_bytes(pid) for pid in tree))
            workers = sum(is_worker(pid) for pid in tree)
            most_workers = max(most_workers, workers)
            if workers and first_worker is None:
                first_worker = now
            due = (first_worker or started) + (FAULT_AFTER_DASK if cluster else FAULT_AFTER)
            if (
                faults
                and now >= due + (0 if fault_at is None else 1.0)
                and (workers or cluster or "pause worker" not in faults[0])
            ):
                paused += do_fault(faults.pop(0), child, tree, cluster)
                fault_at = fault_at if fault_at is not None else now
            if child.poll() is not None:
                status = child.returncode
                break
            if now - started > row_timeout + kill_after:
                child.kill()
                child.wait()
                break
            time.sleep(0.02)
        ended = time.perf_counter()
        time.sleep(0.5)
        left = [pid for pid in seen if pid != child.pid and is_running(pid)]
        for pid in {*left, *paused}:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        output, errors = out_path.read_text(), err_path.read_text()
    return FaultMeasured(
        tree_peak_mb=round(tree_peak / 2**20, 1),
        workers=most_workers,
        seconds=round(ended - started, 2),
        after_fault=None if fault_at is None else round(ended - fault_at, 2),
        status=status,
        left=len(left),
        traceback="Traceback" in errors,
        ending="killed by the audit" if status is None else fault_ending(row, output, errors),
    )


def fault_table(timeout: float, kill_after: float, only: str) -> list[dict[str, Any]]:
    table = []
    print(
        f"\n{'fault row':52} {'tree MB':>8} {'workers':>7} {'s':>6} {'after':>6} {'exit':>4} "
        f"{'left':>4} {'trace':>5}  ending",
        flush=True,
    )
    for row in FAULT_ROWS:
        if only not in row.name:
            continue
        measured = run_fault_row(row, timeout, kill_after)
        table.append({"fault row": row.name, **asdict(measured)})
        after = "" if measured.after_fault is None else f"{measured.after_fault:.2f}"
        print(
            f"{row.name:52} {measured.tree_peak_mb:8.0f} {measured.workers:7} "
            f"{measured.seconds:6.2f} {after:>6} {measured.status!s:>4} {measured.left:4} "
            f"{'yes' if measured.traceback else 'no':>5}  {measured.ending}",
            flush=True,
        )
    return table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeout", type=float, default=5.0)
    parser.add_argument("--kill-after", type=float, default=25.0, metavar="SECONDS")
    parser.add_argument("--only", default="", help="run the rows whose name contains this")
    parser.add_argument("--json", metavar="FILE", help="also write the table as JSON")
    parser.add_argument("--write", nargs=2, metavar=("INDEX", "FILE"), help=argparse.SUPPRESS)
    parser.add_argument("--stream", nargs=2, metavar=("INDEX", "TIMEOUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.stream:
        index, timeout = args.stream
        stream_request(ROWS[int(index)].name, float(timeout))
        return 0
    if args.write:
        index, path = args.write
        Path(path).write_text(ROWS[int(index)].request_text())
        return 0
    names = [row.name for row in ROWS]
    table = []
    print(
        f"{'request':52} {'CLI MB':>7} {'tree MB':>8} {'workers':>7} {'late s':>7} "
        f"{'late CPU s':>10}  ending",
        flush=True,
    )
    for index, name in enumerate(names):
        if args.only not in name:
            continue
        row = run_row(index, args.timeout, args.kill_after)
        table.append({"request": name, **asdict(row)})
        print(
            f"{name:52} {row.peak_mb:7.0f} {row.tree_peak_mb:8.0f} {row.workers:7} "
            f"{row.late:7.2f} {row.late_cpu:10.2f}  {row.ending}",
            flush=True,
        )
    table += fault_table(args.timeout, args.kill_after, args.only)
    if args.json:
        Path(args.json).write_text(json.dumps(table, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
