// The page's handle on the pysolver worker (web/runtime/worker.mjs, whose header lists the messages;
// the protocol itself is in README.md): createSolver() -> {ready, solve, cancel, onStatus, info,
// status, canCancelCleanly}. solve(request, {onProgress, call, raw}): call "plan" / "merge" are
// the pool's steps (web/runtime/pool.js); raw: true resolves with the response's JSON text as Python
// wrote it (the pool passes task answers on to the merge without re-encoding them).
//
// One request runs at a time and later ones queue. Responses are parsed from the JSON text
// Python wrote, with integers beyond 2^53 turned into BigInt so exact counts arrive whole.
// Failures the page itself detects answer in the protocol's error shape, with the page-only
// codes listed beside Python's in pysolver/protocol.py's ERROR_CODES (cancelled, unavailable,
// client_error; internal_error when Python crashed).

const DEFAULT_LOAD_TIMEOUT_MS = 60_000;
// After asking Python to stop, how long to wait for its partial answer before killing the worker
// (a kind still building its model does not look at the cancel flag yet).
const CANCEL_GRACE_MS = 1_500;

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

  const statusListeners = new Set();
  const queue = [];
  let status = { state: "loading", message: "Loading Python…" };
  let worker = null;
  let ready = null;
  let info = null;
  let current = null; // {id, text, resolve, onProgress, posted, cancelTimer}
  let nextId = 1;

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
    own.onerror = (event) => {
      event.preventDefault();
      if (worker !== own) return;
      if (info === null) {
        fail(`the worker script failed to start (${event.message || "worker.mjs missing or served with the wrong type"})`);
      } else {
        crashed(event.message || "the worker stopped unexpectedly");
      }
    };
    own.onmessage = (event) => {
      if (worker !== own) return; // a message from a worker we already terminated
      const message = event.data;
      switch (message.type) {
        case "ready":
          clearTimeout(timer);
          info = message.info;
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
        default:
          console.warn("pysolver worker: unknown message", message);
      }
    };
    own.postMessage({ type: "init", cancelBuffer: cancelFlag ? cancelFlag.buffer : null });
  }

  // text: the JSON text Python wrote, when there is one (the page's own answers have none).
  function finish(response, text = null) {
    const done = current;
    current = null;
    clearTimeout(done.cancelTimer);
    if (info !== null) setStatus("ready", "Ready");
    done.resolve(done.raw ? (text ?? JSON.stringify(response)) : response);
    pump();
  }

  function restart() {
    if (worker) worker.terminate();
    worker = null;
    start("restarting");
  }

  function crashed(message) {
    restart();
    if (current) {
      finish(failedResponse("internal_error", `Python stopped (${message}); it has been restarted`));
    }
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
    worker.postMessage({ type: "solve", id: job.id, text: job.text, call: job.call });
  }

  function solve(request, { onProgress, call = "solve", raw = false } = {}) {
    let text;
    try {
      text = requestText(request);
    } catch (error) {
      const failed = failedResponse("client_error", `the request cannot be sent: ${error.message}`);
      return Promise.resolve(raw ? JSON.stringify(failed) : failed);
    }
    return new Promise((resolve) => {
      queue.push({ id: nextId++, text, call, raw, resolve, onProgress, posted: false, cancelTimer: null });
      pump();
    });
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
    solve,
    cancel,
    onStatus,
  };
}
