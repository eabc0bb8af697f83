#!/usr/bin/env python3
"""Build, serve and test the pysolver web app. Standard library only.

    python3 build.py                  build the static site into dist/
    python3 build.py serve [--port N] [--host H]
                                      build if needed, then serve dist/ on 127.0.0.1 (default
                                      8000; --host 0.0.0.0 to try the page on a phone)
    python3 build.py test [ARGS]      set up .venv, Chromium and eslint (npm ci), run ruff,
                                      mypy, eslint and every test (what CI runs, .ci/run);
                                      ARGS go to pytest (e.g. -k sudoku)
    python3 build.py test --quick [ARGS]
                                      the loop while working: ruff, mypy, eslint if it is
                                      installed already, and every test but the browser
                                      (e2e) and slow ones, with fewer fuzz examples; installs
                                      only .venv (no Chromium, no npm); about two minutes on
                                      two cores
    python3 build.py bench [ARGS]     run the benchmarks, one table (bench/harness.py; e.g.
                                      --quick, --json FILE, --baseline bench/baseline.json),
                                      then the peers' ratios (bench/peers.py; --no-peers skips)

The site is everything the page needs, served from one origin and nothing fetched elsewhere:
the front end (web/), the Pyodide runtime (npm package ``pyodide``, pinned and checked against
its registry integrity hash) and a pysolver wheel written here from the current sources.
Downloads happen once, into .cache/; later builds are offline and take well under a second when
nothing changed.

This file is only the command line; the work is done by the package ``buildtools`` (one module
per job: downloads, wheel, site, markdown, server, toolchain, runners), which tests, benchmarks
and docs import like any other package.

Tests run on every core (pytest-xdist, ``-n`` one worker per core, ``--dist worksteal``); ARGS
with their own ``-n`` (``-n 0``: one process, as ``--pdb`` needs) or ``--dist`` win.
"""

from __future__ import annotations

import argparse
import sys

from buildtools.repo import BuildError, log
from buildtools.runners import run_bench, run_tests
from buildtools.server import serve
from buildtools.site import build_site


def parser() -> argparse.ArgumentParser:
    """The command line: build (the default), serve, test and bench."""
    parser = argparse.ArgumentParser(
        prog="python3 build.py",
        description="Build the pysolver site into dist/, serve it, or run every test.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.add_parser("build", help="build dist/ (the default)")
    serve_parser = commands.add_parser("serve", help="build, then serve dist/ on 127.0.0.1")
    serve_parser.add_argument("--port", type=int, default=8000, help="port (0: any free one)")
    serve_parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (0.0.0.0: every interface, to try the page on a phone)",
    )
    serve_parser.add_argument(
        "--no-isolation",
        action="store_true",
        help="omit the COOP/COEP headers (cancel then restarts the worker)",
    )
    serve_parser.add_argument("--verbose", action="store_true", help="log every request")
    test_parser = commands.add_parser(
        "test",
        help="set up .venv, Chromium and eslint, run ruff, mypy, eslint and all tests on every "
        "core; extra args go to pytest (-n 0: one process)",
        description="Run ruff, ruff format --check, mypy, eslint, then pytest on every core "
        "(pytest-xdist). Arguments after the options go to pytest.",
    )
    test_parser.add_argument(
        "--quick",
        action="store_true",
        help="the fast loop: no browser (e2e) or slow tests, fewer fuzz examples, eslint only "
        "if installed already; installs only .venv (about two minutes on two cores)",
    )
    test_parser.add_argument("pytest_args", nargs=argparse.REMAINDER)
    bench_parser = commands.add_parser(
        "bench",
        add_help=False,  # --help goes to the harness, which lists its options
        help="run the benchmarks and print one table; args go to bench/harness.py "
        "(--quick, --full, --browser, --only TEXT, --repeat N, --json FILE, --baseline FILE)",
    )
    bench_parser.add_argument("bench_args", nargs=argparse.REMAINDER)
    return parser


def main(argv: list[str] | None = None) -> int:
    command_line = parser()
    args, extra = command_line.parse_known_args(argv)
    try:
        if args.command == "test":
            pytest_args = [*extra, *args.pytest_args]
            # --quick after pytest's arguments still means ours (pytest has no --quick).
            quick = args.quick or "--quick" in pytest_args
            return run_tests([arg for arg in pytest_args if arg != "--quick"], quick)
        if args.command == "bench":
            return run_bench([*extra, *args.bench_args])
        if extra:
            command_line.error(f"unrecognized arguments: {' '.join(extra)}")
        if args.command == "serve":
            return serve(args.port, not args.no_isolation, args.verbose, args.host)
        build_site()
        return 0
    except BuildError as error:
        log(f"error: {error}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
