"""Polyomino tiling as exact cover.

Puzzle::

    {"board": ["........", "...##...", ...], "pieces": ["pentominoes", "O4"], "reflections": true}

Board rows: ``.`` a cell to cover, ``#`` not part of the board; any shape, holes anywhere. Pieces:
a set name (``pentominoes``, ``tetrominoes``), a library name (see ``pysolver.pieces``), or
``{"name": "A", "cells": [[0, 0], [0, 1]], "count": 2}``. A name given twice adds up its counts.
The board's area must equal the total area of the pieces. A solution is a list of
``{"piece": "F", "cells": [[r, c], ...]}`` (cells sorted), pieces in the order they were given.

Encoding (``build_problem``): one primary item per board cell, one per piece copy, and one
option per placement of a piece in one of its distinct orientations. Identical copies would
otherwise give every tiling ``count!`` times, so the copies of a repeated piece are ordered:
copy ``j`` must sit at a smaller anchor cell (its first cell in row-major order) than copy
``j + 1``, enforced by secondary items (copy ``j`` at anchor ``a`` takes ``X[j, t]`` for every
``t < a``; copy ``j + 1`` at anchor ``b`` takes ``X[j, b]``). The repeated piece with the most
copies needs no items at all: once every other piece is placed exactly, the area left over can
only be filled by exactly its copies, and dropping its items drops the ordering problem too.

Symmetry (request field ``"symmetry"``): ``"all"`` (default) counts every tiling; ``"distinct"``
counts tilings up to the symmetries of the problem. That group is every rotation or reflection
of the plane that maps the board's cell set onto itself *and* maps every piece's allowed
orientations onto themselves. With reflections on that is the board's whole symmetry group;
with ``"reflections": false`` it is the board's rotations, plus its reflections only when every
piece is mirror-symmetric (a mirrored tiling of one-sided chiral pieces is not a tiling of the
same piece set, so it is not "the same tiling seen in a mirror").

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

``"distinct"`` also works in ``solve`` and ``random`` modes: the tilings returned are pairwise
non-equivalent (one representative per class; random mode samples over the one-level
restricted matrix and maps each tiling to its class representative before de-duplicating).

Random mode: restarts. Each restart runs a fresh search whose option order is shuffled by a
sub-seed drawn from the request's seed and keeps its first tiling; repeats are dropped. Compared
with taking ``limit`` neighbouring tilings of one shuffled search (which share most pieces), this
spreads the sample over the whole space. A restart that runs past a node budget is abandoned and
the budget doubled (heavy-tailed first-solution times). When repeats pile up (fewer tilings
exist than were asked for), one shuffled search enumerates the rest and the answer is complete.

Caps (``too_large`` errors): at most ``MAX_BOARD_CELLS`` cells to cover, a board grid of at most
``MAX_BOARD_SIDE`` rows and columns, ``MAX_COPIES`` copies of a piece, and at most
``exact_cover.MAX_ENTRIES`` (option, item) entries in the matrix. Counting ``distinct`` keeps
the tilings of branches fixed by symmetry for de-duplication: more than ``MAX_KEPT_TILINGS`` of
them is refused (only likely when no piece is used exactly once, e.g. dominoes alone).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from pysolver.boards import read_board_rows
from pysolver.engines import bitset, dlx
from pysolver.engines.exact_cover import ENGINES as EXACT_COVER_ENGINES
from pysolver.engines.exact_cover import MAX_ENTRIES, ExactCoverProblem, search
from pysolver.engines.monitor import Monitor, StageMonitor
from pysolver.facts import engine_facts
from pysolver.pieces import (
    LIBRARY,
    MAX_PIECE_CELLS,
    SETS,
    TRANSFORMS,
    Shape,
    known_names,
    normalise,
    orientations,
    parse_cells,
)
from pysolver.protocol import (
    TOO_LARGE,
    Query,
    SolveError,
    engine_for,
    puzzle_error,
    require_bool,
    require_dict,
    require_int,
    require_list,
    require_str,
)

# Default first: bitset is the faster engine on bench/bench_polyomino.py.
ENGINES: tuple[str, ...] = ("bitset", *(e for e in EXACT_COVER_ENGINES if e != "bitset"))

MAX_BOARD_CELLS = 400
MAX_BOARD_SIDE = 200
MAX_COPIES = 400
# Tilings kept in memory to de-duplicate a branch fixed by symmetry (about 200 bytes each).
MAX_KEPT_TILINGS = 200_000
SYMMETRIES = ("all", "distinct")


def facts() -> dict[str, Any]:
    """What the page needs to know about this kind (see ``pysolver.facts``)."""
    return {
        "title": "Polyomino tiling",
        **engine_facts({"bitset": bitset, "dlx": dlx}),
        "limits": {
            "max_rows": MAX_BOARD_SIDE,
            "max_cols": MAX_BOARD_SIDE,
            "max_cells": MAX_BOARD_CELLS,
            "max_copies": MAX_COPIES,
            "max_piece_cells": MAX_PIECE_CELLS,
        },
        "symmetries": list(SYMMETRIES),
        "pieces": {
            name: {"cells": [list(cell) for cell in shape], "area": len(shape)}
            for name, shape in LIBRARY.items()
        },
        "sets": {name: list(members) for name, members in SETS.items()},
    }


Cell = tuple[int, int]
Placement = tuple[int, ...]  # sorted board cell indices
Permutation = tuple[int, ...]  # board cell index -> board cell index


@dataclass
class Piece:
    name: str
    shape: Shape
    count: int
    orientations: list[Shape]


@dataclass
class Tiling:
    """A validated puzzle: the board's cells (row-major) and the pieces."""

    cells: list[Cell]
    pieces: list[Piece]
    reflections: bool
    index: dict[Cell, int] = field(init=False)

    def __post_init__(self) -> None:
        self.index = {cell: i for i, cell in enumerate(self.cells)}


@dataclass
class Encoding:
    """An exact cover matrix and what each option means on the board."""

    problem: ExactCoverProblem
    option_piece: list[str]
    option_cells: list[Placement]


# ---------------------------------------------------------------- parsing


def parse_board(value: Any, path: str = "puzzle.board") -> list[Cell]:
    """The cells to cover, row-major, from rows of '.' and '#'."""
    rows = read_board_rows(value, path, MAX_BOARD_SIDE)
    cells: list[Cell] = [
        (r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "."
    ]
    if not cells:
        raise puzzle_error(f"{path} has no cell to cover ('.')", path)
    if len(cells) > MAX_BOARD_CELLS:
        raise SolveError(
            TOO_LARGE,
            f"{path} has {len(cells)} cells to cover; the limit is {MAX_BOARD_CELLS}",
            path,
        )
    return cells


def parse_pieces(value: Any, reflections: bool, path: str = "puzzle.pieces") -> list[Piece]:
    """The pieces in the order given; a name given twice adds up its counts."""
    entries = require_list(value, path)
    if not entries:
        raise puzzle_error(f"{path} is empty; name at least one piece", path)
    pieces: dict[str, Piece] = {}
    first_path: dict[str, str] = {}

    def add(name: str, shape: Shape, count: int, entry_path: str) -> None:
        piece = pieces.get(name)
        if piece is None:
            pieces[name] = Piece(name, shape, count, orientations(shape, reflections))
            first_path[name] = entry_path
        elif piece.shape not in orientations(shape, True):
            raise puzzle_error(
                f"{entry_path} names piece {name!r} with a different shape than "
                f"{first_path[name]}; give different pieces different names",
                entry_path,
            )
        else:
            piece.count += count
        if pieces[name].count > MAX_COPIES:
            raise SolveError(
                TOO_LARGE,
                f"{entry_path}: piece {name!r} is used {pieces[name].count} times; "
                f"the limit is {MAX_COPIES}",
                entry_path,
            )

    for i, entry in enumerate(entries):
        entry_path = f"{path}[{i}]"
        if isinstance(entry, str):
            if entry in SETS:
                for name in SETS[entry]:
                    add(name, LIBRARY[name], 1, entry_path)
            elif entry in LIBRARY:
                add(entry, LIBRARY[entry], 1, entry_path)
            else:
                raise puzzle_error(
                    f"{entry_path}: unknown piece {entry!r}; known names: {known_names()} "
                    '(or give {"name": ..., "cells": [[r, c], ...]})',
                    entry_path,
                )
            continue
        entry = require_dict(entry, entry_path)
        unknown = sorted(set(entry) - {"name", "cells", "count"})
        if unknown:
            raise puzzle_error(
                f"{entry_path} has unknown field {unknown[0]!r}; a piece has name, cells, count",
                entry_path,
            )
        if "name" not in entry:
            raise puzzle_error(f"{entry_path} needs a name", entry_path)
        name = require_str(entry["name"], f"{entry_path}.name")
        if not name:
            raise puzzle_error(f"{entry_path}.name is empty", f"{entry_path}.name")
        count = require_int(entry.get("count", 1), f"{entry_path}.count", 1, MAX_COPIES)
        if "cells" in entry:
            shape = parse_cells(entry["cells"], f"{entry_path}.cells")
        elif name in LIBRARY:
            shape = LIBRARY[name]
        else:
            raise puzzle_error(
                f"{entry_path}: piece {name!r} is not in the library, so it needs cells; "
                f"library names: {', '.join(LIBRARY)}",
                entry_path,
            )
        add(name, shape, count, entry_path)
    return list(pieces.values())


def parse_puzzle(puzzle: Any) -> Tiling:
    """Validate a polyomino puzzle dict (raising ``SolveError`` with paths)."""
    puzzle = require_dict(puzzle, "puzzle")
    unknown = sorted(set(puzzle) - {"board", "pieces", "reflections"})
    if unknown:
        raise puzzle_error(
            f"puzzle has unknown field {unknown[0]!r}; a polyomino puzzle has board, pieces, "
            "reflections",
            f"puzzle.{unknown[0]}",
        )
    for key in ("board", "pieces"):
        if key not in puzzle:
            raise puzzle_error(f"puzzle needs {key!r}", f"puzzle.{key}")
    reflections = require_bool(puzzle.get("reflections", True), "puzzle.reflections")
    cells = parse_board(puzzle["board"])
    pieces = parse_pieces(puzzle["pieces"], reflections)
    piece_area = sum(len(p.shape) * p.count for p in pieces)
    if piece_area != len(cells):
        raise puzzle_error(
            f"the board has {len(cells)} cells to cover but the pieces cover {piece_area}; "
            "they must be equal",
            "puzzle.pieces",
        )
    return Tiling(cells, pieces, reflections)


def parse_symmetry(value: Any) -> str:
    symmetry = require_str(value, "symmetry")
    if symmetry not in SYMMETRIES:
        raise puzzle_error(
            f"unknown symmetry {symmetry!r}; choose one of {', '.join(SYMMETRIES)}", "symmetry"
        )
    return symmetry


# ---------------------------------------------------------------- encoding


def placements(tiling: Tiling, piece: Piece) -> list[Placement]:
    """Every placement of ``piece`` on the board, as sorted cell indices."""
    index = tiling.index
    found: list[Placement] = []
    for shape in piece.orientations:
        first_r, first_c = shape[0]
        for top, left in tiling.cells:
            # Anchor the orientation's first cell on each board cell in turn.
            dr, dc = top - first_r, left - first_c
            cells = []
            for r, c in shape:
                i = index.get((r + dr, c + dc))
                if i is None:
                    break
                cells.append(i)
            else:
                found.append(tuple(sorted(cells)))
    return found


def itemless_piece(tiling: Tiling) -> str | None:
    """The repeated piece whose copies the leftover area determines (the one with most copies)."""
    repeated = [p for p in tiling.pieces if p.count > 1]
    if not repeated:
        return None
    return max(repeated, key=lambda p: p.count).name


def encode(tiling: Tiling, allowed: dict[str, set[Placement]] | None = None) -> Encoding:
    """The exact cover matrix; ``allowed`` restricts some pieces to some placements."""
    cell_count = len(tiling.cells)
    free_name = itemless_piece(tiling)
    item = cell_count
    options: list[list[int]] = []
    option_piece: list[str] = []
    option_cells: list[Placement] = []
    entries = 0
    # Secondary items come after all primaries, so they are numbered in a second pass.
    ordered: list[tuple[Piece, list[Placement], int]] = []
    for piece in tiling.pieces:
        spots = placements(tiling, piece)
        if allowed is not None and piece.name in allowed:
            spots = [p for p in spots if p in allowed[piece.name]]
        if piece.name == free_name:
            ordered.append((piece, spots, -1))
        else:
            ordered.append((piece, spots, item))
            item += piece.count
    primary = item
    secondary = primary
    for piece, spots, first_item in ordered:
        if first_item < 0:
            for spot in spots:
                options.append(list(spot))
                option_piece.append(piece.name)
                option_cells.append(spot)
            entries += len(spots) * len(piece.shape)
        elif piece.count == 1:
            for spot in spots:
                options.append([*spot, first_item])
                option_piece.append(piece.name)
                option_cells.append(spot)
            entries += len(spots) * (len(piece.shape) + 1)
        else:
            # Copy j's ordering items X[j, t] are secondary + j * cell_count + t.
            base = secondary
            secondary += (piece.count - 1) * cell_count
            for copy in range(piece.count):
                for spot in spots:
                    anchor = spot[0]
                    option = [*spot, first_item + copy]
                    if copy + 1 < piece.count:
                        start = base + copy * cell_count
                        option.extend(range(start, start + anchor))
                    if copy > 0:
                        option.append(base + (copy - 1) * cell_count + anchor)
                    options.append(option)
                    option_piece.append(piece.name)
                    option_cells.append(spot)
                    entries += len(option)
                if entries > MAX_ENTRIES:
                    break
        if entries > MAX_ENTRIES:
            raise SolveError(
                TOO_LARGE,
                f"the exact cover matrix would have more than {MAX_ENTRIES:,} entries; "
                "use a smaller board or fewer copies of repeated pieces",
                "puzzle",
            )
    problem = ExactCoverProblem(primary, secondary - primary, options)
    return Encoding(problem, option_piece, option_cells)


# ---------------------------------------------------------------- symmetry


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


Solution = list[tuple[str, Placement]]  # (piece name, cells) in option order


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
    fixed: dict[Placement, list[Permutation]]  # representatives -> non-trivial stabiliser


def split_orbits(
    spots: list[Placement], group: list[Permutation]
) -> tuple[set[Placement], dict[Placement, list[Permutation]]]:
    """One representative per orbit: those with trivial stabiliser, and the others with theirs."""
    free: set[Placement] = set()
    fixed: dict[Placement, list[Permutation]] = {}
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
    best: tuple[tuple[int, int], str, set[Placement], dict] | None = None
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


def build_problem(puzzle: dict[str, Any], symmetry: str = "all") -> ExactCoverProblem:
    """The exact cover matrix of a polyomino puzzle (validated here; errors are SolveError).

    With ``symmetry="distinct"`` the restricted piece keeps one placement per orbit. Its count
    is the number of distinct tilings whenever no kept placement has a non-trivial stabiliser
    (6x10, 8x8 with the 2x2 square...); ``solve`` de-duplicates the other branches.
    """
    tiling = parse_puzzle(puzzle)
    symmetry = parse_symmetry(symmetry)
    if symmetry == "all":
        return encode(tiling).problem
    plan = symmetry_plan(tiling)
    if plan.piece is None:
        return encode(tiling).problem
    return encode(tiling, {plan.piece: plan.free | set(plan.fixed)}).problem


# ---------------------------------------------------------------- solving

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


def _stabiliser_reducer(piece: str, fixed: dict[Placement, list[Permutation]]) -> Reducer:
    def reduce(solution: Solution) -> Solution:
        for name, spot in solution:
            if name == piece:
                stabiliser = fixed.get(spot)
                return canonical(solution, stabiliser) if stabiliser else sorted(solution)
        raise AssertionError("restricted piece missing from a tiling")

    return reduce


def _group_reducer(group: list[Permutation]) -> Reducer:
    return lambda solution: canonical(solution, group)


def count_branches(tiling: Tiling, symmetry: str) -> list[Branch]:
    """Disjoint searches whose class representatives together are the answer."""
    if symmetry == "all":
        return [Branch(encode(tiling))]
    plan = symmetry_plan(tiling)
    if len(plan.group) == 1:
        return [Branch(encode(tiling))]
    if plan.piece is None:
        return [Branch(encode(tiling), _group_reducer(plan.group), len(plan.group))]
    branches = []
    if plan.free:
        branches.append(Branch(encode(tiling, {plan.piece: plan.free})))
    for spot, stabiliser in plan.fixed.items():
        # The classes with the piece at ``spot`` are the orbits of ``stabiliser``: restrict a
        # second piece the same way under that subgroup (Knuth's further restriction), so only
        # its fixed representatives are left to de-duplicate.
        second = choose_restricted(tiling, stabiliser, {plan.piece: spot})
        if second.piece is None:
            reduce = _group_reducer(stabiliser)
            branches.append(Branch(encode(tiling, {plan.piece: {spot}}), reduce, len(stabiliser)))
            continue
        if second.free:
            allowed = {plan.piece: {spot}, second.piece: second.free}
            branches.append(Branch(encode(tiling, allowed)))
        if second.fixed:
            allowed = {plan.piece: {spot}, second.piece: set(second.fixed)}
            fold = max(len(k) for k in second.fixed.values())
            reduce = _stabiliser_reducer(second.piece, second.fixed)
            branches.append(Branch(encode(tiling, allowed), reduce, fold))
    return branches


def random_branch(tiling: Tiling, symmetry: str) -> Branch:
    """One search covering every class (restarts need a single matrix to sample from)."""
    if symmetry == "all":
        return Branch(encode(tiling))
    plan = symmetry_plan(tiling)
    if len(plan.group) == 1:
        return Branch(encode(tiling))
    if plan.piece is None:
        return Branch(encode(tiling), _group_reducer(plan.group), len(plan.group))
    fold = max((len(h) for h in plan.fixed.values()), default=1)
    allowed = {plan.piece: plan.free | set(plan.fixed)}
    return Branch(encode(tiling, allowed), _stabiliser_reducer(plan.piece, plan.fixed), fold)


def decode(encoding: Encoding, options: list[int]) -> Solution:
    return [(encoding.option_piece[o], encoding.option_cells[o]) for o in options]


@dataclass
class Outcome:
    solutions: list[Solution] = field(default_factory=list)
    count: int = 0
    complete: bool = True
    cancelled: bool = False
    nodes: int = 0


def run_branches(
    branches: list[Branch],
    engine: str,
    limit: int | None,
    keep: bool,
    monitor: Monitor,
) -> Outcome:
    """Solve or count over disjoint branches: the first ``limit`` classes in search order."""
    outcome = Outcome()
    for number, branch in enumerate(branches):
        remaining = None if limit is None else limit - outcome.count
        if remaining == 0:
            outcome.complete = False
            break
        share = (number / len(branches), (number + 1) / len(branches))
        stage = StageMonitor(
            monitor, outcome.nodes, outcome.count, share, recent=partial(decode, branch.encoding)
        )
        problem = branch.encoding.problem
        if branch.reduce is None:
            result = search(problem, engine, limit=remaining, keep_solutions=keep, monitor=stage)
            found = [decode(branch.encoding, s) for s in result.solutions]
            taken = result.count
        else:
            # A class has at most ``fold`` members here, so this many tilings hold at least
            # ``remaining`` classes.
            wanted = None if remaining is None else remaining * branch.fold
            cap = MAX_KEPT_TILINGS if wanted is None else min(wanted, MAX_KEPT_TILINGS)
            result = search(problem, engine, limit=cap, keep_solutions=True, monitor=stage)
            classes: dict[tuple, Solution] = {}
            for options in result.solutions:
                representative = branch.reduce(decode(branch.encoding, options))
                classes.setdefault(tuple(representative), representative)
            hit_memory_cap = result.count >= cap and (wanted is None or wanted > cap)
            if hit_memory_cap and (remaining is None or len(classes) < remaining):
                raise SolveError(
                    TOO_LARGE,
                    f"more than {MAX_KEPT_TILINGS:,} tilings would have to be kept to count "
                    "them up to symmetry; count with symmetry 'all' instead, or use some "
                    "piece exactly once so that its placements can be restricted",
                    "symmetry",
                )
            found = list(classes.values())
            taken = len(found)
            if remaining is not None and taken > remaining:
                found = found[:remaining]
                taken = remaining
                outcome.complete = False
        outcome.nodes += result.stats.get("nodes", 0)
        outcome.count += taken
        if keep:
            outcome.solutions.extend(found)
        if result.cancelled or stage.cancelled:
            outcome.cancelled = True
        if not result.complete:
            outcome.complete = False
            break
    return outcome


def run_random(
    branch: Branch, engine: str, limit: int | None, rng: random.Random, monitor: Monitor
) -> Outcome:
    """Up to ``limit`` distinct classes by restarted shuffled searches (see module docstring)."""
    outcome = Outcome(complete=False)
    found: dict[tuple, Solution] = {}
    budget = 4096
    repeats = 0
    # Repeats among L restarts from N tilings run near L * L / 2N, so more than L / 10 of them
    # says N is under about 5 L: then one enumeration is cheaper than more restarts.
    repeat_cap = 3 + (limit or 0) // 10
    problem = branch.encoding.problem
    reduce = branch.reduce or sorted

    def enumerate_rest() -> None:
        # Few classes left to find: one shuffled search lists them all (or enough of them).
        cap = None if limit is None else limit * branch.fold
        stage = StageMonitor(monitor, outcome.nodes, len(found))
        result = search(
            problem, engine, limit=cap, rng=random.Random(rng.getrandbits(64)), monitor=stage
        )
        outcome.nodes += result.stats.get("nodes", 0)
        outcome.cancelled = result.cancelled or stage.cancelled
        every: dict[tuple, Solution] = {}
        for options in result.solutions:
            representative = reduce(decode(branch.encoding, options))
            every.setdefault(tuple(representative), representative)
        for key, representative in every.items():
            if limit is not None and len(found) >= limit:
                break
            found.setdefault(key, representative)
        outcome.complete = result.complete and len(every) == len(found)

    if limit is None:
        enumerate_rest()
    while limit is not None and len(found) < limit:
        share = (len(found) / limit, (len(found) + 1) / limit)
        stage = StageMonitor(monitor, outcome.nodes, len(found), share, budget)
        sub_rng = random.Random(rng.getrandbits(64))
        result = search(problem, engine, limit=1, rng=sub_rng, monitor=stage)
        outcome.nodes += result.stats.get("nodes", 0)
        if stage.cancelled:
            outcome.cancelled = True
            break
        if stage.over_budget:
            budget *= 2
            continue
        if not result.solutions:
            outcome.complete = True  # the whole space was searched: no tiling exists
            break
        representative = reduce(decode(branch.encoding, result.solutions[0]))
        key = tuple(representative)
        if key in found:
            repeats += 1
            if repeats > repeat_cap:
                enumerate_rest()
                break
        else:
            found[key] = representative
    outcome.solutions = list(found.values())
    outcome.count = len(outcome.solutions)
    return outcome


def solution_json(tiling: Tiling, solution: Solution) -> list[dict[str, Any]]:
    """Pieces in the order given (copies by position), cells sorted as [row, col]."""
    order = {piece.name: i for i, piece in enumerate(tiling.pieces)}
    placed = sorted(solution, key=lambda item: (order[item[0]], item[1]))
    return [
        {"piece": name, "cells": [list(tiling.cells[i]) for i in spot]} for name, spot in placed
    ]


def solve(puzzle: Any, query: Query) -> dict[str, Any]:
    """Tile the board; see the module docstring for the puzzle, symmetry and random modes."""
    symmetry = parse_symmetry(query.extra.get("symmetry", "all"))
    engine = engine_for(query, ENGINES)
    tiling = parse_puzzle(puzzle)
    recent = partial(solution_json, tiling) if query.wants_recent else None
    monitor = Monitor(query.progress, query.cancel, recent)
    if query.mode == "random":
        outcome = run_random(
            random_branch(tiling, symmetry), engine, query.limit, query.rng(), monitor
        )
    else:
        branches = count_branches(tiling, symmetry)
        outcome = run_branches(branches, engine, query.limit, query.wants_solutions, monitor)
    monitor.finish(outcome.nodes, outcome.count, outcome.complete)
    response: dict[str, Any] = {
        "count": outcome.count,
        "complete": outcome.complete,
        "solutions": [solution_json(tiling, s) for s in outcome.solutions],
        "stats": {"nodes": outcome.nodes},
        "engine": engine,
        "symmetry": symmetry,
    }
    if outcome.cancelled:
        response["cancelled"] = True
    return response
