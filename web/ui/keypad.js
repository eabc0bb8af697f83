// An on-screen key pad under a board, for touch and mouse: a canvas opens no phone keyboard,
// so each key of the pad does what typing that key on the board does.
import { el } from "./ui.js";

// How long after a finger lifts from a key its click may still come (and is then the same press).
const TAP_CLICK_MS = 1000;

/**
 * A pad (id KIND-pad) whose keys press(key) when clicked or tapped. setKeys([{key, label,
 * name, title}]) lays out the keys; each button's id is KIND-key-NAME (name defaults to the key).
 */
export function keyPad(kindId, press) {
  const pad = el("div", { id: `${kindId}-pad`, class: "keypad", role: "group", "aria-label": "On-screen keys" });
  // A finger's tap presses its key when the finger lifts: Chromium may send no click for a tap
  // that follows a drag on the board (the first digit of a killer cage's sum was lost so), and
  // the click it does send for the tap is then skipped. A mouse, a pen's click and the keyboard
  // (Enter, Space) press through the click.
  let tapped = null; // {button, time} of the last key a finger pressed
  pad.addEventListener("pointerup", (event) => {
    if (event.pointerType !== "touch") return;
    const button = event.target.closest?.("button[data-key]");
    if (!button || button.disabled) return;
    const box = button.getBoundingClientRect();
    if (event.clientX < box.left || event.clientX > box.right || event.clientY < box.top || event.clientY > box.bottom) return;
    tapped = { button, time: event.timeStamp };
    press(button.dataset.key);
  });
  pad.addEventListener("click", (event) => {
    const button = event.target.closest?.("button[data-key]");
    if (!button) return;
    const sameTap = tapped && tapped.button === button && event.timeStamp - tapped.time < TAP_CLICK_MS;
    tapped = null;
    if (!sameTap) press(button.dataset.key);
  });
  // A mouse click on a key leaves the focus on the board, so its arrow keys keep working.
  pad.addEventListener("mousedown", (event) => event.preventDefault());
  return {
    node: pad,
    setKeys(keys) {
      pad.replaceChildren(...keys.map(({ key, label, name, title }) => el("button", {
        id: `${kindId}-key-${name || key}`, type: "button", class: label.length > 2 ? "key wide" : "key",
        "data-key": key, title, "aria-label": title,
      }, label)));
    },
  };
}
