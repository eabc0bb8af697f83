// Python's memory as it stands once pysolver is imported and warmed up, kept in the browser so that
// a later visit starts from it instead of starting Python and importing the package again (Pyodide's
// memory snapshot: loadPyodide({_makeSnapshot: true}) then pyodide.makeMemorySnapshot(), and
// loadPyodide({_loadSnapshot: bytes}); web/runtime/worker.mjs uses both). Warm, that cuts the
// worker's start by most of its time: Python's own start-up and the imports are the bulk of it.
//
// The snapshot is the whole WebAssembly heap (about 30 MB), kept in its own Cache Storage cache
// (not the service worker's "pysolver-" caches, which web/sw.js replaces at each build) under a
// key naming the Pyodide version, the wheel's sha256 and the layout below: a new build never
// starts from an old snapshot. Pyodide itself refuses a snapshot of another runtime build. Only
// the newest snapshot is kept. The page's filesystem (the standard library, the wheel's files) is
// not part of the heap: the worker installs those again on every start.

const SNAPSHOT_CACHE = "python-heap-snapshots";
// Bump when what the worker does before the snapshot changes in a way the key does not see.
const SNAPSHOT_LAYOUT = 1;
const LENGTH_HEADER = "x-snapshot-bytes";

// Where the snapshot of this build is kept: a URL of the site that is never fetched.
export function snapshotKey(manifest, base) {
  const { version } = manifest.pyodide;
  const { sha256 } = manifest.pysolver;
  return new URL(`python-snapshot/${version}/${sha256}/${SNAPSHOT_LAYOUT}`, base).href;
}

function snapshotStorage() {
  // Cache Storage exists only in secure contexts (https, localhost): elsewhere, no snapshots.
  return typeof caches === "undefined" ? null : caches;
}

// Whether snapshots can be kept here at all (if not, making one would be wasted work).
export function canKeepSnapshots() {
  return snapshotStorage() !== null;
}

// The kept snapshot of key: null when there is none, else {bytes}, a promise of its bytes (for
// loadPyodide's _loadSnapshot, which awaits it: the reading overlaps the runtime's own loading),
// rejected when the kept copy is cut short (the worker then drops it).
export async function findSnapshot(key) {
  const storage = snapshotStorage();
  if (!storage) return null;
  const cache = await storage.open(SNAPSHOT_CACHE);
  const kept = await cache.match(key);
  if (!kept) return null;
  const length = kept.headers.get(LENGTH_HEADER);
  const bytes = kept.arrayBuffer().then((buffer) => {
    if (String(buffer.byteLength) !== length) {
      throw new Error(`the kept snapshot is cut short (${buffer.byteLength} of ${length} bytes)`);
    }
    return new Uint8Array(buffer);
  });
  bytes.catch(() => {}); // whoever awaits it reports the failure; not an unhandled rejection
  return { bytes };
}

// Keep bytes as the snapshot of key, and drop any other (an earlier build's).
export async function keepSnapshot(key, bytes) {
  const storage = snapshotStorage();
  if (!storage) return;
  const cache = await storage.open(SNAPSHOT_CACHE);
  const headers = { "content-type": "application/octet-stream", [LENGTH_HEADER]: String(bytes.byteLength) };
  await cache.put(key, new Response(bytes, { headers }));
  for (const request of await cache.keys()) {
    if (request.url !== key) await cache.delete(request);
  }
}

export async function dropSnapshot(key) {
  const storage = snapshotStorage();
  if (!storage) return;
  const cache = await storage.open(SNAPSHOT_CACHE);
  await cache.delete(key);
}
