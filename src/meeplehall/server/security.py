"""Seat tokens, per-token move rate limits and the request body size limit."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Iterable
from typing import Any

from starlette.exceptions import HTTPException

from meeplehall.server.errors import TooManyRequests

TOKEN_BYTES = 32  # 256 bits


def new_token() -> str:
    """A fresh seat token: 256 random bits, URL-safe text."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    """What the database stores: SHA-256 of the token (tokens are random, so no salt)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def match_token(token: str, hashes: Iterable[tuple[int, str | None]]) -> int | None:
    """The seat whose stored hash matches ``token``, compared in constant time."""
    digest = hash_token(token)
    found: int | None = None
    for seat, stored in hashes:
        # Compare against every seat, so the time does not depend on which one matches.
        if stored is not None and hmac.compare_digest(digest, stored):
            found = seat
    return found


class RateLimiter:
    """A token bucket per key: ``rate`` moves per second, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, tuple[float, float]] = {}

    def check(self, key: str) -> None:
        """Take one unit for ``key``.

        Raises:
            TooManyRequests: the bucket is empty; ``retry_after`` says when to try again.
        """
        if self.rate <= 0:
            return
        stamp = time.monotonic()
        if len(self._buckets) > 100_000:
            self._buckets.clear()
        level, last = self._buckets.get(key, (float(self.burst), stamp))
        level = min(float(self.burst), level + (stamp - last) * self.rate)
        if level < 1.0:
            wait = (1.0 - level) / self.rate
            self._buckets[key] = (level, stamp)
            raise TooManyRequests(
                f"too many moves for this seat token: at most {self.rate:g} per second "
                f"(bursts of {self.burst})", retry_after=round(wait, 3))
        self._buckets[key] = (level - 1.0, stamp)


class BodySizeLimit:
    """ASGI middleware: a request body over ``limit`` bytes gets ``413``."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    size = int(value)
                except ValueError:
                    await self._reject(send, 400, "the Content-Length header is not a number")
                    return
                if size > self.limit:
                    await self._reject(send, 413, self._message())
                    return
                # The server reads exactly Content-Length bytes of body, so no more can
                # arrive: no need to count them (the common case, and the cheap one).
                await self.app(scope, receive, send)
                return
        seen = 0
        started = False

        async def guarded_receive() -> Any:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge(413, self._message())
            return message

        async def tracking_send(message: Any) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, guarded_receive, tracking_send)
        except _TooLarge:
            if not started:
                await self._reject(send, 413, self._message())

    def _message(self) -> str:
        return f"the request body is larger than the limit of {self.limit} bytes"

    @staticmethod
    async def _reject(send: Any, status: int, detail: str) -> None:
        body = json.dumps({"detail": detail}).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


class _TooLarge(HTTPException):
    """Raised from inside body reading; FastAPI answers it as its status (413)."""
