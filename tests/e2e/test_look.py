"""Look and loading: dark mode for the page and the boards (exports stay light unless asked),
loading progress while Pyodide downloads, the file:// explanation, and each tab's help text."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest
from conftest import guarded_context, load_app, new_page

from pysolver.facts import site_facts

ROOT = Path(__file__).resolve().parents[2]
DARK_PAPER = (22, 25, 29)  # style.css --dark-paper, #16191d
DARK_INK = (230, 233, 237)  # style.css --dark-ink, #e6e9ed
WHITE = (255, 255, 255)

# The colour of a board canvas's top-left pixel (inside its margin: the paper).
CANVAS_PIXEL_JS = """(id) => {
    const canvas = document.getElementById(id);
    const [r, g, b] = canvas.getContext("2d").getImageData(1, 1, 1, 1).data;
    return [r, g, b];
}"""

# The top-left pixel of a PNG given as base64, decoded by the browser.
PNG_PIXEL_JS = """async (data) => {
    const image = new Image();
    image.src = `data:image/png;base64,${data}`;
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext("2d");
    context.drawImage(image, 0, 0);
    const [r, g, b] = context.getImageData(1, 1, 1, 1).data;
    return [r, g, b];
}"""

# Everything the status line and the loading bar show while the page loads, recorded from the
# very start (before the page's own scripts run).
RECORD_LOADING_JS = """
window.loadingLog = {texts: [], values: []};
new MutationObserver(() => {
    const status = document.getElementById("status");
    const bar = document.getElementById("load-progress");
    if (status) window.loadingLog.texts.push(status.textContent);
    if (bar && !bar.hidden && bar.hasAttribute("value")) window.loadingLog.values.push(bar.value);
}).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
"""


def rgb(css: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", css)[:3])


def body_background(page) -> tuple[int, ...]:
    return rgb(page.evaluate("getComputedStyle(document.body).backgroundColor"))


def download_text(page, button: str) -> bytes:
    with page.expect_download() as download:
        page.click(button)
    return Path(download.value.path()).read_bytes()


@pytest.fixture(scope="module")
def dark_page(browser, site_url):
    with guarded_context(browser, color_scheme="dark") as context:
        yield load_app(new_page(context), site_url)


def test_dark_mode_page_and_board(dark_page) -> None:
    assert body_background(dark_page) == DARK_PAPER
    dark_page.click("#tab-sudoku")
    assert dark_page.get_attribute("#sudoku-canvas", "data-theme") == "dark"
    assert tuple(dark_page.evaluate(CANVAS_PIXEL_JS, "sudoku-canvas")) == DARK_PAPER
    # Text stays readable: the heading is light ink on the dark paper.
    ink = rgb(dark_page.evaluate("getComputedStyle(document.querySelector('h1')).color"))
    assert ink == DARK_INK


def luminance(colour: tuple[int, ...]) -> float:
    """Relative luminance (WCAG) of an sRGB colour, 0 for black to 1 for white."""
    channels = [value / 255 for value in colour]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: tuple[int, ...], second: tuple[int, ...]) -> float:
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_dark_mode_step_log_is_dark_and_readable(dark_page) -> None:
    """The Step view's list of steps follows the theme: dark paper, and every kind of step row
    (try, force, plain, the current one) readable on it (WCAG AA, 4.5:1)."""
    dark_page.click("#tab-polyomino")
    dark_page.click("#polyomino-trace")
    dark_page.wait_for_selector("#polyomino-step-log .step-row")
    log = "#polyomino-step-log"
    assert rgb(dark_page.eval_on_selector(log, "e => getComputedStyle(e).backgroundColor")) == (
        DARK_PAPER
    )
    rows = dark_page.eval_on_selector_all(
        f"{log} .step-row",
        """rows => rows.slice(0, 12).map((row) => {
            const style = getComputedStyle(row);
            const background = style.backgroundColor === 'rgba(0, 0, 0, 0)'
                ? getComputedStyle(row.closest('.step-log')).backgroundColor
                : style.backgroundColor;
            return [style.color, background];
        })""",
    )
    assert rows
    for ink, paper in rows:
        assert contrast(rgb(ink), rgb(paper)) >= 4.5, (ink, paper)


def test_dark_mode_exports_stay_light_unless_asked(dark_page) -> None:
    dark_page.click("#tab-sudoku")
    svg = download_text(dark_page, "#export-svg").decode()
    assert 'fill="#ffffff"' in svg, "the SVG export's paper should be white"
    png = base64.b64encode(download_text(dark_page, "#export-png")).decode()
    assert tuple(dark_page.evaluate(PNG_PIXEL_JS, png)) == WHITE
    dark_page.check("#export-dark")
    try:
        dark_svg = download_text(dark_page, "#export-svg").decode()
        assert 'fill="#16191d"' in dark_svg, "the dark SVG export's paper should be dark"
        png = base64.b64encode(download_text(dark_page, "#export-png")).decode()
        assert tuple(dark_page.evaluate(PNG_PIXEL_JS, png)) == DARK_PAPER
    finally:
        dark_page.uncheck("#export-dark")


def test_light_mode_and_switching_to_dark_redraws_the_board(app_page) -> None:
    assert body_background(app_page) == WHITE
    assert tuple(app_page.evaluate(CANVAS_PIXEL_JS, "polyomino-canvas")) == WHITE
    app_page.emulate_media(color_scheme="dark")
    app_page.wait_for_function(
        "() => document.getElementById('polyomino-canvas').dataset.theme === 'dark'"
    )
    assert body_background(app_page) == DARK_PAPER
    assert tuple(app_page.evaluate(CANVAS_PIXEL_JS, "polyomino-canvas")) == DARK_PAPER


def test_loading_progress_is_shown_in_bytes(context, site_url, new_guarded_page) -> None:
    page = new_guarded_page(context)
    page.add_init_script(RECORD_LOADING_JS)
    load_app(page, site_url)
    log = page.evaluate("window.loadingLog")
    downloads = [
        text
        for text in log["texts"]
        if re.fullmatch(r"Loading Python: downloading .+ \(\d+\.\d of \d+\.\d MB\)…", text)
    ]
    assert any("the Python runtime" in text for text in downloads), log["texts"]
    assert any("the standard library" in text for text in downloads), log["texts"]
    partial = [value for value in log["values"] if 0 < value < 1]
    assert partial, f"the loading bar never showed partial progress: {log['values']}"
    assert page.is_hidden("#load-progress")
    assert page.text_content("#status") == "Ready"


def test_opened_from_a_file_the_page_says_how_to_serve_it(
    context, built_site, new_guarded_page
) -> None:
    page = new_guarded_page(context)
    page.goto((ROOT / "dist" / "index.html").as_uri())
    status = page.locator("#status")
    assert "served" in status.text_content()
    assert status.get_attribute("data-state") == "error"
    assert "python3 build.py serve" in page.text_content("#file-help")
    assert page.is_hidden("#load-progress")


def test_each_tab_says_what_its_puzzle_is_and_links_to_the_guide(
    shared_page, site_url, new_guarded_page
) -> None:
    kinds = site_facts()["kinds"]
    for kind, facts in kinds.items():
        shared_page.click(f"#tab-{kind}")
        help_text = shared_page.locator(f"#{kind}-help")
        assert help_text.is_visible(), kind
        assert facts["help"] in help_text.text_content(), kind
        href = help_text.locator("a").first.get_attribute("href")  # then, to play: its section
        anchor = facts["title"].lower().replace(" ", "-")
        assert href == f"guide.html#{anchor}", href
    # The guide for people using the page (docs/guide.md), not the developers' README.
    readme = new_guarded_page(shared_page.context)
    readme.goto(f"{site_url}guide.html")
    for facts in kinds.values():
        anchor = facts["title"].lower().replace(" ", "-")
        assert readme.locator(f"h3#{anchor}").text_content() == facts["title"]
    readme.close()


def test_dark_theme_turns_lightness_around_and_keeps_hue(shared_page) -> None:
    mapped = shared_page.evaluate(
        """async () => {
            const { makeDarkTheme, parseColour, lightTheme } = await import("./render/theme.js");
            const dark = makeDarkTheme("#16191d", "#e6e9ed");
            const pick = (text) => parseColour(dark.colour(text));
            return {
                paper: dark.colour("#ffffff"), ink: dark.colour("#000"),
                light: lightTheme.colour("#fff3b0"),
                greys: ["#eeeeee", "#999999", "#333333"].map((c) => pick(c)[2]),
                red: pick("hsl(0 70% 72%)"), blue: pick("#1d5fd1"),
                unknown: dark.colour("currentColor"),
            };
        }"""
    )
    assert mapped["paper"] == "#16191d" and mapped["ink"] == "#e6e9ed"
    assert mapped["light"] == "#fff3b0"
    light, middle, dark = mapped["greys"]
    assert light < middle < dark  # order turned around, so contrast survives
    assert mapped["red"][0] == 0 and mapped["red"][2] < 0.5
    assert abs(mapped["blue"][0] - 218) < 1
    assert mapped["unknown"] == "currentColor"


# A stand-in worker that reports loading progress every 300 ms for 2 s, then is ready; or one
# that never says anything.
SLOW_WORKER = """
self.onmessage = async () => {
    for (let loaded = 0; loaded < 7; loaded++) {
        self.postMessage({type: "loading", text: "downloading", loaded, total: 7});
        await new Promise((resolve) => setTimeout(resolve, 300));
    }
    self.postMessage({type: "ready", info: {}});
};
"""

LOAD_WITH_TIMEOUT_JS = """async ([source, timeoutMs]) => {
    const { createSolver } = await import("./runtime/solver.js");
    const workerURL = URL.createObjectURL(new Blob([source], {type: "text/javascript"}));
    const solver = createSolver({workerURL, loadTimeoutMs: timeoutMs});
    try {
        await solver.ready;
        return "ready";
    } catch (error) {
        return error.message;
    }
}"""


def test_the_load_timeout_counts_from_the_last_progress(shared_page) -> None:
    # 2 s of steady progress outlasts a 1 s timeout: only silence ends the load.
    assert shared_page.evaluate(LOAD_WITH_TIMEOUT_JS, [SLOW_WORKER, 1000]) == "ready"
    message = shared_page.evaluate(LOAD_WITH_TIMEOUT_JS, ["", 1000])
    assert message.startswith("Python did not load: nothing happened for 1 s")
    assert "python3 build.py serve" in message
