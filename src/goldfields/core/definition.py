"""What a game *is*, apart from any one position of it: its definition.

OpenSpiel separates a ``Game`` (its parameters and facts) from a ``State``
(one position). goldfields does the same: each game package holds one
:class:`GameDefinition`, and every layer above the engines (server, arena,
research adapters, records, terminal, command line, bot registry) reads the
game from it, looked up by name in :mod:`goldfields.core.registry`, instead of
keeping its own table of what a game is.

A definition answers:

* its **parameters** (:class:`Params`): players and the game's own rule
  options, with defaults and validation, and one error type,
  :class:`ParamError`, for bad ones;
* ``new_state(params, rng)``: a game ready to play;
* its **sides**: which seats win and lose together (a partnership's teams);
* whether moves **need time** (Digger's hourglass), and the simulated clock
  that stamps them where no real one runs;
* the **bots** that play it, and the search adapter the generic ISMCTS uses;
* its **move text** in both directions, timed moves and chance outcomes
  included (``roll KRGBY @4.2``), and the checker of its records;
* narration of its events, and the research encoding of its observations.

Bots, clocks, encodings and replayers are named by dotted path
(``"package.module:attribute"``) and imported only when asked for, so that
the engine packages, which hold the definitions, import nothing above them.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import math
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, NamedTuple, Protocol, TypeVar

from .game import Event, GameState, RuleError


class RecordError(ValueError):
    """A game record that cannot be read or continued; ``status`` is replay's exit status (1 or 2)."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


class ParamError(ValueError):
    """Game parameters the game does not accept. ``param`` names the one at fault."""

    def __init__(self, param: str, message: str) -> None:
        self.param = param
        self.message = message
        super().__init__(f"{param}: {message}")

    def in_game(self, title: str) -> str:
        """The error with its game named once: "Digger: options: ..." but "players: Digging is
        for 2, 3 or 4 players, not 7" (a message that names the game already)."""
        return str(self) if title in self.message else f"{title}: {self}"


@dataclass(frozen=True, slots=True)
class Params:
    """A game's parameters. Each game subclasses it as a frozen dataclass whose
    fields all have defaults; ``players`` is common to every game.

    Build them through :meth:`GameDefinition.params` (keyword values, checked,
    defaults filled in) or :meth:`GameDefinition.params_from_json`.
    """

    players: int = 0
    """0 stands for the game's default number of players until the definition fills it in."""

    def to_json(self) -> dict[str, Any]:
        """Every parameter, as JSON data that :meth:`GameDefinition.params_from_json` reads back."""
        return {f.name: _jsonable(getattr(self, f.name)) for f in dataclasses.fields(self)}


def _jsonable(value: Any) -> Any:
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return to_json()
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


P = TypeVar("P", bound=Params)


class Move(NamedTuple):
    """A move as written in the notation: the decision, and what the text adds to it."""

    action: int
    at: float | None = None
    """The time written with it (``@4.2``), where the game needs time."""
    outcome: Any = None
    """The chance outcome written with it (a roll's faces), if any."""


class TurnClock(NamedTuple):
    """The hourglass of a timed game's turn, as whoever keeps the clock needs it."""

    running: bool
    """A timed turn is under way (its clock started with its first step)."""
    elapsed: float
    """Seconds into the turn as of the last timed step."""
    limit: float
    """Seconds the turn may last."""
    hidden_from: int | None
    """The seat that may not see the running clock (Digger: the digger)."""


class Restored(NamedTuple):
    """A saved game brought back (:meth:`GameDefinition.resume`)."""

    state: GameState
    events: list[Event]
    """The events of every step on the way."""
    moves: int
    """The moves as the record writes them: a chance step written apart (Digging's deal) is none."""


class Stamper(Protocol):
    """A clock for a timed game: the time at which ``action`` is applied in ``state``."""

    def stamp(self, state: Any, action: int, rng: random.Random | None = None) -> float | None: ...


Narrator = Callable[[Mapping[str, Any], Callable[[int], str]], str]


LEVEL_SECONDS = 0.5
"""How long a level's search thinks a move: the server's default ``--bot-seconds``, and the
terminal's, the demo's and the arena's (``bots.registry.level_spec``), so that Hard is the same
opponent everywhere."""


class GameDefinition(ABC, Generic[P]):
    """One game, defined once. Subclass it in the game's package and register an
    instance (see :func:`goldfields.core.registry.register`)."""

    name: ClassVar[str]
    """The registry name, as written in records, on the command line and in the API."""
    title: ClassVar[str]
    """The name shown to people."""
    summary: ClassVar[str] = ""
    """One line on what the game is."""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    params_type: type[P]
    """The game's :class:`Params` subclass."""
    needs_time: ClassVar[bool] = False
    """Moves carry a time (seconds into the turn) that the engine enforces."""
    num_actions: ClassVar[int]
    """The size of the action id space (ids run from 0 to ``num_actions - 1``)."""

    bots: ClassVar[Mapping[str, str]] = {}
    """Bot name -> ``"module:Class"`` for the bots written for this game. The
    bot layer adds the bots that play any game (``random``, ``ismcts``)."""
    bot_help: ClassVar[Mapping[str, str]] = {}
    """Bot name -> one line, for this game's own bots."""
    search: ClassVar[str | None] = None
    """``"module:factory"``: ``factory(policy)`` gives the ISMCTS adapter
    (:class:`goldfields.bots.ismcts.SearchGame`) tuned for this game."""
    encoding: ClassVar[str | None] = None
    """``"module:attribute"``: the research layer's observation encoding."""
    clock: ClassVar[str | None] = None
    """``"module:factory"``: ``factory(jitter)`` gives the simulated clock
    (a :class:`Stamper`) of a timed game."""
    replayer: ClassVar[str | None] = None
    """``"module:function"``: ``function(record) -> (report, exit status)``."""
    narrator: ClassVar[str | None] = None
    """``"module:function"``: ``function(event, seat_name) -> str`` in English."""
    walker: ClassVar[str | None] = None
    """``"module:function"``: ``function(record)`` yields ``(state, move, events)``
    after each step of a record that :meth:`replay` accepts, where the generic
    reading of ``moves`` does not fit (Digging's per-hand decks); see :meth:`walk`."""
    starter: ClassVar[str | None] = None
    """``"module:function"``: ``function(record)`` gives the position before the first step of a
    record that :meth:`replay` accepts, for a game with a ``walker`` whose records say more about
    the start than its parameters (Digging's first dealer); see :meth:`restore`."""
    tutorial: ClassVar[str | None] = None
    """``"module"`` of a guided first game: ``record()``, ``steps()``, ``PLAYER`` and ``NAMES``
    (see goldfields.digging.tutorial)."""
    analyst: ClassVar[str | None] = None
    """The ISMCTS spec that judges a seat's decisions after the game (``goldfields analyze``, the
    replay viewer's costly moves); ``None``: the game offers no analysis."""
    max_chance_outcomes: ClassVar[int | None] = None
    """The most outcomes any chance node of the game can have, for the research adapters
    (OpenSpiel's ``max_chance_outcomes``); ``None``: they estimate it by random play, which may
    miss a rare node (a chance node with more is then refused with a message saying so)."""
    levels: ClassVar[Mapping[str, str]] = {}
    """Bot specs for people choosing an opponent: ``easy``, ``medium`` and ``hard``
    (see docs/bots.md, "Levels")."""
    table_levels: ClassVar[Mapping[str, Mapping[str, str]]] = {}
    """A level's spec for one kind of table (:func:`mode_of`: ``partnership``, ``2p``...), where
    another was measured stronger there than the one ``levels`` gives; see :meth:`levels_for`."""

    def levels_for(self, params: P | Mapping[str, Any]) -> dict[str, str]:
        """Each level's bot spec at a table of ``params`` (or of a config or record holding them;
        raises :class:`ParamError` for parameters this game does not take)."""
        if isinstance(params, Mapping):
            # Read as parameters, so that one left out takes its default: a 4-player Digging
            # record without "partnership" is a partnership game.
            known = {f.name for f in dataclasses.fields(self.params_type)}
            params = self.params_from_json({k: v for k, v in params.items() if k in known})
        return self.kind_levels(mode_of(params.to_json()))

    def kind_levels(self, kind: str) -> dict[str, str]:
        """Each level's bot spec at a kind of table (:func:`mode_of`): ``levels``, overridden by the kind's own."""
        return {**self.levels, **self.table_levels.get(kind, {})}

    # -- parameters ---------------------------------------------------------
    @property
    def default_players(self) -> int:
        return self.min_players

    def params(self, **values: Any) -> P:
        """Parameters from keyword values: checked, with defaults filled in.
        Raises :class:`ParamError` naming the parameter at fault, and refuses a
        rule option that would change nothing at the table (:meth:`idle_options`):
        whoever set it meant a game this table does not play."""
        params = self._read(values)
        self.refuse_idle(params)
        return params

    def params_from_json(self, data: Any) -> P:
        """Parameters as stored by :meth:`Params.to_json` (missing ones take their defaults).

        A stored table keeps an idle rule option (one that :meth:`params` would now
        refuse): its record was written with it, and reads back as it was."""
        if data is None:
            data = {}
        if not isinstance(data, Mapping):
            raise ParamError("params", f"{self.title} parameters are a JSON object, not {data!r}")
        return self._read({str(k): v for k, v in data.items()})

    def idle_options(self, params: P) -> dict[str, str]:
        """The rule options set in ``params`` that change nothing at its table, each with
        the reason (Digging's ``full_deck`` with 4 players); none by default."""
        return {}

    def refuse_idle(self, params: P, only: Collection[str] | None = None) -> None:
        """Raise :class:`ParamError` for the first rule option of ``params`` that changes nothing
        at its table (among ``only``, where given: the options a caller has just set)."""
        for name, why in self.idle_options(params).items():
            if only is None or name in only:
                raise ParamError("options", f"{name} changes nothing at a {self.label(params)} table: {why}")

    def _read(self, values: dict[str, Any]) -> P:
        known = {f.name for f in dataclasses.fields(self.params_type)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ParamError(
                unknown[0], f"{self.title} has no parameter {unknown[0]!r}; its parameters: {', '.join(sorted(known))}"
            )
        values = {k: v for k, v in values.items() if v is not None}
        players = values.get("players", self.default_players)
        if not _is_int(players) or not self.min_players <= players <= self.max_players:
            raise ParamError("players", f"{self.title} is for {self.players_text()} players, not {players!r}")
        values["players"] = players
        return self.check(values)

    @abstractmethod
    def check(self, values: dict[str, Any]) -> P:
        """The game's own checks over ``values`` (``players`` already checked); raise :class:`ParamError`."""

    def players_text(self) -> str:
        lo, hi = self.min_players, self.max_players
        if hi - lo == 1:
            return f"{lo} or {hi}"
        if hi - lo == 2:
            return f"{lo}, {lo + 1} or {hi}"
        return f"{lo} to {hi}"

    def label(self, params: P) -> str:
        """A short name for a table: ``digging 4p partnership``."""
        return f"{self.name} {params.players}p"

    # -- states -------------------------------------------------------------
    @abstractmethod
    def new_state(self, params: P, rng: random.Random | None = None) -> GameState:
        """A new game. Without ``rng`` it waits at its first chance node, if it
        opens with one (Digging's deal); with ``rng`` that opening chance is
        drawn from it, so the game is ready for its first decision."""

    def state_type(self) -> type[GameState]:
        """The state class, whose ``from_json`` reads stored states."""
        return type(self.new_state(self.params()))

    # -- sides --------------------------------------------------------------
    def sides(self, params: P) -> tuple[tuple[int, ...], ...]:
        """The seats that win and lose together; by default each seat alone."""
        return tuple((s,) for s in range(params.players))

    def side_note(self, params: P, side: int) -> str:
        """What sets a side apart besides its seats, for a designer reading the arena's sides
        table: Digger's black crates give each seat its own card ("card B"). Empty by default."""
        return ""

    def side_of(self, params: P, seat: int) -> int:
        for i, side in enumerate(self.sides(params)):
            if seat in side:
                return i
        raise ValueError(f"seat {seat} is not at a {params.players}-player table")

    def hand_points(self, state: GameState) -> list[list[int]]:
        """Points per seat for each hand played; a one-hand game has one row."""
        return [list(state.scores())]

    round_word: ClassVar[str] = "hand"
    """What the game's rounds are called (Digger's are turns): the arena's length column."""

    def rounds(self, state: GameState) -> int:
        """How many rounds (:attr:`round_word`) the game has played: a measure of its length that a
        designer reads as players count it, where decisions count every take and pass."""
        return len(self.hand_points(state))

    # -- time ---------------------------------------------------------------
    def simulated_clock(self, jitter: float = 0.0) -> Stamper | None:
        """The simulated clock of a timed game (``None`` for an untimed one): it
        stamps each decision with the time a brisk player would take, each cost
        scaled by a factor in [1 - jitter, 1 + jitter] drawn from the caller's generator."""
        if not self.needs_time:
            return None
        if self.clock is None:
            raise NotImplementedError(f"{self.title} needs time but names no simulated clock")
        factory: Callable[[float], Stamper] = load(self.clock)
        return factory(jitter)

    def turn_clock(self, state: GameState) -> TurnClock | None:
        """The running turn's hourglass, for a timed game (``None`` for an untimed one)."""
        return None

    def clock_actions(self, state: GameState) -> frozenset[int]:
        """Actions only the keeper of the clock applies, never a player (Digger's ``timeout``)."""
        return frozenset()

    chance_in_moves: ClassVar[bool] = False
    """Chance outcomes are written with the move that caused them (Digger's
    ``roll KRGBY @4.2``), not as steps of their own (Digging's deal)."""

    refusal_rules: ClassVar[Mapping[str, str]] = {"chance": "chance", "time": "time", "clock": "clock"}
    """The rulings a front end names when a player writes what only it may
    decide: a chance outcome, a time, or a clock's action."""

    def clock_refusal(self, state: GameState, action: int) -> RuleError | None:
        """The refusal of an action the engine takes but no player may choose (None for any other).

        Digger's timeout is applied by whoever keeps the clock, whenever the hourglass runs out:
        a player who sent it would end their turn at a time of their choosing."""
        if action not in self.clock_actions(state):
            return None
        move = state.action_to_string(action)
        return RuleError(self.refusal_rules["clock"], f"{move} is the clock's to call, not a move a player may choose")

    def read_decision(self, state: GameState, text: str) -> int:
        """The action a player's move names: the decision alone, as every front end takes it.

        Raises :class:`~goldfields.core.game.RuleError` for text that cannot be read, and, naming
        the ruling, for text that writes what only the game decides: a chance outcome (Digger's
        dice), a time, or the clock's own action. Such a move is never read as the plain one, so
        a player who tries it learns why (a record's moves are read by :meth:`read_move`)."""
        move = self.read_move(state, text)
        if (clock := self.clock_refusal(state, move.action)) is not None:
            raise clock
        written, rules = text.strip(), self.refusal_rules
        if move.outcome is not None:
            raise RuleError(rules["chance"], f"{written!r}: chance decides how a move turns out: write just the move")
        if move.at is not None:
            raise RuleError(rules["time"], f"{written!r}: the clock times a move: write just the move")
        return move.action

    def chance_json(self, outcome: Any) -> Any:
        """A chance outcome as JSON data that ``apply_chance`` takes back (stored by the server)."""
        return list(outcome) if isinstance(outcome, tuple) else outcome

    def chance_stream(self, state: GameState) -> object | None:
        """Which chance stream ``state`` draws from, for duplicate deals (see
        :class:`goldfields.play.driver.Driver`); ``None``: the game draws all its
        chance from one stream (Digging shuffles one deck per hand, so hand k gets
        the same deck anyway). Asked at chance nodes for the dice or cards, and, in
        a timed game, at decisions too, for the clock's jitter: so it must answer
        for any state of the game, not only a chance node."""
        return None

    # -- notation -----------------------------------------------------------
    def move_text(self, state: GameState, action: int, at: float | None = None, outcome: Any = None) -> str:
        """A move as written in records: the action, and, where the game writes
        them, its time and chance outcome."""
        return state.action_to_string(action)

    def read_move(self, state: GameState, text: str) -> Move:
        """A move from its text: raises :class:`~goldfields.core.game.RuleError` if it cannot be read."""
        return Move(state.string_to_action(text))

    def apply_move(self, state: GameState, text: str) -> list[Event]:
        """Apply a move as written in a record (with its time and chance outcome, where written)."""
        return state.apply_move(text)

    # -- records, narration, research --------------------------------------
    def replay(self, record: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
        """Check a record of this game: (report, exit status 0, 1 or 2); see docs/records.md.

        A game with a checker of its own names it in ``replayer``; otherwise a
        record is ``{"game": name, <parameters>..., "moves": [text, ...]}`` and
        is checked by applying each move with :meth:`apply_move`."""
        if self.replayer is not None:
            check: Callable[[Mapping[str, Any]], tuple[dict[str, Any], int]] = load(self.replayer)
            return check(record)
        return self._replay_moves(record)

    def restore(self, record: Mapping[str, Any]) -> tuple[GameState, list[Event]]:
        """The position a record reaches, and the events of every step on the way
        (to continue a saved game). Raises :class:`RecordError` with the replay's
        message when the record is not a legal game of this kind."""
        restored = self.resume(record)
        return restored.state, restored.events

    def resume(self, record: Mapping[str, Any]) -> Restored:
        """As :meth:`restore`, also counting the record's moves, in one pass."""
        last: tuple[GameState, str | None, list[Event]] | None = None
        events: list[Event] = []
        moves = 0
        for last in self.walk(record):
            events += last[2]
            moves += last[1] is not None
        if last is not None:
            return Restored(last[0], events, moves)
        # A record with no steps (walk checked it): the game as it starts.
        if self.starter is not None:
            start: Callable[[Mapping[str, Any]], GameState] = load(self.starter)
            return Restored(start(record), events, 0)
        if self.walker is not None:
            raise RecordError("the record holds no step to restore", 2)
        return Restored(self.new_state(self.params_from_json(_params_of(record))), events, 0)

    def steps(self, record: Mapping[str, Any]) -> int:
        """How many steps :meth:`walk` would yield for ``record``, counted without replaying
        it (a step is a move, or a chance step written apart): a cap on steps can refuse a
        long record before any of it is checked. Parts of the record that are not what they
        should be count as nothing; :meth:`walk` refuses them."""
        moves = record.get("moves")
        return len(moves) if isinstance(moves, list) else 0

    def walk(self, record: Mapping[str, Any]) -> Iterator[tuple[GameState, str | None, list[Event]]]:
        """Step through a record: after each step, ``(state, move, events)``, where
        ``move`` is the move's text (``None`` for a chance step written apart, such
        as Digging's deal) and ``state`` is the live position (read or clone it
        before taking the next item). Raises :class:`RecordError` with the replay's
        message, before the first step, when the record is not a legal game of this kind."""
        report, status = self.replay(record)
        if status != 0:
            error = report.get("error") or {}
            raise RecordError(error.get("message") or "the record is not valid", status)
        if self.walker is not None:
            walk: Callable[[Mapping[str, Any]], Iterator[tuple[GameState, str | None, list[Event]]]] = load(self.walker)
            yield from walk(record)
            return
        state = self.new_state(self.params_from_json(_params_of(record)))
        for move in record["moves"]:
            events = self.apply_move(state, move)
            yield state, move, events

    def _replay_moves(self, record: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
        def report(state: GameState | None, error: dict[str, Any] | None) -> dict[str, Any]:
            over = state is not None and state.is_terminal()
            return {
                "ok": error is None,
                "error": error,
                "scores": [] if state is None else state.scores(),
                "game_over": over,
                "winner": state.winners() if state is not None else None,
            }

        moves = record.get("moves")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            return report(None, {"move": None, "message": "moves must be a list of moves in the notation"}), 2
        try:
            params = self.params_from_json(_params_of(record))
        except ParamError as err:
            return report(None, {"move": None, "message": str(err)}), 2
        state = self.new_state(params)
        for j, move in enumerate(moves):
            try:
                if state.is_terminal():
                    raise RuleError("end", "the game is over: no move may follow")
                self.apply_move(state, move)
            except RuleError as err:
                return report(state, {"move": j, "message": f"{move!r}: {err}"}), 1
        return report(state, None), 0

    def narrate(self, event: Mapping[str, Any], seat_name: Callable[[int], str]) -> str:
        """One event, as a seat may see it, in an English sentence."""
        if self.narrator is None:
            return str(event.get("kind", "?"))
        fn: Narrator = load(self.narrator)
        return fn(event, seat_name)

    def research_encoding(self) -> Any:
        """The observation encoding the research adapters use (see :mod:`goldfields.research.encoding`)."""
        if self.encoding is None:
            raise NotImplementedError(f"{self.title} has no research encoding")
        return load(self.encoding)

    def __repr__(self) -> str:
        return f"<game {self.name}>"

    former_params: ClassVar[Mapping[str, str]] = {}
    """Parameters older clients sent beside the game's own, each mapped to the
    rule option it became (Digger's table setting ``stack_seconds`` is now its
    G3 option). A front end reads them into ``options`` for a new game; a
    stored game's are left unread, as its moves were written without them."""


def mode_of(config: Mapping[str, Any]) -> str:
    """A table's kind, from its parameters: ``partnership``, or ``2p``, ``3p``... The server
    rates each kind on a ladder of its own, and a level may name another bot for one."""
    return "partnership" if config.get("partnership") else f"{config.get('players')}p"


def _params_of(record: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in ("game", "moves")}


@functools.cache
def load(path: str) -> Any:
    """The attribute that ``"package.module:attribute"`` names (imported once, then cached)."""
    module_name, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def check_bool(name: str, value: Any) -> bool:
    """A yes/no parameter (JSON ``true``/``false`` only)."""
    if not isinstance(value, bool):
        raise ParamError(name, f"is true or false, not {value!r}")
    return value


def check_number(name: str, value: Any, lo: float, hi: float, unit: str = "") -> float:
    """A finite number in [lo, hi]."""
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if not ok or not lo <= value <= hi:
        unit = f" {unit}" if unit else ""
        raise ParamError(name, f"is a number from {lo:g} to {hi:g}{unit}, not {value!r}")
    return float(value)


def check_choice(name: str, value: Any, choices: Sequence[str]) -> str:
    if value not in choices:
        raise ParamError(name, f"is one of {', '.join(choices)}, not {value!r}")
    return str(value)


__all__ = [
    "GameDefinition", "Move", "Narrator", "ParamError", "Params", "Stamper", "TurnClock", "check_bool", "check_choice",
    "check_number", "load",
]  # fmt: skip
