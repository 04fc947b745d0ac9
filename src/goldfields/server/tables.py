"""Live tables: the games being played on this server, and the rules of the house.

Every change to a table goes through :meth:`TableManager._commit`, under the
table's lock: the step is checked on a copy of the game, written to the
database (and synced) and only then applied and announced. So nothing is
acknowledged that a crash could lose, and a rejected step changes nothing.

Who acts for a seat: its human (through a WebSocket), its bot, or a stand-in
bot when the human has been away longer than the grace period or let their
move clock run out. The human takes the seat back by coming back and acting.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import dataclasses
import hashlib
import hmac
import logging
import math
import random
import secrets
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy.exc import IntegrityError

from ..bots.registry import BotParameterError, make_bot
from ..core.definition import mode_of
from ..core.game import Event, GameState, RuleError
from ..seeding import sealed_rng
from .botpool import BotPool, PoolSettings, is_quick
from .games import ConfigError, TableGame, table_game
from .limits import NETWORK_FACTOR, network_key
from .models import CREATOR_WIDTH, SeatRow, TableRow
from .ratings import SeatResult, ranks
from .settings import Settings
from .store import CapReached, Caps, Store, StoredTable, TableClosed

if TYPE_CHECKING:
    from .cluster import Cluster

log = logging.getLogger("goldfields.server")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


CHAT_KEPT = 50
"""Chat messages a table keeps for a (re)connecting client; chat is not stored in the database."""
CHAT_LENGTH = 200
CHAT_PHRASES = ("hi", "gl", "gg", "wp", "thanks", "sorry", "oops", "wait", "bye")
"""Quick phrases: sent as a code, shown in each reader's language."""


def rematch_id(table_id: str, secret: str) -> str:
    """The id of a finished table's rematch: fixed, so that every player who asks gets the
    same table; drawn from the table's secret, so that no one else can guess it first."""
    return hashlib.sha256(f"{secret}:rematch:{table_id}".encode()).hexdigest()[:10]


def rematch_token(secret: str, table_id: str, seat: int, old_token: str) -> str:
    """The token of ``seat`` at the rematch of a finished table, for the holder of the seat's
    old token: fixed, so that asking again (a response lost, two requests racing) gives the
    seat and token already given, not ``seat_taken``; drawn from the table's secret, so that
    only the old token's holder can have it."""
    digest = hmac.new(secret.encode(), f"rematch-seat:{table_id}:{seat}:{old_token}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()).decode()[:24]


REPLY_STEP = 0.25
"""Seconds: a search bot's reply is sent on this grid of times after it was asked."""
REPLY_PAD = 0.05
"""Seconds: a search overruns its budget by an iteration and the worker's reply, a few ms."""


def reply_after(took: float, budget: float) -> float:
    """When to send a search bot's reply, in seconds after asking: never before its budget plus
    the usual overrun, and on a grid of REPLY_STEP, so that a forced move held to the budget and
    a search that ran a few ms past it are sent at the same moment."""
    return math.ceil((max(took, budget) + REPLY_PAD) / REPLY_STEP) * REPLY_STEP


class TableError(Exception):
    """A request the table refuses; ``code`` is machine-readable, the message is for people."""

    def __init__(self, code: str, message: str, status: int = 409, details: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        self.details = dict(details or {})
        """Machine-readable specifics (which bot parameter, and what it allows)."""


def abandoned() -> TableError:
    return TableError("abandoned", "this game was closed: nobody was at the table for too long", 410)


def cap_refusal(cap: str, count: int) -> TableError:
    """The refusal of a new table that a site-wide cap (``live``, ``bots``, ``creator``, ``network``) holds back."""
    if cap == "live":
        return TableError("server_full", f"the server has {count} live tables, as many as it takes; try again later",
                          503, {"retry_after": 60})  # fmt: skip
    if cap == "bots":
        message = f"the server runs {count} tables of bots only, as many as it takes; seat a human"
        return TableError("too_many_bot_tables", message, 503, {"retry_after": 60})
    who = "this network (an IPv6 /48)" if cap == "network" else "this address"
    message = (f"{who} has {count} tables waiting or in play, as many as it may have; finish one first "
               "(a table closes after waiting an hour, or once nobody has been at it for a day)")  # fmt: skip
    return TableError("too_many_tables", message, 429, {"retry_after": 300})


def stopped() -> TableError:
    return TableError("stopped", "this game was stopped: it reached the server's limit on a game's length", 410)


def _bots_only(seats: Sequence[Mapping[str, Any]]) -> bool:
    return bool(seats) and all(spec.get("kind") == "bot" for spec in seats)


def expired() -> TableError:
    """The refusal of anything asked of a table the sweep closed (claims, and moves from a socket
    opened before it was)."""
    return TableError("expired", "this table waited too long for its players and was closed", 410)


_REFUSALS = {"expired": expired, "abandoned": abandoned, "stopped": stopped}
CLOSED = tuple(_REFUSALS)
"""A table's statuses once it was closed before its game ended."""


def refuse_if_closed(table: LiveTable) -> None:
    """Refuse what is asked of a table closed before its game ended (expired, abandoned, stopped)."""
    if (refusal := _REFUSALS.get(table.status)) is not None:
        raise refusal()


class Outbox(Protocol):
    """A client connection, as the table sees it."""

    def close_soon(self, code: int) -> None:
        """Close the connection with ``code`` once what is queued before is sent."""

    seat: int | None

    def send(self, message: dict[str, Any]) -> None: ...


@dataclass(slots=True)
class Seat:
    index: int
    kind: str  # human or bot
    bot: str | None
    name: str
    token_hash: str | None
    player: str | None = None  # the player profile at a human seat, if it was taken with one
    connections: int = 0  # this process's sockets at the seat
    remote: dict[str, int] = field(default_factory=dict)  # other processes' sockets, by process (cluster)
    standin: bool = False
    standin_reason: str | None = None  # "away" (until the player is back) or "timeout" (one move)
    timeout_seq: int | None = None  # the step at which a move clock ran out

    @property
    def present(self) -> bool:
        """Someone is at the seat: a socket on this process or on another."""
        return self.connections > 0 or any(self.remote.values())

    @property
    def open(self) -> bool:
        return self.kind == "human" and self.token_hash is None


@dataclass(eq=False)
class LiveTable:
    id: str
    game: TableGame
    name: str
    config: dict[str, Any]
    secret: str
    created_at: float
    seats: list[Seat]
    state: GameState
    status: str = "waiting"
    seq: int = 0
    events: list[tuple[int, Event]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[Outbox] = field(default_factory=set)
    timers: dict[str, asyncio.TimerHandle] = field(default_factory=dict)
    deadlines: dict[str, tuple[float, float]] = field(default_factory=dict)  # timer -> (monotonic deadline, seconds)
    turn_started: float | None = None  # monotonic time of a real-time turn's first step
    move_for: tuple[int, int] | None = None  # (seat, seq) of the decision the move clock runs for
    bot_for: tuple[int, int] | None = None  # (seat, seq) of the decision a bot is making now
    unsent: list[Event] = field(default_factory=list)  # events committed, not yet broadcast
    tasks: set[asyncio.Task[None]] = field(default_factory=set)
    updated_at: float = 0.0  # wall time of the last move, or change of seats or status
    client: str | None = None  # the address that created it, while it is live (stored as the row's creator)
    seen_at: float = 0.0  # wall time a player last came or went (or this process took the table on)
    finished_mono: float | None = None  # monotonic time the game ended, for archiving
    watched: dict[str, set[str]] = field(default_factory=dict)  # other processes -> seat keys they relay
    rematch: dict[str, Any] | None = None  # {"table": id, "by": seat} once a player asked for a rematch
    chat: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=CHAT_KEPT))  # the last messages

    def rng(self, purpose: str) -> random.Random:
        # A fresh generator per step, derived from the table's secret: chance
        # never repeats after a restart, and nothing outside the server can
        # predict it. Sealed, because the bot's generator goes to the bot, and
        # a generator seeded with text gives the text back (goldfields.seeding).
        return sealed_rng(f"{self.secret}:{purpose}:{self.seq}")

    def controlled_by_bot(self, seat: int) -> bool:
        s = self.seats[seat]
        return s.kind == "bot" or s.standin

    def kept(self, seat: Seat) -> bool:
        """An empty seat a rematch keeps for the player who sat there: open, but not to strangers."""
        return seat.open and seat.index in self.config.get("reserved", ())

    @property
    def unattended(self) -> bool:
        """No player is at the table: the game pauses until one comes back. A stand-in plays
        for a player who left only while someone else is there to play with. So a game against
        bots waits for its one player (a phone switching apps) instead of being played out,
        and a table of humans who never came, or all left, costs the bots nothing (otherwise
        claimed seats that never connect would be a way round ``--max-bot-tables``)."""
        humans = [s for s in self.seats if s.kind == "human"]
        return bool(humans) and not any(s.present for s in humans)

    def summary(self) -> dict[str, Any]:
        state = self.state
        return {
            "id": self.id,
            "game": self.game.name,
            "name": self.name,
            "players": len(self.seats),
            "config": self.config,
            "status": self.status,
            "seq": self.seq,
            "to_move": state.current_player if state.current_player >= 0 else None,
            "created_at": self.created_at,
            "rematch": self.rematch,
            "paused": self.status == "playing" and self.unattended,
            "seats": [
                {
                    "seat": s.index,
                    "kind": s.kind,
                    "bot": s.bot,
                    "name": s.name,
                    "label": self.game.seat_label(self.config, s.index),
                    "open": s.open,
                    "reserved": self.kept(s),
                    "player": s.player,
                    "connected": s.present,
                    "standin": s.standin,
                    "standin_reason": s.standin_reason if s.standin else None,
                }
                for s in self.seats
            ],
        }


@dataclass(frozen=True, slots=True)
class _Creation:
    """What :meth:`TableManager.create` was asked for, carried through its checks."""

    request: Mapping[str, Any]
    claim: int | None
    player_name: str
    player_id: str | None
    table_id: str | None
    extra: Mapping[str, Any] | None
    client: str | None
    token: str | None


class TableManager:
    def __init__(
        self,
        store: Store,
        settings: Settings | None = None,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        bots: BotPool | None = None,
    ) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.bots = bots or BotPool(PoolSettings(self.settings.bot_workers, self.settings.bot_deadline))
        self.cluster: Cluster | None = None
        """Set when this is one of several server processes (see cluster.py)."""
        # Every duration and deadline is measured with ``clock``, a monotonic
        # clock that a change of the system time cannot step. ``wall`` is only
        # for timestamps shown to people and stored with each step.
        self.clock = clock
        self.wall = wall
        self.tables: dict[str, LiveTable] = {}
        self._creating: Counter[str] = Counter()  # tables being created, by client address
        # Tables being created, in all ("live") and of bots alone ("bots"): a lone process's global
        # caps count them, or creations at once would each find the last place free.
        self._pending: Counter[str] = Counter()
        self._profiles_swept = -math.inf  # self.clock() at the last look for unused profiles

    # ------------------------------------------------------------------
    # Creating, claiming, restoring
    # ------------------------------------------------------------------
    async def create(
        self,
        request: Mapping[str, Any],
        claim: int | None = None,
        player_name: str = "",
        *,
        player_id: str | None = None,
        table_id: str | None = None,
        extra: Mapping[str, Any] | None = None,
        client: str | None = None,
        token: str | None = None,
    ) -> tuple[LiveTable, str | None]:
        """A new table, with the creator in seat ``claim`` if given: (the table, the seat's token).

        Table, seats, the creator's claim and (if no seat is left open) the start are stored
        in one transaction. ``table_id`` and ``extra`` (server settings for the config) are
        a rematch's: its id follows from the finished table's, so that two players asking
        at once get the same table, and ``token`` the creator's seat's (:func:`rematch_token`;
        else a new one is drawn). ``client`` is the creator's address, for
        ``max_tables_per_client``."""
        asked = _Creation(request, claim, player_name, player_id, table_id, extra, None, token)
        if client is None or not self.settings.rate_limits:
            return await self._create(asked)
        # The stored column's width. An address or /64 is far shorter; a proxy's odd header is not.
        client = client[:CREATOR_WIDTH]
        # An IPv6 client's /48 has a cap of its own, NETWORK_FACTOR times as high: one customer
        # given a /56 has 256 /64s, each with the cap of one address.
        network = network_key(client)
        # Creations under way at once count too: each counts those begun before it.
        ahead = self._creating[client]
        ahead_in_network = self._creating[network] if network is not None else 0
        keys = [client] if network is None else [client, network]
        for key in keys:
            self._creating[key] += 1
        try:
            mine = ahead + await self._live_created(client, of_network=False)
            if mine >= self.settings.max_tables_per_client:
                raise cap_refusal("creator", mine)
            if network is not None:
                in_network = ahead_in_network + await self._live_created(network, of_network=True)
                if in_network >= self.settings.max_tables_per_client * NETWORK_FACTOR:
                    raise cap_refusal("network", in_network)
            return await self._create(dataclasses.replace(asked, client=client))
        finally:
            for key in keys:
                self._creating[key] -= 1
                if not self._creating[key]:
                    del self._creating[key]

    async def _live_created(self, key: str, of_network: bool) -> int:
        """Live tables created by the address ``key``, or from the IPv6 /48 ``key`` (``of_network``)."""
        if self.cluster is not None:
            # Several processes: the database holds every process's tables. A creation of
            # this process that ends during the count may be counted twice, never not at all.
            return await (self.store.count_in_network(key) if of_network else self.store.count_created(key))
        return sum(t.client is not None and (network_key(t.client) if of_network else t.client) == key
                   and t.status in ("waiting", "playing") for t in self.tables.values())  # fmt: skip

    async def _create(self, asked: _Creation) -> tuple[LiveTable, str | None]:
        game = table_game(asked.request["game"])
        await self._check_capacity(asked.request["seats"])
        # Counted from the check to the table's place in self.tables (no wait between the check and
        # this, in a lone process, so two creations cannot both pass before either is counted).
        kinds = ("live", "bots") if _bots_only(asked.request["seats"]) else ("live",)
        self._pending.update(kinds)
        try:
            table, token = await self._create_checked(game, asked)
        finally:
            self._pending.subtract(kinds)  # in self.tables now (or not made): counted there
        if table.status == "playing":
            async with table.lock:
                await self._advance(table)
        return table, token

    async def _create_checked(self, game: TableGame, asked: _Creation) -> tuple[LiveTable, str | None]:
        request, claim, client = asked.request, asked.claim, asked.client
        if request.get("players") is None:
            request = {**request, "players": len(request["seats"])}
        config = game.check_config(request)
        # In a real-time game the clock times the start of a turn (its first roll): the game's own
        # hourglass times the rest, and without this a player who never rolled would hold the table.
        config["move_seconds"] = request.get("move_seconds")
        config.update(asked.extra or {})
        players = config["players"]
        seat_specs = request["seats"]
        if len(seat_specs) != players:
            raise ConfigError(f"a table of {players} players needs {players} seats, not {len(seat_specs)}")
        if claim is not None and (claim >= players or seat_specs[claim]["kind"] != "human"):
            raise ConfigError(f"claim: seat {claim} is not a human seat of this table")
        seats = []
        levels = game.definition.levels_for(game.params(config))
        for i, spec in enumerate(seat_specs):
            level = spec.get("level")
            if spec["kind"] != "bot":
                # Silently dropping a bot asked for a human seat would leave the creator waiting
                # for a player who never comes.
                for field in ("level", "bot"):
                    if spec.get(field) is not None:
                        raise ConfigError(f"seat {i}: a {field} is for a bot seat, not a human one")
            if level is not None:
                if spec.get("bot") is not None:
                    raise ConfigError(f"seat {i}: give a bot or a level, not both")
                if level not in levels:
                    known = f"its levels are {', '.join(levels)}" if levels else "it has no levels"
                    raise ConfigError(f"seat {i}: {game.title} has no level {level!r}: {known}")
            if spec["kind"] == "bot":
                named = spec.get("bot") or ""
                if named.lower() in levels:  # an API user's likeliest slip: the request has a field for it
                    raise ConfigError(f'seat {i}: {named!r} is a level, not a bot: ask for "level": "{named.lower()}"')
                bot = levels[level] if level is not None else named or "heuristic"
                try:
                    make_bot(bot, game.name, trusted=False)
                except BotParameterError as err:
                    raise TableError(
                        "bad_bot_parameter",
                        f"seat {i}: {err}",
                        422,
                        {"seat": i, "bot": err.bot, "parameter": err.parameter, "allowed": err.allowed},
                    ) from None
                except ValueError as err:
                    raise ConfigError(f"seat {i}: {err}") from None
                seats.append(Seat(i, "bot", bot, spec.get("name") or f"{bot} bot", None))
            else:
                seats.append(Seat(i, "human", None, spec.get("name") or "", None))
        token = None
        if claim is not None:
            token = asked.token or secrets.token_urlsafe(18)
            seats[claim].token_hash = hash_token(token)
            seats[claim].name = asked.player_name or ""  # no name: each client says "Seat N" in its own language
            seats[claim].player = asked.player_id
        now = self.wall()
        table = LiveTable(
            id=asked.table_id or secrets.token_urlsafe(6),
            game=game,
            name=request.get("name") or "",  # unnamed: each client names it in its own language
            config=config,
            secret=secrets.token_hex(16),
            created_at=now,
            seats=seats,
            state=game.new_state(config),
            status="waiting" if any(s.open for s in seats) else "playing",
            updated_at=now,
            client=client,
            seen_at=now,
        )
        caps = None
        if self.cluster is not None:
            # Several processes: counted again where the table is stored, under a lock every
            # process creates under, so that two creating at once cannot both take the last place.
            network = network_key(client) if client is not None else None
            caps = Caps(self.settings.max_live_tables,
                        self.settings.max_bot_tables if _bots_only(seat_specs) else None,
                        client, self.settings.max_tables_per_client,
                        network, self.settings.max_tables_per_client * NETWORK_FACTOR)  # fmt: skip
        # Several processes: owned (locked) before it is stored, so that no other may take it.
        async with self.cluster.creating(table.id) if self.cluster is not None else contextlib.nullcontext():
            try:
                await self.store.create_table(
                    TableRow(
                        id=table.id,
                        game=game.name,
                        name=table.name,
                        config=config,
                        secret=table.secret,
                        status=table.status,
                        created_at=table.created_at,
                        updated_at=now,
                        creator=client,
                    ),
                    [
                        SeatRow(
                            table_id=table.id,
                            seat=s.index,
                            kind=s.kind,
                            bot=s.bot,
                            name=s.name,
                            token_hash=s.token_hash,
                            player_id=s.player,
                        )
                        for s in seats
                    ],
                    caps,
                )
            except CapReached as reached:
                raise cap_refusal(reached.cap, reached.count) from None
            self.tables[table.id] = table
        return table, token

    async def _check_capacity(self, seats: list[Mapping[str, Any]]) -> None:
        """The global caps: live tables, and live tables of bots only (counted in the
        database when several processes share it)."""
        if self.cluster is not None:
            live_count, bot_tables = await self.store.count_live()
        else:
            live = [t for t in self.tables.values() if t.status in ("waiting", "playing")]
            live_count = len(live) + self._pending["live"]
            bot_tables = sum(all(s.kind == "bot" for s in t.seats) for t in live) + self._pending["bots"]
        if live_count >= self.settings.max_live_tables:
            raise cap_refusal("live", live_count)
        if _bots_only(seats) and bot_tables >= self.settings.max_bot_tables:
            raise cap_refusal("bots", bot_tables)

    async def claim(
        self,
        table: LiveTable,
        seat: int,
        name: str,
        rematch: bool = False,
        player_id: str | None = None,
        token: str | None = None,
    ) -> str:
        """Seat ``name`` in an open seat: the seat's token. A rematch keeps each seat for the
        player who held it (``rematch``: the claim comes with that player's old token), and
        gives it ``token`` (:func:`rematch_token`): a seat that already holds that token is
        answered with it again, as the same player asking twice is."""
        if not 0 <= seat < len(table.seats):
            raise TableError("no_such_seat", f"this table has seats 0 to {len(table.seats) - 1}", 404)
        if seat in table.config.get("reserved", ()) and not rematch:
            raise TableError("reserved", f"seat {seat} is kept for its player in the game before this rematch")
        async with table.lock:
            refuse_if_closed(table)
            s = table.seats[seat]
            if token is not None and s.token_hash is not None and hmac.compare_digest(s.token_hash, hash_token(token)):
                return token  # the player it was given to, asking again
            if not s.open:
                raise TableError("seat_taken", f"seat {seat} is not open: it is a bot's or already taken")
            token = token or secrets.token_urlsafe(18)
            start = not any(other.open for other in table.seats if other is not s)
            now = self.wall()
            if not await self.store.claim_seat(table.id, seat, hash_token(token), name, start, now, player_id):
                raise TableError("seat_taken", f"seat {seat} was just taken by someone else")
            s.token_hash = hash_token(token)
            s.name = name or ""
            s.player = player_id
            table.updated_at = now
            if start:
                table.status = "playing"
                await self._advance(table)
            self._broadcast(table, [])
        return token

    def authenticate(self, table: LiveTable, seat: int, token: str) -> bool:
        if not 0 <= seat < len(table.seats):
            return False
        expected = table.seats[seat].token_hash
        return expected is not None and secrets.compare_digest(expected, hash_token(token))

    async def restore(self, owns: Callable[[str], Awaitable[bool]] | None = None) -> None:
        """Load every live table (waiting or playing) and carry on where each stopped.

        Tables that finished within ``keep_finished`` come back too, for their players'
        last look; older ones are archived, read from their record on demand.
        A waiting table whose seats are all taken (a server stopped between a claim and the
        start, before claims and starts were one transaction) starts now; one that has waited
        too long expires. With ``owns`` (several server processes), only the tables it
        grants this process are loaded."""
        since = self.wall() - self.settings.keep_finished
        for stored in await self.store.load_live(finished_since=since):
            if owns is None or await owns(stored.row.id):
                await self._restore_one(stored)
        # Tables archived while no server ran (or by a server from before steps were dropped).
        await self.store.drop_steps(finished_before=since)
        await self.sweep()

    async def adopt(self, table_id: str) -> LiveTable | None:
        """Take over one live table from the database (its owner process has gone)."""
        stored = await self.store.load_live(finished_since=self.wall() - self.settings.keep_finished, ids=[table_id])
        return await self._restore_one(stored[0]) if stored else None

    async def _restore_one(self, stored: StoredTable) -> LiveTable | None:
        wall_now, mono_now = self.wall(), self.clock()
        row = stored.row
        if row.status == "finished" and len(stored.steps) != row.seq:
            # Archived already, its steps dropped (by a process whose clock or --keep-finished
            # differed): it is read from its record, never restored from what steps are left.
            return None
        try:
            game = table_game(row.game)
            state = game.new_state(row.config)
        except ConfigError:
            log.error("table %s: unknown game %s, left out", row.id, row.game)
            return None
        table = LiveTable(
            id=row.id,
            game=game,
            name=row.name,
            config=row.config,
            secret=row.secret,
            created_at=row.created_at,
            seats=[Seat(s.seat, s.kind, s.bot, s.name, s.token_hash, s.player_id) for s in stored.seats],
            state=state,
            status=row.status,
            updated_at=row.updated_at or row.created_at,
            client=row.creator,
            seen_at=wall_now,  # its players have not had the chance to come back to this process yet
            # How long ago it finished, carried over from wall time to this process's clock.
            finished_mono=None if row.finished_at is None else mono_now - (wall_now - row.finished_at),
        )
        # A turn under way when the server stopped goes on from when it began:
        # its start, stored as wall time, is carried over to this process's
        # monotonic clock, once, here.
        since = self.clock() - self.wall()
        for step in stored.steps:
            events = game.apply_step(table.state, step.payload)
            table.seq = step.seq
            table.events.extend((step.seq, e) for e in events)
            self._track_turn(table, step.wall + since)
            table.updated_at = max(table.updated_at, step.wall)  # a paused game's idle time goes on
        self.tables[table.id] = table
        async with table.lock:
            if table.status == "waiting" and not any(s.open for s in table.seats):
                table.status = "playing"
                await self.store.set_status(table.id, "playing", self.wall())
            try:
                await self._advance(table)
            except TableError:
                return None  # closed or taken by another process meanwhile: let go already
        return table if self.tables.get(table.id) is table else None  # (stopped at the cap)

    # ------------------------------------------------------------------
    # Moves
    # ------------------------------------------------------------------
    async def submit(
        self,
        table: LiveTable,
        seat: int,
        text: str,
        expected_seq: int | None,
        stored: Callable[[int], None] = lambda seq: None,
    ) -> int:
        """A move from the human in ``seat``; returns the step number it was stored as.

        ``stored(seq)`` is called as soon as the move is durable, before the
        table moves on (deals, bots), so the player's acknowledgement is not
        held up by what follows.
        """
        async with table.lock:
            s = table.seats[seat]
            if table.status == "waiting":
                raise TableError("not_started", "the game starts when every human seat is taken")
            if table.status == "finished":
                raise RuleError("end", "the game is over")
            refuse_if_closed(table)  # a socket still open on a table the sweep closed
            if expected_seq is not None and expected_seq != table.seq:
                raise TableError("stale", f"the table has moved on (step {table.seq}, not {expected_seq}): resync")
            to_move = table.state.current_player
            if to_move != seat:
                who = f"seat {to_move} is to move" if to_move >= 0 else "nobody is to move now"
                raise RuleError("turn", f"it is not your turn: {who}")
            step = table.game.client_step(table.state, text, self._elapsed(table), table.rng("move"), table.config)
            # Acting again takes the seat back from the bot, once the move is known to be legal: a
            # refused move changes nothing, the stand-in and its move clock included.
            if s.standin:
                s.standin, s.standin_reason = False, None
            await self._commit(table, step)
            seq = table.seq
            stored(seq)
            await self._advance(table)
            return seq

    async def take_back(self, table: LiveTable, seat: int) -> None:
        """A player back (``resume``, a hello): the seat is theirs again, from a stand-in for an
        absent player. One making a move whose clock ran out keeps the seat until that move is
        stored: giving it back would start a fresh clock for the same decision, and a player
        who answered every timeout so could hold the table for ever."""
        async with table.lock:
            if table.seats[seat].standin_reason == "away" and table.status == "playing":
                table.seats[seat].standin, table.seats[seat].standin_reason = False, None
                await self._advance(table)

    def _elapsed(self, table: LiveTable) -> float | None:
        """Seconds since the running real-time turn began, by the server's clock."""
        if table.turn_started is None:
            return None
        return max(0.0, self.clock() - table.turn_started)

    def _track_turn(self, table: LiveTable, now: float) -> None:
        running = table.game.turn_running(table.state)
        if not running:
            table.turn_started = None
        elif table.turn_started is None:
            table.turn_started = now

    async def _commit(self, table: LiveTable, step: dict[str, Any]) -> list[Event]:
        """Check ``step`` on a copy, store it durably, then make it the table's state."""
        trial = table.state.clone()
        events = table.game.apply_step(trial, step)  # raises RuleError: nothing changed
        now = self.clock()
        try:
            await self.store.append_step(table.id, table.seq + 1, step, self.wall())
        except IntegrityError:
            # That step number is taken: another process owns the table now (cluster.py).
            await self.hand_over(table)
            raise TableError("moved", "this table is served by another server process now: reconnect", 503) from None
        except TableClosed as closed:
            # Another process closed the game (abandoned it) while this one was taking it over:
            # its record is public now, so the game must not go on here either.
            if closed.status in CLOSED:
                await self._let_go_closed(table, closed.status)
                refuse_if_closed(table)
            await self.hand_over(table)
            raise TableError("moved", "this table is served by another server process now: reconnect", 503) from None
        table.seq += 1
        table.updated_at = self.wall()
        table.state = trial
        table.events.extend((table.seq, e) for e in events)
        self._track_turn(table, now)
        # Announced by _advance, once the clocks for what comes next are set.
        table.unsent.extend(events)
        return events

    async def _advance(self, table: LiveTable) -> None:
        """After a step: deal or roll what chance owes, wake whoever acts next,
        start the clocks, then tell every client."""
        try:
            await self._next(table)
        finally:
            events, table.unsent = table.unsent, []
            self._broadcast(table, events)

    async def _next(self, table: LiveTable) -> None:
        if table.status not in ("playing", "finished"):
            return  # waiting for its players, or closed before its end: nothing is owed
        for s in table.seats:
            if s.standin and s.standin_reason == "timeout" and s.timeout_seq is not None and table.seq > s.timeout_seq:
                # A move clock ran out: the bot made that one move; the seat is the player's again.
                s.standin, s.standin_reason, s.timeout_seq = False, None, None
        cap = self.settings.max_game_steps
        while table.state.is_chance_node() and table.seq < cap:  # at the cap, not even a deal
            await self._commit(table, table.game.chance_step(table.state, table.rng("chance")))
        if table.state.is_terminal():
            if table.status != "finished":
                # The record is stored with the status, in one transaction: an archived
                # table is read from it.
                await self.store.finish(table.id, table.state.record(), table.seq, self.wall(), self._results(table))
                table.status = "finished"
                table.finished_mono = self.clock()
            self._cancel_timers(table)
            return
        if table.seq >= cap:
            await self._stop(table)
            return
        seat, seq = table.state.current_player, table.seq
        # A move clock already running for this very decision keeps its deadline: coming back (a
        # reconnect, a second tab) must not give the player their time again.
        running = table.deadlines.get("move") if "move" in table.timers and table.move_for == (seat, seq) else None
        self._cancel_timers(table)
        if table.turn_started is not None:
            started = table.turn_started
            left = started + table.game.time_limit(table.state) - self.clock()
            self._timer(table, "hourglass", max(0.0, left), lambda: self._spawn(table, self._sand_out(table, started)))
        if self._bot_plays(table, seat):
            if table.bot_for != (seat, seq):
                # One bot per decision: every hello or presence change comes through here, and
                # each would otherwise start a search of its own for the same position.
                table.bot_for = (seat, seq)
                self._spawn(table, self._bot_move(table, seat, seq))
        elif (limit := table.config.get("move_seconds")) and table.seats[seat].present and not table.turn_started:
            due, given = running if running is not None else (self.clock() + limit, limit)
            self._timer(table, "move", max(0.0, due - self.clock()),
                        lambda: self._spawn(table, self._out_of_time(table, seat, seq)))  # fmt: skip
            table.deadlines["move"] = (due, given)
            table.move_for = (seat, seq)
        elif not table.seats[seat].present and not table.unattended:
            self._timer(
                table, "grace", self.settings.grace_seconds, lambda: self._spawn(table, self._stand_in(table, seat))
            )

    async def _bot_move(self, table: LiveTable, seat: int, seq: int) -> None:
        try:
            await self._bot_decides(table, seat, seq)
        finally:
            if table.bot_for == (seat, seq):
                table.bot_for = None  # a bot may be asked again for this decision (a stand-in called back, then away)

    async def _bot_decides(self, table: LiveTable, seat: int, seq: int) -> None:
        due = self.clock() + self.settings.bot_delay
        quick = is_quick(table.seats[seat].bot or self.settings.standin_bot, table.game.name)
        if not quick:
            await asyncio.sleep(self.settings.bot_delay)
        async with table.lock:
            if table.seq != seq or not self._bot_plays(table, seat) or table.state.current_player != seat \
                    or table.status != "playing":
                return
            spec = table.seats[seat].bot or self.settings.standin_bot
            # Only the seat's view goes to the worker: a bot cannot see what its seat may not.
            view = table.state.view(seat)
            rng = table.rng("bot")
        asked = self.clock()
        action = await self.bots.decide(spec, table.game.name, view, rng, self.settings.bot_seconds, table.client)
        # How long a bot thought must not tell the table what it holds.
        if quick:
            # A quick bot thinks within its delay (the heuristic samples deals only for some hands).
            await asyncio.sleep(max(0.0, due - self.clock()))
        else:
            # A search thinks for its whole budget, except when its hand leaves it one move (or it
            # failed and the fallback moved): an answer that came early would tell the table so.
            await asyncio.sleep(max(0.0, asked + reply_after(self.clock() - asked, self.settings.bot_seconds)
                                    - self.clock()))  # fmt: skip
        async with table.lock:
            if table.seq != seq or not table.controlled_by_bot(seat) or table.status != "playing":
                return  # the table moved on (or was closed) while the bot was thinking
            step = table.game.bot_step(table.state, action, self._elapsed(table), table.rng("move"), table.config)
            try:
                await self._commit(table, step)
            except RuleError:
                log.exception("table %s: bot %s chose an illegal action", table.id, table.seats[seat].bot)
                return
            await self._advance(table)

    async def _sand_out(self, table: LiveTable, started: float) -> None:
        """The hourglass of a real-time turn has run out: the server calls time."""
        async with table.lock:
            if table.turn_started != started or not table.game.turn_running(table.state) or table.status != "playing":
                return  # that turn ended in time (or the game was closed)
            await self._commit(table, table.game.timeout_step(table.state))
            await self._advance(table)

    async def _out_of_time(self, table: LiveTable, seat: int, seq: int) -> None:
        """A move clock ran out: a bot makes this one move, then the seat is the player's again."""
        async with table.lock:
            s = table.seats[seat]
            if table.seq == seq and table.state.current_player == seat and not s.standin and table.status == "playing":
                s.standin, s.standin_reason, s.timeout_seq = True, "timeout", seq
                await self._advance(table)

    async def _stand_in(self, table: LiveTable, seat: int) -> None:
        """A player has been away past the grace period: a bot plays for them until they are back."""
        async with table.lock:
            s = table.seats[seat]
            if s.kind == "human" and not s.present and not s.standin and table.status == "playing" \
                    and not table.unattended:
                s.standin, s.standin_reason = True, "away"
                await self._advance(table)

    def _bot_plays(self, table: LiveTable, seat: int) -> bool:
        """A bot moves for ``seat`` now: a bot's seat, or a stand-in's while the table is attended."""
        s = table.seats[seat]
        return table.controlled_by_bot(seat) and not (s.standin_reason == "away" and table.unattended)

    # ------------------------------------------------------------------
    # Connections
    # ------------------------------------------------------------------
    async def connect(self, table: LiveTable, conn: Outbox) -> None:
        async with table.lock:
            if conn.seat is not None:
                was = table.seats[conn.seat].present
                table.seats[conn.seat].connections += 1
                table.seen_at = self.wall()
                # Only a seat newly taken changes what the table shows (a player's second tab does
                # not): else a player could make every socket there take an update per tab opened.
                if table.status == "playing" and not was:
                    try:
                        await self._advance(table)  # a move clock may start now that the player is here
                    except BaseException:
                        # The session never joined, so no disconnect will count this socket out:
                        # left counted, the seat would look taken for good (no stand-in, never idle).
                        table.seats[conn.seat].connections -= 1
                        raise
            table.conns.add(conn)
            conn.send(self.full_update(table, conn.seat))

    async def disconnect(self, table: LiveTable, conn: Outbox) -> None:
        async with table.lock:
            table.conns.discard(conn)
            if conn.seat is not None:
                seat = table.seats[conn.seat]
                was = seat.present
                seat.connections -= 1
                table.seen_at = self.wall()
                self._left(table, seat)
                if was != seat.present:
                    # Only a seat left empty changes what the table shows. A spectator's socket,
                    # or a player's second tab, goes unannounced: otherwise anyone could make
                    # every socket at a table take an update per socket they open and close.
                    self._broadcast(table, [])

    def _left(self, table: LiveTable, seat: Seat) -> None:
        """A seat may have been left empty: its player has the grace period to come back."""
        if not seat.present and table.status == "playing" and not table.unattended:
            index = seat.index
            grace = self.settings.grace_seconds
            self._timer(table, f"away{index}", grace, lambda: self._spawn(table, self._stand_in(table, index)))

    async def remote_presence(self, table: LiveTable, node: str, seats: Mapping[int, int]) -> None:
        """Another server process says how many sockets it holds at each seat of ``table``
        (a cluster's relay; ``{}`` when it has none left, or has died)."""
        async with table.lock:
            changed = False
            for s in table.seats:
                was = s.present
                count = seats.get(s.index, 0)
                if count:
                    s.remote[node] = count
                else:
                    s.remote.pop(node, None)
                if was and not s.present:
                    self._left(table, s)
                changed |= was != s.present
            if changed:
                table.seen_at = self.wall()
            if changed and table.status == "playing":
                await self._advance(table)  # a move clock may start, or a grace period
            elif changed:
                self._broadcast(table, [])

    def full_update(self, table: LiveTable, seat: int | None) -> dict[str, Any]:
        """Everything a (re)connecting client needs: its view, the game log and the chat so far."""
        views = [e.view(seat) for _, e in table.events]
        return {**self._update(table, seat, views, full=True), "chat": list(table.chat)}

    def chat(self, table: LiveTable, seat: int, text: Any, phrase: Any) -> None:
        """A seated player's chat message, to everyone at the table: plain text (the client
        shows it as text, never as markup) of at most CHAT_LENGTH characters, or a quick phrase."""
        if not 0 <= seat < len(table.seats) or table.seats[seat].kind != "human":
            raise TableError("spectator", "only a player at the table may chat", 403)
        message: dict[str, Any] = {"type": "chat", "seat": seat, "name": table.seats[seat].name, "at": self.wall()}
        if phrase is not None:
            if phrase not in CHAT_PHRASES:
                raise TableError("bad_message", f"quick phrases are {', '.join(CHAT_PHRASES)}", 422)
            message["phrase"] = phrase
        else:
            if not isinstance(text, str):
                raise TableError("bad_message", "a chat message has a text or a phrase", 422)
            clean = "".join(c for c in text if c.isprintable()).strip()
            if not clean:
                raise TableError("bad_message", "an empty chat message", 422)
            if len(clean) > CHAT_LENGTH:
                raise TableError("too_long", f"chat messages are at most {CHAT_LENGTH} characters", 422)
            message["text"] = clean
        table.chat.append(message)
        for conn in list(table.conns):
            conn.send(message)
        if self.cluster is not None and table.watched:
            for key in set().union(*table.watched.values()):
                self.cluster.publish_update(table.id, key, message)

    def _update(self, table: LiveTable, seat: int | None, views: list[dict[str, Any]], full: bool) -> dict[str, Any]:
        names = {s.index: (s.name or f"seat {s.index}") for s in table.seats}
        return {
            "type": "update",
            "full": full,
            "table": table.summary(),
            "seat": seat,
            "seq": table.seq,
            "view": table.state.observation(seat),
            "events": views,
            "log": [table.game.narrate(v, lambda i: names.get(i, f"seat {i}")) for v in views],
            "clock": self._clock_view(table, seat),
        }

    def _clock_view(self, table: LiveTable, seat: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {}
        now = self.clock()  # read once: every figure below is as of the same instant
        if "move" in table.timers:
            deadline, seconds = table.deadlines["move"]
            # Clamped: float rounding in deadline - now must never show more than was given.
            out["move_deadline_in"] = min(seconds, max(0.0, deadline - now))
        if table.turn_started is not None and seat is not None and seat != table.game.clock_hidden_from(table.state):
            # The hourglass, for every seated player but the one racing it. Never for a
            # spectator: anyone may watch without a token, the digger too.
            limit = table.game.time_limit(table.state)
            out["hourglass_left"] = min(limit, max(0.0, table.turn_started + limit - now))
            out["hourglass_limit"] = limit
        return out

    def _broadcast(self, table: LiveTable, events: list[Event]) -> None:
        by_seat: dict[int | None, dict[str, Any]] = {}

        def update(seat: int | None) -> dict[str, Any]:
            if seat not in by_seat:
                by_seat[seat] = self._update(table, seat, [e.view(seat) for e in events], full=False)
            return by_seat[seat]

        for conn in list(table.conns):
            conn.send(update(conn.seat))
        if self.cluster is not None and table.watched:
            # Views for the sockets other processes relay: computed here, each sent on its
            # seat's channel, so a relay passes on only what its socket's seat may see.
            for key in set().union(*table.watched.values()):
                seat = None if key == "pub" else int(key)
                self.cluster.publish_update(table.id, key, update(seat))

    @staticmethod
    def _results(table: LiveTable) -> tuple[str, str, list[SeatResult], bool]:
        """Each seat's result, for the players' history and ratings, and whether the game was
        played by the standard rules (no rule option set), which alone are rated."""
        state = table.state
        params = table.game.params(table.config)
        options = getattr(params, "options", None)
        standard = options is None or options == type(options)()
        sides = [list(side) for side in table.game.definition.sides(params)]
        scores = list(state.scores())
        places = ranks(sides, scores, state.winners())
        out = []
        for i, side in enumerate(sides):
            for seat in side:
                s = table.seats[seat]
                out.append(
                    SeatResult(seat, s.player if s.kind == "human" else None, s.bot if s.kind == "bot" else None, i,
                               places[i], sum(scores[x] for x in side))
                )
        return table.game.name, mode_of(table.config), sorted(out, key=lambda r: r.seat), standard

    def announce(self, table: LiveTable) -> None:
        """Tell the table's sockets that its summary changed (a rematch was asked for)."""
        self._broadcast(table, [])

    async def hand_over(self, table: LiveTable) -> None:
        """Stop serving a table another process has taken over; its clients reconnect there."""
        self.tables.pop(table.id, None)
        self._cancel_timers(table)
        for handle in table.timers.values():
            handle.cancel()
        for conn in list(table.conns):
            conn.send({"type": "error", "code": "moved", "rule": None, "message": "reconnecting to the table"})
            conn.close_soon(1012)  # 1012: service restart, the client reconnects
        if self.cluster is not None:
            await self.cluster.lost(table.id)

    # ------------------------------------------------------------------
    # Timers and tasks
    # ------------------------------------------------------------------
    def _timer(self, table: LiveTable, name: str, delay: float, callback: Callable[[], None]) -> None:
        old = table.timers.pop(name, None)
        if old is not None:
            old.cancel()
        table.timers[name] = asyncio.get_running_loop().call_later(delay, callback)
        table.deadlines[name] = (self.clock() + delay, delay)

    def _cancel_timers(self, table: LiveTable) -> None:
        for name in [n for n in table.timers if not n.startswith("away")]:
            table.timers.pop(name).cancel()
            table.deadlines.pop(name, None)

    def _spawn(self, table: LiveTable, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        table.tasks.add(task)
        task.add_done_callback(table.tasks.discard)

    # ------------------------------------------------------------------
    # Lifecycle: expiry and archiving
    # ------------------------------------------------------------------
    async def sweep(self) -> None:
        """Expire tables that waited too long for players, close games nobody has come back to,
        and archive finished ones after a while."""
        now_wall, now = self.wall(), self.clock()
        stale = [
            t.id
            for t in self.tables.values()
            if t.status == "waiting" and now_wall - t.updated_at >= self.settings.waiting_expiry
        ]
        left = [t.id for t in self.tables.values() if self._abandoned(t, now_wall)]
        for table_id in await self.store.set_closed(stale, "waiting", "expired", now_wall):
            if (table := self.tables.pop(table_id, None)) is not None:  # (or handed over meanwhile)
                async with table.lock:
                    self._close(table, "expired")
        for table_id in left:
            table = self.tables.get(table_id)
            if table is None:
                continue
            async with table.lock:
                # Looked at again under the lock: a player may have come back, or moved, meanwhile,
                # or (several processes) the table may be another's now. Closing it publishes its
                # record, every card in it: never for a table that can still be played.
                if self.tables.get(table_id) is not table or not self._abandoned(table, self.wall()):
                    continue
                if self.cluster is not None and not await self.cluster.still_owns(table_id):
                    continue
                if await self.store.abandon(table_id, table.state.record(), table.seq, self.wall()):
                    await self._let_go_closed(table, "abandoned")
                else:
                    await self._not_closed(table)
        archived = [
            t.id
            for t in self.tables.values()
            if t.finished_mono is not None and now - t.finished_mono >= self.settings.keep_finished
        ]
        for table_id in archived:
            del self.tables[table_id]  # archived: its record is in the database
        await self.store.drop_steps(archived)
        await self._drop_unused_profiles(now_wall, now)

    async def _drop_unused_profiles(self, now_wall: float, now: float) -> None:
        """Delete the profiles that never took a seat in ``unused_profile_expiry``: looked for once
        an hour (or once an expiry, if that is shorter), not at every sweep. The hour is the
        monotonic clock's, which a change of the system time cannot stretch; the profiles' age is
        the wall clock's, as their making was stored."""
        expiry = self.settings.unused_profile_expiry
        if expiry <= 0 or now - self._profiles_swept < min(3600.0, expiry):
            return
        dropped = await self.store.drop_unused_players(now_wall - expiry)
        self._profiles_swept = now  # after the delete: one that failed is tried at the next sweep
        if dropped:
            log.info("deleted %d player profiles that never took a seat", dropped)

    async def _stop(self, table: LiveTable) -> None:
        """Close a game that reached ``max_game_steps`` without ending (under its lock): unrated,
        without a result, its record kept in place of its steps, as an abandoned game's is."""
        if await self.store.abandon(table.id, table.state.record(), table.seq, self.wall(), status="stopped"):
            await self._let_go_closed(table, "stopped")
        else:
            await self._not_closed(table)

    async def _not_closed(self, table: LiveTable) -> None:
        """An abandon or a stop of this process found the game no longer its own to close: either
        another process closed it first (then it is closed here too), or another stored a step
        past this one's (it has the table now)."""
        stored = await self.store.load_table(table.id)
        if stored is not None and stored.row.status in CLOSED:
            await self._let_go_closed(table, stored.row.status)
        else:
            await self.hand_over(table)

    async def _let_go_closed(self, table: LiveTable, status: str) -> None:
        """The game is closed in the database (by this process or another): close it here, tell
        its sockets, and let the table go (and, in a cluster, tell the other processes)."""
        self.tables.pop(table.id, None)
        self._close(table, status)
        if self.cluster is not None:
            await self.cluster.closed(table.id, status)

    def _close(self, table: LiveTable, status: str) -> None:
        """A table closed by the sweep (under its lock): its clocks stop, and its sockets are told."""
        table.status = status
        self._cancel_timers(table)
        self._broadcast(table, [])

    def _abandoned(self, table: LiveTable, now_wall: float) -> bool:
        """A game in play that nobody has been at, and nobody has moved in, for ``abandoned_expiry``."""
        idle = now_wall - max(table.updated_at, table.seen_at)
        return table.status == "playing" and table.unattended and idle >= self.settings.abandoned_expiry

    async def sweeper(self) -> None:
        """Run :meth:`sweep` for as long as the server runs."""
        while True:
            await asyncio.sleep(self.settings.sweep_every)
            try:
                await self.sweep()
            except Exception:  # the database was unreachable: try again next time
                log.exception("sweeping tables failed")

    async def shutdown(self) -> None:
        for table in self.tables.values():
            for handle in table.timers.values():
                handle.cancel()
            for task in list(table.tasks):
                task.cancel()
        if self.cluster is not None:
            await self.cluster.close()
        await asyncio.to_thread(self.bots.close)
