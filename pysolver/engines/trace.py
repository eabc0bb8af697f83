"""Algorithm X written plainly, recording every step: the trace behind ``"mode": "trace"``.

This is the one place where a reader sees the exact cover search before the speed tricks of
``dlx``, ``bitset`` and ``singles``. The matrix is a dict from each active item to the set of
its live options (Assaf's "Algorithm X in 30 lines" shape): choosing an option removes its
items' columns and every conflicting option from the columns left; taking it back restores
them in reverse. The search walks the SAME tree as the fast engines:

* item choice is MRV: the active primary item with the fewest live options, the first item
  (in item order) on ties; options are tried in input order (the engines' column order);
* ``singles=True`` walks the ``singles`` engine's tree instead: before every branch, an item
  with exactly one live option takes it at once (a ``force`` step; in Sudoku terms a naked or
  hidden single), and an item with none ends the branch; branching is on the fewest options.
  ``locked=True`` (with ``singles``) walks the ``locked`` engine's: between the singles, the
  options locked candidates rule out are struck (``cover.locked_strikes``; no step, as
  nothing is placed).

Memory: the dict of sets holds every entry of the matrix once more, and the recorder at most
``max_steps`` steps; ``estimated_bytes`` bounds both and ``search`` checks it against the
budget before building the columns.

So solutions come in the engines' order, and ``stats.nodes`` counts like theirs (``dlx`` and
``bitset``: the root, every option tried and every solution leaf; ``singles`` and ``locked``:
options tried).

Knuth's colours (DLX2) are supported on secondary items: ``colours[option]`` maps a secondary
item of that option to its colour; choosing the option keeps the other options that give the
item the same colour and removes those that give it another one or none.

Steps are engine-level dicts, turned into the protocol's steps by the kind's ``describe``
(see ``Recorder``). The board is a stack of placed options: a ``try`` or ``force`` at depth d
puts its option at position d, dropping everything from d on; a ``backtrack`` at depth d takes
back position d and beyond; any other step's depth is the stack's height (see ``replay``).
Raw steps::

    {"type": "choose", "depth": d, "item": i, "options": n}   # n == 0: a dead end
    {"type": "try", "depth": d, "option": o, "item": i, "index": k, "of": n}
    {"type": "force", "depth": d, "option": o, "item": i}
    {"type": "backtrack", "depth": d}
    {"type": "solution", "depth": d, "options": [sorted option indices], "number": s}
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pysolver import budget
from pysolver.engines.cover import ExactCoverProblem, locked_strikes
from pysolver.engines.monitor import CHECK_EVERY, Monitor, SearchResult, entries_work
from pysolver.protocol import MAX_TRACE_STEPS

Step = dict[str, Any]
# What choosing an option removed, for taking it back: per item covered, (item, its column of
# live options, the colour the option gave it or None).
Removed = list[tuple[int, set[int], str | None]]


@dataclass
class Struck:
    """Options locked candidates ruled out, each with the columns it was taken out of."""

    taken: list[tuple[int, list[int]]]


# One undo record: a choice's or a strike's.
Undo = Removed | Struck


# A set's header, and what one element costs in it (a hash and a pointer, at 60% load at worst).
SET_BYTES = 216
SET_ENTRY_BYTES = 27
# A recorded step: a dict of up to six keys and its kind's description (labels, the protocol
# form); tracemalloc measures about 600 bytes for the longest ("try" with its label).
STEP_BYTES = 1024


def estimated_bytes(problem: ExactCoverProblem, max_steps: int) -> int:
    """What ``search`` allocates for ``problem``: a set per item and a set entry and an option
    number per matrix entry (and, with colours, a dict entry per coloured one), the branch
    lists of the frames (at most every option once per level, bounded by all entries), and
    ``max_steps`` recorded steps with the solutions among them."""
    entries = sum(map(len, problem.options))
    columns = problem.items * (SET_BYTES + 2 * budget.POINTER_BYTES)
    per_entry = SET_ENTRY_BYTES + budget.INT_BYTES + budget.POINTER_BYTES
    if problem.colours is not None:
        per_entry += 3 * budget.POINTER_BYTES + 64  # a dict slot and the colour's str
    return columns + entries * per_entry + max_steps * STEP_BYTES


# Items ``settle`` may scan between two asks of the cancel hook (a few milliseconds).
SETTLE_WORK_PER_CHECK = 50_000


class _Stopped(Exception):
    """The cancel hook asked to stop inside a node's forced singles (``search``'s settle)."""


class TraceFull(Exception):
    """The trace holds ``max_steps`` steps and the search wanted to record another."""


class Recorder:
    """The steps of one traced search, at most ``max_steps`` of them.

    describe: turns an engine's raw step into the protocol's step (adds ``text``, ``place``);
    None keeps raw steps. ``add`` raises ``TraceFull`` when one step too many is offered: the
    search stops there and ``truncated`` says so, so memory never grows past the cap.
    """

    def __init__(self, max_steps: int, describe: Callable[[Step], Step] | None = None) -> None:
        self.max_steps = max_steps
        self.describe = describe
        self.steps: list[Step] = []
        self.truncated = False

    def add(self, step: Step) -> None:
        if len(self.steps) >= self.max_steps:
            self.truncated = True
            raise TraceFull
        self.steps.append(step if self.describe is None else self.describe(step))


def search(
    problem: ExactCoverProblem,
    recorder: Recorder,
    *,
    limit: int | None = 1,
    singles: bool = False,
    locked: bool = False,
    colours: list[dict[int, str]] | None = None,
    monitor: Monitor | None = None,
    max_kept: int | None = None,
) -> SearchResult[list[int]]:
    """Find up to ``limit`` exact covers, recording each step in ``recorder``.

    max_kept: keep at most this many solutions (the listing cap); the rest are counted.

    Stops early (``complete`` False) when the recorder is full; ``recorder.truncated`` then
    says so. Solutions are sorted option indices, as with the other exact cover engines.
    """
    monitor = monitor or Monitor()
    # Steps past the protocol's cap are only for direct callers (tests, benchmarks), who chose
    # to hold them; what a request can make is checked.
    budget.check(
        estimated_bytes(problem, min(recorder.max_steps, MAX_TRACE_STEPS)),
        f"the trace of {len(problem.options):,} options",
        "make the puzzle smaller or ask for fewer max_steps",
    )
    primary = problem.primary
    option_items = problem.options
    columns: dict[int, set[int]] = {item: set() for item in range(problem.items)}
    for option, items in enumerate(option_items):
        monitor.checkpoint(entries_work(len(items)))  # options may be long
        for item in items:
            columns[item].add(option)

    def colour(option: int, item: int) -> str | None:
        return colours[option].get(item) if colours is not None else None

    def select(option: int) -> Removed:
        """Cover the option's items; return what was removed, for ``deselect``."""
        removed: Removed = []
        for item in option_items[option]:
            column = columns.pop(item, None)
            if column is None:  # a secondary item already given this colour
                continue
            shade = colour(option, item)
            for other in column:
                if shade is not None and colour(other, item) == shade:
                    continue  # same colour: still compatible
                for other_item in option_items[other]:
                    if other_item != item and other_item in columns:
                        columns[other_item].discard(other)
            removed.append((item, column, shade))
        return removed

    def deselect(removed: Removed) -> None:
        for item, column, shade in reversed(removed):
            columns[item] = column
            for other in column:
                if shade is not None and colour(other, item) == shade:
                    continue
                for other_item in option_items[other]:
                    if other_item != item and other_item in columns:
                        columns[other_item].add(other)

    def strike(options: set[int]) -> Struck:
        """Take ``options`` out of every column left; return what was taken, for ``undo``."""
        taken = []
        for option in sorted(options):
            items = [item for item in option_items[option] if item in columns]
            for item in items:
                columns[item].discard(option)
            taken.append((option, items))
        return Struck(taken)

    def undo(record: Undo) -> None:
        if isinstance(record, Struck):
            for option, items in reversed(record.taken):
                for item in items:
                    columns[item].add(option)
        else:
            deselect(record)

    def active_primary() -> list[int]:
        return [item for item in range(primary) if item in columns]

    board: list[int] = []  # the options placed, by depth
    frames: list[_Frame] = []  # per level of branching
    solutions: list[list[int]] = []
    count = 0
    nodes = 0
    complete = True
    cancelled = False

    scanned = [0]  # items ``settle`` scanned since the cancel hook was last asked

    def settle(records: list[Undo]) -> tuple[str, int, int]:
        """After a choice: force singles and strike locked candidates (if asked), then say
        what the node is.

        Returns ("solution", -1, 0), ("dead", item, 0) or ("branch", item, options); raises
        ``_Stopped`` when the monitor's cancel asks: each step scans every active item, and
        on a 36x36 Sudoku the 512 nodes between the search's own checks took 2 s.
        """
        while True:
            items = active_primary()
            scanned[0] += len(items)
            if scanned[0] >= SETTLE_WORK_PER_CHECK:
                scanned[0] = 0
                if monitor.stop_asked():
                    raise _Stopped
            if not items:
                return "solution", -1, 0
            best = min(items, key=lambda item: len(columns[item]))
            size = len(columns[best])
            if size == 0:
                return "dead", best, 0
            if not singles or size > 1:
                if locked and singles:
                    struck = locked_strikes(
                        {item: sorted(columns[item]) for item in items}, option_items
                    )
                    if struck:
                        records.append(strike(struck))
                        continue
                return "branch", best, size
            (option,) = columns[best]
            recorder.add({"type": "force", "depth": len(board), "option": option, "item": best})
            board.append(option)
            records.append(select(option))

    root_undo: list[Undo] = []
    try:
        if not singles:
            nodes += 1  # the root is a node of dlx's and bitset's trees
        outcome = settle(root_undo)
        while True:
            kind, item, size = outcome
            if kind == "solution":
                count += 1
                found = sorted(board)
                recorder.add(
                    {"type": "solution", "depth": len(board), "options": found, "number": count}
                )
                if max_kept is None or len(solutions) < max_kept:
                    solutions.append(found)
                if limit is not None and count >= limit:
                    complete = False
                    break
            else:
                recorder.add({"type": "choose", "depth": len(board), "item": item, "options": size})
                if kind == "branch":
                    frames.append(_Frame(item, sorted(columns[item]), len(board)))
            # Take the next branch, backing up through exhausted levels.
            next_outcome: tuple[str, int, int] | None = None
            while frames:
                frame = frames[-1]
                if frame.undo:
                    for record in reversed(frame.undo):
                        undo(record)
                    frame.undo = []
                    del board[frame.depth :]
                    recorder.add({"type": "backtrack", "depth": frame.depth})
                frame.index += 1
                if frame.index < len(frame.branches):
                    option = frame.branches[frame.index]
                    recorder.add(
                        {
                            "type": "try",
                            "depth": frame.depth,
                            "option": option,
                            "item": frame.item,
                            "index": frame.index,
                            "of": len(frame.branches),
                        }
                    )
                    board.append(option)
                    frame.undo.append(select(option))
                    nodes += 1
                    if nodes % CHECK_EVERY == 0 and monitor.check(nodes, count):
                        cancelled = True
                        complete = False
                        break
                    next_outcome = settle(frame.undo)
                    break
                frames.pop()
            if next_outcome is None:
                break
            outcome = next_outcome
    except TraceFull:
        complete = False
    except _Stopped:
        cancelled = True
        complete = False
    monitor.finish(nodes, count, complete)
    return SearchResult(solutions, count, complete, cancelled, {"nodes": nodes})


@dataclass
class _Frame:
    """One level of branching in ``search``."""

    item: int  # the item branched on
    branches: list[int]  # its options, in trial order
    depth: int  # the board's height at this level
    index: int = -1  # the branch being tried
    # The undo records of the try and of the forces after it.
    undo: list[Undo] = field(default_factory=list)


def replay(steps: list[Step]) -> list[list[Any]]:
    """The board at every ``solution`` step, from the ``place`` of the try/force steps.

    The rule the page follows: the board is a stack; a ``try`` or ``force`` at depth d drops
    positions d and beyond and puts its place at d; a ``backtrack`` at depth d drops positions
    d and beyond; every other step is taken at depth = the stack's height. Raises ValueError
    when a trace breaks the rule (tests use this to check traces).
    """
    board: list[Any] = []
    boards = []
    for number, step in enumerate(steps):
        kind = step["type"]
        depth = step["depth"]
        if kind in ("try", "force"):
            if depth > len(board):
                raise ValueError(
                    f"step {number}: a {kind} at depth {depth} skips a level "
                    f"(the board holds {len(board)})"
                )
            del board[depth:]
            board.append(step["place"])
        elif kind == "backtrack":
            if depth > len(board):
                raise ValueError(f"step {number}: a backtrack to depth {depth} above the board")
            del board[depth:]
        elif depth != len(board):
            raise ValueError(
                f"step {number}: a {kind} at depth {depth} while the board holds {len(board)}"
            )
        elif kind == "solution":
            boards.append(list(board))
    return boards


def exact_cover_describer(
    item_label: Callable[[int], str],
    option_label: Callable[[int], str],
    place: Callable[[int], Any],
    item_value: Callable[[int], Any],
) -> Callable[[Step], Step]:
    """A ``describe`` for exact cover traces, from a kind's names for items and options.

    item_label(i): e.g. "cell (3, 5)"; option_label(o): e.g. "the piece L on (3, 5) ..."; place(o):
    the kind's ``place`` value for option o; item_value(i): the ``item`` of a ``choose`` step
    in the kind's terms (e.g. ``{"cell": [3, 5]}``), so a page can highlight it.
    """

    def describe(raw: Step) -> Step:
        kind = raw["type"]
        step: Step = {"type": kind, "depth": raw["depth"]}
        if kind == "choose":
            label = item_label(raw["item"])
            step["item"] = item_value(raw["item"])
            step["options"] = raw["options"]
            if raw["options"] == 1:
                step["text"] = f"{capital(label)} has only one option left: take it"
            elif raw["options"]:
                step["text"] = (
                    f"{capital(label)} has the fewest options ({raw['options']}): try each in turn"
                )
            elif raw.get("short"):
                step["text"] = (
                    f"{capital(label)} has too few options left to be covered as often as its "
                    "multiplicity asks: a dead end"
                )
            else:
                step["text"] = f"{capital(label)} has no option left: a dead end"
        elif kind == "try":
            step["place"] = place(raw["option"])
            step["text"] = (
                f"Try {option_label(raw['option'])} for {item_label(raw['item'])} "
                f"(option {raw['index'] + 1} of {raw['of']})"
            )
        elif kind == "force":
            step["place"] = place(raw["option"])
            step["text"] = (
                f"Force {option_label(raw['option'])}: the only option left for "
                f"{item_label(raw['item'])}"
            )
        elif kind == "backtrack":
            step["text"] = f"Back up: take back the choice at depth {raw['depth']} and after"
        else:
            step["number"] = raw["number"]
            step["text"] = f"Solution {raw['number']}: every item is covered"
        return step

    return describe


def cell_words(row: int, column: int) -> str:
    """A cell as a person reads it: "row 1, column 3" for ``[0, 2]`` (rows and columns count
    from 1 wherever words are shown, as Sudoku's always did; the JSON stays 0-based)."""
    return f"row {row + 1}, column {column + 1}"


def capital(text: str) -> str:
    """``text`` with its first letter upper case: a step's label opening a sentence."""
    return text[:1].upper() + text[1:]
