"""A polyomino puzzle as an exact cover matrix, and the matrix's answers back on the board.

One primary item per board cell, one per piece copy, and one option per placement of a piece in
one of its distinct orientations. Identical copies would otherwise give every tiling ``count!``
times, so the copies of a repeated piece are ordered: copy ``j`` must sit at a smaller anchor
cell (its first cell in row-major order) than copy ``j + 1``, enforced by secondary items (copy
``j`` at anchor ``a`` takes ``X[j, t]`` for every ``t < a``; copy ``j + 1`` at anchor ``b`` takes
``X[j, b]``). The repeated piece with the most copies needs no items at all: once every other
piece is placed exactly, the area left over can only be filled by exactly its copies, and
dropping its items drops the ordering problem too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pysolver.engines import trace
from pysolver.engines.cover import MAX_ENTRIES, ExactCoverProblem
from pysolver.engines.monitor import Monitor
from pysolver.kinds.polyomino.parsing import Piece, Tiling
from pysolver.protocol import TOO_LARGE, SolveError

Placement = tuple[int, ...]  # sorted board cell indices
Solution = list[tuple[str, Placement]]  # (piece name, cells) in option order


@dataclass
class Encoding:
    """An exact cover matrix and what each option means on the board."""

    problem: ExactCoverProblem
    option_piece: list[str]
    option_cells: list[Placement]


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


def encode(
    tiling: Tiling,
    allowed: dict[str, set[Placement]] | None = None,
    monitor: Monitor | None = None,
) -> Encoding:
    """The exact cover matrix; ``allowed`` restricts some pieces to some placements.

    monitor: cancels the building (``Cancelled``): up to ``MAX_ENTRIES`` entries take seconds.
    """
    monitor = monitor or Monitor()
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
        monitor.checkpoint()
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
                    monitor.checkpoint()
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
    problem = ExactCoverProblem(
        primary, secondary - primary, options, item_cells=list(tiling.cells)
    )
    return Encoding(problem, option_piece, option_cells)


def decode(encoding: Encoding, options: list[int]) -> Solution:
    """The placed pieces of an engine's solution (option indices)."""
    return [(encoding.option_piece[o], encoding.option_cells[o]) for o in options]


def item_labels(tiling: Tiling, encoding: Encoding) -> list[tuple[str, Any]]:
    """Per item of ``encode``'s matrix: a label for sentences and its JSON ``item`` (trace mode).

    Same numbering as ``encode``: board cells, then each piece with items (its copies), then
    the secondary items that order copies (never chosen, so never named in a step).
    """
    labels: list[tuple[str, Any]] = [
        (f"the cell at {trace.cell_words(r, c)}", {"cell": [r, c]}) for r, c in tiling.cells
    ]
    free_name = itemless_piece(tiling)
    for piece in tiling.pieces:
        if piece.name == free_name:
            continue
        for copy in range(piece.count):
            label = (
                f"piece {piece.name}" if piece.count == 1 else f"piece {piece.name} ({copy + 1})"
            )
            labels.append((label, {"piece": piece.name, "copy": copy}))
    labels.extend(("an ordering item", None) for _ in range(encoding.problem.secondary))
    return labels
