// Playing a Shikaku (the game of web/play/session.js for the Shikaku editor; rules in
// web/kinds/shikaku/logic.js, drawing in web/kinds/shikaku/render.js's play layer).
// Drag over #shikaku-canvas (mouse, pen or touch) to draw a rectangle; it replaces those it
// overlaps; a tap on a rectangle without dragging removes it. Keys: arrows move the cursor,
// Enter or Space starts a rectangle at the cursor and a second press ends it there (Escape
// drops it), Backspace/Delete remove the rectangle under the cursor. Rectangles holding one
// clue of their area are coloured; the others are drawn in red.
import { el } from "../../ui/ui.js";
import { explainedSteps } from "../../play/explain.js";
import { covers, decodeRectangles, encodeRectangles, isComplete, judgeRectangles, placeRectangle, rectangleBetween, removeAt, wrongRectangles } from "./logic.js";

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

/** The game of a Shikaku editor's view (see web/play/session.js for ctx, view and hooks). */
export function createShikakuGame(ctx, view, hooks) {
  let rects = null;
  let anchor = null; // the cell a rectangle being drawn started from
  let wrong = new Set();
  let hint = null; // the step a hint names, shown until the next move

  function show(drag = null) {
    if (!rects) { delete view.play; return; }
    const verdicts = judgeRectangles(rects, view.clues);
    view.play = { rects: rects.map((rect, index) => ({ rect, good: verdicts[index] === "good", wrong: wrong.has(rect.join(",")) })), drag, hint };
  }
  function changed(next) {
    rects = next;
    wrong = new Set();
    hint = null;
    show();
    hooks.moved();
  }
  // A rectangle from the anchor to cell, or (a tap on a rectangle) that rectangle removed.
  function finish(cell, tapped) {
    const start = anchor;
    anchor = null;
    const [r, c] = cell;
    if (tapped && start[0] === r && start[1] === c && rects.some((rect) => covers(rect, r, c))) changed(removeAt(rects, r, c));
    else changed(placeRectangle(rects, rectangleBetween(start, cell)));
  }

  function onKey(event) {
    if (!hooks.playing() || event.ctrlKey || event.metaKey || event.altKey) return;
    event.stopImmediatePropagation(); // the editor's own keys wait until play ends
    const [r, c] = view.selected || [0, 0];
    const step = ARROWS[event.key];
    if (step) {
      view.selected = [(r + step[0] + view.rows) % view.rows, (c + step[1] + view.cols) % view.cols];
      show(anchor ? rectangleBetween(anchor, view.selected) : null);
      ctx.redraw();
    } else if (event.key === "Enter" || event.key === " ") {
      if (anchor) finish([r, c], false);
      else { anchor = [r, c]; show(rectangleBetween(anchor, anchor)); ctx.redraw(); }
    } else if (event.key === "Escape" && anchor) {
      anchor = null;
      show();
      ctx.redraw();
    } else if (event.key === "Backspace" || event.key === "Delete") {
      if (rects.some((rect) => covers(rect, r, c))) changed(removeAt(rects, r, c));
    } else {
      return;
    }
    event.preventDefault();
  }

  return {
    bar: el("p", { class: "hint" }, "Drag a rectangle round each number, as many cells as the number says (a tap on a rectangle removes it). " +
      "Keys: arrows move, Enter starts and ends a rectangle, Delete removes one, Ctrl+Z undoes."),
    attach(canvas) {
      canvas.addEventListener("keydown", onKey, true);
      let dragging = false;
      let moved = false;
      canvas.addEventListener("pointerdown", (event) => {
        if (!hooks.playing()) return;
        event.stopImmediatePropagation();
        event.preventDefault();
        canvas.focus();
        const hit = ctx.cellAt(event);
        if (!hit) return;
        canvas.setPointerCapture?.(event.pointerId);
        dragging = true;
        moved = false;
        anchor = hit;
        view.selected = hit;
        show(rectangleBetween(anchor, hit));
        ctx.redraw();
      }, true);
      canvas.addEventListener("pointermove", (event) => {
        if (!hooks.playing()) return;
        event.stopImmediatePropagation();
        if (!dragging || !anchor) return;
        const hit = ctx.cellAt(event);
        if (!hit || (hit[0] === view.selected[0] && hit[1] === view.selected[1])) return;
        moved = true;
        view.selected = hit;
        show(rectangleBetween(anchor, hit));
        ctx.redraw();
      }, true);
      const end = (event) => {
        if (!hooks.playing()) return;
        event.stopImmediatePropagation();
        if (!dragging || !anchor) return;
        dragging = false;
        if (event.type === "pointercancel") { anchor = null; show(); ctx.redraw(); return; }
        finish(view.selected, !moved);
      };
      canvas.addEventListener("pointerup", end, true);
      canvas.addEventListener("pointercancel", end, true);
    },
    start() { rects = []; anchor = null; wrong = new Set(); show(); },
    stop() { rects = null; anchor = null; wrong = new Set(); show(); },
    encode: () => encodeRectangles(rects),
    decode(text) { rects = decodeRectangles(text, view.rows, view.cols); anchor = null; wrong = new Set(); show(); },
    solutionOf: (response) => response.solutions[0],
    solved: () => isComplete(rects, view.rows, view.cols, view.clues),
    markErrors(solution) {
      wrong = wrongRectangles(rects, solution);
      show();
      return wrong.size;
    },
    // Hint and Explain: the rectangles drawn, and steps whose places are trace places already.
    hintFields: () => ({ entries: rects.map((rect) => [...rect]) }),
    showHint(step) {
      hint = step && { cells: step.cells || [], place: step.place || [], mistake: step.technique === "mistake" };
      show();
    },
    traceSteps: (steps) => explainedSteps(steps, (place) => place),
  };
}
