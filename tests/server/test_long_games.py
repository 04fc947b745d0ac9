"""A game need not end by the rules (partners may pass cards back and forth for as long as the
pile lasts), so the server stops one at ``max_game_steps``: unrated, without a result, its record
kept. A TableManager run in process, on any machine, whatever its load."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from sqlalchemy import func, select
from test_clocks import Client, Clocks

from goldfields.records import replay
from goldfields.server.models import ResultRow, StepRow
from goldfields.server.replays import frames
from goldfields.server.settings import Settings
from goldfields.server.store import Store
from goldfields.server.tables import TableError, TableManager

CAP = 30


@pytest.mark.parametrize("game", ["digger", "digging"])
def test_a_game_that_reaches_max_game_steps_is_stopped_unrated_with_its_record_kept(tmp_path: Path, game: str) -> None:
    pair = {"game": game, "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}

    async def run() -> None:
        clocks = Clocks()
        manager = TableManager(Store(f"sqlite:///{tmp_path / 'g.db'}"), Settings(max_game_steps=CAP),
                               clock=clocks.monotonic, wall=clocks.wall)  # fmt: skip
        table, _ = await manager.create(pair)
        tokens = [await manager.claim(table, seat, name) for seat, name in enumerate(("ann", "bob"))]
        assert all(tokens)
        ann = Client(0)
        await manager.connect(table, ann)
        while table.status == "playing":
            seat = table.state.current_player
            await manager.submit(table, seat, manager.full_update(table, seat)["view"]["legal"][0], None)
        assert table.status == "stopped" and table.id not in manager.tables
        # Exactly the cap: no deal or roll follows the step that reached it.
        assert table.seq == CAP and not table.state.is_terminal()
        assert ann.messages[-1]["table"]["status"] == "stopped"  # the players are told
        # Nothing more is played, and the refusal says why.
        with pytest.raises(TableError) as refused:
            await manager.submit(table, table.state.current_player, "pass", None)
        assert (refused.value.code, refused.value.status) == ("stopped", 410)
        assert "limit on a game's length" in str(refused.value)
        # Nor does a clock or a player coming back move it on.
        await manager.take_back(table, 0)
        if table.turn_started is not None:
            await manager._sand_out(table, table.turn_started)
        assert table.seq == CAP
        # Its record replaces its steps, replays by the rules as a game not over, and rates nobody.
        stored = await manager.store.load_table(table.id)
        assert stored is not None and stored.row.status == "stopped" and stored.row.seq == table.seq
        record = stored.row.record
        assert record == table.state.record()
        report, status = replay(record)
        assert status == 0 and report["ok"], report
        # A replay as long as the cap is allowed: a stopped game is always shown.
        assert len(frames(table.game.definition, record, None, {}, max_steps=CAP)["frames"]) <= CAP

        def counts(s):  # type: ignore[no-untyped-def]
            return (s.scalar(select(func.count()).select_from(StepRow).where(StepRow.table_id == table.id)),
                    s.scalar(select(func.count()).select_from(ResultRow).where(ResultRow.table_id == table.id)))

        assert await manager.store.run(counts) == (0, 0)
        # A restart does not bring it back.
        await manager.shutdown()
        again = TableManager(Store(f"sqlite:///{tmp_path / 'g.db'}"), Settings(max_game_steps=CAP),
                             clock=clocks.monotonic, wall=clocks.wall)  # fmt: skip
        await again.restore()
        assert table.id not in again.tables
        await again.shutdown()
        manager.store.close()
        again.store.close()

    asyncio.run(run())


def test_max_game_steps_must_be_positive() -> None:
    with pytest.raises(ValueError, match="--max-game-steps must be at least 1, not 0"):
        Settings(max_game_steps=0)


def test_a_game_that_reaches_the_cap_where_a_deal_is_owed_stops_without_dealing(tmp_path: Path) -> None:
    # The cap falls on the move that ends a hand: the next deal is not stored, so a stopped game
    # has exactly --max-game-steps steps, and its replay fits under a --max-replay-steps as high.
    pair = {"game": "digging", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}

    async def run() -> None:
        settings = Settings(max_game_steps=100_000, max_replay_steps=100_000)
        manager = TableManager(Store(f"sqlite:///{tmp_path / 'g.db'}"), settings)
        table, _ = await manager.create(pair)
        for seat, name in enumerate(("ann", "bob")):
            await manager.claim(table, seat, name)
        while True:
            seat = table.state.current_player
            text = manager.full_update(table, seat)["view"]["legal"][0]
            trial = table.state.clone()
            table.game.apply_step(trial, table.game.client_step(trial, text, None, random.Random(0), table.config))
            assert not trial.is_terminal(), "the game ended before any hand did"
            if trial.is_chance_node():  # this move ends the hand: a deal is owed after it
                manager.settings.max_game_steps = table.seq + 1
                await manager.submit(table, seat, text, None)
                break
            await manager.submit(table, seat, text, None)
        assert table.status == "stopped" and table.seq == manager.settings.max_game_steps
        assert table.state.is_chance_node()  # the deal it owed, never drawn
        await manager.shutdown()
        manager.store.close()

    asyncio.run(run())
