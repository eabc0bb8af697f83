"""Reading a polyomino puzzle: the board's cells and the pieces (see the package docstring).

Errors are ``SolveError`` with the JSON path of the offending value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pysolver.boards import read_board_rows
from pysolver.kinds.polyomino.pieces import (
    LIBRARY,
    SETS,
    Shape,
    known_names,
    orientations,
    parse_cells,
)
from pysolver.protocol import (
    TOO_LARGE,
    SolveError,
    check_fields,
    puzzle_error,
    require_bool,
    require_dict,
    require_int,
    require_list,
    require_str,
    shown,
)

MAX_BOARD_CELLS = 400
MAX_BOARD_SIDE = 200
MAX_COPIES = 400
SYMMETRIES = ("all", "distinct")
# The fields of a polyomino puzzle and of a piece given as an object; others are refused.
PUZZLE_FIELDS = ("board", "pieces", "reflections")
PIECE_FIELDS = ("name", "cells", "count")

Cell = tuple[int, int]


@dataclass
class Piece:
    name: str
    shape: Shape
    count: int
    orientations: list[Shape]


@dataclass
class Tiling:
    """A validated puzzle: the board's cells (row-major) and the pieces."""

    cells: list[Cell]
    pieces: list[Piece]
    reflections: bool
    index: dict[Cell, int] = field(init=False)

    def __post_init__(self) -> None:
        self.index = {cell: i for i, cell in enumerate(self.cells)}


def parse_board(value: Any, path: str = "puzzle.board") -> list[Cell]:
    """The cells to cover, row-major, from rows of '.' and '#'."""
    rows = read_board_rows(value, path, MAX_BOARD_SIDE)
    cells: list[Cell] = [
        (r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "."
    ]
    if not cells:
        raise puzzle_error(f"{path} has no cell to cover ('.')", path)
    if len(cells) > MAX_BOARD_CELLS:
        raise SolveError(
            TOO_LARGE,
            f"{path} has {len(cells)} cells to cover; the limit is {MAX_BOARD_CELLS}",
            path,
        )
    return cells


def parse_pieces(
    value: Any, reflections: bool, path: str = "puzzle.pieces", board_cells: int | None = None
) -> list[Piece]:
    """The pieces in the order given; a name given twice adds up its counts.

    board_cells: the cells the pieces must cover, or ``invalid_puzzle`` saying how many they
    cover. Pieces past that area are still read and checked, but their orientations are never
    built: a 20-million-character list of pieces took 700 MB for them (34,697 bars of 60 cells).
    """
    entries = require_list(value, path)
    if not entries:
        raise puzzle_error(f"{path} is empty; name at least one piece", path)
    pieces: dict[str, Piece] = {}
    first_path: dict[str, str] = {}
    covered = 0

    def add(name: str, shape: Shape, count: int, entry_path: str) -> None:
        nonlocal covered
        covered += len(shape) * count
        if board_cells is not None and covered > board_cells:
            return  # refused for the area below: no piece of it is searched
        piece = pieces.get(name)
        if piece is None:
            pieces[name] = Piece(name, shape, count, orientations(shape, reflections))
            first_path[name] = entry_path
        elif piece.shape not in orientations(shape, True):
            raise puzzle_error(
                f"{entry_path} names piece {shown(name)} with a different shape than "
                f"{first_path[name]}; give different pieces different names",
                entry_path,
            )
        else:
            piece.count += count
        if pieces[name].count > MAX_COPIES:
            raise SolveError(
                TOO_LARGE,
                f"{entry_path}: piece {shown(name)} is used {pieces[name].count} times; "
                f"the limit is {MAX_COPIES}",
                entry_path,
            )

    for i, entry in enumerate(entries):
        entry_path = f"{path}[{i}]"
        if isinstance(entry, str):
            if entry in SETS:
                for name in SETS[entry]:
                    add(name, LIBRARY[name], 1, entry_path)
            elif entry in LIBRARY:
                add(entry, LIBRARY[entry], 1, entry_path)
            else:
                raise puzzle_error(
                    f"{entry_path}: unknown piece {shown(entry)}; known names: {known_names()} "
                    '(or give {"name": ..., "cells": [[r, c], ...]})',
                    entry_path,
                )
            continue
        entry = require_dict(entry, entry_path)
        check_fields(entry, PIECE_FIELDS, entry_path)
        if "name" not in entry:
            raise puzzle_error(f"{entry_path} needs a name", entry_path)
        name = require_str(entry["name"], f"{entry_path}.name")
        if not name:
            raise puzzle_error(f"{entry_path}.name is empty", f"{entry_path}.name")
        count = require_int(entry.get("count", 1), f"{entry_path}.count", 1, MAX_COPIES)
        if "cells" in entry:
            shape = parse_cells(entry["cells"], f"{entry_path}.cells")
        elif name in LIBRARY:
            shape = LIBRARY[name]
        else:
            raise puzzle_error(
                f"{entry_path}: piece {shown(name)} is not in the library, so it needs cells; "
                f"library names: {', '.join(LIBRARY)}",
                entry_path,
            )
        add(name, shape, count, entry_path)
    if board_cells is not None and covered != board_cells:
        raise puzzle_error(
            f"the board has {board_cells} cells to cover but the pieces cover {covered}; "
            "they must be equal",
            path,
        )
    return list(pieces.values())


def parse_puzzle(puzzle: Any) -> Tiling:
    """Validate a polyomino puzzle dict (raising ``SolveError`` with paths)."""
    puzzle = require_dict(puzzle, "puzzle")
    check_fields(puzzle, PUZZLE_FIELDS, "puzzle")
    for key in ("board", "pieces"):
        if key not in puzzle:
            raise puzzle_error(f"puzzle needs {shown(key)}", f"puzzle.{key}")
    reflections = require_bool(puzzle.get("reflections", True), "puzzle.reflections")
    cells = parse_board(puzzle["board"])
    pieces = parse_pieces(puzzle["pieces"], reflections, board_cells=len(cells))
    return Tiling(cells, pieces, reflections)


def parse_symmetry(value: Any) -> str:
    symmetry = require_str(value, "symmetry")
    if symmetry not in SYMMETRIES:
        raise puzzle_error(
            f"unknown symmetry {shown(symmetry)}; choose one of {', '.join(SYMMETRIES)}", "symmetry"
        )
    return symmetry
