"""The HTTP API's request and response bodies (pydantic), strict on input."""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

# Unicode's format characters (right-to-left overrides, zero-width spaces, ...) and line separators
# would turn the rest of another player's log lines around, or make a name invisible; every script's
# letters stay.
_UNSHOWN = frozenset(("Cf", "Zl", "Zp"))


def shown(text: str) -> str:
    """``text`` without format characters and surrounding spaces: what a name shows as."""
    return "".join(c for c in text if unicodedata.category(c) not in _UNSHOWN).strip()


# Letters that draw nothing: Hangul fillers, the blank Braille pattern, Khmer's inherent vowels,
# the combining grapheme joiner. They have their uses within text, so they stay, but a name of
# nothing else would show as no name at all.
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u034f")


def _visible(text: str) -> str:
    name = shown(text)
    if not any(c not in BLANKS and not c.isspace() for c in name):
        raise ValueError("a name needs at least one visible character")
    return name


NO_CONTROLS = r"^[^\x00-\x1f\x7f-\x9f]*$"
"""Unicode's control characters (category Cc): C0, DEL and C1 (U+0080 to U+009F)."""
Name = Field(default="", max_length=40, pattern=NO_CONTROLS)
Shown = Annotated[str, AfterValidator(shown)]
"""A name that may be left empty (a seat's default label then stands); its invisible characters go."""
Visible = Annotated[str, AfterValidator(_visible)]


PlayerKey = Field(
    default=None,
    max_length=64,
    description="Your player profile's secret key: the seat is yours in your history and ratings.",
)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatRequest(Strict):
    kind: Literal["human", "bot"]
    bot: str | None = Field(default=None, max_length=120, description="Bot spec: 'heuristic', 'ismcts:seconds=1'...")
    level: str | None = Field(
        default=None, max_length=20,
        description="In place of a bot spec: a level (easy, medium, hard), played by the bot GET /api/games names "
        "for the table's kind (table_levels, else levels).",
    )  # fmt: skip
    name: Shown = Name


class TableRequest(Strict):
    seats: list[SeatRequest] = Field(min_length=2, max_length=5, description="One entry per seat, seat 0 first.")
    name: Shown = Field(default="", max_length=80, pattern=NO_CONTROLS)
    move_seconds: float | None = Field(
        default=None, ge=5, le=3600,
        description="Seconds per move; in a real-time game, to begin a turn (the game's own clock times the rest).",
    )  # fmt: skip
    claim: int | None = Field(default=None, ge=0, le=4, description="A human seat the creator takes at once.")
    player_name: Shown = Name


class CreateTable(TableRequest):
    """A new table. Beside the fields below, the request carries the game's own
    parameters (such as ``options``, its rule options), checked by the game's
    definition: ``GET /api/games`` lists each game's, with their defaults."""

    player_key: str | None = PlayerKey

    model_config = ConfigDict(extra="allow")

    game: str = Field(max_length=40, pattern=r"^[a-z][a-z0-9_-]*$", description="A game the server hosts.")
    players: int | None = Field(default=None, ge=2, le=16, description="Defaults to the number of seats.")


class ClaimSeat(Strict):
    name: Shown = Name
    player_key: str | None = PlayerKey


class NewPlayer(Strict):
    name: Visible = Field(min_length=1, max_length=40, pattern=NO_CONTROLS)


class PlayerCreated(BaseModel):
    id: str = Field(description="The public id: your profile's page is /player.html?id=...")
    name: str
    key: str = Field(description="The secret key: it stands for you. Keep it; it is never shown again.")


class Rematch(Strict):
    seat: int = Field(ge=0, le=15, description="Your seat at the finished table.")
    token: str = Field(max_length=64, description="That seat's token: the rematch keeps the seat for you.")


class Replay(Strict):
    record: dict[str, Any] = Field(description="A game record, as GET /api/tables/{id}/record gives it.")
    seat: Annotated[int, Field(ge=0, le=15)] | Literal["all"] | None = Field(
        default="all", description="Whose eyes to watch through: a seat, all (every hand open) or null (a spectator's)."
    )


class SeatInfo(BaseModel):
    seat: int
    kind: str
    bot: str | None
    name: str
    label: str
    open: bool
    reserved: bool = Field(default=False, description="Open, but kept for its player from the game before a rematch.")
    player: str | None = Field(default=None, description="The player profile that took the seat (its public id).")
    connected: bool
    standin: bool
    standin_reason: str | None = Field(
        default=None, description="Why a bot plays the seat: 'away' (until the player is back) or 'timeout' (one move)."
    )


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
    rematch: dict[str, Any] | None = Field(
        default=None, description='Once a player asked for a rematch: {"table": its id, "by": their seat}.'
    )
    paused: bool | None = Field(
        default=None,
        description="A game in play that waits for its players: none of them is at the table, so nothing moves. "
        "null where the process answering does not hold the table (another server process, or none).",
    )


class SeatToken(BaseModel):
    seat: int
    token: str = Field(description="The seat's secret: only its holder can move for the seat. Keep it private.")
    link: str = Field(description="A link that opens the table in this seat (the token is in the #fragment).")


class Created(BaseModel):
    table: TableSummary
    you: SeatToken | None


class IdleOption(BaseModel):
    option: str
    players: int
    partnership: bool | None = Field(description="The partnership game or not; null where the game has none.")
    why: str = Field(description="Why the option changes nothing at this table.")


class GameInfo(BaseModel):
    name: str
    title: str
    summary: str
    min_players: int
    max_players: int
    timed: bool
    params: dict[str, Any] = Field(description="The game's parameters with their defaults.")
    options: dict[str, Any] = Field(description="The rule options with their defaults (all off by default).")
    option_limits: dict[str, dict[str, float]] = Field(
        default_factory=dict,
        description="The bounds a form holds the numeric rule options to (min, max, step where set); the "
        "game's own check, on the server, is the last word.",
    )
    idle_options: list[IdleOption] = Field(
        default_factory=list,
        description="On/off rule options that change nothing at a table (Digging's full_deck with 4 players): "
        "a table that sets one is refused.",
    )
    bots: dict[str, str]
    levels: dict[str, str] = Field(
        default_factory=dict, description="Bot specs for people choosing opponents: easy, medium and hard."
    )
    table_levels: dict[str, dict[str, str]] = Field(
        default_factory=dict,
        description="The levels at a kind of table (partnership, 2p, 3p...) whose bots differ from levels': "
        "a seat asked at a level gets these there.",
    )
    tutorial: bool = Field(default=False, description="Whether GET /api/games/{game}/tutorial has a guided game.")
    analysis: bool = Field(
        default=False, description="Whether GET /api/tables/{id}/analysis judges a finished game's moves."
    )


class ProgressPoint(BaseModel):
    step: int = Field(description="The replay's step (1: the first position) from which the scores were these.")
    hand: int = Field(
        description="The hand these scores belong to: the hand just scored (Digging), 1 for the opening "
        "scores and in a one-hand game (Digger)."
    )
    scores: list[int]


class GameSummary(BaseModel):
    game: str
    players: int
    names: list[str]
    sides: list[list[int]] = Field(description="The seats that win or lose together.")
    hands: list[list[int]] = Field(description="Each hand's points per seat (a one-hand game has one row).")
    scores: list[int] = Field(description="The final scores per seat.")
    winners: list[int] | None
    finished: bool
    progress: list[ProgressPoint] = Field(description="The scores each time they changed, for a chart.")


class Problem(BaseModel):
    code: str
    message: str
    # bad_bot_parameter names the seat, bot and parameter, and what the parameter allows.
    seat: int | None = None
    bot: str | None = None
    parameter: str | None = None
    allowed: str | None = None
    # rate_limited (429), server_full, too_many_bot_tables, too_many_analyses and too_many_replays (503):
    # seconds to wait,
    # also in Retry-After.
    retry_after: int | None = None
