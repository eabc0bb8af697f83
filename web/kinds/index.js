// The puzzle kinds of the page, and the contract each one fills in (after Simon Tatham's
// `struct game`): a kind is an editor (web/kinds/KIND.js), a renderer (web/render/KIND.js) and
// one line in KINDS below. The page (web/app.js) does everything else the same way for every
// kind: tab and panel, engine menu, solving with progress, answer and stats, browsing solutions,
// share links, JSON import/export, PNG/SVG export, the help line atop the panel (facts.help,
// web/ui/help.js), and watching the search (web/watch/explore.js: the Step view playing a trace,
// heatmaps over the board, engines side by side). The kind's facts (title, help, engines, limits
// and its own facts such as pieces or sizes) come from Python through facts.json; an editor
// reads them from ctx.facts and types none of them again.
import { createDomino } from "./domino.js";
import { createExactCover } from "./exact_cover.js";
import { createPolyomino } from "./polyomino.js";
import { createQueens } from "./queens.js";
import { createShikaku } from "./shikaku.js";
import { createSudoku } from "./sudoku.js";
import * as dominoRenderer from "../render/domino.js";
import * as exactCoverRenderer from "../render/exact_cover.js";
import * as polyominoRenderer from "../render/polyomino.js";
import * as queensRenderer from "../render/queens.js";
import * as shikakuRenderer from "../render/shikaku.js";
import * as sudokuRenderer from "../render/sudoku.js";
import { playable } from "../play/session.js";
import { polyominoSizes, shikakuSizes, sudokuSizes } from "../play/new_sizes.js";
import { createPolyominoGame } from "../play/polyomino.js";
import { createShikakuGame } from "../play/shikaku.js";
import { createSudokuGame } from "../play/sudoku.js";

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
 * @property {(view: object, x: number, y: number) => *} cellAt   the cell at a point, or null
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

// The kinds that generate puzzles get "New puzzle", and those with a game play mode, from
// web/play/session.js, which wraps their editors (the games: web/play/KIND.js).
/** @type {{id: string, editor: (ctx: KindContext) => Editor, renderer: Renderer}[]} Tab order. */
export const KINDS = [
  { id: "polyomino", editor: playable(createPolyomino, { createGame: createPolyominoGame, sizeFields: polyominoSizes }), renderer: polyominoRenderer },
  { id: "sudoku", editor: playable(createSudoku, { createGame: createSudokuGame, sizeFields: sudokuSizes }), renderer: sudokuRenderer },
  { id: "shikaku", editor: playable(createShikaku, { createGame: createShikakuGame, sizeFields: shikakuSizes }), renderer: shikakuRenderer },
  { id: "domino", editor: createDomino, renderer: dominoRenderer },
  { id: "exact_cover", editor: createExactCover, renderer: exactCoverRenderer },
  { id: "queens", editor: createQueens, renderer: queensRenderer },
];
