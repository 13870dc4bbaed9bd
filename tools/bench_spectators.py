"""The crowded table's spectators for ``bench server``: a process of their own.

Run as ``python bench_spectators.py HOST PORT TABLE COUNT`` by the benchmark (standard
library only, so that it starts from a plain checkout; uvloop where installed). It opens
COUNT spectator WebSockets to table TABLE on raw sockets, sends each hello and reads its
sync, then prints ``ready``. The benchmark's own client, which plays the tables, does not
read these sockets: 1,500 of them read by a general-purpose WebSocket client cost that
process about a fifth of a core and delayed the moves it measures. Here a socket costs a
frame header's parsing per message: no JSON is decoded, only each message's ``"seq"``
is read from its first bytes. Each update's arrival is stamped with the machine's
monotonic clock (the one the benchmark stamps its moves with).

When a line ``stop SEQ`` comes in on stdin, it waits (up to ``--catch-up`` seconds)
until every spectator has received a message with seq SEQ or later (the crowded table's
last accepted move), then prints one JSON line: per spectator the updates received, the
newest seq and whether it is still open; the arrivals ``[[seq, time], ...]``; and how
long the catch-up took. A line ``ready`` or ``failed: REASON`` comes before that.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import re
import sys
import threading
import time
from typing import Any, cast

_SEQ = re.compile(rb'"seq":(\d+)')
_TYPE = re.compile(rb'"type":"(\w+)"')
_HEAD = 160  # bytes of a message searched for its type and seq (they come first)


def client_frame(opcode: int, payload: bytes) -> bytes:
    """One masked frame (a client's frames must be masked, RFC 6455 section 5.3)."""
    mask = os.urandom(4)
    length = len(payload)
    if length < 126:
        head = bytes([0x80 | opcode, 0x80 | length])
    elif length < 65536:
        head = bytes([0x80 | opcode, 0x80 | 126]) + length.to_bytes(2, "big")
    else:
        head = bytes([0x80 | opcode, 0x80 | 127]) + length.to_bytes(8, "big")
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return head + mask + body


class Spectator(asyncio.Protocol):
    """One spectator socket: the opening handshake, the hello, then frames read."""

    def __init__(self, host: str, port: int, table_id: int, crowd: Crowd) -> None:
        self.request = (f"GET /api/tables/{table_id}/ws HTTP/1.1\r\nHost: {host}:{port}\r\n"
                        "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: "
                        f"{base64.b64encode(os.urandom(16)).decode()}\r\n"
                        "Sec-WebSocket-Version: 13\r\n\r\n").encode()
        self.crowd = crowd
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.upgraded = False
        self.synced: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.fragments: list[bytes] = []
        self.updates = 0
        self.seq = -1
        self.open = True

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is no subclass
        self.transport.write(self.request)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.open and self.crowd.until is not None and self.seq < self.crowd.until:
            self.crowd.reached()
        self.open = False
        if not self.synced.done():
            self.synced.set_exception(ConnectionError("the server closed the socket"))

    def data_received(self, data: bytes) -> None:
        now = time.monotonic()
        self.buffer += data
        if not self.upgraded:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            status = bytes(self.buffer[:end]).split(b"\r\n", 1)[0]
            if b" 101 " not in status + b" ":
                self._fail(f"no upgrade: {status.decode(errors='replace')}")
                return
            del self.buffer[:end + 4]
            self.upgraded = True
            assert self.transport is not None
            self.transport.write(client_frame(0x1, b'{"token":null,"since":null}'))
        self._frames(now)

    def _frames(self, now: float) -> None:
        buffer = self.buffer
        while len(buffer) >= 2:
            first, second = buffer[0], buffer[1]
            if second & 0x80:
                self._fail("a masked frame from the server")
                return
            length, start = second & 0x7F, 2
            if length == 126:
                if len(buffer) < 4:
                    return
                length, start = int.from_bytes(buffer[2:4], "big"), 4
            elif length == 127:
                if len(buffer) < 10:
                    return
                length, start = int.from_bytes(buffer[2:10], "big"), 10
            if len(buffer) < start + length:
                return
            payload = bytes(buffer[start:start + length])
            del buffer[:start + length]
            opcode = first & 0x0F
            if opcode in (0x0, 0x1, 0x2):  # a data frame, maybe one of several
                self.fragments.append(payload)
                if first & 0x80:
                    message = b"".join(self.fragments)
                    self.fragments = []
                    self._message(message, now)
            elif opcode == 0x9:  # ping: answer it, or the server ends the socket
                assert self.transport is not None
                self.transport.write(client_frame(0xA, payload))
            elif opcode == 0x8:  # close: answer it
                assert self.transport is not None
                self.transport.write(client_frame(0x8, payload[:2]))
                self.transport.close()
                return

    def _message(self, message: bytes, now: float) -> None:
        head = message[:_HEAD]
        kind = _TYPE.search(head)
        seq = _SEQ.search(head)
        if kind is None or seq is None:
            return  # a "seats" or "pong" message: not asked for
        if not self.synced.done():
            if kind.group(1) != b"sync":
                self._fail(f"the first message is not a sync: {head!r}")
                return
            self.seq = int(seq.group(1))
            self.synced.set_result(None)
            return
        before, self.seq = self.seq, max(self.seq, int(seq.group(1)))
        self.updates += 1
        self.crowd.arrivals.append((self.seq, now))
        until = self.crowd.until
        if until is not None and before < until <= self.seq:
            self.crowd.reached()

    def _fail(self, reason: str) -> None:
        if not self.synced.done():
            self.synced.set_exception(ConnectionError(reason))
        if self.transport is not None:
            self.transport.close()


class Crowd:
    """All the spectators, and what they received."""

    def __init__(self) -> None:
        self.members: list[Spectator] = []
        self.arrivals: list[tuple[int, float]] = []
        self.until: int | None = None
        self.behind = 0  # open spectators that have not yet received seq ``until``
        self.done = asyncio.Event()

    def wait_for(self, seq: int) -> None:
        self.until = seq
        self.behind = sum(s.open and s.seq < seq for s in self.members)
        if not self.behind:
            self.done.set()

    def reached(self) -> None:
        """One more spectator has received seq ``until`` (or has gone)."""
        self.behind -= 1
        if self.behind <= 0:
            self.done.set()


async def _main(args: argparse.Namespace) -> int:
    loop = asyncio.get_running_loop()
    crowd = Crowd()
    gate = asyncio.Semaphore(args.concurrency)

    async def join() -> None:
        async with gate:
            _, spectator = await loop.create_connection(
                lambda: Spectator(args.host, args.port, args.table, crowd), args.host,
                args.port)
            crowd.members.append(spectator)
            await asyncio.wait_for(spectator.synced, 120)

    try:
        await asyncio.gather(*(join() for _ in range(args.count)))
    except (OSError, ConnectionError, TimeoutError) as exc:
        print(f"failed: {type(exc).__name__}: {exc}", flush=True)
        return 1
    print("ready", flush=True)
    lines: asyncio.Queue[str] = asyncio.Queue()

    def read_stdin() -> None:
        for line in sys.stdin:
            loop.call_soon_threadsafe(lines.put_nowait, line)
        loop.call_soon_threadsafe(lines.put_nowait, "")

    threading.Thread(target=read_stdin, daemon=True).start()
    command = await lines.get()
    asked = time.monotonic()
    if command.startswith("stop "):
        crowd.wait_for(int(command.split()[1]))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(crowd.done.wait(), args.catch_up)
    result: dict[str, Any] = {
        "updates": [s.updates for s in crowd.members],
        "seqs": [s.seq for s in crowd.members],
        "open": [s.open for s in crowd.members],
        "arrivals": crowd.arrivals,
        "catch_up": time.monotonic() - asked,
    }
    print(json.dumps(result, separators=(",", ":")), flush=True)
    for spectator in crowd.members:
        if spectator.transport is not None:
            spectator.transport.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("table", type=int)
    parser.add_argument("count", type=int)
    parser.add_argument("--concurrency", type=int, default=32,
                        help="sockets opened at a time (default 32)")
    parser.add_argument("--catch-up", type=float, default=5.0,
                        help="seconds to wait for the last move to reach every spectator")
    args = parser.parse_args(argv)
    try:
        import uvloop
    except ImportError:
        return asyncio.run(_main(args))
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(_main(args))


if __name__ == "__main__":
    sys.exit(main())
