"""Benchmark of the two exact cover engines on pentomino tilings and word squares (a table,
not a test).

Counts every solution of three classic matrices, built by the polyomino kind:

- 6x10 rectangle, one piece's symmetry fixed (Knuth's restriction): 2,339 solutions
- 6x10 rectangle, all tilings: 9,356
- 8x8 board with a 2x2 hole in the centre, all tilings: 520

and one with Knuth's colours (XCC), built here by ``word_square_problem``: 5x5 double word
squares (every row and every column a word) over 60 five-letter words on the letters a-d,
generated from a fixed seed; the expected count comes from a direct row-by-row search
(``count_word_squares``).

Both engines walk the same search tree (same MRV rule, same option order), so the node counts
agree and the seconds compare the cost per node. The work column is each engine's own unit:
dancing links pays every link update in Python bytecode (about 130 per node here, dead ends
being caught by a look-ahead before any covering), the bitset engine a few dozen big-int ANDs
run in C.
Timings are wall-clock on a shared machine: expect noise. Usage::

    python bench/bench_exact_cover.py [--engines bitset,dlx] [--cases 6x10-fixed,...]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from pathlib import Path
from time import perf_counter

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pysolver.engines.exact_cover import ExactCoverProblem, search  # noqa: E402
from pysolver.kinds.polyomino import ENGINES, build_problem  # noqa: E402

RECTANGLE = {"board": ["." * 10] * 6, "pieces": ["pentominoes"]}
HOLED = {"board": ["." * 8] * 3 + ["...##..."] * 2 + ["." * 8] * 3, "pieces": ["pentominoes"]}


def word_list(count: int, size: int, letters: str, seed: int) -> list[str]:
    """``count`` distinct words of ``size`` letters drawn from ``letters``, fixed by ``seed``."""
    rng = random.Random(seed)
    words: set[str] = set()
    while len(words) < count:
        words.add("".join(rng.choice(letters) for _ in range(size)))
    return sorted(words)


def word_square_problem(words: list[str], size: int) -> ExactCoverProblem:
    """Double word squares as exact cover with colours (TAOCP 7.2.2.1): fill a size x size
    grid so that every row and every column is one of ``words`` (repeats allowed).

    Primary items: the rows (0 .. size-1) and the columns (size .. 2*size-1), each taking one
    word. Secondary items: the cells, row by row; an option places a word in a row or a column
    and gives each of its cells the word's letter as colour, so a row and a column may share a
    cell only when they agree on its letter.
    """
    letters = sorted({letter for word in words for letter in word})
    colour_of = {letter: number for number, letter in enumerate(letters, start=1)}
    options = []
    colours = []
    for line in range(size):
        for word in words:
            word_colours = [0, *(colour_of[letter] for letter in word)]
            options.append([line, *(2 * size + line * size + k for k in range(size))])
            colours.append(word_colours)
            options.append([size + line, *(2 * size + k * size + line for k in range(size))])
            colours.append(word_colours)
    return ExactCoverProblem(2 * size, size * size, options, colours)


def count_word_squares(words: list[str], size: int) -> int:
    """The number of double word squares by a direct search: rows one by one, keeping only
    rows after which every column still begins a word (a check of the exact cover count)."""
    prefixes = {word[:length] for word in words for length in range(size + 1)}
    columns_of: list[tuple[str, ...]] = [("",) * size]  # per chosen row count: column prefixes
    count = 0
    stack = [0]  # per depth: the index of the next word to try as that row
    while stack:
        depth = len(stack) - 1
        if stack[depth] == len(words):
            stack.pop()
            columns_of.pop()
            continue
        word = words[stack[depth]]
        stack[depth] += 1
        columns = tuple(
            column + letter for column, letter in zip(columns_of[-1], word, strict=True)
        )
        if all(column in prefixes for column in columns):
            if depth + 1 == size:
                count += 1
            else:
                columns_of.append(columns)
                stack.append(0)
    return count


def word_squares_case(size: int = 5) -> tuple[ExactCoverProblem, int]:
    """The coloured benchmark case: the problem and its expected count."""
    words = word_list(60, size, "abcd", seed=12)
    return word_square_problem(words, size), count_word_squares(words, size)


# Per case: a function building the problem and giving its expected count.
CASES: dict[str, Callable[[], tuple[ExactCoverProblem, int]]] = {
    "6x10-fixed": lambda: (build_problem(RECTANGLE, "distinct"), 2339),
    "6x10-all": lambda: (build_problem(RECTANGLE, "all"), 9356),
    "8x8-hole": lambda: (build_problem(HOLED, "all"), 520),
    "5x5-words": word_squares_case,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument("--cases", default=",".join(CASES))
    args = parser.parse_args()
    engines = args.engines.split(",")
    print(
        f"{'case':<12} {'engine':<7} {'options':>7} {'count':>6} {'nodes':>10} "
        f"{'work':>22} {'seconds':>8}"
    )
    for name in args.cases.split(","):
        problem, expected = CASES[name]()
        for engine in engines:
            started = perf_counter()
            result = search(problem, engine, keep_solutions=False)
            seconds = perf_counter() - started
            flag = "" if result.count == expected else f"  (expected {expected})"
            # The engine's own unit of work: link updates (dlx) or big-int ANDs (bitset).
            unit = "updates" if "updates" in result.stats else "mask_ops"
            work = f"{result.stats[unit]:,} {unit}"
            print(
                f"{name:<12} {engine:<7} {len(problem.options):>7} {result.count:>6} "
                f"{result.stats['nodes']:>10,} {work:>22} {seconds:>8.2f}{flag}",
                flush=True,
            )


if __name__ == "__main__":
    main()
