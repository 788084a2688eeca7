"""Passkeys: a profile's WebAuthn public keys, and the one-time challenges of their ceremonies.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.String(), primary_key=True),
        sa.Column("profile", sa.String(), nullable=False),
        sa.Column("public_key", sa.String(), nullable=False),
        sa.Column("sign_count", sa.Integer(), nullable=False),
        sa.Column("rp_id", sa.String(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_index("passkeys_profile", "passkeys", ["profile"])
    op.create_table(
        "passkey_ceremonies",
        sa.Column("id", sa.String(), primary_key=True),
        sa.Column("challenge", sa.String(), nullable=False),
        sa.Column("profile", sa.String()),
        sa.Column("rp_id", sa.String(), nullable=False),
        sa.Column("origin", sa.String(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("passkey_ceremonies")
    op.drop_index("passkeys_profile", "passkeys")
    op.drop_table("passkeys")
