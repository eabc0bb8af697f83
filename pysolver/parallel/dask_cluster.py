"""Tasks on an existing Dask cluster (``dask.distributed``; the optional ``dask`` extra):
``python -m pysolver solve --scheduler tcp://HOST:PORT``."""

from __future__ import annotations

import contextlib
import logging
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from time import perf_counter, sleep
from typing import Any, TypeVar

from pysolver import protocol
from pysolver.engines.cover import ExactCoverProblem
from pysolver.engines.memo_levels import LanesLost, Level, LevelWalk, Part, level_size, merged
from pysolver.engines.monitor import Cancelled, Monitor
from pysolver.parallel.merge import Merger, not_run, read_answer, stopped
from pysolver.parallel.plan import TASKS_PER_JOB, Task
from pysolver.parallel.processes import HERE_BELOW, START_SECONDS, silence_seconds, task_text
from pysolver.parallel.runner import AnswerTask, LaneRecord
from pysolver.protocol import UNAVAILABLE, SolveError

# How long an error from Dask may take to show as a lost scheduler in the client's status.
LOST_GRACE_SECONDS = 2.0
# How long one call to the scheduler may take before it is taken for lost (paused, or cut off
# without the connection closing): a call is a round trip of a few milliseconds.
CALL_SECONDS = 5.0
# How long a call may take once the run is being stopped (Ctrl-C, --timeout): a stop is not
# held up by a scheduler that does not answer.
STOPPING_CALL_SECONDS = 1.0
# How often a pending call looks whether the run is being stopped.
WATCH_SECONDS = 0.05
# How often a running task says it is alive (through the progress queue), whatever it does.
HEARTBEAT_SECONDS = 1.0
# A running task silent for ``SILENCE_FACTOR * processes.silence_seconds()`` (twice the worker
# processes' limit: each word is a round trip through the scheduler) is taken for lost: its
# worker is paused or cut off, and the scheduler only notices after minutes (worker-ttl).
SILENCE_FACTOR = 2.0

Result = TypeVar("Result")


class Unanswered(ConnectionError):
    """A call to the scheduler took longer than ``CALL_SECONDS``."""


def within(
    seconds: float,
    call: Callable[..., Result],
    *args: Any,
    stopping: Callable[[], bool] | None = None,
    **kwargs: Any,
) -> Result:
    """``call(*args, **kwargs)``, or ``Unanswered`` when it takes longer than ``seconds`` (or
    than ``STOPPING_CALL_SECONDS`` once ``stopping()`` says the run is being stopped).

    Dask's client calls wait for the scheduler as long as its connection stays open, and a
    paused scheduler keeps it open: the call runs in a thread of its own (a daemon, left
    behind when it never returns) so that the run can give up on it."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append((True, call(*args, **kwargs)))
        except BaseException as error:
            outcome.append((False, error))

    thread = threading.Thread(target=run, name="pysolver-dask-call", daemon=True)
    started = perf_counter()
    thread.start()
    while not outcome:
        thread.join(WATCH_SECONDS)
        waited = perf_counter() - started
        if outcome:
            break
        if waited > seconds or (
            waited > STOPPING_CALL_SECONDS and stopping is not None and stopping()
        ):
            raise Unanswered(f"the scheduler did not answer within {waited:.0f} s")
    ok, value = outcome[0]
    if not ok:
        raise value
    result: Result = value
    return result


class DaskRunner:
    """Tasks on an existing Dask cluster (``dask.distributed``; the optional ``dask`` extra).

    Workers need pysolver importable (installed, or on their PYTHONPATH). Running tasks send
    progress through a Dask ``Queue`` and poll a Dask ``Variable`` (the index from which tasks
    must stop; deleted when the run ends) about twice a second.
    """

    name = "dask"
    starts_serially = False

    def __init__(
        self, address: str, answer_task: AnswerTask, tasks_per_job: int = TASKS_PER_JOB
    ) -> None:
        self.answer_task = answer_task
        self.tasks_per_job = tasks_per_job
        self.address = address
        self.lost = False  # the cluster was lost during a run
        try:
            from distributed import Client
        except ImportError:
            raise RuntimeError(
                "running on a Dask cluster needs dask.distributed: "
                'pip install "pysolver-studio[dask]"'
            ) from None
        try:
            self.client = Client(address, timeout="10s")
        except (OSError, TimeoutError) as exc:
            raise RuntimeError(f"cannot reach the Dask scheduler at {address}: {exc}") from None

    def workers(self) -> int:
        try:
            threads: dict[str, int] = within(CALL_SECONDS, self.client.nthreads)
        except Unanswered:
            return 1  # the run will find the cluster lost and say so
        return max(1, sum(threads.values()))

    def grant(self, jobs: int) -> int:
        return jobs

    def warm_up(self, compiled: bool) -> None:
        return None

    def level_lanes(self, jobs: int) -> DaskLanes:
        """``jobs`` lanes on the cluster's workers (``DaskLanes``)."""
        return DaskLanes(jobs, runner=self)

    def close(self) -> None:
        # A cluster found lost is not waited for again (closing says goodbye to it).
        seconds = STOPPING_CALL_SECONDS if self.lost else CALL_SECONDS
        with contextlib.suppress(Exception):
            within(seconds, self.client.close, timeout=seconds)

    def run(self, tasks: list[Task], merger: Merger) -> None:
        try:
            self._run(tasks, merger)
        except Exception as exc:
            if not self._cluster_lost(exc):
                raise
            self.lost = True
            # Dask's client logs each failed reconnection with a traceback: the response
            # says what happened, in one sentence.
            for name in ("distributed", "distributed.client"):
                logging.getLogger(name).setLevel(logging.CRITICAL)
            for task in tasks:
                if merger.responses[task.index] is None:
                    merger.done(task.index, self._lost())

    def _run(self, tasks: list[Task], merger: Merger) -> None:
        """Submit the tasks and follow them; raises when the cluster is lost meanwhile (a call
        to the scheduler unanswered, or a client that lost it). A task silent too long is
        answered ``unavailable``: its worker is paused or cut off."""
        from distributed import Queue, Variable, wait

        def call(function: Callable[..., Result], *args: Any, **kwargs: Any) -> Result:
            return within(
                CALL_SECONDS, function, *args, stopping=merger.monitor.stop_asked, **kwargs
            )

        stop_name = f"pysolver-stop-{uuid.uuid4().hex}"
        progress = call(Queue, f"{stop_name}-progress", client=self.client)
        stop_variable = Variable(stop_name, client=self.client)
        call(stop_variable.set, len(tasks))
        shared_stop = len(tasks)
        # The request goes to the cluster once, copied to every worker (``scatter`` with
        # ``broadcast``; a worker that joins later fetches it from another), and a task is
        # then only its index and its subtree. When it was the result of one task, the
        # scheduler sent every task to the worker holding it (data locality), and the other
        # workers only got what they stole: 6x10 pentominoes on two workers ran 23 tasks on
        # one, 1.6 s against 1.0 s serially. The tasks go in their order (the heaviest
        # first for a memo count, search order otherwise): Dask's priority says so.
        base = {key: value for key, value in tasks[0].request.items() if key != "subtree"}
        request_text = call(self.client.scatter, protocol.dumps(base), broadcast=True, hash=False)
        pending = {
            self.client.submit(
                answer_subtree_on_dask,
                self.answer_task,
                task.index,
                request_text,
                task.subtree,
                stop_name,
                key=f"{stop_name}-{task.index}",
                pure=False,
                priority=len(tasks) - task.index,
            ): task
            for task in tasks
        }
        silence = SILENCE_FACTOR * silence_seconds()
        heard: dict[int, float] = {}  # when each running task last said anything
        # When any task last said anything (tasks queued behind a paused worker never start).
        heard_any = perf_counter() + START_SECONDS - silence
        while pending:
            try:
                finished = call(wait, list(pending), timeout=0.1, return_when="FIRST_COMPLETED")
                finished_futures = list(finished.done)
            except TimeoutError:  # none finished within the timeout: just poll again
                finished_futures = []
            if self._cluster_lost():
                raise ConnectionError("the scheduler stopped answering")
            now = perf_counter()
            for index, report in call(progress.get, batch=True):
                heard[index] = heard_any = now
                merger.progress(index, report)
            if finished_futures:
                heard_any = now
            for future in finished_futures:
                task = pending.pop(future)
                merger.done(task.index, self._result(future))
            silent = [
                future
                for future, task in pending.items()
                if now - heard.get(task.index, heard_any) > silence
            ]
            for future in silent:
                merger.done(pending.pop(future).index, self._silent(silence))
            if silent:
                with contextlib.suppress(Exception):  # best effort: its worker is gone
                    call(self.client.cancel, silent)
            merger.check()
            if merger.stop_from != shared_stop:
                shared_stop = merger.stop_from
                stopping = [f for f, task in pending.items() if merger.should_stop(task.index)]
                for future in stopping:
                    merger.done(pending.pop(future).index, stopped())
                # Best effort, as is the clean-up below: the stopped tasks are answered, and
                # the run must not wait on a scheduler that does not answer.
                with contextlib.suppress(Exception):
                    call(stop_variable.set, shared_stop)
                    call(self.client.cancel, stopping)
        with contextlib.suppress(Exception):
            call(self.client.cancel, [*pending, request_text])
            # Tasks still running on a worker see the variable gone and stop (see below).
            stop_variable.delete()
            progress.close()

    def _cluster_lost(self, error: Exception | None = None) -> bool:
        """The client has lost its scheduler (it is reconnecting, or gave up). After an
        ``error``, the client's status may take a moment to say so: wait for it briefly, and
        take Dask's own reason for cancelled futures as the answer too."""
        if isinstance(error, Unanswered):
            return True
        waited_until = perf_counter() + (LOST_GRACE_SECONDS if error is not None else 0.0)
        while True:
            if str(getattr(self.client, "status", "running")) != "running":
                return True
            if error is not None and "scheduler-connection-lost" in str(error):
                return True
            if perf_counter() >= waited_until:
                return False
            sleep(0.05)

    def _lost(self) -> dict[str, Any]:
        message = f"the Dask cluster at {self.address} was lost (its scheduler stopped answering)"
        return protocol.error_response(SolveError(UNAVAILABLE, message, "subtree"))

    def _silent(self, seconds: float) -> dict[str, Any]:
        message = (
            f"the Dask worker running this task at {self.address} stopped answering (nothing "
            f"for {seconds:g} s: paused or cut off)"
        )
        return protocol.error_response(SolveError(UNAVAILABLE, message, "subtree"))

    def _result(self, future: Any) -> dict[str, Any]:
        try:
            return read_answer(within(CALL_SECONDS, future.result))
        except Exception as exc:
            if self._cluster_lost(exc):
                return self._lost()
            cause = protocol.shown(f"{type(exc).__name__}: {exc}")
            return not_run(f"the Dask worker running this task failed ({cause})")


# How long a wait for the lanes' actors may last before the run looks at its stop hook, and
# before it asks the scheduler whether the lanes' workers are still there.
ACTOR_WAIT_SECONDS = 0.05
WORKER_LOOK_SECONDS = 0.5


class LaneActor:
    """A lane of the memo count's levels, a Dask actor on one worker: it keeps the level
    count's tables, the pieces of its coming levels (its own children, and those the other
    lanes send it, by level), and the other lanes' actors, to which it sends their children
    itself."""

    def __init__(self, problem: ExactCoverProblem, lane: int, lanes: int) -> None:
        self.walk = LevelWalk(problem)
        self.lane = lane
        self.lanes = lanes
        self.inbox: dict[int, Part] = {}
        self.peers: list[Any] = []

    def meet(self, peers: list[Any]) -> None:
        """The lanes' actors, in lane order."""
        self.peers = peers

    async def receive(self, level: int, piece: dict[int, int]) -> None:
        """A piece of a level (on the worker's event loop: a lane still expanding a level takes
        the pieces of the next that the others send it meanwhile; a lane that has not begun a
        level yet may get pieces of the next, kept apart)."""
        self.inbox.setdefault(level, []).append(piece)

    def step(self, level: int) -> tuple[int, int, list[int]]:
        """Expand the level's pieces received, keep this lane's children, send the others'
        to their lanes; the covers found, the nodes and the children per lane."""
        part = self.inbox.pop(level, None) or [{}]
        expanded = self.walk.expand(part, self.lanes, Monitor())
        sent = []
        for lane, piece in enumerate(expanded.parts):
            if lane == self.lane:
                self.inbox.setdefault(level + 1, []).append(piece)
            elif piece:
                sent.append(self.peers[lane].receive(level + 1, piece))
        for delivery in sent:
            delivery.result()
        return expanded.found, expanded.nodes, [len(piece) for piece in expanded.parts]


@dataclass
class DaskLanes(LaneRecord):
    """``memo_levels.Lanes`` on the cluster's workers: one ``LaneActor`` a worker.

    The actors are made (each making the level count's tables) while this process expands
    the first levels; from the first level of ``processes.HERE_BELOW`` sub-boards on, each
    actor expands its lane's part and sends the children it does not own straight to their
    lanes' actors (worker to worker, without the scheduler), so only each level's figures
    come back here. Levels as Dask tasks (each part a task, each piece taken by a task of its
    own, the next level's tasks waiting on them) spent 20-30 ms a level in the scheduler's
    hops: 6x10 pentominoes, 2 workers, 0.60 -> 0.52 s; 8x8 with the square 5.5 -> 5.2 s.

    A worker lost takes its actor and its part with it: the level count stops
    (``LanesLost``) and the memo walk counts the board here, the response saying so in
    ``lost_lanes``; a cancel is looked at between levels (a level is short)."""

    runner: DaskRunner | None = None
    # The actors' futures while they are made, then the actors, in lane order.
    making: list[Any] = field(default_factory=list)
    actors: list[Any] = field(default_factory=list)
    problem_future: Any = None
    # The worker of each lane's actor.
    lane_workers: list[str] = field(default_factory=list)
    # Per lane worker: the scheduler's time of its last heartbeat, and when (here) that last
    # changed (``_look_at_workers``).
    heartbeats: dict[str, tuple[float, float]] = field(default_factory=dict)

    def __enter__(self) -> DaskLanes:
        return self

    def __exit__(self, kind: Any, error: Any, trace: Any) -> None:
        held = [*self.making, *([self.problem_future] if self.problem_future else [])]
        if held and self.runner is not None and not self.runner.lost:
            with contextlib.suppress(Exception):
                within(STOPPING_CALL_SECONDS, self.runner.client.cancel, held)
        self.making, self.actors, self.problem_future = [], [], None

    def step(self, monitor: Monitor) -> Level:
        runner = self.runner
        if runner is None:
            return super().step(monitor)
        try:
            if not self.making:
                assert self.walk is not None, "started first"
                self._make_actors(runner, self.walk.problem, monitor)
            if not self.actors:
                assert self.parts is not None, "started first"
                if level_size(self.parts) < HERE_BELOW:
                    return super().step(monitor)
                self._hand_over(monitor)
            level = self.levels_sent
            answered = self._results([actor.step(level) for actor in self.actors], monitor)
        except Cancelled:
            raise
        except Exception as error:
            runner.lost = runner.lost or runner._cluster_lost(error)
            self.lost.append(protocol.shown(f"{type(error).__name__}: {error}"))
            raise LanesLost(self.lost[-1]) from None
        self.levels_sent += 1
        for lane, (_, nodes, _) in enumerate(answered):
            self.nodes[lane] += nodes
        found = sum(covers for covers, _, _ in answered)
        next_size = sum(sum(sizes) for _, _, sizes in answered)
        return Level(found, sum(nodes for _, nodes, _ in answered), next_size)

    def open(self, problem: ExactCoverProblem) -> None:
        """Start making the actors (each makes its tables while this process makes its own);
        a cluster that does not answer is found at the first level."""
        if self.runner is not None:
            with contextlib.suppress(Exception):
                self._make_actors(self.runner, problem, Monitor())

    def _make_actors(
        self, runner: DaskRunner, problem: ExactCoverProblem, monitor: Monitor
    ) -> None:
        """Scatter the problem and start making an actor on each of ``count`` workers."""
        client = runner.client
        self.problem_future = within(
            CALL_SECONDS,
            client.scatter,
            problem,
            broadcast=True,
            stopping=monitor.stop_asked,
        )
        workers = sorted(within(CALL_SECONDS, client.nthreads, stopping=monitor.stop_asked))
        self.lane_workers = [workers[lane % len(workers)] for lane in range(self.count)]
        self.making = [
            client.submit(
                LaneActor,
                self.problem_future,
                lane,
                self.count,
                workers=[self.lane_workers[lane]],
                actor=True,
            )
            for lane in range(self.count)
        ]

    def _hand_over(self, monitor: Monitor) -> None:
        """The actors made, told of each other and given the level held here."""
        assert self.parts is not None
        self.actors = self._results(self.making, monitor)
        self._results([actor.meet(self.actors) for actor in self.actors], monitor)
        held = zip(self.actors, self.parts, strict=True)
        pieces = [actor.receive(self.levels_sent, merged(part)) for actor, part in held]
        self._results(pieces, monitor)
        self.parts = None

    def _results(self, futures: list[Any], monitor: Monitor) -> list[Any]:
        """The futures' results (actor calls, or actors being made), in order.

        The wait blocks on an event that a coroutine on the client's loop sets once every
        future is done (polling ``done()`` every millisecond cost a 6x10 count 0.05-0.08 s:
        the poller took the GIL from the loop's thread a thousand times a second). Every
        ``ACTOR_WAIT_SECONDS`` it looks at the stop hook (``Cancelled``) and the client's link
        to the scheduler, and every ``WORKER_LOOK_SECONDS`` whether the lanes' workers are
        still in the cluster and still beating (``_look_at_workers``)."""
        runner = self.runner
        assert runner is not None
        if not all(future.done() for future in futures):
            all_done = threading.Event()
            if all(hasattr(future, "add_done_callback") for future in futures):
                # Futures of tasks (the actors being made): their own callbacks.
                def set_if_all_done(_: Any) -> None:
                    if all(future.done() for future in futures):
                        all_done.set()

                for future in futures:
                    future.add_done_callback(set_if_all_done)
            else:
                # Actor calls have no callbacks, but can be awaited on the client's loop.
                async def wait_for_all() -> None:
                    for future in futures:
                        with contextlib.suppress(Exception):  # result() below raises it
                            await future
                    all_done.set()

                loop = runner.client.loop
                assert loop is not None  # a connected client's
                loop.add_callback(wait_for_all)
            next_look = perf_counter() + WORKER_LOOK_SECONDS
            while not all_done.wait(ACTOR_WAIT_SECONDS):
                if monitor.stop_asked():
                    raise Cancelled
                if runner._cluster_lost():
                    raise ConnectionError("the scheduler stopped answering")
                if perf_counter() >= next_look:
                    next_look = perf_counter() + WORKER_LOOK_SECONDS
                    self._look_at_workers(runner)
        return [future.result() for future in futures]

    def _look_at_workers(self, runner: DaskRunner) -> None:
        """``ConnectionError`` when a lane's worker left the cluster (a call to a dead worker's
        actor never ends, and its ``result(timeout)`` did not time out), or when the scheduler
        has heard no heartbeat of it for ``SILENCE_FACTOR * silence_seconds()``: a paused
        worker, which the scheduler keeps for minutes (its ``worker-ttl``) while its actor
        never answers. A worker heartbeats from its event loop (every 0.5 s in a small
        cluster) while its actor computes; the scheduler's clock is read only for changes."""
        workers = within(CALL_SECONDS, runner.client.scheduler_info)["workers"]
        now = perf_counter()
        silence = SILENCE_FACTOR * silence_seconds()
        for worker in self.lane_workers:
            if worker not in workers:
                raise ConnectionError(f"the lanes' worker {worker} left the cluster")
            beat = workers[worker].get("last_seen", 0.0)
            last, heard = self.heartbeats.get(worker, (None, now))
            if beat != last:
                self.heartbeats[worker] = (beat, now)
            elif now - heard > silence:
                raise ConnectionError(
                    f"no heartbeat for {now - heard:.0f} s (paused or cut off) from the lanes' "
                    f"worker {worker}"
                )


def answer_subtree_on_dask(
    answer_task: AnswerTask, index: int, request_text: str, subtree: Any, stop_name: str
) -> str:
    """Runs on a Dask worker: the task ``index`` of the request (its JSON text, fetched once
    per worker) below ``subtree``."""
    text = task_text(request_text, subtree)
    return answer_on_dask(answer_task, index, text, stop_name)


def answer_on_dask(answer_task: AnswerTask, index: int, text: str, stop_name: str) -> str:
    """Runs on a Dask worker: answer the task, polling the shared stop index now and then and
    sending progress reports to the client's queue (each is a round trip to the scheduler, so
    at most two a second)."""
    from distributed import Queue, Variable

    stop_variable = Variable(stop_name)
    progress_queue = Queue(f"{stop_name}-progress")
    # When to poll the stop index next, its last answer, when to send progress next, and the
    # latest recent solution not sent yet (reports in between are dropped, it is not).
    next_poll = 0.0
    stop = False
    next_report = 0.0
    recent: Any = None

    def report(progress: dict[str, Any]) -> None:
        nonlocal next_report, recent
        if progress.get("recent") is not None:
            recent = progress["recent"]
        now = perf_counter()
        if now >= next_report:
            next_report = now + 0.5
            fields = {name: progress[name] for name in ("fraction", "nodes", "solutions")}
            if recent is not None:  # passed on by the merged progress, as with other runners
                fields["recent"] = recent
                recent = None
            with contextlib.suppress(Exception):  # progress is best effort; answers are not
                progress_queue.put((index, fields), timeout=5)

    def cancel() -> bool:
        nonlocal next_poll, stop
        now = perf_counter()
        if now >= next_poll:
            next_poll = now + 0.5
            try:
                stop = bool(stop_variable.get(timeout=5) <= index)
            except Exception:  # the variable is gone: the client has finished with this run
                stop = True
        return stop

    # A thread of its own says the task is alive while it runs, whatever the task is doing.
    running = threading.Event()
    running.set()

    def beat() -> None:
        while running.is_set():
            with contextlib.suppress(Exception):
                progress_queue.put((index, {}), timeout=5)
            sleep(HEARTBEAT_SECONDS)

    threading.Thread(target=beat, name="pysolver-dask-heartbeat", daemon=True).start()
    try:
        return answer_task(text, cancel=cancel, progress=report)
    finally:
        running.clear()
