"""The killer cage techniques of explain and hint: what a killer solver teaches about sums.

A killer board is a ``Grid`` whose ``cages`` are the puzzle's (``variants.Cage``: a sum and
cells; distinct digits adding up to the sum). Four finders, each returning the first step it
sees (cages, houses and digits in a fixed order) or None, and nothing on a board without cages:

* **cage combination** (``cage_combination``): the sets of distinct digits that add up to a
  cage's sum and that its open cells can take, one digit each, given their candidates and the
  digits already placed in it; a candidate in no such filling goes. (It also removes a
  cage's placed digits from its other cells: digits in a cage differ.)
* **cage overlap** (``cage_overlap``): a digit every set of a cage holds, whose places in the
  cage all lie in one house, is that house's: it goes from the house's cells outside the
  cage. The other way round, a house whose places for a digit all lie in one cage puts the
  digit in that cage: it goes from the cage's cells outside the house, and so do the cage's
  candidates that only fillings without the digit used.
* **innies and outies** (``innies_outies``, over one house, and ``innies_outies_across``,
  over runs of neighbouring rows or columns): an area of k houses adds up to k times
  1 + 2 + ... + n (45 on 9x9: the rule of 45). The cages wholly inside it leave its other
  cells, the innies, a known sum; when every cell of the area is caged, the cages crossing its
  edge put cells outside it, the outies, whose sum is known too. One open innie (or outie) is
  that sum less the placed ones; two to ``MAX_SUM_CELLS`` are a sum their candidates must make
  (distinct where two of them share a house or a cage): a candidate in no way of making it
  goes.

The same areas serve the ``masks`` engine's search (``masks_cages``, ``implied_cages``): their
innies and outies whose digits must differ are given to it as cages of their own, with the
sums the rule of 45 gives them.

The board's houses, placements and candidates are ``pysolver.kinds.sudoku.board``'s; only
``values``, ``candidates``, ``houses``, ``house_names``, ``peer_mask`` and ``cages`` are read,
and steps change the board through ``Grid.apply``. Sentences count rows and columns from 1.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from typing import Any

from pysolver.engines import masks
from pysolver.kinds.sudoku.board import Grid, Shape, bits, digits_of, listed
from pysolver.kinds.sudoku.variants import Cage, cage_digit_sets, cage_digit_sets_lazily, digit_sets
from pysolver.logic.step import LEVELS, Step, Technique

# The most open cells an innie or outie sum is worked out over (each cell's candidates are
# combined with the others': 9^4 ways at most on 9x9).
MAX_SUM_CELLS = 4
# Fillings worked out per cage state and sum states kept (generation solves the same cage
# states over and over).
KEPT = 1 << 15
# A cage the rule of 45 implies (``implied_cages``) is given to the search only with at most
# this many cells and digit sets: a larger one rules out little and is looked at again
# whenever one of its cells changes. On a 9x9 every sum of up to 6 digits has at most 12 sets,
# and 6 cells made the same nodes as 9 within 4% (16 generated killers); on a 16x16 of domino
# cages, where none of them cut the tree, cages of 12 to 16 cells made each node 3 times
# dearer, and two of 4 and 6 cells with 34 and 117 sets 14%.
IMPLIED_CELLS_MOST = 6
IMPLIED_SETS_MOST = 24


@dataclass(frozen=True)
class Area:
    """Houses taken together for the rule of 45: disjoint, adding up to ``total``."""

    name: str  # "row 3", "rows 1 to 3"
    houses: int  # how many
    total: int
    inside_total: int  # what the cages wholly inside it add up to
    crossing_total: int  # what the cages crossing its edge add up to (inside it and out)
    innies: tuple[int, ...]  # its cells outside the cages wholly inside it
    innie_total: int  # what the innies add up to
    # The cells outside it of the cages crossing its edge, and what they add up to; None
    # when some cell of the area is in no cage (its sum is unknown).
    outies: tuple[int, ...] | None
    outie_total: int
    # The innies and outies as a cell mask: all the area's sums read.
    read: int = 0


@dataclass(frozen=True)
class Tables:
    """What the finders read of one puzzle's cages on one grid shape."""

    cage_of: tuple[int, ...]  # per cell, its cage's index, -1 for none
    single: tuple[Area, ...]  # every house alone
    across: tuple[Area, ...]  # runs of 2 to n - 1 neighbouring rows, then columns
    # Cell masks of what a cage overlap reads (a part unchanged since the finder found
    # nothing there still holds nothing): per cage, its cells and the houses they are in;
    # per house, its cells and the cages it meets.
    around_cage: tuple[int, ...] = ()
    around_house: tuple[int, ...] = ()


def tables(grid: Grid) -> Tables:
    """The tables of ``grid``'s cages and houses (built once per puzzle and shape)."""
    found: Tables = kept_with(grid, TABLES, _grid_tables)
    return found


def _grid_tables(grid: Grid) -> Tables:
    return _tables(
        grid.cages, tuple(tuple(cells) for cells in grid.houses), tuple(grid.house_names)
    )


def cage_masks(grid: Grid) -> tuple[int, ...]:
    """Per cage of ``grid``, its cells as a cell mask (the easiest cage finder needs no more
    of ``tables``, which costs milliseconds per set of cages, and a generator makes many)."""
    found: tuple[int, ...] = kept_with(grid, CAGE_MASKS, lambda grid: masks_of(grid.cages))
    return found


def kept_with(grid: Grid, key: str, make: Callable[[Grid], Any]) -> Any:
    """``make(grid)``, kept with the board under ``key`` (``Grid.remembered``) for its cages:
    worked out once per puzzle, where a cache keyed by the cages would hash them all on
    every call (a finder's, 20 µs for the tables' key)."""
    kept = grid.remembered(key)
    if kept is None or kept[0] is not grid.cages:
        kept = (grid.cages, make(grid))
        grid.remember(key, kept)
    return kept[1]


# ``tables``' and ``cage_masks``' keys in ``Grid.remembered``.
TABLES = "cage tables"
CAGE_MASKS = "cage masks"


def masks_of(cages: tuple[Cage, ...]) -> tuple[int, ...]:
    """Per cage, its cells as a cell mask."""
    return tuple(mask_of(cage.cells) for cage in cages)


@lru_cache(maxsize=16)
def _tables(
    cages: tuple[Cage, ...], houses: tuple[tuple[int, ...], ...], names: tuple[str, ...]
) -> Tables:
    n = len(houses[0])
    cage_of = [-1] * (n * n)
    for index, cage in enumerate(cages):
        for cell in cage.cells:
            cage_of[cell] = index
    per_house = n * (n + 1) // 2
    cage_cells = masks_of(cages)
    caged = 0
    for cells in cage_cells:
        caged |= cells
    groups = house_groups(houses, names)
    made = [
        area(name, cells, count, per_house, cages, cage_cells, caged)
        for name, cells, count in groups
    ]
    single, across = tuple(made[: len(houses)]), made[len(houses) :]
    house_cells = [cells for _name, cells, _count in groups[: len(houses)]]
    around_cage = tuple(
        cells | mask_of([c for house in house_cells if house & cells for c in bits(house)])
        for cells in cage_cells
    )
    around_house = tuple(
        house | mask_of([c for cage in cage_cells if cage & house for c in bits(cage)])
        for house in house_cells
    )
    return Tables(tuple(cage_of), single, tuple(across), around_cage, around_house)


@lru_cache(maxsize=16)
def house_groups(
    houses: tuple[tuple[int, ...], ...], names: tuple[str, ...]
) -> tuple[tuple[str, int, int], ...]:
    """The areas the innies and outies finders read on a grid shape, as (name, cell mask,
    how many houses): every house alone, then the runs of 2 to n - 1 neighbouring rows, then
    of columns."""
    n = len(houses[0])
    house_cells = [mask_of(house) for house in houses]
    groups = [(names[house], house_cells[house], 1) for house in range(len(houses))]
    for first, word in ((0, "rows"), (n, "columns")):
        for length in range(2, n):
            for start in range(n - length + 1):
                cells = 0
                for house in range(first + start, first + start + length):
                    cells |= house_cells[house]
                joined = "and" if length == 2 else "to"
                groups.append((f"{word} {start + 1} {joined} {start + length}", cells, length))
    return tuple(groups)


@lru_cache(maxsize=16)
def search_groups(
    houses: tuple[tuple[int, ...], ...], names: tuple[str, ...]
) -> tuple[tuple[str, int, int], ...]:
    """``house_groups`` and every two boxes (or regions) sharing a row or a column: the
    areas of ``implied_cages``."""
    n = len(houses[0])
    boxes = range(2 * n, min(3 * n, len(houses)))
    spans = {
        box: ({cell // n for cell in houses[box]}, {cell % n for cell in houses[box]})
        for box in boxes
    }
    pairs = [
        (f"{names[first]} and {names[second]}", mask_of(houses[first]) | mask_of(houses[second]), 2)
        for first in boxes
        for second in boxes
        if first < second
        and (spans[first][0] & spans[second][0] or spans[first][1] & spans[second][1])
    ]
    return (*house_groups(houses, names), *pairs)


def area(
    name: str,
    cells: int,
    houses: int,
    per_house: int,
    cages: tuple[Cage, ...],
    cage_cells: tuple[int, ...],
    caged: int,
) -> Area:
    """The rule of 45 on ``cells`` (a cell mask), the union of ``houses`` disjoint houses
    each adding up to ``per_house`` (``rule_of_45``)."""
    total = per_house * houses
    innie_cells, outie_cells, inside_total, crossing_total = rule_of_45(
        cells, cages, cage_cells, caged
    )
    return Area(
        name,
        houses,
        total,
        inside_total,
        crossing_total,
        tuple(bits(innie_cells)),
        total - inside_total,
        tuple(bits(outie_cells)) if outie_cells >= 0 else None,
        crossing_total + inside_total - total,
        innie_cells | max(outie_cells, 0),
    )


def rule_of_45(
    cells: int, cages: tuple[Cage, ...], cage_cells: tuple[int, ...], caged: int
) -> tuple[int, int, int, int]:
    """For an area of disjoint houses (``cells``, a cell mask): its innies (its cells outside
    the cages wholly inside it), its outies (the cells outside it of the cages crossing its
    edge; -1 when a cell of the area is in no cage, so their sum is unknown), what the cages
    wholly inside it add up to, and what those crossing its edge do. ``cage_cells``: each
    cage's cells as a cell mask, ``caged``: every caged cell (cell masks throughout: a
    generator works out the areas of many sets of cages)."""
    inside_cells = crossing_cells = inside_total = crossing_total = 0
    for mask, cage in zip(cage_cells, cages, strict=True):
        if mask & cells:
            if mask | cells == cells:
                inside_cells |= mask
                inside_total += cage.total
            else:
                crossing_cells |= mask
                crossing_total += cage.total
    outie_cells = crossing_cells & ~cells if not cells & ~caged else -1
    return cells & ~inside_cells, outie_cells, inside_total, crossing_total


def mask_of(cells: tuple[int, ...] | list[int]) -> int:
    """``cells`` as a cell mask."""
    mask = 0
    for cell in cells:
        mask |= 1 << cell
    return mask


# ---------------------------------------------------------------- the rule of 45 for the search


def masks_cages(shape: Shape, values: list[int], cages: tuple[Cage, ...]) -> list[masks.Cage]:
    """A killer's cages for the ``masks`` engine on a grid of ``shape``: each cage with its
    digit sets (``cage_digit_sets``), then the cages the rule of 45 implies
    (``implied_cages``) with at most ``IMPLIED_SETS_MOST`` sets each."""
    found = [
        masks.Cage(cage.cells, tuple(cage_digit_sets(shape.n, values, cage, index)))
        for index, cage in enumerate(cages)
    ]
    for cage in implied_cages(shape, cages):
        sets = tuple(islice(cage_digit_sets_lazily(shape.n, values, cage), IMPLIED_SETS_MOST + 1))
        if len(sets) <= IMPLIED_SETS_MOST:
            found.append(masks.Cage(cage.cells, sets))
    return found


def implied_cages(shape: Shape, cages: tuple[Cage, ...]) -> list[Cage]:
    """The cages the rule of 45 implies on a grid of ``shape``: a search that knows them sees
    sooner what the puzzle's cages force, and finds the same solutions.

    The areas are the innies and outies finders' (``house_groups``: every house, every run of
    2 to n - 1 neighbouring rows, and of columns) and every two boxes (or regions) sharing a
    row or a column (``search_groups``). An area's innies, and its outies when it is all
    caged (``rule_of_45``), whose digits must all differ (each two share a house or a cage) are a
    cage, unless a cage has exactly those cells already or they are more than
    ``IMPLIED_CELLS_MOST``. Measured on 16 9x9 killers of generate mode (`hard` and `expert`,
    seeds 0-7), proved unique through ``pysolver.solve``: 69,366 search nodes in 2.78 s
    without them, 3,306 in 0.24 s with them."""
    n = shape.n
    cage_cells = masks_of(cages)
    peers = list(shape.peer_mask)
    caged = 0
    for cells in cage_cells:
        caged |= cells
        for cell in bits(cells):
            peers[cell] |= cells
    known = set(cage_cells)
    implied: list[Cage] = []

    def add(cells: int, total: int) -> None:
        if not 0 < cells.bit_count() <= IMPLIED_CELLS_MOST or cells in known:
            return
        rest = cells
        while rest:
            low = rest & -rest
            rest ^= low
            if (cells ^ low) & ~peers[low.bit_length() - 1]:
                return  # two of them may hold the same digit
        known.add(cells)
        implied.append(Cage(total, tuple(bits(cells))))

    houses = tuple(tuple(cells) for cells in shape.houses)
    for _name, cells, count in search_groups(houses, tuple(shape.house_names)):
        total = n * (n + 1) // 2 * count
        innies, outies, inside_total, crossing_total = rule_of_45(cells, cages, cage_cells, caged)
        add(innies, total - inside_total)
        if outies >= 0:
            add(outies, crossing_total + inside_total - total)
    return implied


# ---------------------------------------------------------------- fillings


@lru_cache(maxsize=KEPT)
def fillings(
    total: int, choices: int, candidates: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The digit sets (masks) of ``len(candidates)`` distinct digits of ``choices`` adding up
    to ``total`` that cells with these candidate masks can take, one digit each; and per cell,
    the digits it takes in some such filling (``set_filling``, per set)."""
    viable = []
    allowed = [0] * len(candidates)
    for digits in digit_sets(choices, len(candidates), total):
        taken = set_filling(digits, tuple([mask & digits for mask in candidates]))
        if taken is not None:
            viable.append(digits)
            allowed = [was | now for was, now in zip(allowed, taken, strict=True)]
    return tuple(viable), tuple(allowed)


@lru_cache(maxsize=KEPT)
def set_filling(digits: int, reach: tuple[int, ...]) -> tuple[int, ...] | None:
    """Per cell, the digits of the set ``digits`` it takes in some way of giving the cells
    one digit each of the whole set, each cell's digits among its ``reach`` (its candidates
    in the set); None when there is none. Kept apart from ``fillings``: cages of other sums
    and candidates meet the same sets with the same reach (measured on 9x9 killers: a third
    as many sets to work out).

    Per step i, the digits the first i cells can take (``forward[i]``, masks of i digits) and
    the digits the cells from i on can take (``backward[i]``): cell i can take digit d when
    some ``used`` of ``forward[i]`` leaves d and the set less ``used`` and d is in
    ``backward[i + 1]``."""
    if not all(reach):
        return None
    size = len(reach)
    forward = [{0}]
    for mask in reach:
        reached = set()
        for used in forward[-1]:
            free = mask & ~used
            while free:
                low = free & -free
                free ^= low
                reached.add(used | low)
        forward.append(reached)
    if digits not in forward[size]:
        return None
    backward: list[set[int]] = [set() for _ in range(size)] + [{0}]
    for i in range(size - 1, -1, -1):
        for rest in backward[i + 1]:
            free = reach[i] & ~rest
            while free:
                low = free & -free
                free ^= low
                backward[i].add(rest | low)
    allowed = [0] * size
    for i in range(size):
        for used in forward[i]:
            free = reach[i] & ~used & ~allowed[i]
            while free:
                low = free & -free
                free ^= low
                if digits & ~used & ~low in backward[i + 1]:
                    allowed[i] |= low
    return tuple(allowed)


@lru_cache(maxsize=KEPT)
def sum_fillings(
    total: int, candidates: tuple[int, ...], apart: tuple[int, ...]
) -> tuple[int, ...]:
    """Per cell, the digits it takes in some way of giving the cells (their candidate masks)
    digits adding up to ``total``, cells i and j distinct when bit j of ``apart[i]`` is set
    (j < i)."""
    size = len(candidates)
    allowed = [0] * size
    smallest = [mask & -mask for mask in candidates]
    low_rest = [0] * (size + 1)
    high_rest = [0] * (size + 1)
    for i in range(size - 1, -1, -1):
        low_rest[i] = low_rest[i + 1] + smallest[i].bit_length()
        high_rest[i] = high_rest[i + 1] + candidates[i].bit_length()
    chosen = [0] * size

    def extend(i: int, left: int) -> bool:
        if i == size:
            return left == 0
        if not low_rest[i] <= left <= high_rest[i]:
            return False
        taken = 0
        for j in bits(apart[i]):
            taken |= 1 << (chosen[j] - 1)
        found = False
        for digit in digits_of(candidates[i] & ~taken):
            chosen[i] = digit
            if extend(i + 1, left - digit):
                allowed[i] |= 1 << (digit - 1)
                found = True
        return found

    # Every way is walked (a cell's digit is allowed when any way below it works).
    extend(0, total)
    return tuple(allowed)


@dataclass
class CageState:
    """One cage on a board: its open cells, the digits placed in it and what they leave."""

    index: int
    cage: Cage
    open_cells: list[int]
    placed: int  # mask of the digits placed in it
    left: int  # the sum less the placed digits
    sets: tuple[int, ...]  # the digit sets its open cells can take (placed digits left out)
    allowed: tuple[int, ...]  # per open cell, the digits it takes in one of them


def cage_state(grid: Grid, index: int) -> CageState | None:
    """Cage ``index`` of ``grid``, or None when it has no open cell."""
    values, candidates = grid.values, grid.candidates
    cage = grid.cages[index]
    open_cells = [cell for cell in cage.cells if not values[cell]]
    if not open_cells:
        return None
    placed = left = 0
    for cell in cage.cells:
        if values[cell]:
            placed |= 1 << (values[cell] - 1)
            left += values[cell]
    left = cage.total - left
    sets, allowed = fillings(
        left,
        ((1 << grid.n) - 1) & ~placed,
        tuple(candidates[cell] & ~placed for cell in open_cells),
    )
    return CageState(index, cage, open_cells, placed, left, sets, allowed)


# ---------------------------------------------------------------- words


def cage_name(grid: Grid, cage: Cage, with_sum: bool = True) -> str:
    """ "the 3-cell cage of 15 (row 1, column 1, ...)", without the sum "the 3-cell cage at
    row 1, column 1, ..."."""
    cells = list(cage.cells)
    where = grid.cells_named(cells)
    if not with_sum:
        return f"the {len(cells)}-cell cage at {where}"
    if len(cells) == 1:
        return f"the 1-cell cage of {cage.total} at {where}"
    return f"the {len(cells)}-cell cage of {cage.total} ({where})"


def capitalised(text: str) -> str:
    return text[0].upper() + text[1:]


def sets_named(sets: tuple[int, ...] | list[int]) -> str:
    """ "1 + 2 + 6, 1 + 3 + 5 or 2 + 3 + 4": each set's digits in words."""
    return listed([" + ".join(map(str, digits_of(digits))) for digits in sets]).replace(
        " and ", " or "
    )


def removals_named(
    grid: Grid, removed: list[tuple[int, int]], whole: tuple[list[int], str] | None = None
) -> str:
    """ "2, 4 and 7 come out of row 1, column 1; 9 out of row 1, column 2": the eliminations,
    the digits leaving the same cells together; ``whole``: cells named as a whole (a cage's
    open cells, "its cells")."""
    by_digit: dict[int, list[int]] = {}
    for cell, digit in removed:
        by_digit.setdefault(digit, []).append(cell)
    by_cells: dict[tuple[int, ...], list[int]] = {}
    for digit in sorted(by_digit):
        by_cells.setdefault(tuple(sorted(by_digit[digit])), []).append(digit)
    parts = []
    for number, (cells, digits) in enumerate(by_cells.items()):
        if whole is not None and list(cells) == sorted(whole[0]):
            place = whole[1]
        else:
            place = grid.cells_named(list(cells))
        verb = "out of" if number else "comes out of" if len(digits) == 1 else "come out of"
        parts.append(f"{listed([str(digit) for digit in digits])} {verb} {place}")
    return "; ".join(parts)


# ---------------------------------------------------------------- finders


def cage_combination(grid: Grid) -> Step | None:
    """A candidate no filling of its cage uses goes (see the module docstring)."""
    if not grid.cages:
        return None
    values = grid.values
    # The cages found with nothing to remove on the boards this finder last looked at (a
    # bit per cage): one whose cells kept their candidates since still has nothing (its
    # fillings read its cells alone). The finder fires on most boards it sees (a generator's
    # easy killers), so those are the cages before the one that fired, as well as all of
    # them when none did.
    boards = tuple(grid.boards)
    masks = cage_masks(grid)
    fruitless = 0
    kept: tuple[tuple[Cage, ...], tuple[int, ...], int] | None = grid.remembered(COMBINATIONS)
    if kept is not None and kept[0] is grid.cages:
        changed = grid.changed_from(kept[1])
        fruitless = kept[2]
        for index, cells in enumerate(masks):
            if cells & changed:
                fruitless &= ~(1 << index)
    for index in range(len(masks)):
        if fruitless >> index & 1:
            continue
        state = cage_state(grid, index)
        if state is None or not state.sets:
            # No open cell; or no filling at all, a dead end a guess's search handles.
            fruitless |= 1 << index
            continue
        removed = [
            (cell, digit)
            for cell, allowed in zip(state.open_cells, state.allowed, strict=True)
            for digit in digits_of(grid.candidates[cell] & ~allowed)
        ]
        if not removed:
            fruitless |= 1 << index
            continue
        grid.remember(COMBINATIONS, (grid.cages, boards, fruitless))
        name = capitalised(cage_name(grid, state.cage, with_sum=False))
        choices = ((1 << grid.n) - 1) & ~state.placed
        every = len(list(digit_sets(choices, len(state.open_cells), state.left)))
        fit = "" if every == len(state.sets) else " (no other set fits its cells' candidates)"
        whole = (state.open_cells, "it" if len(state.cage.cells) == 1 else "its cells")
        placed_cells = [cell for cell in state.cage.cells if values[cell]]
        if placed_cells:
            shown = listed([str(values[cell]) for cell in placed_cells])
            others = len(state.open_cells)
            whole = (state.open_cells, "them" if others > 1 else "it")
            text = (
                f"{name} adds up to {state.cage.total} and already holds {shown}, so its "
                f"other {'cell holds' if others == 1 else f'{others} cells hold'} "
                f"{sets_named(state.sets)}{fit}"
            )
        else:
            text = (
                f"{name} adds up to {state.cage.total}, so it holds {sets_named(state.sets)}{fit}"
            )
        text += f": {removals_named(grid, removed, whole)}."
        return Step("cage combination", [], removed, list(state.cage.cells), text)
    grid.remember(COMBINATIONS, (grid.cages, boards, fruitless))
    return None


# ``cage_combination``'s key in ``Grid.remembered``.
COMBINATIONS = "cage combination"


def cage_overlap(grid: Grid) -> Step | None:
    """A cage's sure digit confined to one house within it leaves the rest of the house; a
    house's digit confined to one cage leaves the rest of the cage (module docstring)."""
    if not grid.cages:
        return None
    values, candidates = grid.values, grid.candidates
    # What a cage (or a house) and the cells around it kept since this finder last found
    # nothing holds no new overlap: only the changed parts are looked at.
    changed = grid.changed_since("cage overlap")
    table = tables(grid)
    house_bits = grid.shape.house_bits
    states: dict[int, CageState | None] = {}
    for index, around in enumerate(table.around_cage):
        if not around & changed:
            continue
        state = states[index] = cage_state(grid, index)
        if state is None:
            continue
        sure = state.sets[0] if state.sets else 0
        for digits in state.sets[1:]:
            sure &= digits
        cage_cells = set(state.cage.cells)
        for digit in digits_of(sure):
            bit = 1 << (digit - 1)
            places = [cell for cell in state.open_cells if candidates[cell] & bit]
            if not places:
                continue
            # The houses holding every place, in order (a bit per house).
            shared = house_bits[places[0]]
            for cell in places[1:]:
                shared &= house_bits[cell]
            while shared:
                low = shared & -shared
                shared ^= low
                house = low.bit_length() - 1
                cells = grid.houses[house]
                removed = [
                    (cell, digit)
                    for cell in cells
                    if cell not in cage_cells and not values[cell] and candidates[cell] & bit
                ]
                if not removed:
                    continue
                text = (
                    f"{capitalised(cage_name(grid, state.cage))} must hold {digit}: every set "
                    f"of digits that makes its sum and fits its cells has it "
                    f"({sets_named(state.sets)}). Its {digit} can only go in "
                    f"{grid.cells_named(places)}, all in {grid.house_names[house]}, so {digit} "
                    f"comes out of the rest of {grid.house_names[house]}: "
                    f"{grid.cells_named([cell for cell, _digit in removed])}."
                )
                return Step("cage overlap", [], removed, list(state.cage.cells), text)
    cage_of = table.cage_of
    for house, cells in enumerate(grid.houses):
        if not table.around_house[house] & changed:
            continue
        placed = 0
        for cell in cells:
            if values[cell]:
                placed |= 1 << (values[cell] - 1)
        for digit in digits_of(((1 << grid.n) - 1) & ~placed):
            bit = 1 << (digit - 1)
            places = [cell for cell in cells if not values[cell] and candidates[cell] & bit]
            owners = {cage_of[cell] for cell in places}
            if len(owners) != 1 or -1 in owners:
                continue
            owner = owners.pop()
            if owner not in states:
                states[owner] = cage_state(grid, owner)
            found = states[owner]
            if found is None or len(found.cage.cells) == 1:
                continue
            state = found
            keep = [digits for digits in state.sets if digits & bit]
            removed = [
                (cell, other)
                for position, cell in enumerate(state.open_cells)
                for other in digits_of(candidates[cell])
                if (other == digit and cell not in cells)
                or (other != digit and not _used(keep, state, position, other, candidates))
            ]
            if not removed:
                continue
            text = (
                f"In {grid.house_names[house]}, {digit} can only go in "
                f"{grid.cells_named(places)}, all in {cage_name(grid, state.cage)}, so that "
                f"cage holds {digit}"
            )
            if len(keep) < len(state.sets):
                text += f" and so {sets_named(keep)}"
            text += f": {removals_named(grid, removed)}."
            return Step("cage overlap", [], removed, list(state.cage.cells), text)
    grid.mark_quiet("cage overlap")
    return None


def _used(
    sets: list[int], state: CageState, position: int, digit: int, candidates: list[int]
) -> bool:
    """Whether open cell number ``position`` of the cage takes ``digit`` in a filling by one of
    ``sets`` (each filling of its cells from one set, as ``fillings`` works them out)."""
    cells = state.open_cells
    bit = 1 << (digit - 1)
    for digits in sets:
        if not digits & bit:
            continue
        _viable, allowed = fillings(
            state.left, digits, tuple(candidates[cell] & ~state.placed for cell in cells)
        )
        if allowed[position] & bit:
            return True
    return False


def innies_outies(grid: Grid) -> Step | None:
    """The rule of 45 over one house (module docstring)."""
    if not grid.cages:
        return None
    return _rule_of_sums(grid, tables(grid).single, "innies and outies")


def innies_outies_across(grid: Grid) -> Step | None:
    """The rule of 45 over neighbouring rows or columns (module docstring)."""
    if not grid.cages:
        return None
    return _rule_of_sums(grid, tables(grid).across, "innies and outies across houses")


def _rule_of_sums(grid: Grid, areas: tuple[Area, ...], technique: str) -> Step | None:
    values, candidates = grid.values, grid.candidates
    cage_of = tables(grid).cage_of
    # An area whose innies and outies kept their candidates since this finder last found
    # nothing there still gives nothing.
    changed = grid.changed_since(technique)
    for area in areas:
        if not area.read & changed:
            continue
        for cells, total, word in (
            (area.innies, area.innie_total, "innie"),
            (area.outies, area.outie_total, "outie"),
        ):
            if not cells:
                continue
            open_cells = [cell for cell in cells if not values[cell]]
            if not open_cells or len(open_cells) > MAX_SUM_CELLS:
                continue
            left = total - sum(values[cell] for cell in cells)
            if len(open_cells) == 1:
                cell = open_cells[0]
                if not 1 <= left <= grid.n or not candidates[cell] >> (left - 1) & 1:
                    continue  # a dead end: the guess's search shows it
                place = [(cell, left)]
                removed: list[tuple[int, int]] = []
            else:
                apart = tuple(
                    sum(
                        1 << j
                        for j in range(i)
                        if grid.peer_mask[cell] >> open_cells[j] & 1
                        or (cage_of[cell] >= 0 and cage_of[cell] == cage_of[open_cells[j]])
                    )
                    for i, cell in enumerate(open_cells)
                )
                allowed = sum_fillings(left, tuple(candidates[cell] for cell in open_cells), apart)
                if not all(allowed):
                    continue  # no way at all: a dead end
                place = []
                removed = [
                    (cell, digit)
                    for cell, mask in zip(open_cells, allowed, strict=True)
                    for digit in digits_of(candidates[cell] & ~mask)
                ]
                if not removed:
                    continue
            text = _sum_sentence(grid, area, list(cells), total, word)
            placed_cells = [cell for cell in cells if values[cell]]
            if placed_cells:
                text += (
                    f"; less the {listed([str(values[cell]) for cell in placed_cells])} already "
                    f"placed, {grid.cells_named(open_cells)} add up to {left}"
                )
            if place:
                text += f", so {grid.cell_name(open_cells[0])} is {left}."
            else:
                text += f"; so {removals_named(grid, removed)}."
            return Step(technique, place, removed, list(cells), text)
    grid.mark_quiet(technique)
    return None


def _sum_sentence(grid: Grid, area: Area, cells: list[int], total: int, word: str) -> str:
    """Why the innies (or outies) of ``area`` add up to ``total``, with the sums."""
    name = area.name[0].upper() + area.name[1:]
    verb = "adds" if area.houses == 1 else "add"
    opening = (
        f"{name} {verb} up to {area.total} and the cages wholly inside "
        f"{'it' if area.houses == 1 else 'them'} to {area.inside_total}"
    )
    plural = "s" if len(cells) > 1 else ""
    if word == "innie":
        return (
            f"{opening}, so the other cells, {grid.cells_named(cells)} (the innie{plural}), "
            f"add up to {area.total} - {area.inside_total} = {total}"
        )
    return (
        f"{opening}; the cages that cross the edge add up to {area.crossing_total}, so their "
        f"cells outside, {grid.cells_named(cells)} (the outie{plural}), add up to "
        f"{area.crossing_total} + {area.inside_total} - {area.total} = {total}"
    )


CAGE_TECHNIQUES: tuple[Technique[Grid], ...] = (
    Technique(
        "cage combination",
        cage_combination,
        "easy",
        2,
        "the sets of distinct digits that make a cage's sum and fit its cells: candidates "
        "no such filling uses go",
    ),
    Technique(
        "cage overlap",
        cage_overlap,
        "medium",
        5,
        "a digit a cage must hold, confined to one house within it, leaves the rest of the "
        "house (a house's digit confined to one cage leaves the rest of the cage)",
    ),
    Technique(
        "innies and outies",
        innies_outies,
        "medium",
        6,
        "the rule of 45: a house adds up to 1 + ... + n, so the cells its inside cages leave "
        "(or its crossing cages put outside it) make the rest",
    ),
    Technique(
        "innies and outies across houses",
        innies_outies_across,
        "hard",
        20,
        "the same rule over neighbouring rows or columns",
    ),
)


def with_cage_techniques(
    techniques: tuple[Technique[Grid], ...],
    cage_techniques: tuple[Technique[Grid], ...] = CAGE_TECHNIQUES,
) -> tuple[Technique[Grid], ...]:
    """``techniques`` with each cage technique placed before the first technique of a harder
    level, or of its level with as many points or more (the others keep their order)."""
    merged = list(techniques)
    for technique in cage_techniques:
        rank = LEVELS.index(technique.level)
        at = next(
            (
                position
                for position, other in enumerate(merged)
                if LEVELS.index(other.level) > rank
                or (LEVELS.index(other.level) == rank and other.points >= technique.points)
            ),
            len(merged),
        )
        merged.insert(at, technique)
    return tuple(merged)
