"""A short page soak (bench/page_soak.py): the mixed requests of bench/soak.py, with pool runs,
answered in the page exactly as CPython answers them, and the workers' memory steady after the
first round (in use after a garbage collection within bench/page_soak.py's LIVE_GROWTH_BOUND_MB,
Pyodide's WebAssembly memory within HEAP_GROWTH_BOUND_MB).

Not a timing test: the times are the benchmark's to print.
"""

from __future__ import annotations

from bench import page_soak, soak
from pysolver.kinds import kind_names

# More than two rounds of the mix (about 76 distinct requests), so the end is measured well
# after the first round's warm-up.
SOLVES = 2 * len(page_soak.page_round()) + 20


def test_a_short_page_soak_answers_as_cpython_and_the_worker_heaps_stay(shared_page) -> None:
    result = page_soak.run(shared_page, SOLVES)
    assert result.wrong_total == 0, result.wrong
    assert set(result.groups) == {*kind_names(), soak.ERROR_GROUP, page_soak.POOL_GROUP}
    assert sum(group.solves for group in result.groups.values()) == SOLVES
    first = result.memory["first round"]
    assert first.worker_heaps and first.worker_live, "the page's worker did not report its heap"
    # In use after a collection, and Pyodide's memory (which only grows: the most it used).
    assert result.growth() == []
