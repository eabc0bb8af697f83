"""Page soak: many mixed solves through the page's ``window.pysolver.solve``, and its memory.

    .venv/bin/python bench/page_soak.py                  # 1,000 solves
    .venv/bin/python bench/page_soak.py --solves 200 --json page-soak.json
    .venv/bin/python -m bench.page_soak                  # the same

Needs what ``python3 build.py test`` installs (.venv with Playwright, Debian's Chromium). Builds
dist/, serves it cross-origin isolated on a free 127.0.0.1 port, opens the page in Chromium and
cycles through the request mix of the CPython soak (bench/soak.py: every registered kind in
every mode, heatmaps, subtree tasks, requests that must be refused), plus the same mix's solve
and count requests with ``"jobs": 2`` (the page's pool of workers) and one pool count long
enough that the pool starts its second worker. Every answer is compared with CPython's answer
to the same request, computed here once per distinct request (``comparable``: the whole
response but the times and the pool's report; for a refusal its code and path, since the
words of a JSON error differ between Python versions); a difference is a wrong answer, printed,
and the exit status is 1.

Printed: one row per group (each kind, ``errors``, ``pool``) as bench/soak.py prints them, with
the time of each solve as the page saw it; then the memory at the start (the page ready, no
solve yet), after the first round of every request, and at the end:

- each worker's Python heap: Pyodide's WebAssembly memory (it only grows, so it is the most
  the worker ever used), and after a garbage collection the bytes in use (malloc's) and the
  objects Python tracks: what the solves kept, which a leak grows round after round; the
  worker answers a "memory" message (web/runtime/worker.mjs, pysolver.webworker.live_objects);
- the page's JavaScript heap, live after a garbage collection (CDP ``Performance.getMetrics``);
- ``performance.measureUserAgentSpecificMemory()``: the page's and its workers' JavaScript and
  WebAssembly memory together;
- resident memory (RSS, from /proc) of this run's Chromium renderer processes (the page and its
  dedicated workers, which are threads of it) and of all its processes, and their proportional
  set size.

A worker whose memory in use grew by more than ``LIVE_GROWTH_BOUND_MB`` from the first round to
the end (something kept from solve to solve), or whose WebAssembly memory grew by more than
``HEAP_GROWTH_BOUND_MB`` (one of the steps of a fifth by which Pyodide's memory grows), is
reported as GROWTH, and the exit status is 1.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from time import perf_counter
from typing import Any

if not __package__:  # run as a file (python bench/page_soak.py): import bench from the root
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import soak  # noqa: E402
from bench.bench_parallel import pentominoes  # noqa: E402
from bench.bench_pool import MEASURE_JS  # noqa: E402
from bench.browser import CHROMIUM, CHROMIUM_ARGS, start_server  # noqa: E402
from pysolver import protocol, solve  # noqa: E402

DEFAULT_SOLVES = 1_000
POOL_GROUP = "pool"
POOL_JOBS = 2
# The modes the pool splits (the others answer serially, which the plain mix covers).
POOL_MODES = ("solve", "count")
# A count that runs long enough in the page (about a second) for the pool to start its second
# worker (web/runtime/pool.js starts extra workers for runs still going after a quarter second).
LONG_POOL_COUNT = {**pentominoes(["." * 20] * 3), "jobs": POOL_JOBS}
# The most a worker's memory may grow from the end of the first round to the end of the soak: in
# use after a collection (a worker started late in the first round warms up after it, about
# 0.5 MB), and Pyodide's WebAssembly memory, which grows by a fifth at a time (36 to 43.2 MB).
LIVE_GROWTH_BOUND_MB = 2.0
HEAP_GROWTH_BOUND_MB = 8.0
# Request texts longer than this go to the page as a recipe (one character, so many times),
# not as a copy through the DevTools protocol on every round.
LONG_TEXT_CHARS = 1 << 20

# The response's parts that are this run's and not the answer: times, and the pool's report of
# workers and tasks (its note says how many workers ran, which differs between a page and CPython).
VOLATILE = ("parallel",)
# The compiled walk (pysolver-studio[fast], CPython only) says it ran and its JIT time; its
# answers are the pure walk's, which the page runs.
VOLATILE_STATS = ("seconds", "kernel", "jit_seconds")
PARALLEL_WORK_STATS = ("nodes", "mask_ops", "memo_hits", "memo_entries", "options_struck")

# BigInt counts as {"bigint": digits} so the JSON crosses to Python whole.
REPLACER = "(key, value) => typeof value === 'bigint' ? {bigint: value.toString()} : value"

SOLVE_JS = f"""async ([request, fill]) => {{
    const sent = fill ? fill.char.repeat(fill.length) : request;
    const started = performance.now();
    const response = await window.pysolver.solve(sent);
    return JSON.stringify({{response, ms: performance.now() - started}}, {REPLACER});
}}"""

HEAPS_JS = "async () => window.__pysolverPool.workerMemory()"


def page_round() -> list[soak.Request]:
    """One round: bench/soak.py's mixed requests, with each solve and count of a valid puzzle
    also run with ``"jobs": 2`` (after its serial twin), and the long pool count at the end."""
    found = []
    for item in soak.mixed_requests():
        found.append(item)
        request = item.request
        if (
            item.group != soak.ERROR_GROUP
            and isinstance(request, dict)
            and request.get("mode", "solve") in POOL_MODES
            and "subtree" not in request
        ):
            found.append(soak.Request(POOL_GROUP, {**request, "jobs": POOL_JOBS}, None))
    found.append(soak.Request(POOL_GROUP, LONG_POOL_COUNT, None))
    return found


def comparable(response: dict[str, Any]) -> dict[str, Any]:
    """What must be the same in the page and in CPython: a refusal's code and path; an answer
    whole but for its times and the pool's report."""
    if not response.get("ok"):
        error = response.get("error", {})
        return {"ok": False, "code": error.get("code"), "path": error.get("path")}
    if response.get("mode") == "estimate":
        # Its figures rest on a calibration run of fixed length: how far a count gets in that
        # time (and whether it ends, answering exactly) is the machine's speed, not the answer.
        return {key: response.get(key) for key in ("ok", "kind", "mode", "engine", "seed")}
    kept = {key: value for key, value in response.items() if key not in VOLATILE}
    # A pool's workers keep their memo across the tasks they run, so a parallel memo count's
    # summed work depends on which worker ran which task: only its answer must agree.
    volatile = VOLATILE_STATS + (PARALLEL_WORK_STATS if "parallel" in response else ())
    if isinstance(kept.get("stats"), dict):
        kept["stats"] = {key: value for key, value in kept["stats"].items() if key not in volatile}
    return kept


def from_page(text: str) -> dict[str, Any]:
    """SOLVE_JS's answer ({response, ms}), with the response's BigInt counts as Python ints."""

    def whole(value: dict[str, Any]) -> Any:
        return int(value["bigint"]) if value.keys() == {"bigint"} else value

    found: dict[str, Any] = json.loads(text, object_hook=whole)
    return found


def page_arguments(request: dict[str, Any] | str) -> list[Any]:
    """SOLVE_JS's arguments: the request, or for a long text of one repeated character the
    recipe the page rebuilds it from."""
    if isinstance(request, str) and len(request) > LONG_TEXT_CHARS:
        if request != request[0] * len(request):
            raise ValueError("a long request text must repeat one character to be sent")
        return [None, {"char": request[0], "length": len(request)}]
    return [request, None]


def differences(expected: Any, got: Any, where: str = "") -> list[str]:
    """Where two JSON values differ (paths, at most a few), for a readable wrong answer."""
    if isinstance(expected, dict) and isinstance(got, dict):
        found = []
        for key in sorted(expected.keys() | got.keys()):
            if key not in got or key not in expected:
                found.append(f"{where}.{key}: only in {'CPython' if key in expected else 'page'}")
            else:
                found.extend(differences(expected[key], got[key], f"{where}.{key}"))
        return found[:5]
    if expected != got:
        return [
            f"{where or 'answer'}: CPython {json.dumps(expected)[:80]}, page {json.dumps(got)[:80]}"
        ]
    return []


@dataclass
class Group:
    solves: int = 0
    seconds: float = 0.0
    slowest: float = 0.0


@dataclass
class Memory:
    """One moment's memory figures, in MB (None where this browser cannot tell)."""

    worker_heaps: list[float]
    worker_live: list[float]  # MB in use after a garbage collection, worker by worker
    worker_objects: list[float]  # thousands of objects Python tracks then
    page_js_heap: float | None = None
    user_agent: float | None = None
    renderer_rss: float | None = None
    chromium_rss: float | None = None
    chromium_pss: float | None = None


@dataclass
class Soak:
    groups: dict[str, Group] = field(default_factory=lambda: defaultdict(Group))
    memory: dict[str, Memory] = field(default_factory=dict)
    wrong: list[str] = field(default_factory=list)
    wrong_total: int = 0
    # The workers' heaps after each whole round: live memory that grows round after round is a
    # leak; a step of the WebAssembly memory that stays is the high-water mark of a busier moment.
    by_round: list[Memory] = field(default_factory=list)

    def growth(self) -> list[str]:
        """Each worker's growth from the first round to the end beyond the bounds, in words."""
        first, end = self.memory["first round"], self.memory["end"]
        found = []
        for what, bound, before, after in (
            ("in use", LIVE_GROWTH_BOUND_MB, first.worker_live, end.worker_live),
            ("WebAssembly memory", HEAP_GROWTH_BOUND_MB, first.worker_heaps, end.worker_heaps),
        ):
            for index, (warm, last) in enumerate(zip(before, after, strict=False)):
                if last > warm + bound:
                    found.append(
                        f"worker {index}'s {what} grew from {warm:.1f} MB after the first "
                        f"round to {last:.1f} MB (at most {bound:.0f} MB more allowed)"
                    )
        return found


def expected_answers(one_round: list[soak.Request]) -> list[dict[str, Any]]:
    """CPython's comparable answer to each request of the round (``jobs`` runs as CPython runs
    it: on worker processes)."""
    return [comparable(solve(item.request)) for item in one_round]


def worker_memory(page: Any) -> Memory:
    """Each of the page's workers' Python heap (Pyodide's WebAssembly memory), its bytes in use
    and its objects, first first."""
    heaps = [heap for heap in page.evaluate(HEAPS_JS) if heap and heap["bytes"]]
    return Memory(
        [heap["bytes"] / 2**20 for heap in heaps],
        [heap["live"] / 2**20 for heap in heaps if heap["live"] is not None],
        [heap["objects"] / 1000 for heap in heaps if heap["objects"] is not None],
    )


def run(
    page: Any,
    total: int,
    measure: Callable[[], Memory] | None = None,
) -> Soak:
    """Send ``total`` solves of the cycled round through the page (ready, at its URL); compare
    each answer with CPython's. ``measure`` (default: the worker heaps alone) is called at the
    start, after the first round and at the end."""
    measure = measure or (lambda: worker_memory(page))
    one_round = page_round()
    expected = expected_answers(one_round)
    result = Soak()
    result.memory["start"] = measure()
    for index in range(total):
        position = index % len(one_round)
        item = one_round[position]
        answer = from_page(page.evaluate(SOLVE_JS, page_arguments(item.request)))
        response = answer["response"]
        group = result.groups[item.group]
        group.solves += 1
        group.seconds += answer["ms"] / 1000
        group.slowest = max(group.slowest, answer["ms"] / 1000)
        problem = soak.check(item, response)
        if problem is None:
            found = differences(expected[position], comparable(response))
            problem = "; ".join(found) if found else None
        if problem is not None:
            result.wrong_total += 1
            if len(result.wrong) < 20:
                result.wrong.append(f"{protocol.shown(item.request)}: {problem}")
        if index + 1 == len(one_round):
            result.memory["first round"] = measure()
            result.by_round.append(result.memory["first round"])
        elif position + 1 == len(one_round):
            result.by_round.append(worker_memory(page))
    result.memory.setdefault("first round", result.memory["start"])
    result.memory["end"] = measure()
    return result


def command_line(entry: Path) -> list[str]:
    """A /proc entry's command line, word by word ([] if the process ended or is not ours to
    read). Chromium rewrites its own as one line of words, so words are split at spaces too."""
    try:
        return (entry / "cmdline").read_bytes().decode(errors="replace").replace("\0", " ").split()
    except OSError:
        return []


def parent_pid(entry: Path) -> int:
    """A /proc entry's parent process id (0 if it ended); the name in stat may hold spaces."""
    try:
        return int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def chromium_processes(marker: str) -> Iterator[tuple[str, Path]]:
    """(process type, /proc entry) of this run's Chromium: the processes whose command line
    holds ``marker`` (its profile directory: not the other browsers on the machine) and their
    descendants (renderers do not repeat the profile). The type is Chromium's ``--type=``
    (renderer, gpu-process, utility, zygote...) or ``browser`` for the main process."""
    entries = [entry for entry in Path("/proc").iterdir() if entry.name.isdigit()]
    children: dict[int, list[Path]] = defaultdict(list)
    for entry in entries:
        children[parent_pid(entry)].append(entry)
    pending = [entry for entry in entries if any(marker in arg for arg in command_line(entry))]
    seen: set[str] = set()
    while pending:
        entry = pending.pop()
        if entry.name in seen:
            continue
        seen.add(entry.name)
        pending.extend(children[int(entry.name)])
        types = [
            arg.removeprefix("--type=") for arg in command_line(entry) if arg.startswith("--type=")
        ]
        yield (types[0] if types else "browser"), entry


def proc_kib(entry: Path, file: str, field_name: str) -> int:
    """A ``Name:  123 kB`` figure of a /proc file (0 if the process ended)."""
    try:
        for line in (entry / file).read_text().splitlines():
            if line.startswith(field_name + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def process_memory_mb(marker: str) -> tuple[float, float, float] | None:
    """(renderer RSS, all processes' RSS, all processes' PSS) in MB; None off Linux."""
    if not Path("/proc/self/status").exists():
        return None
    renderer = everything = proportional = 0
    for kind, entry in chromium_processes(marker):
        rss = proc_kib(entry, "status", "VmRSS")
        everything += rss
        renderer += rss if kind == "renderer" else 0
        proportional += proc_kib(entry, "smaps_rollup", "Pss")
    return renderer / 1024, everything / 1024, proportional / 1024


def measurer(page: Any, marker: str) -> Callable[[], Memory]:
    """Every figure of the module's docstring, for a page of a Chromium whose profile is marker."""
    devtools = page.context.new_cdp_session(page)
    devtools.send("Performance.enable")

    def measure() -> Memory:
        memory = worker_memory(page)
        devtools.send("HeapProfiler.collectGarbage")
        metrics = devtools.send("Performance.getMetrics")["metrics"]
        named = {metric["name"]: metric["value"] for metric in metrics}
        if "JSHeapUsedSize" in named:
            memory.page_js_heap = named["JSHeapUsedSize"] / 2**20
        user_agent = page.evaluate(MEASURE_JS)
        if user_agent:
            memory.user_agent = user_agent["bytes"] / 2**20
        processes = process_memory_mb(marker)
        if processes:
            memory.renderer_rss, memory.chromium_rss, memory.chromium_pss = processes
        return memory

    return measure


def print_report(result: Soak, total: int, seconds: float, distinct: int) -> None:
    print(f"{total:,} solves in the page in {seconds:.1f} s ({distinct} distinct, cycled)")
    print(f"{'group':<12} {'solves':>7} {'total s':>8} {'mean ms':>8} {'slowest ms':>11}")
    for name, group in sorted(result.groups.items()):
        mean_ms = 1000 * group.seconds / group.solves
        print(
            f"{name:<12} {group.solves:>7,} {group.seconds:>8.2f} {mean_ms:>8.2f} "
            f"{1000 * group.slowest:>11.1f}"
        )
    moments = list(result.memory)
    print()
    print(
        f"{'memory (MB)':<36}"
        + "".join(f"{moment:>12}" for moment in moments)
        + f"{'end - first':>13}"
    )
    workers = max(len(memory.worker_heaps) for memory in result.memory.values())
    rows: list[tuple[str, Callable[[Memory], float | None]]] = [
        (
            f"worker {index} Python heap (wasm)",
            lambda memory, index=index: (
                memory.worker_heaps[index] if index < len(memory.worker_heaps) else None
            ),
        )
        for index in range(workers)
    ]
    rows += [
        (
            f"worker {index} in use, collected",
            lambda memory, index=index: (
                memory.worker_live[index] if index < len(memory.worker_live) else None
            ),
        )
        for index in range(workers)
    ]
    rows += [
        (
            f"worker {index} Python objects (thousands)",
            lambda memory, index=index: (
                memory.worker_objects[index] if index < len(memory.worker_objects) else None
            ),
        )
        for index in range(workers)
    ]
    rows += [
        ("page JS heap, live (CDP)", lambda memory: memory.page_js_heap),
        ("page + workers (measureUserAgent…)", lambda memory: memory.user_agent),
        ("renderers RSS (page, workers...)", lambda memory: memory.renderer_rss),
        ("all Chromium processes RSS", lambda memory: memory.chromium_rss),
        ("all Chromium processes PSS", lambda memory: memory.chromium_pss),
    ]
    for label, figure in rows:
        values = [figure(result.memory[moment]) for moment in moments]
        if all(value is None for value in values):
            continue
        shown = "".join(
            f"{value:>12.1f}" if value is not None else f"{'-':>12}" for value in values
        )
        first, end = figure(result.memory["first round"]), figure(result.memory["end"])
        change = f"{end - first:>+13.1f}" if first is not None and end is not None else f"{'-':>13}"
        print(f"{label:<36}{shown}{change}")
    for index in range(workers):
        heaps = [
            f"{memory.worker_heaps[index]:.0f}/{memory.worker_live[index]:.1f}"
            for memory in result.by_round
            if index < len(memory.worker_heaps) and index < len(memory.worker_live)
        ]
        print(f"worker {index} after each round (heap/in use, MB): {' '.join(heaps)}")
    print(f"{result.wrong_total} wrong answers")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/page_soak.py", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--solves", type=int, default=DEFAULT_SOLVES, help="how many (default 1,000)"
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("Playwright is missing: run python3 build.py test once, then use .venv/bin/python")
        return 2
    if not Path(CHROMIUM).exists():
        print(f"Chromium is missing at {CHROMIUM}: python3 build.py test installs it")
        return 2
    from buildtools.server import make_server
    from buildtools.site import build_site

    build_site(quiet=True)
    server = make_server(port=0, isolated=True)
    url = start_server(server)
    # Memory measurement answers at the next garbage collection unless told to be eager.
    chromium_args = [*CHROMIUM_ARGS, "--enable-blink-features=ForceEagerMeasureMemory"]
    try:
        with (
            sync_playwright() as playwright,
            tempfile.TemporaryDirectory(prefix="pysolver-page-soak-") as profile,
        ):
            context = playwright.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, args=chromium_args, headless=True
            )
            page = context.new_page()
            page.goto(url)
            page.wait_for_function("() => window.pysolver && window.pysolver.ready")
            page.evaluate("() => window.pysolver.ready")
            started = perf_counter()
            result = run(page, args.solves, measurer(page, profile))
            seconds = perf_counter() - started
            context.close()
    finally:
        server.shutdown()
        server.server_close()
    print_report(result, args.solves, seconds, len(page_round()))
    growth = result.growth()
    for problem in result.wrong:
        print(f"WRONG {problem}")
    for problem in growth:
        print(f"GROWTH {problem}")
    if args.json is not None:
        figures = {
            "solves": args.solves,
            "seconds": round(seconds, 3),
            "groups": {name: vars(group) for name, group in result.groups.items()},
            "memory_mb": {moment: vars(memory) for moment, memory in result.memory.items()},
            "growth": growth,
            "by_round": [vars(memory) for memory in result.by_round],
            "wrong": result.wrong,
            "wrong_total": result.wrong_total,
        }
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 1 if result.wrong_total or growth else 0


if __name__ == "__main__":
    sys.exit(main())
