"""Propagation and distribution over candidate sets: an exact-partition search.

The problem: ``variables``, each with a list of candidates; a candidate is a set of cells given
as an int bitmask (bit ``i`` = cell ``i``). A solution picks one candidate per variable so that
every cell ``0 .. cells-1`` is covered exactly once. The engine knows nothing of what variables
or cells stand for (Shikaku clues and rectangles, say).

Each node of the search first propagates to a fixpoint:

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

    Lists are never mutated in place once shared: a child copies the three outer lists and
    replaces the inner entries it changes, so siblings stay intact.
    """

    __slots__ = ("domains", "cores", "unions", "changed")

    def __init__(
        self, domains: list[list[int]], cores: list[int], unions: list[int], changed: set[int]
    ) -> None:
        self.domains = domains
        self.cores = cores
        self.unions = unions
        # Variables whose domain shrank since the pairwise rule last looked at them: only a
        # shrunken variable can make more candidates of others overlap all of its own.
        self.changed = changed

    @classmethod
    def from_domains(cls, domains: list[list[int]]) -> _State:
        cores = []
        unions = []
        for domain in domains:
            core, union = _core_and_union(domain)
            cores.append(core)
            unions.append(union)
        return cls(domains, cores, unions, set(range(len(domains))))

    def copy(self) -> _State:
        return _State(self.domains[:], self.cores[:], self.unions[:], set(self.changed))

    def restrict(self, variable: int, domain: list[int]) -> None:
        if not domain:
            raise _Contradiction
        self.domains[variable] = domain
        self.changed.add(variable)
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


def _apply_core_rule(state: _State) -> bool:
    """Delete candidates touching another variable's core. Returns True if anything changed.

    A cell in the core of two variables would have to be covered twice: contradiction.
    """
    cores = state.cores
    unions = state.unions
    taken = 0
    for core in cores:
        if core & taken:
            raise _Contradiction
        taken |= core
    changed = False
    for variable, union in enumerate(unions):
        forbidden = taken ^ cores[variable]
        if union & forbidden:
            state.restrict(
                variable, [mask for mask in state.domains[variable] if not mask & forbidden]
            )
            changed = True
            # A shrunken domain can only grow its core; the cells it adds were in no other
            # core (they belonged to surviving candidates), so ``taken`` stays disjoint.
            taken |= state.cores[variable]
    return changed


def _apply_coverage_rule(state: _State, full: int) -> bool:
    """Fail on an uncoverable cell; force the only variable able to cover a cell to cover it."""
    once = twice = 0
    for union in state.unions:
        twice |= once & union
        once |= union
    if once != full:
        raise _Contradiction
    single = once & ~twice
    if not single:
        return False
    changed = False
    for variable, union in enumerate(state.unions):
        required = union & single
        if required & ~state.cores[variable]:
            state.restrict(
                variable,
                [mask for mask in state.domains[variable] if mask & required == required],
            )
            changed = True
    return changed


def _apply_pairwise_rule(state: _State, neighbours: list[list[int]]) -> bool:
    """Delete a candidate of one variable that overlaps every candidate of another one.

    Only what the core rule cannot see is tested: a candidate missing the other variable's
    core but meeting each of its (two or more) candidates in different cells.
    """
    domains = state.domains
    unions = state.unions
    cores = state.cores
    changed = False
    shrunken = sorted(state.changed)
    state.changed.clear()
    for other in shrunken:
        other_domain = domains[other]
        if len(other_domain) < 2:
            continue
        other_union = unions[other]
        for variable in neighbours[other]:
            if not unions[variable] & other_union:
                continue
            domain = domains[variable]
            other_core = cores[other]
            kept = [
                mask
                for mask in domain
                if not mask & other_union
                or not (mask & other_core or all(mask & other_mask for other_mask in other_domain))
            ]
            if len(kept) < len(domain):
                state.restrict(variable, kept)
                changed = True
    return changed


def _apply_overlap_rule(state: _State, neighbours: list[list[int]]) -> bool:
    changed = False
    while _apply_core_rule(state) | _apply_pairwise_rule(state, neighbours):
        changed = True
    return changed


def _propagate(state: _State, full: int, neighbours: list[list[int]]) -> None:
    """Run all rules to a fixpoint, cheap ones first; raise ``_Contradiction`` on failure."""
    while True:
        while _apply_core_rule(state) | _apply_coverage_rule(state, full):
            pass
        if not _apply_pairwise_rule(state, neighbours):
            return


def _neighbours(unions: list[int], cells: int) -> list[list[int]]:
    """For each variable, the other variables whose candidates may share a cell with it."""
    at_cell: list[list[int]] = [[] for _ in range(cells)]
    for variable, union in enumerate(unions):
        while union:
            low = union & -union
            at_cell[low.bit_length() - 1].append(variable)
            union ^= low
    result: list[set[int]] = [set() for _ in unions]
    for variables in at_cell:
        for variable in variables:
            result[variable].update(variables)
    return [sorted(near - {variable}) for variable, near in enumerate(result)]


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
    neighbours = _neighbours(root.unions, problem.cells)
    stats = {"nodes": 0, "candidates_initial": root.candidate_count()}
    result = SearchResult(stats=stats)
    try:
        if not all(domains):
            raise _Contradiction
        _apply_overlap_rule(root, neighbours)
        stats["candidates_after_overlap"] = root.candidate_count()
    except _Contradiction:
        stats["candidates_after_overlap"] = 0
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
            _propagate(state, full, neighbours)
        except _Contradiction:
            if nodes == 1:
                stats["candidates_after_propagation"] = 0
            continue
        if nodes == 1:
            stats["candidates_after_propagation"] = state.candidate_count()
        branch_variable = -1
        fewest = 0
        for variable, domain in enumerate(state.domains):
            size = len(domain)
            if size > 1 and (branch_variable < 0 or size < fewest):
                branch_variable = variable
                fewest = size
                if size == 2:
                    break
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
