// Zoom and pan of a board drawn as one SVG inside a scrolling viewport: buttons, the mouse
// wheel, the + and − keys, dragging and two-finger pinch (pointer events). The zoom and
// the scroll position live in `mem` ({zoom, left, top}), so they survive re-renders.
// Used by the Praga map (games/praga.js) and The Red Cathedral on a phone
// (games/red-cathedral.js).

/** The toolbar: zoom out, zoom in, the whole board, normal size, and the zoom level.
 * `labels`: {out, in, fit, fitLabel, reset, hint} in the reader's language; `cls`: class
 * names of the bar and the level ({bar, level, hint}). */
export function zoomBar(labels, cls) {
  const bar = document.createElement("div");
  bar.className = cls.bar;
  bar.setAttribute("role", "toolbar");
  bar.setAttribute("aria-label", labels.bar);
  for (const [name, text, label] of [["zoom-out", "−", labels.out], ["zoom-in", "+", labels.in],
    ["zoom-fit", labels.fit, labels.fitLabel], ["zoom-reset", "100 %", labels.reset]]) {
    const btn = document.createElement("button");
    btn.type = "button";
    btn.dataset.zoom = name;
    btn.textContent = text;
    btn.setAttribute("aria-label", label);
    btn.title = label;
    bar.append(btn);
  }
  const level = document.createElement("span");
  level.className = `${cls.level} muted`;
  level.setAttribute("aria-live", "polite");
  bar.append(level);
  if (labels.hint) {
    const hint = document.createElement("span");
    hint.className = `muted ${cls.hint}`;
    hint.textContent = labels.hint;
    bar.append(hint);
  }
  return bar;
}

/** Make `viewport` (a scrolling element holding `svg`, a board `width` x `height` units)
 * zoomable with the buttons of `bar` (made by zoomBar) and `label` (the level's text).
 * `opts`: {min, max, step, initial(viewport) -> zoom, reset, centre} (centre: a board
 * smaller than its viewport stands in its middle).
 * Returns a controller: `zoom()` (the level), `fit()` (the level showing the whole board),
 * `set(z)` (zoom around the centre), `show(rect, {max, min})` (zoom and scroll so that the
 * rectangle {x, y, width, height} in board units fills the viewport, at a zoom within
 * [`min`, `max`], centred on it),
 * `onUser(cb)` (cb() after each zoom or pan by the player) and `onZoom(cb)` (cb(z) after
 * every change of level). */
export function mountZoom(viewport, svg, bar, label, mem, width, height, opts) {
  const { min, max, step } = opts;
  const userFns = [];
  const zoomFns = [];
  const fit = () => Math.max(min, Math.min((viewport.clientWidth - 2) / width,
    (viewport.clientHeight - 2) / height));
  // the board's margins that keep it in the middle of a larger viewport
  const place = (z) => {
    const w = Math.round(width * z);
    const hh = Math.round(height * z);
    svg.style.width = `${w}px`;
    svg.style.height = `${hh}px`;
    if (!opts.centre) return;
    svg.style.marginLeft = `${Math.max(0, Math.floor((viewport.clientWidth - 2 - w) / 2))}px`;
    svg.style.marginTop = `${Math.max(0, Math.floor((viewport.clientHeight - 2 - hh) / 2))}px`;
  };
  const margin = () => [parseFloat(svg.style.marginLeft) || 0, parseFloat(svg.style.marginTop) || 0];
  const show = (z) => {
    label.textContent = `${Math.round(z * 100)} %`;
    viewport.dataset.zoom = z.toFixed(3);
    for (const fn of zoomFns) fn(z);
  };
  const apply = (z, ax = viewport.clientWidth / 2, ay = viewport.clientHeight / 2) => {
    z = Math.max(min, Math.min(max, z));
    const old = mem.zoom || z;
    const [mx, my] = margin();
    const px = (viewport.scrollLeft + ax - mx) / old;
    const py = (viewport.scrollTop + ay - my) / old;
    mem.zoom = z;
    place(z);
    const [nx, ny] = margin();
    viewport.scrollLeft = px * z - ax + nx;
    viewport.scrollTop = py * z - ay + ny;
    mem.left = viewport.scrollLeft;
    mem.top = viewport.scrollTop;
    show(z);
  };
  if (mem.zoom === null || mem.zoom === undefined) mem.zoom = opts.initial(viewport);
  place(mem.zoom);
  viewport.scrollLeft = mem.left || 0;
  viewport.scrollTop = mem.top || 0;
  label.textContent = `${Math.round(mem.zoom * 100)} %`;
  viewport.dataset.zoom = mem.zoom.toFixed(3);
  viewport.addEventListener("scroll", () => { mem.left = viewport.scrollLeft; mem.top = viewport.scrollTop; });
  const user = (fn) => (...args) => { fn(...args); for (const cb of userFns) cb(); };
  const buttons = {
    "zoom-in": () => apply(mem.zoom * step),
    "zoom-out": () => apply(mem.zoom / step),
    "zoom-fit": () => apply(fit()),
    "zoom-reset": () => apply(opts.reset),
  };
  for (const [name, fn] of Object.entries(buttons)) {
    bar.querySelector(`[data-zoom='${name}']`).addEventListener("click", user(fn));
  }
  const at = (e) => {
    const r = viewport.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  };
  viewport.addEventListener("wheel", user((e) => {
    if (!e.deltaY) return;
    e.preventDefault();
    apply(mem.zoom * Math.exp(-Math.max(-200, Math.min(200, e.deltaY)) / 500), ...at(e));
  }), { passive: false });
  viewport.addEventListener("keydown", (e) => {
    if (e.target !== viewport) return;
    if (e.key === "+" || e.key === "=") { e.preventDefault(); user(() => apply(mem.zoom * step))(); }
    if (e.key === "-") { e.preventDefault(); user(() => apply(mem.zoom / step))(); }
  });
  // pointers: one drags the board, two pinch; a drag does not click what it started on
  const down = new Map();
  let pinch = null;
  let dragged = false;
  viewport.addEventListener("pointerdown", (e) => {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    down.set(e.pointerId, { x: e.clientX, y: e.clientY, x0: e.clientX, y0: e.clientY });
    dragged = false;
    if (down.size === 2) {
      const [a, b] = [...down.values()];
      pinch = { dist: Math.hypot(a.x - b.x, a.y - b.y) || 1, zoom: mem.zoom };
    }
  });
  viewport.addEventListener("pointermove", (e) => {
    const p = down.get(e.pointerId);
    if (!p) return;
    const dx = e.clientX - p.x;
    const dy = e.clientY - p.y;
    p.x = e.clientX;
    p.y = e.clientY;
    if (down.size >= 2 && pinch) {
      const [a, b] = [...down.values()];
      const dist = Math.hypot(a.x - b.x, a.y - b.y) || 1;
      const r = viewport.getBoundingClientRect();
      dragged = true;
      apply(pinch.zoom * (dist / pinch.dist), (a.x + b.x) / 2 - r.left, (a.y + b.y) / 2 - r.top);
      for (const cb of userFns) cb();
      return;
    }
    if (!dragged && Math.hypot(e.clientX - p.x0, e.clientY - p.y0) < 6) return;
    if (!dragged) {
      try { viewport.setPointerCapture(e.pointerId); } catch { /* a pointer already gone */ }
    }
    dragged = true;
    viewport.scrollLeft -= dx;
    viewport.scrollTop -= dy;
    for (const cb of userFns) cb();
  });
  const up = (e) => {
    down.delete(e.pointerId);
    if (down.size < 2) pinch = null;
  };
  viewport.addEventListener("pointerup", up);
  viewport.addEventListener("pointercancel", up);
  viewport.addEventListener("click", (e) => {
    if (dragged) { e.stopPropagation(); e.preventDefault(); dragged = false; }
  }, true);
  return {
    zoom: () => mem.zoom,
    fit,
    set: (z) => apply(z),
    show(rect, o = {}) {
      const pad = o.pad ?? 8;
      const cap = Math.min(max, o.max ?? max);
      const z = Math.max(min, o.min ?? 0, Math.min(cap, (viewport.clientWidth - 2 * pad) / Math.max(1, rect.width),
        (viewport.clientHeight - 2 * pad) / Math.max(1, rect.height)));
      apply(z);
      const [mx, my] = margin();
      viewport.scrollLeft = (rect.x + rect.width / 2) * z + mx - viewport.clientWidth / 2;
      viewport.scrollTop = (rect.y + rect.height / 2) * z + my - viewport.clientHeight / 2;
      mem.left = viewport.scrollLeft;
      mem.top = viewport.scrollTop;
      return z;
    },
    onUser(cb) { userFns.push(cb); },
    onZoom(cb) { zoomFns.push(cb); },
  };
}
