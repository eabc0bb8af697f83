// Draws a Shikaku grid, its clues and a solution through the drawing seam (web/draw.js).
// view = {rows, cols, clues: [[r, c, n], ...], selected: [r, c] | null,
//         solution: [[top, left, height, width], ...] | null}
import { paletteColour } from "../ui.js";

import { MARGIN, gridCellAt, gridLayout } from "./grid.js";

export function layout(view) {
  return gridLayout(view.rows, view.cols, { span: 560, minCell: 16, maxCell: 40 });
}

export function cellAt(view, x, y) {
  return gridCellAt(layout(view), x, y);
}

// exporting: leave out the cursor.
export function draw(d, view, { exporting = false } = {}) {
  const { cell, width, height } = layout(view);
  d.begin(width, height, "#ffffff");
  const x0 = MARGIN;
  const y0 = MARGIN;
  if (view.selected && !exporting) {
    const [r, c] = view.selected;
    d.rect(x0 + c * cell, y0 + r * cell, cell, cell, { fill: "#fff3b0" });
  }
  for (let r = 0; r <= view.rows; r++) d.line(x0, y0 + r * cell, x0 + view.cols * cell, y0 + r * cell, { stroke: "#c5cbd3" });
  for (let c = 0; c <= view.cols; c++) d.line(x0 + c * cell, y0, x0 + c * cell, y0 + view.rows * cell, { stroke: "#c5cbd3" });
  if (view.solution) {
    view.solution.forEach(([top, left, h, w], index) => {
      d.rect(x0 + left * cell + 2, y0 + top * cell + 2, w * cell - 4, h * cell - 4,
        { fill: paletteColour(index, view.solution.length, 85), stroke: "#1b1f24", width: 2 });
    });
  }
  d.rect(x0, y0, view.cols * cell, view.rows * cell, { stroke: "#1b1f24", width: 2 });
  for (const [r, c, n] of view.clues) {
    d.text(x0 + c * cell + cell / 2, y0 + r * cell + cell / 2 + 1, String(n), { size: cell * (String(n).length > 2 ? 0.38 : 0.5), bold: true });
  }
}
