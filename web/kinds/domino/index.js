// Domino tilings: the kind's part of the page (web/kinds/contract.js states the contract).
import { createDomino } from "./editor.js";
import * as renderer from "./render.js";

/** @type {import("../contract.js").Kind} */
export const kind = { editor: createDomino, renderer };
