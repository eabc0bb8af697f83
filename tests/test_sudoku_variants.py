"""Sudoku variants (jigsaw regions, X diagonals, killer cages): generated puzzles checked twice.

The puzzles come from this file's own generator (random regions, random filled grids, random
cages, then clues removed while the puzzle stays unique) and its uniqueness and solutions are
decided by a second method written here, a plain backtracking search over the rules as stated
(no exact cover), on 4x4 and 6x6 grids. Every Sudoku engine must then agree with it, serial and
with ``jobs: 2``. A few 9x9 puzzles made the same way are stored in
``tests/data/sudoku_variants.json``; ``python tests/test_sudoku_variants.py`` writes them again.
"""

from __future__ import annotations

import functools
import itertools
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pysolver import pasted, solve
from pysolver.kinds import sudoku
from pysolver.kinds.sudoku import variants

DATA = Path(__file__).resolve().parent / "data" / "sudoku_variants.json"
LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass
class Rules:
    """A variant puzzle as the reference checker sees it: units of cells and cages."""

    n: int
    box: tuple[int, int] | None = (2, 2)
    regions: list[str] | None = None
    diagonals: bool = False
    cages: list[tuple[int, list[int]]] = field(default_factory=list)  # (sum, positions)

    def units(self) -> list[list[int]]:
        n = self.n
        units = [[r * n + c for c in range(n)] for r in range(n)]
        units += [[r * n + c for r in range(n)] for c in range(n)]
        if self.regions is not None:
            labels = "".join(self.regions)
            units += [[p for p in range(n * n) if labels[p] == k] for k in sorted(set(labels))]
        else:
            assert self.box is not None
            rows, cols = self.box
            for top in range(0, n, rows):
                for left in range(0, n, cols):
                    units.append(
                        [(top + i) * n + left + j for i in range(rows) for j in range(cols)]
                    )
        if self.diagonals:
            units.append([i * n + i for i in range(n)])
            units.append([i * n + n - 1 - i for i in range(n)])
        return units

    def puzzle(self, givens: list[int]) -> dict[str, Any]:
        symbols = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        puzzle: dict[str, Any] = {"grid": "".join(symbols[v - 1] if v else "." for v in givens)}
        if self.regions is not None:
            puzzle["regions"] = self.regions
        elif self.box is not None:
            puzzle["box"] = list(self.box)
        if self.diagonals:
            puzzle["diagonals"] = True
        if self.cages:
            puzzle["cages"] = [
                {"sum": total, "cells": [list(divmod(p, self.n)) for p in cells]}
                for total, cells in self.cages
            ]
        return puzzle


# ---------------------------------------------------------------- the second method


def brute_force(
    rules: Rules,
    givens: list[int],
    cap: int,
    rng: random.Random | None = None,
    max_nodes: int | None = None,
    every: list[list[int]] | None = None,
) -> tuple[int, list[int] | None]:
    """(number of solutions up to ``cap``, the first one found): backtracking on the open cell
    with the fewest digits that break no rule so far (a unit holds a digit once; a cage's
    digits differ, never exceed its sum and, once it is full, add up to it). With ``rng`` the
    digits are tried in a random order; with ``max_nodes`` the search gives up after that many
    nodes, answering what it found (the generator's way past region layouts with no grid).
    ``every``: a list each solution found is appended to."""
    n = rules.n
    peers: list[set[int]] = [set() for _ in range(n * n)]
    for unit in rules.units():
        for p in unit:
            peers[p].update(q for q in unit if q != p)
    cage_of: dict[int, tuple[int, list[int]]] = {}
    for total, cells in rules.cages:
        for p in cells:
            cage_of[p] = (total, cells)
    found: list[list[int]] = []
    nodes = [0]

    def fits(p: int, digit: int) -> bool:
        if any(grid[q] == digit for q in peers[p]):
            return False
        if p not in cage_of:
            return True
        total, cells = cage_of[p]
        placed = [grid[q] for q in cells if grid[q] and q != p]
        if digit in placed:
            return False
        so_far = sum(placed) + digit
        left = len(cells) - len(placed) - 1
        return so_far + left * (left + 1) // 2 <= total and (left > 0 or so_far == total)

    def count() -> int:
        nodes[0] += 1
        if max_nodes is not None and nodes[0] > max_nodes:
            return cap
        best: tuple[int, list[int]] | None = None
        for p in range(n * n):
            if not grid[p]:
                digits = [d for d in range(1, n + 1) if fits(p, d)]
                if best is None or len(digits) < len(best[1]):
                    best = (p, digits)
                    if len(digits) < 2:
                        break
        if best is None:
            if not found:
                found.append(grid.copy())
            if every is not None:
                every.append(grid.copy())
            return 1
        p, digits = best
        if rng is not None:
            rng.shuffle(digits)
        total = 0
        for digit in digits:
            grid[p] = digit
            total += count()
            grid[p] = 0
            if total >= cap:
                break
        return total

    grid = [0] * (n * n)
    # Place the givens one by one, each checked against those before it.
    for p, v in enumerate(givens):
        if v:
            if not fits(p, v):
                return 0, None
            grid[p] = v
    number = count()
    return number, found[0] if found else None


def satisfies(rules: Rules, grid: list[int]) -> bool:
    """Whether a filled grid keeps every rule (the check of a stored solution)."""
    digits = set(range(1, rules.n + 1))
    if any({grid[p] for p in unit} != digits for unit in rules.units()):
        return False
    return all(
        len({grid[p] for p in cells}) == len(cells) and sum(grid[p] for p in cells) == total
        for total, cells in rules.cages
    )


# ---------------------------------------------------------------- the generator


def connected(cells: set[int], n: int) -> bool:
    start = next(iter(cells))
    seen = {start}
    stack = [start]
    while stack:
        r, c = divmod(stack.pop(), n)
        for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            q = rr * n + cc
            if 0 <= rr < n and 0 <= cc < n and q in cells and q not in seen:
                seen.add(q)
                stack.append(q)
    return seen == cells


def random_regions(n: int, box: tuple[int, int], rng: random.Random) -> list[str]:
    """n connected regions of n cells: the boxes, then many random swaps of two cells of
    different regions that keep both regions connected."""
    rows, cols = box
    across = n // cols
    label = [(p // n // rows) * across + p % n // cols for p in range(n * n)]
    for _ in range(60 * n):
        a, b = rng.randrange(n * n), rng.randrange(n * n)
        if label[a] == label[b]:
            continue
        label[a], label[b] = label[b], label[a]
        first = {p for p in range(n * n) if label[p] == label[a]}
        second = {p for p in range(n * n) if label[p] == label[b]}
        if not (connected(first, n) and connected(second, n)):
            label[a], label[b] = label[b], label[a]
    return ["".join(LABELS[label[r * n + c]] for c in range(n)) for r in range(n)]


def random_cages(
    n: int,
    solution: list[int],
    rng: random.Random,
    coverage: float,
    sizes: tuple[int, int] = (1, 4),
) -> list[tuple[int, list[int]]]:
    """Connected cages of about ``sizes`` cells (fewer where they run out of room) with
    distinct digits of ``solution``, covering about ``coverage`` of the grid, with their sums."""
    owner = [False] * (n * n)
    cages = []
    order = list(range(n * n))
    rng.shuffle(order)
    for start in order:
        if owner[start] or rng.random() > coverage:
            continue
        cells = [start]
        owner[start] = True
        size = rng.randint(*sizes)
        while len(cells) < size:
            r, c = divmod(rng.choice(cells), n)
            rr, cc = rng.choice(((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)))
            q = rr * n + cc
            frontier = 0 <= rr < n and 0 <= cc < n and not owner[q]
            if frontier and solution[q] not in {solution[p] for p in cells}:
                cells.append(q)
                owner[q] = True
            elif rng.random() < 0.2:
                break
        cages.append((sum(solution[p] for p in cells), sorted(cells)))
    return cages


def generate(
    n: int,
    box: tuple[int, int],
    rng: random.Random,
    *,
    jigsaw: bool = False,
    diagonals: bool = False,
    cages: float = 0.0,
    cage_sizes: tuple[int, int] = (1, 4),
    unique: Any = None,
) -> tuple[Rules, list[int], list[int]]:
    """A variant puzzle with one solution: (rules, givens, solution). ``cages`` is the share of
    the grid in cages; ``unique(rules, givens)`` decides uniqueness (the brute force unless
    told otherwise)."""
    is_unique = unique or (lambda rules, givens: brute_force(rules, givens, 2)[0] == 1)
    while True:
        rules = Rules(
            n, None if jigsaw else box, random_regions(n, box, rng) if jigsaw else None, diagonals
        )
        _count, solution = brute_force(rules, [0] * (n * n), 1, rng, max_nodes=5000)
        if solution is not None:
            break
    assert solution is not None
    if cages:
        rules.cages = random_cages(n, solution, rng, cages, cage_sizes)
    givens = solution.copy()
    order = list(range(n * n))
    rng.shuffle(order)
    for p in order:
        kept = givens[p]
        givens[p] = 0
        if not is_unique(rules, givens):
            givens[p] = kept
    return rules, givens, solution


def engine_unique(rules: Rules, givens: list[int]) -> bool:
    response = solve({"kind": "sudoku", "limit": 2, "puzzle": rules.puzzle(givens)})
    return bool(response["unique"])


# ---------------------------------------------------------------- the puzzles

KINDS = {
    "jigsaw": {"jigsaw": True},
    "x": {"diagonals": True},
    "killer": {"cages": 1.0},
    "killer-half": {"cages": 0.5},
    "jigsaw-x-killer": {"jigsaw": True, "diagonals": True, "cages": 0.6},
}
SHAPES = {4: (2, 2), 6: (2, 3)}


def small_shapes(options: dict[str, Any]) -> dict[int, tuple[int, int]]:
    # Jigsaws of a prime size: regions grown from the rows, no box shape at all.
    return {**SHAPES, 5: (1, 5)} if options.get("jigsaw") else SHAPES


# The small puzzles' names, known without making them: tests are listed (collected) at once,
# and the puzzles made (by brute force, seconds) only when a test first asks for them.
SMALL_NAMES = [
    f"{name}-{n}"
    for name, options in KINDS.items()
    for n in small_shapes(options)
    for _ in range(2)
]


@functools.cache
def small_puzzles() -> list[tuple[str, Rules, list[int], list[int]]]:
    rng = random.Random(2026)
    made = []
    for name, options in KINDS.items():
        for n, box in small_shapes(options).items():
            for _ in range(2):
                rules, givens, solution = generate(n, box, rng, **options)
                made.append((f"{name}-{n}", rules, givens, solution))
    assert [entry[0] for entry in made] == SMALL_NAMES
    return made


ENGINES = list(sudoku.ENGINES)


def grid_rows(values: list[int], n: int) -> list[list[int]]:
    return [values[r * n : (r + 1) * n] for r in range(n)]


@pytest.mark.parametrize("index", range(len(SMALL_NAMES)), ids=SMALL_NAMES)
@pytest.mark.parametrize("engine", ENGINES)
def test_generated_puzzles_are_solved_and_proved_unique(index, engine):
    _name, rules, givens, solution = small_puzzles()[index]
    assert satisfies(rules, solution)
    assert brute_force(rules, givens, 3) == (1, solution)
    response = solve(
        {"kind": "sudoku", "engine": engine, "limit": 2, "puzzle": rules.puzzle(givens)}
    )
    assert response["ok"], response
    assert (response["count"], response["complete"], response["unique"]) == (1, True, True)
    assert response["solutions"] == [grid_rows(solution, rules.n)]


def test_generated_killers_need_fewer_givens_than_cells():
    # The cages carry information: a fully caged killer keeps few givens (often none).
    killers = [
        givens for name, _rules, givens, _solution in small_puzzles() if name.startswith("killer-")
    ]
    assert sum(map(bool, sum(killers, []))) < sum(len(givens) for givens in killers) // 4


def thinned(rules: Rules, solution: list[int], rng: random.Random) -> list[int]:
    return [0 if rng.random() < 0.75 else value for value in solution]


@functools.cache
def many_solution_puzzles() -> list[tuple[Rules, list[int], int]]:
    """The small puzzles thinned out, each with its count up to 200 by brute force (made once,
    for every engine's test)."""
    rng = random.Random(5)
    made = []
    for _name, rules, _givens, solution in small_puzzles():
        givens = thinned(rules, solution, rng)
        made.append((rules, givens, brute_force(rules, givens, 200)[0]))
    return made


@pytest.mark.parametrize("engine", ENGINES)
def test_counts_of_puzzles_with_many_solutions_match_brute_force(engine):
    for rules, givens, expected in many_solution_puzzles():
        response = solve(
            {
                "kind": "sudoku",
                "mode": "count",
                "engine": engine,
                "limit": 200,
                "puzzle": rules.puzzle(givens),
            }
        )
        assert response["count"] == expected, rules


# A worker pool a solve: a second each. The quick run keeps the one with every rule at once.
@pytest.mark.parametrize(
    "name",
    [
        name if name == "jigsaw-x-killer-6" else pytest.param(name, marks=pytest.mark.slow)
        for name in SMALL_NAMES[::3]
    ],
)
def test_parallel_jobs_equal_serial(name):
    _name, rules, _givens, solution = next(entry for entry in small_puzzles() if entry[0] == name)
    givens = thinned(rules, solution, random.Random(f"parallel {name}"))
    for mode, limit in (("count", 500), ("solve", 3)):
        request = {"kind": "sudoku", "mode": mode, "limit": limit}
        request["puzzle"] = rules.puzzle(givens)
        serial = solve(request)
        merged = solve(dict(request, jobs=2))
        for key in ("count", "complete", "solutions", "unique"):
            assert merged.get(key) == serial.get(key), (key, rules)


def test_heatmap_sums_to_the_count_in_every_cell():
    _name, rules, _givens, solution = next(
        s for s in small_puzzles() if s[0] == "jigsaw-x-killer-6"
    )
    givens = thinned(rules, solution, random.Random(3))
    response = solve(
        {"kind": "sudoku", "mode": "count", "heatmap": True, "puzzle": rules.puzzle(givens)}
    )
    count = response["count"]
    assert count == brute_force(rules, givens, 10_000)[0]
    n = rules.n
    for r in range(n):
        for c in range(n):
            assert sum(response["heatmap"][str(d)][r][c] for d in range(1, n + 1)) == count


@pytest.mark.parametrize("engine", ENGINES)
def test_trace_names_regions_diagonals_and_cages(engine):
    _name, rules, _givens, solution = next(
        s for s in small_puzzles() if s[0] == "jigsaw-x-killer-6"
    )
    response = solve(
        {
            "kind": "sudoku",
            "mode": "trace",
            "engine": engine,
            "max_steps": 100_000,
            "puzzle": rules.puzzle([0] * 36),
        }
    )
    assert response["ok"] and not response["truncated"]
    assert response["solutions"][0] != []
    assert satisfies(rules, sum(response["solutions"][0], []))
    placed = [step["place"] for step in response["steps"] if "place" in step]
    assert all("cell" in place or set(place) == {"cage", "digits"} for place in placed)
    kinds = {key for step in response["steps"] if "item" in step for key in step["item"]}
    assert "box" not in kinds


def test_plain_puzzle_unchanged_by_empty_variant_fields():
    grid = "1234341221434321"
    plain = solve({"kind": "sudoku", "puzzle": {"grid": grid}})
    same = solve({"kind": "sudoku", "puzzle": {"grid": grid, "diagonals": False, "cages": []}})
    assert plain == {**same, "stats": plain["stats"]}


# ---------------------------------------------------------------- known counts


@pytest.mark.parametrize(
    ("puzzle", "count"),
    [
        # 4x4 Latin squares: 576; with 2x2 boxes: 288; with both diagonals too: 48.
        ({"grid": "." * 16, "box": [1, 4]}, 576),
        ({"grid": "." * 16}, 288),
        ({"grid": "." * 16, "diagonals": True}, 48),
        # Regions equal to the boxes are the boxes.
        ({"grid": "." * 16, "regions": ["AABB", "AABB", "CCDD", "CCDD"]}, 288),
        # A cage over the first box: {1,2} then {3,4} by sum leaves 4 ways for the box.
        (
            {
                "grid": "." * 16,
                "cages": [
                    {"sum": 3, "cells": [[0, 0], [0, 1]]},
                    {"sum": 7, "cells": [[1, 0], [1, 1]]},
                ],
            },
            48,
        ),
    ],
)
def test_known_counts_on_every_engine(puzzle, count):
    for engine in ENGINES:
        response = solve({"kind": "sudoku", "mode": "count", "engine": engine, "puzzle": puzzle})
        assert response["count"] == count, engine


def test_jigsaw_response_has_no_box():
    response = solve(
        {"kind": "sudoku", "puzzle": {"grid": "." * 16, "regions": ["AABB"] * 2 + ["CCDD"] * 2}}
    )
    assert response["ok"] and "box" not in response


@pytest.mark.parametrize(
    ("grid", "cells", "total"),
    [
        ("1234341221434321", [[0, 0], [0, 1]], 4),  # full cage, givens add up to 3
        ("2...............", [[0, 0], [0, 1]], 4),  # the other digit would be 2 again
        ("12..............", [[0, 0], [0, 1], [1, 0]], 9),  # or 6, above 4
    ],
)
def test_a_cage_its_givens_cannot_complete_has_no_solution(grid, cells, total):
    puzzle = {"grid": grid, "cages": [{"sum": total, "cells": cells}]}
    for engine in ENGINES:
        response = solve({"kind": "sudoku", "mode": "count", "engine": engine, "puzzle": puzzle})
        assert (response["count"], response["complete"]) == (0, True), engine


# ---------------------------------------------------------------- stored 9x9 puzzles


def stored() -> list[dict[str, Any]]:
    return json.loads(DATA.read_text())


def rules_of(puzzle: dict[str, Any]) -> Rules:
    n = 9
    cages = [
        (cage["sum"], [r * n + c for r, c in cage["cells"]]) for cage in puzzle.get("cages", [])
    ]
    return Rules(n, (3, 3), puzzle.get("regions"), puzzle.get("diagonals", False), cages)


@pytest.mark.parametrize("entry", stored(), ids=lambda entry: entry["name"])
def test_stored_9x9_puzzles(entry):
    rules = rules_of(entry["puzzle"])
    solution = sum(entry["solution"], [])
    assert satisfies(rules, solution)
    givens = [0 if ch == "." else int(ch) for ch in entry["puzzle"]["grid"]]
    assert all(not g or g == s for g, s in zip(givens, solution, strict=True))
    for engine in ENGINES:
        response = solve(
            {"kind": "sudoku", "engine": engine, "limit": 2, "puzzle": entry["puzzle"]}
        )
        assert response["unique"] is True and response["solutions"] == [entry["solution"]], engine


@pytest.mark.slow  # half a minute of brute force
def test_stored_9x9_puzzles_are_unique_by_brute_force():
    # The second method, on the stored puzzles with fewest open cells (it is slow on the rest).
    entries = sorted(stored(), key=lambda entry: entry["puzzle"]["grid"].count("."))[:2]
    for entry in entries:
        rules = rules_of(entry["puzzle"])
        givens = [0 if ch == "." else int(ch) for ch in entry["puzzle"]["grid"]]
        assert brute_force(rules, givens, 2) == (1, sum(entry["solution"], []))


def write_stored(seed: int = 9) -> None:
    """Make the stored 9x9 puzzles (uniqueness by the engines while removing clues: the
    brute force is too slow for 9x9 generation; the tests above check the result)."""
    rng = random.Random(seed)
    entries = []
    for name, options in (
        ("killer", {"cages": 1.0}),
        ("jigsaw", {"jigsaw": True}),
        ("x", {"diagonals": True}),
        ("jigsaw-x-killer", {"jigsaw": True, "diagonals": True, "cages": 0.7}),
        ("killer-x", {"diagonals": True, "cages": 0.8}),
        ("killer-large", {"cages": 1.0, "cage_sizes": (3, 6)}),
    ):
        rules, givens, solution = generate(9, (3, 3), rng, unique=engine_unique, **options)
        entries.append(
            {"name": name, "puzzle": rules.puzzle(givens), "solution": grid_rows(solution, 9)}
        )
    # One puzzle a line: diffs stay readable.
    DATA.write_text("[\n" + ",\n".join(json.dumps(entry) for entry in entries) + "\n]\n")


if __name__ == "__main__":
    write_stored(int(sys.argv[1]) if len(sys.argv) > 1 else 9)


# ---------------------------------------------------------------- errors

BOXES_4 = ["AABB", "AABB", "CCDD", "CCDD"]
CAGE = {"sum": 3, "cells": [[0, 0], [0, 1]]}


@pytest.mark.parametrize(
    ("fields", "path", "words"),
    [
        ({"regions": "AABBAABBCCDDCCDD"}, "puzzle.regions", "must be a list"),
        ({"regions": BOXES_4[:3]}, "puzzle.regions", "3 rows, but the grid has 4"),
        ({"regions": ["AABB", "AAB", "CCDD", "CCDD"]}, "puzzle.regions[1]", "3 labels"),
        ({"regions": ["AABB", 7, "CCDD", "CCDD"]}, "puzzle.regions[1]", "must be a string"),
        ({"regions": ["AAAB", "AABB", "CCDD", "CCDD"]}, "puzzle.regions", "'A' has 5"),
        ({"regions": ["AABB", "AABB", "CCDD", "CCDE"]}, "puzzle.regions", "5 regions"),
        ({"regions": BOXES_4, "box": [2, 2]}, "puzzle.box", "leave out"),
        ({"diagonals": "yes"}, "puzzle.diagonals", "true or false"),
        ({"cages": CAGE}, "puzzle.cages", "must be a list"),
        ({"cages": [{"sum": 3}]}, "puzzle.cages[0]", 'no "cells"'),
        ({"cages": [{"cells": [[0, 0]]}]}, "puzzle.cages[0]", 'no "sum"'),
        ({"cages": [{"sum": 3, "cells": []}]}, "puzzle.cages[0].cells", "no cells"),
        ({"cages": [{"sum": 3, "cells": [[0, 4]]}]}, "puzzle.cages[0].cells[0][1]", "3"),
        ({"cages": [{"sum": 3, "cells": [[0]]}]}, "puzzle.cages[0].cells[0]", "[row, column]"),
        ({"cages": [{"sum": 3, "cells": [[0, 0], [0, 0]]}]}, "puzzle.cages[0].cells[1]", "twice"),
        (
            {"cages": [CAGE, {"sum": 4, "cells": [[1, 1], [0, 1]]}]},
            "puzzle.cages[1].cells[1]",
            "also in cage 1",
        ),
        (
            {"cages": [{"sum": 2, "cells": [[0, 0], [0, 1]]}]},
            "puzzle.cages[0].sum",
            "between 3 and 7",
        ),
        (
            {"cages": [{"sum": 8, "cells": [[0, 0], [0, 1]]}]},
            "puzzle.cages[0].sum",
            "between 3 and 7",
        ),
        (
            {"cages": [{"sum": 15, "cells": [[0, c] for c in range(4)] + [[1, 0]]}]},
            "puzzle.cages[0].cells",
            "only 4",
        ),
        (
            {"cages": [{"sum": 3, "cells": [[0, 0], [0, 1]], "total": 3}]},
            "puzzle.cages[0].total",
            "unknown cage field",
        ),
        (
            {"cages": [{"sum": 3, "cels": [[0, 0], [0, 1]]}]},
            "puzzle.cages[0].cels",
            "did you mean 'cells'?",
        ),
    ],
)
def test_bad_regions_and_cages_name_their_path(fields, path, words):
    response = solve({"kind": "sudoku", "puzzle": {"grid": "." * 16, **fields}})
    assert response["ok"] is False
    error = response["error"]
    assert (error["code"], error["path"]) == ("invalid_puzzle", path), error
    assert words in error["message"], error


@pytest.mark.parametrize(
    ("grid", "fields", "words"),
    [
        ("1..............1", {"diagonals": True}, "two 1s in the main diagonal"),
        ("...1........1...", {"diagonals": True}, "two 1s in the anti-diagonal"),
        ("1............1..", {"regions": ["AABB", "ACDB", "CCDB", "CADD"]}, "two 1s in region 1"),
        ("1...2...........", {"cages": [{"sum": 3, "cells": [[0, 0], [1, 0]]}]}, None),
    ],
)
def test_givens_clashing_in_a_variant_unit_are_errors(grid, fields, words):
    response = solve({"kind": "sudoku", "mode": "count", "puzzle": {"grid": grid, **fields}})
    if words is None:  # a legal grid: 1 and 2 in a cage of sum 3
        assert response["ok"] and response["count"] > 0
        return
    assert response["ok"] is False and words in response["error"]["message"], response


def test_givens_clashing_in_a_cage_name_the_cage():
    puzzle = {"grid": "1.....1.........", "cages": [{"sum": 4, "cells": [[0, 0], [1, 2]]}]}
    response = solve({"kind": "sudoku", "puzzle": puzzle})
    assert response["error"]["path"] == "puzzle.cages[0]"
    assert "two 1s in cage 1" in response["error"]["message"]


def test_trace_of_a_killer_names_its_digit_sets():
    entry = next(entry for entry in stored() if entry["name"] == "killer-large")
    for engine in ENGINES:
        response = solve(
            {"kind": "sudoku", "mode": "trace", "engine": engine, "puzzle": entry["puzzle"]}
        )
        sets = [step for step in response["steps"] if "cage" in step.get("place", {})]
        assert sets, engine
        step = sets[0]
        digits = " + ".join(map(str, step["place"]["digits"]))
        assert f"{digits}" in step["text"]
        assert f"the digits of cage {step['place']['cage'] + 1}" in step["text"]
        assert (
            sum(step["place"]["digits"]) <= entry["puzzle"]["cages"][step["place"]["cage"]]["sum"]
        )
        assert response["solutions"] == [entry["solution"]]


@pytest.mark.parametrize(
    "request_",
    [
        {"kind": "sudoku", "puzzle": {"grid": ".", "diagonals": True}},
        {"kind": "sudoku", "puzzle": {"grid": "1", "diagonals": True}},
        {"kind": "sudoku", "puzzle": {"grid": [[0]], "diagonals": True}},
        "1x1x:1",
    ],
)
@pytest.mark.parametrize("mode", ["solve", "count", "trace", "random", "explain", "estimate"])
def test_x_diagonals_on_a_1x1_grid_are_refused_in_every_mode(request_, mode):
    # Once an IndexError in encode (internal_error): both diagonals are the one cell.
    request = pasted.read_request(request_) if isinstance(request_, str) else request_
    response = solve({**request, "mode": mode})
    assert response["ok"] is False
    assert response["error"]["code"] == "invalid_puzzle", response
    assert response["error"]["path"] == "puzzle.diagonals"


def test_digit_sets_kept_for_small_questions_and_walked_lazily_for_large_ones() -> None:
    """``digit_sets`` keeps the answers of small questions (the killer finders ask them
    again and again) and walks a large one lazily, so a caller can stop early."""
    every = (1 << 9) - 1
    for size in range(1, 10):
        for total in range(1, 46):
            found = list(variants.digit_sets(every, size, total))
            by_hand = [
                sum(1 << (digit - 1) for digit in chosen)
                for chosen in itertools.combinations(range(1, 10), size)
                if sum(chosen) == total
            ]
            assert sorted(found) == sorted(by_hand), (size, total)
            assert list(variants.digit_sets(every, size, total)) == found  # kept, same order
    # C(36, 18) ways: a kept answer would never come; the walk gives its first set at once.
    huge = variants.digit_sets((1 << 36) - 1, 18, 333)
    assert bin(next(huge)).count("1") == 18


# ---------------------------------------------------------------- the rule of 45


def all_solutions(rules: Rules, cap: int = 100) -> list[list[int]]:
    """Every solution of the blank grid of ``rules`` (at most ``cap``), by the brute force."""
    every: list[list[int]] = []
    brute_force(rules, [0] * (rules.n * rules.n), cap, every=every)
    return every


def implied_of(rules: Rules) -> list[variants.Cage]:
    from pysolver.kinds.sudoku import board, cages

    regions = None
    if rules.regions is not None:
        labels = "".join(rules.regions)
        regions = tuple(labels.index(label) for label in labels)  # numbered by first cell
    box = rules.box or (1, rules.n)  # unread with regions
    shape = board.standard_shape(rules.n, *box, regions, rules.diagonals)
    given = tuple(variants.Cage(total, tuple(cells)) for total, cells in rules.cages)
    return cages.implied_cages(shape, given)


def test_implied_cages_hold_in_every_solution():
    """Each cage the rule of 45 implies has distinct digits adding up to its sum in every
    solution of the puzzle (listed by a plain enumeration), on killers fully and partly
    caged, with and without diagonals and jigsaw regions; and some lie across units (from
    groups of several)."""
    rng = random.Random(45)
    implied_count = across = 0
    for case in range(30):
        n, box = ((4, (2, 2)), (6, (2, 3)))[case % 2]
        solution = None
        while solution is None:  # some random regions admit no grid at all
            regions = random_regions(n, box, rng) if case % 5 < 2 else None
            # Diagonals with random regions: grids are rare, the brute force seconds long.
            diagonals = case % 3 == 0 and regions is None
            rules = Rules(n, None if regions else box, regions, diagonals)
            _count, solution = brute_force(rules, [0] * (n * n), 1, rng, max_nodes=5000)
        coverage = 1.0 if case % 4 < 2 else 0.7
        rules.cages = random_cages(n, solution, rng, coverage, (2, 4))
        solutions = all_solutions(rules)
        assert solution in solutions
        for cage in implied_of(rules):
            implied_count += 1
            across += not any(set(cage.cells) <= set(unit) for unit in rules.units())
            for grid in solutions:
                digits = [grid[p] for p in cage.cells]
                assert len(set(digits)) == len(digits), (rules, cage)
                assert sum(digits) == cage.total, (rules, cage)
    assert implied_count > 50
    assert across > 0


def test_outies_are_only_implied_when_every_cell_of_the_group_is_caged():
    """A 4x4 row with a cell outside every cage gives no outies: the cage crossing its edge
    does not know the uncaged cell's digit (its innies, the uncaged cell and the crossing
    cage's cells in the row, are still implied)."""
    # Row 1: cells 0, 1 in a cage of 3; cells 2 and 6 in a cage of 5 (6 is row 2); cell 3 in
    # no cage. Outies of row 1 would be {6}, only if cell 3 were caged.
    rules = Rules(4, (2, 2), cages=[(3, [0, 1]), (5, [2, 6])])
    implied = {cage.cells: cage.total for cage in implied_of(rules)}
    assert (2, 3) in implied and implied[(2, 3)] == 7  # innies of row 1: 10 - 3
    assert (6,) not in implied
    rules.cages.append((4, [3]))  # now row 1 is caged: its outie, cell 6, is 3 + 5 + 4 - 10
    implied = {cage.cells: cage.total for cage in implied_of(rules)}
    assert implied[(6,)] == 2


def test_implied_cages_cut_the_search_of_blank_killers():
    """Two 9x9 killers without givens (``tests/data/killers_blank.json``) solved by the masks
    engine with and without the rule of 45's cages: the same one solution, in far fewer
    nodes (measured: 1,888 -> 22 and 2,134 -> 20)."""
    from pysolver.engines import masks

    entries = json.loads((DATA.parent / "killers_blank.json").read_text())
    for entry in entries:
        response = solve({"kind": "sudoku", "limit": 2, "puzzle": entry["puzzle"]})
        rules = rules_of(entry["puzzle"])
        plain_cages = [
            masks.Cage(tuple(cells), tuple(variants.digit_sets((1 << 9) - 1, len(cells), total)))
            for total, cells in rules.cages
        ]
        plain = masks.search(
            masks.CellsProblem(81, 9, [(1 << 9) - 1] * 81, rules.units(), plain_cages), limit=2
        )
        assert response["engine"] == "masks" and response["unique"], entry["name"]
        assert plain.complete and plain.count == 1
        assert sum(response["solutions"][0], []) == plain.solutions[0]
        assert response["stats"]["nodes"] * 3 < plain.stats["nodes"], entry["name"]
