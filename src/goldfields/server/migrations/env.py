"""Alembic's environment for the server's database.

The server runs the migrations itself at start-up (goldfields.server.migrate),
on the connection it passes in ``config.attributes["connection"]``; the
``alembic`` command works too, given ``-x url=...`` (see docs/server.md).
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from goldfields.server.models import Base

config = context.config
target_metadata = Base.metadata


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option("sqlalchemy.url")
    if not url:
        raise SystemExit("give the database: alembic -x url=sqlite:///goldfields.db upgrade head")
    engine = create_engine(url)
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        conn.commit()
    engine.dispose()


run()
