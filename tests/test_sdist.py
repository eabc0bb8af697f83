"""The source distribution builds, holds the whole package and installs into a fresh venv.

From a copy of what a release is made of (pyproject.toml, README.md, pysolver/), setuptools'
PEP 517 backend (the one pyproject.toml names, already in the test venv) writes the sdist. A
wheel is made from the unpacked sdist alone, so a file missing from the sdist breaks it: by the
project's own wheel writer (``buildtools.wheel``, the one the site's wheel comes from), since
the venv's setuptools (65) has no ``bdist_wheel`` without the ``wheel`` package. pip installs
it into a new venv, offline (``--no-index``: pysolver has no dependencies), and the installed
package solves a Sudoku, by import and as ``python -m pysolver``, from outside the repository.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from buildtools import wheel as wheel_writer
from buildtools.repo import PACKAGE, ROOT
from buildtools.wheel import package_files, package_version
from tests.test_web_sudoku_paste import CLASSIC, solo_id

pytestmark = pytest.mark.slow

BUILD = "import sys; from setuptools import build_meta; print(build_meta.{hook}(sys.argv[1]))"


def backend(hook: str, source: Path, out: Path) -> Path:
    """Run a PEP 517 hook of setuptools in ``source`` (a process of its own: the backend
    works in the current directory and leaves its egg-info there); the file it wrote into
    ``out``."""
    result = subprocess.run(
        [sys.executable, "-c", BUILD.format(hook=hook), str(out)],
        cwd=source,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return out / result.stdout.strip().splitlines()[-1]


def test_the_sdist_installs_into_a_fresh_venv_and_solves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "source"
    for path in [ROOT / "pyproject.toml", ROOT / "README.md", *package_files()]:
        target = source / path.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
    sdist = backend("build_sdist", source, tmp_path / "sdist")
    # The distribution's name (setuptools 69 and later write it normalised, with "_").
    expected = {
        f"{name}-{package_version()}.tar.gz" for name in ("pysolver-studio", "pysolver_studio")
    }
    assert sdist.name in expected, sdist.name
    top = sdist.name.removesuffix(".tar.gz")
    with tarfile.open(sdist) as archive:
        names = set(archive.getnames())
        archive.extractall(tmp_path / "unpacked", filter="data")
    wanted = {f"{top}/{path.relative_to(ROOT).as_posix()}" for path in package_files()}
    assert wanted <= names, sorted(wanted - names)
    assert f"{top}/{PACKAGE.name}/py.typed" in names
    unpacked = tmp_path / "unpacked" / top
    monkeypatch.setattr(wheel_writer, "ROOT", unpacked)
    monkeypatch.setattr(wheel_writer, "PACKAGE", unpacked / PACKAGE.name)
    monkeypatch.setattr(wheel_writer, "CACHE", tmp_path / "cache")
    wheel = wheel_writer.build_pysolver_wheel()
    assert wheel.name.startswith(f"pysolver_studio-{package_version()}+")

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    bin_dir = venv / ("Scripts" if sys.platform == "win32" else "bin")
    subprocess.run(
        [bin_dir / "python", "-m", "pip", "install", "--no-index", "--no-deps", "-q", wheel],
        check=True,
        timeout=300,
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    request = {"kind": "sudoku", "puzzle": {"grid": CLASSIC}}
    code = (
        "import json, sys, pysolver; "
        "print(json.dumps([pysolver.__file__, pysolver.solve(json.loads(sys.argv[1]))]))"
    )
    found = subprocess.run(
        [bin_dir / "python", "-c", code, json.dumps(request)],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    location, response = json.loads(found.stdout)
    # Installed under the distribution's name, imported as pysolver.
    shown = subprocess.run(
        [bin_dir / "python", "-m", "pip", "show", "pysolver-studio"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert "Name: pysolver-studio" in shown.stdout
    assert Path(location).is_relative_to(venv), location
    assert response["ok"] and response["solutions"][0][0] == [5, 3, 4, 6, 7, 8, 9, 1, 2]
    command = subprocess.run(
        [bin_dir / "python", "-m", "pysolver", "solve", "--format", "text", "-"],
        input=solo_id(CLASSIC),
        cwd=elsewhere,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert command.stdout.startswith("sudoku solve: 1 solution"), command.stdout
    assert "5 3 4" in command.stdout.replace("|", " ").replace("  ", " ")
