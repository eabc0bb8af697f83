"""What a player meets on the page, each at 1280 x 900 and at 390 x 844 (a phone, touch): New
puzzle names the level the puzzle has (with generate's note when it is not the one asked) and
offers only the levels a size makes; Check works on a generated game opened from its link in a
fresh browser, for every kind that plays; Explain's step and the board are on screen together,
with the step's candidates drawn, and a Hint's cell is on screen; no stale verdict, level or
empty share box; jigsaw and X Sudoku in New puzzle; killer cages entered on the keys; the guide
that every tab's help links to covers play.

The puzzles come from CPython's own answer to the request the page sends (the same seed, level
and size make the same puzzle everywhere)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from conftest import load_app, open_tab, wait_idle
from test_play import PHONE, cell_centre

from buildtools.markdown import heading_anchor
from pysolver import solve

LOOKS: dict[str, dict[str, Any]] = {
    "1280": {"viewport": {"width": 1280, "height": 900}},
    "390": {"viewport": PHONE, "has_touch": True, "is_mobile": True},
}
SYMBOLS = "123456789ABCDEFG"


@pytest.fixture(params=list(LOOKS))
def look(request) -> str:
    return request.param


@pytest.fixture
def open_at(new_guarded_context, new_guarded_page, site_url):
    """A page at a look, in a browser context of its own (a fresh browser: no storage)."""

    def open_page(look: str, fragment: str = ""):
        context = new_guarded_context(**LOOKS[look])
        return load_app(new_guarded_page(context), site_url + fragment)

    return open_page


def generated(kind: str, seed: int, difficulty: str, puzzle: dict[str, Any]) -> dict[str, Any]:
    answer = solve(
        {"kind": kind, "mode": "generate", "seed": seed, "difficulty": difficulty, "puzzle": puzzle}
    )
    assert answer["ok"], answer
    return answer


def level_of(answer: dict[str, Any]) -> str:
    """The level a generated puzzle has (its grade), whatever was asked."""
    return str(answer.get("level") or answer["grade"]["level"])


def facts(page) -> dict[str, Any]:
    return page.evaluate("() => fetch('facts.json').then((response) => response.json())")


def levels_offered(generate: dict[str, Any], puzzle: dict[str, Any]) -> list[str]:
    """The levels facts.json says a size makes (levels_by_size; a size not listed: all)."""
    by_size = generate.get("levels_by_size") or {}
    variant = puzzle.get("variant")
    values = [str(value) for key, value in puzzle.items() if key != "variant"]
    keys = ["x".join(values), "/".join(values)]
    keys += [f"{values[0]}x{values[0]}"] if len(values) == 1 else []
    if variant and variant != "standard":
        keys = [f"{variant}:{key}" for key in keys] + keys
    for key in keys:
        if key in by_size:
            return [level for level in generate["difficulties"] if level in by_size[key]]
    return list(generate["difficulties"])


def options(page, selector: str) -> list[str]:
    return page.eval_on_selector_all(f"{selector} option", "(nodes) => nodes.map((n) => n.value)")


def new_puzzle(page, kind: str, seed: int, level: str | None = None) -> None:
    if level is not None:
        page.select_option(f"#{kind}-new-difficulty", level)
    page.fill(f"#{kind}-new-seed", str(seed))
    page.click(f"#{kind}-new")
    wait_idle(page)
    page.wait_for_selector(f"#{kind}-play-bar", state="visible")


def status(page, kind: str) -> str:
    return page.text_content(f"#{kind}-play-status") or ""


def wait_status(page, kind: str, pattern: str) -> str:
    page.wait_for_function(
        "([kind, pattern]) => new RegExp(pattern).test("
        "document.getElementById(`${kind}-play-status`).textContent)",
        arg=[kind, pattern],
    )
    return status(page, kind)


def on_screen(page, box: dict[str, float]) -> bool:
    height = page.evaluate("innerHeight")
    return box["y"] >= -0.5 and box["y"] + box["height"] <= height + 0.5


def cell_box(page, kind: str, n: int, r: int, c: int) -> dict[str, float]:
    """The page box of cell (r, c) of an n-wide board."""
    board = page.locator(f"#{kind}-canvas").bounding_box()
    centre = cell_centre(page, kind, n, r, c)
    size = (board["width"] - 2) / n * 0.8
    x, y = board["x"] + 1 + centre["x"], board["y"] + 1 + centre["y"]
    return {"x": x - size / 2, "y": y - size / 2, "width": size, "height": size}


def top_at(page, selector: str) -> None:
    """Scroll so that the element is at the window's top (a person reaching for it)."""
    page.eval_on_selector(selector, "(node) => node.scrollIntoView({block: 'start'})")


# ------------------------------------------------------------------ 1. honest levels


def test_new_puzzle_names_the_level_made_and_offers_the_levels_a_size_makes(look, open_at) -> None:
    page = open_at(look)
    site = facts(page)["kinds"]
    open_tab(page, "sudoku")
    sudoku = site["sudoku"]["generate"]
    every = list(sudoku["difficulties"])
    page.select_option("#sudoku-new-size", "4")
    four = levels_offered(sudoku, {"size": 4})
    assert options(page, "#sudoku-new-difficulty") == four
    page.select_option("#sudoku-new-size", "9")
    assert options(page, "#sudoku-new-difficulty") == levels_offered(sudoku, {"size": 9})
    # Asked for a level the size may not reach: the page says the level made, and why.
    cases = [
        ("sudoku", "#sudoku-new-size", "4", {"size": 4}, "expert", 3),
        ("polyomino", "#polyomino-new-size", "5", {"rows": 5, "cols": 5}, "hard", 167774489),
    ]
    differed = False
    for kind, size_field, size, puzzle, asked, seed in cases:
        if asked not in levels_offered(site[kind]["generate"], puzzle):
            continue
        open_tab(page, kind)
        page.select_option(size_field, size)
        new_puzzle(page, kind, seed, asked)
        answer = generated(kind, seed, asked, puzzle)
        level = level_of(answer)
        source = page.text_content(f"#{kind}-new-source") or ""
        assert source.startswith(f"{level.capitalize()} puzzle, seed {seed}"), source
        fragment = page.evaluate("location.hash")
        if level == asked:
            assert f"!G{level}.{seed}!P" in fragment
            continue
        differed = True
        assert answer["note"] in source
        assert f"!G{level}.{seed}.{asked}!P" in fragment
        # The link makes the same puzzle again, with its level and note.
        again = open_at(look, fragment)
        assert again.text_content(f"#{kind}-new-source").startswith(
            f"{level.capitalize()} puzzle, seed {seed}"
        )
        assert again.input_value(f"#{kind}-new-difficulty") in (level, asked)
        assert again.console_errors == []
    # Either a level asked was not made (and said so), or the menu no longer offers it.
    assert differed or four != every
    assert page.console_errors == []


# ------------------------------------------------------------------ 2. Check from a link


def check_from_link(look: str, open_at, link: str) -> None:
    kind = link[1:].split(":", 1)[0]
    page = open_at(look, link)  # a fresh browser: nothing but the link
    assert page.is_visible(f"#{kind}-play-bar")
    page.click(f"#{kind}-play-check")
    said = wait_status(page, kind, ".")
    assert said == "No mistakes so far.", (link, said)
    assert page.console_errors == []


def test_check_works_on_a_generated_game_opened_from_its_link(look, open_at) -> None:
    # The issue's link: the polyomino has several tilings counted "all" ways (the link's), one
    # up to the board's symmetry, which is how its game checks moves.
    issue = "#polyomino:5x4:L,P,T,Y:all!Geasy.167774489!P"
    check_from_link(look, open_at, issue)
    maker = open_at(look)
    links = [issue]
    open_tab(maker, "sudoku")
    maker.select_option("#sudoku-new-variant", "jigsaw")
    maker.select_option("#sudoku-new-size", "6")
    new_puzzle(maker, "sudoku", 3, "easy")
    links.append(maker.evaluate("location.hash"))
    open_tab(maker, "shikaku")
    maker.fill("#shikaku-new-rows", "6")
    maker.fill("#shikaku-new-cols", "6")
    new_puzzle(maker, "shikaku", 5, "easy")
    links.append(maker.evaluate("location.hash"))
    open_tab(maker, "star_battle")
    new_puzzle(maker, "star_battle", 9, "easy")
    links.append(maker.evaluate("location.hash"))
    kinds = {link[1:].split(":", 1)[0] for link in links}
    playing = {
        name for name, kind in facts(maker)["kinds"].items() if kind.get("generate") is not None
    }
    assert kinds == playing  # every kind that plays
    for link in links[1:]:
        check_from_link(look, open_at, link)


# ------------------------------------------------------------------ 3. Explain and Hint in view


def test_explain_step_beside_the_board_with_its_candidates_and_a_hint_on_screen(
    look, open_at
) -> None:
    page = open_at(look)
    open_tab(page, "sudoku")
    new_puzzle(page, "sudoku", 7, "easy")
    grid = generated("sudoku", 7, "easy", {"size": 9})["puzzle"]["grid"]
    hint = solve({"kind": "sudoku", "mode": "hint", "puzzle": {"grid": grid}})["hint"]
    # Hint pressed with the board scrolled away (the button at the window's top).
    top_at(page, "#sudoku-play-hint")
    page.click("#sudoku-play-hint")
    wait_status(page, "sudoku", "^Hint")
    r, c = (hint["place"][0][:2] if hint["place"] else hint["cells"][0])[:2]
    assert on_screen(page, cell_box(page, "sudoku", 9, r, c))

    explained = solve({"kind": "sudoku", "mode": "explain", "puzzle": {"grid": grid}})
    top_at(page, "#sudoku-play-explain")
    page.click("#sudoku-play-explain")
    page.wait_for_selector("#sudoku-step-text", state="visible")
    assert page.text_content("#sudoku-step-text") == explained["steps"][0]["text"]
    board = page.locator("#sudoku-canvas").bounding_box()
    words = page.locator("#sudoku-step-text").bounding_box()
    assert on_screen(page, board) and on_screen(page, words)
    if look == "1280":
        assert words["x"] >= board["x"] + board["width"]  # beside the board
    # The candidates left at the step, drawn small in an empty cell the step does not fill.
    placed = {tuple(place[:2]) for place in explained["steps"][0]["place"]}
    empty = next(i for i, ch in enumerate(grid) if ch == "." and divmod(i, 9) not in placed)
    assert ink_in_cell(page, "sudoku", 9, *divmod(empty, 9)) > 10
    # Each step keeps them in view as it goes.
    page.click("#sudoku-step-forward")
    assert page.text_content("#sudoku-step-text") == explained["steps"][1]["text"]
    assert on_screen(page, page.locator("#sudoku-step-text").bounding_box())
    assert page.evaluate("document.documentElement.scrollWidth") <= LOOKS[look]["viewport"]["width"]
    assert page.console_errors == []


def ink_in_cell(page, kind: str, n: int, r: int, c: int) -> int:
    """Pixels of a cell's inside that differ from its paper (its most common colour)."""
    return int(
        page.evaluate(
            """([kind, n, r, c]) => {
                const canvas = document.getElementById(`${kind}-canvas`);
                const scale = canvas.width / Number(canvas.dataset.width);
                const cell = (Number(canvas.dataset.width) - 16) / n;
                const x = Math.round((8 + c * cell + 4) * scale);
                const y = Math.round((8 + r * cell + 4) * scale);
                const side = Math.floor((cell - 8) * scale);
                const data = canvas.getContext('2d').getImageData(x, y, side, side).data;
                const counts = new Map();
                for (let i = 0; i < data.length; i += 4) {
                    const key = `${data[i]},${data[i + 1]},${data[i + 2]}`;
                    counts.set(key, (counts.get(key) || 0) + 1);
                }
                const paper = [...counts].sort((a, b) => b[1] - a[1])[0][0].split(',').map(Number);
                let ink = 0;
                for (let i = 0; i < data.length; i += 4) {
                    const off = Math.abs(data[i] - paper[0]) + Math.abs(data[i + 1] - paper[1])
                        + Math.abs(data[i + 2] - paper[2]);
                    if (off > 60) ink += 1;
                }
                return ink;
            }""",
            [kind, n, r, c],
        )
    )


# ------------------------------------------------------------------ 4. no stale state


def enter(page, look: str, n: int, index: int, value: int) -> None:
    page.click("#sudoku-canvas", position=cell_centre(page, "sudoku", n, *divmod(index, n)))
    if look == "390":
        page.click(f"#sudoku-play-key-{SYMBOLS[value - 1]}")
    else:
        page.keyboard.press(SYMBOLS[value - 1])


def test_no_stale_verdict_level_or_share_box(look, open_at) -> None:
    page = open_at(look)
    open_tab(page, "sudoku")
    page.select_option("#sudoku-new-size", "4")
    new_puzzle(page, "sudoku", 1, "easy")
    answer = generated("sudoku", 1, "easy", {"size": 4})
    stale = []  # each stale thing seen, so one failure names them all

    def expect(fine: bool, what: str) -> None:
        if not fine:
            stale.append(what)

    # The share box holds the link without a click.
    expect(page.input_value("#share-url") == page.evaluate("location.href"), "empty share box")
    grid = answer["puzzle"]["grid"]
    solution = [value for row in answer["solutions"][0] for value in row]
    open_cells = [i for i, ch in enumerate(grid) if ch == "."]
    # A wrong move, found by Check, then undone: the verdict about it goes.
    enter(page, look, 4, open_cells[0], solution[open_cells[0]] % 4 + 1)
    page.click("#sudoku-play-check")
    assert wait_status(page, "sudoku", "wrong move").startswith("1 wrong move")
    page.click("#sudoku-undo")
    expect("wrong" not in status(page, "sudoku"), f"after undo: {status(page, 'sudoku')}")
    # Solved, with a second or more on the clock.
    for index in open_cells[:-1]:
        enter(page, look, 4, index, solution[index])
    time.sleep(1.2)
    enter(page, look, 4, open_cells[-1], solution[open_cells[-1]])
    said = wait_status(page, "sudoku", "^Solved")
    assert re.fullmatch(r"Solved in 0:0[1-9]\. Well done!", said), said
    # A reload says the same (the game's own time, not 0:00).
    page.reload()
    page.wait_for_function("() => document.body.dataset.state === 'ready'", timeout=90_000)
    expect(status(page, "sudoku") == said, f"after a reload: {status(page, 'sudoku')}")
    # Another game's link in the same tab: a fresh game, no verdict of the last one.
    other = generated("sudoku", 2, "easy", {"size": 4})
    link = f"#sudoku:{other['puzzle']['grid']}!G{level_of(other)}.2!P{'.' * 16}"
    page.evaluate("(link) => { location.hash = link; }", link)
    page.wait_for_function("(grid) => location.hash.includes(grid)", arg=other["puzzle"]["grid"])
    expect(status(page, "sudoku") == "", f"on another game: {status(page, 'sudoku')}")
    expect(page.get_attribute("#sudoku-play-status", "data-solved") is None, "solved, new game")
    # A link of another size and level: New puzzle's size and Level follow it.
    hard = generated("sudoku", 5, "hard", {"size": 9})
    level = level_of(hard)
    asked = "" if level == "hard" else ".hard"
    page.evaluate(
        "(link) => { location.hash = link; }",
        f"#sudoku:{hard['puzzle']['grid']}!G{level}.5{asked}!P{'.' * 81}",
    )
    page.wait_for_function("(grid) => location.hash.includes(grid)", arg=hard["puzzle"]["grid"])
    expect(page.input_value("#sudoku-new-size") == "9", "New puzzle's size not the link's")
    level_shown = page.input_value("#sudoku-new-difficulty")
    expect(level_shown == level, f"Level {level_shown} on a {level} link")
    expect(page.input_value("#share-url") == page.evaluate("location.href"), "stale share box")
    assert stale == [], stale
    assert page.console_errors == []


# ------------------------------------------------------------------ 5. variants in New puzzle


def test_new_puzzle_makes_jigsaw_and_x_sudoku(look, open_at) -> None:
    page = open_at(look)
    open_tab(page, "sudoku")
    made = facts(page)["kinds"]["sudoku"]["generate"]["limits"]["variants"]
    assert options(page, "#sudoku-new-variant") == made
    for variant, size, seed, mark in (("jigsaw", 6, 3, "/R"), ("x", 4, 4, "/X")):
        page.select_option("#sudoku-new-variant", variant)
        page.select_option("#sudoku-new-size", str(size))
        new_puzzle(page, "sudoku", seed, "easy")
        answer = generated("sudoku", seed, "easy", {"size": size, "variant": variant})
        fragment = page.evaluate("location.hash")
        assert fragment.startswith(f"#sudoku:{answer['puzzle']['grid']}{mark}")
        page.click("#sudoku-play-check")
        assert wait_status(page, "sudoku", ".") == "No mistakes so far."
    assert page.console_errors == []


def test_new_puzzle_makes_a_killer_with_its_cages_checked_and_solved(look, open_at) -> None:
    page = open_at(look)
    open_tab(page, "sudoku")
    page.select_option("#sudoku-new-variant", "killer")
    assert "4" in options(page, "#sudoku-new-size")
    page.select_option("#sudoku-new-size", "4")
    # The levels offered are those a 4x4 killer reaches (facts.json's "killer:4").
    killer_4 = {"size": 4, "variant": "killer"}
    offered = levels_offered(facts(page)["kinds"]["sudoku"]["generate"], killer_4)
    assert offered == ["easy", "medium"]
    assert options(page, "#sudoku-new-difficulty") == offered
    new_puzzle(page, "sudoku", 2, "easy")
    answer = generated("sudoku", 2, "easy", killer_4)
    cages = answer["puzzle"]["cages"]
    assert cages
    # The link carries CPython's cages (sum, ".", each cell's index as two base-36 digits).
    fragment = page.evaluate("decodeURIComponent(location.hash)")
    assert fragment.startswith(f"#sudoku:{answer['puzzle']['grid']}/K"), fragment
    linked = fragment.split("/K", 1)[1].split("!", 1)[0].split(",")
    assert linked == [
        f"{cage['sum']}." + "".join(base36(r * 4 + c) for r, c in cage["cells"]) for cage in cages
    ]
    # The variant menu still says killer (the game's own variant, read back from the puzzle).
    assert page.input_value("#sudoku-new-variant") == "killer"
    # Check on the empty board, then a right digit and Check again.
    page.click("#sudoku-play-check")
    assert wait_status(page, "sudoku", ".") == "No mistakes so far."
    solution = answer["solutions"][0]
    press = page.tap if look == "390" else page.click
    centre = cell_centre(page, "sudoku", 4, 0, 0)
    press("#sudoku-canvas", position=centre)
    page.keyboard.type(str(solution[0][0]))
    page.click("#sudoku-play-check")
    assert wait_status(page, "sudoku", "No mistakes") == "No mistakes so far."
    # Out of play, Solve finds the killer's one solution (its cages went with it).
    page.click("#sudoku-play-toggle")
    assert "/K" in page.evaluate("decodeURIComponent(location.hash)")
    page.click("#sudoku-solve")
    wait_idle(page)
    assert page.text_content("#sudoku-error") == ""
    assert page.text_content("#sudoku-result") == "Unique solution."
    assert page.console_errors == []


# ------------------------------------------------------------------ 6. killer cages on the keys


def test_killer_cages_dragged_and_summed_on_the_keys(look, open_at) -> None:
    page = open_at(look)
    open_tab(page, "sudoku")
    page.select_option("#sudoku-edit", "cages")
    page.locator("#sudoku-canvas").scroll_into_view_if_needed()
    # The sum's field sits right under the board, in view with it.
    board = page.locator("#sudoku-canvas").bounding_box()
    field = page.locator("#sudoku-cage-sum").bounding_box()
    assert 0 <= field["y"] - (board["y"] + board["height"]) < 80
    assert on_screen(page, board) and on_screen(page, field)
    # Six cages of three cells, each dragged over (a finger on the phone) and summed on the
    # keys: Chromium dropped the click of the first tap after a drag now and then (1 then 5
    # made 5), so the drag and the taps are repeated.
    expected = []
    for r, c in ((0, 0), (0, 4), (3, 0), (3, 4), (6, 0), (6, 4)):
        cells = [(r, c), (r, c + 1), (r + 1, c + 1)]
        drag_over(page, look, cells)
        press = page.tap if look == "390" else page.click
        press("#sudoku-key-1")
        press("#sudoku-key-5")
        assert page.input_value("#sudoku-cage-sum") == "15", cells
        press("#sudoku-cage-make")
        # The link's cage: its sum, ".", its cells as two base-36 digits each.
        expected.append("15." + "".join(base36(r * 9 + c) for r, c in sorted(cells)))
    assert page.evaluate("location.hash").split("/K", 1)[1].split(",") == expected
    assert page.console_errors == []


def base36(index: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    return digits[index // 36] + digits[index % 36]


def drag_over(page, look: str, cells: list[tuple[int, int]]) -> None:
    """A drag over the cells: a finger on the phone (Chromium's touch input), else the mouse."""
    box = page.locator("#sudoku-canvas").bounding_box()
    points = []
    for r, c in cells:
        centre = cell_centre(page, "sudoku", 9, r, c)
        points.append((box["x"] + 1 + centre["x"], box["y"] + 1 + centre["y"]))
    if look == "390":
        session = page.context.new_cdp_session(page)
        x, y = points[0]
        session.send(
            "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]}
        )
        for x, y in points[1:]:
            session.send(
                "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
            )
        session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        session.detach()
    else:
        page.mouse.move(*points[0])
        page.mouse.down()
        for point in points[1:]:
            page.mouse.move(*point, steps=3)
        page.mouse.up()


# ------------------------------------------------------------------ 7. the guide


def test_every_tab_links_the_guide_which_covers_play(look, open_at) -> None:
    page = open_at(look)
    kinds = facts(page)["kinds"]
    guide = page.evaluate("() => fetch('guide.html').then((response) => response.text())")
    for name, kind in kinds.items():
        open_tab(page, name)
        links = page.eval_on_selector_all(
            f"#{name}-help a", "(nodes) => nodes.map((n) => n.getAttribute('href'))"
        )
        assert f"guide.html#{heading_anchor(kind['title'])}" in links
        if kind.get("generate") is not None:
            assert "guide.html#new-puzzle-and-play" in links
        for link in links:
            assert f'id="{link.split("#", 1)[1]}"' in guide, link
    text = re.sub(r"<[^>]+>", "", guide)
    for words in (
        "New puzzle",
        "Check",
        "Hint",
        "Explain",
        "pencil mark",
        "Auto\ncandidates",
        "Estimate count",
        "puzz.link (pzprjs) Sudoku address",
        "Rectangles",
        "Space\n  switches",
    ):
        assert re.search(r"\s+".join(map(re.escape, words.split())), text), words
    assert page.console_errors == []


# ------------------------------------------------------------------ 10. words for people


def test_an_error_names_cells_in_words_and_folds_the_json_path(look, open_at) -> None:
    # Two queens on one diagonal, given by the link: Solve refuses them.
    page = open_at(look, "#queens:6:1.1,3.3")
    page.click("#queens-solve")
    wait_idle(page)
    error = page.locator("#queens-error")
    error.scroll_into_view_if_needed()
    shown = error.inner_text()  # what a person reads: nothing folded away
    assert "row 4, column 4" in shown and "row 2, column 2" in shown, shown
    assert "puzzle." not in shown and "[" not in shown, shown
    assert "Technical details" in shown
    # The path is still there for a programmer, under the folded "Technical details".
    assert not page.eval_on_selector("#queens-error .error-details", "(node) => node.open")
    assert not page.is_visible("#queens-error .error-details-text")
    path = page.text_content("#queens-error .error-details-text") or ""
    assert "puzzle.queens[1]" in path, path
    page.click("#queens-error summary")
    assert page.is_visible("#queens-error .error-details-text")
    assert page.console_errors == []
