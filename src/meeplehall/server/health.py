"""Liveness and readiness for ``/api/health/live``, ``/api/health/ready`` and
``/api/health`` (the same as ready).

*Live* means the process answers: no I/O at all. *Ready* means a move could be
committed now: a write probe (``UPDATE alembic_version SET version_num = version_num``,
committed) must succeed within :data:`PROBE_TIMEOUT` seconds, so a full disk or a
read-only or locked database makes the process unready even though ``SELECT 1`` would
still answer. Redis is asked too (``PING``), but its loss only makes the process
*degraded*: it still commits and serves moves (live updates between processes and the
shared limits pause), so it stays in service.

At most one probe runs at a time: a probe that has not answered is not started again
(its thread is left to finish), and every check within :data:`PROBE_CACHE` seconds of
the last result shares it, so a load balancer polling every process often costs the
database one small write per process per interval.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable
from typing import Any

PROBE_TIMEOUT = 1.0  # seconds the write probe and Redis's PING have to answer
PROBE_CACHE = 1.0  # seconds a readiness result is reused


class Readiness:
    """The readiness of one process: ``await check()`` gives ``(status code, body)``."""

    def __init__(self, write_probe: Callable[[], None],
                 redis_ping: Callable[[float], Any], connections: Callable[[], int], *,
                 timeout: float = PROBE_TIMEOUT, cache: float = PROBE_CACHE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._write_probe = write_probe
        self._redis_ping = redis_ping
        self._connections = connections
        self.timeout = timeout
        self.cache = cache
        self._clock = clock
        self._probe: asyncio.Future[None] | None = None
        self._probe_started = 0.0
        self._result: tuple[float, str | None, str | None] | None = None
        self._checking: asyncio.Lock | None = None

    async def _database(self) -> str | None:
        """None when a write committed within the timeout, else what went wrong."""
        now = self._clock()
        if self._probe is None:
            # asyncio's own thread pool, not anyio's: a probe that does not answer is
            # abandoned (never awaited past the timeout), not waited for.
            self._probe = asyncio.ensure_future(asyncio.to_thread(self._write_probe))
            self._probe_started = now
        probe = self._probe
        left = self._probe_started + self.timeout - now
        if left > 0 and not probe.done():
            await asyncio.wait({probe}, timeout=left)
        if not probe.done():
            return f"no answer within {self.timeout:g} s"  # still the only probe
        self._probe = None
        exc = probe.exception()
        if exc is None:
            return None
        return _describe(exc)

    async def _redis(self) -> str | None:
        result: str | None = await self._redis_ping(self.timeout)
        return result

    async def check(self) -> tuple[int, dict[str, Any]]:
        """``200`` with ``status`` ``ok`` or ``degraded`` (Redis down), or ``503`` with
        ``status`` ``unavailable`` (no write could be committed)."""
        if self._checking is None:
            self._checking = asyncio.Lock()
        async with self._checking:  # concurrent checks share one probe and its result
            result = self._result
            if result is None or self._clock() - result[0] >= self.cache:
                database, redis = await asyncio.gather(self._database(), self._redis())
                result = self._result = (self._clock(), database, redis)
        _, database, redis = result
        redis_ok = redis is None or redis == "not configured"
        status = "unavailable" if database is not None else "ok" if redis_ok else "degraded"
        body = {"ok": database is None, "status": status,
                "database": database or "ok", "redis": redis or "ok",
                "connections": self._connections()}
        return (503 if database is not None else 200), body


def _describe(exc: BaseException) -> str:
    """What failed, for a public answer: the error's class (psycopg's name the case:
    ``DiskFull``, ``ReadOnlySqlTransaction``, ``QueryCanceled``...), and SQLite's own
    message, which names no host or path (``database or disk is full``)."""
    orig = getattr(exc, "orig", None) or exc
    name = type(orig).__name__
    if isinstance(orig, sqlite3.Error):
        lines = str(orig).strip().splitlines()
        if lines:
            return f"cannot commit ({name}: {lines[0][:80]})"
    return f"cannot commit ({name})"
