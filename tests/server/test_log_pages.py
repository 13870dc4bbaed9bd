"""A sync frame carries the end of a long game's log only; the earlier entries come in
pages of ``GET /tables/{id}/log``, and the view rebuilt from both equals the server's."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeplehall.core.rng import Rng
from meeplehall.server import live as live_module
from meeplehall.server.patch import apply_patch
from tests.server.helpers import bearer, hotseat, random_move


def _pages(client: TestClient, table: int, before: int, token: str | None,
           limit: int) -> list[Any]:
    head: list[Any] = []
    headers = bearer(token) if token else {}
    while before > 0:
        page = client.get(f"/api/tables/{table}/log?before={before}&limit={limit}",
                          headers=headers)
        assert page.status_code == 200, page.text
        body = page.json()
        assert body["from"] == max(0, before - limit) and len(body["log"]) == before - body["from"]
        head = body["log"] + head
        before = body["from"]
    return head


@pytest.mark.parametrize("game", ["red-cathedral", "praga"])
def test_a_sync_frame_has_the_logs_tail_and_pages_give_the_rest(
        client: TestClient, monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    monkeypatch.setattr(live_module, "LOG_TAIL", 7)
    options = {"players": 2, "round_limit": 10} if game == "red-cathedral" else {"players": 2}
    table, tokens = hotseat(client, seed=4, game=game, options=options)
    rng = Rng.from_seed(2)
    for _ in range(25):
        random_move(client, table, tokens, rng)
    for token in (None, tokens[1]):
        full = client.get(f"/api/tables/{table}/{'me' if token else 'view'}",
                          headers=bearer(token) if token else {}).json()["view"]
        assert len(full["log"]) > 7
        with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
            ws.send_json({"token": token})
            sync = ws.receive_json()
            assert sync["type"] == "sync"
            view = sync["view"]
            base = sync["log_base"]
            assert base == len(full["log"]) - 7 and view["log"] == full["log"][base:]
            assert sync["log_from"] == base and sync["log"] == full["log"][base:]
            if "state" in full and "log" in full["state"]:  # Praga's bot-only state
                assert view["state"]["log"] == full["state"]["log"][base:]
            head = _pages(client, table, base, token, limit=3)
            view["log"] = head + view["log"]
            if "state" in full and "log" in full["state"]:
                view["state"]["log"] = head + view["state"]["log"]
            assert view == full
            # The updates after it apply to the whole view.
            seq = random_move(client, table, tokens, rng)
            while True:
                message = ws.receive_json()
                view = apply_patch(view, message["patch"])
                if message["seq"] == seq:
                    break
        now = client.get(f"/api/tables/{table}/{'me' if token else 'view'}",
                         headers=bearer(token) if token else {}).json()["view"]
        assert view == now


def test_log_pages_are_checked_and_limited(client: TestClient) -> None:
    table, tokens = hotseat(client)
    assert client.get(f"/api/tables/{table}/log?limit=0").status_code == 422
    assert client.get(f"/api/tables/{table}/log?limit=201").status_code == 422
    assert client.get(f"/api/tables/{table}/log?before=-1").status_code == 422
    assert client.get(f"/api/tables/{table}/log", headers=bearer("forged")).status_code == 401
    assert client.get("/api/tables/999999/log").status_code == 404
    page = client.get(f"/api/tables/{table}/log?before=1000").json()
    assert page["from"] == 0 and page["total"] == len(page["log"])
    assert page["seat"] is None
    mine = client.get(f"/api/tables/{table}/log", headers=bearer(tokens[0])).json()
    assert mine["seat"] == 0


def test_the_sync_frame_of_a_long_game_is_small(client: TestClient) -> None:
    """A game of 2,700 moves: its view is over half a megabyte (its log has about 3,000
    entries), its sync frame a tenth of that (the last 100)."""
    from tools.bench_hostile import long_record

    made = client.post("/api/tables/import", json={"record": long_record(),
                                                   "seats": ["human", "human"]})
    assert made.status_code == 201, made.text
    table = made.json()["id"]
    view = client.get(f"/api/tables/{table}/view")
    assert len(view.json()["view"]["log"]) > 1000
    with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
        ws.send_json({"token": None})
        frame = ws.receive_text()
    sync = json.loads(frame)
    assert len(sync["view"]["log"]) == live_module.LOG_TAIL == 100
    assert len(frame.encode()) < min(100_000, len(view.content) // 5)
