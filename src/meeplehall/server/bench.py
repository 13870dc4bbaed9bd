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


async def _seat(client: httpx.AsyncClient, base: str, table_id: int, seat: int, token: str,
                stats: Stats, stop_at: float, rng: Rng) -> None:
    ws_url = base.replace("http://", "ws://") + f"/api/tables/{table_id}/ws"
    headers = {"Authorization": f"Bearer {token}"}
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
                reply = await client.post(f"{base}/api/tables/{table_id}/actions",
                                          json={"action": action, "seq": msg["seq"]},
                                          headers=headers)
                elapsed = time.perf_counter() - start
                moved_at = msg["seq"]
                if reply.status_code == 200:
                    stats.accepted += 1
                    stats.latencies.append(elapsed)
                elif reply.status_code == 409:
                    stats.conflicts += 1
                else:
                    stats.errors += 1


async def _open_table(client: httpx.AsyncClient, base: str, game: str,
                      rng: Rng) -> tuple[int, list[str]]:
    made = await client.post(f"{base}/api/tables", json={
        "game": game, "options": {"players": 2}, "seed": rng.randbelow(2**62),
        "seats": ["human", "human"]})
    table_id: int = made.json()["id"]
    tokens = [(await client.post(f"{base}/api/tables/{table_id}/seats/{s}/join"))
              .json()["token"] for s in (0, 1)]
    return table_id, tokens


async def _table_loop(client: httpx.AsyncClient, base: str, game: str, rng: Rng,
                      first: tuple[int, list[str]], stats: Stats, start: asyncio.Event,
                      stop_at: list[float]) -> None:
    table = first
    await start.wait()
    while time.monotonic() < stop_at[0]:
        try:
            if table is None:  # the previous game ended: open the next one
                table = await _open_table(client, base, game, rng)
            table_id, tokens = table
            await asyncio.gather(*(_seat(client, base, table_id, s, tokens[s], stats,
                                         stop_at[0], rng.spawn()) for s in (0, 1)))
            stats.games += 1
        except (httpx.HTTPError, OSError, websockets.exceptions.WebSocketException):
            stats.errors += 1
            await asyncio.sleep(0.1)
        table = None


async def _measure(base: str, tables: int, seconds: float, game: str) -> tuple[Stats, float]:
    """Open ``tables`` tables first (not timed), then play them for ``seconds``."""
    stats = Stats()
    # Each table holds two WebSockets; keep HTTP connections few so file descriptors last.
    limits = httpx.Limits(max_connections=min(4 * tables + 10, 128),
                          max_keepalive_connections=min(4 * tables + 10, 128))
    async with httpx.AsyncClient(limits=limits, timeout=120) as client:
        rngs = [Rng.from_seed(i) for i in range(tables)]
        opened = await asyncio.gather(*(_open_table(client, base, game, r) for r in rngs))
        start, stop_at = asyncio.Event(), [0.0]
        runners = [asyncio.ensure_future(_table_loop(client, base, game, r, t, stats, start,
                                                     stop_at))
                   for r, t in zip(rngs, opened, strict=True)]
        began = time.monotonic()
        stop_at[0] = began + seconds
        start.set()
        await asyncio.gather(*runners)
        return stats, max(seconds, time.monotonic() - began)


def bench_one(label: str, db_url: str, tables: int, seconds: float, game: str) -> Stats:
    with server_process(db_url, free_port()) as base:
        stats, elapsed = asyncio.run(_measure(base, tables, seconds, game))
    rate = stats.accepted / elapsed if elapsed else 0.0
    print(f"{label:<11} {stats.accepted} moves accepted in {elapsed:.1f} s: {rate:.0f} moves/s; "
          f"latency p50 {percentile(stats.latencies, 0.5) * 1000:.1f} ms, "
          f"p99 {percentile(stats.latencies, 0.99) * 1000:.1f} ms "
          f"(409s {stats.conflicts}, other errors {stats.errors}, "
          f"tables played {stats.games})", flush=True)
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
