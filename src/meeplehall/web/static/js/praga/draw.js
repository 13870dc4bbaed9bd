// Small SVG helpers for the Praga board (games/praga.js).

export const SVG_NS = "http://www.w3.org/2000/svg";
const SQRT3 = Math.sqrt(3);

export function el(tag, attrs = {}, children = []) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null && k !== "xmlns") node.setAttribute(k, String(v));
  }
  for (const c of children) node.append(c);
  return node;
}

export function txt(x, y, text, attrs = {}) {
  return el("text", { x: round(x), y: round(y), "text-anchor": "middle", ...attrs },
    [String(text)]);
}

function round(v) { return Math.round(v * 10) / 10; }

// Corners of a pointy-top hex of circumradius `size` around (cx, cy).
export function hexPoints(cx, cy, size) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = ((60 * i + 30) * Math.PI) / 180;
    pts.push(`${round(cx + size * Math.cos(a))},${round(cy + size * Math.sin(a))}`);
  }
  return pts.join(" ");
}

// Pixel centre of axial hex (q, r) (hexgrid.to_pixel, y down) for a fit from fitHexes.
export function hexCentre([q, r], fit) {
  return [fit.ox + fit.size * SQRT3 * (q + r / 2), fit.oy + fit.size * 1.5 * r];
}

// The largest hex size that fits `hexes` into the box (x, y, w, h), and the offset.
export function fitHexes(hexes, x, y, w, h) {
  let minX = Infinity; let maxX = -Infinity; let minY = Infinity; let maxY = -Infinity;
  for (const [q, r] of hexes) {
    const px = SQRT3 * (q + r / 2);
    const py = 1.5 * r;
    minX = Math.min(minX, px); maxX = Math.max(maxX, px);
    minY = Math.min(minY, py); maxY = Math.max(maxY, py);
  }
  const spanX = maxX - minX + SQRT3;
  const spanY = maxY - minY + 2;
  const size = Math.min(w / spanX, h / spanY);
  return {
    size,
    ox: x + (w - spanX * size) / 2 - minX * size + (SQRT3 / 2) * size,
    oy: y + (h - spanY * size) / 2 - minY * size + size,
  };
}

// [gold, stone, silver, gold window] amounts as words.
export function costText(cost, kinds, t) {
  const parts = cost.map((n, i) => (n ? `${n} ${t(kinds[i])}` : "")).filter(Boolean);
  return parts.length ? parts.join(" + ") : t("free");
}

// A seat's piece shape (the shell's COLOURS: circle, square, triangle, diamond, hexagon,
// pentagon, cross, star): colour is never the only cue.
export function shapeFor(shape, x, y, r, colour) {
  const attrs = { fill: colour, stroke: "#000", "stroke-width": 1, class: `shape shape-${shape}` };
  const poly = (n, rot, k = 1) => {
    const pts = [];
    for (let i = 0; i < n; i++) {
      const a = rot + (2 * Math.PI * i) / n;
      pts.push(`${round(x + r * k * Math.cos(a))},${round(y + r * k * Math.sin(a))}`);
    }
    return el("polygon", { points: pts.join(" "), ...attrs });
  };
  switch (shape) {
    case "square": return el("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, ...attrs });
    case "triangle": return poly(3, -Math.PI / 2, 1.3);
    case "diamond": return poly(4, -Math.PI / 2, 1.3);
    case "hexagon": return poly(6, 0, 1.1);
    case "pentagon": return poly(5, -Math.PI / 2, 1.15);
    case "star": {
      const pts = [];
      for (let i = 0; i < 10; i++) {
        const a = -Math.PI / 2 + (Math.PI * i) / 5;
        const rr = i % 2 ? r * 0.6 : r * 1.35;
        pts.push(`${round(x + rr * Math.cos(a))},${round(y + rr * Math.sin(a))}`);
      }
      return el("polygon", { points: pts.join(" "), ...attrs });
    }
    case "cross": {
      const a = r * 0.45;
      const b = r * 1.15;
      return el("polygon", { points: [[-a, -b], [a, -b], [a, -a], [b, -a], [b, a], [a, a], [a, b],
        [-a, b], [-a, a], [-b, a], [-b, -a], [-a, -a]].map(([dx, dy]) => `${round(x + dx)},${round(y + dy)}`).join(" "), ...attrs });
    }
    default: return el("circle", { cx: x, cy: y, r, ...attrs });
  }
}

// Turn a group into a keyboard-accessible button submitting `action`.
export function targetize(node, action, label, onChoose) {
  node.classList.add("target");
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.setAttribute("data-legal", action);
  node.addEventListener("click", (e) => { e.stopPropagation(); onChoose(); });
  node.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " " || e.key === "Spacebar") {
      e.preventDefault();
      onChoose();
    }
  });
}

// One tooltip per element: the action first, then what the component is.
export function mergeTitles(node, label) {
  const about = [];
  for (const old of node.querySelectorAll(":scope > title")) {
    if (old.textContent && old.textContent !== label) about.push(old.textContent);
    old.remove();
  }
  node.append(el("title", {}, [[label, ...about].join("\n")]));
}
