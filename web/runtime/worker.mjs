// The web worker that runs pysolver inside Pyodide (a module worker: Pyodide 314 needs one).
//
// It loads the runtime once from this site (never from the network at large), installs the
// pysolver wheel named in manifest.json, and then answers one request at a time. A start after
// the first begins from a snapshot of Python's heap with pysolver imported (web/runtime/snapshot.js),
// which the first start made once it had warmed up.
//
// Messages in:  {type: "init", cancelBuffer: SharedArrayBuffer | null, lifeLock: name | null}
//               {type: "memory", id}                the size of this worker's Python heap
//               {type: "solve", id, text, call}     text: the request as JSON; call: "solve"
//                                                   (default), or for the pool of workers
//                                                   (web/runtime/pool.js) "plan" or "merge"
//                                                   (all answered by pysolver.webworker)
// Messages out: {type: "alive"}                     the worker holds the Web Lock `lifeLock`
//                                                   until it ends (so the page learns of its
//                                                   end, even by terminate(); solver.js)
//               {type: "ready", info}               info: versions, load time (seconds), whether
//                                                   Python started from a snapshot (fromSnapshot)
//                                                   and the seconds to each step (phases)
//               {type: "snapshot", kept, bytes, seconds}  after the warm-up of a start without
//                                                   a snapshot: whether one was made and kept
//               {type: "error", message}            loading failed; the message says why
//               {type: "loading", text, loaded, total}  loading progress: what is loading now
//                                                   and the bytes of the downloads so far/in all
//               {type: "progress", id, text}        text: JSON {nodes, solutions, fraction, seconds,
//                                                   recent?} (recent: a solution found lately, when
//                                                   the request says "recent": true)
//               {type: "result", id, text}          text: the response as JSON (Python's own text,
//                                                   so big integers stay exact)
//               {type: "memory", id, bytes, live, objects}  bytes: Pyodide's WebAssembly
//                                                   memory now (it only grows: the most this
//                                                   worker has used); after a garbage collection,
//                                                   live: the bytes malloc has handed out and not
//                                                   got back, objects: Python's tracked objects
//                                                   (what the solves so far kept)
//               {type: "fatal", id, message}        the runtime itself broke; restart the worker
//
// Cancelling: with a SharedArrayBuffer the page writes the id of the request to cancel into
// cancelFlag[0]; Python's cancel hook reads it between search steps, so the search stops
// cleanly and answers with its partial count. Without one the page terminates this worker.

import { trackDownloads } from "./downloads.js";
import { canKeepSnapshots, dropSnapshot, findSnapshot, keepSnapshot, snapshotKey } from "./snapshot.js";

let cancelFlag = null;
let connect = null; // pysolver.webworker.connect: makes the answerer below, once
let answer = null; // its answerer: answer(text, id, call) -> the answer as JSON text
let liveObjects = null; // pysolver.webworker.live_objects, for the "memory" message
let warmUpPython = null;
let outOfMemory = null; // pysolver.webworker.OUT_OF_MEMORY_TEXT: the answer when Python runs out
let pyodideModule = null; // its HEAPU8 views Pyodide's WebAssembly memory: this worker's Python heap
// The start's work left once the worker has said it is ready, done at the first chance and
// always before the first solve: the wheel's files after a start from a snapshot, the warm-up,
// and after a start without one, the snapshot of the warmed-up heap for the next start.
let finishStart = null;


// Words for whatever was thrown: Pyodide's loader can reject with plain objects and events,
// which String() would turn into "[object Object]".
function describe(error) {
  if (error instanceof Error) return error.message || String(error);
  if (error && typeof error.message === "string" && error.message) return error.message;
  if (error && typeof error.type === "string") return `a ${error.type} event`;
  try {
    const text = JSON.stringify(error);
    if (text && text !== "{}") return text;
  } catch {
    // not serialisable: fall through
  }
  return String(error);
}

async function fetchManifest() {
  const url = new URL("../manifest.json", import.meta.url);
  let response;
  try {
    response = await fetch(url, { cache: "no-cache" });
  } catch (error) {
    throw new Error(`could not fetch ${url.pathname}: ${describe(error)}`, { cause: error });
  }
  if (!response.ok) {
    throw new Error(`${url.pathname} answered ${response.status}; build the site with "python3 build.py"`);
  }
  return { manifest: await response.json(), base: url };
}

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

// Fetch a wheel and check it against the sha256 build.py recorded, so a missing or stale file
// gives a message that says so (the loader would only say "File is not a zip file"). Run only
// after installing failed: wheels are content-named, so a good build needs no check.
async function checkWheel(url, sha256) {
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`${new URL(url).pathname} answered ${response.status}; rebuild with "python3 build.py"`);
  }
  const digest = hex(await crypto.subtle.digest("SHA-256", await response.arrayBuffer()));
  if (sha256 && digest !== sha256) {
    throw new Error(`${new URL(url).pathname} does not match manifest.json; rebuild with "python3 build.py"`);
  }
}

async function load(cancelBuffer) {
  const started = performance.now();
  cancelFlag = cancelBuffer ? new Int32Array(cancelBuffer) : null;
  const { manifest, base } = await fetchManifest();
  const downloads = trackDownloads(manifest, base, (message) => self.postMessage(message), started);
  try {
    return await loadWith(manifest, base, downloads, started);
  } finally {
    downloads.stop();
  }
}

// The seconds from the start of the load to each of its steps, in the ready info (bench_loading
// prints them): where a start's time goes, on this machine and in this visit.
function startPhases(started) {
  const phases = {};
  return {
    phases,
    mark(name) {
      phases[name] = Math.round(performance.now() - started) / 1000;
    },
  };
}

// Mark when Pyodide's WebAssembly module is compiled and instantiated (inside loadPyodide);
// returns the function that puts WebAssembly's own functions back.
function markInstantiation(mark) {
  const originals = {};
  for (const name of ["instantiateStreaming", "instantiate"]) {
    const original = WebAssembly[name];
    originals[name] = original;
    WebAssembly[name] = async function (...args) {
      const result = await original.apply(this, args);
      mark("runtime compiled");
      return result;
    };
  }
  return () => Object.assign(WebAssembly, originals);
}

async function startPython(loadPyodide, indexURL, mark, options) {
  const putBack = markInstantiation(mark);
  try {
    return await loadPyodide({
      indexURL,
      stdout: (line) => console.log(`[python] ${line}`),
      stderr: (line) => console.warn(`[python] ${line}`),
      ...options,
    });
  } finally {
    putBack();
  }
}

// The wheel's bytes, fetched as soon as the manifest names it (it is needed once Python runs).
// A failed download says so here, when the wheel is installed.
async function fetchWheel(wheelURL) {
  const response = await fetch(wheelURL);
  if (!response.ok) {
    throw new Error(`${new URL(wheelURL).pathname} answered ${response.status}; rebuild with "python3 build.py"`);
  }
  return response.arrayBuffer();
}

// Unpack the wheel into site-packages with Pyodide's own unpacker (no package installer to
// download and import first: micropip cost a second of a warm start). Not pyodide.loadPackage:
// it records the package in a JavaScript object Python refers to, and a heap snapshot refuses
// such state. A stale or broken wheel fails at the import.
function unpackWheel(pyodide, bytes) {
  const sitePackages = pyodide.runPython("import sysconfig\nsysconfig.get_path('purelib')");
  pyodide.unpackArchive(bytes, "wheel", { extractDir: sitePackages });
}

// Python from the kept snapshot of this build (web/runtime/snapshot.js), or null when there is
// none or it does not work (then it is dropped, and Python starts the ordinary way). found: the
// promise of findSnapshot(key), started early; wheel: the promise of the wheel's bytes.
// Returns {pyodide, unpack}: the heap has pysolver imported, but the wheel's files are not in it
// (lazy imports and tracebacks read them), and unpack() puts them in place (after ready).
async function startFromSnapshot(loadPyodide, indexURL, wheel, found, key, timing) {
  const snapshot = await found.catch((error) => {
    console.warn(`pysolver: the kept Python snapshot could not be read (${describe(error)})`);
    return null;
  });
  timing.mark("snapshot found");
  if (!snapshot) return null;
  const drop = async (error) => {
    console.warn(`pysolver: the kept Python snapshot did not start (${describe(error)}); starting afresh`);
    await dropSnapshot(key).catch(() => {});
    return null;
  };
  let pyodide;
  try {
    pyodide = await startPython(loadPyodide, indexURL, timing.mark, { _loadSnapshot: snapshot.bytes });
    pyodide.runPython("import pysolver.webworker");
  } catch (error) {
    return drop(error);
  }
  timing.mark("python started");
  // Files the heap does not hold and a download may have missed (Pyodide only logs a standard
  // library that did not arrive): no fault of the snapshot. Python starting afresh then fails
  // and says so, in words, with what to do.
  const stdlib = "import os, sys\nall(os.path.isfile(entry) for entry in sys.path if entry.endswith('.zip'))";
  if (!pyodide.runPython(stdlib)) return null;
  const bytes = await wheel.catch(() => null);
  if (bytes === null) return null;
  return { pyodide, unpack: () => unpackWheel(pyodide, bytes) };
}

async function loadWith(manifest, base, downloads, started) {
  const timing = startPhases(started);
  timing.mark("manifest");
  downloads.report("starting the Python runtime");
  const indexURL = new URL(manifest.pyodide.indexURL, base).href;
  const wheelURL = new URL(manifest.pysolver.wheel, base).href;
  const key = snapshotKey(manifest, base);
  // Started together: the snapshot's lookup, the wheel's download and the runtime's script.
  const found = findSnapshot(key);
  const wheel = fetchWheel(wheelURL);
  wheel.catch(() => {}); // reported where it is awaited
  let loadPyodide;
  try {
    ({ loadPyodide } = await import(`${indexURL}pyodide.mjs`));
  } catch (error) {
    throw new Error(`could not load the Pyodide runtime from ${indexURL}: ${describe(error)}`, { cause: error });
  }
  timing.mark("runtime script");
  const restored = await startFromSnapshot(loadPyodide, indexURL, wheel, found, key, timing);
  const fromSnapshot = restored !== null;
  let pyodide = restored?.pyodide;
  if (fromSnapshot) {
    finishStart = () => {
      try {
        restored.unpack();
      } catch (error) {
        console.warn(`pysolver: the wheel's files were not unpacked (${describe(error)})`);
      }
      warmUp();
    };
  } else {
    try {
      pyodide = await startPython(loadPyodide, indexURL, timing.mark, { _makeSnapshot: canKeepSnapshots() });
    } catch (error) {
      throw new Error(`the Pyodide runtime in ${new URL(indexURL).pathname} did not start ` +
        `(${describe(error)}); a file may be missing: rebuild with "python3 build.py"`, { cause: error });
    }
    timing.mark("python started");
    try {
      downloads.report("installing pysolver");
      unpackWheel(pyodide, await wheel);
      timing.mark("wheel installed");
      pyodide.runPython("import pysolver");
    } catch (error) {
      // Say that the wheel is missing or stale if that is the cause; else report the failure itself.
      await checkWheel(wheelURL, manifest.pysolver.sha256);
      throw new Error(`installing pysolver failed: ${describe(error)}`, { cause: error });
    }
    timing.mark("pysolver imported");
    finishStart = () => {
      if (warmUp() && canKeepSnapshots()) keepWarmSnapshot(pyodide, key);
    };
  }
  downloads.report("starting pysolver");
  // The Python side of this bridge (progress, cancel hook, plan/merge/solve) is a module of
  // the package: pysolver/webworker.py.
  connect = pyodide.runPython("from pysolver.webworker import connect\nconnect");
  liveObjects = pyodide.runPython("from pysolver.webworker import live_objects\nlive_objects");
  warmUpPython = pyodide.runPython("from pysolver.webworker import warm_up\nwarm_up");
  outOfMemory = pyodide.runPython("from pysolver.webworker import OUT_OF_MEMORY_TEXT\nOUT_OF_MEMORY_TEXT");
  pyodideModule = pyodide._module;
  const version = pyodide.runPython("import pysolver; pysolver.__version__");
  timing.mark("bridge");
  return {
    pyodide: pyodide.version,
    pysolver: version,
    wheel: manifest.pysolver.version,
    crossOriginIsolated: Boolean(self.crossOriginIsolated && cancelFlag),
    seconds: (performance.now() - started) / 1000,
    fromSnapshot,
    phases: { ...timing.phases, ...downloads.finished() },
  };
}

// The bytes malloc (Emscripten's dlmalloc, under Python's allocator) has handed out and not got
// back: mallinfo()'s uordblks, the live part of the WebAssembly memory, which can shrink.
function mallocInUse() {
  if (typeof pyodideModule?._mallinfo !== "function") return null;
  const info = pyodideModule._malloc(40); // struct mallinfo: ten 32-bit fields, returned through it
  try {
    pyodideModule._mallinfo(info);
    return pyodideModule.HEAPU32[(info >> 2) + 7];
  } finally {
    pyodideModule._free(info);
  }
}

// Import every kind now, while the person looks at the page, rather than at each kind's first
// solve (pysolver/webworker.py warm_up). True if it went well.
function warmUp() {
  try {
    warmUpPython();
    return true;
  } catch (error) {
    // Only a head start: a kind that fails to import here fails again, visibly, at its solve.
    console.warn(`pysolver warm-up: ${describe(error)}`);
    return false;
  }
}

function finishStarting() {
  const finish = finishStart;
  finishStart = null;
  if (finish) finish();
}

// Snapshot the warmed-up heap (synchronously, before any solve can run) and keep it for the next
// start; a failure only costs the next start its head start.
// Says how it went in a {type: "snapshot", kept, bytes, seconds} message.
function keepWarmSnapshot(pyodide, key) {
  const started = performance.now();
  const report = (kept, bytes) => {
    const seconds = (performance.now() - started) / 1000;
    self.postMessage({ type: "snapshot", kept, bytes, seconds });
  };
  let bytes;
  try {
    bytes = pyodide.makeMemorySnapshot();
  } catch (error) {
    console.warn(`pysolver: no Python snapshot made (${describe(error)})`);
    report(false, 0);
    return;
  }
  keepSnapshot(key, bytes).then(() => report(true, bytes.byteLength), (error) => {
    console.warn(`pysolver: the Python snapshot was not kept (${describe(error)})`);
    report(false, 0);
  });
}

function postProgress(id, text) {
  self.postMessage({ type: "progress", id, text });
}

function isCancelled(id) {
  return Atomics.load(cancelFlag, 0) === id;
}

function solveOne(id, text, call) {
  try {
    const result = answer(text, id, call ?? "solve");
    self.postMessage({ type: "result", id, text: result });
  } catch (error) {
    if (error && error.constructor && error.constructor.name === "PythonError" && outOfMemory &&
        (error.type === "MemoryError" || /\bMemoryError\b/.test(String(error.message)))) {
      // Out of memory past the solve's own guard (its answer, the bridge, the exception hook):
      // Python's too_large answer, written at import; the worker keeps serving.
      self.postMessage({ type: "result", id, text: outOfMemory });
    } else if (error && error.constructor && error.constructor.name === "PythonError") {
      // pysolver.solve never raises on bad input, so this is a bug in the bridge: report it
      // as the protocol's internal error and keep serving.
      const response = {
        ok: false,
        error: { code: "internal_error", message: `Python raised: ${describe(error)}`, path: "" },
      };
      self.postMessage({ type: "result", id, text: JSON.stringify(response) });
    } else {
      // A JavaScript-level failure (out of memory, stack overflow) leaves Pyodide unusable.
      self.postMessage({ type: "fatal", id, message: describe(error) });
    }
  }
}

self.onmessage = async (event) => {
  const message = event.data;
  if (message.type === "init") {
    if (message.lifeLock && self.navigator.locks) {
      // Held until this worker ends: the callback's promise never settles. Not awaited.
      self.navigator.locks.request(message.lifeLock, () => {
        self.postMessage({ type: "alive" });
        return new Promise(() => {});
      });
    }
    try {
      const info = await load(message.cancelBuffer);
      self.postMessage({ type: "ready", info });
      // What is left of the start (the warm-up above all) runs now, while the person looks at
      // the page; a solve sent meanwhile waits its turn.
      setTimeout(finishStarting, 0);
    } catch (error) {
      self.postMessage({ type: "error", message: describe(error) });
    }
  } else if (message.type === "memory") {
    // The heap view is replaced when the memory grows: read it through the module, now.
    const bytes = pyodideModule ? pyodideModule.HEAPU8.buffer.byteLength : null;
    const objects = liveObjects ? liveObjects() : null; // first: it collects the garbage
    self.postMessage({ type: "memory", id: message.id, bytes, live: mallocInUse(), objects });
  } else if (message.type === "solve") {
    if (!connect) {
      self.postMessage({ type: "fatal", id: message.id, message: "Python is not loaded yet" });
      return;
    }
    finishStarting(); // if a solve came first: the snapshot is of the warmed-up package only
    if (!answer) {
      // The hooks are handed to Python once (passed at every call, each would become a new
      // proxy), after the snapshot: a heap that holds JavaScript functions cannot be one.
      answer = connect(postProgress, cancelFlag ? isCancelled : undefined);
    }
    solveOne(message.id, message.text, message.call);
  }
};
