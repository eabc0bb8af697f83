"""Sudoku variants as Simon Tatham's Solo has them: jigsaw, X and killer, in any combination.

Puzzle fields, each optional, next to the ``grid`` (which may be all blanks):

* ``"regions"``: jigsaw. One string per grid row, one label character per cell; the cells of a
  label form a region of n cells that replaces the boxes (so ``"box"`` must be left out, and
  prime sizes such as 5x5 and 7x7 work). Regions need not be connected.
* ``"diagonals": true``: Sudoku X. Both main diagonals hold each symbol once.
* ``"cages": [{"sum": 17, "cells": [[r, c], ...]}, ...]``: killer. A cage's digits are distinct
  and add up to its sum; cages do not overlap and need not cover the grid.

Encoding (exact cover, so every Sudoku engine, trace, heatmap, split and the uniqueness check
serve the variants unchanged): the plain encoding's items are "cell filled" and, per unit and
digit, "unit has digit"; regions are units instead of boxes and each diagonal is a unit of its
own (primary: each holds each digit exactly once). Givens are applied while the matrix is built,
as for plain Sudoku.

A cage is not written as one option per assignment of digits to its cells (a cage of 6 cells
could need tens of thousands); instead its cells keep their one-digit options and the cage adds:

* per digit d an open cell of the cage may take, a secondary item "cage has d", which every
  option putting d in the cage covers: no digit twice in a cage;
* when more than one set of digits can fill the cage's open cells (sets of distinct digits, none
  a given of the cage, adding up to what the givens leave of the sum), a primary item "cage's
  digit set" with one option per set, covering "cage has d" for every digit d *outside* the set.
  Those digits are then barred from the cage, so its k open cells take k distinct digits of a
  k-digit set: the whole set, and the sum is right. With one set, its digits are the only
  candidates of the open cells and no set option is needed.

So a cage costs a few secondary items and at most a few dozen options (12 digit sets at most
for a 9x9 cage), and each filled grid is exactly one exact cover (the digit set is the cage's
digits). Set options come after all cell options: option ``len(option_codes) + i`` is the i-th
entry of ``VariantMatrix.cage_sets``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from math import comb
from typing import Any

from pysolver.engines.cover import ExactCoverProblem
from pysolver.protocol import (
    did_you_mean,
    puzzle_error,
    require_bool,
    require_dict,
    require_int,
    require_list,
)

# Enumerating a cage's digit sets stops here: a larger cage on a large grid (C(36, 18) sets)
# is refused with a message, not left to fill the memory.
MAX_CAGE_SETS = 20_000
# The answers of ``digit_sets`` kept (a 9x9's questions are a few thousand at most), and
# the most ways to choose the digits of one kept (C(9, 4) = 126 on a 9x9, C(12, 6) = 924
# on a 12x12): a few hundred sets an answer at most, a few MB in all.
DIGIT_SETS_KEPT = 1 << 12
KEPT_SETS_MOST = 1_000
CAGE_FIELDS = ("sum", "cells")


@dataclass(frozen=True)
class Cage:
    total: int
    cells: tuple[int, ...]  # positions r * n + c, in the order given


@dataclass(frozen=True)
class Variants:
    """The variant rules of one puzzle; ``Variants()`` is plain Sudoku."""

    regions: tuple[int, ...] | None = None  # region number per position, numbered in reading order
    diagonals: bool = False
    cages: tuple[Cage, ...] = ()

    @property
    def plain(self) -> bool:
        return self.regions is None and not self.diagonals and not self.cages


PLAIN = Variants()


def has_regions(puzzle: Any) -> bool:
    """Whether the puzzle replaces its boxes by regions (read before the grid is parsed)."""
    return isinstance(puzzle, dict) and puzzle.get("regions") is not None


# ---------------------------------------------------------------- reading


def parse(puzzle: dict[str, Any], n: int, values: list[int], check: bool = True) -> Variants:
    """The variant fields of a puzzle whose grid (n, ``values``) is already read and checked
    against its rows, columns and boxes. Raises ``invalid_puzzle`` with the field's path for bad
    regions or cages and (``check``) for givens that clash in a region, a diagonal or a cage."""
    regions = _parse_regions(puzzle["regions"], n) if has_regions(puzzle) else None
    diagonals = require_bool(puzzle.get("diagonals", False), "puzzle.diagonals")
    if diagonals and n < 2:
        # Both diagonals would be the one cell, two units of one cell each.
        raise puzzle_error(
            "the X diagonals need a grid of at least 2x2; a 1x1 grid has no diagonals to check",
            "puzzle.diagonals",
        )
    cages = _parse_cages(puzzle["cages"], n) if puzzle.get("cages") is not None else ()
    variants = Variants(regions, diagonals, cages)
    if check:
        _check_givens(n, values, variants)
    return variants


def _parse_regions(value: Any, n: int) -> tuple[int, ...]:
    rows = require_list(value, "puzzle.regions")
    if len(rows) != n:
        raise puzzle_error(
            f"regions has {len(rows)} rows, but the grid has {n}: give one string per grid row",
            "puzzle.regions",
        )
    labels: list[str] = []
    for r, row in enumerate(rows):
        path = f"puzzle.regions[{r}]"
        if not isinstance(row, str):
            raise puzzle_error(
                f"row {r + 1} of regions must be a string of {n} labels, one per cell", path
            )
        if len(row) != n:
            raise puzzle_error(
                f"row {r + 1} of regions has {len(row)} labels, but the grid has {n} columns: "
                "one label character per cell (rows count from 1)",
                path,
            )
        labels.extend(row)
    numbers: dict[str, int] = {}
    for label in labels:
        numbers.setdefault(label, len(numbers))
    sizes = {label: labels.count(label) for label in numbers}
    wrong = [label for label, size in sizes.items() if size != n]
    if wrong or len(numbers) != n:
        described = ", ".join(f"{label!r} has {sizes[label]}" for label in wrong)
        raise puzzle_error(
            f"a {n}x{n} jigsaw needs {n} regions of {n} cells each; these labels have "
            f"{len(numbers)} regions" + (f" and {described} cells" if wrong else ""),
            "puzzle.regions",
        )
    return tuple(numbers[label] for label in labels)


def _parse_cages(value: Any, n: int) -> tuple[Cage, ...]:
    cages = require_list(value, "puzzle.cages")
    owner: dict[int, int] = {}  # position -> the cage it is in
    parsed = []
    for index, entry in enumerate(cages):
        path = f"puzzle.cages[{index}]"
        entry = require_dict(entry, path)
        for key in entry:
            if key not in CAGE_FIELDS:
                raise puzzle_error(
                    f'unknown cage field {key!r}; a cage is {{"sum": S, "cells": [[r, c], ...]}}'
                    + did_you_mean(str(key), CAGE_FIELDS),
                    f"{path}.{key}",
                )
        if "sum" not in entry or "cells" not in entry:
            missing = "sum" if "sum" not in entry else "cells"
            raise puzzle_error(
                f'cage {index + 1} has no "{missing}"; a cage is {{"sum": S, "cells": [[r, c], '
                "...]}",
                path,
            )
        cells = require_list(entry["cells"], f"{path}.cells")
        if not cells:
            raise puzzle_error(f"cage {index + 1} has no cells", f"{path}.cells")
        if len(cells) > n:
            raise puzzle_error(
                f"cage {index + 1} has {len(cells)} cells, but its digits must differ and a "
                f"{n}x{n} grid has only {n}",
                f"{path}.cells",
            )
        positions = []
        for j, cell in enumerate(cells):
            cell_path = f"{path}.cells[{j}]"
            cell = require_list(cell, cell_path)
            if len(cell) != 2:
                raise puzzle_error("a cage cell is [row, column], two integers", cell_path)
            r = require_int(cell[0], f"{cell_path}[0]", minimum=0, maximum=n - 1)
            c = require_int(cell[1], f"{cell_path}[1]", minimum=0, maximum=n - 1)
            position = r * n + c
            if position in owner:
                other = owner[position]
                where = "twice in this cage" if other == index else f"also in cage {other + 1}"
                raise puzzle_error(
                    f"the cell at row {r + 1}, column {c + 1} is {where}; cages may not "
                    "overlap (rows, columns and cages count from 1)",
                    cell_path,
                )
            owner[position] = index
            positions.append(position)
        k = len(positions)
        total = require_int(entry["sum"], f"{path}.sum")
        lowest, highest = k * (k + 1) // 2, k * (2 * n - k + 1) // 2
        if not lowest <= total <= highest:
            raise puzzle_error(
                f"cage {index + 1} has {k} cells, so its distinct digits add up to between "
                f"{lowest} and {highest}, not {total}",
                f"{path}.sum",
            )
        parsed.append(Cage(total, tuple(positions)))
    return tuple(parsed)


def _check_givens(n: int, values: list[int], variants: Variants) -> None:
    """Raise if two equal givens share a region, a diagonal or a cage."""
    units: list[tuple[str, str, list[int]]] = []
    if variants.regions is not None:
        members: list[list[int]] = [[] for _ in range(n)]
        for position, region in enumerate(variants.regions):
            members[region].append(position)
        units += [(f"region {k + 1}", "puzzle.grid", cells) for k, cells in enumerate(members)]
    if variants.diagonals:
        units.append(("the main diagonal", "puzzle.grid", [i * n + i for i in range(n)]))
        units.append(("the anti-diagonal", "puzzle.grid", [i * n + n - 1 - i for i in range(n)]))
    for k, cage in enumerate(variants.cages):
        units.append((f"cage {k + 1}", f"puzzle.cages[{k}]", list(cage.cells)))
    for name, path, cells in units:
        seen: dict[int, int] = {}
        for position in cells:
            value = values[position]
            if not value:
                continue
            if value in seen:
                (r0, c0), (r1, c1) = divmod(seen[value], n), divmod(position, n)
                raise puzzle_error(
                    f"two {value}s in {name} (row {r0 + 1} column {c0 + 1} and row {r1 + 1} "
                    f"column {c1 + 1}; rows, columns, regions and cages count from 1, regions "
                    "in reading order of their first cell)",
                    path,
                )
            seen[value] = position


# ---------------------------------------------------------------- encoding


@dataclass
class VariantMatrix:
    problem: ExactCoverProblem
    option_codes: list[int]  # per cell option: position * n + digit - 1, as plain Sudoku's
    cage_sets: list[tuple[int, int]]  # per cage-set option: (cage index, mask of its digits)
    # Per item: (unit name, unit number, digit) for unit items, ("cell", position, 0),
    # ("cage set", cage, 0), ("cage digit", cage, digit), ("cage sum", cage, 0) for a cage
    # that no digits can complete (an item without options: no solution).
    items: list[tuple[str, int, int]]

    def item_labels(self, n: int) -> list[tuple[str, dict[str, Any]]]:
        """Per item: a sentence label (counting from 1) and the JSON ``item`` of a choose step."""
        labels: list[tuple[str, dict[str, Any]]] = []
        for name, number, digit in self.items:
            if name == "cell":
                r, c = divmod(number, n)
                labels.append((f"the cell at row {r + 1}, column {c + 1}", {"cell": [r, c]}))
            elif name == "cage set":
                labels.append((f"the digits of cage {number + 1}", {"cage": number}))
            elif name == "cage digit":
                labels.append((f"the {digit} of cage {number + 1}", {"cage": number}))
            elif name == "cage sum":
                labels.append((f"the sum of cage {number + 1}", {"cage": number}))
            elif name == "diagonal":
                which = "main diagonal" if number == 0 else "anti-diagonal"
                labels.append((f"the {digit} of the {which}", {name: number, "digit": digit}))
            else:
                unit = {name: number, "digit": digit}
                labels.append((f"the {digit} of {name} {number + 1}", unit))
        return labels

    def cage_set_place(self, option: int) -> dict[str, Any]:
        cage, mask = self.cage_sets[option - len(self.option_codes)]
        return {"cage": cage, "digits": _digits(mask)}


def _digits(mask: int) -> list[int]:
    return [d + 1 for d in range(mask.bit_length()) if mask >> d & 1]


def digit_sets(choices: int, size: int, total: int) -> Iterator[int]:
    """Masks of ``size`` distinct digits from the mask ``choices`` (bit d-1: digit d) adding up
    to ``total``, smallest digits first. A question with at most ``KEPT_SETS_MOST`` ways to
    choose the digits is answered once and kept (the killer finders and generator ask the
    same few thousand again and again); a larger one is walked lazily, so a caller can stop
    (``MAX_CAGE_SETS``)."""
    if comb(choices.bit_count(), size) <= KEPT_SETS_MOST:
        return iter(_kept_digit_sets(choices, size, total))
    return _digit_sets(choices, size, total)


@lru_cache(maxsize=DIGIT_SETS_KEPT)
def _kept_digit_sets(choices: int, size: int, total: int) -> tuple[int, ...]:
    return tuple(_digit_sets(choices, size, total))


def _digit_sets(choices: int, size: int, total: int) -> Iterator[int]:
    digits = _digits(choices)

    def extend(start: int, size: int, total: int, mask: int) -> Iterator[int]:
        if size == 0:
            if total == 0:
                yield mask
            return
        for i in range(start, len(digits) - size + 1):
            digit = digits[i]
            # The smallest and the largest sums the remaining size - 1 digits could add.
            low = sum(digits[i + 1 : i + size])
            high = sum(digits[len(digits) - size + 1 :]) if size > 1 else 0
            if digit + low > total:
                return
            if digit + high < total:
                continue
            yield from extend(i + 1, size - 1, total - digit, mask | 1 << (digit - 1))

    return extend(0, size, total, 0)


def cage_digit_sets(n: int, values: list[int], cage: Cage, index: int) -> list[int]:
    """The digit sets (masks) that can fill cage number ``index``, givens included: the
    cage's givens and a set of the digits left adding up to what they leave of the sum
    (``encode``'s sets, each with the givens added). Refused past ``MAX_CAGE_SETS``."""
    sets = []
    for mask in cage_digit_sets_lazily(n, values, cage):
        sets.append(mask)
        if len(sets) > MAX_CAGE_SETS:
            raise _too_many_sets(index)
    return sets


def cage_digit_sets_lazily(n: int, values: list[int], cage: Cage) -> Iterator[int]:
    """``cage_digit_sets``' sets, lazily (unbounded: the caller stops)."""
    given = given_sum = 0
    open_cells = 0
    for position in cage.cells:
        value = values[position]
        if value:
            given |= 1 << (value - 1)
            given_sum += value
        else:
            open_cells += 1
    for mask in digit_sets(((1 << n) - 1) & ~given, open_cells, cage.total - given_sum):
        yield mask | given


def _too_many_sets(index: int) -> Exception:
    return puzzle_error(
        f"cage {index + 1} can be filled with more than {MAX_CAGE_SETS} sets of "
        "digits; split it into smaller cages or give some of its digits",
        f"puzzle.cages[{index}]",
    )


def encode(
    n: int, box_rows: int, box_cols: int, values: list[int], variants: Variants
) -> VariantMatrix:
    """The exact cover matrix of a variant puzzle (see the module docstring)."""
    cells = range(n * n)
    if variants.regions is not None:
        third: tuple[str, list[int]] = ("region", list(variants.regions))
    else:
        across = n // box_cols
        third = ("box", [(p // n // box_rows) * across + p % n // box_cols for p in cells])
    # Unit families: a name and, per position, its unit there (-1: none).
    families = [("row", [p // n for p in cells]), ("column", [p % n for p in cells]), third]
    if variants.diagonals:
        families.append(("diagonal", [0 if p // n == p % n else -1 for p in cells]))
        families.append(("diagonal", [1 if p // n + p % n == n - 1 else -1 for p in cells]))
    used = [[0] * n for _ in families]  # per family, per unit: mask of its givens
    for position, value in enumerate(values):
        if value:
            for family, (_name, unit_of) in enumerate(families):
                unit = unit_of[position]
                if unit >= 0:
                    used[family][unit] |= 1 << (value - 1)

    items: list[tuple[str, int, int]] = []
    cell_item = {}
    for position in cells:
        if not values[position]:
            cell_item[position] = len(items)
            items.append(("cell", position, 0))
    # unit_item[family][unit * n + digit - 1]: the item, or absent when a given covers it.
    unit_items: list[dict[int, int]] = []
    for family, (name, unit_of) in enumerate(families):
        numbers: dict[int, int] = {}
        for unit in sorted({u for u in unit_of if u >= 0}):
            for digit in range(n):
                if not used[family][unit] >> digit & 1:
                    numbers[unit * n + digit] = len(items)
                    items.append((name, unit, digit + 1))
        unit_items.append(numbers)

    full = (1 << n) - 1
    allowed = [full] * (n * n)  # per position: digits its cage lets it take
    cage_of = [-1] * (n * n)
    cage_set_options: list[tuple[int, int, int]] = []  # (cage, set mask, mask of its cage's digits)
    secondary_digits: list[tuple[int, int]] = []  # (cage, digit mask) in item order
    for index, cage in enumerate(variants.cages):
        given = 0
        given_sum = 0
        open_cells = []
        for position in cage.cells:
            value = values[position]
            if value:
                given |= 1 << (value - 1)
                given_sum += value
            else:
                open_cells.append(position)
                cage_of[position] = index
        sets = []
        for mask in digit_sets(full & ~given, len(open_cells), cage.total - given_sum):
            sets.append(mask)
            if len(sets) > MAX_CAGE_SETS:
                raise _too_many_sets(index)
        union = 0
        for mask in sets:
            union |= mask
        for position in open_cells:
            allowed[position] = union
        if not sets:
            # Nothing completes this cage: an item no option covers, so no solution.
            items.append(("cage sum", index, 0))
        elif len(sets) > 1:
            set_item = len(items)
            items.append(("cage set", index, 0))
            cage_set_options += [(index, mask, set_item) for mask in sets]
        if sets and len(open_cells) > 1:
            secondary_digits.append((index, union))
    primary = len(items)
    # cage_digit_item[cage * n + digit - 1]: the secondary item "cage has digit".
    cage_digit_item: dict[int, int] = {}
    for index, union in secondary_digits:
        for digit in _digits(union):
            cage_digit_item[index * n + digit - 1] = len(items)
            items.append(("cage digit", index, digit))

    options: list[list[int]] = []
    option_codes: list[int] = []
    for position, item in cell_item.items():
        free = allowed[position]
        for family, (_name, unit_of) in enumerate(families):
            unit = unit_of[position]
            if unit >= 0:
                free &= ~used[family][unit]
        in_cage = cage_of[position]
        for digit in range(n):
            if not free >> digit & 1:
                continue
            option = [item]
            for family, (_name, unit_of) in enumerate(families):
                unit = unit_of[position]
                if unit >= 0:
                    option.append(unit_items[family][unit * n + digit])
            cage_digit = cage_digit_item.get(in_cage * n + digit) if in_cage >= 0 else None
            if cage_digit is not None:
                option.append(cage_digit)
            options.append(option)
            option_codes.append(position * n + digit)
    cage_sets = []
    for index, mask, set_item in cage_set_options:
        union = next(u for k, u in secondary_digits if k == index)
        barred = union & ~mask
        options.append([set_item, *(cage_digit_item[index * n + d - 1] for d in _digits(barred))])
        cage_sets.append((index, mask))
    problem = ExactCoverProblem(primary, len(items) - primary, options)
    return VariantMatrix(problem, option_codes, cage_sets, items)


def sides(cell: int, n: int) -> list[int]:
    """The cells sharing a side with ``cell``: up, left, right, down."""
    r, c = divmod(cell, n)
    found = []
    if r:
        found.append(cell - n)
    if c:
        found.append(cell - 1)
    if c < n - 1:
        found.append(cell + 1)
    if r < n - 1:
        found.append(cell + n)
    return found
