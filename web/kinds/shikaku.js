// Shikaku editor. Controls (ids): #shikaku-rows, #shikaku-cols (bounded by Python's limits),
// #shikaku-clear, #shikaku-url (a puzz.link URL) + #shikaku-load-url (solves it; the parsed
// puzzle is drawn; Enter in the box does the same), #shikaku-export-url (writes the puzzle's
// puzz.link URL into the box), #shikaku-solve, #shikaku-count. Click a cell of #shikaku-canvas, then type
// its clue (several digits make one number; Backspace removes a digit; Delete or 0 alone
// clears; arrows move). Share fragment: #shikaku:<rows>x<cols>:<r>.<c>.<n>,...
import { el, labelled } from "../ui.js";
import { cellCursor, countWords, sizeFields, uniquenessWords } from "../widgets.js";
import { shikakuUrl } from "../puzzlink.js";

// A small example with a unique solution: 7x7 with nine clues.
const EXAMPLE = { rows: 7, cols: 7, clues: [[0, 2, 9], [0, 3, 4], [0, 5, 4], [1, 6, 3], [4, 0, 12], [4, 6, 4], [5, 3, 8], [5, 5, 2], [6, 3, 3]] };

/** @param {import("./index.js").KindContext} ctx */
export function createShikaku(ctx) {
  const view = { rows: 7, cols: 7, clues: [], selected: [0, 0], solution: null };
  const clueMap = new Map();
  const size = sizeFields(ctx.id, ctx.facts.limits, view, (rows, cols) => {
    Object.assign(view, { rows, cols, selected: null });
    for (const key of [...clueMap.keys()]) {
      const [r, c] = key.split(",").map(Number);
      if (r >= rows || c >= cols) clueMap.delete(key);
    }
    syncClues();
    ctx.changed();
  });
  const clearButton = el("button", { id: "shikaku-clear", type: "button" }, "Clear clues");
  const url = labelled("puzz.link URL", { id: "shikaku-url", placeholder: "https://puzz.link/p?shikaku/…", size: "40", spellcheck: "false" });
  const loadUrl = el("button", { id: "shikaku-load-url", type: "button", class: "solve-action" }, "Load and solve URL");
  const exportUrl = el("button", { id: "shikaku-export-url", type: "button" }, "Make puzz.link URL");
  const solveButton = el("button", { id: "shikaku-solve", type: "button", class: "solve-action primary" }, "Solve");
  const countButton = el("button", { id: "shikaku-count", type: "button", class: "solve-action" }, "Count");

  function syncClues() {
    view.clues = [...clueMap.entries()].map(([key, n]) => [...key.split(",").map(Number), n])
      .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    size.show(view.rows, view.cols);
  }
  function load(puzzle) {
    const rows = Number(puzzle.rows);
    const cols = Number(puzzle.cols);
    size.check(rows, cols);
    if (!Array.isArray(puzzle.clues)) throw new Error("clues must be a list of [row, col, number]");
    Object.assign(view, { rows, cols, selected: null, solution: null });
    clueMap.clear();
    for (const clue of puzzle.clues) {
      const [r, c, n] = clue.map(Number);
      if (![r, c, n].every(Number.isInteger)) throw new Error(`bad clue ${JSON.stringify(clue)}`);
      clueMap.set(`${r},${c}`, n);
    }
    syncClues();
  }
  load(EXAMPLE);
  view.selected = [0, 0];

  clearButton.addEventListener("click", () => { clueMap.clear(); syncClues(); ctx.changed(); });

  const puzzle = () => ({ rows: view.rows, cols: view.cols, clues: view.clues.map((clue) => [...clue]) });
  const run = (mode) => ctx.run({ kind: ctx.id, mode, limit: mode === "solve" ? 2 : undefined, puzzle: puzzle() });
  solveButton.addEventListener("click", () => run("solve"));
  countButton.addEventListener("click", () => run("count"));
  loadUrl.addEventListener("click", () => {
    ctx.run({ kind: ctx.id, mode: "solve", limit: 2, puzzle: { url: url.input.value.trim() } });
  });
  // Enter in the URL box loads it, as the button does (not while a solve runs).
  url.input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    if (!loadUrl.disabled) loadUrl.click();
  });
  // The puzzle as a puzz.link URL (web/puzzlink.js, the same encoding as pysolver/puzzlink).
  exportUrl.addEventListener("click", () => {
    url.input.value = shikakuUrl(view.rows, view.cols, view.clues);
    url.input.select();
  });

  // A clue typed on the board: digits append, Backspace removes one, Delete or Space clears.
  function editClue(event, [r, c]) {
    const key = `${r},${c}`;
    const digits = String(clueMap.get(key) ?? "");
    let next;
    if (/^[0-9]$/.test(event.key)) next = Number(digits + event.key);
    else if (event.key === "Backspace") next = Number(digits.slice(0, -1));
    else if (event.key === "Delete" || event.key === " ") next = 0;
    else return false;
    if (next > view.rows * view.cols) return true; // no rectangle that large fits
    if (next === 0) clueMap.delete(key); else clueMap.set(key, next);
    syncClues();
    ctx.changed();
    return true;
  }

  return {
    view,
    controls: el("div", { class: "controls" },
      el("div", { class: "row" }, size.rows.wrap, size.cols.wrap, clearButton),
      el("div", { class: "row" }, url.wrap, loadUrl, exportUrl),
      el("p", { class: "hint" }, "Click a cell and type its number (several digits allowed); Backspace removes a digit, Delete clears, arrows move.")),
    actions: el("div", { class: "buttons" }, solveButton, countButton),
    attachCanvas(canvas) {
      cellCursor(canvas, {
        cursor: { get: () => view.selected, set: (cell) => { view.selected = cell; }, size: () => [view.rows, view.cols] },
        cellAt: ctx.cellAt,
        onKey: editClue,
      }, ctx.redraw);
    },
    describe: (response) => (response.mode === "count" ? countWords(response, "solution", "solutions") : uniquenessWords(response)),
    showResponse(response) {
      // A pasted URL is read by the solver, which sends back the puzzle it means.
      if (response.puzzle && typeof response.puzzle === "object") {
        load(response.puzzle);
        ctx.redraw();
      }
    },
    setSolution(solution) { view.solution = solution || null; },
    // Each cell holds the rectangle covering it.
    solutionCells(solution) {
      const cells = new Map();
      for (const [top, left, height, width] of solution) {
        for (let r = top; r < top + height; r++) for (let c = left; c < left + width; c++) cells.set(`${r},${c}`, `${top},${left},${height},${width}`);
      }
      return cells;
    },
    clearSolution() { view.solution = null; },
    encode: () => `${view.rows}x${view.cols}:${view.clues.map(([r, c, n]) => `${r}.${c}.${n}`).join(",")}`,
    decode(text) {
      const match = /^(\d+)x(\d+):?(.*)$/.exec(text);
      if (!match) throw new Error("expected <rows>x<cols>:<r>.<c>.<n>,…");
      const clues = match[3] ? match[3].split(",").map((part) => part.split(".").map(Number)) : [];
      load({ rows: Number(match[1]), cols: Number(match[2]), clues });
    },
    exportRequest: () => ({ mode: "solve", limit: 2, puzzle: puzzle() }),
    importRequest(data) { load(data.puzzle); },
  };
}
