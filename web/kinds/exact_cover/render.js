// Draws an exact cover problem as its incidence matrix through the drawing seam (web/render/draw.js):
// one column per item, one row per option; the options of the shown solution are filled in
// colour. A coloured entry (x:A) is tinted with its colour and named in its cell; with a
// solution shown, the band above the grid names the colour each secondary item received.
// Large problems show only the chosen options (and at most MAX_ROWS rows).
// view = {items: [names], primaryCount, secondaryCount, options: [[item numbers]],
//         colours: null | [[0 or colour number, per entry]], colourNames: [names],
//         chosen: [option indices] | null, received: {item name: colour name} | null}
// drawStep draws a trace step (web/watch/stepview.js): the options on the board are the chosen rows
// (tried ones outlined dashed, the latest in the focus colour) and the chosen item's column
// is shaded.
import { DEFAULT_PALETTE } from "../../render/palette.js";
import { paletteColour } from "../../ui/ui.js";

import { MARGIN } from "../../render/grid.js";
const MAX_ROWS = 40;
const MAX_COLS = 60;
// The band above the grid where received colours are shown (only for problems with colours).
const BAND = 16;

/** The hue of the colour numbered index (0-based) in a problem: golden-angle steps, so the
 * first colours are far apart and a colour keeps its hue when more are added. */
export function colourHue(index) {
  return Math.round(index * 137.508) % 360;
}

// Colours are chosen for a white board; the drawing's theme maps them for dark mode.
const colourFill = (index) => `hsl(${colourHue(index)} 75% 80%)`;

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
  const headerHeight = 40 + (view.colours ? BAND : 0);
  return {
    cell, labelWidth, headerHeight, cols,
    width: MARGIN * 2 + labelWidth + Math.max(cols, 1) * cell,
    height: MARGIN * 2 + headerHeight + Math.max(rows, 1) * cell,
  };
}

export function drawStep(d, view, frame, { palette = DEFAULT_PALETTE } = {}) {
  const placed = frame.placed.map((entry) => entry.place.option);
  const stepView = { ...view, chosen: placed, received: null };
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
  if (!view.items.length) return; // nothing read (the editor says why)
  const x0 = MARGIN + labelWidth;
  const y0 = MARGIN + headerHeight;
  const band = view.colours ? BAND : 0;
  const textSize = Math.min(11, cell * 0.7);
  // Entries name a colour in their cell when it is big enough to read (first two characters).
  const named = cell >= 12;
  view.items.slice(0, cols).forEach((name, index) => {
    const label = name.length > 3 ? name.slice(0, 3) : name;
    d.text(x0 + index * cell + cell / 2, MARGIN + headerHeight - band - 10 - (index % 2) * 14, label,
      { size: textSize, fill: index < view.primaryCount ? "#1b1f24" : "#7a8391" });
  });
  if (view.received) {
    const column = new Map(view.items.slice(0, cols).map((name, index) => [name, index]));
    for (const [item, colour] of Object.entries(view.received)) {
      const index = column.get(item);
      if (index === undefined) continue;
      const x = x0 + index * cell;
      d.rect(x + 1, y0 - band + 1, cell - 2, band - 3, { fill: colourFill(view.colourNames.indexOf(colour)), stroke: "#1b1f24" });
      if (named) d.text(x + cell / 2, y0 - band / 2 - 0.5, colour.slice(0, 2), { size: textSize, fill: "#1b1f24", bold: true });
    }
  }
  const shown = rowsShown(view);
  const chosen = new Set(view.chosen || []);
  shown.forEach((optionIndex, row) => {
    const y = y0 + row * cell;
    const picked = chosen.has(optionIndex);
    if (picked) d.rect(MARGIN, y, labelWidth + cols * cell, cell, { fill: "#fff3b0" });
    d.text(MARGIN + labelWidth - 6, y + cell / 2 + 1, String(optionIndex), { size: textSize, align: "right", fill: picked ? "#1b1f24" : "#7a8391" });
    const colours = view.colours?.[optionIndex];
    view.options[optionIndex].forEach((item, position) => {
      if (item >= cols) return;
      const x = x0 + item * cell;
      const colour = colours?.[position] ?? 0;
      if (colour) {
        d.rect(x + 1, y + 1, cell - 2, cell - 2, { fill: colourFill(colour - 1), stroke: picked ? "#1b1f24" : undefined });
        if (named) d.text(x + cell / 2, y + cell / 2 + 0.5, view.colourNames[colour - 1].slice(0, 2), { size: textSize, fill: "#1b1f24" });
      } else {
        d.rect(x + 1, y + 1, cell - 2, cell - 2,
          { fill: picked ? paletteColour(optionIndex, Math.max(view.options.length, 12), 55) : "#c5cbd3" });
      }
    });
  });
  for (let c = 0; c <= cols; c++) d.line(x0 + c * cell, y0, x0 + c * cell, y0 + Math.max(shown.length, 1) * cell, { stroke: c === view.primaryCount ? "#1b1f24" : "#e3e6ea" });
  for (let r = 0; r <= Math.max(shown.length, 1); r++) d.line(x0, y0 + r * cell, x0 + cols * cell, y0 + r * cell, { stroke: "#e3e6ea" });
}
