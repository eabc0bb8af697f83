"""``python -m pysolver batch FILE``: one request per line in, one answer per line out.

A line is a JSON request, or a plain puzzle line: n*n characters of a Sudoku (``.`` or ``0``
blank; top95.txt, the lines of ``.sdk`` collections), read as ``{"kind": "sudoku", "puzzle":
{"grid": line}}``, a Tatham Solo or Rectangles game ID, a sudokuwiki address or a puzz.link URL
(``pysolver.pasted``). Blank lines and ``#`` comments are skipped. Answers come in input order,
each on one line (JSON) or as a picture followed by a blank line (``--format text``); a line
that fails in any way gets its own error answer and the others are still answered. With
``--jobs N``, N worker processes answer the lines, N at a time (``processes.WorkerPool``:
a worker that dies or goes silent is replaced and its line runs again); the output order stays
the input order. Progress (lines answered, errors, seconds) goes to standard error.

Bounded however long the input: lines are read as they are needed (by a thread, so a signal
or the run's deadline ends a wait on a pipe held open), at most ``WINDOW_PER_JOB`` per worker
are in flight (read, answered or waiting for an earlier line to print), and a line longer
than the request limit is refused without being held whole. Each worker gets its share of the
memory budget (``processes.worker_budget``), the parent keeps one.

Stops: ``--timeout`` bounds each line (its answer is then the partial one, ``"cancelled":
true``; a worker that does not stop in time is killed), the ``StopCheck`` (Ctrl-C, SIGTERM,
SIGHUP, ``--total-timeout``) ends the run: the answers printed so far stay, a summary goes to
standard error, no worker is left.
"""

from __future__ import annotations

import argparse
import errno
import io
import os
import queue
import sys
import threading
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from time import perf_counter
from typing import IO, Any, Protocol

from pysolver import budget, pasted, pictures, protocol
from pysolver.api import solve
from pysolver.parallel import processes
from pysolver.parallel.processes import Job, JobHandler, WorkerPool

# How often the progress line on standard error is rewritten, at most.
PROGRESS_INTERVAL = 0.2
# Lines in flight per worker: enough to keep every worker busy while an earlier line holds
# up the printing, few enough that the parent holds a handful of lines and answers.
WINDOW_PER_JOB = 4
# How long the parent waits for a line or an answer before it looks at its stop again.
POLL_SECONDS = 0.05
# The most characters of an exception's text an answer repeats.
MAX_REASON_CHARS = 200
# Characters read at a time from the input.
READ_CHUNK = 1 << 16


class StopCheck(Protocol):
    """What ends the whole run: true once it must stop; ``reason`` says why, for a message."""

    def __call__(self) -> bool: ...

    def reason(self) -> str: ...


@dataclass
class Answer:
    """The answer to one line: the text to print, whether it is ok, whether it was stopped
    by the line's timeout."""

    text: str
    ok: bool
    timed_out: bool = False


def line_request(line: str, overrides: dict[str, Any]) -> Any:
    """The request of one input line (a JSON request, a plain Sudoku line, a game ID or an
    address: ``pysolver.pasted``) with the command line's overrides; raises ``SolveError`` for
    a line that is none of them."""
    request = pasted.read_request(line)
    if isinstance(request, dict):
        request.update(overrides)
    return request


def answer_line(
    line: str | None,
    overrides: dict[str, Any],
    output: str,
    cancel: protocol.CancelCheck | None = None,
) -> Answer:
    """The answer to one line (None: a line over the request limit), whatever goes wrong in
    reading it: an error of that line only."""
    request: Any = None
    try:
        if line is None:
            raise protocol.request_too_large(protocol.MAX_REQUEST_CHARS)
        request = line_request(line, overrides)
        response = solve(request, cancel=cancel)
    except protocol.SolveError as error:
        response = protocol.error_response(error)
    except Exception as exc:  # a reader's bug: this line's answer says so, the rest go on
        reason = f"{type(exc).__name__}: {exc}"
        if len(reason) > MAX_REASON_CHARS:
            reason = reason[: MAX_REASON_CHARS - 1] + "…"
        message = f"internal error ({reason}); please report it"
        response = protocol.error_response(protocol.SolveError(protocol.INTERNAL_ERROR, message))
    ok = bool(response.get("ok"))
    timed_out = bool(response.get("cancelled"))
    try:
        if output == "text":
            return Answer(pictures.response_text(request, response) + "\n", ok, timed_out)
    except Exception:  # a picture that cannot be drawn: the JSON answer instead
        pass
    return Answer(protocol.dumps(response), ok, timed_out)


def timed_out(seconds: float) -> Answer:
    """The answer of a line whose worker did not stop at the line's timeout (killed)."""
    message = f"stopped by the {seconds:g} s timeout of the line; its worker did not answer"
    error = {"code": protocol.CANCELLED, "message": message, "path": ""}
    text = protocol.dumps({"ok": False, "cancelled": True, "complete": False, "error": error})
    return Answer(text, False, True)


def lost(cause: str) -> Answer:
    """The answer of a line whose worker was lost ``MAX_ATTEMPTS`` times."""
    message = (
        f"the worker process answering this line died {processes.MAX_ATTEMPTS} times "
        f"(last {cause}); it was given up"
    )
    error = protocol.SolveError(protocol.INTERNAL_ERROR, message)
    return Answer(protocol.dumps(protocol.error_response(error)), False)


def line_handler(overrides: dict[str, Any], output: str, budget_bytes: int) -> JobHandler:
    """A worker's handler of lines, within the worker's share of the budget."""
    budget.BUDGET_BYTES = budget_bytes

    def answer(line: str | None, job: Job) -> Answer:
        return answer_line(line, overrides, output, job.cancel)

    return answer


def request_lines(file: IO[str], limit: int = protocol.MAX_REQUEST_CHARS) -> Iterator[str | None]:
    """The lines of ``file`` holding requests: stripped, without blank lines and ``#``
    comments; None for a line longer than ``limit`` characters (skipped to its end, never
    held whole)."""
    while True:
        line = file.readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not line.endswith("\n"):
            while (rest := file.readline(READ_CHUNK)) and not rest.endswith("\n"):
                pass
            yield None
            continue
        line = line.strip()
        if line and not line.startswith("#"):
            yield line


class LineReader(threading.Thread):
    """Reads the lines in the background, one at a time into ``lines`` (a daemon: a read
    still blocked when the run ends does not keep the process alive). None follows the last
    line; an error reading (after the file opened) ends the lines with ``error`` set."""

    def __init__(self, file: IO[str]) -> None:
        super().__init__(name="pysolver-batch-read", daemon=True)
        self.file = file
        self.lines: queue.Queue[tuple[str | None] | None] = queue.Queue(maxsize=1)
        self.error: OSError | None = None
        self.done = threading.Event()

    def run(self) -> None:
        try:
            for line in request_lines(self.file):
                self._put((line,))
        except OSError as error:
            self.error = error
        finally:
            self._put(None)

    def _put(self, item: tuple[str | None] | None) -> None:
        # Blocks while the run has enough lines; ends when the run no longer reads.
        while not self.done.is_set():
            try:
                self.lines.put(item, timeout=POLL_SECONDS)
                return
            except queue.Full:
                continue


def open_input(name: str) -> IO[str]:
    """The input as UTF-8 text (bytes that are not UTF-8 read as U+FFFD: that line's error)."""
    if name == "-":
        # A file of its own on a copy of the descriptor: the reading thread may still be
        # blocked in it when the run ends, and the interpreter's own sys.stdin, closed at
        # exit, must not be the object it holds.
        try:
            fd = os.dup(sys.stdin.fileno())
        except (AttributeError, ValueError, io.UnsupportedOperation):
            raise OSError(errno.EBADF, "standard input is closed") from None
        return open(fd, encoding="utf-8", errors="replace")
    return open(name, encoding="utf-8", errors="replace")


@dataclass
class _Run:
    """The state of one batch run: lines in flight, answers waiting for their turn, counts."""

    args: argparse.Namespace
    stop: StopCheck
    overrides: dict[str, Any]
    reader: LineReader
    started: float = field(default_factory=perf_counter)
    read: int = 0  # lines taken from the reader
    done: int = 0  # answers printed
    errors: int = 0
    timeouts: int = 0
    finished_reading: bool = False
    next_report: float = 0.0
    answers: dict[int, Answer] = field(default_factory=dict)

    def next_line(self, wait: float) -> tuple[int, str | None] | None:
        """The next line and its number, or None (none within ``wait``, or no more)."""
        if self.finished_reading:
            return None
        try:
            item = self.reader.lines.get(timeout=wait)
        except queue.Empty:
            return None
        if item is None:
            self.finished_reading = True
            return None
        self.read += 1
        return self.read - 1, item[0]

    def print_ready(self) -> None:
        """Print the answers whose turn has come, in input order."""
        while self.done in self.answers:
            answer = self.answers.pop(self.done)
            print(answer.text, flush=True)
            self.done += 1
            self.errors += not answer.ok and not answer.timed_out
            self.timeouts += answer.timed_out
            self.report()

    def report(self, last: bool = False) -> None:
        now = perf_counter()
        if self.args.quiet or not (last or now >= self.next_report):
            return
        self.next_report = now + PROGRESS_INTERVAL
        total = f"/{self.read}" if self.finished_reading else ""
        late = f", {self.timeouts} timed out" if self.timeouts else ""
        print(
            f"\r{self.done}{total} answered, {self.errors} errors{late}, "
            f"{now - self.started:.1f} s",
            end="\n" if last else "",
            file=sys.stderr,
            flush=True,
        )

    def line_stop(self) -> protocol.CancelCheck:
        """The cancel hook of a line answered here: the run's stop, or the line's timeout."""
        timeout = self.args.timeout
        deadline = None if timeout is None else perf_counter() + timeout
        return lambda: self.stop() or (deadline is not None and perf_counter() >= deadline)

    def serially(self) -> bool:
        """Answer the lines here, one after another; False when stopped first."""
        while not self.finished_reading:
            if self.stop():
                return False
            line = self.next_line(POLL_SECONDS)
            if line is None:
                continue
            number, text = line
            answer = answer_line(text, self.overrides, self.args.format, self.line_stop())
            if self.stop():  # the line was cut short by the run's stop, not its own timeout
                return False
            self.answers[number] = answer
            self.print_ready()
        return True

    def on_workers(self, pool: WorkerPool) -> bool:
        """Answer the lines on the pool's workers; False when stopped first."""
        window = WINDOW_PER_JOB * pool.size
        waiting: deque[tuple[int, str | None]] = deque()
        lines: dict[int, str | None] = {}  # the lines in flight
        attempts: dict[int, int] = {}
        told_to_stop: set[int] = set()  # lines past their timeout

        def take(wait: float) -> bool:
            line = self.next_line(wait) if self.read - self.done < window else None
            if line is not None:
                waiting.append(line)
                lines[line[0]] = line[1]
            return line is not None

        while True:
            if self.stop():
                return False
            while take(0):
                pass
            idle = pool.idle()
            while waiting and (idle or len(pool.workers) < pool.size):
                worker = idle.pop() if idle else _start(pool)
                number, text = waiting.popleft()
                pool.give(worker, number, text)
            if self.finished_reading and not lines:
                self.print_ready()
                return True
            if not pool.busy() and not waiting:
                take(POLL_SECONDS)  # nothing to do but wait for the next line
                continue
            for event in pool.wait(POLL_SECONDS):
                number = event.job
                if event.kind == "answer":
                    self.answers[number] = event.payload
                elif event.kind == "lost":
                    attempts[number] = attempts.get(number, 0) + 1
                    if number in told_to_stop:
                        self.answers[number] = timed_out(self.args.timeout)
                    elif attempts[number] < processes.MAX_ATTEMPTS:
                        waiting.appendleft((number, lines[number]))
                        continue
                    else:
                        self.answers[number] = lost(event.payload)
                else:
                    continue
                del lines[number]
                told_to_stop.discard(number)
            if self.args.timeout is not None:
                now = perf_counter()
                for worker in pool.busy():
                    # A line's time counts once its worker has started (fresh ones import).
                    late = worker.started and now - worker.given >= self.args.timeout
                    if worker.job is not None and late:
                        told_to_stop.add(worker.job)
                        pool.stop(worker)
            self.print_ready()


class CannotStartWorkers(Exception):
    """The system refused to start a worker process (OSError: /tmp or /dev/shm full...)."""


def _start(pool: WorkerPool) -> processes.PoolWorker:
    try:
        return pool.start()
    except OSError as error:
        raise CannotStartWorkers(error) from None


def run_batch(args: argparse.Namespace, stop: StopCheck) -> int:
    """Answer every line of ``args.file`` until ``stop``; the exit status (0, 1 when an answer
    is an error or was cut by its timeout, 2 when the file cannot be read or no worker process
    can start, 130 when stopped)."""
    try:
        file = open_input(args.file)
    except OSError as exc:
        print(f"{args.prog}: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    overrides = {
        name: getattr(args, name)
        for name in ("mode", "limit", "engine")
        if getattr(args, name) is not None
    }
    reader = LineReader(file)
    run = _Run(args, stop, overrides, reader)
    # At most the cores this process may use: more workers would only share them, and the
    # budget, in smaller pieces.
    jobs = min(args.jobs, processes.usable_cores())
    pool = None
    if jobs > 1:
        setup = (overrides, args.format, processes.worker_budget(jobs))
        pool = WorkerPool(jobs, line_handler, setup)
    reader.start()
    stopped = False
    try:
        stopped = not (run.serially() if pool is None else run.on_workers(pool))
    except KeyboardInterrupt:  # a second signal: stop at once
        stopped = True
    except CannotStartWorkers as error:
        cause = error.args[0]
        print(f"{args.prog}: {cannot_start(cause)}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader of the answers went away (e.g. `| head`): not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    finally:
        reader.done.set()
        if pool is not None and (stopped or pool.busy()):
            pool.kill()  # their answers are not wanted any more
        elif pool is not None:
            pool.dismiss()
    if stopped:
        run.report(last=True)
        print(f"stopped by {stop.reason()} after {run.done} answers", file=sys.stderr)
        return 130
    if reader.error is not None:
        print(f"{args.prog}: cannot read {args.file}: {reader.error}", file=sys.stderr)
        return 2
    run.report(last=True)
    return 1 if run.errors or run.timeouts else 0


def cannot_start(error: OSError) -> str:
    """One line saying why no worker process started, and what to do."""
    reason = error.strerror or str(error)
    if error.errno == errno.ENOSPC:
        return (
            f"cannot start worker processes ({reason}: /tmp or /dev/shm is full); free some "
            "space there, or run with --jobs 1"
        )
    return f"cannot start worker processes ({reason}); run with --jobs 1"
