"""Knuth's estimate of an exact cover search tree, by random paths, before any search.

A *probe* walks from the root down to a leaf. At each node it makes every child, so it knows
which of the ``d`` branches are dead ends (they leave some primary item without options: leaves
of the tree, counted and never entered) and which ``live`` ones go on; it takes one live branch
uniformly at random. With ``W`` the product of the live counts on the path so far, a node adds
``W * (1 + dead)`` to the probe's node estimate (itself and its dead branches) and a solution
leaf adds ``W`` to its solution estimate. Both are unbiased: their means over many probes tend
to the true totals (Knuth, "Estimating the efficiency of backtrack programs", 1975; taking only
live branches looks one step ahead, which removes the variance of probes that die at a dead end
their parent could see).

On trees as lopsided as a tiling's, solutions are rare events on a random path (on 6x10
pentominoes one probe in a hundred ends in one, its weight anywhere from 7,000 to 3,000,000), so
the plain estimate of solutions spreads by a factor of 4 over seeds at 1,000 probes. Most of
that spread is made in the lower half of the tree (searching the top levels in full did not
narrow it), and there many subtrees are small: so a probe that has covered half the primary
items counts the subtree below it exactly when that subtree has at most
``SMALL_SUBTREE_NODES`` nodes (a search of it that stops once it passes that many), adding ``W``
times its nodes and solutions, and goes on at random only below bigger ones. Whether a subtree
is counted depends on the node alone, never on the probe's chances, so the estimate stays
unbiased (in the spirit of Purdom's "partial backtracking", 1978, which searches more than one
branch of some nodes). A probe then costs a few dozen nodes instead of a dozen, and the spread
of solutions over seeds falls below a factor of 1.5 on 6x10 (``bench/bench_estimate.py``).

The trees are the engines' own, node for node:

- ``dlx`` and ``bitset`` walk one tree: Algorithm X branching on the first primary item with the
  fewest live options (MRV), every branch a node (the root too, a dead end too: a branch that
  leaves some other primary item without options is counted and not entered).
- ``singles`` chooses every forced option (the last one of some item) before it branches and
  counts no node for it; its nodes are the branches only (not the root).
- ``locked`` walks ``singles``' tree with locked candidates struck between the singles
  (``_Matrix.locked_strikes``, the rule of ``cover.locked_strikes`` on masks).

A node here is the list, in item order, of the masks of the live options of the primary items
not yet covered (bit ``o`` for option ``o``), as in ``bitset``; choosing option ``o`` ANDs each
with the options compatible with ``o``. Those are found on demand from per-item masks (and,
with colours, per (item, colour) masks) and kept: a probe chooses a few dozen options, and
the matrix of all pairwise compatibilities ``bitset`` builds would be quadratic in the options.

Bounded: every ``choose`` passes the request's cancel hook (a probe on an empty 25x25 Sudoku
walks hundreds of levels of thousands of masks, seconds; a cancelled probe is dropped, the
estimate is over the probes done), a path holds one node and its live options, never the masks
of every child, and the exact count of a subtree gives up (the subtree counts as big) when its
stack of waiting nodes would pass 1/``SMALL_SUBTREE_BUDGET_SHARE`` of the memory budget, a rule
of the node alone like the node cap.

Reproducible: a probe's only source of chance is the ``random.Random`` it is given, so the same
seed gives the same estimate in every process and on every machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import partial

from pysolver import budget
from pysolver.engines.cover import LOCKED_MOST, ExactCoverProblem, tree_of
from pysolver.engines.monitor import Cancelled, Monitor, entries_work

# The engines whose trees a probe follows; True where forced options are taken before branching.
FORCES_SINGLES = {"dlx": False, "bitset": False, "singles": True, "locked": True}
ENGINES = tuple(FORCES_SINGLES)
# How many of the items with the fewest options a branch is first checked against (``children``).
TIGHTEST_ITEMS = 6
# A probe counts a subtree exactly when it has at most this many nodes, once at most
# ``SMALL_SUBTREE_SHARE`` of the primary items remain uncovered (tried nearer the root, the
# search would nearly always pass the cap, its work wasted). Measured on 6x10 pentominoes at one
# CPU second: 300 nodes below a third of the items left the spread of solutions near the plain
# probes' (a factor of 3.5); 1,000 below a half narrowed it to 1.5x (and on the 8x8 board with
# the square to 1.9x in two seconds); 3,000 below 0.6 cost more than it narrowed.
SMALL_SUBTREE_NODES = 1000
SMALL_SUBTREE_SHARE = 0.5
# The masks a subtree's exact count may hold on its stack: 1/8 of the memory budget (64 MB in
# CPython; an empty 25x25 Sudoku's nodes hold 2,500 masks of 2 KB, 5 MB each).
SMALL_SUBTREE_BUDGET_SHARE = 8


@dataclass
class TreeEstimate:
    """The summed estimates of ``probes`` random paths (their means are the estimate)."""

    # Sums over the probes of each probe's estimate: exact integers, so a mean of 10^30 nodes
    # loses nothing.
    nodes_sum: int = 0
    solutions_sum: int = 0
    probes: int = 0
    # Nodes the probes themselves visited (their work, exact subtree counts included).
    visited: int = 0
    # True when the monitor's cancel hook stopped the probes before all were taken.
    cancelled: bool = False

    @property
    def mean_nodes(self) -> Fraction:
        """The estimated node count: the mean over the probes (0 without one)."""
        return Fraction(self.nodes_sum, self.probes or 1)

    @property
    def mean_solutions(self) -> Fraction:
        """The estimated solution count: the mean over the probes (0 without one)."""
        return Fraction(self.solutions_sum, self.probes or 1)


def mask_bytes(options: int) -> int:
    """One mask of ``options`` bits, held in a list or dict slot."""
    return budget.INT_BYTES + options // 8 + 2 * budget.POINTER_BYTES


def estimated_bytes(problem: ExactCoverProblem) -> int:
    """What the probes allocate besides the remembered conflicts (a quarter of the budget at
    most) and a small subtree's stack (``SMALL_SUBTREE_BUDGET_SHARE``): a mask per item, and
    the few nodes a path holds at once (the node, the child being tried, the one kept), with
    the bytes of the per-item masks while they are built."""
    per_mask = mask_bytes(len(problem.options))
    return 2 * problem.items * per_mask + 3 * problem.primary * per_mask


class _Matrix:
    """The masks a probe works with: per item, its options; per option, on demand, the options
    it conflicts with (sharing a primary item or an uncoloured secondary one, or giving a
    shared secondary item another colour; itself included)."""

    def __init__(self, problem: ExactCoverProblem, monitor: Monitor, locked: bool = False) -> None:
        self.problem = problem
        # Asked at every ``choose`` (see the module docstring): raises ``Cancelled``.
        self.monitor = monitor
        # With singles, also strike locked candidates (the ``locked`` engine's tree).
        self.locked = locked
        self.mask_bytes = mask_bytes(len(problem.options))
        # How many masks a small subtree's stack may hold (SMALL_SUBTREE_BUDGET_SHARE).
        self.stack_room = budget.budget_bytes() // SMALL_SUBTREE_BUDGET_SHARE // self.mask_bytes
        byte_count = (len(problem.options) + 7) // 8
        item_bytes = [bytearray(byte_count) for _ in range(problem.items)]
        colour_bytes: dict[tuple[int, int], bytearray] = {}
        colours = problem.colours
        for option, items in enumerate(problem.options):
            monitor.checkpoint()
            byte, bit = divmod(option, 8)
            for position, item in enumerate(items):
                item_bytes[item][byte] |= 1 << bit
                colour = colours[option][position] if colours is not None else 0
                if colour:
                    data = colour_bytes.get((item, colour))
                    if data is None:
                        data = colour_bytes[item, colour] = bytearray(byte_count)
                    data[byte] |= 1 << bit
        self.item_masks = [int.from_bytes(data, "little") for data in item_bytes]
        self.same_colour = {
            key: int.from_bytes(data, "little") for key, data in colour_bytes.items()
        }
        # Per option, how many primary items it covers (the masks that drop to 0 when chosen).
        self.cover_size = [
            sum(item < problem.primary for item in items) for items in problem.options
        ]
        self._conflicts: dict[int, int] = {}
        # Remembered conflict masks take at most a quarter of the memory budget.
        self._room = budget.budget_bytes() // 4 // mask_bytes(len(problem.options))

    def conflicts(self, option: int) -> int:
        """The mask of the options ``option`` excludes (remembered once asked for)."""
        mask = self._conflicts.get(option)
        if mask is None:
            mask = 0
            items = self.problem.options[option]
            colours = self.problem.colours
            for position, item in enumerate(items):
                colour = colours[option][position] if colours is not None else 0
                if colour:
                    mask |= self.item_masks[item] & ~self.same_colour[item, colour]
                else:
                    mask |= self.item_masks[item]
            if len(self._conflicts) < self._room:
                self._conflicts[option] = mask
        return mask

    def choose(self, rest: list[int], option: int) -> list[int] | None:
        """The node below ``rest`` after choosing ``option``, or None when that leaves some
        primary item without options (a dead end)."""
        self.monitor.checkpoint(entries_work(len(rest)))
        child = list(filter(None, map((~self.conflicts(option)).__and__, rest)))
        if len(child) != len(rest) - self.cover_size[option]:
            return None
        return child

    def children(self, rest: list[int], candidates: int, singles: bool) -> list[list[int]]:
        """The live children of the node ``rest`` branching on the options of ``candidates``
        (in option order); ``singles``: each with its forced options taken."""
        return [child for _option, child in self._live(rest, candidates, singles)]

    def live_options(self, rest: list[int], candidates: int, singles: bool) -> list[int]:
        """The options of ``children``, without keeping those children: a path keeps one
        (``child``)."""
        return [option for option, _child in self._live(rest, candidates, singles)]

    def _live(
        self, rest: list[int], candidates: int, singles: bool
    ) -> Iterator[tuple[int, list[int]]]:
        """The live branches of ``rest`` on ``candidates``: (option, child), in option order.

        Most branches are dead ends, and nearly always one of the items with the fewest
        options is what they leave empty (as in ``bitset``): those are tried first, keeping
        the option's own bit so that the items it covers do not look empty."""
        tightest = sorted(rest, key=int.bit_count)[:TIGHTEST_ITEMS]
        while candidates:
            low = candidates & -candidates
            candidates ^= low
            option = low.bit_length() - 1
            if not all(map((~self.conflicts(option) | low).__and__, tightest)):
                continue
            child = self.choose(rest, option)
            if child is not None and singles:
                child = self.force_singles(child)
            if child is not None:
                yield option, child

    def child(self, rest: list[int], option: int, singles: bool) -> list[int]:
        """The child of ``rest`` by ``option``, one of its ``live_options``."""
        child = self.choose(rest, option)
        if child is not None and singles:
            child = self.force_singles(child)
        assert child is not None, "a live option's child is live"
        return child

    def force_singles(self, rest: list[int]) -> list[int] | None:
        """Choose every option that is the last one of some item, to the fixpoint (the
        ``singles`` engine's rule; the fixpoint does not depend on the order); None when an
        item is left without options."""
        while True:
            forced = 0
            for live in rest:
                if not live & (live - 1):  # one option left
                    forced |= live
            if not forced:
                struck = self.locked_strikes(rest) if self.locked else 0
                if not any(map(struck.__and__, rest)):  # only options already dead, or none
                    return rest
                rest = [live & ~struck for live in rest]
                if not all(rest):
                    return None
                continue
            while forced:
                low = forced & -forced
                forced ^= low
                # Two forced options in conflict: choosing the first left the item of the
                # other without options, and ``choose`` returned None then.
                child = self.choose(rest, low.bit_length() - 1)
                if child is None:
                    return None
                rest = child

    def locked_strikes(self, rest: list[int]) -> int:
        """The options one round of locked candidates rules out at the node ``rest`` (as
        ``cover.locked_strikes``): when every live option of an item (one with 2 ..
        ``LOCKED_MOST``) covers a primary item ``t``, ``t``'s options outside them. Which options
        cover ``t`` does not change along a path, so ``t``'s mask in the whole matrix tells
        both (its dead options are struck again, which changes nothing); ``t`` is an item of
        every live option, so of the first."""
        primary = self.problem.primary
        options = self.problem.options
        item_masks = self.item_masks
        struck = 0
        for live in rest:
            if 2 <= live.bit_count() <= LOCKED_MOST:
                first = (live & -live).bit_length() - 1
                for item in options[first]:
                    if item < primary:
                        mask = item_masks[item]
                        if live & mask == live:
                            struck |= mask & ~live
        return struck

    def small_subtree(
        self, rest: list[int], singles: bool, most: int
    ) -> tuple[int, int, int] | None:
        """The exact (nodes, solutions) of the X tree below ``rest``, counting ``rest`` itself,
        with the nodes searched to count them; None when that search passes ``most`` nodes, or
        its stack ``stack_room`` masks (the subtree is not small). Depth first with an explicit
        stack, as the engines search."""
        bit_count = int.bit_count
        nodes = solutions = searched = 0
        stack = [rest]
        held = len(rest)  # masks on the stack
        room = self.stack_room
        while stack:
            node = stack.pop()
            held -= len(node)
            if not node:
                nodes += 1
                solutions += 1
                continue
            searched += 1
            if searched > most:
                return None
            candidates = min(node, key=bit_count)
            children = self.children(node, candidates, singles)
            nodes += 1 + bit_count(candidates) - len(children)
            held += sum(map(len, children))
            if held > room:
                return None
            stack.extend(children)
        return nodes, solutions, searched


def probe_tree(
    problem: ExactCoverProblem,
    engine: str,
    probes: int,
    rng: random.Random,
    monitor: Monitor | None = None,
    *,
    progress: Callable[[int], float] | None = None,
    small_subtree_nodes: int = SMALL_SUBTREE_NODES,
) -> TreeEstimate:
    """``probes`` random paths through the search tree ``engine`` walks on ``problem``.

    small_subtree_nodes: subtrees of at most this many nodes, met once at most
    ``SMALL_SUBTREE_SHARE`` of the primary items remain, are counted exactly (0: never).

    monitor: progress reports (nodes the probes visited; ``progress(done)`` maps the probes
    done to the share of the request done, after every probe) and cancel, asked at every
    ``choose`` too; a cancel ends the probes early, the estimate then over those done (a probe
    cut short is dropped: its path is not a random path's).
    """
    monitor = monitor or Monitor()
    budget.check(
        estimated_bytes(problem)
        + budget.budget_bytes() // 4
        + budget.budget_bytes() // SMALL_SUBTREE_BUDGET_SHARE,
        f"the estimate's masks ({problem.items:,} items of {len(problem.options):,} options)",
        "make the puzzle smaller (fewer options), or count it",
    )
    estimate = TreeEstimate()
    try:
        _probe_paths(problem, engine, probes, rng, monitor, estimate, progress, small_subtree_nodes)
    except Cancelled:
        estimate.cancelled = True
    return estimate


def _probe_paths(
    problem: ExactCoverProblem,
    engine: str,
    probes: int,
    rng: random.Random,
    monitor: Monitor,
    estimate: TreeEstimate,
    progress: Callable[[int], float] | None,
    small_subtree_nodes: int,
) -> None:
    """``probe_tree``'s probes, summed into ``estimate`` as each ends; raises ``Cancelled``
    when the monitor's cancel hook asks mid-probe."""
    singles = FORCES_SINGLES[engine]
    matrix = _Matrix(problem, monitor, tree_of(engine)["locked"])
    root: list[int] | None = matrix.item_masks[: problem.primary]
    if root is not None and not all(root):
        root = None  # an item without options: the root is a dead end
    if root is not None and singles:
        root = matrix.force_singles(root)
    # The X tree counts its root as a node; the singles tree counts its branches only.
    uncounted_root = 1 if singles else 0
    bit_count = int.bit_count
    randrange = rng.randrange
    # Every probe starts at the root: its live options are found once.
    root_options = (
        None if not root else matrix.live_options(root, min(root, key=bit_count), singles)
    )
    # Nodes with at most this many primary items left are counted exactly when small.
    small_from = int(problem.primary * SMALL_SUBTREE_SHARE) if small_subtree_nodes else -1
    for done in range(probes):
        # The nodes of the X tree: 1 for the node, 1 per dead branch, then its live children's
        # subtrees, estimated by the one taken times ``width``.
        nodes = solutions = 0
        width = 1  # the product of the live branch counts on the path so far
        rest = root
        if rest is None:
            nodes = 1
        while rest is not None:
            if not rest:
                nodes += width
                solutions += width
                break
            if len(rest) <= small_from:
                counted = matrix.small_subtree(rest, singles, small_subtree_nodes)
                if counted is not None:
                    nodes += width * counted[0]
                    solutions += width * counted[1]
                    estimate.visited += counted[2]
                    break
                estimate.visited += small_subtree_nodes
            candidates = min(rest, key=bit_count)  # MRV: the first such item on ties
            if rest is root and root_options is not None:
                live = root_options
            else:
                live = matrix.live_options(rest, candidates, singles)
            estimate.visited += 1
            nodes += width * (1 + bit_count(candidates) - len(live))
            if not live:
                break
            width *= len(live)
            rest = matrix.child(rest, live[randrange(len(live))], singles)
        # Summed only now: a probe cut short by a cancel (``Cancelled``) adds nothing.
        estimate.nodes_sum += nodes - uncounted_root
        estimate.solutions_sum += solutions
        estimate.probes = done + 1
        share = progress(done + 1) if progress is not None else (done + 1) / probes
        if monitor.check(estimate.visited, 0, partial(float, share)):
            estimate.cancelled = True
            break
