// The size field of Sudoku's "New puzzle" (web/play/session.js), offering the sizes Python's
// generate mode makes (facts.json: kinds.sudoku.generate.limits). Returns {node, puzzle()}:
// puzzle() is the "puzzle" of a generate request.
import { el, labelled } from "../../ui/ui.js";

// The size offered first (the page's choice: a quick, familiar puzzle).
const FIRST_SIZE = 9;

/** #sudoku-new-size, one of the sizes generate makes. */
export function sizeFields(kindId, { limits }) {
  const field = labelled("Size", { tag: "select", id: `${kindId}-new-size` });
  for (const n of limits.sizes) field.input.append(el("option", { value: n, selected: n === FIRST_SIZE }, `${n}x${n}`));
  return { node: field.wrap, puzzle: () => ({ size: Number(field.input.value) }) };
}
