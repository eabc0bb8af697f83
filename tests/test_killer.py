"""Killer Sudoku: generated killers are unique by an independent count, each cage technique
fires on a hand-made board and removes only what the rules rule out, explained paths replay
to the solution (``tests/test_explain.py``'s checker), and the CLI makes killers."""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import pysolver
from pysolver.kinds.sudoku import cages as cage_techniques
from pysolver.kinds.sudoku.board import Grid
from pysolver.kinds.sudoku.techniques import TECHNIQUES
from pysolver.kinds.sudoku.variants import Cage, digit_sets
from tests.test_explain import replay
from tests.test_sudoku_variants import Rules, brute_force

ROOT = Path(__file__).resolve().parent.parent
BOXES = {4: (2, 2), 6: (2, 3), 9: (3, 3)}


def generate(size: int, seed: int, difficulty: str) -> dict[str, Any]:
    response = pysolver.solve(
        {
            "kind": "sudoku",
            "mode": "generate",
            "seed": seed,
            "difficulty": difficulty,
            "puzzle": {"size": size, "variant": "killer"},
        }
    )
    assert response["ok"], response
    return response


def cages_of(puzzle: dict[str, Any], n: int) -> list[tuple[int, list[int]]]:
    return [(cage["sum"], [r * n + c for r, c in cage["cells"]]) for cage in puzzle["cages"]]


def check_killer(response: dict[str, Any], n: int) -> list[tuple[int, list[int]]]:
    """The answer is a killer as docs/generating.md says: no givens, every cell in one cage of
    1 to 5 cells with distinct digits adding up to its sum."""
    puzzle = response["puzzle"]
    assert set(puzzle["grid"]) == {"."} and len(puzzle["grid"]) == n * n
    solution = [value for row in response["solutions"][0] for value in row]
    cages = cages_of(puzzle, n)
    covered = sorted(cell for _total, cells in cages for cell in cells)
    assert covered == list(range(n * n))
    for total, cells in cages:
        assert 1 <= len(cells) <= min(5, n)
        digits = [solution[cell] for cell in cells]
        assert len(set(digits)) == len(digits) and sum(digits) == total
    sizes = [len(cells) for _total, cells in cages]
    assert sum(2 <= size <= 4 for size in sizes) * 2 >= len(sizes)  # mostly 2 to 4 cells
    return cages


# ---------------------------------------------------------------- unique, counted twice


@pytest.mark.parametrize("size", [4, 6])
def test_small_generated_killers_have_one_solution_by_brute_force(size: int) -> None:
    for seed, difficulty in ((1, "easy"), (2, "medium"), (3, "hard"), (4, "expert")):
        response = generate(size, seed, difficulty)
        cages = check_killer(response, size)
        rules = Rules(size, BOXES[size], cages=cages)
        count, found = brute_force(rules, [0] * (size * size), 2)
        assert count == 1, (size, seed, difficulty)
        assert found == [value for row in response["solutions"][0] for value in row]
        # Dancing links on the exact cover of the same puzzle agrees.
        counted = pysolver.solve(
            {"kind": "sudoku", "mode": "count", "engine": "dlx", "puzzle": response["puzzle"]}
        )
        assert counted["count"] == 1 and counted["complete"]


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard", "fiendish", "expert"])
def test_9x9_killers_are_unique_graded_as_explained_and_replay(difficulty: str) -> None:
    # Seed 11 makes each level but fiendish, which 2 of seeds 0 to 7 reach (1 and 2).
    response = generate(9, 1 if difficulty == "fiendish" else 11, difficulty)
    check_killer(response, 9)
    assert response["grade"]["level"] == difficulty, response.get("note")
    assert response["grade"]["givens"] == 0
    counted = pysolver.solve({"kind": "sudoku", "limit": 2, "puzzle": response["puzzle"]})
    assert counted["count"] == 1 and counted["complete"]
    explained = pysolver.solve({"kind": "sudoku", "mode": "explain", "puzzle": response["puzzle"]})
    assert explained["ok"] and explained["grade"] == {
        key: value for key, value in response["grade"].items() if key not in ("givens", "cages")
    }
    assert explained["solutions"] == response["solutions"]
    replay([[0] * 9 for _ in range(9)], explained["steps"], response["solutions"][0], (3, 3))
    guesses = explained["grade"]["techniques"].get("guess", 0)
    assert (guesses > 0) == (difficulty == "expert")


def test_the_same_seed_makes_the_same_killer() -> None:
    first = generate(6, 5, "medium")
    assert generate(6, 5, "medium")["puzzle"] == first["puzzle"]
    assert generate(6, 5, "hard")["puzzle"] != first["puzzle"]


def test_a_level_a_size_cannot_reach_answers_the_nearest_with_a_note() -> None:
    response = generate(4, 1, "hard")
    assert response["grade"]["level"] in ("easy", "medium")
    assert "no hard 4x4 killer" in response["note"]


# ---------------------------------------------------------------- each technique by hand


def board(n: int, cages: list[tuple[int, list[tuple[int, int]]]], givens: str = "") -> Grid:
    """An n x n board (standard boxes) with these cages (sum, [(row, column)], from 0) and
    givens (a grid string, '.' blank)."""
    grid = Grid.standard(n, *BOXES[n])
    grid.cages = tuple(Cage(total, tuple(r * n + c for r, c in cells)) for total, cells in cages)
    for cell, char in enumerate(givens):
        if char != ".":
            grid.place(cell, int(char))
    return grid


def removed(step: Any, n: int) -> set[tuple[int, int, int]]:
    return {(cell // n, cell % n, digit) for cell, digit in step.eliminate}


def test_cage_combination_keeps_the_digits_of_the_sets_that_fit() -> None:
    # A 2-cell cage of 3 in a 4x4: only 1 + 2, so 3 and 4 go from both cells.
    grid = board(4, [(3, [(0, 0), (0, 1)])])
    step = cage_techniques.cage_combination(grid)
    assert step is not None and step.technique == "cage combination"
    assert removed(step, 4) == {(0, 0, 3), (0, 0, 4), (0, 1, 3), (0, 1, 4)}
    assert "adds up to 3, so it holds 1 + 2" in step.text
    assert "row 1, column 1" in step.text
    # 6 in 3 cells on 6x6 is 1 + 2 + 3; row 1 already holds 3 (column 4), so the cage's two
    # cells in row 1 hold 1 and 2, and its cell in row 2 holds 3: 1 and 2 go there too.
    grid = board(6, [(6, [(0, 0), (0, 1), (1, 0)])], "...3" + "." * 32)
    step = cage_techniques.cage_combination(grid)
    assert step is not None
    assert removed(step, 6) == {
        (r, c, d) for r, c in ((0, 0), (0, 1), (1, 0)) for d in (4, 5, 6)
    } | {(1, 0, 1), (1, 0, 2)}
    grid.apply(step)
    assert cage_techniques.cage_combination(grid) is None
    # A placed digit leaves its cage's other cells (cages are not houses).
    grid = board(9, [(10, [(0, 0), (4, 4)])], "4" + "." * 80)
    step = cage_techniques.cage_combination(grid)
    assert step is not None and removed(step, 9) == {(4, 4, d) for d in range(1, 10) if d != 6}
    assert "already holds 4" in step.text


def test_fillings_are_every_way_of_filling_the_cells() -> None:
    """``fillings`` (sets worked out per set and reach, kept apart) against a plain listing of
    every assignment of distinct digits to the cells: the same sets, in ``digit_sets``' order,
    and per cell the same digits. Random cells of 1 to 5 on 9 digits, many sharing sets."""
    rng = random.Random(7)
    for _ in range(400):
        size = rng.randint(1, 5)
        candidates = tuple(rng.randrange(1, 1 << 9) for _ in range(size))
        choices = ((1 << 9) - 1) & ~rng.choice((0, 0, 1 << rng.randrange(9)))
        total = rng.randint(size * (size + 1) // 2, size * (19 - size) // 2)
        sets: set[int] = set()
        allowed = [0] * size
        for digits in itertools.permutations(range(1, 10), size):
            if sum(digits) != total or any(
                not choices >> (d - 1) & 1 or not mask >> (d - 1) & 1
                for d, mask in zip(digits, candidates, strict=True)
            ):
                continue
            sets.add(sum(1 << (d - 1) for d in digits))
            for i, d in enumerate(digits):
                allowed[i] |= 1 << (d - 1)
        viable, found = cage_techniques.fillings(total, choices, candidates)
        in_order = [d for d in digit_sets(choices, size, total) if d in sets]
        assert list(viable) == in_order, (total, choices, candidates)
        assert list(found) == allowed, (total, choices, candidates)


def test_cage_overlap_both_ways() -> None:
    # A cage of 4 in 2 cells on 4x4 must hold 1 and 3; with both in row 1 its 1 and 3 leave
    # the rest of row 1 (columns 3 and 4).
    grid = board(4, [(4, [(0, 0), (0, 1)])])
    grid.apply(cage_techniques.cage_combination(grid) or pytest.fail("no combination"))
    step = cage_techniques.cage_overlap(grid)
    assert step is not None and step.technique == "cage overlap"
    assert removed(step, 4) == {(0, 2, 1), (0, 3, 1)}  # 1 first: its row
    assert "must hold 1" in step.text and "row 1" in step.text
    # A house's digit confined to one cage: a vertical cage of 5 (1 + 4 or 2 + 3) at column 1,
    # rows 1-2, and row 1's 4 only at its top cell: the cage holds 4 there, so 1 + 4: 4 goes
    # from its cell in row 2, and 2 and 3 from both.
    grid = board(4, [(5, [(0, 0), (1, 0)])])
    for column in (1, 2, 3):
        grid.eliminate(column, 4)
    step = cage_techniques.cage_overlap(grid)
    assert step is not None
    assert removed(step, 4) == {(0, 0, 2), (0, 0, 3), (1, 0, 2), (1, 0, 3), (1, 0, 4)}
    assert step.text.startswith("In row 1, 4 can only go in row 1, column 1")
    assert "so that cage holds 4 and so 1 + 4" in step.text


def test_innies_and_outies_of_one_house() -> None:
    # Row 1 of a 4x4 adds up to 10; a cage of 1 + 2 inside it leaves the other two cells
    # (which also stick out into row 2 through their cages) adding up to 7: 3 + 4.
    cages = [(3, [(0, 0), (0, 1)]), (5, [(0, 2), (1, 2)]), (7, [(0, 3), (1, 3)])]
    grid = board(4, cages)
    step = cage_techniques.innies_outies(grid)
    assert step is not None and step.technique == "innies and outies"
    assert removed(step, 4) == {(0, 2, 1), (0, 2, 2), (0, 3, 1), (0, 3, 2)}
    assert "Row 1 adds up to 10" in step.text and "innies" in step.text
    # One innie: a cage of 6 fills three cells of row 1, so the fourth, in a cage of 7 with
    # the cell below it, is 10 - 6 = 4; then that cell below, the outie, is 6 + 7 - 10 = 3.
    cages = [(6, [(0, 0), (0, 1), (0, 2)]), (7, [(0, 3), (1, 3)])]
    grid = board(4, cages)
    step = cage_techniques.innies_outies(grid)
    assert step is not None and step.place == [(3, 4)] and not step.eliminate
    assert step.text.endswith("so row 1, column 4 is 4.")
    grid.apply(step)
    step = cage_techniques.innies_outies(grid)
    assert step is not None and step.place == [(7, 3)]
    assert "outie" in step.text and "7 + 6 - 10 = 3" in step.text


def test_innies_and_outies_across_rows() -> None:
    # Rows 1 and 2 of a 4x4 add up to 20; cages inside them add up to 17 and one cell
    # (row 2, column 4) lies in a cage reaching into row 3: it is 3.
    cages = [
        (10, [(0, 0), (0, 1), (1, 0), (1, 1)]),
        (7, [(0, 2), (0, 3), (1, 2)]),
        (5, [(1, 3), (2, 3)]),
    ]
    grid = board(4, cages)
    step = cage_techniques.innies_outies_across(grid)
    assert step is not None and step.technique == "innies and outies across houses"
    assert step.place == [(7, 3)]
    assert "Rows 1 and 2 add up to 20" in step.text


def test_the_techniques_find_nothing_on_a_board_without_cages() -> None:
    grid = Grid.standard(9, 3, 3)
    for technique in cage_techniques.CAGE_TECHNIQUES:
        assert technique.find(grid) is None


def test_every_killer_technique_is_sound_on_random_small_killers() -> None:
    """On generated 6x6 killers, every step a cage technique takes (from the givens' board
    and after the steps before it) keeps the solution's digit: checked by the replay."""
    for seed in range(6):
        response = generate(6, seed, "hard")
        explained = pysolver.solve(
            {"kind": "sudoku", "mode": "explain", "puzzle": response["puzzle"]}
        )
        replay([[0] * 6 for _ in range(6)], explained["steps"], response["solutions"][0], (2, 3))


def fresh(grid: Grid) -> Grid:
    """A copy of ``grid`` with nothing remembered: every finder looks at every cage and
    house again."""
    twin = grid.copy()
    twin.memo, twin.known, twin.quiet = set(), {}, {}
    return twin


@pytest.mark.parametrize(("size", "difficulty"), [(6, "hard"), (9, "medium"), (9, "hard")])
def test_the_cage_finders_remembered_skips_change_no_step(size: int, difficulty: str) -> None:
    """The cage finders skip the cages and houses unchanged since they found nothing there
    (``cage_combination``'s cages before the one that fired, too). Along whole killer paths
    (the techniques up to the level, each step applied), every finder's step on the board
    that remembers equals its step on a fresh copy that looks at everything."""
    for seed in range(2):
        response = generate(size, seed, difficulty)
        grid = Grid.standard(size, *BOXES[size])
        grid.cages = tuple(
            Cage(total, tuple(cells)) for total, cells in cages_of(response["puzzle"], size)
        )
        steps = 0
        while not grid.solved():
            step = None
            for technique in TECHNIQUES:
                expected = technique.find(fresh(grid))
                step = technique.find(grid)
                assert step == expected, (seed, technique.name, steps)
                if step is not None:
                    break
            if step is None:
                break  # an expert board: a guess's turn
            grid.apply(step)
            steps += 1
        assert steps > 20


# ---------------------------------------------------------------- hints and the CLI


def test_a_hint_on_a_killer_names_a_cage_step() -> None:
    response = generate(9, 3, "medium")
    hint = pysolver.solve({"kind": "sudoku", "mode": "hint", "puzzle": response["puzzle"]})
    assert hint["ok"], hint
    assert hint["hint"]["technique"] in ("cage combination", "naked single", "hidden single")
    assert hint["hint"]["cells"]


def test_the_cli_generates_a_killer() -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pysolver",
            "generate",
            "sudoku",
            "--variant",
            "killer",
            "--size",
            "6",
            "--seed",
            "4",
            "--difficulty",
            "medium",
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    answer = json.loads(run.stdout)
    answer = answer[0] if isinstance(answer, list) else answer
    assert answer["puzzle"]["cages"] and answer["grade"]["level"] == "medium"
    assert answer["puzzle"] == generate(6, 4, "medium")["puzzle"]
