"""The routes of accounts and turn notifications (see :mod:`meeplehall.server.accounts`
and :mod:`meeplehall.server.notify`):

- ``POST /api/account/sign-in`` ``{"email"}``: mail a sign-in link (``202``, the same
  answer for every address); ``POST /api/account/session`` ``{"token"}``: use it (sets
  the session cookie); ``POST /api/account/sign-out``.
- ``GET /api/account``: the account, its seats, its notification settings and the
  session's CSRF token; ``POST /api/account`` ``{"name"}``; ``DELETE /api/account``.
- ``POST /api/account/password`` ``{"password"}``; ``POST /api/account/session``
  ``{"email", "password"}`` signs in with it.
- ``POST /api/account/seats/{table}/{seat}/token``: the token of one of its seats.
- ``GET /api/account/turns``: the tables where it is its turn, longest waiting first.
- ``GET|PUT /api/account/notifications``: ``{"email": bool, "webhook": URL|null}``.
- ``GET|PUT /api/tables/{id}/notify`` (seat token): ``{"email", "webhook"}``.
- ``GET /api/ratings/{game}?players=N``: the leaderboard; ``GET
  /api/accounts/{id}/profile``: ratings, results and solo personal bests.
- ``GET /api/notify/confirm?t=``, ``GET|POST /api/notify/unsubscribe?t=``: the links of
  the messages (``POST``: RFC 8058 one-click).

Writes authenticated by the session cookie need the ``X-CSRF-Token`` header.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Path, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from meeplehall.server.accounts import (
    CSRF_HEADER,
    SESSION_COOKIE,
    SESSION_LIFETIME,
    Accounts,
    Session,
    check_csrf,
)
from meeplehall.server.errors import Conflict, Invalid, NotFound, Unauthorized
from meeplehall.server.limits import Limits, client_address
from meeplehall.server.mail import Mail
from meeplehall.server.notify import Notifier, clean_email, page
from meeplehall.server.ratings import Ratings
from meeplehall.server.schemas import (
    AccountNotifyIn,
    NameIn,
    PasswordIn,
    SeatNotifyIn,
    SessionIn,
    SignInIn,
)
from meeplehall.server.security import hash_token
from meeplehall.server.service import TableService, games

SIGNED_OUT = "sign in first: this needs an account session"
SENT = {"detail": "if the address can sign in, a link is on its way to it"}


async def session_of(request: Request, accounts: Accounts, *, write: bool) -> Session | None:
    """The request's session (None without a cookie or with a dead one); a write must
    carry the session's CSRF token."""
    found = await accounts.session(request.cookies.get(SESSION_COOKIE))
    if found is not None and write:
        check_csrf(found, request.headers.get(CSRF_HEADER))
    return found


def add_people_routes(app: FastAPI, service: TableService, accounts: Accounts,
                      notifier: Notifier, costly: Limits, ratings: Ratings) -> None:
    """Declare the routes of accounts, notifications and ratings on ``app``."""

    @app.get("/api/ratings/{game}")
    async def leaderboard(game: Annotated[str, Path(max_length=64)], request: Request,
                          players: Annotated[int, Query(ge=2, le=8)] = 2) -> dict[str, Any]:
        """The leaderboard of ``game`` at ``players`` seats: rated accounts and bot
        levels, best first by ``rating`` (mu - 3 sigma)."""
        if game not in games():
            raise NotFound(f"unknown game {game!r}")
        await costly.take("view", client_address(request.scope))
        return {"game": game, "players": players,
                "players_rated": await ratings.leaderboard(game, players)}

    @app.get("/api/accounts/{account_id}/profile")
    async def profile(account_id: Annotated[int, Path(ge=1, le=2**62)],
                      request: Request) -> dict[str, Any]:
        """An account's public profile: name, ratings, results with each rating change,
        solo personal bests (never its address)."""
        await costly.take("view", client_address(request.scope))
        found = await ratings.profile(account_id)
        if found is None:
            raise NotFound(f"no account {account_id}")
        return found

    async def signed_in(request: Request, *, write: bool) -> Session:
        found = await session_of(request, accounts, write=write)
        if found is None:
            raise Unauthorized(SIGNED_OUT)
        return found

    async def account_json(session: Session) -> dict[str, Any]:
        return {"id": session.account_id, "email": session.email, "name": session.name,
                "csrf": session.csrf, "password": await accounts.has_password(session),
                "seats": await accounts.seats(session),
                "notifications": await notifier.account_settings(session.account_id)}

    @app.post("/api/account/sign-in", status_code=202)
    async def sign_in_request(body: SignInIn, request: Request) -> dict[str, Any]:
        """Mail a one-time sign-in link to the address. The answer is the same for
        every address, known or not; it is limited per client address and per e-mail
        address."""
        email = clean_email(body.email)
        await costly.take("sign-in", client_address(request.scope), hash_token(email))
        if notifier.relay is None:
            raise Conflict("this server sends no e-mail (it has no SMTP relay), so "
                           "nobody can sign in by e-mail here")
        token = await accounts.sign_in_link(email)
        link = f"{notifier.public_url}/#/sign-in/{token}"
        notifier.send_mail(Mail(email, "Sign in to meeplehall", (
            f"To sign in to meeplehall, open this link within 15 minutes:\n{link}\n\n"
            "If you did not ask for it, ignore this message.\n")))
        return SENT

    @app.post("/api/account/session")
    async def sign_in(body: SessionIn, request: Request) -> JSONResponse:
        """Use a sign-in link's ``token``, or ``email`` and ``password``: sets the
        session cookie; returns the account."""
        if body.token is not None and body.email is None and body.password is None:
            await costly.take("sign-in", client_address(request.scope))
            session_id, session = await accounts.sign_in(body.token)
        elif body.token is None and body.email is not None and body.password is not None:
            email = clean_email(body.email)
            await costly.take("sign-in", client_address(request.scope), hash_token(email))
            session_id, session = await accounts.sign_in_password(email, body.password)
        else:
            raise Invalid("send {\"token\"} (a sign-in link's) or {\"email\", "
                          "\"password\"}")
        reply = JSONResponse(await account_json(session))
        reply.set_cookie(SESSION_COOKIE, session_id,
                         max_age=int(SESSION_LIFETIME.total_seconds()), httponly=True,
                         secure=request.url.scheme == "https", samesite="lax", path="/")
        return reply

    @app.post("/api/account/password")
    async def set_password(body: PasswordIn, request: Request) -> dict[str, Any]:
        """Set the account's password (10 to 200 characters; null removes it): the
        account can then sign in with it as well as by e-mail link."""
        session = await signed_in(request, write=True)
        await accounts.set_password(session, body.password)
        return {"password": body.password is not None}

    @app.post("/api/account/sign-out")
    async def sign_out(request: Request) -> JSONResponse:
        session = await signed_in(request, write=True)
        await accounts.sign_out(session)
        reply = JSONResponse({"detail": "signed out"})
        reply.delete_cookie(SESSION_COOKIE, path="/")
        return reply

    @app.get("/api/account")
    async def account(request: Request) -> dict[str, Any]:
        """The signed-in account: name, address, seats, notification settings, and
        ``csrf``, the token every write of this session sends as ``X-CSRF-Token``."""
        return await account_json(await signed_in(request, write=False))

    @app.post("/api/account")
    async def rename_account(body: NameIn, request: Request) -> dict[str, Any]:
        """Name the account (public: its seats take it when joined without a name)."""
        session = await signed_in(request, write=True)
        await accounts.rename(session, body.name)
        return await account_json(await signed_in(request, write=False))

    @app.delete("/api/account")
    async def delete_account(request: Request) -> JSONResponse:
        """Delete the account with its sessions and notification settings; its seats
        stay in their games as anonymous seats."""
        session = await signed_in(request, write=True)
        await accounts.delete(session)
        reply = JSONResponse({"detail": "the account is deleted"})
        reply.delete_cookie(SESSION_COOKIE, path="/")
        return reply

    @app.post("/api/account/seats/{table_id}/{seat}/token")
    async def account_seat_token(table_id: Annotated[int, Path(ge=1, le=2**62)],
                                 seat: Annotated[int, Path(ge=0, le=63)],
                                 request: Request) -> dict[str, Any]:
        """The token of one of the account's seats, for this device."""
        session = await signed_in(request, write=True)
        token = await accounts.seat_token(session, table_id, seat)
        return {"table_id": table_id, "seat": seat, "token": token}

    @app.get("/api/account/turns")
    async def turns(request: Request) -> dict[str, Any]:
        """The tables where it is one of the account's seats' turn, longest waiting
        first."""
        session = await signed_in(request, write=False)
        await costly.take("view", client_address(request.scope))
        return {"turns": await accounts.turns(session)}

    @app.get("/api/account/notifications")
    async def account_notifications(request: Request) -> dict[str, Any]:
        session = await signed_in(request, write=False)
        return await notifier.account_settings(session.account_id)

    @app.put("/api/account/notifications")
    async def set_account_notifications(body: AccountNotifyIn,
                                        request: Request) -> dict[str, Any]:
        """Turn notifications for every seat of the account."""
        session = await signed_in(request, write=True)
        return await notifier.set_account(session.account_id, body.email, body.webhook)

    async def seat_of(request: Request, table_id: int) -> tuple[int, str]:
        header = request.headers.get("authorization", "")
        token = header[7:].strip() if header.lower().startswith("bearer ") else None
        seat, digest = await service.authenticate_for_move(table_id, token)
        return seat, digest

    @app.get("/api/tables/{table_id}/notify")
    async def seat_notifications(table_id: Annotated[int, Path(ge=1, le=2**62)],
                                 request: Request) -> dict[str, Any]:
        """The token's seat's turn notifications."""
        seat, digest = await seat_of(request, table_id)
        return await notifier.seat_settings(table_id, seat, digest)

    @app.put("/api/tables/{table_id}/notify")
    async def set_seat_notifications(table_id: Annotated[int, Path(ge=1, le=2**62)],
                                     body: SeatNotifyIn, request: Request) -> dict[str, Any]:
        """Set the token's seat's turn notifications: an e-mail address (sent a
        confirmation link first, and nothing else until it is opened) and a webhook."""
        seat, digest = await seat_of(request, table_id)
        if body.email is not None:
            await costly.take("mail", client_address(request.scope),
                              hash_token(clean_email(body.email)))
        return await notifier.set_seat(table_id, seat, digest, body.email, body.webhook)

    @app.get("/api/notify/confirm", response_class=HTMLResponse)
    async def confirm(t: Annotated[str, Query(max_length=200)]) -> HTMLResponse:
        """The confirmation link of an e-mail address."""
        address = await notifier.confirm(t)
        if address is None:
            return HTMLResponse(page("Link not valid", "This confirmation link is unknown "
                                     "or was used already."), status_code=404)
        return HTMLResponse(page("Notifications on", f"Turn notifications will be sent "
                                 f"to {address}."))

    async def unsubscribe(t: str) -> Response:
        target = await notifier.unsubscribe(t)
        if target is None:
            return HTMLResponse(page("Nothing to stop", "These notifications were "
                                     "stopped already."), status_code=404)
        return HTMLResponse(page("Notifications stopped", f"Nothing more will be sent "
                                 f"to {target} for this seat or account."))

    @app.get("/api/notify/unsubscribe", response_class=HTMLResponse)
    async def unsubscribe_get(t: Annotated[str, Query(max_length=200)]) -> Response:
        """The unsubscribe link of a message: one click stops it."""
        return await unsubscribe(t)

    @app.post("/api/notify/unsubscribe", response_class=HTMLResponse)
    async def unsubscribe_post(t: Annotated[str, Query(max_length=200)]) -> Response:
        """RFC 8058 one-click unsubscribe (``List-Unsubscribe-Post``)."""
        return await unsubscribe(t)
