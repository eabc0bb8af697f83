// The contract a puzzle kind fills in (after Simon Tatham's `struct game`), and how the page
// takes a kind's folder in. A kind is a folder, web/kinds/KIND/ (KIND its name in the protocol),
// whose index.js exports `kind` (the Kind below): an editor, a renderer and, for a kind that
// generates puzzles, the size fields of "New puzzle" and a game for play mode; the folder holds
// everything of the kind's own (rules, share-link codec, readers of other programs' forms).
// The page (web/app.js) learns the kinds and their tab order from Python (the keys of
// facts.json's "kinds"), imports each folder's index.js by that name, and does everything else
// the same way for every kind: tab and panel, engine menu, solving with progress, answer and
// stats, browsing solutions, share links, JSON import/export, PNG/SVG export, the help line
// atop the panel (facts.help, web/ui/help.js), New puzzle and play mode (web/play/session.js),
// and watching the search (web/watch/explore.js: the Step view playing a trace, heatmaps over
// the board, engines side by side). The kind's facts (title, help, engines, limits and its own
// facts such as pieces or sizes) come from Python through facts.json; an editor reads them from
// ctx.facts and types none of them again.
import { playable } from "../play/session.js";

/**
 * What the page gives an editor (its only way to reach the page and the solver).
 * @typedef {object} KindContext
 * @property {string} id            the kind's name in the protocol ("sudoku"); prefix of its ids
 * @property {object} facts         facts.json's entry for the kind: {title, help, engines: [{name,
 *                                  title, description}], default_engine, limits, ...its own}
 * @property {(request: object, options?: {quiet?: boolean, asIs?: boolean}) => Promise<object|null>} run
 *                                  solve through the page: progress, answer in words
 *                                  (editor.describe), stats, solutions to browse; quiet: progress
 *                                  and errors only, the response handed back; asIs: without the
 *                                  panel's engine and workers (play mode's generate, hint, explain)
 * @property {() => void} changed   the puzzle was edited: drop the answer, redraw, update the link
 * @property {() => void} redraw    draw the board again (view changed, puzzle did not)
 * @property {(message: string) => void} fail   a puzzle the editor cannot send: say why
 * @property {(event: PointerEvent) => *} cellAt   the renderer's cell under a pointer event
 *                                  (renderer.cellAt on the editor's view), or null
 */

/**
 * What an editor factory, create<Kind>(ctx), returns. Ids of its controls start with ctx.id.
 * @typedef {object} Editor
 * @property {object} view          the state its renderer draws
 * @property {Node} controls        editing controls (left column)
 * @property {Node} actions         its solve buttons (class "solve-action": disabled while busy)
 * @property {Node} [extra]         shown under the answer (e.g. a list of solutions)
 * @property {Node} [pad]           shown right under the board: on-screen keys (web/ui/keypad.js)
 * @property {(canvas: HTMLCanvasElement) => void} [attachCanvas]  pointer and key editing
 * @property {(response: object) => string|Node} describe    the answer in words (a node
 *                                  when it holds a long number: widgets' countWords/foundWords)
 * @property {(response: object) => void} [showResponse] anything else from a successful answer
 * @property {(solution: *, index: number) => void} setSolution   show one solution (null: none)
 * @property {(solution: *) => Map<string, string>} [solutionCells]   what each board cell holds in a
 *                                  solution ("r,c" -> any text): the page marks the cells where two
 *                                  solutions differ (its renderer must have a gridLayout layout)
 * @property {() => void} [clearSolution]   forget a shown answer (the puzzle was edited)
 * @property {() => string} encode          the puzzle as share-link text (no "&"); also the
 *                                          state undo and redo keep (web/ui/history.js)
 * @property {(text: string) => void} decode   load share-link text; throws Error with a reason
 * @property {() => object} exportRequest   the request to save as JSON (without kind and engine);
 *                                  also what engines side by side run, and (mode set to
 *                                  "trace") what the Step view traces
 * @property {(request: object) => void} importRequest   load a request; throws Error with a reason
 * @property {() => object} [traceRequest]   the request to trace when exportRequest's needs
 *                                  changing (polyomino: symmetry "all")
 * @property {(open: (steps: object[], summary: string) => void) => void} [useStepView]   given
 *                                  the Step view's player (web/watch/stepview.js), for steps of
 *                                  the editor's own in trace form (play mode's Explain)
 * @property {(key: string) => string} [heatmapLabel]   words for a heatmap key ("piece I",
 *                                  "digit 5", "clue 3 (...)"); the key itself without it
 * @property {() => Array<{mode: string, what: string, engine: string}>} [defaultEngines]
 *                                  where Python's default engine depends on the puzzle (the
 *                                  kind's facts "default_rules"): the engine it takes per mode
 *                                  for the puzzle shown, for the engine menu's "Default" label
 */

/**
 * A renderer draws through the drawing seam (web/render/draw.js), so one function serves the screen,
 * the PNG and the SVG export.
 * @typedef {object} Renderer
 * @property {(d: object, view: object, options: {exporting?: boolean}) => void} draw
 *           exporting: leave out editing marks such as the cursor
 * @property {(view: object, x: number, y: number) => *} [cellAt]   the cell at a point, or null
 *           (for an editor that edits on the board: ctx.cellAt)
 * @property {(d: object, view: object, frame: TraceFrame, options: {palette?: object}) => void} [drawStep]
 *           the board at one step of a trace (the Step view): what frame.placed holds on the
 *           board, tried placements visibly apart from forced ones, frame.focus's item marked
 * @property {(view: object, row: number, col: number) => number[]} [cellBox]   [x, y, size]
 *           of a cell, for overlays drawn over the board (heatmaps)
 * Every draw gets options.palette (web/render/palette.js: colours a theme may change).
 */

/**
 * The board at one step of a trace, from web/watch/stepview.js's replay of the protocol's rule.
 * @typedef {object} TraceFrame
 * @property {number} index         the step's position in the trace
 * @property {object} step          the step ({type, depth, text, place?, item?, ...})
 * @property {{place: object, forced: boolean, index: number}[]} placed   what is on the board,
 *                                  bottom of the stack first (forced: a force step, else a try)
 * @property {object|null} focus    the choose (or Shikaku split) step the current step follows:
 *                                  its item (or clue) is the one to highlight
 * @property {object[]} steps       the whole trace (e.g. the domino DP's cell steps)
 * @property {object} palette       colours (web/render/palette.js)
 */

/**
 * The size fields of a kind's "New puzzle" (web/play/session.js), bounded by what Python's
 * generate mode accepts (facts.json: kinds.KIND.generate, given as `generate`); ids start with
 * kindId. puzzle() is the "puzzle" of a generate request; of(puzzle), that of the request which
 * made a puzzle; show(fields) sets the fields to it (New puzzle follows a linked game's size).
 * @typedef {(kindId: string, generate: object) => {node: Node, puzzle: () => object,
 *   of?: (puzzle: object) => object, show?: (fields: object) => void}} SizeFields
 */

/**
 * What a kind's folder exports from its index.js, as `kind`.
 * @typedef {object} Kind
 * @property {(ctx: KindContext) => Editor} editor   the editor factory
 * @property {Renderer} renderer                     the renderer
 * @property {SizeFields} [sizeFields]   a kind that generates puzzles: its editor gets "New
 *                                  puzzle" (web/play/session.js wraps it)
 * @property {(ctx: KindContext, view: object, hooks: object, puzzle: () => object) => object} [game]
 *                                  play mode's game (web/play/session.js states its contract);
 *                                  only with sizeFields
 */

// A kind's name names a folder: letters, digits and "_", as the protocol's names are.
const KIND_NAME = /^[a-z][a-z0-9_]*$/;

/** Whether a name from facts.json can name a kind's folder (no "/", "..", or other characters). */
export function isKindName(name) {
  return KIND_NAME.test(name);
}

/**
 * What the page builds a tab from: {id, editor, renderer}, from the module a kind's index.js is
 * (its `kind`), the editor wrapped for New puzzle and play mode where the kind generates.
 * Throws an Error (a sentence's words) when the module does not export a Kind.
 */
export function pageKind(id, module) {
  const kind = module?.kind;
  const missing = ["editor", "renderer"].filter((part) => !kind?.[part]);
  if (missing.length) throw new Error(`its index.js exports no kind ${missing.join(" nor ")} (it must export const kind = { editor, renderer, ... })`);
  if (typeof kind.editor !== "function" || typeof kind.renderer.draw !== "function") {
    throw new Error("its kind's editor must be a function and its renderer must have a draw function");
  }
  if (kind.game && !kind.sizeFields) throw new Error("its kind has a game but no sizeFields (play mode comes with New puzzle)");
  const editor = kind.sizeFields ? playable(kind.editor, { createGame: kind.game ?? null, sizeFields: kind.sizeFields }) : kind.editor;
  return { id, editor, renderer: kind.renderer };
}
