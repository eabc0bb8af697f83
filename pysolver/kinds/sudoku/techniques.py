"""The Sudoku techniques, easiest first: each finder returns the first ``Step`` it sees on a
``Grid`` (scanning houses, digits and cells in a fixed order, so paths are reproducible) or
None. A finder only reports a step that changes the board.

``TECHNIQUES`` lists them with the level they belong to and the points they add to a score:
singles are ``easy``; locked candidates and naked and hidden subsets ``medium``; fish (X-wing,
swordfish, jellyfish) and wings (XY-wing, XYZ-wing) ``hard``. A guess (``path``) is
``expert``. Killer cages add theirs (``pysolver.kinds.sudoku.cages``): cage combinations
``easy``, cage overlaps and innies and outies of one house ``medium``, innies and outies
across houses ``hard``.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from pysolver.kinds.sudoku.board import Grid, bits, digits_of, listed
from pysolver.kinds.sudoku.cages import with_cage_techniques
from pysolver.logic.step import Step, Technique

Finder = Callable[[Grid], Step | None]


def naked_single(grid: Grid) -> Step | None:
    """A cell with one candidate left holds it."""
    for cell, mask in enumerate(grid.candidates):
        if not grid.values[cell] and mask and mask & (mask - 1) == 0:
            digit = mask.bit_length()
            text = (
                f"{grid.cell_name(cell).capitalize()} can only be {digit}: every other digit is "
                "ruled out there."
            )
            return Step("naked single", [(cell, digit)], [], [cell], text)
    return None


def hidden_single(grid: Grid) -> Step | None:
    """A digit with one place left in a house goes there."""
    values, candidates = grid.values, grid.candidates
    for house, cells in enumerate(grid.houses):
        once = twice = 0
        for cell in cells:
            if not values[cell]:
                twice |= once & candidates[cell]
                once |= candidates[cell]
        single = once & ~twice
        if single:
            bit = single & -single
            digit = bit.bit_length()
            place = next(cell for cell in cells if not values[cell] and candidates[cell] & bit)
            text = f"In {grid.house_names[house]}, {digit} fits only at {grid.cell_name(place)}."
            return Step("hidden single", [(place, digit)], [], cells, text)
    return None


def locked_candidates(grid: Grid, from_boxes: bool, name: str) -> Step | None:
    """A digit whose places in one house all lie in a second house is not anywhere else in
    the second: pointing (from a box to a line), claiming (from a line to a box)."""
    values, candidates = grid.values, grid.candidates

    def union(cells: list[int]) -> int:
        mask = 0
        for cell in cells:
            if not values[cell]:
                mask |= candidates[cell]
        return mask

    for house, other, shared, house_rest, other_rest in grid.crossings():
        if grid.is_box(house) != from_boxes:
            continue
        locked = union(shared) & ~union(house_rest) & union(other_rest)
        if not locked:
            continue
        bit = locked & -locked
        digit = bit.bit_length()
        places = [cell for cell in shared if not values[cell] and candidates[cell] & bit]
        removed = [cell for cell in other_rest if not values[cell] and candidates[cell] & bit]
        text = (
            f"In {grid.house_names[house]}, {digit} can only go in "
            f"{grid.house_names[other]} ({grid.cells_named(places)}), so "
            f"{digit} comes out of the rest of {grid.house_names[other]}: "
            f"{grid.cells_named(removed)}."
        )
        return Step(name, [], [(cell, digit) for cell in removed], places, text)
    return None


def naked_subset(grid: Grid, size: int, name: str) -> Step | None:
    """``size`` cells of a house whose candidates together are ``size`` digits hold those
    digits: the other cells of the house do not."""
    for house in range(len(grid.houses)):
        open_cells = grid.open_cells(house)
        if len(open_cells) <= size:
            continue
        small = [cell for cell in open_cells if bin(grid.candidates[cell]).count("1") <= size]
        for group in combinations(small, size):
            union = 0
            for cell in group:
                union |= grid.candidates[cell]
            if bin(union).count("1") != size:
                continue
            removed = [
                (cell, digit)
                for cell in open_cells
                if cell not in group
                for digit in digits_of(grid.candidates[cell] & union)
            ]
            if removed:
                shown = listed([str(digit) for digit in digits_of(union)])
                text = (
                    f"In {grid.house_names[house]}, {grid.cells_named(list(group))} hold only "
                    f"{shown} between them, so those digits come out of the house's other cells."
                )
                return Step(name, [], removed, list(group), text)
    return None


def hidden_subset(grid: Grid, size: int, name: str) -> Step | None:
    """``size`` digits whose places in a house are the same ``size`` cells fill those cells:
    the cells' other candidates go."""
    for house in range(len(grid.houses)):
        missing = ((1 << grid.n) - 1) & ~grid.placed(house)
        if bin(missing).count("1") <= size:
            continue
        where: dict[int, list[int]] = {digit: [] for digit in digits_of(missing)}
        for cell in grid.open_cells(house):
            for digit in digits_of(grid.candidates[cell]):
                where[digit].append(cell)
        few = [digit for digit, places in where.items() if len(places) <= size]
        for group in combinations(few, size):
            cells = sorted({cell for digit in group for cell in where[digit]})
            if len(cells) != size:
                continue
            keep = sum(1 << (digit - 1) for digit in group)
            removed = [
                (cell, digit)
                for cell in cells
                for digit in digits_of(grid.candidates[cell] & ~keep)
            ]
            if removed:
                shown = listed([str(digit) for digit in group])
                text = (
                    f"In {grid.house_names[house]}, {shown} fit only in "
                    f"{grid.cells_named(cells)}, so those cells hold nothing else."
                )
                return Step(name, [], removed, cells, text)
    return None


def fish(grid: Grid, size: int, name: str) -> Step | None:
    """A digit whose places in ``size`` rows all lie in ``size`` columns (or the other way
    round) fills those columns from those rows: it goes from the columns' other cells."""
    n = grid.n
    # spots[base][digit][line]: where ``digit`` can go in that base line, as a mask of the
    # cover lines (rows then columns as the base lines).
    spots_of = {base: [[0] * n for _digit in range(n + 1)] for base in (0, n)}
    for base, by_digit in spots_of.items():
        for line in range(n):
            for index, cell in enumerate(grid.houses[base + line]):
                if not grid.values[cell]:
                    for digit in digits_of(grid.candidates[cell]):
                        by_digit[digit][line] |= 1 << index
    for digit in range(1, n + 1):
        bit = 1 << (digit - 1)
        for base, cover in ((0, n), (n, 0)):
            lines = [
                (line, spots)
                for line, spots in enumerate(spots_of[base][digit])
                if 2 <= bin(spots).count("1") <= size
            ]
            for group in combinations(lines, size):
                union = 0
                for _line, spots in group:
                    union |= spots
                if bin(union).count("1") != size:
                    continue
                chosen = {line for line, _spots in group}
                removed = [
                    (cell, digit)
                    for index in bits(union)
                    for line, cell in enumerate(grid.houses[cover + index])
                    if line not in chosen and not grid.values[cell] and grid.candidates[cell] & bit
                ]
                if removed:
                    base_names = [grid.house_names[base + line] for line, _spots in group]
                    cover_names = [grid.house_names[cover + index] for index in bits(union)]
                    used = [
                        grid.houses[base + line][index]
                        for line, spots in group
                        for index in bits(spots)
                    ]
                    text = (
                        f"In {listed(base_names)}, {digit} can only go in {listed(cover_names)}; "
                        f"so {digit} comes out of the rest of those lines: "
                        f"{grid.cells_named([cell for cell, _digit in removed])}."
                    )
                    return Step(name, [], removed, sorted(used), text)
    return None


def xy_wing(grid: Grid) -> Step | None:
    """A pivot with candidates {x, y} seeing pincers {x, z} and {y, z}: one pincer is z, so a
    cell seeing both pincers is not z."""
    pairs = [
        cell
        for cell, mask in enumerate(grid.candidates)
        if not grid.values[cell] and bin(mask).count("1") == 2
    ]
    for pivot in pairs:
        pivot_mask = grid.candidates[pivot]
        wings = [cell for cell in pairs if grid.peer_mask[pivot] >> cell & 1]
        for first in wings:
            shared = grid.candidates[first] & pivot_mask
            if grid.candidates[first] == pivot_mask or not shared:
                continue
            z = grid.candidates[first] & ~pivot_mask
            for second in wings:
                if grid.candidates[second] != (pivot_mask & ~shared) | z:
                    continue
                step = wing_step(grid, "xy-wing", pivot, first, second, z, pivot_seen=False)
                if step is not None:
                    return step
    return None


def xyz_wing(grid: Grid) -> Step | None:
    """A pivot with candidates {x, y, z} seeing pincers {x, z} and {y, z}: one of the three
    is z, so a cell seeing all three is not z."""
    for pivot, pivot_mask in enumerate(grid.candidates):
        if grid.values[pivot] or bin(pivot_mask).count("1") != 3:
            continue
        wings = [
            cell
            for cell in grid.peers[pivot]
            if not grid.values[cell]
            and bin(grid.candidates[cell]).count("1") == 2
            and grid.candidates[cell] & ~pivot_mask == 0
        ]
        for first, second in combinations(wings, 2):
            z = grid.candidates[first] & grid.candidates[second]
            if grid.candidates[first] | grid.candidates[second] != pivot_mask or z & (z - 1):
                continue
            step = wing_step(grid, "xyz-wing", pivot, first, second, z, pivot_seen=True)
            if step is not None:
                return step
    return None


def wing_step(
    grid: Grid, name: str, pivot: int, first: int, second: int, z: int, pivot_seen: bool
) -> Step | None:
    """The step of a wing whose shared digit is ``z`` (a mask), or None if it removes nothing."""
    seen = grid.peer_mask[first] & grid.peer_mask[second]
    if pivot_seen:
        seen &= grid.peer_mask[pivot]
    digit = z.bit_length()
    removed = [
        (cell, digit)
        for cell in bits(seen)
        if cell != pivot and not grid.values[cell] and grid.candidates[cell] & z
    ]
    if not removed:
        return None
    pivot_digits = "/".join(map(str, digits_of(grid.candidates[pivot])))
    text = (
        f"{grid.cell_name(pivot).capitalize()} ({pivot_digits}) sees {grid.cell_name(first)} "
        f"({'/'.join(map(str, digits_of(grid.candidates[first])))}) and "
        f"{grid.cell_name(second)} ({'/'.join(map(str, digits_of(grid.candidates[second])))}):"
        f" whichever it holds, one of them is {digit}, so {digit} comes out of "
        f"{grid.cells_named([cell for cell, _digit in removed])}."
    )
    return Step(name, [], removed, [pivot, first, second], text)


def _sized(finder: Callable[[Grid, int, str], Step | None], size: int, name: str) -> Finder:
    """The finder of one size of a sized technique (subsets, fish)."""

    def find(grid: Grid) -> Step | None:
        return finder(grid, size, name)

    return find


def _locked(from_boxes: bool, name: str) -> Finder:
    def find(grid: Grid) -> Step | None:
        return locked_candidates(grid, from_boxes, name)

    return find


TECHNIQUES: tuple[Technique[Grid], ...] = (
    Technique("naked single", naked_single, "easy", 1, "a cell with one candidate left"),
    Technique("hidden single", hidden_single, "easy", 1, "a digit with one place left in a house"),
    Technique(
        "pointing",
        _locked(True, "pointing"),
        "medium",
        4,
        "locked candidates: a digit confined to one line within a box leaves the rest of the line",
    ),
    Technique(
        "claiming",
        _locked(False, "claiming"),
        "medium",
        4,
        "locked candidates: a digit confined to one box within a line leaves the rest of the box",
    ),
    Technique(
        "naked pair",
        _sized(naked_subset, 2, "naked pair"),
        "medium",
        6,
        "two cells of a house with the same two candidates",
    ),
    Technique(
        "hidden pair",
        _sized(hidden_subset, 2, "hidden pair"),
        "medium",
        8,
        "two digits with the same two places in a house",
    ),
    Technique(
        "naked triple",
        _sized(naked_subset, 3, "naked triple"),
        "medium",
        10,
        "three cells of a house with three candidates between them",
    ),
    Technique(
        "hidden triple",
        _sized(hidden_subset, 3, "hidden triple"),
        "medium",
        12,
        "three digits with the same three places in a house",
    ),
    Technique(
        "naked quad",
        _sized(naked_subset, 4, "naked quad"),
        "medium",
        14,
        "four cells of a house with four candidates between them",
    ),
    Technique(
        "hidden quad",
        _sized(hidden_subset, 4, "hidden quad"),
        "medium",
        16,
        "four digits with the same four places in a house",
    ),
    Technique(
        "x-wing",
        _sized(fish, 2, "x-wing"),
        "hard",
        20,
        "a digit in two rows confined to two columns (or the other way round)",
    ),
    Technique(
        "swordfish",
        _sized(fish, 3, "swordfish"),
        "hard",
        30,
        "the same with three rows and three columns",
    ),
    Technique(
        "jellyfish",
        _sized(fish, 4, "jellyfish"),
        "hard",
        40,
        "the same with four rows and four columns",
    ),
    Technique("xy-wing", xy_wing, "hard", 25, "a pivot x/y seeing pincers x/z and y/z rules z out"),
    Technique(
        "xyz-wing", xyz_wing, "hard", 30, "a pivot x/y/z seeing pincers x/z and y/z rules z out"
    ),
)
# Killer cages' techniques (``pysolver.kinds.sudoku.cages``) join by level and points; on a
# board without cages they find nothing.
TECHNIQUES = with_cage_techniques(TECHNIQUES)
GUESS: Technique[Grid] = Technique(
    "guess",
    lambda grid: None,
    "expert",
    100,
    "no technique above applies: a branch of the search, the other candidates failing",
)
ALL = (*TECHNIQUES, GUESS)
