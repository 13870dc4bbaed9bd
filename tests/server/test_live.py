"""WebSocket live updates: sync, patches that rebuild the view, reconnects."""

from __future__ import annotations

import contextlib
from typing import Any

from fastapi.testclient import TestClient

from meeplehall.core.rng import Rng
from meeplehall.server.patch import apply_patch
from tests.server.helpers import bearer, hotseat, random_move


def _receive_until(ws: Any, seq: int) -> list[dict[str, Any]]:
    got = []
    while True:
        message = ws.receive_json()
        got.append(message)
        if message.get("seq", -1) >= seq:
            return got


def test_updates_rebuild_each_clients_view_and_log(client: TestClient) -> None:
    table, tokens = hotseat(client, seed=8)
    rng = Rng.from_seed(3)
    url = f"/api/tables/{table}/ws"
    with client.websocket_connect(url) as seat0, client.websocket_connect(url) as watcher:
        seat0.send_json({"token": tokens[0], "since": None})
        watcher.send_json({"token": None})
        views = {}
        logs: dict[str, list[str]] = {}
        for name, ws in (("seat0", seat0), ("watcher", watcher)):
            sync = ws.receive_json()
            assert sync["type"] == "sync" and sync["seq"] == 0
            views[name] = sync["view"]
            logs[name] = list(sync["log"])
        assert views["seat0"]["seat"] == 0 and views["watcher"]["seat"] is None
        for _ in range(30):
            seq = random_move(client, table, tokens, rng)
            if seq is None:
                break
            for name, ws in (("seat0", seat0), ("watcher", watcher)):
                for message in _receive_until(ws, seq):
                    assert message["type"] == "update"
                    views[name] = apply_patch(views[name], message["patch"])
                    logs[name] = logs[name][:message["log_from"]] + message["log"]
                    if name == "seat0" and message["your_turn"]:
                        assert message["legal"]
            mine = client.get(f"/api/tables/{table}/me", headers=bearer(tokens[0])).json()
            public = client.get(f"/api/tables/{table}/view").json()
            assert views["seat0"] == mine["view"] and views["watcher"] == public["view"]
            assert logs["seat0"] == mine["view"]["log"] == logs["watcher"]


def test_reconnect_gets_the_current_view_and_the_log_since(client: TestClient) -> None:
    table, tokens = hotseat(client, seed=12)
    rng = Rng.from_seed(1)
    seen_log: list[str] = []
    for step in range(12):
        state = client.get(f"/api/tables/{table}/view").json()
        token = tokens[state["to_move"]]
        legal = client.get(f"/api/tables/{table}/legal", headers=bearer(token)).json()
        choice = legal["actions"][rng.randbelow(len(legal["actions"]))]["text"]
        client.post(f"/api/tables/{table}/actions", headers=bearer(token),
                    json={"action": choice, "seq": legal["seq"]})
        if step == 5:
            seen = client.get(f"/api/tables/{table}/me", headers=bearer(tokens[1])).json()
            seen_seq, seen_log = seen["seq"], seen["view"]["log"]
    now = client.get(f"/api/tables/{table}/me", headers=bearer(tokens[1])).json()
    with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
        ws.send_json({"token": tokens[1], "since": seen_seq})
        sync = ws.receive_json()
    assert sync["type"] == "sync" and sync["seq"] == now["seq"] and sync["view"] == now["view"]
    assert sync["log_from"] == len(seen_log)
    assert seen_log + sync["log"] == now["view"]["log"]


def test_bad_hellos_are_refused(client: TestClient) -> None:
    table, _ = hotseat(client)
    for hello in ({"token": "forged"}, {"since": "yesterday"}, ["token"]):
        with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
            ws.send_json(hello)
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["status"] in (401, 422)
    with client.websocket_connect("/api/tables/999/ws") as ws:
        ws.send_json({"token": None})
        assert ws.receive_json()["status"] == 404



def test_watchers_share_updates_and_each_still_rebuilds_its_view(client: TestClient) -> None:
    """Connections that last saw the same view get one shared update message; one that
    joined later (another previous view) gets its own, and every view rebuilds."""
    table, tokens = hotseat(client, seed=5)
    rng = Rng.from_seed(9)
    url = f"/api/tables/{table}/ws"
    service = client.app.state.service  # type: ignore[attr-defined]
    with contextlib.ExitStack() as stack:
        watchers = {name: stack.enter_context(client.websocket_connect(url))
                    for name in ("first", "second")}
        views: dict[str, Any] = {}
        for name, ws in watchers.items():
            ws.send_json({"token": None})
            views[name] = ws.receive_json()["view"]
        shared = 0
        for step in range(10):
            seq = random_move(client, table, tokens, rng)
            if seq is None:
                break
            got = {name: _receive_until(ws, seq) for name, ws in watchers.items()}
            for name, messages in got.items():
                for message in messages:
                    views[name] = apply_patch(views[name], message["patch"])
            if got["first"] == got["second"]:
                live = service.cached(table)
                shared += any(key[0] is None for key in live.messages)
            public = client.get(f"/api/tables/{table}/view").json()["view"]
            assert all(view == public for view in views.values()), step
            if step == 3:  # a latecomer: its previous view is not the others'
                late = stack.enter_context(client.websocket_connect(url))
                late.send_json({"token": None})
                watchers["late"] = late
                views["late"] = late.receive_json()["view"]
        assert shared > 0 and "late" in views
