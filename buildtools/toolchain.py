"""What ``build.py test`` needs besides the standard library, installed on first use: .venv with
the pinned test tools, Debian's Chromium for the browser tests, and the pinned eslint (npm ci)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from buildtools.repo import ROOT, VENV, BuildError, log, sha256_of

TEST_REQUIREMENTS = (
    "pytest==9.2.0",
    # The tests run on every core (buildtools.runners): pytest -n.
    "pytest-xdist==3.8.0",
    "playwright==1.65.2",
    "pytest-playwright==0.10.0",
    "ruff==0.17.5",
    "mypy==2.4.1",
    # Property-based fuzzing of the protocol (tests/test_fuzz_protocol.py).
    "hypothesis==6.170.15",
    # The optional "dask" extra of pyproject.toml (the same pin): the cluster tests use it.
    "dask[distributed]==2026.8.0",
    # The optional "fast" extra (the same pin): the compiled walk's differential tests.
    "numba==0.68.1",
    # An outside solver for the Star Battle cross-checks (tests/test_star_battle.py), tests only.
    "clingo==5.8.3",
)
CHROMIUM = os.environ.get("PYSOLVER_CHROMIUM", "/usr/bin/chromium")


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_venv() -> Path:
    """.venv with the pinned test tools; reused while its recorded requirements still match."""
    python = venv_python()
    stamp = VENV / "pysolver-requirements.txt"
    wanted = "\n".join(TEST_REQUIREMENTS) + "\n"
    if python.exists() and stamp.exists() and stamp.read_text(encoding="utf-8") == wanted:
        return python
    if not python.exists():
        log("creating .venv")
        result = subprocess.run([sys.executable, "-m", "venv", str(VENV)])
        if result.returncode != 0 or not python.exists():
            raise BuildError(
                "could not create .venv; on Debian or Ubuntu install python3-venv "
                "(apt-get install python3-venv) and run again"
            )
    log("installing " + " ".join(TEST_REQUIREMENTS) + " into .venv")
    result = subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            *TEST_REQUIREMENTS,
        ]
    )
    if result.returncode != 0:
        raise BuildError("pip could not install the test tools into .venv (see above)")
    stamp.write_text(wanted, encoding="utf-8")
    return python


def ensure_chromium() -> str:
    """Debian's Chromium for the browser tests, installed with apt-get when it is missing."""
    if Path(CHROMIUM).exists():
        return CHROMIUM
    apt_get = shutil.which("apt-get")
    is_root = hasattr(os, "geteuid") and os.geteuid() == 0
    if apt_get is None or not is_root:
        raise BuildError(
            f"the browser tests need Chromium at {CHROMIUM}, which is missing. Install it "
            "(Debian/Ubuntu: sudo apt-get install chromium) or point PYSOLVER_CHROMIUM at a "
            "Chromium or Chrome binary, then run again"
        )
    log("installing Debian's chromium with apt-get (once)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in ([apt_get, "update"], [apt_get, "install", "-y", "chromium"]):
        result = subprocess.run(command, env=env, stdin=subprocess.DEVNULL)
        if result.returncode != 0:
            raise BuildError(f"{' '.join(command)} failed (exit {result.returncode})")
    if not Path(CHROMIUM).exists():
        raise BuildError(f"apt-get installed chromium but {CHROMIUM} is still missing")
    return CHROMIUM


def installed_js_lint() -> list[str] | None:
    """The command that lints web/ if the pinned eslint is installed and current, else None
    (``build.py test --quick`` lints only then: it installs nothing)."""
    node = shutil.which("node")
    eslint = ROOT / "node_modules" / "eslint" / "bin" / "eslint.js"
    stamp = ROOT / "node_modules" / ".pysolver-lock-sha256"
    if node is None or not (eslint.exists() and stamp.exists()):
        return None
    if stamp.read_text(encoding="utf-8") != sha256_of(ROOT / "package-lock.json"):
        return None
    return js_lint_command(node, eslint)


def js_lint_command(node: str, eslint: Path) -> list[str]:
    """The command that lints web/ with this eslint."""
    return [node, str(eslint), "--max-warnings", "0", "web"]


def ensure_js_lint() -> list[str]:
    """The pinned JavaScript linter (package.json + package-lock.json), installed with npm ci.

    Returns the command that lints web/. Reinstalled only when the lock file changed.
    """
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        raise BuildError(
            "Node.js and npm are needed to lint web/ (the pinned eslint in package.json); "
            "install them (Debian/Ubuntu: sudo apt-get install nodejs npm) and run again"
        )
    lock = ROOT / "package-lock.json"
    stamp = ROOT / "node_modules" / ".pysolver-lock-sha256"
    eslint = ROOT / "node_modules" / "eslint" / "bin" / "eslint.js"
    wanted = sha256_of(lock)
    if not (eslint.exists() and stamp.exists() and stamp.read_text(encoding="utf-8") == wanted):
        log("installing the pinned JavaScript linter with npm ci")
        result = subprocess.run(
            [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=ROOT
        )
        if result.returncode != 0 or not eslint.exists():
            raise BuildError("npm ci could not install the JavaScript linter (see above)")
        stamp.write_text(wanted, encoding="utf-8")
    return js_lint_command(node, eslint)
