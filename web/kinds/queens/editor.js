// N-queens editor. Controls (ids): #queens-n (the board's side, bounded by Python's max_n),
// #queens-clear (take every given queen off), #queens-solve (solve, limit 2: also says whether
// the given queens leave one solution), #queens-count, #queens-seed + #queens-random (a random
// solution). Click a cell of #queens-canvas to give a queen there or take it off (drag to do
// several), or move the cursor with the arrows and toggle with Space or Enter. Given queens
// that attack each other are marked in red (queenClashes) and #queens-clashes says how many;
// Python refuses such a puzzle. Share fragment: #queens:<n>[:<r>.<c>,...] (the given queens).
import { clampInt, el, labelled } from "../../ui/ui.js";
import { countWords, foundWords, seedField, toggleCells, uniquenessWords } from "../../ui/widgets.js";

const EXAMPLE = { n: 8, queens: [] };

// Whether queens on (r1, c1) and (r2, c2) attack each other (the same cell counts).
const attacks = ([r1, c1], [r2, c2]) => r1 === r2 || c1 === c2 || r1 + c1 === r2 + c2 || r1 - c1 === r2 - c2;

/** The given queens that attack another one: a Set of "r,c" keys. */
export function queenClashes(queens) {
  const clashes = new Set();
  queens.forEach((queen, index) => {
    for (const other of queens.slice(index + 1)) {
      if (!attacks(queen, other)) continue;
      clashes.add(queen.join(","));
      clashes.add(other.join(","));
    }
  });
  return clashes;
}

/** Share-link text of a board: "8", or "8:0.3,4.4" with the given queens (sorted by row). */
export function queensLink(n, queens) {
  return queens.length ? `${n}:${queens.map(([r, c]) => `${r}.${c}`).join(",")}` : String(n);
}

/**
 * The board of share-link text: {n, queens: [[r, c], ...] sorted by row}. Throws an Error
 * saying what is wrong: not the link's shape, n outside 1..maxN, a queen off the board or twice.
 */
const QUEENS_LINK_FORM = "it should be the board side, then any given queens, such as 8 or 8:0.3,4.4 (row.column, counting from 0)";

export function parseQueensLink(text, maxN) {
  const match = /^(\d+)(?::(\d+\.\d+(?:,\d+\.\d+)*))?$/.exec(text);
  if (!match) throw new Error(QUEENS_LINK_FORM);
  const n = Number(match[1]);
  if (n < 1 || n > maxN) throw new Error(`the board side must be from 1 to ${maxN} (got ${n})`);
  const queens = match[2] ? match[2].split(",").map((part) => part.split(".").map(Number)) : [];
  const seen = new Set();
  for (const [r, c] of queens) {
    // Links count from 0; a person from 1.
    if (r >= n || c >= n) throw new Error(`the queen on row ${r + 1}, column ${c + 1} is off the ${n}x${n} board`);
    if (seen.has(`${r},${c}`)) throw new Error(`row ${r + 1}, column ${c + 1} holds two queens`);
    seen.add(`${r},${c}`);
  }
  return { n, queens: sortQueens(queens) };
}

const sortQueens = (queens) => [...queens].sort((a, b) => a[0] - b[0] || a[1] - b[1]);

/** @param {import("../contract.js").KindContext} ctx */
export function createQueens(ctx) {
  const maxN = ctx.facts.limits.max_n;
  const view = { n: EXAMPLE.n, queens: [], solution: null, clashes: new Set(), cursor: null, cursorShown: false };
  const given = new Set(); // "r,c" of the given queens
  const side = labelled("Board side n", { id: "queens-n", type: "number", min: "1", max: String(maxN), value: String(view.n) });
  const clearButton = el("button", { id: "queens-clear", type: "button" }, "Clear queens");
  const seed = seedField(ctx.id);
  const solveButton = el("button", { id: "queens-solve", type: "button", class: "solve-action primary" }, "Solve");
  const countButton = el("button", { id: "queens-count", type: "button", class: "solve-action", "data-mode": "count" }, "Count");
  const randomButton = el("button", { id: "queens-random", type: "button", class: "solve-action", "data-mode": "random" }, "Random solution");
  const clashNote = el("p", { id: "queens-clashes", class: "hint clash-note", "aria-live": "polite" });

  function sync() {
    view.queens = sortQueens([...given].map((key) => key.split(",").map(Number)));
    view.clashes = queenClashes(view.queens);
    clashNote.textContent = view.clashes.size
      ? `${view.clashes.size} given queens attack another one (marked in red): take some off before solving.` : "";
    side.input.value = String(view.n);
  }
  function load({ n, queens = [] }) {
    if (!Number.isInteger(n) || n < 1 || n > maxN) throw new Error(`n must be a whole number from 1 to ${maxN} (got ${n})`);
    if (!Array.isArray(queens)) throw new Error("queens must be a list of [row, col]");
    given.clear();
    for (const queen of queens) {
      const [r, c] = Array.isArray(queen) ? queen.map(Number) : [];
      if (!(Number.isInteger(r) && Number.isInteger(c) && r >= 0 && c >= 0 && r < n && c < n)) {
        throw new Error(`bad queen ${JSON.stringify(queen)} for a ${n}x${n} board`);
      }
      given.add(`${r},${c}`);
    }
    Object.assign(view, { n, solution: null });
    sync();
  }
  load(EXAMPLE);

  side.input.addEventListener("change", () => {
    const n = clampInt(side.input.value, 1, maxN, view.n);
    load({ n, queens: view.queens.filter(([r, c]) => r < n && c < n) });
    ctx.changed();
  });
  clearButton.addEventListener("click", () => { given.clear(); sync(); ctx.changed(); });

  const puzzle = () => ({ n: view.n, queens: view.queens.map((queen) => [...queen]) });
  solveButton.addEventListener("click", () => ctx.run({ kind: ctx.id, mode: "solve", limit: 2, puzzle: puzzle() }));
  countButton.addEventListener("click", () => ctx.run({ kind: ctx.id, mode: "count", puzzle: puzzle() }));
  randomButton.addEventListener("click", () => {
    ctx.run({ kind: ctx.id, mode: "random", limit: 1, seed: seed.value(), puzzle: puzzle() });
  });

  return {
    view,
    controls: el("div", { class: "controls" },
      el("div", { class: "row" }, side.wrap, clearButton),
      el("p", { class: "hint" }, "Click a cell to give a queen there or take it off (drag for several), " +
        "or move with the arrows and toggle with Space."),
      el("div", { class: "row" }, seed.wrap)),
    pad: el("div", { class: "pad-column" }, clashNote),
    actions: el("div", { class: "buttons" }, solveButton, countButton, randomButton),
    attachCanvas(canvas) {
      toggleCells(canvas, {
        view,
        size: () => [view.n, view.n],
        cellAt: ctx.cellAt,
        isOn: (cell) => given.has(cell.join(",")),
        setOn: (cell, on) => {
          if (on) given.add(cell.join(",")); else given.delete(cell.join(","));
          sync();
        },
      }, ctx.changed, ctx.redraw);
    },
    describe(response) {
      if (response.mode === "count") return countWords(response, "solution", "solutions");
      if (response.mode === "random") return foundWords(response, "random solution", "random solutions");
      return uniquenessWords(response);
    },
    setSolution(solution) { view.solution = solution || null; },
    // Each cell holding a queen: the page marks the cells where two solutions differ.
    solutionCells: (solution) => new Map(solution.map(([r, c]) => [`${r},${c}`, "queen"])),
    clearSolution() { view.solution = null; },
    encode: () => queensLink(view.n, view.queens),
    decode(text) { load(parseQueensLink(text, maxN)); },
    exportRequest: () => ({ mode: "solve", limit: 2, puzzle: puzzle() }),
    heatmapLabel: () => "queens",
    importRequest(data) { load({ n: Number(data.puzzle?.n), queens: data.puzzle?.queens ?? [] }); },
  };
}
