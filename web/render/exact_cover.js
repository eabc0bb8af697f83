// Draws an exact cover problem as its incidence matrix through the drawing seam (web/draw.js):
// one column per item, one row per option; the options of the shown solution are filled in
// colour. Large problems show only the chosen options (and at most MAX_ROWS rows).
// view = {items: [names], secondaryCount, options: [[item names]], chosen: [indices] | null}
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
