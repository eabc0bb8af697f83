"""The polyomino library: shapes, orientation counts, custom piece validation."""

from __future__ import annotations

import pytest

from pysolver.kinds.polyomino.pieces import (
    HEXOMINOES,
    LIBRARY,
    SETS,
    canonical,
    free_polyominoes,
    is_connected,
    known_names,
    normalise,
    orientations,
    parse_cells,
)
from pysolver.protocol import SolveError

# (with reflections, rotations only) for every library piece.
ORIENTATION_COUNTS = {
    "F": (8, 4),
    "I": (2, 2),
    "L": (8, 4),
    "N": (8, 4),
    "P": (8, 4),
    "T": (4, 4),
    "U": (4, 4),
    "V": (4, 4),
    "W": (4, 4),
    "X": (1, 1),
    "Y": (8, 4),
    "Z": (4, 2),
    "I4": (2, 2),
    "O4": (1, 1),
    "T4": (4, 4),
    "S4": (4, 2),
    "L4": (8, 4),
    "I3": (2, 2),
    "L3": (4, 4),
    "D2": (2, 2),
    "M1": (1, 1),
}


def test_library_names_and_sets() -> None:
    assert set(LIBRARY) == set(ORIENTATION_COUNTS) | set(HEXOMINOES)
    assert SETS["pentominoes"] == tuple("FILNPTUVWXYZ")
    assert SETS["tetrominoes"] == ("I4", "O4", "T4", "S4", "L4")
    assert SETS["trominoes"] == ("I3", "L3")
    assert SETS["hexominoes"] == tuple(f"H{n:02d}" for n in range(1, 36))


@pytest.mark.parametrize(("size", "count"), [(1, 1), (2, 1), (3, 2), (4, 5), (5, 12), (6, 35)])
def test_free_polyomino_counts(size: int, count: int) -> None:
    # OEIS A000105: free polyominoes by number of cells.
    shapes = free_polyominoes(size)
    assert len(shapes) == count
    assert len(set(shapes)) == count
    assert all(len(shape) == size and is_connected(shape) for shape in shapes)
    assert all(shape == canonical(shape) for shape in shapes)


@pytest.mark.parametrize(
    ("set_name", "size"),
    [("trominoes", 3), ("tetrominoes", 4), ("pentominoes", 5), ("hexominoes", 6)],
)
def test_each_set_is_every_free_polyomino_of_its_size_once(set_name: str, size: int) -> None:
    free_shapes = [canonical(LIBRARY[name]) for name in SETS[set_name]]
    assert len(set(free_shapes)) == len(free_shapes), "two names for one free shape"
    assert sorted(free_shapes) == free_polyominoes(size)


def test_hexominoes_are_numbered_in_canonical_order() -> None:
    assert HEXOMINOES["H01"] == ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5))
    shapes = list(HEXOMINOES.values())
    assert shapes == sorted(shapes)
    # Symmetric hexominoes exist in every orientation count the square grid allows.
    counts = {len(orientations(shape)) for shape in shapes}
    assert counts == {2, 4, 8}
    assert sum(len(orientations(shape)) for shape in shapes) == 216  # fixed hexominoes


def test_known_names_lists_sets_letters_and_the_hexomino_range() -> None:
    names = known_names()
    assert names.startswith("pentominoes, tetrominoes, trominoes, hexominoes, F, I")
    assert names.endswith("M1, H01 to H35")


@pytest.mark.parametrize("name", sorted(ORIENTATION_COUNTS))
def test_orientation_counts(name: str) -> None:
    with_reflections, rotations_only = ORIENTATION_COUNTS[name]
    assert len(orientations(LIBRARY[name])) == with_reflections
    assert len(orientations(LIBRARY[name], reflections=False)) == rotations_only


def test_orientation_totals() -> None:
    # Fixed pentominoes: 63 orientations with reflections, 41 with rotations only.
    assert sum(len(orientations(LIBRARY[n])) for n in SETS["pentominoes"]) == 63
    assert sum(len(orientations(LIBRARY[n], False)) for n in SETS["pentominoes"]) == 41


@pytest.mark.parametrize("name", sorted(LIBRARY))
def test_library_shapes_are_normalised_connected_and_sized(name: str) -> None:
    shape = LIBRARY[name]
    assert shape == normalise(shape)
    assert is_connected(shape)
    sizes = {"pentominoes": 5, "tetrominoes": 4, "trominoes": 3, "hexominoes": 6}
    in_set = [size for set_name, size in sizes.items() if name in SETS[set_name]]
    expected_size = in_set[0] if in_set else {"D2": 2, "M1": 1}[name]
    assert len(shape) == expected_size


def test_pentominoes_are_pairwise_different_free_shapes() -> None:
    names = SETS["pentominoes"]
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            assert not set(orientations(LIBRARY[a])) & set(orientations(LIBRARY[b])), (a, b)


def test_orientations_are_normalised_distinct_and_start_with_the_shape() -> None:
    for name, shape in LIBRARY.items():
        found = orientations(shape)
        assert found[0] == shape
        assert len(set(found)) == len(found), name
        assert all(o == normalise(o) for o in found)


def test_rotations_only_keep_chirality() -> None:
    # One-sided S tetromino: its mirror image (the Z tetromino) is not a rotation of it.
    s_shape = LIBRARY["S4"]
    mirror = normalise((r, -c) for r, c in s_shape)
    assert mirror not in orientations(s_shape, reflections=False)
    assert mirror in orientations(s_shape, reflections=True)


def test_normalise_shifts_and_sorts() -> None:
    assert normalise([(5, 7), (4, 7), (4, 8)]) == ((0, 0), (0, 1), (1, 0))


def test_parse_cells_accepts_and_normalises() -> None:
    assert parse_cells([[3, 3], [3, 4], [2, 4]], "p") == ((0, 1), (1, 0), (1, 1))
    assert parse_cells([[-1, 0]], "p") == ((0, 0),)


@pytest.mark.parametrize(
    ("cells", "path", "fragment"),
    [
        ([], "p", "empty"),
        ("ab", "p", "must be a list"),
        ([[0, 0], [0]], "p[1]", "[row, col] pair"),
        ([[0, 0], [0, 1.5]], "p[1][1]", "must be an integer"),
        ([[0, True]], "p[0][1]", "must be an integer"),
        ([[0, 0], [0, 1], [0, 0]], "p[2]", "repeats cell [0, 0]"),
        ([[0, 0], [1, 1]], "p", "not connected"),
        ([[0, 0], [0, 2]], "p", "not connected"),
        ([[0, 5000]], "p[0][1]", "at most"),
        ([[0, c] for c in range(401)], "p", "at most 400"),
    ],
)
def test_parse_cells_rejects_bad_pieces(cells: object, path: str, fragment: str) -> None:
    with pytest.raises(SolveError) as info:
        parse_cells(cells, "p")
    assert info.value.path == path
    assert fragment in info.value.message


def test_is_connected() -> None:
    assert is_connected([(0, 0)])
    assert is_connected([(0, 0), (0, 1), (1, 1)])
    assert not is_connected([(0, 0), (1, 1)])
    assert not is_connected([])
