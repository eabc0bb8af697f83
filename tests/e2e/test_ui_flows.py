"""Page-wide flows: progress and Cancel, share links, JSON import/export, SVG export.

One page per module (``shared_page``); tests that need a page of their own open it with
``new_guarded_page``, guarded the same way against requests that leave the machine.
"""

from __future__ import annotations

import json
import time

from conftest import canvas_picture, wait_idle

from pysolver.kinds import kind_names

SUDOKU = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def test_long_count_shows_progress_and_cancels_within_a_second(shared_page) -> None:
    page = shared_page
    page.click("#tab-sudoku")
    page.click("#sudoku-clear")
    # Counting every completed 9x9 grid would take ages.
    page.click("#sudoku-count")
    assert page.is_visible("#progress")
    assert page.is_enabled("#cancel")
    assert page.is_disabled("#sudoku-solve")
    # Progress reports arrive: the nodes figure moves past zero.
    page.wait_for_function(
        "() => /nodes [1-9]/.test(document.getElementById('progress-text').textContent)",
        timeout=20_000,
    )
    text = page.text_content("#progress-text")
    assert "solutions" in text and " s" in text
    # The estimate of a huge tree is tiny: shown as a percentage, never in 1e-15 notation.
    assert "e-" not in text
    started = time.monotonic()
    page.click("#cancel")
    wait_idle(page, timeout_ms=5_000)
    stopped_after = time.monotonic() - started
    assert stopped_after < 1.5, f"Cancel took {stopped_after:.2f} s"
    assert page.is_hidden("#progress")
    assert page.text_content("#sudoku-result").startswith("Cancelled after")
    # The app is ready for the next solve.
    page.fill("#sudoku-paste", SUDOKU)
    page.click("#sudoku-load")
    page.wait_for_function(
        "() => !document.getElementById('sudoku-solve').disabled", timeout=60_000
    )
    page.click("#sudoku-solve")
    wait_idle(page)
    assert page.text_content("#sudoku-result") == "Unique solution."


def test_answer_for_a_puzzle_edited_mid_solve_is_not_drawn(shared_page) -> None:
    page = shared_page
    page.click("#tab-polyomino")
    page.select_option("#polyomino-preset", "6x10")
    empty = canvas_picture(page, "polyomino")
    # Queue the UI's solve behind a request that keeps the worker busy for a moment, so the
    # edit below surely lands while the solve is still running.
    page.evaluate(
        """() => { window.blocker = window.pysolver.solve({kind: "sudoku", mode: "count",
            limit: 20000, puzzle: {grid: ".".repeat(81)}}); }"""
    )
    page.click("#polyomino-solve")
    assert page.evaluate("document.body.dataset.state") == "busy"
    page.click("#polyomino-canvas", position={"x": 15, "y": 15})  # knock out a corner
    edited = canvas_picture(page, "polyomino")
    assert edited != empty
    wait_idle(page)
    page.evaluate("() => window.blocker")
    assert page.get_attribute("#polyomino-result", "data-stale") == "true"
    assert "edited while it was being solved" in page.text_content("#polyomino-result")
    assert page.is_hidden("#polyomino-next")
    # The edited board is left as it is: no tiling of the old board drawn over it.
    assert canvas_picture(page, "polyomino") == edited
    page.click("#polyomino-canvas", position={"x": 15, "y": 15})  # back to 6x10
    page.click("#polyomino-solve")
    wait_idle(page)
    assert page.text_content("#polyomino-result") == "1 tiling found."
    assert page.get_attribute("#polyomino-result", "data-stale") is None


def test_share_link_round_trips_in_a_new_page(shared_page, new_guarded_page) -> None:
    page = shared_page
    page.click("#tab-polyomino")
    page.select_option("#polyomino-preset", "hole")
    page.click("#polyomino-piece-O4")  # add the square: 64 - 4 + 4 cells, no longer balanced
    page.uncheck("#polyomino-reflections")
    page.click("#polyomino-canvas", position={"x": 15, "y": 15})  # knock out a corner
    page.select_option("#polyomino-engine", "dlx")
    page.click("#share")
    link = page.input_value("#share-url")
    assert "#polyomino:" in link
    picture = canvas_picture(page, "polyomino")

    other = new_guarded_page(page.context)
    try:
        other.goto(link)
        other.wait_for_selector("#polyomino-canvas")
        assert other.is_visible("#panel-polyomino")
        assert other.get_attribute("#polyomino-piece-O4", "aria-pressed") == "true"
        assert other.get_attribute("#polyomino-piece-F", "aria-pressed") == "true"
        assert not other.is_checked("#polyomino-reflections")
        assert other.input_value("#polyomino-engine") == "dlx"
        assert canvas_picture(other, "polyomino") == picture
        # A Sudoku fragment typed into the address bar restores on hashchange.
        other.evaluate(f"() => {{ location.hash = 'sudoku:{SUDOKU}'; }}")
        other.wait_for_function("() => !document.getElementById('panel-sudoku').hidden")
        assert other.input_value("#sudoku-paste") == SUDOKU
    finally:
        other.close()


def test_loading_state_then_load_failure_is_shown(shared_page, site_url, new_guarded_page) -> None:
    page = new_guarded_page(shared_page.context)
    # Break the runtime: the Python standard library never arrives.
    page.route("**/python_stdlib.zip", lambda route: route.abort("failed"))
    try:
        page.goto(site_url)
        page.wait_for_selector("#sudoku-solve", state="attached")
        assert page.is_disabled("#polyomino-solve")
        page.wait_for_function("() => document.body.dataset.state === 'error'", timeout=60_000)
        status = page.text_content("#status")
        assert status.startswith("Python failed to load: ")
        # Said once, in words: what failed and what to do.
        assert status.count("Python failed to load") == 1
        assert "[object" not in status and "python3 build.py" in status
        assert page.is_disabled("#polyomino-solve")
    finally:
        page.close()


def test_missing_facts_stop_the_page_with_a_clear_message(
    shared_page, site_url, new_guarded_page
) -> None:
    page = new_guarded_page(shared_page.context)
    page.route("**/facts.json", lambda route: route.fulfill(status=404, body="not found"))
    try:
        page.goto(site_url)
        page.wait_for_function("() => document.body.dataset.state === 'error'", timeout=30_000)
        status = page.text_content("#status")
        assert status.startswith("The page could not start: ")
        assert "facts.json answered 404" in status and "python3 build.py" in status
        # Python's later "Ready" does not hide it.
        page.evaluate("() => window.pysolver.ready")
        assert page.evaluate("document.body.dataset.state") == "error"
        assert page.locator("#tab-sudoku").count() == 0
    finally:
        page.close()


def test_a_kind_the_page_has_no_folder_for_is_named_and_the_others_work(
    shared_page, site_url, new_guarded_page
) -> None:
    # facts.json lists the tabs: a kind Python would list before the page has its folder
    # (web/kinds/KIND/), and a name no folder can have, come first here.
    def with_strangers(route) -> None:
        response = route.fetch()
        facts = response.json()
        stranger = facts["kinds"]["queens"]
        facts["kinds"] = {"nonesuch": stranger, "../app": stranger, **facts["kinds"]}
        route.fulfill(response=response, json=facts)

    page = new_guarded_page(shared_page.context)
    page.route("**/facts.json", with_strangers)
    try:
        page.goto(site_url)
        page.wait_for_selector("#kind-errors")
        words = page.text_content("#kind-errors")
        assert words.startswith("The page has no working tab for these puzzle kinds")
        assert '"nonesuch" (web/kinds/nonesuch/index.js): ' in words
        assert '"../app" (web/kinds/../app/index.js): that is not a name' in words
        assert "python3 build.py" in words
        # Every kind with its folder has its tab, in facts.json's order; the first one shows.
        tabs = page.eval_on_selector_all(".tabs [role=tab]", "tabs => tabs.map((t) => t.id)")
        assert tabs == [f"tab-{kind}" for kind in kind_names()]
        assert page.is_visible(f"#panel-{kind_names()[0]}")
        page.evaluate("() => window.pysolver.ready")
        page.click("#tab-queens")
        page.click("#queens-solve")
        wait_idle(page)
        assert page.get_attribute("#queens-result", "data-count")
        assert page.evaluate("document.body.dataset.state") == "ready"
    finally:
        page.close()


def test_bad_share_link_says_so(shared_page) -> None:
    page = shared_page
    page.evaluate("() => { location.hash = 'sudoku:12345'; }")
    page.wait_for_function("() => document.getElementById('sudoku-error').textContent !== ''")
    assert "could not be read" in page.text_content("#sudoku-error")


def test_json_export_then_import_restores_the_puzzle(shared_page, tmp_path) -> None:
    page = shared_page
    page.click("#tab-sudoku")
    page.fill("#sudoku-paste", SUDOKU)
    page.click("#sudoku-load")
    page.select_option("#sudoku-engine", "bitset")
    with page.expect_download() as download_info:
        page.click("#export-json")
    saved = tmp_path / "sudoku.json"
    download_info.value.save_as(saved)
    request = json.loads(saved.read_text())
    assert request["kind"] == "sudoku"
    assert request["puzzle"]["grid"] == SUDOKU
    assert request["engine"] == "bitset"

    page.click("#sudoku-clear")
    page.select_option("#sudoku-engine", "")
    assert page.input_value("#sudoku-paste") == "." * 81
    page.set_input_files("#import-json", str(saved))
    page.wait_for_function(f"() => document.getElementById('sudoku-paste').value === '{SUDOKU}'")
    assert page.input_value("#sudoku-engine") == "bitset"
    page.wait_for_function("location.hash.endsWith('&engine=bitset')", timeout=5000)


def test_svg_and_png_export_draw_the_board(
    shared_page, site_url, tmp_path, new_guarded_page
) -> None:
    # A page of its own: Chromium throttles a page that starts many downloads.
    page = new_guarded_page(shared_page.context)
    try:
        page.goto(site_url)
        page.wait_for_selector("#export-svg")
        for kind in kind_names():
            page.click(f"#tab-{kind}")
            with page.expect_download() as download_info:
                page.click("#export-svg")
            saved = tmp_path / f"{kind}.svg"
            download_info.value.save_as(saved)
            svg = saved.read_text()
            assert svg.startswith("<svg"), kind
            # The same draw function ran on the SVG backend: a background and the board's shapes.
            assert svg.count("<rect") + svg.count("<line") > 5, kind
            # The editing cursor (a pale yellow cell in Sudoku and Shikaku) is not exported.
            assert "#fff3b0" not in svg, kind
        with page.expect_download() as png_info:
            page.click("#export-png")
        png = tmp_path / "exact_cover.png"
        png_info.value.save_as(png)
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    finally:
        page.close()


def test_narrow_screen_fits_boards_and_hits_the_right_cell(
    shared_page, site_url, new_guarded_page
) -> None:
    page = new_guarded_page(shared_page.context)
    page.set_viewport_size({"width": 400, "height": 800})
    try:
        page.goto(site_url)
        page.wait_for_selector("#sudoku-canvas", state="attached")
        for kind in kind_names():
            page.click(f"#tab-{kind}")
            widths = page.evaluate(
                """(kind) => [document.documentElement.scrollWidth,
                    document.getElementById(`${kind}-canvas`).getBoundingClientRect().right]""",
                kind,
            )
            assert widths[0] <= 400 and widths[1] <= 400, (kind, widths)
        # A 16x16 Sudoku is drawn smaller than its natural size; a click still finds its cell.
        page.click("#tab-sudoku")
        page.select_option("#sudoku-size", "16")
        box = page.locator("#sudoku-canvas").bounding_box()
        assert box["width"] < 16 * 30
        corner = {"x": box["width"] - 12, "y": box["height"] - 12}
        page.click("#sudoku-canvas", position=corner)  # scrolls the board into view first
        page.keyboard.type("G")
        assert page.input_value("#sudoku-paste") == "." * 255 + "G"
    finally:
        page.close()
