// The page's handle on the pysolver worker (web/runtime/worker.mjs, whose header lists the messages;
// the protocol itself is in docs/protocol.md): createSolver() -> {ready, solve, cancel, onStatus, info,
// status, canCancelCleanly, stops, worker, memory}. solve(request, {onProgress, onLost, call, raw}):
// onLost() is called when the worker died under this request; call "plan" / "merge" are
// the pool's steps (web/runtime/pool.js); raw: true resolves with the response's JSON text as Python
// wrote it (the pool passes task answers on to the merge without re-encoding them).
//
// One request runs at a time and later ones queue. Responses are parsed from the JSON text
// Python wrote, with integers beyond 2^53 turned into BigInt so exact counts arrive whole.
// Failures the page itself detects answer in the protocol's error shape, with the page-only
// codes listed beside Python's in pysolver/protocol.py's ERROR_CODES (cancelled, unavailable,
// client_error). A request text longer than the protocol's limit (facts.json's
// max_request_chars), or nested deeper (max_request_depth: see tooDeep), is refused here as
// too_large, before it is copied to the worker.
//
// A worker that dies while solving (out of memory, a crash, or ended from outside) is noticed
// however it died: its `error` and `messageerror` events, a "fatal" message from the worker, and
// a Web Lock the worker holds while it lives (the lock is released when the worker ends, even by
// terminate(), which fires no event; every current browser has Web Locks in secure contexts).
// Where there are no Web Locks, a watchdog ends a worker that sends nothing for WATCHDOG_MS while
// solving. The solve answers `unavailable` in plain words, a fresh worker starts for the next one,
// `stops` counts the deaths, and a solve's `onLost` callback says its own worker died under it
// (the pool re-runs such a task, web/runtime/pool.js).

const DEFAULT_LOAD_TIMEOUT_MS = 60_000;
// After asking Python to stop, how long to wait for its partial answer before killing the worker
// (a kind still building its model does not look at the cancel flag yet).
const CANCEL_GRACE_MS = 1_500;
// Without Web Locks: how long a worker may send nothing (no progress, no answer) while solving
// before it is taken for dead. Searches report progress several times a second; building the
// largest models the limits allow takes well under this.
const WATCHDOG_MS = 120_000;

// The protocol's limits on a request text, from facts.json (Python wrote them at build time):
// {chars, depth}, the most characters and the deepest nesting; each null when facts.json cannot
// be read, and then Python's own checks refuse (but for the depth, see tooDeep).
let requestLimits = null;
export function readRequestLimits(factsURL = new URL("../facts.json", import.meta.url)) {
  const limit = (value) => (Number.isSafeInteger(value) ? value : null);
  requestLimits ??= fetch(factsURL)
    .then((response) => (response.ok ? response.json() : null))
    .catch(() => null)
    .then((facts) => ({ chars: limit(facts?.max_request_chars), depth: limit(facts?.max_request_depth) }));
  return requestLimits;
}

// The too_large answer to a request text over `limit` characters, in Python's words
// (pysolver.protocol.request_too_large); null when it is within the limit (or none is known).
export function tooLarge(text, limit) {
  if (limit === null || text.length <= limit) return null;
  const number = (value) => value.toLocaleString("en-US");
  return failedResponse("too_large",
    `request is ${number(text.length)} characters; the limit is ${number(limit)}; send a smaller one`);
}

// JSON.parse reviver: integers too large for a Number become BigInt, read from the source text
// (the reviver's third argument, supported by current Chromium, Firefox and Safari).
export function bigIntReviver(key, value, context) {
  if (
    typeof value === "number" &&
    !Number.isSafeInteger(value) &&
    context &&
    typeof context.source === "string" &&
    /^-?\d+$/.test(context.source)
  ) {
    return BigInt(context.source);
  }
  return value;
}

export function parseJSON(text) {
  return JSON.parse(text, bigIntReviver);
}

// JSON text of a request; BigInt values are written as plain integers.
export function requestText(request) {
  if (typeof request === "string") return request;
  return JSON.stringify(request, (key, value) => {
    if (typeof value !== "bigint") return value;
    return typeof JSON.rawJSON === "function" ? JSON.rawJSON(value.toString()) : Number(value);
  });
}

// The too_large answer to a request text whose arrays and objects nest deeper than `limit`, in
// Python's words (pysolver.protocol.request_too_deep); null when it is within the limit. Python
// reads JSON recursively: in CPython too deep a text raises RecursionError, answered too_large,
// but in Pyodide a few thousand levels overflow the worker's stack, which ends Python (a 100 KB
// text of brackets would). One pass over the characters, strings skipped.
export function tooDeep(text, limit) {
  if (limit === null || text.length <= limit) return null;
  const [QUOTE, BACKSLASH, OPEN_ARRAY, CLOSE_ARRAY, OPEN_OBJECT, CLOSE_OBJECT] = [34, 92, 91, 93, 123, 125];
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index += 1; // the escaped character cannot end the string
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      depth += 1;
      if (depth > limit) return failedResponse("too_large", "the request is nested too deeply to read; flatten it");
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
      depth -= 1;
    }
  }
  return null;
}

// A response for a request that Python did not answer; code is one of ERROR_CODES.
export function failedResponse(code, message) {
  return { ok: false, error: { code, message, path: "" } };
}

function cancelledResponse() {
  return { ...failedResponse("cancelled", "Cancelled."), cancelled: true };
}

// "Loading Python: downloading the standard library (4.2 of 12.3 MB)…"
function loadingWords({ text, loaded, total }) {
  const megabytes = (bytes) => (bytes / 1e6).toFixed(1);
  const amount = total > 0 ? ` (${megabytes(loaded)} of ${megabytes(total)} MB)` : "";
  return `Loading Python: ${text}${amount}…`;
}

export function createSolver(options = {}) {
  const workerURL = options.workerURL ?? new URL("./worker.mjs", import.meta.url);
  const loadTimeoutMs = options.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS;
  // A shared flag lets Python notice a cancel while it is busy; it needs cross-origin isolation.
  const canShare = typeof SharedArrayBuffer === "function" && globalThis.crossOriginIsolated === true;
  const cancelFlag = canShare ? new Int32Array(new SharedArrayBuffer(4)) : null;
  // options.locks: null to go without Web Locks (a test of the watchdog).
  const locks = options.locks !== undefined ? options.locks : (globalThis.navigator?.locks ?? null);
  const watchdogMs = options.watchdogMs ?? (locks ? null : WATCHDOG_MS);
  // The request limits ({chars, depth}): undefined until facts.json is read (solves wait for it
  // the first time). options.maxRequestChars / maxRequestDepth set one (null: no check).
  let knownLimits;
  const given = { chars: options.maxRequestChars, depth: options.maxRequestDepth };
  const chosen = (name, read) => (given[name] !== undefined ? given[name] : read[name]);
  const limits = given.chars !== undefined && given.depth !== undefined ?
    Promise.resolve(given) :
    readRequestLimits().then((read) => ({ chars: chosen("chars", read), depth: chosen("depth", read) }));
  limits.then((read) => {
    knownLimits = read;
  });

  const statusListeners = new Set();
  const queue = [];
  let status = { state: "loading", message: "Loading Python…" };
  let worker = null;
  let ready = null;
  let info = null;
  let current = null; // {id, text, resolve, onProgress, posted, cancelTimer}
  let nextId = 1;
  let stops = 0; // how many times a worker died (not counting the restarts a cancel asks for)
  let watchdog = null;
  const memoryAsked = new Map(); // id -> resolve, for memory() (see there)

  // progress (while loading): {loaded, total} bytes of the runtime's downloads.
  function setStatus(state, message, progress = null) {
    status = { state, message, progress };
    for (const listener of statusListeners) {
      try {
        listener(status);
      } catch (error) {
        console.error(error);
      }
    }
  }

  function start(state) {
    setStatus(state, state === "restarting" ? "Restarting Python…" : "Loading Python…");
    info = null;
    const startedAt = performance.now();
    let settle;
    ready = new Promise((resolve, reject) => {
      settle = { resolve, reject };
    });
    ready.catch(() => {}); // the failure is reported through status and every waiting solve
    let timer = null;
    // The load gives up after loadTimeoutMs without news, not after loadTimeoutMs in all: the
    // downloads report progress, so a slow connection still loading is not cut off.
    const armTimer = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        fail(`Python did not load: nothing happened for ${Math.round(loadTimeoutMs / 1000)} s; serve the site with ` +
          "\"python3 build.py serve\" (it sends .wasm as application/wasm and .mjs as text/javascript)");
      }, loadTimeoutMs);
    };
    if (globalThis.location && globalThis.location.protocol === "file:") {
      fail("the page was opened from a file; web workers need it served over HTTP: run " +
        "\"python3 build.py serve\" and open the address it prints");
      return;
    }
    armTimer();

    function fail(message) {
      clearTimeout(timer);
      if (worker) worker.terminate();
      worker = null;
      setStatus("error", message);
      settle.reject(new Error(message));
    }

    let own;
    try {
      own = new Worker(workerURL, { type: "module" });
    } catch (error) {
      fail(`could not start the worker: ${error.message}`);
      return;
    }
    worker = own;
    // Named after this worker alone: the worker holds it while it lives (see the header).
    const lifeLock = locks ? `pysolver-worker-${crypto.randomUUID()}` : null;
    own.onerror = (event) => {
      event.preventDefault();
      if (worker !== own) return;
      if (info === null) {
        fail(`the worker script failed to start (${event.message || "worker.mjs missing or served with the wrong type"})`);
      } else {
        crashed(event.message || "its worker stopped unexpectedly");
      }
    };
    own.onmessageerror = () => {
      if (worker === own) crashed("its answer could not be read");
    };
    own.onmessage = (event) => {
      if (worker !== own) return; // a message from a worker we already terminated
      const message = event.data;
      if (current?.posted) watch();
      switch (message.type) {
        case "alive":
          // The worker holds its lock now: ours is granted when the worker ends, however.
          locks.request(lifeLock, () => {
            if (worker !== own) return; // ended by this page (a restart): nothing to report
            if (info === null) fail("the worker stopped while Python was loading");
            else crashed("the browser ended its worker");
          });
          break;
        case "ready":
          clearTimeout(timer);
          // startSeconds: from new Worker() to ready, as the page waited (info.seconds is the
          // worker's own load time, from its first message).
          info = { ...message.info, startSeconds: (performance.now() - startedAt) / 1000 };
          setStatus(current ? "busy" : "ready", "Ready");
          settle.resolve(info);
          break;
        case "error":
          fail(message.message); // the page shows it after "Python failed to load: "
          break;
        case "loading":
          if (info === null) {
            armTimer();
            setStatus(status.state, loadingWords(message), message);
          }
          break;
        case "progress":
          if (current && current.id === message.id && current.onProgress) {
            try {
              current.onProgress(parseJSON(message.text));
            } catch (error) {
              console.error(error);
            }
          }
          break;
        case "result":
          if (current && current.id === message.id) finish(current.raw ? null : parseJSON(message.text), message.text);
          break;
        case "fatal":
          crashed(message.message);
          break;
        case "snapshot":
          // The worker kept (or failed to keep) its warmed-up Python for the next start: said
          // in the ready info, for the benchmark and the tests.
          if (info !== null) info.snapshot = { kept: message.kept, bytes: message.bytes, seconds: message.seconds };
          break;
        case "memory":
          memoryAsked.get(message.id)?.({ bytes: message.bytes, live: message.live ?? null, objects: message.objects ?? null });
          memoryAsked.delete(message.id);
          break;
        default:
          console.warn("pysolver worker: unknown message", message);
      }
    };
    own.postMessage({ type: "init", cancelBuffer: cancelFlag ? cancelFlag.buffer : null, lifeLock });
  }

  // text: the JSON text Python wrote, when there is one (the page's own answers have none).
  function finish(response, text = null) {
    const done = current;
    current = null;
    clearTimeout(done.cancelTimer);
    clearTimeout(watchdog);
    if (info !== null) setStatus("ready", "Ready");
    done.resolve(done.raw ? (text ?? JSON.stringify(response)) : response);
    pump();
  }

  function restart() {
    if (worker) worker.terminate();
    worker = null;
    start("restarting");
  }

  // The worker died: words for the user, a fresh worker, and the solve under way answered.
  function crashed(reason) {
    stops += 1;
    restart();
    setStatus("restarting", "Python stopped (out of memory, or a crash); restarting it…");
    const job = current;
    if (job) {
      finish(failedResponse("unavailable",
        `Python stopped while solving (${reason}; most often it ran out of memory) and has been ` +
        "restarted: solve again, or try a smaller puzzle"));
      if (job.onLost) job.onLost(); // before the solve's caller resumes: it is told in time
    }
  }

  // Without Web Locks: a worker silent for watchdogMs while solving is taken for dead.
  function watch() {
    if (watchdogMs === null) return;
    clearTimeout(watchdog);
    watchdog = setTimeout(() => {
      if (current?.posted) crashed(`its worker sent nothing for ${Math.round(watchdogMs / 1000)} s`);
    }, watchdogMs);
  }

  async function pump() {
    if (current || queue.length === 0) return;
    current = queue.shift();
    const job = current;
    try {
      // The worker may be restarted while we wait: wait for whichever is current.
      let awaited;
      do {
        awaited = ready;
        await awaited;
      } while (awaited !== ready);
    } catch (error) {
      if (current === job) finish(failedResponse("unavailable", `Python is not available: ${error.message}`));
      return;
    }
    if (current !== job) return; // cancelled while waiting for Python to load
    job.posted = true;
    setStatus("busy", "Solving…");
    watch();
    worker.postMessage({ type: "solve", id: job.id, text: job.text, call: job.call });
  }

  function solve(request, { onProgress, onLost, call = "solve", raw = false } = {}) {
    let text;
    try {
      text = requestText(request);
    } catch (error) {
      const failed = failedResponse("client_error", `the request cannot be sent: ${error.message}`);
      return Promise.resolve(raw ? JSON.stringify(failed) : failed);
    }
    const submit = ({ chars, depth }) => {
      // A merge carries the task answers besides the request: only its parts were checked.
      const refused = call === "merge" ? null : (tooLarge(text, chars) ?? tooDeep(text, depth));
      if (refused) return Promise.resolve(raw ? JSON.stringify(refused) : refused);
      return new Promise((resolve) => {
        queue.push({ id: nextId++, text, call, raw, resolve, onProgress, onLost, posted: false, cancelTimer: null });
        pump();
      });
    };
    // Queued at once when the limit is known, so a cancel() right after solve() finds it.
    return knownLimits !== undefined ? submit(knownLimits) : limits.then(submit);
  }

  function cancel() {
    const job = current;
    if (!job) return;
    if (!job.posted) {
      finish(cancelledResponse());
      return;
    }
    if (cancelFlag) {
      Atomics.store(cancelFlag, 0, job.id);
      clearTimeout(job.cancelTimer);
      job.cancelTimer = setTimeout(() => {
        if (current === job) hardCancel();
      }, CANCEL_GRACE_MS);
    } else {
      hardCancel();
    }
  }

  function hardCancel() {
    restart(); // first, so the next queued request waits for the new worker
    finish(cancelledResponse());
  }

  // The worker's Python heap, once it is ready and done with the solve under way: {bytes, live,
  // objects}. bytes: Pyodide's WebAssembly memory (which only grows: the most it has used);
  // after a garbage collection, live: the bytes in use, objects: Python's tracked objects
  // (what earlier solves kept); null where it cannot tell. For bench/bench_pool.py,
  // bench/page_soak.py and the curious.
  async function memory() {
    await ready;
    const id = nextId++;
    return new Promise((resolve) => {
      memoryAsked.set(id, resolve);
      worker.postMessage({ type: "memory", id });
    });
  }

  function onStatus(callback) {
    statusListeners.add(callback);
    callback(status);
    return () => statusListeners.delete(callback);
  }

  start("loading");

  return {
    get ready() {
      return ready;
    },
    get info() {
      return info;
    },
    get status() {
      return status;
    },
    get canCancelCleanly() {
      return cancelFlag !== null;
    },
    // The protocol's limit on a request's characters, once facts.json was read (else null).
    get maxRequestChars() {
      return knownLimits?.chars ?? null;
    },
    // How many times the worker died while this solver ran (each time a fresh one started).
    get stops() {
      return stops;
    },
    // The Worker itself, for tests that end it from outside (tests/e2e/test_pool.py).
    get worker() {
      return worker;
    },
    solve,
    cancel,
    onStatus,
    memory,
  };
}
