"""The compiled walk: the ``bitset`` and ``memo`` engines' Algorithm X run by a numba kernel.

``pip install "pysolver-studio[fast]"`` installs numba; then, in CPython, the two engines hand
their walks to this module (``bitset.compiled_walk`` decides: never in Pyodide, never with
``PYSOLVER_PURE=1``, never without numba): a whole count (with the memo engine's memoised
sub-boards, strikes and root orbits, or the bitset engine's plain count), and a search with a
limit, kept solutions or a shuffle (random mode). Multiplicities stay in Python. The kernel
(``compiled_kernel.walk``) walks the very tree of the pure walk, in the same order: the same
counts, node counts, memo hits and solutions in the same order, except that a shuffle draws
from numba's generator (seeded from the request's), so random mode finds other solutions for a
seed than pure Python does. Results carry ``kernel: "numba"`` in their stats, and
``jit_seconds`` on the first search of a process that compiled the kernel or loaded it from
numba's on-disk cache.

Masks are arrays of uint64 words (one bit per option, at the pure walk's bit positions); the
walk's state lives in arrays owned here, and the kernel returns every ``QUOTA`` units of work
(about a node each, more for wide nodes) so that the monitor is asked as in pure Python
(cancel, node budget, timeout, progress, recent solutions), and when its solution buffer or
memo table needs this side. What it allocates is estimated first (``kernel_bytes``); a problem
whose arrays would not fit in the budget is left to the pure walk, as is a count past 2**63.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial
from time import perf_counter
from types import ModuleType
from typing import Any

from pysolver import budget
from pysolver.engines.monitor import CHECK_EVERY, Monitor, SearchResult, fraction_done

# The name results carry in their stats (``kernel``).
KERNEL = "numba"
# Nodes (more for a big matrix, as in the pure walks) between two asks of the monitor: for the
# first ``EARLY_CHECKS`` asks as often as the pure walks ask (``CHECK_EVERY`` nodes), so a
# short search reports, cancels and stops at a node budget as they do; then twice as many at
# each ask, up to ``QUOTA`` (a node of the kernel takes 0.1-1 us, a return to Python ~20 us).
QUOTA = 1 << 14
EARLY_CHECKS = 16
# The memo table starts with this many slots and doubles while it is over half full.
FIRST_SLOTS = 1 << 12
# Rows of the solution buffer, at least: the kernel returns to have it drained when the next
# node's solutions might not fit.
SOLUTION_ROWS = 1 << 10

_warmed: dict[str, float] = {}


def _kernel() -> ModuleType:
    """``compiled_kernel``, compiled (or loaded from numba's cache) on first use, timed."""
    from pysolver.engines import compiled_kernel

    if "seconds" not in _warmed:
        start = perf_counter()
        _warm_up(compiled_kernel)
        _warmed["seconds"] = perf_counter() - start
        _warmed["pending"] = 1.0
    return compiled_kernel


def _warm_up(kernel: ModuleType) -> None:
    """Run the kernel once on a tiny memoised count, which compiles it (every array has the
    types of a real walk, so there is one specialisation): items 0 and 1, options {0}, {1},
    {0, 1} at bits 0, 1, 2."""
    walk = Walk(kernel, [0b101, 0b110], [0b010, 0b001, 0], [1, 2, 3], 1, 2)
    walk.use_memo(FIRST_SLOTS, 2, 1, 1, 1, 1)
    walk.run(Monitor(), list)
    walk._table(2 * FIRST_SLOTS)  # compiles the rehash too


def _jit_stats() -> dict[str, Any]:
    """``jit_seconds`` for the first result after the kernel was compiled or loaded."""
    if _warmed.pop("pending", None) is None:
        return {}
    return {"jit_seconds": round(_warmed["seconds"], 3)}


def _words(bits: int) -> int:
    return max(1, (bits + 63) // 64)


def kernel_bytes(primary: int, items: int, options: int, smallest_cover: int, column: int) -> int:
    """What a walk allocates before it starts: per option its compatible and covered-items
    words, per primary item its mask, per depth the live options, the uncovered items and
    their sizes, the branches and registers; the first memo table and the solution buffer."""
    words = _words(options)
    key_words = _words(items)
    depths = primary // max(1, smallest_cover) + 3
    per_depth = 8 * (words + 2 * primary + column + FIELDS + key_words)
    table = FIRST_SLOTS * 8 * (key_words + 1)
    buffer = max(SOLUTION_ROWS, 2 * column + 2) * 4 * (primary + 1)
    fixed = 8 * (options * (words + key_words) + primary * (words + 2))
    return fixed + depths * per_depth + table + buffer


# The kernel's fields per depth (``compiled_kernel.FIELDS``, which needs numba to import).
FIELDS = 25


class Walk:
    """One walk's arrays and registers, and the loop that runs the kernel over them.

    ``root``: per primary item (in item order), the mask of its options (a bit per option);
    the other masks are per bit position: ``compatible_at`` the options compatible with it,
    ``covers_at`` the items it covers (memo keys)."""

    def __init__(
        self,
        kernel: ModuleType,
        root: Sequence[int],
        compatible_at: Sequence[int],
        covers_at: Sequence[int],
        smallest_cover: int,
        items: int,
    ) -> None:
        import numpy as np

        self.np = np
        self.kernel = kernel
        k = kernel
        primary = len(root)
        options = len(compatible_at)
        words = _words(options)
        key_words = _words(items)
        column = max((mask.bit_count() for mask in root), default=0)
        depths = primary // max(1, smallest_cover) + 3
        self.regs = np.zeros(k.REGISTERS, np.int64)
        self.frames = np.zeros((depths, k.FIELDS), np.int64)
        self.frames[:, k.F_ENTERED] = -1
        self.live = np.zeros((depths, words), np.uint64)
        self.items = np.zeros((depths, max(1, primary)), np.int64)
        self.sizes = np.zeros((depths, max(1, primary)), np.int64)
        self.order = np.zeros((depths, max(1, column)), np.int64)
        self.keys = np.zeros((depths, key_words), np.uint64)
        self.item_masks = _rows(np, root, words)
        self.bands = np.zeros((max(1, primary), 2), np.int64)
        everything = 0
        for item, mask in enumerate(root):
            everything |= mask
            if mask:  # the words from its lowest bit's to its highest bit's
                self.bands[item] = (mask & -mask).bit_length() - 1 >> 6, mask.bit_length() + 63 >> 6
        self.compatible = _rows(np, compatible_at, words)
        self.covers = _rows(np, covers_at, key_words)
        self.root_weights = np.zeros(1, np.int64)
        self.memo = np.zeros((1, key_words + 1), np.uint64)
        self.solutions = np.zeros((1, primary + 1), np.int32)
        self.recent = np.zeros(primary + 2, np.int64)
        self.live[0] = _rows(np, [everything], words)[0]
        self.items[0, :primary] = range(primary)
        self.sizes[0, :primary] = [mask.bit_count() for mask in root]
        regs = self.regs
        regs[k.R_SMALLEST_COVER] = smallest_cover
        # As in the pure walks, a node of a big matrix counts as several (one per ~1M bits).
        self.quota = max(1, QUOTA // max(1, primary * options >> 20))
        regs[k.R_QUOTA] = max(1, CHECK_EVERY // max(1, primary * options >> 20))
        regs[k.R_LIMIT] = -1
        regs[k.R_MAX_KEPT] = -1
        regs[k.R_SEED] = -1
        regs[k.R_WEIGHT] = 1
        regs[k.R_RECENT_LEN] = -1
        regs[k.R_TIGHTEST] = 6
        regs[k.R_NODES] = 1  # the root, entered
        frames = self.frames
        frames[0, k.F_WIDTH] = primary
        frames[0, k.F_LO] = ((everything & -everything).bit_length() - 1) >> 6 if everything else 0
        frames[0, k.F_HI] = (everything.bit_length() + 63) >> 6
        self.column = column

    def use_memo(
        self,
        cap: int,
        strike_depth: int,
        strike_subtree: int,
        min_hit_share: int,
        min_saved_quarters: int,
        probe: int,
    ) -> None:
        """Count with memoised sub-board counts (at most ``cap``) and strikes, as ``memo``."""
        k = self.kernel
        regs = self.regs
        regs[k.R_MEMO_ON] = 1
        regs[k.R_MEMO_ASK] = 1
        regs[k.R_MEMO_CAP] = cap
        regs[k.R_PROBE_AT] = probe
        regs[k.R_HIT_PROBE] = probe
        regs[k.R_MIN_HIT_SHARE] = min_hit_share
        regs[k.R_MIN_SAVED_QUARTERS] = min_saved_quarters
        regs[k.R_STRIKE_DEPTH] = strike_depth
        regs[k.R_STRIKE_SUBTREE] = strike_subtree
        self._table(FIRST_SLOTS)

    def _table(self, slots: int) -> None:
        table = self.np.zeros((slots, self.keys.shape[1] + 1), self.np.uint64)
        if self.memo.shape[0] > 1:
            self.kernel.memo_rehash(self.memo, table)
        self.memo = table
        self.regs[self.kernel.R_TABLE_ROOM] = slots // 2

    def use_orbits(self, branches: Sequence[tuple[int, int]]) -> None:
        """Branch at the root on these (bit position, weight) pairs only (``memo``'s orbits)."""
        k = self.kernel
        self.root_weights = self.np.array([weight for _, weight in branches] or [0], self.np.int64)
        if len(branches) > self.order.shape[1]:
            self.order = self.np.zeros((self.order.shape[0], len(branches)), self.np.int64)
        for index, (position, _) in enumerate(branches):
            self.order[0, index] = position
        self.frames[0, k.F_COUNT] = len(branches)
        self.frames[0, k.F_SIZE] = len(branches)
        self.regs[k.R_ORBITS] = 1
        self.regs[k.R_PHASE] = k.PHASE_NEXT

    def use_search(
        self, limit: int | None, keep: bool, max_kept: int | None, rng: random.Random | None
    ) -> None:
        """Search in option order (bit positions are option indices), as ``bitset.search``."""
        k = self.kernel
        regs = self.regs
        regs[k.R_MODE] = k.MODE_SEARCH
        # A limit past the registers' int64 is no limit here: the kernel hands a count that
        # passes 2^63 to the pure walk, which keeps the limit.
        regs[k.R_LIMIT] = -1 if limit is None or limit >= 1 << 62 else limit
        regs[k.R_KEEP] = int(keep)
        regs[k.R_MAX_KEPT] = -1 if max_kept is None or max_kept >= 1 << 62 else max_kept
        if rng is not None:
            regs[k.R_SHUFFLE] = 1
            regs[k.R_SEED] = rng.getrandbits(31)
        if keep:
            rows = max(SOLUTION_ROWS, 2 * self.column + 2)
            self.solutions = self.np.zeros((rows, self.solutions.shape[1]), self.np.int32)

    def _call(self) -> None:
        self.kernel.walk(
            self.regs,
            self.frames,
            self.live,
            self.items,
            self.sizes,
            self.order,
            self.keys,
            self.item_masks,
            self.bands,
            self.compatible,
            self.covers,
            self.root_weights,
            self.memo,
            self.solutions,
            self.recent,
        )

    def run(
        self, monitor: Monitor, decode: Callable[[list[int]], list[int]]
    ) -> tuple[str, list[list[int]]]:
        """Walk to the end, a limit, a stop asked by the monitor or an overflow: the outcome
        ("done", "limit", "cancelled", "overflow") and the solutions kept, decoded."""
        k = self.kernel
        regs = self.regs
        kept: list[list[int]] = []
        calls = 0
        while True:
            regs[k.R_WANT_RECENT] = int(monitor.wants_recent)
            self._call()
            calls += 1
            if calls >= EARLY_CHECKS:
                regs[k.R_QUOTA] = min(2 * regs[k.R_QUOTA], self.quota)
            status = int(regs[k.R_STATUS])
            if regs[k.R_SOLUTIONS]:
                rows = self.solutions[: regs[k.R_SOLUTIONS]]
                kept.extend(decode(row[1 : 1 + row[0]].tolist()) for row in rows)
                regs[k.R_SOLUTIONS] = 0
            if regs[k.R_RECENT_LEN] >= 0:
                monitor.found(decode(self.recent[1 : 1 + regs[k.R_RECENT_LEN]].tolist()))
                regs[k.R_RECENT_LEN] = -1
            if status == k.STATUS_DONE:
                return "done", kept
            if status == k.STATUS_LIMIT:
                return "limit", kept
            if status == k.STATUS_OVERFLOW:
                return "overflow", kept
            if status == k.STATUS_GROW:
                slots = 2 * self.memo.shape[0]
                if budget.fits(self.allocated() + slots * 8 * (self.keys.shape[1] + 1)):
                    self._table(slots)
                else:
                    regs[k.R_MEMO_CAP] = regs[k.R_MEMO_LEN]  # the memo stops growing here
                continue
            if status == k.STATUS_QUOTA:
                depth = int(regs[k.R_DEPTH])
                index_at = self.frames[: depth + 1, k.F_INDEX].tolist()
                size_at = self.frames[: depth + 1, k.F_SIZE].tolist()
                progress = partial(fraction_done, index_at, size_at, depth)
                if monitor.check(int(regs[k.R_NODES]), int(regs[k.R_FOUND]), progress):
                    return "cancelled", kept

    def allocated(self) -> int:
        arrays = (
            self.regs,
            self.frames,
            self.live,
            self.items,
            self.sizes,
            self.order,
            self.keys,
            self.item_masks,
            self.compatible,
            self.covers,
            self.memo,
            self.solutions,
        )
        return sum(int(array.nbytes) for array in arrays)

    def stat(self, register: str) -> int:
        return int(self.regs[getattr(self.kernel, register)])


def _rows(np: Any, masks: Sequence[int], words: int) -> Any:
    """Python-int masks as rows of uint64 words (one row of zeros for no masks)."""
    if not masks:
        return np.zeros((1, words), np.uint64)
    data = b"".join(mask.to_bytes(8 * words, "little") for mask in masks)
    return np.frombuffer(data, dtype="<u8").astype(np.uint64).reshape(len(masks), words)


def fits(primary: int, items: int, options: int, smallest_cover: int, root: Sequence[int]) -> bool:
    """Whether the kernel's arrays fit in the budget (else the pure walk runs)."""
    column = max((mask.bit_count() for mask in root), default=0)
    return budget.fits(kernel_bytes(primary, items, options, smallest_cover, column))


def count(
    root: Sequence[int],
    compatible_at: Sequence[int],
    covers_at: Sequence[int],
    smallest_cover: int,
    items: int,
    monitor: Monitor,
    decode: Callable[[list[int]], list[int]],
    *,
    memo: tuple[int, int, int, int, int, int] | None = None,
    orbits: Sequence[tuple[int, int]] | None = None,
    sweep: bool = False,
) -> SearchResult[list[int]] | None:
    """Count every exact cover below ``root`` (the live masks of the primary items): the pure
    whole count's tree, with ``memo`` = (cap, strike depth, strike subtree, min hit share, min
    saved quarters, hit probe) ``memo.count``'s, with ``orbits`` (bit position, weight) its
    root; ``sweep``: branch on the first uncovered item in ``root``'s order, not MRV's.
    ``decode``: bit positions to the solution a monitor's recent solutions show. None when the
    arrays do not fit or the count passes 2**63 (the caller counts in Python)."""
    primary = len(root)
    if not fits(primary, items, len(compatible_at), smallest_cover, root):
        return None
    kernel = _kernel()
    walk = Walk(kernel, root, compatible_at, covers_at, smallest_cover, items)
    if memo is not None:
        walk.use_memo(*memo)
    if orbits is not None:
        walk.use_orbits(orbits)
    walk.regs[kernel.R_SWEEP] = int(sweep)
    outcome, _ = walk.run(monitor, decode)
    if outcome == "overflow":
        return None
    cancelled = outcome == "cancelled"
    nodes = walk.stat("R_NODES")
    total = walk.stat("R_FOUND") if cancelled else walk.stat("R_TOTAL")
    monitor.finish(nodes, total, not cancelled)
    stats: dict[str, Any] = {"nodes": nodes}
    if memo is not None:
        stats["memo_hits"] = walk.stat("R_HITS")
        stats["memo_entries"] = walk.stat("R_MEMO_LEN")
        stats["options_struck"] = walk.stat("R_STRUCK")
    else:
        stats["mask_ops"] = walk.stat("R_MASK_OPS")
    stats.update(kernel=KERNEL, **_jit_stats())
    return SearchResult(count=total, complete=not cancelled, cancelled=cancelled, stats=stats)


def search(
    root: Sequence[int],
    compatible: Sequence[int],
    smallest_cover: int,
    items: int,
    monitor: Monitor,
    *,
    limit: int | None,
    keep_solutions: bool,
    max_kept: int | None,
    rng: random.Random | None,
) -> SearchResult[list[int]] | None:
    """``bitset.search`` with masks whose bit positions are the option indices: solutions in
    option order (or shuffled by numba's generator, seeded from ``rng``), up to ``limit``;
    None when the arrays do not fit (the caller searches in Python)."""
    primary = len(root)
    if not fits(primary, items, len(compatible), smallest_cover, root):
        return None
    kernel = _kernel()
    walk = Walk(kernel, root, compatible, [], smallest_cover, items)
    walk.use_search(limit, keep_solutions, max_kept, rng)
    outcome, solutions = walk.run(monitor, lambda positions: positions)
    if outcome == "overflow":
        return None
    cancelled = outcome == "cancelled"
    complete = outcome == "done"
    nodes = walk.stat("R_NODES")
    found = walk.stat("R_FOUND")
    monitor.finish(nodes, found, complete)
    stats: dict[str, Any] = {"nodes": nodes, "mask_ops": walk.stat("R_MASK_OPS"), "kernel": KERNEL}
    stats.update(_jit_stats())
    return SearchResult(
        solutions=solutions, count=found, complete=complete, cancelled=cancelled, stats=stats
    )
