// The meeplehall app shell: lobby, table (prompt, choices, log, undo, hint, turn
// signal), end screen (scores, chart, record, replay) and the language switch. The
// boards are drawn by static/js/games/<game>.js (renderBoard(container, view, ctx)).

import { api, apiBytes, ApiError, follow, forgetSeat, forgetTable, hostTokenFor, myTables, rememberColours, rememberHost, rememberSeat, tablePref, tokensFor } from "./api.js";
import { COLOURS, badge, h, symbolOf } from "./dom.js";
import { availableLanguages, currentLanguage, preferredLanguage, render, setLanguage, t, tr } from "./i18n.js";
import { endScreen, seatNames } from "./endgame.js";
import { accountCard, accountSeats, leaderboardPage, loadAccount, notifyTurn, profilePage, ratedInput, seatNotifyForm, signInPage, turnsCard } from "./people.js";

const root = document.getElementById("main");
const top = document.getElementById("top");
const liveRegion = document.getElementById("live");
let games = null;          // GET /api/games
let current = null;        // the open TableView, if any
let lobbyChoice = { game: null };
// The open table's title and the drawer's toggle live in the header row (one compact row
// above the board); the table view fills them.
const tableTitle = h("h1", { id: "table-title" });
const sideToggle = h("button", { id: "side-toggle", type: "button", "aria-controls": "side", "aria-expanded": "false",
  onclick: () => { if (current) current.toggleSide(); } });

// -- header -------------------------------------------------------------------------------

function muted() { return localStorage.getItem("meeplehall.muted") === "1"; }
function autoEnd() { return localStorage.getItem("meeplehall.autoEnd") === "1"; }
/** Whether the others' moves play on the board by themselves when a turn comes (on unless
 * the player turned it off). */
function autoReplay() { return localStorage.getItem("meeplehall.autoReplay") !== "0"; }
function reducedMotion() {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
const REPLAY_STEP_MS = 1100;  // how long each replayed move stays on the board
const REPLAY_MAX_STEPS = 40;  // the most moves one replay steps through (the latest ones)
const VIEWS_KEPT = 64;  // views kept in memory for the replays (by seat and move count)

function renderHeader() {
  const langs = availableLanguages();
  const select = h("select", { id: "language", "aria-label": t("Language"),
    onchange: async (e) => { await setLanguage(e.target.value); rerender(); } },
  Object.entries(langs).map(([code, name]) =>
    h("option", { value: code, selected: code === currentLanguage() }, name)));
  const mute = h("input", { type: "checkbox", id: "mute", checked: muted(),
    onchange: (e) => localStorage.setItem("meeplehall.muted", e.target.checked ? "1" : "0") });
  sideToggle.textContent = `☰ ${t("Choices and log")}`;
  top.replaceChildren(
    h("a", { class: "brand", href: "#/" }, "meeplehall"),
    h("a", { href: "#/", id: "nav-lobby" }, t("Lobby")),
    tableTitle, sideToggle,
    h("label", { for: "mute", class: "mute", title: t("Mute the turn sound") }, mute, " ",
      h("span", { class: "mute-icon", "aria-hidden": "true" }, "♪"), h("span", { class: "mute-text" }, t("Mute the turn sound"))),
    h("label", { for: "language" }, h("span", { class: "visually-hidden" }, t("Language")), " "), select);
}

function rerender() {
  renderHeader();
  if (current) { current.build(); current.render(); } else route();
}

function announce(text) { liveRegion.textContent = text; }

// Escape ends a replay of the others' moves, else closes the side panel's drawer (on a
// phone), wherever the focus is.
document.addEventListener("keydown", (ev) => {
  if (ev.key !== "Escape" || !current) return;
  if (current.replay) { ev.preventDefault(); current.stopReplay(); return; }
  if (current.sideOpen) current.toggleSide(false);
});
// A spectator's "Since you last looked": from when the page was last hidden.
document.addEventListener("visibilitychange", () => { if (current) current.onVisibility(document.visibilityState); });

// -- players' names -------------------------------------------------------------------------

const NAME_KEY = "meeplehall.playerName";
const MAX_NAME = 24;  // as the server checks (meeplehall.server.names)
/** The name this device last gave (used again when joining by an invite link). */
function savedName() { return (localStorage.getItem(NAME_KEY) || "").trim().slice(0, MAX_NAME); }
function saveName(name) { if (name) localStorage.setItem(NAME_KEY, name); }
/** The join body: the name, or nothing. */
function nameBody(name) { const n = (name || "").trim(); return n ? { name: n } : undefined; }

// -- router -------------------------------------------------------------------------------

async function route() {
  const hash = location.hash || "#/";
  let m;
  if ((m = hash.match(/^#\/table\/(\d+)\/join\/(\d+)$/))) return joinByLink(Number(m[1]), Number(m[2]));
  if ((m = hash.match(/^#\/recover\/(\d+)\/([A-Za-z0-9_-]+)$/))) return recoverByLink(Number(m[1]), m[2]);
  if ((m = hash.match(/^#\/table\/(\d+)$/))) return openTable(Number(m[1]));
  if ((m = hash.match(/^#\/sign-in\/([A-Za-z0-9_-]{1,200})$/))) return signInPage(root, m[1]);
  if ((m = hash.match(/^#\/ratings\/([a-z-]{1,64})(?:\/([2-8]))?$/))) return ratingsPage(m[1], Number(m[2] || 2));
  if ((m = hash.match(/^#\/profile\/(\d+)$/))) return accountPage(Number(m[1]));
  return lobby();
}

function closeTable() {
  if (current) { current.close(); current = null; }
  document.title = "meeplehall";
  tableTitle.replaceChildren();
  document.body.classList.remove("at-table");
  document.documentElement.classList.remove("at-table");
  delete root.dataset.view;
}

// -- lobby --------------------------------------------------------------------------------

const MAIN_OPTIONS = {
  "red-cathedral": ["advanced_workshops"],
  praga: ["action_side", "tile_arrangement", "road_tiles", "hunger_wall_tiers",
    "cathedral_tiers", "bridge_layout", "production_tokens", "solo_opponent", "parler_bots"],
};
const SEAT_HERE = "here";
const SEAT_INVITE = "invite";

function seatKindLabel(kind) {
  return {
    here: t("Human (here, on this device)"), invite: t("Human (invited by link)"),
    random: t("Bot: random"), greedy: t("Bot: greedy"), planner: t("Bot: planner"),
    "mcts-easy": t("Bot: MCTS easy"),
    "mcts-medium": t("Bot: MCTS medium"), "mcts-hard": t("Bot: MCTS hard"),
    expert: t("Bot: expert"),
  }[kind] || kind;
}

/** A lobby text without the reference's apparatus: rule IDs (P-SETUP-5), edition tags
 * ([RU]), notes on sources ("(the reference, after dized)"), code quotes and names. */
export function plainText(text) {
  return String(text)
    .replace(/\s*\((?:[^()]*\b(?:reference|seed|literal|dized|rulebook's|solo helper|toml)\b[^()]*)\)/gi, "")
    .replace(/\s*\[(?:RU|DE|PL|PT|EN|CZ)\](?:,\s*)?/g, "")
    .replace(/\b[A-Z]{1,3}(?:-[A-Z0-9]+)+(?:'s)?[,:]?\s*/g, "")
    .replace(/,\s*\)/g, ")")
    .replace(/\b([a-z]+(?:_[a-z]+)+)='([^']*)'/g, (_, name, v) => `${name.replace(/_/g, " ")} ${v}`)
    .replace(/'([^']*)'/g, "$1")
    .replace(/\b([a-z]+)_([a-z_]+)\b/g, (w) => w.replace(/_/g, " "))
    .replace(/\(\s*\)/g, "").replace(/\s+([,.;:])/g, "$1").replace(/\s{2,}/g, " ").trim();
}

/** A catalogue text for the lobby (``kind``: "option", "help", "choice"; ``key``: the
 * option's name, for a choice "NAME: VALUE"; the lobby.po catalogues), else the plain form of the
 * engine's own text. */
function lobbyText(kind, key, fallback) {
  const id = `lobby ${kind}: ${key}`;
  const text = t(id);
  return text !== id ? text : plainText(tr(fallback));
}

function optionInput(opt, value, onChange) {
  const id = `opt-${opt.name}`;
  let input;
  if (opt.kind === "bool") {
    input = h("input", { type: "checkbox", id, checked: !!value, onchange: (e) => onChange(e.target.checked) });
  } else if (opt.kind === "choice") {
    input = h("select", { id, onchange: (e) => onChange(e.target.value) },
      opt.choices.map((c) => h("option", { value: c, selected: c === value }, lobbyText("choice", `${opt.name}: ${c}`, String(c)))));
  } else {
    input = h("input", { type: "number", id, value, min: opt.minimum, max: opt.maximum,
      onchange: (e) => onChange(Number(e.target.value)) });
  }
  const help = lobbyText("help", opt.name, opt.help);
  return h("div", { class: "form-row" },
    h("label", { for: id, title: help }, lobbyText("option", opt.name, opt.name.replace(/_/g, " "))), input,
    h("span", { class: "muted option-help", style: "font-size:0.85rem" }, help));
}

// ``askAccount``: ask the server again who is signed in (false when the lobby redraws for a
// choice made in it: the form then changes at once, with no round trip in between).
async function lobby(askAccount = true) {
  closeTable();
  if (!games) games = await api("GET", "/games");
  if (askAccount) await loadAccount();
  const game = games.games.find((g) => g.name === lobbyChoice.game) || games.games[0];
  if (lobbyChoice.game !== game.name || !lobbyChoice.options) {
    lobbyChoice = { game: game.name, options: {}, seats: [] };
    for (const o of game.options) lobbyChoice.options[o.name] = o.default;
  }
  const opts = lobbyChoice.options;
  const playersOpt = game.options.find((o) => o.name === "players");
  const players = Number(opts.players || 2);
  const kinds = [SEAT_HERE, SEAT_INVITE, ...games.seat_kinds.filter((k) => k !== "human")];
  const error = h("p", { class: "error", role: "alert", id: "create-error" });

  // The seat rows follow the "Players" field in place: the rest of the form (and the
  // "Create the table" button a player may be clicking) stays as it is.
  const seatBox = h("div", { id: "seat-rows" });
  const fillSeats = (n) => {
    while (lobbyChoice.seats.length < n) {
      lobbyChoice.seats.push(lobbyChoice.seats.length === 0 ? SEAT_HERE : "greedy");
    }
    lobbyChoice.seats.length = n;
    lobbyChoice.names = lobbyChoice.names || [savedName()];
    // A seat played here may be given its player's name (public, at most 24 characters).
    seatBox.replaceChildren(...lobbyChoice.seats.map((kind, i) => {
      const name = h("input", { type: "text", id: `seat-name-${i}`, class: "seat-name", maxlength: MAX_NAME,
        value: lobbyChoice.names[i] || "", placeholder: t("Your name (optional)"),
        "aria-label": t("Name of the player at seat {n} (optional)", { n: i + 1 }), hidden: kind !== SEAT_HERE,
        oninput: (e) => { lobbyChoice.names[i] = e.target.value; } });
      return h("div", { class: "form-row seat-row" },
        h("label", { for: `seat-${i}` }, t("Seat {n}", { n: i + 1 })),
        h("select", { id: `seat-${i}`, onchange: (e) => { lobbyChoice.seats[i] = e.target.value; name.hidden = e.target.value !== SEAT_HERE; } },
          kinds.map((k) => h("option", { value: k, selected: k === kind }, seatKindLabel(k)))), name);
    }));
  };
  fillSeats(players);
  const setPlayers = (e) => {
    const raw = Number(e.target.value);
    if (!Number.isInteger(raw) || raw < playersOpt.minimum || raw > playersOpt.maximum) return;
    if (raw === Number(opts.players)) return;
    opts.players = raw;
    fillSeats(raw);
  };

  const main = (MAIN_OPTIONS[game.name] || []).map((n) => game.options.find((o) => o.name === n)).filter(Boolean);
  const rest = game.options.filter((o) => o.name !== "players" && !main.includes(o));
  const setOpt = (name) => (value) => { opts[name] = value; };
  const soloNote = game.name === "red-cathedral"
    ? h("p", { class: "muted" }, t("1 player: solo against Ivan Yakovlevich, the automaton.")) : null;

  const form = h("section", { class: "card", "aria-labelledby": "new-table" },
    h("h2", { id: "new-table" }, t("New table")),
    h("div", { class: "games", role: "group", "aria-label": t("Game") },
      games.games.map((g) => h("button", { "aria-pressed": String(g.name === game.name), "data-game": g.name,
        onclick: () => { lobbyChoice.game = g.name; lobbyChoice.options = null; lobby(false); } }, tr(g.title)))),
    h("div", { class: "form-row" },
      h("label", { for: "players", title: lobbyText("help", "players", playersOpt.help) }, t("Players")),
      h("input", { type: "number", id: "players", value: players, min: playersOpt.minimum,
        max: playersOpt.maximum, oninput: setPlayers, onchange: setPlayers }), soloNote),
    h("h3", {}, t("Seats")), seatBox,
    h("h3", {}, t("Options")), main.map((o) => optionInput(o, opts[o.name], setOpt(o.name))),
    overDaysForm(),
    h("details", {}, h("summary", {}, t("More rule options")),
      rest.map((o) => optionInput(o, opts[o.name], setOpt(o.name))),
      h("div", { class: "form-row" }, h("label", { for: "seed" }, t("Seed")),
        h("input", { type: "text", inputmode: "numeric", id: "seed", placeholder: t("random"), value: lobbyChoice.seed ?? "",
          onchange: (e) => { lobbyChoice.seed = e.target.value.trim() === "" ? null : e.target.value.trim(); } }),
        h("span", { class: "muted" }, t("Everyone at the table is told that you chose the seed.")))),
    ratedInput(lobbyChoice),
    h("p", {}, h("button", { class: "primary", id: "create", onclick: () => createTable(game, error) },
      t("Create the table"))), error);

  const importError = h("p", { class: "error", role: "alert", id: "import-error" });
  const importer = h("section", { class: "card", "aria-labelledby": "import-h" },
    h("h2", { id: "import-h" }, t("Open a saved game")),
    h("p", { class: "muted" }, t("A game record saved from the end screen (a .json file) opens as a new table that you can replay or watch.")),
    h("input", { type: "file", id: "import-file", accept: ".json,application/json", "aria-label": t("Game record file"),
      onchange: (e) => importRecord(e.target.files && e.target.files[0], importError) }), importError);
  const resume = h("section", { class: "card", "aria-labelledby": "resume" },
    h("h2", { id: "resume" }, t("Resume my tables")), h("ul", { class: "plain", id: "my-tables" }));
  const watch = h("section", { class: "card", "aria-labelledby": "watch" },
    h("h2", { id: "watch" }, t("Watch a game")), h("ul", { class: "plain", id: "open-tables" }));
  root.replaceChildren(h("h1", {}, t("Play The Red Cathedral and Praga Caput Regni")),
    h("div", { class: "lobby" }, form, h("div", {}, turnsCard(gameTitle), resume, watch,
      accountCard(lobby, gameTitle), importer)));
  root.dataset.page = "lobby";
  fillMyTables(resume.querySelector("ul"));
  fillOpenTables(watch.querySelector("ul"));
}

async function ratingsPage(game, players) {
  closeTable();
  if (!games) games = await api("GET", "/games");
  root.dataset.page = "ratings";
  await leaderboardPage(root, game, players, games.games.map((g) => g.name), gameTitle, seatKindLabel);
}

async function accountPage(id) {
  closeTable();
  if (!games) games = await api("GET", "/games");
  root.dataset.page = "profile";
  await profilePage(root, id, gameTitle);
}

// Turn deadlines offered in the lobby, in hours (the server takes 1 to 336).
const DEADLINES = [1, 12, 24, 48, 72, 168, 336];

function deadlineLabel(hours) {
  return hours < 24 ? t("{n} hour", { n: hours }) : t("{n} day", { n: hours / 24 });
}

/** The lobby's rows for a table played over days: a turn deadline, the bot that
 * stands in past it, and whether spectators read the chat. */
function overDaysForm() {
  const standIn = h("select", { id: "stand-in", disabled: !lobbyChoice.deadline,
    onchange: (e) => { lobbyChoice.standIn = e.target.value; } },
  games.seat_kinds.filter((k) => k !== "human").map((k) => h("option", { value: k,
    selected: k === (lobbyChoice.standIn || "greedy") }, seatKindLabel(k))));
  return h("div", { class: "over-days" },
    h("div", { class: "form-row" },
      h("label", { for: "deadline" }, t("Turn deadline")),
      h("select", { id: "deadline", onchange: (e) => {
        lobbyChoice.deadline = e.target.value ? Number(e.target.value) : null;
        standIn.disabled = !lobbyChoice.deadline;
      } },
      h("option", { value: "", selected: !lobbyChoice.deadline }, t("none")),
      DEADLINES.map((hours) => h("option", { value: hours, selected: lobbyChoice.deadline === hours }, deadlineLabel(hours))))),
    h("div", { class: "form-row" }, h("label", { for: "stand-in" }, t("Past the deadline, moves by")), standIn),
    h("div", { class: "form-row" },
      h("label", {}, h("input", { type: "checkbox", id: "spectator-chat", checked: !!lobbyChoice.spectatorChat,
        onchange: (e) => { lobbyChoice.spectatorChat = e.target.checked; } }), " ", t("Spectators may read the chat"))));
}

/** How long until a deadline, in words ("2 days left"). */
function timeLeft(iso) {
  const ms = Date.parse(iso) - Date.now();
  if (!(ms > 0)) return t("past the deadline");
  const minutes = Math.floor(ms / 60000);
  if (minutes < 60) return t("{n} minute left", { n: Math.max(1, minutes) });
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return t("{n} hour left", { n: hours });
  return t("{n} day left", { n: Math.floor(hours / 24) });
}

function gameTitle(name) {
  const g = games && games.games.find((x) => x.name === name);
  return tr(g ? g.title : name);
}

async function fillMyTables(list) {
  const mine = Object.entries(myTables()).sort((a, b) => Number(b[0]) - Number(a[0]));
  if (!mine.length) { list.append(h("li", { class: "muted" }, t("No tables yet."))); return; }
  for (const [id, entry] of mine.slice(0, 30)) {
    const seatsEl = h("span", { class: "muted my-seats" }, "…");
    const li = h("li", {}, h("a", { href: `#/table/${id}` }, `${gameTitle(entry.game)} #${id}`), " ", seatsEl, " · ");
    const status = h("span", { class: "muted table-status" }, "…");
    li.append(status, " ", h("button", { onclick: () => { forgetTable(id); li.remove(); },
      "aria-label": t("Forget table {id}", { id }) }, t("Forget")));
    list.append(li);
    api("GET", `/tables/${id}`).then((s) => {
      // each seat one plays by its identity: its player's name and colour, or its colour's player
      const colours = entry.colours || [];
      const who = Object.keys(entry.tokens).map(Number).sort((a, b) => a - b).map((seat) => {
        const name = s.seats[seat] && s.seats[seat].name;
        const colour = colours[seat];
        if (name && colour) return t("{name} ({colour})", { name, colour: tr(colour) });
        if (name) return name;
        return colour ? defaultName(colour) : t("Player {n}", { n: seat + 1 });
      });
      seatsEl.textContent = who.length ? t("you play as {who}", { who: who.join(", ") }) : t("you host it");
      status.textContent = s.finished ? t("finished")
        : (s.to_move !== null && String(s.to_move) in entry.tokens ? t("your turn") : t("in progress"));
    }).catch(() => { status.textContent = t("gone"); });
  }
}

async function fillOpenTables(list) {
  try {
    const { tables } = await api("GET", "/tables?finished=false&limit=20");
    if (!tables.length) list.append(h("li", { class: "muted" }, t("No games in progress.")));
    for (const tb of tables) {
      const open = tb.seats.filter((x) => x.open);
      list.append(h("li", {}, h("a", { href: `#/table/${tb.id}` }, `${gameTitle(tb.game)} #${tb.id}`), " ",
        h("span", { class: "muted" }, t("{n} player, move {moves}", { n: tb.seats.length, moves: tb.moves ?? 0 })),
        tb.seats.some((x) => x.name) ? [" ", h("span", { class: "people" }, "(", tb.seats.filter((x) => x.name).map((x) => x.name).join(", "), ")")] : null,
        tb.seed_chosen ? [" ", h("span", { class: "muted seed-chosen" }, t("seed chosen by the table's creator"))] : null,
        tb.rated ? [" ", h("span", { class: "muted rated" }, t("rated game"))] : null,
        open.map((x) => [" ", h("a", { href: `#/table/${tb.id}/join/${x.seat}` }, t("take seat {n}", { n: x.seat + 1 }))])));
    }
  } catch (err) {
    list.append(h("li", { class: "error" }, String(err.message)));
  }
}

async function createTable(game, error) {
  const button = document.getElementById("create");
  button.disabled = true;
  error.textContent = "";
  try {
    const seats = lobbyChoice.seats.map((k) => (k === SEAT_HERE || k === SEAT_INVITE ? "human" : k));
    // Only the options changed from their defaults (the engine checks their combination).
    const options = { players: Number(lobbyChoice.options.players) };
    for (const o of game.options) {
      const value = lobbyChoice.options[o.name];
      if (o.name !== "players" && value !== undefined && value !== o.default) options[o.name] = value;
    }
    const body = { game: game.name, options, seats, rated: Boolean(lobbyChoice.rated) };
    if (lobbyChoice.deadline) {
      body.deadline_hours = lobbyChoice.deadline;
      body.stand_in = lobbyChoice.standIn || "greedy";
    }
    if (lobbyChoice.spectatorChat) body.spectator_chat = true;
    if (lobbyChoice.seed !== null && lobbyChoice.seed !== undefined) {
      // Only seeds a JavaScript number holds exactly (the server refuses larger ones too).
      const seed = Number(lobbyChoice.seed);
      if (!/^-?[0-9]+$/.test(lobbyChoice.seed) || !Number.isSafeInteger(seed)) {
        throw new Error(t("The seed must be a whole number between {min} and {max}.",
          { min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }));
      }
      body.seed = seed;
    }
    const names = lobbyChoice.names || [];
    for (const [i, kind] of lobbyChoice.seats.entries()) {  // refused before the table is made
      const name = kind === SEAT_HERE ? (names[i] || "").trim() : "";
      if (name.length > MAX_NAME) throw new Error(t("A name has at most {n} characters.", { n: MAX_NAME }));
    }
    const table = await api("POST", "/tables", { body });
    rememberHost(table.id, game.name, table.host_token);
    for (const [i, kind] of lobbyChoice.seats.entries()) {
      if (kind !== SEAT_HERE) continue;
      const joined = await api("POST", `/tables/${table.id}/seats/${i}/join`, { body: nameBody(names[i]) });
      rememberSeat(table.id, game.name, i, joined.token);
    }
    const first = lobbyChoice.seats.indexOf(SEAT_HERE);
    if (first >= 0) saveName((names[first] || "").trim());
    location.hash = `#/table/${table.id}`;
  } catch (err) {
    error.textContent = err.message;
    button.disabled = false;
  }
}

function askToJoin(id, seat, held, summary) {
  return new Promise((resolve) => {
    root.replaceChildren(h("h1", {}, `${gameTitle(summary.game)} #${id}`),
      h("section", { class: "card", id: "join-ask" },
        h("p", {}, t("This device already plays seat {held} at this table. The invite link is for seat {n}: take that seat here too (both seats are then played on this device)?",
          { held: held.join(", "), n: seat + 1 })),
        h("p", { class: "toolbar" },
          h("button", { class: "primary", id: "join-yes", onclick: () => resolve(true) }, t("Take seat {n} here", { n: seat + 1 })),
          h("button", { id: "join-no", onclick: () => { location.replace(`#/table/${id}`); resolve(false); } },
            t("No, open the table")))));
    root.dataset.page = "join";
  });
}

/** The invitee's name (public, optional; "" for none), asked on the page of the link. */
function askName(id, seat, summary) {
  return new Promise((resolve) => {
    const input = h("input", { type: "text", id: "join-name", maxlength: MAX_NAME, autocomplete: "nickname" });
    const take = () => resolve(input.value.trim().slice(0, MAX_NAME));
    root.replaceChildren(h("h1", {}, `${gameTitle(summary.game)} #${id}`),
      h("form", { class: "card", id: "join-invite", onsubmit: (e) => { e.preventDefault(); take(); } },
        h("p", {}, t("You are invited to play seat {n} at this table.", { n: seat + 1 })),
        h("p", {}, h("label", { for: "join-name" }, t("Your name (optional)")), " ", input),
        h("p", { class: "toolbar" },
          h("button", { class: "primary", id: "join-take", type: "submit" }, t("Take seat {n} here", { n: seat + 1 })),
          h("a", { href: `#/table/${id}`, id: "join-watch" }, t("Watch this table instead")))));
    root.dataset.page = "join";
    input.focus();
  });
}

async function importRecord(file, error) {
  if (!file) return;
  error.textContent = "";
  try {
    let record;
    try {
      record = JSON.parse(await file.text());
    } catch (_) {
      throw new Error(t("This file is not a game record (it is not JSON)."));
    }
    const table = await api("POST", "/tables/import", { body: { record } });
    rememberHost(table.id, table.game, table.host_token);
    location.hash = `#/table/${table.id}`;
  } catch (err) {
    error.textContent = err.message;
  }
}

async function joinByLink(id, seat) {
  closeTable();
  try {
    const tokens = tokensFor(id);
    if (!(seat in tokens)) {
      const summary = await api("GET", `/tables/${id}`);
      if (!games) games = await api("GET", "/games");  // the game's title on the pages below
      const info = summary.seats.find((x) => x.seat === seat);
      if (info && info.kind === "human" && !info.open) {
        throw new Error(t("Seat {n} at this table is already taken.", { n: seat + 1 }));
      }
      // This device already plays at the table (a host opening their own invite link):
      // ask before taking the seat that was meant for someone else.
      const held = Object.keys(tokens).map((x) => Number(x) + 1);
      if (held.length && !await askToJoin(id, seat, held, summary)) return;
      // Someone new on this device (no name given here before) is asked for one first.
      const name = held.length || savedName() ? savedName() : await askName(id, seat, summary);
      const joined = await api("POST", `/tables/${id}/seats/${seat}/join`, { body: nameBody(name) });
      saveName((name || "").trim());
      rememberSeat(id, summary.game, seat, joined.token);
    }
    location.replace(`#/table/${id}`);
  } catch (err) {
    root.replaceChildren(h("h1", {}, t("Cannot join")), h("p", { class: "error", role: "alert" }, err.message),
      h("p", {}, h("a", { href: `#/table/${id}` }, t("Watch this table instead"))));
  }
}

/** A recovery link opened on this device: the seat moves here (a new token; the old
 * device's stops working). */
async function recoverByLink(id, secret) {
  closeTable();
  try {
    const summary = await api("GET", `/tables/${id}`);
    const moved = await api("POST", `/tables/${id}/recover`, { body: { secret } });
    rememberSeat(id, summary.game, moved.seat, moved.token);
    location.replace(`#/table/${id}`);
  } catch (err) {
    root.replaceChildren(h("h1", {}, t("Cannot move the seat here")), h("p", { class: "error", role: "alert" }, err.message),
      h("p", {}, h("a", { href: `#/table/${id}` }, t("Watch this table instead"))));
    root.dataset.page = "recover";
  }
}

// -- the table ------------------------------------------------------------------------------

async function openTable(id) {
  closeTable();
  root.replaceChildren(h("p", {}, t("Loading…")));
  let summary;
  try {
    summary = await api("GET", `/tables/${id}`);
  } catch (err) {
    root.replaceChildren(h("h1", {}, t("Table {id}", { id })), h("p", { class: "error", role: "alert" }, err.message));
    return;
  }
  if (!games) games = await api("GET", "/games");
  await loadAccount();
  await accountSeats(id, summary.game);
  await setLanguage(currentLanguage(), summary.game);
  current = new TableView(id, summary);
  await current.start();
}

/** The readable name of a seat whose player gave none: its colour's player. */
function defaultName(colour) {
  const names = {
    yellow: () => t("Yellow player"), red: () => t("Red player"), blue: () => t("Blue player"),
    green: () => t("Green player"), white: () => t("White player"), purple: () => t("Purple player"),
    black: () => t("Black player"), orange: () => t("Orange player"),
  };
  const key = String(colour).toLowerCase();
  return names[key] ? names[key]() : t("{colour} player", { colour: tr(colour) });
}

let audio = null;
function beep() {
  if (muted()) return;
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.12, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.35);
  } catch (_) { /* no audio device */ }
}

class TableView {
  constructor(id, summary) {
    this.id = id;
    this.summary = summary;
    this.game = summary.game;
    this.tokens = tokensFor(id);
    this.held = Object.keys(this.tokens).map(Number).sort((a, b) => a - b);
    this.primary = this.held.length ? this.held[0] : null;
    this.msg = null;          // the latest WebSocket message (primary seat or spectator)
    this.acting = null;       // state of the held seat to move: {seat, view, legal, ...}
    this.busy = false;
    this.generation = 0;
    this.hint = null;
    this.error = "";
    this.module = null;
    this.moduleError = null;
    this.replayAt = null;
    this.wasMyTurn = false;
    this.marks = tablePref(id, "marks") || {};
    this.views = new Map();   // `${seat or "watch"}:${moves}` -> the view after that many moves
    this.replay = null;       // the replay of the others' moves being shown, if any
    this.watchMark = null;    // a spectator's: since the page was opened or last hidden
    this.liveHighlight = null;  // reduced motion: {seat, seq, keys} marked on the live board
    this.present = null;      // the seats whose players have the table open (null: unknown)
    this.host = hostTokenFor(id);  // this device created the table: the host's controls
    this.chat = [];           // the chat messages shown (the sync's last ones, then each new one)
    this.recovery = {};       // seat -> its recovery link, once asked
    this.offline = false;     // our own live connection is down
  }

  async start() {
    try {
      this.module = await import(`./games/${this.game}.js`);
    } catch (err) {
      this.moduleError = err;
      console.warn(`board module for ${this.game} failed to load`, err);
    }
    this.build();
    this.ticker = setInterval(() => this.renderDeadline(), 60000);  // the time left, each minute
    this.live = follow(this.id, this.primary === null ? null : this.tokens[this.primary],
      (msg) => this.onMessage(msg), (status, detail) => {
        if (status === "error") { this.error = detail; this.renderStatus(); }
        if (status === "closed" || status === "open") {
          this.offline = status === "closed";
          this.renderStatus();
        }
        if (status === "seats") this.onSeats(detail);
        if (status === "chat" && !this.chat.some((m) => m.id === detail.id)) {
          this.chat.push(detail);
          this.renderChat();
        }
      });
  }

  close() {
    if (this.live) this.live.close();
    clearInterval(this.ticker);
    clearTimeout(this.watchdog);
    if (this.resizer) this.resizer.disconnect();
  }

  build() {
    // A name typed but not saved survives the rebuild (a language switch); the forms
    // themselves are made again, in the new language.
    const typed = {};
    for (const [seat, form] of Object.entries(this.nameForms || {})) {
      const input = form.querySelector("input");
      if (input && input.dataset.edited) typed[seat] = input.value;
    }
    this.nameForms = {};
    this.typedNames = typed;
    this.els = {
      board: h("div", { class: "board", id: "board", "aria-label": t("Game board") }),
      replayBar: h("div", { class: "turn-replay", id: "turn-replay", role: "group", hidden: true,
        "aria-label": t("Since your last turn") }),
      promptBar: h("p", { class: "prompt-bar", id: "prompt-bar" }),
      prompt: h("p", { class: "prompt", id: "prompt", "aria-live": "polite" }),
      rulesButton: h("button", { type: "button", id: "rules-toggle", class: "rules-toggle", "aria-expanded": String(!!this.rulesOpen),
        "aria-controls": "rules-panel", onclick: () => this.toggleRules() }, t("Rules")),
      rules: h("div", { class: "rules-panel", id: "rules-panel", hidden: !this.rulesOpen }),
      status: h("p", { class: "error", role: "alert", id: "table-error" }),
      choices: h("div", { class: "choices", id: "choices", role: "group" }),
      toolbar: h("div", { class: "toolbar" }),
      since: h("section", { id: "since-section", hidden: true }),
      log: h("ol", { class: "log", id: "log" }),
      seats: h("section", { id: "seats" }),
      notes: h("div", { class: "notes", id: "notes" }),
      chat: h("section", { id: "chat", class: "chat", "aria-labelledby": "chat-h", hidden: true }),
      end: h("section", { id: "end", hidden: true }),
    };
    const e = this.els;
    this.layout = h("div", { class: "table-layout", id: "table-layout" },
      h("div", { class: "board-col" }, e.promptBar, e.replayBar, e.board),
      e.side = h("aside", { class: "side", id: "side", "aria-label": t("Choices and log") },
        h("button", { type: "button", class: "side-close", id: "side-close", onclick: () => this.toggleSide(false) },
          `× ${t("Close")}`),
        h("section", { "aria-labelledby": "decide", class: "decision" },
          h("h2", { id: "decide", class: "visually-hidden" }, t("Decision")),
          h("div", { class: "prompt-row" }, e.prompt, e.rulesButton), e.rules, e.status, e.choices, e.toolbar),
        e.since, e.seats, e.chat,
        h("section", { "aria-labelledby": "log-h" }, h("h2", { id: "log-h" }, t("Log")), e.notes, e.log)));
    root.replaceChildren(e.end, this.layout);
    // While a replay is shown, a click on the board returns to the live board first.
    e.board.addEventListener("click", (ev) => {
      if (!this.replay) return;
      ev.preventDefault();
      ev.stopPropagation();
      this.stopReplay();
    }, true);
    if (this.replay) this.renderReplayBar();
    root.dataset.page = "table";
    root.dataset.view = "table";
    document.body.classList.add("at-table");
    document.documentElement.classList.add("at-table");
    this.toggleSide(!!this.sideOpen);
    // The board is drawn again whenever its region changes size (a window resized, the
    // phone turned, the side panel opened beside it).
    if (this.resizer) this.resizer.disconnect();
    this.boardSize = null;
    if (typeof ResizeObserver === "function") {
      this.resizer = new ResizeObserver(() => {
        // compared with the size the board was last drawn at (renderBoard), so that a
        // change between a drawing and the first observation draws it again too
        const size = sizeOf(e.board);
        if (size === this.boardSize) return;
        this.boardSize = size;
        cancelAnimationFrame(this.redraw);
        this.redraw = requestAnimationFrame(() => { if (this.msg) this.renderBoard(); });
      });
      this.resizer.observe(e.board);
    }
  }

  /** Open or close the side panel (a drawer below 60rem; beside the board above). */
  toggleSide(open = !this.sideOpen) {
    this.sideOpen = open;
    if (this.layout) this.layout.classList.toggle("drawer-open", open);
    sideToggle.setAttribute("aria-expanded", String(open));
    if (open && this.els && window.matchMedia && window.matchMedia("(max-width: 60rem)").matches) {
      const close = this.els.side.querySelector("#side-close");
      setTimeout(() => close.focus(), 200);  // once the drawer is shown
    }
  }

  /** The rule text of the decision asked now, in the player's language (the rule IDs small). */
  async toggleRules(open) {
    const e = this.els;
    open = open === undefined ? e.rules.hidden : open;
    e.rulesButton.setAttribute("aria-expanded", String(open));
    e.rules.hidden = !open;
    this.rulesOpen = open;
    if (!open) return;
    const seq = this.msg ? this.msg.seq : null;
    if (!this.rulesReply || this.rulesReply.seq !== seq) {
      try {
        const token = this.primary === null ? null : this.tokens[this.primary];
        this.rulesReply = await api("GET", `/tables/${this.id}/rules`, { token });
      } catch (err) {
        e.rules.replaceChildren(h("p", { class: "error" }, err.message));
        return;
      }
    }
    this.renderRules();
  }

  renderRules() {
    const e = this.els;
    const reply = this.rulesReply;
    if (!reply || e.rules.hidden) return;
    e.rules.replaceChildren(h("div", {},
      h("p", { class: "rules-text" }, reply.text ? tr(reply.text) : t("No rules text for this decision.")),
      reply.rule_ids.length ? h("p", { class: "rule-ref" }, t("Rule reference:"), " ",
        h("small", { "data-rule-ref": reply.rule_ids.join(" ") }, reply.rule_ids.join(", "))) : null));
  }

  async onMessage(msg) {
    const generation = ++this.generation;
    const prev = this.msg;
    this.msg = msg;
    if (msg.type === "sync" && Array.isArray(msg.chat)) this.chat = msg.chat;
    if (this.held.length) rememberColours(this.id, this.names().slice(0, this.summary.seats.length).map((x) => x || null));
    if (this.summary.seats.some((x) => x.open)) {  // someone may have taken an invited seat
      api("GET", `/tables/${this.id}`).then((s) => { this.summary = s; this.renderSeats(); }).catch(() => {});
    }
    let acting = null;
    const toMove = msg.to_move;
    // (a seat the host handed to a bot is played by it: no choices here meanwhile)
    if (toMove !== null && this.held.includes(toMove) && !(this.summary.seats[toMove] || {}).played_by) {
      if (toMove === this.primary) {
        acting = { seat: toMove, view: msg.view, legal: msg.legal || [], decision: msg.decision,
          seq: msg.seq, undoable: msg.undoable };
      } else {
        try {
          const me = await api("GET", `/tables/${this.id}/me`, { token: this.tokens[toMove] });
          if (generation !== this.generation) return;
          acting = { seat: toMove, view: me.view, legal: me.legal || [], decision: me.decision,
            seq: me.seq, undoable: me.undoable };
          this.remember(toMove, me.moves, me.view);
        } catch (err) {
          this.error = err.message;
        }
      }
    }
    // the views the replays of the others' moves step through, kept as they come
    this.remember(this.primary === null ? "watch" : this.primary, msg.moves, msg.view);
    // "What happened since my last turn": where the log stood when each held seat's
    // turn ended (`from`, `to`: log positions) and the moves to replay (`move` to `upto`:
    // the view after each of them against the one before).
    const logLen = (msg.view.log || []).length;
    let turnCame = null;  // the held seat whose turn came in this update, after others moved
    if (!prev && this.held.length === 0) this.watchMark = { from: logLen, move: msg.moves + 1 };
    if (prev) {
      const log = msg.view.log || [];
      const before = Math.min((prev.view.log || []).length, logLen);
      for (const seat of this.held) {
        const mark = typeof this.marks[seat] === "number" ? { from: this.marks[seat] } : this.marks[seat];
        // The first line of this update by someone else (another seat, an automaton):
        // against Ivan, the dummy or Peter Parler the seat moves again at once, and what
        // they did comes in the same update as its own last move.
        let others = -1;
        if (prev.to_move === seat) {
          others = log.slice(before).findIndex((line) => { const a = this.actorOf(line); return a !== undefined && a !== seat; });
        }
        // (an automaton's turn inside this move: the move itself is replayed, else the
        // moves after it)
        const moved = others >= 0 ? msg.moves : msg.moves + 1;
        if (prev.to_move === seat && toMove !== seat) this.marks[seat] = { from: others >= 0 ? before + others : logLen, move: moved };
        else if (prev.to_move === seat && others >= 0) {
          this.marks[seat] = { from: before + others, to: logLen, move: moved, upto: msg.moves };
          turnCame = seat;
        } else if (prev.to_move !== seat && toMove === seat && mark) {
          this.marks[seat] = { from: mark.from, to: logLen, move: mark.move, upto: msg.moves };
          if (logLen > mark.from) turnCame = seat;
        }
      }
      tablePref(this.id, "marks", this.marks);
      // Opponents' moves, for screen readers (the live region is polite).
      const prevLen = (prev.view.log || []).length;
      if (prev.to_move !== null && !this.held.includes(prev.to_move) && logLen > prevLen) {
        announce((msg.view.log || []).slice(prevLen).slice(-3).map((line) => this.line(line)).join(" "));
      }
    }
    this.acting = acting;
    this.busy = false;
    this.hint = null;
    const myTurn = acting !== null;
    if (myTurn && !this.wasMyTurn) {
      beep();
      announce(`${liveRegion.textContent} ${t("Your turn")}`.trim());
      notifyTurn(`${gameTitle(this.game)} #${this.id}`);
    }
    this.wasMyTurn = myTurn;
    this.render();
    // The others' moves since this seat's last turn, on the board (once, by themselves).
    if (turnCame !== null && acting && acting.seat === turnCame) {
      if (reducedMotion()) this.markSince(turnCame);
      else if (autoReplay()) this.startReplay({ auto: true });
    }
    // "Skip confirmations": a lone confirmation, or carrying out the Influence action chosen.
    const skip = myTurn && autoEnd() && this.module && typeof this.module.autoEndAction === "function"
      ? this.module.autoEndAction(acting.legal, this.lastChosen) : null;
    if (skip) this.choose(skip);
  }

  /** A seat was taken or given up, or a player came or went: read the seats again. */
  async onSeats(present) {
    const before = this.summary.seats;
    this.present = new Set(present);
    try {
      this.summary = await api("GET", `/tables/${this.id}`);
    } catch (_) { /* the next live update brings it */ }
    if (!this.msg) return;
    const names = this.names();
    for (const seat of this.summary.seats) {
      const was = before.find((x) => x.seat === seat.seat);
      if (was && was.open && !seat.open) {
        announce(t("{name} joined the table", { name: this.who(seat.seat, names) }));
      }
    }
    this.renderSeats();
    this.renderChat();
    if (!this.acting) this.renderDecision();
    else this.renderDeadline();
  }

  /** The prompt with the turn deadline of the seat to move, if any ("2 days left"). */
  renderDeadline() {
    const e = this.els;
    const msg = this.msg;
    if (!msg || msg.finished || this.promptBase === undefined) return;
    const info = this.summary.seats[msg.to_move] || {};
    e.prompt.textContent = info.deadline
      ? `${this.promptBase} ${t("({left})", { left: timeLeft(info.deadline) })}` : this.promptBase;
    e.promptBar.textContent = e.prompt.textContent;
  }

  /** Whether the human player of ``seat`` is known to be away (no page open). */
  away(seat) {
    const info = this.summary.seats[seat];
    return this.present !== null && info && info.kind === "human" && !this.held.includes(seat)
      && !this.present.has(seat);
  }

  get view() { return this.acting ? this.acting.view : this.msg && this.msg.view; }

  names() { return seatNames(this.view, this.summary.seats.length); }

  /** The players' own names by seat (null: none given). */
  people() { return this.summary.seats.map((x) => x.name || null); }

  /** A seat's identity: its player's name (null: none given), its colour (translated)
   * and its piece symbol (the colour's shape, so that colour is never the only cue). */
  identity(seat, names = this.names()) {
    const colour = names[seat] || null;
    return { name: (this.summary.seats[seat] || {}).name || null, colour: colour ? tr(colour) : null,
      symbol: symbolOf(colour), key: colour };
  }

  /** A seat as people read it everywhere: "Ada (green)", or for a seat without a name
   * the colour's player ("Green player"). */
  who(seat, names = this.names()) {
    const id = this.identity(seat, names);
    if (id.name && id.colour) return t("{name} ({colour})", { name: id.name, colour: id.colour });
    if (id.name) return id.name;
    if (id.key) return defaultName(id.key);
    return t("Player {n}", { n: seat + 1 });
  }

  /** The seat named by an engine's log argument (a seat number or a colour), as
   * ``who`` writes it; null where it is no seat (an automaton). */
  whoOf(seatOrColour) {
    const names = this.names();
    const seat = typeof seatOrColour === "number" ? seatOrColour
      : names.findIndex((n) => n && String(n).toLowerCase() === String(seatOrColour).toLowerCase());
    return seat >= 0 && seat < this.summary.seats.length ? this.who(seat, names) : null;
  }

  /** Who made a log line: a seat number, -1 for an automaton (Ivan, the dummy, a
   * Parler bot), undefined when the line names nobody. */
  actorOf(line) {
    if (!line || typeof line !== "object") return undefined;
    const key = String(line.key || "");
    const args = line.args || {};
    if ("bot" in args || key.startsWith("Ivan")) return -1;
    for (const name of ["who", "seat", "player"]) {
      const v = args[name];
      if (v === undefined) continue;
      if (v && typeof v === "object" && v.key === "{who} (seat {n})" && v.args && typeof v.args.n === "number") return v.args.n;
      if (v && typeof v === "object" && typeof v.key === "string") {
        const names = this.names();
        const seat = names.findIndex((n) => n && String(n).toLowerCase() === v.key.toLowerCase());
        return seat >= 0 ? seat : -1;
      }
      if (typeof v === "string") return -1;
    }
    return undefined;
  }

  /** A log line as the shell shows it: the seats it names by ``who``. */
  line(message) { return render(message, { who: (x) => this.whoOf(x) }); }

  render() {
    if (!this.msg) return;
    const msg = this.msg;
    const names = this.names();
    const myTurn = this.acting !== null;
    root.dataset.seq = String(this.acting ? this.acting.seq : msg.seq);
    root.dataset.yourTurn = String(myTurn);
    root.dataset.finished = String(msg.finished);
    root.dataset.busy = String(this.busy);
    root.dataset.game = this.game;
    root.dataset.replay = this.replay ? "playing" : "off";
    // One screen while the game is played; the end screen scrolls as any page.
    document.body.classList.toggle("at-table", !msg.finished);
    document.documentElement.classList.toggle("at-table", !msg.finished);
    document.title = myTurn ? `▶ ${t("Your turn")} — ${gameTitle(this.game)} #${this.id}`
      : `${gameTitle(this.game)} #${this.id} — meeplehall`;
    const role = this.held.length
      ? t("you play {seats}", { seats: this.held.map((x) => `${this.identity(x, names).symbol} ${this.who(x, names)}`.trim()).join(", ") })
      : t("watching");
    tableTitle.replaceChildren(`${gameTitle(this.game)} #${this.id}`, " ", h("span", { class: "role" }, `(${role})`));
    tableTitle.title = tableTitle.textContent;
    this.renderBoard();
    this.renderDecision();
    this.renderSince();
    this.renderSeats();
    this.renderChat();
    this.renderLog();
    this.renderEnd();
    if (this.els.rules && !this.els.rules.hidden && (!this.rulesReply || this.rulesReply.seq !== msg.seq)) this.toggleRules(true);
    else this.renderRules();
  }

  renderStatus() {
    this.els.status.textContent = [this.offline ? t("The connection to the table is lost; reconnecting…") : "",
      this.error || ""].filter(Boolean).join(" ");
  }

  ctx(legal, extra = null) {
    return { seat: this.acting ? this.acting.seat : this.primary, legal,
      hint: this.hint && this.hint.ranked[0] ? this.hint.ranked[0].text : null,
      choose: (text) => this.choose(text), t, tr, render, colours: COLOURS, people: this.people(),
      who: (seat) => this.who(seat), identity: (seat) => this.identity(seat), ...(extra || {}) };
  }

  /** The table's board: the live view, or while a replay is shown the replayed move's view
   * (no choice offered; ``ctx.replay``, and ``ctx.highlight``: what that move changed). */
  renderBoard(container = this.els.board, view = this.view, legal = null) {
    let extra = null;
    const r = this.replay;
    if (container === this.els.board && r && r.view) {
      view = r.view;
      legal = [];
      extra = { replay: true, highlight: r.highlight };
    } else if (container === this.els.board && this.liveHighlight && this.acting
      && this.liveHighlight.seat === this.acting.seat && this.liveHighlight.seq === this.acting.seq) {
      extra = { highlight: this.liveHighlight.keys };
    }
    if (legal === null) legal = this.acting && !this.busy ? this.acting.legal : [];
    if (container === this.els.board) this.boardSize = sizeOf(container);
    if (this.module && typeof this.module.renderBoard === "function") {
      try {
        container.replaceChildren();
        this.module.renderBoard(container, view, this.ctx(legal, extra));
        return;
      } catch (err) {
        console.error("renderBoard failed", err);
      }
    }
    container.replaceChildren(fallbackBoard(view));
  }

  renderDecision() {
    const e = this.els;
    const msg = this.msg;
    const names = this.names();
    this.renderStatus();
    e.choices.replaceChildren();
    e.toolbar.replaceChildren();
    e.rulesButton.hidden = !!msg.finished;
    if (msg.finished) {
      e.prompt.className = "prompt";
      e.prompt.textContent = t("The game is over.");
      e.promptBar.textContent = e.prompt.textContent;
      return;
    }
    if (!this.acting) {
      e.prompt.className = "prompt";
      const who = this.who(msg.to_move, names);
      const info = this.summary.seats[msg.to_move] || {};
      const kind = info.kind;
      e.prompt.textContent = info.played_why === "deadline" ? t("Waiting for the stand-in bot, playing for {name}…", { name: who })
        : info.played_by ? t("Waiting for the bot playing for {name}…", { name: who })
          : kind && kind !== "human"
            ? t("Waiting for {name} (bot)…", { name: who })
            : this.away(msg.to_move) ? t("Waiting for {name}, who is away (the table is not open on their device)…", { name: who })
              : t("Waiting for {name}…", { name: who });
      e.promptBar.className = "prompt-bar";
    } else {
      e.prompt.className = "prompt mine";
      e.prompt.textContent = `${t("Your turn")}: ${this.line(this.acting.decision)}`;
      e.promptBar.className = "prompt-bar mine";
      const legal = this.acting.legal;
      e.choices.setAttribute("aria-label", t("Legal choices"));
      const hinted = this.hint && this.hint.ranked[0] && this.hint.ranked[0].text;
      legal.forEach((a, i) => {
        e.choices.append(h("button", { "data-action": a.text, "data-index": i, disabled: this.busy,
          class: a.text === hinted ? "hinted" : null,
          title: `${render(a.label)} [${a.text}]`, onclick: () => this.choose(a.text) }, render(a.label)));
      });
      e.toolbar.append(h("button", { id: "hint", disabled: this.busy, onclick: () => this.askHint(),
        title: t("The greedy bot ranks your choices") }, t("Hint")));
      if (this.hint) {
        e.toolbar.append(h("span", { id: "hint-text" }, t("Hint: {choice}", { choice: render(this.hint.ranked[0].label) })));
      }
      if (this.module && typeof this.module.autoEndAction === "function") {
        e.toolbar.append(h("label", { for: "auto-end" }, h("input", { type: "checkbox", id: "auto-end", checked: autoEnd(),
          onchange: (ev) => {
            localStorage.setItem("meeplehall.autoEnd", ev.target.checked ? "1" : "0");
            const skip = ev.target.checked && this.acting ? this.module.autoEndAction(this.acting.legal, this.lastChosen) : null;
            if (skip) this.choose(skip);
          } }), " ", this.game === "praga"
            ? t("Skip confirmations (perform the tile's action when it is the only one; end my turn when nothing is left)")
            : t("Skip confirmations (carry out the Influence action I chose; end my turn when nothing is left)")));
      }
    }
    this.promptBase = e.prompt.textContent;
    this.renderDeadline();
    const undoSeat = this.acting ? this.acting.seat : this.primary;
    const undoable = this.acting ? this.acting.undoable : msg.undoable;
    if (undoSeat !== null && undoable > 0) {
      e.toolbar.append(h("button", { id: "undo", disabled: this.busy,
        title: t("Take back your last move (not past anything drawn or rolled, nor another seat's move)"),
        onclick: () => this.undo(undoSeat) }, t("Undo")));
    }
  }

  /** What "Since your last turn" covers: the seat to move here (its mark), or for a
   * spectator since the page was opened or last hidden; null when nothing. */
  sinceMark() {
    if (this.held.length === 0) {
      return this.watchMark && this.msg ? { ...this.watchMark, persp: "watch", upto: this.watchMark.upto ?? this.msg.moves } : null;
    }
    const seat = this.acting && this.acting.seat;
    if (seat === null || seat === undefined) return null;
    let mark = this.marks[seat];
    if (typeof mark === "number") mark = { from: mark };
    return mark ? { ...mark, persp: seat } : null;
  }

  renderSince() {
    const e = this.els.since;
    const log = (this.view && this.view.log) || [];
    const mark = this.sinceMark();
    // from the end of your last turn to the start of this one: the others' moves only
    const lines = mark ? log.slice(mark.from, mark.to === undefined ? log.length : mark.to) : [];
    if (!lines.length) { e.hidden = true; return; }
    e.hidden = false;
    const steps = this.replaySteps(mark);
    const replay = steps.length ? h("div", { class: "since-controls" },
      h("button", { type: "button", id: "since-replay", "aria-pressed": String(!!this.replay),
        title: t("Show the moves since your last turn on the board again"),
        onclick: () => (this.replay ? this.stopReplay() : this.startReplay({ auto: !reducedMotion() })) }, `▶ ${t("Replay")}`),
      h("label", { for: "auto-replay" }, h("input", { type: "checkbox", id: "auto-replay", checked: autoReplay(),
        onchange: (ev) => localStorage.setItem("meeplehall.autoReplay", ev.target.checked ? "1" : "0") }),
      " ", t("Show them on the board when my turn comes"))) : null;
    e.replaceChildren(...[h("h2", {}, this.held.length ? t("Since your last turn") : t("Since you last looked")), replay,
      h("ul", { class: "since" }, lines.slice(-40).map((line) => h("li", {}, this.line(line))))].filter(Boolean));
  }

  // -- the replay of the others' moves --------------------------------------------------

  /** Keep the view after ``moves`` moves as ``persp`` (a held seat, or "watch") sees it. */
  remember(persp, moves, view) {
    if (typeof moves !== "number" || !view) return;
    const key = `${persp}:${moves}`;
    this.views.delete(key);
    this.views.set(key, view);
    while (this.views.size > VIEWS_KEPT) this.views.delete(this.views.keys().next().value);
  }

  /** The view after the first ``k`` moves as ``persp`` sees it: kept, or the seat's own
   * replay view (with its token; a spectator's without), never another seat's. */
  async viewAt(persp, k) {
    const key = `${persp}:${k}`;
    if (this.views.has(key)) return this.views.get(key);
    const token = persp === "watch" ? null : this.tokens[persp];
    const body = await api("GET", `/tables/${this.id}/replay/${Math.max(0, k)}`, { token });
    this.remember(persp, k, body.view);
    return body.view;
  }

  /** The moves a replay of ``mark`` steps through (their move counts), the latest ones. */
  replaySteps(mark) {
    if (!mark || typeof mark.move !== "number" || !this.msg) return [];
    const upto = typeof mark.upto === "number" ? mark.upto : this.msg.moves;
    const out = [];
    for (let k = Math.max(1, mark.move, upto - REPLAY_MAX_STEPS + 1); k <= upto; k++) out.push(k);
    return out;
  }

  /** Show the others' moves since the last turn on the board, step by step: by itself
   * (``auto``: about a second a step, once) or by the ◀ ▶ controls. */
  startReplay({ auto = true } = {}) {
    const mark = this.sinceMark();
    const steps = this.replaySteps(mark);
    if (!steps.length) return;
    this.stopReplay(false);
    this.liveHighlight = null;
    this.replay = { persp: mark.persp, from: mark.from, to: mark.to, steps, i: -1, auto, view: null,
      highlight: new Set(), lines: [], timer: null, loading: 0 };
    root.dataset.replay = "playing";
    this.showStep(0);
  }

  async showStep(i) {
    const r = this.replay;
    if (!r) return;
    clearTimeout(r.timer);
    i = Math.max(0, Math.min(r.steps.length - 1, i));
    const k = r.steps[i];
    const load = ++r.loading;
    let before, after;
    try {
      [before, after] = await Promise.all([this.viewAt(r.persp, k - 1), this.viewAt(r.persp, k)]);
    } catch (err) {
      if (this.replay !== r) return;
      this.error = err.message;
      this.stopReplay();
      this.renderStatus();
      return;
    }
    if (this.replay !== r || load !== r.loading) return;
    r.i = i;
    r.view = after;
    const parts = this.module && typeof this.module.changedParts === "function" ? this.module.changedParts(before, after) : [];
    r.highlight = new Set(parts);
    const log = after.log || [];
    const start = Math.max((before.log || []).length, r.from || 0);
    r.lines = log.slice(start, r.to === undefined ? log.length : Math.max(start, r.to));
    r.mover = before.to_move;
    this.renderReplayBar();
    this.renderBoard();
    this.els.board.dataset.replayStep = String(i + 1);
    if (r.auto) {
      r.timer = setTimeout(() => {
        if (this.replay !== r) return;
        if (r.i + 1 < r.steps.length) this.showStep(r.i + 1); else this.stopReplay();
      }, REPLAY_STEP_MS);
      // the next step's views on their way while this one shows
      if (i + 1 < r.steps.length) this.viewAt(r.persp, r.steps[i + 1]).catch(() => {});
    }
  }

  renderReplayBar() {
    const r = this.replay;
    const bar = this.els.replayBar;
    if (!r) { bar.hidden = true; bar.replaceChildren(); return; }
    bar.hidden = false;
    const names = this.names();
    const caption = r.lines.length ? r.lines.map((line) => {
      const actor = this.actorOf(line);
      const id = typeof actor === "number" && actor >= 0 ? this.identity(actor, names) : null;
      return h("span", { class: "replay-line" }, id && id.key ? badge(id.key) : null, " ", this.line(line));
    }) : [typeof r.mover === "number" ? t("A move by {name}", { name: this.who(r.mover, names) }) : t("A move by another player")];
    bar.replaceChildren(
      h("span", { class: "replay-pos", id: "turn-replay-pos" }, t("Move {n} of {total}", { n: r.i + 1, total: r.steps.length })),
      h("button", { type: "button", id: "turn-replay-prev", "aria-label": t("Previous move"), title: t("Previous move"),
        disabled: r.i <= 0, onclick: () => { r.auto = false; this.showStep(r.i - 1); } }, "◀"),
      h("button", { type: "button", id: "turn-replay-next", "aria-label": t("Next move"), title: t("Next move"),
        onclick: () => { r.auto = false; if (r.i + 1 < r.steps.length) this.showStep(r.i + 1); else this.stopReplay(); } }, "▶"),
      h("p", { class: "replay-caption", id: "turn-replay-caption", "aria-live": "polite" }, caption),
      h("button", { type: "button", id: "turn-replay-skip", class: "primary", title: t("Back to the game (Escape)"),
        onclick: () => this.stopReplay() }, `✕ ${t("Back to the game")}`));
  }

  /** End the replay: the live board again (``redraw``: drawn at once). */
  stopReplay(redraw = true) {
    const r = this.replay;
    if (!r) return;
    clearTimeout(r.timer);
    this.replay = null;
    root.dataset.replay = "off";
    delete this.els.board.dataset.replayStep;
    this.renderReplayBar();
    if (redraw && this.msg) { this.renderBoard(); this.renderSince(); }
  }

  /** Reduced motion: no replay by itself; the live board marks what the others changed
   * since this seat's last turn (the view before their first move against the live one). */
  async markSince(seat) {
    const mark = this.sinceMark();
    const steps = this.replaySteps(mark);
    if (!steps.length || !this.acting || this.acting.seat !== seat) return;
    const seq = this.acting.seq;
    try {
      const before = await this.viewAt(seat, steps[0] - 1);
      if (!this.acting || this.acting.seq !== seq || !this.module || typeof this.module.changedParts !== "function") return;
      this.liveHighlight = { seat, seq, keys: new Set(this.module.changedParts(before, this.acting.view)) };
      if (!this.replay) this.renderBoard();
    } catch (_) { /* the list beside the board says it in words */ }
  }

  /** A spectator's "Since you last looked": the mark moves when the page is hidden; when it
   * is shown again the moves made meanwhile play on the board. */
  onVisibility(state) {
    if (this.held.length || !this.msg) return;
    const logLen = (this.msg.view.log || []).length;
    if (state === "hidden") {
      this.watchMark = { from: logLen, move: this.msg.moves + 1 };
    } else if (state === "visible" && this.watchMark && this.msg.moves >= this.watchMark.move) {
      this.watchMark = { ...this.watchMark, to: logLen, upto: this.msg.moves };
      this.renderSince();
      if (reducedMotion()) return;
      if (autoReplay()) this.startReplay({ auto: true });
    }
  }

  renderSeats() {
    const e = this.els.seats;
    if (!this.msg) return;
    const names = this.names();
    this.seatOpen = this.seatOpen || {};
    const chosen = this.summary.seed_chosen
      ? h("p", { class: "muted", id: "seed-chosen" }, t("seed chosen by the table's creator")) : null;
    // (DOM's replaceChildren writes a null as the text "null": only elements go in.)
    e.replaceChildren(...[h("h2", {}, t("Players")), chosen].filter(Boolean), h("ul", { class: "plain seat-list" }, this.summary.seats.map((seat) => {
      const id = this.identity(seat.seat, names);
      const held = this.held.includes(seat.seat);
      const kind = seat.kind === "human" ? (seat.open ? t("open seat") : t("human")) : seatKindLabel(seat.kind);
      const invite = seat.kind === "human" && seat.open
        ? h("div", { class: "invite" }, h("label", { for: `invite-${seat.seat}` }, t("Invite link")),
          h("input", { id: `invite-${seat.seat}`, readonly: true, value: `${location.origin}/#/table/${this.id}/join/${seat.seat}`,
            onfocus: (ev) => ev.target.select() })) : null;
      const away = !seat.open && this.away(seat.seat);
      const here = !seat.open && seat.kind === "human" && this.present !== null && !away;
      const leave = held && !this.msg.finished
        ? h("button", { class: "leave", "data-leave": seat.seat, onclick: () => this.leaveSeat(seat.seat),
          title: t("Free this seat so that it can be taken on another device (with the invite link)") }, t("Give up this seat")) : null;
      // One line per seat; its details (kind, invite link, name form) open on demand,
      // and at once for the seats played here and the open ones.
      const open = seat.seat in this.seatOpen ? this.seatOpen[seat.seat] : held || seat.open;
      const details = h("details", { class: "seat-details", open,
        ontoggle: (ev) => { this.seatOpen[seat.seat] = ev.target.open; } },
      h("summary", { class: "seat-line" },
        id.key ? badge(id.key) : null,
        this.msg.to_move === seat.seat ? h("span", { class: "to-move", title: t("to move") }, "▶ ") : null,
        h("strong", { class: "person" }, this.who(seat.seat, names)),
        held ? [" ", h("span", { class: "muted" }, `(${t("you")})`)] : null,
        away ? [" ", h("span", { class: "away" }, t("away"))] : null,
        seat.played_by ? [" ", h("span", { class: "stand-in", "data-played-by": seat.played_by },
          seat.played_why === "deadline" ? t("stand-in bot") : seatKindLabel(seat.played_by))] : null,
        seat.muted ? [" ", h("span", { class: "muted-chat" }, t("muted"))] : null),
      h("div", { class: "seat-more" },
        h("span", { class: "muted" }, kind), " ", leave, invite, held ? this.nameForm(seat) : null,
        held && !this.msg.finished ? seatNotifyForm(this.id, seat.seat, this.tokens[seat.seat]) : null,
        held && !this.msg.finished ? this.recoveryBox(seat.seat) : null,
        this.host && this.summary.hosted && seat.kind === "human" && !this.msg.finished ? this.hostControls(seat) : null));
      return h("li", { "data-seat": seat.seat, "data-presence": away ? "away" : here ? "here" : null }, details);
    })));
  }

  /** "Move this seat to another device": a one-time link (a new one each time asked). */
  recoveryBox(seat) {
    const link = this.recovery[seat];
    const box = h("div", { class: "recovery", "data-recovery": seat });
    if (!link) {
      const said = h("span", { class: "recovery-said", role: "status" });
      box.append(h("button", { type: "button", class: "recovery-ask", onclick: () => this.askRecovery(seat) },
        t("Move this seat to another device")), " ",
      h("button", { type: "button", class: "recovery-mail", onclick: () => this.mailRecovery(seat, said) },
        t("Send the link to my e-mail")), " ", said);
      return box;
    }
    const input = h("input", { id: `recovery-${seat}`, readonly: true, value: link, onfocus: (ev) => ev.target.select() });
    box.append(h("label", { for: `recovery-${seat}` }, t("Open this link on the other device (once); this device then stops playing the seat")),
      input, " ", h("button", { type: "button", class: "copy", onclick: async (ev) => {
        try { await navigator.clipboard.writeText(link); ev.target.textContent = t("Copied"); } catch (_) { input.select(); }
      } }, t("Copy")));
    return box;
  }

  /** Ask the server to mail the seat's recovery link to its confirmed address. */
  async mailRecovery(seat, said) {
    try {
      await api("POST", `/tables/${this.id}/recovery/mail`, { token: this.tokens[seat] });
      said.textContent = t("Sent: open the link in the e-mail on the other device");
    } catch (err) {
      said.textContent = err.message;
    }
  }

  async askRecovery(seat) {
    try {
      const reply = await api("POST", `/tables/${this.id}/recovery`, { token: this.tokens[seat] });
      this.recovery[seat] = `${location.origin}${reply.link}`;
      this.seatOpen[seat] = true;
      this.renderSeats();
    } catch (err) {
      this.error = err.message;
      this.renderStatus();
    }
  }

  /** The host's controls of a person's seat: re-invite, hand to a bot or take back, mute. */
  hostControls(seat) {
    const n = seat.seat;
    const levels = h("select", { id: `host-level-${n}`, "aria-label": t("Bot level") },
      games.seat_kinds.filter((k) => k !== "human").map((k) => h("option", { value: k, selected: k === "greedy" }, seatKindLabel(k))));
    const act = (path, body) => async () => {
      try {
        const reply = await api("POST", `/tables/${this.id}/seats/${n}/${path}`, { host: this.host, body });
        if (reply && reply.seats) this.summary = reply;
        else this.summary = await api("GET", `/tables/${this.id}`);
        this.error = "";
        this.renderSeats();
        this.renderDecision();
      } catch (err) {
        this.error = err.message;
        this.renderStatus();
      }
    };
    const reinvite = async () => {
      if (!window.confirm(t("Re-invite seat {n}? Its player's device stops playing it, and the seat opens for a new invite link.", { n: n + 1 }))) return;
      await act("reinvite")();
    };
    return h("div", { class: "host-controls", role: "group", "data-host-seat": n, "aria-label": t("Host's controls for seat {n}", { n: n + 1 }) },
      h("button", { type: "button", class: "host-reinvite", onclick: reinvite }, t("Re-invite")),
      seat.played_by
        ? h("button", { type: "button", class: "host-back", onclick: act("back") }, t("Take back for a person"))
        : [levels, h("button", { type: "button", class: "host-bot", onclick: () => act("bot", { level: levels.value })() }, t("Hand to the bot"))],
      h("button", { type: "button", class: "host-mute", onclick: act("mute", { muted: !seat.muted }) },
        seat.muted ? t("Unmute chat") : t("Mute chat")));
  }

  /** The chat panel: shown to the seats, and to spectators where the table allows it;
   * every message is text (textContent), never markup. */
  renderChat() {
    const e = this.els.chat;
    if (!e) return;
    const visible = this.held.length > 0 || this.summary.spectator_chat;
    e.hidden = !visible;
    if (!visible) return;
    if (!this.chatForm) {
      const input = h("input", { type: "text", id: "chat-input", maxlength: 500, autocomplete: "off",
        "aria-label": t("Message to the table") });
      const error = h("span", { class: "error", role: "alert", id: "chat-error" });
      this.chatList = h("ol", { class: "chat-list", id: "chat-list", "aria-live": "polite" });
      this.chatForm = h("form", { class: "chat-form", id: "chat-form", onsubmit: (ev) => { ev.preventDefault(); this.sendChat(input, error); } },
        input, " ", h("button", { type: "submit", id: "chat-send" }, t("Send")), " ", error);
    }
    const names = this.names();
    this.chatList.replaceChildren(...this.chat.slice(-100).map((m) => {
      const who = h("strong", { class: "chat-who" });
      who.textContent = m.name || this.who(m.seat, names);
      const text = h("span", { class: "chat-text" });
      text.textContent = m.text;
      return h("li", { "data-chat": m.id }, who, ": ", text);
    }));
    this.chatList.scrollTop = this.chatList.scrollHeight;
    const mine = this.held.length ? this.summary.seats[this.held[0]] : null;
    const input = this.chatForm.querySelector("input");
    input.disabled = !mine || !!mine.muted;
    input.placeholder = !mine ? t("Only the players write here") : mine.muted ? t("The host muted your chat") : "";
    // Put in place once: moving the form while it is clicked would lose the click.
    if (this.chatList.parentNode !== e || this.chatForm.parentNode !== e) {
      e.replaceChildren(h("h2", { id: "chat-h" }, t("Chat")), this.chatList, this.chatForm);
    }
  }

  async sendChat(input, error) {
    error.textContent = "";
    const text = input.value.trim();
    if (!text || !this.held.length) return;
    try {
      await api("POST", `/tables/${this.id}/chat`, { token: this.tokens[this.held[0]], body: { text } });
      input.value = "";
    } catch (err) {
      error.textContent = err.message;
    }
  }

  /** The form that names a seat held here: kept across renders, so that a live update
   * does not wipe what is being typed. */
  nameForm(seat) {
    this.nameForms = this.nameForms || {};
    let form = this.nameForms[seat.seat];
    if (!form) {
      // Typed but not yet saved: kept through the re-renders that updates cause.
      const input = h("input", { type: "text", id: `name-${seat.seat}`, maxlength: MAX_NAME,
        placeholder: t("Your name (optional)"), oninput: () => { input.dataset.edited = "1"; } });
      const error = h("span", { class: "error", role: "alert" });
      form = h("form", { class: "name-form", "data-name-seat": seat.seat,
        onsubmit: (ev) => { ev.preventDefault(); this.rename(seat.seat, input, error); } },
      h("label", { for: `name-${seat.seat}` }, t("Your name")), " ", input, " ",
      h("button", { type: "submit" }, t("Save name")), " ", error);
      this.nameForms[seat.seat] = form;
    }
    const input = form.querySelector("input");
    if (this.typedNames && seat.seat in this.typedNames) {
      input.value = this.typedNames[seat.seat];
      input.dataset.edited = "1";
      delete this.typedNames[seat.seat];
    }
    if (document.activeElement !== input && !input.dataset.edited) input.value = seat.name || "";
    return form;
  }

  async rename(seat, input, error) {
    error.textContent = "";
    const name = input.value.trim();
    try {
      this.summary = await api("POST", `/tables/${this.id}/name`, { token: this.tokens[seat], body: { name: name || null } });
      saveName(name);
      if (input.value.trim() === name) delete input.dataset.edited;
      this.render();
    } catch (err) {
      error.textContent = err.message;
    }
  }

  renderLog() {
    const log = (this.view && this.view.log) || [];
    const start = Math.max(0, log.length - 300);
    this.els.log.replaceChildren(...log.slice(start).map((line, i) => h("li", { value: start + i + 1 }, this.line(line))));
    this.els.log.scrollTop = this.els.log.scrollHeight;
    const notes = this.msg.notes || [];
    this.els.notes.replaceChildren(...notes.slice(-5).map((n) => h("p", {}, tr(n.text))));
  }

  renderEnd() {
    const e = this.els.end;
    if (!this.msg.finished || !this.msg.outcome) { e.hidden = true; return; }
    e.hidden = false;
    e.className = "card";
    e.replaceChildren(...endScreen(this.game, this.msg.outcome, this.view, {
      t, tr, seats: this.summary.seats.length, held: this.held, people: this.people(),
      who: (seat) => this.who(seat),
      exportRecord: () => this.exportRecord(), replay: (k, container, logEl) => this.showReplay(k, container, logEl),
      moves: this.msg.moves, review: () => api("GET", `/tables/${this.id}/review`),
    }));
    root.dataset.end = "shown";
  }

  async showReplay(k, container, logEl) {
    const token = this.primary === null ? null : this.tokens[this.primary];
    const body = await api("GET", `/tables/${this.id}/replay/${k}`, { token });
    this.renderBoard(container, body.view, []);
    const log = body.view.log || [];
    logEl.replaceChildren(...log.slice(-8).map((line) => h("li", {}, this.line(line))));
    container.dataset.moves = String(k);
  }

  async leaveSeat(seat) {
    if (!window.confirm(t("Give up seat {n}? This device stops playing it; the seat opens for its invite link.", { n: seat + 1 }))) return;
    try {
      await api("POST", `/tables/${this.id}/leave`, { token: this.tokens[seat] });
      forgetSeat(this.id, seat);
      await openTable(this.id);
    } catch (err) {
      this.error = err.message;
      this.renderStatus();
    }
  }

  async exportRecord() {
    // The server's bytes, saved as they are: parsing and writing the record again would
    // round a seed above 2**53 and the file would no longer replay.
    const blob = await apiBytes(`/tables/${this.id}/record`);
    const url = URL.createObjectURL(blob);
    const a = h("a", { href: url, download: `${this.game}-table-${this.id}.json` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  }

  async choose(text) {
    if (!this.acting || this.busy) return;
    if (this.replay) this.stopReplay();
    this.liveHighlight = null;
    const { seat, seq } = this.acting;
    if (!this.acting.legal.some((a) => a.text === text)) return;
    this.busy = true;
    this.error = "";
    this.lastChosen = text;
    root.dataset.busy = "true";
    this.els.choices.querySelectorAll("button").forEach((b) => { b.disabled = true; });
    try {
      await api("POST", `/tables/${this.id}/actions`, { token: this.tokens[seat], body: { action: text, seq } });
      this.armWatchdog(seat);
    } catch (err) {
      this.error = err instanceof ApiError && err.status === 409
        ? t("The table moved on; here is where it stands now.") : err.message;
      await this.refresh(seat);
    }
  }

  async undo(seat) {
    if (this.busy) return;
    this.busy = true;
    try {
      const seq = this.acting ? this.acting.seq : this.msg.seq;
      await api("POST", `/tables/${this.id}/undo`, { token: this.tokens[seat], body: { seq, count: 1 } });
      this.armWatchdog(seat);
    } catch (err) {
      this.error = err.message;
      await this.refresh(seat);
    }
  }

  // If the live update does not come (a lost connection), ask for the view.
  armWatchdog(seat) {
    clearTimeout(this.watchdog);
    const seq = this.msg.seq;
    this.watchdog = setTimeout(() => { if (this.busy && this.msg.seq === seq) this.refresh(seat); }, 4000);
  }

  async refresh(seat) {
    try {
      const me = await api("GET", `/tables/${this.id}/me`, { token: this.tokens[seat] });
      const msg = { ...this.msg, ...me, view: me.view };
      if (seat !== this.primary) { msg.legal = null; }
      await this.onMessage(msg);
    } catch (err) {
      this.error = err.message;
      this.busy = false;
      this.render();
    }
  }

  async askHint() {
    if (!this.acting) return;
    try {
      this.hint = await api("GET", `/tables/${this.id}/analysis?bot=greedy`, { token: this.tokens[this.acting.seat] });
      this.renderDecision();
      this.renderBoard();
    } catch (err) {
      this.error = err.message;
      this.renderStatus();
    }
  }
}

/** A message ``{key, args}`` (a readable line of a view). */
function isMessage(v) {
  return v !== null && typeof v === "object" && typeof v.key === "string"
    && v.args !== null && typeof v.args === "object";
}

/** The view's readable lines (plain strings or messages, rendered in the current
 * language), when the board module cannot draw it. */
function fallbackBoard(view) {
  const out = h("div", { class: "fallback-lines" });
  if (!view) return out;
  for (const [key, value] of Object.entries(view)) {
    if (key === "log" || key === "state" || key === "options") continue;
    const lines = [];
    const isLine = (v) => typeof v === "string" || isMessage(v);
    if (isLine(value)) lines.push(render(value));
    else if (Array.isArray(value) && value.every(isLine)) lines.push(...value.map(render));
    else if (value && typeof value === "object" && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) {
        if (Array.isArray(v) && v.every(isLine)) lines.push(`${k}: ${v.map(render).join("; ")}`);
        else if (typeof v === "string" || typeof v === "number") lines.push(`${k}: ${v}`);
      }
    }
    if (lines.length) out.append(h("h3", {}, tr(key.replace(/_/g, " "))), h("div", {}, lines.map((l) => h("div", {}, l))));
  }
  return out;
}

// -- start -------------------------------------------------------------------------------------

async function main() {
  try {
    await setLanguage(preferredLanguage());
  } catch (_) {
    await setLanguage("en");
  }
  renderHeader();
  window.addEventListener("hashchange", route);
  await route();
}

main().catch((err) => {
  root.replaceChildren(h("p", { class: "error", role: "alert" }, String(err && err.message || err)));
});

/** An element's size in whole pixels, as "WxH". */
function sizeOf(el) {
  const r = el.getBoundingClientRect();
  return `${Math.round(r.width)}x${Math.round(r.height)}`;
}
