// Star Battle: the kind's part of the page (web/kinds/contract.js states the contract).
import { createStarBattle } from "./editor.js";
import * as renderer from "./render.js";
import { sizeFields } from "./sizes.js";
import { createStarBattleGame } from "./game.js";

/** @type {import("../contract.js").Kind} */
export const kind = { editor: createStarBattle, renderer, sizeFields, game: createStarBattleGame };
