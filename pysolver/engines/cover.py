"""The exact cover family: the problem shared by the ``dlx``, ``bitset`` and ``singles``
engines, and the table from their names to their modules.

Items are integers: ``0 .. primary-1`` are primary (covered exactly once), ``primary ..
primary+secondary-1`` are secondary (covered at most once). Each option is a list of distinct
item integers. Every engine of the family has ``search(problem, *, limit, keep_solutions,
max_kept, rng, monitor) -> SearchResult`` and gives the same counts and solution sets; a
solution is the sorted list of chosen option indices.

Knuth's colours (XCC, his DLX2): an option may give a secondary item a colour, and then any
number of chosen options may share that item as long as they all give it the same colour; an
option using the item uncoloured still excludes every other use of it. Equivalently, two
options are compatible when they share no primary item and every secondary item they share is
coloured, with the same colour, in both. Colours are positive integers in ``colours``, a list
parallel to ``options`` (0 = uncoloured); a problem without colours leaves it None, and the
engines then take their plain code paths and pay nothing for the feature.

Knuth's multiplicities (MCC, his DLX3): ``multiplicities[i] = (u, v)`` asks primary item ``i`` to
be covered by at least ``u`` and at most ``v`` of the chosen options (0 <= u <= v, v >= 1); a
problem whose items are all covered exactly once leaves it None. A solution is still a set of
options (each chosen at most once), and the engines that take multiplicities (``bitset`` and
``dlx``, on the same Algorithm M tree) find every such set exactly once. The others refuse
them (``MULTIPLICITY_ENGINES``).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any, TypedDict

from pysolver.engines.monitor import Monitor, SearchResult, entries_work
from pysolver.engines.subtree import (
    MOST_FLOOR,
    MOST_PER_WANTED,
    InvalidPath,
    Split,
    split_tree,
)
from pysolver.protocol import shown

# The family's engines: name -> module. Each imports ``ExactCoverProblem`` from here, so they
# are imported on first use (``engine_modules``) rather than at the top of this module.
_MODULES = {
    "dlx": "pysolver.engines.dlx",
    "bitset": "pysolver.engines.bitset",
    "singles": "pysolver.engines.singles",
    "locked": "pysolver.engines.locked",
    "memo": "pysolver.engines.memo",
}
ENGINES = tuple(_MODULES)
# The engines that take forced options (singles) before every branch, and of those the one
# that also applies locked candidates (``locked_strikes``): their trees, which ``split``,
# ``reduce``, the trace and the estimate walk too (``tree_of``).
SINGLES_ENGINES = ("singles", "locked")
LOCKED_ENGINES = ("locked",)
# Locked candidates look at items with at most this many live options. Measured on top95
# (proved unique, ``locked`` engine): 2 visits 4,018 nodes and 3 visits 3,790, but 3 looks at
# twice the items and costs more time than it saves.
LOCKED_MOST = 2
# The engines that search with multiplicities (Knuth's Algorithm M, on masks or on links); the
# others refuse them. The first is the default for them: bitset walks Algorithm M's tree
# 1.1-11x faster than dlx (pentomino boards 11x, queens 1.1x; docs/kinds.md, "Multiplicities").
MULTIPLICITY_ENGINES = ("bitset", "dlx")

# Documented cap on matrix size: the total number of (option, item) entries. Above this the
# matrix alone would take hundreds of MB in a browser tab.
MAX_ENTRIES = 2_000_000


@dataclass
class ExactCoverProblem:
    primary: int
    secondary: int
    options: list[list[int]]
    # Per option, per entry: the colour given to that item (0 = none); None when uncoloured.
    colours: list[list[int]] | None = None
    # Where items ``0 .. len(item_cells)-1`` lie on a square grid, when they are the cells of a
    # board (a tiling): a hint with which the ``memo`` engine finds the matrix's symmetries.
    # It never changes an answer (the engine checks every symmetry on the matrix itself).
    item_cells: list[tuple[int, int]] | None = None
    # Per primary item, (u, v): covered at least u and at most v times; None: all exactly once.
    multiplicities: list[tuple[int, int]] | None = None

    def __post_init__(self) -> None:
        if self.multiplicities is not None:
            if len(self.multiplicities) != self.primary:
                raise ValueError("multiplicities must have one (u, v) pair per primary item")
            for item, (low, high) in enumerate(self.multiplicities):
                if not 0 <= low <= high or high < 1:
                    raise ValueError(
                        f"item {item}: multiplicity ({low}, {high}) needs 0 <= u <= v and v >= 1"
                    )
        if self.colours is None:
            return
        if len(self.colours) != len(self.options):
            raise ValueError("colours must have one list per option")
        for index, (option, colours) in enumerate(zip(self.options, self.colours, strict=True)):
            if len(colours) != len(option):
                raise ValueError(f"option {index}: one colour per item is needed (0 = none)")
            for item, colour in zip(option, colours, strict=True):
                if colour < 0 or (colour and item < self.primary):
                    raise ValueError(
                        f"option {index}: colour {colour} on item {item}; colours are "
                        "positive and only secondary items can have one"
                    )

    @property
    def items(self) -> int:
        return self.primary + self.secondary


def engine_modules(*names: str) -> dict[str, ModuleType]:
    """The family's engine table for ``names`` (all when none), in that order: a kind's table.

    Raises ``ValueError`` for a name that is not an exact cover engine.
    """
    unknown = [name for name in names if name not in _MODULES]
    if unknown:
        raise ValueError(f"unknown exact cover engine {unknown[0]!r}; known: {', '.join(ENGINES)}")
    return {name: _engine_module(name) for name in names or ENGINES}


def _module_of(engine: str) -> ModuleType:
    """``engine``'s module; ``ValueError`` (as ``engine_modules``) for an unknown name."""
    if engine not in _MODULES:
        engine_modules(engine)  # raises, naming the known engines
    return _engine_module(engine)


@cache
def _engine_module(name: str) -> ModuleType:
    """The module of a known engine, imported once: ``search`` and ``estimated_bytes`` ask on
    every request, and ``import_module`` was a few microseconds of a Sudoku's overhead."""
    return importlib.import_module(_MODULES[name])


class Tree(TypedDict):
    """The keyword arguments that make ``split``, ``reduce``, ``search_subtree`` and the trace
    walk an engine's tree."""

    singles: bool
    locked: bool


def tree_of(engine: str) -> Tree:
    """The ``Tree`` arguments of ``engine``'s search tree."""
    return {"singles": engine in SINGLES_ENGINES, "locked": engine in LOCKED_ENGINES}


def locked_strikes(live: dict[int, list[int]], options: list[list[int]]) -> set[int]:
    """One round of locked candidates (the ``locked`` engine's rule, applied there by
    ``pysolver.engines.singles._lock``) on a node given as the live options of each uncovered
    primary item: the options it rules out.

    When every live option of an item ``a`` (one with 2 .. ``LOCKED_MOST`` of them) also
    covers a primary item ``b`` with more options, ``b``'s options that do not cover ``a``
    are ruled out. A round's strikes are all valid at once (a strike stays valid when other
    options die), and the rule and singles only remove options, so repeating rounds with
    singles between them reaches the engine's fixpoint, whatever the order.
    """
    struck: set[int] = set()
    for item, mine in live.items():
        if not 2 <= len(mine) <= LOCKED_MOST:
            continue
        shared = set(options[mine[0]]).intersection(*(options[o] for o in mine[1:]))
        for other in shared:
            theirs = live.get(other)
            if theirs is not None and len(theirs) > len(mine):
                struck.update(o for o in theirs if item not in options[o])
    return struck


def estimated_bytes(problem: ExactCoverProblem, engine: str) -> int:
    """What the named engine would allocate for ``problem`` (its ``estimated_bytes``)."""
    return int(_module_of(engine).estimated_bytes(problem))


def search(
    problem: ExactCoverProblem,
    engine: str = "dlx",
    *,
    limit: int | None = None,
    keep_solutions: bool = True,
    max_kept: int | None = None,
    rng: random.Random | None = None,
    monitor: Monitor | None = None,
    path: list[int] | None = None,
) -> SearchResult[list[int]]:
    """Run Algorithm X on ``problem`` with the named engine.

    limit: stop after this many solutions (None: explore everything).
    keep_solutions: False to only count (count mode), True to return the solutions found.
    max_kept: keep at most this many solutions; the search goes on counting past them (the
    response's listing cap, ``pysolver.budget.listed_cap``).
    rng: when given, options within each branch are tried in an order shuffled by it.
    monitor: progress reports and cancellation (see ``pysolver.engines.monitor``).
    path: search only the subtree below these branch choices (see ``split``); solutions are
    still in the indices of ``problem``.
    """
    if problem.multiplicities is not None and engine not in MULTIPLICITY_ENGINES:
        raise ValueError(
            f"the {engine} engine does not take multiplicities; use "
            f"{' or '.join(MULTIPLICITY_ENGINES)}"
        )
    if path is not None:
        if engine == "memo" and _memo_tasks().counts_whole(
            problem, limit, keep_solutions, rng is not None
        ):
            # A task of the memo count's own split (``split_for``): its tree, its memo.
            below: SearchResult[list[int]] = _memo_tasks().count_below(
                problem, path, monitor or Monitor()
            )
            return below
        return search_subtree(
            problem,
            path,
            lambda sub: search(
                sub,
                engine,
                limit=limit,
                keep_solutions=keep_solutions,
                max_kept=max_kept,
                rng=rng,
                monitor=monitor,
            ),
            **tree_of(engine),
            monitor=monitor,
        )
    if engine == "memo" and limit is None and not keep_solutions and rng is None:
        levels = _by_levels(problem, monitor or Monitor())
        if levels is not None:
            return levels
    module = _module_of(engine)
    result: SearchResult[list[int]] = module.search(
        problem,
        limit=limit,
        keep_solutions=keep_solutions,
        max_kept=max_kept,
        rng=rng,
        monitor=monitor or Monitor(),
    )
    return result


# ---------------------------------------------------------------- subtrees (parallel search)


@dataclass
class _Node:
    """A node of the search tree seen from outside the engines: what is chosen and what is left.

    ``live``: the options compatible with every choice, in option order (the order in which
    the engines keep them). ``covered``: the items no further option may use (primary items,
    and secondary items chosen uncoloured). ``colour_of``: the secondary items the choices gave
    a colour; a further option may use such an item only with that colour. ``chosen``: the
    options chosen so far, branch choices and (with singles) forced ones.
    """

    live: list[int]
    covered: set[int]
    colour_of: dict[int, int]
    chosen: list[int]


def _fits(problem: ExactCoverProblem, node: _Node, option: int) -> bool:
    """Whether ``option`` is compatible with every choice of ``node`` (colours included)."""
    items = problem.options[option]
    if problem.colours is None:
        return node.covered.isdisjoint(items)
    for item, colour in zip(items, problem.colours[option], strict=True):
        if item in node.covered:
            return False
        # An uncoloured use (0) or another colour of an item already coloured conflicts.
        if item in node.colour_of and node.colour_of[item] != colour:
            return False
    return True


def _choose(problem: ExactCoverProblem, node: _Node, option: int, monitor: Monitor) -> _Node:
    covered = set(node.covered)
    colour_of = dict(node.colour_of)
    items = problem.options[option]
    colours = problem.colours[option] if problem.colours is not None else [0] * len(items)
    for item, colour in zip(items, colours, strict=True):
        if colour:
            colour_of[item] = colour
        else:
            covered.add(item)
    child = _Node([], covered, colour_of, [*node.chosen, option])
    # Work in entries: on 2M entries a child takes a good part of a second.
    for other in node.live:
        monitor.checkpoint(entries_work(len(problem.options[other])))
        if _fits(problem, child, other):
            child.live.append(other)
    return child


def _live_counts(problem: ExactCoverProblem, node: _Node, monitor: Monitor) -> dict[int, int]:
    """Per uncovered primary item, how many live options contain it."""
    counts = {item: 0 for item in range(problem.primary) if item not in node.covered}
    for option in node.live:
        monitor.checkpoint(entries_work(len(problem.options[option])))
        for item in problem.options[option]:
            if item in counts:
                counts[item] += 1
    return counts


def _force_singles(
    problem: ExactCoverProblem, node: _Node, locked: bool, monitor: Monitor
) -> _Node | None:
    """Choose every option that is the last one of some item (the ``singles`` engine's rule)
    and, with ``locked``, strike what locked candidates rule out (``locked_strikes``), to the
    fixpoint; None when an item is left without options. The fixpoint does not depend on the
    order."""
    while True:
        counts = _live_counts(problem, node, monitor)
        if any(count == 0 for count in counts.values()):
            return None
        singles = {item for item, count in counts.items() if count == 1}
        if not singles:
            if not locked or not counts:
                return node
            live: dict[int, list[int]] = {item: [] for item in counts}
            for option in node.live:
                for item in problem.options[option]:
                    if item in live:
                        live[item].append(option)
            struck = locked_strikes(live, problem.options)
            if not struck:
                return node
            kept = [option for option in node.live if option not in struck]
            node = _Node(kept, node.covered, node.colour_of, node.chosen)
            continue
        # Take every forced option of this round at once (a round per propagation step, not
        # per option). Two of them in conflict (sharing an item, or giving one two colours)
        # would leave one item without an option: the dead end the engine meets one at a time.
        forced = [o for o in node.live if not singles.isdisjoint(problem.options[o])]
        for option in forced:
            if option not in node.live:
                return None
            node = _choose(problem, node, option, monitor)


def _branch(
    problem: ExactCoverProblem, node: _Node, monitor: Monitor
) -> tuple[int, list[int]] | None:
    """The item the search branches on at ``node`` and its options in the order tried: MRV,
    the first item on ties, options in option order (``dlx``, ``bitset`` and ``singles``
    agree on both). None at a solution; an empty list at a dead end."""
    counts = _live_counts(problem, node, monitor)
    if not counts:
        return None
    item = min(counts, key=counts.__getitem__)  # dicts keep item order: first on ties
    return item, [o for o in node.live if item in problem.options[o]]


def _root(
    problem: ExactCoverProblem, singles: bool, locked: bool, monitor: Monitor
) -> _Node | None:
    node = _Node(list(range(len(problem.options))), set(), {}, [])
    return _force_singles(problem, node, locked, monitor) if singles else node


def _child(
    problem: ExactCoverProblem,
    node: _Node,
    option: int,
    singles: bool,
    locked: bool,
    monitor: Monitor,
) -> _Node | None:
    child = _choose(problem, node, option, monitor)
    if singles:
        return _force_singles(problem, child, locked, monitor)
    counts = _live_counts(problem, child, monitor)
    return None if any(count == 0 for count in counts.values()) else child


def split(
    problem: ExactCoverProblem,
    wanted: int,
    *,
    singles: bool = False,
    locked: bool = False,
    monitor: Monitor | None = None,
) -> Split:
    """Cut the search tree of ``problem`` into at least ``wanted`` subtrees (fewer when the
    tree is smaller), in search order. A subtree's path is the list of options chosen at the
    branch points. ``singles``: the tree of the ``singles`` engine (forced options are taken
    before every branch and are not part of paths); ``locked``: the ``locked`` engine's (with
    ``singles``). ``monitor``: its checkpoints (one per
    option looked at) raise ``Cancelled`` when the request is cancelled while planning."""
    if problem.multiplicities is not None:
        return _split_multiplicities(problem, wanted)
    monitor = monitor or Monitor()
    most = max(MOST_FLOOR, wanted * MOST_PER_WANTED)

    def children(node: _Node) -> list[tuple[int, _Node | None, float]] | None:
        branch = _branch(problem, node, monitor)
        if branch is None:
            return None
        options = branch[1]
        if len(options) > most:  # too many to cut into tasks: stays whole, children unbuilt
            return None
        return [
            (option, _child(problem, node, option, singles, locked, monitor), 1 / len(options))
            for option in options
        ]

    return split_tree(_root(problem, singles, locked, monitor), children, wanted, monitor)


def split_for(
    problem: ExactCoverProblem,
    engine: str,
    wanted: int,
    *,
    counting: bool,
    monitor: Monitor | None = None,
) -> Split:
    """``split`` of the tree that ``engine`` searches: for a whole count (``counting``: count
    mode without a limit) on the ``memo`` engine, the memo walk's own tree, cut below its root
    orbits (``memo_tasks.split``; its tasks then run on ``memo``); else the family's tree."""
    if engine == "memo" and counting and _memo_tasks().counts_whole(problem, None, False, False):
        memo_split: Split = _memo_tasks().split(problem, wanted, monitor)
        return memo_split
    return split(problem, wanted, monitor=monitor)


def _by_levels(problem: ExactCoverProblem, monitor: Monitor) -> SearchResult[list[int]] | None:
    """A whole memo count on the lanes a parallel runner offers (``memo_levels.offered``),
    when the level count takes the problem; None otherwise (the memo walk counts it)."""
    levels = _memo_levels()
    lanes = levels.offered_lanes()
    if lanes is None or not levels.suits(problem):
        return None
    try:
        counted: SearchResult[list[int]] = levels.count(problem, monitor, lanes)
    except levels.TooWide:
        return None  # the memo walk keeps a capped memo: slower, within the budget
    except levels.LanesLost:
        return None  # the lanes say why (the response's ``parallel.lost_lanes``)
    return counted


@cache
def _memo_levels() -> ModuleType:
    """The memo engine's level count (imported on use, as the engines are: it imports this
    module)."""
    return importlib.import_module("pysolver.engines.memo_levels")


@cache
def _memo_tasks() -> ModuleType:
    """The memo engine's parallel tasks (imported on use, as the engines are: it imports this
    module)."""
    return importlib.import_module("pysolver.engines.memo_tasks")


@dataclass
class Reduction:
    """The subproblem below a path: what is left, and how its options map back."""

    problem: ExactCoverProblem
    # The options chosen on the way down (path, plus forced options with singles).
    chosen: list[int]
    # Per option of ``problem``, its index in the original problem.
    original: list[int]


def reduce(
    problem: ExactCoverProblem,
    path: list[int],
    *,
    singles: bool = False,
    locked: bool = False,
    monitor: Monitor | None = None,
) -> Reduction:
    """Choose the options of ``path`` as the serial search does and return the subproblem.

    Raises ``InvalidPath`` when a step is not a branch the search takes at that point. Items
    and options keep their relative order, so the engines search the subproblem exactly as
    they search that subtree of the whole tree. ``monitor``: cancels the walk down the path
    (``Cancelled``).
    """
    if problem.multiplicities is not None:
        return _reduce_multiplicities(problem, path)
    monitor = monitor or Monitor()
    node = _root(problem, singles, locked, monitor)
    for step, option in enumerate(path):
        if node is None:
            raise InvalidPath(step, "the path goes on below a branch that has no solutions")
        branch = _branch(problem, node, monitor)
        if branch is None:
            raise InvalidPath(step, "the path goes on below a solution")
        item, options = branch
        if option not in options:
            raise InvalidPath(
                step,
                f"option {shown(option)} is not one of the options of item {item}, where "
                f"the search branches at step {step}",
            )
        node = _child(problem, node, option, singles, locked, monitor)
    if node is None:
        # A dead branch: an empty subproblem with one item and no option, so engines find none.
        return Reduction(ExactCoverProblem(1, 0, []), list(path), [])
    primary_left = [item for item in range(problem.primary) if item not in node.covered]
    # A secondary item the choices coloured constrains nothing more: every live option using it
    # gives it that same colour. So it leaves the subproblem, as covered items do.
    secondary_left = [
        item
        for item in range(problem.primary, problem.items)
        if item not in node.covered and item not in node.colour_of
    ]
    number = {item: n for n, item in enumerate(primary_left + secondary_left)}
    sub_options: list[list[int]] = []
    colours: list[list[int]] | None = [] if problem.colours is not None else None
    for option in node.live:
        monitor.checkpoint(entries_work(len(problem.options[option])))
        entries = [k for k, item in enumerate(problem.options[option]) if item in number]
        sub_options.append([number[problem.options[option][k]] for k in entries])
        if colours is not None and problem.colours is not None:
            colours.append([problem.colours[option][k] for k in entries])
    if colours is not None and not any(any(row) for row in colours):
        colours = None  # no colour left: the engines' plain paths
    sub = ExactCoverProblem(len(primary_left), len(secondary_left), sub_options, colours)
    return Reduction(sub, node.chosen, list(node.live))


# ---------------------------------------------------------------- subtrees with multiplicities


@dataclass
class _MultiNode:
    """A node of Algorithm M's tree (``dlx._walk_multiplicities``) seen from outside: as
    ``_Node``, plus ``bound``: per active primary item (not covered, not retired by a null
    branch), in item order, how many more options may cover it."""

    live: list[int]
    covered: set[int]
    colour_of: dict[int, int]
    chosen: list[int]
    bound: dict[int, int]


def _multi_branch(
    problem: ExactCoverProblem, node: _MultiNode
) -> tuple[int, list[int | None]] | None:
    """Algorithm M's choice at ``node`` (its step M3) and the branches it tries (M5): options
    in column order, then None for the null branch when the item's lower bound allows it.
    None at a solution; an empty list at a dead end. The choice is ``dlx``'s M3 rule, which
    the engines write inline for speed (see the comment there)."""
    slack_of = [high - low for low, high in problem.multiplicities or []]
    lengths = dict.fromkeys(node.bound, 0)
    for option in node.live:
        for item in problem.options[option]:
            if item in lengths:
                lengths[item] += 1
    best: tuple[tuple[bool, int, int, int], int] | None = None
    for item, bound in node.bound.items():
        slack = min(slack_of[item], bound)
        length = lengths[item]
        degree = length + slack - bound + 1
        if degree <= 0:
            return -1, []
        if length:
            key = (slack == bound and length <= bound, degree, slack, -length)
            if best is None or key < best[0]:
                best = (key, item)
    if best is None:
        return None
    item = best[1]
    column = [option for option in node.live if item in problem.options[option]]
    bound = node.bound[item] - 1
    slack = slack_of[item]
    if bound == 0 and slack == 0:
        return item, list(column)
    # Tweaking: the j-th option (1-based) is tried while the column still holds more than
    # bound - slack options, and the null branch once it is empty, when bound < slack.
    branches: list[int | None] = [
        option for j, option in enumerate(column, start=1) if len(column) - j + 1 > bound - slack
    ]
    if bound < slack:
        branches.append(None)
    return item, branches


def _multi_child(
    problem: ExactCoverProblem, node: _MultiNode, item: int, branches: list[int | None], k: int
) -> _MultiNode | None:
    """The node below branch ``k`` of ``item``: the earlier options of the level excluded (M's
    tweaks), then the option chosen (its items' bounds lowered, an item at 0 covered) or, for
    the null branch, the item retired. None when the child is a dead end."""
    excluded = {option for option in branches[:k] if option is not None}
    choice = branches[k]
    bound = dict(node.bound)
    covered = set(node.covered)
    colour_of = dict(node.colour_of)
    chosen = list(node.chosen)
    if choice is None:
        del bound[item]
        covered.add(item)
        # Every option of the item was tweaked away before the null branch.
        excluded = {option for option in node.live if item in problem.options[option]}
    else:
        chosen.append(choice)
        colours = problem.colours[choice] if problem.colours is not None else None
        for position, entry in enumerate(problem.options[choice]):
            if entry < problem.primary:
                bound[entry] -= 1
                if not bound[entry]:
                    del bound[entry]
                    covered.add(entry)
            elif colours is not None and colours[position]:
                colour_of[entry] = colours[position]
            else:
                covered.add(entry)
    child = _MultiNode([], covered, colour_of, chosen, bound)
    probe = _Node([], covered, colour_of, chosen)
    child.live = [
        option
        for option in node.live
        if option != choice and option not in excluded and _fits(problem, probe, option)
    ]
    return None if _multi_branch(problem, child) == (-1, []) else child


def _multi_root(problem: ExactCoverProblem) -> _MultiNode:
    bounds = {item: high for item, (_, high) in enumerate(problem.multiplicities or [])}
    return _MultiNode(list(range(len(problem.options))), set(), {}, [], bounds)


def _split_multiplicities(problem: ExactCoverProblem, wanted: int) -> Split:
    """``split`` for Algorithm M's tree: a path step names an option, or is ``[i]`` for the
    null branch of item ``i`` (it takes no more options)."""
    most = max(MOST_FLOOR, wanted * MOST_PER_WANTED)

    def children(
        node: _MultiNode,
    ) -> list[tuple[int | tuple[int], _MultiNode | None, float]] | None:
        branch = _multi_branch(problem, node)
        if branch is None:
            return None
        item, branches = branch
        if len(branches) > most:
            return None
        return [
            (
                (item,) if choice is None else choice,
                _multi_child(problem, node, item, branches, k),
                1 / len(branches),
            )
            for k, choice in enumerate(branches)
        ]

    root = _multi_root(problem)
    result = split_tree(
        None if _multi_branch(problem, root) == (-1, []) else root, children, wanted
    )
    for subtree in result.subtrees:  # JSON has lists, not tuples
        subtree.path = [list(step) if isinstance(step, tuple) else step for step in subtree.path]
    return result


def _reduce_multiplicities(problem: ExactCoverProblem, path: list[Any]) -> Reduction:
    """``reduce`` for Algorithm M's tree: the subproblem keeps the active items with what is
    left of their multiplicities, (max(u - used, 0), v - used), so Algorithm M walks it as the
    subtree of the whole tree."""
    node: _MultiNode | None = _multi_root(problem)
    for step, choice in enumerate(path):
        if node is None:
            raise InvalidPath(step, "the path goes on below a branch that has no solutions")
        branch = _multi_branch(problem, node)
        if branch is None:
            raise InvalidPath(step, "the path goes on below a solution")
        item, branches = branch
        taken = None if choice == [item] else choice
        if isinstance(taken, list) or taken not in branches:
            raise InvalidPath(
                step,
                f"{shown(choice)} is not one of the branches of item {item}, where the search "
                f"branches at step {step} (its options, and [{item}] when it may take no more)",
            )
        node = _multi_child(problem, node, item, branches, branches.index(taken))
    if node is None:
        chosen = [step for step in path if not isinstance(step, list)]
        return Reduction(ExactCoverProblem(1, 0, []), chosen, [])
    multiplicities = problem.multiplicities or []
    primary_left = list(node.bound)
    secondary_left = [
        item
        for item in range(problem.primary, problem.items)
        if item not in node.covered and item not in node.colour_of
    ]
    number = {item: n for n, item in enumerate(primary_left + secondary_left)}
    sub_options: list[list[int]] = []
    colours: list[list[int]] | None = [] if problem.colours is not None else None
    for option in node.live:
        entries = [k for k, item in enumerate(problem.options[option]) if item in number]
        sub_options.append([number[problem.options[option][k]] for k in entries])
        if colours is not None and problem.colours is not None:
            colours.append([problem.colours[option][k] for k in entries])
    if colours is not None and not any(any(row) for row in colours):
        colours = None
    bounds = []
    for item in primary_left:
        low, high = multiplicities[item]
        used = high - node.bound[item]
        bounds.append((max(low - used, 0), node.bound[item]))
    sub = ExactCoverProblem(
        len(primary_left),
        len(secondary_left),
        sub_options,
        colours,
        multiplicities=None if all(bound == (1, 1) for bound in bounds) else bounds,
    )
    return Reduction(sub, node.chosen, list(node.live))


def search_subtree(
    problem: ExactCoverProblem,
    path: list[int],
    run: Callable[[ExactCoverProblem], SearchResult[list[int]]],
    *,
    singles: bool = False,
    locked: bool = False,
    monitor: Monitor | None = None,
) -> SearchResult[list[int]]:
    """``run`` (a search) on the subtree below ``path``, its solutions in original indices.

    monitor: the one ``run`` reports to; its recent-solution decoder (if any) is given the
    solutions in original indices too, so a task's progress shows whole solutions.
    """
    reduction = reduce(problem, path, singles=singles, locked=locked, monitor=monitor)
    original = reduction.original

    def in_original(solution: list[int]) -> list[int]:
        return sorted([*reduction.chosen, *(original[o] for o in solution)])

    if monitor is not None and monitor.recent is not None:
        decode = monitor.recent
        monitor.recent = lambda solution: decode(in_original(solution))
    result = run(reduction.problem)
    result.solutions = [in_original(solution) for solution in result.solutions]
    return result
