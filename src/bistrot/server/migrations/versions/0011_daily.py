"""The daily deal: the secret its deals come from, each profile's counted game of a day, and the
tag of a table that plays a day's deal.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("daily", sa.String()))
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(), primary_key=True),
        sa.Column("secret", sa.String(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "daily_games",
        sa.Column("day", sa.String(), primary_key=True),
        sa.Column("game", sa.String(), primary_key=True),
        sa.Column("profile", sa.String(), primary_key=True),
        sa.Column("table_id", sa.String(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.Float()),
        sa.Column("score", sa.Integer()),
        sa.Column("analysed", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("accuracy", sa.Float()),
    )
    op.create_index("daily_games_table", "daily_games", ["table_id"], unique=True)
    op.create_index("daily_games_board", "daily_games", ["day", "game", "score"])
    op.create_index("daily_games_profile", "daily_games", ["profile", "game", "day"])


def downgrade() -> None:
    op.drop_index("daily_games_profile", "daily_games")
    op.drop_index("daily_games_board", "daily_games")
    op.drop_index("daily_games_table", "daily_games")
    op.drop_table("daily_games")
    op.drop_table("server_secrets")
    op.drop_column("tables", "daily")
