"""Command line: ``serve`` and ``bench server``.

``add_server_commands(subparsers)`` registers both on an ``argparse`` sub-parser set;
``run_server_command(args)`` runs the one parsed. ``python -m meeplehall.server`` offers
the same commands on its own.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from meeplehall.server.limits import LimitConfig

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
WS_MAX_SIZE = 1 << 16  # bytes in one WebSocket message from a client (hellos and pings)


def default_db_url() -> tuple[str, Path]:
    """SQLite in the user's data directory (``platformdirs``), and that file's path."""
    import platformdirs

    path = Path(platformdirs.user_data_dir("meeplehall", appauthor=False)) / "meeplehall.db"
    return f"sqlite:///{path}", path


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", default=os.environ.get("MEEPLEHALL_DB"), metavar="URL",
                        help="database: sqlite:///PATH or postgresql+psycopg://USER:PW@HOST:"
                             "PORT/DB (default: $MEEPLEHALL_DB, else SQLite in the user "
                             "data directory)")
    parser.add_argument("--host", default=DEFAULT_HOST, help=f"default {DEFAULT_HOST}")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"default {DEFAULT_PORT}")
    parser.add_argument("--redis", default=os.environ.get("MEEPLEHALL_REDIS"), metavar="URL",
                        help="redis://HOST:PORT/0 (rediss:// for TLS): share live updates "
                             "and limits with other server processes on the same database "
                             "(default: $MEEPLEHALL_REDIS)")
    parser.add_argument("--move-rate", type=float, default=20.0,
                        help="moves per second allowed per seat token (default 20; 0: no limit)")
    parser.add_argument("--bot-think-time", type=float, default=5.0,
                        help="seconds a bot may think before the random bot moves for it")
    parser.add_argument("--bot-lease", type=float, default=15.0, metavar="SECONDS",
                        help="seconds a process holds a table's bots; another process takes "
                             "over a lapsed lease (default 15; at least twice the think time)")
    parser.add_argument("--heavy-workers", type=int, default=None, metavar="N",
                        help="worker processes for bots' moves and analyses, so that they "
                             "never run in the server's interpreter (default: one per CPU "
                             "core beyond the first, 1 to 8; 0: threads of the server)")
    parser.add_argument("--limit", action="append", default=[], metavar="KIND=RATE,BURST",
                        help="requests per second and bursts from one client address, for "
                             "KIND create, import, replay, analysis, view, log, ws, sync, "
                             "undo, sign-in or mail (repeatable; RATE 0: no limit of that "
                             "kind); defaults in docs/server.md")
    parser.add_argument("--token-limit", action="append", default=[],
                        metavar="KIND=RATE,BURST",
                        help="the same per seat token, for requests that carry one")
    parser.add_argument("--total-limit", action="append", default=[],
                        metavar="KIND=RATE,BURST",
                        help="the same for all clients together (shared through --redis); "
                             "it holds back only clients above their fair share")
    parser.add_argument("--spectators", type=int, default=None, metavar="N",
                        help="spectator WebSockets in all (default 2000)")
    parser.add_argument("--spectators-per-client", type=int, default=None, metavar="N",
                        help="spectator WebSockets from one client address (default 20)")
    parser.add_argument("--sockets-per-seat", type=int, default=None, metavar="N",
                        help="WebSockets of one seat token (default 8; 0: no limit)")
    parser.add_argument("--bot-tables-per-client", type=int, default=None, metavar="N",
                        help="unfinished tables with a bot seat that one client address "
                             "may have opened (default 4; 0: no limit)")
    parser.add_argument("--forwarded-allow-ips", default=None, metavar="ADDRESSES",
                        help="proxies trusted to name the client in X-Forwarded-For (comma "
                             "separated; default 127.0.0.1): limits count per client address")
    parser.add_argument("--smtp", default=os.environ.get("MEEPLEHALL_SMTP"), metavar="URL",
                        help="the SMTP relay for sign-in links and turn notifications: "
                             "smtp://user:password@host:port (STARTTLS when offered) or "
                             "smtps://...; ?from=ADDRESS sets the sender (env "
                             "MEEPLEHALL_SMTP; default: no mail)")
    parser.add_argument("--public-url", default=os.environ.get("MEEPLEHALL_PUBLIC_URL"),
                        metavar="URL",
                        help="the address players open the server at, for the links in "
                             "messages (default http://HOST:PORT)")
    parser.add_argument("--webhook-allow-private", action="store_true",
                        help="let turn webhooks be plain http:// and reach loopback and "
                             "private addresses (default: https to public addresses only)")
    parser.add_argument("--quiet", action="store_true",
                        help="no access log and no per-connection lines: warnings only")
    parser.add_argument("--clock-file", default=None, metavar="PATH",
                        help="for tests and demos only: the clock of turn deadlines is the "
                             "host's plus the seconds written in PATH (several processes "
                             "given one file share a simulated time; write a larger number "
                             "to move days forward)")
    parser.add_argument("--deadline-every", type=float, default=None, metavar="SECONDS",
                        help="seconds between two looks for due turn reminders and "
                             "deadlines (default 30)")


def add_bench_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", "-k", type=int, default=200,
                        help="concurrent tables (default 200)")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="measuring time per database (default 20)")
    parser.add_argument("--db", action="append", choices=("sqlite", "postgresql"), default=None,
                        help="database(s) to measure (repeatable; default both)")
    parser.add_argument("--pg-url", default=None,
                        help="an empty PostgreSQL database to use instead of a throwaway one")
    parser.add_argument("--game", default="red-cathedral", help="game to play")
    parser.add_argument("--rate", type=float, default=0.0, metavar="MOVES_PER_SECOND",
                        help="offered load in moves/s over all tables, open-loop (players "
                             "who think); latency counts from when each move was due. "
                             "0 (default): unpaced, for saturation throughput")
    parser.add_argument("--arrivals", choices=("poisson", "fixed"), default="poisson",
                        help="paced moves of a table arrive as a Poisson process (default) "
                             "or evenly spaced")
    parser.add_argument("--processes", type=int, default=1,
                        help="PostgreSQL: run this many server processes sharing live "
                             "updates through a throwaway Redis; each table is played on "
                             "one of them (default 1)")
    parser.add_argument("--spectators", type=int, default=0, metavar="N",
                        help="also open one crowded table watched by N spectator "
                             "WebSockets, reported on a line of its own (default 0)")
    parser.add_argument("--crowded-rate", type=float, default=2.0,
                        metavar="MOVES_PER_SECOND",
                        help="with --spectators: the crowded table's moves per second "
                             "(default 2)")
    parser.add_argument("--hostile", action="store_true",
                        help="a hostile neighbour beside the tables: one address running "
                             "every limited path at the highest rate the default limits "
                             "allow (the server runs with its default limits)")
    parser.add_argument("--hostile-bot", default="greedy", metavar="KIND",
                        help="with --hostile: the bot of its analyses and bot tables "
                             "(default greedy)")


def add_server_commands(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Register ``serve`` and, when no ``bench`` command exists yet, ``bench server``.

    Where the host program already has a ``bench`` command, it dispatches ``bench
    server`` itself with :func:`bench_server_main` (for example when ``argv[:2] ==
    ["bench", "server"]``).
    """
    serve = subparsers.add_parser("serve", help="run the game server (HTTP + WebSocket)")
    add_serve_arguments(serve)
    serve.set_defaults(server_command=cmd_serve)
    if "bench" not in subparsers.choices:
        bench = subparsers.add_parser("bench", help="benchmarks")
        targets = bench.add_subparsers(dest="bench_target", metavar="TARGET", required=True)
        server = targets.add_parser("server", help="the game server on loopback, under load")
        add_bench_arguments(server)
        server.set_defaults(server_command=cmd_bench_server)


def run_server_command(args: argparse.Namespace) -> int:
    code: int = args.server_command(args)
    return code


def event_loop_and_parser() -> tuple[str, str]:
    """uvloop and httptools where installed (several times cheaper per request than the
    pure-Python defaults), else asyncio and h11."""
    import importlib.util

    loop = "uvloop" if importlib.util.find_spec("uvloop") else "asyncio"
    http = "httptools" if importlib.util.find_spec("httptools") else "h11"
    return loop, http


FREEZE_EVERY = 0.05
"""Seconds between two freezes of the young objects (``CollectorPolicy``)."""
FULL_EVERY = 600.0
"""Seconds between two looks at whether a full collection is due (``CollectorPolicy``)."""
FROZEN_GROWTH = 1.25
"""A full collection runs once the frozen objects outnumber those after the last one by
this factor (``CollectorPolicy``)."""


class CollectorPolicy:
    """How a long-running process keeps the garbage collector out of its latency.

    A server keeps about 2,000 container objects alive per move (views, states, patches)
    until the table's next move, and makes reference cycles almost only when an HTTP
    connection closes. Collections of the youngest generation therefore walk tens of
    thousands of live objects and free next to nothing: at 500 moves/s each took 10-70 ms
    about every 0.8 s, the whole p99 tail. So the young objects are frozen out of the
    collector every ``FREEZE_EVERY`` seconds instead (``gc.freeze`` is a constant-time
    list splice; objects freed by reference counting leave the frozen set as usual). The
    cycles that die among frozen objects are reclaimed by a full collection
    (``gc.unfreeze``, ``gc.collect``, ``gc.freeze``: a pause of 0.15-0.4 s with 200
    tables), looked at every ``full_every`` seconds and run when the frozen set has
    grown by ``growth`` since the last one (counting them walks them all: a few
    milliseconds). The automatic collector stays on behind it, with a young generation of
    100,000.
    """

    def __init__(self, growth: float = FROZEN_GROWTH, full_every: float = FULL_EVERY,
                 clock: Callable[[], float] | None = None) -> None:
        import gc
        import time

        self.growth = growth
        self.full_every = full_every
        self.clock = clock or time.monotonic
        gc.collect()
        gc.freeze()
        gc.set_threshold(100_000, 50, 1000)
        self.limit = int(gc.get_freeze_count() * growth)
        self.next_look = self.clock() + full_every
        self.full_collections = 0

    def step(self) -> bool:
        """Freeze the young objects; run the full collection when it is due. Returns
        whether it ran."""
        import gc

        gc.freeze()
        now = self.clock()
        if now < self.next_look:
            return False
        self.next_look = now + self.full_every
        if gc.get_freeze_count() <= self.limit:
            return False
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.limit = int(gc.get_freeze_count() * self.growth)
        self.full_collections += 1
        return True

    def start(self, every: float = FREEZE_EVERY) -> None:
        """Step every ``every`` seconds on a daemon thread (for the process's life)."""
        import threading
        import time

        def run() -> None:
            while True:
                time.sleep(every)
                self.step()

        threading.Thread(target=run, name="collector-policy", daemon=True).start()


def tune_gc() -> None:
    """The process's garbage collection for low latency: ``CollectorPolicy``, started."""
    CollectorPolicy().start()


SWITCH_INTERVAL = 0.0001
"""Seconds a thread may keep the interpreter lock while another waits for it (Python's
default: 0.005); see ``tune_switching``."""


def tune_switching(interval: float = SWITCH_INTERVAL) -> float:
    """Shorten the interpreter's switch interval; returns the previous one.

    The move writer's thread needs the interpreter lock back after each database call. A
    thread that releases the lock for a system call (the event loop writing to a socket)
    takes it straight back when it returns, before a waiting thread has woken up, so the
    waiting thread gets it only by asking the holder to let go once the switch interval has
    passed. While the event loop is busy (a fan-out to 1,500 spectators, views and JSON),
    each handover of a transaction cost up to 5 ms at Python's default, and a commit that
    takes 0.3 ms of CPU took 10-100 ms; the event loop waited the same way for the lock
    back. At 0.1 ms the handovers are 50 times shorter; the cost is a forced switch at
    most every 0.1 ms while two threads want the lock. docs/server.md gives the figures.
    """
    previous = sys.getswitchinterval()
    sys.setswitchinterval(interval)
    return previous


def limit_config(args: argparse.Namespace) -> LimitConfig:
    """The limits the ``serve`` arguments ask for (the defaults, changed)."""
    from meeplehall.server.limits import KINDS, Rate, default_limits

    config = default_limits()
    for option, table in (("limit", config.client), ("token_limit", config.token),
                          ("total_limit", config.total)):
        for item in getattr(args, option, ()):
            kind, _, value = item.partition("=")
            rate, _, burst = value.partition(",")
            if kind not in KINDS:
                raise SystemExit(f"--{option.replace('_', '-')}: unknown kind {kind!r}; "
                                 f"kinds are {', '.join(KINDS)}")
            old = table.get(kind, config.client[kind])
            try:
                table[kind] = Rate(float(rate), int(burst) if burst else old.burst)
            except ValueError:
                raise SystemExit(f"--{option.replace('_', '-')} {item!r}: write "
                                 "KIND=RATE,BURST (for example replay=2,20)") from None
    return dataclasses.replace(
        config,
        spectators=config.spectators if args.spectators is None else args.spectators,
        spectators_per_client=config.spectators_per_client
        if args.spectators_per_client is None else args.spectators_per_client,
        sockets_per_seat=config.sockets_per_seat
        if getattr(args, "sockets_per_seat", None) is None else args.sockets_per_seat,
        bot_tables_per_client=config.bot_tables_per_client
        if getattr(args, "bot_tables_per_client", None) is None
        else args.bot_tables_per_client)


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from meeplehall.server.app import create_app
    from meeplehall.server.db import StorageError, describe_url

    if args.db is None:
        url, path = default_db_url()
        print(f"meeplehall server: database {path}", flush=True)
    else:
        url = args.db
        print(f"meeplehall server: database {describe_url(url)}", flush=True)
    from meeplehall.server.clock import FileClock
    from meeplehall.server.deadlines import SWEEP_EVERY

    clock = None if args.clock_file is None else FileClock(args.clock_file)
    if clock is not None:
        print(f"meeplehall server: TESTING CLOCK from {args.clock_file} (offset "
              f"{clock.offset():g} s)", flush=True)
    try:
        app = create_app(url, args.redis, move_rate=args.move_rate,
                         bot_think_time=args.bot_think_time, bot_lease=args.bot_lease,
                         limits=limit_config(args), heavy_workers=args.heavy_workers,
                         smtp=args.smtp,
                         clock=clock, deadline_every=args.deadline_every or SWEEP_EVERY,
                         public_url=args.public_url or f"http://{args.host}:{args.port}",
                         webhook_allow_private=args.webhook_allow_private)
    except ValueError as exc:
        print(f"meeplehall server: {exc}", file=sys.stderr)
        return 2
    except StorageError as exc:
        print(f"meeplehall server: {exc}", file=sys.stderr)
        return 2
    if args.redis:
        print(f"meeplehall server: live updates shared through {describe_url(args.redis)}",
              flush=True)
    print(f"meeplehall server: http://{args.host}:{args.port}/ (API under /api, "
          f"schema at /openapi.json)", flush=True)
    tune_gc()
    tune_switching()
    loop, http = event_loop_and_parser()
    print(f"meeplehall server: event loop {loop}, HTTP parser {http}", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, loop=loop, http=http,
                log_level="warning" if args.quiet else "info", access_log=not args.quiet,
                ws="websockets-sansio", ws_per_message_deflate=False,
                ws_max_size=WS_MAX_SIZE, proxy_headers=True,
                forwarded_allow_ips=args.forwarded_allow_ips)
    return 0


def cmd_bench_server(args: argparse.Namespace) -> int:
    try:
        from tools.bench_server import run
    except ModuleNotFoundError as exc:
        if exc.name not in ("tools", "tools.bench_server"):
            raise
        print("meeplehall bench server: the benchmark is a development tool (tools/ in a "
              "source checkout); install the project with pip install -e \".[dev]\"",
              file=sys.stderr)
        return 2

    return run(tables=args.tables, seconds=args.seconds,
               databases=args.db or ["sqlite", "postgresql"], pg_url=args.pg_url,
               game=args.game, rate=args.rate, arrivals=args.arrivals,
               processes=args.processes, spectators=args.spectators,
               crowded_rate=args.crowded_rate, hostile=args.hostile,
               hostile_bot=args.hostile_bot)


def bench_server_main(argv: Sequence[str]) -> int:
    """``bench server`` for a host program with its own ``bench``: ``argv`` follows it."""
    parser = argparse.ArgumentParser(prog="meeplehall bench server",
                                     description="benchmark the game server on loopback")
    add_bench_arguments(parser)
    return cmd_bench_server(parser.parse_args(list(argv)))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m meeplehall.server",
                                     description="the meeplehall game server")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    add_server_commands(sub)
    args = parser.parse_args(argv)
    return run_server_command(args)
