"""``bistrot serve``: the card room server, on uvicorn, storing everything in SQLite (or in
PostgreSQL with ``--database-url``)."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``serve``."""
    serve = subparsers.add_parser(
        "serve",
        help="run the card room server (open the printed address in a browser)",
        description="Run the card room: Omi and Oti tables in the browser, stored in a SQLite file"
        " (or a PostgreSQL database).",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument(
        "--port", type=int, default=8000, help="port to listen on (default 8000; 0: any free port)"
    )
    serve.add_argument(
        "--db", default=None, help="SQLite database file, created on first run (default bistrot.db)"
    )
    serve.add_argument(
        "--database-url",
        default=None,
        help="a PostgreSQL database instead of the SQLite file: postgresql://USER@HOST:PORT/DB"
        " (also BISTROT_DATABASE_URL); its schema is created or upgraded on start",
    )
    serve.add_argument(
        "--redis-url",
        default=None,
        help="with --database-url: the Redis server the nodes of one card room share,"
        " redis://HOST:PORT/N (also BISTROT_REDIS_URL); run several such servers behind one address",
    )
    serve.add_argument(
        "--public-url",
        default=None,
        help="the address people reach this card room at, scheme://host[:port] (behind a reverse"
        " proxy, or a name for this machine; also BISTROT_PUBLIC_URL): invite links and QR codes use it",
    )
    serve.add_argument(
        "--forwarded-allow-ips",
        default=None,
        help="the reverse proxies whose X-Forwarded-For is believed, as uvicorn's option: addresses"
        " or networks separated by commas, or * (also BISTROT_FORWARDED_ALLOW_IPS); default none:"
        " a client's address is its connection's",
    )
    serve.add_argument(
        "--bot-delay-ms", type=int, default=None, help="default pause before each computer move"
    )
    serve.add_argument(
        "--grace-s", type=float, default=None, help="default seconds a dropped player keeps the seat"
    )
    serve.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    serve.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    import logging

    from pydantic import ValidationError

    from bistrot.server import Settings, create_app
    from bistrot.server.offline import start_fetch
    from bistrot.server.runner import address, bind, uvicorn_server
    from bistrot.server.sqlite import check_database
    from bistrot.server.storage import StoreUnusable

    overrides = {
        "db": args.db,
        "database_url": args.database_url,
        "redis_url": args.redis_url,
        "public_url": args.public_url,
        "forwarded_allow_ips": args.forwarded_allow_ips,
        "bot_delay_ms": args.bot_delay_ms,
        "grace_s": args.grace_s,
    }
    try:
        settings = Settings(**{k: v for k, v in overrides.items() if v is not None})
    except ValidationError as err:
        raise SystemExit(f"bistrot serve: {err}") from None
    if settings.database_url is not None:
        from bistrot.server.postgres import check_postgres

        try:
            # As for the file below: a database we cannot use is one line (unreachable, another
            # program's, used by another server), before uvicorn starts.
            where = check_postgres(settings.database_url, exclusive=settings.redis_url is None)
        except StoreUnusable as err:
            raise SystemExit(f"bistrot serve: database {err}") from None
    else:
        db = Path(settings.db).resolve()
        where = str(db)
        try:
            # Here, before uvicorn, so that a file we cannot use is one line, not the traceback of
            # the app's failed start (the store checks it again as the app starts).
            check_database(db)
        except StoreUnusable as err:
            raise SystemExit(f"bistrot serve: database {err}") from None
    try:
        sock = bind(args.host, args.port)
    except OSError as err:
        raise SystemExit(f"bistrot serve: cannot listen on {args.host}:{args.port}: {err.strerror}") from None
    logging.basicConfig(
        level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    print(f"bistrot card room: open {address(sock)} (database {where})", flush=True)
    app = create_app(settings)
    app.state.listen_host = args.host  # where share links can point (server/sharing.py)
    start_fetch(app)  # offline play: get Pyodide in the background if it is missing (bistrot/pyodide.py)
    server = uvicorn_server(app, settings, log_level=args.log_level)
    server.run(sockets=[sock])
    return 0
