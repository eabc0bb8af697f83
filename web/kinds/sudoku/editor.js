// Sudoku editor. Controls (ids): #sudoku-size (the sizes in Python's facts), #sudoku-paste (text
// box; it always shows the current givens after an edit), #sudoku-load (load the pasted text),
// #sudoku-clear, #sudoku-solve (solve, limit 2: also says whether the solution is unique),
// #sudoku-count. Focus #sudoku-canvas and type a symbol (1-9, then letters above 9), arrows
// move, Backspace/Delete/Space or a blank symbol clear; pasting text on the canvas loads it.
// The cursor model is Simon Tatham's: typing fills the cell under the cursor and leaves the
// cursor there, so Backspace always clears the cell the cursor is on. #sudoku-pad: the same
// keys on screen (#sudoku-key-<symbol>, #sudoku-key-clear). #sudoku-clashes says how many
// givens clash; the board marks each of them (two equal symbols in a row, column or box).
// #sudoku-symbols (16x16 only): "1-G" (1-9 then A-G) or "0-F" (0-9 then A-F, as many puzzle
// books print them). Share fragment: #sudoku:<n*n characters, '.' blank>, "0-F:" before them in
// the 0-F style. The variants (jigsaw regions, X diagonals, killer cages) are edited by
// web/kinds/sudoku/variants.js and ride in the link after the grid ("/R...", "/X", "/K...").
import { el, labelled } from "../../ui/ui.js";
import { keyPad } from "../../ui/keypad.js";
import { cellCursor, countWords, uniquenessWords } from "../../ui/widgets.js";
import { sentence } from "../../ui/words.js";
import { readPastedGrid } from "./paste.js";
import { createVariantEditor, decodeVariants, encodeVariants, readVariantFields, variantFields, variantUnits } from "./variants.js";
import { createSetter } from "./setter.js";

const EXAMPLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/** How a message lists characters: "." or "_"; ".", "0" or "_". */
function listed(chars) {
  const quoted = [...chars].map((ch) => JSON.stringify(ch));
  return quoted.length < 2 ? quoted.join("") : `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`;
}

/** "spaces, line breaks, "|", "-" and "+" are ignored", from Python's layout characters. */
function ignoredWords(facts) {
  return `spaces, line breaks, ${listed(facts.layout).replace(/ or (?=[^ ]*$)/, " and ")} are ignored`;
}

/**
 * Grid text read as Python's sudoku kind reads a string grid (tests/test_web_parsers.py feeds
 * both the same inputs): whitespace and facts.layout ("|", "-", "+": box lines people paste) are
 * ignored; n*n symbols for one of the sizes in facts.sizes; facts.blanks are blanks and
 * facts.symbols[v - 1] is the value v (letters in either case). style "auto" reads a 16x16 grid
 * with "0" and "." in it and no "G" in the 0-F style ("0" is the first symbol, "." and "_" the
 * blanks); "1-G" or "0-F" says which. Returns {size, givens: values row by row, 0 for blank,
 * style: "0-F" | "1-G" | "digits"}; throws an Error naming the wrong character and its place.
 */
export function parseGrid(text, facts, style = "auto") {
  const layout = new Set([...facts.layout]);
  const chars = [...text.replace(/\s+/g, "")].filter((ch) => !layout.has(ch));
  const size = facts.sizes.find(({ n }) => n * n === chars.length);
  if (!size) {
    const sizes = facts.sizes.map(({ n }) => `${n * n} (${n}x${n})`).join(", ");
    throw new Error(`the grid has ${chars.length} symbols; expected ${sizes}, with blanks as "." (${ignoredWords(facts)})`);
  }
  const n = size.n;
  const upper = chars.map((ch) => ch.toUpperCase());
  const zeroBased = style === "auto" ? n === 16 && upper.includes("0") && upper.includes(".") && !upper.includes("G") : style === "0-F";
  if (zeroBased && n !== 16) throw new Error(`the 0-F symbols are for 16x16 grids; this one is ${n}x${n}`);
  const zeroF = facts.styles["0-F"];
  const { symbols, blanks } = zeroBased ? zeroF : facts;
  const givens = upper.map((ch, position) => {
    const blank = blanks.includes(ch);
    const value = blank ? 0 : symbols.indexOf(ch) + 1;
    if ((value === 0 && !blank) || value > n) {
      const where = `row ${Math.floor(position / n) + 1}, column ${(position % n) + 1}`;
      const allowed = zeroBased ? zeroF.label.replace(", ", " and ") : n <= 9 ? `1-${n}` : `1-9 and A-${facts.symbols[n - 1]}`;
      throw new Error(`the character ${JSON.stringify(chars[position])} at ${where} is not a symbol of a ${n}x${n} grid; ` +
        `use ${allowed}, and ${listed(blanks)} for blanks`);
    }
    return value;
  });
  return { size, givens, style: zeroBased ? "0-F" : n === 16 ? "1-G" : "digits" };
}

/**
 * The units of a grid (each a list of cell indices whose symbols must differ): rows, columns,
 * boxes (unless boxes is false: regions replace them) and extraUnits (a variant's regions,
 * diagonals, cages).
 */
export function gridUnits(n, boxRows, boxCols, { extraUnits = [], boxes = true } = {}) {
  const units = [...extraUnits];
  for (let i = 0; i < n; i++) {
    units.push(Array.from({ length: n }, (_, j) => i * n + j)); // row i
    units.push(Array.from({ length: n }, (_, j) => j * n + i)); // column i
    if (!boxes) continue;
    const top = Math.floor(i / (n / boxCols)) * boxRows;
    const left = (i % (n / boxCols)) * boxCols;
    units.push(Array.from({ length: n }, (_, j) => (top + Math.floor(j / boxCols)) * n + left + (j % boxCols))); // box i
  }
  return units;
}

/**
 * The cells whose symbol also stands elsewhere in one of their units: both cells of every such
 * pair. values: row by row (0 blank); units: gridUnits' lists. Returns a Set of cell indices.
 */
export function clashesIn(values, units) {
  const clashes = new Set();
  for (const unit of units) {
    const seen = new Map();
    for (const index of unit) {
      const value = values[index];
      if (!value) continue;
      if (seen.has(value)) { clashes.add(index); clashes.add(seen.get(value)); } else seen.set(value, index);
    }
  }
  return clashes;
}

/**
 * The cells whose given symbol also stands elsewhere in their row, column or box: both cells
 * of every such pair. givens: values row by row (0 blank). Returns a Set of cell indices.
 * extraUnits: more cell lists (a variant's regions, diagonals, cages); boxes: false when
 * regions replace the boxes.
 */
export function clashingCells(givens, n, boxRows, boxCols, options = {}) {
  return clashesIn(givens, gridUnits(n, boxRows, boxCols, options));
}

/** @param {import("../contract.js").KindContext} ctx */
export function createSudoku(ctx) {
  const { facts } = ctx;
  const view = { size: 9, boxRows: 3, boxCols: 3, givens: [], solution: null, selected: 0, symbols: facts.symbols, style: "1-G", clashes: new Set() };
  const sizeField = labelled("Size", { tag: "select", id: "sudoku-size" });
  for (const { n } of facts.sizes) sizeField.input.append(el("option", { value: n }, `${n}x${n}`));
  const style = labelled("Symbols", { tag: "select", id: "sudoku-symbols" });
  for (const [name, { label }] of Object.entries(facts.styles)) style.input.append(el("option", { value: name }, label));
  // A text area, so a grid pasted in several lines (a frame, CSV rows) keeps its line breaks.
  const paste = labelled("Grid text", { tag: "textarea", id: "sudoku-paste", rows: "2", placeholder: "81 symbols (. 0 * x blanks), CSV rows, a framed grid, a sudokuwiki or puzz.link link or a Solo game ID", spellcheck: "false" });
  const loadButton = el("button", { id: "sudoku-load", type: "button" }, "Load text");
  const clearButton = el("button", { id: "sudoku-clear", type: "button" }, "Clear grid");
  const solveButton = el("button", { id: "sudoku-solve", type: "button", class: "solve-action primary" }, "Solve");
  const countButton = el("button", { id: "sudoku-count", type: "button", class: "solve-action" }, "Count solutions");
  const inputError = el("div", { id: "sudoku-input-error", class: "error", role: "alert" });
  const typingHint = el("p", { id: "sudoku-typing-hint", class: "hint" });
  const clashNote = el("p", { id: "sudoku-clashes", class: "hint clash-note", "aria-live": "polite" });
  const pad = keyPad(ctx.id, (key) => {
    typeSymbol({ key });
    ctx.redraw();
  });

  const variants = createVariantEditor(view, {
    changed: () => { givensChanged(); ctx.changed(); },
    redraw: () => ctx.redraw(),
  });
  let padSymbols = ""; // the symbols on the pad's keys now
  const symbolOf = (value) => (value ? view.symbols[value - 1] : ".");
  const gridText = () => view.givens.map(symbolOf).join("");

  // The marks and words that follow the givens: clashes and the text box.
  function givensChanged() {
    view.clashes = clashingCells(view.givens, view.size, view.boxRows, view.boxCols, { extraUnits: variantUnits(view), boxes: !view.regions });
    const where = view.regions || view.diagonals || view.cages.length ? "row, column, box, region, diagonal or cage" : "row, column or box";
    clashNote.textContent = view.clashes.size
      ? `${view.clashes.size} givens clash (marked in red): a symbol twice in a ${where}.` : "";
    paste.input.value = gridText();
  }

  // A new grid; the cursor stays where it was if the size is the same (undo, a pasted grid).
  function setSize(size, givens) {
    const [boxRows, boxCols] = size.box;
    const selected = size.n === view.size ? view.selected : 0;
    if (size.n !== view.size) variants.reset(); // regions and cages are for one size
    Object.assign(view, { size: size.n, boxRows, boxCols, givens: givens || new Array(size.n * size.n).fill(0), solution: null, selected });
    sizeField.input.value = String(size.n);
    setStyle(size.n === 16 ? view.style : "1-G");
  }
  // The symbols a 16x16 grid is shown and typed in (the pad's keys too); the values stay.
  function setStyle(chosen) {
    view.style = chosen;
    view.symbols = chosen === "0-F" ? facts.styles["0-F"].symbols : facts.symbols;
    style.input.value = chosen;
    style.wrap.hidden = view.size !== 16;
    // In the 0-F style "0" is a symbol, so it does not clear a cell.
    typingHint.textContent = `Click a cell and type (${chosen === "0-F" ? "0–9, then A–F" : "1–9, then letters above 9"}) or tap the keys under the board. ` +
      `Typing does not move the cursor: arrows do. Backspace, Delete${chosen === "0-F" ? ", . or _" : ", 0 or ."} clear the cell under the cursor. ` +
      "Paste a grid anywhere on the board, in the text box's forms.";
    const symbols = view.symbols.slice(0, view.size);
    if (symbols !== padSymbols) {
      padSymbols = symbols;
      pad.setKeys([
        ...symbols.split("").map((symbol) => ({ key: symbol, label: symbol, title: `Put ${symbol} in the selected cell` })),
        { key: "Delete", name: "clear", label: "Clear", title: "Clear the selected cell" },
      ]);
    }
    givensChanged();
  }
  function loadText(text, how = "auto") {
    const { size, givens, style: read } = parseGrid(text, facts, how);
    view.style = read === "0-F" ? "0-F" : "1-G";
    setSize(size, givens);
  }
  // Text a person pasted (the text box, the board): other programs' layouts and IDs too.
  function loadPastedText(text) {
    const read = readPastedGrid(text, facts.limits.max_size);
    const { size } = parseGrid(read.text, facts); // throws before anything changes
    if (read.box && (read.box[0] !== size.box[0] || read.box[1] !== size.box[1])) {
      throw new Error(`this game's boxes are ${read.box[0]} rows by ${read.box[1]} columns; the ${size.n}x${size.n} board here has boxes of ${size.box[0]} rows by ${size.box[1]} columns`);
    }
    loadText(read.text);
    if (read.source === "solo") setVariants({ regions: null, diagonals: Boolean(read.diagonals), cages: [] }); // the whole game
    inputError.textContent = "";
  }
  loadText(EXAMPLE);

  style.input.addEventListener("change", () => { setStyle(style.input.value); ctx.changed(); });
  sizeField.input.addEventListener("change", () => {
    setSize(facts.sizes.find(({ n }) => String(n) === sizeField.input.value));
    ctx.changed();
  });
  const loadPasted = () => {
    try { loadPastedText(paste.input.value); ctx.changed(); } catch (error) { ctx.changed(); inputError.textContent = sentence(error.message); }
  };
  loadButton.addEventListener("click", loadPasted);
  // Enter loads the text (as in a one-line box); Shift+Enter breaks the line.
  paste.input.addEventListener("keydown", (event) => { if (event.key === "Enter" && !event.shiftKey) { event.preventDefault(); loadPasted(); } });
  clearButton.addEventListener("click", () => { setSize(facts.sizes.find(({ n }) => n === view.size)); ctx.changed(); });
  const puzzle = () => ({
    grid: gridText(),
    ...(view.regions ? {} : { box: [view.boxRows, view.boxCols] }), // regions replace the boxes
    ...variantFields(view),
    ...(view.style === "0-F" && view.size === 16 ? { symbols: "0-F" } : {}),
  });
  // The variants of a link or a request, once the grid is loaded.
  const setVariants = (read) => {
    Object.assign(view, read, { cageSelection: new Set() });
    variants.refresh();
    givensChanged();
  };
  // The Setter (web/kinds/sudoku/setter.js): assist mode, beside Solve.
  const setter = createSetter(ctx, view, {
    puzzle: () => puzzle(),
    setGiven: (index, value) => { view.selected = index; setCell(value); },
    redraw: () => ctx.redraw(),
  });
  const request = (mode) => ({ kind: ctx.id, mode, limit: mode === "solve" ? 2 : undefined, puzzle: puzzle() });
  solveButton.addEventListener("click", () => ctx.run(request("solve")));
  countButton.addEventListener("click", () => ctx.run(request("count")));

  function setCell(value) {
    if (view.givens[view.selected] === value) return;
    view.givens[view.selected] = value;
    givensChanged();
    ctx.changed();
  }

  // A key typed on the board (or tapped on the pad): a symbol fills the cell under the cursor,
  // blanks, Backspace, Delete and Space clear it; the cursor stays (only arrows move it).
  function typeSymbol({ key }) {
    if (variants.typeKey(key)) { ctx.redraw(); return true; } // a cage's sum
    const blanks = view.style === "0-F" ? facts.styles["0-F"].blanks : facts.blanks;
    if (["Backspace", "Delete", " "].includes(key) || (key.length === 1 && blanks.includes(key))) {
      setCell(0);
      return true;
    }
    const value = key.length === 1 ? view.symbols.indexOf(key.toUpperCase()) + 1 : 0;
    if (value === 0 || value > view.size) return false;
    setCell(value);
    return true;
  }

  return {
    view,
    controls: el("div", { class: "controls" }, el("div", { class: "row" }, sizeField.wrap, style.wrap), el("div", { class: "row" }, paste.wrap, loadButton), clearButton, inputError,
      typingHint,
      variants.controls),
    pad: el("div", { class: "pad-column" }, variants.nearBoard, pad.node, clashNote),
    actions: el("div", { class: "buttons" }, solveButton, countButton, setter.button),
    extra: setter.panel,
    showResponse: setter.show,
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
      variants.attachCanvas(canvas, ctx.cellAt);
      canvas.addEventListener("paste", (event) => {
        const text = event.clipboardData?.getData("text") || "";
        event.preventDefault();
        try { loadPastedText(text); ctx.changed(); } catch (error) { inputError.textContent = sentence(error.message); }
      });
    },
    describe: (response) => (response.mode === "assist" ? setter.describe(response) : response.mode === "count" ? countWords(response, "solution", "solutions") : uniquenessWords(response)),
    setSolution(solution) { view.solution = solution ? solution.flat() : null; },
    solutionCells: (solution) => new Map(solution.flatMap((row, r) => row.map((value, c) => [`${r},${c}`, String(value)]))),
    clearSolution() { view.solution = null; inputError.textContent = ""; setter.clear(); },
    encode: () => (view.style === "0-F" && view.size === 16 ? `0-F:${gridText()}` : gridText()) + encodeVariants(view),
    decode(text) {
      const [grid, ...parts] = text.split("/");
      if (grid.startsWith("0-F:")) loadText(grid.slice(4), "0-F"); else loadText(grid);
      setVariants(decodeVariants(parts, view.size));
    },
    exportRequest: () => ({ mode: "solve", limit: 2, puzzle: puzzle() }),
    heatmapLabel: (digit) => `digit ${facts.symbols[Number(digit) - 1] ?? digit}`,
    importRequest(data) {
      const grid = data.puzzle.grid;
      const how = ["1-G", "0-F"].includes(data.puzzle.symbols) ? data.puzzle.symbols : "auto";
      if (Array.isArray(grid) && grid.every((row) => Array.isArray(row))) {
        view.symbols = facts.symbols;
        loadText(grid.flat().map((value) => (value ? facts.symbols[value - 1] : ".")).join(""));
      } else {
        loadText(Array.isArray(grid) ? grid.join("\n") : String(grid), how);
      }
      setVariants(readVariantFields(data.puzzle, view.size));
    },
  };
}
