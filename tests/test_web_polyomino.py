"""The page's polyomino shape rules (web/kinds/polyomino/rules.js) against Python's, in Node.js.

The editor reads pieces and boards before Python sees them (share links, imported requests, the
piece maker), so it carries twins of pysolver/pieces.py (normalise, orientations, is_connected,
parse_cells) and of the polyomino kind's parsing (parse_pieces, read_board_rows, parse_board).
Here both sides read the same generated inputs (a seeded generator of random pieces, piece lists
and boards, good and bad) and must give the same answers, or fail at the same JSON path.

The inputs travel as JSON, so a float with an integral value (2.0) reaches JavaScript as the
integer 2: the generator's bad numbers are never integral. Skipped without Node.js, except under
``python3 build.py test`` (PYSOLVER_REQUIRE_NODE=1).

The editor's own pure helpers (web/kinds/polyomino/editor.js: presets, loadedState, requestPieces,
makerPiece, ...) are checked here too: a loaded request sends the same pieces back.
"""

from __future__ import annotations

import json
import random
from typing import Any

from pysolver.boards import read_board_rows
from pysolver.facts import site_facts
from pysolver.kinds.polyomino.parsing import MAX_BOARD_SIDE, parse_board, parse_pieces
from pysolver.kinds.polyomino.pieces import (
    LIBRARY,
    MAX_COORDINATE,
    SETS,
    is_connected,
    normalise,
    orientations,
    parse_cells,
)
from pysolver.protocol import SolveError
from tests.node_page import require_node, run_module

require_node("the page's polyomino rules")

FACTS = site_facts()["kinds"]["polyomino"]

# Reads {"facts", "shapes", "cells", "pieces", "boards", "loads"} on stdin; writes what the page's
# functions answer for each, an error as {"error": path}.
RUNNER = """
import * as rules from "./web/kinds/polyomino/rules.js";
import { loadedState, requestPieces } from "./web/kinds/polyomino/editor.js";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { facts, shapes, cells, pieces, boards, loads } = JSON.parse(input);
const attempt = (read) => {
  try { return { value: read() }; } catch (error) { return { error: error.path ?? error.message }; }
};
const out = {
  shapes: shapes.map((shape) => ({
    normalised: rules.normalised(shape),
    connected: rules.isConnected(shape),
    turned: rules.orientations(shape, false),
    all: rules.orientations(shape, true),
  })),
  cells: cells.map((value) => attempt(() => rules.readCells(value, "piece.cells", facts.limits))),
  pieces: pieces.map((value) => attempt(() => rules.readPieces(value, facts).map(
    ({ name, cells, count }) => [name, cells || facts.pieces[name].cells, count]))),
  boards: boards.map((value) => attempt(
    () => rules.boardCells(rules.boardRows(value, facts.limits)))),
  loads: loads.map((puzzle) => attempt(() => {
    const state = loadedState(puzzle, facts);
    return { board: state.board, pieces: requestPieces(state, facts) };
  })),
};
process.stdout.write(JSON.stringify(out));
"""

NAMES = list(LIBRARY)
NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def random_shape(rng: random.Random, size: int) -> list[list[int]]:
    """A connected shape of ``size`` cells grown at random, shifted anywhere, cells shuffled."""
    cells = {(0, 0)}
    while len(cells) < size:
        r, c = rng.choice(sorted(cells))
        dr, dc = rng.choice(NEIGHBOURS)
        cells.add((r + dr, c + dc))
    shift_r, shift_c = rng.randint(-20, 20), rng.randint(-20, 20)
    shape = [[r + shift_r, c + shift_c] for r, c in cells]
    rng.shuffle(shape)
    return shape


def turned(shape: list[list[int]], rng: random.Random) -> list[list[int]]:
    """The same piece turned or mirrored (one of the eight symmetries) and shifted."""
    image = list(rng.choice(orientations([(r, c) for r, c in shape], True)))
    dr, dc = rng.randint(-5, 5), rng.randint(-5, 5)
    return [[r + dr, c + dc] for r, c in image]


BAD_NUMBERS: list[Any] = [1.5, "2", True, None, [1], MAX_COORDINATE + 1, -MAX_COORDINATE - 1]


def random_cells(rng: random.Random) -> Any:
    """A custom piece's cells: mostly good, else one of the ways cells go wrong."""
    shape = random_shape(rng, rng.randint(1, 9))
    flaw = rng.choice(["none"] * 6 + ["repeat", "apart", "pair", "number", "empty", "type", "far"])
    if flaw == "repeat":
        shape.insert(rng.randrange(len(shape) + 1), list(rng.choice(shape)))
    elif flaw == "apart":
        shape.append([shape[0][0] + rng.randint(3, 9), shape[0][1]])
    elif flaw == "pair":
        shape[rng.randrange(len(shape))] = rng.choice([[1], [1, 2, 3], [], "1,2"])
    elif flaw == "number":
        shape[rng.randrange(len(shape))][rng.randrange(2)] = rng.choice(BAD_NUMBERS)
    elif flaw == "empty":
        return []
    elif flaw == "type":
        return rng.choice(["1.1", {"r": 1}, 7, None])
    elif flaw == "far":
        shape = [[r + MAX_COORDINATE - 2, c] for r, c in shape]
    return shape


def random_entry(rng: random.Random, used: dict[str, list[list[int]]]) -> Any:
    """One entry of a piece list, good or bad; ``used`` remembers custom shapes by name."""
    kind = rng.choice(["set", "name", "name", "custom", "custom", "again", "library", "bad"])
    if kind == "set":
        return rng.choice([*SETS, "pentomino"])
    if kind == "name":
        return rng.choice([*NAMES, "Q", "h01", ""])
    if kind == "again" and used:
        # A name given twice: the same piece turned (counts add up), or another shape (refused).
        name = rng.choice(sorted(used))
        cells = turned(used[name], rng) if rng.random() < 0.7 else random_shape(rng, 4)
        return {"name": name, "cells": cells}
    if kind in ("custom", "again"):
        name = rng.choice(["A", "B", "C", "F", "I", "my piece"])
        cells = random_cells(rng)
        entry: dict[str, Any] = {"name": name, "cells": cells}
        if "value" in python(lambda: parse_cells(cells, "cells")):
            used.setdefault(name, cells)
        if rng.random() < 0.4:
            entry["count"] = rng.choice([1, 2, 3, 0, 401, 2.5, "2", None, True])
        return entry
    if kind == "library":
        entry = {"name": rng.choice([*NAMES, "nope"])}
        if rng.random() < 0.6:
            entry["count"] = rng.choice([1, 2, 5, 200, 400])
        return entry
    return rng.choice([7, None, ["F"], {"cells": [[0, 0]]}, {"name": 3}, {"name": "F", "size": 1}])


def random_pieces(rng: random.Random) -> Any:
    if rng.random() < 0.05:
        return rng.choice([[], "pentominoes", None])
    used: dict[str, list[list[int]]] = {}
    return [random_entry(rng, used) for _ in range(rng.randint(1, 6))]


def random_board(rng: random.Random) -> Any:
    """A board: rows of '.' and '#', or one of the ways a board goes wrong."""
    rows, cols = rng.randint(1, 6), rng.randint(1, 8)
    board: list[Any] = ["".join(rng.choice("..#") for _ in range(cols)) for _ in range(rows)]
    flaw = rng.choice(["none"] * 5 + ["short", "empty row", "char", "type", "tall", "wide", "no"])
    if flaw == "short" and rows > 1:
        board[rng.randrange(1, rows)] = "." * (cols + rng.choice([-1, 1]) or 1)
    elif flaw == "empty row":
        board[rng.randrange(rows)] = ""
    elif flaw == "char":
        row = rng.randrange(rows)
        board[row] = board[row][:-1] + rng.choice("xo 1é")
    elif flaw == "type":
        board[rng.randrange(rows)] = rng.choice([None, 5, ["."]])
    elif flaw == "tall":
        board = ["."] * (MAX_BOARD_SIDE + 1)
    elif flaw == "wide":
        board = ["." * (MAX_BOARD_SIDE + 1)]
    elif flaw == "no":
        return rng.choice([[], "....", None, {"0": "."}])
    return board


def python(read: Any) -> dict[str, Any]:
    """{"value": what read() returns} or {"error": the path of the SolveError it raises}."""
    try:
        return {"value": read()}
    except SolveError as error:
        return {"error": error.path}


def python_pieces(value: Any) -> list[list[Any]]:
    return [
        [piece.name, [list(cell) for cell in piece.shape], piece.count]
        for piece in parse_pieces(value, reflections=True)
    ]


def python_board(value: Any) -> list[list[int]]:
    read_board_rows(value, "puzzle.board", MAX_BOARD_SIDE)
    rows = value
    return [[r, c] for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "."]


def as_lists(shape: Any) -> list[list[int]]:
    return [list(cell) for cell in shape]


def run_page(payload: dict[str, Any]) -> dict[str, Any]:
    return run_module(RUNNER, {"facts": FACTS, **payload})


def test_shapes_normalise_turn_and_connect_as_in_python() -> None:
    rng = random.Random(16)
    shapes = [random_shape(rng, rng.randint(1, 10)) for _ in range(300)]
    # And shapes that are not connected, made by moving one cell away.
    for shape in shapes[:60]:
        apart = [list(cell) for cell in shape] + [[shape[0][0] + 5, shape[0][1] + 5]]
        shapes.append(apart)
    shapes += [as_lists(shape) for shape in LIBRARY.values()]
    page = run_page({"shapes": shapes, "cells": [], "pieces": [], "boards": [], "loads": []})
    for shape, js in zip(shapes, page["shapes"], strict=True):
        cells = [(r, c) for r, c in shape]
        assert js["normalised"] == as_lists(normalise(cells)), shape
        assert js["connected"] == is_connected(cells), shape
        assert js["turned"] == [as_lists(image) for image in orientations(cells, False)], shape
        assert js["all"] == [as_lists(image) for image in orientations(cells, True)], shape


def test_custom_cells_are_read_as_python_reads_them() -> None:
    rng = random.Random(1616)
    inputs = [random_cells(rng) for _ in range(600)]
    page = run_page({"shapes": [], "cells": inputs, "pieces": [], "boards": [], "loads": []})
    outcomes = {"value": 0, "error": 0}
    for value, js in zip(inputs, page["cells"], strict=True):
        expected = python(lambda value=value: as_lists(parse_cells(value, "piece.cells")))
        assert js == expected, value
        outcomes[next(iter(expected))] += 1
    # The generator reaches both sides of the rules.
    assert min(outcomes.values()) > 100, outcomes


def test_piece_lists_are_read_as_python_reads_them() -> None:
    rng = random.Random(316)
    inputs = [random_pieces(rng) for _ in range(800)]
    page = run_page({"shapes": [], "cells": [], "pieces": inputs, "boards": [], "loads": []})
    outcomes = {"value": 0, "error": 0}
    added_up = 0
    for value, js in zip(inputs, page["pieces"], strict=True):
        expected = python(lambda value=value: python_pieces(value))
        assert js == expected, json.dumps(value)
        outcomes[next(iter(expected))] += 1
        added_up += "value" in expected and any(count > 1 for _, _, count in expected["value"])
    assert min(outcomes.values()) > 150, outcomes
    assert added_up > 25


def test_boards_are_read_as_python_reads_them() -> None:
    rng = random.Random(4316)
    inputs = [random_board(rng) for _ in range(600)]
    page = run_page({"shapes": [], "cells": [], "pieces": [], "boards": inputs, "loads": []})
    outcomes = {"value": 0, "error": 0}
    for value, js in zip(inputs, page["boards"], strict=True):
        expected = python(lambda value=value: python_board(value))
        assert js == expected, json.dumps(value)
        outcomes[next(iter(expected))] += 1
        if "value" in expected and expected["value"]:
            # parse_board answers the same cells (its count checks aside).
            assert as_lists(parse_board(value)) == expected["value"]
    assert min(outcomes.values()) > 100, outcomes


def test_a_loaded_puzzle_sends_pieces_python_reads_the_same() -> None:
    # The editor loads a request (share link, import), then sends its own request back: the
    # pieces Python reads from what the page sends equal those it reads from the original.
    rng = random.Random(5)
    puzzles = []
    while len(puzzles) < 200:
        pieces = random_pieces(rng)
        try:
            parse_pieces(pieces, True)
        except SolveError:
            continue
        puzzles.append({"board": ["." * 5] * 4, "pieces": pieces})
    page = run_page({"shapes": [], "cells": [], "pieces": [], "boards": [], "loads": puzzles})
    for puzzle, js in zip(puzzles, page["loads"], strict=True):
        assert "value" in js, (puzzle, js)
        assert js["value"]["board"] == puzzle["board"]
        read_back = sorted(python_pieces(js["value"]["pieces"]))
        assert read_back == sorted(python_pieces(puzzle["pieces"])), json.dumps(puzzle)


EDITOR = """
import { makerPiece, matchingPreset, nextFreeName, pieceSummary, presets }
  from "./web/kinds/polyomino/editor.js";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { facts } = JSON.parse(input);
const attempt = (read) => {
  try { return read(); } catch (error) { return { error: error.message }; }
};
const table = presets(facts.sets);
const six = { board: table["6x10"].board, pieces: new Set(facts.sets.pentominoes), custom: [] };
const ell = { name: "CA", cells: [[0, 0], [1, 0], [1, 1]], count: 2 };
process.stdout.write(JSON.stringify({
  preset: matchingPreset(table, six),
  customPreset: matchingPreset(table, { ...six, custom: [ell] }),
  otherBoard: matchingPreset(table, { ...six, board: table["5x12"].board }),
  scottBoard: matchingPreset(table, { ...six, board: table.scott.board }),
  summary: pieceSummary({ ...six, custom: [ell] }, facts),
  tooMany: pieceSummary(
    { board: Array(21).fill(".".repeat(20)), pieces: new Set(), custom: [] }, facts),
  names: [nextFreeName([], facts), nextFreeName([{ name: "CA" }, { name: "CB" }], facts)],
  made: attempt(
    () => makerPiece({ name: " Ell ", cells: [[5, 3], [4, 3], [5, 4]], count: "3" }, facts)),
  clamped: makerPiece({ name: "Ell", cells: [[0, 0]], count: "100000" }, facts).count,
  library: attempt(() => makerPiece({ name: "F", cells: [[0, 0]], count: "1" }, facts)),
  set: attempt(() => makerPiece({ name: "pentominoes", cells: [[0, 0]], count: "1" }, facts)),
  apart: attempt(() => makerPiece({ name: "Ell", cells: [[0, 0], [0, 2]], count: "1" }, facts)),
  nothing: attempt(() => makerPiece({ name: "Ell", cells: [], count: "1" }, facts)),
  unnamed: attempt(() => makerPiece({ name: "  ", cells: [[0, 0]], count: "1" }, facts)),
}));
"""


def test_the_editors_pure_helpers() -> None:
    page = run_module(EDITOR, {"facts": FACTS})
    presets = (page["preset"], page["customPreset"], page["otherBoard"], page["scottBoard"])
    assert presets == ("6x10", "custom", "5x12", "custom")
    assert page["summary"] == "14 pieces covering 66 cells; the board has 60 cells to cover."
    limit = FACTS["limits"]["max_cells"]
    assert page["tooMany"].endswith(
        f"has 420 cells to cover. That is more than the solver takes ({limit})."
    )
    assert page["names"] == ["CA", "CC"]
    assert page["made"] == {"name": "Ell", "cells": [[0, 0], [1, 0], [1, 1]], "count": 3}
    assert page["clamped"] == FACTS["limits"]["max_copies"]
    assert "name from the library" in page["library"]["error"]
    assert "name from the library" in page["set"]["error"]
    assert "one piece" in page["apart"]["error"]
    assert "Draw the piece first" in page["nothing"]["error"]
    assert "Give the piece a name" in page["unnamed"]["error"]
