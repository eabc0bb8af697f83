// Draws a Sudoku grid through the drawing seam (web/draw.js).
// view = {size, boxRows, boxCols, givens: Int array (0 blank), solution: Int array | null,
//         selected: cell index (the cursor), symbols: facts' symbols, symbols[v - 1] shows v,
//         clashes: Set of cell indices whose givens clash (marked in red)}
// drawStep draws a trace step (web/stepview.js): forced digits in one colour, tried digits in
// another, the latest one ringed, the chosen cell or unit (row, column, box) tinted.

import { DEFAULT_PALETTE, MARKS } from "./palette.js";
import { MARGIN, gridCellAt, gridCellBox, gridLayout } from "./grid.js";

export function layout(view) {
  const cell = view.size <= 9 ? 44 : view.size <= 16 ? 30 : 24;
  return gridLayout(view.size, view.size, { span: cell * view.size, minCell: cell, maxCell: cell });
}

export function cellAt(view, x, y) {
  return gridCellAt(layout(view), x, y);
}

export function cellBox(view, row, col) {
  return gridCellBox(layout(view), row, col);
}

// exporting: leave out the cursor (and the clash marks).
export function draw(d, view, { exporting = false } = {}) {
  const digits = new Map();
  if (view.solution) view.solution.forEach((value, index) => { if (value) digits.set(index, { value, fill: "#1d5fd1" }); });
  drawGrid(d, view, { selected: exporting ? null : view.selected, clashes: exporting ? undefined : view.clashes, digits });
}

// digits: cell index -> {value, fill} drawn in open cells; clashes: cell indices whose givens
// clash; tint: cell indices to shade; ring: a cell index to circle.
function drawGrid(d, view, { selected = null, clashes = new Set(), digits = new Map(), tint = new Set(), tintFill, ring = null, ringColour }) {
  const { cell, width, height } = layout(view);
  const n = view.size;
  d.begin(width, height, "#ffffff");
  for (let index = 0; index < n * n; index++) {
    const x0 = MARGIN + (index % n) * cell;
    const y0 = MARGIN + Math.floor(index / n) * cell;
    const given = view.givens[index];
    const clash = Boolean(given) && clashes.has(index);
    if (index === selected) d.rect(x0, y0, cell, cell, { fill: MARKS.cursor });
    else if (clash) d.rect(x0, y0, cell, cell, { fill: MARKS.clash });
    else if (given) d.rect(x0, y0, cell, cell, { fill: "#eef1f6" });
    if (tint.has(index)) d.rect(x0, y0, cell, cell, { fill: tintFill });
    // A red ring as well as red ink: the cursor's fill may cover the tint.
    if (clash) d.rect(x0 + 2, y0 + 2, cell - 4, cell - 4, { stroke: MARKS.clashInk, width: 2 });
    const shown = given ? { value: given, fill: clash ? MARKS.clashInk : "#111111", bold: true } : digits.get(index);
    if (shown) d.text(x0 + cell / 2, y0 + cell / 2 + 1, view.symbols[shown.value - 1], { size: cell * 0.55, fill: shown.fill, bold: Boolean(shown.bold) });
    if (index === ring) d.rect(x0 + 2, y0 + 2, cell - 4, cell - 4, { stroke: ringColour, width: 2.5 });
  }
  for (let i = 0; i <= n; i++) {
    const thickRow = i % view.boxRows === 0;
    const thickCol = i % view.boxCols === 0;
    const p = MARGIN + i * cell;
    d.line(MARGIN, p, MARGIN + n * cell, p, { stroke: thickRow ? "#222222" : "#9aa3ad", width: thickRow ? 2.5 : 1 });
    d.line(p, MARGIN, p, MARGIN + n * cell, { stroke: thickCol ? "#222222" : "#9aa3ad", width: thickCol ? 2.5 : 1 });
  }
}

// The cells of a choose step's item: {cell}, {row, digit}, {column, digit} or {box, digit}.
function itemCells(view, item) {
  const n = view.size;
  const all = Array.from({ length: n }, (_, i) => i);
  if (item.cell) return [item.cell[0] * n + item.cell[1]];
  if ("row" in item) return all.map((c) => item.row * n + c);
  if ("column" in item) return all.map((r) => r * n + item.column);
  if ("box" in item) {
    const across = n / view.boxCols;
    const top = Math.floor(item.box / across) * view.boxRows;
    const left = (item.box % across) * view.boxCols;
    return all.map((i) => (top + Math.floor(i / view.boxCols)) * n + left + (i % view.boxCols));
  }
  return [];
}

export function drawStep(d, view, frame, { palette = DEFAULT_PALETTE } = {}) {
  const n = view.size;
  const digits = new Map();
  for (const entry of frame.placed) {
    const [r, c] = entry.place.cell;
    digits.set(r * n + c, { value: entry.place.value, fill: entry.forced ? palette["trace-forced"] : palette["trace-tentative"], bold: !entry.forced });
  }
  const latest = frame.step.place && frame.step.type !== "solution" ? frame.step.place.cell : null;
  drawGrid(d, view, {
    digits,
    tint: new Set(frame.focus?.item ? itemCells(view, frame.focus.item) : []),
    tintFill: palette["trace-focus-fill"],
    ring: latest ? latest[0] * n + latest[1] : null,
    ringColour: palette["trace-focus"],
  });
}
