"""Bounded memory and prompt stops (issue 13): one test per row of the audit table
(``bench/stop_audit.py``), with a smaller budget or listing cap where that keeps them fast, and
a cancel in each phase outside the search loop.

Stops are asserted on the answer (``cancelled``, nothing searched) and on bounded work (how
often the cancel hook was asked), never on wall-clock time.
"""

from __future__ import annotations

import json
import operator
import sys
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest

from bench import stop_audit  # the audit's own request builders: the same rows
from bench.generators import shikaku_puzzle
from pysolver import budget, library, protocol, solve
from pysolver.engines import bitset, dlx, monitor, singles, trace
from pysolver.engines.cover import ExactCoverProblem
from pysolver.engines.monitor import Cancelled, Monitor
from pysolver.kinds import exact_cover, shikaku, sudoku
from pysolver.kinds.polyomino import listed_bytes, parse_puzzle, run_branches
from pysolver.kinds.polyomino.encoding import encode as encode_tiling
from pysolver.kinds.polyomino.symmetry import count_branches

ROWS = {row.name: row.request for row in stop_audit.ROWS}


def row(name: str) -> dict[str, Any]:
    return ROWS[name]()


class CancelAfter:
    """A cancel hook that says stop from its ``calls``-th call on, and counts its calls."""

    def __init__(self, calls: int) -> None:
        self.calls = calls
        self.asked = 0

    def __call__(self) -> bool:
        self.asked += 1
        return self.asked >= self.calls


@pytest.fixture
def small_budget(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    def set_budget(megabytes: int) -> None:
        monkeypatch.setattr(budget, "BUDGET_BYTES", megabytes * 2**20)

    return set_budget


@pytest.fixture
def eager_checkpoints(monkeypatch: pytest.MonkeyPatch) -> None:
    """Checkpoints ask the cancel hook at once and often, so small builds can be cancelled."""
    monkeypatch.setattr(monitor, "CHECKPOINT_GRACE", 0)
    monkeypatch.setattr(monitor, "CHECKPOINT_EVERY", 4)


def assert_too_large(response: dict[str, Any], *words: str) -> str:
    assert response["ok"] is False, str(response)[:300]
    assert response["error"]["code"] == "too_large"
    message: str = response["error"]["message"]
    assert "MB" in message or "tilings" in message
    for word in words:
        assert word in message
    return message


def assert_stopped_before_search(response: dict[str, Any], hook: CancelAfter) -> None:
    assert response["ok"] is True
    assert response["cancelled"] is True and response["complete"] is False
    assert response["count"] == 0 and response["stats"]["nodes"] == 0
    assert hook.asked == hook.calls  # not asked again once it said stop


# ---------------------------------------------------------------- the audit table, row by row


@pytest.mark.parametrize(
    "name", ["sudoku 9x9 empty, solve limit 1e9", "sudoku 9x9 empty, random limit 1e6"]
)
def test_sudoku_huge_limit_lists_a_capped_number_and_keeps_counting(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(budget, "MAX_LISTED", 20)
    response = solve(row(name), cancel=CancelAfter(4))
    assert response["ok"] and response["cancelled"] is True
    assert len(response["solutions"]) == 20
    assert response["count"] > 20 and response["solutions_truncated"] is True


def test_polyomino_huge_limit_lists_what_an_eighth_of_the_budget_holds(
    small_budget: Callable[[int], None],
) -> None:
    small_budget(16)
    request = row("polyomino 20x20, 200 dominoes, solve limit 1e9")
    response = solve(request, cancel=CancelAfter(3))
    assert response["ok"] and response["cancelled"] is True
    # 2 MB for listing: a tiling of 200 dominoes (kept, decoded, as JSON) takes ~86 KB.
    listed = 2 * 2**20 // listed_bytes(parse_puzzle(request["puzzle"]))
    assert 10 < listed < 50
    assert len(response["solutions"]) == listed < response["count"]
    assert response["solutions_truncated"] is True


@pytest.mark.parametrize(
    "name",
    ["polyomino 20x20, 200 dominoes, count distinct", "polyomino 8x8, 32 dominoes, count distinct"],
)
def test_polyomino_distinct_without_a_single_piece_is_refused_before_reducing(
    name: str, small_budget: Callable[[int], None]
) -> None:
    small_budget(16)  # half of it holds 160 tilings of 200 dominoes, or 1,000 of 32: found at once
    assert_too_large(solve(row(name)), "symmetry 'all'", "fit the memory budget")


def test_sudoku_25x25_bitset_stops_when_its_live_masks_outgrow_the_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Up front the fixed masks and two levels fit; the stack outgrows the rest as it deepens.
    # (The pure walk's stack: the compiled walk keeps one mask per level and runs on.)
    monkeypatch.setenv("PYSOLVER_PURE", "1")
    message = assert_too_large(solve(row("sudoku 25x25 empty, count, bitset")), "live masks")
    assert "dlx engine, which would fit" in message


def test_bitset_bounds_its_stack_at_run_time(
    small_budget: Callable[[int], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYSOLVER_PURE", "1")  # the pure walk's stack (see above)
    n = 16
    problem, _ = sudoku.encode(n, 4, 4, [0] * (n * n))
    small_budget(bitset.estimated_bytes(problem) // 2**20 + 2)
    with pytest.raises(Exception) as caught:
        bitset.search(problem, limit=1)
    assert getattr(caught.value, "code", None) == "too_large"


def test_sudoku_36x36_bitset_is_refused_up_front_naming_an_engine_that_fits() -> None:
    message = assert_too_large(
        solve(row("sudoku 36x36 empty, count, bitset")), "give more clues or a smaller grid"
    )
    # The default at this size fits (masks, the default up to 9x9, hands larger grids to it).
    assert f"{sudoku.MASKS_STANDIN} engine, which would fit" in message


def test_sudoku_picks_an_engine_that_fits_when_none_was_named(
    small_budget: Callable[[int], None],
) -> None:
    n = 25
    problem, _ = sudoku.encode(n, 5, 5, [0] * (n * n))
    small_budget(max(1, dlx.estimated_bytes(problem) // 2**20 + 1))
    assert not budget.fits(singles.estimated_bytes(problem))
    response = solve({"kind": "sudoku", "puzzle": {"grid": "." * n * n}})
    assert response["ok"] and response["engine"] == "dlx" and response["count"] == 1


@pytest.mark.parametrize(
    "name", ["shikaku 100x100, four 2500 clues, dlx", "shikaku 100x100, 25 clues of 400, dlx"]
)
def test_shikaku_dlx_is_refused_before_building_and_propagate_is_named(name: str) -> None:
    assert_too_large(solve(row(name)), "propagate engine, which would fit")
    request = row(name)
    del request["engine"]
    response = solve(request)
    assert response["ok"] and response["engine"] == "propagate" and response["count"] == 1


def test_exact_cover_matrix_over_the_budget_is_refused_while_reading(
    small_budget: Callable[[int], None],
) -> None:
    small_budget(64)
    response = solve(row("exact cover 20k options, 2M entries, dlx"))
    assert_too_large(response, "2,000,000 entries", "fewer options")
    assert response["error"]["path"] == "puzzle.options"


def test_exact_cover_at_the_caps_is_cancelled_while_reading(eager_checkpoints: None) -> None:
    hook = CancelAfter(3)
    response = solve(row("exact cover 200k options (the caps), dlx"), cancel=hook)
    assert_stopped_before_search(response, hook)
    assert response["engine"] == "dlx"


def test_exact_cover_options_keep_one_str_per_declared_name_once_read() -> None:
    """JSON makes a str per occurrence of a name (at the caps 2,000,000, 110 MB the budget did
    not see): once read, the puzzle's options name each item by the declared str, and reads
    the same. ``protocol.loads`` shares them; the reader leaves the request as it is."""
    puzzle = stop_audit.wide_exact_cover(2_000, 50, 500)
    text = json.dumps({"kind": "exact_cover", "puzzle": puzzle})
    tracemalloc.start()
    try:
        plain = json.loads(text)
        parsed_plain = tracemalloc.get_traced_memory()[0]
        del plain
        base = tracemalloc.get_traced_memory()[0]
        request = protocol.loads(text)
        parsed = tracemalloc.get_traced_memory()[0]
        options = request["puzzle"]["options"]
        before = [(option, list(option)) for option in options]
        exact_cover.parse_named(request["puzzle"])
    finally:
        tracemalloc.stop()
    assert request["puzzle"] == puzzle
    declared = {name: name for name in request["puzzle"]["items"]}
    assert all(name is declared[name] for option in options for name in option)
    assert (parsed_plain - base) - (parsed - base) > 100_000 * 48  # 100,000 entries' own strs
    # The reader changed nothing the caller holds: the same lists, holding the same strs.
    assert request["puzzle"]["options"] is options
    assert all(
        now is option and all(map(operator.is_, now, entries))
        for now, (option, entries) in zip(options, before, strict=True)
    )


def test_library_puzzle_shares_names_as_loads_does() -> None:
    """The library builds its puzzle without ``loads``: a 0/1 matrix's column names and
    names given as numbers are one str each, so the reader counts no copies."""
    from_matrix = library.exact_cover_puzzle([[1, 0, 1], [0, 1, 1], [1, 1, 0]])
    from_numbers = library.exact_cover_puzzle([[0, 2], [1, 2], [0, 1]])
    for puzzle in (from_matrix, from_numbers):
        declared = {name: name for name in puzzle["items"] + puzzle["secondary"]}
        assert puzzle["options"] == [["0", "2"], ["1", "2"], ["0", "1"]]
        assert all(name is declared[name] for option in puzzle["options"] for name in option)


def test_exact_cover_budget_counts_what_the_parsed_request_holds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Links and matrix that fit the budget alone do not fit next to the request's own lists
    (its caller keeps it all along): refused, saying so."""
    options, entries = 2_000, 100_000
    matrix = budget.list_bytes(options, budget.LIST_BYTES) + entries * budget.POINTER_BYTES
    links = dlx.links_bytes(500, options, entries)
    monkeypatch.setattr(budget, "BUDGET_BYTES", matrix + links + 100_000)
    with pytest.raises(protocol.SolveError) as refused:
        exact_cover.parse_named(stop_audit.wide_exact_cover(options, 50, 500))
    assert_too_large(protocol.error_response(refused.value), "100,000", "parsed request holds")
    assert refused.value.path == "puzzle.options"


def test_dlx_links_make_one_int_per_entry() -> None:
    """The links share each header's int and the option tuples' node ints (an int above 256 is
    an object of 32 bytes): about 105 bytes per entry, under half of ``links_bytes``."""
    options = [[(start * 7 + k) % 2_000 for k in range(50)] for start in range(2_000)]
    problem = ExactCoverProblem(2_000, 0, options)
    tracemalloc.start()
    try:
        links = dlx._build_links(problem, Monitor())
        built = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert len(links.top) == 2_001 + 100_000
    assert built < 100_000 * 140 < dlx.links_bytes(2_000, 2_000, 100_000) // 1.5


def test_polyomino_random_with_a_huge_limit_on_two_tilings_answers_complete() -> None:
    response = solve(row("polyomino 2x2, 2 dominoes, random limit 1e9"))
    assert response["ok"] and response["count"] == 2 and response["complete"] is True


def test_polyomino_random_restarts_reach_the_cancel_check() -> None:
    # 8x8 with 32 dominoes: millions of tilings, each restart a few dozen nodes (< CHECK_EVERY).
    request = {
        "kind": "polyomino",
        "mode": "random",
        "seed": 5,
        "limit": 10**9,
        "puzzle": {
            "board": ["." * 8] * 8,
            "pieces": [{"name": "D", "cells": [[0, 0], [0, 1]], "count": 32}],
        },
    }
    hook = CancelAfter(5)
    response = solve(request, cancel=hook)
    assert response["ok"] and response["cancelled"] is True
    assert 0 < response["count"] < 10 and hook.asked == 5


# ---------------------------------------------------------------- each phase can be cancelled


def wide_problem() -> ExactCoverProblem:
    """2,000 options of 20 items: enough checkpoints for any build loop."""
    options = [[(start * 7 + k) % 400 for k in range(20)] for start in range(2000)]
    return ExactCoverProblem(400, 0, options)


@pytest.mark.parametrize("engine", [dlx, bitset, singles])
def test_engine_set_up_is_cancellable(engine: Any, eager_checkpoints: None) -> None:
    hook = CancelAfter(2)
    with pytest.raises(Cancelled):
        engine.search(wide_problem(), monitor=Monitor(cancel=hook))
    assert hook.asked == 2


def test_exact_cover_text_is_cancellable_while_reading(eager_checkpoints: None) -> None:
    lines = ["i0 i1 i2 i3"] + [f"i{k % 4}" for k in range(200)]
    hook = CancelAfter(2)
    response = solve(
        {"kind": "exact_cover", "mode": "count", "puzzle": {"text": "\n".join(lines)}},
        cancel=hook,
    )
    assert_stopped_before_search(response, hook)


def test_shikaku_candidates_and_dlx_model_are_cancellable(eager_checkpoints: None) -> None:
    puzzle = stop_audit.shikaku_blocks(40, 10)
    rows, cols, clues = shikaku.parse_puzzle(puzzle)
    hook = CancelAfter(2)
    with pytest.raises(Cancelled):
        shikaku.candidate_rectangles(rows, cols, clues, Monitor(cancel=hook))
    _, masks, _ = shikaku.candidate_rectangles(rows, cols, clues)
    hook = CancelAfter(2)
    with pytest.raises(Cancelled):
        shikaku.encode(rows * cols, masks, Monitor(cancel=hook))
    hook = CancelAfter(3)
    response = solve({"kind": "shikaku", "engine": "dlx", "puzzle": puzzle}, cancel=hook)
    assert_stopped_before_search(response, hook)


def test_polyomino_matrix_building_is_cancellable(eager_checkpoints: None) -> None:
    tiling = parse_puzzle(
        {
            "board": ["." * 10] * 10,
            "pieces": [
                {"name": "A", "cells": [[0, 0], [0, 1]], "count": 25},
                {"name": "B", "cells": [[0, 0], [1, 0]], "count": 25},
            ],
        }
    )
    hook = CancelAfter(2)
    with pytest.raises(Cancelled):
        encode_tiling(tiling, monitor=Monitor(cancel=hook))


def test_symmetry_reduction_is_cancellable(eager_checkpoints: None) -> None:
    # No piece used once: every tiling found is reduced under the whole group, one checkpoint
    # each. The matrix is built beforehand, and the search stops by returning (not raising),
    # so ``Cancelled`` can only come from the reduction.
    tiling = parse_puzzle(
        {"board": ["." * 6] * 6, "pieces": [{"name": "D", "cells": [[0, 0], [0, 1]], "count": 18}]}
    )
    branches = count_branches(tiling, "distinct")
    assert [branch.reduce is not None for branch in branches] == [True]
    found = run_branches(branches, "bitset", 50, True, Monitor())
    assert found.count == 50
    hook = CancelAfter(10)
    with pytest.raises(Cancelled):
        run_branches(branches, "bitset", 50, True, Monitor(cancel=hook))
    assert hook.asked == 10


# ---------------------------------------------------------------- listing cap and count rule


def test_listing_cap_keeps_the_first_solutions_in_search_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    requests = [
        {"kind": "sudoku", "limit": 40, "puzzle": {"grid": "." * 16}},
        {"kind": "sudoku", "engine": "bitset", "limit": 40, "puzzle": {"grid": "." * 16}},
        {"kind": "sudoku", "engine": "dlx", "limit": 40, "puzzle": {"grid": "." * 16}},
        {"kind": "shikaku", "limit": 40, "puzzle": {"rows": 4, "cols": 8,
         "clues": [[0, 0, 4], [3, 3, 4], [0, 4, 4], [3, 7, 4], [1, 1, 4], [2, 2, 4],
                   [1, 5, 4], [2, 6, 4]]}},
        {"kind": "polyomino", "limit": 40, "puzzle": {"board": ["." * 6] * 4,
         "pieces": [{"name": "D", "cells": [[0, 0], [0, 1]], "count": 12}]}},
    ]  # fmt: skip
    for request in requests:
        whole = solve(request)
        assert whole["ok"] and whole["count"] > 3, whole
        monkeypatch.setattr(budget, "MAX_LISTED", 3)
        capped = solve(request)
        monkeypatch.setattr(budget, "MAX_LISTED", 10_000)
        assert capped["count"] == whole["count"] and capped["complete"] == whole["complete"]
        assert capped["solutions"] == whole["solutions"][:3]
        assert capped["solutions_truncated"] is True and "solutions_truncated" not in whole


@pytest.mark.parametrize(
    "request_fields",
    [
        {"kind": "sudoku", "puzzle": {"grid": "." * 16}},
        {"kind": "sudoku", "engine": "bitset", "puzzle": {"grid": "." * 16}},
        {"kind": "exact_cover", "puzzle": {"items": ["a", "b"],
         "options": [["a"], ["b"], ["a", "b"]]}},
        {"kind": "polyomino", "puzzle": {"board": ["...."] * 2,
         "pieces": [{"name": "D", "cells": [[0, 0], [0, 1]], "count": 4}]}},
        {"kind": "polyomino", "symmetry": "distinct", "puzzle": {"board": ["...."] * 4,
         "pieces": [{"name": "D", "cells": [[0, 0], [0, 1]], "count": 8}]}},
        {"kind": "shikaku", "puzzle": {"rows": 2, "cols": 2, "clues": [[0, 0, 2], [1, 1, 2]]}},
        {"kind": "domino", "puzzle": {"rows": 4, "cols": 4}},
        {"kind": "domino", "engine": "profile_dp", "puzzle": {"rows": 3, "cols": 4}},
    ],
)  # fmt: skip
def test_count_with_limit_equal_to_the_total_is_complete(request_fields: dict[str, Any]) -> None:
    total = solve({**request_fields, "mode": "count"})
    assert total["ok"] and total["complete"] is True and total["count"] >= 2
    exact = solve({**request_fields, "mode": "count", "limit": total["count"]})
    assert exact["count"] == total["count"] and exact["complete"] is True
    short = solve({**request_fields, "mode": "count", "limit": total["count"] - 1})
    assert short["count"] == total["count"] - 1 and short["complete"] is False


def test_the_budget_is_smaller_in_the_page() -> None:
    assert budget.PYODIDE_BUDGET_BYTES < budget.CPYTHON_BUDGET_BYTES
    assert budget.budget_bytes() == (
        budget.PYODIDE_BUDGET_BYTES if sys.platform == "emscripten" else budget.CPYTHON_BUDGET_BYTES
    )


# ---------------------------------------------------------------- colours and trace mode


def coloured(problem: ExactCoverProblem) -> ExactCoverProblem:
    """``problem`` with its secondary items coloured, option by option in two colours."""
    colours = [
        [1 + index % 2 if item >= problem.primary else 0 for item in option]
        for index, option in enumerate(problem.options)
    ]
    return ExactCoverProblem(problem.primary, problem.secondary, problem.options, colours)


def test_estimates_count_what_colours_add() -> None:
    plain = ExactCoverProblem(2, 3, [[0, 2, 3], [1, 2, 4], [0, 4], [1, 3]] * 50)
    with_colours = coloured(plain)
    # bitset: a mask per (item, colour) pair used; dlx: a colour slot per node and a set per
    # option for the look-ahead.
    pairs = 2 * 3
    mask = bitset._mask_bytes(len(plain.options))
    assert bitset.estimated_bytes(with_colours) - bitset.estimated_bytes(plain) >= pairs * mask
    entries = sum(map(len, plain.options))
    assert dlx.estimated_bytes(with_colours) - dlx.estimated_bytes(plain) >= entries * 8
    # singles: the (option, item) colour table and an exclusion list per (item, colour).
    assert singles.estimated_bytes(with_colours) - singles.estimated_bytes(plain) >= entries * 64


def test_trace_is_refused_when_its_sets_and_steps_would_not_fit(
    small_budget: Callable[[int], None],
) -> None:
    request = {"kind": "sudoku", "mode": "trace", "puzzle": {"grid": "." * 256}}
    assert solve(request)["ok"]
    small_budget(1)
    assert_too_large(solve(request), "trace", "max_steps")
    problem = sudoku.encode(16, 4, 4, [0] * 256)[0]
    assert trace.estimated_bytes(problem, 1) > 2**20


def test_trace_of_shikaku_propagation_is_checked_too(small_budget: Callable[[int], None]) -> None:
    request = {"kind": "shikaku", "mode": "trace", "puzzle": stop_audit.shikaku_blocks(20, 5)}
    assert solve(request)["ok"]
    small_budget(1)
    assert_too_large(solve(request), "trace", "max_steps")


@pytest.mark.parametrize(
    "request_",
    [
        {"kind": "sudoku", "mode": "count", "heatmap": True, "puzzle": {"grid": "." * 81}},
        {"kind": "shikaku", "mode": "count", "heatmap": True,
         "puzzle": shikaku_puzzle(16, 16, 0, max_area=4)},  # 160 solutions
        {"kind": "polyomino", "mode": "count", "heatmap": True,
         "puzzle": {"board": ["." * 15] * 4, "pieces": ["pentominoes"]}},  # 1,472 tilings
    ],
)  # fmt: skip
def test_a_heatmap_keeps_only_what_fits_the_budget(monkeypatch, request_):
    # A heatmap keeps every solution it sums: under a small budget it may keep fewer than the
    # protocol's cap, and a puzzle with more solutions than that is refused, not counted into
    # memory it does not have.
    monkeypatch.setattr(budget, "BUDGET_BYTES", 2 * 2**20)
    response = solve(request_)
    assert not response["ok"], response
    assert response["error"]["code"] == "too_large"
    assert response["error"]["path"] == "heatmap"
    assert "sums at most" in response["error"]["message"]
    # The same heatmap with a limit that fits is drawn.
    limited = solve({**request_, "limit": 5})
    assert limited["ok"] and limited["count"] == 5 and "heatmap" in limited


def test_heatmap_cap_is_the_protocols_where_the_budget_allows() -> None:
    assert budget.heatmap_cap(100) == protocol.MAX_HEATMAP_SOLUTIONS
    assert budget.heatmap_cap(budget.budget_bytes()) == 1
