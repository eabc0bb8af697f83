"""Play mode's rules in Node.js (web/kinds/*/logic.js, web/play/session.js's share text), against
puzzles Python generates: a generated puzzle played to its solution is solved, a wrong move is
found by the check, progress and share texts survive a round trip, and automatic candidates are
what the givens leave. Without Node.js the test is skipped, except under ``python3 build.py test``.
"""

from __future__ import annotations

from typing import Any

import pytest

from pysolver import solve
from tests.node_page import require_node, run_module

require_node("the page's play mode")

# Each case: {"op": name, ...}; the module answers a list of results in the same order.
RUNNER = """
import * as sudoku from "./web/kinds/sudoku/logic.js";
import * as shikaku from "./web/kinds/shikaku/logic.js";
import {
  clockText, joinShareText, levelsFor, sizeKeys, splitShareText,
} from "./web/play/session.js";
import { explainedSteps, gradeWords } from "./web/play/explain.js";
import { frameAt, indexTrace } from "./web/watch/stepview.js";
import * as polyomino from "./web/kinds/polyomino/logic.js";
import { orientations } from "./web/kinds/polyomino/rules.js";
import { gridUnits } from "./web/kinds/sudoku/editor.js";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const attempt = (action) => {
  try { return { value: action() }; } catch (error) { return { error: error.message }; }
};
const out = JSON.parse(input).map((c) => {
  if (c.op === "sudoku") {
    const n = c.n;
    const units = gridUnits(n, c.box[0], c.box[1]);
    const game = sudoku.newGame(c.givens, n);
    const candidates = sudoku.candidateMasks(game, units).map(sudoku.maskValues);
    const refusedOnGiven = sudoku.setEntry(game, c.givens.findIndex(Boolean), 1);
    const open = c.givens.flatMap((v, i) => (v ? [] : [i]));
    // A corner and a centre mark, then a wrong value in the first open cell.
    sudoku.toggleMark(game, open[1], 1, "corner");
    sudoku.toggleMark(game, open[1], 2, "corner");
    sudoku.toggleMark(game, open[2], 3, "centre");
    const wrongValue = (c.solution[open[0]] % n) + 1;
    sudoku.setEntry(game, open[0], wrongValue);
    const text = sudoku.encodeProgress(game);
    const back = sudoku.decodeProgress(text, c.givens, n);
    const wrong = [...sudoku.wrongCells(back, c.solution)];
    // Now the right values everywhere.
    for (const i of open) sudoku.setEntry(back, i, c.solution[i]);
    return {
      candidates, refusedOnGiven, text, wrong,
      same: sudoku.encodeProgress(sudoku.decodeProgress(text, c.givens, n)) === text,
      marksWiped: back.corner[open[1]] === 0 && back.centre[open[2]] === 0,
      solvedBySolution: sudoku.isSolved(back, { solution: c.solution }),
      solvedByRules: sudoku.isSolved(back, { units }),
      halfSolved: sudoku.isSolved(sudoku.decodeProgress(text, c.givens, n), { units }),
      badText: attempt(() => sudoku.decodeProgress(text.slice(1), c.givens, n)).error,
      badValue: attempt(() => sudoku.decodeProgress(`z${text.slice(1)}`, c.givens, n)).error,
    };
  }
  if (c.op === "shikaku") {
    let rects = [];
    for (const rect of c.solution) rects = shikaku.placeRectangle(rects, rect);
    const complete = shikaku.isComplete(rects, c.rows, c.cols, c.clues);
    const text = shikaku.encodeRectangles(rects);
    const back = shikaku.decodeRectangles(text, c.rows, c.cols);
    // A rectangle over the first two of the solution replaces both; the board is then wrong.
    const [a, b] = c.solution;
    const far = [Math.max(a[0] + a[2], b[0] + b[2]) - 1, Math.max(a[1] + a[3], b[1] + b[3]) - 1];
    const big = shikaku.rectangleBetween([a[0], a[1]], far);
    const merged = shikaku.placeRectangle(back, big);
    return {
      complete, text, roundTrip: JSON.stringify(back) === JSON.stringify(rects),
      mergedCount: merged.length,
      mergedComplete: shikaku.isComplete(merged, c.rows, c.cols, c.clues),
      verdicts: shikaku.judgeRectangles(merged, c.clues),
      wrong: [...shikaku.wrongRectangles(merged, c.solution)],
      removed: shikaku.removeAt(rects, a[0], a[1]).length,
      offBoard: attempt(() => shikaku.decodeRectangles(`0.0.${(c.rows + 1).toString(36)}.1`,
        c.rows, c.cols)).error,
    };
  }
  if (c.op === "polyomino") {
    const named = c.pieces.map((name) => ({ name, cells: null, count: 1 }));
    const pieces = polyomino.pieceCopies(named, c.library);
    const key = (cells) => cells.map(([r, z]) => `${r},${z}`).sort().join(" ");
    // Each piece of the given tiling, held in the orientation and at the cell that covers it.
    const placements = [];
    for (const { piece, cells } of c.tiling) {
      const index = c.pieces.indexOf(piece);
      const found = orientations(pieces[index].cells).flatMap((_, orient) => cells.flatMap((at) => {
        const placed = polyomino.placedCells(pieces[index], orient, at, true);
        return key(placed) === key(cells) ? [{ index, orient, at, cells: placed }] : [];
      }));
      placements.push(found[0]);
    }
    const text = polyomino.encodePlacements(placements);
    const back = polyomino.decodePlacements(text, c.board, pieces, true);
    const turnsBack = (index, orient) => {
      let next = orient;
      for (let k = 0; k < 4; k++) next = polyomino.rotate(pieces[index], next, true);
      return next === orient;
    };
    return {
      tiled: polyomino.isTiled(c.board, back), partTiled: polyomino.isTiled(c.board, back.slice(1)),
      roundTrip: polyomino.encodePlacements(back) === text,
      wrongAgainstItself: [...polyomino.wrongPlacements(c.board, back, pieces, c.tiling)],
      wrongAgainstMirror: [...polyomino.wrongPlacements(c.board, back, pieces, c.mirrored)],
      wrongAgainstOther: [...polyomino.wrongPlacements(c.board, back, pieces, c.other)].length,
      fourTurns: placements.every(({ index, orient }) => turnsBack(index, orient)),
      overlap: attempt(() => polyomino.decodePlacements(`${text}_${text.split("_")[0]}`,
        c.board, pieces, true)).error,
      fitsTaken: polyomino.fits(c.board, back, back[0].cells),
    };
  }
  if (c.op === "share") {
    const parts = splitShareText(c.text);
    const again = joinShareText(parts.puzzle, parts.generated, parts.progress);
    return { parts, again, bad: attempt(() => splitShareText(`${c.text}!Q1`)).error };
  }
  if (c.op === "clock") return c.seconds.map(clockText);
  if (c.op === "levels") {
    const levels = (puzzle) => levelsFor(c.generate, puzzle);
    return c.puzzles.map((puzzle) => ({ keys: sizeKeys(puzzle), levels: levels(puzzle) }));
  }
  if (c.op === "explain") {
    // The Step view's board after the last step: every placement of the path.
    const place = c.kind === "sudoku" ? ([r, col, value]) => ({ cell: [r, col], value }) : (p) => p;
    const steps = explainedSteps(c.response.steps, place);
    const trace = indexTrace(steps);
    const last = frameAt(trace, steps.length - 1, {}).placed.map((node) => node.place);
    const words = gradeWords(c.response.grade, c.response.steps.length, c.techniques);
    return { steps, last, words };
  }
  throw new Error(c.op);
});
process.stdout.write(JSON.stringify(out));
"""


def run(cases: list[dict[str, Any]]) -> list[Any]:
    return run_module(RUNNER, cases)


def sudoku_case(size: int, seed: int) -> dict[str, Any]:
    answer = solve({"kind": "sudoku", "mode": "generate", "seed": seed, "puzzle": {"size": size}})
    assert answer["ok"], answer
    grid = answer["puzzle"]["grid"]
    symbols = "123456789ABCDEFG"
    givens = [0 if ch == "." else symbols.index(ch) + 1 for ch in grid]
    box = {4: [2, 2], 6: [2, 3], 9: [3, 3], 16: [4, 4]}[size]
    flat = [value for row in answer["solutions"][0] for value in row]
    return {"op": "sudoku", "n": size, "box": box, "givens": givens, "solution": flat}


def python_candidates(case: dict[str, Any]) -> list[list[int]]:
    """What each open cell may hold given the givens: Norvig's peers, written plainly."""
    n, (box_rows, box_cols), givens = case["n"], case["box"], case["givens"]
    result = []
    for index, given in enumerate(givens):
        if given:
            result.append([])
            continue
        r, c = divmod(index, n)
        top, left = r - r % box_rows, c - c % box_cols
        peers = {r * n + j for j in range(n)} | {i * n + c for i in range(n)}
        peers |= {(top + i) * n + left + j for i in range(box_rows) for j in range(box_cols)}
        seen = {givens[p] for p in peers}
        result.append([v for v in range(1, n + 1) if v not in seen])
    return result


@pytest.mark.parametrize(("size", "seed"), [(4, 1), (6, 2), (9, 7), (16, 3)])
def test_sudoku_game_played_to_the_solution(size: int, seed: int) -> None:
    case = sudoku_case(size, seed)
    [result] = run([case])
    assert result["candidates"] == python_candidates(case)
    assert result["refusedOnGiven"] is False
    first_open = case["givens"].index(0)
    assert result["wrong"] == [first_open]
    assert result["same"] is True
    assert len(result["text"].split(",")[0]) == size * size
    assert ",c" in result["text"] and ",m" in result["text"]
    assert result["marksWiped"] is True
    assert result["solvedBySolution"] is True
    assert result["solvedByRules"] is True
    assert result["halfSolved"] is False
    assert "cells" in result["badText"]
    assert '"z"' in result["badValue"]


@pytest.mark.parametrize(("rows", "cols", "seed"), [(5, 5, 1), (6, 8, 3), (12, 12, 5)])
def test_shikaku_game_completed_by_the_solution(rows: int, cols: int, seed: int) -> None:
    answer = solve(
        {
            "kind": "shikaku",
            "mode": "generate",
            "seed": seed,
            "puzzle": {"rows": rows, "cols": cols},
        }
    )
    assert answer["ok"], answer
    solution = answer["solutions"][0]
    case = {
        "op": "shikaku",
        "rows": rows,
        "cols": cols,
        "clues": answer["puzzle"]["clues"],
        "solution": solution,
    }
    [result] = run([case])
    assert result["complete"] is True
    assert result["roundTrip"] is True
    assert result["mergedCount"] <= len(solution) - 1
    assert result["mergedComplete"] is False
    assert "bad" in result["verdicts"]
    assert len(result["wrong"]) == 1
    assert result["removed"] == len(solution) - 1
    assert "not top.left.height.width" in result["offBoard"]


def test_share_text_parts_and_clock() -> None:
    text = "....39..5!Geasy.7!P.5..,c2.c"
    share, clock = run(
        [{"op": "share", "text": text}, {"op": "clock", "seconds": [0, 65, 3600 + 62]}]
    )
    assert share["parts"] == {
        "puzzle": "....39..5",
        "generated": {"level": "easy", "seed": 7, "difficulty": "easy"},
        "progress": ".5..,c2.c",
    }
    assert share["again"] == text
    assert "neither" in share["bad"]
    assert clock == ["0:00", "1:05", "1:01:02"]


def test_share_text_names_the_level_made_and_the_level_asked() -> None:
    # Generate asked for hard made a medium puzzle (its note says so): the link names the level
    # the puzzle has, then the one asked, which makes the same puzzle again.
    text = "5x5:F,L,P,V,W:all!Gmedium.167774489.hard!P"
    (share,) = run([{"op": "share", "text": text}])
    assert share["parts"]["generated"] == {
        "level": "medium",
        "seed": 167774489,
        "difficulty": "hard",
    }
    assert share["again"] == text


def test_levels_offered_are_those_facts_list_for_the_size() -> None:
    every = ["easy", "medium", "hard", "expert"]
    generate = {
        "difficulties": every,
        "levels_by_size": {
            "4": ["easy"],
            "jigsaw:6": ["easy", "medium"],
            "5x3": ["easy", "hard"],
            "8/2": ["easy"],
        },
    }
    (answers,) = run(
        [
            {
                "op": "levels",
                "generate": generate,
                "puzzles": [
                    {"size": 4},
                    {"size": 9},
                    {"size": 6, "variant": "jigsaw"},
                    {"size": 4, "variant": "x"},
                    {"rows": 5, "cols": 3},
                    {"size": 8, "stars": 2},
                ],
            }
        ]
    )
    assert [answer["levels"] for answer in answers] == [
        ["easy"],
        every,  # a size the facts do not list makes every level
        ["easy", "medium"],
        ["easy"],  # no entry for X: the plain size's
        ["easy", "hard"],
        ["easy"],  # a Star Battle's side and stars
    ]
    assert answers[3]["keys"] == ["x:4", "x:4x4", "4", "4x4"]
    # Without levels_by_size (a Python before it), every level.
    (plain,) = run(
        [{"op": "levels", "generate": {"difficulties": every}, "puzzles": [{"size": 4}]}]
    )
    assert plain[0]["levels"] == every


def test_polyomino_game_placed_as_the_solution() -> None:
    from pysolver.kinds.polyomino.pieces import LIBRARY

    answer = solve(
        {"kind": "polyomino", "mode": "generate", "seed": 4, "puzzle": {"rows": 5, "cols": 6}}
    )
    assert answer["ok"], answer
    board = answer["puzzle"]["board"]
    rows, cols = len(board), len(board[0])
    tiling = answer["solutions"][0]
    mirrored = [
        {"piece": p["piece"], "cells": [[r, cols - 1 - c] for r, c in p["cells"]]} for p in tiling
    ]
    # Another tiling is wrong somewhere: the same pieces, two of them swapped in name.
    other = [dict(p) for p in tiling]
    other[0]["piece"], other[1]["piece"] = other[1]["piece"], other[0]["piece"]
    case = {
        "op": "polyomino",
        "board": board,
        "pieces": answer["puzzle"]["pieces"],
        "library": {
            name: {"cells": [list(cell) for cell in LIBRARY[name]]}
            for name in answer["puzzle"]["pieces"]
        },
        "tiling": tiling,
        "mirrored": mirrored,
        "other": other,
    }
    [result] = run([case])
    assert rows == 5
    assert result["tiled"] is True
    assert result["partTiled"] is False
    assert result["roundTrip"] is True
    assert result["wrongAgainstItself"] == []
    assert result["wrongAgainstMirror"] == []
    assert result["wrongAgainstOther"] >= 2
    assert result["fourTurns"] is True
    assert "is not a piece of the puzzle" in result["overlap"]
    assert result["fitsTaken"] is False


@pytest.mark.parametrize("kind", ["sudoku", "shikaku"])
def test_explained_path_plays_to_the_solution_in_the_step_view(kind: str) -> None:
    """The Step view's replay of an explained path (web/play/explain.js into
    web/watch/stepview.js) ends with the solution on the board; the grade reads in words."""
    from pysolver.facts import site_facts

    size = {"size": 9} if kind == "sudoku" else {"rows": 8, "cols": 8}
    made = solve(
        {"kind": kind, "mode": "generate", "seed": 5, "difficulty": "medium", "puzzle": size}
    )
    assert made["ok"], made
    response = solve({"kind": kind, "mode": "explain", "puzzle": made["puzzle"]})
    assert response["ok"], response
    techniques = site_facts()["kinds"][kind]["explain"]["techniques"]
    case = {"op": "explain", "kind": kind, "response": response, "techniques": techniques}
    [result] = run([case])
    solution = made["solutions"][0]
    if kind == "sudoku":
        givens = made["puzzle"]["grid"]
        board = {(p["cell"][0], p["cell"][1]): p["value"] for p in result["last"]}
        open_cells = {divmod(i, 9) for i, ch in enumerate(givens) if ch == "."}
        assert set(board) == open_cells
        assert all(solution[r][c] == value for (r, c), value in board.items())
    else:
        rects = sorted(tuple(p["rect"]) for p in result["last"])
        assert rects == sorted(tuple(rect) for rect in solution)
    # A step that places nothing is one "eliminate" step; a guess's placements are tried.
    eliminations = [step["text"] for step in response["steps"] if not step["place"]]
    assert [s["text"] for s in result["steps"] if s["type"] == "eliminate"] == eliminations
    guesses = sum(len(step["place"]) for step in response["steps"] if step["technique"] == "guess")
    assert sum(s["type"] == "try" for s in result["steps"]) == guesses
    level = response["grade"]["level"]
    assert result["words"].startswith(f"Graded {level} (score {response['grade']['score']})")
    for name, times in response["grade"]["techniques"].items():
        assert f"{name} {times}" in result["words"]
