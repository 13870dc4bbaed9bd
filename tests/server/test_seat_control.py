"""Seats that never stall (recovery links, the host's controls) and table chat."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from meeplehall.server.limits import LimitConfig, Rate
from tests.server.conftest import make_client
from tests.server.helpers import bearer, join

GAME = "red-cathedral"
OPTIONS = {"players": 2, "round_limit": 10}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path_factory.mktemp('seats') / 'server.db'}"
    with make_client(url) as c:
        yield c


def _table(client: TestClient, **extra: Any) -> tuple[int, str, list[str]]:
    body = {"game": GAME, "options": OPTIONS, "seed": 5, **extra}
    reply = client.post("/api/tables", json=body)
    assert reply.status_code == 201, reply.text
    table = reply.json()
    assert table["hosted"] is True and len(table["host_token"]) >= 40
    return table["id"], table["host_token"], [join(client, table["id"], 0),
                                              join(client, table["id"], 1)]


def _host(token: str) -> dict[str, str]:
    return {"X-Host-Token": token}


def _sync(ws: Any, token: str | None) -> dict[str, Any]:
    ws.send_text(json.dumps({"token": token, "since": None, "seats": True}))
    message: dict[str, Any] = ws.receive_json()
    assert message["type"] == "sync", message
    return message


def _until(ws: Any, kind: str, test: Any = None) -> dict[str, Any]:
    for _ in range(30):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind and (test is None or test(message)):
            return message
    raise AssertionError(f"no {kind} message")


def test_recovery_moves_the_seat_and_revokes_the_old_token(client: TestClient) -> None:
    table, _host_token, tokens = _table(client)
    assert client.post(f"/api/tables/{table}/name", json={"name": "Bob"},
                       headers=bearer(tokens[1])).status_code == 200
    reply = client.post(f"/api/tables/{table}/recovery", headers=bearer(tokens[1]))
    assert reply.status_code == 200, reply.text
    secret = reply.json()["secret"]
    assert reply.json()["link"] == f"/#/recover/{table}/{secret}"
    with client.websocket_connect(f"/api/tables/{table}/ws") as old_socket:
        _sync(old_socket, tokens[1])
        moved = client.post(f"/api/tables/{table}/recover", json={"secret": secret})
        assert moved.status_code == 200, moved.text
        assert moved.json()["seat"] == 1
        new = moved.json()["token"]
        error = _until(old_socket, "error")
        assert error["status"] == 401
        with pytest.raises(WebSocketDisconnect):
            old_socket.receive_json()
    # The old token stops working on HTTP; the new one works and the name is kept.
    assert client.get(f"/api/tables/{table}/me", headers=bearer(tokens[1])).status_code == 401
    me = client.get(f"/api/tables/{table}/me", headers=bearer(new))
    assert me.status_code == 200 and me.json()["seat"] == 1
    assert client.get(f"/api/tables/{table}").json()["seats"][1]["name"] == "Bob"
    # One time only, and a made-up secret is refused.
    again = client.post(f"/api/tables/{table}/recover", json={"secret": secret})
    assert again.status_code == 401 and "recovery link" in again.json()["detail"]
    assert client.post(f"/api/tables/{table}/recovery",
                       headers=bearer(tokens[1])).status_code == 401


def test_host_controls_need_the_host_token(client: TestClient) -> None:
    table, host, _tokens = _table(client)
    _other, other_host, _ = _table(client)
    for headers, words in (({}, "needs the host token"),
                           (_host("x" * 43), "not the host token"),
                           (_host(other_host), "not the host token")):
        for path, body in (("reinvite", None), ("bot", {"level": "random"}),
                           ("back", None), ("mute", {"muted": True})):
            reply = client.post(f"/api/tables/{table}/seats/1/{path}", json=body,
                                headers=headers)
            assert reply.status_code == 403, (path, reply.text)
            assert words in reply.json()["detail"]
    assert client.get(f"/api/tables/{table}/host", headers=_host(host)).status_code == 200
    # The creation's answer is the only place the host token appears.
    for reply in (client.get(f"/api/tables/{table}"), client.get("/api/tables"),
                  client.get(f"/api/tables/{table}/view")):
        assert host not in reply.text and "host_hash" not in reply.text


def test_reinvite_revokes_the_seat_and_opens_it(client: TestClient) -> None:
    table, host, tokens = _table(client)
    with client.websocket_connect(f"/api/tables/{table}/ws") as socket:
        _sync(socket, tokens[0])
        reply = client.post(f"/api/tables/{table}/seats/0/reinvite", headers=_host(host))
        assert reply.status_code == 200, reply.text
        assert reply.json()["invite"] == f"/#/table/{table}/join/0"
        assert _until(socket, "error")["status"] == 401
    assert client.get(f"/api/tables/{table}/me", headers=bearer(tokens[0])).status_code == 401
    seat = client.get(f"/api/tables/{table}").json()["seats"][0]
    assert seat["open"] is True and seat["name"] is None
    fresh = join(client, table, 0)
    assert client.get(f"/api/tables/{table}/me", headers=bearer(fresh)).status_code == 200


def test_hand_to_bot_and_take_back(client: TestClient) -> None:
    table, host, tokens = _table(client)
    first = client.get(f"/api/tables/{table}/view").json()
    mover = first["to_move"]
    bad = client.post(f"/api/tables/{table}/seats/{mover}/bot", json={"level": "nobody"},
                      headers=_host(host))
    assert bad.status_code == 422 and "unknown bot level" in bad.json()["detail"]
    with client.websocket_connect(f"/api/tables/{table}/ws") as watcher:
        _sync(watcher, tokens[1 - mover])
        reply = client.post(f"/api/tables/{table}/seats/{mover}/bot",
                            json={"level": "random"}, headers=_host(host))
        assert reply.status_code == 200, reply.text
        assert reply.json()["seats"][mover]["played_by"] == "random"
        assert reply.json()["seats"][mover]["played_why"] == "host"
        # every seat sees who plays
        _until(watcher, "seats", lambda m: m["seats"][mover]["played_by"] == "random")
        update = _until(watcher, "update")  # the bot moved at once
        assert update["seq"] > first["seq"]
        assert any("handed over by the host" in str(n["text"]) for n in update["notes"])
    # The player keeps the token (and sees the table) but cannot move meanwhile.
    for _ in range(50):  # the bot moves on meanwhile: ask again at the newest seq
        state = client.get(f"/api/tables/{table}/view").json()
        if state["to_move"] != mover:
            break
        refused = client.post(f"/api/tables/{table}/actions", headers=bearer(tokens[mover]),
                              json={"action": "end-turn", "seq": state["seq"]})
        assert refused.status_code == 409
        if "the table is at seq" not in refused.json()["detail"]:
            assert "host handed it over" in refused.json()["detail"]
            break
    back = client.post(f"/api/tables/{table}/seats/{mover}/back", headers=_host(host))
    assert back.status_code == 200 and back.json()["seats"][mover]["played_by"] is None
    assert back.json()["seats"][mover]["open"] is False  # the player's again
    me = client.get(f"/api/tables/{table}/me", headers=bearer(tokens[mover]))
    assert me.status_code == 200
    again = client.post(f"/api/tables/{table}/seats/{mover}/back", headers=_host(host))
    assert again.status_code == 409


def test_chat_is_text_limited_muted_and_private_to_seats(client: TestClient) -> None:
    table, host, tokens = _table(client)
    markup = "<img src=x onerror=alert(1)> your move, sorry"
    with client.websocket_connect(f"/api/tables/{table}/ws") as seat_socket, \
            client.websocket_connect(f"/api/tables/{table}/ws") as spectator:
        _sync(seat_socket, tokens[1])
        assert "chat" not in _sync(spectator, None)  # hidden from spectators here
        reply = client.post(f"/api/tables/{table}/chat", json={"text": f"  {markup} "},
                            headers=bearer(tokens[0]))
        assert reply.status_code == 200, reply.text
        assert reply.json()["text"] == markup and reply.json()["seat"] == 0
        frame = _until(seat_socket, "chat")
        assert frame["message"]["text"] == markup
    page = client.get(f"/api/tables/{table}/chat", headers=bearer(tokens[1])).json()
    assert [m["text"] for m in page["messages"]] == [markup]
    assert tokens[0] not in json.dumps(page)
    spect = client.get(f"/api/tables/{table}/chat")
    assert spect.status_code == 403 and "seats only" in spect.json()["detail"]
    for text, words in (("x" * 501, "at most 500"), ("   ", "at least one"),
                        ("a\nb", "U+000A"), ("a\u202eb", "U+202E")):
        bad = client.post(f"/api/tables/{table}/chat", json={"text": text},
                          headers=bearer(tokens[0]))
        assert bad.status_code == 422 and words in bad.json()["detail"], bad.text
    assert client.post(f"/api/tables/{table}/chat", json={"text": "hi"}).status_code == 401
    muted = client.post(f"/api/tables/{table}/seats/0/mute", json={"muted": True},
                        headers=_host(host))
    assert muted.status_code == 200 and muted.json()["seats"][0]["muted"] is True
    refused = client.post(f"/api/tables/{table}/chat", json={"text": "hello"},
                          headers=bearer(tokens[0]))
    assert refused.status_code == 403 and "muted" in refused.json()["detail"]
    client.post(f"/api/tables/{table}/seats/0/mute", json={"muted": False}, headers=_host(host))
    assert client.post(f"/api/tables/{table}/chat", json={"text": "hello"},
                       headers=bearer(tokens[0])).status_code == 200
    # Pages: before= gives the earlier ones.
    newest = client.get(f"/api/tables/{table}/chat?limit=1", headers=bearer(tokens[0])).json()
    assert [m["text"] for m in newest["messages"]] == ["hello"]
    earlier = client.get(f"/api/tables/{table}/chat?before={newest['messages'][0]['id']}",
                         headers=bearer(tokens[0])).json()
    assert [m["text"] for m in earlier["messages"]] == [markup]


def test_spectators_read_the_chat_where_the_host_allows(client: TestClient) -> None:
    table, _host_token, tokens = _table(client, spectator_chat=True)
    client.post(f"/api/tables/{table}/chat", json={"text": "gg"}, headers=bearer(tokens[0]))
    with client.websocket_connect(f"/api/tables/{table}/ws") as spectator:
        sync = _sync(spectator, None)
        assert [m["text"] for m in sync["chat"]] == ["gg"]
        client.post(f"/api/tables/{table}/chat", json={"text": "wp"}, headers=bearer(tokens[1]))
        assert _until(spectator, "chat")["message"]["text"] == "wp"
    page = client.get(f"/api/tables/{table}/chat")
    assert page.status_code == 200 and len(page.json()["messages"]) == 2
    assert client.post(f"/api/tables/{table}/chat",
                       json={"text": "spectators cannot write"}).status_code == 401


def test_chat_rate_per_seat(tmp_path: Any) -> None:
    limits = LimitConfig(client={"chat": Rate(0.001, 100)}, total={"chat": Rate(100, 100)},
                         token={"chat": Rate(0.001, 2)})
    with make_client(f"sqlite:///{tmp_path / 'rate.db'}", limits=limits) as c:
        table, _host_token, tokens = _table(c)
        codes = [c.post(f"/api/tables/{table}/chat", json={"text": f"m{i}"},
                        headers=bearer(tokens[0])).status_code for i in range(3)]
        assert codes == [200, 200, 429]
        # another seat has its own bucket
        assert c.post(f"/api/tables/{table}/chat", json={"text": "me too"},
                      headers=bearer(tokens[1])).status_code == 200


def test_creation_checks_deadline_and_stand_in(client: TestClient) -> None:
    for extra, words in (({"deadline_hours": 0.5}, "deadline_hours"),
                         ({"deadline_hours": 400}, "deadline_hours"),
                         ({"deadline_hours": 24, "stand_in": "nobody"}, "unknown bot level"),
                         ({"stand_in": "greedy"}, "needs a deadline_hours")):
        reply = client.post("/api/tables", json={"game": GAME, "options": OPTIONS, **extra})
        assert reply.status_code == 422 and words in reply.json()["detail"], reply.text
    reply = client.post("/api/tables", json={"game": GAME, "options": OPTIONS,
                                             "deadline_hours": 48})
    assert reply.json()["deadline_hours"] == 48 and reply.json()["stand_in"] == "greedy"


def test_a_table_of_the_previous_schema_keeps_its_seats_and_has_no_host(db_url: str) -> None:
    """Migration 0004 on SQLite and PostgreSQL: stored tables, seats and moves stay;
    such a table has no host, so the host's controls answer 403."""
    from alembic import command
    from sqlalchemy import text

    from meeplehall.server.db import _alembic_config, ensure_schema, make_engine

    engine = make_engine(db_url)
    try:
        config = _alembic_config()
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "0003")
        with engine.begin() as connection:
            connection.execute(text(
                "INSERT INTO game_tables (id, game, rules_version, params, seed, source, "
                "finished, created_at) VALUES (1, 'red-cathedral', 1, "
                "'{\"players\": 2, \"round_limit\": 10}', 7, 'new', false, CURRENT_TIMESTAMP)"))
            connection.execute(text("INSERT INTO seats (table_id, seat, kind, token_hash, name) "
                                    "VALUES (1, 0, 'human', 'abc', 'Ada'), "
                                    "(1, 1, 'human', NULL, NULL)"))
        ensure_schema(engine)
        with engine.connect() as connection:
            assert connection.execute(text(
                "SELECT token_hash, name, played_by, muted, deadline_at FROM seats "
                "ORDER BY seat")).all() == [("abc", "Ada", None, False, None),
                                            (None, None, None, False, None)]
        with make_client(db_url) as c:
            summary = c.get("/api/tables/1").json()
            assert summary["hosted"] is False and summary["deadline_hours"] is None
            reply = c.post("/api/tables/1/seats/0/reinvite", headers=_host("a" * 43))
            assert reply.status_code == 403 and "has no host" in reply.json()["detail"]
        with engine.begin() as connection:  # and back: the seats are still there
            config.attributes["connection"] = connection
            command.downgrade(config, "0003")
        with engine.connect() as connection:
            assert connection.execute(text("SELECT count(*) FROM seats")).scalar() == 2
    finally:
        engine.dispose()


def test_no_answer_or_frame_carries_a_token_or_a_secret(client: TestClient) -> None:
    from meeplehall.server.security import hash_token

    table, host, tokens = _table(client, deadline_hours=24, spectator_chat=True)
    secret = client.post(f"/api/tables/{table}/recovery", headers=bearer(tokens[0])).json()[
        "secret"]
    client.post(f"/api/tables/{table}/chat", json={"text": "hello"}, headers=bearer(tokens[1]))
    client.post(f"/api/tables/{table}/seats/1/mute", json={"muted": True}, headers=_host(host))
    secrets = [host, secret, *tokens]
    forbidden = [*secrets, *(hash_token(s) for s in secrets)]
    texts = [client.get(path, headers=headers).text for path, headers in (
        (f"/api/tables/{table}", {}), ("/api/tables", {}), (f"/api/tables/{table}/view", {}),
        (f"/api/tables/{table}/chat", {}), (f"/api/tables/{table}/me", bearer(tokens[1])),
        (f"/api/tables/{table}/chat", bearer(tokens[0])),
        (f"/api/tables/{table}/host", _host(host)))]
    with client.websocket_connect(f"/api/tables/{table}/ws") as spectator:
        texts.append(json.dumps(_sync(spectator, None)))
        client.post(f"/api/tables/{table}/chat", json={"text": "again"},
                    headers=bearer(tokens[0]))
        kinds: set[str] = set()
        while kinds != {"chat", "seats"}:  # the seats frame (at once) and the chat frame
            frame = spectator.receive_json()
            kinds.add(frame["type"])
            texts.append(json.dumps(frame))
    for text in texts:
        for secret_text in forbidden:
            assert secret_text not in text
    assert any('"deadline": "' in t or '"deadline":"' in t for t in texts)


def test_handing_a_seat_to_a_bot_counts_against_the_bot_tables(tmp_path: Any) -> None:
    limits = LimitConfig(client={}, total={}, bot_tables_per_client=1)
    with make_client(f"sqlite:///{tmp_path / 'bots.db'}", limits=limits) as c:
        reply = c.post("/api/tables", json={"game": GAME, "options": OPTIONS, "seed": 5,
                                            "seats": ["human", "random"]})
        assert reply.status_code == 201
        table, host, _tokens = _table(c)
        refused = c.post(f"/api/tables/{table}/seats/1/bot", json={"level": "random"},
                         headers=_host(host))
        assert refused.status_code == 429 and "bot tables" in refused.json()["detail"]
        assert c.get(f"/api/tables/{table}").json()["seats"][1]["played_by"] is None
