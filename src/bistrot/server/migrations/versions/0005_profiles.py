"""Players' profiles: a lasting name without signing up, its key stored hashed.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "profiles",
        sa.Column("id", sa.String(), primary_key=True),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("key_hash", sa.String(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_index("profiles_key", "profiles", ["key_hash"], unique=True)


def downgrade() -> None:
    op.drop_index("profiles_key", "profiles")
    op.drop_table("profiles")
