// The boards' colours, in one place. Two kinds of colour live here:
//
// - Piece colours and editing marks (PIECE_COLOURS, MARKS, colourTiling), chosen for a white
//   board; a theme (dark mode, through the drawing seam) maps them keeping their hue, so
//   colours told apart by hue stay apart. Pieces of one tiling (polyomino and Shikaku
//   solutions) are coloured so that two pieces sharing an edge never share a colour
//   (colourTiling): a fixed colour per piece name cannot work (a 6x10 tiling has 12 pieces that
//   may all touch, the library has 56), but four colours suffice for any map, and a greedy
//   colouring of a tiling's pieces needs at most six of PIECE_COLOURS.
// - Colours that carry a meaning of their own (the Step view, the heatmap, the domino
//   orientation and parity scheme): DEFAULT_PALETTE, read from CSS custom properties so that a
//   theme can change them (readPalette). Each name is the property --NAME on the page's root
//   element; the value here is used when the page does not set it. Renderers get the resolved
//   colours as options.palette and fall back to DEFAULT_PALETTE (so a renderer used outside the
//   page still draws).

// Eight fills far apart: the closest two differ by a CIE76 distance of about 31, and still about
// 30 with their lightness turned around as dark mode does (tests/e2e/test_editing.py checks
// at least 25; two hues of one family are around 10 apart).
export const PIECE_COLOURS = Object.freeze([
  "hsl(5 80% 66%)", // red
  "hsl(32 90% 62%)", // orange
  "hsl(54 85% 62%)", // yellow
  "hsl(120 50% 60%)", // green
  "hsl(180 55% 55%)", // teal
  "hsl(210 85% 70%)", // blue
  "hsl(270 60% 76%)", // violet
  "hsl(325 75% 68%)", // pink
]);

// Editing marks drawn on the boards.
export const MARKS = Object.freeze({
  cursor: "#fff3b0", // fill of the selected cell (Sudoku, Shikaku)
  cursorRing: "#1d5fd1", // outline of the keyboard cursor on boards edited by toggling cells
  clash: "#fcd9d6", // fill of cells that clash (two 5s in a row; a clue with no room)
  clashInk: "#b42318", // their symbol
  difference: "#d92d20", // frame and flag of cells that differ between two solutions
});

/**
 * A colour for each placement of a tiling (placements: [{cells: [[r, c], ...]}]), such that two
 * placements sharing an edge differ. Greedy colouring in smallest-last order: the placements
 * are taken off the adjacency graph fewest neighbours first and coloured in the reverse order,
 * so each meets at most five coloured neighbours (a planar graph always has a vertex of degree
 * five or less); each takes the colour its neighbours leave free that is used least so far,
 * which spreads the palette. Deterministic: ties go to the lower index.
 */
export function colourTiling(placements, palette = PIECE_COLOURS) {
  const neighbours = adjacency(placements);
  // Smallest-last order (a plain scan: tilings have tens to hundreds of pieces).
  const degree = neighbours.map((set) => set.size);
  const removed = new Array(placements.length).fill(false);
  const order = [];
  for (let step = 0; step < placements.length; step++) {
    let pick = -1;
    for (let index = 0; index < placements.length; index++) {
      if (!removed[index] && (pick < 0 || degree[index] < degree[pick])) pick = index;
    }
    removed[pick] = true;
    order.push(pick);
    for (const other of neighbours[pick]) degree[other] -= 1;
  }
  return colourGreedily(neighbours, order.reverse(), palette);
}

/**
 * Like colourTiling, but the placements are coloured in the order given, so a placement's
 * colour depends only on those before it: for a stack of placements (a trace's board, bottom
 * first) the pieces keep their colours while pieces come and go above them. Greedy in an
 * arbitrary order may need more colours than smallest-last; eight are plenty for tilings.
 */
export function colourInOrder(placements, palette = PIECE_COLOURS) {
  return colourGreedily(adjacency(placements), placements.map((_, index) => index), palette);
}

// For each placement, the set of placements sharing an edge with it.
function adjacency(placements) {
  const owner = new Map();
  placements.forEach((placement, index) => {
    for (const [r, c] of placement.cells) owner.set(`${r},${c}`, index);
  });
  const neighbours = placements.map(() => new Set());
  placements.forEach((placement, index) => {
    for (const [r, c] of placement.cells) {
      for (const key of [`${r + 1},${c}`, `${r},${c + 1}`]) {
        const other = owner.get(key);
        if (other !== undefined && other !== index) {
          neighbours[index].add(other);
          neighbours[other].add(index);
        }
      }
    }
  });
  return neighbours;
}

// Colours the placements in the given order, each with the colour its coloured neighbours leave
// free that is used least so far (ties to the lower colour).
function colourGreedily(neighbours, order, palette) {
  const choice = new Array(neighbours.length).fill(-1);
  const used = new Array(palette.length).fill(0);
  for (const index of order) {
    const taken = new Set([...neighbours[index]].map((other) => choice[other]));
    let best = -1;
    for (let colour = 0; colour < palette.length; colour++) {
      if (!taken.has(colour) && (best < 0 || used[colour] < used[best])) best = colour;
    }
    if (best < 0) best = index % palette.length; // more neighbours than colours: not planar
    choice[index] = best;
    used[best] += 1;
  }
  return choice.map((colour) => palette[colour]);
}

// Colours with a meaning of their own, each overridable as the CSS custom property --NAME.
export const DEFAULT_PALETTE = Object.freeze({
  "trace-forced": "#2f6fd6", // a placement taken without a choice (force step)
  "trace-tentative": "#e07b00", // a placement being tried (try step)
  "trace-focus": "#d62f6f", // the item chosen, the latest placement
  "trace-focus-fill": "rgba(214, 47, 111, 0.18)",
  "trace-candidate": "#7a3fd1", // a clue's surviving candidate rectangles
  "trace-swept": "rgba(47, 111, 214, 0.14)", // cells the profile DP has swept
  "trace-frontier": "#d62f6f", // the DP's frontier
  "trace-chart": "#2f6fd6", // the live-state chart
  "heat-rgb": "214, 47, 47", // heatmap shade: r, g, b (its opacity grows with the count)
  "heat-text": "#1b1f24",
  "domino-north": "#e8453c", // horizontal, left cell on an even diagonal (r + c even)
  "domino-south": "#f6b93b", // horizontal, odd
  "domino-west": "#3c8de8", // vertical, top cell even
  "domino-east": "#3cb878", // vertical, odd
});

// DEFAULT_PALETTE with the page's custom properties applied.
export function readPalette(root = globalThis.document?.documentElement) {
  const palette = { ...DEFAULT_PALETTE };
  if (!root || typeof getComputedStyle !== "function") return palette;
  const style = getComputedStyle(root);
  for (const name of Object.keys(palette)) {
    const value = style.getPropertyValue(`--${name}`).trim();
    if (value) palette[name] = value;
  }
  return palette;
}
