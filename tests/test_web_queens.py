"""The queens page's own logic agrees with Python: clashes, attacked cells and share links.

Node.js runs web/kinds/queens/editor.js (queenClashes, queensLink, parseQueensLink) and
web/kinds/queens/render.js (attackedCells) on random boards; Python's kind (pysolver.kinds.queens)
judges the same boards: a clash is a pair ``attack`` names, and the cells the step view leaves
unshaded are exactly the options of ``encode``'s matrix. Skipped without Node.js, as
test_web_parsers.py says.
"""

from __future__ import annotations

import itertools
import random

from pysolver.kinds import queens
from tests.node_page import require_node, run_module

require_node("the queens page's helpers")

RUNNER = """
import { parseQueensLink, queenClashes, queensLink } from "./web/kinds/queens/editor.js";
import { attackedCells } from "./web/kinds/queens/render.js";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { boards, links, maxN } = JSON.parse(input);
const attempt = (read) => {
  try { return read(); } catch (error) { return { error: error.message }; }
};
process.stdout.write(JSON.stringify({
  boards: boards.map(({ n, queens }) => ({
    clashes: [...queenClashes(queens)].sort(),
    attacked: [...attackedCells(n, queens)].sort(),
    link: queensLink(n, queens),
    back: parseQueensLink(queensLink(n, queens), maxN),
  })),
  links: links.map((text) => attempt(() => parseQueensLink(text, maxN))),
}));
"""


def random_boards(count: int) -> list[dict[str, object]]:
    rng = random.Random(16)
    boards = []
    for _ in range(count):
        n = rng.randint(1, 9)
        cells = [[r, c] for r in range(n) for c in range(n)]
        boards.append({"n": n, "queens": sorted(rng.sample(cells, rng.randint(0, min(4, n))))})
    return boards


def test_clashes_attacks_and_links_agree_with_python() -> None:
    boards = random_boards(200)
    links = ["8", "8:0.3,4.4", "0", f"{queens.MAX_N + 1}", "8:8.0", "8:1.1,1.1", "8:1", "x"]
    page = run_module(RUNNER, {"boards": boards, "links": links, "maxN": queens.MAX_N})
    clashing = 0
    for board, seen in zip(boards, page["boards"], strict=True):
        n, placed = board["n"], [tuple(queen) for queen in board["queens"]]
        expected = {
            f"{r},{c}"
            for first, second in itertools.combinations(placed, 2)
            if queens.attack(first, second) is not None
            for r, c in (first, second)
        }
        assert set(seen["clashes"]) == expected, board
        assert seen["back"] == board, board
        if expected:
            clashing += 1
            continue
        # Without clashes: the unshaded free cells are the options Python searches.
        encoding = queens.encode(queens.Board(n, tuple(placed)))
        free = {f"{r},{c}" for r in range(n) for c in range(n)} - set(seen["attacked"])
        assert free - {f"{r},{c}" for r, c in placed} == {f"{r},{c}" for r, c in encoding.cells}
    assert 0 < clashing < len(boards)
    assert page["links"][:2] == [{"n": 8, "queens": []}, {"n": 8, "queens": [[0, 3], [4, 4]]}]
    errors = [result["error"] for result in page["links"][2:]]
    assert errors == [
        f"the board side must be from 1 to {queens.MAX_N} (got 0)",
        f"the board side must be from 1 to {queens.MAX_N} (got {queens.MAX_N + 1})",
        "the queen on row 9, column 1 is off the 8x8 board",
        "row 2, column 2 holds two queens",
        "it should be the board side, then any given queens, such as 8 or 8:0.3,4.4 (row.column, "
        "counting from 0)",
        "it should be the board side, then any given queens, such as 8 or 8:0.3,4.4 (row.column, "
        "counting from 0)",
    ]
