"""Digging and Digger as OpenSpiel games (``pyspiel.register_game``).

Importing this module registers two Python games::

    import pyspiel
    import goldfields.research.openspiel_games  # noqa: F401  (registers)

    game = pyspiel.load_game("python_goldfields_digging(players=2,single_hand=True)")
    game = pyspiel.load_game("python_goldfields_digger(players=3,crates=black,max_turns=30)")

``python_goldfields_digging`` parameters:

=============  =======  ======================================================
parameter      default  meaning
=============  =======  ======================================================
players        4        2, 3 or 4
partnership    True     seats 0+2 against 1+3; applies to 4 players only
single_hand    False    end after one hand (the side with most points in it wins)
max_moves      0        cut the game after this many decisions (0: automatic,
                        see below); the side then ahead wins
=============  =======  ======================================================

and the rule options (docs/digging.md): ``target_exceeded``, ``full_deck``,
``no_chests_during_fight`` and ``close_needs_chest``, each ``False`` by default,
``target`` (0, the rules' target; else the points that win, 1 to 120) and
``hand_size`` (0, the rules' 6; else the cards dealt each, 1 to 12).

``python_goldfields_digger`` parameters: ``players`` (3; 2 to 5), ``crates``
(``white`` or ``black``), ``max_turns`` (300, also what 0 means; the game is
cut after that many turns and the highest score wins) and the rule options
``time_limit`` (30.0), ``knock_probability`` (0.0, rule G5),
``stack_seconds`` (0.0, off) and ``crate_values`` (none; rule G1, written
``white:Y2R3G4W6;A:Y1R3G5W6``; docs/digger.md and docs/research.md).

What the adapters add to the engines (everything else is the engine's):

* **Chance is explicit.** Digging's deal is dealt card by card: one chance
  node per card of the deck in use (hands, then the pile, top card first),
  whose outcomes are the card codes still in the deck, with probability
  proportional to their copies left. The engine receives the whole deck when
  the last card is dealt. A seat sees its cards when the deal is complete.
  Digger's rolls are chance nodes with the engine's 252 outcomes (ids index
  ``goldfields.digger.ROLL_OUTCOMES``); a steal under the G5 option is
  followed by a knock node (0 safe, 1 knocked).
* **Actions are checked.** OpenSpiel's ``apply_action`` checks nothing itself,
  so the states do, before anything changes: a finished game refuses every
  action, and a chance node takes only one of its ``chance_outcomes()`` with
  a positive probability. A refusal raises :class:`~goldfields.core.game.RuleError`
  (a ``ValueError``) naming the rule (``D9``/``G6`` when the game is over,
  ``end`` when the table's cap or ``single_hand`` ended it, ``D1`` for a deal,
  ``G2`` a roll, ``G5`` a knock) and leaves the state as it was.
* **Time is simulated** (Digger): each decision is stamped with the default
  :class:`~goldfields.clocks.TimeModel` (2 s a roll, 1 s a take or
  steal, 0.5 s per token stacked, no jitter), so a state is a function of its
  action history, as OpenSpiel requires. The digger's observation carries no
  time (the engine hides the hourglass from it). With no jitter, the time is
  a function of the history every seat has seen, so an information state
  holds one state, and ``resample_from_infostate`` returns a copy of it (the
  engine's sampler, which knows no clock, would set the hourglass back to 0).
* **Length.** OpenSpiel needs a bound on a game's decisions. One hand of the
  individual game is bounded by the deck; the partnership game is not
  (partners may pass cards back and forth), nor is a full game (a tie at the
  target deals another hand), nor Digger (a lost haul returns the water). So
  ``max_moves`` 0 means: no cap where the game is bounded, else 1000
  decisions for a single hand, 5000 for a full game. Random play ends far
  sooner (docs/research.md).
* **Utility** is the engine's ``returns()``: 1 for a win, shared wins split,
  each partner of a winning team gets 1. So the games are constant-sum, with
  sum 2 in the partnership game and 1 otherwise.
* ``resample_from_infostate(player, sampler)`` draws with the engine's
  sampler (``GameState.resample``), seeded from ``sampler``. A resampled
  Digging state starts a fresh OpenSpiel history (its ``history()`` is empty,
  since the sampler draws hidden cards from what the seat knows, not a past);
  it keeps the public history, so its information state string equals the
  original's. A resampled Digger state keeps its history (nothing but the
  clock is hidden, and the clock follows from the history).
"""

from __future__ import annotations

import json
import random
from dataclasses import fields
from typing import Any

from ._deps import require

pyspiel: Any = require("pyspiel", "goldfields.research.openspiel_games")
np = require("numpy", "goldfields.research.openspiel_games")

from ..core import registry  # noqa: E402
from ..core.game import RuleError  # noqa: E402
from ..digger import ROLL_OUTCOMES  # noqa: E402
from ..digger.crates import Override, override_from_text, override_text  # noqa: E402
from ..digger.options import DEFAULT_TIME_LIMIT, DiggerOptions  # noqa: E402
from ..digging.actions import NUM_ACTIONS as DIGGING_ACTIONS  # noqa: E402
from ..digging.cards import CODES, NUM_CODES  # noqa: E402
from ..digging.options import DiggingOptions  # noqa: E402
from .observers import GoldfieldsObserver, observation_text  # noqa: E402
from .tables import DiggerSpec, DiggingSpec, GameSpec, clock_refusal  # noqa: E402


def openspiel_name(game: str) -> str:
    """The OpenSpiel short name of registered game ``game``: ``python_goldfields_<game>``."""
    return f"python_goldfields_{game}"


DIGGING_NAME = openspiel_name(DiggingSpec.name)
DIGGER_NAME = openspiel_name(DiggerSpec.name)
AUTO_MAX_MOVES_SINGLE_HAND = 1000
AUTO_MAX_MOVES_FULL_GAME = 5000
DEFAULT_MAX_TURNS = 300

_ROLL_IDS = [(i, p) for i, (_, p) in enumerate(ROLL_OUTCOMES)]
_ROLL_TEXT = [text for text, _ in ROLL_OUTCOMES]


def _game_type(short: str, long: str, min_players: int, max_players: int, params: dict[str, Any]) -> Any:
    return pyspiel.GameType(
        short_name=short,
        long_name=long,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        # The perfect-recall string is an information state; the tensor is the observation's
        # fixed-size summary, which merges information states. Said here, so that a tool that
        # reads the flag (rl_environment, and NFSP through it) takes the observation tensor for
        # what it is. Deep CFR reads the tensor without asking: docs/research.md warns.
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=params,
    )


DIGGING_TYPE = _game_type(
    DIGGING_NAME,
    f"goldfields {registry.get(DiggingSpec.name).title} (Knizia)",
    2,
    4,
    {"players": 4, "partnership": True, "single_hand": False, "max_moves": 0,
     **{f.name: f.default for f in fields(DiggingOptions)}},
)
DIGGER_TYPE = _game_type(
    DIGGER_NAME,
    f"goldfields {registry.get(DiggerSpec.name).title} (Fraga), simulated clock",
    2,
    5,
    {"players": 3, "crates": "white", "knock_probability": 0.0, "max_turns": DEFAULT_MAX_TURNS,
     "time_limit": DEFAULT_TIME_LIMIT, "stack_seconds": 0.0, "crate_values": ""},
)

def crate_values_param(text: str) -> Override:
    """Digger's ``crate_values`` rule option from its OpenSpiel parameter.

    OpenSpiel writes a game as ``name(key=value,...)`` and splits it at every
    comma (``str(game)`` and pickling go through that text), so the cards are
    written short, without one (``white:Y2R3G4W6;A:Y1R3G5W6``,
    :func:`~goldfields.digger.crates.override_from_text`). The JSON of
    docs/digger.md is read too, where the parameters are given as a dict.
    """
    return override_from_text(text)


def crate_values_text(override: Override) -> str:
    """The OpenSpiel parameter that :func:`crate_values_param` reads as ``override``."""
    return override_text(override)


class _Reloaded:
    """Pickles a game as OpenSpiel names it, and loads it again by that name.

    pyspiel pickles a game through its text too, but rebuilds a Python game
    without calling ``__init__``: its ``spec`` would be missing, and the game
    unplayable, in another process (``multiprocessing``, Ray).
    """

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return pyspiel.load_game, (str(self),)


class _Core:
    """The mutable part of a state, copied fast when OpenSpiel clones (it deep-copies ``__dict__``)."""

    __slots__ = ("deals", "dealt", "engine", "left", "moves", "private", "public", "truncated", "turn")

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.dealt: list[int] = []  # Digging: cards of the deal under way
        self.left: list[int] = []  # Digging: copies per code not dealt yet
        self.deals = 0
        self.moves = 0
        self.truncated = False
        self.public = ""  # the public history, one token per move, "|"-separated
        self.private: dict[int, str] = {}  # per seat: each private detail it was shown, in order

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        new = object.__new__(_Core)
        new.engine = self.engine.clone()
        new.dealt = self.dealt[:]
        new.left = self.left[:]
        new.deals = self.deals
        new.moves = self.moves
        new.truncated = self.truncated
        new.public = self.public
        new.private = dict(self.private)
        return new

    def note_private(self, events: list[Any]) -> None:
        """Add to each seat's private history what ``events`` showed it alone (perfect recall)."""
        for ev in events:
            for seat, details in (ev.private or {}).items():
                shown = json.dumps(details, separators=(",", ":"), sort_keys=True)
                self.private[seat] = self.private.get(seat, "") + f"|{self.moves}:{ev.kind}:{shown}"


def _state_text(engine: Any, extra: dict[str, Any]) -> str:
    data = engine.to_json()
    data.pop("logs", None)
    data.update(extra)
    return json.dumps(data, separators=(",", ":"))


# ---------------------------------------------------------------------------
# Digging
# ---------------------------------------------------------------------------
class DiggingGame(_Reloaded, pyspiel.Game):
    """Digging as an OpenSpiel game (see the module docstring for the parameters)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**DIGGING_TYPE.parameter_specification, **(params or {})}
        if int(p["max_moves"]) < 0:
            raise ValueError("max_moves must be positive, or 0 for a cap chosen from the game's length "
                             f"({AUTO_MAX_MOVES_SINGLE_HAND} for a single hand, {AUTO_MAX_MOVES_FULL_GAME} for a "
                             "whole game, none where the game has a bound of its own)")
        # The rule options (docs/digging.md), each a parameter of its own: the numbers (target,
        # hand_size) whole numbers, the rest on/off.
        values: dict[str, Any] = {
            f.name: int(p[f.name]) if "limits" in f.metadata else bool(p[f.name]) for f in fields(DiggingOptions)
        }
        chosen = DiggingOptions(**values)
        options = chosen if chosen != DiggingOptions() else None  # standard rules: the spec as ever
        spec = DiggingSpec(int(p["players"]), bool(p["partnership"]), bool(p["single_hand"]), int(p["max_moves"]),
                           options)  # fmt: skip
        if not spec.max_moves and spec.natural_bound() is None:
            auto = AUTO_MAX_MOVES_SINGLE_HAND if spec.single_hand else AUTO_MAX_MOVES_FULL_GAME
            spec = DiggingSpec(spec.players, spec.partnership, spec.single_hand, auto, options)
        self.spec = spec
        self.deck = spec.deck()
        info = pyspiel.GameInfo(
            num_distinct_actions=DIGGING_ACTIONS,
            max_chance_outcomes=NUM_CODES,
            num_players=spec.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=spec.utility_sum,
            max_game_length=spec.max_game_length(),
        )
        super().__init__(DIGGING_TYPE, info, params or {})

    def new_initial_state(self) -> DiggingOSState:
        return DiggingOSState(self)

    def max_chance_nodes_in_history(self) -> int:
        # OpenSpiel's default is max_game_length, which counts decisions only; a deal alone
        # is one chance node per card.
        return self.spec.max_chance_nodes()

    def max_history_length(self) -> int:
        return self.spec.max_game_length() + self.max_chance_nodes_in_history()

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> GoldfieldsObserver:
        return GoldfieldsObserver(self.spec.name, iig_obs_type, params)


class _EngineOSState(pyspiel.State):
    """What both games' OpenSpiel states share: the engine in a :class:`_Core`,
    whose turn it is, the legal actions, returns and what a seat may know."""

    _core: _Core
    _spec: Any
    _END_RULE = "end"
    """The rule that ends the game in the engine (Digging's D9, Digger's G6); the core's ``end`` otherwise."""

    @property
    def dealing_text(self) -> str:
        """A deal under way, for the observation strings ("" when none is)."""
        return ""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self._spec = game.spec
        self._core = _Core(game.spec.new_state())

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state ``player_id`` cannot tell apart, drawn with the engine's sampler."""
        return self._resampled(player_id, random.Random(int(probability_sampler() * 2**53)))

    def _resampled(self, player_id: int, rng: random.Random) -> Any:
        """A fresh state around the engine's sample. Its OpenSpiel history starts empty: this
        one's holds the true chance outcomes. It keeps the public history and the player's own
        private one, and no other seat's: the sampler drew their hidden parts afresh."""
        new = type(self)(self.get_game())
        core = _Core(self._core.engine.resample(player_id, rng))
        core.deals = self._core.deals
        core.moves = self._core.moves
        core.truncated = self._core.truncated
        core.public = self._core.public
        core.private = {player_id: self._core.private.get(player_id, "")}
        new._core = core
        return new

    def _over(self) -> bool:
        return self._core.truncated or self._core.engine.is_terminal()

    def current_player(self) -> int:
        if self._over():
            return pyspiel.PlayerId.TERMINAL
        engine = self._core.engine
        if engine.is_chance_node():
            return pyspiel.PlayerId.CHANCE
        return engine.current_player

    def is_terminal(self) -> bool:
        return self._over()

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._core.engine.legal_actions())

    def _apply_action(self, action: int) -> None:
        # OpenSpiel's State.apply_action hands any integer on, at the end of a game and at a
        # chance node alike: check here, before anything changes, so that a refusal leaves the
        # state as it was (the engine checks the decisions it is handed itself).
        if self._over():
            raise self._game_over(action)
        engine = self._core.engine
        if engine.is_chance_node():
            self._check_outcome(action)
        elif (clock := clock_refusal(engine, action)) is not None:
            raise clock
        self._apply(action)

    def _apply(self, action: int) -> None:
        raise NotImplementedError

    def _check_outcome(self, action: int) -> None:
        """Refuse ``action`` at this chance node unless ``chance_outcomes()`` gives it a positive probability."""
        if not any(a == action and p > 0.0 for a, p in self.chance_outcomes()):
            raise RuleError("chance", f"{action} is not one of this chance node's outcomes")

    def _cut(self) -> str:
        """Why the table, not the rules, ended this game."""
        return f"it was cut after max_moves={self._spec.max_moves} decisions and adjudicated"

    def _game_over(self, action: int) -> RuleError:
        if self._core.engine.is_terminal():
            return RuleError(self._END_RULE, f"the game is over: no action may follow (got {action})")
        return RuleError("end", f"the game is over: {self._cut()}; no action may follow (got {action})")

    def returns(self) -> list[float]:
        if not self._over():
            return [0.0] * self._spec.players
        return self._spec.final_returns(self._core.engine, self._core.truncated)

    # -- what a seat knows (used by GoldfieldsObserver) ---------------------
    def seat_observation(self, player: int) -> dict[str, Any]:
        return self._core.engine.observation(player)

    def public_observation(self) -> dict[str, Any]:
        return self._core.engine.observation(None)

    def public_history(self) -> str:
        return self._core.public

    def private_history(self, player: int) -> str:
        """What ``player`` alone was shown, in order (its part of a perfect-recall information state)."""
        return self._core.private.get(player, "")

    def engine_state(self) -> Any:
        """The engine's state (full information: for tools and tests, never for a seat)."""
        return self._core.engine


class DiggingOSState(_EngineOSState):
    """A Digging state for OpenSpiel: the engine state plus the deal under way."""

    def __init__(self, game: DiggingGame) -> None:
        super().__init__(game)
        self._deck_size = len(game.deck)
        self._reset_deal(game.deck)

    def _reset_deal(self, deck: list[int]) -> None:
        left = [0] * NUM_CODES
        for c in deck:
            left[c] += 1
        self._core.left = left
        self._core.dealt = []

    # -- whose turn -------------------------------------------------------
    def _over(self) -> bool:
        core = self._core
        engine = core.engine
        return core.truncated or engine.is_terminal() or self._spec.hand_over(engine, core.deals)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = self._core.left
        total = sum(left)
        return [(c, k / total) for c, k in enumerate(left) if k]

    _END_RULE = "D9"

    def _check_outcome(self, action: int) -> None:
        if not 0 <= action < NUM_CODES:
            raise RuleError("D1", f"a card of the deal is a card code from 0 to {NUM_CODES - 1}, not {action}")
        if self._core.left[action] <= 0:
            dealt = len(self._core.dealt)
            raise RuleError(
                "D1",
                f"deal {CODES[action]}: every copy of it in the deck is dealt already "
                f"({dealt} of {self._deck_size} cards dealt)",
            )

    def _cut(self) -> str:
        if self._spec.single_hand and not self._core.truncated:
            return "single_hand: its one hand is scored"
        return super()._cut()

    def _apply(self, action: int) -> None:
        core = self._core
        engine = core.engine
        if engine.is_chance_node():
            core.dealt.append(action)
            core.left[action] -= 1
            if len(core.dealt) == self._deck_size:
                core.note_private(engine.apply_chance(core.dealt))
                core.deals += 1
                core.public += "|deal"
                self._reset_deal(core.dealt)
            return
        seat = engine.current_player
        text = engine.action_to_string(action)
        core.note_private(engine.apply_action(action))
        core.moves += 1
        core.public += f"|{seat}:{'pass' if text.startswith('pass') else text}"
        if self._spec.max_moves and core.moves >= self._spec.max_moves and not self._over():
            core.truncated = True

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CODES[action]}"
        return self._core.engine.action_to_string(action)

    @property
    def dealing_text(self) -> str:
        dealt = len(self._core.dealt)
        return f"dealing {dealt}/{self._deck_size}" if dealt else ""

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> DiggingOSState:
        """A state drawn among those ``player_id`` cannot tell apart (the engine's sampler).

        Its ``history()`` starts empty and its ``move_number()`` at 0 (see :meth:`_resampled`):
        the true history holds the hidden cards dealt. Its information state strings and
        tensors are those of this state for ``player_id``."""
        rng = random.Random(int(probability_sampler() * 2**53))
        game = self.get_game()
        new: DiggingOSState = self._resampled(player_id, rng)
        core = new._core
        new._reset_deal(game.deck)
        if self._core.dealt:
            # The cards of a deal under way are seen by no seat yet: any cards will do.
            deck = game.deck[:]
            rng.shuffle(deck)
            for c in deck[: len(self._core.dealt)]:
                core.dealt.append(c)
                core.left[c] -= 1
        return new

    def __str__(self) -> str:
        core = self._core
        return _state_text(
            core.engine,
            {"dealt": [CODES[c] for c in core.dealt], "moves": core.moves, "truncated": core.truncated},
        )


# ---------------------------------------------------------------------------
# Digger
# ---------------------------------------------------------------------------
class DiggerGame(_Reloaded, pyspiel.Game):
    """Digger as an OpenSpiel game, on the default simulated clock."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**DIGGER_TYPE.parameter_specification, **(params or {})}
        # 0 is "automatic", as Digging's max_moves=0 is: OpenSpiel needs a bound, and Digger has none.
        max_turns = int(p["max_turns"]) or DEFAULT_MAX_TURNS
        if max_turns < 0:
            raise ValueError(f"max_turns must be positive, or 0 for the default {DEFAULT_MAX_TURNS}: "
                             "OpenSpiel needs a bound on a game's length")
        crates = crate_values_param(str(p["crate_values"]))
        options = DiggerOptions(time_limit=float(p["time_limit"]), knock_probability=float(p["knock_probability"]),
                                stack_seconds=float(p["stack_seconds"]), crate_values=crates)  # fmt: skip
        self.spec = DiggerSpec(int(p["players"]), str(p["crates"]), max_turns, options)
        if params and "crate_values" in params:
            # Written back in the comma-free notation: the game's text must load again.
            params = {**params, "crate_values": crate_values_text(crates)}
        info = pyspiel.GameInfo(
            num_distinct_actions=self.spec.num_actions,
            max_chance_outcomes=len(ROLL_OUTCOMES),
            num_players=self.spec.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=self.spec.max_game_length(),
        )
        super().__init__(DIGGER_TYPE, info, params or {})

    def new_initial_state(self) -> DiggerOSState:
        return DiggerOSState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> GoldfieldsObserver:
        return GoldfieldsObserver(self.spec.name, iig_obs_type, params)


class DiggerOSState(_EngineOSState):
    """A Digger state for OpenSpiel: every decision stamped by the simulated clock."""

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes = self._core.engine.chance_outcomes()
        if len(outcomes) > 2:
            return list(_ROLL_IDS)  # the caller may sort or pop it (OpenSpiel's tests do)
        return [(int(knocked), p) for knocked, p in outcomes if p > 0.0]

    _END_RULE = "G6"

    def _check_outcome(self, action: int) -> None:
        outcomes = self._core.engine.chance_outcomes()
        if len(outcomes) > 2:
            if not 0 <= action < len(_ROLL_TEXT):
                raise RuleError("G2", f"a roll's outcome is an id from 0 to {len(_ROLL_TEXT) - 1}, not {action}")
            return
        if action not in (0, 1):
            raise RuleError("G5", f"a knock's outcome is 0 (safe) or 1 (knocked), not {action}")
        if dict(outcomes)[bool(action)] <= 0.0:
            raise RuleError(
                "G5",
                f"{'knocked' if action else 'safe'} cannot happen: its probability is 0 "
                f"(knock_probability {self._core.engine.knock_probability})",
            )

    def _cut(self) -> str:
        return f"it was cut after max_turns={self._spec.max_turns} turns and adjudicated"

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> DiggerOSState:
        """A copy: under the jitter-free clock the history fixes the hourglass, and nothing else is
        hidden, so every seat's information state holds this one state."""
        new: DiggerOSState = self.clone()
        return new

    def _apply(self, action: int) -> None:
        core = self._core
        engine = core.engine
        if engine.is_chance_node():
            if len(engine.chance_outcomes()) > 2:
                faces = _ROLL_TEXT[action]
                engine.apply_chance(faces)
                core.public += f"|{faces}"
            else:  # a knock (G5) ends the turn here; the outcome is 0 or 1, checked above
                engine.apply_chance(bool(action))
                core.public += "|knock" if action else "|safe"
        else:
            seat = engine.current_player
            text = engine.action_to_string(action)
            events = engine.apply_action(action, self._spec.stamp(engine, action, None))
            core.note_private(events)
            core.moves += 1
            core.public += f"|{seat}:{text}"
            if any(ev.kind == "timeout" for ev in events):
                core.public += "|lost"
        if self._spec.past_cap(engine):
            core.truncated = True

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            outcomes = self._core.engine.chance_outcomes()
            if len(outcomes) > 2:
                return f"roll {_ROLL_TEXT[action]}"
            return "knock" if action else "safe"
        return self._core.engine.action_to_string(action)

    def __str__(self) -> str:
        core = self._core
        return _state_text(core.engine, {"moves": core.moves, "turns": core.engine.turn, "truncated": core.truncated})


# ---------------------------------------------------------------------------
# Any other registered game
# ---------------------------------------------------------------------------
DEFAULT_MAX_MOVES = 1000


def _generic_game(name: str) -> tuple[Any, type]:
    """The OpenSpiel game type and game class for registered game ``name``."""
    definition = registry.get(name)
    spec0 = GameSpec.make(name)
    short = openspiel_name(name)
    game_type = _game_type(
        short,
        f"goldfields {definition.title}",
        definition.min_players,
        definition.max_players,
        {"players": spec0.players, "max_moves": DEFAULT_MAX_MOVES},
    )

    class Game(_Reloaded, pyspiel.Game):
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            p = {**game_type.parameter_specification, **(params or {})}
            self.spec = GameSpec.make(name, max_moves=int(p["max_moves"]), players=int(p["players"]))
            info = pyspiel.GameInfo(
                num_distinct_actions=self.spec.num_actions,
                max_chance_outcomes=_max_chance_outcomes(self.spec),
                num_players=self.spec.players,
                min_utility=0.0,
                max_utility=1.0,
                utility_sum=self.spec.utility_sum,
                max_game_length=self.spec.max_game_length(),
            )
            super().__init__(game_type, info, params or {})

        def new_initial_state(self) -> GenericOSState:
            return GenericOSState(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> Any:
            return GoldfieldsObserver(name, iig_obs_type, params)

    Game.__name__ = Game.__qualname__ = f"{definition.title}Game"
    return game_type, Game


def _max_chance_outcomes(spec: GameSpec) -> int:
    """The most outcomes a chance node of the game has: as its definition declares it, else found
    by random play (at least 1)."""
    declared = spec.definition.max_chance_outcomes
    if declared is not None:
        if int(declared) < 1:
            raise ValueError(f"{spec.game}'s max_chance_outcomes is {declared}; a chance node has at least 1 outcome")
        return int(declared)
    rng = random.Random(0)
    most = 1
    for _ in range(20):
        state = spec.new_state()
        for _ in range(spec.max_game_length() * 4):
            if state.is_terminal():
                break
            if state.is_chance_node():
                most = max(most, len(state.chance_outcomes()))
                state.apply_chance(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            state.apply_action(action, spec.stamp(state, action, rng))
    return most


class GenericOSState(_EngineOSState):
    """Any registered game's state for OpenSpiel: chance outcomes are indices into
    the engine's ``chance_outcomes()``; the game is cut after ``max_moves`` decisions."""

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(i, p) for i, (_, p) in enumerate(self._outcomes())]

    def _outcomes(self) -> list[tuple[Any, float]]:
        """The engine's chance outcomes, refused when more than the game's bound: OpenSpiel sizes
        chance policies and tensors by it, so more would go wrong without a word."""
        outcomes = self._core.engine.chance_outcomes()
        most = self.get_game().max_chance_outcomes()
        if len(outcomes) > most:
            known = (
                "its definition declares"
                if self._spec.definition.max_chance_outcomes is not None
                else "random play found; declare max_chance_outcomes on the game's definition"
            )
            raise ValueError(
                f"a chance node of {self._spec.game} has {len(outcomes)} outcomes, more than the {most} {known}"
            )
        return outcomes

    def _check_outcome(self, action: int) -> None:
        outcomes = self._outcomes()  # refused first when past the game's bound
        if not (0 <= action < len(outcomes) and outcomes[action][1] > 0.0):
            raise RuleError(
                "chance",
                f"{action} is not one of this chance node's outcomes: they are the indices 0 to "
                f"{len(outcomes) - 1} of the engine's chance_outcomes() with a positive probability",
            )

    def _apply(self, action: int) -> None:
        core = self._core
        engine = core.engine
        if engine.is_chance_node():
            outcome = self._outcomes()[action][0]
            core.note_private(engine.apply_chance(outcome))
            core.public += "|chance"
            return
        seat = engine.current_player
        text = engine.action_to_string(action)
        core.note_private(engine.apply_action(action, self._spec.stamp(engine, action, None)))
        core.moves += 1
        core.public += f"|{seat}:{text}"
        if core.moves >= self._spec.max_moves and not engine.is_terminal():
            core.truncated = True

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance {self._core.engine.chance_outcomes()[action][0]}"
        return self._core.engine.action_to_string(action)

    def __str__(self) -> str:
        core = self._core
        return _state_text(core.engine, {"moves": core.moves, "truncated": core.truncated})


def register(name: str) -> str:
    """Register a goldfields game other than the two shipped ones with OpenSpiel (once);
    returns its OpenSpiel name, :func:`openspiel_name`. The game's chance
    nodes must enumerate their outcomes (``GameState.chance_outcomes``)."""
    short = openspiel_name(name)
    if short not in pyspiel.registered_names():
        game_type, game_class = _generic_game(name)
        pyspiel.register_game(game_type, game_class)
    return short


class DeterminizedMCTSBot(pyspiel.Bot):
    """OpenSpiel's ``MCTSBot`` on a determinisation: fair play in a hidden-information game.

    ``open_spiel.python.algorithms.mcts.MCTSBot`` accepts any sequential game
    with terminal rewards (OpenSpiel 2.0 does not check for perfect
    information), and searches the state it is handed: on Digging's true state
    it would see every hidden card. This bot hands it a state drawn with
    ``resample_from_infostate`` instead (a fresh one for each decision), so it
    only uses what its seat knows. On Digger it changes nothing: with the
    jitter-free clock of the OpenSpiel game the sample is a copy of the state.
    """

    def __init__(self, mcts_bot: Any, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        self._mcts = mcts_bot
        self._rng = np.random.RandomState(seed)

    def restart_at(self, state: Any) -> None:
        pass

    def step_with_policy(self, state: Any) -> tuple[list[tuple[int, float]], int]:
        sample = state.resample_from_infostate(state.current_player(), self._rng.uniform)
        return self._mcts.step_with_policy(sample)

    def step(self, state: Any) -> int:
        return self.step_with_policy(state)[1]


pyspiel.register_game(DIGGING_TYPE, DiggingGame)
pyspiel.register_game(DIGGER_TYPE, DiggerGame)


def load_digging(**params: Any) -> Any:
    """``pyspiel.load_game("python_goldfields_digging", params)``."""
    return pyspiel.load_game(DIGGING_NAME, params)


def load_digger(**params: Any) -> Any:
    """``pyspiel.load_game("python_goldfields_digger", params)``."""
    return pyspiel.load_game(DIGGER_NAME, params)


__all__ = [
    "DIGGER_NAME",
    "DIGGER_TYPE",
    "DIGGING_NAME",
    "DIGGING_TYPE",
    "DeterminizedMCTSBot",
    "DiggerGame",
    "DiggerOSState",
    "DiggingGame",
    "DiggingOSState",
    "load_digger",
    "load_digging",
    "observation_text",
    "openspiel_name",
    "register",
]
