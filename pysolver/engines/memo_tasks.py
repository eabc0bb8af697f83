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

Where the serial count runs compiled (``bitset.compiled_walk``: numba installed, CPython, no
``PYSOLVER_PURE=1``), so do the tasks (``_count_compiled``): the kernel walks from the task's
node (its live masks and covered items, made here as ``memo.count``'s ``starts`` makes them),
and the worker keeps the kernel's memo table and its probe registers across its tasks as it
keeps the dict in Python. Before, a worker ran its tasks in Python while the serial count ran
compiled, so ``jobs 2`` was 1.4-3x slower than ``jobs 1`` (issue 31).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from pysolver import budget
from pysolver.engines import bitset, memo_levels
from pysolver.engines.cover import ExactCoverProblem
from pysolver.engines.memo import (
    HIT_PROBE,
    MAX_DEPTH,
    MIN_HIT_SHARE,
    MIN_SAVED_QUARTERS,
    STRIKE_DEPTH,
    STRIKE_SUBTREE,
    SWEEP_STRIKE_DEPTH,
    StruckTables,
    _deepest,
    count,
    memo_cap,
    root_orbits,
    strike_and_lay_out,
    strike_dead_options,
    sweep_order,
)
from pysolver.engines.monitor import Monitor, SearchResult
from pysolver.engines.subtree import InvalidPath, Split, split_tree


@dataclass
class _Kept:
    """What this process keeps of the problem it counted last: the problem (a kind that keeps
    its reading across tasks passes the same object again: found without hashing it), its
    fingerprint, root orbits (option -> orbit size; None without symmetry), the walk's tables,
    and the memo."""

    problem: ExactCoverProblem
    fingerprint: int
    orbits: dict[int, int] | None
    tables: StruckTables
    memo: dict[int, int] = field(default_factory=dict)
    # ``memo_cap`` of the problem and the budget it was worked out for (3 ms a task).
    capped: tuple[int, int] = (-1, 0)
    # The compiled tasks' walk tables (``_Start``) and the kernel's memo table with its
    # registers (``_CarriedTable``), made on the first compiled task.
    start: _Start | None = None
    table: _CarriedTable | None = None

    @property
    def cap(self) -> int:
        """``memo_cap(problem)`` under the budget in force."""
        budget_bytes = budget.budget_bytes()
        if self.capped[0] != budget_bytes:
            self.capped = (budget_bytes, memo_cap(self.problem))
        return self.capped[1]


_worker_memo: list[_Kept] = []


def counts_whole(problem: ExactCoverProblem, limit: int | None, keep: bool, shuffled: bool) -> bool:
    """Whether ``memo.search`` takes the memoised walk for this search (a whole count)."""
    whole = limit is None and not keep and not shuffled
    if not whole or problem.colours is not None or problem.multiplicities is not None:
        return False
    if _worker_memo and _worker_memo[0].problem is problem:
        return True  # kept only for a problem counted so (a task's, again: 3 ms a task)
    return _deepest(problem) <= MAX_DEPTH


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
    if _worker_memo and _worker_memo[0].problem is problem:
        return _worker_memo[0]
    fingerprint = _fingerprint(problem)
    if _worker_memo and _worker_memo[0].fingerprint == fingerprint:
        _worker_memo[0].problem = problem
        return _worker_memo[0]
    _worker_memo.clear()  # the memo of another problem goes first (the budget's peak)
    kept = _Kept(problem, fingerprint, _orbit_sizes(problem), strike_and_lay_out(problem, monitor))
    _worker_memo.append(kept)
    return kept


def forget() -> None:
    """Let this process's kept memo go (tests; a host that wants the memory back)."""
    _worker_memo.clear()


def split(problem: ExactCoverProblem, wanted: int, monitor: Monitor | None = None) -> Split:
    """The memo walk's tree cut into about ``wanted`` subtrees: the root's branches are the
    orbit representatives of ``memo.root_orbits`` (when the matrix has symmetries), each node
    below branches on its MRV item. A path is the options chosen, root first."""
    by_levels = memo_levels.suits(problem)
    if by_levels and memo_levels.offered_lanes() is not None:
        return Split([], engine="memo", by_levels=True)  # counted by levels, not cut
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
    cut.by_levels = by_levels
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
        return count(problem, monitor, memo=memo, struck_tables=tables, known_cap=kept.cap)
    if orbits is not None and path[0] not in orbits:
        raise InvalidPath(0, f"option {path[0]} is not one of the root's orbit representatives")
    weight = 1 if orbits is None else orbits[path[0]]
    fast = bitset.compiled_walk()
    if fast is not None:
        counted = _count_compiled(fast, problem, kept, path, weight, monitor)
        if counted is not None:
            return counted
    starts = [(list(path), weight)]
    return count(
        problem, monitor, starts=starts, memo=memo, struck_tables=tables, known_cap=kept.cap
    )


@dataclass
class _Start:
    """What a compiled task needs of the struck problem, by bit position as ``memo.count``
    lays it out: the root's masks (in the sweep's order on a narrow board), each option's
    compatible mask, the items it covers (bits: memo keys) and how many primary items."""

    root: list[int]
    compatible_at: list[int]
    covers_at: list[int]
    cover_at: list[int]
    swept: bool

    @classmethod
    def of(cls, tables: StruckTables) -> _Start:
        walk_tables, kept, _, _ = tables
        option_at = walk_tables.option_at
        root = walk_tables.item_masks[: kept.primary]
        sweep = sweep_order(kept)
        if sweep is not None:
            root = [root[item] for item in sweep]
        return cls(
            root,
            walk_tables.compatible_at(),
            [sum(1 << item for item in kept.options[option]) for option in option_at],
            [walk_tables.cover_size[option] for option in option_at],
            sweep is not None,
        )

    def below(self, positions: list[int]) -> tuple[list[int], int] | None:
        """The live masks and covered items below the options at ``positions``, chosen from
        the root; None when that is a dead end (an option not live where it is chosen)."""
        rest = self.root
        covered = 0
        for position in positions:
            if not any(mask >> position & 1 for mask in rest):
                return None
            compatible = self.compatible_at[position]
            child = [mask & compatible for mask in rest]
            child = [mask for mask in child if mask]
            if len(child) != len(rest) - self.cover_at[position]:
                return None
            rest, covered = child, covered | self.covers_at[position]
        return rest, covered


# The kernel's registers a worker carries from one compiled task to the next with its memo
# table: its entries and the counters its hit probe weighs them by (hits, nodes under the
# entries; the worker's so far, as the entries are). The memo is on again at each task, with
# its next probe ``HIT_PROBE`` entries on, as the pure walk's is: a probe that turned it off
# in one subtree (the first entries of a deep task hit little: 8x8 + square, 2 workers, one
# worker's memo went off for good at its first task's first probe) does not hold for the next.
CARRIED_REGISTERS = ("R_MEMO_LEN", "R_HITS", "R_SUBTREE_NODES")


@dataclass
class _CarriedTable:
    """The kernel's memo table (a numpy array) and its registers after a worker's last task."""

    table: Any
    registers: dict[str, int]


def _count_compiled(
    fast: ModuleType,
    problem: ExactCoverProblem,
    kept: _Kept,
    path: list[int],
    weight: int,
    monitor: Monitor,
) -> SearchResult[list[int]] | None:
    """``count_below`` by the compiled walk, from the task's node, with the worker's kernel
    memo table; None when the kernel declines (its arrays do not fit, a count past 2**63):
    the pure walk counts the task then."""
    walk_tables, struck_problem, original, struck = kept.tables
    if kept.start is None:
        kept.start = _Start.of(kept.tables)
    start = kept.start
    kept_at = {option: index for index, option in enumerate(original)}
    chosen = [kept_at.get(option) for option in path]
    below = None
    if None not in chosen:
        below = start.below(
            [walk_tables.position_of[option] for option in chosen if option is not None]
        )
    if below is None or not below[0]:
        # A dead end (a struck option is in no cover), as the pure walk counts it; or a path
        # that is a whole cover.
        found = 0 if below is None else weight
        monitor.finish(1, found, True)
        leaf = {"nodes": 1, "memo_hits": 0, "memo_entries": 0, "options_struck": struck}
        return SearchResult(count=found, stats={**leaf, "kernel": fast.KERNEL})
    rest, covered = below
    deepest = SWEEP_STRIKE_DEPTH if start.swept else STRIKE_DEPTH
    struck_here = 0
    if len(path) <= deepest:
        # The serial walk strikes at this depth: the task's node strikes for its subtree.
        rest, struck_here = strike_dead_options(rest, start.compatible_at, None, 1)
        if not all(rest):
            monitor.finish(1, 0, True)
            leaf = {"nodes": 1, "memo_hits": 0, "memo_entries": 0}
            return SearchResult(
                stats={**leaf, "options_struck": struck + struck_here, "kernel": fast.KERNEL}
            )
    smallest_cover = walk_tables.smallest_cover
    items = problem.items
    if not fast.fits(len(rest), items, len(start.compatible_at), smallest_cover, rest):
        return None
    kernel = fast._kernel()
    walk = fast.Walk(kernel, rest, start.compatible_at, start.covers_at, smallest_cover, items)
    # Strikes down to the serial walk's depth below the root, counted from the task's node.
    walk.use_memo(
        kept.cap,
        max(0, deepest - len(path)),
        STRIKE_SUBTREE,
        MIN_HIT_SHARE,
        MIN_SAVED_QUARTERS,
        HIT_PROBE,
    )
    regs = walk.regs
    regs[kernel.R_SWEEP] = int(start.swept)
    regs[kernel.R_WEIGHT] = weight
    key_words = walk.keys.shape[1]
    walk.keys[0] = fast._rows(walk.np, [covered], key_words)[0]
    hits_before = 0
    if kept.table is not None:
        walk.memo = kept.table.table
        regs[kernel.R_TABLE_ROOM] = walk.memo.shape[0] // 2
        for name, value in kept.table.registers.items():
            regs[getattr(kernel, name)] = value
        regs[kernel.R_PROBE_AT] = regs[kernel.R_MEMO_LEN] + HIT_PROBE
        hits_before = kept.table.registers["R_HITS"]
    kept.table = None  # until this walk returns (a monitor that raises leaves it off)
    option_at = walk_tables.option_at

    def decode(positions: list[int]) -> list[int]:
        return sorted([*path, *(original[option_at[position]] for position in positions)])

    outcome, _ = walk.run(monitor, decode)
    if outcome == "overflow":
        return None
    kept.table = _CarriedTable(walk.memo, {name: walk.stat(name) for name in CARRIED_REGISTERS})
    cancelled = outcome == "cancelled"
    nodes = walk.stat("R_NODES")
    total = walk.stat("R_FOUND") if cancelled else weight * walk.stat("R_TOTAL")
    monitor.finish(nodes, total, not cancelled)
    stats: dict[str, Any] = {
        "nodes": nodes,
        "memo_hits": walk.stat("R_HITS") - hits_before,
        "memo_entries": walk.stat("R_MEMO_LEN"),
        "options_struck": walk.stat("R_STRUCK") + struck + struck_here,
        "kernel": fast.KERNEL,
    }
    stats.update(fast._jit_stats())
    return SearchResult(count=total, complete=not cancelled, cancelled=cancelled, stats=stats)
