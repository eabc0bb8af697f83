// Simon Tatham's game IDs, as his games write them: the same rules as Python's pysolver/tatham.py
// (tests/test_pasted.py gives both the same IDs and compares what they read). A letter is a run
// of blank cells (a = 1 ... z = 26), a number is a clue and "_" separates two numbers; each
// kind's reader of its game's IDs (its folder's paste.js) reads the size and hands the grid here.

// The most digits of a clue within the kinds' limits: a longer number is refused before it is read.
const MAX_CLUE_DIGITS = 5;

/**
 * The cells of a game ID's grid description, row by row: 0 blank, else the clue. Throws an Error
 * as soon as it passes `most` cells (the reader's size; "3x3:" and 5 million "z" once made 130
 * million cells) or meets a number of more than 5 digits.
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
