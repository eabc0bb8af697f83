// Draws a Shikaku grid, its clues and a solution through the drawing seam (web/render/draw.js).
// view = {rows, cols, clues: [[r, c, n], ...], selected: [r, c] | null,
//         solution: [[top, left, height, width], ...] | null, clashes: Set of "r,c" (red clues)}
//         play (web/kinds/shikaku/game.js, while a game is played): {rects: [{rect, good, wrong}],
//         drag: the rectangle being drawn or null, hint: {cells, place: [{clue, rect}],
//         mistake} or null}: good rectangles (one clue of their area)
//         coloured, the others pale red, those marked wrong by a check framed in red
// Rectangles are coloured so that neighbours differ (web/render/palette.js, colourTiling).
// drawStep draws a trace step (web/watch/stepview.js): forced rectangles filled, tried ones paler
// with a dashed edge, and at a split the clue's surviving candidate rectangles as outlines; a
// rectangle keeps its colour while it stays on the board (colourInOrder over the stack).
import { DEFAULT_PALETTE, MARKS, colourInOrder, colourTiling } from "../../render/palette.js";

import { MARGIN, gridCellAt, gridCellBox, gridLayout } from "../../render/grid.js";

const TENTATIVE_WASH = "rgba(255, 255, 255, 0.55)";

export function layout(view) {
  return gridLayout(view.rows, view.cols, { span: 560, minCell: 16, maxCell: 40 });
}

export function cellAt(view, x, y) {
  return gridCellAt(layout(view), x, y);
}

export function cellBox(view, row, col) {
  return gridCellBox(layout(view), row, col);
}

// The cells of a rectangle, for colouring neighbours apart.
const rectangleCells = ([top, left, h, w]) => ({
  cells: Array.from({ length: h * w }, (_, i) => [top + Math.floor(i / w), left + (i % w)]),
});

// exporting: leave out the cursor and the clash marks.
export function draw(d, view, { exporting = false, palette = DEFAULT_PALETTE } = {}) {
  if (view.play) { drawPlay(d, view, view.play, exporting, palette); return; }
  const solution = view.solution || [];
  const fills = colourTiling(solution.map(rectangleCells));
  drawGrid(d, view, {
    selected: exporting ? null : view.selected,
    clashes: exporting ? undefined : view.clashes,
    rects: solution.map((rect, index) => ({ rect, fill: fills[index] })),
  });
}

// rects: [{rect, fill, tentative, outline}]; candidates: rectangles drawn as outlines only;
// focus: a clue index whose cell is marked; clashes: "r,c" of clues drawn in red.
function drawGrid(d, view, { selected = null, clashes = new Set(), rects = [], candidates = [], focus = null, palette = DEFAULT_PALETTE }) {
  const { cell, width, height } = layout(view);
  d.begin(width, height, "#ffffff");
  const x0 = MARGIN;
  const y0 = MARGIN;
  if (selected) {
    const [r, c] = selected;
    d.rect(x0 + c * cell, y0 + r * cell, cell, cell, { fill: MARKS.cursor });
  }
  for (let r = 0; r <= view.rows; r++) d.line(x0, y0 + r * cell, x0 + view.cols * cell, y0 + r * cell, { stroke: "#c5cbd3" });
  for (let c = 0; c <= view.cols; c++) d.line(x0 + c * cell, y0, x0 + c * cell, y0 + view.rows * cell, { stroke: "#c5cbd3" });
  for (const { rect: [top, left, h, w], fill, tentative, outline } of rects) {
    const inset = tentative ? 4 : 2;
    const box = [x0 + left * cell + inset, y0 + top * cell + inset, w * cell - 2 * inset, h * cell - 2 * inset];
    if (tentative) d.rect(...box, { fill }); // washed out by the fill drawn over it
    d.rect(...box, { fill: tentative ? TENTATIVE_WASH : fill, stroke: outline || "#1b1f24", width: outline ? 3 : 2, dash: tentative && !outline ? [6, 3] : undefined });
  }
  candidates.forEach(([top, left, h, w], index) => {
    const inset = 5 + (index % 3) * 2; // overlapping outlines stay apart
    d.rect(x0 + left * cell + inset, y0 + top * cell + inset, w * cell - 2 * inset, h * cell - 2 * inset,
      { stroke: palette["trace-candidate"], width: index === 0 ? 2.5 : 1.5, dash: index === 0 ? undefined : [4, 3] });
  });
  if (focus !== null && view.clues[focus]) {
    const [r, c] = view.clues[focus];
    d.rect(x0 + c * cell + 1.5, y0 + r * cell + 1.5, cell - 3, cell - 3, { fill: palette["trace-focus-fill"], stroke: palette["trace-focus"], width: 3 });
  }
  d.rect(x0, y0, view.cols * cell, view.rows * cell, { stroke: "#1b1f24", width: 2 });
  for (const [r, c, n] of view.clues) {
    const clash = clashes.has(`${r},${c}`);
    if (clash) {
      const isSelected = selected && selected[0] === r && selected[1] === c;
      if (!isSelected) d.rect(x0 + c * cell + 1, y0 + r * cell + 1, cell - 2, cell - 2, { fill: MARKS.clash });
      d.rect(x0 + c * cell + 2, y0 + r * cell + 2, cell - 4, cell - 4, { stroke: MARKS.clashInk, width: 2 });
    }
    d.text(x0 + c * cell + cell / 2, y0 + r * cell + cell / 2 + 1, String(n),
      { size: cell * (String(n).length > 2 ? 0.38 : 0.5), bold: true, fill: clash ? MARKS.clashInk : "#000" });
  }
}

export function drawStep(d, view, frame, { palette = DEFAULT_PALETTE } = {}) {
  const fills = colourInOrder(frame.placed.map((entry) => rectangleCells(entry.place.rect)));
  const rects = frame.placed.map((entry, index) => ({
    rect: entry.place.rect, fill: fills[index], tentative: !entry.forced,
    outline: entry.index === frame.index ? palette["trace-focus"] : undefined,
  }));
  const split = frame.focus?.type === "split" ? frame.focus : null;
  const item = frame.focus?.item;
  let focus = split ? split.clue : item && "clue" in item ? item.clue : null;
  if (focus === null && frame.step.place && frame.step.type !== "solution") focus = frame.step.place.clue;
  drawGrid(d, view, {
    rects,
    candidates: split ? split.rects || [] : [],
    focus,
    palette,
  });
  // An explained step (play mode's Explain) names the cells that justify it.
  for (const [r, c] of frame.step.cells || []) {
    const [x, y, size] = cellBox(view, r, c);
    d.rect(x + 1, y + 1, size - 2, size - 2, { fill: palette["trace-focus-fill"] });
  }
  if (item?.cell) {
    const [x, y, size] = cellBox(view, item.cell[0], item.cell[1]);
    d.rect(x + 1.5, y + 1.5, size - 3, size - 3, { stroke: palette["trace-focus"], width: 3 });
  }
}

const DRAG_INK = "#1d5fd1";

function drawPlay(d, view, play, exporting, palette) {
  const good = play.rects.filter((entry) => entry.good);
  const fills = colourTiling(good.map((entry) => rectangleCells(entry.rect)));
  const rects = play.rects.map((entry) => ({
    rect: entry.rect,
    fill: entry.good ? fills[good.indexOf(entry)] : MARKS.clash,
    outline: entry.wrong && !exporting ? MARKS.clashInk : undefined,
  }));
  drawGrid(d, view, { selected: exporting ? null : view.selected, rects });
  // A hint's cells tinted (a mistake's framed in red), its rectangle outlined.
  if (play.hint && !exporting) {
    for (const [r, c] of play.hint.cells) {
      const [x, y, size] = cellBox(view, r, c);
      d.rect(x + 1, y + 1, size - 2, size - 2, play.hint.mistake ? { stroke: MARKS.clashInk, width: 3 } : { fill: palette["trace-focus-fill"] });
    }
    for (const { rect: [top, left, h, w] } of play.hint.mistake ? [] : play.hint.place) {
      const [x, y, size] = cellBox(view, top, left);
      d.rect(x + 2, y + 2, w * size - 4, h * size - 4, { stroke: palette["trace-focus"], width: 3 });
    }
  }
  // The keyboard's cursor as a ring, over the rectangles.
  if (view.selected && !exporting) {
    const [x, y, size] = cellBox(view, view.selected[0], view.selected[1]);
    d.rect(x + 3, y + 3, size - 6, size - 6, { stroke: MARKS.cursorRing, width: 2 });
  }
  if (play.drag && !exporting) {
    const { cell } = layout(view);
    const [top, left, h, w] = play.drag;
    d.rect(MARGIN + left * cell + 1, MARGIN + top * cell + 1, w * cell - 2, h * cell - 2, { stroke: DRAG_INK, width: 3, dash: [6, 3] });
  }
}
