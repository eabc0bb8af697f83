"""The ``exact_cover`` kind: a matrix given by item names, solved by Algorithm X.

Puzzle, either as JSON lists::

    {"items": ["a", "b", "c"], "secondary": ["x"], "options": [["a", "x"], ["b", "c"], ...]}

or as text in Knuth's DLX1 format::

    {"text": "| comment\\na b c | x\\na x\\nb c\\n"}

In the text, lines starting with ``|`` are comments and blank lines are ignored; the first other
line lists the items separated by whitespace, primary items first, then ``|``, then the
secondary items (if any); every later line is one option, naming its items.

Primary items must be covered exactly once, secondary items at most once. An option must name
at least one item, and only declared ones, each once. As in Knuth's programs, an option made
only of secondary items can never be chosen (the search only branches on primary items).
Item names are strings (in text: any whitespace-free token without ``|``) without ``:``.

Colours (Knuth's DLX2 format, exact covering with colours): an option may write ``x:A`` for a
secondary item ``x``, in the text (``p q x:A``) and in JSON (``["p", "q", "x:A"]``), and ``x`` is
declared once, without a colour, among the secondary items. Any number of chosen options may
then share ``x`` as long as they all give it the same colour; an option using ``x`` without a
colour still excludes every other use of it. Colour names are any non-empty strings without
``:`` (in text also without whitespace or ``|``). Errors: a colour on a primary item (Knuth's
rule), an entry with an empty item or colour (``:A``, ``x:``) or more than one ``:``, a coloured
item that is not declared, an item named twice in one option (``x x:A`` or ``x:A x:B``
included), and ``:`` in a declared item name.

Multiplicities (Knuth's DLX3): ``"multiplicities": {"A": [u, v]}`` in JSON, or ``u:v|A`` (``v|A``
when u = v) before a primary item's name on the text's items line, has item ``A`` covered at
least u and at most v times (0 <= u <= v, 1 <= v <= ``MAX_MULTIPLICITY``); a bare name means
exactly once. Only primary items take them. A count counts distinct sets of options. The
``bitset`` engine (Algorithm M on masks, the default then: 1.1-11x faster) and ``dlx``
(Algorithm M on links, the same tree) search them; ``memo`` refuses them. Trace mode records
Algorithm M's steps and subtree tasks follow its tree (``dlx.trace_multiplicities``,
``cover.split``) whichever engine searches. ``knuth_text`` writes a JSON puzzle in this
text format.

A solution is the sorted list of the indices (0-based, in input order) of the chosen options.
When the puzzle has colours, the response adds ``colors``, parallel to ``solutions``: per
solution, an object mapping each secondary item that received a colour to that colour, in item
order (items used uncoloured or not at all are left out), e.g. ``[{"x": "A"}]`` for Knuth's
example in docs/kinds.md. The response also names the ``engine`` used and includes its counters
in ``stats``.

Trace mode (``"mode": "trace"``): the steps of Algorithm X (``pysolver.engines.trace``, the
same tree as ``dlx`` and ``bitset``); a ``choose`` step's ``item`` is the item's name, ``place``
is ``{"option": index}``. No heatmap for this kind.

Size caps (checked before any search, error code ``too_large``): at most ``MAX_ITEMS`` items,
``MAX_OPTIONS`` options and ``MAX_ENTRIES`` (option, item) entries in all. The ``bitset``
engine keeps one mask of all options per option, so it needs about options^2 / 8 bytes; above
``BITSET_MAX_OPTIONS`` options the default engine is ``dlx`` instead, and asking for
``bitset`` (or ``memo``, which counts over bitset's masks) explicitly is an error.

A count (mode ``count`` with no limit) on a matrix without secondary items, asking for no
engine, runs on ``memo``: its remembered remaining-item sets made such counts 0.72-0.84x of
bitset's time on pentomino rectangles and holed squares and Langford pairs, and equal on random
matrices; with secondary items (N queens' diagonals) covered sets rarely repeat and memo was
1.1x slower, so those stay on bitset (measured in ``_count_engine``'s comment).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from pysolver import budget
from pysolver.engines import dlx, trace
from pysolver.engines.cover import (
    MAX_ENTRIES,
    MULTIPLICITY_ENGINES,
    ExactCoverProblem,
    engine_modules,
    estimated_bytes,
    search,
    split_for,
)
from pysolver.engines.monitor import Monitor, SearchResult, entries_work
from pysolver.facts import engine_facts
from pysolver.kinds.exact_cover.pictures import solution_text as solution_text
from pysolver.midend.plan import Plan, SearchArgs, TraceArgs
from pysolver.protocol import (
    INVALID_REQUEST,
    TOO_LARGE,
    Query,
    SolveError,
    puzzle_error,
    require_dict,
    require_list,
    require_str,
    shown,
)

# Primary names, secondary names, options as names, per option (label for messages, JSON path,
# whether entries have their own paths), the items line number (None for JSON lists), and the
# multiplicities (u, v) of the primary items that have them, by name.
_Names = tuple[
    list[str],
    list[str],
    list[list[str]],
    list[tuple[str, str, bool]],
    int | None,
    dict[str, tuple[int, int]],
]

# The kind's place in the registry: its tab, its place in menus and lists of kinds.
ORDER = 50
# A small puzzle with a few solutions (the tests and benchmarks of every kind run it).
EXAMPLE: dict[str, Any] = {"kind": "exact_cover", "puzzle": {"text": "A B\nA\nB\nA B\n"}}

# The faster engine on bench/bench_exact_cover.py comes first: it is the default.
# memo: bitset's search that counts with memoised remaining-item sets (faster whole counts,
# bitset's search for everything else); offered, not the default, on arbitrary matrices.
ENGINE_MODULES = engine_modules("bitset", "dlx", "memo")
ENGINES = tuple(ENGINE_MODULES)
PUZZLE_FIELDS = ("items", "secondary", "options", "multiplicities", "text")
OPTIONS: tuple[str, ...] = ()
SPLITTABLE = True

MAX_ITEMS = 100_000
MAX_OPTIONS = 200_000
# 20,000 options make 20,000 masks of 2,500 bytes each: 50 MB, about what a browser tab affords.
BITSET_MAX_OPTIONS = 20_000
# The largest upper bound of a multiplicity: no item is ever covered by more options than exist.
MAX_MULTIPLICITY = MAX_OPTIONS
# A multiplicity in Knuth's text, u:v or v, before '|' and an item name (DLX3).
_BOUNDS = re.compile(r"(?:([0-9]+):)?([0-9]+)")


def facts() -> dict[str, Any]:
    """What the page needs to know about this kind (see ``pysolver.facts``)."""
    return {
        "title": "Exact cover",
        "help": (
            "Choose some of the options so that every item is covered exactly once (and every "
            "secondary item at most once, or by any number of options that all give it the same "
            "colour, written x:A; an item written u:v|A on the items line is covered u to v "
            "times). Knuth's Algorithm X searches for such choices, always "
            "branching on the item with the fewest options left, on dancing links or on bitsets."
        ),
        **engine_facts(ENGINE_MODULES),
        "limits": {
            "max_items": MAX_ITEMS,
            "max_options": MAX_OPTIONS,
            "max_entries": MAX_ENTRIES,
            "bitset_max_options": BITSET_MAX_OPTIONS,
            "max_multiplicity": MAX_MULTIPLICITY,
        },
    }


@dataclass
class ColouredProblem(ExactCoverProblem):
    """A problem with colours, with the names needed to report them back."""

    secondary_names: list[str] = field(default_factory=list)
    colour_names: list[str] = field(default_factory=list)  # colour k is colour_names[k - 1]


def prepare(puzzle: Any, query: Query, engine: str) -> Plan:
    """The search of an exact cover request for the midend. Trace mode names items as in the
    puzzle (a ``choose`` step's ``item`` is the name); ``place`` is ``{"option": index}``."""
    # Reading 2M entries takes seconds: a cancel stops it.
    monitor = Monitor(query.progress, query.cancel)
    problem, item_names, request_bytes = _parse(puzzle, monitor)

    def run(args: SearchArgs) -> SearchResult[list[int]]:
        return search(problem, args.engine, **args.search_options())

    def option_label(option: int) -> str:
        return f"option {option} ({' '.join(item_names[i] for i in problem.options[option])})"

    def traced(args: TraceArgs) -> SearchResult[list[int]]:
        args.recorder.describe = trace.exact_cover_describer(
            lambda item: f"item {item_names[item]!r}",
            option_label,
            lambda option: {"option": option},
            lambda item: item_names[item],
        )
        return dlx.trace_cover(
            problem,
            args.recorder,
            limit=args.limit,
            max_kept=args.max_kept,
            monitor=args.monitor,
            colours=_colour_maps(problem),
        )

    solution_bytes, solution_chars = solution_size(problem, monitor)
    return Plan(
        run=run,
        decode=decode,
        listed_bytes=solution_bytes,
        listed_chars=solution_chars,
        split=lambda engine, wanted, monitor: [
            split_for(problem, engine, wanted, counting=_whole_count(query), monitor=monitor)
        ],
        trace=traced,
        solution_fields=(
            partial(_colours_field, problem) if isinstance(problem, ColouredProblem) else None
        ),
        needed_bytes=partial(_needed_bytes, problem, request_bytes),
        too_large=(
            f"the {{engine}} engine on this matrix ({len(problem.options):,} options, "
            f"{problem.primary:,} primary items)"
        ),
        shrink="use fewer options or items",
        engine=_bitset_or_dlx(problem, _count_engine(problem, engine, query), query),
        exact_cover=lambda: [problem],
    )


def _whole_count(query: Query) -> bool:
    """A count of every solution: the memo engine then counts with its own walk and split."""
    return query.mode == "count" and query.limit is None and not query.heatmap


def _needed_bytes(problem: ExactCoverProblem, request_bytes: int, engine: str) -> int:
    """What ``engine`` allocates for ``problem``, next to the ``request_bytes`` the parsed
    request goes on holding; an engine that cannot take the problem's multiplicities never
    fits, so the midend's memory rule never moves the search to it."""
    if problem.multiplicities is not None and engine not in MULTIPLICITY_ENGINES:
        return sys.maxsize
    return request_bytes + estimated_bytes(problem, engine)


def _colours_field(problem: ColouredProblem, solutions: list[list[int]]) -> dict[str, Any]:
    return {"colors": solution_colours(problem, solutions)}


def _colour_maps(problem: ExactCoverProblem) -> list[dict[int, str]] | None:
    """The tracer's form of a problem's colours: per option, secondary item -> colour."""
    if problem.colours is None:
        return None
    return [
        {item: str(colour) for item, colour in zip(items, colours, strict=True) if colour}
        for items, colours in zip(problem.options, problem.colours, strict=True)
    ]


def solution_colours(problem: ColouredProblem, solutions: list[list[int]]) -> list[dict[str, str]]:
    """Per solution, the colour each secondary item received from its chosen options (all
    agree), by item name in item order; items used uncoloured or not at all are left out."""
    option_colours = problem.colours or []
    coloured_solutions = []
    for solution in solutions:
        given: dict[int, int] = {}
        for index in solution:
            for item, colour in zip(problem.options[index], option_colours[index], strict=True):
                if colour:
                    given[item] = colour
        coloured_solutions.append(
            {
                problem.secondary_names[item - problem.primary]: problem.colour_names[colour - 1]
                for item, colour in sorted(given.items())
            }
        )
    return coloured_solutions


def _count_engine(problem: ExactCoverProblem, engine: str, query: Query) -> str:
    """``memo`` for a whole count without secondary items when no engine was asked for.

    CPU seconds, bitset -> memo, best of 2 in one process (count mode, plain matrices): 6x10
    pentominoes X in one quadrant 2.54 -> 2.01, 5x12 likewise 2.24 -> 1.62, 8x8 with a centre
    hole 0.85 -> 0.66, Langford pairs n=11 0.93 -> 0.77, random 30x150 0.02 both; N queens as
    exact cover with secondary diagonals (n=12) 0.59 -> 0.67, hence the rule.
    """
    whole_count = query.mode == "count" and query.limit is None and not query.heatmap
    plain = not problem.secondary and problem.multiplicities is None  # memo takes neither
    if query.engine is None and whole_count and plain and engine == "bitset":
        return "memo"
    return engine


def _bitset_or_dlx(problem: ExactCoverProblem, engine: str, query: Query) -> str:
    """The bitset engine's masks (which the memo engine uses too) are refused past
    ``BITSET_MAX_OPTIONS``: dlx then, unless the request named the engine. Multiplicities
    are searched by the ``MULTIPLICITY_ENGINES`` (Algorithm M): the first of them when no
    engine was named, a refusal when the named one is not among them."""
    if problem.multiplicities is not None and query.engine is None:
        engine = MULTIPLICITY_ENGINES[0]
    if problem.multiplicities is not None and engine not in MULTIPLICITY_ENGINES:
        raise SolveError(
            INVALID_REQUEST,
            f"the {engine} engine covers every item exactly once and does not take "
            f"multiplicities; use {' or '.join(MULTIPLICITY_ENGINES)} ({MULTIPLICITY_ENGINES[0]} "
            "is the default for them)",
            "engine",
        )
    if engine in ("bitset", "memo") and len(problem.options) > BITSET_MAX_OPTIONS:
        if query.engine is not None:
            raise SolveError(
                TOO_LARGE,
                f"the {engine} engine handles at most {BITSET_MAX_OPTIONS:,} options and this "
                f"puzzle has {len(problem.options):,}; use the dlx engine",
                "engine",
            )
        return "dlx"
    return engine


def solution_size(problem: ExactCoverProblem, monitor: Monitor | None = None) -> tuple[int, int]:
    """What one listed solution costs at most, in bytes (its option indices as the engine keeps
    them and as decoded) and in JSON characters. A solution covers each primary item once (with
    multiplicities: at most its upper bound of times), each of its options at least as many
    as the option covering the fewest, and holds each option at most once. ``monitor``:
    cancels the count over 2M entries (``Cancelled``)."""
    monitor = monitor or Monitor()
    is_primary = problem.primary.__gt__
    smallest = 0
    for option in problem.options:
        monitor.checkpoint(entries_work(len(option)))
        covers = sum(map(is_primary, option))
        if covers and (not smallest or covers < smallest):
            smallest = covers
    smallest = smallest or 1
    covered = problem.primary
    if problem.multiplicities is not None:
        covered = sum(high for _low, high in problem.multiplicities)
    options = min(covered // smallest, len(problem.options)) + 1
    chars = 8 * options
    return 2 * budget.list_bytes(options, budget.INT_BYTES) + chars, chars


def parse_puzzle(puzzle: Any, monitor: Monitor | None = None) -> ExactCoverProblem:
    """The exact cover problem of a puzzle object (lists or Knuth text), or a ``SolveError``.

    monitor: cancels reading a big matrix (``Cancelled``); reading 2M entries takes seconds.
    """
    return parse_named(puzzle, monitor)[0]


def parse_named(puzzle: Any, monitor: Monitor | None = None) -> tuple[ExactCoverProblem, list[str]]:
    """The exact cover problem of a puzzle object and its item names (primary first)."""
    problem, item_names, _ = _parse(puzzle, monitor or Monitor())
    return problem, item_names


def _parse(puzzle: Any, monitor: Monitor) -> tuple[ExactCoverProblem, list[str], int]:
    """``parse_named``'s problem and item names, and the bytes the puzzle object goes on
    holding while the problem is searched (``_read_lists``): the budget counts them too."""
    puzzle = require_dict(puzzle, "puzzle")
    has_lists = "items" in puzzle or "options" in puzzle
    if "text" in puzzle:
        if has_lists:
            raise puzzle_error("give either items and options, or text, not both", "puzzle.text")
        if "multiplicities" in puzzle:
            raise puzzle_error(
                "with a text, write the multiplicities on its items line, as u:v|A (or v|A)",
                "puzzle.multiplicities",
            )
        text = require_str(puzzle["text"], "puzzle.text")
        names = _read_text(text, monitor)
        # The options read from the text are this module's own and die once encoded.
        request_bytes = sys.getsizeof(text)
    elif has_lists:
        names, request_bytes = _read_lists(puzzle, monitor)
    else:
        raise puzzle_error(
            'an exact cover puzzle needs "items" and "options" lists, or a "text" in '
            "Knuth's format (items line, then one option a line)"
        )
    primary, secondary, options = names[0], names[1], names[2]
    _check_links(len(primary) + len(secondary), options, request_bytes)
    return encode(*names, monitor=monitor), [*primary, *secondary], request_bytes


def _check_links(items: int, options: list[list[str]], request_bytes: int) -> None:
    """Refuse a matrix whose dancing links (the leaner engine) would not fit the budget, next
    to the numbered matrix itself (a list of item numbers per option) and the
    ``request_bytes`` the parsed request holds all along (its caller keeps it)."""
    entries = sum(map(len, options))
    matrix = budget.list_bytes(len(options), budget.LIST_BYTES) + entries * budget.POINTER_BYTES
    budget.check(
        request_bytes + matrix + dlx.links_bytes(items, len(options), entries),
        f"a matrix of {len(options):,} options and {entries:,} entries (with the "
        f"{budget.megabytes(request_bytes)} its parsed request holds)",
        "use fewer options or shorter ones",
        "puzzle.options",
    )


def _read_lists(
    puzzle: dict[str, Any],
    monitor: Monitor,
) -> tuple[_Names, int]:
    """Names from the JSON form, with the path of every option entry for error messages, and
    the bytes the puzzle's lists and names take once read.

    The puzzle is read, never changed. An entry that is its declared name's own str costs
    nothing more: ``protocol.loads`` shares equal strs (JSON's reader makes one per
    occurrence: at the caps 2,000,000, 110 MB next to the links), and so does
    ``library.exact_cover_puzzle``. Any other entry (a coloured ``x:A``, or an equal copy a
    caller made) is counted."""
    if "items" not in puzzle:
        raise puzzle_error("the puzzle has options but no items list", "puzzle.items")
    if "options" not in puzzle:
        raise puzzle_error("the puzzle has items but no options list", "puzzle.options")
    primary = require_list(puzzle["items"], "puzzle.items")
    secondary = require_list(puzzle.get("secondary", []), "puzzle.secondary")
    declared: dict[str, str] = {}
    held = sys.getsizeof(primary) + sys.getsizeof(secondary)
    for list_name, names in (("items", primary), ("secondary", secondary)):
        for position, name in enumerate(names):
            declared.setdefault(require_str(name, f"puzzle.{list_name}[{position}]"), name)
            held += sys.getsizeof(name)
    options_value = require_list(puzzle["options"], "puzzle.options")
    _check_counts(len(primary) + len(secondary), len(options_value))
    held += sys.getsizeof(options_value)
    locations = []
    entries = 0
    for index, option in enumerate(options_value):
        path = f"puzzle.options[{index}]"
        option = require_list(option, path)
        # Work in entries: an option may name thousands of items.
        monitor.checkpoint(entries_work(len(option)))
        entries += len(option)
        if entries > MAX_ENTRIES:
            raise _too_many_entries()
        held += sys.getsizeof(option)
        for position, name in enumerate(option):
            if not isinstance(name, str) or declared.get(name) is not name:
                held += sys.getsizeof(require_str(name, f"{path}[{position}]"))
        locations.append((f"option {index}", path, True))
    multiplicities = _read_multiplicities(puzzle.get("multiplicities", {}), primary, secondary)
    return (primary, secondary, options_value, locations, None, multiplicities), held


def _read_multiplicities(
    value: Any, primary: list[str], secondary: list[str]
) -> dict[str, tuple[int, int]]:
    """The JSON ``multiplicities``: ``{"A": [u, v]}`` for primary items only."""
    given = require_dict(value, "puzzle.multiplicities")
    primary_names = set(primary)
    multiplicities = {}
    for name, bounds in given.items():
        path = f"puzzle.multiplicities.{name}"
        if name not in primary_names:
            raise puzzle_error(_not_primary(name, name in set(secondary)), path)
        if (
            not isinstance(bounds, list)
            or len(bounds) != 2
            or not all(isinstance(bound, int) and not isinstance(bound, bool) for bound in bounds)
        ):
            raise puzzle_error(
                f"the multiplicity of item {shown(name)} must be a list of two integers [u, v]: "
                "covered at least u and at most v times",
                path,
            )
        problem = _bounds_problem(name, bounds[0], bounds[1])
        if problem is not None:
            raise puzzle_error(problem, path)
        multiplicities[name] = (bounds[0], bounds[1])
    return multiplicities


def _not_primary(name: str, secondary: bool) -> str:
    if secondary:
        return (
            f"item {shown(name)} is secondary; only primary items take multiplicities (a "
            "secondary item is covered at most once, or shared under one colour)"
        )
    return f"item {shown(name)} has a multiplicity but is not a declared primary item"


def _bounds_problem(name: str, low: int, high: int) -> str | None:
    """What is wrong with the multiplicity (low, high) of item ``name``, or None."""
    if low < 0 or high < 0:
        return f"the multiplicity of item {shown(name)} has a negative bound"
    if low > high:
        return (
            f"the multiplicity of item {shown(name)} has u = {low} above v = {high}; "
            "write u <= v (at least u and at most v options)"
        )
    if high == 0:
        return (
            f"item {shown(name)} has the upper bound 0, which forbids every option naming it; "
            "remove those options (and the item) instead"
        )
    if high > MAX_MULTIPLICITY:
        return (
            f"the multiplicity of item {shown(name)} has v = {high:,}; the limit is "
            f"{MAX_MULTIPLICITY:,} (the most options a puzzle may have)"
        )
    return None


def _read_text(
    text: str,
    monitor: Monitor,
) -> _Names:
    """Names from Knuth's text format; error locations are line numbers."""
    primary: list[str] | None = None
    items_line = 0
    multiplicities: dict[str, tuple[int, int]] = {}
    secondary: list[str] = []
    options: list[list[str]] = []
    locations: list[tuple[str, str, bool]] = []
    entries = 0
    for number, line in enumerate(text.splitlines(), start=1):
        monitor.checkpoint()
        stripped = line.strip()
        if not stripped or stripped.startswith("|"):
            continue
        tokens = stripped.split()
        if primary is None:
            # The items line: DLX3's multiplicities u:v|A and v|A, before the '|' alone.
            tokens = _read_bounds(tokens, number, multiplicities)
        for token in tokens:
            if "|" in token and token != "|":
                raise puzzle_error(
                    f"line {number}: {shown(token)} contains '|', which only separates primary "
                    "from secondary items on the items line",
                    "puzzle.text",
                )
        if primary is None:
            if tokens.count("|") > 1:
                raise puzzle_error(
                    f"line {number}: the items line has more than one '|'; put a single '|' "
                    "between the primary and the secondary items",
                    "puzzle.text",
                )
            if "|" in tokens:
                split = tokens.index("|")
                primary, secondary = tokens[:split], tokens[split + 1 :]
            else:
                primary = tokens
            items_line = number
            continue
        if "|" in tokens:
            raise puzzle_error(
                f"line {number}: an option cannot contain '|' (only the items line can)",
                "puzzle.text",
            )
        entries += len(tokens)
        if entries > MAX_ENTRIES:
            raise _too_many_entries()
        if len(options) >= MAX_OPTIONS:
            _check_counts(0, len(options) + 1)
        options.append(tokens)
        locations.append((f"line {number}", "puzzle.text", False))
    if primary is None:
        raise puzzle_error(
            "the text has no items line: the first line that is not a comment ('|' ...) "
            "must list the items",
            "puzzle.text",
        )
    _check_counts(len(primary) + len(secondary), len(options))
    return primary, secondary, options, locations, items_line, multiplicities


def _read_bounds(
    tokens: list[str], number: int, multiplicities: dict[str, tuple[int, int]]
) -> list[str]:
    """The items line's tokens with DLX3's multiplicities taken off the primary item names and
    put in ``multiplicities``: ``u:v|A`` (covered u to v times) and ``v|A`` (exactly v)."""
    names = []
    primary_part = True
    for token in tokens:
        if token == "|":
            primary_part = False
        elif "|" in token:
            bounds, _, name = token.partition("|")
            match = _BOUNDS.fullmatch(bounds)
            problem = None
            if not match or not name or "|" in name:
                problem = (
                    f"{shown(token)} is not an item with a multiplicity; write u:v|A or v|A "
                    "(decimal numbers, then '|', then the item's name, no spaces)"
                )
            elif not primary_part:
                problem = _not_primary(name, True)
            else:
                low_text, high_text = match.group(1) or match.group(2), match.group(2)
                if max(len(low_text), len(high_text)) > len(str(MAX_MULTIPLICITY)):
                    problem = (
                        f"the multiplicity of item {shown(name)} is beyond the limit of "
                        f"{MAX_MULTIPLICITY:,}"
                    )
                else:
                    problem = _bounds_problem(name, int(low_text), int(high_text))
                    multiplicities[name] = (int(low_text), int(high_text))
            if problem is not None:
                raise puzzle_error(f"line {number}: {problem}", "puzzle.text")
            token = name
        names.append(token)
    return names


def _check_counts(item_count: int, option_count: int) -> None:
    if item_count > MAX_ITEMS:
        raise SolveError(
            TOO_LARGE,
            f"the puzzle has {item_count:,} items; the limit is {MAX_ITEMS:,}",
            "puzzle.items",
        )
    if option_count > MAX_OPTIONS:
        raise SolveError(
            TOO_LARGE,
            f"the puzzle has {option_count:,} options; the limit is {MAX_OPTIONS:,}",
            "puzzle.options",
        )


def _too_many_entries() -> SolveError:
    return SolveError(
        TOO_LARGE,
        f"the options name more than {MAX_ENTRIES:,} items in all; that is the limit",
        "puzzle.options",
    )


def decode(chosen: list[int]) -> list[int]:
    """A solution's JSON: the chosen option indices, sorted (as every exact cover engine gives
    them; sorting here keeps that promise of the kind whatever the engine)."""
    return sorted(chosen)


def encode(
    primary: list[str],
    secondary: list[str],
    options: list[list[str]],
    locations: list[tuple[str, str, bool]],
    items_line: int | None,
    multiplicities: dict[str, tuple[int, int]] | None = None,
    monitor: Monitor | None = None,
) -> ExactCoverProblem:
    """Number the items (primary first) and check every option against them; with
    ``multiplicities`` (by primary item name), the problem's per item (u, v), unless every
    item is covered exactly once (then the engines' plain path)."""
    monitor = monitor or Monitor()
    if not primary:
        raise puzzle_error(
            "there are no primary items: list at least one item to cover exactly once",
            "puzzle.items" if items_line is None else "puzzle.text",
        )
    number_of: dict[str, int] = {}
    for list_name, names in (("items", primary), ("secondary", secondary)):
        for position, name in enumerate(names):
            problem = None
            if name in number_of:
                problem = f"item {shown(name)} is listed twice"
            elif ":" in name:
                problem = (
                    f"item {shown(name)} contains ':', which in an option separates an item from "
                    "its colour (x:A); rename the item"
                )
            if problem is not None:
                if items_line is None:
                    raise puzzle_error(problem, f"puzzle.{list_name}[{position}]")
                raise puzzle_error(f"line {items_line}: {problem}", "puzzle.text")
            number_of[name] = len(number_of)
    primary_count = len(primary)
    colour_number: dict[str, int] = {}
    # (option, position, colour) of every coloured entry: uncoloured puzzles build no colours.
    coloured_entries: list[tuple[int, int, int]] = []
    encoded: list[list[int]] = []
    for names, (label, path, entries_have_paths) in zip(options, locations, strict=True):
        monitor.checkpoint(entries_work(len(names)))
        if not names:
            raise puzzle_error(f"{label} is empty: an option must name at least one item", path)
        option: list[int] = []
        seen: set[int] = set()
        for position, name in enumerate(names):
            item_name, colour_name = name, None
            if ":" in name:
                item_name, _, colour_name = name.partition(":")
            item = number_of.get(item_name)
            problem = None
            if colour_name is not None and (not item_name or not colour_name or ":" in colour_name):
                problem = (
                    f"{label} names {shown(name)}: a coloured item is written item:colour, with "
                    "one ':' between two non-empty names, as in x:A"
                )
            elif item is None:
                problem = f"{label} names {shown(item_name)}, which is not a declared item"
                if colour_name is not None:
                    problem += " (declare it once, without a colour, among the secondary items)"
            elif item in seen:
                problem = f"{label} names item {shown(item_name)} twice"
            elif colour_name is not None and item < primary_count:
                problem = (
                    f"{label} gives the primary item {shown(item_name)} a colour "
                    f"({shown(name)}); only secondary items can have colours (declare it after "
                    """'|' or in "secondary", or drop the colour)"""
                )
            if problem is not None or item is None:  # (item is None always has a problem)
                problem = problem or f"{label} names {shown(name)}, which is not a declared item"
                raise puzzle_error(problem, f"{path}[{position}]" if entries_have_paths else path)
            seen.add(item)
            option.append(item)
            if colour_name is not None:
                colour = colour_number.setdefault(colour_name, len(colour_number) + 1)
                coloured_entries.append((len(encoded), position, colour))
        encoded.append(option)
    bounds = [(multiplicities or {}).get(name, (1, 1)) for name in primary]
    per_item = None if all(bound == (1, 1) for bound in bounds) else bounds
    if not coloured_entries:
        return ExactCoverProblem(primary_count, len(secondary), encoded, multiplicities=per_item)
    colours = [[0] * len(option) for option in encoded]
    for index, position, colour in coloured_entries:
        colours[index][position] = colour
    return ColouredProblem(
        primary_count,
        len(secondary),
        encoded,
        colours,
        multiplicities=per_item,
        secondary_names=list(secondary),
        colour_names=list(colour_number),
    )


def knuth_text(puzzle: dict[str, Any]) -> str:
    """The JSON form of a puzzle written in Knuth's text format (DLX1 to DLX3): the items line
    with ``u:v|A`` (or ``v|A``) before primary items that have a multiplicity, then ``|`` and
    the secondary items, then one option a line. Reading it back gives the same problem."""
    bounds = puzzle.get("multiplicities", {})

    def item(name: str) -> str:
        if name not in bounds:
            return name
        low, high = bounds[name]
        return f"{high}|{name}" if low == high else f"{low}:{high}|{name}"

    items = [item(name) for name in puzzle["items"]]
    if puzzle.get("secondary"):
        items += ["|", *puzzle["secondary"]]
    return "\n".join([" ".join(items), *(" ".join(option) for option in puzzle["options"])]) + "\n"
