"""The memory budget in the page: Pyodide's worker runs with the smaller budget of
``pysolver.budget`` (chosen by ``sys.platform == "emscripten"``, with no JavaScript of its own),
refuses what would not fit there before allocating it, and answers the next request."""

from __future__ import annotations

import json

import pysolver
from pysolver import budget
from pysolver.kinds import sudoku

SOLVE_JS = """async (request) => JSON.stringify(await window.pysolver.solve(request))"""

SUDOKU = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def test_the_page_refuses_by_its_own_budget_and_answers_the_next_request(shared_page) -> None:
    # 25x25 on bitsets: about 340 MB up front, within CPython's budget, over the page's.
    request = {"kind": "sudoku", "mode": "count", "engine": "bitset", "puzzle": {"grid": "." * 625}}
    response = json.loads(shared_page.evaluate(SOLVE_JS, request))
    assert response["ok"] is False and response["error"]["code"] == "too_large"
    message = response["error"]["message"]
    assert f"{budget.PYODIDE_BUDGET_BYTES // 2**20} MB memory budget of the page" in message
    # The default at this size fits (masks, the default up to 9x9, hands larger grids to it).
    assert f"{sudoku.MASKS_STANDIN} engine, which would fit" in message
    following = {"kind": "sudoku", "limit": 2, "puzzle": {"grid": SUDOKU}}
    answer = json.loads(shared_page.evaluate(SOLVE_JS, following))
    expected = pysolver.solve(following)
    assert answer["ok"] and answer["solutions"] == expected["solutions"]
    assert answer["complete"] is True and answer["count"] == 1
