"""Strict input: request bodies take the JSON types they name, and a WebSocket closes
cleanly on any malformed message, however deep."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from meeplehall.core.record import GameRecord
from tests.server.helpers import GAME, QUICK, hotseat, new_table


@pytest.mark.parametrize(("options", "field"), [
    ({"players": "2"}, "options.players"),
    ({"players": 2.0}, "options.players"),
    ({"players": True}, "options.players"),
    ({"players": 2, "allow_pass": "true"}, "options.allow_pass"),
    ({"players": 2, "allow_pass": 1}, "options.allow_pass"),
    ({"players": 2, "end_bonus_unit": ["pp"]}, "options.end_bonus_unit"),
])
def test_option_values_must_have_their_json_type(sqlite_url: str, options: dict[str, object],
                                                 field: str) -> None:
    from tests.server.conftest import make_client

    with make_client(sqlite_url) as client:
        reply = client.post("/api/tables", json={"game": GAME, "options": options})
        assert reply.status_code == 422, reply.text
        assert field in reply.json()["detail"]
        assert client.get("/api/tables").json()["tables"] == []
        # The same options with their proper types are accepted.
        fixed = {"players": 2, "allow_pass": True, "end_bonus_unit": "pp"}
        good = {k: fixed[k] for k in options}
        assert client.post("/api/tables", json={"game": GAME, "options": good}).status_code == 201


def test_other_body_fields_are_strict(sqlite_url: str) -> None:
    from tests.server.conftest import make_client

    with make_client(sqlite_url) as client:
        table, tokens = hotseat(client)
        for body in ({"game": GAME, "seed": "7"}, {"game": GAME, "seats": "human"},
                     {"game": 3}, {"game": GAME, "extra": 1}):
            assert client.post("/api/tables", json=body).status_code == 422, body
        url = f"/api/tables/{table}/actions"
        headers = {"Authorization": f"Bearer {tokens[0]}"}
        for body in ({"action": "x", "seq": "0"}, {"action": 5, "seq": 0},
                     {"action": "x", "seq": 0.0}, {"action": "x", "seq": True}):
            assert client.post(url, json=body, headers=headers).status_code == 422, body


def test_imported_record_params_are_strict(sqlite_url: str) -> None:
    from tests.server.conftest import make_client

    with make_client(sqlite_url) as client:
        record = GameRecord(GAME, 1, dict(QUICK), 5, [], {}).to_dict()
        record["rules_version"] = _rules_version()
        bad = dict(record, params=dict(QUICK, players="2"))
        reply = client.post("/api/tables/import", json={"record": bad})
        assert reply.status_code == 422 and "record.params.players" in reply.json()["detail"]
        assert client.post("/api/tables/import", json={"record": record}).status_code == 201


def _rules_version() -> int:
    from meeplehall.games import GAMES

    return GAMES[GAME].rules_version


def _expect_clean_close(client: TestClient, url: str, frames: list[str | bytes]) -> None:
    with client.websocket_connect(url) as ws:
        for frame in frames:
            if isinstance(frame, bytes):
                ws.send_bytes(frame)
            else:
                ws.send_text(frame)
        reply = ws.receive()
        if reply["type"] == "websocket.send":
            message = json.loads(reply["text"])
            assert message["type"] == "error" and message["status"] in (400, 422), message
            reply = ws.receive()
        assert reply["type"] == "websocket.close", reply


def test_malformed_websocket_hellos_close_cleanly(sqlite_url: str,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    from tests.server.conftest import make_client

    with make_client(sqlite_url) as client:
        table = new_table(client, ["human", "human"])["id"]
        url = f"/api/tables/{table}/ws"
        deep = "[" * 100_000 + "]" * 100_000
        deep_object = '{"token": ' + "{\"a\": " * 5000 + "null" + "}" * 5000 + "}"
        for hello in (deep, deep_object, "{", "\ud800", '"text"', "[]", "nul"):
            _expect_clean_close(client, url, [hello])
        _expect_clean_close(client, url, [b"\x00\x01binary"])
        # After a good hello, a binary frame ends the socket too (text frames only).
        with client.websocket_connect(url) as ws:
            ws.send_json({"token": None})
            assert ws.receive_json()["type"] == "sync"
            ws.send_bytes(b"[[[[")
            assert ws.receive()["type"] == "websocket.close"
        # Deep text after the hello is only not a ping: the socket stays usable.
        with client.websocket_connect(url) as ws:
            ws.send_json({"token": None})
            assert ws.receive_json()["type"] == "sync"
            ws.send_text(deep)
            ws.send_text('{"type": "ping"}')
            assert ws.receive_json()["type"] == "pong"
        assert client.get("/api/health").status_code == 200
    assert "RecursionError" not in caplog.text
    assert "internal error" not in caplog.text
