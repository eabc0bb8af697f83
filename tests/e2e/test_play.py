"""Play mode (web/play/): a generated easy Sudoku played to completion by keyboard and by touch
on a phone, a wrong digit found by Check and undone, progress kept over a reload and in
localStorage, a generated Shikaku dragged to completion with the mouse and with a finger, and
the seed in the share link. The digits and rectangles come from Python's own answer to the
same generate request (the one solution it reports)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import canvas_picture, load_app, open_tab, wait_idle

from pysolver.kinds.polyomino.pieces import LIBRARY, normalise, orientations

PHONE = {"width": 390, "height": 844}
MARGIN = 8  # web/render/grid.js
SYMBOLS = "123456789ABCDEFG"


def generate(page, kind: str, seed: int, puzzle: dict[str, Any]) -> dict[str, Any]:
    """Python's answer to the request the New puzzle button sends (same seed, level, size)."""
    request = {
        "kind": kind,
        "mode": "generate",
        "seed": seed,
        "difficulty": "easy",
        "puzzle": puzzle,
    }
    answer = page.evaluate("(request) => window.pysolver.solve(request)", request)
    assert answer["ok"], answer
    return answer


def new_puzzle(page, kind: str, seed: int, tap: bool = False) -> None:
    page.select_option(f"#{kind}-new-difficulty", "easy")
    page.fill(f"#{kind}-new-seed", str(seed))
    if tap:
        page.tap(f"#{kind}-new")
    else:
        page.click(f"#{kind}-new")
    wait_idle(page)
    page.wait_for_selector(f"#{kind}-play-bar", state="visible")


def cell_centre(page, kind: str, cols: int, r: int, c: int) -> dict[str, float]:
    """The centre of cell (r, c) relative to the canvas, for a board cols cells wide."""
    width, shown = page.evaluate(
        "(kind) => { const c = document.getElementById(`${kind}-canvas`);"
        " return [Number(c.dataset.width), c.clientWidth]; }",
        kind,
    )
    cell = (width - 2 * MARGIN) / cols
    scale = shown / width
    return {"x": (MARGIN + (c + 0.5) * cell) * scale, "y": (MARGIN + (r + 0.5) * cell) * scale}


def page_point(page, kind: str, cols: int, r: int, c: int) -> tuple[float, float]:
    box = page.locator(f"#{kind}-canvas").bounding_box()
    point = cell_centre(page, kind, cols, r, c)
    border = 1  # the canvas's CSS border (style.css .board)
    return box["x"] + border + point["x"], box["y"] + border + point["y"]


def status(page, kind: str) -> str:
    return page.text_content(f"#{kind}-play-status") or ""


def solved(page, kind: str) -> bool:
    return page.get_attribute(f"#{kind}-play-status", "data-solved") == "true"


def progress_part(page) -> str:
    """The game's progress in the URL fragment (after "!P")."""
    fragment = page.evaluate("location.hash")
    assert "!P" in fragment, fragment
    return fragment.split("!P", 1)[1]


# ------------------------------------------------------------------ Sudoku by keyboard


def test_sudoku_played_by_keyboard_checked_undone_and_kept_over_a_reload(
    app_page, site_url, open_app
) -> None:
    page = app_page
    open_tab(page, "sudoku")
    answer = generate(page, "sudoku", 7, {"size": 9})
    new_puzzle(page, "sudoku", 7)
    grid = answer["puzzle"]["grid"]
    solution = [value for row in answer["solutions"][0] for value in row]
    # The link names the puzzle, its level and seed, and the (empty) game.
    fragment = page.evaluate("location.hash")
    assert fragment == f"#sudoku:{grid}!Geasy.7!P{'.' * 81}"
    assert "seed 7" in page.text_content("#sudoku-new-source")
    # The editing controls step aside while playing.
    assert not page.is_visible("#sudoku-solve")
    assert not page.is_visible("#sudoku-paste")
    open_cells = [i for i, ch in enumerate(grid) if ch == "."]

    page.click("#sudoku-canvas", position=cell_centre(page, "sudoku", 9, 0, 0))
    # A wrong digit in the first open cell, found by Check, then undone with Ctrl+Z.
    first = open_cells[0]
    for _ in range(first % 9):
        page.keyboard.press("ArrowRight")
    for _ in range(first // 9):
        page.keyboard.press("ArrowDown")
    wrong = solution[first] % 9 + 1
    page.keyboard.press(str(wrong))
    assert progress_part(page)[first] == str(wrong)
    page.click("#sudoku-play-check")
    page.wait_for_function(
        "() => /wrong move/.test(document.getElementById('sudoku-play-status').textContent)"
    )
    assert status(page, "sudoku").startswith("1 wrong move")
    page.focus("#sudoku-canvas")
    page.keyboard.press("Control+z")
    assert progress_part(page)[first] == "."
    # Pencil marks: Shift+digit a corner mark, the centre mode a centre mark; a digit wipes them.
    page.keyboard.press("Shift+1")
    page.keyboard.press("Shift+2")
    assert ",c" in progress_part(page)
    page.keyboard.press(" ")  # digit -> corner
    page.keyboard.press(" ")  # corner -> centre
    assert page.get_attribute("#sudoku-play-mode-centre", "aria-pressed") == "true"
    page.keyboard.press("3")
    assert ",m" in progress_part(page)
    page.click("#sudoku-play-mode-digit")
    assert page.evaluate("document.activeElement.id") == "sudoku-canvas"

    # Half the open cells, row by row with the arrows.
    half = open_cells[: len(open_cells) // 2]
    at = first
    for index in half:
        r0, c0 = divmod(at, 9)
        r1, c1 = divmod(index, 9)
        for _ in range((c1 - c0) % 9):
            page.keyboard.press("ArrowRight")
        for _ in range((r1 - r0) % 9):
            page.keyboard.press("ArrowDown")
        page.keyboard.press(SYMBOLS[solution[index] - 1])
        at = index
    kept = progress_part(page)
    assert ",c" not in kept and ",m" not in kept  # the digit in the first cell wiped its marks
    assert sum(ch != "." for ch in kept[:81]) == len(half)
    assert re.fullmatch(r"\d+:\d\d", page.text_content("#sudoku-play-timer") or "")

    # A reload keeps the game (the link holds it), and so does a fresh visit (localStorage).
    page.reload()
    page.wait_for_function("() => document.body.dataset.state === 'ready'", timeout=90_000)
    assert progress_part(page) == kept
    assert page.is_visible("#sudoku-play-bar")
    page.click("#sudoku-canvas", position=cell_centre(page, "sudoku", 9, *divmod(at, 9)))
    again = open_app(site_url)
    open_tab(again, "sudoku")
    assert again.is_visible("#sudoku-play-bar")
    assert progress_part(again) == kept
    again.close()

    # The rest, and the game says it is solved.
    for index in open_cells[len(half) :]:
        r0, c0 = divmod(at, 9)
        r1, c1 = divmod(index, 9)
        for _ in range((c1 - c0) % 9):
            page.keyboard.press("ArrowRight")
        for _ in range((r1 - r0) % 9):
            page.keyboard.press("ArrowDown")
        page.keyboard.press(SYMBOLS[solution[index] - 1])
        at = index
    page.wait_for_function(
        "() => document.getElementById('sudoku-play-status').dataset.solved === 'true'"
    )
    assert status(page, "sudoku").startswith("Solved in")
    assert page.console_errors == []


# ------------------------------------------------------------------ Sudoku by touch on a phone


@pytest.fixture
def phone_page(browser, site_url, new_guarded_page):
    context = browser.new_context(
        viewport=PHONE, has_touch=True, is_mobile=True, service_workers="block"
    )
    page = new_guarded_page(context)
    load_app(page, site_url)
    yield page
    context.close()


def test_sudoku_played_by_touch_on_a_phone(phone_page) -> None:
    page = phone_page
    page.tap("#tab-sudoku")
    answer = generate(page, "sudoku", 11, {"size": 9})
    new_puzzle(page, "sudoku", 11, tap=True)
    grid = answer["puzzle"]["grid"]
    solution = [value for row in answer["solutions"][0] for value in row]
    # The phone's layout: the board, then the game's keys, all within the screen's width.
    board = page.locator("#sudoku-canvas").bounding_box()
    keys = page.locator("#sudoku-play-pad").bounding_box()
    assert board["y"] < keys["y"]
    assert board["x"] + board["width"] <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for index, ch in enumerate(grid):
        if ch != ".":
            continue
        page.tap("#sudoku-canvas", position=cell_centre(page, "sudoku", 9, *divmod(index, 9)))
        page.tap(f"#sudoku-play-key-{SYMBOLS[solution[index] - 1]}")
    page.wait_for_function(
        "() => document.getElementById('sudoku-play-status').dataset.solved === 'true'"
    )
    assert status(page, "sudoku").startswith("Solved in")


# ------------------------------------------------------------------ Shikaku by dragging


def drag(page, cols: int, rect: list[int]) -> None:
    top, left, height, width = rect
    x0, y0 = page_point(page, "shikaku", cols, top, left)
    x1, y1 = page_point(page, "shikaku", cols, top + height - 1, left + width - 1)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x1, y1, steps=4)
    page.mouse.up()


def touch_drag(page, cols: int, rect: list[int]) -> None:
    """A finger drawn over the board (Chromium's touch input, which the page sees as pointer
    events of type touch)."""
    top, left, height, width = rect
    x0, y0 = page_point(page, "shikaku", cols, top, left)
    x1, y1 = page_point(page, "shikaku", cols, top + height - 1, left + width - 1)
    session = page.context.new_cdp_session(page)
    session.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]}
    )
    for step in range(1, 5):
        x, y = x0 + (x1 - x0) * step / 4, y0 + (y1 - y0) * step / 4
        session.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
        )
    session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    session.detach()


def test_shikaku_dragged_to_completion(app_page) -> None:
    page = app_page
    open_tab(page, "shikaku")
    page.fill("#shikaku-new-rows", "6")
    page.fill("#shikaku-new-cols", "7")
    answer = generate(page, "shikaku", 3, {"rows": 6, "cols": 7})
    new_puzzle(page, "shikaku", 3)
    assert page.evaluate("location.hash").endswith("!Geasy.3!P")
    rects = answer["solutions"][0]
    # A wrong rectangle first (over two of the solution's), which Check finds; a tap removes it.
    drag(page, 7, [0, 0, 6, 7])
    page.click("#shikaku-play-check")
    page.wait_for_function(
        "() => /wrong move/.test(document.getElementById('shikaku-play-status').textContent)"
    )
    x, y = page_point(page, "shikaku", 7, 0, 0)
    page.mouse.click(x, y)
    assert progress_part(page) == ""
    for rect in rects[:-1]:
        drag(page, 7, rect)
    assert not solved(page, "shikaku")
    drag(page, 7, rects[-1])
    page.wait_for_function(
        "() => document.getElementById('shikaku-play-status').dataset.solved === 'true'"
    )
    assert len(progress_part(page).split("_")) == len(rects)
    # Undo takes the last rectangle back; the game is no longer solved.
    page.click("#shikaku-undo")
    assert len(progress_part(page).split("_")) == len(rects) - 1
    assert not solved(page, "shikaku")
    # By keyboard (a click would take a rectangle away): the cursor is where the last drag
    # ended, the rectangle's far corner; Enter there, arrows to the near corner, Enter.
    _, _, height, width = rects[-1]
    page.focus("#shikaku-canvas")
    page.keyboard.press("Enter")
    for key, times in (("ArrowUp", height - 1), ("ArrowLeft", width - 1)):
        for _ in range(times):
            page.keyboard.press(key)
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.getElementById('shikaku-play-status').dataset.solved === 'true'"
    )
    assert page.console_errors == []


def test_shikaku_dragged_by_touch_on_a_phone(phone_page) -> None:
    page = phone_page
    page.tap("#tab-shikaku")
    page.fill("#shikaku-new-rows", "5")
    page.fill("#shikaku-new-cols", "5")
    answer = generate(page, "shikaku", 4, {"rows": 5, "cols": 5})
    new_puzzle(page, "shikaku", 4, tap=True)
    for rect in answer["solutions"][0]:
        touch_drag(page, 5, rect)
    page.wait_for_function(
        "() => document.getElementById('shikaku-play-status').dataset.solved === 'true'"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


# ------------------------------------------------------------------ polyomino


def turns_to(start: list[list[int]], target: list[list[int]]) -> str:
    """The R (quarter turn) and F (flip) presses that bring a piece held in its first
    orientation (start) to the target shape, found breadth first over normalised shapes."""
    moves = {"r": lambda r, c: (c, -r), "f": lambda r, c: (r, -c)}
    goal = normalise(tuple(cell) for cell in target)
    seen = {normalise(tuple(cell) for cell in start): ""}
    queue = list(seen)
    while queue:
        shape = queue.pop(0)
        if shape == goal:
            return seen[shape]
        for key, move in moves.items():
            image = normalise(move(r, c) for r, c in shape)
            if image not in seen:
                seen[image] = seen[shape] + key
                queue.append(image)
    raise AssertionError(f"{target} is not a turn of {start}")


def drop_cell(cells: list[list[int]]) -> tuple[int, int]:
    """The board cell the piece in hand is dropped on to cover cells: its handle, the cell
    nearest the shape's middle (web/kinds/polyomino/logic.js), first in row order on a tie."""
    top, left = min(r for r, _ in cells), min(c for _, c in cells)
    shape = sorted((r - top, c - left) for r, c in cells)
    mr = sum(r for r, _ in shape) / len(shape)
    mc = sum(c for _, c in shape) / len(shape)
    best = shape[0]
    for cell in shape:
        if (cell[0] - mr) ** 2 + (cell[1] - mc) ** 2 < (best[0] - mr) ** 2 + (best[1] - mc) ** 2:
            best = cell
    return top + best[0], left + best[1]


def place_pieces(page, answer: dict[str, Any], touch: bool) -> None:
    """Place the solution's pieces: pick each from the tray, turn it, drop it (mouse and the R
    and F keys, or taps and the Rotate and Flip buttons)."""
    names = answer["puzzle"]["pieces"]
    cols = len(answer["puzzle"]["board"][0])
    for placement in answer["solutions"][0]:
        index = names.index(placement["piece"])
        start = orientations(LIBRARY[placement["piece"]])[0]
        presses = turns_to([list(cell) for cell in start], placement["cells"])
        r, c = drop_cell(placement["cells"])
        where = cell_centre(page, "polyomino", cols, r, c)
        if touch:
            page.tap(f"#polyomino-play-piece-{index}")
            for key in presses:
                page.tap("#polyomino-play-rotate" if key == "r" else "#polyomino-play-flip")
            page.tap("#polyomino-canvas", position=where)
        else:
            page.click(f"#polyomino-play-piece-{index}")
            for key in presses:
                page.keyboard.press(key.upper())
            page.click("#polyomino-canvas", position=where)


def test_polyomino_pieces_placed_to_completion_with_the_mouse_and_keys(app_page) -> None:
    page = app_page
    open_tab(page, "polyomino")
    answer = generate(page, "polyomino", 4, {"rows": 5, "cols": 4})
    page.select_option("#polyomino-new-size", "4")
    new_puzzle(page, "polyomino", 4)
    fragment = page.evaluate("location.hash")
    assert fragment.endswith("!Geasy.4!P")
    assert ",".join(answer["puzzle"]["pieces"]) in fragment
    assert "seed 4" in page.text_content("#polyomino-new-source")
    # A piece picked up and dropped where it does not fit stays in hand.
    page.click("#polyomino-play-piece-0")
    page.click("#polyomino-canvas", position=cell_centre(page, "polyomino", 4, 0, 0))
    assert progress_part(page) == ""
    page.keyboard.press("Escape")
    place_pieces(page, answer, touch=False)
    page.wait_for_function(
        "() => document.getElementById('polyomino-play-status').dataset.solved === 'true'"
    )
    assert len(progress_part(page).split("_")) == len(answer["puzzle"]["pieces"])
    # By keyboard: the last piece taken off (Delete at its handle) and dropped back (Enter).
    last = answer["solutions"][0][-1]
    r, c = drop_cell(last["cells"])
    page.click("#polyomino-canvas", position=cell_centre(page, "polyomino", 4, r, c))
    assert not solved(page, "polyomino")  # the click picked the piece up
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.getElementById('polyomino-play-status').dataset.solved === 'true'"
    )
    page.keyboard.press("Delete")
    assert not solved(page, "polyomino")
    assert len(progress_part(page).split("_")) == len(answer["puzzle"]["pieces"]) - 1
    assert page.console_errors == []


def test_polyomino_pieces_placed_by_touch_on_a_phone(phone_page) -> None:
    page = phone_page
    page.tap("#tab-polyomino")
    answer = generate(page, "polyomino", 6, {"rows": 5, "cols": 3})
    page.select_option("#polyomino-new-size", "3")
    new_puzzle(page, "polyomino", 6, tap=True)
    place_pieces(page, answer, touch=True)
    page.wait_for_function(
        "() => document.getElementById('polyomino-play-status').dataset.solved === 'true'"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


# ------------------------------------------------------------------ dark mode


def test_play_in_dark_mode(new_guarded_context, new_guarded_page, site_url) -> None:
    context = new_guarded_context(color_scheme="dark", viewport={"width": 1280, "height": 900})
    page = load_app(new_guarded_page(context), site_url)
    open_tab(page, "sudoku")
    new_puzzle(page, "sudoku", 5)
    assert page.get_attribute("#sudoku-canvas", "data-theme") == "dark"
    # The board's paper is dark where no digit is.
    paper = page.evaluate(
        """() => { const c = document.getElementById('sudoku-canvas');
            const d = c.getContext('2d').getImageData(2, 2, 1, 1).data;
            return d[0] + d[1] + d[2]; }"""
    )
    assert paper < 3 * 80


# ------------------------------------------------------------------ Hint and Explain


def wait_status(page, kind: str, pattern: str) -> str:
    page.wait_for_function(
        "([kind, pattern]) => new RegExp(pattern).test("
        "document.getElementById(`${kind}-play-status`).textContent)",
        arg=[kind, pattern],
    )
    return status(page, kind)


def test_sudoku_hint_names_the_next_step_and_the_mistake_and_explain_steps_the_path(
    app_page,
) -> None:
    page = app_page
    open_tab(page, "sudoku")
    answer = generate(page, "sudoku", 7, {"size": 9})
    new_puzzle(page, "sudoku", 7)
    # A chosen engine and two workers do not reach generate, hint or explain (they pick their own).
    page.select_option("#sudoku-engine", index=1)
    hint = page.evaluate(
        "(grid) => window.pysolver.solve({kind: 'sudoku', mode: 'hint', puzzle: {grid}})",
        answer["puzzle"]["grid"],
    )["hint"]
    before = canvas_picture(page, "sudoku")
    page.click("#sudoku-play-hint")
    said = wait_status(page, "sudoku", "^Hint")
    assert said == f"Hint ({hint['technique']}): {hint['text']}"
    assert canvas_picture(page, "sudoku") != before  # its cells are tinted
    # A wrong digit: the hint names the mistake.
    grid = answer["puzzle"]["grid"]
    solution = [value for row in answer["solutions"][0] for value in row]
    first = grid.index(".")
    page.click("#sudoku-canvas", position=cell_centre(page, "sudoku", 9, *divmod(first, 9)))
    page.keyboard.press(str(solution[first] % 9 + 1))
    page.click("#sudoku-play-hint")
    said = wait_status(page, "sudoku", "^Mistake")
    assert f"row {first // 9 + 1}, column {first % 9 + 1}" in said.lower()
    # Centre marks are the candidates hint mode reads: marks without the right digit are named.
    page.focus("#sudoku-canvas")
    page.keyboard.press("Control+z")
    page.click("#sudoku-play-mode-centre")
    page.keyboard.press(str(solution[first] % 9 + 1))
    page.click("#sudoku-play-hint")
    assert "pencil marks" in wait_status(page, "sudoku", "^Mistake")
    # Explain: the path in the Step view, the grade and the techniques counted.
    explained = page.evaluate(
        "(grid) => window.pysolver.solve({kind: 'sudoku', mode: 'explain', puzzle: {grid}})", grid
    )
    page.click("#sudoku-play-explain")
    page.wait_for_selector("#sudoku-step-log", state="visible")
    summary = page.text_content("#sudoku-step-summary") or ""
    assert summary.startswith(f"Graded {explained['grade']['level']}")
    for name, times in explained["grade"]["techniques"].items():
        assert f"{name} {times}" in summary
    placed = sum(len(step["place"]) or 1 for step in explained["steps"])
    assert page.text_content("#sudoku-step-position") == f"Step 1 of {placed}"
    assert page.text_content("#sudoku-step-text") == explained["steps"][0]["text"]
    first_step = canvas_picture(page, "sudoku")
    page.click("#sudoku-step-forward")
    assert page.text_content("#sudoku-step-text") == explained["steps"][1]["text"]
    assert canvas_picture(page, "sudoku") != first_step
    assert explained["steps"][0]["technique"] in page.text_content("#sudoku-step-log")
    page.click("#sudoku-step-close")
    assert page.console_errors == []


def test_shikaku_hint_and_explain(app_page) -> None:
    page = app_page
    open_tab(page, "shikaku")
    page.fill("#shikaku-new-rows", "6")
    page.fill("#shikaku-new-cols", "6")
    new_puzzle(page, "shikaku", 3)
    page.click("#shikaku-play-hint")
    assert wait_status(page, "shikaku", "^Hint").startswith("Hint (")
    drag(page, 6, [0, 0, 6, 6])
    page.click("#shikaku-play-hint")
    wait_status(page, "shikaku", "^Mistake")
    page.click("#shikaku-play-explain")
    page.wait_for_selector("#shikaku-step-log", state="visible")
    assert (page.text_content("#shikaku-step-summary") or "").startswith("Graded ")
    page.click("#shikaku-step-forward")
    assert page.text_content("#shikaku-step-position").startswith("Step 2 of ")
    assert page.console_errors == []


def test_play_this_puzzle_checks_against_a_solve_and_back_to_editing(app_page) -> None:
    page = app_page
    open_tab(page, "sudoku")
    grid = page.evaluate("location.hash").split(":", 1)[1]
    answer = page.evaluate(
        "(grid) => window.pysolver.solve({kind: 'sudoku', puzzle: {grid}})", grid
    )
    solution = [value for row in answer["solutions"][0] for value in row]
    page.click("#sudoku-play-toggle")
    assert page.is_visible("#sudoku-play-bar")
    assert page.evaluate("location.hash") == f"#sudoku:{grid}!P{'.' * 81}"
    first = grid.index(".")
    page.click("#sudoku-canvas", position=cell_centre(page, "sudoku", 9, *divmod(first, 9)))
    page.keyboard.press(str(solution[first] % 9 + 1))
    # The puzzle was not generated: Check solves it first (quietly), then marks the move.
    page.click("#sudoku-play-check")
    assert wait_status(page, "sudoku", "wrong move").startswith("1 wrong move")
    assert page.text_content("#sudoku-result") == ""
    page.click("#sudoku-play-toggle")
    assert page.is_visible("#sudoku-solve")
    assert not page.is_visible("#sudoku-play-bar")
    assert page.evaluate("location.hash") == f"#sudoku:{grid}"
    assert page.console_errors == []
