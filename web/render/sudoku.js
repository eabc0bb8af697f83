// Draws a Sudoku grid through the drawing seam (web/draw.js).
// view = {size, boxRows, boxCols, givens: Int array (0 blank), solution: Int array | null, selected}

import { MARGIN, gridCellAt, gridLayout } from "./grid.js";

export function layout(view) {
  const cell = view.size <= 9 ? 44 : 30;
  return gridLayout(view.size, view.size, { span: cell * view.size, minCell: cell, maxCell: cell });
}

export function symbol(value) {
  return value <= 9 ? String(value) : String.fromCharCode(55 + value); // 10 -> "A"
}

export function cellAt(view, x, y) {
  const hit = gridCellAt(layout(view), x, y);
  return hit === null ? null : hit[0] * view.size + hit[1];
}

export function draw(d, view) {
  const { cell, width, height } = layout(view);
  const n = view.size;
  d.begin(width, height, "#ffffff");
  if (view.selected !== null && view.selected !== undefined) {
    const row = Math.floor(view.selected / n);
    const col = view.selected % n;
    d.rect(MARGIN + col * cell, MARGIN + row * cell, cell, cell, { fill: "#fff3b0" });
  }
  for (let index = 0; index < n * n; index++) {
    const x = MARGIN + (index % n) * cell + cell / 2;
    const y = MARGIN + Math.floor(index / n) * cell + cell / 2 + 1;
    const given = view.givens[index];
    if (given) {
      d.rect(x - cell / 2, y - 1 - cell / 2, cell, cell, { fill: index === view.selected ? "#fff3b0" : "#eef1f6" });
      d.text(x, y, symbol(given), { size: cell * 0.55, fill: "#111111", bold: true });
    } else if (view.solution && view.solution[index]) {
      d.text(x, y, symbol(view.solution[index]), { size: cell * 0.55, fill: "#1d5fd1" });
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
