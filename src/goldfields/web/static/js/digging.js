// The Digging table: displays and mines, the fight, the pile, the hand, scores.
// Legal moves come from the observation's `legal` list: a card is selectable when some
// legal move plays or passes it, and only the targets of those moves are offered.

import { cardBack, cardEl, cardName, parseCard } from "./cards.js";
import { fill, h, icon, modal, reducedMotion, toast } from "./dom.js";
import { t } from "./i18n.js";
import { narrate } from "./narrate.js";

export function mount(root, ctx) {
  return new DiggingView(root, ctx);
}

/** The legal moves, sorted for the interface: {draw, skip, cards: Map(code -> {pass, targets: Map})}. */
export function readLegal(legal) {
  const out = { draw: false, skip: false, cards: new Map() };
  for (const move of legal || []) {
    const words = move.split(/\s+/);
    if (words[0] === "draw") out.draw = true;
    else if (words[0] === "skip") out.skip = true;
    else if (words[0] === "pass" || words[0] === "play") {
      const code = words[1];
      if (!out.cards.has(code)) out.cards.set(code, { pass: null, targets: new Map() });
      const entry = out.cards.get(code);
      if (words[0] === "pass") entry.pass = move;
      else entry.targets.set(words[2], move); // a seat number (mine cards) or a mine name
    }
  }
  return out;
}

class DiggingView {
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    this.msg = null;
    this.selected = null;
    this.pending = false;
    this.fresh = { mines: new Set(), chests: new Set(), closed: new Set(), hand: null, bandit: null };
    this.result = null;
    this.resultTimer = null;
    this.lastScored = null;

    this.banner = h("div.turn-banner", { "aria-live": "polite" });
    this.fightSlot = h("div.fight-slot");
    this.seats = h("div.seats");
    this.handTitle = h("h2.hand-title");
    this.hint = h("p.hint", { "aria-live": "polite" });
    this.hand = h("div.hand", { role: "group" });
    this.actions = h("div.actions");
    this.handArea = h("section.hand-area", this.handTitle, this.hand, this.hint, this.actions);
    this.scores = h("section.panel.scores");
    fill(root, h("div.dig", this.banner, this.fightSlot, this.seats, this.handArea));
    // On a phone the hand is pinned to the bottom of the screen: the page keeps its height free.
    this.handSize = new ResizeObserver(() => {
      const pinned = getComputedStyle(this.handArea).position === "fixed" && !this.handArea.hidden;
      document.documentElement.style.setProperty("--hand-h", pinned ? `${this.handArea.offsetHeight}px` : "0px");
    });
    this.handSize.observe(this.handArea);
    ctx.side.prepend(this.scores);
  }

  get me() {
    return this.ctx.seat;
  }

  destroy() {
    this.scores.remove();
    clearTimeout(this.resultTimer);
    this.handSize.disconnect();
    document.documentElement.style.removeProperty("--hand-h");
  }

  setPending(value) {
    this.pending = value;
    if (this.msg) this.render();
  }

  relabel() {
    if (this.msg) this.render();
  }

  // ------------------------------------------------------------------
  // Updates
  // ------------------------------------------------------------------
  update(msg) {
    const prev = this.msg;
    this.msg = msg;
    this.pending = false;
    if (!msg.full) this.noticeEvents(msg, prev);
    const legal = readLegal(msg.view.legal);
    if (this.selected && !legal.cards.has(this.selected)) this.selected = null;
    this.render();
    if (msg.full && msg.table.status === "finished" && !this.shownGameOver) this.showGameOver(msg);
  }

  noticeEvents(msg) {
    for (const ev of msg.events) {
      switch (ev.kind) {
        case "open":
          this.fresh.mines.add(ev.mine);
          break;
        case "chest":
          this.fresh.chests.add(ev.mine);
          break;
        case "close":
          this.fresh.closed.add(ev.mine);
          break;
        case "fight_start":
        case "fight_join":
          this.fresh.bandit = ev.mine;
          break;
        case "draw":
          if (ev.card && ev.seat === this.me) this.fresh.hand = ev.card;
          this.fresh.pile = true;
          break;
        case "pass":
          if (ev.card && ev.to === this.me) this.fresh.hand = ev.card;
          break;
        case "fight_resolved":
        case "fight_ended":
        case "fight_lapsed":
          this.flashResult(ev);
          break;
        case "hand_scored":
          this.showScoring(ev, msg);
          break;
        case "game_over":
          // The last hand's scoring (same update) is shown first; the result follows when it is closed.
          this.gameOverAfterScoring = true;
          this.shownGameOver = true;
          break;
        default:
          break;
      }
    }
  }

  flashResult(ev) {
    const won = ev.kind === "fight_resolved" && ev.winner === "attack";
    this.result = { mine: ev.mine, won, text: narrate("digging", ev, this.ctx.name) };
    clearTimeout(this.resultTimer);
    this.resultTimer = setTimeout(
      () => {
        this.result = null;
        if (this.msg) this.render();
      },
      reducedMotion() ? 4000 : 2600,
    );
  }

  // ------------------------------------------------------------------
  // Moves
  // ------------------------------------------------------------------
  play(move) {
    if (this.pending || !move) return;
    if (this.ctx.send(move)) {
      this.pending = true;
      this.selected = null;
      this.render();
    }
  }

  /** Scroll a target into sight when it is off screen or under the hand (pinned at the
   * bottom of a phone's screen). */
  bringIntoView(el) {
    if (this.handArea.contains(el)) return;
    const r = el.getBoundingClientRect();
    const hand = this.handArea.getBoundingClientRect();
    const bottom = Math.min(window.innerHeight, hand.top > 0 ? hand.top : window.innerHeight);
    if (r.top >= 0 && r.bottom <= bottom) return;
    window.scrollBy({ top: r.top - Math.max(0, (bottom - r.height) / 2), behavior: "instant" });
  }

  /** A click on a mine the selected card cannot go to: say why. A mine card's place is a
   * display, which the page knows; for any other card the server names the rule. */
  notHere(mine) {
    if (this.selected.startsWith("M")) toast(t("dig.mineToDisplay", { card: cardName(this.selected) }), "error");
    else this.play(`play ${this.selected} ${mine.name}`);
  }

  select(code) {
    this.selected = this.selected === code ? null : code;
    this.render();
    // Put the keyboard on the first target, so that Tab/Enter finishes the move.
    if (this.selected) {
      // A button: the banner's "target" text (the points to reach) is a span of that class too.
      const first = this.root.querySelector("button.target");
      if (first) this.bringIntoView(first);
      if (first && this.keyboardSelect) first.focus({ preventScroll: true });
    }
    this.keyboardSelect = false;
  }

  /** Keyboard shortcuts: d = draw, p = pass the selected card, Esc = cancel. */
  key(event) {
    if (!this.msg) return false;
    const legal = readLegal(this.msg.view.legal);
    const k = event.key.toLowerCase();
    if (k === "d" && legal.draw) {
      this.play("draw");
      return true;
    }
    if (k === "p" && this.selected) {
      const entry = legal.cards.get(this.selected);
      if (entry && entry.pass) this.play(entry.pass);
      return true;
    }
    if (k === "escape" && this.selected) {
      this.selected = null;
      this.render();
      const card = this.hand.querySelector(".card:not([disabled])");
      if (card) card.focus();
      return true;
    }
    return false;
  }

  // ------------------------------------------------------------------
  // Rendering
  // ------------------------------------------------------------------
  render() {
    const focusKey = document.activeElement && document.activeElement.dataset
      ? document.activeElement.dataset.key
      : null;
    const { view, table } = this.msg;
    const legal = readLegal(view.legal);
    const myTurn = this.me !== null && view.to_move === this.me && table.status === "playing";
    const canAct = myTurn && !this.pending;
    const sel = this.selected ? legal.cards.get(this.selected) : null;

    this.renderBanner(view, table, myTurn);
    this.renderFight(view);
    this.renderSeats(view, table, canAct ? sel : null);
    this.renderHand(view, legal, canAct, sel, myTurn);
    this.renderScores(view, table);
    this.fresh = { mines: new Set(), chests: new Set(), closed: new Set(), hand: null, bandit: null };

    if (focusKey) {
      const again = this.root.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
      if (again && !again.disabled) again.focus();
    }
  }

  renderBanner(view, table, myTurn) {
    const parts = [];
    if (table.status === "waiting") {
      parts.push(h("strong", t("table.waitingPlayers")));
    } else if (["expired", "abandoned", "stopped"].includes(table.status)) {
      parts.push(h("strong", t(`status.${table.status}`)));
    } else if (table.status === "finished" || view.winners) {
      parts.push(h("strong", t((view.winners || []).length === 1 ? "dig.gameOverOne" : "dig.gameOver", { winners: this.winnerNames(view) })));
    } else if (view.to_move < 0) {
      parts.push(h("span", t("dig.dealing")));
    } else if (myTurn && !this.ctx.replay) { // a replay watches through a seat's eyes: its turn is not "yours"
      parts.push(h("strong.your-turn", t("table.yourTurn")));
    } else {
      parts.push(h("span", t("table.toMove", { name: this.ctx.name(view.to_move) })));
    }
    const pile = h(
      `div.pile${this.fresh.pile ? ".bump" : ""}`,
      { title: t("dig.pile") },
      cardBack("xs"),
      h("span", t("dig.pileCount", { n: view.pile })),
    );
    this.fresh.pile = false;
    const info = [pile];
    if (view.hand_no >= 0) info.unshift(h("span.hand-no", t("dig.handNo", { n: view.hand_no + 1 })));
    // (Not once the game is over: "0 turns left" says nothing then.)
    if (view.last_round !== null && view.last_round !== undefined && !(table.status === "finished" || view.winners)) {
      info.push(h("span.last-round", t("dig.lastRound", { n: view.last_round })));
    }
    info.push(h("span.target", t("dig.target", { n: view.target })));
    fill(this.banner, h("div.banner-turn", parts), h("div.banner-info", info));
    this.banner.classList.toggle("mine-turn", myTurn);
  }

  winnerNames(view) {
    const winners = view.winners || [];
    return winners.map((s) => this.ctx.name(s)).join(` ${t("common.and")} `);
  }

  renderFight(view) {
    const fight = view.fight;
    const nodes = [];
    if (this.result) {
      nodes.push(h(`div.fight-result${this.result.won ? ".won" : ".held"}`, { role: "status" },
        icon("swords"), h("span", this.result.text)));
    }
    if (fight) {
      const mine = view.mines.find((m) => m.name === fight.mine);
      const bandits = fight.bandits.map(([seat, code]) => {
        const side = view.partnership ? this.sideOf(view, fight, seat) : null;
        return h(
          `div.fight-bandit${side ? `.side-${side}` : ""}`,
          cardEl(code, { size: "sm" }),
          h("span.fight-who", this.ctx.name(seat)),
          side ? h("span.fight-side", t(`dig.side.${side}`)) : null,
        );
      });
      let sums;
      if (view.partnership) {
        sums = h(
          "div.fight-sums",
          h("span.sum.attack", t("dig.attackSum", { n: fight.attack })),
          h("span.vs", "—"),
          h("span.sum.defence", t("dig.defenceSum", { n: fight.defence })),
          h("span.fight-note", t("dig.tieDefends")),
        );
      } else {
        // The engine says who leads (D6): the highest bandit so far.
        const highest = parseCard(fight.highest).value;
        sums = h("div.fight-sums", h("span.sum", t("dig.highest", { n: highest, name: this.ctx.name(fight.by) })));
      }
      const chances = fight.chances.length
        ? t("dig.chances", { names: fight.chances.map((s) => this.ctx.name(s)).join(", ") })
        : t("dig.noChances");
      nodes.push(
        h(
          "section.panel.fight",
          { "aria-label": t("dig.fightTitle", { mine: fight.mine }) },
          h(
            "h2",
            icon("swords"),
            " ",
            t("dig.fightTitle", { mine: fight.mine }),
            mine ? h("span.muted", ` · ${t(`metal.${mine.metal[0].toUpperCase()}`)}`) : null,
          ),
          h(
            "p.fight-line",
            t("dig.fightAttacker", { name: this.ctx.name(fight.attacker) }),
            " · ",
            t("dig.fightOwner", { name: this.ctx.name(fight.owner) }),
          ),
          h("div.fight-bandits", bandits),
          sums,
          h("p.fight-chances", chances, " ", t("dig.resolvesAt", { name: this.ctx.name(fight.attacker) })),
        ),
      );
    }
    fill(this.fightSlot, nodes);
  }

  sideOf(view, fight, seat) {
    return fight.sides[String(seat)]; // the engine's sides (D6)
  }

  seatOrder(n) {
    if (this.me === null) return [...Array(n).keys()];
    const order = [];
    for (let k = 1; k <= n; k++) order.push((this.me + k) % n);
    return order; // the others clockwise, then me last (next to my hand)
  }

  renderSeats(view, table, sel) {
    const n = view.players;
    const fight = view.fight;
    const panels = this.seatOrder(n).map((seat) => {
      const info = table.seats[seat] || {};
      const isMe = seat === this.me;
      const team = view.teams[seat]; // the engine's teams
      const partner = view.partnership && this.me !== null && seat !== this.me && team === view.teams[this.me];
      const badges = [];
      if (isMe && !this.ctx.replay) badges.push(h("span.badge.you", t("common.you")));
      if (partner) badges.push(h("span.badge.partner", t("dig.partner")));
      if (view.partnership) badges.push(h(`span.badge.team-${"ab"[team]}`, t(`dig.team${"AB"[team]}`)));
      if (info.kind === "bot") badges.push(h("span.badge.bot", icon("bot"), " ", t("common.bot")));
      if (info.standin) badges.push(h("span.badge.away", t("table.standin")));
      else if (info.kind === "human" && !info.open && !info.connected) {
        badges.push(h("span.badge.away", t("table.away")));
      }
      if (fight && fight.chances.includes(seat)) badges.push(h("span.badge.chance", t("dig.mayJoin")));
      const mines = view.mines.filter((m) => m.owner === seat);
      const targets = [];
      if (sel) {
        const move = sel.targets.get(String(seat));
        if (move) {
          targets.push(
            h(
              "button.btn.target.open-here",
              { type: "button", "data-move": move, "data-key": `open-${seat}`, onclick: () => this.play(move) },
              icon("mine"),
              " ",
              isMe ? t("dig.openMine") : t("dig.openThere", { name: this.ctx.name(seat) }),
            ),
          );
        }
      }
      const points = view.points ? view.points[seat] : 0;
      return h(
        "section.seat",
        {
          class: {
            "to-move": view.to_move === seat,
            me: isMe,
            partner,
            [`team-${"ab"[team]}`]: view.partnership,
          },
          "data-seat": seat,
          "aria-label": this.ctx.name(seat),
        },
        h(
          "header.seat-head",
          h("span.seat-name", { title: this.ctx.name(seat) },
            view.to_move === seat ? h("span.turn-dot", { "aria-hidden": "true" }) : null,
            h("span.name-text", this.ctx.name(seat))),
          h("span.badges", badges),
          h(
            "span.seat-meta",
            h("span.hand-size", { title: t("dig.handSize") }, icon("cards"), ` ${view.hand_sizes[seat]}`),
            h("span.seat-points", { title: t("dig.handPoints") }, t("dig.pts", { n: points })),
          ),
        ),
        h(
          "div.display",
          mines.length ? mines.map((m) => this.mineEl(m, view, sel)) : h("p.empty", t("dig.noMines")),
          targets,
        ),
        partner && view.partner_holds && view.partner_holds.length
          ? h("p.known", t("dig.partnerHolds"), " ", view.partner_holds.map((c) => cardEl(c, { size: "xs" })))
          : null,
        // A replay of a finished game may show every hand.
        view.hands && view.hands[seat]
          ? h("div.open-hand.mini-cards", { "aria-label": t("replay.handOf", { name: this.ctx.name(seat) }) },
            view.hands[seat].map((c) => cardEl(c, { size: "xs" })))
          : null,
      );
    });
    fill(this.seats, panels);
    this.seats.dataset.players = String(n);
  }

  mineEl(mine, view, sel) {
    const metal = mine.metal[0].toUpperCase();
    const chests = mine.chests;
    const doubled = chests.length > 0 && parseCard(chests[0]).kind === "double";
    const value = mine.points_if_closed; // the engine's D8 score
    const fought = view.fight && view.fight.mine === mine.name;
    const move = sel ? sel.targets.get(mine.name) : null;
    const stack = [cardEl(`M${metal}`, { size: "xs" })];
    chests.forEach((c, i) => {
      const fresh = i === chests.length - 1 && this.fresh.chests.has(mine.name);
      stack.push(cardEl(c, { size: "xs", cls: fresh ? "fresh" : "" }));
    });
    if (mine.closed) stack.push(cardEl("X", { size: "xs", cls: this.fresh.closed.has(mine.name) ? "fresh" : "" }));
    if (fought) {
      for (const [, code] of view.fight.bandits) {
        stack.push(cardEl(code, { size: "xs", cls: `bandit-on${this.fresh.bandit === mine.name ? " fresh" : ""}` }));
      }
    }
    const status = mine.closed ? t("dig.closedPts", { n: value }) : t("dig.openWorth", { n: value });
    const label = [
      mine.name,
      cardName(`M${metal}`),
      t("dig.chestCount", { n: chests.length }),
      doubled ? t("dig.doubled") : null,
      status,
      fought ? t("dig.underAttack") : null,
    ].filter(Boolean).join(", ");
    const result = this.result && this.result.mine === mine.name ? (this.result.won ? "won" : "held") : null;
    return h(
      "button.mine",
      {
        type: "button",
        class: {
          [`metal-${mine.metal}`]: true,
          closed: mine.closed,
          doubled,
          fought,
          target: !!move,
          fresh: this.fresh.mines.has(mine.name),
          [`result-${result}`]: !!result,
        },
        // With a card in hand, a mine that is not lit still answers a click: the move is sent and
        // the server's refusal names the rule it breaks (the state stays as it was).
        disabled: !move && !sel,
        "aria-disabled": !move && sel ? "true" : null,
        "data-mine": mine.name,
        "data-move": move || null,
        "data-key": `mine-${mine.name}`,
        "aria-label": label,
        title: label,
        onclick: move ? () => this.play(move) : sel ? () => this.notHere(mine) : null,
      },
      h("span.mine-name", mine.name),
      h("span.mine-stack", stack),
      h(
        "span.mine-foot",
        doubled ? h("span.double-mark", { title: t("dig.doubled") }, "×2") : null,
        mine.closed ? h("span.closed-mark", t("dig.closed")) : null,
        h("span.mine-points", mine.closed ? t("dig.pts", { n: value }) : `(${value})`),
      ),
    );
  }

  renderHand(view, legal, canAct, sel, myTurn) {
    const spectator = this.me === null;
    this.handArea.hidden = spectator;
    if (spectator) return;
    this.handTitle.textContent = t("dig.yourHand");
    let freshDone = false;
    const hand = view.hand || [];
    // A big hand fans out: copies of one card overlap, so that the hand stays on one or two rows;
    // so do many copies of one card (they keep to one run, below, which must fit a phone's row).
    const run = (i) => { let n = 1; while (i + n < hand.length && hand[i + n] === hand[i]) n++; return n; };
    const longest = hand.reduce((most, code, i) => (i > 0 && hand[i - 1] === code ? most : Math.max(most, run(i))), 0);
    this.hand.classList.toggle("crowded", hand.length > 9 || longest > 4);
    const cards = hand.map((code, i) => {
      const selectable = canAct && legal.cards.has(code);
      const fresh = !freshDone && this.fresh.hand === code;
      if (fresh) freshDone = true;
      return cardEl(code, {
        tag: "button",
        size: "lg",
        cls: [
          selectable ? "selectable" : "",
          this.selected === code ? "selected" : "",
          fresh ? "fresh" : "",
          i > 0 && hand[i - 1] === code ? "same" : "",
        ]
          .filter(Boolean)
          .join(" "),
        attrs: {
          type: "button",
          disabled: !selectable,
          "aria-pressed": this.selected === code ? "true" : "false",
          "data-key": `hand-${code}-${i}`,
          onclick: () => {
            this.select(code);
          },
          onkeydown: (e) => {
            if (e.key === "Enter" || e.key === " ") this.keyboardSelect = true;
          },
        },
      });
    });
    // Copies of one card go in one run, which wraps as a whole: a copy that overlaps its twin
    // never starts a row, where it would hang out of the hand.
    const runs = [];
    cards.forEach((card, i) => {
      if (i > 0 && hand[i - 1] === hand[i]) runs[runs.length - 1].append(card);
      else runs.push(h("span.run", card));
    });
    fill(this.hand, runs.length ? runs : h("p.empty", t("dig.emptyHand")));
    this.hand.setAttribute("aria-label", t("dig.yourHand"));

    const buttons = [];
    buttons.push(
      h(
        "button.btn.primary",
        {
          type: "button",
          disabled: !(canAct && legal.draw),
          "data-action": "draw",
          "data-key": "act-draw",
          onclick: () => this.play("draw"),
        },
        t("dig.draw"),
        h("kbd", "D"),
      ),
    );
    if (view.partnership) {
      buttons.push(
        h(
          "button.btn",
          {
            type: "button",
            class: { target: !!(canAct && sel && sel.pass) },
            disabled: !(canAct && sel && sel.pass),
            "data-action": "pass",
            "data-move": sel && sel.pass ? sel.pass : null,
            "data-key": "act-pass",
            onclick: () => sel && this.play(sel.pass),
          },
          t("dig.passPartner"),
          h("kbd", "P"),
        ),
      );
    }
    if (canAct && legal.skip) {
      buttons.push(
        h("button.btn.primary", { type: "button", "data-action": "skip", onclick: () => this.play("skip") },
          t("dig.skip")),
      );
    }
    if (this.selected) {
      buttons.push(
        h(
          "button.btn.ghost",
          { type: "button", "data-action": "cancel", onclick: () => this.select(this.selected) },
          t("common.cancel"),
          h("kbd", "Esc"),
        ),
      );
    }
    fill(this.actions, buttons);

    let hint;
    if (!myTurn) hint = view.to_move >= 0 ? t("dig.hintWait") : "";
    else if (this.pending) hint = t("table.sending");
    else if (legal.skip) hint = t("dig.hintSkip");
    else if (this.selected) {
      const only = sel && sel.targets.size === 0 && sel.pass;
      hint = t(only ? "dig.hintPassOnly" : "dig.hintTarget", { card: cardName(this.selected) });
    } else hint = legal.draw ? t("dig.hintTurn") : t("dig.hintTurnNoDraw");
    this.hint.textContent = hint;
  }

  sides(view) {
    // Partnership: one column per team (the engine's teams); otherwise one per seat.
    if (view.partnership) {
      return [0, 1].map((team) => {
        const seats = [...Array(view.players).keys()].filter((s) => view.teams[s] === team);
        return {
          label: `${t(`dig.team${"AB"[team]}`)}`,
          title: seats.map((s) => this.ctx.name(s)).join(" + "),
          seats,
        };
      });
    }
    return [...Array(view.players).keys()].map((s) => ({ label: this.ctx.name(s), title: "", seats: [s] }));
  }

  renderScores(view, table) {
    const sides = this.sides(view);
    const sum = (arr, seats) => seats.reduce((a, s) => a + (arr[s] || 0), 0);
    const rows = (view.history || []).map((hand, i) =>
      h("tr", h("th", { scope: "row" }, t("dig.handNo", { n: i + 1 })), sides.map((sd) => h("td", sum(hand, sd.seats)))),
    );
    const playing = table.status === "playing" && view.hand_no >= 0 && view.to_move >= 0;
    if (playing) {
      rows.push(
        h(
          "tr.current",
          h("th", { scope: "row" }, t("dig.thisHand")),
          sides.map((sd) => h("td", sum(view.points, sd.seats))),
        ),
      );
    }
    const winners = new Set(view.winners || []);
    fill(
      this.scores,
      h("h2", t("dig.scores")),
      h(
        "table.score-table",
        h(
          "thead",
          h("tr", h("th", { scope: "col" }, ""), sides.map((sd) => h("th", { scope: "col", title: sd.title }, sd.label))),
        ),
        h("tbody", rows),
        h(
          "tfoot",
          h(
            "tr",
            h("th", { scope: "row" }, t("dig.total")),
            sides.map((sd) =>
              h("td", { class: { winner: sd.seats.some((s) => winners.has(s)) } }, sum(view.totals, sd.seats)),
            ),
          ),
        ),
      ),
      h("p.muted", t("dig.targetLong", { n: view.target })),
      view.discard && view.discard.length
        ? h("details.discard", h("summary", t("dig.discard", { n: view.discard.length })),
          h("div.mini-cards", view.discard.map((c) => cardEl(c, { size: "xs" }))))
        : null,
    );
  }

  // ------------------------------------------------------------------
  // End of a hand, end of the game
  // ------------------------------------------------------------------
  showScoring(ev, msg) {
    const sides = this.sides(msg.view);
    // The update that scores a hand already holds the next deal, so the scored table comes
    // from the event itself: every mine as it lay, open ones scoring nothing.
    const table = ev.table || ev.mines.map((x) => ({ name: x.mine, owner: x.owner, closed: true, points: x.points }));
    const rows = table.map((m) => h(
      "tr",
      { class: { unscored: !m.closed } },
      h("th", { scope: "row" }, m.name),
      h("td", m.metal
        ? h("span.mini-cards", cardEl(`M${m.metal[0].toUpperCase()}`, { size: "xs" }),
          (m.chests || []).map((c) => cardEl(c, { size: "xs" })))
        : ""),
      h("td", this.ctx.name(m.owner)),
      h("td", m.closed ? t("dig.closed") : t("dig.openNoPoints")),
      h("td.num", String(m.points)),
    ));
    const sum = (arr, seats) => seats.reduce((a, x) => a + (arr[x] || 0), 0);
    const body = [
      h(
        "table.scoring-table",
        h("thead", h("tr", h("th", t("dig.mine")), h("th", t("dig.cards")), h("th", t("dig.owner")), h("th", ""),
          h("th", t("dig.points")))),
        h("tbody", rows.length ? rows : h("tr", h("td", { colspan: 5 }, t("dig.noMinesHand")))),
      ),
      h(
        "table.score-table",
        h("thead", h("tr", h("th", ""), sides.map((sd) => h("th", { title: sd.title }, sd.label)))),
        h(
          "tbody",
          h("tr", h("th", t("dig.thisHand")), sides.map((sd) => h("td", sum(ev.points, sd.seats)))),
          h("tr", h("th", t("dig.total")), sides.map((sd) => h("td", sum(ev.totals, sd.seats)))),
        ),
      ),
    ];
    this.lastScored = ev;
    // The result follows the last hand's scoring however that dialog is closed: Continue, Escape or
    // a click outside (the game-over dialog holds Play again, the replay and the record).
    const then = () => {
      if (this.gameOverAfterScoring) {
        this.gameOverAfterScoring = false;
        setTimeout(() => this.showGameOver(this.msg), 0);
      }
    };
    modal(t("dig.handScored", { n: ev.hand + 1 }), body, [{ label: t("common.continue"), primary: true }],
      { cls: "scoring", onClose: then });
  }

  showGameOver(msg) {
    this.shownGameOver = true;
    const view = msg.view;
    this.ctx.gameOver(msg, t((view.winners || []).length === 1 ? "dig.gameOverOne" : "dig.gameOver", { winners: this.winnerNames(view) }));
  }
}
