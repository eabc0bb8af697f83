// A pool of pysolver workers for requests with "jobs": N (docs/parallel.md).
//
// createPool() -> the interface of createSolver (web/solver.js: ready, info, status,
// canCancelCleanly, solve, cancel, onStatus) plus `jobs` (what the page's Workers control asks
// for), `workerStates()` (one entry per worker: "idle", "busy", "loading" or "failed"; for tests
// and curious users) and `control()` (the Workers control itself).
//
// The first worker is the page's usual one and answers every request. Python plans and merges;
// this module only schedules. A request whose jobs is above 1 goes:
// 1. to the first worker as a "plan" (pysolver.parallel.page.plan_text): the tasks, plain requests
//    in search order with their weights; or the answer itself when the request is not split
//    (random or trace mode, heatmaps, dominoes, an error), which is then the response;
// 2. task by task, in order, to whichever worker is free. Extra workers start only for a run
//    still going after EXTRA_START_DELAY_MS (quick solves never pay for one), one after another
//    (each loads Pyodide once), and stay for later requests; a task starts on the first worker
//    at once;
// 3. with every answer's JSON text, as Python wrote it (big counts stay exact), to the first
//    worker as a "merge" (pysolver.parallel.page.merge_text), whose answer is the response. The
//    page adds parallel.workers (how many ran tasks) and sets stats.seconds to the whole run.
//
// Progress is merged as Python's Merger merges it (the tally helpers below): the weight settled
// while planning plus each task's weight times its fraction; nodes and solutions add up. With a limit, once the first
// tasks in order hold that many solutions the later ones are not started, or are cancelled.
// Cancel cancels every worker's task (each stops through its shared flag or is restarted
// within CANCEL_GRACE_MS, see solver.js) and answers the merged partial count.
// An extra worker that cannot load is dropped and the response's parallel.note says so; the
// tasks then run on the workers that did load (at least the first one).
//
// A worker that dies during a task (out of memory, a crash, ended from outside: solver.js
// notices every way) is restarted by its solver; its task goes back to the front of the queue
// and runs again on the next free worker, up to MAX_TASK_ATTEMPTS times in all, so the count
// stays exact. The merge lists such tasks in parallel.retried as Python's process pool does
// ({task, subtree, reasons}: the merge call carries each task's reasons, Python adds the rest).
// A task that killed its worker that often is given up: Python's merge lists it in
// parallel.failed, the answer is not complete, and parallel.note says what was lost. The
// Workers control shows the same note in words while the page lives.
//
// How many workers: at most workerLimit() (the cores the browser reports, and the device memory
// it reports divided by WORKER_MEMORY_MB); a request asking for more runs on that many, and its
// answer's parallel.jobs is the number granted, with a note of what was asked.
//
// For tests: the page's first pool (app.js's) is globalThis.__pysolverPool, whose workers() are the
// Worker objects (a test ends one with terminate() to see the pool carry on).

import { createSolver, failedResponse, parseJSON, requestText, tooLarge } from "./solver.js";
import { sentence } from "../ui/words.js";

// The most workers a page starts, however many cores and memory it has.
export const MAX_WORKERS = 8;
// What one worker is taken to need: Pyodide with pysolver loaded (about 60-70 MB when idle,
// bench/bench_pool.py) and room for its search's Python objects.
export const WORKER_MEMORY_MB = 256;
// The share of the device's memory the workers may take together, and the device memory
// assumed where the browser does not report it (navigator.deviceMemory: Chromium only, in GB,
// rounded and at most 8).
const DEVICE_MEMORY_SHARE = 0.5;
const DEFAULT_DEVICE_MEMORY_GB = 4;
// The Workers control's default: the machine's cores as the browser reports them, at most this.
const DEFAULT_WORKERS_CAP = 4;
const EXTRA_START_DELAY_MS = 250;
// How many times a task may run when its worker dies under it (the first run and two more).
export const MAX_TASK_ATTEMPTS = 3;

// a + b for counts that may be Numbers or BigInts (parseJSON makes BigInt above 2^53).
function add(a, b) {
  if (typeof a === "bigint" || typeof b === "bigint") return BigInt(a) + BigInt(b);
  const sum = a + b;
  return Number.isSafeInteger(sum) ? sum : BigInt(a) + BigInt(b);
}

function jobsOf(request) {
  let value = request;
  if (typeof request === "string") {
    try {
      value = JSON.parse(request);
    } catch {
      return 1; // the first worker answers with Python's invalid_json error
    }
  }
  const jobs = value && typeof value === "object" ? value.jobs : undefined;
  // Anything but a whole number above 1 goes to Python as it is, which accepts or refuses it.
  return Number.isSafeInteger(jobs) && jobs > 1 ? jobs : 1;
}

// ---------------------------------------------------------------- the merged state of a run
// Pure helpers, applying Python's Merger rules (pysolver/parallel/merge.py) to the progress and
// answers of a run's tasks; tests/test_pool_merge.py feeds both the same task answers. A tally
// holds, per task, whether it answered, its count once it answered ok (null before, or when it
// failed), its fraction done, nodes and solutions, and why its workers died under it (each time
// it ran again); and the latest recent solution a task reported, until the next merged report
// passes it on.

export function emptyTally(count) {
  return {
    answered: new Array(count).fill(false),
    counts: new Array(count).fill(null),
    fractions: new Array(count).fill(0),
    nodes: new Array(count).fill(0),
    found: new Array(count).fill(0),
    reasons: new Array(count).fill([]),
    recent: undefined,
  };
}

function replaced(values, index, value) {
  const copy = values.slice();
  copy[index] = value;
  return copy;
}

// A task's progress report; a late one, from a task that already answered, changes nothing.
export function withProgress(tally, index, progress) {
  if (tally.answered[index]) return tally;
  return {
    ...tally,
    fractions: replaced(tally.fractions, index, progress.fraction ?? tally.fractions[index]),
    nodes: replaced(tally.nodes, index, progress.nodes ?? tally.nodes[index]),
    found: replaced(tally.found, index, progress.solutions ?? tally.found[index]),
    // A task's recent solution is whole (in the puzzle's terms): pass the latest one on.
    recent: progress.recent ?? tally.recent,
  };
}

// A task whose worker died (`reason`) runs again from its start (Python's Merger.retried).
export function withRetry(tally, index, reason) {
  return {
    ...tally,
    fractions: replaced(tally.fractions, index, 0),
    nodes: replaced(tally.nodes, index, 0),
    found: replaced(tally.found, index, 0),
    reasons: replaced(tally.reasons, index, [...tally.reasons[index], reason]),
  };
}

// The tasks that ran again, for the merge call: [{task, reasons}] in task order (Python's merge
// answers them as parallel.retried, adding each task's subtree).
export function retriedTasks(tally) {
  const retried = [];
  tally.reasons.forEach((reasons, task) => {
    if (reasons.length > 0) retried.push({ task, reasons });
  });
  return retried;
}

// A task's answer: an ok one settles its count, nodes and (when complete) its fraction; a
// failed one only marks it answered.
export function withAnswer(tally, index, answer) {
  const answered = replaced(tally.answered, index, true);
  if (!answer.ok) return { ...tally, answered };
  const count = answer.count ?? 0;
  return {
    ...tally,
    answered,
    counts: replaced(tally.counts, index, count),
    fractions: answer.complete ? replaced(tally.fractions, index, 1) : tally.fractions,
    nodes: replaced(tally.nodes, index, answer.stats?.nodes ?? 0),
    found: replaced(tally.found, index, count),
  };
}

// The merged progress: the weight settled while planning plus each task's weight times its
// fraction (summed in Python's order, so the two agree to the last bit); nodes and solutions add.
export function mergedProgress(tally, weights, settled) {
  let done = 0;
  for (let index = 0; index < weights.length; index += 1) done += weights[index] * tally.fractions[index];
  return { nodes: tally.nodes.reduce(add, 0), solutions: tally.found.reduce(add, 0), fraction: settled + done };
}

// From which task on the tasks may stop: after the first tasks, all answered ok, that hold
// `limit` (a BigInt, or null for none) solutions; counts.length while no such prefix exists.
export function limitStop(counts, limit) {
  if (limit === null) return counts.length;
  let total = 0n;
  for (let index = 0; index < counts.length; index += 1) {
    if (counts[index] === null) return counts.length;
    total += BigInt(counts[index]);
    if (total >= limit) return index + 1;
  }
  return counts.length;
}

// How many workers this page may run: {workers, cores, memoryGB, memoryKnown} (the navigator
// is passed in by tests).
export function workerLimit(navigator = globalThis.navigator) {
  const cores = Number(navigator?.hardwareConcurrency) || 1;
  const reported = Number(navigator?.deviceMemory);
  const memoryKnown = reported > 0;
  const memoryGB = memoryKnown ? reported : DEFAULT_DEVICE_MEMORY_GB;
  const byMemory = Math.floor((memoryGB * 1024 * DEVICE_MEMORY_SHARE) / WORKER_MEMORY_MB);
  return { workers: Math.max(1, Math.min(MAX_WORKERS, cores, byMemory)), cores, memoryGB, memoryKnown };
}

// Why a request asking for `asked` workers runs on fewer, in words for parallel.note.
export function limitNote(asked, limit) {
  const memory = `${limit.memoryGB} GB of memory${limit.memoryKnown ? "" : " assumed"}`;
  return `${asked} workers were asked for; this page runs at most ${limit.workers} here ` +
    `(${limit.cores} cores, ${memory}, ${WORKER_MEMORY_MB} MB a worker, at most ${MAX_WORKERS})`;
}

// Words for what the deaths of workers cost a run: null when none died.
export function stopsNote(restarts, lost) {
  if (restarts === 0) return null;
  const times = restarts === 1 ? "a worker stopped (out of memory, or a crash) and was restarted" :
    `workers stopped ${restarts} times (out of memory, or a crash) and were restarted`;
  const rerun = restarts === 1 ? "the task it was running ran again" : "the tasks they were running ran again";
  if (lost.length === 0) return `${times}; ${rerun}, so the answer is whole`;
  const which = lost.length === 1 ? `task ${lost[0]}` : `tasks ${lost.join(", ")}`;
  return `${times}; ${which} stopped its worker ${MAX_TASK_ATTEMPTS} times and was given up, so ` +
    "the answer misses that part of the search (parallel.failed)";
}

// The "merge" call's text: the request and the answers' JSON text as the workers wrote it (big
// counts stay exact), null for a task not run, and the tasks that ran again after their worker
// died (`retried`, from retriedTasks; pysolver.parallel.page.merge_text).
export function mergeRequestText(requestJSON, cancelled, answerTexts, retried = []) {
  const responses = answerTexts.map((answer) => answer ?? "null").join(", ");
  return `{"request": ${requestJSON}, "cancelled": ${cancelled}, "responses": [${responses}], ` +
    `"retried": ${JSON.stringify(retried)}}`;
}

// Runs a plan's tasks, in order, on the first worker and on up to `wanted` - 1 extra ones
// (`workers`: {first, extras, broken(), startExtras(count)} of the pool); resolves to the
// answers' texts (null for a task not run), notes for the response, how many workers ran, the
// restarts and lost tasks (workers that died under a task; see the header) and the tasks that
// ran again (retriedTasks).
function runTasks(run, plan, wanted, onProgress, workers) {
  const { first, extras } = workers;
  const count = plan.tasks.length;
  const limit = plan.limit === null || plan.limit === undefined ? null : BigInt(plan.limit);
  const texts = new Array(count).fill(null);
  const attempts = new Array(count).fill(0);
  const again = []; // tasks whose worker died under them, to run first
  const lost = [];
  let restarts = 0;
  let tally = emptyTally(count);
  const notes = [];
  const used = new Set();
  let next = 0;
  let stopFrom = count;
  let running = 0;
  let settle;
  const finished = new Promise((resolve) => {
    settle = resolve;
  });
  const started = performance.now();

  function report() {
    if (!onProgress) return;
    const { recent } = tally;
    tally = { ...tally, recent: undefined };
    try {
      onProgress({
        ...mergedProgress(tally, plan.weights, plan.settled),
        seconds: (performance.now() - started) / 1000,
        workers: used.size,
        ...(recent === undefined ? {} : { recent }),
      });
    } catch (error) {
      console.error(error);
    }
  }

  function stopAfterLimit() {
    const from = limitStop(tally.counts, limit);
    if (from >= stopFrom) return;
    stopFrom = from;
    for (const worker of run.workers) if (worker.task !== null && worker.task >= stopFrom) worker.solver.cancel();
  }

  // The next task to run: one whose worker died first, then the next in order; null when none.
  function take() {
    while (again.length > 0) {
      const index = again.shift();
      if (index < stopFrom) return index;
    }
    if (next >= Math.min(count, stopFrom)) return null;
    next += 1;
    return next - 1;
  }

  function done() {
    return running === 0 && (run.cancelled || (again.length === 0 && next >= Math.min(count, stopFrom)));
  }

  // A worker's task died with it: queue it again (or give it up), and wake the workers that
  // had nothing left to do.
  function retry(index, answerText) {
    restarts += 1;
    const reason = parseJSON(answerText).error?.message;
    if (attempts[index] >= MAX_TASK_ATTEMPTS) {
      const message = `the worker running this task stopped ${attempts[index]} times; last: ${reason}`;
      // As Python's process pool gives up such a task (parallel.merge.not_run): the answer
      // stays an answer, incomplete, with the task in parallel.failed. "unavailable" is kept
      // for capacity lost as a whole (no worker left; a lost cluster), which ends the answer.
      texts[index] = JSON.stringify(failedResponse("internal_error", message));
      tally = withAnswer(tally, index, { ok: false });
      lost.push(index);
      return;
    }
    tally = withRetry(tally, index, reason ?? "the worker stopped");
    again.push(index);
    wake((worker) => worker !== run.dying);
  }

  // Start the loops of workers that stopped serving (they ran out of tasks) for requeued ones.
  function wake(allowed) {
    if (run.cancelled) return;
    for (const worker of run.workers) if (!worker.serving && !worker.gone && allowed(worker)) serve(worker);
  }

  // No worker is left to run the tasks still queued (every one that died could not restart):
  // they are answered as lost, so the merge says what is missing.
  function abandon() {
    for (let index = take(); index !== null; index = take()) {
      texts[index] = JSON.stringify(failedResponse("unavailable", "no worker was left to run this task"));
      lost.push(index);
    }
  }

  async function serve(worker) {
    if (!run.workers.includes(worker)) run.workers.push(worker);
    worker.serving = true;
    worker.onServe?.(true);
    for (let index = take(); index !== null && !run.cancelled; index = take()) {
      worker.task = index;
      attempts[index] += 1;
      running += 1;
      used.add(worker);
      const onTaskProgress = (progress) => {
        tally = withProgress(tally, index, progress);
        report();
      };
      let lostWorker = false;
      const onLost = () => {
        lostWorker = true;
      };
      const answerText = await worker.solver.solve(plan.tasks[index], { raw: true, onProgress: onTaskProgress, onLost });
      worker.task = null;
      running -= 1;
      if (lostWorker) {
        run.dying = worker; // not woken by its own retry: it waits for its restart below
        retry(index, answerText);
        run.dying = null;
        report();
        try {
          await worker.solver.ready; // the fresh worker, before it takes another task
        } catch (error) {
          notes.push(`a worker could not restart (${error?.message || error}); the others went on`);
          worker.gone = true;
          break;
        }
        continue;
      }
      texts[index] = answerText;
      tally = withAnswer(tally, index, parseJSON(answerText));
      stopAfterLimit();
      report();
    }
    worker.serving = false;
    worker.onServe?.(false);
    // A restarted worker is left with nobody to run a requeued task: the idle ones take it.
    if (again.length > 0) wake((other) => other !== worker);
    if (!run.cancelled && !run.workers.some((other) => other.serving)) abandon();
    if (done()) settle();
  }

  run.check = () => {
    if (done()) settle();
  };
  serve({ solver: first, task: null, serving: false });
  const extrasWanted = Math.min(wanted, count) - 1;
  let joined = 0;
  run.join = (extra) => {
    if (extra.state === "failed") {
      notes.push(`a worker could not start (${extra.error}); the tasks ran on the workers that did`);
      return;
    }
    if (extra.state !== "idle" || joined >= extrasWanted || done() || run.cancelled) return;
    joined += 1;
    serve({
      solver: extra.solver,
      task: null,
      serving: false,
      onServe: (serving) => {
        extra.state = serving ? "busy" : "idle";
      },
    });
  };
  // Idle extras of earlier runs join at once; more start only if the run is not quick.
  for (const extra of extras) if (extra.state === "idle") run.join(extra);
  const broken = workers.broken();
  if (joined < extrasWanted && broken !== null) {
    notes.push(`a worker could not start earlier (${broken}); the tasks ran on the workers that did`);
  } else if (joined < extrasWanted) {
    setTimeout(() => {
      if (!done() && !run.cancelled) workers.startExtras(extrasWanted);
    }, EXTRA_START_DELAY_MS);
  }
  return finished.then(() => ({ texts, notes, used: used.size, restarts, lost, retried: retriedTasks(tally) }));
}

export function createPool(options = {}) {
  const makeSolver = options.makeSolver ?? (() => createSolver(options));
  const first = makeSolver();
  // Extra workers, in the order they were started: {solver, state, error}.
  const extras = [];
  let starting = null; // the promise of the extra worker being started, if any
  let broken = null; // why an extra worker could not start: then no more are tried
  const limit = options.workerLimit ?? workerLimit();
  let jobs = Math.max(1, Math.min(limit.workers, DEFAULT_WORKERS_CAP));
  // The latest note on workers that died (shown beside the Workers control) and its listeners.
  let shownNote = null;
  const noteListeners = new Set();
  let current = null; // the parallel run under way
  let queue = Promise.resolve();

  // Offer a worker that just loaded (or failed to) to the run under way, if any.
  function offer(extra) {
    if (current && current.join) current.join(extra);
  }

  // Start extra workers one after another until `count` are loading or loaded; each is offered
  // to the run under way as soon as it is ready.
  function startExtras(count) {
    const alive = () => extras.filter((extra) => extra.state !== "failed");
    const step = async () => {
      while (alive().length < count && broken === null) {
        const extra = { solver: makeSolver(), state: "loading", error: null };
        extras.push(extra);
        try {
          await extra.solver.ready;
          extra.state = "idle";
        } catch (error) {
          extra.state = "failed";
          extra.error = error?.message || String(error);
          broken = extra.error; // one failure is enough to know this page cannot hold more
        }
        offer(extra);
      }
      // Workers that finished loading during an earlier run join this one.
      for (const extra of extras) if (extra.state === "idle") offer(extra);
    };
    starting = (starting ?? Promise.resolve()).then(step, step);
    return starting;
  }

  function workerStates() {
    const firstState = first.status.state === "busy" ? "busy" : first.status.state === "ready" ? "idle" : first.status.state;
    // A worker restarting after it died says so, whatever the pool's own state for it.
    const extraState = (extra) => (extra.solver.status.state === "restarting" ? "restarting" : extra.state);
    return [firstState, ...extras.map(extraState)];
  }

  async function runParallel(request, wanted, onProgress) {
    const started = performance.now();
    const text = requestText(request);
    // phase: "plan", "tasks" or "merge"; check(): settle the tasks if none is left running.
    const run = { cancelled: false, phase: "plan", workers: [], check: () => {} };
    run.cancel = () => {
      run.cancelled = true;
      if (run.phase === "plan") first.cancel();
      for (const worker of run.workers) if (worker.task !== null) worker.solver.cancel();
      run.check();
    };
    current = run;
    try {
      const planText = await first.solve(text, { call: "plan", raw: true, onProgress });
      const plan = parseJSON(planText);
      if (!Array.isArray(plan.tasks)) return plan.response ?? plan; // answered, or failed, there
      run.phase = "tasks";
      const workers = { first, extras, broken: () => broken, startExtras };
      const granted = Math.min(wanted, limit.workers);
      const answers = await runTasks(run, plan, granted, onProgress, workers);
      run.phase = "merge";
      const notes = answers.notes;
      if (wanted > granted) notes.unshift(limitNote(wanted, limit));
      const stops = stopsNote(answers.restarts, answers.lost);
      if (stops) notes.unshift(stops);
      shownNote = stops;
      for (const listener of noteListeners) listener(stops);
      const payload = mergeRequestText(text, run.cancelled, answers.texts, answers.retried);
      const response = parseJSON(await first.solve(payload, { call: "merge", raw: true }));
      if (response.ok && response.parallel) {
        response.parallel.jobs = granted;
        response.parallel.workers = answers.used;
        if (notes.length) response.parallel.note = notes.join("; ");
        response.stats = { ...response.stats, seconds: (performance.now() - started) / 1000 };
      }
      return response;
    } finally {
      current = null;
    }
  }

  function solve(request, options = {}) {
    // A text over the limit is refused (by the first worker's solver) before it is even parsed.
    if (typeof request === "string" && tooLarge(request, first.maxRequestChars)) return first.solve(request, options);
    const wanted = jobsOf(request);
    if (wanted <= 1) return first.solve(request, options);
    // One request at a time, as the first worker takes them.
    const result = queue.then(() => runParallel(request, wanted, options.onProgress));
    queue = result.catch(() => {});
    return result.catch((error) => failedResponse("client_error", error?.message || String(error)));
  }

  function cancel() {
    if (current) current.cancel();
    else first.cancel();
  }

  function control() {
    const input = document.createElement("input");
    Object.assign(input, { id: "workers", type: "number", min: "1", max: String(limit.workers), value: String(jobs) });
    input.title = "Pyodide workers a solve may use (each loads its own copy of Python; " +
      `this device allows ${limit.workers})`;
    input.addEventListener("change", () => {
      const value = Math.round(Number(input.value));
      jobs = Number.isFinite(value) ? Math.max(1, Math.min(limit.workers, value)) : 1;
      input.value = String(jobs);
    });
    const label = document.createElement("label");
    label.className = "workers";
    label.append("Workers ", input);
    // What the last parallel run lost to workers that died, in words (hidden after a run
    // where none died).
    const note = document.createElement("span");
    Object.assign(note, { id: "workers-note", className: "workers-note", hidden: shownNote === null });
    note.setAttribute("role", "status");
    const show = (text) => {
      note.textContent = text === null ? "" : sentence(text);
      note.hidden = text === null;
      // A part of the search was given up: shown as an error, not as news of a recovery.
      note.dataset.lost = String(text !== null && text.includes("given up"));
    };
    show(shownNote);
    noteListeners.add(show);
    const control = document.createElement("span");
    control.className = "workers-control";
    control.append(label, note);
    return control;
  }

  const pool = {
    get ready() {
      return first.ready;
    },
    get info() {
      return first.info;
    },
    get status() {
      return first.status;
    },
    get canCancelCleanly() {
      return first.canCancelCleanly;
    },
    get jobs() {
      return jobs;
    },
    solve,
    cancel,
    onStatus: (callback) => first.onStatus(callback),
    workerStates,
    control,
    // What each worker reported when it loaded (versions, load seconds), null while loading.
    workerInfo: () => [first, ...extras.map((extra) => extra.solver)].map((solver) => solver.info),
    // Each worker's Python heap, {bytes, live, objects} (solver.js memory()), first first.
    workerMemory: () => Promise.all([first, ...extras.map((extra) => extra.solver)].map((solver) => solver.memory())),
    // The Worker objects, first first (a worker restarted after it died is a new one).
    workers: () => [first, ...extras.map((extra) => extra.solver)].map((solver) => solver.worker),
  };
  globalThis.__pysolverPool ??= pool; // the test hook (see the header): the page's own pool
  return pool;
}
