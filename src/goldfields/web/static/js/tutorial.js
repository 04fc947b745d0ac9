// tutorial.html: a guided first game of Digging. A scripted hand (digging/tutorial.py),
// drawn by the table's own view: the bots' moves play out, and at each of the player's
// steps a prompt says what to do and only that move lights up.

import { api, playerName } from "./api.js";
import { fill, h, toast } from "./dom.js";
import { applyI18n, errorText, initLanguagePicker, onLanguage, t } from "./i18n.js";
import { installIcons } from "./icons.js";
import { narrate } from "./narrate.js";

installIcons();

const els = {
  name: document.getElementById("table-name"),
  game: document.getElementById("game"),
  side: document.getElementById("side"),
  coach: document.getElementById("coach"),
  log: document.getElementById("log"),
};
const BOT_PAUSE = 900; // ms between the bots' moves, so that each can be followed

const state = { data: null, frame: 0, view: null, waiting: null, note: null, after: null, timer: null };

function seatName(seat) {
  if (seat === state.data.player) return playerName() || t("tut.you");
  return state.data.names[seat] || t("table.seatN", { n: seat });
}

function table() {
  return {
    id: null,
    game: "digging",
    name: t("tut.title"),
    status: "playing",
    config: { partnership: true, players: 4 },
    seats: [0, 1, 2, 3].map((s) => ({ seat: s, kind: s === state.data.player ? "human" : "bot", name: seatName(s), open: false, connected: true })),
  };
}

/** Draw frame k; the player's next step, if it is theirs, is the only legal move. */
function show(k, full) {
  state.frame = k;
  const frame = state.data.frames[k];
  const next = state.data.steps[k];
  const mine = next && next.seat === state.data.player;
  state.waiting = mine ? next : null;
  state.view.update({
    type: "update",
    full,
    table: table(),
    seat: state.data.player,
    seq: k,
    view: { ...frame.view, legal: mine ? [next.move] : [] },
    events: frame.events,
    log: frame.log,
    clock: {},
  });
  document.body.dataset.frame = String(k);
  document.body.dataset.waiting = mine ? next.move : "";
  renderLog();
  renderCoach();
}

function renderLog() {
  const items = [];
  for (let i = state.frame; i >= 0; i--) {
    const f = state.data.frames[i];
    for (let j = f.events.length - 1; j >= 0; j--) {
      const line = narrate("digging", f.events[j], seatName);
      if (line) items.push(h(`li.log-${f.events[j].kind}`, line));
    }
  }
  fill(els.log, items);
}

function renderCoach() {
  const steps = state.data.steps;
  const done = state.frame >= steps.length;
  const parts = [];
  if (state.frame === 0 && !state.started) {
    parts.push(h("p", t("tut.welcome")), h("button.btn.primary#tut-start", { type: "button", onclick: begin }, t("tut.start")));
  } else if (done) {
    parts.push(h("p", t(`tut.${state.after || "done"}`)),
      h("div.actions", h("a.btn.primary#tut-real", { href: "/" }, t("tut.playReal")),
        h("button.btn", { type: "button", onclick: restart }, t("tut.again"))));
  } else {
    if (state.after) parts.push(h("p.tut-after", t(`tut.${state.after}`)));
    if (state.note) parts.push(h("p.tut-note", t(`tut.${state.note}`)));
    if (state.waiting) parts.push(h("p.tut-prompt", h("strong", t(`tut.${state.waiting.text}`))));
    else parts.push(h("p.muted", t("tut.watching")));
  }
  const n = steps.filter((s) => s.seat === state.data.player).length;
  const at = steps.slice(0, state.frame).filter((s) => s.seat === state.data.player).length;
  parts.push(h("p.muted.small.tut-progress", t("tut.progress", { n: Math.min(at + (state.waiting ? 1 : 0), n), total: n })));
  fill(els.coach, parts);
  document.body.dataset.coach = state.waiting ? state.waiting.text : done ? "done" : "";
}

function begin() {
  state.started = true;
  advance();
}

/** Play the bots' steps one after the other, up to the player's next step. */
function advance() {
  clearTimeout(state.timer);
  const step = state.data.steps[state.frame];
  if (!step) {
    renderCoach();
    return;
  }
  if (step.seat === state.data.player) {
    renderCoach();
    return;
  }
  state.timer = setTimeout(() => {
    state.note = step.text;
    state.after = null;
    show(state.frame + 1, false);
    advance();
  }, BOT_PAUSE);
}

/** The view's move: the step asked for goes on; anything else is explained. */
function send(move) {
  const step = state.waiting;
  if (!step) return false;
  if (move !== step.move) {
    toast(t("tut.tryAgain"), "error");
    return false;
  }
  state.note = null;
  state.after = step.after;
  show(state.frame + 1, false);
  advance();
  return true;
}

async function restart() {
  clearTimeout(state.timer);
  state.started = true;
  state.note = null;
  state.after = null;
  show(0, true);
  advance();
}

async function start() {
  initLanguagePicker(document.getElementById("lang"));
  applyI18n(document);
  try {
    state.data = await api.tutorial("digging");
  } catch (err) {
    fill(els.coach, h("p", errorText(err)));
    return;
  }
  fill(els.name, t("tut.title"));
  document.title = `${t("tut.title")} · goldfields`;
  const module = await import("./digging.js");
  state.view = module.mount(els.game, { seat: state.data.player, send, name: seatName, side: els.side, tableId: null, gameOver: () => {} });
  document.body.dataset.game = "digging";
  show(0, true);
  onLanguage(() => {
    applyI18n(document);
    fill(els.name, t("tut.title"));
    document.title = `${t("tut.title")} · goldfields`;
    state.view.relabel();
    renderLog();
    renderCoach();
  });
}

start();
