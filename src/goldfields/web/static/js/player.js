// player.html?id=ID: a player's page (name, a rating per game and mode, the last games).
// player.html#key=KEY: a recovery link; this browser takes the profile the key stands for.

import { api, forgetPlayer, myPlayer, recoveryLink, savePlayer, setPlayerName } from "./api.js";
import { copyText, fill, h, icon, toast } from "./dom.js";
import { applyI18n, errorText, initLanguagePicker, levelOf, modeText, num, onLanguage, t } from "./i18n.js";
import { installIcons } from "./icons.js";

installIcons();
const main = document.getElementById("main");
let profile = null;
let games = []; // GET /api/games, for the lobby's levels: a bot that is one is named by it

function render() {
  if (!profile) return;
  const mine = myPlayer();
  const own = mine && mine.id === profile.id;
  // A bot that is one of the lobby's levels reads as the level ("Hard bot"), its spec beside it.
  const level = profile.bot ? levelOf(games, profile.bot) : undefined;
  const name = level ? t("lobby.levelBot", { level: t(`level.${level}`) }) : profile.name;
  document.title = `${name} · goldfields`;
  const ratings = profile.ratings.length
    ? h("div.table-scroll", h("table.score-table.ratings",
      h("thead", h("tr", h("th", t("board.game")), h("th", t("board.mode")), h("th", t("board.rating")),
        h("th", t("board.games")), h("th", t("board.wins")))),
      h("tbody", profile.ratings.map((r) => h("tr",
        h("th", h("a", { href: `/leaderboard.html?game=${r.game}&mode=${r.mode}` }, t(`game.${r.game}`))),
        h("td", modeText(r.mode)), h("td.num", num(r.rating, 1, true)), h("td.num", String(r.games)), h("td.num", String(r.wins)))),
      )))
    : h("p.muted", t("player.noRatings"));
  const history = profile.history.length
    ? h("ol.history", profile.history.map((g) => h("li",
      h("span", { class: { won: g.won, lost: !g.won } }, g.won ? t("player.won") : t("player.lost")), " ",
      t(`game.${g.game}`), " · ", modeText(g.mode), " · ", t("player.score", { n: g.score }), " · ",
      g.rating_after === null ? h("span.muted", t("player.unrated"))
        : t("player.ratingMove", { from: num(g.rating_before, 1, true), to: num(g.rating_after, 1, true) }),
      " · ", new Date(g.finished_at * 1000).toLocaleDateString(), " ",
      h("a.btn.small", { href: `/replay.html?t=${encodeURIComponent(g.table)}&seat=${g.seat}` }, t("replay.watch")))))
    : h("p.muted", t("player.noGames"));
  const parts = [
    h("section.panel",
      h("h1", profile.bot ? [icon("bot"), " "] : [icon("user"), " "], name, level ? [" ", h("span.muted.small", profile.bot)] : null,
        own ? h("span.badge.you", t("common.you")) : null),
      profile.bot ? h("p.muted", t("player.botProfile", { spec: profile.bot })) : null,
      h("h2", t("player.ratings")), ratings, h("p.muted.small", t("player.ratingHelp"))),
    h("section.panel", h("h2", t("player.history")), history),
  ];
  if (own) {
    const link = recoveryLink(mine);
    const field = h("input.share-url", { type: "text", readonly: true, value: link, "aria-label": t("player.recovery") });
    parts.push(h("section.panel.recovery",
      h("h2", t("player.recovery")), h("p.warn-text", t("player.recoveryHelp")),
      h("div.share-row", field, h("button.btn", { type: "button",
        onclick: async () => toast((await copyText(link, field)) ? t("share.copied") : t("share.copyFailed")) }, t("share.copy"))),
      h("button.btn.ghost", { type: "button", onclick: () => { forgetPlayer(); toast(t("player.forgotten")); render(); } },
        t("player.forget"))));
  }
  fill(main, parts);
}

async function start() {
  initLanguagePicker(document.getElementById("lang"));
  applyI18n(document);
  onLanguage(() => {
    applyI18n(document);
    render();
  });
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const key = fragment.get("key");
  let id = new URLSearchParams(window.location.search).get("id");
  if (key) {
    // Keep the key out of the address bar (and out of anything copied from it).
    history.replaceState(null, "", window.location.pathname);
    try {
      const me = await api.me(key);
      savePlayer({ id: me.id, name: me.name, key });
      setPlayerName(me.name);
      toast(t("player.signedIn", { name: me.name }), "info", 8000);
      id = me.id;
      history.replaceState(null, "", `${window.location.pathname}?id=${encodeURIComponent(id)}`);
    } catch (err) {
      fill(main, h("div.notice.error", errorText(err)));
      return;
    }
  }
  if (!id) {
    const mine = myPlayer();
    if (!mine) {
      fill(main, h("div.notice", t("player.none"), " ", h("a", { href: "/" }, t("table.backLobby"))));
      return;
    }
    id = mine.id;
  }
  try {
    [profile, games] = await Promise.all([api.player(id), api.games().catch(() => [])]);
  } catch (err) {
    // This browser's own profile that the server no longer knows (a new database): offer to forget
    // it here, where a player looks for it, rather than leave a key that every table refuses.
    const mine = myPlayer();
    const stale = mine && mine.id === id && err.status === 404;
    fill(main, h("div.notice.error", errorText(err), stale ? [" ", h("button.btn.ghost", { type: "button",
      onclick: () => { forgetPlayer(); toast(t("player.forgotten")); fill(main, h("div.notice", t("player.none"),
        " ", h("a", { href: "/" }, t("table.backLobby")))); } }, t("player.forget"))] : null));
    return;
  }
  render();
}

start();
