"""A Digging bot that plays like a sensible human.

It scores every legal action and plays the best (ties broken at random):

* **opens** a mine in its own display when it holds chests to fill it;
* lays **chests** on its side's open mines (a double chest first, since a
  leading double doubles the whole mine), never on an opponent's;
* **closes** a mine of its side once the mine is worth a card and a fight
  threatens it, or when the hand is running out, or to save a mine that is
  losing a fight; an opponent's empty mine may be closed to kill it;
* **attacks** rich enemy mines and **defends** its own side's with bandits,
  when the mine is worth the bandit;
* **passes** a card its partner can use when it has nothing better to do (in
  practice once the pile is empty, when passing is the harmless move);
* **counts bandits**: the bandits it cannot see (not in its hand, not known
  in its partner's, not on the table, not discarded) are the only ones the
  others may hold. The bot draws determinisations with ``view.sample(rng)``,
  which deal exactly those unseen cards, and plays each fight out on them
  ("everyone lays the smallest bandit that puts their side ahead") to estimate
  its chances. It reads the hands of those *samples* only, never the real ones.

Everything it knows comes from ``view.data`` (the seat's observation).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..core.game import SeatView
from ..digging import actions as A
from ..digging.cards import CLOSE, CODE_OF, METAL_VALUE, METALS, bandit_value, is_double
from ..digging.state import mine_points
from .base import Bot, Budget, legal_actions_of, param

DRAW_SCORE = 0.0


@dataclass
class _Mine:
    index: int
    metal: int
    owner: int
    chests: list[int]
    closed: bool

    @property
    def value(self) -> int:
        return mine_points(self.metal, self.chests)


@dataclass
class _Fight:
    mine: int
    attacker: int
    owner: int
    bandits: list[tuple[int, int]]
    chances: list[int]


@dataclass
class _Table:
    """The observation, decoded into card codes and small records."""

    me: int
    players: int
    partnership: bool
    hand: list[int]
    mines: list[_Mine]
    fight: _Fight | None
    pile: int
    last_round: int | None
    hand_sizes: list[int]
    partner_holds: list[int]
    discard: list[int]

    @classmethod
    def read(cls, data: dict[str, Any]) -> _Table:
        mines = [
            _Mine(i, METALS.index(m["metal"]), m["owner"], [CODE_OF[c] for c in m["chests"]], m["closed"])
            for i, m in enumerate(data["mines"])
        ]
        f = data["fight"]
        fight = None
        if f is not None:
            fight = _Fight(
                int(f["mine"][1:]) - 1, f["attacker"], f["owner"], [(s, CODE_OF[c]) for s, c in f["bandits"]],
                list(f["chances"]),
            )
        return cls(
            me=data["seat"],
            players=data["players"],
            partnership=data["partnership"],
            hand=[CODE_OF[c] for c in data["hand"]],
            mines=mines,
            fight=fight,
            pile=data["pile"],
            last_round=data["last_round"],
            hand_sizes=list(data["hand_sizes"]),
            partner_holds=[CODE_OF[c] for c in data.get("partner_holds", [])],
            discard=[CODE_OF[c] for c in data["discard"]],
        )

    def team(self, seat: int) -> int:
        return seat % 2 if self.partnership else seat

    def ours(self, seat: int) -> bool:
        return self.team(seat) == self.team(self.me)

    def count(self, code: int) -> int:
        return self.hand.count(code)

    def unseen_bandits(self) -> list[int]:
        """Bandit values this seat cannot place: they are in other hands or in the pile."""
        seen = set(self.hand) | set(self.partner_holds) | set(self.discard)
        if self.fight is not None:
            seen |= {c for _, c in self.fight.bandits}
        return [bandit_value(c) for c in range(10, 22) if c not in seen]


def _simulate_fight(
    table: _Table,
    owner: int,
    bandits: Sequence[tuple[int, int]],
    order: Sequence[int],
    holdings: dict[int, list[int]],
    closers: set[int],
) -> int:
    """Play the rest of a fight out greedily; the seat that ends up owning the mine.

    ``bandits`` are (seat, value) laid so far (the first is the first attacker's);
    ``order`` the seats whose chance is still to come; ``holdings`` their bandit
    values (ascending); ``closers`` the seats holding a closed-mine card. Each
    seat lays the smallest bandit that puts its side ahead, and a defender with
    no such bandit closes the mine if it can (the fight then ends, owner keeps it).
    """
    attacker = bandits[0][0]
    if table.partnership:
        at = table.team(attacker)
        attack = sum(v for s, v in bandits if table.team(s) == at)
        defence = sum(v for s, v in bandits if table.team(s) != at)
        for s in order:
            mine_side = table.team(s) == at
            gap = defence - attack + 1 if mine_side else attack - defence
            if gap <= 0:
                continue
            pick = next((v for v in holdings.get(s, ()) if v >= gap), None)
            if pick is not None:
                if mine_side:
                    attack += pick
                else:
                    defence += pick
            elif not mine_side and s in closers:
                return owner
        return attacker if attack > defence else owner
    best_seat, best = max(bandits, key=lambda sv: sv[1])
    for s in order:
        if best_seat == s:
            continue
        pick = next((v for v in holdings.get(s, ()) if v > best), None)
        if pick is not None:
            best_seat, best = s, pick
        elif s == owner and s in closers:
            return owner
    return owner if best_seat == owner else best_seat


@dataclass
class DiggingHeuristic(Bot):
    """Rule-based Digging player; ``samples`` determinisations estimate fights."""

    name: ClassVar[str] = "heuristic"
    quick: ClassVar[bool] = True
    samples: int = param(16, 1, 256)
    bandit_cost: float = param(0.3, 0.0, 10.0)
    """Points a bandit is worth keeping, per unit of its value (it can fight only once a hand)."""
    noise: float = field(default=1e-3, metadata={"spec": False})

    def __post_init__(self) -> None:
        if self.samples < 1:
            raise ValueError("samples must be at least 1")

    # ------------------------------------------------------------------
    def act(self, view: SeatView, rng: random.Random, budget: Budget | None = None) -> int:
        legal = legal_actions_of(view)
        if len(legal) == 1:
            return legal[0]
        scores = self.scores(view, rng, legal)
        best = max(scores.values())
        top = [a for a in legal if scores[a] >= best - self.noise]
        return top[rng.randrange(len(top))]

    def scores(self, view: SeatView, rng: random.Random, legal: Sequence[int]) -> dict[int, float]:
        """A score per legal action (higher is better; drawing scores 0)."""
        t = _Table.read(view.data)
        samples = _Samples(view, rng, self.samples) if self._needs_samples(t, legal) else None
        threat = {m.index: samples.threat(t, m) if samples else 0.0 for m in t.mines if not m.closed}
        out: dict[int, float] = {}
        for a in legal:
            kind, code, target = A.DECODED[a]
            if kind == A.K_DRAW:
                s = DRAW_SCORE
            elif kind == A.K_SKIP:
                s = 0.0
            elif kind == A.K_PASS:
                s = self._pass(t, code)
            elif kind == A.K_OPEN:
                s = self._open(t, code, target)
            elif kind == A.K_CHEST:
                s = self._chest(t, code, t.mines[target], samples)
            elif kind == A.K_CLOSE:
                s = self._close(t, t.mines[target], threat.get(target, 0.0), samples)
            else:
                assert samples is not None
                s = self._bandit(t, bandit_value(code), t.mines[target], samples)
            out[a] = s
        return out

    @staticmethod
    def _needs_samples(t: _Table, legal: Sequence[int]) -> bool:
        if t.fight is not None or any(A.DECODED[a][0] == A.K_BANDIT for a in legal):
            return True
        return CLOSE in t.hand and any(not m.closed and m.chests and t.ours(m.owner) for m in t.mines)

    # -- one rule per kind of action -------------------------------------
    def _ending(self, t: _Table) -> float:
        """How near the hand is to its end: 0 early, 1 in the last round (open mines then score nothing)."""
        if t.last_round is not None or t.pile == 0:
            return 1.0
        return max(0.0, 1.0 - t.pile / (2.0 * t.players))

    def _open(self, t: _Table, metal: int, seat: int) -> float:
        if not t.ours(seat):
            return -10.0  # a mine in an opponent's display is a gift
        if t.last_round is not None:
            return -1.0  # no time left to fill and close it
        fill = sum(2 * METAL_VALUE[metal] if is_double(c) else METAL_VALUE[metal] for c in t.hand
                   if 3 <= c <= 8 and c % 3 == metal)
        already = sum(1 for m in t.mines if not m.closed and m.metal == metal and t.ours(m.owner) and not m.chests)
        if fill == 0 or already:
            return -0.5 if t.pile else 0.1
        score = 0.5 + 0.5 * fill - 1.5 * self._ending(t)
        return score if seat == t.me else score - 0.2  # own display: the same, and the turn order is ours

    def _chest(self, t: _Table, code: int, mine: _Mine, samples: _Samples | None) -> float:
        gain = mine_points(mine.metal, [*mine.chests, code]) - mine.value
        if not t.ours(mine.owner):
            # Only worth it on an enemy mine our side is about to win in a fight.
            if t.fight and t.fight.mine == mine.index and samples and samples.hold(t, mine) < 0.2:
                return 0.3 * gain - 1.0
            return -10.0 - gain
        score = 1.0 + gain
        if not mine.chests and not is_double(code) and (code + 3) in t.hand:
            score -= 3.0  # lay the double first: it doubles every chest after it
        if t.fight and t.fight.mine == mine.index and samples:
            score = samples.hold(t, mine) * score - 0.5
        if t.last_round is not None:
            score *= 0.3  # only worth it if a partner still closes it this round
        return score

    def _close(self, t: _Table, mine: _Mine, threat: float, samples: _Samples | None) -> float:
        v = mine.value
        fought = t.fight is not None and t.fight.mine == mine.index
        if not t.ours(mine.owner):
            if fought:
                return -10.0  # we are attacking it: closing would hand it back to its owner
            spare_x = t.count(CLOSE) > sum(1 for m in t.mines if not m.closed and t.ours(m.owner) and m.chests)
            if v == 0 and spare_x and t.last_round is None:
                return 0.2  # kill an empty enemy mine with a closed-mine card we can spare
            return -5.0 - v
        if fought:
            # Closing ends the fight and loses the last chest, but keeps the rest.
            kept = mine_points(mine.metal, mine.chests[:-1])
            lose = 1.0 - (samples.hold(t, mine) if samples else 0.5)
            return lose * kept - (1.0 - lose) * 2.0
        if t.last_round is not None:
            return v - 0.5
        urgency = self._ending(t)
        worth_card = v >= 4
        return (threat * v if worth_card else 0.0) + urgency * v + max(0, v - 12) - 2.0

    def _bandit(self, t: _Table, value: int, mine: _Mine, samples: _Samples) -> float:
        cost = self.bandit_cost * value
        swing = mine.value * (2.0 if t.partnership else 1.5)  # the mine changes sides
        if t.fight is None:
            p = samples.attack_wins(t, mine, value)
            return p * swing - cost - 1.0
        with_it = samples.hold(t, mine, extra=value)
        without = samples.hold(t, mine)
        gain = with_it - without if t.ours(mine.owner) else without - with_it
        if not t.ours(mine.owner) and not t.partnership:
            gain = samples.win_for_me(t, mine, value) - samples.win_for_me(t, mine, None)
        return gain * swing - cost

    def _pass(self, t: _Table, code: int) -> float:
        mate = (t.me + 2) % 4
        useful = 0.0
        if 3 <= code <= 8 and any(not m.closed and m.metal == code % 3 and t.ours(m.owner) for m in t.mines):
            useful = 0.2
        if code >= 10 and t.fight is not None and mate in t.fight.chances:
            useful = 0.3
        if code == CLOSE and any(not m.closed and m.chests and t.ours(m.owner) for m in t.mines):
            useful = 0.3
        # Drawing is better while the pile lasts; once it is empty a pass is the harmless move.
        return useful - (1.5 if t.pile else 0.3)


class _Samples:
    """Determinisations of the unseen cards, reduced to who holds which bandits and closed-mine cards."""

    def __init__(self, view: SeatView, rng: random.Random, k: int) -> None:
        self.worlds: list[tuple[dict[int, list[int]], set[int]]] = []
        for _ in range(k):
            state = view.sample(rng)
            hands: list[list[int]] = state.hands  # type: ignore[attr-defined]
            holdings = {s: [bandit_value(c) for c in range(10, 22) if h[c]] for s, h in enumerate(hands)}
            closers = {s for s, h in enumerate(hands) if h[CLOSE]}
            self.worlds.append((holdings, closers))

    def _owner_after(self, t: _Table, mine: _Mine, extra: int | None) -> list[int]:
        """Who owns ``mine`` once the fight on it is over, per world, if we lay bandit
        ``extra`` now (``None``: we do something else, which spends our chance too)."""
        f = t.fight
        out = []
        for holdings, closers in self.worlds:
            if f is None or f.mine != mine.index:
                out.append(mine.owner)
                continue
            bandits = [(s, bandit_value(c)) for s, c in f.bandits]
            order = [s for s in f.chances if s != t.me]
            if extra is not None:
                bandits.append((t.me, extra))
            out.append(_simulate_fight(t, mine.owner, bandits, order, holdings, closers))
        return out

    def hold(self, t: _Table, mine: _Mine, extra: int | None = None) -> float:
        """Chance the mine stays with its owner's side through the current fight."""
        owners = self._owner_after(t, mine, extra)
        return sum(1 for o in owners if t.team(o) == t.team(mine.owner)) / len(owners)

    def win_for_me(self, t: _Table, mine: _Mine, extra: int | None) -> float:
        owners = self._owner_after(t, mine, extra)
        return sum(1 for o in owners if o == t.me) / len(owners)

    def attack_wins(self, t: _Table, mine: _Mine, value: int) -> float:
        """Chance that starting a fight on ``mine`` with bandit ``value`` takes it for our side."""
        n = t.players
        order = [(t.me + k) % n for k in range(1, n)]
        wins = 0
        for holdings, closers in self.worlds:
            held = dict(holdings)
            held[t.me] = [v for v in held.get(t.me, []) if v != value]
            winner = _simulate_fight(t, mine.owner, [(t.me, value)], order, held, closers)
            wins += t.ours(winner)
        return wins / len(self.worlds)

    def threat(self, t: _Table, mine: _Mine) -> float:
        """Chance that some opponent could take this mine of ours with a fight started now."""
        if not mine.chests or not t.ours(mine.owner) or t.fight is not None:
            return 0.0
        n = t.players
        hits = 0
        for holdings, closers in self.worlds:
            for o in range(n):
                if t.ours(o) or not holdings.get(o):
                    continue
                v = holdings[o][-1]
                held = dict(holdings)
                held[o] = holdings[o][:-1]
                # We answer last in the order: assume we can't (this card is the one we'd close with).
                order = [(o + k) % n for k in range(1, n)]
                if not t.ours(_simulate_fight(t, mine.owner, [(o, v)], order, held, closers - {t.me})):
                    hits += 1
                    break
        return hits / len(self.worlds)
