// Reading the Sudoku grids people copy from other programs and sites into the grid text that
// parseGrid (web/kinds/sudoku/editor.js) and Python's sudoku kind read alike. Pure: no page, no DOM
// (tests/test_web_sudoku_paste.py runs it in Node.js and checks its output with Python).
//
// What it reads:
// - frames: HoDoKu and Sudoku Explainer print a grid inside "*-----------*" lines with "|"
//   between boxes; rule lines ("---+---", "=====", ".---.---.", box-drawing characters) are
//   dropped whole, and the frame characters "|", "+" and the box-drawing ones inside rows;
// - blanks written "*", "x", "X" or "?" besides the ".", "0" and "_" parseGrid reads;
// - comma-, semicolon- or tab-separated rows (a spreadsheet's CSV): an empty field is a blank,
//   a number above 9 is the symbol of that value (10 is "A");
// - a sudokuwiki.org address with "?bd=" (81 digits, "0" blank), or any address whose "bd",
//   "puzzle", "grid" or "p" parameter holds a grid;
// - a Simon Tatham Solo game ID ("3x3:a5b1_2c..."; "3x3x:" for the X diagonals): letters are
//   runs of blanks (a = 1 ... z = 26), numbers are givens, "_" separates two numbers.
// - a puzz.link / pzprjs Sudoku URL ("https://puzz.link/p?sudoku/9/9/<data>"; readSudokuUrl);
// Anything else comes back as it was, so parseGrid's own message (the number of symbols, or the
// character that is not a symbol) describes it.

import { decodeNumbers, urlFields } from "../../paste/puzzlink.js";
import { gameIdValues } from "../../paste/tatham_ids.js";

// Every reader below takes maxSize, the largest Sudoku (facts.json's limits.max_size, Python's
// sudoku.MAX_SIZE): a Solo game's symbols or a puzz.link grid's side past it are refused before
// the grid is read ("3x3:" and 5 million "z" once made 130 million cells, sudoku/12000/12000/
// 144 million).

const FOREIGN_BLANKS = "*xX?";
// Characters only frames are drawn with: a line of nothing else (with a run of "-" or "=" or a
// box-drawing character) is a rule line.
const RULE_LINE = /^[\s\-=+*|.:'`_~#─━═│┃║┌┐└┘├┤┬┴┼╔╗╚╝╠╣╦╩╬]*$/;
const RULE_MARK = /--|==|[─━═]/;
const FRAME_CHARS = /[|+¦│┃║]/g;
const SEPARATORS = /[,;\t]/;
// A Tatham Solo game ID: "CxR" (box columns by box rows) or "N" (one row of boxes), flags after
// it ("x" diagonals, "j" jigsaw, "k" killer, "r4" or "m2" symmetry, "d..." difficulty), then ":".
const SOLO_ID = /^(\d+)(?:x(\d+))?([a-z][a-z0-9]*)?:([a-z0-9_]+)(,.*)?$/i;
const GRID_PARAMETERS = ["bd", "puzzle", "grid", "p"];
const SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/**
 * What a pasted text says. Returns {text, box?, diagonals?, source}: text is grid text for
 * parseGrid; box ([rows, cols]) and diagonals come from a Solo ID; source names the format read
 * ("solo", "puzzlink", "address", "rows" (CSV), "frame" or
 * "plain"). Throws an Error (a sentence's words)
 * for a format recognised but not read (a Solo jigsaw or killer ID).
 */
export function readPastedGrid(pasted, maxSize) {
  const text = pasted.trim();
  const solo = SOLO_ID.exec(text.replace(/\s+/g, ""));
  if (solo) return readSoloId(solo, maxSize);
  const fromPuzzlink = readSudokuUrl(text, maxSize);
  if (fromPuzzlink !== null) return { text: gridRows(fromPuzzlink.values, fromPuzzlink.n), source: "puzzlink" };
  const fromAddress = gridFromAddress(text);
  if (fromAddress !== null) return { text: fromAddress, source: "address" };
  // Rule lines go whole; so do rule tokens inside a line (a frame pasted into one line).
  const isRule = (part) => RULE_LINE.test(part) && RULE_MARK.test(part);
  const lines = text.split(/\r?\n/).filter((line) => !isRule(line))
    .map((line) => line.split(/(\s+)/).filter((part) => !isRule(part)).join(""));
  if (lines.some((line) => SEPARATORS.test(line))) return { text: lines.map(readSeparatedRow).join("\n"), source: "rows" };
  const framed = lines.join("\n") !== text || /[|+¦│┃║]/.test(text);
  const cells = lines.map((line) => line.replace(FRAME_CHARS, "")).join("\n");
  return { text: blanksAsDots(cells), source: framed ? "frame" : "plain" };
}

// Cells row by row (0 blank) as grid text, one line a row; a value too large for the symbols
// stays a number, so parseGrid names it.
function gridRows(values, n) {
  const symbol = (value) => (value ? SYMBOLS[value - 1] ?? String(value) : ".");
  return Array.from({ length: n }, (_, row) => values.slice(row * n, (row + 1) * n).map(symbol).join("")).join("\n");
}

function blanksAsDots(text) {
  return [...text].map((ch) => (FOREIGN_BLANKS.includes(ch) ? "." : ch)).join("");
}

// One row of a CSV (or semicolon- or tab-separated) paste: one field a cell.
function readSeparatedRow(line) {
  const fields = line.replace(FRAME_CHARS, "").split(SEPARATORS).map((field) => field.trim());
  return fields.map((field) => {
    if (field === "" || FOREIGN_BLANKS.includes(field)) return ".";
    if (/^\d+$/.test(field) && field.length > 1) {
      const value = Number(field);
      return value === 0 ? "." : SYMBOLS[value - 1] ?? field;
    }
    return field;
  }).join("");
}

// The grid in an address's "bd" (sudokuwiki), "puzzle", "grid" or "p" parameter, or its
// fragment; null when the text is not an address or holds no grid.
function gridFromAddress(text) {
  if (!/^https?:\/\/\S+$/i.test(text)) return null;
  let url;
  try { url = new URL(text); } catch { return null; }
  for (const name of GRID_PARAMETERS) {
    const value = url.searchParams.get(name);
    if (value && /^[0-9.]{16,}$/.test(value)) return value.length === 162 ? value.slice(0, 81) : value;
  }
  return null;
}

function readSoloId([, first, second, flags = "", grid, rest], maxSize) {
  const lower = flags.toLowerCase().replace(/d[a-z]+$/, ""); // the difficulty's letters are not flags
  if (lower.includes("j") || lower.includes("k") || (rest && rest.length > 1)) {
    throw new Error("this is a Solo jigsaw or killer game ID; paste the grid itself, then draw its regions or cages with the variant tools");
  }
  // Solo's "CxR": boxes C columns wide and R rows tall; "N" alone: boxes one row tall.
  const cols = Number(first);
  const rows = second === undefined ? 1 : Number(second);
  const n = cols * rows;
  if (n > maxSize) throw new Error(`this Solo game ID is ${cols}x${rows}: ${n} symbols; the largest game has ${maxSize}`);
  const values = gameIdValues(grid, n * n);
  if (values.length !== n * n) {
    throw new Error(`this Solo game ID describes ${values.length} cells; a ${n}x${n} game has ${n * n}`);
  }
  const bad = values.find((value) => value > n);
  if (bad !== undefined) throw new Error(`this Solo game ID has a ${bad}, more than a ${n}x${n} grid holds`);
  return {
    text: values.map((value) => (value ? SYMBOLS[value - 1] : ".")).join(""),
    box: [rows, cols],
    diagonals: lower.includes("x"),
    source: "solo",
  };
}

/**
 * A puzz.link / pzprjs Sudoku URL ("https://puzz.link/p?sudoku/9/9/<data>", any host, or the
 * bare "sudoku/9/9/<data>") as {n, values}: the cells row by row, 0 blank; Python's
 * parse_url (pysolver/kinds/sudoku/pasted.py) reads it alike. null when the text is no puzz.link
 * Sudoku URL; throws an Error (a sentence's words) for one that is wrong or larger than
 * maxSize.
 */
export function readSudokuUrl(text, maxSize) {
  const fields = urlFields(text, "sudoku");
  if (fields === null) return null;
  if (fields.length < 2) throw new Error("the URL lacks the grid size: expected sudoku/<cols>/<rows>/<data>");
  if (!fields.slice(0, 2).every((field) => /^\d{1,9}$/.test(field))) {
    throw new Error(`the URL's size "${fields[0]}/${fields[1]}" is not two whole numbers`);
  }
  const [cols, rows] = fields.slice(0, 2).map(Number);
  if (cols !== rows) throw new Error(`a Sudoku grid is square; this URL's is ${cols} x ${rows}`);
  if (cols < 1) throw new Error("the URL's columns must be at least 1, got 0");
  // Before a cell is made.
  if (cols > maxSize) throw new Error(`the URL's Sudoku is ${cols} x ${rows}; the largest size is ${maxSize}x${maxSize}`);
  return { n: cols, values: decodeNumbers(fields.slice(2).join("/"), rows, cols) };
}
