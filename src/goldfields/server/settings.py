"""The server's settings: the house rules, its limits, and how bots think.

Every field is an option of ``goldfields serve`` (see ``goldfields serve --help``
and docs/server.md). This module imports nothing beyond the standard library and
``goldfields.core``, so that the command line can show the defaults without the
server's libraries.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..core.definition import LEVEL_SECONDS

DEFAULT_WORKERS = max(1, (os.cpu_count() or 2) - 1)
"""Bot worker processes: one core is left to the server's event loop."""
DEFAULT_DEADLINE = 5.0


@dataclass(slots=True)
class Settings:
    bot_delay: float = 0.6
    """Seconds a bot waits before moving, so that people can follow."""
    grace_seconds: float = 20.0
    """How long a disconnected player's seat waits before a bot stands in."""
    bot_seconds: float = LEVEL_SECONDS
    """Thinking budget for search bots on the server: by default a level's away from it (the
    terminal, the arena), so that Hard is the same opponent everywhere."""
    analysis_seconds: float = 0.1
    """Search time per decision when a finished game's moves are analysed for the replay viewer."""
    standin_bot: str = "heuristic"
    bot_workers: int = DEFAULT_WORKERS
    """Worker processes the bots think in."""
    bot_deadline: float = DEFAULT_DEADLINE
    """Seconds a bot move may run in its worker before it is killed and the fallback moves."""
    waiting_expiry: float = 3600.0
    """Seconds a table may wait for its players (from its last claim) before it expires."""
    abandoned_expiry: float = 86400.0
    """Seconds a game in play may go without a move while none of its players is at the table
    (it pauses then); after that it is closed as abandoned. Otherwise games people walked
    away from would stay in memory, and hold places under ``max_live_tables``, for ever."""
    keep_finished: float = 600.0
    """Seconds a finished table stays in memory, for its players' last look; then it is
    archived: read from its stored record, never replayed."""
    unused_profile_expiry: float = 30 * 86400.0
    """Seconds a player profile that never took a seat is kept, from its making; then the sweep
    deletes it. A profile costs one request to make and a row to keep: without this, every visit
    that made one and never played would stay for ever. A browser holding a deleted profile's key
    makes a new profile at its next game. 0 keeps them all."""
    sweep_every: float = 30.0
    """How often expired and finished tables are looked for."""
    redis: str | None = None
    """A Redis URL: this process is one of several sharing the database (which must then be
    PostgreSQL), with live updates relayed through Redis. None: a lone server."""
    rate_limits: bool = True
    """Per-client rate limits on (off for a private server or a benchmark)."""
    create_rate: str = "20/minute"
    """Tables one client address may create."""
    claim_rate: str = "60/minute"
    """Seats one client address may claim."""
    move_rate: str = "10/second"
    """Moves one client address may send (over all its sockets)."""
    message_rate: str = "50/second"
    """WebSocket messages of any kind one client address may send."""
    join_rate: str = "60/minute"
    """Table joins (a WebSocket's hello, a player's or a spectator's) one client address may make:
    each one builds and sends the seat's whole game so far, the costliest message a client can
    ask for. A refused hello is told so and its socket closed (1013), to try again later."""
    chat_rate: str = "10/minute"
    """Table chat messages one player (a seat, as its token opens it) may send: counted per
    player, so that players behind one address (a family, a school) do not share it."""
    chat_address_rate: str | None = None
    """Table chat messages one client address may send, all its players together: a looser
    cap against a flood of new seats from one address. None: ten times ``chat_rate``."""
    replay_rate: str = "30/minute"
    """Replays one client address may have the server compute: a finished game's not yet
    computed (one already computed is free), or a record sent to ``POST /api/replay``."""
    analysis_rate: str = "10/hour"
    """Analyses of a finished game one client address may start (asking again for one started is free)."""
    max_live_tables: int = 2000
    """Tables waiting or in play, in all; creating one more is refused with 503."""
    max_bot_tables: int = 50
    """Live tables with no human seat (bots playing bots), in all."""
    max_tables_per_client: int = 20
    """Live tables one client address may have created (counted in the database, over every
    server process), so that one address cannot take every place under ``max_live_tables``.
    Off with the rate limits (``rate_limits=False``)."""
    max_game_steps: int = 6000
    """Steps a game may run to (moves, deals and rolls). A game that reaches it without ending is
    stopped: closed unrated and without a result, its record kept, as an abandoned game's is.
    Partners may pass cards back and forth for as long as the pile lasts, so a game need not
    end by the rules; the longest games the bots play run to about 2,000 steps."""
    max_body: int = 16_384
    """Bytes of an HTTP request body; more is refused with 413 before it is read."""
    max_record: int = 1_000_000
    """Bytes of a game record sent to be replayed (``POST /api/replay``)."""
    max_replay_steps: int = 6000
    """Steps of a game that a replay shows frame by frame (``POST /api/replay`` and a finished
    table's ``/replay``); a longer game is refused with 413. Each frame is a whole view (about
    8 kB), and hands that score nothing let a record go on for ever; the longest games the
    bots play run to about 2,000 steps."""
    ws_max_message: int = 8192
    """Bytes of one WebSocket message."""
    ws_max_depth: int = 8
    """Nesting of arrays and objects in one WebSocket message."""
    hello_timeout: float = 10.0
    """Seconds a new WebSocket has to say hello before it is closed."""
    send_timeout: float = 30.0
    """Seconds a client may go without taking what is sent to it. A WebSocket whose next update
    waits longer to be written is dropped (its client reconnects and is sent the table again),
    and ``goldfields serve`` has the system drop any connection whose peer acknowledges none
    of the data sent to it for as long (``TCP_USER_TIMEOUT``, on Linux): a closing socket
    otherwise waits for ever for a client that never reads."""
    max_sockets_per_client: int = 32
    """Open WebSockets per client address."""
    max_sockets: int = 10_000
    """Open WebSockets in all."""
    allowed_hosts: tuple[str, ...] = ("*",)
    """Host names the server answers to ("*": any). Set them on a public server."""
    allowed_origins: tuple[str, ...] = ()
    """Web origins, beside the server's own, whose pages may open a WebSocket ("*": any)."""
    durability: str = "full"
    """"full": a move is on disk before it is acknowledged, safe even from a
    power cut (SQLite synchronous=FULL). "process": safe from a killed server
    process but not from a power cut (synchronous=NORMAL), with much lower
    latency. Both keep every acknowledged move through SIGKILL."""

    def __post_init__(self) -> None:
        if self.durability not in ("full", "process"):
            raise ValueError(f"durability is 'full' or 'process', not {self.durability!r}")
        self.allowed_hosts = tuple(self.allowed_hosts)
        self.allowed_origins = tuple(self.allowed_origins)
        from .limits import rate  # the limits library is a server extra; these defaults are read without it

        rates = (self.create_rate, self.claim_rate, self.move_rate, self.message_rate, self.join_rate, self.chat_rate,
                 self.analysis_rate, self.replay_rate, *filter(None, [self.chat_address_rate]))  # fmt: skip
        for text in rates:
            rate(text)  # a clear error now, not at the first request
        if self.redis is not None and not self.redis.startswith(("redis://", "rediss://", "unix://")):
            raise ValueError(f"--redis takes a Redis URL (redis://host:6379/0), not {self.redis!r}")
        if self.max_game_steps < 1:
            raise ValueError(f"--max-game-steps must be at least 1, not {self.max_game_steps}")
        if self.max_replay_steps < self.max_game_steps:
            # Otherwise a game played here to the end, or stopped at the cap, could not be replayed here.
            raise ValueError(
                f"--max-replay-steps ({self.max_replay_steps}) must be at least --max-game-steps "
                f"({self.max_game_steps}): every game this server lets run must be one it can replay"
            )
        if self.bot_workers < 1:
            raise ValueError(f"--bot-workers must be at least 1, not {self.bot_workers}")
        if not self.bot_deadline > self.bot_seconds:
            raise ValueError(
                f"--bot-deadline ({self.bot_deadline} s) must be longer than --bot-seconds ({self.bot_seconds} s)"
            )
        if not 0 < self.analysis_seconds < self.bot_deadline:
            # Past the deadline every judged decision would kill its worker, and the analysis never end.
            raise ValueError(
                f"--analysis-seconds ({self.analysis_seconds} s) must be more than 0 and less than "
                f"--bot-deadline ({self.bot_deadline} s)"
            )
