// Shikaku editor. Controls (ids): #shikaku-rows, #shikaku-cols, #shikaku-clear,
// #shikaku-url (a puzz.link URL) + #shikaku-load-url (solves it; the parsed puzzle is drawn),
// #shikaku-solve, #shikaku-count. Click a cell of #shikaku-canvas, then type its clue
// (several digits make one number; Backspace removes a digit; Delete or 0 alone clears; arrows
// move). Share fragment: #shikaku:<rows>x<cols>:<r>.<c>.<n>,...
import { clampInt, el, groupDigits, labelled } from "../ui.js";
import { boardPoint } from "../draw.js";
import * as render from "../render/shikaku.js";

// A small example with a unique solution: 7x7 with nine clues.
const EXAMPLE = { rows: 7, cols: 7, clues: [[0, 2, 9], [0, 3, 4], [0, 5, 4], [1, 6, 3], [4, 0, 12], [4, 6, 4], [5, 3, 8], [5, 5, 2], [6, 3, 3]] };

export function createShikaku(ctx) {
  const view = { rows: 7, cols: 7, clues: [], selected: [0, 0], solution: null };
  const clueMap = new Map();
  const rows = labelled("Rows", { id: "shikaku-rows", type: "number", min: "1", max: "60", value: "7" });
  const cols = labelled("Columns", { id: "shikaku-cols", type: "number", min: "1", max: "60", value: "7" });
  const clearButton = el("button", { id: "shikaku-clear", type: "button" }, "Clear clues");
  const url = labelled("puzz.link URL", { id: "shikaku-url", placeholder: "https://puzz.link/p?shikaku/…", size: "40", spellcheck: "false" });
  const loadUrl = el("button", { id: "shikaku-load-url", type: "button", class: "solve-action" }, "Load and solve URL");
  const solveButton = el("button", { id: "shikaku-solve", type: "button", class: "solve-action primary" }, "Solve");
  const countButton = el("button", { id: "shikaku-count", type: "button", class: "solve-action" }, "Count");

  function syncClues() {
    view.clues = [...clueMap.entries()].map(([key, n]) => [...key.split(",").map(Number), n])
      .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    rows.input.value = String(view.rows);
    cols.input.value = String(view.cols);
  }
  function load(puzzle) {
    const r = Number(puzzle.rows);
    const c = Number(puzzle.cols);
    if (!Number.isInteger(r) || !Number.isInteger(c) || r < 1 || c < 1 || r > 200 || c > 200) throw new Error("rows and cols must be whole numbers from 1 to 200");
    if (!Array.isArray(puzzle.clues)) throw new Error("clues must be a list of [row, col, number]");
    view.rows = r;
    view.cols = c;
    clueMap.clear();
    for (const clue of puzzle.clues) {
      const [cr, cc, n] = clue.map(Number);
      if (![cr, cc, n].every(Number.isInteger)) throw new Error(`bad clue ${JSON.stringify(clue)}`);
      clueMap.set(`${cr},${cc}`, n);
    }
    view.selected = null;
    view.solution = null;
    syncClues();
  }
  load(EXAMPLE);
  view.selected = [0, 0];

  const resize = () => {
    view.rows = clampInt(rows.input.value, 1, 60, view.rows);
    view.cols = clampInt(cols.input.value, 1, 60, view.cols);
    for (const key of [...clueMap.keys()]) {
      const [r, c] = key.split(",").map(Number);
      if (r >= view.rows || c >= view.cols) clueMap.delete(key);
    }
    view.selected = null;
    syncClues();
    ctx.changed();
  };
  rows.input.addEventListener("change", resize);
  cols.input.addEventListener("change", resize);
  clearButton.addEventListener("click", () => { clueMap.clear(); syncClues(); ctx.changed(); });

  const puzzle = () => ({ rows: view.rows, cols: view.cols, clues: view.clues.map((clue) => [...clue]) });
  const run = (mode) => {
    return ctx.run({ kind: "shikaku", mode, limit: mode === "solve" ? 2 : undefined, puzzle: puzzle() });
  };
  solveButton.addEventListener("click", () => run("solve"));
  countButton.addEventListener("click", () => run("count"));
  loadUrl.addEventListener("click", () => {
    ctx.run({ kind: "shikaku", mode: "solve", limit: 2, puzzle: { url: url.input.value.trim() } });
  });

  const kind = {
    id: "shikaku",
    title: "Shikaku",
    engines: ["propagate", "dlx"],
    controls: el("div", { class: "controls" },
      el("div", { class: "row" }, rows.wrap, cols.wrap, clearButton),
      el("div", { class: "row" }, url.wrap, loadUrl),
      el("p", { class: "hint" }, "Click a cell and type its number (several digits allowed); Backspace removes a digit, Delete clears, arrows move.")),
    actions: el("div", { class: "buttons" }, solveButton, countButton),
    attachCanvas(canvas, redraw) {
      canvas.addEventListener("pointerdown", (event) => {
        const [x, y] = boardPoint(canvas, event);
        const hit = render.cellAt(view, x, y);
        if (hit) { view.selected = hit; redraw(); }
        canvas.focus();
      });
      canvas.addEventListener("keydown", (event) => {
        if (!view.selected) view.selected = [0, 0];
        const [r, c] = view.selected;
        const key = `${r},${c}`;
        const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
        if (moves[event.key]) {
          view.selected = [(r + moves[event.key][0] + view.rows) % view.rows, (c + moves[event.key][1] + view.cols) % view.cols];
          redraw();
        } else if (/^[0-9]$/.test(event.key)) {
          const next = Number(String(clueMap.get(key) ?? "") + event.key);
          if (next === 0) clueMap.delete(key);
          else if (next <= view.rows * view.cols) clueMap.set(key, next);
          syncClues();
          ctx.changed();
        } else if (event.key === "Backspace") {
          const digits = String(clueMap.get(key) ?? "").slice(0, -1);
          if (digits) clueMap.set(key, Number(digits)); else clueMap.delete(key);
          syncClues();
          ctx.changed();
        } else if (event.key === "Delete" || event.key === " ") {
          clueMap.delete(key);
          syncClues();
          ctx.changed();
        } else {
          return;
        }
        event.preventDefault();
      });
    },
    // Exports ({exporting: true}) leave out the editing cursor.
    draw: (d, { exporting = false } = {}) => render.draw(d, exporting ? { ...view, selected: null } : view),
    describe(response) {
      if (response.mode === "count") return `${groupDigits(response.count)} solution${response.count === 1 ? "" : "s"}${response.complete ? "" : " (stopped early)"}.`;
      if (response.count === 0) return "No solution.";
      if (response.count === 1 && response.complete) return "Unique solution.";
      if (response.count >= 2) return "Several solutions (showing the first two).";
      return "A solution.";
    },
    showResponse(response) {
      // A pasted URL is read by the solver, which sends back the puzzle it means.
      if (response.puzzle && typeof response.puzzle === "object") {
        load(response.puzzle);
        ctx.redraw();
      }
    },
    setSolution(solution) { view.solution = solution || null; },
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
  return kind;
}
