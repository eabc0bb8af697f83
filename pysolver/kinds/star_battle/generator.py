"""Generating Star Battle puzzles with one solution (``"mode": "generate"``).

Request: ``{"kind": "star_battle", "mode": "generate", "seed": 3, "difficulty": "medium",
"puzzle": {"size": 8, "stars": 1}}``: 1 or 2 stars, sides ``MIN_GENERATE_SIDE`` (4) up to
``MAX_GENERATE_SIDE[stars]`` (12 with one star, 10 with two) that hold them (4 for one star,
8 for two; smaller ones are ``invalid_puzzle``).

The generator translates; the exact cover engine (``bitset``, Algorithm M) does every search:

1. **Stars**: a random placement of ``stars`` stars in every row and column, none touching:
   the engine's random search on the board without regions (rows and columns covered
   ``stars`` times, the 2 x 2 blocks at most once).
2. **Regions**: every star grows a patch (a random flood fill from all stars at once: each
   step gives a random free cell next to a patch to one of the patches it touches), then the
   patches are joined ``stars`` at a time into connected regions (a random greedy grouping,
   patches with the fewest free neighbours first; retried when it strands one). Every region
   then holds ``stars`` stars: the placement solves the board.
3. **Make it unique**: the engine's search with limit 2. While it finds a second solution,
   a cell that holds a star there but not in the placement moves to a neighbouring region;
   when its own region would fall apart without it, the parts without a placed star move
   with it (one cell moving alone is preferred). The placement still solves the board (the
   moved cells hold none of its stars), the second solution no longer does (two regions'
   counts changed). Past ``FIXES_PER_CELL`` moves per cell the attempt is given up.
4. **Grade** (``grade``): ``nodes``, the engine's search tree proving the solution unique (the
   last search of step 3, which explores the whole tree), per star of the solution:
   ``effort = nodes / (n * stars)``. A board the search solves without a wrong guess has
   effort about 1 (one node per star placed, plus the null branches of Algorithm M); every
   wrong guess adds its subtree. ``easy``: effort below ``LEVELS[stars]["easy"]`` (1.75 with
   one star, 15 with two); ``medium``: below ``LEVELS[stars]["medium"]`` (3 and 45); ``hard``:
   the rest. The thresholds split the efforts of random attempts into rough thirds (see
   ``LEVELS``); on the largest sides ``easy`` is rarer, and 8 x 8 boards with two stars (few
   placements fit) are all ``easy`` (a ``note`` says when the level was missed).
5. **Retry**: an attempt of another level starts a new one, up to ``MAX_ATTEMPTS``; past them
   the answer is the nearest found, with a ``note``.

Determinism: ``GenerateArgs.rng`` is the only source of chance (the engine's random search
draws from it too); choices are drawn from lists in a fixed order; the grade is a node count.
"""

from __future__ import annotations

from typing import Any

from pysolver.engines import cover
from pysolver.kinds.star_battle.board import Board, Cell, components, neighbours
from pysolver.kinds.star_battle.encoding import decode, encode, star_matrix
from pysolver.midend.plan import GenerateArgs, Generated
from pysolver.protocol import TOO_LARGE, SolveError, puzzle_error, require_dict, require_int

DIFFICULTIES = ("easy", "medium", "hard")
MIN_GENERATE_SIDE = 4
# The smallest side that holds the stars at all, by stars (smaller sides are refused with a
# reason; the page offers only these; tests/test_star_battle.py checks the bound is tight).
FIRST_SIDE_HOLDING = {1: 4, 2: 8}
# The largest side generated, by stars: an attempt takes about 0.1 s at 10 x 10 with one star
# and 0.4 s with two; 11 x 11 with two took 4 s an attempt, most of them given up.
MAX_GENERATE_SIDE = {1: 12, 2: 10}
MAX_GENERATE_STARS = max(MAX_GENERATE_SIDE)
# The boards that cannot make every level, named "<side>/<stars>", and the levels they make.
# Measured, seeds 0 and 1 at each level: 4 x 4 with one star easy and medium (hard answered
# medium); 8 x 8 with two stars easy (medium and hard answered easy); every other side made
# every level for one seed at least (9 x 9 with two stars: hard for seed 1 only).
LEVELS_BY_BOARD = {"4/1": ("easy", "medium"), "8/2": ("easy",)}
# The engine the generator searches with (the kind's default).
ENGINE = "bitset"
# By stars, the largest effort (search nodes per star) of each level but the last. Measured
# on 40 attempts per size (seeds 0-39), the efforts' 33rd and 66th percentiles: one star,
# sides 5-10: 1.4-2.1 and 2.0-4.6; two stars, sides 8, 9, 10: 3.3 / 12.6 / 15 and 4.9 / 20 /
# 65 (Algorithm M's tree grows fast with the side).
LEVELS = {1: {"easy": 1.75, "medium": 3.0}, 2: {"easy": 15.0, "medium": 45.0}}
MAX_ATTEMPTS = 30
# Region moves one attempt may make per cell before it is given up.
FIXES_PER_CELL = 1
# Times the patches are grouped into regions before new patches are grown, and times new
# patches are grown before the attempt is given up. Grouping by twos, 40 placements each
# (seeds 0-39): 8 x 8 failed 46 of 84 groupings and 2 growths had none succeed in 20; 9 x 9
# 31 of 70 and 1 growth; 10 x 10 12 of 52 and none (at most 4 failures in a row).
GROUPINGS = 20
GROWTHS = 20

Regions = list[list[int]]  # per cell, its region's number


def read_size(puzzle: Any) -> tuple[int, int]:
    """The ``size`` and ``stars`` of a generate request's puzzle."""
    puzzle = require_dict(puzzle, "puzzle")
    for name in ("size", "stars"):
        if name not in puzzle:
            raise puzzle_error(
                'generate mode needs the puzzle\'s "size" (its side) and "stars" (per row, '
                "column and region)",
                "puzzle",
            )
    stars = require_int(puzzle["stars"], "puzzle.stars", 1, MAX_GENERATE_STARS)
    n = require_int(puzzle["size"], "puzzle.size", minimum=MIN_GENERATE_SIDE)
    most = MAX_GENERATE_SIDE[stars]
    if n > most:
        raise SolveError(
            TOO_LARGE,
            f"puzzle.size is {n}; generate mode makes boards of up to {most} x {most} with "
            f"{stars} star{'s' if stars > 1 else ''}",
            "puzzle.size",
        )
    return n, stars


def place_stars(n: int, stars: int, args: GenerateArgs) -> list[Cell]:
    """A random placement of the stars (step 1)."""
    stage = args.stage()
    problem, cells, _items = star_matrix(n, stars, None)
    result = cover.search(problem, ENGINE, limit=1, rng=args.rng, monitor=stage)
    args.stop_if_cancelled(stage)
    args.advance(result.stats["nodes"], args.fraction)
    if not result.solutions:
        raise puzzle_error(
            f"no {n} x {n} board holds {stars} stars in every row and column without two "
            "touching; choose a larger size or fewer stars",
            "puzzle.size",
        )
    return [cells[option] for option in result.solutions[0]]


def grow_patches(n: int, seeds: list[Cell], args: GenerateArgs) -> Regions:
    """Every seed's patch, grown by a random flood fill from all seeds at once (step 2)."""
    patch = [[-1] * n for _ in range(n)]
    for number, (r, c) in enumerate(seeds):
        patch[r][c] = number
    frontier = sorted({cell for seed in seeds for cell in neighbours(seed) if _free(patch, cell)})
    while frontier:
        cell = frontier.pop(args.rng.randrange(len(frontier)))
        if not _free(patch, cell):
            continue
        touching = sorted(
            {patch[r][c] for r, c in neighbours(cell) if _on_board(n, (r, c)) and patch[r][c] >= 0}
        )
        patch[cell[0]][cell[1]] = args.rng.choice(touching)
        frontier.extend(other for other in neighbours(cell) if _free(patch, other))
    return patch


def _on_board(n: int, cell: Cell) -> bool:
    return 0 <= cell[0] < n and 0 <= cell[1] < n


def _free(regions: Regions, cell: Cell) -> bool:
    n = len(regions)
    return _on_board(n, cell) and regions[cell[0]][cell[1]] < 0


def patch_graph(patch: Regions, count: int) -> list[set[int]]:
    """Per patch, the patches it shares a side with."""
    n = len(patch)
    touching: list[set[int]] = [set() for _ in range(count)]
    for r in range(n):
        for c in range(n):
            for other in ((r + 1, c), (r, c + 1)):
                if _on_board(n, other) and patch[other[0]][other[1]] != patch[r][c]:
                    touching[patch[r][c]].add(patch[other[0]][other[1]])
                    touching[patch[other[0]][other[1]]].add(patch[r][c])
    return touching


def group_patches(touching: list[set[int]], size: int, args: GenerateArgs) -> list[int] | None:
    """Per patch, its group: connected groups of ``size`` patches covering all of them, by a
    random greedy grouping (the patch with the fewest ungrouped neighbours starts the next
    group, which grows by random ungrouped neighbours); None when it strands a patch."""
    group = [-1] * len(touching)
    for number in range(len(touching) // size):
        left = [patch for patch in range(len(touching)) if group[patch] < 0]
        fewest = min(sum(group[o] < 0 for o in touching[p]) for p in left)
        start = args.rng.choice(
            [p for p in left if sum(group[o] < 0 for o in touching[p]) == fewest]
        )
        members = [start]
        group[start] = number
        while len(members) < size:
            reach = sorted({o for m in members for o in touching[m] if group[o] < 0})
            if not reach:
                return None
            chosen = args.rng.choice(reach)
            group[chosen] = number
            members.append(chosen)
    return group


def make_regions(n: int, stars: int, seeds: list[Cell], args: GenerateArgs) -> Regions | None:
    """Connected regions holding ``stars`` of the seeds each (step 2), or None when no
    grouping was found."""
    for _ in range(GROWTHS):
        patch = grow_patches(n, seeds, args)
        touching = patch_graph(patch, len(seeds))
        for _ in range(GROUPINGS):
            group = group_patches(touching, stars, args)
            if group is not None:
                return [[group[patch[r][c]] for c in range(n)] for r in range(n)]
    return None


def board_of(regions: Regions, stars: int) -> Board:
    """The board of a region map, its regions named A, B, ... in reading order."""
    names: dict[int, str] = {}
    for row in regions:
        for region in row:
            names.setdefault(region, chr(ord("A") + len(names)))
    rows = tuple("".join(names[region] for region in row) for row in regions)
    return Board(rows, tuple(names.values()), stars)


def unique_search(board: Board, args: GenerateArgs) -> tuple[int, list[list[str]]]:
    """The engine's search with limit 2 on ``board``: its nodes and solutions (at most 2)."""
    encoding = encode(board)
    stage = args.stage()
    result = cover.search(encoding.problem, ENGINE, limit=2, monitor=stage)
    args.stop_if_cancelled(stage)
    return result.stats["nodes"], [decode(encoding, solution) for solution in result.solutions]


def moves_of(regions: Regions, cell: Cell, placed: set[Cell]) -> list[tuple[list[Cell], int]]:
    """The ways ``cell`` (no star of the placement) may leave its region: (the cells that move,
    the region they join). Without ``cell`` its region falls into parts; the cells that move
    are ``cell`` and every part without a placed star, so the region keeps one connected part
    with all its stars. They join a region next to them: one cell alone when it can."""
    n = len(regions)
    own = regions[cell[0]][cell[1]]
    rest = [(r, c) for r in range(n) for c in range(n) if regions[r][c] == own and (r, c) != cell]
    parts = components(rest)
    starred = [part for part in parts if not placed.isdisjoint(part)]
    if len(starred) != 1:
        return []  # the stars would be cut apart (or the region is the cell alone)
    moving = [cell, *(other for part in parts if part is not starred[0] for other in part)]
    joining = sorted(
        {
            regions[r][c]
            for mover in moving
            for r, c in neighbours(mover)
            if _on_board(n, (r, c)) and regions[r][c] != own
        }
    )
    return [(moving, region) for region in joining]


def attempt(
    n: int, stars: int, args: GenerateArgs, share: tuple[float, float]
) -> tuple[Board, list[str], int] | None:
    """One placement and region map made unique: (board, solution, nodes of the proof), or
    None when the moves ran out (step 3)."""
    seeds = sorted(place_stars(n, stars, args))
    regions = make_regions(n, stars, seeds, args)
    if regions is None:
        return None
    placed = set(seeds)
    low, high = share
    fixes = FIXES_PER_CELL * n * n
    for fix in range(fixes + 1):
        board = board_of(regions, stars)
        nodes, solutions = unique_search(board, args)
        args.advance(nodes, low + (high - low) * fix / (fixes + 1))
        intended = ["".join("*" if (r, c) in placed else "." for c in range(n)) for r in range(n)]
        if len(solutions) == 1:
            return board, intended, nodes
        other = solutions[1] if solutions[0] == intended else solutions[0]
        moves = [
            move
            for cell in ((r, c) for r in range(n) for c in range(n) if other[r][c] == "*")
            if cell not in placed
            for move in moves_of(regions, cell, placed)
        ]
        if not moves:
            return None
        # One cell moving changes the region map least: such moves first.
        fewest = min(len(moving) for moving, _region in moves)
        moving, region = args.rng.choice([move for move in moves if len(move[0]) == fewest])
        for r, c in moving:
            regions[r][c] = region
    return None


def effort(nodes: int, n: int, stars: int) -> float:
    """The grade's measure: the uniqueness proof's search nodes per star."""
    return nodes / (n * stars)


def level_of(measure: float, stars: int) -> str:
    """The level of a puzzle of ``stars`` stars whose proof took ``measure`` (``effort``)."""
    for level, most in LEVELS[stars].items():
        if measure < most:
            return level
    return DIFFICULTIES[-1]


def generate(puzzle: Any, args: GenerateArgs) -> Generated:
    """A Star Battle of the size asked with one solution, graded at ``args.difficulty`` if
    reachable within ``MAX_ATTEMPTS`` (see the module docstring)."""
    n, stars = read_size(puzzle)
    target = DIFFICULTIES.index(args.difficulty)
    # (target minus the level's index, board, solution, nodes)
    best: tuple[int, Board, list[str], int] | None = None
    made = 0
    for made in range(1, MAX_ATTEMPTS + 1):
        found = attempt(n, stars, args, ((made - 1) / MAX_ATTEMPTS, made / MAX_ATTEMPTS))
        if found is None:
            continue
        board, solution, nodes = found
        distance = target - DIFFICULTIES.index(level_of(effort(nodes, n, stars), stars))
        if (
            best is None
            or abs(distance) < abs(best[0])
            or (abs(distance) == abs(best[0]) and distance > best[0])
        ):
            best = (distance, board, solution, nodes)
        if distance == 0:
            break
    if best is None:
        raise SolveError(
            TOO_LARGE,
            f"no unique {n} x {n} Star Battle with {stars} stars was made in {MAX_ATTEMPTS} "
            "attempts; try another seed or size",
        )
    distance, board, solution, nodes = best
    measure = effort(nodes, n, stars)
    level = level_of(measure, stars)
    note = None
    if distance:
        note = (
            f"no {args.difficulty} {n} x {n} puzzle was found in {made} attempts; this is the "
            f"nearest found ({level}); try another seed"
        )
    return Generated(
        puzzle={"regions": list(board.rows), "stars": stars},
        solution=solution,
        grade={"level": level, "nodes": nodes, "effort": round(measure, 3)},
        attempts=made,
        note=note,
    )
