// Widgets the kind editors share, written once: size fields bounded by Python's limits, the
// engine menu, the seed field, the puzz.link link box, painting cells with a pointer, the
// arrow-key cursor, boards toggled by pointer or keyboard, and the wording of answers. (Undo and redo: web/ui/history.js;
// the on-screen key pad: web/ui/keypad.js; board colours: web/render/palette.js.) Bounds and engine
// lists always come from facts.json (see web/kinds/contract.js).
import { clampInt, el, labelled } from "./ui.js";
import { exactNumber } from "./numbers.js";

// ------------------------------------------------------------------ focus

/**
 * One tab stop for a group of many controls (the piece picker): Tab enters the group at the
 * control last used and leaves it with the next Tab; arrows (and Home, End) move within it.
 * selector: the group's controls; those not shown (in a closed <details>) are skipped.
 * Returns {refresh()}: call it after the group's controls change.
 */
export function rovingTabStop(container, selector) {
  let current = null;
  const items = () => [...container.querySelectorAll(selector)].filter((item) => item.getClientRects().length && !item.disabled);
  function refresh() {
    const shown = items();
    // Nothing shown (the panel is hidden, or not in the page yet): the first control keeps it.
    if (!shown.includes(current)) current = shown[0] || (current?.isConnected ? current : container.querySelector(selector));
    for (const item of container.querySelectorAll(selector)) item.tabIndex = item === current ? 0 : -1;
  }
  container.addEventListener("focusin", (event) => {
    const item = event.target.closest?.(selector);
    if (item && container.contains(item)) { current = item; refresh(); }
  });
  container.addEventListener("keydown", (event) => {
    const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    if (!(event.key in moves) && event.key !== "Home" && event.key !== "End") return;
    const shown = items();
    const at = shown.indexOf(event.target.closest?.(selector));
    if (at < 0) return;
    const next = event.key === "Home" ? 0 : event.key === "End" ? shown.length - 1 : Math.max(0, Math.min(shown.length - 1, at + moves[event.key]));
    event.preventDefault();
    shown[next].focus();
  });
  // A fold opening or closing shows or hides controls.
  container.addEventListener("toggle", refresh, true);
  return { refresh };
}

// ------------------------------------------------------------------ fields

/**
 * Rows and columns fields of a board, bounded by the kind's limits (max_rows, max_cols).
 * onResize(rows, cols) runs when the user commits a new size (clamped into the limits).
 * Returns {rows, cols (the labelled fields), show(rows, cols), check(rows, cols)}; check throws
 * an Error saying the allowed range when a loaded puzzle does not fit.
 */
export function sizeFields(kindId, limits, initial, onResize) {
  const bound = (name, label, value) => labelled(label, {
    id: `${kindId}-${name}`, type: "number", min: "1", max: String(limits[`max_${name}`]), value: String(value),
  });
  const rows = bound("rows", "Rows", initial.rows);
  const cols = bound("cols", "Columns", initial.cols);
  const fields = {
    rows,
    cols,
    shown: { ...initial },
    show(r, c) {
      fields.shown = { rows: r, cols: c };
      rows.input.value = String(r);
      cols.input.value = String(c);
    },
    check(r, c) {
      for (const [name, value] of [["rows", r], ["cols", c]]) {
        const max = limits[`max_${name}`];
        if (!Number.isInteger(value) || value < 1 || value > max) {
          throw new Error(`${name} must be a whole number from 1 to ${max} (got ${value})`);
        }
      }
    },
  };
  const commit = () => {
    const r = clampInt(rows.input.value, 1, limits.max_rows, fields.shown.rows);
    const c = clampInt(cols.input.value, 1, limits.max_cols, fields.shown.cols);
    fields.show(r, c);
    onResize(r, c);
  };
  rows.input.addEventListener("change", commit);
  cols.input.addEventListener("change", commit);
  return fields;
}

// The page keeps at most this many solutions of one answer to browse (its own choice, for
// memory: Python sets no cap on a request's limit).
const MAX_SOLUTIONS_KEPT = 1000;

// How many solutions a solve asks for: value() is the typed number, within 1..MAX_SOLUTIONS_KEPT.
export function limitField(kindId, initial) {
  const field = labelled("Limit", {
    id: `${kindId}-limit`, type: "number", min: "1", max: String(MAX_SOLUTIONS_KEPT), value: String(initial),
  });
  return { wrap: field.wrap, input: field.input, value: () => clampInt(field.input.value, 1, MAX_SOLUTIONS_KEPT, initial) };
}

// A puzz.link link box: the text field, "Load and solve URL" (load(text), also on Enter in the
// field, not while a solve runs: the button is a solve action) and "Make puzz.link URL" (the
// board's link from makeUrl(), written into the field and selected). Returns {input, row}.
export function linkBox(kindId, { label, placeholder, load, makeUrl }) {
  const field = labelled(label, { id: `${kindId}-url`, placeholder, size: "40", spellcheck: "false" });
  const loadButton = el("button", { id: `${kindId}-load-url`, type: "button", class: "solve-action" }, "Load and solve URL");
  const makeButton = el("button", { id: `${kindId}-export-url`, type: "button" }, "Make puzz.link URL");
  loadButton.addEventListener("click", () => load(field.input.value));
  field.input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    if (!loadButton.disabled) loadButton.click();
  });
  makeButton.addEventListener("click", () => {
    field.input.value = makeUrl();
    field.input.select();
  });
  return { input: field.input, row: el("div", { class: "row" }, field.wrap, loadButton, makeButton) };
}

// A seed field: value() is the typed seed, or a fresh random one when it is left empty.
export function seedField(kindId) {
  const field = labelled("Seed", { id: `${kindId}-seed`, type: "number", min: "0", placeholder: "random" });
  const top = 2 ** 31;
  return {
    wrap: field.wrap,
    input: field.input,
    value() {
      const typed = field.input.value.trim();
      return typed === "" ? Math.floor(Math.random() * top) : clampInt(typed, 0, top, 0);
    },
  };
}

// The engine menu of a kind from its facts: "" is the default engine; each option shows the
// engine's human title, and the hint below says what the chosen engine does.
export function engineMenu(kindId, facts) {
  const byName = new Map(facts.engines.map((engine) => [engine.name, engine]));
  const fallback = byName.get(facts.default_engine);
  const defaultOption = el("option", { value: "", title: fallback.description }, `Default (${fallback.title})`);
  const select = el("select", { id: `${kindId}-engine`, "aria-describedby": `${kindId}-engine-hint` },
    defaultOption,
    ...facts.engines.map((engine) => el("option", { value: engine.name, title: engine.description }, engine.title)));
  const hint = el("p", { id: `${kindId}-engine-hint`, class: "hint" });
  // What the default does, in the hint's words (showDefault changes it for the puzzle shown).
  let defaultWords = fallback.description;
  const describe = () => { hint.textContent = select.value ? byName.get(select.value).description : defaultWords; };
  select.addEventListener("change", describe);
  describe();
  return {
    select,
    hint,
    // Select an engine by name if the kind has it; "" or an unknown name gives the default.
    choose(name) {
      select.value = byName.has(name) ? name : "";
      describe();
    },
    // What "Default" does for the puzzle shown, where that depends on the puzzle: uses is
    // [{what, engine}], e.g. [{what: "counts", engine: ...}, {what: "random tilings", ...}].
    // One engine for all: its title in the menu. Several: the menu says so (short enough for
    // a phone) and the hint names each, "On this board: Kasteleyn's formula for counts, ...".
    showDefault(uses) {
      const titled = uses.map(({ what, engine }) => ({ what, entry: byName.get(engine) ?? fallback }));
      const single = new Set(titled.map(({ entry }) => entry)).size === 1;
      defaultOption.textContent = single ? `Default (${titled[0].entry.title})` : "Default (depends on the board)";
      defaultWords = single ? titled[0].entry.description
        : `On this board: ${titled.map(({ what, entry }) => `${entry.title} for ${what}`).join(", ")}.`;
      defaultOption.title = defaultWords;
      describe();
    },
  };
}

// ------------------------------------------------------------------ the board

/**
 * Click or drag over cells to switch them on or off; the first cell touched decides which.
 * cellAt(event) -> [row, col] | null; isOn([r, c]) -> bool; setOn([r, c], on) changes the cell.
 * changed() runs after each cell that actually changed.
 */
export function paintCells(canvas, { cellAt, isOn, setOn }, changed) {
  let paintOn = null;
  const paint = (event) => {
    const hit = cellAt(event);
    if (!hit) return;
    if (paintOn === null) paintOn = !isOn(hit);
    if (isOn(hit) === paintOn) return;
    setOn(hit, paintOn);
    changed();
  };
  canvas.addEventListener("pointerdown", (event) => {
    paintOn = null;
    canvas.setPointerCapture?.(event.pointerId);
    paint(event);
  });
  canvas.addEventListener("pointermove", (event) => {
    if (event.buttons & 1 && paintOn !== null) paint(event);
  });
  canvas.addEventListener("pointerup", () => { paintOn = null; });
}

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

/**
 * A cell cursor on a board: a click selects the cell under the pointer (and focuses the board),
 * arrow keys move it (wrapping at the edges); any other key goes to onKey(event, [r, c]), which
 * returns true when it used the key. cursor: {get() -> [r, c] | null, set([r, c]),
 * size() -> [rows, cols]}; cellAt(event) -> [r, c] | null.
 */
export function cellCursor(canvas, { cursor, cellAt, onKey }, redraw) {
  canvas.addEventListener("pointerdown", (event) => {
    const hit = cellAt(event);
    if (hit) { cursor.set(hit); redraw(); }
    canvas.focus();
  });
  canvas.addEventListener("keydown", (event) => {
    const [rows, cols] = cursor.size();
    const [r0, c0] = cursor.get() || [0, 0];
    cursor.set([Math.min(r0, rows - 1), Math.min(c0, cols - 1)]); // the board may have shrunk
    const [r, c] = cursor.get();
    const step = ARROWS[event.key];
    if (step) {
      cursor.set([(r + step[0] + rows) % rows, (c + step[1] + cols) % cols]);
      redraw();
    } else if (event.ctrlKey || event.metaKey || event.altKey || !onKey(event, [r, c])) {
      return;
    }
    event.preventDefault();
  });
}

/**
 * A board edited by switching cells on and off, with the pointer (paintCells) or the keyboard:
 * arrows move a cursor, Space or Enter switches the cell under it. The cursor is view.cursor
 * ([r, c]), shown while the board has the focus (view.cursorShown), so a renderer draws it then.
 * size() -> [rows, cols]; cellAt, isOn, setOn as for paintCells.
 */
export function toggleCells(canvas, { view, size, cellAt, isOn, setOn }, changed, redraw) {
  paintCells(canvas, { cellAt, isOn, setOn }, changed);
  cellCursor(canvas, {
    cursor: { get: () => view.cursor, set: (cell) => { view.cursor = cell; }, size },
    cellAt,
    onKey(event, cell) {
      if (event.key !== " " && event.key !== "Enter") return false;
      setOn(cell, !isOn(cell));
      changed();
      return true;
    },
  }, redraw);
  const show = (shown) => () => { view.cursorShown = shown; redraw(); };
  canvas.addEventListener("focus", show(true));
  canvas.addEventListener("blur", show(false));
}

// ------------------------------------------------------------------ answers in words

const plural = (n, one, many) => (String(n) === "1" ? one : many);

// A count-mode answer: "2,187 solutions." / "65 distinct tilings (stopped early)."; long counts
// in short form with their digits a click away (web/ui/numbers.js). Returns a node.
export function countWords(response, one, many) {
  const tail = response.complete ? "." : " (stopped early).";
  return exactNumber(response.count, ` ${plural(response.count, one, many)}`, tail);
}

// A solve-mode answer listing what was found: "1 tiling found." / "No solution exists."
export function foundWords(response, one, many) {
  if (String(response.count) === "0") return response.complete ? `No ${one} exists.` : `No ${one} found.`;
  const all = response.complete ? " (that is all of them)" : "";
  return exactNumber(response.count, ` ${plural(response.count, one, many)} found`, `${all}.`);
}

// A solve with limit 2, which tells whether the puzzle has one solution.
export function uniquenessWords(response) {
  const n = Number(response.count);
  if (n === 0) return "No solution.";
  if (n === 1 && response.complete) return "Unique solution.";
  if (n >= 2) return "Several solutions (showing the first two).";
  return "A solution (uniqueness not checked).";
}
