"""pysolver against compiled peers on the same exact cover matrices, in one run, as ratios.

    python -m bench.peers [--quick] [--repeat N]
    python -m bench.peers --suite [--repeat N]   # issue 36's seven matrices: pure, fast, peers
    python -m bench.peers --write-hard-set   # tests/data/hard_generated.txt, again

The peers are xcover (Algorithm X in numba; its JIT is warmed before timing) and exact-cover
(dancing links in a C extension). They are never dependencies of the package: this script
installs them into their own environment, ``.cache/bench-peers-venv``, on first use, and runs
them there in a child process (``--peer FILE``) on matrices written out by this process, so
both sides solve the very same matrix. ``PYSOLVER_BENCH_PEERS=0`` skips them (pysolver's rows
and the C DLX are still timed).

The third peer, "C DLX", is the repository's own plain C DLX (``bench/c_dlx/dlx.c``: Knuth's
Algorithm X on dancing links, MRV item choice, nothing more), the yardstick of issue 18's
table. It is compiled with ``cc -O2`` into ``.cache/c-dlx/`` when a C compiler is found (``$CC``,
``cc``, ``gcc`` or ``clang``; without one its column shows "-" and a note says why) and reads
the same matrices as text on stdin; its seconds are the search's CPU seconds alone, as the
program measures them (reading and linking the matrix excluded; listed under the table with its
search nodes, the same figure as pysolver's dlx engine, whose tree it walks).

``--suite``: the seven matrices of issue 36, built here (``suite``), each counted whole by
pysolver's default engine for a count (``memo``, or ``bitset`` with secondary items) in pure
Python (``PYSOLVER_PURE=1``, as in the page) and with the compiled walk (``fast``: numba,
``pysolver-studio[fast]``; its JIT is warmed first), by xcover and by the C DLX, with the
ratios of pure and fast to xcover and their geometric means, and the issue's targets checked.
xcover runs in this Python when it is installed here, else in the peers' environment.

Rows (CPU seconds of the solving process, best of ``--repeat`` runs; the machine is shared, and
CPU time is the least disturbed figure):

- 6x10 pentominoes, all 9,356 tilings: the ``polyomino`` kind (its default engine) against the
  peers on the kind's matrix.
- 6x10 with X fixed to one quadrant (2,339 covers): the ``exact_cover`` kind (its default),
  the ``memo`` engine on the bare matrix (no board hint: memoised counting only), and peers.
- Sudoku top95 (tests/data/top95.txt), each proved unique (up to 2 solutions): the ``sudoku``
  kind against the peers on each puzzle's matrix (324 items; the options of the givens and
  every candidate that no given rules out).
- Sudoku hard generated (tests/data/hard_generated.txt), the same way: the expert puzzles of
  pysolver's own generator that take a plain DLX the most nodes (``--write-hard-set``), standing
  in for the issue's 311 hard puzzles, which are not in the repository.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from time import process_time
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
PEERS_VENV = ROOT / ".cache" / "bench-peers-venv"
PEER_PACKAGES = ["xcover", "exact-cover"]
TOP95 = ROOT / "tests" / "data" / "top95.txt"
HARD_SET = ROOT / "tests" / "data" / "hard_generated.txt"
C_DLX_SOURCE = ROOT / "bench" / "c_dlx" / "dlx.c"
C_DLX_BUILDS = ROOT / ".cache" / "c-dlx"
C_DLX = "C DLX"
# The hard set: of the expert puzzles for these generator seeds, the ones a plain DLX needs
# the most nodes for (see hard_generated_grids).
HARD_SEEDS = range(2000)
HARD_KEEP = 100
SIX_BY_TEN = {"board": ["." * 10] * 6, "pieces": ["pentominoes"]}

# A matrix for the peers: name, primary and secondary item counts, options (item numbers),
# how many solutions to find at most (None: all), and the expected count.
Matrix = dict[str, Any]


def best_cpu(run: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The least CPU seconds of ``repeat`` runs of ``run``, and its answer."""
    best = float("inf")
    answer = None
    for _ in range(repeat):
        start = process_time()
        answer = run()
        best = min(best, process_time() - start)
    return best, answer


# ---------------------------------------------------------------- the matrices


def sudoku_matrix(grid: str) -> tuple[int, list[list[int]]]:
    """The 9x9 Sudoku exact cover matrix of a puzzle: 324 primary items (cell, row-digit,
    column-digit, box-digit); the givens' options and every candidate no given rules out."""
    givens = {(i // 9, i % 9): int(ch) for i, ch in enumerate(grid) if ch not in ".0"}
    options = []
    for r in range(9):
        for c in range(9):
            box = r // 3 * 3 + c // 3
            for d in range(1, 10):
                given = givens.get((r, c))
                if given is not None and given != d:
                    continue
                if given is None and any(
                    value == d and (gr == r or gc == c or gr // 3 * 3 + gc // 3 == box)
                    for (gr, gc), value in givens.items()
                ):
                    continue
                k = d - 1
                options.append([r * 9 + c, 81 + r * 9 + k, 162 + c * 9 + k, 243 + box * 9 + k])
    return 324, options


def matrices(quick: bool) -> list[tuple[Matrix, Callable[[], int], str]]:
    """Each matrix for the peers, with pysolver's run on the same work and what runs it."""
    from pysolver import solve
    from pysolver.engines.cover import search
    from pysolver.kinds.polyomino import build_problem

    rows: list[tuple[Matrix, Callable[[], int], str]] = []
    whole = build_problem(SIX_BY_TEN)
    rows.append(
        (
            {
                "name": "6x10 all tilings",
                "primary": whole.primary,
                "secondary": whole.secondary,
                "options": whole.options,
                "limit": None,
                "expected": 9356,
            },
            lambda: solve({"kind": "polyomino", "mode": "count", "puzzle": SIX_BY_TEN})["count"],
            "polyomino kind (default engine)",
        )
    )
    fixed = build_problem(SIX_BY_TEN, "distinct")
    matrix = {
        "name": "6x10 X in one quadrant",
        "primary": fixed.primary,
        "secondary": fixed.secondary,
        "options": fixed.options,
        "limit": None,
        "expected": 2339,
    }
    items = [f"i{n}" for n in range(fixed.primary)]
    request = {
        "kind": "exact_cover",
        "mode": "count",
        "puzzle": {"items": items, "options": [[items[i] for i in o] for o in fixed.options]},
    }
    rows.append((matrix, lambda: solve(request)["count"], "exact_cover kind (default engine)"))
    rows.append((matrix, lambda: search(fixed, "memo", keep_solutions=False).count, "memo engine"))
    for name, path in (("Sudoku top95", TOP95), ("Sudoku hard generated", HARD_SET)):
        grids = path.read_text().split()
        if quick:
            grids = grids[:20]
        rows.append(sudoku_row(f"{name} ({len(grids)}), unique", grids))
    return rows


def sudoku_row(name: str, grids: list[str]) -> tuple[Matrix, Callable[[], int], str]:
    """A uniqueness row: each grid proved unique (up to 2 solutions) by the ``sudoku`` kind,
    and by the peers on its matrix; the answer is how many have exactly one solution."""
    from pysolver import solve

    sudoku = {"name": name, "grids": grids, "limit": 2, "expected": len(grids)}

    def pysolver_sudoku() -> int:
        unique = 0
        for grid in grids:
            answer = solve({"kind": "sudoku", "limit": 2, "puzzle": {"grid": grid}})
            unique += answer["count"] == 1 and answer["complete"]
        return unique

    return sudoku, pysolver_sudoku, "sudoku kind (default engine)"


# ---------------------------------------------------------------- the peers (child process)


def peer_problems(matrix: Matrix) -> list[tuple[int, int, list[list[int]]]]:
    """The (primary, secondary, options) problems of one row (one per Sudoku puzzle)."""
    if "grids" in matrix:
        return [(items, 0, options) for items, options in map(sudoku_matrix, matrix["grids"])]
    return [(matrix["primary"], matrix["secondary"], matrix["options"])]


def xcover_count(primary: int, secondary: int, options: list[list[int]], limit: int | None) -> int:
    from xcover import covers  # the peer environment's

    found = 0
    for _ in covers(
        options, primary=list(range(primary)), secondary=list(range(primary, primary + secondary))
    ):
        found += 1
        if limit is not None and found >= limit:
            break
    return found


def exact_cover_count(
    primary: int, secondary: int, options: list[list[int]], limit: int | None
) -> int:
    import exact_cover  # the peer environment's
    import numpy as np

    if secondary:
        raise ValueError("exact-cover has no secondary items")
    matrix = np.zeros((len(options), primary), dtype=bool)
    for row, option in enumerate(options):
        matrix[row, option] = True
    return int(exact_cover.get_solution_count(matrix))  # counts all: no limit to give it


PEERS: dict[str, Callable[[int, int, list[list[int]], int | None], int]] = {
    "xcover": xcover_count,
    "exact-cover": exact_cover_count,
}


def _peer_row(
    count: Callable[[int, int, list[list[int]], int | None], int],
    problems: list[tuple[int, int, list[list[int]]]],
    limit: int | None,
    single: bool,
) -> int:
    """One peer on one row: covers found (for a uniqueness row, the puzzles with one)."""
    answers = [count(*problem, limit) for problem in problems]
    return sum(a == 1 for a in answers) if single else sum(answers)


def run_peers(path: str, repeat: int) -> None:
    """In the peer environment: time each peer on each row of ``path``; print JSON."""
    rows = json.loads(Path(path).read_text())
    xcover_count(2, 0, [[0], [1], [0, 1]], None)  # warm numba's JIT (compiled on first call)
    timings: dict[str, dict[str, Any]] = {}
    for matrix in rows:
        problems = peer_problems(matrix)
        single = matrix["limit"] == 2  # a uniqueness proof: count the ones with one solution
        for peer, count in PEERS.items():
            run = partial(_peer_row, count, problems, matrix["limit"], single)
            try:
                seconds, answer = best_cpu(run, repeat)
                timings.setdefault(matrix["name"], {})[peer] = {
                    "seconds": seconds,
                    "answer": answer,
                }
            except Exception as error:  # a peer that cannot take the row says why
                timings.setdefault(matrix["name"], {})[peer] = {"error": str(error)}
    print(json.dumps(timings))


# ---------------------------------------------------------------- the C DLX (bench/c_dlx/dlx.c)


class CDlxRun(NamedTuple):
    """The C DLX's line for one problem: solutions counted, search nodes, updates, the
    search's CPU seconds and those of reading and linking the matrix before it."""

    solutions: int
    nodes: int
    updates: int
    seconds: float
    setup_seconds: float


def c_compiler() -> str | None:
    """The C compiler to build the C DLX with: ``$CC``, else the first of cc, gcc, clang."""
    named = os.environ.get("CC")
    if named:
        return shutil.which(named)
    return next(filter(None, map(shutil.which, ("cc", "gcc", "clang"))), None)


def c_dlx_binary(builds: Path = C_DLX_BUILDS) -> tuple[Path | None, str]:
    """The compiled C DLX (``cc -O2``, once per version of its source, kept in ``builds``) and
    a note; (None, why) when there is no C compiler or the compile fails."""
    compiler = c_compiler()
    if compiler is None:
        return None, "no C compiler found (set CC): the C DLX column is left out"
    source = C_DLX_SOURCE.read_bytes()
    binary = builds / f"dlx-{hashlib.sha256(source).hexdigest()[:16]}"
    if binary.exists():
        return binary, f"C DLX: {binary}"
    builds.mkdir(parents=True, exist_ok=True)
    # A name of this process's own, renamed into place whole: two runs may compile at once.
    building = builds / f"{binary.name}.{os.getpid()}.tmp"
    command = [compiler, "-O2", "-o", str(building), str(C_DLX_SOURCE)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        building.unlink(missing_ok=True)
        return None, f"the C DLX did not compile ({' '.join(command)}):\n{done.stderr}"
    building.replace(binary)
    return binary, f"C DLX: compiled {binary} with {compiler} -O2"


def c_dlx_input(problems: Sequence[tuple[int, int, list[list[int]]]], limit: int | None) -> str:
    """The C DLX's stdin: per problem a line ``primary secondary options limit`` (0: all),
    then one line per option, its length and its items."""
    lines = []
    for primary, secondary, options in problems:
        lines.append(f"{primary} {secondary} {len(options)} {limit or 0}")
        lines.extend(" ".join(map(str, (len(option), *option))) for option in options)
    return "\n".join(lines) + "\n"


def run_c_dlx(
    binary: Path, problems: Sequence[tuple[int, int, list[list[int]]]], limit: int | None
) -> list[CDlxRun]:
    """The C DLX on each problem, in one process."""
    done = subprocess.run(
        [str(binary)], input=c_dlx_input(problems, limit), capture_output=True, text=True
    )
    if done.returncode != 0:
        raise RuntimeError(f"the C DLX failed: {done.stderr.strip()}")
    runs = []
    for line in done.stdout.splitlines():
        count, nodes, updates, seconds, setup = line.split()
        runs.append(CDlxRun(int(count), int(nodes), int(updates), float(seconds), float(setup)))
    if len(runs) != len(problems):
        raise RuntimeError(f"the C DLX answered {len(runs)} of {len(problems)} problems")
    return runs


def c_dlx_timing(binary: Path, matrix: Matrix, repeat: int) -> dict[str, Any]:
    """The C DLX on one row, as the other peers report it (answer, least search seconds of
    ``repeat`` runs, summed over a row's problems), with its search nodes and the seconds
    (of that run) of reading and linking the matrices."""
    problems = peer_problems(matrix)
    best: tuple[float, float] = (float("inf"), 0.0)
    runs: list[CDlxRun] = []
    for _ in range(repeat):
        runs = run_c_dlx(binary, problems, matrix["limit"])
        seconds = sum(run.seconds for run in runs), sum(run.setup_seconds for run in runs)
        best = min(best, seconds)
    counts = [run.solutions for run in runs]
    return {
        "seconds": best[0],
        "setup_seconds": best[1],
        "answer": sum(c == 1 for c in counts) if matrix["limit"] == 2 else sum(counts),
        "nodes": sum(run.nodes for run in runs),
    }


# ---------------------------------------------------------------- the hard Sudoku set


def hard_generated_grids(seeds: range, keep: int) -> list[str]:
    """Of the expert 9x9 puzzles pysolver's generator makes for ``seeds`` (givens without
    symmetry: fewer of them, harder to search), the ``keep`` whose proof of uniqueness takes a
    plain DLX (pysolver's dlx engine, the C DLX's very tree) the most search nodes on the peers'
    matrix; ties to the lower seed; in seed order. Graded "expert" by human techniques, the
    generator's puzzles are mostly easy to search (median 127 nodes against top95's 579), hence
    the choice of the hardest."""
    from pysolver import solve
    from pysolver.engines.cover import ExactCoverProblem, search

    scored = []
    for seed in seeds:
        request = {"kind": "sudoku", "mode": "generate", "seed": seed, "difficulty": "expert"}
        made = solve({**request, "symmetry": "none", "puzzle": {"size": 9}})
        grid = made["puzzle"]["grid"]
        if not isinstance(grid, str):
            grid = "".join(str(value or ".") for row in grid for value in row)
        items, options = sudoku_matrix(grid)
        nodes = search(ExactCoverProblem(items, 0, options), "dlx", limit=2).stats["nodes"]
        scored.append((-nodes, seed, grid))
    chosen = sorted(scored)[:keep]
    return [grid for _, _, grid in sorted(chosen, key=lambda entry: entry[1])]


# ---------------------------------------------------------------- issue 36's suite


def langford_problem(pairs: int) -> Any:
    """Langford pairs as exact cover: items 0 .. n-1 the numbers 1 .. n, then the 2n positions;
    number k sits at positions i and i + k + 1 (both orientations counted: n = 11 has 35,584)."""
    from pysolver.engines.cover import ExactCoverProblem

    options = [
        [k - 1, pairs + i, pairs + i + k + 1]
        for k in range(1, pairs + 1)
        for i in range(2 * pairs - k - 1)
    ]
    return ExactCoverProblem(pairs, 2 * pairs, options)


def queens_matrix(size: int) -> Any:
    """N queens: rows and columns primary, the diagonals secondary (Knuth's example)."""
    from pysolver.engines.cover import ExactCoverProblem

    diagonals = 2 * size - 1
    options = [
        [row, size + col, 2 * size + row + col, 2 * size + diagonals + row - col + size - 1]
        for row in range(size)
        for col in range(size)
    ]
    return ExactCoverProblem(2 * size, 2 * diagonals, options)


def random_matrix(items: int, options: int, fewest: int, most: int, seed: int) -> Any:
    """``options`` options of ``fewest`` .. ``most`` distinct items of ``items``, from ``seed``."""
    from pysolver.engines.cover import ExactCoverProblem

    rng = random.Random(seed)
    rows = [sorted(rng.sample(range(items), rng.randint(fewest, most))) for _ in range(options)]
    return ExactCoverProblem(items, 0, rows)


SUITE_SEED = 36


def suite() -> list[tuple[str, Any, str, int | None]]:
    """Issue 36's seven matrices: name, problem, pysolver's default engine for a whole count,
    expected count (None for the random ones: every column must agree)."""
    from pysolver.kinds.polyomino import build_problem

    holed = ["." * 8] * 3 + ["...##..."] * 2 + ["." * 8] * 3
    return [
        ("6x10 pentominoes, X fixed", build_problem(SIX_BY_TEN, "distinct"), "memo", 2339),
        (
            "5x12 pentominoes, X fixed",
            build_problem({"board": ["." * 12] * 5, "pieces": ["pentominoes"]}, "distinct"),
            "memo",
            1308,
        ),
        (
            "8x8 centre hole, all",
            build_problem({"board": holed, "pieces": ["pentominoes"]}),
            "memo",
            520,
        ),
        ("Langford pairs n=11", langford_problem(11), "memo", 35584),
        ("12 queens, diagonals secondary", queens_matrix(12), "bitset", 14200),
        ("random 30x200, 2-4 items", random_matrix(30, 200, 2, 4, SUITE_SEED), "memo", None),
        ("random 30x200, 2-5 items", random_matrix(30, 200, 2, 5, SUITE_SEED), "memo", None),
    ]


def pysolver_count(problem: Any, engine: str, pure: bool) -> int:
    """A whole count by ``engine``, in pure Python or with the compiled walk."""
    from pysolver.engines.cover import search

    previous = os.environ.get("PYSOLVER_PURE")
    os.environ["PYSOLVER_PURE"] = "1" if pure else "0"
    try:
        return search(problem, engine, keep_solutions=False).count
    finally:
        if previous is None:
            del os.environ["PYSOLVER_PURE"]
        else:
            os.environ["PYSOLVER_PURE"] = previous


def run_suite(repeat: int) -> int:
    """Issue 36's table: per matrix the counts and CPU seconds of pure, fast, xcover and the
    C DLX, the ratios to xcover, the geometric means and the issue's targets."""
    from pysolver.engines.bitset import compiled_walk

    rows = suite()
    shared = [
        {
            "name": name,
            "primary": problem.primary,
            "secondary": problem.secondary,
            "options": problem.options,
            "limit": None,
            "expected": expected,
        }
        for name, problem, _, expected in rows
    ]
    timings: dict[str, dict[str, Any]] = {matrix["name"]: {} for matrix in shared}
    python = peer_python()
    if python is not None:
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
            json.dump(shared, file)
        command = [str(python), str(Path(__file__)), "--peer", file.name, "--repeat", str(repeat)]
        done = subprocess.run(command, capture_output=True, text=True)
        os.unlink(file.name)
        if done.returncode != 0:
            print(done.stderr, file=sys.stderr)
            return 1
        for name, peer_timings in json.loads(done.stdout.strip().splitlines()[-1]).items():
            timings[name].update(peer_timings)
    binary, note = c_dlx_binary()
    print(note)
    if binary is not None:
        for matrix in shared:
            timings[matrix["name"]][C_DLX] = c_dlx_timing(binary, matrix, repeat)
    fast = compiled_walk() is not None
    if fast:
        pysolver_count(langford_problem(3), "memo", pure=False)  # compile or load the kernel
    else:
        print("the compiled walk is not available (numba not installed, or PYSOLVER_PURE=1)")
    header = f"{'matrix':<32} {'count':>7} {'pure':>8} {'fast':>8} {'xcover':>8} {'C DLX':>8}"
    print(header + f" {'pure/xc':>8} {'fast/xc':>8} {'pure/C':>7} {'fast/C':>7}")
    wrong = False
    ratios: dict[str, list[float]] = {"pure": [], "fast": []}
    pure_of: dict[str, float] = {}
    for name, problem, engine, expected in rows:
        seconds: dict[str, float | None] = {}
        counts = set()
        pure_seconds, answer = best_cpu(partial(pysolver_count, problem, engine, True), repeat)
        seconds["pure"] = pure_seconds
        counts.add(answer)
        seconds["fast"] = None
        if fast:
            seconds["fast"], answer = best_cpu(
                partial(pysolver_count, problem, engine, False), repeat
            )
            counts.add(answer)
        for peer in ("xcover", C_DLX):
            timing = timings[name].get(peer, {})
            seconds[peer] = timing.get("seconds")
            if "answer" in timing and timing["answer"] != answer:
                print(f"{name}: {peer} counted {timing['answer']}, pysolver {answer}")
                wrong |= peer == C_DLX
        if len(counts) != 1 or (expected is not None and answer != expected):
            print(f"{name}: pysolver's counts {sorted(counts)}, expected {expected}")
            wrong = True
        pure_of[name] = pure_seconds

        def shown(value: float | None) -> str:
            return "-" if value is None else f"{value:.3f}"

        def ratio(top: float | None, bottom: float | None) -> str:
            return "-" if top is None or not bottom else f"{top / bottom:.2f}x"

        xcover = seconds["xcover"]
        for column in ratios:
            value = seconds[column]
            if value is not None and xcover:
                ratios[column].append(value / xcover)
        print(
            f"{name:<32} {answer:>7} "
            + " ".join(f"{shown(seconds[c]):>8}" for c in ("pure", "fast", "xcover", C_DLX))
            + f" {ratio(seconds['pure'], xcover):>8} {ratio(seconds['fast'], xcover):>8}"
            + f" {ratio(seconds['pure'], seconds[C_DLX]):>7}"
            + f" {ratio(seconds['fast'], seconds[C_DLX]):>7}"
        )
    for column, values in ratios.items():
        if values:
            mean = math.exp(sum(map(math.log, values)) / len(values))
            print(f"geometric mean of {column}/xcover: {mean:.2f}x")
    if ratios["pure"] and len(ratios["pure"]) == len(rows):
        pure = ratios["pure"]
        narrow = max(pure[0], pure[1])
        mean = math.exp(sum(map(math.log, pure)) / len(pure))
        print(
            f"targets: fast <= 0.5x xcover on every matrix: "
            f"{'met' if ratios['fast'] and max(ratios['fast']) <= 0.5 else 'NOT met'}; "
            f"pure geometric mean <= 2x: {'met' if mean <= 2 else 'NOT met'}; "
            f"pure 6x10 and 5x12 <= 0.8x: {'met' if narrow <= 0.8 else 'NOT met'}"
        )
    return 1 if wrong else 0


# ---------------------------------------------------------------- this process


def peer_python() -> Path | None:
    """The peers' Python, installing them on first use; None when skipped or not installable."""
    if os.environ.get("PYSOLVER_BENCH_PEERS", "1") == "0":
        return None
    if importlib.util.find_spec("xcover") is not None:
        return Path(sys.executable)  # installed here (exact-cover may be missing: says so)
    python = PEERS_VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(PEERS_VENV)], check=True)
    check = [str(python), "-c", "import xcover, exact_cover"]
    if subprocess.run(check, capture_output=True).returncode != 0:
        install = [str(python), "-m", "pip", "install", "-q", *PEER_PACKAGES]
        if subprocess.run(install).returncode != 0:
            print("peers not installed (pip failed): pysolver rows only", file=sys.stderr)
            return None
    return python


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="20 of each Sudoku set")
    parser.add_argument("--repeat", type=int, default=1, help="runs per row; the best is kept")
    parser.add_argument(
        "--write-hard-set",
        action="store_true",
        help=f"write {HARD_SET.relative_to(ROOT)} again (seeds {HARD_SEEDS.start}-"
        f"{HARD_SEEDS.stop - 1}, the {HARD_KEEP} hardest for a plain DLX) and stop",
    )
    parser.add_argument(
        "--suite", action="store_true", help="issue 36's seven matrices: pure, fast and peers"
    )
    parser.add_argument("--peer", metavar="FILE", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.peer:
        run_peers(args.peer, args.repeat)
        return 0
    if args.suite:
        return run_suite(args.repeat)
    if args.write_hard_set:
        grids = hard_generated_grids(HARD_SEEDS, HARD_KEEP)
        HARD_SET.write_text("".join(grid + "\n" for grid in grids))
        print(f"wrote {len(grids)} puzzles to {HARD_SET}")
        return 0
    rows = matrices(args.quick)
    shared: list[Matrix] = []
    for matrix, _, _ in rows:
        if all(matrix["name"] != other["name"] for other in shared):
            shared.append(matrix)
    python = peer_python()
    peers: dict[str, dict[str, Any]] = {matrix["name"]: {} for matrix in shared}
    if python is not None:
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
            json.dump(shared, file)
        command = [
            str(python),
            str(Path(__file__)),
            "--peer",
            file.name,
            "--repeat",
            str(args.repeat),
        ]
        done = subprocess.run(command, capture_output=True, text=True)
        os.unlink(file.name)
        if done.returncode != 0:
            print(done.stderr, file=sys.stderr)
            return 1
        for name, timings in json.loads(done.stdout.strip().splitlines()[-1]).items():
            peers[name].update(timings)
    binary, note = c_dlx_binary()
    print(note)
    if binary is not None:
        for matrix in shared:
            try:
                peers[matrix["name"]][C_DLX] = c_dlx_timing(binary, matrix, args.repeat)
            except RuntimeError as error:
                peers[matrix["name"]][C_DLX] = {"error": str(error)}
    columns = [*PEERS, C_DLX]
    print(
        f"{'row':<36} {'solver':<36} {'answer':>7} {'CPU s':>8} "
        + " ".join(f"{'vs ' + peer:>14}" for peer in columns)
    )
    wrong = False
    for matrix, run, label in rows:
        seconds, answer = best_cpu(run, args.repeat)
        wrong |= answer != matrix["expected"]
        ratios = []
        for peer in columns:
            timing = peers[matrix["name"]].get(peer, {})
            ratios.append(f"{seconds / timing['seconds']:.2f}x" if timing.get("seconds") else "-")
        print(
            f"{matrix['name']:<36} {label:<36} {answer:>7} {seconds:>8.2f} "
            + " ".join(f"{ratio:>14}" for ratio in ratios)
        )
    expected = {matrix["name"]: matrix["expected"] for matrix in shared}
    for name, timings in peers.items():
        for peer, timing in timings.items():
            if "seconds" not in timing:
                print(f"{name:<36} {peer:<36} error: {timing['error']}")
                continue
            shown = f"{timing['answer']:>7} {timing['seconds']:>8.3f}"
            if "nodes" in timing:
                shown += (
                    f"  {timing['nodes']:,} search nodes; reading and linking the matrices "
                    f"{timing['setup_seconds']:.3f} s more"
                )
            if timing["answer"] != expected[name]:
                # The repository's own C DLX must agree; the installed peers are only flagged.
                wrong |= peer == C_DLX
                shown += f"  WRONG (expected {expected[name]})"
            print(f"{name:<36} {peer:<36} {shown}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
