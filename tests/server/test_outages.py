"""Honest health and clean outages: PostgreSQL and Redis stopped and started again in
the middle of a game played on two server processes."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest
from tools.services import find_redis, temp_postgres, temp_redis_server

from meeplehall.core.rng import Rng
from tests.server.conftest import _postgres_missing
from tests.server.helpers import bearer, connect, hotseat, play_random, random_move
from tests.server.procs import running_server


def _health(client: httpx.Client) -> tuple[int, dict[str, Any], str | None]:
    reply = client.get("/api/health")
    return reply.status_code, reply.json(), reply.headers.get("retry-after")


def _wait_health(client: httpx.Client, status: int, state: str,
                 timeout: float = 20.0) -> dict[str, Any]:
    """Health once it answers ``status`` with ``state`` (answers are cached a second)."""
    deadline = time.monotonic() + timeout
    while True:
        code, body, _ = _health(client)
        if (code, body["status"]) == (status, state) or time.monotonic() > deadline:
            assert (code, body["status"]) == (status, state), body
            return body
        time.sleep(0.1)


def _until_seq(ws: Any, seq: int) -> None:
    while True:
        message = json.loads(ws.recv(timeout=15))
        assert message["type"] in ("sync", "update"), message
        if message["seq"] >= seq:
            return


def test_postgresql_and_redis_outages_mid_game() -> None:
    reason = _postgres_missing() or (None if find_redis() else "redis-server is not installed")
    if reason:
        pytest.skip(reason)
    rng = Rng.from_seed(11)
    # Durable: an immediate stop is a crash, and a committed move must survive it.
    with temp_postgres(durable=True) as cluster, temp_redis_server() as redis:
        db = cluster.create_database()
        with running_server(db, "--redis", redis.url) as one, \
                running_server(db, "--redis", redis.url) as two, \
                httpx.Client(base_url=one, timeout=30) as client, \
                httpx.Client(base_url=two, timeout=30) as other:
            table, tokens = hotseat(client, seed=8)
            for _ in range(5):
                random_move(client, table, tokens, rng)
            code, body, _ = _health(client)
            assert code == 200 and body["ok"] and body["database"] == body["redis"] == "ok"
            state = client.get(f"/api/tables/{table}/view").json()
            token = tokens[state["to_move"]]
            legal = client.get(f"/api/tables/{table}/legal", headers=bearer(token)).json()
            move = {"action": legal["actions"][0]["text"], "seq": legal["seq"]}

            # PostgreSQL goes down: 503 with a retry hint everywhere, nothing hangs.
            cluster.stop()
            for base_client in (client, other):
                _wait_health(base_client, 503, "unavailable")
                code, body, retry = _health(base_client)
                assert code == 503 and not body["ok"] and body["database"] != "ok", body
                assert body["redis"] == "ok" and retry is not None and int(retry) >= 1
            for method, url, kwargs in (
                    ("POST", f"/api/tables/{table}/actions", {"json": move,
                                                              "headers": bearer(token)}),
                    ("GET", "/api/tables", {}),
                    ("POST", f"/api/tables/{table}/seats/0/join", {}),
                    ("POST", "/api/tables", {"json": {"game": "red-cathedral"}})):
                reply = client.request(method, url, **kwargs)
                assert reply.status_code == 503, (url, reply.text)
                assert "try again" in reply.json()["detail"]
                assert int(reply.headers["retry-after"]) >= 1
            # The spectator's view: from memory where the process holds the table.
            reply = client.get(f"/api/tables/{table}/view")
            assert reply.status_code == 200 and reply.headers["x-from-memory"] == "1"
            assert reply.json()["seq"] == state["seq"]
            reply = other.get(f"/api/tables/{table}/view")
            assert reply.status_code == 503 and int(reply.headers["retry-after"]) >= 1
            with connect(two.replace("http://", "ws://") + f"/api/tables/{table}/ws") as ws:
                ws.send(json.dumps({"token": None}))
                assert json.loads(ws.recv(timeout=10))["status"] == 503

            # It comes back: the very first request (a move) succeeds, on either process.
            cluster.start()
            reply = client.post(f"/api/tables/{table}/actions", json=move,
                                headers=bearer(token))
            assert reply.status_code == 200, reply.text
            assert other.get(f"/api/tables/{table}/view").json()["seq"] == reply.json()["seq"]
            _wait_health(client, 200, "ok")
            _wait_health(other, 200, "ok")

            # Redis goes down: health says degraded, still 200 (the process stays in
            # service); moves still work (the database holds them).
            with connect(two.replace("http://", "ws://") + f"/api/tables/{table}/ws") as ws:
                ws.send(json.dumps({"token": None}))
                assert json.loads(ws.recv(timeout=10))["type"] == "sync"
                redis.stop()
                body = _wait_health(client, 200, "degraded")
                assert body["ok"] and body["redis"] != "ok" and body["database"] == "ok"
                seq = random_move(client, table, tokens, rng)
                assert seq is not None
                # Redis comes back: health recovers, and a spectator on the other process
                # gets the moves made on this one again.
                redis.start()
                _wait_health(client, 200, "ok")
                _wait_health(other, 200, "ok")
                seq = random_move(client, table, tokens, rng)
                assert seq is not None
                _until_seq(ws, seq)
            assert play_random(client, table, tokens, rng) > 0
            assert other.get(f"/api/tables/{table}/view").json()["finished"]
