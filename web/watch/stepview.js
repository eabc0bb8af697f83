// The Step view: plays a trace ("mode": "trace", see docs/protocol.md) on the board of
// any kind. The player replays the steps by the protocol's rule (the board is a stack: a try or
// force at depth d puts its place at d and drops what was above; a backtrack to d drops d and
// above) and hands the board at the current step to the kind's renderer.drawStep (the contract
// is in web/kinds/contract.js). Ids (KIND: the kind's id):
//   #KIND-trace (run the trace), #KIND-trace-steps (max_steps), #KIND-trace-solutions (limit)
//   #KIND-step-first, #KIND-step-back, #KIND-step-play (play / pause), #KIND-step-forward,
//   #KIND-step-next-solution, #KIND-step-speed (steps per second), #KIND-step-slider,
//   #KIND-step-position ("Step k of N"), #KIND-step-text (the step's sentence),
//   #KIND-step-log (every step, the current one marked aria-current), #KIND-step-summary,
//   #KIND-step-close (back to the puzzle)
// Large traces (up to facts.trace.max_steps) stay smooth: the replay is indexed once (each step
// keeps a pointer to the top of its board, a linked list through the placements), so any step
// is drawn in time proportional to the board's height, and the log only builds the rows in view.
import { clampInt, el, groupDigits, labelled } from "../ui/ui.js";

const SPEEDS = [1, 2, 5, 10, 30, 100, 300, 1000];
const DEFAULT_SPEED = 5;
// A row's height: one line where the log is wide, three (the text wraps) where it is narrow.
const LOG_ROW_PX = 22;
const LOG_ROW_NARROW_PX = 55;
const NARROW_LOG_PX = 560;
// Depths past this are not indented further: the depth's number says how deep (a phone keeps
// room for the words).
const MAX_INDENT_DEPTH = 6;
const LOG_ROWS_SHOWN = 12;
// The most solutions a trace may ask for (the page's choice: more is never read step by step).
const MAX_TRACE_SOLUTIONS = 500;

/**
 * The replay of a trace, computed once: for every step the top of the board after it (a
 * placement node {place, forced, index, prev}), the step whose choice it follows (choose or
 * split, -1 for none) and the indices of the solution steps.
 */
export function indexTrace(steps) {
  const top = new Array(steps.length);
  const focus = new Int32Array(steps.length).fill(-1);
  const solutions = [];
  const stack = [];
  const chooser = []; // per depth: the latest choose or split step there
  steps.forEach((step, i) => {
    const { type, depth } = step;
    if (type === "try" || type === "force") {
      stack.length = Math.min(stack.length, depth);
      stack.push({ place: step.place, forced: type === "force", index: i, prev: stack[stack.length - 1] ?? null });
      if (type === "try" && chooser[depth] !== undefined) focus[i] = chooser[depth];
    } else if (type === "backtrack") {
      stack.length = Math.min(stack.length, depth);
    } else if (type === "choose" || type === "split") {
      chooser.length = depth;
      chooser[depth] = i;
      focus[i] = i;
    } else if (type === "solution") {
      solutions.push(i);
    }
    top[i] = stack.length ? stack[stack.length - 1] : null;
  });
  return { steps, top, focus, solutions };
}

/**
 * What a renderer's drawStep receives: the placements on the board after step `index`, bottom
 * first ({place, forced, index}), the step itself, the choose/split step it follows (or null),
 * the whole trace (steps) and the palette (web/render/palette.js).
 */
export function frameAt(trace, index, palette) {
  const placed = [];
  for (let node = trace.top[index]; node; node = node.prev) placed.push(node);
  placed.reverse();
  const focusIndex = trace.focus[index];
  return {
    index,
    step: trace.steps[index],
    placed,
    focus: focusIndex >= 0 ? trace.steps[focusIndex] : null,
    steps: trace.steps,
    palette,
  };
}

/**
 * The step view of one panel. page: {id, facts (the kind's), siteFacts, traceRequest() -> the
 * request to trace, run(request) -> Promise<response|null> (quiet: the page's answer area is
 * left alone), redraw(), onOpen()}. Returns {element, actions, open(steps, summary) (play steps
 * that did not come from the trace button), active(), frame(palette), close()}.
 */
export function createStepView(page) {
  const { id } = page;
  const caps = page.siteFacts.trace;
  let trace = null;
  let current = 0;
  let playing = false;
  let lastTime = 0;
  let carried = 0;
  let rowPx = LOG_ROW_PX;

  const button = (name, text, title, onclick) => el("button", { id: `${id}-step-${name}`, type: "button", title, "aria-label": title, onclick }, text);
  const traceButton = el("button", { id: `${id}-trace`, type: "button", class: "solve-action", "data-mode": "trace",
    title: "Record the search step by step and play it on the board" }, "Trace the search");
  const stepsField = labelled("Max steps", { id: `${id}-trace-steps`, type: "number", min: "1",
    max: String(caps.max_steps), value: String(caps.default_steps) });
  const solutionsField = labelled("Solutions", { id: `${id}-trace-solutions`, type: "number", min: "1", max: String(MAX_TRACE_SOLUTIONS), value: "1" });
  const first = button("first", "|◀", "First step", () => go(0));
  const back = button("back", "◀ Back", "Step back", () => go(current - 1));
  const play = button("play", "▶ Play", "Play", () => (playing ? pause() : start()));
  const forward = button("forward", "Step ▶", "Step forward", () => go(current + 1));
  const nextSolution = button("next-solution", "Next solution ▶▶", "Jump to the next solution", jumpToSolution);
  const speed = labelled("Speed", { tag: "select", id: `${id}-step-speed` });
  for (const value of SPEEDS) speed.input.append(el("option", { value: String(value) }, `${value} steps/s`));
  speed.input.value = String(DEFAULT_SPEED);
  const slider = el("input", { id: `${id}-step-slider`, type: "range", min: "0", max: "0", value: "0", "aria-label": "Step" });
  slider.addEventListener("input", () => go(Number(slider.value)));
  const position = el("span", { id: `${id}-step-position`, class: "step-position" });
  const close = button("close", "Close", "Close the step view and show the puzzle", () => closeView());
  const sentence = el("p", { id: `${id}-step-text`, class: "step-text", "aria-live": "polite" });
  const summary = el("p", { id: `${id}-step-summary`, class: "hint" });
  const spacer = el("div", { class: "step-log-spacer" });
  const rows = el("ol", { class: "step-log-rows" });
  const log = el("div", { id: `${id}-step-log`, class: "step-log", tabindex: "0", role: "list", "aria-label": "Trace steps" }, spacer, rows);
  log.addEventListener("scroll", () => renderLog(false));
  log.addEventListener("click", (event) => {
    const row = event.target.closest?.("[data-step]");
    if (row) go(Number(row.dataset.step));
  });
  log.addEventListener("keydown", (event) => {
    const moves = { ArrowDown: 1, ArrowUp: -1, PageDown: LOG_ROWS_SHOWN, PageUp: -LOG_ROWS_SHOWN };
    if (event.key in moves) { go(current + moves[event.key]); event.preventDefault(); }
  });
  const player = el("div", { class: "stepper", hidden: true },
    el("div", { class: "row step-controls" }, first, back, play, forward, nextSolution, speed.wrap, close),
    el("div", { class: "row" }, slider, position),
    sentence, log, summary);
  const element = el("div", { class: "step-view" }, player);
  const actions = el("div", { class: "row trace-bar" }, traceButton, stepsField.wrap, solutionsField.wrap);

  traceButton.addEventListener("click", async () => {
    const request = page.traceRequest();
    request.mode = "trace";
    request.max_steps = clampInt(stepsField.input.value, 1, caps.max_steps, caps.default_steps);
    request.limit = clampInt(solutionsField.input.value, 1, MAX_TRACE_SOLUTIONS, 1);
    stepsField.input.value = String(request.max_steps);
    const asked = request.max_steps;
    let response = await page.run(request);
    // A trace of at least the default length that stops before its first solution is traced
    // again with four times the steps, up to the cap: a first look shows a solution (the 6x10
    // pentomino tiling needs 2,377 steps). A smaller Max steps typed on purpose is kept.
    while (asked >= caps.default_steps && response?.ok && response.truncated && request.max_steps < caps.max_steps &&
      !response.steps.some((step) => step.type === "solution")) {
      request.max_steps = Math.min(caps.max_steps, request.max_steps * 4);
      stepsField.input.value = String(request.max_steps);
      response = await page.run(request);
    }
    if (!response?.ok || !Array.isArray(response.steps)) return;
    load(response, request.max_steps > asked ? request.max_steps : null);
  });

  // raised: the Max steps the trace was raised to in order to reach a solution (or null).
  function load(response, raised) {
    const solutions = response.steps.filter((step) => step.type === "solution").length;
    const ending = response.truncated
      ? `stopped at the cap of ${groupDigits(response.steps.length)} steps (raise Max steps to see more)`
      : response.complete ? "the whole search" : "up to the last solution asked for";
    const engine = page.facts.engines.find(({ name }) => name === response.engine);
    open(response.steps, `${groupDigits(response.steps.length)} steps by ${engine ? engine.title : response.engine}, ` +
      `${groupDigits(solutions)} solution${solutions === 1 ? "" : "s"}; ${ending}.` +
      (raised ? ` Max steps was raised to ${groupDigits(raised)} to reach a solution.` : ""));
  }

  // Play steps on the board: a trace's, or steps in the same form from elsewhere (play mode's
  // Explain: each step may also name a technique, shown in the log instead of the depth).
  function open(steps, summaryText) {
    pause();
    trace = indexTrace(steps);
    summary.textContent = summaryText;
    slider.max = String(Math.max(0, steps.length - 1));
    player.hidden = false;
    const narrow = log.clientWidth > 0 && log.clientWidth < NARROW_LOG_PX;
    rowPx = narrow ? LOG_ROW_NARROW_PX : LOG_ROW_PX;
    log.classList.toggle("narrow-log", narrow);
    spacer.style.height = `${steps.length * rowPx}px`;
    page.onOpen();
    go(0);
    reveal();
  }

  // The board and the step's words in view together (the page may have been scrolled anywhere):
  // the top of the board's stage at the window's top when the words are not both shown.
  function reveal() {
    const stage = element.closest(".board-stage") || element;
    const top = stage.getBoundingClientRect().top;
    const words = sentence.getBoundingClientRect();
    if (top >= 0 && words.bottom <= window.innerHeight) return;
    window.scrollBy({ top: top - 8, behavior: "instant" });
  }

  function go(index) {
    if (!trace || !trace.steps.length) return;
    current = Math.max(0, Math.min(trace.steps.length - 1, index));
    show();
  }

  function show() {
    const step = trace.steps[current];
    const total = trace.steps.length;
    position.textContent = `Step ${groupDigits(current + 1)} of ${groupDigits(total)}`;
    slider.value = String(current);
    sentence.textContent = step.text;
    sentence.dataset.type = step.type;
    back.disabled = first.disabled = current === 0;
    forward.disabled = current >= total - 1;
    nextSolution.disabled = !trace.solutions.some((index) => index > current);
    if (current >= total - 1 && playing) pause();
    renderLog(true);
    page.redraw();
  }

  // Only the rows in view (and a few around them) exist; the spacer gives the list its height.
  function renderLog(follow) {
    if (!trace) return;
    if (follow) {
      const top = current * rowPx;
      if (top < log.scrollTop || top + rowPx > log.scrollTop + log.clientHeight) {
        log.scrollTop = Math.max(0, top - log.clientHeight / 2);
      }
    }
    const firstRow = Math.max(0, Math.floor(log.scrollTop / rowPx) - 4);
    const lastRow = Math.min(trace.steps.length, firstRow + LOG_ROWS_SHOWN + 12);
    rows.style.top = `${firstRow * rowPx}px`;
    rows.replaceChildren();
    for (let i = firstRow; i < lastRow; i++) {
      const step = trace.steps[i];
      const indent = step.technique ? 0 : Math.min(step.depth, MAX_INDENT_DEPTH) * 0.45; // explained steps have no depth
      rows.append(el("li", {
        class: `step-row step-${step.type}`, "data-step": String(i), role: "listitem",
        "aria-current": i === current ? "step" : undefined, title: step.text,
      }, el("span", { class: "step-number" }, String(i + 1)),
      step.technique ? el("span", { class: "step-technique" }, step.technique)
        : el("span", { class: "step-depth", title: `depth ${step.depth}` }, String(step.depth)),
      el("span", { class: "step-words", style: `padding-left: ${indent}rem` }, step.text)));
    }
  }

  function speedValue() {
    return Number(speed.input.value) || DEFAULT_SPEED;
  }

  function start() {
    if (!trace) return;
    if (current >= trace.steps.length - 1) go(0);
    playing = true;
    play.textContent = "❚❚ Pause";
    play.title = "Pause";
    sentence.setAttribute("aria-live", "off"); // a screen reader hears the step it pauses on
    lastTime = performance.now();
    carried = 0;
    requestAnimationFrame(tick);
  }

  function pause() {
    playing = false;
    play.textContent = "▶ Play";
    play.title = "Play";
    sentence.setAttribute("aria-live", "polite");
  }

  // Several steps per frame at high speeds; the board is drawn once per frame.
  function tick(now) {
    if (!playing || !trace) return;
    if (element.offsetParent === null) { pause(); return; } // its tab was left: stop playing
    carried += ((now - lastTime) / 1000) * speedValue();
    lastTime = now;
    const advance = Math.floor(carried);
    if (advance > 0) {
      carried -= advance;
      go(current + advance);
    }
    if (playing) requestAnimationFrame(tick);
  }

  function jumpToSolution() {
    const next = trace?.solutions.find((index) => index > current);
    if (next !== undefined) { pause(); go(next); }
  }

  function closeView() {
    pause();
    trace = null;
    player.hidden = true;
    rows.replaceChildren();
    page.redraw();
  }

  return {
    element,
    actions,
    open,
    active: () => trace !== null,
    frame: (palette) => frameAt(trace, current, palette),
    close: () => { if (trace) closeView(); },
  };
}
