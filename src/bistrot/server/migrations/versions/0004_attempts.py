"""Who played each challenge: one attempt per challenger.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "attempts",
        sa.Column("challenge_id", sa.String(), primary_key=True),
        sa.Column("challenger", sa.String(), primary_key=True),
        sa.Column("table_id", sa.String(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("attempts")
