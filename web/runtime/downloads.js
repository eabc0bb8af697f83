// Loading progress of the worker (web/runtime/worker.mjs), in bytes: see trackDownloads.

// What each download is, in words for the loading line (manifest.json's "bytes" names them).
function downloadName(path) {
  if (path.endsWith(".wasm")) return "the Python runtime";
  if (path.endsWith(".zip")) return "the standard library";
  return "pysolver";
}

// Report loading progress in bytes: fetch is wrapped while Python loads (Pyodide's loader
// downloads through it), and each listed file's body is counted as it streams in, on a
// clone: the caller gets the browser's own response, untouched, so streaming compilation and
// the browser's cache of compiled WebAssembly keep working.
//
// finished() says when each download ended, in seconds from `started` (a performance.now()):
// {"<what> downloaded": seconds}, for the worker's account of where its start went.
export function trackDownloads(manifest, base, post, started = performance.now()) {
  const sizes = new Map(Object.entries(manifest.bytes || {})
    .map(([path, size]) => [new URL(path, base).href, { path, size, loaded: 0, endedAt: null }]));
  const total = [...sizes.values()].reduce((sum, file) => sum + file.size, 0);
  // One message per new step or per percent of the whole, not one per network chunk.
  let last = { text: null, percent: -1 };
  const report = (text) => {
    const loaded = [...sizes.values()].reduce((sum, file) => sum + file.loaded, 0);
    const percent = total > 0 ? Math.floor((100 * loaded) / total) : 0;
    if (text === last.text && percent === last.percent) return;
    last = { text, percent };
    post({ type: "loading", text, loaded, total });
  };
  const realFetch = self.fetch;
  self.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), base).href;
    const file = sizes.get(url);
    if (!file) return realFetch(input, init);
    const name = downloadName(file.path);
    report(`downloading ${name}`);
    const response = await realFetch(input, init);
    if (!response.ok || !response.body) {
      file.loaded = file.size;
      file.endedAt = performance.now();
      report(`${name} loaded`);
    } else {
      countBody(response.clone(), file, () => report(`downloading ${name}`));
    }
    return response;
  };
  return {
    report,
    stop() { self.fetch = realFetch; },
    finished() {
      const ended = [...sizes.values()].filter((file) => file.endedAt !== null);
      return Object.fromEntries(ended.map((file) => [
        `${downloadName(file.path)} downloaded`, Math.round(file.endedAt - started) / 1000,
      ]));
    },
  };
}

// Read a response (a clone) to its end, counting its bytes into file.loaded; errors are the
// real response's to report, so they are ignored here.
async function countBody(response, file, onChunk) {
  try {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        file.endedAt = performance.now();
        break;
      }
      file.loaded = Math.min(file.size, file.loaded + value.byteLength);
      onChunk();
    }
  } catch {
    // the download failed; whoever reads the real response says so
  }
}
