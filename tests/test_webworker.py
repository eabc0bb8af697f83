"""The worker's Python bridge (pysolver/webworker.py) under CPython, called as
web/runtime/worker.mjs calls it: request text in, JSON text out, progress posted as (id, JSON
text), cancel read through the page's shared flag (a function of the request id), or no cancel
hook at all when the page is not cross-origin isolated; "plan" and "merge" as the page's pool of
workers uses them; the live objects the "memory" message reports."""

from __future__ import annotations

import json
import subprocess
import sys

from pysolver import solve
from pysolver.webworker import MERGE, PLAN, connect, live_objects, run_solve

PENTOMINO_6X10 = {
    "kind": "polyomino",
    "mode": "count",
    "puzzle": {"board": ["." * 10] * 6, "pieces": ["pentominoes"]},
}
HOLE_8X8 = ["........"] * 3 + ["...##...", "...##..."] + ["........"] * 3
SUDOKU = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def without_seconds(response: dict) -> dict:
    """A response without its timings, which differ from run to run."""
    response = dict(response)
    response["stats"] = {k: v for k, v in response.get("stats", {}).items() if k != "seconds"}
    return response


class Page:
    """What the worker passes in: postProgress posts a message, isCancelled reads the flag."""

    def __init__(self, cancel_after: int | None = None) -> None:
        self.messages: list[dict] = []
        self.flag = 0  # the shared Int32Array's cancelFlag[0]: the id of the request to cancel
        self.cancel_after = cancel_after

    def post_progress(self, request_id: int, text: str) -> None:
        self.messages.append({"type": "progress", "id": request_id, "text": text})
        if self.cancel_after is not None and len(self.messages) >= self.cancel_after:
            self.flag = request_id

    def is_cancelled(self, request_id: int) -> bool:
        return self.flag == request_id


def test_a_solve_answers_what_solve_answers_as_json_text() -> None:
    request = json.dumps({"kind": "sudoku", "limit": 2, "puzzle": {"grid": SUDOKU}})
    page = Page()
    text = run_solve(request, 1, page.post_progress, page.is_cancelled)
    response = json.loads(text)
    assert response["ok"] and (response["count"], response["complete"]) == (1, True)
    assert without_seconds(response) == without_seconds(solve(request))


def test_counts_beyond_two_to_the_53_arrive_whole_in_the_text() -> None:
    request = json.dumps({"kind": "domino", "mode": "count", "puzzle": {"rows": 16, "cols": 16}})
    text = run_solve(request, 7, Page().post_progress, None)
    assert '"count": 2444888770250892795802079170816' in text
    assert json.loads(text)["count"] == 2444888770250892795802079170816


def test_progress_is_posted_with_the_request_id_as_json_text(monkeypatch) -> None:
    # The page's walk is pure Python; the compiled one can finish before three reports.
    monkeypatch.setenv("PYSOLVER_PURE", "1")
    # Cancelled after a few reports, as the page's Cancel button does through the shared flag.
    page = Page(cancel_after=3)
    text = run_solve(json.dumps(PENTOMINO_6X10), 42, page.post_progress, page.is_cancelled)
    assert len(page.messages) >= 3
    for message in page.messages:
        assert message["id"] == 42
        report = json.loads(message["text"])
        assert {"nodes", "solutions", "fraction", "seconds"} <= set(report)
    fractions = [json.loads(message["text"])["fraction"] for message in page.messages]
    assert fractions == sorted(fractions)
    response = json.loads(text)
    assert response["ok"] and response["cancelled"] is True and response["complete"] is False
    assert 0 <= response["count"] < 9356


def test_one_answerer_serves_many_requests_and_a_quick_one_posts_no_progress(
    monkeypatch,
) -> None:
    # The worker connects its hooks once. A request that ends before its first report is due
    # posts no message (its answer follows at once); a long one reports, its last report "done".
    page = Page()
    answer = connect(page.post_progress, page.is_cancelled)
    quick = json.dumps({"kind": "sudoku", "limit": 2, "puzzle": {"grid": SUDOKU}})
    for request_id in (1, 2, 3):
        response = json.loads(answer(quick, request_id))
        assert without_seconds(response) == without_seconds(solve(quick))
    assert page.messages == []
    # The page's walk is pure Python; the compiled one can finish before a report is due.
    monkeypatch.setenv("PYSOLVER_PURE", "1")
    response = json.loads(answer(json.dumps(PENTOMINO_6X10), 5))
    assert (response["count"], response["complete"]) == (9356, True)
    assert len(page.messages) >= 2 and {message["id"] for message in page.messages} == {5}
    assert json.loads(page.messages[-1]["text"]).get("done") is True


def test_a_flag_naming_another_request_does_not_cancel_this_one() -> None:
    page = Page()
    page.flag = 5  # the page cancelled request 5, which has already ended
    request = {**PENTOMINO_6X10, "mode": "solve", "limit": 3}
    response = json.loads(run_solve(json.dumps(request), 6, page.post_progress, page.is_cancelled))
    assert response["ok"] and response["count"] == 3 and "cancelled" not in response


def test_without_a_cancel_hook_the_search_runs_to_the_end() -> None:
    # A page that is not cross-origin isolated has no shared flag: the worker passes undefined.
    request = {**PENTOMINO_6X10, "puzzle": {"board": HOLE_8X8, "pieces": ["pentominoes"]}}
    request["mode"], request["limit"] = "solve", 2
    response = json.loads(run_solve(json.dumps(request), 3, Page().post_progress, None))
    assert response["ok"] and response["count"] == 2


def test_bad_input_is_an_error_response_not_an_exception() -> None:
    response = json.loads(run_solve("{not json", 1, Page().post_progress, None))
    assert response["ok"] is False and response["error"]["code"] == "invalid_json"
    unknown = json.dumps({"kind": "no-such-kind", "puzzle": {}})
    response = json.loads(run_solve(unknown, 2, Page().post_progress, None))
    assert response["ok"] is False and response["error"]["code"] == "unknown_kind"


def test_plan_then_tasks_then_merge_answer_as_one_solve() -> None:
    # The pool (web/runtime/pool.js): one worker plans, workers answer the tasks as ordinary
    # solves, one worker merges the answers in task order.
    request = {
        "kind": "polyomino",
        "mode": "solve",
        "limit": 30,
        "jobs": 2,
        "puzzle": {"board": HOLE_8X8, "pieces": ["pentominoes"]},
    }
    page = Page()
    text = json.dumps(request)
    plan = json.loads(run_solve(text, 1, page.post_progress, page.is_cancelled, PLAN))
    assert "response" not in plan and len(plan["tasks"]) >= 2
    answers = [
        run_solve(task, 2 + index, page.post_progress, page.is_cancelled)
        for index, task in enumerate(plan["tasks"])
    ]
    payload = '{"request": ' + json.dumps(request) + ', "responses": [' + ",".join(answers) + "]}"
    merged = json.loads(run_solve(payload, 9, page.post_progress, page.is_cancelled, MERGE))
    serial = solve({key: value for key, value in request.items() if key != "jobs"})
    assert merged["ok"] and merged["count"] == serial["count"] == 30
    assert merged["solutions"] == serial["solutions"]
    assert merged["complete"] == serial["complete"]


def test_a_plan_that_is_not_split_carries_the_response() -> None:
    request = json.dumps({"kind": "sudoku", "puzzle": {"grid": "12"}, "jobs": 2})
    plan = json.loads(run_solve(request, 1, Page().post_progress, None, PLAN))
    assert plan["response"]["ok"] is False
    assert plan["response"]["error"]["path"].startswith("puzzle")
    assert without_seconds(plan["response"]) == without_seconds(solve(request))


def test_live_objects_count_what_is_kept_and_not_what_a_solve_left_as_garbage() -> None:
    sudoku = json.dumps({"kind": "sudoku", "puzzle": {"grid": SUDOKU}})
    run_solve(sudoku, 1, Page().post_progress, None)  # the imports and caches a solve warms
    before = live_objects()
    kept = [[index] for index in range(10_000)]  # 10,000 lists, held
    held = live_objects()
    del kept
    run_solve(sudoku, 2, Page().post_progress, None)
    after = live_objects()
    assert held - before >= 10_000
    assert abs(after - before) < 1_000, (before, after)


def test_warm_up_imports_every_kind_before_any_request():
    # A fresh interpreter: the test session has imported the kinds already.
    script = (
        "import sys\n"
        "from pysolver.kinds import kind_folders\n"
        "from pysolver.webworker import warm_up\n"
        "modules = [f'pysolver.kinds.{name}' for name in kind_folders()]\n"
        "cold = [m for m in modules if m not in sys.modules]\n"
        "warm_up()\n"
        "print(len(cold), all(m in sys.modules for m in modules))\n"
    )
    command = [sys.executable, "-c", script]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    cold, warm = done.stdout.split()
    assert int(cold) > 0 and warm == "True"


def test_out_of_memory_past_the_solve_is_answered_too_large(monkeypatch) -> None:
    # A MemoryError that escapes the solve's own guard (writing the answer, the bridge) is
    # answered with the too_large text made at import, as the solve itself answers one.
    from pysolver import webworker

    def out_of_memory(*_args: object, **_kwargs: object) -> dict[str, object]:
        raise MemoryError

    monkeypatch.setattr(webworker, "solve", out_of_memory)
    request = json.dumps({"kind": "queens", "puzzle": {"n": 4}})
    answer = json.loads(run_solve(request, 1, print, None))
    assert answer == json.loads(webworker.OUT_OF_MEMORY_TEXT)
    assert answer["ok"] is False and answer["error"]["code"] == "too_large"
