"""Seats indexed by the profile that took them, so that the sweep finds the profiles that never
took a seat (``unused_profile_expiry``) from the index rather than by reading every seat.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_seats_player", "seats", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_seats_player", "seats")
