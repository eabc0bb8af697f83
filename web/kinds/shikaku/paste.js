// Shikaku in other programs' forms: Simon Tatham's Rectangles game IDs read ("WxH:...", W
// columns and H rows; web/paste/tatham_ids.js reads the grid), and puzz.link URLs written
// (web/paste/puzzlink.js's encoding) as Python's format_url (pysolver/kinds/shikaku/pasted.py)
// writes them, so the page makes a URL without a round trip to the worker.
// tests/test_pasted.py and tests/test_web_parsers.py compare both with Python.
import { numbersUrl } from "../../paste/puzzlink.js";
import { gameIdValues } from "../../paste/tatham_ids.js";

const RECTANGLES_ID = /^(\d{1,4})x(\d{1,4}):([a-z0-9_]+)$/i;

/** The puzz.link URL of a Shikaku puzzle: rows, cols and clues [[r, c, n], ...]. */
export function shikakuUrl(rows, cols, clues) {
  return numbersUrl("shikaku", rows, cols, new Map(clues.map(([r, c, n]) => [r * cols + c, n])));
}

/**
 * A Rectangles game ID ("7x7:b4b2e3a2...") as a Shikaku puzzle {rows, cols, clues: [[r, c, n]]};
 * null when the text is no such ID. Throws an Error (a sentence's words) for an ID whose grid
 * does not fill its size, or one past limits ({max_rows, max_cols}: facts.json's, Python's
 * shikaku.MAX_SIDE), refused before its grid is read.
 */
export function readRectanglesId(text, limits) {
  const match = RECTANGLES_ID.exec(text.replace(/\s+/g, ""));
  if (!match) return null;
  const [cols, rows] = [Number(match[1]), Number(match[2])];
  if (cols > limits.max_cols || rows > limits.max_rows) {
    throw new Error(`this Rectangles game ID is ${cols}x${rows}; the largest grid is ${limits.max_cols}x${limits.max_rows}`);
  }
  const values = gameIdValues(match[3], rows * cols);
  if (values.length !== rows * cols) {
    throw new Error(`this Rectangles game ID describes ${values.length} cells; a ${cols}x${rows} game has ${rows * cols}`);
  }
  const clues = [];
  values.forEach((value, cell) => { if (value) clues.push([Math.floor(cell / cols), cell % cols, value]); });
  return { rows, cols, clues };
}
