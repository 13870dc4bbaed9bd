"""Group commit: one writer thread appends every waiting move in one transaction.

A move is durable before its reply: its future is resolved only after the transaction
holding it has committed (on PostgreSQL with ``synchronous_commit`` on, after the WAL
flush). The writer takes every move queued while the previous transaction was being
written and writes them together, so under load many moves share one commit (one WAL
flush) instead of queueing for one each; alone, a move is written at once.

The moves of a batch are inserted by one multi-row ``INSERT ... ON CONFLICT (table_id,
seq) DO NOTHING RETURNING table_id, seq``: a move whose ``seq`` another submission (in
this process or another one sharing the database) took first inserts no row, and only
that move is refused with ``Conflict``; the others in the transaction are unaffected.
Their seats' tokens are read by one query before it. A transaction is thus a handful of
statements however many moves it holds: on PostgreSQL each statement is a round trip,
and this thread needs the GIL again after each one, which the event loop holds most of
the time under load (one statement per move kept the writer busy 87% of the time at 500
moves/s, and the median move waited 14 ms for its commit). The statements are plain SQL
on the driver's connection (sqlite3's statement cache and psycopg's prepared
statements reuse them).

On PostgreSQL a batch of plain moves (no undo, no game end, distinct (table, seq)) goes
in one round trip instead (``MoveWriter._one_trip``): an insert that takes only the
moves whose token still belongs to their seat, and the tokens read after it to tell a
refused token from a lost race, in one message that PostgreSQL runs as one transaction.
At 500 moves/s on 2 cores this took the move's p50 from 11-15 ms to 7-9 ms and its p99
from 56-60 ms to 40-47 ms (``meeplehall bench server --db postgresql``, alternating
runs). Other batches take the general path (among them a person's move that hands the
table to a bot, which takes the bots' lease in the same transaction).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.engine import Engine

from meeplehall.server.db import MoveRow, now
from meeplehall.server.errors import Conflict, Unauthorized

log = logging.getLogger("meeplehall.server")

MAX_BATCH = 512  # moves per transaction at most
# PostgreSQL: how long the writer waits for a row lock before it hands the move that
# needs it to a thread of its own, so that one locked table never holds up the others.
LOCK_WAIT = "20ms"
SLOW_LANE_THREADS = 4  # threads writing the moves that wait for a lock

# {} stands for the placeholders of a batch (see MoveWriter._round).
_SELECT_TOKENS = "SELECT table_id, seat, token_hash FROM seats WHERE table_id IN ({})"
_INSERT_MOVES = ("INSERT INTO moves (table_id, seq, kind, seat, action, undone, note, "
                 "created_at) VALUES {} ON CONFLICT (table_id, seq) DO NOTHING "
                 "RETURNING table_id, seq")
# PostgreSQL, a batch of plain moves in one round trip (MoveWriter._one_trip): the insert
# takes only the moves whose token still belongs to their seat, and the tokens are read
# after it to tell a refused token from a lost race; both statements go in one simple-query
# message, which PostgreSQL runs as one implicit transaction.
_PG_INSERT_CHECKED = (
    "INSERT INTO moves (table_id, seq, kind, seat, action, undone, note, created_at) "
    "SELECT v.t, v.q, v.k, v.s, v.a, false, v.n, v.c FROM (VALUES {}) "
    "AS v(t, q, k, s, a, n, c, h) JOIN seats ON seats.table_id = v.t AND seats.seat = v.s "
    "WHERE v.h IS NULL OR seats.token_hash = v.h "
    "ON CONFLICT (table_id, seq) DO NOTHING RETURNING table_id, seq; " + _SELECT_TOKENS)
_PG_ROW = "(%s::bigint, %s::integer, %s::varchar, %s::integer, %s::text, %s::text, " \
    "%s::timestamptz, %s::text)"
_MARK_UNDONE = "UPDATE moves SET undone = ? WHERE table_id = ? AND seq = ?"
# A person's move that hands the table to a bot takes the bots' lease in its own
# transaction, unless a lease is there already (see meeplehall.server.bots).
# Its expiry is on the database's clock: ``now() + seconds`` (meeplehall.server.db).
_TAKE_LEASE = ("INSERT INTO bot_leases (table_id, holder, expires_at) VALUES (?, ?, {}) "
               "ON CONFLICT (table_id) DO NOTHING")
_LATER = {"sqlite": "strftime('%Y-%m-%d %H:%M:%f000', 'now', printf('%+.3f seconds', ?))",
          "postgresql": "now() + make_interval(secs => ?::float8)"}
_MARK_FINISHED = "UPDATE game_tables SET finished = ? WHERE id = ?"


@dataclass(eq=False)
class Append:
    """One history entry to append, and the future its submitter awaits."""

    table_id: int
    seq: int
    kind: str
    seat: int
    action: str
    note: str | None
    undone: Sequence[int]
    finished: bool
    token_hash: str | None
    future: asyncio.Future[None] = field(repr=False)
    lease: tuple[str, float] | None = None  # (holder, seconds): take the bots' lease


class MoveWriter:
    """The writer thread of one :class:`~meeplehall.server.service.TableService`.

    ``lock`` is held around each transaction (SQLite: this process's writers queue on it
    rather than on SQLite's busy handler)."""

    def __init__(self, engine: Engine, lock: contextlib.AbstractContextManager[Any]) -> None:
        self.engine = engine
        self.lock = lock
        self.sqlite = engine.dialect.name == "sqlite"
        self.one_trip = engine.dialect.name == "postgresql" and engine.dialect.driver == "psycopg"
        mark = "?" if engine.dialect.paramstyle == "qmark" else "%s"
        self._mark = mark
        self._sql = {name: sql.replace("?", mark) for name, sql in (
            ("undone", _MARK_UNDONE), ("finished", _MARK_FINISHED),
            ("lease", _TAKE_LEASE.format(_LATER[engine.dialect.name])))}
        stamp_type: Any = MoveRow.__table__.c.created_at.type
        convert = stamp_type._cached_bind_processor(engine.dialect)
        # SQLite stores timestamps as text in SQLAlchemy's format; psycopg takes datetimes.
        self._stamp: Callable[[Any], Any] = convert if convert is not None else _same
        self._queue: queue.SimpleQueue[Append | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._conn: Any = None
        self._slow: ThreadPoolExecutor | None = None
        self.batches = 0  # transactions written (for tests and the benchmark)
        self.moves = 0

    async def append(self, table_id: int, seq: int, kind: str, seat: int, action: str,
                     note: str | None, undone: Sequence[int], finished: bool,
                     token_hash: str | None,
                     lease: tuple[str, float] | None = None) -> None:
        """Append one entry; returns once it is committed. With ``lease`` (holder,
        seconds), the table's bots' lease is taken in the same transaction when no lease
        row exists.

        Raises:
            Conflict: another entry with this ``seq`` was committed first.
            Unauthorized: ``token_hash`` is no longer the seat's token.
        """
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="db-writer", daemon=True)
            self._thread.start()
        self._queue.put(Append(table_id, seq, kind, seat, action, note, undone, finished,
                               token_hash, future, lease))
        await future

    def close(self) -> None:
        """Write what is queued, then stop the thread (the next append starts it again)."""
        thread, self._thread = self._thread, None
        if thread is not None:
            self._queue.put(None)
            thread.join()
        slow, self._slow = self._slow, None
        if slow is not None:
            slow.shutdown(wait=True)

    # -- the writer thread ------------------------------------------------------------------

    def _run(self) -> None:
        try:
            while True:
                first = self._queue.get()
                if first is None:
                    return
                batch = [first]
                stop = False
                while len(batch) < MAX_BATCH:
                    try:
                        item = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if item is None:
                        stop = True
                        break
                    batch.append(item)
                self._write_batch(batch)
                if stop:
                    return
        finally:
            self._release()

    def _connection(self) -> Any:
        if self._conn is None:
            conn = self.engine.raw_connection()
            if self.one_trip:
                try:
                    _execute(conn, f"SET lock_timeout = '{LOCK_WAIT}'")
                except BaseException:
                    conn.invalidate()
                    raise
            self._conn = conn
        return self._conn

    def _release(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                if self.one_trip:  # the pool's next user gets the default back
                    _execute(conn, "RESET lock_timeout")
                conn.close()  # back to the pool
            except Exception:
                with contextlib.suppress(Exception):
                    conn.invalidate()

    def _write_batch(self, batch: list[Append]) -> None:
        try:
            results = self._transaction(batch, self._connection())
        except Exception as exc:
            # Not a refusal of one move (those are per move): the connection or the
            # database failed, or a row lock was not granted in time. Try each move
            # alone (on a new connection, unless only a lock was refused), so one cannot
            # sink the others and the first move after a database restart goes through.
            self._discard(exc)
            results = []
            for item in batch:
                try:
                    results.extend(self._transaction([item], self._connection()))
                except Exception as alone:
                    self._discard(alone)
                    results.append(alone)
        waiting = [i for i, result in enumerate(results) if _lock_refused(result)]
        if waiting:  # locked by another session: written by a slow-lane thread
            if self._slow is None:
                self._slow = ThreadPoolExecutor(max_workers=SLOW_LANE_THREADS,
                                                thread_name_prefix="db-lock-wait")
            for i in waiting:
                self._slow.submit(self._write_waiting, batch[i])
            batch = [item for i, item in enumerate(batch) if i not in waiting]
            results = [r for i, r in enumerate(results) if i not in waiting]
        self.batches += 1
        self.moves += len(batch)
        _resolve_all(batch, results)

    def _write_waiting(self, item: Append) -> None:
        """Write one move whose table is locked by another session, waiting for the
        lock on a connection of its own (the pool's, with the sessions' lock timeout: 1 s,
        see meeplehall.server.db; then the move gets 503)."""
        result: Exception | None
        try:
            conn = self.engine.raw_connection()
        except Exception as exc:
            _resolve_all([item], [exc])
            return
        try:
            result = self._transaction([item], conn)[0]
        except Exception as exc:
            result = exc
            with contextlib.suppress(Exception):
                conn.invalidate()
        finally:
            with contextlib.suppress(Exception):
                conn.close()
        _resolve_all([item], [result])

    def _discard(self, exc: Exception) -> None:
        if _lock_refused(exc):
            return  # the transaction was rolled back; the connection is fine
        log.warning("move write failed (%s); retrying on a new connection",
                    type(exc).__name__)
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.invalidate()

    def _transaction(self, batch: list[Append], conn: Any) -> list[Exception | None]:
        """Write ``batch`` in one transaction; per move, None or the refusal.

        A handful of statements for the whole batch, whatever its size (one round trip
        each on PostgreSQL): one query for the seats' tokens, one multi-row insert that
        returns the rows it inserted, and updates only where a move undoes or ends a
        game. Moves of the batch with the same (table, seq) go in successive rounds, so
        the first of them in queue order is the one that can win."""
        if self.one_trip and _plain(batch):
            with self.lock:
                return self._one_trip(conn.driver_connection, batch)
        results: list[Exception | None] = [None] * len(batch)
        with self.lock:
            cursor = conn.cursor()
            try:
                if self.sqlite:  # take the write lock now, not on the first insert
                    cursor.execute("BEGIN IMMEDIATE")
                pending = list(range(len(batch)))
                while pending:
                    seen: set[tuple[int, int]] = set()
                    now_round: list[int] = []
                    later: list[int] = []
                    for i in pending:
                        key = (batch[i].table_id, batch[i].seq)
                        (later if key in seen else now_round).append(i)
                        seen.add(key)
                    self._round(cursor, batch, now_round, results)
                    pending = later
                conn.commit()
            except BaseException:
                with contextlib.suppress(Exception):
                    conn.rollback()
                raise
            finally:
                cursor.close()
        return results

    def _one_trip(self, driver: Any, batch: list[Append]) -> list[Exception | None]:
        """PostgreSQL: write ``batch`` (plain moves, distinct (table, seq)) in one round
        trip. The statements are sent as one simple-query message with the values bound
        on the client (psycopg's ``ClientCursor``), on the connection in autocommit mode:
        PostgreSQL runs a multi-statement message as one transaction and commits it at
        the end (with the WAL flush when ``synchronous_commit`` is on), so the reply
        comes once the moves are durable. Four round trips per batch (begin, tokens,
        insert, commit), each waiting for this thread to get the GIL back from the busy
        event loop, took a median 5.7 ms per batch at 500 moves/s, 0.8 ms of it CPU."""
        from psycopg import ClientCursor

        stamp = self._stamp(now())
        params: list[Any] = []
        for item in batch:
            params += (item.table_id, item.seq, item.kind, item.seat, item.action, item.note,
                       stamp, item.token_hash)
        tables = sorted({item.table_id for item in batch})
        sql = _PG_INSERT_CHECKED.format(", ".join([_PG_ROW] * len(batch)),
                                        ", ".join(["%s"] * len(tables)))
        driver.autocommit = True
        try:
            with ClientCursor(driver) as cursor:
                cursor.execute(sql, params + tables)
                inserted = {(r[0], r[1]) for r in cursor.fetchall()}
                cursor.nextset()
                tokens = {(r[0], r[1]): r[2] for r in cursor.fetchall()}
        finally:
            driver.autocommit = False
        results: list[Exception | None] = []
        for item in batch:
            if (item.table_id, item.seq) in inserted:
                results.append(None)
                continue
            results.append(_refused_token(item, tokens)
                           or Conflict("another move was accepted first"))
        return results

    def _round(self, cursor: Any, batch: list[Append], indices: list[int],
               results: list[Exception | None]) -> None:
        """Write the moves ``batch[i]`` for ``i`` in ``indices`` (distinct (table, seq))."""
        mark = self._mark
        checks = [i for i in indices if batch[i].token_hash is not None]
        if checks:  # the seat may have been given up meanwhile
            tables = sorted({batch[i].table_id for i in checks})
            cursor.execute(_SELECT_TOKENS.format(", ".join([mark] * len(tables))), tables)
            tokens = {(row[0], row[1]): row[2] for row in cursor.fetchall()}
            for i in checks:
                results[i] = _refused_token(batch[i], tokens)
        go = [i for i in indices if results[i] is None]
        if not go:
            return
        stamp = self._stamp(now())
        params: list[Any] = []
        for i in go:
            item = batch[i]
            params += (item.table_id, item.seq, item.kind, item.seat, item.action, False,
                       item.note, stamp)
        row = f"({', '.join([mark] * 8)})"
        cursor.execute(_INSERT_MOVES.format(", ".join([row] * len(go))), params)
        inserted = {(r[0], r[1]) for r in cursor.fetchall()}
        undone, finished, leases = [], [], []
        for i in go:
            item = batch[i]
            if (item.table_id, item.seq) not in inserted:
                results[i] = Conflict("another move was accepted first")
                continue
            undone += [(True, item.table_id, s) for s in item.undone]
            if item.finished:
                finished.append((True, item.table_id))
            if item.lease is not None:
                leases.append((item.table_id, item.lease[0], float(item.lease[1])))
        if undone:
            cursor.executemany(self._sql["undone"], undone)
        if finished:
            cursor.executemany(self._sql["finished"], finished)
        if leases:
            cursor.executemany(self._sql["lease"], leases)


def _refused_token(item: Append, tokens: dict[tuple[int, int], str | None]
                   ) -> Unauthorized | None:
    """``Unauthorized`` when ``item`` carries a token hash that is no longer its seat's
    (``tokens``: each seat's hash as read in the transaction); None otherwise."""
    if item.token_hash is None:
        return None
    held = tokens.get((item.table_id, item.seat))
    if held is None or not hmac.compare_digest(held, item.token_hash):
        return Unauthorized(f"the token is not the token of a seat at table {item.table_id}")
    return None


def _execute(conn: Any, sql: str) -> None:
    """Run one statement on a pooled DBAPI connection and commit."""
    cursor = conn.cursor()
    try:
        cursor.execute(sql)
    finally:
        cursor.close()
    conn.commit()


def _lock_refused(exc: Exception | None) -> bool:
    """PostgreSQL refused a lock within ``lock_timeout`` (SQLSTATE 55P03)."""
    return getattr(exc, "sqlstate", None) == "55P03"


def _plain(batch: list[Append]) -> bool:
    """Moves that undo nothing, end no game, take no lease, and have distinct (table,
    seq)."""
    keys = set()
    for item in batch:
        if item.undone or item.finished or item.lease is not None:
            return False
        keys.add((item.table_id, item.seq))
    return len(keys) == len(batch)


def _same(value: Any) -> Any:
    return value


def _resolve_all(batch: list[Append], results: Sequence[Exception | None]) -> None:
    """Hand the results to the event loop(s), one wake-up per loop."""
    loops: dict[asyncio.AbstractEventLoop, list[tuple[Append, Exception | None]]] = {}
    for item, result in zip(batch, results, strict=True):
        loops.setdefault(item.future.get_loop(), []).append((item, result))
    for loop, pairs in loops.items():
        with contextlib.suppress(RuntimeError):  # the loop has closed
            loop.call_soon_threadsafe(_resolve, pairs)


def _resolve(pairs: list[tuple[Append, Exception | None]]) -> None:
    for item, result in pairs:
        if item.future.done():
            continue
        if result is None:
            item.future.set_result(None)
        else:
            item.future.set_exception(result)
