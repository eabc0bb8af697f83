// Star Battle's rules and texts without the page (Node.js tests run them:
// tests/test_web_star_battle.py). A board is n x n cells in reading order (index r * n + c);
// its region map is one label per cell (letters, LABELS); stars is how many stars every row,
// column and region holds. The play board is a mark per cell: EMPTY, STAR or DOT (the player's
// "no star here").

// The letters the page names regions with: share texts and the history keep them, so none of
// them may be a separator (":" "," "!" "&") or a digit (the run lengths of regionsText).
export const LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const [EMPTY, STAR, DOT] = [0, 1, 2];
// The digits of progress texts: three marks a character, 3 x 3 x 3 = 27 values.
const DIGITS = "0123456789abcdefghijklmnopq";

/** The most stars a line of n cells holds with no two touching: every other cell. */
export function mostStars(n) {
  return Math.floor((n + 1) / 2);
}

/**
 * The labels of a region map written with any characters (cells: a string or a list of
 * characters), renamed LABELS[0], LABELS[1], ... in order of first appearance, so a request's or a
 * link's regions share the page's names. Throws an Error when it has more regions than LABELS.
 */
export function renameRegions(cells) {
  const names = new Map();
  return [...cells].map((label) => {
    if (!names.has(label)) {
      if (names.size === LABELS.length) throw new Error(`the board has more than ${LABELS.length} regions; a Star Battle of n x n has n`);
      names.set(label, LABELS[names.size]);
    }
    return names.get(label);
  });
}

// The cells side by side with cell index on an n x n board.
function sideNeighbours(n, index) {
  const [r, c] = [Math.floor(index / n), index % n];
  const found = [];
  if (r > 0) found.push(index - n);
  if (r < n - 1) found.push(index + n);
  if (c > 0) found.push(index - 1);
  if (c < n - 1) found.push(index + 1);
  return found;
}

/**
 * What keeps a region map from being a Star Battle board, as Python's board check sees it:
 * {count: how many regions, split: labels of regions in more than one piece}. The board is
 * fine when count is n and split is empty.
 */
export function regionProblems(n, labels) {
  const seen = new Uint8Array(n * n);
  const pieces = new Map(); // label -> pieces found
  for (let start = 0; start < n * n; start++) {
    if (seen[start]) continue;
    const label = labels[start];
    pieces.set(label, (pieces.get(label) ?? 0) + 1);
    seen[start] = 1;
    const stack = [start];
    while (stack.length) {
      for (const next of sideNeighbours(n, stack.pop())) {
        if (!seen[next] && labels[next] === label) { seen[next] = 1; stack.push(next); }
      }
    }
  }
  return { count: pieces.size, split: [...pieces].filter(([, count]) => count > 1).map(([label]) => label) };
}

/** Words for regionProblems ("" when the map is a board). */
export function regionWords(n, labels) {
  const { count, split } = regionProblems(n, labels);
  const parts = [];
  if (count !== n) parts.push(`${count} ${count === 1 ? "region" : "regions"}; a ${n} x ${n} board needs ${n}`);
  if (split.length) parts.push(`${split.length === 1 ? "region" : "regions"} ${split.join(", ")} ${split.length === 1 ? "is" : "are"} in pieces; a region is one connected patch`);
  return parts.length ? `${parts.join(". ").replace(/^./, (first) => first.toUpperCase())}.` : "";
}

/**
 * The stars that break a rule on their own: a star touching another (by a side or a corner),
 * and every star of a row, column or region holding more than `stars`. stars: a list or Set of
 * cell indices. Returns a Set of cell indices.
 */
export function starConflicts(n, stars, labels, starCells) {
  const on = new Set(starCells);
  const bad = new Set();
  for (const index of on) {
    const [r, c] = [Math.floor(index / n), index % n];
    for (let dr = -1; dr <= 1; dr++) {
      for (let dc = -1; dc <= 1; dc++) {
        const [r2, c2] = [r + dr, c + dc];
        if ((dr || dc) && r2 >= 0 && c2 >= 0 && r2 < n && c2 < n && on.has(r2 * n + c2)) bad.add(index);
      }
    }
  }
  for (const line of linesOf(n, labels)) {
    const held = line.filter((index) => on.has(index));
    if (held.length > stars) for (const index of held) bad.add(index);
  }
  return bad;
}

/** The board's lines: every row, every column and every region, as lists of cell indices. */
export function linesOf(n, labels) {
  const all = Array.from({ length: n }, (_, i) => i);
  const regions = new Map();
  labels.forEach((label, index) => {
    if (!regions.has(label)) regions.set(label, []);
    regions.get(label).push(index);
  });
  return [...all.map((r) => all.map((c) => r * n + c)), ...all.map((c) => all.map((r) => r * n + c)), ...regions.values()];
}

/** Whether the stars solve the board: `stars` in every line (the map has n regions), none touching. */
export function solvesBoard(n, stars, labels, starCells) {
  const on = new Set(starCells);
  if (on.size !== n * stars || regionProblems(n, labels).count !== n) return false;
  if (!linesOf(n, labels).every((line) => line.filter((index) => on.has(index)).length === stars)) return false;
  return starConflicts(n, stars, labels, on).size === 0;
}

/** The star cells of a solution in the protocol's form (rows of "*" and "."). */
export function solutionStars(rows) {
  const n = rows.length;
  return rows.flatMap((row, r) => [...row].flatMap((mark, c) => (mark === "*" ? [r * n + c] : [])));
}

/** The marks that contradict a solution (rows of "*" and "."): a star where it has none, a dot
 *  where it has one. A Set of cell indices. */
export function wrongMarks(marks, rows) {
  const right = new Set(solutionStars(rows));
  const wrong = new Set();
  marks.forEach((mark, index) => {
    if ((mark === STAR && !right.has(index)) || (mark === DOT && right.has(index))) wrong.add(index);
  });
  return wrong;
}

/** The play marks as text: three cells a character (base 27, "0"-"9", "a"-"q"), trailing
 *  empty cells left out. */
export function encodeMarks(marks) {
  let last = marks.length;
  while (last > 0 && marks[last - 1] === EMPTY) last -= 1;
  let text = "";
  for (let start = 0; start < last; start += 3) {
    const value = (marks[start] ?? 0) * 9 + (marks[start + 1] ?? 0) * 3 + (marks[start + 2] ?? 0);
    text += DIGITS[value];
  }
  return text;
}

/** The marks of encodeMarks' text on a board of cells cells; throws an Error with a reason. */
export function decodeMarks(text, cells) {
  if (text.length > Math.ceil(cells / 3)) throw new Error(`the game's progress has ${text.length} characters; a board of ${cells} cells needs at most ${Math.ceil(cells / 3)}`);
  const marks = new Array(cells).fill(EMPTY);
  [...text].forEach((char, at) => {
    const value = DIGITS.indexOf(char);
    if (value < 0) throw new Error(`the game's progress has "${char}", which is not a base-27 digit (0-9, a-q)`);
    const triple = [Math.floor(value / 9), Math.floor(value / 3) % 3, value % 3];
    triple.forEach((mark, offset) => {
      if (mark && at * 3 + offset >= cells) throw new Error("the game's progress marks a cell past the end of the board");
      if (at * 3 + offset < cells) marks[at * 3 + offset] = mark;
    });
  });
  return marks;
}

/** The mark after a tap: empty, star, dot, empty again. */
export function nextMark(mark) {
  return (mark + 1) % 3;
}

/** A region map as run-length text: each run of one label, its length after it when more than 1
 *  ("A3B2..."). */
export function regionsText(labels) {
  let text = "";
  for (let start = 0; start < labels.length;) {
    let end = start;
    while (end < labels.length && labels[end] === labels[start]) end += 1;
    text += labels[start] + (end - start > 1 ? String(end - start) : "");
    start = end;
  }
  return text;
}

/** The labels of regionsText's text for cells cells; throws an Error with a reason. */
export function readRegionsText(text, cells) {
  const labels = [];
  const runs = /([A-Za-z])(\d*)/g;
  let at = 0;
  for (const match of text.matchAll(runs)) {
    if (match.index !== at) break;
    at += match[0].length;
    const length = match[2] ? Number(match[2]) : 1;
    if (length < 1 || labels.length + length > cells) throw new Error(`the regions run past the board's ${cells} cells`);
    for (let i = 0; i < length; i++) labels.push(match[1]);
  }
  if (at !== text.length) throw new Error(`the regions should be letters, each with its run length, such as A3B2C; "${text.slice(at, at + 10)}" is not`);
  if (labels.length !== cells) throw new Error(`the regions cover ${labels.length} cells; the board has ${cells}`);
  return labels;
}

const SHARE_FORM = "it should be the side, the stars and the regions, such as 6:1:A3B3A3B2C… (then :row.column,… for given stars)";

/** A puzzle's share-link text: "<n>:<stars>:<regions>[:<r>.<c>,...]" (given stars counted from 0). */
export function boardText({ n, stars, labels, givens = [] }) {
  const base = `${n}:${stars}:${regionsText(labels)}`;
  return givens.length ? `${base}:${givens.map(([r, c]) => `${r}.${c}`).join(",")}` : base;
}

/** The puzzle {n, stars, labels, givens} of boardText's text; throws an Error with a reason. */
export function readBoardText(text, maxN) {
  const match = /^(\d+):(\d+):([A-Za-z0-9]+)(?::(\d+\.\d+(?:,\d+\.\d+)*))?$/.exec(text);
  if (!match) throw new Error(SHARE_FORM);
  const [n, stars] = [Number(match[1]), Number(match[2])];
  if (n < 1 || n > maxN) throw new Error(`the board side must be from 1 to ${maxN} (got ${n})`);
  if (stars < 1 || stars > mostStars(n)) throw new Error(`a ${n} x ${n} board holds 1 to ${mostStars(n)} stars per line (got ${stars})`);
  const labels = readRegionsText(match[3], n * n);
  const givens = match[4] ? match[4].split(",").map((part) => part.split(".").map(Number)) : [];
  for (const [r, c] of givens) if (r >= n || c >= n) throw new Error(`the given star on row ${r + 1}, column ${c + 1} is off the ${n} x ${n} board`);
  return { n, stars, labels, givens };
}
