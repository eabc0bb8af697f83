// Simon Tatham's game IDs, as his Solo and Rectangles write them: the same rules as Python's
// pysolver/pasted.py (tests/test_pasted.py gives both the same IDs and compares what they read).
// In both, a letter is a run of blank cells (a = 1 ... z = 26), a number is a clue and "_"
// separates two numbers; Solo's reader is in sudoku_paste.js, Rectangles' ("WxH:...", W columns
// and H rows) here.

const RECTANGLES_ID = /^(\d{1,4})x(\d{1,4}):([a-z0-9_]+)$/i;
// The largest Solo game and Rectangles grid (Python's sudoku.MAX_SIZE and shikaku.MAX_SIDE), and
// the most digits of a clue within them: an ID past them is refused before its grid is read
// ("3x3:" and 5 million "z" once made 130 million cells).
export const MAX_SOLO_SIZE = 36;
export const MAX_RECTANGLES_SIDE = 100;
const MAX_CLUE_DIGITS = 5;

/**
 * The cells of a game ID's grid description, row by row: 0 blank, else the clue. Throws an Error
 * as soon as it passes ``most`` cells or meets a number of more than 5 digits.
 */
export function gameIdValues(grid, most = Infinity) {
  const values = [];
  for (const [token] of grid.matchAll(/[a-z]|\d+|_/gi)) {
    if (token === "_") continue;
    if (/\d/.test(token)) {
      if (token.length > MAX_CLUE_DIGITS) throw new Error(`the game ID has a number of ${token.length} digits; no clue has more than ${MAX_CLUE_DIGITS}`);
      values.push(Number(token));
    } else {
      for (let i = token.toLowerCase().charCodeAt(0) - 96; i > 0; i--) values.push(0);
    }
    if (values.length > most) throw new Error(`the game ID's grid describes more than ${most} cells, more than its size holds`);
  }
  return values;
}

/**
 * A Rectangles game ID ("7x7:b4b2e3a2...") as a Shikaku puzzle {rows, cols, clues: [[r, c, n]]};
 * null when the text is no such ID. Throws an Error (a sentence's words) for an ID whose grid
 * does not fill its size.
 */
export function readRectanglesId(text) {
  const match = RECTANGLES_ID.exec(text.replace(/\s+/g, ""));
  if (!match) return null;
  const [cols, rows] = [Number(match[1]), Number(match[2])];
  if (cols > MAX_RECTANGLES_SIDE || rows > MAX_RECTANGLES_SIDE) {
    throw new Error(`this Rectangles game ID is ${cols}x${rows}; the largest grid is ${MAX_RECTANGLES_SIDE}x${MAX_RECTANGLES_SIDE}`);
  }
  const values = gameIdValues(match[3], rows * cols);
  if (values.length !== rows * cols) {
    throw new Error(`this Rectangles game ID describes ${values.length} cells; a ${cols}x${rows} game has ${rows * cols}`);
  }
  const clues = [];
  values.forEach((value, cell) => { if (value) clues.push([Math.floor(cell / cols), cell % cols, value]); });
  return { rows, cols, clues };
}
