"""The command line's pictures (``solve --format text``) and ``batch`` (order, --jobs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_cli import REPO, run_cli

TOP95 = REPO / "tests" / "data" / "top95.txt"

# One small request per kind, and the picture its first solution must print.
PICTURES = {
    "sudoku": (
        {
            "kind": "sudoku",
            "puzzle": {
                "grid": "53..7....6..195....98....6.8...6...34..8.3..1"
                "7...2...6.6....28....419..5....8..79"
            },
        },
        "5 3 4 | 6 7 8 | 9 1 2\n6 7 2 | 1 9 5 | 3 4 8\n1 9 8 | 3 4 2 | 5 6 7\n"
        "------+-------+------\n8 5 9 | 7 6 1 | 4 2 3",
    ),
    "polyomino": (
        {
            "kind": "polyomino",
            "puzzle": {"board": ["...", ".#.", "..."], "pieces": ["L4", "L4"]},
        },
        None,  # checked below: letters, then the same tiling with box-drawing lines
    ),
    "shikaku": (
        {"kind": "shikaku", "puzzle": {"rows": 3, "cols": 3, "clues": [[0, 1, 3], [1, 1, 6]]}},
        "┌───────────┐\n│     3     │\n├───────────┤\n│     6     │\n│           │\n"
        "│           │\n└───────────┘",
    ),
    "domino": (
        {"kind": "domino", "puzzle": {"rows": 2, "cols": 2}},
        # The first tiling of a 2x2 square: two upright dominoes.
        "┌───┬───┐\n│   │   │\n│   │   │\n│   │   │\n└───┴───┘",
    ),
    "queens": (
        {"kind": "queens", "puzzle": {"n": 4}},
        ". . Q .\nQ . . .\n. . . Q\n. Q . .",
    ),
    "exact_cover": (
        {"kind": "exact_cover", "puzzle": {"items": ["a", "b"], "options": [["a", "b"], ["a"]]}},
        "0: a b",
    ),
}


@pytest.mark.parametrize("kind", list(PICTURES))
def test_format_text_prints_a_picture_for_every_kind(kind: str) -> None:
    request, picture = PICTURES[kind]
    result = run_cli("solve", "--format", "text", "-", stdin=json.dumps(request))
    assert result.returncode == 0, result.stderr
    summary, *pictures = result.stdout.rstrip("\n").split("\n\n")
    assert summary.startswith(f"{kind} solve: 1 solution")
    if picture is not None:
        assert pictures[0].startswith(picture)
        return
    letters, lines = pictures
    # Two L tetrominoes around a hole: both named L, so their cells are told apart by lines.
    assert letters == "LLL\nL L\nLLL"
    assert lines == "\n".join(
        [
            "┌───────────┐",
            "│           │",
            "│   ┌───┬───┤",
            "│   │   │   │",
            "├───┴───┘   │",
            "│           │",
            "└───────────┘",
        ]
    )


def test_format_json_stays_the_default_and_errors_print_as_text() -> None:
    request = json.dumps(PICTURES["queens"][0])
    assert json.loads(run_cli("solve", "-", stdin=request).stdout)["count"] == 1
    broken = run_cli("solve", "--format", "text", "-", stdin='{"kind": "queens"}')
    assert broken.returncode == 1
    assert broken.stdout.startswith("error (invalid_request): the request has no puzzle")


def mixed_batch(tmp_path: Path) -> tuple[Path, list[str]]:
    """Twelve top95 Sudokus, a comment, a blank line, a JSON request of each other kind and a
    broken line; and the puzzles of the Sudoku lines."""
    sudokus = TOP95.read_text().split()[:12]
    lines = ["# a comment", *sudokus[:6], ""]
    lines += [json.dumps(request) for request, _ in PICTURES.values() if "grid" not in str(request)]
    lines += ["not a request", *sudokus[6:]]
    path = tmp_path / "batch.txt"
    path.write_text("\n".join(lines) + "\n")
    return path, sudokus


def check_batch_answers(stdout: str, sudokus: list[str]) -> None:
    answers = [json.loads(line) for line in stdout.splitlines()]
    assert len(answers) == 12 + 5 + 1
    kinds = [answer.get("kind") for answer in answers]
    others = ["polyomino", "shikaku", "domino", "queens", "exact_cover"]
    assert kinds == ["sudoku"] * 6 + others + [None] + ["sudoku"] * 6
    assert answers[11]["error"]["code"] == "invalid_json"
    sudoku_answers = answers[:6] + answers[12:]
    for puzzle, answer in zip(sudokus, sudoku_answers, strict=True):
        solution = "".join(str(digit) for row in answer["solutions"][0] for digit in row)
        # Each answer is the solution of its own line: input order is kept.
        pairs = zip(puzzle, solution, strict=True)
        assert all(given in ".0" or given == found for given, found in pairs)


def test_batch_answers_each_line_in_input_order(tmp_path: Path) -> None:
    path, sudokus = mixed_batch(tmp_path)
    result = run_cli("batch", str(path))
    assert result.returncode == 1  # one line is not a request
    check_batch_answers(result.stdout, sudokus)
    assert "18/18 answered, 1 errors" in result.stderr


def test_batch_jobs_spread_the_lines_and_keep_the_order(tmp_path: Path) -> None:
    path, sudokus = mixed_batch(tmp_path)
    result = run_cli("batch", "--jobs", "3", str(path))
    assert result.returncode == 1
    check_batch_answers(result.stdout, sudokus)
    serial = run_cli("batch", "--quiet", str(path)).stdout.splitlines()
    for ours, theirs in zip(result.stdout.splitlines(), serial, strict=True):
        # The same answers as one process gives, line by line (only the seconds differ).
        ours_answer, their_answer = json.loads(ours), json.loads(theirs)
        ours_answer.pop("stats", None)
        their_answer.pop("stats", None)
        assert ours_answer == their_answer


def test_batch_overrides_and_text_format(tmp_path: Path) -> None:
    path = tmp_path / "two.txt"
    path.write_text("\n".join(TOP95.read_text().split()[:2]) + "\n")
    counted = run_cli("batch", "--mode", "count", "--quiet", str(path))
    assert [json.loads(line)["count"] for line in counted.stdout.splitlines()] == [1, 1]
    assert counted.stderr == ""
    text = run_cli("batch", "--format", "text", "--quiet", str(path))
    blocks = text.stdout.strip("\n").split("\n\n")
    assert blocks[0] == "sudoku solve: 1 solution" and blocks[2] == "sudoku solve: 1 solution"
    assert blocks[1].splitlines()[3] == "------+-------+------"


def test_batch_of_a_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    result = run_cli("batch", str(tmp_path / "none.txt"))
    assert result.returncode == 2 and "cannot read" in result.stderr
