// Colour themes for the boards. Renderers (web/render/*.js) choose colours for paper-white
// boards; a theme maps each colour as it is drawn (web/render/draw.js calls theme.colour on every fill
// and stroke), so one renderer serves light and dark mode and needs no colours of its own.
//
// The dark theme turns lightness around and keeps hue and chroma: white paper becomes the
// page's dark paper, black ink its light ink (style.css's --dark-paper and --dark-ink), and
// everything between keeps its order, so contrast survives and a red piece stays red. Exports
// (PNG, SVG) use the light theme unless the person asks for dark.

const DARK_QUERY = "(prefers-color-scheme: dark)";

// Colour text -> [hue 0-360, saturation 0-1, lightness 0-1, alpha 0-1], or null if unknown.
export function parseColour(text) {
  const value = String(text).trim().toLowerCase();
  let match = /^#([0-9a-f]{3,8})$/.exec(value);
  if (match) {
    let hex = match[1];
    if (hex.length === 3 || hex.length === 4) hex = [...hex].map((digit) => digit + digit).join("");
    if (hex.length !== 6 && hex.length !== 8) return null;
    const channel = (index) => Number.parseInt(hex.slice(index, index + 2), 16) / 255;
    return [...rgbToHsl(channel(0), channel(2), channel(4)), hex.length === 8 ? channel(6) : 1];
  }
  match = /^(rgba?|hsla?)\((.*)\)$/.exec(value);
  if (!match) return value === "white" ? [0, 0, 1, 1] : value === "black" ? [0, 0, 0, 1] : null;
  const parts = match[2].split(/[\s,/]+/).filter(Boolean);
  if (parts.length < 3) return null;
  const number = (part, scale) => (part.endsWith("%") ? Number.parseFloat(part) / 100 : Number.parseFloat(part) / scale);
  const alpha = parts.length > 3 ? number(parts[3], 1) : 1;
  if (match[1].startsWith("rgb")) {
    return [...rgbToHsl(number(parts[0], 255), number(parts[1], 255), number(parts[2], 255)), alpha];
  }
  return [Number.parseFloat(parts[0]), number(parts[1], 100), number(parts[2], 100), alpha];
}

function rgbToHsl(r, g, b) {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const lightness = (max + min) / 2;
  if (max === min) return [0, 0, lightness];
  const delta = max - min;
  const saturation = delta / (1 - Math.abs(2 * lightness - 1));
  let hue;
  if (max === r) hue = ((g - b) / delta) % 6;
  else if (max === g) hue = (b - r) / delta + 2;
  else hue = (r - g) / delta + 4;
  return [(hue * 60 + 360) % 360, saturation, lightness];
}

function hslText([hue, saturation, lightness, alpha]) {
  const round = (value, digits = 1) => Number(value.toFixed(digits));
  const body = `${round(hue)} ${round(saturation * 100)}% ${round(lightness * 100)}%`;
  return alpha < 1 ? `hsl(${body} / ${round(alpha, 3)})` : `hsl(${body})`;
}

export const lightTheme = Object.freeze({ name: "light", colour: (text) => text });

// A dark theme whose paper and ink are the given colours (any CSS colour syntax parseColour reads).
export function makeDarkTheme(paper, ink) {
  const paperHsl = parseColour(paper);
  const inkHsl = parseColour(ink);
  if (!paperHsl || !inkHsl) throw new Error(`unreadable dark theme colours: ${paper}, ${ink}`);
  const low = paperHsl[2];
  const high = inkHsl[2];
  const memo = new Map();
  function colour(text) {
    if (typeof text !== "string") return text;
    let mapped = memo.get(text);
    if (mapped === undefined) {
      const hsl = parseColour(text);
      if (!hsl) mapped = text; // a colour we cannot read is drawn as it is
      else if (hsl[2] >= 0.995 && hsl[1] < 0.01) mapped = paper;
      else if (hsl[2] <= 0.005) mapped = ink;
      else {
        const lightness = low + (1 - hsl[2]) * (high - low);
        // Keep the chroma, not the saturation: a pale tint (light, saturated, little colour)
        // becomes a dark tint, not a deep strong colour.
        const chroma = (1 - Math.abs(2 * hsl[2] - 1)) * hsl[1];
        const saturation = Math.min(1, chroma / Math.max(1e-6, 1 - Math.abs(2 * lightness - 1)));
        mapped = hslText([hsl[0], saturation, lightness, hsl[3]]);
      }
      memo.set(text, mapped);
    }
    return mapped;
  }
  return Object.freeze({ name: "dark", colour });
}

function cssColour(name, fallback) {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

let darkTheme = null;

// The dark theme of this page: its paper and ink from style.css (read once, when first needed).
export function pageDarkTheme() {
  darkTheme ??= makeDarkTheme(cssColour("--dark-paper", "#16191d"), cssColour("--dark-ink", "#e6e9ed"));
  return darkTheme;
}

export function prefersDark() {
  return typeof matchMedia === "function" && matchMedia(DARK_QUERY).matches;
}

// The theme the page's boards are drawn in now.
export function pageTheme() {
  return prefersDark() ? pageDarkTheme() : lightTheme;
}

// Call back whenever the person's light/dark preference changes (to redraw the boards).
export function onThemeChange(callback) {
  if (typeof matchMedia !== "function") return;
  matchMedia(DARK_QUERY).addEventListener("change", () => callback(pageTheme()));
}
