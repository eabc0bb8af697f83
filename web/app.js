// Page entry point. Boot contract (relied on by browser tests and power users):
// window.pysolver = { solve(request) -> Promise<response>, ready: Promise, cancel(),
//   workers() -> states of the pool's workers }; a request's "jobs" runs on that many workers
//   (web/pool.js), and the page's own solves ask for the #workers control's number.
//
// Stable ids for tests and scripts (KIND is a kind's id, as listed in web/kinds/index.js):
//   #status                 role=status line: loading / ready / busy / error of the solver
//   #tab-KIND, #panel-KIND  the selector button and the panel of a kind (panel has data-kind)
//   #KIND-canvas            the board (canvas); focus it to type (Sudoku, Shikaku)
//   #KIND-engine            engine <select> ("" = the kind's default)
//   #KIND-result            plain-words answer of the last solve (data-count holds the exact count)
//   #KIND-stats             "engine: … · nodes: … · time: …" of the last answer
//   #KIND-error             error message (and JSON path) of a rejected puzzle; empty when fine
//   #KIND-prev, #KIND-next, #KIND-position   browse solutions ("Solution k of N")
//   #progress, #progress-bar, #progress-text, #cancel   progress of a running solve
//   #share, #share-url      make and show the share link (the URL fragment is kept up to date:
//                           #KIND:<puzzle, see web/kinds/KIND.js>[&engine=NAME])
//   #export-json, #import-json (file input), #export-png, #export-svg
//   #KIND-engine-hint       what the chosen engine does (from facts.json)
//   #workers                the Workers control: Pyodide workers a solve may use (web/pool.js)
// Each kind's own controls are documented at the top of web/kinds/KIND.js; the kinds and the
// contract between an editor and this page are in web/kinds/index.js.
// data-state on <body>: "loading" | "ready" | "busy" | "error".
//
// The puzzle facts (kinds, engines, limits, pieces, Sudoku sizes) are Python's: build.py writes
// them into facts.json, read once here before any editor is built.
import { failedResponse } from "./solver.js";
import { createPool } from "./pool.js";
import { CanvasDrawing, SvgDrawing, boardPoint } from "./draw.js";
import { el, download, groupDigits } from "./ui.js";
import { engineMenu } from "./widgets.js";
import { KINDS } from "./kinds/index.js";

const solver = createPool();
window.pysolver = {
  solve: (request, options) => solver.solve(request, options),
  ready: solver.ready,
  cancel: () => solver.cancel(),
  workers: () => solver.workerStates(),
};

const statusLine = document.getElementById("status");
const app = document.getElementById("app");
let pythonReady = false;
let busy = false;
// Set when the page itself cannot work (facts.json missing): no later status hides it.
let pageBroken = false;

function setState(state, message) {
  if (pageBroken) return;
  document.body.dataset.state = state;
  statusLine.dataset.state = state;
  statusLine.textContent = message;
  updateButtons();
}

if (typeof solver.onStatus === "function") {
  solver.onStatus(({ state, message }) => {
    if (state === "ready") pythonReady = true;
    if (state === "restarting" || state === "loading") {
      pythonReady = false;
      // Re-arm on the (possibly new) ready promise, whichever of the two reports first.
      Promise.resolve(solver.ready).then(() => { pythonReady = true; if (!busy) setState("ready", "Ready"); }, () => {});
    }
    if (busy && state !== "error") return; // keep "Solving…" while a solve runs
    const words = { loading: "Loading Python…", ready: "Ready", busy: "Solving…", restarting: "Restarting Python…", error: "Python failed" };
    setState(state, message || words[state] || state);
  });
}
setState("loading", "Loading Python (first visit can take a while)…");
solver.ready.then(
  () => { pythonReady = true; if (!busy) setState("ready", "Ready"); },
  (error) => { pythonReady = false; setState("error", `Python failed to load: ${error.message}`); },
);

// ------------------------------------------------------------------ layout

const panels = new Map();
let activeKind = null;

const tablist = el("nav", { class: "tabs", role: "tablist", "aria-label": "Puzzle kind" });
const progress = el("div", { id: "progress", class: "progress", hidden: true, testid: "progress" },
  el("progress", { id: "progress-bar", max: "1", "aria-label": "Search progress" }),
  el("span", { id: "progress-text", "aria-live": "off" }),
  el("button", { id: "cancel", type: "button", onclick: () => solver.cancel() }, "Cancel"));
const shareUrl = el("input", { id: "share-url", readonly: true, "aria-label": "Share link", class: "share-url" });
const importInput = el("input", { id: "import-json", type: "file", accept: ".json,application/json", class: "visually-hidden-file" });
const toolbar = el("div", { class: "toolbar" },
  el("button", { id: "share", type: "button", onclick: shareLink }, "Share link"), shareUrl,
  el("button", { id: "export-json", type: "button", onclick: exportJson }, "Export JSON"),
  el("label", { class: "button-like", for: "import-json" }, "Import JSON"), importInput,
  el("button", { id: "export-png", type: "button", onclick: exportPng }, "PNG"),
  el("button", { id: "export-svg", type: "button", onclick: exportSvg }, "SVG"),
  solver.control());
importInput.addEventListener("change", importJson);
app.append(tablist, toolbar, progress);
// Arrow keys move between tabs, as in the WAI-ARIA tabs pattern.
tablist.addEventListener("keydown", (event) => {
  const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
  if (!step) return;
  const ids = [...panels.keys()];
  const next = ids[(ids.indexOf(activeKind) + step + ids.length) % ids.length];
  activate(next, true);
  panels.get(next).tab.focus();
  event.preventDefault();
});

function addKind({ id, editor, renderer }, facts) {
  const panel = { id, renderer };
  const ctx = {
    id,
    facts,
    run: (request) => run(panel, request),
    redraw: () => redraw(panel),
    changed: () => { markEdited(panel); panel.kind.clearSolution?.(); clearAnswer(panel); redraw(panel); updateHash(); },
    // A puzzle the editor itself cannot send (e.g. broken JSON): say why, next to the board.
    fail: (message) => { clearAnswer(panel); panel.error.textContent = message; },
    cellAt: (event) => renderer.cellAt(panel.kind.view, ...boardPoint(panel.canvas, event)),
  };
  const kind = editor(ctx);
  panel.kind = kind;
  panel.canvas = el("canvas", { id: `${id}-canvas`, class: "board", tabindex: "0", testid: "board",
    role: "img", "aria-label": `${facts.title} board` });
  panel.drawing = new CanvasDrawing(panel.canvas);
  panel.engine = engineMenu(id, facts);
  panel.engine.select.addEventListener("change", () => updateHash());
  panel.result = el("div", { id: `${id}-result`, class: "result", testid: "result" });
  panel.stats = el("div", { id: `${id}-stats`, class: "stats", testid: "stats" });
  panel.error = el("div", { id: `${id}-error`, class: "error", role: "alert", testid: "error" });
  panel.position = el("span", { id: `${id}-position` });
  panel.prev = el("button", { id: `${id}-prev`, type: "button", onclick: () => browse(panel, -1) }, "◀ Previous");
  panel.next = el("button", { id: `${id}-next`, type: "button", onclick: () => browse(panel, 1) }, "Next ▶");
  panel.nav = el("div", { class: "browse", hidden: true }, panel.prev, panel.position, panel.next);
  panel.solutions = [];
  panel.index = 0;
  panel.edits = 0;
  panel.tab = el("button", { id: `tab-${id}`, type: "button", role: "tab", "aria-controls": `panel-${id}`,
    onclick: () => activate(id, true) }, facts.title);
  panel.section = el("section", { id: `panel-${id}`, class: "panel", role: "tabpanel", "data-kind": id, hidden: true },
    el("div", { class: "editor" }, kind.controls,
      el("div", { class: "actions" }, kind.actions,
        el("label", { class: "field", for: `${id}-engine` }, "Engine ", panel.engine.select), panel.engine.hint)),
    el("div", { class: "board-column" },
      el("div", { class: "board-wrap" }, panel.canvas),
      panel.error, panel.result, panel.nav, panel.stats, kind.extra || null));
  kind.attachCanvas?.(panel.canvas);
  tablist.append(panel.tab);
  app.append(panel.section);
  panels.set(id, panel);
  redraw(panel);
}

function activate(id, updateUrl) {
  for (const [kindId, panel] of panels) {
    const on = kindId === id;
    panel.section.hidden = !on;
    panel.tab.setAttribute("aria-selected", String(on));
    panel.tab.classList.toggle("active", on);
    panel.tab.tabIndex = on ? 0 : -1;
  }
  activeKind = id;
  redraw(panels.get(id));
  if (updateUrl) updateHash();
}

// Every edit of a panel's puzzle bumps its counter, so an answer that arrives after an edit is
// known to be for the earlier puzzle and is not drawn over the new one.
function markEdited(panel) {
  panel.edits += 1;
}

function redraw(panel, drawing = panel.drawing, options = {}) {
  panel.renderer.draw(drawing, panel.kind.view, options);
}

function updateButtons() {
  const allowed = pythonReady && !busy;
  for (const button of document.querySelectorAll("button.solve-action")) button.disabled = !allowed;
  for (const button of document.querySelectorAll("button.solve-action")) {
    button.title = pythonReady ? "" : "Waiting for Python to load";
  }
}

// ------------------------------------------------------------------ solving

function clearAnswer(panel) {
  panel.error.textContent = "";
  panel.result.textContent = "";
  delete panel.result.dataset.count;
  delete panel.result.dataset.cancelled;
  delete panel.result.dataset.stale;
  panel.stats.textContent = "";
  panel.solutions = [];
  panel.nav.hidden = true;
}

function formatStat(key, value) {
  if (key === "seconds") return `time: ${Number(value).toFixed(3)} s`;
  if (typeof value === "bigint" || Number.isInteger(value)) return `${key}: ${groupDigits(value)}`;
  if (typeof value === "number") return `${key}: ${Number(value.toPrecision(6))}`;
  if (value && typeof value === "object") return `${key}: ${JSON.stringify(value, (k, v) => (typeof v === "bigint" ? String(v) : v))}`;
  return `${key}: ${value}`;
}

// Tree-size estimates of long searches start tiny: keep two significant digits below 1%.
function formatPercent(fraction) {
  const percent = Math.max(0, Math.min(1, fraction)) * 100;
  if (percent === 0 || percent >= 1) return `${percent.toFixed(1)}%`;
  if (percent < 0.0001) return "< 0.0001%"; // toPrecision would switch to 1e-15 notation
  return `${Number(percent.toPrecision(2))}%`;
}

function showStats(panel, response) {
  const stats = response.stats || {};
  const parts = [];
  if (response.engine) parts.push(`engine: ${response.engine}`);
  if ("nodes" in stats) parts.push(formatStat("nodes", stats.nodes));
  if ("seconds" in stats) parts.push(formatStat("seconds", stats.seconds));
  for (const [key, value] of Object.entries(stats)) {
    if (key !== "nodes" && key !== "seconds") parts.push(formatStat(key, value));
  }
  panel.stats.textContent = parts.join(" · ");
}

function showError(panel, error) {
  const message = error?.message || "The solver failed without saying why.";
  panel.error.textContent = error?.path ? `${message} (at ${error.path})` : message;
}

async function run(panel, request) {
  if (busy) return null;
  busy = true;
  const editsAtStart = panel.edits;
  clearAnswer(panel);
  setState("busy", "Solving…");
  if (!request.engine && panel.engine.select.value) request.engine = panel.engine.select.value;
  if (request.jobs === undefined && solver.jobs > 1) request.jobs = solver.jobs;
  const started = performance.now();
  let last = { nodes: 0, solutions: 0, fraction: null };
  const bar = document.getElementById("progress-bar");
  const text = document.getElementById("progress-text");
  const paint = () => {
    const elapsed = ((performance.now() - started) / 1000).toFixed(1);
    const fraction = typeof last.fraction === "number" ? last.fraction : null;
    if (fraction === null) bar.removeAttribute("value"); else bar.value = Math.max(0, Math.min(1, fraction));
    const parts = [];
    if (fraction !== null) parts.push(`${formatPercent(fraction)} done (estimate)`);
    parts.push(`nodes ${groupDigits(last.nodes ?? 0)}`, `solutions ${groupDigits(last.solutions ?? 0)}`, `${elapsed} s`);
    text.textContent = parts.join(" · ");
  };
  paint();
  progress.hidden = false;
  const timer = setInterval(paint, 200);
  let response;
  try {
    response = await solver.solve(request, { onProgress: (report) => { last = report || last; paint(); } });
  } catch (error) {
    response = failedResponse("client_error", error?.message || String(error));
  } finally {
    clearInterval(timer);
    progress.hidden = true;
    busy = false;
  }
  if (response?.cancelled) {
    const count = response.count ?? last.solutions ?? 0;
    panel.result.textContent = `Cancelled after ${((performance.now() - started) / 1000).toFixed(1)} s; ${groupDigits(count)} solutions found so far.`;
    panel.result.dataset.cancelled = "true";
    if (response.ok) showStats(panel, response);
    setState(pythonReady ? "ready" : "loading", pythonReady ? "Ready (last solve cancelled)" : "Restarting Python…");
    return response;
  }
  setState(pythonReady ? "ready" : "loading", pythonReady ? "Ready" : "Loading Python…");
  if (panel.edits !== editsAtStart) {
    clearAnswer(panel);
    panel.result.textContent = "The puzzle was edited while it was being solved, so that answer (for the earlier puzzle) was dropped. Solve again.";
    panel.result.dataset.stale = "true";
    return response;
  }
  if (!response || !response.ok) {
    showError(panel, response?.error);
    return response;
  }
  panel.result.dataset.count = String(response.count);
  panel.result.textContent = panel.kind.describe(response);
  showStats(panel, response);
  panel.solutions = Array.isArray(response.solutions) ? response.solutions : [];
  panel.index = 0;
  panel.kind.showResponse?.(response);
  showSolution(panel);
  return response;
}

function showSolution(panel) {
  const total = panel.solutions.length;
  panel.nav.hidden = total < 2;
  panel.position.textContent = total ? `Solution ${panel.index + 1} of ${total}` : "";
  panel.prev.disabled = panel.index <= 0;
  panel.next.disabled = panel.index >= total - 1;
  panel.kind.setSolution(total ? panel.solutions[panel.index] : null, panel.index);
  redraw(panel);
}

function browse(panel, step) {
  const total = panel.solutions.length;
  if (!total) return;
  panel.index = Math.max(0, Math.min(total - 1, panel.index + step));
  showSolution(panel);
}

// ------------------------------------------------------------------ share, import, export

function currentPanel() {
  return panels.get(activeKind);
}

function updateHash() {
  const panel = currentPanel();
  if (!panel) return;
  // The chosen engine rides along after "&" (no kind's own encoding uses that character).
  const engine = panel.engine.select.value ? `&engine=${panel.engine.select.value}` : "";
  const fragment = `#${panel.id}:${panel.kind.encode()}${engine}`;
  if (location.hash !== fragment) history.replaceState(null, "", fragment);
  if (shareUrl.value) shareUrl.value = location.href;
}

function shareLink() {
  updateHash();
  shareUrl.value = location.href;
  shareUrl.select();
  navigator.clipboard?.writeText(location.href).catch(() => {});
}

function restoreFromHash() {
  const [hash, ...params] = decodeURIComponent(location.hash.slice(1)).split("&");
  if (!hash) return false;
  const colon = hash.indexOf(":");
  const id = colon < 0 ? hash : hash.slice(0, colon);
  const panel = panels.get(id);
  if (!panel) return false;
  activate(id, false);
  const settings = new URLSearchParams(params.join("&"));
  panel.engine.choose(settings.get("engine") || "");
  if (colon >= 0) {
    try {
      markEdited(panel);
      panel.kind.decode(hash.slice(colon + 1));
      clearAnswer(panel);
    } catch (error) {
      clearAnswer(panel);
      panel.error.textContent = `The link's puzzle could not be read: ${error.message}`;
    }
  }
  redraw(panel);
  return true;
}

function exportJson() {
  const panel = currentPanel();
  const request = { kind: panel.id, ...panel.kind.exportRequest() };
  if (panel.engine.select.value) request.engine = panel.engine.select.value;
  const text = JSON.stringify(request, null, 2);
  download(`${panel.id}.json`, new Blob([text], { type: "application/json" }));
}

async function importJson() {
  const file = importInput.files?.[0];
  if (!file) return;
  const panel0 = currentPanel();
  try {
    const data = JSON.parse(await file.text());
    const id = typeof data.kind === "string" && panels.has(data.kind) ? data.kind : activeKind;
    const panel = panels.get(id);
    activate(id, false);
    markEdited(panel);
    panel.kind.importRequest(data.puzzle ? data : { puzzle: data });
    panel.engine.choose(typeof data.engine === "string" ? data.engine : "");
    clearAnswer(panel);
    redraw(panel);
    updateHash();
  } catch (error) {
    panel0.error.textContent = `Could not import ${file.name}: ${error.message}`;
  } finally {
    importInput.value = "";
  }
}

function exportPng() {
  const panel = currentPanel();
  // Drawn afresh on a canvas of its own, without the editing cursor. Synchronous on purpose:
  // the download starts within the click, so browsers allow it.
  const canvas = document.createElement("canvas");
  redraw(panel, new CanvasDrawing(canvas), { exporting: true });
  const link = el("a", { href: canvas.toDataURL("image/png"), download: `${panel.id}.png` });
  document.body.append(link);
  link.click();
  link.remove();
}

function exportSvg() {
  const panel = currentPanel();
  const svg = new SvgDrawing();
  redraw(panel, svg, { exporting: true });
  download(`${panel.id}.svg`, new Blob([svg.toString()], { type: "image/svg+xml" }));
}

// ------------------------------------------------------------------ boot

// The puzzle facts Python wrote at build time (pysolver/facts.py has the schema).
async function loadFacts() {
  const url = new URL("./facts.json", import.meta.url);
  let response;
  try {
    response = await fetch(url, { cache: "no-cache" });
  } catch (error) {
    throw new Error(`could not fetch ${url.pathname} (${error.message})`, { cause: error });
  }
  if (!response.ok) throw new Error(`${url.pathname} answered ${response.status}`);
  const facts = await response.json();
  for (const { id } of KINDS) {
    if (!facts.kinds?.[id]) throw new Error(`${url.pathname} says nothing about the kind "${id}"`);
  }
  return facts;
}

try {
  const facts = await loadFacts();
  for (const entry of KINDS) addKind(entry, facts.kinds[entry.id]);
  if (!restoreFromHash()) activate(KINDS[0].id, false);
  window.addEventListener("hashchange", restoreFromHash);
  updateButtons();
} catch (error) {
  setState("error", `The page could not start: ${error.message}; build the site with "python3 build.py" and reload.`);
  pageBroken = true;
}
