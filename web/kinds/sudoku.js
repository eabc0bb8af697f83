// Sudoku editor. Controls (ids): #sudoku-size (4, 6, 9, 16), #sudoku-paste (text box; it
// always shows the current givens after an edit),
// #sudoku-load (load the pasted text), #sudoku-clear, #sudoku-solve (solve, limit 2: also says
// whether the solution is unique), #sudoku-count. Focus #sudoku-canvas and type: 1-9 and A-G
// (values 10-16), arrows move, Backspace/Delete/0/. clear; pasting text on the canvas loads it.
// Share fragment: #sudoku:<n*n characters, '.' blank>.
import { el, groupDigits, labelled } from "../ui.js";
import { boardPoint } from "../draw.js";
import * as render from "../render/sudoku.js";

const BOXES = { 4: [2, 2], 6: [2, 3], 9: [3, 3], 16: [4, 4] };
const EXAMPLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

function parseGrid(text) {
  const chars = text.replace(/\s+/g, "");
  const size = { 16: 4, 36: 6, 81: 9, 256: 16 }[chars.length];
  if (!size) throw new Error(`expected 16, 36, 81 or 256 characters (4x4, 6x6, 9x9 or 16x16), got ${chars.length}`);
  const givens = [];
  for (const ch of chars.toUpperCase()) {
    if (ch === "." || ch === "0" || ch === "_" || ch === "-") givens.push(0);
    else if (/[1-9]/.test(ch)) givens.push(Number(ch));
    else if (/[A-Z]/.test(ch)) givens.push(ch.charCodeAt(0) - 55);
    else throw new Error(`unexpected character ${JSON.stringify(ch)}; use digits, letters above 9, and . for blanks`);
  }
  for (const value of givens) if (value > size) throw new Error(`the value ${render.symbol(value)} does not fit a ${size}x${size} grid`);
  return { size, givens };
}

export function createSudoku(ctx) {
  const view = { size: 9, boxRows: 3, boxCols: 3, givens: parseGrid(EXAMPLE).givens, solution: null, selected: 0 };
  const sizeField = labelled("Size", { tag: "select", id: "sudoku-size" });
  for (const n of [4, 6, 9, 16]) sizeField.input.append(el("option", { value: n, selected: n === 9 }, `${n}x${n}`));
  const paste = labelled("Grid text", { id: "sudoku-paste", placeholder: "81 characters, . for blanks", size: "40", spellcheck: "false" });
  const loadButton = el("button", { id: "sudoku-load", type: "button" }, "Load text");
  const clearButton = el("button", { id: "sudoku-clear", type: "button" }, "Clear grid");
  const solveButton = el("button", { id: "sudoku-solve", type: "button", class: "solve-action primary" }, "Solve");
  const countButton = el("button", { id: "sudoku-count", type: "button", class: "solve-action" }, "Count solutions");

  function setSize(size, givens) {
    const [boxRows, boxCols] = BOXES[size];
    Object.assign(view, { size, boxRows, boxCols, givens: givens || new Array(size * size).fill(0), solution: null, selected: 0 });
    sizeField.input.value = String(size);
    paste.input.value = gridText();
  }

  function gridText() {
    return view.givens.map((v) => (v ? render.symbol(v) : ".")).join("");
  }

  function loadText(text) {
    const { size, givens } = parseGrid(text);
    setSize(size, givens);
  }

  sizeField.input.addEventListener("change", () => { setSize(Number(sizeField.input.value)); ctx.changed(); });
  loadButton.addEventListener("click", () => {
    try { loadText(paste.input.value); ctx.changed(); } catch (error) { ctx.changed(); kind.reportInputError(error); }
  });
  clearButton.addEventListener("click", () => { setSize(view.size); ctx.changed(); });
  const request = (mode) => ({ kind: "sudoku", mode, limit: mode === "solve" ? 2 : undefined, puzzle: { grid: gridText(), box: [view.boxRows, view.boxCols] } });
  solveButton.addEventListener("click", () => ctx.run(request("solve")));
  countButton.addEventListener("click", () => ctx.run(request("count")));

  const inputError = el("div", { id: "sudoku-input-error", class: "error", role: "alert" });

  const kind = {
    id: "sudoku",
    title: "Sudoku",
    engines: ["singles", "dlx", "bitset"],
    controls: el("div", { class: "controls" }, sizeField.wrap, el("div", { class: "row" }, paste.wrap, loadButton), clearButton, inputError,
      el("p", { class: "hint" }, "Click a cell and type: 1–9, A–G above 9; arrows move; Backspace, Delete, 0 or . clear. Paste a grid anywhere on the board.")),
    actions: el("div", { class: "buttons" }, solveButton, countButton),
    reportInputError(error) { inputError.textContent = error.message; },
    attachCanvas(canvas, redraw) {
      canvas.addEventListener("pointerdown", (event) => {
        const [x, y] = boardPoint(canvas, event);
        const index = render.cellAt(view, x, y);
        if (index !== null) { view.selected = index; redraw(); }
        canvas.focus();
      });
      canvas.addEventListener("keydown", (event) => {
        const n = view.size;
        let row = Math.floor(view.selected / n);
        let col = view.selected % n;
        const key = event.key;
        const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
        if (moves[key]) {
          row = (row + moves[key][0] + n) % n;
          col = (col + moves[key][1] + n) % n;
          view.selected = row * n + col;
          redraw();
        } else if (["Backspace", "Delete", "0", ".", " "].includes(key)) {
          setCell(0);
        } else if (/^[1-9a-gA-G]$/.test(key) && !event.ctrlKey && !event.metaKey) {
          const value = /[1-9]/.test(key) ? Number(key) : key.toUpperCase().charCodeAt(0) - 55;
          if (value > n) return;
          setCell(value);
          if (col < n - 1) view.selected += 1;
          redraw();
        } else {
          return;
        }
        event.preventDefault();
      });
      canvas.addEventListener("paste", (event) => {
        const text = event.clipboardData?.getData("text") || "";
        event.preventDefault();
        try { loadText(text); inputError.textContent = ""; ctx.changed(); } catch (error) { inputError.textContent = error.message; }
      });
    },
    // Exports ({exporting: true}) leave out the editing cursor.
    draw: (d, { exporting = false } = {}) => render.draw(d, exporting ? { ...view, selected: null } : view),
    describe(response) {
      if (response.mode === "count") return `${groupDigits(response.count)} solution${response.count === 1 ? "" : "s"}${response.complete ? "" : " (stopped early)"}`;
      if (response.count === 0) return "No solution.";
      if (response.count === 1 && response.complete) return "Unique solution.";
      if (response.count >= 2) return "Several solutions (showing the first two).";
      return "A solution (uniqueness not checked).";
    },
    showResponse(response) {
      kind.uniqueness = response.count === 0 ? "none" : response.count === 1 && response.complete ? "unique" : "several";
    },
    setSolution(solution) { view.solution = solution ? solution.flat() : null; },
    clearSolution() { view.solution = null; inputError.textContent = ""; },
    encode: () => gridText(),
    decode(text) { loadText(text); view.solution = null; },
    exportRequest: () => ({ mode: "solve", limit: 2, puzzle: { grid: gridText(), box: [view.boxRows, view.boxCols] } }),
    importRequest(data) {
      const grid = data.puzzle.grid;
      const text = Array.isArray(grid) ? grid.flat().map((v) => (v ? render.symbol(v) : ".")).join("") : String(grid);
      loadText(text);
    },
  };

  function setCell(value) {
    if (view.givens[view.selected] === value) return;
    view.givens[view.selected] = value;
    paste.input.value = gridText();
    ctx.changed();
  }

  return kind;
}
