// leaderboard.html?game=digging&mode=partnership: one ladder, best first, humans and bots.

import { api, myPlayer } from "./api.js";
import { fill, h, icon } from "./dom.js";
import { applyI18n, errorText, initLanguagePicker, levelOf, modeText, num, onLanguage, t } from "./i18n.js";
import { installIcons } from "./icons.js";

installIcons();
const main = document.getElementById("main");
const params = new URLSearchParams(window.location.search);
const state = { game: params.get("game") || "digging", mode: params.get("mode") || "partnership", rows: null, games: [] };

function modes(game) {
  const info = state.games.find((g) => g.name === game);
  const out = game === "digging" ? ["partnership"] : [];
  for (let n = info ? info.min_players : 2; n <= (info ? info.max_players : 4); n++) out.push(`${n}p`);
  return out;
}

/** A row's name: a bot that is one of the lobby's levels at this ladder's kind of table reads as the
 * level ("Hard bot"), its spec beside it for those who want the exact bot; any other name as it is. */
function rowName(r) {
  const level = levelOf(state.games, r.bot, state.game, state.mode);
  if (!level) return [r.name];
  return [t("lobby.levelBot", { level: t(`level.${level}`) }), " ", h("span.muted.small", r.bot)];
}

function render() {
  const mine = myPlayer();
  const pick = h("div.board-pick",
    h("label.field-inline", t("board.game"), h("select#board-game", {
      onchange: (e) => { state.game = e.target.value; state.mode = modes(state.game)[0]; load(); },
    }, state.games.map((g) => h("option", { value: g.name, selected: g.name === state.game }, t(`game.${g.name}`))))),
    h("label.field-inline", t("board.mode"), h("select#board-mode", {
      onchange: (e) => { state.mode = e.target.value; load(); },
    }, modes(state.game).map((m) => h("option", { value: m, selected: m === state.mode }, modeText(m))))));
  const rows = state.rows === null ? h("p.muted", "…")
    : state.rows.length === 0 ? h("p.muted", t("board.empty"))
      : h("table.score-table.board",
        h("thead", h("tr", h("th", "#"), h("th", t("board.player")), h("th", t("board.rating")), h("th", t("board.games")),
          h("th", t("board.wins")))),
        h("tbody", state.rows.map((r) => h("tr", { class: { me: mine && mine.id === r.player } },
          h("td.num", String(r.rank)),
          h("th", h("a", { href: `/player.html?id=${encodeURIComponent(r.player)}` }, r.bot ? icon("bot") : icon("user"), " ", ...rowName(r))),
          h("td.num", num(r.rating, 1, true)), h("td.num", String(r.games)), h("td.num", String(r.wins))))));
  fill(main, h("section.panel", h("h1", t("board.title")), pick, rows, h("p.muted.small", t("player.ratingHelp"))));
}

async function load() {
  const url = new URL(window.location.href);
  url.searchParams.set("game", state.game);
  url.searchParams.set("mode", state.mode);
  history.replaceState(null, "", url);
  state.rows = null;
  render();
  try {
    state.rows = (await api.leaderboard(state.game, state.mode)).players;
  } catch (err) {
    fill(main, h("div.notice.error", errorText(err)));
    return;
  }
  render();
}

async function start() {
  initLanguagePicker(document.getElementById("lang"));
  applyI18n(document);
  onLanguage(() => {
    applyI18n(document);
    render();
  });
  try {
    state.games = await api.games();
  } catch (err) {
    fill(main, h("div.notice.error", errorText(err)));
    return;
  }
  // No ladder in the address: the one this browser's player has played most on, if any.
  const mine = myPlayer();
  if (mine && !params.get("game")) {
    try {
      const played = ((await api.player(mine.id)).ratings || []).filter((r) => r.games > 0);
      played.sort((a, b) => b.games - a.games);
      if (played.length) Object.assign(state, { game: played[0].game, mode: played[0].mode });
    } catch {
      /* the default ladder, then */
    }
  }
  await load();
}

start();
