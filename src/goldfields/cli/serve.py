"""``goldfields serve``: the multiplayer server and the browser client."""

from __future__ import annotations

import contextlib
import ipaddress
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from ..core.definition import LEVEL_SECONDS
from ..server.listen import ListenError, listen
from ..server.settings import DEFAULT_DEADLINE, DEFAULT_WORKERS, Settings
from .options import print_error

console = Console(highlight=False)


LIMITS = "Limits (per client address, and in all)"
SECURITY = "Security"
BOTS = "Bots"


def _default(name: str) -> Any:
    return Settings.__dataclass_fields__[name].default


class Durability(StrEnum):
    full = "full"
    process = "process"


def serve_command(
    host: Annotated[
        str, typer.Option(help="Interface or name to listen on, at every address it names (localhost: 127.0.0.1 and "
                               "::1; 0.0.0.0: the local network).")
    ] = "localhost",
    port: Annotated[int, typer.Option(min=0, max=65535, help="TCP port (0: any free port, printed).")] = 8000,
    database: Annotated[
        str | None,
        typer.Option(help="SQLAlchemy database URL. Default: an SQLite file goldfields.db in the current folder."),
    ] = None,
    bot_delay: Annotated[float, typer.Option(min=0.0, help="Seconds a bot waits before moving.")] = 0.6,
    grace: Annotated[float, typer.Option(min=0.0, help="Seconds before a bot stands in for a player who left.")] = 20.0,
    waiting_expiry: Annotated[
        float, typer.Option(min=1.0, help="Seconds a table waits for players (from its last claim) before it expires.")
    ] = 3600.0,
    abandoned_expiry: Annotated[
        float,
        typer.Option(
            min=1.0,
            help="Seconds a game in play may go without a move while none of its players is at the table; "
            "then it is closed as abandoned.",
        ),
    ] = _default("abandoned_expiry"),
    keep_finished: Annotated[
        float,
        typer.Option(
            min=0.0, help="Seconds a finished table stays live for its players; then it is archived (record kept)."
        ),
    ] = 600.0,
    unused_profile_expiry: Annotated[
        float,
        typer.Option(
            min=0.0,
            help="Seconds a player profile that never took a seat is kept; then it is deleted (0: kept for ever).",
        ),
    ] = _default("unused_profile_expiry"),
    redis: Annotated[
        str | None,
        typer.Option(
            help="A Redis URL (redis://host:6379/0): run as one of several server processes sharing a "
            "PostgreSQL --database, any of which serves any table (docs/server.md, Deployment).",
        ),
    ] = None,
    bot_workers: Annotated[
        int,
        typer.Option(
            min=1, rich_help_panel=BOTS, help="Worker processes the bots think in (default: one per core but one)."
        ),
    ] = DEFAULT_WORKERS,
    bot_deadline: Annotated[
        float,
        typer.Option(
            min=0.1,
            rich_help_panel=BOTS,
            help="Seconds a bot move may take before its worker is killed and a quick fallback bot moves.",
        ),
    ] = DEFAULT_DEADLINE,
    bot_seconds: Annotated[
        float,
        typer.Option(
            min=0.05,
            max=30.0,
            rich_help_panel=BOTS,
            help="Seconds a search bot (ismcts, search: the Hard level) thinks per move.",
        ),
    ] = LEVEL_SECONDS,
    analysis_seconds: Annotated[
        float,
        typer.Option(
            min=0.01,
            max=10.0,
            rich_help_panel=BOTS,
            help="Seconds of search per decision when the replay viewer asks for a seat's costly moves.",
        ),
    ] = 0.1,
    rate_limits: Annotated[
        bool, typer.Option(rich_help_panel=LIMITS, help="Per-client rate limits (off only for a private server).")
    ] = True,
    create_rate: Annotated[
        str, typer.Option(rich_help_panel=LIMITS, help="Tables one address may create, e.g. 20/minute.")
    ] = _default("create_rate"),
    claim_rate: Annotated[str, typer.Option(rich_help_panel=LIMITS, help="Seats one address may claim.")] = _default(
        "claim_rate"
    ),
    move_rate: Annotated[str, typer.Option(rich_help_panel=LIMITS, help="Moves one address may send.")] = _default(
        "move_rate"
    ),
    message_rate: Annotated[
        str, typer.Option(rich_help_panel=LIMITS, help="WebSocket messages of any kind one address may send.")
    ] = _default("message_rate"),
    join_rate: Annotated[
        str,
        typer.Option(
            rich_help_panel=LIMITS,
            help="Table joins (WebSocket hellos) one address may make: each sends the seat's whole game so far.",
        ),
    ] = _default("join_rate"),
    chat_rate: Annotated[
        str, typer.Option(rich_help_panel=LIMITS, help="Table chat messages one seat may send (an address may "
                                                       "send ten times as many, for all its seats).")
    ] = _default("chat_rate"),
    replay_rate: Annotated[
        str,
        typer.Option(
            rich_help_panel=LIMITS,
            help="Replays one address may have computed (a finished game's not yet computed, or a sent record).",
        ),
    ] = _default("replay_rate"),
    analysis_rate: Annotated[
        str,
        typer.Option(
            rich_help_panel=LIMITS,
            help="Analyses of finished games one address may start (the replay viewer's costly moves).",
        ),
    ] = _default("analysis_rate"),
    max_live_tables: Annotated[
        int, typer.Option(min=1, rich_help_panel=LIMITS, help="Tables waiting or in play, in all (then 503).")
    ] = _default("max_live_tables"),
    max_bot_tables: Annotated[
        int, typer.Option(min=0, rich_help_panel=LIMITS, help="Live tables with bots only, in all.")
    ] = _default("max_bot_tables"),
    max_tables_per_client: Annotated[
        int,
        typer.Option(
            min=1, rich_help_panel=LIMITS, help="Live tables one address may have created (then 429; all processes)."
        ),
    ] = _default("max_tables_per_client"),
    max_game_steps: Annotated[
        int, typer.Option(min=100, rich_help_panel=LIMITS,
                          help="Steps a game may run to; one that reaches it is stopped, unrated, its record kept.")
    ] = _default("max_game_steps"),
    max_body: Annotated[
        int, typer.Option(min=256, rich_help_panel=LIMITS, help="Bytes of a request body (more: 413, unread).")
    ] = _default("max_body"),
    max_record: Annotated[
        int, typer.Option(min=1024, rich_help_panel=LIMITS, help="Bytes of a game record sent to the replay viewer.")
    ] = _default("max_record"),
    max_replay_steps: Annotated[
        int, typer.Option(min=100, rich_help_panel=LIMITS,
                          help="Steps of a game the replay viewer shows (longer: 413); at least --max-game-steps.")
    ] = _default("max_replay_steps"),
    ws_max_message: Annotated[
        int, typer.Option(min=256, rich_help_panel=LIMITS, help="Bytes of one WebSocket message.")
    ] = _default("ws_max_message"),
    ws_max_depth: Annotated[
        int, typer.Option(min=2, rich_help_panel=LIMITS, help="Nesting of arrays and objects in a WebSocket message.")
    ] = _default("ws_max_depth"),
    hello_timeout: Annotated[
        float, typer.Option(min=0.5, rich_help_panel=LIMITS, help="Seconds a new WebSocket has to say hello.")
    ] = _default("hello_timeout"),
    send_timeout: Annotated[
        float,
        typer.Option(
            min=1.0,
            rich_help_panel=LIMITS,
            help="Seconds a client may go without taking what is sent to it before it is dropped.",
        ),
    ] = _default("send_timeout"),
    max_sockets_per_client: Annotated[
        int, typer.Option(min=1, rich_help_panel=LIMITS, help="Open WebSockets per address.")
    ] = _default("max_sockets_per_client"),
    max_sockets: Annotated[int, typer.Option(min=1, rich_help_panel=LIMITS, help="Open WebSockets in all.")] = _default(
        "max_sockets"
    ),
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            rich_help_panel=SECURITY,
            help="A host name the server answers to (repeat for more). Default: any. Set it on a public server.",
        ),
    ] = None,
    allowed_origin: Annotated[
        list[str] | None,
        typer.Option(
            rich_help_panel=SECURITY,
            help="A web origin (https://example.org) besides the server's own whose pages may open a WebSocket.",
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(
            rich_help_panel=SECURITY,
            help="Proxies (comma-separated addresses, or *) whose X-Forwarded-For names the client: "
            "behind a load balancer, its address, so that limits count players, not the balancer.",
        ),
    ] = "127.0.0.1,::1",
    durability: Annotated[
        Durability,
        typer.Option(
            help="full: moves on disk before they are acknowledged (survives a power cut); "
            "process: survives a killed server but not a power cut, with lower latency."
        ),
    ] = Durability.full,
) -> None:
    """Serve the game server: lobby, tables, bots in empty seats, live play.

    Open the printed address in a browser. Tables, seats and every move are
    kept in the database, so a restarted server carries on every game.
    """
    try:
        import uvicorn
        from sqlalchemy.engine import make_url
        from sqlalchemy.exc import ArgumentError

        from ..server.app import create_app
    except ImportError as err:
        missing = err.name or str(err)
        print_error(f"goldfields serve needs the server's libraries ({missing}): pip install 'goldfields[server]'")
        raise typer.Exit(2) from None

    url = database or f"sqlite:///{Path('goldfields.db').resolve()}"
    try:
        settings = Settings(
            bot_delay=bot_delay,
            grace_seconds=grace,
            waiting_expiry=waiting_expiry,
            abandoned_expiry=abandoned_expiry,
            keep_finished=keep_finished,
            unused_profile_expiry=unused_profile_expiry,
            durability=durability.value,
            bot_workers=bot_workers,
            bot_deadline=bot_deadline,
            bot_seconds=bot_seconds,
            analysis_seconds=analysis_seconds,
            redis=redis,
            rate_limits=rate_limits,
            create_rate=create_rate,
            claim_rate=claim_rate,
            move_rate=move_rate,
            message_rate=message_rate,
            join_rate=join_rate,
            chat_rate=chat_rate,
            analysis_rate=analysis_rate,
            replay_rate=replay_rate,
            max_live_tables=max_live_tables,
            max_bot_tables=max_bot_tables,
            max_tables_per_client=max_tables_per_client,
            max_body=max_body,
            max_record=max_record,
            max_replay_steps=max_replay_steps,
            max_game_steps=max_game_steps,
            ws_max_message=ws_max_message,
            ws_max_depth=ws_max_depth,
            hello_timeout=hello_timeout,
            send_timeout=send_timeout,
            max_sockets_per_client=max_sockets_per_client,
            max_sockets=max_sockets,
            allowed_hosts=tuple(allowed_host or ("*",)),
            allowed_origins=tuple(allowed_origin or ()),
        )
    except ValueError as err:  # a rate that is not a rate, say
        print_error(err)
        raise typer.Exit(2) from None
    # Never the password: what is printed ends up in terminals, logs and screenshots.
    try:
        safe_url = make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        print_error(f"{url!r} is not a database URL (sqlite:///file.db, postgresql+psycopg://...)")
        raise typer.Exit(2) from None
    if redis is not None and make_url(url).get_backend_name() != "postgresql":
        print_error("several processes (--redis) share a PostgreSQL --database, not SQLite")
        raise typer.Exit(2)
    problem = _unreachable(url)
    if problem is not None:
        print_error(f"cannot open the database {safe_url}: {problem}")
        raise typer.Exit(2)
    # The addresses are taken before "serving at" is said: a port in use or a host that is not
    # this machine's is one line and status 2, not a promise followed by uvicorn's error.
    try:
        listening = listen(host, port, settings.send_timeout)
    except ListenError as err:
        print_error(err)
        raise typer.Exit(2) from None
    port = listening.port  # the one taken, for --port 0
    app = create_app(url, settings)
    # The address printed must be one listened on: localhost only where both loopbacks are (a
    # browser may try ::1 alone), 127.0.0.1 for every IPv4 address.
    shown = {"0.0.0.0": "127.0.0.1", "::": "localhost", "": "localhost"}.get(host, host)
    shown = f"[{shown}]" if ":" in shown else shown
    console.print(f"[bold]goldfields[/bold] is serving at [link]http://{shown}:{port}/[/link]  (database: {safe_url})")
    console.print(f"Listening on {listening.described()}.", markup=False)
    for skipped in listening.skipped:
        console.print(f"Not listening on {skipped}", markup=False)
    console.print("Open that address in a browser; Ctrl-C stops the server (games are kept).")
    # No per-message deflate: compressing every update costs more CPU than the
    # bandwidth it saves on a local network, and CPU is what limits a table count.
    # A frame far over the message limit is refused by the protocol (close 1009) before it is buffered.
    frame_limit = 4 * settings.ws_max_message
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ws_max_size=frame_limit,
        ws_per_message_deflate=False,
        log_level="warning",
        proxy_headers=True,
        forwarded_allow_ips=trusted_proxies(forwarded_allow_ips),
    )
    uvicorn.Server(config).run(sockets=listening.sockets)


def trusted_proxies(addresses: str) -> str:
    """``--forwarded-allow-ips`` with the IPv4-mapped form of each IPv4 address or network added.

    A dual-stack socket (``--host ::``) sees a proxy at 127.0.0.1 as ``::ffff:127.0.0.1``,
    which uvicorn does not match against 127.0.0.1: the proxy's X-Forwarded-For would be
    ignored, and every player behind it counted as one client, the whole site sharing one
    client's limits."""
    out = [a.strip() for a in addresses.split(",") if a.strip()]
    known: set[ipaddress.IPv4Network | ipaddress.IPv6Network] = set()
    for item in out:
        with contextlib.suppress(ValueError):  # "*", a host name, a Unix socket: uvicorn takes it as it is
            known.add(ipaddress.ip_network(item, strict=False))
    for net in sorted((n for n in known if isinstance(n, ipaddress.IPv4Network)), key=str):
        mapped = f"::ffff:{net.network_address}/{96 + net.prefixlen}"
        if ipaddress.ip_network(mapped) not in known:
            out.append(mapped.removesuffix("/128"))
    return ",".join(out)


def _unreachable(url: str) -> str | None:
    """Why the database cannot be opened, in one line (no traceback, no password), or None."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.exc import SQLAlchemyError

    from ..server.store import private_sqlite_file

    try:
        private_sqlite_file(url)  # before anything opens it: a new file is 0600 from the start
        engine = create_engine(url)
    except OSError as err:
        return err.strerror or str(err)
    except (SQLAlchemyError, ImportError, ValueError) as err:
        return str(err).splitlines()[0]
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except SQLAlchemyError as err:
        cause = getattr(err, "orig", None)
        return str(cause if isinstance(cause, Exception) else err).splitlines()[0]
    finally:
        engine.dispose()
    return None


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_command)
