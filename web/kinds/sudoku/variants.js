// The Sudoku variants of Simon Tatham's Solo on the Sudoku board: jigsaw regions, X diagonals
// and killer cages (Python: pysolver/kinds/sudoku_variants.py). Pure helpers for the puzzle
// fields and the share link, and the editor's controls (createVariantEditor), used by
// web/kinds/sudoku/editor.js. The view holds regions (region number per cell, or null for the
// boxes), diagonals (bool), cages ([{sum, cells: [cell index]}]), editing ("digits",
// "regions" or "cages") and cageSelection (a Set of cell indices).
//
// Controls (ids): #sudoku-edit (what a click or drag on the board edits), #sudoku-diagonals,
// #sudoku-region (the label painted), #sudoku-regions-boxes (back to boxes),
// #sudoku-cage-sum, #sudoku-cage-make, #sudoku-cage-remove, #sudoku-cages-clear and the note
// #sudoku-variant-note (regions of the wrong size). In cage mode digits typed on the board or
// the pad go to the sum, Enter makes the cage of the selected cells, Escape drops the selection.
//
// Share link: the grid, then "/R" and the region labels row by row, "/X" for diagonals, "/K"
// and the cages joined by ",", each its sum, "." and its cells as two base-36 digits each.

import { el, labelled } from "../../ui/ui.js";
import { paintCells } from "../../ui/widgets.js";

export const REGION_LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** Region numbers per cell from labels (any characters), numbered in reading order. */
export function regionsFromLabels(labels) {
  const numbers = new Map();
  return [...labels].map((label) => {
    if (!numbers.has(label)) numbers.set(label, numbers.size);
    return numbers.get(label);
  });
}

/** The variant fields of a request's puzzle for this view (none for a plain Sudoku). */
export function variantFields(view) {
  const n = view.size;
  const fields = {};
  if (view.regions) {
    fields.regions = Array.from({ length: n }, (_, r) => view.regions.slice(r * n, (r + 1) * n).map((k) => REGION_LABELS[k]).join(""));
  }
  if (view.diagonals) fields.diagonals = true;
  if (view.cages.length) {
    fields.cages = view.cages.map(({ sum, cells }) => ({ sum, cells: cells.map((index) => [Math.floor(index / n), index % n]) }));
  }
  return fields;
}

/** The view's variants from a request's puzzle (regions as row strings, cages with [r, c]). */
export function readVariantFields(puzzle, n) {
  return {
    regions: Array.isArray(puzzle.regions) ? regionsFromLabels(puzzle.regions.join("")) : null,
    diagonals: puzzle.diagonals === true,
    cages: (puzzle.cages || []).map(({ sum, cells }) => ({ sum, cells: cells.map(([r, c]) => r * n + c) })),
  };
}

/** The share link's text of the variants ("" for a plain Sudoku). */
export function encodeVariants(view) {
  let text = "";
  if (view.regions) text += `/R${view.regions.map((k) => REGION_LABELS[k]).join("")}`;
  if (view.diagonals) text += "/X";
  if (view.cages.length) {
    text += `/K${view.cages.map(({ sum, cells }) => `${sum}.${cells.map((index) => index.toString(36).padStart(2, "0")).join("")}`).join(",")}`;
  }
  return text;
}

/** The variants of a share link's parts after the grid (["R...", "X", "K..."]); throws on
 *  a part it cannot read. */
export function decodeVariants(parts, n) {
  const variants = { regions: null, diagonals: false, cages: [] };
  for (const part of parts) {
    if (part === "X") variants.diagonals = true;
    else if (part.startsWith("R") && part.length === n * n + 1) variants.regions = regionsFromLabels(part.slice(1));
    else if (part.startsWith("K")) {
      variants.cages = part.slice(1).split(",").filter(Boolean).map((cage) => {
        const [sum, cells] = cage.split(".");
        if (!/^\d+$/.test(sum) || !cells || cells.length % 2 || !/^[0-9a-z]+$/i.test(cells)) throw new Error(`the cage "${cage}" is not a sum, ".", and cells as pairs of base-36 digits`);
        const indices = cells.match(/../g).map((pair) => Number.parseInt(pair, 36));
        if (indices.some((index) => index >= n * n)) throw new Error(`the cage "${cage}" has a cell off the ${n}x${n} grid`);
        if (Number(sum) < 1) throw new Error(`the cage "${cage}" has the sum 0; a cage's digits add up to at least 1`);
        return { sum: Number(sum), cells: indices };
      });
    } else throw new Error(`the link part "/${part.slice(0, 20)}" is not regions (/R), diagonals (/X) or cages (/K)`);
  }
  return variants;
}

/** The cell lists of the variants' extra units (regions replace boxes; diagonals; cages), for
 *  the clash marks. */
export function variantUnits(view) {
  const n = view.size;
  const units = [];
  if (view.regions) {
    for (let k = 0; k < n; k++) units.push(view.regions.flatMap((region, index) => (region === k ? [index] : [])));
  }
  if (view.diagonals) {
    units.push(Array.from({ length: n }, (_, i) => i * n + i));
    units.push(Array.from({ length: n }, (_, i) => i * n + n - 1 - i));
  }
  for (const cage of view.cages) units.push(cage.cells);
  return units;
}

/** Words about regions that are not n regions of n cells ("" when they are). */
export function regionProblems(regions, n) {
  if (!regions) return "";
  const sizes = new Array(n).fill(0);
  for (const region of regions) sizes[region] = (sizes[region] ?? 0) + 1;
  const wrong = sizes.flatMap((size, k) => (size === n ? [] : [`${REGION_LABELS[k]} has ${size}`]));
  return wrong.length ? `Each region needs ${n} cells: ${wrong.join(", ")}.` : "";
}

/** The boxes as region numbers (row by row), the start of a jigsaw. */
function boxRegions(view) {
  const n = view.size;
  const across = n / view.boxCols;
  return Array.from({ length: n * n }, (_, index) =>
    Math.floor(Math.floor(index / n) / view.boxRows) * across + Math.floor((index % n) / view.boxCols));
}

/**
 * The variant controls of the Sudoku editor. hooks: changed() after an edit of the puzzle,
 * redraw() after a change of the marks only. Returns {controls, nearBoard (the cage sum's row
 * and the variant note, which the editor shows right under the board: on a phone the controls
 * are far below it, and the sum is typed while the cells are selected), attachCanvas(canvas, cellAt),
 * typeKey(key) -> bool (keys in cage mode), reset() (a new size: no variants), refresh()
 * (the controls after the view changed from outside: undo, a link)}.
 */
export function createVariantEditor(view, { changed, redraw }) {
  Object.assign(view, { regions: null, diagonals: false, cages: [], editing: "digits", cageSelection: new Set() });
  const mode = labelled("Edit", { tag: "select", id: "sudoku-edit" });
  mode.input.append(el("option", { value: "digits" }, "Digits"), el("option", { value: "regions" }, "Regions (jigsaw)"), el("option", { value: "cages" }, "Cages (killer)"));
  const diagonals = el("input", { type: "checkbox", id: "sudoku-diagonals" });
  const diagonalsWrap = el("label", { class: "field", for: "sudoku-diagonals" }, diagonals, " Diagonals (Sudoku X)");
  const region = labelled("Region", { tag: "select", id: "sudoku-region" });
  const boxesButton = el("button", { id: "sudoku-regions-boxes", type: "button" }, "Boxes again");
  const sum = labelled("Cage sum", { id: "sudoku-cage-sum", inputmode: "numeric", size: "4", autocomplete: "off" });
  const makeButton = el("button", { id: "sudoku-cage-make", type: "button" }, "Make cage");
  const removeButton = el("button", { id: "sudoku-cage-remove", type: "button" }, "Remove cage");
  const clearButton = el("button", { id: "sudoku-cages-clear", type: "button" }, "Clear cages");
  const note = el("p", { id: "sudoku-variant-note", class: "hint", "aria-live": "polite" });
  const regionRow = el("div", { class: "row" }, region.wrap, boxesButton);
  const cageRow = el("div", { class: "row" }, sum.wrap, makeButton, removeButton, clearButton);
  const hint = el("p", { class: "hint" });

  function refresh() {
    mode.input.value = view.editing;
    diagonals.checked = view.diagonals;
    regionRow.hidden = view.editing !== "regions";
    cageRow.hidden = view.editing !== "cages";
    const labels = REGION_LABELS.slice(0, view.size);
    if (region.input.options.length !== labels.length) {
      region.input.replaceChildren(...[...labels].map((label) => el("option", { value: label }, label)));
    }
    hint.textContent = view.editing === "regions"
      ? "Choose a region, then click or drag over cells to put them in it."
      : view.editing === "cages" ? "Click or drag to select cells (Shift adds), type the sum, then Enter or Make cage." : "";
    note.textContent = regionProblems(view.regions, view.size);
  }

  function makeCage() {
    const cells = [...view.cageSelection].sort((a, b) => a - b);
    const total = Number(sum.input.value);
    if (!cells.length || !Number.isInteger(total) || total <= 0) {
      note.textContent = "Select the cage's cells and type its sum first.";
      return;
    }
    // A new cage takes its cells from any cage they were in.
    view.cages = view.cages.map((cage) => ({ ...cage, cells: cage.cells.filter((index) => !view.cageSelection.has(index)) })).filter((cage) => cage.cells.length);
    view.cages.push({ sum: total, cells });
    view.cageSelection = new Set();
    sum.input.value = "";
    changed();
  }
  function removeCages() {
    const before = view.cages.length;
    view.cages = view.cages.filter((cage) => !cage.cells.some((index) => view.cageSelection.has(index)));
    view.cageSelection = new Set();
    if (view.cages.length !== before) changed(); else redraw();
  }

  mode.input.addEventListener("change", () => {
    view.editing = mode.input.value;
    if (view.editing === "regions" && !view.regions) { view.regions = boxRegions(view); changed(); }
    view.cageSelection = new Set();
    refresh();
    redraw();
  });
  diagonals.addEventListener("change", () => { view.diagonals = diagonals.checked; changed(); });
  boxesButton.addEventListener("click", () => { view.regions = null; view.editing = "digits"; refresh(); changed(); });
  makeButton.addEventListener("click", makeCage);
  removeButton.addEventListener("click", removeCages);
  clearButton.addEventListener("click", () => { view.cages = []; view.cageSelection = new Set(); changed(); });
  sum.input.addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); makeCage(); } });

  function attachCanvas(canvas, cellAt) {
    const index = ([r, c]) => r * view.size + c;
    // Regions: every cell touched takes the chosen label.
    const paintRegion = (event) => {
      const hit = view.editing === "regions" && view.regions ? cellAt(event) : null;
      const label = REGION_LABELS.indexOf(region.input.value);
      if (!hit || view.regions[index(hit)] === label) return;
      view.regions[index(hit)] = label;
      note.textContent = regionProblems(view.regions, view.size);
      changed();
    };
    canvas.addEventListener("pointerdown", paintRegion);
    canvas.addEventListener("pointermove", (event) => { if (event.buttons & 1) paintRegion(event); });
    // Cages: a plain click starts a new selection (Shift adds to it); a drag selects or
    // deselects, as the first cell touched decides.
    canvas.addEventListener("pointerdown", (event) => {
      if (view.editing !== "cages" || event.shiftKey) return;
      const hit = cellAt(event);
      if (!hit || !view.cageSelection.has(index(hit))) view.cageSelection = new Set();
    });
    paintCells(canvas, {
      cellAt: (event) => (view.editing === "cages" ? cellAt(event) : null),
      isOn: (cell) => view.cageSelection.has(index(cell)),
      setOn(cell, on) {
        if (on) view.cageSelection.add(index(cell));
        else view.cageSelection.delete(index(cell));
      },
    }, redraw);
  }

  // A key in cage mode: digits and Backspace edit the sum, Enter makes the cage.
  function typeKey(key) {
    if (view.editing !== "cages") return false;
    if (/^[0-9]$/.test(key)) sum.input.value += key;
    else if (key === "Backspace" || key === "Delete") sum.input.value = sum.input.value.slice(0, -1);
    else if (key === "Enter") makeCage();
    else if (key === "Escape") { view.cageSelection = new Set(); redraw(); } else return false;
    return true;
  }

  function reset() {
    Object.assign(view, { regions: null, diagonals: false, cages: [], cageSelection: new Set() });
    if (view.editing === "regions") view.editing = "digits";
    refresh();
  }
  refresh();

  return {
    controls: el("div", { class: "variants" }, el("div", { class: "row" }, mode.wrap, diagonalsWrap), regionRow, hint),
    nearBoard: el("div", { class: "variant-bar" }, cageRow, note),
    attachCanvas,
    typeKey,
    reset,
    refresh,
  };
}
