"""A Sudoku board of candidates, and its steps as the protocol's JSON.

Cells are numbered row by row (``cell = row * n + column``, 0-based); digits are 1..n and a
cell's candidates are a bit mask (bit ``d - 1`` for digit d). Houses are the groups that hold
each digit once: the n rows (houses 0..n-1, each listing its cells by column), the n columns
(houses n..2n-1, each by row), then the boxes or jigsaw regions, then the two diagonals of a
Sudoku X. Placing a digit removes it from every cell sharing a house (its peers); that removal
is part of the placement, never listed as an elimination.

A killer board also has its ``cages`` (``variants.Cage``: a sum and cells), which the cage
techniques read (``pysolver.kinds.sudoku.cages``); they are not houses (a cage need not hold
every digit), so placing a digit does not remove it from the rest of its cage.

Sentences count rows and columns from 1 ("row 3, column 5"); boxes and regions too, in
reading order of their first cell.
"""

from __future__ import annotations

from typing import Any

from pysolver.kinds.sudoku.variants import Cage
from pysolver.logic.step import Step


def step_json(step: Step, n: int) -> dict[str, Any]:
    """The protocol's Sudoku step: ``place`` and ``eliminate`` as ``[r, c, d]``, ``cells`` as
    ``[r, c]`` (rows and columns 0-based, as solutions and trace steps give them)."""
    shown: dict[str, Any] = {
        "technique": step.technique,
        "place": [[*divmod(cell, n), digit] for cell, digit in step.place],
        "eliminate": [[*divmod(cell, n), digit] for cell, digit in step.eliminate],
        "cells": [list(divmod(cell, n)) for cell in step.cells],
        "text": step.text,
    }
    if step.alternatives:
        shown["alternatives"] = [[*divmod(cell, n), digit] for cell, digit in step.alternatives]
    return shown


def bits(mask: int) -> list[int]:
    """The set bits of ``mask`` as indices, lowest first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def digits_of(mask: int) -> list[int]:
    """The digits (1-based) of a candidate mask, smallest first."""
    return [bit + 1 for bit in bits(mask)]


def listed(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


class Grid:
    """The houses of one Sudoku shape and, per cell, its value (0: open) and candidates."""

    def __init__(self, n: int, houses: list[list[int]], house_names: list[str]) -> None:
        self.n = n
        self.houses = houses
        # "row 3", "column 5", "box 2", "region 4", "the main diagonal".
        self.house_names = house_names
        self.cell_houses: list[list[int]] = [[] for _ in range(n * n)]
        for house, cells in enumerate(houses):
            for cell in cells:
                self.cell_houses[cell].append(house)
        self.peer_mask = [0] * (n * n)
        for cell in range(n * n):
            mask = 0
            for house in self.cell_houses[cell]:
                for other in houses[house]:
                    mask |= 1 << other
            self.peer_mask[cell] = mask & ~(1 << cell)
        self.peers = [bits(mask) for mask in self.peer_mask]
        # Filled on first use by ``crossings`` and shared by every copy of this board.
        self._crossings: list[tuple[int, int, list[int], list[int], list[int]]] = []
        self.values = [0] * (n * n)
        self.candidates = [(1 << n) - 1] * (n * n)
        self.cages: tuple[Cage, ...] = ()  # a killer's (shared by copies: never changed)

    @classmethod
    def standard(
        cls,
        n: int,
        box_rows: int,
        box_cols: int,
        regions: tuple[int, ...] | None = None,
        diagonals: bool = False,
    ) -> Grid:
        """Rows, columns, then boxes of ``box_rows`` x ``box_cols`` (or jigsaw ``regions``,
        a region number per cell), then the diagonals when ``diagonals``."""
        houses = [[r * n + c for c in range(n)] for r in range(n)]
        houses += [[r * n + c for r in range(n)] for c in range(n)]
        names = [f"row {r + 1}" for r in range(n)] + [f"column {c + 1}" for c in range(n)]
        if regions is None:
            for top in range(0, n, box_rows):
                for left in range(0, n, box_cols):
                    houses.append(
                        [(top + r) * n + left + c for r in range(box_rows) for c in range(box_cols)]
                    )
            names += [f"box {b + 1}" for b in range(n)]
        else:
            numbers = sorted(set(regions), key=regions.index)
            for number in numbers:
                houses.append([cell for cell in range(n * n) if regions[cell] == number])
            names += [f"region {index + 1}" for index in range(len(numbers))]
        if diagonals:
            houses.append([i * n + i for i in range(n)])
            houses.append([i * n + n - 1 - i for i in range(n)])
            names += ["the main diagonal", "the anti-diagonal"]
        return cls(n, houses, names)

    def crossings(self) -> list[tuple[int, int, list[int], list[int], list[int]]]:
        """Every ordered pair of houses sharing two cells or more (a box and a line): the
        houses, the shared cells, the rest of the first and the rest of the second."""
        if not self._crossings:
            sets = [set(cells) for cells in self.houses]
            for house, cells in enumerate(self.houses):
                for other, others in enumerate(self.houses):
                    shared = [cell for cell in cells if cell in sets[other]]
                    if house != other and len(shared) >= 2:
                        self._crossings.append(
                            (
                                house,
                                other,
                                shared,
                                [cell for cell in cells if cell not in sets[other]],
                                [cell for cell in others if cell not in sets[house]],
                            )
                        )
        return self._crossings

    def copy(self) -> Grid:
        twin = object.__new__(Grid)
        twin.__dict__.update(self.__dict__)
        twin.values = self.values.copy()
        twin.candidates = self.candidates.copy()
        return twin

    def cell_name(self, cell: int) -> str:
        row, col = divmod(cell, self.n)
        return f"row {row + 1}, column {col + 1}"

    def cells_named(self, cells: list[int]) -> str:
        return listed([self.cell_name(cell) for cell in cells])

    def is_box(self, house: int) -> bool:
        """A box or a jigsaw region (not a row, a column or a diagonal)."""
        return 2 * self.n <= house < 3 * self.n

    def place(self, cell: int, digit: int) -> None:
        """Put ``digit`` at ``cell`` and remove it from the candidates of its peers."""
        bit = 1 << (digit - 1)
        self.values[cell] = digit
        self.candidates[cell] = bit
        candidates = self.candidates
        for peer in self.peers[cell]:
            candidates[peer] &= ~bit

    def eliminate(self, cell: int, digit: int) -> None:
        self.candidates[cell] &= ~(1 << (digit - 1))

    def apply(self, step: Step) -> None:
        for cell, digit in step.eliminate:
            self.eliminate(cell, digit)
        for cell, digit in step.place:
            self.place(cell, digit)

    def open_cells(self, house: int) -> list[int]:
        values = self.values
        return [cell for cell in self.houses[house] if not values[cell]]

    def placed(self, house: int) -> int:
        """The digits already placed in ``house``, as a mask."""
        mask = 0
        for cell in self.houses[house]:
            if self.values[cell]:
                mask |= 1 << (self.values[cell] - 1)
        return mask

    def places(self, house: int, digit: int) -> list[int]:
        """The open cells of ``house`` where ``digit`` is still a candidate."""
        bit = 1 << (digit - 1)
        values, candidates = self.values, self.candidates
        return [cell for cell in self.houses[house] if not values[cell] and candidates[cell] & bit]

    def solved(self) -> bool:
        return 0 not in self.values

    def contradiction(self) -> str | None:
        """Why this board cannot be finished (an open cell without candidates, a house with no
        place left for a missing digit), or None when no such plain dead end shows."""
        for cell, value in enumerate(self.values):
            if not value and not self.candidates[cell]:
                return f"{self.cell_name(cell)} would have no candidate left"
        full = (1 << self.n) - 1
        for house, cells in enumerate(self.houses):
            seen = 0
            for cell in cells:
                seen |= self.candidates[cell]
            if seen != full:
                missing = digits_of(full & ~seen)[0]
                return f"{self.house_names[house]} would have no place for {missing}"
        return None
