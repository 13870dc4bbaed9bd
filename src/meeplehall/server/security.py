"""Seat tokens and the request body size limit (the move rate: ``server.limits``)."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Iterable
from typing import Any

from starlette.exceptions import HTTPException

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
