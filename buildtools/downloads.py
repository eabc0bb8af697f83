"""The pinned runtime the site serves, downloaded once into .cache/ and checked by hash: Pyodide
(npm package ``pyodide``, against its registry integrity string). Later builds are offline."""

from __future__ import annotations

import base64
import hashlib
import shutil
import subprocess
import tarfile
from pathlib import Path

from buildtools.repo import CACHE, BuildError, log

PYODIDE_VERSION = "314.0.7"
# The registry's integrity string for that version (npm view pyodide@314.0.7 dist.integrity).
PYODIDE_INTEGRITY = (
    "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+"
    "HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="
)
# What the worker needs from the npm package; the rest (types, source maps, consoles) stays out.
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
PYODIDE_DIR = f"pyodide-{PYODIDE_VERSION}"


def sri_digest(path: Path) -> str:
    """The npm registry's integrity string (Subresource Integrity form) of a file."""
    digest = hashlib.sha512(path.read_bytes()).digest()
    return "sha512-" + base64.b64encode(digest).decode("ascii")


def fetch_pyodide() -> Path:
    """The pinned Pyodide tarball, fetched with npm once and checked against its integrity."""
    folder = CACHE / "pyodide"
    tarball = folder / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not tarball.exists():
        npm = shutil.which("npm")
        if npm is None:
            raise BuildError(
                "npm is needed once to fetch the Pyodide runtime (npm package pyodide@"
                f"{PYODIDE_VERSION}); install Node.js and npm, or put the tarball at {tarball}"
            )
        folder.mkdir(parents=True, exist_ok=True)
        log(f"fetching pyodide@{PYODIDE_VERSION} with npm pack (once)")
        result = subprocess.run(
            [npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", str(folder)],
            cwd=folder,
            capture_output=True,
            text=True,
        )
        if result.returncode != 0 or not tarball.exists():
            raise BuildError(f"npm pack pyodide@{PYODIDE_VERSION} failed:\n{result.stderr}")
    actual = sri_digest(tarball)
    if actual != PYODIDE_INTEGRITY:
        tarball.unlink()
        raise BuildError(
            f"{tarball.name} does not match its pinned integrity hash (got {actual}); "
            "the corrupt download was deleted, run the build again"
        )
    return tarball


def pyodide_runtime() -> Path:
    """The folder holding the runtime files, extracted from the tarball once."""
    folder = CACHE / "pyodide" / PYODIDE_VERSION
    if all((folder / name).exists() for name in PYODIDE_FILES):
        return folder
    tarball = fetch_pyodide()
    partial = folder.with_name(folder.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    with tarfile.open(tarball) as archive:
        for name in PYODIDE_FILES:
            member = archive.extractfile(f"package/{name}")
            if member is None:
                raise BuildError(f"the Pyodide package has no {name}")
            (partial / name).write_bytes(member.read())
    shutil.rmtree(folder, ignore_errors=True)
    partial.rename(folder)
    return folder
