"""The whole schema: tables, seats, events, challenges, and the cluster's nodes and owners.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(), primary_key=True),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("mode", sa.String(), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("level", sa.String(), nullable=False),
        sa.Column("bot_delay_ms", sa.Integer(), nullable=False),
        sa.Column("grace_s", sa.Float(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("invite_hash", sa.String()),
        sa.Column("watch_hash", sa.String(), nullable=False),
        sa.Column("rematch", sa.String()),
        sa.Column("rematch_of", sa.String()),
        sa.Column("challenge", sa.String()),
        sa.Column("result", sa.JSON()),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.Column("owner", sa.String()),
    )
    op.create_index("tables_status", "tables", ["status"])
    op.create_index("tables_challenge", "tables", ["challenge"])
    op.create_index("tables_owner", "tables", ["owner"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("level", sa.String()),
        sa.Column("token_hash", sa.String()),
        sa.Column("name", sa.String()),
    )
    op.create_table(
        "events",
        sa.Column("table_id", sa.String(), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("actor", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(), nullable=False),
        sa.Column("by", sa.String(), nullable=False),
        sa.Column("client_id", sa.String()),
        sa.Column("time", sa.Float(), nullable=False),
    )
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(), primary_key=True),
        sa.Column("table_id", sa.String(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("computers", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_index("challenges_source", "challenges", ["table_id", "seat"], unique=True)
    op.create_table(
        "nodes",
        sa.Column("id", sa.String(), primary_key=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    for name in ("nodes", "challenges", "events", "seats", "tables"):
        op.drop_table(name)
