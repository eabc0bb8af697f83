// Draws a Sudoku grid through the drawing seam (web/draw.js).
// view = {size, boxRows, boxCols, givens: Int array (0 blank), solution: Int array | null,
//         selected: cell index (the cursor), symbols: facts' symbols, symbols[v - 1] shows v,
//         clashes: Set of cell indices whose givens clash (marked in red)}

import { MARKS } from "../palette.js";
import { MARGIN, gridCellAt, gridLayout } from "./grid.js";

export function layout(view) {
  const cell = view.size <= 9 ? 44 : view.size <= 16 ? 30 : 24;
  return gridLayout(view.size, view.size, { span: cell * view.size, minCell: cell, maxCell: cell });
}

export function cellAt(view, x, y) {
  return gridCellAt(layout(view), x, y);
}

// exporting: leave out the cursor (and the clash marks).
export function draw(d, view, { exporting = false } = {}) {
  const { cell, width, height } = layout(view);
  const n = view.size;
  const selected = exporting ? null : view.selected;
  d.begin(width, height, "#ffffff");
  const clashes = (!exporting && view.clashes) || new Set();
  if (selected !== null && selected !== undefined) {
    const row = Math.floor(selected / n);
    const col = selected % n;
    d.rect(MARGIN + col * cell, MARGIN + row * cell, cell, cell, { fill: MARKS.cursor });
  }
  for (let index = 0; index < n * n; index++) {
    const x = MARGIN + (index % n) * cell + cell / 2;
    const y = MARGIN + Math.floor(index / n) * cell + cell / 2 + 1;
    const given = view.givens[index];
    if (given) {
      const clash = clashes.has(index);
      const fill = index === selected ? MARKS.cursor : clash ? MARKS.clash : "#eef1f6";
      d.rect(x - cell / 2, y - 1 - cell / 2, cell, cell, { fill });
      if (clash) {
        // A red ring as well as red ink: the cursor's fill may cover the tint.
        d.rect(x - cell / 2 + 2, y - 1 - cell / 2 + 2, cell - 4, cell - 4, { stroke: MARKS.clashInk, width: 2 });
      }
      d.text(x, y, view.symbols[given - 1], { size: cell * 0.55, fill: clash ? MARKS.clashInk : "#111111", bold: true });
    } else if (view.solution && view.solution[index]) {
      d.text(x, y, view.symbols[view.solution[index] - 1], { size: cell * 0.55, fill: "#1d5fd1" });
    }
  }
  for (let i = 0; i <= n; i++) {
    const thickRow = i % view.boxRows === 0;
    const thickCol = i % view.boxCols === 0;
    const p = MARGIN + i * cell;
    d.line(MARGIN, p, MARGIN + n * cell, p, { stroke: thickRow ? "#222222" : "#9aa3ad", width: thickRow ? 2.5 : 1 });
    d.line(p, MARGIN, p, MARGIN + n * cell, { stroke: thickCol ? "#222222" : "#9aa3ad", width: thickCol ? 2.5 : 1 });
  }
}
