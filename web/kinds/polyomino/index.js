// Polyomino tiling: the kind's part of the page (web/kinds/contract.js states the contract).
import { createPolyomino } from "./editor.js";
import * as renderer from "./render.js";
import { sizeFields } from "./sizes.js";
import { createPolyominoGame } from "./game.js";

/** @type {import("../contract.js").Kind} */
export const kind = { editor: createPolyomino, renderer, sizeFields, game: createPolyominoGame };
