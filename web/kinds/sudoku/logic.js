// Sudoku play, the rules without the page (Node.js tests run them: tests/test_web_play.py).
// A game is {n, givens, entries, corner, centre}: per cell (row by row) the given value, the
// player's value (0 for none; always 0 on a given), and two pencil-mark sets as bit masks (bit
// v - 1 for the value v): corner marks (where a digit may go in its box) and centre marks
// (what a cell may hold). The page keeps games as text (encodeProgress), which is also what
// undo and redo and the share link hold (web/play/session.js).

const BASE = 36;

/** A fresh game on the givens (values row by row, 0 blank) of an n x n grid. */
export function newGame(givens, n) {
  const cells = n * n;
  return { n, givens: [...givens], entries: new Array(cells).fill(0), corner: new Array(cells).fill(0), centre: new Array(cells).fill(0) };
}

/** The grid as the player sees it: givens, and the player's values in the other cells. */
export function valuesOf(game) {
  return game.givens.map((given, index) => given || game.entries[index]);
}

/**
 * Put value (0: clear) in a cell the puzzle left open; a value wipes the cell's pencil marks.
 * Returns true when something changed.
 */
export function setEntry(game, index, value) {
  if (game.givens[index] || game.entries[index] === value) return false;
  game.entries[index] = value;
  if (value) { game.corner[index] = 0; game.centre[index] = 0; }
  return true;
}

/** Switch the corner ("corner") or centre ("centre") pencil mark of value in an open cell. */
export function toggleMark(game, index, value, which) {
  if (game.givens[index] || game.entries[index]) return false;
  game[which][index] ^= 1 << (value - 1);
  return true;
}

/** Clear a cell: its value if it has one, else its pencil marks. */
export function clearCell(game, index) {
  if (game.givens[index]) return false;
  if (game.entries[index]) return setEntry(game, index, 0);
  if (!game.corner[index] && !game.centre[index]) return false;
  game.corner[index] = 0;
  game.centre[index] = 0;
  return true;
}

/**
 * Automatic candidates: per open cell the mask of values no unit of it holds yet (0 for filled
 * cells). units: lists of cell indices (web/kinds/sudoku/editor.js gridUnits).
 */
export function candidateMasks(game, units) {
  const values = valuesOf(game);
  const full = (1 << game.n) - 1;
  const masks = values.map((value) => (value ? 0 : full));
  for (const unit of units) {
    let seen = 0;
    for (const index of unit) if (values[index]) seen |= 1 << (values[index] - 1);
    for (const index of unit) if (!values[index]) masks[index] &= ~seen;
  }
  return masks;
}

/** The cells whose player's value differs from the solution (values row by row). */
export function wrongCells(game, solution) {
  const wrong = new Set();
  game.entries.forEach((value, index) => { if (value && value !== solution[index]) wrong.add(index); });
  return wrong;
}

/**
 * True when the grid is full and right: equal to the solution when it is known, else no unit
 * holds a value twice and every cage adds up (cages: [{sum, cells}]).
 */
export function isSolved(game, { solution = null, units = [], cages = [] } = {}) {
  const values = valuesOf(game);
  if (values.some((value) => !value)) return false;
  if (solution) return values.every((value, index) => value === solution[index]);
  for (const unit of units) if (new Set(unit.map((index) => values[index])).size !== unit.length) return false;
  return cages.every(({ sum, cells }) => cells.reduce((total, index) => total + values[index], 0) === sum);
}

/** The values set in a mask, smallest first. */
export function maskValues(mask) {
  const values = [];
  for (let value = 1; mask >> (value - 1); value++) if (mask & (1 << (value - 1))) values.push(value);
  return values;
}

/**
 * A game's progress as link text: the player's values (one base-36 digit a cell, "." for none),
 * then ",c" and ",m" with the corner and centre marks of the marked cells as
 * "<cell>.<mask>" pairs (base 36) joined by "_". Only characters a URL fragment keeps as they are.
 */
export function encodeProgress(game) {
  let text = game.entries.map((value) => (value ? value.toString(BASE) : ".")).join("");
  for (const [tag, which] of [["c", "corner"], ["m", "centre"]]) {
    const marked = game[which].flatMap((mask, index) => (mask ? [`${index.toString(BASE)}.${mask.toString(BASE)}`] : []));
    if (marked.length) text += `,${tag}${marked.join("_")}`;
  }
  return text;
}

/** A game on the givens with the progress of encodeProgress's text; throws Error with a reason. */
export function decodeProgress(text, givens, n) {
  const game = newGame(givens, n);
  const [values, ...parts] = text.split(",");
  if (values.length !== n * n) throw new Error(`the game's progress has ${values.length} cells; the ${n}x${n} grid has ${n * n}`);
  [...values].forEach((ch, index) => {
    if (ch === ".") return;
    const value = Number.parseInt(ch, BASE);
    if (!(value >= 1 && value <= n)) throw new Error(`the game's progress has "${ch}" in cell ${index + 1}, not a value of a ${n}x${n} grid`);
    if (!givens[index]) game.entries[index] = value;
  });
  for (const part of parts) {
    const which = { c: "corner", m: "centre" }[part[0]];
    if (!which) throw new Error(`the game's pencil marks "${part.slice(0, 12)}" start with neither c nor m`);
    for (const pair of part.slice(1).split("_")) {
      const [cell, mask] = pair.split(".").map((digits) => Number.parseInt(digits, BASE));
      if (!(cell >= 0 && cell < n * n) || !(mask > 0 && mask < 2 ** n)) throw new Error(`the pencil mark "${pair}" is not a cell of the grid and its digits`);
      if (!givens[cell] && !game.entries[cell]) game[which][cell] = mask;
    }
  }
  return game;
}
