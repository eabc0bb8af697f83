// Polyomino tiling editor. Controls (ids): #polyomino-preset (select) + #polyomino-apply-preset,
// #polyomino-rows, #polyomino-cols (bounded by Python's limits), #polyomino-fill,
// #polyomino-piece-<NAME> (toggle buttons, aria-pressed; one per piece of Python's library),
// #polyomino-reflections (checkbox), #polyomino-symmetry ("all" | "distinct"),
// #polyomino-limit, #polyomino-seed, #polyomino-solve, #polyomino-random, #polyomino-count.
// Click or drag on #polyomino-canvas to toggle cells between "." (cover) and "#" (not board).
// Share fragment: #polyomino:<base64url of {"board", "pieces", "reflections", "symmetry"}>.
import { el, fromBase64Url, labelled, paletteColour, toBase64Url } from "../ui.js";
import { countWords, foundWords, limitField, paintCells, seedField, sizeFields } from "../widgets.js";

const filled = (rows, cols) => Array.from({ length: rows }, () => ".".repeat(cols));

// Boards people start from; the pieces are named from Python's library and sets.
function presets(sets) {
  const pentominoes = sets.pentominoes;
  return {
    "scott": { label: "8x8, 12 pentominoes + 2x2 square", board: filled(8, 8), pieces: [...pentominoes, "O4"] },
    "6x10": { label: "6x10, 12 pentominoes", board: filled(6, 10), pieces: pentominoes },
    "hole": { label: "8x8 with a 2x2 hole in the centre, 12 pentominoes",
      board: filled(8, 8).map((line, r) => (r === 3 || r === 4 ? "...##..." : line)), pieces: pentominoes },
    "3x20": { label: "3x20, 12 pentominoes (quick)", board: filled(3, 20), pieces: pentominoes },
    "5x12": { label: "5x12, 12 pentominoes", board: filled(5, 12), pieces: pentominoes },
  };
}

/** @param {import("./index.js").KindContext} ctx */
export function createPolyomino(ctx) {
  const { facts } = ctx;
  const library = Object.keys(facts.pieces); // Python's library, in its order
  const PRESETS = presets(facts.sets);
  const state = { board: [...PRESETS["6x10"].board], pieces: new Set(PRESETS["6x10"].pieces), reflections: true, symmetry: "distinct" };
  const view = { board: state.board, solution: null, colourOf: (piece) => paletteColour(Math.max(0, library.indexOf(piece)), library.length) };

  const preset = labelled("Preset", { tag: "select", id: "polyomino-preset" });
  for (const [key, value] of Object.entries(PRESETS)) preset.input.append(el("option", { value: key, selected: key === "6x10" }, value.label));
  const applyPreset = el("button", { id: "polyomino-apply-preset", type: "button" }, "Use preset");
  const size = sizeFields(ctx.id, facts.limits, { rows: 6, cols: 10 }, (rows, cols) => {
    setBoard(Array.from({ length: rows }, (_, i) => (state.board[i] || "").padEnd(cols, ".").slice(0, cols)));
    ctx.changed();
  });
  const fillButton = el("button", { id: "polyomino-fill", type: "button" }, "Fill board");
  const pieceButtons = new Map();
  const picker = el("div", { class: "piece-picker", role: "group", "aria-label": "Pieces" });
  for (const name of library) {
    const cells = facts.pieces[name].area;
    const button = el("button", { id: `polyomino-piece-${name}`, type: "button", class: "piece", "aria-pressed": "false",
      title: `${name}: ${cells} cell${cells === 1 ? "" : "s"}` }, name);
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
  const limit = limitField(ctx.id, 1);
  const seed = seedField(ctx.id);
  const solveButton = el("button", { id: "polyomino-solve", type: "button", class: "solve-action primary" }, "Solve");
  const randomButton = el("button", { id: "polyomino-random", type: "button", class: "solve-action" }, "Random");
  const countButton = el("button", { id: "polyomino-count", type: "button", class: "solve-action" }, "Count");

  function syncControls() {
    size.show(state.board.length, state.board[0]?.length || 0);
    for (const [name, button] of pieceButtons) {
      button.setAttribute("aria-pressed", String(state.pieces.has(name)));
      button.style.background = state.pieces.has(name) ? view.colourOf(name) : "";
    }
    reflections.checked = state.reflections;
    symmetry.input.value = state.symmetry;
    const area = [...state.pieces].reduce((sum, name) => sum + facts.pieces[name].area, 0);
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
  fillButton.addEventListener("click", () => { setBoard(state.board.map((line) => ".".repeat(line.length))); ctx.changed(); });
  reflections.addEventListener("change", () => { state.reflections = reflections.checked; ctx.changed(); });
  symmetry.input.addEventListener("change", () => { state.symmetry = symmetry.input.value; ctx.changed(); });

  function puzzle() {
    return { board: [...state.board], pieces: library.filter((name) => state.pieces.has(name)), reflections: state.reflections };
  }
  function request(mode) {
    const req = { kind: ctx.id, mode, puzzle: puzzle() };
    if (mode === "count") req.symmetry = state.symmetry;
    else req.limit = limit.value();
    if (mode === "random") req.seed = seed.value();
    return req;
  }
  solveButton.addEventListener("click", () => ctx.run(request("solve")));
  randomButton.addEventListener("click", () => ctx.run(request("random")));
  countButton.addEventListener("click", () => ctx.run(request("count")));

  syncControls();
  return {
    view,
    controls: el("div", { class: "controls" },
      el("div", { class: "row" }, preset.wrap, applyPreset),
      el("div", { class: "row" }, size.rows.wrap, size.cols.wrap, fillButton),
      el("p", { class: "hint" }, "Click or drag on the board to add or remove cells."),
      el("div", { class: "field-title" }, "Pieces"), picker, pieceInfo,
      el("label", { class: "field", for: "polyomino-reflections" }, reflections, " reflections allowed"),
      el("div", { class: "row" }, symmetry.wrap),
      el("div", { class: "row" }, limit.wrap, seed.wrap)),
    actions: el("div", { class: "buttons" }, solveButton, randomButton, countButton),
    attachCanvas(canvas) {
      paintCells(canvas, {
        cellAt: ctx.cellAt,
        isOn: ([r, c]) => state.board[r][c] === ".",
        setOn: ([r, c], on) => {
          const mark = on ? "." : "#";
          setBoard(state.board.map((line, i) => (i === r ? line.slice(0, c) + mark + line.slice(c + 1) : line)));
        },
      }, ctx.changed);
    },
    describe(response) {
      if (response.mode !== "count") return foundWords(response, "tiling", "tilings");
      const distinct = (response.symmetry || state.symmetry) === "distinct";
      return distinct ? countWords(response, "distinct tiling", "distinct tilings") : countWords(response, "tiling", "tilings");
    },
    setSolution(solution) { view.solution = solution || null; },
    clearSolution() { view.solution = null; },
    encode: () => toBase64Url(JSON.stringify({ board: state.board, pieces: [...state.pieces], reflections: state.reflections, symmetry: state.symmetry })),
    decode(text) { load(JSON.parse(fromBase64Url(text))); },
    exportRequest: () => ({ mode: "solve", puzzle: puzzle(), symmetry: state.symmetry }),
    // A trace follows one search tree, so it covers all tilings (no symmetry reduction).
    traceRequest: () => ({ mode: "trace", puzzle: puzzle(), symmetry: "all" }),
    heatmapLabel: (name) => `piece ${name}`,
    importRequest(data) { load({ ...data.puzzle, symmetry: data.symmetry }); },
  };

  function load(data) {
    if (!Array.isArray(data.board) || !data.board.every((line) => typeof line === "string" && /^[.#]*$/.test(line))) {
      throw new Error("board must be a list of text rows of '.' and '#'");
    }
    const names = [];
    for (const piece of data.pieces || []) {
      if (Object.hasOwn(facts.sets, piece)) names.push(...facts.sets[piece]);
      else if (Object.hasOwn(facts.pieces, piece)) names.push(piece);
      else throw new Error(`the editor does not know the piece ${JSON.stringify(piece)}`);
    }
    const width = Math.max(...data.board.map((line) => line.length));
    size.check(data.board.length, width);
    state.pieces = new Set(names);
    state.reflections = data.reflections !== false;
    if (facts.symmetries.includes(data.symmetry)) state.symmetry = data.symmetry;
    setBoard(data.board.map((line) => line.padEnd(width, "#")));
    view.solution = null;
  }
}
