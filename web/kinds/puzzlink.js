// puzz.link URLs written by the page: the encoder of Python's Shikaku codec (to_url in
// pysolver, its reader's counterpart) written again so the page can make a URL without a round
// trip to the worker. tests/test_web_parsers.py gives both the same puzzles and compares the URLs.
//
// Cells run row by row; a clue is its number in hex ("5"; "-" and two digits up to 255, "+" and
// three up to 4095, "=" and three for 4096-8191, "%" and three above); a run of 1-20 empty cells
// is one letter ("g" = 1 ... "z" = 20; a longer run is several).

function encodeNumber(size) {
  if (size < 16) return size.toString(16);
  if (size < 256) return `-${size.toString(16).padStart(2, "0")}`;
  if (size < 4096) return `+${size.toString(16).padStart(3, "0")}`;
  if (size < 8192) return `=${(size - 4096).toString(16).padStart(3, "0")}`;
  return `%${(size - 8192).toString(16).padStart(3, "0")}`;
}

/** The puzz.link URL of a Shikaku puzzle: rows, cols and clues [[r, c, n], ...]. */
export function shikakuUrl(rows, cols, clues) {
  const byCell = new Map(clues.map(([r, c, n]) => [r * cols + c, n]));
  const pieces = [];
  let blanks = 0;
  for (let cell = 0; cell < rows * cols; cell++) {
    const size = byCell.get(cell);
    if (size === undefined) {
      blanks += 1;
      if (blanks === 20) { pieces.push("z"); blanks = 0; }
      continue;
    }
    if (blanks) { pieces.push(String.fromCharCode(102 + blanks)); blanks = 0; }
    pieces.push(encodeNumber(size));
  }
  if (blanks) pieces.push(String.fromCharCode(102 + blanks));
  return `https://puzz.link/p?shikaku/${cols}/${rows}/${pieces.join("")}`;
}
