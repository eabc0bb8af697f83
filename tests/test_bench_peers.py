"""The benchmark's plain C DLX (bench/c_dlx/dlx.c, run by bench/peers.py) checked on its own:
its counts against brute force and pysolver's engines on small random matrices with primary
and secondary items, with and without a limit; its search nodes against pysolver's dlx engine,
which walks the same tree (MRV, first on ties); its answers on the benchmark's Sudoku rows; and,
when the peers' environment is installed, xcover's counts on the same matrices.

The tests that run the C DLX are skipped without a C compiler. No timing is asserted here.
"""

from __future__ import annotations

import itertools
import json
import random
import subprocess
from pathlib import Path

import pytest

from bench import peers
from pysolver.engines.cover import ExactCoverProblem, search

Problem = tuple[int, int, list[list[int]]]


@pytest.fixture(scope="module")
def c_dlx(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if peers.c_compiler() is None:
        pytest.skip("no C compiler")
    binary, note = peers.c_dlx_binary(tmp_path_factory.mktemp("c-dlx"))
    assert binary is not None, note
    return binary


def random_problem(rng: random.Random) -> Problem:
    """A small matrix: up to 6 primary and 3 secondary items, up to 12 distinct options."""
    primary, secondary = rng.randint(1, 6), rng.randint(0, 3)
    items = primary + secondary
    options: set[tuple[int, ...]] = set()
    for _ in range(rng.randint(1, 12)):
        size = rng.randint(1, min(3, items))
        options.add(tuple(sorted(rng.sample(range(items), size))))
    return primary, secondary, [list(option) for option in sorted(options)]


def brute_force_count(primary: int, secondary: int, options: list[list[int]]) -> int:
    """Sets of options covering each primary item exactly once and each secondary at most once;
    as in Knuth's algorithm, an option of secondary items alone is never part of one (nothing
    makes it needed, and counting it would double the covers it fits into)."""
    usable = [option for option in options if min(option) < primary]
    found = 0
    for size in range(len(usable) + 1):
        for chosen in itertools.combinations(usable, size):
            used = [item for option in chosen for item in option]
            if len(used) == len(set(used)) and set(range(primary)) <= set(used):
                found += 1
    return found


RANDOM_PROBLEMS = [random_problem(random.Random(seed)) for seed in range(300)]


def test_random_matrices_agree_with_brute_force_and_pysolver(c_dlx: Path) -> None:
    runs = peers.run_c_dlx(c_dlx, RANDOM_PROBLEMS, None)
    counts = [run.solutions for run in runs]
    assert counts == [brute_force_count(*problem) for problem in RANDOM_PROBLEMS]
    assert sum(counts) > 0 and counts.count(0) > 0  # both kinds of matrix are in the sample
    for problem, run in zip(RANDOM_PROBLEMS, runs, strict=True):
        for engine in ("dlx", "bitset"):
            result = search(ExactCoverProblem(*problem), engine, keep_solutions=False)
            assert result.count == run.solutions, (engine, problem)
        # The same tree as pysolver's dlx engine, node for node.
        assert search(ExactCoverProblem(*problem), "dlx").stats["nodes"] == run.nodes, problem


def test_a_limit_stops_the_count(c_dlx: Path) -> None:
    many = [problem for problem in RANDOM_PROBLEMS if brute_force_count(*problem) >= 2]
    assert many
    assert [run.solutions for run in peers.run_c_dlx(c_dlx, many, 1)] == [1] * len(many)
    for problem, run in zip(many, peers.run_c_dlx(c_dlx, many, 2), strict=True):
        assert run.solutions == 2
        assert search(ExactCoverProblem(*problem), "dlx", limit=2).stats["nodes"] == run.nodes


def test_secondary_items_are_covered_at_most_once(c_dlx: Path) -> None:
    # Primary 0 and 1; secondary 2. {0,2} and {1,2} clash on 2, so only {0,2}+{1} and {0}+{1,2}
    # and {0}+{1}: three covers; the option {2} of a secondary item alone is never chosen.
    problem = (2, 1, [[0, 2], [1, 2], [0], [1], [2]])
    assert brute_force_count(*problem) == 3
    (run,) = peers.run_c_dlx(c_dlx, [problem], None)
    assert run.solutions == 3
    assert run.updates > 0 and run.seconds >= 0 and run.setup_seconds >= 0


def test_malformed_input_is_refused(c_dlx: Path) -> None:
    for text in ("2 0 1 0\n1 5\n", "2 0 1 0\n2 0 0\n", "2 0 1\n"):
        done = subprocess.run([str(c_dlx)], input=text, capture_output=True, text=True)
        assert done.returncode == 2 and done.stderr.startswith("dlx: "), text


@pytest.mark.parametrize("data", [peers.TOP95, peers.HARD_SET], ids=lambda path: path.name)
def test_sudoku_rows_are_unique_with_pysolvers_nodes(c_dlx: Path, data: Path) -> None:
    grids = data.read_text().split()
    matrix = {"name": data.name, "grids": grids, "limit": 2, "expected": len(grids)}
    timing = peers.c_dlx_timing(c_dlx, matrix, repeat=1)
    assert timing["answer"] == len(grids)  # every puzzle has exactly one solution
    problems = peers.peer_problems(matrix)[:10]
    for problem, run in zip(problems, peers.run_c_dlx(c_dlx, problems, 2), strict=True):
        result = search(ExactCoverProblem(*problem), "dlx", limit=2)
        assert (result.count, result.stats["nodes"]) == (run.solutions, run.nodes)


def test_hard_set_keeps_the_puzzles_a_plain_dlx_finds_hardest(c_dlx: Path) -> None:
    grids = peers.HARD_SET.read_text().split()
    assert len(grids) == peers.HARD_KEEP == len(set(grids))
    # The rule on a few seeds: the kept ones take the C DLX at least as many nodes as any other.
    kept = peers.hard_generated_grids(range(6), 2)
    every = peers.hard_generated_grids(range(6), 6)
    assert len(kept) == 2 and set(kept) < set(every)
    problems = [(324, 0, peers.sudoku_matrix(grid)[1]) for grid in every]
    runs = peers.run_c_dlx(c_dlx, problems, 2)
    nodes = {grid: run.nodes for grid, run in zip(every, runs, strict=True)}
    assert min(nodes[grid] for grid in kept) >= max(
        nodes[grid] for grid in every if grid not in kept
    )
    assert kept == [grid for grid in every if grid in kept]  # in seed order


def peer_python() -> Path | None:
    python = peers.PEERS_VENV / "bin" / "python"
    check = [str(python), "-c", "import xcover"]
    if python.exists() and subprocess.run(check, capture_output=True).returncode == 0:
        return python
    return None


@pytest.mark.slow
@pytest.mark.skipif(peer_python() is None, reason="the peers' environment is not installed")
def test_xcover_counts_the_same(c_dlx: Path, tmp_path: Path) -> None:
    # xcover 0.2.6 raises on a matrix of one option ("pop from empty list"): those are left out.
    chosen = [problem for problem in RANDOM_PROBLEMS[:80] if len(problem[2]) > 1]
    rows = [
        {"name": str(n), "primary": p, "secondary": s, "options": o, "limit": None}
        for n, (p, s, o) in enumerate(chosen)
    ]
    path = tmp_path / "rows.json"
    path.write_text(json.dumps(rows))
    command = [str(peer_python()), str(Path(peers.__file__)), "--peer", str(path)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    answers = json.loads(done.stdout.strip().splitlines()[-1])
    c_counts = [run.solutions for run in peers.run_c_dlx(c_dlx, chosen, None)]
    assert [answers[str(n)]["xcover"]["answer"] for n in range(len(chosen))] == c_counts


def test_without_a_compiler_the_column_is_left_out_with_a_note(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CC", "no-such-c-compiler")
    assert peers.c_compiler() is None
    binary, note = peers.c_dlx_binary(tmp_path)
    assert binary is None and "no C compiler" in note
    assert list(tmp_path.iterdir()) == []
