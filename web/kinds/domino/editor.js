// Domino tilings. Controls (ids): #domino-rows, #domino-cols (bounded by Python's limits),
// #domino-clear (unblock all), #domino-count (exact count, shown whole with digit grouping in
// #domino-result; data-count holds the plain digits), #domino-seed, #domino-random (draw a
// random tiling; with no engine chosen, Python takes coupling from the past where the profile
// DP cannot go), #domino-aztec-order + #domino-aztec (the Aztec diamond of that order as the
// board). Click or drag on #domino-canvas to block or unblock cells, or move its cursor with the
// arrows and block or unblock with Space or Enter.
// Share fragment: #domino:<rows>x<cols>[:<r>.<c>,...] (the blocked cells), or #domino:aztec<n>.
import { clampInt, el, labelled } from "../../ui/ui.js";
import { exactNumber } from "../../ui/numbers.js";
import { countWords, seedField, sizeFields, toggleCells } from "../../ui/widgets.js";

/** @param {import("../contract.js").KindContext} ctx */
export function createDomino(ctx) {
  const view = { rows: 8, cols: 8, blocked: new Set(), tiling: null, cursor: null, cursorShown: false };
  const size = sizeFields(ctx.id, ctx.facts.limits, view, (rows, cols) => {
    Object.assign(view, { rows, cols });
    aztec = 0;
    ctx.changed();
  });
  const clearButton = el("button", { id: "domino-clear", type: "button" }, "Unblock all");
  const seed = seedField(ctx.id);
  const countButton = el("button", { id: "domino-count", type: "button", class: "solve-action primary", "data-mode": "count" }, "Count tilings");
  const randomButton = el("button", { id: "domino-random", type: "button", class: "solve-action", "data-mode": "random" }, "Draw a random tiling");
  // The Aztec diamond of order n: rows of 2, 4, ..., 2n, 2n, ..., 4, 2 cells, centred. Its
  // random tilings show the arctic circle (frozen corners outside, disorder inside).
  const maxOrder = Math.floor(Math.min(ctx.facts.limits.max_rows, ctx.facts.limits.max_cols) / 2);
  const aztecOrder = labelled("Aztec diamond of order", { id: "domino-aztec-order", type: "number", min: "1", max: String(maxOrder), value: "40" });
  const aztecButton = el("button", { id: "domino-aztec", type: "button" }, "Use as board");
  let aztec = 0; // the order of the Aztec diamond shown, 0 when the board is anything else
  function aztecBoard(order) {
    const side = 2 * order;
    const blocked = [];
    for (let r = 0; r < side; r++) {
      const half = r < order ? r + 1 : side - r; // open cells each side of the centre line
      for (let c = 0; c < side; c++) if (c < order - half || c >= order + half) blocked.push([r, c]);
    }
    return { rows: side, cols: side, blocked };
  }
  aztecButton.addEventListener("click", () => {
    const order = clampInt(aztecOrder.input.value, 1, maxOrder, 40);
    aztecOrder.input.value = String(order);
    load(aztecBoard(order));
    aztec = order;
    ctx.changed();
  });
  clearButton.addEventListener("click", () => { view.blocked.clear(); aztec = 0; ctx.changed(); });

  const blockedList = () => [...view.blocked].map((key) => key.split(",").map(Number))
    .filter(([r, c]) => r < view.rows && c < view.cols).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const puzzle = () => ({ rows: view.rows, cols: view.cols, blocked: blockedList() });
  countButton.addEventListener("click", () => ctx.run({ kind: ctx.id, mode: "count", puzzle: puzzle() }));
  randomButton.addEventListener("click", () => {
    ctx.run({ kind: ctx.id, mode: "random", limit: 1, seed: seed.value(), puzzle: puzzle() });
  });

  function load(data) {
    aztec = 0;
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
      el("div", { class: "row" }, seed.wrap),
      el("div", { class: "row" }, aztecOrder.wrap, aztecButton)),
    actions: el("div", { class: "buttons" }, countButton, randomButton),
    attachCanvas(canvas) {
      toggleCells(canvas, {
        view,
        size: () => [view.rows, view.cols],
        cellAt: ctx.cellAt,
        isOn: (cell) => view.blocked.has(cell.join(",")),
        setOn: (cell, on) => {
          aztec = 0;
          if (on) view.blocked.add(cell.join(",")); else view.blocked.delete(cell.join(","));
        },
      }, ctx.changed, ctx.redraw);
    },
    describe(response) {
      if (response.mode === "count") return countWords(response, "tiling", "tilings");
      if (String(response.count) === "0") return "No tiling exists.";
      if (response.total === undefined) return `A random tiling (seed ${response.seed}).`;
      return el("span", {}, `A random tiling (seed ${response.seed}); the board has `, exactNumber(response.total, " tilings in all", "."));
    },
    // The engine Python picks with none chosen, per button, from its rules (facts
    // "default_rules"). The board classes as Python reads them: a full rectangle once fully
    // blocked border rows and columns are trimmed; beyond the DP when the trimmed board's
    // shorter side is wider than it goes (Python also moves on when the DP's stored counts would
    // be too big: the page learns that from the answer).
    defaultEngines() {
      // The open cells' bounding box (a loop: an Aztec diamond has up to a million cells).
      let [top, bottom, left, right, open] = [Infinity, -1, Infinity, -1, 0];
      if (!view.blocked.size) [top, bottom, left, right, open] = [0, view.rows - 1, 0, view.cols - 1, view.rows * view.cols];
      if (aztec) [top, bottom, left, right, open] = [0, 2 * aztec - 1, 0, 2 * aztec - 1, 2 * aztec * (aztec + 1)];
      const counted = open > 0;
      for (let r = 0; r < view.rows && !counted; r++) {
        for (let c = 0; c < view.cols; c++) {
          if (view.blocked.has(`${r},${c}`)) continue;
          open += 1;
          top = Math.min(top, r); bottom = Math.max(bottom, r); left = Math.min(left, c); right = Math.max(right, c);
        }
      }
      const height = open ? bottom - top + 1 : 0;
      const width = open ? right - left + 1 : 0;
      const boardIs = {
        full_rectangle: open > 0 && open === height * width,
        beyond_dp: Math.min(height, width) > ctx.facts.limits.max_dp_width,
      };
      const engineFor = (mode) => ctx.facts.default_rules.find((rule) => rule.mode === mode && boardIs[rule.board])?.engine ?? ctx.facts.default_engine;
      return [{ mode: "count", what: "counts", engine: engineFor("count") },
        { mode: "random", what: "random tilings", engine: engineFor("random") }];
    },
    setSolution(solution) { view.tiling = solution || null; },
    clearSolution() { view.tiling = null; },
    encode: () => (aztec ? `aztec${aztec}` : `${view.rows}x${view.cols}${view.blocked.size ? `:${blockedList().map(([r, c]) => `${r}.${c}`).join(",")}` : ""}`),
    decode(text) {
      const diamond = /^aztec(\d+)$/.exec(text);
      if (diamond) {
        const order = Number(diamond[1]);
        if (order < 1 || order > maxOrder) throw new Error(`the Aztec diamond's order must be from 1 to ${maxOrder}`);
        load(aztecBoard(order));
        aztec = order;
        return;
      }
      const match = /^(\d+)x(\d+)(?::(.*))?$/.exec(text);
      if (!match) throw new Error("it should be the size, then any blocked cells, such as 8x8 or 8x8:0.0,7.7 (row.column, counting from 0), or an Aztec diamond such as aztec10");
      const [rows, cols] = [Number(match[1]), Number(match[2])];
      const blocked = match[3] ? match[3].split(",").map((part) => {
        if (!/^\d+\.\d+$/.test(part)) throw new Error(`the blocked cell "${part}" is not row.column`);
        const [r, c] = part.split(".").map(Number);
        if (r >= rows || c >= cols) throw new Error(`the blocked cell "${part}" is off the ${rows}x${cols} board (rows and columns count from 0 in links)`);
        return [r, c];
      }) : [];
      load({ rows, cols, blocked });
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
