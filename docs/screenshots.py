"""Take the README's screenshots of the page (docs/*.png) in Debian's Chromium.

    .venv/bin/python docs/screenshots.py

Builds dist/, serves it on a free 127.0.0.1 port and writes:
- docs/screenshot.png: 1280x900, light, the 6x10 pentomino rectangle solved;
- docs/phone.png: 390x844 (a phone), light, a Sudoku solved, as the page shows it after Solve;
- docs/dark.png: 1280x900, dark mode, the 6x10 pentomino rectangle solved;
and, for looking at the page's play mode (docs/screenshots/, which git ignores), at 1280x900,
390x844 (a phone) and 1280x900 dark each:
- new-<width>[-dark].png: New puzzle made a 6x6 jigsaw Sudoku (a variant), ready to play;
- hint-<width>[-dark].png: a hard 9x9 Sudoku in play after Hint (its cells tinted, its words
  said);
- explain-<width>[-dark].png: Explain's first step that removes candidates, beside (on a phone,
  under) the board: the candidates left drawn, those it removes struck through, the cells it
  names tinted.
``docs/screenshots.py play`` takes only the play-mode ones.
Needs what ``python3 build.py test`` installs (.venv with Playwright, Chromium).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.browser import CHROMIUM, CHROMIUM_ARGS, guard, start_server  # noqa: E402
from buildtools.server import make_server  # noqa: E402
from buildtools.site import build_site  # noqa: E402
from pysolver import solve  # noqa: E402

DOCS = ROOT / "docs"
PLAY_SHOTS = DOCS / "screenshots"
READY_TIMEOUT_MS = 120_000
# The hard Sudoku of the play shots (its path removes candidates early).
HARD_SEED = 2
SUDOKU = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def solved_page(browser, url: str, solve_button: str, result: str, **context_options):
    context = browser.new_context(**context_options)
    blocked = guard(context)
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("() => window.pysolver && window.pysolver.ready")
    page.evaluate("window.pysolver.ready")
    # The header's "Works offline" note shows once the service worker keeps the site.
    page.wait_for_function(
        "() => document.documentElement.dataset.offline === 'ready'", timeout=READY_TIMEOUT_MS
    )
    page.click(solve_button)
    page.wait_for_function(
        f"() => document.querySelector('{result}').dataset.count !== undefined",
        timeout=READY_TIMEOUT_MS,
    )
    if blocked:
        raise RuntimeError(f"requests tried to leave the machine: {blocked}")
    return context, page


def play_shots(browser, url: str) -> None:
    """The play-mode screenshots (the module's docstring lists them) in docs/screenshots/."""
    PLAY_SHOTS.mkdir(exist_ok=True)
    looks = (
        ("1280", {"viewport": {"width": 1280, "height": 900}}),
        (
            "390",
            {
                "viewport": {"width": 390, "height": 844},
                "device_scale_factor": 2,
                "is_mobile": True,
                "has_touch": True,
            },
        ),
        ("1280-dark", {"viewport": {"width": 1280, "height": 900}, "color_scheme": "dark"}),
    )
    for look, options in looks:
        context = browser.new_context(service_workers="block", **options)
        blocked = guard(context)
        page = context.new_page()
        page.goto(url + "#sudoku")
        page.wait_for_function(
            "() => document.body.dataset.state === 'ready'", timeout=READY_TIMEOUT_MS
        )
        idle = "() => document.body.dataset.state === 'ready'"
        # New puzzle: a jigsaw, the variant chosen in the New puzzle box.
        page.select_option("#sudoku-new-variant", "jigsaw")
        page.select_option("#sudoku-new-size", "6")
        page.fill("#sudoku-new-seed", "3")
        page.click("#sudoku-new")
        page.wait_for_selector("#sudoku-play-bar", state="visible")
        page.wait_for_function(idle, timeout=READY_TIMEOUT_MS)
        page.locator("#sudoku-new").scroll_into_view_if_needed()
        page.screenshot(path=str(PLAY_SHOTS / f"new-{look}.png"))
        # Hint on a hard 9x9 (the page scrolls the board into view).
        page.select_option("#sudoku-new-variant", "standard")
        page.select_option("#sudoku-new-size", "9")
        page.select_option("#sudoku-new-difficulty", "hard")
        page.fill("#sudoku-new-seed", str(HARD_SEED))
        page.click("#sudoku-new")
        page.wait_for_function(idle, timeout=READY_TIMEOUT_MS)
        page.locator("#sudoku-play-hint").scroll_into_view_if_needed()
        page.click("#sudoku-play-hint")
        page.wait_for_function(
            "() => /^Hint/.test(document.getElementById('sudoku-play-status').textContent)",
            timeout=READY_TIMEOUT_MS,
        )
        page.screenshot(path=str(PLAY_SHOTS / f"hint-{look}.png"))
        # Explain, at its first step that removes candidates (the Step view counts each
        # placement as a step).
        page.locator("#sudoku-play-explain").scroll_into_view_if_needed()
        page.click("#sudoku-play-explain")
        page.wait_for_selector("#sudoku-step-text", state="visible", timeout=READY_TIMEOUT_MS)
        made = solve(
            {
                "kind": "sudoku",
                "mode": "generate",
                "seed": HARD_SEED,
                "difficulty": "hard",
                "puzzle": {"size": 9},
            }
        )
        steps = solve({"kind": "sudoku", "mode": "explain", "puzzle": made["puzzle"]})["steps"]
        first = next(i for i, step in enumerate(steps) if step["eliminate"])
        shown = sum(max(1, len(step["place"])) for step in steps[:first])
        page.eval_on_selector(
            "#sudoku-step-slider",
            "(slider, at) => { slider.value = String(at);"
            " slider.dispatchEvent(new Event('input')); }",
            shown,
        )
        page.screenshot(path=str(PLAY_SHOTS / f"explain-{look}.png"))
        if blocked:
            raise RuntimeError(f"requests tried to leave the machine: {blocked}")
        for name in ("new", "hint", "explain"):
            print(f"wrote docs/screenshots/{name}-{look}.png")
        context.close()


def main() -> int:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("Playwright is missing: run python3 build.py test once, then use .venv/bin/python")
        return 2
    build_site(quiet=True)
    server = make_server(port=0)
    url = start_server(server)
    shots = (
        ("screenshot.png", "#polyomino", "#polyomino-solve", {}),
        ("dark.png", "#polyomino", "#polyomino-solve", {"color_scheme": "dark"}),
        (
            "phone.png",
            f"#sudoku:{SUDOKU}",
            "#sudoku-solve",
            {
                "viewport": {"width": 390, "height": 844},
                "device_scale_factor": 2,
                "is_mobile": True,
                "has_touch": True,
            },
        ),
    )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name, fragment, button, options in shots if sys.argv[1:] != ["play"] else ():
            options = {"viewport": {"width": 1280, "height": 900}, **options}
            kind = button.split("-")[0].lstrip("#")
            context, page = solved_page(
                browser, url + fragment, button, f"#{kind}-result", **options
            )
            # The desktop shots show the page from its top; the phone shot shows what a person
            # sees after Solve: the board and the verdict under it, in view together.
            if not options.get("is_mobile"):
                page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(DOCS / name))
            print(f"wrote docs/{name}")
            context.close()
        play_shots(browser, url)
        browser.close()
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
