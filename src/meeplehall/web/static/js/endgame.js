// The end screen: scores per player and category (table and chart), the record export,
// a move-by-move replay and the game review.

import { badge, colourOf, h, s } from "./dom.js";
import { render } from "./i18n.js";

/** Seat names (player colours) from a view, null where the game gives none: The Red
 * Cathedral's ``sides`` ({side, name}), Praga's ``sides`` (the colours in seat order). */
export function seatNames(view, count) {
  const names = [];
  if (view && Array.isArray(view.sides)) {
    view.sides.forEach((side, i) => {
      if (typeof side === "string") names[i] = side;
      else if (side && typeof side === "object" && typeof side.side === "number") names[side.side] = side.name;
    });
  } else if (view && Array.isArray(view.seats)) {
    view.seats.forEach((line, i) => {
      if (typeof line === "string") names[i] = line.split(":")[0].trim();
      else if (line && typeof line === "object") names[i] = line.name || line.colour;
    });
  }
  for (let i = 0; i < count; i++) if (!names[i]) names[i] = null;
  return names;
}

// Final-scoring categories in the rulebooks' order (RC-FINAL-1..3; Praga's final scoring).
const CATEGORY_LABELS = {
  track: "Scoring track (rounded down to Prestige)",
  leftovers: "Leftover Materials and Rubles",
  towers: "Towers",
  play: "Victory points during play",
  markets: "Markets",
  academics: "Academics",
  hunger_wall: "Hunger Wall",
  cathedral: "Cathedral",
  walls: "Walls",
  abilities: "Abilities",
  eggs: "Eggs",
};

const BAR_COLOURS = ["#8b1e1e", "#2f62c0", "#3a9a4a", "#e0a100", "#7b3fa0", "#555", "#e07a1f", "#1a9a9a"];
const BAR_PATTERNS = ["", "4 2", "1 2", "6 2 1 2", "", "4 2", "1 2", "6 2 1 2"];

export function endScreen(game, outcome, view, ctx) {
  const { t, tr } = ctx;
  const names = seatNames(view, ctx.seats);
  const scores = outcome.scores || [];
  const breakdown = outcome.breakdown || [];
  const categories = breakdown.length ? Object.keys(breakdown[0]) : [];
  const winners = new Set(outcome.winners || []);
  const people = ctx.people || [];
  const colourOrPlayer = (i) => (names[i] ? tr(names[i]) : t("Player {n}", { n: i + 1 }));
  // The shell's identity of a seat ("Ada (green)", "Green player"); by itself, the colour.
  const label = (i) => (ctx.who ? ctx.who(i) : people[i] ? `${people[i]} (${colourOrPlayer(i)})` : colourOrPlayer(i));
  const catLabel = (c) => tr(CATEGORY_LABELS[c] || c.replace(/_/g, " "));

  const head = h("tr", {}, h("th", { scope: "col" }, t("Player")),
    categories.map((c) => h("th", { scope: "col" }, catLabel(c))), h("th", { scope: "col" }, t("Total")));
  const rows = scores.map((score, i) => h("tr", { class: winners.has(i) ? "winner" : null },
    h("th", { scope: "row" }, names[i] ? badge(names[i]) : null, label(i), winners.has(i) ? ` ★ ${t("winner")}` : ""),
    categories.map((c) => h("td", {}, String(breakdown[i][c]))), h("td", {}, String(score))));
  // The automaton's score in a solo game (RC-SOLO-10: Ivan Yakovlevich), on its own row.
  const bot = outcome.details && outcome.details.ivan;
  if (bot && typeof bot.score === "number") {
    rows.push(h("tr", { class: "automaton", "data-automaton": "ivan" },
      h("th", { scope: "row" }, badge("ivan"), tr("Ivan Yakovlevich")),
      categories.map((c) => h("td", {}, bot.breakdown && c in bot.breakdown ? String(bot.breakdown[c]) : "—")),
      h("td", {}, String(bot.score))));
  }
  // Praga solo: the dummy scores nothing (P-SOLO-3: it only takes action tiles), and the
  // score is judged against the benchmark (P-SOLO-4: more than 140 VP is good).
  const solo = game === "praga" && outcome.details ? outcome.details.solo_opponent : null;
  if (solo === "dummy") {
    rows.push(h("tr", { class: "automaton", "data-automaton": "dummy" },
      h("th", { scope: "row" }, tr("the dummy"), " ",
        h("span", { class: "muted" }, t("(takes action tiles only, scores no points)"))),
      categories.map(() => h("td", {}, "—")), h("td", {}, "0")));
  }
  if (solo && solo !== "none" && typeof outcome.details.benchmark === "number") {
    rows.push(h("tr", { class: "benchmark", "data-benchmark": outcome.details.benchmark },
      h("th", { scope: "row" }, t("Benchmark: more than this is a good solo score")),
      categories.map(() => h("td", {}, "—")), h("td", {}, String(outcome.details.benchmark))));
  }
  const table = h("table", { class: "scores", id: "score-table" },
    h("caption", { class: "visually-hidden" }, t("Final scores")), h("thead", {}, head), h("tbody", {}, rows));

  let result = "";
  if (outcome.details && outcome.details.result) result = tr(`solo result: ${outcome.details.result}`);
  else if (winners.size) result = t("Winner: {names}", { names: [...winners].map(label).join(", ") });

  const replayBoard = h("div", { class: "board", id: "replay-board" });
  const replayLog = h("ul", { class: "since", id: "replay-log" });
  const total = ctx.moves || 0;
  const pos = h("output", { id: "replay-pos" }, `${total} / ${total}`);
  const range = h("input", { type: "range", id: "replay-range", min: 0, max: total, value: total,
    "aria-label": t("Move") });
  let timer = null;
  const go = (k) => {
    k = Math.max(0, Math.min(total, k));
    range.value = String(k);
    pos.textContent = `${k} / ${total}`;
    clearTimeout(timer);
    timer = setTimeout(() => ctx.replay(k, replayBoard, replayLog), 120);
  };
  range.addEventListener("input", () => go(Number(range.value)));
  const replay = h("details", { id: "replay" }, h("summary", {}, t("Replay the game move by move")),
    h("div", { class: "replay-controls" },
      h("button", { onclick: () => go(0), id: "replay-first" }, t("Start")),
      h("button", { onclick: () => go(Number(range.value) - 1), id: "replay-prev" }, t("Previous move")),
      range,
      h("button", { onclick: () => go(Number(range.value) + 1), id: "replay-next" }, t("Next move")),
      h("button", { onclick: () => go(total), id: "replay-last" }, t("End")), pos),
    replayLog, replayBoard);
  replay.addEventListener("toggle", () => { if (replay.open) go(Number(range.value)); });

  return [
    h("h2", { id: "final-scores" }, t("Final scores")),
    h("p", { class: "prompt" }, result),
    table,
    chart(scores, breakdown, categories, label, catLabel, names, t),
    h("p", { class: "toolbar" }, h("button", { id: "export", onclick: ctx.exportRecord }, t("Export the game record")),
      h("a", { href: "#/" }, t("Back to the lobby"))),
    replay,
    ctx.review ? reviewSection(ctx, label, names) : h("span"),
  ];
}

/** The game review (GET /tables/{id}/review), fetched when it is opened: each side's
 * chance of winning over the game as a line chart, and each person's costliest moves. */
function reviewSection(ctx, label, names) {
  const { t, tr } = ctx;
  const body = h("div", { id: "review-body" }, h("p", { class: "muted" }, t("The expert is reviewing the game…")));
  const section = h("details", { id: "review" }, h("summary", {}, t("Game review: chances of winning and the costliest moves")), body);
  let asked = false;
  section.addEventListener("toggle", async () => {
    if (!section.open || asked) return;
    asked = true;
    try {
      const review = await ctx.review();
      body.replaceChildren(...reviewContent(review, ctx, label, names));
      section.dataset.review = "shown";
    } catch (err) {
      asked = false;  // opening it again asks again
      body.replaceChildren(h("p", { class: "error", role: "alert" }, err.message));
    }
  });
  return section;
}

function reviewContent(review, ctx, label, names) {
  const { t, tr } = ctx;
  const sideLabel = (i) => (i < review.players ? label(i) : tr(review.sides[i]));
  const out = [];
  if (review.unit === "chance" && review.curve.length) {
    out.push(chanceChart(review, sideLabel, names, t));
    if (!review.calibrated) out.push(h("p", { class: "muted" }, t("These chances are estimates not yet calibrated for this number of players.")));
  } else {
    out.push(h("p", { class: "muted" }, t("No chance of winning is estimated for this mode; the moves below are measured in evaluation points.")));
  }
  for (const [seat, moves] of Object.entries(review.costly)) {
    const who = sideLabel(Number(seat));
    out.push(h("h3", {}, t("{who}: the moves that cost the most", { who })));
    if (!moves.length) {
      out.push(h("p", { class: "costly-none" }, t("No move cost more than the expert's choice would have.")));
      continue;
    }
    out.push(h("ol", { class: "costly", "data-seat": seat }, moves.map((m) => h("li", {},
      h("strong", {}, t("Move {n}", { n: m.move })), ": ",
      t("played {played}; the expert would have played {suggested}", {
        played: render(m.played.label, { who: ctx.who }), suggested: render(m.suggested.label, { who: ctx.who }) }),
      " ", h("span", { class: "loss" }, review.unit === "chance"
        ? t("(chance of winning {loss} points lower)", { loss: Math.round(m.loss * 100) })
        : t("({loss} evaluation points lower)", { loss: m.loss.toFixed(1) }))))));
  }
  return out;
}

function chanceChart(review, sideLabel, names, t) {
  const width = 640, height = 240, left = 44, right = 12, top = 12, bottom = 34;
  const last = review.curve[review.curve.length - 1].move || 1;
  const x = (m) => left + (m / last) * (width - left - right);
  const y = (p) => top + (1 - p) * (height - top - bottom);
  const svg = s("svg", { viewBox: `0 0 ${width} ${height + 22 * review.sides.length}`, role: "img", id: "chance-chart",
    "aria-label": t("Chance of winning of each side over the game"), style: "max-width:44rem" });
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    svg.append(s("line", { x1: left, x2: width - right, y1: y(p), y2: y(p), stroke: "#ccc" }));
    svg.append(s("text", { x: left - 6, y: y(p) + 4, "text-anchor": "end", "font-size": 11 }, `${Math.round(p * 100)}%`));
  }
  svg.append(s("text", { x: (left + width) / 2, y: height - 6, "text-anchor": "middle", "font-size": 11 }, t("moves played")));
  review.sides.forEach((_, i) => {
    const colour = colourOf(i < names.length ? names[i] : review.sides[i]);
    const points = review.curve.map((pt) => `${x(pt.move).toFixed(1)},${y(pt.chances[i]).toFixed(1)}`).join(" ");
    svg.append(s("polyline", { points, fill: "none", stroke: colour.fill, "stroke-width": 2.5,
      "stroke-dasharray": BAR_PATTERNS[i % BAR_PATTERNS.length] || null, "data-side": String(i) },
    s("title", {}, sideLabel(i))));
    const ly = height + 4 + i * 22;
    svg.append(s("line", { x1: left, x2: left + 28, y1: ly + 6, y2: ly + 6, stroke: colour.fill, "stroke-width": 3,
      "stroke-dasharray": BAR_PATTERNS[i % BAR_PATTERNS.length] || null }));
    const end = review.curve[review.curve.length - 1].chances[i];
    svg.append(s("text", { x: left + 36, y: ly + 10, "font-size": 12 }, `${sideLabel(i)} · ${Math.round(end * 100)}%`));
  });
  return svg;
}

function chart(scores, breakdown, categories, label, catLabel, names, t) {
  const n = scores.length;
  if (!n) return h("span");
  const width = 640;
  const rowH = 34;
  const left = 150;
  const height = n * rowH + 60;
  const max = Math.max(1, ...scores, ...breakdown.map((b) => categories.reduce((x, c) => x + Math.max(0, b[c]), 0)));
  const scale = (width - left - 40) / max;
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", id: "score-chart",
    "aria-label": t("Score chart: each player's points by category"), style: "max-width:44rem" });
  scores.forEach((score, i) => {
    const y = 10 + i * rowH;
    svg.append(s("text", { x: left - 8, y: y + 20, "text-anchor": "end", "font-size": 14 },
      `${colourOf(names[i]).letter} · ${label(i)}`));
    let x = left;
    categories.forEach((c, k) => {
      const v = Math.max(0, breakdown[i][c]);
      if (!v) return;
      const w = v * scale;
      svg.append(s("rect", { x, y, width: w, height: rowH - 8, fill: BAR_COLOURS[k % BAR_COLOURS.length],
        stroke: "#000", "stroke-dasharray": BAR_PATTERNS[k % BAR_PATTERNS.length] || null },
      s("title", {}, `${label(i)}: ${catLabel(c)} ${breakdown[i][c]}`)));
      if (w > 18) {
        svg.append(s("text", { x: x + w / 2, y: y + 18, "text-anchor": "middle", "font-size": 12, fill: "#fff",
          "pointer-events": "none" }, String(v)));
      }
      x += w;
    });
    svg.append(s("text", { x: x + 6, y: y + 20, "font-size": 14, "font-weight": 700 }, String(score)));
  });
  let ly = 10 + n * rowH + 10;
  let lx = 10;
  categories.forEach((c, k) => {
    const text = catLabel(c);
    const itemWidth = 24 + text.length * 6.5;
    if (lx > 10 && lx + itemWidth > width - 10) {  // wrap to a new legend line
      lx = 10;
      ly += 18;
    }
    svg.append(s("rect", { x: lx, y: ly, width: 12, height: 12, fill: BAR_COLOURS[k % BAR_COLOURS.length], stroke: "#000" }));
    svg.append(s("text", { x: lx + 16, y: ly + 11, "font-size": 11 }, text));
    lx += itemWidth;
  });
  svg.setAttribute("viewBox", `0 0 ${width} ${Math.max(height, ly + 22)}`);
  return svg;
}
