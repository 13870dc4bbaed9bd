"""The server's injected clock and its notice bus (the ground of turn deadlines,
reminders and notifications)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from meeplehall.server.clock import FileClock, ManualClock, SystemClock
from meeplehall.server.notices import Notice, Notices


def test_manual_clock_moves_only_forward_and_only_when_told() -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    clock = ManualClock(start)
    assert clock.now() == start
    assert clock.advance(timedelta(days=2)) == start + timedelta(days=2)
    assert clock.advance(30) == start + timedelta(days=2, seconds=30)
    with pytest.raises(ValueError, match="does not go back"):
        clock.advance(-1)
    with pytest.raises(ValueError, match="aware"):
        ManualClock(datetime(2026, 1, 1))


def test_file_clock_shares_an_offset_and_refuses_garbage(tmp_path) -> None:
    path = tmp_path / "clock"
    clock = FileClock(path)
    assert abs((clock.now() - SystemClock().now()).total_seconds()) < 5
    clock.advance(86_400)
    other = FileClock(path)  # another process reading the same file
    assert 86_390 < (other.now() - SystemClock().now()).total_seconds() < 86_410
    path.write_text("tomorrow")
    with pytest.raises(ValueError, match="number of seconds"):
        other.now()


def test_a_failing_subscriber_does_not_stop_the_others() -> None:
    notices = Notices()
    got: list[str] = []

    def broken(_n: Notice) -> None:
        raise RuntimeError("mail relay down")

    notices.subscribe(broken)
    notices.subscribe(lambda n: got.append(n.key))
    notice = Notice("your-turn", 7, 1, 42, datetime(2026, 1, 1, tzinfo=UTC), "praga")
    notices.publish(notice)
    assert got == ["your-turn:7:1:42"]
