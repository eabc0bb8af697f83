"""Parallel search benchmark: serial against ``"jobs": N`` (worker processes) and Dask.

    python -m bench.bench_parallel                  # 6x10 (tiling, matrix), 8x8 + square, Sudoku
    python -m bench.bench_parallel --cases 6x10     # names start with the given prefixes
    python -m bench.bench_parallel --full           # also the distinct counts
    python -m bench.bench_parallel --dask           # also a Dask cluster of N one-thread workers
    python -m bench.bench_parallel --rounds 5       # medians of 5 rounds (default 3)
    python -m bench.bench_parallel --cli            # also the CLI, one process a run

``--dask`` starts a real cluster on 127.0.0.1 before timing (``dask scheduler`` and N ``dask
worker --nthreads 1`` processes, as a user would; ``--scheduler tcp://HOST:PORT`` uses one
already running). Each round times the serial count, the count with ``jobs`` worker processes
and on Dask, one after the other, so a change of the machine's load hits all three alike; the
table prints each one's median over the rounds. Dask workers outlive a request and keep the
memo count's memo of its last problem (``memo_tasks``): it is dropped before each timed run, so
every round counts from cold.

Prints one row per case: the count (checked against the serial one and the known count), the
median seconds serial, with ``jobs`` processes and on Dask, the speed-ups, the number of tasks,
the largest task's share of the search nodes (the split's balance: the speed-up cannot pass
1 / that share), the nodes all tasks summed over the serial count's (the split's overhead: the
memo count's tasks keep its root orbits and a memo per worker), the CPU seconds of the serial
run and of the parallel one (all its processes, the fork server's workers too, whatever the
load), the parallel run's CPU seconds in this process alone (``cpu 0``: planning, merging and,
in pure Python, the tasks it answers itself; on two idle cores the run takes about the larger
of it and the rest), and the load average of the machine at the end. Timings are wall-clock:
on a shared machine, read them with the load. A whole count of a board in pure Python runs
by levels on the jobs' lanes (``memo_levels``), where the serial count is the memo walk: a line
under its row gives the level count on one lane in this process (its nodes, which the lanes'
add up to, and its time without the request's reading) and the jobs run's speed-up over it.

``--cli`` adds a line per case: ``python -m pysolver solve`` in a process of its own per
run, with ``--jobs 1`` and with ``--jobs N`` (wall seconds, medians): what a person at the
command line waits, the interpreter's start, the imports and the worker processes' start
included (the rows above reuse this process and its fork server from round to round).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing import forkserver
from pathlib import Path
from time import perf_counter
from typing import Any

from pysolver import solve
from pysolver.api import answer_task
from pysolver.engines import memo_levels, memo_tasks
from pysolver.engines.monitor import Monitor
from pysolver.kinds.polyomino.encoding import encode
from pysolver.kinds.polyomino.parsing import parse_puzzle
from pysolver.midend.registry import kind
from pysolver.parallel.dask_cluster import DaskRunner
from pysolver.protocol import parse_query

REPO = Path(__file__).resolve().parents[1]


def pentominoes(board: list[str], symmetry: str = "all", extra: tuple = ()) -> dict[str, Any]:
    puzzle = {"board": board, "pieces": ["pentominoes", *extra]}
    return {"kind": "polyomino", "mode": "count", "symmetry": symmetry, "puzzle": puzzle}


def exact_cover(tiling: dict[str, Any]) -> dict[str, Any]:
    """A tiling's exact cover matrix as an ``exact_cover`` request (items named by number): the
    same count without the board's geometry, so without its symmetry."""
    problem = encode(parse_puzzle(tiling)).problem
    names = [f"i{item}" for item in range(problem.items)]
    puzzle = {
        "items": names[: problem.primary],
        "secondary": names[problem.primary :],
        "options": [[names[item] for item in option] for option in problem.options],
    }
    return {"kind": "exact_cover", "mode": "count", "puzzle": puzzle}


# A grid of 23 givens with 147,554 completions: a count that takes seconds, not a batch of
# easy puzzles (one puzzle's search is what a request splits).
SPARSE_SUDOKU = "...67..1.....9......8......8.97...234.6.53.91....2..569.........8...9....4......."

# name, request, expected count, in the default run
CASES: list[tuple[str, dict[str, Any], int, bool]] = [
    ("6x10 all", pentominoes(["." * 10] * 6), 9356, True),
    ("8x8+O4 all", pentominoes(["." * 8] * 8, "all", ("O4",)), 129168, True),
    ("6x10 exact_cover", exact_cover(pentominoes(["." * 10] * 6)["puzzle"]), 9356, True),
    (
        "sudoku 23 givens",
        {"kind": "sudoku", "mode": "count", "puzzle": {"grid": SPARSE_SUDOKU}},
        147554,
        True,
    ),
    ("6x10 distinct", pentominoes(["." * 10] * 6, "distinct"), 2339, False),
    ("8x8+O4 distinct", pentominoes(["." * 8] * 8, "distinct", ("O4",)), 16146, False),
]


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children, and of the fork server that
    forks the worker processes with the workers it has reaped (they are its children)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime + server_cpu()


def server_cpu() -> float:
    """CPU seconds of the fork server and its reaped children, from /proc (0 without one)."""
    server = getattr(forkserver._forkserver, "_forkserver_pid", None)
    if server is None:
        return 0.0
    try:
        fields = Path(f"/proc/{server}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    # utime, stime, cutime, cstime: fields 14-17 of the line (11-14 after the command).
    return sum(int(field) for field in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def own_cpu() -> float:
    """CPU time of this process alone (its threads: the request's own share of the work)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def timed(run: Callable[[], dict[str, Any]]) -> tuple[dict[str, Any], float, float, float]:
    """(response, wall seconds, CPU seconds of all processes, CPU seconds of this one)."""
    started = perf_counter()
    cpu_started = cpu_seconds()
    own_started = own_cpu()
    response = run()
    return (
        response,
        perf_counter() - started,
        cpu_seconds() - cpu_started,
        own_cpu() - own_started,
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def dask_cluster(workers: int) -> Iterator[str]:
    """A scheduler and ``workers`` one-thread workers on 127.0.0.1 (``python -m dask``, the
    ``dask`` command), registered before it yields the scheduler's address; ended after."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    logs = tempfile.TemporaryDirectory(prefix="pysolver-bench-dask-")
    processes: list[subprocess.Popen[bytes]] = []

    def start(name: str, args: list[str]) -> None:
        with open(Path(logs.name) / f"{name}.log", "wb") as log:
            command = [sys.executable, "-m", "dask", *args, "--no-dashboard"]
            processes.append(subprocess.Popen(command, env=env, cwd=REPO, stdout=log, stderr=log))

    try:
        start("scheduler", ["scheduler", "--host", "127.0.0.1", "--port", str(port)])
        for number in range(workers):
            start(f"worker{number}", ["worker", address, "--nthreads", "1", "--host", "127.0.0.1"])
        from distributed import Client

        with Client(address, timeout="60s") as client:
            client.wait_for_workers(workers, timeout=120)
        yield address
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        logs.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", nargs="*", help="run the cases whose names start so")
    parser.add_argument("--full", action="store_true", help="every case, the slow ones too")
    parser.add_argument("--dask", action="store_true", help="also time a local Dask cluster")
    parser.add_argument("--scheduler", help="time this running Dask cluster (tcp://HOST:PORT)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; medians (default 3)")
    parser.add_argument("--cli", action="store_true", help="also time the CLI, cold")
    args = parser.parse_args()
    if args.dask and not args.scheduler:
        with dask_cluster(args.jobs) as address:
            run_cases(args, address)
    else:
        run_cases(args, args.scheduler)


def run_cases(args: argparse.Namespace, address: str | None) -> None:
    print(f"{os.cpu_count()} CPUs; jobs {args.jobs}; medians of {args.rounds} rounds")
    header = (
        f"{'case':18} {'count':>8} {'serial s':>9} {'jobs s':>8} {'x':>5} "
        f"{'dask s':>8} {'x':>5} {'tasks':>5} {'largest':>7} {'nodes x':>7} {'cpu 1':>7} "
        f"{'cpu N':>7} {'cpu 0':>7} {'load':>5}"
    )
    print(header)
    print("-" * len(header))
    runner = DaskRunner(address, answer_task) if address else None
    try:
        for name, request, expected, default in CASES:
            if args.cases and not any(name.startswith(prefix) for prefix in args.cases):
                continue
            if not args.cases and not default and not args.full:
                continue
            run_case(args, name, request, expected, runner)
    finally:
        if runner is not None:
            runner.close()
    print("'!' after a count: it differs from the serial or the known count; nodes x: the")
    print("parallel count's summed nodes over the serial count's (the Dask run's in brackets);")
    print("a count by levels (pure Python, a board) is also made on one lane here: its line")
    print("compares the parallel run with it (the serial column is the memo walk's).")


def run_case(
    args: argparse.Namespace,
    name: str,
    request: dict[str, Any],
    expected: int,
    runner: DaskRunner | None,
) -> None:
    jobs_request = dict(request, jobs=args.jobs)
    serial_s: list[float] = []
    split_s: list[float] = []
    dask_s: list[float] = []
    serial_cpu: list[float] = []
    split_cpu: list[float] = []
    split_own: list[float] = []
    ok = True
    for _ in range(args.rounds):
        serial, seconds, cpu, _ = timed(lambda: solve(request))
        serial_s.append(seconds)
        serial_cpu.append(cpu)
        split, seconds, cpu, own = timed(lambda: solve(jobs_request))
        split_own.append(own)
        split_s.append(seconds)
        split_cpu.append(cpu)
        ok = ok and split["count"] == serial["count"] and expected in (-1, serial["count"])
        if runner is not None:
            runner.client.run(memo_tasks.forget)  # every round from a cold memo
            on_dask, seconds, _, _ = timed(lambda: solve(jobs_request, runner=runner))
            dask_s.append(seconds)
            ok = ok and on_dask["count"] == serial["count"]
    median_serial = statistics.median(serial_s)
    median_split = statistics.median(split_s)
    info = split["parallel"]
    nodes = split["stats"]["nodes"] / serial["stats"]["nodes"]
    dask_text = f"{'-':>8} {'-':>5}"
    if dask_s:
        median_dask = statistics.median(dask_s)
        dask_text = f"{median_dask:8.2f} {median_serial / median_dask:5.2f}"
        nodes_text = f"{nodes:4.2f}({on_dask['stats']['nodes'] / serial['stats']['nodes']:.2f})"
    else:
        nodes_text = f"{nodes:7.2f}"
    print(
        f"{name:18} {serial['count']:>8}{'' if ok else '!'} {median_serial:9.2f} "
        f"{median_split:8.2f} {median_serial / median_split:5.2f} {dask_text} "
        f"{info['tasks']:>5} {info.get('largest_task_share', 1.0):7.1%} {nodes_text:>7} "
        f"{statistics.median(serial_cpu):7.2f} {statistics.median(split_cpu):7.2f} "
        f"{statistics.median(split_own):7.2f} {os.getloadavg()[0]:5.1f}",
        flush=True,
    )
    print(
        f"{'':18} rounds: serial {' '.join(f'{s:.2f}' for s in serial_s)}; jobs "
        f"{' '.join(f'{s:.2f}' for s in split_s)}"
        + (f"; dask {' '.join(f'{s:.2f}' for s in dask_s)}" if dask_s else ""),
        flush=True,
    )
    if "levels" in info:
        print(one_lane(request, split, median_split), flush=True)
    if args.cli:
        print(cli_line(request, args.jobs, args.rounds), flush=True)


def cli_line(request: dict[str, Any], jobs: int, rounds: int) -> str:
    """The CLI's wall seconds on the request, ``--jobs 1`` against ``--jobs N``, a process a
    run (see the module doc)."""
    seconds: list[list[float]] = [[], []]  # --jobs 1, --jobs N
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "request.json"
        path.write_text(json.dumps(request))
        for _ in range(rounds):
            for times, run_jobs in zip(seconds, (1, jobs), strict=True):
                command = [sys.executable, "-m", "pysolver", "solve", "--jobs", str(run_jobs)]
                started = perf_counter()
                subprocess.run([*command, str(path)], cwd=REPO, capture_output=True, check=True)
                times.append(perf_counter() - started)
    one, many = (statistics.median(times) for times in seconds)
    return (
        f"{'':18} CLI, a process a run: --jobs 1 {one:.2f} s, --jobs {jobs} {many:.2f} s, "
        f"{one / many:.2f}x"
    )


def one_lane(request: dict[str, Any], split: dict[str, Any], median_split: float) -> str:
    """A count made by levels on lanes (``memo_levels``), against the same count on one lane
    in this process: its nodes (the lanes' add up to them: no sub-board twice) and time. The
    serial column is the memo walk's (a request without jobs), a walk of another tree."""
    problem = kind(request["kind"]).prepare(request["puzzle"], parse_query(request))
    exact_cover = problem.plan.exact_cover
    assert exact_cover is not None
    [matrix] = exact_cover()
    started = perf_counter()
    counted = memo_levels.count(matrix, Monitor())
    seconds = perf_counter() - started
    return (
        f"{'':18} levels on one lane: {counted.stats['nodes']:,} nodes, {seconds:.2f} s; "
        f"the jobs run's nodes {split['stats']['nodes'] / counted.stats['nodes']:.2f}x, "
        f"its speed-up over one lane {seconds / median_split:.2f}x"
    )


if __name__ == "__main__":
    main()
