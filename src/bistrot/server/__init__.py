"""The card room server: tables over HTTP and WebSocket, stored in SQLite, recovered on start.

``create_app(Settings(...))`` builds the ASGI application; ``bistrot serve`` runs it under
uvicorn.  docs/server.md describes the parts, docs/protocol.md the protocol.
"""

from bistrot.server.app import create_app
from bistrot.server.settings import Settings

__all__ = ["Settings", "create_app"]
