"""Security headers on every HTTP answer: the content security policy, frame protection,
``nosniff`` and the referrer policy.

The browser client is files served from ``/static`` only: no inline script anywhere, so
``script-src 'self'``. Styles come from the stylesheets, plus two inline kinds the board
drawings use: Praga's SVG board carries one constant ``<style>`` element (allowed by its
SHA-256 hash, read from ``praga.js`` at start, so an edit of it stays allowed), and
elements get colours from the game state through ``style`` attributes
(``style-src-attr 'unsafe-inline'``: an attribute's styles cannot run script). The API
documentation page (``/docs``, Swagger UI) has a policy of its own: its scripts and
styles come from the CDN that FastAPI names, and its one inline script is allowed by
hash.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

STATIC = Path(__file__).resolve().parents[1] / "web" / "static"
_STYLE_CONST = re.compile(r"\nconst STYLE = `([^`\\$]*)`;", re.S)


def sha256_source(text: str) -> str:
    """A CSP hash source (``'sha256-...'``) for an inline element holding ``text``."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


def inline_style_hashes() -> list[str]:
    """Hash sources of the constant ``<style>`` elements the board modules draw."""
    sources = []
    for path in sorted((STATIC / "js" / "games").glob("*.js")):
        for match in _STYLE_CONST.finditer(path.read_text(encoding="utf-8")):
            sources.append(sha256_source(match.group(1)))
    return sources


def content_security_policy(style_hashes: list[str]) -> str:
    """The policy of the client and the API."""
    styles = " ".join(["'self'", *style_hashes])
    return "; ".join([
        "default-src 'self'", "script-src 'self'", f"style-src {styles}",
        f"style-src-elem {styles}", "style-src-attr 'unsafe-inline'",
        "img-src 'self' data:", "connect-src 'self'", "font-src 'self'",
        "object-src 'none'", "base-uri 'none'", "form-action 'self'",
        "frame-ancestors 'none'"])


def docs_policy(inline_script: str, cdn: str = "https://cdn.jsdelivr.net") -> str:
    """The policy of ``/docs``: Swagger UI from ``cdn`` and its one inline script."""
    return "; ".join([
        "default-src 'self'", f"script-src {cdn} {sha256_source(inline_script)}",
        f"style-src {cdn}", "img-src 'self' data: https://fastapi.tiangolo.com",
        "connect-src 'self'", "object-src 'none'", "base-uri 'none'",
        "frame-ancestors 'none'"])


def inline_scripts(html: str) -> list[str]:
    """The bodies of the inline ``<script>`` elements of ``html``."""
    return re.findall(r"<script>(.*?)</script>", html, re.S)


def security_headers(policy: str) -> list[tuple[bytes, bytes]]:
    """The headers every answer gets (``Content-Security-Policy`` unless it has its own)."""
    return [(b"content-security-policy", policy.encode()),
            (b"x-frame-options", b"DENY"),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"same-origin")]


Send = Callable[[dict[str, Any]], Awaitable[None]]


def with_headers(send: Send, headers: Sequence[tuple[bytes, bytes]]) -> Send:
    """``send`` adding ``headers`` to the response's start (a header the response sets
    itself, such as its own policy, is kept)."""

    async def sending(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            own = message.get("headers") or []
            names = {name.lower() for name, _ in own}
            extra = [h for h in headers if h[0] not in names]
            message = {**message, "headers": [*own, *extra]}
        await send(message)

    return sending
