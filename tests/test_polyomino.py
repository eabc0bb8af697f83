"""Polyomino tiling: encoding, known counts, symmetry, random mode, bad input.

Small cases are checked against an independent brute-force tiler written here (fill the first
empty cell with every piece that fits), which knows nothing of exact cover.
"""

from __future__ import annotations

import itertools

import pytest

from pysolver import solve
from pysolver.engines import trace
from pysolver.kinds import polyomino
from pysolver.kinds.polyomino import ENGINES, build_problem, parsing
from pysolver.kinds.polyomino.pieces import LIBRARY, SETS, normalise, orientations

PENTOMINOES = ["pentominoes"]
HOLE_8X8 = ["........"] * 3 + ["...##..."] * 2 + ["........"] * 3
SQUARE_8X8 = ["........"] * 8


def rectangle(rows: int, cols: int) -> list[str]:
    return ["." * cols] * rows


def request(board: list[str], pieces: list, **fields: object) -> dict:
    puzzle: dict = {"board": board, "pieces": pieces}
    if "reflections" in fields:
        puzzle["reflections"] = fields.pop("reflections")
    return {"kind": "polyomino", "puzzle": puzzle, **fields}


def count(board: list[str], pieces: list, **fields: object) -> int:
    response = solve(request(board, pieces, mode="count", **fields))
    assert response["ok"], response
    assert response["complete"]
    return response["count"]


# ---------------------------------------------------------------- independent reference


def board_cells(board: list[str]) -> set[tuple[int, int]]:
    return {(r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch == "."}


def reference_tilings(
    board: list[str], pieces: dict[str, int], reflections: bool = True
) -> set[frozenset]:
    """Every tiling as a frozenset of (name, frozenset of cells), by plain backtracking."""
    cells = board_cells(board)
    shapes = {name: orientations(LIBRARY[name], reflections) for name in pieces}
    found: set[frozenset] = set()

    def fill(empty: set, left: dict[str, int], placed: list) -> None:
        if not empty:
            found.add(frozenset(placed))
            return
        first = min(empty)
        for name, shape_list in shapes.items():
            if not left[name]:
                continue
            for shape in shape_list:
                dr, dc = first[0] - shape[0][0], first[1] - shape[0][1]
                spot = frozenset((r + dr, c + dc) for r, c in shape)
                if spot <= empty:
                    left[name] -= 1
                    placed.append((name, spot))
                    fill(empty - spot, left, placed)
                    placed.pop()
                    left[name] += 1

    fill(cells, dict(pieces), [])
    return found


def plane_maps(reflections: bool) -> list:
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (c, -r),
        lambda r, c: (-r, -c),
        lambda r, c: (-c, r),
    ]
    if reflections:
        maps += [lambda r, c, m=m: m(r, -c) for m in list(maps)]
    return maps


def reference_classes(board: list[str], tilings: set[frozenset], maps: list) -> int:
    """The number of classes of ``tilings`` under those plane maps that keep the board."""
    cells = sorted(board_cells(board))
    top, left = min(r for r, _ in cells), min(c for _, c in cells)
    symmetries = []
    for move in maps:
        image = [move(r, c) for r, c in cells]
        shift = (top - min(r for r, _ in image), left - min(c for _, c in image))
        mapping = {
            cell: (i[0] + shift[0], i[1] + shift[1]) for cell, i in zip(cells, image, strict=True)
        }
        if sorted(mapping.values()) == cells:
            symmetries.append(mapping)
    classes = set()
    for tiling in tilings:
        images = [
            frozenset((name, frozenset(m[x] for x in spot)) for name, spot in tiling)
            for m in symmetries
        ]
        classes.add(min(images, key=lambda t: sorted((n, sorted(s)) for n, s in t)))
    return len(classes)


def as_tiling(solution: list[dict]) -> frozenset:
    return frozenset(
        (piece["piece"], frozenset(tuple(cell) for cell in piece["cells"])) for piece in solution
    )


def assert_valid(board: list[str], pieces: dict[str, int], solution: list[dict]) -> None:
    """Each solution covers the board exactly once with exactly the pieces asked for."""
    covered = [tuple(cell) for piece in solution for cell in piece["cells"]]
    assert sorted(covered) == sorted(board_cells(board))
    used: dict[str, int] = {}
    for piece in solution:
        assert piece["cells"] == sorted(piece["cells"])
        used[piece["piece"]] = used.get(piece["piece"], 0) + 1
        shape = normalise(tuple(cell) for cell in piece["cells"])
        assert shape in orientations(LIBRARY[piece["piece"]])
    assert used == pieces


def pentomino_counts(*extra: str) -> dict[str, int]:
    counts = dict.fromkeys(SETS["pentominoes"], 1)
    for name in extra:
        counts[name] = counts.get(name, 0) + 1
    return counts


# ---------------------------------------------------------------- encoding


def test_build_problem_items_and_options() -> None:
    problem = build_problem({"board": rectangle(3, 20), "pieces": PENTOMINOES})
    assert problem.primary == 60 + 12
    assert problem.secondary == 0
    # Each option is a piece's 5 cells plus its piece item.
    assert all(len(option) == 6 for option in problem.options)
    assert all(60 <= option[-1] < 72 for option in problem.options)
    # The X pentomino fits 1 x 18 ways in a 3 x 20 box; the I pentomino 2 orientations, 48 + 0.
    x_item = 60 + SETS["pentominoes"].index("X")
    i_item = 60 + SETS["pentominoes"].index("I")
    assert sum(1 for option in problem.options if option[-1] == x_item) == 18
    assert sum(1 for option in problem.options if option[-1] == i_item) == 48


def test_build_problem_distinct_keeps_one_placement_per_orbit() -> None:
    full = build_problem({"board": rectangle(6, 10), "pieces": PENTOMINOES})
    distinct = build_problem({"board": rectangle(6, 10), "pieces": PENTOMINOES}, "distinct")
    # Knuth's restriction: the X pentomino keeps 8 of its 32 placements (one per orbit of 4).
    assert len(full.options) - len(distinct.options) == 24


@pytest.mark.parametrize(
    ("board", "pieces"),
    [
        (rectangle(4, 4), {"L4": 4}),
        (rectangle(4, 4), {"L4": 2, "D2": 4}),
        (rectangle(4, 4), {"T4": 2, "L4": 1, "O4": 1}),
        (rectangle(2, 6), {"D2": 6}),
        (["....", ".#..", "...."], {"L4": 1, "S4": 1, "M1": 1, "D2": 1}),
        (rectangle(5, 4), {"L4": 3, "T4": 1, "O4": 1}),
    ],
)
def test_counts_and_tilings_match_brute_force(board: list[str], pieces: dict[str, int]) -> None:
    expected = reference_tilings(board, pieces)
    spec = [{"name": name, "count": n} for name, n in pieces.items()]
    response = solve(request(board, spec, mode="solve", limit=10_000))
    assert response["count"] == len(expected)
    assert response["complete"]
    found = [as_tiling(s) for s in response["solutions"]]
    assert len(set(found)) == len(found)  # identical copies never give the same tiling twice
    assert set(found) == expected
    for solution in response["solutions"]:
        assert_valid(board, pieces, solution)


@pytest.mark.parametrize(
    ("board", "pieces", "reflections"),
    [
        (rectangle(4, 4), {"L4": 4}, True),
        (rectangle(4, 4), {"L4": 4}, False),  # chiral one-sided pieces: rotations only
        (rectangle(4, 4), {"T4": 4}, False),  # achiral pieces: reflections still apply
        (rectangle(5, 5), {"X": 1, "D2": 10}, True),  # every X placement is fixed by a symmetry
        (rectangle(4, 5), {"L4": 2, "T4": 1, "O4": 1, "M1": 4}, True),
        (["#...#", ".....", ".....", "#...#"], {"L4": 2, "T4": 2}, True),
        (rectangle(3, 4), {"L4": 2, "D2": 2}, True),
        # X fixed on a diagonal, then V, W or O4 fixed by that diagonal too: two-level dedup.
        (rectangle(5, 5), {"X": 1, "V": 1, "W": 1, "O4": 1, "T4": 1, "M1": 2}, True),
    ],
)
def test_distinct_counts_match_brute_force_classes(
    board: list[str], pieces: dict[str, int], reflections: bool
) -> None:
    tilings = reference_tilings(board, pieces, reflections)
    chiral = any(
        len(orientations(LIBRARY[name])) != len(orientations(LIBRARY[name], False))
        for name in pieces
    )
    maps = plane_maps(reflections or not chiral)
    spec = [{"name": name, "count": n} for name, n in pieces.items()]
    kwargs = {"reflections": reflections}
    assert count(board, spec, **kwargs) == len(tilings)
    assert count(board, spec, symmetry="distinct", **kwargs) == reference_classes(
        board, tilings, maps
    )
    response = solve(
        request(board, spec, mode="solve", limit=10_000, symmetry="distinct", **kwargs)
    )
    found = [as_tiling(s) for s in response["solutions"]]
    assert reference_classes(board, set(found), maps) == len(found) == response["count"]


# ---------------------------------------------------------------- known counts


def test_pentominoes_3x20_and_4x15() -> None:
    assert count(rectangle(3, 20), PENTOMINOES, symmetry="distinct") == 2
    assert count(rectangle(3, 20), PENTOMINOES) == 8
    assert count(rectangle(4, 15), PENTOMINOES, symmetry="distinct") == 368


def test_trominoes_and_hexominoes_from_the_library() -> None:
    # Two L trominoes fill 2x3 in two ways (the missing corner of the left one is in column 1).
    assert count(rectangle(2, 3), [{"name": "L3", "count": 2}]) == 2
    # I3 and L3 together: 2x3 cannot be split into a straight row and an L.
    assert count(rectangle(2, 3), ["trominoes"]) == 0
    # The straight hexomino twice fills 2x6 one way; six copies fill 6x6 two ways (all rows
    # or all columns: one vertical piece forces the rest to be vertical).
    assert count(rectangle(2, 6), [{"name": "H01", "count": 2}]) == 1
    assert count(rectangle(6, 6), [{"name": "H01", "count": 6}]) == 2
    # The 35 hexominoes cover 210 cells: the set is expanded by name.
    response = solve(request(rectangle(6, 30), ["hexominoes"], mode="count"))
    assert response["error"]["code"] == "invalid_puzzle"
    assert "pieces cover 210" in response["error"]["message"]


def test_pentominoes_8x8_with_centre_hole() -> None:
    assert count(HOLE_8X8, PENTOMINOES, symmetry="distinct") == 65
    assert count(HOLE_8X8, PENTOMINOES) == 520


@pytest.mark.slow
def test_pentominoes_6x10_and_5x12_distinct() -> None:
    assert count(rectangle(6, 10), PENTOMINOES, symmetry="distinct") == 2339
    assert count(rectangle(5, 12), PENTOMINOES, symmetry="distinct") == 1010


def test_distinct_solve_returns_every_class_once() -> None:
    response = solve(request(HOLE_8X8, PENTOMINOES, limit=100, symmetry="distinct"))
    assert response["count"] == 65 and response["complete"]
    found = {as_tiling(s) for s in response["solutions"]}
    assert reference_classes(HOLE_8X8, found, plane_maps(True)) == 65


def test_solve_limit_and_completeness() -> None:
    response = solve(request(rectangle(3, 20), PENTOMINOES, limit=20))
    assert response["count"] == 8 and response["complete"]
    response = solve(request(rectangle(3, 20), PENTOMINOES, limit=3))
    assert response["count"] == 3 and not response["complete"]
    response = solve(request(rectangle(3, 20), PENTOMINOES, mode="count", limit=5))
    assert response["count"] == 5 and not response["complete"]
    assert response["solutions"] == []


def test_impossible_tiling_counts_zero() -> None:
    for mode in ("solve", "count", "random"):
        response = solve(request(["####", "...."], ["O4"], mode=mode))
        assert response["ok"] and response["count"] == 0 and response["complete"], response
    # Reflections off: the 3x20 tilings need both hands of some pieces.
    assert count(rectangle(3, 20), PENTOMINOES, reflections=False) == 0


# ---------------------------------------------------------------- random


def test_random_tilings_are_distinct_valid_and_seeded() -> None:
    pieces = ["pentominoes", "O4"]
    first = solve(request(SQUARE_8X8, pieces, mode="random", limit=12, seed=5))
    again = solve(request(SQUARE_8X8, pieces, mode="random", limit=12, seed=5))
    other = solve(request(SQUARE_8X8, pieces, mode="random", limit=12, seed=6))
    assert first["seed"] == 5 and first["count"] == 12
    assert first["solutions"] == again["solutions"]
    assert first["solutions"] != other["solutions"]
    tilings = [as_tiling(s) for s in first["solutions"]]
    assert len(set(tilings)) == 12
    for solution in first["solutions"]:
        assert_valid(SQUARE_8X8, pentomino_counts("O4"), solution)


def test_random_spreads_over_the_space() -> None:
    # Restarts, not neighbours: the 2x2 square should not sit in the same place every time.
    response = solve(request(SQUARE_8X8, ["pentominoes", "O4"], mode="random", limit=20, seed=11))
    squares = {
        tuple(map(tuple, p["cells"]))
        for s in response["solutions"]
        for p in s
        if p["piece"] == "O4"
    }
    assert len(squares) >= 5


def test_random_when_fewer_tilings_exist_than_asked() -> None:
    board, pieces = rectangle(4, 4), {"L4": 4}
    tilings = reference_tilings(board, pieces)
    response = solve(request(board, ["L4"] * 4, mode="random", limit=50, seed=2))
    assert response["count"] == len(tilings) and response["complete"]
    assert {as_tiling(s) for s in response["solutions"]} == tilings
    response = solve(
        request(board, ["L4"] * 4, mode="random", limit=50, seed=2, symmetry="distinct")
    )
    classes = reference_classes(board, tilings, plane_maps(True))
    assert response["count"] == classes and response["complete"]
    found = {as_tiling(s) for s in response["solutions"]}
    assert reference_classes(board, found, plane_maps(True)) == classes


def test_random_distinct_returns_non_equivalent_tilings() -> None:
    response = solve(
        request(HOLE_8X8, PENTOMINOES, mode="random", limit=15, seed=3, symmetry="distinct")
    )
    tilings = {as_tiling(s) for s in response["solutions"]}
    assert len(tilings) == 15
    assert reference_classes(HOLE_8X8, tilings, plane_maps(True)) == 15


# ---------------------------------------------------------------- pieces and engines


def test_custom_pieces_with_counts() -> None:
    bar = {"name": "bar", "cells": [[0, 0], [0, 1], [0, 2]], "count": 3}
    corner = {"name": "corner", "cells": [[0, 0], [1, 0], [1, 1]], "count": 2}
    response = solve(request(rectangle(3, 5), [bar, corner], limit=1000))
    assert response["complete"] and response["count"] > 0
    for solution in response["solutions"]:
        names = sorted(p["piece"] for p in solution)
        assert names == ["bar"] * 3 + ["corner"] * 2
    assert len({as_tiling(s) for s in response["solutions"]}) == response["count"]


def test_names_given_twice_add_up() -> None:
    assert count(rectangle(2, 4), ["O4", "O4"]) == 1
    assert count(rectangle(2, 4), [{"name": "O4", "count": 2}]) == 1


@pytest.mark.parametrize("engine", ENGINES)
def test_engines_agree(engine: str) -> None:
    assert count(rectangle(4, 4), [{"name": "L4", "count": 4}], engine=engine) == 10
    assert count(rectangle(5, 5), ["X", {"name": "D2", "count": 10}], engine=engine) == len(
        reference_tilings(rectangle(5, 5), {"X": 1, "D2": 10})
    )
    pieces = {"L4": 2, "T4": 1, "O4": 1, "M1": 4}
    spec = [{"name": name, "count": n} for name, n in pieces.items()]
    expected = reference_tilings(rectangle(4, 5), pieces)
    assert count(rectangle(4, 5), spec, engine=engine) == len(expected)
    response = solve(request(rectangle(4, 4), ["L4"] * 4, engine=engine, limit=20))
    assert response["engine"] == engine and response["count"] == 10


def test_progress_and_cancel() -> None:
    reports: list[dict] = []
    response = solve(
        request(rectangle(6, 10), PENTOMINOES, mode="count"),
        progress=reports.append,
        cancel=lambda: len(reports) >= 2,
    )
    assert response["ok"] and response["cancelled"] and not response["complete"]
    assert reports[-1].get("done")


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("puzzle", "path", "fragments"),
    [
        ({"board": rectangle(2, 5), "pieces": ["O4"]}, "puzzle.pieces", ["10", "4"]),
        ({"board": rectangle(2, 2), "pieces": ["Q7"]}, "puzzle.pieces[0]", ["'Q7'", "pentominoes"]),
        ({"board": ["....", "..."], "pieces": ["O4"]}, "puzzle.board[1]", ["same length"]),
        ({"board": ["..", ".x"], "pieces": ["O4"]}, "puzzle.board[1]", ["'x'"]),
        ({"board": [], "pieces": ["O4"]}, "puzzle.board", ["empty"]),
        ({"board": ["##"], "pieces": ["O4"]}, "puzzle.board", ["no cell"]),
        ({"board": "....", "pieces": ["O4"]}, "puzzle.board", ["must be a list"]),
        ({"board": [".."], "pieces": "D2"}, "puzzle.pieces", ["must be a list"]),
        ({"board": [".."], "pieces": []}, "puzzle.pieces", ["empty"]),
        ({"board": [".."], "pieces": [3]}, "puzzle.pieces[0]", ["must be an object"]),
        ({"board": [".."]}, "puzzle.pieces", ["needs"]),
        ({"board": [".."], "pieces": ["D2"], "reflections": "yes"}, "puzzle.reflections", []),
        ({"board": [".."], "pieces": ["D2"], "colour": 1}, "puzzle.colour", ["unknown field"]),
        (
            {"board": ["..."], "pieces": [{"name": "A", "cells": [[0, 0], [0, 2]]}]},
            "puzzle.pieces[0].cells",
            ["not connected"],
        ),
        (
            {"board": [".."], "pieces": [{"name": "A", "cells": [[0, 0]], "count": 0}]},
            "puzzle.pieces[0].count",
            ["at least 1"],
        ),
        ({"board": [".."], "pieces": [{"name": "A"}]}, "puzzle.pieces[0]", ["needs cells"]),
        (
            {"board": ["..."], "pieces": ["D2", {"name": "D2", "cells": [[0, 0]]}]},
            "puzzle.pieces[1]",
            ["different shape"],
        ),
        ({"board": rectangle(21, 20), "pieces": ["M1"]}, "puzzle.board", ["420", "400"]),
        ({"board": rectangle(1, 201), "pieces": ["M1"]}, "puzzle.board[0]", ["201"]),
        (["....", "...."], "puzzle", ["must be an object"]),
    ],
)
def test_bad_puzzles_are_clear_errors(puzzle: object, path: str, fragments: list[str]) -> None:
    response = solve({"kind": "polyomino", "puzzle": puzzle})
    assert not response["ok"], response
    assert response["error"]["path"] == path
    for fragment in fragments:
        assert fragment in response["error"]["message"]


def test_bad_symmetry_and_engine() -> None:
    response = solve(request(rectangle(1, 2), ["D2"], symmetry="mirror"))
    assert response["error"]["path"] == "symmetry"
    assert "distinct" in response["error"]["message"]
    response = solve(request(rectangle(1, 2), ["D2"], engine="magic"))
    assert response["error"]["code"] == "unknown_engine"


def test_oversized_matrix_is_refused() -> None:
    # 400 cells and 100 copies of a ordered custom piece: far beyond the matrix entry cap.
    pieces = [
        {"name": "A", "cells": [[0, 0], [0, 1]], "count": 100},
        {"name": "B", "cells": [[0, 0], [1, 0]], "count": 100},
    ]
    response = solve(request(rectangle(20, 20), pieces))
    assert response["error"]["code"] == "too_large"


def test_distinct_dedup_memory_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    # Dominoes alone: no piece is used once, so every tiling would be kept for de-duplication.
    monkeypatch.setattr(polyomino, "MAX_KEPT_TILINGS", 10)
    response = solve(
        request(rectangle(4, 4), [{"name": "D2", "count": 8}], symmetry="distinct", mode="count")
    )
    assert response["error"]["code"] == "too_large"
    assert "symmetry 'all'" in response["error"]["message"]
    # Solving for a few classes stays within the cap.
    response = solve(request(rectangle(4, 4), ["D2"] * 8, symmetry="distinct", limit=2))
    assert response["count"] == 2 and not response["complete"]


def test_unique_piece_combinations_small() -> None:
    # Every pair of tetrominoes on a 2x4 board: the count agrees with brute force.
    for a, b in itertools.combinations(SETS["tetrominoes"], 2):
        expected = len(reference_tilings(rectangle(2, 4), {a: 1, b: 1}))
        assert count(rectangle(2, 4), [a, b]) == expected


# ---------------------------------------------------------------- trace mode and heatmaps

SQUARE_4X4 = rectangle(4, 4)
FOUR_PIECES = ["L4", "L4", "O4", "I4"]  # 24 tilings; the repeated L4 brings ordering items


@pytest.mark.parametrize("engine", ENGINES)
def test_trace_replays_to_the_solutions_it_reports(engine: str) -> None:
    board = SQUARE_4X4
    pieces = FOUR_PIECES
    response = solve(request(board, pieces, mode="trace", limit=None, engine=engine))
    assert response["ok"] and response["complete"] and not response["truncated"]
    boards = trace.replay(response["steps"])
    assert [as_tiling(b) for b in boards] == [as_tiling(s) for s in response["solutions"]]
    assert response["count"] == len(boards) == count(board, pieces)
    for step in response["steps"]:
        assert step["text"] and step["depth"] >= 0
        if step["type"] == "choose":
            assert set(step["item"]) in ({"cell"}, {"piece", "copy"})
    # The trace walks the engine's own tree: same first tiling, same node count.
    solved = solve(request(board, pieces, engine=engine))
    first = solve(request(board, pieces, mode="trace", engine=engine))
    assert first["solutions"] == solved["solutions"]
    assert first["stats"]["nodes"] == solved["stats"]["nodes"]


def test_trace_of_3x20_pentominoes_reaches_its_first_solution() -> None:
    response = solve(request(rectangle(3, 20), ["pentominoes"], mode="trace", max_steps=100_000))
    assert response["ok"] and response["count"] == 1 and not response["truncated"]
    assert response["steps"][0]["type"] == "choose"
    assert as_tiling(trace.replay(response["steps"])[0]) == as_tiling(response["solutions"][0])


def test_trace_respects_max_steps_honestly() -> None:
    full = solve(request(SQUARE_4X4, FOUR_PIECES, mode="trace", limit=None))
    steps = len(full["steps"])
    exact = solve(request(SQUARE_4X4, FOUR_PIECES, mode="trace", limit=None, max_steps=steps))
    assert not exact["truncated"] and exact["complete"]
    cut = solve(request(SQUARE_4X4, FOUR_PIECES, mode="trace", limit=None, max_steps=steps - 1))
    assert cut["truncated"] and not cut["complete"]
    assert cut["steps"] == full["steps"][: steps - 1]
    assert cut["count"] == len(trace.replay(cut["steps"])) == len(cut["solutions"])


def test_trace_refuses_distinct_symmetry() -> None:
    response = solve(request(SQUARE_4X4, FOUR_PIECES, mode="trace", symmetry="distinct"))
    assert not response["ok"] and response["error"]["path"] == "symmetry"


def test_heatmap_equals_counts_over_enumerated_tilings() -> None:
    board = rectangle(3, 5)
    pieces = {"P": 1, "V": 1, "U": 1}
    tilings = reference_tilings(board, pieces)
    expected = {name: [[0] * 5 for _ in range(3)] for name in pieces}
    for tiling in tilings:
        for name, spot in tiling:
            for r, c in spot:
                expected[name][r][c] += 1
    response = solve(request(board, ["P", "V", "U"], mode="count", heatmap=True))
    assert response["ok"] and response["count"] == len(tilings) > 0
    assert response["heatmap"] == expected
    assert response["solutions"] == []


def test_heatmap_with_distinct_counts_one_tiling_per_class() -> None:
    board = SQUARE_4X4
    response = solve(request(board, FOUR_PIECES, mode="count", heatmap=True, symmetry="distinct"))
    assert response["ok"] and 0 < response["count"] < 24
    listed = solve(request(board, FOUR_PIECES, limit=None, symmetry="distinct"))
    expected = {name: [[0] * 4 for _ in range(4)] for name in FOUR_PIECES}
    for solution in listed["solutions"]:
        for piece in solution:
            for r, c in piece["cells"]:
                expected[piece["piece"]][r][c] += 1
    assert response["heatmap"] == expected
    total = sum(sum(map(sum, grid)) for grid in response["heatmap"].values())
    assert total == 16 * response["count"]


def test_distinct_count_without_any_symmetry_branch_is_zero_not_an_error() -> None:
    # X has no place in the 5x3 board the symmetry plan restricts it to: no branch at all.
    puzzle = {"board": ["..."] * 5, "pieces": ["I", "L", "X"]}
    response = solve(
        {"kind": "polyomino", "mode": "count", "symmetry": "distinct", "puzzle": puzzle}
    )
    assert response["ok"], response
    assert response["count"] == 0 and response["complete"]


def test_pieces_past_the_board_area_are_read_without_their_orientations(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A request can list tens of thousands of custom pieces (34,697 bars of 60 cells fill the
    # 20-million-character limit; building their orientations took 700 MB). Only the pieces
    # within the board's area get theirs; the refusal still says what all of them cover.
    built = []

    def counted(shape, reflections):
        built.append(shape)
        return orientations(shape, reflections)

    monkeypatch.setattr(parsing, "orientations", counted)
    bar = {"cells": [[0, column] for column in range(60)]}
    pieces = [{"name": f"P{index}", **bar} for index in range(1000)]
    response = solve(request(rectangle(20, 20), pieces))
    assert response["error"]["code"] == "invalid_puzzle"
    assert response["error"]["path"] == "puzzle.pieces"
    assert "400 cells to cover but the pieces cover 60000" in response["error"]["message"]
    assert len(built) == 6  # 360 cells; the seventh bar passes 400
