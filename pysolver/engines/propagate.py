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

then distributes: the variable with the fewest candidates is split into "its first candidate"
and "the rest", both branches pushed on an explicit stack (no recursion, so Pyodide's small
stack is safe). Progress is Knuth's estimate: a branch of a k-way variable gets weight 1/k for
the first candidate and (k-1)/k for the rest, and the fraction done is where the current node
starts in that weighting.

Candidates of one variable must be distinct cell sets (two equal ones could not be told apart
in a solution); ``search`` raises ``ValueError`` otherwise.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from pysolver.engines.monitor import Monitor, SearchResult


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
    """The rules, drawn incrementally from each shrunken variable to the ones near it."""

    def __init__(self, cells: int, unions: list[int]) -> None:
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
        while True:
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
        for other in self.neighbours[variable]:
            if not unions[other] & union:
                continue
            other_domain = domains[other]
            kept = [
                mask
                for mask in other_domain
                if not mask & union or not all(mask & theirs for theirs in domain)
            ]
            if len(kept) < len(other_domain):
                state.restrict(other, kept)


def search(
    problem: PartitionProblem,
    *,
    limit: int | None = None,
    keep_solutions: bool = True,
    rng: random.Random | None = None,
    monitor: Monitor | None = None,
) -> SearchResult:
    """Find (or count) ways to pick one candidate per variable partitioning the cells.

    A solution is the list of chosen candidate indices, one per variable.
    limit: stop after this many solutions (None: explore everything).
    keep_solutions: False to only count.
    rng: when given, each variable's candidates are tried in an order shuffled by it.
    monitor: progress reports and cancellation.

    stats: ``nodes`` (propagated search nodes), ``candidates_initial``,
    ``candidates_after_overlap`` (the overlap rule alone, at the root) and
    ``candidates_after_propagation`` (all rules, at the root).
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
    propagator = _Propagator(problem.cells, root.unions)
    stats = {"nodes": 0, "candidates_initial": root.candidate_count()}
    result = SearchResult(stats=stats)
    try:
        if not all(domains):
            raise _Contradiction
        propagator.run(root, coverage=False)
        stats["candidates_after_overlap"] = root.candidate_count()
        # Cells lost while coverage was off are all checked by the whole-grid pass.
        propagator.check_coverage(root)
    except _Contradiction:
        stats["candidates_after_overlap"] = stats.get("candidates_after_overlap", 0)
        stats["candidates_after_propagation"] = 0
        monitor.finish(0, 0, True)
        return result

    # Stack entries: (node to propagate, start of its share of the tree, size of that share).
    stack: list[tuple[_State, float, float]] = [(root, 0.0, 1.0)]
    nodes = 0
    complete = True
    while stack:
        state, start, share = stack.pop()
        nodes += 1
        if monitor.check(nodes, result.count, lambda start=start: start):
            complete = False
            result.cancelled = True
            break
        try:
            propagator.run(state)
        except _Contradiction:
            if nodes == 1:
                stats["candidates_after_propagation"] = 0
            continue
        if nodes == 1:
            stats["candidates_after_propagation"] = state.candidate_count()
        branch_variable = -1
        best = None
        unions = state.unions
        for variable, domain in enumerate(state.domains):
            size = len(domain)
            if size > 1:
                union = unions[variable]
                key = (size, (union & -union).bit_length())
                if best is None or key < best:
                    best = key
                    branch_variable = variable
        if branch_variable < 0:
            result.count += 1
            if keep_solutions:
                result.solutions.append(
                    [index_of[v][domain[0]] for v, domain in enumerate(state.domains)]
                )
            if limit is not None and result.count >= limit:
                complete = not stack
                break
            continue
        domain = state.domains[branch_variable]
        first_share = share / len(domain)
        rest = state.copy()
        rest.restrict(branch_variable, domain[1:])
        stack.append((rest, start + first_share, share - first_share))
        state.restrict(branch_variable, domain[:1])
        stack.append((state, start, first_share))

    stats["nodes"] = nodes
    result.complete = complete
    monitor.finish(nodes, result.count, complete)
    return result
