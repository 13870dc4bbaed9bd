// Small DOM helpers shared by the shell and the board modules.

export const SVG_NS = "http://www.w3.org/2000/svg";

/** h("button", {class: "x", onclick: f}, "text", child, ...) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** s("rect", {x: 1}, ...children): an SVG element. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "text") {
      el.textContent = value;
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Make an SVG group a keyboard-reachable button with a tooltip. */
export function clickable(el, label, onActivate) {
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
  el.setAttribute("aria-label", label);
  el.classList.add("legal-target");
  el.addEventListener("click", (event) => { event.stopPropagation(); onActivate(); });
  el.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onActivate();
    }
  });
  return el;
}

/** Player colours: a fill, a readable ink, and a letter and shape so that colour is
 * never the only cue. */
export const COLOURS = {
  yellow: { fill: "#f2c230", ink: "#000", letter: "Y", shape: "circle" },
  red: { fill: "#c8302c", ink: "#fff", letter: "R", shape: "square" },
  blue: { fill: "#2f62c0", ink: "#fff", letter: "B", shape: "triangle" },
  green: { fill: "#3a9a4a", ink: "#fff", letter: "G", shape: "diamond" },
  white: { fill: "#f4f4f4", ink: "#000", letter: "W", shape: "hexagon" },
  purple: { fill: "#7b3fa0", ink: "#fff", letter: "P", shape: "pentagon" },
  black: { fill: "#222", ink: "#fff", letter: "K", shape: "cross" },
  orange: { fill: "#e07a1f", ink: "#000", letter: "O", shape: "star" },
  ivan: { fill: "#5b4a3a", ink: "#fff", letter: "I", shape: "star" },
};

/** The piece symbol of each shape, for text (the Players panel, the title): colour is
 * never the only carrier of a seat. */
const SHAPE_SYMBOLS = { circle: "●", square: "■", triangle: "▲", diamond: "◆", hexagon: "⬢",
  pentagon: "⬟", cross: "✚", star: "★" };
export const SYMBOLS = Object.fromEntries(Object.entries(COLOURS).map(([name, c]) => [name, SHAPE_SYMBOLS[c.shape]]));

/** The text symbol of a colour's piece ("" for a colour without one). */
export function symbolOf(name) { return SYMBOLS[String(name || "").toLowerCase()] || ""; }

export function colourOf(name) {
  return COLOURS[String(name || "").toLowerCase()] || { fill: "#999", ink: "#000",
    letter: String(name || "?").slice(0, 1).toUpperCase(), shape: "circle" };
}

function polygon(cx, cy, r, n, rotate = -Math.PI / 2) {
  const pts = [];
  for (let i = 0; i < n; i++) {
    const a = rotate + (i * 2 * Math.PI) / n;
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

/** A player token: the colour's shape with its letter inside. */
export function token(name, cx, cy, r = 9) {
  const c = colourOf(name);
  let shape;
  const common = { fill: c.fill, stroke: "#111", "stroke-width": 1.2 };
  switch (c.shape) {
    case "square": shape = s("rect", { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r, ...common }); break;
    case "triangle": shape = s("polygon", { points: polygon(cx, cy + r * 0.2, r * 1.25, 3), ...common }); break;
    case "diamond": shape = s("polygon", { points: polygon(cx, cy, r * 1.2, 4), ...common }); break;
    case "hexagon": shape = s("polygon", { points: polygon(cx, cy, r * 1.1, 6), ...common }); break;
    case "pentagon": shape = s("polygon", { points: polygon(cx, cy, r * 1.1, 5), ...common }); break;
    case "star": {
      const pts = [];
      for (let i = 0; i < 10; i++) {
        const a = -Math.PI / 2 + (i * Math.PI) / 5;
        const rr = i % 2 ? r * 0.6 : r * 1.25;
        pts.push(`${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`);
      }
      shape = s("polygon", { points: pts.join(" "), ...common });
      break;
    }
    default: shape = s("circle", { cx, cy, r, ...common });
  }
  return s("g", { class: "token" }, shape,
    s("text", { x: cx, y: cy + r * 0.38, "text-anchor": "middle", "font-size": r * 1.1,
      "font-weight": 700, fill: c.ink, "pointer-events": "none" }, c.letter));
}

/** An HTML badge: the colour's letter on its colour. */
export function badge(name) {
  const c = colourOf(name);
  return h("span", { class: "seat-badge", style: `background:${c.fill};color:${c.ink}`,
    "aria-hidden": "true" }, c.letter);
}
