"""Reading results and sharing: long numbers, plain words, differences between solutions,
progress with time left, share IDs (new and old), bad links, imports, Sudoku text as pasted.

One page per module (``shared_page``); tests that need a fresh page open it with
``new_guarded_page`` or ``open_app``. Every test sets up its own puzzle.
"""

from __future__ import annotations

import json

from conftest import SOLVE_TIMEOUT_MS, canvas_picture, click_and_wait, open_tab, set_input

from pysolver import protocol, solve
from pysolver.facts import site_facts
from pysolver.kinds import shikaku

SUDOKU = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
SHIKAKU_URL = "https://puzz.link/p?shikaku/7/7/h94g4m3tck4i8g2j3i"
RED = (217, 45, 32)  # the difference marks (#d92d20)


def go_to_hash(page, fragment: str) -> None:
    page.evaluate("(fragment) => { location.hash = fragment; }", fragment)


def split_groups(page, selector: str) -> list[str]:
    """Digit groups (text nodes of digits) under selector that are laid out on two lines."""
    return page.evaluate(
        """(selector) => {
            const split = [];
            const root = document.querySelector(selector);
            const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                if (!/^\\d+$/.test(node.data)) continue;
                const range = document.createRange();
                range.selectNodeContents(node);
                const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
                if (tops.size > 1) split.push(node.data);
            }
            return split;
        }""",
        selector,
    )


def test_long_count_short_form_show_all_digits_and_copy(shared_page) -> None:
    page = shared_page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_tab(page, "domino")
    page.click("#domino-clear")
    set_input(page, "#domino-rows", "200")
    set_input(page, "#domino-cols", "200")
    page.select_option("#domino-engine", "formula")
    click_and_wait(page, "#domino-count")
    digits = page.get_attribute("#domino-result", "data-count")
    request = {
        "kind": "domino",
        "mode": "count",
        "engine": "formula",
        "puzzle": {"rows": 200, "cols": 200},
    }
    # protocol.dumps writes integers past Python's 4,300-digit str() limit, as the worker does.
    assert f'"count": {digits},' in protocol.dumps(solve(request))
    result = page.text_content("#domino-result")
    # Five significant digits, rounded half up.
    five = str((int(digits[:6]) + 5) // 10)
    lead = f"{five[0]}.{five[1:5]}".rstrip("0").rstrip(".")
    assert result.startswith(f"≈ {lead}"), result
    assert page.text_content("#domino-result sup") == str(len(digits) - 1)
    assert f"tilings ({len(digits):,} digits)." in result
    assert page.is_hidden("#domino-result .all-digits")
    # Thousands of digits laid out on demand, without freezing the page.
    took = page.evaluate(
        """() => { const t = performance.now();
            document.querySelector('#domino-result .show-digits').click();
            document.querySelector('#domino-result .all-digits').getBoundingClientRect();
            return performance.now() - t; }"""
    )
    assert took < 500, f"showing {len(digits)} digits took {took:.0f} ms"
    shown = page.text_content("#domino-result .all-digits")
    assert shown.replace(",", "") == digits
    assert split_groups(page, "#domino-result") == []
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        assert split_groups(page, "#domino-result") == []
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        page.set_viewport_size({"width": 1280, "height": 720})
    page.click("#domino-result .copy-digits")
    page.wait_for_function(
        "() => document.querySelector('#domino-result .copy-digits').textContent === 'Copied'"
    )
    assert page.evaluate("navigator.clipboard.readText()") == digits
    page.select_option("#domino-engine", "")


def test_a_31_digit_count_is_whole_and_its_groups_stay_together(shared_page) -> None:
    page = shared_page
    open_tab(page, "domino")
    page.click("#domino-clear")
    set_input(page, "#domino-rows", "16")
    set_input(page, "#domino-cols", "16")
    click_and_wait(page, "#domino-count")
    assert page.text_content("#domino-result").startswith(
        "2,444,888,770,250,892,795,802,079,170,816 tilings"
    )
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        assert split_groups(page, "#domino-result") == []
    finally:
        page.set_viewport_size({"width": 1280, "height": 720})


def pixel(page, kind: str, x: float, y: float) -> tuple[int, int, int]:
    """The colour of the board's canvas at drawing point (x, y)."""
    return tuple(
        page.evaluate(
            """([kind, x, y]) => {
                const canvas = document.getElementById(`${kind}-canvas`);
                const ratio = canvas.width / Number(canvas.dataset.width);
                const [px, py] = [Math.round(x * ratio), Math.round(y * ratio)];
                const data = canvas.getContext('2d').getImageData(px, py, 1, 1).data;
                return [data[0], data[1], data[2]];
            }""",
            [kind, x, y],
        )
    )


def differing_cells(request: dict, cells_of) -> set[tuple[int, int]]:
    first, second = solve(request)["solutions"][:2]
    a, b = cells_of(first), cells_of(second)
    return {cell for cell in set(a) | set(b) if a.get(cell) != b.get(cell)}


def test_sudoku_with_two_solutions_marks_the_cells_that_differ(shared_page) -> None:
    page = shared_page
    open_tab(page, "sudoku")
    grid = "5" + "." * 80
    page.fill("#sudoku-paste", grid)
    page.click("#sudoku-load")
    click_and_wait(page, "#sudoku-solve")
    request = {"kind": "sudoku", "mode": "solve", "limit": 2, "puzzle": {"grid": grid}}
    differ = differing_cells(
        request, lambda s: {(r, c): v for r, row in enumerate(s) for c, v in enumerate(row)}
    )
    assert differ
    assert page.text_content("#sudoku-differences") == (
        f"Solutions 1 and 2 differ in {len(differ)} cells, marked in red on the board."
    )
    cell, margin = 44, 8
    for r in range(9):
        for c in range(9):
            flag = pixel(page, "sudoku", margin + c * cell + cell - 2, margin + r * cell + 2)
            assert (flag == RED) == ((r, c) in differ), (r, c, flag)
    # Browsing keeps the marks (they are between the two solutions shown).
    page.click("#sudoku-next")
    assert page.text_content("#sudoku-differences").startswith("Solutions 1 and 2 differ")
    # An edit drops them.
    page.click("#sudoku-clear")
    assert page.text_content("#sudoku-differences") == ""


def test_shikaku_and_polyomino_mark_differences(shared_page) -> None:
    page = shared_page
    go_to_hash(page, "shikaku:2x2:0.0.2,1.1.2")
    page.wait_for_function("() => !document.getElementById('panel-shikaku').hidden")
    click_and_wait(page, "#shikaku-solve")
    assert page.text_content("#shikaku-differences").startswith(
        "Solutions 1 and 2 differ in 4 cells"
    )
    # cell size 40 (the largest) for a 2x2 board
    assert pixel(page, "shikaku", 8 + 40 - 2, 8 + 2) == RED

    open_tab(page, "polyomino")
    page.select_option("#polyomino-preset", "3x20")  # a preset applies when chosen
    set_input(page, "#polyomino-limit", "2")
    click_and_wait(page, "#polyomino-solve")
    text = page.text_content("#polyomino-differences")
    assert text.startswith("Solutions 1 and 2 differ in "), text
    count = int(text.split(" differ in ")[1].split(" ")[0])
    board = ["." * 20] * 3
    request = {
        "kind": "polyomino",
        "mode": "solve",
        "limit": 2,
        "puzzle": {"board": board, "pieces": ["pentominoes"]},
    }

    def cells_of(solution):
        return {
            tuple(cell): (p["piece"], tuple(sorted(map(tuple, p["cells"]))))
            for p in solution
            for cell in p["cells"]
        }

    assert count == len(differing_cells(request, cells_of))
    set_input(page, "#polyomino-limit", "1")


def test_long_count_shows_time_left_and_the_panel_does_not_move_the_page(shared_page) -> None:
    page = shared_page
    open_tab(page, "sudoku")
    page.click("#sudoku-clear")
    empty = canvas_picture(page, "sudoku")
    # The count button sits under the board: scrolled to first, as a person would.
    page.locator("#sudoku-count").scroll_into_view_if_needed()
    before = page.evaluate(
        "JSON.stringify(document.getElementById('sudoku-canvas').getBoundingClientRect())"
    )
    page.click("#sudoku-count")
    page.wait_for_function(
        "() => / left/.test(document.getElementById('progress-text').textContent)", timeout=20_000
    )
    text = page.text_content("#progress-text")
    assert "done (estimate)" in text and " left" in text, text
    # The board shows a solution found lately (Python sends one a second at most).
    page.wait_for_function(
        "() => /board: a solution found at/.test("
        "document.getElementById('progress-text').textContent)",
        timeout=20_000,
    )
    assert canvas_picture(page, "sudoku") != empty
    during = page.evaluate(
        "JSON.stringify(document.getElementById('sudoku-canvas').getBoundingClientRect())"
    )
    assert during == before
    assert (
        page.evaluate("getComputedStyle(document.getElementById('progress')).position") == "fixed"
    )
    page.click("#cancel")
    page.wait_for_function("() => document.body.dataset.state !== 'busy'", timeout=5_000)
    assert page.text_content("#status") == "Ready (last solve cancelled)"
    assert canvas_picture(page, "sudoku") == empty  # not taken for the answer
    # The next action clears the cancelled state from the status line.
    page.click("#tab-shikaku")
    assert page.text_content("#status") == "Ready"


def test_errors_read_as_sentences_with_details(shared_page) -> None:
    page = shared_page
    open_tab(page, "domino")
    # An engine that does not serve a mode is not offered for it (the button says why), so the
    # page never sends that request; an engine's refusal of the board still reads as a sentence.
    page.select_option("#domino-engine", "formula")
    assert page.is_disabled("#domino-random")
    assert "serves count mode only" in page.get_attribute("#domino-random", "title")
    go_to_hash(page, "domino:5x5:2.2&engine=cftp")
    click_and_wait(page, "#domino-random")
    sentence_text = page.text_content("#domino-error .error-text")
    details = page.text_content("#domino-error .error-details-text")
    assert sentence_text == (
        "The board has a hole (closed cells surrounded by open ones); "
        "cftp needs a board without holes."
    )
    assert details == "Use engine 'profile_dp' if the board is narrow; at puzzle in the request."
    page.select_option("#domino-engine", "")
    # A clash in a Sudoku: the sentence first, the JSON path in the details.
    open_tab(page, "sudoku")
    page.fill("#sudoku-paste", "55" + "." * 79)
    page.click("#sudoku-load")
    click_and_wait(page, "#sudoku-solve")
    assert page.text_content("#sudoku-error .error-text").startswith("Two 5s in row 1")
    details = page.text_content("#sudoku-error .error-details-text")
    assert details == "At puzzle.grid in the request."


def test_failed_url_clears_the_old_solution_and_enter_loads_a_url(shared_page) -> None:
    page = shared_page
    open_tab(page, "shikaku")
    page.fill("#shikaku-url", SHIKAKU_URL)
    page.press("#shikaku-url", "Enter")
    page.wait_for_function(
        "() => document.getElementById('shikaku-result').textContent === 'Unique solution.'",
        timeout=SOLVE_TIMEOUT_MS,
    )
    solved = canvas_picture(page, "shikaku")
    page.fill("#shikaku-url", "https://puzz.link/p?shikaku/7/7/zzzzz")
    page.press("#shikaku-url", "Enter")
    page.wait_for_function(
        "() => document.getElementById('shikaku-error').textContent !== ''",
        timeout=SOLVE_TIMEOUT_MS,
    )
    assert page.text_content("#shikaku-result") == ""
    assert canvas_picture(page, "shikaku") != solved
    # The board shows the puzzle without its rectangles: the same picture as before solving.
    page.fill("#shikaku-url", SHIKAKU_URL)
    page.click("#shikaku-load-url")
    page.wait_for_function(
        "() => document.getElementById('shikaku-result').textContent === 'Unique solution.'",
        timeout=SOLVE_TIMEOUT_MS,
    )
    # The puzz.link export writes the same URL Python writes.
    page.fill("#shikaku-url", "")
    page.click("#shikaku-export-url")
    assert page.input_value("#shikaku-url") == shikaku.to_url(shikaku_puzzle(SHIKAKU_URL))


def shikaku_puzzle(url: str) -> dict:
    rows, cols, clues = shikaku.parse_puzzle({"url": url})
    return {"rows": rows, "cols": cols, "clues": [list(clue) for clue in clues]}


def test_sudoku_paste_takes_the_layouts_people_copy(shared_page) -> None:
    page = shared_page
    open_tab(page, "sudoku")
    rows = [SUDOKU[r * 9 : r * 9 + 9] for r in range(9)]
    boxed = "\n".join(
        " | ".join(" ".join(row[c : c + 3]) for c in (0, 3, 6))
        + ("\n------+-------+------" if r in (2, 5) else "")
        for r, row in enumerate(rows)
    )
    for text in (boxed, SUDOKU.replace(".", "_"), SUDOKU.replace(".", "0"), "\n".join(rows)):
        page.fill("#sudoku-paste", text)
        page.press("#sudoku-paste", "Enter")
        assert page.input_value("#sudoku-paste") == SUDOKU, text
        assert page.text_content("#sudoku-input-error") == ""
    # "*" is a blank in other programs' grids (issue 21); "!" is no one's symbol.
    page.fill("#sudoku-paste", SUDOKU[:20] + "!" + SUDOKU[21:])
    page.click("#sudoku-load")
    error = page.text_content("#sudoku-input-error")
    assert error.startswith('The character "!" at row 3, column 3 ') and error.endswith("."), error
    # 16x16: the symbols style is a visible choice, kept in the share link.
    page.select_option("#sudoku-size", "16")
    assert page.is_visible("#sudoku-symbols")
    zero_f = "0123456789ABCDEF" + "." * 240
    page.fill("#sudoku-paste", zero_f)
    page.click("#sudoku-load")
    assert page.input_value("#sudoku-symbols") == "0-F"
    assert page.input_value("#sudoku-paste") == zero_f
    page.wait_for_function(f"() => location.hash === '#sudoku:0-F:{zero_f}'", timeout=5000)
    # The key pad speaks the style too: its "0" key is the first symbol, and there is no "G".
    assert page.query_selector("#sudoku-key-G") is None
    page.click("#sudoku-canvas", position={"x": 20, "y": 20})
    page.keyboard.press("ArrowDown")  # row 2, column 1: blank
    page.click("#sudoku-key-0")
    assert page.input_value("#sudoku-paste") == zero_f[:16] + "0" + zero_f[17:]
    page.click("#sudoku-key-clear")
    assert page.input_value("#sudoku-paste") == zero_f
    page.select_option("#sudoku-symbols", "1-G")
    assert page.input_value("#sudoku-paste") == "123456789ABCDEFG" + "." * 240
    assert page.is_visible("#sudoku-key-G") and page.query_selector("#sudoku-key-0") is None
    page.select_option("#sudoku-size", "9")
    assert page.is_hidden("#sudoku-symbols")


# Links in the format of every kind before short IDs (polyomino: base64url of JSON).
OLD_LINKS = {
    "sudoku": f"sudoku:{SUDOKU}",
    "shikaku": "shikaku:2x6:0.0.12",
    "domino": "domino:4x5:0.0,3.4",
    "exact_cover": "exact_cover:QSBCCkEKQgo",  # "A B\nA\nB\n"
    "queens": "queens:6:0.1",  # the format it was born with
    "star_battle": "star_battle:6:1:A3B3A3B2CAD2EC2D4C2D4C2F2D2C2",  # pysolver's EXAMPLE
    "polyomino": "polyomino:eyJib2FyZCI6WyIuLi4uIiwiLi4uLiJdLCJwaWVjZXMiOlsiSTQiLCJPNCJdLCJyZWZs"
    "ZWN0aW9ucyI6ZmFsc2UsInN5bW1ldHJ5IjoiYWxsIn0",
}


def test_old_links_of_every_kind_still_load(shared_page) -> None:
    page = shared_page
    assert set(OLD_LINKS) == set(site_facts()["kinds"])
    expect = {
        "sudoku": ("#sudoku-paste", SUDOKU),
        "shikaku": ("#shikaku-cols", "6"),
        "domino": ("#domino-cols", "5"),
        "exact_cover": ("#exact_cover-text", "A B\nA\nB\n"),
        "polyomino": ("#polyomino-rows", "2"),
        "queens": ("#queens-n", "6"),
        "star_battle": ("#star_battle-n", "6"),
    }
    for kind, link in OLD_LINKS.items():
        go_to_hash(page, link)
        page.wait_for_function(f"() => !document.getElementById('panel-{kind}').hidden")
        selector, value = expect[kind]
        page.wait_for_function(
            "([s, v]) => document.querySelector(s).value === v", arg=[selector, value], timeout=5000
        )
        assert page.text_content(f"#{kind}-error") == "", kind
    assert page.get_attribute("#polyomino-piece-O4", "aria-pressed") == "true"
    assert not page.is_checked("#polyomino-reflections")
    assert page.input_value("#polyomino-symmetry") == "all"
    # Written back in the short format.
    page.wait_for_function(
        "() => location.hash === '#polyomino:2x4:I4,O4:noreflect,all'", timeout=5000
    )


def test_short_share_ids_round_trip(shared_page, new_guarded_page) -> None:
    page = shared_page
    open_tab(page, "sudoku")
    page.fill("#sudoku-paste", SUDOKU)
    page.click("#sudoku-load")
    page.click("#share")
    assert page.input_value("#share-url").split("#")[1] == f"sudoku:{SUDOKU}"

    open_tab(page, "polyomino")
    page.select_option("#polyomino-preset", "hole")
    page.click("#polyomino-piece-O4")
    page.uncheck("#polyomino-reflections")
    page.select_option("#polyomino-symmetry", "distinct")
    page.click("#share")
    link = page.input_value("#share-url")
    assert link.split("#")[1] == "polyomino:8/8/8/3-2-3/3-2-3/8/8/8:pentominoes,O4:noreflect"
    picture = canvas_picture(page, "polyomino")
    other = new_guarded_page(page.context)
    try:
        other.goto(link)
        other.wait_for_selector("#polyomino-canvas")
        assert other.get_attribute("#polyomino-piece-O4", "aria-pressed") == "true"
        assert not other.is_checked("#polyomino-reflections")
        assert canvas_picture(other, "polyomino") == picture
    finally:
        other.close()


def test_bad_percent_escapes_give_a_message_and_a_working_page(
    shared_page, site_url, new_guarded_page
) -> None:
    page = new_guarded_page(shared_page.context)
    try:
        page.goto(site_url + "#%")
        page.wait_for_selector("#tab-sudoku")
        shown = page.evaluate("document.querySelector('.panel:not([hidden])').dataset.kind")
        error = page.text_content(f"#{shown}-error")
        assert error.startswith("The link does not name a puzzle this page knows"), error
        go_to_hash(page, "sudoku:%ZZ")
        page.wait_for_function("() => !document.getElementById('panel-sudoku').hidden")
        page.wait_for_function("() => document.getElementById('sudoku-error').textContent !== ''")
        assert "broken % escape" in page.text_content("#sudoku-error")
        # Later links still work.
        go_to_hash(page, f"sudoku:{SUDOKU}")
        page.wait_for_function(
            f"() => document.getElementById('sudoku-paste').value === '{SUDOKU}'"
        )
        assert page.text_content("#sudoku-error") == ""
    finally:
        page.close()


def test_failed_import_reports_in_the_panel_shown(shared_page, tmp_path) -> None:
    page = shared_page
    open_tab(page, "polyomino")
    bad = tmp_path / "bad-sudoku.json"
    bad.write_text(json.dumps({"kind": "sudoku", "puzzle": {"grid": "5x" + "." * 79}}))
    page.set_input_files("#import-json", str(bad))
    page.wait_for_function("() => document.getElementById('sudoku-error').textContent !== ''")
    assert page.is_visible("#panel-sudoku")
    assert page.text_content("#sudoku-error").startswith("Could not import bad-sudoku.json.")
    assert '"x"' in page.text_content("#sudoku-error .error-details-text")
    assert page.text_content("#polyomino-error") == ""
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    page.set_input_files("#import-json", str(broken))
    page.wait_for_function(
        "() => document.getElementById('sudoku-error').textContent.includes('broken.json')"
    )
    assert "not JSON" in page.text_content("#sudoku-error .error-details-text")


def test_polyomino_imports_custom_pieces_and_counts(shared_page, tmp_path) -> None:
    page = shared_page
    request = {
        "kind": "polyomino",
        "mode": "solve",
        "puzzle": {
            "board": ["....", "....", "...."],
            "pieces": [
                {"name": "Bar", "cells": [[0, 0], [0, 1], [0, 2]], "count": 2},
                "O4",
                {"name": "D2", "count": 1},
            ],
        },
    }
    saved = tmp_path / "custom.json"
    saved.write_text(json.dumps(request))
    page.set_input_files("#import-json", str(saved))
    page.wait_for_function("() => !document.getElementById('panel-polyomino').hidden")
    assert page.text_content("#polyomino-error") == ""
    # Bar is a custom piece of the editor (two copies); O4 and D2 are pressed in the picker.
    assert "Bar ×2" in page.text_content("#polyomino-custom-piece-Bar")
    assert page.get_attribute("#polyomino-piece-D2", "aria-pressed") == "true"
    page.wait_for_function("() => location.hash.startsWith('#polyomino:3x4:')", timeout=5000)
    assert page.evaluate("location.hash") == "#polyomino:3x4:O4,D2,Bar=0.0;0.1;0.2*2:all"
    click_and_wait(page, "#polyomino-solve")
    assert page.text_content("#polyomino-result").endswith("found.")
    assert page.get_attribute("#polyomino-result", "data-count") == str(solve(request)["count"])
    # The link brings the same pieces back.
    go_to_hash(page, "sudoku:" + SUDOKU)
    page.wait_for_function("() => !document.getElementById('panel-sudoku').hidden")
    go_to_hash(page, "polyomino:3x4:O4,D2,Bar=0.0;0.1;0.2*2")
    page.wait_for_function("() => !document.getElementById('panel-polyomino').hidden")
    assert "Bar ×2" in page.text_content("#polyomino-custom-piece-Bar")
    assert page.text_content("#polyomino-piece-info").startswith("4 pieces covering 12 cells")
