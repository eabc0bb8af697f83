// Exact integers shown to people: digit groups that never split across lines, and for long
// counts a short form first ("≈ 1.1769 × 10^5039, 5,040 digits") with "Show all digits" and
// "Copy". Counts arrive as BigInt (web/runtime/solver.js); only their decimal text is used here, so the
// work is linear in the number of digits and a count of thousands of digits stays instant.
import { el, groupDigits } from "./ui.js";

// Counts up to this many digits are shown whole at once (a 16x16 domino count has 31).
export const SHORT_ABOVE = 40;
// Significant digits of the short form.
const SHORT_DIGITS = 5;

/**
 * The scientific short form of a whole number's decimal text: {mantissa, exponent, digits}
 * with the mantissa rounded half up to SHORT_DIGITS significant digits ("1.1769", 5039, 5040).
 * Works on the text, so it is exact for any size.
 */
export function shortForm(value) {
  const text = String(value).replace(/^-/, "");
  const sign = String(value).startsWith("-") ? "-" : "";
  let lead = text.slice(0, SHORT_DIGITS);
  let exponent = text.length - 1;
  if (text.length > SHORT_DIGITS && text[SHORT_DIGITS] >= "5") {
    const rounded = String(BigInt(lead) + 1n);
    if (rounded.length > lead.length) exponent += 1; // all nines rounded up: one digit more
    lead = rounded.slice(0, SHORT_DIGITS);
  }
  const kept = lead.replace(/0+$/, "") || "0";
  const mantissa = kept.length > 1 ? `${kept[0]}.${kept.slice(1)}` : kept;
  return { mantissa: sign + mantissa, exponent, digits: text.length };
}

/**
 * Grouped digits as inline content whose only line-break opportunities are after the commas
 * (a <wbr> each): "802,079,170,816" may wrap between groups, never inside one. Its text
 * (textContent) is exactly groupDigits(value).
 */
export function groupedNode(value) {
  const span = el("span", { class: "digits" });
  const groups = groupDigits(value).split(",");
  const fragment = document.createDocumentFragment();
  groups.forEach((group, index) => {
    if (index > 0) fragment.append(",", document.createElement("wbr"));
    fragment.append(group);
  });
  span.append(fragment);
  return span;
}

async function copyText(text, button) {
  const said = button.textContent;
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = "Copied";
  } catch {
    button.textContent = "Copy failed: select the digits instead";
  }
  setTimeout(() => { button.textContent = said; }, 1500);
}

// Long exact counts also say how many digits they have.
function digitNote(length) {
  return length > 12 ? ` (${groupDigits(length)} digits)` : "";
}

/**
 * An exact integer for reading, followed by words: exactNumber(n, " tilings", ".") reads
 * "53,060,477,521,960,000 tilings." Up to SHORT_ABOVE digits it stays on one line (its digits
 * smaller where the answer is narrow, e.g. a 31-digit count on a phone). Numbers of more than SHORT_ABOVE digits show the short form
 * ("≈ 1.1769 × 10^5039 tilings (5,040 digits).") with a "Show all digits" button (the digits
 * are laid out only when asked for) and "Copy" (the plain digits). data-digits on the returned
 * element holds the plain digits.
 */
export function exactNumber(value, noun = "", tail = "") {
  const digits = String(value);
  const holder = el("span", { class: "exact-number", "data-digits": digits });
  const length = digits.replace("-", "").length;
  const words = `${noun}${digitNote(length)}${tail}`;
  if (length <= SHORT_ABOVE) {
    // On one line, shrunk to fit a narrow answer (style.css reads the length).
    holder.style.setProperty("--digit-chars", String(groupDigits(digits).length));
    holder.append(groupedNode(digits), words);
    return holder;
  }
  const { mantissa, exponent } = shortForm(digits);
  const short = el("span", { class: "short-number" }, `≈ ${mantissa} × 10`, el("sup", {}, String(exponent)));
  const whole = el("div", { class: "all-digits", hidden: true });
  const show = el("button", { type: "button", class: "small show-digits", "aria-expanded": "false" }, "Show all digits");
  const copy = el("button", { type: "button", class: "small copy-digits" }, "Copy");
  show.addEventListener("click", () => {
    const opening = whole.hidden;
    if (opening && !whole.firstChild) whole.append(groupedNode(digits));
    whole.hidden = !opening;
    show.textContent = opening ? "Hide the digits" : "Show all digits";
    show.setAttribute("aria-expanded", String(opening));
  });
  copy.addEventListener("click", () => copyText(digits, copy));
  holder.append(short, words, el("span", { class: "number-actions" }, show, copy), whole);
  return holder;
}
