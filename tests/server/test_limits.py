"""Limits that hold: costly requests and spectator sockets are limited per client
address and in all, and two processes sharing Redis together allow what one does."""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

import httpx
from tools.services import TempPostgres

from meeplehall.core.record import GameRecord
from meeplehall.games import GAMES
from meeplehall.server.limits import LimitConfig, Rate
from tests.server.conftest import make_client
from tests.server.helpers import GAME, QUICK, bearer, connect, random_move
from tests.server.procs import running_server


def _create(client: Any, address: str | None = None) -> int:
    headers = {"X-Forwarded-For": address} if address else {}
    reply = client.post("/api/tables", json={"game": GAME, "options": QUICK}, headers=headers)
    if reply.status_code == 429:
        assert float(reply.headers["retry-after"]) >= 1
        assert "too many new tables" in reply.json()["detail"]
    return int(reply.status_code)


def test_per_client_and_total_rates(sqlite_url: str) -> None:
    from meeplehall.core.rng import Rng

    config = LimitConfig(client={"create": Rate(0.01, 3), "replay": Rate(0.01, 2),
                                 "import": Rate(0.01, 1), "analysis": Rate(0.01, 1)},
                         total={"create": Rate(0.01, 5), "replay": Rate(0.01, 100),
                                "import": Rate(0.01, 100), "analysis": Rate(0.01, 100)})
    with make_client(sqlite_url, limits=config) as client:
        assert [_create(client) for _ in range(4)] == [201, 201, 201, 429]
        tables = client.get("/api/tables").json()["tables"]
        table = tables[0]["id"]
        tokens = [client.post(f"/api/tables/{table}/seats/{s}/join").json()["token"]
                  for s in (0, 1)]
        rng = Rng.from_seed(1)
        for _ in range(3):
            random_move(client, table, tokens, rng)
        # Replays of past moves: two, then 429; the current view is not limited.
        codes = [client.get(f"/api/tables/{table}/replay/{k}").status_code for k in (0, 1, 2)]
        assert codes == [200, 200, 429]
        assert client.get(f"/api/tables/{table}/replay/3").status_code == 200
        # Analyses and imports.
        state = client.get(f"/api/tables/{table}/view").json()
        token = tokens[state["to_move"]]
        codes = [client.get(f"/api/tables/{table}/analysis?bot=random",
                            headers=bearer(token)).status_code for _ in range(2)]
        assert codes == [200, 429]
        record = GameRecord(GAME, GAMES[GAME].rules_version, dict(QUICK), 3, [], {}).to_dict()
        codes = [client.post("/api/tables/import", json={"record": record}).status_code
                 for _ in range(2)]
        assert codes == [201, 429]


def test_one_address_cannot_take_all_of_the_service(sqlite_url: str) -> None:
    """Behind a trusted proxy (loopback, by default), each address the proxy names has
    its own bucket, and the total caps them all."""
    limits = ("--limit", "create=0.01,2", "--total-limit", "create=0.01,5")
    with running_server(sqlite_url, *limits) as base, \
            httpx.Client(base_url=base, timeout=30) as client:
        assert [_create(client, "10.0.0.1") for _ in range(3)] == [201, 201, 429]
        assert [_create(client, "10.0.0.2") for _ in range(2)] == [201, 201]
        assert [_create(client, "10.0.0.3") for _ in range(2)] == [201, 429]  # the total


def test_limits_are_shared_across_processes(pg: TempPostgres, redis_url: str) -> None:
    import redis

    shared = redis.Redis.from_url(redis_url)
    for key in shared.scan_iter("meeplehall:limit:*"):  # from other tests of this session
        shared.delete(key)
    shared.close()
    db = pg.create_database()
    limits = ("--limit", "create=0.01,4", "--total-limit", "create=0.01,100",
              "--spectators-per-client", "3", "--spectators", "100")
    # running_server turns every limit off; these arguments come after and win.
    with running_server(db, "--redis", redis_url, *limits) as one, \
            running_server(db, "--redis", redis_url, *limits) as two, \
            httpx.Client(base_url=one, timeout=30) as a, \
            httpx.Client(base_url=two, timeout=30) as b:
        codes = [_create(client) for client in (a, b, a, b, a, b)]
        assert codes == [201, 201, 201, 201, 429, 429]
        table = a.get("/api/tables").json()["tables"][0]["id"]
        with contextlib.ExitStack() as stack:
            replies = []
            for base in (one, two, one, two):
                ws = stack.enter_context(
                    connect(base.replace("http://", "ws://") + f"/api/tables/{table}/ws"))
                ws.send(json.dumps({"token": None}))
                replies.append(json.loads(ws.recv(timeout=10)))
            assert [r["type"] for r in replies] == ["sync", "sync", "sync", "error"]
            assert replies[-1]["status"] == 429
            stack.close()  # the three sockets close: their places are free again
            assert _eventually_sync(two, table)


def _eventually_sync(base: str, table: int) -> bool:
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        with connect(base.replace("http://", "ws://") + f"/api/tables/{table}/ws") as ws:
            ws.send(json.dumps({"token": None}))
            if json.loads(ws.recv(timeout=10))["type"] == "sync":
                return True
        time.sleep(0.1)
    return False
