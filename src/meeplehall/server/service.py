"""The table service: every change goes through here, to the database first.

The move log in the database is the truth; :class:`~meeplehall.server.live_table.Live`
objects cache the state rebuilt from it. A move is checked against the cached state,
then inserted with the next sequence number; the unique ``(table_id, seq)`` constraint
makes exactly one of two concurrent submissions win, in this process or another one
sharing the database. The reply is sent only after the commit. Moves are written by one
writer thread that commits every move waiting at the time in one transaction (group
commit: :mod:`meeplehall.server.writer`); tables, seats and joins by a few others.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import partial
from typing import Any, TypeVar

import anyio.to_thread
from sqlalchemy import delete, func, insert, select, text, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from meeplehall.ai.base import BOTS
from meeplehall.core.protocol import Game, IllegalActionError, validate_params
from meeplehall.core.record import GameRecord, RecordError, replay
from meeplehall.core.rng import check_seed, new_seed
from meeplehall.server.db import (
    SQLITE_BUSY_MS,
    LeaseRow,
    MoveRow,
    SeatRow,
    TableRow,
    db_later,
    db_now,
    now,
)
from meeplehall.server.errors import (
    RETRY_AFTER,
    ApiError,
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    Unauthorized,
    Unavailable,
    outage,
)
from meeplehall.server.heavy import HeavyPool, import_record_job
from meeplehall.server.live_table import (
    MOVE,
    UNDO,
    Built,
    CorruptLog,
    Entry,
    Live,
    Row,
    SeatInfo,
    TableSettings,
    record_built,
    replay_entries,
    replay_rows,
    step_legal,
)
from meeplehall.server.security import hash_token, match_token, new_token
from meeplehall.server.writer import MoveWriter

log = logging.getLogger("meeplehall.server")

HUMAN = "human"
STOOD_IN = "deadline"  # seats.played_why of a seat a stand-in bot plays past its deadline
HANDED = "host"  # seats.played_why of a seat the host handed to a bot
MAX_SEED = 2**63 - 1
# Table sources whose creator knows the seed: a chosen seed, an imported record.
SEED_KNOWN = ("chosen", "import")
MAX_RECORD_ACTIONS = 20_000
IMPORT_TIME_LIMIT = 30.0  # seconds an import's check and rebuild of its record may take in a worker
READ_DEADLINE = 0.9  # seconds a database read may take before the request gets 503
MEMORY_WAIT = 0.1  # seconds a spectator's view of a held table waits for the database
MEMORY_SPELL = 1.0  # seconds after such a wait failed that views of held tables do not wait
# Readiness: a write that changes nothing, committed where a move would be.
_PROBE = "UPDATE alembic_version SET version_num = version_num"
T = TypeVar("T")
Listener = Callable[[int, int, bool], None]
SeatListener = Callable[[int, int, str | None], None]  # table, seat, its token hash now


def games() -> dict[str, Game]:
    from meeplehall.games import GAMES

    return GAMES


def find_game(name: str) -> Game:
    registry = games()
    if name not in registry:
        raise Invalid(f"unknown game {name!r}; games are: {', '.join(sorted(registry))}")
    return registry[name]


@dataclass(frozen=True, slots=True)
class Probe:
    """What one cheap read says about a table: its seats and its newest seq."""

    seats: list[tuple[int, str, str | None]]
    head: int
    names: dict[int, str] = field(default_factory=dict)  # the seats with a name
    # The seats played by a bot, muted or with a running deadline: seat ->
    # (played_by, played_why, muted, deadline_at).
    extra: dict[int, tuple[str | None, str | None, bool, Any]] = field(default_factory=dict)


class TableService:
    """Tables, seats, moves and undo, with an in-memory cache of rebuilt states."""

    def __init__(self, engine: Engine, *, cache_size: int = 2000,
                 read_deadline: float = READ_DEADLINE) -> None:
        self.engine = engine
        self.cache_size = cache_size
        self.read_deadline = read_deadline
        self._live: OrderedDict[int, Live] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}
        self.listeners: list[Listener] = []
        self.seat_listeners: list[SeatListener] = []
        self._memory_until = 0.0  # monotonic: views of held tables come from memory
        self.heavy: HeavyPool | None = None  # the app's: imports check their record there
        # This process's bot driver and its lease time (set by BotDriver): a change that
        # hands a table to a bot takes the bots' lease in the same transaction, so a
        # process that dies just after it leaves a lease that lapses and is taken over.
        self.bot_lease: tuple[str, float] | None = None
        # Called (table, seat, token hash) when the player of a seat that a stand-in bot
        # plays comes back with its token (meeplehall.server.deadlines ends the stand-in).
        self.returning: Callable[[int, int, str], Awaitable[None]] | None = None
        sqlite = engine.dialect.name == "sqlite"
        # SQLite has one writer at a time; writers queueing on its busy handler sleep for
        # up to 100 ms, so this process's writers queue on a lock instead.
        self._writing: contextlib.AbstractContextManager[Any] = (
            threading.Lock() if sqlite else contextlib.nullcontext())
        # Other writes (tables, seats) run on their own few threads (one for SQLite, which
        # has one writer anyway), not on the shared pool: many threads queueing on one
        # lock each have to win the GIL back from the busy event loop after every statement.
        self._writers = 1 if sqlite else max(1, getattr(engine.pool, "size", lambda: 4)())
        self._writer: ThreadPoolExecutor | None = None
        # Moves and undos: one thread, group commit (see meeplehall.server.writer).
        self._moves = MoveWriter(engine, self._writing)
        games()  # import every game now, not on the first request

    @contextlib.contextmanager
    def _write(self) -> Iterator[Connection]:
        with self._writing, self.engine.begin() as conn:
            yield conn

    # -- plumbing -----------------------------------------------------------------------

    async def transact(self, fn: Callable[[Connection], T]) -> T:
        """``fn(conn)`` in one write transaction on a writer thread, queued with this
        process's other writes (accounts, notifications)."""
        def run() -> T:
            with self._write() as conn:
                return fn(conn)

        return await self._write_thread(run)

    def write_now(self, fn: Callable[[Connection], T]) -> T:
        """``fn(conn)`` in one write transaction on the calling (worker) thread."""
        with self._write() as conn:
            return fn(conn)

    async def _thread(self, fn: Callable[..., T], *args: Any) -> T:
        """Run blocking work (reads, replays) in a worker thread."""
        return await anyio.to_thread.run_sync(partial(fn, *args))

    async def _read(self, fn: Callable[..., T], *args: Any,
                    deadline: float | None = None) -> T:
        """Run a database read in a worker thread, for at most ``deadline`` seconds (the
        service's ``read_deadline``, :data:`READ_DEADLINE` unless set): past it the thread
        is abandoned (it ends with the statement, which PostgreSQL cancels at its
        ``statement_timeout``) and the request gets 503 with ``Retry-After``, so a hung
        database or a lock never holds a request longer.

        Raises:
            Unavailable: no answer within the deadline.
        """
        if deadline is None:
            deadline = self.read_deadline
        try:
            with anyio.fail_after(deadline):
                return await anyio.to_thread.run_sync(partial(fn, *args),
                                                      abandon_on_cancel=True)
        except TimeoutError:
            raise Unavailable(f"the database did not answer within {deadline:g} s: "
                              "try again shortly", retry_after=RETRY_AFTER) from None

    async def _write_thread(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a write transaction on a writer thread."""
        if self._writer is None:
            self._writer = ThreadPoolExecutor(max_workers=self._writers,
                                              thread_name_prefix="db-write")
        return await asyncio.get_running_loop().run_in_executor(self._writer,
                                                                partial(fn, *args))

    def close(self) -> None:
        """Stop the writer threads (after the app stopped taking requests, so after the
        queued moves are written); the next write starts them again."""
        writer, self._writer = self._writer, None
        if writer is not None:
            writer.shutdown(wait=True)
        self._moves.close()

    def _lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    def _remember(self, live: Live) -> None:
        self._live[live.table_id] = live
        self._live.move_to_end(live.table_id)
        while len(self._live) > self.cache_size:
            oldest = next(iter(self._live))
            if self._lock(oldest).locked():
                break
            del self._live[oldest]
            self._locks.pop(oldest, None)

    def _changed(self, table_id: int, seq: int, undo: bool = False) -> None:
        for listener in self.listeners:
            try:
                listener(table_id, seq, undo)
            except Exception:  # a listener must never break a committed move
                log.exception("change listener failed for table %d", table_id)

    def _seat_changed(self, table_id: int, seat: int, token_hash: str | None) -> None:
        for listener in self.seat_listeners:
            try:
                listener(table_id, seat, token_hash)
            except Exception:
                log.exception("seat listener failed for table %d", table_id)

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(conn, *args)`` in one write transaction on a writer thread (for the
        modules beside this one: seat control, deadlines, chat)."""
        def run() -> T:
            with self._write() as conn:
                return fn(conn, *args)

        return await self._write_thread(run)

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(conn, *args)`` on a read connection in a worker thread, within the
        read deadline (see :meth:`_read`)."""
        def run() -> T:
            with self.engine.connect() as conn:
                return fn(conn, *args)

        return await self._read(run)

    async def seats_changed(self, table_id: int, seat: int) -> Probe:
        """A seat's row changed (its token, its bot, its deadline, its mute): read the
        seats again into the cached table and tell the listeners (live sockets of a
        token that is no longer the seat's end, here and through Redis elsewhere)."""
        probe = await self.probe(table_id)
        live = self._live.get(table_id)
        if live is not None:
            live.seats = _seat_infos(probe)
        digest = next((h for s, _, h in probe.seats if s == seat), None)
        self._seat_changed(table_id, seat, digest)
        return probe

    def renewed_deadline(self, table_id: int, seat: int, until: datetime) -> None:
        """The seat's running deadline started again at ``until`` (written already): the
        cached seat says so too."""
        live = self._live.get(table_id)
        if live is not None:
            live.seats = [replace(s, deadline_at=until) if s.seat == seat else s
                          for s in live.seats]

    # -- reads ----------------------------------------------------------------------------

    def _probe_sync(self, table_id: int) -> Probe | None:
        head = (select(func.max(MoveRow.seq)).where(MoveRow.table_id == table_id)
                .scalar_subquery())
        with self.engine.connect() as conn:
            seats = conn.execute(
                select(SeatRow.seat, SeatRow.kind, SeatRow.token_hash, head, SeatRow.name,
                       SeatRow.played_by, SeatRow.played_why, SeatRow.muted,
                       SeatRow.deadline_at)
                .where(SeatRow.table_id == table_id).order_by(SeatRow.seat)).all()
        if not seats:
            return None
        return Probe([(s[0], s[1], s[2]) for s in seats], int(seats[0][3] or 0),
                     {s[0]: s[4] for s in seats if s[4] is not None},
                     {s[0]: (s[5], s[6], bool(s[7]), aware(s[8])) for s in seats
                      if s[5] is not None or s[7] or s[8] is not None})

    async def probe(self, table_id: int) -> Probe:
        # In a thread like every read: a slow or locked database must not stop the loop.
        found = await self._read(self._probe_sync, table_id)
        if found is None:
            raise NotFound(f"no table {table_id}")
        return found

    def _load_sync(self, table_id: int, after: int | None) -> tuple[Any, list[Row]]:
        with self.engine.connect() as conn:
            header = None
            if after is None:
                header = conn.execute(select(TableRow).where(TableRow.id == table_id)).first()
            query = select(MoveRow.seq, MoveRow.kind, MoveRow.seat, MoveRow.action,
                           MoveRow.undone, MoveRow.note).where(MoveRow.table_id == table_id)
            if after is not None:
                query = query.where(MoveRow.seq > after)
            rows = [Row(r.seq, r.kind, r.seat, r.action, bool(r.undone), r.note)
                    for r in conn.execute(query.order_by(MoveRow.seq))]
        return header, rows

    def write_probe(self, timeout: float = 1.0) -> None:
        """Commit a write that changes nothing (readiness, :mod:`meeplehall.server.health`):
        it fails where a move's commit would (a full disk, a read-only or unreachable
        database, a lock held longer than ``timeout`` seconds).

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the write could not be committed.
        """
        millis = max(1, round(timeout * 1000))
        with self.engine.connect() as conn:
            if conn.dialect.name == "postgresql":
                with conn.begin():
                    conn.execute(text(f"SET LOCAL statement_timeout = {millis}"))
                    conn.execute(text(f"SET LOCAL lock_timeout = {millis}"))
                    conn.execute(text(_PROBE))
            else:
                conn.exec_driver_sql(f"PRAGMA busy_timeout={millis}")
                try:
                    conn.execute(text(_PROBE))
                    conn.commit()
                finally:
                    conn.exec_driver_sql(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")

    async def live_for_view(self, table_id: int) -> tuple[Live, bool]:
        """The table for a spectator's view, and whether it comes from memory unchecked:
        a table this process holds is checked against the database for at most
        :data:`MEMORY_WAIT` seconds, and served as held when the database is slower
        (a lock, a stuck query) or unreachable, and for :data:`MEMORY_SPELL` seconds
        after that without waiting; any other table is read as usual."""
        live = self._live.get(table_id)
        if live is None:
            return await self.get_live(table_id), False
        if time.monotonic() < self._memory_until:  # the database just failed a view
            return live, True
        try:
            probe = await self._read(self._probe_sync, table_id, deadline=MEMORY_WAIT)
        except Exception as exc:
            if outage(exc) is None:
                raise
            # For a moment every held table's view is served at once, without a thread
            # or a connection waiting on a database that does not answer.
            self._memory_until = time.monotonic() + MEMORY_SPELL
            return live, True
        if probe is None:
            raise NotFound(f"no table {table_id}")
        return await self.get_live(table_id, probe=probe), False

    def _unfinished_sync(self, ids: list[int]) -> list[int]:
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(select(TableRow.id).where(
                TableRow.id.in_(ids), TableRow.finished.is_(False)))]

    async def unfinished(self, ids: list[int]) -> list[int]:
        """Which of the tables ``ids`` exist and are not finished (one small read)."""
        return await self._thread(self._unfinished_sync, ids) if ids else []

    def cached(self, table_id: int) -> Live | None:
        """The cached table, if any (possibly behind the database)."""
        return self._live.get(table_id)

    async def get_live(self, table_id: int, *, min_seq: int | None = None,
                       probe: Probe | None = None) -> Live:
        """The cached table, brought up to date with the database when it may be stale.

        With ``min_seq``, a cached table at least that new is returned without a read.
        """
        live = self._live.get(table_id)
        if live is not None and min_seq is not None and live.seq >= min_seq:
            return live
        if probe is None:
            probe = await self.probe(table_id)
        if live is not None and live.seq == probe.head:
            live.seats = _seat_infos(probe)
            return live
        async with self._lock(table_id):
            return await self._refresh_locked(table_id, probe)

    async def _refresh_locked(self, table_id: int, probe: Probe | None = None) -> Live:
        """Bring the cached table up to date; the caller holds the table's lock."""
        if probe is None:
            probe = await self.probe(table_id)
        live = self._live.get(table_id)
        if live is not None and live.seq == probe.head:
            live.seats = _seat_infos(probe)
            return live
        if live is not None:
            _, rows = await self._read(self._load_sync, table_id, live.seq)
            if not any(r.kind == UNDO for r in rows):
                live.install(await self._thread(
                    replay_rows, live.game, live.params, live.seed, rows, live.built()))
                live.seats = _seat_infos(probe)
                return live
        header, rows = await self._read(self._load_sync, table_id, None)
        if header is None:
            raise NotFound(f"no table {table_id}")
        game = games().get(header.game)
        if game is None:
            raise Conflict(f"table {table_id} is a game of {header.game!r}, which this server "
                           "does not have")
        params = json.loads(header.params)
        try:
            built = await self._thread(replay_rows, game, params, header.seed, rows)
        except CorruptLog as exc:
            log.error("table %d: %s", table_id, exc)
            raise Conflict(f"table {table_id} cannot be loaded: its stored log does not "
                           "replay") from None
        fresh = Live(table_id, game, params, header.seed, header.source, header.created_at,
                     _seat_infos(probe), settings_of(header))
        fresh.install(built)
        fresh.rated = bool(header.rated)
        if live is not None:  # keep the object others hold; just refill it
            live.install(built)
            live.seats = fresh.seats
            live.settings = fresh.settings
            fresh = live
        self._remember(fresh)
        return fresh

    async def authenticate(self, table_id: int, token: str | None) -> tuple[Live, int]:
        """The table and the seat that ``token`` holds there.

        Raises:
            NotFound: no such table.
            Unauthorized: no token, or not a token of a seat at this table.
        """
        if not token:
            await self.probe(table_id)  # 404 before 401
            raise Unauthorized("this needs a seat token: send 'Authorization: Bearer TOKEN'")
        probe = await self.probe(table_id)
        seat = match_token(token, [(s, h) for s, _, h in probe.seats])
        if seat is None:
            raise Unauthorized(f"the token is not the token of a seat at table {table_id}")
        if probe.extra.get(seat, (None, None))[1] == STOOD_IN and self.returning is not None:
            await self.returning(table_id, seat, hash_token(token))
            probe = await self.probe(table_id)
        return await self.get_live(table_id, probe=probe), seat

    async def authenticate_for_move(self, table_id: int, token: str | None) -> tuple[int, str]:
        """The seat of ``token`` from the cached seats when they know it (the write
        transaction checks it again against the database); otherwise as ``authenticate``.
        Returns the seat and the token's hash."""
        live = self._live.get(table_id)
        if token and live is not None:
            seat = match_token(token, [(s.seat, s.token_hash) for s in live.seats])
            if seat is not None and live.seats[seat].played_why != STOOD_IN:
                return seat, hash_token(token)
        _, seat = await self.authenticate(table_id, token)
        assert token is not None
        return seat, hash_token(token)

    def _list_sync(self, game: str | None, finished: bool | None, limit: int,
                   offset: int) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            query = select(TableRow).order_by(TableRow.id.desc()).limit(limit).offset(offset)
            if game is not None:
                query = query.where(TableRow.game == game)
            if finished is not None:
                query = query.where(TableRow.finished == finished)
            tables = conn.execute(query).all()
            ids = [t.id for t in tables]
            seats: dict[int, list[dict[str, Any]]] = {i: [] for i in ids}
            heads: dict[int, int] = {}
            moves: dict[int, int] = {}
            if ids:
                for s in conn.execute(select(SeatRow.table_id, SeatRow.seat, SeatRow.kind,
                                             SeatRow.token_hash, SeatRow.name,
                                             SeatRow.played_by, SeatRow.played_why,
                                             SeatRow.muted, SeatRow.deadline_at)
                                      .where(SeatRow.table_id.in_(ids))
                                      .order_by(SeatRow.table_id, SeatRow.seat)):
                    seats[s.table_id].append(_seat_json(
                        s.seat, s.kind, s.token_hash is not None, s.name, s.played_by,
                        s.played_why, bool(s.muted), s.deadline_at))
                for h in conn.execute(select(MoveRow.table_id, func.max(MoveRow.seq))
                                      .where(MoveRow.table_id.in_(ids))
                                      .group_by(MoveRow.table_id)):
                    heads[h[0]] = int(h[1])
                # the moves in play (not undone), as a table's own summary counts them
                for m in conn.execute(select(MoveRow.table_id, func.count())
                                      .where(MoveRow.table_id.in_(ids), MoveRow.kind == "move",
                                             MoveRow.undone.is_(False))
                                      .group_by(MoveRow.table_id)):
                    moves[m[0]] = int(m[1])
        return [{"id": t.id, "game": t.game, "params": json.loads(t.params),
                 "seats": seats[t.id], "seq": heads.get(t.id, 0),
                 "moves": moves.get(t.id, 0), "finished": bool(t.finished),
                 "source": t.source, "seed_chosen": t.source in SEED_KNOWN,
                 "rated": bool(t.rated),
                 "created_at": t.created_at.isoformat(), **settings_json(settings_of(t))}
                for t in tables]

    async def list_tables(self, game: str | None, finished: bool | None, limit: int,
                          offset: int) -> list[dict[str, Any]]:
        return await self._read(self._list_sync, game, finished, limit, offset)

    def summary(self, live: Live) -> dict[str, Any]:
        return {"id": live.table_id, "game": live.game.name, "params": live.params,
                "seats": [seat_json(s) for s in live.seats],
                "seq": live.seq, "moves": len(live.entries), "to_move": live.to_move,
                "finished": live.finished, "source": live.source,
                "seed_chosen": live.source in SEED_KNOWN, "rated": live.rated,
                "created_at": live.created_at.isoformat(), **settings_json(live.settings)}

    def _unfinished_bot_tables_sync(self) -> list[int]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(TableRow.id).join(SeatRow, SeatRow.table_id == TableRow.id)
                .where(TableRow.finished.is_(False),
                       (SeatRow.kind != HUMAN) | SeatRow.played_by.is_not(None)).distinct())
            return [r[0] for r in rows]

    async def unfinished_bot_tables(self) -> list[int]:
        return await self._read(self._unfinished_bot_tables_sync)

    # -- bot leases -------------------------------------------------------------------------

    def _take_lease_sync(self, table_id: int, holder: str, seconds: float) -> bool:
        # Expiries on the database's clock, never this host's (see meeplehall.server.db).
        dialect = self.engine.dialect.name
        until = db_later(dialect, seconds)
        with self._write() as conn:
            renewed = conn.execute(update(LeaseRow).where(
                LeaseRow.table_id == table_id,
                (LeaseRow.holder == holder) | (LeaseRow.expires_at < db_now(dialect)))
                .values(holder=holder, expires_at=until))
            if renewed.rowcount == 1:
                return True
        try:
            with self._write() as conn:
                conn.execute(insert(LeaseRow).values(table_id=table_id, holder=holder,
                                                     expires_at=until))
        except IntegrityError:  # held by another process (or the table is gone)
            return False
        return True

    async def take_lease(self, table_id: int, holder: str, seconds: float) -> bool:
        """Make ``holder`` the driver of the table's bots for ``seconds`` (renewing its
        own lease); False while another holder's lease runs."""
        return await self._write_thread(self._take_lease_sync, table_id, holder, seconds)

    def _drop_lease_sync(self, table_id: int, holder: str) -> None:
        with self._write() as conn:
            conn.execute(delete(LeaseRow).where(LeaseRow.table_id == table_id,
                                                LeaseRow.holder == holder))

    async def drop_lease(self, table_id: int, holder: str) -> None:
        await self._write_thread(self._drop_lease_sync, table_id, holder)

    def _expire_leases_sync(self, holder: str) -> int:
        with self._write() as conn:
            return int(conn.execute(update(LeaseRow).where(LeaseRow.holder == holder).values(
                expires_at=db_later(self.engine.dialect.name, -1.0))).rowcount)

    async def expire_leases(self, holder: str) -> int:
        """Let every lease of ``holder`` lapse now (a clean shutdown): another process
        takes those tables over at its next look, and this one restarted at once.
        Lapsed, not deleted: a lapsed lease is how the others find the table. Returns
        how many there were."""
        return await self._write_thread(self._expire_leases_sync, holder)

    def _lapsed_leases_sync(self) -> list[int]:
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(select(LeaseRow.table_id).where(
                LeaseRow.expires_at < db_now(self.engine.dialect.name)))]

    async def lapsed_leases(self) -> list[int]:
        """Tables whose bots' driver let its lease lapse (its process died, say)."""
        return await self._read(self._lapsed_leases_sync)

    # -- creating tables ------------------------------------------------------------------

    def _insert_table_sync(self, game: Game, params: dict[str, Any], seed: int, source: str,
                           kinds: Sequence[str], moves: Sequence[Entry],
                           finished: bool, lease: tuple[str, float] | None,
                           settings: TableSettings, host_hash: str | None,
                           rated: bool = False) -> tuple[int, Any]:
        stamp = now()
        with self._write() as conn:
            table_id = conn.execute(insert(TableRow).values(
                game=game.name, rules_version=game.rules_version,
                params=json.dumps(params, sort_keys=True), seed=seed, source=source,
                finished=finished, created_at=stamp, rated=rated, host_hash=host_hash,
                deadline_s=settings.deadline_s, stand_in=settings.stand_in,
                spectator_chat=settings.spectator_chat).returning(TableRow.id)).scalar_one()
            conn.execute(insert(SeatRow), [
                {"table_id": table_id, "seat": i, "kind": k, "token_hash": None,
                 "joined_at": None} for i, k in enumerate(kinds)])
            if moves:
                conn.execute(insert(MoveRow), [
                    {"table_id": table_id, "seq": e.seq, "kind": MOVE, "seat": e.seat,
                     "action": e.action, "undone": False, "note": None, "created_at": stamp}
                    for e in moves])
            if lease is not None:  # a bot moves first: its lease comes with the table
                conn.execute(insert(LeaseRow).values(
                    table_id=table_id, holder=lease[0],
                    expires_at=db_later(self.engine.dialect.name, lease[1])))
        return table_id, stamp

    def _check_seats(self, game: Game, state: Any, seats: Sequence[str] | None) -> list[str]:
        count = game.num_players(state)
        kinds = list(seats) if seats is not None else [HUMAN] * count
        if len(kinds) != count:
            raise Invalid(f"this game has {count} seat(s), but {len(kinds)} seat kind(s) "
                          "were given")
        for i, kind in enumerate(kinds):
            if kind != HUMAN and kind not in BOTS:
                raise Invalid(f"seat {i}: unknown seat kind {kind!r}; use 'human' or a bot: "
                              f"{', '.join(BOTS)}")
        return kinds

    async def _start(self, game: Game, params: dict[str, Any], seed: int, source: str,
                     kinds: list[str], built: Built, settings: TableSettings | None,
                     host_hash: str | None, rated: bool = False) -> Live:
        to_move = game.current_player(built.state)
        settings = replace(settings or TableSettings(), hosted=host_hash is not None)
        table_id, stamp = await self._write_thread(
            self._insert_table_sync, game, params, seed, source, kinds, built.entries,
            to_move is None, self._lease_for(kinds, to_move), settings, host_hash, rated)
        live = Live(table_id, game, params, seed, source, stamp,
                    [SeatInfo(i, k, None) for i, k in enumerate(kinds)], settings,
                    rated=rated)
        live.install(built)
        self._remember(live)
        self._changed(table_id, live.seq)
        return live

    async def create(self, game_name: str, options: dict[str, Any], seed: int | None,
                     seats: Sequence[str] | None, *, settings: TableSettings | None = None,
                     host_hash: str | None = None, rated: bool = False) -> Live:
        """Open a table (with ``settings``: a turn deadline, a stand-in, chat for
        spectators; ``host_hash``: its host's hashed token; ``rated``: its end is rated,
        see :mod:`meeplehall.server.ratings`). Raises ``Invalid`` naming a bad game,
        option or seat kind."""
        game = find_game(game_name)
        try:
            params = validate_params(game.options, options)
        except ValueError as exc:
            raise Invalid(str(exc)) from None
        source = "new" if seed is None else "chosen"
        try:
            seed = new_seed() if seed is None else check_seed(seed)
        except ValueError as exc:
            raise Invalid(str(exc)) from None
        try:
            state = game.initial_state(params, seed)
        except (ValueError, TypeError) as exc:
            raise Invalid(f"cannot set up {game.name} with these options: {exc}") from None
        kinds = self._check_seats(game, state, seats)
        return await self._start(game, params, seed, source, kinds,
                                 Built(state, [], 0, [], []), settings, host_hash, rated)

    async def import_record(self, data: Any, seats: Sequence[str] | None, *,
                            settings: TableSettings | None = None,
                            host_hash: str | None = None) -> Live:
        """Open a table from an exported ``GameRecord``; it replays or is refused."""
        try:
            record = GameRecord.from_dict(data)
        except RecordError as exc:
            raise Invalid(str(exc)) from None
        game = find_game(record.game)
        if not -MAX_SEED - 1 <= record.seed <= MAX_SEED:
            raise Invalid("corrupt record: the seed must fit in 64 signed bits")
        if len(record.actions) > MAX_RECORD_ACTIONS:
            raise Invalid(f"the record has {len(record.actions)} actions; at most "
                          f"{MAX_RECORD_ACTIONS} can be imported")
        try:
            params = validate_params(game.options, record.params)
        except ValueError as exc:
            raise Invalid(f"bad parameters in record: {exc}") from None
        record.params = params
        built = await self._built_record(record, game)
        kinds = self._check_seats(game, built.state, seats)
        return await self._start(game, params, record.seed, "import", kinds, built,
                                 settings, host_hash)

    async def _built_record(self, record: GameRecord, game: Game) -> Built:
        """Replay the record to check it, and the table its moves make: in the heavy
        pool's worker processes when the app set one, so neither replay runs in the
        server's interpreter (the snapshots come back packed, unpickled when used)."""
        if self.heavy is None:
            try:
                await self._thread(replay, record, game)
                return await self._thread(_replay_record, game, record.params, record.seed,
                                          record.actions)
            except RecordError as exc:
                raise Invalid(str(exc)) from None
        try:
            done = await self.heavy.submit(
                "import", import_record_job,
                (record.to_dict(), record.params, self.heavy.workers > 0),
                key="import", time_limit=IMPORT_TIME_LIMIT, wait_limit=IMPORT_TIME_LIMIT)
        except (ApiError, asyncio.CancelledError):
            raise
        except Exception:  # past its limit, no worker free, or the worker stopped
            raise Unavailable("the record could not be checked in time: try again "
                              "shortly", retry_after=RETRY_AFTER) from None
        if isinstance(done, str):
            raise Invalid(done)
        built: Built = done
        return built

    # -- seats ----------------------------------------------------------------------------

    def _join_sync(self, table_id: int, seat: int, digest: str, name: str | None,
                   account_id: int | None) -> bool:
        with self._write() as conn:
            done = conn.execute(update(SeatRow).where(
                SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.kind == HUMAN,
                SeatRow.token_hash.is_(None)).values(token_hash=digest, joined_at=now(),
                                                     name=name, account_id=account_id))
            return bool(done.rowcount == 1)

    async def join(self, table_id: int, seat: int, name: str | None = None, *,
                   token: str | None = None, account_id: int | None = None) -> str:
        """Take an open human seat, under ``name`` (checked by
        :func:`meeplehall.server.names.clean_name`; None: no name); returns its secret
        token (shown only this once). A seat joined for an account (``account_id``)
        takes the token derived for it (``token``: see
        :mod:`meeplehall.server.accounts`), else a fresh random one."""
        probe = await self.probe(table_id)
        kinds = {s: k for s, k, _ in probe.seats}
        if seat not in kinds:
            raise NotFound(f"table {table_id} has no seat {seat} (seats 0-{len(kinds) - 1})")
        if kinds[seat] != HUMAN:
            raise Conflict(f"seat {seat} is played by the {kinds[seat]} bot")
        token = new_token() if token is None else token
        digest = hash_token(token)
        if not await self._write_thread(self._join_sync, table_id, seat, digest, name,
                                        account_id):
            raise Conflict(f"seat {seat} at table {table_id} is already taken")
        live = self._live.get(table_id)
        if live is not None:
            live.seats = [replace(s, token_hash=digest, name=name) if s.seat == seat else s
                          for s in live.seats]
        self._seat_changed(table_id, seat, digest)
        return token

    def _leave_sync(self, table_id: int, seat: int) -> None:
        with self._write() as conn:
            conn.execute(update(SeatRow).where(SeatRow.table_id == table_id,
                                               SeatRow.seat == seat)
                         .values(token_hash=None, joined_at=None, name=None,
                                 account_id=None))

    async def leave(self, table_id: int, seat: int) -> None:
        """Give a seat up: its token stops working and the seat is open again."""
        await self._write_thread(self._leave_sync, table_id, seat)
        live = self._live.get(table_id)
        if live is not None:
            live.seats = [replace(s, token_hash=None, name=None) if s.seat == seat else s
                          for s in live.seats]
        self._seat_changed(table_id, seat, None)

    def _rename_sync(self, table_id: int, seat: int, digest: str, name: str | None) -> bool:
        with self._write() as conn:
            done = conn.execute(update(SeatRow).where(
                SeatRow.table_id == table_id, SeatRow.seat == seat,
                SeatRow.token_hash == digest).values(name=name))
            return bool(done.rowcount == 1)

    async def rename(self, table_id: int, seat: int, digest: str, name: str | None) -> None:
        """Set the name of the seat whose token hashes to ``digest`` (None: no name).

        Raises:
            Unauthorized: the token no longer holds the seat (it was given up meanwhile).
        """
        if not await self._write_thread(self._rename_sync, table_id, seat, digest, name):
            raise Unauthorized(f"the token is not the token of a seat at table {table_id}")
        live = self._live.get(table_id)
        if live is not None:
            live.seats = [replace(s, name=name) if s.seat == seat else s
                          for s in live.seats]
        self._seat_changed(table_id, seat, digest)

    # -- moves ----------------------------------------------------------------------------

    async def _checked_live(self, table_id: int, expected_seq: int) -> Live:
        """The table at ``expected_seq``, or ``Conflict`` saying where it is."""
        live = self._live.get(table_id)
        if live is None or live.seq != expected_seq:
            live = await self._refresh_locked(table_id)
        if live.seq != expected_seq:
            raise Conflict(f"the table is at seq {live.seq}, not {expected_seq}: "
                           "fetch the view and try again", seq=live.seq)
        return live

    def _lease_for(self, kinds: Sequence[str], to_move: int | None
                   ) -> tuple[str, float] | None:
        """The bots' lease to take with a change after which ``to_move`` is to move:
        (holder, seconds from the database's now) when that seat is a bot's, else None."""
        if self.bot_lease is None or to_move is None or not 0 <= to_move < len(kinds) \
                or kinds[to_move] == HUMAN:
            return None
        return self.bot_lease

    async def submit(self, table_id: int, seat: int, text: str, expected_seq: int,
                     note: str | None = None, token_hash: str | None = None,
                     bot: str | None = None) -> Live:
        """Play ``text`` for ``seat`` if the table is at ``expected_seq``; ``bot``: the
        bot level that chose it, which must still be the one moving for the seat.

        Raises:
            Conflict: the table is at another seq (``seq`` in the body) or is over; the
                seat is played by a bot (a person's move) or by a person again (a
                bot's).
            Forbidden: it is another seat's turn.
            Invalid: the action cannot be read or is not legal (the game says why).
        """
        async with self._lock(table_id):
            live = await self._checked_live(table_id, expected_seq)
            current = live.to_move
            if current is None:
                raise Conflict("the game is over", seq=live.seq)
            if current != seat:
                raise Forbidden(f"it is seat {current}'s turn, not seat {seat}'s")
            mover = live.seats[seat].bot
            if bot is not None and mover != bot:
                raise Conflict(f"seat {seat} is no longer played by the {bot} bot",
                               seq=live.seq)
            if bot is None and token_hash is not None and live.seats[seat].played_by:
                raise Conflict(f"seat {seat} is played by the {mover} bot: the host handed "
                               "it over, and the host can give it back", seq=live.seq)
            try:
                state, canonical, reveal = step_legal(live.game, live.state, text,
                                                      live.legal_actions())
            except (IllegalActionError, ValueError) as exc:
                raise Invalid(f"{exc}") from None
            except Exception as exc:
                log.error("table %d: the engine failed on an action (%s)", table_id,
                          type(exc).__name__)
                raise Invalid(f"the action {text!r} cannot be played here") from None
            seq = live.seq + 1
            after = live.game.current_player(state)
            kinds = [info.bot or HUMAN for info in live.seats]
            # A bot's own move needs no lease: its driver holds one already.
            lease = self._lease_for(kinds, after) if bot is None and kinds[seat] == HUMAN \
                else None
            await asyncio.shield(self._commit(
                live, seq, MOVE, seat, canonical, note, (), after is None, token_hash,
                Built(state, [*live.entries, Entry(seq, seat, canonical, reveal)], seq,
                      live.undo_seqs, live.notes + ([(seq, note)] if note else [])), lease))
            return live

    async def _commit(self, live: Live, seq: int, kind: str, seat: int, action: str,
                      note: str | None, undone: Sequence[int], finished: bool,
                      token_hash: str | None, built: Built,
                      lease: tuple[str, float] | None = None) -> None:
        """Write the entry, then (only then) update the cache and tell listeners."""
        try:
            await self._moves.append(live.table_id, seq, kind, seat, action, note, undone,
                                     finished, token_hash, lease)
        except Unauthorized:
            await self._refresh_locked(live.table_id)
            raise
        except Conflict:
            fresh = await self._refresh_locked(live.table_id)
            raise Conflict(f"another move was accepted first: the table is at seq {fresh.seq}",
                           seq=fresh.seq) from None
        live.install(built)
        self._changed(live.table_id, seq, kind == UNDO)

    async def undo(self, table_id: int, seat: int, expected_seq: int,
                   count: int | None, token_hash: str | None = None) -> Live:
        """Take back ``count`` of ``seat``'s latest moves (None: back to the barrier)."""
        async with self._lock(table_id):
            live = await self._checked_live(table_id, expected_seq)
            if live.finished:
                raise Conflict("the game is over", seq=live.seq)
            can = live.undoable(seat)
            if can == 0:
                raise Conflict("nothing to undo: your last move showed something that was "
                               "hidden, or another seat moved since", seq=live.seq)
            take = can if count is None else count
            if take > can:
                raise Conflict(f"only {can} move(s) can be taken back (back to the last "
                               "move that showed something hidden or by another seat)",
                               seq=live.seq)
            keep = live.entries[:-take]
            undone = [e.seq for e in live.entries[-take:]]
            # From the nearest snapshot: fewer than SNAPSHOT_EVERY moves replayed.
            state = await self._thread(replay_entries, live.game, live.params, live.seed,
                                       keep, dict(live.snapshots))
            seq = live.seq + 1
            await asyncio.shield(self._commit(
                live, seq, UNDO, seat, f"undo {take}", None, undone, False, token_hash,
                Built(state, keep, seq, [*live.undo_seqs, seq], live.notes)))
            return live

    # -- records and replays ----------------------------------------------------------------

    def record(self, live: Live) -> dict[str, Any]:
        """The finished game as a ``GameRecord``; refused while the game runs (its seed
        would reveal every future die and card)."""
        if not live.finished:
            raise Conflict("the record is available when the game is over: it holds the "
                           "seed, which would reveal what is still hidden", seq=live.seq)
        record = GameRecord(live.game.name, live.game.rules_version, dict(live.params),
                            live.seed, [(e.seat, e.action) for e in live.entries],
                            {"server": {"table": live.table_id,
                                        "seats": [s.kind for s in live.seats]}})
        return record.to_dict()

    async def view_at(self, live: Live, k: int, seat: int | None) -> dict[str, Any]:
        """The view of ``seat`` after the first ``k`` active moves."""
        if k > len(live.entries):
            raise NotFound(f"table {live.table_id} has only {len(live.entries)} move(s)")
        if k == len(live.entries):
            return live.view(seat)
        entries = live.entries[:k]
        snapshots = dict(live.snapshots)

        def build() -> dict[str, Any]:
            state = replay_entries(live.game, live.params, live.seed, entries, snapshots)
            view: dict[str, Any] = live.game.player_view(state, seat)
            return view

        return await self._thread(build)

    async def log_at(self, live: Live, seq: int, seat: int | None) -> int | None:
        """Length of ``seat``'s view log at history point ``seq``; None when an undo since
        then makes the log no longer a continuation (the client must take it whole)."""
        if seq >= live.seq:
            return len(live.view(seat).get("log", ()))
        if live.undone_since(seq) or seq < 0:
            return None
        view = await self.view_at(live, live.active_at(seq), seat)
        return len(view.get("log", ()))


def settings_json(settings: TableSettings) -> dict[str, Any]:
    """A table's settings as the API shows them."""
    return {"hosted": settings.hosted, "deadline_hours": None if settings.deadline_s is None
            else settings.deadline_s / 3600, "stand_in": settings.stand_in,
            "spectator_chat": settings.spectator_chat}


def _replay_record(game: Game, params: dict[str, Any], seed: int,
                   actions: Sequence[tuple[int | None, str]]) -> Built:
    try:
        return record_built(game, params, seed, actions)
    except CorruptLog as exc:
        raise RecordError(str(exc)) from None


def _seat_infos(probe: Probe) -> list[SeatInfo]:
    infos = []
    for s, k, h in probe.seats:
        played_by, why, muted, deadline = probe.extra.get(s, (None, None, False, None))
        infos.append(SeatInfo(s, k, h, probe.names.get(s), played_by, why, muted, deadline))
    return infos


def aware(stamp: datetime | None) -> datetime | None:
    """A stored time as an aware UTC datetime (SQLite gives them back naive)."""
    if stamp is None or stamp.tzinfo is not None:
        return stamp
    return stamp.replace(tzinfo=UTC)


def settings_of(header: Any) -> TableSettings:
    """A table row's :class:`TableSettings`."""
    return TableSettings(header.host_hash is not None, header.deadline_s, header.stand_in,
                         bool(header.spectator_chat))


def _seat_json(seat: int, kind: str, taken: bool, name: str | None,
               played_by: str | None = None, played_why: str | None = None,
               muted: bool = False, deadline: datetime | None = None) -> dict[str, Any]:
    return {"seat": seat, "kind": kind, "open": kind == HUMAN and not taken, "name": name,
            "played_by": played_by, "played_why": played_why, "muted": muted,
            "deadline": None if deadline is None else aware(deadline).isoformat()}  # type: ignore[union-attr]


def seat_json(info: SeatInfo) -> dict[str, Any]:
    """A seat as the API shows it (public: never its token)."""
    return _seat_json(info.seat, info.kind, info.taken, info.name, info.played_by,
                      info.played_why, info.muted, info.deadline_at)
