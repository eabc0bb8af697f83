// An on-screen key pad under a board, for touch and mouse: a canvas opens no phone keyboard,
// so each key of the pad does what typing that key on the board does.
import { el } from "./ui.js";

/**
 * A pad (id KIND-pad) whose keys press(key) when clicked or tapped. setKeys([{key, label,
 * name, title}]) lays out the keys; each button's id is KIND-key-NAME (name defaults to the key).
 */
export function keyPad(kindId, press) {
  const pad = el("div", { id: `${kindId}-pad`, class: "keypad", role: "group", "aria-label": "On-screen keys" });
  pad.addEventListener("click", (event) => {
    const button = event.target.closest?.("button[data-key]");
    if (button) press(button.dataset.key);
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
