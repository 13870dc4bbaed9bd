// Accounts in the browser: signing in by an e-mail link, the account's card and its
// "your turn" list in the lobby, its seats' tokens on a new device, and the browser's
// own notifications when it becomes this device's turn while the tab is in the back.

import { api, rememberSeat, setCsrf, tokensFor } from "./api.js";
import { h } from "./dom.js";
import { currentLanguage, t } from "./i18n.js";

let account = null;  // GET /api/account, or null when signed out

/** The signed-in account (and its CSRF token for api()), or null. */
export async function loadAccount() {
  try {
    account = await api("GET", "/account");
  } catch (_) {
    account = null;
  }
  setCsrf(account && account.csrf);
  return account;
}

/** The page of a sign-in link (#/sign-in/TOKEN): uses the token, then opens the lobby. */
export async function signInPage(root, token) {
  root.replaceChildren(h("p", {}, t("Signing in…")));
  try {
    account = await api("POST", "/account/session", { body: { token } });
    setCsrf(account.csrf);
    location.replace("#/");
  } catch (err) {
    root.replaceChildren(h("h1", {}, t("Cannot sign in")),
      h("p", { class: "error", role: "alert" }, err.message),
      h("p", {}, h("a", { href: "#/" }, t("Lobby"))));
  }
}

/** Take the tokens of the account's seats at this table onto this device. */
export async function accountSeats(tableId, game) {
  if (!account) return;
  const held = tokensFor(tableId);
  for (const seat of account.seats.filter((s) => s.table_id === tableId && !(s.seat in held))) {
    try {
      const { token } = await api("POST", `/account/seats/${tableId}/${seat.seat}/token`);
      rememberSeat(tableId, game, seat.seat, token);
    } catch (_) { /* handed to another token since: not the account's any more */ }
  }
}

/** The lobby's account card: a sign-in form, or the account with its settings. */
export function accountCard(refresh, gameTitle) {
  const status = h("p", { class: "muted", role: "status", id: "account-status" });
  const card = h("section", { class: "card", "aria-labelledby": "account-h", id: "account" },
    h("h2", { id: "account-h" }, t("Account")));
  if (!account) {
    const email = h("input", { type: "email", id: "sign-in-email", autocomplete: "email",
      "aria-label": t("E-mail address"), placeholder: t("E-mail address") });
    const send = async () => {
      status.textContent = "";
      try {
        await api("POST", "/account/sign-in", { body: { email: email.value } });
        status.textContent = t("If the address can sign in, a link is on its way to it.");
      } catch (err) { status.textContent = err.message; }
    };
    const password = h("input", { type: "password", id: "sign-in-password", autocomplete: "current-password",
      "aria-label": t("Password"), placeholder: t("Password") });
    const withPassword = async () => {
      status.textContent = "";
      try {
        account = await api("POST", "/account/session", { body: { email: email.value, password: password.value } });
        setCsrf(account.csrf);
        refresh();
      } catch (err) { status.textContent = err.message; }
    };
    card.append(h("p", { class: "muted" }, t("Sign in to keep your seats on every device and to be told when it is your turn.")),
      h("div", { class: "form-row" }, email,
        h("button", { id: "sign-in", onclick: send }, t("Send me a sign-in link"))),
      h("div", { class: "form-row" }, password,
        h("button", { id: "sign-in-with-password", onclick: withPassword }, t("Sign in with password"))), status);
  } else {
    const mail = h("input", { type: "checkbox", id: "account-mail",
      checked: Boolean(account.notifications.email),
      onchange: async (e) => {
        try {
          account.notifications = await api("PUT", "/account/notifications", {
            body: { email: e.target.checked, webhook: account.notifications.webhook ? account.notifications.webhook.target : null } });
        } catch (err) { status.textContent = err.message; e.target.checked = !e.target.checked; }
      } });
    const signOut = async () => { await api("POST", "/account/sign-out"); await loadAccount(); refresh(); };
    const remove = async () => {
      if (!window.confirm(t("Delete your account? Your seats stay in their games without it."))) return;
      await api("DELETE", "/account");
      await loadAccount();
      refresh();
    };
    card.append(h("p", { id: "signed-in-as" }, t("Signed in as {email}", { email: account.email }), " ",
      h("a", { href: `#/profile/${account.id}`, id: "my-profile" }, t("My profile"))),
      h("label", { for: "account-mail" }, mail, " ", t("E-mail me when it is my turn")),
      h("h3", {}, t("The account's tables")),
      h("ul", { class: "plain", id: "account-tables" }, account.seats.length
        ? account.seats.slice(0, 30).map((seat) => h("li", {},
          h("a", { href: `#/table/${seat.table_id}` }, `${gameTitle(seat.game)} #${seat.table_id}`), " ",
          h("span", { class: "muted" }, t("Seat {n}", { n: seat.seat + 1 }), seat.finished ? ` · ${t("finished")}` : "")))
        : h("li", { class: "muted" }, t("No tables yet."))),
      passwordForm(status),
      h("p", {}, h("button", { id: "sign-out", onclick: signOut }, t("Sign out")), " ",
        h("button", { id: "delete-account", onclick: remove }, t("Delete my account"))), status);
  }
  card.append(browserNotifyButton(),
    h("p", {}, h("a", { href: "#/ratings/red-cathedral", id: "leaderboard-link" }, t("Leaderboard"))));
  return card;
}

/** The signed-in account's password form (optional: a mailed link always works). */
function passwordForm(status) {
  const input = h("input", { type: "password", id: "new-password", autocomplete: "new-password",
    minlength: 10, maxlength: 200, "aria-label": t("Password") });
  return h("form", { class: "form-row", onsubmit: async (ev) => {
    ev.preventDefault();
    try {
      await api("POST", "/account/password", { body: { password: input.value } });
      input.value = "";
      status.textContent = t("Password saved.");
    } catch (err) { status.textContent = err.message; }
  } }, h("label", { for: "new-password" }, t("Password")), " ", input, " ",
  h("button", { type: "submit", id: "set-password" }, t("Set the password")));
}

/** The lobby's "Your turn" card: the account's tables where it is its turn, longest
 * waiting first (on every device it is signed in on); null when signed out. */
export function turnsCard(gameTitle) {
  if (!account) return null;
  const list = h("ul", { class: "plain", id: "your-turn-list" });
  const card = h("section", { class: "card", "aria-labelledby": "your-turn-h", id: "your-turn" },
    h("h2", { id: "your-turn-h" }, t("Your turn")), list);
  api("GET", "/account/turns").then(({ turns }) => {
    if (!turns.length) list.append(h("li", { class: "muted" }, t("No table is waiting for you.")));
    for (const turn of turns) {
      const since = new Date(turn.since).toLocaleString(currentLanguage());
      list.append(h("li", {}, h("a", { href: `#/table/${turn.table_id}` }, `${gameTitle(turn.game)} #${turn.table_id}`),
        " ", h("span", { class: "muted" }, t("waiting since {when}", { when: since }))));
    }
  }).catch((err) => list.append(h("li", { class: "error" }, err.message)));
  return card;
}

/** The new table's "Rated game" switch (signed in only: only accounts are rated). */
export function ratedInput(choice) {
  if (!account) return null;
  return h("div", { class: "form-row" },
    h("label", { for: "rated" }, h("input", { type: "checkbox", id: "rated", checked: Boolean(choice.rated),
      onchange: (e) => { choice.rated = e.target.checked; } }), " ", t("Rated game")),
    h("span", { class: "muted" }, t("Counts for the ratings when every seat is a signed-in player or a bot.")));
}

const fmt = (x) => Number(x).toFixed(1);

/** A game's leaderboard (#/ratings/GAME): accounts and bot levels, best first. */
export async function leaderboardPage(root, game, players, gameNames, gameTitle, botLabel) {
  const tabs = h("p", {}, gameNames.map((g) => [h("a", { href: `#/ratings/${g}/${players}`,
    "aria-current": g === game ? "page" : null }, gameTitle(g)), " "]), " · ",
  [2, 3, 4].map((n) => [h("a", { href: `#/ratings/${game}/${n}`, "aria-current": n === players ? "page" : null },
    t("Players: {n}", { n })), " "]));
  const body = h("tbody", {});
  root.replaceChildren(h("h1", {}, t("Leaderboard: {game}", { game: gameTitle(game) })), tabs,
    h("section", { class: "card" }, h("table", { id: "leaderboard" }, h("thead", {}, h("tr", {},
      h("th", {}, t("Player")), h("th", {}, t("Rating")), h("th", {}, t("Games")))), body)));
  try {
    const board = await api("GET", `/ratings/${game}?players=${players}`);
    for (const e of board.players_rated) {
      const name = e.account !== null
        ? h("a", { href: `#/profile/${e.account}` }, e.name || t("Player {n}", { n: e.account }))
        : botLabel(e.name);
      body.append(h("tr", {}, h("td", {}, name), h("td", {}, fmt(e.rating)),
        h("td", {}, e.anchored ? t("anchored") : String(e.games))));
    }
  } catch (err) {
    root.append(h("p", { class: "error", role: "alert" }, err.message));
  }
}

/** An account's profile (#/profile/ID): ratings, results with rating changes, solo bests. */
export async function profilePage(root, id, gameTitle) {
  root.replaceChildren(h("p", {}, t("Loading…")));
  let p;
  try {
    p = await api("GET", `/accounts/${id}/profile`);
  } catch (err) {
    root.replaceChildren(h("p", { class: "error", role: "alert" }, err.message));
    return;
  }
  const mode = (b) => ({ ivan: t("margin against Ivan"), dummy: t("score against the dummy"),
    parler: t("score against Peter Parler") }[b.mode] || b.mode);
  root.replaceChildren(h("h1", {}, p.name || t("Player {n}", { n: p.id })),
    h("h2", {}, t("Ratings")), h("ul", { class: "plain", id: "profile-ratings" },
      p.ratings.length ? p.ratings.map((r) => h("li", {}, h("a", { href: `#/ratings/${r.game}` }, gameTitle(r.game)), " ",
        t("players: {n}, rating {rating}, games: {games}", { n: r.players, rating: fmt(r.rating), games: r.games })))
        : h("li", { class: "muted" }, t("No rated games yet."))),
    h("h2", {}, t("Personal bests")), h("ul", { class: "plain", id: "profile-bests" },
      p.bests.length ? p.bests.map((b) => h("li", {}, `${gameTitle(b.game)}: `, mode(b), ` ${b.best} `,
        h("a", { href: `#/table/${b.table_id}` }, `#${b.table_id}`)))
        : h("li", { class: "muted" }, t("No solo games yet."))),
    h("h2", {}, t("Results")), h("ul", { class: "plain", id: "profile-results" },
      p.results.map((r) => h("li", {}, h("a", { href: `#/table/${r.table_id}` }, `${gameTitle(r.game)} #${r.table_id}`), " ",
        t("place {rank}, {score} points", { rank: r.rank, score: r.score }),
        r.rated ? ` (${fmt(r.mu_before)} → ${fmt(r.mu_after)})` : ""))));
}

// -- a seat's own turn notifications ------------------------------------------------------

const seatForms = new Map();  // "table:seat" -> its form, kept across the table's renders

/** The form of a held seat's turn notifications (an e-mail address, confirmed by a link
 * first, and a webhook URL), read from the server when it is first opened. */
export function seatNotifyForm(tableId, seat, token) {
  const key = `${tableId}:${seat}`;
  if (seatForms.has(key)) return seatForms.get(key);
  const email = h("input", { type: "email", id: `notify-email-${seat}`, autocomplete: "email" });
  const hook = h("input", { type: "url", id: `notify-webhook-${seat}`, placeholder: "https://" });
  const status = h("span", { class: "muted", role: "status", id: `notify-status-${seat}` });
  const show = (settings) => {
    email.value = settings.email ? settings.email.target : "";
    hook.value = settings.webhook ? settings.webhook.target : "";
    status.textContent = settings.email && !settings.email.confirmed
      ? t("Open the link mailed to {email} to confirm it.", { email: settings.email.target }) : "";
  };
  const save = async (ev) => {
    ev.preventDefault();
    status.textContent = "";
    try {
      show(await api("PUT", `/tables/${tableId}/notify`, { token, body: {
        email: email.value.trim() || null, webhook: hook.value.trim() || null } }));
      if (!status.textContent) status.textContent = t("Saved.");
    } catch (err) { status.textContent = err.message; }
  };
  let loaded = false;
  const form = h("details", { class: "seat-notify", "data-notify-seat": seat,
    ontoggle: async (ev) => {
      if (!ev.target.open || loaded) return;
      loaded = true;
      try { show(await api("GET", `/tables/${tableId}/notify`, { token })); } catch (_) { loaded = false; }
    } },
  h("summary", {}, t("Tell me when it is my turn")),
  h("form", { onsubmit: save },
    h("p", {}, h("label", { for: `notify-email-${seat}` }, t("E-mail address")), " ", email),
    h("p", {}, h("label", { for: `notify-webhook-${seat}` }, t("Webhook (https)")), " ", hook),
    h("p", {}, h("button", { type: "submit" }, t("Save")), " ", status)));
  seatForms.set(key, form);
  return form;
}

// -- the browser's notifications ----------------------------------------------------------

const NOTIFY_KEY = "meeplehall.browserNotify";

function notifying() {
  return "Notification" in window && Notification.permission === "granted" && localStorage.getItem(NOTIFY_KEY) === "1";
}

/** A button that asks the browser's permission (on click, never at load). */
function browserNotifyButton() {
  if (!("Notification" in window)) return null;
  const button = h("button", { id: "browser-notify" });
  const label = () => {
    button.textContent = notifying() ? t("Stop browser notifications") : t("Notify me in this browser");
  };
  button.addEventListener("click", async () => {
    if (notifying()) {
      localStorage.setItem(NOTIFY_KEY, "0");
    } else if (await Notification.requestPermission() === "granted") {
      localStorage.setItem(NOTIFY_KEY, "1");
    }
    label();
  });
  label();
  return h("p", {}, button);
}

/** Tell the player through the browser that it is their turn, when the tab is not seen. */
export function notifyTurn(title) {
  if (!notifying() || document.visibilityState === "visible") return;
  try {
    const note = new Notification(t("Your turn"), { body: title, tag: `turn-${location.hash}` });
    note.onclick = () => { window.focus(); note.close(); };
  } catch (_) { /* a browser that shows notifications from a service worker only */ }
}
