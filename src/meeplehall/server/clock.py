"""The server's clock for everything measured in hours and days: turn deadlines,
reminders, sign-in links, sessions.

Every such time is stored as an absolute UTC instant in the database, so deadlines and
reminders survive a restart of every process; the clock only says what time it is now.
Tests and simulated days inject a :class:`ManualClock` (or, across processes, a
:class:`FileClock` whose offset a test moves forward); production uses
:class:`SystemClock`. Short waits (rate limits, leases, socket pings) keep the monotonic
clock and the database's clock; they are not this module's.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Protocol


class Clock(Protocol):
    """What time it is, as an aware UTC datetime."""

    def now(self) -> datetime: ...


class SystemClock:
    """The host's clock."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class ManualClock:
    """A clock that stands still until told to move (one process's tests)."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start if start is not None else datetime.now(UTC)
        if self._now.tzinfo is None:
            raise ValueError("ManualClock needs an aware datetime (UTC)")
        self._lock = threading.Lock()

    def now(self) -> datetime:
        with self._lock:
            return self._now

    def advance(self, delta: timedelta | float) -> datetime:
        """Move forward by ``delta`` (a timedelta, or seconds); returns the new time."""
        step = delta if isinstance(delta, timedelta) else timedelta(seconds=delta)
        if step < timedelta(0):
            raise ValueError("a clock does not go back")
        with self._lock:
            self._now += step
            return self._now


class FileClock:
    """The host's clock plus an offset in seconds read from a file (absent or empty: 0).

    Several server processes started with the same file share one simulated time: a
    test writes a larger offset to move every process's days forward at once.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def offset(self) -> float:
        try:
            text = self.path.read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            return 0.0
        if not text:
            return 0.0
        try:
            return float(text)
        except ValueError:
            raise ValueError(f"the clock file {self.path} must hold a number of "
                             f"seconds, not {text[:40]!r}") from None

    def now(self) -> datetime:
        return datetime.now(UTC) + timedelta(seconds=self.offset())

    def advance(self, seconds: float) -> None:
        """Add ``seconds`` to the offset (a test's helper; the server only reads it)."""
        if seconds < 0:
            raise ValueError("a clock does not go back")
        self.path.write_text(f"{self.offset() + seconds:.3f}\n", encoding="utf-8")
