// The size fields of Star Battle's "New puzzle" (web/play/session.js), within what Python's
// generate mode makes (facts.json: kinds.star_battle.generate.limits: min_size, and max_size by
// stars; min_size may also be given by stars). Returns {node, puzzle(), of(puzzle)}: puzzle() is
// the "puzzle" of a generate request; of(puzzle), the one that made a puzzle (its side, stars);
// show(fields) sets the fields to such a request's puzzle (a link's).
import { el, labelled } from "../../ui/ui.js";

// The side offered first for each number of stars (the page's choice: a quick puzzle of the
// usual shape), where generate makes it.
const FIRST_SIDE = { 1: 8, 2: 10 };

/** #star_battle-new-stars (the stars generate makes), #star_battle-new-size (its sides for them). */
export function sizeFields(kindId, { limits }) {
  const starCounts = Object.keys(limits.max_size).map(Number).sort((a, b) => a - b);
  const smallest = (stars) => (typeof limits.min_size === "object" ? Number(limits.min_size[stars]) : Number(limits.min_size));
  const stars = labelled("Stars", { tag: "select", id: `${kindId}-new-stars` });
  for (const count of starCounts) stars.input.append(el("option", { value: count }, `${count} star${count === 1 ? "" : "s"}`));
  const size = labelled("Size", { tag: "select", id: `${kindId}-new-size` });
  // The sides for the stars chosen, the side shown kept where it still fits.
  function offerSides() {
    const count = Number(stars.input.value);
    const [low, high] = [smallest(count), Number(limits.max_size[count])];
    const previous = Number(size.input.value);
    const wanted = previous >= low && previous <= high ? previous : Math.min(high, Math.max(low, FIRST_SIDE[count] ?? high));
    size.input.replaceChildren(...Array.from({ length: high - low + 1 }, (_, i) => low + i)
      .map((n) => el("option", { value: n, selected: n === wanted }, `${n}x${n}`)));
  }
  stars.input.addEventListener("change", offerSides);
  offerSides();
  return {
    node: el("span", { class: "row" }, stars.wrap, size.wrap),
    puzzle: () => ({ size: Number(size.input.value), stars: Number(stars.input.value) }),
    of: (puzzle) => ({ size: puzzle.regions.length, stars: puzzle.stars }),
    show(fields) {
      if (!starCounts.includes(fields.stars)) return;
      stars.input.value = String(fields.stars);
      offerSides();
      if ([...size.input.options].some((option) => Number(option.value) === fields.size)) size.input.value = String(fields.size);
    },
  };
}
