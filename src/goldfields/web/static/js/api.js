// The HTTP API (see server/app.py and server/schemas.py), and where seat tokens are kept.

export class ApiError extends Error {
  constructor(code, message, status, retryAfter = null, details = {}) {
    super(message);
    this.code = code;
    this.status = status;
    this.retryAfter = retryAfter; // seconds, where the server said when to come back
    this.details = details; // the answer's other fields: what a refusal is about (a bad record's reason)
  }
}

// The next page's address, from a Link header (RFC 8288) such as `</api/tables?...>; rel="next"`.
function nextLink(response) {
  const link = response.headers.get("Link") || "";
  const m = link.match(/<([^>]+)>\s*;\s*rel="next"/);
  return m ? m[1] : null;
}

const LINE_TRIES = 4;
const LINE_WAIT_MOST = 15; // seconds: a longer Retry-After is said to the player instead

async function call(method, path, body, withNext = false, key = null, tries = LINE_TRIES) {
  let response;
  const headers = body === undefined ? {} : { "Content-Type": "application/json" };
  if (key) headers.Authorization = `Bearer ${key}`;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch (err) {
    throw new ApiError("network", String(err.message || err), 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    /* an empty or non-JSON body */
  }
  if (!response.ok) {
    // The server's replay line is full (another viewer at the same address, or a busy server): it
    // says when to come back, and the work is safe to ask again. Said as an error only if it stays full.
    const wait = Number(response.headers.get("Retry-After"));
    if (response.status === 503 && data && data.code === "too_many_replays" && tries > 1 && wait <= LINE_WAIT_MOST) {
      await new Promise((done) => setTimeout(done, Math.max(1, wait || 1) * 1000));
      return call(method, path, body, withNext, key, tries - 1);
    }
    // Our handlers answer {code, message}; FastAPI's validation errors answer {detail: [...]}.
    if (data && data.code) {
      const { code, message, ...details } = data;
      throw new ApiError(code, message, response.status, data.retry_after ?? (wait || null), details);
    }
    if (data && Array.isArray(data.detail)) {
      const text = data.detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ");
      throw new ApiError("bad_request", text, response.status);
    }
    throw new ApiError("http", `HTTP ${response.status}`, response.status);
  }
  return withNext ? { tables: data, next: nextLink(response) } : data;
}

export const api = {
  games: () => call("GET", "/api/games"),
  // The lobby, a page at a time: {tables, next}; `next` is the next page's path, or null.
  tables: (filters = {}, next = null) => {
    const query = new URLSearchParams(Object.entries(filters).filter(([, v]) => v));
    return call("GET", next || `/api/tables?${query}`, undefined, true);
  },
  table: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}`),
  create: (body) => withPlayer(body.player_name, (key) => call("POST", "/api/tables", { ...body, player_key: key })),
  summary: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}/summary`),
  replay: (id, seat) => call("GET", `/api/tables/${encodeURIComponent(id)}/replay?seat=${encodeURIComponent(seat)}`),
  // 202 while the server is still judging: {status: "running", judged, total}; then {status: "done", decisions}.
  analysis: (id, seat) => call("GET", `/api/tables/${encodeURIComponent(id)}/analysis?seat=${seat}`),
  replayRecord: (record, seat) => call("POST", "/api/replay", { record, seat }),
  rematch: (id, seat, token) => call("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, { seat, token }),
  claim: (id, seat, name) =>
    withPlayer(name, (key) =>
      call("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/claim`, { name: name || "", player_key: key })),
  player: (id) => call("GET", `/api/players/${encodeURIComponent(id)}`),
  me: (key) => call("GET", "/api/players/me", undefined, false, key),
  rename: (key, name) => call("PATCH", "/api/players/me", { name }, false, key),
  newPlayer: (name) => call("POST", "/api/players", { name }),
  tutorial: (game) => call("GET", `/api/games/${encodeURIComponent(game)}/tutorial`),
  leaderboard: (game, mode) => call("GET", `/api/leaderboard?${new URLSearchParams({ game, mode })}`),
};

// ---------------------------------------------------------------------------
// Seat tokens: kept in localStorage per table and seat, so that a reload resumes.
// The token travels in a link's #fragment, which browsers never send to the server.
// ---------------------------------------------------------------------------
const KEY = "goldfields.seat.";

export function saveToken(table, seat, token) {
  try {
    localStorage.setItem(`${KEY}${table}.${seat}`, token);
  } catch {
    /* private mode: the link itself still works */
  }
}

export function loadToken(table, seat) {
  try {
    return localStorage.getItem(`${KEY}${table}.${seat}`);
  } catch {
    return null;
  }
}

export function forgetToken(table, seat) {
  try {
    localStorage.removeItem(`${KEY}${table}.${seat}`);
  } catch {
    /* nothing to do */
  }
}

/** The seats of `table` this browser holds a token for. */
export function mySeats(table) {
  const seats = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && key.startsWith(`${KEY}${table}.`)) seats.push(Number(key.slice(`${KEY}${table}.`.length)));
    }
  } catch {
    /* none */
  }
  return seats.filter((s) => Number.isInteger(s)).sort((a, b) => a - b);
}

/** A game in play that waits for its players: none of them is at the table, so nothing moves
 * (the server pauses it, and says so; a table another server process holds says nothing). */
export function paused(table) {
  return table.paused === true;
}

/** Where a seat is played: the token goes in the fragment. */
export function seatLink(table, seat, token) {
  const base = `/table.html?t=${encodeURIComponent(table)}`;
  return seat === null || seat === undefined ? base : `${base}&seat=${seat}${token ? `#token=${token}` : ""}`;
}

export function absolute(path) {
  return new URL(path, window.location.origin).href;
}

/** A name as the server takes it: a tab or line break pasted in becomes a space, any other control
 * character goes (the server refuses them: they would reach every other player's screen), and it
 * is cut to the 40 characters a name may have. */
export function cleanName(text) {
  return String(text || "")
    .replace(/[\t\n\r]+/g, " ")
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, "")
    .trim()
    .slice(0, 40);
}

const NAME_KEY = "goldfields.name";
export function playerName() {
  try {
    return localStorage.getItem(NAME_KEY) || "";
  } catch {
    return "";
  }
}
export function setPlayerName(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    /* ignore */
  }
}

// ---------------------------------------------------------------------------
// The player profile: a name and a secret key kept in this browser. Games played with it
// count in the profile's history and ratings; the recovery link carries the key to another
// device. A player who gives no name plays anonymously (and unrated).
// ---------------------------------------------------------------------------
const PLAYER_KEY = "goldfields.player";

/** {id, name, key} or null. */
export function myPlayer() {
  try {
    const data = JSON.parse(localStorage.getItem(PLAYER_KEY) || "null");
    return data && data.id && data.key ? data : null;
  } catch {
    return null;
  }
}

export function savePlayer(player) {
  try {
    localStorage.setItem(PLAYER_KEY, JSON.stringify({ id: player.id, name: player.name, key: player.key }));
  } catch {
    /* private mode: the profile lasts as long as the page */
  }
}

export function forgetPlayer() {
  try {
    localStorage.removeItem(PLAYER_KEY);
  } catch {
    /* nothing kept */
  }
}

/** The key to send with a seat: this browser's profile, created on the first named game. */
async function playerKey(name) {
  const mine = myPlayer();
  if (mine) return mine.key;
  const wanted = cleanName(name || playerName());
  if (!wanted) return null;
  try {
    const made = await call("POST", "/api/players", { name: wanted });
    savePlayer(made);
    return made.key;
  } catch {
    return null; // the game is still played, unrated
  }
}

/** `send(key)` with this browser's profile key. A key the server no longer knows (its database is
 * another, or the profile was deleted) is forgotten and the request sent again with a new profile:
 * a stale key must not stop anyone from playing. */
async function withPlayer(name, send) {
  const key = await playerKey(name);
  try {
    return await send(key);
  } catch (err) {
    if (!(err instanceof ApiError && err.code === "bad_player_key") || !key) throw err;
    setAsideUnknownPlayer();
    return send(await playerKey(name));
  }
}

/** Forget this browser's profile, whose key the server no longer knows (its database is another,
 * or the profile never took a seat and was deleted): the next named game makes a new one. */
export function setAsideUnknownPlayer() {
  try {
    // Kept aside, not lost: the database may come back (a restore), and its recovery link with it.
    localStorage.setItem(`${PLAYER_KEY}.previous`, JSON.stringify(myPlayer()));
  } catch {
    /* private mode */
  }
  forgetPlayer();
}

/** Where a profile is opened on another device: the key travels in the #fragment. */
export function recoveryLink(player) {
  return absolute(`/player.html#key=${encodeURIComponent(player.key)}`);
}
