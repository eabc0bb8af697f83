"""The Setter panel of the Sudoku tab (web/kinds/sudoku/setter.js) at a desktop's and a phone's
width: a grid with a few solutions gets Python's additions, best first, and adding the best
ones until one solution is left is a click each; redundant givens go one click at a time;
clashing givens are named and tinted on the board. Screenshots (light, and dark on the desktop)
go to the test's temporary folder."""

from __future__ import annotations

import pytest
from conftest import click_and_wait, open_tab, wait_idle

from pysolver import solve

UNIQUE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
CELL = 44  # the renderer's cell for 9x9 (web/kinds/sudoku/render.js)
MARGIN = 8
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def assist(grid: str) -> dict:
    return solve({"kind": "sudoku", "mode": "assist", "puzzle": {"grid": grid}})


def several() -> str:
    """UNIQUE less givens (in reading order) until it has 3 to 20 solutions."""
    grid = UNIQUE
    for position, char in enumerate(UNIQUE):
        if char == ".":
            continue
        grid = grid[:position] + "." + grid[position + 1 :]
        if 3 <= assist(grid)["count"] <= 20:
            return grid
    raise AssertionError("no grid with a few solutions")


def grid_text(page) -> str:
    return page.evaluate("() => document.getElementById('sudoku-paste').value")


def pixel(page, r: int, c: int, dx: float = 6, dy: float = 6) -> list[int]:
    """The canvas colour at (dx, dy) drawing units inside the top-left corner of cell (r, c)."""
    return page.evaluate(
        """([x, y]) => { const canvas = document.getElementById("sudoku-canvas");
            const ratio = canvas.width / Number(canvas.dataset.width);
            const [px, py] = [Math.round(x * ratio), Math.round(y * ratio)];
            const d = canvas.getContext("2d").getImageData(px, py, 1, 1).data;
            return [d[0], d[1], d[2]]; }""",
        [MARGIN + c * CELL + dx, MARGIN + r * CELL + dy],
    )


def fits_the_width(page, width: int) -> None:
    box = page.locator("#sudoku-setter").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("screen", VIEWPORTS)
def test_the_setter_adds_removes_and_names_clashes(app_page, site_url, screen, tmp_path):
    page = app_page
    viewport = VIEWPORTS[screen]
    page.set_viewport_size(viewport)
    grid = several()
    expected = assist(grid)
    page.goto(f"{site_url}#sudoku:{grid}")
    page.wait_for_function("() => document.body.dataset.state === 'ready'", timeout=90_000)
    open_tab(page, "sudoku")
    assert page.is_hidden("#sudoku-setter")
    page.locator("#sudoku-assist").scroll_into_view_if_needed()
    click_and_wait(page, "#sudoku-assist")
    assert page.is_visible("#sudoku-setter")
    cells = {tuple(entry["cell"]) for entry in expected["add"]}
    summary = page.text_content("#sudoku-setter-summary")
    assert summary.startswith(f"{expected['count']} solutions; they differ in {len(cells)} cells")
    best = expected["add"][0]
    (r, c), digit = best["cell"], best["digit"]
    left = f"{best['count']} solution{'s' * (best['count'] != 1)} left"
    assert (
        page.text_content("#sudoku-setter-add-0")
        == f"{digit} at row {r + 1}, column {c + 1}: {left}"
    )
    offered = page.locator("#sudoku-setter-add button").count()
    assert offered == min(8, len(expected["add"]))
    # The cells where the solutions differ are framed (amber), the best one ringed (green).
    differ = next(cell for cell in cells if cell != (r, c))
    red, green, blue = pixel(page, *differ, dx=3, dy=CELL / 2)
    assert red > blue + 60, "an amber frame inside the cell's edge"
    red, green, blue = pixel(page, r, c, dx=2, dy=CELL / 2)
    assert green > red + 40 and green > blue + 40, "a green ring round the best addition's cell"
    fits_the_width(page, viewport["width"])
    page.locator("#sudoku-setter").screenshot(path=tmp_path / f"setter-add-{screen}.png")
    page.locator("#sudoku-canvas").screenshot(path=tmp_path / f"setter-board-{screen}.png")
    if screen == "desktop":
        page.emulate_media(color_scheme="dark")
        page.screenshot(path=tmp_path / "setter-dark.png", full_page=True)
        page.emulate_media(color_scheme="light")

    # Adding the best given, again and again, ends with one solution.
    for _ in range(10):
        before = grid_text(page)
        page.click("#sudoku-setter-add-0")
        wait_idle(page)
        after = grid_text(page)
        assert sum(a != b for a, b in zip(before, after, strict=True)) == 1
        if page.locator("#sudoku-setter-add").count() == 0:
            break
    grid = grid_text(page)
    now = assist(grid)
    assert now["unique"] is True
    summary = page.text_content("#sudoku-setter-summary")
    assert summary.startswith("One solution")
    assert page.text_content("#sudoku-result").startswith("Unique solution")
    if not now["minimal"]:
        r, c = now["redundant"][0]
        assert page.text_content("#sudoku-setter-remove-0").endswith(
            f"at row {r + 1}, column {c + 1}"
        )
        page.screenshot(path=tmp_path / f"setter-redundant-{screen}.png", full_page=True)
        page.click("#sudoku-setter-remove-0")
        wait_idle(page)
        assert grid_text(page)[r * 9 + c] == "."
        assert page.text_content("#sudoku-setter-summary").startswith("One solution")

    # Two 5s in the first row, and the clash named and tinted.
    clashing = "55" + UNIQUE[2:]
    page.fill("#sudoku-paste", clashing)
    page.click("#sudoku-load")
    page.locator("#sudoku-assist").scroll_into_view_if_needed()
    click_and_wait(page, "#sudoku-assist")
    conflict = assist(clashing)["conflict"]
    assert page.locator("#sudoku-setter-conflict li").count() == len(conflict) == 2
    assert page.text_content("#sudoku-setter-summary").startswith("No solution")
    red, green, blue = pixel(page, *conflict[0])
    assert red > green + 20 and red > blue + 20
    fits_the_width(page, viewport["width"])
    page.locator("#sudoku-setter").screenshot(path=tmp_path / f"setter-conflict-{screen}.png")
    # An edit drops the Setter's answer and its marks.
    page.click("#sudoku-clear")
    assert page.is_hidden("#sudoku-setter")
