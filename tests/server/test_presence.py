"""Presence across server processes: with Redis, a seat's socket on one process shows as
present to the sockets (seats' and spectators') on another, and goes away when it closes
or when its process stops renewing it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import httpx
from tools.services import TempPostgres

from meeplehall.server.live import Hub
from tests.server.helpers import connect, join, new_table
from tests.server.procs import running_server


def _open(base: str, table: int, token: str | None, stack: contextlib.ExitStack) -> Any:
    ws = stack.enter_context(connect(base.replace("http://", "ws://")
                                     + f"/api/tables/{table}/ws"))
    ws.send(json.dumps({"token": token, "since": None, "seats": True}))
    assert json.loads(ws.recv(timeout=10))["type"] == "sync"
    return ws


def _present(ws: Any, wanted: list[int], timeout: float = 10.0) -> dict[str, Any]:
    """The first ``seats`` message that says ``wanted`` are present, within ``timeout``."""
    deadline = time.monotonic() + timeout
    seen: list[Any] = []
    while time.monotonic() < deadline:
        try:
            message = json.loads(ws.recv(timeout=max(0.05, deadline - time.monotonic())))
        except TimeoutError:
            break
        if message.get("type") == "seats":
            seen.append(message["present"])
            if message["present"] == wanted:
                return dict(message)
    raise AssertionError(f"never saw present={wanted}; saw {seen}")


def test_presence_is_shared_between_processes(pg: TempPostgres, redis_url: str) -> None:
    db = pg.create_database()
    with running_server(db, "--redis", redis_url) as one, \
            running_server(db, "--redis", redis_url) as two, \
            httpx.Client(base_url=one, timeout=30) as client, contextlib.ExitStack() as stack:
        table = new_table(client, ["human", "human"])["id"]
        ada = client.post(f"/api/tables/{table}/seats/0/join", json={"name": "Ada"}).json()
        bob = join(client, table, 1)
        watcher = _open(two, table, None, stack)   # a spectator on process two
        seat_b = _open(two, table, bob, stack)     # seat 1 on process two
        _present(watcher, [1])
        with contextlib.ExitStack() as seat_a_stack:
            _open(one, table, ada["token"], seat_a_stack)  # seat 0 on process one
            news = _present(watcher, [0, 1])
            assert news["names"] == ["Ada", None]
            _present(seat_b, [0, 1])
        # seat 0's socket closed on process one: process two hears it at once
        _present(watcher, [1])
        _present(seat_b, [1])
        # and a late spectator on process one sees seat 1, held on process two
        late = _open(one, table, None, stack)
        _present(late, [1])


def test_a_dead_process_presence_lapses(redis_url: str) -> None:
    """A process that stops renewing (killed) leaves entries that lapse within the TTL:
    the other process's next renewal reads the seat as gone."""

    class _Service:  # no table is cached: the hub wakes its sockets to read it
        @staticmethod
        def cached(_table_id: int) -> None:
            return None

    async def run() -> None:
        holder = Hub(_Service(), redis_url, presence_ttl=0.9)  # type: ignore[arg-type]
        reader = Hub(_Service(), redis_url, presence_ttl=0.9)  # type: ignore[arg-type]
        await holder.start()
        await reader.start()
        try:
            table = 987_654
            holder.register(_FakeConn(table, 1))  # type: ignore[arg-type]
            watcher = _FakeConn(table, None, wants_seats=True)
            reader.register(watcher)  # type: ignore[arg-type]
            for _ in range(50):
                await reader.read_presence(table)
                if reader.present(table) == [1]:
                    break
                await asyncio.sleep(0.05)
            assert reader.present(table) == [1]
            for task in holder._tasks:  # the holder stops renewing, as if killed
                task.cancel()
            for _ in range(60):  # the reader renews (and re-reads) every 0.3 s
                await asyncio.sleep(0.1)
                if reader.present(table) == []:
                    break
            assert reader.present(table) == []
            assert watcher.seats_dirty
        finally:
            holder._announced.clear()
            await holder.close()
            await reader.close()

    asyncio.run(run())


class _FakeConn:
    def __init__(self, table_id: int, seat: int | None, wants_seats: bool = False) -> None:
        self.table_id = table_id
        self.seat = seat
        self.ended = None
        self.wants_seats = wants_seats
        self.seats_dirty = False
        self.direct = None
        self.min_seq: int | None = 0
        self.wake = asyncio.Event()


def test_a_table_asks_for_seats_while_one_of_its_sockets_does() -> None:
    """The hub counts the sockets that asked for ``seats`` messages per table (seats' and
    spectators'), so a crowd of spectators leaving costs each close no scan of the others;
    the table stops asking when its last such socket is gone, not before."""

    class _Service:
        @staticmethod
        def cached(_table_id: int) -> None:
            return None

    async def run() -> None:
        hub = Hub(_Service())  # type: ignore[arg-type]
        table = 4242
        crowd = [_FakeConn(table, None, wants_seats=i % 3 == 0) for i in range(300)]
        seat = _FakeConn(table, 0, wants_seats=True)
        assert not hub._asks_seats(table)
        for conn in crowd:
            hub.register(conn)  # type: ignore[arg-type]
        hub.register(seat)  # type: ignore[arg-type]
        assert hub._asks_seats(table)
        asking = [c for c in crowd if c.wants_seats]
        for conn in crowd:
            if not conn.wants_seats:
                hub.unregister(conn)  # type: ignore[arg-type]
        hub.unregister(seat)  # type: ignore[arg-type]
        hub.unregister(seat)  # type: ignore[arg-type]  # twice: counted once
        for conn in asking[:-1]:
            hub.unregister(conn)  # type: ignore[arg-type]
            assert hub._asks_seats(table)
        hub.unregister(asking[-1])  # type: ignore[arg-type]
        assert not hub._asks_seats(table)
        assert hub.connections() == 0

    asyncio.run(run())
