"""The Star Battle page's own logic agrees with Python: links, region checks, rules and texts.

Node.js runs web/kinds/star_battle/ (paste.js's link reader and writer, logic.js's rules and
texts, render.js's touched cells, editor.js's reading of a request's puzzle) on random boards;
Python judges the same boards: its link module (``pysolver.kinds.star_battle.url``) reads and
writes the links, its board check (``parse_puzzle``) accepts exactly the maps the page finds
nothing wrong with, its solver's solutions are exactly the placements the page's rule check
accepts (every placement of k stars a row tried on small boards), and the cells the Step view
leaves unshaded round a given star are the options of ``encode``'s matrix. Published puzzles'
links (test_star_battle.PUBLISHED) are read alike too. Skipped without
Node.js, as test_web_parsers.py says.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pysolver
from pysolver.kinds import star_battle
from pysolver.kinds.star_battle import url
from pysolver.kinds.star_battle.board import MAX_N, parse_puzzle
from pysolver.protocol import SolveError
from tests.node_page import require_node, run_module
from tests.test_star_battle import PUBLISHED, random_regions

require_node("the Star Battle page's helpers")

RUNNER = """
import * as logic from "./web/kinds/star_battle/logic.js";
import { readStarBattleUrl, starBattleUrl } from "./web/kinds/star_battle/paste.js";
import { touchedCells } from "./web/kinds/star_battle/render.js";
import { boardOfPuzzle } from "./web/kinds/star_battle/editor.js";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { maps, links, starSets, solveMaps, texts, marks, maxN, givenBoards } = JSON.parse(input);
const attempt = (read) => {
  try { return read(); } catch (error) { return { error: error.message }; }
};
// Every placement of k stars in each row (k = 1: a column per row), the rule check's verdict.
function solving(rows, k) {
  const n = rows.length;
  const labels = logic.renameRegions(rows.join(""));
  const found = [];
  const columns = new Array(n).fill(0);
  const walk = (r) => {
    if (r === n) {
      const stars = columns.map((c, row) => row * n + c);
      const row = (c) => ".".repeat(c) + "*" + ".".repeat(n - c - 1);
      if (logic.solvesBoard(n, k, labels, stars)) found.push(columns.map(row));
      return;
    }
    for (let c = 0; c < n; c++) { columns[r] = c; walk(r + 1); }
  };
  walk(0);
  return found;
}
process.stdout.write(JSON.stringify({
  maps: maps.map(({ rows, stars }) => {
    const n = rows.length;
    const labels = logic.renameRegions(rows.join(""));
    return {
      words: logic.regionWords(n, labels),
      problems: logic.regionProblems(n, labels),
      url: starBattleUrl(n, stars, labels),
      text: logic.boardText({ n, stars, labels }),
      back: logic.readBoardText(logic.boardText({ n, stars, labels, givens: [[0, 0]] }), maxN),
      labels: labels.join(""),
    };
  }),
  links: links.map((text) => attempt(() => readStarBattleUrl(text, maxN))),
  starSets: starSets.map(({ rows, stars, cells }) => {
    const labels = logic.renameRegions(rows.join(""));
    return [...logic.starConflicts(rows.length, stars, labels, cells)].sort((a, b) => a - b);
  }),
  solving: solveMaps.map(({ rows, stars }) => solving(rows, stars)),
  texts: texts.map((text) => attempt(() => logic.readBoardText(text, maxN))),
  marks: marks.map(({ cells, list }) => {
    const text = logic.encodeMarks(list);
    return { text, back: logic.decodeMarks(text, cells) };
  }),
  badMarks: ["r", "000000", "0q"].map((text) => attempt(() => logic.decodeMarks(text, 4))),
  wrong: [...logic.wrongMarks([1, 2, 0, 1, 2, 0, 0, 0, 2], ["*..", "...", "..*"])].sort(),
  touched: givenBoards.map(({ n, givens }) => {
    const cells = touchedCells(n, givens.map(([r, c]) => r * n + c));
    return [...cells].sort((a, b) => a - b);
  }),
  cycle: [0, 1, 2].map(logic.nextMark),
  renamed: logic.renameRegions("zz1!?"),
  requests: [
    { regions: "xxy\\nxyy  zzz", stars: 1, givens: [[2, 0]] },
    { regions: ["ab", "abc"], stars: 1 },
    { regions: ["ab", "ab"], stars: 2 },
    { regions: ["ab", "ab"], stars: 1, givens: [[2, 0]] },
    { stars: 1 },
  ].map((puzzle) => attempt(() => boardOfPuzzle(puzzle, maxN))),
}));
"""


def python_conflicts(rows: list[str], stars: int, cells: list[int]) -> list[int]:
    """Stars touching another, and every star of a line holding more than ``stars``."""
    n = len(rows)
    on = set(cells)
    bad = {
        a
        for a, b in itertools.permutations(on, 2)
        if max(abs(a // n - b // n), abs(a % n - b % n)) <= 1
    }
    lines: dict[tuple[str, object], list[int]] = {}
    for index in on:
        r, c = divmod(index, n)
        for line in (("row", r), ("col", c), ("region", rows[r][c])):
            lines.setdefault(line, []).append(index)
    for held in lines.values():
        if len(held) > stars:
            bad.update(held)
    return sorted(bad)


def scrambled(rows: list[str], rng: random.Random) -> list[str]:
    """A map with a few cells given a neighbour's region or a new one: often no board."""
    n = len(rows)
    grid = [list(row) for row in rows]
    for _ in range(rng.randint(0, 3)):
        r, c = rng.randrange(n), rng.randrange(n)
        grid[r][c] = rng.choice([*"ABCDEFGHIJ"[: n + 1], "#"])
    return ["".join(row) for row in grid]


def puzzle_of(entry: dict[str, Any]) -> dict[str, Any]:
    return {"regions": entry["rows"], "stars": entry["stars"]}


def python_accepts(rows: list[str], stars: int) -> bool:
    try:
        parse_puzzle({"regions": rows, "stars": stars})
    except SolveError:
        return False
    return True


def test_links_region_checks_and_rules_agree_with_python() -> None:
    rng = random.Random(27)
    maps: list[dict[str, Any]] = []
    for _ in range(120):
        n = rng.randint(1, 9)
        rows = random_regions(n, rng)
        maps.append({"rows": scrambled(rows, rng) if rng.random() < 0.5 else rows, "stars": 1})
    star_sets: list[dict[str, Any]] = []
    for _ in range(150):
        n = rng.randint(2, 8)
        cells = rng.sample(range(n * n), rng.randint(0, n))
        star_sets.append(
            {"rows": random_regions(n, rng), "stars": rng.randint(1, 2), "cells": cells}
        )
    solve_maps = [{"rows": random_regions(n, rng), "stars": 1} for n in (4, 5, 5, 6, 6, 6)]
    solve_maps.append({"rows": star_battle.EXAMPLE["puzzle"]["regions"], "stars": 1})
    good_links = [
        url.write_url(parse_puzzle(puzzle_of(entry))) for entry in maps if python_accepts(**entry)
    ]
    assert len(good_links) > 30
    good_links += PUBLISHED  # published puzzles' links, as Python's tests have them
    bad_links = [
        "starbattle/5/6/1/",  # not square
        f"https://puzz.link/p?starbattle/{MAX_N + 1}/{MAX_N + 1}/1/",  # too large
        "https://puzz.link/p?starbattle/3/3/1/00000000",  # borders too long
        "https://puzz.link/p?starbattle/3/3/1/zz",  # not base-32
    ]
    other_links = ["https://puzz.link/p?shikaku/3/3/g", "hello"]
    short_links = ["starbattle/4/4/1", "http://pzv.jp/p.html?starbattle_edit/5/5/1/4a9a0g0o/"]
    marks: list[dict[str, Any]] = []
    for _ in range(40):
        size = rng.randint(1, 40)
        marks.append({"cells": size, "list": [rng.choice([0, 0, 1, 2]) for _ in range(size)]})
    example = "".join(star_battle.EXAMPLE["puzzle"]["regions"])
    runs = "".join(
        label + (str(length) if length > 1 else "")
        for label, length in ((label, len(list(run))) for label, run in itertools.groupby(example))
    )
    texts = [
        f"6:1:{runs}",
        "4:1:A4B4C4D4:0.1,3.2",
        "6:1:A3",  # too few cells
        "6:4:A36",  # too many stars for 6
        f"{MAX_N + 1}:1:A",
        "4:1:A4B4C4D4:9.9",
        "4:1:A4B4C4D4E",
        "4:1:A4!B4C4D4",
        "4x1:A",
    ]
    given_boards: list[dict[str, Any]] = []
    for _ in range(30):
        n = rng.randint(4, 8)
        rows = random_regions(n, rng)
        given_boards.append(
            {"n": n, "rows": rows, "givens": [[rng.randrange(n), rng.randrange(n)]]}
        )
    page = run_module(
        RUNNER,
        {
            "maps": maps,
            "links": good_links + bad_links + other_links + short_links,
            "starSets": star_sets,
            "solveMaps": solve_maps,
            "texts": texts,
            "marks": marks,
            "maxN": MAX_N,
            "givenBoards": given_boards,
        },
    )
    # Region checks: the page finds nothing wrong exactly where Python accepts the map.
    accepted = 0
    for entry, seen in zip(maps, page["maps"], strict=True):
        ok = python_accepts(**entry)
        accepted += ok
        assert (seen["words"] == "") == ok, (entry, seen)
        assert seen["back"] == {
            "n": len(entry["rows"]),
            "stars": 1,
            "labels": list(seen["labels"]),
            "givens": [[0, 0]],
        }
        if ok:
            # Links written alike, and read back by Python into the same regions.
            board = parse_puzzle(puzzle_of(entry))
            assert seen["url"] == url.write_url(board)
            read = url.read_url(seen["url"])["regions"]
            assert "".join(read) == seen["labels"], entry
    assert 20 < accepted < len(maps)
    # Links read alike (Python's errors are the page's errors), others not links at all.
    readings = page["links"]
    for link, seen in zip(good_links + bad_links, readings, strict=False):
        try:
            expected: dict[str, Any] = url.read_url(link)
        except SolveError as error:
            assert "error" in seen, link
            assert seen["error"] == error.message, (seen, error.message)
            continue
        assert seen == expected, link
    assert readings[len(good_links) + 3]["error"] == (
        "not a Star Battle link: expected https://puzz.link/p?starbattle/<cols>/<rows>/"
        "<stars>/<borders>"
    )
    assert readings[-4:-2] == [None, None]
    assert readings[-2:] == [url.read_url(link) for link in short_links]
    # Conflicts: touching stars and over-full lines, as Python's brute force finds them.
    for entry, seen in zip(star_sets, page["starSets"], strict=True):
        assert seen == python_conflicts(entry["rows"], entry["stars"], entry["cells"]), entry
    # The placements the rule check accepts are the solver's solutions.
    solved = 0
    for entry, seen in zip(solve_maps, page["solving"], strict=True):
        response = pysolver.solve(
            {"kind": "star_battle", "mode": "solve", "limit": 10_000, "puzzle": puzzle_of(entry)}
        )
        assert response["ok"] and response["complete"], response
        assert sorted(seen) == sorted(response["solutions"]), entry
        solved += bool(seen)
    assert solved >= 2
    # Share texts and progress.
    texts_read = page["texts"]
    assert texts_read[0] == {"n": 6, "stars": 1, "labels": list(example), "givens": []}
    assert texts_read[1]["givens"] == [[0, 1], [3, 2]]
    assert [list(result) for result in texts_read[2:]] == [["error"]] * (len(texts) - 2)
    assert texts_read[3]["error"] == "a 6 x 6 board holds 1 to 3 stars per line (got 4)"
    for entry, seen in zip(marks, page["marks"], strict=True):
        assert seen["back"] == entry["list"]
        assert len(seen["text"]) <= -(-entry["cells"] // 3)
    assert all("error" in result for result in page["badMarks"])
    # Wrong marks against a solution: a star where it has none, a dot on its star.
    assert page["wrong"] == [3, 8]
    assert page["cycle"] == [1, 2, 0]
    assert page["renamed"] == ["A", "A", "B", "C", "D"]
    # A request's puzzle on the page: regions renamed, rows checked as Python checks them.
    assert page["requests"][0] == {
        "n": 3,
        "stars": 1,
        "labels": list("AABABBCCC"),
        "givens": [[2, 0]],
    }
    assert [result["error"] for result in page["requests"][1:]] == [
        "row 2 of the regions has 3 characters; a board of 2 rows needs 2 in each",
        "stars must be a whole number from 1 to 1 on a 2 x 2 board (got 2)",
        "bad given star [2,0] for a 2 x 2 board",
        "regions must be the board's rows, one character per cell naming its region",
    ]
    # Round a given star (two stars per line, so no line is full): the cells the Step view leaves
    # unshaded are the options Python's matrix keeps.
    for shaded, touched in zip(given_boards, page["touched"], strict=True):
        n = shaded["n"]
        (given,) = shaded["givens"]
        encoding = star_battle.encode(
            parse_puzzle({"regions": shaded["rows"], "stars": 2, "givens": [given]})
        )
        free = set(range(n * n)) - set(touched) - {given[0] * n + given[1]}
        assert free == {r * n + c for r, c in encoding.cells}, shaded
