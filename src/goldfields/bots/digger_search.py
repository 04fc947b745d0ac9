"""The Digger search bot: Monte Carlo search over rolls and stop decisions.

Digger hides nothing but the hourglass, and only from the digger. The search
bot (:class:`DiggerSearch`, ``search``) and the generic ISMCTS loop
(:mod:`goldfields.bots.ismcts`, ``ismcts`` for Digger) share this game's
adapter:

* **Determinisation of the clock.** The view's sampler gives the digger the
  time the default model reckons from its rolls and tokens. The adapter
  redraws that time as a jittered clock would have produced it (each cost
  times a factor in [1 - jitter, 1 + jitter]), so the search meets the
  hourglass where it might really be.
* **The simulated clock.** Every simulated step is stamped with a jittered
  :class:`~goldfields.digger.timing.TimeModel`, and the engine itself decides
  whether a stop comes too late.
* **Open loop over the dice** (the ``ismcts`` tree). Rolls are chance nodes
  sampled on the way down, so a node stands for a sequence of decisions
  ("take Y, roll, stop") averaged over the dice; the tree ends with the turn.
* **Rollouts** finish the current turn with the heuristic bot's decisions,
  made on the digger's own reckoning of the time (never the determinised time,
  which the digger could not know), then score the position: each seat's chance
  of winning from the scores, the tokens left and the turn order
  (:data:`VALUE_MODEL`, fitted to self-play).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import ClassVar

from ..clocks import DEFAULT_TIME_MODEL, TimeModel
from ..core.game import TERMINAL, GameState, SeatView
from ..digger.actions import ROLL, STOP
from ..digger.dice import BLUE, FACES, GEMS
from ..digger.state import DiggerState
from .base import Bot, Budget, Clock, legal_actions_of, param
from .digger_heuristic import DiggerHeuristic, facts
from .ismcts import SearchGame

VALUE_MODEL: dict[int, tuple[float, ...]] = {
    2: (12.0212, 4.2208, 0.2212, -1.0521),
    3: (16.0023, 16.831, 0.2042, -0.1602, -0.5399),
    4: (14.5101, 26.5178, 1.0857, -0.0527, -0.1431, -0.4066),
    5: (23.9826, 14.8446, 2.9394, -0.0339, -0.0859, -0.1877, -0.4946),
}
"""Win-probability model per table size: ``(a, c, w, alpha_1, ..., alpha_{n-1})``.

``P(s wins)`` is the softmax over seats of ``score_s / T + alpha[turns until s digs]``
with ``T = a + c * sqrt(blue + w * gems)`` (tokens left in the centre) and
``alpha[0] = 0`` for the seat that digs next. Fitted to 1,000 heuristic self-play
games per size on the arena's clock by ``scripts/fit_digger_value.py --games 1000
--seed 0``. Scores predict little on their own (every digger robs the leader),
and the model says how little, which is what keeps the search from overvaluing
a lead it cannot keep, and from undervaluing the end of the game when ahead.
"""


class DiggerSearchGame(SearchGame):
    def __init__(self, jitter: float = 0.2) -> None:
        self.turn = -1
        self.jitter = jitter
        self.model = TimeModel(jitter=jitter) if jitter else DEFAULT_TIME_MODEL
        self.heuristic = DiggerHeuristic(jitter=jitter)
        self._values: list[dict[str, int]] | None = None

    has_horizon = True  # the search looks at the digger's own turn only

    def past_horizon(self, state: GameState) -> bool:
        return state.turn != self.turn  # type: ignore[attr-defined]

    def determinise(self, view: SeatView, rng: random.Random) -> GameState:
        state: DiggerState = view.sample(rng)  # type: ignore[assignment]
        self.turn = state.turn
        if view.seat == state.digger and state.started:
            # The sample carries no time: put in the digger's own reckoning,
            # drawn as a jittered clock could have run it.
            m = DEFAULT_TIME_MODEL
            if self.jitter:
                j = self.jitter
                rolls = max(0, state.requests() - 1)
                t = sum(m.roll * rng.uniform(1 - j, 1 + j) for _ in range(rolls))
                t += sum(m.take * rng.uniform(1 - j, 1 + j) for _ in range(state.haul_size))
            else:
                t = m.estimate(state.requests(), state.haul_size)
            state.elapsed = min(state.limit, t)
        return state

    def step(self, state: GameState, action: int, rng: random.Random) -> None:
        st: DiggerState = state  # type: ignore[assignment]
        st.apply_action(action, self.model.stamp(st, action, rng))

    def rollout(self, state: GameState, rng: random.Random, depth: int, observer: int) -> list[float]:
        st: DiggerState = state  # type: ignore[assignment]
        turn = self.turn
        model = self.model
        while st.turn == turn and st._to_move != TERMINAL:
            if st._to_move < 0:
                st.apply_chance(st.sample_chance(rng))
                continue
            action = self.policy(st)
            st.apply_action(action, model.stamp(st, action, rng))
        return evaluate(st)

    def policy(self, st: DiggerState) -> int:
        """The heuristic's decision, on the digger's reckoning of the time (never the determinised one)."""
        legal = st.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if self._values is None:
            self._values = [{FACES[c]: v[c] for c in GEMS} for v in st.values]
        return self.heuristic.choose(facts(st, self._values), legal)


def evaluate(st: DiggerState) -> list[float]:
    """Each seat's chance of winning: the true result at the end, else :data:`VALUE_MODEL`."""
    if st._to_move == TERMINAL:
        return st.returns()
    scores = st.scores()
    n = len(scores)
    a, c, w, *alpha = VALUE_MODEL[n]
    centre = st.centre
    gems = sum(centre[g] for g in GEMS)
    temperature = a + c * math.sqrt(centre[BLUE] + w * gems)
    nxt = st.digger  # at the end of a turn, the seat that digs next
    logits = [scores[s] / temperature + (alpha[(s - nxt) % n - 1] if s != nxt else 0.0) for s in range(n)]
    top = max(logits)
    weights = [math.exp(x - top) for x in logits]
    total = sum(weights)
    return [x / total for x in weights]


@dataclass
class DiggerSearch(Bot):
    """Monte Carlo search of the digger's decisions, over the dice and the hidden clock.

    Each iteration draws a determinisation of the clock, then plays the turn out
    from every candidate action with the same dice and clock draws (common random
    numbers: the differences between the candidates are measured, not the luck
    of the dice): the candidate first, then the heuristic's play to the end of
    the turn, scored by each seat's chance of winning (:data:`VALUE_MODEL`).
    The candidate with the best total wins. It is one step of policy improvement
    over the heuristic, which it plays in its rollouts. ``iterations`` counts
    these rounds (each simulates every candidate once); ``seconds`` caps them by
    the clock instead.

    Candidates are every legal action (``grabs=1``, the default), or only
    roll-or-stop with the grabs left to the heuristic's rule (``grabs=0``). The
    generic ISMCTS over the digger's whole turn is ``ismcts`` (for Digger).
    """

    name: ClassVar[str] = "search"
    iterations: int | None = param(None, 1, 10_000_000)
    seconds: float | None = param(None, 0.001, 3600.0)
    jitter: float = param(0.2, 0.0, 1.0, high_open=True)
    """The spread assumed on each cost of the clock (the arena's clock uses 0.2)."""
    grabs: bool = True
    """Search the grabs too (every legal action is simulated), not only roll-or-stop."""
    clock: Clock | None = field(default=None, repr=False, metadata={"spec": False})
    last_iterations: int = field(default=0, init=False, repr=False, compare=False)

    DEFAULT_ITERATIONS: ClassVar[int] = 200

    def __post_init__(self) -> None:
        Budget(self.iterations, self.seconds)  # validates
        if not 0.0 <= self.jitter < 1.0:
            raise ValueError("jitter must be in [0, 1)")

    def act(self, view: SeatView, rng: random.Random, budget: Budget | None = None) -> int:
        legal = legal_actions_of(view)
        if len(legal) == 1:
            return legal[0]
        game = DiggerSearchGame(self.jitter)
        if self.grabs:
            candidates = list(legal)
        else:
            grab = game.heuristic.best_grab(view.data, legal)
            if grab is not None:
                return grab
            candidates = [ROLL, STOP]
        if budget is None:
            budget = Budget(self.iterations, self.seconds, self.clock) if self.clock else Budget(
                self.iterations, self.seconds)
        done = budget.stopper(self.DEFAULT_ITERATIONS)
        totals = dict.fromkeys(candidates, 0.0)
        me = view.seat
        it = 0
        while not done(it):
            it += 1
            det = game.determinise(view, rng)
            seed = rng.getrandbits(64)
            for action in candidates:
                state = det.clone()
                sim = random.Random(seed)  # the same dice and clock for both choices
                game.step(state, action, sim)
                totals[action] += game.rollout(state, sim, 0, me)[me]
        self.last_iterations = it
        return max(candidates, key=lambda a: (totals[a], -a))


def search_game(policy: str = "smart") -> DiggerSearchGame:
    """Digger's ISMCTS adapter (the game definition's ``search``); its rollouts
    are the heuristic's, so the rollout ``policy`` name is not used."""
    return DiggerSearchGame()
