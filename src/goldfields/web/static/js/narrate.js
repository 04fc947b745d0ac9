// Events in words, in the page's language. Mirrors src/goldfields/digging/narrate.py for
// Digging; Digger's events are those of src/goldfields/digger/state.py. An event kind this
// file does not know returns null: the caller then shows the server's English log line.

import { cardName } from "./cards.js";
import { num, t } from "./i18n.js";

export function narrate(game, ev, name) {
  if (game === "digging") return digging(ev, name);
  if (game === "digger") return digger(ev, name);
  return null;
}

function digging(ev, name) {
  const who = "seat" in ev ? name(ev.seat) : "";
  switch (ev.kind) {
    case "deal": {
      const line = t("ev.deal", { n: ev.hand + 1, dealer: name(ev.dealer), first: name(ev.first) });
      return ev.cards ? `${line} ${t("ev.dealCards", { cards: ev.cards.map(cardName).join(", ") })}` : line;
    }
    case "draw":
      return ev.card
        ? t("ev.drawCard", { who, card: cardName(ev.card), pile: ev.pile })
        : t("ev.draw", { who, pile: ev.pile });
    case "pass":
      return ev.card
        ? t("ev.passCard", { who, to: name(ev.to), card: cardName(ev.card) })
        : t("ev.pass", { who, to: name(ev.to) });
    case "open":
      return ev.owner === ev.seat
        ? t("ev.openOwn", { who, card: cardName(ev.card), mine: ev.mine })
        : t("ev.openOther", { who, card: cardName(ev.card), mine: ev.mine, owner: name(ev.owner) });
    case "chest":
      return t("ev.chest", { who, card: cardName(ev.card), mine: ev.mine });
    case "close":
      return ev.owner === ev.seat
        ? t("ev.closeOwn", { who, mine: ev.mine, n: ev.points })
        : t("ev.close", { who, mine: ev.mine, owner: name(ev.owner), n: ev.points });
    case "fight_start":
      return t("ev.fightStart", { who, mine: ev.mine, owner: name(ev.owner), card: cardName(ev.card) });
    case "fight_join":
      return t("ev.fightJoin", { who, mine: ev.mine, side: t(`dig.side.${ev.side}`), card: cardName(ev.card) });
    case "fight_resolved": {
      const score = "attack" in ev
        ? t("ev.scoreSums", { a: ev.attack, d: ev.defence })
        : t("ev.scoreHighest", { card: cardName(ev.highest), name: name(ev.by) });
      return ev.winner === "attack"
        ? t("ev.attackWins", { mine: ev.mine, score, owner: name(ev.owner) })
        : t("ev.defenceHolds", { mine: ev.mine, score });
    }
    case "fight_ended":
      return t("ev.fightEnded", { mine: ev.mine, cards: ev.discarded.map(cardName).join(", ") });
    case "fight_lapsed":
      return t("ev.fightLapsed", { mine: ev.mine });
    case "skip":
      return t("ev.skip", { who });
    case "hand_scored":
      return t("ev.handScored", {
        n: ev.hand + 1,
        points: ev.points.map((p, s) => `${name(s)} ${p}`).join(", "),
      });
    case "game_over":
      return t(ev.winners.length === 1 ? "ev.gameOverOne" : "ev.gameOver", { names: ev.winners.map(name).join(` ${t("common.and")} `) });
    default:
      return null;
  }
}

const tokens = (counts) =>
  Object.entries(counts || {})
    .filter(([, n]) => n > 0)
    .map(([c, n]) => t(`tok.${c}`, { n }))
    .join(", ");

function digger(ev, name) {
  const who = "seat" in ev ? name(ev.seat) : "";
  const at = typeof ev.at === "number" ? ` (${num(ev.at, 1, true)} s)` : "";
  switch (ev.kind) {
    case "throw":
      // The first throw turns the hourglass: its time is 0 by definition, not worth a "(0.0 s)".
      return ev.first ? t("ev.throwFirst", { who }) : ""; // "": nothing to log, the roll line says it
    case "roll": {
      const unique = ev.unique.length ? ev.unique.map((c) => t(`colour.${c}`)).join(", ") : t("dg.none");
      return t("ev.roll", { who, n: ev.roll, faces: [...ev.faces].map((c) => t(`face.${c}`)).join(" "), unique }) + (ev.black ? ` ${t(ev.steal ? "ev.rollBlack" : "ev.rollBlackNone")}` : "");
    }
    case "take":
      return t("ev.take", { who, colour: t(`colour.${ev.colour}`) });
    case "steal":
      return t("ev.steal", { who, colour: t(`gem.${ev.colour}`), from: name(ev.from) });
    case "stop": {
      // The score is the digger's total after the stop (what it banked was told beside it). With
      // nothing banked a line of its own: "nothing" does not slot into every language's sentence.
      const banked = tokens(ev.banked);
      return t(banked ? "ev.stop" : "ev.stopNothing", { who, tokens: banked,
        boxed: ev.boxed ? t("ev.boxed", { n: ev.boxed }) : "", n: ev.score }) + at;
    }
    case "timeout": {
      const lost = tokens(ev.returned);
      const key = ev.cause === "late stop" ? "ev.lateStop" : "ev.timeout";
      return t(lost ? key : `${key}Nothing`, { who, tokens: lost }) + at;
    }
    case "knock": {
      const lost = tokens(ev.returned);
      return t(lost ? "ev.knock" : "ev.knockNothing", { who, tokens: lost });
    }
    case "turn_start":
      return t("ev.turnStart", { who });
    case "game_over":
      return t(ev.winners.length === 1 ? "ev.diggerOverOne" : "ev.diggerOver", {
        names: ev.winners.map(name).join(` ${t("common.and")} `),
        scores: ev.scores.map((s, i) => `${name(i)} ${s}`).join(", "),
      });
    default:
      return null;
  }
}

/** A move of a record in words, in the page's language ("gold chest on m1", "Take yellow"); the
 * notation itself where a move is not one of the game's (it is shown as it came). */
export function moveText(game, move, name) {
  const [words, at] = String(move).split(/\s+@/);
  const w = words.trim().split(/\s+/);
  let text = null;
  if (game === "digging") {
    if (w[0] === "draw" && w.length === 1) text = t("dig.draw");
    else if (w[0] === "skip" && w.length === 1) text = t("move.skip");
    else if (w[0] === "pass" && w.length === 2) text = t("move.pass", { card: cardName(w[1]) });
    else if (w[0] === "play" && w.length === 3 && /^\d+$/.test(w[2])) {
      text = t("move.open", { card: cardName(w[1]), name: name(Number(w[2])) });
    } else if (w[0] === "play" && w.length === 3) text = t("move.play", { card: cardName(w[1]), mine: w[2] });
  } else if (game === "digger") {
    if (w[0] === "roll" && w.length === 1) text = t("dg.roll");
    else if (w[0] === "stop" && w.length === 1) text = t("dg.stop");
    else if (w[0] === "take" && w.length === 2) text = t("dg.take", { colour: t(`colour.${w[1]}`) });
    else if (w[0] === "steal" && (w.length === 3 || (w.length === 4 && w[3] === "knock"))) {
      text = t("dg.steal", { colour: t(`colour.${w[1]}`), name: name(Number(w[2])) })
        + (w[3] ? ` ${t("move.knock")}` : "");
    }
    if (text !== null && at !== undefined && Number.isFinite(Number(at))) text += ` (${num(Number(at), 1, true)} s)`;
  }
  return text === null ? String(move) : text;
}
