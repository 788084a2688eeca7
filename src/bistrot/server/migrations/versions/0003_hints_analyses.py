"""Hints counted per seat, and the analyses of finished games.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("hints", sa.Integer(), nullable=False, server_default="0"))
    op.create_table(
        "analyses",
        sa.Column("table_id", sa.String(), primary_key=True),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("result", sa.JSON()),
        sa.Column("claim", sa.String(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analyses")
    op.drop_column("seats", "hints")
