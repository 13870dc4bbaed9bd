"""The ASGI app: ``create_app(db_url, redis_url=None)``.

HTTP routes (all under ``/api``; the OpenAPI schema is at ``/openapi.json``):

- ``GET /games``: the games of the registry, their options, and the seat kinds.
- ``GET|POST /tables``, ``POST /tables/import``, ``GET /tables/{id}``.
- ``POST /tables/{id}/seats/{seat}/join`` (returns the seat token; the body may give the
  player's name), ``POST /tables/{id}/leave``, ``POST /tables/{id}/name``.
- ``GET /tables/{id}/view`` (spectator), ``GET /tables/{id}/me`` (the token's seat),
  ``GET /tables/{id}/legal``, ``POST /tables/{id}/actions``, ``POST /tables/{id}/undo``,
  ``GET /tables/{id}/record`` (finished games), ``GET /tables/{id}/replay/{k}``.
- ``POST /tables/{id}/recovery`` (a seat's one-time recovery link) and
  ``POST /tables/{id}/recover`` (a new seat token on another device).
- With the host token (``X-Host-Token``, returned by creation and import):
  ``POST /tables/{id}/seats/{seat}/reinvite|bot|back|mute``, ``GET /tables/{id}/host``
  (see :mod:`meeplehall.server.seat_control`).
- ``POST|GET /tables/{id}/chat`` (see :mod:`meeplehall.server.chat`).
- WebSocket ``/tables/{id}/ws``: live updates (see :mod:`meeplehall.server.live`).

Seat tokens travel in ``Authorization: Bearer TOKEN``. Every error is JSON
``{"detail": "..."}`` naming the problem; a stale ``seq`` gets ``409`` with the current
``seq``.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import traceback
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import partial
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, Path, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.websockets import WebSocketDisconnect

from meeplehall.ai.base import BOTS
from meeplehall.core.messages import message_json
from meeplehall.server import jsontext
from meeplehall.server.accounts import Accounts
from meeplehall.server.bots import BotDriver, bot_seed
from meeplehall.server.chat import CHAT_PAGE, CHAT_TAIL, TableChat, may_read
from meeplehall.server.clock import Clock, SystemClock
from meeplehall.server.db import ensure_schema, make_engine
from meeplehall.server.deadlines import (
    DEFAULT_STAND_IN,
    SWEEP_EVERY,
    DeadlineKeeper,
)
from meeplehall.server.direct import SEND_KEY, direct_channel
from meeplehall.server.errors import (
    RETRY_AFTER,
    ApiError,
    Conflict,
    Forbidden,
    Invalid,
    database_errors,
    outage,
)
from meeplehall.server.headers import (
    content_security_policy,
    docs_policy,
    inline_scripts,
    inline_style_hashes,
    security_headers,
    with_headers,
)
from meeplehall.server.health import PROBE_TIMEOUT, Readiness
from meeplehall.server.heavy import HeavyPool
from meeplehall.server.limits import (
    LimitConfig,
    Limits,
    Rate,
    client_address,
    default_limits,
)
from meeplehall.server.live import Connection, Hub, table_message
from meeplehall.server.live_table import TableSettings
from meeplehall.server.mail import SmtpRelay
from meeplehall.server.notices import Notices
from meeplehall.server.notify import Notifier
from meeplehall.server.people import add_people_routes, session_of
from meeplehall.server.ratings import Ratings
from meeplehall.server.rules_text import split_rules
from meeplehall.server.schemas import (
    MAX_SEQ,
    AnalysisOut,
    BotIn,
    ChatIn,
    ChatMessage,
    ChatPage,
    CreatedOut,
    CreateTable,
    ErrorOut,
    GamesOut,
    ImportTable,
    InviteOut,
    JoinOut,
    LegalOut,
    LogPage,
    MoveIn,
    MuteIn,
    NameIn,
    RecoverIn,
    RecoveryMailOut,
    RecoveryOut,
    ReviewOut,
    RulesOut,
    SeatState,
    TableList,
    TableOut,
    UndoIn,
    ViewOut,
)
from meeplehall.server.seat_control import HOST_HEADER, SeatControl, recovery_path
from meeplehall.server.security import BodySizeLimit, hash_token, new_token
from meeplehall.server.service import HUMAN, READ_DEADLINE, TableService, games

log = logging.getLogger("meeplehall.server")

MAX_TABLE_ID = 2**62
REVIEWS_KEPT = 256  # finished games' reviews kept in memory per process
LOG_PAGE = 200  # log entries per page of GET /tables/{id}/log at most
TableId = Annotated[int, Path(ge=1, le=MAX_TABLE_ID, description="table id")]
_bearer = HTTPBearer(auto_error=False, description="a seat token from join")
Bearer = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]
HostToken = Annotated[str | None, Header(alias=HOST_HEADER, max_length=200,
                                         description="the table's host token")]
_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (401, 403, 404, 409, 413, 422, 429)}


def _token(credentials: HTTPAuthorizationCredentials | None) -> str | None:
    return None if credentials is None else credentials.credentials


ASGIApp = Callable[[dict[str, Any], Any, Any], Awaitable[None]]
FastHandler = Callable[[dict[str, Any], Any, Any, ASGIApp], Awaitable[None]]
_MOVE_PREFIX, _MOVE_SUFFIX = "/api/tables/", "/actions"
_FAST_BODY = 4096  # larger move bodies take the general path
_JSON_HEADERS = (b"content-type", b"application/json")


class MeeplehallApp(FastAPI):
    """FastAPI, with ``POST /api/tables/{id}/actions`` (the request every move makes)
    served by a plain ASGI handler when the request is well-formed: the FastAPI route
    stays declared (it documents the endpoint in the OpenAPI schema) and answers every
    other request to that path, so malformed ones get exactly the errors they always
    got. The handler skips Starlette's middleware and routing and FastAPI's dependency
    and validation machinery (together about a sixth of the server's time per move,
    py-spy; see docs/server.md). A WebSocket's scope keeps the server's own ``send``
    (``server.direct``: spectators' updates are written beside it)."""

    fast_move: FastHandler | None = None
    # Added to every HTTP answer (server.headers): the content security policy and
    # the others.
    security: tuple[tuple[bytes, bytes], ...] = ()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":  # the server's own send: see server.direct
            scope[SEND_KEY] = send
        elif scope["type"] == "http":
            send = with_headers(send, self.security)
        fast = self.fast_move
        if (fast is not None and scope["type"] == "http" and scope["method"] == "POST"
                and not scope.get("root_path") and not self.root_path):
            path: str = scope["path"]
            if path.startswith(_MOVE_PREFIX) and path.endswith(_MOVE_SUFFIX):
                await fast(scope, receive, send, super().__call__)
                return
        await super().__call__(scope, receive, send)


def parse_move(path: str, headers: Any, body: bytes) -> tuple[int, str, str, int] | None:
    """``(table_id, token, action, seq)`` of a move request that the FastAPI route would
    accept as it is (path, bearer token and body all valid), else None: the request then
    takes the general path, which answers it as before (errors included)."""
    middle = path[len(_MOVE_PREFIX):-len(_MOVE_SUFFIX)]
    if not (middle.isascii() and middle.isdigit()) or len(middle) > 20:
        return None
    table_id = int(middle)
    if not 1 <= table_id <= MAX_TABLE_ID:
        return None
    token = content_type = None
    for name, value in headers:
        if name == b"authorization" and token is None:
            scheme, _, param = value.decode("latin-1").partition(" ")
            token = param.strip() if scheme.lower() == "bearer" else ""
        elif name == b"content-type" and content_type is None:
            content_type = value
    if not token or content_type is None or \
            content_type.split(b";")[0].strip().lower() != b"application/json":
        return None
    try:
        data = jsontext.loads(body)
    except (ValueError, UnicodeDecodeError):  # the general path says what is wrong
        return None
    if type(data) is not dict or len(data) != 2:
        return None
    action, seq = data.get("action"), data.get("seq")
    if type(action) is not str or type(seq) is not int or not action.isascii() \
            or not 1 <= len(action) <= 200 or not 0 <= seq <= MAX_SEQ:
        return None
    return table_id, token, action, seq


def create_app(db_url: str, redis_url: str | None = None, *, move_rate: float = 20.0,
               move_burst: int = 40, max_body: int = 1 << 20, bot_think_time: float = 5.0,
               bot_workers: int = 2, bot_lease: float = 15.0,
               limits: LimitConfig | None = None,
               heavy_workers: int | None = None,
               read_deadline: float = READ_DEADLINE,
               clock: Clock | None = None, notices: Notices | None = None,
               smtp: str | None = None, public_url: str = "http://localhost:8000",
               webhook_allow_private: bool = False,
               deadline_every: float = SWEEP_EVERY) -> FastAPI:
    """Build the app on the database at ``db_url`` (migrated now, or refused).

    Args:
        db_url: ``sqlite:///PATH`` or ``postgresql+psycopg://user:pw@host:port/db``.
        redis_url: ``redis://host:port/0`` to share live updates between processes.
        move_rate, move_burst: moves (and undos) per second per seat token, and bursts.
        max_body: largest request body in bytes.
        bot_think_time: seconds a bot may think before the random bot moves for it.
        bot_workers: threads for bots and analyses when ``heavy_workers`` is 0.
        bot_lease: seconds a process holds a table's bots before another may take them
            over (at least twice ``bot_think_time``; see :mod:`meeplehall.server.bots`).
        limits: rate limits of costly requests and spectator sockets (default:
            :func:`meeplehall.server.limits.default_limits`).
        heavy_workers: worker processes for bots' moves and analyses (default
            :func:`meeplehall.server.heavy.default_workers`; 0: ``bot_workers`` threads of
            this process; see :mod:`meeplehall.server.heavy`).
        read_deadline: seconds a database read may take before its request gets 503.
        clock: the clock of hours and days (turn deadlines, sign-in links, sessions,
            notices; default :class:`~meeplehall.server.clock.SystemClock`).
        notices: the notice bus (your turn, reminders, stand-ins; default a new one), on
            ``app.state.notices``.
        smtp: the SMTP relay, ``smtp[s]://user:password@host:port[?from=ADDRESS]``
            (:mod:`meeplehall.server.mail`); without it no mail is sent (no sign-in by
            e-mail, no e-mail notifications).
        public_url: the address players open the server at, for links in messages.
        webhook_allow_private: let webhooks be plain http or reach loopback and private
            addresses (:mod:`meeplehall.server.webhooks`).
        deadline_every: seconds between two sweeps for due reminders and deadlines.

    Raises:
        ValueError: the SMTP URL cannot be read.
        meeplehall.server.db.StorageError: the database is unusable or of an unknown schema.
    """
    relay = None if smtp is None else SmtpRelay.from_url(smtp)
    clock = SystemClock() if clock is None else clock
    notices = Notices() if notices is None else notices
    engine = make_engine(db_url)
    ensure_schema(engine)
    service = TableService(engine, read_deadline=read_deadline)
    hub = Hub(service, redis_url)
    notifier = Notifier(service, notices, clock, relay=relay, public_url=public_url,
                        webhook_allow_private=webhook_allow_private)
    accounts = Accounts(service, clock)
    ratings = Ratings(service, clock)
    heavy = HeavyPool(heavy_workers, threads=bot_workers)
    service.heavy = heavy
    bots = BotDriver(service, heavy, think_time=bot_think_time, lease_time=bot_lease)
    deadlines = DeadlineKeeper(service, bots, clock, notices, every=deadline_every)
    control = SeatControl(service)
    chat = TableChat(service)

    async def chat_tail(table_id: int) -> list[dict[str, Any]]:
        return await chat.page(table_id, None, CHAT_TAIL)

    hub.chat_tail = chat_tail
    service.listeners += [hub.on_change, bots.on_change, deadlines.on_change,
                          notifier.on_change, ratings.on_change]
    service.seat_listeners += [hub.on_seat, notifier.on_seat]
    costly = Limits(limits or default_limits(), move=Rate(move_rate, move_burst))
    readiness = Readiness(partial(service.write_probe, PROBE_TIMEOUT), hub.ping,
                          hub.connections)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        costly.redis = hub.redis
        costly.start()
        heavy.start()
        bots.start()
        for table_id in await service.unfinished_bot_tables():
            bots.kick(table_id)
        await deadlines.start()
        try:
            yield
        finally:
            await deadlines.close()
            await bots.close()
            await heavy.close()
            await costly.close()
            await hub.close()
            notifier.close()
            ratings.close()
            service.close()
            engine.dispose()

    app = MeeplehallApp(title="meeplehall", version="1", lifespan=lifespan,
                  docs_url=None, redoc_url=None,
                  description="Tables, seats, views and live updates for the games of "
                              "meeplehall. Responses carry player views only.")
    app.security = tuple(security_headers(content_security_policy(inline_style_hashes())))
    app.state.service = service
    app.state.hub = hub
    app.state.bots = bots
    app.state.heavy = heavy
    app.state.limits = costly
    app.state.clock = clock
    app.state.notices = notices
    app.state.notifier = notifier
    app.state.accounts = accounts
    app.state.ratings = ratings
    app.state.deadlines = deadlines
    app.add_middleware(BodySizeLimit, limit=max_body)

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        headers = {}
        if "retry_after" in exc.extra:
            headers["Retry-After"] = str(max(1, round(exc.extra["retry_after"] + 0.5)))
        return JSONResponse(exc.body(), status_code=exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [{"loc": [str(p) for p in e.get("loc", ())], "msg": str(e.get("msg", ""))}
                  for e in exc.errors()]
        text = "; ".join(f"{'.'.join(e['loc'])}: {e['msg']}" for e in errors)
        return JSONResponse({"detail": f"invalid request: {text}", "errors": errors},
                            status_code=422)

    async def _database_error(request: Request, exc: Exception) -> JSONResponse:
        down = outage(exc)
        if down is None:
            return await _internal(request, exc)
        log.warning("%s %s: %s (%s)", request.method, request.url.path, down.detail,
                    type(exc).__name__)
        return await _api_error(request, down)

    # Handlers for these classes (not for ``Exception``, whose handler answers and then
    # re-raises, which drops the client's keep-alive connection): an outage is a 503.
    for error_class in database_errors():
        app.add_exception_handler(error_class, _database_error)

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception) -> JSONResponse:
        # Type and frames only: a message could quote a game state.
        log.error("internal error on %s %s: %s\n%s", request.method, request.url.path,
                  type(exc).__name__, "".join(traceback.format_tb(exc.__traceback__)))
        return JSONResponse({"detail": "internal server error"}, status_code=500)

    def seat_state(live: Any, seat: int | None) -> dict[str, Any]:
        return table_message(live, seat)

    async def take(kind: str, request: Request,
                   credentials: HTTPAuthorizationCredentials | None) -> None:
        """One request of ``kind`` from the client's address and (with a token) the
        token: its hash, checked or not (a forged token has its bucket too)."""
        token = _token(credentials)
        await costly.take(kind, client_address(request.scope),
                          None if not token else hash_token(token))

    async def reader(table_id: int, credentials: HTTPAuthorizationCredentials | None
                     ) -> tuple[Any, int | None]:
        """The table and the seat whose token ``credentials`` holds (None: a spectator,
        without a token)."""
        if credentials is None:
            return await service.get_live(table_id), None
        return await service.authenticate(table_id, _token(credentials))

    docs_page = get_swagger_ui_html(openapi_url="/openapi.json", title="meeplehall API")
    docs_headers = {"Content-Security-Policy": docs_policy(
        "".join(inline_scripts(bytes(docs_page.body).decode())))}

    @app.get("/docs", include_in_schema=False)
    async def api_docs() -> HTMLResponse:
        """The API's documentation (Swagger UI), with a policy of its own."""
        return HTMLResponse(bytes(docs_page.body), headers=docs_headers)

    # -- catalogue and tables -------------------------------------------------------------

    _unready: dict[int | str, dict[str, Any]] = {503: {"description": (
        "no write can be committed now (the database is down, full, read-only or "
        "locked); Retry-After says when to ask again")}}

    @app.get("/api/health/live")
    async def health_live() -> dict[str, Any]:
        """``200`` while the process answers (no database or Redis I/O): for a
        supervisor that restarts a process that stopped answering."""
        return {"status": "alive"}

    async def _ready() -> JSONResponse:
        status, body = await readiness.check()
        headers = {"Retry-After": str(round(RETRY_AFTER))} if status != 200 else None
        return JSONResponse(body, status_code=status, headers=headers)

    @app.get("/api/health/ready", responses=_unready)
    async def health_ready() -> JSONResponse:
        """``200`` with ``status`` ``ok``, or ``degraded`` while Redis is down (moves
        are still committed), when a write probe commits within a second; otherwise
        ``503`` (``status`` ``unavailable``) naming what failed. For a load balancer:
        see :mod:`meeplehall.server.health`."""
        return await _ready()

    @app.get("/api/health", responses=_unready)
    async def health() -> JSONResponse:
        """The same as ``/api/health/ready``."""
        return await _ready()

    @app.get("/api/games", response_model=GamesOut)
    async def list_games() -> dict[str, Any]:
        return {"games": [
            {"name": g.name, "title": g.title or g.name,
             "rules_version": g.rules_version,
             "options": [{"name": o.name, "kind": o.kind, "default": o.default,
                          "help": o.help, "choices": list(o.choices), "minimum": o.minimum,
                          "maximum": o.maximum} for o in g.options]}
            for g in games().values()], "seat_kinds": [HUMAN, *BOTS]}

    @app.get("/api/tables", response_model=TableList)
    async def list_tables(
            request: Request,
            game: Annotated[str | None, Query(max_length=64)] = None,
            finished: bool | None = None,
            limit: Annotated[int, Query(ge=1, le=200)] = 50,
            offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0) -> dict[str, Any]:
        await costly.take("view", client_address(request.scope))
        return {"tables": await service.list_tables(game, finished, limit, offset)}

    @app.post("/api/tables", status_code=201, response_model=CreatedOut, responses=_ERRORS)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        """Open a table; the answer holds its host token (shown only this once)."""
        strict_options(body.game, body.options, "options")
        settings = over_days(body.deadline_hours, body.stand_in, body.spectator_chat)
        client = client_address(request.scope)
        await costly.take("create", client)
        host = new_token()
        live = await with_bots(client, body.seats, lambda: service.create(
            body.game, body.options, body.seed, body.seats, settings=settings,
            host_hash=hash_token(host), rated=body.rated))
        return {**service.summary(live), "host_token": host}

    async def with_bots(client: str, seats: list[str] | None,
                        create: Callable[[], Awaitable[Any]]) -> Any:
        """``create()``, counted against the address's bot tables when a seat is a bot's."""
        if not seats or all(kind == HUMAN for kind in seats):
            return await create()
        made: list[Any] = []

        async def opened() -> int:
            made.append(await create())
            return int(made[0].table_id)

        await costly.bot_table(client, service.unfinished, opened)
        return made[0]

    @app.post("/api/tables/import", status_code=201, response_model=CreatedOut,
              responses=_ERRORS)
    async def import_table(body: ImportTable, request: Request) -> dict[str, Any]:
        """Open a table from a record; the answer holds its host token (shown once)."""
        game, params = body.record.get("game"), body.record.get("params")
        if isinstance(game, str) and isinstance(params, dict):
            strict_options(game, params, "record.params")
        settings = over_days(body.deadline_hours, body.stand_in, body.spectator_chat)
        client = client_address(request.scope)
        await costly.take("import", client)
        host = new_token()
        live = await with_bots(client, body.seats, lambda: service.import_record(
            body.record, body.seats, settings=settings, host_hash=hash_token(host)))
        return {**service.summary(live), "host_token": host}

    @app.get("/api/tables/{table_id}", response_model=TableOut, responses=_ERRORS)
    async def get_table(table_id: TableId, request: Request) -> dict[str, Any]:
        await costly.take("view", client_address(request.scope))
        return service.summary(await service.get_live(table_id))

    # -- seats --------------------------------------------------------------------------------

    @app.post("/api/tables/{table_id}/seats/{seat}/join", response_model=JoinOut,
              responses=_ERRORS)
    async def join(table_id: TableId, seat: Annotated[int, Path(ge=0, le=63)],
                   request: Request, body: NameIn | None = None) -> dict[str, Any]:
        """Take an open seat; ``{"name": ...}`` (optional) names its player. Signed in
        (the session cookie, with ``X-CSRF-Token``), the seat is the account's and
        takes the account's name when none is given."""
        session = await session_of(request, accounts, write=True)
        name = None if body is None else body.name
        if session is None:
            token = await service.join(table_id, seat, name)
        else:
            token = await service.join(
                table_id, seat, name if name is not None else session.name,
                token=accounts.join_token(session, table_id, seat),
                account_id=session.account_id)
        return {"table_id": table_id, "seat": seat, "token": token}

    @app.post("/api/tables/{table_id}/name", response_model=TableOut, responses=_ERRORS)
    async def rename(table_id: TableId, body: NameIn, credentials: Bearer) -> dict[str, Any]:
        """Give the token's seat a name (``null``: none); returns the table."""
        seat, digest = await service.authenticate_for_move(table_id, _token(credentials))
        await service.rename(table_id, seat, digest, body.name)
        return service.summary(await service.get_live(table_id))

    @app.post("/api/tables/{table_id}/leave", response_model=SeatState, responses=_ERRORS)
    async def leave(table_id: TableId, credentials: Bearer) -> dict[str, Any]:
        live, seat = await service.authenticate(table_id, _token(credentials))
        await service.leave(table_id, seat)
        return seat_state(live, seat)

    # -- seats that never stall: recovery and the host's controls ---------------------------

    @app.post("/api/tables/{table_id}/recovery", response_model=RecoveryOut,
              responses=_ERRORS)
    async def recovery(table_id: TableId, credentials: Bearer,
                       request: Request) -> dict[str, Any]:
        """A one-time recovery link for the token's seat (replacing an earlier one):
        opened on another device (``/recover``), it moves the seat there."""
        await take("recover", request, credentials)
        seat, digest = await service.authenticate_for_move(table_id, _token(credentials))
        secret = await control.recovery_secret(table_id, seat, digest)
        return {"table_id": table_id, "seat": seat, "secret": secret,
                "link": recovery_path(table_id, secret)}

    @app.post("/api/tables/{table_id}/recovery/mail", response_model=RecoveryMailOut,
              responses=_ERRORS)
    async def recovery_mail(table_id: TableId, credentials: Bearer,
                            request: Request) -> dict[str, Any]:
        """Send the token's seat a one-time recovery link (replacing an earlier one) at
        the e-mail addresses confirmed for it, its turn notifications' or its account's;
        the link is in the mail only, never in the answer."""
        await take("mail", request, credentials)
        seat, digest = await service.authenticate_for_move(table_id, _token(credentials))
        if notifier.relay is None:
            raise Conflict("this server sends no e-mail (no SMTP relay is configured): "
                           "copy the recovery link instead")
        addresses = await notifier.mail_addresses(table_id, seat)
        if not addresses:
            raise Conflict("no confirmed e-mail address reaches this seat: ask for turn "
                           "notifications by e-mail first, or copy the recovery link",
                           )
        secret = await control.recovery_secret(table_id, seat, digest)
        for address in addresses:
            notifier.send_mail(notifier.recovery_mail(
                address, table_id, seat, recovery_path(table_id, secret).lstrip("/")))
        return {"table_id": table_id, "seat": seat, "sent": len(addresses)}

    @app.post("/api/tables/{table_id}/recover", response_model=JoinOut, responses=_ERRORS)
    async def recover(table_id: TableId, body: RecoverIn, request: Request) -> dict[str, Any]:
        """Move a seat to this device with its recovery secret: a new seat token (the
        name is kept); the old token stops working at once, its sockets close."""
        await costly.take("recover", client_address(request.scope))
        seat, token = await control.recover(table_id, body.secret)
        return {"table_id": table_id, "seat": seat, "token": token}

    async def as_host(table_id: int, token: str | None, request: Request) -> None:
        await costly.take("host", client_address(request.scope))
        await control.check_host(table_id, token)

    async def hosted_summary(table_id: int) -> dict[str, Any]:
        await deadlines.settle(table_id)
        return service.summary(await service.get_live(table_id))

    @app.post("/api/tables/{table_id}/seats/{seat}/reinvite", response_model=InviteOut,
              responses=_ERRORS)
    async def reinvite(table_id: TableId, seat: Annotated[int, Path(ge=0, le=63)],
                       request: Request, host: HostToken = None) -> dict[str, Any]:
        """Host: open a person's seat again under a fresh invite link; its token stops
        working at once and its sockets close; its name is cleared."""
        await as_host(table_id, host, request)
        invite = await control.reinvite(table_id, seat)
        return {"table_id": table_id, "seat": seat, "invite": invite}

    @app.post("/api/tables/{table_id}/seats/{seat}/bot", response_model=TableOut,
              responses=_ERRORS)
    async def hand_to_bot(table_id: TableId, seat: Annotated[int, Path(ge=0, le=63)],
                          body: BotIn, request: Request, host: HostToken = None) -> dict[str, Any]:
        """Host: a bot level of the ladder moves for a person's seat from now on (the
        table counts against the address's bot tables, as one opened with a bot)."""
        await as_host(table_id, host, request)
        live = await service.get_live(table_id)
        client = client_address(request.scope)
        if any(s.bot is not None for s in live.seats):  # counted already, or not limited
            await control.hand_to_bot(table_id, seat, body.level)
        else:
            async def hand() -> int:
                await control.hand_to_bot(table_id, seat, body.level)
                return table_id

            await costly.bot_table(client, service.unfinished, hand)
        bots.kick(table_id)
        return await hosted_summary(table_id)

    @app.post("/api/tables/{table_id}/seats/{seat}/back", response_model=TableOut,
              responses=_ERRORS)
    async def take_back(table_id: TableId, seat: Annotated[int, Path(ge=0, le=63)],
                        request: Request, host: HostToken = None) -> dict[str, Any]:
        """Host: the seat a bot plays is a person's again: its player's when their token
        still holds it, else open for joining."""
        await as_host(table_id, host, request)
        await control.take_back(table_id, seat)
        return await hosted_summary(table_id)

    @app.post("/api/tables/{table_id}/seats/{seat}/mute", response_model=TableOut,
              responses=_ERRORS)
    async def mute(table_id: TableId, seat: Annotated[int, Path(ge=0, le=63)], body: MuteIn,
                   request: Request, host: HostToken = None) -> dict[str, Any]:
        """Host: mute (``{"muted": true}``) or unmute a seat's chat."""
        await as_host(table_id, host, request)
        await control.mute(table_id, seat, body.muted)
        return service.summary(await service.get_live(table_id))

    @app.get("/api/tables/{table_id}/host", response_model=TableOut, responses=_ERRORS)
    async def host_check(table_id: TableId, request: Request,
                         host: HostToken = None) -> dict[str, Any]:
        """Host: the table, when the host token is its host's (else 403)."""
        await as_host(table_id, host, request)
        return service.summary(await service.get_live(table_id))

    # -- chat ---------------------------------------------------------------------------------

    @app.post("/api/tables/{table_id}/chat", response_model=ChatMessage, responses=_ERRORS)
    async def post_chat(table_id: TableId, body: ChatIn, credentials: Bearer,
                        request: Request) -> dict[str, Any]:
        """Write to the table's chat as the token's seat (1 to 500 characters, one line,
        shown as text; rate-limited per seat and address; refused while muted)."""
        await take("chat", request, credentials)
        live, seat = await service.authenticate(table_id, _token(credentials))
        message = await chat.post(live, seat, body.text, clock.now())
        hub.on_chat(table_id, message, live.settings.spectator_chat)
        return message

    @app.get("/api/tables/{table_id}/chat", response_model=ChatPage, responses=_ERRORS)
    async def chat_page(table_id: TableId, credentials: Bearer, request: Request,
                        before: Annotated[int | None, Query(ge=1, le=2**62)] = None,
                        limit: Annotated[int, Query(ge=1, le=CHAT_PAGE)] = CHAT_PAGE
                        ) -> dict[str, Any]:
        """A page of the chat: the ``limit`` messages before message ``before`` (default:
        the newest), oldest first. Seats read it with their token; spectators where the
        table lets them."""
        await take("log", request, credentials)
        live, seat = await reader(table_id, credentials)
        if not may_read(live, seat):
            raise Forbidden(f"the chat of table {table_id} is for its seats only: the "
                            "table does not show it to spectators")
        return {"table_id": table_id, "messages": await chat.page(table_id, before, limit)}

    # -- views --------------------------------------------------------------------------------

    def view_response(live: Any, seat: int | None, view: dict[str, Any]) -> Response:
        """``{...turn fields, "view"}`` as JSON, made once per seat and seq."""
        made = live.replies.get(seat)
        if made is None or made[0] is not view:
            made = live.replies[seat] = (view, jsontext.dumps_bytes(
                {**seat_state(live, seat), "view": view}))
        return Response(made[1], media_type="application/json")

    @app.get("/api/tables/{table_id}/view", responses={200: {"model": ViewOut}, **_ERRORS})
    async def spectate(table_id: TableId, request: Request) -> Response:
        """The spectator's view. A table this process holds is served from memory when
        the database does not answer within 0.1 s (header ``X-From-Memory: 1``)."""
        await costly.take("view", client_address(request.scope))
        live, held = await service.live_for_view(table_id)
        reply = view_response(live, None, live.view(None))
        if held:
            reply.headers["X-From-Memory"] = "1"
        return reply

    @app.get("/api/tables/{table_id}/me", responses={200: {"model": ViewOut}, **_ERRORS})
    async def my_view(table_id: TableId, credentials: Bearer, request: Request) -> Response:
        await take("view", request, credentials)
        live, seat = await service.authenticate(table_id, _token(credentials))
        return view_response(live, seat, live.view(seat))

    @app.get("/api/tables/{table_id}/legal", response_model=LegalOut, responses=_ERRORS)
    async def legal(table_id: TableId, credentials: Bearer, request: Request) -> dict[str, Any]:
        await take("view", request, credentials)
        live, seat = await service.authenticate(table_id, _token(credentials))
        state = seat_state(live, seat)
        return {**state, "legal": None, "actions": state.get("legal") or []}

    @app.get("/api/tables/{table_id}/analysis", response_model=AnalysisOut,
             responses=_ERRORS)
    async def analysis(table_id: TableId, credentials: Bearer, request: Request,
                       bot: Annotated[str, Query(max_length=32)] = "greedy") -> dict[str, Any]:
        """The legal actions of the current decision ranked by a bot (``analyse``), best
        first: the hint of the seat to move. The bot reads only that seat's view."""
        if bot not in BOTS:
            raise Invalid(f"unknown bot {bot!r}; bots are: {', '.join(BOTS)}")
        live, seat = await service.authenticate(table_id, _token(credentials))
        if live.to_move != seat:
            raise Conflict(f"seat {seat} is not to move, so there is nothing to analyse",
                           seq=live.seq)
        await take("analysis", request, credentials)
        game, state, seq = live.game, live.state, live.seq
        labels = {a["text"]: a["label"] for a in live.legal()}
        legal_actions = game.legal_actions(state)
        seed = bot_seed(live.seed, seat, seq)
        ranked = await heavy.analyse(client_address(request.scope), game.name,
                                     game.player_view(state, seat),
                                     [str(a) for a in legal_actions], bot, seed)
        return {"table_id": table_id, "seq": seq, "seat": seat, "bot": bot,
                "decision": live.decision(),
                "ranked": [{"text": str(a),
                            "label": labels.get(str(a), message_json(str(a))),
                            "score": float(score)} for a, score in ranked]}

    @app.get("/api/tables/{table_id}/rules", response_model=RulesOut, responses=_ERRORS)
    async def rules(table_id: TableId, credentials: Bearer) -> dict[str, Any]:
        """The rule text of the decision asked now (the terminal's ``rules``): the same
        for every seat and spectator, so it shows nothing hidden; a token, if sent, must
        be one of the table's."""
        if credentials is not None:
            live, _ = await service.authenticate(table_id, _token(credentials))
        else:
            live = await service.get_live(table_id)
        rule_ids, text = split_rules(live.game.rules_text(live.state))
        return {"table_id": table_id, "seq": live.seq, "rule_ids": rule_ids, "text": text}

    @app.get("/api/tables/{table_id}/replay/{k}",
             responses={200: {"model": ViewOut}, **_ERRORS})
    async def replay_view(table_id: TableId, k: Annotated[int, Path(ge=0, le=1_000_000)],
                          credentials: Bearer, request: Request) -> Response:
        """The view after the first ``k`` moves: the spectator's, or with a token, the
        seat's own."""
        live, seat = await reader(table_id, credentials)
        if k < len(live.entries):  # the current view is cached; an older one is replayed
            await take("replay", request, credentials)
        view = await service.view_at(live, k, seat)
        return Response(jsontext.dumps_bytes({**seat_state(live, seat), "moves_shown": k,
                                              "view": view}), media_type="application/json")

    @app.get("/api/tables/{table_id}/log", responses={200: {"model": LogPage}, **_ERRORS})
    async def log_page(table_id: TableId, credentials: Bearer, request: Request,
                       before: Annotated[int | None, Query(ge=0, le=10_000_000)] = None,
                       limit: Annotated[int, Query(ge=1, le=LOG_PAGE)] = LOG_PAGE
                       ) -> Response:
        """A page of the view's log: the ``limit`` entries before entry ``before``
        (default: the end), the spectator's or, with a token, the seat's own. A sync
        frame carries the last entries of a long game's log only (``log_base``); this
        gives the earlier ones."""
        await take("log", request, credentials)
        live, seat = await reader(table_id, credentials)
        lines = live.view(seat).get("log", [])
        end = len(lines) if before is None else min(before, len(lines))
        start = max(0, end - limit)
        # LogPage's fields, in its order, as JSON text of their own (no validation
        # and encoding of up to 200 messages by FastAPI)
        return Response(jsontext.dumps_bytes(
            {"table_id": table_id, "seq": live.seq, "seat": seat, "total": len(lines),
             "from": start, "log": lines[start:end]}), media_type="application/json")

    @app.get("/api/tables/{table_id}/record", responses=_ERRORS)
    async def export_record(table_id: TableId, request: Request) -> Response:
        """The finished game as a GameRecord (JSON), ready for ``meeplehall replay``: a
        file to save as it is (the browser downloads these bytes and never parses them,
        so the seed stays exact)."""
        await costly.take("view", client_address(request.scope))
        live = await service.get_live(table_id)
        text = json.dumps(service.record(live), indent=1, sort_keys=True) + "\n"
        name = f"{live.game.name}-table-{table_id}.json"
        return Response(text.encode(), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    reviews: collections.OrderedDict[int, dict[str, Any]] = collections.OrderedDict()
    reviewing: dict[int, asyncio.Future[dict[str, Any]]] = {}

    @app.get("/api/tables/{table_id}/review", response_model=ReviewOut, responses=_ERRORS)
    async def game_review(table_id: TableId, request: Request) -> dict[str, Any]:
        """The finished game's review (``meeplehall.ai.review``): each side's chance of
        winning over the game and each person's costliest moves. Public once the game is
        over, like its record; made once per table by a worker process and kept."""
        client = client_address(request.scope)
        await costly.take("view", client)
        live = await service.get_live(table_id)
        record = service.record(live)  # 409 while the game runs
        made = reviews.get(table_id)
        if made is not None:
            reviews.move_to_end(table_id)
            return made
        pending = reviewing.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        await costly.take("review", client)
        people = [s.seat for s in live.seats if s.kind == HUMAN]
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        reviewing[table_id] = future
        try:
            made = {"table_id": table_id, **await heavy.review(client, record, people)}
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: the waiters, if any, get it too
            raise
        finally:
            reviewing.pop(table_id, None)
        future.set_result(made)
        reviews[table_id] = made
        while len(reviews) > REVIEWS_KEPT:
            reviews.popitem(last=False)
        return made

    # -- moves --------------------------------------------------------------------------------

    @app.post("/api/tables/{table_id}/actions", response_model=SeatState, responses=_ERRORS)
    async def submit(table_id: TableId, body: MoveIn, credentials: Bearer) -> JSONResponse:
        seat, digest = await service.authenticate_for_move(table_id, _token(credentials))
        await costly.take_move(digest)
        live = await service.submit(table_id, seat, body.action, body.seq, token_hash=digest)
        return JSONResponse(seat_state(live, seat))

    async def fast_submit(scope: dict[str, Any], receive: Any, send: Any,
                          general: ASGIApp) -> None:
        """``submit`` for well-formed requests, as a plain ASGI handler; anything else
        (and any body over the limit, or without a Content-Length) goes to ``general``,
        the FastAPI app, with the body read so far handed on."""
        headers = scope["headers"]
        size = -1
        for name, value in headers:
            if name == b"content-length":
                size = int(value) if value.isdigit() else -1
                break
        if not 0 <= size <= min(max_body, _FAST_BODY):
            await general(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        move = parse_move(scope["path"], headers, body)
        if move is None:
            replayed = False

            async def replay() -> Any:
                nonlocal replayed
                if not replayed:
                    replayed = True
                    return {"type": "http.request", "body": body, "more_body": False}
                return await receive()

            await general(scope, replay, send)
            return
        table_id, token, action, seq = move
        try:
            seat, digest = await service.authenticate_for_move(table_id, token)
            await costly.take_move(digest)
            live = await service.submit(table_id, seat, action, seq, token_hash=digest)
            content = jsontext.dumps_bytes(seat_state(live, seat))
        except ApiError as exc:
            await (await _api_error(None, exc))(scope, receive, send)  # type: ignore[arg-type]
            return
        except Exception as exc:
            down = outage(exc)
            if down is not None:
                await (await _api_error(None, down))(scope, receive, send)  # type: ignore[arg-type]
                return
            log.error("internal error on %s %s: %s\n%s", scope["method"], scope["path"],
                      type(exc).__name__, "".join(traceback.format_tb(exc.__traceback__)))
            await JSONResponse({"detail": "internal server error"}, status_code=500)(
                scope, receive, send)
            return
        await send({"type": "http.response.start", "status": 200, "headers": [
            (b"content-length", str(len(content)).encode()), _JSON_HEADERS]})
        await send({"type": "http.response.body", "body": content})

    app.fast_move = fast_submit

    @app.post("/api/tables/{table_id}/undo", response_model=SeatState, responses=_ERRORS)
    async def undo(table_id: TableId, body: UndoIn, credentials: Bearer,
                   request: Request) -> JSONResponse:
        await take("undo", request, credentials)
        seat, digest = await service.authenticate_for_move(table_id, _token(credentials))
        await costly.take_move(digest)
        live = await service.undo(table_id, seat, body.seq, body.count, token_hash=digest)
        return JSONResponse(seat_state(live, seat))

    # -- live updates ---------------------------------------------------------------------------

    @app.websocket("/api/tables/{table_id}/ws")
    async def live_updates(websocket: WebSocket, table_id: int) -> None:
        """Send ``{"token": TOKEN|null, "since": SEQ|null}`` first; then receive a
        ``sync`` message (the full view) and an ``update`` (a patch) after each change.
        The hello may add ``"seats": true`` (a seat's or a spectator's): the socket then
        also receives ``{"type": "seats", "present": [seat, ...], "names": [...]}`` at
        once and whenever a seat is taken, given up or renamed, or a player's socket
        comes or goes (``present``: the seats with a socket open in any server process;
        ``names``: each seat's player's name or null; ``seats``: each seat as the table's
        summary gives it). A seat's socket, and a spectator's where the table shows
        spectators its chat, gets ``{"type": "chat", "message": ...}`` for each chat
        message; its sync frame carries the last ones in ``chat``
        (:mod:`meeplehall.server.chat`). A hello with the token of a seat a stand-in bot
        plays ends the stand-in (:mod:`meeplehall.server.deadlines`)."""
        await websocket.accept()
        counted: str | None = None  # this socket in the counts (Limits)
        address = client_address(websocket.scope)
        try:
            await costly.take("ws", address)
            hello = jsontext.loads(await asyncio.wait_for(_receive_text(websocket), 10.0))
            token, since = _hello(hello, websocket)
            wants_seats = isinstance(hello, dict) and hello.get("seats") is True
            if not 1 <= table_id <= MAX_TABLE_ID:
                raise Invalid("the table id is out of range")
            seat: int | None = None
            await costly.take("sync", address, None if token is None else hash_token(token))
            if token is not None:
                live, seat = await service.authenticate(table_id, token)
                counted = await costly.open_seat(hash_token(token))
            else:
                live = await service.get_live(table_id)
                counted = await costly.open_spectator(address)
        except Exception as exc:
            down = outage(exc)
            if down is not None:
                exc = down
            elif not isinstance(exc, TimeoutError | WebSocketDisconnect | ValueError
                                | RecursionError | ApiError):
                raise
            status = exc.status if isinstance(exc, ApiError) else 400
            detail = exc.detail if isinstance(exc, ApiError) else (
                "send a JSON hello first: {\"token\": TOKEN or null, \"since\": SEQ or null}")
            with contextlib.suppress(Exception):
                await websocket.send_json({"type": "error", "status": status, "detail": detail})
                await websocket.close(4000 + status)
            if counted is not None:
                await costly.close_socket(counted)
            return
        conn = Connection(websocket, table_id, seat,
                          token_hash=None if token is None else hash_token(token),
                          wants_seats=wants_seats, direct=direct_channel(websocket.scope))
        hub.register(conn)
        pump: asyncio.Task[None] | None = None
        try:
            if wants_seats:
                with contextlib.suppress(Exception):  # without it: this process's only
                    await hub.learn_presence(table_id)
            sync = await hub.sync_message(conn, live, since)
            await websocket.send_text(jsontext.dumps_text(sync))
            pump = asyncio.get_running_loop().create_task(hub.pump(conn))
            conn.wake.set()  # catch up with anything committed while we were syncing
            while True:
                text = await _receive_text(websocket)
                if text.strip() == '{"type": "ping"}' or text.strip() == '{"type":"ping"}':
                    await websocket.send_json({"type": "pong", "seq": conn.last_seq})
        except _NotText:
            with contextlib.suppress(Exception):
                await websocket.close(1003)  # unsupported data: text frames only
        except (WebSocketDisconnect, RuntimeError):
            pass
        except Exception as exc:
            if outage(exc) is None:
                raise
            with contextlib.suppress(Exception):
                await websocket.close(1013)  # try again later: the client reconnects
        finally:
            hub.unregister(conn)
            if counted is not None:
                await costly.close_socket(counted)
            if pump is not None:
                pump.cancel()
                with contextlib.suppress(BaseException):
                    await pump

    add_people_routes(app, service, accounts, notifier, costly, ratings)

    from meeplehall.web import mount  # the browser client: /, /static, /api/i18n

    mount(app)
    return app


def over_days(deadline_hours: float | None, stand_in: str | None,
              spectator_chat: bool) -> TableSettings:
    """The settings of a table over days, checked.

    Raises:
        Invalid: a stand-in level that is not a bot of the ladder, or one without a
            deadline.
    """
    if stand_in is not None and stand_in not in BOTS:
        raise Invalid(f"stand_in: unknown bot level {stand_in!r}; levels are: "
                      f"{', '.join(BOTS)}")
    if deadline_hours is None:
        if stand_in is not None:
            raise Invalid("stand_in needs a deadline_hours: the stand-in moves past it")
        return TableSettings(spectator_chat=spectator_chat)
    return TableSettings(deadline_s=round(deadline_hours * 3600),
                         stand_in=stand_in or DEFAULT_STAND_IN,
                         spectator_chat=spectator_chat)


def strict_options(game_name: str, options: dict[str, Any], where: str) -> None:
    """Refuse option values of the wrong JSON type (``"players": "2"``, ``1`` for
    ``true``): the games' own check also reads the text forms a command line gives.
    Unknown games and options are left to that check, which names them."""
    game = games().get(game_name)
    if game is None:
        return
    kinds = {o.name: o for o in game.options}
    for name, value in options.items():
        option = kinds.get(name)
        if option is None:
            continue
        if option.kind == "int":
            ok = type(value) is int
            wanted = "an integer"
        elif option.kind == "bool":
            ok = type(value) is bool
            wanted = "true or false"
        else:
            ok = any(type(value) is type(c) and value == c for c in option.choices)
            wanted = "one of " + ", ".join(json_text(c) for c in option.choices)
        if not ok:
            raise Invalid(f"{where}.{name} must be {wanted}, not {json_text(value)}")


def json_text(value: Any) -> str:
    try:
        return jsontext.dumps_text(value)[:80]
    except Exception:
        return repr(value)[:80]


class _NotText(ValueError):
    """A binary frame where a text frame was expected."""


async def _receive_text(websocket: WebSocket) -> str:
    """The next text frame. Raises ``WebSocketDisconnect`` when the client left and
    ``_NotText`` for a binary frame (Starlette's ``receive_text`` raises ``KeyError``)."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        raise _NotText("send JSON in text frames")
    return str(text)


def _hello(data: Any, websocket: WebSocket) -> tuple[str | None, int | None]:
    if not isinstance(data, dict):
        raise Invalid("the hello must be a JSON object")
    token = data.get("token")
    if token is None:
        header = websocket.headers.get("authorization", "")
        if header.lower().startswith("bearer "):
            token = header[7:].strip() or None
    if token is not None and (not isinstance(token, str) or len(token) > 200):
        raise Invalid("'token' must be a string of at most 200 characters, or null")
    since = data.get("since")
    if since is not None and (not isinstance(since, int) or isinstance(since, bool)
                              or not 0 <= since <= 2**31):
        raise Invalid("'since' must be a seq (a non-negative integer), or null")
    return token, since
