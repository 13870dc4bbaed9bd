"""Notices: what a person at a table may want to be told outside the open tab.

The parts of the server that know something happened publish a :class:`Notice` on the
app's :class:`Notices`; the parts that deliver them (e-mail, webhooks, the browser)
subscribe. A notice is raised by the one process that made it happen (the one that
committed the move, the one that claimed the deadline), once; a deliverer that must send
at most one message per turn keys what it sent by :attr:`Notice.key`, in the database,
so that a second process or a restart does not send it again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

log = logging.getLogger(__name__)

# your-turn: the seat has a decision to make; reminder: its turn deadline is near;
# stand-in: past the deadline a bot moved for it (the seat sees who played).
NoticeKind = Literal["your-turn", "reminder", "stand-in"]


@dataclass(frozen=True, slots=True)
class Notice:
    """Something to tell seat ``seat`` of table ``table_id``.

    ``seq`` is the table's newest history entry when the notice was raised: one turn
    of one seat has one ``seq``, so ``key`` names a turn's notice of a kind.
    """

    kind: NoticeKind
    table_id: int
    seat: int
    seq: int
    at: datetime
    game: str
    deadline: datetime | None = None  # the seat's turn deadline, where the table has one

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.table_id}:{self.seat}:{self.seq}"


Subscriber = Callable[[Notice], None]


class Notices:
    """The app's notice bus: publish calls every subscriber, in order, on the caller's
    thread; a subscriber that raises is logged and never stops the others (nor the move
    or the deadline that raised the notice)."""

    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []

    def subscribe(self, fn: Subscriber) -> None:
        self._subscribers.append(fn)

    def publish(self, notice: Notice) -> None:
        for fn in self._subscribers:
            try:
                fn(notice)
            except Exception:
                log.exception("notice subscriber failed for %s", notice.key)
