// The size field of the polyomino "New puzzle" (web/play/session.js), bounded by what Python's
// generate mode accepts (facts.json: kinds.polyomino.generate.limits). Returns {node, puzzle(),
// of(puzzle)}: puzzle() is the "puzzle" of a generate request; of(puzzle), the one that made a
// puzzle (its board's size); show(fields) sets the field to such a request's puzzle (a link's).
import { el, labelled } from "../../ui/ui.js";

// The board offered first (the page's choice: a quick puzzle).
const FIRST_PENTOMINOES = 4;

/** #polyomino-new-size, a rectangle of k pentominoes (Katamino's "5 x k" boards). */
export function sizeFields(kindId, { limits }) {
  const field = labelled("Board", { tag: "select", id: `${kindId}-new-size` });
  for (let pieces = limits.min_pieces; pieces <= limits.max_pieces; pieces++) {
    field.input.append(el("option", { value: pieces, selected: pieces === FIRST_PENTOMINOES }, `${limits.piece_cells}x${pieces} (${pieces} pieces)`));
  }
  return {
    node: field.wrap,
    puzzle: () => ({ rows: limits.piece_cells, cols: Number(field.input.value) }),
    of: (puzzle) => ({ rows: puzzle.board.length, cols: puzzle.board[0]?.length ?? 0 }),
    show(fields) {
      if (fields.rows === limits.piece_cells && fields.cols >= limits.min_pieces && fields.cols <= limits.max_pieces) field.input.value = String(fields.cols);
    },
  };
}
