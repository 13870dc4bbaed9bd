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


def _tight(kinds: dict[str, tuple[float, int]], tokens: dict[str, tuple[float, int]] | None = None,
           **counts: int) -> LimitConfig:
    return LimitConfig(client={k: Rate(*v) for k, v in kinds.items()},
                       token={k: Rate(*v) for k, v in (tokens or {}).items()},
                       total={k: Rate(100.0, 1000) for k in kinds}, **counts)


def test_reads_sockets_and_undo_are_limited_per_address_and_per_token(
        sqlite_url: str) -> None:
    """Views (``/view``, ``/me``, ``/legal``, ``/tables``), log pages, WebSocket openings
    and syncs and undo each have a bucket per address and one per seat token."""
    config = _tight({"view": (0.01, 6), "log": (0.01, 2), "ws": (0.01, 4),
                     "sync": (0.01, 3), "undo": (0.01, 10), "create": (0.01, 10)},
                    {"view": (0.01, 2), "sync": (0.01, 1), "undo": (0.01, 1)})
    with make_client(sqlite_url, limits=config) as client:
        table = client.post("/api/tables", json={"game": GAME, "options": QUICK}).json()["id"]
        tokens = [client.post(f"/api/tables/{table}/seats/{s}/join").json()["token"]
                  for s in (0, 1)]
        # per token: two reads of /me and /legal, then 429, while the other seat reads on
        me = [client.get(f"/api/tables/{table}/{p}", headers=bearer(tokens[0])).status_code
              for p in ("me", "legal", "me")]
        assert me == [200, 200, 429]
        assert client.get(f"/api/tables/{table}/me", headers=bearer(tokens[1])).status_code == 200
        # per address: six in all (three above: a request refused takes nothing), then
        # 429 for every kind of read
        codes = [client.get(path).status_code for path in (
            f"/api/tables/{table}/view", "/api/tables", f"/api/tables/{table}",
            f"/api/tables/{table}/view", "/api/tables")]
        assert codes == [200, 200, 200, 429, 429]
        reply = client.get(f"/api/tables/{table}/view")
        assert "too many table reads" in reply.json()["detail"]
        assert float(reply.headers["retry-after"]) >= 1
        assert [client.get(f"/api/tables/{table}/log").status_code for _ in range(3)] == [
            200, 200, 429]
        # WebSockets: a sync per token, then 429; four openings per address
        replies = []
        for token in (tokens[0], tokens[0], None, None, None):
            with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
                ws.send_json({"token": token})
                replies.append(ws.receive_json())
        assert [(r["type"], r.get("status")) for r in replies] == [
            ("sync", None), ("error", 429), ("sync", None), ("sync", None), ("error", 429)]
        assert "WebSocket openings" in replies[-1]["detail"]
        assert "WebSocket syncs" in replies[1]["detail"]
        # undo: one per token (the refused one says so before anything is read)
        undo = client.post(f"/api/tables/{table}/undo", headers=bearer(tokens[0]),
                           json={"seq": 0})
        assert undo.status_code == 409  # nothing to undo, but it was counted
        undo = client.post(f"/api/tables/{table}/undo", headers=bearer(tokens[0]),
                           json={"seq": 0})
        assert undo.status_code == 429 and "too many undos" in undo.json()["detail"]


def test_sockets_per_seat_token_and_bot_tables_per_address(sqlite_url: str) -> None:
    config = _tight({"create": (100.0, 100)}, sockets_per_seat=2, bot_tables_per_client=2)
    with make_client(sqlite_url, limits=config) as client:
        table = client.post("/api/tables", json={"game": GAME, "options": QUICK}).json()["id"]
        token = client.post(f"/api/tables/{table}/seats/0/join").json()["token"]
        other = client.post(f"/api/tables/{table}/seats/1/join").json()["token"]
        url = f"/api/tables/{table}/ws"
        with client.websocket_connect(url) as a, client.websocket_connect(url) as b, \
                client.websocket_connect(url) as c, client.websocket_connect(url) as d:
            replies = []
            for ws, seat_token in ((a, token), (b, token), (c, token), (d, other)):
                ws.send_json({"token": seat_token})
                replies.append(ws.receive_json())
            assert [r["type"] for r in replies] == ["sync", "sync", "error", "sync"]
            assert replies[2]["status"] == 429
            assert "at most 2" in replies[2]["detail"]
        with client.websocket_connect(url) as again:  # the closed ones count no more
            again.send_json({"token": token})
            assert again.receive_json()["type"] == "sync"
        # Bot tables: two running at once; a finished one counts no more.
        bots = {"game": GAME, "options": QUICK, "seats": ["random", "random"]}
        made = [client.post("/api/tables", json=bots) for _ in range(3)]
        assert [r.status_code for r in made] == [201, 201, 429]
        assert "too many bot tables" in made[2].json()["detail"]
        people = client.post("/api/tables", json={"game": GAME, "options": QUICK})
        assert people.status_code == 201  # tables without bots are not counted
        deadline = time.monotonic() + 60
        first = made[0].json()["id"]
        while not client.get(f"/api/tables/{first}").json()["finished"]:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        assert client.post("/api/tables", json=bots).status_code == 201


def test_the_move_rate_per_seat(sqlite_url: str) -> None:
    with make_client(sqlite_url, move_rate=0.01, move_burst=2) as client:
        table = client.post("/api/tables", json={"game": GAME, "options": QUICK}).json()["id"]
        tokens = [client.post(f"/api/tables/{table}/seats/{s}/join").json()["token"]
                  for s in (0, 1)]
        codes = []
        for _ in range(3):
            state = client.get(f"/api/tables/{table}/view").json()
            token = tokens[state["to_move"]]
            legal = client.get(f"/api/tables/{table}/legal", headers=bearer(token)).json()
            reply = client.post(f"/api/tables/{table}/actions", headers=bearer(tokens[0]),
                                json={"action": legal["actions"][0]["text"],
                                      "seq": legal["seq"]})
            codes.append(reply.status_code)
            if reply.status_code == 429:
                assert "too many moves for this seat token" in reply.json()["detail"]
        # seat 0's token: two moves or refusals (403 when it is not its turn), then 429
        assert codes[2] == 429 and 429 not in codes[:2]


def _crowd(base: str, clients: int, first: int = 0) -> list[int]:
    with httpx.Client(base_url=base, timeout=30) as client:
        return [_create(client, f"10.1.{i // 250}.{i % 250}")
                for i in range(first, first + clients)]


FAIR = ("--limit", "create=0.01,5", "--total-limit", "create=0.01,20")


def test_a_new_client_gets_in_after_160_others(sqlite_url: str) -> None:
    """160 addresses open a table each, far above the site-wide ceiling (20): each had
    used nothing, so each gets in; one of them asking again is above its share and
    waits; a brand-new address still gets in."""
    with running_server(sqlite_url, *FAIR) as base, \
            httpx.Client(base_url=base, timeout=30) as client:
        assert _crowd(base, 160) == [201] * 160
        assert _create(client, "10.1.0.0") == 429  # the first of them, again
        assert _create(client, "10.9.9.9") == 201  # a brand-new address


def test_fair_limits_and_move_rates_across_processes(pg: TempPostgres, redis_url: str) -> None:
    """The same on two processes sharing Redis: the site-wide count, the fair shares
    and a seat token's move rate are the same whichever process is asked."""
    import redis

    shared = redis.Redis.from_url(redis_url)
    for key in shared.scan_iter("meeplehall:limit:*"):
        shared.delete(key)
    shared.close()
    db = pg.create_database()
    extra = (*FAIR, "--move-rate", "0.01", "--limit", "view=100,1000",
             "--sockets-per-seat", "2")
    with running_server(db, "--redis", redis_url, *extra) as one, \
            running_server(db, "--redis", redis_url, *extra) as two, \
            httpx.Client(base_url=one, timeout=30) as a, \
            httpx.Client(base_url=two, timeout=30) as b:
        assert _crowd(one, 80) + _crowd(two, 80, first=80) == [201] * 160
        assert _create(b, "10.1.0.0") == 429  # made its table on process one
        assert _create(a, "10.9.9.9") == 201
        # A seat token's moves: the burst (40 by default, here 40 at 0.01/s) is shared,
        # so moves through either process count; two sockets of one token across both.
        table = a.post("/api/tables", json={"game": GAME, "options": QUICK},
                       headers={"X-Forwarded-For": "10.7.7.7"}).json()["id"]
        tokens = [a.post(f"/api/tables/{table}/seats/{s}/join").json()["token"]
                  for s in (0, 1)]
        with contextlib.ExitStack() as stack:
            replies = []
            for base in (one, two, one):
                ws = stack.enter_context(
                    connect(base.replace("http://", "ws://") + f"/api/tables/{table}/ws"))
                ws.send(json.dumps({"token": tokens[0]}))
                replies.append(json.loads(ws.recv(timeout=10)))
            assert [r["type"] for r in replies] == ["sync", "sync", "error"]
        # Moves of one token, alternating between the processes (stale, so each gets
        # 409, counted all the same): the burst of 40 is one for both.
        codes = [(a, b)[k % 2].post(f"/api/tables/{table}/actions", headers=bearer(tokens[0]),
                                    json={"action": "x", "seq": 999}).status_code
                 for k in range(41)]
        assert set(codes[:40]) <= {403, 409, 422} and codes[40] == 429


def _watch(base: str, table: int, address: str, stack: contextlib.ExitStack) -> str:
    ws = stack.enter_context(connect(base.replace("http://", "ws://")
                                     + f"/api/tables/{table}/ws",
                                     additional_headers={"X-Forwarded-For": address}))
    ws.send(json.dumps({"token": None}))
    reply = json.loads(ws.recv(timeout=10))
    return str(reply["type"] if reply["type"] == "sync" else reply["status"])


def _check_new_spectators_get_in(one: str, two: str) -> None:
    with httpx.Client(base_url=one, timeout=30) as client:
        table = client.post("/api/tables", json={"game": GAME, "options": QUICK}).json()["id"]
    with contextlib.ExitStack() as stack:
        got = [_watch(base, table, address, stack) for base, address in (
            (one, "10.2.0.1"), (two, "10.2.0.1"), (one, "10.2.0.2"),  # the total: 3
            (two, "10.2.0.2"),  # has one already: refused
            (one, "10.2.0.3"),  # new: let in above the total
            (two, "10.2.0.3"), (two, "10.2.0.1"))]
        assert got == ["sync", "sync", "sync", "429", "sync", "429", "429"]


SPECTATORS = ("--spectators", "3", "--spectators-per-client", "2")


def test_a_new_address_gets_its_first_spectator_socket(sqlite_url: str) -> None:
    with running_server(sqlite_url, *SPECTATORS) as base:
        _check_new_spectators_get_in(base, base)


def test_a_new_address_gets_its_first_spectator_socket_across_processes(
        pg: TempPostgres, redis_url: str) -> None:
    import redis

    shared = redis.Redis.from_url(redis_url)
    for key in shared.scan_iter("meeplehall:limit:ws:*"):
        shared.delete(key)
    shared.close()
    db = pg.create_database()
    with running_server(db, "--redis", redis_url, *SPECTATORS) as one, \
            running_server(db, "--redis", redis_url, *SPECTATORS) as two:
        _check_new_spectators_get_in(one, two)


def test_bot_tables_per_address_are_counted_across_processes(pg: TempPostgres,
                                                             redis_url: str) -> None:
    """The bot-table cap is one count in Redis: an address with two bot tables open
    through either process gets no third from either, another address gets its own."""
    import redis

    shared = redis.Redis.from_url(redis_url)
    for key in shared.scan_iter("meeplehall:limit:bots:*"):
        shared.delete(key)
    shared.close()
    db = pg.create_database()
    # A person moves first, so the tables stay unfinished (and bots never move).
    body = {"game": GAME, "options": QUICK, "seats": ["human", "random"]}
    with running_server(db, "--redis", redis_url, "--bot-tables-per-client", "2") as one, \
            running_server(db, "--redis", redis_url, "--bot-tables-per-client", "2") as two, \
            httpx.Client(base_url=one, timeout=30) as a, \
            httpx.Client(base_url=two, timeout=30) as b:
        def make(client: httpx.Client, address: str) -> int:
            reply = client.post("/api/tables", json=body,
                                headers={"X-Forwarded-For": address})
            if reply.status_code == 429:
                assert "too many bot tables" in reply.json()["detail"]
            return reply.status_code

        assert [make(a, "10.5.0.1"), make(b, "10.5.0.1")] == [201, 201]
        assert [make(a, "10.5.0.1"), make(b, "10.5.0.1")] == [429, 429]
        assert make(b, "10.5.0.2") == 201
        people = a.post("/api/tables", json={"game": GAME, "options": QUICK},
                        headers={"X-Forwarded-For": "10.5.0.1"})
        assert people.status_code == 201  # a table without bots is not counted
