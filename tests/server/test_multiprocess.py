"""Two server processes on one PostgreSQL, live updates through Redis."""

from __future__ import annotations

import json
import threading
from typing import Any

import httpx
from tools.services import TempPostgres

from meeplehall.core.rng import Rng
from tests.server.helpers import QUICK, bearer, connect, join, new_table
from tests.server.procs import running_server


def _seat(base: str, table: int, seat: int, token: str, seen: dict[str, Any]) -> None:
    rng = Rng.from_seed(seat)
    log: list[str] = []
    seqs: list[int] = []
    ws_url = base.replace("http://", "ws://") + f"/api/tables/{table}/ws"
    with connect(ws_url, max_size=None) as ws, httpx.Client(base_url=base, timeout=30) as http:
        ws.send(json.dumps({"token": token, "since": None}))
        while True:
            message = json.loads(ws.recv(timeout=30))
            assert message["type"] in ("sync", "update"), message
            seqs.append(message["seq"])
            log = log[:message["log_from"]] + message["log"]
            if message["finished"]:
                break
            if message["your_turn"]:
                legal = message["legal"]
                choice = legal[rng.randbelow(len(legal))]["text"]
                reply = http.post(f"/api/tables/{table}/actions", headers=bearer(token),
                                  json={"action": choice, "seq": message["seq"]})
                assert reply.status_code in (200, 409), reply.text
    seen[f"log{seat}"] = log
    seen[f"seqs{seat}"] = seqs


def test_two_processes_share_a_game_live(pg: TempPostgres, redis_url: str) -> None:
    db = pg.create_database()
    with running_server(db, "--redis", redis_url) as one, \
            running_server(db, "--redis", redis_url) as two:
        with httpx.Client(base_url=one, timeout=30) as client:
            table = new_table(client, ["human", "human"], options=dict(QUICK, round_limit=20),
                              seed=77)["id"]
            tokens = [join(client, table, 0), join(client, table, 1)]
        seen: dict[str, Any] = {}
        threads = [threading.Thread(target=_seat, args=(base, table, seat, tokens[seat], seen))
                   for seat, base in ((0, one), (1, two))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        with httpx.Client(base_url=two, timeout=30) as client:
            final = client.get(f"/api/tables/{table}/view").json()
    assert final["finished"] and final["moves"] > 50
    for seat in (0, 1):
        assert seen[f"log{seat}"] == final["view"]["log"]  # every move's log line, live
        assert seen[f"seqs{seat}"][-1] == final["seq"]
