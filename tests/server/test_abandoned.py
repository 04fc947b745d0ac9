"""Games nobody comes back to, and how many tables one address may hold, in a TableManager
run in process with hand-driven clocks: the rules exactly, on any machine, whatever its load."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path
from typing import Any

import pytest
from databases import fresh_postgres_database
from sqlalchemy import create_engine, select, text
from sqlalchemy.exc import DBAPIError
from test_clocks import Client, Clocks

from goldfields.server.models import StepRow, TableRow
from goldfields.server.store import CapReached, Caps, Store, TableClosed
from goldfields.server.tables import LiveTable, Settings, TableError, TableManager

DAY = 86_400.0
AGAINST_A_BOT = {"game": "digging", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}


async def solo_table(tmp_path: Path, clocks: Clocks, url: str | None = None) -> tuple[TableManager, LiveTable]:
    manager = TableManager(Store(url or f"sqlite:///{tmp_path / 'g.db'}"), Settings(bot_delay=3600.0),
                           clock=clocks.monotonic, wall=clocks.wall)  # fmt: skip
    table, _token = await manager.create(AGAINST_A_BOT, claim=0, player_name="ann")
    return manager, table


def test_a_game_is_abandoned_a_day_after_its_last_player_left_not_after_its_last_move(tmp_path: Path) -> None:
    async def run() -> None:
        clocks = Clocks()
        manager, table = await solo_table(tmp_path, clocks)
        ann = Client(0)
        await manager.connect(table, ann)
        clocks.wall_time += 2 * DAY  # Ann looks at her cards for two days without moving
        await manager.sweep()
        assert table.status == "playing"
        await manager.disconnect(table, ann)
        clocks.wall_time += DAY - 1
        await manager.sweep()
        assert table.status == "playing" and table.id in manager.tables
        clocks.wall_time += 1
        await manager.sweep()
        assert table.status == "abandoned" and table.id not in manager.tables
        stored = await manager.store.load_table(table.id)
        assert stored is not None and stored.row.status == "abandoned"
        await manager.shutdown()

    asyncio.run(run())


def test_a_player_who_comes_back_while_the_sweep_waits_for_the_table_keeps_the_game(tmp_path: Path) -> None:
    async def run() -> None:
        clocks = Clocks()
        manager, table = await solo_table(tmp_path, clocks)
        clocks.wall_time += 2 * DAY  # nobody has come: the sweep picks the table
        async with table.lock:  # as a connection being handled holds it
            sweep = asyncio.create_task(manager.sweep())
            for _ in range(10):
                await asyncio.sleep(0)  # the sweep runs up to the lock it waits for
            assert not sweep.done() and table.lock._waiters  # waiting for the table, its choice made
            table.seats[0].connections += 1  # Ann is back, under the lock
            table.seen_at = clocks.wall()
        await sweep
        assert table.status == "playing" and table.id in manager.tables
        stored = await manager.store.load_table(table.id)
        assert stored is not None and stored.row.status == "playing"
        await manager.shutdown()

    asyncio.run(run())


def test_a_connection_that_fails_to_join_does_not_leave_its_seat_looking_taken(tmp_path: Path) -> None:
    # A failure while joining (the database, say) means no disconnect will ever count the
    # socket out: the seat must not stay counted, or it never gets a stand-in and never goes idle.
    async def run() -> None:
        clocks = Clocks()
        manager, table = await solo_table(tmp_path, clocks)

        async def broken(_table: LiveTable) -> None:
            raise DBAPIError("SELECT", {}, Exception("the database went away"))

        real, manager._advance = manager._advance, broken  # type: ignore[method-assign]
        with pytest.raises(DBAPIError):
            await manager.connect(table, Client(0))
        assert table.seats[0].connections == 0 and not table.seats[0].present
        manager._advance = real  # type: ignore[method-assign]
        await manager.shutdown()

    asyncio.run(run())


def test_a_restart_gives_the_players_of_a_paused_game_their_time_again(tmp_path: Path) -> None:
    async def run() -> None:
        clocks = Clocks()
        manager, table = await solo_table(tmp_path, clocks)
        await manager.shutdown()
        clocks.wall_time += 3 * DAY  # the server was down for three days
        again = TableManager(Store(f"sqlite:///{tmp_path / 'g.db'}"), Settings(bot_delay=3600.0),
                             clock=clocks.monotonic, wall=clocks.wall)  # fmt: skip
        await again.restore()
        assert again.tables[table.id].status == "playing"
        clocks.wall_time += DAY
        await again.sweep()
        assert table.id not in again.tables
        await again.shutdown()

    asyncio.run(run())


def test_an_address_s_tables_count_after_a_restart_and_its_address_goes_when_they_close(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'g.db'}"
    settings = Settings(rate_limits=True, max_tables_per_client=2, bot_delay=3600.0)
    waiting = {"game": "digging", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}

    async def run() -> None:
        manager = TableManager(Store(url), settings)
        made = [(await manager.create(waiting, client="198.51.100.7"))[0] for _ in range(2)]
        await manager.shutdown()
        again = TableManager(Store(url), settings)
        await again.restore()
        with pytest.raises(TableError) as refused:
            await again.create(waiting, client="198.51.100.7")
        assert refused.value.code == "too_many_tables"
        assert {(await again.store.load_table(t.id)).row.creator for t in made} == {"198.51.100.7"}
        # Closed, the table forgets the address, and the address may create again.
        await again.store.set_closed([made[0].id], "waiting", "expired", 0.0)
        assert (await again.store.load_table(made[0].id)).row.creator is None
        assert await again.store.count_created("198.51.100.7") == 1
        # An address longer than the column (a proxy's odd header) is cut to it, not refused.
        odd = "x" * 300
        await again.create(waiting, client=odd)
        assert await again.store.count_created(odd[:64]) == 1
        await again.shutdown()

    asyncio.run(run())


def test_an_ipv6_client_s_network_is_kept_beside_its_address_and_goes_with_it(tmp_path: Path) -> None:
    settings = Settings(rate_limits=True, max_tables_per_client=2, bot_delay=3600.0)
    waiting = {"game": "digging", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}

    async def run() -> None:
        manager = TableManager(Store(f"sqlite:///{tmp_path / 'g.db'}"), settings)
        made = [(await manager.create(waiting, client=f"2001:db8:7:{i}::/64"))[0] for i in (1, 2)]
        rows = [(await manager.store.load_table(t.id)).row for t in made]
        assert [(r.creator, r.creator_network) for r in rows] == [
            ("2001:db8:7:1::/64", "2001:db8:7::/48"), ("2001:db8:7:2::/64", "2001:db8:7::/48")]  # fmt: skip
        assert await manager.store.count_in_network("2001:db8:7::/48") == 2
        await manager.store.set_closed([made[0].id], "waiting", "expired", 0.0)
        closed = (await manager.store.load_table(made[0].id)).row
        assert (closed.creator, closed.creator_network) == (None, None)
        assert await manager.store.count_in_network("2001:db8:7::/48") == 1
        await manager.shutdown()
        manager.store.close()

    asyncio.run(run())


def test_creations_under_way_at_once_count_against_the_address(tmp_path: Path) -> None:
    async def run() -> None:
        manager = TableManager(Store(f"sqlite:///{tmp_path / 'g.db'}"),
                               Settings(rate_limits=True, max_tables_per_client=2, bot_delay=3600.0))  # fmt: skip
        asks = [manager.create(AGAINST_A_BOT, client="198.51.100.7") for _ in range(5)]
        results = await asyncio.gather(*asks, return_exceptions=True)
        refused = [r for r in results if isinstance(r, TableError)]
        assert len(refused) == 3 and {r.code for r in refused} == {"too_many_tables"}
        assert sum(t.client == "198.51.100.7" for t in manager.tables.values()) == 2
        await manager.create(AGAINST_A_BOT, client="203.0.113.9")  # another address is not held back
        await manager.shutdown()

    asyncio.run(run())


def test_a_game_is_not_closed_over_a_step_this_process_does_not_know(tmp_path: Path) -> None:
    # Another process took the table over and moved: a step past the ones this one holds.
    # Closing it would publish the record of a game still being played, every card in it.
    async def run() -> None:
        clocks = Clocks()
        manager, table = await solo_table(tmp_path, clocks)
        await manager.store.append_step(table.id, table.seq + 1, {"move": "another process's"}, clocks.wall())
        clocks.wall_time += 2 * DAY
        await manager.sweep()
        stored = await manager.store.load_table(table.id)
        assert stored is not None and stored.row.status == "playing" and stored.row.record is None
        (live,) = await manager.store.load_live(0.0, ids=[table.id])
        assert len(live.steps) == table.seq + 1  # nothing deleted
        await manager.shutdown()

    asyncio.run(run())


def test_a_table_handed_over_while_the_sweep_waits_for_it_is_not_closed(tmp_path: Path) -> None:
    async def run() -> None:
        clocks = Clocks()
        manager, table = await solo_table(tmp_path, clocks)
        clocks.wall_time += 2 * DAY
        async with table.lock:
            sweep = asyncio.create_task(manager.sweep())
            for _ in range(10):
                await asyncio.sleep(0)
            assert not sweep.done() and table.lock._waiters
            manager.tables.pop(table.id)  # as hand_over does: another process has it now
        await sweep
        stored = await manager.store.load_table(table.id)
        assert stored is not None and stored.row.status == "playing" and stored.row.record is None
        await manager.shutdown()

    asyncio.run(run())


def test_a_process_that_took_over_a_game_another_has_just_abandoned_closes_it_and_refuses_the_move(
    tmp_path: Path,
) -> None:
    # The old owner closed the game (its record, every card, is public now) as this process took
    # the table over: a player's move here must not be stored, and the game ends here too.
    url = f"sqlite:///{tmp_path / 'g.db'}"
    pair = {"game": "digger", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}

    async def run() -> None:
        clocks = Clocks()
        old = TableManager(Store(url), Settings(), clock=clocks.monotonic, wall=clocks.wall)
        table, _ = await old.create(pair)
        await old.claim(table, 0, "ann")
        await old.claim(table, 1, "bob")
        new = TableManager(Store(url), Settings(), clock=clocks.monotonic, wall=clocks.wall)
        await new.restore()
        taken = new.tables[table.id]
        ann = Client(0)
        await new.connect(taken, ann)
        assert await old.store.abandon(table.id, table.state.record(), table.seq, clocks.wall())
        with pytest.raises(TableError) as refused:
            await new.submit(taken, 0, "roll", None)
        assert (refused.value.code, refused.value.status) == ("abandoned", 410)
        assert taken.status == "abandoned" and table.id not in new.tables
        assert ann.messages[-1]["table"]["status"] == "abandoned"  # the player is told, not left waiting
        stored = await new.store.load_table(table.id)
        assert stored is not None and stored.row.status == "abandoned"
        assert await _steps(new.store, table.id) == []  # its record replaced them, and nothing came after
        await old.shutdown()
        await new.shutdown()
        old.store.close()
        new.store.close()

    asyncio.run(run())


async def _steps(store: Store, table_id: str) -> list[int]:
    return await store.run(lambda s: list(s.scalars(select(StepRow.seq).where(StepRow.table_id == table_id)
                                                    .order_by(StepRow.seq))))  # fmt: skip


class Pause:
    """Holds a store's transaction at a named point (Store.pauses) until the test lets it go."""

    def __init__(self, store: Store, point: str) -> None:
        self.reached, self.go = threading.Event(), threading.Event()
        store.pauses[point] = self._hold

    def _hold(self) -> None:
        self.reached.set()
        assert self.go.wait(120), "the test never let the transaction go"

    async def wait(self) -> None:
        assert await asyncio.to_thread(self.reached.wait, 120), "the transaction never reached its pause"

    def __enter__(self) -> Pause:
        return self

    def __exit__(self, *_: object) -> None:
        self.go.set()  # a failed test must not leave the store's thread held


async def _blocked_or_done(url: str, task: Awaitable[Any]) -> None:
    """Wait until ``task`` is done or a session of this database waits for a row lock: what it
    does once the other transaction holds the row (the event, with a generous timeout)."""
    engine = create_engine(url)
    query = text("SELECT count(*) FROM pg_stat_activity"
                 " WHERE datname = current_database() AND wait_event_type = 'Lock'")
    deadline = time.monotonic() + 120
    try:
        while not (isinstance(task, asyncio.Future) and task.done()):
            with engine.connect() as conn:
                if conn.execute(query).scalar():
                    return
            assert time.monotonic() < deadline, "neither blocked nor done"
            await asyncio.sleep(0.05)
    finally:
        engine.dispose()


@contextlib.asynccontextmanager
async def _two_owners(tmp_path: Path, url: str) -> AsyncIterator[tuple[LiveTable, Store, Store, float]]:
    """A game in play on PostgreSQL, its old owner's store and a new owner's: (table, old, new, now)."""
    clocks = Clocks()
    manager, table = await solo_table(tmp_path, clocks, url)
    new = Store(url)
    try:
        yield table, manager.store, new, clocks.wall()
    finally:
        await manager.shutdown()
        manager.store.close()
        new.close()


def test_a_step_stored_while_another_process_abandons_the_game_waits_and_is_refused(tmp_path: Path) -> None:
    # The old owner's abandon holds the table's row; the new owner's step comes meanwhile. It must
    # wait and then be refused: stored, it would go on with a game whose every card is published.
    async def run(url: str) -> None:
        async with _two_owners(tmp_path, url) as (table, old, new, now):
            with Pause(old, "abandon:locked") as pause:
                abandon = asyncio.ensure_future(old.abandon(table.id, table.state.record(), table.seq, now))
                await pause.wait()
                step = asyncio.ensure_future(new.append_step(table.id, table.seq + 1, {"move": "new owner's"}, now))
                await _blocked_or_done(url, step)
            assert await abandon
            with pytest.raises(TableClosed):
                await step
            stored = await new.load_table(table.id)
            assert stored is not None and stored.row.status == "abandoned"
            assert await _steps(new, table.id) == []

    with fresh_postgres_database() as url:
        asyncio.run(run(url))


def test_an_abandon_that_comes_while_another_process_stores_a_step_waits_and_keeps_the_game(tmp_path: Path) -> None:
    # The other way round: the new owner's step holds the row first; the old owner's abandon
    # waits for its commit, then sees the step and leaves the game in play.
    async def run(url: str) -> None:
        async with _two_owners(tmp_path, url) as (table, old, new, now):
            with Pause(new, "steps:locked") as pause:
                step = asyncio.ensure_future(new.append_step(table.id, table.seq + 1, {"move": "new owner's"}, now))
                await pause.wait()
                abandon = asyncio.ensure_future(old.abandon(table.id, table.state.record(), table.seq, now))
                await _blocked_or_done(url, abandon)
            await step
            assert not await abandon
            stored = await new.load_table(table.id)
            assert stored is not None and stored.row.status == "playing"
            assert (await _steps(new, table.id))[-1] == table.seq + 1

    with fresh_postgres_database() as url:
        asyncio.run(run(url))


def test_a_step_holds_its_tables_row_for_key_share_which_holds_up_an_abandon_but_no_other_update(
    tmp_path: Path,
) -> None:
    # The fence's lock is FOR KEY SHARE: an abandon's FOR UPDATE must wait for the step, but an
    # update of the row's other columns (what FOR NO KEY UPDATE stands for) must not. NOWAIT: a
    # lock that would wait fails at once, so nothing here waits on the clock.
    async def run(url: str) -> None:
        async with _two_owners(tmp_path, url) as (table, _old, new, now):
            engine = create_engine(url)
            row = {"id": table.id}
            try:
                with Pause(new, "steps:locked") as pause:
                    step = asyncio.ensure_future(new.append_step(table.id, table.seq + 1, {"move": "m"}, now))
                    await pause.wait()
                    with engine.connect() as conn:
                        with pytest.raises(DBAPIError) as waits:
                            conn.execute(text("SELECT id FROM tables WHERE id = :id FOR UPDATE NOWAIT"), row)
                        assert getattr(waits.value.orig, "sqlstate", None) == "55P03"  # lock_not_available
                        conn.rollback()
                        conn.execute(text("SELECT id FROM tables WHERE id = :id FOR NO KEY UPDATE NOWAIT"), row)
                        conn.execute(text("UPDATE tables SET updated_at = updated_at + 1 WHERE id = :id"), row)
                        conn.rollback()
            finally:
                engine.dispose()
            await step
            assert (await _steps(new, table.id))[-1] == table.seq + 1

    with fresh_postgres_database() as url:
        asyncio.run(run(url))


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_batch_of_steps_with_one_closed_table_stores_the_others_and_refuses_only_that_tables(
    tmp_path: Path, backend: str
) -> None:
    # The group commit stores steps of several tables in one transaction. One of them closed: the
    # batch stores nothing (no step of it is left half stored), then each step is stored alone,
    # and only the closed table's is refused.
    def table(table_id: str, status: str) -> TableRow:
        return TableRow(id=table_id, game="digging", config={}, secret="x" * 64, status=status, created_at=0.0)

    async def run(url: str) -> None:
        store = Store(url)
        try:
            await store.run(lambda s: s.add_all([table("live", "playing"), table("gone", "abandoned"),
                                                 table("also", "playing")]))  # fmt: skip
            tried: list[tuple[list[str], str]] = []
            insert_steps = store._insert_steps

            def spy(session: Any, rows: list[dict[str, Any]]) -> None:
                try:
                    insert_steps(session, rows)
                except Exception as err:
                    tried.append(([r["table_id"] for r in rows], type(err).__name__))
                    raise
                tried.append(([r["table_id"] for r in rows], "stored"))

            store._insert_steps = spy  # type: ignore[method-assign]
            outcomes = await asyncio.gather(
                *(store.append_step(t, 1, {"move": "m"}, 0.0) for t in ("live", "gone", "also")),
                return_exceptions=True,
            )
            assert outcomes[0] is None and outcomes[2] is None
            assert isinstance(outcomes[1], TableClosed)
            assert (outcomes[1].table_ids, outcomes[1].status) == (["gone"], "abandoned")
            assert tried == [(["live", "gone", "also"], "TableClosed"), (["live"], "stored"),
                             (["gone"], "TableClosed"), (["also"], "stored")]  # fmt: skip
            assert await _steps(store, "live") == [1] and await _steps(store, "also") == [1]
            assert await _steps(store, "gone") == []
        finally:
            store.close()

    if backend == "sqlite":
        asyncio.run(run(f"sqlite:///{tmp_path / 'g.db'}"))
    else:
        with fresh_postgres_database() as url:
            asyncio.run(run(url))


def test_a_holder_frozen_mid_transaction_is_ended_and_the_step_behind_it_goes_through(tmp_path: Path) -> None:
    # The old owner freezes while its abandon holds the table's row: PostgreSQL ends its
    # transaction after the hold limit (a second here), and the new owner's step, which waited
    # on the row, is stored; the game stays in play. Without the limit the step would wait for
    # as long as the frozen process's connection stood.
    async def run(url: str) -> None:
        async with _two_owners(tmp_path, url) as (table, old, new, now):
            old.hold_limit = "1s"
            with Pause(old, "abandon:locked") as pause:
                abandon = asyncio.ensure_future(old.abandon(table.id, table.state.record(), table.seq, now))
                await pause.wait()
                step = asyncio.ensure_future(new.append_step(table.id, table.seq + 1, {"move": "new owner's"}, now))
                await asyncio.wait_for(step, 120)  # the event: stored once the frozen holder is ended
            with pytest.raises(DBAPIError):
                await abandon  # thawed, the old owner finds its transaction gone
            stored = await new.load_table(table.id)
            assert stored is not None and stored.row.status == "playing"
            assert (await _steps(new, table.id))[-1] == table.seq + 1

    with fresh_postgres_database() as url:
        asyncio.run(run(url))


NEIGHBOURS = ("2001:db8:7:1::/64", "2001:db8:7:2::/64")
"""Two clients in one IPv6 /48: different addresses, one network."""


@pytest.mark.parametrize(
    ("caps", "cap", "creators"),
    [
        (Caps(live=1, bots=None), "live", ("198.51.100.7",) * 2),
        (Caps(live=10, bots=1), "bots", ("198.51.100.7",) * 2),
        (Caps(live=10, bots=None, creator="198.51.100.7", per_creator=1), "creator", ("198.51.100.7",) * 2),
        (Caps(live=10, bots=None, network="2001:db8:7::/48", per_network=1), "network", NEIGHBOURS),
    ],
)
def test_two_processes_creating_the_last_place_at_once_take_it_in_turn(
    tmp_path: Path, caps: Caps, cap: str, creators: tuple[str, str]
) -> None:
    # Both counted one place left before either stored its table: the second is held at the lock
    # until the first has stored its table, then counts it and is refused.
    def table(table_id: str) -> TableRow:
        return TableRow(id=table_id, game="digging", config={}, secret="x" * 64, status="waiting", created_at=0.0,
                        creator=creators[table_id == "second"])  # fmt: skip

    with fresh_postgres_database() as url:

        async def run() -> None:
            first, second = Store(url), Store(url)
            with Pause(first, "create:locked") as pause:
                made = asyncio.ensure_future(first.create_table(table("first"), [], caps))
                await pause.wait()
                refused = asyncio.ensure_future(second.create_table(table("second"), [], caps))
                await _blocked_or_done(url, refused)
            await made
            with pytest.raises(CapReached) as reached:
                await refused
            assert (reached.value.cap, reached.value.count) == (cap, 1)
            assert await second.live_ids() == ["first"]
            first.close()
            second.close()

        asyncio.run(run())


def test_a_game_another_process_abandoned_first_is_closed_here_by_the_sweep(tmp_path: Path) -> None:
    # This process took the table over just before the old owner's abandon committed: its own
    # sweep finds the game closed already, and lets it go rather than keep it in play for ever.
    url = f"sqlite:///{tmp_path / 'g.db'}"

    async def run() -> None:
        clocks = Clocks()
        old, table = await solo_table(tmp_path, clocks, url)
        new = TableManager(Store(url), Settings(bot_delay=3600.0), clock=clocks.monotonic, wall=clocks.wall)
        await new.restore()
        taken = new.tables[table.id]
        assert await old.store.abandon(table.id, table.state.record(), table.seq, clocks.wall())
        clocks.wall_time += 2 * DAY
        await new.sweep()
        assert taken.status == "abandoned" and table.id not in new.tables
        for manager in (old, new):
            await manager.shutdown()
            manager.store.close()

    asyncio.run(run())
