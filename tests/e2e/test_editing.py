"""Editing as a person does it: cursor and keys, the on-screen pad on a phone, keyboard-only
boards, undo and redo, clashes marked as you type, presets, the piece picker and maker, and
colours that tell touching pieces apart.

Most tests share one page (``shared_page``); the phone tests open a touch page of their own.
Each test switches to its kind's tab and sets up its own puzzle.
"""

from __future__ import annotations

import itertools
import json
import math
import re

import pytest
from conftest import open_tab, set_input, wait_idle

from pysolver.facts import site_facts

FACTS = site_facts()["kinds"]
SUDOKU = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
PHONE = {"width": 390, "height": 844}
# Two colours are "clearly different" from this CIE76 distance on (about 2.3 is the smallest
# difference people notice; 20 is far beyond telling two hues of one family apart).
CLEARLY_DIFFERENT = 20


def grid_text(page) -> str:
    return page.input_value("#sudoku-paste")


# Where cell (r, c) of a square-celled board is, in CSS pixels from the canvas' corner (the
# renderers draw a margin of 8 units, then cells; the canvas may be shrunk by CSS).
CELL_CENTRE = """([id, r, c, cell]) => {
  const canvas = document.getElementById(id);
  const scale = canvas.clientWidth / Number(canvas.dataset.width);
  return {x: (8 + (c + 0.5) * cell) * scale, y: (8 + (r + 0.5) * cell) * scale};
}"""

# The colour of the canvas pixel at drawing units (x, y), as [r, g, b].
PIXEL = """([id, x, y]) => {
  const canvas = document.getElementById(id);
  const ratio = canvas.width / Number(canvas.dataset.width);
  const at = [Math.round(x * ratio), Math.round(y * ratio)];
  const data = canvas.getContext("2d").getImageData(at[0], at[1], 1, 1).data;
  return [data[0], data[1], data[2]];
}"""


def cell_centre(page, kind: str, row: int, col: int, cell: float) -> dict:
    return page.evaluate(CELL_CENTRE, [f"{kind}-canvas", row, col, cell])


def pixel(page, canvas_id: str, x: float, y: float) -> tuple[int, int, int]:
    return tuple(page.evaluate(PIXEL, [canvas_id, x, y]))


def srgb_to_lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour with channels 0..1."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def hsl_to_rgb(hue: float, saturation: float, lightness: float) -> tuple[float, float, float]:
    chroma = (1 - abs(2 * lightness - 1)) * saturation

    def channel(n: float) -> float:
        k = (n + hue / 30) % 12
        return lightness - chroma / 2 * max(-1, min(k - 3, 9 - k, 1))

    return (channel(0), channel(8), channel(4))


def colour_distance(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    return math.dist(srgb_to_lab([v / 255 for v in a]), srgb_to_lab([v / 255 for v in b]))


# ------------------------------------------------------------------ 1. Sudoku cursor


def test_sudoku_typing_keeps_the_cursor_and_backspace_clears_the_cell_typed_last(
    shared_page,
) -> None:
    page = shared_page
    open_tab(page, "sudoku")
    page.click("#sudoku-clear")
    assert "Typing does not move the cursor" in page.text_content("#panel-sudoku .hint")
    # The sequence, from the middle of the top row: 7, 8, left, left, 5, Backspace.
    page.click("#sudoku-canvas", position=cell_centre(page, "sudoku", 0, 4, 44))
    page.keyboard.type("7")
    assert grid_text(page)[:9] == "....7...."
    page.keyboard.type("8")  # the cursor stayed: 8 replaces 7
    assert grid_text(page)[:9] == "....8...."
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.type("5")
    assert grid_text(page)[:9] == "..5.8...."
    page.keyboard.press("Backspace")  # erases the 5 just typed, not the 8
    assert grid_text(page)[:9] == "....8...."
    page.keyboard.type("5")
    page.keyboard.press("Delete")
    assert grid_text(page)[:9] == "....8...."
    # The pad works with a mouse too, and leaves the focus on the board for the arrows.
    page.click("#sudoku-key-9")
    assert grid_text(page)[:9] == "..9.8...."
    page.keyboard.press("ArrowRight")
    page.keyboard.type("1")
    assert grid_text(page)[:9] == "..918...."


# ------------------------------------------------------------------ 2. the pad on a phone


@pytest.fixture
def phone_page(browser, site_url, new_guarded_page):
    """A touch page at a phone's size (390x844), ready to solve."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = new_guarded_page(context)
    page.goto(site_url)
    page.wait_for_function("() => document.body.dataset.state === 'ready'", timeout=90_000)
    yield page
    context.close()


def test_sudoku_pad_on_a_phone_enters_symbols_and_the_answer_scrolls_into_view(
    phone_page,
) -> None:
    page = phone_page
    page.tap("#tab-sudoku")
    # The board comes first on a phone, its keys right under it, the controls after.
    board = page.locator("#sudoku-canvas").bounding_box()
    pad = page.locator("#sudoku-pad").bounding_box()
    size = page.locator("#sudoku-size").bounding_box()
    assert board["y"] < pad["y"] < size["y"]
    assert board["x"] + board["width"] <= PHONE["width"]
    page.tap("#sudoku-clear")
    page.tap("#sudoku-canvas", position=cell_centre(page, "sudoku", 0, 2, 44))
    page.tap("#sudoku-key-7")
    assert grid_text(page)[:9] == "..7......"
    page.tap("#sudoku-key-clear")
    assert grid_text(page)[:9] == "........."
    # The pad has the grid's symbols: 16x16 goes to G, 25x25 to P.
    symbols = FACTS["sudoku"]["symbols"]
    for n in (16, 25):
        page.select_option("#sudoku-size", str(n))
        keys = page.eval_on_selector_all("#sudoku-pad button", "ks => ks.map(k => k.textContent)")
        assert keys == [*symbols[:n], "Clear"]
    page.select_option("#sudoku-size", "9")
    page.fill("#sudoku-paste", SUDOKU)
    page.tap("#sudoku-load")
    page.locator("#sudoku-solve").scroll_into_view_if_needed()
    page.tap("#sudoku-solve")
    wait_idle(page)
    assert page.text_content("#sudoku-result") == "Unique solution."
    answer = page.locator("#sudoku-result").bounding_box()
    assert answer["y"] >= 0 and answer["y"] + answer["height"] <= PHONE["height"]


def test_shikaku_pad_on_a_phone_types_multi_digit_clues(phone_page) -> None:
    page = phone_page
    page.tap("#tab-shikaku")
    page.tap("#shikaku-clear")
    set_input(page, "#shikaku-rows", "2")
    set_input(page, "#shikaku-cols", "6")
    page.locator("#shikaku-canvas").scroll_into_view_if_needed()
    page.tap("#shikaku-canvas", position=cell_centre(page, "shikaku", 0, 0, 40))
    for key in ("1", "1", "backspace", "2"):  # 11, 1, 12
        page.tap(f"#shikaku-key-{key}")
    page.wait_for_function("location.hash === '#shikaku:2x6:0.0.12'", timeout=5000)
    page.tap("#shikaku-key-clear")
    page.wait_for_function("location.hash === '#shikaku:2x6:'", timeout=5000)


# ------------------------------------------------------------------ 3. keyboard only


OPEN = (255, 255, 255)


@pytest.mark.parametrize("kind", ["polyomino", "domino"])
def test_boards_toggle_from_the_keyboard(shared_page, kind: str) -> None:
    page = shared_page
    open_tab(page, kind)
    if kind == "polyomino":
        page.select_option("#polyomino-preset", "6x10")
        cell = 48
    else:
        page.click("#domino-clear")
        set_input(page, "#domino-rows", "8")
        set_input(page, "#domino-cols", "8")
        cell = 40
    page.focus(f"#{kind}-canvas")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")  # the cursor is on row 1, column 1

    def colour_at(r: int, c: int) -> tuple[int, int, int]:
        # Off the cell's centre: the cursor ring is drawn inside the cell's edge.
        return pixel(page, f"{kind}-canvas", 8 + (c + 0.5) * cell, 8 + (r + 0.5) * cell)

    before = colour_at(1, 1)
    page.keyboard.press(" ")
    toggled = colour_at(1, 1)
    assert toggled != before
    assert colour_at(1, 2) == before  # only that cell
    page.keyboard.press("Enter")
    assert colour_at(1, 1) == before
    page.keyboard.press("Enter")
    assert colour_at(1, 1) == toggled
    if kind == "domino":
        page.wait_for_function("location.hash === '#domino:8x8:1.1'", timeout=5000)


def test_focus_rings_show_whole_and_import_shows_focus(shared_page) -> None:
    page = shared_page
    for kind in ("polyomino", "sudoku", "domino"):
        open_tab(page, kind)
        # Focus by keyboard (a key press, then the focus moves), as :focus-visible wants.
        page.keyboard.press("Shift")
        page.focus(f"#{kind}-canvas")
        room = page.evaluate(
            """(kind) => {
                const canvas = document.getElementById(`${kind}-canvas`);
                const style = getComputedStyle(canvas);
                const ring = parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset);
                const box = canvas.getBoundingClientRect();
                const wrap = canvas.parentElement.getBoundingClientRect();
                return [style.outlineStyle, box.left - ring - wrap.left, box.top - ring - wrap.top];
            }""",
            kind,
        )
        assert room[0] == "solid", kind
        assert room[1] >= 0 and room[2] >= 0, (kind, room)  # inside the clipping box
    page.focus("#export-json")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "import-json"
    label = "label[for=import-json]"
    assert page.eval_on_selector(label, "l => getComputedStyle(l).outlineStyle") == "solid"


# ------------------------------------------------------------------ 4. undo and redo


def test_undo_and_redo_in_every_editor(shared_page) -> None:
    page = shared_page
    # Sudoku: keys and buttons.
    open_tab(page, "sudoku")
    page.fill("#sudoku-paste", SUDOKU)
    page.click("#sudoku-load")
    page.click("#sudoku-canvas", position=cell_centre(page, "sudoku", 0, 2, 44))
    page.keyboard.type("4")
    assert grid_text(page).startswith("534")
    page.keyboard.press("Control+z")
    assert grid_text(page) == SUDOKU
    page.keyboard.press("Control+y")
    assert grid_text(page).startswith("534")
    page.keyboard.press("Control+z")
    page.keyboard.press("Control+Shift+z")
    assert grid_text(page).startswith("534")
    page.click("#sudoku-undo")
    assert grid_text(page) == SUDOKU
    page.click("#sudoku-redo")
    assert grid_text(page).startswith("534")
    # Undo keeps the cursor: typing again goes to the same cell.
    page.click("#sudoku-undo")
    page.focus("#sudoku-canvas")
    page.keyboard.type("1")
    assert grid_text(page).startswith("531")
    assert page.is_disabled("#sudoku-redo")  # a new edit drops what could be redone
    # Text fields keep their own undo: Ctrl+Z there does not undo the board.
    page.focus("#sudoku-paste")
    page.keyboard.press("Control+z")
    assert grid_text(page).startswith("531")
    assert page.is_disabled("#sudoku-redo")

    # Shikaku: each typed digit is a step.
    open_tab(page, "shikaku")
    page.click("#shikaku-clear")
    set_input(page, "#shikaku-rows", "2")
    set_input(page, "#shikaku-cols", "6")
    page.click("#shikaku-canvas", position=cell_centre(page, "shikaku", 0, 0, 40))
    page.keyboard.type("12")
    page.wait_for_function("location.hash === '#shikaku:2x6:0.0.12'", timeout=5000)
    page.keyboard.press("Control+z")
    page.wait_for_function("location.hash === '#shikaku:2x6:0.0.1'", timeout=5000)
    page.click("#shikaku-redo")
    page.wait_for_function("location.hash === '#shikaku:2x6:0.0.12'", timeout=5000)

    # Domino: one drag over three cells is one step.
    open_tab(page, "domino")
    page.click("#domino-clear")
    set_input(page, "#domino-rows", "4")
    set_input(page, "#domino-cols", "4")
    box = page.locator("#domino-canvas").bounding_box()
    start = cell_centre(page, "domino", 0, 0, 40)
    end = cell_centre(page, "domino", 0, 2, 40)
    page.mouse.move(box["x"] + start["x"], box["y"] + start["y"])
    page.mouse.down()
    page.mouse.move(box["x"] + end["x"], box["y"] + end["y"], steps=8)
    page.mouse.up()
    page.wait_for_function("location.hash === '#domino:4x4:0.0,0.1,0.2'", timeout=5000)
    page.click("#domino-undo")
    page.wait_for_function("location.hash === '#domino:4x4'", timeout=5000)
    page.click("#domino-redo")
    page.wait_for_function("location.hash === '#domino:4x4:0.0,0.1,0.2'", timeout=5000)

    # Polyomino: a preset chosen, then undone.
    open_tab(page, "polyomino")
    page.select_option("#polyomino-preset", "6x10")
    page.select_option("#polyomino-preset", "3x20")
    assert page.input_value("#polyomino-rows") == "3"
    page.click("#polyomino-undo")
    assert page.input_value("#polyomino-rows") == "6"
    assert page.input_value("#polyomino-preset") == "6x10"
    page.click("#polyomino-redo")
    assert page.input_value("#polyomino-rows") == "3"

    # Exact cover: an example chosen, then undone (the text box keeps its own Ctrl+Z).
    open_tab(page, "exact_cover")
    page.select_option("#exact_cover-example", "knuth")
    knuth = page.input_value("#exact_cover-text")
    page.select_option("#exact_cover-example", "queens8")
    assert page.input_value("#exact_cover-text") != knuth
    page.click("#exact_cover-undo")
    assert page.input_value("#exact_cover-text") == knuth
    assert page.input_value("#exact_cover-example") == "knuth"


# ------------------------------------------------------------------ 5. clashes on the board


def test_sudoku_clashes_are_marked_as_you_type(shared_page) -> None:
    page = shared_page
    open_tab(page, "sudoku")
    page.click("#sudoku-clear")
    assert page.text_content("#sudoku-clashes") == ""
    page.click("#sudoku-canvas", position=cell_centre(page, "sudoku", 0, 0, 44))
    page.keyboard.type("5")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")  # (1, 1): the same box
    page.keyboard.type("5")
    assert page.text_content("#sudoku-clashes").startswith("2 givens clash")
    page.keyboard.press("ArrowRight")  # move the cursor off, so both show their clash fill
    clash = (252, 217, 214)  # MARKS.clash, #fcd9d6
    for r, c in ((0, 0), (1, 1)):
        corner = pixel(page, "sudoku-canvas", 8 + c * 44 + 6, 8 + r * 44 + 6)
        assert colour_distance(corner, clash) < 3, (r, c, corner)
    plain = pixel(page, "sudoku-canvas", 8 + 4 * 44 + 6, 8 + 6)
    assert colour_distance(plain, clash) > 10
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Backspace")
    assert page.text_content("#sudoku-clashes") == ""


def test_shikaku_clue_clashes(shared_page) -> None:
    page = shared_page
    open_tab(page, "shikaku")
    cases = page.evaluate(
        """async () => {
            const { clueClashes } = await import("./kinds/shikaku/editor.js");
            const sorted = (set) => [...set].sort();
            return [
                // A 2 whose only rectangle takes the 3 next to it: both marked.
                sorted(clueClashes(1, 5, [[0, 0, 2], [0, 1, 3]])),
                // Room for both: nothing marked.
                sorted(clueClashes(1, 5, [[0, 0, 2], [0, 2, 3]])),
                // A 7 has no 7-cell rectangle on a 5x5 board: only it is marked.
                sorted(clueClashes(5, 5, [[2, 2, 7], [0, 0, 4]])),
                // A 4 boxed in on a 2x2 board by a second clue.
                sorted(clueClashes(2, 2, [[0, 0, 4], [1, 1, 1]])),
            ];
        }"""
    )
    assert cases == [["0,0", "0,1"], [], ["2,2"], ["0,0", "1,1"]]
    page.click("#shikaku-clear")
    set_input(page, "#shikaku-rows", "1")
    set_input(page, "#shikaku-cols", "5")
    page.click("#shikaku-canvas", position=cell_centre(page, "shikaku", 0, 0, 40))
    page.keyboard.type("2")
    page.keyboard.press("ArrowRight")
    page.keyboard.type("3")
    assert page.text_content("#shikaku-clashes").startswith("2 clues clash")


# ------------------------------------------------------------------ 6. presets


def test_presets_apply_when_chosen_and_follow_the_board(shared_page, new_guarded_page) -> None:
    page = shared_page
    open_tab(page, "polyomino")
    assert page.query_selector("#polyomino-apply-preset") is None
    page.select_option("#polyomino-preset", "3x20")
    assert page.input_value("#polyomino-rows") == "3"
    assert page.input_value("#polyomino-cols") == "20"
    page.select_option("#polyomino-preset", "scott")
    assert page.input_value("#polyomino-rows") == "8"
    assert page.get_attribute("#polyomino-piece-O4", "aria-pressed") == "true"
    # An edit makes it a custom board; undoing the edit makes it the preset again.
    page.click("#polyomino-canvas", position=cell_centre(page, "polyomino", 0, 0, 48))
    assert page.input_value("#polyomino-preset") == "custom"
    page.click("#polyomino-undo")
    assert page.input_value("#polyomino-preset") == "scott"
    # A share link of the 8x8 board opens with the menu saying so (not the default 6x10).
    page.click("#share")
    link = page.input_value("#share-url")
    other = new_guarded_page(page.context)
    try:
        other.goto(link)
        other.wait_for_selector("#polyomino-canvas")
        assert other.input_value("#polyomino-preset") == "scott"
        assert other.input_value("#polyomino-rows") == "8"
    finally:
        other.close()


# ------------------------------------------------------------------ 15. pieces


def test_piece_picker_shows_shapes_from_pythons_library(shared_page) -> None:
    page = shared_page
    open_tab(page, "polyomino")
    pieces = FACTS["polyomino"]["pieces"]
    drawn = page.evaluate(
        """() => Object.fromEntries(
            [...document.querySelectorAll("button.piece[id^='polyomino-piece-']")].map((button) => [
              button.id.slice("polyomino-piece-".length),
              [...button.querySelectorAll("svg rect")].map(
                (r) => [Number(r.getAttribute("y")), Number(r.getAttribute("x"))])]))"""
    )
    assert set(drawn) == set(pieces)
    for name, piece in pieces.items():
        unit = 7
        cells = sorted([round((y - 0.5) / unit), round((x - 0.5) / unit)] for y, x in drawn[name])
        assert cells == sorted(piece["cells"]), name
    # Sets from Python switch together; the hexominoes are there, 35 of them.
    assert len(FACTS["polyomino"]["sets"]["hexominoes"]) == 35
    page.select_option("#polyomino-preset", "6x10")
    page.click("#polyomino-group-hexominoes summary", position={"x": 4, "y": 8})
    page.click("#polyomino-set-hexominoes")
    for name in FACTS["polyomino"]["sets"]["hexominoes"]:
        assert page.get_attribute(f"#polyomino-piece-{name}", "aria-pressed") == "true"
    assert page.text_content("#polyomino-piece-info").startswith("47 pieces covering 270 cells")
    page.click("#polyomino-set-hexominoes")
    assert page.get_attribute("#polyomino-piece-H01", "aria-pressed") == "false"
    page.select_option("#polyomino-preset", "6x10")


def test_boards_up_to_pythons_limit(shared_page) -> None:
    page = shared_page
    open_tab(page, "polyomino")
    limits = FACTS["polyomino"]["limits"]
    set_input(page, "#polyomino-cols", "2")
    set_input(page, "#polyomino-rows", str(limits["max_rows"]))
    assert page.input_value("#polyomino-rows") == str(limits["max_rows"])
    info = page.text_content("#polyomino-piece-info")
    assert f"the board has {limits['max_rows'] * 2} cells" in info
    assert "more than the solver takes" not in info  # 400 cells: at the limit
    set_input(page, "#polyomino-cols", "3")
    assert f"more than the solver takes ({limits['max_cells']})" in page.text_content(
        "#polyomino-piece-info"
    )
    page.select_option("#polyomino-preset", "6x10")


def draw_maker_cells(page, cells: list[tuple[int, int]]) -> None:
    for r, c in cells:
        page.click(
            "#polyomino-custom-grid", position={"x": 8 + (c + 0.5) * 25, "y": 8 + (r + 0.5) * 25}
        )


def test_custom_piece_round_trip_through_solve_export_and_share_link(
    shared_page, new_guarded_page, tmp_path
) -> None:
    page = shared_page
    open_tab(page, "polyomino")
    page.select_option("#polyomino-preset", "6x10")
    page.click("#polyomino-set-pentominoes")  # none of the library
    set_input(page, "#polyomino-rows", "2")
    set_input(page, "#polyomino-cols", "6")
    page.click("#polyomino-custom summary")
    # Mistakes are said at once: no cells, then cells that do not touch.
    page.click("#polyomino-custom-add")
    assert "Draw the piece first" in page.text_content("#polyomino-custom-error")
    draw_maker_cells(page, [(0, 0), (1, 1)])
    page.click("#polyomino-custom-add")
    assert "one piece" in page.text_content("#polyomino-custom-error")
    page.click("#polyomino-custom-clear")
    # A straight tromino called Bar, four copies: 2x6 has one tiling (two in each row).
    draw_maker_cells(page, [(2, 3), (2, 4), (2, 5)])
    page.fill("#polyomino-custom-name", "Bar")
    page.fill("#polyomino-custom-count", "4")
    page.click("#polyomino-custom-add")
    assert page.text_content("#polyomino-custom-error") == ""
    assert page.is_visible("#polyomino-custom-piece-Bar")
    assert page.locator("#polyomino-custom-piece-Bar svg rect").count() == 3
    page.click("#polyomino-solve")
    wait_idle(page)
    assert page.text_content("#polyomino-error") == ""
    assert page.text_content("#polyomino-result") == "1 tiling found."
    page.select_option("#polyomino-symmetry", "all")
    page.click("#polyomino-count")
    wait_idle(page)
    assert page.get_attribute("#polyomino-result", "data-count") == "1"
    # The request carries the piece as {"name", "cells", "count"}.
    with page.expect_download() as download_info:
        page.click("#export-json")
    saved = tmp_path / "polyomino.json"
    download_info.value.save_as(saved)
    request = json.loads(saved.read_text())
    assert request["puzzle"]["pieces"] == [
        {"name": "Bar", "cells": [[0, 0], [0, 1], [0, 2]], "count": 4}
    ]
    # A share link brings the piece along, and the other page solves the same puzzle.
    page.click("#share")
    link = page.input_value("#share-url")
    other = new_guarded_page(page.context)
    try:
        other.goto(link)
        other.wait_for_function("() => document.body.dataset.state === 'ready'", timeout=90_000)
        assert other.is_visible("#polyomino-custom-piece-Bar")
        assert "Bar ×4" in other.text_content("#polyomino-custom-piece-Bar")
        other.click("#polyomino-solve")
        wait_idle(other)
        assert other.text_content("#polyomino-result") == "1 tiling found."
    finally:
        other.close()
    # Clicking a custom piece loads it into the maker; removing it empties the list.
    page.click("#polyomino-custom-piece-Bar")
    assert page.input_value("#polyomino-custom-name") == "Bar"
    assert page.input_value("#polyomino-custom-count") == "4"
    page.click("#polyomino-custom-remove-Bar")
    assert not page.is_visible("#polyomino-custom-piece-Bar")
    page.select_option("#polyomino-preset", "6x10")


# ------------------------------------------------------------------ 16. colours


def test_palette_colours_are_far_apart_in_light_and_dark(shared_page) -> None:
    palette = "./render/palette.js"
    colours = shared_page.evaluate(f"async () => (await import('{palette}')).PIECE_COLOURS")
    hsl = [tuple(float(v) for v in re.findall(r"[\d.]+", text)) for text in colours]
    for mode in ("light", "dark"):
        labs = []
        for hue, saturation, lightness in hsl:
            lightness /= 100
            if mode == "dark":  # dark mode keeps hue and turns lightness around
                lightness = 1 - lightness
            labs.append(srgb_to_lab(hsl_to_rgb(hue, saturation / 100, lightness)))
        closest = min(math.dist(a, b) for a, b in itertools.combinations(labs, 2))
        assert closest >= 25, (mode, closest)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_touching_pieces_of_a_solved_tiling_differ_clearly(shared_page, scheme: str) -> None:
    page = shared_page
    page.emulate_media(color_scheme=scheme)
    try:
        open_tab(page, "polyomino")
        page.select_option("#polyomino-preset", "6x10")
        page.click("#polyomino-solve")
        wait_idle(page)
        assert page.text_content("#polyomino-result") == "1 tiling found."
        # The tiling on the board is the first answer to the same request.
        response = page.evaluate(
            """() => window.pysolver.solve({kind: "polyomino", mode: "solve", limit: 1,
                puzzle: {board: Array(6).fill(".".repeat(10)), pieces: ["pentominoes"]}})"""
        )
        placements = response["solutions"][0]
        cell = 48
        colours = []
        for placement in placements:
            # A corner of the piece's first cell: away from the letter and the outlines.
            r, c = placement["cells"][0]
            colours.append(pixel(page, "polyomino-canvas", 8 + c * cell + 10, 8 + r * cell + 10))
        owner = {tuple(rc): i for i, p in enumerate(placements) for rc in p["cells"]}
        touching = {
            tuple(sorted((owner[(r, c)], owner[(r + dr, c + dc)])))
            for (r, c) in owner
            for dr, dc in ((0, 1), (1, 0))
            if (r + dr, c + dc) in owner and owner[(r, c)] != owner[(r + dr, c + dc)]
        }
        assert len(touching) >= 20
        for a, b in touching:
            distance = colour_distance(colours[a], colours[b])
            names = (placements[a]["piece"], placements[b]["piece"])
            assert distance >= CLEARLY_DIFFERENT, (names, colours[a], colours[b], distance)
    finally:
        page.emulate_media(color_scheme="light")
