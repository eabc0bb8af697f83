// Draws a Shikaku grid, its clues and a solution through the drawing seam (web/draw.js).
// view = {rows, cols, clues: [[r, c, n], ...], selected: [r, c] | null,
//         solution: [[top, left, height, width], ...] | null, clashes: Set of "r,c" (red clues)}
import { MARKS, colourTiling } from "../palette.js";

import { MARGIN, gridCellAt, gridLayout } from "./grid.js";

export function layout(view) {
  return gridLayout(view.rows, view.cols, { span: 560, minCell: 16, maxCell: 40 });
}

export function cellAt(view, x, y) {
  return gridCellAt(layout(view), x, y);
}

// The cells of a solution's rectangles, for colouring neighbours apart.
const rectangleCells = ([top, left, h, w]) => ({
  cells: Array.from({ length: h * w }, (_, i) => [top + Math.floor(i / w), left + (i % w)]),
});

// exporting: leave out the cursor and the clash marks.
export function draw(d, view, { exporting = false } = {}) {
  const { cell, width, height } = layout(view);
  d.begin(width, height, "#ffffff");
  const x0 = MARGIN;
  const y0 = MARGIN;
  const clashes = (!exporting && view.clashes) || new Set();
  if (view.selected && !exporting) {
    const [r, c] = view.selected;
    d.rect(x0 + c * cell, y0 + r * cell, cell, cell, { fill: MARKS.cursor });
  }
  for (let r = 0; r <= view.rows; r++) d.line(x0, y0 + r * cell, x0 + view.cols * cell, y0 + r * cell, { stroke: "#c5cbd3" });
  for (let c = 0; c <= view.cols; c++) d.line(x0 + c * cell, y0, x0 + c * cell, y0 + view.rows * cell, { stroke: "#c5cbd3" });
  if (view.solution) {
    const fills = colourTiling(view.solution.map(rectangleCells));
    view.solution.forEach(([top, left, h, w], index) => {
      d.rect(x0 + left * cell + 2, y0 + top * cell + 2, w * cell - 4, h * cell - 4,
        { fill: fills[index], stroke: "#1b1f24", width: 2 });
    });
  }
  d.rect(x0, y0, view.cols * cell, view.rows * cell, { stroke: "#1b1f24", width: 2 });
  for (const [r, c, n] of view.clues) {
    const clash = clashes.has(`${r},${c}`);
    if (clash) {
      const selected = view.selected && view.selected[0] === r && view.selected[1] === c && !exporting;
      if (!selected) d.rect(x0 + c * cell + 1, y0 + r * cell + 1, cell - 2, cell - 2, { fill: MARKS.clash });
      d.rect(x0 + c * cell + 2, y0 + r * cell + 2, cell - 4, cell - 4, { stroke: MARKS.clashInk, width: 2 });
    }
    d.text(x0 + c * cell + cell / 2, y0 + r * cell + cell / 2 + 1, String(n),
      { size: cell * (String(n).length > 2 ? 0.38 : 0.5), bold: true, fill: clash ? MARKS.clashInk : "#000" });
  }
}
