// Accounts in the browser: signing in by an e-mail link, the account's card and its
// "your turn" list in the lobby, its seats' tokens on a new device, and the browser's
// own notifications when it becomes this device's turn while the tab is in the back.

import { api, rememberSeat, setCsrf, tokensFor } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

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
export function accountCard(refresh) {
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
    card.append(h("p", { class: "muted" }, t("Sign in to keep your seats on every device and to be told when it is your turn.")),
      h("div", { class: "form-row" }, email,
        h("button", { id: "sign-in", onclick: send }, t("Send me a sign-in link"))), status);
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
    card.append(h("p", { id: "signed-in-as" }, t("Signed in as {email}", { email: account.email })),
      h("label", { for: "account-mail" }, mail, " ", t("E-mail me when it is my turn")),
      h("p", {}, h("button", { id: "sign-out", onclick: signOut }, t("Sign out")), " ",
        h("button", { id: "delete-account", onclick: remove }, t("Delete my account"))), status);
  }
  card.append(browserNotifyButton());
  return card;
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
      const since = new Date(turn.since);
      list.append(h("li", {}, h("a", { href: `#/table/${turn.table_id}` }, `${gameTitle(turn.game)} #${turn.table_id}`),
        " ", h("span", { class: "muted" }, t("waiting since {when}", { when: since.toLocaleString() }))));
    }
  }).catch((err) => list.append(h("li", { class: "error" }, err.message)));
  return card;
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
