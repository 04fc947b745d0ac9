// index.html: play against bots in one click, create a table, join or watch one, share a link.

import {
  absolute, api, cleanName, myPlayer, mySeats, paused, playerName, savePlayer, saveToken, seatLink, setAsideUnknownPlayer,
  setPlayerName,
} from "./api.js";
import { copyText, fill, h, icon, toast } from "./dom.js";
import { applyI18n, botText, errorText, initLanguagePicker, onLanguage, optionText, rulesHtml, t, tableName } from "./i18n.js";
import { installIcons } from "./icons.js";

installIcons();

const BOT_NAMES = ["Dusty", "Nugget", "Flint", "Sierra", "Pepper"];
const els = {
  name: document.getElementById("player-name"),
  quick: document.getElementById("quick-buttons"),
  form: document.getElementById("create-form"),
  list: document.getElementById("table-list"),
  share: document.getElementById("share"),
  rules: document.getElementById("rules-text"),
  rulesTabs: document.getElementById("rules-tabs"),
};

const state = { games: [], tables: [], next: null, pages: 1, form: null, rulesGame: "digging", filters: { status: "live", game: "" }, level: "medium" };

function name() {
  const value = cleanName(els.name.value);
  setPlayerName(value);
  return value;
}

/** A new name is the profile's new name too (games already played keep theirs). */
async function renameProfile() {
  const value = name();
  const mine = myPlayer();
  if (!mine || !value || value === mine.name) return;
  try {
    await api.rename(mine.key, value);
    savePlayer({ ...mine, name: value });
    renderProfileLink();
  } catch (err) {
    if (err.code === "bad_player_key") {
      // A profile that never took a seat is deleted after a while (the server's --unused-profile-expiry):
      // forgotten here too; the next game makes a new one, under the name just typed.
      setAsideUnknownPlayer();
      renderProfileLink();
      return;
    }
    toast(errorText(err), "error");
  }
}

function renderProfileLink() {
  const mine = myPlayer();
  const slot = document.getElementById("profile-link");
  if (!slot) return;
  fill(slot, mine ? h("a.btn.ghost", { href: `/player.html?id=${encodeURIComponent(mine.id)}` }, icon("user"), " ", mine.name) : null);
}

function go(link) {
  // The link carries the seat's token in its #fragment; table.js stores it and hides it.
  window.location.assign(link);
}

// ---------------------------------------------------------------------------
// One click: a table against bots, with me in seat 0
// ---------------------------------------------------------------------------
async function quickPlay(game, button) {
  button.disabled = true;
  if (!state.games.length && gamesReady) {
    // A click before the games list came would seat the fallback bot, not the level chosen.
    try {
      state.games = await gamesReady;
    } catch {
      /* start() tells of it; the fallback bot, then */
    }
  }
  const me = name();
  const players = game === "digging" ? 4 : 3;
  const seats = [{ kind: "human", name: me }];
  const info = state.games.find((g) => g.name === game);
  // A level is sent as such: the server seats the bot measured strongest at this kind of table.
  const bot = info && info.levels && info.levels[state.level] ? { level: state.level } : { bot: "heuristic" };
  for (let i = 1; i < players; i++) seats.push({ kind: "bot", ...bot, name: BOT_NAMES[i - 1] });
  const body = { game, players, seats, claim: 0, player_name: me, name: me ? t("lobby.quickName", { name: me, game: t(`game.${game}`) }) : t("lobby.quickNameAnon", { game: t(`game.${game}`) }) };
  if (game === "digging") body.partnership = true;
  if (game === "digger") body.crates = "white";
  try {
    const created = await api.create(body);
    go(created.you.link);
  } catch (err) {
    toast(errorText(err), "error");
    button.disabled = false;
  }
}

function renderQuick() {
  const buttons = [
    h("button.btn.primary.big#quick-digging", { type: "button", onclick: (e) => quickPlay("digging", e.currentTarget) },
      icon("cards"), " ", t("lobby.quickDigging")),
  ];
  if (state.games.some((g) => g.name === "digger")) {
    buttons.push(
      h("button.btn.big#quick-digger", { type: "button", onclick: (e) => quickPlay("digger", e.currentTarget) },
        icon("dice"), " ", t("lobby.quickDigger")),
    );
  }
  const levels = ["easy", "medium", "hard"];
  const picker = h(
    "div.level-pick", { role: "radiogroup", "aria-label": t("lobby.level") },
    h("span.field-label", t("lobby.level")),
    levels.map((level) => h("label.level",
      { title: t(`level.${level}Help`) },
      h("input", { type: "radio", name: "level", value: level, checked: state.level === level,
        onchange: () => { state.level = level; saveLevel(level); renderQuick(); } }),
      " ", t(`level.${level}`))),
    h("span.field-hint", t(`level.${state.level}Help`)),
  );
  const learn = h("a.learn#learn-digging", { href: "/tutorial.html" }, t("lobby.learn"));
  fill(els.quick, h("div.quick-row", buttons), picker, learn);
}

/** start()'s request for the games list, which a quick game waits for when clicked before it came. */
let gamesReady = null;

const LEVEL_KEY = "goldfields.level";
function savedLevel() {
  try {
    const v = localStorage.getItem(LEVEL_KEY);
    return ["easy", "medium", "hard"].includes(v) ? v : "medium";
  } catch {
    return "medium";
  }
}
function saveLevel(level) {
  try {
    localStorage.setItem(LEVEL_KEY, level);
  } catch {
    /* private mode: for this page only */
  }
}

// ---------------------------------------------------------------------------
// The create-table form
// ---------------------------------------------------------------------------
function defaults(game) {
  const info = state.games.find((g) => g.name === game);
  const players = game === "digging" ? 4 : Math.min(3, info.max_players);
  return {
    game,
    players,
    partnership: game === "digging",
    crates: "white",
    options: {},
    crateValues: {},
    seats: Array.from({ length: info.max_players }, (_, i) => (i === 0 ? { kind: "human" } : levelSeat(info, "medium"))),
    claim: 0,
    tableName: "",
    moveSeconds: "",
  };
}

function renderForm() {
  if (!state.games.length) {
    fill(els.form, h("p.muted", t("lobby.noGames")));
    return;
  }
  const f = state.form;
  const info = state.games.find((g) => g.name === f.game);
  const rerender = () => renderForm();
  const field = (label, control, hint) => h("label.field", h("span.field-label", label), control, hint ? h("span.field-hint", hint) : null);

  const gameSelect = h(
    "select#f-game",
    { onchange: (e) => { state.form = defaults(e.target.value); rerender(); } },
    state.games.map((g) => h("option", { value: g.name, selected: g.name === f.game }, t(`game.${g.name}`))),
  );
  const playerSelect = h(
    "select#f-players",
    {
      onchange: (e) => {
        f.players = Number(e.target.value);
        if (f.players !== 4) f.partnership = false;
        if (f.claim >= f.players) f.claim = 0;
        rerender();
      },
    },
    Array.from({ length: info.max_players - info.min_players + 1 }, (_, k) => info.min_players + k).map((n) =>
      h("option", { value: n, selected: n === f.players }, String(n))),
  );
  const rows = [field(t("lobby.game"), gameSelect), field(t("lobby.players"), playerSelect)];
  if (f.game === "digging") {
    rows.push(
      h("label.check", h("input#f-partnership", {
        type: "checkbox", checked: f.partnership && f.players === 4, disabled: f.players !== 4,
        onchange: (e) => { f.partnership = e.target.checked; rerender(); },
      }), " ", t("lobby.partnership"),
      // Disabled below four players: say why, rather than leave a dead box.
      h("span.field-hint", t(f.players === 4 ? "lobby.partnershipHint" : "lobby.partnershipFour"))),
    );
  }
  if (f.game === "digger") {
    rows.push(field(t("lobby.crates"), h("select#f-crates", { onchange: (e) => { f.crates = e.target.value; rerender(); } },
      h("option", { value: "white", selected: f.crates === "white" }, t("lobby.cratesWhite")),
      h("option", { value: "black", selected: f.crates === "black" }, t("lobby.cratesBlack")))));
  }
  const idle = idleOptions(f);
  const optionKeys = Object.keys(info.options || {}).filter((key) => !idle.has(key));
  if (optionKeys.length) {
    rows.push(
      h("fieldset.options", h("legend", t("lobby.options")),
        optionKeys.map((key) => {
          const value = info.options[key];
          const text = optionText(f.game, key);
          if (typeof value === "number") {
            // The server's bounds (GET /api/games): the browser says what is out of them, in its language.
            const limits = (info.option_limits || {})[key] || {};
            return h("label.check", h("input.num", {
              type: "number", name: key, step: limits.step ?? "any", min: limits.min ?? 0, max: limits.max ?? null,
              value: f.options[key] ?? value,
              onchange: (e) => { f.options[key] = e.target.value === "" ? value : Number(e.target.value); },
            }), " ", h("span", { title: key }, text || key));
          }
          if (f.game === "digger" && key === "crate_values") return crateValuesField(f, text || key);
          if (typeof value !== "boolean") return null;
          return h("label.check", h("input", {
            type: "checkbox", name: key, checked: !!f.options[key],
            onchange: (e) => { f.options[key] = e.target.checked; },
          }), " ", h("span", { title: key }, text || key));
        })),
    );
  }
  const botNames = Object.keys(info.bots || {});
  const seatRows = [];
  for (let i = 0; i < f.players; i++) {
    const seat = f.seats[i];
    const label = f.partnership && f.game === "digging" ? ` · ${t(`dig.team${"AB"[i % 2]}`)}` : "";
    seatRows.push(
      h("div.seat-row",
        h("span.field-label", `${t("table.seatN", { n: i })}${label}`),
        h("select", {
          "data-seat": i,
          "aria-label": t("lobby.seatKind", { n: i }),
          onchange: (e) => {
            const v = e.target.value;
            if (v === "human") seat.kind = "human";
            else if (v.startsWith("level:")) Object.assign(seat, levelSeat(info, v.slice(6)));
            else Object.assign(seat, { kind: "bot", bot: v.slice(4), level: null });
            if (seat.kind !== "human" && f.claim === i) f.claim = f.seats.slice(0, f.players).findIndex((s) => s.kind === "human");
            rerender();
          },
        },
        h("option", { value: "human", selected: seat.kind === "human" }, t("lobby.human")),
        // A level and the bot it names are two options of one value: the seat keeps which was chosen.
        Object.keys(info.levels || {}).map((level) => h("option", { value: `level:${level}`,
          selected: seat.kind === "bot" && seat.level === level, title: t(`level.${level}Help`) },
        t("lobby.levelBot", { level: t(`level.${level}`) }))),
        botNames.map((b) => h("option", { value: `bot:${b}`, selected: seat.kind === "bot" && !seat.level && seat.bot === b,
          title: botText(b, info.bots[b]) }, t("lobby.botKind", { bot: b })))),
        seat.kind === "human"
          ? h("label.check.sit", h("input", { type: "radio", name: "claim", value: i, checked: f.claim === i,
            onchange: () => { f.claim = i; } }), " ", t("lobby.iSitHere"))
          : h("span.field-hint", seat.level ? t(`level.${seat.level}Help`) : botText(seat.bot, info.bots[seat.bot])),
      ),
    );
  }
  const anyHuman = f.seats.slice(0, f.players).some((s) => s.kind === "human");
  rows.push(
    h("fieldset.seats-field", h("legend", t("lobby.seats")), seatRows,
      anyHuman ? h("label.check.sit", h("input", { type: "radio", name: "claim", value: -1, checked: f.claim < 0,
        onchange: () => { f.claim = -1; } }), " ", t("lobby.justWatch")) : h("p.field-hint", t("lobby.allBots"))),
  );
  rows.push(
    field(t("lobby.tableName"), h("input#f-name", { type: "text", maxlength: 80, value: f.tableName,
      placeholder: t(`game.${f.game}`), oninput: (e) => { f.tableName = e.target.value; } })),
  );
  // In a real-time game the clock times only the start of a turn: its own clock times the rest.
  const timed = info && info.timed;
  rows.push(field(t(timed ? "lobby.turnSeconds" : "lobby.moveSeconds"), h("input#f-seconds", { type: "number",
    min: 5, max: 3600, step: 1, value: f.moveSeconds, placeholder: t("lobby.noLimit"),
    oninput: (e) => { f.moveSeconds = e.target.value; } }),
  t(timed ? "lobby.turnSecondsHint" : "lobby.moveSecondsHint")));
  rows.push(h("div.actions", h("button.btn.primary#f-create", { type: "submit" }, t("lobby.create"))));
  fill(els.form, rows);
}

/** A bot seat at one of the game's levels (easy, medium, hard): the server seats the level's bot for
 * the table's kind (GET /api/games: table_levels), whatever the form's players become. */
function levelSeat(info, level) {
  return (info.levels || {})[level] ? { kind: "bot", level } : { kind: "bot", bot: "heuristic", level: null };
}

// Digger's crate cards (G1): a card gives its points for each gem; blue always scores nothing.
const GEM_LETTERS = ["Y", "R", "G", "W"];

/** The cards a table uses: the white one, or on the black side A, B, C... in seat order. */
function crateCards(f) {
  return f.crates === "black" ? "ABCDE".slice(0, f.players).split("") : ["white"];
}

const crateLabel = (card) => (card === "white" ? t("lobby.crateWhite") : t("lobby.crateCard", { card }));

/** The crate_values option: four numbers for each card in use, empty for its standard values. */
function crateValuesField(f, text) {
  return h("div.crate-values", { role: "group", "aria-label": text },
    h("span", { title: "crate_values" }, text),
    crateCards(f).map((card) => h("div.crate-row", { "data-card": card },
      h("span.field-label", crateLabel(card)),
      GEM_LETTERS.map((c) => h("label.gem-value", h("span", t(`colour.${c}`)), h("input.num", {
        type: "number", min: 0, step: 1, name: `crate_values.${card}.${c}`, value: (f.crateValues[card] || {})[c] ?? "",
        oninput: (e) => { f.crateValues[card] = { ...f.crateValues[card], [c]: e.target.value }; },
      }))))));
}

/** The crate_values the form gives ({} for none), or null after telling which card is half filled. */
function chosenCrateValues(f) {
  const chosen = {};
  for (const card of crateCards(f)) {
    const typed = GEM_LETTERS.map((c) => String((f.crateValues[card] || {})[c] ?? "").trim());
    if (typed.every((v) => v === "")) continue;
    const empty = typed.findIndex((v) => v === "");
    if (empty >= 0) {
      toast(t("lobby.crateIncomplete", { card: crateLabel(card) }), "error");
      document.querySelector(`input[name="crate_values.${card}.${GEM_LETTERS[empty]}"]`)?.focus();
      return null;
    }
    const values = Object.fromEntries(GEM_LETTERS.map((c, i) => [c, Number(typed[i])]));
    if (card === "white") chosen.white = values;
    else (chosen.black ||= {})[card] = values;
  }
  return chosen;
}

// The rule options that change nothing at the table chosen (Digging's full_deck with 4
// players): the server refuses them there, so they are neither shown nor sent.
function idleOptions(f) {
  const info = state.games.find((g) => g.name === f.game) || {};
  const partnership = f.game === "digging" ? f.players === 4 && f.partnership : null;
  return new Set((info.idle_options || [])
    .filter((i) => i.players === f.players && (i.partnership === null || i.partnership === partnership))
    .map((i) => i.option));
}

async function submitForm(event) {
  event.preventDefault();
  const f = state.form;
  const crateValues = f.game === "digger" ? chosenCrateValues(f) : {};
  if (crateValues === null) return;
  const me = name();
  const seats = f.seats.slice(0, f.players).map((s, i) =>
    s.kind === "human" ? { kind: "human" }
      : { kind: "bot", ...(s.level ? { level: s.level } : { bot: s.bot }), name: `${BOT_NAMES[(i + 4) % 5]}` });
  const body = { game: f.game, players: f.players, seats, player_name: me };
  if (f.tableName.trim()) body.name = f.tableName.trim();
  // Only the options that differ from the game's defaults (GET /api/games).
  const defaultsOf = (state.games.find((g) => g.name === f.game) || {}).options || {};
  const idle = idleOptions(f);
  body.options = Object.fromEntries(Object.entries(f.options).filter(([k, v]) => v !== defaultsOf[k] && !idle.has(k)));
  if (f.game === "digging") {
    body.partnership = f.players === 4 && f.partnership;
    if (String(f.moveSeconds).trim()) body.move_seconds = Number(f.moveSeconds);
  }
  if (f.game === "digger") body.crates = f.crates === "black" ? { black: "ABCDE".slice(0, f.players).split("") } : "white";
  if (Object.keys(crateValues).length) body.options.crate_values = crateValues;
  const claim = f.claim >= 0 && seats[f.claim] && seats[f.claim].kind === "human" ? f.claim : null;
  if (claim !== null) body.claim = claim;
  const button = document.getElementById("f-create");
  button.disabled = true;
  try {
    const created = await api.create(body);
    if (created.you) {
      go(created.you.link);
      return;
    }
    showShare(created.table);
    await refreshTables();
  } catch (err) {
    toast(errorText(err), "error");
  } finally {
    button.disabled = false;
  }
}

function showShare(table) {
  const url = absolute(seatLink(table.id, null));
  const field = h("input.share-url#share-url", { type: "text", readonly: true, value: url, "aria-label": t("share.watchLink") });
  els.share.hidden = false;
  fill(
    els.share,
    h("h2", icon("link"), " ", t("share.title")),
    h("p", t("share.created", { name: tableName(table) })),
    h("p", t(table.seats.some((seat) => seat.open) ? "share.invite" : "share.watchOnly")),
    h("div.share-row", field,
      h("button.btn", { type: "button", onclick: async () => toast((await copyText(url, field)) ? t("share.copied") : t("share.copyFailed")) }, t("share.copy")),
      h("a.btn.primary", { href: seatLink(table.id, null) }, t("lobby.open"))),
  );
  els.share.scrollIntoView({ behavior: "smooth", block: "nearest" });
}

// ---------------------------------------------------------------------------
// The lobby list
// ---------------------------------------------------------------------------
async function join(table, seat, button) {
  if (button) button.disabled = true;
  try {
    const got = await api.claim(table.id, seat, name());
    saveToken(table.id, seat, got.token);
    go(got.link);
  } catch (err) {
    toast(errorText(err), "error");
    if (button) button.disabled = false;
    refreshTables();
  }
}

/** Where keyboard focus is in the table list, to put it back after the list is drawn again. */
function listFocus() {
  const active = document.activeElement;
  const item = active && els.list.contains(active) ? active.closest("li.table-item") : null;
  return item && active.dataset.key ? { table: item.dataset.table, key: active.dataset.key } : null;
}

function restoreListFocus(at) {
  if (!at) return;
  const item = els.list.querySelector(`li.table-item[data-table="${CSS.escape(at.table)}"]`);
  if (!item) return;
  // The same control (by what it does, not where it stands: seats come and go), else the item's first.
  const again = item.querySelector(`[data-key="${CSS.escape(at.key)}"]`) || item.querySelector("a, button");
  if (again) again.focus({ preventScroll: true });
}

function renderTables() {
  // Drawn again every few seconds: a keyboard player's place in the list must survive it.
  const focus = listFocus();
  const shown = state.tables;
  document.getElementById("more-tables").hidden = !state.next;
  if (!shown.length) {
    fill(els.list, h("li.empty", t("lobby.noTables")));
    return;
  }
  fill(
    els.list,
    shown.map((tb) => {
      const mine = mySeats(tb.id).filter((s) => s < tb.players);
      const seats = tb.seats.map((s) =>
        h(`span.chip${s.open && !s.reserved ? ".open" : ""}`,
          s.kind === "bot" ? icon("bot") : icon("user"), " ",
          s.reserved ? t("lobby.keptSeatN", { n: s.seat })
            : s.open ? t("lobby.openSeatN", { n: s.seat }) : s.name || t("table.seatN", { n: s.seat })));
      const buttons = [];
      if (mine.length && tb.status !== "finished") {
        buttons.push(h("a.btn.primary", { href: seatLink(tb.id, mine[0]), "data-key": "resume" }, t("lobby.resume", { n: mine[0] })));
      }
      if (tb.status === "waiting") {
        // A seat kept for a rematch's player is not a stranger's to join.
        for (const s of tb.seats.filter((x) => x.open && !x.reserved)) {
          buttons.push(h("button.btn.primary.join", { type: "button", "data-seat": s.seat, "data-key": `join ${s.seat}`,
            onclick: (e) => join(tb, s.seat, e.currentTarget) }, t("lobby.join", { n: s.seat })));
        }
      }
      if (tb.status === "finished") {
        buttons.push(h("a.btn.replay", { href: `/replay.html?t=${encodeURIComponent(tb.id)}`, "data-key": "replay" }, t("replay.watch")));
      } else buttons.push(h("a.btn.watch", { href: seatLink(tb.id, null), "data-key": "watch" }, t("lobby.watch")));
      buttons.push(h("button.btn.ghost", { type: "button", title: t("share.copy"), "data-key": "share",
        onclick: async () => toast((await copyText(absolute(seatLink(tb.id, null)))) ? t("share.copied") : absolute(seatLink(tb.id, null))) },
      icon("link"), h("span.sr-only", `${t("share.copy")}: ${tableName(tb)}`))); // each table's button names its table
      return h(
        "li.table-item",
        { "data-table": tb.id, class: { finished: tb.status === "finished" } },
        h("div.table-line",
          h("strong", tableName(tb)),
          h("span.game-tag", t(`game.${tb.game}`)),
          paused(tb) ? h("span.status.status-paused", t("status.paused"))
            : h(`span.status.status-${tb.status}`, t(`status.${tb.status}`)),
          tb.config && tb.config.partnership ? h("span.muted", t("lobby.partnershipShort")) : null),
        h("div.chips", seats),
        h("div.actions", buttons),
      );
    }),
  );
  restoreListFocus(focus);
}

// The lobby pages: the server sends the newest tables first, and "More" follows its next link.
// A refresh (every 5 s, or the button) reloads as many pages as the visitor has opened, so the
// tables "More" brought stay listed; a new filter starts again from one page. Each load has a
// number: an answer that arrives after a newer load started is dropped.
let loads = 0;

async function loadPages(count) {
  const load = ++loads;
  try {
    let page = await api.tables(state.filters);
    const tables = page.tables;
    let pages = 1;
    while (page.next && pages < count) {
      page = await api.tables(state.filters, page.next);
      const known = new Set(tables.map((tb) => tb.id));
      tables.push(...page.tables.filter((tb) => !known.has(tb.id)));
      pages += 1;
    }
    if (load !== loads) return;
    state.tables = tables;
    state.next = page.next;
    state.pages = pages;
    renderTables();
    // For the tests: how many times the list was loaded afresh.
    document.body.dataset.lobbyLoads = String(Number(document.body.dataset.lobbyLoads || 0) + 1);
  } catch (err) {
    if (load === loads) fill(els.list, h("li.empty.error", errorText(err)));
  }
}

function refreshTables() {
  return loadPages(state.pages || 1);
}

let moreInFlight = false;

async function moreTables() {
  if (!state.next || moreInFlight) return; // a second click would count its page twice
  moreInFlight = true;
  const load = ++loads;
  // Counted before the answer: a refresh that starts meanwhile, and so replaces this load,
  // loads the extra page as well, and the click is not lost.
  state.pages = (state.pages || 1) + 1;
  try {
    const page = await api.tables(state.filters, state.next);
    if (load !== loads) return;
    const known = new Set(state.tables.map((tb) => tb.id));
    state.tables = state.tables.concat(page.tables.filter((tb) => !known.has(tb.id)));
    state.next = page.next;
    renderTables();
  } catch (err) {
    if (load === loads) {
      state.pages -= 1;
      fill(els.list, h("li.empty.error", errorText(err)));
    }
  } finally {
    moreInFlight = false;
  }
}

// ---------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------
function renderRules() {
  const games = ["digging", "digger"];
  fill(
    els.rulesTabs,
    games.map((g) => h("button.tab", { type: "button", role: "tab", "aria-selected": String(state.rulesGame === g),
      onclick: () => { state.rulesGame = g; renderRules(); } }, t(`game.${g}`))),
  );
  els.rules.innerHTML = rulesHtml(state.rulesGame); // static text shipped with the page
}

async function start() {
  initLanguagePicker(document.getElementById("lang"));
  state.level = savedLevel();
  applyI18n(document);
  els.name.value = (myPlayer() && myPlayer().name) || playerName();
  els.name.addEventListener("change", renameProfile);
  renderProfileLink();
  els.form.addEventListener("submit", submitForm);
  document.getElementById("refresh").addEventListener("click", refreshTables);
  for (const [id, key] of [["lobby-status", "status"], ["lobby-game", "game"]]) {
    document.getElementById(id).addEventListener("change", (e) => {
      state.filters[key] = e.target.value;
      loadPages(1);
    });
  }
  document.getElementById("more-tables").addEventListener("click", moreTables);
  onLanguage(() => {
    applyI18n(document);
    renderQuick();
    renderForm();
    renderTables();
    renderRules();
  });
  renderQuick();
  renderRules();
  try {
    gamesReady = api.games();
    state.games = await gamesReady;
  } catch (err) {
    toast(errorText(err), "error");
  }
  if (state.games.length) state.form = defaults(state.games[0].name);
  renderQuick();
  renderForm();
  await refreshTables();
  setInterval(() => {
    if (document.visibilityState === "visible") refreshTables();
  }, 5000);
}

start();
