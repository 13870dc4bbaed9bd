"""Spectator fan-out: a crowded table's spectators are sent to a slice at a time, so the
event loop serves other tables between the slices; a slow spectator holds up only itself
and, once it can send again, gets one message up to the newest view."""

from __future__ import annotations

import asyncio
import itertools
import logging
from datetime import UTC, datetime
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from meeplehall.core.rng import Rng
from meeplehall.games.red_cathedral import GAME
from meeplehall.server import jsontext
from meeplehall.server.live import FANOUT_SLICE, Connection, Hub
from meeplehall.server.live_table import Built, Entry, Live, SeatInfo, step
from meeplehall.server.patch import apply_patch

SPECTATORS = 12 * FANOUT_SLICE
PARAMS = {"players": 2}


class FakeSocket:
    """Records what the server sends; with ``gate``, each send waits for it (a client
    that reads slowly: the transport's buffer is full)."""

    def __init__(self, sent: list[FakeSocket], gate: asyncio.Event | None = None) -> None:
        self.texts: list[str] = []
        self.sent = sent
        self.gate = gate

    async def send_text(self, text: str) -> None:
        if self.gate is not None:
            await self.gate.wait()
        self.texts.append(text)
        self.sent.append(self)

    async def send_json(self, data: Any) -> None:
        await self.send_text(jsontext.dumps_text(data))

    async def close(self, code: int = 1000) -> None:
        pass


class OneTable:
    """The service as the hub sees it: one cached table."""

    def __init__(self, live: Live) -> None:
        self.live = live
        self.reads = 0  # calls that would read the database

    async def get_live(self, table_id: int, *, min_seq: int | None = None) -> Live:
        assert table_id == self.live.table_id
        if min_seq is None or self.live.seq < min_seq:
            self.reads += 1
        return self.live


def new_live(table_id: int) -> Live:
    live = Live(table_id, GAME, PARAMS, 3, "test", datetime(2026, 1, 1, tzinfo=UTC),
                [SeatInfo(i, "human", f"hash{i}") for i in range(2)])
    live.install(Built(GAME.initial_state(PARAMS, 3), [], 0, [], []))
    return live


def move(live: Live, rng: Rng) -> None:
    seat = live.to_move
    assert seat is not None
    actions = live.legal_actions()
    state, text, reveal = step(GAME, live.state, seat, str(actions[rng.randbelow(len(actions))]))
    seq = live.seq + 1
    live.install(Built(state, [*live.entries, Entry(seq, seat, text, reveal)], seq, [], []))


async def connect(hub: Hub, live: Live, seat: int | None, sent: list[FakeSocket],
                  gate: asyncio.Event | None = None,
                  socket: type[FakeSocket] | None = None) -> tuple[Connection, FakeSocket]:
    ws = (socket or FakeSocket)(sent, gate)
    conn = Connection(ws, live.table_id, seat,  # type: ignore[arg-type]
                      token_hash=None if seat is None else f"hash{seat}")
    await hub.sync_message(conn, live, None)  # the sync the app sends first
    conn.min_seq = live.seq
    hub.register(conn)
    return conn, ws


def test_a_crowded_table_yields_to_the_event_loop_between_slices() -> None:
    async def scenario() -> None:
        live = new_live(1)
        hub = Hub(OneTable(live))  # type: ignore[arg-type]
        sent: list[FakeSocket] = []
        seats = [await connect(hub, live, seat, sent) for seat in (0, 1)]
        crowd = [await connect(hub, live, None, sent) for _ in range(SPECTATORS)]
        pumps = [asyncio.create_task(hub.pump(conn)) for conn, _ in [*seats, *crowd]]
        await asyncio.sleep(0)
        rng = Rng.from_seed(1)
        for seq in (1, 2, 3):  # each move after the last one's updates went out
            sent.clear()
            move(live, rng)
            hub.on_change(1, live.seq, False)
            # Another table's request: a task that needs the event loop now and then.
            # Between two of its turns at most one slice of spectators (and the seats)
            # is sent to.
            seen = [len(sent)]
            while len(sent) < SPECTATORS + 2:
                assert len(seen) < 10_000, "not every socket was sent to"
                await asyncio.sleep(0)
                seen.append(len(sent))
            steps = [b - a for a, b in itertools.pairwise(seen)]
            assert max(steps) <= FANOUT_SLICE + 2, steps
            assert len(seen) > SPECTATORS // FANOUT_SLICE
            # the seats heard first; every spectator got the same text, the spectator's
            # view
            assert {id(ws) for ws in sent[:2]} == {id(ws) for _, ws in seats}
            texts = {ws.texts[-1] for _, ws in crowd}
            assert len(texts) == 1
            message = jsontext.loads(texts.pop())
            assert message["seat"] is None and "legal" not in message
            assert message["seq"] == seq
        for task in pumps:
            task.cancel()
        await asyncio.gather(*pumps, return_exceptions=True)

    asyncio.run(scenario())


class GoneSocket(FakeSocket):
    """A client that left: sending to it fails as Starlette reports it."""

    async def send_text(self, text: str) -> None:
        raise WebSocketDisconnect(code=1006)


def test_a_client_that_left_during_a_send_ends_its_pump_quietly(
        caplog: pytest.LogCaptureFixture) -> None:
    """A spectator that closes its socket while an update is on its way is an ordinary
    event: its sender stops without an ERROR in the log, and the others still get the
    update."""
    async def scenario() -> None:
        live = new_live(1)
        hub = Hub(OneTable(live))  # type: ignore[arg-type]
        sent: list[FakeSocket] = []
        stay, stay_ws = await connect(hub, live, None, sent)
        gone, _ = await connect(hub, live, None, sent, socket=GoneSocket)
        pumps = [asyncio.create_task(hub.pump(c)) for c in (stay, gone)]
        await asyncio.sleep(0)
        move(live, Rng.from_seed(9))
        hub.on_change(1, live.seq, False)
        await asyncio.wait_for(pumps[1], 5)  # the gone socket's pump returned
        for _ in range(100):
            if stay_ws.texts:
                break
            await asyncio.sleep(0)
        assert [jsontext.loads(t)["seq"] for t in stay_ws.texts] == [1]
        pumps[0].cancel()
        await asyncio.gather(*pumps, return_exceptions=True)

    with caplog.at_level(logging.WARNING, logger="meeplehall.server.live"):
        asyncio.run(scenario())
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_a_few_spectators_are_sent_to_at_once() -> None:
    async def scenario() -> None:
        live = new_live(1)
        hub = Hub(OneTable(live))  # type: ignore[arg-type]
        sent: list[FakeSocket] = []
        conns = [await connect(hub, live, None, sent) for _ in range(FANOUT_SLICE)]
        pumps = [asyncio.create_task(hub.pump(conn)) for conn, _ in conns]
        await asyncio.sleep(0)
        move(live, Rng.from_seed(2))
        hub.on_change(1, live.seq, False)
        await asyncio.sleep(0)
        assert len(sent) == FANOUT_SLICE
        for task in pumps:
            task.cancel()
        await asyncio.gather(*pumps, return_exceptions=True)

    asyncio.run(scenario())


def test_a_slow_spectator_holds_up_only_itself_and_catches_up_in_one_message() -> None:
    async def scenario() -> None:
        live = new_live(1)
        hub = Hub(OneTable(live))  # type: ignore[arg-type]
        sent: list[FakeSocket] = []
        gate = asyncio.Event()
        slow_conn, slow = await connect(hub, live, None, sent, gate)
        first_view = slow_conn.last_view
        crowd = [await connect(hub, live, None, sent) for _ in range(3 * FANOUT_SLICE)]
        pumps = [asyncio.create_task(hub.pump(conn)) for conn, _ in [(slow_conn, slow), *crowd]]
        await asyncio.sleep(0)
        rng = Rng.from_seed(3)
        for _ in range(5):
            move(live, rng)
            hub.on_change(1, live.seq, False)
            for _ in range(10):
                await asyncio.sleep(0)
        assert all(len(ws.texts) == 5 for _, ws in crowd)  # the others were not held up
        assert slow.texts == []
        gate.set()
        for _ in range(10):
            await asyncio.sleep(0)
        # the update it was sending when it stalled, then one to the newest view
        assert len(slow.texts) == 2
        messages = [jsontext.loads(t) for t in slow.texts]
        assert [m["seq"] for m in messages] == [1, 5]
        view = first_view
        for message in messages:
            view = apply_patch(view, message["patch"])
        assert jsontext.dumps_text(view) == jsontext.dumps_text(live.view(None))
        for task in pumps:
            task.cancel()
        await asyncio.gather(*pumps, return_exceptions=True)

    asyncio.run(scenario())


def test_after_missed_events_the_crowded_table_is_read_once() -> None:
    async def scenario() -> None:
        live = new_live(1)
        service = OneTable(live)
        hub = Hub(service)  # type: ignore[arg-type]
        sent: list[FakeSocket] = []
        crowd = [await connect(hub, live, None, sent) for _ in range(4 * FANOUT_SLICE)]
        pumps = [asyncio.create_task(hub.pump(conn)) for conn, _ in crowd]
        await asyncio.sleep(0)
        move(live, Rng.from_seed(4))
        hub._wake(1, None)  # as after a lost Redis subscription: the table may have moved
        for _ in range(10_000):
            if len(sent) == len(crowd):
                break
            await asyncio.sleep(0)
        assert len(sent) == len(crowd)
        assert service.reads == 1
        for task in pumps:
            task.cancel()
        await asyncio.gather(*pumps, return_exceptions=True)

    asyncio.run(scenario())


def test_a_chat_message_stored_while_a_sync_reads_the_tail_is_still_sent() -> None:
    """A socket registers, then its sync reads the chat's last messages; a message
    stored during that read reaches the socket once: in the tail or as its own frame."""
    async def scenario() -> None:
        live = new_live(1)
        hub = Hub(OneTable(live))  # type: ignore[arg-type]
        stored = [{"id": 1, "seat": 0, "name": "Ann", "text": "hi", "at": "x"}]
        late = {"id": 2, "seat": 1, "name": "Bob", "text": "sorry for the delay", "at": "y"}

        async def tail(table_id: int) -> list[dict[str, Any]]:
            snapshot = list(stored)
            stored.append(late)  # written by another request while this one reads
            hub.on_chat(table_id, late, False)
            hub.on_chat(table_id, stored[0], False)  # an older one due still: in the tail
            return snapshot

        hub.chat_tail = tail
        sent: list[FakeSocket] = []
        ws = FakeSocket(sent)
        conn = Connection(ws, live.table_id, 0, token_hash="hash0")  # type: ignore[arg-type]
        hub.register(conn)
        sync = await hub.sync_message(conn, live, None)
        assert [m["id"] for m in sync["chat"]] == [1]
        pump = asyncio.create_task(hub.pump(conn))
        conn.wake.set()
        for _ in range(100):
            await asyncio.sleep(0)
        pump.cancel()
        frames = [jsontext.loads(t) for t in ws.texts]
        assert [f["message"]["id"] for f in frames if f["type"] == "chat"] == [2]

    asyncio.run(scenario())
