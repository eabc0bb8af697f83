// Domino tilings. Controls (ids): #domino-rows, #domino-cols (bounded by Python's limits),
// #domino-clear (unblock all), #domino-count (exact count, shown whole with digit grouping in
// #domino-result; data-count holds the plain digits), #domino-seed, #domino-random (draw a
// random tiling). Click or drag on #domino-canvas to block or unblock cells, or move its cursor
// with the arrows and block or unblock with Space or Enter.
// Share fragment: #domino:<rows>x<cols>[:<r>.<c>,...] (the blocked cells).
import { el } from "../ui.js";
import { exactNumber } from "../numbers.js";
import { countWords, seedField, sizeFields, toggleCells } from "../widgets.js";

/** @param {import("./index.js").KindContext} ctx */
export function createDomino(ctx) {
  const view = { rows: 8, cols: 8, blocked: new Set(), tiling: null, cursor: null, cursorShown: false };
  const size = sizeFields(ctx.id, ctx.facts.limits, view, (rows, cols) => {
    Object.assign(view, { rows, cols });
    ctx.changed();
  });
  const clearButton = el("button", { id: "domino-clear", type: "button" }, "Unblock all");
  const seed = seedField(ctx.id);
  const countButton = el("button", { id: "domino-count", type: "button", class: "solve-action primary" }, "Count tilings");
  const randomButton = el("button", { id: "domino-random", type: "button", class: "solve-action" }, "Draw a random tiling");
  clearButton.addEventListener("click", () => { view.blocked.clear(); ctx.changed(); });

  const blockedList = () => [...view.blocked].map((key) => key.split(",").map(Number))
    .filter(([r, c]) => r < view.rows && c < view.cols).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const puzzle = () => ({ rows: view.rows, cols: view.cols, blocked: blockedList() });
  countButton.addEventListener("click", () => ctx.run({ kind: ctx.id, mode: "count", puzzle: puzzle() }));
  randomButton.addEventListener("click", () => {
    ctx.run({ kind: ctx.id, mode: "random", limit: 1, seed: seed.value(), puzzle: puzzle() });
  });

  function load(data) {
    const rows = Number(data.rows);
    const cols = Number(data.cols);
    size.check(rows, cols);
    Object.assign(view, { rows, cols, tiling: null });
    view.blocked = new Set((data.blocked || []).map(([r, c]) => `${r},${c}`));
    size.show(rows, cols);
  }

  return {
    view,
    controls: el("div", { class: "controls" },
      el("div", { class: "row" }, size.rows.wrap, size.cols.wrap, clearButton),
      el("p", { class: "hint" }, "Click or drag on the board to block cells, or move with the arrows and toggle with Space."),
      el("div", { class: "row" }, seed.wrap)),
    actions: el("div", { class: "buttons" }, countButton, randomButton),
    attachCanvas(canvas) {
      toggleCells(canvas, {
        view,
        size: () => [view.rows, view.cols],
        cellAt: ctx.cellAt,
        isOn: (cell) => view.blocked.has(cell.join(",")),
        setOn: (cell, on) => (on ? view.blocked.add(cell.join(",")) : view.blocked.delete(cell.join(","))),
      }, ctx.changed, ctx.redraw);
    },
    describe(response) {
      if (response.mode === "count") return countWords(response, "tiling", "tilings");
      if (String(response.count) === "0") return "No tiling exists.";
      if (response.total === undefined) return `A random tiling (seed ${response.seed}).`;
      return el("span", {}, `A random tiling (seed ${response.seed}); the board has `, exactNumber(response.total, " tilings in all", "."));
    },
    setSolution(solution) { view.tiling = solution || null; },
    clearSolution() { view.tiling = null; },
    encode: () => `${view.rows}x${view.cols}${view.blocked.size ? `:${blockedList().map(([r, c]) => `${r}.${c}`).join(",")}` : ""}`,
    decode(text) {
      const match = /^(\d+)x(\d+)(?::(.*))?$/.exec(text);
      if (!match) throw new Error("expected <rows>x<cols>[:<r>.<c>,…]");
      const blocked = match[3] ? match[3].split(",").map((part) => part.split(".").map(Number)) : [];
      load({ rows: Number(match[1]), cols: Number(match[2]), blocked });
    },
    exportRequest: () => ({ mode: "count", puzzle: puzzle() }),
    importRequest(data) {
      const p = data.puzzle;
      if (Array.isArray(p.board)) {
        const blocked = [];
        p.board.forEach((line, r) => {
          [...line].forEach((ch, c) => { if (ch === "#") blocked.push([r, c]); });
        });
        load({ rows: p.board.length, cols: Math.max(...p.board.map((line) => line.length)), blocked });
      } else {
        load(p);
      }
    },
  };
}
