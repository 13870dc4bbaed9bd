"""Bot seats: a failing or slow bot is replaced for that move; the table finishes."""

from __future__ import annotations

import time
from typing import Any

import pytest

from meeplehall.ai.base import BOTS
from tests.server.conftest import make_client
from tests.server.helpers import QUICK, new_table, wait_finished


class _Broken:
    kind = "broken"

    def choose(self, game: Any, view: Any, legal: Any) -> Any:
        raise RuntimeError(f"cannot think about {view['state']}")


class _Slow:
    kind = "slow"

    def choose(self, game: Any, view: Any, legal: Any) -> Any:
        time.sleep(0.5)
        return legal[0]


class _Cheat:
    kind = "cheat"

    def choose(self, game: Any, view: Any, legal: Any) -> Any:
        return "take-everything"


def test_failing_bots_are_replaced_by_the_random_bot(sqlite_url: str,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setitem(BOTS, "broken", lambda seed: _Broken())
    monkeypatch.setitem(BOTS, "slow", lambda seed: _Slow())
    monkeypatch.setitem(BOTS, "cheat", lambda seed: _Cheat())
    with make_client(sqlite_url, bot_think_time=0.1) as client:
        tables = [new_table(client, seats, options=dict(QUICK, round_limit=3))["id"]
                  for seats in (["broken", "random"], ["slow", "cheat"])]
        for table in tables:
            final = wait_finished(client, table)
            assert final["outcome"] is not None
            with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
                ws.send_json({"token": None})
                notes = [n["text"] for n in ws.receive_json()["notes"]]
            assert notes and all("random bot moved instead" in n for n in notes)
        assert any("raised RuntimeError" in n for n in notes + [r.message for r in caplog.records])
    texts = " ".join(r.getMessage() for r in caplog.records)
    assert "failed" in texts and "cannot think about" not in texts  # no view in the log


class _Steady:
    kind = "steady"

    def choose(self, game: Any, view: Any, legal: Any) -> Any:
        time.sleep(0.15)
        return legal[0]


def test_think_time_runs_from_when_a_worker_takes_the_bot(sqlite_url: str,
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          caplog: pytest.LogCaptureFixture
                                                          ) -> None:
    """One worker, three bots' tables at once: each bot thinks 0.15 s of its 0.25 s, so a
    bot queued behind the other two (0.3 s of waiting) still answers in time and no move
    is handed to the random bot."""
    monkeypatch.setitem(BOTS, "steady", lambda seed: _Steady())
    with make_client(sqlite_url, bot_think_time=0.25, bot_workers=1) as client:
        tables = [new_table(client, ["steady", "steady"], seed=seed)["id"]
                  for seed in (1, 2, 3)]
        deadline = time.monotonic() + 120
        while min(client.get(f"/api/tables/{t}/view").json()["seq"] for t in tables) < 6:
            assert time.monotonic() < deadline, "the bots did not move"
            time.sleep(0.1)
        for table in tables:
            with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
                ws.send_json({"token": None})
                assert ws.receive_json()["notes"] == []
    assert not any("failed" in r.getMessage() for r in caplog.records)
