"""``pysolver generate KIND``, the top-level help and the command's name, run as real
subprocesses (as ``python -m pysolver`` and as the installed ``pysolver`` script)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from pysolver import solve
from pysolver.midend.generate import generating_kinds
from tests.conftest import run_pysolver

REPO = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(REPO)}
# What pip writes for the ``[project.scripts]`` entry ``pysolver = "pysolver.__main__:main"``.
CONSOLE_SCRIPT = "import sys\nfrom pysolver.__main__ import main\nsys.exit(main())\n"


def grid_lines(text: str) -> list[str]:
    """The rows of a Sudoku picture (the lines with cells, not the box lines)."""
    return [line for line in text.splitlines() if line and line[0] in ".123456789"]


def test_generate_prints_the_puzzle_with_blanks_its_level_and_seed() -> None:
    done = run_pysolver("generate", "sudoku", "--difficulty", "hard", "--seed", "7")
    assert done.returncode == 0, done.stderr
    head = done.stdout.splitlines()[0]
    assert head.startswith("sudoku puzzle, level hard")
    assert "seed 7" in head
    rows = grid_lines(done.stdout)
    assert len(rows) == 9
    cells = [cell for row in rows for cell in row.split() if cell != "|"]
    assert len(cells) == 81
    # The JSON answer of the same seed is the same puzzle; the picture is its givens.
    answer = json.loads(
        run_pysolver(
            "generate", "sudoku", "--difficulty", "hard", "--seed", "7", "--format", "json"
        ).stdout
    )
    assert answer["ok"] and answer["grade"]["level"] == "hard"
    assert "".join(cells) == answer["puzzle"]["grid"]
    assert cells.count(".") == 81 - answer["grade"]["givens"]
    # Unique, checked by a search of its own (not the generator's word).
    count = solve({"kind": "sudoku", "mode": "count", "limit": 2, "puzzle": answer["puzzle"]})
    assert count["count"] == 1


def test_generate_count_makes_consecutive_seeds_one_json_answer_a_line() -> None:
    done = run_pysolver(
        "generate", "shikaku", "--size", "5x7", "--count", "3", "--seed", "11", "--format", "json"
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [answer["seed"] for answer in answers] == [11, 12, 13]
    for answer in answers:
        assert answer["ok"] and answer["mode"] == "generate"
        assert (answer["puzzle"]["rows"], answer["puzzle"]["cols"]) == (5, 7)
        again = solve(
            {
                "kind": "shikaku",
                "mode": "count",
                "limit": 2,
                "engine": "dlx",
                "puzzle": answer["puzzle"],
            }
        )
        assert again["count"] == 1


def test_generate_text_says_the_level_found_and_the_note_when_the_level_asked_is_missed() -> None:
    done = run_pysolver(
        "generate", "polyomino", "--size", "5x5", "--difficulty", "hard", "--seed", "4"
    )
    assert done.returncode == 0, done.stderr
    head = done.stdout.splitlines()[0]
    assert "level medium (asked hard)" in head and "seed 4" in head
    assert "note: no hard 5 x 5 puzzle was found" in done.stdout
    assert "pieces: " in done.stdout


def test_generate_every_generating_kind_draws_its_puzzle() -> None:
    for kind, size in (("star_battle", "6"), ("sudoku", "6")):
        extra = ["--stars", "1"] if kind == "star_battle" else ["--variant", "jigsaw"]
        done = run_pysolver("generate", kind, "--size", size, "--seed", "3", *extra)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith(f"{kind} puzzle, level ")
        assert "┌" in done.stdout  # regions drawn with walls


def test_generate_usage_errors_say_what_to_do() -> None:
    done = run_pysolver("generate", "queens")
    assert done.returncode == 2
    assert "has no generate mode" in done.stderr and "sudoku" in done.stderr
    done = run_pysolver("generate", "sudoku", "--size", "5x6")
    assert done.returncode == 2 and "--size 5" in done.stderr
    done = run_pysolver("generate", "shikaku", "--variant", "x")
    assert done.returncode == 2 and "--variant is not for shikaku" in done.stderr
    done = run_pysolver("generate", "sudoku", "--size", "5")
    assert done.returncode == 1
    assert "4, 6, 9, 12, 16" in done.stderr and done.stdout == ""


def test_solve_format_text_of_a_generate_request_shows_the_puzzle_and_its_grade() -> None:
    request = {
        "kind": "sudoku",
        "mode": "generate",
        "seed": 7,
        "difficulty": "hard",
        "puzzle": {"size": 9},
    }
    done = run_pysolver("solve", "--format", "text", "-", stdin=json.dumps(request))
    assert done.returncode == 0, done.stderr
    assert "level hard" in done.stdout and "score " in done.stdout and "seed 7" in done.stdout
    rows = grid_lines(done.stdout)
    assert len(rows) == 9 and all("." in row for row in rows)
    # Not the filled solution.
    answer = solve(request)
    filled = " ".join(str(d) for d in answer["solutions"][0][0][:3])
    assert not any(row.startswith(filled) for row in rows)


def test_top_level_help_lists_every_command() -> None:
    done = run_pysolver("--help")
    assert done.returncode == 0
    assert done.stdout.startswith("usage: python -m pysolver ")
    for command in ("solve", "batch", "generate"):
        assert f"\n    {command} " in done.stdout
    assert "pysolver generate sudoku" in done.stdout


def test_the_installed_command_calls_itself_pysolver(tmp_path: Path) -> None:
    script = tmp_path / "bin" / "pysolver"
    script.parent.mkdir()
    script.write_text(CONSOLE_SCRIPT)
    done = subprocess.run(
        [sys.executable, str(script), "--help"], capture_output=True, text=True, env=ENV, timeout=60
    )
    assert done.returncode == 0
    assert done.stdout.startswith("usage: pysolver [-h]")
    assert "python -m pysolver" not in done.stdout
    done = subprocess.run(
        [sys.executable, str(script), "solve", str(tmp_path / "missing")],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("pysolver: cannot read")


def test_generate_stops_at_its_timeout_with_the_puzzles_made_so_far() -> None:
    done = run_pysolver(
        "generate",
        "sudoku",
        "--size",
        "16",
        "--difficulty",
        "hard",
        "--seed",
        "1",
        "--count",
        "3",
        "--timeout",
        "0.3",
    )
    assert done.returncode == 130
    assert "stopped by the 0.3 s timeout after 0 puzzles" in done.stderr
    assert done.stdout == ""


def test_every_generating_kind_makes_its_default_puzzle_as_a_picture() -> None:
    for kind in generating_kinds():
        done = run_pysolver("generate", kind, "--seed", "1")
        assert done.returncode == 0, (kind, done.stderr)
        head, _, picture = done.stdout.partition("\n\n")
        assert head.startswith(f"{kind} puzzle, level ") and head.endswith("seed 1"), head
        assert not picture.lstrip().startswith("{"), (kind, picture)  # drawn, not JSON
