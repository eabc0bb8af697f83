// Playing a Sudoku (the game of web/play/session.js for the Sudoku editor; rules in
// web/kinds/sudoku/logic.js, drawing in web/kinds/sudoku/render.js's play layer).
// Keys on #sudoku-canvas: a symbol writes it (or, in a pencil mode, marks it), Shift+symbol a
// corner mark, Backspace/Delete clear, arrows move, Space switches digit / corner / centre.
// Controls (ids): #sudoku-play-mode-digit, #sudoku-play-mode-corner, #sudoku-play-mode-centre
// (what a symbol writes), #sudoku-play-auto (automatic candidates), #sudoku-play-pad (on-screen
// keys #sudoku-play-key-<symbol>, #sudoku-play-key-clear). The cell under the cursor tints every
// cell holding the same value.
import { el } from "../../ui/ui.js";
import { keyPad } from "../../ui/keypad.js";
import { clashesIn, gridUnits } from "./editor.js";
import { variantUnits } from "./variants.js";
import { explainedSteps } from "../../play/explain.js";
import { candidateMasks, clearCell, decodeProgress, encodeProgress, isSolved, maskValues, newGame, setEntry, toggleMark, valuesOf, wrongCells } from "./logic.js";

const MODES = [["digit", "Digit"], ["corner", "Corner"], ["centre", "Centre"]];
const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

/** The game of a Sudoku editor's view (see web/play/session.js for ctx, view and hooks). */
export function createSudokuGame(ctx, view, hooks) {
  let game = null;
  let mode = "digit";
  let wrong = new Set();
  let hint = null; // the step a hint names, shown until the next move
  const modeButtons = MODES.map(([name, label]) => el("button", {
    id: `${ctx.id}-play-mode-${name}`, type: "button", class: "mode", "aria-pressed": String(name === mode),
    onclick: () => setMode(name),
  }, label));
  const auto = el("input", { id: `${ctx.id}-play-auto`, type: "checkbox" });
  auto.addEventListener("change", () => { show(); ctx.redraw(); });
  const pad = keyPad(`${ctx.id}-play`, (key) => { press(key, false); });
  let padSymbols = "";

  const units = () => gridUnits(view.size, view.boxRows, view.boxCols, { extraUnits: variantUnits(view), boxes: !view.regions });

  function setMode(name) {
    mode = name;
    for (const [index, [modeName]] of MODES.entries()) modeButtons[index].setAttribute("aria-pressed", String(modeName === mode));
  }

  // What the renderer draws (view.play), from the game.
  function show() {
    if (!game) { delete view.play; return; }
    const values = valuesOf(game);
    view.play = {
      entries: game.entries, corner: game.corner, centre: game.centre, wrong,
      clashes: clashesIn(values, units()), // a symbol twice in a unit: red at once, as in Tatham's Solo
      candidates: auto.checked ? candidateMasks(game, units()) : null,
      highlight: values[view.selected] || 0,
      hint,
    };
    const symbols = view.symbols.slice(0, view.size);
    if (symbols !== padSymbols) {
      padSymbols = symbols;
      pad.setKeys([
        ...[...symbols].map((symbol) => ({ key: symbol, label: symbol, title: `Write ${symbol} in the selected cell` })),
        { key: "Delete", name: "clear", label: "Clear", title: "Clear the selected cell" },
      ]);
    }
  }

  // A move: wrong marks go (they were for the board before it), the page records it.
  function changed() {
    wrong = new Set();
    hint = null;
    show();
    hooks.moved();
  }

  // A key typed on the board or tapped on the pad; corner: Shift was held.
  function press(key, corner) {
    if (!game) return false;
    const index = view.selected;
    if (key === "Backspace" || key === "Delete") {
      if (clearCell(game, index)) changed();
      return true;
    }
    const value = view.symbols.indexOf(key.toUpperCase()) + 1;
    if (value < 1 || value > view.size) return false;
    const which = corner ? "corner" : mode;
    const done = which === "digit" ? setEntry(game, index, value) : toggleMark(game, index, value, which);
    if (done) changed(); else { show(); ctx.redraw(); }
    return true;
  }

  // The symbol of a key press with Shift held ("!" is Shift+1): from the key's code.
  function shiftedSymbol(event) {
    const match = /^(?:Digit|Numpad)(\d)$|^Key([A-Z])$/.exec(event.code || "");
    return match ? match[1] || match[2] : event.key;
  }

  function onKey(event) {
    if (!hooks.playing() || event.ctrlKey || event.metaKey || event.altKey) return;
    event.stopImmediatePropagation(); // the editor's own keys wait until play ends
    const n = view.size;
    const step = ARROWS[event.key];
    let used = true;
    if (step) {
      const [r, c] = [Math.floor(view.selected / n), view.selected % n];
      view.selected = ((r + step[0] + n) % n) * n + ((c + step[1] + n) % n);
      show();
      ctx.redraw();
    } else if (event.key === " ") {
      setMode(MODES[(MODES.findIndex(([name]) => name === mode) + 1) % MODES.length][0]);
    } else {
      used = press(event.shiftKey ? shiftedSymbol(event) : event.key, event.shiftKey);
    }
    if (used) event.preventDefault();
  }

  const bar = el("div", { class: "play-controls" },
      el("div", { class: "row" },
        el("div", { class: "buttons", role: "group", "aria-label": "What a key writes" }, ...modeButtons),
        el("label", { class: "field", for: auto.id }, auto, "Auto candidates")),
      pad.node,
      el("p", { class: "hint" }, "Type a symbol, or Shift+symbol for a corner mark; Space switches digit, corner and centre; arrows move; Ctrl+Z undoes."));
  // A click on the mode buttons leaves the focus on the board, so typing goes on there.
  for (const button of modeButtons) button.addEventListener("mousedown", (event) => event.preventDefault());

  return {
    bar,
    attach(canvas) {
      canvas.addEventListener("keydown", onKey, true);
      canvas.addEventListener("pointerdown", (event) => {
        if (!hooks.playing()) return;
        event.stopImmediatePropagation();
        const hit = ctx.cellAt(event);
        if (hit) { view.selected = hit[0] * view.size + hit[1]; show(); ctx.redraw(); }
        canvas.focus();
      }, true);
      for (const name of ["pointermove", "pointerup", "paste"]) {
        canvas.addEventListener(name, (event) => { if (hooks.playing()) event.stopImmediatePropagation(); }, true);
      }
    },
    start() { game = newGame(view.givens, view.size); wrong = new Set(); show(); },
    stop() { game = null; wrong = new Set(); show(); },
    encode: () => encodeProgress(game),
    decode(text) { game = decodeProgress(text, view.givens, view.size); wrong = new Set(); show(); },
    solutionOf: (response) => response.solutions[0].flat(),
    solved: (solution) => isSolved(game, { solution, units: units(), cages: view.cages || [] }),
    markErrors(solution) {
      wrong = wrongCells(game, solution);
      show();
      return wrong.size;
    },
    // Hint and Explain ("mode": "hint" and "explain"): the player's grid and centre marks, and steps for the
    // Step view (a placement each, in a trace's form: {cell, value}).
    hintFields() {
      const rows = (list) => Array.from({ length: view.size }, (_, r) => list.slice(r * view.size, (r + 1) * view.size));
      // Centre marks say what a cell may hold: hint mode's candidates (a mark missing the right
      // digit is a mistake it names).
      const marked = game.centre.some(Boolean);
      return { entries: rows(valuesOf(game)), ...(marked ? { candidates: rows(game.centre.map(maskValues)) } : {}) };
    },
    showHint(step) {
      hint = step && { cells: step.cells || [], place: step.place || [], mistake: step.technique === "mistake" };
      show();
    },
    traceSteps: (steps) => explainedSteps(steps, ([r, c, value]) => ({ cell: [r, c], value })),
  };
}
