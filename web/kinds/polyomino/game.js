// Playing a polyomino tiling (the game of web/play/session.js for the polyomino editor; rules
// in web/kinds/polyomino/logic.js, drawing in web/kinds/polyomino/render.js's play layer).
// Pick a piece (#polyomino-play-piece-<k>, one button per copy; its shape shown), move it over
// #polyomino-canvas and click or tap a cell to drop it there; R (or #polyomino-play-rotate)
// turns it, F (or #polyomino-play-flip, when mirror images are allowed) flips it, Escape puts it
// back. A click on a placed piece picks it up again. Keys on the board: arrows move, Enter or
// Space drops (or picks up), Delete sends the piece under the cursor back to the tray.
import { el } from "../../ui/ui.js";
import { shapePicture } from "./editor.js";
import { readPieces } from "./rules.js";
import { decodePlacements, encodePlacements, fits, flip, isTiled, pieceCopies, placedCells, placementAt, rotate, wrongPlacements } from "./logic.js";

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

/** The game of a polyomino editor (see web/play/session.js for ctx, view and hooks); puzzle()
 *  is the editor's puzzle ({board, pieces, reflections}). */
export function createPolyominoGame(ctx, view, hooks, puzzle) {
  let pieces = [];
  let reflections = true;
  let placements = null;
  let held = null; // {index, orient}: the piece in hand
  let hover = null; // the cell the piece in hand is over
  let wrong = new Set();
  let board = null; // the canvas, once attached
  const tray = el("div", { id: `${ctx.id}-play-tray`, class: "play-tray", role: "group", "aria-label": "Pieces to place" });
  const rotateButton = el("button", { id: `${ctx.id}-play-rotate`, type: "button", title: "Turn the piece in hand (R)" }, "↻ Rotate");
  const flipButton = el("button", { id: `${ctx.id}-play-flip`, type: "button", title: "Flip the piece in hand (F)" }, "⇋ Flip");
  for (const button of [rotateButton, flipButton]) button.addEventListener("mousedown", (event) => event.preventDefault());
  rotateButton.addEventListener("click", () => turn(rotate));
  flipButton.addEventListener("click", () => turn(flip));

  function show() {
    if (!placements) { delete view.play; return; }
    const ghost = held && hover ? placedCells(pieces[held.index], held.orient, hover, reflections) : null;
    view.play = {
      placements: placements.map((placement, index) => ({ piece: pieces[placement.index].name, cells: placement.cells, wrong: wrong.has(index) })),
      ghost: ghost && { cells: ghost, fits: fits(view.board, placements, ghost), piece: pieces[held.index].name },
      cursor: hover,
    };
    const used = new Set(placements.map((placement) => placement.index));
    for (const button of tray.children) {
      const index = Number(button.dataset.index);
      button.hidden = used.has(index);
      button.setAttribute("aria-pressed", String(held?.index === index));
    }
    rotateButton.disabled = !held;
    flipButton.disabled = !held || !reflections;
  }
  function changed(next) {
    placements = next;
    wrong = new Set();
    show();
    hooks.moved();
  }
  function turn(how) {
    if (!held) return;
    held.orient = how(pieces[held.index], held.orient, reflections);
    show();
    ctx.redraw();
  }
  // A piece taken from the tray: the board gets the focus, so R, F, arrows and Enter go on there.
  function pick(index) {
    held = held?.index === index ? null : { index, orient: 0 };
    show();
    ctx.redraw();
    board?.focus({ preventScroll: true });
  }
  // Drop the piece in hand at cell, or pick up the piece there.
  function act(cell) {
    hover = cell;
    if (held) {
      const cells = placedCells(pieces[held.index], held.orient, cell, reflections);
      if (!fits(view.board, placements, cells)) { show(); ctx.redraw(); return; }
      const placement = { ...held, at: cell, cells };
      held = null;
      changed([...placements, placement]);
      return;
    }
    const at = placementAt(placements, cell);
    if (at < 0) return;
    const { index, orient } = placements[at];
    held = { index, orient };
    changed(placements.filter((_, k) => k !== at));
  }
  // The tray's buttons, one a copy of each piece, for the puzzle now on the board.
  function fillTray() {
    const current = puzzle();
    reflections = current.reflections !== false;
    pieces = pieceCopies(readPieces(current.pieces, ctx.facts), ctx.facts.pieces);
    tray.replaceChildren(...pieces.map((piece, index) => el("button", {
      id: `${ctx.id}-play-piece-${index}`, type: "button", class: "play-piece", "data-index": index, "aria-label": `Piece ${piece.name}`,
      onclick: () => pick(index),
    }, shapePicture(piece.cells), el("span", { class: "piece-name" }, piece.name))));
  }

  function onKey(event) {
    if (!hooks.playing() || event.ctrlKey || event.metaKey || event.altKey) return;
    event.stopImmediatePropagation(); // the editor's own keys wait until play ends
    const rows = view.board.length;
    const cols = view.board[0].length;
    const [r, c] = hover || [0, 0]; // the keyboard starts at the top left
    const step = ARROWS[event.key];
    const key = event.key.toLowerCase();
    if (step) {
      hover = [(r + step[0] + rows) % rows, (c + step[1] + cols) % cols];
      show();
      ctx.redraw();
    } else if (key === "r") turn(rotate);
    else if (key === "f") turn(flip);
    else if (event.key === "Enter" || event.key === " ") act([r, c]);
    else if (event.key === "Escape") { held = null; show(); ctx.redraw(); }
    else if (event.key === "Delete" || event.key === "Backspace") {
      const at = placementAt(placements, [r, c]);
      if (at >= 0) changed(placements.filter((_, k) => k !== at));
    } else return;
    event.preventDefault();
  }

  return {
    bar: el("div", { class: "play-controls" },
      tray,
      el("div", { class: "buttons" }, rotateButton, flipButton),
      el("p", { class: "hint" }, "Pick a piece, then click or tap where it goes; R turns it, F flips it, Escape puts it back; " +
        "click a placed piece to move it. Keys: arrows move, Enter drops, Delete takes a piece off, Ctrl+Z undoes.")),
    attach(canvas) {
      board = canvas;
      canvas.addEventListener("keydown", onKey, true);
      canvas.addEventListener("pointerdown", (event) => {
        if (!hooks.playing()) return;
        event.stopImmediatePropagation();
        event.preventDefault();
        canvas.focus();
        const hit = ctx.cellAt(event);
        if (hit) act(hit);
      }, true);
      canvas.addEventListener("pointermove", (event) => {
        if (!hooks.playing()) return;
        event.stopImmediatePropagation();
        const hit = ctx.cellAt(event);
        if (!held || !hit || (hover && hit[0] === hover[0] && hit[1] === hover[1])) return;
        hover = hit;
        show();
        ctx.redraw();
      }, true);
      canvas.addEventListener("pointerup", (event) => { if (hooks.playing()) event.stopImmediatePropagation(); }, true);
    },
    start() { fillTray(); placements = []; held = null; wrong = new Set(); show(); },
    stop() { placements = null; held = null; hover = null; wrong = new Set(); show(); },
    encode: () => encodePlacements(placements),
    decode(text) {
      fillTray();
      placements = decodePlacements(text, view.board, pieces, reflections);
      held = null;
      wrong = new Set();
      show();
    },
    solutionOf: (response) => response.solutions[0],
    // Check turns the solution by the board's symmetries (wrongPlacements), so the puzzle needs
    // one tiling up to symmetry, as generate makes them.
    checkFields: { symmetry: "distinct" },
    solved: () => isTiled(view.board, placements),
    markErrors(solution) {
      wrong = wrongPlacements(view.board, placements, pieces, solution);
      show();
      return wrong.size;
    },
  };
}
