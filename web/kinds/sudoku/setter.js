// The Setter panel of the Sudoku tab: Python's assist mode (docs/protocol.md) for a person
// making a puzzle. "Setter" (#sudoku-assist, beside Solve) asks it about the grid on the board;
// the answer shows in #sudoku-setter under the board:
// - several solutions: #sudoku-setter-summary says how many and in how many cells they differ
//   (those cells framed in amber on the board); #sudoku-setter-add lists the best givens to add,
//   each a button (#sudoku-setter-add-K, K from 0, best first: "5 at row 3, column 1: 2
//   solutions left") that puts the given on the board and asks again; hovering or focusing one
//   rings its cell;
// - one solution: #sudoku-setter-redundant lists the givens that can go (framed in blue, dashed),
//   each a button (#sudoku-setter-remove-K) that removes it and asks again (the others may be
//   needed once it is gone), or says the givens are minimal;
// - no solution: #sudoku-setter-conflict names a minimal set of givens that clash (tinted red
//   on the board): together they have no solution, without any one of them the rest has one.
// Rows and columns count from 1 in words; the protocol's cells count from 0.
// drawSetterMarks draws the marks through the drawing seam (web/kinds/sudoku/render.js calls it).
import { el, groupDigits } from "../../ui/ui.js";
import { MARKS } from "../../render/palette.js";

// How many additions the panel offers (the answer lists every one; the best come first).
const OFFERED = 8;
const DIFFER_INK = "#d97706";
const BEST_INK = "#15803d";
const REDUNDANT_INK = "#1d5fd1";

const where = ([r, c]) => `row ${r + 1}, column ${c + 1}`;
const plural = (count, one, many) => `${groupDigits(count)} ${Number(count) === 1 ? one : many}`;

/**
 * The Setter: its button (for the editor's actions), its panel (the editor's extra), and what
 * the editor calls on an answer. view: the editor's view (givens, size, symbols; the marks go
 * in view.setter); hooks: {puzzle() -> the puzzle JSON, setGiven(index, value), redraw()}.
 */
export function createSetter(ctx, view, hooks) {
  const button = el("button", { id: `${ctx.id}-assist`, type: "button", class: "solve-action",
    title: "Which givens to add, which can go, which clash" }, "Setter");
  const summary = el("p", { id: `${ctx.id}-setter-summary`, class: "setter-summary", "aria-live": "polite" });
  const list = el("div", { class: "setter-list" });
  const panel = el("section", { id: `${ctx.id}-setter`, class: "setter", hidden: true, "aria-label": "Setter" },
    el("h3", {}, "Setter"), summary, list);

  const ask = () => ctx.run({ kind: ctx.id, mode: "assist", puzzle: hooks.puzzle() }, { asIs: true });
  button.addEventListener("click", ask);

  const symbol = (digit) => view.symbols[digit - 1];
  const indexOf = ([r, c]) => r * view.size + c;

  function clear() {
    view.setter = null;
    panel.hidden = true;
    summary.textContent = "";
    list.replaceChildren();
  }

  // A list of buttons, each ringing its cell while hovered or focused.
  function choices(id, entries, label, act) {
    const node = el("ol", { id: `${ctx.id}-setter-${id}`, class: "setter-choices" });
    entries.forEach((entry, k) => {
      const cell = entry.cell ?? entry;
      const choice = el("button", { id: `${ctx.id}-setter-${id === "add" ? "add" : "remove"}-${k}`, type: "button" }, label(entry));
      const focus = (on) => { if (view.setter) { view.setter.focus = on ? indexOf(cell) : null; hooks.redraw(); } };
      choice.addEventListener("mouseenter", () => focus(true));
      choice.addEventListener("mouseleave", () => focus(false));
      choice.addEventListener("focus", () => focus(true));
      choice.addEventListener("blur", () => focus(false));
      choice.addEventListener("click", () => { act(entry); ask(); });
      node.append(el("li", {}, choice));
    });
    return node;
  }

  function show(response) {
    if (response.mode !== "assist") { clear(); return; }
    const marks = { differ: new Set(), best: new Set(), redundant: new Set(), conflict: new Set(), focus: null };
    list.replaceChildren();
    if (Array.isArray(response.add)) {
      for (const entry of response.add) marks.differ.add(indexOf(entry.cell));
      const offered = response.add.slice(0, OFFERED);
      if (offered.length) marks.best.add(indexOf(offered[0].cell));
      const many = response.complete ? plural(response.count, "solution", "solutions") : `More than ${plural(response.count, "solution", "solutions")}`;
      summary.textContent = `${many}; they differ in ${plural(marks.differ.size, "cell", "cells")} (framed in amber). ` +
        (response.add_exact ? "Add a given, fewest solutions left first:" : "Add a given (counts of the first solutions only, so at least that many are left):");
      list.append(choices("add", offered, (entry) => `${symbol(entry.digit)} at ${where(entry.cell)}: ${plural(entry.count, "solution", "solutions")} left`,
        (entry) => hooks.setGiven(indexOf(entry.cell), entry.digit)));
      if (response.add.length > offered.length) list.append(el("p", { class: "hint" }, `${groupDigits(response.add.length - offered.length)} more additions leave more solutions.`));
    } else if (Array.isArray(response.redundant)) {
      for (const cell of response.redundant) marks.redundant.add(indexOf(cell));
      summary.textContent = response.minimal ? "One solution, and the givens are minimal: each one is needed." :
        `One solution. ${plural(response.redundant.length, "given", "givens")} can go, each on its own (framed in blue); remove one and the Setter asks again:`;
      if (!response.minimal) {
        list.append(choices("redundant", response.redundant, (cell) => `Remove ${symbol(view.givens[indexOf(cell)])} at ${where(cell)}`,
          (cell) => hooks.setGiven(indexOf(cell), 0)));
      }
    } else if (Array.isArray(response.conflict)) {
      for (const cell of response.conflict) marks.conflict.add(indexOf(cell));
      summary.textContent = response.conflict.length ?
        `No solution. These ${plural(response.conflict.length, "given clashes", "givens clash")} (tinted red): together they have no solution, and without any one of them the rest has one.` :
        "No solution, whatever the givens: the rules alone (regions, diagonals, cages) cannot be met.";
      if (response.conflict.length) {
        list.append(el("ol", { id: `${ctx.id}-setter-conflict`, class: "setter-choices" },
          ...response.conflict.map((cell) => el("li", {}, `${symbol(view.givens[indexOf(cell)])} at ${where(cell)}`))));
      }
    } else {
      summary.textContent = "The Setter was stopped before it could say more.";
    }
    if (response.note) list.append(el("p", { class: "hint" }, `Note: ${response.note}.`));
    view.setter = marks;
    panel.hidden = false;
  }

  /** The answer in words, for the page's result line. */
  function describe(response) {
    if (Array.isArray(response.add)) return `${response.complete ? "" : "More than "}${plural(response.count, "solution", "solutions")}: see the Setter for the givens to add.`;
    if (Array.isArray(response.redundant)) return response.minimal ? "Unique solution; every given is needed." : `Unique solution; ${plural(response.redundant.length, "given", "givens")} can go.`;
    if (Array.isArray(response.conflict)) return "No solution: the Setter names the givens that clash.";
    return `${plural(response.count, "solution", "solutions")} counted.`;
  }

  return { button, panel, show, clear, describe };
}

/** The Setter's marks over a drawn grid (view.setter; cellBox(row, col) -> [x, y, size]). */
export function drawSetterMarks(d, view, cellBox) {
  const marks = view.setter;
  if (!marks) return;
  const n = view.size;
  const box = (index) => cellBox(Math.floor(index / n), index % n);
  for (const index of marks.conflict) {
    const [x, y, size] = box(index);
    d.rect(x + 1, y + 1, size - 2, size - 2, { fill: MARKS.clash });
    d.rect(x + 2, y + 2, size - 4, size - 4, { stroke: MARKS.clashInk, width: 2.5 });
    d.text(x + size / 2, y + size / 2 + 1, view.symbols[view.givens[index] - 1], { size: size * 0.55, fill: MARKS.clashInk, bold: true });
  }
  for (const index of marks.differ) {
    const [x, y, size] = box(index);
    d.rect(x + 3, y + 3, size - 6, size - 6, { stroke: DIFFER_INK, width: 2 });
  }
  for (const index of marks.redundant) {
    const [x, y, size] = box(index);
    d.rect(x + 3, y + 3, size - 6, size - 6, { stroke: REDUNDANT_INK, width: 2, dash: [4, 3] });
  }
  for (const index of [...marks.best, ...(marks.focus === null ? [] : [marks.focus])]) {
    const [x, y, size] = box(index);
    d.rect(x + 1.5, y + 1.5, size - 3, size - 3, { stroke: BEST_INK, width: 3 });
  }
}
