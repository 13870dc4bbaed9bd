"""Webhooks: an HTTPS POST of a small JSON body when it is a seat's turn.

A URL is accepted only with ``https`` and a host that resolves to public addresses
alone (no loopback, private, link-local, reserved or multicast address), so that a
player cannot make the server call into the operator's own network; the operator may
allow other URLs (``meeplehall serve --webhook-allow-private``: tests, a relay on the
same host). The check runs when the URL is given and again before each delivery (the
name may resolve elsewhere by then). A delivery waits :data:`WEBHOOK_TIMEOUT` seconds
at most and follows no redirect.
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Any
from urllib.parse import urlsplit

import httpx

WEBHOOK_TIMEOUT = 5.0  # seconds for the whole POST
MAX_URL = 2048


class BadWebhook(ValueError):
    """A webhook URL the server will not call; the message says why."""


def check_url(url: str, allow_private: bool) -> str:
    """``url`` when the server may POST to it.

    Raises:
        BadWebhook: not an absolute http(s) URL, not https (unless allowed), or its host
            resolves to a non-public address (unless allowed), or does not resolve.
    """
    if not isinstance(url, str) or not url or len(url) > MAX_URL:
        raise BadWebhook(f"a webhook is a URL of at most {MAX_URL} characters")
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise BadWebhook("a webhook must be an absolute https:// URL")
    if parts.username or parts.password:
        raise BadWebhook("a webhook URL must not hold a user or password")
    if allow_private:
        return url
    if parts.scheme != "https":
        raise BadWebhook("a webhook must use https://")
    try:
        infos = socket.getaddrinfo(parts.hostname, parts.port or 443, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise BadWebhook(f"the webhook's host {parts.hostname!r} does not resolve") from None
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%")[0])
        if not address.is_global or address.is_multicast:
            raise BadWebhook(f"the webhook's host {parts.hostname!r} resolves to a "
                             "non-public address, which this server does not call")
    return url


def post(url: str, body: dict[str, Any], allow_private: bool) -> int:
    """POST ``body`` as JSON to ``url`` (blocking); returns the HTTP status.

    Raises:
        BadWebhook: the URL is no longer acceptable.
        httpx.HTTPError: no answer in time, or the connection failed.
    """
    check_url(url, allow_private)
    with httpx.Client(timeout=WEBHOOK_TIMEOUT, follow_redirects=False) as client:
        reply = client.post(url, json=body, headers={"User-Agent": "meeplehall"})
    return reply.status_code
