"""The broken-profile DP engine against known values and a brute-force enumerator."""

from __future__ import annotations

import random

import pytest

from pysolver.engines import profile_dp
from pysolver.engines.kasteleyn import rectangle_tilings
from pysolver.engines.monitor import Monitor
from pysolver.engines.profile_dp import ProfileDP, count_tilings, tilings_by_rank

Cell = tuple[int, int]


def full_rows(rows: int, cols: int) -> list[int]:
    return [(1 << cols) - 1] * rows


def open_cells(open_rows: list[int], width: int) -> set[Cell]:
    return {(r, c) for r, row in enumerate(open_rows) for c in range(width) if row >> c & 1}


def brute_force_tilings(cells: set[Cell]) -> set[frozenset[tuple[Cell, Cell]]]:
    """Every tiling, by covering the first uncovered cell in reading order (explicit stack)."""
    found: set[frozenset[tuple[Cell, Cell]]] = set()
    stack: list[tuple[frozenset[Cell], tuple[tuple[Cell, Cell], ...]]] = [(frozenset(cells), ())]
    while stack:
        left, placed = stack.pop()
        if not left:
            found.add(frozenset(placed))
            continue
        r, c = min(left)
        for other in ((r, c + 1), (r + 1, c)):
            if other in left:
                stack.append((left - {(r, c), other}, (*placed, ((r, c), other))))
    return found


def random_board(rng: random.Random, height: int, width: int, holes: float) -> list[int]:
    return [sum(1 << c for c in range(width) if rng.random() >= holes) for _ in range(height)]


def assert_is_tiling(tiling: list, cells: set[Cell]) -> None:
    covered: list[Cell] = []
    for (r1, c1), (r2, c2) in tiling:
        assert abs(r1 - r2) + abs(c1 - c2) == 1
        covered += [(r1, c1), (r2, c2)]
    assert len(covered) == len(set(covered))
    assert set(covered) == cells


@pytest.mark.parametrize(
    ("rows", "cols", "expected"),
    [
        (2, 3, 3),
        (2, 11, 144),
        (4, 11, 51205),
        (3, 3, 0),
        (8, 8, 12988816),
        (12, 12, 53060477521960000),
        (16, 16, 2444888770250892795802079170816),
    ],
)
def test_known_values(rows: int, cols: int, expected: int) -> None:
    # The engine runs across its given width; the other side is the height.
    assert count_tilings(full_rows(cols, rows), rows) == expected
    if cols <= profile_dp.MAX_WIDTH:
        assert count_tilings(full_rows(rows, cols), cols) == expected


def test_matches_brute_force_on_random_boards_with_holes() -> None:
    rng = random.Random(2024)
    for _ in range(120):
        width, height = rng.randint(1, 5), rng.randint(1, 6)
        board = random_board(rng, height, width, rng.choice((0.0, 0.1, 0.25)))
        expected = brute_force_tilings(open_cells(board, width))
        assert count_tilings(board, width) == len(expected), board


def test_unranking_lists_every_tiling_once() -> None:
    rng = random.Random(7)
    for _ in range(40):
        width, height = rng.randint(2, 4), rng.randint(2, 5)
        board = random_board(rng, height, width, 0.15)
        cells = open_cells(board, width)
        expected = brute_force_tilings(cells)
        result = tilings_by_rank(board, width, lambda total: list(range(total)))
        assert result is not None
        total, tilings = result
        assert total == len(expected)
        for tiling in tilings:
            assert_is_tiling(tiling, cells)
        assert {frozenset(t) for t in tilings} == expected


def test_unrank_any_rank_of_a_big_board() -> None:
    board = full_rows(12, 10)
    dp = ProfileDP(board, 10, keep_rows=True)
    assert dp.run()
    assert dp.total == rectangle_tilings(12, 10)
    ranks = [0, dp.total - 1, dp.total // 3]
    tilings = dp.unrank(ranks)
    assert tilings is not None
    cells = open_cells(board, 10)
    for tiling in tilings:
        assert_is_tiling(tiling, cells)
    assert len({frozenset(t) for t in tilings}) == 3
    with pytest.raises(ValueError):
        dp.unrank([dp.total])


def test_boards_with_no_tiling() -> None:
    assert count_tilings([0b111, 0b111, 0b111], 3) == 0
    # Two opposite corners removed from 4 x 4: same colour, so nothing tiles it.
    assert count_tilings([0b1110, 0b1111, 0b1111, 0b0111], 4) == 0
    assert count_tilings([0b1], 1) == 0


def test_field_width_bounds_every_count() -> None:
    for cells in (0, 1, 7, 100, 420):
        size = profile_dp.field_bytes(cells)
        assert 2 ** (64 * size) > 24**cells
        assert size == 1 or 2 ** (64 * (size - 1)) <= 24**cells


def test_size_checks_name_the_limits() -> None:
    assert profile_dp.check_size(full_rows(16, 16), 16, tilings=True) is None
    wide = profile_dp.check_size(full_rows(30, 21), 21, tilings=False)
    assert wide is not None and "20" in wide
    long = profile_dp.check_size(full_rows(400, 20), 20, tilings=False)
    assert long is not None and "MB" in long
    stored = profile_dp.check_size(full_rows(20, 20), 20, tilings=True)
    assert stored is not None and "tilings" in stored
    assert profile_dp.check_size(full_rows(20, 20), 20, tilings=False) is None


def test_cancel_and_progress() -> None:
    calls = []
    monitor = Monitor(progress=calls.append, cancel=lambda: len(calls) > 0)
    monitor.interval = 0.0
    monitor.next_report = monitor.started  # report at the first check
    dp = ProfileDP(full_rows(14, 14), 14, monitor)
    assert dp.run() is False
    assert monitor.cancelled and dp.total is None
    assert calls and 0 < calls[0]["fraction"] < 1


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        ProfileDP([0b111], 2)
    with pytest.raises(ValueError):
        ProfileDP([1], profile_dp.MAX_WIDTH + 1)
    dp = ProfileDP([0b11], 2)
    with pytest.raises(RuntimeError):
        dp.unrank([0])
