"""JSON text for the hot paths of the server (moves and live updates): orjson, several
times cheaper than the standard library per message, with the standard library where
orjson refuses a value (an integer beyond 64 bits) so that the output never depends on
which library made it beyond whitespace."""

from __future__ import annotations

import json
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps_bytes(value: Any) -> bytes:
    """``value`` as compact UTF-8 JSON."""
    try:
        return orjson.dumps(value, option=_OPTIONS)
    except TypeError:  # orjson.JSONEncodeError: an integer beyond 64 bits, say
        return json.dumps(value, ensure_ascii=False, allow_nan=False,
                          separators=(",", ":")).encode("utf-8")


def dumps_text(value: Any) -> str:
    """``value`` as compact JSON text (WebSocket text frames)."""
    return dumps_bytes(value).decode("utf-8")


def loads(data: bytes | str) -> Any:
    """Parse JSON; raises ``ValueError`` (``json.JSONDecodeError`` is one) when malformed."""
    return orjson.loads(data)
