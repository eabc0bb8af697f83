"""The front end types none of Python's puzzle facts: engines and limits come from facts.json.

A scan of every script under web/ fails on a string that is an engine name (a hand-typed engine
list would need them) and on a number equal to one of Python's size limits used as a bound (an
input's max, an argument of clampInt / Math.min / Math.max, a comparison, a MAX_ constant).
Numbers the page chooses for itself are listed in ALLOWED with the reason.
"""

from __future__ import annotations

import re
from pathlib import Path

from pysolver import protocol
from pysolver.facts import site_facts

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"

# (file under web/, number): why the page may type it. Each entry must still be needed.
ALLOWED = {
    ("ui/widgets.js", 1000): "MAX_SOLUTIONS_KEPT: solutions the page keeps to browse (Python has "
    "no cap on limit; this one is the page's, for memory)",
}

STRING = re.compile(r"""(["'`])((?:(?!\1)[^\\\n]|\\.)*)\1""")
NUMBER = re.compile(r"(?<![\w.$])(\d[\d_]*)(?![\w.])")
# Contexts where a number acts as a bound: `max: "200"`, `> 200`, `MAX_ROWS = 200`.
BOUND_BEFORE = re.compile(r"""(?:\bmax\s*[:=]\s*["'`]?|[<>]=?\s*|\bMAX_\w*\s*=\s*)$""")
BOUND_AFTER = re.compile(r"^\s*[<>]=?")
BOUND_CALLS = re.compile(r"\b(?:clampInt|Math\.min|Math\.max)\(")


def engine_names() -> set[str]:
    return {engine["name"] for kind in site_facts()["kinds"].values() for engine in kind["engines"]}


def limit_values() -> set[int]:
    return {
        value
        for kind in site_facts()["kinds"].values()
        for value in kind["limits"].values()
        if isinstance(value, int)
    }


def call_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of the argument lists of the bound-like calls."""
    spans = []
    for match in BOUND_CALLS.finditer(text):
        depth = 0
        for index in range(match.end() - 1, len(text)):
            depth += {"(": 1, ")": -1}.get(text[index], 0)
            if depth == 0:
                spans.append((match.end(), index))
                break
    return spans


def typed_facts(text: str, engines: set[str], limits: set[int]) -> list[tuple[str, int]]:
    """What text types that Python defines: [(engine name, offset)] and [(limit, offset)]."""
    found: list[tuple[str, int]] = []
    for match in STRING.finditer(text):
        if match.group(2) in engines:
            found.append((match.group(2), match.start()))
    spans = call_spans(text)
    for match in NUMBER.finditer(text):
        value = int(match.group(1).replace("_", ""))
        if value not in limits:
            continue
        before = text[max(0, match.start() - 40) : match.start()]
        after = text[match.end() : match.end() + 4]
        in_call = any(start <= match.start() < end for start, end in spans)
        if BOUND_BEFORE.search(before) or BOUND_AFTER.match(after) or in_call:
            found.append((str(value), match.start()))
    return found


def scripts() -> list[Path]:
    return sorted(path for path in WEB.rglob("*") if path.suffix in (".js", ".mjs"))


def test_the_scan_finds_typed_engines_and_limits() -> None:
    engines, limits = {"dlx", "bitset"}, {200, 1000}
    sample = """const engines = ["bitset", 'dlx'];
        const rows = labelled("Rows", {max: "200"});
        const r = clampInt(value, 1, 200, 8);
        if (rows > 1000) fail();
        const MAX_COLS = 200;
        const seconds = elapsed / 1000;  // a unit, not a bound
        const label = "3x200 board";"""
    found = [name for name, _ in typed_facts(sample, engines, limits)]
    assert found == ["bitset", "dlx", "200", "200", "1000", "200"]


def test_web_types_no_engine_name_or_limit_that_python_defines() -> None:
    engines, limits = engine_names(), limit_values()
    assert engines and limits
    problems = []
    used = set()
    for path in scripts():
        text = path.read_text(encoding="utf-8")
        relative = path.relative_to(WEB).as_posix()
        for name, offset in typed_facts(text, engines, limits):
            key = (relative, int(name)) if name.isdigit() else None
            if key in ALLOWED:
                used.add(key)
                continue
            line = text.count("\n", 0, offset) + 1
            problems.append(f"web/{relative}:{line}: {name!r} is Python's; read it from facts")
    assert problems == []
    assert used == set(ALLOWED), f"allow-list entries no longer needed: {set(ALLOWED) - used}"


LITERAL_BOUND = re.compile(r"""\bmax\s*:\s*["'`]?\d|\bclampInt\([^()]*,\s*\d+\s*,\s*\d{2,}""")


def test_editors_type_no_bounds_of_their_own() -> None:
    # Even a bound Python does not know (say 60 rows where Python allows 100) is drift:
    # an editor's fields take their bounds from its facts or from a shared widget.
    problems = []
    for path in sorted((WEB / "kinds").glob("*.js")):
        text = path.read_text(encoding="utf-8")
        for match in LITERAL_BOUND.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            problems.append(f"web/kinds/{path.name}:{line}: {match.group(0)!r}")
    assert problems == []
    assert LITERAL_BOUND.search('labelled("Rows", {max: "60"})')
    assert LITERAL_BOUND.search("clampInt(rows.input.value, 1, 60, view.rows)")


JS_ERROR_CODE = re.compile(r"""(?:\bfailedResponse\(\s*|\bcode\s*:\s*)["'`](\w+)["'`]""")


def test_every_error_code_the_page_makes_is_listed_beside_pythons() -> None:
    found: dict[str, str] = {}
    for path in scripts():
        text = path.read_text(encoding="utf-8")
        for match in JS_ERROR_CODE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.setdefault(match.group(1), f"web/{path.relative_to(WEB).as_posix()}:{line}")
    # The page's own failures are all there, so the scan is looking in the right places.
    assert {"cancelled", "unavailable", "client_error", "internal_error"} <= set(found)
    unknown = {code: where for code, where in found.items() if code not in protocol.ERROR_CODES}
    assert unknown == {}, "error codes missing from pysolver/protocol.py's ERROR_CODES"
    assert site_facts()["error_codes"] == protocol.ERROR_CODES
