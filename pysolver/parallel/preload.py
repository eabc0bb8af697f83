"""What the fork server of the worker processes loads first, before it forks any worker
(``processes.PRELOADED``; the modules of the package the pool's process had loaded come
next): the exact cover engines a task runs and, when the pool's tasks may run the compiled
walk (``processes.warm_up``'s ``kernel``, or the pool's process has loaded it) and workers
would too (``bitset.compiled_walk``: no ``PYSOLVER_PURE=1``), the kernel, loaded from numba's
cache or compiled. A forked worker inherits them: it starts in milliseconds, where a spawned
one imported the package (~0.28 s of CPU) and loaded the kernel (~0.7 s) for every request.
The kernel is not loaded for pools whose tasks do not run it (a batch of Sudokus): numba takes
~130 MB in the server and in every worker."""

from __future__ import annotations

import os
import signal

from pysolver.engines import bitset, cover, memo, memo_tasks

__all__ = ["bitset", "cover", "memo", "memo_tasks"]

# In the fork server (``processes.warm_up`` says so in its environment): the stop signals sent
# to the process group are the pool's process's to handle, which stops the workers in order;
# the server, ended by them, would fail the pool's next fork. Its interpreter unblocked SIGTERM
# as it started, so it ignores them (SIGINT it ignores already).
if os.environ.get("PYSOLVER_FORK_SERVER") in ("1", "kernel"):
    for _name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, _name):
            signal.signal(getattr(signal, _name), signal.SIG_IGN)

_wanted = os.environ.get("PYSOLVER_FORK_SERVER") == "kernel"
_fast = bitset.compiled_walk() if _wanted else None
if _fast is not None:
    _fast._kernel()
    _fast._jit_stats()  # loaded here: a worker's first search did not pay for it
