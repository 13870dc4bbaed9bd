"""People: accounts, their sessions and sign-in links, turn notifications and what
was delivered; the account a seat belongs to; ratings and results, and whether a
table is rated.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
_WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("email", sa.String(254), nullable=False, unique=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("seat_key", sa.String(64), nullable=False),
        sa.Column("created_at", _WHEN, nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=True),
    )
    op.create_table(
        "account_sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", _ID, sa.ForeignKey("accounts.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("created_at", _WHEN, nullable=False),
        sa.Column("expires_at", _WHEN, nullable=False),
    )
    op.create_table(
        "sign_in_links",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("email", sa.String(254), nullable=False, index=True),
        sa.Column("expires_at", _WHEN, nullable=False),
        sa.Column("used", sa.Boolean, nullable=False),
    )
    op.create_table(
        "subscriptions",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("table_id", _ID, sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
                  nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("account_id", _ID, sa.ForeignKey("accounts.id", ondelete="CASCADE"),
                  nullable=True, index=True),
        sa.Column("seat_token", sa.String(64), nullable=True),
        sa.Column("channel", sa.String(8), nullable=False),
        sa.Column("target", sa.String(2048), nullable=False),
        sa.Column("confirmed", sa.Boolean, nullable=False),
        sa.Column("confirm_hash", sa.String(64), nullable=True, index=True),
        sa.Column("unsubscribe", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", _WHEN, nullable=False),
    )
    op.create_index("ix_subscriptions_seat", "subscriptions", ["table_id", "seat"])
    op.create_table(
        "deliveries",
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("table_id", _ID, nullable=False, index=True),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("created_at", _WHEN, nullable=False),
    )
    op.add_column("seats", sa.Column("account_id", _ID, nullable=True))
    op.create_index("ix_seats_account_id", "seats", ["account_id"])
    op.add_column("game_tables", sa.Column("rated", sa.Boolean, nullable=False,
                                           server_default=sa.false()))
    op.create_table(
        "ratings",
        sa.Column("player", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("players", sa.Integer, primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", _WHEN, nullable=False),
    )
    op.create_table(
        "results",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("table_id", _ID, sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("player", sa.String(40), nullable=False, index=True),
        sa.Column("account_id", _ID, nullable=True, index=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("margin", sa.Integer, nullable=True),
        sa.Column("mode", sa.String(16), nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=True),
        sa.Column("mu_after", sa.Float, nullable=True),
        sa.Column("at", _WHEN, nullable=False),
        sa.UniqueConstraint("table_id", "player", name="uq_results_table_player"),
    )


def downgrade() -> None:
    op.drop_table("results")
    op.drop_table("ratings")
    # ALTER TABLE ... DROP COLUMN (SQLite 3.35 and later, PostgreSQL), not a batch: a
    # batch copies the table, and on SQLite dropping game_tables' copy deletes the seats
    # and moves that reference it (ON DELETE CASCADE).
    op.execute("ALTER TABLE game_tables DROP COLUMN rated")
    op.drop_index("ix_seats_account_id", table_name="seats")
    op.execute("ALTER TABLE seats DROP COLUMN account_id")
    op.drop_table("deliveries")
    op.drop_index("ix_subscriptions_seat", table_name="subscriptions")
    op.drop_table("subscriptions")
    op.drop_table("sign_in_links")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
