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
// Share fragment: #polyomino:<board>:<pieces>[:<options>] (web/kinds/polyomino_link.js); custom
// pieces ride along as name=r.c;r.c*count.
// Imported requests may use any pieces Python reads: sets, names, counts, pieces with cells.
import { CanvasDrawing, boardPoint } from "../render/draw.js";
import { clampInt, el, labelled } from "../ui/ui.js";
import { decodeTiling, encodeTiling } from "./polyomino_link.js";
import { countWords, foundWords, limitField, seedField, sizeFields, toggleCells } from "../ui/widgets.js";
import * as renderer from "../render/polyomino.js";

const filled = (rows, cols) => Array.from({ length: rows }, () => ".".repeat(cols));
const SVG_NS = "http://www.w3.org/2000/svg";
// The piece maker's grid: room for any piece of up to this many rows and columns.
const MAKER_SIDE = 8;

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

// A piece's shape as a small inline picture whose cells take the text colour (so the page's
// CSS colours it, pressed or not, light or dark).
function shapePicture(cells, unit = 7) {
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

// Cells joined through shared edges (a piece must be one connected shape).
function isConnected(cells) {
  const keys = new Set(cells.map(([r, c]) => `${r},${c}`));
  const stack = [cells[0]];
  const reached = new Set([`${cells[0][0]},${cells[0][1]}`]);
  while (stack.length) {
    const [r, c] = stack.pop();
    for (const [nr, nc] of [[r + 1, c], [r - 1, c], [r, c + 1], [r, c - 1]]) {
      const key = `${nr},${nc}`;
      if (keys.has(key) && !reached.has(key)) { reached.add(key); stack.push([nr, nc]); }
    }
  }
  return reached.size === keys.size;
}

// Cells shifted so the smallest row and column are 0, sorted (as Python normalises them).
function normalised(cells) {
  const top = Math.min(...cells.map(([r]) => r));
  const left = Math.min(...cells.map(([, c]) => c));
  return cells.map(([r, c]) => [r - top, c - left]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

/** @param {import("./index.js").KindContext} ctx */
export function createPolyomino(ctx) {
  const { facts } = ctx;
  const library = Object.keys(facts.pieces); // Python's library, in its order
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

  // ---------------------------------------------------------------- the piece picker
  const pieceButtons = new Map();
  const setButtons = new Map();
  const inSet = new Set(Object.values(facts.sets).flat());
  const groups = [
    ...Object.entries(facts.sets).map(([setName, names]) => [setName, names]),
    ["others", library.filter((name) => !inSet.has(name))],
  ].filter(([, names]) => names.length);
  const picker = el("div", { class: "piece-picker", role: "group", "aria-label": "Pieces" });
  for (const [setName, names] of groups) {
    const buttons = el("div", { class: "piece-group-buttons" });
    for (const name of names) {
      const { area, cells } = facts.pieces[name];
      const button = el("button", { id: `polyomino-piece-${name}`, type: "button", class: "piece", "aria-pressed": "false",
        title: `${name}: ${area} cell${area === 1 ? "" : "s"}` }, shapePicture(cells), el("span", { class: "piece-name" }, name));
      button.addEventListener("click", () => {
        if (state.pieces.has(name)) state.pieces.delete(name); else state.pieces.add(name);
        syncControls();
        ctx.changed();
      });
      pieceButtons.set(name, button);
      buttons.append(button);
    }
    const isSet = Object.hasOwn(facts.sets, setName);
    const heading = isSet
      ? el("button", { id: `polyomino-set-${setName}`, type: "button", class: "set-toggle", "aria-pressed": "false",
        title: `Use all ${setName} or none` }, `${setName} (${names.length})`)
      : el("span", { class: "set-title" }, "others");
    if (isSet) {
      heading.addEventListener("click", () => {
        const all = names.every((name) => state.pieces.has(name));
        for (const name of names) if (all) state.pieces.delete(name); else state.pieces.add(name);
        syncControls();
        ctx.changed();
      });
      setButtons.set(setName, { button: heading, names });
    }
    // Big sets fold away until wanted (the 35 hexominoes).
    const group = names.length > 12
      ? el("details", { class: "piece-group", id: `polyomino-group-${setName}` }, el("summary", {}, heading), buttons)
      : el("div", { class: "piece-group" }, heading, buttons);
    picker.append(group);
  }
  const customList = el("div", { class: "piece-group-buttons", id: "polyomino-custom-pieces" });
  picker.append(el("div", { class: "piece-group" }, el("span", { class: "set-title" }, "custom"), customList));

  // ---------------------------------------------------------------- the piece maker
  // The new piece is drawn as a one-piece tiling of an empty grid, as it will look on the board.
  const maker = { cells: new Set(), view: { board: filled(MAKER_SIDE, MAKER_SIDE), span: 200, solution: null, cursor: null, cursorShown: false } };
  const makerCanvas = el("canvas", { id: "polyomino-custom-grid", class: "board maker", tabindex: "0", role: "img",
    "aria-label": "Cells of the new piece: click or drag, or arrows and Space" });
  const makerDrawing = new CanvasDrawing(makerCanvas);
  const makerName = labelled("Name", { id: "polyomino-custom-name", size: "6", spellcheck: "false", maxlength: "16" });
  const makerCount = labelled("Count", { id: "polyomino-custom-count", type: "number", min: "1", max: String(facts.limits.max_copies), value: "1" });
  const makerAdd = el("button", { id: "polyomino-custom-add", type: "button" }, "Add piece");
  const makerClear = el("button", { id: "polyomino-custom-clear", type: "button" }, "Clear cells");
  const makerError = el("div", { id: "polyomino-custom-error", class: "error", role: "alert" });
  const makerPanel = el("details", { id: "polyomino-custom", class: "piece-maker" },
    el("summary", {}, "Make a piece"),
    el("p", { class: "hint" }, `Draw the piece on the grid (up to ${MAKER_SIDE}x${MAKER_SIDE}), name it and say how many copies; ` +
      "a name used again replaces that piece. Click a custom piece to edit it."),
    makerCanvas, el("div", { class: "row" }, makerName.wrap, makerCount.wrap), el("div", { class: "row" }, makerAdd, makerClear), makerError);
  const drawMaker = () => {
    const cells = [...maker.cells].map((key) => key.split(",").map(Number));
    maker.view.solution = cells.length ? [{ piece: "", cells }] : null;
    renderer.draw(makerDrawing, maker.view, {});
  };
  toggleCells(makerCanvas, {
    view: maker.view,
    size: () => [MAKER_SIDE, MAKER_SIDE],
    cellAt: (event) => renderer.cellAt(maker.view, ...boardPoint(makerCanvas, event)),
    isOn: ([r, c]) => maker.cells.has(`${r},${c}`),
    setOn: ([r, c], on) => { if (on) maker.cells.add(`${r},${c}`); else maker.cells.delete(`${r},${c}`); },
  }, () => { makerError.textContent = ""; drawMaker(); }, drawMaker);
  makerClear.addEventListener("click", () => { maker.cells.clear(); drawMaker(); });
  const nextFreeName = () => {
    for (let i = 0; ; i++) {
      const name = i < 26 ? `C${String.fromCharCode(65 + i)}` : `C${i}`;
      if (!state.custom.some((piece) => piece.name === name) && !Object.hasOwn(facts.pieces, name)) return name;
    }
  };
  makerAdd.addEventListener("click", () => {
    try {
      const piece = makerPiece();
      const at = state.custom.findIndex(({ name }) => name === piece.name);
      if (at >= 0) state.custom[at] = piece; else state.custom.push(piece);
      makerError.textContent = "";
      maker.cells.clear();
      makerName.input.value = nextFreeName();
      drawMaker();
      syncControls();
      ctx.changed();
    } catch (error) {
      makerError.textContent = error.message;
    }
  });
  function makerPiece() {
    const name = makerName.input.value.trim();
    if (!name) throw new Error("Give the piece a name.");
    if (Object.hasOwn(facts.pieces, name) || Object.hasOwn(facts.sets, name)) {
      throw new Error(`"${name}" is a name from the library; choose another name.`);
    }
    const cells = [...maker.cells].map((key) => key.split(",").map(Number));
    if (!cells.length) throw new Error("Draw the piece first: click cells of the small grid.");
    if (!isConnected(cells)) throw new Error("The cells must make one piece: each one sharing an edge with another.");
    const count = clampInt(makerCount.input.value, 1, facts.limits.max_copies, 1);
    return { name, cells: normalised(cells), count };
  }
  function editCustom(piece) {
    maker.cells = new Set(piece.cells.map(([r, c]) => `${r},${c}`));
    makerName.input.value = piece.name;
    makerCount.input.value = String(piece.count);
    makerPanel.open = true;
    drawMaker();
    makerCanvas.focus();
  }
  function showCustomPieces() {
    customList.replaceChildren(...state.custom.map((piece) => {
      const button = el("button", { id: `polyomino-custom-piece-${piece.name}`, type: "button", class: "piece custom",
        title: `${piece.name}: ${piece.cells.length} cells, ${piece.count} ${piece.count === 1 ? "copy" : "copies"} (click to edit)` },
      shapePicture(piece.cells), el("span", { class: "piece-name" }, piece.count === 1 ? piece.name : `${piece.name} ×${piece.count}`));
      button.addEventListener("click", () => editCustom(piece));
      const remove = el("button", { id: `polyomino-custom-remove-${piece.name}`, type: "button", class: "piece-remove",
        "aria-label": `Remove ${piece.name}`, title: `Remove ${piece.name}` }, "✕");
      remove.addEventListener("click", () => {
        state.custom = state.custom.filter((other) => other !== piece);
        syncControls();
        ctx.changed();
      });
      return el("span", { class: "custom-piece" }, button, remove);
    }));
    if (!state.custom.length) customList.append(el("span", { class: "hint" }, "none yet: make one below"));
  }

  // ---------------------------------------------------------------- the rest
  const pieceInfo = el("div", { id: "polyomino-piece-info", class: "hint" });
  const reflections = el("input", { id: "polyomino-reflections", type: "checkbox", checked: true });
  const symmetry = labelled("Count", { tag: "select", id: "polyomino-symmetry" });
  symmetry.input.append(el("option", { value: "all" }, "all tilings"), el("option", { value: "distinct", selected: true }, "distinct up to symmetry"));
  const limit = limitField(ctx.id, 1);
  const seed = seedField(ctx.id);
  const solveButton = el("button", { id: "polyomino-solve", type: "button", class: "solve-action primary" }, "Solve");
  const randomButton = el("button", { id: "polyomino-random", type: "button", class: "solve-action" }, "Random");
  const countButton = el("button", { id: "polyomino-count", type: "button", class: "solve-action" }, "Count");

  // The preset the board and pieces are, if any.
  function matchingPreset() {
    if (state.custom.length) return "custom";
    for (const [key, value] of Object.entries(PRESETS)) {
      const sameBoard = value.board.length === state.board.length && value.board.every((line, i) => line === state.board[i]);
      const samePieces = value.pieces.length === state.pieces.size && value.pieces.every((name) => state.pieces.has(name));
      if (sameBoard && samePieces) return key;
    }
    return "custom";
  }

  function syncControls() {
    size.show(state.board.length, state.board[0]?.length || 0);
    for (const [name, button] of pieceButtons) button.setAttribute("aria-pressed", String(state.pieces.has(name)));
    for (const { button, names } of setButtons.values()) {
      const used = names.filter((name) => state.pieces.has(name)).length;
      button.setAttribute("aria-pressed", used === names.length ? "true" : used ? "mixed" : "false");
      const folded = button.closest("details");
      if (folded && used) folded.open = true;
    }
    showCustomPieces();
    reflections.checked = state.reflections;
    symmetry.input.value = state.symmetry;
    preset.input.value = matchingPreset();
    const area = [...state.pieces].reduce((sum, name) => sum + facts.pieces[name].area, 0)
      + state.custom.reduce((sum, piece) => sum + piece.cells.length * piece.count, 0);
    const count = state.pieces.size + state.custom.reduce((sum, piece) => sum + piece.count, 0);
    const cells = state.board.join("").split("").filter((ch) => ch === ".").length;
    const tooMany = cells > facts.limits.max_cells ? ` That is more than the solver takes (${facts.limits.max_cells}).` : "";
    pieceInfo.textContent = `${count} pieces covering ${area} cells; the board has ${cells} cells to cover.${tooMany}`;
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

  // A custom piece that is a library piece used more than once is sent as {name, count}.
  const isLibraryShape = ({ name, cells }) => Object.hasOwn(facts.pieces, name)
    && JSON.stringify(normalised(facts.pieces[name].cells)) === JSON.stringify(normalised(cells));
  function puzzle() {
    const pieces = [...library.filter((name) => state.pieces.has(name)),
      ...state.custom.map((piece) => (isLibraryShape(piece)
        ? { name: piece.name, count: piece.count }
        : { name: piece.name, cells: piece.cells.map((cell) => [...cell]), count: piece.count }))];
    return { board: [...state.board], pieces, reflections: state.reflections };
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

  makerName.input.value = nextFreeName();
  syncControls();
  drawMaker();
  return {
    view,
    controls: el("div", { class: "controls" },
      el("div", { class: "row" }, preset.wrap),
      el("div", { class: "row" }, size.rows.wrap, size.cols.wrap, fillButton),
      el("p", { class: "hint" }, "Click or drag on the board to add or remove cells, or move with the arrows and toggle with Space."),
      el("div", { class: "field-title" }, "Pieces"), picker, pieceInfo, makerPanel,
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
    decode(text) { load(decodeTiling(text)); },
    exportRequest: () => ({ mode: "solve", puzzle: puzzle(), symmetry: state.symmetry }),
    // A trace follows one search tree, so it covers all tilings (no symmetry reduction).
    traceRequest: () => ({ mode: "trace", puzzle: puzzle(), symmetry: "all" }),
    heatmapLabel: (name) => `piece ${name}`,
    importRequest(data) { load({ ...data.puzzle, symmetry: data.symmetry }); },
  };

  // A puzzle's pieces as Python reads them (pysolver/kinds/polyomino/parsing.py): a name given
  // twice adds up its counts. Library pieces used once switch on pieces of the picker; a piece
  // given with cells, or a library piece used more than once, is a custom piece.
  function readPieces(entries) {
    const uses = new Map(); // name -> {name, cells (null: the library's), count}
    const add = (name, cells, count, index) => {
      const known = uses.get(name);
      if (known) known.count += count; else uses.set(name, { name, cells, count });
      if (uses.get(name).count > facts.limits.max_copies) {
        throw new Error(`pieces[${index}]: ${name} is used ${uses.get(name).count} times; the limit is ${facts.limits.max_copies}`);
      }
    };
    (entries || []).forEach((piece, index) => {
      if (typeof piece === "string") {
        if (Object.hasOwn(facts.sets, piece)) for (const name of facts.sets[piece]) add(name, null, 1, index);
        else if (Object.hasOwn(facts.pieces, piece)) add(piece, null, 1, index);
        else throw new Error(`pieces[${index}]: unknown piece ${JSON.stringify(piece)}; give its cells as {"name", "cells"}`);
        return;
      }
      if (!piece || typeof piece !== "object" || typeof piece.name !== "string" || !piece.name) {
        throw new Error(`pieces[${index}] must be a piece name or {"name", "cells", "count"}`);
      }
      const count = piece.count === undefined ? 1 : Number(piece.count);
      if (!Number.isInteger(count) || count < 1 || count > facts.limits.max_copies) {
        throw new Error(`pieces[${index}].count must be a whole number from 1 to ${facts.limits.max_copies}`);
      }
      const cells = piece.cells;
      if (cells === undefined) {
        if (!Object.hasOwn(facts.pieces, piece.name)) throw new Error(`pieces[${index}] (${piece.name}) is not in the library, so it needs its cells`);
        add(piece.name, null, count, index);
        return;
      }
      const pairs = Array.isArray(cells) && cells.length > 0 && cells.every((cell) => Array.isArray(cell) && cell.length === 2 && cell.every(Number.isInteger));
      if (!pairs || !isConnected(cells)) {
        throw new Error(`pieces[${index}] (${piece.name}) needs cells: a connected list of [row, col] pairs`);
      }
      add(piece.name, normalised(cells), count, index);
    });
    const names = [];
    const custom = [];
    for (const { name, cells, count } of uses.values()) {
      if (!cells && count === 1) names.push(name);
      else custom.push({ name, cells: cells || normalised(facts.pieces[name].cells), count });
    }
    return { names, custom };
  }

  function load(data) {
    if (!Array.isArray(data.board) || !data.board.every((line) => typeof line === "string" && /^[.#]*$/.test(line))) {
      throw new Error("board must be a list of text rows of '.' and '#'");
    }
    const { names, custom } = readPieces(data.pieces);
    const width = Math.max(...data.board.map((line) => line.length));
    size.check(data.board.length, width);
    state.pieces = new Set(names);
    state.custom = custom;
    state.reflections = data.reflections !== false;
    // A request without "symmetry" means Python's default, the first of facts.symmetries.
    state.symmetry = facts.symmetries.includes(data.symmetry) ? data.symmetry : facts.symmetries[0];
    setBoard(data.board.map((line) => line.padEnd(width, "#")));
    view.solution = null;
  }
}
