// Draws an N-queens board through the drawing seam (web/draw.js).
// view = {n, queens: [[r, c], ...] (given), solution: [[r, c], ...] | null, clashes: Set of
//         "r,c" (given queens that attack another: red), cursor: [r, c] | null, cursorShown}
// Given queens are dark, a solution's other queens blue. drawStep draws a trace step
// (web/stepview.js): the given queens, then the queens placed so far (tried ones in the
// tentative colour, forced ones in the forced colour, the latest ringed), the cells they
// attack shaded (what leaves the exact cover matrix), and the row or column being chosen tinted.

import { DEFAULT_PALETTE, MARKS } from "../../render/palette.js";
import { MARGIN, gridCellAt, gridCellBox, gridLayout } from "../../render/grid.js";

const LIGHT = "#f4efe6";
const DARK = "#d9c9ad";
const GIVEN_INK = "#1b1f24";
const SOLUTION_INK = "#1d5fd1";
const ATTACKED = "rgba(27, 31, 36, 0.16)";

export function layout(view) {
  return gridLayout(view.n, view.n, { span: 480, minCell: 14, maxCell: 56 });
}

export function cellAt(view, x, y) {
  return gridCellAt(layout(view), x, y);
}

export function cellBox(view, row, col) {
  return gridCellBox(layout(view), row, col);
}

// A queen's crown in the cell at (x, y) of side size: five points over a band.
function queen(d, x, y, size, fill) {
  const at = (u, v) => [x + u * size, y + v * size];
  d.polygon([at(0.2, 0.78), at(0.16, 0.32), at(0.34, 0.56), at(0.5, 0.22), at(0.66, 0.56), at(0.84, 0.32), at(0.8, 0.78)],
    { fill, stroke: "#ffffff", width: Math.max(1, size / 28) });
}

// queens: [{cell: [r, c], fill}]; shade: "r,c" keys of attacked cells; tint: cells to tint;
// ring: a cell to circle.
function drawBoard(d, view, { queens = [], shade = new Set(), tint = [], tintFill, ring = null, ringColour, clashes = new Set(), cursor = null }) {
  const { cell, width, height } = layout(view);
  d.begin(width, height, "#ffffff");
  for (let r = 0; r < view.n; r++) {
    for (let c = 0; c < view.n; c++) {
      const [x, y] = gridCellBox(layout(view), r, c);
      d.rect(x, y, cell, cell, { fill: (r + c) % 2 ? DARK : LIGHT });
      if (clashes.has(`${r},${c}`)) d.rect(x, y, cell, cell, { fill: MARKS.clash });
      if (shade.has(`${r},${c}`)) d.rect(x, y, cell, cell, { fill: ATTACKED });
    }
  }
  for (const [r, c] of tint) {
    const [x, y] = gridCellBox(layout(view), r, c);
    d.rect(x, y, cell, cell, { fill: tintFill });
  }
  for (const { cell: [r, c], fill } of queens) {
    const [x, y] = gridCellBox(layout(view), r, c);
    queen(d, x, y, cell, clashes.has(`${r},${c}`) ? MARKS.clashInk : fill);
  }
  if (ring) {
    const [x, y] = gridCellBox(layout(view), ...ring);
    d.rect(x + 2, y + 2, cell - 4, cell - 4, { stroke: ringColour, width: 2.5 });
  }
  if (cursor && cursor[0] < view.n && cursor[1] < view.n) {
    const [x, y] = gridCellBox(layout(view), ...cursor);
    const edge = Math.max(1, Math.min(3, cell / 6));
    d.rect(x + edge, y + edge, cell - 2 * edge, cell - 2 * edge, { stroke: MARKS.cursorRing, width: edge });
  }
  d.rect(MARGIN, MARGIN, view.n * cell, view.n * cell, { stroke: "#1b1f24", width: 2 });
}

// exporting: leave out the cursor and the clash marks.
export function draw(d, view, { exporting = false } = {}) {
  const givenKeys = new Set(view.queens.map((cell) => cell.join(",")));
  const solved = (view.solution || []).filter((cell) => !givenKeys.has(cell.join(",")));
  drawBoard(d, view, {
    queens: [...view.queens.map((cell) => ({ cell, fill: GIVEN_INK })), ...solved.map((cell) => ({ cell, fill: SOLUTION_INK }))],
    clashes: exporting ? undefined : view.clashes,
    cursor: !exporting && view.cursorShown ? view.cursor : null,
  });
}

// The cells of a line a choose step names: {row: r} or {col: c}.
function lineCells(n, item) {
  const all = Array.from({ length: n }, (_, i) => i);
  if ("row" in item) return all.map((c) => [item.row, c]);
  if ("col" in item) return all.map((r) => [r, item.col]);
  return [];
}

/** "r,c" keys of the cells the queens attack (their own cells left out), on an n x n board. */
export function attackedCells(n, queens) {
  const shade = new Set();
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const hit = queens.some(([qr, qc]) => (qr !== r || qc !== c) && (qr === r || qc === c || qr + qc === r + c || qr - qc === r - c));
      if (hit) shade.add(`${r},${c}`);
    }
  }
  return shade;
}

export function drawStep(d, view, frame, { palette = DEFAULT_PALETTE } = {}) {
  const placed = frame.placed.map((entry) => ({
    cell: entry.place.queen,
    fill: entry.forced ? palette["trace-forced"] : palette["trace-tentative"],
  }));
  const all = [...view.queens.map((cell) => ({ cell, fill: GIVEN_INK })), ...placed];
  const latest = frame.step.place && frame.step.type !== "solution" ? frame.step.place.queen : null;
  drawBoard(d, view, {
    queens: all,
    shade: attackedCells(view.n, all.map((entry) => entry.cell)),
    tint: frame.focus?.item ? lineCells(view.n, frame.focus.item) : [],
    tintFill: palette["trace-focus-fill"],
    ring: latest,
    ringColour: palette["trace-focus"],
  });
}
