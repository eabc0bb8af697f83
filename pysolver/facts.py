"""The puzzle facts the web page needs, gathered from the package itself.

``build.py`` writes ``site_facts()`` into the built site as ``facts.json``; the page reads it and
types none of these facts again (engines and their descriptions, size limits, the piece library,
Sudoku sizes and symbols, error codes). Schema::

    {"version": "0.1.0",
     "modes": ["solve", "count", "random"],
     "error_codes": {"invalid_puzzle": "one line on what it means", ...},
     "trace": {"default_steps": 2000, "max_steps": 100000},   # trace mode's max_steps
     "max_heatmap_solutions": 100000,
     "max_request_chars": 20000000,     # longer request texts are too_large
     "max_request_depth": 500,          # and texts nested deeper
     "stats": {"labels": {"nodes": "Search steps", ...}, "headline": ["nodes", "seconds"]},
     "kinds": {"<kind>": {"title": "Sudoku",
                          "help": "Fill the grid so that ...",  # shown atop the kind's tab
                          "engines": [{"name": "singles", "title": "...", "description": "...",
                                       "modes": [...]},  # only when it has fewer modes
                                      ...],          # the first is the default
                          "heatmap": true,          # count mode takes "heatmap": true
                          "estimate_engines": ["dlx", ...],  # estimate mode's engines
                          "default_engine": "singles",
                          "limits": {"max_size": 36, ...},
                          "generate": {"difficulties": ["easy", ...],   # kinds that generate
                                       "puzzle_fields": ["size"], "options": [...],
                                       "limits": {"sizes": [4, ...]},  # what it accepts
                                       # The sizes that cannot make every level (the size as
                                       # the page names it: "4", "5x3", "8/2" for side/stars)
                                       # -> the levels they make; a size not named makes all.
                                       "levels_by_size": {"4": ["easy"]}},
                          "explain": {"levels": ["easy", ...],   # kinds that explain and hint
                                      "techniques": [{"name": "naked single", "level": "easy",
                                                      "summary": "..."}, ...],
                                      "hint_fields": ["entries", ...]},
                          ...}}}                    # kind-specific facts, see each kind

Every value is plain JSON (lists, not tuples), so the file is the same on every build.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any

from pysolver import protocol
from pysolver.engines import estimate
from pysolver.kinds import kind_module, kind_names

# Words for the ``stats`` keys of responses, for people reading them on the page, and the few
# figures the page shows first (the rest are a click away). Every key an engine or kind reports
# has a label here (tests/test_facts.py runs every kind and engine to check).
STATS_LABELS = {
    "seconds": "Time",
    "nodes": "Search steps",
    "items": "Constraints",
    "options": "Candidate placements",
    "givens": "Givens",
    "updates": "Link updates",
    "mask_ops": "Bitset operations",
    # The memo engine: sub-problems whose count was remembered, and how often one was reused.
    "memo_entries": "Counts remembered",
    "memo_hits": "Remembered counts reused",
    "options_struck": "Options ruled out before trying them",
    # The compiled walk (pip install "pysolver-studio[fast]"): which ran, and its first compile.
    "kernel": "Compiled walk",
    "jit_seconds": "Compiling the walk (first search)",
    "candidates": "Candidate rectangles",
    "candidates_area": "Cells the candidates cover",
    "candidates_initial": "Candidates at the start",
    "candidates_after_overlap": "Candidates after the overlap rule",
    "candidates_after_propagation": "Candidates after propagation",
    "splits": "Guesses (splits)",
    "field_bits": "Profile width (cells)",
    "states": "Profile states",
    "rectangle": "Rectangle (rows, columns)",
    "resultants": "Resultants computed",
    "sweeps": "Markov chain sweeps",
    "samples": "Tilings sampled",
    "steps": "Trace steps",
    "shortcut": "Answered by",
    "attempts": "Puzzles tried",
    # Estimate mode: the random paths' own steps, and the short count that measured the speed.
    "probe_nodes": "Steps of the random paths",
    "calibration_nodes": "Search steps timed",
    "calibration_seconds": "Time spent timing the search",
}
HEADLINE_STATS = ("seconds", "nodes")


def site_facts() -> dict[str, Any]:
    """Everything the page needs to know about the kinds, as plain JSON data."""
    from pysolver import __version__

    return {
        "version": __version__,
        "modes": list(protocol.MODES),
        "error_codes": dict(protocol.ERROR_CODES),
        "trace": {
            "default_steps": protocol.DEFAULT_MAX_STEPS,
            "max_steps": protocol.MAX_TRACE_STEPS,
        },
        "max_heatmap_solutions": protocol.MAX_HEATMAP_SOLUTIONS,
        # The request's fields for every kind; a kind adds its ``options`` (strict requests).
        "request_fields": list(protocol.REQUEST_FIELDS),
        # The page refuses a longer request text before posting it to a worker (too_large).
        "max_request_chars": protocol.MAX_REQUEST_CHARS,
        # ... and a request text nested deeper than this (Pyodide's stack would overflow).
        "max_request_depth": protocol.MAX_REQUEST_DEPTH,
        "stats": {"labels": dict(STATS_LABELS), "headline": list(HEADLINE_STATS)},
        "kinds": {name: _kind_facts(name) for name in kind_names()},
    }


def _kind_facts(name: str) -> dict[str, Any]:
    module = kind_module(name)
    # A kind offers heatmaps by providing the function (the midend refuses them otherwise).
    # Its puzzle fields and options are the declarations the midend checks requests against.
    facts = {
        **module.facts(),
        "heatmap": callable(getattr(module, "heatmap", None)),
        "splittable": module.SPLITTABLE,
        "puzzle_fields": list(module.PUZZLE_FIELDS),
        "options": list(module.OPTIONS),
        # Estimate mode follows these engines' search trees (none: the kind has no estimate).
        "estimate_engines": [name for name in module.ENGINES if name in estimate.ENGINES],
    }
    if callable(getattr(module, "generate", None)):
        # Generate mode (``pysolver.midend.generate``): the levels a page offers, the puzzle's
        # fields (its size) and the options only that mode takes, as the midend checks them.
        generating: Any = module
        facts["generate"] = {
            "difficulties": list(generating.DIFFICULTIES),
            "puzzle_fields": list(generating.GENERATE_FIELDS),
            "options": list(generating.GENERATE_OPTIONS),
            "limits": dict(generating.GENERATE_LIMITS),
            "levels_by_size": {
                size: list(levels)
                for size, levels in getattr(generating, "GENERATE_LEVELS_BY_SIZE", {}).items()
            },
        }
    if callable(getattr(module, "explain", None)):
        # Explain and hint modes (``pysolver.midend.explain``): the techniques a path names,
        # with their levels, and the puzzle fields hint mode adds (the player's state).
        explaining: Any = module
        facts["explain"] = {
            **explaining.explain_facts(),
            "hint_fields": list(explaining.HINT_FIELDS),
        }
    return facts


def engine_facts(engines: Mapping[str, ModuleType]) -> dict[str, Any]:
    """The ``engines`` and ``default_engine`` facts of a kind, from its engine table.

    engines: engine name -> engine module (with ``TITLE`` and ``SUMMARY``, and ``MODES`` when
    it serves only some modes), default first.
    """
    return {
        "engines": [
            {
                "name": name,
                "title": module.TITLE,
                "description": module.SUMMARY,
                **({"modes": list(module.MODES)} if hasattr(module, "MODES") else {}),
            }
            for name, module in engines.items()
        ],
        "default_engine": next(iter(engines)),
    }
