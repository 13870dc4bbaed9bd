"""Players' names: given when joining or later, public in the table, the lobby list and
the ``seats`` live message, cleared when the seat is given up; hostile names refused."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeplehall.server.names import MAX_NAME, clean_name
from tests.server.helpers import bearer, join, new_table


def _names(client: TestClient, table: int) -> list[str | None]:
    reply = client.get(f"/api/tables/{table}")
    assert reply.status_code == 200, reply.text
    return [s["name"] for s in reply.json()["seats"]]


def test_names_are_given_shown_changed_and_cleared(client: TestClient) -> None:
    table = new_table(client, ["human", "human", "greedy"],
                      options={"players": 3, "round_limit": 10})["id"]
    assert _names(client, table) == [None, None, None]
    reply = client.post(f"/api/tables/{table}/seats/0/join", json={"name": "  Ada  "})
    assert reply.status_code == 200, reply.text
    ada = reply.json()["token"]
    bob = join(client, table, 1)  # no body: no name
    assert _names(client, table) == ["Ada", None, None]
    # The lobby list carries them too.
    listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
    assert [s["name"] for s in listed[table]["seats"]] == ["Ada", None, None]
    # A seat names (or renames) itself with its token.
    reply = client.post(f"/api/tables/{table}/name", json={"name": "Bob"}, headers=bearer(bob))
    assert reply.status_code == 200, reply.text
    assert [s["name"] for s in reply.json()["seats"]] == ["Ada", "Bob", None]
    assert client.post(f"/api/tables/{table}/name", json={"name": None},
                       headers=bearer(ada)).status_code == 200
    assert _names(client, table) == [None, "Bob", None]
    # Without a seat's token there is no renaming.
    assert client.post(f"/api/tables/{table}/name", json={"name": "Eve"}).status_code == 401
    # Giving the seat up clears its name; the next player brings their own.
    assert client.post(f"/api/tables/{table}/leave", headers=bearer(bob)).status_code == 200
    assert _names(client, table) == [None, None, None]
    assert client.post(f"/api/tables/{table}/name", json={"name": "Bob"},
                       headers=bearer(bob)).status_code == 401
    client.post(f"/api/tables/{table}/seats/1/join", json={"name": "Cleo"})
    assert _names(client, table) == [None, "Cleo", None]


def test_names_survive_a_restart(db_url: str) -> None:
    from tests.server.conftest import make_client

    with make_client(db_url) as client:
        table = new_table(client, ["human", "human"])["id"]
        client.post(f"/api/tables/{table}/seats/1/join", json={"name": "Zoë"})
    with make_client(db_url) as client:
        assert _names(client, table) == [None, "Zoë"]


@pytest.mark.parametrize("name", [
    "", "   ", "x" * (MAX_NAME + 1), "Ada\nBob", "tab\there", "nul\x00", "bell\x07",
    "rtl\u202eevil", "zero\u200bwidth", "line\u2028sep", "private\ue000",
])
def test_hostile_names_get_a_clear_422(client: TestClient, name: str) -> None:
    table = new_table(client, ["human", "human"])["id"]
    reply = client.post(f"/api/tables/{table}/seats/0/join", json={"name": name})
    assert reply.status_code == 422, reply.text
    assert "name" in reply.json()["detail"]
    # the seat is still open: nothing was taken by the refused join
    assert client.get(f"/api/tables/{table}").json()["seats"][0]["open"] is True
    token = join(client, table, 1)
    reply = client.post(f"/api/tables/{table}/name", json={"name": name}, headers=bearer(token))
    assert reply.status_code == 422, reply.text


@pytest.mark.parametrize("body", [{"name": 7}, {"name": ["Ada"]}, {"name": {"x": 1}},
                                  {"name": True}, {"nom": "Ada"}, ["Ada"], "Ada"])
def test_names_that_are_not_strings_are_refused(client: TestClient, body: Any) -> None:
    table = new_table(client, ["human", "human"])["id"]
    reply = client.post(f"/api/tables/{table}/seats/0/join", json=body)
    assert reply.status_code == 422, reply.text
    assert client.get(f"/api/tables/{table}").json()["seats"][0]["open"] is True


@pytest.mark.parametrize("name", ["<img src=x onerror=1>", "<script>alert(1)",
                                  "a<b", "b>a", "<", "Ada >"])
def test_names_with_markup_are_refused_everywhere(client: TestClient, name: str) -> None:
    """Joining, renaming: 422 saying that '<' and '>' are refused; nothing is taken or
    changed. A seat kind with markup (table creation) is an unknown kind: 422 too."""
    table = new_table(client, ["human", "human"])["id"]
    reply = client.post(f"/api/tables/{table}/seats/0/join", json={"name": name})
    assert reply.status_code == 422, reply.text
    assert "'<' and '>' are refused" in reply.json()["detail"]
    assert client.get(f"/api/tables/{table}").json()["seats"][0]["open"] is True
    token = client.post(f"/api/tables/{table}/seats/1/join", json={"name": "Ada"}).json()["token"]
    reply = client.post(f"/api/tables/{table}/name", json={"name": name}, headers=bearer(token))
    assert reply.status_code == 422, reply.text
    assert "'<' and '>' are refused" in reply.json()["detail"]
    assert _names(client, table) == [None, "Ada"]
    reply = client.post("/api/tables", json={"game": "red-cathedral",
                                             "options": {"players": 2},
                                             "seats": ["human", name]})
    assert reply.status_code == 422 and "unknown seat kind" in reply.json()["detail"]


def test_names_are_kept_as_given_otherwise(client: TestClient) -> None:
    table = new_table(client, ["human", "human"])["id"]
    raw = "Tom & Jerry \"quoted\" 'x'"
    client.post(f"/api/tables/{table}/seats/0/join", json={"name": raw})
    assert _names(client, table) == [raw, None]
    assert clean_name(" Łucja Ñandú 李 ") == "Łucja Ñandú 李"
    assert len(clean_name("x" * MAX_NAME)) == MAX_NAME


def test_the_seats_message_carries_names_and_spectators_may_ask(client: TestClient) -> None:
    table = new_table(client, ["human", "human"])["id"]
    token = client.post(f"/api/tables/{table}/seats/0/join", json={"name": "Ada"}).json()["token"]
    with client.websocket_connect(f"/api/tables/{table}/ws") as watcher:
        watcher.send_text(json.dumps({"token": None, "since": None, "seats": True}))
        assert watcher.receive_json()["type"] == "sync"
        first = watcher.receive_json()
        assert {k: v for k, v in first.items() if k != "seats"} == {
            "type": "seats", "table_id": table, "present": [], "names": ["Ada", None]}
        assert [s["name"] for s in first["seats"]] == ["Ada", None]
        with client.websocket_connect(f"/api/tables/{table}/ws") as seat:
            seat.send_text(json.dumps({"token": token, "since": None, "seats": True}))
            assert seat.receive_json()["type"] == "sync"
            assert seat.receive_json()["present"] == [0]
            assert watcher.receive_json()["present"] == [0]
        assert watcher.receive_json()["present"] == []


def test_a_database_of_the_previous_schema_gets_the_names_column(db_url: str) -> None:
    """Migration 0003 on SQLite and PostgreSQL: the seats already stored keep their
    tokens and get no name."""
    from alembic import command
    from sqlalchemy import inspect, text

    from meeplehall.server.db import _alembic_config, ensure_schema, known_revisions, make_engine

    engine = make_engine(db_url)
    try:
        config = _alembic_config()
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "0002")
        with engine.begin() as connection:
            assert "name" not in {c["name"] for c in inspect(connection).get_columns("seats")}
            connection.execute(text(
                "INSERT INTO game_tables (id, game, rules_version, params, seed, source, "
                "finished, created_at) VALUES (1, 'red-cathedral', 1, '{}', 7, 'new', "
                "false, CURRENT_TIMESTAMP)"))
            connection.execute(text("INSERT INTO seats (table_id, seat, kind, token_hash) "
                                    "VALUES (1, 0, 'human', 'abc')"))
        ensure_schema(engine)
        with engine.connect() as connection:
            assert connection.execute(text("SELECT token_hash, name FROM seats")).all() == [
                ("abc", None)]
        assert "0003" in known_revisions()
    finally:
        engine.dispose()
