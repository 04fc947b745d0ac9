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
  which the digger could not know), then score the position: each seat's lead
  over its best opponent through a logistic curve.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import ClassVar

from ..core.game import TERMINAL, GameState, SeatView
from ..digger.actions import ROLL, STOP
from ..digger.dice import FACES, GEMS
from ..digger.state import DiggerState
from ..digger.timing import DEFAULT_TIME_MODEL, TimeModel
from .base import Bot, Budget, Clock, legal_actions_of
from .digger_heuristic import DiggerHeuristic, facts
from .ismcts import SearchGame

SCALE = 10.0
"""Points of lead that make a seat's value 0.73 (logistic)."""


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
        if view.seat == state.digger and state.started and self.jitter:
            # Redraw the hidden time as a jittered clock could have run it.
            m = DEFAULT_TIME_MODEL
            j = self.jitter
            rolls = max(0, state.requests() - 1)
            t = sum(m.roll * rng.uniform(1 - j, 1 + j) for _ in range(rolls))
            t += sum(m.take * rng.uniform(1 - j, 1 + j) for _ in range(state.haul_size))
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
    if st._to_move == TERMINAL:
        return st.returns()
    scores = st.scores()
    n = len(scores)
    out = []
    for s in range(n):
        lead = scores[s] - max(scores[o] for o in range(n) if o != s)
        out.append(1.0 / (1.0 + math.exp(-lead / SCALE)))
    return out


@dataclass
class DiggerSearch(Bot):
    """Monte Carlo search of the digger's decisions, over the dice and the hidden clock.

    Each iteration draws a determinisation of the clock, then plays the turn out
    from every candidate action with the same dice and clock draws (common random
    numbers: the differences between the candidates are measured, not the luck
    of the dice): the candidate first, then the heuristic's play to the end of
    the turn, scored by each seat's lead. The candidate with the best total wins.
    It is one step of policy improvement over the heuristic, which it plays
    in its rollouts. ``iterations`` counts these rounds (each simulates every
    candidate once); ``seconds`` caps them by the clock instead.

    Candidates are every legal action (``grabs=1``, the default), or only
    roll-or-stop with the grabs left to the heuristic's rule (``grabs=0``). The
    generic ISMCTS over the digger's whole turn is ``ismcts`` (for Digger).
    """

    name: ClassVar[str] = "search"
    iterations: int | None = None
    seconds: float | None = None
    jitter: float = 0.2
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
