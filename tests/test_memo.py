"""The memo engine: counts equal to brute force, bitset and dlx on random tilings and
matrices; symmetries checked on the matrix; progress, cancel, the memo's budget and subtrees."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from pysolver import budget, solve
from pysolver.engines import memo, memo_tasks
from pysolver.engines.cover import ExactCoverProblem, search, split_for
from pysolver.engines.monitor import Monitor
from pysolver.engines.subtree import InvalidPath
from pysolver.kinds.polyomino.encoding import encode
from pysolver.kinds.polyomino.parsing import parse_puzzle
from pysolver.kinds.polyomino.pieces import LIBRARY

SMALL_PIECES = [name for name, shape in LIBRARY.items() if len(shape) <= 4]


def random_tiling_puzzle(rng: random.Random) -> dict[str, Any]:
    """A small board (a rectangle up to 4x5, often square, sometimes with holes) and random
    pieces of up to 4 cells whose areas add up to the board's (one may fill the rest in copies)."""
    rows = rng.randint(2, 4)
    cols = rows if rng.random() < 0.4 else rng.randint(2, 5)
    grid = [["."] * cols for _ in range(rows)]
    if rng.random() < 0.3:
        for _ in range(rng.randint(1, 2)):
            grid[rng.randrange(rows)][rng.randrange(cols)] = "#"
    board = ["".join(row) for row in grid]
    area = sum(row.count(".") for row in board)
    pieces: list[Any] = []
    left = area
    while left > 0:
        fitting = [name for name in SMALL_PIECES if len(LIBRARY[name]) <= left]
        name = rng.choice(fitting)
        if rng.random() < 0.3 and left % len(LIBRARY[name]) == 0 and left > len(LIBRARY[name]):
            copies = left // len(LIBRARY[name])
            pieces.append(
                {"name": name, "cells": [list(c) for c in LIBRARY[name]], "count": copies}
            )
            left = 0
        else:
            pieces.append(name)
            left -= len(LIBRARY[name])
    return {"board": board, "pieces": pieces, "reflections": rng.random() < 0.7}


def random_tiling_problems(count: int, seed: int) -> list[ExactCoverProblem]:
    rng = random.Random(seed)
    problems = []
    while len(problems) < count:
        puzzle = random_tiling_puzzle(rng)
        try:
            problems.append(encode(parse_puzzle(puzzle)).problem)
        except Exception:  # a piece named twice with and without cells: draw again
            continue
    return problems


def whole_count(problem: ExactCoverProblem, engine: str) -> int:
    result = search(problem, engine, keep_solutions=False)
    assert result.complete
    return result.count


def brute_force_tilings(problem: ExactCoverProblem) -> int:
    """Exact covers by trying every set of options of the right size whose primary items add
    up (small tilings only: a tiling has at most a handful of pieces)."""
    total = 0
    sizes = [sum(1 for item in option if item < problem.primary) for option in problem.options]
    fewest = min(sizes, default=1)
    for chosen_count in range(1, problem.primary // max(1, fewest) + 1):
        for chosen in itertools.combinations(range(len(problem.options)), chosen_count):
            if sum(sizes[o] for o in chosen) != problem.primary:
                continue
            items = [item for o in chosen for item in problem.options[o]]
            if len(items) == len(set(items)):
                total += 1
    return total


def test_counts_match_bitset_and_dlx_on_random_tilings() -> None:
    problems = random_tiling_problems(250, 20261125)
    with_symmetry = 0
    for problem in problems:
        expected = whole_count(problem, "dlx")
        assert whole_count(problem, "bitset") == expected
        assert whole_count(problem, "memo") == expected
        with_symmetry += memo.root_orbits(problem) is not None
    assert with_symmetry > 50  # the root's symmetry was exercised, not only the memo


def test_counts_match_brute_force_on_tiny_tilings() -> None:
    problems = [p for p in random_tiling_problems(300, 7) if len(p.options) <= 20][:30]
    assert len(problems) >= 15
    for problem in problems:
        assert whole_count(problem, "memo") == brute_force_tilings(problem)


def test_counts_match_brute_force_on_random_matrices(reference_covers) -> None:
    for problem, covers in reference_covers:
        assert whole_count(problem, "memo") == len(covers)


def test_solutions_are_the_bitset_engines(random_problems) -> None:
    for problem in random_problems[:200]:
        solutions = search(problem, "memo").solutions
        assert solutions == search(problem, "bitset").solutions


def struck_at_the_root(problem: ExactCoverProblem) -> tuple[set[int], list[int], list[int]]:
    """The options ``strike_dead_options`` strikes, the root masks it leaves and the tables'
    compatible masks (by bit position)."""
    tables = memo._Tables(problem, Monitor())
    compatible_at = tables.compatible_at()
    root, struck = memo.strike_dead_options(
        tables.item_masks[: problem.primary], compatible_at, Monitor()
    )
    alive = 0
    for mask in root:
        alive |= mask
    dead = {
        tables.option_at[position]
        for position in range(len(problem.options))
        if not alive >> position & 1 and tables.cover_size[tables.option_at[position]]
    }
    assert len(dead) == struck
    return dead, root, compatible_at


def test_struck_options_are_in_no_cover_and_none_left_strands_an_item(reference_covers) -> None:
    """Striking is sound (no struck option is in any cover, so counts cannot change) and
    reaches its fixpoint (no option left leaves an item without options)."""
    struck_somewhere = 0
    for problem, covers in reference_covers:
        dead, root, compatible_at = struck_at_the_root(problem)
        in_covers = {option for cover in covers for option in cover}
        assert not dead & in_covers
        struck_somewhere += bool(dead)
        if not all(root):
            continue  # an item without options: no covers, nothing more to check
        alive = 0
        for mask in root:
            alive |= mask
        for position in range(alive.bit_length()):
            if alive >> position & 1:
                keeping = compatible_at[position] | 1 << position
                assert all(mask & keeping for mask in root)
    assert struck_somewhere > 50


def test_striking_at_every_node_keeps_counts(
    monkeypatch: pytest.MonkeyPatch, reference_covers
) -> None:
    """Nodes strike their dead options only near the root and only where subtrees are large;
    struck at every node (the rule's soundness, not its speed), counts still equal brute
    force on random matrices and dlx on random tilings."""
    monkeypatch.setattr(memo, "STRIKE_DEPTH", 1000)
    monkeypatch.setattr(memo, "STRIKE_SUBTREE", 0)
    struck = 0
    for problem, covers in reference_covers[:300]:
        result = search(problem, "memo", keep_solutions=False)
        assert result.count == len(covers)
        struck += result.stats["options_struck"]
    for problem in random_tiling_problems(60, 5):
        assert whole_count(problem, "memo") == whole_count(problem, "dlx")
    assert struck > 100


def test_striking_cascades_and_keeps_tiling_counts() -> None:
    """A board where struck placements strand others (a second round strikes more), with the
    memo engine's count equal to dlx's and its recent solutions covers of the problem as
    given (their option numbers mapped back past the struck ones)."""
    puzzle = {"board": ["." * 5] * 4, "pieces": ["L", "L", "P", "P"]}
    problem = encode(parse_puzzle(puzzle)).problem
    dead, _root, _compatible = struck_at_the_root(problem)
    tables = memo._Tables(problem, Monitor())
    compatible_at = tables.compatible_at()
    first_round = set()
    for item_mask in tables.item_masks[: problem.primary]:
        stranding = ((1 << len(problem.options)) - 1) & ~item_mask
        for position in range(len(problem.options)):
            if item_mask >> position & 1:
                stranding &= ~compatible_at[position]
        first_round |= {
            tables.option_at[position]
            for position in range(len(problem.options))
            if stranding >> position & 1
        }
    assert first_round < dead  # a later round struck more
    recent: list[list[int]] = []
    monitor = Monitor(lambda report: None, None, recent.append)
    monitor.interval = 0.0
    result = search(problem, "memo", keep_solutions=False, monitor=monitor)
    assert result.count == whole_count(problem, "dlx") == 20
    assert len(dead) == 72
    # 72 at the root, 29 at nodes below it (the 4x5 board is swept: strikes at depth 1 only).
    assert result.stats["options_struck"] == 101
    assert recent
    for options in recent:
        items = sorted(item for o in options for item in problem.options[o])
        assert items[: problem.primary] == list(range(problem.primary))
        assert len(items) == len(set(items))


def test_pentomino_counts() -> None:
    hole = ["." * 8] * 3 + ["...##..."] * 2 + ["." * 8] * 3
    for board, expected in ((hole, 520), (["." * 10] * 6, 9356), (["." * 20] * 3, 8)):
        problem = encode(parse_puzzle({"board": board, "pieces": ["pentominoes"]})).problem
        assert whole_count(problem, "memo") == expected


def test_narrow_boards_are_swept_down_their_short_side() -> None:
    def board(rows: list[str]) -> ExactCoverProblem:
        return encode(parse_puzzle({"board": rows, "pieces": ["pentominoes"]})).problem

    wide = board(["." * 12] * 5)
    order = memo.sweep_order(wide)
    assert order is not None and wide.item_cells is not None
    assert sorted(order) == list(range(wide.primary))
    cells = [wide.item_cells[item] for item in order[: len(wide.item_cells)]]
    assert cells == sorted(cells, key=lambda cell: (cell[1], cell[0]))  # column after column
    tall = board(["." * 5] * 12)
    order = memo.sweep_order(tall)
    assert order is not None and tall.item_cells is not None
    cells = [tall.item_cells[item] for item in order[: len(tall.item_cells)]]
    assert cells == sorted(cells)  # row after row
    hole = ["." * 8] * 3 + ["...##..."] * 2 + ["." * 8] * 3
    assert memo.sweep_order(board(hole)) is None  # holes and squares keep MRV
    bare = ExactCoverProblem(wide.primary, wide.secondary, wide.options)
    assert memo.sweep_order(bare) is None
    # The swept walk counts what MRV's does (a different tree, the same covers).
    swept = random_tiling_problems(250, 36)
    swept = [p for p in swept if memo.sweep_order(p) is not None]
    assert len(swept) > 50
    for problem in swept:
        assert whole_count(problem, "memo") == whole_count(problem, "dlx")


def test_symmetries_are_found_on_the_matrix() -> None:
    rectangle = encode(parse_puzzle({"board": ["." * 10] * 6, "pieces": ["pentominoes"]}))
    assert len(memo.matrix_symmetries(rectangle.problem)) == 4
    square = encode(parse_puzzle({"board": ["." * 8] * 8, "pieces": ["pentominoes", "O4"]}))
    assert len(memo.matrix_symmetries(square.problem)) == 8
    # One-sided pieces that are not mirror-symmetric: only the rotations map the matrix.
    chiral = {"board": ["." * 4] * 4, "pieces": ["L4", "L4", "S4", "S4"], "reflections": False}
    assert len(memo.matrix_symmetries(encode(parse_puzzle(chiral)).problem)) <= 4
    # A wrong hint cannot change a count: the moves it suggests fail the matrix check.
    problem = rectangle.problem
    assert problem.item_cells is not None
    shuffled = list(problem.item_cells)
    random.Random(3).shuffle(shuffled)
    wrong = ExactCoverProblem(problem.primary, problem.secondary, problem.options, None, shuffled)
    assert len(memo.matrix_symmetries(wrong)) == 1
    orbits = memo.root_orbits(problem)
    assert orbits is not None
    # The root's orbits partition the options of one piece item.
    cells = len(problem.item_cells)
    (piece,) = [i for i in problem.options[orbits[0][0]] if cells <= i < problem.primary]
    assert sum(size for _, size in orbits) == sum(piece in o for o in problem.options)


def test_memo_stays_within_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    hole = ["." * 8] * 3 + ["...##..."] * 2 + ["." * 8] * 3
    problem = encode(parse_puzzle({"board": hole, "pieces": ["pentominoes"]})).problem
    roomy = search(problem, "memo", keep_solutions=False)
    needed = memo.estimated_bytes(problem)
    monkeypatch.setattr(budget, "BUDGET_BYTES", needed + 2000 * memo.MEMO_ENTRY_BYTES)
    cap = memo.memo_cap(problem)
    assert 0 < cap < roomy.stats["memo_entries"]
    tight = search(problem, "memo", keep_solutions=False)
    assert tight.count == roomy.count == 520
    assert tight.stats["memo_entries"] <= cap
    assert tight.stats["nodes"] > roomy.stats["nodes"]


def test_progress_recent_solutions_and_cancel() -> None:
    problem = encode(parse_puzzle({"board": ["." * 10] * 6, "pieces": ["pentominoes"]})).problem
    reports: list[dict[str, Any]] = []
    recent: list[list[int]] = []
    monitor = Monitor(reports.append, lambda: len(reports) >= 3, recent.append)
    monitor.interval = 0.0
    result = search(problem, "memo", keep_solutions=False, monitor=monitor)
    assert result.cancelled and not result.complete
    assert 0 <= result.count < 9356
    assert reports and all(0 <= r["fraction"] < 1 for r in reports)
    for options in recent:  # recent solutions are real tilings
        items = [item for o in options for item in problem.options[o]]
        assert sorted(items)[: problem.primary] == list(range(problem.primary))


def test_subtrees_add_up_to_the_whole_count() -> None:
    # The memo count's own split (its tasks name the memo engine).
    pieces = {"board": ["." * 6] * 5, "pieces": ["P", "P", "L", "L", "N", "N"]}
    problem = encode(parse_puzzle(pieces)).problem
    whole = whole_count(problem, "dlx")
    parts = split_for(problem, "memo", 6, counting=True)
    assert parts.engine == "memo"
    total = sum(
        search(problem, "memo", keep_solutions=False, path=sub.path).count for sub in parts.subtrees
    )
    assert total == whole > 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_task_counts_add_up_on_random_tilings_whatever_the_workers(seed: int) -> None:
    # Tasks of memo_tasks.split, run by two "workers" (each keeping its memo across its tasks)
    # in an order drawn at random, add up to dlx's count, with and without symmetry; a task
    # run again on a warm memo counts the same.
    rng = random.Random(seed)
    for problem in random_tiling_problems(25, seed):
        whole = whole_count(problem, "dlx")
        parts = memo_tasks.split(problem, rng.randint(1, 12))
        memos: list[list[memo_tasks._Kept]] = [[], []]
        total = 0
        for subtree in rng.sample(parts.subtrees, len(parts.subtrees)):
            worker = rng.randrange(2)
            memo_tasks._worker_memo[:] = memos[worker]
            counted = memo_tasks.count_below(problem, subtree.path, Monitor()).count
            assert memo_tasks.count_below(problem, subtree.path, Monitor()).count == counted
            memos[worker] = list(memo_tasks._worker_memo)
            total += counted
        assert total == whole
    memo_tasks.forget()


def test_tasks_of_a_symmetric_count_sum_close_to_the_serial_nodes() -> None:
    # Issue 31: cut below the root orbits, with a memo per worker, the tasks' nodes stay near
    # the serial walk's (cuts of the plain tree summed 4.5x on 6x10).
    hole = ["." * 8] * 3 + ["...##..."] * 2 + ["." * 8] * 3
    problem = encode(parse_puzzle({"board": hole, "pieces": ["pentominoes"]})).problem
    serial = memo.count(problem, Monitor())
    assert memo.root_orbits(problem) is not None
    parts = memo_tasks.split(problem, 16)
    memo_tasks.forget()
    results = [memo_tasks.count_below(problem, sub.path, Monitor()) for sub in parts.subtrees]
    memo_tasks.forget()
    assert sum(result.count for result in results) == serial.count == 520
    assert len(results) >= 16
    assert sum(result.stats["nodes"] for result in results) <= 1.2 * serial.stats["nodes"]


def test_a_path_off_the_root_orbits_is_refused() -> None:
    hole = ["." * 8] * 3 + ["...##..."] * 2 + ["." * 8] * 3
    problem = encode(parse_puzzle({"board": hole, "pieces": ["pentominoes"]})).problem
    orbits = dict(memo.root_orbits(problem) or [])
    outside = next(option for option in range(len(problem.options)) if option not in orbits)
    with pytest.raises(InvalidPath):
        memo_tasks.count_below(problem, [outside], Monitor())
    memo_tasks.forget()


@pytest.mark.parametrize("symmetry", ["all", "distinct"])
def test_kind_counts_agree_across_engines(symmetry: str) -> None:
    puzzle = {"board": ["." * 8] * 3 + ["...##..."] * 2 + ["." * 8] * 3, "pieces": ["pentominoes"]}
    counts = {
        engine: solve(
            {
                "kind": "polyomino",
                "mode": "count",
                "engine": engine,
                "symmetry": symmetry,
                "puzzle": puzzle,
            }
        )["count"]
        for engine in ("memo", "bitset")
    }
    assert counts == {"memo": 520 if symmetry == "all" else 65, "bitset": counts["bitset"]}
    assert counts["memo"] == counts["bitset"]


def test_node_counts_stay_pinned() -> None:
    """Work guard: node counts are deterministic, so a change that makes the whole count visit
    more nodes (a lost symmetry, a memo that stopped hitting) fails here, timings aside."""
    hole = ["." * 8] * 3 + ["...##..."] * 2 + ["." * 8] * 3
    problem = encode(parse_puzzle({"board": hole, "pieces": ["pentominoes"]})).problem
    result = search(problem, "memo", keep_solutions=False)
    bitset_nodes = search(problem, "bitset", keep_solutions=False).stats["nodes"]
    assert result.count == 520
    assert result.stats["nodes"] <= 26_798 < bitset_nodes // 10
    assert result.stats["options_struck"] == 2_344  # 152 at the root, the rest at nodes
    assert result.stats["memo_hits"] > 0


def test_polyomino_counts_with_the_tiling_engine_by_default() -> None:
    answer = solve(
        {
            "kind": "polyomino",
            "mode": "count",
            "puzzle": {"board": ["." * 20] * 3, "pieces": ["pentominoes"]},
        }
    )
    assert (answer["count"], answer["engine"]) == (8, "memo")
