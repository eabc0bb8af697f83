"""What the fork server of the worker processes loads last, before it forks any worker
(``processes.PRELOADED``; the modules of the package the pool's process had loaded come
first): the exact cover engines a task runs and, when that process has run the compiled walk
(its kernel module is among them) and workers would too (``bitset.compiled_walk``: no
``PYSOLVER_PURE=1``), the kernel, loaded from numba's cache or compiled. A forked worker
inherits them: it starts in milliseconds, where a spawned one imported the package (~0.28 s
of CPU) and loaded the kernel (~0.7 s) for every request. The kernel is not loaded for a
process that has not used it (a fresh CLI run, a batch of Sudokus): numba takes ~130 MB in
the server and in every worker, which then load it only if a task needs it."""

from __future__ import annotations

import sys

from pysolver.engines import bitset, cover, memo, memo_tasks

__all__ = ["bitset", "cover", "memo", "memo_tasks"]

_fast = bitset.compiled_walk() if "pysolver.engines.compiled_kernel" in sys.modules else None
if _fast is not None:
    _fast._kernel()
    _fast._jit_stats()  # loaded here: a worker's first search did not pay for it
