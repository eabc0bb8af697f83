// puzz.link / pzprjs URLs on the page: the parts every puzzle type shares, as Python's
// pysolver/puzzlink.py has them (_url_parts, _decode_numbers). A kind's own reader or writer
// (its folder's paste.js) builds on them: the fields of a URL of its type, and pzprjs' number
// encoding of cells. tests/test_web_parsers.py and tests/test_pasted.py give the page's readers
// and writers and Python's the same puzzles and compare the URLs and the grids.
//
// Cells run row by row; a clue is its number in hex ("5"; "-" and two digits up to 255, "+" and
// three up to 4095, "=" and three for 4096-8191, "%" and three above); a run of 1-20 empty cells
// is one letter ("g" = 1 ... "z" = 20; a longer run is several).

// Prefix -> [hex digits that follow, value added]: pzprjs' number encoding.
const NUMBER_PREFIXES = { "-": [2, 0], "+": [3, 0], "=": [3, 4096], "%": [3, 8192] };
const HEX = /^[0-9a-f]+$/;
// The longest run of empty cells one letter writes ("z").
const LONGEST_RUN = 20;

function encodeNumber(size) {
  if (size < 16) return size.toString(16);
  if (size < 256) return `-${size.toString(16).padStart(2, "0")}`;
  if (size < 4096) return `+${size.toString(16).padStart(3, "0")}`;
  if (size < 8192) return `=${(size - 4096).toString(16).padStart(3, "0")}`;
  return `%${(size - 8192).toString(16).padStart(3, "0")}`;
}

/**
 * The puzz.link URL of a puzzle of pzprjs type `type` whose data is numbers in cells: byCell maps
 * a cell's index (row * cols + col) to its number; the other cells are empty.
 */
export function numbersUrl(type, rows, cols, byCell) {
  const pieces = [];
  let blanks = 0;
  for (let cell = 0; cell < rows * cols; cell++) {
    const value = byCell.get(cell);
    if (value === undefined) {
      blanks += 1;
      if (blanks === LONGEST_RUN) { pieces.push("z"); blanks = 0; }
      continue;
    }
    if (blanks) { pieces.push(String.fromCharCode(102 + blanks)); blanks = 0; }
    pieces.push(encodeNumber(value));
  }
  if (blanks) pieces.push(String.fromCharCode(102 + blanks));
  return `https://puzz.link/p?${type}/${cols}/${rows}/${pieces.join("")}`;
}

/**
 * The fields after the type of a puzz.link / pzprjs URL of pzprjs type `type` (any host, or the
 * bare "<type>/..."): ["<cols>", "<rows>", "<data>", ...], flag tokens some editors insert before
 * the size (e.g. "edit") left out. null when the text is no puzz.link URL of that type.
 */
export function urlFields(text, type) {
  const trimmed = text.trim();
  if (!new RegExp(`^(?:https?:\\/\\/\\S+|${type}\\/\\S+)$`, "i").test(trimmed)) return null;
  const query = trimmed.includes("?") ? trimmed.slice(trimmed.indexOf("?") + 1) : trimmed;
  const parts = query.split("#")[0].replace(/^\/+|\/+$/g, "").split("/");
  if (parts[0].toLowerCase().replace(/_edit$/, "") !== type) return null;
  const fields = parts.slice(1).filter(Boolean);
  while (fields.length > 3 && !/^\d+$/.test(fields[0])) fields.shift();
  return fields;
}

/**
 * The cells of pzprjs' number data, row by row (0 blank), as Python's _decode_numbers reads it.
 * Throws an Error (a sentence's words) on data that does not fit the grid or is not numbers.
 */
export function decodeNumbers(data, rows, cols) {
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
