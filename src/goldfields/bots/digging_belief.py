"""Belief inference for Digging: determinisations weighted by how well they explain the moves seen.

A plain determinisation deals the cards the observer cannot see uniformly at
random among those it has not seen. A strong player reads more than that from
the table: an opponent who drew rather than close a rich mine of theirs
probably holds no closed-mine card; a partner who passed a bandit holds no use
for it. This module turns the hand's moves (``moves`` in the observation: every
move of this hand, as the observer saw it) into weights on determinisations:

1. draw a determinisation of *now* with the view's own sampler;
2. walk the hand's moves backwards to a deal at the start of the hand that
   leads to it: each card played goes back into its player's hand, each card
   drawn (its face unknown) is one picked at random from the drawer's hand and
   put back on the pile, each hidden pass takes a card picked at random from
   the receiver's hand;
3. replay the hand forwards from that deal and, at each move by another seat,
   ask the network how likely that seat was to make it with the hand it held
   then;
4. weight the determinisation by that likelihood, divided by the chance of
   the random picks in step 2 (importance sampling: the picks are the
   proposal, the deal's prior and the players' policies are the target).

The search then draws its determinisations from these weighted ones instead of
fresh uniform ones. Everything read here is the observer's: its view's sampler,
the public moves and its own hand; the weights only rank deals the observer
could not tell apart anyway, so the bot stays honest.

The likelihood is tempered (``TEMPER``) and floored (``FLOOR``), because the
network models a strong player, not the one at the table, and a move it
thought unlikely must not wipe out a deal on its own.
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..core.game import CHANCE, SeatView
from ..digging import actions as A
from ..digging.cards import NUM_CODES, expand
from ..digging.state import DiggingState

if TYPE_CHECKING:
    from .net import NetEvaluator

TEMPER = 1.0
"""The likelihood's exponent: 1 trusts the network as the model of every player, 0 ignores it
(1 is what benchmarks/bench_belief.py measures)."""
FLOOR = 0.05
"""Share of the likelihood spread evenly over the legal moves, so that no move is ever impossible."""

Parsed = list[tuple[int, int | None]]
"""A hand's moves as ``(mover, action id)``; ``None`` for a pass whose card the observer did not see."""


class Belief:
    """Weighted determinisations: ``sample(rng)`` draws one by weight."""

    def __init__(self, states: Sequence[DiggingState], weights: Sequence[float]) -> None:
        if not states or len(states) != len(weights):
            raise ValueError("a belief needs one weight per state, and at least one state")
        self.states = list(states)
        total = math.fsum(weights)
        self.weights = [w / total for w in weights]
        self._cumulative: list[float] = []
        acc = 0.0
        for w in self.weights:
            acc += w
            self._cumulative.append(acc)

    @property
    def effective_size(self) -> float:
        """Kish's effective sample size: how many equally weighted deals these are worth."""
        return 1.0 / math.fsum(w * w for w in self.weights)

    def sample(self, rng: random.Random) -> DiggingState:
        i = bisect.bisect_right(self._cumulative, rng.random() * self._cumulative[-1])
        return self.states[min(i, len(self.states) - 1)]


def parse_moves(view: SeatView) -> Parsed | None:
    """The hand's moves from the observation, or ``None`` when it has no record of them."""
    moves = view.data.get("moves")
    if moves is None:
        return None
    players = view.num_players
    return [(int(mover), None if text == "pass" else A.string_to_action(text, players)) for mover, text in moves]


def weighted_deals(
    view: SeatView,
    rng: random.Random,
    net: NetEvaluator,
    count: int,
    temper: float = TEMPER,
    floor: float = FLOOR,
) -> Belief | None:
    """``count`` determinisations of ``view``, weighted by the other seats' moves this hand.

    Each is the deal replayed to now, so the other side's passes in it are the
    ones its history picked. ``None`` when there is nothing to read (no record of
    the hand, or no move by another seat yet) or no determinisation explains the
    moves.
    """
    parsed = parse_moves(view)
    observer = view.seat
    if parsed is None or view.current_player < 0 or all(m == observer for m, _ in parsed):
        return None
    states: list[DiggingState] = []
    logw: list[float] = []
    for _ in range(count):
        det: DiggingState = view.sample(rng)  # type: ignore[assignment]
        found = weigh(det, parsed, observer, net, rng, temper, floor)
        if found is not None:
            states.append(found[1])
            logw.append(found[0])
    if not states:
        return None
    top = max(logw)
    return Belief(states, [math.exp(w - top) for w in logw])


def weigh(
    det: DiggingState,
    parsed: Parsed,
    observer: int,
    net: NetEvaluator,
    rng: random.Random,
    temper: float = TEMPER,
    floor: float = FLOOR,
) -> tuple[float, DiggingState] | None:
    """The log importance weight of ``det`` given the hand's moves, and the hand replayed to it;
    ``None`` if it cannot explain them."""
    back = rewind(det, parsed, observer, rng)
    if back is None:
        return None
    state, actions, log_w = back
    for (mover, _), action in zip(parsed, actions, strict=True):
        if mover != observer:
            legal = state.legal_actions()
            if action not in legal:
                return None
            if len(legal) > 1:
                prior, _ = net.evaluate_state(state, legal)
                p = float(prior[legal.index(action)])
                log_w += temper * math.log((1.0 - floor) * p + floor / len(legal))
        elif action == A.SKIP and action not in state.legal_actions():
            return None  # skipped holding a card it could have played
        state.apply_legal(action)
    return log_w, state


def rewind(
    det: DiggingState, parsed: Parsed, observer: int, rng: random.Random
) -> tuple[DiggingState, list[int], float] | None:
    """A deal at the start of ``det``'s hand that the hand's moves lead to ``det`` from.

    Returns the state just dealt, the hand's action ids (the cards of hidden passes
    picked), and the log of prior over proposal for the picks made: the deal's
    number of orders against the chance of drawing ``det`` and of the picks.
    ``None`` when ``det`` cannot be reached by these moves.
    """
    hands = [h[:] for h in det.hands]
    pile = det.pile[:]
    # The sampler dealt the cards unseen at random into the slots unseen: for the partner, its
    # hand less the cards the observer knows it holds. (The observer's own hand is fixed: its
    # term is the same for every deal.)
    mate = det.partner(observer)
    unseen = [h[:] for h in hands]
    if mate is not None:
        unseen[mate] = [k - f for k, f in zip(hands[mate], det.known[observer], strict=True)]
    log_q = -_log_multinomial(unseen)
    reserved = _reserved(parsed)
    actions: list[int] = [0] * len(parsed)
    for i in range(len(parsed) - 1, -1, -1):
        mover, a = parsed[i]
        if a is None:  # a pass the observer did not see: its card is one the receiver holds
            to = (mover + 2) % 4
            c, p = _pick(hands[to], rng)
            if c < 0:
                return None
            log_q += math.log(p)
            hands[to][c] -= 1
            hands[mover][c] += 1
            actions[i] = A.pass_action(c)
            continue
        actions[i] = a
        kind, code, _ = A.DECODED[a]
        if kind == A.K_DRAW:
            # The observer's own draws are not in its record either (only that it drew): they
            # are picked like everyone else's, and weighed like everyone else's.
            c, p = _pick(hands[mover], rng, reserved.get(i))
            if c < 0:
                return None
            log_q += math.log(p)
            hands[mover][c] -= 1
            pile.append(c)
        elif kind == A.K_PASS:
            to = (mover + 2) % 4
            if not hands[to][code]:
                return None
            hands[to][code] -= 1
            hands[mover][code] += 1
        elif code >= 0:
            hands[mover][code] += 1
    if any(sum(h) != det.hand_size for h in hands):
        return None  # a record that does not add up to a deal
    return _dealt(det, hands, pile), actions, _log_multinomial(hands) - log_q


def _pick(counts: list[int], rng: random.Random, keep: Sequence[int] | None = None) -> tuple[int, float]:
    """A card code drawn in proportion to its copies in ``counts`` beyond ``keep``, and that chance
    (``(-1, 0.0)`` when every copy must be kept)."""
    spare = counts if keep is None else [max(0, k - r) for k, r in zip(counts, keep, strict=True)]
    total = sum(spare)
    if not total:
        return -1, 0.0
    r = rng.randrange(total)
    for c, k in enumerate(spare):
        if r < k:
            return c, k / total
        r -= k
    raise AssertionError("unreachable")


def _reserved(parsed: Parsed) -> dict[int, list[int]]:
    """For each draw by a seat that was passed cards openly: the copies of each code it must still
    hold then, because it is seen to receive them earlier in the hand and to keep them until then.

    Walking the hand backwards, a card drawn is picked from the drawer's hand; a pick that took a
    card the seat is later (earlier in time) seen receiving would leave it nothing to receive.
    The copies needed at move ``t`` are the largest excess, over any stretch of moves just before
    ``t``, of copies received over copies given away or played: a running maximum, forwards.
    """
    need: dict[int, list[int]] = {}
    out: dict[int, list[int]] = {}
    for i, (mover, a) in enumerate(parsed):
        if a is None:
            continue
        kind, code, _ = A.DECODED[a]
        if kind == A.K_DRAW:
            if mover in need:
                out[i] = need[mover][:]
            continue
        if code < 0:
            continue
        held = need.get(mover)
        if held is not None and held[code]:
            held[code] -= 1  # played or passed on: one copy less to keep from before
        if kind == A.K_PASS:
            need.setdefault((mover + 2) % 4, [0] * NUM_CODES)[code] += 1
    return out


def _log_multinomial(hands: Sequence[Sequence[int]]) -> float:
    """log of the number of orders the cards of these hands can be dealt in (the deal's prior)."""
    lg = math.lgamma
    out = 0.0
    for h in hands:
        out += lg(sum(h) + 1) - math.fsum(lg(k + 1) for k in h if k > 1)
    return out


def _dealt(det: DiggingState, hands: Sequence[Sequence[int]], pile: Sequence[int]) -> DiggingState:
    """``det`` taken back to the start of its hand and dealt ``hands``, with ``pile`` (top last) left."""
    n = det.num_players
    state = det.clone()
    state._to_move = CHANCE
    state.hand_no -= 1
    state.first = det.dealer  # a new hand's dealer is the last one's first player (D9)
    dealt = det.hand_size * n
    deck = [0] * dealt
    cards = [expand(h) for h in hands]
    for i in range(dealt):
        seat = (det.dealer + 1 + i) % n
        deck[i] = cards[seat].pop()
    deck.extend(reversed(pile))
    state.apply_chance(deck)
    return state
