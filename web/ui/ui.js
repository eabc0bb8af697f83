// Small DOM and text helpers shared by the page and the kind editors.
// Everything the user typed reaches the DOM through textContent or attributes, never as HTML.

// el("button", {id: "x", class: "a", onclick: f}, "text", child...) -> HTMLElement
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") node.addEventListener(name.slice(2), value);
    else if (name === "class") node.className = value;
    else if (name === "testid") node.dataset.testid = value;
    else if (value === true) node.setAttribute(name, "");
    else node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// A labelled input: returns {wrap, input}. The label's for= ties it to the input id.
export function labelled(labelText, inputAttributes) {
  const input = el(inputAttributes.tag || "input", { ...inputAttributes, tag: undefined });
  const wrap = el("label", { class: "field", for: inputAttributes.id }, labelText, " ", input);
  return { wrap, input };
}

// Digits of an exact integer (Number or BigInt) grouped by threes: 53060477521960000 ->
// "53,060,477,521,960,000". A plain loop, so thousands of digits stay linear time.
export function groupDigits(value) {
  let digits = String(value);
  let sign = "";
  if (digits.startsWith("-")) { sign = "-"; digits = digits.slice(1); }
  if (!/^\d+$/.test(digits)) return sign + digits;
  const head = digits.length % 3 || 3;
  const groups = [digits.slice(0, head)];
  for (let i = head; i < digits.length; i += 3) groups.push(digits.slice(i, i + 3));
  return sign + groups.join(",");
}

// base64url of UTF-8 text, and back (for share links).
export function toBase64Url(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64Url(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return new TextDecoder().decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0)));
}

// A distinct, readable fill colour for the i-th of n things (pieces, rectangles).
export function paletteColour(index, total = 12, lightness = 72) {
  const hue = Math.round((index * 360) / Math.max(total, 1) + index * 17) % 360;
  return `hsl(${hue} 70% ${lightness}%)`;
}

export function clampInt(value, low, high, fallback) {
  const number = Number.parseInt(value, 10);
  if (!Number.isFinite(number)) return fallback;
  return Math.min(high, Math.max(low, number));
}

// Offer a Blob to the user as a downloaded file.
export function download(filename, blob) {
  const url = URL.createObjectURL(blob);
  const link = el("a", { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
