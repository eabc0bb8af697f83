"""Coupling from the past: exact uniformity on small boards, valid tilings on big ones."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bench.generators import aztec_diamond
from pysolver import solve
from pysolver.engines import cftp
from pysolver.engines.monitor import Monitor


def rows_of(board: list[str]) -> tuple[list[int], int]:
    return [int(text[::-1].replace(".", "1").replace("#", "0"), 2) for text in board], len(board[0])


def all_tilings(board: list[str]) -> list[list[list[list[int]]]]:
    """Every tiling, listed by the profile DP (an independent engine)."""
    response = solve({"kind": "domino", "limit": None, "puzzle": {"board": board}})
    assert response["ok"] and response["complete"]
    return response["solutions"]


def as_engine_tiling(tiling: list[list[list[int]]]) -> list[cftp.Domino]:
    return sorted((tuple(first), tuple(second)) for first, second in tiling)


def assert_tiles(dominoes: list[cftp.Domino], board: list[str]) -> None:
    cells = [cell for domino in dominoes for cell in domino]
    assert len(cells) == len(set(cells))
    assert set(cells) == {
        (r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch == "."
    }
    for (r, c), (r2, c2) in dominoes:
        assert (r2 - r, c2 - c) in ((0, 1), (1, 0))


def chi_square(counts: Counter, categories: int, samples: int) -> float:
    expected = samples / categories
    seen = sum((count - expected) ** 2 / expected for count in counts.values())
    return seen + (categories - len(counts)) * expected


# A chi-square with 35 (63) degrees of freedom exceeds 80 (120) with probability below 1e-4;
# the seeds are fixed, so the test is deterministic.
@pytest.mark.parametrize(
    ("board", "tilings", "bound"),
    [(["...."] * 4, 36, 80.0), (aztec_diamond(3), 64, 120.0)],
)
def test_samples_are_uniform(board: list[str], tilings: int, bound: float) -> None:
    every = {tuple(as_engine_tiling(t)) for t in all_tilings(board)}
    assert len(every) == tilings
    open_rows, width = rows_of(board)
    sampler = cftp.Sampler(open_rows, width)
    rng = random.Random(20260611)
    samples = 100 * tilings
    counts = Counter(tuple(sampler.sample(rng)) for _ in range(samples))
    assert set(counts) <= every
    assert len(counts) == tilings
    assert chi_square(counts, tilings, samples) < bound


@pytest.mark.parametrize(
    "board", [["...."] * 4, aztec_diamond(3), ["....##", "......", "......", "##...."]]
)
def test_extremes_bound_every_tiling_and_the_chain_is_monotone(board: list[str]) -> None:
    open_rows, width = rows_of(board)
    sampler = cftp.Sampler(open_rows, width)
    lowest = cftp.height_function(sampler.unpack(sampler.lowest), open_rows, width)
    highest = cftp.height_function(sampler.unpack(sampler.highest), open_rows, width)
    for tiling in all_tilings(board):
        dominoes = as_engine_tiling(tiling)
        heights = cftp.height_function(dominoes, open_rows, width)
        assert all(lowest[v] <= heights[v] <= highest[v] for v in heights)
        # With the same coins, the tiling stays between the extremes.
        for seed in range(3):
            states = [sampler.lowest, sampler._pack(dominoes), sampler.highest]
            moved = sampler._sweeps(states, random.Random(seed), 1)
            low, middle, high = (
                cftp.height_function(sampler.unpack(state), open_rows, width) for state in moved
            )
            assert all(low[v] <= middle[v] <= high[v] for v in middle)


def test_valid_tilings_of_big_and_odd_shaped_boards() -> None:
    rng = random.Random(7)
    square = ["." * 60] * 60
    diamond = aztec_diamond(12)
    notched = ["." * 30] * 10 + ["." * 12 + "#" * 18] * 8 + ["#" * 6 + "." * 24] * 6
    for board in (square, diamond, notched):
        open_rows, width = rows_of(board)
        found = cftp.sample_tilings(open_rows, width, 1, rng)
        assert found is not None
        tilings, stats = found
        assert stats["sweeps"] > 0
        assert_tiles(tilings[0], board)


@pytest.mark.parametrize(
    ("board", "words"),
    [
        (["....", ".##.", ".##.", "...."], "hole"),
        (["..##", "..##", "##..", "##.."], "separate pieces"),
    ],
)
def test_boards_with_holes_or_pieces_are_refused(board: list[str], words: str) -> None:
    open_rows, width = rows_of(board)
    assert words in (cftp.holes_message(open_rows, width) or "")
    with pytest.raises(ValueError, match=words):
        cftp.sample_tilings(open_rows, width, 1, random.Random(1))


def test_a_board_without_tilings_is_recognised() -> None:
    # Balanced colours, one piece, no holes, yet no tiling.
    board = ["##.#", "....", "#.##"]
    assert solve({"kind": "domino", "mode": "count", "puzzle": {"board": board}})["count"] == 0
    open_rows, width = rows_of(board)
    assert not cftp.Sampler(open_rows, width).tileable
    with pytest.raises(ValueError, match="no domino tiling"):
        cftp.sample_tilings(open_rows, width, 1, random.Random(1))


def test_cancel_stops_sampling() -> None:
    open_rows, width = rows_of(["." * 40] * 40)
    monitor = Monitor(cancel=lambda: True)
    assert cftp.sample_tilings(open_rows, width, 1, random.Random(1), monitor) is None


def test_a_long_sample_reports_its_progress_and_a_picture() -> None:
    # An Aztec diamond of order 60 takes a second or two: the reports say how far the two chains
    # have come together (never backwards) and carry the upper chain's tiling to draw.
    reports: list[dict] = []
    board = aztec_diamond(60)
    request = {"kind": "domino", "mode": "random", "seed": 3, "recent": True}
    response = solve({**request, "puzzle": {"board": board}}, progress=reports.append)
    assert response["ok"] and response["engine"] == "cftp", response
    fractions = [report["fraction"] for report in reports if not report.get("done")]
    assert fractions == sorted(fractions) and 0 < fractions[-1] < 1, fractions
    assert fractions[-1] > 0.5
    pictures = [report["recent"] for report in reports if "recent" in report]
    assert pictures
    cells = {(r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch == "."}
    for picture in pictures:
        covered = [tuple(cell) for domino in picture for cell in domino]
        assert sorted(covered) == sorted(cells)
