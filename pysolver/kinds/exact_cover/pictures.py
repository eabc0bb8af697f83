"""The picture of an exact cover solution: the chosen options, one a line (no SVG: options
have no board to draw)."""

from __future__ import annotations

from typing import Any


def solution_text(puzzle: dict[str, Any], chosen: list[int]) -> str:
    """The chosen options, one a line: ``3: a b x:A``."""
    options = puzzle.get("options")
    if options is None:  # Knuth's text format: options are the lines after the items line
        lines = [
            line
            for line in str(puzzle.get("text", "")).splitlines()
            if line.strip() and not line.lstrip().startswith("|")
        ]
        options = [line.split() for line in lines[1:]]
    return "\n".join(f"{index}: {' '.join(map(str, options[index]))}" for index in chosen)
