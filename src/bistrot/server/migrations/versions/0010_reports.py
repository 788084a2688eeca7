"""Players reported by others at their table, kept for the operator.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reports",
        sa.Column("table_id", sa.String(), primary_key=True),
        sa.Column("by_seat", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("by_profile", sa.String()),
        sa.Column("profile", sa.String()),
        sa.Column("name", sa.String()),
        sa.Column("reason", sa.String(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("reports_profile", "reports", ["profile"])


def downgrade() -> None:
    op.drop_index("reports_profile", "reports")
    op.drop_table("reports")
