"""bench/micro.py, the microbenchmarks bench/bench_browser.py runs in CPython and in the page: each
operation runs, and the table has a positive time for every one of them."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from bench import micro


def test_masks_have_the_size_their_name_says() -> None:
    for bits in (64, 320, 2048):
        values = micro.masks(bits)
        assert len(values) == 64
        assert {value.bit_length() for value in values} == {bits}


def test_every_operation_runs_and_is_timed() -> None:
    for name in micro.BENCHMARKS:
        micro.run_one(name, 100)
    table = micro.nanoseconds_per_unit(units=200, runs=1)
    assert set(table) == set(micro.BENCHMARKS)
    assert all(nanoseconds >= 0 for nanoseconds in table.values())
    assert any(nanoseconds > 0 for nanoseconds in table.values())


def test_micro_uses_only_the_standard_library() -> None:
    # The page's worker gets the file's text alone: it must import neither pysolver nor bench.
    tree = ast.parse(Path(micro.__file__).read_text(encoding="utf-8"))
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    tops = {name.split(".")[0] for name in imported}
    assert tops <= set(sys.stdlib_module_names) | {"__future__"}, tops
