// Polyomino play, the rules without the page (Node.js tests run them: tests/test_web_play.py).
// The pieces to place are the puzzle's, one entry per copy ({name, cells}); a placement is
// {index (the copy), orient (an index into orientations(cells, reflections)), at: [r, c] (where
// the orientation's handle cell goes), cells (the board cells it covers)}.
import { normalised, orientations } from "./rules.js";

const BASE = 36;
const key = ([r, c]) => `${r},${c}`;

/** One entry per copy of each piece ({name, cells}), from readPieces' list and the library. */
export function pieceCopies(pieces, library) {
  return pieces.flatMap(({ name, cells, count }) => Array.from({ length: count }, () => ({ name, cells: cells || library[name].cells })));
}

// The cell of a shape the pointer holds it by: the one nearest its middle (so the piece sits
// round the pointer, not hanging off one corner); ties to the first in row order.
function handle(shape) {
  const n = shape.length;
  const mr = shape.reduce((sum, [r]) => sum + r, 0) / n;
  const mc = shape.reduce((sum, [, c]) => sum + c, 0) / n;
  let best = shape[0];
  for (const cell of shape) if ((cell[0] - mr) ** 2 + (cell[1] - mc) ** 2 < (best[0] - mr) ** 2 + (best[1] - mc) ** 2) best = cell;
  return best;
}

/** The board cells of a copy's orientation held at [r, c]. */
export function placedCells(piece, orient, [r, c], reflections) {
  const shape = orientations(piece.cells, reflections)[orient];
  const [hr, hc] = handle(shape);
  return shape.map(([sr, sc]) => [r + sr - hr, c + sc - hc]);
}

// The orientation a turn (a quarter turn clockwise) or a flip (a mirror) of orient gives.
function turned(piece, orient, reflections, move) {
  const images = orientations(piece.cells, reflections);
  const wanted = JSON.stringify(normalised(images[orient].map(([r, c]) => move(r, c))));
  const found = images.findIndex((image) => JSON.stringify(image) === wanted);
  return found < 0 ? orient : found;
}
export const rotate = (piece, orient, reflections) => turned(piece, orient, reflections, (r, c) => [c, -r]);
export const flip = (piece, orient, reflections) => (reflections ? turned(piece, orient, reflections, (r, c) => [r, -c]) : orient);

/** True when cells lie on open board cells ("." in board rows) that no placement covers. */
export function fits(board, placements, cells) {
  const taken = new Set(placements.flatMap((placement) => placement.cells.map(key)));
  return cells.every(([r, c]) => board[r]?.[c] === "." && !taken.has(key([r, c])));
}

/** The placement covering cell [r, c], or -1. */
export function placementAt(placements, [r, c]) {
  return placements.findIndex((placement) => placement.cells.some(([pr, pc]) => pr === r && pc === c));
}

/** True when every open cell of the board is covered: the puzzle is solved. */
export function isTiled(board, placements) {
  const covered = new Set(placements.flatMap((placement) => placement.cells.map(key)));
  return board.every((line, r) => [...line].every((ch, c) => ch !== "." || covered.has(key([r, c]))));
}

/**
 * The placements (their indices in the list) that are not in the solution ([{piece, cells}]):
 * the solution is one tiling up to symmetry, so it is first turned by the board's symmetry
 * that agrees with the most placements.
 */
export function wrongPlacements(board, placements, pieces, solution) {
  const rows = board.length;
  const cols = board[0].length;
  const moves = [
    (r, c) => [r, c], (r, c) => [r, cols - 1 - c], (r, c) => [rows - 1 - r, c], (r, c) => [rows - 1 - r, cols - 1 - c],
    (r, c) => [c, r], (r, c) => [c, rows - 1 - r], (r, c) => [cols - 1 - c, r], (r, c) => [cols - 1 - c, rows - 1 - r],
  ].slice(0, rows === cols ? 8 : 4);
  const same = (move) => board.every((line, r) => [...line].every((ch, c) => {
    const [mr, mc] = move(r, c);
    return board[mr]?.[mc] === ch;
  }));
  const placementKey = (name, cells) => `${name}:${cells.map(key).sort().join(" ")}`;
  let best = null;
  for (const move of moves.filter(same)) {
    const right = new Set(solution.map(({ piece, cells }) => placementKey(piece, cells.map(([r, c]) => move(r, c)))));
    const wrong = placements.flatMap((placement, index) => (right.has(placementKey(pieces[placement.index].name, placement.cells)) ? [] : [index]));
    if (!best || wrong.length < best.length) best = wrong;
  }
  return new Set(best || []);
}

/** Link text of the placements: "copy.orientation.row.column" (base 36), joined by "_". */
export function encodePlacements(placements) {
  return placements.map(({ index, orient, at }) => [index, orient, ...at].map((value) => value.toString(BASE)).join(".")).join("_");
}

/** The placements of encodePlacements' text; throws Error when one does not fit the board. */
export function decodePlacements(text, board, pieces, reflections) {
  const placements = [];
  if (!text) return placements;
  for (const part of text.split("_")) {
    const numbers = part.split(".").map((digits) => (/^[0-9a-z]+$/.test(digits) ? Number.parseInt(digits, BASE) : Number.NaN));
    const [index, orient, r, c] = numbers;
    const piece = pieces[index];
    const orientCount = piece ? orientations(piece.cells, reflections).length : 0;
    if (numbers.length !== 4 || numbers.some(Number.isNaN) || !piece || orient >= orientCount || placements.some((p) => p.index === index)) {
      throw new Error(`the placement "${part}" is not a piece of the puzzle, its turn and its place`);
    }
    const cells = placedCells(piece, orient, [r, c], reflections);
    if (!fits(board, placements, cells)) throw new Error(`the piece ${piece.name} of "${part}" does not fit there`);
    placements.push({ index, orient, at: [r, c], cells });
  }
  return placements;
}
