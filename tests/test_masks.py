"""The ``masks`` engine (pysolver.engines.masks): the same solutions as an exact cover engine
(dlx) and as a brute force, on random small grids of every variant; limit, cancel, stats."""

from __future__ import annotations

import itertools
import random

import pytest

from pysolver import solve
from pysolver.engines import cover, masks
from pysolver.engines.monitor import Monitor
from pysolver.engines.subtree import InvalidPath
from pysolver.kinds import sudoku
from pysolver.kinds.sudoku.variants import PLAIN, Cage, Variants

SHAPES = {4: (2, 2), 6: (2, 3), 9: (3, 3)}


def cells_grids(n: int, values: list[int], variants: Variants = PLAIN) -> list[list[int]]:
    box_rows, box_cols = SHAPES[n]
    problem = sudoku.masks_problem(n, box_rows, box_cols, values, variants)
    return masks.search(problem).solutions


def dlx_grids(n: int, values: list[int], variants: Variants = PLAIN) -> list[list[int]]:
    box_rows, box_cols = SHAPES[n]
    problem, codes = sudoku.encode(n, box_rows, box_cols, values, variants)
    found = cover.search(problem, "dlx").solutions
    return [
        [value for row in sudoku.decode(n, values, codes, chosen) for value in row]
        for chosen in found
    ]


def units_of(n: int, variants: Variants) -> list[list[int]]:
    box_rows, box_cols = SHAPES[n]
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    columns = [[r * n + c for r in range(n)] for c in range(n)]
    if variants.regions is None:
        third = [
            [(top + i) * n + left + j for i in range(box_rows) for j in range(box_cols)]
            for top in range(0, n, box_rows)
            for left in range(0, n, box_cols)
        ]
    else:
        third = [[p for p in range(n * n) if variants.regions[p] == k] for k in range(n)]
    units = rows + columns + third
    if variants.diagonals:
        units += [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]]
    return units


def brute_force(n: int, values: list[int], variants: Variants) -> list[list[int]]:
    """Every filling of the grid, row by row as permutations of the symbols, a prefix kept
    while no unit or cage holds a symbol twice and no cage passes its sum."""
    groups = [*map(tuple, units_of(n, variants)), *(cage.cells for cage in variants.cages)]
    totals = {cage.cells: cage.total for cage in variants.cages}
    grids: list[list[int]] = [[]]
    for r in range(n):
        rows = [
            list(p)
            for p in itertools.permutations(range(1, n + 1))
            if all(not values[r * n + c] or values[r * n + c] == p[c] for c in range(n))
        ]
        grids = [grid + row for grid in grids for row in rows if fits(grid + row, groups, totals)]
    return grids


def fits(
    grid: list[int], groups: list[tuple[int, ...]], totals: dict[tuple[int, ...], int]
) -> bool:
    for group in groups:
        filled = [grid[p] for p in group if p < len(grid)]
        if len(set(filled)) != len(filled):
            return False
        total = totals.get(group)
        if total is not None and (
            sum(filled) > total or (len(filled) == len(group) and sum(filled) != total)
        ):
            return False
    return True


def random_regions(n: int, rng: random.Random) -> tuple[int, ...]:
    """A random jigsaw that has a solution: the cells of a random Latin square (a plain
    grid's solution) dealt into regions by digit less row, so each region has one cell per
    row and every digit once."""
    square = random_solution(n, PLAIN, rng)
    assert square is not None
    return tuple((square[p] - 1 - p // n) % n for p in range(n * n))


def random_solution(n: int, variants: Variants, rng: random.Random) -> list[int] | None:
    box_rows, box_cols = SHAPES[n]
    problem = sudoku.masks_problem(n, box_rows, box_cols, [0] * (n * n), variants)
    found = masks.search(problem, limit=1, rng=rng).solutions
    return found[0] if found else None


def random_cages(n: int, solution: list[int], rng: random.Random) -> tuple[Cage, ...]:
    """Horizontal cages of 1-3 cells along each row, with the solution's sums."""
    cages = []
    for r in range(n):
        c = 0
        while c < n:
            size = min(rng.randint(1, 3), n - c)
            positions = tuple(r * n + c + k for k in range(size))
            cages.append(Cage(sum(solution[p] for p in positions), positions))
            c += size
    return tuple(cages)


def puzzles(n: int, kind: str, count: int, seed: int) -> list[tuple[list[int], Variants]]:
    """``count`` random puzzles: a random grid of the variant, some of its digits kept."""
    rng = random.Random(seed)
    made: list[tuple[list[int], Variants]] = []
    while len(made) < count:
        regions = random_regions(n, rng) if kind == "jigsaw" else None
        variants = Variants(regions, kind == "x")
        solution = random_solution(n, variants, rng)
        if solution is None:
            continue
        if kind == "killer":
            variants = Variants(cages=random_cages(n, solution, rng))
        # 4x4: from none to half the cells kept; 6x6: at least half (counts of hundreds).
        keep = rng.randint(0, n * n // 2) if n == 4 else rng.randint(n * n // 2, n * n - 4)
        shown = set(rng.sample(range(n * n), keep))
        values = [value if p in shown else 0 for p, value in enumerate(solution)]
        made.append((values, variants))
    return made


@pytest.mark.parametrize("kind", ["plain", "jigsaw", "x", "killer"])
def test_4x4_against_brute_force_and_dlx(kind: str) -> None:
    for values, variants in puzzles(4, kind, 12, seed=len(kind)):
        found = sorted(cells_grids(4, values, variants))
        assert found == sorted(brute_force(4, values, variants))
        assert found == sorted(dlx_grids(4, values, variants))


@pytest.mark.parametrize("kind", ["plain", "jigsaw", "x", "killer"])
def test_6x6_against_dlx(kind: str) -> None:
    for values, variants in puzzles(6, kind, 6, seed=len(kind)):
        found = cells_grids(6, values, variants)
        assert sorted(found) == sorted(dlx_grids(6, values, variants))
        assert len(found) == len(set(map(tuple, found)))


def test_cages_looked_at_only_where_cells_changed_give_the_same_tree(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A settle looks again only at the cages whose cells changed since the cage rule last
    held on them (``_placed_dirty``, ``_place_cages``); with every cage looked at on every
    pass, the searches of generated killers have the same solutions, in the same order, and
    the same nodes."""
    problems = []
    for size, seed, difficulty in ((6, 1, "medium"), (6, 2, "hard"), (9, 3, "easy")):
        made = solve(
            {
                "kind": "sudoku",
                "mode": "generate",
                "seed": seed,
                "difficulty": difficulty,
                "puzzle": {"size": size, "variant": "killer"},
            }
        )
        cages = tuple(
            Cage(cage["sum"], tuple(r * size + c for r, c in cage["cells"]))
            for cage in made["puzzle"]["cages"]
        )
        box_rows, box_cols = SHAPES[size]
        blank = [0] * (size * size)
        problems.append(
            sudoku.masks_problem(size, box_rows, box_cols, blank, Variants(cages=cages))
        )
    skipping = [masks.search(problem, limit=50) for problem in problems]
    every_cage = masks._place_cages
    monkeypatch.setattr(
        masks,
        "_place_cages",
        lambda boards, solved, cages, dirty: every_cage(boards, solved, cages, -1),
    )
    for problem, found in zip(problems, skipping, strict=True):
        every = masks.search(problem, limit=50)
        assert (found.solutions, found.count, found.stats) == (
            every.solutions,
            every.count,
            every.stats,
        )


def test_counts_limit_and_nodes() -> None:
    box_rows, box_cols = SHAPES[4]
    problem = sudoku.masks_problem(4, box_rows, box_cols, [0] * 16)
    whole = masks.search(problem)
    assert (whole.count, whole.complete) == (288, True)
    assert whole.stats["nodes"] > 0
    capped = masks.search(problem, limit=5)
    assert (capped.count, capped.complete, len(capped.solutions)) == (5, False, 5)
    assert capped.solutions == whole.solutions[:5]  # the same order, stopped early
    counted = masks.search(problem, keep_solutions=False)
    assert (counted.count, counted.solutions) == (288, [])
    listed = masks.search(problem, max_kept=3)
    assert (listed.count, len(listed.solutions)) == (288, 3)


def test_random_order_is_a_seeded_permutation() -> None:
    box_rows, box_cols = SHAPES[4]
    problem = sudoku.masks_problem(4, box_rows, box_cols, [0] * 16)
    ordered = masks.search(problem).solutions
    shuffled = masks.search(problem, rng=random.Random(7)).solutions
    assert shuffled != ordered and sorted(shuffled) == sorted(ordered)
    assert masks.search(problem, rng=random.Random(7)).solutions == shuffled


def test_cancel_and_progress() -> None:
    reports: list[dict[str, object]] = []
    problem = sudoku.masks_problem(9, 3, 3, [0] * 81)
    monitor = Monitor(progress=reports.append, cancel=lambda: True)
    result = masks.search(problem, keep_solutions=False, monitor=monitor)
    assert result.cancelled and not result.complete
    assert result.stats["nodes"] >= 1
    assert reports and reports[-1]["done"]


def test_no_solution_and_dead_cage() -> None:
    # Two 1s forced into the top row by the columns' givens: no solution.
    values = [0] * 16
    values[4], values[9] = 1, 1  # row 2 column 1 and row 3 column 2
    values[2] = 2
    assert cells_grids(4, values) == sorted(dlx_grids(4, values))
    cage = Cage(3, (0, 5))  # diagonal cells of one box: 1 + 2 or 2 + 1
    variants = Variants(cages=(cage,))
    assert sorted(cells_grids(4, [0] * 16, variants)) == sorted(dlx_grids(4, [0] * 16, variants))


def test_kind_answers_match_exact_cover() -> None:
    grid = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    answers = {
        engine: solve({"kind": "sudoku", "engine": engine, "limit": 2, "puzzle": {"grid": grid}})
        for engine in ("masks", "singles")
    }
    assert answers["masks"]["solutions"] == answers["singles"]["solutions"]
    assert answers["masks"]["unique"] is True and answers["masks"]["engine"] == "masks"
    traced = solve({"kind": "sudoku", "mode": "trace", "puzzle": {"grid": grid}})
    assert traced["engine"] == sudoku.MASKS_STANDIN


def test_problem_checks() -> None:
    with pytest.raises(ValueError):
        masks.CellsProblem(4, 2, [3, 3, 3], [[0, 1]])
    with pytest.raises(ValueError):
        masks.CellsProblem(4, 2, [3] * 4, [[0, 0]])
    with pytest.raises(ValueError):
        masks.CellsProblem(4, 2, [3] * 4, [[0, 1]], [masks.Cage((0, 1), (1,))])


@pytest.mark.parametrize("wanted", [2, 5, 40])
def test_subtrees_of_a_split_give_the_whole_search_in_order(wanted: int) -> None:
    box_rows, box_cols = SHAPES[6]
    values, variants = puzzles(6, "x", 1, seed=3)[0]
    values = values[:8] + [0] * 28  # tens of solutions
    problem = sudoku.masks_problem(6, box_rows, box_cols, values, variants)
    whole = masks.search(problem)
    cut = masks.split(problem, wanted)
    assert len(cut.subtrees) >= min(wanted, 2)
    assert sum(subtree.weight for subtree in cut.subtrees) + cut.settled_weight == pytest.approx(1)
    parts = [masks.search(problem, path=subtree.path) for subtree in cut.subtrees]
    assert [grid for part in parts for grid in part.solutions] == whole.solutions
    assert sum(part.count for part in parts) == whole.count > 10


def test_a_path_the_search_never_takes_is_refused() -> None:
    problem = sudoku.masks_problem(4, 2, 2, [0] * 16)
    path = masks.split(problem, 4).subtrees[0].path
    with pytest.raises(InvalidPath):
        masks.search(problem, path=[path[0] + 4])  # the next cell, not the branching one
    solved = masks.search(problem, limit=1).solutions[0]
    givens = [value if p else 0 for p, value in enumerate(solved)]  # one solution, no branch
    with pytest.raises(InvalidPath):
        masks.search(sudoku.masks_problem(4, 2, 2, givens), path=[0])


def test_the_default_engine_takes_grids_up_to_9x9() -> None:
    for n, expected in ((9, "masks"), (16, sudoku.MASKS_STANDIN)):
        answer = solve({"kind": "sudoku", "puzzle": {"grid": "." * (n * n)}})
        assert answer["engine"] == expected
    named = solve({"kind": "sudoku", "engine": "masks", "puzzle": {"grid": "." * 256}})
    assert named["engine"] == "masks" and named["count"] == 1


@pytest.mark.parametrize("kind", ["plain", "jigsaw", "x", "killer"])
def test_settle_keeps_every_solution_and_fills_only_a_unique_grid(kind: str) -> None:
    for n, count in ((4, 12), (6, 6)):
        for values, variants in puzzles(n, kind, count, seed=7 + len(kind)):
            box_rows, box_cols = SHAPES[n]
            problem = sudoku.masks_problem(n, box_rows, box_cols, values, variants)
            settled = masks.settle(problem)
            grids = dlx_grids(n, values, variants)
            if settled is None:
                assert grids == []
                continue
            # The rules only strike what no solution holds...
            for grid in grids:
                assert all(settled[c] >> (digit - 1) & 1 for c, digit in enumerate(grid))
            # ... and a grid they fill is the one solution.
            if all(not mask & (mask - 1) for mask in settled):
                assert grids == [[mask.bit_length() for mask in settled]]
            # A twin with other candidates searches as a problem built afresh.
            twin = problem.with_candidates(settled)
            assert (
                masks.search(twin).solutions
                == masks.search(
                    masks.CellsProblem(n * n, n, settled, problem.units, problem.cages)
                ).solutions
            )


@pytest.mark.parametrize("kind", ["plain", "jigsaw", "x"])
def test_search_from_settled_boards_is_the_search_of_their_candidates(kind: str) -> None:
    """``search_boards`` from boards the caller settled, with a candidate struck and the rules
    settled again (as the Sudoku generator's uniqueness proofs do): the same solutions, in the
    same order, and nodes as ``search`` of those candidates, which DLX confirms."""
    rng = random.Random(11 + len(kind))
    for n, count in ((4, 12), (6, 6)):
        for values, variants in puzzles(n, kind, count, seed=3 + len(kind)):
            units = units_of(n, variants)
            layout = masks.unit_layout(n * n, n, units)
            boards = [0] * n
            for cell, value in enumerate(values):
                for index in range(n) if value == 0 else (value - 1,):
                    boards[index] |= layout.cell_copies[cell]
            placed = masks.settle_boards(boards, 0, layout)
            assert placed >= 0  # a puzzle of a solution grid
            open_pairs = [
                (cell, index)
                for cell in range(n * n)
                for index in range(n)
                if boards[index] & layout.cell_copies[cell]
                and not placed & layout.cell_copies[cell]
            ]
            struck: list[tuple[int, int] | None] = [None]
            struck += rng.sample(open_pairs, min(3, len(open_pairs)))
            for pair in struck:
                trial = boards.copy()
                changed = 0  # the symbols whose boards lost a cell since they were settled
                if pair is not None:
                    cell, index = pair
                    trial[index] &= ~layout.cell_copies[cell]
                    changed = 1 << index
                start = masks.settle_boards(trial, placed, layout, changed)
                kept = trial.copy()
                candidates = [
                    sum(1 << i for i in range(n) if trial[i] & layout.cell_copies[c])
                    for c in range(n * n)
                ]
                for limit in (None, 1):
                    found = masks.search_boards(trial, start, layout, limit=limit)
                    assert trial == kept  # the caller's boards are not changed
                    if start < 0:
                        assert (found.count, found.complete, found.stats["nodes"]) == (0, True, 0)
                        continue
                    fresh = masks.search(
                        masks.CellsProblem(n * n, n, candidates, units), limit=limit
                    )
                    assert found.solutions == fresh.solutions
                    assert (found.count, found.complete) == (fresh.count, fresh.complete)
                    assert found.stats == fresh.stats
                    if limit is None:
                        given = [c.bit_length() if not c & (c - 1) else 0 for c in candidates]
                        within = [
                            grid
                            for grid in dlx_grids(n, given, variants)
                            if all(candidates[p] >> (d - 1) & 1 for p, d in enumerate(grid))
                        ]
                        assert sorted(found.solutions) == sorted(within)
