// Shikaku play, the rules without the page (Node.js tests run them: tests/test_web_play.py).
// The player's board is a list of rectangles [top, left, height, width], as the protocol's
// solutions are; a rectangle drawn over others replaces them (Tatham's Rectangles).

const BASE = 36;

/** The rectangle spanned by two cells [r, c] (either corner first). */
export function rectangleBetween([r0, c0], [r1, c1]) {
  const top = Math.min(r0, r1);
  const left = Math.min(c0, c1);
  return [top, left, Math.abs(r1 - r0) + 1, Math.abs(c1 - c0) + 1];
}

export function covers([top, left, height, width], r, c) {
  return r >= top && r < top + height && c >= left && c < left + width;
}

function overlap(a, b) {
  return a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];
}

/** The rectangles after drawing rect: those it overlaps go. */
export function placeRectangle(rects, rect) {
  return [...rects.filter((other) => !overlap(other, rect)), rect];
}

/** The rectangles without the one covering cell (r, c). */
export function removeAt(rects, r, c) {
  return rects.filter((rect) => !covers(rect, r, c));
}

/**
 * Each rectangle's verdict against the clues ([[r, c, n], ...]): "good" when it holds exactly
 * one clue and that clue's number is its area, else "bad".
 */
export function judgeRectangles(rects, clues) {
  return rects.map((rect) => {
    const inside = clues.filter(([r, c]) => covers(rect, r, c));
    return inside.length === 1 && inside[0][2] === rect[2] * rect[3] ? "good" : "bad";
  });
}

/** True when the rectangles cover the whole board and every one is good: the puzzle is solved. */
export function isComplete(rects, rows, cols, clues) {
  const area = rects.reduce((total, [, , height, width]) => total + height * width, 0);
  return area === rows * cols && judgeRectangles(rects, clues).every((verdict) => verdict === "good");
}

/** The player's rectangles that are not in the solution (a list of rectangles). */
export function wrongRectangles(rects, solution) {
  const right = new Set(solution.map((rect) => rect.join(",")));
  return new Set(rects.filter((rect) => !right.has(rect.join(","))).map((rect) => rect.join(",")));
}

/** Link text of the rectangles: "top.left.height.width" in base 36, joined by "_". */
export function encodeRectangles(rects) {
  return rects.map((rect) => rect.map((value) => value.toString(BASE)).join(".")).join("_");
}

/** The rectangles of encodeRectangles' text on a rows x cols board; throws Error with a reason. */
export function decodeRectangles(text, rows, cols) {
  if (!text) return [];
  let rects = [];
  for (const part of text.split("_")) {
    const rect = part.split(".").map((digits) => (/^[0-9a-z]+$/.test(digits) ? Number.parseInt(digits, BASE) : Number.NaN));
    const [top, left, height, width] = rect;
    if (rect.length !== 4 || rect.some(Number.isNaN) || height < 1 || width < 1 || top + height > rows || left + width > cols) {
      throw new Error(`the rectangle "${part}" is not top.left.height.width on the ${rows}x${cols} board`);
    }
    rects = placeRectangle(rects, rect);
  }
  return rects;
}
