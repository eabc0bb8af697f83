// Draws a domino board (blocked cells) and a tiling through the drawing seam (web/render/draw.js).
// view = {rows, cols, blocked: Set of "r,c", tiling: [[[r1, c1], [r2, c2]], ...] | null,
//         cursor: [r, c] | null, cursorShown (the keyboard cursor, drawn while focused)}
// Dominoes are coloured by orientation and by the parity of their first cell (r + c), as in
// the classic pictures of random tilings: in an Aztec diamond the four frozen corners take the
// four colours and the disordered middle shows the arctic circle.
// drawStep draws a profile DP trace step (web/watch/stepview.js): the cells swept so far, the DP's
// frontier (the cells its profile bits stand for), the live profile count and its history;
// then the dominoes of a tiling read back from the counts.

import { DEFAULT_PALETTE, MARKS } from "../../render/palette.js";
import { MARGIN, gridCellAt, gridCellBox, gridLayout } from "../../render/grid.js";

const CHART = 64; // height of the live-profile chart under the board (drawStep)

export function layout(view) {
  return gridLayout(view.rows, view.cols, { span: 560, minCell: 2, maxCell: 40 });
}

export function cellAt(view, x, y) {
  return gridCellAt(layout(view), x, y);
}

export function cellBox(view, row, col) {
  return gridCellBox(layout(view), row, col);
}

// exporting: leave out the cursor.
export function draw(d, view, { exporting = false, palette = DEFAULT_PALETTE } = {}) {
  const { width, height } = layout(view);
  d.begin(width, height, "#ffffff");
  drawBoard(d, view);
  if (view.tiling) drawDominoes(d, view, view.tiling, palette);
  drawFrame(d, view);
  if (!exporting) drawCursor(d, view);
}

function drawBoard(d, view) {
  const { cell } = layout(view);
  d.rect(MARGIN, MARGIN, view.cols * cell, view.rows * cell, { fill: "#f7f8fa" });
  if (cell >= 6) {
    for (let r = 0; r <= view.rows; r++) d.line(MARGIN, MARGIN + r * cell, MARGIN + view.cols * cell, MARGIN + r * cell, { stroke: "#d5dae0" });
    for (let c = 0; c <= view.cols; c++) d.line(MARGIN + c * cell, MARGIN, MARGIN + c * cell, MARGIN + view.rows * cell, { stroke: "#d5dae0" });
  }
  // On big boards (tiny cells) the blocked cells recede, so that the tiling's picture stands out.
  const blockedFill = cell >= 6 ? "#4a5160" : "#e3e6ea";
  for (const key of view.blocked) {
    const [r, c] = key.split(",").map(Number);
    if (r < view.rows && c < view.cols) d.rect(MARGIN + c * cell, MARGIN + r * cell, cell, cell, { fill: blockedFill });
  }
}

function drawFrame(d, view) {
  const { cell } = layout(view);
  d.rect(MARGIN, MARGIN, view.cols * cell, view.rows * cell, { stroke: "#1b1f24", width: 2 });
}

function drawCursor(d, view) {
  const { cell } = layout(view);
  const cursor = view.cursor;
  if (!cursor || !view.cursorShown || cursor[0] >= view.rows || cursor[1] >= view.cols) return;
  const ring = Math.max(1, Math.min(3, cell / 6));
  d.rect(MARGIN + cursor[1] * cell + ring, MARGIN + cursor[0] * cell + ring, cell - 2 * ring, cell - 2 * ring, { stroke: MARKS.cursorRing, width: ring });
}

// The colour of a domino: north / south (horizontal) or west / east (vertical) by the parity
// of its first cell.
export function dominoColour([[r1, c1], [r2, c2]], palette = DEFAULT_PALETTE) {
  const even = (Math.min(r1, r2) + Math.min(c1, c2)) % 2 === 0;
  if (r1 === r2) return palette[even ? "domino-north" : "domino-south"];
  return palette[even ? "domino-west" : "domino-east"];
}

function drawDominoes(d, view, dominoes, palette, latest = null) {
  const { cell } = layout(view);
  const inset = cell >= 8 ? 2 : 0;
  for (const domino of dominoes) {
    const [[r1, c1], [r2, c2]] = domino;
    const top = Math.min(r1, r2);
    const left = Math.min(c1, c2);
    const horizontal = r1 === r2;
    const w = (horizontal ? 2 : 1) * cell - inset * 2;
    const h = (horizontal ? 1 : 2) * cell - inset * 2;
    const marked = domino === latest;
    d.rect(MARGIN + left * cell + inset, MARGIN + top * cell + inset, w, h, {
      fill: dominoColour(domino, palette),
      stroke: marked ? palette["trace-focus"] : cell >= 6 ? "#1b1f24" : undefined,
      width: marked ? 3 : cell >= 16 ? 1.5 : 0.75,
    });
  }
}

export function drawStep(d, view, frame, { palette = DEFAULT_PALETTE } = {}) {
  const { cell, width, height } = layout(view);
  const sweep = frame.steps.filter((step) => step.type === "cell");
  const swept = frame.step.type === "cell" ? frame.index + 1 : sweep.length;
  d.begin(width, height + CHART, "#ffffff");
  drawBoard(d, view);
  for (const step of sweep.slice(0, swept)) {
    const [x, y] = gridCellBox(layout(view), ...step.cell);
    d.rect(x, y, cell, cell, { fill: palette["trace-swept"] });
  }
  if (frame.step.type === "cell") {
    // The frontier: the cells the profile's bits stand for, those after the current cell up
    // to one sweep line further on (the width of the DP's profile).
    const across = sweep.length > 1 && sweep[0].cell[0] === sweep[1].cell[0] ? "rows" : "columns";
    const line = across === "rows" ? new Set(sweep.map((s) => s.cell[0])).size : new Set(sweep.map((s) => s.cell[1])).size;
    const perLine = Math.max(1, Math.round(sweep.length / Math.max(1, line)));
    for (const step of sweep.slice(swept, swept + perLine)) {
      const [x, y] = gridCellBox(layout(view), ...step.cell);
      d.rect(x + 1, y + 1, cell - 2, cell - 2, { stroke: palette["trace-frontier"], width: cell >= 12 ? 2 : 1, dash: [3, 2] });
    }
    const [x, y] = gridCellBox(layout(view), ...frame.step.cell);
    d.rect(x, y, cell, cell, { fill: palette["trace-focus-fill"], stroke: palette["trace-focus"], width: 2.5 });
  }
  const placed = frame.placed.map((entry) => entry.place.cells);
  const latest = frame.step.type === "force" ? placed[placed.length - 1] : null;
  drawDominoes(d, view, placed, palette, latest);
  drawFrame(d, view);
  drawChart(d, sweep, swept, { x: MARGIN, y: height, w: width - 2 * MARGIN, h: CHART - MARGIN }, palette);
}

// Live profiles after each swept cell, as bars; the label gives the current count.
function drawChart(d, sweep, swept, box, palette) {
  const counts = sweep.map((step) => Number(step.states));
  const peak = Math.max(1, ...counts);
  const bar = box.w / Math.max(1, counts.length);
  d.rect(box.x, box.y, box.w, box.h, { fill: "#f7f8fa", stroke: "#d5dae0" });
  counts.slice(0, swept).forEach((count, i) => {
    const h = Math.max(1, (count / peak) * (box.h - 18));
    d.rect(box.x + i * bar, box.y + box.h - h, Math.max(bar - (bar > 3 ? 1 : 0), 0.5), h, { fill: palette["trace-chart"] });
  });
  const now = swept ? counts[swept - 1] : 0;
  d.text(box.x + 4, box.y + 9, `live profiles: ${now.toLocaleString("en-US")} (most: ${peak.toLocaleString("en-US")})`, { size: 11, align: "left", fill: "#1b1f24" });
}
