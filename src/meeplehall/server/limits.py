"""Limits on costly requests, per client address, per seat token and for the whole
service; socket counts; the bot tables one address may run.

**Rates.** Every path that costs more than a small constant takes one unit of its kind
(``KINDS``) from token buckets (``rate`` per second, bursts of ``burst``): the client
address's, the seat token's where the request carries one (its hash: a token that is not
a seat's still has its bucket, so a flood of forged tokens is limited too), and the
site-wide one. A request is refused (429 with ``Retry-After``) when one of the client's
own buckets is empty. The site-wide bucket is a ceiling for the clients above their fair
share only: when it is empty, a request still passes if its address has used less than
its share in the last ``FAIR_WINDOW`` seconds (the site-wide rate over that window,
divided by the addresses seen in it). A client's recent use is a count that decays over
``FAIR_WINDOW``. So a new client always gets in however many others used the site (its
use is nought), while those that took more than their share wait; what the newcomers
take beyond the ceiling is owed by the site-wide bucket (down to minus its burst).

**Moves** have their own bucket per seat token (``serve --move-rate``).

**Sockets.** Spectator WebSockets are counted per address and in all (the total holds
only for addresses that have one open already: a new address always gets its first); a
seat's sockets per seat token. A socket is a member of sorted sets in Redis (one per count it is in)
scored with when it lapses; its process renews the scores of its live sockets every
``SOCKET_RENEW`` seconds, so the sockets of a process that died lapse on their own.

**Bot tables.** A new table with a bot seat counts against its creator's address until it
is finished or ``BOT_TABLE_LAPSE`` seconds have passed; an address may have
``bot_tables_per_client`` of them at once.

With Redis every bucket, count and set lives there (Lua scripts on Redis's clock), so N
server processes together allow what one does; without Redis, or while Redis is down,
each process counts alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from meeplehall.server.errors import TooManyRequests

log = logging.getLogger("meeplehall.server.limits")

SOCKET_RENEW = 20.0  # seconds between renewals of this process's sockets in Redis
SOCKET_LAPSE = 60.0  # seconds after its last renewal a socket stops counting
FAIR_WINDOW = 10.0  # seconds over which a client's share of a site-wide ceiling is counted
BOT_TABLE_LAPSE = 3600.0  # seconds a bot table counts against its creator at most
_PREFIX = "meeplehall:limit:"

# KEYS: the client's buckets (address first, then the seat token's), the site-wide
# bucket, the set of addresses seen in the window. ARGV: n (client buckets), then rate
# and burst of each client bucket and of the site-wide one, then the fair window.
# Returns "0" when the request may go, else the seconds to wait.
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
local n = tonumber(ARGV[1])
local window = tonumber(ARGV[2 * n + 4])
local levels = {}
local wait = 0
for i = 1, n + 1 do
  local rate, burst = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  local v = redis.call('HMGET', KEYS[i], 'l', 't')
  local level = tonumber(v[1]) or burst
  local last = tonumber(v[2]) or now
  levels[i] = math.min(burst, level + math.max(0, now - last) * rate)
  if i <= n and levels[i] < 1 then wait = math.max(wait, (1 - levels[i]) / rate) end
end
local site_rate, site_burst = tonumber(ARGV[2 * n + 2]), tonumber(ARGV[2 * n + 3])
local use_v = redis.call('HMGET', KEYS[1], 'u', 'ut')
local use = tonumber(use_v[1]) or 0
local use_t = tonumber(use_v[2]) or now
use = use * math.exp(-math.max(0, now - use_t) / window)
local seen = KEYS[n + 2]
redis.call('ZREMRANGEBYSCORE', seen, '-inf', now - window)
if wait == 0 and levels[n + 1] < 1 then
  local clients = redis.call('ZCARD', seen)
  if redis.call('ZSCORE', seen, ARGV[2 * n + 5]) == false then clients = clients + 1 end
  if use >= site_rate * window / math.max(1, clients) then
    wait = (1 - levels[n + 1]) / site_rate
  end
end
if wait == 0 then
  for i = 1, n + 1 do levels[i] = math.max(levels[i] - 1, -site_burst) end
  use = use + 1
  redis.call('ZADD', seen, now, ARGV[2 * n + 5])
  redis.call('PEXPIRE', seen, math.ceil(1000 * window) + 1000)
end
for i = 1, n + 1 do
  local rate, burst = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  redis.call('HSET', KEYS[i], 'l', tostring(levels[i]), 't', tostring(now))
  redis.call('PEXPIRE', KEYS[i], math.ceil(1000 * math.max(burst / rate + 1, 3 * window)))
end
redis.call('HSET', KEYS[1], 'u', tostring(use), 'ut', tostring(now))
return tostring(wait)
"""

# One bucket (a seat token's moves). KEYS: the bucket; ARGV: rate, burst.
_TAKE_ONE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local v = redis.call('HMGET', KEYS[1], 'l', 't')
local level = math.min(burst, (tonumber(v[1]) or burst)
                       + math.max(0, now - (tonumber(v[2]) or now)) * rate)
local wait = 0
if level < 1 then wait = (1 - level) / rate else level = level - 1 end
redis.call('HSET', KEYS[1], 'l', tostring(level), 't', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(1000 * (burst / rate + 1)))
return tostring(wait)
"""

# KEYS: socket sets; ARGV: member, lapse seconds, then each set's limit (negative: a
# soft one, which holds only when the first set is not empty). Returns 1 when the member
# was added to every set, 0 when one of them is full.
_OPEN = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
local first = 0
for i = 1, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
  local count = redis.call('ZCARD', KEYS[i])
  if i == 1 then first = count end
  local limit = tonumber(ARGV[i + 2])
  if limit >= 0 and count >= limit then return 0 end
  if limit < 0 and first > 0 and count >= -limit then return 0 end
end
local lapse = now + tonumber(ARGV[2])
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], lapse, ARGV[1])
  redis.call('PEXPIRE', KEYS[i], math.ceil(1000 * tonumber(ARGV[2])))
end
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


# What each kind of limited request is, for the 429's message.
KINDS = {"create": "new tables", "import": "imports", "replay": "replay views",
         "analysis": "analyses", "view": "table reads", "log": "log pages",
         "ws": "WebSocket openings", "sync": "WebSocket syncs", "undo": "undos",
         "review": "game reviews", "sign-in": "sign-in requests",
         "mail": "confirmation mails", "chat": "chat messages",
         "recover": "seat recoveries", "host": "host controls"}


@dataclass(frozen=True)
class LimitConfig:
    """The limits: per client address (``client``), per seat token (``token``) and for
    everyone (``total``); a kind missing from ``client`` or ``total`` is not limited.
    Socket counts and bot tables: 0 means no limit."""

    client: dict[str, Rate]
    total: dict[str, Rate]
    token: dict[str, Rate] = field(default_factory=dict)
    spectators_per_client: int = 20
    spectators: int = 2000
    sockets_per_seat: int = 0
    bot_tables_per_client: int = 0


def default_limits() -> LimitConfig:
    """Sized from the measured costs (``docs/server.md``): an import about 190 ms, a
    replay view about 60 ms, a view or a sync frame of a long game a few ms; the totals
    keep each kind under about half a core."""
    return LimitConfig(
        client={"create": Rate(1.0, 10), "import": Rate(0.2, 5), "replay": Rate(2.0, 20),
                "analysis": Rate(1.0, 5), "view": Rate(10.0, 50), "log": Rate(5.0, 40),
                "ws": Rate(2.0, 20), "sync": Rate(2.0, 20), "undo": Rate(2.0, 10),
                "review": Rate(0.1, 3), "sign-in": Rate(0.1, 5), "mail": Rate(0.1, 5),
                "chat": Rate(1.0, 5), "recover": Rate(0.5, 10), "host": Rate(1.0, 20)},
        # for sign-in and mail, the "token" is the e-mail address's hash
        token={"replay": Rate(2.0, 20), "analysis": Rate(1.0, 5), "view": Rate(5.0, 30),
               "log": Rate(5.0, 40), "sync": Rate(1.0, 10), "undo": Rate(1.0, 5),
               "sign-in": Rate(1 / 60, 3), "mail": Rate(1 / 60, 3), "chat": Rate(1.0, 5)},
        total={"create": Rate(20.0, 100), "import": Rate(2.0, 10), "replay": Rate(8.0, 40),
               "analysis": Rate(4.0, 10), "view": Rate(200.0, 400), "log": Rate(100.0, 200),
               "ws": Rate(50.0, 200), "sync": Rate(50.0, 200), "undo": Rate(20.0, 40),
               "review": Rate(0.5, 4), "sign-in": Rate(5.0, 50), "mail": Rate(5.0, 50),
               "chat": Rate(50.0, 200), "recover": Rate(10.0, 50), "host": Rate(20.0, 100)},
        sockets_per_seat=8, bot_tables_per_client=4)


@dataclass
class _Local:
    """This process's own buckets, counts and sets (without Redis)."""

    buckets: dict[str, tuple[float, float]] = field(default_factory=dict)
    use: dict[str, tuple[float, float]] = field(default_factory=dict)
    seen: dict[str, dict[str, float]] = field(default_factory=dict)
    sets: dict[str, dict[str, float]] = field(default_factory=dict)


class Limits:
    """Rate limits, socket counts and bot tables, in Redis when it is given."""

    def __init__(self, config: LimitConfig, redis: Any = None, *,
                 move: Rate | None = None) -> None:
        self.config = config
        self.move = move
        self.redis = redis
        self.origin = secrets.token_hex(6)
        self._local = _Local()
        self._members: dict[str, list[str]] = {}  # socket id -> the sets it is in
        self._counter = 0
        self._scripts: dict[str, Any] = {}
        self._renewer: asyncio.Task[None] | None = None
        self._warned = 0.0

    def start(self) -> None:
        if self.redis is None:
            return
        for name, source in (("take", _TAKE), ("one", _TAKE_ONE), ("open", _OPEN),
                             ("renew", _RENEW)):
            self._scripts[name] = self.redis.register_script(source)
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

    async def _script(self, name: str, keys: list[str], args: list[Any]) -> Any:
        """The script's answer, or None without Redis or when it failed."""
        script = self._scripts.get(name)
        if script is None:
            return None
        try:
            return await script(keys=keys, args=args)
        except Exception as exc:
            self._redis_failed(exc)
            return None

    # -- rates ------------------------------------------------------------------------------

    async def take(self, kind: str, client: str, token: str | None = None) -> None:
        """Take one request of ``kind`` for ``client`` (an address) and, when given, the
        seat token whose hash is ``token``.

        Raises:
            TooManyRequests: over the address's or the token's rate, or over the
                site-wide one while the address has used its share; ``retry_after`` says
                when to try again.
        """
        mine, everyone = self.config.client.get(kind), self.config.total.get(kind)
        if mine is None or everyone is None or mine.rate <= 0 or everyone.rate <= 0:
            return
        own = [(f"{_PREFIX}{kind}:{client}", mine)]
        per_token = self.config.token.get(kind)
        if token is not None and per_token is not None and per_token.rate > 0:
            own.append((f"{_PREFIX}{kind}:t:{token}", per_token))
        site = f"{_PREFIX}{kind}:*"
        seen = f"{_PREFIX}{kind}:seen"
        args: list[Any] = [len(own)]
        for _, rate in own:
            args += [rate.rate, rate.burst]
        args += [everyone.rate, everyone.burst, FAIR_WINDOW, client]
        answer = await self._script("take", [*(k for k, _ in own), site, seen], args)
        wait = float(answer) if answer is not None else \
            self._take_local(own, (site, everyone), seen, client)
        if wait > 0:
            raise TooManyRequests(self._message(kind, mine, per_token if token else None,
                                                everyone), retry_after=round(wait, 3))

    @staticmethod
    def _message(kind: str, mine: Rate, token: Rate | None, everyone: Rate) -> str:
        what = f"at most {mine.rate:g} per second from one address (bursts of {mine.burst})"
        if token is not None:
            what += f", {token.rate:g} per second per seat token (bursts of {token.burst})"
        return (f"too many {KINDS.get(kind, kind)}: {what}, and {everyone.rate:g} per second "
                "in all while the service is busy; try again shortly")

    def _level(self, key: str, rate: Rate, stamp: float) -> float:
        level, last = self._local.buckets.get(key, (float(rate.burst), stamp))
        return min(float(rate.burst), level + max(0.0, stamp - last) * rate.rate)

    def _take_local(self, own: list[tuple[str, Rate]], site: tuple[str, Rate], seen_key: str,
                    client: str) -> float:
        """``_TAKE`` in this process."""
        local = self._local
        stamp = time.monotonic()
        if len(local.buckets) > 100_000:
            local.buckets.clear()
            local.use.clear()
        levels = [self._level(key, rate, stamp) for key, rate in own]
        wait = max([(1.0 - lv) / r.rate for lv, (_, r) in zip(levels, own, strict=True)
                    if lv < 1.0], default=0.0)
        site_key, everyone = site
        site_level = self._level(site_key, everyone, stamp)
        use_key = own[0][0]
        use, last = local.use.get(use_key, (0.0, stamp))
        use *= math.exp(-max(0.0, stamp - last) / FAIR_WINDOW)
        seen = local.seen.setdefault(seen_key, {})
        for name in [n for n, when in seen.items() if when < stamp - FAIR_WINDOW]:
            del seen[name]
        if wait == 0 and site_level < 1.0:
            clients = len(seen) + (client not in seen)
            if use >= everyone.rate * FAIR_WINDOW / max(1, clients):
                wait = (1.0 - site_level) / everyone.rate
        if wait == 0:
            levels = [max(lv - 1.0, -everyone.burst) for lv in levels]
            site_level = max(site_level - 1.0, -everyone.burst)
            use += 1.0
            seen[client] = stamp
        for (key, _), level in zip(own, levels, strict=True):
            local.buckets[key] = (level, stamp)
        local.buckets[site_key] = (site_level, stamp)
        local.use[use_key] = (use, stamp)
        return wait

    async def take_move(self, token: str) -> None:
        """One move (or undo) of the seat token whose hash is ``token``.

        Raises:
            TooManyRequests: over ``serve --move-rate``.
        """
        rate = self.move
        if rate is None or rate.rate <= 0:
            return
        key = f"{_PREFIX}move:{token}"
        answer = None
        if self._scripts:
            answer = await self._script("one", [key], [rate.rate, rate.burst])
        if answer is not None:
            wait = float(answer)
        else:
            stamp = time.monotonic()
            if len(self._local.buckets) > 100_000:
                self._local.buckets.clear()
            level = self._level(key, rate, stamp)
            wait = (1.0 - level) / rate.rate if level < 1.0 else 0.0
            self._local.buckets[key] = (level - (1.0 if wait == 0 else 0.0), stamp)
        if wait > 0:
            raise TooManyRequests(
                f"too many moves for this seat token: at most {rate.rate:g} per second "
                f"(bursts of {rate.burst})", retry_after=round(wait, 3))

    # -- sockets -----------------------------------------------------------------------------

    async def _open(self, sets: list[tuple[str, int]], what: str) -> str:
        self._counter += 1
        member = f"{self.origin}:{self._counter}"
        sets = [(key, limit) for key, limit in sets if limit != 0]
        keys = [f"{_PREFIX}{key}" for key, _ in sets]
        added: bool | None = None
        if sets:
            answer = await self._script("open", keys,
                                        [member, SOCKET_LAPSE, *(n for _, n in sets)])
            added = None if answer is None else bool(int(answer))
            if added is None:  # without Redis: this process's own sockets
                local = self._local.sets
                first = len(local.get(keys[0], ()))
                added = all(len(local.get(key, ())) < abs(n) or (n < 0 and first == 0)
                            for key, (_, n) in zip(keys, sets, strict=True))
        if added is False:
            raise TooManyRequests(what, retry_after=SOCKET_RENEW)
        for key in keys:
            self._local.sets.setdefault(key, {})[member] = 0.0
        self._members[member] = keys
        return member

    async def open_spectator(self, client: str) -> str:
        """Count a new spectator socket of ``client``; returns its id for
        :meth:`close_socket`.

        Raises:
            TooManyRequests: the client, or everyone, has as many as allowed.
        """
        per, total = self.config.spectators_per_client, self.config.spectators
        # The total holds for the addresses that have a spectator socket already: a new
        # one always gets its first.
        return await self._open([(f"ws:{client}", per), ("ws:*", -total)],
                                f"too many spectator connections: at most {per} from one "
                                f"address and {total} in all (an address's first is "
                                "always let in)")

    async def open_seat(self, token: str) -> str:
        """Count a new socket of the seat token whose hash is ``token``.

        Raises:
            TooManyRequests: the token has as many as allowed.
        """
        per = self.config.sockets_per_seat
        return await self._open([(f"seat:{token}", per)],
                                f"too many connections for this seat token: at most {per}")

    async def close_socket(self, member: str) -> None:
        keys = self._members.pop(member, None)
        if keys is None:
            return
        for key in keys:
            sockets = self._local.sets.get(key)
            if sockets is not None:
                sockets.pop(member, None)
                if not sockets:
                    del self._local.sets[key]
        if self.redis is not None and keys:
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for key in keys:
                        pipe.zrem(key, member)
                    await pipe.execute()
            except Exception as exc:
                self._redis_failed(exc)

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(SOCKET_RENEW)
            if not self._members:
                continue
            keys: list[str] = []
            index: dict[str, int] = {}
            args: list[Any] = [SOCKET_LAPSE]
            for member, sets in self._members.items():
                for key in sets:
                    if key not in index:
                        keys.append(key)
                        index[key] = len(keys)
                    args += [index[key], member]
            await self._script("renew", keys, args)

    # -- bot tables ----------------------------------------------------------------------------

    async def bot_table(self, client: str,
                        unfinished: Callable[[list[int]], Awaitable[Iterable[int]]],
                        create: Callable[[], Awaitable[int]]) -> int:
        """Run ``create`` (which opens a table with a bot seat and returns its id) if
        ``client`` has fewer than ``bot_tables_per_client`` bot tables running;
        ``unfinished`` tells which of some table ids are not finished.

        Raises:
            TooManyRequests: the address runs as many bot tables as allowed.
        """
        cap = self.config.bot_tables_per_client
        if cap <= 0:
            return await create()
        key = f"bots:{client}"
        full = f"{_PREFIX}{key}"
        running = await self._bot_members(full)
        ids = [int(m) for m in running if m.isdigit()]
        if len(running) >= cap and ids:
            done = set(ids) - set(await unfinished(ids))
            await self._forget(full, [str(i) for i in done])
        place = await self._open_until(full, cap, BOT_TABLE_LAPSE,
                                       f"too many bot tables running: at most {cap} from one "
                                       "address at a time (they count until they finish)")
        try:
            table_id = await create()
        except BaseException:
            await self._forget(full, [place])
            raise
        await self._forget(full, [place])
        await self._add(full, str(table_id), BOT_TABLE_LAPSE)
        return table_id

    async def _bot_members(self, key: str) -> list[str]:
        """The set's members (lapsed ones too: ``_OPEN`` drops those, on Redis's clock)."""
        if self.redis is not None:
            try:
                members = await self.redis.zrange(key, 0, -1)
                return [m.decode() if isinstance(m, bytes) else str(m) for m in members]
            except Exception as exc:
                self._redis_failed(exc)
        stamp = time.monotonic()
        local = self._local.sets.get(key, {})
        return [m for m, until in local.items() if until > stamp]

    async def _forget(self, key: str, members: list[str]) -> None:
        if not members:
            return
        for member in members:
            self._local.sets.get(key, {}).pop(member, None)
        if self.redis is not None:
            try:
                await self.redis.zrem(key, *members)
            except Exception as exc:
                self._redis_failed(exc)

    async def _add(self, key: str, member: str, lapse: float) -> None:
        self._local.sets.setdefault(key, {})[member] = time.monotonic() + lapse
        await self._script("open", [key], [member, lapse, 1 << 30])

    async def _open_until(self, key: str, cap: int, lapse: float, what: str) -> str:
        """A placeholder member of the set ``key`` while there is room (atomic in
        Redis: two processes cannot both take the last place)."""
        self._counter += 1
        member = f"{self.origin}:{self._counter}"
        answer = await self._script("open", [key], [member, lapse, cap])
        if answer is None:
            stamp = time.monotonic()
            local = self._local.sets.setdefault(key, {})
            for name in [m for m, until in local.items() if until <= stamp]:
                del local[name]
            added = len(local) < cap
            if added:
                local[member] = stamp + lapse
        else:
            added = bool(int(answer))
        if not added:
            raise TooManyRequests(what, retry_after=5.0)
        return member


def client_address(scope: Mapping[str, Any]) -> str:
    """The client's address as the server sees it (behind a trusted proxy, the one the
    proxy names: ``serve --forwarded-allow-ips``)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"
