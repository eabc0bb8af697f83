"""The Python library (pysolver.library): lazy covers, exact counts, the puzzle classes."""

from __future__ import annotations

import gc
import itertools
import random
import subprocess
import sys
import threading
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest

import pysolver
from buildtools import wheel
from pysolver.engines import dlx
from pysolver.kinds import exact_cover as exact_cover_kind
from pysolver.kinds.polyomino.pieces import LIBRARY, orientations

SUDOKU = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def board_options(rows: int, cols: int, names: list[str]) -> list[list[str]]:
    """Every placement of the named pieces on a rows x cols board, as options of item names:
    the piece's name and its cells ``r,c``."""
    options = []
    for name in names:
        for shape in orientations(LIBRARY[name]):
            height = 1 + max(r for r, _ in shape)
            width = 1 + max(c for _, c in shape)
            for top in range(rows - height + 1):
                for left in range(cols - width + 1):
                    cells = [f"{top + r},{left + c}" for r, c in shape]
                    options.append([name, *cells])
    return options


PENTOMINOES_AND_SQUARE = [*"FILNPTUVWXYZ", "O4"]


def test_first_tiling_of_the_8x8_board_comes_at_once() -> None:
    # 129,168 tilings (the whole count takes minutes); the first must not wait for them.
    options = board_options(8, 8, PENTOMINOES_AND_SQUARE)
    started = time.perf_counter()
    solutions = pysolver.covers(options)
    first = next(solutions)
    seconds = time.perf_counter() - started
    solutions.close()
    assert seconds < 1.0
    assert sorted(item for index in first for item in options[index][1:]) == sorted(
        f"{r},{c}" for r in range(8) for c in range(8)
    )
    assert sorted(options[index][0] for index in first) == sorted(PENTOMINOES_AND_SQUARE)


def test_breaking_out_of_the_loop_stops_the_search() -> None:
    options = board_options(8, 8, PENTOMINOES_AND_SQUARE)
    reports: list[dict[str, Any]] = []
    threads_before = threading.active_count()
    for index, _ in enumerate(pysolver.covers(options, progress=reports.append)):
        if index == 2:
            break
    gc.collect()
    # The generator is closed when the loop leaves it: the monitor's last report was sent,
    # no thread was started, and nothing searches any more (no report comes after).
    assert reports and reports[-1]["done"] and reports[-1]["solutions"] == 3
    assert threading.active_count() == threads_before
    count_then = len(reports)
    time.sleep(0.3)
    assert len(reports) == count_then


def test_closing_the_walk_leaves_the_counters_of_the_last_solution() -> None:
    problem = exact_cover_kind.parse_puzzle(
        pysolver.library.exact_cover_puzzle(board_options(4, 5, ["L", "P", "U", "N"]))
    )
    state = dlx.WalkState()
    walk = dlx.walk(problem, state=state)
    next(walk)
    walk.close()
    assert state.count == 1 and state.nodes > 1 and not state.cancelled
    assert dlx.search(problem).count == pysolver.count(board_options(4, 5, ["L", "P", "U", "N"]))


def brute_force(
    options: list[list[str]], primary: list[str], secondary: list[str]
) -> list[list[int]]:
    """Every set of options covering each primary item once, each secondary item at most once
    or only with one colour (as Knuth's XCC): by trying every subset."""
    found = []
    for size in range(len(options) + 1):
        for chosen in itertools.combinations(range(len(options)), size):
            uses: dict[str, list[str]] = {}
            for index in chosen:
                for entry in options[index]:
                    item, _, colour = entry.partition(":")
                    uses.setdefault(item, []).append(colour)
            if any(len(uses.get(item, [])) != 1 for item in primary):
                continue
            if all(
                len(uses.get(item, [])) <= 1 or ("" not in uses[item] and len(set(uses[item])) == 1)
                for item in secondary
            ):
                found.append(list(chosen))
    return found


def random_instance(rng: random.Random) -> tuple[list[list[str]], list[str], list[str]]:
    primary = [f"p{i}" for i in range(rng.randint(1, 4))]
    secondary = [f"s{i}" for i in range(rng.randint(0, 3))]
    options = []
    for _ in range(rng.randint(1, 9)):
        option = rng.sample(primary, rng.randint(1, len(primary)))
        for item in secondary:
            if rng.random() < 0.4:
                option.append(item if rng.random() < 0.3 else f"{item}:{rng.choice('AB')}")
        options.append(option)
    return options, primary, secondary


def test_covers_and_count_agree_with_brute_force_with_colours() -> None:
    rng = random.Random(19)
    coloured = 0
    for _ in range(300):
        options, primary, secondary = random_instance(rng)
        expected = brute_force(options, primary, secondary)
        found = sorted(pysolver.covers(options, primary, secondary))
        assert found == sorted(expected), (options, primary, secondary)
        assert pysolver.count(options, primary, secondary) == len(expected)
        assert pysolver.count(options, primary, secondary, engine="dlx") == len(expected)
        coloured += any(":" in entry for option in options for entry in option)
    assert coloured > 100


def test_primary_and_secondary_defaults() -> None:
    # A coloured item is secondary; with ``secondary`` alone, the rest is primary.
    options = [["p", "x:A"], ["q", "x:A"], ["q", "x:B"], ["p", "q"]]
    assert list(pysolver.covers(options)) == [[0, 1], [3]]
    assert list(pysolver.covers([["a", "b"], ["a"]], secondary=["b"])) == [[0], [1]]
    assert list(pysolver.covers([["a", "b"], ["a"]], primary=["a"])) == [[0], [1]]
    assert list(pysolver.covers([["a", "b"], ["a"]])) == [[0]]


class FakeArray:
    """What ``covers`` reads of a NumPy array: ``tolist()``."""

    def __init__(self, rows: list[list[int]]) -> None:
        self.rows = rows

    def tolist(self) -> list[list[int]]:
        return self.rows


def test_a_matrix_is_accepted() -> None:
    rows = [[1, 1, 0], [1, 0, 0], [0, 1, 1], [0, 0, 1]]
    assert list(pysolver.covers(rows)) == [[0, 3], [1, 2]]
    assert list(pysolver.covers(FakeArray(rows))) == [[0, 3], [1, 2]]
    # Column 2 secondary: covering it is optional (and option 3, only secondary, is never
    # chosen, as in Knuth's programs: the search branches on primary items).
    assert sorted(pysolver.covers(rows, secondary=[2])) == [[0], [1, 2]]
    assert pysolver.count(FakeArray(rows)) == 2


def test_seed_gives_a_reproducible_random_order_of_the_same_solutions() -> None:
    options = board_options(4, 5, ["L", "P", "U", "N"])
    ordered = list(pysolver.covers(options))
    shuffled = list(pysolver.covers(options, seed=5))
    assert sorted(shuffled) == sorted(ordered) and len(ordered) > 5
    assert shuffled == list(pysolver.covers(options, seed=5))
    assert shuffled != ordered


def test_bad_input_raises_solver_error() -> None:
    with pytest.raises(pysolver.SolverError) as caught:
        list(pysolver.covers([["a:A"], ["a"]], primary=["a"]))
    assert caught.value.code == "invalid_puzzle"
    with pytest.raises(pysolver.SolverError, match="dlx"):
        pysolver.covers([["a"]], engine="bitset")
    with pytest.raises(ValueError):
        pysolver.Sudoku("12").count()


def test_cancel_and_keyboard_interrupt_stop_the_search() -> None:
    options = board_options(8, 8, PENTOMINOES_AND_SQUARE)
    found = list(pysolver.covers(options, cancel=lambda: True))
    assert found == []  # the first check (after 512 nodes) already stops it

    def interrupt(report: dict[str, Any]) -> None:
        if not report.get("done"):
            raise KeyboardInterrupt

    solutions = pysolver.covers(options, progress=interrupt)
    with pytest.raises(KeyboardInterrupt):
        for _ in solutions:
            pass
    # The generator ended with the exception: asking again gives nothing.
    assert next(solutions, None) is None
    with pytest.raises(pysolver.SolverError, match="cancelled"):
        pysolver.count(options, cancel=lambda: True)


def test_sudoku_class() -> None:
    sudoku = pysolver.Sudoku(SUDOKU)
    assert sudoku.count() == 1
    solution = sudoku.solve()
    assert str(solution).splitlines()[0] == "5 3 4 | 6 7 8 | 9 1 2"
    assert str(solution).splitlines()[3] == "------+-------+------"
    assert str(sudoku).splitlines()[0] == "5 3 . | . 7 . | . . ."
    assert repr(sudoku).startswith("<Sudoku>\n")
    assert solution._repr_svg_().startswith("<svg") and ">9</text>" in solution._repr_svg_()
    steps = sudoku.trace(max_steps=5)
    assert len(steps) == 5 and all("type" in step for step in steps)
    assert pysolver.Sudoku("." * 81).random(2, seed=1) == pysolver.Sudoku("." * 81).random(
        2, seed=1
    )


def test_polyomino_class() -> None:
    tiling = pysolver.Polyomino(["......"] * 10, "pentominoes")
    assert tiling.count(limit=5) == 5
    first = tiling.solve()
    letters = str(first).split("\n\n")[0].splitlines()
    assert len(letters) == 10 and sorted(set("".join(letters))) == sorted("FILNPTUVWXYZ")
    assert "┌" in str(first) and first._repr_svg_().count("<rect") == 60
    assert str(tiling) == "\n".join(["......"] * 10)
    # The kind's own option: every tiling of a 2x5 board by two P pentominoes, or one per
    # symmetry class (the board's four symmetries pair them up).
    pair = {"name": "P", "cells": [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0]], "count": 2}
    assert pysolver.Polyomino(["..", "..", "..", "..", ".."], [pair]).count() == 2
    board = ["..", "..", "..", "..", ".."]
    assert pysolver.Polyomino(board, [pair], symmetry="distinct").count() == 1
    traced = pysolver.Polyomino(["..", "..", "..", "..", ".."], [pair], symmetry="all").trace()
    assert traced[-1]["type"] == "solution"


def test_shikaku_dominoes_and_queens_classes() -> None:
    shikaku = pysolver.Shikaku(3, 3, [(0, 1, 3), (1, 1, 6)])
    assert shikaku.count() == 1
    assert str(shikaku.solve()) == "\n".join(
        [
            "┌───────────┐",
            "│     3     │",
            "├───────────┤",
            "│     6     │",
            "│           │",
            "│           │",
            "└───────────┘",
        ]
    )
    dominoes = pysolver.Dominoes(8, 8)
    assert dominoes.count() == 12_988_816
    assert pysolver.Dominoes(16, 16).count() == 2444888770250892795802079170816
    assert str(pysolver.Dominoes(1, 2).solve()) == "┌───────┐\n│       │\n└───────┘"
    queens = pysolver.Queens(8)
    assert queens.count() == 92
    assert len(set(queens.random(5, seed=2))) == 5
    assert str(pysolver.Queens(4).solve()).count("Q") == 4


def test_the_package_installs_a_command_and_its_type_hints() -> None:
    # pip install . : the console command runs the CLI's main, and py.typed (PEP 561) ships
    # in the package, so type checkers read the library's hints from an install.
    root = Path(__file__).resolve().parent.parent
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["scripts"] == {"pysolver": "pysolver.__main__:main"}
    assert project["project"]["dependencies"] == []
    assert "py.typed" in project["tool"]["setuptools"]["package-data"]["pysolver"]
    assert (root / "pysolver" / "py.typed").is_file()
    assert "py.typed" in {path.name for path in wheel.package_files()}


def test_generate_explain_and_hint_from_the_classes() -> None:
    # generate answers as the protocol's generate mode does, seed for seed, as an object of the
    # class with its grade; explain and hint go through the protocol's modes.
    sudoku = pysolver.Sudoku.generate("medium", 2, size=9)
    request = {"kind": "sudoku", "mode": "generate", "seed": 2, "difficulty": "medium"}
    protocol_answer = pysolver.solve({**request, "puzzle": {"size": 9}})
    assert sudoku.puzzle == protocol_answer["puzzle"]
    assert sudoku.grade == protocol_answer["grade"]
    assert sudoku.count() == 1
    explained = sudoku.explain()
    assert explained["grade"]["level"] == sudoku.grade["level"] == "medium"
    placed = [place for step in explained["steps"] for place in step["place"]]
    grid = sudoku.puzzle["grid"]
    assert len(placed) == sum(1 for ch in grid if ch in ".0")
    assert sudoku.hint()["technique"] == explained["steps"][0]["technique"]
    # A wrong digit where the solution has another: the hint names that cell.
    solution = protocol_answer["solutions"][0]
    blank = grid.index(".")
    row, col = divmod(blank, 9)
    wrong = solution[row][col] % 9 + 1
    entries = grid[:blank] + str(wrong) + grid[blank + 1 :]
    mistake = sudoku.hint(entries)
    assert mistake["technique"] == "mistake" and [row, col] in mistake["cells"]
    shikaku = pysolver.Shikaku.generate(seed=3, rows=8, cols=8)
    assert shikaku.count() == 1 and shikaku.grade is not None
    assert shikaku.explain()["grade"]["level"] in ("easy", "medium", "hard", "expert")
    tiling = pysolver.Polyomino.generate(seed=1, rows=5, cols=3)
    assert tiling.puzzle["board"] == ["..."] * 5 and tiling.count() >= 1
    with pytest.raises(pysolver.SolverError):
        pysolver.Dominoes.generate(rows=4, cols=4)
    with pytest.raises(pysolver.SolverError):
        pysolver.Queens(6).explain()


def test_the_kinds_library_names_come_from_their_folders() -> None:
    # Every name the library had before the kinds' folders held their classes still imports
    # from pysolver and pysolver.library; each class is its kind's.
    names = ["Dominoes", "Polyomino", "Queens", "Shikaku", "Sudoku", "count", "covers", "estimate"]
    for name in [*names, "Estimate", "Solution", "SolverError", "solve"]:
        assert name in pysolver.__all__ and getattr(pysolver, name) is not None, name
    for name in [*names, "exact_cover_puzzle", "Estimate", "Solution", "SolverError", "Puzzle"]:
        assert getattr(pysolver.library, name) is not None, name
    for cls in (pysolver.Sudoku, pysolver.Polyomino, pysolver.Shikaku, pysolver.Queens):
        assert issubclass(cls, pysolver.library.Puzzle)
        assert cls.__module__ == f"pysolver.kinds.{cls.kind}.library"
    assert pysolver.Dominoes.__module__ == "pysolver.kinds.domino.library"
    with pytest.raises(AttributeError):
        pysolver.library.NoSuchPuzzle  # noqa: B018
    # Importing the package (and a submodule by name) imports no kind: only a kind's name does.
    script = (
        "import sys\n"
        "import pysolver\n"
        "from pysolver import pasted\n"
        "print(any(m.count('.') == 2 and m.startswith('pysolver.kinds.') "
        "and not m.endswith('contract') for m in sys.modules))\n"
        "from pysolver import Queens\n"
        "print('pysolver.kinds.queens.library' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["False", "True"]
