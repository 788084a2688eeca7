"""The PostgreSQL schema's migrations (Alembic), run by the store itself on start.

No ``alembic.ini``: :func:`upgrade` builds Alembic's configuration in code, pointing at this
folder, and runs the revisions in ``versions/`` on the connection it is given.  A new revision
goes in ``versions/`` (``down_revision`` = the previous one) and changes
:func:`bistrot.server.schema.room_metadata` the same way; tests/server/test_postgres_store.py
checks that both agree.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, text

FOLDER = Path(__file__).resolve().parent

#: The key of the PostgreSQL advisory lock every node takes to migrate: nodes starting together
#: migrate one after the other (the first does the work, the others find the schema at head).
LOCK_KEY = 0x62697374_6D696772  # "bistmigr"
#: A migration may take long (and wait for another node's): a looser bound than the store's.
TIMEOUT = "10min"


def config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for this folder (and ``connection``, for env.py).

    >>> config().get_main_option("script_location") == str(FOLDER)
    True
    """
    cfg = Config()
    cfg.set_main_option("script_location", str(FOLDER).replace("%", "%%"))
    cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    """The newest revision.

    >>> head()
    '0013'
    """
    revision = ScriptDirectory.from_config(config()).get_current_head()
    assert revision is not None
    return revision


def upgrade(connection: Connection) -> None:
    """Bring the schema to :func:`head` in one transaction on ``connection`` (synchronous:
    from an async engine, through ``AsyncConnection.run_sync``), under :data:`LOCK_KEY`, and
    commit.  PostgreSQL's DDL is transactional, so a failed migration leaves nothing half done."""
    with connection.begin():
        connection.execute(text(f"SET LOCAL statement_timeout = '{TIMEOUT}'"))
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
        command.upgrade(config(connection), "head")
