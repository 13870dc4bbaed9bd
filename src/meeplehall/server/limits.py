"""Limits on costly requests, per client address and for the whole service.

Creating and importing tables, replay views and analyses are rate-limited by token
buckets (``rate`` per second, bursts of ``burst``), one per client address and one for
everyone; spectator WebSockets are counted, per client address and in all. With Redis,
the buckets and counts live there, so N server processes together allow what one does
(a Lua script takes from both buckets at once, on Redis's clock); without Redis, or while
Redis is down, each process keeps its own.

A spectator socket is a member of two sorted sets in Redis (its client's and everyone's)
scored with when it lapses; its process renews the scores of its live sockets every
``SOCKET_RENEW`` seconds, so the sockets of a process that died lapse on their own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from meeplehall.server.errors import TooManyRequests

log = logging.getLogger("meeplehall.server.limits")

SOCKET_RENEW = 20.0  # seconds between renewals of this process's spectator sockets
SOCKET_LAPSE = 60.0  # seconds after its last renewal a spectator socket stops counting
_PREFIX = "meeplehall:limit:"

# KEYS: the client's bucket, everyone's; ARGV: rate, burst (client), rate, burst (all).
# Returns 0 when one unit was taken from both, else the seconds to wait.
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
local levels = {}
local wait = 0
for i = 1, 2 do
  local rate, burst = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  local v = redis.call('HMGET', KEYS[i], 'l', 't')
  local level = tonumber(v[1]) or burst
  local last = tonumber(v[2]) or now
  level = math.min(burst, level + math.max(0, now - last) * rate)
  levels[i] = level
  if level < 1 then wait = math.max(wait, (1 - level) / rate) end
end
for i = 1, 2 do
  local rate, burst = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  local level = levels[i]
  if wait == 0 then level = level - 1 end
  redis.call('HSET', KEYS[i], 'l', tostring(level), 't', tostring(now))
  redis.call('PEXPIRE', KEYS[i], math.ceil(1000 * (burst / rate + 1)))
end
return tostring(wait)
"""

# KEYS: the client's socket set, everyone's; ARGV: member, per-client limit, total
# limit, lapse seconds. Returns 1 when the socket was added, 0 over a limit.
_OPEN = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2])
    or redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then
  return 0
end
local lapse = now + tonumber(ARGV[4])
redis.call('ZADD', KEYS[1], lapse, ARGV[1])
redis.call('ZADD', KEYS[2], lapse, ARGV[1])
redis.call('PEXPIRE', KEYS[1], math.ceil(1000 * tonumber(ARGV[4])))
redis.call('PEXPIRE', KEYS[2], math.ceil(1000 * tonumber(ARGV[4])))
return 1
"""

# KEYS: socket sets; ARGV: lapse seconds, then (set index, member) pairs.
_RENEW = """
local t = redis.call('TIME')
local lapse = tonumber(t[1]) + tonumber(ARGV[1])
for i = 2, #ARGV, 2 do
  local key = KEYS[tonumber(ARGV[i])]
  redis.call('ZADD', key, 'XX', lapse, ARGV[i + 1])
  redis.call('PEXPIRE', key, math.ceil(1000 * tonumber(ARGV[1])))
end
return 1
"""


@dataclass(frozen=True)
class Rate:
    """A token bucket: ``rate`` per second, bursts of ``burst``."""

    rate: float
    burst: int


@dataclass(frozen=True)
class LimitConfig:
    """The limits: per client address (``client``) and for everyone (``total``)."""

    client: dict[str, Rate]
    total: dict[str, Rate]
    spectators_per_client: int = 20
    spectators: int = 2000


def default_limits() -> LimitConfig:
    """Sized from the measured costs (``docs/server.md``): an import about 190 ms, a
    replay view about 60 ms; the totals keep these under about half a core."""
    return LimitConfig(
        client={"create": Rate(1.0, 10), "import": Rate(0.2, 5), "replay": Rate(2.0, 20),
                "analysis": Rate(1.0, 5)},
        total={"create": Rate(20.0, 100), "import": Rate(2.0, 10), "replay": Rate(8.0, 40),
               "analysis": Rate(4.0, 10)})


WHAT = {"create": "new tables", "import": "imports", "replay": "replay views",
        "analysis": "analyses"}


class Limits:
    """Rate limits and spectator-socket counts, in Redis when it is given."""

    def __init__(self, config: LimitConfig, redis: Any = None) -> None:
        self.config = config
        self.redis = redis
        self.origin = secrets.token_hex(6)
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}
        self._sockets: dict[str, int] = {}  # client -> this process's spectator sockets
        self._members: dict[str, str] = {}  # socket id -> client (Redis members)
        self._counter = 0
        self._take_script: Any = None
        self._open_script: Any = None
        self._renew_script: Any = None
        self._renewer: asyncio.Task[None] | None = None
        self._warned = 0.0

    def start(self) -> None:
        if self.redis is None:
            return
        self._take_script = self.redis.register_script(_TAKE)
        self._open_script = self.redis.register_script(_OPEN)
        self._renew_script = self.redis.register_script(_RENEW)
        self._renewer = asyncio.get_running_loop().create_task(self._renew())

    async def close(self) -> None:
        if self._renewer is not None:
            self._renewer.cancel()
            with contextlib.suppress(BaseException):
                await self._renewer

    def _redis_failed(self, exc: Exception) -> None:
        stamp = time.monotonic()
        if stamp - self._warned > 10:
            self._warned = stamp
            log.warning("limits: Redis unavailable (%s); this process counts alone",
                        type(exc).__name__)

    # -- rates ------------------------------------------------------------------------------

    async def take(self, kind: str, client: str) -> None:
        """Take one request of ``kind`` for ``client``.

        Raises:
            TooManyRequests: over the client's or everyone's rate; ``retry_after`` says
                when to try again.
        """
        mine, everyone = self.config.client.get(kind), self.config.total.get(kind)
        if mine is None or everyone is None or mine.rate <= 0 or everyone.rate <= 0:
            return
        wait: float | None = None
        if self._take_script is not None:
            try:
                wait = float(await self._take_script(
                    keys=[f"{_PREFIX}{kind}:{client}", f"{_PREFIX}{kind}:*"],
                    args=[mine.rate, mine.burst, everyone.rate, everyone.burst]))
            except Exception as exc:
                self._redis_failed(exc)
        if wait is None:
            wait = self._take_local(kind, client, mine, everyone)
        if wait > 0:
            raise TooManyRequests(
                f"too many {WHAT.get(kind, kind)}: at most {mine.rate:g} per second from one "
                f"address (bursts of {mine.burst}) and {everyone.rate:g} per second in all; "
                "try again shortly", retry_after=round(wait, 3))

    def _take_local(self, kind: str, client: str, mine: Rate, everyone: Rate) -> float:
        stamp = time.monotonic()
        if len(self._buckets) > 100_000:
            self._buckets.clear()
        keys = ((kind, client), (kind, "*"))
        levels = []
        wait = 0.0
        for key, rate in zip(keys, (mine, everyone), strict=True):
            level, last = self._buckets.get(key, (float(rate.burst), stamp))
            level = min(float(rate.burst), level + (stamp - last) * rate.rate)
            levels.append(level)
            if level < 1.0:
                wait = max(wait, (1.0 - level) / rate.rate)
        for key, level in zip(keys, levels, strict=True):
            self._buckets[key] = (level - (1.0 if wait == 0 else 0.0), stamp)
        return wait

    # -- spectator sockets --------------------------------------------------------------------

    async def open_spectator(self, client: str) -> str:
        """Count a new spectator socket of ``client``; returns its id for
        :meth:`close_spectator`.

        Raises:
            TooManyRequests: the client, or everyone, has as many as allowed.
        """
        self._counter += 1
        member = f"{self.origin}:{self._counter}"
        per, total = self.config.spectators_per_client, self.config.spectators
        added: bool | None = None
        if self._open_script is not None:
            try:
                added = bool(int(await self._open_script(
                    keys=[f"{_PREFIX}ws:{client}", f"{_PREFIX}ws:*"],
                    args=[member, per, total, SOCKET_LAPSE])))
            except Exception as exc:
                self._redis_failed(exc)
        if added is None:
            added = (self._sockets.get(client, 0) < per
                     and sum(self._sockets.values()) < total)
        if not added:
            raise TooManyRequests(
                f"too many spectator connections: at most {per} from one address and "
                f"{total} in all", retry_after=SOCKET_RENEW)
        self._sockets[client] = self._sockets.get(client, 0) + 1
        self._members[member] = client
        return member

    async def close_spectator(self, member: str) -> None:
        client = self._members.pop(member, None)
        if client is None:
            return
        left = self._sockets.get(client, 1) - 1
        if left > 0:
            self._sockets[client] = left
        else:
            self._sockets.pop(client, None)
        if self.redis is not None:
            try:
                await self.redis.zrem(f"{_PREFIX}ws:{client}", member)
                await self.redis.zrem(f"{_PREFIX}ws:*", member)
            except Exception as exc:
                self._redis_failed(exc)

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(SOCKET_RENEW)
            if not self._members:
                continue
            keys: list[str] = [f"{_PREFIX}ws:*"]
            index: dict[str, int] = {}
            args: list[Any] = [SOCKET_LAPSE]
            for member, client in self._members.items():
                if client not in index:
                    keys.append(f"{_PREFIX}ws:{client}")
                    index[client] = len(keys)
                args += [1, member, index[client], member]
            try:
                await self._renew_script(keys=keys, args=args)
            except Exception as exc:
                self._redis_failed(exc)


def client_address(scope: Mapping[str, Any]) -> str:
    """The client's address as the server sees it (behind a trusted proxy, the one the
    proxy names: ``serve --forwarded-allow-ips``)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"
