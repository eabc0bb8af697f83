// Draws an exact cover problem as its incidence matrix through the drawing seam (web/draw.js):
// one column per item, one row per option; the options of the shown solution are filled in
// colour. Large problems show only the chosen options (and at most MAX_ROWS rows).
// view = {items: [names], secondaryCount, options: [[item names]], chosen: [indices] | null}
// drawStep draws a trace step (web/stepview.js): the options on the board are the chosen rows
// (tried ones outlined dashed, the latest in the focus colour) and the chosen item's column
// is shaded.
import { DEFAULT_PALETTE } from "../palette.js";
import { paletteColour } from "../ui.js";

import { MARGIN } from "./grid.js";
const MAX_ROWS = 40;
const MAX_COLS = 60;

function rowsShown(view) {
  const all = view.options.map((_, index) => index);
  if (all.length <= MAX_ROWS) return all;
  return view.chosen ? view.chosen.slice(0, MAX_ROWS) : all.slice(0, MAX_ROWS);
}

export function layout(view) {
  const cols = Math.min(view.items.length, MAX_COLS);
  const rows = rowsShown(view).length;
  const cell = Math.max(8, Math.min(22, Math.floor(560 / Math.max(cols, 1))));
  const labelWidth = 44;
  const headerHeight = 40;
  return {
    cell, labelWidth, headerHeight, cols,
    width: MARGIN * 2 + labelWidth + Math.max(cols, 1) * cell,
    height: MARGIN * 2 + headerHeight + Math.max(rows, 1) * cell,
  };
}

export function drawStep(d, view, frame, { palette = DEFAULT_PALETTE } = {}) {
  const placed = frame.placed.map((entry) => entry.place.option);
  const stepView = { ...view, chosen: placed };
  draw(d, stepView);
  const { cell, labelWidth, headerHeight, cols } = layout(stepView);
  const x0 = MARGIN + labelWidth;
  const y0 = MARGIN + headerHeight;
  const shown = rowsShown(stepView);
  const item = frame.focus?.item;
  const column = typeof item === "string" ? view.items.indexOf(item) : -1;
  if (column >= 0 && column < cols) {
    d.rect(x0 + column * cell, MARGIN, cell, headerHeight + Math.max(shown.length, 1) * cell,
      { fill: palette["trace-focus-fill"], stroke: palette["trace-focus"], width: 2 });
  }
  for (const entry of frame.placed) {
    const row = shown.indexOf(entry.place.option);
    if (row < 0) continue;
    const latest = entry.index === frame.index;
    d.rect(MARGIN + 1, y0 + row * cell + 1, labelWidth + cols * cell - 2, cell - 2, {
      stroke: latest ? palette["trace-focus"] : entry.forced ? palette["trace-forced"] : palette["trace-tentative"],
      width: latest ? 3 : 2, dash: entry.forced || latest ? undefined : [5, 3],
    });
  }
}

export function draw(d, view) {
  const { cell, labelWidth, headerHeight, cols, width, height } = layout(view);
  d.begin(width, height, "#ffffff");
  const x0 = MARGIN + labelWidth;
  const y0 = MARGIN + headerHeight;
  const column = new Map(view.items.slice(0, cols).map((name, index) => [name, index]));
  const primaryCount = view.items.length - view.secondaryCount;
  view.items.slice(0, cols).forEach((name, index) => {
    const label = name.length > 3 ? name.slice(0, 3) : name;
    d.text(x0 + index * cell + cell / 2, MARGIN + headerHeight - 10 - (index % 2) * 14, label,
      { size: Math.min(11, cell * 0.7), fill: index < primaryCount ? "#1b1f24" : "#7a8391" });
  });
  const shown = rowsShown(view);
  const chosen = new Set(view.chosen || []);
  shown.forEach((optionIndex, row) => {
    const y = y0 + row * cell;
    const picked = chosen.has(optionIndex);
    if (picked) d.rect(MARGIN, y, labelWidth + cols * cell, cell, { fill: "#fff3b0" });
    d.text(MARGIN + labelWidth - 6, y + cell / 2 + 1, String(optionIndex), { size: Math.min(11, cell * 0.7), align: "right", fill: picked ? "#1b1f24" : "#7a8391" });
    for (const token of view.options[optionIndex]) {
      const index = column.get(token.split(":")[0]);
      if (index === undefined) continue;
      d.rect(x0 + index * cell + 1, y + 1, cell - 2, cell - 2,
        { fill: picked ? paletteColour(optionIndex, Math.max(view.options.length, 12), 55) : "#c5cbd3" });
    }
  });
  for (let c = 0; c <= cols; c++) d.line(x0 + c * cell, y0, x0 + c * cell, y0 + Math.max(shown.length, 1) * cell, { stroke: c === primaryCount ? "#1b1f24" : "#e3e6ea" });
  for (let r = 0; r <= Math.max(shown.length, 1); r++) d.line(x0, y0 + r * cell, x0 + cols * cell, y0 + r * cell, { stroke: "#e3e6ea" });
}
