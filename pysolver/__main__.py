"""Command line: ``python -m pysolver solve FILE`` prints the response JSON."""

from __future__ import annotations

import argparse
import math
import os
import signal
import sys
from time import perf_counter
from typing import Any

from pysolver import __version__, protocol
from pysolver.api import answer_task, solve
from pysolver.kinds import KINDS

DESCRIPTION = f"""\
Solve a puzzle given as a JSON request and print the JSON response.

A request looks like {{"kind": "sudoku", "mode": "solve", "limit": 2, "puzzle": {{...}}}}.
Kinds: {", ".join(KINDS)}. Modes: solve (first LIMIT solutions), count (count solutions,
LIMIT caps the count), random (LIMIT distinct solutions in an order fixed by SEED), trace (the
search's steps while finding LIMIT solutions, at most "max_steps" of them).
Exit status: 0 when the response is ok, 1 when the request was invalid (the error JSON is
still printed), 2 for bad command-line usage, 130 when the search was stopped by Ctrl-C or
--timeout (the partial answer, with "cancelled": true, is still printed).
"""

EXAMPLES = """\
examples:
  python -m pysolver solve puzzle.json
  echo '{"kind": "domino", "mode": "count", "puzzle": {"rows": 8, "cols": 8}}' \\
      | python -m pysolver solve -
  python -m pysolver solve --mode count --limit 1000 puzzle.json
  python -m pysolver solve --mode count --jobs 4 puzzle.json
  python -m pysolver solve --mode count --scheduler tcp://10.0.0.5:8786 puzzle.json
"""


def positive_seconds(text: str) -> float:
    """A --timeout value: a finite number of seconds above zero (nan and -5 are usage errors)."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(seconds) or seconds <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be a finite number of seconds above 0")
    return seconds


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m pysolver",
        description=DESCRIPTION,
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"pysolver {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    run = commands.add_parser(
        "solve",
        help="solve a JSON request read from FILE ('-' for stdin)",
        description="Solve the JSON request in FILE ('-' reads stdin) and print the response.",
    )
    run.add_argument("file", metavar="FILE", help="request JSON file, or - for standard input")
    run.add_argument("--mode", choices=protocol.MODES, help="override the request's mode")
    run.add_argument("--limit", type=int, help="override the request's limit")
    run.add_argument("--seed", type=int, help="override the request's seed")
    run.add_argument("--engine", help="override the request's engine")
    run.add_argument("--indent", type=int, default=None, help="pretty-print with this indent")
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
        help="split the search into tasks run by N worker processes (sets the request's jobs)",
    )
    run.add_argument(
        "--scheduler",
        metavar="tcp://HOST:PORT",
        help="run the tasks on the Dask cluster of this scheduler (needs pysolver[dask]); "
        "as many jobs as the cluster has worker threads unless --jobs says otherwise",
    )
    return parser


def positive_int(text: str) -> int:
    """A --jobs value: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


class StopRequest:
    """The CLI's cancel hook: set by Ctrl-C (once; a second Ctrl-C quits at once) or a deadline."""

    def __init__(self, timeout: float | None) -> None:
        self.deadline = None if timeout is None else perf_counter() + timeout
        self.interrupted = False

    def on_interrupt(self, signum: int, frame: object) -> None:
        self.interrupted = True
        signal.signal(signal.SIGINT, signal.default_int_handler)

    def __call__(self) -> bool:
        return self.interrupted or (self.deadline is not None and perf_counter() >= self.deadline)


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

    runner = DaskRunner(address, answer_task)
    try:
        return solve(request, progress=progress, cancel=stop, runner=runner)
    finally:
        runner.close()


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command != "solve":
        parser.print_help()
        return 2
    # The deadline counts from here: reading and parsing a big request is part of the wait.
    stop = StopRequest(args.timeout)
    try:
        if args.file == "-":
            text = sys.stdin.buffer.read()
        else:
            with open(args.file, "rb") as handle:
                text = handle.read()
    except OSError as exc:
        print(f"python -m pysolver: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    overrides = {
        name: getattr(args, name)
        for name in ("mode", "limit", "seed", "engine", "jobs")
        if getattr(args, name) is not None
    }
    try:
        request = protocol.loads(text)
    except protocol.SolveError as error:
        response = protocol.error_response(error)
    else:
        if isinstance(request, dict):
            request.update(overrides)
        progress = _print_progress if args.progress else None
        previous = signal.signal(signal.SIGINT, stop.on_interrupt)
        try:
            if args.scheduler is None:
                response = solve(request, progress=progress, cancel=stop)
            else:
                response = _solve_on_dask(args.scheduler, request, progress, stop)
        except RuntimeError as error:  # no Dask, or no scheduler at that address
            print(f"python -m pysolver: {error}", file=sys.stderr)
            return 2
        finally:
            signal.signal(signal.SIGINT, previous)
    try:
        print(protocol.dumps(response, indent=args.indent), flush=True)
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): not an error of ours. Point stdout at devnull
        # so the interpreter's final flush does not complain either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if response.get("cancelled"):
        return 130
    return 0 if response.get("ok") else 1


if __name__ == "__main__":
    sys.exit(main())
