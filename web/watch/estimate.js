// "Estimate count", on the tabs whose facts list estimate_engines: before a long count, Knuth's
// estimate by random paths ("mode": "estimate", docs/estimating.md) says how many
// search steps and solutions the count would meet and how long it would take here, on one
// worker and on the page's workers. The next count of the same puzzle shows its steps against
// the estimate in the progress line (estimatedNodes()). A count still running after a moment
// asks for the estimate itself (estimateBeside, web/app.js). #KIND-estimate is the button,
// #KIND-estimate-text the sentence.
import { el, groupDigits } from "../ui/ui.js";
import { durationWords } from "../ui/words.js";

// Counts estimated by random paths are shown to two significant digits: more would claim
// a precision the spread of the estimate does not have.
function roughly(value) {
  const digits = String(value);
  if (digits.length <= 2) return digits;
  // The first three digits rounded to two; 995 and up round to 100, one order higher.
  const rounded = String(Math.round(Number(digits.slice(0, 3)) / 10));
  return groupDigits(rounded + "0".repeat(digits.length - 2));
}

function timeWords(seconds) {
  const words = durationWords(seconds);
  return /^(under|more than)/.test(words) ? words : `about ${words}`;
}

/** The estimate in a sentence (response: an ok answer of "mode": "estimate"). */
export function estimateWords(response, engineTitle) {
  const found = response.estimate;
  if (found.nodes === null || found.nodes === undefined) return "The estimate was stopped before it found anything.";
  const steps = (value) => `${value} search step${String(value) === "1" ? "" : "s"}`;
  const solutions = (value) => `${value} solution${String(value) === "1" ? "" : "s"}`;
  if (found.exact) {
    return `Counted whole while timing the ${engineTitle} engine: ${steps(groupDigits(found.nodes))}, ${solutions(groupDigits(found.solutions))}, ${timeWords(found.seconds)}.`;
  }
  let text = `About ${steps(roughly(found.nodes))} and ${solutions(roughly(found.solutions))} (Knuth's estimate from ${groupDigits(found.probes)} random paths, ${engineTitle} engine)`;
  if (typeof found.seconds === "number") {
    text += `: a count takes ${timeWords(found.seconds)} on 1 worker`;
    if (typeof found.seconds_with_jobs === "number") text += `, ${timeWords(found.seconds_with_jobs)} with ${found.jobs} if the work splits evenly`;
  }
  return `${text}.`;
}

/**
 * page: {id, facts (the kind's), baseRequest() -> the editor's request, engine() -> the engine
 * chosen in the menu, run(request) -> Promise<response|null> (quiet; null after an edit)} ->
 * {element, action, estimatedNodes(engine) (of a count on that engine), follows(engine) (whether
 * an estimate follows that engine's tree), estimateBeside(runBeside), close()}
 */
export function createEstimate(page) {
  const { id } = page;
  const engines = page.facts.estimate_engines || [];
  const button = el("button", { id: `${id}-estimate`, type: "button", class: "solve-action" }, "Estimate count");
  const text = el("p", { id: `${id}-estimate-text`, class: "hint", hidden: true, "aria-live": "polite" });
  let nodes = null;
  let nodesEngine = null; // the engine whose tree the estimate followed

  function close() {
    nodes = null;
    nodesEngine = null;
    text.hidden = true;
    text.textContent = "";
  }

  function estimateRequest() {
    const request = { ...page.baseRequest(), kind: id, mode: "estimate" };
    for (const field of ["limit", "heatmap", "recent", "max_steps", "seed"]) delete request[field];
    // The engine chosen, when estimate mode follows its tree; else the kind's first that does.
    const chosen = page.engine() || page.facts.default_engine;
    request.engine = engines.includes(chosen) ? chosen : engines[0];
    return request;
  }

  // An estimate's answer in the sentence; the nodes a count of this puzzle is expected to take.
  function show(response) {
    if (!response?.ok) return null;
    const engine = page.facts.engines.find(({ name }) => name === response.engine);
    text.textContent = estimateWords(response, engine ? engine.title : response.engine);
    text.hidden = false;
    nodes = response.estimate.exact ? null : response.estimate.nodes;
    nodesEngine = response.engine;
    return nodes;
  }

  button.addEventListener("click", async () => {
    const request = estimateRequest();
    close();
    show(await page.run(request));
  });

  /**
   * The estimate a long count shows without being asked (web/app.js): the same request and
   * sentence, sent through runBeside (a worker of its own, so the count goes on meanwhile).
   * Resolves to the nodes expected (null: none, or an answer for an edited puzzle).
   */
  async function estimateBeside(runBeside) {
    const request = estimateRequest();
    close();
    return show(await runBeside(request));
  }

  return {
    element: text,
    action: engines.length ? button : null,
    // A count's steps compare with the estimate only on the engine whose tree it followed.
    estimatedNodes: (engine) => (engine === nodesEngine ? nodes : null),
    follows: (engine) => engines.includes(engine),
    estimateBeside,
    close,
  };
}
