"""The address that created a live table, so that every process counts an address's tables.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("creator", sa.String(64), nullable=True))
    op.create_index("ix_tables_creator_status", "tables", ["creator", "status"])


def downgrade() -> None:
    op.drop_index("ix_tables_creator_status", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("creator")
