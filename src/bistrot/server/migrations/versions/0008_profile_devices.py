"""A profile on several devices: its extra keys, and the one-time codes that move it.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "profile_keys",
        sa.Column("key_hash", sa.String(), primary_key=True),
        sa.Column("profile", sa.String(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_index("profile_keys_profile", "profile_keys", ["profile"])
    op.create_table(
        "profile_transfers",
        sa.Column("code_hash", sa.String(), primary_key=True),
        sa.Column("profile", sa.String(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.Column("used_at", sa.Float()),
    )
    op.create_index("profile_transfers_profile", "profile_transfers", ["profile"])


def downgrade() -> None:
    op.drop_index("profile_transfers_profile", "profile_transfers")
    op.drop_table("profile_transfers")
    op.drop_index("profile_keys_profile", "profile_keys")
    op.drop_table("profile_keys")
