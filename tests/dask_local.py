"""A local Dask cluster for the tests that run pysolver on one (tests/test_parallel.py,
tests/test_faults.py): a scheduler and single-threaded workers in processes of their own,
on 127.0.0.1 only, every one of them ended when the block ends.

    with local_cluster(workers=2) as cluster:
        run pysolver with ["--scheduler", cluster.address] and env=cluster.env

Needs the dask extra (``pysolver-studio[dask]``): call ``pytest.importorskip("distributed")`` first.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# How long a scheduler or a worker may take to say it is ready (seconds).
READY_SECONDS = 60


@dataclass
class LocalCluster:
    """A running cluster: its address, its processes, and the environment for pysolver."""

    address: str
    scheduler: subprocess.Popen
    env: dict[str, str]
    workers: list[subprocess.Popen] = field(default_factory=list)


def start_dask(args: list[str], env: dict[str, str]) -> subprocess.Popen:
    """``python -m dask ARGS`` (a scheduler or a worker), its log lines on standard error."""
    return subprocess.Popen(
        [sys.executable, "-m", "dask", *args],
        env=env,
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for_line(process: subprocess.Popen, pattern: str, seconds: float) -> re.Match:
    """The first line of the process's standard error matching ``pattern``; the lines seen so
    far in the assertion when none comes within ``seconds``."""
    deadline = time.monotonic() + seconds
    seen = []
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        if not line:
            break
        seen.append(line)
        match = re.search(pattern, line)
        if match:
            return match
    raise AssertionError(f"no {pattern!r} from {process.args}: {''.join(seen)[-2000:]}")


def end(processes: list[subprocess.Popen]) -> None:
    """Terminate every process still running, and kill those that do not end in 20 s."""
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def local_cluster(workers: int = 2) -> Iterator[LocalCluster]:
    """A scheduler and ``workers`` single-threaded workers, registered and ready."""
    # PYTHONPATH: pysolver importable in every process of the cluster.
    env = {**os.environ, "PYTHONPATH": str(REPO), "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
    scheduler = start_dask(
        ["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard"], env
    )
    cluster = LocalCluster("", scheduler, env)
    try:
        pattern = r"Scheduler at:\s*(tcp://[\d.:]+)"
        cluster.address = wait_for_line(scheduler, pattern, READY_SECONDS).group(1)
        worker_args = ["--nthreads", "1", "--no-dashboard", "--host", "127.0.0.1"]
        for _ in range(workers):
            cluster.workers.append(start_dask(["worker", cluster.address, *worker_args], env))
        for worker in cluster.workers:
            wait_for_line(worker, r"Registered to", READY_SECONDS)
        yield cluster
    finally:
        end([*cluster.workers, scheduler])


def count_by_levels_on_dask(monkeypatch: pytest.MonkeyPatch) -> None:
    """Set a test up for a memo count by levels on a local cluster: skipped without the dask
    extra, the pure walk (the compiled one keeps the memo walk's tasks), and every level on
    the cluster's lanes (none too small to send)."""
    pytest.importorskip(
        "distributed", reason="the dask extra is not installed (pysolver-studio[dask])"
    )
    from pysolver.parallel import dask_cluster

    monkeypatch.setenv("PYSOLVER_PURE", "1")
    monkeypatch.setattr(dask_cluster, "HERE_BELOW", 0)
