"""Microbenchmarks of the Python operations the engines' hot loops are made of, for comparing one
interpreter with another (CPython here, Pyodide in the page's worker: bench/bench_browser.py
sends this file's text to a worker and calls ``run_all`` there).

Standard library only, and nothing from pysolver, so the same text runs anywhere. Each
benchmark is a function of a repeat count that does that many units of one kind of work in a
loop, all of them with the same loop overhead; ``run_all`` times each (best of a few runs) and
answers nanoseconds per unit. The big integers are bit masks of the sizes the engines use: 64
bits (a Sudoku's candidates, a small board), 320 bits (the memo engine's remaining-item sets)
and 2,048 bits (the bitset engine's option masks on the 6x10 pentomino matrix, 2,032 options).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from time import process_time

# Units of work per timed run: enough for tens of milliseconds at CPython's speed.
UNITS = 200_000
# Timed runs per benchmark; the best is kept.
RUNS = 3


def masks(bits: int, count: int = 64, seed: int = 18) -> list[int]:
    """``count`` random masks of about ``bits`` bits, with the top bit set so their size is
    what the name says."""
    rng = random.Random(seed)
    return [rng.getrandbits(bits) | 1 << (bits - 1) for _ in range(count)]


def loop_only(units: int) -> None:
    for _ in range(units):
        pass


def small_int_add(units: int) -> None:
    total = 0
    for step in range(units):
        total = (total + step) & 1023


def small_int_compare(units: int) -> None:
    hits = 0
    for step in range(units):
        if step & 7 < 3:
            hits += 1


def big_and(bits: int) -> Callable[[int], None]:
    values = masks(bits)

    def run(units: int) -> None:
        first = values[0]
        for step in range(units):
            first & values[step & 63]

    return run


def big_or(bits: int) -> Callable[[int], None]:
    values = masks(bits)

    def run(units: int) -> None:
        first = values[0]
        for step in range(units):
            first | values[step & 63]

    return run


def big_lowest_bit(bits: int) -> Callable[[int], None]:
    values = masks(bits)

    def run(units: int) -> None:
        for step in range(units):
            value = values[step & 63]
            value & -value

    return run


def big_bit_length(bits: int) -> Callable[[int], None]:
    values = masks(bits)

    def run(units: int) -> None:
        for step in range(units):
            values[step & 63].bit_length()

    return run


def big_bit_count(bits: int) -> Callable[[int], None]:
    values = masks(bits)

    def run(units: int) -> None:
        for step in range(units):
            values[step & 63].bit_count()

    return run


def big_clear_top(bits: int) -> Callable[[int], None]:
    """The bitset engine's way through a mask's bits: the top one found and cleared."""
    values = masks(bits)

    def run(units: int) -> None:
        for step in range(units):
            value = values[step & 63]
            value ^ 1 << (value.bit_length() - 1)

    return run


def map_and_filter(bits: int) -> Callable[[int], None]:
    """The bitset engine's child: ``list(filter(None, map(mask.__and__, rest)))``; a unit is one
    AND (the rest holds 50 masks)."""
    values = masks(bits)
    rest = values[:50]

    def run(units: int) -> None:
        for step in range(units // 50):
            list(filter(None, map(values[step & 63].__and__, rest)))

    return run


def sorted_by_bit_count(bits: int) -> Callable[[int], None]:
    """The bitset engine's MRV: ``sorted(rest, key=int.bit_count)``; a unit is one mask."""
    values = masks(bits)
    rest = values[:50]
    bit_count = int.bit_count

    def run(units: int) -> None:
        for _ in range(units // 50):
            sorted(rest, key=bit_count)

    return run


def dict_small_keys(units: int) -> None:
    table: dict[int, int] = {}
    for step in range(units):
        key = step & 4095
        table[key] = table.get(key, 0) + 1


def dict_big_keys(bits: int) -> Callable[[int], None]:
    """The memo engine's table: counts under big-int keys (hashing a key reads all its digits)."""
    values = masks(bits, 4096)

    def run(units: int) -> None:
        table: dict[int, int] = {}
        for step in range(units):
            key = values[step & 4095]
            table[key] = table.get(key, 0) + 1

    return run


def list_index(units: int) -> None:
    values = list(range(1024))
    total = 0
    for step in range(units):
        total += values[step & 1023]


def list_append_pop(units: int) -> None:
    stack: list[int] = []
    push, pop = stack.append, stack.pop
    for step in range(units):
        push(step)
        if step & 1:
            pop()
            pop()


def list_comprehension(units: int) -> None:
    values = list(range(50))
    for _ in range(units // 50):
        [value + 1 for value in values]


def tuple_pack_unpack(units: int) -> None:
    for step in range(units):
        entry = (step, step, step)
        first, second, third = entry


def function_call(units: int) -> None:
    def add(first: int, second: int, third: int) -> int:
        return first + second + third

    for step in range(units):
        add(step, 1, 2)


def method_call(units: int) -> None:
    class Counter:
        def __init__(self) -> None:
            self.value = 0

        def bump(self, amount: int) -> None:
            self.value += amount

    counter = Counter()
    for step in range(units):
        counter.bump(step)


def generator(units: int) -> None:
    def numbers(count: int) -> Iterator[int]:
        number = 0
        while number < count:
            yield number
            number += 1

    for _ in numbers(units):
        pass


def builtin_sum_map(units: int) -> None:
    values = list(range(50))
    for _ in range(units // 50):
        sum(map(abs, values))


def string_join(units: int) -> None:
    words = [str(number) for number in range(50)]
    for _ in range(units // 50):
        ",".join(words)


def benchmarks() -> dict[str, Callable[[int], None]]:
    table: dict[str, Callable[[int], None]] = {
        "loop only": loop_only,
        "small int add": small_int_add,
        "small int compare": small_int_compare,
    }
    for bits in (64, 320, 2048):
        table[f"big & ({bits} bits)"] = big_and(bits)
        table[f"big | ({bits} bits)"] = big_or(bits)
        table[f"x & -x ({bits} bits)"] = big_lowest_bit(bits)
        table[f"bit_length ({bits} bits)"] = big_bit_length(bits)
        table[f"bit_count ({bits} bits)"] = big_bit_count(bits)
        table[f"x ^ 1 << top ({bits} bits)"] = big_clear_top(bits)
    table["map & filter (2048 bits)"] = map_and_filter(2048)
    table["map & filter (320 bits)"] = map_and_filter(320)
    table["sorted by bit_count (2048)"] = sorted_by_bit_count(2048)
    table["dict get/set small keys"] = dict_small_keys
    table["dict get/set 320-bit keys"] = dict_big_keys(320)
    table["list index"] = list_index
    table["list append/pop"] = list_append_pop
    table["list comprehension"] = list_comprehension
    table["tuple pack/unpack"] = tuple_pack_unpack
    table["function call"] = function_call
    table["method call"] = method_call
    table["generator"] = generator
    table["sum(map(abs))"] = builtin_sum_map
    table["str join"] = string_join
    return table


BENCHMARKS = benchmarks()


def run_one(name: str, units: int = UNITS) -> None:
    """``units`` units of benchmark ``name``, untimed: the caller measures (CPython: its own CPU
    time; the page: the CPU time of the worker's thread, read from /proc)."""
    BENCHMARKS[name](units)


def nanoseconds_per_unit(units: int = UNITS, runs: int = RUNS) -> dict[str, float]:
    """This interpreter's CPU nanoseconds per unit of each benchmark, best of ``runs``, with
    the garbage collector off (as the harness times its rows)."""
    import gc

    answers: dict[str, float] = {}
    enabled = gc.isenabled()
    gc.disable()
    try:
        for name in BENCHMARKS:
            best = float("inf")
            for _ in range(runs):
                started = process_time()
                run_one(name, units)
                best = min(best, process_time() - started)
            answers[name] = best / units * 1e9
    finally:
        if enabled:
            gc.enable()
    return answers


if __name__ == "__main__":
    for name, nanoseconds in nanoseconds_per_unit().items():
        print(f"{name:<30} {nanoseconds:9.1f} ns")
