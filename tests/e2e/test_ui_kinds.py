"""The page as a person uses it: each kind's editor, solved through the UI, draws its answer.

One page per module (``shared_page``: Pyodide loads once). Each test switches to its kind's tab
and sets up its own puzzle, so the order of the tests does not matter. A solution must show up
three ways: the answer text, the stats line, and pixels on the board's canvas.
"""

from __future__ import annotations

import importlib.util
import itertools
import json

import pytest
from conftest import canvas_picture, click_and_wait, open_tab, set_input

from pysolver.facts import site_facts

SUDOKU = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
SHIKAKU_URL = "https://puzz.link/p?shikaku/7/7/h94g4m3tck4i8g2j3i"


def needs_kind(kind: str):
    missing = importlib.util.find_spec(f"pysolver.kinds.{kind}") is None
    return pytest.mark.skipif(missing, reason=f"the {kind} kind is not written yet")


def answer(page, kind: str) -> dict[str, str]:
    return {
        "result": page.text_content(f"#{kind}-result") or "",
        "stats": page.text_content(f"#{kind}-stats") or "",
        "error": page.text_content(f"#{kind}-error") or "",
        "count": page.get_attribute(f"#{kind}-result", "data-count") or "",
    }


def test_editors_take_engines_sizes_and_limits_from_pythons_facts(shared_page) -> None:
    page = shared_page
    facts = site_facts()["kinds"]
    for kind, kind_facts in facts.items():
        values = page.eval_on_selector_all(
            f"#{kind}-engine option", "options => options.map((o) => [o.value, o.textContent])"
        )
        titles = [[engine["name"], engine["title"]] for engine in kind_facts["engines"]]
        default = next(
            e for e in kind_facts["engines"] if e["name"] == kind_facts["default_engine"]
        )
        assert values[1:] == titles, kind
        if "default_rules" in kind_facts:
            # The default depends on the board (dominoes): the label says what it does for the
            # board shown (tests/e2e/test_newcomer.py checks the words).
            engines = [f"Default ({e['title']})" for e in kind_facts["engines"]]
            assert values[0][0] == "", kind
            assert values[0][1] in [*engines, "Default (depends on the board)"], kind
        else:
            assert values[0] == ["", f"Default ({default['title']})"], kind
        assert page.text_content(f"#tab-{kind}") == kind_facts["title"]
    # Size fields stop at Python's limits: typing more clamps to them, nothing is cut below.
    for kind in ("polyomino", "shikaku", "domino"):
        open_tab(page, kind)
        limits = facts[kind]["limits"]
        assert page.get_attribute(f"#{kind}-rows", "max") == str(limits["max_rows"])
        set_input(page, f"#{kind}-rows", str(limits["max_rows"] + 1))
        assert page.input_value(f"#{kind}-rows") == str(limits["max_rows"])
        set_input(page, f"#{kind}-rows", "6")
    open_tab(page, "polyomino")
    set_input(page, "#polyomino-rows", "40")  # above the old page's cap of 30
    # The share ID starts with the board's size (web/kinds/polyomino/link.js): all 40 rows kept.
    page.wait_for_function("() => location.hash.startsWith('#polyomino:40x')", timeout=5000)
    set_input(page, "#polyomino-rows", "6")
    sizes = page.eval_on_selector_all("#sudoku-size option", "options => options.map(o => o.value)")
    assert sizes == [str(entry["n"]) for entry in facts["sudoku"]["sizes"]]


@needs_kind("sudoku")
def test_sudoku_typed_and_pasted_grid_is_solved_and_unique(shared_page) -> None:
    page = shared_page
    open_tab(page, "sudoku")
    page.click("#sudoku-clear")
    # Type the first givens with the keyboard, then load the whole grid through the text box.
    page.click("#sudoku-canvas", position={"x": 20, "y": 20})
    page.keyboard.type("5")
    page.keyboard.press("ArrowRight")  # typing leaves the cursor where it is
    page.keyboard.type("3")
    assert page.input_value("#sudoku-paste").startswith("53.")
    page.keyboard.press("Backspace")  # clears the cell under the cursor: the 3
    assert page.input_value("#sudoku-paste").startswith("5..")
    page.fill("#sudoku-paste", SUDOKU)
    page.click("#sudoku-load")
    empty = canvas_picture(page, "sudoku")
    click_and_wait(page, "#sudoku-solve")
    shown = answer(page, "sudoku")
    assert shown["error"] == ""
    assert shown["result"] == "Unique solution."
    # Few headline figures in words (engine title, time, search steps); the rest a click away.
    # This grid falls to singles: no search step, and a zero counter is left out (issue 21).
    headline = page.evaluate("document.getElementById('sudoku-stats').firstChild.textContent")
    assert headline.startswith("Engine: ") and "Time: " in headline
    assert "Search steps: " not in headline
    assert "givens" not in headline.lower()
    assert "Givens: " in page.text_content("#sudoku-stats-more")
    assert canvas_picture(page, "sudoku") != empty


@needs_kind("sudoku")
def test_sudoku_with_two_solutions_says_several(shared_page) -> None:
    page = shared_page
    open_tab(page, "sudoku")
    # Blank out enough givens that the grid has more than one completion.
    page.fill("#sudoku-paste", "5" + "." * 80)
    page.click("#sudoku-load")
    click_and_wait(page, "#sudoku-solve")
    assert answer(page, "sudoku")["result"].startswith("Several solutions")
    assert page.text_content("#sudoku-position") == "Solution 1 of 2"
    first = canvas_picture(page, "sudoku")
    page.click("#sudoku-next")
    assert page.text_content("#sudoku-position") == "Solution 2 of 2"
    assert canvas_picture(page, "sudoku") != first


@needs_kind("sudoku")
def test_sudoku_4x4_typed_on_the_board(shared_page) -> None:
    page = shared_page
    open_tab(page, "sudoku")
    page.select_option("#sudoku-size", "4")
    assert page.input_value("#sudoku-paste") == "." * 16
    page.click("#sudoku-canvas", position={"x": 20, "y": 20})
    for digit in "1234":  # the first row; typing leaves the cursor, the arrow moves it
        page.keyboard.type(digit)
        page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    page.keyboard.type("9")  # above the grid's largest value: ignored
    assert page.input_value("#sudoku-paste") == "1234" + "." * 12
    click_and_wait(page, "#sudoku-count")
    shown = answer(page, "sudoku")
    assert shown["error"] == ""
    # The first row fixed, a 4x4 Sudoku has 12 completions.
    assert shown["count"] == "12"
    click_and_wait(page, "#sudoku-solve")
    assert answer(page, "sudoku")["result"].startswith("Several solutions")


@needs_kind("sudoku")
def test_sudoku_clashing_givens_show_the_error(shared_page) -> None:
    page = shared_page
    open_tab(page, "sudoku")
    page.fill("#sudoku-paste", "55" + "." * 79)
    page.click("#sudoku-load")
    click_and_wait(page, "#sudoku-solve")
    shown = answer(page, "sudoku")
    assert "Two 5s in row 1" in shown["error"]
    assert "puzzle.grid" in shown["error"]
    assert shown["result"] == ""


@needs_kind("polyomino")
def test_polyomino_preset_is_tiled_with_lettered_pieces(shared_page) -> None:
    page = shared_page
    open_tab(page, "polyomino")
    page.select_option("#polyomino-preset", "6x10")
    assert page.get_attribute("#polyomino-piece-X", "aria-pressed") == "true"
    assert page.get_attribute("#polyomino-piece-O4", "aria-pressed") == "false"
    empty = canvas_picture(page, "polyomino")
    click_and_wait(page, "#polyomino-solve")
    shown = answer(page, "polyomino")
    assert shown["error"] == ""
    assert shown["result"] == "1 tiling found."
    assert canvas_picture(page, "polyomino") != empty


@needs_kind("polyomino")
def test_polyomino_board_editing_and_count(shared_page) -> None:
    page = shared_page
    open_tab(page, "polyomino")
    page.select_option("#polyomino-preset", "3x20")
    page.select_option("#polyomino-symmetry", "distinct")
    click_and_wait(page, "#polyomino-count")
    assert answer(page, "polyomino")["count"] == "2"
    # Knocking out a cell leaves 59 cells for 60 squares of pentominoes: no tiling.
    before = canvas_picture(page, "polyomino")
    page.click("#polyomino-canvas", position={"x": 15, "y": 15})
    assert canvas_picture(page, "polyomino") != before
    click_and_wait(page, "#polyomino-count")
    shown = answer(page, "polyomino")
    assert shown["count"] == "0" or shown["error"] != ""


@needs_kind("polyomino")
def test_polyomino_centre_hole_has_65_distinct_tilings(shared_page) -> None:
    page = shared_page
    open_tab(page, "polyomino")
    page.select_option("#polyomino-preset", "hole")
    page.select_option("#polyomino-symmetry", "distinct")
    click_and_wait(page, "#polyomino-count")
    shown = answer(page, "polyomino")
    assert shown["result"] == "65 distinct tilings."
    page.select_option("#polyomino-symmetry", "all")
    click_and_wait(page, "#polyomino-count")
    assert answer(page, "polyomino")["result"] == "520 tilings."


@needs_kind("shikaku")
def test_shikaku_url_is_loaded_drawn_and_solved(shared_page) -> None:
    page = shared_page
    open_tab(page, "shikaku")
    page.click("#shikaku-clear")
    set_input(page, "#shikaku-rows", "3")
    empty = canvas_picture(page, "shikaku")
    page.fill("#shikaku-url", SHIKAKU_URL)
    click_and_wait(page, "#shikaku-load-url")
    shown = answer(page, "shikaku")
    assert shown["error"] == ""
    assert shown["result"] == "Unique solution."
    # The response's parsed puzzle replaced the editor's grid.
    assert page.input_value("#shikaku-rows") == "7"
    assert "Candidate rectangles: " in shown["stats"]
    assert "_" not in shown["stats"]  # labels, not keys such as candidates_after_overlap
    assert canvas_picture(page, "shikaku") != empty


@needs_kind("shikaku")
def test_shikaku_clues_typed_on_the_board(shared_page) -> None:
    page = shared_page
    open_tab(page, "shikaku")
    page.click("#shikaku-clear")
    set_input(page, "#shikaku-rows", "2")
    set_input(page, "#shikaku-cols", "6")
    # One multi-digit clue covering the whole 2x6 board.
    page.click("#shikaku-canvas", position={"x": 20, "y": 20})
    page.keyboard.type("12")
    # The share fragment follows each keystroke; wait for it rather than race it.
    page.wait_for_function("location.hash === '#shikaku:2x6:0.0.12'", timeout=5000)
    click_and_wait(page, "#shikaku-solve")
    assert answer(page, "shikaku")["result"] == "Unique solution."


@needs_kind("domino")
def test_domino_16x16_count_is_shown_exactly(shared_page) -> None:
    page = shared_page
    open_tab(page, "domino")
    page.click("#domino-clear")
    set_input(page, "#domino-rows", "16")
    set_input(page, "#domino-cols", "16")
    click_and_wait(page, "#domino-count")
    shown = answer(page, "domino")
    assert shown["error"] == ""
    assert "2,444,888,770,250,892,795,802,079,170,816" in shown["result"]
    assert shown["count"] == "2444888770250892795802079170816"


@needs_kind("domino")
def test_domino_12x12_count_is_grouped(shared_page) -> None:
    page = shared_page
    open_tab(page, "domino")
    page.click("#domino-clear")
    for field in ("#domino-rows", "#domino-cols"):
        page.fill(field, "12")
        page.dispatch_event(field, "change")
    click_and_wait(page, "#domino-count")
    assert answer(page, "domino")["result"].startswith("53,060,477,521,960,000 tilings")


@pytest.mark.slow
@needs_kind("domino")
def test_domino_200x200_count_wraps_thousands_of_digits(shared_page) -> None:
    page = shared_page
    open_tab(page, "domino")
    page.click("#domino-clear")
    for field in ("#domino-rows", "#domino-cols"):
        page.fill(field, "200")
        page.dispatch_event(field, "change")
    click_and_wait(page, "#domino-count", timeout_ms=180_000)
    shown = answer(page, "domino")
    assert shown["error"] == ""
    assert len(shown["count"]) > 4000 and shown["count"].isdigit()
    # The short form first; every digit a click away, grouped by threes.
    assert shown["result"].startswith("≈ ")
    assert f"({len(shown['count']):,} digits)" in shown["result"]
    page.click("#domino-result .show-digits")
    grouped = page.text_content("#domino-result .all-digits")
    assert grouped.replace(",", "") == shown["count"]
    assert all(len(group) == 3 for group in grouped.split(",")[1:])
    # The number wraps inside its column instead of widening the page.
    fits = page.evaluate(
        "() => { const r = document.getElementById('domino-result');"
        " return r.scrollWidth <= r.clientWidth + 1"
        " && document.documentElement.scrollWidth <= window.innerWidth; }"
    )
    assert fits


@needs_kind("domino")
def test_domino_random_tiling_is_drawn(shared_page) -> None:
    page = shared_page
    open_tab(page, "domino")
    set_input(page, "#domino-rows", "6")
    set_input(page, "#domino-cols", "6")
    page.click("#domino-canvas", position={"x": 20, "y": 20})
    page.click("#domino-canvas", position={"x": 60, "y": 20})
    page.fill("#domino-seed", "7")
    empty = canvas_picture(page, "domino")
    click_and_wait(page, "#domino-random")
    shown = answer(page, "domino")
    assert shown["error"] == ""
    assert shown["result"].startswith("A random tiling (seed 7)")
    assert canvas_picture(page, "domino") != empty


@needs_kind("exact_cover")
def test_exact_cover_text_is_solved_and_listed(shared_page) -> None:
    page = shared_page
    open_tab(page, "exact_cover")
    page.select_option("#exact_cover-example", "knuth")
    empty = canvas_picture(page, "exact_cover")
    click_and_wait(page, "#exact_cover-solve")
    shown = answer(page, "exact_cover")
    assert shown["error"] == ""
    assert shown["count"] == "1"
    listed = page.text_content("#exact_cover-solutions")
    # Knuth's example has one cover: options "A D", "B G" and "C E F" (indices 3, 4, 0).
    assert "options 0, 3, 4" in listed
    assert "0: C E F" in listed and "3: A D" in listed and "4: B G" in listed
    assert canvas_picture(page, "exact_cover") != empty


@needs_kind("exact_cover")
def test_exact_cover_json_count(shared_page) -> None:
    page = shared_page
    open_tab(page, "exact_cover")
    page.fill(
        "#exact_cover-text",
        '{"items": ["a", "b"], "secondary": [], "options": [["a"], ["b"], ["a", "b"]]}',
    )
    click_and_wait(page, "#exact_cover-count")
    assert answer(page, "exact_cover")["result"] == "2 solutions."


@needs_kind("exact_cover")
def test_exact_cover_count_is_grouped(shared_page) -> None:
    page = shared_page
    open_tab(page, "exact_cover")
    items = list("abcdefg")
    # Three interchangeable options per item: 3^7 = 2187 covers.
    problem = {"items": items, "options": [[item] for item in items for _ in range(3)]}
    page.fill("#exact_cover-text", json.dumps(problem))
    click_and_wait(page, "#exact_cover-count")
    shown = answer(page, "exact_cover")
    assert shown["result"] == "2,187 solutions."
    assert shown["count"] == "2187"


@needs_kind("exact_cover")
def test_exact_cover_broken_json_is_not_sent(shared_page) -> None:
    page = shared_page
    open_tab(page, "exact_cover")
    page.fill("#exact_cover-text", '{"items": ["a"], "options": [["a"]]')
    assert page.text_content("#exact_cover-input-error").startswith("Not valid JSON")
    page.click("#exact_cover-solve")
    error = page.text_content("#exact_cover-error")
    assert error.startswith("Not sent to the solver: Not valid JSON")
    assert page.text_content("#exact_cover-result") == ""
    assert page.evaluate("document.body.dataset.state") == "ready"


KNUTH_COLOURS = "p q r | x y\np q x y:A\np r x:A y\np x:B\nq x:A\nr y:B\n"


def received_colours(page) -> list[dict[str, str]]:
    """Per listed solution, the colour each secondary item received, as the list shows it."""
    return page.eval_on_selector_all(
        "#exact_cover-solutions > li.solution",
        """items => items.map((item) => Object.fromEntries(
            [...item.querySelectorAll('.solution-colours .colour-chip')]
                .map((chip) => [chip.dataset.item, chip.dataset.colour])))""",
    )


@needs_kind("exact_cover")
def test_exact_cover_colours_are_read_solved_and_shown(shared_page) -> None:
    page = shared_page
    open_tab(page, "exact_cover")
    page.fill("#exact_cover-text", KNUTH_COLOURS)
    assert page.text_content("#exact_cover-input-error") == ""
    summary = page.text_content("#exact_cover-summary")
    assert "5 items (3 primary, 2 secondary)" in summary and "2 colours: A B" in summary
    empty = canvas_picture(page, "exact_cover")
    click_and_wait(page, "#exact_cover-solve")
    shown = answer(page, "exact_cover")
    assert shown["error"] == ""
    assert shown["count"] == "1"
    listed = page.text_content("#exact_cover-solutions")
    assert "options 1, 3" in listed
    assert "1: p r x:A y" in listed and "3: q x:A" in listed
    assert received_colours(page) == [{"x": "A"}]
    # The coloured entries are tinted chips named with their colour.
    chips = page.eval_on_selector_all(
        "#exact_cover-solutions .option-lines .colour-chip",
        "chips => chips.map((chip) => [chip.textContent, chip.title])",
    )
    assert chips == [["x:A", "colour A"], ["x:A", "colour A"]]
    assert canvas_picture(page, "exact_cover") != empty


def double_word_squares(words: list[str], size: int) -> int:
    """Squares whose rows and columns are 2 * size different words, by trying every choice of
    rows (independent of exact cover)."""
    vocabulary = set(words)
    count = 0
    for rows in itertools.product(words, repeat=size):
        columns = ["".join(row[k] for row in rows) for k in range(size)]
        if all(column in vocabulary for column in columns) and len({*rows, *columns}) == 2 * size:
            count += 1
    return count


@needs_kind("exact_cover")
def test_exact_cover_word_square_preset(shared_page) -> None:
    page = shared_page
    open_tab(page, "exact_cover")
    page.select_option("#exact_cover-example", "word_squares")
    text = page.input_value("#exact_cover-text")
    items_line = next(line for line in text.splitlines() if not line.startswith("|"))
    secondary = items_line.split("|")[1].split()
    words = [name for name in secondary if name.isalpha()]
    size = 3
    assert len(words) > 20 and all(len(word) == size for word in words)
    expected = double_word_squares(words, size)
    assert expected > 1
    click_and_wait(page, "#exact_cover-count")
    assert answer(page, "exact_cover")["count"] == str(expected)
    set_input(page, "#exact_cover-limit", "1000")
    click_and_wait(page, "#exact_cover-solve")
    assert answer(page, "exact_cover")["count"] == str(expected)
    # Each solution's colours are its letters: rows and columns read as different listed words.
    squares = received_colours(page)
    assert len(squares) == expected
    for colours in squares:
        grid = [[colours[f"{r}{c}"] for c in range(1, size + 1)] for r in range(1, size + 1)]
        columns = ["".join(row[k] for row in grid) for k in range(size)]
        lines = ["".join(row) for row in grid] + columns
        assert set(lines) <= set(words) and len(set(lines)) == 2 * size, grid


@needs_kind("exact_cover")
def test_exact_cover_malformed_colours_are_named(shared_page) -> None:
    page = shared_page
    open_tab(page, "exact_cover")
    for text, words in [
        ("p q | x\np:A x\n", "line 2 gives the primary item"),
        ("p | x\np x:\n", "line 2 names"),
        ("p | x\np y:A\n", "not a declared item"),
        ("p | x:A\np x\n", "line 1: item"),
    ]:
        page.fill("#exact_cover-text", text)
        assert words in page.text_content("#exact_cover-input-error"), text
        page.click("#exact_cover-solve")
        error = page.text_content("#exact_cover-error")
        assert error.startswith("Not sent to the solver: ") and words in error, (text, error)
        assert page.text_content("#exact_cover-result") == ""
        assert page.evaluate("document.body.dataset.state") == "ready"
