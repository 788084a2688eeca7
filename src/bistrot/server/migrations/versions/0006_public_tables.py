"""Public tables, listed in the lobby while they wait, and seats that know their player's profile.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("public", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("seats", sa.Column("profile", sa.String()))
    op.create_index("seats_profile", "seats", ["profile"])


def downgrade() -> None:
    op.drop_index("seats_profile", "seats")
    op.drop_column("seats", "profile")
    op.drop_column("tables", "public")
