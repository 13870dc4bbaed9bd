"""Accounts: sign-in by e-mail link, cookie sessions with a CSRF token, the seats an
account holds, and "your turn" across its tables.

**Signing in.** ``POST /api/account/sign-in`` with an address mails a one-time link,
valid :data:`SIGN_IN_LIFETIME`, whose token is stored as its SHA-256 only; the answer is
the same whether or not an account has the address (the first sign-in creates it).
Opening the link signs the browser in: the page posts the token to
``POST /api/account/session``, which sets the session cookie.

**Passwords** (optional): a signed-in account may set one (``POST
/api/account/password``), stored as an argon2id hash (``argon2-cffi``, its default
parameters: 64 MiB, 3 passes); ``POST /api/account/session`` with ``{"email",
"password"}`` then signs in as well. A wrong password and an unknown address get the
same answer after the same work (an unknown address is checked against a dummy hash).

**Sessions.** The cookie (:data:`SESSION_COOKIE`) is HttpOnly, SameSite=Lax, Secure on
https, and holds a random session id; the database keeps its SHA-256 and an expiry
(:data:`SESSION_LIFETIME`). Every state-changing request that the cookie authenticates
must carry ``X-CSRF-Token``, a token bound to the session (derived from its id, served
by ``GET /api/account``): a page of another site can send the cookie but cannot read the
token. Requests authenticated by a seat token (``Authorization: Bearer``) need none.

**Seats.** A seat joined while signed in belongs to the account. Its token is derived
from the account's ``seat_key`` (HMAC-SHA-256 of the table and seat), so every device
signed in to the account can obtain the same token again
(``POST /api/account/seats/{table}/{seat}/token``); the seat table stores its hash as
for any seat. Deleting the account deletes its sessions, notification settings, key,
ratings and results;
its seats stay in their games as anonymous seats (devices that hold their token keep
playing them).

All times come from the server's :mod:`~meeplehall.server.clock`.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import anyio.to_thread
from argon2 import PasswordHasher
from argon2.exceptions import Argon2Error
from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from meeplehall.server.clock import Clock
from meeplehall.server.db import (
    AccountRow,
    MoveRow,
    SeatRow,
    SessionRow,
    SignInRow,
    SubscriptionRow,
    TableRow,
)
from meeplehall.server.errors import Conflict, Forbidden, Invalid, NotFound, Unauthorized
from meeplehall.server.ratings import forget_account
from meeplehall.server.security import hash_token, new_token
from meeplehall.server.service import TableService

SESSION_COOKIE = "meeplehall_session"
CSRF_HEADER = "X-CSRF-Token"
SIGN_IN_LIFETIME = timedelta(minutes=15)
SESSION_LIFETIME = timedelta(days=30)
MAX_TURN_TABLES = 200  # the account's unfinished tables looked at for "your turn"
MIN_PASSWORD, MAX_PASSWORD = 10, 200  # characters
WRONG_PASSWORD = "wrong e-mail address or password"
_HASHER = PasswordHasher()  # argon2id with the library's defaults
_DUMMY: list[str] = []  # a hash to check unknown addresses against (same work)


def _dummy_hash() -> str:
    if not _DUMMY:
        _DUMMY.append(_HASHER.hash(secrets.token_urlsafe(16)))
    return _DUMMY[0]


def check_password(password: str) -> str:
    """``password`` when it may be an account's.

    Raises:
        Invalid: shorter than 10 or longer than 200 characters.
    """
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise Invalid(f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    return password


def aware(moment: datetime) -> datetime:
    """A stored time as aware UTC (SQLite gives them back without a zone)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def csrf_for(session_id: str) -> str:
    """The CSRF token of a session: bound to it, unguessable without it."""
    digest = hashlib.sha256(b"meeplehall-csrf:" + session_id.encode()).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def seat_token(seat_key: str, table_id: int, seat: int) -> str:
    """The token of an account's seat, derived from the account's key."""
    mac = hmac.new(seat_key.encode(), f"seat:{table_id}:{seat}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).decode().rstrip("=")


@dataclass(frozen=True, slots=True)
class Session:
    """A signed-in browser: its account, and the CSRF token its writes must carry."""

    id_hash: str
    account_id: int
    email: str
    name: str | None
    csrf: str
    seat_key: str


class Accounts:
    """Accounts, their sign-in links and sessions (in the service's database)."""

    def __init__(self, service: TableService, clock: Clock) -> None:
        self.service = service
        self.clock = clock

    # -- signing in ---------------------------------------------------------------------

    async def sign_in_link(self, email: str) -> str:
        """A new one-time sign-in token for ``email`` (already cleaned); its hash is
        stored. Whether an account has the address is not looked at."""
        token = new_token()
        until = self.clock.now() + SIGN_IN_LIFETIME

        def write(conn: Connection) -> None:
            conn.execute(insert(SignInRow).values(token_hash=hash_token(token), email=email,
                                                  expires_at=until, used=False))

        await self.service.transact(write)
        return token

    async def sign_in(self, token: str) -> tuple[str, Session]:
        """Use a sign-in token: the account of its address (created at its first
        sign-in) gets a new session. Returns the session id (for the cookie) and the
        session.

        Raises:
            Unauthorized: the link is unknown, used or expired.
        """
        now = self.clock.now()
        session_id = secrets.token_urlsafe(32)

        def write(conn: Connection) -> int:
            link = conn.execute(select(SignInRow).where(
                SignInRow.token_hash == hash_token(token))).first()
            if link is None or link.used or aware(link.expires_at) <= now:
                raise Unauthorized("this sign-in link is unknown, used or expired: ask "
                                   "for a new one")
            conn.execute(update(SignInRow).where(SignInRow.token_hash == link.token_hash)
                         .values(used=True))
            account = conn.execute(select(AccountRow.id).where(
                AccountRow.email == link.email)).scalar_one_or_none()
            if account is None:
                try:
                    with conn.begin_nested():
                        account = conn.execute(insert(AccountRow).values(
                            email=link.email, name=None, seat_key=secrets.token_hex(32),
                            created_at=now).returning(AccountRow.id)).scalar_one()
                except IntegrityError:  # created meanwhile by another sign-in
                    account = conn.execute(select(AccountRow.id).where(
                        AccountRow.email == link.email)).scalar_one()
            self._new_session(conn, session_id, int(account))
            return int(account)

        await self.service.transact(write)
        found = await self.session(session_id)
        assert found is not None
        return session_id, found

    def _new_session(self, conn: Connection, session_id: str, account: int) -> None:
        now = self.clock.now()
        conn.execute(insert(SessionRow).values(
            id_hash=hash_token(session_id), account_id=account, created_at=now,
            expires_at=now + SESSION_LIFETIME))

    async def sign_in_password(self, email: str, password: str) -> tuple[str, Session]:
        """Sign in with the account's password (argon2 checked on a worker thread).

        Raises:
            Unauthorized: no account has the address, it has no password, or the
                password is wrong (one answer for all three).
        """
        session_id = secrets.token_urlsafe(32)
        row = await self.service.read(lambda c: c.execute(
            select(AccountRow.id, AccountRow.password_hash).where(
                AccountRow.email == email)).first())
        stored = row.password_hash if row is not None else None

        def verify() -> bool:  # outside any transaction: it takes a while, on purpose
            try:
                return bool(_HASHER.verify(stored or _dummy_hash(), password))
            except Argon2Error:
                return False

        if not await anyio.to_thread.run_sync(verify) or row is None or stored is None:
            raise Unauthorized(WRONG_PASSWORD)
        await self.service.transact(lambda c: self._new_session(c, session_id, int(row.id)))
        found = await self.session(session_id)
        assert found is not None
        return session_id, found

    async def set_password(self, session: Session, password: str | None) -> None:
        """Set (None: remove) the account's password."""
        digest = None if password is None else await anyio.to_thread.run_sync(
            _HASHER.hash, check_password(password))
        await self.service.transact(lambda c: c.execute(
            update(AccountRow).where(AccountRow.id == session.account_id)
            .values(password_hash=digest)))

    async def has_password(self, session: Session) -> bool:
        return bool(await self.service.read(lambda c: c.execute(
            select(AccountRow.password_hash.is_not(None)).where(
                AccountRow.id == session.account_id)).scalar_one_or_none()))

    async def session(self, session_id: str | None) -> Session | None:
        """The live session of a cookie's id, or None."""
        if not session_id or len(session_id) > 200:
            return None
        digest = hash_token(session_id)
        now = self.clock.now()

        def read(conn: Connection) -> Session | None:
            row = conn.execute(
                select(SessionRow.expires_at, AccountRow.id, AccountRow.email,
                       AccountRow.name, AccountRow.seat_key)
                .join(AccountRow, AccountRow.id == SessionRow.account_id)
                .where(SessionRow.id_hash == digest)).first()
            if row is None or aware(row.expires_at) <= now:
                return None
            return Session(digest, int(row.id), row.email, row.name, csrf_for(session_id),
                           row.seat_key)

        return await self.service.read(read)

    async def sign_out(self, session: Session) -> None:
        await self.service.transact(lambda c: c.execute(
            delete(SessionRow).where(SessionRow.id_hash == session.id_hash)))

    # -- the account --------------------------------------------------------------------

    async def rename(self, session: Session, name: str | None) -> None:
        await self.service.transact(lambda c: c.execute(
            update(AccountRow).where(AccountRow.id == session.account_id).values(name=name)))

    async def delete(self, session: Session) -> None:
        """Delete the account and all it holds; its seats become anonymous."""
        account = session.account_id

        def write(conn: Connection) -> None:
            email = conn.execute(select(AccountRow.email).where(
                AccountRow.id == account)).scalar_one_or_none()
            conn.execute(update(SeatRow).where(SeatRow.account_id == account)
                         .values(account_id=None))
            conn.execute(delete(SubscriptionRow).where(SubscriptionRow.account_id == account))
            conn.execute(delete(SessionRow).where(SessionRow.account_id == account))
            if email is not None:
                conn.execute(delete(SignInRow).where(SignInRow.email == email))
            forget_account(conn, account)
            conn.execute(delete(AccountRow).where(AccountRow.id == account))

        await self.service.transact(write)

    async def seats(self, session: Session) -> list[dict[str, Any]]:
        """The account's seats, newest table first."""
        def read(conn: Connection) -> list[dict[str, Any]]:
            rows = conn.execute(
                select(SeatRow.table_id, SeatRow.seat, SeatRow.name, TableRow.game,
                       TableRow.finished)
                .join(TableRow, TableRow.id == SeatRow.table_id)
                .where(SeatRow.account_id == session.account_id)
                .order_by(SeatRow.table_id.desc(), SeatRow.seat))
            return [{"table_id": r.table_id, "seat": r.seat, "name": r.name,
                     "game": r.game, "finished": bool(r.finished)} for r in rows]

        return await self.service.read(read)

    async def seat_token(self, session: Session, table_id: int, seat: int) -> str:
        """The token of one of the account's seats, for this device.

        Raises:
            NotFound: the seat is not the account's.
            Conflict: the seat's token was replaced since (its host re-invited it, or
                it moved by a recovery link): it no longer belongs to the account.
        """
        def read(conn: Connection) -> Any:
            return conn.execute(select(SeatRow.token_hash).where(
                SeatRow.table_id == table_id, SeatRow.seat == seat,
                SeatRow.account_id == session.account_id)).first()

        row = await self.service.read(read)
        if row is None:
            raise NotFound(f"seat {seat} of table {table_id} is not one of this account's")
        token = seat_token(session.seat_key, table_id, seat)
        if row.token_hash is None or not hmac.compare_digest(row.token_hash,
                                                             hash_token(token)):
            raise Conflict(f"seat {seat} of table {table_id} was handed to another token "
                           "and is no longer this account's")
        return token

    def join_token(self, session: Session, table_id: int, seat: int) -> str:
        return seat_token(session.seat_key, table_id, seat)

    async def turns(self, session: Session) -> list[dict[str, Any]]:
        """The tables where it is one of the account's seats' turn, longest waiting
        first: ``{"table_id", "seat", "game", "since", "seq"}`` (``since``: when the
        turn began, the table's latest change)."""
        def read(conn: Connection) -> list[Any]:
            last = (select(func.max(MoveRow.created_at)).where(
                MoveRow.table_id == SeatRow.table_id).scalar_subquery())
            return list(conn.execute(
                select(SeatRow.table_id, SeatRow.seat, SeatRow.token_hash, TableRow.game,
                       TableRow.created_at, last.label("last"))
                .join(TableRow, TableRow.id == SeatRow.table_id)
                .where(SeatRow.account_id == session.account_id,
                       TableRow.finished.is_(False))
                .order_by(SeatRow.table_id.desc()).limit(MAX_TURN_TABLES)))

        found: list[dict[str, Any]] = []
        for row in await self.service.read(read):
            if row.token_hash != hash_token(seat_token(session.seat_key, row.table_id,
                                                       row.seat)):
                continue  # handed to another token since
            try:
                live = await self.service.get_live(row.table_id)
            except (NotFound, Conflict):
                continue
            if live.to_move != row.seat:
                continue
            since = aware(row.last if row.last is not None else row.created_at)
            found.append({"table_id": row.table_id, "seat": row.seat, "game": row.game,
                          "since": since.isoformat(), "seq": live.seq})
        found.sort(key=lambda t: (t["since"], t["table_id"]))
        return found


def check_csrf(session: Session, header: str | None) -> None:
    """Refuse a cookie-authenticated write without the session's CSRF token.

    Raises:
        Forbidden: the header is missing or is not this session's token.
    """
    if not header or not hmac.compare_digest(header.encode(), session.csrf.encode()):
        raise Forbidden(f"a signed-in write needs the {CSRF_HEADER} header given by "
                        "GET /api/account for this session")
