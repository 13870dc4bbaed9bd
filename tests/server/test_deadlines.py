"""Turn deadlines on the server's clock: a reminder once, a stand-in past the deadline
until the player returns, kept in the database across restarts, claimed by one process."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from fastapi.testclient import TestClient
from tools.services import TempPostgres

from meeplehall.server.clock import FileClock, ManualClock
from meeplehall.server.notices import Notice, Notices
from tests.server.conftest import make_client
from tests.server.helpers import bearer, connect, join
from tests.server.procs import running_server

GAME = "red-cathedral"
OPTIONS = {"players": 2, "round_limit": 10}
START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _app(url: str, clock: ManualClock) -> tuple[TestClient, list[Notice]]:
    notices = Notices()
    got: list[Notice] = []  # the deadlines' notices (your-turn ones are the notifier's)
    notices.subscribe(lambda n: got.append(n) if n.kind != "your-turn" else None)
    # Sweeps only when a test asks (deadline_every far beyond the test).
    return make_client(url, clock=clock, notices=notices, deadline_every=3600.0), got


def _sweep(client: TestClient) -> list[Notice]:
    done: list[Notice] = client.portal.call(client.app.state.deadlines.sweep)  # type: ignore[attr-defined,union-attr]
    return done


def _seats(client: TestClient, table: int) -> list[dict[str, Any]]:
    seats: list[dict[str, Any]] = client.get(f"/api/tables/{table}").json()["seats"]
    return seats


def _wait(client: TestClient, table: int, test: Any, what: str) -> dict[str, Any]:
    """The table once ``test(table)`` holds: the deadline is set, and the stand-in
    moves, by tasks of the server after the request that caused them."""
    for _ in range(600):
        summary: dict[str, Any] = client.get(f"/api/tables/{table}").json()
        if test(summary):
            return summary
        time.sleep(0.02)
    raise AssertionError(f"table {table}: {what} did not happen")


def _deadline(summary: dict[str, Any], seat: int) -> datetime | None:
    stamp = summary["seats"][seat]["deadline"]
    return None if stamp is None else datetime.fromisoformat(stamp)


def _open(client: TestClient, hours: float = 24) -> tuple[int, list[str], int]:
    reply = client.post("/api/tables", json={"game": GAME, "options": OPTIONS, "seed": 11,
                                             "deadline_hours": hours, "stand_in": "random"})
    assert reply.status_code == 201, reply.text
    table = reply.json()["id"]
    tokens = [join(client, table, 0), join(client, table, 1)]
    client.post(f"/api/tables/{table}/name", json={"name": "Bob"}, headers=bearer(tokens[1]))
    client.post(f"/api/tables/{table}/name", json={"name": "Ada"}, headers=bearer(tokens[0]))
    summary = _wait(client, table, lambda t: _deadline(t, t["to_move"]) is not None,
                    "the first deadline")
    return table, tokens, summary["to_move"]


def test_reminder_once_stand_in_after_the_deadline_and_the_return(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'days.db'}"
    clock = ManualClock(START)
    client, got = _app(url, clock)
    with client:
        table, tokens, silent = _open(client)
        summary = client.get(f"/api/tables/{table}").json()
        assert _deadline(summary, silent) == START + timedelta(hours=24)
        assert _deadline(summary, 1 - silent) is None
        clock.advance(timedelta(hours=17))
        assert _sweep(client) == []  # the reminder goes 6 h (a quarter) before
        clock.advance(timedelta(hours=1, minutes=30))
        reminders = _sweep(client)
        assert [(n.kind, n.seat, n.table_id) for n in reminders] == [("reminder", silent, table)]
        assert reminders[0].deadline == START + timedelta(hours=24)
        assert _sweep(client) == []  # once
        clock.advance(timedelta(hours=6))
        stood = _sweep(client)
        assert [(n.kind, n.seat) for n in stood] == [("stand-in", silent)]
        assert [n.kind for n in got] == ["reminder", "stand-in"]
        # The stand-in bot plays the seat's turn; every seat sees who played.
        summary = _wait(client, table, lambda t: t["to_move"] != silent, "the stand-in's turn")
        assert summary["seats"][silent]["played_by"] == "random"
        assert summary["seats"][silent]["played_why"] == "deadline"
        view = client.get(f"/api/tables/{table}/me", headers=bearer(tokens[1 - silent])).json()
        notes = [n["text"] for n in view["notes"]]
        name = "Bob" if silent == 1 else "Ada"
        assert {"key": "Played by the stand-in bot for {name}",
                "args": {"bot": "random", "name": name}} in notes
        assert all(tokens[silent] not in str(n) for n in notes)
        # The other seat's deadline runs now, from the clock's time of the change.
        summary = _wait(client, table, lambda t: _deadline(t, 1 - silent) is not None,
                        "the other seat's deadline")
        assert _deadline(summary, 1 - silent) == clock.now() + timedelta(hours=24)
        # The silent player comes back: any request with its token ends the stand-in.
        assert client.get(f"/api/tables/{table}/me",
                          headers=bearer(tokens[silent])).status_code == 200
        seat = _seats(client, table)[silent]
        assert seat["played_by"] is None and seat["played_why"] is None


def test_deadlines_survive_a_new_app_and_two_apps_stand_in_once(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'two.db'}"
    clock = ManualClock(START)
    first, _ = _app(url, clock)
    with first:
        table, _tokens, silent = _open(first, hours=2)
    # Every process stopped: the deadline is in the database.
    clock.advance(timedelta(hours=3))
    one, got_one = _app(url, clock)
    two, got_two = _app(url, clock)
    with one, two:
        assert _deadline(one.get(f"/api/tables/{table}").json(), silent) == \
            START + timedelta(hours=2)
        results: list[list[Notice]] = []
        start = threading.Barrier(2)

        def sweep(client: TestClient) -> None:
            start.wait()
            results.append(_sweep(client))

        threads = [threading.Thread(target=sweep, args=(c,)) for c in (one, two)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        stood = [n for r in results for n in r]
        assert [(n.kind, n.seat) for n in stood] == [("stand-in", silent)]
        assert len(got_one) + len(got_two) == 1  # past the deadline: no late reminder
        _wait(one, table, lambda t: t["to_move"] != silent, "the stand-in's turn")


def _frames(ws: Any, test: Any, what: str, limit: int = 200) -> dict[str, Any]:
    for _ in range(limit):
        message: dict[str, Any] = json.loads(ws.recv(timeout=30))
        if test(message):
            return message
    raise AssertionError(f"no {what}")


def test_two_processes_on_postgres_and_redis(pg: TempPostgres, redis_url: str,
                                             tmp_path: Any) -> None:
    """A shared file clock moves both processes' days: the stand-in takes over in one,
    its moves, the chat and a recovery reach the sockets of the other (Redis)."""
    db = pg.create_database()
    clock_file = tmp_path / "clock"
    extra = ("--redis", redis_url, "--clock-file", str(clock_file),
             "--deadline-every", "0.2", "--bot-think-time", "1")
    with running_server(db, *extra) as one, running_server(db, *extra) as two, \
            httpx.Client(base_url=one, timeout=30) as http, contextlib.ExitStack() as stack:
        reply = http.post("/api/tables", json={
            "game": GAME, "options": OPTIONS, "seed": 11, "deadline_hours": 1,
            "stand_in": "random", "spectator_chat": True})
        table = reply.json()["id"]
        tokens = [join(http, table, 0), join(http, table, 1)]
        silent = http.get(f"/api/tables/{table}").json()["to_move"]
        ws_url = two.replace("http://", "ws://") + f"/api/tables/{table}/ws"
        other = stack.enter_context(connect(ws_url))
        other.send(json.dumps({"token": tokens[1 - silent], "since": None, "seats": True}))
        assert json.loads(other.recv(timeout=30))["type"] == "sync"
        FileClock(clock_file).advance(2 * 3600)
        seen: set[str] = set()

        def stood_in(m: dict[str, Any]) -> bool:  # both, in either order
            if m["type"] == "seats" and m["seats"][silent]["played_by"] == "random":
                seen.add("seats")
            if m["type"] in ("update", "sync") and any(
                    isinstance(n["text"], dict) and "stand-in" in n["text"]["key"]
                    for n in m["notes"]):
                seen.add("move")
            return seen == {"seats", "move"}

        _frames(other, stood_in, "the stand-in in the seats and its move")
        assert http.post(f"/api/tables/{table}/chat", json={"text": "<b>sorry</b>"},
                         headers=bearer(tokens[silent])).status_code == 200
        chat = _frames(other, lambda m: m["type"] == "chat", "the chat frame")
        assert chat["message"]["text"] == "<b>sorry</b>"
        # The silent seat's socket in process two ends when it moves device in process one.
        old = stack.enter_context(connect(ws_url))
        old.send(json.dumps({"token": tokens[silent], "since": None}))
        assert json.loads(old.recv(timeout=30))["type"] == "sync"
        secret = http.post(f"/api/tables/{table}/recovery",
                           headers=bearer(tokens[silent])).json()["secret"]
        assert http.post(f"/api/tables/{table}/recover",
                         json={"secret": secret}).status_code == 200
        error = _frames(old, lambda m: m["type"] == "error", "the old socket's end")
        assert error["status"] == 401
        with httpx.Client(base_url=two, timeout=30) as http_two:
            assert http_two.get(f"/api/tables/{table}/me",
                                headers=bearer(tokens[silent])).status_code == 401


def test_every_step_of_the_seat_to_move_starts_its_deadline_again(tmp_path: Any) -> None:
    clock = ManualClock(START)
    client, _ = _app(f"sqlite:///{tmp_path / 'steps.db'}", clock)
    with client:
        table, tokens, _first = _open(client)
        for _ in range(4):  # steps of one turn and the next seat's turn alike
            clock.advance(timedelta(hours=2))
            legal = None
            for token in tokens:
                reply = client.get(f"/api/tables/{table}/legal", headers=bearer(token)).json()
                if reply["actions"]:
                    legal, mover = reply, token
            assert legal is not None
            moved = client.post(f"/api/tables/{table}/actions", headers=bearer(mover), json={
                "action": legal["actions"][0]["text"], "seq": legal["seq"]})
            assert moved.status_code == 200, moved.text
            due = clock.now() + timedelta(hours=24)
            summary = _wait(client, table, lambda t, due=due: t["to_move"] is not None
                            and _deadline(t, t["to_move"]) == due, "the renewed deadline")
            others = [s for s in summary["seats"] if s["seat"] != summary["to_move"]]
            assert all(s["deadline"] is None for s in others)
