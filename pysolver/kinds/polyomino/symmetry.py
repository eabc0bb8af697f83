"""Tilings up to symmetry: the problem's symmetry group and the searches that count classes.

The group is every rotation or reflection of the plane that maps the board's cell set onto
itself *and* maps every piece's allowed orientations onto themselves. With reflections on that
is the board's whole symmetry group; with ``"reflections": false`` it is the board's rotations,
plus its reflections only when every piece is mirror-symmetric (a mirrored tiling of one-sided
chiral pieces is not a tiling of the same piece set, so it is not "the same tiling seen in a
mirror").

Counting up to symmetry follows Knuth: one piece ``R`` used exactly once is restricted to one
representative placement per orbit of the group. A tiling whose ``R`` sits at a representative
with trivial stabiliser is the only member of its class with ``R`` there, so those branches are
counted as they are. When the representative is fixed by a non-trivial subgroup ``H`` (X on a
diagonal of the 8x8 board), the tilings with ``R`` there are equivalent exactly under ``H``, so
a second piece used once is restricted the same way under ``H`` (Knuth's further restriction);
where that piece too sits at a placement fixed by some ``K <= H``, each tiling found is mapped
to its least image under ``K`` and counted once (canonical-form de-duplication). ``R`` is the
piece with the fewest representatives (fewest fixed ones on ties): X on 6x10, 5x12, 4x15 and on
8x8 with the 2x2 square; it is branched on first, so the restriction cuts the whole tree. If no
piece is used exactly once, every tiling is reduced to its least image under the whole group.

The result is a list of ``Branch``es: disjoint searches, each with how to map its tilings to
class representatives.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pysolver.engines.monitor import Monitor
from pysolver.kinds.polyomino.encoding import Encoding, Placement, Solution, encode, placements
from pysolver.kinds.polyomino.parsing import Piece, Tiling
from pysolver.kinds.polyomino.pieces import TRANSFORMS, normalise

Permutation = tuple[int, ...]  # board cell index -> board cell index
# Representative placements fixed by symmetries -> their (non-trivial) stabilisers.
Stabilisers = dict[Placement, list[Permutation]]


def board_symmetries(tiling: Tiling) -> list[Permutation]:
    """The symmetries of the problem as permutations of board cells; the identity first.

    A symmetry maps the board's cell set onto itself and each piece's orientations onto
    themselves (see the module docstring for why the second condition matters).
    """
    cells = tiling.cells
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    group: list[Permutation] = []
    for number, move in enumerate(TRANSFORMS):
        image = [move(r, c) for r, c in cells]
        shift_r = top - min(r for r, _ in image)
        shift_c = left - min(c for _, c in image)
        permutation = []
        for r, c in image:
            target = tiling.index.get((r + shift_r, c + shift_c))
            if target is None:
                break
            permutation.append(target)
        else:
            if all(_keeps_orientations(piece, number) for piece in tiling.pieces):
                group.append(tuple(permutation))
    return group


def _keeps_orientations(piece: Piece, transform_number: int) -> bool:
    move = TRANSFORMS[transform_number]
    allowed = set(piece.orientations)
    return all(normalise(move(r, c) for r, c in shape) in allowed for shape in piece.orientations)


def _image(permutation: Permutation, spot: Placement) -> Placement:
    return tuple(sorted(permutation[i] for i in spot))


def canonical(solution: Solution, group: list[Permutation]) -> Solution:
    """The least image of a tiling under ``group`` (a list of cell permutations)."""
    best = None
    for permutation in group:
        image = sorted((name, _image(permutation, spot)) for name, spot in solution)
        if best is None or image < best:
            best = image
    assert best is not None
    return best


@dataclass
class SymmetryPlan:
    """How ``distinct`` is computed: restricted piece, its representatives, their stabilisers."""

    group: list[Permutation]
    piece: str | None  # the restricted piece, None when no piece is used exactly once
    free: set[Placement]  # representatives with trivial stabiliser
    fixed: Stabilisers  # representatives -> non-trivial stabiliser


def split_orbits(
    spots: list[Placement], group: list[Permutation]
) -> tuple[set[Placement], Stabilisers]:
    """One representative per orbit: those with trivial stabiliser, and the others with theirs."""
    free: set[Placement] = set()
    fixed: Stabilisers = {}
    seen: set[Placement] = set()
    for spot in spots:
        if spot in seen:
            continue
        orbit = {_image(g, spot) for g in group}
        seen |= orbit
        representative = min(orbit)
        stabiliser = [g for g in group if _image(g, representative) == representative]
        if len(stabiliser) == 1:
            free.add(representative)
        else:
            fixed[representative] = stabiliser
    return free, fixed


def choose_restricted(
    tiling: Tiling, group: list[Permutation], taken: dict[str, Placement] | None = None
) -> SymmetryPlan:
    """The piece to restrict under ``group``, given pieces already fixed at ``taken``."""
    taken = taken or {}
    occupied = {i for spot in taken.values() for i in spot}
    best: tuple[tuple[int, int], str, set[Placement], Stabilisers] | None = None
    for piece in tiling.pieces:
        if piece.count != 1 or piece.name in taken or len(group) == 1:
            continue
        spots = [p for p in placements(tiling, piece) if occupied.isdisjoint(p)]
        free, fixed = split_orbits(spots, group)
        # Fewest representatives first: such a piece has few placements, so the search branches
        # on it at once and the restriction cuts the whole tree (X on 6x10, 5x12, 8x8 + square;
        # measured in bench/bench_polyomino.py). Fixed representatives only cost a dedup.
        score = (len(free) + len(fixed), len(fixed))
        if best is None or score < best[0]:
            best = (score, piece.name, free, fixed)
    if best is None:
        return SymmetryPlan(group, None, set(), {})
    return SymmetryPlan(group, best[1], best[2], best[3])


def symmetry_plan(tiling: Tiling) -> SymmetryPlan:
    return choose_restricted(tiling, board_symmetries(tiling))


Reducer = Callable[[Solution], Solution]


@dataclass
class Branch:
    """One search: a matrix, and how to map its tilings to class representatives.

    ``reduce`` is None when every tiling the search finds already stands for its own class.
    ``fold`` bounds how many found tilings may reduce to the same representative.
    """

    encoding: Encoding
    reduce: Reducer | None = None
    fold: int = 1


def _stabiliser_reducer(piece: str, fixed: Stabilisers) -> Reducer:
    def reduce(solution: Solution) -> Solution:
        for name, spot in solution:
            if name == piece:
                stabiliser = fixed.get(spot)
                return canonical(solution, stabiliser) if stabiliser else sorted(solution)
        raise AssertionError("restricted piece missing from a tiling")

    return reduce


def _group_reducer(group: list[Permutation]) -> Reducer:
    return lambda solution: canonical(solution, group)


def count_branches(tiling: Tiling, symmetry: str, monitor: Monitor | None = None) -> list[Branch]:
    """Disjoint searches whose class representatives together are the answer (``monitor``
    cancels building their matrices)."""
    if symmetry == "all":
        return [Branch(encode(tiling, monitor=monitor))]
    plan = symmetry_plan(tiling)
    if len(plan.group) == 1:
        return [Branch(encode(tiling, monitor=monitor))]
    if plan.piece is None:
        return [
            Branch(encode(tiling, monitor=monitor), _group_reducer(plan.group), len(plan.group))
        ]
    branches = []
    if plan.free:
        branches.append(Branch(encode(tiling, {plan.piece: plan.free}, monitor)))
    for spot, stabiliser in plan.fixed.items():
        # The classes with the piece at ``spot`` are the orbits of ``stabiliser``: restrict a
        # second piece the same way under that subgroup (Knuth's further restriction), so only
        # its fixed representatives are left to de-duplicate.
        second = choose_restricted(tiling, stabiliser, {plan.piece: spot})
        if second.piece is None:
            reduce = _group_reducer(stabiliser)
            branches.append(
                Branch(encode(tiling, {plan.piece: {spot}}, monitor), reduce, len(stabiliser))
            )
            continue
        if second.free:
            allowed = {plan.piece: {spot}, second.piece: second.free}
            branches.append(Branch(encode(tiling, allowed, monitor)))
        if second.fixed:
            allowed = {plan.piece: {spot}, second.piece: set(second.fixed)}
            fold = max(len(k) for k in second.fixed.values())
            reduce = _stabiliser_reducer(second.piece, second.fixed)
            branches.append(Branch(encode(tiling, allowed, monitor), reduce, fold))
    return branches


def random_branch(tiling: Tiling, symmetry: str, monitor: Monitor | None = None) -> Branch:
    """One search covering every class (restarts need a single matrix to sample from)."""
    if symmetry == "all":
        return Branch(encode(tiling, monitor=monitor))
    plan = symmetry_plan(tiling)
    if len(plan.group) == 1:
        return Branch(encode(tiling, monitor=monitor))
    if plan.piece is None:
        return Branch(encode(tiling, monitor=monitor), _group_reducer(plan.group), len(plan.group))
    fold = max((len(h) for h in plan.fixed.values()), default=1)
    allowed = {plan.piece: plan.free | set(plan.fixed)}
    return Branch(
        encode(tiling, allowed, monitor), _stabiliser_reducer(plan.piece, plan.fixed), fold
    )
