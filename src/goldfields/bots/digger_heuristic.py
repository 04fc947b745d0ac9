"""A Digger bot with a human's stop rule.

After each roll it grabs what the dice offer, one token at a time, best first:
a gem is worth its value on our crate, and when black shows once a gem is
rather **stolen from the leader** (our gain plus the leader's loss, weighed by
how dangerous that opponent is). Blue is only taken while we lead: it scores
nothing, but boxing it brings the end of the game nearer.

Then the **stop rule** weighs the haul, the time used and the chance of a
time-out. The digger cannot see the hourglass, so it reckons the time from
what it has done (rolls thrown and tokens taken, at the time model's costs),
with the spread a jittered clock gives those costs, and compares

* stopping now: the haul is banked unless the stop is already late;
* rolling once more and then stopping: the haul plus what a roll brings on
  average, all lost if the stop comes after the hourglass.

It rolls while the second is worth more.

Under the rule options it plans with them too: with ``knock_probability`` a
steal may lose the whole haul, so it steals only when the gain outweighs that
risk. With ``stack_seconds`` a stop is in time when called, and then keeps the
tokens stacked before the sand runs out (the best first): a token is grabbed
when the chance that each token's stacking ends in time says so, and the stop
rule counts the rule's stacking time (all or nothing, which rolled on less
and won more than counting the tokens kept; benchmarks/bench_digger_rules.py).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, ClassVar

from ..clocks import DEFAULT_TIME_MODEL, TimeModel
from ..core.game import SeatView
from ..digger.actions import DECODED, K_STEAL, K_TAKE, ROLL, STOP
from ..digger.dice import FACES, GEMS, TOKEN_COLOURS
from ..digger.state import DiggerState
from .base import Bot, Budget, legal_actions_of, param

P_UNIQUE = 5 * (1 / 6) * (5 / 6) ** 4
"""Chance that a given colour shows on exactly one of five dice."""
P_UNIQUE_WITH_BLACK = 5 * 4 * (1 / 6) ** 2 * (4 / 6) ** 3
"""Chance that a given colour and black each show on exactly one die (the colour can be stolen)."""


def rule(d: dict[str, Any], name: str) -> float:
    """A rule option of the table (``options`` in the observation; 0 when off)."""
    return float(d.get("options", {}).get(name, 0.0))


def late_probability(mean: float, sd: float, limit: float) -> float:
    """P(time > limit) for a normal reckoning of the time."""
    if sd <= 0:
        return 0.0 if mean <= limit else 1.0
    return 0.5 * math.erfc((limit - mean) / (sd * math.sqrt(2)))


@dataclass
class DiggerHeuristic(Bot):
    """Greedy grabbing, steals from the leader, and a one-roll look-ahead stop rule."""

    name: ClassVar[str] = "heuristic"
    quick: ClassVar[bool] = True
    jitter: float = param(0.2, 0.0, 1.0, high_open=True)
    """The spread the bot assumes on each cost of the clock (the arena's clock uses 0.2)."""
    margin: float = param(0.0, -100.0, 100.0)
    """Extra gain (points) a roll must promise before the bot risks it: > 0 is more careful."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.jitter < 1.0:
            raise ValueError("jitter must be in [0, 1)")

    @property
    def model(self) -> TimeModel:
        return DEFAULT_TIME_MODEL

    def act(self, view: SeatView, rng: random.Random, budget: Budget | None = None) -> int:
        legal = legal_actions_of(view)
        if len(legal) == 1:
            return legal[0]
        return self.choose(view.data, legal)

    def choose(self, d: dict[str, Any], legal: list[int]) -> int:
        """The decision from the observation's facts (``view.data``, or :func:`facts` of a state)."""
        grab = self.best_grab(d, legal)
        if grab is not None:
            return grab
        return ROLL if self.should_roll(d) else STOP

    # -- what a token is worth ------------------------------------------------
    def grab_value(self, d: dict[str, Any], action: int) -> float:
        me = d["seat"]
        kind, colour, victim = DECODED[action]
        letter = FACES[colour]
        scores = d["scores"]
        if letter == "B":
            others = [s for i, s in enumerate(scores) if i != me]
            return 1.0 if scores[me] >= max(others) else -1.0
        value = float(d["values"][me][letter])
        if kind == K_STEAL:
            # The victim's loss counts in full if it is the strongest opponent, half otherwise.
            top = max(s for i, s in enumerate(scores) if i != me)
            weight = 1.0 if scores[victim] >= top else 0.5
            value += weight * d["values"][victim][letter]
        return value

    def best_grab(self, d: dict[str, Any], legal: list[int]) -> int | None:
        grabs = [a for a in legal if DECODED[a][0] in (K_TAKE, K_STEAL)]
        if not grabs:
            return None
        best = max(grabs, key=lambda a: (self.grab_value(d, a), -a))
        value = self.grab_value(d, best)
        if value <= 0:
            return None
        # A token costs time to take and to stack: grab it only if the stop stays safe enough.
        m = self.model
        haul = d["tokens_taken"]
        now = m.estimate(d["rolls"], haul)
        at_risk = self.haul_value(d)
        # G5 option: a steal knocks a pile, and loses the haul, with this chance.
        kept = 1.0 - rule(d, "knock_probability") if DECODED[best][0] == K_STEAL else 1.0
        if rule(d, "stack_seconds"):
            letter = FACES[DECODED[best][1]]
            own = -math.inf if letter == "B" else float(d["values"][d["seat"]][letter])  # blue stacks last
            held = self.haul_tokens(d)
            stop_now = self.banked(d, now, self.sd(d, 0, 0), held)
            later = self.banked(d, now + m.take, self.sd(d, 0, 1), [*held, (own, value)])
            return best if kept * later > stop_now else None
        p_now = late_probability(now + m.stack * haul, self.sd(d, 0, 0), self.hourglass(d))
        after = now + m.take + m.stack * (haul + 1)
        p_after = late_probability(after, self.sd(d, 0, 1), self.hourglass(d))
        if kept * (1 - p_after) * (at_risk + value) <= (1 - p_now) * at_risk:
            return None
        return best

    def haul_value(self, d: dict[str, Any]) -> float:
        me = d["seat"]
        return sum(k * d["values"][me][c] for c, k in d["haul"].items() if c != "B") + 0.5 * d["haul"]["B"]

    def haul_tokens(self, d: dict[str, Any]) -> list[tuple[float, float]]:
        """The haul token by token, as ``(value on our card, value to us)``; blue (0.5 to us) stacks last."""
        me = d["seat"]
        gems = [(float(d["values"][me][c]), float(d["values"][me][c])) for c, k in d["haul"].items() if c != "B"
                for _ in range(k)]  # fmt: skip
        return [*gems, *[(-math.inf, 0.5)] * d["haul"]["B"]]

    def banked(self, d: dict[str, Any], mean: float, sd: float, tokens: list[tuple[float, float]]) -> float:
        """G3 option ``stack_seconds``: what a stop called at a time reckoned as ``mean`` (spread
        ``sd``) banks on average. The best gems are stacked first, one every ``stack_seconds``
        from the stop, and the k-th is kept if its stacking ends before the sand runs out."""
        each = rule(d, "stack_seconds")
        limit = self.hourglass(d)
        ordered = sorted(tokens, key=lambda t: -t[0])
        return sum(v * (1 - late_probability(mean, sd, limit - k * each)) for k, (_, v) in enumerate(ordered, 1))

    # -- the stop rule ----------------------------------------------------------
    def hourglass(self, d: dict[str, Any]) -> float:
        """The table's hourglass, which every seat knows (how much of it has run is what the
        digger cannot see). A bot that planned with 30 s at a 20 s table lost nearly every haul,
        and its games hardly ended."""
        return float(d.get("time_limit", self.model.limit))

    def sd(self, d: dict[str, Any], extra_rolls: int, extra_tokens: int) -> float:
        """Spread of the true time around the reckoning: each cost varies by +-jitter, uniformly."""
        m = self.model
        rolls = max(0, d["rolls"] - 1) + extra_rolls
        tokens = d["tokens_taken"] + extra_tokens
        var = (rolls * m.roll**2 + tokens * m.take**2) * self.jitter**2 / 3
        return math.sqrt(var)

    def expected_roll_gain(self, d: dict[str, Any]) -> tuple[float, float]:
        """What one more roll brings on average: (points, tokens), steals included
        (late in the game the centre runs out of gems and stealing is all there is)."""
        me = d["seat"]
        scores = d["scores"]
        top = max(s for i, s in enumerate(scores) if i != me)
        knock = rule(d, "knock_probability")
        at_risk = self.haul_value(d) if knock else 0.0
        gain = 0.0
        tokens = 0.0
        for letter in "YRGW":
            mine = d["values"][me][letter]
            take = mine if d["centre"][letter] else 0.0
            steal = max(
                (mine + (1.0 if scores[v] >= top else 0.5) * d["values"][v][letter]
                 for v, crate in enumerate(d["crates"]) if v != me and crate[letter]),
                default=0.0,
            )
            if knock:
                steal = (1 - knock) * steal - knock * at_risk  # what a steal adds, the haul it may knock over weighed
            gain += P_UNIQUE * take + P_UNIQUE_WITH_BLACK * max(0.0, steal - take)
            tokens += P_UNIQUE * (take > 0) + P_UNIQUE_WITH_BLACK * (steal > take and take == 0)
        return gain, tokens

    def should_roll(self, d: dict[str, Any]) -> bool:
        m = self.model
        haul = d["tokens_taken"]
        at_risk = self.haul_value(d)
        now = m.estimate(d["rolls"], haul)
        # Under the timed-stacking option the stacking takes the rule's time after the stop. The
        # haul is still weighed all or nothing here: counting the tokens a late stacking keeps
        # rolled on too long (benchmarks/bench_digger_rules.py; docs/digger.md).
        stack = rule(d, "stack_seconds") or m.stack
        p_stop_now = late_probability(now + stack * haul, self.sd(d, 0, 0), self.hourglass(d))
        gain, tokens = self.expected_roll_gain(d)
        later = now + m.roll + m.take * tokens + stack * (haul + tokens)
        p_stop_later = late_probability(later, self.sd(d, 1, round(tokens)), self.hourglass(d))
        return (1 - p_stop_later) * (at_risk + gain) > (1 - p_stop_now) * at_risk + self.margin


def facts(st: DiggerState, values: list[dict[str, int]] | None = None) -> dict[str, Any]:
    """The part of the digger's observation the heuristic reads, built straight from a
    (determinised) state: much cheaper than ``observation()`` inside a search."""
    if values is None:
        values = [{FACES[c]: v[c] for c in GEMS} for v in st.values]
    return {
        "seat": st.digger,
        "values": values,
        "scores": st.scores(),
        "centre": {FACES[c]: st.centre[c] for c in TOKEN_COLOURS},
        "crates": [{FACES[c]: crate[c] for c in GEMS} for crate in st.crates],
        "haul": {FACES[c]: st.haul[c] for c in TOKEN_COLOURS},
        "rolls": st.requests(),
        "tokens_taken": st.haul_size,
        "time_limit": st.limit,
        "options": {"knock_probability": st.knock_probability, "stack_seconds": st.options.stack_seconds},
    }
