// Sudoku editor. Controls (ids): #sudoku-size (the sizes in Python's facts), #sudoku-paste (text
// box; it always shows the current givens after an edit), #sudoku-load (load the pasted text),
// #sudoku-clear, #sudoku-solve (solve, limit 2: also says whether the solution is unique),
// #sudoku-count. Focus #sudoku-canvas and type a symbol (1-9, then letters above 9), arrows
// move, Backspace/Delete/Space or a blank symbol clear; pasting text on the canvas loads it.
// Share fragment: #sudoku:<n*n characters, '.' blank>.
import { el, labelled } from "../ui.js";
import { cellCursor, countWords, uniquenessWords } from "../widgets.js";

const EXAMPLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/**
 * Grid text read as Python's sudoku kind reads a string grid (tests/test_web_parsers.py feeds
 * both the same inputs): whitespace is ignored; n*n symbols for one of the sizes in facts.sizes;
 * facts.blanks are blanks and facts.symbols[v - 1] is the value v (letters in either case); a
 * 16x16 grid with "0" and "." in it and no "G" is in the 0-F style ("0" is the first symbol).
 * Returns {size, givens: values row by row, 0 for blank}; throws an Error saying what is wrong.
 */
export function parseGrid(text, facts) {
  const chars = [...text.replace(/\s+/g, "")];
  const size = facts.sizes.find(({ n }) => n * n === chars.length);
  if (!size) {
    const sizes = facts.sizes.map(({ n }) => `${n * n} (${n}x${n})`).join(", ");
    throw new Error(`expected ${sizes} symbols, got ${chars.length}`);
  }
  const n = size.n;
  const upper = chars.map((ch) => ch.toUpperCase());
  const zeroBased = n === 16 && upper.includes("0") && upper.includes(".") && !upper.includes("G");
  const givens = upper.map((ch, position) => {
    let value = facts.blanks.includes(ch) ? 0 : facts.symbols.indexOf(ch) + 1;
    if (zeroBased && ch !== ".") value = ch === "0" ? 1 : value > 0 ? value + 1 : 0;
    const blank = facts.blanks.includes(ch) && !(zeroBased && ch === "0");
    if ((value === 0 && !blank) || value > n) {
      const where = `row ${Math.floor(position / n) + 1}, column ${(position % n) + 1}`;
      throw new Error(`the symbol ${JSON.stringify(chars[position])} at ${where} does not fit a ${n}x${n} grid; ` +
        `use ${zeroBased ? "0-9 and A-F" : facts.symbols.slice(0, n)} and ${JSON.stringify(facts.blanks[0])} for blanks`);
    }
    return value;
  });
  return { size, givens };
}

/** @param {import("./index.js").KindContext} ctx */
export function createSudoku(ctx) {
  const { facts } = ctx;
  const view = { size: 9, boxRows: 3, boxCols: 3, givens: [], solution: null, selected: 0, symbols: facts.symbols };
  const sizeField = labelled("Size", { tag: "select", id: "sudoku-size" });
  for (const { n } of facts.sizes) sizeField.input.append(el("option", { value: n }, `${n}x${n}`));
  const paste = labelled("Grid text", { id: "sudoku-paste", placeholder: "81 characters, . for blanks", size: "40", spellcheck: "false" });
  const loadButton = el("button", { id: "sudoku-load", type: "button" }, "Load text");
  const clearButton = el("button", { id: "sudoku-clear", type: "button" }, "Clear grid");
  const solveButton = el("button", { id: "sudoku-solve", type: "button", class: "solve-action primary" }, "Solve");
  const countButton = el("button", { id: "sudoku-count", type: "button", class: "solve-action" }, "Count solutions");
  const inputError = el("div", { id: "sudoku-input-error", class: "error", role: "alert" });

  const symbolOf = (value) => (value ? facts.symbols[value - 1] : ".");
  const gridText = () => view.givens.map(symbolOf).join("");

  function setSize(size, givens) {
    const [boxRows, boxCols] = size.box;
    Object.assign(view, { size: size.n, boxRows, boxCols, givens: givens || new Array(size.n * size.n).fill(0), solution: null, selected: 0 });
    sizeField.input.value = String(size.n);
    paste.input.value = gridText();
  }
  function loadText(text) {
    const { size, givens } = parseGrid(text, facts);
    setSize(size, givens);
  }
  loadText(EXAMPLE);

  sizeField.input.addEventListener("change", () => {
    setSize(facts.sizes.find(({ n }) => String(n) === sizeField.input.value));
    ctx.changed();
  });
  loadButton.addEventListener("click", () => {
    try { loadText(paste.input.value); ctx.changed(); } catch (error) { ctx.changed(); inputError.textContent = error.message; }
  });
  clearButton.addEventListener("click", () => { setSize(facts.sizes.find(({ n }) => n === view.size)); ctx.changed(); });
  const puzzle = () => ({ grid: gridText(), box: [view.boxRows, view.boxCols] });
  const request = (mode) => ({ kind: ctx.id, mode, limit: mode === "solve" ? 2 : undefined, puzzle: puzzle() });
  solveButton.addEventListener("click", () => ctx.run(request("solve")));
  countButton.addEventListener("click", () => ctx.run(request("count")));

  function setCell(value) {
    if (view.givens[view.selected] === value) return;
    view.givens[view.selected] = value;
    paste.input.value = gridText();
    ctx.changed();
  }

  // A symbol typed on the board fills the cell and steps right; blanks and Delete clear it.
  function typeSymbol(event, [, col]) {
    const key = event.key;
    if (["Backspace", "Delete", " "].includes(key) || (key.length === 1 && facts.blanks.includes(key))) {
      setCell(0);
      return true;
    }
    const value = key.length === 1 ? facts.symbols.indexOf(key.toUpperCase()) + 1 : 0;
    if (value === 0 || value > view.size) return false;
    setCell(value);
    if (col < view.size - 1) view.selected += 1;
    ctx.redraw();
    return true;
  }

  return {
    view,
    controls: el("div", { class: "controls" }, sizeField.wrap, el("div", { class: "row" }, paste.wrap, loadButton), clearButton, inputError,
      el("p", { class: "hint" }, "Click a cell and type: 1–9, then letters above 9; arrows move; Backspace, Delete, 0 or . clear. Paste a grid anywhere on the board.")),
    actions: el("div", { class: "buttons" }, solveButton, countButton),
    attachCanvas(canvas) {
      const n = () => view.size;
      cellCursor(canvas, {
        cursor: {
          get: () => [Math.floor(view.selected / n()), view.selected % n()],
          set: ([r, c]) => { view.selected = r * n() + c; },
          size: () => [n(), n()],
        },
        cellAt: ctx.cellAt,
        onKey: typeSymbol,
      }, ctx.redraw);
      canvas.addEventListener("paste", (event) => {
        const text = event.clipboardData?.getData("text") || "";
        event.preventDefault();
        try { loadText(text); inputError.textContent = ""; ctx.changed(); } catch (error) { inputError.textContent = error.message; }
      });
    },
    describe: (response) => (response.mode === "count" ? countWords(response, "solution", "solutions") : uniquenessWords(response)),
    setSolution(solution) { view.solution = solution ? solution.flat() : null; },
    solutionCells: (solution) => new Map(solution.flatMap((row, r) => row.map((value, c) => [`${r},${c}`, String(value)]))),
    clearSolution() { view.solution = null; inputError.textContent = ""; },
    encode: () => gridText(),
    decode(text) { loadText(text); },
    exportRequest: () => ({ mode: "solve", limit: 2, puzzle: puzzle() }),
    importRequest(data) {
      const grid = data.puzzle.grid;
      loadText(Array.isArray(grid) ? grid.flat().map(symbolOf).join("") : String(grid));
    },
  };
}
