"""Shared fixtures: brute-force exact cover references and random small matrices, with and
without Knuth's colours; the command line run as a user runs it."""

from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from pysolver.engines.cover import ExactCoverProblem
from pysolver.parallel import SERIAL_START_VARIABLE


@pytest.fixture(autouse=True)
def _split_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Requests with ``jobs`` are split at once, here and in the CLI runs tests start: the
    tests' searches are small, and the worker pool's serial start would answer them all
    serially (``pysolver.parallel.serial_start``; its own tests set it again)."""
    monkeypatch.setenv(SERIAL_START_VARIABLE, "0")


REPO = Path(__file__).resolve().parent.parent


def run_pysolver(
    *args: str, stdin: str | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """``python -m pysolver ARGS`` in a subprocess from the repository, output as text."""
    return subprocess.run(
        [sys.executable, "-m", "pysolver", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=timeout,
        check=False,
    )


def brute_force_covers(problem: ExactCoverProblem) -> list[list[int]]:
    """Every exact cover, by trying all subsets of options (for tiny problems only).

    As in Algorithm X, a cover uses only options with a primary item: an option of secondary
    items alone is never chosen.
    """
    option_count = len(problem.options)
    covers = []
    for subset in range(1 << option_count):
        chosen = [index for index in range(option_count) if subset >> index & 1]
        uses = [0] * problem.items
        for index in chosen:
            for item in problem.options[index]:
                uses[item] += 1
        if (
            all(any(item < problem.primary for item in problem.options[i]) for i in chosen)
            and all(uses[item] == 1 for item in range(problem.primary))
            and all(use <= 1 for use in uses[problem.primary :])
        ):
            covers.append(chosen)
    return covers


def random_problem(rng: random.Random, with_secondary: bool) -> ExactCoverProblem:
    """A small random matrix: up to 6 primary items, 3 secondary, 10 options."""
    primary = rng.randint(1, 6)
    secondary = rng.randint(1, 3) if with_secondary else 0
    items = primary + secondary
    options = []
    for _ in range(rng.randint(0, 10)):
        size = rng.randint(1, min(items, 3))
        options.append(rng.sample(range(items), size))
    return ExactCoverProblem(primary, secondary, options)


@pytest.fixture(scope="session")
def random_problems() -> list[ExactCoverProblem]:
    """600 random small matrices, half with secondary items, from a fixed seed."""
    rng = random.Random(20240611)
    return [random_problem(rng, with_secondary=index % 2 == 1) for index in range(600)]


@pytest.fixture(scope="session")
def reference_covers(random_problems) -> list[tuple[ExactCoverProblem, list[list[int]]]]:
    """Each random problem with its covers found by brute force (computed once a session)."""
    return [(problem, brute_force_covers(problem)) for problem in random_problems]


def brute_force_coloured_covers(problem: ExactCoverProblem) -> list[list[int]]:
    """Every exact cover with colours (XCC), by trying all subsets of options, from the
    definition: each primary item used exactly once; each secondary item unused, used once
    uncoloured, or used by any number of options that all give it the same colour. As in
    Algorithm X, an option of secondary items alone is never chosen. Sorted."""
    colours = problem.colours or [[0] * len(option) for option in problem.options]
    option_count = len(problem.options)
    covers = []
    for subset in range(1 << option_count):
        chosen = [index for index in range(option_count) if subset >> index & 1]
        if not all(any(item < problem.primary for item in problem.options[i]) for i in chosen):
            continue
        given: list[list[int]] = [[] for _ in range(problem.items)]  # per item: colours given
        for index in chosen:
            for item, colour in zip(problem.options[index], colours[index], strict=True):
                given[item].append(colour)
        primary_ok = all(len(given[item]) == 1 for item in range(problem.primary))
        secondary_ok = all(
            len(uses) <= 1 or (0 not in uses and len(set(uses)) == 1)
            for uses in given[problem.primary :]
        )
        if primary_ok and secondary_ok:
            covers.append(chosen)
    return sorted(covers)


def random_coloured_problem(rng: random.Random) -> ExactCoverProblem:
    """A small random matrix with colours: up to 4 primary items, 3 secondary, 10 options.

    An option takes up to 2 primary items (sometimes none: never chosen) and up to 3
    secondary ones, in a random order; a secondary entry is uncoloured or takes one of two
    colours (mostly the first), so covers sharing a colour are common.
    """
    primary = rng.randint(1, 4)
    secondary = rng.randint(1, 3)
    options = []
    colours = []
    for _ in range(rng.randint(1, 10)):
        option = rng.sample(range(primary), rng.randint(0, min(primary, 2)))
        option += rng.sample(range(primary, primary + secondary), rng.randint(0, secondary))
        if not option:
            option = [rng.randrange(primary)]
        rng.shuffle(option)
        options.append(option)
        colours.append([rng.choice((0, 1, 1, 1, 2)) if item >= primary else 0 for item in option])
    return ExactCoverProblem(primary, secondary, options, colours)


@pytest.fixture(scope="session")
def coloured_reference_covers() -> list[tuple[ExactCoverProblem, list[list[int]]]]:
    """1,200 random coloured matrices from a fixed seed, each with its sorted covers found by
    brute force (computed once a session)."""
    rng = random.Random(7221)
    problems = [random_coloured_problem(rng) for _ in range(1200)]
    return [(problem, brute_force_coloured_covers(problem)) for problem in problems]


def queens_problem(size: int) -> ExactCoverProblem:
    """The n-queens problem as exact cover (Knuth's example of secondary items).

    Primary: rows 0..n-1 and columns n..2n-1; secondary: the 2n-1 diagonals and the 2n-1
    anti-diagonals. Option r*n+c puts a queen on row r, column c. Known counts: 4 -> 2,
    6 -> 4, 8 -> 92, 10 -> 724.
    """
    diagonals = 2 * size - 1
    options = [
        [row, size + col, 2 * size + row + col, 2 * size + diagonals + row - col + size - 1]
        for row in range(size)
        for col in range(size)
    ]
    return ExactCoverProblem(2 * size, 2 * diagonals, options)


@pytest.fixture(scope="session")
def queens():
    """``queens(n)``: the n-queens exact cover problem (see ``queens_problem``)."""
    return queens_problem


def all_word_squares_problem(size: int, letters: int) -> ExactCoverProblem:
    """Double word squares over every word of ``size`` letters from an alphabet of ``letters``:
    each row and each column takes a word, and each cell (a secondary item) is coloured by
    the letter a word puts there. Every grid of letters is a solution, so the count is
    letters ** (size * size): a coloured problem with a known answer and a big tree."""
    words = list(itertools.product(range(1, letters + 1), repeat=size))
    options = []
    colours = []
    for line in range(size):
        for word in words:
            options.append([line, *(2 * size + line * size + k for k in range(size))])
            colours.append([0, *word])
            options.append([size + line, *(2 * size + k * size + line for k in range(size))])
            colours.append([0, *word])
    return ExactCoverProblem(2 * size, size * size, options, colours)


@pytest.fixture(scope="session")
def all_word_squares():
    """``all_word_squares(size, letters)`` (see ``all_word_squares_problem``)."""
    return all_word_squares_problem
