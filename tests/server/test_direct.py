"""Spectators' updates written straight to their transports (``server.direct``): the
same text as through the normal send, one frame shared by all; a socket that cannot take
it that way (a full buffer, a busy sender, a closing socket, a compression extension)
gets its updates through the normal send, a slow one a single catch-up message."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from tools.services import free_port
from websockets.protocol import State
from websockets.server import ServerProtocol
from websockets.sync.client import ClientConnection

from meeplehall.core.rng import Rng
from meeplehall.server import jsontext
from meeplehall.server.app import create_app
from meeplehall.server.direct import text_frame
from meeplehall.server.limits import LimitConfig
from meeplehall.server.live import FANOUT_SLICE, Connection, Hub
from meeplehall.server.live_table import Built, replay_entries
from meeplehall.server.patch import apply_patch
from tests.server.helpers import connect as ws_connect
from tests.server.helpers import hotseat, random_move
from tests.server.test_fanout import FakeSocket, OneTable, connect, move, new_live


class FakeChannel:
    """A transport frames may be written to; ``open`` False: not now (its buffer is
    above the high-water mark, or it is closing)."""

    def __init__(self) -> None:
        self.frames: list[bytes] = []
        self.open = True

    def ready(self) -> bool:
        return self.open

    def write(self, frame: bytes) -> None:
        assert self.open
        self.frames.append(frame)


def frame_texts(frames: list[bytes]) -> list[str]:
    """The text messages in ``frames``, as a client parses them (each frame whole)."""
    texts = []
    for raw in frames:
        assert raw[0] == 0x81  # FIN, text
        length, start = raw[1], 2
        assert length < 0x80  # not masked
        if length == 126:
            length, start = int.from_bytes(raw[2:4], "big"), 4
        elif length == 127:
            length, start = int.from_bytes(raw[2:10], "big"), 10
        assert len(raw) == start + length
        texts.append(raw[start:].decode("utf-8"))
    return texts


async def settle(done: Callable[[], bool]) -> None:
    for _ in range(10_000):
        if done():
            return
        await asyncio.sleep(0)
    raise AssertionError("the updates did not all go out")


async def watcher(hub: Hub, live: Any, sent: list[FakeSocket], *, direct: bool,
                  gate: asyncio.Event | None = None) -> tuple[Connection, FakeSocket,
                                                              FakeChannel]:
    conn, ws = await connect(hub, live, None, sent, gate)
    channel = FakeChannel()
    if direct:
        hub.unregister(conn)
        conn.direct = channel  # type: ignore[assignment]
        hub.register(conn)
    return conn, ws, channel


def test_a_text_frame_is_what_the_websocket_protocol_sends() -> None:
    for size in (0, 5, 125, 126, 127, 65535, 65536, 70000):
        text = "é" * (size // 2) + "x" * (size % 2)
        server = ServerProtocol(state=State.OPEN)
        server.send_text(text.encode())
        assert text_frame(text) == b"".join(server.data_to_send())
        assert frame_texts([text_frame(text)]) == [text]


def test_direct_spectators_get_the_texts_the_others_are_sent() -> None:
    async def scenario() -> None:
        live = new_live(1)
        hub = Hub(OneTable(live))  # type: ignore[arg-type]
        sent: list[FakeSocket] = []
        seats = [await connect(hub, live, seat, sent) for seat in (0, 1)]
        direct = [await watcher(hub, live, sent, direct=True)
                  for _ in range(3 * FANOUT_SLICE)]
        plain = [await watcher(hub, live, sent, direct=False) for _ in range(3)]
        conns = [conn for conn, _ in seats] + [c for c, _, _ in direct + plain]
        pumps = [asyncio.create_task(hub.pump(conn)) for conn in conns]
        await asyncio.sleep(0)
        rng = Rng.from_seed(5)
        for seq in range(1, 5):
            move(live, rng)
            hub.on_change(1, live.seq, False)
            await settle(lambda seq=seq: all(  # type: ignore[misc]
                len(ch.frames) == seq for _, _, ch in direct)
                and all(len(ws.texts) == seq for _, ws, _ in plain))
        expected = plain[0][1].texts
        assert all(ws.texts == expected for _, ws, _ in plain)
        for _, ws, channel in direct:
            assert ws.texts == []  # nothing through the normal send
            assert frame_texts(channel.frames) == expected
            # one frame object for all of them: encoded once per message
            assert channel.frames[-1] is direct[0][2].frames[-1]
        assert [jsontext.loads(t)["seq"] for t in expected] == [1, 2, 3, 4]
        assert hub.direct_sends == 4 * len(direct)
        for task in pumps:
            task.cancel()
        await asyncio.gather(*pumps, return_exceptions=True)

    asyncio.run(scenario())


def test_a_slow_spectator_is_not_written_beside_its_sender_and_catches_up_once() -> None:
    async def scenario() -> None:
        live = new_live(1)
        hub = Hub(OneTable(live))  # type: ignore[arg-type]
        sent: list[FakeSocket] = []
        gate = asyncio.Event()
        slow_conn, slow, slow_channel = await watcher(hub, live, sent, direct=True,
                                                      gate=gate)
        first_view = slow_conn.last_view
        crowd = [await watcher(hub, live, sent, direct=True) for _ in range(40)]
        pumps = [asyncio.create_task(hub.pump(c)) for c, _, _ in [(slow_conn, 0, 0), *crowd]]
        await asyncio.sleep(0)
        rng = Rng.from_seed(6)
        # its transport's buffer is full: the first update goes to its own task, whose
        # send waits
        slow_channel.open = False
        move(live, rng)
        hub.on_change(1, live.seq, False)
        await settle(lambda: all(len(ch.frames) == 1 for _, _, ch in crowd))
        await settle(lambda: not slow_conn.idle)
        # the transport could take frames again, but its task is still sending: nothing
        # may be written beside it (it would arrive before the update being sent)
        slow_channel.open = True
        for n in range(2, 6):
            move(live, rng)
            hub.on_change(1, live.seq, False)
            await settle(lambda n=n: all(  # type: ignore[misc]
                len(ch.frames) == n for _, _, ch in crowd))
        assert slow.texts == [] and slow_channel.frames == []
        gate.set()
        await settle(lambda: len(slow.texts) == 2 and slow_conn.idle)
        # the update it was sending when it stalled, then one to the newest view
        messages = [jsontext.loads(t) for t in slow.texts]
        assert [m["seq"] for m in messages] == [1, 5]
        view = first_view
        for message in messages:
            view = apply_patch(view, message["patch"])
        assert jsontext.dumps_text(view) == jsontext.dumps_text(live.view(None))
        # caught up and idle: written directly again
        move(live, rng)
        hub.on_change(1, live.seq, False)
        await settle(lambda: len(slow_channel.frames) == 1)
        assert jsontext.loads(frame_texts(slow_channel.frames)[0])["seq"] == 6
        for task in pumps:
            task.cancel()
        await asyncio.gather(*pumps, return_exceptions=True)

    asyncio.run(scenario())


def test_a_few_direct_spectators_go_through_the_fan_out() -> None:
    async def scenario() -> None:
        live = new_live(1)
        hub = Hub(OneTable(live))  # type: ignore[arg-type]
        sent: list[FakeSocket] = []
        crowd = [await watcher(hub, live, sent, direct=True) for _ in range(2)]
        pumps = [asyncio.create_task(hub.pump(c)) for c, _, _ in crowd]
        await asyncio.sleep(0)
        move(live, Rng.from_seed(7))
        hub.on_change(1, live.seq, False)
        await settle(lambda: all(len(ch.frames) == 1 for _, _, ch in crowd))
        assert sent == []
        for task in pumps:
            task.cancel()
        await asyncio.gather(*pumps, return_exceptions=True)

    asyncio.run(scenario())


def test_after_an_undo_direct_spectators_get_a_sync_then_frames_again() -> None:
    async def scenario() -> None:
        live = new_live(1)
        hub = Hub(OneTable(live))  # type: ignore[arg-type]
        sent: list[FakeSocket] = []
        crowd = [await watcher(hub, live, sent, direct=True) for _ in range(3)]
        pumps = [asyncio.create_task(hub.pump(c)) for c, _, _ in crowd]
        await asyncio.sleep(0)
        rng = Rng.from_seed(8)
        for n in (1, 2):
            move(live, rng)
            hub.on_change(1, live.seq, False)
            await settle(lambda n=n: all(  # type: ignore[misc]
                len(ch.frames) == n for _, _, ch in crowd))
        # the last move taken back: a new seq whose view is no patch away from the last
        keep = live.entries[:-1]
        seq = live.seq + 1
        live.install(Built(replay_entries(live.game, live.params, live.seed, keep), keep,
                           seq, [seq], live.notes))
        hub.on_change(1, seq, True)
        await settle(lambda: all(len(ws.texts) == 1 for _, ws, _ in crowd))
        for _, ws, channel in crowd:
            sync = jsontext.loads(ws.texts[0])
            assert sync["type"] == "sync" and sync["seq"] == seq and len(channel.frames) == 2
            assert jsontext.dumps_text(sync["view"]) == jsontext.dumps_text(live.view(None))
        move(live, rng)
        hub.on_change(1, live.seq, False)
        await settle(lambda: all(len(ch.frames) == 3 for _, _, ch in crowd))
        assert all(jsontext.loads(frame_texts(ch.frames)[-1])["type"] == "update"
                   for _, _, ch in crowd)
        for task in pumps:
            task.cancel()
        await asyncio.gather(*pumps, return_exceptions=True)

    asyncio.run(scenario())


# -- through uvicorn's websockets-sansio protocol, on real sockets ------------------------


class Served:
    """The app under uvicorn (websockets-sansio, permessage-deflate offered), in a
    thread of this process: its event loop and hub are at hand."""

    def __init__(self, db_url: str) -> None:
        self.app = create_app(db_url, move_rate=0, limits=LimitConfig(
            client={}, total={}, spectators_per_client=100))
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(
            self.app, host="127.0.0.1", port=self.port, ws="websockets-sansio",
            ws_per_message_deflate=True, log_level="warning", lifespan="on"))
        self.loop: asyncio.AbstractEventLoop | None = None
        self.sockets = contextlib.ExitStack()  # the clients' WebSockets
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        async def main() -> None:
            self.loop = asyncio.get_running_loop()
            await self.server.serve()

        asyncio.run(main())

    @property
    def hub(self) -> Hub:
        hub: Hub = self.app.state.hub
        return hub

    def on_loop(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` on the server's event loop; its result."""
        assert self.loop is not None

        async def call() -> Any:
            return fn()

        return asyncio.run_coroutine_threadsafe(call(), self.loop).result(10)

    def spectators(self, table: int) -> list[Connection]:
        return self.on_loop(lambda: list(self.hub._watchers.get(table, ())))  # type: ignore[no-any-return]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    running = Served(f"sqlite:///{tmp_path / 'direct.db'}")
    running.thread.start()
    deadline = time.monotonic() + 30
    while not running.server.started:
        assert time.monotonic() < deadline and running.thread.is_alive()
        time.sleep(0.02)
    try:
        with running.sockets:
            yield running
    finally:
        running.server.should_exit = True
        running.thread.join(15)


def spectate(served: Served, table: int, compression: str | None) -> tuple[ClientConnection,
                                                                           dict[str, Any]]:
    ws = served.sockets.enter_context(ws_connect(
        f"ws://127.0.0.1:{served.port}/api/tables/{table}/ws", compression=compression,
        max_size=None))
    ws.send(jsontext.dumps_text({"token": None, "since": None}))
    sync = jsontext.loads(ws.recv(timeout=10))
    assert sync["type"] == "sync"
    return ws, sync


def wait_for(served: Served, table: int, count: int) -> list[Connection]:
    deadline = time.monotonic() + 10
    while True:
        conns = served.spectators(table)
        if len(conns) == count and served.on_loop(
                lambda conns=conns: all(c.idle for c in conns)):
            return conns
        assert time.monotonic() < deadline, "the spectators did not settle"
        time.sleep(0.01)


def test_through_uvicorn_the_frames_carry_what_a_compressed_socket_is_sent(
        served: Served) -> None:
    with httpx.Client(base_url=served.base, timeout=30) as client:
        table, tokens = hotseat(client, seed=9)
        plain = [spectate(served, table, None) for _ in range(FANOUT_SLICE + 4)]
        deflated = spectate(served, table, "deflate")
        conns = wait_for(served, table, len(plain) + 1)
        # the server offers permessage-deflate: the socket that took it is sent to the
        # normal way, the others directly
        ready = served.on_loop(lambda: [c.direct is not None and c.direct.ready()
                                        for c in conns])
        assert sorted(ready) == [False] + [True] * len(plain)
        rng = Rng.from_seed(10)
        received: list[list[str]] = [[] for _ in range(len(plain) + 1)]
        for seq in range(1, 7):  # each move's update reaches everyone before the next
            assert random_move(client, table, tokens, rng) == seq
            for ws, texts in zip([deflated[0], *(ws for ws, _ in plain)], received,
                                 strict=True):
                texts.append(str(ws.recv(timeout=10)))
                assert jsontext.loads(texts[-1])["seq"] == seq
        reference = received[0]
        assert all(texts == reference for texts in received)  # the very same texts
        view = deflated[1]["view"]
        for text in reference:
            view = apply_patch(view, jsontext.loads(text)["patch"])
        assert view == client.get(f"/api/tables/{table}/view").json()["view"]
        assert served.on_loop(lambda: served.hub.direct_sends) == len(plain) * 6


def test_through_uvicorn_a_paused_transport_gets_one_catch_up_update(served: Served) -> None:
    with httpx.Client(base_url=served.base, timeout=30) as client:
        table, tokens = hotseat(client, seed=11)
        sockets = [spectate(served, table, None) for _ in range(3)]
        conns = wait_for(served, table, 3)
        slow = conns[0]
        assert slow.direct is not None
        protocol = slow.direct.protocol
        # what the transport does above its high-water mark
        served.on_loop(protocol.pause_writing)
        assert not served.on_loop(slow.direct.ready)
        rng = Rng.from_seed(12)
        for _ in range(4):
            random_move(client, table, tokens, rng)
        slow_ws = next(ws for ws, _ in sockets if _local_port(ws) == protocol.client[1])
        for ws, _ in sockets:
            if ws is not slow_ws:
                got = [jsontext.loads(ws.recv(timeout=10))["seq"] for _ in range(4)]
                assert got == [1, 2, 3, 4]
        with pytest.raises(TimeoutError):
            slow_ws.recv(timeout=0.3)  # its update waits for the buffer to drain
        served.on_loop(protocol.resume_writing)
        got = [jsontext.loads(slow_ws.recv(timeout=10))["seq"]]
        while got[-1] < 4:
            got.append(jsontext.loads(slow_ws.recv(timeout=10))["seq"])
        assert got == [1, 4]  # the update it was sending, then one catch-up


def _local_port(ws: ClientConnection) -> int:
    port: int = ws.socket.getsockname()[1]
    return port


def test_through_uvicorn_a_closing_socket_is_skipped(served: Served) -> None:
    with httpx.Client(base_url=served.base, timeout=30) as client:
        table, tokens = hotseat(client, seed=13)
        sockets = [spectate(served, table, None) for _ in range(FANOUT_SLICE + 2)]
        conns = wait_for(served, table, len(sockets))
        gone = conns[0]
        assert gone.direct is not None
        before = served.on_loop(lambda: served.hub.direct_sends)

        def close_and_move() -> None:
            assert gone.direct is not None
            gone.direct.protocol.transport.close()
            assert not gone.direct.ready()

        others = [ws for ws, _ in sockets if _local_port(ws) != gone.direct.protocol.client[1]]
        assert len(others) == len(sockets) - 1
        served.on_loop(close_and_move)
        random_move(client, table, tokens, Rng.from_seed(14))
        for ws in others:
            assert jsontext.loads(ws.recv(timeout=10))["seq"] == 1
        assert served.on_loop(lambda: served.hub.direct_sends) - before == len(sockets) - 1

