// Shikaku editor. Controls (ids): #shikaku-rows, #shikaku-cols (bounded by Python's limits),
// #shikaku-clear, #shikaku-url (a puzz.link URL or a Tatham Rectangles game ID) + #shikaku-load-url (solves it; the parsed
// puzzle is drawn; Enter in the box does the same), #shikaku-export-url (writes the puzzle's
// puzz.link URL into the box), #shikaku-solve, #shikaku-count. Click a cell of #shikaku-canvas, then type
// its clue (several digits make one number; Backspace removes a digit; Delete or 0 alone
// clears; arrows move). #shikaku-pad: the same keys on screen (#shikaku-key-0 … 9,
// #shikaku-key-backspace, #shikaku-key-clear). #shikaku-clashes says how many clues have no
// room; the board marks them (clueClashes). Share fragment: #shikaku:<rows>x<cols>:<r>.<c>.<n>,...
import { el } from "../../ui/ui.js";
import { keyPad } from "../../ui/keypad.js";
import { cellCursor, countWords, linkBox, sizeFields, uniquenessWords } from "../../ui/widgets.js";
import { readRectanglesId, shikakuUrl } from "./paste.js";

// A small example with a unique solution: 7x7 with nine clues.
const EXAMPLE = { rows: 7, cols: 7, clues: [[0, 2, 9], [0, 3, 4], [0, 5, 4], [1, 6, 3], [4, 0, 12], [4, 6, 4], [5, 3, 8], [5, 5, 2], [6, 3, 3]] };

/**
 * Clues that clearly clash: a clue n with no rectangle of area n around it that fits the board
 * and holds no other clue. Marked with it are the other clues that every such rectangle would
 * hold (they are what leaves it no room), so both sides of a clash show. Returns a Set of
 * "r,c" keys. Each clue looks at the rectangles of its area that contain it, counting the clues
 * inside each one from prefix sums.
 */
export function clueClashes(rows, cols, clues) {
  const stride = cols + 1;
  const sums = new Int32Array((rows + 1) * stride);
  const inside = clues.filter(([r, c]) => r >= 0 && c >= 0 && r < rows && c < cols);
  for (const [r, c] of inside) sums[(r + 1) * stride + c + 1] += 1;
  for (let r = 1; r <= rows; r++) {
    for (let c = 1; c <= cols; c++) sums[r * stride + c] += sums[(r - 1) * stride + c] + sums[r * stride + c - 1] - sums[(r - 1) * stride + c - 1];
  }
  const cluesIn = (top, left, bottom, right) => sums[bottom * stride + right] - sums[top * stride + right]
    - sums[bottom * stride + left] + sums[top * stride + left];
  const clashes = new Set();
  for (const [r, c, n] of inside) {
    let roomy = false;
    let fits = false;
    // The intersection of every rectangle that fits: [top, bottom) x [left, right).
    let [top, left, bottom, right] = [0, 0, rows, cols];
    for (let h = 1; h <= Math.min(n, rows) && !roomy; h++) {
      const w = n / h;
      if (!Number.isInteger(w) || w > cols) continue;
      for (let t = Math.max(0, r - h + 1); t <= Math.min(r, rows - h) && !roomy; t++) {
        for (let l = Math.max(0, c - w + 1); l <= Math.min(c, cols - w); l++) {
          fits = true;
          if (cluesIn(t, l, t + h, l + w) === 1) { roomy = true; break; }
          [top, left, bottom, right] = [Math.max(top, t), Math.max(left, l), Math.min(bottom, t + h), Math.min(right, l + w)];
        }
      }
    }
    if (roomy) continue;
    clashes.add(`${r},${c}`);
    if (!fits) continue; // too big or the wrong shape for the board: nothing else to blame
    for (const [r2, c2] of inside) {
      if (r2 >= top && r2 < bottom && c2 >= left && c2 < right) clashes.add(`${r2},${c2}`);
    }
  }
  return clashes;
}

/** @param {import("../contract.js").KindContext} ctx */
export function createShikaku(ctx) {
  const view = { rows: 7, cols: 7, clues: [], selected: [0, 0], solution: null, clashes: new Set() };
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
  const solveButton = el("button", { id: "shikaku-solve", type: "button", class: "solve-action primary" }, "Solve");
  const countButton = el("button", { id: "shikaku-count", type: "button", class: "solve-action" }, "Count");
  const clashNote = el("p", { id: "shikaku-clashes", class: "hint clash-note", "aria-live": "polite" });
  const pad = keyPad(ctx.id, (key) => {
    if (!view.selected) view.selected = [0, 0];
    editClue({ key }, view.selected);
    ctx.redraw();
  });
  pad.setKeys([
    ..."1234567890".split("").map((digit) => ({ key: digit, label: digit, title: `Type ${digit}` })),
    { key: "Backspace", name: "backspace", label: "⌫", title: "Remove the last digit" },
    { key: "Delete", name: "clear", label: "Clear", title: "Clear the clue" },
  ]);

  function syncClues() {
    view.clues = [...clueMap.entries()].map(([key, n]) => [...key.split(",").map(Number), n])
      .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    view.clashes = clueClashes(view.rows, view.cols, view.clues);
    clashNote.textContent = view.clashes.size
      ? `${view.clashes.size} clues clash (marked in red): a clue with no rectangle of its area that holds no other clue, and the clues in its way.` : "";
    size.show(view.rows, view.cols);
  }
  function load(puzzle) {
    const rows = Number(puzzle.rows);
    const cols = Number(puzzle.cols);
    size.check(rows, cols);
    if (!Array.isArray(puzzle.clues)) throw new Error("clues must be a list of [row, col, number]");
    // The cursor stays where it was if it is still on the board (undo, a reloaded link).
    const selected = view.selected && view.selected[0] < rows && view.selected[1] < cols ? view.selected : null;
    Object.assign(view, { rows, cols, selected, solution: null });
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
  // A Rectangles game ID is read here (web/kinds/shikaku/paste.js) and solved as the board's
  // puzzle; a URL Python reads (pysolver/puzzlink.py): the answer brings the puzzle back.
  const solveUrl = (text) => {
    let fromId;
    try { fromId = readRectanglesId(text, ctx.facts.limits); } catch (error) { ctx.fail(error.message); return; }
    if (fromId === null) {
      ctx.run({ kind: ctx.id, mode: "solve", limit: 2, puzzle: { url: text.trim() } });
      return;
    }
    try { load(fromId); } catch (error) { ctx.fail(error.message); return; }
    ctx.changed();
    run("solve");
  };
  const url = linkBox(ctx.id, {
    label: "puzz.link URL or Rectangles ID",
    placeholder: "https://puzz.link/p?shikaku/… or 7x7:b4b2…",
    load: solveUrl,
    // The puzzle as a puzz.link URL (web/kinds/shikaku/paste.js, the same encoding as pysolver/puzzlink).
    makeUrl: () => shikakuUrl(view.rows, view.cols, view.clues),
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
      url.row,
      el("p", { class: "hint" }, "Click a cell and type its number (several digits allowed) or tap the keys under the board; " +
        "Backspace removes a digit, Delete clears, arrows move.")),
    pad: el("div", { class: "pad-column" }, pad.node, clashNote),
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
      if (!match) throw new Error("it should be the size and the clues, such as 7x7:0.2.9,3.4.6 (row.column.number, counting from 0)");
      const [rows, cols] = [Number(match[1]), Number(match[2])];
      const clues = match[3] ? match[3].split(",").map((part) => {
        if (!/^\d+\.\d+\.\d+$/.test(part)) throw new Error(`the clue "${part}" is not row.column.number`);
        const [r, c, n] = part.split(".").map(Number);
        if (r >= rows || c >= cols) throw new Error(`the clue "${part}" is off the ${rows}x${cols} board (rows and columns count from 0 in links)`);
        if (n < 1) throw new Error(`the clue "${part}" asks for an empty rectangle; a clue is a number from 1`);
        return [r, c, n];
      }) : [];
      load({ rows, cols, clues });
    },
    exportRequest: () => ({ mode: "solve", limit: 2, puzzle: puzzle() }),
    heatmapLabel(index) {
      const clue = view.clues[Number(index)];
      // Counted from 1, as a person counts (the keys stay the protocol's 0-based indices).
      const number = Number(index) + 1;
      return clue ? `clue ${number} (the ${clue[2]} at row ${clue[0] + 1}, column ${clue[1] + 1})` : `clue ${number}`;
    },
    importRequest(data) {
      // A request may name its puzzle by a puzz.link URL: loaded as the URL box loads it.
      if (typeof data.puzzle.url === "string") {
        url.input.value = data.puzzle.url;
        solveUrl(data.puzzle.url);
        return;
      }
      load(data.puzzle);
    },
  };
}
