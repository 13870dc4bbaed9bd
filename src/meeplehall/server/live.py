"""Live updates: one WebSocket per client and table, fed by local and Redis events.

Every committed change calls :meth:`Hub.on_change`. Local connections to that table are
woken; each sends its client what changed since the last message it sent: a JSON patch
between two views of the same seat (so nothing hidden can slip in), the new log lines,
whose turn it is and, to the seat to move, its legal actions. Moves made in rapid
succession are coalesced into one message. With Redis, the change is also published on
one channel; the other server processes wake their own connections and read the new
moves from the shared database.

Spectators are sent to by a fan-out task of their table. The update's text is made
once per previous view (all the spectators that saw the same view get the same text),
encoded as one WebSocket frame, and that frame is written straight to each socket's
transport (:mod:`meeplehall.server.direct`), a slice of sockets at a time
(``FANOUT_TURN`` seconds of writing, or ``FANOUT_SLICE`` sockets handed to their tasks)
per turn of the event loop, so that the other tables' requests are served between the slices. A
socket that cannot take the frame that way (its transport's buffer is full, it is
closing, it negotiated an extension, its own task is busy sending, or it is due a full
sync or a ``seats`` message) is woken instead and sends from its own task, as the seats'
sockets always do: a spectator whose client reads slowly holds up only itself (its send
waits while the transport's buffer is full), and when it can send again it gets one
message from the view it last saw to the newest one, never a queue of them, so what it
holds is bounded by one transport buffer and one message.

Chat (:mod:`meeplehall.server.chat`): a message stored by one process is queued on the
table's seat sockets (and its spectators' where the table shows them the chat) there and,
through the same Redis channel, in the others; each socket sends it from its own task as
a ``chat`` frame (a spectator with one due is woken, not written to directly).

Presence (which seats' players have the table open): a socket that asked for it (hello
``"seats": true``, a seat's or a spectator's) gets a ``seats`` message whenever a seat is
taken, given up or renamed, or a player's socket comes or goes. Each process knows its own
seat sockets; with Redis, each also keeps, per table, a sorted set
``meeplehall:presence:{table}`` whose members ``{process}:{seat}`` are scored with the
time they lapse. The process holding the sockets renews its members every third of
``PRESENCE_TTL`` and removes them when the seat's last socket closes (publishing that on
the channel, so the others read the set again at once); a process that dies stops
renewing, and its members lapse within ``PRESENCE_TTL``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from meeplehall.server import jsontext
from meeplehall.server.direct import DirectFrames, text_frame
from meeplehall.server.errors import outage
from meeplehall.server.live_table import Live
from meeplehall.server.patch import diff
from meeplehall.server.service import TableService, seat_json

log = logging.getLogger("meeplehall.server.live")
CHANNEL = "meeplehall:changes"
# Spectator sockets a table's fan-out wakes per turn of the event loop (to send from their
# own tasks): each costs about 50 us, so a slice keeps other requests waiting a few ms.
FANOUT_SLICE = 32
# Seconds a fan-out spends writing frames directly per turn of the event loop (about 10
# sockets): every request of another table that is served meanwhile waits this long at
# each of the loop turns it needs, so the slice is kept short.
FANOUT_TURN = 0.00025
# Log entries a sync frame carries at most: the view's log is cut to its last LOG_TAIL
# entries (``log_base`` says how many come before them; ``GET /tables/{id}/log`` gives
# those in pages), so that a sync frame of a long game stays small.
LOG_TAIL = 100
PRESENCE_KEY = "meeplehall:presence:{}"
# Seconds a process's presence entries live in Redis unless it renews them: how long a
# dead process's players may still show as present.
PRESENCE_TTL = 15.0


@dataclass(eq=False)
class Connection:
    """One client's WebSocket on one table, as ``seat`` (None: spectator)."""

    ws: WebSocket
    table_id: int
    seat: int | None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    # Wake-ups say how new the table is known to be; None: ask the database (the first
    # push, and after missed Redis events, since another process may have moved).
    min_seq: int | None = None
    last_seq: int = -1
    last_view: dict[str, Any] | None = None
    last_memo: dict[Any, bytes] | None = None  # the diff memo of last_view
    log_len: int = 0
    token_hash: str | None = None  # the seat's token: the socket ends when it changes
    # Asked (hello "seats": true) for a "seats" message whenever a seat is taken, given up,
    # or its player's socket comes or goes; seats_dirty: one is due.
    wants_seats: bool = False
    seats_dirty: bool = False
    ended: str | None = None  # set: close the socket now, saying this
    # The transport a spectator's frames may be written to directly (server.direct), and
    # whether the socket's own task is waiting for a wake-up (not building or sending a
    # message): only then may a frame be written beside it, keeping the order.
    direct: DirectFrames | None = None
    idle: bool = False
    chat_out: list[dict[str, Any]] = field(default_factory=list)  # chat messages due


def table_message(live: Live, seat: int | None) -> dict[str, Any]:
    """Fields every view-carrying message has: whose turn, and what the seat may do.
    Worked out once per seat and seq (the mover's reply and its own update carry the
    same): read-only."""
    made = live.summaries.get(seat)
    if made is None:
        made = live.summaries[seat] = _table_message(live, seat)
    return made


def _table_message(live: Live, seat: int | None) -> dict[str, Any]:
    to_move = live.to_move
    out: dict[str, Any] = {"table_id": live.table_id, "seq": live.seq,
                           "moves": len(live.entries), "seat": seat, "to_move": to_move,
                           "your_turn": seat is not None and seat == to_move,
                           "finished": to_move is None,
                           "outcome": live.outcome() if to_move is None else None,
                           "notes": live.notes_since(-1)[-20:]}
    if seat is not None:
        out["undoable"] = live.undoable(seat) if to_move is not None else 0
        if to_move == seat:
            out["decision"] = live.decision()
            out["legal"] = live.legal()
    return out


def log_tail(view: dict[str, Any], base: int) -> dict[str, Any]:
    """``view`` with its log from entry ``base`` on (a copy; the view is shared):
    ``view["log"]``, and ``view["state"]["log"]`` where the game's view holds the same
    list there too (Praga's bot-only state)."""
    if base <= 0 or not isinstance(view.get("log"), list):
        return view
    lines = view["log"]
    out = {**view, "log": lines[base:]}
    state = view.get("state")
    if isinstance(state, dict) and state.get("log") is lines:
        out["state"] = {**state, "log": out["log"]}
    return out


def _siblings(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """The same keys in the same order, and the same objects under each but ``"seat"``:
    two views of one state built together (``Live.view``)."""
    if len(a) != len(b):
        return False
    for (key, value), (other_key, other) in zip(a.items(), b.items(), strict=True):
        if key != other_key or (value is not other and key != "seat"):
            return False
    return True


def _same_seat(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Both views have a ``"seat"``, of the same type and value: the patch leaves it be."""
    if "seat" not in old or "seat" not in new:
        return False
    a, b = old["seat"], new["seat"]
    return type(a) is type(b) and a == b


class Hub:
    """Local WebSocket connections per table, plus the optional Redis bridge."""

    def __init__(self, service: TableService, redis_url: str | None = None, *,
                 presence_ttl: float = PRESENCE_TTL) -> None:
        self.service = service
        self.redis_url = redis_url
        self.presence_ttl = presence_ttl
        self.origin = secrets.token_hex(8)
        self._conns: dict[int, set[Connection]] = {}  # seats' connections
        self._watchers: dict[int, dict[Connection, None]] = {}  # spectators', in order
        self._direct_watchers: dict[int, int] = {}  # how many of them have ``direct``
        # Per table, how many of its sockets (seats' and spectators') asked for ``seats``
        # messages: counted, so that a crowd leaving costs each close O(1), not a scan.
        self._asking: dict[int, int] = {}
        self.direct_sends = 0  # updates written straight to a transport, in all
        # Tables whose spectators have a fan-out in progress, and the seq to wake them
        # with (None: ask the database) once the current pass is over.
        self._fanouts: dict[int, asyncio.Task[None]] = {}
        self._fan_pending: dict[int, int | None] = {}
        self._redis: Any = None
        self._outbox: asyncio.Queue[str] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._seat_tasks: set[asyncio.Task[None]] = set()
        self._publish_warned = 0.0
        # Presence through Redis: the seats this process has announced per table, the
        # seats other processes hold per table (read for tables whose sockets asked),
        # and the tables whose announcement is due.
        self._announced: dict[int, frozenset[int]] = {}
        self._remote: dict[int, frozenset[int]] = {}
        self._presence_due: set[int] = set()
        self._presence_wake: asyncio.Event | None = None
        # The last chat messages of a table (meeplehall.server.chat), for sync frames.
        self.chat_tail: Callable[[int], Awaitable[list[dict[str, Any]]]] | None = None

    async def start(self) -> None:
        if not self.redis_url:
            return
        import redis.asyncio as aioredis

        self._redis = aioredis.from_url(self.redis_url)
        await self._redis.ping()
        self._outbox = asyncio.Queue()
        self._presence_wake = asyncio.Event()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._publisher()), loop.create_task(self._listener()),
                       loop.create_task(self._presence())]

    async def close(self) -> None:
        tasks = [*self._tasks, *self._seat_tasks, *self._fanouts.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._redis is not None:
            with contextlib.suppress(Exception):  # the others read the sets again at once
                for table_id in list(self._announced):
                    await self._redis.zrem(PRESENCE_KEY.format(table_id),
                                           *[f"{self.origin}:{s}"
                                             for s in self._announced.pop(table_id)])
                    await self._redis.publish(CHANNEL, json.dumps(
                        {"o": self.origin, "t": table_id, "presence": True}))
            await self._redis.aclose()

    @property
    def redis(self) -> Any:
        """The Redis client (None without Redis), for others to share."""
        return self._redis

    async def ping(self, timeout: float) -> str | None:
        """None when Redis answers within ``timeout`` seconds; "not configured" without
        Redis; else what went wrong (for ``/api/health``)."""
        if self._redis is None:
            return "not configured"
        try:
            await asyncio.wait_for(self._redis.ping(), timeout)
        except TimeoutError:
            return f"no answer within {timeout:g} s"
        except Exception as exc:
            return f"unavailable ({type(exc).__name__})"
        return None

    # -- events -------------------------------------------------------------------------

    def on_change(self, table_id: int, seq: int, _undo: bool) -> None:
        """A change committed by this process."""
        self._wake(table_id, seq)
        if self._outbox is not None:
            self._outbox.put_nowait(json.dumps({"o": self.origin, "t": table_id, "s": seq}))

    def on_seat(self, table_id: int, seat: int, token_hash: str | None) -> None:
        """A seat of this process was given up or taken (``token_hash``: its token now):
        the sockets of any other token on that seat end at once, here and, through
        Redis, in the other processes."""
        self._end_seat(table_id, seat, token_hash)
        self._seats_news(table_id)
        if self._outbox is not None:
            self._outbox.put_nowait(json.dumps({"o": self.origin, "t": table_id,
                                                "seat": seat}))

    def on_chat(self, table_id: int, message: dict[str, Any], spectators: bool) -> None:
        """A chat message this process stored: to the table's sockets here (the
        spectators' only when ``spectators``) and, through Redis, elsewhere."""
        self._chat(table_id, message, spectators)
        if self._outbox is not None:
            self._outbox.put_nowait(json.dumps({"o": self.origin, "t": table_id,
                                                "chat": message, "spec": spectators}))

    def _chat(self, table_id: int, message: dict[str, Any], spectators: bool) -> None:
        conns = list(self._conns.get(table_id, ()))
        if spectators:
            conns += list(self._watchers.get(table_id, ()))
        for conn in conns:
            if conn.ended is None:
                conn.chat_out.append(message)
                conn.wake.set()

    def _end_seat(self, table_id: int, seat: int, token_hash: str | None) -> None:
        for conn in self._conns.get(table_id, ()):
            if conn.seat == seat and conn.token_hash != token_hash and conn.ended is None:
                conn.ended = "this seat was given up"
                conn.wake.set()

    async def _remote_seat(self, table_id: int, seat: int) -> None:
        """Another process changed a seat: read whose it is now, end the other sockets."""
        self._seats_news(table_id)
        cached = self.service.cached(table_id)
        if cached is None and not any(c.seat == seat for c in self._conns.get(table_id, ())):
            return
        try:
            probe = await self.service.probe(table_id)
            if cached is not None:  # its bots, mutes and deadlines as they are now
                await self.service.get_live(table_id, probe=probe)
        except Exception as exc:
            log.warning("cannot read the seats of table %d (%s)", table_id,
                        type(exc).__name__)
            return
        for number, _kind, digest in probe.seats:
            if number == seat:
                self._end_seat(table_id, seat, digest)

    @staticmethod
    def _wake_one(conn: Connection, seq: int | None) -> None:
        if seq is None or conn.min_seq is None:
            conn.min_seq = None
        else:
            conn.min_seq = max(conn.min_seq, seq)
        conn.wake.set()

    def _wake(self, table_id: int, seq: int | None) -> None:
        """Wake the table's connections: the seats' at once; the spectators' through the
        table's fan-out (``_fanout``), or at once when they are few and none can be
        written to directly."""
        for conn in self._conns.get(table_id, ()):
            self._wake_one(conn, seq)
        watchers = self._watchers.get(table_id)
        if not watchers:
            return
        if len(watchers) <= FANOUT_SLICE and table_id not in self._fanouts \
                and not self._direct_watchers.get(table_id):
            for conn in watchers:
                self._wake_one(conn, seq)
            return
        if table_id in self._fan_pending:
            old = self._fan_pending[table_id]
            seq = None if old is None or seq is None else max(old, seq)
        self._fan_pending[table_id] = seq
        if table_id not in self._fanouts:
            self._fanouts[table_id] = asyncio.get_running_loop().create_task(
                self._fanout(table_id))

    async def _fanout(self, table_id: int) -> None:
        """Send the table's spectators the newest view, yielding to the event loop after
        each slice: up to ``FANOUT_TURN`` of frames written directly (``_direct``), and
        up to ``FANOUT_SLICE`` sockets woken to send from their own tasks (they run in
        the loop turn after, beside whatever other requests came in meanwhile). A change
        that arrives during a pass starts another pass once this one is over; a socket
        woken twice sends once, the newest view. The table is read here once for all
        the spectators (from the database only when the cache is behind: after missed
        Redis events, ``seq`` None, or another process's move)."""
        try:
            while table_id in self._fan_pending:
                seq = self._fan_pending.pop(table_id)
                live: Live | None = None
                with contextlib.suppress(Exception):  # else each asks, sees the error
                    live = await self.service.get_live(table_id, min_seq=seq)
                    seq = live.seq
                watchers = list(self._watchers.get(table_id, ()))
                at = 0
                while at < len(watchers):
                    until = time.perf_counter() + FANOUT_TURN
                    woken = 0
                    while at < len(watchers) and woken < FANOUT_SLICE:
                        conn = watchers[at]
                        at += 1
                        if live is None or not self._direct(conn, live):
                            self._wake_one(conn, seq)
                            woken += 1
                        elif time.perf_counter() > until:
                            break
                    await asyncio.sleep(0)
        finally:
            # At once, not in a done callback: a change that comes after the last check
            # above must start a new fan-out.
            del self._fanouts[table_id]

    def _direct(self, conn: Connection, live: Live) -> bool:
        """Send a spectator its update from ``live`` by writing the frame shared by
        every socket that saw the same view straight to its transport. True when that
        was done or nothing is due; False when the socket must send from its own task:
        it cannot be written to directly (``DirectFrames.ready``), that task is busy,
        or what is due is a full sync or a ``seats`` message."""
        channel = conn.direct
        if channel is None or not conn.idle or conn.ended is not None or conn.seats_dirty \
                or conn.last_view is None or conn.chat_out:
            return False
        if live.seq <= conn.last_seq:
            return True
        if live.undone_since(conn.last_seq) or not channel.ready():
            return False
        key = (conn.seat, conn.last_seq, conn.log_len)
        try:
            text = self.update_text(conn, live)
            made = live.frames.get(key)
            if made is None or made[0] is not text:
                made = live.frames[key] = (text, text_frame(text))
            channel.write(made[1])
        except Exception:  # its own task tries again, and reports what goes wrong
            log.debug("a direct update to a client of table %d failed", conn.table_id,
                      exc_info=True)
            return False
        self.direct_sends += 1
        return True

    async def _publisher(self) -> None:
        assert self._outbox is not None
        while True:
            message = await self._outbox.get()
            try:
                await self._redis.publish(CHANNEL, message)
            except Exception as exc:
                stamp = time.monotonic()
                if stamp - self._publish_warned > 10:  # one line per outage, not per move
                    self._publish_warned = stamp
                    log.warning("cannot publish to Redis (%s)", type(exc).__name__)

    async def _listener(self) -> None:
        while True:
            try:
                pubsub = self._redis.pubsub()
                await pubsub.subscribe(CHANNEL)
                for table_id in self.watched():  # we may have missed events
                    self._wake(table_id, None)
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    try:
                        data = json.loads(message["data"])
                        if data["o"] == self.origin:
                            continue
                        if "chat" in data:
                            self._chat(int(data["t"]), dict(data["chat"]),
                                       bool(data.get("spec")))
                        elif "seat" in data:
                            self._spawn(self._remote_seat(int(data["t"]), int(data["seat"])))
                        elif "presence" in data:
                            table_id = int(data["t"])
                            if self._asks_seats(table_id):
                                self._spawn(self.read_presence(table_id))
                        else:
                            self._wake(int(data["t"]), int(data["s"]))
                    except (ValueError, KeyError, TypeError):
                        log.warning("ignored a malformed message on %s", CHANNEL)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("Redis subscription lost (%s); retrying", type(exc).__name__)
                await asyncio.sleep(1.0)

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._seat_tasks.add(task)
        task.add_done_callback(self._seat_tasks.discard)

    # -- presence ---------------------------------------------------------------------------

    def _local_present(self, table_id: int) -> frozenset[int]:
        return frozenset(c.seat for c in self._conns.get(table_id, ())
                         if c.seat is not None and c.ended is None)

    def present(self, table_id: int) -> list[int]:
        """The seats whose players have the table open: a live socket in this process
        or, with Redis, in another one (as last read)."""
        return sorted(self._local_present(table_id) | self._remote.get(table_id, frozenset()))

    def _asks_seats(self, table_id: int) -> bool:
        return table_id in self._asking

    def _presence_changed(self, table_id: int) -> None:
        """A seat socket came or went here: tell the local sockets now, and (with Redis)
        announce this process's seats of the table to the others."""
        self._seats_news(table_id)
        if self._presence_wake is not None:
            self._presence_due.add(table_id)
            self._presence_wake.set()

    async def read_presence(self, table_id: int) -> None:
        """Read which seats other processes hold at the table (with Redis); tell the
        sockets that asked when that changed."""
        if self._redis is None:
            return
        key = PRESENCE_KEY.format(table_id)
        stamp = time.time()
        members = await self._redis.zrangebyscore(key, stamp, "+inf")
        mine = f"{self.origin}:".encode()
        seats: set[int] = set()
        for member in members:
            raw = member if isinstance(member, bytes) else str(member).encode()
            if not raw.startswith(mine):
                with contextlib.suppress(ValueError):
                    seats.add(int(raw.rsplit(b":", 1)[1]))
        fresh = frozenset(seats)
        old = self._remote.get(table_id, frozenset())
        if not self._asks_seats(table_id):
            self._remote.pop(table_id, None)  # nobody follows it here: keep no stale copy
            return
        self._remote[table_id] = fresh
        if fresh != old:
            self._seats_news(table_id)

    async def learn_presence(self, table_id: int) -> None:
        """``read_presence`` unless this process follows the table's presence already
        (a socket asked before, and the renewals keep it read)."""
        if self._redis is not None and table_id not in self._remote:
            await self.read_presence(table_id)

    async def _announce(self, table_id: int) -> None:
        """Write this process's present seats of the table to Redis (renewing their
        lapse time); publish when they changed."""
        seats = self._local_present(table_id)
        old = self._announced.get(table_id, frozenset())
        key = PRESENCE_KEY.format(table_id)
        async with self._redis.pipeline(transaction=False) as pipe:
            if old - seats:
                pipe.zrem(key, *[f"{self.origin}:{s}" for s in old - seats])
            if seats:
                until = time.time() + self.presence_ttl
                pipe.zadd(key, {f"{self.origin}:{s}": until for s in seats})
                pipe.expire(key, int(self.presence_ttl * 2) + 1)
            pipe.zremrangebyscore(key, "-inf", time.time())
            await pipe.execute()
        if seats:
            self._announced[table_id] = seats
        else:
            self._announced.pop(table_id, None)
        if seats != old:
            await self._redis.publish(CHANNEL, json.dumps(
                {"o": self.origin, "t": table_id, "presence": True}))

    async def _presence(self) -> None:
        """Announce this process's seats when they change, renew them every third of
        ``presence_ttl``, and read the others' for the tables whose sockets asked (so
        that a dead process's players go away once its entries lapse)."""
        assert self._presence_wake is not None
        every = self.presence_ttl / 3
        due = time.monotonic() + every
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._presence_wake.wait(),
                                       max(0.0, due - time.monotonic()))
            self._presence_wake.clear()
            tables, self._presence_due = self._presence_due, set()
            renew = time.monotonic() >= due
            if renew:
                due = time.monotonic() + every
                tables |= set(self._announced)
            try:
                for table_id in tables:
                    await self._announce(table_id)
                if renew:
                    for table_id in self.watched():
                        if self._asks_seats(table_id):
                            await self.read_presence(table_id)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._presence_due |= tables  # again at the next renewal
                log.warning("cannot share presence through Redis (%s)", type(exc).__name__)

    # -- connections ------------------------------------------------------------------------

    def _seats_news(self, table_id: int) -> None:
        """Tell the sockets that asked for it (seats' and spectators') that the seats
        changed. Spectators are woken as for a move (``_wake``: through the table's
        fan-out when they are many)."""
        for conn in self._conns.get(table_id, ()):
            if conn.wants_seats:
                conn.seats_dirty = True
                conn.wake.set()
        asked = False
        for conn in self._watchers.get(table_id, ()):
            if conn.wants_seats:
                conn.seats_dirty = asked = True
        if asked:
            live = self.service.cached(table_id)
            self._wake(table_id, None if live is None else live.seq)

    def register(self, conn: Connection) -> None:
        if conn.wants_seats:
            self._asking[conn.table_id] = self._asking.get(conn.table_id, 0) + 1
        if conn.seat is None:
            self._watchers.setdefault(conn.table_id, {})[conn] = None
            conn.seats_dirty = conn.wants_seats
            if conn.direct is not None:
                self._direct_watchers[conn.table_id] = \
                    self._direct_watchers.get(conn.table_id, 0) + 1
        else:
            self._conns.setdefault(conn.table_id, set()).add(conn)
            self._presence_changed(conn.table_id)

    def unregister(self, conn: Connection) -> None:
        if conn.seat is None:
            watchers = self._watchers.get(conn.table_id)
            if watchers is not None and conn in watchers:
                del watchers[conn]
                self._unask(conn)
                if not watchers:
                    del self._watchers[conn.table_id]
                if conn.direct is not None:
                    left = self._direct_watchers.pop(conn.table_id) - 1
                    if left:
                        self._direct_watchers[conn.table_id] = left
        else:
            conns = self._conns.get(conn.table_id)
            if conns is not None and conn in conns:
                conns.discard(conn)
                self._unask(conn)
                if not conns:
                    del self._conns[conn.table_id]
            self._presence_changed(conn.table_id)
        if not self._asks_seats(conn.table_id):
            self._remote.pop(conn.table_id, None)  # read again when someone asks

    def _unask(self, conn: Connection) -> None:
        """``conn`` (registered, asking for ``seats`` messages or not) is gone."""
        if conn.wants_seats:
            left = self._asking.pop(conn.table_id) - 1
            if left:
                self._asking[conn.table_id] = left

    def connections(self) -> int:
        return sum(len(c) for c in self._conns.values()) + \
            sum(len(w) for w in self._watchers.values())

    def watched(self) -> list[int]:
        """Tables with live connections in this process (seats' or spectators')."""
        return list(dict.fromkeys([*self._conns, *self._watchers]))

    async def sync_message(self, conn: Connection, live: Live,
                           since: int | None) -> dict[str, Any]:
        """The current view with the last ``LOG_TAIL`` entries of its log
        (``log_base``: how many come before them), plus the log lines since history
        point ``since`` (of those, at most the same last ``LOG_TAIL``: ``log_from`` is
        the index of the first one)."""
        view = live.view(conn.seat)
        lines = view.get("log", [])
        base = max(0, len(lines) - LOG_TAIL)
        start = 0 if since is None else await self.service.log_at(live, since, conn.seat)
        start = max(base, 0 if start is None else min(start, len(lines)))
        message = {"type": "sync", **table_message(live, conn.seat),
                   "view": log_tail(view, base), "log_base": base,
                   "log_from": start, "log": lines[start:],
                   "notes": live.notes_since(-1 if since is None else since)}
        if self.chat_tail is not None and (conn.seat is not None
                                           or live.settings.spectator_chat):
            tail = await self.chat_tail(live.table_id)
            message["chat"] = tail
            # The tail holds the messages due so far; one stored after it was read
            # (while it was being read) is still sent as its own frame.
            newest = max((m["id"] for m in tail), default=0)
            conn.chat_out[:] = [m for m in conn.chat_out if m["id"] > newest]
        self._sent(conn, live, view)
        return message

    def update_message(self, conn: Connection, live: Live) -> dict[str, Any]:
        view = live.view(conn.seat)
        lines = view.get("log", [])
        assert conn.last_view is not None
        message = {"type": "update", **table_message(live, conn.seat),
                   "patch": self.patch(conn, live, view),
                   "log_from": conn.log_len,
                   "log": lines[conn.log_len:], "notes": live.notes_since(conn.last_seq)}
        self._sent(conn, live, view)
        return message

    @staticmethod
    def patch(conn: Connection, live: Live, view: dict[str, Any]) -> list[dict[str, Any]]:
        """The patch from ``conn.last_view`` to ``view``. Worked out once for the seats
        whose views were built together (see ``Live.view``): between views that differ
        from another pair only in an unchanged ``"seat"``, the operations are the same."""
        old = conn.last_view
        assert old is not None
        shareable = _same_seat(old, view)
        if shareable:
            for old_other, new_other, ops in live.patches:
                if _siblings(old, old_other) and _siblings(view, new_other):
                    return ops
        ops = diff(old, view, "", conn.last_memo, live.memo(conn.seat))
        if shareable:
            live.patches.append((old, view, ops))
        return ops

    def update_text(self, conn: Connection, live: Live) -> str:
        """``update_message`` as JSON text, made once per seat, seq and previous view:
        every connection of a seat that saw the same view gets the same text (one diff
        and one serialisation for all spectators, or all tabs of one player)."""
        assert conn.last_view is not None
        key = (conn.seat, conn.last_seq, conn.log_len)
        shared = live.messages.get(key)
        if shared is not None and shared[0] is conn.last_view:
            self._sent(conn, live, live.view(conn.seat))
            return shared[1]
        old = conn.last_view
        text = jsontext.dumps_text(self.update_message(conn, live))
        live.messages[key] = (old, text)
        return text

    @staticmethod
    def _sent(conn: Connection, live: Live, view: dict[str, Any]) -> None:
        conn.last_seq = live.seq
        conn.last_view = view
        conn.last_memo = live.memo(conn.seat)
        conn.log_len = len(view.get("log", ()))

    async def pump(self, conn: Connection) -> None:
        """Send ``conn`` every change until cancelled (runs beside the receive loop)."""
        while True:
            conn.idle = True
            await conn.wake.wait()
            conn.idle = False
            conn.wake.clear()
            try:
                if not await self._push(conn):
                    return
            except asyncio.CancelledError:
                raise
            except WebSocketDisconnect:
                # the client left while its update was being sent (Starlette turns the
                # transport's error into this): the socket is gone, nothing to report
                return
            except Exception as exc:
                if outage(exc) is None:
                    log.error("live update to a client of table %d failed (%s)",
                              conn.table_id, type(exc).__name__, exc_info=True)
                # 1013, "try again later": the client reconnects and syncs.
                with contextlib.suppress(Exception):
                    await conn.ws.close(1013 if outage(exc) is not None else 1011)
                return

    async def _push(self, conn: Connection) -> bool:
        """Send what changed; False when the connection should end."""
        if conn.ended is None:
            min_seq, conn.min_seq = conn.min_seq, 0
            live = await self.service.get_live(conn.table_id, min_seq=min_seq)
            if conn.seat is not None and \
                    live.seats[conn.seat].token_hash != conn.token_hash:
                conn.ended = "this seat was given up"
        if conn.ended is not None:
            with contextlib.suppress(Exception):
                await conn.ws.send_json({"type": "error", "status": 401,
                                         "detail": conn.ended})
                await conn.ws.close(4401)
            return False
        if conn.seats_dirty:
            conn.seats_dirty = False
            await conn.ws.send_json({"type": "seats", "table_id": conn.table_id,
                                     "present": self.present(conn.table_id),
                                     "names": [s.name for s in live.seats],
                                     "seats": [seat_json(s) for s in live.seats]})
        while conn.chat_out:
            await conn.ws.send_text(jsontext.dumps_text(
                {"type": "chat", "table_id": conn.table_id, "message": conn.chat_out.pop(0)}))
        if live.seq == conn.last_seq:
            return True
        if conn.last_view is None or live.undone_since(conn.last_seq):
            text = jsontext.dumps_text(await self.sync_message(conn, live, None))
        else:
            text = self.update_text(conn, live)
        await conn.ws.send_text(text)
        return True
