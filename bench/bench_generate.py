"""Generate mode: seconds per size and difficulty, median and worst over seeds, in CPython
and (with ``--page``) in the page's worker, for the same requests.

    python -m bench.bench_generate [--seeds 20] [--only sudoku-9] [--page] [--no-qqwing]

A row is one puzzle size of one kind at one level; each seed is one request through
``pysolver.solve`` (or ``window.pysolver.solve`` in Chromium: Pyodide, the worker's round trip
included). "reached" counts the answers graded at the level asked (the others carry a note and
the nearest level found). Wall seconds, so a loaded machine inflates them; CPython's CPU
seconds are given too.

Then 9x9 Sudoku against qqwing (Debian's C++ generator, ``qqwing --generate N --difficulty X
--symmetry S --one-line``) in the same run, once per symmetry of the givens
(``QQWING_SYMMETRIES``: our default, symmetric under a half turn, beside qqwing's
``rotate180``; our ``"symmetry": "none"`` beside qqwing's ``none``, its default): CPU
milliseconds a puzzle per level, pysolver's (the median and the mean over the seeds, one
request each) beside qqwing's (its process's CPU time over ``QQWING_PUZZLES`` puzzles, start-up
included: a mean, which the ratio of means compares like with like; a level's slow seeds, the
ones that need several attempts, lift our mean well above our median).

qqwing's levels are not ours. It rates a puzzle by the techniques its solver needs: ``simple``
naked singles, ``easy`` also hidden singles, ``intermediate`` also naked and hidden pairs,
pointing and box/line reduction, ``expert`` a guess after those; it makes a random minimal
puzzle and keeps it when it has the level asked. ``QQWING_LEVELS`` pairs each of ours with the
nearest: ``easy`` (our singles) with its ``easy``, ``medium`` (also locked candidates and
subsets up to quads) with ``intermediate``, and ``hard``, ``fiendish`` and ``expert`` with its
``expert``, its hardest. That last pairing flatters qqwing: its ``expert`` is any puzzle past
its few techniques, which our grader mostly rates ``fiendish`` (measured: 238 and 250 of 300,
with and without symmetry) and rarely ``hard`` (53, 29) or ``expert`` (8, 18). So each row
also has qqwing's cost of a puzzle at *our* level: explain mode grades every puzzle of
qqwing's run, and qqwing's CPU time is divided by the number graded at the row's level (what
qqwing plus a filter would spend to make such a puzzle, our grading not counted; "-" when
none was), beside which the ratio is of our mean. Ratios are ours over qqwing's.
qqwing is installed with ``apt-get install qqwing`` when missing; where that cannot be done
(no apt-get, no rights, no network) the comparison is skipped with a note.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

from pysolver import solve
from pysolver.kinds import kind_module

# (row name, kind, generate's puzzle fields): the sizes docs/generating.md's table reports.
ROWS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("sudoku-9", "sudoku", {"size": 9}),
    ("sudoku-12", "sudoku", {"size": 12}),
    ("sudoku-9-jigsaw", "sudoku", {"size": 9, "variant": "jigsaw"}),
    ("sudoku-9-x", "sudoku", {"size": 9, "variant": "x"}),
    ("sudoku-9-killer", "sudoku", {"size": 9, "variant": "killer"}),
    ("shikaku-10", "shikaku", {"rows": 10, "cols": 10}),
    ("shikaku-20", "shikaku", {"rows": 20, "cols": 20}),
    ("polyomino-5x3", "polyomino", {"rows": 5, "cols": 3}),
)

# Our level -> qqwing's nearest (qqwing: simple, easy, intermediate, expert).
QQWING_LEVELS = {
    "easy": "easy",
    "medium": "intermediate",
    "hard": "expert",
    "fiendish": "expert",
    "expert": "expert",
}
# Our symmetry option -> qqwing's ``--symmetry`` (module docstring).
QQWING_SYMMETRIES = {"rotational": "rotate180", "none": "none"}
# Puzzles per qqwing run: its CPU time over them is its figure, and explain grades them all
# (enough for a few of our ``expert`` among qqwing's: 3-6% of them).
QQWING_PUZZLES = 300

PAGE_SOLVE_JS = """async (request) => {
    const started = performance.now();
    const response = await window.pysolver.solve(request);
    return {ok: response.ok, level: response.ok ? response.grade.level : null,
            seconds: (performance.now() - started) / 1000};
}"""


def requests(
    row: tuple[str, str, dict[str, Any]], seeds: int
) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each level's requests of ``row``, seeds 0 .. seeds - 1."""
    _name, kind, puzzle = row
    module: Any = kind_module(kind)  # a generating kind: it has DIFFICULTIES
    for level in module.DIFFICULTIES:
        for seed in range(seeds):
            request = {"kind": kind, "mode": "generate", "seed": seed, "difficulty": level}
            yield level, {**request, "puzzle": dict(puzzle)}


def in_cpython(request: dict[str, Any]) -> tuple[float, float, str | None]:
    """Wall and CPU seconds of one request here, and the level it was graded."""
    wall, cpu = time.perf_counter(), time.process_time()
    response = solve(request)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if not response["ok"]:
        raise SystemExit(f"{request}: {response['error']['message']}")
    return wall, cpu, response["grade"]["level"]


def table(
    runner: Callable[[dict[str, Any]], tuple[float, float | None, str | None]],
    rows: list[tuple[str, str, dict[str, Any]]],
    seeds: int,
    where: str,
) -> None:
    print(f"\n{where}: seconds over seeds 0-{seeds - 1} (wall median / worst; CPU median)")
    print(f"{'row':<18} {'level':<8} {'median':>8} {'worst':>8} {'cpu':>8}  reached")
    for row in rows:
        by_level: dict[str, list[tuple[float, float | None, bool]]] = {}
        for level, request in requests(row, seeds):
            wall, cpu, graded = runner(request)
            by_level.setdefault(level, []).append((wall, cpu, graded == level))
        for level, runs in by_level.items():
            walls = [wall for wall, _cpu, _hit in runs]
            cpus = [cpu for _wall, cpu, _hit in runs if cpu is not None]
            cpu_text = f"{statistics.median(cpus):8.3f}" if cpus else f"{'-':>8}"
            reached = sum(1 for *_times, hit in runs if hit)
            print(
                f"{row[0]:<18} {level:<8} {statistics.median(walls):8.3f} {max(walls):8.3f} "
                f"{cpu_text}  {reached}/{len(runs)}"
            )


def in_page(rows: list[tuple[str, str, dict[str, Any]]], seeds: int) -> None:
    """The same table from Chromium: build.py's site served on 127.0.0.1, one page."""
    from playwright.sync_api import sync_playwright

    from bench.browser import CHROMIUM, CHROMIUM_ARGS, start_server
    from buildtools.server import make_server
    from buildtools.site import build_site

    build_site(quiet=True)
    server = make_server(port=0)
    url = start_server(server)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(url)
            page.wait_for_function("() => window.pysolver && window.pysolver.ready")

            def run(request: dict[str, Any]) -> tuple[float, float | None, str | None]:
                answer = page.evaluate(PAGE_SOLVE_JS, request)
                if not answer["ok"]:
                    raise SystemExit(f"{request}: refused in the page")
                return answer["seconds"], None, answer["level"]

            table(run, rows, seeds, "the page (Pyodide in a worker)")
            browser.close()
    finally:
        server.shutdown()
        server.server_close()


def qqwing_binary() -> tuple[str | None, str]:
    """The qqwing program, installed with apt-get when missing; None and why when it cannot
    be had."""
    found = shutil.which("qqwing")
    if found:
        return found, ""
    apt = shutil.which("apt-get")
    if apt is None:
        return None, "qqwing is not installed and there is no apt-get to install it"
    sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
    for command in ([*sudo, apt, "update", "-qq"], [*sudo, apt, "install", "-y", "-qq", "qqwing"]):
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            reason = (done.stderr.strip().splitlines() or ["no message"])[-1]
            return None, f"qqwing could not be installed ({' '.join(command)}: {reason})"
    found = shutil.which("qqwing")
    return (found, "") if found else (None, "apt-get ran but no qqwing program was found")


def qqwing_run(binary: str, level: str, symmetry: str, puzzles: int) -> tuple[float, list[str]]:
    """qqwing's CPU milliseconds a puzzle at its ``level`` and ``symmetry`` (its child's user
    and system time over ``puzzles`` puzzles), and the puzzles (81 characters each)."""
    before = os.times()
    done = subprocess.run(
        [binary, "--generate", str(puzzles), "--difficulty", level]
        + ["--symmetry", symmetry, "--one-line"],
        check=True,
        capture_output=True,
        text=True,
    )
    after = os.times()
    spent = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return spent * 1000 / puzzles, done.stdout.split()


def our_levels(grids: list[str]) -> dict[str, int]:
    """How many of ``grids`` explain mode grades at each level."""
    counts: dict[str, int] = {}
    for grid in grids:
        response = solve({"kind": "sudoku", "mode": "explain", "puzzle": {"grid": grid}})
        level = response["grade"]["level"] if response["ok"] else "refused"
        counts[level] = counts.get(level, 0) + 1
    return counts


def generate_ms(level: str, symmetry: str, seeds: int) -> tuple[float, float]:
    """pysolver's median and mean CPU milliseconds over seeds 0 .. seeds - 1 for a 9x9 at
    ``level``."""
    spent = []
    for seed in range(seeds):
        request = {"kind": "sudoku", "mode": "generate", "seed": seed, "difficulty": level}
        cpu = time.process_time()
        response = solve({**request, "symmetry": symmetry, "puzzle": {"size": 9}})
        spent.append((time.process_time() - cpu) * 1000)
        if not response["ok"]:
            raise SystemExit(f"{request}: {response['error']['message']}")
    return statistics.median(spent), statistics.mean(spent)


def against_qqwing(seeds: int) -> None:
    """9x9 Sudoku per level and symmetry: pysolver's CPU ms a puzzle, qqwing's at its nearest
    level and at ours, the ratios (module docstring)."""
    binary, why = qqwing_binary()
    if binary is None:
        print(f"\n9x9 Sudoku against qqwing: skipped: {why}")
        return
    print(f"load average before: {' / '.join(f'{load:.1f}' for load in os.getloadavg())}")
    for symmetry, theirs_symmetry in QQWING_SYMMETRIES.items():
        print(
            f"\n9x9 Sudoku against qqwing, symmetry {symmetry} (qqwing {theirs_symmetry}): CPU "
            f"ms a puzzle; pysolver's median and mean over seeds 0-{seeds - 1}; qqwing's mean "
            f"over {QQWING_PUZZLES} puzzles; ratios of medians, then of means"
        )
        print(
            f"{'level':<9} {'median':>7} {'mean':>7} {'qqwing':>8} {'(its level)':<15} "
            f"{'ratio':>6} {'means':>6}   {'at ours':>8} {'(how many)':<11} {'means':>6}"
        )
        runs: dict[str, tuple[float, dict[str, int]]] = {}
        for level, theirs in QQWING_LEVELS.items():
            ours, mean = generate_ms(level, symmetry, seeds)
            if theirs not in runs:
                peer, grids = qqwing_run(binary, theirs, theirs_symmetry, QQWING_PUZZLES)
                runs[theirs] = peer, our_levels(grids)
            peer, graded = runs[theirs]
            hits = graded.get(level, 0)
            at_ours = f"{peer * QQWING_PUZZLES / hits:8.1f}" if hits else f"{'-':>8}"
            ratio = f"{mean * hits / (peer * QQWING_PUZZLES):5.2f}x" if hits else f"{'-':>6}"
            print(
                f"{level:<9} {ours:7.1f} {mean:7.1f} {peer:8.1f} {'(' + theirs + ')':<15} "
                f"{ours / peer:5.2f}x {mean / peer:5.2f}x   {at_ours} "
                f"{f'({hits}/{QQWING_PUZZLES})':<11} {ratio}"
            )
    print(f"load average after: {' / '.join(f'{load:.1f}' for load in os.getloadavg())}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=20, help="seeds per row and level")
    parser.add_argument(
        "--only", help="comma-separated row names: " + ", ".join(r[0] for r in ROWS)
    )
    parser.add_argument(
        "--page", action="store_true", help="also in Chromium (needs build.py test's set-up)"
    )
    parser.add_argument(
        "--no-qqwing", action="store_true", help="leave out the 9x9 comparison with qqwing"
    )
    args = parser.parse_args(argv)
    wanted = set(args.only.split(",")) if args.only else {row[0] for row in ROWS}
    rows = [row for row in ROWS if row[0] in wanted]
    table(in_cpython, rows, args.seeds, "CPython")
    if not args.no_qqwing and "sudoku-9" in wanted:
        against_qqwing(args.seeds)
    if args.page:
        in_page(rows, args.seeds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
