"""Explain and hint modes for Shikaku: every path replayed from the clues by an independent
checker reaches the solution with every rectangle placed right and no right rectangle
removed; each rule fires on a small puzzle; hints name wrong rectangles."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import pysolver
from pysolver.kinds.shikaku import explain_board, logic
from pysolver.logic.step import Step

SEED12 = json.loads((Path(__file__).parent / "data" / "seed12.json").read_text())["puzzle"]


def explain(puzzle: dict[str, Any]) -> dict[str, Any]:
    response = pysolver.solve({"kind": "shikaku", "mode": "explain", "puzzle": puzzle})
    assert response["ok"], response
    return response


def hint(puzzle: dict[str, Any], entries: list[list[int]]) -> dict[str, Any]:
    response = pysolver.solve(
        {"kind": "shikaku", "mode": "hint", "puzzle": {**puzzle, "entries": entries}}
    )
    assert response["ok"], response
    return response["hint"]


def candidates(puzzle: dict[str, Any]) -> list[set[tuple[int, int, int, int]]]:
    """Per clue, every rectangle of its area in the grid holding its cell and no other clue."""
    rows, cols, clues = puzzle["rows"], puzzle["cols"], puzzle["clues"]
    found = []
    for row, col, area in clues:
        own = set()
        for height in range(1, area + 1):
            if area % height:
                continue
            width = area // height
            for top in range(rows - height + 1):
                for left in range(cols - width + 1):
                    inside = [
                        [r, c, n]
                        for r, c, n in clues
                        if top <= r < top + height and left <= c < left + width
                    ]
                    if inside == [[row, col, area]]:
                        own.add((top, left, height, width))
        found.append(own)
    return found


def cells(rectangle: tuple[int, ...] | list[int]) -> set[tuple[int, int]]:
    top, left, height, width = rectangle
    return {(top + r, left + c) for r in range(height) for c in range(width)}


def replay(puzzle: dict[str, Any], steps: list[dict[str, Any]], solution: list[list[int]]) -> None:
    """Apply ``steps`` to the candidates worked out from the clues: every placed rectangle is
    the solution's and still a candidate, every removed one a candidate but not the
    solution's, and every clue ends placed as the solution says."""
    alive = candidates(puzzle)
    placed: dict[int, tuple[int, ...]] = {}
    for step in steps:
        assert step["technique"] and step["text"] and step["cells"], step
        for removed in step["eliminate"]:
            clue, rectangle = removed["clue"], tuple(removed["rect"])
            assert list(rectangle) != solution[clue], f"removes the right rectangle: {step}"
            assert rectangle in alive[clue] and clue not in placed, step
            alive[clue].discard(rectangle)
        for put in step["place"]:
            clue, rectangle = put["clue"], tuple(put["rect"])
            assert list(rectangle) == solution[clue], f"places a wrong rectangle: {step}"
            assert rectangle in alive[clue] and clue not in placed, step
            placed[clue] = rectangle
            alive[clue] = {rectangle}
            for other, others in enumerate(alive):
                if other not in placed:
                    alive[other] = {r for r in others if not cells(r) & cells(rectangle)}
    assert [list(placed[clue]) for clue in range(len(solution))] == solution


def test_the_seed_puzzle_replays() -> None:
    response = explain(SEED12)
    expected = pysolver.solve({"kind": "shikaku", "puzzle": SEED12})["solutions"][0]
    assert response["solutions"][0] == expected and response["unique"]
    replay(SEED12, response["steps"], expected)
    techniques = response["grade"]["techniques"]
    assert set(techniques) == {t.name for t in logic.ALL}
    assert response["grade"]["level"] == "expert"
    guesses = [step for step in response["steps"] if step["technique"] == "guess"]
    assert all(step["alternatives"] and step["place"] for step in guesses)


@pytest.mark.parametrize(
    ("rows", "cols", "difficulty"),
    [
        (3, 4, "easy"),
        (6, 6, "medium"),
        (10, 10, "hard"),
        (15, 12, "expert"),
        (25, 25, "hard"),
    ],
)
def test_generated_puzzles_replay(rows: int, cols: int, difficulty: str) -> None:
    for seed in (1, 2):
        made = pysolver.solve(
            {
                "kind": "shikaku",
                "mode": "generate",
                "seed": seed,
                "difficulty": difficulty,
                "puzzle": {"rows": rows, "cols": cols},
            }
        )
        response = explain(made["puzzle"])
        assert response["solutions"] == made["solutions"]
        replay(made["puzzle"], response["steps"], made["solutions"][0])


def random_puzzle(rows: int, cols: int, most: int, rng: random.Random) -> dict[str, Any]:
    """A grid cut into random rectangles of up to ``most`` cells, each clue at a drawn cell
    (often with several solutions)."""
    owner = [[-1] * cols for _ in range(rows)]
    clues = []
    for top in range(rows):
        for left in range(cols):
            if owner[top][left] >= 0:
                continue
            shapes = [
                (height, width)
                for height in range(1, rows - top + 1)
                for width in range(1, cols - left + 1)
                if height * width <= most
                and all(owner[top + r][left + c] < 0 for r in range(height) for c in range(width))
            ]
            height, width = rng.choice(shapes)
            for r in range(height):
                for c in range(width):
                    owner[top + r][left + c] = len(clues)
            spot = rng.randrange(height * width)
            clues.append([top + spot // width, left + spot % width, height * width])
    return {"rows": rows, "cols": cols, "clues": clues}


def test_the_rules_fixpoint_level_is_the_paths_level() -> None:
    """``logic.rule_level`` (each level's rules run to their fixpoint on masks, as the
    generator grades its attempts) against the level of explain mode's whole path, step by
    step, on random grids with one solution or several and on generated puzzles of every
    level."""
    rng = random.Random(5)
    puzzles = []
    for _puzzle in range(100):
        rows, cols = rng.randrange(3, 11), rng.randrange(3, 11)
        puzzles.append(random_puzzle(rows, cols, rng.choice((3, 4, 6, 9)), rng))
    for difficulty in ("easy", "medium", "hard", "expert"):
        request = {"kind": "shikaku", "mode": "generate", "difficulty": difficulty, "seed": 1}
        puzzles.append(pysolver.solve({**request, "puzzle": {"rows": 10, "cols": 10}})["puzzle"])
    seen = set()
    for puzzle in puzzles:
        level = logic.rule_level(explain_board(puzzle).field)
        assert level == explain(puzzle)["grade"]["level"], puzzle
        seen.add(level)
    assert seen == {"easy", "medium", "hard", "expert"}


def test_several_solutions_are_explained_to_one() -> None:
    puzzle = {"rows": 2, "cols": 2, "clues": [[0, 0, 2], [1, 1, 2]]}
    response = explain(puzzle)
    assert response["unique"] is False
    replay(puzzle, response["steps"], response["solutions"][0])
    assert "more than one solution" in response["steps"][0]["text"]


def field_of(puzzle: dict[str, Any]) -> logic.Field:
    from pysolver.kinds.shikaku import explain_board

    return explain_board(puzzle).field


def named(step: Step | None, name: str) -> Step:
    assert step is not None and step.technique == name
    return step


def test_one_rectangle_left() -> None:
    # A 1x3 strip: the 3 has one rectangle.
    field = field_of({"rows": 1, "cols": 3, "clues": [[0, 1, 3]]})
    step = named(logic.one_rectangle_left(field), "one rectangle left")
    assert step.place == [(0, 0)] and "has one rectangle left" in step.text


def test_only_one_clue_reaches_a_cell() -> None:
    # 2x3: a 2 at row 1, column 1 (across or down) and a 4 at row 1, column 3 (the 2x2 at
    # columns 2-3 only). Row 2, column 1 only the 2 reaches (down), so across goes.
    field = field_of({"rows": 2, "cols": 3, "clues": [[0, 0, 2], [0, 2, 4]]})
    step = named(logic.only_clue(field), "only one clue reaches a cell")
    assert step.eliminate == [(0, field.rectangles[0].index((0, 0, 1, 2)))]
    assert [divmod(cell, 3) for cell in step.cells] == [(1, 0)]


def test_overlap() -> None:
    # 1x7: a 4 at column 3 takes columns 1-4 or 2-5, covering columns 2-4 either way (3 is
    # its clue); a 3 at column 6 could take columns 4-6, which the 4 owns, so that goes.
    field = field_of({"rows": 1, "cols": 7, "clues": [[0, 2, 4], [0, 5, 3]]})
    step = named(logic.overlap(field), "overlap")
    assert step.eliminate == [(1, field.rectangles[1].index((0, 3, 1, 3)))]
    assert step.cells == [1, 3]


def test_hints_name_wrong_rectangles_and_continue_right_ones() -> None:
    solution = explain(SEED12)["solutions"][0]
    step = hint(SEED12, [solution[0], solution[1]])
    assert step["technique"] in {t.name for t in logic.ALL}
    wrong = [0, 0, 1, 1]
    assert wrong not in solution
    step = hint(SEED12, [solution[0], wrong])
    assert step["technique"] == "mistake" and step["cells"] == [[0, 0]]
    assert "row 1, column 1" in step["text"]
    assert hint(SEED12, solution)["technique"] == "solved"


def test_hint_entries_are_checked() -> None:
    response = pysolver.solve(
        {"kind": "shikaku", "mode": "hint", "puzzle": {**SEED12, "entries": [[0, 0, 0, 1]]}}
    )
    assert response["error"]["code"] == "invalid_puzzle"
    assert response["error"]["path"] == "puzzle.entries[0][2]"
    response = pysolver.solve(
        {"kind": "shikaku", "mode": "explain", "puzzle": {**SEED12, "entries": []}}
    )
    assert response["error"]["path"] == "puzzle.entries"
