"""A short page soak (bench/page_soak.py): the mixed requests of bench/soak.py, with pool runs,
answered in the page exactly as CPython answers them, and the workers' heaps kept steady.

Not a timing test: the times are the benchmark's to print.
"""

from __future__ import annotations

from bench import page_soak, soak
from pysolver.kinds import KINDS

# More than two rounds of the mix (65 distinct requests), so the end is measured well after the
# first round's warm-up.
SOLVES = 150


def test_a_short_page_soak_answers_as_cpython_and_the_worker_heaps_stay(shared_page) -> None:
    assert 2 * len(page_soak.page_round()) < SOLVES
    result = page_soak.run(shared_page, SOLVES)
    assert result.wrong_total == 0, result.wrong
    assert set(result.groups) == {*KINDS, soak.ERROR_GROUP, page_soak.POOL_GROUP}
    assert sum(group.solves for group in result.groups.values()) == SOLVES
    first, end = result.memory["first round"], result.memory["end"]
    assert first.worker_heaps, "the page's worker did not report its heap"
    # Pyodide's memory only grows: the end's figure is the most each worker used in the soak.
    for index, (warm, last) in enumerate(zip(first.worker_heaps, end.worker_heaps, strict=False)):
        assert last <= warm + page_soak.HEAP_GROWTH_BOUND_MB, (
            f"worker {index}'s heap grew from {warm:.1f} MB after the first round "
            f"to {last:.1f} MB after {SOLVES} solves"
        )
