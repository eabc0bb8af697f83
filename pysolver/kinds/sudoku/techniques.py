"""The Sudoku techniques, easiest first: each finder returns the first ``Step`` it sees on a
``Grid`` (scanning houses, digits and cells in a fixed order, so paths are reproducible) or
None. A finder only reports a step that changes the board.

``TECHNIQUES`` lists them with the level they belong to and the points they add to a score:
singles are ``easy``; locked candidates and naked and hidden subsets ``medium``; fish (X-wing,
swordfish, jellyfish) and wings (XY-wing, XYZ-wing) ``hard``; chains (simple colouring, X-chains,
XY-chains, forcing chains: ``pysolver.kinds.sudoku.chains``) ``fiendish``. A guess (``path``)
is ``expert``. Killer cages add theirs (``pysolver.kinds.sudoku.cages``): cage combinations
``easy``, cage overlaps and innies and outies of one house ``medium``, innies and outies
across houses ``hard``.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from pysolver.kinds.sudoku import chains
from pysolver.kinds.sudoku.board import Grid, bits, digits_of, listed
from pysolver.kinds.sudoku.cages import with_cage_techniques
from pysolver.logic.step import Step, Technique

Finder = Callable[[Grid], Step | None]


# Groups of one size: (keys, union) each.
Groups = list[tuple[list[int], int]]


def covered_groups(usable: list[tuple[int, int]], size: int) -> Groups:
    """Every ``size`` (2, 3 or 4) of ``usable`` (key, mask) whose masks together have exactly
    ``size`` bits: their keys and that union, in the order of ``itertools.combinations``
    (nested loops that drop a partial group as soon as its union has more bits)."""
    count = len(usable)
    found: Groups = []
    for first in range(count - size + 1):
        key1, mask1 = usable[first]
        for second in range(first + 1, count - size + 2):
            key2, mask2 = usable[second]
            union2 = mask1 | mask2
            if size == 2:
                if union2.bit_count() == 2:
                    found.append(([key1, key2], union2))
                continue
            if union2.bit_count() > size:
                continue
            for third in range(second + 1, count - size + 3):
                key3, mask3 = usable[third]
                union3 = union2 | mask3
                if size == 3:
                    if union3.bit_count() == 3:
                        found.append(([key1, key2, key3], union3))
                    continue
                if union3.bit_count() > 4:
                    continue
                for fourth in range(third + 1, count):
                    key4, mask4 = usable[fourth]
                    union4 = union3 | mask4
                    if union4.bit_count() == 4:
                        found.append(([key1, key2, key3, key4], union4))
    return found


def naked_single(grid: Grid) -> Step | None:
    """A cell with one candidate left holds it."""
    once = twice = 0
    for board in grid.boards:
        twice |= once & board
        once |= board
    single = (once & ~twice) >> grid.shape.base
    if not single:
        return None
    cell = (single & -single).bit_length() - 1
    digit = grid.candidates[cell].bit_length()
    text = (
        f"{grid.cell_name(cell).capitalize()} can only be {digit}: every other digit is "
        "ruled out there."
    )
    return Step("naked single", [(cell, digit)], [], [cell], text)


def hidden_single(grid: Grid) -> Step | None:
    """A digit with one place left in a house goes there (the first such house, then the
    smallest digit)."""
    shape = grid.shape
    guards, lows = shape.guards, shape.lows
    best = digit = 0
    for index, board in enumerate(grid.boards):
        # Per field: ``less`` keeps the guard when the field is not empty, and board & less
        # is the field less its lowest place: empty when it had one place.
        less = (board | guards) - lows
        single = less & guards & ~(((board & less) | guards) - lows)
        if single:
            low = single & -single
            if not best or low < best:
                best, digit = low, index + 1
    if not best:
        return None
    house = shape.house_of(best)
    cells = grid.houses[house]
    place = cells[shape.field(grid.boards[digit - 1], house).bit_length() - 1]
    text = f"In {grid.house_names[house]}, {digit} fits only at {grid.cell_name(place)}."
    return Step("hidden single", [(place, digit)], [], cells, text)


def locked_candidates(grid: Grid, from_boxes: bool, name: str) -> Step | None:
    """A digit whose places in one house all lie in a second house is not anywhere else in
    the second: pointing (from a box to a line), claiming (from a line to a box). The first
    house in order, then its crossings in the order of the second house, then the smallest
    digit."""
    shape = grid.shape
    guards, lows, base, width = shape.guards, shape.lows, shape.base, shape.width
    chosen = shape.box_guards if from_boxes else shape.line_guards
    fruitless = grid.memo  # the keys ``Grid.fruitless`` holds
    best: tuple[int, int, int] | None = None
    for index, board in enumerate(grid.boards):
        filled = ((board | guards) - lows) & chosen
        # A digit's locked candidates read its board alone: one found fruitless stays so.
        key = (name, board)
        if not filled or key in fruitless:
            continue
        cells = board >> base
        fruitful = False
        for rank, outside in enumerate(shape.slots):
            # The houses where the digit has places and none outside the rank's crossing.
            inside = filled & ~((board & outside | guards) - lows)
            while inside:
                low = inside & -inside
                inside ^= low
                house = (low.bit_length() - 1) // width
                if cells & shape.crossings[house][rank][1]:
                    fruitful = True
                    if best is None or (house, rank) < best[:2]:
                        best = (house, rank, index)
                    break
        if not fruitful:
            grid.mark_fruitless(key)
    if best is None:
        return None
    house, rank, index = best
    other, rest, shared = shape.crossings[house][rank]
    digit = index + 1
    cells = grid.cells_of(digit)
    places = [cell for cell in shared if cells >> cell & 1]
    removed = bits(cells & rest)
    text = (
        f"In {grid.house_names[house]}, {digit} can only go in "
        f"{grid.house_names[other]} ({grid.cells_named(places)}), so "
        f"{digit} comes out of the rest of {grid.house_names[other]}: "
        f"{grid.cells_named(removed)}."
    )
    return Step(name, [], [(cell, digit) for cell in removed], places, text)


def naked_subset(grid: Grid, size: int, name: str) -> Step | None:
    """``size`` cells of a house whose candidates together are ``size`` digits hold those
    digits: the other cells of the house do not, nor those of a second house the cells all
    share (a box and a line), in the same step."""
    shape = grid.shape
    counts = grid.counts()
    open_cells = counts[0]
    small_cells = counts[2] & ~counts[size + 1]
    candidates = grid.candidates
    boards = grid.boards
    base, width = shape.base, shape.width
    # A group of cells none of which changed since this finder last found nothing was there
    # then, removing nothing, and removes nothing now (candidates only went): only the houses
    # with a changed cell of 2 to ``size`` candidates may hold a new one.
    changes = grid.board_changes(name)
    changed = shape.guards
    if changes is not None:
        counted = grid.count_boards()
        small = counted[1] & ~counted[size]
        moved = 0
        for change in changes:
            moved |= change
        changed = shape.nonempty(moved & small)
    if size == 2 and changed:
        changed &= pair_houses(grid)
    while changed:
        guard = changed & -changed
        changed ^= guard
        house_mask = shape.house_mask[(guard.bit_length() - 1) // width]
        # With m open cells, a naked subset of ``size`` is a hidden one of m - size (the same
        # eliminations), which an earlier finder looks for when m < 2 * size.
        small = small_cells & house_mask
        if small.bit_count() < size or (open_cells & house_mask).bit_count() < 2 * size:
            continue
        usable = []
        while small:
            low = small & -small
            small ^= low
            cell = low.bit_length() - 1
            usable.append((cell, candidates[cell]))
        for group, union in covered_groups(usable, size):
            group_mask = 0
            shared = -1
            for cell in group:
                group_mask |= 1 << cell
                shared &= shape.house_bits[cell]
            around = 0
            houses = bits(shared)
            for other in houses:
                around |= shape.house_mask[other]
            outside = around & open_cells & ~group_mask
            # Most groups were found before and remove nothing: look at the union's digits.
            digits = union
            while digits:
                low = digits & -digits
                digits ^= low
                if (boards[low.bit_length() - 1] >> base) & outside:
                    break
            else:
                continue
            removed = [
                (cell, digit)
                for cell in bits(outside)
                for digit in digits_of(candidates[cell] & union)
            ]
            if removed:
                shown = listed([str(digit) for digit in digits_of(union)])
                where = listed([grid.house_names[other] for other in houses])
                others = (
                    "the house's other cells" if len(houses) == 1 else f"the other cells of {where}"
                )
                text = (
                    f"In {where}, {grid.cells_named(group)} hold only "
                    f"{shown} between them, so those digits come out of {others}."
                )
                return Step(name, [], removed, group, text)
    grid.mark_quiet(name)
    return None


def pair_houses(grid: Grid) -> int:
    """The guard bits of the houses holding two cells whose candidates are the same two
    digits (a naked pair, whether it removes anything or not), every house at once: per two
    digits, the board of the cells with exactly those candidates, and the houses where its
    field has two places or more."""
    shape = grid.shape
    guards, lows = shape.guards, shape.lows
    counted = grid.count_boards()
    two = counted[1] & ~counted[2]
    boards = grid.boards
    found = 0
    for first, board in enumerate(boards):
        board &= two
        if not board:
            continue
        for other in boards[first + 1 :]:
            both = board & other
            if both:
                found |= both & ((both | guards) - lows)  # less each field's lowest place
    return shape.nonempty(found)


def hidden_pair_houses(grid: Grid, spread: list[int], houses: int) -> int:
    """Of ``houses`` (guard bits), those where two digits have the same two places and one
    of those cells holds a third candidate (a hidden pair that removes something; most are
    naked pairs too, removing nothing): ``spread`` is ``Grid.spread(2)``; two digits' boards
    agree in a house where their exclusive or has an empty field, and the cells with three
    candidates or more among both boards' places show in its field."""
    shape = grid.shape
    boards = grid.boards
    more = grid.count_boards()[2]
    found = 0
    for first, several in enumerate(spread):
        several &= houses
        if not several:
            continue
        board = boards[first]
        for second in range(first + 1, len(spread)):
            both = several & spread[second]
            if both:
                other = boards[second]
                both &= shape.nonempty(board & other & more)
                if both:
                    found |= both & ~shape.nonempty(board ^ other)
    return found


def hidden_subset(grid: Grid, size: int, name: str) -> Step | None:
    """``size`` digits whose places in a house are the same ``size`` cells fill those cells:
    the cells' other candidates go."""
    shape = grid.shape
    width, full = shape.width, shape.full
    boards = grid.boards
    open_cells = grid.open
    candidates = grid.candidates
    spread = grid.spread(size)
    # A house none of whose cells changed since this finder last found nothing still has no
    # subset that removes anything (its digits' places are the same; candidates only went).
    # A group of digits whose places in a house did not change since this finder last found
    # nothing was there then, removing nothing, and removes nothing now (candidates only
    # went): only the houses where a digit of 2 to ``size`` places changed may hold a new one.
    changes = grid.board_changes(name)
    houses = shape.guards
    if changes is not None:
        houses = 0
        for several, change in zip(spread, changes, strict=True):
            if change:
                houses |= several & shape.nonempty(change)
    if houses:
        # The houses where ``size`` digits or more have 2 to ``size`` places (bit-sliced
        # counts).
        counted = [0] * (size + 1)
        for several in spread:
            for count in range(size, 0, -1):
                counted[count] |= counted[count - 1] & several
            counted[0] |= several
        houses &= counted[size - 1]
        if size == 2 and houses:
            houses &= hidden_pair_houses(grid, spread, houses)
    while houses:
        low = houses & -houses
        houses ^= low
        house = (low.bit_length() - 1) // width
        # With m open cells, a hidden subset of ``size`` is a naked one of m - size (the same
        # eliminations), which an earlier finder looks for when m <= 2 * size.
        if (open_cells & shape.house_mask[house]).bit_count() <= 2 * size:
            continue
        shift = house * width
        usable = [
            (index, (board >> shift) & full)
            for index, (several, board) in enumerate(zip(spread, boards, strict=True))
            if several & low
        ]
        for group, union in covered_groups(usable, size):
            keep = 0
            for index in group:
                keep |= 1 << index
            cells = [grid.houses[house][position] for position in bits(union)]
            removed = [
                (cell, digit) for cell in cells for digit in digits_of(candidates[cell] & ~keep)
            ]
            if removed:
                shown = listed([str(index + 1) for index in group])
                text = (
                    f"In {grid.house_names[house]}, {shown} fit only in "
                    f"{grid.cells_named(cells)}, so those cells hold nothing else."
                )
                return Step(name, [], removed, cells, text)
    grid.mark_quiet(name)
    return None


def fish(grid: Grid, size: int, name: str) -> Step | None:
    """A digit whose places in ``size`` rows all lie in ``size`` columns (or the other way
    round) fills those columns from those rows: it goes from the columns' other cells."""
    n = grid.n
    shape = grid.shape
    width, full = shape.width, shape.full
    spread = grid.spread(size)
    fruitless = grid.memo  # the keys ``Grid.fruitless`` holds
    for index, several in enumerate(spread):
        digit = index + 1
        board = grid.boards[index]
        # With the digit open in m rows (and m columns), a fish of ``size`` is one of m - size
        # the other way round (the same eliminations), which an earlier finder looks for when
        # m < 2 * size.
        if (shape.nonempty(board) & shape.row_guards).bit_count() < 2 * size:
            continue
        # A digit's fish read its board alone: one found fruitless stays so.
        key = (name, board)
        if key in fruitless:
            continue
        cells = board >> shape.base
        for base, cover, lines in ((0, n, shape.row_guards), (n, 0, shape.column_guards)):
            chosen_lines = several & lines
            if chosen_lines.bit_count() < size:
                continue
            usable = []
            while chosen_lines:
                guard = chosen_lines & -chosen_lines
                chosen_lines ^= guard
                house = (guard.bit_length() - 1) // width
                usable.append((house - base, (board >> (house * width)) & full))
            for group, union in covered_groups(usable, size):
                covered = chosen = 0
                for position in bits(union):
                    covered |= shape.house_mask[cover + position]
                for line in group:
                    chosen |= shape.house_mask[base + line]
                if cells & covered & ~chosen:
                    removed = [
                        (cell, digit)
                        for position in bits(union)
                        for cell in bits(cells & shape.house_mask[cover + position] & ~chosen)
                    ]
                    base_names = [grid.house_names[base + line] for line in group]
                    cover_names = [grid.house_names[cover + other] for other in bits(union)]
                    used = sorted(
                        grid.houses[base + line][position]
                        for line in group
                        for position in bits(shape.field(board, base + line))
                    )
                    text = (
                        f"In {listed(base_names)}, {digit} can only go in {listed(cover_names)}; "
                        f"so {digit} comes out of the rest of those lines: "
                        f"{grid.cells_named([cell for cell, _digit in removed])}."
                    )
                    return Step(name, [], removed, used, text)
        grid.mark_fruitless(key)
    return None


def xy_wing(grid: Grid) -> Step | None:
    """A pivot with candidates {x, y} seeing pincers {x, z} and {y, z}: one pincer is z, so a
    cell seeing both pincers is not z."""
    counts = grid.counts()
    pairs = counts[2] & ~counts[3]
    candidates = grid.candidates
    peer_mask = grid.peer_mask
    # A wing of three cells that kept their candidates since this finder last found nothing
    # was there then, removing as much or more: a new one needs a changed cell.
    changed = grid.changed_since("xy-wing")
    pivots = pairs
    while pivots:
        low = pivots & -pivots
        pivots ^= low
        pivot = low.bit_length() - 1
        if not (changed & low or changed & pairs & peer_mask[pivot]):
            continue
        pivot_mask = candidates[pivot]
        wings = bits(pairs & peer_mask[pivot])
        for first in wings:
            first_mask = candidates[first]
            shared = first_mask & pivot_mask
            if first_mask == pivot_mask or not shared:
                continue
            z = first_mask & ~pivot_mask
            wanted = (pivot_mask & ~shared) | z
            for second in wings:
                if candidates[second] != wanted:
                    continue
                step = wing_step(grid, "xy-wing", pivot, first, second, z, pivot_seen=False)
                if step is not None:
                    return step
    grid.mark_quiet("xy-wing")
    return None


def xyz_wing(grid: Grid) -> Step | None:
    """A pivot with candidates {x, y, z} seeing pincers {x, z} and {y, z}: one of the three
    is z, so a cell seeing all three is not z."""
    counts = grid.counts()
    pairs = counts[2] & ~counts[3]
    candidates = grid.candidates
    # As for xy-wings: a new wing needs a changed cell.
    changed = grid.changed_since("xyz-wing")
    peer_mask = grid.peer_mask
    pivots = counts[3] & ~counts[4]
    while pivots:
        low = pivots & -pivots
        pivots ^= low
        pivot = low.bit_length() - 1
        if not (changed & low or changed & pairs & peer_mask[pivot]):
            continue
        pivot_mask = candidates[pivot]
        wings = [
            cell for cell in bits(pairs & peer_mask[pivot]) if candidates[cell] & ~pivot_mask == 0
        ]
        for first, second in combinations(wings, 2):
            z = candidates[first] & candidates[second]
            if candidates[first] | candidates[second] != pivot_mask or z & (z - 1):
                continue
            step = wing_step(grid, "xyz-wing", pivot, first, second, z, pivot_seen=True)
            if step is not None:
                return step
    grid.mark_quiet("xyz-wing")
    return None


def wing_step(
    grid: Grid, name: str, pivot: int, first: int, second: int, z: int, pivot_seen: bool
) -> Step | None:
    """The step of a wing whose shared digit is ``z`` (a mask), or None if it removes nothing."""
    seen = grid.peer_mask[first] & grid.peer_mask[second]
    if pivot_seen:
        seen &= grid.peer_mask[pivot]
    digit = z.bit_length()
    gone = seen & grid.cells_of(digit) & ~(1 << pivot)
    if not gone:
        return None
    removed = [(cell, digit) for cell in bits(gone)]
    candidates = grid.candidates
    pivot_digits = "/".join(map(str, digits_of(candidates[pivot])))
    text = (
        f"{grid.cell_name(pivot).capitalize()} ({pivot_digits}) sees {grid.cell_name(first)} "
        f"({'/'.join(map(str, digits_of(candidates[first])))}) and "
        f"{grid.cell_name(second)} ({'/'.join(map(str, digits_of(candidates[second])))}):"
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
    Technique(
        "simple colouring",
        chains.simple_colouring,
        "fiendish",
        45,
        "a digit's conjugate pairs in two colours: a colour twice in a house is wrong, a cell "
        "seeing both colours loses the digit",
    ),
    Technique(
        "x-chain",
        chains.x_chain,
        "fiendish",
        50,
        "one digit along links alternating strong and weak: a cell seeing both ends loses it",
    ),
    Technique(
        "xy-chain",
        chains.xy_chain,
        "fiendish",
        55,
        "bivalue cells each sharing a digit with the next: a cell seeing both ends loses the "
        "digit they end on",
    ),
    Technique(
        "forcing chain",
        chains.forcing_chain,
        "fiendish",
        70,
        "every candidate of a cell (or place of a digit in a house), followed along strong "
        "links, leads to the same digit placed or candidate removed",
    ),
)
# The techniques of a board without cages (the cage techniques find nothing there): explain
# skips their calls on such boards.
PLAIN_TECHNIQUES = TECHNIQUES
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
