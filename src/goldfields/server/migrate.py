"""Bring the server's database to the current schema with Alembic, at start-up.

The schema lives in :mod:`goldfields.server.models`; each change to it is a
revision in ``migrations/versions``. A database created before the server
used migrations (its tables exist, Alembic's version table does not) is
stamped as the first revision and upgraded from there, so old SQLite files
keep working.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine

MIGRATIONS = Path(__file__).parent / "migrations"
FIRST = "0001"


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def upgrade(engine: Engine) -> None:
    """Upgrade the database to the newest revision (one transaction where the database allows)."""
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        if connection.dialect.name == "postgresql":
            # Several servers starting at once on one database: one migrates, the others wait.
            connection.execute(text("SELECT pg_advisory_xact_lock(4653)"))
        tables = inspect(connection).get_table_names()
        if "tables" in tables and "alembic_version" not in tables:
            command.stamp(config, FIRST)
        command.upgrade(config, "head")
