// Engines side by side: #KIND-compare runs the puzzle (as the editor would export it, in the
// mode chosen in #KIND-compare-mode) once with every engine of the kind that serves that mode
// (engines and their modes come from facts.json), one after the other, and fills
// #KIND-compare-table: engine, answer, nodes, work (updates or mask operations), time. Rows
// carry data-engine; #KIND-compare-verdict says whether the answers agree.
import { el, groupDigits, labelled } from "../ui/ui.js";
import { plainMessage, withEngineTitles } from "../ui/words.js";

// The work counters engines report besides nodes, with their names in the table.
const WORK = [["updates", "updates"], ["mask_ops", "mask operations"], ["resultants", "resultants"], ["sweeps", "sweeps"]];

// Whether an engine (an entry of facts.engines) serves a mode; engines without "modes" serve all.
export function engineServes(engine, mode) {
  return !engine?.modes || engine.modes.includes(mode);
}

// The answers of a solve or count, as text that is equal when the answers are: the count, and
// the solutions as a set (engines may find them in another order) when the search finished.
function answerKey(response) {
  const solutions = response.complete && Array.isArray(response.solutions)
    ? response.solutions.map((s) => JSON.stringify(s, (k, v) => (typeof v === "bigint" ? String(v) : v))).sort().join("|")
    : "";
  return `${response.count}/${response.complete}/${solutions}`;
}

/**
 * page: {id, facts, baseRequest() -> {mode, puzzle, ...}, run(request) -> response, or null
 * when the page was busy or the puzzle changed meanwhile}
 */
export function createCompare(page) {
  const { id, facts } = page;
  const button = el("button", { id: `${id}-compare`, type: "button", class: "solve-action",
    title: "Run this puzzle with every engine and compare their answers and work" }, "Compare engines");
  const mode = labelled("as", { tag: "select", id: `${id}-compare-mode` });
  mode.input.append(el("option", { value: "" }, "the editor's request"), el("option", { value: "solve" }, "solve"), el("option", { value: "count" }, "count"));
  const table = el("table", { id: `${id}-compare-table`, class: "compare-table", hidden: true });
  const verdict = el("p", { id: `${id}-compare-verdict`, class: "compare-verdict" });
  const element = el("div", { class: "compare-view" }, table, verdict);
  const actions = el("div", { class: "row" }, button, mode.wrap);

  button.addEventListener("click", async () => {
    const base = page.baseRequest();
    if (mode.input.value) base.mode = mode.input.value;
    const body = el("tbody");
    table.replaceChildren(el("caption", {}, `Every engine on this puzzle, mode ${base.mode || "solve"}`),
      el("thead", {}, el("tr", {}, ...["Engine", "Answer", "Nodes", "Work", "Time"].map((h) => el("th", { scope: "col" }, h)))), body);
    table.hidden = false;
    verdict.textContent = "";
    delete verdict.dataset.agree;
    const keys = new Set();
    for (const engine of facts.engines) {
      const row = el("tr", { "data-engine": engine.name }, el("th", { scope: "row", title: engine.description }, engine.title));
      body.append(row);
      if (!engineServes(engine, base.mode || "solve")) {
        row.append(el("td", { colspan: "4", class: "hint" }, `not for ${base.mode || "solve"} mode (serves ${engine.modes.join(", ")} only)`));
        continue;
      }
      const response = await page.run({ ...base, engine: engine.name });
      if (!response) return; // the page was busy, or the puzzle was edited meanwhile
      if (response.cancelled) {
        row.append(el("td", { colspan: "4" }, "cancelled"));
        verdict.textContent = "Stopped: the comparison was cancelled.";
        return;
      }
      if (!response.ok) {
        // The sentence only, engines by their titles (the protocol's words are for programs).
        const { text } = plainMessage(response.error?.message || "failed");
        row.append(el("td", { colspan: "4", class: "error-cell" }, withEngineTitles(text, facts.engines)));
        continue;
      }
      keys.add(answerKey(response));
      const stats = response.stats || {};
      const work = WORK.filter(([name]) => name in stats).map(([name, words]) => `${groupDigits(stats[name])} ${words}`).join(", ");
      const answer = `${groupDigits(response.count)}${response.complete ? "" : " (stopped at the limit)"}`;
      row.append(el("td", { class: "number" }, answer), el("td", { class: "number" }, groupDigits(stats.nodes ?? "–")),
        el("td", { class: "number" }, work || "–"), el("td", { class: "number" }, `${Number(stats.seconds ?? 0).toFixed(3)} s`));
    }
    const agree = keys.size <= 1;
    verdict.dataset.agree = String(agree);
    verdict.textContent = keys.size === 0 ? "No engine answered."
      : agree ? "Every engine that answered gives the same answer." : "The engines' answers differ: please report this puzzle.";
  });

  return {
    element,
    actions,
    close() { table.hidden = true; table.replaceChildren(); verdict.textContent = ""; },
  };
}
