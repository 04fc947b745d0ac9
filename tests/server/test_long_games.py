"""A game need not end by the rules (partners may pass cards back and forth for as long as the
pile lasts), so the server stops one at ``max_game_steps``: unrated, without a result, its record
kept. A TableManager run in process, on any machine, whatever its load."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import func, select
from test_clocks import Client, Clocks

from goldfields.records import replay
from goldfields.server.models import ResultRow, StepRow
from goldfields.server.settings import Settings
from goldfields.server.store import Store
from goldfields.server.tables import TableError, TableManager

PAIR = {"game": "digger", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}


def test_a_game_that_reaches_max_game_steps_is_stopped_unrated_with_its_record_kept(tmp_path: Path) -> None:
    async def run() -> None:
        clocks = Clocks()
        manager = TableManager(Store(f"sqlite:///{tmp_path / 'g.db'}"), Settings(max_game_steps=30),
                               clock=clocks.monotonic, wall=clocks.wall)  # fmt: skip
        table, _ = await manager.create(PAIR)
        tokens = [await manager.claim(table, seat, name) for seat, name in enumerate(("ann", "bob"))]
        assert all(tokens)
        ann = Client(0)
        await manager.connect(table, ann)
        while table.status == "playing":
            seat = table.state.current_player
            await manager.submit(table, seat, manager.full_update(table, seat)["view"]["legal"][0], None)
        assert table.status == "stopped" and table.id not in manager.tables
        assert table.seq >= 30 and not table.state.is_terminal()
        assert ann.messages[-1]["table"]["status"] == "stopped"  # the players are told
        # Nothing more is played, and the refusal says why.
        with pytest.raises(TableError) as refused:
            await manager.submit(table, table.state.current_player, "roll", None)
        assert (refused.value.code, refused.value.status) == ("stopped", 410)
        assert "limit on a game's length" in str(refused.value)
        # Its record replaces its steps, replays by the rules as a game not over, and rates nobody.
        stored = await manager.store.load_table(table.id)
        assert stored is not None and stored.row.status == "stopped" and stored.row.seq == table.seq
        record = stored.row.record
        assert record == table.state.record()
        report, status = replay(record)
        assert status == 0 and report["ok"] and report["game_over"] is False, report

        def counts(s):  # type: ignore[no-untyped-def]
            return (s.scalar(select(func.count()).select_from(StepRow).where(StepRow.table_id == table.id)),
                    s.scalar(select(func.count()).select_from(ResultRow).where(ResultRow.table_id == table.id)))

        assert await manager.store.run(counts) == (0, 0)
        # A restart does not bring it back.
        await manager.shutdown()
        again = TableManager(Store(f"sqlite:///{tmp_path / 'g.db'}"), Settings(max_game_steps=30),
                             clock=clocks.monotonic, wall=clocks.wall)  # fmt: skip
        await again.restore()
        assert table.id not in again.tables
        await again.shutdown()

    asyncio.run(run())


def test_max_game_steps_must_be_positive() -> None:
    with pytest.raises(ValueError, match="--max-game-steps must be at least 1, not 0"):
        Settings(max_game_steps=0)
