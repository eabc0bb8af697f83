// Polyomino tiling editor. Controls (ids): #polyomino-preset (select) + #polyomino-apply-preset,
// #polyomino-rows, #polyomino-cols, #polyomino-fill, #polyomino-piece-<NAME> (toggle buttons,
// aria-pressed), #polyomino-reflections (checkbox), #polyomino-symmetry ("all" | "distinct"),
// #polyomino-limit, #polyomino-seed, #polyomino-solve, #polyomino-random, #polyomino-count.
// Click or drag on #polyomino-canvas to toggle cells between "." (cover) and "#" (not board).
// Share fragment: #polyomino:<base64url of {"board", "pieces", "reflections", "symmetry"}>.
import { clampInt, el, fromBase64Url, groupDigits, labelled, paletteColour, toBase64Url } from "../ui.js";
import { boardPoint } from "../draw.js";
import * as render from "../render/polyomino.js";

const PENTOMINOES = ["F", "I", "L", "N", "P", "T", "U", "V", "W", "X", "Y", "Z"];
const TETROMINOES = ["I4", "O4", "T4", "S4", "L4"];
const ALL_PIECES = [...PENTOMINOES, ...TETROMINOES];

const filled = (rows, cols) => Array.from({ length: rows }, () => ".".repeat(cols));
const PRESETS = {
  "scott": { label: "8x8, 12 pentominoes + 2x2 square", board: filled(8, 8), pieces: [...PENTOMINOES, "O4"] },
  "6x10": { label: "6x10, 12 pentominoes", board: filled(6, 10), pieces: PENTOMINOES },
  "hole": { label: "8x8 with a 2x2 hole in the centre, 12 pentominoes",
    board: filled(8, 8).map((line, r) => (r === 3 || r === 4 ? "...##..." : line)), pieces: PENTOMINOES },
  "3x20": { label: "3x20, 12 pentominoes (quick)", board: filled(3, 20), pieces: PENTOMINOES },
  "5x12": { label: "5x12, 12 pentominoes", board: filled(5, 12), pieces: PENTOMINOES },
};

export function createPolyomino(ctx) {
  const state = { board: [...PRESETS["6x10"].board], pieces: new Set(PRESETS["6x10"].pieces), reflections: true, symmetry: "distinct" };
  const view = { board: state.board, solution: null, colourOf: (piece) => paletteColour(Math.max(0, ALL_PIECES.indexOf(piece)), ALL_PIECES.length) };

  const preset = labelled("Preset", { tag: "select", id: "polyomino-preset" });
  for (const [key, value] of Object.entries(PRESETS)) preset.input.append(el("option", { value: key, selected: key === "6x10" }, value.label));
  const applyPreset = el("button", { id: "polyomino-apply-preset", type: "button" }, "Use preset");
  const rows = labelled("Rows", { id: "polyomino-rows", type: "number", min: "1", max: "30", value: "6" });
  const cols = labelled("Columns", { id: "polyomino-cols", type: "number", min: "1", max: "30", value: "10" });
  const fillButton = el("button", { id: "polyomino-fill", type: "button" }, "Fill board");
  const pieceButtons = new Map();
  const picker = el("div", { class: "piece-picker", role: "group", "aria-label": "Pieces" });
  for (const name of ALL_PIECES) {
    const button = el("button", { id: `polyomino-piece-${name}`, type: "button", class: "piece", "aria-pressed": "false" }, name);
    button.addEventListener("click", () => {
      if (state.pieces.has(name)) state.pieces.delete(name); else state.pieces.add(name);
      syncControls();
      ctx.changed();
    });
    pieceButtons.set(name, button);
    picker.append(button);
  }
  const pieceInfo = el("div", { id: "polyomino-piece-info", class: "hint" });
  const reflections = el("input", { id: "polyomino-reflections", type: "checkbox", checked: true });
  const symmetry = labelled("Count", { tag: "select", id: "polyomino-symmetry" });
  symmetry.input.append(el("option", { value: "all" }, "all tilings"), el("option", { value: "distinct", selected: true }, "distinct up to symmetry"));
  const limit = labelled("Limit", { id: "polyomino-limit", type: "number", min: "1", max: "1000", value: "1" });
  const seed = labelled("Seed", { id: "polyomino-seed", type: "number", min: "0", placeholder: "random" });
  const solveButton = el("button", { id: "polyomino-solve", type: "button", class: "solve-action primary" }, "Solve");
  const randomButton = el("button", { id: "polyomino-random", type: "button", class: "solve-action" }, "Random");
  const countButton = el("button", { id: "polyomino-count", type: "button", class: "solve-action" }, "Count");

  function syncControls() {
    rows.input.value = String(state.board.length);
    cols.input.value = String(state.board[0]?.length || 0);
    for (const [name, button] of pieceButtons) {
      button.setAttribute("aria-pressed", String(state.pieces.has(name)));
      button.style.background = state.pieces.has(name) ? view.colourOf(name) : "";
    }
    reflections.checked = state.reflections;
    symmetry.input.value = state.symmetry;
    const area = [...state.pieces].reduce((s, name) => s + (name.endsWith("4") ? 4 : 5), 0);
    const cells = state.board.join("").split("").filter((ch) => ch === ".").length;
    pieceInfo.textContent = `${state.pieces.size} pieces covering ${area} cells; the board has ${cells} cells to cover.`;
    view.board = state.board;
  }

  function setBoard(board) {
    state.board = board;
    syncControls();
  }

  applyPreset.addEventListener("click", () => {
    const chosen = PRESETS[preset.input.value];
    state.pieces = new Set(chosen.pieces);
    setBoard([...chosen.board]);
    ctx.changed();
  });
  const resize = () => {
    const r = clampInt(rows.input.value, 1, 30, state.board.length);
    const c = clampInt(cols.input.value, 1, 30, state.board[0].length);
    setBoard(Array.from({ length: r }, (_, i) => (state.board[i] || "").padEnd(c, ".").slice(0, c)));
    ctx.changed();
  };
  rows.input.addEventListener("change", resize);
  cols.input.addEventListener("change", resize);
  fillButton.addEventListener("click", () => { setBoard(state.board.map((line) => ".".repeat(line.length))); ctx.changed(); });
  reflections.addEventListener("change", () => { state.reflections = reflections.checked; ctx.changed(); });
  symmetry.input.addEventListener("change", () => { state.symmetry = symmetry.input.value; ctx.changed(); });

  function puzzle() {
    return { board: [...state.board], pieces: ALL_PIECES.filter((name) => state.pieces.has(name)), reflections: state.reflections };
  }
  function request(mode) {
    const req = { kind: "polyomino", mode, puzzle: puzzle() };
    if (mode === "count") req.symmetry = state.symmetry;
    else req.limit = clampInt(limit.input.value, 1, 1000, 1);
    if (mode === "random") {
      const s = seed.input.value.trim();
      req.seed = s === "" ? Math.floor(Math.random() * 2 ** 31) : clampInt(s, 0, 2 ** 31, 0);
    }
    return req;
  }
  solveButton.addEventListener("click", () => ctx.run(request("solve")));
  randomButton.addEventListener("click", () => ctx.run(request("random")));
  countButton.addEventListener("click", () => ctx.run(request("count")));

  syncControls();
  return {
    id: "polyomino",
    title: "Polyomino",
    engines: ["bitset", "dlx"],
    controls: el("div", { class: "controls" },
      el("div", { class: "row" }, preset.wrap, applyPreset),
      el("div", { class: "row" }, rows.wrap, cols.wrap, fillButton),
      el("p", { class: "hint" }, "Click or drag on the board to add or remove cells."),
      el("div", { class: "field-title" }, "Pieces"), picker, pieceInfo,
      el("label", { class: "field", for: "polyomino-reflections" }, reflections, " reflections allowed"),
      el("div", { class: "row" }, symmetry.wrap),
      el("div", { class: "row" }, limit.wrap, seed.wrap)),
    actions: el("div", { class: "buttons" }, solveButton, randomButton, countButton),
    attachCanvas(canvas, redraw) {
      let paintValue = null;
      const paint = (event) => {
        const [x, y] = boardPoint(canvas, event);
        const hit = render.cellAt(view, x, y);
        if (!hit) return;
        const [r, c] = hit;
        const current = state.board[r][c];
        if (paintValue === null) paintValue = current === "." ? "#" : ".";
        if (current === paintValue) return;
        state.board = state.board.map((line, i) => (i === r ? line.slice(0, c) + paintValue + line.slice(c + 1) : line));
        syncControls();
        ctx.changed();
      };
      canvas.addEventListener("pointerdown", (event) => { paintValue = null; canvas.setPointerCapture?.(event.pointerId); paint(event); });
      canvas.addEventListener("pointermove", (event) => { if (event.buttons & 1 && paintValue !== null) paint(event); });
      canvas.addEventListener("pointerup", () => { paintValue = null; });
      void redraw;
    },
    draw: (d) => render.draw(d, view),
    describe(response) {
      const n = response.count;
      const what = response.mode === "count" ? (response.symmetry || state.symmetry) === "distinct" ? " distinct tilings" : " tilings" : n === 1 ? " tiling" : " tilings";
      const tail = response.complete ? "" : response.mode === "count" ? " (stopped early)" : "";
      if (response.mode === "count") return `${groupDigits(n)}${what}${tail}.`;
      if (n === 0) return response.complete ? "No tiling exists." : "No tiling found.";
      return `${groupDigits(n)}${what} found${tail}.`;
    },
    setSolution(solution) { view.solution = solution || null; },
    clearSolution() { view.solution = null; },
    encode: () => toBase64Url(JSON.stringify({ board: state.board, pieces: [...state.pieces], reflections: state.reflections, symmetry: state.symmetry })),
    decode(text) { load(JSON.parse(fromBase64Url(text))); },
    exportRequest: () => ({ mode: "solve", puzzle: puzzle(), symmetry: state.symmetry }),
    importRequest(data) { load({ ...data.puzzle, symmetry: data.symmetry }); },
  };

  function load(data) {
    if (!Array.isArray(data.board) || !data.board.every((line) => typeof line === "string" && /^[.#]*$/.test(line))) {
      throw new Error("board must be a list of text rows of '.' and '#'");
    }
    const names = [];
    for (const piece of data.pieces || []) {
      if (piece === "pentominoes") names.push(...PENTOMINOES);
      else if (piece === "tetrominoes") names.push(...TETROMINOES);
      else if (ALL_PIECES.includes(piece)) names.push(piece);
      else throw new Error(`the editor does not know the piece ${JSON.stringify(piece)}`);
    }
    const width = Math.max(...data.board.map((line) => line.length));
    state.pieces = new Set(names);
    state.reflections = data.reflections !== false;
    if (data.symmetry === "all" || data.symmetry === "distinct") state.symmetry = data.symmetry;
    setBoard(data.board.map((line) => line.padEnd(width, "#")));
    view.solution = null;
  }
}
