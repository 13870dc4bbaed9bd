"""Seats that never stall: the host's controls and a seat's move to another device.

**Host.** Creating a table returns a secret host token (stored hashed, like seat
tokens: :mod:`meeplehall.server.security`), sent back as ``X-Host-Token``. With it the
host can

- *re-invite* a person's seat: its token (and any recovery link) stops working at once,
  its sockets close in every process, and the seat is open for joining again under a
  fresh invite link; the name is cleared, since someone else may take the seat;
- *hand* a seat to a bot level of the ladder: the bot moves for it at once and every
  seat's log says who played; the player keeps the token, sees the table, and cannot
  move until the host
- *takes it back*: the seat is the player's again when its token still holds it, and
  open for joining when nobody holds it (it was open, or re-invited);
- *mute* a seat's chat (and unmute it).

A table opened before hosts existed has no host token: those controls answer 403.

**Recovery.** A seated player asks for a recovery link (a one-time secret, stored
hashed; asking again replaces it). Opening it on another device issues a new seat token
for the same seat and name; the old token stops working at once, on HTTP and on its
sockets (across processes, as for a re-invite).
"""

from __future__ import annotations

import hmac
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from meeplehall.ai.base import BOTS
from meeplehall.server.db import SeatRow, TableRow, now
from meeplehall.server.errors import Conflict, Forbidden, Invalid, NotFound, Unauthorized
from meeplehall.server.security import hash_token, match_token, new_token
from meeplehall.server.service import HANDED, HUMAN, TableService

HOST_HEADER = "X-Host-Token"


def invite_path(table_id: int, seat: int) -> str:
    """The browser's invite link of a seat (a path with its fragment)."""
    return f"/#/table/{table_id}/join/{seat}"


def recovery_path(table_id: int, secret: str) -> str:
    """The browser's recovery link of a seat."""
    return f"/#/recover/{table_id}/{secret}"


class SeatControl:
    """The host's controls and seat recovery, on the table service's database."""

    def __init__(self, service: TableService) -> None:
        self.service = service

    # -- the host ---------------------------------------------------------------------------

    async def check_host(self, table_id: int, token: str | None) -> None:
        """Nothing when ``token`` is the table's host token.

        Raises:
            NotFound: no such table.
            Forbidden: no token, a wrong one, or a table without a host.
        """
        stored = await self.service.read(_host_hash, table_id)
        if stored is _MISSING:
            raise NotFound(f"no table {table_id}")
        if stored is None:
            raise Forbidden(f"table {table_id} has no host (it was opened before tables had "
                            "hosts), so nobody can use the host's controls")
        if not token:
            raise Forbidden(f"this needs the host token of table {table_id}: send it as "
                            f"'{HOST_HEADER}: TOKEN' (creating the table returned it)")
        if not hmac.compare_digest(hash_token(token), str(stored)):
            raise Forbidden(f"the host token is not the host token of table {table_id}")

    async def _human_seat(self, table_id: int, seat: int) -> None:
        probe = await self.service.probe(table_id)
        kinds = {s: k for s, k, _ in probe.seats}
        if seat not in kinds:
            raise NotFound(f"table {table_id} has no seat {seat} (seats 0-{len(kinds) - 1})")
        if kinds[seat] != HUMAN:
            raise Conflict(f"seat {seat} is a {kinds[seat]} bot's seat, not a person's")

    async def reinvite(self, table_id: int, seat: int) -> str:
        """Open a person's seat again: its token and recovery link stop working, its
        sockets close, its name is cleared. Returns the seat's invite link."""
        await self._human_seat(table_id, seat)
        await self.service.write(_reinvite, table_id, seat)
        await self.service.seats_changed(table_id, seat)
        return invite_path(table_id, seat)

    async def hand_to_bot(self, table_id: int, seat: int, level: str) -> None:
        """A bot level of the ladder moves for the person's seat ``seat`` from now on."""
        if level not in BOTS:
            raise Invalid(f"unknown bot level {level!r}; levels are: {', '.join(BOTS)}")
        await self._human_seat(table_id, seat)
        await self.service.write(_set_bot, table_id, seat, level)
        await self.service.seats_changed(table_id, seat)

    async def take_back(self, table_id: int, seat: int) -> None:
        """The seat is a person's again: the player's whose token still holds it, or
        open for joining when nobody holds it."""
        await self._human_seat(table_id, seat)
        if not await self.service.write(_clear_bot, table_id, seat):
            raise Conflict(f"seat {seat} is not played by a bot")
        await self.service.seats_changed(table_id, seat)

    async def mute(self, table_id: int, seat: int, muted: bool) -> None:
        """Mute (or unmute) the chat of ``seat``."""
        await self._human_seat(table_id, seat)
        await self.service.write(_mute, table_id, seat, muted)
        await self.service.seats_changed(table_id, seat)

    # -- recovery ---------------------------------------------------------------------------

    async def recovery_secret(self, table_id: int, seat: int, token_hash: str) -> str:
        """A fresh one-time recovery secret for the seat whose token hashes to
        ``token_hash`` (replacing any earlier one).

        Raises:
            Unauthorized: the token no longer holds the seat.
        """
        secret = new_token()
        if not await self.service.write(_set_recovery, table_id, seat, token_hash,
                                        hash_token(secret)):
            raise Unauthorized(f"the token is not the token of a seat at table {table_id}")
        return secret

    async def recover(self, table_id: int, secret: str) -> tuple[int, str]:
        """Move a seat to this device: the seat whose recovery secret is ``secret`` gets
        a new token (returned with the seat); the old token and the secret stop working.

        Raises:
            Unauthorized: the secret is not (or no longer) a recovery secret of the table.
        """
        rows = await self.service.read(_recovery_hashes, table_id)
        if rows is None:
            raise NotFound(f"no table {table_id}")
        seat = match_token(secret, rows)
        if seat is None:
            raise Unauthorized("this recovery link is not valid for this table: it was "
                               "used already, replaced by a newer one, or the seat was "
                               "re-invited")
        token = new_token()
        if not await self.service.write(_recover, table_id, seat, hash_token(secret),
                                        hash_token(token)):
            raise Unauthorized("this recovery link was used already")
        await self.service.seats_changed(table_id, seat)
        return seat, token


_MISSING: Any = object()


def _host_hash(conn: Connection, table_id: int) -> Any:
    row = conn.execute(select(TableRow.host_hash).where(TableRow.id == table_id)).first()
    return _MISSING if row is None else row[0]


def _reinvite(conn: Connection, table_id: int, seat: int) -> None:
    conn.execute(update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                 .values(token_hash=None, joined_at=None, name=None, recovery_hash=None,
                         account_id=None))


def _set_bot(conn: Connection, table_id: int, seat: int, level: str) -> None:
    conn.execute(update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                 .values(played_by=level, played_why=HANDED, deadline_at=None))


def _clear_bot(conn: Connection, table_id: int, seat: int) -> bool:
    done = conn.execute(update(SeatRow).where(
        SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.played_by.is_not(None))
        .values(played_by=None, played_why=None, deadline_at=None, reminded=False))
    return bool(done.rowcount == 1)


def _mute(conn: Connection, table_id: int, seat: int, muted: bool) -> None:
    conn.execute(update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                 .values(muted=muted))


def _set_recovery(conn: Connection, table_id: int, seat: int, token_hash: str,
                  secret_hash: str) -> bool:
    done = conn.execute(update(SeatRow).where(
        SeatRow.table_id == table_id, SeatRow.seat == seat,
        SeatRow.token_hash == token_hash).values(recovery_hash=secret_hash))
    return bool(done.rowcount == 1)


def _recovery_hashes(conn: Connection, table_id: int) -> list[tuple[int, str | None]] | None:
    rows = conn.execute(select(SeatRow.seat, SeatRow.recovery_hash)
                        .where(SeatRow.table_id == table_id)).all()
    return None if not rows else [(r[0], r[1]) for r in rows]


def _recover(conn: Connection, table_id: int, seat: int, secret_hash: str,
             token_hash: str) -> bool:
    done = conn.execute(update(SeatRow).where(
        SeatRow.table_id == table_id, SeatRow.seat == seat,
        SeatRow.recovery_hash == secret_hash, SeatRow.token_hash.is_not(None))
        .values(token_hash=token_hash, recovery_hash=None, joined_at=now()))
    return bool(done.rowcount == 1)
