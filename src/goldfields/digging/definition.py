"""Digging, defined once: its parameters, sides, bots and notation for every layer above the engine."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..core.definition import GameDefinition, ParamError, Params, check_bool
from ..core.game import GameState
from .actions import NUM_ACTIONS
from .cards import CODES, REMOVED_SINGLES
from .options import DiggingOptions
from .state import DiggingState


@dataclass(frozen=True, slots=True)
class DiggingParams(Params):
    players: int = 4
    partnership: bool = True
    """The partnership game (seats 0+2 against 1+3); 4 players only."""
    options: DiggingOptions = field(default_factory=DiggingOptions)
    """The rule options (docs/digging.md); all off by default."""


class Digging(GameDefinition[DiggingParams]):
    name = "digging"
    title = "Digging"
    summary = "Reiner Knizia's card game of mines, chests and bandits, for 2 to 4 players or two partnerships"
    min_players = 2
    max_players = 4
    params_type = DiggingParams
    num_actions = NUM_ACTIONS

    bots: ClassVar[Mapping[str, str]] = {
        "heuristic": "goldfields.bots.digging_heuristic:DiggingHeuristic",
        "net": "goldfields.bots.net:NetBot",
    }
    bot_help: ClassVar[Mapping[str, str]] = {
        "heuristic": "hand-written rules that play like a sensible human",
        "net": "a trained policy network alone, fast; net=default, net=selfplay or a .npz file",
    }
    levels: ClassVar[Mapping[str, str]] = {
        # A newcomer beats random play; the heuristic plays like a sensible human;
        # ISMCTS thinks for the server's bot budget (0.5 s by default), guided by the shipped
        # network: at equal time (0.25 s a move) it beat plain ISMCTS in 146 of 200 2-player games
        # (docs/network.md, "Strength"), and plain ISMCTS at 0.25 s won 96 of 100 games against
        # the heuristic team.
        "easy": "random",
        "medium": "heuristic",
        "hard": "ismcts:net=default",
    }
    table_levels: ClassVar[Mapping[str, Mapping[str, str]]] = {
        # In the partnership game the other seats' moves are guided by the observer network, read
        # on the searching seat's own view: at equal time (0.25 s a move) it beat plain ISMCTS in
        # 125 of 200 games, where net=default alone was not shown stronger (docs/network.md).
        "partnership": {"hard": "ismcts:net=selfplay,others=observer"},
    }
    analyst = "ismcts:iterations=2000"
    search = "goldfields.bots.digging_search:DiggingSearch"
    encoding = "goldfields.research.encoding:DIGGING"
    replayer = "goldfields.digging.replay:replay"
    walker = "goldfields.digging.replay:walk"
    starter = "goldfields.digging.replay:start"
    tutorial = "goldfields.digging.tutorial"
    narrator = "goldfields.digging.narrate:event_text"

    @property
    def default_players(self) -> int:
        return 4

    def check(self, values: dict[str, Any]) -> DiggingParams:
        players = values["players"]
        partnership = values.get("partnership")
        partnership = players == 4 if partnership is None else check_bool("partnership", partnership)
        if partnership and players != 4:
            raise ParamError("partnership", "the partnership game is for exactly 4 players")
        options = values.get("options")
        if not isinstance(options, DiggingOptions):
            try:
                options = DiggingOptions.from_json(options)
            except ValueError as err:
                raise ParamError("options", str(err)) from None
        return DiggingParams(players, partnership, options)

    def chance_json(self, outcome: Any) -> Any:
        # The deck as card names (top card first, as D1 deals it), readable in the stored step log.
        return [CODES[c] for c in outcome]

    def idle_options(self, params: DiggingParams) -> dict[str, str]:
        idle = {}
        if params.options.full_deck and (params.partnership or not REMOVED_SINGLES[params.players]):
            idle["full_deck"] = "all 60 cards are in play there already (docs/digging.md, Rule options)"
        if params.options.target_exceeded and not params.partnership:
            idle["target_exceeded"] = "it is a rule of the partnership game only (D9; docs/digging.md, Rule options)"
        return idle

    def label(self, params: DiggingParams) -> str:
        mode = "partnership" if params.partnership else "individual"
        return f"{self.name} {params.players}p {mode}"

    def new_state(self, params: DiggingParams, rng: random.Random | None = None) -> DiggingState:
        state = DiggingState(params.players, params.partnership, params.options)
        if rng is not None:
            state.apply_chance(state.sample_chance(rng))
        return state

    def sides(self, params: DiggingParams) -> tuple[tuple[int, ...], ...]:
        if params.partnership:
            return ((0, 2), (1, 3))
        return super().sides(params)

    def steps(self, record: Mapping[str, Any]) -> int:
        """A deal and the moves of each hand."""
        hands = record.get("hands")
        if not isinstance(hands, list):
            return 0
        return sum(1 + (len(m) if isinstance(m := h.get("moves"), list) else 0)
                   for h in hands if isinstance(h, Mapping))  # fmt: skip

    def hand_points(self, state: GameState) -> list[list[int]]:
        history: list[list[int]] = getattr(state, "history", [])
        return [list(h) for h in history] or [list(state.scores())]


DIGGING = Digging()
