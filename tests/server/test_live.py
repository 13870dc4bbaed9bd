"""WebSocket live updates: sync, patches that rebuild the view, reconnects."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from meeplehall.core.rng import Rng
from meeplehall.server.patch import apply_patch
from tests.server.helpers import bearer, hotseat


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
            state = client.get(f"/api/tables/{table}/view").json()
            if state["finished"]:
                break
            token = tokens[state["to_move"]]
            legal = client.get(f"/api/tables/{table}/legal", headers=bearer(token)).json()
            choice = legal["actions"][rng.randbelow(len(legal["actions"]))]["text"]
            reply = client.post(f"/api/tables/{table}/actions", headers=bearer(token),
                                json={"action": choice, "seq": legal["seq"]})
            seq = reply.json()["seq"]
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
