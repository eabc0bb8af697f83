// Simon Tatham's game IDs, as his games write them: the same rules as Python's pysolver/pasted.py
// (tests/test_pasted.py gives both the same IDs and compares what they read). A letter is a run
// of blank cells (a = 1 ... z = 26), a number is a clue and "_" separates two numbers; each
// kind's reader of its game's IDs (its folder's paste.js) reads the size and hands the grid here.

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
