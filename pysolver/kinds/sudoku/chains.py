"""Chains: the Sudoku techniques of the ``fiendish`` level, tried after the wings and before a
guess. Each follows implications from one candidate to another along *strong links*:

- a **conjugate pair**: a digit with exactly two places in a house (if one is not the digit,
  the other is);
- a **bivalue cell**: a cell with exactly two candidates (if it is not one, it is the other);

joined by *weak links* (two cells sharing a house cannot both hold a digit; a cell holds one
digit). Finders, easiest first (``TECHNIQUES`` in ``pysolver.kinds.sudoku.techniques``):

- ``simple colouring``: one digit's conjugate pairs joined into chains and coloured in two
  colours, one of which holds the digit everywhere. Two cells of one colour in a house: that
  colour is wrong, its cells lose the digit. A cell seeing both colours loses it.
- ``x-chain``: one digit, from a cell to another along links alternating strong and weak
  (if the first is not the digit, the last is): a cell seeing both ends loses it.
- ``xy-chain``: bivalue cells each sharing a digit with the next (if the first is not z, the
  last is z): a cell seeing both ends loses z.
- ``forcing chain``: a cell with two or three candidates, or a house with two or three places
  for a digit; each candidate (place) is followed along strong links (a candidate made true
  makes its peers' and its cell's others false; a false candidate makes its strong partner
  true). What every branch reaches (a digit placed, a candidate removed) holds; a branch that
  reaches a contradiction (a candidate both true and false) is wrong, and when all but one are,
  the last holds.

The search is shortest chain first (breadth first, in lockstep over every start, for the
single-digit and bivalue chains), then in a fixed order of digits and cells, so paths are
reproducible. Every finder reads the board's masks (``pysolver.kinds.sudoku.board``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pysolver.kinds.sudoku.board import Grid, bits, digits_of, linked, listed
from pysolver.logic.step import Step

# A forcing chain starts at a cell with at most this many candidates, or a house with at most
# this many places for a digit.
MAX_BRANCHES = 2
# The most digits placed and candidates removed one forcing chain step names (each explained
# along every branch; the next step finds the rest).
MAX_CONCLUSIONS = 3


@dataclass
class Links:
    """One state's strong links: per digit index, each cell's conjugate partners (a cell mask)
    and the cells with one (a cell mask); the bivalue cells."""

    partners: list[dict[int, int]]
    bivalue: int
    # Per digit index, the cells with a conjugate partner (a cell mask).
    paired: list[int]


def links(grid: Grid) -> Links:
    """The strong links of ``grid``'s state (worked out once per state)."""
    state = grid.state()
    found: Links | None = state.get("links")
    if found is None:
        partners: list[dict[int, int]] = []
        paired = []
        for board in grid.boards:
            by_cell, mask = digit_pairs(grid, board)
            partners.append(by_cell)
            paired.append(mask)
        counts = grid.counts()
        found = Links(partners, counts[2] & ~counts[3], paired)
        state["links"] = found
    return found


def digit_pairs(grid: Grid, board: int) -> tuple[dict[int, int], int]:
    """One digit's conjugate pairs from its ``board`` alone: each cell's partners (a cell
    mask) and the cells with one. A step changes few digits' boards, so the others' pairs are
    remembered across states."""
    key = ("pairs", board)
    found: tuple[dict[int, int], int] | None = grid.remembered(key)
    if found is None:
        shape = grid.shape
        guards, lows, width = shape.guards, shape.lows, shape.width
        house_mask = shape.house_mask
        # The houses where the digit has exactly two places (``Grid.spread``).
        rest = board & ((board | guards) - lows)
        pairs = ((rest | guards) - lows) & guards
        rest &= (rest | guards) - lows
        pairs &= ~((rest | guards) - lows)
        places = board >> shape.base
        by_cell: dict[int, int] = {}
        mask = 0
        while pairs:
            guard = pairs & -pairs
            pairs ^= guard
            # The house's two places, read off the cell bits.
            both = places & house_mask[(guard.bit_length() - 1) // width]
            low = both & -both
            high = both ^ low
            first = low.bit_length() - 1
            second = high.bit_length() - 1
            by_cell[first] = by_cell.get(first, 0) | high
            by_cell[second] = by_cell.get(second, 0) | low
            mask |= both
        found = (by_cell, mask)
        grid.remember(key, found)
    return found


def shared_house(grid: Grid, first: int, second: int) -> str:
    """The name of the first house two cells share."""
    common = grid.shape.house_bits[first] & grid.shape.house_bits[second]
    return grid.house_names[(common & -common).bit_length() - 1]


def pair_house(grid: Grid, index: int, first: int, second: int) -> str:
    """The name of the first house where digit ``index + 1`` has exactly the two places
    ``first`` and ``second``."""
    shape = grid.shape
    board = grid.boards[index]
    common = shape.house_bits[first] & shape.house_bits[second]
    while common:
        low = common & -common
        common ^= low
        house = low.bit_length() - 1
        if (board >> shape.base) & shape.house_mask[house] == 1 << first | 1 << second:
            return grid.house_names[house]
    raise ValueError("the two cells are not a conjugate pair")


def lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


# ---------------------------------------------------------------- simple colouring


def simple_colouring(grid: Grid) -> Step | None:
    """One digit's conjugate pairs, coloured: a colour twice in a house is wrong; a cell
    seeing both colours is not the digit."""
    chains = links(grid)
    peer_mask = grid.peer_mask
    fruitless = grid.memo  # the keys ``Grid.fruitless`` holds
    for index, partners in enumerate(chains.partners):
        # A digit's colouring reads its board alone: one found fruitless stays so.
        key = ("simple colouring", grid.boards[index])
        if not partners or key in fruitless:
            continue
        digit = index + 1
        places = grid.cells_of(digit)
        coloured = 0
        for start in sorted(partners):
            if coloured >> start & 1:
                continue
            colours = [1 << start, 0]
            frontier = seen = 1 << start
            side = 0
            while frontier:
                side ^= 1
                frontier = linked(frontier, partners) & ~seen
                colours[side] |= frontier
                seen |= frontier
            coloured |= seen
            if colours[0] & colours[1]:
                continue  # an odd loop of pairs: only on a board with no solution
            step = colour_step(grid, digit, places, colours, peer_mask)
            if step is not None:
                return step
        grid.mark_fruitless(key)
    return None


def colour_step(
    grid: Grid, digit: int, places: int, colours: list[int], peer_mask: list[int]
) -> Step | None:
    """The step of one coloured chain of ``digit``: a colour twice in a house, else a cell
    seeing both colours; None when neither shows."""
    both = colours[0] | colours[1]
    # Per colour, the cells its cells see.
    sees = []
    for colour in colours:
        mask = 0
        while colour:
            low = colour & -colour
            colour ^= low
            mask |= peer_mask[low.bit_length() - 1]
        sees.append(mask)
    for colour, seen in zip(colours, sees, strict=True):
        if not seen & colour:
            continue
        for cell in bits(colour):
            clash = peer_mask[cell] & colour
            if clash:
                other = lowest(clash)
                text = (
                    f"{colouring_words(grid, digit, colours)} "
                    f"{grid.cell_name(cell).capitalize()} and {grid.cell_name(other)} "
                    f"have the same colour and share {shared_house(grid, cell, other)}, so "
                    f"that colour is not {digit}: {digit} comes out of "
                    f"{grid.cells_named(bits(colour))}."
                )
                removed = [(spot, digit) for spot in bits(colour)]
                return Step("simple colouring", [], removed, bits(both), text)
    trapped = places & sees[0] & sees[1] & ~both
    if not trapped:
        return None
    named = grid.cells_named(bits(trapped))
    one = trapped & (trapped - 1) == 0
    text = (
        f"{colouring_words(grid, digit, colours)} {named[0].upper()}{named[1:]} "
        f"{'sees' if one else 'see'} a cell of each colour, so {digit} comes out of "
        f"{'it' if one else 'them'}."
    )
    return Step("simple colouring", [], [(cell, digit) for cell in bits(trapped)], bits(both), text)


def colouring_words(grid: Grid, digit: int, colours: list[int]) -> str:
    """The sentences that colour a chain of ``digit``'s conjugate pairs."""
    shown = [grid.cells_named(bits(colour)) for colour in colours]
    return (
        f"Colour the places of {digit} that come in pairs (a house with only two places for "
        f"{digit}), each pair one cell of each colour: {shown[0]} one colour, {shown[1]} the "
        f"other. One colour holds {digit} everywhere."
    )


# ---------------------------------------------------------------- x-chains


@dataclass(slots=True)
class Walk:
    """A breadth-first walk from one start (a cell of one digit for x-chains, a cell and the
    digit it is not for xy-chains): its layers, what it has seen, its frontier."""

    start: int
    digit: int
    layers: list[list[int]]
    seen_on: int
    seen_off: int
    frontier: int


def x_chain(grid: Grid) -> Step | None:
    """One digit along alternating strong and weak links, shortest first: if the first cell is
    not the digit, the last is; a cell seeing both loses it."""
    chains = links(grid)
    peer_mask = grid.peer_mask
    walks: list[Walk] = []
    # Per walk, the places of its digit its start sees: an end seeing one of them makes the
    # step.
    targets: list[int] = []
    # A digit's x-chains read its board alone: one found fruitless stays so.
    searched = []
    base = grid.shape.base
    fruitless = grid.memo  # the keys ``Grid.fruitless`` holds
    for index, partners in enumerate(chains.partners):
        board = grid.boards[index]
        key = ("x-chain", board)
        if not partners or key in fruitless:
            continue
        searched.append(key)
        places = board >> base
        for start in sorted(partners):
            on = partners[start]
            walks.append(Walk(start, index + 1, [[1 << start, on]], on, 1 << start, on))
            targets.append(places & peer_mask[start])
    # Only an off cell with a conjugate partner leads on.
    paired = chains.paired
    all_partners = chains.partners
    while walks:
        # Per walk, the cells its ends see: a cell seeing the start and an end is one the
        # chain removes the digit from, and the off cells of the next layer are among them.
        # A walk's next layer leaves the others' alone: each walk looks, then moves on.
        alive = []
        alive_targets = []
        for walk, seen in zip(walks, targets, strict=True):
            ends = walk.frontier
            reach = 0
            while ends:
                low = ends & -ends
                ends ^= low
                reach |= peer_mask[low.bit_length() - 1]
            if seen & reach:
                for end in bits(walk.frontier):
                    gone = seen & peer_mask[end]
                    if gone:
                        return x_chain_step(grid, chains, walk, end, gone)
            index = walk.digit - 1
            off = reach & paired[index] & ~walk.seen_off
            if not off:
                continue
            walk.seen_off |= off
            partners = all_partners[index]
            on = 0
            spots = off
            while spots:
                low = spots & -spots
                spots ^= low
                on |= partners[low.bit_length() - 1]
            on &= ~walk.seen_on
            if on:
                walk.seen_on |= on
                walk.frontier = on
                walk.layers.append([off, on])
                alive.append(walk)
                alive_targets.append(seen)
        walks, targets = alive, alive_targets
    for key in searched:
        grid.mark_fruitless(key)
    return None


def x_chain_step(grid: Grid, chains: Links, walk: Walk, end: int, gone: int) -> Step:
    """The step of an x-chain from ``walk.start`` to ``end`` (the cells ``gone`` see both)."""
    digit = walk.digit
    index = digit - 1
    partners = chains.partners[index]
    # Back from the end: each on cell's off cell (a conjugate partner in the same layer), each
    # off cell's on cell (a peer in the layer before).
    chain = [end]
    on = end
    for layer in range(len(walk.layers) - 1, -1, -1):
        off = next(cell for cell in bits(walk.layers[layer][0]) if partners.get(cell, 0) >> on & 1)
        chain.append(off)
        if layer:
            on = lowest(walk.layers[layer - 1][1] & grid.peer_mask[off])
            chain.append(on)
    chain.reverse()
    parts = []
    for position in range(1, len(chain)):
        before, cell = chain[position - 1], chain[position]
        if position % 2:
            parts.append(
                f"{grid.cell_name(cell)} is {digit} (the other place for {digit} in "
                f"{pair_house(grid, index, before, cell)})"
            )
        else:
            parts.append(
                f"{grid.cell_name(cell)} is not {digit} (it shares "
                f"{shared_house(grid, before, cell)} with {grid.cell_name(before)})"
            )
    start, last = chain[0], chain[-1]
    text = (
        f"Either {grid.cell_name(start)} or {grid.cell_name(last)} is {digit}: if "
        f"{grid.cell_name(start)} is not {digit}, {', so '.join(parts)}. So {digit} comes out of "
        f"{grid.cells_named(bits(gone))}, which see{'s' if gone & (gone - 1) == 0 else ''} both."
    )
    return Step("x-chain", [], [(cell, digit) for cell in bits(gone)], chain, text)


# ---------------------------------------------------------------- xy-chains


def xy_chain(grid: Grid) -> Step | None:
    """Bivalue cells, each sharing a digit with the next, shortest first: if the first is not
    z, the last is z; a cell seeing both loses z.

    A walk starts at each bivalue cell and each of its digits z (the cell not z, so its other
    digit); they go breadth first in lockstep, and the first walk (cells in order, then z)
    whose layer reaches a cell holding z that sees, with the start, a z elsewhere makes the
    step. A node is a bivalue cell and the digit it holds; the walks share the nodes, so the
    lockstep runs over nodes, each with the walks at it as a mask (bit w: walk w), and only
    the winning walk is walked again alone for its chain (``xy_walk``)."""
    chains = links(grid)
    bivalue = chains.bivalue
    # A chain whose cells all kept their candidates since this finder last found nothing was
    # there then, seeing as much or more: a new one needs a changed bivalue cell.
    if not grid.changed_since("xy-chain") & bivalue:
        grid.mark_quiet("xy-chain")
        return None
    candidates = grid.candidates
    peer_mask = grid.peer_mask
    base = grid.shape.base
    places = [board >> base for board in grid.boards]
    holding = [bivalue & cells for cells in places]
    order = bits(bivalue)
    # Walk 2k starts at the k-th bivalue cell with z its lower digit, walk 2k + 1 with z its
    # higher one: ``slot(cell, index) = 2k + (index is the higher digit)`` numbers the walk
    # with z = index + 1, and node (cell, index) is the start of walk ``slot(cell, index) ^ 1``
    # (``first[cell]`` is 2k, ``top[cell]`` the higher digit's index).
    first = [0] * len(candidates)
    top = [0] * len(candidates)
    for k, cell in enumerate(order):
        first[cell] = 2 * k
        top[cell] = candidates[cell].bit_length() - 1
    count = 2 * len(order)
    following: list[list[int]] = []
    hitters = []
    for cell in order:
        mask = candidates[cell]
        high = top[cell]
        for index in (high, (mask ^ (1 << high)).bit_length() - 1):
            # Node (cell, index): the next nodes hold the other digit of a peer holding index;
            # the walks with z = index + 1 from another start seeing, with this cell, a z.
            nexts = []
            spots = holding[index] & peer_mask[cell]
            while spots:
                low = spots & -spots
                spots ^= low
                nxt = low.bit_length() - 1
                nexts.append(first[nxt] + (top[nxt] == index))
            following.append(nexts)
            seen = places[index] & peer_mask[cell]
            hit = 0
            spots = holding[index] & ~(1 << cell)
            while spots:
                low = spots & -spots
                spots ^= low
                start = low.bit_length() - 1
                if seen & peer_mask[start]:
                    hit |= 1 << (first[start] + (top[start] == index))
            hitters.append(hit)
    at = [1 << node for node in range(count)]
    visited = at.copy()
    active = list(range(count))
    while active:
        hits = 0
        for node in active:
            hits |= at[node] & hitters[node]
        if hits:
            walk = (hits & -hits).bit_length() - 1
            start = order[walk // 2]
            return xy_walk(grid, holding, start, bits(candidates[start])[walk & 1] + 1)
        reached = [0] * count
        for node in active:
            walks = at[node]
            for nxt in following[node]:
                reached[nxt] |= walks
        active = []
        for node, walks in enumerate(reached):
            if walks:
                new = walks & ~visited[node]
                at[node] = new
                if new:
                    visited[node] |= new
                    active.append(node)
            else:
                at[node] = 0
    grid.mark_quiet("xy-chain")
    return None


def xy_walk(grid: Grid, holding: list[int], start: int, z: int) -> Step:
    """The step of the walk from ``start`` (not ``z``) that ``xy_chain`` found first: its
    layers in the order they are reached (each node after the one it came from, in cell
    order), to the first node of its first hitting layer."""
    candidates = grid.candidates
    peer_mask = grid.peer_mask
    seen = grid.cells_of(z) & peer_mask[start]
    node = (start, (candidates[start] & ~(1 << (z - 1))).bit_length() - 1)
    came_from: dict[tuple[int, int], tuple[int, int] | None] = {node: None}
    frontier = [node]
    while frontier:
        for cell, index in frontier:
            if index == z - 1 and cell != start:
                gone = seen & peer_mask[cell]
                if gone:
                    return xy_chain_step(grid, start, z, (cell, index), came_from, gone)
        reached = []
        for cell, index in frontier:
            for nxt in bits(holding[index] & peer_mask[cell]):
                node = (nxt, (candidates[nxt] & ~(1 << index)).bit_length() - 1)
                if node not in came_from:
                    came_from[node] = (cell, index)
                    reached.append(node)
        frontier = reached
    raise ValueError("xy_chain found a hit this walk does not reach")


def xy_chain_step(
    grid: Grid,
    start: int,
    z: int,
    end: tuple[int, int],
    came_from: dict[tuple[int, int], tuple[int, int] | None],
    gone: int,
) -> Step:
    """The step of an xy-chain from ``start`` (not z) to ``end`` (z)."""
    nodes = []
    node: tuple[int, int] | None = end
    while node is not None:
        nodes.append(node)
        node = came_from[node]
    nodes.reverse()
    candidates = grid.candidates

    def named(cell: int) -> str:
        return f"{grid.cell_name(cell)} ({'/'.join(map(str, digits_of(candidates[cell])))})"

    first = nodes[0]
    parts = [f"if {named(start)} is not {z} it is {first[1] + 1}"]
    parts += [f"so {named(cell)} is {index + 1}" for cell, index in nodes[1:]]
    cells = [cell for cell, _index in nodes]
    text = (
        f"{', '.join(parts)}. Either way one of {grid.cell_name(start)} and "
        f"{grid.cell_name(end[0])} is {z}, so {z} comes out of {grid.cells_named(bits(gone))}, "
        f"which see{'s' if gone & (gone - 1) == 0 else ''} both."
    )
    text = text[0].upper() + text[1:]
    return Step("xy-chain", [], [(cell, z) for cell in bits(gone)], cells, text)


# ---------------------------------------------------------------- forcing chains


@dataclass
class Implications:
    """One state's candidates as nodes (``digit index * cells + cell``, so a digit's cell mask
    shifted by ``index * cells`` is its nodes); per node made true, the nodes that one weak
    link then one strong link make true and the nodes it makes false (``links``, worked out on
    first use); per node, all the nodes it makes true and false (``reach``, on first use)."""

    cells: int
    places: list[int]
    chains: Links
    links: dict[int, tuple[int, int]] = field(default_factory=dict)
    reach: dict[int, tuple[int, int]] = field(default_factory=dict)


def implications(grid: Grid) -> Implications:
    """``Implications`` of ``grid``'s state (once per state)."""
    state = grid.state()
    found: Implications | None = state.get("implications")
    if found is None:
        base = grid.shape.base
        places = [board >> base for board in grid.boards]
        found = Implications(grid.n * grid.n, places, links(grid))
        state["implications"] = found
    return found


def node_links(grid: Grid, facts: Implications, node: int) -> tuple[int, int]:
    """What a true ``node`` makes true through one false candidate (a peer's digit gone leaves
    a bivalue peer its other digit, or the digit's conjugate place; a candidate of its own
    cell gone leaves that digit's conjugate place), and what it makes false (its digit in its
    peers, its cell's other candidates)."""
    found = facts.links.get(node)
    if found is not None:
        return found
    cells = facts.cells
    index, cell = divmod(node, cells)
    shift = index * cells
    chains = facts.chains
    candidates = grid.candidates
    peers = grid.peer_mask[cell] & facts.places[index]
    false = peers << shift
    true = 0
    bit = 1 << index
    spots = peers & chains.bivalue
    while spots:
        low = spots & -spots
        spots ^= low
        peer = low.bit_length() - 1
        true |= 1 << (((candidates[peer] ^ bit).bit_length() - 1) * cells + peer)
    spots = peers & chains.paired[index]
    if spots:
        partners = chains.partners[index]
        pairs = 0
        while spots:
            low = spots & -spots
            spots ^= low
            pairs |= partners[low.bit_length() - 1]
        true |= (pairs & ~(1 << cell)) << shift
    others = candidates[cell] ^ bit
    all_partners = chains.partners
    while others:
        low = others & -others
        others ^= low
        other = low.bit_length() - 1
        false |= 1 << (other * cells + cell)
        partner = all_partners[other].get(cell)
        if partner:
            true |= partner << (other * cells)
    found = (true, false)
    facts.links[node] = found
    return found


def reach(grid: Grid, facts: Implications, node: int) -> tuple[int, int]:
    """Every node a true ``node`` makes true (itself too) and every node those make false
    (once per state): a contradiction when the two meet."""
    closures = facts.reach
    found = closures.get(node)
    if found is None:
        known = facts.links
        pair = known.get(node) or node_links(grid, facts, node)
        true = 1 << node
        false = pair[1]
        frontier = pair[0] & ~true
        while frontier:
            true |= frontier
            reached = 0
            while frontier:
                low = frontier & -frontier
                frontier ^= low
                spot = low.bit_length() - 1
                # A node whose closure is known brings all of it (a closure is closed:
                # nothing beyond it to walk).
                closure = closures.get(spot)
                if closure is not None:
                    true |= closure[0]
                    false |= closure[1]
                    continue
                pair = known.get(spot) or node_links(grid, facts, spot)
                reached |= pair[0]
                false |= pair[1]
            frontier = reached & ~true
        found = (true, false)
        closures[node] = found
    return found


def made_false(grid: Grid, facts: Implications, node: int) -> int:
    """The nodes a true ``node`` makes false (``node_links``)."""
    return node_links(grid, facts, node)[1]


def successors(grid: Grid, facts: Implications, node: int) -> int:
    """The nodes a true ``node`` makes true through one false candidate (``node_links``)."""
    return node_links(grid, facts, node)[0]


@dataclass
class Branch:
    """What one node made true leads to: the nodes made true layer by layer (layer 0: the
    node), all of them, the nodes they make false, and the nodes both true and false (a
    contradiction: 0 when none)."""

    layers: list[int]
    true: int
    false: int
    clash: int


def follow(grid: Grid, facts: Implications, node: int) -> Branch:
    """The branch of ``node``, layer by layer (for the words of a step)."""
    known = facts.links
    true = 1 << node
    layers = [true]
    frontier = node_links(grid, facts, node)[0] & ~true
    while frontier:
        true |= frontier
        layers.append(frontier)
        reached = 0
        for spot in bits(frontier):
            reached |= (known.get(spot) or node_links(grid, facts, spot))[0]
        frontier = reached & ~true
    true, false = reach(grid, facts, node)
    return Branch(layers, true, false, true & false)


def true_path(grid: Grid, facts: Implications, branch: Branch, node: int) -> list[int]:
    """The true nodes from the branch's assumption to ``node``, in order."""
    layer = next(k for k, nodes in enumerate(branch.layers) if nodes >> node & 1)
    path = [node]
    while layer:
        layer -= 1
        node = next(
            spot for spot in bits(branch.layers[layer]) if successors(grid, facts, spot) >> node & 1
        )
        path.append(node)
    path.reverse()
    return path


def false_path(grid: Grid, facts: Implications, branch: Branch, node: int) -> list[int]:
    """The true nodes from the branch's assumption to the first that makes ``node`` false."""
    for nodes in branch.layers:
        for spot in bits(nodes):
            if made_false(grid, facts, spot) >> node & 1:
                return true_path(grid, facts, branch, spot)
    raise ValueError("the branch does not make this node false")


def forcing_chain(grid: Grid) -> Step | None:
    """A cell's candidates (or a house's places for a digit), each followed along strong
    links: what they all reach holds; a branch reaching a contradiction is wrong."""
    facts = implications(grid)
    cells = facts.cells
    counts = grid.counts()
    shape = grid.shape
    width, full = shape.width, shape.full
    candidates = grid.candidates
    for size in range(2, MAX_BRANCHES + 1):
        spots = counts[size] & ~counts[size + 1]
        while spots:
            low = spots & -spots
            spots ^= low
            cell = low.bit_length() - 1
            if size == 2:
                # Most bivalue cells are barren: looked at before any list is made.
                mask = candidates[cell]
                first = mask & -mask
                one = (first.bit_length() - 1) * cells + cell
                other = ((mask ^ first).bit_length() - 1) * cells + cell
                if pair_barren(grid, facts, one, other):
                    continue
                starts = [one, other]
            else:
                starts = [index * cells + cell for index in bits(candidates[cell])]
            step = forcing_step(grid, facts, starts, None)
            if step is not None:
                return step
        exact = grid.spread(size)
        fewer = grid.spread(size - 1) if size > 2 else [0] * grid.n
        all_houses = grid.houses
        for index, board in enumerate(grid.boards):
            sources = exact[index] & ~fewer[index]
            shift = index * cells
            # Two places shared by a box and a line are one source, its branches the same
            # nodes in the same order (a house lists its cells in cell order): looked at once.
            looked: set[int] = set()
            while sources:
                guard = sources & -sources
                sources ^= guard
                house = (guard.bit_length() - 1) // width
                spots = (board >> (house * width)) & full
                houses = all_houses[house]
                if size == 2:
                    first = spots & -spots
                    one = shift + houses[first.bit_length() - 1]
                    other = shift + houses[(spots ^ first).bit_length() - 1]
                    if one * cells + other in looked:
                        continue
                    looked.add(one * cells + other)
                    if pair_barren(grid, facts, one, other):
                        continue
                    starts = [one, other]
                else:
                    starts = [shift + houses[position] for position in bits(spots)]
                    if barren(grid, facts, starts):
                        continue
                step = forcing_step(grid, facts, starts, house)
                if step is not None:
                    return step
    return None


def barren(grid: Grid, facts: Implications, starts: list[int]) -> bool:
    """Whether two branches, neither a contradiction, agree on nothing (most sources: a
    quick look before ``forcing_step``)."""
    return len(starts) == 2 and pair_barren(grid, facts, starts[0], starts[1])


def pair_barren(grid: Grid, facts: Implications, one: int, other: int) -> bool:
    """``barren`` for the two branches ``one`` and ``other`` (no list made: most sources
    have two branches, and most of those are barren)."""
    known = facts.reach
    one_true, one_false = known.get(one) or reach(grid, facts, one)
    other_true, other_false = known.get(other) or reach(grid, facts, other)
    return not (
        one_true & one_false
        or other_true & other_false
        or one_true & other_true
        or one_false & other_false
    )


def forcing_step(
    grid: Grid, facts: Implications, starts: list[int], house: int | None
) -> Step | None:
    """The step of one source (a cell's candidates, or a house's places for a digit, the
    ``house`` named), or None when its branches agree on nothing."""
    cells = facts.cells
    reached = [reach(grid, facts, node) for node in starts]
    alive = [(true, false) for true, false in reached if not true & false]
    if not alive:
        return None  # only on a board with no solution
    placed: list[int] = []
    removed: list[int] = []
    if len(alive) == 1:
        placed = [starts[reached.index(alive[0])]]
    else:
        common_true = common_false = -1
        for true, false in alive:
            common_true &= true
            common_false &= false
        if not common_true and not common_false:
            return None
        placed = bits(common_true)
        # What the placements remove themselves is not listed.
        covered = 0
        for node in placed:
            covered |= made_false(grid, facts, node)
        removed = bits(common_false & ~covered)
        # A few conclusions a step, each explained: the next step finds the rest.
        placed = sorted(placed, key=lambda node: node % cells)[:MAX_CONCLUSIONS]
        removed = sorted(removed, key=lambda node: (node % cells, node))[
            : MAX_CONCLUSIONS - len(placed)
        ]
    if not placed and not removed:
        return None
    branches = [follow(grid, facts, node) for node in starts]
    return forcing_text(grid, facts, starts, branches, house, placed, removed)


def forcing_text(
    grid: Grid,
    facts: Implications,
    starts: list[int],
    branches: list[Branch],
    house: int | None,
    placed: list[int],
    removed: list[int],
) -> Step:
    """The step of a source whose branches reach ``placed`` and ``removed`` (or, with one
    branch alive, whose others reach a contradiction: ``placed`` is its start)."""
    cells = facts.cells
    if house is None:
        opening = (
            f"{grid.cell_name(starts[0] % cells).capitalize()} holds "
            f"{alternatives([str(node // cells + 1) for node in starts])}."
        )
    else:
        opening = (
            f"In {grid.house_names[house]}, {starts[0] // cells + 1} goes in "
            f"{alternatives([grid.cell_name(node % cells) for node in starts])}."
        )
    sentences = [opening]
    shown = [node % cells for node in starts]
    alive = sum(1 for branch in branches if not branch.clash)
    for start, branch in zip(starts, branches, strict=True):
        if house is None:
            assumption = f"If it is {start // cells + 1}"
        else:
            assumption = f"If {grid.cell_name(start % cells)} is {start // cells + 1}"
        if branch.clash:
            words, used = clash_words(grid, facts, branch)
            shown += used
            sentences.append(f"{assumption}: {words}: impossible.")
            continue
        if alive == 1:
            continue
        # Conclusions reached along the same chain share its words.
        endings: dict[tuple[int, ...], list[str]] = {}
        for node in placed:
            path = true_path(grid, facts, branch, node)
            shown += [spot % cells for spot in path]
            endings.setdefault(tuple(path[1:-1]), []).append(node_words(grid, cells, path[-1:]))
        for node in removed:
            path = false_path(grid, facts, branch, node)
            shown += [spot % cells for spot in path]
            ending = f"{grid.cell_name(node % cells)} is not {node // cells + 1}"
            endings.setdefault(tuple(path[1:]), []).append(ending)
        parts = [
            ", so ".join(
                part for part in (node_words(grid, cells, list(path)), listed(ends)) if part
            )
            for path, ends in endings.items()
        ]
        sentences.append(f"{assumption}: {'; '.join(parts)}.")
    outcome = [f"{grid.cell_name(node % cells)} is {node // cells + 1}" for node in placed]
    for index in sorted({node // cells for node in removed}):
        spots = [node % cells for node in removed if node // cells == index]
        outcome.append(f"{index + 1} comes out of {grid.cells_named(spots)}")
    sentences.append(f"{'So' if alive == 1 else 'Either way'}, {listed(outcome)}.")
    shown += [node % cells for node in placed + removed]
    return Step(
        "forcing chain",
        [(node % cells, node // cells + 1) for node in placed],
        [(node % cells, node // cells + 1) for node in removed],
        list(dict.fromkeys(shown)),
        " ".join(sentences),
    )


def clash_words(grid: Grid, facts: Implications, branch: Branch) -> tuple[str, list[int]]:
    """How a branch reaches its contradiction, and the cells on the way."""
    cells = facts.cells
    spot = lowest(branch.clash)
    to_true = true_path(grid, facts, branch, spot)
    to_false = false_path(grid, facts, branch, spot)
    index, cell = divmod(spot, cells)
    other_index, other_cell = divmod(to_false[-1], cells)
    if other_cell == cell:
        conflict = f"{grid.cell_name(cell)} would be both {index + 1} and {other_index + 1}"
    else:
        conflict = (
            f"{grid.cell_name(cell)} and {grid.cell_name(other_cell)} would both be "
            f"{index + 1} in {shared_house(grid, cell, other_cell)}"
        )
    parts = [
        node_words(grid, cells, to_true[1:-1]),
        node_words(grid, cells, to_false[1:-1]),
        conflict,
    ]
    used = [node % cells for node in to_true + to_false]
    return "; ".join(part for part in parts if part), used


def node_words(grid: Grid, cells: int, path: list[int]) -> str:
    """``row 2, column 8 is 7, row 5, column 8 is 2`` (nothing for an empty path)."""
    return ", ".join(f"{grid.cell_name(node % cells)} is {node // cells + 1}" for node in path)


def alternatives(items: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]
