"""Watching the search in the page: the Step view plays traces on the board, heatmaps draw over
it, engines run side by side, and big random domino tilings come from coupling from the past.

One page per module (``shared_page``: Pyodide loads once); each test opens its tab and sets up
its own puzzle, so their order does not matter.
"""

from __future__ import annotations

from conftest import canvas_picture, open_tab

from pysolver.facts import site_facts

SOLVE_TIMEOUT_MS = 90_000

# The 12x12 Shikaku seed puzzle (its clues as [row, col, number]); its trace opens with the
# candidate story 345, 218, 156, 140.
SEED12_CLUES = [
    [8, 0, 10], [4, 8, 9], [0, 7, 8], [1, 3, 8], [6, 5, 8], [7, 7, 8], [9, 8, 5], [9, 11, 6],
    [10, 4, 6], [11, 3, 6], [11, 9, 4], [1, 9, 6], [3, 0, 6], [3, 6, 6], [4, 3, 6], [4, 11, 6],
    [6, 0, 6], [6, 10, 6], [7, 2, 6], [8, 9, 6], [9, 2, 6], [9, 6, 6],
]  # fmt: skip


def click_and_wait(page, selector: str) -> None:
    page.click(selector)
    page.wait_for_function("() => document.body.dataset.state !== 'busy'", timeout=SOLVE_TIMEOUT_MS)


def load_fragment(page, fragment: str) -> None:
    page.evaluate("(fragment) => { location.hash = fragment; }", fragment)
    page.wait_for_function("(f) => decodeURIComponent(location.hash) === f", arg=fragment)


def trace_3x20(page) -> None:
    open_tab(page, "polyomino")
    page.select_option("#polyomino-preset", "3x20")
    click_and_wait(page, "#polyomino-trace")
    assert page.text_content("#polyomino-error") == ""
    assert page.is_visible("#polyomino-step-log")


def test_step_view_plays_a_3x20_pentomino_trace_to_its_solution(shared_page) -> None:
    page = shared_page
    trace_3x20(page)
    total = int(page.get_attribute("#polyomino-step-slider", "max")) + 1
    assert page.text_content("#polyomino-step-position") == f"Step 1 of {total:,}"
    assert "fewest options" in page.text_content("#polyomino-step-text")
    # Every step from the first placement on changes the board: a piece tried, a cell chosen,
    # a choice taken back.
    before = canvas_picture(page, "polyomino")
    for number in range(2, 18):
        page.click("#polyomino-step-forward")
        assert page.text_content("#polyomino-step-position") == f"Step {number} of {total:,}"
        now = canvas_picture(page, "polyomino")
        assert now != before, f"step {number} drew nothing new"
        before = now
    page.click("#polyomino-step-back")
    assert page.text_content("#polyomino-step-position") == f"Step 16 of {total:,}"
    # Played at full speed it reaches the solution at the end of the trace, and stops there.
    page.select_option("#polyomino-step-speed", "1000")
    page.click("#polyomino-step-play")
    page.wait_for_function(
        "() => document.getElementById('polyomino-step-play').textContent.includes('Play')",
        timeout=30_000,
    )
    assert page.text_content("#polyomino-step-position") == f"Step {total:,} of {total:,}"
    assert page.text_content("#polyomino-step-text").startswith("Solution 1")
    assert page.get_attribute("#polyomino-step-text", "data-type") == "solution"
    current = page.text_content("#polyomino-step-log [aria-current='step']")
    assert "Solution 1" in current
    # Back to the start, then straight to the solution.
    page.click("#polyomino-step-first")
    page.click("#polyomino-step-next-solution")
    assert page.text_content("#polyomino-step-text").startswith("Solution 1")
    solved = canvas_picture(page, "polyomino")
    page.click("#polyomino-step-close")
    assert page.is_hidden("#polyomino-step-log")
    assert canvas_picture(page, "polyomino") != solved


def test_shikaku_seed_trace_tells_the_candidate_story(shared_page) -> None:
    page = shared_page
    open_tab(page, "shikaku")
    # In reading order, as the page writes the link back.
    clues = ",".join(f"{r}.{c}.{n}" for r, c, n in sorted(SEED12_CLUES))
    load_fragment(page, f"#shikaku:12x12:{clues}")
    click_and_wait(page, "#shikaku-trace")
    assert page.text_content("#shikaku-error") == ""
    rows = page.locator("#shikaku-step-log .step-row").all_text_contents()
    story = [
        "345 rectangles have a clue's area",
        "leaves 218",
        "156 left",
        "140 left",
    ]
    for row, words in zip(rows[:4], story, strict=True):
        assert words in row
    for number, words in enumerate(story, start=1):
        assert page.text_content("#shikaku-step-position").startswith(f"Step {number} of")
        assert words in page.text_content("#shikaku-step-text")
        page.click("#shikaku-step-forward")
    # Forward to the first split: the clue's surviving rectangles are drawn as outlines.
    for _ in range(20):
        before = canvas_picture(page, "shikaku")
        if page.text_content("#shikaku-step-text").startswith("Split"):
            break
        page.click("#shikaku-step-forward")
    assert page.text_content("#shikaku-step-text").startswith("Split")
    page.click("#shikaku-step-forward")
    assert page.text_content("#shikaku-step-text").startswith("First part")
    assert canvas_picture(page, "shikaku") != before
    page.click("#shikaku-step-next-solution")
    assert page.text_content("#shikaku-step-text").startswith("Solution 1")


def test_heatmap_draws_where_a_piece_lies(shared_page) -> None:
    page = shared_page
    open_tab(page, "polyomino")
    page.select_option("#polyomino-preset", "3x20")
    page.select_option("#polyomino-symmetry", "all")
    board = canvas_picture(page, "polyomino")
    page.check("#polyomino-heatmap")
    click_and_wait(page, "#polyomino-count")
    assert page.get_attribute("#polyomino-result", "data-count") == "8"
    options = page.locator("#polyomino-heatmap-key option").all_text_contents()
    assert len(options) == 12 and "piece I" in options
    caption = page.text_content("#polyomino-heatmap-caption")
    assert "8 solutions" in caption
    first = canvas_picture(page, "polyomino")
    assert first != board
    page.select_option("#polyomino-heatmap-key", label="piece I")
    assert "piece I" in page.text_content("#polyomino-heatmap-caption")
    assert canvas_picture(page, "polyomino") != first
    # With symmetry "distinct" the caption says what is counted.
    page.select_option("#polyomino-symmetry", "distinct")
    click_and_wait(page, "#polyomino-count")
    assert page.get_attribute("#polyomino-result", "data-count") == "2"
    assert "distinct" in page.text_content("#polyomino-heatmap-caption")
    page.uncheck("#polyomino-heatmap")


def test_engines_side_by_side_list_every_engine(shared_page) -> None:
    page = shared_page
    kinds = site_facts()["kinds"]
    open_tab(page, "sudoku")
    page.click("#sudoku-compare")  # one solve per engine, one after the other
    page.wait_for_function(
        "() => document.getElementById('sudoku-compare-verdict').textContent !== ''",
        timeout=SOLVE_TIMEOUT_MS,
    )
    names = page.locator("#sudoku-compare-table tbody tr").evaluate_all(
        "(rows) => rows.map((row) => row.dataset.engine)"
    )
    assert names == [engine["name"] for engine in kinds["sudoku"]["engines"]]
    assert page.get_attribute("#sudoku-compare-verdict", "data-agree") == "true"
    dlx = page.locator("#sudoku-compare-table tr[data-engine='dlx']").text_content()
    assert "updates" in dlx
    # Dominoes, counted: cftp only samples, so its row says so instead of running.
    open_tab(page, "domino")
    page.select_option("#domino-compare-mode", "count")
    page.click("#domino-compare")
    page.wait_for_function(
        "() => document.getElementById('domino-compare-verdict').textContent !== ''",
        timeout=SOLVE_TIMEOUT_MS,
    )
    names = page.locator("#domino-compare-table tbody tr").evaluate_all(
        "(rows) => rows.map((row) => row.dataset.engine)"
    )
    assert names == [engine["name"] for engine in kinds["domino"]["engines"]]
    assert "not for count mode" in page.text_content("#domino-compare-table tr[data-engine='cftp']")
    assert page.get_attribute("#domino-compare-verdict", "data-agree") == "true"


def test_cftp_is_offered_for_random_tilings_only_and_draws_an_aztec_diamond(shared_page) -> None:
    page = shared_page
    open_tab(page, "domino")
    page.select_option("#domino-engine", "cftp")
    assert page.is_disabled("#domino-count") and page.is_enabled("#domino-random")
    assert page.is_disabled("#domino-trace")
    page.select_option("#domino-engine", "")
    assert page.is_enabled("#domino-count")
    page.fill("#domino-aztec-order", "14")
    page.click("#domino-aztec")
    assert decoded_hash(page) == "#domino:aztec14"
    empty = canvas_picture(page, "domino")
    # 28 cells across: beyond the profile DP, so the default engine is cftp.
    click_and_wait(page, "#domino-random")
    assert page.text_content("#domino-error") == ""
    cftp = next(e for e in site_facts()["kinds"]["domino"]["engines"] if e["name"] == "cftp")
    assert f"Engine: {cftp['title']}" in page.text_content("#domino-stats")
    assert canvas_picture(page, "domino") != empty


def test_domino_trace_draws_the_dp_sweep(shared_page) -> None:
    page = shared_page
    open_tab(page, "domino")
    page.click("#domino-clear")
    page.fill("#domino-rows", "4")
    page.dispatch_event("#domino-rows", "change")
    page.fill("#domino-cols", "4")
    page.dispatch_event("#domino-cols", "change")
    click_and_wait(page, "#domino-trace")
    assert "frontier profiles" in page.text_content("#domino-step-text")
    before = canvas_picture(page, "domino")
    page.click("#domino-step-forward")
    assert canvas_picture(page, "domino") != before
    page.click("#domino-step-next-solution")
    assert page.text_content("#domino-step-text") == "Tiling 1 of 36"
    # Editing the puzzle closes the trace: it was for the board as it was.
    page.click("#domino-canvas", position={"x": 20, "y": 20})
    assert page.is_hidden("#domino-step-log")


def decoded_hash(page) -> str:
    return page.evaluate("() => decodeURIComponent(location.hash)")
