// table.html: one table, as a player (seat + token) or a spectator.
// The seat's token arrives in the link's #fragment, is kept in localStorage and removed from
// the address bar, so a reload resumes the seat and a copied address never gives it away.

import {
  absolute, api, cleanName, forgetToken, loadToken, mySeats, paused, playerName, saveToken, seatLink, setPlayerName,
} from "./api.js";
import { copyText, fill, h, icon, modal, modalOpen, toast } from "./dom.js";
import { summaryView } from "./summary.js";
import { applyI18n, errorText, initLanguagePicker, onLanguage, rulesHtml, seatLabel, t, tableName } from "./i18n.js";
import { installIcons } from "./icons.js";
import { narrate } from "./narrate.js";
import { TableSocket } from "./socket.js";

installIcons();

const params = new URLSearchParams(window.location.search);
const tableId = params.get("t");
// What the server's table ids are made of (secrets.token_urlsafe): anything else is no table.
const TABLE_ID = /^[A-Za-z0-9_-]{1,32}$/;
const els = {
  name: document.getElementById("table-name"),
  game: document.getElementById("game"),
  side: document.getElementById("side"),
  notice: document.getElementById("notice"),
  log: document.getElementById("log"),
  conn: document.getElementById("conn"),
  clock: document.getElementById("move-clock"),
  notify: document.getElementById("notify-btn"),
  chat: document.getElementById("chat"),
  chatList: document.getElementById("chat-list"),
  chatForm: document.getElementById("chat-form"),
  chatInput: document.getElementById("chat-input"),
  chatPhrases: document.getElementById("chat-phrases"),
  chatMutes: document.getElementById("chat-mutes"),
};

const state = {
  seat: null,
  token: null,
  socket: null,
  msg: null,
  view: null,
  gameName: null,
  log: [], // {game, ev, en}
  deadline: null,
  myTurn: false,
  chat: [],
  chatPending: null, // the text of a chat message sent and not yet seen back
  noToken: null, // a seat in the address this browser holds no key for: said once the table is known
  result: null, // {msg, title} of the game-over dialog, to open it again once it is closed
};

function readSeat() {
  let seat = params.has("seat") ? Number(params.get("seat")) : null;
  if (seat !== null && !Number.isInteger(seat)) seat = null;
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const fromLink = fragment.get("token");
  if (seat !== null && fromLink) {
    saveToken(tableId, seat, fromLink);
    // Keep the token out of the address bar (and out of anything copied from it).
    history.replaceState(null, "", `${window.location.pathname}${window.location.search}`);
  }
  const token = seat !== null ? loadToken(tableId, seat) : null;
  if (seat !== null && !token) {
    state.noToken = seat; // told with the first update: a table that does not exist says only that
    seat = null;
  }
  state.seat = seat;
  state.token = token;
}

/** A seat's name for people: its player's name, or "Seat n"; twins get their number. */
function seatName(seat) {
  const seats = state.msg ? state.msg.table.seats : [];
  const info = seats[seat];
  if (!info) return t("table.seatN", { n: seat });
  const base = info.name || t("table.seatN", { n: seat });
  const twins = seats.filter((s) => (s.name || "") === info.name && info.name).length > 1;
  return twins ? `${base} #${seat}` : base;
}

function connect() {
  if (state.socket) state.socket.close();
  state.socket = new TableSocket(
    tableId,
    { seat: state.seat, token: state.token },
    { onMessage, onStatus },
  );
  state.socket.connect();
}

function onStatus(status, detail) {
  const text = {
    idle: "",
    connecting: t("conn.connecting"),
    reconnecting: t("conn.connecting"),
    online: t("conn.online"),
    offline: t("conn.offline", { n: Math.max(1, Math.round((detail || 0) / 1000)) }),
    gone: t("conn.gone"),
  }[status];
  els.conn.dataset.status = status;
  els.conn.textContent = text;
  if (status === "gone") showGone();
}

function notFound() {
  fill(els.notice, h("div.notice.error", t("table.notFound"), " ", h("a", { href: "/" }, t("table.backLobby"))));
}

/**
 * The socket says the table is not live. A finished table the server no longer keeps live
 * (--keep-finished) still has its result, replay and record, and so does a game closed before
 * its end (abandoned, or stopped at the length cap): show those, which is what someone
 * following an old link to it wants; anything else does not exist.
 */
async function showGone() {
  let table;
  let summary;
  try {
    table = await api.table(tableId);
    if (!["finished", "abandoned", "stopped"].includes(table.status)) return notFound();
    summary = await api.summary(tableId);
  } catch {
    return notFound();
  }
  const name = (seat) => summary.names?.[seat] || table.seats[seat]?.name || t("table.seatN", { n: seat });
  showName(table);
  document.title = `${tableName(table)} · goldfields`;
  els.conn.dataset.status = "finished";
  els.conn.textContent = t("conn.finished");
  const winners = (summary.winners || []).map(name).join(` ${t("common.and")} `);
  const key = `${table.game === "digger" ? "dg" : "dig"}.gameOver${(summary.winners || []).length === 1 ? "One" : ""}`;
  const id = encodeURIComponent(tableId);
  const seat = state.seat !== null ? `&seat=${state.seat}` : "";
  fill(
    els.notice,
    h(
      "section.notice.archived",
      h("h2", table.status !== "finished" ? t(`table.${table.status}`)
        : winners ? t(key, { winners, names: winners }) : t("table.archived")),
      winners && table.status === "finished" ? h("p.muted", t("table.archived")) : null,
      summaryView(summary, name),
      h(
        "div.actions",
        h("a.btn.primary", { href: `/replay.html?t=${id}${seat}` }, t("replay.watch")),
        h("a.btn", { href: `/api/tables/${id}/record`, download: `goldfields-${tableId}.json` }, t("table.record")),
        h("a.btn.ghost", { href: "/" }, t("table.backLobby")),
      ),
    ),
  );
}

async function onMessage(msg) {
  if (msg.type === "update") {
    await onUpdate(msg);
    if (msg.full) {
      state.chat = msg.chat || [];
      renderChat();
    }
  } else if (msg.type === "chat") {
    if (msg.seat === state.seat && state.chatPending !== null && msg.text === state.chatPending) state.chatPending = null;
    state.chat.push(msg);
    if (state.chat.length > 100) state.chat.splice(0, state.chat.length - 100);
    renderChat();
  } else if (msg.type === "error") {
    if (state.view) state.view.setPending(false);
    if (msg.code === "auth") {
      forgetToken(tableId, state.seat);
      toast(errorText(msg), "error", 8000);
      state.seat = null;
      state.token = null;
      connect();
      return;
    }
    if (["stale", "moving", "moved"].includes(msg.code)) {
      // We missed a step, or the table moved to another server process: a new connection
      // brings a full update.
      state.socket.resync();
      return;
    }
    if (msg.code === "no_such_table") return; // the socket reports "gone"
    if (state.chatPending !== null && ["rate_limited", "too_long", "bad_message"].includes(msg.code)) {
      // The chat message just sent was refused (too many, too long): its text comes back to
      // the input to be sent again, unless something new was typed meanwhile.
      if (!els.chatInput.value) els.chatInput.value = state.chatPending;
      state.chatPending = null;
    }
    toast(errorText(msg), "error", 4000, msg.code || null);  // a repeated refusal: one toast, its text renewed
  }
}

async function onUpdate(msg) {
  state.msg = msg;
  if (state.noToken !== null) {
    toast(t("table.noToken", { n: state.noToken }), "error", 8000);
    state.noToken = null;
  }
  if (typeof msg.clock?.move_deadline_in === "number") {
    state.deadline = performance.now() + msg.clock.move_deadline_in * 1000;
  } else state.deadline = null;
  const game = msg.table.game;
  if (state.gameName !== game) {
    if (state.view) state.view.destroy();
    let module;
    try {
      module = game === "digger" ? await import("./digger.js") : await import("./digging.js");
    } catch (err) {
      toast(errorText({ code: "network", message: String(err) }), "error");
      return;
    }
    state.view = module.mount(els.game, { seat: state.seat, send, name: seatName, side: els.side, tableId, gameOver });
    state.gameName = game;
    document.body.dataset.game = game;
  }
  if (msg.full) state.log = [];
  msg.events.forEach((ev, i) => state.log.push({ game, ev, en: msg.log[i] }));
  if (state.log.length > 400) state.log.splice(0, state.log.length - 400);
  renderHeader();
  renderNotice();
  renderNotifyButton(); // (the seat may have changed: a spectator who took one)
  state.view.update(msg);
  renderLog();
  // For tests and tools: the step this page shows, and the seat it plays.
  document.body.dataset.seq = String(msg.seq);
  document.body.dataset.seat = state.seat === null ? "" : String(state.seat);
  document.body.dataset.status = msg.table.status;
  // A mark in the tab's title when it is this seat's turn, for a player looking at another tab.
  const myTurn = state.seat !== null && msg.view.to_move === state.seat && msg.table.status === "playing";
  document.title = `${myTurn ? "● " : ""}${tableName(msg.table)} · goldfields`;
  if (myTurn && !state.myTurn) notifyTurn(msg);
  state.myTurn = myTurn;
}

// ---------------------------------------------------------------------------
// Table chat: players write, everyone at the table reads; shown as text only; each
// reader may mute a player (kept in this browser, per table).
// ---------------------------------------------------------------------------
const PHRASES = ["hi", "gl", "gg", "wp", "thanks", "sorry", "oops", "wait", "bye"];

function mutedSeats() {
  try {
    return new Set(JSON.parse(localStorage.getItem(`goldfields.mute.${tableId}`) || "[]"));
  } catch {
    return new Set();
  }
}

function setMuted(seat, on) {
  const muted = mutedSeats();
  if (on) muted.add(seat);
  else muted.delete(seat);
  try {
    localStorage.setItem(`goldfields.mute.${tableId}`, JSON.stringify([...muted]));
  } catch {
    /* for this page only */
  }
  renderChat();
}

function renderChat() {
  if (!state.msg) return;
  els.chat.hidden = false;
  const muted = mutedSeats();
  const shown = state.chat.filter((m) => !muted.has(m.seat));
  const player = state.seat !== null;
  const lines = shown.slice(-60).map((m) => h(
    "li", { class: { own: m.seat === state.seat } },
    h("strong", `${seatName(m.seat)}: `),
    // Text only: a message is never read as markup.
    m.phrase ? h("em", t(`chat.${m.phrase}`)) : m.text,
  ));
  // A spectator has no form: an empty panel under its heading would read as broken.
  fill(els.chatList, lines.length || player ? lines : h("li.muted.chat-empty", t("chat.playersOnly")));
  els.chatList.scrollTop = els.chatList.scrollHeight;
  els.chatForm.hidden = !player;
  els.chatPhrases.hidden = !player;
  fill(els.chatPhrases, player ? PHRASES.map((p) => h("button.btn.small.phrase", { type: "button", "data-phrase": p,
    onclick: () => sendChat({ phrase: p }) }, t(`chat.${p}`))) : null);
  const others = state.msg.table.seats.filter((s) => s.kind === "human" && s.seat !== state.seat && !s.open);
  fill(els.chatMutes, others.length ? [h("span.muted", `${t("chat.mute")} `), others.map((s) => h("label.check",
    h("input", { type: "checkbox", "data-seat": s.seat, checked: muted.has(s.seat), onchange: (e) => setMuted(s.seat, e.target.checked) }),
    " ", seatName(s.seat)))] : null);
}

function sendChat(body) {
  const ok = state.socket && state.socket.send({ type: "chat", ...body });
  if (!ok) toast(t("conn.notSent"), "error");
  return ok;
}

// ---------------------------------------------------------------------------
// Turn notification: opt-in, only while the page is hidden (another tab, another app)
// ---------------------------------------------------------------------------
const NOTIFY_KEY = "goldfields.notify";

function notifyOn() {
  try {
    return localStorage.getItem(NOTIFY_KEY) === "1";
  } catch {
    return false;
  }
}

function renderNotifyButton() {
  // A spectator never gets a turn to be told of.
  els.notify.hidden = state.seat === null;
  const on = notifyOn();
  els.notify.setAttribute("aria-pressed", on ? "true" : "false");
  els.notify.title = on ? t("notify.on") : t("notify.off");
  fill(els.notify, icon(on ? "bell" : "bellOff"), " ", h("span.notify-text", on ? t("notify.short") : t("notify.shortOff")));
}

async function toggleNotify() {
  const on = !notifyOn();
  try {
    localStorage.setItem(NOTIFY_KEY, on ? "1" : "0");
  } catch {
    /* private mode: on for this page only */
  }
  if (on && "Notification" in window && Notification.permission === "default") {
    try {
      await Notification.requestPermission();
    } catch {
      /* refused or unsupported: the sound still plays */
    }
  }
  renderNotifyButton();
  toast(on ? t("notify.enabled") : t("notify.disabled"));
}

function notifyTurn(msg) {
  if (!notifyOn() || !document.hidden) return;
  beep();
  if ("Notification" in window && Notification.permission === "granted") {
    try {
      const note = new Notification(t("notify.title"), { body: t("notify.body", { table: tableName(msg.table) }), tag: `goldfields-${tableId}` });
      note.onclick = () => {
        window.focus();
        note.close();
      };
    } catch {
      /* some browsers allow notifications from a service worker only */
    }
  }
  document.body.dataset.notified = String(Number(document.body.dataset.notified || 0) + 1);
}

let audio = null;
function beep() {
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.0001, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.2, audio.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.4);
  } catch {
    /* no audio here */
  }
}

// ---------------------------------------------------------------------------
// Game over: the summary, the replay, the record, and play again
// ---------------------------------------------------------------------------
async function gameOver(msg, title) {
  state.result = { msg, title };
  renderNotice(); // the notice keeps the dialog's ways on once it is closed
  let body;
  try {
    body = summaryView(await api.summary(tableId), seatName);
  } catch {
    body = h("p", t("sum.unavailable"));
  }
  const id = encodeURIComponent(tableId);
  const buttons = [];
  if (canRematch()) buttons.push({ label: t("rematch.playAgain"), primary: true, onClick: () => rematch() });
  buttons.push(
    { label: t("replay.watch"), href: `/replay.html?t=${id}${state.seat !== null ? `&seat=${state.seat}` : ""}` },
    { label: t("table.record"), href: `/api/tables/${id}/record`, download: `goldfields-${tableId}.json` },
    { label: t("table.backLobby"), href: "/" },
    { label: t("common.close"), primary: !canRematch() },
  );
  modal(title, [body], buttons, { cls: "game-over" });
}

function canRematch() {
  const table = state.msg && state.msg.table;
  return !!(table && table.status === "finished" && state.seat !== null && state.token && table.seats[state.seat]?.kind === "human");
}

async function rematch() {
  // This browser already sits at the rematch (asked from here before, then came back): go there;
  // asking again would claim a seat it already holds.
  const next = state.msg.table.rematch && state.msg.table.rematch.table;
  if (next && loadToken(next, state.seat)) {
    window.location.assign(seatLink(next, state.seat));
    return;
  }
  try {
    const got = await api.rematch(tableId, state.seat, state.token);
    window.location.assign(got.link);
  } catch (err) {
    toast(errorText(err), "error");
  }
}

function send(move) {
  const ok = state.socket && state.socket.send({ type: "move", move, seq: state.msg ? state.msg.seq : undefined });
  if (!ok) toast(t("conn.notSent"), "error");
  return ok;
}

function renderHeader() {
  showName(state.msg.table);
}

/** The table's name in the top bar, cut to fit with its title holding it whole; gives the game's label. */
function showName(table) {
  const gameLabel = t(`game.${table.game}`);
  const title = tableName(table);
  fill(els.name, h("span.table-title", { title }, title), " ", h("span.game-tag", gameLabel));
  return gameLabel;
}

function renderLog() {
  const items = [];
  for (let i = state.log.length - 1; i >= 0; i--) {
    const { game, ev, en } = state.log[i];
    let line = narrate(game, ev, seatName);
    if (line === "") continue;
    if (line === null) line = en;
    items.push(h(`li.log-${ev.kind}`, line));
    if (items.length >= 150) break;
  }
  fill(els.log, items);
}

function renderNotice() {
  const table = state.msg.table;
  const parts = [];
  if (table.status === "waiting") {
    const seats = table.seats.map((s) => {
      let what;
      if (s.kind === "bot") what = h("span", icon("bot"), " ", s.name || t("common.bot"));
      else if (!s.open) what = h("span", icon("user"), " ", seatName(s.seat), s.seat === state.seat ? ` (${t("common.you")})` : "");
      else if (s.reserved) what = h("span.muted.kept", t("table.keptSeat"));
      else if (state.seat === null) {
        what = h(
          "button.btn.primary.claim",
          { type: "button", "data-seat": s.seat, onclick: () => claim(s.seat) },
          t("table.takeSeat", { n: s.seat }),
        );
      } else what = h("span.muted", t("table.openSeat"));
      return h("li", h("strong", `${t("table.seatN", { n: s.seat })}${s.label && !/^seat \d+$/.test(s.label) ? ` · ${seatLabel(s.label)}` : ""}: `), what);
    });
    const open = table.seats.filter((s) => s.open).length;
    parts.push(
      h(
        "div.notice.waiting",
        h("h2", t("table.waitingFor", { n: open })),
        h("ul.seat-list", seats),
        shareBox(),
      ),
    );
  } else if (["expired", "abandoned", "stopped"].includes(table.status)) {
    // An abandoned or stopped game was played for a while: its replay and record are kept (an
    // expired table never began, so it has neither).
    const id = encodeURIComponent(tableId);
    const seat = state.seat !== null ? `&seat=${state.seat}` : "";
    const kept = table.status !== "expired"
      ? [" ", h("a.btn", { href: `/replay.html?t=${id}${seat}` }, t("replay.watch")), " ",
         h("a.btn", { href: `/api/tables/${id}/record`, download: `goldfields-${tableId}.json` }, t("table.record"))]
      : null;
    parts.push(h("div.notice.warn", { role: "status" }, t(`table.${table.status}`), " ",
      h("a.btn.primary", { href: "/" }, t("table.backLobby")), kept));
  } else if (table.status === "finished" && table.rematch) {
    // Someone asked to play again: everyone at the table is offered the rematch.
    const by = table.rematch.by;
    parts.push(h(
      "div.notice.rematch",
      by === state.seat ? t("rematch.youAsked") : t("rematch.offered", { name: seatName(by) }),
      " ",
      canRematch()
        ? h("button.btn.primary#rematch-btn", { type: "button", onclick: rematch }, t("rematch.join"))
        : h("a.btn", { href: `/table.html?t=${encodeURIComponent(table.rematch.table)}` }, t("rematch.watch")),
    ));
  } else if (table.status === "finished") {
    // The game-over dialog's ways on stay here once it is closed: the result again, play again,
    // the replay, the record and the lobby (else a closed dialog left a player at a dead end).
    const id = encodeURIComponent(tableId);
    const seat = state.seat !== null ? `&seat=${state.seat}` : "";
    const result = state.result;
    parts.push(h(
      "div.notice.finished",
      { role: "status" },
      result ? [h("strong", result.title), " ",
        h("button.btn#result-btn", { type: "button", onclick: () => gameOver(result.msg, result.title) }, t("sum.title")), " "]
        : null,
      canRematch() ? [h("button.btn.primary", { type: "button", onclick: () => rematch() }, t("rematch.playAgain")), " "] : null,
      h("a.btn", { href: `/replay.html?t=${id}${seat}` }, t("replay.watch")), " ",
      h("a.btn", { href: `/api/tables/${id}/record`, download: `goldfields-${tableId}.json` }, t("table.record")), " ",
      h("a.btn.ghost", { href: "/" }, t("table.backLobby")),
    ));
  } else if (state.seat === null) {
    const mine = mySeats(tableId);
    parts.push(
      h(
        "div.notice",
        t("table.watching"),
        paused(table) ? [" ", h("strong.paused", t("table.pausedWatch"))] : null,
        mine.length
          ? [" ", h("a.btn", { href: seatLink(tableId, mine[0]) }, t("table.playSeat", { n: mine[0] }))]
          : null,
      ),
    );
  } else if (table.seats[state.seat] && table.seats[state.seat].standin_reason === "timeout" && table.status === "playing") {
    // The move clock ran out: the bot makes this one move and gives the seat straight back.
    parts.push(h("div.notice.warn", t("table.botTimeout")));
  } else if (table.seats[state.seat] && table.seats[state.seat].standin && table.status === "playing") {
    parts.push(
      h(
        "div.notice.warn",
        t("table.botStandsIn"),
        " ",
        h("button.btn.primary", { type: "button", onclick: () => state.socket.send({ type: "resume" }) }, t("table.resume")),
      ),
    );
  }
  fill(els.notice, parts);
}

function shareBox() {
  const url = absolute(seatLink(tableId, null));
  const field = h("input.share-url", { type: "text", readonly: true, value: url, "aria-label": t("share.watchLink") });
  return h(
    "div.share",
    h("p", icon("link"), " ", t("share.invite")),
    h(
      "div.share-row",
      field,
      h("button.btn", { type: "button", onclick: async () => toast((await copyText(url, field)) ? t("share.copied") : t("share.copyFailed")) },
        t("share.copy")),
    ),
  );
}

async function claim(seat) {
  let name = playerName();
  if (!name) {
    name = await askName(seat);
    if (name === null) return; // cancelled: the seat stays free
    if (name) setPlayerName(name);
  }
  try {
    const got = await api.claim(tableId, seat, name);
    saveToken(tableId, seat, got.token);
    history.replaceState(null, "", seatLink(tableId, seat));
    state.seat = seat;
    state.token = got.token;
    state.gameName = null; // remount as a player
    connect();
  } catch (err) {
    toast(errorText(err), "error");
  }
}

/** The player's name, asked in a dialog of the page (not the browser's bare prompt): the
 * name given, "" to sit down without one, or null when the dialog is cancelled. */
function askName(seat) {
  return new Promise((resolve) => {
    let answer = null;
    const input = h("input#ask-name", { type: "text", maxlength: 40, autocomplete: "nickname" });
    const close = modal(
      t("lobby.yourName"),
      [h("label", { for: "ask-name" }, t("lobby.yourName")), input],
      [
        { label: t("common.cancel") },
        { label: t("table.takeSeat", { n: seat }), primary: true, onClick: () => { answer = cleanName(input.value); } },
      ],
      { cls: "ask-name", onClose: () => resolve(answer) },
    );
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        answer = cleanName(input.value);
        close();
      }
    });
    input.focus();
  });
}

function openShare() {
  const watch = absolute(seatLink(tableId, null));
  const watchField = h("input.share-url", { type: "text", readonly: true, value: watch, "aria-label": t("share.watchLink") });
  const body = [
    h("p", t("share.watchHelp")),
    h("div.share-row", watchField, h("button.btn", { type: "button", onclick: async () => toast((await copyText(watch, watchField)) ? t("share.copied") : t("share.copyFailed")) }, t("share.copy"))),
  ];
  if (state.seat !== null && state.token) {
    const mine = absolute(seatLink(tableId, state.seat, state.token));
    const mineField = h("input.share-url", { type: "text", readonly: true, value: mine, "aria-label": t("share.seatLink") });
    body.push(
      h("h3", t("share.seatLink")),
      h("p.warn-text", t("share.seatHelp")),
      h("div.share-row", mineField, h("button.btn", { type: "button", onclick: async () => toast((await copyText(mine, mineField)) ? t("share.copied") : t("share.copyFailed")) }, t("share.copy"))),
    );
  }
  modal(t("share.title"), body, [{ label: t("common.close"), primary: true }]);
}

function openRules() {
  const game = state.gameName || "digging";
  const box = h("div.rules-text");
  box.innerHTML = rulesHtml(game); // static text shipped with the page
  modal(t("rules.title", { game: t(`game.${game}`) }), [box, shortcutsList(game)], [{ label: t("common.close"), primary: true }], { cls: "rules" });
}

function shortcutsList(game) {
  const keys = game === "digger"
    ? [["R", t("keys.roll")], ["S", t("keys.stop")]]
    : [["D", t("keys.draw")], ["P", t("keys.pass")], ["Esc", t("keys.cancel")]];
  return h("div", h("h3", t("keys.title")), h("dl.keys", keys.map(([k, what]) => [h("dt", h("kbd", k)), h("dd", what)])));
}

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || modalOpen()) return;
  const tag = event.target && event.target.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  if (event.key === "?") {
    openRules();
    event.preventDefault();
    return;
  }
  if (state.view && state.view.key(event)) event.preventDefault();
}

function tickClock() {
  if (state.deadline === null || !state.msg || state.msg.table.status !== "playing") {
    els.clock.hidden = true;
    return;
  }
  const left = Math.max(0, (state.deadline - performance.now()) / 1000);
  els.clock.hidden = false;
  els.clock.textContent = t("table.moveClock", { n: Math.ceil(left) });
  els.clock.classList.toggle("urgent", left < 10);
}

function start() {
  initLanguagePicker(document.getElementById("lang"));
  applyI18n(document);
  onLanguage(() => {
    applyI18n(document);
    if (state.msg) {
      renderHeader();
      renderNotice();
      renderNotifyButton();
      renderChat();
      if (state.view) state.view.relabel();
      renderLog();
    }
    onStatus(state.socket ? state.socket.status : "idle", 0);
  });
  document.getElementById("rules-btn").addEventListener("click", openRules);
  document.getElementById("share-btn").addEventListener("click", openShare);
  els.notify.addEventListener("click", toggleNotify);
  els.chatForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = els.chatInput.value.trim();
    if (text && sendChat({ text })) {
      state.chatPending = text;
      els.chatInput.value = "";
    }
  });
  renderNotifyButton();
  document.addEventListener("keydown", onKey);
  setInterval(tickClock, 500);
  if (!tableId) {
    fill(els.notice, h("div.notice.error", t("table.noTable"), " ", h("a", { href: "/" }, t("table.backLobby"))));
    return;
  }
  if (!TABLE_ID.test(tableId)) {
    // Not a table id at all ("a/b" from an address cut or pasted wrong): said at once, not
    // retried for ever as if the server were away.
    els.conn.dataset.status = "gone";
    els.conn.textContent = t("conn.gone");
    notFound();
    return;
  }
  readSeat();
  connect();
}

start();
