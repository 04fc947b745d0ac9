"""The server measures every duration and deadline with a monotonic clock (wall time only for people).

These run a TableManager in process with hand-driven clocks, so they check
the arithmetic exactly, on any machine, whatever its load.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from goldfields.server.store import Store
from goldfields.server.tables import Settings, TableManager


class Clocks:
    """A monotonic clock and a wall clock, moved by the test."""

    def __init__(self) -> None:
        # A monotonic reading where float rounding makes (now + 5) - now come out above 5,
        # as it did on a real server: 5.000000000000455.
        self.mono = 4093.692763844177
        self.wall_time = 1_790_000_000.123

    def monotonic(self) -> float:
        return self.mono

    def wall(self) -> float:
        return self.wall_time


class Client:
    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.messages: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.messages.append(message)


async def _table_with_move_clock(tmp_path: Path, clocks: Clocks, game: str = "digging") -> tuple[Any, Any, Client]:
    store = Store(f"sqlite:///{tmp_path / 'clock.db'}")
    manager = TableManager(store, Settings(), clock=clocks.monotonic, wall=clocks.wall)
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    table, _ = await manager.create({"game": game, "players": 2, "seats": seats, "move_seconds": 5})
    await manager.claim(table, 0, "ann")
    client = Client(0)
    await manager.connect(table, client)
    return manager, table, client


def test_move_deadline_never_exceeds_move_seconds_and_counts_down(tmp_path: Path) -> None:
    async def run() -> None:
        clocks = Clocks()
        manager, table, _client = await _table_with_move_clock(tmp_path, clocks)
        assert table.state.current_player == 0
        left = manager.full_update(table, 0)["clock"]["move_deadline_in"]
        assert 0 < left <= 5
        assert left == 5  # nothing has elapsed on the injected clock
        for step in (0.1, 1.0, 2.5, 1.4):
            clocks.mono += step
            now = manager.full_update(table, 0)["clock"]["move_deadline_in"]
            assert 0 <= now <= 5 and now < left
            left = now
        clocks.mono += 60
        assert manager.full_update(table, 0)["clock"]["move_deadline_in"] == 0.0
        await manager.shutdown()
        manager.store.close()

    asyncio.run(run())


def test_coming_back_does_not_give_the_player_their_move_time_again(tmp_path: Path) -> None:
    async def run() -> None:
        clocks = Clocks()
        manager, table, _client = await _table_with_move_clock(tmp_path, clocks)
        clocks.mono += 3.0
        # A second tab, or the same one reconnecting: the clock runs on for the same decision.
        await manager.connect(table, Client(0))
        assert manager.full_update(table, 0)["clock"]["move_deadline_in"] == pytest.approx(2.0)
        clocks.mono += 1.5
        await manager.connect(table, Client(0))
        assert manager.full_update(table, 0)["clock"]["move_deadline_in"] == pytest.approx(0.5)
        await manager.shutdown()
        manager.store.close()

    asyncio.run(run())


def test_a_stepped_wall_clock_changes_no_deadline(tmp_path: Path) -> None:
    async def run() -> None:
        clocks = Clocks()
        manager, table, _client = await _table_with_move_clock(tmp_path, clocks)
        clocks.mono += 1.25
        before = manager.full_update(table, 0)["clock"]
        for jump in (-3600.0, +86_400.0, -10**6):  # the system time is set back, forward, far back
            clocks.wall_time += jump
            assert manager.full_update(table, 0)["clock"] == before
        assert before["move_deadline_in"] == pytest.approx(3.75)
        await manager.shutdown()
        manager.store.close()

    asyncio.run(run())


def test_the_hourglass_runs_on_the_monotonic_clock_whatever_the_wall_clock_does(tmp_path: Path) -> None:
    async def run() -> None:
        clocks = Clocks()
        store = Store(f"sqlite:///{tmp_path / 'digger.db'}")
        manager = TableManager(store, Settings(), clock=clocks.monotonic, wall=clocks.wall)
        seats = [{"kind": "human"}, {"kind": "human"}]
        table, _ = await manager.create({"game": "digger", "players": 2, "seats": seats})
        await manager.claim(table, 0, "ann")
        await manager.claim(table, 1, "bob")
        await manager.submit(table, 0, "roll", None)
        assert table.turn_started == clocks.mono
        clocks.mono += 4.0
        clocks.wall_time -= 7200.0
        watcher = manager.full_update(table, 1)["clock"]
        assert watcher["hourglass_left"] == pytest.approx(watcher["hourglass_limit"] - 4.0)
        assert "hourglass_left" not in manager.full_update(table, 0)["clock"]  # never for the digger
        assert manager._elapsed(table) == pytest.approx(4.0)
        await manager.shutdown()
        store.close()

    asyncio.run(run())
