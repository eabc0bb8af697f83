"""Generate mode: every generated puzzle has one solution (proved by a second method), the same
seed gives the same puzzle in every process, the grades mean what docs/generating.md says, progress
and cancel work as in any search, and bad requests are refused clearly."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import pysolver
import pysolver.facts
from pysolver.kinds import kind_module, kind_names
from pysolver.midend.registry import kind

DATA = Path(__file__).parent / "data" / "generated.json"
ROOT = Path(__file__).parent.parent


def generate(kind_name: str, puzzle: dict[str, Any], **fields: Any) -> dict[str, Any]:
    response = pysolver.solve({"kind": kind_name, "mode": "generate", "puzzle": puzzle, **fields})
    assert response["ok"], response
    return response


# ---------------------------------------------------------------- an independent Sudoku checker


def read_grid(text: str) -> list[int]:
    symbols = "123456789ABCDEFG"
    return [0 if char == "." else symbols.index(char) + 1 for char in text]


def box_shape(n: int) -> tuple[int, int]:
    return {4: (2, 2), 6: (2, 3), 9: (3, 3), 12: (3, 4), 16: (4, 4)}[n]


def units(n: int) -> list[list[int]]:
    """Every row, column and box as a list of cell indices."""
    rows, cols = box_shape(n)
    found = [[r * n + c for c in range(n)] for r in range(n)]
    found += [[r * n + c for r in range(n)] for c in range(n)]
    for top in range(0, n, rows):
        for left in range(0, n, cols):
            found.append([(top + r) * n + left + c for r in range(rows) for c in range(cols)])
    return found


def brute_force_solutions(
    n: int, values: list[int], most: int = 2, houses: list[list[int]] | None = None
) -> list[list[int]]:
    """Up to ``most`` solutions by plain backtracking, cell by cell in reading order;
    ``houses``: the units each digit fills once (default: rows, columns and boxes)."""
    peers = [set() for _ in range(n * n)]
    for unit in houses if houses is not None else units(n):
        for cell in unit:
            peers[cell].update(unit)
    grid = values.copy()
    found: list[list[int]] = []

    def place(cell: int) -> None:
        if len(found) >= most:
            return
        if cell == n * n:
            found.append(grid.copy())
            return
        if grid[cell]:
            place(cell + 1)
            return
        for digit in range(1, n + 1):
            if all(grid[peer] != digit for peer in peers[cell]):
                grid[cell] = digit
                place(cell + 1)
                grid[cell] = 0

    place(0)
    return found


def singles_only(n: int, values: list[int]) -> list[int] | None:
    """The grid filled by naked and hidden singles alone, or None when they get stuck."""
    all_units = units(n)
    grid = values.copy()
    while 0 in grid:
        candidates = [
            set()
            if grid[cell]
            else set(range(1, n + 1))
            - {grid[peer] for unit in all_units if cell in unit for peer in unit}
            for cell in range(n * n)
        ]
        moves: dict[int, int] = {}
        for cell in range(n * n):
            if len(candidates[cell]) == 1:
                moves[cell] = next(iter(candidates[cell]))
        for unit in all_units:
            for digit in range(1, n + 1):
                spots = [cell for cell in unit if digit in candidates[cell]]
                if len(spots) == 1:
                    moves[spots[0]] = digit
        if not moves:
            return None
        for cell, digit in moves.items():
            grid[cell] = digit
    return grid


# ---------------------------------------------------------------- Sudoku


@pytest.mark.parametrize("size", [4, 6])
@pytest.mark.parametrize("symmetry", ["rotational", "none"])
def test_small_sudokus_have_one_solution_by_brute_force(size: int, symmetry: str) -> None:
    # Beyond "medium" a 6x6 rarely gets (and a 4x4 never): those spend every attempt.
    for seed in range(6):
        for difficulty in ("easy", "medium"):
            response = generate(
                "sudoku", {"size": size}, seed=seed, difficulty=difficulty, symmetry=symmetry
            )
            values = read_grid(response["puzzle"]["grid"])
            solutions = brute_force_solutions(size, values)
            assert len(solutions) == 1, (seed, difficulty, response["puzzle"])
            expected = [value for row in response["solutions"][0] for value in row]
            assert solutions[0] == expected
            assert response["count"] == 1 and response["complete"]


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard", "fiendish", "expert"])
def test_9x9_sudokus_are_unique_by_another_engine_and_solvable_as_requests(
    difficulty: str,
) -> None:
    for seed in range(2):
        response = generate("sudoku", {"size": 9}, seed=seed, difficulty=difficulty)
        assert response["grade"]["level"] == difficulty
        assert "note" not in response
        # The generator searched with singles; dancing links counts the whole tree again.
        counted = pysolver.solve(
            {"kind": "sudoku", "mode": "count", "engine": "dlx", "puzzle": response["puzzle"]}
        )
        assert counted["count"] == 1 and counted["complete"]
        solved = pysolver.solve({"kind": "sudoku", "limit": 2, "puzzle": response["puzzle"]})
        assert solved["unique"] is True
        assert solved["solutions"] == response["solutions"]


def test_easy_falls_to_singles_and_hard_does_not() -> None:
    for seed in range(2):
        easy = generate("sudoku", {"size": 9}, seed=seed, difficulty="easy")
        values = read_grid(easy["puzzle"]["grid"])
        filled = singles_only(9, values)
        assert filled == [value for row in easy["solutions"][0] for value in row]
        assert set(easy["grade"]["techniques"]) <= {"naked single", "hidden single"}
        for difficulty in ("hard", "expert"):
            harder = generate("sudoku", {"size": 9}, seed=seed, difficulty=difficulty)
            assert singles_only(9, read_grid(harder["puzzle"]["grid"])) is None
            assert set(harder["grade"]["techniques"]) - {"naked single", "hidden single"}


# The techniques of each level (docs/explaining.md): a level's puzzles use its own
# and easier ones, and at least one of its own.
LEVEL_TECHNIQUES = {
    "easy": {"naked single", "hidden single"},
    "medium": {
        "pointing",
        "claiming",
        "naked pair",
        "hidden pair",
        "naked triple",
        "hidden triple",
        "naked quad",
        "hidden quad",
    },
    "hard": {"x-wing", "swordfish", "jellyfish", "xy-wing", "xyz-wing"},
    "fiendish": {"simple colouring", "x-chain", "xy-chain", "forcing chain"},
    "expert": {"guess"},
}


def test_grades_follow_the_documented_technique_levels() -> None:
    levels = list(LEVEL_TECHNIQUES)
    for difficulty in levels:
        response = generate("sudoku", {"size": 9}, seed=11, difficulty=difficulty)
        grade = response["grade"]
        assert grade["level"] == difficulty
        allowed = set().union(
            *(LEVEL_TECHNIQUES[level] for level in levels[: levels.index(difficulty) + 1])
        )
        assert set(grade["techniques"]) <= allowed
        assert set(grade["techniques"]) & LEVEL_TECHNIQUES[difficulty]
        # The grade is explain mode's grade of the puzzle.
        explained = pysolver.solve(
            {"kind": "sudoku", "mode": "explain", "puzzle": response["puzzle"]}
        )
        assert {key: grade[key] for key in ("level", "score", "techniques")} == explained["grade"]
        assert grade["givens"] == sum(
            char != "."
            for char in generate("sudoku", {"size": 9}, seed=11, difficulty=difficulty)["puzzle"][
                "grid"
            ]
        )


def test_givens_are_symmetric_by_default_and_need_not_be_with_symmetry_none() -> None:
    asymmetric = 0
    for seed in range(4):
        for symmetry in ("rotational", "none"):
            fields = {} if symmetry == "rotational" else {"symmetry": symmetry}
            grid = generate("sudoku", {"size": 9}, seed=seed, difficulty="medium", **fields)
            given = [char != "." for char in grid["puzzle"]["grid"]]
            symmetric = given == given[::-1]
            if symmetry == "rotational":
                assert symmetric
            else:
                asymmetric += not symmetric
    assert asymmetric


def test_larger_sudokus_are_unique() -> None:
    response = generate("sudoku", {"size": 12}, seed=2, difficulty="easy")
    assert response["grade"]["level"] == "easy"
    assert len(response["puzzle"]["grid"]) == 144
    counted = pysolver.solve({"kind": "sudoku", "mode": "count", "puzzle": response["puzzle"]})
    assert counted["count"] == 1 and counted["complete"]


def test_a_level_out_of_reach_is_the_nearest_found_with_a_note() -> None:
    # A 4x4 Sudoku with one solution falls to singles (LEVELS_BY_SIZE): the first made answers.
    response = generate("sudoku", {"size": 4}, seed=1, difficulty="hard")
    assert response["grade"]["level"] == "easy"
    assert "4x4 puzzles are made at easy only" in response["note"]
    assert response["stats"]["attempts"] == 1


def test_6x6_medium_is_made_on_every_seed() -> None:
    # The carve stays within the level asked and swaps orbits on puzzles easier than it: a
    # minimal 6x6 puzzle is nearly always easy, so blanking while unique alone never got there.
    for seed in range(5):
        response = generate("sudoku", {"size": 6}, seed=seed, difficulty="medium")
        assert response["grade"]["level"] == response["level"] == "medium", seed
        assert "note" not in response
        values = read_grid(response["puzzle"]["grid"])
        assert len(brute_force_solutions(6, values)) == 1
        assert singles_only(6, values) is None  # singles alone do not fill it


def test_the_levels_of_one_seed_start_from_different_grids() -> None:
    for seed in (1, 4):
        grids = {
            json.dumps(generate("sudoku", {"size": 9}, seed=seed, difficulty=level)["solutions"])
            for level in ("easy", "medium", "hard", "expert")
        }
        assert len(grids) == 4, seed


# ---------------------------------------------------------------- Sudoku variants


def variant_units(n: int, puzzle: dict[str, Any]) -> list[list[int]]:
    """Rows and columns, the boxes or the puzzle's jigsaw regions, and its diagonals, read
    from the puzzle's fields by this test alone."""
    found = [[r * n + c for c in range(n)] for r in range(n)]
    found += [[r * n + c for r in range(n)] for c in range(n)]
    if "regions" in puzzle:
        labels = "".join(puzzle["regions"])
        for label in sorted(set(labels)):
            found.append([cell for cell, mine in enumerate(labels) if mine == label])
    else:
        found += units(n)[2 * n :]
    if puzzle.get("diagonals"):
        found.append([i * n + i for i in range(n)])
        found.append([i * n + n - 1 - i for i in range(n)])
    return found


def side_connected(cells: list[int], n: int) -> bool:
    """Whether the cells form one piece through shared sides (a flood fill)."""
    left = set(cells)
    stack = [left.pop()]
    while stack:
        r, c = divmod(stack.pop(), n)
        for r2, c2 in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= r2 < n and 0 <= c2 < n and r2 * n + c2 in left:
                left.remove(r2 * n + c2)
                stack.append(r2 * n + c2)
    return not left


def check_variant(response: dict[str, Any], variant: str, n: int) -> list[int]:
    """The generated puzzle's own rules hold in its solution; jigsaw regions are n connected
    regions of n cells. Returns the givens."""
    puzzle = response["puzzle"]
    assert ("regions" in puzzle) == (variant == "jigsaw")
    assert puzzle.get("diagonals", False) == (variant == "x")
    solution = [value for row in response["solutions"][0] for value in row]
    houses = variant_units(n, puzzle)
    assert len(houses) == 3 * n + (2 if variant == "x" else 0)
    for house in houses:
        assert len(house) == n
        assert sorted(solution[cell] for cell in house) == list(range(1, n + 1))
        if variant == "jigsaw":
            assert side_connected(house, n)
    givens = read_grid(puzzle["grid"])
    assert all(given in (0, solution[cell]) for cell, given in enumerate(givens))
    return givens


@pytest.mark.parametrize("variant", ["jigsaw", "x"])
@pytest.mark.parametrize("size", [4, 6])
def test_small_variant_sudokus_have_one_solution_by_brute_force(variant: str, size: int) -> None:
    for seed in range(4):
        response = generate("sudoku", {"size": size, "variant": variant}, seed=seed)
        givens = check_variant(response, variant, size)
        houses = variant_units(size, response["puzzle"])
        solutions = brute_force_solutions(size, givens, houses=houses)
        assert len(solutions) == 1, (seed, response["puzzle"])
        assert solutions[0] == [value for row in response["solutions"][0] for value in row]


@pytest.mark.parametrize("variant", ["jigsaw", "x"])
@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard", "expert"])
def test_9x9_variant_sudokus_are_unique_by_dancing_links_and_graded_as_explained(
    variant: str, difficulty: str
) -> None:
    for seed in range(2):
        response = generate(
            "sudoku", {"size": 9, "variant": variant}, seed=seed, difficulty=difficulty
        )
        check_variant(response, variant, 9)
        assert response["grade"]["level"] == difficulty
        assert "note" not in response
        # The generator searched with singles; dancing links counts the whole tree again.
        counted = pysolver.solve(
            {"kind": "sudoku", "mode": "count", "engine": "dlx", "puzzle": response["puzzle"]}
        )
        assert counted["count"] == 1 and counted["complete"]
        solved = pysolver.solve({"kind": "sudoku", "limit": 2, "puzzle": response["puzzle"]})
        assert solved["unique"] is True
        assert solved["solutions"] == response["solutions"]
        explained = pysolver.solve(
            {"kind": "sudoku", "mode": "explain", "puzzle": response["puzzle"]}
        )
        grade = dict(response["grade"])
        del grade["givens"]
        assert explained["grade"] == grade


def test_a_12x12_jigsaw_and_a_16x16_x_are_unique() -> None:
    for n, variant in ((12, "jigsaw"), (16, "x")):
        response = generate("sudoku", {"size": n, "variant": variant}, seed=5)
        check_variant(response, variant, n)
        counted = pysolver.solve(
            {"kind": "sudoku", "mode": "solve", "limit": 2, "puzzle": response["puzzle"]}
        )
        assert counted["unique"] is True


def test_jigsaw_regions_differ_by_seed_and_from_the_boxes() -> None:
    layouts = {
        tuple(generate("sudoku", {"size": 9, "variant": "jigsaw"}, seed=seed)["puzzle"]["regions"])
        for seed in range(4)
    }
    assert len(layouts) == 4
    boxes = tuple("".join("ABC"[c // 3] for c in range(9)) for _ in range(9))
    assert all(sum(a != b for a, b in zip(layout, boxes, strict=True)) > 3 for layout in layouts)


# ---------------------------------------------------------------- Shikaku


def shikaku_brute_force(rows: int, cols: int, clues: list[list[int]], most: int = 2) -> int:
    """Solutions (up to ``most``) by plain backtracking: the first uncovered cell in reading
    order is the top-left corner of some clue's rectangle."""
    clue_at = {(row, col): index for index, (row, col, _area) in enumerate(clues)}
    covered = [[False] * cols for _ in range(rows)]
    used = [False] * len(clues)
    found = 0

    def fits(top: int, left: int, height: int, width: int) -> int | None:
        """The one clue inside the rectangle, if it is free and holds exactly one."""
        inside = None
        for row in range(top, top + height):
            for col in range(left, left + width):
                if covered[row][col]:
                    return None
                if (row, col) in clue_at:
                    if inside is not None:
                        return None
                    inside = clue_at[row, col]
        return inside

    def place(cell: int) -> None:
        nonlocal found
        while cell < rows * cols and covered[cell // cols][cell % cols]:
            cell += 1
        if found >= most:
            return
        if cell == rows * cols:
            found += 1
            return
        top, left = divmod(cell, cols)
        for height in range(1, rows - top + 1):
            for width in range(1, cols - left + 1):
                clue = fits(top, left, height, width)
                if clue is None or used[clue] or clues[clue][2] != height * width:
                    continue
                used[clue] = True
                for row in range(top, top + height):
                    covered[row][left : left + width] = [True] * width
                place(cell + width)
                for row in range(top, top + height):
                    covered[row][left : left + width] = [False] * width
                used[clue] = False

    place(0)
    return found


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard", "expert"])
@pytest.mark.parametrize(("rows", "cols", "seeds"), [(5, 6, 6), (8, 8, 3)])
def test_small_shikakus_have_one_solution_by_brute_force(
    difficulty: str, rows: int, cols: int, seeds: int
) -> None:
    for seed in range(seeds):
        response = generate(
            "shikaku", {"rows": rows, "cols": cols}, seed=seed, difficulty=difficulty
        )
        puzzle = response["puzzle"]
        assert shikaku_brute_force(rows, cols, puzzle["clues"]) == 1, (seed, puzzle)
        solved = pysolver.solve({"kind": "shikaku", "puzzle": puzzle})
        assert solved["solutions"] == response["solutions"]


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard", "expert"])
def test_20x20_shikakus_are_unique_by_dancing_links_at_their_level(difficulty: str) -> None:
    for seed in range(2):
        response = generate("shikaku", {"rows": 20, "cols": 20}, seed=seed, difficulty=difficulty)
        assert response["grade"]["level"] == difficulty, response["grade"]
        counted = pysolver.solve(
            {"kind": "shikaku", "mode": "count", "engine": "dlx", "puzzle": response["puzzle"]}
        )
        assert counted["count"] == 1 and counted["complete"]


# Tatham's Rectangles (sgt-rect --generate, its default settings) on 10 x 10: 21 clues on
# average (14 to 30), none of 1, rectangles of 2 to 16 cells.
TATHAM_CLUES_10X10 = 21


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard", "expert"])
def test_10x10_shikakus_have_no_1_clues_and_about_as_many_clues_as_tathams(
    difficulty: str,
) -> None:
    counts = []
    areas = set()
    for seed in range(5):
        response = generate("shikaku", {"rows": 10, "cols": 10}, seed=seed, difficulty=difficulty)
        clues = response["puzzle"]["clues"]
        assert min(area for _row, _col, area in clues) >= 2, (seed, clues)
        assert len(clues) <= 2 * TATHAM_CLUES_10X10, (seed, len(clues))
        counts.append(len(clues))
        areas |= {area for _row, _col, area in clues}
    assert sum(counts) <= 1.5 * TATHAM_CLUES_10X10 * len(counts), counts
    # A spread of sizes: dominoes up to rectangles of a sixth of the grid.
    assert 2 in areas and max(areas) >= 9, sorted(areas)


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard", "expert"])
def test_shikaku_grades_are_explain_modes_grades(difficulty: str) -> None:
    reached = 0
    for seed in range(4):
        response = generate("shikaku", {"rows": 12, "cols": 15}, seed=seed, difficulty=difficulty)
        grade = response["grade"]
        explained = pysolver.solve(
            {"kind": "shikaku", "mode": "explain", "puzzle": response["puzzle"]}
        )
        assert explained["ok"] and explained["solutions"] == response["solutions"]
        assert grade == {**explained["grade"], "clues": len(response["puzzle"]["clues"])}
        assert (grade["level"] == difficulty) == ("note" not in response), response.get("note")
        reached += grade["level"] == difficulty
    assert reached >= 3, (difficulty, reached)


def test_a_40x40_shikaku_is_made_and_unique() -> None:
    response = generate("shikaku", {"rows": 40, "cols": 40}, seed=1, difficulty="hard")
    counted = pysolver.solve({"kind": "shikaku", "mode": "count", "puzzle": response["puzzle"]})
    assert counted["count"] == 1 and counted["complete"]
    assert sum(clue[2] for clue in response["puzzle"]["clues"]) == 1600


@pytest.mark.parametrize(
    ("puzzle", "code", "path"),
    [
        ({"rows": 1, "cols": 5}, "invalid_puzzle", "puzzle.rows"),
        ({"rows": 5, "cols": 61}, "too_large", "puzzle.cols"),
        ({"rows": 5}, "invalid_puzzle", "puzzle"),
        ({"rows": 5, "cols": 5, "clues": []}, "invalid_request", "puzzle.clues"),
    ],
)
def test_bad_shikaku_generate_requests_are_refused(
    puzzle: dict[str, Any], code: str, path: str
) -> None:
    response = pysolver.solve({"kind": "shikaku", "mode": "generate", "puzzle": puzzle})
    assert response["error"]["code"] == code, response
    assert response["error"]["path"] == path, response


# ---------------------------------------------------------------- polyomino


@pytest.mark.parametrize(("rows", "cols", "symmetries"), [(5, 3, 4), (5, 5, 8), (4, 5, 4)])
def test_pentomino_subsets_tile_their_board_once_up_to_symmetry(
    rows: int, cols: int, symmetries: int
) -> None:
    response = generate("polyomino", {"rows": rows, "cols": cols}, seed=4, difficulty="easy")
    puzzle = response["puzzle"]
    assert puzzle["board"] == ["." * cols] * rows
    assert len(puzzle["pieces"]) == rows * cols // 5
    # The generator counted up to symmetry with bitsets; dancing links counts every tiling:
    # one class of distinct pentominoes is as many tilings as the rectangle has symmetries.
    counted = pysolver.solve(
        {"kind": "polyomino", "mode": "count", "engine": "dlx", "puzzle": puzzle}
    )
    assert counted["count"] == symmetries and counted["complete"]
    solved = pysolver.solve({"kind": "polyomino", "puzzle": puzzle, "limit": symmetries})
    assert response["solutions"][0] in solved["solutions"]


def test_polyomino_grades_follow_the_documented_node_bounds() -> None:
    grade = generate("polyomino", {"rows": 5, "cols": 4}, seed=1, difficulty="easy")["grade"]
    assert grade == {**grade, "level": "easy", "pieces": 4}
    assert grade["nodes"] <= 50


@pytest.mark.parametrize(
    ("request_fields", "code", "path"),
    [
        ({"puzzle": {"rows": 5, "cols": 7, "board": ["."]}}, "invalid_request", "puzzle.board"),
        ({"puzzle": {"rows": 3, "cols": 3}}, "invalid_puzzle", "puzzle"),
        ({"puzzle": {"rows": 5, "cols": 10}}, "invalid_puzzle", "puzzle"),
        ({"symmetry": "distinct"}, "invalid_request", "symmetry"),
    ],
)
def test_bad_polyomino_generate_requests_are_refused(
    request_fields: dict[str, Any], code: str, path: str
) -> None:
    request = {"kind": "polyomino", "mode": "generate", "puzzle": {"rows": 5, "cols": 3}}
    response = pysolver.solve({**request, **request_fields})
    assert response["error"]["code"] == code, response
    assert response["error"]["path"] == path, response


# ---------------------------------------------------------------- determinism


# The requests whose puzzles tests/data/generated.json stores (``python
# tests/test_generate.py`` writes it again, only when the generator changes on purpose).
STORED_REQUESTS = [
    (
        "sudoku 9x9 easy seed 7",
        {"kind": "sudoku", "seed": 7, "difficulty": "easy", "puzzle": {"size": 9}},
    ),
    (
        "sudoku 9x9 hard seed 7",
        {"kind": "sudoku", "seed": 7, "difficulty": "hard", "puzzle": {"size": 9}},
    ),
    (
        "sudoku 9x9 expert seed 2",
        {"kind": "sudoku", "seed": 2, "difficulty": "expert", "puzzle": {"size": 9}},
    ),
    (
        "sudoku 6x6 medium seed 3 no symmetry",
        {
            "kind": "sudoku",
            "seed": 3,
            "difficulty": "medium",
            "symmetry": "none",
            "puzzle": {"size": 6},
        },
    ),
    (
        "sudoku 12x12 easy seed 1",
        {"kind": "sudoku", "seed": 1, "difficulty": "easy", "puzzle": {"size": 12}},
    ),
    (
        "sudoku 9x9 jigsaw easy seed 7",
        {
            "kind": "sudoku",
            "seed": 7,
            "difficulty": "easy",
            "puzzle": {"size": 9, "variant": "jigsaw"},
        },
    ),
    (
        "sudoku 9x9 x hard seed 7",
        {"kind": "sudoku", "seed": 7, "difficulty": "hard", "puzzle": {"size": 9, "variant": "x"}},
    ),
    (
        "shikaku 20x20 medium seed 3",
        {"kind": "shikaku", "seed": 3, "difficulty": "medium", "puzzle": {"rows": 20, "cols": 20}},
    ),
    (
        "shikaku 10x14 expert seed 5",
        {"kind": "shikaku", "seed": 5, "difficulty": "expert", "puzzle": {"rows": 10, "cols": 14}},
    ),
    (
        "polyomino 5x4 easy seed 4",
        {"kind": "polyomino", "seed": 4, "difficulty": "easy", "puzzle": {"rows": 5, "cols": 4}},
    ),
]


def expected_puzzles() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads(DATA.read_text())["cases"]
    return cases


def test_the_stored_puzzles_are_those_of_the_stored_requests() -> None:
    stored = [(case["name"], case["request"]) for case in expected_puzzles()]
    assert stored == [(name, request) for name, request in STORED_REQUESTS]


@pytest.mark.parametrize("case", expected_puzzles(), ids=lambda case: case["name"])
def test_the_same_seed_gives_the_stored_puzzle(case: dict[str, Any]) -> None:
    response = generate(
        case["request"]["kind"],
        **{key: value for key, value in case["request"].items() if key != "kind"},
    )
    assert response["puzzle"] == case["puzzle"]
    assert response["grade"] == case["grade"]


@pytest.mark.slow  # every stored puzzle generated again, twice, in new processes
def test_other_processes_with_other_hash_seeds_give_the_same_puzzles() -> None:
    requests = [case["request"] for case in expected_puzzles()]
    script = (
        "import json, sys, pysolver\n"
        "requests = json.loads(sys.stdin.read())\n"
        "print(json.dumps([pysolver.solve({**r, 'mode': 'generate'})['puzzle'] for r in requests]))"
    )
    answers = []
    for hash_seed in ("1", "12345"):
        run = subprocess.run(
            [sys.executable, "-c", script],
            input=json.dumps(requests),
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)},
        )
        answers.append(json.loads(run.stdout))
    assert answers[0] == answers[1] == [case["puzzle"] for case in expected_puzzles()]


# ---------------------------------------------------------------- progress and cancel


def test_progress_is_reported_and_ends_done() -> None:
    reports: list[dict[str, Any]] = []
    response = pysolver.solve(
        {
            "kind": "sudoku",
            "mode": "generate",
            "seed": 3,
            "difficulty": "expert",
            "puzzle": {"size": 9},
        },
        progress=reports.append,
    )
    assert response["ok"]
    assert reports and reports[-1]["done"] is True and reports[-1]["fraction"] == 1.0
    fractions = [report["fraction"] for report in reports]
    assert fractions == sorted(fractions)


def test_cancel_stops_generation_soon() -> None:
    asked = 0

    def cancel() -> bool:
        nonlocal asked
        asked += 1
        return asked > 20

    response = pysolver.solve(
        {
            "kind": "sudoku",
            "mode": "generate",
            "seed": 5,
            "difficulty": "expert",
            "puzzle": {"size": 16},
        },
        cancel=cancel,
    )
    assert response["ok"] and response["cancelled"] is True
    assert response["complete"] is False and response["count"] == 0
    assert response["stats"]["seconds"] < 5


@pytest.mark.parametrize("once", [False, True], ids=["held", "once"])
@pytest.mark.parametrize(
    ("kind_name", "puzzle"),
    [
        ("sudoku", {"size": 16}),
        ("sudoku", {"size": 12, "variant": "jigsaw"}),
        ("shikaku", {"rows": 40, "cols": 40}),
        ("polyomino", {"rows": 5, "cols": 8}),
    ],
)
def test_cancel_stops_every_generator(kind_name: str, puzzle: dict[str, Any], once: bool) -> None:
    asked = 0

    def cancel() -> bool:
        # "once": the hook says stop a single time (a flag the caller clears), which must do.
        nonlocal asked
        asked += 1
        return asked == 4 if once else asked > 3

    reports: list[dict[str, Any]] = []
    response = pysolver.solve(
        {
            "kind": kind_name,
            "mode": "generate",
            "seed": 2,
            "difficulty": "expert",
            "puzzle": puzzle,
        },
        progress=reports.append,
        cancel=cancel,
    )
    assert response["ok"] and response["cancelled"] is True, response
    assert response["count"] == 0
    assert response["stats"]["seconds"] < 5


def test_the_command_line_generates_the_stored_puzzle() -> None:
    case = expected_puzzles()[0]
    run = subprocess.run(
        [sys.executable, "-m", "pysolver", "solve", "-"],
        input=json.dumps({**case["request"], "mode": "generate"}),
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert json.loads(run.stdout)["puzzle"] == case["puzzle"]


# ---------------------------------------------------------------- refused requests


@pytest.mark.parametrize(
    ("request_fields", "code", "path", "words"),
    [
        ({"difficulty": "impossible"}, "invalid_request", "difficulty", "easy, medium"),
        ({"difficulty": 3}, "invalid_request", "difficulty", "choose one of"),
        ({"puzzle": {"size": 5}}, "invalid_puzzle", "puzzle.size", "4, 6, 9, 12, 16"),
        ({"puzzle": {"size": "9"}}, "invalid_puzzle", "puzzle.size", "integer"),
        ({"puzzle": {}}, "invalid_puzzle", "puzzle", "size"),
        ({"puzzle": {"grid": "."}}, "invalid_request", "puzzle.grid", "size"),
        ({"puzzle": {"size": 9, "sise": 9}}, "invalid_request", "puzzle.sise", "size"),
        ({"symmetry": "mirror"}, "invalid_request", "symmetry", "rotational, none"),
        ({"engine": "dlx"}, "invalid_request", "engine", "drop engine"),
        ({"limit": 2}, "invalid_request", "limit", "drop limit"),
        ({"difficulti": "easy"}, "invalid_request", "difficulti", "difficulty"),
        ({"seed": -1}, "invalid_request", "seed", "at least 0"),
        ({"puzzle": {"size": 12, "variant": "killer"}}, "invalid_puzzle", "puzzle.size", "9"),
        ({"puzzle": {"size": 9, "variant": "X"}}, "invalid_puzzle", "puzzle.variant", "jigsaw"),
        ({"puzzle": {"size": 16, "variant": "jigsaw"}}, "invalid_puzzle", "puzzle.size", "12"),
        ({"puzzle": {"size": 9, "diagonals": True}}, "invalid_request", "puzzle.diagonals", ""),
    ],
)
def test_bad_generate_requests_are_refused(
    request_fields: dict[str, Any], code: str, path: str, words: str
) -> None:
    request = {"kind": "sudoku", "mode": "generate", "seed": 1, "puzzle": {"size": 4}}
    response = pysolver.solve({**request, **request_fields})
    assert not response["ok"]
    assert response["error"]["code"] == code, response
    assert response["error"]["path"] == path, response
    assert words in response["error"]["message"], response


def test_generate_options_are_refused_in_other_modes() -> None:
    grid = {"grid": "1234" + "." * 12}
    for option, value in (("difficulty", "easy"), ("symmetry", "none")):
        response = pysolver.solve({"kind": "sudoku", "puzzle": grid, option: value})
        assert response["error"]["path"] == option
        assert "generate" in response["error"]["message"]


def test_kinds_without_a_generator_refuse_generate_mode() -> None:
    response = pysolver.solve({"kind": "queens", "mode": "generate", "puzzle": {"n": 5}})
    assert response["error"]["code"] == "invalid_request"
    assert response["error"]["path"] == "mode"
    assert "sudoku" in response["error"]["message"]


def test_a_seed_is_picked_and_reported_when_none_is_given() -> None:
    response = generate("sudoku", {"size": 4})
    again = generate("sudoku", {"size": 4}, seed=response["seed"])
    assert again["puzzle"] == response["puzzle"]
    assert response["difficulty"] == "easy"


# A small puzzle per generating kind, whose response's stats the page must be able to label.
GENERATED_STATS_PUZZLES = {
    "sudoku": {"size": 4},
    "shikaku": {"rows": 3, "cols": 4},
    "polyomino": {"rows": 5, "cols": 3},
}


def test_generating_kinds_declare_their_levels_fields_and_options_once() -> None:
    facts = pysolver.facts.site_facts()
    for name in kind_names():
        module = kind_module(name)
        published = facts["kinds"][name].get("generate")
        if not kind(name).can_generate:
            assert published is None
            continue
        assert published == {
            "difficulties": list(module.DIFFICULTIES),
            "puzzle_fields": list(module.GENERATE_FIELDS),
            "options": list(module.GENERATE_OPTIONS),
            "limits": dict(module.GENERATE_LIMITS),
            "levels_by_size": {
                size: list(levels)
                for size, levels in getattr(module, "GENERATE_LEVELS_BY_SIZE", {}).items()
            },
        }
        for levels in published["levels_by_size"].values():
            assert levels and set(levels) <= set(module.DIFFICULTIES)
        assert set(module.GENERATE_OPTIONS) <= set(module.OPTIONS)
        small = GENERATED_STATS_PUZZLES.get(name, module.GENERATE_EXAMPLE)
        response = generate(name, dict(small), seed=1)
        assert set(response["stats"]) <= set(facts["stats"]["labels"])
        assert module.GENERATE_OPTIONS[0] == "difficulty"


def write_expected() -> None:
    """Write tests/data/generated.json from ``STORED_REQUESTS``."""
    cases = []
    for name, request in STORED_REQUESTS:
        response = pysolver.solve({**request, "mode": "generate"})
        assert response["ok"], response
        cases.append(
            {
                "name": name,
                "request": request,
                "puzzle": response["puzzle"],
                "grade": response["grade"],
            }
        )
    about = (
        "Puzzles as generate mode makes them on every machine, compared by "
        "tests/test_generate.py; `python tests/test_generate.py` writes them again."
    )
    DATA.write_text(json.dumps({"about": about, "cases": cases}, indent=1) + "\n")


# The sizes of levels_by_size generated at each level they list, and at one they leave out (the
# larger ones take seconds an attempt; their comments in the kinds state what was measured),
# as the request's puzzle.
SMALL_LEVEL_SIZES = {
    "sudoku": {"4": {"size": 4}, "killer:4": {"size": 4, "variant": "killer"}},
    "polyomino": {"5x3": {"rows": 5, "cols": 3}},
    "star_battle": {"4/1": {"size": 4, "stars": 1}, "8/2": {"size": 8, "stars": 2}},
}
# The seeds tried for each level listed (one must make it): a 4x4 killer is medium on a few
# seeds only (pysolver/kinds/sudoku/killer_generating.py's LEVELS_BY_SIZE), the first at 2.
SMALL_LEVEL_SEEDS = {"killer:4": (0, 1, 2)}


@pytest.mark.parametrize(
    ("name", "size"),
    [(name, size) for name, sizes in SMALL_LEVEL_SIZES.items() for size in sizes],
)
def test_small_sizes_make_the_levels_facts_list_for_them(name: str, size: str) -> None:
    module: Any = kind_module(name)
    levels = module.GENERATE_LEVELS_BY_SIZE[size]
    puzzle = SMALL_LEVEL_SIZES[name][size]
    for level in levels:
        seeds = SMALL_LEVEL_SEEDS.get(size, (0, 1))
        made = [generate(name, dict(puzzle), seed=seed, difficulty=level) for seed in seeds]
        assert any(response["level"] == level for response in made), (size, level)
    missing = next(level for level in module.DIFFICULTIES if level not in levels)
    response = generate(name, dict(puzzle), seed=0, difficulty=missing)
    assert response["level"] in levels and "note" in response


@pytest.mark.parametrize("name", ["sudoku", "shikaku", "polyomino", "star_battle"])
def test_every_answer_states_its_level_with_a_note_when_not_the_one_asked(name: str) -> None:
    module: Any = kind_module(name)
    small = GENERATED_STATS_PUZZLES.get(name, module.GENERATE_EXAMPLE)
    for difficulty in module.DIFFICULTIES:
        response = generate(name, dict(small), seed=2, difficulty=difficulty)
        assert response["difficulty"] == difficulty
        assert response["level"] == response["grade"]["level"]
        assert ("note" in response) == (response["level"] != difficulty), response


if __name__ == "__main__":
    write_expected()


def test_the_carves_logic_levels_are_explains_grades() -> None:
    # The generator grades by the masks engine's singles between the techniques' harder steps;
    # explain's path takes every step with the techniques: their levels must agree.
    from pysolver.engines import masks
    from pysolver.kinds.sudoku import generating, masks_units
    from pysolver.kinds.sudoku.board import Grid
    from pysolver.kinds.sudoku.variants import PLAIN

    grid = masks.CellsProblem(81, 9, [0] * 81, masks_units(9, 3, 3, PLAIN))
    kind_9 = generating.Translation(grid.with_candidates, str, Grid.standard(9, 3, 3))
    grids = (ROOT / "tests" / "data" / "top95.txt").read_text().split()[:15]
    grids += [
        generate("sudoku", {"size": 9}, seed=seed, difficulty=level)["puzzle"]["grid"]
        for seed in (5, 6)
        for level in ("easy", "medium", "hard", "fiendish")
    ]
    seen = set()
    for text in grids:
        values = [0 if char in ".0" else int(char) for char in text]
        explained = pysolver.solve({"kind": "sudoku", "mode": "explain", "puzzle": {"grid": text}})
        below_guess = generating.DIFFICULTIES[-2]
        level = generating.logic_level(kind_9, values, below_guess) or "expert"
        assert level == explained["grade"]["level"], text
        seen.add(level)
    assert seen == set(generating.DIFFICULTIES)


def test_a_board_loaded_at_once_is_the_board_placed_cell_by_cell() -> None:
    # The generator's grading sets the board to the singles' fixpoint at once
    # (Grid.load_settled); place and eliminate, a cell and a digit at a time, must reach the
    # same state, from an open board and after a technique's step.
    from pysolver.engines import masks
    from pysolver.kinds.sudoku import generating, path
    from pysolver.kinds.sudoku.board import Grid

    layout = Grid.standard(9, 3, 3).shape.layout

    def settled_one_by_one(grid: Grid) -> tuple[list[int], int]:
        boards = [board | filled for board, filled in zip(grid.boards, grid.filled, strict=True)]
        before = 0
        for filled in grid.filled:
            before |= filled
        after = masks.settle_boards(boards, before, layout)
        assert after >= 0
        base = grid.shape.base
        for index, board in enumerate(boards):
            cells = (board >> base) & ((after & ~before) >> base)
            while cells:
                low = cells & -cells
                cells ^= low
                grid.place(low.bit_length() - 1, index + 1)
        for index, board in enumerate(boards):
            gone = (grid.boards[index] & ~board) >> base
            while gone:
                low = gone & -gone
                gone ^= low
                grid.eliminate(low.bit_length() - 1, index + 1)
        return boards, after

    def state(grid: Grid) -> tuple[Any, ...]:
        return grid.values, grid.candidates, grid.boards, grid.filled, grid.open

    compared = 0
    for text in (ROOT / "tests" / "data" / "top95.txt").read_text().split()[:20]:
        one_by_one = Grid.standard(9, 3, 3)
        for cell, char in enumerate(text):
            if char not in ".0":
                one_by_one.place(cell, int(char))
        at_once = Grid.standard(9, 3, 3)
        at_once.load_settled(*settled_one_by_one(one_by_one))
        assert state(at_once) == state(one_by_one), text
        for _ in range(3):
            step = path.next_step(one_by_one, generating.techniques_up_to("fiendish"))
            if step is None or one_by_one.solved():
                break
            one_by_one.apply(step)
            at_once.apply(step)
            at_once.load_settled(*settled_one_by_one(one_by_one))
            assert state(at_once) == state(one_by_one), text
            compared += 1
    assert compared >= 20
