"""The table an arena runs, as a small picklable spec over the game's definition.

Everything about the game itself (its parameters and their checks, its sides,
its clock, its chance streams, its points per hand) comes from the game's
definition in the registry; the spec only adds the arena's own choices: the
jitter of the simulated clock, and one chance stream per key so that
duplicate deals pair up.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from ..core import registry
from ..core.definition import GameDefinition, ParamError, Params, Stamper
from ..core.game import GameState
from ..play.driver import ChanceKey

ARENA_JITTER = 0.2
"""The jitter of a timed game's simulated clock in the arena: a digger cannot
know exactly where the hourglass is, and a greedy turn does run out of time.
The jitter is drawn from the driver's stamping generator, itself derived from
the deal's chance seed, so games replay exactly (the record stores every time)."""


@dataclass(frozen=True, slots=True)
class GameSpec:
    game: str
    params: Params

    @classmethod
    def make(
        cls, game: str, players: int | None = None, partnership: bool | None = None,
        rules: Mapping[str, Any] | None = None,
    ) -> GameSpec:
        """Check a table and fill in the game's defaults (Digging: 4 players in partnership; Digger: 3 players).

        ``rules``: the game's other parameters (Digger's ``crates``) and its rule options
        (``full_deck``, ``time_limit``...), by name; the definition checks each."""
        try:
            definition = registry.get(game)
        except registry.UnknownGame as err:
            raise ValueError(str(err)) from None
        values: dict[str, Any] = {"players": players}
        if partnership is not None:
            values["partnership"] = partnership
        try:
            table = cls(game, definition.params(**values))
        except ParamError as err:
            raise ValueError(err.in_game(definition.title)) from None
        return table.with_rules(rules) if rules else table

    @classmethod
    def from_json(cls, game: str, params: Any) -> GameSpec:
        """A table with every parameter as :meth:`Params.to_json` wrote it (rule options included)."""
        try:
            definition = registry.get(game)
            return cls(game, definition.params_from_json(params))
        except (registry.UnknownGame, ParamError) as err:
            raise ValueError(str(err)) from None

    def with_rules(self, rules: Mapping[str, Any]) -> GameSpec:
        """This table with some parameters or rule options set anew (as :meth:`make` takes them)."""
        data = self.params.to_json()
        top = {f.name for f in fields(self.definition.params_type)} - {"players", "partnership", "options"}
        options = getattr(self.params, "options", None)
        known = top | ({f.name for f in fields(options)} if options is not None else set())
        if unknown := sorted(set(rules) - known):
            # Named here, not by the options' own check, which knows only the rule options.
            raise ValueError(f"{self.definition.title} has no rule or parameter {unknown[0]!r}; "
                             f"its rules: {', '.join(sorted(known))}")
        for key, value in rules.items():
            if key in top:
                data[key] = value
            else:
                data.setdefault("options", {})[key] = value
        try:
            params = self.definition.params_from_json(data)
            # An option these rules set must change the table; one the table had already (a run
            # or record made before such options were refused) is kept, as it was played.
            self.definition.refuse_idle(params, only={name for name, value in rules.items() if value})
        except ParamError as err:
            raise ValueError(err.in_game(self.definition.title)) from None
        return GameSpec(self.game, params)

    @property
    def definition(self) -> GameDefinition[Any]:
        return registry.get(self.game)

    @property
    def players(self) -> int:
        return self.params.players

    @property
    def partnership(self) -> bool:
        return len(self.definition.sides(self.params)) < self.players

    @property
    def has_hands(self) -> bool:
        """Whether the game is scored hand by hand (Digging). A game of one long hand (Digger) has no
        points per hand apart from its points per game, so the results table leaves them out."""
        return type(self.definition).hand_points is not GameDefinition.hand_points

    @property
    def label(self) -> str:
        """The table, and any rule that differs from the game's defaults: runs under other rules
        must not read alike."""
        base = self.definition.label(self.params)
        rules = self.rules_text()
        return f"{base} ({rules})" if rules else base

    def rules_text(self) -> str:
        """:meth:`rules` as ``--rule`` writes them (``crates=black, time_limit=20.0``); empty for the defaults."""
        return ", ".join(f"{k}={_text(v)}" for k, v in self.rules().items())

    def rules(self) -> dict[str, Any]:
        """The parameters and rule options that differ from the game's defaults, by name."""
        mine = self.params.to_json()
        usual = self.definition.params(players=self.params.players).to_json()
        out = {k: v for k, v in mine.items() if k not in ("players", "partnership", "options") and v != usual.get(k)}
        out.update({k: v for k, v in mine.get("options", {}).items() if v != usual.get("options", {}).get(k)})
        return out

    # -- sides -------------------------------------------------------------
    @property
    def sides(self) -> int:
        return len(self.definition.sides(self.params))

    def side_of(self, seat: int) -> int:
        return self.definition.side_of(self.params, seat)

    def seats_of(self, side: int) -> list[int]:
        return list(self.definition.sides(self.params)[side])

    def side_note(self, side: int) -> str:
        """What sets the side apart besides its seats (Digger's black crate card), or ""."""
        return self.definition.side_note(self.params, side)

    # -- states ------------------------------------------------------------
    def new_state(self) -> GameState:
        """A fresh game waiting for its first chance outcome (the deal) or decision (the first roll)."""
        return self.definition.new_state(self.params)

    def stamper(self) -> Stamper | None:
        return self.definition.simulated_clock(ARENA_JITTER)

    def chance_key(self) -> ChanceKey | None:
        """The game's chance streams (see :func:`goldfields.play.play_game`), where it has more than one."""
        definition = self.definition
        if type(definition).chance_stream is GameDefinition.chance_stream:
            return None
        return definition.chance_stream

    def hand_points(self, state: GameState) -> list[list[int]]:
        """Points per seat for each hand played (a game of Digger is one hand)."""
        return self.definition.hand_points(state)

    def rounds(self, state: GameState) -> int:
        """The game's length in its own rounds: Digging's hands, Digger's turns."""
        return self.definition.rounds(state)

    @property
    def rounds_column(self) -> str:
        """The name of that measure in games.csv and lengths.csv: ``hands``, ``turns``."""
        return f"{self.definition.round_word}s"


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
