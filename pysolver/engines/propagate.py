"""Propagation and distribution over candidate sets: an exact-partition search.

The problem: ``variables``, each with a list of candidates; a candidate is a set of cells given
as an int bitmask (bit ``i`` = cell ``i``). A solution picks one candidate per variable so that
every cell ``0 .. cells-1`` is covered exactly once. The engine knows nothing of what variables
or cells stand for (Shikaku clues and rectangles, say).

Each node of the search first propagates to a fixpoint, incrementally (only from the variables
that shrank, to their neighbours; the whole grid is looked at once, at the root):

* overlap rule: a candidate of one variable that overlaps every remaining candidate of another
  variable can never be chosen, so it is deleted. Its cheap special case, a candidate touching
  the *core* of another variable (the cells all its candidates share, e.g. the one candidate of
  a fixed variable), runs first; the full pairwise test runs once the cheap rules are stuck.
* coverage: a cell no candidate covers means no solution; a cell that only one variable can
  still cover forces that variable to the candidates covering it.

then, when the open variables (more than one candidate left) fall into independent components
(no cell any two of them could share), solves each component on its own: counts multiply,
solutions are combinations, and a component without a solution fails the node at once rather
than being rediscovered under every choice made in the others. Each nesting of such splits is
one Python call, at most ``MAX_SPLIT_DEPTH`` deep. Otherwise it distributes: the variable with
the fewest candidates is split into "its first candidate" and "the rest", both branches pushed
on an explicit stack (no recursion, so Pyodide's small stack is safe). Progress is Knuth's
estimate: a branch of a k-way variable gets weight 1/k for the first candidate and (k-1)/k for
the rest (each of c components gets 1/c of its node), and the fraction done is where the
current node starts in that weighting.

Candidates of one variable must be distinct cell sets (two equal ones could not be told apart
in a solution); ``search`` raises ``ValueError`` otherwise.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pysolver import budget
from pysolver.engines.monitor import Monitor, SearchResult
from pysolver.engines.subtree import InvalidPath, Split, split_tree
from pysolver.engines.trace import Recorder, TraceFull

# How the page names this engine (see pysolver.facts): a menu title and one sentence.
TITLE = "Propagation and splitting"
SUMMARY = "Removes impossible candidates by rules, then splits a clue."


@dataclass
class PartitionProblem:
    """Pick one candidate per variable so the chosen cell sets partition ``range(cells)``."""

    cells: int
    # candidates[v] lists the cell bitmasks variable v may take.
    candidates: list[list[int]]


class _Contradiction(Exception):
    """Propagation proved the current node has no solution."""


class _State:
    """One search node: per variable its candidates, their intersection (core) and union.

    Lists are never mutated in place once shared: a child copies the outer lists and replaces
    the entries it changes, so siblings stay intact.
    """

    __slots__ = ("domains", "cores", "unions", "pending")

    def __init__(
        self,
        domains: list[list[int]],
        cores: list[int],
        unions: list[int],
        pending: dict[int, tuple[int, int]],
    ) -> None:
        self.domains = domains
        self.cores = cores
        self.unions = unions
        # Variables whose domain shrank and whose consequences are not drawn yet, with the
        # core and union they had when last propagated (in order of change: a FIFO queue).
        self.pending = pending

    @classmethod
    def from_domains(cls, domains: list[list[int]]) -> _State:
        cores = []
        unions = []
        for domain in domains:
            core, union = _core_and_union(domain)
            cores.append(core)
            unions.append(union)
        # At the root every core is news to the other variables; no cell has been lost yet.
        pending = {variable: (0, union) for variable, union in enumerate(unions)}
        return cls(domains, cores, unions, pending)

    def copy(self) -> _State:
        return _State(self.domains[:], self.cores[:], self.unions[:], dict(self.pending))

    def restrict(self, variable: int, domain: list[int]) -> None:
        if not domain:
            raise _Contradiction
        if variable not in self.pending:
            self.pending[variable] = (self.cores[variable], self.unions[variable])
        self.domains[variable] = domain
        self.cores[variable], self.unions[variable] = _core_and_union(domain)

    def candidate_count(self) -> int:
        return sum(len(domain) for domain in self.domains)


def _core_and_union(domain: list[int]) -> tuple[int, int]:
    if not domain:
        return 0, 0
    core = union = domain[0]
    for mask in domain:
        core &= mask
        union |= mask
    return core, union


class _Propagator:
    """The rules, drawn incrementally from each shrunken variable to the ones near it.

    ``monitor``: given outside the search (cutting the tree for parallel tasks, where nothing
    else asks the cancel hook), a checkpoint per shrunken variable drawn from."""

    def __init__(self, cells: int, unions: list[int], monitor: Monitor | None = None) -> None:
        self.monitor = monitor
        self.full = (1 << cells) - 1
        # at_cell[c]: the variables whose candidates cover cell c at the root (a superset of
        # those that still can, which is all a lost cell needs to look at).
        self.at_cell: list[list[int]] = [[] for _ in range(cells)]
        for variable, union in enumerate(unions):
            while union:
                low = union & -union
                self.at_cell[low.bit_length() - 1].append(variable)
                union ^= low
        near: list[set[int]] = [set() for _ in unions]
        for variables in self.at_cell:
            for variable in variables:
                near[variable].update(variables)
        self.neighbours = [sorted(others - {v}) for v, others in enumerate(near)]

    def check_coverage(self, state: _State) -> None:
        """Whole-grid coverage rule: fail on an uncoverable cell, force a lone coverer."""
        once = twice = 0
        for union in state.unions:
            twice |= once & union
            once |= union
        if once != self.full:
            raise _Contradiction
        single = once & ~twice
        for variable, union in enumerate(state.unions):
            required = union & single
            if required & ~state.cores[variable]:
                state.restrict(
                    variable,
                    [mask for mask in state.domains[variable] if mask & required == required],
                )

    def run(self, state: _State, coverage: bool = True) -> None:
        """Draw every consequence of the pending changes; raise ``_Contradiction`` on failure.

        For a shrunken variable V:
        * cells new in V's core: delete the candidates of others touching them (overlap rule,
          the case of a candidate meeting all of V's candidates in the same cells);
        * cells V can no longer cover: each needs another variable; none left is a
          contradiction, exactly one left is forced to cover it (coverage rule);
        * the full overlap rule: delete candidates of others that meet each of V's remaining
          candidates (in different cells). Only V's shrinking can create new such deletions.
        """
        pending = state.pending
        domains = state.domains
        cores = state.cores
        unions = state.unions
        neighbours = self.neighbours
        at_cell = self.at_cell
        # The pairwise test is the dear one: run it only once the cheap rules are stuck, so it
        # sees domains already pruned by them.
        pairwise_due: dict[int, None] = {}
        monitor = self.monitor
        while True:
            if monitor is not None:
                monitor.checkpoint()
            if not pending:
                if not pairwise_due:
                    return
                variable = next(iter(pairwise_due))
                del pairwise_due[variable]
                self._pairwise(state, variable)
                continue
            variable = next(iter(pending))
            old_core, old_union = pending.pop(variable)
            pairwise_due[variable] = None
            grown = cores[variable] & ~old_core
            if grown:
                for other in neighbours[variable]:
                    if unions[other] & grown:
                        state.restrict(other, [m for m in domains[other] if not m & grown])
            if not coverage:
                continue
            lost = old_union & ~unions[variable]
            while lost:
                low = lost & -lost
                lost ^= low
                coverer = -1
                for other in at_cell[low.bit_length() - 1]:
                    if unions[other] & low:
                        if coverer >= 0:
                            break
                        coverer = other
                else:
                    if coverer < 0:
                        raise _Contradiction
                    if not cores[coverer] & low:
                        state.restrict(coverer, [m for m in domains[coverer] if m & low])

    def _pairwise(self, state: _State, variable: int) -> None:
        domain = state.domains[variable]
        if len(domain) < 2:
            return  # one candidate: its core is all of it, already handled
        domains = state.domains
        unions = state.unions
        union = unions[variable]
        monitor = self.monitor
        for other in self.neighbours[variable]:
            other_domain = domains[other]
            if monitor is not None:
                # A mask against a big domain takes tens of microseconds.
                monitor.checkpoint(len(other_domain))
            if not unions[other] & union:
                continue
            kept = [
                mask
                for mask in other_domain
                if not mask & union or not all(mask & theirs for theirs in domain)
            ]
            if len(kept) < len(other_domain):
                state.restrict(other, kept)


def estimated_bytes(problem: PartitionProblem) -> int:
    """What ``search`` allocates before branching: every candidate mask (an int of one bit per
    cell) held by the root's domains and looked up by position, and per variable its core,
    union and neighbour set. Branches copy lists of pointers to these masks, not the masks."""
    mask = budget.INT_BYTES + problem.cells // 7
    candidates = sum(map(len, problem.candidates))
    per_variable = 3 * mask + 2 * budget.LIST_BYTES + 100
    return candidates * (mask + 100) + len(problem.candidates) * per_variable


def search(
    problem: PartitionProblem,
    *,
    limit: int | None = None,
    keep_solutions: bool = True,
    max_kept: int | None = None,
    rng: random.Random | None = None,
    monitor: Monitor | None = None,
    recorder: Recorder | None = None,
) -> SearchResult[list[int]]:
    """Find (or count) ways to pick one candidate per variable partitioning the cells.

    A solution is the list of chosen candidate indices, one per variable.
    limit: stop after this many solutions (None: explore everything).
    keep_solutions: False to only count.
    max_kept: keep at most this many solutions; the search goes on counting past them.
    rng: when given, each variable's candidates are tried in an order shuffled by it.
    monitor: progress reports and cancellation.
    recorder: when given, every step is recorded in it (see ``_Tracer`` for the steps), and
    the search stops, incomplete, when it is full. Tracing searches independent components
    together (no split), so that every solution is one path of steps.

    stats: ``nodes`` (propagated search nodes), ``splits`` (nodes split into independent
    components), ``candidates_initial``, ``candidates_after_overlap`` (the overlap rule alone,
    at the root) and ``candidates_after_propagation`` (all rules, at the root).
    """
    monitor = monitor or Monitor()
    full = (1 << problem.cells) - 1
    index_of: list[dict[int, int]] = []
    domains: list[list[int]] = []
    for variable, candidates in enumerate(problem.candidates):
        positions = {mask: index for index, mask in enumerate(candidates)}
        if len(positions) < len(candidates):
            raise ValueError(f"variable {variable} lists the same candidate twice")
        if any(mask < 0 or mask & ~full for mask in candidates):
            raise ValueError(
                f"variable {variable} has a candidate outside the {problem.cells} cells"
            )
        index_of.append(positions)
        domain = list(candidates)
        if rng is not None:
            rng.shuffle(domain)
        domains.append(domain)

    root = _State.from_domains(domains)
    stats = {"nodes": 0, "splits": 0, "candidates_initial": root.candidate_count()}
    result: SearchResult[list[int]] = SearchResult(stats=stats)
    tracer = None if recorder is None else _Tracer(recorder, index_of)
    searcher = _Search(
        _Propagator(problem.cells, root.unions), monitor, keep_solutions, stats, tracer, max_kept
    )
    try:
        found = _search_root(root, searcher, limit)
    except TraceFull:
        assert tracer is not None
        # The trace is full: answer with the solutions recorded so far.
        found = SearchResult(count=len(tracer.found), complete=False)
        if keep_solutions:
            result.solutions = tracer.found
            keep_solutions = False
    result.count = found.count
    result.complete = found.complete
    result.cancelled = found.cancelled
    if keep_solutions:
        result.solutions = [
            [index_of[v][mask] for v, mask in enumerate(solution)] for solution in found.solutions
        ]
    stats["nodes"] = searcher.nodes
    monitor.finish(searcher.nodes, result.count, result.complete)
    return result


def _search_root(root: _State, searcher: _Search, limit: int | None) -> SearchResult[list[int]]:
    """Propagate at the root (recording the candidate figures in the stats), then search."""
    stats = searcher.stats
    tracer = searcher.tracer
    try:
        if not all(root.domains):
            raise _Contradiction
        searcher.propagator.run(root, coverage=False)
        stats["candidates_after_overlap"] = root.candidate_count()
        if tracer is not None:
            tracer.overlap(stats["candidates_initial"], stats["candidates_after_overlap"])
        # Cells lost while coverage was off are all checked by the whole-grid pass.
        searcher.propagator.check_coverage(root)
    except _Contradiction:
        stats["candidates_after_overlap"] = stats.get("candidates_after_overlap", 0)
        stats["candidates_after_propagation"] = 0
        if tracer is not None:
            tracer.contradiction(0)
        return SearchResult()
    return searcher.run(root, list(range(len(root.domains))), limit, 0.0, 1.0, 0)


# Deepest nesting of component splits. Each level is one Python call (the search inside a
# level is iterative), so this bounds the call depth far below what Pyodide's stack allows;
# deeper down, components are simply searched together as before.
MAX_SPLIT_DEPTH = 16


class _Search:
    """Depth-first distribution, splitting a node whose open variables fall into independent
    components (no shared cell among their candidates).

    Independent components are solved one after the other: a component with no solution
    fails the node at once (instead of being rediscovered under every choice made in the
    others, the thrashing that stalls large grids cut into small pieces), and counts multiply
    instead of being enumerated one combination at a time.
    """

    def __init__(
        self,
        propagator: _Propagator,
        monitor: Monitor,
        keep: bool,
        stats: dict[str, Any],
        tracer: _Tracer | None = None,
        max_kept: int | None = None,
    ) -> None:
        self.tracer = tracer
        self.propagator = propagator
        self.monitor = monitor
        self.keep = keep
        # Solutions kept per node at most. Truncating every component's list to it keeps the
        # first ``max_kept`` combinations of ``_split`` intact: in product order, a
        # component's index stays below ``max_kept`` over the first ``max_kept`` of them.
        self.max_kept = max_kept
        self.stats = stats
        self.nodes = 0

    def run(
        self,
        state: _State,
        scope: list[int],
        limit: int | None,
        start: float,
        share: float,
        depth: int,
    ) -> SearchResult[list[int]]:
        """Search ``state`` branching only on ``scope``'s variables (the others are fixed or
        independent of them); return up to ``limit`` solutions as masks aligned with scope
        (none kept when only counting)."""
        found: SearchResult[list[int]] = SearchResult()
        neighbours = self.propagator.neighbours
        # Stack entries: (node to propagate, start of its share of the tree, size of that share).
        stack: list[tuple[_State, float, float]] = [(state, start, share)]
        tracer = self.tracer
        # Tracing: per stack entry, its depth on the board and the variable it tries (or -1).
        marks = [(0, -1)] if tracer is not None else []
        while stack:
            state, start, share = stack.pop()
            if tracer is not None:
                tracer.enter(state, *marks.pop())
            self.nodes += 1
            # Within a component, "solutions" counts that component's own (progress only).
            if self.monitor.check(self.nodes, found.count, _constant(start)):
                found.complete = False
                found.cancelled = True
                return found
            try:
                self.propagator.run(state)
            except _Contradiction:
                if tracer is not None:
                    tracer.contradiction(state.candidate_count())
                if self.nodes == 1:
                    self.stats["candidates_after_propagation"] = 0
                continue
            if self.nodes == 1:
                self.stats["candidates_after_propagation"] = state.candidate_count()
            if tracer is not None:
                tracer.propagated(state)
            domains = state.domains
            open_variables = [v for v in scope if len(domains[v]) > 1]
            if not open_variables:
                if tracer is not None:
                    tracer.solution(state)
                self._add(found, [[domains[v][0] for v in scope]], 1)
                if limit is not None and found.count >= limit:
                    found.complete = not stack
                    return found
                continue
            components = _components(open_variables, neighbours, state.unions)
            if len(components) > 1 and depth < MAX_SPLIT_DEPTH and tracer is None:
                remaining = None if limit is None else limit - found.count
                node = self._split(state, scope, components, remaining, start, share, depth)
                if node.cancelled:
                    found.complete = False
                    found.cancelled = True
                    return found
                self._add(found, node.solutions, node.count)
                if limit is not None and found.count >= limit:
                    found.complete = node.complete and not stack
                    return found
                continue
            branch_variable = -1
            best = None
            unions = state.unions
            for variable in open_variables:
                union = unions[variable]
                key = (len(domains[variable]), (union & -union).bit_length())
                if best is None or key < best:
                    best = key
                    branch_variable = variable
            domain = domains[branch_variable]
            first_share = share / len(domain)
            rest = state.copy()
            rest.restrict(branch_variable, domain[1:])
            stack.append((rest, start + first_share, share - first_share))
            state.restrict(branch_variable, domain[:1])
            stack.append((state, start, first_share))
            if tracer is not None:
                tracer.split(branch_variable, domain)
                marks.append((tracer.depth, -1))
                marks.append((tracer.depth, branch_variable))
        return found

    def _add(self, found: SearchResult[list[int]], solutions: list[list[int]], count: int) -> None:
        found.count += count
        if self.keep:
            room = len(solutions) if self.max_kept is None else self.max_kept - len(found.solutions)
            found.solutions.extend(solutions[: max(0, room)])

    def _split(
        self,
        state: _State,
        scope: list[int],
        components: list[list[int]],
        limit: int | None,
        start: float,
        share: float,
        depth: int,
    ) -> SearchResult[list[int]]:
        """Solve each component alone; combine: counts multiply, solutions are the first
        ``limit`` combinations (components in order, the last varying fastest)."""
        self.stats["splits"] += 1
        # Small components first: cheap to settle, and any failure ends the node sooner.
        components.sort(key=len)
        parts: list[SearchResult[list[int]]] = []
        count = 1
        complete = True
        part_share = share / len(components)
        for index, component in enumerate(components):
            part = self.run(
                state.copy(),
                component,
                limit,
                start + index * part_share,
                part_share,
                depth + 1,
            )
            if part.cancelled:
                return part
            if part.count == 0:
                # One component without a solution sinks every combination.
                return SearchResult(complete=part.complete)
            count *= part.count
            complete = complete and part.complete
            parts.append(part)
        node: SearchResult[list[int]] = SearchResult(count=count, complete=complete)
        if limit is not None and count > limit:
            node.count = limit
            node.complete = False
        if self.keep:
            base = {v: state.domains[v][0] for v in scope if len(state.domains[v]) == 1}
            node.solutions = []
            listed = node.count if self.max_kept is None else min(node.count, self.max_kept)
            for combination in itertools.islice(
                itertools.product(*(part.solutions for part in parts)), listed
            ):
                masks = dict(base)
                for component, part_solution in zip(components, combination, strict=True):
                    masks.update(zip(component, part_solution, strict=True))
                node.solutions.append([masks[v] for v in scope])
        return node


# A split step lists at most this many of the split variable's candidates, so that a trace's
# memory stays proportional to its steps (splits take the fewest candidates, so rarely more).
SPLIT_SHOWN = 64


class _Tracer:
    """Records the search's moves as raw trace steps (built only when a recorder is given).

    The board is the variables fixed so far, by depth: a ``try`` (the first candidate of a
    split variable) or a ``force`` (a variable propagation left with one candidate). Steps::

        {"type": "propagate", "depth": d, "rule": "overlap" | "all", "removed": k,
         "candidates": n}                  # n: candidates left over all variables
        {"type": "propagate", "depth": d, "rule": "all", "contradiction": True, ...}
        {"type": "force", "depth": d, "variable": v, "candidate": i}
        {"type": "split", "depth": d, "variable": v, "candidate": i, "rest": k,
         "candidates": [i, ...]}          # v's candidates left, i first (at most SPLIT_SHOWN)
        {"type": "try", "depth": d, "variable": v, "candidate": i}
        {"type": "backtrack", "depth": d}
        {"type": "solution", "depth": d, "candidates": [i per variable], "number": s}

    Candidates are indices into the problem's lists (``i``: the first candidate tried).
    """

    def __init__(self, recorder: Recorder, index_of: list[dict[int, int]]) -> None:
        self.recorder = recorder
        self.index_of = index_of
        self.placed: list[int] = []  # variables on the board, by depth
        self.on_board: set[int] = set()
        self.before = -1  # candidates when the current node was entered
        self.found: list[list[int]] = []

    @property
    def depth(self) -> int:
        return len(self.placed)

    def overlap(self, initial: int, remaining: int) -> None:
        """The root's first pass, the overlap rule alone."""
        self.recorder.add(
            {
                "type": "propagate",
                "depth": 0,
                "rule": "overlap",
                "removed": initial - remaining,
                "candidates": remaining,
            }
        )
        self.before = remaining

    def enter(self, state: _State, depth: int, tried: int) -> None:
        if len(self.placed) > depth:
            self.recorder.add({"type": "backtrack", "depth": depth})
            for variable in self.placed[depth:]:
                self.on_board.discard(variable)
            del self.placed[depth:]
        if tried >= 0:
            candidate = self.index_of[tried][state.domains[tried][0]]
            self.recorder.add(
                {"type": "try", "depth": depth, "variable": tried, "candidate": candidate}
            )
            self.placed.append(tried)
            self.on_board.add(tried)
        if self.before < 0 or tried >= 0 or depth:
            self.before = state.candidate_count()

    def contradiction(self, remaining: int) -> None:
        self.recorder.add(
            {
                "type": "propagate",
                "depth": self.depth,
                "rule": "all",
                "contradiction": True,
                "removed": max(0, self.before - remaining),
                "candidates": remaining,
            }
        )
        self.before = -1

    def propagated(self, state: _State) -> None:
        remaining = state.candidate_count()
        self.recorder.add(
            {
                "type": "propagate",
                "depth": self.depth,
                "rule": "all",
                "removed": self.before - remaining,
                "candidates": remaining,
            }
        )
        self.before = -1
        for variable, domain in enumerate(state.domains):
            if len(domain) == 1 and variable not in self.on_board:
                candidate = self.index_of[variable][domain[0]]
                self.recorder.add(
                    {
                        "type": "force",
                        "depth": self.depth,
                        "variable": variable,
                        "candidate": candidate,
                    }
                )
                self.placed.append(variable)
                self.on_board.add(variable)

    def split(self, variable: int, domain: list[int]) -> None:
        positions = self.index_of[variable]
        self.recorder.add(
            {
                "type": "split",
                "depth": self.depth,
                "variable": variable,
                "candidate": positions[domain[0]],
                "rest": len(domain) - 1,
                "candidates": [positions[mask] for mask in domain[:SPLIT_SHOWN]],
            }
        )

    def solution(self, state: _State) -> None:
        chosen = [self.index_of[v][domain[0]] for v, domain in enumerate(state.domains)]
        self.recorder.add(
            {
                "type": "solution",
                "depth": self.depth,
                "candidates": chosen,
                "number": len(self.found) + 1,
            }
        )
        self.found.append(chosen)


def _constant(value: float) -> Callable[[], float]:
    """The progress fraction of a node: where its share of the tree starts."""
    return lambda: value


def _components(
    open_variables: list[int],
    neighbours: list[list[int]],
    unions: list[int],
) -> list[list[int]]:
    """The open variables grouped by shared cells (two are joined when their candidates can
    still meet), each group in ascending order."""
    is_open = set(open_variables)
    seen: set[int] = set()
    groups: list[list[int]] = []
    for first in open_variables:
        if first in seen:
            continue
        seen.add(first)
        group = [first]
        frontier = [first]
        while frontier:
            variable = frontier.pop()
            union = unions[variable]
            for other in neighbours[variable]:
                if other not in seen and other in is_open and unions[other] & union:
                    seen.add(other)
                    group.append(other)
                    frontier.append(other)
        group.sort()
        groups.append(group)
    return groups


# ---------------------------------------------------------------- subtrees (parallel search)

# A branch choice of this engine: [variable, 0] takes the variable's first candidate, [variable,
# 1] the rest of its candidates (as JSON, a list of two integers).
FIRST, REST = 0, 1


def _propagated_root(
    problem: PartitionProblem, monitor: Monitor | None = None
) -> tuple[_State | None, _Propagator]:
    """The root after the same propagation ``search`` does, or None when it has no solution.
    ``monitor``: checkpoints in this propagation and every later one of the propagator."""
    domains = [list(candidates) for candidates in problem.candidates]
    root = _State.from_domains(domains)
    propagator = _Propagator(problem.cells, root.unions, monitor)
    try:
        if not all(domains):
            raise _Contradiction
        propagator.run(root, coverage=False)
        propagator.check_coverage(root)
        propagator.run(root)
    except _Contradiction:
        return None, propagator
    return root, propagator


def _branch_variable(propagator: _Propagator, state: _State) -> int | None:
    """The variable the search splits at this (propagated) node, as ``_Search.run`` picks it;
    None at a solution or where the node falls into independent components (not cut)."""
    domains = state.domains
    open_variables = [v for v in range(len(domains)) if len(domains[v]) > 1]
    if not open_variables:
        return None
    if len(_components(open_variables, propagator.neighbours, state.unions)) > 1:
        return None
    unions = state.unions
    return min(
        open_variables,
        key=lambda v: (len(domains[v]), (unions[v] & -unions[v]).bit_length()),
    )


def _branch_child(
    propagator: _Propagator, state: _State, variable: int, which: int
) -> _State | None:
    domain = state.domains[variable]
    child = state.copy()
    try:
        child.restrict(variable, domain[:1] if which == FIRST else domain[1:])
        propagator.run(child)
    except _Contradiction:
        return None
    return child


def split(problem: PartitionProblem, wanted: int, monitor: Monitor | None = None) -> Split:
    """Cut the search tree of ``problem`` into at least ``wanted`` subtrees (fewer when it is
    smaller), in search order. Paths are lists of ``[variable, FIRST or REST]``. A node that
    falls into independent components is not cut (its parts multiply, they do not add).
    ``monitor``: its checkpoints (in every propagation) raise ``Cancelled`` on a cancel."""
    monitor = monitor or Monitor()
    root, propagator = _propagated_root(problem, monitor)

    def children(state: _State) -> list[tuple[tuple[int, int], _State | None, float]] | None:
        variable = _branch_variable(propagator, state)
        if variable is None:
            return None
        size = len(state.domains[variable])
        return [
            ((variable, FIRST), _branch_child(propagator, state, variable, FIRST), 1 / size),
            ((variable, REST), _branch_child(propagator, state, variable, REST), 1 - 1 / size),
        ]

    result = split_tree(root, children, wanted, monitor)
    for subtree in result.subtrees:
        subtree.path = [list(choice) for choice in subtree.path]
    return result


def reduce(problem: PartitionProblem, path: list[Any]) -> PartitionProblem:
    """The problem below ``path``: each variable's candidates left there, in their order.

    Raises ``InvalidPath`` when a step is not a branch the search takes at that point.
    """
    state, propagator = _propagated_root(problem)
    for step, choice in enumerate(path):
        if state is None:
            raise InvalidPath(step, "the path goes on below a branch that has no solutions")
        variable = _branch_variable(propagator, state)
        if variable is None:
            raise InvalidPath(step, "the search does not branch there (a solution, or parts)")
        if choice not in ([variable, FIRST], [variable, REST]):
            raise InvalidPath(
                step,
                f"the search branches on variable {variable} there: the step must be "
                f"[{variable}, {FIRST}] (its first candidate) or [{variable}, {REST}] (the rest)",
            )
        state = _branch_child(propagator, state, variable, choice[1])
    if state is None:
        return PartitionProblem(problem.cells, [[] for _ in problem.candidates])
    return PartitionProblem(problem.cells, [list(domain) for domain in state.domains])


def search_subtree(
    problem: PartitionProblem,
    path: list[Any],
    run: Callable[[PartitionProblem], SearchResult[list[int]]],
) -> SearchResult[list[int]]:
    """``run`` (a search) below ``path``, its solutions as candidate indices of ``problem``."""
    sub = reduce(problem, path)
    result = run(sub)
    index_of = [{mask: i for i, mask in enumerate(masks)} for masks in problem.candidates]
    result.solutions = [
        [index_of[v][sub.candidates[v][choice]] for v, choice in enumerate(solution)]
        for solution in result.solutions
    ]
    return result
