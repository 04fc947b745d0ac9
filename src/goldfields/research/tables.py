"""What every research adapter shares: which game, how a game is driven, who won.

Pure Python (no numpy, no RL library), so it is importable everywhere. It only
talks to the engines through the :class:`~goldfields.core.game.GameState`
interface:

* :class:`DiggingSpec` and :class:`DiggerSpec` describe a table (players,
  partnership, rule options, the short variants) and decide when a game run
  by an adapter is over and what each seat gets.
* :class:`Match` drives one game with a ``random.Random`` the caller owns:
  chance outcomes are drawn with it, and a Digger step is stamped with the
  spec's :class:`~goldfields.digger.timing.TimeModel` (jitter drawn with the
  same generator). PettingZoo, Gymnasium, the training example and the
  benchmarks all use it; the OpenSpiel games deal and roll as explicit chance
  instead, but share the specs.

Utilities are the engine's (:meth:`GameState.returns`): a win is worth 1,
shared wins split 1 between the winners, and a partnership win gives *each*
partner 1. The short variants keep that: a single hand of Digging is won by
the side with the most points in it, and a game cut at ``max_moves`` /
``max_turns`` is won by the side then ahead (ties split, so the sum over seats
stays 1, or 2 in the partnership game).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.game import GameState

DIGGING = "digging"
DIGGER = "digger"


def side_returns(points: Sequence[float], partnership: bool) -> list[float]:
    """Utilities when the side(s) with the most points win: 1 shared by the
    leading sides; in the partnership game each partner of a leading team gets
    the team's share (seats 0+2 against 1+3)."""
    n = len(points)
    if partnership:
        sides = [points[0] + points[2], points[1] + points[3]]
        team = [s % 2 for s in range(n)]
    else:
        sides = list(points)
        team = list(range(n))
    top = max(sides)
    leaders = [i for i, v in enumerate(sides) if v == top]
    share = 1.0 / len(leaders)
    return [share if team[s] in leaders else 0.0 for s in range(n)]


@dataclass(frozen=True)
class DiggingSpec:
    """A Digging table as the adapters play it.

    ``partnership`` applies to four players only (2 and 3 players always play
    individually). ``single_hand`` ends the game after its first hand (the
    side with the most points in it wins); otherwise hands are dealt until the
    target, as the rules say. ``max_moves`` (decisions, 0 for no cap) cuts a
    game that runs too long: the partnership game has no bound of its own
    (partners may pass cards back and forth), and OpenSpiel needs one.
    """

    players: int = 4
    partnership: bool = True
    single_hand: bool = False
    max_moves: int = 0
    options: Any = None  # goldfields.digging.DiggingOptions or None

    name = DIGGING

    def __deepcopy__(self, memo: dict[int, Any]) -> DiggingSpec:
        return self  # immutable: states share it

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 4:
            raise ValueError(f"Digging is for 2 to 4 players, not {self.players}")
        if self.max_moves < 0:
            raise ValueError("max_moves must be 0 (no cap) or positive")

    @property
    def is_partnership(self) -> bool:
        return self.partnership and self.players == 4

    @property
    def num_actions(self) -> int:
        from ..digging import NUM_ACTIONS

        return NUM_ACTIONS

    @property
    def utility_sum(self) -> float:
        return 2.0 if self.is_partnership else 1.0

    def new_state(self) -> GameState:
        """The game before its first deal (a chance node)."""
        from ..digging import DiggingState

        return DiggingState(self.players, self.is_partnership, self.options)

    def deck(self) -> list[int]:
        """The cards in use, as codes (sorted): what a deal shuffles."""
        return sorted(self.new_state().sample_chance(random.Random(0)))

    def natural_bound(self) -> int | None:
        """Decisions a game can take at most without a cap, where finite
        (one hand of the individual game: every turn draws, plays, or is one
        of the last round's turns)."""
        if self.single_hand and not self.is_partnership:
            deck = len(self.deck())
            pile = deck - 6 * self.players
            return pile + deck + self.players
        return None

    def max_game_length(self) -> int:
        bound = self.natural_bound()
        if self.max_moves:
            return self.max_moves if bound is None else min(bound, self.max_moves)
        if bound is None:
            raise ValueError("this Digging variant has no bound of its own: give max_moves")
        return bound

    def stamp(self, state: GameState, action: int, rng: random.Random) -> float | None:
        return None  # Digging has no clock

    def hand_over(self, state: GameState, deals: int) -> bool:
        """A single-hand game ends when its hand is scored."""
        return self.single_hand and deals >= 1 and state.is_chance_node()

    def final_returns(self, state: GameState, truncated: bool) -> list[float]:
        if self.single_hand:
            obs = state.observation(None)
            points = obs["history"][0] if obs["history"] else obs["points"]
            return side_returns(points, self.is_partnership)
        if state.is_terminal() and not truncated:
            return state.returns()
        obs = state.observation(None)
        points = [t + p for t, p in zip(obs["totals"], obs["points"], strict=True)]
        return side_returns(points, self.is_partnership)

    def team(self, seat: int) -> int:
        return seat % 2 if self.is_partnership else seat


@dataclass(frozen=True)
class DiggerSpec:
    """A Digger table as the adapters play it.

    Time is simulated: every decision of the digger is stamped with
    ``time_model`` when the adapter applies it (jitter drawn with the
    adapter's generator). ``max_turns`` (0 for no cap) cuts a game that runs
    too long; the highest score then wins, as at the end of a game (G6).
    """

    players: int = 3
    crates: str = "white"
    max_turns: int = 0
    options: Any = None  # goldfields.digger.DiggerOptions or None
    time_model: Any = field(default=None)  # goldfields.digger.TimeModel; None: the default model

    name = DIGGER

    def __deepcopy__(self, memo: dict[int, Any]) -> DiggerSpec:
        return self  # immutable: states share it

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 5:
            raise ValueError(f"Digger is for 2 to 5 players, not {self.players}")
        if self.max_turns < 0:
            raise ValueError("max_turns must be 0 (no cap) or positive")

    @property
    def num_actions(self) -> int:
        from ..digger import NUM_ACTIONS

        return NUM_ACTIONS

    @property
    def utility_sum(self) -> float:
        return 1.0

    @property
    def model(self) -> Any:
        from ..clocks import DEFAULT_TIME_MODEL

        return self.time_model if self.time_model is not None else DEFAULT_TIME_MODEL

    def new_state(self) -> GameState:
        from ..digger import new_game

        return new_game(self.players, self.crates, self.options)

    def moves_per_turn(self) -> int:
        """An upper bound on a turn's decisions under a jitter-free model: every
        timed step costs at least min(roll, take) seconds, and one late step
        (or the stop) ends the turn."""
        model = self.model
        step = min(model.roll, model.take)
        if step <= 0:
            raise ValueError("a time model with a free roll or take puts no bound on a turn")
        limit = self.new_state().observation(None)["time_limit"]
        return int(limit / step) + 3

    def max_game_length(self) -> int:
        if not self.max_turns:
            raise ValueError("Digger has no bound of its own on its length: give max_turns")
        return self.max_turns * self.moves_per_turn()

    def stamp(self, state: GameState, action: int, rng: random.Random) -> float | None:
        return self.model.stamp(state, action, rng)

    def turn_of(self, state: GameState) -> int:
        return state.observation(None)["turn"]

    def final_returns(self, state: GameState, truncated: bool) -> list[float]:
        if state.is_terminal() and not truncated:
            return state.returns()
        return side_returns(state.scores(), False)


Spec = DiggingSpec | DiggerSpec

ENV_JITTER = 0.2
"""The jitter of the environments' simulated clock: the arena's."""


def env_time_model() -> Any:
    """The simulated clock of the PettingZoo and Gymnasium environments: the
    default :class:`~goldfields.digger.timing.TimeModel` costs with the arena's
    20% jitter, so that a digger cannot know exactly where the hourglass is."""
    from ..clocks import TimeModel

    return TimeModel(jitter=ENV_JITTER)


def make_spec(game: str, **kwargs: Any) -> Spec:
    if game == DIGGING:
        return DiggingSpec(**kwargs)
    if game == DIGGER:
        return DiggerSpec(**kwargs)
    raise ValueError(f"unknown game {game!r}: 'digging' or 'digger'")


class Match:
    """One game driven by an adapter: the engine state and what the adapter adds.

    ``rng`` draws every chance outcome (deals, rolls, knocks) and Digger's
    time jitter. :meth:`advance` resolves chance nodes until a seat has to
    decide or the game is over; :meth:`apply` applies a decision (stamped with
    the simulated clock in Digger) and advances.
    """

    __slots__ = ("deals", "moves", "rng", "spec", "state", "truncated", "turn")

    def __init__(self, spec: Spec, rng: random.Random) -> None:
        self.spec = spec
        self.rng = rng
        self.state = spec.new_state()
        self.deals = 0
        self.moves = 0
        self.turn = 0
        self.truncated = False
        self.advance()

    @property
    def over(self) -> bool:
        return (
            self.truncated
            or self.state.is_terminal()
            or (self.spec.name == DIGGING and self.spec.hand_over(self.state, self.deals))
        )

    @property
    def current_player(self) -> int:
        return -2 if self.over else self.state.current_player

    def advance(self) -> None:
        state = self.state
        while state.is_chance_node() and not self.over:
            if self.spec.name == DIGGING:
                self.deals += 1
            state.apply_chance(state.sample_chance(self.rng))

    def apply(self, action: int) -> list[Any]:
        state = self.state
        spec = self.spec
        events = state.apply_action(action, spec.stamp(state, action, self.rng))
        self.moves += 1
        if spec.name == DIGGER:
            for ev in events:
                if ev.kind == "turn_start":
                    self.turn += 1
            if spec.max_turns and self.turn >= spec.max_turns and not state.is_terminal():
                self.truncated = True
        elif spec.max_moves and self.moves >= spec.max_moves and not self.over:
            self.truncated = True
        self.advance()
        return events

    def returns(self) -> list[float]:
        if not self.over:
            return [0.0] * self.spec.players
        return self.spec.final_returns(self.state, self.truncated)
