"""Exactly uniform random domino tilings by coupling from the past (Propp and Wilson).

The board: ``height`` rows of ``width`` cells, one bitmask of open cells per row (bit c =
column c), simply connected (one piece, no holes). Far beyond the profile DP's width.

Height functions (Thurston). Colour cell (r, c) black when r + c is even. Walking along a
grid edge from corner v to corner w, h(w) - h(v) is +1 when the cell on the left is black
and -1 when it is white, unless a domino crosses the edge, which makes it -3 or +3 instead.
On a simply connected board this gives every tiling one height function on the corners,
fixed on the boundary; the height functions form a distributive lattice, and the tilings of
the lowest and highest ones are found by shortest paths from the boundary (``_extreme``).

The chain: a 2x2 block covered by two parallel dominoes can turn by a quarter (a "flip");
that moves the height of the block's centre by 4. Heat bath: pick a block, toss a coin, and
set it to its high orientation on heads, its low one on tails (when it is flippable at all).
With the same coins, a higher tiling stays higher (the update is monotone), so when the
chains started at time -T from the lowest and the highest tiling meet at time 0, every chain
has met: the common tiling is an exact sample of the uniform distribution (the chain is
reversible for it and irreducible on simply connected boards). T doubles until they meet; the
coins of each time step are reused as T grows (one seed per epoch).

Speed in CPython: a tiling is two big ints, ``H`` (bit of the left cell of each horizontal
domino) and ``V`` (of the top cell of each vertical one), rows ``width + 1`` bits apart. Blocks
whose top-left cells have the same colour never both flip and do not interact, so a half
sweep updates all of one colour at once in a dozen whole-board bit operations, with one
``getrandbits`` for the coins.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable

from pysolver.engines.monitor import Monitor

# How the page names this engine (see pysolver.facts): a menu title and one sentence.
TITLE = "Coupling from the past"
SUMMARY = "Exactly uniform random tilings of big simply connected boards (flip chain, CFTP)."
# The only protocol modes it serves (facts.json tells the page).
MODES = ("random",)

# Sweeps of the first try; each retry doubles them.
FIRST_SWEEPS = 16

Domino = tuple[tuple[int, int], tuple[int, int]]


def holes_message(open_rows: list[int], width: int) -> str | None:
    """Why the board is not simply connected (in words), or None when it is.

    The open cells must form one piece (joined through edges), and the cells outside them,
    with a ring around the board, too: a closed cell cut off from the outside is a hole.
    """
    height = len(open_rows)

    def is_open(r: int, c: int) -> bool:
        return 0 <= r < height and 0 <= c < width and bool(open_rows[r] >> c & 1)

    def pieces(cells: set[tuple[int, int]]) -> int:
        seen: set[tuple[int, int]] = set()
        count = 0
        for start in cells:
            if start in seen:
                continue
            count += 1
            seen.add(start)
            frontier = [start]
            while frontier:
                r, c = frontier.pop()
                for near in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if near in cells and near not in seen:
                        seen.add(near)
                        frontier.append(near)
        return count

    inside = {(r, c) for r in range(height) for c in range(width) if is_open(r, c)}
    if pieces(inside) > 1:
        return "the board falls into separate pieces; cftp needs one piece without holes"
    outside = {
        (r, c) for r in range(-1, height + 1) for c in range(-1, width + 1) if not is_open(r, c)
    }
    if pieces(outside) > 1:
        return (
            "the board has a hole (closed cells surrounded by open ones); cftp needs a board "
            "without holes"
        )
    return None


class Sampler:
    """Exact uniform sampling of the tilings of one simply connected board."""

    def __init__(self, open_rows: list[int], width: int) -> None:
        self.open_rows = list(open_rows)
        self.width = width
        self.height = len(open_rows)
        self.stride = width + 1  # a zero column between rows keeps shifts from wrapping
        stride = self.stride
        self.parity_blocks = [0, 0]
        for r in range(self.height - 1):
            for c in range(width - 1):
                self.parity_blocks[(r + c) % 2] |= 1 << (r * stride + c)
        self.bits = self.height * stride
        extremes = _extreme_tilings(self.open_rows, width)
        if extremes is None:
            self.lowest = self.highest = None
        else:
            self.lowest = self._pack(extremes[0])
            self.highest = self._pack(extremes[1])
        self.sweeps = 0  # sweeps run, for the stats
        # Progress of the sample being drawn, for a long one (an Aztec diamond of order 100
        # takes seconds): the largest share of the two chains' first disagreement (dominoes
        # placed differently in the lowest and highest tilings) gone at a check, 0 to 1; and the
        # upper chain's tiling at the last check, to show.
        self.coalesced = 0.0
        self.latest: tuple[int, int] | None = None

    @property
    def tileable(self) -> bool:
        return self.lowest is not None

    def _pack(self, dominoes: list[Domino]) -> tuple[int, int]:
        horizontal = vertical = 0
        for (r, c), (r2, _c2) in dominoes:
            bit = 1 << (r * self.stride + c)
            if r2 == r:
                horizontal |= bit
            else:
                vertical |= bit
        return horizontal, vertical

    def unpack(self, tiling: tuple[int, int]) -> list[Domino]:
        """The dominoes of a packed tiling, sorted by their first cell."""
        dominoes: list[Domino] = []
        for packed, dr, dc in ((tiling[0], 0, 1), (tiling[1], 1, 0)):
            while packed:
                low = packed & -packed
                r, c = divmod(low.bit_length() - 1, self.stride)
                dominoes.append(((r, c), (r + dr, c + dc)))
                packed ^= low
        dominoes.sort()
        return dominoes

    def _sweeps(
        self, states: list[tuple[int, int]], rng: random.Random, sweeps: int
    ) -> list[tuple[int, int]]:
        """Run ``sweeps`` heat-bath sweeps on every state with the same coins."""
        stride = self.stride
        getrandbits = rng.getrandbits
        bits = self.bits
        even, odd = self.parity_blocks
        for _ in range(sweeps):
            for parity, blocks in ((0, even), (1, odd)):
                coins = getrandbits(bits)
                # Where the coin says "high": on even blocks two horizontal dominoes are the
                # high orientation, on odd blocks two vertical ones (see the module doc).
                heads = coins if parity == 0 else ~coins
                moved = []
                for horizontal, vertical in states:
                    stacked = horizontal & (horizontal >> stride) & blocks  # two horizontal
                    side_by_side = vertical & (vertical >> 1) & blocks  # two vertical
                    to_horizontal = side_by_side & heads
                    to_vertical = stacked & ~heads
                    vertical ^= to_horizontal | to_horizontal << 1
                    horizontal |= to_horizontal | to_horizontal << stride
                    horizontal ^= to_vertical | to_vertical << stride
                    vertical |= to_vertical | to_vertical << 1
                    moved.append((horizontal, vertical))
                states = moved
        self.sweeps += sweeps
        return states

    def sample(
        self, rng: random.Random, should_stop: Callable[[], bool] | None = None
    ) -> list[Domino] | None:
        """One exactly uniform tiling (None when ``should_stop`` asked to stop)."""
        if self.lowest is None or self.highest is None:
            raise ValueError("the board has no tiling")
        seeds: list[int] = []  # per epoch, furthest back last
        first_gap = _gap(self.lowest, self.highest) or 1
        self.coalesced = 0.0

        def stop_at_check(states: list[tuple[int, int]]) -> bool:
            self.coalesced = max(self.coalesced, 1 - _gap(states[0], states[1]) / first_gap)
            self.latest = states[1]
            return should_stop is not None and should_stop()

        while True:
            seeds.append(rng.getrandbits(64))
            states = [self.lowest, self.highest]
            # Epoch k covers FIRST_SWEEPS * 2^(k-1) sweeps (epoch 0: FIRST_SWEEPS); the
            # oldest runs first, each from its own seed, so later tries reuse the same coins.
            for epoch in range(len(seeds) - 1, -1, -1):
                if should_stop is not None and should_stop():
                    return None
                sweeps = FIRST_SWEEPS if epoch == 0 else FIRST_SWEEPS << (epoch - 1)
                chunk = random.Random(seeds[epoch])
                while sweeps:
                    step = min(sweeps, 64)  # check for a stop every 64 sweeps
                    states = self._sweeps(states, chunk, step)
                    sweeps -= step
                    if stop_at_check(states):
                        return None
            if states[0] == states[1]:
                return self.unpack(states[0])


def _gap(lower: tuple[int, int], upper: tuple[int, int]) -> int:
    """How many dominoes two packed tilings place differently (as bits of H and V)."""
    return (lower[0] ^ upper[0]).bit_count() + (lower[1] ^ upper[1]).bit_count()


def sample_tilings(
    open_rows: list[int],
    width: int,
    count: int,
    rng: random.Random,
    monitor: Monitor | None = None,
) -> tuple[list[list[Domino]], dict[str, int]] | None:
    """``count`` independent exactly uniform tilings, and stats; None when cancelled.

    Raises ValueError when the board is not simply connected or has no tiling.
    """
    monitor = monitor or Monitor()
    reason = holes_message(open_rows, width)
    if reason is not None:
        raise ValueError(reason)
    sampler = Sampler(open_rows, width)
    if not sampler.tileable:
        raise ValueError("the board has no domino tiling")
    tilings: list[list[Domino]] = []

    def should_stop() -> bool:
        return monitor.check(
            sampler.sweeps, len(tilings), lambda: (len(tilings) + sampler.coalesced) / count
        )

    for _ in range(count):
        tiling = sampler.sample(rng, should_stop)
        if tiling is None:
            return None
        tilings.append(tiling)
    return tilings, {"sweeps": sampler.sweeps}


# ---------------------------------------------------------------- height functions


def height_function(dominoes: list[Domino], open_rows: list[int], width: int) -> dict[int, int]:
    """The heights of a tiling at the corners of its cells (corner r * (width + 1) + c), the
    first corner at 0: the order in which the chain is monotone (see the module doc)."""
    columns = width + 1
    crossed: set[tuple[int, int]] = set()
    for (r, c), (r2, _c2) in dominoes:
        if r2 == r:  # horizontal: crosses the edge from corner (r, c+1) down to (r+1, c+1)
            crossed.add((r * columns + c + 1, (r + 1) * columns + c + 1))
        else:  # vertical: crosses the edge from corner (r+1, c) right to (r+1, c+1)
            crossed.add(((r + 1) * columns + c, (r + 1) * columns + c + 1))
    edges = _corner_edges(open_rows, width)
    start = min(edges)
    heights = {start: 0}
    frontier = [start]
    while frontier:
        v = frontier.pop()
        for w, difference, _interior in edges[v]:
            if w in heights:
                continue
            if (min(v, w), max(v, w)) in crossed:
                difference = -3 * difference
            heights[w] = heights[v] + difference
            frontier.append(w)
    return heights


def _corner_edges(open_rows: list[int], width: int) -> dict[int, list[tuple[int, int, bool]]]:
    """Per corner of an open cell, its edges: (other corner, h(other) - h(corner) when no
    domino crosses the edge, whether open cells lie on both sides)."""
    height = len(open_rows)
    columns = width + 1

    def is_open(r: int, c: int) -> bool:
        return 0 <= r < height and 0 <= c < width and bool(open_rows[r] >> c & 1)

    edges: dict[int, list[tuple[int, int, bool]]] = {}

    def add(v: int, w: int, left_black: bool, sides: tuple[bool, bool]) -> None:
        if not any(sides):
            return
        difference = 1 if left_black else -1
        interior = all(sides)
        edges.setdefault(v, []).append((w, difference, interior))
        edges.setdefault(w, []).append((v, -difference, interior))

    for r in range(height + 1):
        for c in range(width + 1):
            v = r * columns + c
            if c < width:  # east: cells above (r - 1, c) and below (r, c); the left is above
                add(v, v + 1, (r - 1 + c) % 2 == 0, (is_open(r - 1, c), is_open(r, c)))
            if r < height:  # south: cells left (r, c - 1) and right (r, c); the left is east
                add(v, v + columns, (r + c) % 2 == 0, (is_open(r, c - 1), is_open(r, c)))
    return edges


# ---------------------------------------------------------------- the extreme tilings


def _extreme_tilings(open_rows: list[int], width: int) -> tuple[list[Domino], list[Domino]] | None:
    """The tilings of the lowest and of the highest height function; None if none exists.

    Corners are numbered r * (width + 1) + c. The boundary's heights follow from walking
    its edges (no domino crosses them); inside, h(w) - h(v) <= up(v, w), which is 1 along an
    edge whose left cell is black and 3 otherwise (a crossing domino). The highest height
    function is the least such bound from the boundary (shortest paths), the lowest is the
    mirror image; the board has a tiling exactly when neither contradicts the boundary.
    """
    edges = _corner_edges(open_rows, width)

    # Boundary heights: walk the edges with an open cell on one side only.
    start = next(
        (v for v, around in edges.items() if any(not interior for _, _, interior in around)), None
    )
    if start is None:
        return None
    boundary = {start: 0}
    frontier = [start]
    while frontier:
        v = frontier.pop()
        for w, difference, interior in edges[v]:
            if interior:
                continue
            expected = boundary[v] + difference
            if w not in boundary:
                boundary[w] = expected
                frontier.append(w)
            elif boundary[w] != expected:
                return None  # the boundary's heights do not close up: no tiling

    def bound(sign: int) -> dict[int, int] | None:
        """sign 1: the highest heights; -1: the lowest (as the highest of -h)."""
        best = {v: sign * h for v, h in boundary.items()}
        queue = [(value, v) for v, value in best.items()]
        heapq.heapify(queue)
        while queue:
            value, v = heapq.heappop(queue)
            if value > best[v]:
                continue
            for w, difference, interior in edges[v]:
                if not interior:
                    continue
                step = sign * difference
                limit = value + (1 if step == 1 else 3)
                if w in boundary:
                    if limit < best[w]:
                        return None  # the boundary is not reachable within the rules
                    continue
                if limit < best.get(w, limit + 1):
                    best[w] = limit
                    heapq.heappush(queue, (limit, w))
        return {v: sign * value for v, value in best.items()}

    highest = bound(1)
    lowest = bound(-1)
    if highest is None or lowest is None:
        return None
    extremes = _tiling_of(lowest, open_rows, width), _tiling_of(highest, open_rows, width)
    open_cells = sum(row.bit_count() for row in open_rows)
    for dominoes in extremes:
        covered = {cell for domino in dominoes for cell in domino}
        if len(dominoes) * 2 != open_cells or len(covered) != open_cells:
            raise ArithmeticError("the extreme height functions do not give tilings")
    return extremes


def _tiling_of(heights: dict[int, int], open_rows: list[int], width: int) -> list[Domino]:
    """The dominoes of a height function: across every edge where the height jumps by 3."""
    columns = width + 1
    height = len(open_rows)
    dominoes: list[Domino] = []
    for r in range(height):
        row = open_rows[r]
        below = open_rows[r + 1] if r + 1 < height else 0
        for c in range(width):
            if not row >> c & 1:
                continue
            # East neighbour: the edge between them runs from corner (r, c+1) to (r+1, c+1).
            top_corner = r * columns + c + 1
            if row >> (c + 1) & 1 and abs(heights[top_corner + columns] - heights[top_corner]) == 3:
                dominoes.append(((r, c), (r, c + 1)))
            # South neighbour: the edge runs from corner (r+1, c) to (r+1, c+1).
            left_corner = (r + 1) * columns + c
            if below >> c & 1 and abs(heights[left_corner + 1] - heights[left_corner]) == 3:
                dominoes.append(((r, c), (r + 1, c)))
    return dominoes
