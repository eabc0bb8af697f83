// Colours of the step view, the heatmap and the domino pictures, read from CSS custom
// properties so that a theme (dark mode) can change them: each name below is the property
// --NAME on the page's root element; the value here is used when the page does not set it.
// Renderers get the resolved colours as options.palette and fall back to these defaults
// (so a renderer used outside the page still draws).

export const DEFAULT_PALETTE = {
  "trace-forced": "#2f6fd6", // a placement taken without a choice (force step)
  "trace-tentative": "#e07b00", // a placement being tried (try step)
  "trace-focus": "#d62f6f", // the item chosen, the latest placement
  "trace-focus-fill": "rgba(214, 47, 111, 0.18)",
  "trace-candidate": "#7a3fd1", // a clue's surviving candidate rectangles
  "trace-swept": "rgba(47, 111, 214, 0.14)", // cells the profile DP has swept
  "trace-frontier": "#d62f6f", // the DP's frontier
  "trace-chart": "#2f6fd6", // the live-state chart
  "heat-rgb": "214, 47, 47", // heatmap shade: r, g, b (its opacity grows with the count)
  "heat-text": "#1b1f24",
  "domino-north": "#e8453c", // horizontal, left cell on an even diagonal (r + c even)
  "domino-south": "#f6b93b", // horizontal, odd
  "domino-west": "#3c8de8", // vertical, top cell even
  "domino-east": "#3cb878", // vertical, odd
};

// The palette with the page's custom properties applied.
export function readPalette(root = globalThis.document?.documentElement) {
  const palette = { ...DEFAULT_PALETTE };
  if (!root || typeof getComputedStyle !== "function") return palette;
  const style = getComputedStyle(root);
  for (const name of Object.keys(palette)) {
    const value = style.getPropertyValue(`--${name}`).trim();
    if (value) palette[name] = value;
  }
  return palette;
}
