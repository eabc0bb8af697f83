"""The distribution's name is pysolver-studio (``pysolver`` on PyPI is an unrelated 2015
project): pyproject.toml, and everything that tells a person what to install (README, docs/,
the command's help, error messages) says so; the import name stays ``pysolver``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NAME = "pysolver-studio"
# "pip install pysolver", "pip install 'pysolver[dask]'", "pysolver[dask]": the other project.
OTHER_PROJECT = re.compile(r"""pip install ["']?pysolver(?![-\w])|\bpysolver\[""")


def told_to_install() -> dict[Path, str]:
    """Every text a person reads about installing: README, docs/, the package's sources (help
    and messages) and the tests' skip reasons."""
    paths = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    paths += sorted((REPO / "pysolver").rglob("*.py")) + sorted((REPO / "tests").glob("*.py"))
    return {path: path.read_text(encoding="utf-8") for path in paths}


def test_pyproject_names_the_distribution_pysolver_studio() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == NAME
    assert project["scripts"]["pysolver"] == "pysolver.__main__:main"


def test_nothing_tells_a_person_to_install_the_other_project() -> None:
    wrong = [
        f"{path.relative_to(REPO)}: {match[0]}"
        for path, text in told_to_install().items()
        if path.name != Path(__file__).name
        for match in OTHER_PROJECT.finditer(text)
    ]
    assert wrong == []


def test_the_readme_says_pip_install_dot_near_the_top() -> None:
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    top = "\n".join(lines[: lines.index("## Set-up")])
    assert "`pip install .`" in top
    assert f"pip install {NAME}" in top and f'"{NAME}[dask]"' in top


def test_the_command_help_and_the_dask_message_name_the_distribution() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    for args in (["--help"], ["solve", "--help"]):
        done = subprocess.run(
            [sys.executable, "-m", "pysolver", *args],
            capture_output=True,
            text=True,
            cwd=REPO,
            env=env,
            timeout=60,
        )
        assert f'pip install "{NAME}[dask]"' in " ".join(done.stdout.split()), args
    dask_runner = (REPO / "pysolver" / "parallel" / "dask_cluster.py").read_text()
    assert f'pip install "{NAME}[dask]"' in dask_runner
