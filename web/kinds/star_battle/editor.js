// Star Battle editor. Controls (ids): #star_battle-n (the board's side, bounded by Python's
// max_n), #star_battle-stars (stars in every row, column and region: 1 to (n + 1) / 2),
// #star_battle-clear (every cell in region A, to paint the regions afresh), #star_battle-url (a puzz.link
// starbattle link) + #star_battle-load-url (reads it on the page, web/kinds/star_battle/paste.js,
// and solves it; Enter in the box does the same), #star_battle-export-url (writes the board's
// link into the box; a link pasted on the board is loaded the same way), #star_battle-solve (limit 2: also says whether the solution is unique),
// #star_battle-count. Under the board, #star_battle-brushes: what a drag over the board paints,
// #star_battle-brush-extend ("Drag a region": the region the drag starts in grows over the cells
// it passes), #star_battle-brush-A, -B, ... (that region) or #star_battle-brush-given (a tap
// gives a star there or takes it off: stars placed beforehand, which the solver keeps; a drag
// does the same to the cells it passes); #star_battle-regions-note says what keeps the map from
// being a board (not n regions, a region in pieces, given stars that break a rule: red). Keys on
// the board: arrows move the cursor, a region's letter paints the cell and moves on (a map is
// typed row by row), * gives a star or takes it off, Space or Enter does what the brush does.
// Share fragment: #star_battle:<n>:<stars>:<regions, run-length>[:<r>.<c>,... given stars]
// (web/kinds/star_battle/logic.js, boardText).
import { clampInt, el, labelled } from "../../ui/ui.js";
import { cellCursor, countWords, linkBox, rovingTabStop, uniquenessWords } from "../../ui/widgets.js";
import { onThemeChange, pageTheme } from "../../render/theme.js";
import { LABELS, boardText, mostStars, readBoardText, regionWords, renameRegions, starConflicts } from "./logic.js";
import { isStarBattleUrl, readStarBattleUrl, starBattleUrl } from "./paste.js";
import { regionColours } from "./render.js";

// A 10 x 10 board with two stars a line and one solution (Python's generate mode: seed 1, medium).
// The brush of given stars (no region's label: those are letters).
const GIVEN = "*";

const EXAMPLE = {
  stars: 2,
  regions: ["ABBBBBBBBB", "AACDBDBBBB", "AACDBDBBEE", "ACCDDDDDEE", "AFCDDGGHEE",
    "AFFFGGHHHH", "IFIFGGHHHH", "IIIIIGHHHH", "IIIJJGGHHH", "IIJJJJJJJH"],
};

/**
 * The board {n, stars, labels, givens} of a request's puzzle ({regions, stars, givens?}: regions
 * rows of characters, or one string of rows separated by whitespace), its regions renamed with
 * the page's letters. Throws an Error (a sentence's words) for one that is not n x n.
 */
export function boardOfPuzzle(puzzle, maxN) {
  const rows = typeof puzzle?.regions === "string" ? puzzle.regions.split(/\s+/).filter(Boolean) : puzzle?.regions;
  if (!Array.isArray(rows) || !rows.length || !rows.every((row) => typeof row === "string")) {
    throw new Error("regions must be the board's rows, one character per cell naming its region");
  }
  const n = rows.length;
  if (n > maxN) throw new Error(`the board has ${n} rows; the largest is ${maxN} x ${maxN}`);
  rows.forEach((row, r) => {
    if ([...row].length !== n) throw new Error(`row ${r + 1} of the regions has ${[...row].length} characters; a board of ${n} rows needs ${n} in each`);
  });
  const stars = Number(puzzle.stars);
  if (!Number.isInteger(stars) || stars < 1 || stars > mostStars(n)) throw new Error(`stars must be a whole number from 1 to ${mostStars(n)} on a ${n} x ${n} board (got ${puzzle.stars})`);
  const givens = (puzzle.givens ?? []).map((given) => {
    const [r, c] = Array.isArray(given) ? given.map(Number) : [];
    if (!(Number.isInteger(r) && Number.isInteger(c) && r >= 0 && c >= 0 && r < n && c < n)) throw new Error(`bad given star ${JSON.stringify(given)} for a ${n} x ${n} board`);
    return [r, c];
  });
  return { n, stars, labels: renameRegions(rows.map((row) => [...row]).flat()), givens };
}

/** @param {import("../contract.js").KindContext} ctx */
export function createStarBattle(ctx) {
  const maxN = ctx.facts.limits.max_n;
  const view = { n: 0, stars: 1, labels: [], givens: [], solution: null, colours: null, cursor: null, cursorShown: false, givenClashes: new Set() };
  // What a drag does: null grows the region it starts in, a label paints that region, GIVEN
  // gives stars or takes them off.
  let brush = null;
  let stroke = null; // while the pointer paints: {label} or {given: true | false}
  const side = labelled("Board side n", { id: "star_battle-n", type: "number", min: "1", max: String(maxN) });
  const starsField = labelled("Stars per line", { id: "star_battle-stars", type: "number", min: "1" });
  const clearButton = el("button", { id: "star_battle-clear", type: "button", title: "Every cell in region A and no given stars, to paint the regions afresh" }, "Clear regions");
  const url = linkBox(ctx.id, {
    label: "puzz.link URL",
    placeholder: "https://puzz.link/p?starbattle/…",
    load: solveUrl,
    makeUrl: () => starBattleUrl(view.n, view.stars, view.labels),
  });
  const solveButton = el("button", { id: "star_battle-solve", type: "button", class: "solve-action primary" }, "Solve");
  const countButton = el("button", { id: "star_battle-count", type: "button", class: "solve-action", "data-mode": "count" }, "Count");
  const brushes = el("div", { id: "star_battle-brushes", class: "keypad", role: "group", "aria-label": "What a drag paints" });
  const note = el("p", { id: "star_battle-regions-note", class: "hint clash-note", "aria-live": "polite" });
  // A click on a brush leaves the focus on the board, so its keys keep working.
  brushes.addEventListener("mousedown", (event) => event.preventDefault());
  const brushStop = rovingTabStop(brushes, "button");

  // The brushes: "Drag a region", then a swatch per label (the regions' own colours).
  function showBrushes() {
    const used = new Set(view.labels);
    const count = Math.max(view.n, LABELS.split("").filter((label) => used.has(label)).length);
    const paint = pageTheme().colour;
    const buttons = [el("button", {
      id: "star_battle-brush-extend", type: "button", class: "key wide mode", "aria-pressed": String(brush === null),
      title: "A drag grows the region it starts in over the cells it passes",
    }, "Drag a region"), el("button", {
      id: "star_battle-brush-given", type: "button", class: "key wide mode", "aria-pressed": String(brush === GIVEN),
      title: "A tap gives a star there (placed beforehand) or takes it off", "data-label": GIVEN,
    }, "★ Given")];
    for (const label of LABELS.slice(0, count)) {
      const button = el("button", {
        id: `star_battle-brush-${label}`, type: "button", class: "key mode", "aria-pressed": String(brush === label),
        title: `Paint region ${label}`, "aria-label": `Paint region ${label}`, "data-label": label,
      }, label);
      const fill = view.colours?.get(label);
      if (fill) button.style.background = paint(fill);
      buttons.push(button);
    }
    brushes.replaceChildren(...buttons);
    brushStop.refresh();
  }
  // The swatches take the board's colours, in the page's light or dark theme.
  onThemeChange(() => showBrushes());
  brushes.addEventListener("click", (event) => {
    const button = event.target.closest?.("button");
    if (!button) return;
    brush = button.dataset.label ?? null;
    showBrushes();
  });

  function sync() {
    if (!stroke) view.colours = regionColours(view.labels, view.n);
    const indices = view.givens.map(([r, c]) => r * view.n + c);
    view.givenClashes = starConflicts(view.n, view.stars, view.labels, indices);
    const clashes = view.givenClashes.size;
    note.textContent = [regionWords(view.n, view.labels),
      clashes ? `${clashes} given ${clashes === 1 ? "star breaks" : "stars break"} a rule (marked in red): touching another, or too many in a line.` : ""]
      .filter(Boolean).join(" ");
    side.input.value = String(view.n);
    starsField.input.value = String(view.stars);
    starsField.input.max = String(mostStars(view.n));
    if (!stroke) showBrushes();
  }
  function load({ n, stars, labels, givens = [] }) {
    if (brush !== null && brush !== GIVEN && !LABELS.slice(0, Math.max(n, 1)).includes(brush)) brush = null;
    Object.assign(view, { n, stars, labels: [...labels], givens: givens.map((given) => [...given]), solution: null });
    if (view.cursor && (view.cursor[0] >= n || view.cursor[1] >= n)) view.cursor = null;
    sync();
  }
  load(boardOfPuzzle(EXAMPLE, maxN));

  side.input.addEventListener("change", () => {
    const n = clampInt(side.input.value, 1, maxN, view.n);
    const old = view.n;
    // The cells still on the board keep their regions; new ones take the nearest cell's.
    const labels = Array.from({ length: n * n }, (_, index) => {
      const [r, c] = [Math.min(Math.floor(index / n), old - 1), Math.min(index % n, old - 1)];
      return view.labels[r * old + c];
    });
    load({ n, stars: Math.min(view.stars, mostStars(n)), labels: renameRegions(labels), givens: view.givens.filter(([r, c]) => r < n && c < n) });
    ctx.changed();
  });
  starsField.input.addEventListener("change", () => {
    view.stars = clampInt(starsField.input.value, 1, mostStars(view.n), view.stars);
    sync();
    ctx.changed();
  });
  clearButton.addEventListener("click", () => {
    load({ n: view.n, stars: view.stars, labels: new Array(view.n * view.n).fill(LABELS[0]), givens: [] });
    ctx.changed();
  });

  const puzzle = () => {
    const rows = Array.from({ length: view.n }, (_, r) => view.labels.slice(r * view.n, (r + 1) * view.n).join(""));
    return { regions: rows, stars: view.stars, ...(view.givens.length ? { givens: view.givens.map((given) => [...given]) } : {}) };
  };
  const run = (mode) => ctx.run({ kind: ctx.id, mode, limit: mode === "solve" ? 2 : undefined, puzzle: puzzle() });
  solveButton.addEventListener("click", () => run("solve"));
  countButton.addEventListener("click", () => run("count"));
  // A link is read here (web/kinds/star_battle/paste.js), drawn and solved.
  function solveUrl(text) {
    let read;
    try {
      read = readStarBattleUrl(text, maxN);
      if (read === null) throw new Error("this is not a Star Battle link: paste one such as https://puzz.link/p?starbattle/6/6/1/…");
      load(boardOfPuzzle(read, maxN));
    } catch (error) {
      ctx.fail(error.message);
      return;
    }
    ctx.changed();
    run("solve");
  }

  // Gives a star on cell (r, c) (on true) or takes it off; true when it changed.
  function setGiven([r, c], on) {
    const at = view.givens.findIndex(([gr, gc]) => gr === r && gc === c);
    if ((at >= 0) === on) return false;
    if (on) view.givens.push([r, c]); else view.givens.splice(at, 1);
    view.givens.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    sync();
    ctx.changed();
    return true;
  }
  const hasGiven = ([r, c]) => view.givens.some(([gr, gc]) => gr === r && gc === c);
  // What a stroke does to a cell.
  const apply = (cell) => ("given" in stroke ? setGiven(cell, stroke.given) : paintCell(cell, stroke.label));

  // Paints cell (r, c) with label; true when it changed.
  function paintCell([r, c], label) {
    const index = r * view.n + c;
    if (view.labels[index] === label) return false;
    view.labels[index] = label;
    // A region new in this stroke gets the first colour until the stroke ends and all are
    // coloured again (the others keep theirs while the pointer paints).
    if (!view.colours.has(label)) view.colours.set(label, regionColours([label], 1).get(label));
    sync();
    ctx.changed();
    return true;
  }

  return {
    view,
    controls: el("div", { class: "controls" },
      el("div", { class: "row" }, side.wrap, starsField.wrap, clearButton),
      url.row,
      el("p", { class: "hint" }, "Drag over the board to paint regions: from inside a region to grow it, or pick a letter under the board and paint that region; " +
        "★ Given places stars beforehand. Keys: arrows move, a region's letter paints the cell and moves on, * gives a star.")),
    pad: el("div", { class: "pad-column" }, brushes, note),
    actions: el("div", { class: "buttons" }, solveButton, countButton),
    attachCanvas(canvas) {
      canvas.addEventListener("pointerdown", (event) => {
        const hit = event.button === 0 ? ctx.cellAt(event) : null;
        if (!hit) return;
        canvas.setPointerCapture?.(event.pointerId);
        if (brush === GIVEN) stroke = { given: !hasGiven(hit) };
        else stroke = { label: brush ?? view.labels[hit[0] * view.n + hit[1]] };
        apply(hit);
      });
      canvas.addEventListener("pointermove", (event) => {
        if (!stroke || !(event.buttons & 1)) return;
        const hit = ctx.cellAt(event);
        if (hit) apply(hit);
      });
      const end = () => {
        if (!stroke) return;
        stroke = null;
        sync();
        ctx.redraw();
      };
      canvas.addEventListener("pointerup", end);
      canvas.addEventListener("pointercancel", end);
      // A link pasted on the board is loaded and solved as the URL box does.
      canvas.addEventListener("paste", (event) => {
        const text = event.clipboardData?.getData("text") ?? "";
        if (!isStarBattleUrl(text)) return;
        event.preventDefault();
        url.input.value = text.trim();
        solveUrl(text);
      });
      cellCursor(canvas, {
        cursor: { get: () => view.cursor, set: (cell) => { view.cursor = cell; }, size: () => [view.n, view.n] },
        cellAt: ctx.cellAt,
        onKey(event, [r, c]) {
          const shown = LABELS.slice(0, Math.max(view.n, 1));
          const typed = shown.includes(event.key) ? event.key : shown.includes(event.key.toUpperCase()) ? event.key.toUpperCase() : null;
          if (event.key.length === 1 && typed) {
            brush = typed;
            paintCell([r, c], typed);
            const next = r * view.n + c + 1;
            if (next < view.n * view.n) view.cursor = [Math.floor(next / view.n), next % view.n];
            showBrushes();
            ctx.redraw();
            return true;
          }
          if (event.key === "*" || ((event.key === " " || event.key === "Enter") && brush === GIVEN)) {
            setGiven([r, c], !hasGiven([r, c]));
            return true;
          }
          if ((event.key === " " || event.key === "Enter") && brush !== null) {
            paintCell([r, c], brush);
            return true;
          }
          return false;
        },
      }, ctx.redraw);
      const show = (shown) => () => { view.cursorShown = shown; ctx.redraw(); };
      canvas.addEventListener("focus", show(true));
      canvas.addEventListener("blur", show(false));
    },
    describe: (response) => (response.mode === "count" ? countWords(response, "solution", "solutions") : uniquenessWords(response)),
    setSolution(solution) { view.solution = solution || null; },
    // Each cell holding a star: the page marks the cells where two solutions differ.
    solutionCells: (solution) => new Map(solution.flatMap((row, r) => [...row].flatMap((mark, c) => (mark === "*" ? [[`${r},${c}`, "star"]] : [])))),
    clearSolution() { view.solution = null; },
    encode: () => boardText(view),
    decode(text) { load(readBoardText(text, maxN)); },
    exportRequest: () => ({ mode: "solve", limit: 2, puzzle: puzzle() }),
    heatmapLabel: () => "stars",
    importRequest(data) {
      const given = data.puzzle;
      if (typeof given?.url === "string") {
        url.input.value = given.url;
        const read = readStarBattleUrl(given.url, maxN);
        if (read === null) throw new Error("puzzle.url is not a Star Battle link");
        load(boardOfPuzzle(read, maxN));
        return;
      }
      load(boardOfPuzzle(given, maxN));
    },
  };
}
