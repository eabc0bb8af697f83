"""Parallel search benchmark: serial against ``"jobs": 2`` (worker processes) and Dask.

    python -m bench.bench_parallel                  # 6x10 all and a Sudoku count
    python -m bench.bench_parallel --cases 6x10     # names start with the given prefixes
    python -m bench.bench_parallel --full           # also the 16,146 distinct 8x8 + square
    python -m bench.bench_parallel --dask           # also a local Dask cluster of 2 workers

Prints one row per case: the count (checked against the serial one), seconds serial, with
``jobs`` worker processes, on Dask (a ``distributed.LocalCluster`` of single-threaded worker
processes, started before timing), the speed-ups, the number of tasks and the largest task's
share of the search nodes (the split's balance: the speed-up cannot pass 1 / that share), the
CPU seconds of the serial run and of the parallel one (all its processes: the parallel
overhead, whatever the load), and the load average of the machine when it ended. Timings are
wall-clock: on a shared machine, read them together with the load.
"""

from __future__ import annotations

import argparse
import os
import resource
from time import perf_counter
from typing import Any

from pysolver import solve
from pysolver.api import answer_task
from pysolver.parallel.dask_cluster import DaskRunner


def pentominoes(board: list[str], symmetry: str = "all", extra: tuple = ()) -> dict[str, Any]:
    puzzle = {"board": board, "pieces": ["pentominoes", *extra]}
    return {"kind": "polyomino", "mode": "count", "symmetry": symmetry, "puzzle": puzzle}


# A grid of 23 givens with 147,554 completions: a count that takes seconds, not a batch of
# easy puzzles (one puzzle's search is what a request splits).
SPARSE_SUDOKU = "...67..1.....9......8......8.97...234.6.53.91....2..569.........8...9....4......."

# name, request, expected count, in the default run
CASES: list[tuple[str, dict[str, Any], int, bool]] = [
    ("6x10 all", pentominoes(["." * 10] * 6), 9356, True),
    ("6x10 distinct", pentominoes(["." * 10] * 6, "distinct"), 2339, False),
    (
        "sudoku 23 givens",
        {"kind": "sudoku", "mode": "count", "puzzle": {"grid": SPARSE_SUDOKU}},
        147554,
        True,
    ),
    ("8x8+O4 distinct", pentominoes(["." * 8] * 8, "distinct", ("O4",)), 16146, False),
]


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the worker processes)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(run) -> tuple[dict[str, Any], float, float, float]:
    """(response, wall seconds, CPU seconds, load average over the last minute at the end)."""
    started = perf_counter()
    cpu_started = cpu_seconds()
    response = run()
    return response, perf_counter() - started, cpu_seconds() - cpu_started, os.getloadavg()[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", nargs="*", help="run the cases whose names start so")
    parser.add_argument("--full", action="store_true", help="every case, the slow ones too")
    parser.add_argument("--dask", action="store_true", help="also time a local Dask cluster")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    args = parser.parse_args()

    cluster = client_address = None
    if args.dask:
        from distributed import LocalCluster

        cluster = LocalCluster(
            n_workers=args.jobs, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client_address = cluster.scheduler_address

    print(f"{os.cpu_count()} CPUs; jobs {args.jobs}")
    header = (
        f"{'case':18} {'count':>8} {'serial s':>9} {'jobs s':>8} {'x':>5} "
        f"{'dask s':>8} {'x':>5} {'tasks':>5} {'largest':>7} {'cpu 1':>7} {'cpu N':>7} "
        f"{'load':>5}"
    )
    print(header)
    print("-" * len(header))
    try:
        for name, request, expected, default in CASES:
            if args.cases and not any(name.startswith(prefix) for prefix in args.cases):
                continue
            if not args.cases and not default and not args.full:
                continue
            serial, serial_seconds, serial_cpu, _ = timed(lambda request=request: solve(request))
            jobs_request = dict(request, jobs=args.jobs)
            split, split_seconds, split_cpu, load = timed(lambda r=jobs_request: solve(r))
            ok = split["count"] == serial["count"] and expected in (-1, serial["count"])
            dask_text = f"{'-':>8} {'-':>5}"
            if client_address is not None:
                runner = DaskRunner(client_address, answer_task)
                try:
                    on_dask, dask_seconds, _, load = timed(
                        lambda r=jobs_request, runner=runner: solve(r, runner=runner)
                    )
                finally:
                    runner.close()
                ok = ok and on_dask["count"] == serial["count"]
                dask_text = f"{dask_seconds:8.2f} {serial_seconds / dask_seconds:5.2f}"
            info = split["parallel"]
            print(
                f"{name:18} {serial['count']:>8}{'' if ok else '!'} {serial_seconds:9.2f} "
                f"{split_seconds:8.2f} {serial_seconds / split_seconds:5.2f} {dask_text} "
                f"{info['tasks']:>5} {info['largest_task_share']:7.1%} {serial_cpu:7.2f} "
                f"{split_cpu:7.2f} {load:5.1f}",
                flush=True,
            )
    finally:
        if cluster is not None:
            cluster.close()
    print("'!' after a count: it differs from the serial or the known count.")


if __name__ == "__main__":
    main()
