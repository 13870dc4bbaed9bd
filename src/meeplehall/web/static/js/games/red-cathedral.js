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
// A phone: the board is zoomed and panned (js/zoom.js) and your own area is part of it.
// Its default zoom makes every target at least 24 px (the smallest, an Inventory pile,
// is 22 units high).
const PHONE = "(max-width: 40rem)";
const PHONE_ZOOM = 1.15;
const zoomMemory = new WeakMap();  // per board container: {zoom, left, top}
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
    chooser.replaceChildren(...actions.map((a) => h("button", { "data-action": a.text, title: tr(a.label),
      onclick: () => ctx.choose(a.text) }, tr(a.label))),
    h("button", { class: "cancel", onclick: closeChooser }, t("Cancel")));
    const first = chooser.querySelector("button");
    if (first) first.focus();
  }
  /** Make ``el`` clickable when ``key`` has legal actions; add a tooltip either way. */
  function target(el, key, tooltip, box) {
    el.prepend(s("title", {}, tooltip));
    const actions = byKey.get(key);
    if (!actions) return el;
    if (box) el.append(s("rect", { class: "hl", ...box, rx: 6 }));
    el.dataset.target = key;
    el.dataset.count = String(actions.length);
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
  // Your own area is drawn apart, in a bar that stays in view (sticky) below the board
  // (on a phone it is part of the zoomable board).
  const mineSide = phone ? undefined : sides.find((x) => x.side === ctx.seat && x.inventory !== undefined);
  const others = sides.filter((x) => x !== mineSide);
  const perRow = 2;
  const playerRows = Math.ceil(others.length / perRow);
  const height = 750 + playerRows * 170 + (view.ivan ? 70 : 0);
  const svg = s("svg", { viewBox: `0 0 ${W} ${height}`, role: "group", "aria-label": t("The Red Cathedral: the table"),
    "font-family": "system-ui, sans-serif", "font-size": 13 });
  svg.append(s("rect", { x: 0, y: 0, width: W, height, fill: "#f7f1e3" }));

  drawTrack(svg, view, 0, t, tr, target);
  drawMarket(svg, view, 60, t, tr, target, byKey);
  drawCathedral(svg, view, 360, t, tr, target);
  let y = 750;
  if (view.ivan) { drawIvan(svg, view, y, t, tr); y += 70; }
  others.forEach((side, i) => {
    drawSide(svg, view, side, (i % perRow) * (W / perRow), y + Math.floor(i / perRow) * 170, ctx, target);
  });
  svg.addEventListener("confirm", (event) => ctx.choose(event.detail));
  if (phone) {
    let mem = zoomMemory.get(container);
    if (!mem) { mem = { zoom: null, left: 0, top: 0 }; zoomMemory.set(container, mem); }
    const bar = zoomBar({ bar: t("board zoom"), out: t("zoom out"), in: t("zoom in"), fit: t("whole board"),
      fitLabel: t("show the whole board"), reset: t("normal size") }, { bar: "rc-zoombar", level: "rc-zoom-level" });
    const viewport = h("div", { class: "rc-viewport", tabindex: "0", "aria-label": t("board: drag to move it, + and − zoom") }, svg);
    const confirm = h("div", { class: "confirm-bar", role: "group", "aria-label": t("Confirm") },
      (ctx.legal || []).filter((a) => ["end-turn", "pass", "finish-delivery", "hire-teamsters"].includes(a.text.split(" ")[0]))
        .map((a) => h("button", { class: "primary", "data-action": a.text, "data-confirm": a.text,
          onclick: () => ctx.choose(a.text) }, tr(a.label))));
    container.append(legend(t, tr), summary(view, ctx), chooser, confirm, bar, viewport);
    mountZoom(viewport, svg, bar, bar.querySelector(".rc-zoom-level"), mem, W, height,
      { min: 0.3, max: 3, step: 1.25, reset: 1, initial: () => PHONE_ZOOM });
    return;
  }
  container.append(legend(t, tr), summary(view, ctx), chooser, svg);
  if (mineSide) {
    const own = s("svg", { viewBox: `0 0 ${W / 2} 166`, role: "group", "aria-label": t("Your area"),
      "font-family": "system-ui, sans-serif", "font-size": 13, class: "my-side" });
    drawSide(own, view, mineSide, 0, 2, ctx, target);
    const bar = h("div", { class: "confirm-bar", role: "group", "aria-label": t("Confirm") },
      (ctx.legal || []).filter((a) => ["end-turn", "pass", "finish-delivery", "hire-teamsters"].includes(a.text.split(" ")[0]))
        .map((a) => h("button", { class: "primary", "data-action": a.text, "data-confirm": a.text,
          onclick: () => ctx.choose(a.text) }, tr(a.label))));
    container.append(h("div", { class: "my-area", id: "my-area" }, own, bar));
  }
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
    s("rect", { x, y, width: 26, height: 18, rx: 3, fill: MATERIAL_FILL[name] || "#ccc", stroke: "#333" }),
    s("text", { x: x + 13, y: y + 13, "text-anchor": "middle", "font-size": 11, "font-weight": 700,
      fill: name === "stone" || name === "gold" || name === "rubles" ? "#000" : "#fff" }, `${n}${MATERIALS.includes(name) ? letter(t, name) : (MATERIAL_LETTER[name] || "")}`));
  svg.append(g);
  return g;
}

function drawTrack(svg, view, y, t, tr, target) {
  const sides = view.sides || [];
  const lap = (TRACK && TRACK.lap_length) || 80;
  const eagles = (TRACK && TRACK.prestige_positions) || [];
  const x0 = 40, x1 = W - 20;
  const scale = (x1 - x0) / lap;
  svg.append(s("text", { x: 4, y: y + 16, "font-weight": 700 }, t("Score")));
  svg.append(s("line", { x1: x0, y1: y + 30, x2: x1, y2: y + 30, stroke: "#8b1e1e", "stroke-width": 3 }));
  for (let v = 0; v <= lap; v += 5) {
    svg.append(s("line", { x1: x0 + v * scale, y1: y + 25, x2: x0 + v * scale, y2: y + 35, stroke: "#8b1e1e" }));
    if (v % 10 === 0) svg.append(s("text", { x: x0 + v * scale, y: y + 22, "text-anchor": "middle", "font-size": 10 }, String(v)));
  }
  // The Prestige spaces (RC-SCORE-4): a gold diamond each, with its Prestige value every 5.
  const marks = s("g", { class: "prestige-spaces" }, s("title", {}, t("Prestige spaces: the score is the number of Prestige spaces reached")));
  eagles.forEach((pos, k) => {
    const cx = x0 + pos * scale;
    marks.append(s("path", { d: `M${cx} ${y + 36}l4 5l-4 5l-4 -5z`, fill: "#d4af37", stroke: "#6b4e00", "stroke-width": 0.8,
      "data-prestige": k + 1 }));
    if ((k + 1) % 5 === 0) {
      marks.append(s("text", { x: cx, y: y + 57, "text-anchor": "middle", "font-size": 10, fill: "#6b4e00", "font-weight": 700 },
        `${k + 1} PP`));
    }
  });
  svg.append(marks);
  sides.forEach((side, i) => {
    const pos = Math.max(0, side.recognition) % lap;
    const cx = x0 + pos * scale + i * 4;
    const g = s("g", {}, token(side.name, cx, y + 30, 8));
    svg.append(target(g, `score:${side.side}`,
      t("{name}: {rp} Recognition, {pp} Prestige", { name: tr(side.name), rp: side.recognition, pp: side.prestige }),
      { x: cx - 12, y: y + 18, width: 24, height: 24 }));
  });
}

function drawMarket(svg, view, y, t, tr, target, byKey) {
  const spaceW = W / 8;
  svg.append(s("text", { x: 4, y: y + 14, "font-weight": 700 }, t("Market board")));
  const dest = view.turn && view.turn.destination !== null ? view.turn.destination : -1;
  for (const sp of view.market || []) {
    const x = sp.space * spaceW + 4;
    // The space itself (not a target): the dice stand in its lower half, so that a die
    // and the space's Resource tile are each clickable at their centre.
    svg.append(s("rect", { x, y: y + 20, width: spaceW - 8, height: 120, rx: 8,
      fill: sp.quadrant % 2 ? "#efe3c8" : "#e7d7b5", stroke: sp.space === dest ? "#8b1e1e" : "#8c7a5b",
      "stroke-width": sp.space === dest ? 3 : 1 }));
    const g = s("g", {});
    g.append(s("text", { x: x + 6, y: y + 36, "font-size": 11 }, t("Space {n}", { n: sp.space + 1 })));
    // The Resource tile beside the space (RC-MARKET-1).
    g.append(s("rect", { x: x + 8, y: y + 42, width: spaceW - 24, height: 32, rx: 4,
      fill: MATERIAL_FILL[sp.tile.resource] || "#ddd", stroke: "#333" }));
    g.append(s("text", { x: x + spaceW / 2 - 4, y: y + 63, "text-anchor": "middle", "font-weight": 700,
      fill: ["stone", "gold", "rubles"].includes(sp.tile.resource) ? "#000" : "#fff" },
    `${sp.tile.amount} ${tr(sp.tile.resource)}`));
    svg.append(target(g, `space:${sp.space}`, t("Market space {n}: Resource tile {amount} {resource}; {dice} dice here",
      { n: sp.space + 1, amount: sp.tile.amount, resource: tr(sp.tile.resource), dice: sp.dice.length }),
    { x: x + 2, y: y + 22, width: spaceW - 12, height: 56 }));
    sp.dice.forEach((die, k) => {
      const dx = x + 6 + (k % 3) * 36, dy = y + 82 + Math.floor(k / 3) * 30;
      const dg = s("g", {});
      drawDie(dg, die, dx, dy);
      svg.append(target(dg, `die:${die.colour}`, t("The {colour} die, showing {value}", { colour: tr(die.colour), value: die.value }),
        { x: dx - 2, y: dy - 2, width: 32, height: 32 }));
    });
    if (sp.space === dest && byKey.has("confirm:market")) {
      svg.append(confirmButton(byKey.get("confirm:market"), Math.min(x - 4, W - spaceW - 44), y + 144, spaceW + 40, t, tr));
    }
  }
  // Influence cards, one per quadrant (RC-INFL-*).
  const iy = y + 30;  // below the strip of the Market and Influence confirmations
  for (const inf of view.influence || []) {
    const x = inf.quadrant * 2 * spaceW + 4;
    const g = s("g", {});
    g.append(s("rect", { x, y: iy + 148, width: 2 * spaceW - 8, height: 110, rx: 6, fill: "#fffaf0", stroke: "#6b5a3a" }));
    g.append(s("text", { x: x + 8, y: iy + 166, "font-weight": 700 }, `${t("Influence card")} ${inf.card}`));
    inf.actions.forEach((a, k) => {
      const mark = a.mark === "repeat" ? "∞" : "⚡";
      g.append(s("text", { x: x + 8, y: iy + 188 + k * 34, "font-size": 12 }, `${mark} ${a.rule}`));
      g.append(s("text", { x: x + 26, y: iy + 204 + k * 34, "font-size": 11, fill: "#444" },
        tr(a.effect.replace(/_/g, " ")).slice(0, 34)));
    });
    const lines = inf.actions.map((a) => `${a.rule} (${a.mark === "repeat" ? t("repeatable") : t("once per turn")}): ${tr(a.effect.replace(/_/g, " "))}`);
    svg.append(target(g, `influence:${inf.quadrant}`, `${t("Influence card")} ${inf.card}: ${lines.join("; ")}`,
      { x: x - 2, y: iy + 144, width: 2 * spaceW - 4, height: 118 }));
    if (dest >= 0 && Math.floor(dest / 2) === inf.quadrant && byKey.has("confirm:influence")) {
      byKey.get("confirm:influence").forEach((a, k) => {
        svg.append(confirmButton([a], x + k * 118, y + 144, 110, t, tr));
      });
    }
  }
}

/** A button drawn on the board that confirms a step (one legal action). */
function confirmButton(actions, x, y, width, t, tr) {
  const a = actions[0];
  const g = s("g", { class: "board-confirm", "data-confirm": a.text });
  g.append(s("rect", { x, y, width, height: 26, rx: 6, fill: "#8b1e1e", stroke: "#4a0f0f" }),
    s("text", { x: x + width / 2, y: y + 17, "text-anchor": "middle", "font-size": 12, "font-weight": 700, fill: "#fff" },
      t("✔ {label}", { label: shortLabel(a, t, tr) })));
  g.prepend(s("title", {}, tr(a.label)));
  g.dataset.action = a.text;
  return clickable(g, tr(a.label), () => g.dispatchEvent(new CustomEvent("confirm", { bubbles: true, detail: a.text })));
}

function shortLabel(a, t, tr) {
  const verb = a.text.split(" ")[0];
  if (verb === "finish-market") return t("Finish the Market action");
  if (verb === "perform") return t("Carry out");
  if (verb === "done") return t("Stop");
  return tr(a.label);
}

function drawDie(g, die, x, y) {
  const c = colourOf(die.colour);
  g.append(s("rect", { x, y, width: 28, height: 28, rx: 5, fill: c.fill, stroke: "#111", "stroke-width": 1.5 }));
  for (const [px, py] of PIPS[die.value] || []) {
    g.append(s("circle", { cx: x + 14 + px * 7, cy: y + 14 + py * 7, r: 2.6, fill: c.ink }));
  }
  g.append(s("text", { x: x + 25, y: y + 10, "text-anchor": "end", "font-size": 8, fill: c.ink }, c.letter));
}

function drawCathedral(svg, view, y, t, tr, target) {
  const towers = view.cathedral || [];
  svg.append(s("text", { x: 4, y: y + 14, "font-weight": 700 }, t("Cathedral")));
  const build = s("g", {});
  build.append(s("rect", { x: 110, y: y, width: 120, height: 22, rx: 4, fill: "#fff", stroke: "#8b1e1e" }),
    s("text", { x: 170, y: y + 15, "text-anchor": "middle", "font-size": 12 }, t("Build")));
  svg.append(target(build, "action:build", t("Build: up to 3 deliveries to your cards or Ornamentations"),
    { x: 108, y: y - 2, width: 124, height: 26 }));
  const colW = Math.min(200, (W - 10) / Math.max(1, towers.length));
  const cardH = 62;
  towers.forEach((tower, ti) => {
    const x = 6 + ti * colW;
    svg.append(s("text", { x: x + colW / 2, y: y + 380, "text-anchor": "middle", "font-size": 12, "font-weight": 700 },
      t("Tower {n}", { n: ti + 1 })));
    tower.forEach((card, level) => {
      const cy = y + 300 - level * (cardH + 4);
      drawCard(svg, card, x, cy, colW - 8, cardH, t, tr, target);
    });
  });
}

function drawCard(svg, card, x, y, w, hgt, t, tr, target) {
  const g = s("g", {});
  g.append(s("rect", { x, y, width: w, height: hgt, rx: 5, fill: KIND_FILL[card.kind] || "#ddd",
    stroke: card.completed ? "#1d6b2a" : "#6b5a3a", "stroke-width": card.completed ? 3 : 1 }));
  g.append(s("text", { x: x + 5, y: y + 14, "font-size": 12, "font-weight": 700 },
    `${card.card} ${tr(card.kind)}${card.completed ? " ✓" : ""}`));
  g.append(s("text", { x: x + w - 5, y: y + 14, "text-anchor": "end", "font-size": 11 },
    `+${card.rp} RP${card.rubles ? ` +${card.rubles}₽` : ""}`));
  let mx = x + 4;
  for (const [mat, need] of Object.entries(card.cost)) {
    const have = (card.delivered || {})[mat] || 0;
    const chip = s("g", {}, s("rect", { x: mx, y: y + 22, width: 34, height: 16, rx: 3, fill: MATERIAL_FILL[mat], stroke: "#333",
      opacity: have >= need ? 1 : 0.55 }),
    s("text", { x: mx + 17, y: y + 34, "text-anchor": "middle", "font-size": 10, "font-weight": 700,
      fill: ["stone", "gold"].includes(mat) ? "#000" : "#fff" }, `${have}/${need}${letter(t, mat)}`));
    g.append(chip);
    mx += 37;
  }
  if (card.owner) g.append(token(card.owner, x + w - 12, y + 32, 8));
  if (card.ornament) {
    g.append(s("text", { x: x + 5, y: y + 55, "font-size": 11 }, `${tr(card.ornament.type)}:`));
    g.append(token(card.ornament.owner, x + 60, y + 51, 6));
  }
  if (card.workshop_tile) {
    g.append(s("rect", { x: x + w - 78, y: y + 43, width: 74, height: 16, rx: 3, fill: "#fff", stroke: "#555", "stroke-dasharray": "3 2" }),
      s("text", { x: x + w - 41, y: y + 55, "text-anchor": "middle", "font-size": 9 }, `${card.workshop_tile.id}: ${tr(card.workshop_tile.benefit)}`.slice(0, 18)));
  }
  const cost = Object.entries(card.cost).map(([m, n]) => `${n} ${tr(m)}`).join(", ");
  const delivered = Object.entries(card.delivered || {}).map(([m, n]) => `${n} ${tr(m)}`).join(", ") || t("nothing");
  let tip = t("Cathedral card {card} ({kind}, slot {slot}): costs {cost}; delivered {delivered}; reward {rp} Recognition",
    { card: card.card, kind: tr(card.kind), slot: card.slot, cost, delivered, rp: card.rp });
  if (card.rubles) tip += ` + ${card.rubles} ${tr("Rubles")}`;
  tip += ". " + (card.owner ? t("Banner of {name}.", { name: tr(card.owner) }) : t("No Banner yet."));
  if (card.completed) tip += " " + t("Completed.");
  if (card.ornament) tip += " " + t("Ornamentation: {type} of {name}.", { type: tr(card.ornament.type), name: tr(card.ornament.owner) });
  if (card.workshop_tile) tip += " " + t("Workshop tile {id} ({benefit}) lies beside it.", { id: card.workshop_tile.id, benefit: tr(card.workshop_tile.benefit) });
  svg.append(target(g, `card:${card.slot}`, tip, { x: x - 2, y: y - 2, width: w + 4, height: hgt + 4 }));
}

function drawIvan(svg, view, y, t, tr) {
  const iv = view.ivan;
  svg.append(s("text", { x: 4, y: y + 14, "font-weight": 700 }, t("Ivan Yakovlevich")));
  iv.row.forEach((c, i) => {
    const x = 150 + i * 140;
    const g = s("g", {}, s("title", {}, `${tr(c.card)} — ${tr(c.die)} ${c.face_up ? t("face up") : t("face down")}`),
      s("rect", { x, y: y + 2, width: 130, height: 28, rx: 4, fill: c.face_up ? "#fff" : "#ccc", stroke: "#555" }),
      s("text", { x: x + 6, y: y + 20, "font-size": 11 }, `${tr(c.card)} · ${colourOf(c.die).letter}`));
    svg.append(g);
  });
  svg.append(s("text", { x: 150, y: y + 50, "font-size": 11 },
    `${t("Banners")}: ${iv.banners} · ${t("next Ornamentation")}: ${iv.next_ornament ? tr(iv.next_ornament) : "—"}`));
}

/** " · Ada": the name the seat's player gave, cut to fit a title (none: ""). */
function personOf(ctx, seat) {
  const name = ctx.people && ctx.people[seat];
  if (!name) return "";
  return ` · ${name.length > 14 ? `${name.slice(0, 13)}…` : name}`;
}

function drawSide(svg, view, side, x, y, ctx, target) {
  const { t, tr } = ctx;
  const w = W / 2 - 8;
  const mine = side.side === ctx.seat;
  const turn = view.turn_of === side.name;
  svg.append(s("rect", { x: x + 4, y, width: w, height: 162, rx: 8, fill: mine ? "#fffdf2" : "#f3ece0",
    stroke: turn ? "#8b1e1e" : "#8c7a5b", "stroke-width": turn ? 3 : 1 }));
  svg.append(token(side.name, x + 20, y + 18, 9));
  svg.append(s("text", { x: x + 36, y: y + 22, "font-weight": 700 },
    `${tr(side.name)}${personOf(ctx, side.side)}${mine ? ` (${t("you")})` : ""}${turn ? " ▶" : ""}`));
  svg.append(s("text", { x: x + w - 4, y: y + 22, "text-anchor": "end", "font-size": 12 },
    `${side.recognition} RP · ${side.prestige} PP${side.rubles !== undefined ? ` · ${side.rubles} ₽` : ""} · ✓${side.completed}`));
  if (side.inventory === undefined) return;  // Ivan: no Workshop board
  // The Workshop board: six spaces (RC-WS-*): yellow, red, blue, green, white-1, white-2.
  (side.workshop || []).forEach((ws, i) => {
    const wx = x + 12 + i * 78, wy = y + 32;
    const c = colourOf(ws.position.split("-")[0]);
    const g = s("g", {});
    g.append(s("rect", { x: wx, y: wy, width: 72, height: 52, rx: 5, fill: c.fill, stroke: "#333", opacity: 0.9 }));
    g.append(s("text", { x: wx + 4, y: wy + 12, "font-size": 9, fill: c.ink }, `${c.letter} ${tr(ws.position)}`));
    let tip = t("Workshop space {position}", { position: tr(ws.position) });
    if (ws.banner) {
      g.append(token(side.name, wx + 36, wy + 32, 8));
      tip += ": " + t("a Banner");
    } else if (ws.tile) {
      g.append(s("rect", { x: wx + 5, y: wy + 16, width: 62, height: 32, rx: 3, fill: ws.face_up ? "#fff" : "#777",
        stroke: "#222", "stroke-dasharray": ws.face_up ? null : "3 2" }));
      g.append(s("text", { x: wx + 36, y: wy + 29, "text-anchor": "middle", "font-size": 9, fill: ws.face_up ? "#000" : "#fff" },
        `${ws.tile} ${ws.face_up ? "▲" : "▼"}`));
      g.append(s("text", { x: wx + 36, y: wy + 42, "text-anchor": "middle", "font-size": 8, fill: ws.face_up ? "#000" : "#fff" },
        tr(ws.benefit).slice(0, 16)));
      tip += ": " + t("Workshop tile {id}, {side}: {benefit}", { id: ws.tile, side: ws.face_up ? t("face up") : t("face down"), benefit: tr(ws.benefit) });
    } else {
      tip += ": " + t("empty");
      if (ws.locked_ornament) tip += " (" + t("unlocks {ornament}", { ornament: tr(ws.locked_ornament) }) + ")";
    }
    svg.append(target(g, `ws:${side.side}:${ws.position}`, tip, { x: wx - 2, y: wy - 2, width: 76, height: 56 }));
  });
  // Inventory (RC-INV-*): Materials, free room and Banners still in it.
  svg.append(s("text", { x: x + 12, y: y + 102, "font-size": 12 },
    `${t("Inventory")} (${Object.values(side.inventory).reduce((a, b) => a + b, 0)}/${side.capacity}):`));
  let ix = x + 110;
  for (const [mat, n] of Object.entries(side.inventory)) {
    const g = material(svg, mat, n, ix, y + 89, t, tr);
    if (mine) {
      g.remove();
      const wrap = s("g", {}, g);
      svg.append(target(wrap, `inv:${side.side}:${mat}`, `${n} ${tr(mat)}`, { x: ix - 2, y: y + 87, width: 30, height: 22 }));
    }
    ix += 30;
  }
  svg.append(s("text", { x: x + 12, y: y + 126, "font-size": 12 },
    t("Banners: {inside} in the Inventory, {outside} outside", { inside: side.banners_in_inventory, outside: side.banners_outside })));
  const orn = Object.entries(side.ornaments_available || {}).map(([k, n]) => `${tr(k)} ${n}`).join(" · ");
  svg.append(s("text", { x: x + 12, y: y + 148, "font-size": 12 },
    `${t("Ornamentations left")}: ${orn} · ${t("placed")}: ${side.ornaments_placed}`));
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
