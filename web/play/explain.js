// Explain mode's answers ("mode": "explain": steps and a grade; "hint": one step) in the page's
// terms, without the page (Node.js tests run them: tests/test_web_play.py).

/**
 * An explained path as steps the Step view plays (web/watch/stepview.js, the trace form): each
 * placement of a step one "force" step (a guess's a "try"), its depth the placements before it,
 * so the board holds every digit or rectangle placed so far; a step that only removes
 * candidates one "eliminate" step that leaves the board as it is. Each keeps the step's text,
 * technique, cells and eliminations. place(p) turns a step's place into a trace's
 * (Sudoku [r, c, d] -> {cell, value}; Shikaku's {clue, rect} are already).
 */
export function explainedSteps(steps, place) {
  let placed = 0;
  return steps.flatMap((step) => {
    const common = { text: step.text, technique: step.technique, cells: step.cells || [], eliminate: step.eliminate || [] };
    if (!step.place?.length) return [{ ...common, type: "eliminate", depth: placed }];
    const type = step.technique === "guess" ? "try" : "force";
    return step.place.map((where) => ({ ...common, type, depth: placed++, place: place(where) }));
  });
}

/** "Graded hard (score 120) over 53 steps: hidden single 15, naked single 38." with the
 *  techniques in the order facts.json lists them (easiest first). */
export function gradeWords(grade, stepCount, techniques = []) {
  const order = techniques.map(({ name }) => name);
  const rank = (name) => (order.includes(name) ? order.indexOf(name) : order.length);
  const counted = Object.entries(grade.techniques || {}).sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([name, times]) => `${name} ${times}`);
  return `Graded ${grade.level} (score ${grade.score}) over ${stepCount} step${stepCount === 1 ? "" : "s"}` +
    (counted.length ? `: ${counted.join(", ")}.` : ".");
}
