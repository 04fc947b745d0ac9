// The Digger table: five dice and the roll button, colours showing once highlighted, the
// supply in the centre, every crate with its values and tokens, the haul at risk, steal
// targets, and the hourglass for everyone but the digger (it is hidden from the digger, G2).
// Moves are the observation's `legal` strings (roll, stop, take Y, steal Y 2): the server
// adds the dice and the times.

import { fill, h, icon, reducedMotion, toast } from "./dom.js";
import { num, t } from "./i18n.js";
import { narrate } from "./narrate.js";

export function mount(root, ctx) {
  return new DiggerView(root, ctx);
}

const TOKEN_COLOURS = ["B", "Y", "R", "G", "W"];
const GEMS = ["Y", "R", "G", "W"];

/** {roll, stop, takes: Map(colour -> move), steals: Map("colour seat" -> move)} */
export function readLegal(legal) {
  const out = { roll: null, stop: null, takes: new Map(), steals: new Map() };
  for (const move of legal || []) {
    const w = move.split(/\s+/);
    if (w[0] === "roll") out.roll = move;
    else if (w[0] === "stop") out.stop = move;
    else if (w[0] === "take") out.takes.set(w[1], move);
    else if (w[0] === "steal") out.steals.set(`${w[1]} ${w[2]}`, move);
  }
  return out;
}

function token(colour, count, opts = {}) {
  return h(
    `span.token.tok-${colour}`,
    { title: t(`colour.${colour}`), "aria-label": count === null ? t(`colour.${colour}`) : `${count} ${t(`colour.${colour}`)}`,
      role: "img", ...opts },
    h("span.tok-letter", { "aria-hidden": "true" }, t(`face.${colour}`)),
    count !== null ? h("span.tok-count", { "aria-hidden": "true" }, String(count)) : null,
  );
}

class DiggerView {
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    this.msg = null;
    this.pending = false;
    this.rolling = false;
    this.anchor = null; // performance.now() at the turn's first roll, as far as we can tell
    this.anchorTurn = null;

    this.banner = h("div.turn-banner", { "aria-live": "polite" });
    this.hourglass = h("div.hourglass");
    this.dice = h("div.dice", { role: "group" });
    this.controls = h("div.dg-controls");
    this.centre = h("section.panel.centre");
    this.haul = h("section.panel.haul");
    this.crates = h("div.crates");
    this.scores = h("section.panel.scores");
    fill(
      root,
      h(
        "div.dg",
        this.banner,
        h("div.dg-top", h("section.panel.tray", this.dice, this.controls), this.hourglass),
        h("div.dg-middle", this.centre, this.haul),
        this.crates,
      ),
    );
    ctx.side.prepend(this.scores);
    this.tick = setInterval(() => this.renderHourglass(), 200);
  }

  get me() {
    return this.ctx.seat;
  }

  destroy() {
    clearInterval(this.tick);
    this.scores.remove();
  }

  setPending(value) {
    this.pending = value;
    if (this.msg) this.render();
  }

  relabel() {
    if (this.msg) this.render();
  }

  update(msg) {
    this.msg = msg;
    this.pending = false;
    const view = msg.view;
    const now = performance.now();
    // The hourglass: the server's live figure (clock.hourglass_left, sent to everyone but the
    // digger), else the time of the last timed step as the observation gives it.
    const clock = msg.clock || {};
    if (typeof clock.hourglass_left === "number") {
      const limit = typeof clock.hourglass_limit === "number" ? clock.hourglass_limit : view.time_limit;
      this.anchor = now - (limit - clock.hourglass_left) * 1000;
    } else if (!view.started) {
      this.anchor = null;
    } else if (typeof view.elapsed === "number") {
      const stamped = (msg.events || []).some((e) => typeof e.at === "number");
      if (msg.full || stamped || this.anchor === null || this.anchorTurn !== view.turn) {
        this.anchor = now - view.elapsed * 1000;
      }
    }
    this.anchorTurn = view.turn;
    if (!msg.full && msg.events.some((e) => e.kind === "roll") && !reducedMotion()) {
      this.rolling = true;
      setTimeout(() => {
        this.rolling = false;
        this.dice.querySelectorAll(".die.rolling").forEach((d) => d.classList.remove("rolling"));
      }, 450);
    }
    this.render();
    // The sand running out loses a whole haul: said aloud, not only as a line in the log.
    const out = msg.full ? null : msg.events.find((e) => e.kind === "timeout");
    if (out) {
      toast(narrate("digger", out, this.ctx.name) || t("dg.sandOut"), "sand", 7000);
    }
    if (!msg.full && msg.events.some((e) => e.kind === "game_over")) this.showGameOver(msg);
    else if (msg.full && msg.table.status === "finished" && !this.shown) this.showGameOver(msg);
  }

  play(move) {
    if (this.pending || !move) return;
    if (this.ctx.send(move)) {
      this.pending = true;
      this.render();
    }
  }

  key(event) {
    if (!this.msg || this.msg.table.status !== "playing") return false;
    const legal = readLegal(this.msg.view.legal);
    const k = event.key.toLowerCase();
    if (k === "r" && legal.roll) {
      this.play(legal.roll);
      return true;
    }
    if (k === "s" && legal.stop) {
      this.play(legal.stop);
      return true;
    }
    return false;
  }

  render() {
    // Every render rebuilds the controls: keep a keyboard player's place among them (Digging does
    // the same), through the moment a move is sent and every button is disabled.
    const active = document.activeElement;
    if (active && this.root.contains(active) && active.dataset.key) this.focusKey = active.dataset.key;
    else if (active && active !== document.body) this.focusKey = null; // the player went elsewhere (the chat)
    const { view, table } = this.msg;
    const legal = readLegal(view.legal);
    const digging = this.me !== null && view.to_move === this.me && table.status === "playing";
    const canAct = digging && !this.pending;
    this.renderBanner(view, table, digging);
    this.renderDice(view);
    this.renderControls(view, legal, canAct, digging);
    this.renderCentre(view, legal, canAct);
    this.renderHaul(view);
    this.renderCrates(view, table, legal, canAct);
    this.renderScores(view);
    this.renderHourglass();
    // For tests and tools: where the turn stands.
    const dg = this.root.querySelector(".dg");
    dg.dataset.rolls = String(view.rolls);
    dg.dataset.haul = String(TOKEN_COLOURS.reduce((a, c) => a + view.haul[c], 0));
    if (this.focusKey && (!document.activeElement || document.activeElement === document.body)) {
      // The same control if it is still there (the next roll), else the roll button.
      const again = this.root.querySelector(`[data-key="${CSS.escape(this.focusKey)}"]:not([disabled])`)
        || this.root.querySelector('[data-key="roll"]:not([disabled])');
      if (again) again.focus({ preventScroll: true });
    }
  }

  renderBanner(view, table, digging) {
    let text;
    if (table.status === "waiting") text = h("strong", t("table.waitingPlayers"));
    else if (["expired", "abandoned", "stopped"].includes(table.status)) text = h("strong", t(`status.${table.status}`));
    else if (view.winners) text = h("strong", t(view.winners.length === 1 ? "dg.gameOverOne" : "dg.gameOver", { names: this.names(view.winners) }));
    else if (digging && !this.ctx.replay) text = h("strong.your-turn", t("dg.yourDig")); // a replay's seat is not "you"
    else text = h("span", t("dg.digging", { name: this.ctx.name(view.digger) }));
    fill(
      this.banner,
      h("div.banner-turn", text),
      h("div.banner-info", h("span", t("dg.turnNo", { n: view.turn + 1 })), h("span", t("dg.rollNo", { n: view.rolls }))),
    );
    this.banner.classList.toggle("mine-turn", digging);
  }

  names(seats) {
    return seats.map((s) => this.ctx.name(s)).join(` ${t("common.and")} `);
  }

  renderDice(view) {
    const unique = new Set(view.unique || []);
    const used = new Set(view.used || []);
    const faces = view.dice ? view.dice.split("") : [];
    const dice = [];
    for (let i = 0; i < 5; i++) {
      const face = faces[i];
      if (!face) {
        dice.push(h("span.die.blank", { role: "img", "aria-label": t("dg.notRolled") }, "?"));
        continue;
      }
      const once = face === "K" ? view.black_unique : unique.has(face);
      dice.push(
        h(
          `span.die.face-${face}`,
          {
            class: { unique: once, used: used.has(face), rolling: this.rolling },
            role: "img",
            "aria-label": `${t(`colour.${face}`)}${once ? ` (${t("dg.once")})` : ""}`,
            title: t(`colour.${face}`),
          },
          h("span.die-letter", { "aria-hidden": "true" }, t(`face.${face}`)),
          once ? h("span.die-mark", face === "K" ? t("dg.stealMark") : "1") : null,
        ),
      );
    }
    const caption = view.dice
      ? view.unique.length || view.black_unique
        ? t("dg.uniqueLine", {
          colours: view.unique.map((c) => t(`colour.${c}`)).join(", ") || t("dg.none"),
        }) + (view.black_unique ? ` ${t("dg.blackLine")}` : "")
        : t("dg.nothingOnce")
      : t("dg.noDice");
    fill(this.dice, h("div.dice-row", dice), h("p.dice-caption", caption));
    this.dice.setAttribute("aria-label", t("dg.dice"));
  }

  renderControls(view, legal, canAct, digging) {
    if (!digging) {
      // A spectator is not shown the hourglass (the digger could be watching), so it is not told it sees it.
      const key = this.me === null ? "dg.spectateDig" : "dg.watchDig";
      // The digger's own seat before the game starts (or at a table that expired): no one else digs.
      const idle = view.winners || view.digger === this.me;
      fill(this.controls, idle ? null : h("p.hint", t(key, { name: this.ctx.name(view.digger) })));
      return;
    }
    const takes = [...legal.takes.entries()].map(([c, move]) =>
      h(
        "button.btn.target.take",
        { type: "button", disabled: !canAct, "data-move": move, "data-key": `take ${c}`, onclick: () => this.play(move) },
        token(c, null, { "aria-hidden": "true" }), // the words say the colour
        " ",
        t("dg.take", { colour: t(`colour.${c}`) }),
      ),
    );
    // A colour showing once whose supply is empty: no gem to take, and the player is told why.
    const empty = canAct
      ? (view.unique || [])
        .filter((c) => !legal.takes.has(c) && view.centre && view.centre[c] === 0)
        .map((c) => h(
          "button.btn.take.none-left",
          { type: "button", disabled: true, "data-colour": c },
          token(c, 0),
          " ",
          t("dg.noneLeft", { colour: t(`colour.${c}`) }),
        ))
      : [];
    const steals = [...legal.steals.entries()].map(([key, move]) => {
      const [c, seat] = key.split(" ");
      return h(
        "button.btn.target.steal",
        { type: "button", disabled: !canAct, "data-move": move, "data-key": `steal ${key}`, onclick: () => this.play(move) },
        token(c, null, { "aria-hidden": "true" }),
        " ",
        t("dg.steal", { colour: t(`colour.${c}`), name: this.ctx.name(Number(seat)) }),
      );
    });
    fill(
      this.controls,
      h(
        "div.actions",
        h(
          "button.btn.primary.roll",
          {
            type: "button",
            disabled: !(canAct && legal.roll),
            "data-action": "roll",
            "data-key": "roll",
            "data-move": legal.roll,
            onclick: () => this.play(legal.roll),
          },
          icon("dice"),
          " ",
          view.started ? t("dg.rollAgain") : t("dg.roll"),
          h("kbd", "R"),
        ),
        h(
          "button.btn.stop",
          {
            type: "button",
            disabled: !(canAct && legal.stop),
            "data-action": "stop",
            "data-key": "stop",
            "data-move": legal.stop,
            onclick: () => this.play(legal.stop),
          },
          t("dg.stop"),
          h("kbd", "S"),
        ),
      ),
      takes.length || steals.length || empty.length ? h("div.actions.choices", takes, empty, steals) : null,
      h("p.hint", this.pending ? t("table.sending") : view.started ? t("dg.hintDig") : t("dg.hintStart")),
      this.stackSeconds() ? h("p.hint", t("dg.stackHint", { n: this.stackSeconds() })) : null,
    );
  }

  /** Seconds per token for stacking the haul after "stop" (the G3 rule option; 0 when off). */
  stackSeconds() {
    const options = ((this.msg && this.msg.table.config) || {}).options || {};
    return typeof options.stack_seconds === "number" ? options.stack_seconds : 0;
  }

  renderCentre(view, legal, canAct) {
    const piles = TOKEN_COLOURS.map((c) => {
      const move = legal.takes.get(c);
      const tok = token(c, view.centre[c]);
      if (!move) return h("span.pile-slot", tok);
      return h(
        "button.pile-slot.target",
        {
          type: "button",
          disabled: !canAct,
          "data-move": move,
          "aria-label": t("dg.take", { colour: t(`colour.${c}`) }),
          onclick: () => this.play(move),
        },
        tok,
      );
    });
    fill(
      this.centre,
      h("h2", t("dg.centre")),
      h("div.token-row", piles),
      h("p.muted", icon("crate"), " ", t("dg.box", { n: view.box.B })),
    );
  }

  renderHaul(view) {
    const total = TOKEN_COLOURS.reduce((a, c) => a + view.haul[c], 0);
    fill(
      this.haul,
      h("h2", t("dg.haul")),
      total
        ? h("div.token-row", TOKEN_COLOURS.filter((c) => view.haul[c]).map((c) => token(c, view.haul[c])))
        : h("p.empty", t("dg.haulEmpty")),
      total ? h("p.muted", t("dg.atRisk")) : null,
    );
    this.haul.classList.toggle("at-risk", total > 0);
  }

  renderCrates(view, table, legal, canAct) {
    const side = view.crate_cards === "white" ? "white" : "black";
    const cards = side === "black" ? view.crate_cards.black : [];
    const panels = [...Array(view.players).keys()].map((seat) => {
      const info = table.seats[seat] || {};
      const values = view.values[seat];
      const badges = [];
      if (seat === this.me && !this.ctx.replay) badges.push(h("span.badge.you", t("common.you")));
      if (info.kind === "bot") badges.push(h("span.badge.bot", icon("bot"), " ", t("common.bot")));
      if (info.standin) badges.push(h("span.badge.away", t("table.standin")));
      if (seat === view.digger && !view.winners) badges.push(h("span.badge.chance", t("dg.digger")));
      const gems = GEMS.map((c) => {
        const move = legal.steals.get(`${c} ${seat}`);
        const content = [token(c, view.crates[seat][c]), h("span.value", `×${values[c]}`)];
        if (!move) return h("span.gem-slot", content);
        return h(
          "button.gem-slot.target",
          {
            type: "button",
            disabled: !canAct,
            "data-move": move,
            "aria-label": t("dg.steal", { colour: t(`colour.${c}`), name: this.ctx.name(seat) }),
            onclick: () => this.play(move),
          },
          content,
        );
      });
      return h(
        "section.seat.crate",
        { class: { "to-move": seat === view.digger && !view.winners, me: seat === this.me }, "data-seat": seat },
        h(
          "header.seat-head",
          h("span.seat-name", { title: this.ctx.name(seat) }, h("span.name-text", this.ctx.name(seat))),
          h("span.badges", badges),
          h("span.seat-meta", h("span.crate-card", icon("crate"), " ", side === "white" ? t("dg.whiteCard") : t("lobby.crateCard", { card: cards[seat] })),
            h("span.seat-points", t("dg.pts", { n: view.scores[seat] }))),
        ),
        h("div.gem-row", gems),
      );
    });
    fill(this.crates, panels);
  }

  renderScores(view) {
    const winners = new Set(view.winners || []);
    fill(
      this.scores,
      h("h2", t("dg.scores")),
      h(
        "table.score-table",
        h("tbody",
          [...Array(view.players).keys()].map((s) =>
            h("tr", h("th", { scope: "row" }, this.ctx.name(s)), h("td", { class: { winner: winners.has(s) } }, view.scores[s])))),
      ),
      h("p.muted", t("dg.endRule")),
    );
  }

  renderHourglass() {
    if (!this.msg) return;
    const view = this.msg.view;
    const digging = this.me !== null && view.digger === this.me && !view.winners;
    if (view.winners) {
      fill(this.hourglass);
      this.hourglass.hidden = true;
      return;
    }
    this.hourglass.hidden = false;
    if (digging || view.remaining === null || view.remaining === undefined) {
      // G2: the digger does not see the hourglass, and neither do spectators (one may be the digger).
      const why = this.me === null ? "dg.spectatorGlass" : "dg.hiddenGlass";
      fill(this.hourglass, h("div.glass.hidden-glass", icon("hourglass")), h("p", t(why)));
      this.hourglass.classList.add("hidden-from-me");
      return;
    }
    this.hourglass.classList.remove("hidden-from-me");
    const limit = view.time_limit;
    let left = limit;
    if (view.started && this.anchor !== null) left = Math.max(0, limit - (performance.now() - this.anchor) / 1000);
    const frac = left / limit;
    const urgent = left < 5;
    fill(
      this.hourglass,
      h(
        "div.glass",
        { class: { urgent, running: view.started }, style: { "--sand": frac.toFixed(3) }, role: "timer",
          "aria-label": t("dg.secondsLeft", { n: Math.ceil(left) }) },
        icon("hourglass"),
        h("span.sand"),
      ),
      h("p.glass-time", view.started ? t("dg.secondsLeft", { n: num(left, 1, true) }) : t("dg.glassWaiting")),
    );
  }

  showGameOver(msg) {
    this.shown = true;
    const view = msg.view;
    this.ctx.gameOver(msg, t((view.winners || []).length === 1 ? "dg.gameOverOne" : "dg.gameOver", { names: this.names(view.winners || []) }));
  }
}
