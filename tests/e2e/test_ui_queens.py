"""The N-queens tab as a person uses it: give a queen by clicking, solve, count, step through
the search and map where the queens go.

One page per module (``shared_page``: Pyodide loads once); each test sets up its own board.
"""

from __future__ import annotations

from conftest import canvas_picture, click_and_wait, open_tab, set_input

MARGIN = 8  # web/render/grid.js
CELL = 56  # web/kinds/queens/render.js: the largest cell, which a 6x6 board gets


def click_cell(page, row: int, col: int) -> None:
    """Click the middle of a cell of the 6x6 board, however CSS has scaled the canvas."""
    box = page.locator("#queens-canvas").bounding_box()
    scale = box["width"] / (2 * MARGIN + 6 * CELL)
    x = (MARGIN + col * CELL + CELL / 2) * scale
    y = (MARGIN + row * CELL + CELL / 2) * scale
    page.click("#queens-canvas", position={"x": x, "y": y})


def result(page) -> str:
    assert page.text_content("#queens-error") == ""
    return page.text_content("#queens-result") or ""


def six_by_six(page) -> None:
    open_tab(page, "queens")
    page.click("#queens-clear")
    set_input(page, "#queens-n", "6")


def test_a_clicked_queen_is_solved_around_and_counted(shared_page) -> None:
    page = shared_page
    six_by_six(page)
    empty = canvas_picture(page, "queens")
    click_cell(page, 0, 1)
    page.wait_for_function("() => decodeURIComponent(location.hash) === '#queens:6:0.1'")
    assert canvas_picture(page, "queens") != empty
    # Of the four 6-queens solutions only one has a queen on row 0, column 1.
    click_and_wait(page, "#queens-solve")
    assert result(page) == "Unique solution."
    solved = canvas_picture(page, "queens")
    click_and_wait(page, "#queens-count")
    assert result(page).startswith("1 solution")
    click_cell(page, 0, 1)  # taken off again: the empty 6x6 board has 4
    page.wait_for_function("() => decodeURIComponent(location.hash) === '#queens:6'")
    click_and_wait(page, "#queens-count")
    assert result(page).startswith("4 solutions")
    assert canvas_picture(page, "queens") != solved


def test_attacking_queens_are_marked_and_refused(shared_page) -> None:
    page = shared_page
    six_by_six(page)
    click_cell(page, 2, 2)
    click_cell(page, 4, 4)
    assert "2 given queens attack" in page.text_content("#queens-clashes")
    click_and_wait(page, "#queens-solve")
    assert "same diagonal" in (page.text_content("#queens-error") or "")
    page.click("#queens-clear")
    assert page.text_content("#queens-clashes") == ""


def test_step_view_and_heatmap_draw_on_the_board(shared_page) -> None:
    page = shared_page
    six_by_six(page)
    click_and_wait(page, "#queens-trace")
    assert page.text_content("#queens-error") == ""
    assert page.is_visible("#queens-step-log")
    assert "fewest options" in page.text_content("#queens-step-text")
    before = canvas_picture(page, "queens")
    page.click("#queens-step-forward")
    assert page.text_content("#queens-step-text").startswith("Try a queen on")
    assert canvas_picture(page, "queens") != before
    page.click("#queens-step-close")
    page.check("#queens-heatmap")
    click_and_wait(page, "#queens-count")
    assert result(page).startswith("4 solutions")
    assert "queens" in page.text_content("#queens-heatmap-caption")
    page.uncheck("#queens-heatmap")
