// Playing a Star Battle (the game of web/play/session.js for the Star Battle editor; rules in
// web/kinds/star_battle/logic.js, drawing in web/kinds/star_battle/render.js's play layer).
// A tap or click on a cell of #star_battle-canvas turns it empty -> star -> dot -> empty (a
// dot: "no star here"); a drag does the same to the cells it passes that held what the first
// one held (empty cells dotted or starred, dots emptied). Keys: arrows move the cursor, Space or Enter turns the cell as a tap does,
// S or * puts a star, X or . a dot, Backspace or Delete empties the cell. Given stars stay.
// Stars that break a rule are red at once: two touching, or more than the puzzle's number in a
// row, column or region. Controls (ids): #star_battle-play-autodot (a star dots the cells
// around it).
import { el } from "../../ui/ui.js";
import { DOT, EMPTY, STAR, decodeMarks, encodeMarks, nextMark, solvesBoard, starConflicts, wrongMarks } from "./logic.js";
import { touchedCells } from "./render.js";

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
const KEY_MARKS = { s: STAR, S: STAR, "*": STAR, x: DOT, X: DOT, ".": DOT, Backspace: EMPTY, Delete: EMPTY };

/** The game of a Star Battle editor's view (see web/play/session.js for ctx, view and hooks). */
export function createStarBattleGame(ctx, view, hooks) {
  let marks = null; // a mark per cell (logic.js), or null when not playing
  let wrong = new Set();
  let drag = null; // {from, to}: a drag turns the cells it passes marked from into to
  const autodot = el("input", { id: `${ctx.id}-play-autodot`, type: "checkbox" });

  const givens = () => new Set(view.givens.map(([r, c]) => r * view.n + c));
  const starCells = () => marks.flatMap((mark, index) => (mark === STAR ? [index] : []));

  function fresh() {
    const cells = new Array(view.n * view.n).fill(EMPTY);
    for (const index of givens()) cells[index] = STAR;
    return cells;
  }
  function show() {
    if (!marks) { delete view.play; return; }
    view.play = { marks, conflicts: starConflicts(view.n, view.stars, view.labels, starCells()), wrong };
  }
  function changed() {
    wrong = new Set();
    show();
    hooks.moved();
  }
  // Sets a cell's mark (given stars stay); true when it changed. With auto-dots, a new star dots
  // the empty cells around it.
  function setMark(index, mark) {
    if (givens().has(index) || marks[index] === mark) return false;
    marks[index] = mark;
    if (mark === STAR && autodot.checked) {
      for (const other of touchedCells(view.n, [index])) if (marks[other] === EMPTY) marks[other] = DOT;
    }
    return true;
  }

  function onKey(event) {
    if (!hooks.playing() || event.ctrlKey || event.metaKey || event.altKey) return;
    event.stopImmediatePropagation(); // the editor's own keys wait until play ends
    const n = view.n;
    const [r, c] = view.cursor || [0, 0];
    const step = ARROWS[event.key];
    if (step) {
      view.cursor = [(r + step[0] + n) % n, (c + step[1] + n) % n];
      view.cursorShown = true;
      ctx.redraw();
    } else if (event.key === " " || event.key === "Enter") {
      view.cursor = [r, c];
      if (setMark(r * n + c, nextMark(marks[r * n + c]))) changed();
    } else if (event.key in KEY_MARKS) {
      view.cursor = [r, c];
      if (setMark(r * n + c, KEY_MARKS[event.key])) changed();
    } else {
      return;
    }
    event.preventDefault();
  }

  return {
    bar: el("div", { class: "play-controls" },
      el("label", { class: "field", for: autodot.id }, autodot, "Dot the cells around a new star"),
      el("p", { class: "hint" }, "Tap a cell for a star, again for a dot (no star here), again to empty it; drag to dot or star several. " +
        "Keys: arrows move, Space turns the cell, S a star, X a dot, Delete empties, Ctrl+Z undoes.")),
    attach(canvas) {
      canvas.addEventListener("keydown", onKey, true);
      canvas.addEventListener("pointerdown", (event) => {
        if (!hooks.playing()) return;
        event.stopImmediatePropagation();
        event.preventDefault();
        canvas.focus();
        const hit = ctx.cellAt(event);
        if (!hit) return;
        canvas.setPointerCapture?.(event.pointerId);
        const index = hit[0] * view.n + hit[1];
        view.cursor = hit;
        drag = { from: marks[index], to: nextMark(marks[index]) };
        if (setMark(index, drag.to)) changed(); else ctx.redraw();
      }, true);
      canvas.addEventListener("pointermove", (event) => {
        if (!hooks.playing()) return;
        event.stopImmediatePropagation();
        if (drag === null || !(event.buttons & 1)) return;
        const hit = ctx.cellAt(event);
        if (!hit) return;
        const index = hit[0] * view.n + hit[1];
        // Only cells marked as the first one was: a drag of dots over empty cells leaves the
        // stars it crosses alone.
        if (marks[index] !== drag.from) return;
        view.cursor = hit;
        if (setMark(index, drag.to)) changed();
      }, true);
      const end = (event) => {
        if (!hooks.playing()) return;
        event.stopImmediatePropagation();
        drag = null;
      };
      canvas.addEventListener("pointerup", end, true);
      canvas.addEventListener("pointercancel", end, true);
      // The editor's paste (a new puzzle) waits until play ends.
      canvas.addEventListener("paste", (event) => { if (hooks.playing()) event.stopImmediatePropagation(); }, true);
    },
    start() { marks = fresh(); wrong = new Set(); show(); },
    stop() { marks = null; wrong = new Set(); show(); },
    encode: () => encodeMarks(marks),
    decode(text) {
      const read = decodeMarks(text, view.n * view.n);
      for (const index of givens()) read[index] = STAR;
      marks = read;
      wrong = new Set();
      show();
    },
    solutionOf: (response) => response.solutions[0],
    // Solved when the stars keep every rule: a board that does is a solution of the puzzle.
    solved: () => Boolean(marks) && solvesBoard(view.n, view.stars, view.labels, starCells()),
    markErrors(solution) {
      wrong = wrongMarks(marks, solution);
      show();
      return wrong.size;
    },
  };
}
