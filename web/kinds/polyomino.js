// Polyomino tiling editor. Controls (ids): #polyomino-preset (select) + #polyomino-apply-preset,
// #polyomino-rows, #polyomino-cols (bounded by Python's limits), #polyomino-fill,
// #polyomino-piece-<NAME> (toggle buttons, aria-pressed; one per piece of Python's library),
// #polyomino-reflections (checkbox), #polyomino-symmetry ("all" | "distinct"),
// #polyomino-limit, #polyomino-seed, #polyomino-solve, #polyomino-random, #polyomino-count.
// Click or drag on #polyomino-canvas to toggle cells between "." (cover) and "#" (not board).
// Share fragment: #polyomino:<board>:<pieces>[:<options>] (web/kinds/polyomino_link.js).
// Imported requests may use any pieces Python reads: sets, names, counts, pieces with cells.
import { el, labelled, paletteColour } from "../ui.js";
import { decodeTiling, encodeTiling } from "./polyomino_link.js";
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
  // pieces: library names used once (the picker's buttons); extras: the other entries of an
  // imported request, as Python reads them ({name, count} of a library piece, or {name, cells,
  // count} of a piece of its own).
  const state = { board: [...PRESETS["6x10"].board], pieces: new Set(PRESETS["6x10"].pieces), extras: [], reflections: true, symmetry: "distinct" };
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
      const extra = state.extras.findIndex((piece) => piece.name === name && !piece.cells);
      if (extra >= 0) state.extras.splice(extra, 1);
      else if (state.pieces.has(name)) state.pieces.delete(name);
      else state.pieces.add(name);
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
      const used = state.pieces.has(name) || state.extras.some((piece) => piece.name === name && !piece.cells);
      button.setAttribute("aria-pressed", String(used));
      button.style.background = used ? view.colourOf(name) : "";
    }
    reflections.checked = state.reflections;
    symmetry.input.value = state.symmetry;
    let area = [...state.pieces].reduce((sum, name) => sum + facts.pieces[name].area, 0);
    let count = state.pieces.size;
    for (const piece of state.extras) {
      area += (piece.cells ? piece.cells.length : facts.pieces[piece.name].area) * (piece.count ?? 1);
      count += piece.count ?? 1;
    }
    const cells = state.board.join("").split("").filter((ch) => ch === ".").length;
    const own = state.extras.filter((piece) => piece.cells).map((piece) => piece.name);
    pieceInfo.textContent = `${count} pieces covering ${area} cells; the board has ${cells} cells to cover.` +
      (own.length ? ` Pieces of the request's own: ${own.join(", ")}.` : "");
    view.board = state.board;
  }

  function setBoard(board) {
    state.board = board;
    syncControls();
  }

  applyPreset.addEventListener("click", () => {
    const chosen = PRESETS[preset.input.value];
    state.pieces = new Set(chosen.pieces);
    state.extras = [];
    setBoard([...chosen.board]);
    ctx.changed();
  });
  fillButton.addEventListener("click", () => { setBoard(state.board.map((line) => ".".repeat(line.length))); ctx.changed(); });
  reflections.addEventListener("change", () => { state.reflections = reflections.checked; ctx.changed(); });
  symmetry.input.addEventListener("change", () => { state.symmetry = symmetry.input.value; ctx.changed(); });

  function puzzle() {
    const extras = state.extras.map((piece) => ({ ...piece, ...(piece.cells ? { cells: piece.cells.map((cell) => [...cell]) } : {}) }));
    return { board: [...state.board], pieces: [...library.filter((name) => state.pieces.has(name)), ...extras], reflections: state.reflections };
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
    // Each cell holds its piece, placed as it is (the same piece placed elsewhere differs).
    solutionCells(solution) {
      const cells = new Map();
      for (const { piece, cells: placed } of solution) {
        const where = `${piece}@${placed.map((cell) => cell.join(".")).sort().join(";")}`;
        for (const [r, c] of placed) cells.set(`${r},${c}`, where);
      }
      return cells;
    },
    clearSolution() { view.solution = null; },
    encode: () => encodeTiling({ ...puzzle(), symmetry: state.symmetry }, facts.sets),
    decode(text) { load(decodeTiling(text)); },
    exportRequest: () => ({ mode: "solve", puzzle: puzzle(), symmetry: state.symmetry }),
    importRequest(data) { load({ ...data.puzzle, symmetry: data.symmetry }); },
  };

  function load(data) {
    if (!Array.isArray(data.board) || !data.board.every((line) => typeof line === "string" && /^[.#]*$/.test(line))) {
      throw new Error("board must be a list of text rows of '.' and '#'");
    }
    const { names, extras } = readPieces(data.pieces || [], facts);
    const width = Math.max(...data.board.map((line) => line.length));
    size.check(data.board.length, width);
    state.pieces = names;
    state.extras = extras;
    state.reflections = data.reflections !== false;
    // A request without "symmetry" means Python's default, the first of facts.symmetries.
    state.symmetry = facts.symmetries.includes(data.symmetry) ? data.symmetry : facts.symmetries[0];
    setBoard(data.board.map((line) => line.padEnd(width, "#")));
    view.solution = null;
  }
}

// The pieces of a request as Python reads them (see pysolver/kinds/polyomino.py): set names and
// library names used once go to the picker; counts and pieces with their own cells are kept as
// entries. A name given twice adds up its counts, as in Python. Throws an Error saying why.
function readPieces(entries, facts) {
  const uses = new Map(); // name -> {name, cells?, count}
  const add = (name, cells, count) => {
    const known = uses.get(name);
    if (known) known.count += count;
    else uses.set(name, cells ? { name, cells, count } : { name, count });
  };
  entries.forEach((entry, index) => {
    const where = `piece ${index + 1}`;
    if (typeof entry === "string") {
      if (Object.hasOwn(facts.sets, entry)) for (const name of facts.sets[entry]) add(name, null, 1);
      else if (Object.hasOwn(facts.pieces, entry)) add(entry, null, 1);
      else throw new Error(`${where}, ${JSON.stringify(entry)}, is neither a piece nor a set of the library; give its cells as {"name", "cells"}`);
      return;
    }
    if (!entry || typeof entry !== "object" || typeof entry.name !== "string" || !entry.name) {
      throw new Error(`${where} must be a name or {"name", "cells", "count"}`);
    }
    const count = entry.count === undefined ? 1 : Number(entry.count);
    if (!Number.isInteger(count) || count < 1) throw new Error(`${where} (${entry.name}) has count ${JSON.stringify(entry.count)}; use a whole number from 1`);
    let cells = null;
    if (entry.cells !== undefined) {
      const ok = Array.isArray(entry.cells) && entry.cells.length > 0 &&
        entry.cells.every((cell) => Array.isArray(cell) && cell.length === 2 && cell.every((v) => Number.isInteger(v) && v >= 0));
      if (!ok) throw new Error(`${where} (${entry.name}) needs cells as a list of [row, column] pairs`);
      cells = entry.cells.map(([r, c]) => [r, c]);
    } else if (!Object.hasOwn(facts.pieces, entry.name)) {
      throw new Error(`${where} (${entry.name}) is not in the library, so it needs its cells`);
    }
    add(entry.name, cells, count);
  });
  const names = new Set();
  const extras = [];
  for (const piece of uses.values()) {
    if (!piece.cells && piece.count === 1) names.add(piece.name);
    else extras.push(piece.count === 1 ? { name: piece.name, cells: piece.cells } : piece);
  }
  return { names, extras };
}
