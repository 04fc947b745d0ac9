"""Table lifecycle: last change, end time and archived record; indexes for the lobby.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("updated_at", sa.Float(), nullable=True))
        batch.add_column(sa.Column("finished_at", sa.Float(), nullable=True))
        batch.add_column(sa.Column("record", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("seq", sa.Integer(), nullable=True))
    op.execute("UPDATE tables SET updated_at = created_at")
    op.create_index("ix_tables_status_created", "tables", ["status", "created_at"])
    op.create_index("ix_tables_game_status_created", "tables", ["game", "status", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_tables_game_status_created", "tables")
    op.drop_index("ix_tables_status_created", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("seq")
        batch.drop_column("record")
        batch.drop_column("finished_at")
        batch.drop_column("updated_at")
