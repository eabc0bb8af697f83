// Geometry shared by the renderers of square-celled boards: a margin, then rows x cols cells.
// Each renderer keeps its own cell-size policy; hit-testing is the same for all of them.

export const MARGIN = 8;

// Cell size fitting `rows` x `cols` into about `span` pixels, clamped to [minCell, maxCell].
export function gridLayout(rows, cols, { span, minCell, maxCell }) {
  const cell = Math.max(minCell, Math.min(maxCell, Math.floor(span / Math.max(rows, cols, 1))));
  return { rows, cols, cell, width: MARGIN * 2 + cols * cell, height: MARGIN * 2 + rows * cell };
}

// The [row, col] under canvas point (x, y) of a grid laid out by gridLayout, or null.
export function gridCellAt({ rows, cols, cell }, x, y) {
  const col = Math.floor((x - MARGIN) / cell);
  const row = Math.floor((y - MARGIN) / cell);
  if (row < 0 || col < 0 || row >= rows || col >= cols) return null;
  return [row, col];
}

// The [x, y, width, height] of cell (row, col) in a layout made by gridLayout.
export function cellBox({ cell }, row, col) {
  return [MARGIN + col * cell, MARGIN + row * cell, cell, cell];
}
