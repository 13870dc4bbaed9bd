"""Liveness apart from readiness: ready means a write can be committed now."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from typing import Any

from sqlalchemy import create_engine, text

from meeplehall.server.health import Readiness
from tests.server.conftest import make_client


def _ready(client: Any, path: str = "/api/health/ready") -> tuple[int, dict[str, Any], Any]:
    reply = client.get(path)
    return reply.status_code, reply.json(), reply.headers.get("retry-after")


def test_live_and_ready_on_a_healthy_server(sqlite_url: str) -> None:
    with make_client(sqlite_url) as client:
        reply = client.get("/api/health/live")
        assert reply.status_code == 200 and reply.json() == {"status": "alive"}
        for path in ("/api/health/ready", "/api/health"):
            code, body, retry = _ready(client, path)
            assert code == 200 and retry is None, body
            assert body["ok"] and body["status"] == "ok" and body["database"] == "ok"
            assert body["redis"] == "not configured"


def _hold_write_lock(db_url: str, held: threading.Event, release: threading.Event) -> None:
    """Another session holds the lock a commit needs, until ``release``."""
    if db_url.startswith("sqlite"):
        conn = sqlite3.connect(db_url.removeprefix("sqlite:///"), isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")  # the database's one write lock
        held.set()
        release.wait(30)
        conn.execute("ROLLBACK")
        conn.close()
        return
    engine = create_engine(db_url)
    with engine.connect() as conn, conn.begin():
        conn.execute(text("LOCK TABLE alembic_version IN EXCLUSIVE MODE"))
        held.set()
        release.wait(30)
    engine.dispose()


def test_a_database_that_cannot_commit_is_not_ready(db_url: str) -> None:
    with make_client(db_url) as client:
        assert _ready(client)[0] == 200
        held, release = threading.Event(), threading.Event()
        locker = threading.Thread(target=_hold_write_lock, args=(db_url, held, release))
        locker.start()
        try:
            assert held.wait(10)
            time.sleep(1.1)  # past the cached healthy answer
            started = time.monotonic()
            code, body, retry = _ready(client)
            took = time.monotonic() - started
            assert code == 503 and not body["ok"] and body["status"] == "unavailable", body
            assert body["database"] != "ok" and retry is not None and int(retry) >= 1
            assert took < 5, took  # the probe's own time limit, not the lock's length
            assert _ready(client, "/api/health")[0] == 503
            assert client.get("/api/health/live").status_code == 200
        finally:
            release.set()
            locker.join(30)
        deadline = time.monotonic() + 10
        while _ready(client)[0] != 200:
            assert time.monotonic() < deadline, "readiness did not come back"
            time.sleep(0.2)


def _readiness(probe: Any, redis: str | None = "not configured") -> Readiness:
    async def ping(_timeout: float) -> str | None:
        return redis
    return Readiness(probe, ping, lambda: 0, timeout=0.2, cache=0.0)


def test_a_full_disk_is_reported_as_unready() -> None:
    def full() -> None:
        raise sqlite3.OperationalError("database or disk is full")
    code, body = asyncio.run(_readiness(full).check())
    assert code == 503 and body["status"] == "unavailable"
    assert body["database"] == "cannot commit (OperationalError: database or disk is full)"


def test_redis_down_is_degraded_not_down() -> None:
    code, body = asyncio.run(_readiness(lambda: None, "unavailable (ConnectionError)").check())
    assert code == 200 and body["ok"] and body["status"] == "degraded"
    assert body["redis"] == "unavailable (ConnectionError)" and body["database"] == "ok"


def test_a_hung_probe_is_never_started_twice() -> None:
    started, release = [], threading.Event()

    def hung() -> None:
        started.append(1)
        release.wait(10)

    readiness = _readiness(hung)

    async def checks() -> list[tuple[int, float]]:
        out = []
        for _ in range(3):
            begin = time.monotonic()
            results = await asyncio.gather(*(readiness.check() for _ in range(4)))
            out += [(code, time.monotonic() - begin) for code, _ in results]
        release.set()
        await asyncio.sleep(0.05)
        code, _ = await readiness.check()  # the hung probe finished: its answer counts
        out.append((code, 0.0))
        assert len(started) == 1
        code, _ = await readiness.check()  # and the next check probes again
        out.append((code, 0.0))
        return out

    results = asyncio.run(checks())
    assert [code for code, _ in results] == [503] * 12 + [200, 200]
    assert max(took for _, took in results) < 1.0
    assert len(started) == 2
