// The drawing seam (after Simon Tatham's drawing_api): every web/render/<kind>.js draws only
// through these five calls, so one draw function serves the screen (canvas), the PNG export
// (the same canvas) and the SVG export.
//
//   begin(width, height, background)         start a fresh picture of that size
//   rect(x, y, w, h, {fill, stroke, width, dash})   axis-aligned rectangle
//   line(x1, y1, x2, y2, {stroke, width, dash})     straight line
//                                             (dash: [on, off] lengths for a dashed stroke)
//   polygon(points, {fill, stroke, width})    closed polygon, points = [[x, y], ...]
//   text(x, y, string, {size, fill, bold, align})  text centred vertically on y;
//                                             align "center" (default), "left" or "right"
//
// Renderers pick colours for a white board; each drawing maps them through a theme
// (web/render/theme.js): a canvas follows the page's light or dark mode unless given one, an SVG
// export is light unless given the dark theme.

import { lightTheme, pageTheme } from "./theme.js";

const FONT = "system-ui, -apple-system, 'Segoe UI', sans-serif";

// Where a pointer event falls on a board canvas, in the drawing units its renderer used,
// however CSS has scaled the canvas (and not counting its border).
export function boardPoint(canvas, event) {
  const rect = canvas.getBoundingClientRect();
  const shown = canvas.clientWidth;
  const scale = shown > 0 ? (Number(canvas.dataset.width) || shown) / shown : 1;
  return [(event.clientX - rect.left - canvas.clientLeft) * scale, (event.clientY - rect.top - canvas.clientTop) * scale];
}

export class CanvasDrawing {
  // theme: a web/render/theme.js theme, or null to follow the page's light/dark mode at each begin().
  constructor(canvas, theme = null) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.theme = theme;
    this.paint = lightTheme.colour;
  }

  begin(width, height, background = "#ffffff") {
    this.paint = (this.theme ?? pageTheme()).colour;
    this.canvas.dataset.theme = (this.theme ?? pageTheme()).name;
    const ratio = Math.min(window.devicePixelRatio || 1, 2);
    const pixelWidth = Math.round(width * ratio);
    const pixelHeight = Math.round(height * ratio);
    if (this.canvas.width !== pixelWidth) this.canvas.width = pixelWidth;
    if (this.canvas.height !== pixelHeight) this.canvas.height = pixelHeight;
    // Its natural size, shrunk by CSS (max-width: 100%, height: auto) on a narrow screen;
    // boardPoint() maps pointer positions back to drawing units.
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = "auto";
    this.canvas.dataset.width = String(width);
    this.ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    this.ctx.clearRect(0, 0, width, height);
    this.ctx.fillStyle = this.paint(background);
    this.ctx.fillRect(0, 0, width, height);
  }

  rect(x, y, w, h, { fill, stroke, width = 1, dash } = {}) {
    if (fill) { this.ctx.fillStyle = this.paint(fill); this.ctx.fillRect(x, y, w, h); }
    if (stroke) {
      this.ctx.strokeStyle = this.paint(stroke);
      this.ctx.lineWidth = width;
      this.ctx.setLineDash(dash || []);
      this.ctx.strokeRect(x, y, w, h);
      this.ctx.setLineDash([]);
    }
  }

  line(x1, y1, x2, y2, { stroke = "#000", width = 1, dash } = {}) {
    this.ctx.beginPath();
    this.ctx.moveTo(x1, y1);
    this.ctx.lineTo(x2, y2);
    this.ctx.strokeStyle = this.paint(stroke);
    this.ctx.lineWidth = width;
    this.ctx.lineCap = dash ? "butt" : "square";
    this.ctx.setLineDash(dash || []);
    this.ctx.stroke();
    this.ctx.setLineDash([]);
  }

  polygon(points, { fill, stroke, width = 1 } = {}) {
    if (points.length < 2) return;
    this.ctx.beginPath();
    this.ctx.moveTo(points[0][0], points[0][1]);
    for (const [x, y] of points.slice(1)) this.ctx.lineTo(x, y);
    this.ctx.closePath();
    if (fill) { this.ctx.fillStyle = this.paint(fill); this.ctx.fill(); }
    if (stroke) { this.ctx.strokeStyle = this.paint(stroke); this.ctx.lineWidth = width; this.ctx.stroke(); }
  }

  text(x, y, string, { size = 14, fill = "#000", bold = false, align = "center" } = {}) {
    this.ctx.font = `${bold ? "bold " : ""}${size}px ${FONT}`;
    this.ctx.fillStyle = this.paint(fill);
    this.ctx.textAlign = align;
    this.ctx.textBaseline = "middle";
    this.ctx.fillText(String(string), x, y);
  }
}

const SVG_NS = "http://www.w3.org/2000/svg";

export class SvgDrawing {
  // theme: a web/render/theme.js theme; exports are light unless asked otherwise.
  constructor(theme = lightTheme) {
    this.paint = theme.colour;
  }

  begin(width, height, background = "#ffffff") {
    this.svg = document.createElementNS(SVG_NS, "svg");
    this.svg.setAttribute("xmlns", SVG_NS);
    this.svg.setAttribute("width", String(width));
    this.svg.setAttribute("height", String(height));
    this.svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    this.rect(0, 0, width, height, { fill: background });
  }

  add(tag, attributes) {
    const node = document.createElementNS(SVG_NS, tag);
    for (const colour of ["fill", "stroke"]) {
      if (attributes[colour] && attributes[colour] !== "none") attributes[colour] = this.paint(attributes[colour]);
    }
    for (const [name, value] of Object.entries(attributes)) {
      if (value !== undefined && value !== null) node.setAttribute(name, String(value));
    }
    this.svg.append(node);
    return node;
  }

  rect(x, y, w, h, { fill, stroke, width = 1, dash } = {}) {
    this.add("rect", { x, y, width: w, height: h, fill: fill || "none", stroke: stroke || undefined,
      "stroke-width": stroke ? width : undefined, "stroke-dasharray": stroke && dash ? dash.join(" ") : undefined });
  }

  line(x1, y1, x2, y2, { stroke = "#000", width = 1, dash } = {}) {
    this.add("line", { x1, y1, x2, y2, stroke, "stroke-width": width, "stroke-linecap": dash ? "butt" : "square",
      "stroke-dasharray": dash ? dash.join(" ") : undefined });
  }

  polygon(points, { fill, stroke, width = 1 } = {}) {
    this.add("polygon", {
      points: points.map(([x, y]) => `${x},${y}`).join(" "),
      fill: fill || "none", stroke: stroke || undefined, "stroke-width": stroke ? width : undefined,
    });
  }

  text(x, y, string, { size = 14, fill = "#000", bold = false, align = "center" } = {}) {
    const anchor = { center: "middle", left: "start", right: "end" }[align] || "middle";
    const node = this.add("text", {
      x, y, fill, "font-size": size, "font-family": FONT, "font-weight": bold ? "bold" : undefined,
      "text-anchor": anchor, "dominant-baseline": "central",
    });
    node.textContent = String(string);
  }

  toString() {
    return new XMLSerializer().serializeToString(this.svg);
  }
}
