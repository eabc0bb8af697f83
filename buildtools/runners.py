"""The two commands that run other programs: ``build.py test`` (ruff, mypy, eslint, then pytest)
and ``build.py bench`` (bench/harness.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from buildtools.repo import ROOT
from buildtools.site import build_site
from buildtools.toolchain import ensure_chromium, ensure_js_lint, ensure_venv


def run_tests(pytest_args: list[str]) -> int:
    python = ensure_venv()
    chromium = ensure_chromium()
    eslint = ensure_js_lint()
    build_site()
    env = {
        **os.environ,
        "PYSOLVER_CHROMIUM": chromium,
        "PYSOLVER_REQUIRE_E2E": "1",
        "PYSOLVER_REQUIRE_NODE": "1",
    }
    failures = []
    for name, command in (
        ("ruff check", [str(python), "-m", "ruff", "check", "."]),
        ("ruff format --check", [str(python), "-m", "ruff", "format", "--check", "."]),
        # Files and strictness come from [tool.mypy] in pyproject.toml.
        ("mypy", [str(python), "-m", "mypy"]),
        ("eslint web", eslint),
    ):
        print(f"$ {name}", flush=True)
        if subprocess.run(command, cwd=ROOT, env=env).returncode != 0:
            failures.append(name)
    if failures:
        print(f"build.py: {' and '.join(failures)} failed (see above)", flush=True)
    # pytest runs last so its summary line closes the output.
    status = subprocess.run([str(python), "-m", "pytest", *pytest_args], cwd=ROOT, env=env)
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
