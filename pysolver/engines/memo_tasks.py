"""The memo engine's whole counts in parallel tasks: cut below the symmetry, a memo per worker.

A memo count is fast for two reasons that a cut of the plain search tree loses (issue 31):
the root branches on one option per orbit of the matrix's symmetries, weighted by the orbit's
size, and one memo of sub-board counts serves the whole walk. So the memo count's tasks are cut
from *its own* tree (``split``): the root's branches are the orbit representatives (the
``memo.root_orbits`` item, one branch per orbit), every node below branches on its MRV item as
the walk does. A task (``count_below``) counts the covers under its path with the memo walk
on the whole problem (``memo.count``'s ``starts``), times the orbit size of its first option,
so the tasks add up to the serial count.

Each process keeps the memo of the last problem it counted (``_worker_memo``): the sub-board
keys are covered items of the whole problem, the same in every task of a request, so a worker
that runs several tasks of one count finds again the sub-boards its earlier tasks counted, as
the serial walk does. Summed over the tasks, the nodes stay close to the serial walk's (on
6x10 pentominoes, 2 workers: about 1.2x; a worker that started cold with every task: 4.5x).
The memo kept is bounded by the memo's share of the budget (``memo.memo_cap``) and goes when
the process counts another problem.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pysolver.engines import bitset
from pysolver.engines.cover import ExactCoverProblem
from pysolver.engines.memo import (
    MAX_DEPTH,
    StruckTables,
    _deepest,
    count,
    root_orbits,
    strike_and_lay_out,
)
from pysolver.engines.monitor import Monitor, SearchResult
from pysolver.engines.subtree import InvalidPath, Split, split_tree


@dataclass
class _Kept:
    """What this process keeps of the problem it counted last: its fingerprint, root orbits
    (option -> orbit size; None without symmetry), the walk's tables and the memo."""

    fingerprint: int
    orbits: dict[int, int] | None
    tables: StruckTables
    memo: dict[int, int] = field(default_factory=dict)


_worker_memo: list[_Kept] = []


def counts_whole(problem: ExactCoverProblem, limit: int | None, keep: bool, shuffled: bool) -> bool:
    """Whether ``memo.search`` takes the memoised walk for this search (a whole count)."""
    whole = limit is None and not keep and not shuffled
    return (
        whole
        and problem.colours is None
        and problem.multiplicities is None
        and _deepest(problem) <= MAX_DEPTH
    )


def _fingerprint(problem: ExactCoverProblem) -> int:
    return hash(
        (
            problem.primary,
            problem.secondary,
            tuple(map(tuple, problem.options)),
            tuple(problem.item_cells or ()),
        )
    )


def _orbit_sizes(problem: ExactCoverProblem) -> dict[int, int] | None:
    orbits = root_orbits(problem)
    return None if orbits is None else dict(orbits)


def _kept(problem: ExactCoverProblem, monitor: Monitor) -> _Kept:
    """This process's orbits, tables and memo for ``problem``: kept from its last task on the
    same problem, else made afresh (and those of another problem let go first)."""
    fingerprint = _fingerprint(problem)
    if _worker_memo and _worker_memo[0].fingerprint == fingerprint:
        return _worker_memo[0]
    _worker_memo.clear()
    kept = _Kept(fingerprint, _orbit_sizes(problem), strike_and_lay_out(problem, monitor))
    _worker_memo.append(kept)
    return kept


def forget() -> None:
    """Let this process's kept memo go (tests; a host that wants the memory back)."""
    _worker_memo.clear()


def split(problem: ExactCoverProblem, wanted: int, monitor: Monitor | None = None) -> Split:
    """The memo walk's tree cut into about ``wanted`` subtrees: the root's branches are the
    orbit representatives of ``memo.root_orbits`` (when the matrix has symmetries), each node
    below branches on its MRV item. A path is the options chosen, root first."""
    monitor = monitor or Monitor()
    position_of = bitset._bit_positions(problem)
    option_at = [0] * len(problem.options)
    for option, position in enumerate(position_of):
        option_at[position] = option
    item_masks = bitset._item_masks(problem, position_of)
    compatible, cover_size, _ = bitset._compatible_masks(problem, position_of, item_masks, monitor)
    orbits = root_orbits(problem)
    # A node: the live masks of its uncovered primary items, and whether it is the root.
    Node = tuple[list[int], bool]

    def child(rest: list[int], option: int) -> Node | None:
        masks = [mask & compatible[option] for mask in rest]
        kept = [mask for mask in masks if mask]
        # An uncovered item left without options: a dead end.
        return (kept, False) if len(kept) == len(rest) - cover_size[option] else None

    def children(node: Node) -> list[tuple[int, Node | None, float]] | None:
        rest, at_root = node
        monitor.checkpoint()
        if not rest:
            return None  # a solution
        if at_root and orbits is not None:
            return [(option, child(rest, option), 1 / len(orbits)) for option, _ in orbits]
        candidates = min(rest, key=int.bit_count)
        options = [option_at[position] for position in _positions(candidates)]
        return [(option, child(rest, option), 1 / len(options)) for option in options]

    root = item_masks[: problem.primary]
    cut = split_tree((root, True) if all(root) else None, children, wanted, monitor)
    cut.engine = "memo"
    return cut


def _positions(mask: int) -> list[int]:
    """The set bits of ``mask``, highest first (the order the walk tries them)."""
    found = []
    while mask:
        position = mask.bit_length() - 1
        mask ^= 1 << position
        found.append(position)
    return found


def count_below(
    problem: ExactCoverProblem, path: list[int], monitor: Monitor
) -> SearchResult[list[int]]:
    """The covers of ``problem`` below ``path`` (a path of ``split``), counted by the memo
    walk with this process's memo, and weighted by the orbit size of the path's first option
    when the root branches on orbits: the tasks of a split add up to the whole count."""
    kept = _kept(problem, monitor)
    orbits, memo, tables = kept.orbits, kept.memo, kept.tables
    if not path:
        return count(problem, monitor, memo=memo, struck_tables=tables)
    if orbits is not None and path[0] not in orbits:
        raise InvalidPath(0, f"option {path[0]} is not one of the root's orbit representatives")
    weight = 1 if orbits is None else orbits[path[0]]
    starts = [(list(path), weight)]
    return count(problem, monitor, starts=starts, memo=memo, struck_tables=tables)
