// Draws a polyomino board (and a tiling of it) through the drawing seam (web/render/draw.js).
// view = {board: ["..#", ...], solution: [{piece, cells: [[r, c], ...]}] | null,
//         cursor: [r, c] | null, cursorShown (the keyboard cursor, drawn while the board has
//         the focus), span: about how wide to draw (default 520 px)}
//         play (web/kinds/polyomino/game.js, while a game is played): {placements: [{piece, cells,
//         wrong}], ghost: {piece, cells, fits} (the piece in hand) or null, cursor: [r, c] or
//         null}: placed pieces as a solution's, those a check found wrong outlined in red, the
//         piece in hand washed out over the board (red where it does not fit)
// Pieces are coloured so that neighbours differ (web/render/palette.js, colourTiling).
// drawStep draws a trace step (web/watch/stepview.js): pieces being tried are paler with a dashed
// outline, the latest placement and the chosen cell are marked; a piece keeps its colour while
// it stays on the board (colourInOrder over the stack).

import { DEFAULT_PALETTE, MARKS, colourInOrder, colourTiling } from "../../render/palette.js";
import { MARGIN, gridCellAt, gridCellBox, gridLayout } from "../../render/grid.js";

const TENTATIVE_WASH = "rgba(255, 255, 255, 0.5)";

export function layout(view) {
  const rows = view.board.length;
  const cols = Math.max(1, ...view.board.map((line) => line.length));
  return gridLayout(rows, cols, { span: view.span || 520, minCell: 10, maxCell: 48 });
}

export function cellAt(view, x, y) {
  return gridCellAt(layout(view), x, y);
}

export function cellBox(view, row, col) {
  return gridCellBox(layout(view), row, col);
}

// exporting: leave out the cursor.
export function draw(d, view, { exporting = false } = {}) {
  if (view.play) { drawPlay(d, view, view.play, exporting); return; }
  const solution = view.solution || [];
  const fills = colourTiling(solution);
  drawBoard(d, view, solution.map((placement, index) => ({ placement, fill: fills[index] })));
  const { rows, cols, cell } = layout(view);
  if (view.cursor && view.cursorShown && !exporting && view.cursor[0] < rows && view.cursor[1] < cols) {
    const [x, y] = cellBox(view, ...view.cursor);
    d.rect(x + 2, y + 2, cell - 4, cell - 4, { stroke: MARKS.cursorRing, width: 3 });
  }
}

// Placed pieces: [{placement: {piece, cells}, fill, tentative, outline}] (outline: a colour).
function drawBoard(d, view, pieces) {
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
  const owner = new Map();
  pieces.forEach(({ placement }, index) => {
    for (const [r, c] of placement.cells) owner.set(`${r},${c}`, index);
  });
  // A piece being tried is washed out (and outlined dashed below); a placed one is solid.
  pieces.forEach(({ placement, fill, tentative }) => {
    for (const [r, c] of placement.cells) {
      const [x, y] = at(r, c);
      d.rect(x, y, cell, cell, { fill });
      if (tentative) d.rect(x, y, cell, cell, { fill: TENTATIVE_WASH });
    }
  });
  // Piece outlines: an edge is drawn where the neighbour belongs to another piece (or none).
  pieces.forEach(({ placement, tentative, outline }, index) => {
    for (const [r, c] of placement.cells) {
      const [x, y] = at(r, c);
      const edges = [[-1, 0, x, y, x + cell, y], [1, 0, x, y + cell, x + cell, y + cell],
        [0, -1, x, y, x, y + cell], [0, 1, x + cell, y, x + cell, y + cell]];
      for (const [dr, dc, x1, y1, x2, y2] of edges) {
        if (owner.get(`${r + dr},${c + dc}`) !== index) {
          d.line(x1, y1, x2, y2, { stroke: outline || "#1b1f24", width: outline ? 3.5 : 2.5, dash: tentative && !outline ? [5, 3] : undefined });
        }
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

export function drawStep(d, view, frame, { palette = DEFAULT_PALETTE } = {}) {
  const latest = frame.placed.length ? frame.placed[frame.placed.length - 1] : null;
  const fills = colourInOrder(frame.placed.map((entry) => entry.place));
  drawBoard(d, view, frame.placed.map((entry, index) => ({
    placement: entry.place,
    fill: fills[index],
    tentative: !entry.forced,
    outline: entry === latest && entry.index === frame.index ? palette["trace-focus"] : undefined,
  })));
  const item = frame.focus?.item;
  if (item?.cell) {
    const [x, y, size] = cellBox(view, item.cell[0], item.cell[1]);
    d.rect(x + 1.5, y + 1.5, size - 3, size - 3, { fill: palette["trace-focus-fill"], stroke: palette["trace-focus"], width: 3 });
  }
}

const GHOST_FITS = "rgba(29, 95, 209, 0.35)";
const GHOST_BLOCKED = "rgba(214, 47, 47, 0.4)";

function drawPlay(d, view, play, exporting) {
  const fills = colourTiling(play.placements);
  drawBoard(d, view, play.placements.map((placement, index) => ({
    placement, fill: fills[index], outline: placement.wrong && !exporting ? MARKS.clashInk : undefined,
  })));
  if (exporting) return;
  const { rows, cols, cell } = layout(view);
  if (play.ghost) {
    for (const [r, c] of play.ghost.cells) {
      if (r < 0 || c < 0 || r >= rows || c >= cols) continue;
      const [x, y] = cellBox(view, r, c);
      d.rect(x + 1, y + 1, cell - 2, cell - 2, { fill: play.ghost.fits ? GHOST_FITS : GHOST_BLOCKED, stroke: MARKS.cursorRing, width: 1.5, dash: [4, 3] });
    }
  }
  if (play.cursor) {
    const [x, y] = cellBox(view, ...play.cursor);
    d.rect(x + 2, y + 2, cell - 4, cell - 4, { stroke: MARKS.cursorRing, width: 2.5 });
  }
}
