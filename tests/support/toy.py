"""A toy game, registered from the test suite and nowhere else.

It proves that a game is defined once: the arena, the server, the research
adapters and ``goldfields replay`` play it through the registry without a
line of their own about it.

*Swap*: three cards 1, 2, 3. Chance deals one to each of two players,
face down. Seat 0, then seat 1, may ``swap`` cards with the other player or
``keep``. The higher card wins. A seat sees its own card; after a swap both
players know both cards.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from goldfields.bots.base import Bot, Budget
from goldfields.core import registry
from goldfields.core.definition import GameDefinition, Params
from goldfields.core.game import CHANCE, TERMINAL, Event, GameState, RuleError, SeatView

ACTIONS = ("keep", "swap")
DEALS = [(a, b) for a in (1, 2, 3) for b in (1, 2, 3) if a != b]


class SwapState(GameState):
    game_name = "toy"

    def __init__(self) -> None:
        self.num_players = 2
        self.cards: tuple[int, int] | None = None
        self.moves: list[int] = []

    @property
    def current_player(self) -> int:
        if self.cards is None:
            return CHANCE
        return len(self.moves) if len(self.moves) < 2 else TERMINAL

    def legal_actions(self) -> list[int]:
        return [0, 1] if self.current_player >= 0 else []

    def apply_action(self, action: int, at: float | None = None) -> list[Event]:
        if self.current_player < 0:
            raise RuleError("toy", "no decision is due")
        if action not in (0, 1):
            raise RuleError("toy", f"the moves are keep (0) and swap (1), not {action!r}")
        seat = self.current_player
        self.moves.append(action)
        if action == 1:
            assert self.cards is not None
            self.cards = (self.cards[1], self.cards[0])
        return [Event(ACTIONS[action], {"seat": seat})]

    def action_to_string(self, action: int) -> str:
        return ACTIONS[action]

    def string_to_action(self, text: str) -> int:
        if text not in ACTIONS:
            raise RuleError("notation", f"{text!r}: write keep or swap")
        return ACTIONS.index(text)

    def apply_move(self, text: str) -> list[Event]:
        words = str(text).split()
        if words[:1] == ["deal"]:
            try:
                return self.apply_chance((int(words[1]), int(words[2])))
            except (IndexError, ValueError):
                raise RuleError("notation", f"{text!r}: write deal <card> <card>") from None
        return self.apply_action(self.string_to_action(text))

    def sample_chance(self, rng: random.Random) -> tuple[int, int]:
        return DEALS[rng.randrange(len(DEALS))]

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        return [(d, 1 / len(DEALS)) for d in DEALS]

    def apply_chance(self, outcome: Any) -> list[Event]:
        deal = tuple(outcome)
        if self.cards is not None or deal not in DEALS:
            raise RuleError("toy", f"cannot deal {outcome!r} now")
        self.cards = (int(deal[0]), int(deal[1]))
        return [Event("deal", {}, {0: {"card": deal[0]}, 1: {"card": deal[1]}})]

    def observation(self, seat: int | None) -> dict[str, Any]:
        swapped = 1 in self.moves
        cards = self.cards
        return {
            "game": "toy",
            "seat": seat,
            "to_move": self.current_player,
            "moves": [ACTIONS[a] for a in self.moves],
            "cards": [
                c if cards is not None and (self.is_terminal() or swapped or s == seat) else None
                for s, c in enumerate(cards or (None, None))
            ],
        }

    def resample(self, seat: int, rng: random.Random) -> Self:
        out = self.clone()
        if self.cards is not None and not self.is_terminal() and 1 not in self.moves:
            mine = self.cards[seat]
            other = rng.choice([c for c in (1, 2, 3) if c != mine])
            out.cards = (mine, other) if seat == 0 else (other, mine)
        return out

    def scores(self) -> list[int]:
        return list(self.cards) if self.is_terminal() and self.cards else [0, 0]

    def winners(self) -> list[int] | None:
        if not self.is_terminal() or self.cards is None:
            return None
        return [0 if self.cards[0] > self.cards[1] else 1]

    def clone(self) -> Self:
        out = type(self)()
        out.cards, out.moves = self.cards, self.moves[:]
        return out

    def to_json(self) -> dict[str, Any]:
        return {"cards": list(self.cards) if self.cards else None, "moves": self.moves[:]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        out = cls()
        if data.get("cards") is not None:
            out.apply_chance(data["cards"])
        for a in data.get("moves", []):
            out.apply_action(a)
        return out

    def record(self) -> dict[str, Any]:
        moves = [] if self.cards is None else [f"deal {self.cards_dealt[0]} {self.cards_dealt[1]}"]
        return {"game": "toy", "players": 2, "moves": moves + [ACTIONS[a] for a in self.moves]}

    @property
    def cards_dealt(self) -> tuple[int, int]:
        assert self.cards is not None
        swaps = self.moves.count(1)
        return self.cards if swaps % 2 == 0 else (self.cards[1], self.cards[0])


@dataclass(frozen=True, slots=True)
class SwapParams(Params):
    players: int = 2


class Swap(GameDefinition[SwapParams]):
    name = "toy"
    title = "Swap"
    summary = "a test-only toy: keep or swap a hidden card; the higher card wins"
    min_players = max_players = 2
    params_type = SwapParams
    num_actions = 2
    encoding = "toy_encoding:ENCODING"  # for the research adapters (needs numpy)
    # Bots that break the rules of bots: the server must survive them (tests/server/test_bots.py).
    bots: ClassVar[Mapping[str, str]] = {"sleeper": "toy:Sleeper", "crasher": "toy:Crasher", "snap": "toy:Snap"}
    bot_help: ClassVar[Mapping[str, str]] = {"sleeper": "thinks for an hour", "crasher": "raises instead of moving"}

    def check(self, values: dict[str, Any]) -> SwapParams:
        return SwapParams(values["players"])

    def new_state(self, params: SwapParams, rng: random.Random | None = None) -> SwapState:
        state = SwapState()
        if rng is not None:
            state.apply_chance(state.sample_chance(rng))
        return state


TOY = Swap()


@dataclass
class Sleeper(Bot):
    """Overruns any deadline: the server must kill it and let the fallback move."""

    name: ClassVar[str] = "sleeper"

    def act(self, view: SeatView, rng: random.Random, budget: Budget | None = None) -> int:
        time.sleep(3600)
        return view.legal_actions()[0]


@dataclass
class Crasher(Bot):
    name: ClassVar[str] = "crasher"

    def act(self, view: SeatView, rng: random.Random, budget: Budget | None = None) -> int:
        raise RuntimeError("this bot always fails")


@dataclass
class Snap(Bot):
    """A search (it plays in the search lane) that answers at once, as a search with one move does."""

    name: ClassVar[str] = "snap"

    def act(self, view: SeatView, rng: random.Random, budget: Budget | None = None) -> int:
        return view.legal_actions()[0]


def register_toy() -> GameDefinition:
    """Register the toy game (idempotent); tests call :func:`unregister_toy` when done."""
    return registry.register(TOY, replace=True)


def unregister_toy() -> None:
    registry.unregister(TOY.name)
