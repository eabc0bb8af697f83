"""Sudoku variants on the page: a killer from a share link solved and drawn (dashed cages with
their sums, light and dark), and a jigsaw painted, caged and crossed with the mouse, its link
and counts matching Python's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import canvas_picture, click_and_wait, open_tab, wait_idle

from pysolver import solve

DATA = Path(__file__).resolve().parents[1] / "data" / "sudoku_variants.json"
CELL = 44  # the renderer's cell size for 9x9 and smaller (web/kinds/sudoku/render.js)
MARGIN = 8

# The colour of the canvas pixel at drawing units (x, y), as [r, g, b].
PIXEL = """([x, y]) => {
  const canvas = document.getElementById("sudoku-canvas");
  const ratio = canvas.width / Number(canvas.dataset.width);
  const [px, py] = [Math.round(x * ratio), Math.round(y * ratio)];
  const data = canvas.getContext("2d").getImageData(px, py, 1, 1).data;
  return [data[0], data[1], data[2]];
}"""


def base36_pair(index: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    return digits[index // 36] + digits[index % 36]


def share_link(puzzle: dict) -> str:
    """The page's link text of a variant puzzle (web/kinds/sudoku/variants.js's format)."""
    link = puzzle["grid"]
    if "regions" in puzzle:
        link += "/R" + "".join(puzzle["regions"])
    if puzzle.get("diagonals"):
        link += "/X"
    if "cages" in puzzle:
        link += "/K" + ",".join(
            f"{cage['sum']}." + "".join(base36_pair(r * 9 + c) for r, c in cage["cells"])
            for cage in puzzle["cages"]
        )
    return link


def lightness(rgb) -> float:
    return sum(rgb) / 3


def pixel(page, x: float, y: float):
    return page.evaluate(PIXEL, [x, y])


def cell_point(page, r: int, c: int) -> dict:
    scale = page.evaluate(
        "() => { const c = document.getElementById('sudoku-canvas');"
        " return c.clientWidth / Number(c.dataset.width); }"
    )
    return {"x": (MARGIN + (c + 0.5) * CELL) * scale, "y": (MARGIN + (r + 0.5) * CELL) * scale}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_killer_link_is_solved_and_drawn(open_app, site_url, scheme, tmp_path):
    entry = next(entry for entry in json.loads(DATA.read_text()) if entry["name"] == "killer")
    page = open_app(f"{site_url}#sudoku:{share_link(entry['puzzle'])}")
    page.emulate_media(color_scheme=scheme)
    assert (
        page.evaluate("() => document.getElementById('sudoku-paste').value")
        == (entry["puzzle"]["grid"])
    )
    click_and_wait(page, "#sudoku-solve")
    assert page.text_content("#sudoku-result") == "Unique solution."
    page.locator("#sudoku-canvas").screenshot(path=tmp_path / f"killer-{scheme}.png")
    paper = lightness(pixel(page, 2, 2))
    # Along the inset top side of each cage's first cell: dashes (ink) and gaps (paper).
    dashed = 0
    for cage in entry["puzzle"]["cages"]:
        r, c = min(cage["cells"])
        if [r, c + 1] not in cage["cells"] or [r - 1, c] in cage["cells"]:
            continue
        y = MARGIN + r * CELL + 4
        x0 = MARGIN + c * CELL + CELL * 0.55  # right of the sum
        shades = [lightness(pixel(page, x0 + i, y)) for i in range(int(CELL * 0.4))]
        if any(abs(s - paper) > 60 for s in shades) and any(abs(s - paper) < 25 for s in shades):
            dashed += 1
    assert dashed >= 5
    # The sum of the first cage in the corner of its first cell: ink there.
    r, c = min(entry["puzzle"]["cages"][0]["cells"])
    corner = [
        lightness(pixel(page, MARGIN + c * CELL + 3 + i, MARGIN + r * CELL + 7)) for i in range(10)
    ]
    assert any(abs(s - paper) > 60 for s in corner)


def test_jigsaw_painted_caged_and_crossed(app_page, tmp_path):
    page = app_page
    open_tab(page, "sudoku")
    page.select_option("#sudoku-size", "4")
    page.click("#sudoku-clear")
    page.select_option("#sudoku-edit", "regions")
    assert page.is_visible("#sudoku-region")
    # From the boxes AABB/AABB/CCDD/CCDD: (1, 1) goes to B, (0, 2) to A.
    page.select_option("#sudoku-region", "B")
    page.click("#sudoku-canvas", position=cell_point(page, 1, 1))
    assert "has" in page.text_content("#sudoku-variant-note")  # A has 3 cells, B has 5
    page.select_option("#sudoku-region", "A")
    page.click("#sudoku-canvas", position=cell_point(page, 0, 2))
    assert page.text_content("#sudoku-variant-note") == ""
    regions = ["AAAB", "ABBB", "CCDD", "CCDD"]
    page.wait_for_function("() => location.hash.includes('/R' + 'AAABABBBCCDDCCDD')")
    page.locator("#sudoku-canvas").screenshot(path=tmp_path / "jigsaw-painting.png")
    # A thick border between regions (0, 2) | (0, 3); a thin one inside region A (0, 1) | (0, 2).
    y = MARGIN + 0.5 * CELL
    assert lightness(pixel(page, MARGIN + 3 * CELL, y)) < 90
    assert lightness(pixel(page, MARGIN + 2 * CELL, y)) > 120

    page.select_option("#sudoku-edit", "cages")
    start, end = cell_point(page, 2, 0), cell_point(page, 2, 1)
    box = page.locator("#sudoku-canvas").bounding_box()
    page.mouse.move(box["x"] + start["x"], box["y"] + start["y"])
    page.mouse.down()
    page.mouse.move(box["x"] + end["x"], box["y"] + end["y"], steps=4)
    page.mouse.up()
    page.keyboard.type("3")
    page.keyboard.press("Enter")
    page.wait_for_function("() => location.hash.includes('/K3.0809')")
    page.check("#sudoku-diagonals")
    page.wait_for_function("() => location.hash.includes('/X')")
    page.locator("#sudoku-canvas").screenshot(path=tmp_path / "jigsaw-light.png")

    click_and_wait(page, "#sudoku-count")
    cages = [{"sum": 3, "cells": [[2, 0], [2, 1]]}]
    puzzle = {"grid": "." * 16, "regions": regions, "diagonals": True, "cages": cages}
    expected = solve({"kind": "sudoku", "mode": "count", "puzzle": puzzle})["count"]
    assert expected > 0
    assert page.get_attribute("#sudoku-result", "data-count") == str(expected)

    # Undo takes the diagonals back off; the link follows.
    page.click("#sudoku-canvas", position=cell_point(page, 3, 3))
    page.keyboard.press("Control+z")
    wait_idle(page)
    page.wait_for_function("() => !location.hash.includes('/X')")
    assert not page.is_checked("#sudoku-diagonals")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_jigsaw_x_killer_link_is_solved_and_drawn(open_app, site_url, scheme, tmp_path):
    entry = next(e for e in json.loads(DATA.read_text()) if e["name"] == "jigsaw-x-killer")
    regions = "".join(entry["puzzle"]["regions"])
    page = open_app(f"{site_url}#sudoku:{share_link(entry['puzzle'])}")
    page.emulate_media(color_scheme=scheme)
    assert page.is_checked("#sudoku-diagonals")
    click_and_wait(page, "#sudoku-solve")
    assert page.text_content("#sudoku-result") == "Unique solution."
    page.locator("#sudoku-canvas").screenshot(path=tmp_path / f"jigsaw-{scheme}.png")
    paper = lightness(pixel(page, 2, 2))
    # Between two cells of a row: a thick line where the region changes, a thin one elsewhere.
    # Sampled a quarter of a cell down, clear of the digits, the sums and the diagonals.
    thick, thin = [], []
    for r in range(9):
        for c in range(8):
            if r == c or r + c in (7, 8):
                continue  # the diagonals cross these cell sides
            shade = abs(
                lightness(pixel(page, MARGIN + (c + 1) * CELL, MARGIN + r * CELL + 30)) - paper
            )
            (thick if regions[r * 9 + c] != regions[r * 9 + c + 1] else thin).append(shade)
    assert thick and thin
    assert min(thick) > max(thin) + 40


def test_killer_trace_plays_to_its_solution(open_app, site_url):
    entry = next(e for e in json.loads(DATA.read_text()) if e["name"] == "killer-large")
    page = open_app(f"{site_url}#sudoku:{share_link(entry['puzzle'])}")
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    click_and_wait(page, "#sudoku-trace")
    assert page.is_visible("#sudoku-step-log")
    log = page.text_content("#sudoku-step-log")
    assert "the digits of cage" in log  # the cages' digit sets are steps of their own
    # Step through the first steps (digit sets among them), then jump to the solution.
    before = canvas_picture(page, "sudoku")
    for _ in range(30):
        page.click("#sudoku-step-forward")
    assert canvas_picture(page, "sudoku") != before
    page.click("#sudoku-step-next-solution")
    assert page.text_content("#sudoku-step-text").startswith("Solution 1")
    assert errors == []
