"""Command line: ``python -m pysolver solve FILE`` prints the response JSON."""

from __future__ import annotations

import argparse
import sys

from pysolver import __version__, protocol
from pysolver.api import solve
from pysolver.kinds import KINDS

DESCRIPTION = f"""\
Solve a puzzle given as a JSON request and print the JSON response.

A request looks like {{"kind": "sudoku", "mode": "solve", "limit": 2, "puzzle": {{...}}}}.
Kinds: {", ".join(KINDS)}. Modes: solve (first LIMIT solutions), count (count solutions,
LIMIT caps the count), random (LIMIT distinct solutions in an order fixed by SEED).
Exit status: 0 when the response is ok, 1 when the request was invalid (the error JSON is
still printed), 2 for bad command-line usage.
"""

EXAMPLES = """\
examples:
  python -m pysolver solve puzzle.json
  echo '{"kind": "domino", "mode": "count", "puzzle": {"rows": 8, "cols": 8}}' \\
      | python -m pysolver solve -
  python -m pysolver solve --mode count --limit 1000 puzzle.json
"""


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
    return parser


def _print_progress(report: dict) -> None:
    print(
        f"\r{report['fraction'] * 100:6.2f}%  nodes {report['nodes']:,}  "
        f"solutions {report['solutions']:,}  {report['seconds']:.1f} s",
        end="\n" if report.get("done") else "",
        file=sys.stderr,
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command != "solve":
        parser.print_help()
        return 2
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
        for name in ("mode", "limit", "seed", "engine")
        if getattr(args, name) is not None
    }
    request: object = text
    if overrides:
        try:
            request = protocol.loads(text)
        except protocol.SolveError as error:
            request = None
            response = protocol.error_response(error)
        if isinstance(request, dict):
            request.update(overrides)
    response = (
        solve(request, progress=_print_progress if args.progress else None)
        if request is not None
        else response
    )
    print(protocol.dumps(response, indent=args.indent))
    return 0 if response.get("ok") else 1


if __name__ == "__main__":
    sys.exit(main())
