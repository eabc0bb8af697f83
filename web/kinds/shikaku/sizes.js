// The size fields of Shikaku's "New puzzle" (web/play/session.js), within the sides Python's
// generate mode accepts (facts.json: kinds.shikaku.generate.limits). Returns {node, puzzle(),
// of(puzzle)}: puzzle() is the "puzzle" of a generate request; of(puzzle), the one that made a
// puzzle (its size); show(fields) sets the fields to such a request's puzzle (a link's).
import { clampInt, el, labelled } from "../../ui/ui.js";

// The side offered first (the page's choice: a quick puzzle).
const FIRST_SIDE = 10;

/** #shikaku-new-rows, #shikaku-new-cols, within generate's sides. */
export function sizeFields(kindId, { limits }) {
  const side = (name, label) => labelled(label, {
    id: `${kindId}-new-${name}`, type: "number", min: String(limits.min_side), max: String(limits.max_side), value: String(FIRST_SIDE),
  });
  const rows = side("rows", "Rows");
  const cols = side("cols", "Columns");
  const read = (field) => clampInt(field.input.value, limits.min_side, limits.max_side, FIRST_SIDE);
  return {
    node: el("span", { class: "row" }, rows.wrap, cols.wrap),
    puzzle: () => ({ rows: read(rows), cols: read(cols) }),
    of: (puzzle) => ({ rows: puzzle.rows, cols: puzzle.cols }),
    show(fields) {
      rows.input.value = String(fields.rows);
      cols.input.value = String(fields.cols);
    },
  };
}
