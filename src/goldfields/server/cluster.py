"""Several server processes on one PostgreSQL database and one Redis: any process serves any table.

**Ownership.** Each live table has one owner process: the one holding the
table's PostgreSQL advisory lock, on a connection of its own. The owner keeps
the table in memory, applies its steps, runs its clocks and bots, and computes
every seat's view, as a lone server does. A process that dies loses its
database connection, and PostgreSQL releases its locks with it; every
``claim_every`` seconds the others try to lock the live tables nobody holds,
and the first to succeed restores the table from the step log and carries on.

**Fencing.** A step is stored under its table and number, which the database
keeps unique. A process that lost its lock without noticing (a dropped
connection) fails to store its next step, drops the table, and tells its
clients to reconnect: no move is ever applied twice.

**Relaying.** A WebSocket may be on any process. Where the table is not
owned, the process relays (:class:`RelayAccess`): it asks the owner, through
the table's Redis channel, to make moves, claims and resumes, and receives the
owner's per-seat updates on per-seat channels, passing each socket only the
view meant for its seat. Relays tell the owner which seats they hold sockets
for (presence, repeated every ``heartbeat`` seconds), so that the owner
publishes only those views and knows the players are at the table.

Channels (JSON messages):

- ``gf:t:{table}:in``: requests to the owner, each with the asking process and
  a request id;
- ``gf:t:{table}:out:{seat}`` and ``gf:t:{table}:out:pub``: the owner's updates
  for one seat, and for spectators;
- ``gf:t:{table}:ctl``: a new owner announcing itself (relays resync);
- ``gf:n:{process}``: replies to one process's requests.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from ..core.game import RuleError
from .limits import Quiet

try:
    from redis.exceptions import RedisError
except ImportError:  # a lone server without the multi extra never meets one

    class RedisError(Exception):  # type: ignore[no-redef]
        pass


if TYPE_CHECKING:
    from redis.asyncio import Redis
    from redis.asyncio.client import PubSub

    from .tables import TableManager

log = logging.getLogger("goldfields.server")

PUBLIC = "pub"  # the channel key of spectators' updates

SOCKET_LEASE = 30.0  # seconds a socket counts for its client unless its process renews it

# One atomic step, so two processes admitting the same client at once cannot both take its last
# place: forget expired sockets, refuse at the cap, else count this one.
ADMIT_SOCKET = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""


def lock_key(table_id: str) -> int:
    """A table's advisory lock key: 64 bits of a hash, signed as PostgreSQL's bigint is."""
    return int.from_bytes(hashlib.sha256(b"goldfields:" + table_id.encode()).digest()[:8], "big", signed=True)


def _signed(key: int) -> int:
    return key - (1 << 64) if key >= 1 << 63 else key


def seat_key(seat: int | None) -> str:
    return PUBLIC if seat is None else str(seat)


class Moving(Exception):
    """The table has no owner this moment (one died, another is taking over): try again."""


class Locks:
    """PostgreSQL session advisory locks, held on one connection of this process's own."""

    def __init__(self, url: str) -> None:
        self._engine = create_engine(url, poolclass=NullPool, isolation_level="AUTOCOMMIT")
        self._connection = self._engine.connect()
        self._thread = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="goldfields-locks")

    async def _run(self, sql: str, key: int | None = None) -> Any:
        def run() -> Any:
            return self._connection.execute(text(sql), {"k": key}).scalar()

        return await asyncio.get_running_loop().run_in_executor(self._thread, run)

    async def try_lock(self, table_id: str) -> bool:
        return bool(await self._run("SELECT pg_try_advisory_lock(:k)", lock_key(table_id)))

    async def unlock(self, table_id: str) -> None:
        await self._run("SELECT pg_advisory_unlock(:k)", lock_key(table_id))

    async def held(self) -> set[int]:
        """The advisory lock keys any process holds now: one query, rather than one try per table."""

        def run() -> set[int]:
            rows = self._connection.execute(
                text(
                    "SELECT classid::bigint, objid::bigint FROM pg_locks"
                    " WHERE locktype = 'advisory' AND objsubid = 1 AND granted"
                )
            )
            return {_signed((high << 32) | low) for high, low in rows.tuples()}

        return await asyncio.get_running_loop().run_in_executor(self._thread, run)

    async def holds(self, table_id: str) -> bool:
        """Whether this connection holds the table's lock now (False if the connection is gone)."""
        key = lock_key(table_id) & 0xFFFFFFFFFFFFFFFF
        sql = ("SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1"
               " AND granted AND pid = pg_backend_pid() AND classid::bigint = :hi AND objid::bigint = :lo)")

        def run() -> bool:
            return bool(self._connection.execute(text(sql), {"hi": key >> 32, "lo": key & 0xFFFFFFFF}).scalar())

        try:
            return await asyncio.get_running_loop().run_in_executor(self._thread, run)
        except Exception:
            return False

    async def alive(self) -> bool:
        """Whether the locking connection (and so every lock on it) still stands."""
        try:
            await self._run("SELECT 1")
        except Exception:
            return False
        return True

    async def reconnect(self) -> None:
        def run() -> None:
            with contextlib.suppress(Exception):
                self._connection.close()
            self._connection = self._engine.connect()

        await asyncio.get_running_loop().run_in_executor(self._thread, run)

    def close(self) -> None:
        self._thread.shutdown(wait=True)
        with contextlib.suppress(Exception):
            self._connection.close()
        self._engine.dispose()



def stop_if_cancelled() -> None:
    """Raise CancelledError if this task was asked to stop. redis-py can turn a cancellation
    that lands mid-read into an error of its own (its connection closed under it); a loop that
    goes on after errors would then run for ever, and the event loop's shutdown, which waits
    for every task, never ends (seen once in about twenty runs of a cluster test)."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError

class Cluster:
    """This process's part in a cluster: owner of some tables, relay for the others."""

    def __init__(
        self,
        manager: TableManager,
        redis_url: str,
        database_url: str,
        claim_every: float = 1.0,
        heartbeat: float = 5.0,
        ask_timeout: float = 15.0,
        listen_patience: float = 5.0,
    ) -> None:
        # The multi extra: a lone server never imports redis.
        from redis.asyncio import BlockingConnectionPool, Redis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        self.manager = manager
        self.node = secrets.token_hex(6)
        # A busy process asks the owners of many tables at once: past the pool's size a request
        # waits for a connection instead of failing (redis-py's plain pool raises at 100).
        # A pooled connection goes stale when Redis restarts; one retry on a fresh connection
        # sends the command rather than losing it (redis-py's default is not to retry).
        pool = BlockingConnectionPool.from_url(redis_url, max_connections=64, timeout=10, retry=Retry(NoBackoff(), 1))
        self.redis: Redis = Redis(connection_pool=pool)
        self.pubsub: PubSub = self.redis.pubsub(ignore_subscribe_messages=True)
        # One connection carries every subscription. redis-py's PubSub is not safe for two
        # coroutines at once (a subscribe that reconnects reads the handshake while the reader
        # reads messages), so whoever touches it holds this lock.
        self._pubsub_lock = asyncio.Lock()
        self._check_at = 0.0  # when to next ask Redis whether it still sends us our channels
        self._echo: tuple[str, float] | None = None  # a message to ourselves not yet heard, and when sent
        self._unsent: set[str] = set()  # owned tables an update of which was lost: relays resync
        self.locks = Locks(database_url)
        self.claim_every = claim_every
        self.heartbeat = heartbeat
        self.ask_timeout = ask_timeout
        self.listen_patience = listen_patience
        self.owned: set[str] = set()
        self.relays: dict[str, Relay] = {}
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._seen: dict[tuple[str, str], float] = {}  # (table, relaying process) -> last presence, monotonic
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._reading: asyncio.Task[None] | None = None
        self._handlers: set[asyncio.Task[None]] = set()
        self.redis_down = False  # set while Redis cannot be read; relays resync when it is back
        self._deaf: set[str] = set()  # owned tables not yet subscribed to (Redis was away)
        self._creating: set[str] = set()  # owned, being stored: not yet in the manager's memory
        self._sockets: dict[str, str] = {}  # this process's sockets counted in Redis: member -> client
        self._renew_at = 0.0
        self._quiet = Quiet()

    # ------------------------------------------------------------------
    # Start and stop
    # ------------------------------------------------------------------
    async def start(self) -> None:
        await self.subscribe(f"gf:n:{self.node}")
        self._reading = asyncio.create_task(self._reader())
        self._tasks = [asyncio.create_task(self._publisher())]
        await self.manager.restore(owns=self._try_own)
        self._tasks.append(asyncio.create_task(self._claimer()))

    async def close(self) -> None:
        pending = [*self._tasks, *self._handlers, *([self._reading] if self._reading else [])]
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.wait(pending, timeout=5)
        # Bounded: a connection cancelled mid-read can leave redis-py waiting on it, and a
        # process that was told to stop must stop (its locks go with its database connection).
        for closing in (self.pubsub.aclose, self.redis.aclose):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(closing(), 5)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.to_thread(self.locks.close), 5)

    # ------------------------------------------------------------------
    # Owning tables
    # ------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def creating(self, table_id: str) -> AsyncIterator[None]:
        """Own a table this process is creating, locked before anyone else can see it, while
        it is stored and put in memory; if that fails, let it go again."""
        # Until it is in the manager's memory, the claimer must not take it for an archived
        # table and unlock it: another process would then adopt it from the database while
        # this one serves its own copy, and a player here would wait at a table nobody plays.
        self._creating.add(table_id)
        try:
            if not await self._try_own(table_id):
                raise RuntimeError(f"table {table_id} is locked by another process before it exists")
            try:
                yield
            except BaseException:
                with contextlib.suppress(Exception):
                    await self._release(table_id)
                raise
        finally:
            self._creating.discard(table_id)

    async def _try_own(self, table_id: str) -> bool:
        if table_id in self.owned:
            return True
        if not await self.locks.try_lock(table_id):
            return False
        self.owned.add(table_id)
        await self._listen(table_id)
        return True

    async def still_owns(self, table_id: str) -> bool:
        """Whether this process owns the table, asked of the database itself: its lock
        connection may have been dropped without this process knowing yet."""
        return table_id in self.owned and await self.locks.holds(table_id)

    async def _listen(self, table_id: str) -> None:
        """Hear relayed requests for a table this process owns; while Redis is away, once it is back."""
        try:
            await self.subscribe(f"gf:t:{table_id}:in")
            self._deaf.discard(table_id)
        except Exception:  # Redis away (or a connection it broke): once it is back
            self._deaf.add(table_id)

    async def _release(self, table_id: str) -> None:
        self.owned.discard(table_id)
        self._deaf.discard(table_id)
        with contextlib.suppress(Exception):
            await self.unsubscribe(f"gf:t:{table_id}:in")
        await self.locks.unlock(table_id)

    async def closed(self, table_id: str, status: str) -> None:
        """The table's game was closed before its end (abandoned, stopped): stop serving it."""
        log.info("table %s: closed (%s); letting it go", table_id, status)
        with contextlib.suppress(Exception):
            await self._release(table_id)

    async def lost(self, table_id: str) -> None:
        """Another process owns this table now: stop serving it here."""
        log.warning("table %s: another server process owns it now; handing it over", table_id)
        self.owned.discard(table_id)
        self._deaf.discard(table_id)
        with contextlib.suppress(Exception):
            await self.unsubscribe(f"gf:t:{table_id}:in")
        with contextlib.suppress(Exception):
            await self.locks.unlock(table_id)

    async def _claimer(self) -> None:
        """Take over live tables that lost their owner; let go of archived ones; forget
        relays that stopped saying they are there."""
        failing = False
        while True:
            await asyncio.sleep(self.claim_every)
            try:
                await self._claim_round()
            except asyncio.CancelledError:
                raise
            except Exception as err:
                stop_if_cancelled()
                # Once per outage (the database away), not once a second.
                if not failing:
                    every = self.claim_every
                    log.warning("cluster: claiming tables failed (%s); retrying every %g s", err, every, exc_info=err)
                failing = True
            else:
                if failing:
                    log.warning("cluster: taking over tables works again")
                failing = False

    # ------------------------------------------------------------------
    # Sockets per client, counted over every process
    # ------------------------------------------------------------------
    async def admit_socket(self, client: str, cap: int) -> str | None:
        """Count a new socket of ``client`` against ``cap`` over all processes: its lease
        (to give back with :meth:`release_socket`), ``""`` when it is refused, or None when
        Redis cannot count (then only this process's count applies)."""
        member = f"{self.node}:{secrets.token_hex(6)}"
        now = time.time()
        try:
            admitted = await self.redis.eval(
                ADMIT_SOCKET, 1, f"gf:sk:{client}", now, cap, now + SOCKET_LEASE, member, int(2 * SOCKET_LEASE)
            )
        except RedisError:
            return None
        if not admitted:
            return ""
        self._sockets[member] = client
        return member

    async def release_socket(self, member: str | None) -> None:
        client = self._sockets.pop(member, None) if member else None
        if member and client is not None:
            with contextlib.suppress(RedisError):  # if Redis is away, the lease runs out by itself
                await self.redis.zrem(f"gf:sk:{client}", member)

    async def _renew_sockets(self) -> None:
        """Keep this process's sockets counted; a dead process's run out within a lease."""
        if not self._sockets:
            return
        expiry = time.time() + SOCKET_LEASE
        async with self.redis.pipeline(transaction=False) as pipe:
            for member, client in self._sockets.items():
                pipe.zadd(f"gf:sk:{client}", {member: expiry}, xx=True)
            await pipe.execute()

    async def _claim_round(self) -> None:
        manager = self.manager
        if not await self.locks.alive():
            # The database dropped our connection, and our locks with it: every table we hold
            # may be another's now. Let them all go (their clients reconnect), then start over.
            log.warning("cluster: the lock connection was lost; handing over %d tables", len(self.owned))
            for table_id in list(self.owned):
                table = manager.tables.get(table_id)
                if table is not None:
                    await manager.hand_over(table)
            self.owned.clear()
            self._deaf.clear()
            await self.locks.reconnect()
        for table_id in list(self.owned):
            if table_id not in manager.tables and table_id not in self._creating:  # archived or expired
                await self._release(table_id)
        for table_id in list(self._deaf):  # owned while Redis was away: try to hear it again
            await self._listen(table_id)
        orphans = [t for t in await manager.store.live_ids() if t not in manager.tables]
        held = await self.locks.held() if orphans else set()
        for table_id in orphans:
            if lock_key(table_id) in held or not await self._try_own(table_id):
                continue
            table = await manager.adopt(table_id)
            if table is None:
                await self._release(table_id)
                continue
            log.info("table %s: taken over by process %s", table_id, self.node)
            self.publish(f"gf:t:{table_id}:ctl", {"op": "owner", "node": self.node})
        stale = time.monotonic() - 3 * self.heartbeat
        for (table_id, node), seen in list(self._seen.items()):
            if seen < stale:
                del self._seen[(table_id, node)]
                table = manager.tables.get(table_id)
                if table is not None:
                    table.watched.pop(node, None)
                    await manager.remote_presence(table, node, {})
        for relay in list(self.relays.values()):
            relay.announce()
            relay.chase(self.ask_timeout)
        if self._reading is not None and self._reading.done():
            # Never meant to end before close(): a spurious cancellation or a bug ended it.
            ended = "cancelled" if self._reading.cancelled() else repr(self._reading.exception())
            await self._listen_again(f"its reader stopped ({ended})")
        elif time.monotonic() >= self._check_at and not self.redis_down:
            self._check_at = time.monotonic() + self.heartbeat
            with contextlib.suppress(RedisError):
                await self._check_hearing()
        if time.monotonic() >= self._renew_at:
            self._renew_at = time.monotonic() + SOCKET_LEASE / 3
            with contextlib.suppress(RedisError):
                await self._renew_sockets()

    # ------------------------------------------------------------------
    # Subscriptions
    # ------------------------------------------------------------------
    async def subscribe(self, *channels: str) -> None:
        async with self._pubsub_lock:
            await self.pubsub.subscribe(*channels)

    async def unsubscribe(self, *channels: str) -> None:
        async with self._pubsub_lock:
            await self.pubsub.unsubscribe(*channels)

    def _channels(self) -> set[str]:
        """Every channel this process should hear: its own, its tables' requests, its relays'."""
        wanted = {f"gf:n:{self.node}"}
        wanted.update(f"gf:t:{t}:in" for t in self.owned if t not in self._deaf)
        for relay in self.relays.values():
            wanted.update(relay.channels())
        return wanted

    async def _check_hearing(self) -> None:
        """Make sure this process still hears Redis. redis-py resubscribes by itself after a
        reconnect, but a subscription can still be lost without an error (a connection broken
        mid-command), or the reading stop; nothing then tells us, and a relayed player would
        wait for good. So: the last message this process sent itself must have come back; it
        sends another, which Redis must deliver to one subscriber; and each table it owns must
        have its requests heard. Otherwise it listens again, on a new connection."""
        now = time.monotonic()
        if self._echo is not None and now - self._echo[1] > 2 * self.heartbeat:
            return await self._listen_again("its own messages no longer come back")
        if self._echo is None:
            token = secrets.token_hex(4)
            self._echo = (token, now)  # before sending: it may come back before publish returns
            try:
                heard = await self.redis.publish(f"gf:n:{self.node}", json.dumps({"op": "echo", "token": token}))
            except BaseException:
                self._echo = None
                raise
            if not heard:
                return await self._listen_again(f"Redis no longer sends it gf:n:{self.node}")
        missing = await self._unheard(self._must_hear())
        if missing:
            # A subscription sent a moment ago may not have reached Redis yet: look once more.
            await asyncio.sleep(0.5)
            missing = await self._unheard([c for c in missing if c in self._must_hear()])
        if missing:
            await self._listen_again(f"Redis no longer sends it {', '.join(missing)}")

    def _must_hear(self) -> list[str]:
        """The requests of the tables this process owns: nobody else subscribes to them, so
        Redis's count of their subscribers tells whether it still sends them here."""
        return [f"gf:t:{t}:in" for t in sorted(self.owned - self._deaf)]

    async def _unheard(self, channels: list[str]) -> list[str]:
        if not channels:
            return []
        counts = await self.redis.pubsub_numsub(*channels)
        return [c.decode() if isinstance(c, bytes) else str(c) for c, n in counts if n == 0]

    async def _listen_again(self, why: str) -> None:
        """A new subscribing connection with every channel, read by a new reader, then resync
        as after an outage: whatever was published meanwhile was lost."""
        log.warning("cluster: this process is not hearing Redis (%s); listening again", why)
        self._echo = None
        if self._reading is not None:
            self._reading.cancel()
            # asyncio.wait, which raises nothing of the reader's: wait_for under suppress(BaseException)
            # also swallowed this task's own cancellation (close() stopping it meanwhile), and it went
            # on to start a reader close() never stopped, which hung the event loop's shutdown.
            await asyncio.wait({self._reading}, timeout=5)
        async with self._pubsub_lock:
            old, self.pubsub = self.pubsub, self.redis.pubsub(ignore_subscribe_messages=True)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(old.aclose(), 5)
            self._reading = asyncio.create_task(self._reader())
            await self.pubsub.subscribe(*sorted(self._channels()))
        self._resync_all()

    def _resync_all(self) -> None:
        # Both sides ask, as either may be back first: a relay's request for a full update is
        # lost if the owner has not subscribed again yet, and then the owner's call reaches it.
        for relay in list(self.relays.values()):
            relay.resync()
        for table_id in self.owned:
            self.publish(f"gf:t:{table_id}:ctl", {"op": "owner", "node": self.node})

    # ------------------------------------------------------------------
    # Messages
    # ------------------------------------------------------------------
    def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Queue a message; one publisher sends them in order."""
        self._outbox.put_nowait((channel, json.dumps(message)))

    async def _publisher(self) -> None:
        while True:
            channel, data = await self._outbox.get()
            try:
                await self.redis.publish(channel, data)
            except Exception as err:
                stop_if_cancelled()
                # Lost. A table's update lost is made good by telling its relays to resync once
                # publishing works again; a relay's lost request for a full update, by asking again.
                parts = channel.split(":")
                if parts[1] == "t" and parts[2] in self.owned and parts[3] in ("out", "ctl"):
                    self._unsent.add(parts[2])
                if self._quiet.allow("publish"):
                    log.warning("cluster: publishing on %s failed: %s", channel, err)
            else:
                while self._unsent:
                    table_id = self._unsent.pop()
                    if table_id in self.owned:
                        self.publish(f"gf:t:{table_id}:ctl", {"op": "owner", "node": self.node})

    def publish_update(self, table_id: str, key: str, update: dict[str, Any]) -> None:
        self.publish(f"gf:t:{table_id}:out:{key}", update)

    async def _reader(self) -> None:
        while True:
            try:
                # A short wait, as a subscription waits for the lock meanwhile.
                async with self._pubsub_lock:
                    message = await self.pubsub.get_message(timeout=0.1)
            except asyncio.CancelledError:
                raise
            except Exception as err:
                stop_if_cancelled()
                if not self.redis_down:
                    log.warning("cluster: Redis cannot be read (%s); relayed play waits until it is back", err)
                self.redis_down = True
                await asyncio.sleep(1.0)
                continue
            if self.redis_down:
                # redis-py has reconnected and subscribed again; what was published meanwhile is lost.
                self.redis_down = False
                self._check_at, self._echo = 0.0, None  # and make sure it sends us everything again
                log.warning("cluster: Redis is back; %d relayed tables resync", len(self.relays))
                self._resync_all()
            if message is None or message.get("type") != "message":
                if message is None and not self.pubsub.subscribed:
                    await asyncio.sleep(0.05)  # get_message returns at once with no subscription
                continue
            channel = message["channel"].decode()
            try:
                data = json.loads(message["data"])
                self._dispatch(channel, data)
            except Exception:
                # One malformed message must not silence this process for good.
                log.exception("cluster: a message on %s could not be handled", channel)

    def _dispatch(self, channel: str, data: dict[str, Any]) -> None:
        parts = channel.split(":")
        if parts[1] == "n":
            if data.get("op") == "echo":
                if self._echo is not None and data.get("token") == self._echo[0]:
                    self._echo = None
            elif data.get("op") == "reply" and (fut := self._pending.pop(data.get("req", ""), None)) is not None:
                if not fut.done():
                    fut.set_result(data)
            elif data.get("op") == "deliver" and (relay := self.relays.get(data.get("table", ""))) is not None:
                relay.deliver(data["conn"], data["message"])
            return
        table_id, kind = parts[2], parts[3]
        if kind == "in":
            task = asyncio.create_task(self._serve(table_id, data))
            self._handlers.add(task)
            task.add_done_callback(self._handlers.discard)
        elif (relay := self.relays.get(table_id)) is not None:
            if kind == "out":
                relay.update(parts[4], data)
            elif kind == "ctl":
                relay.resync()

    # ------------------------------------------------------------------
    # The owner's side
    # ------------------------------------------------------------------
    async def _serve(self, table_id: str, request: dict[str, Any]) -> None:
        manager = self.manager
        table = manager.tables.get(table_id)
        node, req, op = request.get("node", ""), request.get("req", ""), request.get("op")

        def reply(**result: Any) -> None:
            self.publish(f"gf:n:{node}", {"op": "reply", "req": req, **result})

        if table is None:
            return reply(error={"kind": "moving"})
        try:
            if op == "presence":
                self._seen[(table_id, node)] = time.monotonic()
                keys = request.get("seats", {})
                table.watched[node] = set(keys)
                await manager.remote_presence(table, node, {int(k): int(n) for k, n in keys.items() if k != PUBLIC})
            elif op == "full":
                seat = request.get("seat")
                update = manager.full_update(table, seat)
                self.publish(
                    f"gf:n:{node}", {"op": "deliver", "table": table_id, "conn": request["conn"], "message": update}
                )
            elif op == "move":
                await manager.submit(
                    table, request["seat"], request["move"], request.get("seq"), lambda seq: reply(ack=seq)
                )
            elif op == "resume":
                await manager.take_back(table, request["seat"])
                reply(ok=True)
            elif op == "claim":
                token = await manager.claim(
                    table,
                    request["seat"],
                    request.get("name", ""),
                    rematch=bool(request.get("rematch")),
                    player_id=request.get("player_id"),
                    token=request.get("token"),
                )
                reply(token=token)
            elif op == "chat":
                manager.chat(table, request["seat"], request.get("text"), request.get("phrase"))
                reply(ok=True)
            elif op == "summary":
                reply(summary=table.summary())
            elif op == "view":
                reply(view=table.state.observation(None))
        except RuleError as err:
            reply(error={"kind": "rule", "rule": err.rule, "message": err.message, "reason": err.reason,
                         "params": err.params})
        except Exception as err:
            from .tables import TableError

            if isinstance(err, TableError):
                reply(error={"kind": "table", "code": err.code, "message": str(err), "status": err.status})
            else:
                log.exception("table %s: a relayed %s failed", table_id, op)
                reply(error={"kind": "table", "code": "server", "message": "that could not be done", "status": 500})

    # ------------------------------------------------------------------
    # The relay's side
    # ------------------------------------------------------------------
    async def ask(self, table_id: str, op: str, **payload: Any) -> dict[str, Any]:
        """Ask the table's owner to do something; its answer. Raises :class:`Moving` when
        the table has no owner right now, RuleError and TableError as the owner did."""
        req = secrets.token_hex(8)
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[dict[str, Any]] = loop.create_future()
        self._pending[req] = fut
        message = json.dumps({"op": op, "node": self.node, "req": req, **payload})
        began = loop.time()
        try:
            pause = 0.02
            while await self.redis.publish(f"gf:t:{table_id}:in", message) == 0:
                # Nobody listens for the table this moment. Its owner may be subscribing still (a table
                # created or taken over a moment ago, on a busy machine), so ask again for a little
                # while before telling the client to; or it died, and the handover takes longer.
                if loop.time() - began + pause > min(self.listen_patience, self.ask_timeout):
                    raise Moving(table_id)
                await asyncio.sleep(pause)
                pause = min(2 * pause, 0.5)
            answer = await asyncio.wait_for(fut, self.ask_timeout - (loop.time() - began))
        except (TimeoutError, RedisError):
            raise Moving(table_id) from None
        finally:
            self._pending.pop(req, None)
        error = answer.get("error")
        if error is None:
            return answer
        if error["kind"] == "moving":
            raise Moving(table_id)
        if error["kind"] == "rule":
            raise RuleError(error["rule"], error["message"], error.get("reason"), **(error.get("params") or {}))
        from .tables import TableError

        raise TableError(error["code"], error["message"], error.get("status", 409))

    def tell(self, table_id: str, op: str, **payload: Any) -> None:
        """A request that needs no answer (presence, a full update delivered on the side)."""
        self.publish(f"gf:t:{table_id}:in", {"op": op, "node": self.node, "req": "", **payload})

    def relay(self, table_id: str) -> Relay:
        if table_id not in self.relays:
            self.relays[table_id] = Relay(self, table_id)
        return self.relays[table_id]


class Relay:
    """The sockets this process holds for one table that another process owns."""

    def __init__(self, cluster: Cluster, table_id: str) -> None:
        self.cluster = cluster
        self.table_id = table_id
        self.conns: dict[str, Any] = {}  # id -> the session (an Outbox with a seat)
        self.ready: dict[str, int] = {}  # id -> the seq of its full update: later updates only
        self.keys: dict[str, int] = {}  # seat key -> sockets
        self.asked: dict[str, float] = {}  # id -> when its full update was last asked for, monotonic

    async def add(self, conn: Any) -> None:
        cid = secrets.token_hex(6)
        conn.relay_id = cid
        self.conns[cid] = conn
        key = seat_key(conn.seat)
        # Counted before subscribing, so that a connection made anew meanwhile subscribes it too;
        # subscribed for every socket (Redis takes a repeat as a no-op), so that none can miss
        # updates because another socket's subscription is still on its way.
        self.keys[key] = self.keys.get(key, 0) + 1
        try:
            await self.cluster.subscribe(f"gf:t:{self.table_id}:out:{key}", f"gf:t:{self.table_id}:ctl")
        except Exception:  # Redis away, or the connection broke under the subscription
            await self.remove(conn)
            raise Moving(self.table_id) from None
        self.announce()
        self.ask_full(cid)

    async def remove(self, conn: Any) -> None:
        cid = getattr(conn, "relay_id", None)
        if cid is None or self.conns.pop(cid, None) is None:
            return
        self.ready.pop(cid, None)
        self.asked.pop(cid, None)
        key = seat_key(conn.seat)
        self.keys[key] -= 1
        if self.keys[key] == 0:
            del self.keys[key]
            channels = [f"gf:t:{self.table_id}:out:{key}"]
            if not self.keys:
                channels.append(f"gf:t:{self.table_id}:ctl")
            with contextlib.suppress(Exception):  # Redis away: resubscribing on its return is harmless
                await self.cluster.unsubscribe(*channels)
        self.announce()
        if not self.conns:
            self.cluster.relays.pop(self.table_id, None)

    def channels(self) -> set[str]:
        if not self.keys:
            return set()
        return {f"gf:t:{self.table_id}:ctl", *(f"gf:t:{self.table_id}:out:{key}" for key in self.keys)}

    def ask_full(self, cid: str) -> None:
        self.asked[cid] = time.monotonic()
        self.cluster.tell(self.table_id, "full", seat=self.conns[cid].seat, conn=cid)

    def chase(self, patience: float) -> None:
        """Ask again for the full updates that have not come: a request or its answer lost
        to Redis would otherwise leave a socket waiting for good."""
        stale = time.monotonic() - patience
        for cid in list(self.conns):
            if cid not in self.ready and self.asked.get(cid, 0.0) < stale:
                self.ask_full(cid)

    def announce(self) -> None:
        """Tell the owner how many sockets this process holds at each seat."""
        self.cluster.tell(self.table_id, "presence", seats=dict(self.keys))

    def deliver(self, cid: str, message: dict[str, Any]) -> None:
        conn = self.conns.get(cid)
        if conn is not None:
            self.ready[cid] = message["seq"]
            conn.send(message)

    def update(self, key: str, message: dict[str, Any]) -> None:
        for cid, conn in list(self.conns.items()):
            # Until its full update arrives a socket gets nothing: the full one holds it all.
            ready = self.ready.get(cid)
            if ready is None or seat_key(conn.seat) != key:
                continue
            chat = message.get("type") == "chat"  # not a step: nothing to order it by
            if chat or message["seq"] > ready or (message["seq"] == ready and not message["events"]):
                conn.send(message)

    def resync(self) -> None:
        """A new owner: say who is here again, and get every socket a full update."""
        self.announce()
        for cid in list(self.conns):
            self.ready.pop(cid, None)
            self.ask_full(cid)

