// Simon Tatham's game IDs, as his Solo and Rectangles write them: the same rules as Python's
// pysolver/pasted.py (tests/test_pasted.py gives both the same IDs and compares what they read).
// In both, a letter is a run of blank cells (a = 1 ... z = 26), a number is a clue and "_"
// separates two numbers; Solo's reader is in sudoku_paste.js, Rectangles' ("WxH:...", W columns
// and H rows) here.

const RECTANGLES_ID = /^(\d{1,4})x(\d{1,4}):([a-z0-9_]+)$/i;

/** The cells of a game ID's grid description, row by row: 0 blank, else the clue. */
export function gameIdValues(grid) {
  const values = [];
  for (const token of grid.match(/[a-z]|\d+|_/gi) || []) {
    if (token === "_") continue;
    if (/\d/.test(token)) values.push(Number(token));
    else for (let i = token.toLowerCase().charCodeAt(0) - 96; i > 0; i--) values.push(0);
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
  const values = gameIdValues(match[3]);
  if (values.length !== rows * cols) {
    throw new Error(`this Rectangles game ID describes ${values.length} cells; a ${cols}x${rows} game has ${rows * cols}`);
  }
  const clues = [];
  values.forEach((value, cell) => { if (value) clues.push([Math.floor(cell / cols), cell % cols, value]); });
  return { rows, cols, clues };
}
