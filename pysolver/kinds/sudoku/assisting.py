"""Assist mode for Sudoku and its variants: what a setter asks of a grid (see
``pysolver.midend.assist`` for the fields and the rules around them).

- **Two or more solutions: which given to add.** The midend counts the puzzle with its heatmap
  (``args.count``: count mode's pipeline on the request's engine, the masks engine by default),
  which says per cell and digit in how many of the counted solutions the digit stands there:
  exactly the number of solutions left if it were given. A candidate given worth naming is
  one the solutions disagree on, ``0 < n < count``; fewest first, then by cell and digit. When
  the count stops at the limit, the heatmap covers the first ``limit`` solutions only, so each
  ``n`` is a lower bound (``add_exact: false``) and a candidate none of those had is missing.
- **One solution: which givens can go.** A given ``d`` at a cell is redundant when the puzzle
  without it is still unique; its one solution is still a solution, so another exists exactly
  when one puts another digit there. Each given is checked so on its own, one search of the
  ``masks`` engine (``pysolver.engines.masks``) with that cell's candidates all but ``d``, up
  to one solution (the second half of a limit-2 count without the given): none found, it is
  redundant. ``minimal: true`` when no given is.
- **No solution: which givens clash.** Deletion-based minimisation: start from every given
  (or from two equal givens in one unit, which clash by themselves) and drop each given in
  turn when the others still have no solution (a ``masks`` search up to one solution; givens
  clashing in a unit need no search). What is left has no solution, and each of its givens is
  needed: when it was kept, the set then less it had a solution, and the final set less it is a
  subset of that set less it (fewer givens, more solutions). An empty set means the rules
  alone (a killer's cages) have no solution.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pysolver.engines import masks
from pysolver.engines.monitor import Cancelled
from pysolver.midend.plan import AssistArgs, Assisted

# The engine of the checks (redundant and conflict givens): the fastest on 9x9 grids, and
# the one the counts of every size default to up to 9x9.
CHECK_ENGINE = "masks"


@dataclass
class Setter:
    """A read Sudoku puzzle, clashing givens allowed: its size ``n``, ``values`` (row by row,
    0 blank), ``problem(values)`` (the ``masks`` engine's problem of the same rules with other
    givens), ``groups`` (the units and cages: cells whose givens must differ) and the kind's
    response ``fields`` (size, box, symbols)."""

    n: int
    values: list[int]
    problem: Callable[[list[int]], masks.CellsProblem]
    groups: list[list[int]]
    fields: dict[str, Any]

    def cell(self, position: int) -> list[int]:
        return list(divmod(position, self.n))

    def clash(self, values: list[int]) -> tuple[int, int] | None:
        """Two cells whose equal givens share a unit or a cage (in reading order), or None."""
        found: tuple[int, int] | None = None
        for group in self.groups:
            seen: dict[int, int] = {}
            for position in group:
                value = values[position]
                if not value:
                    continue
                if value in seen:
                    pair = (min(seen[value], position), max(seen[value], position))
                    found = pair if found is None else min(found, pair)
                    break
                seen[value] = position
        return found


def assist(setter: Setter, puzzle: Any, args: AssistArgs) -> Assisted:
    """Assist mode's answer for a read puzzle (see the module docstring)."""
    clash = setter.clash(setter.values)
    if clash is None:
        counted = args.count(puzzle)
        if counted.cancelled:
            return Assisted(counted.count, False, counted.engine, {}, setter.fields, cancelled=True)
        count, complete, engine, heatmap = (
            counted.count,
            counted.complete,
            counted.engine,
            counted.heatmap,
        )
    else:
        # Two equal givens in a unit: no solution, and no count to run.
        count, complete, engine, heatmap = 0, True, CHECK_ENGINE, None
    answer: dict[str, Any] = {}
    try:
        if count >= 2 and heatmap is not None:
            answer = additions(setter.n, heatmap, count, complete)
        elif count == 1 and complete:
            answer = redundant_givens(setter, args)
        elif count == 0 and complete:
            answer = conflict(setter, args, clash)
    except Cancelled:
        return Assisted(count, complete, engine, {}, setter.fields, cancelled=True)
    return Assisted(count, complete, engine, answer, setter.fields)


def additions(
    n: int, heatmap: dict[str, list[list[int]]], count: int, complete: bool
) -> dict[str, Any]:
    """``add``: the candidate givens the counted solutions disagree on, each with the number of
    solutions that have it (fewest first); ``add_exact`` and, when the count stopped at its
    limit, a ``note`` on what the numbers then are."""
    add = []
    for key, grid in heatmap.items():
        digit = int(key)
        for r, row in enumerate(grid):
            for c, solutions in enumerate(row):
                if 0 < solutions < count:
                    add.append({"cell": [r, c], "digit": digit, "count": solutions})
    add.sort(key=lambda entry: (entry["count"], entry["cell"], entry["digit"]))
    answer: dict[str, Any] = {"add": add, "add_exact": complete}
    if not complete:
        answer["note"] = (
            f"the count stopped at {count:,} solutions (the limit): each addition's count is "
            f"of those {count:,} only, so at least that many solutions would be left, and a "
            "digit none of them has is not listed; raise the limit for exact counts"
        )
    return answer


def _search(problem: masks.CellsProblem, args: AssistArgs, fraction: float) -> int:
    """Solutions of ``problem`` up to one (a check of assist mode), progress and cancel
    through ``args``."""
    stage = args.stage()
    result = masks.search(problem, limit=1, keep_solutions=False, monitor=stage)
    if stage.cancelled:
        raise Cancelled
    args.advance(result.stats["nodes"], fraction)
    return result.count


def _share(args: AssistArgs, done: int, total: int) -> float:
    """The share of the work done after ``done`` of ``total`` checks."""
    return args.count_share + (1 - args.count_share) * done / max(total, 1)


def redundant_givens(setter: Setter, args: AssistArgs) -> dict[str, Any]:
    """``redundant``: the givens whose removal leaves the puzzle unique, each on its own;
    ``minimal``: there is none."""
    givens = [position for position, value in enumerate(setter.values) if value]
    redundant = []
    for number, position in enumerate(givens, 1):
        values = setter.values.copy()
        digit = values[position]
        values[position] = 0
        problem = setter.problem(values)
        # Without the given, a second solution is one with another digit here.
        problem.candidates[position] &= ~(1 << (digit - 1))
        if _search(problem, args, _share(args, number, len(givens))) == 0:
            redundant.append(setter.cell(position))
    return {"redundant": redundant, "minimal": not redundant}


def conflict(setter: Setter, args: AssistArgs, clash: tuple[int, int] | None) -> dict[str, Any]:
    """``conflict``: a minimal set of givens with no solution (deletion-based, see the module
    docstring); a ``note`` when it is empty (the rules alone have no solution)."""
    kept = list(clash) if clash else [p for p, value in enumerate(setter.values) if value]
    tried = list(kept)
    for number, position in enumerate(tried, 1):
        trial = [other for other in kept if other != position]
        if not satisfiable(setter, trial, args, _share(args, number, len(tried))):
            kept = trial
    answer: dict[str, Any] = {"conflict": [setter.cell(position) for position in sorted(kept)]}
    if not kept:
        answer["note"] = (
            "the rules alone (the regions, diagonals and cages) have no solution, whatever "
            "the givens"
        )
    return answer


def satisfiable(setter: Setter, givens: list[int], args: AssistArgs, fraction: float) -> bool:
    """Whether only the givens at ``givens`` (positions) leave a solution."""
    values = [0] * len(setter.values)
    for position in givens:
        values[position] = setter.values[position]
    if setter.clash(values) is not None:
        args.advance(0, fraction)
        return False
    return _search(setter.problem(values), args, fraction) > 0


# ---------------------------------------------------------------- in words


def _where(cell: list[int]) -> str:
    return f"row {cell[0] + 1}, column {cell[1] + 1}"


def assist_text(values: list[int], n: int, response: dict[str, Any], symbols: str) -> str:
    """An assist response in words (the CLI's ``--format text``, the library's ``str``): rows
    and columns count from 1; ``values`` are the puzzle's givens (row by row), ``symbols[v -
    1]`` writes the value v."""
    count = response["count"]
    exact = response.get("complete") or (count < 2 and not response.get("cancelled"))
    head = f"{response.get('kind', 'sudoku')} assist ({response.get('engine')}): "
    if response.get("cancelled"):
        return head + f"stopped after counting {count:,} solutions; nothing more was checked"
    if "add" in response:
        cells = {tuple(entry["cell"]) for entry in response["add"]}
        many = f"{count:,} solutions" if exact else f"more than {count:,} solutions"
        lines = [
            head + f"{many}; they differ in {len(cells)} cell{'s' * (len(cells) != 1)}.",
            "Givens to add, fewest solutions left first"
            + ("" if response.get("add_exact") else " (at least so many left: see the note)")
            + ":",
        ]
        lines += [
            f"  {symbols[entry['digit'] - 1]} at {_where(entry['cell'])}: "
            f"{entry['count']:,} solution{'s' * (entry['count'] != 1)} left"
            for entry in response["add"]
        ]
    elif "redundant" in response:
        lines = [head + "one solution."]
        if response["minimal"]:
            lines.append("Minimal: every given is needed for the solution to be the only one.")
        else:
            lines.append(
                "Givens that can go, each on its own (remove one, then ask again: the others "
                "may be needed then):"
            )
            lines += [
                f"  {symbols[values[r * n + c] - 1]} at {_where([r, c])}"
                for r, c in response["redundant"]
            ]
    elif "conflict" in response:
        lines = [
            head + "no solution.",
            "These givens clash: together they have no solution, and without any one of "
            "them the rest has one:",
        ]
        lines += [
            f"  {symbols[values[r * n + c] - 1]} at {_where([r, c])}"
            for r, c in response["conflict"]
        ]
    else:
        lines = [head + f"{count:,} solutions"]
    if response.get("note"):
        lines.append(f"Note: {response['note']}.")
    return "\n".join(lines)
