"""``python -m pysolver batch FILE``: one request per line in, one answer per line out.

A line is a JSON request, or a plain puzzle line: n*n characters of a Sudoku (``.`` or ``0``
blank; top95.txt, the lines of ``.sdk`` collections), read as ``{"kind": "sudoku", "puzzle":
{"grid": line}}``, a Tatham Solo or Rectangles game ID, a sudokuwiki address or a puzz.link URL
(``pysolver.pasted``). Blank lines and ``#`` comments are skipped. Answers come in input order,
each on one line (JSON) or as a picture followed by a blank line (``--format text``). With
``--jobs N``, N worker processes answer the lines, N at a time; the output order stays the
input order. Progress (lines answered, errors, seconds) goes to standard error.
"""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from time import perf_counter
from typing import Any

from pysolver import pasted, pictures, protocol
from pysolver.api import solve

# How often the progress line on standard error is rewritten, at most.
PROGRESS_INTERVAL = 0.2


def line_request(line: str, overrides: dict[str, Any]) -> Any:
    """The request of one input line (a JSON request, a plain Sudoku line, a game ID or an
    address: ``pysolver.pasted``) with the command line's overrides; raises ``SolveError`` for
    a line that is none of them."""
    request = pasted.read_request(line)
    if isinstance(request, dict):
        request.update(overrides)
    return request


def answer_line(work: tuple[str, dict[str, Any], str]) -> tuple[str, bool]:
    """The answer to one line as the text to print, and whether it is ok (module-level, so
    worker processes receive it by reference)."""
    line, overrides, output = work
    request: Any = None
    try:
        request = line_request(line, overrides)
        response = solve(request)
    except protocol.SolveError as error:
        response = protocol.error_response(error)
    if output == "text":
        return pictures.response_text(request, response) + "\n", bool(response.get("ok"))
    return protocol.dumps(response), bool(response.get("ok"))


def _ignore_interrupts() -> None:
    """A worker leaves Ctrl-C to the parent, which stops the pool (no traceback per worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def request_lines(lines: Iterable[str]) -> Iterator[str]:
    """The lines holding requests: stripped, without blank lines and ``#`` comments."""
    for raw in lines:
        line = raw.strip()
        if line and not line.startswith("#"):
            yield line


def run_batch(args: argparse.Namespace) -> int:
    """Answer every line of ``args.file``; the exit status (0, 1 when an answer is an error,
    2 when the file cannot be read, 130 when stopped)."""
    try:
        if args.file == "-":
            lines = list(request_lines(sys.stdin))
        else:
            with open(args.file, encoding="utf-8") as file:
                lines = list(request_lines(file))
    except OSError as exc:
        print(f"python -m pysolver: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    overrides = {
        name: getattr(args, name)
        for name in ("mode", "limit", "engine")
        if getattr(args, name) is not None
    }
    work = [(line, overrides, args.format) for line in lines]
    started = perf_counter()
    errors = 0
    done = 0
    next_report = started
    executor = (
        ProcessPoolExecutor(args.jobs, initializer=_ignore_interrupts) if args.jobs > 1 else None
    )
    try:
        answers: Iterable[tuple[str, bool]] = (
            executor.map(answer_line, work) if executor else map(answer_line, work)
        )
        for text, ok in answers:
            print(text, flush=True)
            done += 1
            errors += not ok
            now = perf_counter()
            if not args.quiet and (now >= next_report or done == len(work)):
                next_report = now + PROGRESS_INTERVAL
                print(
                    f"\r{done}/{len(work)} answered, {errors} errors, {now - started:.1f} s",
                    end="\n" if done == len(work) else "",
                    file=sys.stderr,
                    flush=True,
                )
    except KeyboardInterrupt:
        print(f"\nstopped after {done} of {len(work)} answers", file=sys.stderr)
        return 130
    finally:
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)
    return 1 if errors else 0
