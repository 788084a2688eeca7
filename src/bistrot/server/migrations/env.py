"""Alembic's environment: run by :func:`bistrot.server.migrations.upgrade`, on its connection,
inside its transaction."""

from __future__ import annotations

from alembic import context

from bistrot.server.schema import room_metadata

# Only Alembic establishes `context.config`; anything else importing this module (pytest's
# doctest collection imports every module) has nothing to run.
if hasattr(context, "config"):
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("bistrot's migrations run on a connection: use bistrot.server.migrations.upgrade")
    context.configure(connection=connection, target_metadata=room_metadata(cluster=True))
    with context.begin_transaction():  # a no-op inside the caller's transaction
        context.run_migrations()
