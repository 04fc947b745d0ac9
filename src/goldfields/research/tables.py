"""What every research adapter shares: which game, how a game is driven, who won.

Pure Python (no numpy, no RL library), so it is importable everywhere. It only
talks to the engines through the :class:`~goldfields.core.game.GameState`
interface:

* :class:`DiggingSpec` and :class:`DiggerSpec` describe a table (players,
  partnership, rule options, the short variants) and decide when a game run
  by an adapter is over and what each seat gets.
* :class:`Match` drives one game with a ``random.Random`` the caller owns:
  chance outcomes are drawn with it, and a timed game's step is stamped with
  the spec's simulated clock (a :class:`~goldfields.clocks.TimeModel`, jitter
  drawn with the same generator). PettingZoo, Gymnasium, the training example and the
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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from ..core import registry
from ..core.definition import ParamError, Stamper
from ..core.game import GameState, RuleError
from ..digger.definition import DIGGER as DIGGER_GAME
from ..digging.definition import DIGGING as DIGGING_GAME
from ..digging.options import hand_size_for
from ..play.driver import Driver

DIGGING = DIGGING_GAME.name
DIGGER = DIGGER_GAME.name


def clock_refusal(state: GameState, action: int) -> RuleError | None:
    """The refusal of an action the engine takes but no seat may choose (None for any other):
    Digger's timeout, the clock's to call (see ``GameDefinition.clock_refusal``). The engines
    check every other decision themselves."""
    return registry.game_of(state).clock_refusal(state, action)


def refusal(state: GameState, action: int) -> RuleError | None:
    """Why a seat may not choose ``action`` now (None: it may), naming the rule it breaks.
    The engine is asked on a copy, so the game is left as it was."""
    if action in state.legal_actions():
        return None
    if (clock := clock_refusal(state, action)) is not None:
        return clock
    try:
        state.clone().apply_action(action)
    except RuleError as err:
        return err
    return RuleError("action", f"{action} is not a move a seat may choose now")


def side_returns(points: Sequence[float], sides: Sequence[Sequence[int]]) -> list[float]:
    """Utilities when the side(s) with the most points win: 1 shared by the
    leading sides; each seat of a leading side gets the side's share (in the
    partnership game both partners, seats 0+2 or 1+3). ``sides`` are the
    game definition's (:meth:`~goldfields.core.definition.GameDefinition.sides`)."""
    totals = [sum(points[s] for s in side) for side in sides]
    top = max(totals)
    leaders = [i for i, v in enumerate(totals) if v == top]
    share = 1.0 / len(leaders)
    out = [0.0] * len(points)
    for i in leaders:
        for s in sides[i]:
            out[s] = share
    return out


@dataclass(frozen=True)
class DiggingSpec:
    """A Digging table as the adapters play it.

    ``partnership`` applies to four players only (2 and 3 players always play
    individually, and the field then reads False whatever was passed, so the
    spec's repr and equality say what is played). ``single_hand`` ends the game after its first hand (the
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
    params: Any = field(default=None, init=False, compare=False, repr=False)

    name = DIGGING

    def __deepcopy__(self, memo: dict[int, Any]) -> DiggingSpec:
        return self  # immutable: states share it

    def __post_init__(self) -> None:
        # partnership means "if 4 players": the default True must not show in a 2-player spec's repr.
        object.__setattr__(self, "partnership", bool(self.partnership) and self.players == 4)
        # The game's own checks (players).
        object.__setattr__(self, "params", _params(DIGGING_GAME, players=self.players,
                                                   partnership=self.partnership, options=self.options))
        if self.max_moves < 0:
            raise ValueError("max_moves must be 0 (no cap) or positive")

    @property
    def is_partnership(self) -> bool:
        return bool(self.params.partnership)

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return DIGGING_GAME.sides(self.params)

    @property
    def num_actions(self) -> int:
        return DIGGING_GAME.num_actions

    @property
    def utility_sum(self) -> float:
        return 2.0 if self.is_partnership else 1.0

    @property
    def clock(self) -> Stamper | None:
        return None  # Digging has no clock

    def new_state(self) -> GameState:
        """The game before its first deal (a chance node)."""
        return DIGGING_GAME.new_state(self.params)

    def deck(self) -> list[int]:
        """The cards in use, as codes (sorted): what a deal shuffles."""
        return sorted(self.new_state().sample_chance(random.Random(0)))

    def dealt(self) -> int:
        """The cards a deal gives the players: 6 each (D1), or the ``hand_size`` option's."""
        return hand_size_for(self.params.options) * self.players

    def natural_bound(self) -> int | None:
        """Decisions a game can take at most without a cap, where finite
        (one hand of the individual game: every turn draws, plays, or is one
        of the last round's turns)."""
        if self.single_hand and not self.is_partnership:
            deck = len(self.deck())
            pile = deck - self.dealt()
            return pile + deck + self.players
        return None

    def max_game_length(self) -> int:
        bound = self.natural_bound()
        if self.max_moves:
            return self.max_moves if bound is None else min(bound, self.max_moves)
        if bound is None:
            raise ValueError(f"this {DIGGING_GAME.title} variant has no bound of its own: give max_moves")
        return bound

    def max_chance_nodes(self) -> int:
        """Chance nodes a game can hold at most, in the card-by-card deal of the OpenSpiel
        game: one per card of each deal. A hand cannot end before its pile is drawn, so a
        cap of ``max_moves`` decisions allows at most ``max_moves // pile + 1`` deals."""
        deck = len(self.deck())
        if self.single_hand:
            return deck
        pile = deck - self.dealt()
        return deck * (self.max_game_length() // pile + 1)

    def stamp(self, state: GameState, action: int, rng: random.Random | None) -> float | None:
        """No time: every spec stamps, so callers need not ask which game needs time."""
        return None

    def after_step(self, match: Match) -> None:
        if self.max_moves and match.moves >= self.max_moves and not match.over:
            match.truncated = True

    def hand_over(self, state: GameState, deals: int) -> bool:
        """A single-hand game ends when its hand is scored."""
        return self.single_hand and deals >= 1 and state.is_chance_node()

    def final_returns(self, state: GameState, truncated: bool) -> list[float]:
        if self.single_hand:
            obs = state.observation(None)
            points = obs["history"][0] if obs["history"] else obs["points"]
            return side_returns(points, self.sides)
        if state.is_terminal() and not truncated:
            return state.returns()
        obs = state.observation(None)
        # Between hands (cut where a hand ended) the hand just scored is in the totals already,
        # though its mines, and so its points, are still shown.
        points = obs["totals"] if state.is_chance_node() else [
            t + p for t, p in zip(obs["totals"], obs["points"], strict=True)]  # fmt: skip
        return side_returns(points, self.sides)

    def team(self, seat: int) -> int:
        return DIGGING_GAME.side_of(self.params, seat)

    def standing(self, state: GameState) -> list[int]:
        """Points per seat the play so far has earned: the hand's closed mines
        (public), which is what a hand is decided on."""
        points: list[int] = state.observation(None)["points"]
        return points


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
    time_model: Any = field(default=None)  # goldfields.clocks.TimeModel; None: the default model
    params: Any = field(default=None, init=False, compare=False, repr=False)

    name = DIGGER

    def __deepcopy__(self, memo: dict[int, Any]) -> DiggerSpec:
        return self  # immutable: states share it

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", _params(DIGGER_GAME, players=self.players, crates=self.crates,
                                                   options=self.options))
        if self.max_turns < 0:
            raise ValueError("max_turns must be 0 (no cap) or positive")

    @property
    def num_actions(self) -> int:
        return DIGGER_GAME.num_actions

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return DIGGER_GAME.sides(self.params)

    @property
    def utility_sum(self) -> float:
        return 1.0

    @property
    def model(self) -> Any:
        from ..clocks import DEFAULT_TIME_MODEL

        return self.time_model if self.time_model is not None else DEFAULT_TIME_MODEL

    @property
    def clock(self) -> Stamper:
        return self.model

    def new_state(self) -> GameState:
        return DIGGER_GAME.new_state(self.params)

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
            raise ValueError(f"{DIGGER_GAME.title} has no bound of its own on its length: give max_turns")
        return self.max_turns * self.moves_per_turn()

    def stamp(self, state: GameState, action: int, rng: random.Random) -> float | None:
        return self.model.stamp(state, action, rng)

    def hand_over(self, state: GameState, deals: int) -> bool:
        return False

    def past_cap(self, state: GameState) -> bool:
        """Whether the game is cut now: ``max_turns`` turns are over and it has not ended. The
        engine counts the turns, so a turn a knock ends (G5, a chance step) counts too."""
        return bool(self.max_turns) and state.turn >= self.max_turns and not state.is_terminal()  # type: ignore[attr-defined]

    def after_step(self, match: Match) -> None:
        if self.past_cap(match.state):
            match.truncated = True

    def final_returns(self, state: GameState, truncated: bool) -> list[float]:
        if state.is_terminal() and not truncated:
            return state.returns()
        return side_returns(state.scores(), self.sides)

    def standing(self, state: GameState) -> list[int]:
        """Points per seat so far: the scores."""
        return list(state.scores())


@dataclass(frozen=True)
class GameSpec:
    """Any registered game as the adapters play it: its definition's parameters
    (``params``, e.g. ``{"players": 2}``), its simulated clock with the
    environments' jitter where it needs time, and a cap of ``max_moves``
    decisions (0: none; OpenSpiel needs one). A cut game is won by the side
    then ahead on points."""

    game: str
    params_json: tuple[tuple[str, Any], ...] = ()
    max_moves: int = 0
    params: Any = field(default=None, init=False, compare=False, repr=False)

    def __deepcopy__(self, memo: dict[int, Any]) -> GameSpec:
        return self  # immutable: states share it

    def __post_init__(self) -> None:
        definition = registry.get(self.game)
        object.__setattr__(self, "params", _params(definition, **dict(self.params_json)))
        if self.max_moves < 0:
            raise ValueError("max_moves must be 0 (no cap) or positive")

    @classmethod
    def make(cls, game: str, max_moves: int = 0, **params: Any) -> GameSpec:
        return cls(game, tuple(sorted(params.items())), max_moves)

    @property
    def definition(self) -> Any:
        return registry.get(self.game)

    @property
    def name(self) -> str:
        return self.game

    @property
    def players(self) -> int:
        return int(self.params.players)

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return tuple(self.definition.sides(self.params))

    @property
    def num_actions(self) -> int:
        return int(self.definition.num_actions)

    @property
    def utility_sum(self) -> float:
        return float(max(len(side) for side in self.sides))

    @property
    def clock(self) -> Stamper | None:
        return self.definition.simulated_clock(ENV_JITTER)

    def new_state(self) -> GameState:
        return self.definition.new_state(self.params)

    def max_game_length(self) -> int:
        if not self.max_moves:
            raise ValueError(f"give max_moves: the adapters cannot know a bound on {self.game}'s length")
        return self.max_moves

    def stamp(self, state: GameState, action: int, rng: random.Random | None) -> float | None:
        clock = self.definition.simulated_clock()
        return None if clock is None else clock.stamp(state, action, rng)

    def hand_over(self, state: GameState, deals: int) -> bool:
        return False

    def after_step(self, match: Match) -> None:
        if self.max_moves and match.moves >= self.max_moves and not match.over:
            match.truncated = True

    def final_returns(self, state: GameState, truncated: bool) -> list[float]:
        if state.is_terminal() and not truncated:
            return state.returns()
        return side_returns(state.scores(), self.sides)

    def standing(self, state: GameState) -> list[int]:
        """Points per seat so far: the scores."""
        return list(state.scores())


Spec = DiggingSpec | DiggerSpec | GameSpec


def _params(definition: Any, **values: Any) -> Any:
    """The game's parameters, checked by its definition (a ValueError names the one at fault)."""
    try:
        return definition.params(**values)
    except ParamError as err:
        raise ValueError(err.in_game(definition.title)) from None

ENV_JITTER = 0.2
"""The jitter of the environments' simulated clock: the arena's."""


def make_env_spec(game: str, **kwargs: Any) -> Spec:
    """The spec of the PettingZoo and Gymnasium environments: :func:`make_spec`,
    with a timed game's clock jittered as in the arena unless a ``time_model`` is given."""
    spec_class = SPECS.get(game)
    if spec_class is not None and _has_field(spec_class, "time_model") and kwargs.get("time_model") is None:
        kwargs["time_model"] = env_time_model()
    return make_spec(game, **kwargs)


def _has_field(spec_class: Any, name: str) -> bool:
    return any(f.name == name for f in fields(spec_class))


def env_time_model() -> Any:
    """The simulated clock of the PettingZoo and Gymnasium environments: the
    default :class:`~goldfields.clocks.TimeModel` costs with the arena's
    20% jitter, so that a digger cannot know exactly where the hourglass is."""
    from ..clocks import TimeModel

    return TimeModel(jitter=ENV_JITTER)


SPECS: dict[str, Any] = {DIGGING: DiggingSpec, DIGGER: DiggerSpec}
"""The shipped games' specs, with their research-only knobs (single hands, turn caps)."""


def make_spec(game: str, **kwargs: Any) -> Spec:
    """The spec of a registered game: the shipped games' own, else :class:`GameSpec`."""
    try:
        registry.get(game)
    except registry.UnknownGame as err:
        raise ValueError(str(err)) from None
    if game in SPECS:
        refuse_unknown(game, kwargs)
    spec: Spec = SPECS[game](**kwargs) if game in SPECS else GameSpec.make(game, **kwargs)
    return spec


def refuse_unknown(game: str, table: Mapping[str, Any]) -> None:
    """Refuse a shipped game's table argument its spec does not take, and say where a rule
    option given as an argument of its own goes."""
    accepted = sorted(f.name for f in fields(SPECS[game]) if f.init)
    unknown = sorted(set(table) - set(accepted))
    if unknown:
        options = {f.name for f in fields(_options_class(game))}
        rule = sorted(set(unknown) & options)
        hint = f"; a rule option goes in options=, e.g. options={{{rule[0]!r}: ...}}" if rule else ""
        raise ValueError(f"{game}: unknown parameter(s) {', '.join(unknown)}; known: {', '.join(accepted)}{hint}")


def _options_class(game: str) -> Any:
    """The rule options of a shipped game."""
    if game == DIGGING:
        from ..digging.options import DiggingOptions

        return DiggingOptions
    from ..digger.options import DiggerOptions

    return DiggerOptions


class Match:
    """One game driven by an adapter: the engine state and what the adapter adds.

    ``rng`` draws every chance outcome (deals, rolls, knocks) and the clock's
    jitter, through the one game driver (:class:`goldfields.play.driver.Driver`).
    :meth:`advance` resolves chance nodes until a seat has to decide or the
    game is over; :meth:`apply` applies a decision (stamped with the spec's
    simulated clock where the game needs time) and advances.
    """

    __slots__ = ("deals", "driver", "moves", "rng", "spec", "state", "truncated")

    def __init__(self, spec: Spec, rng: random.Random) -> None:
        self.spec = spec
        self.rng = rng
        self.state = spec.new_state()
        n = self.state.num_players
        # The adapter's seats are all "humans" to the driver: the adapter decides for them.
        self.driver = Driver(self.state, [None] * n, rng, [rng] * n, clock=spec.clock)
        self.deals = 0
        self.moves = 0
        self.truncated = False
        self.advance()

    @property
    def over(self) -> bool:
        return self.truncated or self.state.is_terminal() or self.spec.hand_over(self.state, self.deals)

    @property
    def current_player(self) -> int:
        return -2 if self.over else self.state.current_player

    def advance(self) -> None:
        while self.state.is_chance_node() and not self.over:
            self.deals += 1
            self.driver.chance()
            self.spec.after_step(self)

    def apply(self, action: int) -> list[Any]:
        events = self.driver.apply(action)
        self.moves += 1
        self.spec.after_step(self)
        self.advance()
        return events

    def returns(self) -> list[float]:
        if not self.over:
            return [0.0] * self.spec.players
        return self.spec.final_returns(self.state, self.truncated)
