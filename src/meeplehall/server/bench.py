"""``bench server``: the game server on loopback under K concurrent tables.

For each database, a server process is started; the benchmark opens ``tables`` tables
whose two seats are played by random bots through the public API only: each seat holds a
WebSocket for updates (which carry its legal actions on its turn) and submits moves over
HTTP. It prints accepted moves per second and the latency from submission to
acknowledgement (p50, p99). A finished table is replaced by a new one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from meeplehall.core.rng import Rng
from meeplehall.server.services import find_postgres, free_port, temp_postgres


@dataclass
class Stats:
    accepted: int = 0
    conflicts: int = 0
    errors: int = 0
    latencies: list[float] = field(default_factory=list)
    games: int = 0
    client_cpu: float | None = None
    server_cpu: float | None = None


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@contextlib.contextmanager
def server_process(db_url: str, port: int, *extra: str,
                   procs: list[subprocess.Popen[bytes]] | None = None) -> Iterator[str]:
    """Run ``python -m meeplehall.server serve`` and wait until it answers; yields its
    base URL. The process is appended to ``procs`` when given (tests kill it)."""
    errors = tempfile.TemporaryFile()  # noqa: SIM115 - closed in the finally below
    proc = subprocess.Popen(
        [sys.executable, "-m", "meeplehall.server", "serve", "--db", db_url, "--port",
         str(port), "--move-rate", "0", "--quiet", *extra],
        stdout=subprocess.DEVNULL, stderr=errors)
    if procs is not None:
        procs.append(proc)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            if proc.poll() is not None or time.monotonic() > deadline:
                errors.seek(0)
                err = errors.read().decode(errors="replace")
                raise RuntimeError(f"the server did not start: {err[-2000:]}")
            time.sleep(0.1)
        yield base
    finally:
        if proc.poll() is None:
            proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
        if os.environ.get("MEEPLEHALL_SERVER_STDERR"):
            errors.seek(0)
            with Path(os.environ["MEEPLEHALL_SERVER_STDERR"]).open("ab") as sink:
                sink.write(errors.read())
        errors.close()


class HttpConnection:
    """A minimal HTTP/1.1 keep-alive client: one connection, one request at a time.

    The benchmark runs on the same cores as the server, so its client must cost little
    per request (a general-purpose client costs several times what this does, which
    would measure the client rather than the server)."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self._lock = asyncio.Lock()
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: Any = None,
                      token: str | None = None) -> tuple[int, Any]:
        """Send one request; returns the status and the decoded JSON body (or None)."""
        payload = b"" if body is None else json.dumps(body).encode()
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n")
        if token is not None:
            head += f"Authorization: Bearer {token}\r\n"
        async with self._lock:
            if self._writer is None:
                self._reader, self._writer = await asyncio.open_connection(self.host,
                                                                           self.port)
            assert self._reader is not None
            try:
                self._writer.write(head.encode() + b"\r\n" + payload)
                status_line = await self._reader.readline()
                if not status_line:
                    raise ConnectionError("the server closed the connection")
                status = int(status_line.split()[1])
                length, close = 0, False
                while True:
                    line = await self._reader.readline()
                    if line in (b"\r\n", b""):
                        break
                    name, _, value = line.partition(b":")
                    name = name.strip().lower()
                    if name == b"content-length":
                        length = int(value)
                    elif name == b"connection" and value.strip().lower() == b"close":
                        close = True
                data = await self._reader.readexactly(length) if length else b""
            except BaseException:
                self.close()
                raise
            if close:
                self.close()
        return status, json.loads(data) if data else None

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None


async def _seat(http: HttpConnection, ws_url: str, table_id: int, seat: int, token: str,
                stats: Stats, stop_at: float, rng: Rng) -> None:
    moved_at = -1
    async with websockets.connect(ws_url, max_size=None, compression=None) as ws:
        await ws.send(json.dumps({"token": token, "since": None}))
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.1, stop_at - time.monotonic()))
            except TimeoutError:
                return
            msg = json.loads(raw)
            if msg["type"] == "error" or msg["finished"] or time.monotonic() > stop_at:
                return
            if msg.get("your_turn") and msg["seq"] > moved_at:
                legal = msg["legal"]
                action = legal[rng.randbelow(len(legal))]["text"]
                start = time.perf_counter()
                status, _ = await http.request(
                    "POST", f"/api/tables/{table_id}/actions",
                    {"action": action, "seq": msg["seq"]}, token)
                elapsed = time.perf_counter() - start
                moved_at = msg["seq"]
                if status == 200:
                    stats.accepted += 1
                    stats.latencies.append(elapsed)
                elif status == 409:
                    stats.conflicts += 1
                else:
                    stats.errors += 1


async def _open_table(http: HttpConnection, game: str, rng: Rng) -> tuple[int, list[str]]:
    status, made = await http.request("POST", "/api/tables", {
        "game": game, "options": {"players": 2}, "seed": rng.randbelow(2**62),
        "seats": ["human", "human"]})
    if status != 201:
        raise ConnectionError(f"cannot open a table: {status} {made}")
    table_id: int = made["id"]
    tokens = [(await http.request("POST", f"/api/tables/{table_id}/seats/{s}/join"))[1]
              ["token"] for s in (0, 1)]
    return table_id, tokens


async def _table_loop(http: HttpConnection, ws_base: str, game: str, rng: Rng,
                      first: tuple[int, list[str]], stats: Stats, start: asyncio.Event,
                      stop_at: list[float]) -> None:
    table: tuple[int, list[str]] | None = first
    await start.wait()
    while time.monotonic() < stop_at[0]:
        try:
            if table is None:  # the previous game ended: open the next one
                table = await _open_table(http, game, rng)
            table_id, tokens = table
            ws_url = f"{ws_base}/api/tables/{table_id}/ws"
            await asyncio.gather(*(_seat(http, ws_url, table_id, s, tokens[s], stats,
                                         stop_at[0], rng.spawn()) for s in (0, 1)))
            stats.games += 1
        except (OSError, ValueError, KeyError, asyncio.IncompleteReadError,
                websockets.exceptions.WebSocketException):
            stats.errors += 1
            await asyncio.sleep(0.1)
        table = None


def process_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) used so far by process ``pid``; None where unknown."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


async def _measure(base: str, tables: int, seconds: float, game: str,
                   server_pid: int | None = None) -> tuple[Stats, float]:
    """Open ``tables`` tables first (not timed), then play them for ``seconds``."""
    stats = Stats()
    host, port = base.removeprefix("http://").rsplit(":", 1)
    ws_base = base.replace("http://", "ws://")
    # One keep-alive connection per table (its seats take turns), two WebSockets.
    conns = [HttpConnection(host, int(port)) for _ in range(tables)]
    try:
        rngs = [Rng.from_seed(i) for i in range(tables)]
        opened = await asyncio.gather(*(_open_table(c, game, r)
                                        for c, r in zip(conns, rngs, strict=True)))
        start, stop_at = asyncio.Event(), [0.0]
        runners = [asyncio.ensure_future(_table_loop(c, ws_base, game, r, t, stats, start,
                                                     stop_at))
                   for c, r, t in zip(conns, rngs, opened, strict=True)]
        began = time.monotonic()
        client_cpu = time.process_time()
        server_cpu = None if server_pid is None else process_cpu(server_pid)
        stop_at[0] = began + seconds
        start.set()
        await asyncio.gather(*runners)
        elapsed = max(seconds, time.monotonic() - began)
        stats.client_cpu = time.process_time() - client_cpu
        after = None if server_pid is None else process_cpu(server_pid)
        if server_cpu is not None and after is not None:
            stats.server_cpu = after - server_cpu
        return stats, elapsed
    finally:
        for conn in conns:
            conn.close()


def bench_one(label: str, db_url: str, tables: int, seconds: float, game: str) -> Stats:
    procs: list[subprocess.Popen[bytes]] = []
    with server_process(db_url, free_port(), procs=procs) as base:
        stats, elapsed = asyncio.run(_measure(base, tables, seconds, game, procs[0].pid))
    rate = stats.accepted / elapsed if elapsed else 0.0
    cpu = ", ".join(f"{who} CPU {secs / elapsed:.0%}" for who, secs in
                    (("server", stats.server_cpu), ("client", stats.client_cpu))
                    if secs is not None)
    print(f"{label:<11} {stats.accepted} moves accepted in {elapsed:.1f} s: {rate:.0f} moves/s; "
          f"latency p50 {percentile(stats.latencies, 0.5) * 1000:.1f} ms, "
          f"p99 {percentile(stats.latencies, 0.99) * 1000:.1f} ms "
          f"(409s {stats.conflicts}, other errors {stats.errors}, "
          f"tables played {stats.games}; {cpu} of one core)", flush=True)
    return stats


def run(tables: int, seconds: float, databases: list[str], pg_url: str | None,
        game: str) -> int:
    print(f"bench server: {tables} concurrent tables of {game}, random bots through HTTP "
          f"(moves) and WebSocket (updates), {seconds:g} s per database, {os.cpu_count()} "
          "CPU(s)", flush=True)
    for db in dict.fromkeys(databases):
        if db == "sqlite":
            with tempfile.TemporaryDirectory() as tmp:
                bench_one("sqlite", f"sqlite:///{Path(tmp) / 'bench.db'}", tables, seconds,
                          game)
        elif pg_url is not None:
            bench_one("postgresql", pg_url, tables, seconds, game)
        elif find_postgres() is None:
            print("postgresql  skipped: PostgreSQL is not installed (give --pg-url)")
        else:
            with temp_postgres(durable=True) as pg:
                bench_one("postgresql", pg.create_database("bench"), tables, seconds, game)
    return 0
