"""Throwaway PostgreSQL and Redis servers on loopback, for tests and ``bench server``.

They run from the machine's own binaries (Debian: ``apt-get install postgresql
redis-server``); :func:`find_postgres` and :func:`find_redis` say whether they exist.
As root, PostgreSQL runs as the ``postgres`` user (it refuses to run as root) in a
temporary directory that user owns.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def find_postgres() -> Path | None:
    """The directory holding ``initdb`` and ``pg_ctl``, or None."""
    for name in ("initdb", "pg_ctl"):
        found = shutil.which(name)
        if found:
            return Path(found).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                        key=lambda p: int(Path(p).parent.parent.name)
                        if Path(p).parent.parent.name.isdigit() else 0)
    return Path(candidates[-1]).parent if candidates else None


def find_redis() -> str | None:
    return shutil.which("redis-server")


def _as_postgres(args: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return args
    runner = shutil.which("runuser")
    if runner:
        return [runner, "-u", "postgres", "--", *args]
    return ["su", "postgres", "-s", "/bin/sh", "-c", " ".join(args)]


class TempPostgres:
    """A PostgreSQL cluster in a temporary directory, listening on 127.0.0.1 only."""

    def __init__(self, bindir: Path, root: Path, port: int, options: str = "") -> None:
        self.bindir = bindir
        self.root = root
        self.port = port
        self.options = options
        self._counter = 0

    def stop(self) -> None:
        """Stop the server at once (``immediate``: like a crash; tests of outages)."""
        subprocess.run(_as_postgres([str(self.bindir / "pg_ctl"), "-D", str(self.root / "data"),
                                     "-m", "immediate", "-w", "stop"]),
                       check=True, capture_output=True, timeout=60)

    def start(self) -> None:
        """Start it again on the same port (after :meth:`stop`)."""
        subprocess.run(_as_postgres([str(self.bindir / "pg_ctl"), "-D", str(self.root / "data"),
                                     "-l", str(self.root / "server.log"), "-o", self.options,
                                     "-w", "-t", "60", "start"]),
                       check=True, capture_output=True, timeout=90)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def _psql_conn(self) -> object:
        import psycopg

        return psycopg.connect(host="127.0.0.1", port=self.port, user="postgres",
                               dbname="postgres", autocommit=True)

    def create_database(self, prefix: str = "t") -> str:
        """A fresh empty database; returns its SQLAlchemy URL."""
        self._counter += 1
        name = f"{prefix}_{os.getpid()}_{self._counter}"
        with self._psql_conn() as conn:  # type: ignore[attr-defined]
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


@contextlib.contextmanager
def temp_postgres(bindir: Path | None = None, durable: bool = False) -> Iterator[TempPostgres]:
    """Start a throwaway cluster and stop it afterwards. Unless ``durable``, fsync and
    synchronous commits are off (fine for tests: the cluster is thrown away)."""
    bindir = bindir or find_postgres()
    if bindir is None:
        raise RuntimeError("PostgreSQL binaries (initdb, pg_ctl) are not installed")
    root = Path(tempfile.mkdtemp(prefix="meeplehall-pg-"))
    data = root / "data"
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    port = free_port()
    log = root / "server.log"
    try:
        subprocess.run(_as_postgres([str(bindir / "initdb"), "-D", str(data), "-U", "postgres",
                                     "--auth=trust", "-E", "UTF8", "--no-sync"]),
                       check=True, capture_output=True, timeout=120)
        options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c max_connections=200"
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        subprocess.run(_as_postgres([str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log),
                                     "-o", options, "-w", "-t", "60", "start"]),
                       check=True, capture_output=True, timeout=90)
        yield TempPostgres(bindir, root, port, options)
    finally:
        if (data / "postmaster.pid").exists():
            subprocess.run(_as_postgres([str(bindir / "pg_ctl"), "-D", str(data), "-m",
                                         "immediate", "-w", "stop"]),
                           capture_output=True, timeout=60, check=False)
        shutil.rmtree(root, ignore_errors=True)


class TempRedis:
    """``redis-server`` on a loopback port without persistence; it can be stopped and
    started again on the same port (tests of outages)."""

    def __init__(self, binary: str, port: int) -> None:
        self.binary = binary
        self.port = port
        self.url = f"redis://127.0.0.1:{port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        proc = self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--daemonize", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while True:
            with contextlib.suppress(OSError), \
                    socket.create_connection(("127.0.0.1", self.port), 0.5):
                return
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextlib.contextmanager
def temp_redis_server() -> Iterator[TempRedis]:
    """Start a :class:`TempRedis` on a free loopback port; stop it afterwards."""
    binary = find_redis()
    if binary is None:
        raise RuntimeError("redis-server is not installed")
    server = TempRedis(binary, free_port())
    try:
        server.start()
        yield server
    finally:
        server.stop()


@contextlib.contextmanager
def temp_redis() -> Iterator[str]:
    """Start ``redis-server`` on a free loopback port without persistence; yields its URL."""
    with temp_redis_server() as server:
        yield server.url
