"""The checkout's paths, and how the build speaks to the person running it."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
PACKAGE = ROOT / "pysolver"
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"
VENV = ROOT / ".venv"
README = ROOT / "README.md"
DOCS = ROOT / "docs"


class BuildError(Exception):
    """Something the person running the build must fix; the message says what."""


def log(message: str) -> None:
    print(f"build.py: {message}", file=sys.stderr, flush=True)


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
