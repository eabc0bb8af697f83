// The polyomino shape rules the editor needs before Python sees the puzzle, as pure functions
// (no DOM), each the JavaScript twin of a Python function: normalised / orientations /
// isConnected (pysolver/pieces.py normalise, orientations, is_connected), readCells
// (pieces.parse_cells), readPieces (kinds/polyomino/parsing.py parse_pieces), boardRows and
// boardCells (boards.read_board_rows, parsing.parse_board). tests/test_web_polyomino.py runs both
// sides on the same generated inputs and compares their answers and error paths.
//
// Errors are Errors with a `path` (Python's JSON path of the offending value) and a message a
// person can act on. The limits come from Python's facts (facts.kinds.polyomino.limits).

/** An Error naming the JSON path it is about, as Python's SolveError does. */
export function ruleError(message, path) {
  return Object.assign(new Error(message), { path });
}

const cellKey = ([r, c]) => `${r},${c}`;
const byRowThenColumn = (a, b) => a[0] - b[0] || a[1] - b[1];

/** Cells shifted so the smallest row and column are 0, sorted (Python's normalise). */
export function normalised(cells) {
  const top = Math.min(...cells.map(([r]) => r));
  const left = Math.min(...cells.map(([, c]) => c));
  return cells.map(([r, c]) => [r - top, c - left]).sort(byRowThenColumn);
}

/** Cells joined through shared edges: a piece must be one connected shape (empty is not). */
export function isConnected(cells) {
  const keys = new Set(cells.map(cellKey));
  if (!keys.size) return false;
  const stack = [cells[0]];
  const reached = new Set([cellKey(cells[0])]);
  while (stack.length) {
    const [r, c] = stack.pop();
    for (const next of [[r + 1, c], [r - 1, c], [r, c + 1], [r, c - 1]]) {
      const key = cellKey(next);
      if (keys.has(key) && !reached.has(key)) {
        reached.add(key);
        stack.push(next);
      }
    }
  }
  return reached.size === keys.size;
}

// The eight symmetries of the square grid, in Python's order (pieces.TRANSFORMS): the four
// rotations first, then the same composed with a mirror.
const TRANSFORMS = [
  (r, c) => [r, c], (r, c) => [c, -r], (r, c) => [-r, -c], (r, c) => [-c, r],
  (r, c) => [r, -c], (r, c) => [c, r], (r, c) => [-r, c], (r, c) => [-c, -r],
];

/** The distinct normalised images of a shape under the rotations (and reflections), in order. */
export function orientations(cells, reflections = true) {
  const seen = new Map();
  for (const move of TRANSFORMS.slice(0, reflections ? 8 : 4)) {
    const image = normalised(cells.map(([r, c]) => move(r, c)));
    const key = JSON.stringify(image);
    if (!seen.has(key)) seen.set(key, image);
  }
  return [...seen.values()];
}

/** True when two cell lists are the same piece, turned or mirrored. */
export function sameFreeShape(a, b) {
  const wanted = JSON.stringify(normalised(a));
  return orientations(b, true).some((image) => JSON.stringify(image) === wanted);
}

const typeName = (value) => (value === null ? "null" : Array.isArray(value) ? "a list" : typeof value);

function requireInteger(value, path, minimum, maximum) {
  if (typeof value !== "number" || !Number.isInteger(value)) {
    throw ruleError(`${path} must be an integer, not ${typeName(value)}`, path);
  }
  if (value < minimum) throw ruleError(`${path} must be at least ${minimum}, got ${value}`, path);
  if (value > maximum) throw ruleError(`${path} must be at most ${maximum}, got ${value}`, path);
  return value;
}

/** A custom piece's cells, normalised: Python's parse_cells, its checks in its order. */
export function readCells(value, path, limits) {
  if (!Array.isArray(value)) throw ruleError(`${path} must be a list of [row, col] pairs`, path);
  if (!value.length) throw ruleError(`${path} is empty; a piece needs at least one cell`, path);
  if (value.length > limits.max_piece_cells) {
    throw ruleError(`${path} has ${value.length} cells; a piece may have at most ${limits.max_piece_cells}`, path);
  }
  const seen = new Map();
  value.forEach((pair, index) => {
    const cellPath = `${path}[${index}]`;
    if (!Array.isArray(pair)) throw ruleError(`${cellPath} must be a [row, col] pair`, cellPath);
    if (pair.length !== 2) throw ruleError(`${cellPath} must be a [row, col] pair, got ${pair.length} numbers`, cellPath);
    const bound = limits.max_coordinate;
    const cell = [0, 1].map((k) => requireInteger(pair[k], `${cellPath}[${k}]`, -bound, bound));
    const key = cellKey(cell);
    if (seen.has(key)) {
      throw ruleError(`${cellPath} repeats cell [${cell.join(", ")}] (already at index ${seen.get(key).index})`, cellPath);
    }
    seen.set(key, { cell, index });
  });
  const cells = [...seen.values()].map(({ cell }) => cell);
  if (!isConnected(cells)) {
    throw ruleError(`${path} is not connected: each cell must share an edge with another cell of the piece`, path);
  }
  return normalised(cells);
}

const PIECE_FIELDS = new Set(["name", "cells", "count"]);

// One entry of a piece list as [name, cells (null: the library's), count]s; Python's checks in
// Python's order, so the first error found is the one Python reports.
function readEntry(entry, entryPath, facts) {
  const { limits } = facts;
  if (typeof entry === "string") {
    if (Object.hasOwn(facts.sets, entry)) return facts.sets[entry].map((name) => [name, null, 1]);
    if (Object.hasOwn(facts.pieces, entry)) return [[entry, null, 1]];
    throw ruleError(`${entryPath}: unknown piece ${JSON.stringify(entry)}; give its cells as {"name", "cells"}`, entryPath);
  }
  if (!entry || typeof entry !== "object" || Array.isArray(entry)) {
    throw ruleError(`${entryPath} must be a piece name or {"name", "cells", "count"}`, entryPath);
  }
  // The first unknown field in the object's order, at its own path, as Python's check_fields.
  const unknown = Object.keys(entry).filter((key) => !PIECE_FIELDS.has(key));
  if (unknown.length) {
    throw ruleError(`unknown field ${JSON.stringify(unknown[0])} in ${entryPath}; a piece has name, cells, count`, `${entryPath}.${unknown[0]}`);
  }
  if (!Object.hasOwn(entry, "name")) throw ruleError(`${entryPath} needs a name`, entryPath);
  if (typeof entry.name !== "string") throw ruleError(`${entryPath}.name must be text`, `${entryPath}.name`);
  if (!entry.name) throw ruleError(`${entryPath}.name is empty`, `${entryPath}.name`);
  const count = requireInteger(Object.hasOwn(entry, "count") ? entry.count : 1, `${entryPath}.count`, 1, limits.max_copies);
  if (Object.hasOwn(entry, "cells")) return [[entry.name, readCells(entry.cells, `${entryPath}.cells`, limits), count]];
  if (!Object.hasOwn(facts.pieces, entry.name)) {
    throw ruleError(`${entryPath}: piece ${JSON.stringify(entry.name)} is not in the library, so it needs cells`, entryPath);
  }
  return [[entry.name, null, count]];
}

/**
 * A puzzle's pieces as Python reads them (parse_pieces): a name given twice adds up its
 * counts, and must name the same shape each time. Returns [{name, cells (null: the library's),
 * count}] in first-use order; throws a ruleError as Python would.
 */
export function readPieces(value, facts, path = "puzzle.pieces") {
  if (!Array.isArray(value)) throw ruleError(`${path} must be a list of pieces`, path);
  if (!value.length) throw ruleError(`${path} is empty; name at least one piece`, path);
  const uses = new Map();
  const shapeOf = ({ name, cells }) => cells || facts.pieces[name].cells;
  value.forEach((entry, index) => {
    const entryPath = `${path}[${index}]`;
    for (const [name, cells, count] of readEntry(entry, entryPath, facts)) {
      const known = uses.get(name);
      if (!known) {
        uses.set(name, { name, cells, count, path: entryPath });
      } else if (!sameFreeShape(shapeOf(known), shapeOf({ name, cells }))) {
        throw ruleError(`${entryPath} names piece ${JSON.stringify(name)} with a different shape than ${known.path}; ` +
          "give different pieces different names", entryPath);
      } else {
        known.count += count;
      }
      const total = uses.get(name).count;
      if (total > facts.limits.max_copies) {
        throw ruleError(`${entryPath}: piece ${JSON.stringify(name)} is used ${total} times; the limit is ${facts.limits.max_copies}`, entryPath);
      }
    }
  });
  return [...uses.values()].map(({ name, cells, count }) => ({ name, cells, count }));
}

/** A board's rows, checked as Python's read_board_rows checks them; throws a ruleError. */
export function boardRows(value, limits, path = "puzzle.board") {
  if (!Array.isArray(value)) throw ruleError(`${path} must be a list of text rows`, path);
  if (!value.length) throw ruleError(`${path} is empty; give rows of '.' (cover) and '#' (no cell)`, path);
  if (value.length > limits.max_rows) throw ruleError(`${path} has ${value.length} rows; the limit is ${limits.max_rows}`, path);
  value.forEach((text, r) => {
    const rowPath = `${path}[${r}]`;
    if (typeof text !== "string") throw ruleError(`${rowPath} must be text, not ${typeName(text)}`, rowPath);
    if (!text) throw ruleError(`${rowPath} is empty; every row needs at least one cell`, rowPath);
    if (text.length > limits.max_cols) throw ruleError(`${rowPath} has ${text.length} columns; the limit is ${limits.max_cols}`, rowPath);
    if (text.length !== value[0].length) {
      throw ruleError(`row ${r + 1} of the board has ${text.length} characters but row 1 has ${value[0].length}; ` +
        "all rows must have the same length (use '#' for cells outside the board)", rowPath);
    }
    const column = [...text].findIndex((ch) => ch !== "." && ch !== "#");
    if (column >= 0) {
      throw ruleError(`row ${r + 1} of the board has '${text[column]}' at column ${column + 1}; ` +
        "use '.' for a cell to cover and '#' for no cell", rowPath);
    }
  });
  return value;
}

/** The cells to cover ('.'), row by row (Python's parse_board before its count checks). */
export function boardCells(rows) {
  return rows.flatMap((line, r) => [...line].flatMap((ch, c) => (ch === "." ? [[r, c]] : [])));
}
