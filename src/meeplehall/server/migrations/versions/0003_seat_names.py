"""Seat names: the name a seat's player gave (public; NULL: none).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("name", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("name")
