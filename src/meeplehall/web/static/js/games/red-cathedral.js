// The Red Cathedral board, drawn as SVG from a seat's view: the score track, the Market
// board (8 spaces in 4 quadrants, Resource tiles, dice, Influence cards), the Cathedral
// (towers of cards with Banners, delivered Materials, Ornamentations and the Workshop
// tiles beside them) and every player's Workshop board, Inventory and Ornamentations.
// Legal targets of the current decision are highlighted and clickable; an element
// with several legal actions opens a small chooser. Rule ids: RC-MARKET-*, RC-CLAIM-*,
// RC-BUILD-*, RC-WS-* (see the rules reference).

import { clickable, colourOf, h, s, token } from "../dom.js";
import { mountZoom, zoomBar } from "../zoom.js";

// The scoring track's Prestige spaces (data/track.toml), for the eagles on the track.
const TRACK = await fetch("/api/board/red-cathedral/track").then((r) => (r.ok ? r.json() : null)).catch(() => null);

const W = 1000;
// The board zooms and pans in its viewport (js/zoom.js) on every screen. When a decision
// is offered the view moves and zooms to its targets by itself; the smallest board text is
// 14 units, so LEGIBLE keeps it at 11 px or more wherever the targets allow. On a phone
// your own area is part of the zoomable board; wider, it is a strip of its own below it.
const PHONE = "(max-width: 40rem)";
const LEGIBLE = 11 / 14;
// On a phone the board has a layout of its own, PW units wide (the Market as two rows of
// four spaces, the Influence cards above it, the Cathedral's towers below, your own area
// under them), drawn at about 1 px a unit: its targets are at least 38 units and its text
// 12 units, so PHONE_LEAST keeps them at 36 px and 11 px or more.
const PW = 350;
const PHONE_LEAST = 36 / 37;
const zoomMemory = new WeakMap();  // per board container: {zoom, left, top, key}
const MATERIAL_FILL = {
  wood: "#8a5a2b", brick: "#b5482f", stone: "#9a9a9a", gold: "#d4af37", green: "#2e8b57",
  purple: "#7b3fa0", rubles: "#c9c9c9", rp: "#c8302c",
};
const MATERIAL_LETTER = { wood: "W", brick: "B", stone: "S", gold: "G", green: "Gr", purple: "P", rubles: "₽", rp: "R" };
const MATERIALS = ["wood", "brick", "stone", "gold", "green", "purple"];
/** A Material's short letter in the current language (catalogue key "letter: <material>"). */
function letter(t, mat) {
  const key = `letter: ${mat}`;
  const text = t(key);
  return text && text !== key ? text : (MATERIAL_LETTER[mat] || "");
}
/** The confirmations drawn on the board next to what they confirm (RC-MARKET-*, RC-INFL-*). */
const CONFIRM = ["finish-market", "perform", "done", "end-turn", "pass", "finish-delivery", "hire-teamsters"];
// The board's rows (SVG units): the score track (TRACK_H), the Market (MARKET_H: spaces,
// the strip of its confirmations, the Influence cards), the Cathedral (cathedralHeight),
// then Ivan and the other players (a strip of SIDE_H each). Your own area is such a strip.
const TRACK_H = 58;
const MARKET_H = 226;
const CARD_H = 68;
const SIDE_H = 100;
/** Whether the Cathedral's towers leave room on their right for its title and Build. */
const roomy = (towers) => towers.length * 200 <= 800;
function cathedralHeight(towers) {
  const levels = Math.max(1, ...towers.map((tw) => tw.length));
  return (roomy(towers) ? 4 : 38) + levels * (CARD_H + 4) + 22;
}
const KIND_FILL = { base: "#cdbb9c", middle: "#e6d5b0", dome: "#e9b8a0" };
const PIPS = {
  1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

/** The element key each legal action targets (one action may target several). */
function targets(action, view, seat) {
  const [verb, ...args] = action.text.split(" ");
  const dest = view.turn && view.turn.destination !== null ? view.turn.destination : -1;
  switch (verb) {
    case "claim": case "deliver": case "decorate": case "ivan-claim": case "ivan-ornament":
      return [`card:${verb === "deliver" ? args[1] : args[0]}`];
    case "move-die": return [`die:${args[0]}`];
    case "obtain": return [`space:${dest}`];
    case "reroll": return [`space:${args[0]}`];
    case "swap-tiles": return [`space:${args[0]}`, `space:${args[1]}`];
    case "use-influence": return [`influence:${Math.floor(dest / 2)}`];
    case "activate": return [`ws:${seat}:${args[0]}`];
    case "place-tile": {
      if (args[0] !== "white") return [`ws:${seat}:${args[0]}`];
      // the white space has two slots: the tile goes to a free one
      const side = (view.sides || []).find((x) => x.side === seat);
      const free = ((side && side.workshop) || []).filter((w) => w.position.startsWith("white") && !w.tile && !w.banner);
      return (free.length ? free.slice(0, 1) : [{ position: "white-1" }]).map((w) => `ws:${seat}:${w.position}`);
    }
    case "sell": case "buy": return [`inv:${seat}:${args[0]}`];
    case "build": return ["action:build"];
    case "sell-prestige": return [`score:${seat}`];
    case "finish-market": return dest >= 0 ? [`confirm:market`] : [];
    case "perform": case "done": return dest >= 0 ? [`confirm:influence`] : [];
    default: return [];
  }
}

export function renderBoard(container, view, ctx) {
  const { t, tr } = ctx;
  const byKey = new Map();
  for (const action of ctx.legal || []) {
    for (const key of targets(action, view, ctx.seat)) {
      if (!byKey.has(key)) byKey.set(key, []);
      byKey.get(key).push(action);
    }
  }
  const chooser = h("div", { class: "board-chooser", hidden: true, role: "group", "aria-label": t("Choose") });
  let selected = null;
  function closeChooser() {
    if (chooser.hidden) return;
    chooser.hidden = true;
    if (selected) { selected.classList.remove("selected"); selected.focus(); }
  }
  chooser.addEventListener("keydown", (event) => { if (event.key === "Escape") { event.preventDefault(); closeChooser(); } });
  function activate(key, el) {
    const actions = byKey.get(key);
    if (actions.length === 1) { ctx.choose(actions[0].text); return; }
    if (selected) selected.classList.remove("selected");
    selected = el;
    el.classList.add("selected");
    chooser.hidden = false;
    chooser.replaceChildren(...actions.map((a) => h("button", { "data-action": a.text, class: "legal-target", title: tr(a.label),
      onclick: () => ctx.choose(a.text) }, tr(a.label))),
    h("button", { class: "cancel", onclick: closeChooser }, t("Cancel")));
    placeChooser(chooser, el);
    const first = chooser.querySelector("button");
    if (first) first.focus();
  }
  /** Make ``el`` clickable when ``key`` has legal actions; add a tooltip either way. */
  function target(el, key, tooltip, box) {
    el.prepend(s("title", {}, tooltip));
    // what the move being replayed changed (the shell's replay: ctx.highlight, changedParts)
    if (ctx.highlight && ctx.highlight.has(key)) {
      el.classList.add("changed");
      el.dataset.changed = key;
      if (box) el.append(s("rect", { class: "changed-ring", ...box, rx: 6 }));
    }
    const actions = byKey.get(key);
    if (!actions) return el;
    if (box) el.append(s("rect", { class: "hl", ...box, rx: 6 }));
    el.dataset.target = key;
    el.dataset.count = String(actions.length);
    el.dataset.action = actions[0].text;
    if (actions.length > 1) el.dataset.actions = actions.map((a) => a.text).join("\n");
    // the hint (the greedy bot's first choice) is shown on the board too
    if (ctx.hint && actions.some((a) => a.text === ctx.hint)) {
      el.classList.add("hinted");
      el.dataset.hinted = ctx.hint;
      if (box) el.append(s("rect", { class: "hint-ring", ...box, x: box.x - 4, y: box.y - 4, width: box.width + 8, height: box.height + 8, rx: 8 }));
    }
    const what = actions.length === 1 ? tr(actions[0].label) : `${tooltip} — ${t("{n} choices", { n: actions.length })}`;
    return clickable(el, what, () => activate(key, el));
  }

  const sides = view.sides || [];
  const phone = typeof matchMedia === "function" && matchMedia(PHONE).matches;
  // Your own area is a strip of its own below the board (on a phone it is part of the
  // zoomable board): it never covers the Cathedral.
  const mineSide = phone ? undefined : sides.find((x) => x.side === ctx.seat && x.inventory !== undefined);
  const others = sides.filter((x) => x !== mineSide);
  let svg, height, width;
  if (phone) {
    ({ svg, height } = phoneBoard(view, ctx, target));
    width = PW;
  } else {
    width = W;
    const cathedralY = TRACK_H + MARKET_H;
    const boardH = cathedralY + cathedralHeight(view.cathedral || []);
    height = boardH + others.filter((x) => x.inventory !== undefined).length * SIDE_H + (view.ivan ? 80 : 0);
    svg = s("svg", { viewBox: `0 0 ${W} ${height}`, role: "group", "aria-label": t("The Red Cathedral: the table"),
      "font-family": "system-ui, sans-serif", "font-size": 14, class: "rc-board" });
    svg.append(s("rect", { x: 0, y: 0, width: W, height, fill: "#f7f1e3" }));
    drawTrack(svg, view, 0, t, tr, target);
    drawMarket(svg, view, TRACK_H, t, tr, target, byKey);
    drawCathedral(svg, view, cathedralY, t, tr, target);
    let y = boardH;
    if (view.ivan) { drawIvan(svg, view, y, t, tr); y += 80; }
    for (const side of others.filter((x) => x.inventory !== undefined)) {
      drawSide(svg, view, side, 0, y, ctx, target);
      y += SIDE_H;
    }
  }
  svg.addEventListener("confirm", (event) => ctx.choose(event.detail));
  let mem = zoomMemory.get(container);
  if (!mem) { mem = { zoom: null, left: 0, top: 0, key: null }; zoomMemory.set(container, mem); }
  const bar = zoomBar({ bar: t("board zoom"), out: t("zoom out"), in: t("zoom in"), fit: t("whole board"),
    fitLabel: t("show the whole board"), reset: t("normal size") }, { bar: "rc-zoombar", level: "rc-zoom-level" });
  const legendBox = h("details", { class: "rc-legend-box" }, h("summary", {}, t("Legend")), legend(t, tr));
  bar.append(legendBox);
  const viewport = h("div", { class: "rc-viewport", tabindex: "0", "aria-label": t("board: drag to move it, + and − zoom") }, svg);
  const stage = h("div", { class: "rc-stage" }, viewport, chooser);
  // Ending the turn, passing, stopping deliveries: controls in the board's toolbar.
  // On a phone the Market's and Influence's confirmations are there too, always in view
  // beside the targets they finish.
  const barred = ["end-turn", "pass", "finish-delivery", "hire-teamsters", ...(phone ? ["finish-market", "perform", "done"] : [])];
  const confirms = (ctx.legal || []).filter((a) => barred.includes(a.text.split(" ")[0]))
    .map((a) => h("button", { class: "primary legal-target", "data-action": a.text, "data-confirm": a.text, title: tr(a.label),
      onclick: () => ctx.choose(a.text) }, shortLabel(a, t, tr)));
  bar.append(h("div", { class: "confirm-bar", role: "group", "aria-label": t("Confirm") }, confirms));
  const table = h("div", { class: "rc-table" }, bar, stage);
  if (mineSide) {
    const own = s("svg", { viewBox: `0 0 ${W} ${SIDE_H}`, role: "group", "aria-label": t("Your area"),
      "font-family": "system-ui, sans-serif", "font-size": 14, class: "my-side" });
    drawSide(own, view, mineSide, 0, 0, ctx, target);
    table.append(h("div", { class: "my-area", id: "my-area" }, own));
  }
  container.append(summary(view, ctx), table);
  // A new decision (or a new window size): the view moves to its targets by itself.
  const key = `${(ctx.legal || []).map((a) => a.text).join("|")}@${viewport.clientWidth}x${viewport.clientHeight}`
    + (ctx.highlight ? `#${[...ctx.highlight].join(",")}` : "");
  if (mem.key !== key) {
    mem.key = key;
    Object.assign(mem, frame(svg, viewport, width, height, phone));
  }
  mountZoom(viewport, svg, bar, bar.querySelector(".rc-zoom-level"), mem, width, height,
    { min: 0.3, max: 3, step: 1.25, reset: 1, initial: () => frame(svg, viewport, width, height, phone).zoom });
}

/** The zoom and scroll that show every legal target of ``svg`` in ``viewport``: wider than
 * a phone, the board's whole width where that is legible and the targets' height fits;
 * else as large as they fit (at most 1.6), at least legible (LEGIBLE; a phone:
 * PHONE_MIN_TARGET) where the targets fit at that size; with no target, the board's width. */
function frame(svg, viewport, W, height, phone) {
  const vw = Math.max(1, viewport.clientWidth - 4), vh = Math.max(1, viewport.clientHeight - 4);
  // no target (a replayed move): what it changed
  const shown = svg.querySelector(".legal-target") ? ".legal-target" : ".changed";
  const boxes = [...svg.querySelectorAll(shown)].map((el) => { try { return el.getBBox(); } catch { return null; } })
    .filter((b) => b && b.width > 0);
  if (!boxes.length) {
    const zoom = Math.max(LEGIBLE, vw / W);
    return { zoom, left: Math.max(0, (W * zoom - vw) / 2), top: 0 };
  }
  const x0 = Math.min(...boxes.map((b) => b.x)) - 8, y0 = Math.min(...boxes.map((b) => b.y)) - 8;
  const x1 = Math.max(...boxes.map((b) => b.x + b.width)) + 8, y1 = Math.max(...boxes.map((b) => b.y + b.height)) + 8;
  const fits = Math.min(vw / (x1 - x0), vh / (y1 - y0));
  const least = phone ? PHONE_LEAST : LEGIBLE;
  const maxLeft = (z) => Math.max(0, W * z - vw), maxTop = (z) => Math.max(0, height * z - vh);
  // Wider than a phone, where the board's whole width is legible: it shows whole across (no
  // space, tower or Build cut at an edge) as large as the targets' height allows, and the
  // view moves only up and down to the targets.
  const across = Math.min(1.6, vw / W, vh / (y1 - y0));
  if (across >= least) {
    // scrolled down no further than the lowest target needs, so that the score track at
    // the top stays in view wherever it can
    const top = Math.min(y0 * across, Math.max(0, y1 * across - vh));
    return { zoom: across, left: 0, top: Math.min(maxTop(across), Math.max(0, top)) };
  }
  if (phone && fits < least) {
    // a phone keeps its targets large enough for a finger: the view shows as many of them
    // as the window holds at that size (the dice and a card rather than two cards alone)
    const ww = vw / least, wh = vh / least;
    let best = { n: -1, left: x0, top: y0 };
    for (const a of boxes) {
      for (const b of boxes) {
        const left = a.x - 8, top = b.y - 8;
        const n = boxes.filter((c) => c.x >= left && c.y >= top && c.x + c.width <= left + ww && c.y + c.height <= top + wh).length;
        if (n > best.n) best = { n, left, top };
      }
    }
    // the window centred on the targets it holds, so that what they stand on shows too
    const held = boxes.filter((c) => c.x >= best.left && c.y >= best.top && c.x + c.width <= best.left + ww
      && c.y + c.height <= best.top + wh);
    const gx = (Math.min(...held.map((c) => c.x)) + Math.max(...held.map((c) => c.x + c.width))) / 2;
    const gy = (Math.min(...held.map((c) => c.y)) + Math.max(...held.map((c) => c.y + c.height))) / 2;
    return { zoom: least, left: Math.min(maxLeft(least), Math.max(0, gx * least - vw / 2)),
      top: Math.min(maxTop(least), Math.max(0, gy * least - vh / 2)) };
  }
  const zoom = Math.min(1.6, fits >= least ? Math.max(least, Math.min(fits, phone ? 1.4 : 1.1)) : fits);
  const cx = (x0 + x1) / 2 * zoom, cy = (y0 + y1) / 2 * zoom;
  return { zoom, left: Math.min(maxLeft(zoom), Math.max(0, cx - vw / 2)), top: Math.min(maxTop(zoom), Math.max(0, cy - vh / 2)) };
}

/** The board's chooser, beside the element it offers choices for (inside the stage). */
function placeChooser(chooser, el) {
  const stage = chooser.parentElement;
  if (!stage) return;
  const r = el.getBoundingClientRect(), sr = stage.getBoundingClientRect();
  const cw = chooser.offsetWidth, ch = chooser.offsetHeight;
  let left = r.left - sr.left + r.width / 2 - cw / 2;
  let top = r.bottom - sr.top + 6;
  if (top + ch > sr.height) top = r.top - sr.top - ch - 6;
  left = Math.max(4, Math.min(sr.width - cw - 4, left));
  top = Math.max(4, Math.min(sr.height - ch - 4, top));
  chooser.style.left = `${left}px`;
  chooser.style.top = `${top}px`;
}

/** A short summary of each region of the board, for screen readers. */
function summary(view, ctx) {
  const { t, tr } = ctx;
  const lines = (view.sides || []).map((side) => {
    const inv = side.inventory ? Object.entries(side.inventory).filter(([, n]) => n > 0).map(([m, n]) => `${n} ${tr(m)}`).join(", ") : "";
    return t("{name}: {rp} Recognition, {pp} Prestige, {rubles} Rubles, {done} Cathedral cards completed; Inventory: {inventory}",
      { name: tr(side.name), rp: side.recognition, pp: side.prestige, rubles: side.rubles ?? 0, done: side.completed,
        inventory: inv || t("nothing") });
  });
  const dice = (view.market || []).map((sp) => sp.dice.map((d) => t("{colour} {value} on space {n}", { colour: tr(d.colour), value: d.value, n: sp.space + 1 }))).flat();
  lines.push(t("Market board: dice {dice}", { dice: dice.join(", ") || t("nothing") }));
  const cards = (view.cathedral || []).flat();
  lines.push(t("Cathedral: {banners} cards with a Banner, {done} completed", {
    banners: cards.filter((c) => c.owner).length, done: cards.filter((c) => c.completed).length }));
  return h("ul", { class: "visually-hidden", id: "board-summary", "aria-label": t("The board in short") },
    lines.map((line) => h("li", {}, line)));
}

/** The legend of the abbreviations used on the board, in the current language. */
function legend(t, tr) {
  const items = [
    ["RP", t("Recognition points (the score track)")], ["PP", t("Prestige points (the score)")],
    ["₽", tr("Rubles")], ["✓", t("completed Cathedral cards")], ["◆", t("Prestige space")],
    ...MATERIALS.map((m) => [letter(t, m), tr(m)]),
  ];
  return h("p", { class: "rc-legend", id: "legend", "aria-label": t("Legend") },
    items.map(([k, v]) => h("span", {}, h("b", {}, k), " ", v)));
}

function material(svg, name, n, x, y, t, tr, extra = "") {
  const g = s("g", {}, s("title", {}, `${n} ${tr(name)}${extra}`),
    s("rect", { x, y, width: 36, height: 24, rx: 3, fill: MATERIAL_FILL[name] || "#ccc", stroke: "#333" }),
    s("text", { x: x + 18, y: y + 17.5, "text-anchor": "middle", "font-size": 15, "font-weight": 700,
      fill: name === "stone" || name === "gold" || name === "rubles" ? "#000" : "#fff" }, `${n}${MATERIALS.includes(name) ? letter(t, name) : (MATERIAL_LETTER[name] || "")}`));
  svg.append(g);
  return g;
}

function drawTrack(svg, view, y, t, tr, target, width = W) {
  const sides = view.sides || [];
  const lap = (TRACK && TRACK.lap_length) || 80;
  const eagles = (TRACK && TRACK.prestige_positions) || [];
  const narrow = width < W;  // a phone's board: pieces with room for a finger
  const x0 = narrow ? 56 : 60, x1 = width - (narrow ? 16 : 20);
  const scale = (x1 - x0) / lap;
  svg.append(s("text", { x: 4, y: y + 30, "font-weight": 700 }, t("Score")));
  svg.append(s("line", { x1: x0, y1: y + 24, x2: x1, y2: y + 24, stroke: "#8b1e1e", "stroke-width": 3 }));
  for (let v = 0; v <= lap; v += 5) {
    svg.append(s("line", { x1: x0 + v * scale, y1: y + 19, x2: x0 + v * scale, y2: y + 29, stroke: "#8b1e1e" }));
    if (v % 10 === 0) svg.append(s("text", { x: x0 + v * scale, y: y + 15, "text-anchor": "middle", "font-size": 14 }, String(v)));
  }
  // The Prestige spaces (RC-SCORE-4): a gold diamond each, with its Prestige value every 5.
  const marks = s("g", { class: "prestige-spaces" }, s("title", {}, t("Prestige spaces: the score is the number of Prestige spaces reached")));
  let labelled = -Infinity;  // where the last Prestige value was written: none overlap
  eagles.forEach((pos, k) => {
    const cx = x0 + pos * scale;
    marks.append(s("path", { d: `M${cx} ${y + 30}l4 5l-4 5l-4 -5z`, fill: "#d4af37", stroke: "#6b4e00", "stroke-width": 0.8,
      "data-prestige": k + 1 }));
    if ((k + 1) % 5 === 0 && cx - labelled >= 44) {
      labelled = cx;
      marks.append(s("text", { x: cx, y: y + 54, "text-anchor": "middle", "font-size": 14, fill: "#6b4e00", "font-weight": 700 },
        `${k + 1} PP`));
    }
  });
  svg.append(marks);
  sides.forEach((side) => {
    const pos = Math.max(0, side.recognition) % lap;
    // pieces on the same space stand side by side, each letter readable
    const same = sides.filter((o) => Math.max(0, o.recognition) % lap === pos);
    const cx = x0 + pos * scale + (same.indexOf(side) - (same.length - 1) / 2) * 20;
    const g = s("g", {}, piece(side.name, cx, y + 24, 9));
    const half = narrow ? 19 : 17;
    svg.append(target(g, `score:${side.side}`,
      t("{name}: {rp} Recognition, {pp} Prestige", { name: tr(side.name), rp: side.recognition, pp: side.prestige }),
      { x: cx - half, y: y + 24 - half, width: 2 * half, height: 2 * half }));
  });
}

function drawMarket(svg, view, y, t, tr, target, byKey) {
  const spaceW = W / 8;
  const dest = view.turn && view.turn.destination !== null ? view.turn.destination : -1;
  for (const sp of view.market || []) {
    const x = sp.space * spaceW + 4;
    // The space itself (not a target): the dice stand in its lower half, so that a die
    // and the space's Resource tile are each clickable at their centre.
    svg.append(s("rect", { x, y: y + 2, width: spaceW - 8, height: 96, rx: 8,
      fill: sp.quadrant % 2 ? "#efe3c8" : "#e7d7b5", stroke: sp.space === dest ? "#8b1e1e" : "#8c7a5b",
      "stroke-width": sp.space === dest ? 3 : 1 }));
    const g = s("g", {});
    g.append(s("text", { x: x + 6, y: y + 18, "font-size": 14, "font-weight": 700 }, t("Space {n}", { n: sp.space + 1 })));
    // The Resource tile beside the space (RC-MARKET-1).
    resourceTile(g, sp.tile, x + 6, y + 23, spaceW - 20, 28, 14, tr);
    svg.append(target(g, `space:${sp.space}`, t("Market space {n}: Resource tile {amount} {resource}; {dice} dice here",
      { n: sp.space + 1, amount: sp.tile.amount, resource: tr(sp.tile.resource), dice: sp.dice.length }),
    { x: x + 2, y: y + 4, width: spaceW - 12, height: 50 }));
    sp.dice.forEach((die, k) => {
      const dx = x + 4 + (k % 3) * 38, dy = y + 58;
      const dg = s("g", {});
      drawDie(dg, die, dx, dy);
      svg.append(target(dg, `die:${die.colour}`, t("The {colour} die, showing {value}", { colour: tr(die.colour), value: die.value }),
        { x: dx - 2, y: dy - 2, width: 38, height: 38 }));
    });
    if (sp.space === dest && byKey.has("confirm:market")) {
      const width = Math.max(spaceW + 40, 24 + 8.5 * t("✔ {label}", { label: t("Finish the Market action") }).length);
      svg.append(confirmButton(byKey.get("confirm:market"), Math.max(4, Math.min(x - 4, W - width - 4)), y + 101, width, t, tr));
    }
  }
  // Influence cards, one per quadrant (RC-INFL-*), below the strip of the Market's and
  // Influence's confirmations.
  const iy = y + 131;
  for (const inf of view.influence || []) {
    const x = inf.quadrant * 2 * spaceW + 4;
    const g = s("g", {});
    g.append(s("rect", { x, y: iy, width: 2 * spaceW - 8, height: 92, rx: 6, fill: "#fffaf0", stroke: "#6b5a3a" }));
    influenceWords(g, inf, x, iy + 17, { chars: 29, font: 14, line: 17, indent: [6, 22] }, tr);
    svg.append(target(g, `influence:${inf.quadrant}`, influenceTip(inf, t, tr),
      { x: x - 2, y: iy - 2, width: 2 * spaceW - 4, height: 96 }));
    if (dest >= 0 && Math.floor(dest / 2) === inf.quadrant && byKey.has("confirm:influence")) {
      let bx = x;
      byKey.get("confirm:influence").forEach((a) => {
        const width = 24 + 8.5 * t("✔ {label}", { label: shortLabel(a, t, tr) }).length;
        svg.append(confirmButton([a], Math.min(bx, W - width - 4), y + 101, width, t, tr));
        bx += width + 8;
      });
    }
  }
}

/** A button drawn on the board that confirms a step (one legal action). */
function confirmButton(actions, x, y, width, t, tr, height = 26) {
  const a = actions[0];
  const g = s("g", { class: "board-confirm", "data-confirm": a.text });
  g.append(s("rect", { x, y, width, height, rx: 6, fill: "#8b1e1e", stroke: "#4a0f0f" }),
    s("text", { x: x + width / 2, y: y + height / 2 + 5, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: "#fff" },
      t("✔ {label}", { label: shortLabel(a, t, tr) })));
  g.prepend(s("title", {}, tr(a.label)));
  g.dataset.action = a.text;
  return clickable(g, tr(a.label), () => g.dispatchEvent(new CustomEvent("confirm", { bubbles: true, detail: a.text })));
}

function shortLabel(a, t, tr) {
  const verb = a.text.split(" ")[0];
  if (verb === "finish-market") return t("Finish the Market action");
  if (verb === "perform") return t("Carry out the Influence action");
  if (verb === "done") return t("Stop");
  return tr(a.label);
}

function drawDie(g, die, x, y) {
  const c = colourOf(die.colour);
  g.append(s("rect", { x, y, width: 34, height: 34, rx: 5, fill: c.fill, stroke: "#111", "stroke-width": 1.5 }));
  for (const [px, py] of PIPS[die.value] || []) {
    // the pips lower left of the die's letter (top right), never under it
    g.append(s("circle", { cx: x + 12 + px * 7, cy: y + 22 + py * 7, r: 3, fill: c.ink }));
  }
  g.append(s("text", { x: x + 32, y: y + 13, "text-anchor": "end", "font-size": 14, "font-weight": 700, fill: c.ink }, c.letter));
}

function drawCathedral(svg, view, y, t, tr, target) {
  const towers = view.cathedral || [];
  const wide = roomy(towers);
  // its title and Build: on the right of the towers where there is room, else above them
  const bx = wide ? 830 : 130, by = wide ? y + 30 : y + 2;
  svg.append(s("text", { x: wide ? bx : 4, y: wide ? y + 20 : y + 22, "font-weight": 700 }, t("Cathedral")));
  const build = s("g", {});
  build.append(s("rect", { x: bx, y: by, width: 150, height: 30, rx: 4, fill: "#fff", stroke: "#8b1e1e" }),
    s("text", { x: bx + 75, y: by + 20, "text-anchor": "middle", "font-size": 14, "font-weight": 700 }, t("Build")));
  svg.append(target(build, "action:build", t("Build: up to 3 deliveries to your cards or Ornamentations"),
    { x: bx - 2, y: by - 2, width: 154, height: 34 }));
  const colW = Math.min(200, (W - 10) / Math.max(1, towers.length));
  const levels = Math.max(1, ...towers.map((tw) => tw.length));
  const base = y + (wide ? 4 : 38) + (levels - 1) * (CARD_H + 4);
  towers.forEach((tower, ti) => {
    const x = 6 + ti * colW;
    svg.append(s("text", { x: x + colW / 2, y: base + CARD_H + 17, "text-anchor": "middle", "font-size": 14, "font-weight": 700 },
      t("Tower {n}", { n: ti + 1 })));
    tower.forEach((card, level) => {
      drawCard(svg, card, x, base - level * (CARD_H + 4), colW - 8, CARD_H, t, tr, target);
    });
  });
}

function drawCard(svg, card, x, y, w, hgt, t, tr, target) {
  const g = s("g", {});
  g.append(s("rect", { x, y, width: w, height: hgt, rx: 5, fill: KIND_FILL[card.kind] || "#ddd",
    stroke: card.completed ? "#1d6b2a" : "#6b5a3a", "stroke-width": card.completed ? 3 : 1 }));
  // the slot number as the prompts name it ("slot 3") and the reward; the Materials
  // delivered/needed; the Banner, the Ornamentation and the Workshop tile beside it
  g.append(s("text", { x: x + 5, y: y + 16, "font-size": 14, "font-weight": 700 },
    `${t("slot {n}", { n: card.slot + 1 })}${card.completed ? " ✓" : ""}`));
  g.append(s("text", { x: x + w - 5, y: y + 16, "text-anchor": "end", "font-size": 14 },
    `+${card.rp} RP${card.rubles ? ` +${card.rubles}₽` : ""}`));
  let mx = x + 4;
  const chipW = Math.min(48, (w - 8) / Math.max(1, Object.keys(card.cost).length) - 3);
  for (const [mat, need] of Object.entries(card.cost)) {
    const have = (card.delivered || {})[mat] || 0;
    const chip = s("g", {}, s("rect", { x: mx, y: y + 21, width: chipW, height: 22, rx: 3, fill: MATERIAL_FILL[mat], stroke: "#333",
      opacity: have >= need ? 1 : 0.55 }),
    s("text", { x: mx + chipW / 2, y: y + 37, "text-anchor": "middle", "font-size": 14, "font-weight": 700,
      fill: ["stone", "gold"].includes(mat) ? "#000" : "#fff" }, `${have}/${need}${letter(t, mat)}`));
    g.append(chip);
    mx += chipW + 3;
  }
  if (card.owner) g.append(piece(card.owner, x + 14, y + 56, 10));
  if (card.ornament) {
    g.append(piece(card.ornament.owner, x + 42, y + 56, 8));
    g.append(s("text", { x: x + 57, y: y + 61, "font-size": 14 }, tr(card.ornament.type)));
  }
  if (card.workshop_tile) {
    g.append(s("rect", { x: x + w - 50, y: y + 46, width: 46, height: 20, rx: 3, fill: "#fff", stroke: "#555", "stroke-dasharray": "3 2" }),
      s("text", { x: x + w - 27, y: y + 61, "text-anchor": "middle", "font-size": 14 }, tileSymbol(card.workshop_tile.benefit, t)));
  }
  svg.append(target(g, `card:${card.slot}`, cardTip(card, t, tr), { x: x - 2, y: y - 2, width: w + 4, height: hgt + 4 }));
}

/** A Cathedral card in words (its tooltip and accessible name). */
function cardTip(card, t, tr) {
  const cost = Object.entries(card.cost).map(([m, n]) => `${n} ${tr(m)}`).join(", ");
  const delivered = Object.entries(card.delivered || {}).map(([m, n]) => `${n} ${tr(m)}`).join(", ") || t("nothing");
  let tip = t("Cathedral card {card} ({kind}, slot {slot}): costs {cost}; delivered {delivered}; reward {rp} Recognition",
    { card: card.card, kind: tr(card.kind), slot: card.slot + 1, cost, delivered, rp: card.rp });
  if (card.rubles) tip += ` + ${card.rubles} ${tr("Rubles")}`;
  tip += ". " + (card.owner ? t("Banner of {name}.", { name: tr(card.owner) }) : t("No Banner yet."));
  if (card.completed) tip += " " + t("Completed.");
  if (card.ornament) tip += " " + t("Ornamentation: {type} of {name}.", { type: tr(card.ornament.type), name: tr(card.ornament.owner) });
  if (card.workshop_tile) tip += " " + t("A Workshop tile lies beside it: {benefit}.", { benefit: tr(card.workshop_tile.benefit) });
  return tip;
}

function drawIvan(svg, view, y, t, tr) {
  const iv = view.ivan;
  svg.append(s("text", { x: 4, y: y + 14, "font-weight": 700 }, t("Ivan Yakovlevich")));
  iv.row.forEach((c, i) => {
    const x = 150 + i * 140;
    const g = s("g", {}, s("title", {}, `${tr(c.card)} — ${tr(c.die)} ${c.face_up ? t("face up") : t("face down")}`),
      s("rect", { x, y: y + 2, width: 130, height: 30, rx: 4, fill: c.face_up ? "#fff" : "#ccc", stroke: "#555" }),
      s("text", { x: x + 6, y: y + 22, "font-size": 14 }, `${tr(c.card)} · ${colourOf(c.die).letter}`));
    svg.append(g);
  });
  svg.append(s("text", { x: 150, y: y + 54, "font-size": 14 },
    `${t("Banners")}: ${iv.banners} · ${t("next Ornamentation")}: ${iv.next_ornament ? tr(iv.next_ornament) : "—"}`));
}

/** A seat's piece (dom.js token) whose letter stays legible: at least 11 units across and a
 * 14-unit letter. */
function piece(name, cx, cy, r) {
  const g = token(name, cx, cy, Math.max(11, r));
  const letterEl = g.querySelector("text");
  if (letterEl) { letterEl.setAttribute("font-size", "15"); letterEl.setAttribute("y", String(cy + 5)); }
  return g;
}

/** The seat as the shell names it everywhere ("Ada (green)", ctx.who), else its colour
 * and the name its player gave. */
function whoOf(ctx, side) {
  const who = typeof ctx.who === "function" && typeof side.side === "number" ? ctx.who(side.side) : null;
  return who || `${ctx.tr(side.name)}${personOf(ctx, side.side)}`;
}

/** " · Ada": the name the seat's player gave, cut to fit a title (none: ""). */
function personOf(ctx, seat) {
  const name = ctx.people && ctx.people[seat];
  if (!name) return "";
  return ` · ${name.length > 14 ? `${name.slice(0, 13)}…` : name}`;
}

/** A Market space's Resource tile (RC-MARKET-1): a w x h box at (x, y), its amount and
 * resource in `font`-unit text. */
function resourceTile(g, tile, x, y, w, h, font, tr) {
  g.append(s("rect", { x, y, width: w, height: h, rx: 4, fill: MATERIAL_FILL[tile.resource] || "#ddd", stroke: "#333" }));
  g.append(s("text", { x: x + w / 2, y: y + h / 2 + font * 0.36, "text-anchor": "middle", "font-size": font, "font-weight": 700,
    fill: ["stone", "gold", "rubles"].includes(tile.resource) ? "#000" : "#fff" },
  tile.resource === "rp" ? `${tile.amount} RP` : `${tile.amount} ${tr(tile.resource)}`));
}

/** An Influence card's actions (RC-INF-*) as lines from (x, y): `geo` gives the characters
 * a line holds, the text size, the line height and the indent of a first and a further
 * line; five lines at most, the first action gets what the second leaves. */
function influenceWords(g, inf, x, y, geo, tr) {
  const texts = inf.actions.map((a) => `${a.mark === "repeat" ? "∞" : "①"} ${tr(a.text)}`);
  const second = texts.length > 1 ? Math.min(3, wrap(texts[1], geo.chars).length) : 0;
  let ly = y;
  texts.forEach((text, k) => {
    wrap(text, geo.chars).slice(0, k === 0 ? 5 - second : 3).forEach((line, j) => {
      g.append(s("text", { x: x + geo.indent[j ? 1 : 0], y: ly, "font-size": geo.font }, line));
      ly += geo.line;
    });
  });
}

/** An Influence card's tooltip: each action's words and how often it may be used. */
function influenceTip(inf, t, tr) {
  const lines = inf.actions.map((a) => `${tr(a.text)} (${a.mark === "repeat" ? t("repeatable") : t("once per turn")})`);
  return `${t("Influence card")}: ${lines.join("; ")}`;
}

// A Workshop space's drawing, in units: its size, the text size, where its letter, a
// Banner and a tile (with its side's arrow and its benefit) go.
const WS_DESK = { w: 62, h: 84, font: 15, letter: [5, 17], mid: 31, banner: 50, tile: [4, 24, 54, 54], arrow: 45, benefit: 68 };
const WS_PHONE = { w: 54, h: 60, font: 12, letter: [4, 14], mid: 27, banner: 38, tile: [3, 18, 48, 39], arrow: 33, benefit: 51 };

/** One of the six Workshop spaces (yellow, red, blue, green, white-1, white-2; RC-WS-*)
 * at (wx, wy), drawn by `geo` (WS_DESK or WS_PHONE): its Banner or its tile, face up or
 * down, as a target. */
function workshopSpace(svg, side, ws, wx, wy, geo, ctx, target) {
  const { t, tr } = ctx;
  const c = colourOf(ws.position.split("-")[0]);
  const g = s("g", {});
  g.append(s("rect", { x: wx, y: wy, width: geo.w, height: geo.h, rx: 5, fill: c.fill, stroke: "#333", opacity: 0.9 }));
  const white = ws.position.startsWith("white") ? ws.position.split("-")[1] || "" : "";
  g.append(s("text", { x: wx + geo.letter[0], y: wy + geo.letter[1], "font-size": geo.font, "font-weight": 700, fill: c.ink },
    `${c.letter}${white}`));
  let tip = t("Workshop space {position}", { position: tr(ws.position) });
  if (ws.banner) {
    g.append(piece(side.name, wx + geo.mid, wy + geo.banner, 11));
    tip += ": " + t("a Banner");
  } else if (ws.tile) {
    const [tx, ty, tw, th] = geo.tile;
    const ink = ws.face_up ? "#000" : "#fff";
    g.append(s("rect", { x: wx + tx, y: wy + ty, width: tw, height: th, rx: 3, fill: ws.face_up ? "#fff" : "#777",
      stroke: "#222", "stroke-dasharray": ws.face_up ? null : "3 2" }));
    g.append(s("text", { x: wx + geo.mid, y: wy + geo.arrow, "text-anchor": "middle", "font-size": geo.font, fill: ink },
      ws.face_up ? "▲" : "▼"));
    g.append(s("text", { x: wx + geo.mid, y: wy + geo.benefit, "text-anchor": "middle", "font-size": geo.font, "font-weight": 700, fill: ink },
      tileSymbol(ws.benefit, t)));
    tip += ": " + t("Workshop tile, {side}: {benefit}", { side: ws.face_up ? t("face up") : t("face down"), benefit: tr(ws.benefit) });
  } else {
    tip += ": " + t("empty");
    if (ws.locked_ornament) tip += " (" + t("unlocks {ornament}", { ornament: tr(ws.locked_ornament) }) + ")";
  }
  svg.append(target(g, `ws:${side.side}:${ws.position}`, tip, { x: wx - 2, y: wy - 2, width: geo.w + 4, height: geo.h + 4 }));
}

/** A seat's area as a strip SIDE_H high: who and the score; the Workshop board (RC-WS-*);
 * the Inventory (RC-INV-*), Banners and Ornamentations. */
function drawSide(svg, view, side, x, y, ctx, target) {
  const { t, tr } = ctx;
  const w = W - 8;
  const mine = side.side === ctx.seat;
  const turn = view.turn_of === side.name;
  svg.append(s("rect", { x: x + 4, y: y + 2, width: w, height: SIDE_H - 4, rx: 8, fill: mine ? "#fffdf2" : "#f3ece0",
    stroke: turn ? "#8b1e1e" : "#8c7a5b", "stroke-width": turn ? 3 : 1 }));
  svg.append(piece(side.name, x + 20, y + 18, 10));
  svg.append(s("text", { x: x + 36, y: y + 23, "font-weight": 700, "font-size": 15 },
    `${whoOf(ctx, side)}${mine ? ` (${t("you")})` : ""}${turn ? " ▶" : ""}`));
  svg.append(s("text", { x: x + 12, y: y + 45, "font-size": 15 },
    `${side.recognition} RP · ${side.prestige} PP${side.rubles !== undefined ? ` · ${side.rubles} ₽` : ""} · ✓${side.completed}`));
  if (side.inventory === undefined) return;  // Ivan: no Workshop board
  svg.append(s("text", { x: x + 12, y: y + 67, "font-size": 15 },
    t("Banners: {inside} in the Inventory, {outside} outside", { inside: side.banners_in_inventory, outside: side.banners_outside })));
  const orn = Object.entries(side.ornaments_available || {}).map(([k, n]) => `${tr(k)} ${n}`).join(" · ");
  svg.append(s("text", { x: x + 12, y: y + 89, "font-size": 15 }, s("title", {}, `${t("placed")}: ${side.ornaments_placed}`),
    `${t("Ornamentations left")}: ${orn}`));
  // The Workshop board: six spaces: yellow, red, blue, green, white-1, white-2.
  (side.workshop || []).forEach((ws, i) => {
    workshopSpace(svg, side, ws, x + 414 + i * 66, y + 8, WS_DESK, ctx, target);
  });
  // Inventory: Materials, free room and Banners still in it.
  svg.append(s("text", { x: x + 818, y: y + 23, "font-size": 15 },
    `${t("Inventory")} (${Object.values(side.inventory).reduce((a, b) => a + b, 0)}/${side.capacity})`));
  Object.entries(side.inventory).forEach(([mat, n], k) => {
    const ix = x + 818 + (k % 4) * 43, iy = y + 33 + Math.floor(k / 4) * 34;
    const g = material(svg, mat, n, ix, iy, t, tr);
    if (mine) {
      g.remove();
      const wrapG = s("g", {}, g);
      svg.append(target(wrapG, `inv:${side.side}:${mat}`, `${n} ${tr(mat)}`, { x: ix - 1, y: iy - 5, width: 38, height: 34 }));
    }
  });
}

// ---------------------------------------------------------------- the board on a phone
// PW units wide, drawn at about 1 px a unit: targets of at least 38 units, text of 12.

/** The board on a phone: the score track; your own area; the four Influence cards two by
 * two, each where its quadrant lies in the Market below; the Market as two rows of four
 * spaces; the Cathedral's towers side by side with Build beside its title; then the other
 * players and Ivan. So a main action's targets (the dice and the cards to claim) lie
 * together, and a Market action's (your Workshop tiles, the Influence cards, the
 * destination) too; its confirmations are in the toolbar. */
function phoneBoard(view, ctx, target) {
  const { t, tr } = ctx;
  const g = s("g", {});
  drawTrack(g, view, 0, t, tr, target, PW);
  const sides = (view.sides || []).filter((x) => x.inventory !== undefined);
  let y = 58;
  for (const side of sides.filter((x) => x.side === ctx.seat)) y = phoneSide(g, view, side, y, ctx, target);
  y = phoneInfluence(g, view, y, t, tr, target);
  y = phoneMarket(g, view, y, t, tr, target);
  y = phoneCathedral(g, view, y, t, tr, target);
  for (const side of sides.filter((x) => x.side !== ctx.seat)) y = phoneSide(g, view, side, y, ctx, target);
  if (view.ivan) y = phoneIvan(g, view, y, t, tr);
  const svg = s("svg", { viewBox: `0 0 ${PW} ${y}`, role: "group", "aria-label": t("The Red Cathedral: the table"),
    "font-family": "system-ui, sans-serif", "font-size": 12, class: "rc-board rc-phone" });
  svg.append(s("rect", { x: 0, y: 0, width: PW, height: y, fill: "#f7f1e3" }), g);
  return { svg, height: y };
}

const P_INF_H = 88;

/** The Influence cards (RC-INFL-*) two by two: quadrant q above the Market's row q / 2. */
function phoneInfluence(svg, view, y, t, tr, target) {
  const cw = PW / 2;
  for (const inf of view.influence || []) {
    const x = (inf.quadrant % 2) * cw + 3, iy = y + Math.floor(inf.quadrant / 2) * (P_INF_H + 4);
    const g = s("g", {});
    g.append(s("rect", { x, y: iy, width: cw - 6, height: P_INF_H, rx: 6, fill: "#fffaf0", stroke: "#6b5a3a" }));
    influenceWords(g, inf, x, iy + 15, { chars: 25, font: 12, line: 15, indent: [5, 18] }, tr);
    svg.append(target(g, `influence:${inf.quadrant}`, influenceTip(inf, t, tr),
      { x: x - 2, y: iy - 2, width: cw - 2, height: P_INF_H + 4 }));
  }
  return y + 2 * (P_INF_H + 4) + 2;
}

/** The Market's eight spaces as two rows of four (RC-MARKET-1): each space's Resource tile
 * and its dice, two to a row. */
function phoneMarket(svg, view, y, t, tr, target) {
  const sw = PW / 4;
  const dest = view.turn && view.turn.destination !== null ? view.turn.destination : -1;
  const market = view.market || [];
  for (let row = 0; row < 2; row++) {
    const spaces = market.filter((sp) => Math.floor(sp.space / 4) === row);
    const diceRows = Math.max(1, ...spaces.map((sp) => Math.ceil(sp.dice.length / 2)));
    const rh = 52 + diceRows * 40;
    for (const sp of spaces) {
      const x = (sp.space % 4) * sw + 2;
      svg.append(s("rect", { x, y, width: sw - 4, height: rh - 4, rx: 7,
        fill: sp.quadrant % 2 ? "#efe3c8" : "#e7d7b5", stroke: sp.space === dest ? "#8b1e1e" : "#8c7a5b",
        "stroke-width": sp.space === dest ? 3 : 1 }));
      const g = s("g", {});
      g.append(s("text", { x: x + 5, y: y + 15, "font-size": 12, "font-weight": 700 }, t("Space {n}", { n: sp.space + 1 })));
      resourceTile(g, sp.tile, x + 4, y + 20, sw - 12, 26, 12, tr);
      svg.append(target(g, `space:${sp.space}`, t("Market space {n}: Resource tile {amount} {resource}; {dice} dice here",
        { n: sp.space + 1, amount: sp.tile.amount, resource: tr(sp.tile.resource), dice: sp.dice.length }),
      { x: x + 1, y: y + 1, width: sw - 6, height: 48 }));
      sp.dice.forEach((die, k) => {
        const dx = x + 4 + (k % 2) * 40, dy = y + 52 + Math.floor(k / 2) * 40;
        const dg = s("g", {});
        drawDie(dg, die, dx, dy);
        svg.append(target(dg, `die:${die.colour}`, t("The {colour} die, showing {value}", { colour: tr(die.colour), value: die.value }),
          { x: dx - 2, y: dy - 2, width: 38, height: 38 }));
      });
    }
    y += rh;
  }
  return y + 4;
}

/** The Cathedral whole (RC-CLAIM-*, RC-BUILD-*): its title and Build, then the towers side
 * by side, base at the bottom; each card with its slot number as the prompts name it. */
function phoneCathedral(svg, view, y, t, tr, target) {
  const towers = view.cathedral || [];
  svg.append(s("text", { x: 4, y: y + 24, "font-size": 14, "font-weight": 700 }, t("Cathedral")));
  const build = s("g", {});
  const bx = PW - 154, by = y + 4;
  build.append(s("rect", { x: bx, y: by, width: 150, height: 36, rx: 4, fill: "#fff", stroke: "#8b1e1e" }),
    s("text", { x: bx + 75, y: by + 23, "text-anchor": "middle", "font-size": 14, "font-weight": 700 }, t("Build")));
  svg.append(target(build, "action:build", t("Build: up to 3 deliveries to your cards or Ornamentations"),
    { x: bx - 2, y: by - 2, width: 154, height: 40 }));
  const colW = (PW - 4) / Math.max(1, towers.length);
  const w = colW - 4;
  const perRow = w >= 76 ? 2 : 1;  // cost chips side by side where the card is wide enough
  const costs = Math.max(1, ...towers.flat().map((c) => Object.keys(c.cost).length));
  const narrow = w < 76;  // the reward on a row of its own
  const ch = 20 + (narrow ? 16 : 0) + Math.ceil(costs / perRow) * 20 + 24;
  const levels = Math.max(1, ...towers.map((tw) => tw.length));
  const base = y + 46 + (levels - 1) * (ch + 4);
  towers.forEach((tower, ti) => {
    const x = 4 + ti * colW;
    svg.append(s("text", { x: x + w / 2, y: base + ch + 15, "text-anchor": "middle", "font-size": 12, "font-weight": 700 },
      t("Tower {n}", { n: ti + 1 })));
    tower.forEach((card, level) => phoneCard(svg, card, x, base - level * (ch + 4), w, ch, perRow, narrow, t, tr, target));
  });
  return base + ch + 24;
}

function phoneCard(svg, card, x, y, w, hgt, perRow, narrow, t, tr, target) {
  const g = s("g", {});
  g.append(s("rect", { x, y, width: w, height: hgt, rx: 5, fill: KIND_FILL[card.kind] || "#ddd",
    stroke: card.completed ? "#1d6b2a" : "#6b5a3a", "stroke-width": card.completed ? 3 : 1 }));
  // the slot number, printed as the prompts name it, on a badge; the reward beside it
  const num = `${card.slot + 1}${card.completed ? "✓" : ""}`;
  const bw = 8 + 7.5 * num.length;
  g.append(s("rect", { x: x + 3, y: y + 3, width: bw, height: 16, rx: 3, fill: card.completed ? "#1d6b2a" : "#5a2a1a" }),
    s("text", { x: x + 3 + bw / 2, y: y + 15.5, "text-anchor": "middle", "font-size": 12, "font-weight": 700, fill: "#fff" }, num));
  // the Recognition beside the badge, the Rubles in the bottom corner
  g.append(s("text", { x: x + w - 3, y: y + (narrow ? 32 : 15.5), "text-anchor": "end", "font-size": 12 }, `+${card.rp} RP`));
  if (card.rubles) g.append(s("text", { x: x + w - 3, y: y + hgt - 7.5, "text-anchor": "end", "font-size": 12 }, `+${card.rubles}₽`));
  let cy = y + (narrow ? 38 : 22);
  const chipW = (w - 6) / perRow - 2;
  Object.entries(card.cost).forEach(([mat, need], k) => {
    const have = (card.delivered || {})[mat] || 0;
    const cx = x + 3 + (k % perRow) * (chipW + 2), ry = cy + Math.floor(k / perRow) * 20;
    g.append(s("rect", { x: cx, y: ry, width: chipW, height: 18, rx: 3, fill: MATERIAL_FILL[mat], stroke: "#333",
      opacity: have >= need ? 1 : 0.55 }),
    s("text", { x: cx + chipW / 2, y: ry + 13.5, "text-anchor": "middle", "font-size": 12, "font-weight": 700,
      fill: ["stone", "gold"].includes(mat) ? "#000" : "#fff" }, `${have}/${need}${letter(t, mat)}`));
  });
  // the Banner and the Ornamentation; before a Banner, the Workshop tile beside the card
  const py = y + hgt - 12;
  if (card.owner) g.append(piece(card.owner, x + 14, py, 10));
  if (card.ornament) g.append(piece(card.ornament.owner, x + 38, py, 8));
  if (card.workshop_tile) {
    g.append(s("rect", { x: x + 3, y: py - 10, width: 40, height: 20, rx: 3, fill: "#fff", stroke: "#555", "stroke-dasharray": "3 2" }),
      s("text", { x: x + 23, y: py + 4.5, "text-anchor": "middle", "font-size": 12 }, tileSymbol(card.workshop_tile.benefit, t)));
  }
  svg.append(target(g, `card:${card.slot}`, cardTip(card, t, tr), { x: x - 2, y: y - 2, width: w + 4, height: hgt + 4 }));
}

/** A seat's area on a phone: who and the score; the Workshop board's six spaces (RC-WS-*);
 * the Inventory (RC-INV-*); Banners and Ornamentations. Returns the y below it. */
function phoneSide(svg, view, side, y, ctx, target) {
  const { t, tr } = ctx;
  const H = 214;
  const mine = side.side === ctx.seat;
  const turn = view.turn_of === side.name;
  svg.append(s("rect", { x: 2, y: y + 2, width: PW - 4, height: H - 4, rx: 8, fill: mine ? "#fffdf2" : "#f3ece0",
    stroke: turn ? "#8b1e1e" : "#8c7a5b", "stroke-width": turn ? 3 : 1 }));
  svg.append(piece(side.name, 16, y + 18, 10));
  svg.append(s("text", { x: 32, y: y + 23, "font-weight": 700, "font-size": 13 },
    `${whoOf(ctx, side)}${mine ? ` (${t("you")})` : ""}${turn ? " ▶" : ""}`));
  svg.append(s("text", { x: 8, y: y + 42, "font-size": 12 },
    `${side.recognition} RP · ${side.prestige} PP${side.rubles !== undefined ? ` · ${side.rubles} ₽` : ""} · ✓${side.completed}`));
  (side.workshop || []).forEach((ws, i) => {
    workshopSpace(svg, side, ws, 5 + i * 57.2, y + 50, WS_PHONE, ctx, target);
  });
  svg.append(s("text", { x: 8, y: y + 128, "font-size": 12 },
    `${t("Inventory")} (${Object.values(side.inventory).reduce((a, b) => a + b, 0)}/${side.capacity})`));
  Object.entries(side.inventory).forEach(([mat, n], k) => {
    const ix = 8 + k * 46, iy = y + 140;
    const g = material(svg, mat, n, ix, iy, t, tr);
    if (mine) {
      g.remove();
      svg.append(target(s("g", {}, g), `inv:${side.side}:${mat}`, `${n} ${tr(mat)}`, { x: ix - 2, y: iy - 7, width: 40, height: 38 }));
    }
  });
  svg.append(s("text", { x: 8, y: y + 188, "font-size": 12 },
    t("Banners: {inside} in the Inventory, {outside} outside", { inside: side.banners_in_inventory, outside: side.banners_outside })));
  const orn = Object.entries(side.ornaments_available || {}).map(([k, n]) => `${tr(k)} ${n}`).join(" · ");
  svg.append(s("text", { x: 8, y: y + 204, "font-size": 12 }, s("title", {}, `${t("placed")}: ${side.ornaments_placed}`),
    `${t("Ornamentations left")}: ${orn}`));
  return y + H;
}

/** Ivan's row of cards (solo, RC-SOLO-*), two to a line, on a phone. */
function phoneIvan(svg, view, y, t, tr) {
  const iv = view.ivan;
  svg.append(s("text", { x: 4, y: y + 16, "font-weight": 700, "font-size": 13 }, t("Ivan Yakovlevich")));
  const cw = PW / 2;
  iv.row.forEach((c, i) => {
    const x = (i % 2) * cw + 3, cy = y + 24 + Math.floor(i / 2) * 32;
    svg.append(s("g", {}, s("title", {}, `${tr(c.card)} — ${tr(c.die)} ${c.face_up ? t("face up") : t("face down")}`),
      s("rect", { x, y: cy, width: cw - 6, height: 28, rx: 4, fill: c.face_up ? "#fff" : "#ccc", stroke: "#555" }),
      s("text", { x: x + 5, y: cy + 19, "font-size": 12 }, `${tr(c.card)} · ${colourOf(c.die).letter}`)));
  });
  const ly = y + 24 + Math.ceil(iv.row.length / 2) * 32 + 14;
  svg.append(s("text", { x: 4, y: ly, "font-size": 12 },
    `${t("Banners")}: ${iv.banners} · ${t("next Ornamentation")}: ${iv.next_ornament ? tr(iv.next_ornament) : "—"}`));
  return ly + 10;
}

/** A Workshop tile's benefit as a short symbol: "2W" (2 wood), "3 RP", "⚄Y" (what lies
 * beside the yellow die). */
function tileSymbol(benefit, t) {
  const die = /beside the (\w+) die/.exec(benefit || "");
  if (die) return `⚄${colourOf(die[1]).letter}`;
  const m = /^(\d+) (\w+)$/.exec(benefit || "");
  if (!m) return "?";
  if (m[2] === "rp") return `${m[1]} RP`;
  if (m[2] === "rubles") return `${m[1]}₽`;
  return `${m[1]}${letter(t, m[2])}`;
}

/** ``text`` broken into lines of at most ``n`` characters (at spaces). */
function wrap(text, n) {
  const lines = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && (line + " " + word).length > n) { lines.push(line); line = word; } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** The action a player who chose to skip confirmations does not have to click: a
 * confirmation ("End your turn", "Finish the Market action", "Stop using this Influence
 * action", ...) that is the only legal action, or "Carry out the Influence action" right
 * after the player chose that Influence action (``last``: the action this page sent last)
 * when it can be carried out in one way only. */
export function autoEndAction(legal, last = null) {
  if (legal.length === 1 && CONFIRM.includes(legal[0].text.split(" ")[0])) return legal[0].text;
  const perform = legal.filter((a) => a.text.split(" ")[0] === "perform");
  if (last && last.startsWith("use-influence") && perform.length === 1) return perform[0].text;
  return null;
}

/** The board elements (the keys ``target`` gives them) that differ between two views of
 * the same seat: the shell's replay of the others' moves highlights them (ctx.highlight).
 * Ivan's moves inside another move are in the difference too. */
export function changedParts(before, after) {
  const out = new Set();
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const bySide = (view) => new Map((view.sides || []).map((x) => [x.side, x]));
  const oldSides = bySide(before);
  for (const side of after.sides || []) {
    const was = oldSides.get(side.side) || {};
    if (was.recognition !== side.recognition || was.prestige !== side.prestige) out.add(`score:${side.side}`);
    for (const [mat, n] of Object.entries(side.inventory || {})) {
      if ((was.inventory || {})[mat] !== n) out.add(`inv:${side.side}:${mat}`);
    }
    const oldWs = new Map((was.workshop || []).map((w) => [w.position, w]));
    for (const ws of side.workshop || []) {
      if (!same(oldWs.get(ws.position), ws)) out.add(`ws:${side.side}:${ws.position}`);
    }
  }
  const dice = (view) => new Map((view.market || []).flatMap((sp) => sp.dice.map((d) => [d.colour, `${sp.space}/${d.value}`])));
  const oldDice = dice(before);
  for (const [colour, where] of dice(after)) if (oldDice.get(colour) !== where) out.add(`die:${colour}`);
  const oldSpaces = new Map((before.market || []).map((sp) => [sp.space, sp]));
  for (const sp of after.market || []) {
    const was = oldSpaces.get(sp.space);
    if (!was || !same(was.tile, sp.tile)) out.add(`space:${sp.space}`);
  }
  const cards = (view) => new Map((view.cathedral || []).flat().map((c) => [c.slot, c]));
  const oldCards = cards(before);
  for (const [slot, card] of cards(after)) if (!same(oldCards.get(slot), card)) out.add(`card:${slot}`);
  return [...out];
}
