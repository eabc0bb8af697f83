"""The two exact cover engines counting pentomino tilings (the engine alone, no request).

    python -m bench.bench_exact_cover [harness options, see python -m bench.harness --help]

Three classic matrices, built by the polyomino kind before any clock starts:

- 8x8 board with a 2x2 hole in the centre, all tilings: 520 (quick rows)
- 6x10 rectangle, one piece's symmetry fixed (Knuth's restriction): 2,339 (default rows)
- 6x10 rectangle, all tilings: 9,356 (full rows)
- with Knuth's colours: 5x5 double word squares over 60 generated words: 1,416 (default rows)

Both engines walk the same search tree (same MRV rule, same option order), so the node counts
agree and the seconds compare the cost per node. The work counters are each engine's own unit:
dancing links pays every link update in Python bytecode (about 130 per node here, dead ends
being caught by a look-ahead before any covering), the bitset engine a few dozen big-int ANDs
run in C.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from typing import Any

from bench.harness import Case, Measured, main
from pysolver.engines.cover import ExactCoverProblem, search
from pysolver.kinds.polyomino import build_problem

# The two engines with a work counter of their own (singles, the family's third, has none).
ENGINES = ("dlx", "bitset")

RECTANGLE = {"board": ["." * 10] * 6, "pieces": ["pentominoes"]}
HOLED = {"board": ["." * 8] * 3 + ["...##..."] * 2 + ["." * 8] * 3, "pieces": ["pentominoes"]}

# name, puzzle, symmetry, expected count, level; the slow dancing-links runs are measured once.
CASES = (
    ("8x8 hole all", HOLED, "all", 520, "quick"),
    ("6x10 fixed", RECTANGLE, "distinct", 2339, "default"),
    ("6x10 all", RECTANGLE, "all", 9356, "full"),
)


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


def read_result(result: Any) -> Measured:
    # The engine's own unit of work: link updates (dlx) or big-int ANDs (bitset).
    unit = "updates" if "updates" in result.stats else "mask_ops"
    return Measured(result.count, {"nodes": result.stats["nodes"], unit: result.stats[unit]})


def cases() -> Iterator[Case]:
    built = [
        # Built here, before any clock starts (a few milliseconds each).
        (name, build_problem(puzzle, symmetry), count, level)
        for name, puzzle, symmetry, count, level in CASES
    ]
    words_problem, words_count = word_squares_case()
    built.append(("5x5 word squares (colours)", words_problem, words_count, "default"))
    for name, problem, count, level in built:
        for engine in ENGINES:
            yield Case(
                name=f"exact cover {name}",
                engine=engine,
                run=lambda problem=problem, engine=engine: search(
                    problem, engine, keep_solutions=False
                ),
                read=read_result,
                expected=count,
                level=level,
                # dancing links takes many seconds on these: one run is enough to compare.
                repeat=1 if engine == "dlx" and level != "quick" else None,
            )


if __name__ == "__main__":
    sys.exit(main(sources=[cases]))
