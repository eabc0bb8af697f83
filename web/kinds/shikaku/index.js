// Shikaku: the kind's part of the page (web/kinds/contract.js states the contract).
import { createShikaku } from "./editor.js";
import * as renderer from "./render.js";
import { sizeFields } from "./sizes.js";
import { createShikakuGame } from "./game.js";

/** @type {import("../contract.js").Kind} */
export const kind = { editor: createShikaku, renderer, sizeFields, game: createShikakuGame };
