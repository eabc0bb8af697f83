"""The Star Battle tab as a person uses it: a region map typed and painted on the board, solved
and counted, a puzz.link link pasted and solved, the search stepped through and mapped, and a
generated puzzle played with stars and dots, checked and finished.

One page per module (``shared_page``: Pyodide loads once); each test sets up its own board.
"""

from __future__ import annotations

from typing import Any

from conftest import canvas_picture, click_and_wait, load_app, open_tab, set_input, wait_idle

from pysolver.kinds.star_battle.board import parse_puzzle
from pysolver.kinds.star_battle.url import write_url
from tests.test_star_battle import UNIQUE_EXAMPLE

MARGIN = 8  # web/render/grid.js
# A 6 x 6 one-star board with one solution (tests/test_star_battle.py's EXAMPLE).
EXAMPLE = UNIQUE_EXAMPLE


def cell_point(page, n: int, r: int, c: int) -> dict[str, float]:
    """The middle of cell (r, c) of the n x n board, relative to the canvas, however CSS has
    scaled it."""
    width, shown = page.evaluate(
        "() => { const c = document.getElementById('star_battle-canvas');"
        " return [Number(c.dataset.width), c.clientWidth]; }"
    )
    cell = (width - 2 * MARGIN) / n
    scale = shown / width
    return {"x": (MARGIN + (c + 0.5) * cell) * scale, "y": (MARGIN + (r + 0.5) * cell) * scale}


def page_point(page, n: int, r: int, c: int) -> tuple[float, float]:
    box = page.locator("#star_battle-canvas").bounding_box()
    point = cell_point(page, n, r, c)
    border = 1  # the canvas's CSS border (style.css .board)
    return box["x"] + border + point["x"], box["y"] + border + point["y"]


def fragment(page) -> str:
    return page.evaluate("decodeURIComponent(location.hash)")


def result(page) -> str:
    assert page.text_content("#star_battle-error") == ""
    return page.text_content("#star_battle-result") or ""


def board_text(rows: list[str], stars: int) -> str:
    """The share text the page writes for a map (web/kinds/star_battle/logic.js's boardText):
    its regions renamed A, B, ... in reading order, then each run of a label and its length."""
    names: dict[str, str] = {}
    for label in "".join(rows):
        names.setdefault(label, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[len(names)])
    cells = "".join(names[label] for label in "".join(rows))
    runs = []
    start = 0
    while start < len(cells):
        end = start
        while end < len(cells) and cells[end] == cells[start]:
            end += 1
        runs.append(cells[start] + (str(end - start) if end - start > 1 else ""))
        start = end
    return f"#star_battle:{len(rows)}:{stars}:{''.join(runs)}"


def test_a_typed_map_is_solved_counted_and_painted(shared_page) -> None:
    page = shared_page
    open_tab(page, "star_battle")
    set_input(page, "#star_battle-n", "6")
    set_input(page, "#star_battle-stars", "1")
    page.click("#star_battle-clear")
    assert page.text_content("#star_battle-regions-note").startswith("1 region; a 6 x 6 board")
    # Python's example, typed letter by letter: each letter paints a cell and moves on.
    page.click("#star_battle-canvas", position=cell_point(page, 6, 0, 0))
    page.keyboard.type("".join(EXAMPLE["regions"]).lower())
    page.wait_for_function(
        "(want) => decodeURIComponent(location.hash) === want",
        arg=board_text(EXAMPLE["regions"], 1),
    )
    assert page.text_content("#star_battle-regions-note") == ""
    empty = canvas_picture(page, "star_battle")
    click_and_wait(page, "#star_battle-solve")
    assert result(page) == "Unique solution."
    assert canvas_picture(page, "star_battle") != empty
    click_and_wait(page, "#star_battle-count")
    assert result(page).startswith("1 solution")
    # Typing chose the last letter's brush; "Drag a region" again: a drag from inside region A
    # (row 1, column 3) over the cell to its right grows A there, taking it from B.
    page.click("#star_battle-brush-extend")
    x0, y0 = page_point(page, 6, 0, 2)
    x1, y1 = page_point(page, 6, 0, 3)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x1, y1, steps=4)
    page.mouse.up()
    grown = ["AAAABB", *EXAMPLE["regions"][1:]]
    page.wait_for_function(
        "(want) => decodeURIComponent(location.hash) === want", arg=board_text(grown, 1)
    )
    # A brush paints its own region: C on a cell of C changes nothing, C on the top-left cell
    # leaves C in two pieces (said under the board, refused by Python), undone.
    page.click("#star_battle-brush-C")
    page.click("#star_battle-canvas", position=cell_point(page, 6, 5, 5))
    assert page.text_content("#star_battle-regions-note") == ""
    page.click("#star_battle-canvas", position=cell_point(page, 6, 0, 0))
    assert "Region C is in pieces" in page.text_content("#star_battle-regions-note")
    click_and_wait(page, "#star_battle-solve")
    assert "separate parts" in (page.text_content("#star_battle-error") or "")
    page.click("#star_battle-undo")
    assert page.text_content("#star_battle-regions-note") == ""
    page.click("#star_battle-brush-extend")


def test_a_pasted_link_is_read_drawn_and_solved(shared_page) -> None:
    page = shared_page
    open_tab(page, "star_battle")
    generated = page.evaluate(
        "(request) => window.pysolver.solve(request)",
        {
            "kind": "star_battle",
            "mode": "generate",
            "seed": 4,
            "difficulty": "easy",
            "puzzle": {"size": 8, "stars": 2},
        },
    )
    assert generated["ok"], generated
    link = write_url(parse_puzzle(generated["puzzle"]))
    page.fill("#star_battle-url", link)
    click_and_wait(page, "#star_battle-load-url")
    assert result(page) == "Unique solution."
    assert page.input_value("#star_battle-n") == "8"
    assert page.input_value("#star_battle-stars") == "2"
    regions = generated["puzzle"]["regions"]
    assert fragment(page).startswith(board_text(regions, 2))
    # The page writes the link Python writes.
    page.fill("#star_battle-url", "")
    page.click("#star_battle-export-url")
    assert page.input_value("#star_battle-url") == link
    # The example's link pasted on the board: loaded and solved.
    page.evaluate(
        """(link) => {
            const data = new DataTransfer();
            data.setData("text/plain", link);
            document.getElementById("star_battle-canvas").dispatchEvent(
                new ClipboardEvent("paste", { clipboardData: data, bubbles: true }));
        }""",
        write_url(parse_puzzle(EXAMPLE)),
    )
    wait_idle(page)
    page.wait_for_function(
        "(want) => decodeURIComponent(location.hash) === want",
        arg=board_text(EXAMPLE["regions"], 1),
    )
    page.wait_for_function(
        "() => document.getElementById('star_battle-result').textContent === 'Unique solution.'"
    )
    page.fill("#star_battle-url", link)
    click_and_wait(page, "#star_battle-load-url")
    # Not a link of this kind: said so, nothing loaded.
    page.fill("#star_battle-url", "https://puzz.link/p?starbattle/5/6/1/")
    page.click("#star_battle-load-url")
    assert "square" in (page.text_content("#star_battle-error") or "")
    assert fragment(page).startswith(board_text(regions, 2))


def test_step_view_and_heatmap_draw_on_the_board(shared_page) -> None:
    page = shared_page
    open_tab(page, "star_battle")
    page.fill("#star_battle-url", write_url(parse_puzzle(EXAMPLE)))
    click_and_wait(page, "#star_battle-load-url")
    click_and_wait(page, "#star_battle-trace")
    assert page.text_content("#star_battle-error") == ""
    assert "option" in page.text_content("#star_battle-step-text")
    before = canvas_picture(page, "star_battle")
    page.click("#star_battle-step-forward")
    assert page.text_content("#star_battle-step-text").startswith("Try a star on")
    assert canvas_picture(page, "star_battle") != before
    page.click("#star_battle-step-close")
    page.check("#star_battle-heatmap")
    click_and_wait(page, "#star_battle-count")
    assert result(page).startswith("1 solution")
    assert "stars" in page.text_content("#star_battle-heatmap-caption")
    page.uncheck("#star_battle-heatmap")


def test_given_stars_are_placed_marked_when_they_clash_and_kept_by_the_solver(shared_page) -> None:
    page = shared_page
    open_tab(page, "star_battle")
    page.fill("#star_battle-url", write_url(parse_puzzle(EXAMPLE)))
    click_and_wait(page, "#star_battle-load-url")
    # The example's one solution has a star on row 1, column 5: given, it is still the one.
    page.click("#star_battle-brush-given")
    page.click("#star_battle-canvas", position=cell_point(page, 6, 0, 4))
    page.wait_for_function("() => location.hash.endsWith(':0.4')")
    click_and_wait(page, "#star_battle-solve")
    assert result(page) == "Unique solution."
    # A second given star touching it: both red, said under the board, refused by Python.
    page.click("#star_battle-canvas", position=cell_point(page, 6, 1, 5))
    assert page.text_content("#star_battle-regions-note").startswith("2 given stars break a rule")
    click_and_wait(page, "#star_battle-solve")
    assert "touches" in (page.text_content("#star_battle-error") or "")
    # * on the board takes it off again (the cursor stayed on it).
    page.focus("#star_battle-canvas")
    page.keyboard.press("*")
    page.wait_for_function("() => location.hash.endsWith(':0.4')")
    assert page.text_content("#star_battle-regions-note") == ""
    page.click("#star_battle-brush-extend")


def status(page) -> str:
    return page.text_content("#star_battle-play-status") or ""


def test_a_new_puzzle_is_played_checked_and_solved(shared_page) -> None:
    page = shared_page
    open_tab(page, "star_battle")
    request: dict[str, Any] = {
        "kind": "star_battle",
        "mode": "generate",
        "seed": 9,
        "difficulty": "easy",
        "puzzle": {"size": 6, "stars": 1},
    }
    answer = page.evaluate("(request) => window.pysolver.solve(request)", request)
    assert answer["ok"], answer
    solution = answer["solutions"][0]
    page.select_option("#star_battle-new-stars", "1")
    page.select_option("#star_battle-new-size", "6")
    page.select_option("#star_battle-new-difficulty", "easy")
    page.fill("#star_battle-new-seed", "9")
    page.click("#star_battle-new")
    wait_idle(page)
    page.wait_for_selector("#star_battle-play-bar", state="visible")
    assert "seed 9" in page.text_content("#star_battle-new-source")
    stars = [(r, c) for r, row in enumerate(solution) for c, mark in enumerate(row) if mark == "*"]
    wrong = next(
        (r, c) for r in range(6) for c in range(6) if solution[r][c] == "." and (r, c) != (0, 0)
    )
    # A wrong star, found by Check.
    page.click("#star_battle-canvas", position=cell_point(page, 6, *wrong))
    page.click("#star_battle-play-check")
    page.wait_for_function(
        "() => /1 wrong move/.test(document.getElementById('star_battle-play-status').textContent)"
    )
    # Twice more: a dot, then empty again; then the solution's stars by keyboard and mouse.
    page.click("#star_battle-canvas", position=cell_point(page, 6, *wrong))
    page.click("#star_battle-canvas", position=cell_point(page, 6, *wrong))
    first, *rest = stars
    page.click("#star_battle-canvas", position=cell_point(page, 6, *first))
    assert "!P" in fragment(page)
    for r, c in rest[:-1]:
        page.click("#star_battle-canvas", position=cell_point(page, 6, r, c))
    assert page.get_attribute("#star_battle-play-status", "data-solved") is None
    # The last star by keys: the cursor is on the star before it; arrows, then S.
    last = rest[-1]
    here = rest[-2]
    for _ in range(abs(last[0] - here[0])):
        page.keyboard.press("ArrowDown" if last[0] > here[0] else "ArrowUp")
    for _ in range(abs(last[1] - here[1])):
        page.keyboard.press("ArrowRight" if last[1] > here[1] else "ArrowLeft")
    page.keyboard.press("s")
    page.wait_for_function(
        "() => document.getElementById('star_battle-play-status').dataset.solved === 'true'"
    )
    assert status(page).startswith("Solved in")
    page.click("#star_battle-play-toggle")
    assert page.is_visible("#star_battle-solve")


PHONE = {"width": 390, "height": 844}


def test_a_new_puzzle_is_played_by_touch_on_a_phone(browser, site_url, new_guarded_page) -> None:
    context = browser.new_context(
        viewport=PHONE, has_touch=True, is_mobile=True, service_workers="block"
    )
    page = new_guarded_page(context)
    load_app(page, site_url)
    page.tap("#tab-star_battle")
    request: dict[str, Any] = {
        "kind": "star_battle",
        "mode": "generate",
        "seed": 2,
        "difficulty": "easy",
        "puzzle": {"size": 8, "stars": 1},
    }
    answer = page.evaluate("(request) => window.pysolver.solve(request)", request)
    assert answer["ok"], answer
    solution = answer["solutions"][0]
    page.select_option("#star_battle-new-size", "8")
    page.select_option("#star_battle-new-difficulty", "easy")
    page.fill("#star_battle-new-seed", "2")
    page.tap("#star_battle-new")
    wait_idle(page)
    page.wait_for_selector("#star_battle-play-bar", state="visible")
    # The board fits the phone's width and comes before the game's controls.
    board = page.locator("#star_battle-canvas").bounding_box()
    assert board["x"] + board["width"] <= PHONE["width"]
    assert board["y"] < page.locator("#star_battle-play-check").bounding_box()["y"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # A dot first (two taps on a cell without a star), then every star with one tap.
    empty = next((r, c) for r in range(8) for c in range(8) if solution[r][c] == ".")
    page.tap("#star_battle-canvas", position=cell_point(page, 8, *empty))
    page.tap("#star_battle-canvas", position=cell_point(page, 8, *empty))
    for r, row in enumerate(solution):
        page.tap("#star_battle-canvas", position=cell_point(page, 8, r, row.index("*")))
    page.wait_for_function(
        "() => document.getElementById('star_battle-play-status').dataset.solved === 'true'"
    )
    context.close()
