"""The page as a newcomer finds it (issue 21): grids pasted from other programs, the solved
board in view on a phone, every way a puzzle arrives refreshing the link and the answers, a
default trace that reaches a solution, bad share links refused in a sentence, a short tab order
and plain words.

Most tests share one page (``shared_page``); the phone tests open a touch page of their own.
"""

from __future__ import annotations

import json
import re

import pytest
from conftest import click_and_wait, open_tab, set_input, wait_idle

from pysolver.engines import masks
from pysolver.facts import site_facts
from tests.test_pasted import sudoku_url
from tests.test_web_sudoku_paste import CLASSIC, CLASSIC_GIVENS, hodoku_frame, rows, solo_id

FACTS = site_facts()
PHONE = {"width": 390, "height": 844}


def paste_on_board(page, text: str) -> None:
    """Paste text on the Sudoku board as a person does (Ctrl+V with the board focused)."""
    page.focus("#sudoku-canvas")
    page.evaluate(
        """(text) => {
          const data = new DataTransfer();
          data.setData("text/plain", text);
          const init = {clipboardData: data, bubbles: true, cancelable: true};
          document.getElementById("sudoku-canvas").dispatchEvent(new ClipboardEvent("paste", init));
        }""",
        text,
    )


def test_sudoku_reads_the_grids_other_programs_give(shared_page) -> None:
    page = shared_page
    open_tab(page, "sudoku")
    pastes = {
        "HoDoKu frame": hodoku_frame(CLASSIC),
        "star blanks": CLASSIC.replace(".", "*"),
        "CSV": "\n".join(",".join("" if ch == "." else ch for ch in row) for row in rows(CLASSIC)),
        "sudokuwiki": "https://www.sudokuwiki.org/sudoku.htm?bd=" + CLASSIC.replace(".", "0"),
        "Solo ID": solo_id(CLASSIC),
        "puzz.link URL": sudoku_url(CLASSIC_GIVENS, 9),
    }
    for name, text in pastes.items():
        page.click("#sudoku-clear")
        assert page.input_value("#sudoku-paste") == "." * 81
        paste_on_board(page, text)
        assert page.input_value("#sudoku-paste") == CLASSIC, name
        assert page.text_content("#sudoku-input-error") == "", name
    # The text box reads them too.
    page.click("#sudoku-clear")
    page.fill("#sudoku-paste", pastes["HoDoKu frame"])
    page.click("#sudoku-load")
    assert page.input_value("#sudoku-paste") == CLASSIC
    page.click("#sudoku-clear")
    page.fill("#sudoku-paste", pastes["puzz.link URL"])
    page.press("#sudoku-paste", "Enter")
    assert page.input_value("#sudoku-paste") == CLASSIC
    # A Solo ID with the X flag turns the diagonals on.
    paste_on_board(page, solo_id("1" + "." * 15, "2x2x"))
    assert page.is_checked("#sudoku-diagonals")
    page.uncheck("#sudoku-diagonals")
    # Text that is no grid: the count, and no character named; a grid with one wrong character
    # names it and its place.
    paste_on_board(page, "Shopping list: eggs, milk")
    error = page.text_content("#sudoku-input-error")
    assert "symbols" in error and "character" not in error, error
    paste_on_board(page, CLASSIC[:80] + "!")
    error = page.text_content("#sudoku-input-error")
    assert '"!"' in error and "row 9, column 9" in error, error
    paste_on_board(page, CLASSIC)
    assert page.text_content("#sudoku-input-error") == ""


@pytest.fixture
def phone_page(browser, site_url, new_guarded_page):
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = new_guarded_page(context)
    page.goto(site_url)
    page.wait_for_function("() => document.body.dataset.state === 'ready'", timeout=90_000)
    yield page
    context.close()


def shown_height(page, selector: str) -> float:
    """How many CSS pixels of the element are inside the window."""
    return page.evaluate(
        """(selector) => {
          const box = document.querySelector(selector).getBoundingClientRect();
          return Math.max(0, Math.min(box.bottom, innerHeight) - Math.max(box.top, 0));
        }""",
        selector,
    )


@pytest.mark.parametrize("kind", ["sudoku", "shikaku"])
def test_on_a_phone_the_solved_board_and_its_verdict_are_in_view(phone_page, kind) -> None:
    page = phone_page
    page.tap(f"#tab-{kind}")
    # Wherever the page was scrolled to (the foot of the page, or the verdict's place at the top
    # of the window), the answer brings the board and the verdict into view together.
    for scroll in (
        "document.scrollingElement.scrollHeight",
        f"document.getElementById('{kind}-result').getBoundingClientRect().top + scrollY",
    ):
        page.evaluate(f"window.scrollTo(0, {scroll})")
        page.evaluate(f"document.getElementById('{kind}-solve').click()")
        wait_idle(page)
        verdict = page.text_content(f"#{kind}-result")
        assert "solution" in verdict.lower(), verdict
        board = page.locator(f"#{kind}-canvas").bounding_box()
        assert shown_height(page, f"#{kind}-canvas") >= board["height"] / 2
        result = page.locator(f"#{kind}-result").bounding_box()
        assert result["y"] >= 0 and result["y"] + result["height"] <= PHONE["height"]
        # Near it: the verdict starts less than 40% of the window below the board (between
        # them: the keypad, the buttons and New puzzle's variant, size and level).
        assert result["y"] - (board["y"] + board["height"]) < PHONE["height"] * 0.4


def import_json(page, name: str, data: object) -> None:
    page.set_input_files(
        "#import-json",
        files=[{"name": name, "mimeType": "application/json", "buffer": json.dumps(data).encode()}],
    )


def test_every_way_a_puzzle_arrives_refreshes_link_and_answers(shared_page) -> None:
    page = shared_page
    open_tab(page, "shikaku")
    page.click("#shikaku-clear")
    set_input(page, "#shikaku-rows", "2")
    set_input(page, "#shikaku-cols", "2")
    page.click("#shikaku-canvas", position={"x": 20, "y": 20})
    page.keyboard.press("4")
    page.click("#share")
    assert page.input_value("#share-url").endswith("#shikaku:2x2:0.0.4")
    click_and_wait(page, "#shikaku-compare")
    assert page.is_visible("#shikaku-compare-table")
    # A puzz.link URL: the board, the address bar and the share link all name the new puzzle,
    # and the comparison of the earlier one is gone.
    page.fill("#shikaku-url", "https://puzz.link/p?shikaku/3/3/j9j")
    click_and_wait(page, "#shikaku-load-url")
    assert page.text_content("#shikaku-result") == "Unique solution."
    assert page.evaluate("location.hash") == "#shikaku:3x3:1.1.9"
    assert page.input_value("#share-url").endswith("#shikaku:3x3:1.1.9")
    assert not page.is_visible("#shikaku-compare-table")
    assert page.text_content("#shikaku-compare-verdict") == ""
    # A Tatham Rectangles game ID in the same box: read by the page, then solved.
    page.fill("#shikaku-url", "3x2:a6d")
    click_and_wait(page, "#shikaku-load-url")
    assert page.text_content("#shikaku-result") == "Unique solution."
    assert page.evaluate("location.hash") == "#shikaku:2x3:0.1.6"
    # A JSON import naming its puzzle by a URL loads it the same way.
    import_json(
        page,
        "url.json",
        {"kind": "shikaku", "puzzle": {"url": "https://puzz.link/p?shikaku/2/1/2g"}},
    )
    wait_idle(page)
    page.wait_for_function("() => location.hash === '#shikaku:1x2:0.0.2'")
    assert "NaN" not in page.text_content("#shikaku-error")
    assert page.input_value("#share-url").endswith("#shikaku:1x2:0.0.2")
    # A preset, a paste and a JSON import elsewhere refresh them too.
    open_tab(page, "sudoku")
    click_and_wait(page, "#sudoku-solve")
    paste_on_board(page, CLASSIC.replace("5", ".", 1))
    assert page.text_content("#sudoku-result") == ""
    assert page.evaluate("location.hash") == "#sudoku:" + CLASSIC.replace("5", ".", 1)
    import_json(page, "grid.json", {"kind": "sudoku", "puzzle": {"grid": CLASSIC}})
    page.wait_for_function(f"() => location.hash === '#sudoku:{CLASSIC}'")
    assert page.input_value("#share-url").endswith(f"#sudoku:{CLASSIC}")


def trace_and_count_solutions(page, kind: str) -> int:
    click_and_wait(page, f"#{kind}-trace")
    page.wait_for_function(f"() => document.getElementById('{kind}-step-summary').textContent")
    summary = page.text_content(f"#{kind}-step-summary")
    solutions = int(re.search(r"([\d,]+) solutions?;", summary).group(1).replace(",", ""))
    assert "_" not in summary, summary  # the engine's title, not its id
    page.click(f"#{kind}-step-close")
    return solutions


def test_the_default_trace_of_every_preset_reaches_a_solution(shared_page) -> None:
    page = shared_page
    open_tab(page, "polyomino")
    presets = page.eval_on_selector_all("#polyomino-preset option", "os => os.map(o => o.value)")
    for preset in [value for value in presets if value != "custom"]:
        page.select_option("#polyomino-preset", preset)
        page.fill("#polyomino-trace-steps", str(FACTS["trace"]["default_steps"]))
        assert trace_and_count_solutions(page, "polyomino") >= 1, preset
    # A Max steps typed on purpose, below the default, is kept (and may end before a solution).
    page.select_option("#polyomino-preset", "6x10")
    page.fill("#polyomino-trace-steps", "50")
    assert trace_and_count_solutions(page, "polyomino") == 0
    assert page.input_value("#polyomino-trace-steps") == "50"
    page.fill("#polyomino-trace-steps", str(FACTS["trace"]["default_steps"]))
    open_tab(page, "exact_cover")
    examples = page.eval_on_selector_all(
        "#exact_cover-example option", "os => os.map(o => o.value)"
    )
    for example in [value for value in examples if value != "custom"]:
        page.select_option("#exact_cover-example", example)
        assert trace_and_count_solutions(page, "exact_cover") >= 1, example
    for kind in ("sudoku", "shikaku", "queens", "domino"):
        open_tab(page, kind)
        assert trace_and_count_solutions(page, kind) >= 1, kind


# Share links people may meet broken: cut short, edited by hand, made by another program.
BAD_LINKS = [
    "#exact_cover:!!!",
    "#exact_cover:QUJD%",
    "#shikaku:7x7:0.2.9,99.99.3",
    "#shikaku:abc",
    "#shikaku:3x3:1.1",
    "#shikaku:0x5:",
    "#shikaku:3x3:1.1.0",
    "#sudoku:123",
    "#sudoku:" + CLASSIC[:80] + "!",
    "#sudoku:" + CLASSIC + "/Rxyz",
    "#sudoku:" + CLASSIC + "/K10.zz",
    "#sudoku:" + CLASSIC + "/Q",
    "#sudoku:0-F:123",
    "#polyomino:6x10:nosuchpiece",
    "#polyomino:6x-1:pentominoes",
    "#polyomino:abc",
    "#domino:aztec0",
    "#domino:3x3:9.9",
    "#domino:axb",
    "#queens:abc",
    "#queens:99",
    "#queens:8:9.9",
    "#nonsense:123",
    "#sudoku:%ZZ",
]


def test_bad_share_links_are_refused_in_a_sentence(shared_page) -> None:
    page = shared_page
    assert len(BAD_LINKS) >= 20
    for link in BAD_LINKS:
        go_to(page, link)
        kind = page.evaluate("document.querySelector('.panel:not([hidden])').dataset.kind")
        text = page.text_content(f"#{kind}-error .error-text")
        assert text[-1] in ".?" and text[0].isupper() and len(text) > 40, (link, text)
        whole = page.text_content(f"#{kind}-error")
        for leak in ("atob", "Puzzle.", "puzzle.", "[0]", "undefined", "NaN"):
            assert leak not in whole, (link, whole)
    # Refused when read: the board keeps the puzzle it had, and later links still work.
    go_to(page, "#queens:8:0.3")
    assert page.text_content("#queens-error") == ""


def go_to(page, fragment: str) -> None:
    """Follow a share link within the page and wait until the page has read it."""
    page.evaluate(
        """(fragment) => new Promise((done) => {
          addEventListener("hashchange", () => setTimeout(done, 0), {once: true});
          location.hash = fragment;
        })""",
        fragment,
    )


FOCUSED_ID = "() => document.activeElement ? document.activeElement.id : ''"


def tabs_to_reach(page, target: str, most: int = 80) -> int:
    """Tabs from the top of the page until target has the focus."""
    page.evaluate("() => { document.activeElement?.blur(); window.scrollTo(0, 0); }")
    page.focus("#tab-polyomino")
    for count in range(1, most + 1):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED_ID) == target:
            return count
    raise AssertionError(f"{target} not reached in {most} Tabs")


def test_the_piece_picker_is_one_tab_stop_and_solve_keeps_the_focus(shared_page) -> None:
    page = shared_page
    open_tab(page, "polyomino")
    page.select_option("#polyomino-preset", "6x10")
    in_picker = "() => Boolean(document.activeElement.closest('.piece-picker'))"
    page.focus("#polyomino-fill")
    page.keyboard.press("Tab")
    assert page.evaluate(in_picker)
    first = page.evaluate(FOCUSED_ID)
    # Arrows move within the picker; Space toggles the piece the focus is on.
    page.keyboard.press("ArrowRight")
    second = page.evaluate(FOCUSED_ID)
    assert second != first and page.evaluate(in_picker)
    pressed = page.get_attribute(f"#{second}", "aria-pressed")
    page.keyboard.press("Space")
    assert page.get_attribute(f"#{second}", "aria-pressed") != pressed
    page.keyboard.press("Space")
    # One more Tab leaves the picker; Shift+Tab comes back to the piece used last.
    page.keyboard.press("Tab")
    assert not page.evaluate(in_picker)
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(FOCUSED_ID) == second
    assert page.eval_on_selector_all(".piece-picker [tabindex='0']", "items => items.length") == 1
    # The keyboard reaches Solve and the board in a few Tabs (46 and 56 with a stop per piece;
    # the help line has a second link, to the guide's play section).
    assert tabs_to_reach(page, "polyomino-canvas") <= 31
    assert tabs_to_reach(page, "polyomino-solve") <= 33
    # Solve by keyboard: the focus stays on Solve (not the page's body) once the answer is in.
    page.keyboard.press("Enter")
    wait_idle(page)
    assert page.text_content("#polyomino-result") != ""
    assert page.evaluate(FOCUSED_ID) == "polyomino-solve"


def test_the_step_log_on_a_phone_caps_its_indent_and_wraps(phone_page) -> None:
    page = phone_page
    page.tap("#tab-polyomino")
    page.select_option("#polyomino-preset", "6x10")
    page.evaluate("document.getElementById('polyomino-trace').click()")
    wait_idle(page)
    page.wait_for_function("() => document.getElementById('polyomino-step-summary').textContent")
    # The deepest steps: jump to the first solution (every piece placed).
    page.evaluate("document.getElementById('polyomino-step-next-solution').click()")
    rows = page.eval_on_selector_all(
        "#polyomino-step-log .step-row",
        """rows => rows.map(row => {
          const words = row.querySelector('.step-words');
          return {depth: Number(row.querySelector('.step-depth').textContent),
                  indent: words.getBoundingClientRect().left - row.getBoundingClientRect().left,
                  clipped: words.scrollHeight > words.clientHeight + 1,
                  text: words.textContent};
        })""",
    )
    assert max(row["depth"] for row in rows) >= 10
    indents = {row["indent"] for row in rows}
    assert max(indents) - min(indents) <= 50, indents  # capped, whatever the depth
    # The words wrap instead of ending in "…": none of the rows in view is cut.
    assert not [row["text"] for row in rows if row["clipped"]]
    log = page.eval_on_selector("#polyomino-step-log", "log => [log.scrollWidth, log.clientWidth]")
    assert log[0] <= log[1]


def test_words_count_from_one_name_engines_by_title_and_skip_empty_counters(shared_page) -> None:
    page = shared_page
    open_tab(page, "sudoku")
    paste_on_board(page, CLASSIC)
    click_and_wait(page, "#sudoku-solve")
    stats = page.text_content("#sudoku-stats")
    # Solved by the default engine, named by its title: no search step to speak of, and no "0"
    # counter saying so.
    assert f"Engine: {masks.TITLE}" in stats, stats
    assert not re.search(r": 0(?![.,\d])", stats), stats
    # A grid that needs a search says how many steps it took.
    paste_on_board(page, "5" + "." * 80)
    click_and_wait(page, "#sudoku-solve")
    assert "Search steps: " in page.text_content("#sudoku-stats")
    open_tab(page, "shikaku")
    go_to(page, "#shikaku:2x4:0.0.4,1.3.4")
    page.check("#shikaku-heatmap")
    try:
        click_and_wait(page, "#shikaku-count")
        labels = page.locator("#shikaku-heatmap-key option").all_text_contents()
        assert labels[:2] == [
            "clue 1 (the 4 at row 1, column 1)",
            "clue 2 (the 4 at row 2, column 4)",
        ]
    finally:
        page.uncheck("#shikaku-heatmap")


def test_step_texts_count_rows_columns_and_clues_from_one(shared_page) -> None:
    page = shared_page
    open_tab(page, "shikaku")
    page.goto(page.url.split("#")[0] + "#shikaku:3x3:0.0.3,1.1.3,2.2.3")
    click_and_wait(page, "#shikaku-trace")
    logged = page.locator("#shikaku-step-log .step-words").all_text_contents()
    assert (
        "Split clue 1 (the 3 at row 1, column 1): the 1x3 rectangle at row 1, column 1, "
        "or the other one" in logged
    )
    open_tab(page, "domino")
    page.goto(page.url.split("#")[0] + "#domino:2x3")
    click_and_wait(page, "#domino-trace")
    assert page.text_content("#domino-step-text").startswith("The cell at row 1, column 1 swept:")
    for kind in ("shikaku", "domino"):
        logged = page.locator(f"#{kind}-step-log .step-words").all_text_contents()
        assert logged and not [
            text for text in logged if re.search(r"\(\d+, \d+\)|[Cc]lue 0\b", text)
        ]


def test_the_explore_section_starts_closed_and_remembers_a_choice(
    new_guarded_context, new_guarded_page, site_url
) -> None:
    context = new_guarded_context()
    page = new_guarded_page(context, explore_open=False)
    page.goto(site_url)
    open_tab(page, "sudoku")
    # A newcomer sees the puzzle and Solve; engine, trace, compare and heatmap are one click away.
    assert not page.locator("#sudoku-explore-options").evaluate("(details) => details.open")
    assert page.is_hidden("#sudoku-engine") and page.is_visible("#sudoku-solve")
    page.click("#sudoku-explore-options > summary")
    assert page.is_visible("#sudoku-engine")
    # Open on every tab, and on the next visit; closed again, it stays closed.
    open_tab(page, "shikaku")
    assert page.is_visible("#shikaku-trace")
    page.reload()
    open_tab(page, "sudoku")
    assert page.locator("#sudoku-explore-options").evaluate("(details) => details.open")
    page.click("#sudoku-explore-options > summary")
    page.reload()
    open_tab(page, "sudoku")
    assert page.is_hidden("#sudoku-engine")
    # A link that names an engine opens the section, where that engine shows.
    page.goto(site_url + "#domino:2x3&engine=formula")
    page.wait_for_selector("#domino-engine")
    assert page.is_visible("#domino-engine")
    assert page.input_value("#domino-engine") == "formula"


def test_the_domino_default_engine_says_what_it_does_for_the_board(shared_page) -> None:
    page = shared_page
    titles = {e["name"]: e["title"] for e in FACTS["kinds"]["domino"]["engines"]}
    formula, dp, cftp = titles["formula"], titles["profile_dp"], titles["cftp"]
    default_label = "#domino-engine option[value='']"
    open_tab(page, "domino")
    page.goto(page.url.split("#")[0] + "#domino:8x8")
    page.select_option("#domino-engine", "")
    # Two engines for this board: the menu says so, the hint under it names them.
    assert page.text_content(default_label) == "Default (depends on the board)"
    both = f"On this board: {formula} for counts, {dp} for random tilings."
    assert page.text_content("#domino-engine-hint") == both
    click_and_wait(page, "#domino-count")
    assert f"Engine: {formula}" in page.text_content("#domino-stats")
    # A hole: the DP does both.
    page.goto(page.url.split("#")[0] + "#domino:8x8:3.3,4.4")
    assert page.text_content(default_label) == f"Default ({dp})"
    # An Aztec diamond wider than the DP goes: coupling from the past draws its random tilings.
    page.goto(page.url.split("#")[0] + "#domino:aztec14")
    aztec = f"On this board: {dp} for counts, {cftp} for random tilings."
    assert page.text_content("#domino-engine-hint") == aztec


def test_a_count_with_the_heatmap_shows_what_it_finds_while_it_runs(shared_page) -> None:
    page = shared_page
    open_tab(page, "polyomino")
    page.select_option("#polyomino-preset", "3x20")
    page.select_option("#polyomino-symmetry", "all")
    page.check("#polyomino-heatmap")
    try:
        # Twice: the second count starts with the first one's heatmap on the board, which gives
        # way to the solutions found while it runs.
        for _ in range(2):
            page.evaluate(
                """() => {
                  window.recentSeen = false;
                  const text = document.getElementById("progress-text");
                  new MutationObserver(() => {
                    const shown = text.textContent.includes("board: a solution found");
                    if (shown) window.recentSeen = true;
                  }).observe(text, {childList: true, characterData: true, subtree: true});
                }"""
            )
            click_and_wait(page, "#polyomino-count")
            assert page.get_attribute("#polyomino-result", "data-count") == "8"
            assert page.evaluate("window.recentSeen")
            assert page.is_visible("#polyomino-heatmap-caption")
    finally:
        page.uncheck("#polyomino-heatmap")


def test_a_big_aztec_diamond_shows_progress_while_it_is_drawn(shared_page) -> None:
    page = shared_page
    open_tab(page, "domino")
    page.fill("#domino-aztec-order", "60")
    page.click("#domino-aztec")
    page.select_option("#domino-engine", "")
    page.evaluate(
        """() => {
          window.progressSeen = [];
          const text = document.getElementById("progress-text");
          new MutationObserver(() => window.progressSeen.push(text.textContent))
            .observe(text, {childList: true, characterData: true, subtree: true});
        }"""
    )
    click_and_wait(page, "#domino-random")
    assert page.text_content("#domino-error") == ""
    seen = page.evaluate("window.progressSeen")
    # The chains' coming together, as a share done, and the board drawn while they do.
    done = [float(m.group(1)) for text in seen if (m := re.match(r"([\d.]+)% done", text))]
    assert done and max(done) > 10, seen[-5:]
    assert any("board: a solution found" in text for text in seen), seen[-5:]


def test_a_31_digit_count_stays_on_one_line_on_a_phone(phone_page) -> None:
    page = phone_page
    page.evaluate("location.hash = '#domino:16x16'")
    page.wait_for_function("() => location.hash === '#domino:16x16'")
    page.evaluate("document.getElementById('domino-count').click()")
    wait_idle(page)
    digits = "2444888770250892795802079170816"
    assert page.get_attribute("#domino-result", "data-count") == digits
    lines = page.evaluate(
        """() => {
          const number = document.querySelector("#domino-result .exact-number > .digits");
          const box = document.getElementById("domino-result").getBoundingClientRect();
          const parts = [...number.getClientRects()];
          const size = parseFloat(getComputedStyle(number).fontSize);
          const tops = new Set(parts.map((p) => Math.round(p.top)));
          return {lines: tops.size, right: Math.max(...parts.map((p) => p.right)),
                  edge: box.right, size, text: number.textContent};
        }"""
    )
    assert lines["text"].replace(",", "") == digits
    assert lines["lines"] == 1 and lines["right"] <= lines["edge"] + 0.5, lines
    # Still readable: not shrunk below 11 px.
    assert lines["size"] >= 11, lines


def test_a_missing_wheel_is_named_now_that_pyodide_installs_it(
    shared_page, site_url, new_guarded_page
) -> None:
    # Pyodide's loader installs the wheel (no micropip): a wheel that is not there is still
    # named, with what to do, instead of an import error.
    page = new_guarded_page(shared_page.context)
    missing = lambda route: route.fulfill(status=404, body="no")  # noqa: E731
    page.route("**/wheels/pysolver_studio-*.whl", missing)
    try:
        page.goto(site_url)
        page.wait_for_function("() => document.body.dataset.state === 'error'", timeout=90_000)
        status = page.text_content("#status")
        assert status.startswith("Python failed to load: ")
        assert "/wheels/pysolver_studio-" in status and "404" in status, status
        assert "python3 build.py" in status, status
    finally:
        page.close()
