"""The IPv6 /48 a live table's creator lies in, indexed, so that a network's tables are counted
from the index rather than by parsing every live creator's address.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-29
"""

from __future__ import annotations

import ipaddress

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def _network(creator: str) -> str | None:
    # limits.network_key as it stood at this revision: a migration does not change with the code.
    try:
        net = ipaddress.IPv6Network(creator, strict=False)
    except ValueError:
        return None
    return str(net.supernet(new_prefix=48)) if net.prefixlen > 48 else None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("creator_network", sa.String(64), nullable=True))
    op.create_index("ix_tables_creator_network_status", "tables", ["creator_network", "status"])
    # Live tables created before this revision: their /48 from their IPv6 creator (a /64 key,
    # which holds a "/"; closed tables have no creator left).
    tables = sa.table("tables", sa.column("id", sa.String), sa.column("creator", sa.String),
                      sa.column("creator_network", sa.String))  # fmt: skip
    bind = op.get_bind()
    rows = bind.execute(sa.select(tables.c.id, tables.c.creator).where(tables.c.creator.contains("/"))).all()
    for table_id, creator in rows:
        if isinstance(creator, str) and (network := _network(creator)) is not None:
            bind.execute(tables.update().where(tables.c.id == table_id).values(creator_network=network))


def downgrade() -> None:
    op.drop_index("ix_tables_creator_network_status", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("creator_network")
