// "Watch the algorithm think", on every tab, through the kind contract (web/kinds/contract.js):
// the Step view (web/watch/stepview.js), heatmaps (web/watch/heatmap.js) and engines side by side
// (web/watch/compare.js), and the estimate of a count before it runs (web/watch/estimate.js).
// web/app.js makes one explorer per panel and calls these hooks:
//   element                 shown under the answer; actions: the buttons, beside the editor's;
//   stage                   the Step view, beside the board (under it where the page is narrow),
//                           so a step's words and the board it is drawn on are seen together
//   draw(d, view, options)  draws the board when a trace or a heatmap is shown (returns true)
//   prepare(request)        before a solve (adds "heatmap": true to counts when asked)
//   estimatedNodes(engine)  the search steps the last estimate expects a count on that engine to
//                           take, or null; follows(engine): whether an estimate follows its tree
//   estimateBeside(runBeside)  a long count's estimate, run through runBeside (a worker of its
//                           own); resolves to estimatedNodes() (null: none, or the puzzle changed)
//   answered(request, response)   after a successful answer of the page's own solve
//   reset()                 the puzzle was edited: forget traces, heatmaps, comparisons (and
//                           answers still on their way)
import { createCompare } from "./compare.js";
import { createEstimate } from "./estimate.js";
import { createHeatmap } from "./heatmap.js";
import { createStepView } from "./stepview.js";
import { el } from "../ui/ui.js";

/**
 * page: {id, facts (the kind's), siteFacts, editor, renderer, run(request, options) ->
 * Promise<response|null>, redraw(), engine() -> the engine chosen in the menu}
 */
export function createExplorer(page) {
  const { id, editor, renderer } = page;
  const exportRequest = () => ({ kind: id, ...editor.exportRequest() });
  // Bumped by reset(): an answer that arrives after an edit is for the earlier puzzle (null).
  let generation = 0;
  const runQuietly = async (request) => {
    const started = generation;
    const response = await page.run(request, { quiet: true });
    return started === generation ? response : null;
  };
  let steps = null;
  const heatmap = createHeatmap({
    ...page,
    label: (key) => editor.heatmapLabel?.(key) ?? key,
    onOpen: () => steps.close(),
  });
  steps = createStepView({
    ...page,
    traceRequest: () => ({ ...(editor.traceRequest?.() ?? exportRequest()), kind: id }),
    run: runQuietly,
    onOpen: () => { heatmap.close(); page.redraw(); },
  });
  // An editor with steps of its own to play on the board (play mode's Explain) gets the player.
  editor.useStepView?.((list, summary) => steps.open(list, summary));
  const compare = createCompare({
    ...page,
    baseRequest: exportRequest,
    run: runQuietly,
  });
  const estimate = createEstimate({ ...page, baseRequest: exportRequest, run: runQuietly });
  const element = el("section", { id: `${id}-explore`, class: "explore", "aria-label": "Watch the search" },
    estimate.element, heatmap.element, compare.element);
  const actions = el("div", { class: "explore-actions" }, estimate.action, steps.actions, compare.actions, heatmap.option);
  return {
    element,
    stage: steps.element,
    actions,
    draw(d, view, options) {
      if (steps.active() && renderer.drawStep) {
        renderer.drawStep(d, view, steps.frame(options.palette), options);
        return true;
      }
      if (heatmap.active() && renderer.cellBox) {
        heatmap.draw(d, view, renderer, options);
        return true;
      }
      return false;
    },
    prepare(request) {
      // A new answer is on its way: the board shows what the search finds (a recent solution),
      // not the heatmap of the last answer.
      heatmap.close();
      heatmap.prepare(request);
    },
    // The nodes the last estimate of this puzzle expects a count to visit (null: none made).
    estimatedNodes: (engine) => estimate.estimatedNodes(engine),
    follows: (engine) => estimate.follows(engine),
    async estimateBeside(runBeside) {
      const started = generation;
      return estimate.estimateBeside(async (request) => {
        const response = await runBeside(request);
        return started === generation ? response : null;
      });
    },
    answered(request, response) {
      steps.close();
      heatmap.answered(request, response);
    },
    reset() {
      generation += 1;
      estimate.close();
      steps.close();
      heatmap.close();
      compare.close();
    },
  };
}
