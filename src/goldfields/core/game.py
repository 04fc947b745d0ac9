"""The engine interface shared by every game in goldfields.

Bots, the arena, the server, the terminal front end and the research adapters
only ever talk to a game through :class:`GameState`. Both engines implement it,
so everything above the engines treats Digging and Digger alike.

Conventions (close to OpenSpiel's, so the research adapters stay thin):

* Actions are small integers. ``legal_actions()`` lists the ones the player to
  move may choose; ``action_to_string`` / ``string_to_action`` translate to
  and from the project's notation.
* Chance is explicit. When ``current_player == CHANCE`` the state waits for an
  outcome (a shuffled deck, a roll of the dice). The caller owns the random
  number generator: ``sample_chance(rng)`` draws an outcome with it and
  ``apply_chance(outcome)`` applies it. The engine itself never draws a random
  number and never reads a clock; time, where a game needs it, arrives with
  the step (``apply_action(action, at=seconds)``).
* An illegal step raises :class:`RuleError`, whose message names the rule, and
  leaves the state exactly as it was.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, NamedTuple, Self

CHANCE = -1
"""``current_player`` while the state waits for a chance outcome."""

TERMINAL = -2
"""``current_player`` once the game is over."""


class RuleError(ValueError):
    """An action that the rules forbid, or a move that cannot be read.

    ``rule`` is the ruling it breaks (``"D6"``, ``"G2"``, ``"notation"``...);
    ``str(error)`` starts with it, so a player always learns which rule said no.
    ``reason`` and ``params`` say the same for a program: a key such as
    ``"chest_metal"`` with its values (``{"chest": "silver", "metal": "copper", ...}``), which
    a client turns into the player's language (docs/server.md lists them).
    """

    def __init__(self, rule: str, message: str, reason: str | None = None, **params: Any) -> None:
        self.rule = rule
        self.message = message
        self.reason = reason
        self.params = params
        super().__init__(f"{rule}: {message}")

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled whole (bots think in worker processes), not from str(self) alone.
        return (_rule_error, (self.rule, self.message, self.reason, self.params))


def _rule_error(rule: str, message: str, reason: str | None, params: dict[str, Any]) -> RuleError:
    return RuleError(rule, message, reason, **params)


class Event(NamedTuple):
    """Something that happened, for front ends to animate and log.

    ``public`` is what every seat (and a spectator) may see; ``private`` adds,
    for some seats only, details the others may not know (the card drawn, the
    card passed). Always go through :meth:`view` when showing an event to a
    seat. (A named tuple because engines create one per move, and search bots
    make millions of moves.)
    """

    kind: str
    public: Mapping[str, Any]
    private: Mapping[int, Mapping[str, Any]] | None = None

    def view(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` may see it (``None``: a spectator)."""
        out = {"kind": self.kind, **self.public}
        if seat is not None and self.private and seat in self.private:
            out.update(self.private[seat])
        return out


class SeatView:
    """Everything one seat may know, and nothing else: what bots receive.

    ``data`` is the seat's observation (plain JSON). ``sample(rng)`` draws a
    full game state consistent with it (a determinisation), for search. The
    view holds a scrubbed copy of the game, itself a determinisation drawn with
    a fixed seed, so that no true hidden card, die or time is reachable
    through it, however a bot pokes at it.
    """

    __slots__ = ("_scrubbed", "data", "seat")

    def __init__(self, seat: int, data: dict[str, Any], scrubbed: GameState) -> None:
        self.seat = seat
        self.data = data
        self._scrubbed = scrubbed

    @property
    def game_name(self) -> str:
        return self._scrubbed.game_name

    @property
    def num_players(self) -> int:
        return self._scrubbed.num_players

    @property
    def current_player(self) -> int:
        return self._scrubbed.current_player

    def legal_actions(self) -> list[int]:
        return self._scrubbed.legal_actions() if self._scrubbed.current_player == self.seat else []

    def action_to_string(self, action: int) -> str:
        return self._scrubbed.action_to_string(action)

    def string_to_action(self, text: str) -> int:
        return self._scrubbed.string_to_action(text)

    def sample(self, rng: random.Random) -> GameState:
        """A full state drawn among those this seat cannot tell apart."""
        return self._scrubbed.resample(self.seat, rng)


class GameState(ABC):
    """One position of a game, with everything needed to continue it."""

    game_name: ClassVar[str]

    num_players: int

    # -- whose turn -------------------------------------------------------
    @property
    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, or :data:`CHANCE`, or :data:`TERMINAL`."""

    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player == CHANCE

    # -- actions ----------------------------------------------------------
    @abstractmethod
    def legal_actions(self) -> list[int]:
        """The actions the player to move may choose (empty at chance/terminal)."""

    @abstractmethod
    def apply_action(self, action: int, at: float | None = None) -> list[Event]:
        """Apply one decision. Raises :class:`RuleError` and changes nothing if illegal."""

    @abstractmethod
    def action_to_string(self, action: int) -> str: ...

    @abstractmethod
    def string_to_action(self, text: str) -> int: ...

    @abstractmethod
    def apply_move(self, text: str) -> list[Event]:
        """Apply one move written in the notation (as found in a record).

        Unlike :meth:`apply_action` a move may carry its chance outcome and
        its time (Digger's ``roll KRGBY @2.5``).
        """

    # -- chance -----------------------------------------------------------
    @abstractmethod
    def sample_chance(self, rng: random.Random) -> Any:
        """Draw a chance outcome with the caller's generator."""

    @abstractmethod
    def apply_chance(self, outcome: Any) -> list[Event]: ...

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """Every chance outcome now due, with its probability, where that list is
        small enough to enumerate (Digger's 252 rolls). Digging's deal (a shuffle
        of the whole deck) is not: research adapters deal it card by card."""
        raise NotImplementedError(f"{self.game_name} does not enumerate its chance outcomes")

    # -- what a seat knows ------------------------------------------------
    @abstractmethod
    def observation(self, seat: int | None) -> dict[str, Any]:
        """Exactly what ``seat`` may know, as plain JSON data (``None``: spectator)."""

    @abstractmethod
    def resample(self, seat: int, rng: random.Random) -> Self:
        """A full state drawn at random among those ``seat`` cannot tell apart.

        Search bots use this to reason about hidden information without
        peeking: the result depends only on ``seat``'s observation and ``rng``.
        """

    def view(self, seat: int) -> SeatView:
        """What a bot for ``seat`` receives: its observation and a sampler."""
        return SeatView(seat, self.observation(seat), self.resample(seat, random.Random(0)))

    # -- results ----------------------------------------------------------
    @abstractmethod
    def scores(self) -> list[int]:
        """Points per seat so far (game totals)."""

    @abstractmethod
    def winners(self) -> list[int] | None:
        """The winning seats once the game is over, else ``None``."""

    def returns(self) -> list[float]:
        """Utility per seat: shared wins split 1 between the winners, else 0.

        Winning teams count as one winner: a partnership win gives each
        partner 1.0 (the team's utility), and the losing seats 0.
        """
        won = self.winners()
        if won is None:
            return [0.0] * self.num_players
        share = 1.0 / self._win_shares(won)
        return [share if s in won else 0.0 for s in range(self.num_players)]

    def _win_shares(self, winners: Sequence[int]) -> int:
        return len(winners)

    # -- copies and storage -----------------------------------------------
    @abstractmethod
    def clone(self) -> Self: ...

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The full state (hidden parts included): for storage, never for a seat."""

    @classmethod
    @abstractmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self: ...

    @abstractmethod
    def record(self) -> dict[str, Any]:
        """The game so far as a game record (see docs/records.md)."""
