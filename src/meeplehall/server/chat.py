"""Table chat: short messages of a table's seats, stored with the table.

A seat writes with its token (``POST /api/tables/{id}/chat``); every seat reads, and
spectators read too where the creator allowed it (``spectator_chat``: chosen at
creation). A message is 1 to :data:`MAX_CHAT` characters after trimming, one line, with
no control or invisible characters; it is stored and sent as it was written, as text:
clients show it as text, never as markup (the browser uses ``textContent``), and no
client translates it. A seat the host muted is refused with a message saying so. Each
seat and each address may write :data:`CHAT_RATE` messages per second in bursts
(``meeplehall.server.limits``, kind ``chat``, shared through Redis).

Messages reach the live sockets as ``{"type": "chat", "message": ...}`` frames (in every
process, through Redis); a sync frame carries the last :data:`CHAT_TAIL` of them, and
``GET /api/tables/{id}/chat?before=ID`` gives earlier ones in pages.
"""

from __future__ import annotations

import unicodedata
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.engine import Connection

from meeplehall.server.db import ChatRow
from meeplehall.server.errors import Forbidden, Invalid
from meeplehall.server.live_table import Live
from meeplehall.server.service import TableService, aware

MAX_CHAT = 500  # characters a chat message may have after trimming
CHAT_TAIL = 50  # messages a sync frame carries
CHAT_PAGE = 100  # messages a page of GET /chat carries at most
CHAT_RATE = "1 per second, bursts of 5, per seat and per address"
_REFUSED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def clean_chat(value: str) -> str:
    """``value`` trimmed, or ``ValueError`` saying why it cannot be a chat message."""
    text = value.strip()
    if not text:
        raise ValueError("a chat message must have at least one character that is not "
                         "a space")
    if len(text) > MAX_CHAT:
        raise ValueError(f"a chat message has at most {MAX_CHAT} characters (this one has "
                         f"{len(text)})")
    for char in text:
        if unicodedata.category(char) in _REFUSED:
            raise ValueError(f"a chat message may not contain the character "
                             f"U+{ord(char):04X} (control and invisible characters, line "
                             "breaks included, are refused)")
    return text


def may_read(live: Live, seat: int | None) -> bool:
    """Whether ``seat`` (None: a spectator) may read the table's chat."""
    return seat is not None or live.settings.spectator_chat


def message_json(row: Any) -> dict[str, Any]:
    stamp: datetime = aware(row.created_at)  # type: ignore[assignment]
    return {"id": int(row.id), "seat": int(row.seat), "name": row.name, "text": row.text,
            "at": stamp.isoformat()}


class TableChat:
    """Writes and reads the chat of tables (the delivery to sockets is the hub's)."""

    def __init__(self, service: TableService) -> None:
        self.service = service

    async def post(self, live: Live, seat: int, text: str, stamp: datetime) -> dict[str, Any]:
        """Store a message of ``seat`` (checked: trimmed, limited, not muted).

        Raises:
            Invalid: the text is empty, too long or holds a refused character.
            Forbidden: the host muted the seat.
        """
        try:
            text = clean_chat(text)
        except ValueError as exc:
            raise Invalid(str(exc)) from None
        info = live.seats[seat]
        if info.muted:
            raise Forbidden(f"the host muted the chat of seat {seat}: its messages are "
                            "refused until the host unmutes it")
        row = await self.service.write(_insert, live.table_id, seat, info.name, text, stamp)
        return message_json(row)

    async def page(self, table_id: int, before: int | None, limit: int) -> list[dict[str, Any]]:
        """The ``limit`` messages before message id ``before`` (None: the newest),
        oldest first."""
        rows = await self.service.read(_page, table_id, before, limit)
        return [message_json(r) for r in reversed(rows)]


def _insert(conn: Connection, table_id: int, seat: int, name: str | None, text: str,
            stamp: datetime) -> Any:
    return conn.execute(insert(ChatRow).values(
        table_id=table_id, seat=seat, name=name, text=text, created_at=stamp)
        .returning(ChatRow.id, ChatRow.seat, ChatRow.name, ChatRow.text,
                   ChatRow.created_at)).one()


def _page(conn: Connection, table_id: int, before: int | None, limit: int) -> list[Any]:
    query = select(ChatRow.id, ChatRow.seat, ChatRow.name, ChatRow.text, ChatRow.created_at
                   ).where(ChatRow.table_id == table_id)
    if before is not None:
        query = query.where(ChatRow.id < before)
    return list(conn.execute(query.order_by(ChatRow.id.desc()).limit(limit)).all())
