// Polyomino tiling editor. Controls (ids): #polyomino-preset (select: a preset applies when
// chosen; the menu reads "custom" when the board and pieces match no preset),
// #polyomino-rows, #polyomino-cols (bounded by Python's limits), #polyomino-fill,
// #polyomino-piece-<NAME> (toggle buttons showing each library piece's shape, aria-pressed;
// grouped by Python's sets, #polyomino-set-<SET> switches a whole set),
// #polyomino-custom (the piece maker: #polyomino-custom-grid to draw cells on,
// #polyomino-custom-name, #polyomino-custom-count, #polyomino-custom-add,
// #polyomino-custom-clear, #polyomino-custom-error), #polyomino-custom-piece-<NAME> (a custom
// piece; click to edit it) with #polyomino-custom-remove-<NAME>,
// #polyomino-reflections (checkbox), #polyomino-symmetry ("all" | "distinct"),
// #polyomino-limit, #polyomino-seed, #polyomino-solve, #polyomino-random, #polyomino-count.
// Click or drag on #polyomino-canvas to toggle cells between "." (cover) and "#" (not board);
// or arrows to move its cursor and Space or Enter to toggle. Custom pieces are sent as
// {"name", "cells", "count"}.
// Share fragment: #polyomino:<board>:<pieces>[:<options>] (web/kinds/polyomino/link.js); custom
// pieces ride along as name=r.c;r.c*count.
// Imported requests may use any pieces Python reads: sets, names, counts, pieces with cells.
import { CanvasDrawing, boardPoint } from "../../render/draw.js";
import { clampInt, el, labelled } from "../../ui/ui.js";
import { decodeTiling, encodeTiling } from "./link.js";
import { boardCells, boardRows, isConnected, normalised, readPieces } from "./rules.js";
import { countWords, foundWords, limitField, rovingTabStop, seedField, sizeFields, toggleCells } from "../../ui/widgets.js";
import * as renderer from "./render.js";

const filled = (rows, cols) => Array.from({ length: rows }, () => ".".repeat(cols));
const SVG_NS = "http://www.w3.org/2000/svg";
// The piece maker's grid: room for any piece of up to this many rows and columns.
const MAKER_SIDE = 8;
const keyOf = ([r, c]) => `${r},${c}`;
const cellOf = (key) => key.split(",").map(Number);

// ---------------------------------------------------------------- pure helpers (no DOM)

/** Boards people start from; the pieces are named from Python's library and sets. */
export function presets(sets) {
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

/** The preset key the editor's state is ({board, pieces: Set, custom}), else "custom". */
export function matchingPreset(table, { board, pieces, custom }) {
  if (custom.length) return "custom";
  for (const [key, value] of Object.entries(table)) {
    const sameBoard = value.board.length === board.length && value.board.every((line, i) => line === board[i]);
    const samePieces = value.pieces.length === pieces.size && value.pieces.every((name) => pieces.has(name));
    if (sameBoard && samePieces) return key;
  }
  return "custom";
}

/**
 * The request's pieces: library pieces in the library's order, then custom pieces; a custom
 * piece that is a library piece used more than once is sent as {name, count}.
 */
export function requestPieces({ pieces, custom }, facts) {
  const isLibraryShape = ({ name, cells }) => Object.hasOwn(facts.pieces, name)
    && JSON.stringify(normalised(facts.pieces[name].cells)) === JSON.stringify(normalised(cells));
  return [...Object.keys(facts.pieces).filter((name) => pieces.has(name)),
    ...custom.map((piece) => (isLibraryShape(piece)
      ? { name: piece.name, count: piece.count }
      : { name: piece.name, cells: piece.cells.map((cell) => [...cell]), count: piece.count }))];
}

/** The line under the picker: how many pieces, the area they cover, the board's cells. */
export function pieceSummary({ board, pieces, custom }, facts) {
  const area = [...pieces].reduce((sum, name) => sum + facts.pieces[name].area, 0)
    + custom.reduce((sum, piece) => sum + piece.cells.length * piece.count, 0);
  const count = pieces.size + custom.reduce((sum, piece) => sum + piece.count, 0);
  const cells = boardCells(board).length;
  const tooMany = cells > facts.limits.max_cells ? ` That is more than the solver takes (${facts.limits.max_cells}).` : "";
  return `${count} pieces covering ${area} cells; the board has ${cells} cells to cover.${tooMany}`;
}

/** The first name of CA, CB, ... CZ, C26, ... that no custom or library piece has. */
export function nextFreeName(custom, facts) {
  for (let i = 0; ; i++) {
    const name = i < 26 ? `C${String.fromCharCode(65 + i)}` : `C${i}`;
    if (!custom.some((piece) => piece.name === name) && !Object.hasOwn(facts.pieces, name)) return name;
  }
}

/** The piece maker's piece from its fields ({name, cells, count: text}); throws saying why not. */
export function makerPiece({ name, cells, count }, facts) {
  const trimmed = name.trim();
  if (!trimmed) throw new Error("Give the piece a name.");
  if (Object.hasOwn(facts.pieces, trimmed) || Object.hasOwn(facts.sets, trimmed)) {
    throw new Error(`"${trimmed}" is a name from the library; choose another name.`);
  }
  if (!cells.length) throw new Error("Draw the piece first: click cells of the small grid.");
  if (!isConnected(cells)) throw new Error("The cells must make one piece: each one sharing an edge with another.");
  return { name: trimmed, cells: normalised(cells), count: clampInt(count, 1, facts.limits.max_copies, 1) };
}

/**
 * The editor's state from a request's puzzle (and symmetry), read as Python reads it: library
 * pieces used once switch on pieces of the picker; a piece given with cells, or a library piece
 * used more than once, is a custom piece. No pieces at all is an editor state (nothing picked
 * yet), so it loads although Python would refuse to solve it. Throws a ruleError otherwise.
 */
export function loadedState(data, facts) {
  const board = boardRows(data.board, facts.limits);
  const uses = data.pieces === undefined || (Array.isArray(data.pieces) && !data.pieces.length)
    ? [] : readPieces(data.pieces, facts);
  return {
    board: [...board],
    pieces: new Set(uses.filter(({ cells, count }) => !cells && count === 1).map(({ name }) => name)),
    custom: uses.filter(({ cells, count }) => cells || count !== 1)
      .map(({ name, cells, count }) => ({ name, cells: cells || normalised(facts.pieces[name].cells), count })),
    reflections: data.reflections !== false,
    // A request without "symmetry" means Python's default, the first of facts.symmetries.
    symmetry: facts.symmetries.includes(data.symmetry) ? data.symmetry : facts.symmetries[0],
  };
}

// ---------------------------------------------------------------- parts of the editor

// A piece's shape as a small inline picture whose cells take the text colour (so the page's
// CSS colours it, pressed or not, light or dark).
export function shapePicture(cells, unit = 7) {
  const rows = Math.max(...cells.map(([r]) => r)) + 1;
  const cols = Math.max(...cells.map(([, c]) => c)) + 1;
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${cols * unit} ${rows * unit}`);
  svg.setAttribute("width", String(cols * unit));
  svg.setAttribute("height", String(rows * unit));
  svg.setAttribute("aria-hidden", "true");
  svg.classList.add("piece-shape");
  for (const [r, c] of cells) {
    const square = document.createElementNS(SVG_NS, "rect");
    for (const [name, value] of [["x", c * unit + 0.5], ["y", r * unit + 0.5], ["width", unit - 1], ["height", unit - 1]]) {
      square.setAttribute(name, String(value));
    }
    svg.append(square);
  }
  return svg;
}

// The piece picker: a toggle button per library piece, grouped by Python's sets (a set's title
// switches the whole set), and the custom pieces with their remove buttons.
// Returns {element, sync()}; edits go through state and then changed().
function piecePicker(facts, state, changed, editCustom) {
  const pieceButtons = new Map();
  const setButtons = new Map();
  const inSet = new Set(Object.values(facts.sets).flat());
  const groups = [
    ...Object.entries(facts.sets),
    ["others", Object.keys(facts.pieces).filter((name) => !inSet.has(name))],
  ].filter(([, names]) => names.length);
  const element = el("div", { class: "piece-picker", role: "group", "aria-label": "Pieces" });
  const toggle = (names, on) => {
    for (const name of names) if (on) state.pieces.add(name); else state.pieces.delete(name);
    changed();
  };
  for (const [setName, names] of groups) {
    const buttons = el("div", { class: "piece-group-buttons" });
    for (const name of names) {
      const { area, cells } = facts.pieces[name];
      const button = el("button", { id: `polyomino-piece-${name}`, type: "button", class: "piece", "aria-pressed": "false",
        title: `${name}: ${area} cell${area === 1 ? "" : "s"}` }, shapePicture(cells), el("span", { class: "piece-name" }, name));
      button.addEventListener("click", () => toggle([name], !state.pieces.has(name)));
      pieceButtons.set(name, button);
      buttons.append(button);
    }
    const isSet = Object.hasOwn(facts.sets, setName);
    const heading = isSet
      ? el("button", { id: `polyomino-set-${setName}`, type: "button", class: "set-toggle", "aria-pressed": "false",
        title: `Use all ${setName} or none` }, `${setName} (${names.length})`)
      : el("span", { class: "set-title" }, "others");
    if (isSet) {
      heading.addEventListener("click", () => toggle(names, !names.every((name) => state.pieces.has(name))));
      setButtons.set(setName, { button: heading, names });
    }
    // Big sets fold away until wanted (the 35 hexominoes).
    element.append(names.length > 12
      ? el("details", { class: "piece-group", id: `polyomino-group-${setName}` }, el("summary", {}, heading), buttons)
      : el("div", { class: "piece-group" }, heading, buttons));
  }
  const customList = el("div", { class: "piece-group-buttons", id: "polyomino-custom-pieces" });
  element.append(el("div", { class: "piece-group" }, el("span", { class: "set-title" }, "custom"), customList));

  function customButton(piece) {
    const button = el("button", { id: `polyomino-custom-piece-${piece.name}`, type: "button", class: "piece custom",
      title: `${piece.name}: ${piece.cells.length} cells, ${piece.count} ${piece.count === 1 ? "copy" : "copies"} (click to edit)` },
    shapePicture(piece.cells), el("span", { class: "piece-name" }, piece.count === 1 ? piece.name : `${piece.name} ×${piece.count}`));
    button.addEventListener("click", () => editCustom(piece));
    const remove = el("button", { id: `polyomino-custom-remove-${piece.name}`, type: "button", class: "piece-remove",
      "aria-label": `Remove ${piece.name}`, title: `Remove ${piece.name}` }, "✕");
    remove.addEventListener("click", () => {
      state.custom = state.custom.filter((other) => other !== piece);
      changed();
    });
    return el("span", { class: "custom-piece" }, button, remove);
  }
  function sync() {
    for (const [name, button] of pieceButtons) button.setAttribute("aria-pressed", String(state.pieces.has(name)));
    for (const { button, names } of setButtons.values()) {
      const used = names.filter((name) => state.pieces.has(name)).length;
      button.setAttribute("aria-pressed", used === names.length ? "true" : used ? "mixed" : "false");
      const folded = button.closest("details");
      if (folded && used) folded.open = true;
    }
    customList.replaceChildren(...state.custom.map(customButton));
    if (!state.custom.length) customList.append(el("span", { class: "hint" }, "none yet: make one below"));
    roving.refresh();
  }
  // The picker is one tab stop (arrows move between its pieces), so the keyboard reaches the
  // rest of the page in a few Tabs rather than one per piece.
  const roving = rovingTabStop(element, "button, summary");
  return { element, sync };
}

// The piece maker: draw a piece on a small grid (drawn as a one-piece tiling of an empty grid,
// as it will look on the board), name it, count it, add it. A name used again replaces that
// piece. Returns {panel, edit(piece)}; an added piece goes into state.custom, then changed().
function pieceMaker(facts, state, changed) {
  const cells = new Set();
  const view = { board: filled(MAKER_SIDE, MAKER_SIDE), span: 200, solution: null, cursor: null, cursorShown: false };
  const canvas = el("canvas", { id: "polyomino-custom-grid", class: "board maker", tabindex: "0", role: "img",
    "aria-label": "Cells of the new piece: click or drag, or arrows and Space" });
  const drawing = new CanvasDrawing(canvas);
  const name = labelled("Name", { id: "polyomino-custom-name", size: "6", spellcheck: "false", maxlength: "16" });
  const count = labelled("Count", { id: "polyomino-custom-count", type: "number", min: "1", max: String(facts.limits.max_copies), value: "1" });
  const add = el("button", { id: "polyomino-custom-add", type: "button" }, "Add piece");
  const clear = el("button", { id: "polyomino-custom-clear", type: "button" }, "Clear cells");
  const error = el("div", { id: "polyomino-custom-error", class: "error", role: "alert" });
  const panel = el("details", { id: "polyomino-custom", class: "piece-maker" },
    el("summary", {}, "Make a piece"),
    el("p", { class: "hint" }, `Draw the piece on the grid (up to ${MAKER_SIDE}x${MAKER_SIDE}), name it and say how many copies; ` +
      "a name used again replaces that piece. Click a custom piece to edit it."),
    canvas, el("div", { class: "row" }, name.wrap, count.wrap), el("div", { class: "row" }, add, clear), error);
  const draw = () => {
    const drawn = [...cells].map(cellOf);
    view.solution = drawn.length ? [{ piece: "", cells: drawn }] : null;
    renderer.draw(drawing, view, {});
  };
  toggleCells(canvas, {
    view,
    size: () => [MAKER_SIDE, MAKER_SIDE],
    cellAt: (event) => renderer.cellAt(view, ...boardPoint(canvas, event)),
    isOn: (cell) => cells.has(keyOf(cell)),
    setOn: (cell, on) => { if (on) cells.add(keyOf(cell)); else cells.delete(keyOf(cell)); },
  }, () => { error.textContent = ""; draw(); }, draw);
  clear.addEventListener("click", () => { cells.clear(); draw(); });
  add.addEventListener("click", () => {
    try {
      const piece = makerPiece({ name: name.input.value, cells: [...cells].map(cellOf), count: count.input.value }, facts);
      const at = state.custom.findIndex((other) => other.name === piece.name);
      if (at >= 0) state.custom[at] = piece; else state.custom.push(piece);
      error.textContent = "";
      cells.clear();
      name.input.value = nextFreeName(state.custom, facts);
      draw();
      changed();
    } catch (failure) {
      error.textContent = failure.message;
    }
  });
  function edit(piece) {
    cells.clear();
    for (const cell of piece.cells) cells.add(keyOf(cell));
    name.input.value = piece.name;
    count.input.value = String(piece.count);
    panel.open = true;
    draw();
    canvas.focus();
  }
  name.input.value = nextFreeName(state.custom, facts);
  draw();
  return { panel, edit };
}

// ---------------------------------------------------------------- the editor

/** @param {import("../contract.js").KindContext} ctx */
export function createPolyomino(ctx) {
  const { facts } = ctx;
  const PRESETS = presets(facts.sets);
  const state = {
    board: [...PRESETS["6x10"].board], pieces: new Set(PRESETS["6x10"].pieces), custom: [], reflections: true, symmetry: "distinct",
  };
  const view = { board: state.board, solution: null, cursor: null, cursorShown: false };

  const preset = labelled("Preset", { tag: "select", id: "polyomino-preset" });
  for (const [key, value] of Object.entries(PRESETS)) preset.input.append(el("option", { value: key }, value.label));
  preset.input.append(el("option", { value: "custom", disabled: true }, "Custom board or pieces"));
  const size = sizeFields(ctx.id, facts.limits, { rows: 6, cols: 10 }, (rows, cols) => {
    setBoard(Array.from({ length: rows }, (_, i) => (state.board[i] || "").padEnd(cols, ".").slice(0, cols)));
    ctx.changed();
  });
  const fillButton = el("button", { id: "polyomino-fill", type: "button" }, "Fill board");
  const piecesChanged = () => { syncControls(); ctx.changed(); };
  const maker = pieceMaker(facts, state, piecesChanged);
  const picker = piecePicker(facts, state, piecesChanged, maker.edit);
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
    picker.sync();
    reflections.checked = state.reflections;
    symmetry.input.value = state.symmetry;
    preset.input.value = matchingPreset(PRESETS, state);
    pieceInfo.textContent = pieceSummary(state, facts);
    view.board = state.board;
  }

  function setBoard(board) {
    state.board = board;
    syncControls();
  }

  preset.input.addEventListener("change", () => {
    const chosen = PRESETS[preset.input.value];
    if (!chosen) return;
    state.pieces = new Set(chosen.pieces);
    state.custom = [];
    setBoard([...chosen.board]);
    ctx.changed();
  });
  fillButton.addEventListener("click", () => { setBoard(state.board.map((line) => ".".repeat(line.length))); ctx.changed(); });
  reflections.addEventListener("change", () => { state.reflections = reflections.checked; ctx.changed(); });
  symmetry.input.addEventListener("change", () => { state.symmetry = symmetry.input.value; ctx.changed(); });

  const puzzle = () => ({ board: [...state.board], pieces: requestPieces(state, facts), reflections: state.reflections });
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

  function load(data) {
    const loaded = loadedState(data, facts); // its board rows are checked against the size limits
    Object.assign(state, loaded);
    setBoard(loaded.board);
    view.solution = null;
  }

  syncControls();
  return {
    view,
    controls: el("div", { class: "controls" },
      el("div", { class: "row" }, preset.wrap),
      el("div", { class: "row" }, size.rows.wrap, size.cols.wrap, fillButton),
      el("p", { class: "hint" }, "Click or drag on the board to add or remove cells, or move with the arrows and toggle with Space."),
      el("div", { class: "field-title" }, "Pieces"), picker.element, pieceInfo, maker.panel,
      el("label", { class: "field", for: "polyomino-reflections" }, reflections, " reflections allowed"),
      el("div", { class: "row" }, symmetry.wrap),
      el("div", { class: "row" }, limit.wrap, seed.wrap)),
    actions: el("div", { class: "buttons" }, solveButton, randomButton, countButton),
    attachCanvas(canvas) {
      toggleCells(canvas, {
        view,
        size: () => [state.board.length, Math.max(1, ...state.board.map((line) => line.length))],
        cellAt: ctx.cellAt,
        isOn: ([r, c]) => state.board[r][c] === ".",
        setOn: ([r, c], on) => {
          const mark = on ? "." : "#";
          setBoard(state.board.map((line, i) => (i === r ? line.slice(0, c) + mark + line.slice(c + 1) : line)));
        },
      }, ctx.changed, ctx.redraw);
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
    decode(text) {
      const tiling = decodeTiling(text);
      // A link names library pieces and sets; another name is a typo or a cut link.
      for (const name of tiling.pieces.filter((piece) => typeof piece === "string")) {
        if (!Object.hasOwn(facts.pieces, name) && !Object.hasOwn(facts.sets, name)) {
          throw new Error(`the piece "${name}" is not in the library (pieces are named like F, I4 or pentominoes)`);
        }
      }
      load(tiling);
    },
    exportRequest: () => ({ mode: "solve", puzzle: puzzle(), symmetry: state.symmetry }),
    // A trace follows one search tree, so it covers all tilings (no symmetry reduction).
    traceRequest: () => ({ mode: "trace", puzzle: puzzle(), symmetry: "all" }),
    heatmapLabel: (name) => `piece ${name}`,
    importRequest(data) { load({ ...data.puzzle, symmetry: data.symmetry }); },
  };
}
