"""Tables stored before the game registry restore and play on; old table requests are still accepted.

Before the registry the server wrote Digging's deal as a ``deal`` step of its
own and kept Digger's ``stack_seconds`` as a table setting beside the game's
parameters (now the G3 rule option ``options.stack_seconds``). These run a
TableManager in process over a real SQLite file.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from goldfields.core import registry
from goldfields.digging.cards import CODES
from goldfields.server.games import ConfigError, table_game
from goldfields.server.models import SeatRow, TableRow
from goldfields.server.store import Store
from goldfields.server.tables import Settings, TableManager

BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]


async def _store_old_table(store: Store, game: str, config: dict[str, Any], steps: list[dict[str, Any]]) -> None:
    await store.create_table(
        TableRow(id="old", game=game, name="old", config=config, secret="s" * 32, status="playing", created_at=1.0),
        [SeatRow(table_id="old", seat=i, kind="bot", bot="random", name=f"bot {i}") for i in range(2)],
    )
    for seq, step in enumerate(steps, 1):
        await store.append_step("old", seq, step, 1.0 + seq)


async def _restore_and_finish(db: Path) -> Any:
    """Restore the stored table and let its bots play it to the end (a generous wait, not a timing)."""
    manager = TableManager(Store(f"sqlite:///{db}"), Settings(bot_delay=0.0))
    # The state as restored, taken before the table first moves on: a quick bot may move
    # before restore() returns, and a copy taken after it would then hold that move too.
    restored_states: dict[str, Any] = {}
    advance = manager._advance

    async def snapshot_then_advance(table: Any) -> None:
        restored_states.setdefault(table.id, table.state.clone())
        await advance(table)

    manager._advance = snapshot_then_advance  # type: ignore[method-assign]
    await manager.restore()
    table = manager.tables["old"]
    restored = restored_states["old"]
    for _ in range(6000):
        if table.status == "finished":
            break
        await asyncio.sleep(0.01)
    await manager.shutdown()
    manager.store.close()
    assert table.status == "finished"
    return restored, table


def test_a_digging_table_stored_with_a_deal_step_restores_and_plays_on(tmp_path: Path) -> None:
    game = registry.get("digging")
    state = game.new_state(game.params(players=2))
    deck = state.sample_chance(random.Random(7))
    old_deal = {"deal": [CODES[c] for c in deck]}  # as the pre-registry server stored it
    state.apply_chance(deck)

    async def run() -> None:
        store = Store(f"sqlite:///{tmp_path / 'old.db'}")
        config = {"players": 2, "partnership": False, "options": {}, "move_seconds": None}
        await _store_old_table(store, "digging", config, [old_deal])
        store.close()
        restored, _table = await _restore_and_finish(tmp_path / "old.db")
        assert restored.to_json() == state.to_json()

    asyncio.run(run())


def test_a_digging_table_stored_with_an_idle_rule_option_plays_on_though_a_new_one_is_refused(tmp_path: Path) -> None:
    """``target_exceeded`` changes nothing at a 2-player table: a new table that sets it is
    refused, and /api/games says so for the lobby; a table stored with it still plays on."""
    game = table_game("digging")
    with pytest.raises(ConfigError, match=r"target_exceeded changes nothing at a digging 2p individual table"):
        game.check_config({"players": 2, "options": {"target_exceeded": True}})
    why = "it is a rule of the partnership game only (D9; docs/digging.md, Rule options)"
    assert {"players": 2, "partnership": False, "option": "target_exceeded", "why": why} in game.idle_options()
    assert not [i for i in game.idle_options() if i["players"] == 2 and i["option"] == "full_deck"]
    config = {"players": 2, "partnership": False, "options": {"target_exceeded": True}, "move_seconds": None}
    state = game.new_state(config)
    deal = game.chance_step(state, random.Random(7))
    game.apply_step(state, deal)

    async def run() -> None:
        store = Store(f"sqlite:///{tmp_path / 'old.db'}")
        await _store_old_table(store, "digging", config, [deal])
        store.close()
        restored, _table = await _restore_and_finish(tmp_path / "old.db")
        assert restored.to_json() == state.to_json() and restored.options.target_exceeded

    asyncio.run(run())


def test_a_digger_table_stored_with_stack_seconds_restores_as_it_was_played(tmp_path: Path) -> None:
    game = table_game("digger")
    config = {"players": 2, "crates": "white", "options": {}, "stack_seconds": 0.5, "move_seconds": None}
    # The setting is not read back: the stored stops already carry their stacking time,
    # and reading it as the G3 option would change how those stops end.
    assert game.params(config) == registry.get("digger").params(players=2)
    state = game.new_state(config)
    rng = random.Random(3)
    steps = []
    for elapsed in (None, 1.0, 2.0):
        action = state.legal_actions()[0]
        step = game.bot_step(state, action, elapsed, rng, config)
        game.apply_step(state, step)
        steps.append(step)

    async def run() -> None:
        store = Store(f"sqlite:///{tmp_path / 'old.db'}")
        await _store_old_table(store, "digger", config, steps)
        store.close()
        restored, table = await _restore_and_finish(tmp_path / "old.db")
        assert restored.to_json() == state.to_json()
        assert table.config["stack_seconds"] == 0.5  # the stored config is left as it was

    asyncio.run(run())


def test_a_table_request_with_stack_seconds_beside_the_parameters_gets_the_g3_option() -> None:
    game = table_game("digger")
    config = game.check_config({"players": 3, "stack_seconds": 0.5})
    assert "stack_seconds" not in config
    assert game.params(config).options.stack_seconds == 0.5
    # Given in both places, the rule option wins.
    config = game.check_config({"players": 3, "stack_seconds": 0.5, "options": {"stack_seconds": 1.0}})
    assert game.params(config).options.stack_seconds == 1.0


def test_a_rematch_of_a_table_stored_with_an_idle_rule_option_is_the_same_game_without_it() -> None:
    """The lobby once offered full_deck at 4 players; "Play again" builds a new table from the
    stored config, and a new table may not name an option that changes nothing."""
    game = table_game("digging")
    stored = {"players": 4, "partnership": True, "options": {"full_deck": True, "close_needs_chest": True},
              "move_seconds": None}  # fmt: skip
    with pytest.raises(ConfigError, match="full_deck changes nothing"):
        game.check_config(stored)
    fresh = game.fresh_config(stored)
    assert fresh["options"] == {"close_needs_chest": True}
    assert game.check_config(fresh)["options"] == {"close_needs_chest": True}


def test_a_lobby_page_leaves_the_tables_records_unread(tmp_path: Path) -> None:
    """A finished table's record runs to megabytes, and the lobby only names tables: its query
    leaves the column unloaded (reading it by mistake would raise, not load it quietly)."""
    from sqlalchemy import inspect

    async def page() -> list[Any]:
        store = Store(f"sqlite:///{tmp_path / 'lobby.db'}")
        try:
            await store.create_table(
                TableRow(id="done", game="digging", name="", config={"players": 2}, secret="s" * 32,
                         status="finished", created_at=1.0, record={"game": "digging", "hands": [[0] * 1000]}),
                [SeatRow(table_id="done", seat=i, kind="bot", bot="random", name=f"bot {i}") for i in range(2)],
            )  # fmt: skip
            return await store.tables_by_status(("finished",), None, 10, None)
        finally:
            store.close()

    (found,) = asyncio.run(page())
    assert found.row.id == "done" and len(found.seats) == 2
    assert "record" in inspect(found.row).unloaded


def test_creations_at_once_cannot_pass_the_global_caps_together(tmp_path: Path) -> None:
    """Each creation waits on the database before its table is counted: those under way count
    too, or twelve at once would each find one of the last places free."""
    from goldfields.server.tables import TableError

    async def main() -> list[Any]:
        store = Store(f"sqlite:///{tmp_path / 'caps.db'}")
        stored = store.create_table

        async def slow(*args: Any, **kwargs: Any) -> Any:
            await asyncio.sleep(0.05)  # the database's wait, made long enough for all to overlap
            return await stored(*args, **kwargs)

        store.create_table = slow  # type: ignore[method-assign]
        manager = TableManager(store, Settings(bot_delay=3600.0, max_bot_tables=5, max_live_tables=8))
        bots = {"game": "digging", "players": 2, "seats": BOTS}
        humans = {"game": "digging", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
        try:
            asked = [*(manager.create(bots) for _ in range(12)), *(manager.create(humans) for _ in range(6))]
            return await asyncio.gather(*asked, return_exceptions=True)
        finally:
            await manager.shutdown()
            store.close()

    results = asyncio.run(main())
    made_bots = [r for r in results[:12] if not isinstance(r, BaseException)]
    made = [r for r in results if not isinstance(r, BaseException)]
    refused = {r.code for r in results if isinstance(r, TableError)}
    assert len(made_bots) == 5 and len(made) == 8, results
    assert refused == {"too_many_bot_tables", "server_full"}
    assert all(isinstance(r, (tuple, TableError)) for r in results)


def test_the_open_page_lists_waiting_tables_with_a_free_human_seat_only(tmp_path: Path) -> None:
    """The filter asks each waiting table for a free seat of its own (not every unclaimed seat
    ever stored): a table whose human seats are taken, or one long expired, is not listed."""

    def row(tid: str, status: str, at: float) -> TableRow:
        return TableRow(id=tid, game="digging", name="", config={"players": 2}, secret="s" * 32, status=status,
                        created_at=at)  # fmt: skip

    def seat(tid: str, i: int, kind: str, token: str | None) -> SeatRow:
        return SeatRow(table_id=tid, seat=i, kind=kind, bot="random" if kind == "bot" else None, name="",
                       token_hash=token)  # fmt: skip

    async def listed() -> list[str]:
        store = Store(f"sqlite:///{tmp_path / 'open.db'}")
        try:
            tables = {"free": ("waiting", [("human", "h"), ("human", None)]),
                      "full": ("waiting", [("human", "h"), ("bot", None)]),
                      "old": ("expired", [("human", None), ("human", None)])}  # fmt: skip
            for at, (tid, (status, seats)) in enumerate(tables.items()):
                await store.create_table(row(tid, status, float(at)), [seat(tid, i, *s) for i, s in enumerate(seats)])
            found = await store.tables_by_status(("waiting",), None, 10, None, open_seat=True)
            return [t.row.id for t in found]
        finally:
            store.close()

    assert asyncio.run(listed()) == ["free"]
