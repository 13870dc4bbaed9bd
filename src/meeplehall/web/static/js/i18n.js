// Translation: t(msgid, params) for the client's own strings, tr(englishText) for the
// engines' log lines, prompts and action labels (by pattern). See docs/web-client.md.
//
// A msgid with {name} placeholders is a pattern: it becomes an anchored regex whose
// placeholders match (.+?); the captured values are translated again (exact lookup,
// then patterns; a captured list "a, b, c" item by item) before they are put into the
// msgstr. Untranslated text stays English.

let lang = "en";
let game = null;
let messages = {};
let patterns = [];
let cache = new Map();
let languages = { en: "English" };

const PLACEHOLDER = /\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g;

function escapeRegex(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function compile(msgs) {
  const out = [];
  for (const [id, str] of Object.entries(msgs)) {
    const names = [...id.matchAll(PLACEHOLDER)].map((m) => m[1]);
    if (!names.length) continue;
    let source = "";
    let last = 0;
    for (const m of id.matchAll(PLACEHOLDER)) {
      source += escapeRegex(id.slice(last, m.index)) + "(.+?)";
      last = m.index + m[0].length;
    }
    source += escapeRegex(id.slice(last));
    const literal = id.replace(PLACEHOLDER, "").length;
    out.push({ re: new RegExp("^" + source + "$", "s"), names, str, literal });
  }
  // The most specific pattern (most literal text) wins.
  out.sort((a, b) => b.literal - a.literal);
  return out;
}

/** Load the catalogue of ``code``; ``forGame``: the game whose translations win where
 * domains differ (undefined: keep the current one). */
export async function setLanguage(code, forGame) {
  if (forGame !== undefined) game = forGame;
  const query = game ? `?game=${encodeURIComponent(game)}` : "";
  const reply = await fetch(`/api/i18n/${encodeURIComponent(code)}${query}`);
  if (!reply.ok) throw new Error(`language ${code}: HTTP ${reply.status}`);
  const body = await reply.json();
  lang = body.lang;
  languages = body.languages;
  messages = body.messages;
  patterns = compile(messages);
  cache = new Map();
  document.documentElement.lang = lang;
  try { localStorage.setItem("meeplehall.lang", lang); } catch (_) { /* private mode */ }
  return lang;
}

export function currentLanguage() { return lang; }
export function availableLanguages() { return languages; }

export function preferredLanguage() {
  let stored = null;
  try { stored = localStorage.getItem("meeplehall.lang"); } catch (_) { /* ignore */ }
  if (stored) return stored;
  const nav = (navigator.language || "en").slice(0, 2).toLowerCase();
  return ["en", "de", "pl", "ru", "pt"].includes(nav) ? nav : "en";
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(PLACEHOLDER, (whole, name) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole);
}

/** The client's own message ``msgid`` in the current language, with {name} filled in. */
export function t(msgid, params) {
  const str = Object.prototype.hasOwnProperty.call(messages, msgid) ? messages[msgid] : msgid;
  return fill(str, params);
}

function translate(text, depth) {
  if (Object.prototype.hasOwnProperty.call(messages, text)) return messages[text];
  if (depth > 6 || !text) return text;
  for (const p of patterns) {
    const m = p.re.exec(text);
    if (!m) continue;
    const params = {};
    p.names.forEach((name, i) => { params[name] = translateValue(m[i + 1], depth + 1); });
    return fill(p.str, params);
  }
  return text;
}

function translateValue(value, depth) {
  if (Object.prototype.hasOwnProperty.call(messages, value) || !value.includes(", ")) {
    return translate(value, depth);
  }
  return value.split(", ").map((item) => translate(item, depth)).join(", ");
}

/** An engine's English text (log line, prompt, action label) in the current language. */
export function tr(text) {
  if (text === null || text === undefined) return "";
  text = String(text);
  if (lang === "en" && !patterns.length) return text;
  let out = cache.get(text);
  if (out === undefined) {
    out = translate(text, 0);
    cache.set(text, out);
  }
  return out;
}
