"""Assist mode (pysolver.midend.assist, pysolver.kinds.sudoku.assisting), cross-checked against
a brute force written here from the rules alone: on random 4x4 and 6x6 grids, plain and with
each variant (X, jigsaw, killer), the count, every addition's count and their order, the
redundant givens, and the conflict's two properties (no solution; each given needed). Then the
request's rules, the library's result, the CLI's text, and budget, timeout and cancel."""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import pytest

from pysolver import SolverError, Sudoku, budget, solve
from pysolver.engines import monitor
from tests.conftest import run_pysolver

# ---------------------------------------------------------------- the brute force


@dataclass
class Rules:
    """A grid's rules as the brute force reads them: groups of cells whose digits differ (rows,
    columns, boxes or regions, diagonals, cages) and cages' sums."""

    n: int
    groups: list[list[int]]
    cages: list[tuple[list[int], int]] = field(default_factory=list)
    puzzle: dict[str, Any] = field(default_factory=dict)  # the variant fields of a request


def rules(
    n: int,
    box: tuple[int, int] | None,
    regions: list[str] | None = None,
    diagonals: bool = False,
    cages: list[tuple[list[int], int]] | None = None,
) -> Rules:
    groups = [[r * n + c for c in range(n)] for r in range(n)]
    groups += [[r * n + c for r in range(n)] for c in range(n)]
    puzzle: dict[str, Any] = {}
    if regions is not None:
        labels = "".join(regions)
        groups += [[p for p in range(n * n) if labels[p] == label] for label in sorted(set(labels))]
        puzzle["regions"] = regions
    else:
        assert box is not None
        br, bc = box
        for top in range(0, n, br):
            for left in range(0, n, bc):
                groups.append([(top + i) * n + left + j for i in range(br) for j in range(bc)])
        puzzle["box"] = list(box)
    if diagonals:
        groups.append([i * n + i for i in range(n)])
        groups.append([i * n + n - 1 - i for i in range(n)])
        puzzle["diagonals"] = True
    cages = cages or []
    groups += [cells for cells, _total in cages]
    if cages:
        puzzle["cages"] = [
            {"sum": total, "cells": [list(divmod(p, n)) for p in cells]} for cells, total in cages
        ]
    return Rules(n, groups, cages, puzzle)


def brute(
    rule: Rules, values: list[int], limit: int = 100_000, order: random.Random | None = None
) -> list[list[int]]:
    """Every solution (up to ``limit``) by plain backtracking, cell by cell in reading order."""
    n = rule.n
    of_cell: list[list[list[int]]] = [[] for _ in range(n * n)]
    for group in rule.groups:
        for p in group:
            of_cell[p].append(group)
    cage_of = {p: (cells, total) for cells, total in rule.cages for p in cells}
    grid = values.copy()
    for group in rule.groups:
        seen = [grid[p] for p in group if grid[p]]
        if len(seen) != len(set(seen)):
            return []
    for cells, total in rule.cages:
        filled = [grid[p] for p in cells if grid[p]]
        if sum(filled) > total or (len(filled) == len(cells) and sum(filled) != total):
            return []
    found: list[list[int]] = []

    def fits(p: int, d: int) -> bool:
        if any(grid[q] == d for group in of_cell[p] for q in group):
            return False
        if p in cage_of:
            cells, total = cage_of[p]
            filled = [grid[q] for q in cells if grid[q]] + [d]
            if len(filled) == len(cells):
                return sum(filled) == total
            return sum(filled) < total
        return True

    def go(blanks: int) -> bool:
        if blanks == 0:
            found.append(grid.copy())
            return len(found) >= limit
        # The blank cell with the fewest digits that fit (the first such in reading order).
        best: tuple[int, list[int]] | None = None
        for p in range(n * n):
            if not grid[p]:
                digits = [d for d in range(1, n + 1) if fits(p, d)]
                if best is None or len(digits) < len(best[1]):
                    best = (p, digits)
                    if len(digits) <= 1:
                        break
        assert best is not None
        p, digits = best
        if order is not None:
            order.shuffle(digits)
        for d in digits:
            grid[p] = d
            if go(blanks - 1):
                return True
            grid[p] = 0
        return False

    go(grid.count(0))
    return found


def request(rule: Rules, values: list[int], **fields: Any) -> dict[str, Any]:
    symbols = "123456789"
    grid = "".join(symbols[v - 1] if v else "." for v in values)
    return {"kind": "sudoku", "mode": "assist", "puzzle": {"grid": grid, **rule.puzzle}, **fields}


def expected_additions(n: int, solutions: list[list[int]], values: list[int]) -> list[dict]:
    add = []
    for p in range(n * n):
        if values[p]:
            continue
        for d in range(1, n + 1):
            left = sum(1 for s in solutions if s[p] == d)
            if 0 < left < len(solutions):
                add.append({"cell": list(divmod(p, n)), "digit": d, "count": left})
    return sorted(add, key=lambda e: (e["count"], e["cell"], e["digit"]))


# ---------------------------------------------------------------- the grids


def killer_cages(n: int, solution: list[int], rng: random.Random) -> list[tuple[list[int], int]]:
    """A few cages (n // 2 to n - 1) of up to three cells with distinct digits, cut from
    ``solution`` by random walks: enough to constrain, too few to make the grid unique."""
    free = set(range(n * n))
    cages = []
    for start in rng.sample(range(n * n), rng.randint(n // 2, n - 1)):
        if start not in free:
            continue
        cells = [start]
        free.discard(start)
        for _ in range(rng.randint(1, 2)):
            r, c = divmod(cells[-1], n)
            near = [
                (r + dr) * n + c + dc
                for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                if 0 <= r + dr < n
                and 0 <= c + dc < n
                and (r + dr) * n + c + dc in free
                and solution[(r + dr) * n + c + dc] not in [solution[p] for p in cells]
            ]
            if not near:
                break
            cells.append(rng.choice(near))
            free.discard(cells[-1])
        cages.append((sorted(cells), sum(solution[p] for p in cells)))
    return cages


JIGSAW_4 = ["AABB", "ACBB", "ACDD", "CCDD"]
JIGSAW_6 = ["AAABBB", "ACCCBB", "AACDDB", "ECCDDF", "EEEDFF", "EEDFFF"]
BOXES = {4: (2, 2), 6: (2, 3)}
VARIANTS = ("plain", "x", "jigsaw", "killer")


def grid_rules(n: int, variant: str, rng: random.Random) -> tuple[Rules, list[int]]:
    """Rules of ``variant`` at size n and one of their solutions (random)."""
    if variant == "jigsaw":
        plain = rules(n, None, regions={4: JIGSAW_4, 6: JIGSAW_6}[n])
    else:
        plain = rules(n, BOXES[n], diagonals=variant == "x")
    solution = brute(plain, [0] * (n * n), limit=1, order=rng)[0]
    if variant != "killer":
        return plain, solution
    return rules(n, BOXES[n], cages=killer_cages(n, solution, rng)), solution


def several(
    rule: Rules, solution: list[int], rng: random.Random
) -> tuple[list[int], list[list[int]]]:
    """Givens from ``solution`` leaving 2 to 200 solutions, and those solutions."""
    n = rule.n
    while True:
        values = [0] * (n * n)
        for p in rng.sample(range(n * n), rng.randint(0, n * n // 2)):
            values[p] = solution[p]
        found = brute(rule, values, limit=201)
        if 2 <= len(found) <= 200:
            return values, found


def unique(rule: Rules, solution: list[int], rng: random.Random) -> list[int]:
    """Givens from ``solution`` with that one solution (added at random until unique; the
    count that says so is pysolver's, to be quick: what the tests then check is brute force)."""
    n = rule.n
    values = [0] * (n * n)
    for p in rng.sample(range(n * n), n * n):
        values[p] = solution[p]
        counting = {**request(rule, values), "mode": "count", "limit": 2}
        if solve(counting)["count"] == 1:
            return values
    return values


# Three grids of each variant at 4x4, two at 6x6 (the brute force takes seconds there).
SEEDS = {4: 3, 6: 2}
CASES = [(n, variant, seed) for n in SEEDS for variant in VARIANTS for seed in range(SEEDS[n])]


@pytest.mark.parametrize(("n", "variant", "seed"), CASES)
def test_additions_are_every_disputed_given_with_its_exact_count(n, variant, seed) -> None:
    rng = random.Random(f"add {n} {variant} {seed}")
    rule, solution = grid_rules(n, variant, rng)
    values, solutions = several(rule, solution, rng)
    response = solve(request(rule, values))
    assert response["ok"], response
    assert response["count"] == len(solutions) and response["complete"] is True
    assert response["unique"] is False and response["add_exact"] is True
    assert response["add"] == expected_additions(n, solutions, values)
    assert response["add"], "solutions that differ differ somewhere"
    assert "redundant" not in response and "conflict" not in response


@pytest.mark.parametrize(("n", "variant", "seed"), CASES)
def test_redundant_givens_are_exactly_those_that_can_go(n, variant, seed) -> None:
    rng = random.Random(f"redundant {n} {variant} {seed}")
    rule, solution = grid_rules(n, variant, rng)
    values = unique(rule, solution, rng)
    response = solve(request(rule, values))
    assert response["ok"], response
    assert (response["count"], response["complete"], response["unique"]) == (1, True, True)
    expected = []
    for p in range(n * n):
        if values[p]:
            less = values.copy()
            less[p] = 0
            if len(brute(rule, less, limit=2)) == 1:
                expected.append(list(divmod(p, n)))
    assert response["redundant"] == expected
    assert response["minimal"] is (not expected)
    assert "add" not in response


def check_conflict(rule: Rules, values: list[int], conflict: list[list[int]]) -> None:
    """No solution with only the conflict's givens; with any one of them left out, one."""
    n = rule.n
    kept = [r * n + c for r, c in conflict]
    assert all(values[p] for p in kept)
    only = [values[p] if p in kept else 0 for p in range(n * n)]
    assert brute(rule, only, limit=1) == []
    for p in kept:
        less = only.copy()
        less[p] = 0
        assert len(brute(rule, less, limit=1)) == 1, f"{divmod(p, n)} is not needed"


@pytest.mark.parametrize(("n", "variant", "seed"), CASES)
def test_a_conflict_is_minimal_and_has_no_solution(n, variant, seed) -> None:
    rng = random.Random(f"conflict {n} {variant} {seed}")
    rule, solution = grid_rules(n, variant, rng)
    base = unique(rule, solution, rng)
    # Change givens (another digit, or a new given) until there is no solution.
    values = base.copy()
    while brute(rule, values, limit=1):
        values[rng.randrange(n * n)] = rng.randint(1, n)
    response = solve(request(rule, values))
    assert response["ok"], response
    assert (response["count"], response["complete"], response["unique"]) == (0, True, False)
    check_conflict(rule, values, response["conflict"])


def test_clashing_givens_are_a_conflict_not_an_error() -> None:
    response = solve({"kind": "sudoku", "mode": "assist", "puzzle": {"grid": "1..1" + "." * 12}})
    assert response["ok"] and response["conflict"] == [[0, 0], [0, 3]]
    # Elsewhere they are still refused.
    assert solve({"kind": "sudoku", "puzzle": {"grid": "1..1" + "." * 12}})["ok"] is False


def test_cages_with_no_solution_give_an_empty_conflict() -> None:
    # Two one-cell cages of sum 1 in one row: the rules alone have no solution.
    puzzle = {
        "grid": "." * 16,
        "cages": [{"sum": 1, "cells": [[0, 0]]}, {"sum": 1, "cells": [[0, 1]]}],
    }
    response = solve({"kind": "sudoku", "mode": "assist", "puzzle": puzzle})
    assert response["ok"] and response["conflict"] == [] and "rules alone" in response["note"]


def test_a_count_at_the_limit_says_its_additions_are_lower_bounds() -> None:
    rule = rules(4, (2, 2))
    values = [0] * 16
    everything = brute(rule, values)
    response = solve(request(rule, values, limit=10))
    assert response["count"] == 10 and response["complete"] is False
    assert response["unique"] is False and response["add_exact"] is False
    assert "lower" in response["note"] or "at least" in response["note"]
    for entry in response["add"]:
        (r, c), d = entry["cell"], entry["digit"]
        true_count = sum(1 for s in everything if s[r * 4 + c] == d)
        assert 0 < entry["count"] <= true_count
    counts = [entry["count"] for entry in response["add"]]
    assert counts == sorted(counts)


def test_nine_by_nine_unique_puzzle() -> None:
    grid = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    response = solve({"kind": "sudoku", "mode": "assist", "puzzle": {"grid": grid}})
    assert response["unique"] is True and response["minimal"] is False
    # Each one said redundant leaves a unique puzzle when removed (checked by a count).
    for r, c in response["redundant"]:
        less = grid[: r * 9 + c] + "." + grid[r * 9 + c + 1 :]
        assert (
            solve({"kind": "sudoku", "mode": "count", "limit": 2, "puzzle": {"grid": less}})[
                "count"
            ]
            == 1
        )


# ---------------------------------------------------------------- the request


@pytest.mark.parametrize(
    ("fields", "path"),
    [
        ({"limit": 1}, "limit"),
        ({"limit": 10**6}, "limit"),
        ({"jobs": 2}, "jobs"),
        ({"seed": 3}, "seed"),
        ({"engine": "nope"}, "engine"),
    ],
)
def test_fields_assist_mode_refuses(fields, path) -> None:
    response = solve({"kind": "sudoku", "mode": "assist", "puzzle": {"grid": "." * 16}, **fields})
    assert response["ok"] is False and response["error"]["path"] == path


def test_kinds_without_assist_mode_say_which_have_it() -> None:
    response = solve({"kind": "queens", "mode": "assist", "puzzle": {"n": 4}})
    assert response["ok"] is False and "sudoku" in response["error"]["message"]


@pytest.mark.parametrize("engine", ["masks", "singles", "dlx"])
def test_the_count_runs_on_the_engine_asked_for(engine) -> None:
    response = solve(
        {
            "kind": "sudoku",
            "mode": "assist",
            "engine": engine,
            "limit": 50,
            "puzzle": {"grid": "1234" + "." * 12},
        }
    )
    assert response["engine"] == engine and response["count"] == 12
    assert (
        response["add"]
        == solve({"kind": "sudoku", "mode": "assist", "puzzle": {"grid": "1234" + "." * 12}})["add"]
    )


def test_the_library_answers_a_typed_result() -> None:
    several = Sudoku("1234" + "." * 11 + "1", box=(2, 2)).assist()
    assert several.count == 3 and several.exact and several.unique is False
    assert several.add[0].count == 1 and several.conflict is None
    assert "Givens to add" in str(several)
    one = Sudoku(
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    ).assist()
    assert one.unique and (0, 0) in one.redundant and one.minimal is False
    # A conflict without two equal givens in a unit (those the constructor refuses): 1 and 2
    # in row 1 leave its 3 to the top right box, which already has the 3 of row 2.
    clash = Sudoku("12.." + "..3." + "..." + "4" + "....", box=(2, 2)).assist()
    assert clash.count == 0 and clash.conflict and "clash" in str(clash)
    with pytest.raises(SolverError):
        Sudoku("11" + "." * 14)


def test_the_cli_writes_assist_mode_in_words() -> None:
    done = run_pysolver(
        "solve",
        "--mode",
        "assist",
        "--format",
        "text",
        "-",
        stdin=json.dumps({"kind": "sudoku", "puzzle": {"grid": "1234" + "." * 11 + "1"}}),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("sudoku assist (masks): 3 solutions; they differ in")
    assert "4 at row 2, column 1: 1 solution left" in done.stdout


# ---------------------------------------------------------------- budget, timeout, cancel

EMPTY_9 = {"kind": "sudoku", "mode": "assist", "limit": 100_000, "puzzle": {"grid": "." * 81}}


def test_the_cli_timeout_stops_assist_mode() -> None:
    started = time.perf_counter()
    done = run_pysolver("solve", "--timeout", "1", "-", stdin=json.dumps(EMPTY_9))
    assert done.returncode == 130, done.stderr
    response = json.loads(done.stdout)
    assert response["cancelled"] is True and response["complete"] is False
    assert "add" not in response
    assert time.perf_counter() - started < 60


def test_cancel_during_the_checks_keeps_the_count_and_drops_the_rest(monkeypatch) -> None:
    monkeypatch.setattr(monitor, "CHECKPOINT_GRACE", 0)
    grid = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    polls = []

    def cancel() -> bool:
        polls.append(1)
        return len(polls) > 3

    response = solve({"kind": "sudoku", "mode": "assist", "puzzle": {"grid": grid}}, cancel=cancel)
    assert response["ok"] and response["cancelled"] is True and response["complete"] is False
    assert response["count"] == 1 and "redundant" not in response and "minimal" not in response


def test_progress_is_monotone_and_ends_done() -> None:
    reports: list[dict] = []
    grid = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    solve({"kind": "sudoku", "mode": "assist", "puzzle": {"grid": grid}}, progress=reports.append)
    fractions = [report["fraction"] for report in reports]
    assert fractions == sorted(fractions) and reports[-1].get("done") is True
    assert fractions[-1] == 1.0


def test_the_memory_budget_holds(monkeypatch) -> None:
    # The heatmap keeps each counted solution: a budget with room for fewer than the limit
    # refuses, as count mode's heatmap does.
    monkeypatch.setattr(budget, "BUDGET_BYTES", 200_000)
    response = solve({**EMPTY_9, "limit": 50_000})
    assert response["ok"] is False and response["error"]["code"] == "too_large"
