"""Tables over days: a host token, turn deadlines and stand-ins, seat recovery, chat.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    # Plain ADD COLUMN (not a batch, which on SQLite copies the table and drops the old
    # one: with foreign keys on, that drop would take the seats and moves with it).
    op.add_column("game_tables", sa.Column("host_hash", sa.String(64), nullable=True))
    op.add_column("game_tables", sa.Column("deadline_s", sa.Integer(), nullable=True))
    op.add_column("game_tables", sa.Column("stand_in", sa.String(32), nullable=True))
    op.add_column("game_tables", sa.Column("spectator_chat", sa.Boolean(), nullable=False,
                                           server_default=sa.false()))
    op.add_column("seats", sa.Column("recovery_hash", sa.String(64), nullable=True))
    op.add_column("seats", sa.Column("played_by", sa.String(32), nullable=True))
    op.add_column("seats", sa.Column("played_why", sa.String(8), nullable=True))
    op.add_column("seats", sa.Column("deadline_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("seats", sa.Column("reminded", sa.Boolean(), nullable=False,
                                     server_default=sa.false()))
    op.add_column("seats", sa.Column("muted", sa.Boolean(), nullable=False,
                                     server_default=sa.false()))
    op.create_index("ix_seats_deadline_at", "seats", ["deadline_at"])
    op.create_table(
        "chat_messages",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("table_id", _ID, sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_messages_table_id", "chat_messages", ["table_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_chat_messages_table_id", table_name="chat_messages")
    op.drop_table("chat_messages")
    op.drop_index("ix_seats_deadline_at", table_name="seats")
    # ALTER TABLE ... DROP COLUMN (SQLite 3.35 and later, PostgreSQL), not a batch: see
    # upgrade().
    for name in ("muted", "reminded", "deadline_at", "played_why", "played_by",
                 "recovery_hash"):
        op.execute(f"ALTER TABLE seats DROP COLUMN {name}")
    for name in ("spectator_chat", "stand_in", "deadline_s", "host_hash"):
        op.execute(f"ALTER TABLE game_tables DROP COLUMN {name}")
