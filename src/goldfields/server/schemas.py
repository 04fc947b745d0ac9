"""The HTTP API's request and response bodies (pydantic), strict on input."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Name = Field(default="", max_length=40, pattern=r"^[^\x00-\x1f]*$")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatRequest(Strict):
    kind: Literal["human", "bot"]
    bot: str | None = Field(default=None, max_length=120, description="Bot spec: 'heuristic', 'ismcts:seconds=1'...")
    name: str = Name


class DiggingRuleOptions(Strict):
    """Digging's rule options (docs/digging.md#rule-options); all off by default."""

    target_exceeded: bool = False
    full_deck: bool = False
    no_chests_during_fight: bool = False
    close_needs_chest: bool = False


class TableRequest(Strict):
    seats: list[SeatRequest] = Field(min_length=2, max_length=5, description="One entry per seat, seat 0 first.")
    name: str = Field(default="", max_length=80, pattern=r"^[^\x00-\x1f]*$")
    move_seconds: float | None = Field(default=None, ge=5, le=3600, description="Time per move (turn-based games).")
    claim: int | None = Field(default=None, ge=0, le=4, description="A human seat the creator takes at once.")
    player_name: str = Name


class CreateDigging(TableRequest):
    game: Literal["digging"]
    players: int | None = Field(default=None, ge=2, le=4, description="Defaults to the number of seats.")
    partnership: bool | None = Field(default=None, description="4 players only: partners 0+2 against 1+3.")
    options: DiggingRuleOptions = Field(default_factory=DiggingRuleOptions)


class DiggerRuleOptions(Strict):
    """Digger's rule options (docs/digger.md); the defaults are the standard rules."""

    time_limit: float = Field(default=30.0, gt=0, le=600, description="Seconds in the hourglass.")
    knock_probability: float = Field(default=0.0, ge=0, le=1, description="G5: chance a steal knocks a pile.")


class CreateDigger(TableRequest):
    game: Literal["digger"]
    players: int | None = Field(default=None, ge=2, le=5, description="Defaults to the number of seats.")
    crates: Literal["white", "black"] | dict[Literal["black"], list[Literal["A", "B", "C", "D", "E"]]] = Field(
        default="white", description="'white' (same values for all), 'black', or {'black': ['A', 'C', 'E']}."
    )
    options: DiggerRuleOptions = Field(default_factory=DiggerRuleOptions)
    stack_seconds: float = Field(default=0.5, ge=0, le=5, description="Seconds to stack each token when stopping.")


CreateTable = Annotated[CreateDigging | CreateDigger, Field(discriminator="game")]


class ClaimSeat(Strict):
    name: str = Name


class SeatInfo(BaseModel):
    seat: int
    kind: str
    bot: str | None
    name: str
    label: str
    open: bool
    connected: bool
    standin: bool


class TableSummary(BaseModel):
    id: str
    game: str
    name: str
    players: int
    config: dict[str, Any]
    status: str
    seq: int
    to_move: int | None
    created_at: float
    seats: list[SeatInfo]


class SeatToken(BaseModel):
    seat: int
    token: str = Field(description="The seat's secret: only its holder can move for the seat. Keep it private.")
    link: str = Field(description="A link that opens the table in this seat (the token is in the #fragment).")


class Created(BaseModel):
    table: TableSummary
    you: SeatToken | None


class GameInfo(BaseModel):
    name: str
    min_players: int
    max_players: int
    options: dict[str, Any]
    bots: dict[str, str]


class Problem(BaseModel):
    code: str
    message: str
