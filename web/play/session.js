// New puzzles and play mode around a kind's editor (Simon Tatham's habits: a new game at a
// chosen size and level, undo and redo, a timer, a solve-check, the game ID as a link).
//
// playable(createEditor, {createGame, sizeFields}) wraps a kind's editor factory (its kind's
// editor, sizeFields and game: web/kinds/contract.js) so the page (web/app.js) sees one editor;
// the wrapper adds:
//   under the board: #KIND-new-difficulty, #KIND-new-seed (empty: a random seed), #KIND-new
//   ("New puzzle": a generated puzzle with one solution, "mode": "generate"), the kind's size
//   fields (sizeFields), #KIND-new-source (the level and seed of the puzzle shown);
//   with a game (createGame): #KIND-play-toggle (play the puzzle shown / back
//   to editing), #KIND-play-bar (the game's controls, shown while playing), #KIND-play-timer,
//   #KIND-play-check (mark wrong moves against the solution), #KIND-play-status (the verdict:
//   data-solved="true" once solved); where Python explains the kind (facts.json's "explain"):
//   #KIND-play-hint (the next step from the player's board, "mode": "hint": its cells tinted on
//   the board, its sentence in #KIND-play-status, or the mistake framed in red) and
//   #KIND-play-explain (the path from the givens, "mode": "explain", played in the Step view of
//   web/watch/stepview.js with the grade and the techniques counted in #KIND-step-summary).
// The share text is the editor's own, then "!G<level>.<seed>" for a generated puzzle (the level
// the puzzle has, graded; "!G<level>.<seed>.<asked>" when generate was asked for another level
// and made the nearest it found, as its note says) and "!P<progress>" while playing (no kind's
// own text has a "!"), so one link gives the puzzle, its level and seed and the player's
// progress, and undo and redo (web/ui/history.js, over this text) step through the moves. The
// game in progress (text, solution, time) is also kept in localStorage (key
// "pysolver.play.KIND"): a reload or a later visit goes on where the player was.
// The Level menu offers the levels the size chosen can make (facts.json's
// kinds.KIND.generate.levels_by_size, keyed by sizeKeys; a size not listed makes every level).
// A game opened from a link checks as the tab that generated it does: Check solves the puzzle
// with the game's checkFields, under which a generated puzzle has its one answer (a polyomino's
// up to the board's symmetry). New puzzle's size and Level follow a linked game's (sizeFields'
// of(puzzle) and show(fields)).
//
// A game (createGame(ctx, view, hooks, puzzle); puzzle() is the editor's request puzzle) has:
// bar (its controls), attach(canvas) (its pointer and key handlers, which act only while
// hooks.playing()), start() (fresh progress on the puzzle), stop(), encode() / decode(text)
// (its progress), solutionOf(response) (the solution from a solve or generate answer),
// solved(solution) (true when the board is complete and right), markErrors(solution) (returns
// how many moves are wrong; they are drawn until the next move), checkFields (optional: request
// fields under which the puzzle has one answer for Check, such as a polyomino's {symmetry:
// "distinct"}), and for Hint and Explain hintFields() (the player's board as hint mode's puzzle
// fields), showHint(step) and traceSteps(steps) (web/play/explain.js's explainedSteps with the
// kind's places). hooks: playing(), moved() (after each move), needSolution() (a promise of the
// solution, null if the puzzle has none or several), say(text).
import { el, labelled } from "../ui/ui.js";
import { seedField } from "../ui/widgets.js";
import { gradeWords } from "./explain.js";

const STORAGE_PREFIX = "pysolver.play.";
const PART = "!";

/** "m:ss" (or "h:mm:ss") of a time in seconds. */
export function clockText(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor(whole / 60) % 60, whole % 60];
  const two = (value) => String(value).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/**
 * The parts of a share text: the editor's puzzle, the generated puzzle's {level, seed,
 * difficulty} (level: the one it has; difficulty: the one generate was asked for; or null) and
 * the game's progress (or null when not playing). Throws Error on a part it cannot read.
 */
export function splitShareText(text) {
  const [puzzle, ...parts] = text.split(PART);
  let generated = null;
  let progress = null;
  for (const part of parts) {
    if (part.startsWith("G")) {
      const match = /^G([a-z]+)\.(\d+)(?:\.([a-z]+))?$/.exec(part);
      if (!match) throw new Error(`the part "!${part.slice(0, 20)}" should be !G, a level, "." and a seed`);
      generated = { level: match[1], seed: Number(match[2]), difficulty: match[3] || match[1] };
    } else if (part.startsWith("P")) {
      progress = part.slice(1);
    } else {
      throw new Error(`the part "!${part.slice(0, 20)}" is neither a generated puzzle (!G) nor a game in progress (!P)`);
    }
  }
  return { puzzle, generated, progress };
}

/** The share text of a puzzle, its generation and a game's progress (splitShareText's inverse). */
export function joinShareText(puzzle, generated, progress) {
  let text = puzzle;
  if (generated) {
    const level = generated.level || generated.difficulty;
    text += `${PART}G${level}.${generated.seed}${generated.difficulty && generated.difficulty !== level ? `.${generated.difficulty}` : ""}`;
  }
  if (progress !== null) text += `${PART}P${progress}`;
  return text;
}

/**
 * The keys a size may have in facts.json's generate.levels_by_size, most specific first: the
 * size fields' values joined by "x" or "/" (Sudoku "4", a polyomino board "5x3", a Star Battle
 * side and stars "8/2"), a one-number size also as "9x9", each after "<variant>:" first for a
 * variant other than the standard one ("jigsaw:9").
 */
export function sizeKeys(puzzle) {
  const { variant, ...dimensions } = puzzle;
  const values = Object.values(dimensions).map(String);
  const plain = [...new Set([values.join("x"), values.join("/"), ...(values.length === 1 ? [`${values[0]}x${values[0]}`] : [])])];
  return variant && variant !== "standard" ? [...plain.map((key) => `${variant}:${key}`), ...plain] : plain;
}

/** The levels generate can make at a size (generate: facts.json's generate entry of a kind). */
export function levelsFor(generate, puzzle) {
  const bySize = generate.levels_by_size;
  const key = bySize ? sizeKeys(puzzle).find((candidate) => Array.isArray(bySize[candidate])) : undefined;
  if (key === undefined) return generate.difficulties;
  const levels = generate.difficulties.filter((level) => bySize[key].includes(level));
  return levels.length ? levels : generate.difficulties;
}

const capital = (word) => word[0].toUpperCase() + word.slice(1);

function readStored(key) {
  try {
    const stored = JSON.parse(globalThis.localStorage?.getItem(key) ?? "null");
    return stored && typeof stored.text === "string" ? stored : null;
  } catch {
    return null; // storage refused (private mode) or spoiled: start afresh
  }
}

function writeStored(key, value) {
  try {
    if (value) globalThis.localStorage?.setItem(key, JSON.stringify(value)); else globalThis.localStorage?.removeItem(key);
  } catch {
    // storage full or refused: the link still holds the game
  }
}

/**
 * An editor factory with New puzzle and, given createGame, play mode. sizeFields(kindId,
 * generateFacts) -> {node, puzzle()}: the size fields of a generate request's puzzle.
 */
export function playable(createEditor, { createGame = null, sizeFields }) {
  return (ctx) => createSession(ctx, createEditor(ctx), createGame, sizeFields);
}

function createSession(ctx, editor, createGame, sizeFields) {
  const { id, facts } = ctx;
  const storageKey = STORAGE_PREFIX + id;
  // {level, seed, difficulty (asked), note (why the level differs, when known), puzzle: the
  // editor's text it was for}
  let generated = null;
  let known = null; // {puzzle: the editor's text, solution: in the game's form, or null}
  let playingFor = null; // the editor's text of the puzzle being played, or null
  let seconds = 0;
  // Whether the clock timed this game here (a fresh game, or one the clock has run on): a link
  // opened already solved, or a stored game without a time, has no time to tell.
  let timeKnown = true;
  let solved = false;
  let board = null; // the canvas, once attached

  // ---- New puzzle
  const generate = facts.generate;
  const size = sizeFields(id, generate);
  const difficulty = labelled("Level", { tag: "select", id: `${id}-new-difficulty` });
  // The levels the size chosen can make; the one chosen kept while it is offered.
  function offerLevels(wanted = difficulty.input.value) {
    const levels = levelsFor(generate, size.puzzle());
    const shown = [...difficulty.input.options].map((option) => option.value);
    if (shown.join() !== levels.join()) {
      difficulty.input.replaceChildren(...levels.map((level) => el("option", { value: level }, capital(level))));
    }
    difficulty.input.value = levels.includes(wanted) ? wanted : levels[0];
  }
  offerLevels(generate.difficulties[0]);
  size.node.addEventListener("change", () => offerLevels());
  const seed = seedField(`${id}-new`);
  const newButton = el("button", { id: `${id}-new`, type: "button", class: "solve-action primary" }, "New puzzle");
  const source = el("p", { id: `${id}-new-source`, class: "new-source" });
  const newBox = el("fieldset", { class: "new-puzzle" }, el("legend", {}, "New puzzle"),
    el("div", { class: "row" }, size.node, difficulty.wrap, seed.wrap), el("div", { class: "row" }, newButton), source);

  // ---- play mode
  const timer = el("span", { id: `${id}-play-timer`, class: "play-timer", "aria-label": "Time" }, "0:00");
  const status = el("p", { id: `${id}-play-status`, class: "play-status", "aria-live": "polite" });
  const checkButton = el("button", { id: `${id}-play-check`, type: "button" }, "Check");
  // Hint and Explain, for the kinds Python explains (facts.json's "explain").
  const explains = Boolean(facts.explain) && Boolean(createGame);
  const hintButton = explains ? el("button", { id: `${id}-play-hint`, type: "button", class: "solve-action" }, "Hint") : null;
  const explainButton = explains ? el("button", { id: `${id}-play-explain`, type: "button", class: "solve-action" }, "Explain") : null;
  let openSteps = null; // the Step view's player, given by the page (editor.useStepView)
  const toggle = el("button", { id: `${id}-play-toggle`, type: "button" }, "Play this puzzle");
  const hooks = {
    playing: () => playingFor !== null,
    moved,
    needSolution,
    say: (text) => { status.textContent = text; },
  };
  const game = createGame ? createGame(ctx, editor.view, hooks, () => editor.exportRequest().puzzle) : null;
  const bar = game ? el("div", { id: `${id}-play-bar`, class: "play-bar", hidden: true },
    el("div", { class: "play-line" }, timer, checkButton, hintButton, explainButton), game.bar, status) : null;

  const currentPuzzle = () => editor.encode();
  const playing = () => playingFor !== null;

  function showMode() {
    const on = playing();
    for (const node of [editor.controls, editor.actions, editor.pad]) if (node) node.hidden = on;
    if (bar) bar.hidden = !on;
    toggle.textContent = on ? "Back to editing" : "Play this puzzle";
    toggle.setAttribute("aria-pressed", String(on));
    showSource();
    showTime();
  }
  function showSource() {
    const shown = generated && generated.puzzle === currentPuzzle() ? generated : null;
    if (!shown) { source.textContent = ""; return; }
    const asked = shown.difficulty !== shown.level ? ` You asked for ${shown.difficulty}: ${shown.note || `this is the nearest level generate found for ${shown.difficulty}`}.` : "";
    source.textContent = `${capital(shown.level)} puzzle, seed ${shown.seed}: the share link makes it again.${asked}`;
  }
  function showTime() {
    timer.textContent = clockText(seconds);
  }
  function save() {
    writeStored(storageKey, playing() ? { text: encode(), solution: known, seconds, solved, generated } : null);
  }
  function solutionFor(puzzle) {
    return known && known.puzzle === puzzle ? known.solution : null;
  }

  function startPlaying(progress = null) {
    playingFor = currentPuzzle();
    if (progress === null) game.start(); else game.decode(progress);
    showMode();
  }
  function stopPlaying() {
    if (!playing()) return;
    playingFor = null;
    game.stop();
    status.textContent = "";
    delete status.dataset.solved;
    showMode();
  }
  // "Solved in m:ss", or without a time for a game whose time is not known (a link opened).
  const solvedWords = () => (timeKnown ? `Solved in ${clockText(seconds)}. Well done!` : "Solved. Well done!");
  // After each change of the board: the verdict, the timer's state, the stored game.
  function judge() {
    const solution = solutionFor(playingFor);
    const now = game.solved(solution);
    if (now && !solved) status.textContent = solvedWords();
    if (!now && solved) status.textContent = "";
    solved = now;
    if (solved) status.dataset.solved = "true"; else delete status.dataset.solved;
  }
  // After a hint, the board in view (on a phone the Hint button may be below it), its top at
  // the window's top when it is not all shown, so the cell the hint names is on screen.
  function revealHint() {
    const box = board?.getBoundingClientRect();
    if (!box || (box.top >= 0 && box.bottom <= globalThis.innerHeight)) return;
    globalThis.scrollBy({ top: box.top - 8, behavior: "instant" });
  }
  function moved() {
    status.textContent = solved ? status.textContent : "";
    ctx.changed();
    judge();
    save();
  }
  async function needSolution() {
    const puzzle = currentPuzzle();
    if (known && known.puzzle === puzzle) return known.solution;
    // One answer as the game counts answers (a polyomino's up to the board's symmetry).
    const request = { ...editor.exportRequest(), ...game.checkFields, kind: id, mode: "solve", limit: 2 };
    const response = await ctx.run(request, { quiet: true });
    if (!response?.ok || currentPuzzle() !== puzzle) return null;
    const unique = String(response.count) === "1" && response.complete;
    if (!unique) {
      hooks.say(String(response.count) === "0" ? "This puzzle has no solution, so there is nothing to check against." : "This puzzle has several solutions, so there is no one answer to check against.");
    }
    known = { puzzle, solution: unique ? game.solutionOf(response) : null };
    save();
    return known.solution;
  }

  newButton.addEventListener("click", async () => {
    const request = { kind: id, mode: "generate", seed: seed.value(), difficulty: difficulty.input.value, puzzle: size.puzzle() };
    const response = await ctx.run(request, { quiet: true, asIs: true });
    if (!response?.ok) return;
    stopPlaying();
    editor.importRequest({ puzzle: response.puzzle });
    const puzzle = currentPuzzle();
    // The level the puzzle has (generate's grade), which may not be the one asked for.
    const level = response.level || response.grade?.level || response.difficulty;
    generated = { level, seed: response.seed, difficulty: response.difficulty, note: response.note || "", puzzle };
    offerLevels(generated.difficulty);
    if (game) {
      known = { puzzle, solution: game.solutionOf(response) };
      seconds = 0;
      timeKnown = true;
      solved = false;
      startPlaying();
    }
    showSource();
    ctx.changed();
    save();
    if (game) board?.focus();
  });
  checkButton.addEventListener("click", async () => {
    const solution = await needSolution();
    if (!solution || !playing()) return;
    const wrong = game.markErrors(solution);
    ctx.redraw();
    hooks.say(wrong ? `${wrong} wrong ${wrong === 1 ? "move" : "moves"}, marked in red.` : "No mistakes so far.");
  });
  // Hint: the next step from the player's board (its cells tinted, its sentence said), or the
  // mistake in it.
  hintButton?.addEventListener("click", async () => {
    const puzzle = currentPuzzle();
    const request = { kind: id, mode: "hint", puzzle: { ...editor.exportRequest().puzzle, ...game.hintFields() } };
    const response = await ctx.run(request, { quiet: true, asIs: true });
    if (!response?.ok || !playing() || currentPuzzle() !== puzzle) return;
    game.showHint(response.hint || null);
    ctx.redraw();
    const step = response.hint;
    hooks.say(!step ? "Nothing left to do: the board is complete." : step.technique === "mistake" ? `Mistake: ${step.text}` : `Hint (${step.technique}): ${step.text}`);
    revealHint();
  });
  // Explain: the whole path from the givens, played in the Step view with its grade.
  explainButton?.addEventListener("click", async () => {
    const puzzle = currentPuzzle();
    const response = await ctx.run({ kind: id, mode: "explain", puzzle: editor.exportRequest().puzzle }, { quiet: true, asIs: true });
    if (!response?.ok || !openSteps || currentPuzzle() !== puzzle) return;
    const steps = game.traceSteps(response.steps);
    openSteps(steps, gradeWords(response.grade, response.steps.length, facts.explain.techniques));
  });
  toggle.addEventListener("click", () => {
    if (playing()) stopPlaying(); else { seconds = 0; timeKnown = true; solved = false; startPlaying(); }
    ctx.changed();
    save();
  });
  // The clock runs while a game is played, unsolved, in a tab the player can see.
  if (game) {
    setInterval(() => {
      if (!playing() || solved || globalThis.document?.visibilityState === "hidden") return;
      seconds += 1;
      timeKnown = true;
      showTime();
      save();
    }, 1000);
  }

  function encode() {
    const puzzle = currentPuzzle();
    // Edits made outside the game (the puzzle changed under it) end the game.
    if (playing() && playingFor !== puzzle) stopPlaying();
    const shownGenerated = generated && generated.puzzle === puzzle ? generated : null;
    return joinShareText(puzzle, shownGenerated, playing() ? game.encode() : null);
  }
  function decode(text) {
    const parts = splitShareText(text);
    const before = playing() ? game.encode() : null;
    const was = playingFor;
    editor.decode(parts.puzzle);
    const puzzle = currentPuzzle();
    if (parts.generated) {
      const same = generated && generated.puzzle === puzzle && generated.seed === parts.generated.seed;
      generated = { ...parts.generated, note: same ? generated.note : "", puzzle };
      // New puzzle's size and Level follow the puzzle shown (a link's).
      if (size.of && size.show) size.show(size.of(editor.exportRequest().puzzle));
      offerLevels(parts.generated.level);
    }
    if (game && parts.progress !== null) {
      // Another puzzle (a link opened in this tab): nothing of the last game's is said or kept.
      if (was !== puzzle) { seconds = 0; timeKnown = false; solved = false; status.textContent = ""; delete status.dataset.solved; }
      startPlaying(parts.progress);
      // Other progress (undo, redo, a link): what was said of the board before (wrong moves, a
      // hint) is no longer about it; a solved board says so.
      if (before !== game.encode()) status.textContent = "";
      solved = false;
      judge();
    } else {
      stopPlaying();
    }
    showSource();
  }

  // A game left in progress (a reload, a later visit): back where the player was.
  const stored = game ? readStored(storageKey) : null;
  if (stored) {
    try {
      decode(stored.text);
      seconds = Number(stored.seconds) || 0; // the game's own time, not a fresh one's
      timeKnown = seconds > 0;
      if (stored.solution && typeof stored.solution.puzzle === "string") known = stored.solution;
      if (stored.generated && generated && stored.generated.puzzle === generated.puzzle) generated.note = String(stored.generated.note || "");
      solved = false;
      judge();
      showTime();
    } catch {
      writeStored(storageKey, null);
    }
  }
  showMode();

  return {
    ...editor,
    // New puzzle sits under the board with the solve buttons (after them in the Tab order, so
    // the board is as few Tabs away as before), and stays there while playing.
    pad: bar ? el("div", { class: "pad-column" }, bar, editor.pad) : editor.pad,
    actions: el("div", { class: "play-actions" }, editor.actions, game ? toggle : null, el("div", { class: "new-puzzle-row" }, newBox)),
    attachCanvas(canvas) {
      // The game's handlers first: while playing they take the board's events.
      board = canvas;
      game?.attach(canvas);
      editor.attachCanvas?.(canvas);
    },
    encode,
    decode,
    useStepView(open) { openSteps = open; },
    importRequest(data) {
      stopPlaying();
      editor.importRequest(data);
    },
  };
}
