// Draws a polyomino board (and a tiling of it) through the drawing seam (web/draw.js).
// view = {board: ["..#", ...], solution: [{piece, cells: [[r, c], ...]}] | null,
//         cursor: [r, c] | null, cursorShown (the keyboard cursor, drawn while the board has
//         the focus), span: about how wide to draw (default 520 px)}
// Pieces are coloured so that neighbours differ (web/palette.js, colourTiling).

import { MARKS, colourTiling } from "../palette.js";
import { MARGIN, gridCellAt, gridLayout } from "./grid.js";

export function layout(view) {
  const rows = view.board.length;
  const cols = Math.max(1, ...view.board.map((line) => line.length));
  return gridLayout(rows, cols, { span: view.span || 520, minCell: 10, maxCell: 48 });
}

export function cellAt(view, x, y) {
  return gridCellAt(layout(view), x, y);
}

// exporting: leave out the cursor.
export function draw(d, view, { exporting = false } = {}) {
  const { rows, cols, cell, width, height } = layout(view);
  d.begin(width, height, "#ffffff");
  const at = (r, c) => [MARGIN + c * cell, MARGIN + r * cell];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const [x, y] = at(r, c);
      const open = view.board[r][c] === ".";
      d.rect(x, y, cell, cell, { fill: open ? "#ffffff" : "#4a5160", stroke: "#c5cbd3", width: 1 });
    }
  }
  if (view.solution) drawTiling(d, view.solution, at, cell);
  if (view.cursor && view.cursorShown && !exporting && view.cursor[0] < rows && view.cursor[1] < cols) {
    const [x, y] = at(...view.cursor);
    d.rect(x + 2, y + 2, cell - 4, cell - 4, { stroke: MARKS.cursorRing, width: 3 });
  }
}

function drawTiling(d, solution, at, cell) {
  const owner = new Map();
  solution.forEach((placement, index) => {
    for (const [r, c] of placement.cells) owner.set(`${r},${c}`, index);
  });
  const fills = colourTiling(solution);
  solution.forEach((placement, index) => {
    const fill = fills[index];
    for (const [r, c] of placement.cells) {
      const [x, y] = at(r, c);
      d.rect(x, y, cell, cell, { fill });
    }
  });
  // Piece outlines: an edge is drawn where the neighbour belongs to another piece (or none).
  solution.forEach((placement, index) => {
    for (const [r, c] of placement.cells) {
      const [x, y] = at(r, c);
      const edges = [[-1, 0, x, y, x + cell, y], [1, 0, x, y + cell, x + cell, y + cell],
        [0, -1, x, y, x, y + cell], [0, 1, x + cell, y, x + cell, y + cell]];
      for (const [dr, dc, x1, y1, x2, y2] of edges) {
        if (owner.get(`${r + dr},${c + dc}`) !== index) d.line(x1, y1, x2, y2, { stroke: "#1b1f24", width: 2.5 });
      }
    }
    // The letter goes on the piece's cell nearest its centre of mass.
    const n = placement.cells.length;
    const mr = placement.cells.reduce((s, [r]) => s + r, 0) / n;
    const mc = placement.cells.reduce((s, [, c]) => s + c, 0) / n;
    let best = placement.cells[0];
    for (const cellRC of placement.cells) {
      if ((cellRC[0] - mr) ** 2 + (cellRC[1] - mc) ** 2 < (best[0] - mr) ** 2 + (best[1] - mc) ** 2) best = cellRC;
    }
    const [x, y] = at(best[0], best[1]);
    d.text(x + cell / 2, y + cell / 2 + 1, placement.piece, { size: Math.max(9, cell * 0.45), bold: true, fill: "#1b1f24" });
  });
}
