"""Each seat's presence, kept across a restart or a takeover: whether its player is away (a
computer plays the seat until they return), and when the grace period of one who left ends
(seconds since the epoch) while it runs.

Columns on ``seats`` rather than a table of their own: presence is one value per seat, read with
the seats a table is loaded with (no query more), written with the same fence as the table's
other writes, and gone with its seats; there is no row to create for it, nor to clean up after.
Rows already stored get ``away = 0`` and no grace end: nothing stored, so every seat starts as
before this revision (a whole grace period if its player is not there).  SQLite files gain the
same columns on start (``bistrot.server.sqlite.check_database``).

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("away", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("seats", sa.Column("grace_ends", sa.Float()))


def downgrade() -> None:
    op.drop_column("seats", "grace_ends")
    op.drop_column("seats", "away")
