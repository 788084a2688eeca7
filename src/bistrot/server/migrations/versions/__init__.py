"""The revisions, oldest first by their ``down_revision`` links (Alembic skips this file)."""
