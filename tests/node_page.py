"""Running the page's own JavaScript modules in Node.js, for tests that compare it with Python.

``run_module(source, payload)`` runs ``source`` (an ES module that reads JSON on stdin and writes
JSON on stdout; it imports from ``./web/...``) at the repository root and returns what it wrote.
``require_node(what)`` skips the calling test module when Node.js is missing, except under
``python3 build.py test`` (PYSOLVER_REQUIRE_NODE=1), which needs Node.js for the linter anyway.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
NODE = shutil.which("node")


def require_node(what: str) -> None:
    """Skip the calling module (at import) when Node.js is missing; what: what runs in it."""
    if NODE is not None:
        return
    reason = f"Node.js is not installed ({what} runs in it)"
    if os.environ.get("PYSOLVER_REQUIRE_NODE") == "1":
        raise RuntimeError(f"{reason}; python3 build.py test needs it")
    pytest.skip(reason, allow_module_level=True)


def run_module(source: str, payload: Any, flags: tuple[str, ...] = ()) -> Any:
    """Run an ES module with ``payload`` as JSON on stdin; its JSON output, parsed. ``flags``:
    Node.js options (V8's included) before the module."""
    assert NODE is not None
    result = subprocess.run(
        [NODE, *flags, "--input-type=module", "-e", source],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)
