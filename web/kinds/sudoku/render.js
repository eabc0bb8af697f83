// Draws a Sudoku grid through the drawing seam (web/draw.js).
// view = {size, boxRows, boxCols, givens: Int array (0 blank), solution: Int array | null,
//         selected: cell index (the cursor), symbols: facts' symbols, symbols[v - 1] shows v,
//         clashes: Set of cell indices whose givens clash (marked in red),
//         variants (Tatham's Solo): regions: region number per cell or null (boxes), drawn with
//         thick borders between regions; diagonals: true for Sudoku X (both diagonals drawn);
//         cages: [{sum, cells: [cell index]}] (killer), each a dashed outline inside its cells
//         with its sum in the corner of its first cell; editing: "regions" tints every region in
//         its own colour (for painting them), "cages" tints the cells in cageSelection (a Set)}
//         play (web/kinds/sudoku/game.js, while a game is played): {entries, corner, centre (pencil
//         marks as bit masks per cell), candidates (automatic ones, masks, or null), wrong (a Set
//         of cells marked wrong), clashes (a Set of cells whose value repeats in a unit),
//         highlight (a value whose cells are tinted, or 0), hint: {cells, place: [[r, c, d]],
//         mistake} or null (a hint's cells tinted, its placement ringed; a mistake's framed)}; the
//         player's values are drawn in blue, pencil marks small (corner marks in the corners,
//         centre marks in a line in the middle, automatic candidates in a grey mini-grid)
// drawStep draws a trace step (web/stepview.js): forced digits in one colour, tried digits in
// another, the latest one ringed, the chosen cell or unit (row, column, box, region, diagonal,
// cage) tinted. An explained step (play mode's Explain: it names a technique) also shows the
// candidates left at that step (the units' after the digits placed, less what earlier steps
// removed) in every open cell, the digits it places or removes in bold colour in the cells it
// names, and the candidates it removes struck through in red.

import { DEFAULT_PALETTE, MARKS, PIECE_COLOURS } from "../../render/palette.js";
import { MARGIN, gridCellAt, gridCellBox, gridLayout } from "../../render/grid.js";
import { candidateMasks, maskValues } from "./logic.js";
import { gridUnits } from "./editor.js";
import { variantUnits } from "./variants.js";
import { drawSetterMarks } from "./setter.js";

export function layout(view) {
  const cell = view.size <= 9 ? 44 : view.size <= 16 ? 30 : 24;
  return gridLayout(view.size, view.size, { span: cell * view.size, minCell: cell, maxCell: cell });
}

export function cellAt(view, x, y) {
  return gridCellAt(layout(view), x, y);
}

export function cellBox(view, row, col) {
  return gridCellBox(layout(view), row, col);
}

// exporting: leave out the cursor (and the clash and editing marks).
export function draw(d, view, { exporting = false, palette = DEFAULT_PALETTE } = {}) {
  if (view.play) { drawPlay(d, view, view.play, exporting, palette); return; }
  const digits = new Map();
  if (view.solution) view.solution.forEach((value, index) => { if (value) digits.set(index, { value, fill: "#1d5fd1" }); });
  let tint = new Set();
  let tintFill;
  let regionTints = false;
  if (!exporting && view.editing === "cages" && view.cageSelection?.size) {
    tint = view.cageSelection;
    tintFill = "#cfe0ff";
  }
  if (!exporting && view.editing === "regions" && view.regions) regionTints = true;
  // The cursor belongs to typing digits; painting regions or selecting cages hides it.
  const typing = !view.editing || view.editing === "digits";
  drawGrid(d, view, { selected: exporting || !typing ? null : view.selected, clashes: exporting ? undefined : view.clashes, digits, tint, tintFill, regionTints });
  if (!exporting) drawSetterMarks(d, view, (row, col) => cellBox(view, row, col));
}

// The region of each cell: view.regions, or the boxes numbered row by row.
export function regionOf(view) {
  if (view.regions) return view.regions;
  const n = view.size;
  const across = n / view.boxCols;
  return Array.from({ length: n * n }, (_, index) =>
    Math.floor(Math.floor(index / n) / view.boxRows) * across + Math.floor((index % n) / view.boxCols));
}

const CAGE_INK = "#4a5563";
const CAGE_INSET = 4;

// A cage's dashed outline, CAGE_INSET inside its cells: per cell side on the cage's border one
// line, carried on to meet the next side where the border turns (Tatham's killer outline).
function drawCage(d, view, cage, cell) {
  const n = view.size;
  const inside = new Set(cage.cells);
  const has = (r, c) => r >= 0 && c >= 0 && r < n && c < n && inside.has(r * n + c);
  const style = { stroke: CAGE_INK, width: 1.2, dash: [4, 3] };
  for (const index of cage.cells) {
    const r = Math.floor(index / n);
    const c = index % n;
    const x0 = MARGIN + c * cell;
    const y0 = MARGIN + r * cell;
    const x1 = x0 + cell;
    const y1 = y0 + cell;
    // How far a side runs at each end: to the cell's edge if the cage goes on, past it if it
    // turns back towards this side (a concave corner), else stop at the inset corner.
    const reach = (along, turn) => (along ? (turn ? -CAGE_INSET : 0) : CAGE_INSET);
    if (!has(r - 1, c)) d.line(x0 + reach(has(r, c - 1), has(r - 1, c - 1)), y0 + CAGE_INSET, x1 - reach(has(r, c + 1), has(r - 1, c + 1)), y0 + CAGE_INSET, style);
    if (!has(r + 1, c)) d.line(x0 + reach(has(r, c - 1), has(r + 1, c - 1)), y1 - CAGE_INSET, x1 - reach(has(r, c + 1), has(r + 1, c + 1)), y1 - CAGE_INSET, style);
    if (!has(r, c - 1)) d.line(x0 + CAGE_INSET, y0 + reach(has(r - 1, c), has(r - 1, c - 1)), x0 + CAGE_INSET, y1 - reach(has(r + 1, c), has(r + 1, c - 1)), style);
    if (!has(r, c + 1)) d.line(x1 - CAGE_INSET, y0 + reach(has(r - 1, c), has(r - 1, c + 1)), x1 - CAGE_INSET, y1 - reach(has(r + 1, c), has(r + 1, c + 1)), style);
  }
  const first = Math.min(...cage.cells);
  const x = MARGIN + (first % n) * cell + 2;
  const y = MARGIN + Math.floor(first / n) * cell + 2;
  const size = Math.max(9, cell * 0.26);
  const label = String(cage.sum);
  // The sum on a patch of paper, so the dashes do not run through it.
  d.rect(x, y, size * 0.62 * label.length + 3, size + 1, { fill: "#ffffff" });
  d.text(x + 1.5, y + size / 2 + 1, label, { size, fill: CAGE_INK, align: "left" });
}

// digits: cell index -> {value, fill} drawn in open cells; clashes: cell indices whose givens
// clash; tint: cell indices to shade; ring: a cell index to circle; wrong: cells framed in red.
function drawGrid(d, view, { selected = null, clashes = new Set(), digits = new Map(), tint = new Set(), tintFill, ring = null, ringColour, regionTints = false, wrong = new Set() }) {
  const { cell, width, height } = layout(view);
  const n = view.size;
  const region = regionOf(view);
  d.begin(width, height, "#ffffff");
  for (let index = 0; index < n * n; index++) {
    const x0 = MARGIN + (index % n) * cell;
    const y0 = MARGIN + Math.floor(index / n) * cell;
    const given = view.givens[index];
    const clash = Boolean(given) && clashes.has(index);
    if (index === selected) d.rect(x0, y0, cell, cell, { fill: MARKS.cursor });
    else if (clash) d.rect(x0, y0, cell, cell, { fill: MARKS.clash });
    else if (regionTints) d.rect(x0, y0, cell, cell, { fill: PIECE_COLOURS[region[index] % PIECE_COLOURS.length].replace(")", " / 0.45)") });
    else if (given) d.rect(x0, y0, cell, cell, { fill: "#eef1f6" });
    if (tint.has(index)) d.rect(x0, y0, cell, cell, { fill: tintFill });
    // A red ring as well as red ink: the cursor's fill may cover the tint.
    if (clash) d.rect(x0 + 2, y0 + 2, cell - 4, cell - 4, { stroke: MARKS.clashInk, width: 2 });
    const shown = given ? { value: given, fill: clash ? MARKS.clashInk : "#111111", bold: true } : digits.get(index);
    if (shown) d.text(x0 + cell / 2, y0 + cell / 2 + 1, view.symbols[shown.value - 1], { size: cell * 0.55, fill: shown.fill, bold: Boolean(shown.bold) });
    if (index === ring) d.rect(x0 + 2, y0 + 2, cell - 4, cell - 4, { stroke: ringColour, width: 2.5 });
    if (wrong.has(index)) d.rect(x0 + 2, y0 + 2, cell - 4, cell - 4, { stroke: MARKS.clashInk, width: 2 });
  }
  if (view.diagonals) {
    const far = MARGIN + n * cell;
    const style = { stroke: "#9c7cc4", width: 1.5 };
    d.line(MARGIN, MARGIN, far, far, style);
    d.line(far, MARGIN, MARGIN, far, style);
  }
  for (const cage of view.cages || []) if (cage.cells.length) drawCage(d, view, cage, cell);
  // Thin lines between cells, then thick ones where the region (box) changes and round the edge.
  const thin = { stroke: "#9aa3ad", width: 1 };
  const thick = { stroke: "#222222", width: 2.5 };
  for (let i = 1; i < n; i++) {
    const p = MARGIN + i * cell;
    d.line(MARGIN, p, MARGIN + n * cell, p, thin);
    d.line(p, MARGIN, p, MARGIN + n * cell, thin);
  }
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const index = r * n + c;
      const x0 = MARGIN + c * cell;
      const y0 = MARGIN + r * cell;
      if (c + 1 < n && region[index] !== region[index + 1]) d.line(x0 + cell, y0, x0 + cell, y0 + cell, thick);
      if (r + 1 < n && region[index] !== region[index + n]) d.line(x0, y0 + cell, x0 + cell, y0 + cell, thick);
    }
  }
  d.rect(MARGIN, MARGIN, n * cell, n * cell, thick);
}

// The cells of a choose step's item: {cell}, {row, digit}, {column, digit}, {box, digit},
// {region, digit}, {diagonal: 0 (main) or 1, digit} or {cage}.
function itemCells(view, item) {
  const n = view.size;
  const all = Array.from({ length: n }, (_, i) => i);
  if (item.cell) return [item.cell[0] * n + item.cell[1]];
  if ("row" in item) return all.map((c) => item.row * n + c);
  if ("column" in item) return all.map((r) => r * n + item.column);
  if ("box" in item) {
    const across = n / view.boxCols;
    const top = Math.floor(item.box / across) * view.boxRows;
    const left = (item.box % across) * view.boxCols;
    return all.map((i) => (top + Math.floor(i / view.boxCols)) * n + left + (i % view.boxCols));
  }
  if ("region" in item) return regionOf(view).flatMap((region, index) => (region === item.region ? [index] : []));
  if ("diagonal" in item) return all.map((i) => i * n + (item.diagonal === 0 ? i : n - 1 - i));
  if ("cage" in item) return view.cages?.[item.cage]?.cells ?? [];
  return [];
}

export function drawStep(d, view, frame, { palette = DEFAULT_PALETTE } = {}) {
  const n = view.size;
  const digits = new Map();
  for (const entry of frame.placed) {
    if (!entry.place?.cell) continue; // a killer cage's digit set places no digit
    const [r, c] = entry.place.cell;
    digits.set(r * n + c, { value: entry.place.value, fill: entry.forced ? palette["trace-forced"] : palette["trace-tentative"], bold: !entry.forced });
  }
  const latest = frame.step.place?.cell && frame.step.type !== "solution" ? frame.step.place.cell : null;
  // An explained step (play mode's Explain) names the cells that justify it.
  const reasons = (frame.step.cells || []).map(([r, c]) => r * n + c);
  drawGrid(d, view, {
    digits,
    tint: new Set(frame.focus?.item ? itemCells(view, frame.focus.item) : reasons),
    tintFill: palette["trace-focus-fill"],
    ring: latest ? latest[0] * n + latest[1] : null,
    ringColour: palette["trace-focus"],
  });
  const { cell } = layout(view);
  const side = Math.ceil(Math.sqrt(n));
  if (frame.step.technique) drawStepCandidates(d, view, frame, digits, reasons, palette);
  // The candidates it removes: small and struck through, where the digit's mini-grid puts them.
  for (const [r, c, value] of frame.step.eliminate || []) {
    const k = value - 1;
    const x = MARGIN + c * cell + ((k % side) + 0.5) * (cell / side);
    const y = MARGIN + r * cell + (Math.floor(k / side) + 0.5) * (cell / side);
    d.text(x, y + 0.5, view.symbols[k], { size: Math.max(7, (cell / side) * 0.8), fill: MARKS.clashInk, bold: true });
    d.line(x - cell / side / 3, y + cell / side / 3, x + cell / side / 3, y - cell / side / 3, { stroke: MARKS.clashInk, width: 1.2 });
  }
}

// The candidates of an explained step's board: the units' candidates once the digits placed so
// far stand, less the eliminations of the steps before this one. The digits this step places or
// removes are bold in its focus colour in the cells it names (an X-wing's digit in its corners).
function drawStepCandidates(d, view, frame, digits, reasons, palette) {
  const n = view.size;
  const values = view.givens.map((given, index) => given || digits.get(index)?.value || 0);
  const game = { n, givens: values, entries: new Array(n * n).fill(0) };
  const units = gridUnits(n, view.boxRows, view.boxCols, { extraUnits: variantUnits(view), boxes: !view.regions });
  const masks = candidateMasks(game, units);
  for (const step of frame.steps.slice(0, frame.index)) {
    for (const [r, c, value] of step.eliminate || []) masks[r * n + c] &= ~(1 << (value - 1));
  }
  const current = frame.step;
  const used = new Set([...(current.eliminate || []).map(([, , value]) => value), ...(current.place?.value ? [current.place.value] : [])]);
  const named = new Set(reasons);
  const struck = new Set((current.eliminate || []).map(([r, c, value]) => `${r * n + c},${value}`));
  const { cell } = layout(view);
  const side = Math.ceil(Math.sqrt(n));
  for (let index = 0; index < n * n; index++) {
    if (values[index]) continue;
    const x0 = MARGIN + (index % n) * cell;
    const y0 = MARGIN + Math.floor(index / n) * cell;
    for (const value of maskValues(masks[index])) {
      if (struck.has(`${index},${value}`)) continue; // drawn in red by drawStep
      const k = value - 1;
      const strong = named.has(index) && used.has(value);
      d.text(x0 + ((k % side) + 0.5) * (cell / side), y0 + (Math.floor(k / side) + 0.5) * (cell / side) + 0.5, view.symbols[k],
        { size: Math.max(7, (cell / side) * 0.8), fill: strong ? palette["trace-focus"] : CANDIDATE_INK, bold: strong });
    }
  }
}

const PLAYER_INK = "#1d5fd1";
const MARK_INK = "#3b4652";
const CANDIDATE_INK = "#8a94a0";
const HIGHLIGHT_FILL = "#d7e6ff";

// Where a cell's k-th corner mark goes, as fractions of the cell: the four corners, then the
// middles of the top and bottom edges, then of the sides (Tatham's and most apps' order).
const CORNER_SLOTS = [[0.2, 0.2], [0.8, 0.2], [0.2, 0.82], [0.8, 0.82], [0.5, 0.2], [0.5, 0.82], [0.2, 0.5], [0.8, 0.5]];

function drawPlay(d, view, play, exporting, palette) {
  const n = view.size;
  const digits = new Map();
  play.entries.forEach((value, index) => {
    if (value) digits.set(index, { value, fill: play.wrong?.has(index) || play.clashes?.has(index) ? MARKS.clashInk : PLAYER_INK });
  });
  const values = view.givens.map((given, index) => given || play.entries[index]);
  // The cursor's own cell keeps the cursor's colour.
  let tint = new Set(play.highlight ? values.flatMap((value, index) => (value === play.highlight && index !== view.selected ? [index] : [])) : []);
  let tintFill = HIGHLIGHT_FILL;
  const ring = new Set(exporting ? [] : play.wrong || []);
  // A hint's cells take the tint; a mistake's are framed in red.
  const hint = exporting ? null : play.hint;
  if (hint) {
    const cells = hint.cells.map(([r, c]) => r * n + c);
    if (hint.mistake) for (const index of cells) ring.add(index);
    else { tint = new Set(cells); tintFill = palette["trace-focus-fill"]; }
  }
  drawGrid(d, view, { selected: exporting ? null : view.selected, clashes: play.clashes, digits, tint, tintFill, wrong: ring });
  const { cell } = layout(view);
  for (const [r, c] of hint && !hint.mistake ? hint.place : []) {
    d.rect(MARGIN + c * cell + 2, MARGIN + r * cell + 2, cell - 4, cell - 4, { stroke: palette["trace-focus"], width: 2.5 });
  }
  const side = Math.ceil(Math.sqrt(n));
  for (let index = 0; index < n * n; index++) {
    if (values[index]) continue;
    const x0 = MARGIN + (index % n) * cell;
    const y0 = MARGIN + Math.floor(index / n) * cell;
    const symbol = (value) => view.symbols[value - 1];
    const centre = maskValues(play.centre[index]);
    const corner = maskValues(play.corner[index]);
    if (centre.length) {
      const text = centre.map(symbol).join("");
      d.text(x0 + cell / 2, y0 + cell / 2, text, { size: Math.min(cell * 0.3, (cell * 1.6) / Math.max(text.length, 1)), fill: MARK_INK });
    }
    corner.forEach((value, k) => {
      const [fx, fy] = CORNER_SLOTS[k % CORNER_SLOTS.length];
      d.text(x0 + fx * cell, y0 + fy * cell, symbol(value), { size: cell * 0.26, fill: MARK_INK });
    });
    // Automatic candidates where the player has written no marks: each value in its own place.
    if (play.candidates && !centre.length && !corner.length) {
      for (const value of maskValues(play.candidates[index])) {
        const k = value - 1;
        d.text(x0 + ((k % side) + 0.5) * (cell / side), y0 + (Math.floor(k / side) + 0.5) * (cell / side) + 0.5, symbol(value),
          { size: Math.max(7, (cell / side) * 0.8), fill: CANDIDATE_INK });
      }
    }
  }
}
