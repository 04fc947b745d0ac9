// The end of a game in figures: who won, every hand's points per side, and a chart of the
// totals as the game went. Drawn from GET /api/tables/{id}/summary (or a replay's summary).

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The sides that win together, each with a label: a team's seats, or a seat alone. */
export function sideLabels(summary, name) {
  const teams = summary.sides.length < summary.players;
  return summary.sides.map((seats, i) => ({
    seats,
    label: teams ? t("sum.team", { letter: String.fromCharCode(65 + i), names: seats.map(name).join(" & ") }) : name(seats[0]),
  }));
}

const total = (scores, seats) => seats.reduce((a, s) => a + (scores[s] || 0), 0);

/** The summary's body: the hands table and the chart. */
export function summaryView(summary, name) {
  const sides = sideLabels(summary, name);
  const winners = new Set(summary.winners || []);
  const head = h("tr", h("th", ""), sides.map((sd) => h("th", { class: { winner: sd.seats.some((s) => winners.has(s)) } }, sd.label)));
  const rows = summary.hands.length > 1
    ? summary.hands.map((points, i) => h("tr", h("th", { scope: "row" }, t("sum.hand", { n: i + 1 })),
      sides.map((sd) => h("td.num", String(total(points, sd.seats))))))
    : [];
  rows.push(h("tr.total", h("th", { scope: "row" }, t("sum.total")), sides.map((sd) => h("td.num", String(total(summary.scores, sd.seats))))));
  return h(
    "div.summary",
    h("div.hands-scroll", h("table.score-table.hands-table", h("thead", head), h("tbody", rows))),
    chart(summary, sides),
  );
}

/** A line per side: its total after each hand (Digging) or each change of score (Digger). */
export function chart(summary, sides) {
  const byHand = summary.hands.length > 1;
  const { points, labels } = byHand ? handPoints(summary) : { points: summary.progress || [], labels: [] };
  if (points.length < 2) return null;
  const W = 420;
  const H = 200;
  const pad = { l: 34, r: 12, t: 10, b: 28 };
  const series = sides.map((sd) => points.map((p) => total(p.scores, sd.seats)));
  const top = Math.max(1, ...series.flat());
  const lo = Math.min(0, ...series.flat());
  const x = (i) => pad.l + (i * (W - pad.l - pad.r)) / (points.length - 1);
  const y = (v) => H - pad.b - ((v - lo) * (H - pad.t - pad.b)) / (top - lo);
  const ticks = [lo, Math.round((lo + top) / 2), top].filter((v, i, a) => a.indexOf(v) === i);
  return h(
    "figure.score-chart",
    h(
      "svg",
      { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("sum.chartLabel") },
      ticks.map((v) => h("g.tick",
        h("line", { x1: pad.l, x2: W - pad.r, y1: y(v), y2: y(v) }),
        h("text", { x: pad.l - 6, y: y(v) + 4, "text-anchor": "end" }, String(v)))),
      byHand
        ? labels.map((label, i) => (label ? h("text.xlabel", { x: x(i), y: H - 8, "text-anchor": "middle" }, label) : null))
        : null,
      series.map((values, k) => h(`g.series.series-${k}`,
        h("polyline", { points: values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ") }),
        h("circle", { cx: x(values.length - 1), cy: y(values[values.length - 1]), r: 3.5 }))),
    ),
    h("figcaption",
      h("span.muted", byHand ? t("sum.axisHands") : t("sum.axisTurns")),
      h("span.legend", sides.map((sd, k) => h(`span.key.series-${k}`, sd.label)))),
  );
}

/**
 * The totals after each hand, from the hands' points: a point for every hand, a 0-0 hand too,
 * each labelled with its hand's number (the first point is the start, unlabelled). With many
 * hands only every few are labelled, and always the last. If the hands do not add up to the
 * final scores (a summary from another version of the server), the score changes of
 * summary.progress are drawn, each labelled with the hand it names (found from the totals
 * when a server too old to name it sent the summary).
 */
function handPoints(summary) {
  const n = summary.players;
  const totals = [new Array(n).fill(0)];
  for (const hand of summary.hands) totals.push(totals[totals.length - 1].map((v, s) => v + (hand[s] || 0)));
  const same = (a, b) => a.length === b.length && a.every((v, s) => v === (b[s] || 0));
  const every = Math.max(1, Math.ceil(summary.hands.length / 20));
  const label = (k, last) => (k > 0 && (k === last || k % every === 0) ? String(k) : "");
  if (same(totals[totals.length - 1], summary.scores)) {
    const last = totals.length - 1;
    return { points: totals.map((scores) => ({ scores })), labels: totals.map((_, k) => label(k, last)) };
  }
  const points = summary.progress || [];
  // Without its hand, a change of score follows the first hand whose totals it shows (a 0-0
  // hand changes nothing). The first point is the start, before any hand is scored.
  const hands = points.map((p, i) => (i === 0 ? 0 : p.hand ?? totals.findIndex((tot) => same(tot, p.scores))));
  return { points, labels: hands.map((k) => (k > 0 ? String(k) : "")) };
}
