"""Parallel search (``"jobs": N``): subtree tasks merged into exactly the serial answer."""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from bench.bench_parallel import exact_cover as matrix_request
from bench.generators import shikaku_puzzle
from pysolver import api, budget, parallel
from pysolver.engines import bitset, memo, memo_levels, memo_tasks, monitor
from pysolver.engines.cover import ExactCoverProblem
from pysolver.midend.registry import kind
from pysolver.parallel import dask_cluster, processes
from pysolver.protocol import parse_query
from tests.dask_local import count_by_levels_on_dask, local_cluster
from tests.test_memo import random_tiling_problems
from tests.test_memo_levels import random_narrow_puzzle

REPO = Path(__file__).resolve().parent.parent

HOLE_8X8 = ["........"] * 3 + ["...##...", "...##..."] + ["........"] * 3


def pentominoes(board: list[str], mode: str = "count", **fields) -> dict:
    # bitset by default: its tasks are cuts of the serial search (a memo count's are cut in
    # the memo walk's own tree, below its root orbits: memo_tasks).
    puzzle = {"board": board, "pieces": ["pentominoes"]}
    return {"kind": "polyomino", "mode": mode, "engine": "bitset", "puzzle": puzzle, **fields}


def trominoes_once_l3(board: list[str]) -> dict:
    """A memo count of ``board`` with L3 once (a piece used once: the root's orbits are made of
    its placements), then I3 trominoes and monominoes to fill it."""
    area = sum(line.count(".") for line in board)
    pieces = ["L3"] + ["I3"] * ((area - 3) // 3) + ["M1"] * ((area - 3) % 3)
    puzzle = {"board": board, "pieces": pieces}
    return {"kind": "polyomino", "mode": "count", "engine": "memo", "puzzle": puzzle}


def exact_cover_request(rng: random.Random, mode: str, engine: str) -> dict:
    """A random matrix as an exact_cover request (names, so it survives JSON as it is)."""
    primary = rng.randint(1, 7)
    secondary = rng.randint(0, 3)
    names = [f"p{i}" for i in range(primary)] + [f"s{i}" for i in range(secondary)]
    options = [
        rng.sample(names, rng.randint(1, min(3, len(names)))) for _ in range(rng.randint(0, 14))
    ]
    puzzle = {"items": names[:primary], "secondary": names[primary:], "options": options}
    return {"kind": "exact_cover", "mode": mode, "limit": None, "engine": engine, "puzzle": puzzle}


def coloured_request(problem: ExactCoverProblem, mode: str, engine: str, limit=None) -> dict:
    """A coloured matrix as an exact_cover request: items by name, colours written ``x:c2``."""
    names = [f"p{i}" for i in range(problem.primary)]
    names += [f"s{i}" for i in range(problem.secondary)]
    colours = problem.colours or [[0] * len(option) for option in problem.options]
    options = [
        [names[item] + (f":c{colour}" if colour else "") for item, colour in zip(o, c, strict=True)]
        for o, c in zip(problem.options, colours, strict=True)
    ]
    puzzle = {"items": names[: problem.primary], "secondary": names[problem.primary :]}
    puzzle["options"] = options
    return {"kind": "exact_cover", "mode": mode, "limit": limit, "engine": engine, "puzzle": puzzle}


def same_answer(serial: dict, merged: dict) -> None:
    assert merged["ok"], merged
    assert (merged["count"], merged["complete"]) == (serial["count"], serial["complete"])
    assert merged["solutions"] == serial["solutions"]
    assert merged.get("colors") == serial.get("colors")


# ---------------------------------------------------------------- equal to serial


@pytest.mark.parametrize("engine", ["dlx", "bitset"])
@pytest.mark.parametrize("tasks_per_job", [1, 2, 5])
@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_random_matrices_match_serial(engine, tasks_per_job, jobs):
    rng = random.Random(11 + jobs)
    runner = parallel.InlineRunner(api.answer_task, tasks_per_job)
    for _ in range(60):
        for mode in ("solve", "count"):
            request = exact_cover_request(rng, mode, engine)
            serial = api.solve(request)
            merged = api.solve(dict(request, jobs=jobs), runner=runner)
            same_answer(serial, merged)


@pytest.mark.parametrize("engine", ["dlx", "bitset"])
@pytest.mark.parametrize("tasks_per_job", [1, 4])
@pytest.mark.parametrize("jobs", [2, 3])
def test_coloured_matrices_match_serial_with_their_colours(
    engine, tasks_per_job, jobs, coloured_reference_covers, all_word_squares
):
    runner = parallel.InlineRunner(api.answer_task, tasks_per_job)
    problems = [problem for problem, _covers in coloured_reference_covers[jobs::7][:80]]
    problems.append(all_word_squares(2, 3))  # 81 squares, cells coloured by letters
    coloured = 0
    for problem in problems:
        for mode, limit in (("solve", None), ("solve", 3), ("count", None)):
            request = coloured_request(problem, mode, engine, limit)
            serial = api.solve(request)
            merged = api.solve(dict(request, jobs=jobs), runner=runner)
            same_answer(serial, merged)
            coloured += any(serial.get("colors", []))
    assert coloured >= 40  # the answers do carry colours
    squares = api.solve(dict(coloured_request(problems[-1], "solve", engine), jobs=jobs))
    assert squares["parallel"]["tasks"] > 1 and len(squares["colors"]) == 81


@pytest.mark.parametrize("limit", [1, 2, 5, 9])
def test_solve_with_a_limit_gives_the_first_solutions_in_serial_order(limit):
    rng = random.Random(5)
    for _ in range(40):
        request = dict(exact_cover_request(rng, "solve", "dlx"), limit=limit)
        serial = api.solve(request)
        merged = api.solve(request, runner=parallel.InlineRunner(api.answer_task, 4))
        same_answer(serial, merged)


@pytest.mark.parametrize(
    ("tasks_per_job", "symmetry"),
    # Distinct tilings over four tasks a job: seconds of symmetry reduction, left to the slow run.
    [(1, "all"), (4, "all"), (1, "distinct"), pytest.param(4, "distinct", marks=pytest.mark.slow)],
)
def test_pentominoes_3x20_solutions_match_serial(tasks_per_job, symmetry):
    request = pentominoes(["." * 20] * 3, mode="solve", limit=None, symmetry=symmetry)
    serial = api.solve(request)
    assert serial["count"] == (8 if symmetry == "all" else 2)
    merged = api.solve(
        dict(request, jobs=3), runner=parallel.InlineRunner(api.answer_task, tasks_per_job)
    )
    same_answer(serial, merged)


@pytest.mark.parametrize(("symmetry", "expected"), [("all", 520), ("distinct", 65)])
def test_pentominoes_8x8_with_a_hole_on_worker_processes(symmetry, expected):
    request = pentominoes(HOLE_8X8, symmetry=symmetry, jobs=2)
    merged = api.solve(request)  # jobs 2: the default pool of worker processes
    assert (merged["count"], merged["complete"]) == (expected, True)
    assert merged["parallel"]["executor"] == "processes"
    assert merged["parallel"]["tasks"] >= 2


def test_memo_counts_split_below_the_board_symmetry_close_to_the_serial_nodes():
    # Issue 31: the memo count's tasks are cut below its root orbits (weighted by orbit
    # size) and each worker keeps its memo across its tasks: the merged count is the serial
    # one, and the tasks' nodes sum close to the serial walk's (plain cuts summed 4.5x).
    memo_tasks.forget()
    inline = parallel.InlineRunner(api.answer_task)
    for symmetry, expected in (("all", 520), ("distinct", 65)):
        memo_count = pentominoes(HOLE_8X8, symmetry=symmetry, jobs=2, engine="memo")
        serial = api.solve(dict(memo_count, jobs=1))
        merged = api.solve(memo_count, runner=inline)
        memo_tasks.forget()
        assert (merged["engine"], merged["count"], merged["complete"]) == ("memo", expected, True)
        assert merged["parallel"]["executor"] == "inline" and merged["parallel"]["tasks"] > 2
        assert merged["stats"]["nodes"] <= 1.5 * serial["stats"]["nodes"]


@pytest.mark.parametrize("seed", [5, 6])
def test_memo_counts_of_random_matrices_and_boards_match_serial(seed):
    # parallel = serial on the memo count's own split, with and without symmetry: random
    # exact cover matrices, and small boards (squares have symmetries, a hole may break them).
    rng = random.Random(seed)
    runner = parallel.InlineRunner(api.answer_task, 3)
    requests = [exact_cover_request(rng, "count", "memo") for _ in range(30)]
    for _ in range(8):
        side = rng.randint(3, 5)
        board = ["." * side for _ in range(side)]
        if rng.random() < 0.5:
            row = rng.randrange(side)
            board[row] = "#" + board[row][1:]
        requests.append(trominoes_once_l3(board))
    for request in requests:
        serial = api.solve(request)
        merged = api.solve(dict(request, jobs=2), runner=runner)
        assert merged["ok"], merged
        assert (merged["count"], merged["complete"]) == (serial["count"], serial["complete"])
    memo_tasks.forget()


def memo_task_walks(problem: ExactCoverProblem, groups: int) -> list[tuple[int, int, Any]]:
    """(count, nodes, kernel) of each task of the memo count's split of ``problem``, its tasks
    dealt to ``groups`` workers in turn, each keeping its memo across its tasks (a fresh
    memo per worker, as a worker process has)."""
    split = memo_tasks.split(problem, 12)
    answers: list[tuple[int, int, Any]] = []
    for group in range(groups):
        memo_tasks.forget()
        for subtree in split.subtrees[group::groups]:
            result = memo_tasks.count_below(problem, subtree.path, monitor.Monitor())
            assert result.complete
            answers.append((result.count, result.stats["nodes"], result.stats.get("kernel")))
    memo_tasks.forget()
    return answers


@pytest.mark.parametrize("groups", [1, 2, 3])
def test_compiled_memo_tasks_walk_the_pure_tasks_trees(monkeypatch, groups):
    # Issue 31: with the compiled walk on, a worker counts its memo tasks compiled (before,
    # in Python while the serial count ran compiled: jobs 2 was 1.4-3x slower than jobs 1),
    # keeping the kernel's memo table across its tasks. Same counts and the same nodes as the
    # pure tasks, task by task; the tasks add up to the serial count (random tilings: boards
    # with and without symmetry, holes; random matrices without cells).
    pytest.importorskip("numba")
    rng = random.Random(31)
    problems = random_tiling_problems(14, 31)
    for _ in range(10):
        request = exact_cover_request(rng, "count", "memo")
        problems.append(kind("exact_cover").prepare(request["puzzle"], parse_query(request)))
    matrices = [
        problem if isinstance(problem, ExactCoverProblem) else problem.plan.exact_cover()[0]
        for problem in problems
    ]
    for problem in matrices:
        serial = memo.count(problem, monitor.Monitor())
        monkeypatch.setenv("PYSOLVER_PURE", "1")
        pure = memo_task_walks(problem, groups)
        monkeypatch.delenv("PYSOLVER_PURE")
        compiled = memo_task_walks(problem, groups)
        assert [answer[:2] for answer in compiled] == [answer[:2] for answer in pure]
        assert sum(count for count, _, _ in compiled) == serial.count
        assert all(kernel is None for _, _, kernel in pure)
        assert all(kernel == "numba" for _, _, kernel in compiled)


@pytest.mark.parametrize("pure", ["1", "0"])
def test_memo_counts_on_worker_processes_match_serial_compiled_and_pure(monkeypatch, pure):
    # The workers run the compiled walk exactly when the serial count would: the parent's
    # PYSOLVER_PURE reaches them (forked by a fork server started with another environment,
    # they take the parent's). A matrix from an 8x8 board with a hole (the exact_cover kind:
    # no symmetry) and the board itself (the polyomino kind: its root orbits).
    pytest.importorskip("numba")
    monkeypatch.setenv("PYSOLVER_PURE", pure)
    tiling = {"board": HOLE_8X8, "pieces": ["pentominoes"]}
    problem = kind("polyomino").prepare(tiling, parse_query(pentominoes(HOLE_8X8)))
    matrix = problem.plan.exact_cover()[0]
    names = [f"i{item}" for item in range(matrix.items)]
    puzzle = {
        "items": names[: matrix.primary],
        "secondary": names[matrix.primary :],
        "options": [[names[item] for item in option] for option in matrix.options],
    }
    runner = parallel.ProcessRunner(2, api.answer_task)
    for request in (
        {"kind": "exact_cover", "mode": "count", "engine": "memo", "puzzle": puzzle},
        pentominoes(HOLE_8X8, engine="memo"),
    ):
        serial = api.solve(request)
        merged = api.solve(dict(request, jobs=2), runner=runner)
        assert merged["parallel"]["executor"] == "processes", merged["parallel"]
        assert (merged["count"], merged["complete"]) == (serial["count"], True) == (520, True)
        if request["kind"] == "exact_cover":  # its stats name the kernel that counted
            assert merged["stats"].get("kernel") == serial["stats"].get("kernel")
            assert merged["stats"].get("kernel") == (None if pure == "1" else "numba")


def test_a_compiled_search_about_to_end_runs_serially_on_the_worker_pool(monkeypatch):
    # The pool's serial start, where the tasks would run compiled: a search that ends before
    # its first progress report, or whose rest is predicted under SPLIT_PAYS_SECONDS, is
    # answered by the serial search (a split costs more: jobs 2 must not be clearly slower
    # than jobs 1). Made independent of the machine's speed here: a search ending at once,
    # then the threshold set to 0 (split whatever the prediction) and to a day (never split).
    if bitset.compiled_walk() is None:
        pytest.skip("the compiled walk is not installed")
    monkeypatch.delenv(parallel.SERIAL_START_VARIABLE)
    monkeypatch.setenv("PYSOLVER_PURE", "0")
    reports: list[dict] = []
    quick = pentominoes(["." * 20] * 3, jobs=2)  # 8 tilings, a few milliseconds
    answer = api.solve(quick, progress=reports.append)
    assert (answer["count"], answer["complete"]) == (8, True)
    assert answer["parallel"]["executor"] == "serial"
    assert "ran serially" in answer["parallel"]["note"]
    assert reports and reports[-1]["fraction"] == 1.0
    long_count = pentominoes(["." * 10] * 6, jobs=2, engine="bitset")  # compiled: ~1 s
    monkeypatch.setattr(parallel, "SPLIT_PAYS_SECONDS", 0.0)
    split = api.solve(long_count)
    assert (split["count"], split["complete"]) == (9356, True)
    assert split["parallel"]["executor"] == "processes"
    monkeypatch.setattr(parallel, "SPLIT_PAYS_SECONDS", 86400.0)
    reports.clear()
    serial = api.solve(long_count, progress=reports.append)
    assert (serial["count"], serial["complete"]) == (9356, True)
    assert serial["parallel"]["executor"] == "serial"
    fractions = [report["fraction"] for report in reports]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert not multiprocessing.active_children()


ANSWERED_HERE: list[dict] = []


def answer_recorded(text, cancel=None, progress=None):
    """api.answer_task, noting each subtree it answers (in the process it runs in)."""
    ANSWERED_HERE.append(json.loads(text)["subtree"])
    return api.answer_task(text, cancel=cancel, progress=progress)


def hole_matrix(**fields: Any) -> dict:
    """The 8x8 board with a hole as a bare exact cover matrix counted on memo (no cells: the
    memo walk's tasks, not the level count's lanes), 520 covers."""
    request = matrix_request(pentominoes(HOLE_8X8)["puzzle"])
    return dict(request, engine="memo", **fields)


@pytest.mark.parametrize(
    ("request_of", "count"),
    [(lambda: pentominoes(["." * 20] * 3, engine="bitset"), 8), (hole_matrix, 520)],
)
def test_a_pure_walk_is_split_with_this_process_answering_tasks_too(monkeypatch, request_of, count):
    # In pure Python the pool's process answers tasks beside its workers from the start
    # (ProcessRunner.run_here): a search about to end is answered (almost) all here, a long
    # one is split with nothing thrown away; either way exactly, with merged progress.
    monkeypatch.delenv(parallel.SERIAL_START_VARIABLE)
    monkeypatch.setenv("PYSOLVER_PURE", "1")
    ANSWERED_HERE.clear()
    reports: list[dict] = []
    request = dict(request_of(), jobs=2)
    answer = parallel.solve_split(
        request,
        parse_query(request, reports.append, None),
        kind(request["kind"]),
        parallel.ProcessRunner(2, answer_recorded),
        lambda: pytest.fail("a split request is not answered serially"),
    )
    assert (answer["count"], answer["complete"]) == (count, True), answer
    assert answer["parallel"]["executor"] == "processes"
    assert ANSWERED_HERE  # this process took tasks (the workers' notes stay in theirs)
    fractions = [report["fraction"] for report in reports]
    assert fractions == sorted(fractions)
    assert not multiprocessing.active_children()
    assert not memo_tasks._worker_memo  # this process let its memo go


@pytest.mark.parametrize("seed", [7, 8])
def test_random_matrices_and_boards_match_serial_with_this_process_answering_tasks(
    monkeypatch, seed
):
    # parallel = serial when the pool's process is one of the lanes (pure Python, the serial
    # start on): solve with limits, counts, memo counts of boards with and without symmetry.
    monkeypatch.delenv(parallel.SERIAL_START_VARIABLE)
    monkeypatch.setenv("PYSOLVER_PURE", "1")
    rng = random.Random(seed)
    runner = parallel.ProcessRunner(2, api.answer_task, tasks_per_job=3)
    requests = []
    for _ in range(8):
        engine = rng.choice(["dlx", "bitset", "memo"])
        mode = "count" if engine == "memo" else rng.choice(["solve", "count"])
        request = exact_cover_request(rng, mode, engine)
        request["limit"] = rng.choice([None, 1, 3])
        requests.append(request)
    for side, hole in ((4, False), (5, True), (6, False)):
        board = ["." * side for _ in range(side)]
        if hole:
            board[1] = ".#" + board[1][2:]
        requests.append(trominoes_once_l3(board))
    for request in requests:
        serial = api.solve(request)
        merged = api.solve(dict(request, jobs=2), runner=runner)
        same_answer(serial, merged)
    assert not multiprocessing.active_children()


def test_a_lane_takes_the_tasks_of_the_root_branches_it_ran_first():
    # A memo count's tasks share sub-boards below one root branch (Task.group): a lane takes
    # the first waiting task of a group it ran, else of a group no lane ran, else the first.
    groups = [(0, "a"), (0, "b"), (0, "a"), (0, "c"), (0, "b"), (0, "a")]
    tasks = [
        parallel.Task(index, {"subtree": {"branch": 0, "path": [index]}}, 1.0, group)
        for index, group in enumerate(groups)
    ]
    merger = parallel.Merger(tasks, 0.0, parse_query({"kind": "sudoku", "mode": "count"}))
    run = processes._TaskRun(parallel.ProcessRunner(2, api.answer_task), tasks, merger, False)
    first, second = object(), object()
    taken = [
        (lane, run.take(lane).index)
        for lane in (first, second, first, second, second, first, first)
        if run.waiting
    ]
    assert [index for _, index in taken] == [0, 1, 2, 4, 3, 5]
    ungrouped = [parallel.Task(index, {}, 1.0) for index in range(3)]
    run = processes._TaskRun(parallel.ProcessRunner(2, api.answer_task), ungrouped, merger, False)
    assert [run.take(lane).index for lane in (second, first, second)] == [0, 1, 2]


BUDGETS_SEEN: list[int] = []


def budget_noted(text, cancel=None, progress=None):
    """api.answer_task, noting the budget it answers within (in the process it runs in)."""
    BUDGETS_SEEN.append(budget.budget_bytes())
    return api.answer_task(text, cancel=cancel, progress=progress)


def test_this_process_answers_its_tasks_within_a_worker_s_share_of_the_budget(monkeypatch):
    # The process tree stays within the budget: the pool's process plans and merges in one
    # share and answers its tasks in another, as each worker does; its budget is whole after.
    monkeypatch.delenv(parallel.SERIAL_START_VARIABLE)
    monkeypatch.setenv("PYSOLVER_PURE", "1")
    BUDGETS_SEEN.clear()
    whole = budget.budget_bytes()
    request = hole_matrix(jobs=2)
    answer = api.solve(request, runner=parallel.ProcessRunner(2, budget_noted))
    assert (answer["count"], answer["complete"]) == (520, True)
    assert BUDGETS_SEEN and set(BUDGETS_SEEN) == {processes.worker_budget(2)} == {whole // 3}
    assert budget.budget_bytes() == whole


def interrupted_here(text, cancel=None, progress=None):
    """An answer_task that is interrupted (Ctrl-C without a handler) in the test's process."""
    if os.getpid() == INTERRUPTED_IN[0]:
        raise KeyboardInterrupt
    return api.answer_task(text, cancel=cancel, progress=progress)


INTERRUPTED_IN = [os.getpid()]


def test_an_interrupt_in_this_process_s_lane_ends_the_workers_and_is_raised(monkeypatch):
    monkeypatch.delenv(parallel.SERIAL_START_VARIABLE)
    monkeypatch.setenv("PYSOLVER_PURE", "1")
    INTERRUPTED_IN[0] = os.getpid()
    request = hole_matrix(jobs=2)  # no cells: the memo walk's tasks
    with pytest.raises(KeyboardInterrupt):
        api.solve(request, runner=parallel.ProcessRunner(2, interrupted_here))
    assert not multiprocessing.active_children()


def test_an_interrupt_while_this_process_expands_a_level_ends_the_workers(monkeypatch):
    monkeypatch.setenv("PYSOLVER_PURE", "1")
    monkeypatch.setattr(processes, "HERE_BELOW", 0)
    monkeypatch.setattr(processes, "ALONE_WHILE_STARTING_BELOW", 0)
    expand = memo_levels.LevelWalk.expand
    calls: list[int] = []

    def interrupted(self, part, lanes, monitor):
        calls.append(lanes)
        if len(calls) == 4:  # Ctrl-C without a handler, in this process's lane
            raise KeyboardInterrupt
        return expand(self, part, lanes, monitor)

    monkeypatch.setattr(memo_levels.LevelWalk, "expand", interrupted)
    with pytest.raises(KeyboardInterrupt):
        api.solve(four_by_fifteen(jobs=2))
    assert len(calls) == 4 and not multiprocessing.active_children()


@pytest.mark.parametrize("engine", ["memo", "bitset"])
def test_a_serial_start_stopped_before_its_search_began_is_split_exactly(monkeypatch, engine):
    # The serial start stopped while the search built its tables (they look at the cancel
    # too, and raise): the request is split, never answered by the stopped search (a
    # loaded machine's 6x10 count came back cut short once).
    monkeypatch.setenv(parallel.SERIAL_START_VARIABLE, "1e-9")
    for pure in ("1", "0"):
        monkeypatch.setenv("PYSOLVER_PURE", pure)
        answer = api.solve(pentominoes(HOLE_8X8, jobs=2, engine=engine))
        assert (answer["count"], answer["complete"]) == (520, True), answer
        assert "cancelled" not in answer


def test_a_cancel_during_the_serial_start_answers_the_partial_serial_count(monkeypatch):
    if bitset.compiled_walk() is None:
        pytest.skip("the compiled walk is not installed (pure walks start split)")
    monkeypatch.delenv(parallel.SERIAL_START_VARIABLE)
    monkeypatch.setenv("PYSOLVER_PURE", "0")
    monkeypatch.setattr(parallel, "SPLIT_PAYS_SECONDS", 86400.0)  # it runs on serially
    reports: list[dict] = []  # the first report passed on: the serial search runs on

    def cancel() -> bool:
        return bool(reports)

    request = pentominoes(["." * 10] * 6, jobs=2, engine="bitset")
    answer = api.solve(request, progress=reports.append, cancel=cancel)
    assert answer["cancelled"] is True and answer["complete"] is False
    assert answer["parallel"]["executor"] == "serial" and 0 <= answer["count"] < 9356


def test_a_cancel_while_this_process_answers_tasks_answers_the_partial_count(monkeypatch):
    monkeypatch.delenv(parallel.SERIAL_START_VARIABLE)
    monkeypatch.setenv("PYSOLVER_PURE", "1")
    reports: list[dict] = []

    def cancel() -> bool:
        return bool(reports)

    request = pentominoes(["." * 10] * 6, jobs=2, engine="memo")
    answer = api.solve(request, progress=reports.append, cancel=cancel)
    assert answer["cancelled"] is True and answer["complete"] is False
    assert answer["parallel"]["executor"] == "processes" and 0 <= answer["count"] < 9356
    assert not multiprocessing.active_children()


def test_a_request_run_serially_after_planning_reads_its_puzzle_once(monkeypatch):
    # Issue 23: a search that was not cut (a first choice too wide, dead at the
    # root) ran serially by reading and encoding the puzzle again (~1 s of CPU at 17 MB).
    reads = []
    for name in ("exact_cover", "polyomino", "sudoku"):
        module = kind(name).module
        monkeypatch.setattr(module, "prepare", counted(module.prepare, name, reads))
    wide = {"items": ["a"], "options": [["a"]] * 100}  # 100 first branches: too many to cut
    dead = {"items": ["a", "b"], "options": [["a"]]}  # b has no option: dead at the root
    inline = parallel.InlineRunner(api.answer_task)
    # The singles alone fill this Sudoku: no choice at the root (the page said "too many
    # branches" of it).
    singles = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    for request, count, note in [
        ({"kind": "exact_cover", "puzzle": wide}, 100, "too many branches"),
        ({"kind": "exact_cover", "puzzle": dead}, 0, "no subtree"),
        ({"kind": "sudoku", "puzzle": {"grid": singles}}, 1, "made no choice"),
    ]:
        reads.clear()
        response = api.solve(dict(request, mode="count", jobs=2), runner=inline)
        assert (response["count"], response["parallel"]["executor"]) == (count, "serial")
        assert note in response["parallel"]["note"]
        assert reads == [request["kind"]]


def counted(prepare, name: str, reads: list[str]):
    """A kind module's ``prepare`` that notes each call in ``reads``."""

    def prepare_counted(*args):
        reads.append(name)
        return prepare(*args)

    return prepare_counted


def test_pentominoes_8x8_solutions_in_serial_order_on_three_processes():
    request = pentominoes(HOLE_8X8, mode="solve", limit=30, symmetry="distinct")
    serial = api.solve(request)
    merged = api.solve(dict(request, jobs=3), runner=parallel.ProcessRunner(3, api.answer_task))
    same_answer(serial, merged)


@pytest.mark.slow
@pytest.mark.parametrize(("symmetry", "expected"), [("all", 9356), ("distinct", 2339)])
def test_pentominoes_6x10_counts_on_two_processes(symmetry, expected):
    merged = api.solve(pentominoes(["." * 10] * 6, symmetry=symmetry, jobs=2))
    assert (merged["count"], merged["complete"]) == (expected, True)
    assert merged["parallel"]["largest_task_share"] < 0.5


@pytest.mark.parametrize("engine", ["locked", "singles", "dlx", "bitset"])
def test_sudoku_with_many_solutions_matches_serial(engine):
    grid = (
        "1...5..9." "..8..2..." "...3....6" "..1...4.." ".9.....3." "..2...8.."
        "5....3..." "...8..6.." ".4..7...2"
    )  # fmt: skip
    request = {"kind": "sudoku", "mode": "solve", "limit": 40, "engine": engine}
    request["puzzle"] = {"grid": grid}
    serial = api.solve(request)
    assert serial["count"] == 40
    for jobs in (2, 3):
        merged = api.solve(dict(request, jobs=jobs), runner=parallel.InlineRunner(api.answer_task))
        same_answer(serial, merged)
        assert merged["unique"] is False
    counted = api.solve(
        dict(request, mode="count", limit=500, jobs=2),
        runner=parallel.InlineRunner(api.answer_task),
    )
    assert (counted["count"], counted["complete"]) == (500, False)


def test_two_solutions_in_different_tasks_are_not_unique():
    grid = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..6..82....26.95..8..2.3..9..5.1.3.."
    request = {"kind": "sudoku", "mode": "solve", "limit": 2, "puzzle": {"grid": grid}, "jobs": 2}
    tasks, _ = parallel.plan(request, parse_query(request), kind("sudoku"), 16)
    counts = [json.loads(api.answer_task(json.dumps(task.request)))["count"] for task in tasks]
    assert sorted(counts, reverse=True)[:2] == [1, 1]  # each task alone would say unique
    merged = api.solve(request, runner=parallel.InlineRunner(api.answer_task, 8))
    same_answer(api.solve(dict(request, jobs=1)), merged)
    assert merged["unique"] is False


def test_sudoku_uniqueness_is_decided_on_the_merged_answer():
    grid = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    request = {"kind": "sudoku", "mode": "solve", "limit": 2, "puzzle": {"grid": grid}}
    serial = api.solve(request)
    merged = api.solve(dict(request, jobs=2), runner=parallel.InlineRunner(api.answer_task))
    same_answer(serial, merged)
    assert merged["unique"] is True


@pytest.mark.parametrize(
    "request_",
    [
        {"kind": "sudoku", "engine": "dlx", "puzzle": {"grid": "." * 81}},
        {"kind": "sudoku", "puzzle": {"grid": "." * 81}},
        {"kind": "polyomino", "puzzle": pentominoes(["." * 10] * 6)["puzzle"]},
        {"kind": "shikaku", "engine": "propagate", "puzzle": shikaku_puzzle(12, 12, 3)},
        {"kind": "exact_cover", "engine": "dlx", "puzzle": {"text": "a b\na\nb\na b\n"}},
    ],
    ids=["sudoku dlx", "sudoku default", "polyomino", "shikaku", "exact cover"],
)
def test_a_request_over_the_memory_budget_is_refused_as_serially(request_, monkeypatch):
    # Planning checks the budget as solve does: one too_large answer, not an ok answer whose
    # every task failed with it.
    monkeypatch.setattr(budget, "BUDGET_BYTES", 1000)
    request = dict(request_, mode="count", limit=5)
    serial = api.solve(request)
    assert serial["ok"] is False and serial["error"]["code"] == "too_large"
    merged = api.solve(dict(request, jobs=2), runner=parallel.InlineRunner(api.answer_task))
    assert merged == serial


@pytest.mark.parametrize("engine", ["propagate", "dlx"])
@pytest.mark.parametrize("seed", range(4))
def test_shikaku_matches_serial(engine, seed):
    puzzle = shikaku_puzzle(6, 7, seed, max_area=6)
    request = {"kind": "shikaku", "mode": "solve", "limit": None, "engine": engine}
    request["puzzle"] = puzzle
    serial = api.solve(request)
    for tasks_per_job in (1, 4):
        merged = api.solve(
            dict(request, jobs=2), runner=parallel.InlineRunner(api.answer_task, tasks_per_job)
        )
        same_answer(serial, merged)


# ---------------------------------------------------------------- tasks are plain JSON


def test_tasks_survive_a_json_round_trip_and_answer_alike():
    request = pentominoes(HOLE_8X8, symmetry="distinct", jobs=2)
    query = parse_query(request)
    tasks, settled = parallel.plan(request, query, kind("polyomino"), 12)
    assert len(tasks) >= 12
    assert 0 <= settled < 1
    assert sum(task.weight for task in tasks) + settled == pytest.approx(1.0)
    total = 0
    for task in tasks:
        text = json.dumps(task.request)
        again = json.loads(text)
        assert again == task.request
        assert "jobs" not in again and set(again["subtree"]) == {"branch", "path"}
        answer = json.loads(api.answer_task(text))
        assert answer["ok"] and answer["complete"], answer
        total += answer["count"]
    assert total == 65


# ---------------------------------------------------------------- failures and stopping


def test_a_task_with_a_wrong_path_fails_alone_and_is_named():
    request = pentominoes(["." * 20] * 3, jobs=2)
    query = parse_query(request)
    tasks, settled = parallel.plan(request, query, kind("polyomino"), 4)
    lost = json.loads(api.answer_task(json.dumps(tasks[1].request)))["count"]
    broken = tasks[1].request["subtree"]
    broken["path"] = [*broken["path"], 10**6]
    merger = parallel.Merger(tasks, settled, query)
    parallel.InlineRunner(api.answer_task).run(tasks, merger)
    fields = merger.merged("inline", 2)
    assert fields["complete"] is False
    assert fields["count"] == 8 - lost  # a lower bound: the other tasks' tilings
    [failure] = fields["parallel"]["failed"]
    assert failure["task"] == 1
    assert failure["subtree"] == broken
    assert failure["error"]["code"] == "invalid_request"
    assert failure["error"]["path"].startswith("subtree.path[")


def test_a_task_whose_executor_raises_makes_the_answer_incomplete(monkeypatch):
    real_answer = api.answer_task

    def flaky(text, cancel=None, progress=None):
        if json.loads(text)["subtree"]["path"] == json.loads(text_of_failing)["subtree"]["path"]:
            raise ConnectionError("worker lost")
        return real_answer(text, cancel, progress)

    request = pentominoes(HOLE_8X8, jobs=2)
    tasks, _ = parallel.plan(request, parse_query(request), kind("polyomino"), 6)
    text_of_failing = json.dumps(tasks[2].request)
    merged = api.solve(request, runner=parallel.InlineRunner(flaky, 3))
    assert merged["ok"] and merged["complete"] is False
    assert merged["count"] < 520
    [failure] = merged["parallel"]["failed"]
    assert failure["subtree"] == tasks[2].request["subtree"]
    assert "worker lost" in failure["error"]["message"]


def test_subtree_requests_are_validated():
    base = pentominoes(["." * 20] * 3)
    cases = [
        ({"subtree": []}, "subtree"),
        ({"subtree": {"branch": -1}}, "subtree.branch"),
        ({"subtree": {"path": "x"}}, "subtree.path"),
        ({"subtree": {"deep": 1}}, "subtree.deep"),
        ({"subtree": {"branch": 7, "path": []}}, "subtree.branch"),
        ({"subtree": {"path": [10**6]}}, "subtree.path[0]"),
        ({"subtree": {"path": []}, "mode": "random"}, "subtree"),
        ({"subtree": {"path": []}, "mode": "trace"}, "subtree"),
    ]
    for fields, path in cases:
        response = api.solve({**base, **fields})
        assert not response["ok"], fields
        assert response["error"]["code"] == "invalid_request", response
        assert response["error"]["path"] == path, response


@pytest.mark.parametrize("jobs", [0, -2, "2", True, 1.5, 5000])
def test_jobs_must_be_a_sensible_whole_number(jobs):
    response = api.solve(pentominoes(["." * 20] * 3, jobs=jobs))
    assert not response["ok"]
    assert response["error"]["code"] == "invalid_request"
    assert response["error"]["path"] == "jobs"


def test_random_mode_runs_serially_and_says_so():
    request = pentominoes(HOLE_8X8, mode="random", limit=3, seed=4)
    serial = api.solve(request)
    merged = api.solve(dict(request, jobs=2))
    same_answer(serial, merged)
    assert merged["parallel"]["tasks"] == 1 and "random" in merged["parallel"]["note"]


def test_trace_mode_and_heatmaps_run_serially_and_say_so():
    board = ["." * 20] * 3
    traced = pentominoes(board, mode="trace", max_steps=50)
    serial = api.solve(traced)
    merged = api.solve(dict(traced, jobs=2))
    assert merged["steps"] == serial["steps"] and merged["truncated"] == serial["truncated"]
    assert merged["parallel"]["tasks"] == 1 and "trace" in merged["parallel"]["note"]
    mapped = pentominoes(board, heatmap=True)
    serial = api.solve(mapped)
    merged = api.solve(dict(mapped, jobs=2))
    assert (merged["count"], merged["heatmap"]) == (serial["count"], serial["heatmap"])
    assert merged["parallel"]["tasks"] == 1 and "heatmap" in merged["parallel"]["note"]


def test_kinds_without_split_run_serially_and_say_so():
    response = api.solve(
        {"kind": "domino", "mode": "count", "jobs": 2, "puzzle": {"rows": 4, "cols": 4}}
    )
    assert (response["count"], response["complete"]) == (36, True)
    assert response["parallel"]["tasks"] == 1 and "serially" in response["parallel"]["note"]


def test_cli_jobs_and_timeout_stop_the_workers_and_print_the_partial_answer(tmp_path):
    request = tmp_path / "6x10.json"
    request.write_text(json.dumps(pentominoes(["." * 10] * 6)))
    run = subprocess.run(
        [sys.executable, "-m", "pysolver", "solve", "--jobs", "2", "--timeout", "2", str(request)],
        # The pure walk: the compiled one counts 6x10 whole within the timeout.
        env={**os.environ, "PYTHONPATH": str(REPO), "PYSOLVER_PURE": "1"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 130, run.stderr
    response = json.loads(run.stdout)
    assert response["cancelled"] is True and response["complete"] is False
    assert response["parallel"]["executor"] == "processes"
    assert 0 <= response["count"] < 9356


def test_cancel_stops_every_worker_process(monkeypatch):
    # The pure walk: with a cold numba cache (a clean clone) the compiled one spends the first
    # seconds compiling, past the cancel, then counts 6x10 whole in a fraction of a second.
    monkeypatch.setenv("PYSOLVER_PURE", "1")
    started = time.monotonic()
    reports = []

    def cancel() -> bool:
        return time.monotonic() - started > 1.5

    merged = api.solve(pentominoes(["." * 10] * 6, jobs=2), progress=reports.append, cancel=cancel)
    assert merged["cancelled"] is True and merged["complete"] is False
    # Tasks left running would have finished the count (solve waits for its workers).
    assert merged["count"] < 9356
    fractions = [report["fraction"] for report in reports]
    assert fractions == sorted(fractions) and fractions[-1] < 1


def test_limit_stops_the_later_tasks(monkeypatch):
    request = pentominoes(["." * 10] * 6, mode="solve", limit=3)
    serial = api.solve(request)
    answered = []
    real_answer = api.answer_task

    def counting(text, cancel=None, progress=None):
        answered.append(text)
        return real_answer(text, cancel, progress)

    merged = api.solve(dict(request, jobs=2), runner=parallel.InlineRunner(counting))
    same_answer(serial, merged)
    # The first task holds the first 3 tilings: none after it is started.
    assert len(answered) == 1 < merged["parallel"]["tasks"]


def test_progress_is_merged_and_ends_at_one():
    reports = []
    merged = api.solve(
        pentominoes(HOLE_8X8, jobs=2),
        progress=reports.append,
        runner=parallel.InlineRunner(api.answer_task),
    )
    assert merged["count"] == 520
    fractions = [report["fraction"] for report in reports]
    assert fractions == sorted(fractions)
    assert reports[-1]["done"] and fractions[-1] == 1.0
    assert reports[-1]["solutions"] == 520


def test_merged_progress_passes_on_whole_recent_solutions(monkeypatch):
    # Tasks keep "recent": each decodes its solutions in the puzzle's terms (not the reduced
    # subproblem's), and the merged progress passes the latest one on.
    monkeypatch.setattr(monitor, "RECENT_INTERVAL", 0.0)
    monkeypatch.setattr(monitor.Monitor, "interval", 0.0)
    sent = []
    real_answer = api.answer_task

    def recording(text, cancel=None, progress=None):
        sent.append(json.loads(text))
        return real_answer(text, cancel, progress)

    reports = []
    request = {"kind": "sudoku", "mode": "count", "limit": 3000, "recent": True}
    request["puzzle"] = {"grid": "." * 81}
    merged = api.solve(
        dict(request, jobs=2), progress=reports.append, runner=parallel.InlineRunner(recording)
    )
    assert merged["count"] == 3000
    assert sent and all(task.get("recent") for task in sent)
    grids = [report["recent"] for report in reports if "recent" in report]
    assert grids
    digits = list(range(1, 10))
    for grid in grids:
        assert all(sorted(row) == digits for row in grid)
        assert all(sorted(column) == digits for column in zip(*grid, strict=True))


def test_a_dask_task_sends_recent_solutions_with_its_progress(monkeypatch):
    # The Dask task thins its progress out to two reports a second; the recent solution of a
    # dropped report still goes with the next one sent, as the other runners pass it on.
    distributed = pytest.importorskip(
        "distributed", reason="the dask extra is not installed (pysolver-studio[dask])"
    )
    monkeypatch.setattr(monitor, "RECENT_INTERVAL", 0.0)
    monkeypatch.setattr(monitor.Monitor, "interval", 0.0)
    sent = []

    class RecordingQueue:
        def __init__(self, name):
            self.name = name

        def put(self, item, timeout=None):
            sent.append(item)

    class NeverStop:
        def __init__(self, name):
            self.name = name

        def get(self, timeout=None):
            return 1  # tasks from index 1 on stop; this one is task 0

    monkeypatch.setattr(distributed, "Queue", RecordingQueue)
    monkeypatch.setattr(distributed, "Variable", NeverStop)
    request = {"kind": "sudoku", "mode": "count", "limit": 3000, "recent": True}
    request["puzzle"] = {"grid": "." * 81}
    answer = json.loads(
        dask_cluster.answer_on_dask(api.answer_task, 0, json.dumps(request), "pysolver-stop-test")
    )
    assert answer["count"] == 3000
    grids = [fields["recent"] for index, fields in sent if "recent" in fields]
    assert grids and all(index == 0 for index, _ in sent)
    digits = list(range(1, 10))
    for grid in grids:
        assert all(sorted(row) == digits for row in grid)
        assert all(sorted(column) == digits for column in zip(*grid, strict=True))


# ---------------------------------------------------------------- the memo count by levels


def four_by_fifteen(**fields: Any) -> dict:
    """The 1,472 pentomino tilings of 4x15 (symmetric ones included), counted on memo: a
    narrow board, which the memo count makes by levels on the runners' lanes."""
    return pentominoes(["." * 15] * 4, engine="memo", **fields)


def level_nodes(request: dict) -> int:
    """The nodes of the request's level count in this process alone."""
    problem = kind("polyomino").prepare(request["puzzle"], parse_query(request))
    [branch] = problem.plan.exact_cover() if problem.plan.exact_cover else []
    return int(memo_levels.count(branch, monitor.Monitor()).stats["nodes"])


def test_a_pure_memo_count_of_a_narrow_board_runs_by_levels_on_the_pool(monkeypatch):
    # Issue 31: each level is shared out by a hash of its sub-boards between this process
    # and the workers, so no sub-board is expanded twice: the nodes are the one-lane count's.
    monkeypatch.setenv("PYSOLVER_PURE", "1")
    monkeypatch.setattr(processes, "HERE_BELOW", 0)  # every level on both lanes
    monkeypatch.setattr(processes, "ALONE_WHILE_STARTING_BELOW", 0)
    monkeypatch.setattr(monitor.Monitor, "interval", 0.0)
    reports: list[dict] = []
    request = four_by_fifteen(jobs=2)
    answer = api.solve(request, progress=reports.append)
    assert (answer["count"], answer["complete"], answer["engine"]) == (1472, True, "memo")
    levels = answer["parallel"]
    assert levels["executor"] == "processes" and levels["jobs"] == 2
    assert levels["levels"] == {"lanes": 2, "sent": 12}
    assert levels["tasks"] == 12 and 0.5 <= levels["largest_task_share"] < 0.6
    assert "lost_lanes" not in levels
    assert answer["stats"]["nodes"] == level_nodes(request)
    fractions = [report["fraction"] for report in reports]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0 and len(fractions) >= 12
    assert not multiprocessing.active_children()


def test_a_cancelled_count_by_levels_stops_its_workers_with_a_partial_count(monkeypatch):
    monkeypatch.setenv("PYSOLVER_PURE", "1")
    monkeypatch.setattr(processes, "HERE_BELOW", 0)
    monkeypatch.setattr(processes, "ALONE_WHILE_STARTING_BELOW", 0)
    monkeypatch.setattr(monitor.Monitor, "interval", 0.0)
    reports: list[dict] = []
    answer = api.solve(
        four_by_fifteen(jobs=2), progress=reports.append, cancel=lambda: len(reports) > 4
    )
    assert (answer["cancelled"], answer["complete"]) == (True, False), answer
    assert 0 <= answer["count"] < 1472
    assert 4 <= answer["parallel"]["levels"]["sent"] < 12
    assert not multiprocessing.active_children()


def test_levels_go_on_here_while_the_workers_start_and_wait_for_them_when_wide(monkeypatch):
    # The workers start from a thread (the first waits for the fork server): this process
    # expands levels alone meanwhile, up to ALONE_WHILE_STARTING_BELOW sub-boards; a wider one
    # waits for them. 4x15's levels have at most 3,504: over 1,000 they wait.
    monkeypatch.setenv("PYSOLVER_PURE", "1")
    monkeypatch.setattr(processes, "HERE_BELOW", 0)
    monkeypatch.setattr(processes, "ALONE_WHILE_STARTING_BELOW", 1000)
    start = processes.WorkerPool.start

    def slow_start(self):
        time.sleep(1.0)
        return start(self)

    monkeypatch.setattr(processes.WorkerPool, "start", slow_start)
    request = four_by_fifteen(jobs=2)
    answer = api.solve(request)
    assert (answer["count"], answer["complete"]) == (1472, True)
    sent = answer["parallel"]["levels"]["sent"]
    assert 0 < sent < 12, answer["parallel"]  # the small first levels went on here
    assert answer["stats"]["nodes"] == level_nodes(request)
    assert not multiprocessing.active_children()


def test_a_worker_that_cannot_start_leaves_the_levels_here(monkeypatch):
    monkeypatch.setenv("PYSOLVER_PURE", "1")
    monkeypatch.setattr(processes, "HERE_BELOW", 0)

    def no_start(self):
        raise OSError("no processes left")

    monkeypatch.setattr(processes.WorkerPool, "start", no_start)
    answer = api.solve(four_by_fifteen(jobs=2))
    assert (answer["count"], answer["complete"]) == (1472, True)
    assert answer["parallel"]["levels"]["sent"] == 0
    assert "could not start (no processes left)" in answer["parallel"]["lost_lanes"][0]


def test_a_pure_request_with_jobs_starts_the_fork_server_before_it_is_read(monkeypatch):
    started: list[bool] = []
    monkeypatch.setattr(processes, "warm_up", lambda kernel=False: started.append(kernel))
    monkeypatch.setenv("PYSOLVER_PURE", "1")
    for request, starts in [
        ({"kind": "polyomino", "jobs": 2}, True),
        ({"kind": "polyomino", "jobs": 2, "mode": "count"}, True),
        ({"kind": "polyomino", "jobs": 1}, False),
        ({"kind": "sudoku", "jobs": 2, "mode": "generate"}, False),
        ({"kind": "polyomino", "jobs": True}, False),
        ("not a request", False),
    ]:
        started.clear()
        parallel.start_early(request)
        assert started == ([False] if starts else []), request
    # With the compiled walk (numba, no PYSOLVER_PURE) the server may need its kernel: it
    # starts once the request is read, as before.
    monkeypatch.setattr(parallel.bitset, "compiled_walk", lambda: object())
    started.clear()
    parallel.start_early({"kind": "polyomino", "jobs": 2})
    assert started == []
    # The midend asks before it reads the request, and only for its own worker processes.
    asked: list[object] = []
    monkeypatch.setattr(parallel, "start_early", asked.append)
    request = four_by_fifteen(jobs=2)
    api.solve(dict(request, puzzle={"board": ["."]}))  # refused once read: asked before
    assert asked == [dict(request, puzzle={"board": ["."]})]
    api.solve(request, runner=parallel.InlineRunner(api.answer_task))
    assert len(asked) == 1


def test_small_levels_stay_in_this_process(monkeypatch):
    # A level under HERE_BELOW sub-boards costs more to send than to expand: 4x15's widest
    # has 3,504, so no worker is given one.
    monkeypatch.setenv("PYSOLVER_PURE", "1")
    answer = api.solve(four_by_fifteen(jobs=2))
    assert answer["count"] == 1472
    assert answer["parallel"]["levels"] == {"lanes": 2, "sent": 0}
    assert answer["parallel"]["tasks"] == 0 and answer["parallel"]["largest_task_share"] == 1.0


def test_memo_counts_by_levels_and_in_tasks_agree_on_random_narrow_boards(monkeypatch):
    # parallel by levels = serial = the memo walk's tasks, pure Python, on boards the level
    # count takes (in tasks: compiled runners and the page's pool cut the same counts).
    monkeypatch.setenv("PYSOLVER_PURE", "1")
    monkeypatch.setattr(processes, "HERE_BELOW", 0)
    monkeypatch.setattr(processes, "ALONE_WHILE_STARTING_BELOW", 0)
    rng = random.Random(11)
    for _ in range(4):
        request = {"kind": "polyomino", "mode": "count", "engine": "memo"}
        request["puzzle"] = random_narrow_puzzle(rng)
        serial = api.solve(dict(request, jobs=1))
        by_levels = api.solve(dict(request, jobs=2))
        in_tasks = api.solve(dict(request, jobs=2), runner=parallel.InlineRunner(api.answer_task))
        assert by_levels["count"] == serial["count"] == in_tasks["count"], request
        assert "levels" in by_levels["parallel"] and "levels" not in in_tasks["parallel"]


# ---------------------------------------------------------------- a real Dask cluster


@pytest.mark.slow
def test_count_on_a_local_dask_cluster(tmp_path):
    pytest.importorskip(
        "distributed", reason="the dask extra is not installed (pysolver-studio[dask])"
    )
    with local_cluster(workers=2) as cluster:
        request = tmp_path / "hole.json"
        request.write_text(json.dumps(pentominoes(HOLE_8X8, symmetry="distinct")))
        run = subprocess.run(
            [
                *(sys.executable, "-m", "pysolver", "solve", "--progress"),
                *("--scheduler", cluster.address, str(request)),
            ],
            env=cluster.env,
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert run.returncode == 0, run.stderr
    response = json.loads(run.stdout)
    assert (response["count"], response["complete"]) == (65, True)
    assert response["parallel"]["executor"] == "dask"
    assert response["parallel"]["jobs"] == 2
    assert "100.00%" in run.stderr  # merged progress, ending when every task is done


@pytest.mark.slow
def test_a_memo_count_by_levels_on_a_local_dask_cluster(monkeypatch):
    # The levels stay on the workers (a sub-board goes from the lane that reached it to the
    # lane that owns it); this process gets each level's figures.
    count_by_levels_on_dask(monkeypatch)
    with local_cluster(workers=2) as cluster:
        runner = dask_cluster.DaskRunner(cluster.address, api.answer_task)
        try:
            request = four_by_fifteen(jobs=2)
            answer = api.solve(request, runner=runner)
        finally:
            runner.close()
    assert (answer["count"], answer["complete"]) == (1472, True)
    assert answer["parallel"]["executor"] == "dask"
    assert answer["parallel"]["levels"]["sent"] >= 10, answer["parallel"]
    assert "lost_lanes" not in answer["parallel"]
    assert answer["stats"]["nodes"] == level_nodes(request)


@pytest.mark.slow  # the client waits out its 10 s connection timeout
def test_scheduler_without_a_cluster_is_a_clear_usage_error(tmp_path):
    pytest.importorskip(
        "distributed", reason="the dask extra is not installed (pysolver-studio[dask])"
    )
    request = tmp_path / "small.json"
    request.write_text(json.dumps(pentominoes(["." * 20] * 3)))
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pysolver",
            "solve",
            "--scheduler",
            "tcp://127.0.0.1:9",
            str(request),
        ],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in run.stderr


# ---------------------------------------------------------------- a pool outside Python (the page)


def _pool_outside(request: dict, run=None) -> tuple[dict, dict]:
    """What web/runtime/pool.js does: plan, answer each task text with ``run``, merge.

    Returns (plan, merged).
    """
    from pysolver import protocol

    plan = json.loads(parallel.plan_text(json.dumps(request), api.solve))
    if "response" in plan:
        return plan, plan["response"]
    run = run or (lambda text: protocol.dumps(api.solve(text)))
    answers = ",".join(run(text) for text in plan["tasks"])
    payload = '{"request": ' + json.dumps(request) + ', "responses": [' + answers + "]}"
    return plan, json.loads(parallel.merge_text(payload, api.solve))


@pytest.mark.parametrize(
    "request_",
    [
        # The whole count of 520 tilings: seconds, left to the slow run.
        pytest.param(pentominoes(HOLE_8X8, jobs=2), marks=pytest.mark.slow),
        pentominoes(["." * 20] * 3, mode="solve", limit=None, jobs=3),
        dict(pentominoes(HOLE_8X8, mode="solve", limit=4), jobs=2),
        {"kind": "sudoku", "mode": "solve", "limit": 2, "jobs": 2, "puzzle": {"grid": "." * 81}},
    ],
)
def test_plan_then_merge_gives_the_serial_answer(request_):
    serial = api.solve(dict(request_, jobs=1))
    plan, merged = _pool_outside(request_)
    assert len(plan["tasks"]) >= 8 * request_["jobs"]
    assert len(plan["weights"]) == len(plan["tasks"])
    if "limit" in request_:
        assert plan["limit"] == request_["limit"]
    assert sum(plan["weights"]) + plan["settled"] == pytest.approx(1.0)
    same_answer(serial, merged)
    assert merged["parallel"]["executor"] == "page workers"
    assert merged.get("unique") == serial.get("unique")


def test_plan_answers_requests_that_are_not_split_and_errors():
    plan, response = _pool_outside(pentominoes(HOLE_8X8, mode="random", limit=2, seed=5, jobs=2))
    assert response["ok"] and "random" in response["parallel"]["note"]
    _plan, response = _pool_outside(pentominoes(["bad"], jobs=2))
    assert not response["ok"] and response["error"]["path"].startswith("puzzle")


def test_merge_takes_tasks_not_run_as_stopped_and_names_a_mismatch():
    request = pentominoes(HOLE_8X8, jobs=2)
    plan = json.loads(parallel.plan_text(json.dumps(request), api.solve))
    first = json.dumps(api.solve(plan["tasks"][0]))
    nulls = ", null" * (len(plan["tasks"]) - 1)
    payload = (
        f'{{"request": {json.dumps(request)}, "responses": [{first}{nulls}], "cancelled": true}}'
    )
    merged = json.loads(parallel.merge_text(payload, api.solve))
    assert merged["ok"] and merged["cancelled"] and not merged["complete"]
    assert 0 < merged["count"] == json.loads(first)["count"] < 520
    every = ", ".join(json.dumps(api.solve(task)) for task in plan["tasks"])
    late = f'{{"request": {json.dumps(request)}, "responses": [{every}], "cancelled": true}}'
    merged = json.loads(parallel.merge_text(late, api.solve))
    # The cancel came after every task had answered: the count is whole, nothing was stopped.
    assert merged["ok"] and merged["complete"] and "cancelled" not in merged
    assert merged["count"] == api.solve(pentominoes(HOLE_8X8))["count"]
    short = f'{{"request": {json.dumps(request)}, "responses": [{first}]}}'
    merged = json.loads(parallel.merge_text(short, api.solve))
    assert not merged["complete"] and "send the request that was planned" in json.dumps(merged)


# ---------------------------------------------------------------- count rule and listing cap


@pytest.mark.parametrize("limit", [7, 8, 9])
@pytest.mark.parametrize("tasks_per_job", [1, 3])
def test_merged_counts_look_one_past_the_limit_as_the_serial_search(limit, tasks_per_job):
    # 3x20 has 8 pentomino tilings: a limit of 8 is the whole total, so complete.
    request = pentominoes(["." * 20] * 3, "count", limit=limit)
    serial = api.solve(request)
    merged = api.solve(request, runner=parallel.InlineRunner(api.answer_task, tasks_per_job))
    assert (serial["count"], serial["complete"]) == (min(limit, 8), limit >= 8)
    assert (merged["count"], merged["complete"]) == (serial["count"], serial["complete"])
    assert merged["parallel"]["tasks"] > 1


@pytest.mark.parametrize("tasks_per_job", [1, 2, 5])
def test_merged_listings_keep_the_listing_cap_and_say_they_were_cut(monkeypatch, tasks_per_job):
    monkeypatch.setattr(budget, "MAX_LISTED", 3)
    request = pentominoes(["." * 20] * 3, "solve", limit=None)
    serial = api.solve(request)
    assert serial["count"] == 8 and len(serial["solutions"]) == 3
    merged = api.solve(request, runner=parallel.InlineRunner(api.answer_task, tasks_per_job))
    same_answer(serial, merged)
    assert merged["solutions_truncated"] is serial["solutions_truncated"] is True
    rng = random.Random(8)
    for _ in range(30):
        request = exact_cover_request(rng, "solve", "dlx")
        serial = api.solve(request)
        merged = api.solve(request, runner=parallel.InlineRunner(api.answer_task, 4))
        same_answer(serial, merged)
        assert merged.get("solutions_truncated") == serial.get("solutions_truncated")
