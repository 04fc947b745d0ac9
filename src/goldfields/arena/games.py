"""The games the arena can run, described by a small picklable spec.

Everything game-specific the arena needs sits here: how to make a fresh state,
which seats form a side (a team in the Digging partnership game, else each
seat alone), the points per hand, and the time stamps for Digger.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.definition import Stamper
from ..core.game import GameState
from ..play.driver import ChanceKey

GAMES = ("digging", "digger")


@dataclass(frozen=True, slots=True)
class GameSpec:
    game: str
    players: int
    partnership: bool = False

    @classmethod
    def make(cls, game: str, players: int | None = None, partnership: bool | None = None) -> GameSpec:
        """Check a table and fill in defaults: Digging 4 players in partnership, Digger 3 players."""
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}; games: {', '.join(GAMES)}")
        if game == "digging":
            players = 4 if players is None else players
            if not 2 <= players <= 4:
                raise ValueError("Digging is for 2, 3 or 4 players")
            partnership = players == 4 if partnership is None else partnership
            if partnership and players != 4:
                raise ValueError("the Digging partnership game is for exactly 4 players")
            return cls(game, players, partnership)
        players = 3 if players is None else players
        if not 2 <= players <= 5:
            raise ValueError("Digger is for 2 to 5 players")
        if partnership:
            raise ValueError("Digger has no partnership game")
        return cls(game, players, False)

    @property
    def label(self) -> str:
        mode = "partnership" if self.partnership else "individual"
        return f"{self.game} {self.players}p {mode}" if self.game == "digging" else f"{self.game} {self.players}p"

    # -- sides -------------------------------------------------------------
    @property
    def sides(self) -> int:
        return 2 if self.partnership else self.players

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.partnership else seat

    def seats_of(self, side: int) -> list[int]:
        return [s for s in range(self.players) if self.side_of(s) == side]

    # -- states ------------------------------------------------------------
    def new_state(self) -> GameState:
        """A fresh game waiting for its first chance outcome (the deal, the first roll)."""
        if self.game == "digging":
            from ..digging import DiggingState

            return DiggingState(self.players, self.partnership)
        from .digger_support import new_digger_state

        return new_digger_state(self.players)

    def stamper(self) -> Stamper | None:
        if self.game == "digger":
            from .digger_support import digger_stamper

            return digger_stamper()
        return None

    def chance_key(self) -> ChanceKey | None:
        """Digger draws each turn's dice from a stream of its own, so that turn t of a deal
        gets the same rolls in every rotation (see :func:`goldfields.play.play_game`)."""
        if self.game == "digger":
            return _digger_turn
        return None  # Digging shuffles one deck per hand: hand k gets the same deck anyway

    def hand_points(self, state: GameState) -> list[list[int]]:
        """Points per seat for each hand played (a game of Digger is one hand)."""
        history: Any = getattr(state, "history", None)
        if self.game == "digging" and history:
            return [list(h) for h in history]
        return [list(state.scores())]


def _digger_turn(state: GameState) -> object:
    return state.turn  # type: ignore[attr-defined]
