// Draws a domino board (blocked cells) and a tiling through the drawing seam (web/draw.js).
// view = {rows, cols, blocked: Set of "r,c", tiling: [[[r1, c1], [r2, c2]], ...] | null,
//         cursor: [r, c] | null, cursorShown (the keyboard cursor, drawn while focused)}

import { MARKS } from "../palette.js";
import { MARGIN, gridCellAt, gridLayout } from "./grid.js";

export function layout(view) {
  return gridLayout(view.rows, view.cols, { span: 560, minCell: 2, maxCell: 40 });
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
  d.rect(x0, y0, view.cols * cell, view.rows * cell, { fill: "#f7f8fa" });
  if (cell >= 6) {
    for (let r = 0; r <= view.rows; r++) d.line(x0, y0 + r * cell, x0 + view.cols * cell, y0 + r * cell, { stroke: "#d5dae0" });
    for (let c = 0; c <= view.cols; c++) d.line(x0 + c * cell, y0, x0 + c * cell, y0 + view.rows * cell, { stroke: "#d5dae0" });
  }
  for (const key of view.blocked) {
    const [r, c] = key.split(",").map(Number);
    if (r < view.rows && c < view.cols) d.rect(x0 + c * cell, y0 + r * cell, cell, cell, { fill: "#4a5160" });
  }
  if (view.tiling) {
    const inset = cell >= 8 ? 2 : 0;
    for (const [[r1, c1], [r2, c2]] of view.tiling) {
      const top = Math.min(r1, r2);
      const left = Math.min(c1, c2);
      const horizontal = r1 === r2;
      const w = (horizontal ? 2 : 1) * cell - inset * 2;
      const h = (horizontal ? 1 : 2) * cell - inset * 2;
      d.rect(x0 + left * cell + inset, y0 + top * cell + inset, w, h,
        { fill: horizontal ? "#f2b880" : "#8cc5e8", stroke: cell >= 6 ? "#1b1f24" : undefined, width: cell >= 16 ? 1.5 : 0.75 });
    }
  }
  d.rect(x0, y0, view.cols * cell, view.rows * cell, { stroke: "#1b1f24", width: 2 });
  const cursor = view.cursor;
  if (cursor && view.cursorShown && !exporting && cursor[0] < view.rows && cursor[1] < view.cols) {
    const ring = Math.max(1, Math.min(3, cell / 6));
    d.rect(x0 + cursor[1] * cell + ring, y0 + cursor[0] * cell + ring, cell - 2 * ring, cell - 2 * ring, { stroke: MARKS.cursorRing, width: ring });
  }
}
