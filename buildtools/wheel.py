"""The pysolver wheel, written from the current sources and named by their content hash."""

from __future__ import annotations

import base64
import hashlib
import re
import tomllib
import zipfile
from pathlib import Path

from buildtools.repo import CACHE, PACKAGE, ROOT, BuildError


def package_files() -> list[Path]:
    """Every file of the pysolver package, in a stable order (no bytecode caches)."""
    return sorted(
        path
        for path in PACKAGE.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    )


def package_version() -> str:
    text = (PACKAGE / "__init__.py").read_text(encoding="utf-8")
    match = re.search(r"""^__version__\s*=\s*["']([^"']+)["']""", text, re.MULTILINE)
    if match is None:
        raise BuildError("pysolver/__init__.py has no __version__ = '...' line")
    return match.group(1)


def distribution_name() -> str:
    """The distribution's name, pyproject.toml's ``[project] name`` (``pysolver-studio``: the
    name ``pysolver`` on PyPI is another project's; the import name stays ``pysolver``)."""
    with (ROOT / "pyproject.toml").open("rb") as file:
        return str(tomllib.load(file)["project"]["name"])


def wheel_prefix() -> str:
    """The distribution's name as wheel and dist-info names write it (``pysolver_studio``:
    runs of ``-``, ``_`` and ``.`` as one ``_``, lower case)."""
    return re.sub(r"[-_.]+", "_", distribution_name()).lower()


def record_hash(data: bytes) -> str:
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


# Old pysolver wheels are kept for a while: several people may build in one working tree, and a
# page that loaded a manifest a moment ago must still find the wheel it names.
KEEP_OLD_WHEELS = 5


def prune_old_wheels(folder: Path) -> set[Path]:
    """Delete all but the newest few pysolver wheels in folder; return the ones kept."""
    wheels = sorted(
        folder.glob(f"{wheel_prefix()}-*.whl"), key=lambda path: path.stat().st_mtime_ns
    )
    for old in wheels[:-KEEP_OLD_WHEELS]:
        old.unlink(missing_ok=True)
    return set(wheels[-KEEP_OLD_WHEELS:])


def build_pysolver_wheel() -> Path:
    """A pure-Python wheel of the current sources, named by their content hash.

    Written directly with zipfile (a wheel is a zip with METADATA, WHEEL and RECORD): it is
    offline, takes milliseconds, and the same sources always give the same bytes.
    """
    files = package_files()
    source_hash = hashlib.sha256()
    for path in files:
        relative = path.relative_to(ROOT).as_posix()
        source_hash.update(relative.encode() + b"\0" + path.read_bytes() + b"\0")
    version = f"{package_version()}+{source_hash.hexdigest()[:12]}"
    folder = CACHE / "wheels"
    prefix = wheel_prefix()
    wheel = folder / f"{prefix}-{version}-py3-none-any.whl"
    if wheel.exists():
        return wheel
    folder.mkdir(parents=True, exist_ok=True)
    prune_old_wheels(folder)
    dist_info = f"{prefix}-{version}.dist-info"
    entries: list[tuple[str, bytes]] = [
        (path.relative_to(ROOT).as_posix(), path.read_bytes()) for path in files
    ]
    entries.append(
        (
            f"{dist_info}/METADATA",
            (
                "Metadata-Version: 2.1\n"
                f"Name: {distribution_name()}\n"
                f"Version: {version}\n"
                "Summary: Puzzle solvers in pure Python behind one JSON protocol.\n"
                "License: MIT\n"
                "Requires-Python: >=3.11\n"
            ).encode(),
        )
    )
    entries.append(
        (
            f"{dist_info}/WHEEL",
            (
                b"Wheel-Version: 1.0\n"
                b"Generator: pysolver build.py\n"
                b"Root-Is-Purelib: true\n"
                b"Tag: py3-none-any\n"
            ),
        )
    )
    record = "".join(f"{name},{record_hash(data)},{len(data)}\n" for name, data in entries)
    record += f"{dist_info}/RECORD,,\n"
    entries.append((f"{dist_info}/RECORD", record.encode()))
    partial = wheel.with_suffix(".partial")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            # A fixed timestamp keeps the wheel's bytes a function of the sources alone.
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    partial.rename(wheel)
    return wheel
