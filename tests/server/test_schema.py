"""The server's database schema: Alembic's migrations build exactly the models, on SQLite and
PostgreSQL; a database made before migrations is upgraded in place; the SQLite file is private."""

from __future__ import annotations

import asyncio
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, insert, text

from goldfields.server.migrate import alembic_config
from goldfields.server.models import Base, SeatRow, TableRow
from goldfields.server.store import Store
from goldfields.server.tables import Settings, TableManager


def url_of(database: Path | str) -> str:
    return f"sqlite:///{database}" if isinstance(database, Path) else database


def test_the_migrations_build_exactly_the_models(database: Path | str) -> None:
    store = Store(url_of(database))
    try:
        with store.engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        assert diff == []
    finally:
        store.close()


def test_a_database_from_before_migrations_is_upgraded_and_its_tables_restored(database: Path | str) -> None:
    url = url_of(database)
    engine = create_engine(url)
    config = alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0001")  # the schema as the first server made it, without Alembic
        conn.execute(text("DROP TABLE alembic_version"))
        conn.execute(
            insert(TableRow.__table__).values(
                id="old", game="digging", name="old", secret="s" * 32, status="waiting", created_at=1.0,
                config={"players": 2, "partnership": False, "options": {}, "move_seconds": None},
            )
        )
        for seat in range(2):
            conn.execute(insert(SeatRow.__table__).values(table_id="old", seat=seat, kind="human", name=""))
    engine.dispose()

    async def restore() -> dict[str, str]:
        manager = TableManager(Store(url), Settings(waiting_expiry=1e12))
        await manager.restore()
        statuses = {t.id: t.status for t in manager.tables.values()}
        await manager.shutdown()
        manager.store.close()
        return statuses

    assert asyncio.run(restore()) == {"old": "waiting"}
    with create_engine(url).connect() as conn:
        assert conn.execute(text("SELECT updated_at FROM tables")).scalar_one() == 1.0  # filled from created_at
        head = ScriptDirectory.from_config(config).get_current_head()  # the newest revision
        assert head == "0006" and conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == head


def test_live_tables_from_before_the_network_column_are_counted_in_their_network(database: Path | str) -> None:
    # Tables created under revision 0004 have only their creator: the upgrade fills in the /48 of
    # each live IPv6 one, so that the per-network cap counts them as it counts new tables.
    url = url_of(database)
    engine = create_engine(url)
    config = alembic_config()
    creators = {"a": ("2001:db8:1:5::/64", "waiting"), "b": ("2001:db8:1:6::/64", "playing"),
                "c": ("2001:db8:2:5::/64", "waiting"), "d": ("198.51.100.7", "waiting"), "e": (None, "finished")}
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0004")
        for table_id, (creator, status) in creators.items():
            conn.execute(insert(TableRow.__table__).values(
                id=table_id, game="digging", name="", secret="s" * 32, status=status, created_at=1.0, config={},
                creator=creator))  # fmt: skip
    engine.dispose()
    store = Store(url)  # upgrades to the newest revision
    try:
        with store.engine.connect() as conn:
            networks = {i: n for i, n in conn.execute(text("SELECT id, creator_network FROM tables"))}
        assert networks == {"a": "2001:db8:1::/48", "b": "2001:db8:1::/48", "c": "2001:db8:2::/48", "d": None,
                            "e": None}  # fmt: skip
        assert asyncio.run(store.count_in_network("2001:db8:1::/48")) == 2
    finally:
        store.close()


def test_the_sqlite_file_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    db = tmp_path / "goldfields.db"
    store = Store(f"sqlite:///{db}")
    try:
        with store.engine.begin() as conn:
            conn.execute(text("SELECT 1 FROM tables"))
        for path in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
            if path.exists():
                assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    finally:
        store.close()
    # A file another tool created readable by all is tightened when the server opens it.
    loose = tmp_path / "loose.db"
    loose.touch(mode=0o644)
    loose.chmod(0o644)
    Store(f"sqlite:///{loose}").close()
    assert stat.S_IMODE(loose.stat().st_mode) == 0o600


def test_a_file_that_is_not_a_database_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    """`--database sqlite:///game.json` by mistake: refused in one line before the server
    starts, and the file keeps its contents and its permissions (it was made 0600 before)."""
    record = tmp_path / "game.json"
    record.write_text('{"game": "digging"}')
    record.chmod(0o644)
    with pytest.raises(ValueError, match="is not an SQLite database"):
        Store(f"sqlite:///{record}")
    served = subprocess.run([sys.executable, "-m", "goldfields.cli.app", "serve", "--port", "0", "--database",
                             f"sqlite:///{record}"], capture_output=True, text=True, timeout=120)  # fmt: skip
    assert served.returncode != 0 and "is not an SQLite database" in served.stderr
    assert "Traceback" not in served.stderr + served.stdout and "serving at" not in served.stdout
    assert record.read_text() == '{"game": "digging"}' and stat.S_IMODE(record.stat().st_mode) == 0o644
