// Star Battle in puzz.link's form: "https://puzz.link/p?starbattle/<cols>/<rows>/<stars>/<borders>"
// read and written on the page, as Python's pysolver/kinds/star_battle/url.py does (its module
// docstring states the format: pzprjs' border bits, the walls between cells side by side row by
// row, then those between cells one above the other, five bits a base-32 digit). The regions the
// walls cut the board into are named in reading order with Python's names, so the page and
// Python read one link into one puzzle (tests/test_web_star_battle.py compares them).

// Python's url.REGION_NAMES.
const REGION_NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const DIGITS = "0123456789abcdefghijklmnopqrstuv";
const LINK = /^(?:https?:\/\/[^?\s]*\?)?starbattle(?:_edit)?\/([0-9]+)\/([0-9]+)\/([0-9]+)(?:\/([0-9a-v]*))?\/?$/i;
const LOOKS_LIKE = /^\s*(?:https?:\/\/[^?\s]*\?)?starbattle(?:_edit)?\//i;

/** Whether text looks like a Star Battle link (readStarBattleUrl then reads it or says why not). */
export function isStarBattleUrl(text) {
  return LOOKS_LIKE.test(text);
}

// count bits from base-32 digits, most significant first; missing digits are zeros.
function bits(digits, count) {
  const out = [];
  for (const digit of digits) {
    const value = DIGITS.indexOf(digit);
    for (const shift of [4, 3, 2, 1, 0]) out.push(Boolean((value >> shift) & 1));
  }
  return [...out.slice(0, count), ...new Array(Math.max(0, count - out.length)).fill(false)];
}

/**
 * The puzzle {regions: rows of region names, stars} of a Star Battle link, or null when the text
 * is no such link. maxN: the largest side (facts.json's limits.max_n). Throws an Error (a
 * sentence's words) for a broken link.
 */
export function readStarBattleUrl(text, maxN) {
  if (!isStarBattleUrl(text)) return null;
  const match = LINK.exec(text.trim().split("#")[0]);
  if (!match) throw new Error("not a Star Battle link: expected https://puzz.link/p?starbattle/<cols>/<rows>/<stars>/<borders>");
  const [, colsText, rowsText, starsText, borders = ""] = match;
  for (const [name, value] of [["columns", colsText], ["rows", rowsText], ["stars", starsText]]) {
    if (value.length > 4 || Number(value) > maxN) throw new Error(`the link's ${name} '${value}' is more than ${maxN}, the largest board`);
  }
  const [n, rows, stars] = [Number(colsText), Number(rowsText), Number(starsText)];
  if (n !== rows || n < 1) throw new Error(`a Star Battle board is square; this link's is ${n} x ${rows}`);
  const data = borders.toLowerCase();
  const across = (n - 1) * n;
  const down = n * (n - 1);
  const first = Math.ceil(across / 5);
  const expected = first + Math.ceil(down / 5);
  if (data.length > expected) throw new Error(`the link's borders have ${data.length} characters; a ${n} x ${n} board has ${expected}`);
  const walls = { across: bits(data.slice(0, first), across), down: bits(data.slice(first), down) };
  return { regions: regionRows(n, walls), stars };
}

// The region map the walls cut an n x n board into, each part named in reading order.
function regionRows(n, { across, down }) {
  const label = new Array(n * n).fill(-1);
  let parts = 0;
  for (let start = 0; start < n * n; start++) {
    if (label[start] >= 0) continue;
    label[start] = parts;
    const stack = [start];
    while (stack.length) {
      const index = stack.pop();
      const [r, c] = [Math.floor(index / n), index % n];
      const steps = [
        [index + 1, c < n - 1 && !across[r * (n - 1) + c]],
        [index - 1, c > 0 && !across[r * (n - 1) + c - 1]],
        [index + n, r < n - 1 && !down[r * n + c]],
        [index - n, r > 0 && !down[(r - 1) * n + c]],
      ];
      for (const [other, open] of steps) {
        if (open && label[other] < 0) { label[other] = parts; stack.push(other); }
      }
    }
    parts += 1;
  }
  if (parts > REGION_NAMES.length) throw new Error(`the link's borders cut the board into ${parts} regions; a ${n} x ${n} board has ${n}`);
  return Array.from({ length: n }, (_, r) => label.slice(r * n, (r + 1) * n).map((part) => REGION_NAMES[part]).join(""));
}

// Bits packed five to a base-32 digit, most significant first, the last padded with zeros.
function digits(list) {
  let out = "";
  for (let start = 0; start < list.length; start += 5) {
    let value = 0;
    list.slice(start, start + 5).forEach((bit, shift) => { if (bit) value |= 1 << (4 - shift); });
    out += DIGITS[value];
  }
  return out;
}

/** The puzz.link link of an n x n board: labels, one per cell in reading order; stars per line. */
export function starBattleUrl(n, stars, labels) {
  const across = [];
  const down = [];
  for (let r = 0; r < n; r++) for (let c = 0; c < n - 1; c++) across.push(labels[r * n + c] !== labels[r * n + c + 1]);
  for (let r = 0; r < n - 1; r++) for (let c = 0; c < n; c++) down.push(labels[r * n + c] !== labels[(r + 1) * n + c]);
  return `https://puzz.link/p?starbattle/${n}/${n}/${stars}/${digits(across)}${digits(down)}`;
}
