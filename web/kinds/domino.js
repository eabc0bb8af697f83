// Domino tilings. Controls (ids): #domino-rows, #domino-cols, #domino-clear (unblock all),
// #domino-count (exact count, shown whole with digit grouping in #domino-result; data-count
// holds the plain digits), #domino-seed, #domino-random (draw a random tiling).
// Click or drag on #domino-canvas to block or unblock cells.
// Share fragment: #domino:<rows>x<cols>[:<r>.<c>,...] (the blocked cells).
import { clampInt, el, groupDigits, labelled } from "../ui.js";
import { boardPoint } from "../draw.js";
import * as render from "../render/domino.js";

export function createDomino(ctx) {
  const view = { rows: 8, cols: 8, blocked: new Set(), tiling: null };
  const rows = labelled("Rows", { id: "domino-rows", type: "number", min: "1", max: "1000", value: "8" });
  const cols = labelled("Columns", { id: "domino-cols", type: "number", min: "1", max: "1000", value: "8" });
  const clearButton = el("button", { id: "domino-clear", type: "button" }, "Unblock all");
  const seed = labelled("Seed", { id: "domino-seed", type: "number", min: "0", placeholder: "random" });
  const countButton = el("button", { id: "domino-count", type: "button", class: "solve-action primary" }, "Count tilings");
  const randomButton = el("button", { id: "domino-random", type: "button", class: "solve-action" }, "Draw a random tiling");

  const resize = () => {
    view.rows = clampInt(rows.input.value, 1, 1000, view.rows);
    view.cols = clampInt(cols.input.value, 1, 1000, view.cols);
    rows.input.value = String(view.rows);
    cols.input.value = String(view.cols);
    ctx.changed();
  };
  rows.input.addEventListener("change", resize);
  cols.input.addEventListener("change", resize);
  clearButton.addEventListener("click", () => { view.blocked.clear(); ctx.changed(); });

  const blockedList = () => [...view.blocked].map((key) => key.split(",").map(Number))
    .filter(([r, c]) => r < view.rows && c < view.cols).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const puzzle = () => ({ rows: view.rows, cols: view.cols, blocked: blockedList() });
  countButton.addEventListener("click", () => ctx.run({ kind: "domino", mode: "count", puzzle: puzzle() }));
  randomButton.addEventListener("click", () => {
    const s = seed.input.value.trim();
    ctx.run({ kind: "domino", mode: "random", limit: 1, seed: s === "" ? Math.floor(Math.random() * 2 ** 31) : clampInt(s, 0, 2 ** 31, 0), puzzle: puzzle() });
  });

  function load(data) {
    const r = Number(data.rows);
    const c = Number(data.cols);
    if (!Number.isInteger(r) || !Number.isInteger(c) || r < 1 || c < 1 || r > 1000 || c > 1000) throw new Error("rows and cols must be whole numbers from 1 to 1000");
    view.rows = r;
    view.cols = c;
    view.blocked = new Set((data.blocked || []).map(([br, bc]) => `${br},${bc}`));
    view.tiling = null;
    rows.input.value = String(r);
    cols.input.value = String(c);
  }

  return {
    id: "domino",
    title: "Dominoes",
    engines: ["profile_dp", "formula"],
    controls: el("div", { class: "controls" },
      el("div", { class: "row" }, rows.wrap, cols.wrap, clearButton),
      el("p", { class: "hint" }, "Click or drag on the board to block cells."),
      el("div", { class: "row" }, seed.wrap)),
    actions: el("div", { class: "buttons" }, countButton, randomButton),
    attachCanvas(canvas) {
      let paintBlocked = null;
      const paint = (event) => {
        const [x, y] = boardPoint(canvas, event);
        const hit = render.cellAt(view, x, y);
        if (!hit) return;
        const key = hit.join(",");
        if (paintBlocked === null) paintBlocked = !view.blocked.has(key);
        if (view.blocked.has(key) === paintBlocked) return;
        if (paintBlocked) view.blocked.add(key); else view.blocked.delete(key);
        ctx.changed();
      };
      canvas.addEventListener("pointerdown", (event) => { paintBlocked = null; canvas.setPointerCapture?.(event.pointerId); paint(event); });
      canvas.addEventListener("pointermove", (event) => { if (event.buttons & 1 && paintBlocked !== null) paint(event); });
      canvas.addEventListener("pointerup", () => { paintBlocked = null; });
    },
    draw: (d) => render.draw(d, view),
    describe(response) {
      const digits = String(response.count);
      if (response.mode === "count") {
        const exact = response.complete ? "" : " (stopped early)";
        return `${groupDigits(response.count)} tilings${exact}${digits.length > 12 ? ` (${digits.length} digits)` : ""}`;
      }
      if (response.count === 0) return "No tiling exists.";
      const total = response.total === undefined ? "" : `; the board has ${groupDigits(response.total)} tilings in all`;
      return `A random tiling (seed ${response.seed})${total}.`;
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
        p.board.forEach((line, r) => [...line].forEach((ch, c) => { if (ch === "#") blocked.push([r, c]); }));
        load({ rows: p.board.length, cols: Math.max(...p.board.map((line) => line.length)), blocked });
      } else {
        load(p);
      }
    },
  };
}
