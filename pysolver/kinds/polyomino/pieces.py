"""The polyomino library: piece names, their cells, and their orientations.

A shape is a tuple of ``(row, col)`` cells, sorted, shifted so that its smallest row and its
smallest column are 0 (``normalise``). A piece's orientations are the distinct shapes reached by
the four rotations, and by the four reflections too unless reflections are switched off; the
monomino and X pentomino have 1, the I pentomino 2, F 8 (``orientations``).

Library names: the 12 pentominoes ``F I L N P T U V W X Y Z`` (Golomb's letters), the 5 free
tetrominoes ``I4 O4 T4 S4 L4``, the 2 trominoes ``I3 L3``, the domino ``D2``, the monomino ``M1``
and the 35 free hexominoes ``H01`` to ``H35``. Hexominoes have no letters in common use, so they
are numbered in the order of their canonical shapes (``canonical``: the smallest of a shape's
normalised orientations, compared as tuples of cells); ``H01`` is the straight one. Set names:
``pentominoes``, ``tetrominoes``, ``trominoes`` and ``hexominoes``. ``free_polyominoes(n)`` grows
every free polyomino of n cells, the check that each set is complete and has no repeats.

Custom pieces are validated by ``parse_cells``: a non-empty list of ``[row, col]`` integer pairs
(each coordinate within +-``MAX_COORDINATE``), no cell twice, edge-connected, at most
``MAX_PIECE_CELLS`` cells.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from pysolver.protocol import puzzle_error, require_int, require_list

Cell = tuple[int, int]
Shape = tuple[Cell, ...]

# A custom piece may not be bigger than the largest board (see kinds/polyomino/parsing.py), and its
# coordinates must stay small enough that nobody sends a million-wide piece by accident.
MAX_PIECE_CELLS = 400
MAX_COORDINATE = 1000


def normalise(cells: Iterable[Cell]) -> Shape:
    """The cells sorted and shifted so the smallest row and the smallest column are 0."""
    cells = list(cells)
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple(sorted((r - top, c - left) for r, c in cells))


def _picture(*rows: str) -> Shape:
    """A shape drawn as text rows, '#' for a cell; keeps the library readable."""
    return normalise((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#")


PENTOMINOES: dict[str, Shape] = {
    "F": _picture(".##", "##.", ".#."),
    "I": _picture("#####"),
    "L": _picture("####", "#..."),
    "N": _picture("##..", ".###"),
    "P": _picture("##", "##", "#."),
    "T": _picture("###", ".#.", ".#."),
    "U": _picture("#.#", "###"),
    "V": _picture("#..", "#..", "###"),
    "W": _picture("#..", "##.", ".##"),
    "X": _picture(".#.", "###", ".#."),
    "Y": _picture("####", ".#.."),
    "Z": _picture("##.", ".#.", ".##"),
}

TETROMINOES: dict[str, Shape] = {
    "I4": _picture("####"),
    "O4": _picture("##", "##"),
    "T4": _picture("###", ".#."),
    "S4": _picture(".##", "##."),
    "L4": _picture("###", "#.."),
}

TROMINOES: dict[str, Shape] = {
    "I3": _picture("###"),
    "L3": _picture("##", "#."),
}

# The eight symmetries of the square grid as maps of (row, col): four rotations by a quarter
# turn, then the same four composed with a mirror. Rotations come first so that
# ``TRANSFORMS[:4]`` is the rotation group.
TRANSFORMS: tuple[Callable[[int, int], Cell], ...] = (
    lambda r, c: (r, c),
    lambda r, c: (c, -r),
    lambda r, c: (-r, -c),
    lambda r, c: (-c, r),
    lambda r, c: (r, -c),
    lambda r, c: (c, r),
    lambda r, c: (-r, c),
    lambda r, c: (-c, -r),
)
ROTATIONS = TRANSFORMS[:4]


def transform(shape: Iterable[Cell], index: int) -> Shape:
    """``shape`` under ``TRANSFORMS[index]``, normalised."""
    move = TRANSFORMS[index]
    return normalise(move(r, c) for r, c in shape)


def orientations(shape: Iterable[Cell], reflections: bool = True) -> list[Shape]:
    """The distinct normalised orientations of a shape, in a fixed order (the shape's own first)."""
    shape = tuple(shape)
    count = 8 if reflections else 4
    seen: list[Shape] = []
    for index in range(count):
        image = transform(shape, index)
        if image not in seen:
            seen.append(image)
    return seen


def canonical(shape: Iterable[Cell]) -> Shape:
    """The representative of a free shape: the smallest of its orientations (reflections too)."""
    return min(orientations(shape, reflections=True))


def free_polyominoes(size: int) -> list[Shape]:
    """Every free polyomino of ``size`` cells, each as its canonical shape, sorted.

    Grown one cell at a time from the monomino: each shape of n - 1 cells is extended by each
    free neighbouring cell and the results are de-duplicated by their canonical shapes.
    """
    if size < 1:
        return []
    shapes: set[Shape] = {((0, 0),)}
    for _ in range(size - 1):
        grown: set[Shape] = set()
        for shape in shapes:
            cells = set(shape)
            for r, c in shape:
                for neighbour in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if neighbour not in cells:
                        grown.add(canonical((*shape, neighbour)))
        shapes = grown
    return sorted(shapes)


HEXOMINOES: dict[str, Shape] = {
    f"H{number:02d}": shape for number, shape in enumerate(free_polyominoes(6), start=1)
}

LIBRARY: dict[str, Shape] = {
    **PENTOMINOES,
    **TETROMINOES,
    **TROMINOES,
    "D2": _picture("##"),
    "M1": _picture("#"),
    **HEXOMINOES,
}

SETS: dict[str, tuple[str, ...]] = {
    "pentominoes": tuple(PENTOMINOES),
    "tetrominoes": tuple(TETROMINOES),
    "trominoes": tuple(TROMINOES),
    "hexominoes": tuple(HEXOMINOES),
}


def is_connected(shape: Iterable[Cell]) -> bool:
    """True when every cell can reach every other through edge-adjacent cells."""
    cells = set(shape)
    if not cells:
        return False
    start = next(iter(cells))
    reached = {start}
    frontier = [start]
    while frontier:
        r, c = frontier.pop()
        for neighbour in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if neighbour in cells and neighbour not in reached:
                reached.add(neighbour)
                frontier.append(neighbour)
    return len(reached) == len(cells)


def parse_cells(value: Any, path: str) -> Shape:
    """A custom piece's ``cells`` value, validated and normalised; errors name ``path``."""
    cells = require_list(value, path)
    if not cells:
        raise puzzle_error(f"{path} is empty; a piece needs at least one cell", path)
    if len(cells) > MAX_PIECE_CELLS:
        raise puzzle_error(
            f"{path} has {len(cells)} cells; a piece may have at most {MAX_PIECE_CELLS}", path
        )
    seen: dict[Cell, int] = {}
    for i, pair in enumerate(cells):
        cell_path = f"{path}[{i}]"
        pair = require_list(pair, cell_path)
        if len(pair) != 2:
            raise puzzle_error(
                f"{cell_path} must be a [row, col] pair, got {len(pair)} numbers", cell_path
            )
        row = require_int(pair[0], f"{cell_path}[0]", -MAX_COORDINATE, MAX_COORDINATE)
        col = require_int(pair[1], f"{cell_path}[1]", -MAX_COORDINATE, MAX_COORDINATE)
        if (row, col) in seen:
            raise puzzle_error(
                f"{cell_path} repeats cell [{row}, {col}] (already at index {seen[(row, col)]})",
                cell_path,
            )
        seen[(row, col)] = i
    if not is_connected(seen):
        raise puzzle_error(
            f"{path} is not connected: each cell must share an edge with another cell of the piece",
            path,
        )
    return normalise(seen)


def known_names() -> str:
    """The accepted piece and set names, for error messages (the hexominoes as one range)."""
    lettered = [name for name in LIBRARY if name not in HEXOMINOES]
    hexominoes = list(HEXOMINOES)
    return ", ".join([*SETS, *lettered, f"{hexominoes[0]} to {hexominoes[-1]}"])
