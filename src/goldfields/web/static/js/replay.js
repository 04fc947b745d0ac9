// replay.html: a finished (or abandoned) game, step by step. From the server (?t=table) or from a record file
// the player opens. Each step is drawn by the same view the table plays with, read-only.
// The address keeps the table, the eyes and the step, so each position has its own link.

import { api } from "./api.js";
import { fill, h, icon, reducedMotion, toast } from "./dom.js";
import { applyI18n, errorText, initLanguagePicker, onLanguage, t, tableName } from "./i18n.js";
import { installIcons } from "./icons.js";
import { moveText, narrate } from "./narrate.js";
import { summaryView } from "./summary.js";

installIcons();

const params = new URLSearchParams(window.location.search);
const els = {
  name: document.getElementById("table-name"),
  game: document.getElementById("game"),
  side: document.getElementById("side"),
  notice: document.getElementById("notice"),
  controls: document.getElementById("controls"),
  slider: document.getElementById("slider"),
  step: document.getElementById("step"),
  eyes: document.getElementById("eyes"),
  file: document.getElementById("record-file"),
  log: document.getElementById("log"),
  summary: document.getElementById("summary"),
  play: document.getElementById("play"),
  marks: document.getElementById("marks"),
  anPanel: document.getElementById("analysis-panel"),
  anSeat: document.getElementById("an-seat"),
  anRun: document.getElementById("an-run"),
  anFile: document.getElementById("an-file"),
  anProgress: document.getElementById("an-progress"),
  anStatus: document.getElementById("an-status"),
  anList: document.getElementById("an-list"),
};

const STALLED_POLLS = 300; // one a second
// A move is marked when the analysis says it cost at least this much chance of winning,
// and marked as a blunder from BAD on.
const COSTLY = 0.05;
const BAD = 0.15;

const state = {
  tableId: params.get("t"),
  record: null, // a record opened from a file
  table: null, // the table's summary (names, seats)
  eyes: params.get("seat") || "all",
  data: null, // {frames, summary}
  step: 0,
  view: null,
  gameName: null,
  timer: null,
  loaded: false,
  games: {}, // name -> /api/games entry
  analysis: null, // {seat, decisions} from the server or a file
  analysing: false,
};

function seatName(seat) {
  const seats = state.table ? state.table.seats : [];
  const info = seats[seat];
  return (info && info.name) || t("table.seatN", { n: seat });
}

async function load() {
  stopPlaying();
  try {
    if (state.record) state.data = await api.replayRecord(state.record, state.eyes === "public" ? null : eyesValue());
    else state.data = await api.replay(state.tableId, state.eyes);
  } catch (err) {
    fill(els.notice, h("div.notice.error", errorText(err)));
    return;
  }
  fill(els.notice);
  const frames = state.data.frames;
  els.controls.hidden = false;
  els.side.hidden = false; // the summary and the log: empty panels until there is a game to show
  els.slider.max = String(frames.length - 1);
  if (!state.loaded) {
    // The link's step, or the final position (where every hand is known).
    const wanted = Number(params.get("step"));
    state.step = params.has("step") && Number.isInteger(wanted) ? wanted : frames.length - 1;
    state.loaded = true;
  }
  renderEyes();
  renderSummary();
  renderAnalysisPanel();
  await show(state.step);
}

function eyesValue() {
  return state.eyes === "all" ? "all" : Number(state.eyes);
}

async function mountFor(game) {
  if (state.gameName === game && state.view) return;
  if (state.view) state.view.destroy();
  const module = game === "digger" ? await import("./digger.js") : await import("./digging.js");
  const seat = /^\d+$/.test(state.eyes) ? Number(state.eyes) : null;
  state.view = module.mount(els.game, {
    seat,
    send: () => false,
    name: seatName,
    side: els.side,
    tableId: state.tableId,
    gameOver: () => {},
    replay: true,
  });
  state.gameName = game;
  document.body.dataset.game = game;
}

async function show(step) {
  const frames = state.data.frames;
  state.step = Math.max(0, Math.min(step, frames.length - 1));
  const frame = frames[state.step];
  const game = state.data.summary.game;
  await mountFor(game);
  const last = state.step === frames.length - 1;
  const table = {
    ...(state.table || {}),
    game,
    // A game closed before its end (abandoned) ends on its closing status, not "finished".
    status: !last ? "playing" : state.data.summary.finished ? "finished" : (state.table && state.table.status) || "playing",
    seats: state.table ? state.table.seats : [],
  };
  // Read-only: no legal moves, and every update a full one (no dialogs, no animations).
  state.view.update({
    type: "update",
    full: true,
    table,
    seat: null,
    seq: state.step,
    view: { ...frame.view, legal: [] },
    events: frame.events,
    log: frame.log,
    clock: {},
  });
  els.slider.value = String(state.step);
  const judged = judgedAt(state.step);
  fill(
    els.step,
    t("replay.step", { n: state.step + 1, total: frames.length }),
    frame.move ? [" · ", h("span.move", { title: frame.move }, moveText(recordGame(), frame.move, seatName))] : null,
    judged && judged.drop >= COSTLY
      ? [" · ", h(`span.costly${judged.drop >= BAD ? ".bad" : ""}`, t("an.cost", { pct: pct(judged.drop), best: moveText(recordGame(), judged.best, seatName) }))]
      : null,
  );
  for (const li of els.anList.children) li.classList.toggle("current", Number(li.dataset.step) === state.step);
  renderLog();
  document.body.dataset.step = String(state.step);
  const url = new URL(window.location.href);
  if (state.tableId) url.searchParams.set("t", state.tableId);
  url.searchParams.set("seat", state.eyes);
  url.searchParams.set("step", String(state.step));
  history.replaceState(null, "", url);
}

function renderLog() {
  const frames = state.data.frames;
  const items = [];
  for (let i = state.step; i >= 0 && items.length < 150; i--) {
    const f = frames[i];
    for (let j = f.events.length - 1; j >= 0; j--) {
      let line = narrate(state.data.summary.game, f.events[j], seatName);
      if (line === "") continue;
      if (line === null) line = f.log[j];
      items.push(h(`li.log-${f.events[j].kind}`, { class: { current: i === state.step } }, line));
    }
  }
  fill(els.log, items);
}

function renderEyes() {
  const n = state.data.summary.players;
  const options = [h("option", { value: "all", selected: state.eyes === "all" }, t("replay.allHands"))];
  for (let s = 0; s < n; s++) options.push(h("option", { value: String(s), selected: state.eyes === String(s) }, seatName(s)));
  options.push(h("option", { value: "public", selected: state.eyes === "public" }, t("replay.spectator")));
  fill(els.eyes, options);
}

function pct(x) {
  return String(Math.round(100 * x));
}

function judgedAt(step) {
  if (!state.analysis) return null;
  return state.analysis.decisions.find((d) => d.step === step) || null;
}

function renderAnalysisPanel() {
  const game = state.data ? state.data.summary.game : null;
  const info = game ? state.games[game] : null;
  // A game with an analyst offers it: a server table can ask, a record from a file can take an
  // analysis file (goldfields analyze --json). Without the list of games, a file is given the benefit.
  const offered = info ? Boolean(info.analysis) : Boolean(state.record);
  els.anPanel.hidden = !offered;
  if (!offered) return;
  const n = state.data.summary.players;
  const chosen = state.analysis ? String(state.analysis.seat) : /^\d+$/.test(state.eyes) ? state.eyes : els.anSeat.value || "0";
  const options = [];
  for (let s = 0; s < n; s++) options.push(h("option", { value: String(s), selected: chosen === String(s) }, seatName(s)));
  fill(els.anSeat, options);
  els.anRun.hidden = !state.tableId || !(info && info.analysis);
  els.anRun.disabled = state.analysing;
  renderAnalysis();
}

/** The game of the record shown, for its moves in words. */
function recordGame() {
  return state.data ? state.data.summary.game : null;
}

function renderAnalysis() {
  const frames = state.data ? state.data.frames : [];
  const a = state.analysis;
  if (!a) {
    fill(els.marks);
    fill(els.anList);
    if (!state.analysing) fill(els.anStatus);
    return;
  }
  const costly = a.decisions.filter((d) => d.drop >= COSTLY);
  const agree = a.decisions.filter((d) => d.played === d.best).length;
  fill(els.anStatus, t("an.summary", { name: seatName(a.seat), agree, total: a.decisions.length, costly: costly.length, pct: pct(COSTLY) }));
  const last = Math.max(1, frames.length - 1);
  fill(
    els.marks,
    costly.map((d) => h(`span.mark${d.drop >= BAD ? ".bad" : ""}`, { style: { left: `${(100 * d.step) / last}%` } })),
  );
  const items = [...costly].sort((x, y) => y.drop - x.drop).map((d) =>
    h(
      `li${d.drop >= BAD ? ".bad" : ""}`,
      { dataset: { step: String(d.step) }, class: { current: d.step === state.step } },
      h(
        "button",
        { type: "button", onclick: () => showCostly(d.step) },
        h("span.an-step", t("replay.step", { n: d.step + 1, total: frames.length })),
        h("span.move", { title: d.played }, moveText(recordGame(), d.played, seatName)),
        h("span.an-best", t("an.best", { best: moveText(recordGame(), d.best, seatName) })),
        h("span.drop", `−${pct(d.drop)}%`),
      ),
    ),
  );
  fill(els.anList, items);
}

/** A costly move from the list: the board at that move, brought into sight (on a desktop the
 * list can be far down the side column, below the board's top). */
async function showCostly(step) {
  await show(step);
  const top = els.controls.getBoundingClientRect().top;
  const sticky = document.querySelector(".topbar");
  const below = sticky && getComputedStyle(sticky).position === "sticky" ? sticky.getBoundingClientRect().bottom : 0;
  if (top < below || top > window.innerHeight * 0.5) {
    els.controls.style.scrollMarginTop = `${below + 8}px`;
    els.controls.scrollIntoView({ block: "start", behavior: reducedMotion() ? "auto" : "smooth" });
  }
}

function setAnalysis(analysis) {
  state.analysis = analysis;
  document.body.dataset.analysis = analysis ? "done" : "";
  renderAnalysisPanel();
  if (state.data) show(state.step);
}

async function runAnalysis() {
  if (!state.tableId || state.analysing) return;
  const seat = Number(els.anSeat.value || 0);
  state.analysing = true;
  els.anRun.disabled = true;
  els.anProgress.hidden = false;
  els.anProgress.removeAttribute("value"); // indeterminate until the total is known
  fill(els.anStatus, t("an.starting"));
  // Waiting behind other analyses is fine; five minutes without one more decision judged is not.
  let judged = -1;
  let still = 0;
  try {
    for (;;) {
      const body = await api.analysis(state.tableId, seat);
      if (body.status === "done") {
        setAnalysis({ seat: body.seat, decisions: body.decisions });
        break;
      }
      if (body.status === "failed") throw new Error(body.message);
      if (body.total) {
        els.anProgress.max = body.total;
        els.anProgress.value = body.judged;
        fill(els.anStatus, t("an.progress", { n: body.judged, total: body.total }));
      }
      if (body.judged > judged) {
        judged = body.judged;
        still = 0;
      } else if (++still >= STALLED_POLLS) {
        throw new Error(t("an.stalled"));
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  } catch (err) {
    fill(els.anStatus, h("span.error", errorText(err)));
  } finally {
    state.analysing = false;
    els.anRun.disabled = false;
    els.anProgress.hidden = true;
  }
}

async function openAnalysisFile(file) {
  let data;
  try {
    data = JSON.parse(await file.text());
  } catch {
    data = null;
  }
  const ok =
    data && Number.isInteger(data.seat) && Array.isArray(data.decisions) && data.decisions.every((d) => Number.isInteger(d.step));
  if (!ok) {
    toast(t("an.notAnalysis"), "error", 8000);
    return;
  }
  const last = state.data ? state.data.frames.length - 1 : 0;
  const fits = data.seat >= 0 && data.seat < (state.data ? state.data.summary.players : 0) && data.decisions.every((d) => d.step >= 1 && d.step <= last);
  if (!fits) {
    toast(t("an.otherGame"), "error", 8000);
    return;
  }
  setAnalysis({ seat: data.seat, decisions: data.decisions });
}

function renderSummary() {
  fill(els.summary, summaryView(state.data.summary, seatName));
}

function renderHeader() {
  const game = state.data ? state.data.summary.game : null;
  const title = state.table ? tableName(state.table) : state.record ? t("replay.fromFile") : "";
  const heading = t("replay.title", { name: title });
  fill(els.name, h("span.table-title", { title: heading }, heading), game ? [" ", h("span.game-tag", t(`game.${game}`))] : null);
  document.title = title ? `${heading} · goldfields` : "goldfields";
}

function stopPlaying() {
  clearInterval(state.timer);
  state.timer = null;
  fill(els.play, icon("play"), " ", t("replay.playShort"));
  els.play.setAttribute("aria-pressed", "false");
}

function togglePlay() {
  if (state.timer) return stopPlaying();
  if (!state.data) return;
  if (state.step >= state.data.frames.length - 1) show(0);
  els.play.textContent = t("replay.pause");
  els.play.setAttribute("aria-pressed", "true");
  state.timer = setInterval(() => {
    if (state.step >= state.data.frames.length - 1) stopPlaying();
    else show(state.step + 1);
  }, 700);
}

function onKey(event) {
  if (!state.data || event.ctrlKey || event.metaKey || event.altKey) return;
  const tag = event.target && event.target.tagName;
  if (tag === "INPUT" && event.target.type !== "range") return;
  if (tag === "SELECT") return;
  const moves = { ArrowRight: 1, ArrowLeft: -1, PageDown: 10, PageUp: -10 };
  if (event.key in moves) show(state.step + moves[event.key]);
  else if (event.key === "Home") show(0);
  else if (event.key === "End") show(state.data.frames.length - 1);
  else if (event.key === " ") togglePlay();
  else return;
  event.preventDefault();
}

async function openFile(file) {
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch {
    record = null;
  }
  if (!record || typeof record !== "object" || Array.isArray(record)) {
    // Not JSON, or JSON that is no record (a list, a number): the server would only say "bad request".
    toast(t("replay.notJson"), "error", 8000);
    return;
  }
  state.record = record;
  state.tableId = null;
  state.analysis = null;
  state.table = {
    name: file.name,
    seats: Array.from({ length: Number(record.players) || 0 }, (_, i) => ({ seat: i, kind: "human", name: "" })),
  };
  state.view && state.view.destroy();
  state.view = null;
  state.gameName = null;
  state.loaded = false;
  history.replaceState(null, "", window.location.pathname);
  await load();
  renderHeader();
}

async function start() {
  initLanguagePicker(document.getElementById("lang"));
  applyI18n(document);
  onLanguage(() => {
    applyI18n(document);
    if (state.data) {
      renderHeader();
      renderEyes();
      renderSummary();
      renderAnalysisPanel();
      show(state.step);
    }
  });
  stopPlaying();
  document.getElementById("first").addEventListener("click", () => show(0));
  document.getElementById("prev").addEventListener("click", () => show(state.step - 1));
  document.getElementById("next").addEventListener("click", () => show(state.step + 1));
  document.getElementById("last").addEventListener("click", () => show(state.data.frames.length - 1));
  els.play.addEventListener("click", togglePlay);
  els.slider.addEventListener("input", () => show(Number(els.slider.value)));
  els.eyes.addEventListener("change", async () => {
    state.eyes = els.eyes.value;
    if (state.view) state.view.destroy();
    state.view = null;
    state.gameName = null;
    const keep = state.step;
    await load();
    await show(keep);
  });
  // Each input forgets its file once read, so that the same file chosen again (mended, say) is read again.
  const chosen = (input, open) => input.addEventListener("change", () => {
    const file = input.files[0];
    input.value = "";
    if (file) open(file);
  });
  chosen(els.file, openFile);
  els.anRun.addEventListener("click", runAnalysis);
  chosen(els.anFile, openAnalysisFile);
  try {
    for (const g of await api.games()) state.games[g.name] = g;
  } catch {
    /* the lobby's list only decides whether to offer the analysis button */
  }
  if (state.data) renderAnalysisPanel(); // a file opened while the list was on its way
  document.addEventListener("keydown", onKey);
  if (!state.tableId) {
    fill(els.notice, h("div.notice", t("replay.chooseFile")));
    return;
  }
  try {
    state.table = await api.table(state.tableId);
  } catch (err) {
    fill(els.notice, h("div.notice.error", errorText(err), " ", h("a", { href: "/" }, t("table.backLobby"))));
    return;
  }
  await load();
  renderHeader();
}

start();
