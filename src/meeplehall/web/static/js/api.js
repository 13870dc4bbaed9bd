// HTTP and WebSocket access to the meeplehall server, seat tokens and JSON patches.

export class ApiError extends Error {
  constructor(status, detail, body) {
    super(detail);
    this.status = status;
    this.body = body;
  }
}

// The signed-in session's CSRF token (GET /api/account): sent with every request, so
// that the server accepts the writes its session cookie authenticates.
let csrf = null;
export function setCsrf(value) { csrf = value || null; }

export async function api(method, path, { token = null, body = undefined, host = null } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (csrf) headers["X-CSRF-Token"] = csrf;
  if (host) headers["X-Host-Token"] = host;  // the host's controls
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const reply = await fetch(`/api${path}`, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await reply.json(); } catch (_) { data = null; }
  if (!reply.ok) {
    throw new ApiError(reply.status, (data && data.detail) || `HTTP ${reply.status}`, data);
  }
  return data;
}

// The body of a GET as bytes, never parsed (a record to save as the server wrote it).
export async function apiBytes(path) {
  const reply = await fetch(`/api${path}`);
  if (!reply.ok) {
    let data = null;
    try { data = await reply.json(); } catch (_) { data = null; }
    throw new ApiError(reply.status, (data && data.detail) || `HTTP ${reply.status}`, data);
  }
  return reply.blob();
}

// -- seat tokens: localStorage["meeplehall.tables"] = {id: {game, tokens: {seat: token}}}

const KEY = "meeplehall.tables";

export function myTables() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch (_) { return {}; }
}

function saveTables(tables) { localStorage.setItem(KEY, JSON.stringify(tables)); }

export function rememberSeat(tableId, game, seat, token) {
  const tables = myTables();
  const entry = tables[tableId] || { game, tokens: {}, created: Date.now() };
  entry.tokens[seat] = token;
  tables[tableId] = entry;
  saveTables(tables);
}

/** Keep a table's seat colours (the engine's names of its seats, such as "green"), so
 * that the lobby names the seats one plays by their colours before the table is opened. */
export function rememberColours(tableId, colours) {
  const tables = myTables();
  const entry = tables[tableId];
  if (!entry || JSON.stringify(entry.colours || null) === JSON.stringify(colours)) return;
  entry.colours = colours;
  saveTables(tables);
}

/** Forget one seat's token (the seat was given up); the table goes when no seat is
 * left and this device is not its host. */
export function forgetSeat(tableId, seat) {
  const tables = myTables();
  const entry = tables[tableId];
  if (!entry) return;
  delete entry.tokens[seat];
  if (!Object.keys(entry.tokens).length && !entry.host) delete tables[tableId];
  saveTables(tables);
}

/** Keep the host token of a table this device created (shown by the server once). */
export function rememberHost(tableId, game, token) {
  const tables = myTables();
  const entry = tables[tableId] || { game, tokens: {}, created: Date.now() };
  entry.host = token;
  tables[tableId] = entry;
  saveTables(tables);
}

/** The host token of a table created here, or null. */
export function hostTokenFor(tableId) {
  const entry = myTables()[tableId];
  return (entry && entry.host) || null;
}

export function forgetTable(tableId) {
  const tables = myTables();
  delete tables[tableId];
  saveTables(tables);
}

export function tokensFor(tableId) {
  const entry = myTables()[tableId];
  const out = {};
  if (entry) for (const [seat, token] of Object.entries(entry.tokens)) out[Number(seat)] = token;
  return out;
}

export function tablePref(tableId, name, value) {
  const key = `meeplehall.t${tableId}.${name}`;
  if (value === undefined) {
    try { return JSON.parse(localStorage.getItem(key)); } catch (_) { return null; }
  }
  localStorage.setItem(key, JSON.stringify(value));
  return value;
}

// -- RFC 6902 JSON patch (the operations the server sends: add, remove, replace) ----------

function unescapeToken(token) { return token.replace(/~1/g, "/").replace(/~0/g, "~"); }

export function applyPatch(doc, ops) {
  let root = structuredClone(doc);
  for (const op of ops) {
    const tokens = op.path.split("/").slice(1).map(unescapeToken);
    if (!tokens.length) {
      if (op.op === "remove") root = null; else root = structuredClone(op.value);
      continue;
    }
    let parent = root;
    for (const tok of tokens.slice(0, -1)) parent = parent[Array.isArray(parent) ? Number(tok) : tok];
    const last = tokens[tokens.length - 1];
    if (Array.isArray(parent)) {
      if (op.op === "remove") parent.splice(Number(last), 1);
      else if (op.op === "add" && last === "-") parent.push(structuredClone(op.value));
      else if (op.op === "add") parent.splice(Number(last), 0, structuredClone(op.value));
      else if (op.op === "replace") parent[Number(last)] = structuredClone(op.value);
      else throw new Error(`unsupported patch op ${op.op}`);
    } else {
      if (op.op === "remove") delete parent[last];
      else if (op.op === "add" || op.op === "replace") parent[last] = structuredClone(op.value);
      else throw new Error(`unsupported patch op ${op.op}`);
    }
  }
  return root;
}

// -- live updates ------------------------------------------------------------------------

/** The log entries before entry ``before`` of a table's view (the seat's with
 * ``token``), fetched in pages of ``GET /tables/{id}/log`` (a page refused for the rate
 * is asked again after the time the server names, a few times). */
export async function earlierLog(tableId, token, before) {
  const pages = [];
  let tries = 0;
  while (before > 0) {
    let page;
    try {
      page = await api("GET", `/tables/${tableId}/log?before=${before}&limit=200`, { token });
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 429 || ++tries > 5) throw err;
      await new Promise((done) => setTimeout(done, 1000 * tries));
      continue;
    }
    if (page.from >= before) break;
    pages.unshift(page.log);
    before = page.from;
  }
  return pages.flat();
}

/** Follow a table over its WebSocket; ``onMessage(msg)`` gets every sync/update with the
 * full current view in ``msg.view``. Reconnects with the last seq seen. A sync frame
 * carries the end of a long game's log only (``log_base`` entries come before it): the
 * earlier entries are fetched in pages before the message is handed on, and the
 * messages after it wait for them, in order. */
export function follow(tableId, token, onMessage, onStatus) {
  let ws = null;
  let view = null;
  let lastSeq = null;
  let closed = false;
  let retry = 500;
  let queue = Promise.resolve();
  async function wholeLog(msg) {
    if (!(msg.log_base > 0) || !Array.isArray(view.log)) return;
    const state = view.state && Array.isArray(view.state.log)
      && view.state.log.length === view.log.length ? view.state : null;
    try {
      const head = await earlierLog(tableId, token, msg.log_base);
      view.log = head.concat(view.log);
      if (state) state.log = head.concat(state.log);
    } catch (err) {
      console.warn("the start of the log could not be fetched", err);
    }
  }
  async function handle(msg) {
    if (msg.type === "sync") {
      view = msg.view;
      await wholeLog(msg);
    } else if (msg.type === "update") {
      if (view === null) return;
      view = applyPatch(view, msg.patch);
      msg.view = view;
    } else if (msg.type === "seats") {
      if (onStatus) onStatus("seats", msg.present || []);
      return;
    } else if (msg.type === "chat") {
      if (onStatus) onStatus("chat", msg.message);
      return;
    } else if (msg.type === "error") {
      if (onStatus) onStatus("error", msg.detail);
      closed = msg.status === 401 || msg.status === 404;
      return;
    } else {
      return;
    }
    lastSeq = msg.seq;
    onMessage(msg);
  }
  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${scheme}://${location.host}/api/tables/${tableId}/ws`);
    ws.onopen = () => {
      retry = 500;
      // ask to hear of the seats too (taken, given up, named, their players here or away)
      ws.send(JSON.stringify({ token: token || null, since: lastSeq, seats: true }));
      if (onStatus) onStatus("open");
    };
    ws.onmessage = (event) => {
      const msg = JSON.parse(event.data);
      // in order; an error still reaches the page as an uncaught one
      queue = queue.then(() => handle(msg)).catch((err) => { setTimeout(() => { throw err; }); });
    };
    ws.onclose = () => {
      if (onStatus) onStatus("closed");
      if (!closed) { setTimeout(connect, retry); retry = Math.min(retry * 2, 8000); }
    };
  }
  connect();
  return { close() { closed = true; if (ws) ws.close(); } };
}
