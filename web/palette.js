// The boards' colours for pieces and editing marks, in one place. They are chosen for a white
// board; a theme (web/theme.js, through the drawing seam) maps them for dark mode keeping their
// hue, so colours told apart by hue stay apart.
//
// Pieces of one tiling are coloured so that two pieces sharing an edge never share a colour
// (colourTiling): a fixed colour per piece name cannot work (a 6x10 tiling has 12 pieces that
// may all touch, the library has 56), but four colours suffice for any map, and a greedy
// colouring of a tiling's pieces needs at most six of PIECE_COLOURS.

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
  const choice = new Array(placements.length).fill(-1);
  const used = new Array(palette.length).fill(0);
  for (const index of order.reverse()) {
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
