"""The two commands that run other programs: ``build.py test`` (ruff, mypy, eslint, then pytest)
and ``build.py bench`` (bench/harness.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from buildtools.repo import ROOT
from buildtools.site import build_site
from buildtools.toolchain import ensure_chromium, ensure_js_lint, ensure_venv, installed_js_lint

# What ``build.py test --quick`` leaves to the whole run: the browser tests and the slow ones.
QUICK_MARKERS = "not e2e and not slow"


def core_count() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def worker_args(pytest_args: list[str]) -> list[str]:
    """pytest-xdist's options: one worker per core, each taking the next test when it is free.

    ``worksteal`` hands each worker a contiguous share and lets one that runs out take the
    other's queued tests: a module's tests stay mostly on one worker, so a module fixture (a
    browser page with Python loaded) loads once or twice, and a long test at the end does not
    leave a core idle. Nothing is added when the arguments choose the workers (``-n 0`` runs
    in this process, as ``--pdb`` needs; ``-p no:xdist``) or when there is one core; the
    arguments' own ``--dist`` wins over ours."""
    if any(arg.startswith(("-n", "--numprocesses")) or "no:xdist" in arg for arg in pytest_args):
        return []
    cores = core_count()
    if cores < 2:
        return []
    chosen_dist = any(arg.startswith("--dist") for arg in pytest_args)
    return ["-n", str(cores), *([] if chosen_dist else ["--dist", "worksteal"])]


def run_tests(pytest_args: list[str], quick: bool = False) -> int:
    """ruff, ruff format --check, mypy, eslint, then pytest on every core.

    The whole run (``quick`` False) first installs what it needs (.venv, Chromium, eslint) and
    runs every test. ``quick`` installs only .venv, lints web/ only if eslint is installed
    already, and leaves out the browser tests and the slow ones (``QUICK_MARKERS``) and runs
    fewer fuzz examples (``PYSOLVER_FUZZ=quick``, tests/test_fuzz_protocol.py)."""
    python = ensure_venv()
    env = dict(os.environ)
    # .venv has numba (TEST_REQUIREMENTS): the compiled walk's tests must run, not skip.
    env["PYSOLVER_REQUIRE_NUMBA"] = "1"
    eslint: list[str] | None
    if quick:
        eslint = installed_js_lint()
        env.setdefault("PYSOLVER_FUZZ", "quick")
        pytest_args = ["-m", QUICK_MARKERS, *pytest_args]  # a later -m of the caller wins
    else:
        env["PYSOLVER_CHROMIUM"] = ensure_chromium()
        env["PYSOLVER_REQUIRE_E2E"] = "1"
        env["PYSOLVER_REQUIRE_NODE"] = "1"
        eslint = ensure_js_lint()
    build_site()
    failures = []
    checks: list[tuple[str, list[str] | None]] = [
        ("ruff check", [str(python), "-m", "ruff", "check", "."]),
        ("ruff format --check", [str(python), "-m", "ruff", "format", "--check", "."]),
        # Files and strictness come from [tool.mypy] in pyproject.toml.
        ("mypy", [str(python), "-m", "mypy"]),
        ("eslint web", eslint),
    ]
    for name, command in checks:
        if command is None:
            print(f"$ {name}: skipped (not installed; build.py test installs it)", flush=True)
            continue
        print(f"$ {name}", flush=True)
        if subprocess.run(command, cwd=ROOT, env=env).returncode != 0:
            failures.append(name)
    if failures:
        print(f"build.py: {' and '.join(failures)} failed (see above)", flush=True)
    # pytest runs last so its summary line closes the output.
    command = [str(python), "-m", "pytest", *worker_args(pytest_args), *pytest_args]
    status = subprocess.run(command, cwd=ROOT, env=env)
    if status.returncode != 0:
        return status.returncode
    return 1 if failures else 0


# ---------------------------------------------------------------- benchmarks


def run_bench(bench_args: list[str]) -> int:
    """The benchmark suite (bench/harness.py), with this Python; the browser rows (--browser)
    run in .venv, which has Playwright, against Chromium."""
    python, env = Path(sys.executable), dict(os.environ)
    if "--browser" in bench_args:
        python = ensure_venv()
        env["PYSOLVER_CHROMIUM"] = ensure_chromium()
    command = [str(python), "-m", "bench.harness", *bench_args]
    return subprocess.run(command, cwd=ROOT, env=env).returncode
