"""Turn deadlines: a reminder before, a stand-in bot past it, until the player returns.

A table may be opened with a turn deadline (``deadline_hours``, 1 hour to 14 days) and
a stand-in bot level of the ladder (default :data:`DEFAULT_STAND_IN`). After every change
of such a table, the seat to move (a person's seat that no bot plays) gets a deadline,
stored in ``seats.deadline_at`` as an absolute time on the server's
:class:`~meeplehall.server.clock.Clock`, and the other seats' deadlines are cleared. Each
of the seat's own steps starts it again (a turn of many small decisions is one
decision after another), so only a silent seat reaches it.

- **Reminder**: once per deadline, :func:`reminder_lead` before it (a quarter of the
  deadline, at most a day: 15 minutes before a one-hour deadline, 12 hours before a
  two-day one, a day before a fortnight), a ``reminder`` notice is published on the
  app's :class:`~meeplehall.server.notices.Notices`.
- **Stand-in**: past the deadline the seat is stood in (``played_by`` = the stand-in
  level, ``played_why`` = ``deadline``): the bot driver (:mod:`meeplehall.server.bots`)
  plays its moves, each with a note every seat's log shows ("Played by the stand-in bot
  for Bob"), and a ``stand-in`` notice is published.
- **Return**: the player's next request with the seat's token (any authenticated
  request: a view, a move, a socket's hello) ends the stand-in; the seat gets a fresh
  deadline when it is its turn.

Deadlines and reminders live in the database, so they survive a restart of every
process. Each process sweeps every ``every`` seconds for due ones and claims each
atomically (``UPDATE ... WHERE`` not yet claimed, like the bots' leases), so two
processes never both remind or stand in. A process that starts sets a deadline for the
seat to move at every unfinished deadline table whose seats have none (the change that
should have set it was committed by a process that died just after).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, func, select, update
from sqlalchemy.engine import Connection

from meeplehall.server.bots import BotDriver
from meeplehall.server.clock import Clock
from meeplehall.server.db import MoveRow, SeatRow, TableRow
from meeplehall.server.notices import Notice, Notices
from meeplehall.server.service import HUMAN, STOOD_IN, TableService, aware

log = logging.getLogger("meeplehall.server.deadlines")

DEFAULT_STAND_IN = "greedy"
MIN_DEADLINE_HOURS = 1.0
MAX_DEADLINE_HOURS = 14 * 24.0
SWEEP_EVERY = 30.0  # seconds between two looks for due reminders and deadlines
REMINDER_MAX_LEAD = timedelta(days=1)


def reminder_lead(deadline_s: int) -> timedelta:
    """How long before a deadline of ``deadline_s`` seconds its reminder goes out."""
    return min(timedelta(seconds=deadline_s / 4), REMINDER_MAX_LEAD)


class DeadlineKeeper:
    """Sets, reminds and enforces the turn deadlines of this process's tables."""

    def __init__(self, service: TableService, bots: BotDriver, clock: Clock,
                 notices: Notices, *, every: float = SWEEP_EVERY) -> None:
        self.service = service
        self.bots = bots
        self.clock = clock
        self.notices = notices
        self.every = every
        self._tasks: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self._closed = False
        service.returning = self.returned

    async def start(self) -> None:
        """Set missing deadlines of unfinished tables, then sweep every ``every`` s."""
        with contextlib.suppress(Exception):
            for table_id in await self.service.read(_without_deadline):
                await self.settle(table_id)
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())

    async def close(self) -> None:
        self._closed = True
        tasks = [*self._tasks, *([self._sweeper] if self._sweeper else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def on_change(self, table_id: int, _seq: int, _undo: bool) -> None:
        """A change this process committed: the seat to move gets its deadline."""
        live = self.service.cached(table_id)
        if self._closed or live is None or live.settings.deadline_s is None:
            return
        task = asyncio.get_running_loop().create_task(self.settle(table_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settle(self, table_id: int) -> None:
        """Start the deadline of the seat to move now; clear the others'."""
        try:
            live = await self.service.get_live(table_id)
            deadline_s = live.settings.deadline_s
            if deadline_s is None:
                return
            to_move = live.to_move
            if to_move is not None and live.seats[to_move].bot is not None:
                to_move = None  # a bot moves: nobody's deadline runs
            until = self.clock.now() + timedelta(seconds=deadline_s)
            changed, renewed = await self.service.write(_set_deadline, table_id, to_move, until)
            for seat in changed:
                await self.service.seats_changed(table_id, seat)
            if renewed is not None and renewed not in changed:
                # The same seat's next step: its deadline starts again, told to the sockets
                # with the next change of the seats (not one seats message per step).
                self.service.renewed_deadline(table_id, renewed, until)
        except Exception as exc:  # the next change, or the next start, sets it
            log.warning("table %d: cannot set the turn deadline (%s)", table_id,
                        type(exc).__name__)

    async def returned(self, table_id: int, seat: int, token_hash: str) -> None:
        """The player of a stood-in seat is back (a request with its token)."""
        if await self.service.write(_end_stand_in, table_id, seat, token_hash):
            log.info("table %d seat %d: the player is back, the stand-in ends",
                     table_id, seat)
            await self.service.seats_changed(table_id, seat)
            await self.settle(table_id)

    async def _sweep_loop(self) -> None:
        while not self._closed:
            await asyncio.sleep(self.every)
            try:
                await self.sweep()
            except Exception as exc:  # the database is down, say: look again later
                log.warning("cannot sweep the turn deadlines (%s)", type(exc).__name__)

    async def sweep(self) -> list[Notice]:
        """Send the reminders that are due and stand in for the seats past their
        deadline, claiming each in the database first; returns the notices published
        (by this process)."""
        stamp = self.clock.now()
        published: list[Notice] = []
        for due in await self.service.read(_due, stamp):
            table_id, seat, deadline_at, reminded, deadline_s, stand_in, game, head = due
            deadline_at = aware(deadline_at)
            if deadline_at is None:  # the query asks for seats with a deadline only
                continue
            if deadline_at <= stamp:
                if not await self.service.write(_stand_in, table_id, seat,
                                                stand_in or DEFAULT_STAND_IN, stamp):
                    continue  # another process stood in first, or the seat moved
                notice = Notice("stand-in", table_id, seat, int(head or 0), stamp, game,
                                deadline_at)
                await self.service.seats_changed(table_id, seat)
                self.bots.kick(table_id)
            elif not reminded and deadline_at - reminder_lead(deadline_s) <= stamp:
                if not await self.service.write(_remind, table_id, seat, deadline_at, stamp):
                    continue
                notice = Notice("reminder", table_id, seat, int(head or 0), stamp, game,
                                deadline_at)
            else:
                continue
            self.notices.publish(notice)
            published.append(notice)
        return published


def _without_deadline(conn: Connection) -> list[int]:
    running = select(SeatRow.table_id).where(SeatRow.deadline_at.is_not(None))
    return [r[0] for r in conn.execute(select(TableRow.id).where(
        TableRow.deadline_s.is_not(None), TableRow.finished.is_(False),
        TableRow.id.not_in(running)))]


def _set_deadline(conn: Connection, table_id: int, to_move: int | None,
                  until: datetime) -> tuple[list[int], int | None]:
    """Clear every deadline but ``to_move``'s, which starts again at ``until``; returns
    the seats whose deadline was cleared or started, and ``to_move`` where its running
    deadline started again."""
    where = [SeatRow.table_id == table_id, SeatRow.deadline_at.is_not(None)]
    if to_move is not None:
        where.append(SeatRow.seat != to_move)
    cleared = [r[0] for r in conn.execute(update(SeatRow).where(*where)
                                          .values(deadline_at=None, reminded=False)
                                          .returning(SeatRow.seat))]
    if to_move is None:
        return cleared, None
    mine = [SeatRow.table_id == table_id, SeatRow.seat == to_move, SeatRow.kind == HUMAN,
            SeatRow.played_by.is_(None)]
    started = conn.execute(update(SeatRow).where(*mine, SeatRow.deadline_at.is_(None))
                           .values(deadline_at=until, reminded=False))
    if started.rowcount:
        return [*cleared, to_move], None
    renewed = conn.execute(update(SeatRow).where(*mine).values(deadline_at=until,
                                                                reminded=False))
    return cleared, to_move if renewed.rowcount else None


def _end_stand_in(conn: Connection, table_id: int, seat: int, token_hash: str) -> bool:
    done = conn.execute(update(SeatRow).where(
        SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.played_why == STOOD_IN,
        SeatRow.token_hash == token_hash)
        .values(played_by=None, played_why=None, deadline_at=None, reminded=False))
    return bool(done.rowcount == 1)


def _due(conn: Connection, stamp: datetime) -> list[Any]:
    """Seats with a running deadline whose reminder or end is due (the reminder lead is
    at most a day, so nothing further away is read)."""
    head = (select(func.max(MoveRow.seq)).where(MoveRow.table_id == SeatRow.table_id)
            .scalar_subquery())
    return list(conn.execute(
        select(SeatRow.table_id, SeatRow.seat, SeatRow.deadline_at, SeatRow.reminded,
               TableRow.deadline_s, TableRow.stand_in, TableRow.game, head)
        .join(TableRow, and_(TableRow.id == SeatRow.table_id))
        .where(SeatRow.deadline_at.is_not(None), SeatRow.played_by.is_(None),
               TableRow.finished.is_(False), TableRow.deadline_s.is_not(None),
               SeatRow.deadline_at <= stamp + REMINDER_MAX_LEAD)
        .order_by(SeatRow.deadline_at)).all())


def _stand_in(conn: Connection, table_id: int, seat: int, level: str,
              stamp: datetime) -> bool:
    done = conn.execute(update(SeatRow).where(
        SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.played_by.is_(None),
        SeatRow.deadline_at.is_not(None), SeatRow.deadline_at <= stamp)
        .values(played_by=level, played_why=STOOD_IN, deadline_at=None, reminded=True))
    return bool(done.rowcount == 1)


def _remind(conn: Connection, table_id: int, seat: int, deadline_at: datetime,
            stamp: datetime) -> bool:
    done = conn.execute(update(SeatRow).where(
        SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.reminded.is_(False),
        SeatRow.played_by.is_(None), SeatRow.deadline_at == deadline_at,
        SeatRow.deadline_at > stamp).values(reminded=True))
    return bool(done.rowcount == 1)
