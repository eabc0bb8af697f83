"""The memory budget: what one request may allocate, checked before it is allocated.

Every engine family has an estimator of the bytes it will need (``dlx.estimated_bytes``,
``bitset.estimated_bytes``, ``singles.estimated_bytes``, ``profile_dp.vector_bytes``...), and
every kind checks the estimate with ``check`` before it builds the engine's state: a request
that would not fit is refused with ``too_large`` and a message saying what to shrink (and which
engine of the same kind would fit, when one would), instead of growing until the runtime dies.

One constant per runtime, here and nowhere else:

- CPython (the CLI, the tests): ``CPYTHON_BUDGET_BYTES``, 512 MB. A laptop has gigabytes, but one
  request that takes more than this is a request that was sent by mistake.
- Pyodide (the page's worker, ``sys.platform == "emscripten"``): ``PYODIDE_BUDGET_BYTES``,
  192 MB. WebAssembly memory is 32-bit (4 GB at most), browsers grant a tab far less in
  practice, and Pyodide itself, the page and the request's JSON take their share; 192 MB of
  Python objects leaves room for all that on a phone-sized tab.

Kept solutions have their own bound: a response lists at most ``MAX_LISTED`` solutions, and
fewer when each is big (``listed_cap``): the listed ones may use an eighth of the budget and
4 MB of JSON text. The
search goes on counting past the cap; the response says ``"solutions_truncated": true`` and
``count`` says how many were found.
"""

from __future__ import annotations

import sys

from pysolver import protocol
from pysolver.protocol import TOO_LARGE, SolveError

CPYTHON_BUDGET_BYTES = 512 * 2**20
PYODIDE_BUDGET_BYTES = 192 * 2**20
IN_PYODIDE = sys.platform == "emscripten"
BUDGET_BYTES = PYODIDE_BUDGET_BYTES if IN_PYODIDE else CPYTHON_BUDGET_BYTES

# Most solutions one response lists (count goes on past it; see the module docstring).
MAX_LISTED = 10_000
# The listed solutions may take 1/LISTED_SHARE of the budget (engine lists, decoded JSON,
# text), and their JSON text at most MAX_LISTED_CHARS: decoding and writing out the list comes
# after a cancel too, at roughly a second per 10 MB of text in CPython (the page then parses
# it), so the text bound keeps a stop prompt: 450 tilings of 200 dominoes, 4,500 of 6x10
# pentominoes, all 10,000 of 9x9 Sudoku grids.
LISTED_SHARE = 8
MAX_LISTED_CHARS = 4_000_000

# What a Python object costs, for estimates (64-bit CPython; Pyodide's 32-bit pointers make
# these upper bounds there): a list slot, a list's header, an int past the small-int cache.
POINTER_BYTES = 8
LIST_BYTES = 56
INT_BYTES = 32


def budget_bytes() -> int:
    """The budget of this runtime (read at call time, so tests can lower ``BUDGET_BYTES``)."""
    return BUDGET_BYTES


def megabytes(size: int) -> str:
    return f"{size / 2**20:,.0f} MB"


def check(needed: int, what: str, shrink: str, path: str = "puzzle", fits: str = "") -> None:
    """Refuse (``too_large``) when ``needed`` bytes exceed the budget.

    what: what needs the memory ("the dlx engine's links for 2,000,000 entries");
    shrink: what the person can make smaller; fits: another engine that would fit, if any.
    """
    budget = budget_bytes()
    if needed <= budget:
        return
    message = (
        f"{what} would need about {megabytes(needed)}, over the {megabytes(budget)} memory "
        f"budget{' of the page' if IN_PYODIDE else ''}; {shrink}"
    )
    if fits:
        message += f", or use the {fits} engine, which would fit"
    raise SolveError(TOO_LARGE, message, path)


def heatmap_cap(solution_bytes: int) -> int:
    """How many solutions of ``solution_bytes`` each a heatmap may keep: the protocol's cap
    (``MAX_HEATMAP_SOLUTIONS``), or fewer so that they take at most half the budget."""
    most = protocol.MAX_HEATMAP_SOLUTIONS
    return max(1, min(most, budget_bytes() // 2 // max(1, solution_bytes)))


def fits(needed: int) -> bool:
    return needed <= budget_bytes()


def listed_cap(bytes_each: int, chars_each: int = 0) -> int:
    """How many solutions one response may list: ``MAX_LISTED``, or fewer when they are big,
    at least one. ``bytes_each``: a solution's memory (kept, decoded and written out);
    ``chars_each``: its JSON text, of which a response holds at most ``MAX_LISTED_CHARS``."""
    room = budget_bytes() // LISTED_SHARE
    by_text = MAX_LISTED_CHARS // chars_each if chars_each > 0 else MAX_LISTED
    return max(1, min(MAX_LISTED, room // max(1, bytes_each), by_text))


def list_bytes(length: int, item_bytes: int = 0) -> int:
    """A list of ``length`` entries, each an object of ``item_bytes`` (0: shared objects)."""
    return LIST_BYTES + length * (POINTER_BYTES + item_bytes)
