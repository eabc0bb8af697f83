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

from pysolver.engines import bitset, dlx
from pysolver.engines.exact_cover import MAX_ENTRIES, ExactCoverProblem, search
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
)

# Primary names, secondary names, options as names, per option (label for messages, JSON path,
# whether entries have their own paths), and the items line number (None for JSON lists).
_Names = tuple[list[str], list[str], list[list[str]], list[tuple[str, str, bool]], int | None]

# The faster engine on bench/bench_exact_cover.py comes first: it is the default.
ENGINES = ("bitset", "dlx")

MAX_ITEMS = 100_000
MAX_OPTIONS = 200_000
# 20,000 options make 20,000 masks of 2,500 bytes each: 50 MB, about what a browser tab affords.
BITSET_MAX_OPTIONS = 20_000


def facts() -> dict[str, Any]:
    """What the page needs to know about this kind (see ``pysolver.facts``)."""
    return {
        "title": "Exact cover",
        **engine_facts({"bitset": bitset, "dlx": dlx}),
        "limits": {
            "max_items": MAX_ITEMS,
            "max_options": MAX_OPTIONS,
            "max_entries": MAX_ENTRIES,
            "bitset_max_options": BITSET_MAX_OPTIONS,
        },
    }


def solve(puzzle: Any, query: Query) -> dict[str, Any]:
    """Validate ``puzzle``, run the exact cover search ``query`` asks for, return the fields."""
    problem = parse_puzzle(puzzle)
    engine = engine_for(query, ENGINES)
    if engine == "bitset" and len(problem.options) > BITSET_MAX_OPTIONS:
        if query.engine is not None:
            raise SolveError(
                TOO_LARGE,
                f"the bitset engine handles at most {BITSET_MAX_OPTIONS:,} options and this "
                f"puzzle has {len(problem.options):,}; use the dlx engine",
                "engine",
            )
        engine = "dlx"
    result = search(
        problem,
        engine,
        limit=query.limit,
        keep_solutions=query.wants_solutions,
        rng=query.rng() if query.mode == "random" else None,
        # Recent solutions are sorted option indices, as in the response.
        monitor=Monitor(query.progress, query.cancel, list if query.wants_recent else None),
    )
    fields: dict[str, Any] = {
        "engine": engine,
        "count": result.count,
        "complete": result.complete,
        "solutions": result.solutions,
        "stats": dict(result.stats),
    }
    if result.cancelled:
        fields["cancelled"] = True
    return fields


def parse_puzzle(puzzle: Any) -> ExactCoverProblem:
    """The exact cover problem of a puzzle object (lists or Knuth text), or a ``SolveError``."""
    puzzle = require_dict(puzzle, "puzzle")
    has_lists = "items" in puzzle or "options" in puzzle
    if "text" in puzzle:
        if has_lists:
            raise puzzle_error("give either items and options, or text, not both", "puzzle.text")
        text = require_str(puzzle["text"], "puzzle.text")
        names = _read_text(text)
    elif has_lists:
        names = _read_lists(puzzle)
    else:
        raise puzzle_error(
            'an exact cover puzzle needs "items" and "options" lists, or a "text" in '
            "Knuth's format (items line, then one option a line)"
        )
    return _encode(*names)


def _read_lists(
    puzzle: dict[str, Any],
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
) -> _Names:
    """Names from Knuth's text format; error locations are line numbers."""
    primary: list[str] | None = None
    items_line = 0
    secondary: list[str] = []
    options: list[list[str]] = []
    locations: list[tuple[str, list[str]]] = []
    entries = 0
    for number, line in enumerate(text.splitlines(), start=1):
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


def _encode(
    primary: list[str],
    secondary: list[str],
    options: list[list[str]],
    locations: list[tuple[str, str, bool]],
    items_line: int | None,
) -> ExactCoverProblem:
    """Number the items (primary first) and check every option against them."""
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
        if not names:
            raise puzzle_error(f"{label} is empty: an option must name at least one item", path)
        option = []
        seen = set()
        for position, name in enumerate(names):
            item = number_of.get(name)
            problem = None
            if item is None:
                problem = f"{label} names {name!r}, which is not a declared item"
            elif item in seen:
                problem = f"{label} names item {name!r} twice"
            if problem is not None:
                raise puzzle_error(problem, f"{path}[{position}]" if entries_have_paths else path)
            seen.add(item)
            option.append(item)
        encoded.append(option)
    return ExactCoverProblem(len(primary), len(secondary), encoded)
