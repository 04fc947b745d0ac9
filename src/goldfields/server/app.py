"""The FastAPI application: HTTP API, WebSocket, and the browser client's files.

WebSocket protocol (JSON text messages), client to server:

* ``{"type": "hello", "seat": 2, "token": "..."}`` sit at a seat (token from
  creating or claiming it), or ``{"type": "hello"}`` to watch;
* ``{"type": "move", "move": "play G m1", "seq": 41}`` a move in the notation;
  ``seq`` (optional) is the step the client last saw, so a move meant for an
  older position is refused instead of misapplied;
* ``{"type": "resume"}`` take the seat back from a stand-in bot;
* ``{"type": "chat", "text": "..."}`` or ``{"phrase": "gg"}`` table chat (players only);
* ``{"type": "ping"}``.

Server to client: ``update`` (the seat's own view, new events, their log lines,
the table summary and clocks; ``full`` on connect), ``ack`` (a move is stored),
``error`` (``code``, ``rule`` where a game rule said no, ``message``), ``chat``, ``pong``.
A bad message gets an error and changes nothing; the connection stays open.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib
import json
import logging
import re
import secrets
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import fields, is_dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar, cast
from urllib.parse import urlencode

from fastapi import Depends, FastAPI, HTTPException, Query, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import IntegrityError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.routing import Match

from ..bots.registry import available_bots
from ..core import registry
from ..core.definition import GameDefinition, RecordError, mode_of
from ..core.game import RuleError
from . import replays
from .access import LocalAccess, RelayAccess, TableAccess, moving_error
from .analysis import PER_CLIENT, Analyses
from .cluster import Cluster, Moving
from .failures import Failures, failures_log, log_failure
from .games import ConfigError, table_game
from .limits import (
    ADDRESS_CHAT_PLAYERS,
    NETWORK_FACTOR,
    LineFull,
    Quiet,
    QuietLog,
    RateLimits,
    Sockets,
    WorkLine,
    address_key,
    json_depth,
    network_key,
    plain_text,
    times,
)
from .models import PlayerRow
from .responses import Encoded, Kept
from .schemas import (
    ClaimSeat,
    Created,
    CreateTable,
    GameInfo,
    GameSummary,
    NewPlayer,
    PlayerCreated,
    Problem,
    Rematch,
    SeatToken,
    TableSummary,
)
from .schemas import Replay as ReplayBody
from .security import BodyLimit, SecurityHeaders, origin_allowed
from .store import Store, StoredTable
from .tables import LiveTable, Settings, TableError, TableManager, hash_token, rematch_id, rematch_token

log = logging.getLogger("goldfields.server")

MAX_QUEUE = 500  # updates waiting for a slow client before it is dropped
REPLAY_CACHE = 16  # finished games' replays kept computed
REPLAY_CACHE_BYTES = 64 * 2**20
"""Bytes of encoded replays kept, at most: five or six replays at the step cap, or many short ones."""
REPLAYS_AT_ONCE = 1
"""Replays (and summaries, views of stored games) computed at once. A game at the step cap
takes seconds of CPU to replay, in a thread that shares the GIL with the event loop: 6 at
once made live moves' acknowledgements wait 500 ms and more; 2 at once, 130 ms (median) and
up to 400 ms; 1, 30 ms and up to 80 ms (11 ms with none), at Python's default switch interval,
5 ms (see :data:`SWITCH_INTERVAL`)."""
SWITCH_INTERVAL = 0.001
"""The server process's GIL switch interval (``sys.setswitchinterval``; Python's default is
0.005 s). A replay computed on its thread holds the GIL for up to an interval at a time, and the
event loop answering every table waits that long each time it asks for it back: with a replay
under way, a move's acknowledgement took a median 46 ms at 5 ms and 22 ms at 1 ms, against
10 ms with none (benchmarks/bench_replay_ack.py; docs/server.md)."""
REPLAYS_WAITING = 8
"""Replays that may wait their turn behind those computed; one more is refused with 503."""
T = TypeVar("T")
# A player's key as a bearer token (``Authorization: Bearer <key>``), documented in the OpenAPI
# schema; a missing one is answered by the handlers in the API's own words.
player_bearer = HTTPBearer(auto_error=False, description="Your player profile's secret key.")

LobbyStatus = Literal["live", "open", "playing", "finished"]
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # secrets.token_urlsafe ids


_serving = 0  # apps of this process serving now
_own_interval = 0.0  # the process's switch interval before the first of them started


@contextlib.contextmanager
def _switching_often() -> Iterator[None]:
    """:data:`SWITCH_INTERVAL` while any app of this process serves; the process's own interval
    back once the last one stops (apps whose lifespans overlap, as tests may run them)."""
    global _serving, _own_interval
    if _serving == 0:
        _own_interval = sys.getswitchinterval()
        sys.setswitchinterval(SWITCH_INTERVAL)
    _serving += 1
    try:
        yield
    finally:
        _serving -= 1
        if _serving == 0:
            sys.setswitchinterval(_own_interval)


def create_app(database_url: str = "sqlite:///goldfields.db", settings: Settings | None = None) -> FastAPI:
    live = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Only processes of a cluster can race to abandon a table and store its next step.
        store = Store(database_url, synchronous="FULL" if live.durability == "full" else "NORMAL",
                      fenced=live.redis is not None)  # fmt: skip
        manager = TableManager(store, live)
        if live.redis is not None:
            # One of several processes: it restores only the tables it gets the lock of.
            manager.cluster = Cluster(manager, live.redis, database_url)
            await manager.cluster.start()
        else:
            await manager.restore()
        sweeper = asyncio.create_task(manager.sweeper())
        # Many live tables mean a large, long-lived heap: full cyclic garbage
        # collections over it show up as latency spikes. Restored tables are
        # moved out of the collector's sight, and collections run less often.
        gc.collect()
        gc.freeze()
        gc.set_threshold(20_000, 50, 100)
        app.state.manager = manager
        app.state.analyses = Analyses(manager.bots, live.analysis_seconds)
        app.state.replaying = WorkLine(REPLAYS_AT_ONCE, REPLAYS_WAITING)
        # uvicorn writes a warning for each malformed request, so a client sending garbage could
        # fill the log: each kind of line at most once a second (limits.QuietLog).
        uvicorn_log, quiet_log = logging.getLogger("uvicorn.error"), QuietLog()
        uvicorn_log.addFilter(quiet_log)
        try:
            with _switching_often():
                yield
        finally:
            uvicorn_log.removeFilter(quiet_log)
            sweeper.cancel()
            await app.state.analyses.close()
            app.state.replaying.close()
            await manager.shutdown()
            store.close()

    app = FastAPI(
        title="goldfields",
        summary=f"Play {_titles()} online: tables, seats, bots and live play.",
        version="0.1.0",
        lifespan=lifespan,
        # FastAPI's /docs and /redoc pages load their scripts from a CDN, which the server's own
        # Content-Security-Policy blocks (they came up blank); allowing them would let a third
        # party's script run on this origin, beside the players' keys. The schema stays.
        docs_url=None,
        redoc_url=None,
        responses={
            400: {"model": Problem},
            401: {"model": Problem},
            403: {"model": Problem},
            404: {"model": Problem},
            410: {"model": Problem},
            409: {"model": Problem},
            413: {"model": Problem},
            422: {"model": Problem},
            429: {"model": Problem},
            503: {"model": Problem},
        },
    )
    # Outermost last: the host check and the body limit run before anything reads the request.
    app.state.failures = failures_log()
    app.add_middleware(Failures, quiet=app.state.failures)
    app.add_middleware(SecurityHeaders)
    # A replay is a few hundred kB of JSON that compresses tenfold.
    app.add_middleware(GZipMiddleware, minimum_size=4096)
    app.add_middleware(BodyLimit, max_bytes=live.max_body, wider={"/api/replay": live.max_record})
    if "*" not in live.allowed_hosts:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(live.allowed_hosts))
    app.state.settings = live
    app.state.rates = RateLimits(
        {
            "table": live.create_rate,
            "table/48": times(live.create_rate, NETWORK_FACTOR),  # an IPv6 network's, beside its /64s'
            "claim": live.claim_rate,
            "move": live.move_rate,
            "message": live.message_rate,
            "join": live.join_rate,
            "chat": live.chat_rate,
            "chat_address": live.chat_address_rate or times(live.chat_rate, ADDRESS_CHAT_PLAYERS),
            "analysis": live.analysis_rate,
            "replay": live.replay_rate,
        },
        enabled=live.rate_limits,
        storage_url=live.redis,  # several processes count in Redis, together
    )
    app.state.sockets = Sockets(live.max_sockets_per_client, live.max_sockets)
    app.state.quiet = Quiet()

    async def heavy(request: Request, work: Callable[[], T]) -> T:
        """Costly work on records (a replay, a summary, a stored game's position) on the replay
        thread, :data:`REPLAYS_AT_ONCE` at a time with :data:`REPLAYS_WAITING` more in line:
        past that, ``503 too_many_replays``."""
        line: WorkLine = request.app.state.replaying
        try:
            return await line.run(work, client_of(request))
        except LineFull as full:
            raise TableError("too_many_replays", f"the server is replaying as many games as it takes ({full}); "
                             "try again in a few seconds", 503, {"retry_after": 5}) from None  # fmt: skip

    def limit(request: Request, kind: str) -> None:
        refused = request.app.state.rates.check(kind, client_of(request))
        if refused is not None:
            raise TableError(refused.code, refused.message, 429, {"retry_after": refused.retry_after})

    def manager(request: Request | WebSocket) -> TableManager:
        return request.app.state.manager

    def find(request: Request, table_id: str) -> LiveTable:
        table = manager(request).tables.get(table_id)
        if table is None:
            raise HTTPException(404, detail={"code": "no_such_table", "message": f"no live table {_named(table_id)}"})
        return table

    async def owner(request: Request, found: StoredTable, op: str, **payload: Any) -> dict[str, Any] | None:
        """Ask the process that owns a live table (several processes); None when this is the
        only process or the table is not live."""
        cluster = manager(request).cluster
        if cluster is None or found.row.status not in ("waiting", "playing"):
            return None
        try:
            return await cluster.ask(found.row.id, op, **payload)
        except Moving:
            raise moving_error() from None

    async def stored(request: Request, table_id: str) -> StoredTable:
        """A table that is no longer live (finished and archived, or expired), from the database."""
        # Checked before the database sees it: PostgreSQL refuses a NUL byte with an error, not a miss.
        found = await manager(request).store.load_table(table_id) if TABLE_ID.fullmatch(table_id) else None
        if found is None:
            raise HTTPException(404, detail={"code": "no_such_table", "message": f"no table {_named(table_id)}"})
        return found

    @app.exception_handler(TableError)
    async def table_error(_request: Request, err: TableError) -> JSONResponse:
        headers = {"Retry-After": str(err.details["retry_after"])} if "retry_after" in err.details else None
        body = {"code": err.code, "message": str(err), **err.details}
        return JSONResponse(body, status_code=err.status, headers=headers)

    @app.exception_handler(ConfigError)
    async def config_error(_request: Request, err: ConfigError) -> JSONResponse:
        return JSONResponse({"code": "bad_config", "message": str(err)}, status_code=422)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, err: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ()) if p != 'body') or 'body'}: {e.get('msg')}"
            for e in err.errors()[:5]
        )
        return JSONResponse({"code": "bad_request", "message": problems}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, err: StarletteHTTPException) -> JSONResponse:
        detail = err.detail if isinstance(err.detail, dict) else {"code": "http", "message": str(err.detail)}
        headers = dict(err.headers or {})
        if err.status_code == 405:
            # Starlette names only the first matching route's method; list them all.
            methods: set[str] = set()
            for route in request.app.router.routes:
                match, _ = route.matches({**request.scope, "method": "__none__"})
                if match is Match.PARTIAL and isinstance(route, APIRoute) and route.include_in_schema:
                    methods |= route.methods or set()
            headers["Allow"] = ", ".join(sorted(methods))
        return JSONResponse(detail, status_code=err.status_code, headers=headers)

    @app.get("/api/health")
    async def health(request: Request) -> dict[str, Any]:
        # bot_fallbacks: moves a fallback made for a bot that failed or overran (see botpool).
        return {"status": "ok", "bot_fallbacks": manager(request).bots.failures}

    @app.get("/api/games", response_model=list[GameInfo])
    async def games() -> list[dict[str, Any]]:
        out = []
        for game in registry.games():
            defaults = game.params()
            options = getattr(defaults, "options", None)
            out.append(
                {
                    "name": game.name,
                    "title": game.title,
                    "summary": game.summary,
                    "min_players": game.min_players,
                    "max_players": game.max_players,
                    "timed": game.needs_time,
                    "params": defaults.to_json(),
                    "options": _option_defaults(options),
                    "option_limits": _option_limits(options),
                    "idle_options": table_game(game.name).idle_options(),
                    "bots": available_bots(game.name),
                    "levels": dict(game.levels),
                    "table_levels": {kind: game.kind_levels(kind) for kind in game.table_levels},
                    "tutorial": game.tutorial is not None,
                    "analysis": game.analyst is not None,
                }
            )
        return out

    @app.get("/api/tables", response_model=list[TableSummary])
    async def lobby(
        request: Request,
        response: Response,
        game: Annotated[
            str | None, Query(max_length=40, pattern=r"^[a-z][a-z0-9_-]*$", description="Only this game's tables.")
        ] = None,
        status: Annotated[
            LobbyStatus,
            Query(description="live: open and playing; open: waiting with a seat free; playing; finished."),
        ] = "live",
        limit: Annotated[int, Query(ge=1, le=200, description="Tables per page.")] = 50,
        before: Annotated[
            str | None, Query(max_length=80, description="The cursor of the next page (the Link header gives it).")
        ] = None,
    ) -> list[dict[str, Any]]:
        """The lobby: newest first, a page at a time. The next page's address is in the Link header."""
        cursor = _read_cursor(before)
        wanted = {"live": ("waiting", "playing"), "open": ("waiting",), "playing": ("playing",)}.get(status)
        mgr = manager(request)
        if wanted is None or mgr.cluster is not None:
            # Finished tables are in the database only; with several processes, so is the one
            # list of every live table.
            rows = await mgr.store.tables_by_status(wanted or ("finished",), game, limit + 1, cursor, status == "open")
            page = [_stored_summary(t) for t in rows]
            if status == "open":  # a seat kept for a rematch's player is not free to strangers
                page = [t for t in page if any(s["open"] and not s["reserved"] for s in t["seats"])]
        else:
            live = [
                t
                for t in mgr.tables.values()
                if t.status in wanted
                and (game is None or t.game.name == game)
                and (status != "open" or any(s.open and not t.kept(s) for s in t.seats))
                and (cursor is None or (t.created_at, t.id) < cursor)
            ]
            live.sort(key=lambda t: (t.created_at, t.id), reverse=True)
            page = [t.summary() for t in live[: limit + 1]]
        if len(page) > limit:
            page = page[:limit]
            last = page[-1]
            params = {"status": status, "limit": limit, "before": f"{last['created_at']!r}~{last['id']}"}
            if game is not None:
                params["game"] = game
            response.headers["Link"] = f'</api/tables?{urlencode(params)}>; rel="next"'
        return page

    @app.post("/api/tables", response_model=Created, status_code=201)
    async def create(request: Request, body: CreateTable) -> dict[str, Any]:
        limit(request, "table")
        player = await player_of(request, body.player_key)
        name = player.name if player is not None else body.player_name
        table, token = await manager(request).create(
            body.model_dump(), body.claim, name, player_id=player.id if player is not None else None,
            client=client_of(request),
        )
        you = None if token is None or body.claim is None else _seat_token(table.id, body.claim, token)
        return {"table": table.summary(), "you": you}

    @app.get("/api/tables/{table_id}", response_model=TableSummary)
    async def table_summary(request: Request, table_id: str) -> dict[str, Any]:
        table = manager(request).tables.get(table_id)
        if table is not None:
            return table.summary()
        found = await stored(request, table_id)
        if (answer := await owner(request, found, "summary")) is not None:
            return dict(answer["summary"])
        return _stored_summary(found)

    @app.post("/api/tables/{table_id}/seats/{seat}/claim", response_model=SeatToken)
    async def claim(request: Request, table_id: str, seat: int, body: ClaimSeat) -> dict[str, Any]:
        limit(request, "claim")
        player = await player_of(request, body.player_key)
        name, player_id = (player.name, player.id) if player is not None else (body.name, None)
        table = manager(request).tables.get(table_id)
        if table is None:
            gone = await stored(request, table_id)
            answer = await owner(request, gone, "claim", seat=seat, name=name, player_id=player_id)
            if answer is not None:
                return _seat_token(table_id, seat, answer["token"])
            raise TableError("not_open", f"table {table_id!r} is {gone.row.status}: its seats are closed", 410)
        token = await manager(request).claim(table, seat, name, player_id=player_id)
        return _seat_token(table_id, seat, token)

    @app.get("/api/tables/{table_id}/view")
    async def public_view(request: Request, table_id: str) -> dict[str, Any]:
        """What a spectator sees: the table with every hand hidden (and no running hourglass)."""
        table = manager(request).tables.get(table_id)
        if table is not None:
            return table.state.observation(None)
        found = await stored(request, table_id)
        if (answer := await owner(request, found, "view")) is not None:
            return dict(answer["view"])
        if found.row.record is None:
            raise TableError("not_live", f"table {table_id!r} is {found.row.status}: there is nothing to view", 410)
        definition, stored_record = registry.get(found.row.game), found.row.record
        # Kept with the replays: reading the record is a replay of it, off the event loop, and
        # counted as one (else cycling through long stored games would replay them for free).
        view = lambda: definition.restore(stored_record)[0].observation(None)  # noqa: E731
        return await computed(request, ("view", table_id), view, charge=True)


    async def finished_game(
        request: Request, table_id: str
    ) -> tuple[GameDefinition[Any], dict[str, Any], dict[int, str]]:
        """A finished (or abandoned) game's definition, record and seat names; 409 before the
        game is over (a replay shows every hand)."""
        table = manager(request).tables.get(table_id)
        if table is not None:
            if table.status != "finished":
                raise TableError("not_finished", "the game is not over: its record, replay and summary come at the end")
            return table.game.definition, table.state.record(), {s.index: s.name for s in table.seats}
        found = await stored(request, table_id)
        if found.row.record is None:
            raise TableError("not_finished", f"table {table_id!r} is {found.row.status}: it has no record")
        return registry.get(found.row.game), found.row.record, {s.seat: s.name for s in found.seats}

    @app.get("/api/tables/{table_id}/record")
    async def record(request: Request, table_id: str) -> dict[str, Any]:
        """The game record, once the game is over or closed as abandoned (it holds every card, so not before)."""
        _definition, game_record, _names = await finished_game(request, table_id)
        return game_record

    async def computed(
        request: Request, key: tuple[Any, ...], work: Callable[[], T], charge: bool = False
    ) -> T:
        """A finished game never changes: its replay is computed once (in a thread, off the
        event loop, as :func:`heavy` work) and kept for the next viewer. Only computing it
        counts against the ``--replay-rate`` of the client, where ``charge`` says so."""
        if key in replay_cache:
            return cast(T, replay_cache.get(key))
        if (running := computing.get(key)) is None:
            # One computation a key, whoever asks meanwhile waits for it (the players of a game
            # that has just ended all ask for its summary at once); shielded, so that one
            # client going away does not cancel it for the others.
            if charge:
                limit(request, "replay")
            running = computing[key] = asyncio.ensure_future(heavy(request, work))
            running.add_done_callback(lambda done: keep(key, done))
        return cast(T, await asyncio.shield(running))

    def keep(key: tuple[Any, ...], done: asyncio.Future[Any]) -> None:
        del computing[key]
        if not done.cancelled() and done.exception() is None:
            replay_cache.put(key, done.result())

    computing: dict[tuple[Any, ...], asyncio.Future[Any]] = {}
    replay_cache = Kept(REPLAY_CACHE, REPLAY_CACHE_BYTES)
    too_long: dict[str, str] = {}  # finished tables whose replay was refused as too long, and why

    @app.get("/api/tables/{table_id}/replay")
    async def replay(
        request: Request,
        table_id: str,
        seat: Annotated[str, Query(pattern=r"^(all|public|[0-9]{1,2})$", description="A seat, all or public.")] = "all",
    ) -> Response:
        """Every position of a finished game through a seat's eyes (``all``: every hand open;
        ``public``: a spectator's), each with its events and log lines, and the game's summary."""
        definition, record, names = await finished_game(request, table_id)
        which = _replay_seat(seat)
        if isinstance(which, int) and which >= int(record.get("players", 0)):
            raise TableError("no_such_seat", f"this game has no seat {which}", 404)
        if table_id in too_long:  # a finished game never changes: refused once, refused at once
            raise TableError("too_long", too_long[table_id], 413)

        def work() -> Encoded:
            frames = replays.frames(definition, record, which, names, live.max_replay_steps)
            return Encoded.of({"table": table_id, "seat": which, **frames})

        try:
            # Kept encoded: a replay is up to megabytes of JSON, which must not be encoded (or
            # compressed) again on the event loop for each viewer.
            encoded = await computed(request, ("frames", table_id, which), work, charge=True)
        except replays.TooLong as err:
            too_long[table_id] = str(err)
            raise TableError("too_long", str(err), 413) from None
        return encoded.response(request)

    @app.get("/api/tables/{table_id}/summary", response_model=GameSummary)
    async def game_summary(request: Request, table_id: str) -> dict[str, Any]:
        """A finished game in figures: who won, each hand's points, the scores as they went."""
        definition, record, names = await finished_game(request, table_id)
        work = lambda: replays.summary(definition, record, names)  # noqa: E731
        return await computed(request, ("summary", table_id), work, charge=True)

    @app.get(
        "/api/tables/{table_id}/analysis",
        responses={202: {"description": "Still judging: the progress, without the decisions."}},
    )
    async def analysis(
        request: Request,
        table_id: str,
        seat: Annotated[int, Query(ge=0, le=15, description="The seat whose decisions are judged.")],
    ) -> JSONResponse:
        """A seat's decisions in a finished game, each judged by the game's analyst from that
        seat's view as it was: the analyst's choice, the estimated chance of winning of the
        move played and of that choice. The first ask starts the work: ``202`` with the
        progress (``judged`` of ``total``) until it is done, then ``200`` with ``decisions``."""
        definition, record, _names = await finished_game(request, table_id)
        if definition.analyst is None:
            raise TableError("no_analysis", f"{definition.title} offers no analysis", 404)
        if seat >= int(record.get("players", 0)):
            raise TableError("no_such_seat", f"this game has no seat {seat}", 404)
        analyses = request.app.state.analyses
        job = analyses.get(table_id, seat)
        if job is None:  # only starting one costs: the browser asks every second until it is done
            if analyses.busy():  # refused before it is counted against the client's rate
                raise TableError("too_many_analyses", "the server is judging as many games as it takes; "
                                 "try again soon", 503, {"retry_after": 30})  # fmt: skip
            # One address's analyses are few at a time too, so that it cannot hold every place.
            client = client_of(request) if live.rate_limits else None
            if analyses.busy_for(client):
                raise TableError("analyses_under_way", f"you have {PER_CLIENT} analyses under way, as many as one "
                                 "address may: wait for one to finish", 429, {"retry_after": 30})  # fmt: skip
            limit(request, "analysis")
            job = analyses.start(table_id, seat, definition, record, client)
        report = job.report()
        return JSONResponse(report, status_code=200 if report["status"] != "running" else 202)

    @app.get("/api/games/{game}/tutorial")
    async def tutorial(request: Request, game: str) -> dict[str, Any]:
        """A game's guided first game: a scripted hand, position by position through the
        player's eyes, and the steps the page asks for (Digging's: digging/tutorial.py)."""
        try:
            definition = registry.get(game)
        except registry.UnknownGame:
            definition = None
        if definition is None or definition.tutorial is None:
            raise HTTPException(404, detail={"code": "no_tutorial", "message": f"no guided game for {game!r}"})
        script = importlib.import_module(definition.tutorial)
        player = script.PLAYER
        work = lambda: replays.frames(definition, script.record(), player, {})  # noqa: E731
        data = await computed(request, ("tutorial", game), work)
        steps, names = script.steps(), script.NAMES
        return {"game": game, "frames": data["frames"], "steps": steps, "names": names, "player": player}

    @app.post("/api/replay")
    async def replay_record(request: Request, body: ReplayBody) -> Response:
        """A game record sent by the browser (a file the player opened), replayed as
        GET /api/tables/{id}/replay replays a stored game."""
        limit(request, "replay")
        record = body.record
        try:
            definition = registry.get(str(record.get("game")))
        except registry.UnknownGame:
            game = _named(record.get("game"))
            unknown = f"not a record of a game this server knows: {game}"
            raise TableError("bad_record", unknown, 422, {"game": game}) from None
        which = _replay_seat(str(body.seat) if body.seat is not None else "public")

        def work() -> Encoded:
            frames = replays.frames(definition, record, which, {}, live.max_replay_steps)
            return Encoded.of({"table": None, "seat": which, **frames})

        try:
            encoded = await heavy(request, work)  # encoded there too: it may be megabytes
        except replays.NoSuchSeat as err:
            raise TableError("no_such_seat", str(err), 422) from None
        except replays.TooLong as err:
            raise TableError("too_long", str(err), 413) from None
        except (RecordError, ValueError) as err:
            # The reason apart, so that a page can say the sentence in its own language around it.
            why = str(err)
            raise TableError("bad_record", f"this record cannot be replayed: {why}", 422, {"reason": why}) from None
        return encoded.response(request)

    @app.post("/api/tables/{table_id}/rematch", response_model=SeatToken)
    async def rematch(request: Request, table_id: str, body: Rematch) -> dict[str, Any]:
        """Play again: the same game, seats, bots and options. The first player to ask creates
        the table, in their old seat; the others' seats are kept for them, and each joins
        with their old token. Bots sit down at once."""
        limit(request, "claim")
        m = manager(request)
        old = m.tables.get(table_id)
        if old is not None:
            status, secret, config, title, game_name = old.status, old.secret, old.config, old.name, old.game.name
            seats = [(s.index, s.kind, s.bot, s.name, s.token_hash, s.player) for s in old.seats]
        else:
            found = await stored(request, table_id)
            row = found.row
            status, secret, config, title, game_name = row.status, row.secret, row.config, row.name, row.game
            seats = [(s.seat, s.kind, s.bot, s.name, s.token_hash, s.player_id) for s in found.seats]
        if status != "finished":
            raise TableError("not_finished", "a rematch can be asked for once the game is over")
        if not 0 <= body.seat < len(seats) or seats[body.seat][1] != "human":
            raise TableError("no_such_seat", f"seat {body.seat} is not a player's seat at this table", 404)
        held = seats[body.seat][4]
        if held is None or not secrets.compare_digest(held, hash_token(body.token)):
            raise TableError("auth", f"that is not seat {body.seat}'s token at this table", 403)
        name, player_id = seats[body.seat][3], seats[body.seat][5]
        new_id = rematch_id(table_id, secret)
        # The same for every request of this seat's player: asking again (a lost response, a
        # second click) answers with the seat and token given before.
        mine = rematch_token(secret, table_id, body.seat, body.token)
        async with rematching:  # two asking at once: the second finds the first's table made
            made = await make_rematch(request, m, old, table_id, body.seat, new_id, mine, name, player_id,
                                      like=(game_name, config, title, seats))  # fmt: skip
        if made is not None:
            return made
        new = m.tables.get(new_id)
        if new is None:
            found_new = await stored(request, new_id)
            answer = await owner(
                request, found_new, "claim", seat=body.seat, name=name, rematch=True, player_id=player_id, token=mine
            )
            if answer is not None:
                return _seat_token(new_id, body.seat, answer["token"])
            raise TableError("not_open", f"the rematch is {found_new.row.status}: its seats are closed", 410)
        token = await m.claim(new, body.seat, name, rematch=True, player_id=player_id, token=mine)
        if old is not None and old.rematch is None:
            old.rematch = {"table": new_id, "by": body.seat}
            m.announce(old)
        return _seat_token(new_id, body.seat, token)

    # Creating a rematch is one short transaction; taken in turn within a process, so that a
    # second request finds the first's table (not a half-made one) and claims its seat in it.
    rematching = asyncio.Lock()

    async def make_rematch(
        request: Request, m: TableManager, old: LiveTable | None, table_id: str, seat: int, new_id: str,
        token: str, name: str, player_id: str | None, like: tuple[str, dict[str, Any], str, list[Any]],
    ) -> dict[str, Any] | None:
        """The rematch table, created with ``seat`` taken by its player: the seat's token; None
        when it exists already (then the player claims their seat in it)."""
        game_name, config, title, seats = like
        if new_id not in m.tables and await m.store.load_table(new_id) is None:
            humans = [i for i, kind, *_ in seats if kind == "human"]
            ask = {
                **{k: v for k, v in table_game(game_name).fresh_config(config).items()
                   if k not in ("rematch_of", "reserved")},
                "game": game_name,
                "name": title,
                "seats": [{"kind": kind, "bot": bot, "name": seat_name} if kind == "bot" else {"kind": "human"}
                          for _, kind, bot, seat_name, *_ in seats],
            }
            extra = {"rematch_of": table_id, "reserved": [i for i in humans if i != seat]}
            try:
                _table, given = await m.create(
                    ask, seat, name, player_id=player_id, table_id=new_id, extra=extra, client=client_of(request),
                    token=token,
                )  # fmt: skip
            except IntegrityError:
                return None  # another process made it at the same instant: join it
            if old is not None:
                old.rematch = {"table": new_id, "by": seat}
                m.announce(old)
            assert given is not None
            return _seat_token(new_id, seat, given)
        return None

    async def player_of(request: Request, key: str | None) -> PlayerRow | None:
        """The profile a secret key stands for; 401 for a key no one has."""
        if not key:
            return None
        player = await manager(request).store.player_by_key(hash_token(key))
        if player is None:
            raise TableError("bad_player_key", "no player has this key: check the recovery link", 401)
        return player


    @app.post("/api/players", response_model=PlayerCreated, status_code=201)
    async def new_player(request: Request, body: NewPlayer) -> dict[str, Any]:
        """A player profile: a name and a secret key, no password. Send the key as
        ``player_key`` when creating or claiming a seat, and the games count for you."""
        limit(request, "table")
        key = secrets.token_urlsafe(24)
        player_id = secrets.token_urlsafe(9)
        await manager(request).store.create_player(player_id, body.name.strip(), hash_token(key), time.time())
        return {"id": player_id, "name": body.name.strip(), "key": key}

    @app.get("/api/players/me")
    async def my_profile(
        request: Request, key: Annotated[HTTPAuthorizationCredentials | None, Depends(player_bearer)] = None
    ) -> dict[str, Any]:
        """Your own profile, from your key (``Authorization: Bearer <key>``): how a recovery
        link signs a new device in."""
        player = await player_of(request, key.credentials if key is not None else None)
        if player is None:
            raise TableError("bad_player_key", "send your key as Authorization: Bearer <key>", 401)
        profile = await manager(request).store.player_profile(player.id)
        assert profile is not None
        return profile

    @app.patch("/api/players/me")
    async def rename(
        request: Request,
        body: NewPlayer,
        key: Annotated[HTTPAuthorizationCredentials | None, Depends(player_bearer)] = None,
    ) -> dict[str, Any]:
        """A new name for your profile (games already played keep the name they were played under).
        Counted against ``--claim-rate``: each one is a write to the database."""
        limit(request, "claim")
        player = await player_of(request, key.credentials if key is not None else None)
        if player is None:
            raise TableError("bad_player_key", "send your key as Authorization: Bearer <key>", 401)
        await manager(request).store.rename_player(player.id, body.name.strip())
        return {"id": player.id, "name": body.name.strip()}

    @app.get("/api/players/{player_id}")
    async def player_profile(request: Request, player_id: str) -> dict[str, Any]:
        """A player's public page: name, a rating on each ladder, and the last 50 games."""
        profile = await manager(request).store.player_profile(player_id) if TABLE_ID.fullmatch(player_id) else None
        if profile is None:
            raise HTTPException(404, detail={"code": "no_such_player", "message": f"no player {_named(player_id)}"})
        return profile

    @app.get("/api/leaderboard")
    async def leaderboard(
        request: Request,
        game: Annotated[str | None, Query(pattern=r"^[a-z][a-z0-9_-]{0,39}$")] = None,
        mode: Annotated[str | None, Query(pattern=r"^(partnership|[0-9]{1,2}p)$")] = None,
        limit: Annotated[int, Query(ge=1, le=200)] = 50,
    ) -> dict[str, Any]:
        """The ladder of one game and mode (``partnership``, ``2p``, ``3p``...), best first:
        humans and bots, by rating (openskill's ordinal, mu - 3 sigma). By default the first
        game the server hosts, at its default table."""
        first = next(iter(registry.games()))
        game = game or first.name
        if mode is None:
            hosted = next((g for g in registry.games() if g.name == game), first)
            mode = mode_of(hosted.params().to_json())
        rows = await manager(request).store.leaderboard(game, mode, limit)
        return {"game": game, "mode": mode, "players": rows}

    @app.websocket("/api/tables/{table_id}/ws")
    async def play(websocket: WebSocket, table_id: str) -> None:
        if not origin_allowed(websocket.scope["headers"], live.allowed_origins):
            await websocket.close(code=1008)  # before accepting: the handshake is refused (403)
            return
        await websocket.accept()
        client = client_of(websocket)
        sockets: Sockets = websocket.app.state.sockets
        refused = sockets.admit(client)
        if refused is not None:
            await _refuse(websocket, refused.code, refused.message, 1013)  # 1013: try again later
            return
        cluster = websocket.app.state.manager.cluster
        lease: str | None = None
        wide_lease: str | None = None
        try:  # from here on, whatever ends the socket (a cancel too) gives its places back
            if cluster is not None:
                lease = await cluster.admit_socket(client, sockets.per_client)
                if lease != "" and (network := network_key(client)) is not None:  # and its /48's
                    wide_lease = await cluster.admit_socket(network, sockets.per_client * NETWORK_FACTOR)
                if lease == "" or wide_lease == "":  # the client's sockets on all processes are at the cap
                    refused = sockets.too_many() if lease == "" else sockets.too_many_in_network()
                    await _refuse(websocket, refused.code, refused.message, 1013)
                    return
            mgr: TableManager = websocket.app.state.manager
            access = await _access(mgr, table_id)
            if access is None:
                message = f"no live table {_named(table_id)}: a finished game's record is at /api/tables/ID/record"
                await _refuse(websocket, "no_such_table", message, 4404)
                return
            await Session(websocket, mgr, access, client).run()
        finally:
            sockets.release(client)
            if cluster is not None:
                await cluster.release_socket(lease)
                await cluster.release_socket(wide_lease)

    static = _static_dir()
    if static is not None:
        files = StaticFiles(directory=static, html=True)

        # A GET route rather than a mount at "/": a mount would also swallow
        # other methods on /api paths and answer them as a file server would.
        # HEAD too: link checkers and uptime monitors ask pages with it.
        @app.api_route("/{path:path}", methods=["GET", "HEAD"], include_in_schema=False)
        async def client(request: Request, path: str) -> Any:
            if path.startswith("api/"):
                # An API path that takes other methods only (POST /api/replay): 405 with Allow,
                # as without the client, not the file server's 404.
                for route in request.app.router.routes:
                    api = isinstance(route, APIRoute) and route.include_in_schema
                    if api and route.matches({**request.scope, "method": "__none__"})[0] is Match.PARTIAL:
                        raise StarletteHTTPException(405)
                raise HTTPException(404, detail={"code": "not_found", "message": f"no API at /{path}"})
            return await files.get_response(path or ".", request.scope)

    return app


async def _access(manager: TableManager, table_id: str) -> TableAccess | None:
    """The way to a live table: here, or through its owner process; None if it is not live."""
    table = manager.tables.get(table_id)
    if table is not None:
        return LocalAccess(manager, table)
    if manager.cluster is None or not TABLE_ID.fullmatch(table_id):
        return None
    stored = await manager.store.load_table(table_id)
    if stored is None or stored.row.status not in ("waiting", "playing"):
        return None
    return RelayAccess(manager, manager.cluster, table_id)


def client_of(connection: Request | WebSocket) -> str:
    """The address that rates and socket counts are kept for (an IPv6 client's /64)."""
    return address_key(connection.client.host) if connection.client is not None else "unknown"


async def _refuse(websocket: WebSocket, code: str, message: str, close_code: int) -> None:
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        await websocket.send_json({"type": "error", "code": code, "message": message})
        await websocket.close(code=close_code)


def _named(key: object) -> str:
    """An id or name a client sent, quoted for a refusal, cut short: a refusal names it, not echoes a page of it."""
    quoted = repr(key)
    return quoted if len(quoted) <= 40 else quoted[:39] + "…"


def _read_cursor(before: str | None) -> tuple[float, str] | None:
    """The lobby's cursor: the creation time and id of the last table of the page before."""
    if before is None:
        return None
    created, sep, table_id = before.partition("~")
    try:
        when = float(created)
    except ValueError:
        when = float("nan")
    if not sep or not TABLE_ID.fullmatch(table_id) or when != when:
        raise TableError("bad_cursor", "before: use the cursor the Link header of the previous page gave", 422)
    return when, table_id


def _replay_seat(seat: str) -> int | str | None:
    if seat == "public":
        return None
    return seat if seat == replays.ALL else int(seat)


def _stored_summary(stored: StoredTable) -> dict[str, Any]:
    """The summary of a table that is not live, as the lobby and GET /api/tables/{id} show it."""
    row = stored.row
    game = table_game(row.game)
    return {
        "id": row.id,
        "game": row.game,
        "name": row.name,
        "players": len(stored.seats),
        "config": row.config,
        "status": row.status,
        "seq": row.seq or 0,
        "to_move": None,
        "created_at": row.created_at,
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "bot": s.bot,
                "name": s.name,
                "label": game.seat_label(row.config, s.seat),
                "open": (empty := row.status == "waiting" and s.kind == "human" and s.token_hash is None),
                "reserved": empty and s.seat in row.config.get("reserved", ()),
                "player": s.player_id,
                "connected": False,
                "standin": False,
            }
            for s in stored.seats
        ],
        "paused": None,  # who is at the table is known to the process that holds it
    }


def _option_defaults(options: Any) -> dict[str, Any]:
    """Every rule option with its default (a game's options are a dataclass)."""
    if options is None or not is_dataclass(options):
        return {}
    return {f.name: getattr(options, f.name) for f in fields(options) if not f.name.startswith("_")}


def _option_limits(options: Any) -> dict[str, dict[str, float]]:
    """The bounds of the numeric rule options (``min``, ``max``, ``step`` where set), from each
    field's ``limits`` metadata: a form holds a value to them before the server refuses it."""
    if options is None or not is_dataclass(options):
        return {}
    out = {}
    for f in fields(options):
        if "limits" in f.metadata:
            given = zip(("min", "max", "step"), f.metadata["limits"], strict=True)
            out[f.name] = {key: value for key, value in given if value is not None}
    return out


def _titles() -> str:
    """The hosted games' titles, for the API's summary: ``A, B and C``."""
    titles = [game.title for game in registry.games()]
    return " and ".join(filter(None, [", ".join(titles[:-1]), titles[-1]])) if titles else "games"


def _seat_token(table_id: str, seat: int, token: str) -> dict[str, Any]:
    return {"seat": seat, "token": token, "link": f"/table.html?t={table_id}&seat={seat}#token={token}"}


def _static_dir() -> Path | None:
    path = Path(str(resources.files("goldfields") / "web" / "static"))
    return path if path.is_dir() else None


class Session:
    """One WebSocket client: its seat (after hello) and its outgoing queue."""

    def __init__(
        self, websocket: WebSocket, manager: TableManager, access: TableAccess, client: str = "unknown"
    ) -> None:
        self.ws = websocket
        self.access = access
        self.client = client
        self.settings: Settings = manager.settings
        self.rates: RateLimits = websocket.app.state.rates
        self.quiet: Quiet = websocket.app.state.quiet
        self.seat: int | None = None
        self.joined = False
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.close_code = 1000
        self.sender: asyncio.Task[None] | None = None

    def send(self, message: dict[str, Any]) -> None:
        if self.queue.qsize() >= MAX_QUEUE:
            # Too far behind: dropped at once, not after what is queued (it will reconnect and
            # resync). Its sender is blocked writing to it, or it would not be this far behind.
            if self.sender is not None and not self.sender.done():
                self.note(f"{MAX_QUEUE} updates behind: dropped")
                self.sender.cancel()
            return
        self.queue.put_nowait(message)

    def close_soon(self, code: int) -> None:
        """Close the socket with ``code`` once what is queued before has been sent."""
        self.close_code = code
        self.queue.put_nowait(None)

    async def _sender(self) -> None:
        """Send what is queued, in order. A client that takes none of it for ``send_timeout``
        is dropped: a socket that is never read would otherwise hold its place, and what is
        queued for it, for good (a closing socket waits for its data to be read). The session
        ends when this does."""
        timeout = self.settings.send_timeout
        try:
            while (message := await self.queue.get()) is not None:
                async with asyncio.timeout(timeout):  # (a task a send with wait_for, on 3.11)
                    await self.ws.send_text(json.dumps(message))
            async with asyncio.timeout(timeout):
                await self.ws.close(code=self.close_code)
        except TimeoutError:
            self.note(f"read nothing sent to it for {timeout:g} s: dropped")
        except (WebSocketDisconnect, RuntimeError, OSError):
            return  # the client went away

    def error(self, code: str, message: str, rule: str | None = None, **more: Any) -> None:
        self.send({"type": "error", "code": code, "rule": rule, "message": message, **more})

    def note(self, what: str) -> None:
        """One short line about a misbehaving client, and not many of them: a flood of
        bad clients must not become a flood of log."""
        if self.quiet.allow():
            log.warning("client %s, table %s: %s", self.client, self.access.table_id, what[:160])

    async def _receive(self, sender: asyncio.Task[None], timeout: float | None) -> dict[str, Any] | None:
        """The next message from the client; None once the sender has ended (the socket closed
        or dropped) or after ``timeout`` seconds. Only the wait is cut short, never a message
        being handled: a move half made must not be cancelled."""
        receiving = asyncio.ensure_future(self.ws.receive())
        try:
            done, _ = await asyncio.wait({receiving, sender}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            if receiving in done:
                return cast(dict[str, Any], receiving.result())
        finally:
            receiving.cancel()  # nothing if it is done; else the wait (or the session) was cut short
        with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError):
            await receiving
        return None

    async def run(self) -> None:
        sender = self.sender = asyncio.create_task(self._sender())
        loop = asyncio.get_running_loop()
        hello_by = loop.time() + self.settings.hello_timeout
        try:
            while True:
                # A socket that never says hello holds a connection for nothing.
                message = await self._receive(sender, None if self.joined else max(0.0, hello_by - loop.time()))
                if message is None and not sender.done():
                    seconds = f"{self.settings.hello_timeout:g}"
                    self.error("hello_timeout", f"say hello within {seconds} s of connecting")
                    self.close_soon(1008)
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(asyncio.shield(sender), 10)  # the error, then the close
                    break
                if message is None or message["type"] == "websocket.disconnect":
                    break
                if message.get("text") is not None:
                    await self.handle(message["text"])
                else:
                    self.note("sent a binary frame")
                    self.error("binary", "messages are JSON text frames, not binary")
        except WebSocketDisconnect:
            pass
        except RuntimeError:  # the socket closed under us
            pass
        finally:
            if self.joined:
                await self.access.disconnect(self)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sender

    async def handle(self, text: str) -> None:
        refused = self.rates.check("message", self.client)
        if refused is not None:
            return self.error(refused.code, refused.message, retry_after=refused.retry_after)
        try:
            await self._handle(text)
        except Moving:  # several processes: the owner is changing, or Redis is away
            moving = moving_error()
            self.error(moving.code, str(moving), retry_after=moving.details["retry_after"])
        except Exception as err:  # a bug met by a strange message: answer it, keep the session
            self.note(f"message {text[:40]!r} failed: {type(err).__name__}")
            self.error("server", "that message could not be handled; nothing changed")

    async def _handle(self, text: str) -> None:
        limit, depth = self.settings.ws_max_message, self.settings.ws_max_depth
        if len(text) > limit or len(text.encode(errors="replace")) > limit:
            self.note(f"sent {len(text)} characters")
            return self.error("too_big", f"messages are limited to {limit} bytes")
        if not json_depth(text, depth):
            self.note("sent deeply nested JSON")
            return self.error("too_deep", f"messages nest at most {depth} levels")
        try:
            msg = json.loads(text)
        except ValueError:  # not JSON, or a number too long to read (Python refuses 4,300+ digits)
            return self.error("bad_json", "messages are JSON objects")
        if not plain_text(msg):
            self.note("sent a lone surrogate")
            return self.error("bad_text", "strings must be valid Unicode text")
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            return self.error("bad_message", 'every message is a JSON object with a "type"')
        kind = msg["type"]
        if kind == "ping":
            return self.send({"type": "pong"})
        if kind == "hello":
            return await self.hello(msg)
        if not self.joined:
            return self.error("hello_first", 'say {"type": "hello"} first, with your seat and token to play')
        if kind == "move":
            return await self.move(msg)
        if kind == "resume":
            if self.seat is None:
                return self.error("spectator", "spectators have no seat to take back")
            return await self.access.take_back(self.seat)
        if kind == "chat":
            return await self.chat(msg)
        return self.error("bad_message", f"unknown message type {kind!r}: hello, move, resume, chat or ping")

    async def chat(self, msg: dict[str, Any]) -> None:
        if self.seat is None:
            return self.error("spectator", "spectators watch; only the players at the table chat")
        # Per player, so that players behind one address (a family, a school, a NAT) each have their
        # own, and per address with a looser cap; a message either refuses counts against neither.
        refused = self.rates.check_all(
            ("chat", f"{self.access.table_id}/{self.seat}", "your seat"), ("chat_address", self.client, "your address")
        )
        if refused is not None:
            return self.error(refused.code, refused.message, retry_after=refused.retry_after)
        try:
            await self.access.chat(self.seat, msg.get("text"), msg.get("phrase"))
        except TableError as err:
            self.error(err.code, str(err))

    async def hello(self, msg: dict[str, Any]) -> None:
        if self.joined:
            return self.error("already_joined", "this connection already said hello; open another to change seat")
        # Each join builds and sends the seat's whole game so far: counted per address, so that
        # opening and closing sockets cannot keep the server building them (an audit's probe).
        refused = self.rates.check("join", self.client)
        if refused is not None:
            self.error(refused.code, refused.message, retry_after=refused.retry_after)
            return self.close_soon(1013)  # "try again later": the client reconnects after retry_after
        seat, token = msg.get("seat"), msg.get("token")
        if seat is not None:
            if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(token, str):
                return self.error("bad_message", "hello takes a seat number and its token (a string)")
            if not await self.access.authenticate(seat, token):
                return self.error("auth", f"that token does not open seat {seat}")
        self.seat = seat
        await self.access.connect(self)  # may raise Moving: then the client says hello again
        self.joined = True
        if seat is not None:
            await self.access.take_back(seat)

    async def move(self, msg: dict[str, Any]) -> None:
        if self.seat is None:
            return self.error("spectator", "spectators cannot move")
        refused = self.rates.check("move", self.client)
        if refused is not None:
            return self.error(refused.code, refused.message, retry_after=refused.retry_after)
        text, seq = msg.get("move"), msg.get("seq")
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            return self.error("bad_message", 'a move is {"type": "move", "move": "<move in the notation>"}')
        if seq is not None and (not isinstance(seq, int) or isinstance(seq, bool)):
            return self.error("bad_message", "seq is the number of the last step you saw")
        move = text.strip()

        def ack(stored: int) -> None:
            self.send({"type": "ack", "seq": stored, "move": move})

        try:
            await self.access.submit(self.seat, move, seq, ack)
        except RuleError as err:
            # The reason and its values let a client say it in the player's language.
            extra = {"reason": err.reason, "params": err.params} if err.reason else {}
            return self.error("illegal", str(err), err.rule, **extra)
        except TableError as err:
            return self.error(err.code, str(err))
        except Moving:
            moving = moving_error()
            return self.error(moving.code, str(moving), retry_after=moving.details["retry_after"])
        except Exception as err:  # a storage failure: nothing was applied, the client may retry
            kind = f"move {type(err).__name__}"
            log_failure(self.ws.app.state.failures, kind, "table %s: move %r failed", self.access.table_id, text)
            return self.error("server", "the move could not be saved; nothing changed, try again")
