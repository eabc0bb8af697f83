// Draws a Star Battle board through the drawing seam (web/render/draw.js).
// view = {n, stars, labels: a region label per cell (reading order), givens: [[r, c], ...],
//         solution: rows of "*" and "." | null, colours: Map label -> fill | null (the
//         editor's, kept still while a stroke paints; else worked out here), cursor: [r, c] |
//         null, cursorShown, givenClashes: Set of cells (given stars breaking a rule: red)}
//         play (web/kinds/star_battle/game.js, while a game is played): {marks: a mark per cell
//         (logic.js: EMPTY, STAR, DOT), conflicts: Set of cells (stars breaking a rule: red),
//         wrong: Set of cells (marks a Check found wrong: framed in red)}
// Regions get light fills, two regions side by side never the same (colourTiling), and thick
// walls between them; given stars are dark, a solution's other stars blue. drawStep draws a
// trace step (web/watch/stepview.js): the stars placed so far (tried ones in the tentative
// colour, forced ones in the forced colour, the latest ringed), the cells they touch shaded (they
// leave the matrix), and the row, column or region being chosen tinted.
import { DEFAULT_PALETTE, MARKS, colourTiling } from "../../render/palette.js";
import { MARGIN, gridCellAt, gridCellBox, gridLayout } from "../../render/grid.js";
import { DOT, STAR } from "./logic.js";

const INK = "#1b1f24";
const SOLUTION_INK = "#1d5fd1";
const THIN = { stroke: "#9aa3ad", width: 1 };
const TOUCHED = "rgba(27, 31, 36, 0.2)";
// How much of a piece colour a region's fill takes (over the white paper, or the dark one).
const TINT_ALPHA = 0.45;

export function layout(view) {
  return gridLayout(view.n, view.n, { span: 480, minCell: 14, maxCell: 52 });
}

export function cellAt(view, x, y) {
  return gridCellAt(layout(view), x, y);
}

export function cellBox(view, row, col) {
  return gridCellBox(layout(view), row, col);
}

/** A fill for each region label (a Map), neighbouring regions apart (web/render/palette.js). */
export function regionColours(labels, n) {
  const cells = new Map();
  labels.forEach((label, index) => {
    if (!cells.has(label)) cells.set(label, []);
    cells.get(label).push([Math.floor(index / n), index % n]);
  });
  const names = [...cells.keys()];
  const fills = colourTiling(names.map((name) => ({ cells: cells.get(name) })));
  return new Map(names.map((name, index) => [name, fills[index].replace(")", ` / ${TINT_ALPHA})`)]));
}

// A five-pointed star in the cell at (x, y) of side size.
function star(d, x, y, size, fill) {
  const points = [];
  for (let k = 0; k < 10; k++) {
    const radius = size * (k % 2 ? 0.16 : 0.38);
    const angle = -Math.PI / 2 + (k * Math.PI) / 5;
    points.push([x + size / 2 + radius * Math.cos(angle), y + size * 0.53 + radius * Math.sin(angle)]);
  }
  d.polygon(points, { fill, stroke: "#ffffff", width: Math.max(1, size * 0.03) });
}

// A player's dot ("no star here"): a small octagon in the middle of the cell.
function dot(d, x, y, size, fill) {
  const radius = Math.max(1.5, size * 0.1);
  const points = Array.from({ length: 8 }, (_, k) => [x + size / 2 + radius * Math.cos((k * Math.PI) / 4), y + size / 2 + radius * Math.sin((k * Math.PI) / 4)]);
  d.polygon(points, { fill });
}

/** The cells a star touches (by a side or a corner) on an n x n board, stars' own cells left
 *  out: a Set of cell indices. */
export function touchedCells(n, stars) {
  const on = new Set(stars);
  const touched = new Set();
  for (const index of on) {
    const [r, c] = [Math.floor(index / n), index % n];
    for (let dr = -1; dr <= 1; dr++) {
      for (let dc = -1; dc <= 1; dc++) {
        const [r2, c2] = [r + dr, c + dc];
        if (r2 >= 0 && c2 >= 0 && r2 < n && c2 < n && !on.has(r2 * n + c2)) touched.add(r2 * n + c2);
      }
    }
  }
  return touched;
}

// stars: [{index, fill}]; dots: cell indices; shade, red, tint: Sets of cells filled with the
// touched shade, the clash fill, tintFill; wrong: cells framed in red; ring: a cell circled in
// ringColour; cursor: [r, c] ringed as the keyboard's cursor.
function drawBoard(d, view, { stars = [], dots = [], shade = new Set(), red = new Set(), tint = new Set(), tintFill, wrong = new Set(), ring = null, ringColour, cursor = null }) {
  const { cell, width, height } = layout(view);
  const n = view.n;
  const labels = view.labels;
  const colours = view.colours ?? regionColours(labels, n);
  d.begin(width, height, "#ffffff");
  const box = (index) => gridCellBox(layout(view), Math.floor(index / n), index % n);
  for (let index = 0; index < n * n; index++) {
    const [x, y] = box(index);
    d.rect(x, y, cell, cell, { fill: colours.get(labels[index]) ?? "#ffffff" });
    if (red.has(index)) d.rect(x, y, cell, cell, { fill: MARKS.clash });
    if (shade.has(index)) d.rect(x, y, cell, cell, { fill: TOUCHED });
    if (tint.has(index)) d.rect(x, y, cell, cell, { fill: tintFill });
  }
  // Thin lines between cells, thick walls between regions and round the edge.
  for (let i = 1; i < n; i++) {
    const p = MARGIN + i * cell;
    d.line(MARGIN, p, MARGIN + n * cell, p, THIN);
    d.line(p, MARGIN, p, MARGIN + n * cell, THIN);
  }
  const wall = { stroke: INK, width: Math.max(2, Math.min(3.5, cell / 12)) };
  for (let index = 0; index < n * n; index++) {
    const [x, y] = box(index);
    if (index % n < n - 1 && labels[index] !== labels[index + 1]) d.line(x + cell, y, x + cell, y + cell, wall);
    if (index + n < n * n && labels[index] !== labels[index + n]) d.line(x, y + cell, x + cell, y + cell, wall);
  }
  d.rect(MARGIN, MARGIN, n * cell, n * cell, wall);
  for (const index of dots) {
    const [x, y] = box(index);
    dot(d, x, y, cell, wrong.has(index) ? MARKS.clashInk : INK);
  }
  for (const { index, fill } of stars) {
    const [x, y] = box(index);
    star(d, x, y, cell, red.has(index) ? MARKS.clashInk : fill);
  }
  const edge = Math.max(1.5, Math.min(3, cell / 14));
  for (const index of wrong) {
    const [x, y] = box(index);
    d.rect(x + edge, y + edge, cell - 2 * edge, cell - 2 * edge, { stroke: MARKS.clashInk, width: edge });
  }
  if (ring !== null) {
    const [x, y] = box(ring);
    d.rect(x + 2, y + 2, cell - 4, cell - 4, { stroke: ringColour, width: 2.5 });
  }
  if (cursor && cursor[0] < n && cursor[1] < n) {
    const [x, y] = box(cursor[0] * n + cursor[1]);
    d.rect(x + edge, y + edge, cell - 2 * edge, cell - 2 * edge, { stroke: MARKS.cursorRing, width: edge });
  }
}

const givenIndices = (view) => (view.givens || []).map(([r, c]) => r * view.n + c);

// exporting: leave out the cursor and the marks of play mode's check.
export function draw(d, view, { exporting = false } = {}) {
  const givens = givenIndices(view);
  if (view.play) {
    const { marks, conflicts, wrong } = view.play;
    const placed = marks.flatMap((mark, index) => (mark === STAR && !givens.includes(index) ? [index] : []));
    drawBoard(d, view, {
      stars: [...givens.map((index) => ({ index, fill: INK })), ...placed.map((index) => ({ index, fill: INK }))],
      dots: marks.flatMap((mark, index) => (mark === DOT ? [index] : [])),
      red: conflicts,
      wrong: exporting ? new Set() : wrong,
      cursor: !exporting && view.cursorShown ? view.cursor : null,
    });
    return;
  }
  const solved = (view.solution || []).flatMap((row, r) => [...row].flatMap((mark, c) => (mark === "*" ? [r * view.n + c] : [])))
    .filter((index) => !givens.includes(index));
  drawBoard(d, view, {
    stars: [...givens.map((index) => ({ index, fill: INK })), ...solved.map((index) => ({ index, fill: SOLUTION_INK }))],
    red: exporting ? new Set() : view.givenClashes ?? new Set(),
    cursor: !exporting && view.cursorShown ? view.cursor : null,
  });
}

// The cells of the line a choose step names: {row: r}, {col: c} or {region: label}.
function lineCells(view, item) {
  const n = view.n;
  const all = Array.from({ length: n }, (_, i) => i);
  if ("row" in item) return all.map((c) => item.row * n + c);
  if ("col" in item) return all.map((r) => r * n + item.col);
  if ("region" in item) return view.labels.flatMap((label, index) => (label === item.region ? [index] : []));
  return [];
}

export function drawStep(d, view, frame, { palette = DEFAULT_PALETTE } = {}) {
  const n = view.n;
  const givens = givenIndices(view);
  const placed = frame.placed.map((entry) => ({
    index: entry.place.star[0] * n + entry.place.star[1],
    fill: entry.forced ? palette["trace-forced"] : palette["trace-tentative"],
  }));
  const stars = [...givens.map((index) => ({ index, fill: INK })), ...placed];
  const latest = frame.step.place?.star && frame.step.type !== "solution" ? frame.step.place.star : null;
  drawBoard(d, view, {
    stars,
    shade: touchedCells(n, stars.map((entry) => entry.index)),
    tint: new Set(frame.focus?.item ? lineCells(view, frame.focus.item) : []),
    tintFill: palette["trace-focus-fill"],
    ring: latest ? latest[0] * n + latest[1] : null,
    ringColour: palette["trace-focus"],
  });
}
