"""Accounts: sign-in by e-mail link, cookie sessions, CSRF, the account's seats on every
device, "your turn" across tables, deletion, rate limits, and migration 0005."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from meeplehall.core.rng import Rng
from meeplehall.server.accounts import SESSION_COOKIE
from meeplehall.server.clock import ManualClock
from meeplehall.server.db import (
    AccountRow,
    SeatRow,
    SessionRow,
    SignInRow,
    SubscriptionRow,
)
from meeplehall.server.limits import LimitConfig, Rate
from tests.server.conftest import make_client
from tests.server.helpers import bearer, new_table, random_move
from tests.server.sinks import SmtpSink, body

ADA, BOB = "ada@example.org", "bob@example.org"


@pytest.fixture(scope="module")
def sink() -> Iterator[SmtpSink]:
    server = SmtpSink()
    yield server
    server.close()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(datetime(2026, 3, 1, 12, tzinfo=UTC))


@pytest.fixture
def client(db_url: str, sink: SmtpSink, clock: ManualClock) -> Iterator[Any]:
    with make_client(db_url, smtp=sink.url, public_url="https://hall.example",
                     clock=clock) as c:
        yield c


def sign_in_token(client: Any, sink: SmtpSink, address: str) -> str:
    """Ask for a sign-in link for ``address``; the token of the link mailed."""
    seen = len(sink.to(address))
    reply = client.post("/api/account/sign-in", json={"email": address})
    assert reply.status_code == 202, reply.text
    client.app.state.notifier.idle()
    mails = sink.to(address)
    assert len(mails) == seen + 1
    link = next(w for w in body(mails[-1]).split() if "/#/sign-in/" in w)
    assert link.startswith("https://hall.example/#/sign-in/")
    return link.rsplit("/", 1)[1]


def sign_in(client: Any, sink: SmtpSink, address: str) -> dict[str, Any]:
    """Sign ``client`` in as ``address``; the account (with its csrf token)."""
    reply = client.post("/api/account/session", json={"token": sign_in_token(
        client, sink, address)})
    assert reply.status_code == 200, reply.text
    account: dict[str, Any] = reply.json()
    return account


def as_device(client: Any, session: str | None) -> None:
    """Make ``client`` the browser holding ``session`` (None: signed out)."""
    client.cookies.clear()
    if session is not None:
        client.cookies.set(SESSION_COOKIE, session)


def count(client: Any, row: Any, *where: Any) -> int:
    with client.app.state.service.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(row).where(*where))
                   .scalar_one())


def test_sign_in_by_link_sets_a_session_cookie_and_the_link_is_one_time(
        client: Any, sink: SmtpSink, clock: ManualClock) -> None:
    token = sign_in_token(client, sink, ADA)
    reply = client.post("/api/account/session", json={"token": token})
    assert reply.status_code == 200
    cookie = reply.headers["set-cookie"]
    assert f"{SESSION_COOKIE}=" in cookie and "HttpOnly" in cookie
    assert "samesite=lax" in cookie.lower() and "Path=/" in cookie
    account = reply.json()
    assert account["email"] == ADA and account["seats"] == [] and account["csrf"]
    assert client.get("/api/account").json()["email"] == ADA
    # stored hashed: neither the link's token nor the session id is in the database
    session = client.cookies[SESSION_COOKIE]
    with client.app.state.service.engine.connect() as conn:
        stored = {r[0] for r in conn.execute(select(SessionRow.id_hash))} | \
            {r[0] for r in conn.execute(select(SignInRow.token_hash))}
    assert session not in stored and token not in stored
    as_device(client, None)
    assert client.post("/api/account/session", json={"token": token}).status_code == 401
    late = sign_in_token(client, sink, ADA)
    clock.advance(timedelta(minutes=16))
    expired = client.post("/api/account/session", json={"token": late})
    assert expired.status_code == 401 and "expired" in expired.json()["detail"]
    # and the session lapses after its lifetime
    as_device(client, session)
    assert client.get("/api/account").status_code == 200
    clock.advance(timedelta(days=31))
    assert client.get("/api/account").status_code == 401


def test_sign_in_never_says_whether_an_address_has_an_account(client: Any,
                                                              sink: SmtpSink) -> None:
    sign_in(client, sink, ADA)
    as_device(client, None)
    known = client.post("/api/account/sign-in", json={"email": ADA})
    unknown = client.post("/api/account/sign-in", json={"email": "nobody@example.org"})
    assert (known.status_code, known.json()) == (unknown.status_code, unknown.json())
    assert known.status_code == 202
    client.app.state.notifier.idle()
    assert sink.to("nobody@example.org"), "an unknown address is sent a link the same way"
    bad = client.post("/api/account/sign-in", json={"email": "no-at-sign"})
    assert bad.status_code == 422 and "e-mail address" in bad.json()["detail"]


def test_writes_need_this_sessions_csrf_token(client: Any, sink: SmtpSink) -> None:
    bob = sign_in(client, sink, BOB)
    as_device(client, None)
    ada = sign_in(client, sink, ADA)
    assert client.post("/api/account", json={"name": "Ada"}).status_code == 403
    other = client.post("/api/account", json={"name": "Ada"},
                        headers={"X-CSRF-Token": bob["csrf"]})
    assert other.status_code == 403 and "X-CSRF-Token" in other.json()["detail"]
    assert client.delete("/api/account").status_code == 403
    assert client.post("/api/account/sign-out").status_code == 403
    table = new_table(client)["id"]
    refused = client.post(f"/api/tables/{table}/seats/0/join")
    assert refused.status_code == 403
    assert client.get(f"/api/tables/{table}").json()["seats"][0]["open"] is True
    named = client.post("/api/account", json={"name": "Ada"},
                        headers={"X-CSRF-Token": ada["csrf"]})
    assert named.status_code == 200 and named.json()["name"] == "Ada"
    # a seat token's requests need no CSRF token, signed in or not
    token = client.post(f"/api/tables/{table}/seats/1/join",
                        headers={"X-CSRF-Token": ada["csrf"]}).json()["token"]
    assert client.post(f"/api/tables/{table}/name", headers=bearer(token),
                       json={"name": "Ada B"}).status_code == 200
    assert client.post("/api/account/sign-out",
                       headers={"X-CSRF-Token": ada["csrf"]}).status_code == 200
    assert client.get("/api/account").status_code == 401


def test_a_seat_joined_signed_in_is_the_accounts_on_every_device(
        client: Any, sink: SmtpSink) -> None:
    ada = sign_in(client, sink, ADA)
    client.post("/api/account", json={"name": "Ada"}, headers={"X-CSRF-Token": ada["csrf"]})
    first_device = client.cookies[SESSION_COOKIE]
    table = new_table(client)["id"]
    joined = client.post(f"/api/tables/{table}/seats/1/join",
                         headers={"X-CSRF-Token": ada["csrf"]}).json()["token"]
    assert client.get(f"/api/tables/{table}").json()["seats"][1]["name"] == "Ada"
    as_device(client, None)  # the second device signs in by a link of its own
    second = sign_in(client, sink, ADA)
    assert client.cookies[SESSION_COOKIE] != first_device
    assert second["seats"] == [{"table_id": table, "seat": 1, "name": "Ada",
                                "game": "red-cathedral", "finished": False}]
    got = client.post(f"/api/account/seats/{table}/1/token",
                      headers={"X-CSRF-Token": second["csrf"]})
    assert got.status_code == 200 and got.json()["token"] == joined
    assert client.get(f"/api/tables/{table}/me", headers=bearer(joined)).status_code == 200
    assert client.post(f"/api/account/seats/{table}/0/token",
                       headers={"X-CSRF-Token": second["csrf"]}).status_code == 404
    # another account cannot obtain it
    as_device(client, None)
    bob = sign_in(client, sink, BOB)
    assert client.post(f"/api/account/seats/{table}/1/token",
                       headers={"X-CSRF-Token": bob["csrf"]}).status_code == 404
    # given up, the seat is no longer the account's
    client.post(f"/api/tables/{table}/leave", headers=bearer(joined))
    as_device(client, first_device)
    assert client.get("/api/account").json()["seats"] == []


def test_a_seat_the_host_reinvites_is_no_longer_the_accounts(client: Any,
                                                            sink: SmtpSink) -> None:
    """Re-invited, the seat is open for someone else: the account neither lists it nor
    is rated or notified for whoever takes it next."""
    ada = sign_in(client, sink, ADA)
    made = new_table(client)
    table = made["id"]
    assert client.post(f"/api/tables/{table}/seats/1/join",
                       headers={"X-CSRF-Token": ada["csrf"]}).status_code == 200
    assert [s["table_id"] for s in client.get("/api/account").json()["seats"]] == [table]
    reply = client.post(f"/api/tables/{table}/seats/1/reinvite",
                        headers={"X-Host-Token": made["host_token"]})
    assert reply.status_code == 200, reply.text
    assert client.get("/api/account").json()["seats"] == []
    with client.app.state.service.engine.connect() as conn:
        assert conn.execute(select(SeatRow.account_id).where(
            SeatRow.table_id == table, SeatRow.seat == 1)).scalar_one() is None


def test_your_turn_lists_the_accounts_tables_longest_waiting_first(
        client: Any, sink: SmtpSink) -> None:
    ada = sign_in(client, sink, ADA)
    csrf = {"X-CSRF-Token": ada["csrf"]}
    cookie = client.cookies[SESSION_COOKIE]
    tables, tokens = [], []
    for _ in range(3):
        table = new_table(client)["id"]
        tables.append(table)
        mine = client.post(f"/api/tables/{table}/seats/0/join", headers=csrf).json()["token"]
        as_device(client, None)
        other = client.post(f"/api/tables/{table}/seats/1/join").json()["token"]
        as_device(client, cookie)
        tokens.append([mine, other])
    # table 0: seat 0 (ours) moves until seat 1's turn: not ours; tables 1, 2: ours
    rng = Rng(9)
    while client.get(f"/api/tables/{tables[0]}/view").json()["to_move"] == 0:
        random_move(client, tables[0], tokens[0], rng)
    turns = client.get("/api/account/turns").json()["turns"]
    assert [t["table_id"] for t in turns] == [tables[1], tables[2]]
    assert all(t["seat"] == 0 and t["game"] == "red-cathedral" for t in turns)
    # table 2 moves on and comes back to us: it has waited less than table 1 now ...
    while client.get(f"/api/tables/{tables[1]}/view").json()["to_move"] == 0:
        random_move(client, tables[1], tokens[1], rng)
    while client.get(f"/api/tables/{tables[1]}/view").json()["to_move"] != 0:
        random_move(client, tables[1], tokens[1], rng)
    turns = client.get("/api/account/turns").json()["turns"]
    assert [t["table_id"] for t in turns] == [tables[2], tables[1]]
    as_device(client, None)
    assert client.get("/api/account/turns").status_code == 401


def test_deleting_the_account_removes_all_it_holds_and_frees_its_seats(
        client: Any, sink: SmtpSink) -> None:
    ada = sign_in(client, sink, ADA)
    csrf = {"X-CSRF-Token": ada["csrf"]}
    table = new_table(client)["id"]
    token = client.post(f"/api/tables/{table}/seats/0/join", headers=csrf).json()["token"]
    put = client.put("/api/account/notifications", headers=csrf, json={"email": True})
    assert put.json()["email"] == {"target": ADA, "confirmed": True}
    account = ada["id"]
    assert client.delete("/api/account", headers=csrf).status_code == 200
    assert client.get("/api/account").status_code == 401
    assert count(client, AccountRow, AccountRow.id == account) == 0
    assert count(client, SessionRow, SessionRow.account_id == account) == 0
    assert count(client, SubscriptionRow, SubscriptionRow.account_id == account) == 0
    assert count(client, SignInRow, SignInRow.email == ADA) == 0
    assert count(client, SeatRow, SeatRow.account_id == account) == 0
    # the seat stays in its game, anonymous, and its token still plays it
    seat = client.get(f"/api/tables/{table}").json()["seats"][0]
    assert seat["open"] is False
    assert client.get(f"/api/tables/{table}/me", headers=bearer(token)).status_code == 200
    # the address can start again with a new, empty account
    again = sign_in(client, sink, ADA)
    assert again["seats"] == [] and again["name"] is None
    assert again["notifications"] == {"email": None, "webhook": None}


def test_account_notifications_reach_every_seat_of_the_account(
        client: Any, sink: SmtpSink) -> None:
    ada = sign_in(client, sink, ADA)
    csrf = {"X-CSRF-Token": ada["csrf"]}
    assert client.put("/api/account/notifications", json={"email": True}).status_code == 403
    client.put("/api/account/notifications", headers=csrf, json={"email": True})
    table = new_table(client)["id"]
    mine = client.post(f"/api/tables/{table}/seats/1/join", headers=csrf).json()["token"]
    client.cookies.clear()
    other = client.post(f"/api/tables/{table}/seats/0/join").json()["token"]
    seen = len(sink.to(ADA))
    rng = Rng(1)
    while client.get(f"/api/tables/{table}/view").json()["to_move"] != 1:
        random_move(client, table, [other, mine], rng)
    client.app.state.notifier.idle()
    (mail,) = sink.to(ADA)[seen:]
    assert mail["Subject"] == f"Your turn: The Red Cathedral, table {table}"


def test_sign_in_is_rate_limited_per_address_and_per_email(sqlite_url: str,
                                                           sink: SmtpSink) -> None:
    limits = LimitConfig(client={"sign-in": Rate(0.001, 3)},
                         total={"sign-in": Rate(100.0, 100)},
                         token={"sign-in": Rate(0.001, 1)})
    with make_client(sqlite_url, smtp=sink.url, limits=limits) as client:
        assert client.post("/api/account/sign-in", json={"email": ADA}).status_code == 202
        again = client.post("/api/account/sign-in", json={"email": ADA})
        assert again.status_code == 429 and "Retry-After" in again.headers
        assert client.post("/api/account/sign-in", json={"email": BOB}).status_code == 202
        assert client.post("/api/account/sign-in", json={"email": "cy@example.org"}
                           ).status_code == 202
        fourth = client.post("/api/account/sign-in", json={"email": "dee@example.org"})
        assert fourth.status_code == 429  # the address's burst of 3 is spent
        client.app.state.notifier.idle()
    assert len(sink.to(ADA)) >= 1


def test_migration_0005_keeps_the_stored_seats(db_url: str) -> None:
    """Migration 0005 on SQLite and PostgreSQL: stored seats keep their tokens and
    belong to no account; it can be taken back."""
    from alembic import command
    from sqlalchemy import inspect, text

    from meeplehall.server.db import _alembic_config, ensure_schema, make_engine

    engine = make_engine(db_url)
    try:
        config = _alembic_config()
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "0003")
            connection.execute(text(
                "INSERT INTO game_tables (id, game, rules_version, params, seed, source, "
                "finished, created_at) VALUES (1, 'red-cathedral', 1, '{}', 7, 'new', "
                "false, CURRENT_TIMESTAMP)"))
            connection.execute(text("INSERT INTO seats (table_id, seat, kind, token_hash) "
                                    "VALUES (1, 0, 'human', 'abc')"))
        ensure_schema(engine)
        with engine.connect() as connection:
            assert connection.execute(text("SELECT token_hash, account_id FROM seats")
                                      ).all() == [("abc", None)]
            assert {"accounts", "account_sessions", "sign_in_links", "subscriptions",
                    "deliveries"} <= set(inspect(connection).get_table_names())
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0003")
            assert "accounts" not in inspect(connection).get_table_names()
    finally:
        engine.dispose()


def test_the_session_cookie_is_secure_over_https(sqlite_url: str, sink: SmtpSink) -> None:
    with make_client(sqlite_url, smtp=sink.url, public_url="https://hall.example") as plain:
        token = sign_in_token(plain, sink, ADA)
        secure = TestClient(plain.app, base_url="https://hall.example")
        reply = secure.post("/api/account/session", json={"token": token})
        assert reply.status_code == 200 and "Secure" in reply.headers["set-cookie"]
        assert "Secure" not in plain.post("/api/account/session", json={
            "token": sign_in_token(plain, sink, ADA)}).headers["set-cookie"]


def test_a_password_signs_in_too_and_never_says_which_part_was_wrong(
        client: Any, sink: SmtpSink) -> None:
    ada = sign_in(client, sink, ADA)
    csrf = {"X-CSRF-Token": ada["csrf"]}
    assert ada["password"] is False
    short = client.post("/api/account/password", headers=csrf, json={"password": "short"})
    assert short.status_code == 422 and "10 to 200" in short.json()["detail"]
    assert client.post("/api/account/password", json={"password": "correct horse"}
                       ).status_code == 403
    assert client.post("/api/account/password", headers=csrf,
                       json={"password": "correct horse"}).json() == {"password": True}
    with client.app.state.service.engine.connect() as conn:
        stored = conn.execute(select(AccountRow.password_hash)).scalar_one()
    assert stored.startswith("$argon2id$") and "correct horse" not in stored
    as_device(client, None)
    good = client.post("/api/account/session",
                       json={"email": " ADA@example.org", "password": "correct horse"})
    assert good.status_code == 200 and good.json()["email"] == ADA
    assert good.json()["password"] is True
    as_device(client, None)
    wrong = client.post("/api/account/session",
                        json={"email": ADA, "password": "wrong horse!"})
    unknown = client.post("/api/account/session",
                          json={"email": "nobody@example.org", "password": "correct horse"})
    assert (wrong.status_code, wrong.json()) == (unknown.status_code, unknown.json())
    assert wrong.status_code == 401
    both = client.post("/api/account/session", json={"token": "x", "email": ADA,
                                                      "password": "correct horse"})
    assert both.status_code == 422
