"""Command line: ``pysolver solve FILE`` prints the response (JSON, or a picture with
``--format text``); ``pysolver batch FILE`` answers one request per line; ``pysolver generate
KIND`` makes puzzles. ``python -m pysolver`` runs the same."""

from __future__ import annotations

import argparse
import codecs
import errno
import io
import math
import os
import re
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from time import perf_counter
from typing import Any

from pysolver import __version__, pasted, pictures, protocol
from pysolver.api import answer_task, solve
from pysolver.kinds import kind_names
from pysolver.midend.assist import assisting_kinds
from pysolver.midend.explain import explaining_kinds
from pysolver.midend.generate import generating_kinds

# A stopped answer (Ctrl-C, a signal, --timeout) lists at most this many solutions: the user
# asked to stop, and writing every kept solution (up to the listing cap, tens of MB of JSON)
# would go on for seconds after that. The count stays exact; ``solutions_truncated`` says so.
STOPPED_LISTING = 1000
# Exit status of a parallel run whose answer misses the subtrees of failed tasks.
EXIT_TASKS_LOST = 3


def words(names: list[str]) -> str:
    """Names as a sentence lists them: ``a, b and c``."""
    return " and ".join(filter(None, (", ".join(names[:-1]), names[-1])))


# The help; ``Parser`` fills in the kinds, and those that generate and explain, from the registry.
DESCRIPTION = """\
Solve a puzzle given as a JSON request and print the JSON response (solve), answer a
file of them (batch), or make new puzzles (generate).

A request looks like {{"kind": "sudoku", "mode": "solve", "limit": 2, "puzzle": {{...}}}}.
Kinds: {kinds}. Modes: solve (first LIMIT solutions), count (count solutions,
LIMIT caps the count), random (LIMIT distinct solutions in an order fixed by SEED), trace (the
search's steps while finding LIMIT solutions, at most "max_steps" of them), generate (a new
puzzle with one solution, for {generating}: see docs/generating.md),
estimate (how big a count would be, and how long it would take, before running it: Knuth's
random paths, PROBES of them, fixed by SEED),
explain (the path of named techniques to the solution, graded) and hint (the next step from
the player's "entries"), for {explaining}: see docs/explaining.md; assist (for a setter: the
givens to add, the givens that can go, or the givens that clash), for {assisting}.
Exit status: 0 when the response is ok, 1 when the request was invalid (the error JSON is
still printed), 2 for bad command-line usage, 130 when the search was stopped by Ctrl-C,
SIGTERM, SIGHUP or --timeout (the partial answer, with "cancelled": true, is still printed; it
lists at most {stopped_listing:,} solutions, its count stays exact), 3 when a parallel run lost
tasks (a task given up after its worker died repeatedly, or the Dask cluster lost: the partial
answer names them in "parallel.failed", and standard error says so). --timeout also covers
reading the request, which is refused past {max_request_chars:,} characters.
"""

EXAMPLES = """\
examples:
  {prog} solve puzzle.json
  echo '{{"kind": "domino", "mode": "count", "puzzle": {{"rows": 8, "cols": 8}}}}' \\
      | {prog} solve -
  {prog} solve --mode count --limit 1000 puzzle.json
  {prog} solve --mode count --jobs 4 puzzle.json
  {prog} solve --mode count --scheduler tcp://10.0.0.5:8786 puzzle.json
  {prog} solve --format text sudoku.json
  {prog} solve --mode estimate --probes 4000 --format text puzzle.json
  {prog} batch --jobs 2 tests/data/top95.txt
  {prog} generate sudoku --difficulty hard --seed 7
  {prog} generate shikaku --size 12x15 --count 3 --format json

Install: pip install . (from a copy of the repository) or pip install pysolver-studio;
pip install "pysolver-studio[dask]" adds Dask for --scheduler.
"""


def positive_seconds(text: str) -> float:
    """A --timeout value: a finite number of seconds above zero (nan and -5 are usage errors)."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{protocol.shown(text)} is not a number of seconds"
        ) from None
    if not math.isfinite(seconds) or seconds <= 0:
        raise argparse.ArgumentTypeError(
            f"{protocol.shown(text)} must be a finite number of seconds above 0"
        )
    return seconds


def program_name() -> str:
    """The command's name in usage lines and messages: ``pysolver`` when run as the installed
    command (``bin/pysolver``, ``pysolver.exe``), else ``python -m pysolver``."""
    started = sys.argv[0] if sys.argv and sys.argv[0] else ""
    return "pysolver" if Path(started).stem == "pysolver" else "python -m pysolver"


class Parser(argparse.ArgumentParser):
    """The command line's parser, whose help names the kinds: only ``--help`` imports them all
    (to read their order and modes), not every run before its request is read."""

    def format_help(self) -> str:
        self.description = DESCRIPTION.format(
            kinds=", ".join(kind_names()),
            generating=words(generating_kinds()),
            explaining=words(explaining_kinds()),
            assisting=words(assisting_kinds()),
            stopped_listing=STOPPED_LISTING,
            max_request_chars=protocol.MAX_REQUEST_CHARS,
        )
        return super().format_help()


def build_parser() -> argparse.ArgumentParser:
    prog = program_name()
    parser = Parser(
        prog=prog,
        epilog=EXAMPLES.format(prog=prog),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"pysolver {__version__}")
    parser.set_defaults(prog=prog)
    commands = parser.add_subparsers(
        dest="command",
        metavar="COMMAND",
        parser_class=argparse.ArgumentParser,
        title="commands",
        description=f"each command has its own help: {prog} COMMAND --help",
    )
    run = commands.add_parser(
        "solve",
        help="solve a JSON request read from FILE ('-' for stdin)",
        description="Solve the JSON request in FILE ('-' reads stdin) and print the response. "
        "FILE may hold a puzzle as other programs write it instead: an 81-character Sudoku "
        "line, a Tatham Solo or Rectangles game ID, a sudokuwiki address or a puzz.link URL.",
    )
    run.add_argument("file", metavar="FILE", help="request JSON file, or - for standard input")
    run.add_argument("--mode", choices=protocol.MODES, help="override the request's mode")
    run.add_argument("--limit", type=int, help="override the request's limit")
    run.add_argument("--seed", type=int, help="override the request's seed")
    run.add_argument("--engine", help="override the request's engine")
    run.add_argument(
        "--probes", type=positive_int, metavar="N", help="estimate mode: take N random paths"
    )
    run.add_argument("--indent", type=int, default=None, help="pretty-print with this indent")
    add_format(run)
    run.add_argument(
        "--progress", action="store_true", help="print progress reports to standard error"
    )
    run.add_argument(
        "--timeout",
        type=positive_seconds,
        metavar="SECONDS",
        help="stop the search after this many seconds and print what was found so far",
    )
    run.add_argument(
        "--jobs",
        type=positive_int,
        metavar="N",
        help="split the search into tasks run by up to N worker processes, at most this "
        "machine's cores (sets the request's jobs)",
    )
    run.add_argument(
        "--scheduler",
        metavar="tcp://HOST:PORT",
        help="run the tasks on the Dask cluster of this scheduler (needs "
        'pip install "pysolver-studio[dask]"); '
        "as many jobs as the cluster has worker threads unless --jobs says otherwise",
    )
    batch = commands.add_parser(
        "batch",
        help="answer the requests of FILE, one a line ('-' for stdin)",
        description="Answer every line of FILE ('-' reads stdin): a JSON request, or a puzzle "
        "line (81 characters of a Sudoku, '.' or '0' blank, as in top95.txt). One answer a "
        "line, in input order (--format text: a picture per answer); a bad line gets its own "
        "error answer and the rest are answered; progress on stderr. Blank lines and lines "
        "starting with '#' are skipped. Ctrl-C, SIGTERM, SIGHUP and --total-timeout stop the "
        "run: the answers printed so far stay, a summary goes to stderr. Exit status 1 when "
        "any answer is an error or was cut by --timeout, 2 when FILE cannot be read or no "
        "worker process can start, 130 when stopped.",
    )
    batch.add_argument("file", metavar="FILE", help="the requests, or - for standard input")
    batch.add_argument("--mode", choices=protocol.MODES, help="override each request's mode")
    batch.add_argument("--limit", type=int, help="override each request's limit")
    batch.add_argument("--engine", help="override each request's engine")
    batch.add_argument(
        "--jobs",
        type=positive_int,
        default=1,
        metavar="N",
        help="answer N requests at a time, in N worker processes (at most this machine's "
        "cores, each with its share of the memory budget)",
    )
    batch.add_argument(
        "--timeout",
        type=positive_seconds,
        metavar="SECONDS",
        help="stop each line's search after this many seconds: its answer is what was found "
        'so far, with "cancelled": true',
    )
    batch.add_argument(
        "--total-timeout",
        type=positive_seconds,
        metavar="SECONDS",
        help="stop the whole run after this many seconds, as Ctrl-C does (the lines not yet "
        "answered are left out)",
    )
    batch.add_argument("--quiet", action="store_true", help="no progress on standard error")
    add_format(batch)
    make = commands.add_parser(
        "generate",
        help="make new puzzles with one solution each (sudoku, shikaku, polyomino, star_battle)",
        description="Make COUNT new puzzles of KIND, each with exactly one solution, and print "
        "them: with --format text (the default) each puzzle with its blanks, the level it has "
        "(and the level asked, when none of that level was found, with a note) and its seed; "
        "with --format json each answer of generate mode, one a line (the puzzle, its "
        "solution and grade). The same KIND, size, --difficulty and --seed make the same "
        "puzzle on every machine. Exit status 0, 1 for a request the generator refuses (an "
        "unknown size or level: the error says which it takes), 2 for bad usage, 130 when "
        "stopped (Ctrl-C, --timeout): the puzzles made so far stay printed.",
    )
    make.add_argument("kind", metavar="KIND", help="the kind: sudoku, shikaku, polyomino...")
    make.add_argument(
        "--difficulty",
        metavar="LEVEL",
        help="easy (default), medium, hard or expert (star_battle: up to hard)",
    )
    make.add_argument(
        "--seed",
        type=int,
        help="the first puzzle's seed (the next ones take the following seeds); default: "
        "picked at random and printed",
    )
    make.add_argument(
        "--count", type=positive_int, default=1, metavar="N", help="make N puzzles (default 1)"
    )
    make.add_argument(
        "--size",
        metavar="N|ROWSxCOLS",
        help="the board: a Sudoku's or Star Battle's side (9; Sudoku 4, 6, 9, 12 or 16), a "
        "Shikaku's or polyomino's rows x cols (10x10, 5x6; N alone is N x N). Default: 9 "
        "for Sudoku, 10x10 Shikaku, 5x4 polyomino, 10 Star Battle",
    )
    make.add_argument("--variant", metavar="NAME", help="Sudoku: standard (default), jigsaw or x")
    make.add_argument(
        "--stars",
        type=positive_int,
        metavar="N",
        help="Star Battle: stars per row, column and region (default 2)",
    )
    make.add_argument(
        "--symmetry",
        metavar="NAME",
        help="Sudoku: the givens' symmetry (default a half turn; none for no symmetry)",
    )
    make.add_argument("--indent", type=int, default=None, help="--format json: pretty-print")
    make.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text (default): each puzzle as a picture with its level and seed; json: each "
        "answer of generate mode, one a line",
    )
    make.add_argument(
        "--timeout",
        type=positive_seconds,
        metavar="SECONDS",
        help="stop after this many seconds (the puzzles made by then stay printed)",
    )
    return parser


def add_format(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--format",
        choices=("json", "text"),
        default="json",
        help="json (default): the response JSON; text: the solutions as pictures",
    )


# A Dask scheduler address: an optional scheme Dask speaks over a network, a host name or
# address (IPv6 in brackets) and a port.
SCHEDULER_ADDRESS = re.compile(
    r"(?:(?:tcp|tls|ws|wss|ucx)://)?(?:\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]]+):(?P<port>[0-9]{1,5})"
)


def check_scheduler_address(text: str) -> None:
    """A --scheduler value: tcp://HOST:PORT (or tls://, ws://, wss://, ucx://; no scheme is
    tcp). Checked after parsing, so a bad one is one line on stderr (argparse adds its usage)."""
    match = SCHEDULER_ADDRESS.fullmatch(text)
    if match is None or not 0 < int(match["port"]) < 65536:
        raise _UsageError(
            f"--scheduler {protocol.shown(text)} is not a scheduler address; write "
            "tcp://HOST:PORT (or tls://HOST:PORT for a cluster with TLS)"
        )


def positive_int(text: str) -> int:
    """A --jobs value: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{protocol.shown(text)} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{protocol.shown(text)} must be at least 1")
    return value


# What stops a run as Ctrl-C does: the terminal's SIGINT, and SIGTERM and SIGHUP (what
# `timeout`, job schedulers, systemd, Docker and a closed terminal send).
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


class StopRequest:
    """The CLI's cancel hook: set by a stop signal or the deadline.

    A second signal of the same kind raises KeyboardInterrupt at once (a second Ctrl-C quits),
    which still runs the ``finally`` blocks that end the worker pool.
    """

    def __init__(self, timeout: float | None) -> None:
        self.timeout = timeout
        self.deadline = None if timeout is None else perf_counter() + timeout
        self.signal_name: str | None = None

    def on_signal(self, signum: int, frame: object) -> None:
        self.signal_name = signal.Signals(signum).name
        signal.signal(signum, signal.default_int_handler)

    @property
    def interrupted(self) -> bool:
        return self.signal_name is not None

    def __call__(self) -> bool:
        return self.interrupted or (self.deadline is not None and perf_counter() >= self.deadline)

    def reason(self) -> str:
        """Why the run stopped, for a message: the signal, or the timeout."""
        if self.signal_name is not None:
            return "Ctrl-C" if self.signal_name == "SIGINT" else self.signal_name
        return f"the {self.timeout:g} s timeout"


@contextmanager
def stopping_on_signals(stop: StopRequest) -> Iterator[None]:
    """Turn the stop signals into ``stop`` while the block runs (main thread only: Python
    delivers signals there, and ``main`` may be called from a test's thread)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {signum: signal.signal(signum, stop.on_signal) for signum in STOP_SIGNALS}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


# Bytes read at a time: few system calls, and an over-long request is refused holding at most
# the limit plus one chunk.
READ_CHUNK = 1 << 20


def read_request_text(fd: int, limit: int = protocol.MAX_REQUEST_CHARS) -> str:
    """The UTF-8 text of ``fd`` up to its end, refused (``too_large``) as soon as it passes
    ``limit`` characters, so an over-long request never sits in memory whole."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    parts: list[str] = []
    chars = 0
    while True:
        chunk = os.read(fd, READ_CHUNK)
        try:
            text = decoder.decode(chunk, final=not chunk)
        except UnicodeDecodeError as exc:
            raise protocol.SolveError(
                protocol.INVALID_JSON, f"request is not UTF-8 text: {exc.reason}"
            ) from None
        chars += len(text)
        if chars > limit:
            raise protocol.request_too_large(limit)
        parts.append(text)
        if not chunk:
            return "".join(parts)


class RequestReader(threading.Thread):
    """Reads the request in the background, so a deadline or a signal can end the wait (a
    pipe held open blocks a read for as long as the writer likes). A daemon: a read still
    blocked when the CLI answers does not keep the process alive. ``os.read`` holds no Python
    lock, so the blocked thread cannot stall the interpreter's exit."""

    def __init__(self, file: str) -> None:
        super().__init__(name="pysolver-read-request", daemon=True)
        self.file = file
        self.text: str | None = None
        self.error: protocol.SolveError | OSError | None = None

    def run(self) -> None:
        try:
            if self.file == "-":
                self.text = read_request_text(_stdin_fd())
                return
            fd = os.open(self.file, os.O_RDONLY)
            try:
                self.text = read_request_text(fd)
            finally:
                os.close(fd)
        except (protocol.SolveError, OSError) as error:
            self.error = error
        except MemoryError:
            self.error = protocol.SolveError(
                protocol.TOO_LARGE, "there is not enough memory to read the request"
            )

    def wait(self, stop: StopRequest) -> str | None:
        """The request text, or None when ``stop`` says stop first; raises what reading
        raised (SolveError: refused; OSError: unreadable)."""
        self.start()
        while self.is_alive():
            if stop():
                return None
            self.join(0.05)
        if self.error is not None:
            raise self.error
        if self.text is None:  # the thread ended some other way; its excepthook said how
            raise OSError(errno.EIO, "reading failed")
        return self.text


def _stdin_fd() -> int:
    """The file descriptor of standard input (OSError when there is none: `<&-`)."""
    try:
        return sys.stdin.fileno()
    except (AttributeError, ValueError, io.UnsupportedOperation):
        raise OSError(errno.EBADF, "standard input is closed") from None


def stopped_while_reading(stop: StopRequest) -> dict[str, Any]:
    """The answer when the stop came before the request was read: nothing was solved."""
    message = f"stopped by {stop.reason()} while reading the request; nothing was solved"
    return {
        "ok": False,
        "cancelled": True,
        "complete": False,
        "error": {"code": protocol.CANCELLED, "message": message, "path": ""},
    }


def trim_stopped_answer(response: dict[str, Any]) -> None:
    """A stopped answer lists at most ``STOPPED_LISTING`` solutions (see its comment)."""
    solutions = response.get("solutions")
    if not response.get("cancelled") or not isinstance(solutions, list):
        return
    if len(solutions) <= STOPPED_LISTING:
        return
    for name in ("solutions", *protocol.SOLUTION_FIELDS):
        if isinstance(response.get(name), list):
            response[name] = response[name][:STOPPED_LISTING]
    response["solutions_truncated"] = True


def _print_progress(report: dict[str, Any]) -> None:
    print(
        f"\r{report['fraction'] * 100:6.2f}%  nodes {report['nodes']:,}  "
        f"solutions {report['solutions']:,}  {report['seconds']:.1f} s",
        end="\n" if report.get("done") else "",
        file=sys.stderr,
        flush=True,
    )


def _solve_on_dask(
    address: str,
    request: dict[str, Any] | str | bytes,
    progress: protocol.ProgressCallback | None,
    stop: StopRequest,
) -> dict[str, Any]:
    from pysolver.parallel.dask_cluster import DaskRunner  # Dask loads only when named

    try:
        runner = DaskRunner(address, answer_task)
    except (RuntimeError, ValueError) as error:  # no Dask, no scheduler at that address
        raise _UsageError(str(error)) from None
    try:
        return solve(request, progress=progress, cancel=stop, runner=runner)
    finally:
        runner.close()


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "batch":
        from pysolver.batch import run_batch  # the batch machinery loads only when asked

        stop = StopRequest(args.total_timeout)
        with stopping_on_signals(stop):
            return run_batch(args, stop)
    if args.command == "generate":
        return generate_puzzles(args)
    if args.command != "solve":
        parser.print_help()
        return 2
    # The deadline counts from here: reading and parsing a big request is part of the wait.
    stop = StopRequest(args.timeout)
    with stopping_on_signals(stop):
        try:
            if args.scheduler is not None:
                check_scheduler_address(args.scheduler)
            request, response = _answer(args, stop)
        except OSError as exc:
            print(f"{args.prog}: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
            return 2
        except _UsageError as error:
            print(f"{args.prog}: {error}", file=sys.stderr)
            return 2
        trim_stopped_answer(response)
        try:
            if args.format == "text":
                print(pictures.response_text(request, response), flush=True)
            else:
                print(protocol.dumps(response, indent=args.indent), flush=True)
        except BrokenPipeError:
            # The reader went away (e.g. `| head`): not an error of ours. Point stdout at
            # devnull so the interpreter's final flush does not complain either.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if response.get("cancelled"):
        return 130
    failed = (response.get("parallel") or {}).get("failed")
    if failed:
        # Never a silent 0 for an answer that lacks the subtrees of lost tasks.
        lost = f"{len(failed):,} parallel task(s) failed"
        if not response.get("ok"):  # the cluster was lost: the error says so in a sentence
            lost = response.get("error", {}).get("message", lost)
        print(
            f"{args.prog}: {lost}; the answer is partial (complete: false, the tasks "
            "in parallel.failed are missing)",
            file=sys.stderr,
        )
        return EXIT_TASKS_LOST
    return 0 if response.get("ok") else 1


class _UsageError(Exception):
    """The command line names something unusable (no Dask, an unreachable scheduler)."""


# ---------------------------------------------------------------- the generate command

# A --size value: a side ("9") or rows x cols ("10x12"; "X" and "×" read as "x").
SIZE = re.compile(r"\s*([0-9]{1,4})\s*(?:[xX×]\s*([0-9]{1,4})\s*)?")


def generate_request(args: argparse.Namespace) -> dict[str, Any]:
    """The generate request of ``pysolver generate``'s arguments (without its seed): the
    kind's ``GENERATE_DEFAULT`` puzzle with --size, --variant and --stars put in its fields
    (``GENERATE_FIELDS``); ``_UsageError`` for a kind that does not generate or an option
    its puzzles do not take."""
    from pysolver.kinds import kind_module

    kinds = generating_kinds()
    args.kind = args.kind.strip().lower().replace("-", "_")  # "Sudoku", "star-battle"
    if args.kind not in kinds:
        known = args.kind in kind_names()
        raise _UsageError(
            f"{protocol.shown(args.kind)} {'has no generate mode' if known else 'is no kind'}; "
            f"generate makes {words(kinds)} puzzles"
        )
    module: Any = kind_module(args.kind)
    fields: tuple[str, ...] = module.GENERATE_FIELDS
    # A kind that names no default size makes its small example's.
    puzzle: dict[str, Any] = dict(
        getattr(module, "GENERATE_DEFAULT", None) or module.GENERATE_EXAMPLE
    )
    if args.size is not None:
        match = SIZE.fullmatch(args.size)
        if match is None:
            raise _UsageError(
                f"--size {protocol.shown(args.size)} is not a size; write a side (9) or rows x "
                "cols (10x12)"
            )
        rows = int(match[1])
        cols = rows if match[2] is None else int(match[2])
        if "size" in fields:
            if rows != cols:
                raise _UsageError(
                    f"a {args.kind} board is square: --size is its side (--size {rows})"
                )
            puzzle["size"] = rows
        else:
            puzzle.update(rows=rows, cols=cols)
    for name in ("variant", "stars"):
        value = getattr(args, name)
        if value is None:
            continue
        if name not in fields:
            raise _UsageError(f"--{name} is not for {args.kind} puzzles")
        puzzle[name] = value
    request: dict[str, Any] = {"kind": args.kind, "mode": "generate", "puzzle": puzzle}
    for name in ("difficulty", "symmetry"):
        value = getattr(args, name)
        if value is None:
            continue
        if name not in module.GENERATE_OPTIONS:
            raise _UsageError(f"--{name} is not for {args.kind} puzzles")
        request[name] = value
    return request


def generate_puzzles(args: argparse.Namespace) -> int:
    """``pysolver generate``: make ``--count`` puzzles (seeds ``--seed``, ``--seed`` + 1...,
    or picked), print each as it is made; stop at the first refused request."""
    try:
        request = generate_request(args)
    except _UsageError as error:
        print(f"{args.prog} generate: {error}", file=sys.stderr)
        return 2
    stop = StopRequest(args.timeout)
    with stopping_on_signals(stop):
        for number in range(args.count):
            if args.seed is not None:
                request["seed"] = args.seed + number
            response = solve(dict(request), cancel=stop)
            try:
                if args.format == "json":
                    print(protocol.dumps(response, indent=args.indent), flush=True)
                elif response.get("ok") and not response.get("cancelled"):
                    text = pictures.response_text(request, response)
                    print(text if number == 0 else "\n" + text, flush=True)
            except BrokenPipeError:
                # The reader went away (`| head`): nothing more to make for it. Point stdout
                # at devnull so the interpreter's final flush does not complain either.
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                return 0
            if args.format == "text" and not response.get("ok") and not response.get("cancelled"):
                # A refused request (an unknown size or level): one line, as usage errors are.
                print(f"{args.prog} generate: {response['error']['message']}", file=sys.stderr)
            if response.get("cancelled"):
                print(
                    f"{args.prog} generate: stopped by {stop.reason()} after {number} "
                    f"puzzle{'' if number == 1 else 's'}",
                    file=sys.stderr,
                )
                return 130
            if not response.get("ok"):
                return 1
    return 0


def _answer(args: argparse.Namespace, stop: StopRequest) -> tuple[Any, dict[str, Any]]:
    """The request in ``args.file`` (None when unreadable) and its response, stopping when
    ``stop`` says."""
    try:
        text = RequestReader(args.file).wait(stop)
        if text is None:
            return None, stopped_while_reading(stop)
        # JSON, or a puzzle as other programs write it (a Solo ID, a sudokuwiki address...).
        request = pasted.read_request(text)
    except protocol.SolveError as error:
        return None, protocol.error_response(error)
    del text  # the parsed request is what the solve needs; the text may be 20 MB
    if isinstance(request, dict):
        request.update(
            {
                name: getattr(args, name)
                for name in ("mode", "limit", "seed", "engine", "jobs", "probes")
                if getattr(args, name) is not None
            }
        )
    progress = _print_progress if args.progress else None
    if args.scheduler is None:
        return request, solve(request, progress=progress, cancel=stop)
    return request, _solve_on_dask(args.scheduler, request, progress, stop)


if __name__ == "__main__":
    sys.exit(main())
