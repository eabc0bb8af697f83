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
Item names are strings (in text: any whitespace-free token without ``|``).

A solution is the sorted list of the indices (0-based, in input order) of the chosen options.
The response also names the ``engine`` used and includes its counters in ``stats``.

Size caps (checked before any search, error code ``too_large``): at most ``MAX_ITEMS`` items,
``MAX_OPTIONS`` options and ``MAX_ENTRIES`` (option, item) entries in all. The ``bitset``
engine keeps one mask of all options per option, so it needs about options^2 / 8 bytes; above
``BITSET_MAX_OPTIONS`` options the default engine is ``dlx`` instead, and asking for
``bitset`` explicitly is an error.
"""

from __future__ import annotations

from typing import Any

from pysolver import budget
from pysolver.engines import dlx
from pysolver.engines.exact_cover import (
    MAX_ENTRIES,
    ExactCoverProblem,
    engine_modules,
    engine_within_budget,
    search,
)
from pysolver.engines.monitor import Monitor
from pysolver.facts import engine_facts
from pysolver.protocol import (
    TOO_LARGE,
    Query,
    SolveError,
    engine_for,
    puzzle_error,
    require_dict,
    require_list,
    require_str,
    response_fields,
)

# Primary names, secondary names, options as names, per option (label for messages, JSON path,
# whether entries have their own paths), and the items line number (None for JSON lists).
_Names = tuple[list[str], list[str], list[list[str]], list[tuple[str, str, bool]], int | None]

# The faster engine on bench/bench_exact_cover.py comes first: it is the default.
ENGINE_MODULES = engine_modules("bitset", "dlx")
ENGINES = tuple(ENGINE_MODULES)

MAX_ITEMS = 100_000
MAX_OPTIONS = 200_000
# 20,000 options make 20,000 masks of 2,500 bytes each: 50 MB, about what a browser tab affords.
BITSET_MAX_OPTIONS = 20_000


def facts() -> dict[str, Any]:
    """What the page needs to know about this kind (see ``pysolver.facts``)."""
    return {
        "title": "Exact cover",
        **engine_facts(ENGINE_MODULES),
        "limits": {
            "max_items": MAX_ITEMS,
            "max_options": MAX_OPTIONS,
            "max_entries": MAX_ENTRIES,
            "bitset_max_options": BITSET_MAX_OPTIONS,
        },
    }


def solve(puzzle: Any, query: Query) -> dict[str, Any]:
    """Validate ``puzzle``, run the exact cover search ``query`` asks for, return the fields."""
    monitor = Monitor(query.progress, query.cancel)
    engine = engine_for(query, ENGINES)
    problem = parse_puzzle(puzzle, monitor)
    if engine == "bitset" and len(problem.options) > BITSET_MAX_OPTIONS:
        if query.engine is not None:
            raise SolveError(
                TOO_LARGE,
                f"the bitset engine handles at most {BITSET_MAX_OPTIONS:,} options and this "
                f"puzzle has {len(problem.options):,}; use the dlx engine",
                "engine",
            )
        engine = "dlx"
    engine = engine_within_budget(
        problem, engine, ENGINES, query.engine is not None, "use fewer options or items"
    )
    result = search(
        problem,
        engine,
        limit=query.search_limit,
        keep_solutions=query.wants_solutions,
        max_kept=budget.listed_cap(*solution_size(problem)) if query.wants_solutions else 0,
        rng=query.rng() if query.mode == "random" else None,
        monitor=monitor,
    )
    return response_fields(result.map(decode), engine)


def solution_size(problem: ExactCoverProblem) -> tuple[int, int]:
    """What one listed solution costs at most, in bytes (its option indices as the engine keeps
    them and as decoded) and in JSON characters. A solution has at most one option per primary
    item covered by the option covering the fewest."""
    is_primary = problem.primary.__gt__
    covers = (sum(map(is_primary, option)) for option in problem.options)
    smallest = min(filter(None, covers), default=1)
    options = problem.primary // smallest + 1
    chars = 8 * options
    return 2 * budget.list_bytes(options, budget.INT_BYTES) + chars, chars


def parse_puzzle(puzzle: Any, monitor: Monitor | None = None) -> ExactCoverProblem:
    """The exact cover problem of a puzzle object (lists or Knuth text), or a ``SolveError``.

    monitor: cancels reading a big matrix (``Cancelled``); reading 2M entries takes seconds.
    """
    monitor = monitor or Monitor()
    puzzle = require_dict(puzzle, "puzzle")
    has_lists = "items" in puzzle or "options" in puzzle
    if "text" in puzzle:
        if has_lists:
            raise puzzle_error("give either items and options, or text, not both", "puzzle.text")
        text = require_str(puzzle["text"], "puzzle.text")
        names = _read_text(text, monitor)
    elif has_lists:
        names = _read_lists(puzzle, monitor)
    else:
        raise puzzle_error(
            'an exact cover puzzle needs "items" and "options" lists, or a "text" in '
            "Knuth's format (items line, then one option a line)"
        )
    _check_links(*names)
    return encode(*names, monitor=monitor)


def _check_links(
    primary: list[str], secondary: list[str], options: list[list[str]], *_: Any
) -> None:
    """Refuse a matrix whose dancing links (the leaner engine) would not fit the budget, next
    to the numbered matrix itself (a list of item numbers per option)."""
    entries = sum(map(len, options))
    matrix = budget.list_bytes(len(options), budget.LIST_BYTES) + entries * budget.POINTER_BYTES
    budget.check(
        matrix + dlx.links_bytes(len(primary) + len(secondary), len(options), entries),
        f"a matrix of {len(options):,} options and {entries:,} entries",
        "use fewer options or shorter ones",
        "puzzle.options",
    )


def _read_lists(
    puzzle: dict[str, Any],
    monitor: Monitor,
) -> _Names:
    """Names from the JSON form, with the path of every option entry for error messages."""
    if "items" not in puzzle:
        raise puzzle_error("the puzzle has options but no items list", "puzzle.items")
    if "options" not in puzzle:
        raise puzzle_error("the puzzle has items but no options list", "puzzle.options")
    primary = require_list(puzzle["items"], "puzzle.items")
    secondary = require_list(puzzle.get("secondary", []), "puzzle.secondary")
    for field, names in (("items", primary), ("secondary", secondary)):
        for position, name in enumerate(names):
            require_str(name, f"puzzle.{field}[{position}]")
    options_value = require_list(puzzle["options"], "puzzle.options")
    _check_counts(len(primary) + len(secondary), len(options_value))
    options = []
    locations = []
    entries = 0
    for index, option in enumerate(options_value):
        monitor.checkpoint()
        path = f"puzzle.options[{index}]"
        option = require_list(option, path)
        entries += len(option)
        if entries > MAX_ENTRIES:
            raise _too_many_entries()
        for position, name in enumerate(option):
            require_str(name, f"{path}[{position}]")
        options.append(option)
        locations.append((f"option {index}", path, True))
    return primary, secondary, options, locations, None


def _read_text(
    text: str,
    monitor: Monitor,
) -> _Names:
    """Names from Knuth's text format; error locations are line numbers."""
    primary: list[str] | None = None
    items_line = 0
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
        for token in tokens:
            if "|" in token and token != "|":
                raise puzzle_error(
                    f"line {number}: {token!r} contains '|', which only separates primary "
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
    return primary, secondary, options, locations, items_line


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
    monitor: Monitor | None = None,
) -> ExactCoverProblem:
    """Number the items (primary first) and check every option against them."""
    monitor = monitor or Monitor()
    if not primary:
        raise puzzle_error(
            "there are no primary items: list at least one item to cover exactly once",
            "puzzle.items" if items_line is None else "puzzle.text",
        )
    number_of: dict[str, int] = {}
    for field, names in (("items", primary), ("secondary", secondary)):
        for position, name in enumerate(names):
            if name in number_of:
                if items_line is None:
                    raise puzzle_error(
                        f"item {name!r} is listed twice", f"puzzle.{field}[{position}]"
                    )
                raise puzzle_error(
                    f"line {items_line}: item {name!r} is listed twice", "puzzle.text"
                )
            number_of[name] = len(number_of)
    encoded = []
    for names, (label, path, entries_have_paths) in zip(options, locations, strict=True):
        monitor.checkpoint()
        if not names:
            raise puzzle_error(f"{label} is empty: an option must name at least one item", path)
        option: list[int] = []
        seen: set[int] = set()
        for position, name in enumerate(names):
            item = number_of.get(name)
            if item is None or item in seen:
                problem = (
                    f"{label} names {name!r}, which is not a declared item"
                    if item is None
                    else f"{label} names item {name!r} twice"
                )
                raise puzzle_error(problem, f"{path}[{position}]" if entries_have_paths else path)
            seen.add(item)
            option.append(item)
        encoded.append(option)
    return ExactCoverProblem(len(primary), len(secondary), encoded)
