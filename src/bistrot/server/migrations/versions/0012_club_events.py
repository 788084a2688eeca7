"""Duplicate events for clubs: the events, the players of their pairs, each board played at each
table, and the tag of a table that plays an event's board.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("event", sa.String()))
    op.create_table(
        "club_events",
        sa.Column("id", sa.String(), primary_key=True),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("organiser", sa.String(), nullable=False),
        sa.Column("boards", sa.Integer(), nullable=False),
        sa.Column("per_round", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("tables", sa.Integer()),
        sa.Column("starts_at", sa.Float()),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("started_at", sa.Float()),
    )
    op.create_index("club_events_organiser", "club_events", ["organiser", "status"])
    op.create_table(
        "club_players",
        sa.Column("event_id", sa.String(), primary_key=True),
        sa.Column("profile", sa.String(), primary_key=True),
        sa.Column("pair", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("joined_at", sa.Float(), nullable=False),
    )
    op.create_index("club_players_place", "club_players", ["event_id", "pair", "place"], unique=True)
    op.create_table(
        "club_boards",
        sa.Column("event_id", sa.String(), primary_key=True),
        sa.Column("board", sa.Integer(), primary_key=True),
        sa.Column("table_no", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.String(), nullable=False),
        sa.Column("opened_at", sa.Float(), nullable=False),
        sa.Column("side0_tricks", sa.Integer()),
        sa.Column("finished_at", sa.Float()),
    )
    op.create_index("club_boards_table", "club_boards", ["table_id"], unique=True)


def downgrade() -> None:
    op.drop_index("club_boards_table", "club_boards")
    op.drop_table("club_boards")
    op.drop_index("club_players_place", "club_players")
    op.drop_table("club_players")
    op.drop_index("club_events_organiser", "club_events")
    op.drop_table("club_events")
    op.drop_column("tables", "event")
