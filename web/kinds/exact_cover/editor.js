// Exact cover. Controls (ids): #exact_cover-text (textarea: Knuth's DLX text, colours x:A
// included, or JSON {"items", "secondary", "options"}), #exact_cover-input-error (what is wrong
// with the text, read as Python reads it), #exact_cover-summary (items, options and colours
// read), #exact_cover-example (select: an example loads when chosen; the menu reads "custom"
// when the text is none of them), #exact_cover-limit, #exact_cover-solve, #exact_cover-count.
// Solutions are listed in #exact_cover-solutions as option indices and option lines, with the
// colour each secondary item received (.solution-colours, one .colour-chip per item with
// data-item and data-colour).
// Share fragment: #exact_cover:<base64url of the text>.
import { el, fromBase64Url, labelled, toBase64Url } from "../../ui/ui.js";
import { countWords, foundWords, limitField } from "../../ui/widgets.js";
import { colourHue } from "./render.js";
import { entryTexts, parseProblem } from "./parse.js";

export { parseProblem };

// Knuth's example from "Dancing links": the items line, then one option a line.
const KNUTH_EXAMPLE = `A B C D E F G
C E F
A D G
B C F
A D
B G
D E G
`;

// Knuth's example of multiplicities (DLX3): C is covered 2 or 3 times; one solution, 1 3 4.
const KNUTH_MULTIPLICITY_EXAMPLE = `| Knuth's example of multiple covering with colours (DLX3)
A B 2:3|C | X Y
A B X:0 Y:0
A C X:1 Y:1
C X:0
B X:1
C Y:1
`;

// Knuth's example of exact covering with colours (TAOCP 7.2.2.1): x and y may be shared by
// options that give them the same colour. Its one solution takes options 1 and 3, x coloured A.
const KNUTH_COLOUR_EXAMPLE = `| Knuth's example of exact covering with colours (TAOCP 7.2.2.1)
p q r | x y
p q x y:A
p r x:A y
p x:B
q x:A
r y:B
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

// Three-letter words for the double word squares preset (small enough to read the matrix).
const WORDS = "ace arc are art ate bad bar bat bed cab car cat ear eat era eta net one ore rat red sea set tab tar tea ten toe".split(" ");

// Double word squares (TAOCP 7.2.2.1): fill a size x size grid so that its rows and columns are
// 2 * size different words of the list. Rows R1.. and columns C1.. are primary (one word each);
// the cells 11, 12, .. are secondary and coloured by their letter, so a row and a column share
// a cell only when they put the same letter there; each word is a secondary item too (without a
// colour: at most once), so no word is used twice.
function wordSquareText(words, size) {
  const lines = [`| Double word squares ${size}x${size}: rows and columns are ${2 * size} different words of the list`];
  const positions = Array.from({ length: size }, (_, i) => i + 1);
  const cells = positions.flatMap((row) => positions.map((col) => `${row}${col}`));
  lines.push(`${positions.map((i) => `R${i}`).join(" ")} ${positions.map((i) => `C${i}`).join(" ")} | ${cells.join(" ")} ${words.join(" ")}`);
  for (const [slot, cellOf] of [["R", (line, k) => `${line}${k}`], ["C", (line, k) => `${k}${line}`]]) {
    for (const line of positions) {
      for (const word of words) {
        lines.push(`${slot}${line} ${positions.map((k) => `${cellOf(line, k)}:${word[k - 1]}`).join(" ")} ${word}`);
      }
    }
  }
  return `${lines.join("\n")}\n`;
}

/** The presets: a label for the menu and the problem's text. */
export const EXAMPLES = {
  knuth: { label: "Knuth's 7-item example", text: KNUTH_EXAMPLE },
  knuth_colours: { label: "Knuth's example with colours (x:A)", text: KNUTH_COLOUR_EXAMPLE },
  knuth_multiplicities: { label: "Knuth's example with multiplicities (2:3|C)", text: KNUTH_MULTIPLICITY_EXAMPLE },
  word_squares: { label: `Double word squares 3x3, ${WORDS.length} words (colours)`, text: wordSquareText(WORDS, 3) },
  queens8: { label: "8 queens (92 solutions)", text: queensText(8) },
  queens12: { label: "12 queens (14,200 solutions)", text: queensText(12) },
  queens16: { label: "16 queens (a long count)", text: queensText(16) },
};

// Solutions listed in words under the board; the rest are only counted.
const LISTED = 100;

// A colour named in the page, tinted as the matrix draws it (style.css: .colour-chip).
function colourChip(text, colourIndex, attributes = {}) {
  return el("span", { class: "colour-chip", style: `--colour-hue: ${colourHue(colourIndex)}`, ...attributes }, text);
}

/** @param {import("../contract.js").KindContext} ctx */
export function createExactCover(ctx) {
  const view = { items: [], primaryCount: 0, secondaryCount: 0, options: [], colours: null, colourNames: [], chosen: null, received: null };
  let problem = null;
  let solutionColours = [];
  const textarea = el("textarea", { id: "exact_cover-text", rows: "12", cols: "48", spellcheck: "false" });
  textarea.value = KNUTH_EXAMPLE;
  const textLabel = el("label", { class: "field-title", for: "exact_cover-text" }, "Problem (Knuth's DLX text, colours as x:A, or JSON)");
  const example = labelled("Example", { tag: "select", id: "exact_cover-example" });
  for (const [key, { label }] of Object.entries(EXAMPLES)) example.input.append(el("option", { value: key }, label));
  example.input.append(el("option", { value: "custom", disabled: true }, "Your own problem"));
  const limit = limitField(ctx.id, 10);
  const solveButton = el("button", { id: "exact_cover-solve", type: "button", class: "solve-action primary" }, "Solve");
  const countButton = el("button", { id: "exact_cover-count", type: "button", class: "solve-action" }, "Count");
  const list = el("ol", { id: "exact_cover-solutions", class: "solution-list", testid: "solutions" });
  const inputError = el("div", { id: "exact_cover-input-error", class: "error", role: "alert" });
  const summary = el("p", { id: "exact_cover-summary", class: "hint" });

  const emptyProblem = { items: [], primaryCount: 0, secondaryCount: 0, options: [], colours: null, colourNames: [] };

  function showSummary() {
    if (!problem) { summary.replaceChildren(); return; }
    const { items, primaryCount, secondaryCount, options, colourNames } = problem;
    const parts = [`${items.length} items (${primaryCount} primary, ${secondaryCount} secondary)`, `${options.length} options`];
    summary.replaceChildren(parts.join(" · "));
    if (colourNames.length) {
      summary.append(` · ${colourNames.length} ${colourNames.length === 1 ? "colour" : "colours"}: `);
      colourNames.forEach((name, index) => summary.append(index ? " " : "", colourChip(name, index)));
    }
  }

  // Read the text as Python will (web/kinds/exact_cover/parse.js) to draw the matrix and name
  // any mistake at once; a problem the page cannot read is not sent (Python would reject it).
  function reparse() {
    example.input.value = Object.keys(EXAMPLES).find((key) => EXAMPLES[key].text === textarea.value) || "custom";
    try {
      problem = parseProblem(textarea.value, ctx.facts.limits);
      inputError.textContent = "";
    } catch (error) {
      problem = null;
      const where = error.path && error.path !== "puzzle.text" ? ` (at ${error.path})` : "";
      inputError.textContent = error instanceof SyntaxError ? `Not valid JSON: ${error.message}` : `${error.message}${where}`;
    }
    const { items, primaryCount, secondaryCount, options, colours, colourNames } = problem ?? emptyProblem;
    Object.assign(view, { items, primaryCount, secondaryCount, options, colours, colourNames, chosen: null, received: null });
    showSummary();
  }
  reparse();
  textarea.addEventListener("input", () => { reparse(); ctx.changed(); });
  example.input.addEventListener("change", () => {
    if (!EXAMPLES[example.input.value]) return;
    textarea.value = EXAMPLES[example.input.value].text;
    reparse();
    ctx.changed();
  });

  const send = (mode) => {
    reparse();
    if (problem === null) ctx.fail(`Not sent to the solver: ${inputError.textContent}`);
    else ctx.run({ kind: ctx.id, mode, limit: mode === "solve" ? limit.value() : undefined, puzzle: problem.puzzle });
  };
  solveButton.addEventListener("click", () => send("solve"));
  countButton.addEventListener("click", () => send("count"));

  // One option as written, its coloured entries tinted with their colour.
  function optionLine(optionIndex) {
    const line = el("code", {}, `${optionIndex}: `);
    const colours = problem.colours?.[optionIndex];
    entryTexts(problem, optionIndex).forEach((text, position) => {
      const colour = colours?.[position] ?? 0;
      line.append(position ? " " : "", colour ? colourChip(text, colour - 1, { title: `colour ${problem.colourNames[colour - 1]}` }) : text);
    });
    return line;
  }

  // The colour each secondary item received in one solution ({item: colour}, from Python).
  function receivedColours(received) {
    const line = el("div", { class: "solution-colours" }, "Colours: ");
    Object.entries(received).forEach(([item, colour], index) => {
      line.append(index ? ", " : "", colourChip(`${item} = ${colour}`, problem.colourNames.indexOf(colour), { "data-item": item, "data-colour": colour }));
    });
    return line;
  }

  function listSolutions(solutions) {
    list.replaceChildren();
    if (!problem) return;
    solutions.slice(0, LISTED).forEach((solution, index) => {
      const item = el("li", { class: "solution" }, el("span", { class: "solution-head" }, `Solution ${index + 1}: options ${solution.join(", ")}`));
      if (solutionColours[index] && Object.keys(solutionColours[index]).length) item.append(receivedColours(solutionColours[index]));
      const lines = el("ul", { class: "option-lines" });
      for (const optionIndex of solution) lines.append(el("li", {}, optionLine(optionIndex)));
      item.append(lines);
      list.append(item);
    });
    if (solutions.length > LISTED) list.append(el("li", {}, `… and ${solutions.length - LISTED} more`));
  }

  return {
    view,
    controls: el("div", { class: "controls" }, textLabel, textarea, inputError, summary,
      el("div", { class: "row" }, example.wrap), el("div", { class: "row" }, limit.wrap)),
    actions: el("div", { class: "buttons" }, solveButton, countButton),
    extra: list,
    describe: (response) => (response.mode === "count" ? countWords(response, "solution", "solutions") : foundWords(response, "solution", "solutions")),
    showResponse(response) {
      solutionColours = Array.isArray(response.colors) ? response.colors : [];
      listSolutions(response.solutions || []);
    },
    setSolution(solution, index) {
      view.chosen = solution || null;
      view.received = (solution && solutionColours[index]) || null;
    },
    clearSolution() { view.chosen = null; view.received = null; solutionColours = []; list.replaceChildren(); },
    encode: () => toBase64Url(textarea.value),
    decode(text) {
      let problem;
      try { problem = fromBase64Url(text); } catch {
        throw new Error("the problem is not in the link's base64 form (letters, digits, \"-\" and \"_\"); was the link cut short?");
      }
      textarea.value = problem;
      reparse();
    },
    exportRequest: () => ({ mode: "solve", puzzle: problem ? problem.puzzle : { text: textarea.value } }),
    importRequest(data) {
      const p = data.puzzle;
      textarea.value = typeof p.text === "string" ? p.text : JSON.stringify({ items: p.items, secondary: p.secondary || [], options: p.options }, null, 1);
      reparse();
    },
  };
}
