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


# In a board cell: the shade (a pixel near its top-left corner) and the ink of its number (the
# pixel of the cell's middle that stands out most from the shade), as WCAG contrast, with the shade.
CLUE_INK_JS = """async ([row, col]) => {
    const { cellBox } = await import("./kinds/shikaku/render.js");
    const canvas = document.getElementById("shikaku-canvas");
    const scale = canvas.width / Number(canvas.dataset.width);
    const [x, y, size] = cellBox({ rows: 2, cols: 4 }, row, col).map((value) => value * scale);
    const context = canvas.getContext("2d");
    const pixel = (px, py) => [
        ...context.getImageData(Math.round(px), Math.round(py), 1, 1).data.slice(0, 3),
    ];
    const luminance = (rgb) => {
        const linear = (v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
        const [r, g, b] = rgb.map((v) => linear(v / 255));
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const contrast = (a, b) => {
        const [light, dark] = [luminance(a), luminance(b)].sort((p, q) => q - p);
        return (light + 0.05) / (dark + 0.05);
    };
    const shade = pixel(x + 4 * scale, y + 4 * scale);
    let best = 1;
    for (let py = y + size * 0.2; py < y + size * 0.65; py++) {
        for (let px = x + size * 0.25; px < x + size * 0.75; px++) {
            best = Math.max(best, contrast(shade, pixel(px, py)));
        }
    }
    return { shade, contrast: best };
}"""


def test_heatmap_keeps_clue_numbers_readable_on_the_shade(shared_page) -> None:
    """A clue's number in a hot cell is written over the heatmap's red, not under it, so it
    keeps its contrast in light and dark mode."""
    page = shared_page
    open_tab(page, "shikaku")
    # Two 4s on a 2x4 board: two squares or two rows, and clue 0's own cell is in both.
    load_fragment(page, "#shikaku:2x4:0.0.4,1.3.4")
    page.check("#shikaku-heatmap")
    try:
        click_and_wait(page, "#shikaku-count")
        assert page.get_attribute("#shikaku-result", "data-count") == "2"
        page.select_option("#shikaku-heatmap-key", "0")
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.wait_for_function(
                "(s) => document.getElementById('shikaku-canvas').dataset.theme === s", arg=scheme
            )
            seen = page.evaluate(CLUE_INK_JS, [0, 0])
            red, green, _ = seen["shade"]
            assert red > green + 60, (
                f"{scheme}: clue 0's cell should be shaded red, got {seen['shade']}"
            )
            assert seen["contrast"] >= 4.5, (
                f"{scheme}: the clue's number is hard to read on the shade ({seen})"
            )
    finally:
        page.emulate_media(color_scheme="light")
        page.uncheck("#shikaku-heatmap")


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
