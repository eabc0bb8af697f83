// The size and variant fields of Sudoku's "New puzzle" (web/play/session.js), offering what
// Python's generate mode makes (facts.json: kinds.sudoku.generate.limits: the sizes, the
// variants and the sizes of each variant). Returns {node, puzzle(), of(puzzle), show(fields)}:
// puzzle() is the "puzzle" of a generate request; of(puzzle), the one that made a puzzle (its
// size and variant); show(fields) sets the fields to such a request's puzzle (a link's).
import { el, labelled } from "../../ui/ui.js";

// The size offered first (the page's choice: a quick, familiar puzzle).
const FIRST_SIZE = 9;
// Words for the variants generate makes (the names are Python's; one it adds later shows as is).
const VARIANT_WORDS = { standard: "Standard", jigsaw: "Jigsaw", x: "Sudoku X", killer: "Killer" };

/** #sudoku-new-variant (when generate makes more than one) and #sudoku-new-size (its sizes). */
export function sizeFields(kindId, { limits }) {
  const variants = limits.variants || ["standard"];
  const variant = labelled("Variant", { tag: "select", id: `${kindId}-new-variant` });
  for (const name of variants) variant.input.append(el("option", { value: name }, VARIANT_WORDS[name] || name));
  variant.wrap.hidden = variants.length < 2;
  const field = labelled("Size", { tag: "select", id: `${kindId}-new-size` });
  // The sizes of the variant chosen, the size shown kept where that variant has it.
  function offerSizes() {
    const sizes = limits.variant_sizes?.[variant.input.value] || limits.sizes;
    const previous = Number(field.input.value) || FIRST_SIZE;
    const wanted = sizes.includes(previous) ? previous : sizes.includes(FIRST_SIZE) ? FIRST_SIZE : sizes[0];
    field.input.replaceChildren(...sizes.map((n) => el("option", { value: n, selected: n === wanted }, `${n}x${n}`)));
  }
  variant.input.addEventListener("change", offerSizes);
  offerSizes();
  const chosen = (name) => (name && name !== "standard" ? { variant: name } : {});
  return {
    node: el("span", { class: "row" }, variant.wrap, field.wrap),
    puzzle: () => ({ size: Number(field.input.value), ...chosen(variant.input.value) }),
    of: (puzzle) => ({
      size: Math.round(Math.sqrt(typeof puzzle.grid === "string" ? [...puzzle.grid].length : puzzle.grid.length * puzzle.grid.length)),
      ...chosen(puzzle.regions ? "jigsaw" : puzzle.diagonals ? "x" : puzzle.cages?.length ? "killer" : "standard"),
    }),
    show(fields) {
      const name = fields.variant || "standard";
      if (!variants.includes(name)) return;
      variant.input.value = name;
      offerSizes();
      if ([...field.input.options].some((option) => Number(option.value) === fields.size)) field.input.value = String(fields.size);
    },
  };
}
