"""The benchmark harness: best-of-N wall and CPU seconds, every answer checked, one table.

    python -m bench.harness [--quick | --full] [--browser] [--only TEXT] [--repeat N]
                            [--json FILE] [--baseline FILE] [--no-peers]

(``python3 build.py bench ...`` runs exactly this.) Each benchmark module ``bench/bench_*.py``
has ``cases()``, an iterable of :class:`Case`; the harness runs every selected case ``--repeat``
times and prints one row per case: its name, the engine, the answer, the best wall-clock seconds,
the best CPU seconds of this process, and the engine's own work counters (nodes, link updates,
...). Every run's answer is checked against the case's expected answer; a wrong answer is printed
as WRONG, nothing is written to ``--json`` and the exit status is 1.

Levels: ``--quick`` (a minute or two: the rows the baseline in bench/baseline.json covers), the
default (adds the bigger counts), ``--full`` (adds runs of minutes). ``--browser`` adds the
Chromium rows of bench/bench_browser.py (needs the .venv and Chromium of build.py test).
``--baseline FILE`` compares with a saved ``--json`` file: the ratio new / baseline of the wall
and CPU seconds per row (below 1: faster now), and their geometric mean.

After the suite's table, the whole suite also prints bench/peers.py's table: pysolver and the
compiled peers (xcover, exact-cover; installed into their own environment on first use, never
the package's dependencies; and the repository's own plain C DLX, bench/c_dlx/dlx.c, when a C
compiler is found) on the same matrices, as ratios. ``--no-peers`` leaves that table out;
``PYSOLVER_BENCH_PEERS=0`` leaves out xcover and exact-cover (pysolver's side and the C DLX are
still timed); ``--only`` and a bench module's own ``main`` run no peers.

The garbage collector is off during each timed run (as in ``timeit``) and runs between runs, so
its pauses do not land on random rows. Timings on a shared machine are noisy; the best of
several runs is the least noisy figure, and CPU seconds are disturbed less by other processes
than wall seconds.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import math
import os
import platform
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from time import perf_counter, process_time
from typing import Any

from bench import peers
from pysolver.kinds import kind_names

LEVELS = ("quick", "default", "full")
BENCH = Path(__file__).resolve().parent
# The benchmark modules of the CPython suite, in the order their rows are printed: each kind's
# bench/bench_<kind>.py in registry order (a kind without one has no rows), then explain.
SUITE = (
    *(f"bench.bench_{kind}" for kind in kind_names() if (BENCH / f"bench_{kind}.py").is_file()),
    "bench.bench_explain",
)
BROWSER_SUITE = "bench.bench_browser"


class WrongAnswer(Exception):
    """A case gave an answer other than the expected one (or an invalid solution)."""


@dataclass(frozen=True)
class Measured:
    """What one run of a case gave: the answer to check and the work it took."""

    answer: object
    counters: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Case:
    """One table row: ``run`` is the timed work; ``read`` (untimed) turns its result into a
    :class:`Measured`, raising :class:`WrongAnswer` when a solution is invalid; the answer must
    equal ``expected`` on every run."""

    name: str
    engine: str
    run: Callable[[], Any]
    read: Callable[[Any], Measured]
    expected: object
    level: str = "quick"
    # Runs of this case; None takes --repeat (cases of many seconds say 1).
    repeat: int | None = None


@dataclass
class Row:
    name: str
    engine: str
    answer: str
    wall_s: float
    cpu_s: float
    runs: int
    counters: dict[str, float]
    wrong: str | None = None

    def key(self) -> tuple[str, str]:
        return self.name, self.engine

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "engine": self.engine,
            "answer": self.answer,
            "wall_s": round(self.wall_s, 6),
            "cpu_s": round(self.cpu_s, 6),
            "runs": self.runs,
            "counters": self.counters,
        }


def shown(answer: object, width: int = 40) -> str:
    """An answer as the table and the JSON show it: at most ``width`` characters, long ones
    cut in the middle."""
    text = str(answer)
    half = (width - 3) // 2
    return text if len(text) <= width else f"{text[:half]}...{text[-half:]}"


def measure(case: Case, repeat: int) -> Row:
    """Run a case ``repeat`` times; the best wall and the best CPU seconds, each answer checked."""
    best_wall = best_cpu = math.inf
    counters: dict[str, float] = {}
    answer: object = None
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            wall_started, cpu_started = perf_counter(), process_time()
            result = case.run()
            cpu, wall = process_time() - cpu_started, perf_counter() - wall_started
        finally:
            gc.enable()
        try:
            measured = case.read(result)
        except WrongAnswer as error:
            return Row(case.name, case.engine, "WRONG", wall, cpu, 1, {}, str(error))
        answer = measured.answer
        if answer != case.expected:
            wrong = f"expected {shown(case.expected, 200)}, got {shown(answer, 200)}"
            return Row(case.name, case.engine, "WRONG", wall, cpu, 1, {}, wrong)
        if wall < best_wall:
            best_wall, counters = wall, measured.counters
        best_cpu = min(best_cpu, cpu)
    return Row(case.name, case.engine, shown(answer), best_wall, best_cpu, repeat, counters)


# ---------------------------------------------------------------- the table


def format_counter(value: float) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:.4g}"


def format_ratio(row: Row, baseline: dict[tuple[str, str], dict] | None) -> str:
    if baseline is None:
        return ""
    before = baseline.get(row.key())
    if before is None or row.wrong:
        return f" {'new':>7} {'':>7}"
    wall = row.wall_s / before["wall_s"] if before["wall_s"] else math.inf
    cpu = row.cpu_s / before["cpu_s"] if before["cpu_s"] else math.inf
    return f" {wall:>7.2f} {cpu:>7.2f}"


def header(baseline: dict | None) -> str:
    ratios = f" {'wall x':>7} {'CPU x':>7}" if baseline is not None else ""
    return f"{'row':<34} {'engine':<10} {'answer':<40} {'wall s':>9} {'CPU s':>9}{ratios}  work"


def format_row(row: Row, baseline: dict | None) -> str:
    work = "  ".join(f"{name} {format_counter(value)}" for name, value in row.counters.items())
    if row.wrong:
        work = row.wrong
    return (
        f"{row.name:<34} {row.engine:<10} {row.answer:<40} {row.wall_s:>9.4f} "
        f"{row.cpu_s:>9.4f}{format_ratio(row, baseline)}  {work}"
    )


def geometric_mean(values: list[float]) -> float:
    return math.exp(sum(math.log(value) for value in values) / len(values))


def comparison_summary(rows: list[Row], baseline: dict[tuple[str, str], dict]) -> str:
    pairs = [(row, baseline[row.key()]) for row in rows if row.key() in baseline and not row.wrong]
    pairs = [(row, before) for row, before in pairs if before["wall_s"] and before["cpu_s"]]
    if not pairs:
        return "no row matches the baseline (compare the same level: --quick with --quick)"
    wall = geometric_mean([row.wall_s / before["wall_s"] for row, before in pairs])
    cpu = geometric_mean([row.cpu_s / before["cpu_s"] for row, before in pairs])
    return (
        f"against the baseline, {len(pairs)} rows: geometric mean of the ratios "
        f"wall x {wall:.2f}, CPU x {cpu:.2f} (below 1: faster now)"
    )


# ---------------------------------------------------------------- running a suite


def selected(cases: Iterable[Case], level: str, only: str) -> Iterable[Case]:
    for case in cases:
        if case.level not in LEVELS:
            raise ValueError(f"{case.name}: level {case.level!r} is not one of {LEVELS}")
        if LEVELS.index(case.level) > LEVELS.index(level):
            continue
        if only and only not in f"{case.name} {case.engine}":
            continue
        yield case


def run_suite(
    sources: list[Callable[[], Iterable[Case]]],
    level: str,
    repeat: int,
    only: str = "",
    baseline: dict[tuple[str, str], dict] | None = None,
) -> list[Row]:
    """Measure every selected case of the sources, printing each row as it is done."""
    print(header(baseline), flush=True)
    rows = []
    for source in sources:
        cases = iter(source())
        try:
            for case in selected(cases, level, only):
                row = measure(case, case.repeat or repeat)
                rows.append(row)
                print(format_row(row, baseline), flush=True)
        finally:
            # A source that holds resources (the browser) is a generator: closing it releases
            # them, also when a case raised.
            close = getattr(cases, "close", None)
            if close is not None:
                close()
    return rows


def machine() -> dict[str, Any]:
    """Where the figures were taken; the load average says how busy the machine was."""
    about: dict[str, Any] = {
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(terse=True),
        "cpus": os.cpu_count(),
    }
    if hasattr(os, "getloadavg"):
        about["load_average"] = round(os.getloadavg()[0], 2)
    return about


def read_baseline(path: Path) -> dict[tuple[str, str], dict]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {(row["name"], row["engine"]): row for row in data["rows"]}
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise SystemExit(
            f"cannot read the baseline {path}: {error}; give a file written by --json"
        ) from error


def module_sources(names: Iterable[str]) -> list[Callable[[], Iterable[Case]]]:
    return [importlib.import_module(name).cases for name in names]


def main(
    argv: list[str] | None = None,
    sources: list[Callable[[], Iterable[Case]]] | None = None,
) -> int:
    """The command line; ``sources`` defaults to the whole suite (bench modules pass their own)."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.harness",
        description="Run the benchmarks: best-of-N wall and CPU seconds, answers checked.",
    )
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="the quick rows only (a few minutes)")
    size.add_argument("--full", action="store_true", help="also the rows that take minutes")
    parser.add_argument(
        "--browser", action="store_true", help="also the Chromium rows (needs .venv, Chromium)"
    )
    parser.add_argument("--only", default="", help="only rows whose name or engine has TEXT")
    parser.add_argument("--repeat", type=int, default=3, help="runs per row; the best is kept")
    parser.add_argument("--json", type=Path, metavar="FILE", help="save the rows as JSON")
    parser.add_argument(
        "--baseline", type=Path, metavar="FILE", help="compare with a JSON file saved by --json"
    )
    parser.add_argument(
        "--no-peers", action="store_true", help="skip the compiled peers' table (bench/peers.py)"
    )
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    level = "quick" if args.quick else "full" if args.full else "default"
    with_peers = sources is None and not args.no_peers and not args.only
    if sources is None:
        sources = module_sources([*SUITE, *([BROWSER_SUITE] if args.browser else [])])
    baseline = read_baseline(args.baseline) if args.baseline else None
    about = machine()
    load = f" (load average {about['load_average']})" if "load_average" in about else ""
    print(
        f"{about['python']} on {about['platform']}, {about['cpus']} CPUs{load}; "
        f"{level} rows, best of {args.repeat} runs"
    )
    rows = run_suite(sources, level, args.repeat, args.only, baseline)
    if baseline is not None:
        print(comparison_summary(rows, baseline))
    wrong = [row for row in rows if row.wrong]
    if wrong:
        for row in wrong:
            print(f"WRONG ANSWER: {row.name} [{row.engine}]: {row.wrong}", file=sys.stderr)
        print(f"{len(wrong)} of {len(rows)} rows gave a wrong answer", file=sys.stderr)
        if args.json:
            print(f"{args.json} not written: fix the wrong answers first", file=sys.stderr)
        return 1
    if args.json:
        report = {**about, "level": level, "repeat": args.repeat}
        report["rows"] = [row.to_json() for row in rows]
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        print(f"saved {len(rows)} rows to {args.json}")
    if with_peers:
        # Its own table (its rows time requests and bare matrices against the peers' runs).
        print()
        quick = ["--quick"] if level == "quick" else []
        return peers.main([*quick, "--repeat", str(args.repeat)])
    return 0


if __name__ == "__main__":
    sys.exit(main())
