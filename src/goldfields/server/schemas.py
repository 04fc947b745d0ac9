"""The HTTP API's request and response bodies (pydantic), strict on input."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Name = Field(default="", max_length=40, pattern=r"^[^\x00-\x1f]*$")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatRequest(Strict):
    kind: Literal["human", "bot"]
    bot: str | None = Field(default=None, max_length=120, description="Bot spec: 'heuristic', 'ismcts:seconds=1'...")
    name: str = Name


class CreateTable(Strict):
    game: Literal["digging", "digger"]
    players: int = Field(ge=2, le=5)
    partnership: bool | None = Field(default=None, description="Digging with 4 players: partners 0+2 against 1+3.")
    options: dict[str, bool | int | float | str] = Field(default_factory=dict, max_length=16)
    crates: Literal["white"] | dict[str, list[str]] | None = Field(
        default=None, description="Digger: 'white' or {'black': ['A', 'C', ...]}."
    )
    seats: list[SeatRequest] = Field(min_length=2, max_length=5)
    name: str = Field(default="", max_length=80, pattern=r"^[^\x00-\x1f]*$")
    move_seconds: float | None = Field(default=None, ge=5, le=3600, description="Time per move (turn-based games).")
    claim: int | None = Field(default=None, ge=0, le=4, description="A human seat the creator takes at once.")
    player_name: str = Name


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
