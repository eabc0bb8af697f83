"""The page's "Estimate count" (web/watch/estimate.js): Knuth's estimate before a count, in words,
with the time on one worker and on the page's workers; the next count's progress line shows its
steps against the estimate; a tab whose kind has no search tree (dominoes) offers no estimate.
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


def test_dominoes_offer_no_estimate(shared_page) -> None:
    page = shared_page
    open_tab(page, "domino")
    assert page.query_selector("#domino-estimate") is None
    assert page.query_selector("#queens-estimate") is not None
