"""The page's Step view replays traces as Python does: web/watch/stepview.js in Node.js, same steps.

For traces of every kind, the board the page draws at each step (``frameAt(...).placed``) must
be the protocol's stack at that step, and at every ``solution`` step the solution Python's
``trace.replay`` finds; the step a tried placement follows must be the choose/split before it.
Without Node.js the test is skipped, except under ``python3 build.py test``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pysolver import solve
from pysolver.engines import trace
from tests.node_page import require_node, run_module

ROOT = Path(__file__).resolve().parents[1]

require_node("the page's replay")

# Reads a list of traces (lists of steps) on stdin; writes, per trace and step, the board the
# page would draw ([place, forced] pairs), the focus step's index and the solution steps.
RUNNER = """
import { indexTrace, frameAt } from "./web/watch/stepview.js";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const out = JSON.parse(input).map((steps) => {
  const replay = indexTrace(steps);
  return {
    boards: steps.map((_, i) => frameAt(replay, i, {}).placed.map((p) => [p.place, p.forced])),
    focus: Array.from(replay.focus),
    solutions: replay.solutions,
  };
});
process.stdout.write(JSON.stringify(out));
"""

SHIKAKU_4X4 = {"rows": 4, "cols": 4, "clues": [[0, 0, 4], [1, 2, 4], [3, 1, 4], [2, 3, 4]]}
REQUESTS = [
    {"kind": "polyomino", "symmetry": "all", "puzzle": {"board": ["." * 5] * 3,
     "pieces": ["F", "P", "U"]}},
    {"kind": "sudoku", "puzzle": {"grid": "1..." + "..1." + ".1.." + "...."}},
    {"kind": "sudoku", "engine": "dlx", "puzzle": {"grid": "1..." + "..1." + ".1.." + "...."}},
    {"kind": "shikaku", "puzzle": SHIKAKU_4X4},
    {"kind": "shikaku", "engine": "dlx", "puzzle": SHIKAKU_4X4},
    {"kind": "domino", "limit": 3, "puzzle": {"rows": 3, "cols": 4}},
    {"kind": "exact_cover", "puzzle": {"text": "A B C D\nA B\nC D\nA C\nB D\nA\nB\n"}},
    {"kind": "queens", "puzzle": {"n": 6, "queens": [[0, 1]]}},
    {"kind": "queens", "engine": "dlx", "limit": 4, "puzzle": {"n": 6}},
]  # fmt: skip


def page_replay(traces: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    return run_module(RUNNER, traces)


def stacks(steps: list[dict[str, Any]]) -> list[list[list[Any]]]:
    """The protocol's board after every step (docs/protocol.md: the board is a stack)."""
    board: list[list[Any]] = []
    after = []
    for step in steps:
        if step["type"] in ("try", "force"):
            del board[step["depth"] :]
            board.append([step["place"], step["type"] == "force"])
        elif step["type"] == "backtrack":
            del board[step["depth"] :]
        after.append([list(entry) for entry in board])
    return after


def test_the_page_replays_every_kinds_trace_as_python_does() -> None:
    traces = []
    for request in REQUESTS:
        response = solve({**request, "mode": "trace", "limit": request.get("limit", 5)})
        assert response["ok"], response
        assert response["count"] >= 1, request
        traces.append(response["steps"])
    for request, steps, page in zip(REQUESTS, traces, page_replay(traces), strict=True):
        assert page["boards"] == stacks(steps), request["kind"]
        solutions = [n for n, step in enumerate(steps) if step["type"] == "solution"]
        assert page["solutions"] == solutions
        python_boards = trace.replay(steps)
        assert [[place for place, _ in page["boards"][n]] for n in solutions] == python_boards
        for n, step in enumerate(steps):
            focus = page["focus"][n]
            if step["type"] in ("choose", "split"):
                assert focus == n
            elif focus >= 0:
                # A try follows the latest choose or split at its depth.
                assert step["type"] == "try" and focus < n
                assert steps[focus]["type"] in ("choose", "split")
                assert steps[focus]["depth"] == step["depth"]
                assert not any(
                    steps[k]["type"] in ("choose", "split") and steps[k]["depth"] == step["depth"]
                    for k in range(focus + 1, n)
                )


# Reads one trace on stdin; writes, per step, the colours the Step view gives the pieces on the
# board (web/render/palette.js colourInOrder, as web/kinds/polyomino/render.js's drawStep calls it).
COLOUR_RUNNER = """
import { indexTrace, frameAt } from "./web/watch/stepview.js";
import { colourInOrder } from "./web/render/palette.js";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const steps = JSON.parse(input);
const replay = indexTrace(steps);
const out = steps.map((_, i) => colourInOrder(frameAt(replay, i, {}).placed.map((p) => p.place)));
process.stdout.write(JSON.stringify(out));
"""


def test_step_view_pieces_keep_their_colour_and_touching_pieces_differ() -> None:
    request = {"kind": "polyomino", "mode": "trace", "symmetry": "all", "max_steps": 400,
               "puzzle": {"board": ["." * 20] * 3, "pieces": ["pentominoes"]}}  # fmt: skip
    response = solve(request)
    assert response["ok"], response
    steps = response["steps"]
    colours = run_module(COLOUR_RUNNER, steps)
    boards = stacks(steps)
    assert max(len(board) for board in boards) >= 6
    for n in range(1, len(steps)):
        before, after = boards[n - 1], boards[n]
        kept = 0
        while kept < min(len(before), len(after)) and before[kept] == after[kept]:
            kept += 1
        # The pieces still on the board, bottom of the stack first, keep their colours.
        assert colours[n][:kept] == colours[n - 1][:kept], n
    for board, fills in zip(boards, colours, strict=True):
        owner = {
            tuple(cell): index for index, (place, _) in enumerate(board) for cell in place["cells"]
        }
        for (r, c), index in owner.items():
            for neighbour in ((r + 1, c), (r, c + 1)):
                other = owner.get(neighbour)
                if other is not None and other != index:
                    assert fills[index] != fills[other]
