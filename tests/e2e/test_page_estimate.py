"""The page's "Estimate count" (web/watch/estimate.js): Knuth's estimate before a count, in words,
with the time on one worker and on the page's workers; the next count's progress line shows its
steps against the estimate; a count still running after a moment shows the estimate without the
button (asked of a worker of its own); a tab whose kind has no search tree (dominoes) offers no
estimate.
"""

from __future__ import annotations

from conftest import click_and_wait, open_tab, set_input, wait_idle

from pysolver import solve


def test_an_estimate_in_words_and_the_count_against_it(shared_page) -> None:
    page = shared_page
    open_tab(page, "queens")
    page.click("#queens-clear")
    # A small board: the timing run counts it whole, and the page says the exact figures.
    set_input(page, "#queens-n", "6")
    click_and_wait(page, "#queens-estimate")
    text = page.text_content("#queens-estimate-text")
    exact = solve({"kind": "queens", "mode": "count", "puzzle": {"n": 6}})
    assert text.startswith("Counted whole while timing the "), text
    assert f"{exact['stats']['nodes']:,} search steps, 4 solutions" in text, text
    # A bigger one: estimated by random paths, with the time on 1 worker.
    set_input(page, "#queens-n", "12")
    assert page.locator("#queens-estimate-text").is_hidden()  # the edit dropped the estimate
    click_and_wait(page, "#queens-estimate")
    text = page.text_content("#queens-estimate-text")
    assert text.startswith("About ") and "search steps and" in text, text
    assert "random paths" in text and "a count takes" in text and "on 1 worker" in text, text
    # The count shows its steps against the estimate while it runs.
    page.click("#queens-count")
    page.wait_for_function(
        "() => / of about [0-9,]+ estimated/.test("
        "document.getElementById('progress-text').textContent)",
        timeout=20_000,
    )
    wait_idle(page)
    assert page.get_attribute("#queens-result", "data-count") == "14200"


def test_a_long_count_shows_the_estimate_unasked(shared_page) -> None:
    page = shared_page
    # A short count answers without an estimate.
    open_tab(page, "queens")
    set_input(page, "#queens-n", "7")
    click_and_wait(page, "#queens-count")
    assert page.get_attribute("#queens-result", "data-count") == "40"
    page.wait_for_timeout(2_500)
    assert page.locator("#queens-estimate-text").is_hidden()
    open_tab(page, "polyomino")
    page.select_option("#polyomino-preset", "scott")  # 8x8 + 2x2 square: a long count
    page.select_option("#polyomino-symmetry", "all")
    # The default count engine (memo) counts sub-problems, a tree no estimate follows: bitset's.
    page.select_option("#polyomino-engine", "bitset")
    assert page.locator("#polyomino-estimate-text").is_hidden()
    page.click("#polyomino-count")
    # Nothing at first: a short count never waits for an estimate.
    assert page.locator("#polyomino-estimate-text").is_hidden()
    page.wait_for_function(
        "() => / of about [0-9,]+ estimated/.test("
        "document.getElementById('progress-text').textContent)",
        timeout=90_000,
    )
    text = page.text_content("#polyomino-estimate-text")
    assert text.startswith("About ") and "a count takes about" in text, text
    assert "on 1 worker" in text, text
    assert page.get_attribute("body", "data-state") == "busy"  # the count went on meanwhile
    page.click("#cancel")
    wait_idle(page, 10_000)
    assert page.text_content("#status") == "Ready (last solve cancelled)"
    # The estimate stays for the next count of the same puzzle.
    assert page.is_visible("#polyomino-estimate-text")


def test_dominoes_offer_no_estimate(shared_page) -> None:
    page = shared_page
    open_tab(page, "domino")
    assert page.query_selector("#domino-estimate") is None
    assert page.query_selector("#queens-estimate") is not None
