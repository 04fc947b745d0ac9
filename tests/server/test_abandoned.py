"""Games nobody comes back to, and how many tables one address may hold, in a TableManager
run in process with hand-driven clocks: the rules exactly, on any machine, whatever its load."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from test_clocks import Client, Clocks

from goldfields.server.store import Store
from goldfields.server.tables import LiveTable, Settings, TableError, TableManager

DAY = 86_400.0
AGAINST_A_BOT = {"game": "digging", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}


async def solo_table(tmp_path: Path, clocks: Clocks) -> tuple[TableManager, LiveTable]:
    manager = TableManager(Store(f"sqlite:///{tmp_path / 'g.db'}"), Settings(bot_delay=3600.0),
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
