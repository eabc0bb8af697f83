// Exact cover. Controls (ids): #exact_cover-text (textarea: Knuth's DLX text, or JSON
// {"items", "secondary", "options"}), #exact_cover-example (select: an example loads when
// chosen; the menu reads "custom" when the text is none of them), #exact_cover-limit, #exact_cover-solve, #exact_cover-count. Solutions are listed in
// #exact_cover-solutions as option indices and option lines.
// Share fragment: #exact_cover:<base64url of the text>.
import { el, fromBase64Url, labelled, toBase64Url } from "../ui.js";
import { countWords, foundWords, limitField } from "../widgets.js";

// Knuth's example from "Dancing links": the items line, then one option a line.
const KNUTH_EXAMPLE = `A B C D E F G
C E F
A D G
B C F
A D
B G
D E G
`;

function queensText(n) {
  // Rows and columns are primary (one queen each), diagonals secondary (at most one).
  const lines = [];
  const rows = Array.from({ length: n }, (_, i) => `r${i}`);
  const cols = Array.from({ length: n }, (_, i) => `c${i}`);
  const diag = Array.from({ length: 2 * n - 1 }, (_, i) => `a${i}`);
  const anti = Array.from({ length: 2 * n - 1 }, (_, i) => `b${i}`);
  lines.push(`${[...rows, ...cols].join(" ")} | ${[...diag, ...anti].join(" ")}`);
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) lines.push(`r${r} c${c} a${r + c} b${r - c + n - 1}`);
  return `${lines.join("\n")}\n`;
}

const EXAMPLES = { knuth: ["Knuth's 7-item example", KNUTH_EXAMPLE], queens8: ["8 queens (92 solutions)", queensText(8)], queens12: ["12 queens (14,200 solutions)", queensText(12)], queens16: ["16 queens (a long count)", queensText(16)] };

// Solutions listed in words under the board; the rest are only counted.
const LISTED = 100;

// Read the problem as Python's exact_cover kind reads it, only to show option lines and the
// matrix before solving; Python checks it when solving. tests/test_web_parsers.py gives both
// the same inputs and compares the items and options they read.
export function parseProblem(text) {
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    const data = JSON.parse(trimmed);
    const items = (data.items || []).map(String);
    const secondary = (data.secondary || []).map(String);
    const options = (data.options || []).map((option) => option.map(String));
    return { items: [...items, ...secondary], secondaryCount: secondary.length, options, lines: options.map((o) => o.join(" ")), puzzle: data };
  }
  const lines = text.split(/\r\n|\r|\n/).map((line) => line.trim()).filter((line) => line && !line.startsWith("|"));
  if (!lines.length) return { items: [], secondaryCount: 0, options: [], lines: [], puzzle: { text } };
  const [head, ...rest] = lines;
  const tokens = head.split(/\s+/);
  const bar = tokens.indexOf("|"); // a token of its own; "a|b" is an error Python reports
  const primary = bar < 0 ? tokens : tokens.slice(0, bar);
  const secondary = bar < 0 ? [] : tokens.slice(bar + 1);
  return {
    items: [...primary, ...secondary], secondaryCount: secondary.length,
    options: rest.map((line) => line.split(/\s+/).filter(Boolean)), lines: rest, puzzle: { text },
  };
}

/** @param {import("./index.js").KindContext} ctx */
export function createExactCover(ctx) {
  const view = { items: [], secondaryCount: 0, options: [], chosen: null };
  let problem = null;
  const textarea = el("textarea", { id: "exact_cover-text", rows: "12", cols: "48", spellcheck: "false" });
  textarea.value = KNUTH_EXAMPLE;
  const textLabel = el("label", { class: "field-title", for: "exact_cover-text" }, "Problem (Knuth's DLX text or JSON)");
  const example = labelled("Example", { tag: "select", id: "exact_cover-example" });
  for (const [key, [label]] of Object.entries(EXAMPLES)) example.input.append(el("option", { value: key }, label));
  example.input.append(el("option", { value: "custom", disabled: true }, "Your own problem"));
  const limit = limitField(ctx.id, 10);
  const solveButton = el("button", { id: "exact_cover-solve", type: "button", class: "solve-action primary" }, "Solve");
  const countButton = el("button", { id: "exact_cover-count", type: "button", class: "solve-action" }, "Count");
  const list = el("ol", { id: "exact_cover-solutions", class: "solution-list", testid: "solutions" });
  const inputError = el("div", { id: "exact_cover-input-error", class: "error", role: "alert" });

  function reparse() {
    example.input.value = Object.keys(EXAMPLES).find((key) => EXAMPLES[key][1] === textarea.value) || "custom";
    try {
      problem = parseProblem(textarea.value);
      Object.assign(view, { items: problem.items, secondaryCount: problem.secondaryCount, options: problem.options, chosen: null });
      inputError.textContent = "";
    } catch (error) {
      problem = null;
      Object.assign(view, { items: [], secondaryCount: 0, options: [], chosen: null });
      inputError.textContent = `Not valid JSON: ${error.message}`;
    }
  }
  reparse();
  textarea.addEventListener("input", () => { reparse(); ctx.changed(); });
  example.input.addEventListener("change", () => {
    if (!EXAMPLES[example.input.value]) return;
    textarea.value = EXAMPLES[example.input.value][1];
    reparse();
    ctx.changed();
  });

  const request = (mode) => {
    reparse();
    const puzzle = problem ? problem.puzzle : { text: textarea.value };
    return { kind: ctx.id, mode, limit: mode === "solve" ? limit.value() : undefined, puzzle };
  };
  // Text that starts like JSON but does not parse is not sent: the solver would read it as
  // Knuth's format and answer a different problem.
  const send = (mode) => {
    const req = request(mode);
    if (problem === null) ctx.fail(`Not sent to the solver: ${inputError.textContent}`);
    else ctx.run(req);
  };
  solveButton.addEventListener("click", () => send("solve"));
  countButton.addEventListener("click", () => send("count"));

  function listSolutions(solutions) {
    list.replaceChildren();
    solutions.slice(0, LISTED).forEach((solution, index) => {
      const item = el("li", { class: "solution" }, el("span", { class: "solution-head" }, `Solution ${index + 1}: options ${solution.join(", ")}`));
      const lines = el("ul", { class: "option-lines" });
      for (const optionIndex of solution) lines.append(el("li", {}, el("code", {}, `${optionIndex}: ${problem?.lines[optionIndex] ?? "?"}`)));
      item.append(lines);
      list.append(item);
    });
    if (solutions.length > LISTED) list.append(el("li", {}, `… and ${solutions.length - LISTED} more`));
  }

  return {
    view,
    controls: el("div", { class: "controls" }, textLabel, textarea, inputError,
      el("div", { class: "row" }, example.wrap), el("div", { class: "row" }, limit.wrap)),
    actions: el("div", { class: "buttons" }, solveButton, countButton),
    extra: list,
    describe: (response) => (response.mode === "count" ? countWords(response, "solution", "solutions") : foundWords(response, "solution", "solutions")),
    showResponse(response) { listSolutions(response.solutions || []); },
    setSolution(solution) { view.chosen = solution || null; },
    clearSolution() { view.chosen = null; list.replaceChildren(); },
    encode: () => toBase64Url(textarea.value),
    decode(text) { textarea.value = fromBase64Url(text); reparse(); },
    exportRequest: () => ({ mode: "solve", puzzle: problem ? problem.puzzle : { text: textarea.value } }),
    importRequest(data) {
      const p = data.puzzle;
      textarea.value = typeof p.text === "string" ? p.text : JSON.stringify({ items: p.items, secondary: p.secondary || [], options: p.options }, null, 1);
      reparse();
    },
  };
}
