// Translation: t(msgid, params) for the client's own strings, render(message) for the
// engines' messages (log entries, prompts, action labels), tr(term) for a single word or
// name of a view. See docs/web-client.md.
//
// A message is {"key", "args"}: the key is a catalogue msgid; each {name} in its
// translation is replaced by the argument: a number or string as it is, a nested message
// rendered the same way, a list rendered item by item and joined by ", ". A plural entry
// (an array of forms) picks its form by the argument n through the language's
// Plural-Forms rule. A key the catalogue lacks is shown as itself (the English msgid).

let lang = "en";
let game = null;
let wanted = null;  // the language last asked for, while its catalogue is on its way
let asked = 0;      // calls of setLanguage: only the latest one's reply is applied
let messages = {};
let pluralIndex = (n) => (n === 1 ? 0 : 1);
let languages = { en: "English" };

const PLACEHOLDER = /\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g;
const own = (obj, key) => Object.prototype.hasOwnProperty.call(obj, key);

/** The C expression of a Plural-Forms header as a function of n, read without eval. */
export function pluralRule(expression) {
  const tokens = expression.match(/\d+|n|==|!=|<=|>=|&&|\|\||[-+*/%<>!?:()]/g) || [];
  let pos = 0;
  const peek = () => tokens[pos];
  const binary = [["||"], ["&&"], ["==", "!="], ["<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"]];
  const ops = {
    "||": (a, b) => +(a || b), "&&": (a, b) => +(a && b), "==": (a, b) => +(a === b),
    "!=": (a, b) => +(a !== b), "<": (a, b) => +(a < b), "<=": (a, b) => +(a <= b),
    ">": (a, b) => +(a > b), ">=": (a, b) => +(a >= b), "+": (a, b) => a + b,
    "-": (a, b) => a - b, "*": (a, b) => a * b, "/": (a, b) => (b ? Math.trunc(a / b) : 0),
    "%": (a, b) => (b ? a % b : 0),
  };
  function unary() {
    const tok = tokens[pos++];
    if (tok === "!") { const inner = unary(); return (n) => +!inner(n); }
    if (tok === "(") {
      const inner = ternary();
      if (tokens[pos++] !== ")") throw new Error("plural rule: '(' without ')'");
      return inner;
    }
    if (tok === "n") return (n) => n;
    if (/^\d+$/.test(tok || "")) { const v = Number(tok); return () => v; }
    throw new Error(`plural rule: unexpected ${tok}`);
  }
  function level(i) {
    if (i === binary.length) return unary();
    let left = level(i + 1);
    while (binary[i].includes(peek())) {
      const op = ops[tokens[pos++]];
      const a = left;
      const b = level(i + 1);
      left = (n) => op(a(n), b(n));
    }
    return left;
  }
  function ternary() {
    const cond = level(0);
    if (peek() !== "?") return cond;
    pos++;
    const yes = ternary();
    if (tokens[pos++] !== ":") throw new Error("plural rule: '?' without ':'");
    const no = ternary();
    return (n) => (cond(n) ? yes(n) : no(n));
  }
  const rule = ternary();
  if (pos !== tokens.length) throw new Error(`plural rule: unexpected ${tokens[pos]}`);
  return (n) => Number(rule(n));
}

/** Load the catalogue of ``code``; ``forGame``: the game whose translations win where
 * domains differ (undefined: keep the current one). */
export async function setLanguage(code, forGame) {
  if (forGame !== undefined) game = forGame;
  wanted = code;
  const mine = ++asked;
  try { localStorage.setItem("meeplehall.lang", code); } catch (_) { /* private mode */ }
  const query = game ? `?game=${encodeURIComponent(game)}` : "";
  const reply = await fetch(`/api/i18n/${encodeURIComponent(code)}${query}`);
  if (!reply.ok) throw new Error(`language ${code}: HTTP ${reply.status}`);
  const body = await reply.json();
  // A later call (a table opening while the lobby's choice loads) supersedes this one.
  if (mine !== asked) return lang;
  wanted = null;
  lang = body.lang;
  languages = body.languages;
  messages = body.messages;
  pluralIndex = pluralRule(body.plural || "n != 1");
  document.documentElement.lang = lang;
  try { localStorage.setItem("meeplehall.lang", lang); } catch (_) { /* private mode */ }
  return lang;
}

export function currentLanguage() { return wanted ?? lang; }
export function availableLanguages() { return languages; }

export function preferredLanguage() {
  let stored = null;
  try { stored = localStorage.getItem("meeplehall.lang"); } catch (_) { /* ignore */ }
  if (stored) return stored;
  const nav = (navigator.language || "en").slice(0, 2).toLowerCase();
  return ["en", "de", "pl", "ru", "pt"].includes(nav) ? nav : "en";
}

function fill(text, params, value) {
  if (!params) return text;
  return text.replace(PLACEHOLDER, (whole, name) => (own(params, name) ? value(params[name]) : whole));
}

/** The client's own message ``msgid`` in the current language, with {name} filled in;
 * a plural entry picks its form by ``params.n``. */
export function t(msgid, params) {
  let str = own(messages, msgid) ? messages[msgid] : msgid;
  if (Array.isArray(str)) {
    const n = params && typeof params.n === "number" ? params.n : 1;
    str = str[Math.min(pluralIndex(n), str.length - 1)];
  }
  if (typeof str !== "string") str = msgid;
  return fill(str, params, String);
}

function renderArg(value, opts) {
  if (Array.isArray(value)) return value.map((v) => renderArg(v, opts)).join(", ");
  if (value !== null && typeof value === "object") return render(value, opts);
  return String(value);
}

// The arguments that name a seat in the engines' log lines (a colour term, or the Red
// Cathedral's "{who} (seat {n})").
const SEAT_ARGS = new Set(["who", "seat", "player"]);

// Messages whose argument is a seat or side number counted from 0 by the engines: the
// page counts seats from 1, as the lobby does.
const SEAT_NUMBERS = { "{who} (seat {n})": "n", "side {n}: {pp} PP": "n" };

/** A message ``{key, args}`` (a log entry, a prompt, an action label) in the current
 * language; a plain string is looked up as a key without arguments.
 *
 * ``opts.who(seatOrColour)``: the shell's identity of a seat ("Ada (green)"), given a
 * seat number or a colour; it replaces the seats named in a line (a seat argument, the
 * Red Cathedral's "{who} (seat {n})") where it returns a string. */
export function render(message, opts) {
  if (message === null || message === undefined) return "";
  if (typeof message !== "object") return tr(message);
  const key = String(message.key);
  let args = message.args || {};
  if (opts && opts.who) {
    if (key === "{who} (seat {n})" && typeof args.n === "number") {
      const who = opts.who(args.n);
      if (who) return who;
    }
    const named = {};
    for (const [name, value] of Object.entries(args)) {
      if (!SEAT_ARGS.has(name) || !value || typeof value !== "object" || Array.isArray(value)) continue;
      const who = value.key === "{who} (seat {n})" && value.args && typeof value.args.n === "number"
        ? opts.who(value.args.n) : value.args && Object.keys(value.args).length === 0 ? opts.who(String(value.key)) : null;
      if (who) named[name] = who;
    }
    if (Object.keys(named).length) args = { ...args, ...named };
  }
  const seatArg = SEAT_NUMBERS[key];
  if (seatArg && typeof args[seatArg] === "number") args = { ...args, [seatArg]: args[seatArg] + 1 };
  let text = own(messages, key) ? messages[key] : key;
  if (Array.isArray(text)) {
    const n = typeof args.n === "number" ? args.n : 1;
    text = text[Math.min(pluralIndex(n), text.length - 1)];
  }
  return fill(text, args, (v) => renderArg(v, opts));
}

/** A term of a view (a colour, a resource, a component's name): its translation, found
 * by exact lookup, else the term itself. */
export function tr(text) {
  if (text === null || text === undefined) return "";
  if (typeof text === "object") return render(text);
  text = String(text);
  const str = own(messages, text) ? messages[text] : text;
  return Array.isArray(str) ? str[0] : str;
}
