"""Tasks on a pool of worker processes (``multiprocessing``, the standard library only).

A small pool of its own rather than ``concurrent.futures``: there one dead worker (killed, or
taken by the kernel's out-of-memory killer) breaks the whole pool and fails every task not yet
finished, and a worker that stops answering (paused with SIGSTOP, stuck) hangs it for good.
Here each worker is a process with a pipe, the pool knows which job each one is running, and
watches them: a worker that dies, that sends nothing for ``silence_seconds()`` while it runs a
job, or that does not stop within ``STOP_GRACE_SECONDS`` when told to, is killed and its job
handed back to the caller (``WorkerPool``). Workers send a heartbeat from a thread of their
own every ``HEARTBEAT_SECONDS``, so a busy worker is never silent; only one that is paused, or
stuck holding the interpreter lock for seconds, is.

``ProcessRunner`` runs a request's subtree tasks on such a pool: a task whose worker was lost
runs again on a fresh worker (at most ``MAX_ATTEMPTS`` times; the response lists the retries
in ``parallel.retried``). Tasks are plain JSON and idempotent, so a rerun answers exactly as
the first run would have. ``pysolver.batch`` answers input lines on one.

Workers are forked by ``multiprocessing``'s fork server where the platform has one (Linux,
macOS): a process started once per parent, fresh (no copy of a parent that may hold threads or
locks), that has imported the package and loaded the compiled walk when it runs
(``PRELOADED``), so a worker starts in milliseconds rather than importing it all again (6x10
pentominoes, pure walk: each spawned worker took ~0.28 s of CPU, a third of the serial count;
with the compiled walk, loading its kernel took ~0.7 s more). ``warm_up`` starts the server
while the parent plans. Elsewhere workers are spawned. Either way a worker runs with the
parent's environment as it is when the worker starts (the fork server's own is the one it was
started with), so ``PYSOLVER_PURE`` and the rest hold as in the serial run.

The request is shipped to each worker once, as JSON text when the worker starts; a task is
then only its index and its ``subtree``, and the worker splices the two into the task's text.
Everything goes through the pipes (no shared memory, so a full /dev/shm or /tmp does not
matter); a worker looks for a stop message on its pipe when its search asks whether to stop.

One budget for the whole run: workers are capped by the cores this process may use, and each
gets ``budget.BUDGET_BYTES / (workers + 1)`` (the parent, which planned the run and merges
it, keeps one share). A task refused by its share is answered serially by the caller, with the
whole budget (``parallel.solve_split``).

``ProcessLanes`` offers the memo count's levels (``memo_levels``) to this process and
``jobs - 1`` workers on such a pool: each level is cut by lane, this process expands its part
while each worker expands its own, keeping the children its lane owns and sending the others
to their lanes (through this process). A worker's handler (``lane_handler``) makes the level
count's tables of the problem once, at its start, while this process expands the first
levels; a level smaller than ``HERE_BELOW`` sub-boards is expanded here (sending it would
cost more than it saves; the workers' pieces come back for the last levels). A worker lost
takes the piece it kept with it: the level count stops (``memo_levels.LanesLost``) and the
memo walk counts the board here, exactly. A cancel stops the workers' parts at their next
look at the pipe.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from time import perf_counter, sleep
from types import TracebackType
from typing import Any

from pysolver import budget, protocol
from pysolver.engines.cover import ExactCoverProblem
from pysolver.engines.memo_levels import LanesLost, Level, LevelWalk, Part, level_size
from pysolver.engines.monitor import Cancelled, Monitor
from pysolver.parallel.merge import Merger, not_run, read_answer, stopped
from pysolver.parallel.plan import TASKS_PER_JOB, Task
from pysolver.parallel.runner import AnswerTask, LaneRecord

# Times a task may be running on a worker that is lost before it is given up.
MAX_ATTEMPTS = 3
# The signals that stop a run (a terminal's Ctrl-C, `timeout`, systemd, Docker, a closed
# terminal). They often reach the whole process group; the parent turns them into stopping
# every task, so the workers ignore them and answer the stop like any other.
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
# How long the parent waits for events before it checks progress and stops again.
POLL_SECONDS = 0.05
# How long workers told to leave may take, all together, before they are killed.
LEAVE_SECONDS = 2.0
# How often a worker says it is alive (from a thread of its own, whatever its job is doing).
HEARTBEAT_SECONDS = 0.5
# How long a worker running a job may send nothing (no heartbeat, progress or answer) before
# it is taken for lost (paused, or stuck holding the interpreter lock): ten heartbeats missed,
# far more than a loaded machine delays one. PYSOLVER_WORKER_SILENCE_SECONDS sets another
# (tests pause workers on purpose and want a short wait).
SILENCE_SECONDS = 5.0
SILENCE_VARIABLE = "PYSOLVER_WORKER_SILENCE_SECONDS"
# How long a new worker may take to start (a fresh interpreter importing pysolver: about a
# second, many on a loaded machine) before its first word; the silence limit counts from it.
# Where /proc tells, a worker paused while it starts is lost after the silence limit anyway.
START_SECONDS = 15.0
# How long a worker told to stop its job may take to answer before it is killed (a search
# looks for the stop every few milliseconds; the rest is writing its answer). One found
# paused (where /proc tells) is killed at once.
STOP_GRACE_SECONDS = 0.5
# The least time between two looks at the pipe for a stop message, in a worker's cancel hook
# (the hook is asked every few hundred microseconds; a look is a system call).
LOOK_SECONDS = 0.01
# What the fork server imports first, before the modules of the package loaded here: it makes
# the server ignore the stop signals and loads the compiled walk's kernel when asked.
PRELOADED = "pysolver.parallel.preload"
# A worker's name in /proc/PID/comm (at most 15 characters), where Linux lets it be set: the
# processes forked by the fork server all share its command line.
WORKER_NAME = b"pysolver-worker"


def silence_seconds() -> float:
    """How long a busy worker may be silent: ``SILENCE_SECONDS``, or the environment's."""
    text = os.environ.get(SILENCE_VARIABLE, "")
    try:
        seconds = float(text)
    except ValueError:
        return SILENCE_SECONDS
    return seconds if seconds > 0 else SILENCE_SECONDS


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform has one)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def worker_budget(workers: int) -> int:
    """Each worker's share of the memory budget: the parent keeps one share."""
    return budget.budget_bytes() // (workers + 1)


def task_text(request_text: str, subtree: dict[str, Any]) -> str:
    """A task's JSON text: the request's text (a JSON object) with the task's ``subtree``
    spliced in before its closing brace."""
    head = request_text.rstrip()[:-1]
    separator = "" if head.rstrip().endswith("{") else ", "
    return f'{head}{separator}"subtree": {protocol.dumps(subtree)}}}'


# ---------------------------------------------------------------- in a worker process


class Job:
    """What a worker's job handler is given besides the job: its cancel hook (a stop message
    from the pool, or the pool gone) and its progress reports."""

    def __init__(self, channel: _Channel, job_id: int) -> None:
        self.channel = channel
        self.job_id = job_id

    def cancel(self) -> bool:
        return self.channel.stop_asked(self.job_id)

    def report(self, progress: dict[str, Any]) -> None:
        self.channel.send(("progress", self.job_id, progress))


# A job handler: answers one job's payload (plain, picklable data) in a worker.
JobHandler = Callable[[Any, Job], Any]


class _Channel:
    """A worker's end of its pipe, shared by the job loop and the heartbeat thread."""

    def __init__(self, connection: Connection, parent: int) -> None:
        self.connection = connection
        self.parent = parent
        self.sending = threading.Lock()
        self.stopping: int | None = None  # the job told to stop
        self.leaving = False  # told to leave, or the pool is gone
        self.next_look = 0.0

    def send(self, message: tuple[str, int | None, Any]) -> bool:
        """Send a message to the pool; False (and leaving) when the pool is gone."""
        try:
            with self.sending:
                self.connection.send(message)
        except (OSError, ValueError):  # the parent died: leave quietly, no traceback
            self.leaving = True
            return False
        return True

    def stop_asked(self, job_id: int) -> bool:
        if self.stopping == job_id or self.leaving:
            return True
        now = perf_counter()
        if now < self.next_look:
            return False
        self.next_look = now + LOOK_SECONDS
        # A parent killed outright cannot tell us to stop: stop on our own then.
        if os.getppid() != self.parent:
            self.leaving = True
            return True
        try:
            while self.connection.poll():
                self._take(self.connection.recv())
        except (EOFError, OSError):
            self.leaving = True
        return self.stopping == job_id or self.leaving

    def _take(self, message: Any) -> tuple[int, Any] | None:
        """Note a stop or a leave; a job's ``(id, payload)`` is returned."""
        if message is None:
            self.leaving = True
        elif message[0] == "stop":
            self.stopping = message[1]
        else:
            return message[1], message[2]
        return None

    def next_job(self) -> tuple[int, Any] | None:
        """The next job, or None once told to leave (or the pool is gone)."""
        while not self.leaving:
            try:
                job = self._take(self.connection.recv())
            except (EOFError, OSError):
                return None
            if job is not None:
                return job
        return None

    def beat(self) -> None:
        """The heartbeat thread: say we are alive until the pool is gone."""
        while self.send(("beat", None, None)):
            sleep(HEARTBEAT_SECONDS)


def _die_with_parent() -> None:
    """Ask Linux to kill this process when its parent dies (even paused, it then ends; a
    worker of the fork server ends with the server, which ends with the pool's process), and
    name it ``WORKER_NAME``."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes  # here: a worker process on Linux is the only place that needs it

    with suppress(OSError, AttributeError):
        pr_set_pdeathsig = 1
        pr_set_name = 15
        libc = ctypes.CDLL(None)
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL)
        libc.prctl(pr_set_name, ctypes.c_char_p(WORKER_NAME))


def _serve(
    connection: Connection,
    owner: int,
    forked: bool,
    environment: dict[str, str],
    make_handler: Callable[..., JobHandler],
    setup: tuple[Any, ...],
) -> None:
    """A worker process: answer jobs with ``make_handler(*setup)`` until told to leave (None)
    or the pool is gone. ``owner``: the pool's process, the worker's parent unless the fork
    server (``forked``) is; ``environment``: the owner's when it started the worker."""
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # blocked by the parent while it started us
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    _die_with_parent()
    if os.environ != environment:
        os.environ.clear()
        os.environ.update(environment)
    parent = os.getppid() if forked else owner
    channel = _Channel(connection, parent)
    if os.getppid() != parent:
        return
    threading.Thread(target=channel.beat, name="pysolver-heartbeat", daemon=True).start()
    handler = make_handler(*setup)
    del setup
    while (job := channel.next_job()) is not None:
        job_id, payload = job
        answer = handler(payload, Job(channel, job_id))
        if not channel.send(("answer", job_id, answer)):
            return


# ---------------------------------------------------------------- in the parent


@contextmanager
def _stop_signals_blocked() -> Iterator[None]:
    """Block the stop signals while a worker starts: it inherits the mask and only unblocks
    them once it ignores them, so a signal to the process group in between cannot kill it.
    Signals that arrive meanwhile reach this process when the block ends."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def in_worker_bootstrap() -> bool:
    """True while a spawned process imports its parent's main script: a script that solves
    with ``jobs`` at import time (no ``if __name__ == "__main__":``) would start workers of
    workers, which ``multiprocessing`` refuses."""
    return bool(getattr(multiprocessing.current_process(), "_inheriting", False))


def start_method() -> str:
    """``forkserver`` where the platform has it, else ``spawn`` (see the module doc)."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        return "forkserver"
    return "spawn"


# Set in the fork server's environment only (see ``warm_up``).
FORK_SERVER_VARIABLE = "PYSOLVER_FORK_SERVER"
# The compiled walk's kernel module: the fork server loads the kernel when it imports it.
KERNEL_MODULE = "pysolver.engines.compiled_kernel"
# Whether the fork server this process started loaded the kernel.
_server: dict[str, bool] = {}


def _stop_server() -> None:
    """Let the fork server go (ended already, or to be started again with the kernel), with
    CPython's own way to stop it (its tests use it)."""
    from multiprocessing import forkserver  # here: only where the platform has it

    stop = getattr(forkserver._forkserver, "_stop", None)
    if stop is not None:
        with suppress(OSError):
            stop()


def warm_up(kernel: bool = False) -> None:
    """Start the fork server now, if it is not running, so that it imports the modules of the
    package this process has loaded (the kind of the request being planned among them: 0.1 s
    for the polyomino kind) and, with ``kernel`` (the tasks may run the compiled walk), loads
    the compiled walk's kernel, while this process plans; it keeps serving this process's
    later pools. A server running without the kernel when ``kernel`` is asked for is started
    again (else every worker of every request would load it: ~0.7 s of CPU each). Its stop
    signals are blocked (as a worker's while it starts), so a signal to the process group
    leaves it to the workers' pool, which stops them in order."""
    if start_method() != "forkserver" or in_worker_bootstrap():
        return
    from multiprocessing import forkserver  # here: only where the platform has it

    server = forkserver._forkserver
    running = getattr(server, "_forkserver_pid", None) is not None
    if running and kernel and not _server.get("kernel", False):
        _stop_server()
        running = getattr(server, "_forkserver_pid", None) is not None
    if running:
        forkserver.ensure_running()  # it may have ended: started again then
        return
    loaded = [name for name in sys.modules if name.startswith("pysolver.")]
    preloaded = [name for name in sorted(loaded) if "__main__" not in name and name != PRELOADED]
    # ``PRELOADED`` first: it makes the server ignore the stop signals before the rest loads.
    forkserver.set_forkserver_preload([PRELOADED, *preloaded])
    _server["kernel"] = kernel or KERNEL_MODULE in preloaded
    # The server's interpreter unblocks SIGTERM as it starts: told by its environment that it
    # is the fork server (and whether to load the kernel), ``PRELOADED`` makes it ignore the
    # stop signals (the workers' pool stops the workers; the server ends when this process
    # does).
    os.environ[FORK_SERVER_VARIABLE] = "kernel" if _server["kernel"] else "1"
    try:
        with _stop_signals_blocked():
            forkserver.ensure_running()
    finally:
        del os.environ[FORK_SERVER_VARIABLE]


NO_MAIN_GUARD = (
    "worker processes import the main script again, so a script that solves with jobs must "
    'do it under `if __name__ == "__main__":` (or solve without jobs)'
)


@dataclass
class PoolWorker:
    """A worker process of a ``WorkerPool``, the job it runs and when it was last heard."""

    process: Any  # multiprocessing's SpawnProcess
    connection: Connection
    job: int | None = None
    given: float = 0.0  # when its job began (given, or the worker's first word after that)
    heard: float = 0.0  # when it last sent anything (or was given its job)
    started: bool = False  # it has said something: it runs, past its start-up
    paused: float | None = None  # when it was first seen paused while starting
    stop_asked: float | None = None  # when its job was told to stop


@dataclass
class PoolEvent:
    """What ``WorkerPool.wait`` saw: ``progress`` or ``answer`` of a job (``payload``), or
    ``lost``: the worker running the job is gone (``payload``: why, for a message)."""

    kind: str
    job: int
    payload: Any


class WorkerPool:
    """Up to ``size`` worker processes, each answering jobs with ``make_handler(*setup)`` (a
    module-level function, sent by reference; ``setup`` is sent to each worker once)."""

    def __init__(
        self, size: int, make_handler: Callable[..., JobHandler], setup: tuple[Any, ...]
    ) -> None:
        self.size = size
        self.make_handler = make_handler
        self.setup = setup
        self.silence = silence_seconds()
        # Forked by the fork server, or spawned: no copy of a parent that may hold threads
        # or locks (see the module doc).
        self.method = start_method()
        self.context = multiprocessing.get_context(self.method)
        self.workers: list[PoolWorker] = []

    def idle(self) -> list[PoolWorker]:
        return [worker for worker in self.workers if worker.job is None]

    def busy(self) -> list[PoolWorker]:
        return [worker for worker in self.workers if worker.job is not None]

    def start(self) -> PoolWorker:
        """A new worker (OSError when the system cannot start one; ``SolveError``, saying
        what to do, in a worker importing a main script that solves at import)."""
        if in_worker_bootstrap():
            raise protocol.SolveError(protocol.INTERNAL_ERROR, NO_MAIN_GUARD)
        forked = self.method == "forkserver"
        for attempt in range(2):
            if forked:
                warm_up()
            parent_end, worker_end = self.context.Pipe(duplex=True)
            environment = dict(os.environ)
            process = self.context.Process(  # type: ignore[attr-defined]
                target=_serve,
                args=(worker_end, os.getpid(), forked, environment, self.make_handler, self.setup),
                name="pysolver-worker",
                daemon=True,
            )
            try:
                with _stop_signals_blocked():
                    process.start()
                break
            except (EOFError, ConnectionError):
                # The fork server ended (a signal to the process group reached it while its
                # interpreter started, before it could ignore it): started again, once.
                parent_end.close()
                if attempt:
                    raise OSError("the worker processes' fork server ended") from None
                _stop_server()
            finally:
                worker_end.close()
        worker = PoolWorker(process, parent_end)
        self.workers.append(worker)
        return worker

    def give(self, worker: PoolWorker, job: int, payload: Any) -> None:
        worker.job = job
        worker.given = worker.heard = perf_counter()
        worker.stop_asked = None
        # One that died already is found by the next wait, which reports its job lost.
        with suppress(OSError):
            worker.connection.send(("job", job, payload))

    def stop(self, worker: PoolWorker) -> None:
        """Tell the worker to stop its job (once); killed if it has not answered within
        ``STOP_GRACE_SECONDS``."""
        if worker.job is None or worker.stop_asked is not None:
            return
        worker.stop_asked = perf_counter()
        with suppress(OSError):
            worker.connection.send(("stop", worker.job, None))

    def wait(self, timeout: float, also: tuple[Connection, ...] = ()) -> list[PoolEvent]:
        """Wait up to ``timeout`` seconds (less when one of ``also`` can be read); what
        happened meanwhile, in order."""
        events: list[PoolEvent] = []
        handles: list[Any] = [*also, *(worker.connection for worker in self.workers)]
        handles += [worker.process.sentinel for worker in self.workers]
        if handles:
            wait(handles, timeout=timeout)
        else:
            sleep(timeout)
        for worker in list(self.workers):
            self._read(worker, events)
            if worker.process.exitcode is not None:
                self._read(worker, events)  # what it sent before it died
                self._lose(worker, _exit_cause(worker.process.exitcode), events)
                continue
            if worker.job is None:
                continue
            now = perf_counter()
            if not worker.started:
                # Its job has not begun: nothing is lost by ending it now when told to stop.
                worker.paused = (worker.paused or now) if _paused(worker.process.pid) else None
                if worker.stop_asked is not None:
                    self._lose(worker, "ended while it started, its job told to stop", events)
                elif worker.paused is not None and now - worker.paused > self.silence:
                    cause = f"killed after {self.silence:g} s paused while it started"
                    self._lose(worker, cause, events)
                elif now - worker.heard > START_SECONDS:
                    cause = f"killed after {START_SECONDS:g} s starting without a word"
                    self._lose(worker, cause, events)
            elif now - worker.heard > self.silence:
                cause = f"killed after {self.silence:g} s without a word (paused or stuck)"
                self._lose(worker, cause, events)
            elif worker.stop_asked is not None and (
                now - worker.stop_asked > STOP_GRACE_SECONDS or _paused(worker.process.pid)
            ):
                cause = f"killed when it did not stop within {STOP_GRACE_SECONDS:g} s"
                self._lose(worker, cause, events)
        return events

    def _read(self, worker: PoolWorker, events: list[PoolEvent]) -> None:
        try:
            while worker.connection.poll():
                kind, job, payload = worker.connection.recv()
                worker.heard = perf_counter()
                if not worker.started:  # its job begins now, after the worker's start-up
                    worker.started = True
                    worker.given = worker.heard
                if job is None or job != worker.job:
                    continue  # a heartbeat, or a late word about a job already lost
                if kind == "answer":
                    worker.job = None
                events.append(PoolEvent(kind, job, payload))
        except (EOFError, OSError):  # it died: wait sees to its job
            return

    def _lose(self, worker: PoolWorker, cause: str, events: list[PoolEvent]) -> None:
        """End a worker (killed when still running) and report its job lost."""
        self.workers.remove(worker)
        _end([worker], 0.0)
        if worker.job is not None:
            events.append(PoolEvent("lost", worker.job, cause))

    def dismiss(self) -> None:
        """End every worker: a job still running is told to stop, every worker to leave;
        those still there after ``LEAVE_SECONDS`` in all are killed."""
        for worker in self.workers:
            with suppress(OSError):
                if worker.job is not None:
                    worker.connection.send(("stop", worker.job, None))
                worker.connection.send(None)
        workers, self.workers = self.workers, []
        _end(workers, LEAVE_SECONDS)

    def kill(self) -> None:
        """End every worker at once (their jobs' answers are not wanted any more)."""
        workers, self.workers = self.workers, []
        _end(workers, 0.0)


def _end(workers: list[PoolWorker], seconds: float) -> None:
    """Wait up to ``seconds`` in all for the workers to exit, then kill the rest (SIGKILL
    ends a paused process too) and reap them."""
    deadline = perf_counter() + seconds
    for worker in workers:
        if _paused(worker.process.pid):  # it cannot leave: no use waiting for it
            worker.process.kill()
    for worker in workers:
        worker.process.join(max(0.0, deadline - perf_counter()))
    for worker in workers:
        if worker.process.exitcode is None:
            worker.process.kill()
        worker.process.join()
        worker.connection.close()


def _paused(pid: int) -> bool:
    """The process is stopped (SIGSTOP, a debugger), where /proc says (Linux)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in ("T", "t")
    except (OSError, IndexError):
        return False


def _exit_cause(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            return f"ended by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"ended by signal {-exitcode}"
    return f"exited with status {exitcode}"


# ---------------------------------------------------------------- subtree tasks


def task_handler(request_text: str, budget_bytes: int, answer_task: AnswerTask) -> JobHandler:
    """A worker's handler of subtree tasks: the request's text (sent once) and a task's
    ``subtree`` make the task's request, which ``answer_task`` answers within the worker's
    share of the budget."""
    budget.BUDGET_BYTES = budget_bytes

    def answer(subtree: dict[str, Any], job: Job) -> str:
        return answer_task(task_text(request_text, subtree), cancel=job.cancel, progress=job.report)

    return answer


class ProcessRunner:
    """A pool of worker processes (at most ``jobs``, at most the usable cores), each answering
    tasks with ``answer_task`` (sent to them by reference, so a module-level function)."""

    name = "processes"
    # A worker costs tens of milliseconds to fork and its first task reads the puzzle and
    # builds the walk's tables again: a search about to end runs serially (``serial_start``),
    # or this process answers tasks too (``run_here``).
    starts_serially = True

    def __init__(
        self, jobs: int, answer_task: AnswerTask, tasks_per_job: int = TASKS_PER_JOB
    ) -> None:
        self.jobs = max(1, min(jobs, usable_cores()))
        self.answer_task = answer_task
        self.tasks_per_job = tasks_per_job

    def workers(self) -> int:
        return self.jobs

    def grant(self, jobs: int) -> int:
        return min(jobs, self.jobs)

    def warm_up(self, compiled: bool) -> None:
        """Start the fork server (``warm_up``): it loads what the workers need while the
        request is planned."""
        warm_up(compiled)

    def run(self, tasks: list[Task], merger: Merger) -> None:
        if not tasks:
            return
        _TaskRun(self, tasks, merger, here=False).run()

    def level_lanes(self, jobs: int) -> ProcessLanes:
        """This process and ``jobs - 1`` workers (``jobs`` granted) as the memo count's lanes
        (``ProcessLanes``)."""
        return ProcessLanes(jobs)

    def run_here(self, tasks: list[Task], merger: Merger) -> None:
        """``run`` with this process as one of the ``jobs`` workers: it answers tasks in the
        calling thread from the start, while a thread of its own runs the pool of the others
        (``jobs - 1`` processes) and merges. Nothing this process searched is thrown away
        (a serial start that splits throws its 0.1 s away, beside workers that share the
        cores with it), and one worker fewer is forked and builds the walk's tables.

        This process's tasks run within a worker's share of the budget (``worker_budget``:
        the process keeps one share more for the plan and the merge), so the whole run
        stays within the budget as before; a memo count's memo is let go after the run
        (``memo_tasks.forget``)."""
        if not tasks:
            return
        task_run = _TaskRun(self, tasks, merger, here=True)
        thread = threading.Thread(target=task_run.run_beside, name="pysolver-tasks", daemon=True)
        thread.start()
        try:
            task_run.work_here()
        finally:
            task_run.leave_here()
            try:
                thread.join()
            except BaseException:  # interrupted while the workers finish: they stop now
                task_run.merger.stop_from = 0
                thread.join()
                raise
            finally:
                task_run.close_here()
                from pysolver.engines import memo_tasks  # loaded already: the tasks ran it

                memo_tasks.forget()
        if task_run.failure is not None:
            raise task_run.failure


class _Here:
    """This process among the lanes that take tasks (the others: their ``PoolWorker``)."""


HERE = _Here()


class _TaskRun:
    """One run of a ``ProcessRunner``: its pool, the tasks waiting and the retries; with
    ``here``, this process takes tasks too (``ProcessRunner.run_here``).

    A lane (a worker process, or this process) takes the first waiting task of a group it
    has run (``Task.group``: its memo holds their shared sub-searches), else of a group no
    lane has run, else the first waiting task (the heaviest first, for a memo count)."""

    def __init__(
        self, runner: ProcessRunner, tasks: list[Task], merger: Merger, here: bool
    ) -> None:
        self.merger = merger
        self.answer_task = runner.answer_task
        lanes = min(runner.jobs, len(tasks))
        base = {key: value for key, value in tasks[0].request.items() if key != "subtree"}
        self.request_text = request_text = protocol.dumps(base)
        self.share = worker_budget(lanes)
        setup = (request_text, self.share, runner.answer_task)
        self.pool = WorkerPool(lanes - 1 if here else lanes, task_handler, setup)
        self.tasks = tasks
        self.waiting: deque[Task] = deque(tasks)
        # ``waiting`` and ``owners`` are shared with this process's lane (``work_here``).
        self.lock = threading.Lock()
        self.owners: dict[Any, Any] = {}  # group -> the lane that took its first task
        self.attempts = [0] * len(tasks)
        self.unanswered = len(tasks)
        # This process's lane: it writes its task's progress and answer to ``here_out``, read
        # by the pool's thread (``here_in``, waited on with the workers' pipes).
        self.here_in: Connection | None = None
        self.here_out: Connection | None = None
        self.here_open = here  # until the lane says it leaves
        if here:
            self.here_in, self.here_out = multiprocessing.Pipe(duplex=False)
        self.here_taken: set[int] = set()  # the tasks this process took, not yet answered
        self.ending = False  # the pool's thread has finished (or failed): no more tasks here
        self.failure: BaseException | None = None

    def take(self, lane: Any) -> Task | None:
        """The next task for ``lane`` (see the class doc), or None when none is waiting."""
        with self.lock:
            if not self.waiting or self.ending:
                return None
            chosen: Task | None = None
            unowned: Task | None = None
            for task in self.waiting:
                if task.group is None:
                    chosen = chosen or task
                    break
                owner = self.owners.get(task.group)
                if owner is lane:
                    chosen = task
                    break
                if owner is None and unowned is None:
                    unowned = task
            chosen = chosen or unowned or self.waiting[0]
            self.waiting.remove(chosen)
            if chosen.group is not None:
                self.owners.setdefault(chosen.group, lane)
            if lane is HERE:
                self.here_taken.add(chosen.index)
            return chosen

    def work_here(self) -> None:
        """This process's lane: answer tasks until none is waiting (or the run stops), within
        a worker's share of the budget (the pool's thread merges within the budget's
        constants, and nothing else runs meanwhile: the caller waits for the answer)."""
        whole = budget.BUDGET_BYTES
        budget.BUDGET_BYTES = self.share
        try:
            self._work_here()
        finally:
            budget.BUDGET_BYTES = whole

    def _work_here(self) -> None:
        while (task := self.take(HERE)) is not None:
            index = task.index

            def cancel(index: int = index) -> bool:
                return self.ending or self.merger.should_stop(index)

            def report(progress: dict[str, Any], index: int = index) -> None:
                self._tell("progress", index, progress)

            if cancel():
                self._tell("answer", index, None)
                continue
            try:
                text = task_text(self.request_text, task.subtree)
                answer: str | None = self.answer_task(text, cancel=cancel, progress=report)
            except Exception as exc:  # as a worker process that died: this subtree failed
                answer = protocol.dumps(not_run(f"the task failed ({type(exc).__name__}: {exc})"))
            self._tell("answer", index, answer)

    def _tell(self, kind: str, index: int | None, payload: Any) -> None:
        """Send the pool's thread a word of this process's lane (nothing once it has ended)."""
        assert self.here_out is not None
        with suppress(OSError):
            self.here_out.send((kind, index, payload))

    def leave_here(self) -> None:
        """This process's lane is done (or interrupted: its task is then answered stopped)."""
        self._tell("leave", None, None)

    def close_here(self) -> None:
        assert self.here_in is not None and self.here_out is not None
        self.here_out.close()
        self.here_in.close()

    def run_beside(self) -> None:
        """The pool's loop, in a thread beside this process's lane."""
        try:
            self.run()
        except BaseException as failure:  # raised again in the lane's thread
            self.failure = failure
        finally:
            self.ending = True
            # Read this process's lane to its end: it stops (``ending``), and a word it sends
            # is never left to fill the pipe.
            while self.here_open:
                self._read_here(block=True)

    def run(self) -> None:
        try:
            while self.unanswered:
                self._stop_waiting_tasks()
                self._hand_out()
                if not self.unanswered:
                    break
                also = (self.here_in,) if self.here_open and self.here_in is not None else ()
                for event in self.pool.wait(POLL_SECONDS, also):
                    if event.kind == "progress":
                        self.merger.progress(event.job, event.payload)
                    elif event.kind == "answer":
                        self._answer(event.job, read_answer(event.payload))
                    else:
                        self._lost(self.tasks[event.job], event.payload)
                if self.here_open:
                    self._read_here()
                self.merger.check()
                for worker in self.pool.busy():
                    if worker.job is not None and self.merger.should_stop(worker.job):
                        self.pool.stop(worker)
        finally:
            self.pool.dismiss()

    def _read_here(self, block: bool = False) -> None:
        """Take in what this process's lane sent (``block``: wait for a word)."""
        assert self.here_in is not None
        while self.here_open and (block or self.here_in.poll()):
            block = False
            kind, index, payload = self.here_in.recv()
            if kind == "leave":
                self.here_open = False
                with self.lock:
                    interrupted, self.here_taken = sorted(self.here_taken), set()
                if interrupted:  # an exception left its task unanswered: the run stops
                    self.merger.stop_from = 0
                for index in interrupted:
                    self._answer(index, stopped())
                return
            if kind == "progress":
                self.merger.progress(index, payload)
            else:
                with self.lock:
                    self.here_taken.discard(index)
                self._answer(index, stopped() if payload is None else read_answer(payload))

    def _stop_waiting_tasks(self) -> None:
        with self.lock:
            halted = [task for task in self.waiting if self.merger.should_stop(task.index)]
            for task in halted:
                self.waiting.remove(task)
        for task in halted:
            self._answer(task.index, stopped())

    def _hand_out(self) -> None:
        """Give each idle worker the next task it takes, starting workers up to the pool's
        size (a worker always gets a task as it starts, so a worker that cannot start fails
        tasks, a bounded number of times, rather than looping)."""
        idle = self.pool.idle()
        while self.waiting and (idle or len(self.pool.workers) < self.pool.size):
            worker = idle.pop() if idle else self.pool.start()
            task = self.take(worker)
            if task is None:  # this process took the last one meanwhile
                return
            self.pool.give(worker, task.index, task.subtree)

    def _lost(self, task: Task, cause: str) -> None:
        """The worker running ``task`` was lost: the task runs again on a fresh worker, or is
        given up."""
        if self.merger.should_stop(task.index):
            self._answer(task.index, stopped())
            return
        self.attempts[task.index] += 1
        if self.attempts[task.index] < MAX_ATTEMPTS:
            self.merger.retried(task.index, cause)
            with self.lock:
                self.waiting.appendleft(task)
            return
        self._answer(
            task.index,
            not_run(
                f"the worker process running this task died {MAX_ATTEMPTS} times "
                f"(last {cause}); it was given up"
            ),
        )

    def _answer(self, index: int, response: dict[str, Any]) -> None:
        self.merger.done(index, response)
        self.unanswered -= 1


# ---------------------------------------------------------------- the memo count's levels

# A level this small is expanded here: sending it costs about what expanding it does.
HERE_BELOW = 4096
# While the workers are still starting (``ProcessLanes.open``), a level this small is
# expanded here alone (50-100 ms of work at most); a wider one waits for them.
ALONE_WHILE_STARTING_BELOW = 16_384


def lane_handler(problem: ExactCoverProblem, budget_bytes: int) -> JobHandler:
    """A worker's handler of level parts (its lane's): the tables made once; it keeps the
    children its lane owns from one level to the next (they never leave it).

    A job ``("expand", lane, pieces, lanes)``: the lane's part is the pieces the other lanes
    sent and the piece kept; answered with its ``Expanded`` (the lane's own piece emptied:
    kept) and the kept piece's size, None when told to stop. ``("return", ...)``: the kept
    piece itself (the count goes on in the pool's process: the levels are small again)."""
    budget.BUDGET_BYTES = budget_bytes
    walk = LevelWalk(problem)
    kept: list[dict[int, int]] = []

    def answer(payload: tuple[str, int, Part, int], job: Job) -> Any:
        command, lane, pieces, lanes = payload
        if command == "return":
            return kept.pop() if kept else {}
        part = [*pieces, *kept]
        kept.clear()
        try:
            expanded = walk.expand(part, lanes, Monitor(cancel=job.cancel))
        except Cancelled:
            return None
        own = expanded.parts[lane]
        kept.append(own)
        expanded.parts[lane] = {}
        return expanded, len(own)

    return answer


@dataclass
class ProcessLanes(LaneRecord):
    """``memo_levels.Lanes`` on this process (lane 0) and ``count - 1`` worker processes; a
    context manager (the workers go when it ends).

    A worker keeps its lane's own children (``lane_handler``), so a level's sub-boards only
    travel from the lane that reached them to the lane that owns them, once: 8x8 with the
    square, 2 lanes, wall s (three runs each): 4.94 -> 4.79, 4.47, 4.58 (each sub-board the
    worker kept went to this process and back, pickled and read twice). This process holds
    the pieces sent to each lane (``parts``; the size of a worker's own piece in ``held``).
    A worker lost loses the piece it kept: the count cannot go on (``LanesLost``; the memo
    walk counts it here, the response saying why)."""

    pool: WorkerPool | None = None
    # Per lane, the size of the piece its worker keeps (0: none).
    held: list[int] = field(default_factory=list)
    # The thread starting the workers (``open``), and what it raised other than OSError.
    starting: threading.Thread | None = None
    start_error: BaseException | None = None

    def open(self, problem: ExactCoverProblem) -> None:
        """Start the workers, from a thread: each makes its tables while this process makes
        its own and expands the first levels (started at the first level, a worker of 8x8
        with the square was still making them 57 ms after this process had sent it the first
        wide one). The first worker waits for the fork server to import the package; this
        process goes on meanwhile, alone on levels under ``ALONE_WHILE_STARTING_BELOW``
        (``_started``). Measured, 6x10 pentominoes, the CLI's wall s with ``--jobs 2``
        (pure walk): 0.72-0.74 when this process waited (0.24 s from here to the first level
        sent). One that cannot start (``lost`` says why) leaves every level here."""
        self.held = [0] * self.count
        pool = self._pool(problem)

        def start_workers() -> None:
            try:
                while len(pool.workers) < self.count - 1:
                    pool.start()
            except OSError as error:
                self.lost.append(f"a worker could not start ({error})")
            except BaseException as error:  # raised in this process's thread (``_started``)
                self.start_error = error

        self.starting = threading.Thread(target=start_workers, name="pysolver-lanes-start")
        self.starting.start()

    def _started(self, size: int) -> bool:
        """Whether the workers have started (those that could), waiting for them when the
        level (``size`` sub-boards) is too wide for this process alone."""
        if self.starting is not None:
            if self.starting.is_alive() and size < ALONE_WHILE_STARTING_BELOW:
                return False
            self.starting.join()
            self.starting = None
            if self.start_error is not None:
                raise self.start_error
        return True

    def step(self, monitor: Monitor) -> Level:
        assert self.walk is not None and self.parts is not None, "started first"
        walk, parts, count = self.walk, self.parts, self.count
        size = level_size(parts) + sum(self.held)
        pool = self._pool(walk.problem)
        if size < HERE_BELOW or not self._started(size) or len(pool.workers) < count - 1:
            self._bring_back(pool, monitor)  # none is held while the workers start
            return super().step(monitor)
        jobs = self._give(
            pool, {lane: ("expand", lane, parts[lane], count) for lane in self._lanes}
        )
        try:
            here = walk.expand(parts[0], count, monitor)
            answers = [here]
            self.nodes[0] += here.nodes
            for lane, (expanded, kept) in self._answers(pool, jobs, monitor).items():
                answers.append(expanded)
                self.nodes[lane] += expanded.nodes
                self.held[lane] = kept
        except BaseException:
            self._stop(pool.busy())
            raise
        self.parts = [[answer.parts[lane] for answer in answers] for lane in range(count)]
        return Level(
            sum(answer.found for answer in answers),
            sum(answer.nodes for answer in answers),
            level_size(self.parts) + sum(self.held),
        )

    @property
    def _lanes(self) -> range:
        """The workers' lanes (this process is lane 0)."""
        return range(1, self.count)

    def _give(self, pool: WorkerPool, payloads: dict[int, Any]) -> dict[int, int]:
        """Give each lane's worker its payload (lane -> payload) as a job of this level; the
        jobs given (job -> lane)."""
        jobs = {}
        for lane, payload in payloads.items():
            job = self.levels_sent * self.count + lane
            jobs[job] = lane
            pool.give(pool.workers[lane - 1], job, payload)
        self.levels_sent += 1
        return jobs

    def _answers(self, pool: WorkerPool, jobs: dict[int, int], monitor: Monitor) -> dict[int, Any]:
        """The workers' answers to ``jobs`` (job -> lane), by lane; ``LanesLost`` when one is
        lost (its kept piece with it), ``Cancelled`` on a cancel."""
        answered: dict[int, Any] = {}
        while len(answered) < len(jobs):
            for event in pool.wait(POLL_SECONDS):
                if event.job not in jobs or event.kind == "progress":
                    continue
                if event.kind == "lost" or event.payload is None:
                    self.lost.append(str(event.payload))
                    raise LanesLost(f"a worker was lost ({event.payload})")
                answered[jobs[event.job]] = event.payload
            if monitor.stop_asked():
                raise Cancelled
        return answered

    def _bring_back(self, pool: WorkerPool, monitor: Monitor) -> None:
        """Ask the workers for the pieces they keep: the count goes on here."""
        if not any(self.held):
            return
        assert self.parts is not None
        held = [lane for lane in self._lanes if self.held[lane]]
        jobs = self._give(pool, {lane: ("return", lane, [], self.count) for lane in held})
        for lane, piece in self._answers(pool, jobs, monitor).items():
            self.parts[lane].append(piece)
            self.held[lane] = 0

    def __enter__(self) -> ProcessLanes:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self.starting is not None:
            self.starting.join()  # a worker it started is then stopped below
            self.starting = None
        if self.pool is not None:
            if kind is None:
                self.pool.dismiss()
            else:
                self.pool.kill()
            self.pool = None

    def _pool(self, problem: ExactCoverProblem) -> WorkerPool:
        if self.pool is None:
            share = worker_budget(self.count)
            self.pool = WorkerPool(self.count - 1, lane_handler, (problem, share))
        return self.pool

    def _stop(self, workers: list[PoolWorker]) -> None:
        for worker in workers:
            assert self.pool is not None
            self.pool.stop(worker)
