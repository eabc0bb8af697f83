// Heatmaps: with the box #KIND-heatmap ticked, a count asks Python for "heatmap": true (kinds
// whose facts say heatmap) and the board shows, for the piece / digit / clue chosen in
// #KIND-heatmap-key, how many of the counted solutions cover each cell (exact counts written in
// the cells, shade by share of the largest). #KIND-heatmap-caption says what was counted.
// The overlay is drawn through the drawing seam over the kind's own picture (under its text), using the
// renderer's cellBox (web/kinds/contract.js), so it also goes into the PNG and SVG exports.
import { el, groupDigits, labelled } from "../ui/ui.js";

/**
 * page: {id, facts, siteFacts, label(key) -> words for a heatmap key, onOpen()} ->
 * {element, option, active(), prepare(request), answered(request, response), draw(d, view,
 * renderer, options), close()}
 */
export function createHeatmap(page) {
  const { id } = page;
  const toggle = el("input", { id: `${id}-heatmap`, type: "checkbox" });
  const option = el("label", { class: "field", for: `${id}-heatmap`,
    title: `Counts also say, per cell, how many solutions put each piece, digit or clue there (up to ${groupDigits(page.siteFacts.max_heatmap_solutions)} solutions)` },
  toggle, " Heatmap with the count");
  const key = labelled("Show", { tag: "select", id: `${id}-heatmap-key` });
  const caption = el("p", { id: `${id}-heatmap-caption`, class: "hint" });
  const element = el("div", { class: "heatmap-view", hidden: true }, el("div", { class: "row" }, key.wrap), caption);
  let heat = null; // {maps, count, symmetry, complete}
  key.input.addEventListener("change", () => { describe(); page.redraw(); });

  function describe() {
    const grid = heat.maps[key.input.value];
    const peak = Math.max(0, ...grid.flat().map(Number));
    const what = page.label(key.input.value);
    const solutions = `${groupDigits(heat.count)} ${heat.symmetry === "distinct" ? "distinct " : ""}solution${String(heat.count) === "1" ? "" : "s"}`;
    let text = `Each cell shows how many of the ${solutions} counted put ${what} on it (most: ${groupDigits(peak)}).`;
    if (heat.symmetry === "distinct") {
      text += " With symmetry \"distinct\" each class of tilings equal under rotation or reflection counts once, through the one tiling the solver keeps for it; its mirror images are not added.";
    }
    if (!heat.complete) text += " The count stopped early, so these are the first solutions only.";
    caption.textContent = text;
  }

  function close() {
    heat = null;
    element.hidden = true;
  }

  return {
    element,
    option: page.facts.heatmap ? option : null,
    active: () => heat !== null,
    prepare(request) {
      if (page.facts.heatmap && toggle.checked && request.mode === "count") request.heatmap = true;
    },
    answered(request, response) {
      close();
      if (!request.heatmap || !response.heatmap) return;
      const keys = Object.keys(response.heatmap);
      if (!keys.length) return;
      heat = { maps: response.heatmap, count: response.count, symmetry: response.symmetry || request.symmetry, complete: response.complete };
      const before = key.input.value;
      key.input.replaceChildren(...keys.map((name) => el("option", { value: name }, page.label(name))));
      key.input.value = keys.includes(before) ? before : keys[0];
      element.hidden = false;
      describe();
      page.onOpen();
    },
    draw(d, view, renderer, options) {
      // The board's text (clue numbers, digits) is held back and written over the shade, so a
      // number in a hot cell keeps its own ink instead of turning red on red.
      const texts = [];
      const board = {
        begin: (...call) => d.begin(...call),
        rect: (...call) => d.rect(...call),
        line: (...call) => d.line(...call),
        polygon: (...call) => d.polygon(...call),
        text: (...call) => texts.push(call),
      };
      renderer.draw(board, view, { ...options, exporting: true });
      const grid = heat.maps[key.input.value];
      const peak = Math.max(1, ...grid.flat().map(Number));
      const rgb = options.palette["heat-rgb"];
      grid.forEach((row, r) => row.forEach((value, c) => {
        const count = Number(value);
        const [x, y, size] = renderer.cellBox(view, r, c);
        if (count > 0) d.rect(x, y, size, size, { fill: `rgba(${rgb}, ${(0.12 + 0.7 * (count / peak)).toFixed(3)})` });
      }));
      for (const call of texts) d.text(...call);
      grid.forEach((row, r) => row.forEach((value, c) => {
        const [x, y, size] = renderer.cellBox(view, r, c);
        if (size >= 18) {
          d.text(x + size - 2, y + size - size * 0.18, groupDigits(value),
            { size: Math.max(7, size * 0.24), fill: options.palette["heat-text"], align: "right" });
        }
      }));
    },
    close,
  };
}
