"""Broken-profile dynamic programming: count and unrank domino tilings of a board with holes.

The board is ``height`` rows of ``width`` cells (callers put the shorter side in ``width``), given
as one bitmask of open cells per row. Cells are processed row by row, left to right. Before cell
(r, c) the frontier holds ``width`` cells: (r + 1, j) for j < c and (r, j) for j >= c; a state is
the mask of frontier cells already covered by a domino placed earlier. At an open cell:

- covered already (bit c set): clear bit c, which now stands for (r + 1, c);
- else a vertical domino down: set bit c (needs (r + 1, c) open);
- else a horizontal domino right: set bit c + 1 (needs (r, c + 1) open and not yet covered).

Closed cells are never covered, so they leave the state as it is.

The counts of all 2^width states live in ONE Python integer, each count in a fixed field of K
bits at bit offset K * state. A step then is a few whole-vector operations (and, shift, add)
that run in C instead of 2^width dictionary updates in Python; see ``ProfileDP`` for the xor
offset that makes the vertical move free.

Field width. A count after some steps is the number of partial tilings reaching that state; it
is at most the number of perfect matchings of the subgraph on the processed cells plus the
covered frontier cells (at most ``processed + width`` cells). By Bregman's theorem a bipartite
graph whose black vertices have degree <= 4 has at most (4!)^(1/4) perfect matchings per black
vertex, so a count over ``n`` cells is below 24^(n / 8). K is the smallest whole number of bytes
with 2^K > 24^((cells + width) / 8), cells counting the open cells up to the end of the current
stage: no field can overflow into its neighbour. K grows in a few stages down the board (the
vector is re-packed), so the early rows run on narrower fields. (The true growth is about 0.42
bits a cell against Bregman's 0.57, so fields are ~35% wider than needed.)

Tilings. With the counts of every step kept, the tilings reaching a state are numbered by
choosing predecessors in a fixed order, so tiling number t (0 <= t < total) is rebuilt by
walking back from the final state (unranking). Ranks 0..k-1 give k distinct tilings; uniformly
random ranks give uniformly random tilings. Only the vector at the start of each row is kept;
the layers inside a row are recomputed when the walk reaches it.

Caps (checked by ``check_size``, in the error messages): width <= ``MAX_WIDTH``; the state
vector at most ``max_vector_bytes()``; for tilings, the stored layers (height + width vectors)
at most ``max_tiling_bytes()``: shares of the memory budget (``pysolver.budget``, read at call
time), so smaller in the page. A 16 x 16 board takes well under a second to count in CPython;
20 x 20 fits the caps but takes tens of seconds.
"""

from __future__ import annotations

from collections.abc import Callable

from pysolver import budget
from pysolver.engines.monitor import Monitor
from pysolver.engines.trace import Recorder

# How the page names this engine (see pysolver.facts): a menu title and one sentence.
TITLE = "Profile DP (bitmasks)"
SUMMARY = "Sweeps the board cell by cell, one count per bitmask profile."

MAX_WIDTH = 20

# Shares of the memory budget (pysolver.budget; in CPython 48, 128 and 64 MB), read at call
# time like the budget itself. A step works on the vector and up to three temporaries of its
# size, hence the vector's smaller share.


def max_vector_bytes() -> int:
    """The largest state vector the DP builds."""
    return budget.budget_bytes() * 3 // 32


def max_tiling_bytes() -> int:
    """The most the stored layers of a listing may take."""
    return budget.budget_bytes() // 4


def max_mask_cache_bytes() -> int:
    """Per-step bit masks stay cached while they take at most this much; else are rebuilt."""
    return budget.budget_bytes() // 8


# Field width changes this many times over the board (see ProfileDP._plan_field_bytes).
STAGES = 4

Cell = tuple[int, int]
Domino = tuple[Cell, Cell]


def field_bytes(cells: int) -> int:
    """Bytes per count so that 2^(8 * bytes) > 24^(cells / 8) (Bregman's bound, see above)."""
    bound_bits: int = (24**cells).bit_length()  # 24^cells < 2^bound_bits
    return max(1, -(-bound_bits // 64))  # 8 * 8 * bytes >= bound_bits


def vector_bytes(open_rows: list[int], width: int) -> int:
    """Size of the largest state vector the DP builds for this board."""
    open_cells = sum(row.bit_count() for row in open_rows)
    return field_bytes(open_cells + width) << width


def check_size(open_rows: list[int], width: int, tilings: bool) -> str | None:
    """Why this board is too big for the DP (a message naming the limit), or None if it fits."""
    if width > MAX_WIDTH:
        return (
            f"the board is {width} cells wide on its shorter side; the profile DP handles at "
            f"most {MAX_WIDTH}"
        )
    size = vector_bytes(open_rows, width)
    most = max_vector_bytes()
    if size > most:
        return (
            f"counting this board needs a {size / 2**20:.0f} MB state vector; the limit is "
            f"{most // 2**20} MB (use fewer rows or a narrower board)"
        )
    stored = size * (len(open_rows) + width)
    most = max_tiling_bytes()
    if tilings and stored > most:
        return (
            f"listing tilings of this board needs {stored / 2**20:.0f} MB of stored counts; the "
            f"limit is {most // 2**20} MB (count mode handles larger boards)"
        )
    return None


def _repack(vector: int, old_bytes: int, new_bytes: int, fields: int) -> int:
    """The same counts with each field widened from old_bytes to new_bytes."""
    if old_bytes == new_bytes:
        return vector
    packed = vector.to_bytes(fields * old_bytes, "little")
    widened = bytearray(fields * new_bytes)
    for i in range(old_bytes):  # byte i of every field at once, as one strided copy
        widened[i::new_bytes] = packed[i::old_bytes]
    return int.from_bytes(widened, "little")


def live_states(vector: int, bytes_per_field: int, fields: int) -> int:
    """How many of the ``fields`` counts packed in ``vector`` are not zero."""
    data = vector.to_bytes(fields * bytes_per_field, "little")
    folded = 0
    for byte in range(bytes_per_field):  # OR the bytes of each field into one byte
        folded |= int.from_bytes(data[byte::bytes_per_field], "little")
    return fields - folded.to_bytes(fields, "little").count(0)


class _Masks:
    """All-ones fields at chosen states, built on demand and cached within a memory budget.

    ``pair(column, a, b)``: the fields whose index has bit ``column`` equal to a and bit
    ``column + 1`` equal to b. ``single(column, a)``: bit ``column`` equal to a.
    """

    def __init__(self, width: int, bytes_per_field: int) -> None:
        self.width = width
        self.bytes_per_field = bytes_per_field
        self.size = bytes_per_field << width
        self.budget = max_mask_cache_bytes()
        self.cache: dict[tuple[int, ...], int] = {}

    def _build(self, key: tuple[int, ...], pattern: bytes, repeats: int) -> int:
        mask = self.cache.get(key)
        if mask is None:
            mask = int.from_bytes(pattern * repeats, "little")
            if self.budget >= self.size:
                self.budget -= self.size
                self.cache[key] = mask
        return mask

    def pair(self, column: int, a: int, b: int) -> int:
        block = self.bytes_per_field << column
        parts = [bytes(block)] * 4
        parts[a + 2 * b] = b"\xff" * block
        return self._build((column, a, b), b"".join(parts), 1 << (self.width - column - 2))

    def single(self, column: int, a: int) -> int:
        block = self.bytes_per_field << column
        parts = [bytes(block)] * 2
        parts[a] = b"\xff" * block
        return self._build((column, a), b"".join(parts), 1 << (self.width - column - 1))


class ProfileDP:
    """The DP over one board: ``run`` counts, ``unrank`` rebuilds tilings by number.

    Both moves that touch bit c of a state, "covered earlier: clear it" and "vertical domino:
    set it", map a state S to S ^ 2^c. So the vector is stored with an xor offset: the field at
    index P holds the count of state P ^ offset, and flipping bit c of ``offset`` performs both
    moves for all 2^width states at no cost. Only the horizontal move (and forbidding vertical
    dominoes at the bottom edge or above a hole) touches the vector: one mask, one shift, one add.
    """

    def __init__(
        self,
        open_rows: list[int],
        width: int,
        monitor: Monitor | None = None,
        keep_rows: bool = False,
        recorder: Recorder | None = None,
    ) -> None:
        if not 1 <= width <= MAX_WIDTH:
            raise ValueError(f"width must be between 1 and {MAX_WIDTH}")
        full = (1 << width) - 1
        if any(row & ~full for row in open_rows):
            raise ValueError("an open cell lies beyond the width")
        self.open_rows = list(open_rows)
        self.width = width
        self.height = len(open_rows)
        self.monitor = monitor or Monitor()
        self.keep_rows = keep_rows
        # Trace mode: after each open cell, a step {"type": "cell", "depth": 0, "row", "column",
        # "states": live profiles}; a full recorder raises TraceFull out of ``run``.
        self.recorder = recorder
        self.row_field_bytes = self._plan_field_bytes()
        # The widest field, reached on the last rows.
        self.field_bytes = self.row_field_bytes[-1] if self.row_field_bytes else 1
        self.field_bits = 8 * self.field_bytes
        self.masks = _Masks(width, 1)
        # (vector, offset) at the start of each row, kept for unranking.
        self.row_starts: list[tuple[int, int]] = []
        self.total: int | None = None
        self.steps = 0  # cells processed, forward and (for tilings) again backward
        self.planned_steps = self.height * width * (2 if keep_rows else 1)

    # ------------------------------------------------------------- forward

    def _plan_field_bytes(self) -> list[int]:
        """Field bytes for each row, growing in a few stages.

        Counts grow as cells are processed, so early rows need narrower fields: the bound for a
        row uses the open cells up to the end of the stage it is in. A handful of stages (each a
        re-pack of the vector and a rebuild of the masks) gets most of the saving.
        """
        seen, needed = 0, []
        for row in self.open_rows:
            seen += row.bit_count()
            needed.append(field_bytes(seen + self.width))
        stage = max(1, self.height // STAGES)
        planned = []
        for row in range(self.height):
            stage_end = min(self.height - 1, (row // stage + 1) * stage - 1)
            planned.append(needed[stage_end])
        return planned

    def _masks_for(self, bytes_per_field: int) -> _Masks:
        if self.masks.bytes_per_field != bytes_per_field:
            self.masks = _Masks(self.width, bytes_per_field)
        return self.masks

    def _step(
        self, vector: int, offset: int, row: int, column: int, bytes_per_field: int
    ) -> tuple[int, int]:
        """(vector, offset) after cell (row, column), with fields of ``bytes_per_field``."""
        masks = self._masks_for(bytes_per_field)
        field_bits = 8 * bytes_per_field
        here = self.open_rows[row]
        bit = 1 << column
        if not here & bit:
            return vector, offset
        own = offset >> column & 1  # physical value of bit c at logical 0
        next_own = offset >> (column + 1) & 1
        across = None
        if column + 1 < self.width and here >> (column + 1) & 1:
            # States with bits c and c+1 clear may lay a horizontal domino.
            across = vector & masks.pair(column, own, next_own)
        if not (row + 1 < self.height and self.open_rows[row + 1] & bit):
            # No vertical domino here: keep only the states where the cell was covered earlier.
            vector &= masks.single(column, own ^ 1)
        offset ^= bit
        if across is not None:
            # Logical S -> S | 2^(c+1) with bit c still clear; physically P -> P ^ 2^c ^ 2^(c+1)
            # under the new offset, a move up or down by 2^c and 2^(c+1) fields.
            fields = (-bit if own else bit) + (-2 * bit if next_own else 2 * bit)
            if fields > 0:
                vector += across << (field_bits * fields)
            else:
                vector += across >> (field_bits * -fields)
        return vector, offset

    def _fraction(self) -> float:
        return self.steps / self.planned_steps if self.planned_steps else 1.0

    def _tick(self) -> bool:
        """Count one cell step; True when the search must stop (cancelled)."""
        self.steps += 1
        return self.monitor.check(self.steps, 0, self._fraction)

    def run(self) -> bool:
        """Count the tilings into ``self.total``. Returns False when cancelled."""
        vector, offset = 1, 0  # one way to have covered nothing
        fields = 1 << self.width
        current = 1
        for row in range(self.height):
            row_bytes = self.row_field_bytes[row]
            vector = _repack(vector, current, row_bytes, fields)
            current = row_bytes
            if self.keep_rows:
                self.row_starts.append((vector, offset))
            for column in range(self.width):
                vector, offset = self._step(vector, offset, row, column, row_bytes)
                if self.recorder is not None and self.open_rows[row] >> column & 1:
                    self.recorder.add(
                        {
                            "type": "cell",
                            "depth": 0,
                            "row": row,
                            "column": column,
                            "states": live_states(vector, row_bytes, fields),
                        }
                    )
                if self._tick():
                    return False
        # Nothing may stick out below the board, so only logical state 0 is left.
        bits = 8 * current
        self.total = (vector >> (bits * offset)) & ((1 << bits) - 1)
        self.masks = _Masks(self.width, 1)  # free the cached masks
        return True

    # ------------------------------------------------------------- tilings

    def unrank(self, ranks: list[int]) -> list[list[Domino]] | None:
        """Tilings number ``ranks`` (each 0 <= rank < total), in the order given.

        Needs ``keep_rows=True`` and a completed ``run``. Returns None when cancelled. A tiling
        is a list of dominoes ((r1, c1), (r2, c2)) in this board's own coordinates. Walking back
        from the final state, the tilings reaching state S' after a cell are numbered by
        predecessor, in a fixed order: first "the cell was covered earlier" (S = S' | 2^c), then
        "horizontal domino" (S = S' ^ 2^(c+1)); a set bit c has one predecessor (vertical).
        """
        if self.total is None or not self.keep_rows:
            raise RuntimeError("unrank needs a completed run with keep_rows=True")
        for rank in ranks:
            if not 0 <= rank < self.total:
                raise ValueError(f"rank {rank} is outside 0..{self.total - 1}")
        remaining = list(ranks)
        states = [0] * len(ranks)
        dominoes: list[list[Domino]] = [[] for _ in ranks]
        width = self.width
        for row in range(self.height - 1, -1, -1):
            size = self.row_field_bytes[row]
            layers = self._row_layers(row)
            below_row = self.open_rows[row + 1] if row + 1 < self.height else 0
            here = self.open_rows[row]
            for column in range(width - 1, -1, -1):
                if self._tick():
                    return None
                bit = 1 << column
                if not here & bit:
                    continue
                layer, offset = layers[column]
                can_go_down = bool(below_row & bit)
                right = bit << 1
                can_go_right = column + 1 < width and bool(here & right)
                for walker, state in enumerate(states):
                    rank = remaining[walker]
                    if state & bit:
                        # Only a vertical domino from this cell sets the bit.
                        if not can_go_down:
                            raise ArithmeticError("inconsistent profile DP layers")
                        states[walker] = state ^ bit
                        dominoes[walker].append(((row, column), (row + 1, column)))
                        continue
                    start = ((state | bit) ^ offset) * size
                    earlier = int.from_bytes(layer[start : start + size], "little")
                    if rank < earlier:
                        states[walker] = state | bit
                        continue
                    rank -= earlier
                    if can_go_right and state & right:
                        start = ((state ^ right) ^ offset) * size
                        if rank < int.from_bytes(layer[start : start + size], "little"):
                            states[walker] = state ^ right
                            remaining[walker] = rank
                            dominoes[walker].append(((row, column), (row, column + 1)))
                            continue
                    raise ArithmeticError("inconsistent profile DP layers")
        for tiling in dominoes:
            tiling.reverse()
        return dominoes

    def _row_layers(self, row: int) -> list[tuple[bytes, int]]:
        """(packed counts as bytes, offset) before each cell of ``row``."""
        vector, offset = self.row_starts[row]
        row_bytes = self.row_field_bytes[row]
        size = row_bytes << self.width
        layers = []
        for column in range(self.width):
            layers.append((vector.to_bytes(size, "little"), offset))
            if column + 1 < self.width:
                vector, offset = self._step(vector, offset, row, column, row_bytes)
        return layers


def count_tilings(open_rows: list[int], width: int, monitor: Monitor | None = None) -> int | None:
    """Number of domino tilings of the board (None when cancelled)."""
    dp = ProfileDP(open_rows, width, monitor)
    return dp.total if dp.run() else None


def tilings_by_rank(
    open_rows: list[int],
    width: int,
    choose_ranks: Callable[[int], list[int]],
    monitor: Monitor | None = None,
) -> tuple[int, list[list[Domino]]] | None:
    """Count the tilings, then rebuild the ones numbered ``choose_ranks(total)``.

    Returns (total, tilings), or None when cancelled.
    """
    dp = ProfileDP(open_rows, width, monitor, keep_rows=True)
    if not dp.run():
        return None
    assert dp.total is not None
    ranks = choose_ranks(dp.total)
    found = dp.unrank(ranks) if ranks else []
    if found is None:
        return None
    return dp.total, found
