// Sudoku: the kind's part of the page (web/kinds/contract.js states the contract).
import { createSudoku } from "./editor.js";
import * as renderer from "./render.js";
import { sizeFields } from "./sizes.js";
import { createSudokuGame } from "./game.js";

/** @type {import("../contract.js").Kind} */
export const kind = { editor: createSudoku, renderer, sizeFields, game: createSudokuGame };
