"""``goldfields serve``: the multiplayer server and the browser client."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ..server.botpool import DEFAULT_DEADLINE, DEFAULT_WORKERS

console = Console(highlight=False)


class Durability(StrEnum):
    full = "full"
    process = "process"


def serve_command(
    host: Annotated[str, typer.Option(help="Interface to listen on (0.0.0.0 for the local network).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="TCP port.")] = 8000,
    database: Annotated[
        str | None,
        typer.Option(help="SQLAlchemy database URL. Default: an SQLite file goldfields.db in the current folder."),
    ] = None,
    bot_delay: Annotated[float, typer.Option(min=0.0, help="Seconds a bot waits before moving.")] = 0.6,
    grace: Annotated[float, typer.Option(min=0.0, help="Seconds before a bot stands in for a player who left.")] = 20.0,
    waiting_expiry: Annotated[
        float, typer.Option(min=1.0, help="Seconds a table waits for players (from its last claim) before it expires.")
    ] = 3600.0,
    keep_finished: Annotated[
        float,
        typer.Option(
            min=0.0, help="Seconds a finished table stays live for its players; then it is archived (record kept)."
        ),
    ] = 600.0,
    bot_workers: Annotated[
        int, typer.Option(min=1, help="Worker processes the bots think in (default: one per core but one).")
    ] = DEFAULT_WORKERS,
    bot_deadline: Annotated[
        float,
        typer.Option(
            min=0.1, help="Seconds a bot move may take before its worker is killed and a quick fallback bot moves."
        ),
    ] = DEFAULT_DEADLINE,
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

        from ..server.app import create_app
        from ..server.tables import Settings
    except ImportError as err:
        missing = err.name or str(err)
        console.print(
            f"goldfields serve needs the server's libraries ({missing}): pip install 'goldfields[server]'",
            markup=False,
            style="red",
        )
        raise typer.Exit(2) from None

    url = database or f"sqlite:///{Path('goldfields.db').resolve()}"
    app = create_app(
        url,
        Settings(
            bot_delay=bot_delay,
            grace_seconds=grace,
            waiting_expiry=waiting_expiry,
            keep_finished=keep_finished,
            durability=durability.value,
            bot_workers=bot_workers,
            bot_deadline=bot_deadline,
        ),
    )
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    console.print(f"[bold]goldfields[/bold] is serving at [link]http://{shown}:{port}/[/link]  (database: {url})")
    console.print("Open that address in a browser; Ctrl-C stops the server (games are kept).")
    # No per-message deflate: compressing every update costs more CPU than the
    # bandwidth it saves on a local network, and CPU is what limits a table count.
    uvicorn.run(app, host=host, port=port, ws_max_size=1 << 20, ws_per_message_deflate=False, log_level="warning")


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_command)
