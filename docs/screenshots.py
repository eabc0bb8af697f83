"""Take the README's screenshots of the page (docs/*.png) in Debian's Chromium.

    .venv/bin/python docs/screenshots.py

Builds dist/, serves it on a free 127.0.0.1 port and writes:
- docs/screenshot.png: 1280x900, light, the 6x10 pentomino rectangle solved;
- docs/phone.png: 390x844 (a phone), light, a Sudoku solved, as the page shows it after Solve;
- docs/dark.png: 1280x900, dark mode, the 6x10 pentomino rectangle solved.
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

DOCS = ROOT / "docs"
READY_TIMEOUT_MS = 120_000
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
        for name, fragment, button, options in shots:
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
        browser.close()
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
