// The size fields of each kind's "New puzzle" (web/play/session.js), bounded by what Python's
// generate mode accepts (facts.json: kinds.KIND.generate.limits). Each returns {node, puzzle()}:
// puzzle() is the "puzzle" of a generate request.
import { clampInt, el, labelled } from "../ui/ui.js";

// The sizes offered first (the page's choice: a quick, familiar puzzle).
const FIRST_SUDOKU_SIZE = 9;
const FIRST_SHIKAKU_SIDE = 10;
const FIRST_PENTOMINOES = 4;

/** Sudoku: #sudoku-new-size, one of the sizes generate makes. */
export function sudokuSizes(kindId, { limits }) {
  const field = labelled("Size", { tag: "select", id: `${kindId}-new-size` });
  for (const n of limits.sizes) field.input.append(el("option", { value: n, selected: n === FIRST_SUDOKU_SIZE }, `${n}x${n}`));
  return { node: field.wrap, puzzle: () => ({ size: Number(field.input.value) }) };
}

/** Shikaku: #shikaku-new-rows, #shikaku-new-cols, within generate's sides. */
export function shikakuSizes(kindId, { limits }) {
  const side = (name, label) => labelled(label, {
    id: `${kindId}-new-${name}`, type: "number", min: String(limits.min_side), max: String(limits.max_side), value: String(FIRST_SHIKAKU_SIDE),
  });
  const rows = side("rows", "Rows");
  const cols = side("cols", "Columns");
  const read = (field) => clampInt(field.input.value, limits.min_side, limits.max_side, FIRST_SHIKAKU_SIDE);
  return { node: el("span", { class: "row" }, rows.wrap, cols.wrap), puzzle: () => ({ rows: read(rows), cols: read(cols) }) };
}

/** Polyomino: #polyomino-new-size, a rectangle of k pentominoes (Katamino's "5 x k" boards). */
export function polyominoSizes(kindId, { limits }) {
  const field = labelled("Board", { tag: "select", id: `${kindId}-new-size` });
  for (let pieces = limits.min_pieces; pieces <= limits.max_pieces; pieces++) {
    field.input.append(el("option", { value: pieces, selected: pieces === FIRST_PENTOMINOES }, `${limits.piece_cells}x${pieces} (${pieces} pieces)`));
  }
  return { node: field.wrap, puzzle: () => ({ rows: limits.piece_cells, cols: Number(field.input.value) }) };
}
