"""bench/soak.py: a short soak answers every request as it must, every kind and the errors."""

from __future__ import annotations

import json
from pathlib import Path

from bench import soak
from pysolver.kinds import kind_names


def test_a_short_soak_answers_every_request_right(tmp_path: Path) -> None:
    figures = tmp_path / "soak.json"
    rounds = 2 * len(soak.mixed_requests())
    assert soak.main(["--requests", str(rounds), "--json", str(figures)]) == 0
    written = json.loads(figures.read_text())
    assert written["wrong"] == []
    assert set(written["groups"]) == {*kind_names(), soak.ERROR_GROUP}
    assert sum(group["requests"] for group in written["groups"].values()) == rounds
    assert set(written["memory_mb"]) == {"start", "warm", "end", "peak"}
