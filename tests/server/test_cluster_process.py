"""One process of a cluster, in the test's event loop, on the real Redis the cluster tests use:
it notices when it stops hearing Redis without being told, nothing stays lost, and it keeps
the tables it is creating."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

pytest.importorskip("redis")

from databases import fresh_postgres_database, redis_or_skip
from redis.asyncio import Redis

from goldfields.server.cluster import Cluster, Locks

# The locks' database where no table is locked: asked only whether it is there, from its own thread.
LOCKS = "sqlite://?check_same_thread=false"
PATIENCE = 60.0  # seconds to wait for what must happen: generous, as CI machines are busy


class NoTables:
    """The table manager of a process that serves no table of its own."""

    def __init__(self) -> None:
        self.tables: dict[str, Any] = {}

    class store:  # the manager's store attribute
        @staticmethod
        async def live_ids() -> list[str]:
            return []

    async def restore(self, owns: Callable[[str], Awaitable[bool]]) -> None:
        return None


class Socket:
    """A relayed player's socket: what the relay passes it."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.sent: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)


async def until(check: Callable[[], Awaitable[bool]], what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PATIENCE
    while not await check():
        assert loop.time() < deadline, what
        await asyncio.sleep(0.05)


async def subscribers(redis: Redis, channel: str) -> int:
    return int((await redis.pubsub_numsub(channel))[0][1])


@contextlib.asynccontextmanager
async def running(locks: str = LOCKS, **settings: Any) -> AsyncIterator[tuple[Cluster, Redis]]:
    """The process, started, and a connection of the test's own to the same Redis."""
    url = redis_or_skip()
    cluster = Cluster(NoTables(), url, locks, claim_every=0.05, **settings)  # type: ignore[arg-type]
    probe = Redis.from_url(url)
    await cluster.start()
    try:
        yield cluster, probe
    finally:
        await cluster.close()
        await probe.aclose()


async def hears(cluster: Cluster, probe: Redis, req: str) -> None:
    """An answer to a request of the process's reaches it."""
    answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    cluster._pending[req] = answer
    reply = {"op": "reply", "req": req, "ok": True}
    await until(lambda: _published(probe, f"gf:n:{cluster.node}", reply), "nobody heard the process's channel")
    assert (await asyncio.wait_for(answer, PATIENCE))["ok"] is True


def test_a_subscription_redis_dropped_behind_the_process_s_back_is_found_and_heard_again(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def scenario() -> None:
        async with running(heartbeat=0.2) as (cluster, probe):
            own = f"gf:n:{cluster.node}"
            await until(lambda: _is(subscribers(probe, own), 1), "the process never subscribed to its channel")
            # Unsubscribed on Redis's side while redis-py still counts the channel as its own, as a
            # connection broken in the middle of a command can leave it: nothing reports it.
            async with cluster._pubsub_lock:
                assert cluster.pubsub.connection is not None
                await cluster.pubsub.connection.send_command("UNSUBSCRIBE", own)
            assert own.encode() in cluster.pubsub.channels
            await until(lambda: _now("not hearing Redis" in caplog.text), "the lost subscription went unnoticed")
            await until(lambda: _is(subscribers(probe, own), 1), "the lost subscription was never made again")
            await hears(cluster, probe, "r1")

    with caplog.at_level(logging.WARNING, logger="goldfields.server"):
        asyncio.run(scenario())


def test_a_reader_that_stopped_is_started_again(caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> None:
        async with running() as (cluster, probe):
            first = cluster._reading
            assert first is not None
            first.cancel()  # as a cancellation leaking out of a library would end it
            await until(lambda: _now(cluster._reading is not first), "the stop went unnoticed")
            assert "its reader stopped (cancelled)" in caplog.text
            await hears(cluster, probe, "r2")

    with caplog.at_level(logging.WARNING, logger="goldfields.server"):
        asyncio.run(scenario())


def test_a_relayed_socket_whose_full_update_never_came_asks_again_and_gets_it() -> None:
    async def scenario() -> None:
        # The probe plays the table's owner, as far as the process can tell.
        async with running(ask_timeout=0.5) as (cluster, owner):
            requests = owner.pubsub(ignore_subscribe_messages=True)
            await requests.subscribe("gf:t:t1:in")
            socket = Socket(seat=1)
            await cluster.relay("t1").add(socket)
            asked: list[dict[str, Any]] = []

            async def asked_twice() -> bool:
                message = await requests.get_message(timeout=0.1)
                if message is not None and json.loads(message["data"])["op"] == "full":
                    asked.append(json.loads(message["data"]))
                return len(asked) >= 2

            # The first request is lost (the owner never answers it); the relay asks again.
            await until(asked_twice, "the relay never asked again for the socket's full update")
            assert asked[0]["conn"] == asked[1]["conn"] and asked[1]["seat"] == 1
            full = {"type": "update", "seq": 7, "events": [], "view": {}}
            deliver = {"op": "deliver", "table": "t1", "conn": asked[1]["conn"], "message": full}
            await owner.publish(f"gf:n:{cluster.node}", json.dumps(deliver))
            await until(lambda: _now(bool(socket.sent)), "the full update never reached the socket")
            assert socket.sent == [full]
            # Then the owner's updates on the seat's channel reach it.
            step = {"type": "update", "seq": 8, "events": ["e"], "view": {}}
            await owner.publish("gf:t:t1:out:1", json.dumps(step))
            await until(lambda: _now(len(socket.sent) == 2), "the next update never reached the socket")
            await requests.aclose()

    asyncio.run(scenario())


def test_an_update_lost_on_its_way_out_makes_the_relays_resync() -> None:
    class FailingOnce:
        """Redis for the publishing process: the first publish is lost, as on a stale connection."""

        def __init__(self) -> None:
            self.sent: list[tuple[str, dict[str, Any]]] = []
            self.failed = False

        async def publish(self, channel: str, data: str) -> int:
            if not self.failed:
                self.failed = True
                raise ConnectionError("Connection closed by server.")
            self.sent.append((channel, json.loads(data)))
            return 1

    async def scenario() -> list[tuple[str, dict[str, Any]]]:
        # Redis connects lazily; the fake takes its place before anything is sent.
        cluster = Cluster(NoTables(), "redis://127.0.0.1:1/0", "sqlite://")  # type: ignore[arg-type]
        fake = FailingOnce()
        cluster.redis = fake  # type: ignore[assignment]
        cluster.owned.add("t1")
        publisher = asyncio.create_task(cluster._publisher())
        cluster.publish_update("t1", "1", {"seq": 3})  # lost
        cluster.publish_update("t1", "1", {"seq": 4})
        await until(lambda: _now(len(fake.sent) >= 2), "the owner never called its relays to resync")
        publisher.cancel()
        return fake.sent

    sent = asyncio.run(scenario())
    assert sent[0] == ("gf:t:t1:out:1", {"seq": 4})
    assert sent[1] == ("gf:t:t1:ctl", {"op": "owner", "node": sent[1][1]["node"]})


def test_a_table_being_created_stays_locked_by_its_creator_until_it_is_in_memory() -> None:
    # The claimer let go of every owned table not yet in memory, so one being stored was unlocked,
    # another process adopted it, and a player here waited at a copy nobody played (a CI stall).
    with fresh_postgres_database() as db:

        async def scenario() -> None:
            async with running(locks=db) as (cluster, _):
                other = Locks(db)  # another process
                try:
                    async with cluster.creating("t1"):
                        await cluster._claim_round()  # comes while the table is being stored
                        assert "t1" in cluster.owned
                        assert not await other.try_lock("t1")
                    with pytest.raises(ValueError):
                        async with cluster.creating("t2"):
                            raise ValueError("the database refused the table")
                    assert "t2" not in cluster.owned
                    assert await other.try_lock("t2")
                finally:
                    other.close()

        asyncio.run(scenario())


async def _is(value: Awaitable[int], expected: int) -> bool:
    return await value == expected


async def _published(redis: Redis, channel: str, message: dict[str, Any]) -> bool:
    return bool(await redis.publish(channel, json.dumps(message)))


async def _now(value: bool) -> bool:
    return value


def test_a_process_owns_a_table_only_while_the_database_says_it_holds_its_lock() -> None:
    # Closing a game as abandoned publishes its record, every card in it: a process whose lock
    # connection was dropped (the table may be another's now) must not, whatever it remembers.
    with fresh_postgres_database() as db:

        async def scenario() -> None:
            async with running(locks=db) as (cluster, _):
                other = Locks(db)  # another process
                try:
                    assert await cluster.locks.try_lock("t1")
                    cluster.owned.add("t1")
                    assert await cluster.still_owns("t1") and not await other.holds("t1")
                    assert not await cluster.still_owns("t2")  # never taken
                    await other.try_lock("t2")
                    cluster.owned.add("t2")  # a stale belief: another process holds it
                    assert not await cluster.still_owns("t2")
                    cluster.locks._connection.invalidate()  # the lock connection dropped
                    assert not await cluster.still_owns("t1")
                finally:
                    other.close()

        asyncio.run(scenario())
