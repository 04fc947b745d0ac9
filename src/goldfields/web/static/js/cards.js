// Digging's cards, drawn with CSS and the SVG sprite: metal colours, double chests marked,
// the bandit's value big. Card codes are those of docs/notation.md.

import { h, icon } from "./dom.js";
import { t } from "./i18n.js";

const METAL = { G: "gold", S: "silver", C: "copper" };
export const METAL_VALUE = { G: 3, S: 2, C: 1 };

/** {kind: mine|chest|double|close|bandit, metal: G|S|C|null, value} for a card code. */
export function parseCard(code) {
  if (code === "X") return { kind: "close", metal: null, value: 0 };
  if (code[0] === "B") return { kind: "bandit", metal: null, value: Number(code.slice(1)) };
  if (code[0] === "M") return { kind: "mine", metal: code[1], value: 0 };
  if (code.length === 2) return { kind: "double", metal: code[0], value: 2 * METAL_VALUE[code[0]] };
  return { kind: "chest", metal: code[0], value: METAL_VALUE[code[0]] };
}

/** A card in words, in the current language ("double gold chest"). */
export function cardName(code) {
  const c = parseCard(code);
  if (c.kind === "close") return t("card.close");
  if (c.kind === "bandit") return t("card.bandit", { value: c.value });
  return t(`card.${c.kind}.${c.metal}`);
}

export const metalLetter = (name) => ({ gold: "G", silver: "S", copper: "C" })[name] || name;

/** The corner's short mark in the current language ("MG" is "MO" in French); bandits show their value. */
function cornerText(c) {
  if (c.kind === "bandit") return String(c.value);
  if (c.kind === "close") return "X";
  const metal = t(`card.initial.${c.metal}`);
  if (c.kind === "mine") return t("card.initial.mine") + metal;
  return c.kind === "double" ? metal + metal : metal;
}

/**
 * A card element. opts: {tag: "button"|"div", size: "lg"|"md"|"sm"|"xs", attrs, cls}.
 */
export function cardEl(code, opts = {}) {
  const c = parseCard(code);
  const size = opts.size || "md";
  const classes = ["card", `card-${size}`, `card-${c.kind}`];
  if (c.metal) classes.push(`metal-${METAL[c.metal]}`);
  if (opts.cls) classes.push(opts.cls);
  const tag = opts.tag || "div";
  const attrs = {
    class: classes.join(" "),
    "data-card": code,
    "aria-label": cardName(code),
    title: cardName(code),
    ...(opts.attrs || {}),
  };
  if (tag === "div") attrs.role = "img";
  const el = h(tag, attrs);
  const corner = h("span.card-corner", cornerText(c));
  if (c.kind === "bandit") {
    // Two digits are narrower and set lower, clear of the corner's number.
    el.append(corner, h(c.value >= 10 ? "span.card-big.two-digits" : "span.card-big", String(c.value)),
      icon("bandit", "card-icon"));
  } else if (c.kind === "close") {
    el.append(corner, icon("planks", "card-icon"), h("span.card-label", t("card.closeShort")));
  } else if (c.kind === "mine") {
    el.append(corner, icon("mine", "card-icon"), h("span.card-label", t(`metal.${c.metal}`)));
  } else if (c.kind === "double") {
    el.append(
      corner,
      h("span.card-icons", icon("chest", "card-icon"), icon("chest", "card-icon")),
      h("span.card-badge", "×2"),
    );
  } else {
    el.append(corner, icon("chest", "card-icon"), h("span.card-value", String(c.value)));
  }
  return el;
}

/** The back of a card (the pile, other players' hands). */
export function cardBack(size = "md", label = "") {
  return h(`div.card.card-${size}.card-back`, { role: label ? "img" : null, "aria-label": label || null },
    icon("pickaxe", "card-icon"));
}
