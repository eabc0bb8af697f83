// Undo and redo for every editor, written once (after the midend of Simon Tatham's puzzles,
// which keeps the game states and lets each game only describe one). A state here is the
// editor's own share-link text (editor.encode() / editor.decode()), which already holds the
// whole puzzle, so no editor has anything to add for undo to work.
//
// The page records the state after each edit (record), groups the edits of one drag into one
// step (beginGroup / endGroup), and the buttons and keys call undo / redo:
//   Ctrl+Z (Cmd+Z) undo; Ctrl+Y or Ctrl+Shift+Z (Cmd+Shift+Z) redo,
// except in text fields, which keep their own undo of what is typed in them.
import { el } from "./ui.js";

// How many steps back one board keeps (the states are short texts; this bounds the memory).
const MAX_STEPS = 500;

/**
 * capture() -> the current state (a string); restore(state) puts a state back (and must not
 * record). onChange() runs whenever canUndo / canRedo may have changed.
 */
export function createHistory({ capture, restore, onChange = () => {} }) {
  const states = [capture()];
  let index = 0;
  let grouping = false;
  let groupStarted = false;

  const history = {
    /** Remember the current state, if it differs from the one remembered last. */
    record() {
      const state = capture();
      if (state === states[index]) return;
      if (grouping && groupStarted) {
        states[index] = state; // the same drag: one step
      } else {
        states.splice(index + 1);
        states.push(state);
        if (states.length > MAX_STEPS) states.shift();
        index = states.length - 1;
        groupStarted = grouping;
      }
      onChange();
    },
    /** Edits until endGroup() are one step (one stroke of the pointer over cells). */
    beginGroup() {
      grouping = true;
      groupStarted = false;
    },
    endGroup() {
      grouping = false;
      groupStarted = false;
    },
    /** Forget every step: the current state is the start (a puzzle opened from a link). */
    reset() {
      states.splice(0, states.length, capture());
      index = 0;
      grouping = false;
      groupStarted = false;
      onChange();
    },
    canUndo: () => index > 0,
    canRedo: () => index < states.length - 1,
    undo() {
      history.record(); // a change the page made without an edit (a loaded URL) is a step too
      if (index === 0) return false;
      index -= 1;
      restore(states[index]);
      onChange();
      return true;
    },
    redo() {
      if (index >= states.length - 1) return false;
      index += 1;
      restore(states[index]);
      onChange();
      return true;
    },
  };
  return history;
}

/** Which of undo or redo a key press asks for ("undo", "redo" or null). */
export function historyKey(event) {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return null;
  const key = event.key.toLowerCase();
  if (key === "z") return event.shiftKey ? "redo" : "undo";
  if (key === "y" && !event.shiftKey) return "redo";
  return null;
}

/** True when the key press belongs to a text field's own editing (its own undo included). */
export function typingInField(target) {
  if (!(target instanceof Element)) return false;
  if (target.isContentEditable || target.tagName === "TEXTAREA") return true;
  if (target.tagName !== "INPUT") return false;
  return !["checkbox", "radio", "button", "submit", "reset", "file", "range", "color"].includes(target.type);
}

/** The Undo and Redo buttons of a board (ids KIND-undo, KIND-redo); update() sets them. */
export function historyButtons(kindId, history) {
  const undo = el("button", { id: `${kindId}-undo`, type: "button", title: "Undo (Ctrl+Z)", onclick: () => history.undo() }, "↶ Undo");
  const redo = el("button", { id: `${kindId}-redo`, type: "button", title: "Redo (Ctrl+Y or Ctrl+Shift+Z)", onclick: () => history.redo() }, "↷ Redo");
  return {
    node: el("div", { class: "history-buttons", role: "group", "aria-label": "Undo and redo" }, undo, redo),
    update() {
      undo.disabled = !history.canUndo();
      redo.disabled = !history.canRedo();
    },
  };
}
