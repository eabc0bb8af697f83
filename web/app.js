// Page entry point. Boot contract (relied on by browser tests and power users):
// window.pysolver = { solve(request) -> Promise<response>, ready: Promise, cancel(),
//   workers() -> states of the pool's workers }; a request's "jobs" runs on that many workers
//   (web/runtime/pool.js), and the page's own solves ask for the #workers control's number.
//
// Stable ids for tests and scripts (KIND is a kind's id: the keys of facts.json's "kinds"):
//   #status                 role=status line: loading / ready / busy / error of the solver
//   #tab-KIND, #panel-KIND  the selector button and the panel of a kind (panel has data-kind)
//   #KIND-canvas            the board (canvas); focus it to type (Sudoku, Shikaku)
//   #KIND-engine            engine <select> ("" = the kind's default)
//   #KIND-result            plain-words answer of the last solve (data-count holds the exact count)
//   #KIND-stats             "Engine: … · Time: … · Search steps: …" of the last answer; the other
//                           figures (labels from facts.json) in #KIND-stats-more
//   #KIND-error             error message of a rejected puzzle, as a sentence; the JSON path and
//                           the protocol's words folded in its <details class="error-details">
//                           (text in .error-details-text); empty when fine
//   #KIND-differences       with two or more solutions: how many cells differ between the one
//                           shown and the other (marked on the board)
//   #KIND-prev, #KIND-next, #KIND-position   browse solutions ("Solution k of N")
//   #progress, #progress-bar, #progress-text, #cancel   progress of a running solve (a floating
//                           card: it never moves the page; the text adds the time left)
//   #share, #share-url      make and show the share link (the URL fragment is kept up to date:
//                           #KIND:<puzzle, see web/kinds/KIND/editor.js>[&engine=NAME])
//   #export-json, #import-json (file input), #export-png, #export-svg, #export-dark (checkbox:
//                           exports in the dark theme; they are light otherwise)
//   #KIND-engine-hint       what the chosen engine does (from facts.json)
//   #KIND-undo, #KIND-redo  undo / redo the board's edits (also Ctrl+Z, Ctrl+Y, Ctrl+Shift+Z;
//                           web/ui/history.js); #KIND-pad: on-screen keys, if the editor has some
//   #KIND-help              what the puzzle is and which algorithm solves it (web/ui/help.js)
//   #load-progress          bar of the runtime's download while Python loads (web/runtime/loading.js)
//   data-offline on <html>  state of the offline copy (web/runtime/offline.js); #offline-note shows
//                           "Works offline" once the service worker serves the page
//   #workers                the Workers control: Pyodide workers a solve may use (web/runtime/pool.js)
//   #kind-errors            a kind Python lists whose folder (web/kinds/KIND/) the page could
//                           not load: which, and why (the other kinds work)
// Each kind's own controls are documented at the top of web/kinds/KIND/editor.js; the contract
// between a kind and this page is in web/kinds/contract.js. The Step view, heatmaps
// and engines side by side (web/watch/explore.js) document their ids in web/watch/stepview.js,
// web/watch/heatmap.js and web/watch/compare.js.
// data-state on <body>: "loading" | "ready" | "busy" | "error".
//
// The puzzle facts (kinds, engines, limits, pieces, Sudoku sizes) are Python's: build.py writes
// them into facts.json, read once here before any editor is built. The kinds, in tab order, are
// the keys of its "kinds"; each one's code is its folder web/kinds/KIND/, imported by that name.
import { createSolver, failedResponse } from "./runtime/solver.js";
import { createPool } from "./runtime/pool.js";
import { CanvasDrawing, SvgDrawing, boardPoint } from "./render/draw.js";
import { el, download, groupDigits } from "./ui/ui.js";
import { createTimeLeft, plainMessage, sentence, withEngineTitles } from "./ui/words.js";
import { engineMenu } from "./ui/widgets.js";
import { createHistory, historyButtons, historyKey, typingInField } from "./ui/history.js";
import { isKindName, pageKind } from "./kinds/contract.js";
import { lightTheme, onThemeChange, pageDarkTheme } from "./render/theme.js";
import { showLoading } from "./runtime/loading.js";
import { keepOffline } from "./runtime/offline.js";
import { kindHelp } from "./ui/help.js";
import { createExplorer } from "./watch/explore.js";
import { engineServes } from "./watch/compare.js";
import { MARKS, readPalette } from "./render/palette.js";

const solver = createPool();
window.pysolver = {
  solve: (request, options) => solver.solve(request, options),
  ready: solver.ready,
  cancel: () => solver.cancel(),
  workers: () => solver.workerStates(),
};
showLoading(solver);
keepOffline(solver.ready);

// A count still running this long with no estimate of its puzzle known asks for one (Knuth's
// random paths, web/watch/estimate.js) on a worker of its own, so the count is not held up: a
// shorter count never waits for an estimate nor starts that worker.
const ESTIMATE_BESIDE_AFTER_MS = 2000;
let estimator = null; // that worker, started the first time a count runs long
function runBeside(request) {
  estimator ??= createSolver();
  if (solver.jobs > 1) request.jobs = solver.jobs; // the time with the page's workers too
  return estimator.solve(request).catch((error) => failedResponse("client_error", error?.message || String(error)));
}

const statusLine = document.getElementById("status");
const app = document.getElementById("app");
let pythonReady = false;
let busy = false;
// Set when the page itself cannot work (facts.json missing): no later status hides it.
let pageBroken = false;
const panels = new Map();
// facts.json's page-wide part (stats labels), set at start-up.
let statsFacts = { labels: {}, headline: [] };

function setState(state, message) {
  if (pageBroken) return;
  document.body.dataset.state = state;
  statusLine.dataset.state = state;
  statusLine.textContent = message;
  updateButtons();
}

if (typeof solver.onStatus === "function") {
  let armedReady = solver.ready;
  solver.onStatus(({ state, message }) => {
    if (state === "ready") pythonReady = true;
    if (state === "restarting" || state === "loading") {
      pythonReady = false;
      // Re-arm on a new ready promise (a restart), whichever of the two reports first; loading
      // reports the bytes many times over, so only once per promise.
      if (solver.ready !== armedReady) {
        armedReady = solver.ready;
        Promise.resolve(solver.ready).then(() => { pythonReady = true; if (!busy) setState("ready", "Ready"); }, () => {});
      }
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
  el("label", { class: "field", for: "export-dark" }, el("input", { id: "export-dark", type: "checkbox" }), "Dark export"),
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

function addKind({ id, editor, renderer }, facts, siteFacts) {
  const panel = { id, renderer, facts, differences: null };
  const ctx = {
    id,
    facts,
    run: (request, options) => run(panel, request, options),
    redraw: () => redraw(panel),
    changed: () => { edited(panel); panel.history.record(); },
    // A puzzle the editor itself cannot send (e.g. broken JSON): say why, next to the board.
    fail: (message) => { clearAnswer(panel); showMessage(panel, { text: sentence(message), details: "" }); },
    cellAt: (event) => renderer.cellAt(panel.kind.view, ...boardPoint(panel.canvas, event)),
  };
  const kind = editor(ctx);
  panel.kind = kind;
  // Undo restores the editor's own share-link text: the whole puzzle, and nothing else.
  panel.history = createHistory({
    capture: () => kind.encode(),
    restore: (state) => { kind.decode(state); edited(panel); },
    onChange: () => panel.historyButtons?.update(),
  });
  panel.historyButtons = historyButtons(id, panel.history);
  panel.historyButtons.update();
  panel.canvas = el("canvas", { id: `${id}-canvas`, class: "board", tabindex: "0", testid: "board",
    role: "img", "aria-label": `${facts.title} board` });
  panel.drawing = new CanvasDrawing(panel.canvas);
  panel.engine = engineMenu(id, facts);
  panel.engine.select.addEventListener("change", () => { updateHash(); updateButtons(); });
  panel.explore = createExplorer({ id, facts, siteFacts, editor: kind, renderer,
    run: (request, options) => run(panel, request, options), redraw: () => redraw(panel),
    engine: () => panel.engine.select.value });
  panel.result = el("div", { id: `${id}-result`, class: "result", testid: "result", "aria-live": "polite" });
  panel.stats = el("div", { id: `${id}-stats`, class: "stats", testid: "stats" });
  panel.error = el("div", { id: `${id}-error`, class: "error", role: "alert", testid: "error" });
  panel.position = el("span", { id: `${id}-position` });
  panel.prev = el("button", { id: `${id}-prev`, type: "button", onclick: () => browse(panel, -1) }, "◀ Previous");
  panel.next = el("button", { id: `${id}-next`, type: "button", onclick: () => browse(panel, 1) }, "Next ▶");
  panel.nav = el("div", { class: "browse", hidden: true }, panel.prev, panel.position, panel.next);
  panel.differenceText = el("p", { id: `${id}-differences`, class: "hint differences", "aria-live": "polite" });
  panel.solutions = [];
  panel.index = 0;
  panel.edits = 0;
  panel.tab = el("button", { id: `tab-${id}`, type: "button", role: "tab", "aria-controls": `panel-${id}`,
    onclick: () => activate(id, true) }, facts.title);
  panel.section = el("section", { id: `panel-${id}`, class: "panel", role: "tabpanel", "data-kind": id, hidden: true },
    kindHelp(id, facts),
    el("div", { class: "editor" }, kind.controls,
      // The ways to look into the search, grouped after the editing controls (the primary
      // actions sit under the board).
      panel.exploreOptions = el("details", { id: `${id}-explore-options`, class: "explore-options", open: exploreOpen(),
        ontoggle: (event) => rememberExplore(event.target.open) },
        el("summary", {}, "Explore: engine, step view, compare, heatmap"),
        el("div", { class: "actions" },
          el("label", { class: "field", for: `${id}-engine` }, "Engine ", panel.engine.select), panel.engine.hint),
        panel.explore.actions)),
    el("div", { class: "board-column" },
      panel.historyButtons.node,
      // The board, and beside it (under it on a phone) the Step view's current step.
      el("div", { class: "board-stage" }, el("div", { class: "board-wrap" }, panel.canvas), panel.explore.stage),
      kind.pad || null,
      el("div", { class: "board-actions" }, kind.actions),
      panel.error, panel.result, panel.nav, panel.differenceText, panel.stats, panel.explore.element, kind.extra || null));
  // One stroke of the pointer over the board is one step of undo (before the editor's own
  // pointer handlers, which edit).
  panel.canvas.addEventListener("pointerdown", () => panel.history.beginGroup());
  for (const name of ["pointerup", "pointercancel", "lostpointercapture"]) {
    panel.canvas.addEventListener(name, () => panel.history.endGroup());
  }
  kind.attachCanvas?.(panel.canvas);
  tablist.append(panel.tab);
  app.append(panel.section);
  panels.set(id, panel);
  redraw(panel);
}

// The Explore section starts closed, so a newcomer sees the puzzle and Solve first; opened or
// closed, it stays so on every tab and on the next visit (localStorage, when the browser allows).
const EXPLORE_KEY = "pysolver-explore";
function exploreOpen() {
  try { return localStorage.getItem(EXPLORE_KEY) === "open"; } catch { return false; }
}
function rememberExplore(open) {
  try { localStorage.setItem(EXPLORE_KEY, open ? "open" : "closed"); } catch { /* private mode */ }
  for (const panel of panels.values()) if (panel.exploreOptions && panel.exploreOptions.open !== open) panel.exploreOptions.open = open;
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
  settleStatus();
  redraw(panels.get(id));
  if (updateUrl) updateHash();
}

// The puzzle of a panel changed (an edit, undo or redo): drop its answer, redraw, update the link.
function edited(panel) {
  markEdited(panel);
  settleStatus();
  panel.kind.clearSolution?.();
  panel.explore.reset();
  clearAnswer(panel);
  redraw(panel);
  updateHash();
}

// Every edit of a panel's puzzle bumps its counter, so an answer that arrives after an edit is
// known to be for the earlier puzzle and is not drawn over the new one.
function markEdited(panel) {
  panel.edits += 1;
}

function redraw(panel, drawing = panel.drawing, options = {}) {
  showDefaultEngine(panel);
  const themed = { palette: readPalette(), ...options };
  if (panel.explore?.draw(drawing, panel.kind.view, themed)) return;
  panel.renderer.draw(drawing, panel.kind.view, themed);
  if (panel.differences?.length && panel.renderer.cellBox) markCells(drawing, panel.renderer, panel.kind.view, panel.differences);
}

// Where the default engine depends on the puzzle (web/kinds/contract.js: defaultEngines), the
// engine menu's "Default" says what it does for the puzzle shown; an answer by the default
// corrects the guess for its mode. Worked out once per edit.
function showDefaultEngine(panel) {
  if (!panel.kind.defaultEngines || panel.defaultShownFor === panel.edits) return;
  panel.defaultShownFor = panel.edits;
  const used = panel.usedDefault?.edits === panel.edits ? panel.usedDefault : null;
  panel.engine.showDefault(panel.kind.defaultEngines().map((use) => (use.mode === used?.mode ? { ...use, engine: used.engine } : use)));
}

// Cells whose content differs between two solutions: a red frame and a corner flag, drawn over
// whatever the renderer drew (through the same drawing seam, so exports show them too).
function markCells(drawing, renderer, view, cells) {
  for (const [row, col] of cells) {
    const [x, y, size] = renderer.cellBox(view, row, col);
    const flag = Math.max(5, size * 0.3);
    drawing.rect(x + 2, y + 2, size - 4, size - 4, { stroke: MARKS.difference, width: 2.5 });
    drawing.polygon([[x + size - flag, y], [x + size, y], [x + size, y + flag]], { fill: MARKS.difference });
  }
}

// A "cancelled" status is about the solve that was cancelled: the next action clears it.
function settleStatus() {
  if (!busy && pythonReady && statusLine.dataset.state === "ready") setState("ready", "Ready");
}

function updateButtons() {
  const allowed = pythonReady && !busy;
  for (const button of document.querySelectorAll("button.solve-action")) button.disabled = !allowed;
  for (const button of document.querySelectorAll("button.solve-action")) {
    button.title = pythonReady ? "" : "Waiting for Python to load";
  }
  // A button whose mode (data-mode) the chosen engine does not serve is not offered.
  for (const panel of panels.values()) {
    const engine = panel.engine.select.value;
    const entry = engine ? panel.facts.engines.find((e) => e.name === engine) : null;
    for (const button of panel.section.querySelectorAll("button.solve-action[data-mode]")) {
      if (!entry || engineServes(entry, button.dataset.mode)) continue;
      button.disabled = true;
      button.title = `${entry.title} serves ${entry.modes.join(", ")} mode only; choose another engine`;
    }
  }
}

// ------------------------------------------------------------------ solving

function clearAnswer(panel) {
  panel.error.textContent = "";
  panel.result.textContent = "";
  panel.differences = null;
  panel.differenceText.textContent = "";
  delete panel.result.dataset.count;
  delete panel.result.dataset.cancelled;
  delete panel.result.dataset.stale;
  panel.stats.textContent = "";
  panel.solutions = [];
  panel.nav.hidden = true;
}

function formatValue(key, value) {
  if (key === "seconds") return `${Number(value).toFixed(3)} s`;
  if (typeof value === "bigint" || Number.isInteger(value)) return groupDigits(value);
  if (typeof value === "number") return String(Number(value.toPrecision(6)));
  if (Array.isArray(value)) return value.map((part) => formatValue("", part)).join(" × ");
  if (value && typeof value === "object") return JSON.stringify(value, (k, v) => (typeof v === "bigint" ? String(v) : v));
  return String(value);
}

// Words for a stats key: Python's label (facts.json), else the key with spaces.
function statLabel(key) {
  return statsFacts.labels[key] || sentence(key.replace(/_/g, " ")).replace(/\.$/, "");
}

// Tree-size estimates of long searches start tiny: keep two significant digits below 1%.
function formatPercent(fraction) {
  const percent = Math.max(0, Math.min(1, fraction)) * 100;
  if (percent === 0 || percent >= 1) return `${percent.toFixed(1)}%`;
  if (percent < 0.0001) return "< 0.0001%"; // toPrecision would switch to 1e-15 notation
  return `${Number(percent.toPrecision(2))}%`;
}

// The engine and the headline figures (time, search steps) in one line; the other figures a
// click away under "More figures".
function showStats(panel, response) {
  const stats = response.stats || {};
  const headline = [];
  if (response.engine) {
    const engine = panel.facts.engines.find(({ name }) => name === response.engine);
    headline.push(`Engine: ${engine ? engine.title : response.engine}`);
  }
  // A counter at zero says nothing a person needs (no search steps for a Sudoku solved by
  // singles): left out; the time always shows.
  const worthShowing = ([key, value]) => key === "seconds" || !(value === 0 || value === 0n || value === "0");
  // A search split over the page's workers says on how many and in how many tasks: a person
  // who asked for two workers sees whether the second one took part. One the first worker ran
  // whole (too short to split, or a mode that is not split) says so, and why under "More
  // figures": "Workers: 2 (1 tasks)" claimed a second worker that did nothing.
  const parallel = response.parallel;
  const serially = parallel?.executor === "serial";
  if (parallel && parallel.tasks) {
    const tasks = `${parallel.tasks} task${parallel.tasks === 1 ? "" : "s"}`;
    headline.push(serially ? "Workers: 1 (ran serially)" : `Workers: ${parallel.workers ?? parallel.jobs} (${tasks})`);
  }
  for (const key of statsFacts.headline) if (key in stats && worthShowing([key, stats[key]])) headline.push(`${statLabel(key)}: ${formatValue(key, stats[key])}`);
  const rest = Object.entries(stats).filter(([key]) => !statsFacts.headline.includes(key)).filter(worthShowing)
    .map(([key, value]) => `${statLabel(key)}: ${formatValue(key, value)}`);
  if (serially && parallel.note) rest.unshift(`Why one worker: ${parallel.note}`);
  panel.stats.replaceChildren(headline.join(" · "));
  if (rest.length) {
    panel.stats.append(el("details", { id: `${panel.id}-stats-more`, class: "stats-more" },
      el("summary", {}, "More figures"), rest.join(" · ")));
  }
}

// An error in plain words: the sentence, then the details a programmer needs (the JSON path,
// the protocol's words) folded away under "Technical details", so a person reads only words.
function showMessage(panel, { text, details }) {
  panel.error.replaceChildren(el("span", { class: "error-text" }, text));
  if (details) {
    panel.error.append(el("details", { class: "error-details" },
      el("summary", {}, "Technical details"), el("span", { class: "error-details-text" }, details)));
  }
}

function showError(panel, error) {
  const message = plainMessage(error?.message || "The solver failed without saying why.", error?.path);
  // Engines by their titles in the sentence; the details keep the names a request uses.
  message.text = withEngineTitles(message.text, panel.facts.engines);
  showMessage(panel, message);
}

// quiet: leave the answer area alone and hand the response back (the Step view and engines
// side by side show it their own way). asIs: send the request as it is, without the panel's
// engine, workers and recent solutions (generate, explain and hint pick their own engine and
// run on one worker; web/play/session.js).
async function run(panel, request, { quiet = false, asIs = false } = {}) {
  if (busy) return null;
  busy = true;
  // The button pressed is disabled while the search runs, which drops its focus: given back
  // after the answer, so a keyboard user goes on from where they were.
  const focused = document.activeElement;
  const giveFocusBack = () => {
    if (focused instanceof HTMLElement && focused.isConnected && !focused.disabled &&
      (document.activeElement === document.body || document.activeElement === null)) focused.focus({ preventScroll: true });
  };
  if (!quiet) panel.explore.prepare(request);
  const editsAtStart = panel.edits;
  clearAnswer(panel);
  // The board shows no earlier answer while this one is sought (a failed load leaves no stale
  // solution behind, nor colours of an earlier answer on a solution found while searching).
  panel.kind.clearSolution?.();
  panel.kind.setSolution(null, 0);
  redraw(panel);
  setState("busy", "Solving…");
  if (!asIs && !request.engine && panel.engine.select.value) request.engine = panel.engine.select.value;
  // Progress reports carry a solution found lately (Python sends one a second at most): the
  // board shows it while a long search runs.
  if (!asIs && request.recent === undefined) request.recent = true;
  if (!asIs && request.jobs === undefined && solver.jobs > 1) request.jobs = solver.jobs;
  const started = performance.now();
  let recentAt = null;
  const showRecent = (report) => {
    if (!report?.recent || panel.edits !== editsAtStart) return;
    panel.kind.setSolution(report.recent, 0);
    recentAt = typeof report.seconds === "number" ? report.seconds : (performance.now() - started) / 1000;
    redraw(panel);
  };
  let last = { nodes: 0, solutions: 0, fraction: null };
  const timeLeft = createTimeLeft();
  // A count after an estimate of the same puzzle on its engine: its steps against the estimated
  // total; a count still running after ESTIMATE_BESIDE_AFTER_MS with none known asks for it
  // then, when an estimate follows its engine's tree (not the memo engine's, say).
  const countEngine = request.engine || panel.facts.default_engine;
  let expected = request.mode === "count" ? panel.explore.estimatedNodes(countEngine) : null;
  let counting = true;
  const estimateTimer = request.mode === "count" && !quiet && expected === null && panel.explore.follows(countEngine) ?
    setTimeout(async () => {
      // One estimate at a time: a count started again while the last one's is on its way
      // waits for that one.
      panel.estimateBeside ??= panel.explore.estimateBeside(runBeside).finally(() => { panel.estimateBeside = null; });
      const nodes = await panel.estimateBeside;
      if (counting && nodes !== null) {
        expected = nodes;
        paint();
      }
    }, ESTIMATE_BESIDE_AFTER_MS) : null;
  const bar = document.getElementById("progress-bar");
  const text = document.getElementById("progress-text");
  const paint = () => {
    const seconds = (performance.now() - started) / 1000;
    const fraction = typeof last.fraction === "number" ? last.fraction : null;
    if (fraction === null) bar.removeAttribute("value"); else bar.value = Math.max(0, Math.min(1, fraction));
    const parts = [];
    if (fraction !== null) parts.push(`${formatPercent(fraction)} done (estimate)`);
    const left = fraction === null ? "" : timeLeft(fraction, typeof last.seconds === "number" ? last.seconds : seconds);
    if (left) parts.push(left);
    const nodes = `nodes ${groupDigits(last.nodes ?? 0)}`;
    parts.push(expected === null ? nodes : `${nodes} of about ${groupDigits(expected)} estimated`);
    parts.push(`solutions ${groupDigits(last.solutions ?? 0)}`, `${seconds.toFixed(1)} s`);
    if (recentAt !== null) parts.push(`board: a solution found at ${recentAt.toFixed(1)} s`);
    text.textContent = parts.join(" · ");
  };
  paint();
  progress.hidden = false;
  const timer = setInterval(paint, 200);
  let response;
  try {
    response = await solver.solve(request, { onProgress: (report) => { last = report || last; showRecent(report); paint(); } });
  } catch (error) {
    response = failedResponse("client_error", error?.message || String(error));
  } finally {
    clearInterval(timer);
    clearTimeout(estimateTimer);
    counting = false;
    progress.hidden = true;
    busy = false;
    // A solution shown while searching is not the answer: the answer decides what is drawn.
    if (recentAt !== null && panel.edits === editsAtStart) panel.kind.setSolution(null, 0);
    updateButtons();
    giveFocusBack();
  }
  if (quiet) {
    setState(pythonReady ? "ready" : "loading", pythonReady ? "Ready" : "Loading Python…");
    if (response && !response.ok && !response.cancelled) showError(panel, response.error);
    return response;
  }
  if (response?.cancelled) {
    const count = response.count ?? last.solutions ?? 0;
    panel.result.textContent = `Cancelled after ${((performance.now() - started) / 1000).toFixed(1)} s; ${groupDigits(count)} solutions found so far.`;
    panel.result.dataset.cancelled = "true";
    if (response.ok) showStats(panel, response);
    setState(pythonReady ? "ready" : "loading", pythonReady ? "Ready (last solve cancelled)" : "Restarting Python…");
    redraw(panel);
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
    panel.kind.clearSolution?.();
    redraw(panel);
    revealAnswer(panel);
    return response;
  }
  if (!request.engine && response.engine) {
    panel.usedDefault = { edits: panel.edits, mode: request.mode, engine: response.engine };
    panel.defaultShownFor = null;
  }
  panel.result.dataset.count = String(response.count);
  panel.result.replaceChildren(panel.kind.describe(response));
  showStats(panel, response);
  panel.solutions = Array.isArray(response.solutions) ? response.solutions : [];
  panel.index = 0;
  const asked = panel.kind.encode();
  panel.kind.showResponse?.(response);
  if (panel.kind.encode() !== asked) {
    // The answer loaded a puzzle (a puzz.link URL): what was shown for the earlier one goes,
    // and the link names the new one.
    panel.explore.reset();
    updateHash();
  }
  panel.history.record(); // a step of undo when it did
  panel.explore.answered(request, response);
  showSolution(panel);
  revealAnswer(panel);
  return response;
}

// After an answer: the board and the verdict under it in view together (on a phone the page
// may have been scrolled anywhere). The board's top comes to the top of the window when the
// verdict then still shows; else the verdict goes to the bottom and the board shows what fits.
function revealAnswer(panel) {
  const answerNode = [panel.error, panel.result].find((node) => node.textContent);
  if (!answerNode) return;
  const board = panel.canvas.getBoundingClientRect();
  const answer = answerNode.getBoundingClientRect();
  const margin = 8;
  const boardShown = Math.min(board.bottom, window.innerHeight) - Math.max(board.top, 0);
  if (answer.top >= 0 && answer.bottom <= window.innerHeight && boardShown >= board.height * 0.95) return;
  const boardTop = window.scrollY + board.top - margin;
  const answerBottom = window.scrollY + answer.bottom + margin;
  const top = answerBottom - boardTop <= window.innerHeight ? boardTop : answerBottom - window.innerHeight;
  window.scrollTo({ top: Math.max(0, top), behavior: "instant" });
}

function showSolution(panel) {
  const total = panel.solutions.length;
  panel.nav.hidden = total < 2;
  panel.position.textContent = total ? `Solution ${panel.index + 1} of ${total}` : "";
  panel.prev.disabled = panel.index <= 0;
  panel.next.disabled = panel.index >= total - 1;
  panel.kind.setSolution(total ? panel.solutions[panel.index] : null, panel.index);
  showDifferences(panel);
  redraw(panel);
}

// With several solutions, the cells where the one shown differs from another (the next one;
// for the last, the one before): what a setter must pin down to make the puzzle unique.
function showDifferences(panel) {
  panel.differences = null;
  panel.differenceText.textContent = "";
  const total = panel.solutions.length;
  if (total < 2 || !panel.kind.solutionCells) return;
  const other = panel.index + 1 < total ? panel.index + 1 : panel.index - 1;
  const here = panel.kind.solutionCells(panel.solutions[panel.index]);
  const there = panel.kind.solutionCells(panel.solutions[other]);
  const cells = [];
  for (const key of new Set([...here.keys(), ...there.keys()])) {
    if (here.get(key) !== there.get(key)) cells.push(key.split(",").map(Number));
  }
  panel.differences = cells;
  const [first, second] = [panel.index, other].sort((a, b) => a - b).map((i) => i + 1);
  panel.differenceText.textContent = `Solutions ${first} and ${second} differ in ${cells.length} ` +
    `cell${cells.length === 1 ? "" : "s"}, marked in red on the board.`;
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
  shareUrl.value = location.href; // the share box always holds the link, before any click
}

function shareLink() {
  updateHash();
  shareUrl.value = location.href;
  shareUrl.select();
  navigator.clipboard?.writeText(location.href).catch(() => {});
}

// Text of a link, cut to a readable length for messages.
const cut = (text) => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

function decodePart(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new Error(`it has a broken % escape (a "%" must be followed by two hex digits): "${cut(text)}"`);
  }
}

// Why a link's puzzle could not be read, in words for a person: an editor's own reason without
// a request's JSON path before it; the browser's words (atob, JSON.parse) are no one's business.
function linkReason(error) {
  if (!(error instanceof Error) || error.constructor !== Error) return "its text is not in the form this page writes";
  const reason = error.message.replace(/^puzzle(?:\.[A-Za-z_]+|\[\d+\])*:\s*/i, "").replace(/[.]$/, "");
  return reason ? reason[0].toLowerCase() + reason.slice(1) : "its text is not in the form this page writes";
}

// Load the puzzle of the URL fragment (#KIND:<puzzle>[&engine=NAME]). A fragment that cannot be
// read says why in the panel it names (or the one shown) and leaves the page working.
function restoreFromHash() {
  const raw = location.hash.slice(1);
  if (!raw) return false;
  const [head, ...params] = raw.split("&");
  const colon = head.indexOf(":");
  let id = null;
  try { id = decodePart(colon < 0 ? head : head.slice(0, colon)); } catch { /* not a kind's name */ }
  const panel = panels.get(id);
  if (!panel) {
    const shown = currentPanel() || panels.values().next().value;
    activate(shown.id, false);
    clearAnswer(shown);
    showMessage(shown, {
      text: `The link does not name a puzzle this page knows, so nothing was loaded from it. It should start with a puzzle's name, such as #sudoku: (the names: ${[...panels.keys()].join(", ")}).`,
      details: `The link's part after "#": "${cut(raw)}".`,
    });
    return true;
  }
  activate(id, false);
  const settings = new URLSearchParams(params.join("&"));
  panel.engine.choose(settings.get("engine") || "");
  // A link that names an engine opens the Explore section, where the engine shows.
  if (settings.get("engine")) panel.exploreOptions.open = true;
  updateButtons(); // the modes offered follow the engine the link names
  if (colon >= 0) {
    markEdited(panel);
    panel.kind.clearSolution?.();
    panel.explore.reset();
    clearAnswer(panel);
    try {
      panel.kind.decode(decodePart(head.slice(colon + 1)));
      panel.history.record();
      updateHash(); // an old-format link is written back in the short format
    } catch (error) {
      showMessage(panel, { text: sentence(`This ${panel.facts.title} link could not be read, so the board was left as it was: ${linkReason(error)}`),
        details: `The link's part after "#": "${cut(raw)}".` });
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
  try {
    let data;
    try {
      data = JSON.parse(await file.text());
    } catch (error) {
      throw new Error(`it is not JSON (${error.message})`, { cause: error });
    }
    if (!data || typeof data !== "object" || Array.isArray(data)) throw new Error("it holds no request: expected a JSON object");
    const id = typeof data.kind === "string" && panels.has(data.kind) ? data.kind : activeKind;
    const panel = panels.get(id);
    activate(id, false);
    markEdited(panel);
    panel.kind.importRequest(data.puzzle ? data : { puzzle: data });
    panel.engine.choose(typeof data.engine === "string" ? data.engine : "");
    updateButtons();
    panel.explore.reset();
    clearAnswer(panel);
    panel.history.record();
    redraw(panel);
    updateHash();
  } catch (error) {
    // Said in the panel now shown (the import may have switched tabs); its old answer goes.
    const panel = currentPanel();
    panel.kind.clearSolution?.();
    clearAnswer(panel);
    redraw(panel);
    showMessage(panel, { text: `Could not import ${file.name}.`, details: sentence(error.message) });
  } finally {
    importInput.value = "";
  }
}

// Exports are light (for paper and documents) unless "Dark export" is ticked.
function exportTheme() {
  return document.getElementById("export-dark").checked ? pageDarkTheme() : lightTheme;
}

function exportPng() {
  const panel = currentPanel();
  // Drawn afresh on a canvas of its own, without the editing cursor. Synchronous on purpose:
  // the download starts within the click, so browsers allow it.
  const canvas = document.createElement("canvas");
  redraw(panel, new CanvasDrawing(canvas, exportTheme()), { exporting: true });
  const link = el("a", { href: canvas.toDataURL("image/png"), download: `${panel.id}.png` });
  document.body.append(link);
  link.click();
  link.remove();
}

function exportSvg() {
  const panel = currentPanel();
  const svg = new SvgDrawing(exportTheme());
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
  if (!facts.kinds || typeof facts.kinds !== "object" || !Object.keys(facts.kinds).length) {
    throw new Error(`${url.pathname} lists no puzzle kinds`);
  }
  return facts;
}

// Each kind's folder (web/kinds/KIND/index.js), by the names facts.json lists, in its order: the
// kinds that loaded, and words for each one that did not (a name with no folder, a folder whose
// code fails), so one broken kind leaves the others working.
async function loadKinds(facts) {
  const names = Object.keys(facts.kinds);
  const settled = await Promise.allSettled(names.map(async (name) => {
    if (!isKindName(name)) throw new Error("that is not a name a folder of the page can have");
    return pageKind(name, await import(`./kinds/${name}/index.js`));
  }));
  const kinds = [];
  const failures = [];
  settled.forEach((outcome, index) => {
    if (outcome.status === "fulfilled") kinds.push(outcome.value);
    else failures.push(`"${names[index]}" (web/kinds/${names[index]}/index.js): ${outcome.reason?.message || outcome.reason}`);
  });
  return { kinds, failures };
}

// Kinds Python lists that the page could not load, said atop the page (the others still work).
function showKindFailures(failures) {
  if (!failures.length) return;
  const words = failures.length === 1 ? "this puzzle kind, which Python lists" : "these puzzle kinds, which Python lists";
  app.prepend(el("p", { id: "kind-errors", class: "error", role: "alert" },
    el("span", { class: "error-text" }, `The page has no working tab for ${words}: ${failures.join("; ")}.`),
    el("span", { class: "error-details" }, 'Each kind needs its folder web/kinds/KIND/ with an index.js; rebuild with "python3 build.py" and reload.')));
}

try {
  const facts = await loadFacts();
  if (facts.stats) statsFacts = facts.stats;
  const { kinds, failures } = await loadKinds(facts);
  showKindFailures(failures);
  if (!kinds.length) throw new Error(`no puzzle kind could be loaded (${failures.join("; ")})`);
  for (const entry of kinds) addKind(entry, facts.kinds[entry.id], facts);
  if (!restoreFromHash()) activate(kinds[0].id, false);
  // Undo goes back as far as the puzzle the page opened with (a shared link's, say).
  for (const panel of panels.values()) panel.history.reset();
  window.addEventListener("hashchange", () => {
    try {
      restoreFromHash();
    } catch (error) {
      console.error(error); // keep listening: the next link may be fine
    }
  });
  document.addEventListener("keydown", (event) => {
    const action = historyKey(event);
    if (!action || typingInField(event.target) || !currentPanel()) return;
    currentPanel().history[action]();
    event.preventDefault();
  });
  // Boards follow the person's light/dark preference as it changes.
  onThemeChange(() => { for (const panel of panels.values()) redraw(panel); });
  updateButtons();
} catch (error) {
  setState("error", `The page could not start: ${error.message}; build the site with "python3 build.py" and reload.`);
  pageBroken = true;
}
