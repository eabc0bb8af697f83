"""Explain and hint answers of this checkout against another's, byte for byte: a speed change
to the finders must leave every path as it was.

    python -m bench.compare_explain --generate FILE      # the generated set, made once
    python -m bench.compare_explain --answers OUT [--generated FILE]
    python -m bench.compare_explain --diff A B

``--answers`` explains every puzzle of the sets (``bench/data/sudoku_hard311.txt``,
``tests/data/top95.txt``, Tatham's 20 extreme, ``tests/data/hard_generated.txt``, the Sudoku
puzzles of ``tests/data/generated.json`` and ``tests/data/sudoku_variants.json``, and the
generated set of ``--generated``), asks a hint from a player's half-filled board of each of
top95 (the path's first half of placements entered), and writes each answer as canonical JSON
(``stats`` dropped: seconds and search nodes are not the path) one a line. Run it with each
checkout's own Python in its own folder (``cd /work/main && .venv/bin/python -m
bench.compare_explain --answers /tmp/main.jsonl``), then ``--diff`` names the answers that
differ. The generated set (puzzles of generate mode over levels, sizes and variants) is made
once with one checkout's generator and read by both, so a generator change elsewhere does not
change what is compared.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pysolver import solve
from pysolver.pasted import request_from_text

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"

# (size, variant, difficulties, seeds) of the generated set.
GENERATED = [
    (9, None, ("easy", "medium", "hard", "fiendish", "expert"), range(12)),
    (4, None, ("easy", "medium"), range(3)),
    (6, None, ("easy", "medium", "hard", "expert"), range(4)),
    (12, None, ("medium", "hard"), range(2)),
    (16, None, ("medium",), range(1)),
    (9, "jigsaw", ("medium", "hard", "expert"), range(4)),
    (9, "x", ("medium", "hard", "expert"), range(4)),
    (9, "killer", ("easy", "medium", "hard"), range(3)),
]


def lines(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def generate(out: Path) -> None:
    """Write the generated set: generate mode's puzzles, one JSON object a line."""
    with out.open("w", encoding="utf-8") as handle:
        for size, variant, levels, seeds in GENERATED:
            for level in levels:
                for seed in seeds:
                    puzzle: dict[str, Any] = {"size": size}
                    if variant:
                        puzzle["variant"] = variant
                    request = {
                        "kind": "sudoku",
                        "mode": "generate",
                        "seed": seed,
                        "difficulty": level,
                        "puzzle": puzzle,
                    }
                    response = solve(request)
                    if not response["ok"]:
                        print(f"skipped {request}: {response['error']}", file=sys.stderr)
                        continue
                    name = f"generated {size} {variant or 'plain'} {level} {seed}"
                    handle.write(json.dumps({"name": name, "puzzle": response["puzzle"]}) + "\n")
                    handle.flush()


def puzzles(generated: Path | None) -> Iterator[tuple[str, dict[str, Any]]]:
    """(name, puzzle) of every Sudoku the comparison explains."""
    for index, grid in enumerate(lines(ROOT / "bench" / "data" / "sudoku_hard311.txt")):
        yield f"hard311 {index}", {"grid": grid}
    for index, grid in enumerate(lines(DATA / "top95.txt")):
        yield f"top95 {index}", {"grid": grid}
    for index, text in enumerate(lines(DATA / "tatham_extreme.txt")):
        pasted = request_from_text(text)
        assert pasted is not None, text
        yield f"extreme {index}", pasted["puzzle"]
    for index, grid in enumerate(lines(DATA / "hard_generated.txt")):
        yield f"hard_generated {index}", {"grid": grid}
    stored = json.loads((DATA / "generated.json").read_text(encoding="utf-8"))["cases"]
    for case in stored:
        if case["request"]["kind"] == "sudoku":
            yield f"stored {case['name']}", case["puzzle"]
    for case in json.loads((DATA / "sudoku_variants.json").read_text(encoding="utf-8")):
        yield f"variant {case['name']}", case["puzzle"]
    if generated is not None:
        for line in lines(generated):
            case = json.loads(line)
            yield case["name"], case["puzzle"]


def answered(request: dict[str, Any]) -> str:
    response = solve(request)
    response.pop("stats", None)
    return json.dumps(response, sort_keys=True, separators=(",", ":"))


def hint_request(grid: str) -> dict[str, Any]:
    """A hint from the board a player reaches by entering the first half of the path's
    placements (the solution's digits)."""
    explained = solve({"kind": "sudoku", "mode": "explain", "puzzle": {"grid": grid}})
    placements = [spot for step in explained["steps"] for spot in step["place"]]
    values = list(grid)
    for r, c, digit in placements[: len(placements) // 2]:
        values[r * 9 + c] = str(digit)
    return {
        "kind": "sudoku",
        "mode": "hint",
        "puzzle": {"grid": grid, "entries": "".join(values)},
    }


def answers(out: Path, generated: Path | None) -> None:
    with out.open("w", encoding="utf-8") as handle:
        for name, puzzle in puzzles(generated):
            request = {"kind": "sudoku", "mode": "explain", "puzzle": puzzle}
            handle.write(json.dumps({"name": name, "answer": answered(request)}) + "\n")
        for index, grid in enumerate(lines(DATA / "top95.txt")):
            answer = answered(hint_request(grid))
            handle.write(json.dumps({"name": f"hint top95 {index}", "answer": answer}) + "\n")


def diff(first: Path, second: Path) -> int:
    """Print the answers that differ; the count of them."""
    ones = [json.loads(line) for line in lines(first)]
    twos = [json.loads(line) for line in lines(second)]
    if [one["name"] for one in ones] != [two["name"] for two in twos]:
        print("the two files answer different puzzles")
        return 1
    differ = [one["name"] for one, two in zip(ones, twos, strict=True) if one != two]
    for name in differ:
        print(f"differs: {name}")
    print(f"{len(ones) - len(differ)} of {len(ones)} answers identical")
    return len(differ)


def run() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generate", type=Path, metavar="FILE")
    parser.add_argument("--answers", type=Path, metavar="OUT")
    parser.add_argument("--generated", type=Path, metavar="FILE")
    parser.add_argument("--diff", type=Path, nargs=2, metavar=("A", "B"))
    options = parser.parse_args()
    if options.generate:
        generate(options.generate)
    if options.answers:
        answers(options.answers, options.generated)
    if options.diff:
        return 1 if diff(*options.diff) else 0
    return 0


if __name__ == "__main__":
    sys.exit(run())
