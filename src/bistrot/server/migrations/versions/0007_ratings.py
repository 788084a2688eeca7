"""Players' ratings per game, what each rated game ranked, and how each moved a rating.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("profile", sa.String(), primary_key=True),
        sa.Column("game", sa.String(), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
    )
    op.create_index("ratings_game", "ratings", ["game"])
    op.create_table(
        "rated_games",
        sa.Column("table_id", sa.String(), primary_key=True),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("places", sa.JSON(), nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column("table_id", sa.String(), primary_key=True),
        sa.Column("profile", sa.String(), primary_key=True),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
    )
    op.create_index("rating_changes_profile", "rating_changes", ["profile", "at"])


def downgrade() -> None:
    op.drop_index("rating_changes_profile", "rating_changes")
    op.drop_table("rating_changes")
    op.drop_table("rated_games")
    op.drop_index("ratings_game", "ratings")
    op.drop_table("ratings")
