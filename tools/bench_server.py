"""``bench server``: the game server on loopback under K concurrent tables.

For each database, a server process is started; the benchmark opens ``tables`` tables
whose two seats are played by random bots through the public API only: each seat holds a
WebSocket for updates (which carry its legal actions on its turn) and submits moves over
HTTP. It prints accepted moves per second and the latency to acknowledgement (p50, p99),
and the CPU shares of server and client. A finished table is replaced by a new one.

Unpaced (``rate`` 0) every seat moves as soon as it learns it may: this measures
saturation throughput, and by Little's law its latency is just tables / throughput.
Paced, the tables together offer ``rate`` moves per second, arriving open-loop (Poisson
or evenly spaced per table) like players who think; the latency of a move counts from
when it was due, not from when it could be sent, so queueing is not hidden (no
coordinated omission).

With ``spectators`` S, one more table is opened and S spectator WebSockets watch it (a
crowded table): its own moves, paced at ``crowded_rate``, and the delivery of its
updates to the spectators are reported on a line of their own, so the main line shows
what the crowd costs the other tables. The spectators are read by a process of their own
(``tools/bench_spectators.py``, raw sockets that read each frame's header and the
message's seq only), so that reading them neither slows the client that plays the
tables nor costs much CPU beside the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from meeplehall.core.rng import SEED_BOUND, Rng
from meeplehall.server import jsontext
from meeplehall.server.cli import tune_gc, tune_switching
from meeplehall.server.limits import KINDS
from tools import bench_hostile
from tools.bench_hostile import Hostile
from tools.services import (
    find_postgres,
    find_redis,
    free_port,
    temp_postgres,
    temp_redis,
)


@dataclass
class Stats:
    accepted: int = 0
    late: int = 0  # accepted after the measuring window closed (not in moves/s)
    conflicts: int = 0
    errors: int = 0
    latencies: list[float] = field(default_factory=list)  # from when the move was due
    service: list[float] = field(default_factory=list)  # from when it was sent
    games: int = 0
    client_cpu: float | None = None
    window: float | None = None  # the measuring window, seconds
    server_cpu: float | None = None
    server_system: float | None = None  # the part of server_cpu spent in the kernel
    # When each move was sent, by the seq it made (read for the crowded table only), and
    # how long after that each spectator received the update that carried it.
    sent_at: dict[int, float] = field(default_factory=dict)
    delivery: list[float] = field(default_factory=list)
    delivered: int = 0  # update messages the spectators received
    last_seq: int = -1  # the seq made by the newest accepted move
    # Per spectator: the updates it received, and whether it received seq last_seq;
    # the CPU seconds of the process that read them (over the measuring window), and
    # how long after the window the last move took to reach them all.
    per_spectator: list[int] = field(default_factory=list)
    caught_up: int = 0
    reader_cpu: float | None = None
    catch_up: float | None = None


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# Benchmarks and tests drive many tables from one address on loopback.
_NO_LIMITS = [*(arg for kind in KINDS for arg in ("--limit", f"{kind}=0")),
              "--sockets-per-seat", "0", "--bot-tables-per-client", "0"]


@contextlib.contextmanager
def server_process(db_url: str, port: int, *extra: str,
                   procs: list[subprocess.Popen[bytes]] | None = None,
                   limited: bool = False) -> Iterator[str]:
    """Run ``python -m meeplehall.server serve`` and wait until it answers; yields its
    base URL. The process is appended to ``procs`` when given (tests kill it). Every
    limit is off unless ``limited`` (then the defaults hold, the move rate too)."""
    errors = tempfile.TemporaryFile()  # noqa: SIM115 - closed in the finally below
    proc = subprocess.Popen(
        [sys.executable, "-m", "meeplehall.server", "serve", "--db", db_url, "--port",
         str(port), "--quiet", *(() if limited else ("--move-rate", "0", *_NO_LIMITS)),
         *extra],
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

    def __init__(self, host: str, port: int, forwarded: str | None = None) -> None:
        self.host = host
        self.port = port
        self.forwarded = forwarded  # the client address to name in X-Forwarded-For
        self._lock = asyncio.Lock()
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: Any = None,
                      token: str | None = None) -> tuple[int, Any]:
        """Send one request; returns the status and the decoded JSON body (or None)."""
        payload = b"" if body is None else jsontext.dumps_bytes(body)
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n")
        if token is not None:
            head += f"Authorization: Bearer {token}\r\n"
        if self.forwarded is not None:
            head += f"X-Forwarded-For: {self.forwarded}\r\n"
        async with self._lock:
            for attempt in (0, 1):
                reused = self._writer is not None
                if self._writer is None:
                    self._reader, self._writer = await asyncio.open_connection(self.host,
                                                                               self.port)
                assert self._reader is not None and self._writer is not None
                try:
                    self._writer.write(head.encode() + b"\r\n" + payload)
                    status_line = await self._reader.readline()
                    if not status_line:
                        # An idle keep-alive connection the server has closed: it read
                        # nothing, so send the request again on a new one (once).
                        self.close()
                        if reused and attempt == 0:
                            continue
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
                except ConnectionResetError:
                    self.close()
                    if reused and attempt == 0:
                        continue
                    raise
                except BaseException:
                    self.close()
                    raise
                if close:
                    self.close()
                break
        return status, jsontext.loads(data) if data else None

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None


class Pacer:
    """When a table's next move is due: open-loop arrivals, ``rate`` moves/s per table.

    The schedule does not wait for the server: a move that could not be sent when it was
    due (the previous acknowledgement or update came late) is sent as soon as it can, and
    its latency still counts from when it was due, so queueing in the server shows in the
    figures instead of slowing the schedule down (no coordinated omission). With
    ``rate <= 0`` every move is due as soon as the seat learns it is its turn (unpaced:
    saturation throughput)."""

    def __init__(self, rate: float, poisson: bool, rng: Rng, start: float) -> None:
        self.rate = rate
        self.poisson = poisson
        self.rng = rng
        if rate <= 0:
            self.due = start
        elif poisson:
            self.due = start + self._gap()
        else:  # evenly spaced, each table at its own phase
            self.due = start + self._uniform() / rate

    def _uniform(self) -> float:
        return (self.rng.randbelow(1 << 30) + 0.5) / (1 << 30)

    def _gap(self) -> float:
        if self.rate <= 0:
            return 0.0
        if self.poisson:
            return -math.log(self._uniform()) / self.rate
        return 1.0 / self.rate

    def next_due(self, ready: float) -> float:
        """The due time of the next move, for a seat ready to send it at ``ready``."""
        return ready if self.rate <= 0 else self.due

    def advance(self) -> None:
        self.due += self._gap()

    def restart(self, now: float) -> None:
        """A new game at this table slot (opening it is not a move): go on from now."""
        self.due = max(self.due, now)


async def _connect(ws_url: str, token: str | None,
                   forwarded: str | None = None) -> tuple[Any, dict[str, Any]]:
    """A seat's (or with no token a spectator's) WebSocket, after the hello, with the
    first (sync) message."""
    ws = await websockets.connect(ws_url, max_size=None, compression=None,
                                  open_timeout=120, additional_headers=None if forwarded
                                  is None else {"X-Forwarded-For": forwarded})
    try:
        await ws.send(jsontext.dumps_text({"token": token, "since": None}))
        return ws, jsontext.loads(await ws.recv())
    except BaseException:
        await ws.close()
        raise


async def _seat(http: HttpConnection, ws: Any, first: dict[str, Any], table_id: int,
                token: str, stats: Stats, stop_at: float, rng: Rng, pacer: Pacer) -> None:
    moved_at = -1
    msg = first
    async with ws:
        while True:
            if msg["type"] == "error" or msg["finished"]:
                return
            if msg.get("your_turn") and msg["seq"] > moved_at:
                legal = msg["legal"]
                action = legal[rng.randbelow(len(legal))]["text"]
                due = pacer.next_due(time.monotonic())
                if due >= stop_at:
                    return
                wait = due - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                sent = time.monotonic()
                stats.sent_at[msg["seq"] + 1] = sent  # the seq this move makes
                status, _ = await http.request(
                    "POST", f"/api/tables/{table_id}/actions",
                    {"action": action, "seq": msg["seq"]}, token)
                done = time.monotonic()
                pacer.advance()
                moved_at = msg["seq"]
                if status == 200:
                    stats.accepted += 1
                    stats.last_seq = max(stats.last_seq, msg["seq"] + 1)
                    stats.late += done > stop_at
                    stats.latencies.append(done - due)
                    stats.service.append(done - sent)
                elif status == 409:
                    stats.conflicts += 1
                else:
                    stats.errors += 1
            elif time.monotonic() > stop_at:
                return
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.1, stop_at - time.monotonic()))
            except TimeoutError:
                return
            msg = jsontext.loads(raw)


Seated = tuple[int, list[str], list[tuple[Any, dict[str, Any]]]]


async def _open_table(http: HttpConnection, ws_base: str, game: str, rng: Rng) -> Seated:
    """A new table with both seats joined and their WebSockets open and synced."""
    status, made = await http.request("POST", "/api/tables", {
        "game": game, "options": {"players": 2}, "seed": rng.randbelow(SEED_BOUND),
        "seats": ["human", "human"]})
    if status != 201:
        raise ConnectionError(f"cannot open a table: {status} {made}")
    table_id: int = made["id"]
    tokens = [(await http.request("POST", f"/api/tables/{table_id}/seats/{s}/join"))[1]
              ["token"] for s in (0, 1)]
    ws_url = f"{ws_base}/api/tables/{table_id}/ws"
    sockets = [await _connect(ws_url, token, http.forwarded) for token in tokens]
    return table_id, tokens, sockets


class SpectatorReader:
    """The crowded table's spectators, opened and read by a process of their own
    (``tools/bench_spectators.py``)."""

    SCRIPT = Path(__file__).with_name("bench_spectators.py")

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    @classmethod
    async def open(cls, base: str, table_id: int, count: int) -> SpectatorReader:
        """Start the process; returns once every spectator has its sync message."""
        host, port = _host_port(base)
        proc = await asyncio.create_subprocess_exec(
            sys.executable, str(cls.SCRIPT), host, str(port), str(table_id), str(count),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            limit=1 << 30)
        reader = cls(proc)
        assert proc.stdout is not None
        line = (await proc.stdout.readline()).decode().strip()
        if line != "ready":
            await reader.close()
            raise RuntimeError(f"the spectators could not connect: {line or 'no answer'}")
        return reader

    def cpu(self) -> float | None:
        return process_cpu(self.proc.pid)

    async def results(self, last_seq: int, crowd: Stats) -> None:
        """Wait for seq ``last_seq`` to reach every spectator (a few seconds at most),
        and put what they received into ``crowd``."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"stop {last_seq}\n".encode())
        await self.proc.stdin.drain()
        line = await self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the spectators' reader ended early")
        data = jsontext.loads(line)
        crowd.per_spectator = data["updates"]
        crowd.caught_up = sum(seq >= last_seq for seq in data["seqs"])
        crowd.catch_up = data["catch_up"]
        crowd.delivered = len(data["arrivals"])
        for seq, arrived in data["arrivals"]:
            sent = crowd.sent_at.get(seq)
            if sent is not None:
                crowd.delivery.append(arrived - sent)

    async def close(self) -> None:
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
        await self.proc.wait()


async def _table_loop(http: HttpConnection, ws_base: str, game: str, rng: Rng,
                      first: Seated, stats: Stats, start: asyncio.Event,
                      window: list[float], rate: float, poisson: bool,
                      once: bool = False) -> None:
    table: Seated | None = first
    await start.wait()
    began, stop_at = window
    pacer = Pacer(rate, poisson, rng.spawn(), began)
    while time.monotonic() < stop_at:
        try:
            if table is None:  # the previous game ended: open the next one
                table = await _open_table(http, ws_base, game, rng)
                pacer.restart(time.monotonic())
            table_id, tokens, sockets = table
            table = None
            await asyncio.gather(*(_seat(http, ws, hello, table_id, tokens[s], stats,
                                         stop_at, rng.spawn(), pacer)
                                   for s, (ws, hello) in enumerate(sockets)))
            stats.games += 1
            if once:
                return
        except (OSError, ValueError, KeyError, asyncio.IncompleteReadError,
                websockets.exceptions.WebSocketException):
            stats.errors += 1
            await asyncio.sleep(0.1)


def process_cpu(pid: int, system: bool = False) -> float | None:
    """CPU seconds (user + system; with ``system``, system only) used so far by process
    ``pid``; None where unknown."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = int(fields[12]) + (0 if system else int(fields[11]))
        return ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _cpu_of(pids: list[int], system: bool = False) -> float | None:
    """CPU seconds used so far by all of ``pids`` (with ``system``, in the kernel);
    None where any is unknown."""
    used = [process_cpu(pid, system) for pid in pids]
    return None if not used or None in used else sum(u for u in used if u is not None)


async def _measure(base: str | Sequence[str], tables: int, seconds: float, game: str,
                   server_pid: int | Sequence[int] | None = None, rate: float = 0.0,
                   poisson: bool = True, on_start: Callable[[], None] | None = None,
                   spectators: int = 0, crowded_rate: float = 2.0,
                   crowd: Stats | None = None, hostile: Hostile | None = None,
                   hostile_bot: str = "greedy") -> tuple[Stats, float]:
    """Open ``tables`` tables first (not timed), then play them for ``seconds``, at
    ``rate`` moves/s in all (0: unpaced). With several servers (``base`` a list), table
    ``i`` is opened and played on server ``i % len(base)``; ``server_pid`` lists their
    processes, whose CPU is added up. With ``spectators``, one more table on the first
    server is watched by that many spectator sockets and played at ``crowded_rate``
    moves/s; its figures go to ``crowd``. With ``hostile``, each table is played from an
    address of its own (X-Forwarded-For) and the hostile neighbour
    (``tools.bench_hostile``) runs beside them through the window."""
    stats = Stats()
    bases = [base] if isinstance(base, str) else list(base)
    pids = [] if server_pid is None else [server_pid] if isinstance(server_pid, int) \
        else list(server_pid)
    # One keep-alive connection per table (its seats take turns), two WebSockets.
    conns, ws_bases = [], []
    for i in range(tables):
        host, port = bases[i % len(bases)].removeprefix("http://").rsplit(":", 1)
        conns.append(HttpConnection(host, int(port), None if hostile is None
                                    else f"10.{i // 250}.{i % 250}.1"))
        ws_bases.append(bases[i % len(bases)].replace("http://", "ws://"))
    crowd = Stats() if crowd is None else crowd
    crowd_conn = HttpConnection(*_host_port(bases[0]))
    reader: SpectatorReader | None = None
    try:
        crowded: Seated | None = None
        if spectators > 0:
            crowded = await _open_table(crowd_conn, bases[0].replace("http://", "ws://"),
                                        game, Rng.from_seed(-1))
            reader = await SpectatorReader.open(bases[0], crowded[0], spectators)
        rngs = [Rng.from_seed(i) for i in range(tables)]
        gate = asyncio.Semaphore(16)  # a few at a time: setup is not what is measured

        async def opening(conn: HttpConnection, ws_base: str, rng: Rng) -> Seated:
            async with gate:
                return await _open_table(conn, ws_base, game, rng)

        opened = await asyncio.gather(*(opening(c, w, r) for c, w, r in zip(
            conns, ws_bases, rngs, strict=True)))
        start, window = asyncio.Event(), [0.0, 0.0]
        long_tables = [] if hostile is None else await bench_hostile.setup(
            lambda address: HttpConnection(*_host_port(bases[0]), address),
            bases[0].replace("http://", "ws://"))
        per_table = rate / tables if rate > 0 else 0.0
        runners = [asyncio.ensure_future(_table_loop(c, w, game, r, t, stats, start,
                                                     window, per_table, poisson))
                   for c, w, r, t in zip(conns, ws_bases, rngs, opened, strict=True)]
        if hostile is not None:
            async def neighbour() -> None:
                await start.wait()
                await bench_hostile.run(
                    lambda address: HttpConnection(*_host_port(bases[0]), address),
                    bases[0].replace("http://", "ws://"), long_tables, window[1], hostile,
                    hostile_bot)

            runners.append(asyncio.ensure_future(neighbour()))
        if crowded is not None:
            runners.append(asyncio.ensure_future(_table_loop(
                crowd_conn, bases[0].replace("http://", "ws://"), game, Rng.from_seed(-2),
                crowded, crowd, start, window, crowded_rate, poisson, once=True)))
        await asyncio.sleep(0)  # every runner now waits on start
        if on_start is not None:
            on_start()
        began = time.monotonic()
        client_cpu = time.process_time()
        server_cpu = _cpu_of(pids)
        server_system = _cpu_of(pids, system=True)
        reader_cpu = None if reader is None else reader.cpu()
        window[:] = [began, began + seconds]
        stats.window = seconds
        start.set()
        await asyncio.gather(*runners)
        elapsed = time.monotonic() - began
        stats.client_cpu = time.process_time() - client_cpu
        after = _cpu_of(pids)
        if server_cpu is not None and after is not None:
            stats.server_cpu = after - server_cpu
        after = _cpu_of(pids, system=True)
        if server_system is not None and after is not None:
            stats.server_system = after - server_system
        if reader is not None:
            crowd.window = elapsed
            reader_after = reader.cpu()
            if reader_cpu is not None and reader_after is not None:
                crowd.reader_cpu = reader_after - reader_cpu
            await reader.results(crowd.last_seq, crowd)
        return stats, elapsed
    finally:
        if reader is not None:
            await reader.close()
        crowd_conn.close()
        for conn in conns:
            conn.close()


def _host_port(base: str) -> tuple[str, int]:
    host, port = base.removeprefix("http://").rsplit(":", 1)
    return host, int(port)


def bench_one(label: str, db_url: str, tables: int, seconds: float, game: str,
              rate: float = 0.0, poisson: bool = True, processes: int = 1,
              redis_url: str | None = None, spectators: int = 0,
              crowded_rate: float = 2.0, hostile: bool = False,
              hostile_bot: str = "greedy") -> Stats:
    """Run the servers (``processes`` of them, sharing live updates through
    ``redis_url``), measure, print one line (two with spectators)."""
    procs: list[subprocess.Popen[bytes]] = []
    extra: tuple[str, ...] = ("--redis", redis_url) if redis_url else ()
    if spectators:  # all from one address: the limits must let them in
        extra += ("--spectators", str(spectators), "--spectators-per-client",
                  str(spectators))
    crowd = Stats()
    with contextlib.ExitStack() as stack:
        bases = [stack.enter_context(server_process(db_url, free_port(), *extra, procs=procs,
                                                    limited=hostile))
                 for _ in range(processes)]
        neighbour = Hostile() if hostile else None
        with asyncio.Runner(loop_factory=_loop_factory()) as runner:
            stats, elapsed = runner.run(_measure(
                bases, tables, seconds, game, [p.pid for p in procs], rate, poisson,
                spectators=spectators, crowded_rate=crowded_rate, crowd=crowd,
                hostile=neighbour, hostile_bot=hostile_bot))
    if processes > 1:
        label = f"{label} x{processes}"
    print(f"{label:<11} {report(stats, elapsed)}", flush=True)
    if spectators:
        print(f"{'':<11} {crowd_report(crowd, spectators)}", flush=True)
    if neighbour is not None:
        print(f"{'':<11} {tail_report(stats)}", flush=True)
        print(f"{'':<11} {neighbour.report()}", flush=True)
    return stats


def tail_report(stats: Stats) -> str:
    """The other tables' latency beside the hostile neighbour, and the load average."""
    def ms(q: float) -> str:
        return f"{percentile(stats.latencies, q) * 1000:.1f}"

    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"the other tables beside the hostile neighbour: p50 {ms(0.5)} ms, p95 "
            f"{ms(0.95)} ms, p99 {ms(0.99)} ms; load average {load}")


def _loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop for the client too where installed: it shares the cores with the server."""
    try:
        import uvloop
    except ImportError:
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def report(stats: Stats, elapsed: float) -> str:
    """One line: throughput, latencies (ms), errors, CPU shares and the load average.

    ``elapsed``: the measuring window plus the time the moves in flight at its end took
    (CPU shares are over it); moves/s counts the moves acknowledged within the window."""
    window = elapsed if stats.window is None else stats.window
    rate = (stats.accepted - stats.late) / window if window else 0.0
    # CPU per move does not depend on what else the machine runs, unlike throughput.
    per_move = max(1, stats.accepted)
    kernel = "" if stats.server_system is None else (
        f" ({stats.server_system * 1000 / per_move:.2f} of them in the kernel)")
    cpu = ", ".join(f"{who} CPU {secs / elapsed:.0%} of one core, "
                    f"{secs * 1000 / per_move:.2f} ms/move{more}"
                    for who, secs, more in (("server", stats.server_cpu, kernel),
                                            ("client", stats.client_cpu, ""))
                    if secs is not None)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())

    def ms(values: list[float], q: float) -> str:
        return f"{percentile(values, q) * 1000:.1f}"

    return (f"{stats.accepted - stats.late} moves accepted in {window:.1f} s: {rate:.0f} moves/s; "
            f"latency p50 {ms(stats.latencies, 0.5)} ms, p99 {ms(stats.latencies, 0.99)} ms "
            f"(from sending: p50 {ms(stats.service, 0.5)}, p99 {ms(stats.service, 0.99)}; "
            f"409s {stats.conflicts}, other errors {stats.errors}; {cpu}; "
            f"load average {load})")


def crowd_report(crowd: Stats, spectators: int) -> str:
    """The crowded table's line: its own moves, and the delivery to its spectators."""

    def ms(values: list[float], q: float) -> str:
        return f"{percentile(values, q) * 1000:.1f}"

    each = sorted(crowd.per_spectator) or [0]
    reader = "" if crowd.reader_cpu is None or crowd.window is None else (
        f"; the spectators' reader used {crowd.reader_cpu / crowd.window:.0%} of one core")
    return (f"crowded table, {spectators} spectators: {crowd.accepted} moves, latency "
            f"p50 {ms(crowd.latencies, 0.5)} ms, p99 {ms(crowd.latencies, 0.99)} ms; "
            f"{crowd.delivered} updates to spectators (per spectator min {each[0]}, median "
            f"{each[len(each) // 2]}, max {each[-1]}; {crowd.caught_up} of {spectators} "
            f"received the last move, {crowd.catch_up or 0:.2f} s after the window), "
            f"from the move's sending to its arrival p50 {ms(crowd.delivery, 0.5)} ms, "
            f"p99 {ms(crowd.delivery, 0.99)} ms, max "
            f"{max(crowd.delivery, default=float('nan')) * 1000:.1f} ms; errors "
            f"{crowd.errors}{reader}")


def run(tables: int, seconds: float, databases: list[str], pg_url: str | None,
        game: str, rate: float = 0.0, arrivals: str = "poisson", processes: int = 1,
        spectators: int = 0, crowded_rate: float = 2.0, hostile: bool = False,
        hostile_bot: str = "greedy") -> int:
    if tables < 1 or seconds <= 0 or rate < 0 or processes < 1 or spectators < 0 \
            or crowded_rate <= 0:
        print("bench server: --tables and --processes must be at least 1, --seconds "
              "and --crowded-rate positive and --rate and --spectators at least 0",
              file=sys.stderr)
        return 2
    tune_gc()  # the client's own collector pauses would count as server latency
    tune_switching()  # so would its own threads' waits for the interpreter lock
    if processes > 1 and find_redis() is None:
        print("bench server: --processes needs redis-server (live updates between the "
              "processes)", file=sys.stderr)
        return 2
    if rate > 0:
        pacing = (f"paced: {rate:g} moves/s in all ({rate / tables:g} per table, "
                  f"{arrivals} arrivals; latency from when each move was due)")
    else:
        pacing = "unpaced: each seat moves as soon as it may (saturation throughput)"
    print(f"bench server: {tables} concurrent tables of {game}, random players through HTTP "
          f"(moves) and WebSocket (updates), {seconds:g} s per database, {os.cpu_count()} "
          f"CPU(s); {pacing}", flush=True)
    if spectators:
        print(f"bench server: plus one crowded table watched by {spectators} spectator "
              f"sockets, played at {crowded_rate:g} moves/s", flush=True)
    if hostile:
        print(f"bench server: plus a hostile neighbour, one address running every limited "
              f"path at the highest rate the default limits allow (bot {hostile_bot}); "
              "each table played from an address of its own", flush=True)
    poisson = arrivals == "poisson"
    for db in dict.fromkeys(databases):
        if db == "sqlite":
            if processes > 1:
                print("sqlite      one process only (--processes is for PostgreSQL)")
            with tempfile.TemporaryDirectory() as tmp:
                bench_one("sqlite", f"sqlite:///{Path(tmp) / 'bench.db'}", tables, seconds,
                          game, rate, poisson, spectators=spectators,
                          crowded_rate=crowded_rate, hostile=hostile,
                          hostile_bot=hostile_bot)
            continue
        if pg_url is None and find_postgres() is None:
            print("postgresql  skipped: PostgreSQL is not installed (give --pg-url)")
            continue
        with contextlib.ExitStack() as stack:
            redis = stack.enter_context(temp_redis()) if processes > 1 else None
            url = pg_url
            if url is None:
                url = stack.enter_context(temp_postgres(durable=True)).create_database("bench")
            bench_one("postgresql", url, tables, seconds, game, rate, poisson, processes,
                      redis, spectators=spectators, crowded_rate=crowded_rate,
                      hostile=hostile, hostile_bot=hostile_bot)
    return 0
