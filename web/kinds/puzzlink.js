// puzz.link URLs on the page: the encoder of Python's Shikaku codec (to_url in pysolver, its
// reader's counterpart) written again so the page can make a URL without a round trip to the
// worker, and the reader of Sudoku URLs (pysolver/puzzlink.py's parse_sudoku_url) so the Sudoku
// paste box loads one as it loads any grid. tests/test_web_parsers.py and tests/test_pasted.py
// give both the same puzzles and compare the URLs and the grids.
//
// Cells run row by row; a clue is its number in hex ("5"; "-" and two digits up to 255, "+" and
// three up to 4095, "=" and three for 4096-8191, "%" and three above); a run of 1-20 empty cells
// is one letter ("g" = 1 ... "z" = 20; a longer run is several).

import { MAX_SOLO_SIZE } from "./tatham_ids.js";

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

// The largest Sudoku (Python's sudoku.MAX_SIZE; Solo's limit is the same).
const MAX_SUDOKU_SIZE = MAX_SOLO_SIZE;
// Prefix -> [hex digits that follow, value added]: pzprjs' number encoding.
const NUMBER_PREFIXES = { "-": [2, 0], "+": [3, 0], "=": [3, 4096], "%": [3, 8192] };
const HEX = /^[0-9a-f]+$/;

/**
 * A puzz.link / pzprjs Sudoku URL ("https://puzz.link/p?sudoku/9/9/<data>", any host, or the
 * bare "sudoku/9/9/<data>") as {n, values}: the cells row by row, 0 blank. null when the text
 * is no puzz.link Sudoku URL; throws an Error (a sentence's words) for one that is wrong.
 */
export function readSudokuUrl(text) {
  const trimmed = text.trim();
  if (!/^(?:https?:\/\/\S+|sudoku\/\S+)$/i.test(trimmed)) return null;
  const query = trimmed.includes("?") ? trimmed.slice(trimmed.indexOf("?") + 1) : trimmed;
  const parts = query.split("#")[0].replace(/^\/+|\/+$/g, "").split("/");
  if (parts[0].toLowerCase().replace(/_edit$/, "") !== "sudoku") return null;
  // Flag tokens some editors insert before the size (e.g. "edit") are skipped.
  const fields = parts.slice(1).filter(Boolean);
  while (fields.length > 3 && !/^\d+$/.test(fields[0])) fields.shift();
  if (fields.length < 2) throw new Error("the URL lacks the grid size: expected sudoku/<cols>/<rows>/<data>");
  if (!fields.slice(0, 2).every((field) => /^\d{1,9}$/.test(field))) {
    throw new Error(`the URL's size "${fields[0]}/${fields[1]}" is not two whole numbers`);
  }
  const [cols, rows] = fields.slice(0, 2).map(Number);
  if (cols !== rows) throw new Error(`a Sudoku grid is square; this URL's is ${cols} x ${rows}`);
  if (cols < 1) throw new Error("the URL's columns must be at least 1, got 0");
  // Before a cell is made (sudoku/12000/12000/ once filled 144 million); Python's sudoku.MAX_SIZE.
  if (cols > MAX_SUDOKU_SIZE) throw new Error(`the URL's Sudoku is ${cols} x ${rows}; the largest size is ${MAX_SUDOKU_SIZE}x${MAX_SUDOKU_SIZE}`);
  return { n: cols, values: decodeNumbers(fields.slice(2).join("/"), rows, cols) };
}

// The cells of pzprjs' number data, row by row (0 blank), as Python's _decode_numbers reads it.
function decodeNumbers(data, rows, cols) {
  const cells = rows * cols;
  const values = new Array(cells).fill(0);
  let cell = 0;
  for (let position = 0; position < data.length;) {
    const char = data[position];
    if (cell >= cells) throw new Error(`the URL data goes on past the last of the ${cells} cells (${cols} x ${rows}) at character ${position}; is the size right?`);
    if (HEX.test(char)) {
      values[cell++] = parseInt(char, 16);
      position += 1;
    } else if (char in NUMBER_PREFIXES) {
      const [digits, offset] = NUMBER_PREFIXES[char];
      const chunk = data.slice(position + 1, position + 1 + digits);
      if (chunk.length !== digits || !HEX.test(chunk)) throw new Error(`the URL data has "${char}" at character ${position} followed by "${chunk}"; it must be followed by ${digits} hex digits`);
      values[cell++] = parseInt(chunk, 16) + offset;
      position += 1 + digits;
    } else if (char >= "g" && char <= "z") {
      cell += parseInt(char, 36) - 15;
      position += 1;
    } else {
      throw new Error(`the URL data has an unexpected character "${char}" at position ${position}`);
    }
  }
  return values;
}
