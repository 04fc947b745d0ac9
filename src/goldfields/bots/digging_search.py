"""What ISMCTS needs to know about Digging: move keys, a fast rollout, an evaluation.

Speed matters here (the loop runs thousands of times a second), so this
module reads the engine's internals on *determinised* states only, never on
the real game: ``state.apply_legal(action)`` applies an action already taken from
``state.legal_actions()`` without validating it a second time, and the
rollout and evaluation read ``hands``, ``mines``, ``fight``, ``totals``
directly. A determinisation belongs to the searching bot, so nothing leaks.

Rollouts stop at the end of the current hand (the engine then waits at a
chance node for the next deal) or after ``depth`` moves, whichever comes
first: full games over several hands are far too slow for a search budget.
The position is then scored by projecting each side's total: its game total,
plus its closed mines this hand, plus a share of its open mines (larger when
its side holds a closed-mine card to finish them), and a fight under way moves
that share to the side ahead in it. The projected lead is mapped into [0, 1]
with a logistic curve that steepens as the leader nears the target, so a lead
counts for more late in the game.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..core.game import CHANCE, TERMINAL, GameState, SeatView
from ..digging import actions as A
from ..digging.cards import CLOSE, bandit_value
from ..digging.state import DiggingState, mine_points
from .ismcts import SearchGame

HIDDEN_PASS = -2
"""The key of an opponent's pass: the observer does not see which card went over."""

_KIND = tuple(d[0] for d in A.DECODED)
_TARGET = tuple(d[2] for d in A.DECODED)
_OPPONENT_KEYS: tuple[int, ...] = tuple(
    HIDDEN_PASS if _KIND[a] == A.K_PASS else a for a in range(A.NUM_ACTIONS)
)

OPEN_SHARE_CLOSABLE = 0.75
"""Share of an open mine's value credited when its side holds a closed-mine card."""
CARD_WORTH = 0.4
"""Points credited per card in a hand while the pile lasts (a quarter of it in the last round)."""
OPEN_SHARE = 0.35
"""... and when it does not, but the pile still has cards to draw one."""


_mine_value = mine_points  # D8, the engine's one statement of it


def without_stalling(obs: Mapping[str, Any], legal: Sequence[int]) -> list[int]:
    """``legal`` without passing, once every seat has passed in a row and another move is legal.

    D2 lets partners pass cards to each other for as long as the pile lasts, and
    a position where every seat would rather not be the one to draw has no end:
    four network bots held most partnership hands up for ever that way. A pass
    changes nothing on the table, so after a whole round of them a bot draws or
    plays; the hand then moves on at least once every ``players + 1`` turns.
    """
    if obs.get("passes_in_a_row", 0) < obs["players"]:
        return list(legal)
    moving = [a for a in legal if _KIND[a] != A.K_PASS]
    return moving or list(legal)


def evaluate(state: DiggingState) -> list[float]:
    """A value in [0, 1] per seat: the projected chance of winning the game."""
    to_move = state._to_move
    if to_move == TERMINAL:
        return state.returns()
    n = state.num_players
    proj = [float(t) for t in state.totals]
    if to_move != CHANCE:  # mid-hand: add this hand's prospects (at CHANCE the hand is already in totals)
        hands = state.hands
        partnership = state.partnership
        pile = len(state.pile)
        fight = state.fight
        for m in state.mines:
            chests = m.chests
            if not chests:
                continue
            v = _mine_value(m.metal, chests)
            owner = m.owner
            if m.closed:
                proj[owner] += v
                continue
            has_x = hands[owner][CLOSE] or (partnership and hands[(owner + 2) % 4][CLOSE])
            share = OPEN_SHARE_CLOSABLE if has_x else (OPEN_SHARE if pile else 0.0)
            if fight is not None and fight.mine == m.index:
                owner = _fight_leader(state, fight.attacker, fight.bandits, owner)
            proj[owner] += share * v
        # Cards in hand are future chests and closings: without this a search sees
        # no point in drawing (its reward lies beyond the rollout) and passes instead.
        worth = CARD_WORTH if pile else CARD_WORTH / 4
        for s, k in enumerate(state.sizes):
            proj[s] += worth * k
    target = state.target
    if state.partnership:
        side = (proj[0] + proj[2], proj[1] + proj[3])
        scale = 4.0 + 8.0 * max(0.0, target - max(side)) / target
        v0 = _logistic((side[0] - side[1]) / scale)
        return [v0, 1.0 - v0, v0, 1.0 - v0]
    top = max(proj)
    scale = 4.0 + 8.0 * max(0.0, target - top) / target
    out = []
    for s in range(n):
        best_other = max(proj[o] for o in range(n) if o != s)
        out.append(_logistic((proj[s] - best_other) / scale))
    return out


def _fight_leader(state: DiggingState, attacker: int, bandits: list[tuple[int, int]], owner: int) -> int:
    """Who would own the fought-over mine if the fight were resolved now."""
    if state.partnership:
        at = attacker & 1
        attack = sum(bandit_value(c) for s, c in bandits if s & 1 == at)
        defence = sum(bandit_value(c) for s, c in bandits if s & 1 != at)
        return attacker if attack > defence else owner
    seat, _ = max(bandits, key=lambda sc: sc[1])
    return seat


def _logistic(x: float) -> float:
    if x < -30.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


class DiggingSearch(SearchGame):
    stop_at_chance = True  # the end of a hand: evaluate rather than deal a new one

    def __init__(self, policy: str = "smart") -> None:
        if policy not in POLICIES:
            raise ValueError(f"unknown rollout policy {policy!r}; policies: {', '.join(POLICIES)}")
        self.move = POLICIES[policy]

    def root_moves(self, view: SeatView, legal: Sequence[int]) -> list[int]:
        return without_stalling(view.data, legal)

    def key_map(self, state: GameState, observer: int, actor: int) -> Sequence[int] | None:
        st: DiggingState = state  # type: ignore[assignment]
        if st.partnership and (actor - observer) % 2:
            return _OPPONENT_KEYS
        return None

    def step(self, state: GameState, action: int, rng: random.Random) -> None:
        st: DiggingState = state  # type: ignore[assignment]
        st.apply_legal(action)  # legal by construction (see module doc)

    def rollout(self, state: GameState, rng: random.Random, depth: int, observer: int) -> list[float]:
        st: DiggingState = state  # type: ignore[assignment]
        rand = rng.random
        opts = st.options
        fast = not (opts.no_chests_during_fight or opts.close_needs_chest)
        move = self.move
        for _ in range(depth):
            p = st._to_move
            if p < 0:
                break
            a = move(st, p, rand) if fast else None
            if a is None:
                a = _filtered_random(st, p, rand)
            st.apply_legal(a)
        return evaluate(st)


DRAW_SHARE = 0.4
"""How often the rollout policy draws while it can: about as often as cards are played."""


def fast_move(st: DiggingState, p: int, rand: Callable[[], float]) -> int | None:
    """The rollout policy's move for seat ``p``, or ``None`` when it has no quick answer.

    It picks a card from the hand at random and a sensible place for it (a mine
    in its own display, a chest on its side's mine, a closed-mine card on its
    side's filled mine or an enemy's empty one, a bandit on a rich enemy mine or
    into the fight), or draws. It builds the move from the rules (D2..D6) without
    listing every legal action, which is the costly part of a step; the tests
    check each move it makes against ``legal_actions()``. Only valid with the
    default rule options (the caller checks).
    """
    pile = st.pile
    size = st.sizes[p]
    if size == 0 or (pile and rand() < DRAW_SHARE):
        return A.DRAW if pile else None
    hand = st.hands[p]
    r = int(rand() * size)
    code = 0
    while r >= hand[code]:
        r -= hand[code]
        code += 1
    if code < 3:
        return A.OPEN_BASE + code * 4 + p
    mines = st.mines
    side = 2 if st.partnership else st.num_players + 1  # seats s, o are on one side when (s - o) % side == 0
    if code < 9:
        own = [i for i in st.open_by_metal[code % 3] if (mines[i].owner - p) % side == 0]
        if own:
            return A.CHEST_BASE + (code - 3) * 9 + own[int(rand() * len(own))]
    elif code == CLOSE:
        open_ids = st.open_by_metal[0] + st.open_by_metal[1] + st.open_by_metal[2]
        good = [i for i in open_ids if ((mines[i].owner - p) % side == 0) == bool(mines[i].chests)]
        if good:
            return A.CLOSE_BASE + good[int(rand() * len(good))]
    else:
        fight = st.fight
        base = A.BANDIT_BASE + (code - 10) * 9
        if fight is None:
            open_ids = st.open_by_metal[0] + st.open_by_metal[1] + st.open_by_metal[2]
            rich = [i for i in open_ids if mines[i].chests and (mines[i].owner - p) % side != 0]
            if rich:
                return base + rich[int(rand() * len(rich))]
        elif p in fight.chances:
            return base + fight.mine
    return A.DRAW if pile else None


def smart_move(st: DiggingState, p: int, rand: Callable[[], float]) -> int | None:
    """The informed rollout policy: :func:`fast_move` with a few rules first.

    Close the best mine of our side once it is worth it (6 points, or anything
    late in the hand); join a fight our side is losing when a bandit turns it;
    open a mine only with a chest for it in hand; start a fight only on a mine
    worth 4 points or more. Falls back to :func:`fast_move` otherwise.
    """
    hand = st.hands[p]
    mines = st.mines
    partnership = st.partnership
    side = 2 if partnership else st.num_players + 1
    pile = len(st.pile)
    late = st.final_left >= 0 or pile <= 2 * st.num_players
    if hand[CLOSE]:
        best, best_v = -1, 0
        for ids in st.open_by_metal:
            for i in ids:
                m = mines[i]
                if m.chests and (m.owner - p) % side == 0:
                    v = _mine_value(m.metal, m.chests)
                    if v > best_v:
                        best, best_v = i, v
        if best >= 0 and (best_v >= 6 or late):
            return A.CLOSE_BASE + best
    fight = st.fight
    if fight is not None and p in fight.chances:
        owner = mines[fight.mine].owner
        leader = _fight_leader(st, fight.attacker, fight.bandits, owner)
        if (leader - p) % side != 0:
            if partnership:
                at = fight.attacker & 1
                attack = sum(bandit_value(c) for s, c in fight.bandits if s & 1 == at)
                defence = sum(bandit_value(c) for s, c in fight.bandits if s & 1 != at)
                need = (defence - attack + 1) if (p & 1) == at else (attack - defence)
            else:
                need = max(bandit_value(c) for _, c in fight.bandits) + 1
            for code in range(9 + max(1, need), 22):
                if hand[code]:
                    return A.BANDIT_BASE + (code - 10) * 9 + fight.mine
    a = fast_move(st, p, rand)
    if a is None or a == A.DRAW:
        return a
    kind = _KIND[a]
    if kind == A.K_OPEN:
        metal = (a - A.OPEN_BASE) >> 2
        if not (hand[3 + metal] or hand[6 + metal]):
            return A.DRAW if pile else a
    elif kind == A.K_BANDIT and fight is None:
        m = mines[_TARGET[a]]
        if _mine_value(m.metal, m.chests) < 4:
            return A.DRAW if pile else a
    elif kind == A.K_CLOSE and (mines[_TARGET[a]].owner - p) % side == 0 and not late:
        return A.DRAW if pile else a
    return a


def _filtered_random(st: DiggingState, p: int, rand: Callable[[], float]) -> int:
    """A random legal move, drawn again (at most twice) if a sensible player would not make it."""
    legal = st.legal_actions()
    n = len(legal)
    a = legal[int(rand() * n)]
    partnership = st.partnership
    mines = st.mines
    for _retry in range(2):
        kind = _KIND[a]
        if kind == A.K_PASS:
            bad = True
        elif kind == A.K_CHEST:
            owner = mines[_TARGET[a]].owner
            bad = (owner - p) % 2 == 1 if partnership else owner != p
        elif kind == A.K_OPEN:
            t = _TARGET[a]
            bad = (t - p) % 2 == 1 if partnership else t != p
        elif kind == A.K_CLOSE:
            m = mines[_TARGET[a]]
            ours = (m.owner - p) % 2 == 0 if partnership else m.owner == p
            bad = ours != bool(m.chests)  # close our filled mines, or kill their empty ones
        else:
            bad = False
        if not bad:
            break
        a = legal[int(rand() * n)]
    return a


POLICIES = {"fast": fast_move, "smart": smart_move}
