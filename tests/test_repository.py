"""The repository is self-contained: its unit tests pass from a copy at another path.

The copy holds the git-tracked files only (every file but caches and build output outside a git
checkout), sits in a temporary directory with nothing beside it, and imports pysolver and the
bench helpers from itself. While its tests run, an audit hook records every file they open
outside the copy, the Python installation, the temporary directory and the operating system's
own folders: a test that reads data through an absolute path or from ``../shared`` fails here
even on a machine where that path exists.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Outside a git checkout these are left out of the copy (they are build output or caches).
NOT_SOURCES = {".git", ".venv", ".cache", "dist", "__pycache__", ".pytest_cache", ".ruff_cache"}
AUDIT_MARK = "AUDIT "

# Runs pytest in the copy (the current directory) with an audit hook on file opens. argv: the
# original repository, then pytest's arguments. Prints AUDIT <json> last.
AUDITED_PYTEST = """
import json, os, sys, tempfile
original = os.path.realpath(sys.argv[1])
copy = os.path.realpath(os.getcwd())
allowed = {copy, os.path.realpath(tempfile.gettempdir())}
for folder in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, *sys.path):
    if folder and os.path.isdir(folder):
        allowed |= {os.path.abspath(folder), os.path.realpath(folder)}
allowed |= {"/dev", "/proc", "/sys", "/etc", "/usr", "/lib", "/lib64", "/bin"}
allowed.discard(original)
# The interpreter's own folders (a venv may live inside the original checkout, as .venv does).
python_home = {
    os.path.realpath(folder)
    for folder in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)
    if folder and os.path.realpath(folder) != original
}
outside = set()

def inside(path, folder):
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)

def record_open(event, args):
    if event != "open" or not isinstance(args[0], (str, bytes, os.PathLike)):
        return
    path = os.path.abspath(os.fsdecode(args[0]))
    real = os.path.realpath(path)
    if any(inside(real, folder) for folder in python_home):
        return
    if inside(real, original) and not inside(real, copy):
        outside.add(path)
    elif not any(inside(path, f) or inside(real, f) for f in allowed):
        outside.add(path)

sys.addaudithook(record_open)
import pytest
status = pytest.main(sys.argv[2:])
import bench, pysolver
report = {"status": int(status), "outside": sorted(outside),
          "modules": [pysolver.__file__, bench.__file__]}
print("AUDIT " + json.dumps(report))
"""


def repository_files() -> list[Path]:
    """The files a clone has: git's list in a checkout, else every file but caches."""
    if (ROOT / ".git").exists():
        listing = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
        return [ROOT / name for name in listing.split("\0") if name]
    return [
        path
        for path in ROOT.rglob("*")
        if path.is_file() and not NOT_SOURCES & set(path.relative_to(ROOT).parts)
    ]


@pytest.mark.slow
def test_unit_suite_passes_in_a_copy_at_another_path(tmp_path: Path) -> None:
    copy = tmp_path / "clone"
    for source in repository_files():
        if source.is_file():  # a tracked file deleted in the working tree is not copied
            target = copy / source.relative_to(ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    assert not (copy.parent / "shared").exists()
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    # The fuzz's few fixed examples: this run is about paths, the suite's own run fuzzes.
    env["PYSOLVER_FUZZ"] = "quick"
    # The unit tests (this one is slow, so it does not run itself again).
    pytest_args = ["-m", "not e2e and not slow", "-q", "-p", "no:cacheprovider"]
    result = subprocess.run(
        [sys.executable, "-c", AUDITED_PYTEST, str(ROOT), *pytest_args],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    output = result.stdout + result.stderr
    audit_lines = [line for line in result.stdout.splitlines() if line.startswith(AUDIT_MARK)]
    assert audit_lines, f"the copy's test run did not finish:\n{output[-4000:]}"
    report = json.loads(audit_lines[-1][len(AUDIT_MARK) :])
    assert report["status"] == 0, f"unit tests failed in the copy at {copy}:\n{output[-4000:]}"
    assert " passed" in result.stdout
    for module in report["modules"]:
        assert Path(module).resolve().is_relative_to(copy.resolve()), module
    assert report["outside"] == [], f"tests read files outside the repository: {report['outside']}"


def test_test_modules_have_unique_names() -> None:
    # pytest imports test modules by their base name (no __init__.py in tests/): two files named
    # alike in tests/ and tests/e2e/ stop the whole run at collection.
    names: dict[str, list[str]] = {}
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        names.setdefault(path.name, []).append(path.relative_to(ROOT).as_posix())
    assert {name: paths for name, paths in names.items() if len(paths) > 1} == {}
