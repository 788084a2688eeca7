"""The ASGI application: ``create_app(settings)`` builds it, with no global state.

>>> app = create_app(Settings(db="unused.db"))  # nothing is opened before the app starts
>>> sorted({route.path for route in app.routes if route.path.startswith("/api/tables")})
['/api/tables', '/api/tables/{table_id}', '/api/tables/{table_id}/analysis', \
'/api/tables/{table_id}/challenge', '/api/tables/{table_id}/check-invite', '/api/tables/{table_id}/join', \
'/api/tables/{table_id}/record', '/api/tables/{table_id}/rematch', '/api/tables/{table_id}/replay', \
'/api/tables/{table_id}/report', '/api/tables/{table_id}/seat', '/api/tables/{table_id}/start']
"""

from __future__ import annotations

import gzip
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp

from bistrot import __version__
from bistrot.server import history
from bistrot.server.analysis_jobs import AnalysisJobs
from bistrot.server.botrunner import BotRunner
from bistrot.server.club import ClubEvents
from bistrot.server.club_api import add_club
from bistrot.server.cluster import Cluster, new_node_id
from bistrot.server.connection import WsConnection
from bistrot.server.daily import DailyAnalyses, DailyDeals
from bistrot.server.daily_api import add_daily
from bistrot.server.fanout import FanOut, InProcessFanOut
from bistrot.server.lobby import Lobby
from bistrot.server.lobby_api import add_lobby, refuse_waiting_elsewhere
from bistrot.server.match_lock import LocalMatchLock, RedisMatchLock
from bistrot.server.middleware import AccessLog, BodyLimit, SecurityHeaders, Unexpected, redact_uvicorn_logs
from bistrot.server.offline import add_offline
from bistrot.server.offline_assets import games_json
from bistrot.server.passkey_api import add_passkeys
from bistrot.server.penalty import PenaltyBox
from bistrot.server.players import Profiles
from bistrot.server.postgres import PostgresStorage
from bistrot.server.profile_api import ProfileKey, add_profiles, optional_profile
from bistrot.server.protocol import (
    AnalysisState,
    ApiError,
    ChallengeInfo,
    ChallengeLink,
    CheckInvite,
    CreatedTable,
    CreateTable,
    ErrorBody,
    GameList,
    Health,
    History,
    HistoryRequest,
    InviteOpen,
    Joined,
    JoinTable,
    MoveSeat,
    PlayChallenge,
    Rematch,
    Replay,
    SeatAuth,
    Sharing,
    TableInfo,
)
from bistrot.server.quota import LocalTableQuota, TableQuota, client_key
from bistrot.server.quota import take_table as take_from
from bistrot.server.redis_quota import RedisTableQuota
from bistrot.server.replays import ReplayCache, TooManyReplays
from bistrot.server.reports import add_reports
from bistrot.server.room import Room, challenger_key
from bistrot.server.runner import tune_gc
from bistrot.server.settings import Settings
from bistrot.server.sharing import EVERY_INTERFACE, network_address, share_origin
from bistrot.server.sqlite import SQLiteStorage
from bistrot.server.storage import Storage, new_secret
from bistrot.tablecore.errors import TableError
from bistrot.tablecore.replay import record_of, replay_of, require_analysis

#: The cookie by which a browser is one challenger (with its address): 10 years, then a new
#: attempt of every challenge.
CHALLENGER_COOKIE = "bistrot_challenger"
CHALLENGER_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
CHALLENGER_MAX_AGE_S = 10 * 365 * 86400
#: The Redis keys of the profile quota's buckets, beside the table quota's.
PROFILE_PREFIX = "bistrot:profile-quota:"
PAGE_ROUTES = (
    "/", "/t/{key}", "/join/{key}", "/watch/{key}", "/challenge/{key}", "/play/{game}", "/rules/{game}",
    "/replay/{key}", "/ratings/{game}", "/profile/claim", "/profile", "/profile/{key}", "/daily/{game}",
    "/daily/{game}/{date}", "/events/new", "/e/{key}",
)
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (403, 404, 409, 410, 413, 422, 500)
}
#: A write that the store refused (``storage_error``: nothing changed, try again).
STORE_ERRORS: dict[int | str, dict[str, Any]] = {**ERRORS, 503: {"model": ErrorBody}}
#: ErrorBody's place in the schema, for a route whose own answers are not JSON.
ERROR_SCHEMA = {"$ref": "#/components/schemas/ErrorBody"}
#: Opening a table may also be refused for the client's quota (``too_many_tables``).
RETRY_AFTER = {"Retry-After": {"description": "whole seconds to wait", "schema": {"type": "integer"}}}
CREATE_ERRORS: dict[int | str, dict[str, Any]] = {
    **STORE_ERRORS, 401: {"model": ErrorBody}, 429: {"model": ErrorBody, "headers": RETRY_AFTER}
}
#: A request that may carry a profile key: ``bad_profile_key`` or ``no_profile`` (401).
PROFILE_ERRORS: dict[int | str, dict[str, Any]] = {**STORE_ERRORS, 401: {"model": ErrorBody}}

#: An analysis may be refused for the caller's share (``too_many_analyses``) or a full queue
#: (``analysis_busy``).
BUSY_ERRORS: dict[int | str, dict[str, Any]] = {
    **ERRORS, **{code: {"model": ErrorBody, "headers": RETRY_AFTER} for code in (429, 503)}
}

#: ``Authorization: Bearer <token>``: a seat token or the watch key of the table, needed for the
#: record and replay of a game whose deal is a challenge's (server/history.py).
Bearer = Annotated[
    str | None,
    Header(
        max_length=200,
        description="`Bearer <token>`: a seat token or the watch key of this table (needed only"
        " where its deal is a challenge's)",
    ),
]

#: ``?table=<id>`` of ``GET /api/challenges/{id}``: a table of the challenge whose token the
#: request carries, to be shown the games' facts (server/challenges.py).
ChallengeTable = Annotated[
    str | None,
    Query(
        min_length=1,
        max_length=64,
        description="a table of this challenge (its original game, or one opened from it) whose"
        " seat token or watch key goes in `Authorization`: once its game is over, the results"
        " carry each game's facts",
    ),
]
#: The token that goes with :data:`ChallengeTable`.
ChallengeBearer = Annotated[
    str | None,
    Header(
        max_length=200,
        description="`Bearer <token>`: a seat token or the watch key of the table named by"
        " `table` (ignored without it)",
    ),
]


class _App(FastAPI):
    """FastAPI with :class:`SecurityHeaders` around its whole stack, so that every response
    carries them, even the 500 of the outermost error handler."""

    def build_middleware_stack(self) -> ASGIApp:
        return SecurityHeaders(super().build_middleware_stack())


def create_app(
    settings: Settings | None = None,
    *,
    storage: Storage | None = None,
    fanout: FanOut | None = None,
    bot_runner: BotRunner | None = None,
    quota: TableQuota | None = None,
) -> FastAPI:
    """The card room as an ASGI app; the parts may be replaced (another store, another fan-out,
    another table quota)."""
    settings = settings or Settings()
    cluster: Cluster | None = None
    redis_quota: RedisTableQuota | None = None
    profile_quota: TableQuota = LocalTableQuota(settings.profile_quota_burst, settings.profile_quota_per_s)
    if storage is None and settings.redis_url is not None and settings.database_url is not None:
        # One node of several: PostgreSQL with leases and fenced writes, Redis between nodes.
        nodes_store = PostgresStorage(
            settings.database_url, node=new_node_id(), lease_s=settings.node_lease_s
        )
        cluster = Cluster(nodes_store, settings.redis_url, settings.node_lease_s)
        storage = nodes_store
        if quota is None:
            redis_quota = quota = RedisTableQuota(
                settings.redis_url, settings.table_quota_burst, settings.table_quota_per_s
            )
        profile_quota = RedisTableQuota(
            settings.redis_url,
            settings.profile_quota_burst,
            settings.profile_quota_per_s,
            prefix=PROFILE_PREFIX,
        )
    storage = storage or default_storage(settings)
    # One quick match of a game at a time: across the cluster's nodes when there are several.
    matching: LocalMatchLock | RedisMatchLock = (
        RedisMatchLock(settings.redis_url) if cluster is not None and settings.redis_url else LocalMatchLock()
    )
    room = Room(
        settings,
        storage,
        fanout or InProcessFanOut(),
        bot_runner or BotRunner(settings.bot_executor, settings.bot_workers),
        cluster,
    )

    analyses = AnalysisJobs(
        storage,
        settings.analysis_executor,
        settings.analysis_workers,
        settings.analysis_queue,
        per_client=settings.analysis_per_client,
    )

    players = Profiles(storage)
    deals = DailyDeals(room, players)
    daily_analyses = DailyAnalyses(deals, analyses, settings.daily_sweep_s)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        redact_uvicorn_logs()
        await room.start()
        analyses.start()
        daily_analyses.start()
        if settings.tune_gc:
            tune_gc()
        try:
            yield
        finally:
            await daily_analyses.close()
            await analyses.close()
            await room.stop()
            if redis_quota is not None:
                await redis_quota.aclose()
            if isinstance(profile_quota, RedisTableQuota):
                await profile_quota.aclose()
            if isinstance(matching, RedisMatchLock):
                await matching.aclose()

    app = _App(
        title="bistrot",
        version=__version__,
        description="The bistrot card room: Omi and Oti tables. The WebSocket protocol: docs/protocol.md.",
        lifespan=lifespan,
        # No API browser: FastAPI's /docs and /redoc load Swagger UI and ReDoc from a CDN, and
        # nothing of this card room comes from elsewhere at run time.  The schema is served.
        docs_url=None,
        redoc_url=None,
    )
    app.state.room = room
    app.state.settings = settings
    app.add_middleware(Unexpected)  # innermost: inside the body cap and the access log
    app.add_middleware(BodyLimit, max_bytes=settings.max_message_bytes)
    app.add_middleware(AccessLog)
    _add_error_handlers(app, settings.static_dir)
    app.state.analyses = analyses
    app.state.daily = daily_analyses
    quota = quota or LocalTableQuota(settings.table_quota_burst, settings.table_quota_per_s)
    lobby = Lobby(storage, wait_s=settings.quickmatch_wait_s, poll_s=settings.lobby_poll_s)
    _add_api(app, room, analyses, quota, players, lobby)
    _add_replays(app, room, settings)
    add_profiles(app, players, profile_quota, deals.streaks)
    add_daily(app, deals, players, quota)
    add_club(app, ClubEvents(room, players), players)
    add_passkeys(app, players, settings.public_url)
    add_reports(app, players)
    add_lobby(app, room, lobby, players, quota, settings, matching)
    _add_pages(app, settings)
    add_offline(app, settings.static_dir)  # offline play: /sw.js, Pyodide, the wheel (offline.py)

    penalties = PenaltyBox(settings.abuse_wait_s)
    app.state.penalties = penalties  # the WebSocket layer's too (runner.py: frames over the cap)

    @app.websocket("/ws/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        await WsConnection(websocket, settings, penalties).serve(room, table_id)

    return app


def _add_replays(app: FastAPI, room: Room, settings: Settings) -> None:
    replays = ReplayCache(settings.replay_cache_bytes)
    app.state.replays = replays
    # The same token bucket per address as new tables', a bucket of its own.
    asked = LocalTableQuota(settings.replay_quota_burst, settings.replay_quota_per_s)

    @app.get(
        "/api/tables/{table_id}/replay",
        response_model=Replay,
        responses={**ERRORS, 429: {"model": ErrorBody, "headers": RETRY_AFTER}},
        tags=["history"],
    )
    async def replay(table_id: str, request: Request, authorization: Bearer = None) -> Response:
        """A finished game step by step, every hand shown, each step as what changed: the same
        refusals as its record, and ``too_many_replays`` (429, ``Retry-After``) beyond the
        caller's address's quota. Built once, then kept; sent gzip-compressed when the caller
        accepts it (every browser does)."""
        # Counted before anything is read, so that a refused request costs nothing either.
        wait = await asked.wait(client_key(request.client.host if request.client else ""))
        if wait > 0:
            raise TooManyReplays(wait)
        core = await history.finished_game(room.storage, table_id, history.bearer(authorization))
        body = await replays.get(core.id, lambda: replay_of(core))
        if "gzip" in request.headers.get("accept-encoding", "").lower():
            headers = {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
            return Response(body, media_type="application/json", headers=headers)
        plain = gzip.decompress(body)
        return Response(plain, media_type="application/json", headers={"Vary": "Accept-Encoding"})


def default_storage(settings: Settings) -> Storage:
    """The store ``settings`` name: PostgreSQL at ``database_url`` if set, else the SQLite file."""
    if settings.database_url is not None:
        return PostgresStorage(settings.database_url, exclusive=True)
    return SQLiteStorage(
        settings.db,
        settings.sqlite_synchronous,
        inline=settings.sqlite_commit == "inline",
        wal_max_bytes=settings.wal_max_bytes,
    )


def _wants_page(request: Request) -> bool:
    """A browser asking for a page (not the API, a file or a socket)."""
    html = "text/html" in request.headers.get("accept", "")
    return html and not request.url.path.startswith(("/api/", "/static/", "/ws/"))


def _add_error_handlers(app: FastAPI, static: Path) -> None:
    @app.exception_handler(TableError)
    async def api_error(_request: Request, err: TableError) -> JSONResponse:
        retry_after = getattr(err, "retry_after", None)  # too_many_tables, analysis_busy
        headers = {"Retry-After": str(retry_after)} if retry_after is not None else None
        # A refusal may name more (daily_unfinished: the table of the game still on).
        body = {"code": err.code, "message": err.message, **getattr(err, "extra", {})}
        return JSONResponse(body, status_code=err.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, err: RequestValidationError) -> JSONResponse:
        errors = err.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            return JSONResponse(
                {"code": "bad_json", "message": "the request body is not JSON"}, status_code=422
            )
        first = errors[0] if errors else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "body"
        detail = [{k: e.get(k) for k in ("loc", "msg", "type")} for e in errors]
        return JSONResponse(
            {"code": "bad_request", "message": f"{where}: {first.get('msg', 'invalid')}", "detail": detail},
            status_code=422,
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, err: StarletteHTTPException) -> Response:
        if err.status_code == 400 and isinstance(err.__cause__, UnicodeDecodeError):
            # FastAPI reads a JSON body with json.loads(bytes): bytes that are not UTF-8 fail
            # before the JSON parser, and land here instead of in ``invalid`` above.
            return JSONResponse(
                {"code": "bad_json", "message": "the request body is not JSON (not even UTF-8)"},
                status_code=422,
            )
        index = static / "index.html"
        if err.status_code == 404 and _wants_page(request) and index.is_file():
            # The page says "not found" in the reader's language, with a way home (still a 404).
            return FileResponse(index, status_code=404, media_type="text/html")
        code = {404: "not_found", 405: "method_not_allowed"}.get(err.status_code, "http_error")
        return JSONResponse({"code": code, "message": str(err.detail)}, status_code=err.status_code)


def _add_api(
    app: FastAPI, room: Room, analyses: AnalysisJobs, quota: TableQuota, profiles: Profiles, lobby: Lobby
) -> None:
    async def take_table(request: Request) -> None:
        # Before the table is planned, so a refused request costs a token too: probing is not free.
        await take_from(quota, request.client.host if request.client else "")

    @app.get("/healthz", response_model=Health, responses={503: {"model": Health}}, tags=["server"])
    async def healthz(response: Response) -> dict[str, Any]:
        """Whether the server is up and its store reachable and taking writes (else 503), how
        many tables it holds in memory, which tables are broken (their stored rows cannot be
        rebuilt), how its store does (with its writes failed since start)."""
        reachable = await room.store_reachable()
        writable = room.store_writable()
        if not (reachable and writable):
            response.status_code = 503
        stats = getattr(room.storage, "stats", None)
        return {
            "ok": reachable and writable,
            "tables": len(room.tables),
            "store_reachable": reachable,
            "store_writable": writable,
            "broken_tables": len(room.broken),
            "broken": [t[:6] for t in list(room.broken)[: Health.BROKEN_SHOWN]],
            "acts": room.act_latency.summary(),
            "store": stats() if stats else None,
        }

    @app.get("/api/room", response_model=Sharing, tags=["server"])
    async def room_sharing(request: Request) -> dict[str, Any]:
        """Where the links a player shares should point (``public_url``, else this machine's
        network address when the page was opened at a loopback one), and whether they open on
        this machine only."""
        listen_host = getattr(request.app.state, "listen_host", None)
        origin, local_only = share_origin(
            room.settings.public_url,
            request.url.hostname or "",
            request.url.port,
            listen_host,
            network_address() if listen_host in EVERY_INTERFACE else None,
        )
        return {"share_origin": origin, "local_only": local_only}

    @app.get("/api/games", response_model=GameList, tags=["games"])
    async def list_games() -> Any:
        """Every game of this card room: its rules options (type, choices, bounds, default, record
        tag, label key), computer levels and table modes; the page builds its choices from it."""
        return Response(games_json(), media_type="application/json")

    @app.post(
        "/api/tables", status_code=201, response_model=CreatedTable, responses=CREATE_ERRORS, tags=["tables"]
    )
    async def open_table(body: CreateTable, request: Request, key: ProfileKey = None) -> dict[str, Any]:
        """Open a table against the computer, for friends, or for a hot seat (within the
        client's quota of new tables).  With a profile (its cookie or header), the creator's seat
        is the profile's, under its name; a ``public`` table needs one."""
        await take_table(request)
        profile = await optional_profile(profiles, request, key)
        asked = body.model_dump()
        if profile is not None:
            asked["name"] = profile.name
        opened = await room.create(asked, profile=None if profile is None else profile.id)
        if body.public:
            lobby.nudge()
        return opened

    @app.get("/api/tables/{table_id}", response_model=TableInfo, responses=ERRORS, tags=["tables"])
    async def table_info(table_id: str) -> dict[str, Any]:
        """Public facts of a table (no secret, no card)."""
        return await room.info(table_id)

    @app.post("/api/tables/{table_id}/join", response_model=Joined, responses=PROFILE_ERRORS, tags=["tables"])
    async def join(
        table_id: str, body: JoinTable, request: Request, key: ProfileKey = None
    ) -> dict[str, Any]:
        """Take the next free seat of a friends table: with its invite, or, at a public table,
        with a profile (its cookie or header).  With a profile, the seat is the profile's, under
        its name."""
        profile = await optional_profile(profiles, request, key)
        if profile is None:
            joined = await room.join(table_id, body.invite, body.name)
        else:
            await refuse_waiting_elsewhere(lobby, profile.id, table_id)
            joined = await room.join(table_id, body.invite, profile.name, profile.id)
        lobby.nudge()
        return joined

    @app.post(
        "/api/tables/{table_id}/check-invite", response_model=InviteOpen, responses=ERRORS, tags=["tables"]
    )
    async def check_invite(table_id: str, body: CheckInvite) -> dict[str, Any]:
        """Whether a join link still opens a seat (the page asks when it opens the link), and
        which: the refusals of ``join`` otherwise; nothing is taken. POST: the invite stays out
        of URLs and logs."""
        return await room.check_invite(table_id, body.invite)

    @app.post("/api/tables/{table_id}/start", response_model=TableInfo, responses=ERRORS, tags=["tables"])
    async def start(table_id: str, body: SeatAuth) -> dict[str, Any]:
        """The creator starts a friends table now; computer players take the free seats."""
        return await room.start_table(table_id, body.token)

    @app.post(
        "/api/tables/{table_id}/seat", response_model=TableInfo, responses=STORE_ERRORS, tags=["tables"]
    )
    async def move_seat(table_id: str, body: MoveSeat) -> dict[str, Any]:
        """Before the start of a friends table, move to a free seat; the creator (seat 0) also
        moves any other player, to a free seat or in exchange with its player."""
        return await room.move_seat(table_id, body.token, body.seat, body.to)

    @app.post(
        "/api/tables/{table_id}/rematch", response_model=Rematch, responses=STORE_ERRORS, tags=["tables"]
    )
    async def rematch(table_id: str, body: SeatAuth) -> dict[str, Any]:
        """The same table again with a new deal; everyone keeps their token."""
        return await room.rematch(table_id, body.token)

    @app.get(
        "/api/tables/{table_id}/record",
        response_class=PlainTextResponse,
        # Its refusals are JSON, as everywhere (the route's own type is text).
        responses={
            **{code: {"content": {"application/json": {"schema": ERROR_SCHEMA}}} for code in ERRORS},
            200: {"description": "the record (docs/records.md)"},
        },
        tags=["history"],
    )
    async def record(table_id: str, authorization: Bearer = None) -> PlainTextResponse:
        """The record of a finished game, as `bistrot analyze` reads it; refused before the end
        (``not_over``: it holds the seed) and, where the deal is a challenge's, without a token
        of the table (``challenge_deal``)."""
        core = await history.finished_game(room.storage, table_id, history.bearer(authorization))
        disposition = f'attachment; filename="{history.record_filename(core)}"'
        return PlainTextResponse(record_of(core), headers={"Content-Disposition": disposition})

    @app.get(
        "/api/tables/{table_id}/analysis", response_model=AnalysisState, responses=ERRORS, tags=["history"]
    )
    async def analysis(table_id: str, authorization: Bearer = None) -> dict[str, Any]:
        """Where the analysis of a finished game stands, with its result once done (docs/analysis.md):
        the same refusals as its record, and ``no_analysis`` (409) for a game that has none."""
        require_analysis(await history.finished_game(room.storage, table_id, history.bearer(authorization)))
        return await analyses.state(table_id)

    @app.post(
        "/api/tables/{table_id}/analysis",
        response_model=AnalysisState,
        responses=BUSY_ERRORS,
        tags=["history"],
    )
    async def analyse(table_id: str, request: Request, authorization: Bearer = None) -> dict[str, Any]:
        """Have a finished game analysed, once: computed in the server's analysis pool and stored,
        its progress in `GET`; the same refusals as its record, ``no_analysis`` (409) for a game
        that has none, ``too_many_analyses`` (429) while
        the caller's address has its share under way, and ``analysis_busy`` (503) while this
        server's analysis queue is full (for a caller without a seat token of the game: its first
        half), both with ``Retry-After``."""
        token = history.bearer(authorization)
        core = await history.finished_game(room.storage, table_id, token)
        require_analysis(core)
        player = token is not None and isinstance(core.identify(token), int)
        client = client_key(request.client.host if request.client else "")
        return await analyses.request(core, client, player)

    @app.post("/api/history", response_model=History, responses=ERRORS, tags=["history"])
    async def game_history(body: HistoryRequest) -> dict[str, Any]:
        """The finished games among the tables named (a browser's own): seats, result, winners,
        times; no secret and no card. POST: the ids stay out of URLs and logs."""
        return await history.history(room.storage, body.tables)

    @app.post(
        "/api/tables/{table_id}/challenge",
        response_model=ChallengeLink,
        responses=STORE_ERRORS,
        tags=["challenges"],
    )
    async def challenge(table_id: str, body: SeatAuth) -> dict[str, Any]:
        """A challenge link on this deal, from this seat."""
        return await room.challenge(table_id, body.token)

    @app.get(
        "/api/challenges/{challenge_id}",
        response_model=ChallengeInfo,
        # A result without "facts" (withheld) stays without it: not made null.
        response_model_exclude_unset=True,
        responses=ERRORS,
        tags=["challenges"],
    )
    async def challenge_info(
        challenge_id: str, table: ChallengeTable = None, authorization: ChallengeBearer = None
    ) -> dict[str, Any]:
        """The challenge and everybody's results; each finished game's facts (hand by hand) only
        for a caller who names a finished table of this challenge with a token of it
        (``facts_shown``). Refused: ``missing_token`` (a table without a token),
        ``not_challenge_table``, ``bad_token`` (403)."""
        return await room.challenge_info(challenge_id, table, history.bearer(authorization))

    @app.post(
        "/api/challenges/{challenge_id}/play",
        status_code=201,
        response_model=CreatedTable,
        responses=CREATE_ERRORS,
        tags=["challenges"],
    )
    async def play_challenge(
        challenge_id: str, body: PlayChallenge, request: Request, response: Response
    ) -> dict[str, Any]:
        """Open a table on the challenge's deal for the caller (within its quota of new tables),
        once per browser and address (``challenge_played``, 409, after that)."""
        await take_table(request)
        browser = request.cookies.get(CHALLENGER_COOKIE, "")
        if not CHALLENGER_ID.fullmatch(browser):
            browser = new_secret()
        # The browser's key: not a secret (it opens nothing), only who has played what.
        response.set_cookie(
            CHALLENGER_COOKIE, browser, max_age=CHALLENGER_MAX_AGE_S, path="/api/challenges",
            httponly=True, samesite="strict",
        )  # fmt: skip
        address = client_key(request.client.host if request.client else "")
        challenger = challenger_key(challenge_id, address, browser)
        return await room.play_challenge(challenge_id, body.name, challenger)


def _add_pages(app: FastAPI, settings: Settings) -> None:
    static = settings.static_dir
    app.mount("/static", StaticFiles(directory=static, check_dir=False), name="static")

    async def page() -> Any:
        index = static / "index.html"
        if not index.is_file():
            raise ApiError(404, "no_page", "the page is not installed with this server")
        return FileResponse(index, media_type="text/html")

    for route in PAGE_ROUTES:
        app.add_api_route(route, page, methods=["GET"], include_in_schema=False)
